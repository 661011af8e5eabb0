/* The recorder: one PTF writer per process, one stream per thread, the
 * buffer policies, the PICL-style user API.  See include/paratrace/record.h.
 *
 * Flush policy: events go straight into the thread's pt_stream, whose
 * block buffer (opts.buffer bytes) is the thread's buffer: a full buffer
 * becomes a block.  Stop policy: the same, until the thread has recorded
 * `buffer` bytes (as a block encodes its events), then one
 * BUFFER_OVERFLOW event and nothing more.  Ring policy: events are kept
 * encoded as in a block in a byte ring of `buffer` bytes, the oldest
 * dropped when a new one does not fit; the ring is written when recording
 * stops (see ring_put). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/membarrier.h>)
#include <linux/membarrier.h>
#define PT_HAVE_MEMBARRIER 1
#endif
#endif

#include "core/clock.h"
#include "core/util.h"
#include "store/archive.h"
#include "paratrace/record.h"
#include "record/open_call.h"
#include "paratrace/profile.h"

typedef struct rthread {
  pt_stream *s;
  uint64_t loc;
  uint64_t last_time;
  uint64_t bytes;   /* stop policy: bytes recorded, as encoded */
  int stopped;      /* stop policy: buffer full */
  uint8_t *ring;    /* ring policy: `cap` bytes, records from `head` on
                     * (wrapping), `used` bytes of them (see ring_put) */
  size_t cap, head, used;
  uint64_t ring_base; /* time of the record before the oldest kept */
  uint64_t ring_prev; /* time of the newest record */
  uint64_t lost;
  pt__open_call *open; /* the thread's call in progress (its TLS slot);
                        * NULL once the thread has ended (under g_mu) */
  int busy;             /* writing to s now (atomic; see quiesce()) */
  uint64_t generation;  /* g_generation of the recording it belongs to */
  pt__buf scratch;  /* ring, stop: encoding and decoding area */
  struct rthread *next;
} rthread;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pt_writer *g_w;
static pt_rec_opts g_o;
static char *g_path;
static char *g_replaced; /* an archive being replaced, moved aside
                          (pt_rec_start) */
/* (open_call.h: read inline by the MPI recorder) */
int pt__rec_on;          /* recording (atomic) */
int pt__rec_measure = 1; /* measurement switched on (atomic) */
int pt__rec_lvl = 3;
#define g_on pt__rec_on
#define g_measure pt__rec_measure
#define g_level pt__rec_lvl
static int64_t g_offset;
static int g_failed;
static rthread *g_threads;
static rthread *g_retired; /* threads of stopped recordings (busy_begin) */
static uint64_t g_nthreads;
/* bumped by each start and stop: stale TLS is reset (open_call.h) */
uint64_t pt__rec_generation;
#define g_generation pt__rec_generation
/* initial-exec: no __tls_get_addr call on the hot path, also when this
 * code is in a preloaded or linked shared library */
#define PT_TLS __thread __attribute__((tls_model("initial-exec")))
/* whether this thread holds g_mu: the signal handler must not wait for a
 * lock its own thread was interrupted holding */
static PT_TLS int t_holds_mu;
static void mu_lock(void) {
  pthread_mutex_lock(&g_mu);
  t_holds_mu = 1;
}
static void mu_unlock(void) {
  t_holds_mu = 0;
  pthread_mutex_unlock(&g_mu);
}
static PT_TLS rthread *t_self;
PT_TLS pt__open_call pt__rec_open;

typedef struct named {
  char *name;
  uint64_t id;
} named;
static named *g_names; /* regions and attributes, open addressing */
static size_t g_nnames, g_capnames;

/* ---- clock --------------------------------------------------------------- */

uint64_t pt_rec_now(void) {
  int64_t off = __atomic_load_n(&g_offset, __ATOMIC_RELAXED);
  uint64_t t = pt__clock_ns();
  return off < 0 && (uint64_t)-off > t ? 0 : t + (uint64_t)off;
}

int pt_rec_enabled(void) {
  return __atomic_load_n(&g_on, __ATOMIC_RELAXED) &&
         __atomic_load_n(&g_measure, __ATOMIC_RELAXED);
}

int pt_rec_level(void) { return __atomic_load_n(&g_level, __ATOMIC_RELAXED); }

/* ---- failure ------------------------------------------------------------- */

/* One message, then recording stops; the program goes on. */
static void fail_once(const char *what) {
  if (!__atomic_exchange_n(&g_failed, 1, __ATOMIC_ACQ_REL))
    fprintf(stderr, "paratrace: recording stopped: %s\n", what);
  __atomic_store_n(&g_on, 0, __ATOMIC_RELEASE);
}

/* ---- names --------------------------------------------------------------- */

/* Names are kept as [class][type][name]: an attribute's type is part of
 * its key, so an argument name that is a scalar in one MPI function and
 * an integer array in another (Waitany's index, Graph_create's index)
 * gets two definitions, each with its own type, whichever comes first. */
static uint64_t name_hash(const char *key) {
  /* attributes of type INT (and regions) keep the plain name's hash */
  uint64_t seed = key[0] == '1' && key[1] != '0' + PT_TYPE_INT
                      ? (uint64_t)(unsigned char)key[1]
                      : 0;
  return pt__fnv1a(key + 2, seed);
}

/* The id of `name` in class `cls` (0 regions, 1 attributes of value type
 * `type`), defining it with `define` on first use.  Ids come from the
 * name's and type's hash (24 bits, so every process agrees), probing on
 * a collision.  Caller holds g_mu. */
static uint64_t name_id(int cls, int type, const char *name, int *created) {
  *created = 0;
  if (!name) name = "";
  if ((g_nnames + 1) * 2 > g_capnames) {
    size_t nc = g_capnames ? g_capnames * 2 : 256;
    named *n = calloc(nc, sizeof *n);
    if (!n) return PT_NONE;
    for (size_t i = 0; i < g_capnames; i++) {
      if (!g_names[i].name) continue;
      size_t k = name_hash(g_names[i].name) & (nc - 1);
      while (n[k].name) k = (k + 1) & (nc - 1);
      n[k] = g_names[i];
    }
    free(g_names);
    g_names = n;
    g_capnames = nc;
  }
  /* (the key is built only for a new name: a lookup allocates nothing) */
  char c0 = (char)('0' + cls), c1 = (char)('0' + type);
  uint64_t h = pt__fnv1a(name, cls == 1 && type != PT_TYPE_INT
                                   ? (uint64_t)(unsigned char)c1
                                   : 0);
  size_t mask = g_capnames - 1;
  uint64_t want = (h & 0xffffff) | ((uint64_t)cls << 24);
  size_t i = h & mask;
  for (; g_names[i].name; i = (i + 1) & mask) {
    if (g_names[i].name[0] == c0 && g_names[i].name[1] == c1 &&
        strcmp(g_names[i].name + 2, name) == 0)
      return g_names[i].id;
  }
  size_t len = strlen(name);
  char *copy = malloc(len + 3);
  if (!copy) return PT_NONE;
  copy[0] = c0;
  copy[1] = c1;
  memcpy(copy + 2, name, len + 1);
  /* Collision with another name's id: take the next free one. */
  for (int again = 1; again;) {
    again = 0;
    for (size_t j = 0; j < g_capnames; j++)
      if (g_names[j].name && g_names[j].id == want) {
        want = ((want + 1) & 0xffffff) | ((uint64_t)cls << 24);
        again = 1;
        break;
      }
  }
  g_names[i].name = copy;
  g_names[i].id = want;
  g_nnames++;
  *created = 1;
  return want;
}

static int def_locked(const pt_def *d) {
  if (!g_w) return PT_ESTATE;
  int rc = pt_writer_def(g_w, d);
  if (rc) fail_once(pt_writer_errmsg(g_w));
  return rc;
}

int pt_rec_def(const pt_def *def) {
  mu_lock();
  int rc = def_locked(def);
  mu_unlock();
  return rc;
}

uint64_t pt_rec_region(const char *name, int role, int paradigm) {
  mu_lock();
  int created;
  uint64_t id = name_id(0, 0, name, &created);
  if (created && g_w) {
    pt_def d = {.kind = PT_DEF_REGION, .id = id, .i0 = role, .i1 = paradigm,
                .name = name};
    def_locked(&d);
  }
  mu_unlock();
  return id;
}

uint64_t pt_rec_attribute(const char *name, int type) {
  mu_lock();
  int created;
  uint64_t id = name_id(1, type, name, &created);
  if (created && g_w) {
    pt_def d = {.kind = PT_DEF_ATTRIBUTE, .id = id, .i0 = type, .name = name};
    def_locked(&d);
  }
  mu_unlock();
  return id;
}

/* ---- threads ------------------------------------------------------------- */

/* A thread that ends takes its TLS with it: its open-call slot is
 * forgotten (the signal handler reads it from another thread). */
static pthread_key_t g_exit_key;
static pthread_once_t g_exit_once = PTHREAD_ONCE_INIT;
static int g_exit_key_ok;
static void thread_exit(void *p) {
  (void)p; /* may be stale (a stop frees the threads): not used */
  mu_lock();
  for (rthread *q = g_threads; q; q = q->next)
    if (q->open == &pt__rec_open) /* this thread's slot */
      __atomic_store_n(&q->open, NULL, __ATOMIC_RELEASE);
  mu_unlock();
}
static void exit_key_init(void) {
  g_exit_key_ok = pthread_key_create(&g_exit_key, thread_exit) == 0;
}

static rthread *thread_new(void) {
  pthread_once(&g_exit_once, exit_key_init);
  mu_lock();
  if (!g_w) {
    mu_unlock();
    return NULL;
  }
  rthread *t = calloc(1, sizeof *t);
  if (!t) {
    mu_unlock();
    fail_once("out of memory");
    return NULL;
  }
  uint64_t index = g_nthreads++;
  t->generation = __atomic_load_n(&g_generation, __ATOMIC_ACQUIRE);
  t->loc = g_o.rank + index * g_o.nranks;
  t->open = &pt__rec_open; /* this thread's (thread_new runs in it) */
  pt__rec_open.gen = t->generation;
  int rc = pt_writer_stream(g_w, t->loc, &t->s);
  if (!rc && g_o.policy == PT_REC_RING) {
    t->cap = g_o.buffer;
    if (!(t->ring = malloc(t->cap))) rc = PT_ENOMEM;
  }
  if (rc) {
    mu_unlock();
    free(t);
    fail_once(rc == PT_ENOMEM ? "out of memory" : pt_writer_errmsg(g_w));
    return NULL;
  }
  char name[64];
  if (index == 0)
    snprintf(name, sizeof name, "rank %llu", (unsigned long long)g_o.rank);
  else
    snprintf(name, sizeof name, "rank %llu thread %llu",
             (unsigned long long)g_o.rank, (unsigned long long)index);
  pt_def d = {.kind = PT_DEF_LOCATION, .id = t->loc, .parent = g_o.rank,
              .name = name};
  def_locked(&d);
  t->next = g_threads;
  g_threads = t;
  if (g_exit_key_ok) pthread_setspecific(g_exit_key, t);
  mu_unlock();
  return t;
}

static rthread *self(void) {
  rthread *t = t_self;
  if (t && t->generation == __atomic_load_n(&g_generation, __ATOMIC_ACQUIRE))
    return t;
  return t_self = thread_new();
}

void pt__rec_thread(void) {
  /* before a recording starts and after it stops, nothing to do (a
   * wrapper calls this on every call until its thread has a stream) */
  if (__atomic_load_n(&g_on, __ATOMIC_ACQUIRE)) self();
}

static int write_event(rthread *t, const pt_event *ev) {
  int rc = pt_stream_event(t->s, ev);
  if (rc) fail_once(pt_stream_errmsg(t->s));
  return rc;
}

static void overflow_event(rthread *t, int policy, uint64_t lost,
                           uint64_t time) {
  pt_event ev = {.time = time, .location = t->loc,
                 .kind = PT_EV_BUFFER_OVERFLOW, .tag = policy, .size = lost};
  write_event(t, &ev);
}

/* The ring holds each event as the writer encodes it in a block (the
 * same bytes pt__rec_event_enc gets: header byte, fields, attributes;
 * no location, no time), after two varints: the body's length and the
 * time since the ring's previous record.  So a ring of `buffer` bytes
 * keeps about as many events as a flush-policy block of `buffer` bytes
 * (1-2 length bytes more per event; the block's time deltas take 1-3
 * bytes too); records wrap around the end of the ring as bytes do.  It
 * used to keep a fixed-layout copy of each pt_event (96 bytes before
 * attributes: 27 level-3 MPI events in 4 KiB where a block holds 203).
 * Memory: the ring, plus the scratch area of the largest event. */
#define RING_HDR_MAX (2 * PT_VARINT_MAX)

/* Copy n bytes at ring offset `at` (wrapping) to out. */
static void ring_read(const rthread *t, size_t at, uint8_t *out, size_t n) {
  size_t first = t->cap - at < n ? t->cap - at : n;
  memcpy(out, t->ring + at, first);
  memcpy(out + first, t->ring, n - first);
}

/* The body length and time delta of the record at ring offset `at`,
 * `avail` bytes of records from there on; *hdr: their bytes. */
static void ring_rec(const rthread *t, size_t at, size_t avail,
                     uint64_t *len, uint64_t *dt, size_t *hdr) {
  uint8_t b[RING_HDR_MAX];
  size_t n = avail < RING_HDR_MAX ? avail : RING_HDR_MAX;
  ring_read(t, at, b, n);
  const uint8_t *q = b;
  *len = *dt = 0;
  /* written by ring_put: cannot fail */
  (void)pt__varint_get(&q, b + n, len);
  (void)pt__varint_get(&q, b + n, dt);
  *hdr = (size_t)(q - b);
}

/* The oldest record's body length and time delta; *hdr: their bytes. */
static void ring_head(const rthread *t, uint64_t *len, uint64_t *dt,
                      size_t *hdr) {
  ring_rec(t, t->head, t->used, len, dt, hdr);
}

/* Drop the oldest record of the ring. */
static void ring_pop(rthread *t) {
  uint64_t len, dt;
  size_t hdr;
  ring_head(t, &len, &dt, &hdr);
  t->head = (t->head + hdr + (size_t)len) % t->cap;
  t->used -= hdr + (size_t)len;
  t->ring_base += dt;
}

/* Append an encoded event (body, len: see pt__rec_event_enc) at `time`,
 * dropping the oldest records until it fits. */
static int ring_put(rthread *t, uint64_t time, const uint8_t *body,
                    size_t len) {
  uint8_t h[RING_HDR_MAX];
  size_t hn = pt__varint_put(h, len);
  hn += pt__varint_put(h + hn, time - t->ring_prev);
  if (hn + len > t->cap) { /* larger than the whole ring: lost */
    t->lost++;
    return PT_OK;
  }
  while (t->used + hn + len > t->cap) {
    ring_pop(t);
    t->lost++;
  }
  size_t at = (t->head + t->used) % t->cap;
  for (int part = 0; part < 2; part++) {
    const uint8_t *src = part ? body : h;
    size_t n = part ? len : hn;
    size_t first = t->cap - at < n ? t->cap - at : n;
    memcpy(t->ring + at, src, first);
    memcpy(t->ring, src + first, n - first);
    at = (at + n) % t->cap;
  }
  t->used += hn + len;
  t->ring_prev = time;
  return PT_OK;
}

/* An event of the thread into the ring, encoded as the writer would. */
static int ring_push(rthread *t, const pt_event *ev) {
  size_t bound = pt__event_bound(ev);
  if (!bound) return write_event(t, ev); /* invalid: the writer says why */
  t->scratch.len = 0;
  if (pt__buf_reserve(&t->scratch, bound)) return PT_ENOMEM;
  uint64_t prev_time = ev->time, prev_loc = t->loc, dt;
  size_t n = pt__event_put(t->scratch.p, ev, &prev_time, &prev_loc, &dt);
  return ring_put(t, ev->time, t->scratch.p, n);
}

/* Hand an encoded event (no location, no time) at `time` to fn as a
 * pt_event: the header gets the location, a zero time delta follows,
 * and the reader's decoder does the rest. */
static int body_event(rthread *t, uint64_t time, const uint8_t *body,
                      size_t len, int (*fn)(rthread *, pt_event *)) {
  if (!len || len > SIZE_MAX - 2 * PT_VARINT_MAX) return PT_EINVAL;
  uint8_t *buf = malloc(len + 2 * PT_VARINT_MAX);
  if (!buf) return PT_ENOMEM;
  size_t n = 0;
  buf[n++] = (uint8_t)(body[0] | PT__EVH_LOC);
  n += pt__varint_put(buf + n, t->loc);
  buf[n++] = 0; /* time delta */
  memcpy(buf + n, body + 1, len - 1);
  n += len - 1;
  pt__arena ar = {0};
  pt__dec d;
  pt__dec_init(&d, buf, n, time, &ar);
  pt_event ev;
  const char *why = NULL;
  int rc = pt__event_get_slow(&d, &ev, &why);
  if (rc == PT_OK) rc = fn(t, &ev);
  pt__arena_free(&ar);
  free(buf);
  return rc;
}

static int write_decoded(rthread *t, pt_event *ev) {
  return write_event(t, ev);
}

/* An encoded event to the stream: as it is where the block takes it. */
static int write_body(rthread *t, uint64_t time, const uint8_t *body,
                      size_t len) {
  int rc = pt__stream_event_enc(t->s, t->loc, time, body, len);
  if (rc == 1) return body_event(t, time, body, len, write_decoded);
  if (rc) fail_once(pt_stream_errmsg(t->s));
  return rc;
}

/* The regions open where the kept records begin: those whose LEAVE the
 * ring kept and whose ENTER it lost (a LEAVE met at depth 0), innermost
 * first, into refs[0..max) (the region of an ENTER or LEAVE body is its
 * first field: see pt__event_put_fields); returns how many there are
 * (more than max: only max written). */
static size_t ring_open_at_start(const rthread *t, uint64_t *refs,
                                 size_t max) {
  size_t at = t->head, left = t->used, n = 0;
  uint64_t depth = 0;
  while (left) {
    uint64_t len, dt;
    size_t hdr;
    ring_rec(t, at, left, &len, &dt, &hdr);
    size_t body = (at + hdr) % t->cap;
    uint32_t kind = t->ring[body] & PT__EVH_KIND;
    if (kind == PT_EV_ENTER) depth++;
    else if (kind == PT_EV_LEAVE && depth) depth--;
    else if (kind == PT_EV_LEAVE) {
      uint8_t b[1 + 2 * PT_VARINT_MAX];
      size_t m = len < sizeof b ? (size_t)len : sizeof b;
      ring_read(t, body, b, m);
      const uint8_t *q = b + 1;
      uint64_t ref = 0;
      if ((b[0] & PT__EVH_LOC) && pt__varint_get(&q, b + m, &ref)) m = 0;
      if (m > 1 && pt__varint_get(&q, b + m, &ref) == 0 && ref) {
        if (n < max) refs[n] = ref - 1; /* stored + 1 */
        n++;
      }
    }
    at = (at + hdr + (size_t)len) % t->cap;
    left -= hdr + (size_t)len;
  }
  return n;
}

/* Write the ring out.  When it lost its oldest records, the regions open
 * where the kept ones begin (the program's region, the MPI call then in
 * progress) are entered again at the first kept record's time, after the
 * BUFFER_OVERFLOW mark, as a slice enters the regions open at its start:
 * their LEAVEs used to be dropped instead, and a ring trace of an MPI
 * program lost its program region (`stats` then counted all of its time
 * as MPI time).  Without memory for that list, the LEAVEs are dropped. */
static int ring_drain(rthread *t) {
  int rc = PT_OK;
  uint64_t last = 0, time = t->ring_base;
  int64_t depth = 0;
  uint64_t *open = NULL;
  size_t nopen = 0;
  if (t->lost && (nopen = ring_open_at_start(t, NULL, 0)) &&
      (open = malloc(nopen * sizeof *open)))
    ring_open_at_start(t, open, nopen);
  while (t->used && rc == PT_OK) {
    uint64_t len, dt;
    size_t hdr;
    ring_head(t, &len, &dt, &hdr);
    t->scratch.len = 0;
    if (pt__buf_reserve(&t->scratch, (size_t)len)) return PT_ENOMEM;
    ring_read(t, (t->head + hdr) % t->cap, t->scratch.p, (size_t)len);
    t->head = (t->head + hdr + (size_t)len) % t->cap;
    t->used -= hdr + (size_t)len;
    time += dt;
    uint32_t kind = t->scratch.p[0] & PT__EVH_KIND;
    if (t->lost && last == 0) {
      overflow_event(t, PT_REC_RING, t->lost, time);
      for (size_t i = nopen; open && i-- > 0 && rc == PT_OK;) {
        pt_event ev = {.time = time, .location = t->loc,
                       .kind = PT_EV_ENTER, .ref = open[i]};
        rc = write_event(t, &ev);
      }
      if (open) depth = (int64_t)nopen;
      if (rc) break;
    }
    last = time;
    /* Without the ENTERs above, the LEAVEs of the regions whose ENTER was
     * lost are dropped, so that the kept events nest. */
    if (kind == PT_EV_ENTER) depth++;
    if (kind == PT_EV_LEAVE && depth == 0 && t->lost) continue;
    if (kind == PT_EV_LEAVE) depth--;
    rc = write_body(t, time, t->scratch.p, (size_t)len);
  }
  free(open);
  if (t->lost && last == 0)
    overflow_event(t, PT_REC_RING, t->lost, t->last_time);
  t->lost = 0;
  return rc;
}

/* The stop policy's measure of an event: its bytes as a block counts them
 * (the encoding, and 2 bytes for its time delta, as the writer reserves
 * per event for the block's delta planes), so that `buffer` bytes are a
 * flush-policy block's events.  It was a fixed-layout size, 96 bytes
 * before attributes, which stopped 5 to 8 times too early. */
static size_t encoded_size(rthread *t, const pt_event *ev) {
  size_t bound = pt__event_bound(ev);
  if (!bound) return 0; /* invalid: the writer says why */
  t->scratch.len = 0;
  if (pt__buf_reserve(&t->scratch, bound)) return bound;
  uint64_t loc = t->loc, prev = ev->time, dt;
  return pt__event_put(t->scratch.p, ev, &prev, &loc, &dt) + 2;
}

static int event_for(rthread *t, pt_event *ev) {
  if (t->stopped) return PT_ESTATE;
  ev->location = t->loc;
  if (ev->time < t->last_time) ev->time = t->last_time;
  t->last_time = ev->time;
  switch (g_o.policy) {
    case PT_REC_RING: return ring_push(t, ev);
    case PT_REC_STOP: {
      t->bytes += encoded_size(t, ev);
      if (t->bytes > g_o.buffer) {
        t->stopped = 1;
        overflow_event(t, PT_REC_STOP, 0, ev->time);
        return PT_ESTATE;
      }
      return write_event(t, ev);
    }
    default: return write_event(t, ev);
  }
}

/* A thread writes its stream between busy = 1 and busy = 0, and only
 * while recording is on, checked after busy is set; a stop turns
 * recording off, then waits for the busy threads (quiesce): either the
 * thread sees recording off, or the stop sees it busy.  That needs a full
 * fence between the thread's store of busy and its load of g_on, and
 * between the stop's store of g_on and its loads of busy.  On Linux the
 * threads' side is only a compiler barrier: the stop makes every running
 * thread of the process execute the fence (membarrier, private
 * expedited, registered at start; g_asym), which saves a locked
 * instruction on each of the 2-3 events of every traced call. */
static int g_asym; /* membarrier registered in this process */

static void asym_register(void) {
  int ok = 0;
#if defined(PT_HAVE_MEMBARRIER) && defined(SYS_membarrier)
  long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
  ok = cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
       syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0;
#endif
  __atomic_store_n(&g_asym, ok, __ATOMIC_SEQ_CST);
}

/* The stop's side: after this, a thread that has not seen g_on = 0 is
 * seen busy.  Async-signal-safe. */
static void asym_fence(void) {
#if defined(PT_HAVE_MEMBARRIER) && defined(SYS_membarrier)
  if (__atomic_load_n(&g_asym, __ATOMIC_SEQ_CST) &&
      syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) != 0) {
    /* cannot happen once registered; a store waits in a store buffer
     * for nanoseconds, not for the millisecond given here */
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
#endif
}

/* Also false when t belongs to an earlier recording: a thread can take
 * its rthread (self()) just before a stop and set busy just after it, and
 * a new start may have turned recording on again by then.  A stopped
 * recording's rthreads are never freed (g_retired), so that late store of
 * busy lands in memory of ours; the generation, loaded after g_on (the
 * start stores it before g_on, with release), tells whether t is
 * current. */
static inline int busy_begin(rthread *t) {
  int on;
  if (__atomic_load_n(&g_asym, __ATOMIC_RELAXED)) {
    __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    on = __atomic_load_n(&g_on, __ATOMIC_ACQUIRE);
  } else {
    __atomic_store_n(&t->busy, 1, __ATOMIC_SEQ_CST);
    on = __atomic_load_n(&g_on, __ATOMIC_SEQ_CST);
  }
  return on && t->generation == __atomic_load_n(&g_generation,
                                                 __ATOMIC_ACQUIRE);
}

static inline void busy_end(rthread *t) {
  __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
}

int pt_rec_event(pt_event *ev) {
  if (!pt_rec_enabled()) return PT_ESTATE;
  rthread *t = self();
  if (!t) return PT_ESTATE;
  int rc = PT_ESTATE;
  if (busy_begin(t)) rc = event_for(t, ev);
  busy_end(t);
  return rc;
}

/* An event the caller encoded as the writer encodes it (see
 * pt__stream_event_enc: header without the location bit, no time), of the
 * calling thread at `time`.  The flush policy appends the bytes to the
 * block as they are; otherwise, and where the block cannot take them
 * (its first event, full), they are decoded and go the way of
 * pt_rec_event. */
int pt__rec_event_enc(uint64_t time, const uint8_t *body, size_t len) {
  if (!pt_rec_enabled()) return PT_ESTATE;
  rthread *t = self();
  if (!t) return PT_ESTATE;
  int rc = PT_ESTATE;
  if (busy_begin(t)) {
    if (PT_LIKELY(g_o.policy == PT_REC_FLUSH && !t->stopped)) {
      if (time < t->last_time) time = t->last_time;
      t->last_time = time;
      rc = pt__stream_event_enc(t->s, t->loc, time, body, len);
    } else if (g_o.policy == PT_REC_RING && len) {
      if (time < t->last_time) time = t->last_time;
      t->last_time = time;
      rc = ring_put(t, time, body, len);
    } else {
      rc = 1;
    }
    if (rc == 1) rc = body_event(t, time, body, len, event_for);
  }
  busy_end(t);
  return rc;
}

/* Two encoded events of the calling thread, at t0 <= t1 (an MPI call's
 * ENTER and LEAVE): as two pt__rec_event_enc calls, in one when the block
 * takes both. */
int pt__rec_event_enc2(uint64_t t0, const uint8_t *b0, size_t n0,
                       uint64_t t1, const uint8_t *b1, size_t n1) {
  if (!pt_rec_enabled()) return PT_ESTATE;
  rthread *t = self();
  if (!t) return PT_ESTATE;
  int rc = PT_ESTATE;
  if (busy_begin(t)) {
    rc = 1;
    if (PT_LIKELY(g_o.policy == PT_REC_FLUSH && !t->stopped)) {
      if (t0 < t->last_time) t0 = t->last_time;
      if (t1 < t0) t1 = t0;
      rc = pt__stream_event_enc2(t->s, t->loc, t0, b0, n0, t1, b1, n1);
      if (rc == PT_OK) t->last_time = t1;
    }
  }
  busy_end(t);
  if (rc != 1) return rc;
  rc = pt__rec_event_enc(t0, b0, n0);
  int rc1 = pt__rec_event_enc(t1, b1, n1);
  return rc ? rc : rc1;
}

/* An MPI call's encoded events, of the calling thread (times
 * non-decreasing as written, see pt__stream_event_call; c->t0 and c->t1
 * may be changed to the times written): in one append when the block
 * takes them all, else as c->k + 2 pt__rec_event_enc calls. */
int pt__rec_event_call(pt__call_evs *c) {
  if (!pt_rec_enabled()) return PT_ESTATE;
  rthread *t = self();
  if (!t) return PT_ESTATE;
  if (c->k > 64) return PT_EINVAL;
  int rc = PT_ESTATE;
  if (busy_begin(t)) {
    rc = 1;
    if (PT_LIKELY(g_o.policy == PT_REC_FLUSH && !t->stopped)) {
      if (c->t0 < t->last_time) c->t0 = t->last_time;
      rc = pt__stream_event_call(t->s, t->loc, c);
      if (rc == PT_OK) t->last_time = c->t1;
    }
  }
  busy_end(t);
  if (rc != 1) return rc;
  rc = pt__rec_event_enc(c->t0, c->b0, c->n0);
  for (size_t i = 0; i < c->k; i++) {
    int r = pt__rec_event_enc(c->et[i], c->eb + c->off[i],
                              (size_t)(c->off[i + 1] - c->off[i]));
    if (!rc) rc = r;
  }
  int r = pt__rec_event_enc(c->t1, c->b1, c->n1);
  return rc ? rc : r;
}

/* Recording off, and every other thread out of its stream.  A process
 * being killed waits at most about 0.2 s in all (a thread stopped inside
 * the writer, by a debugger or because it is the one the signal
 * interrupted, is not waited for); a stop waits up to a minute, as long
 * as a thread may take to write a block out (a slow disk).  Caller holds
 * g_mu. */
static void quiesce(int max_waits) {
  __atomic_store_n(&g_on, 0, __ATOMIC_SEQ_CST);
  asym_fence();
  struct timespec us = {0, 100000};
  int waits = 0;
  for (rthread *t = g_threads; t; t = t->next) {
    if (t == t_self) continue;
    while (__atomic_load_n(&t->busy, __ATOMIC_SEQ_CST) && waits < max_waits) {
      nanosleep(&us, NULL);
      waits++;
    }
  }
}

/* The process is being killed: every thread's call in progress is
 * written as an ENTER without its LEAVE (the thread is blocked in it, not
 * writing).  Caller holds g_mu. */
static void write_open_calls(void) {
  for (rthread *t = g_threads; t; t = t->next) {
    /* a thread still writing (the one the signal interrupted, in the
     * middle of an event) is not written to again */
    if (__atomic_load_n(&t->busy, __ATOMIC_ACQUIRE)) continue;
    pt__open_call *oc = __atomic_load_n(&t->open, __ATOMIC_ACQUIRE);
    uint64_t r = oc ? __atomic_load_n(&oc->region, __ATOMIC_ACQUIRE) : 0;
    if (!r) continue;
    uint64_t raw = __atomic_load_n(&oc->time, __ATOMIC_RELAXED);
    int64_t off = __atomic_load_n(&g_offset, __ATOMIC_RELAXED);
    pt_event ev = {.time = off < 0 && (uint64_t)-off > raw ? 0
                                                           : raw + (uint64_t)off,
                   .kind = PT_EV_ENTER, .ref = r - 1};
    event_for(t, &ev);
  }
}

int pt_rec_flush(void) {
  rthread *t = t_self;
  if (!t || !__atomic_load_n(&g_on, __ATOMIC_RELAXED)) return PT_OK;
  if (g_o.policy == PT_REC_RING) return PT_OK; /* the ring is the buffer */
  int rc = PT_OK;
  if (busy_begin(t)) {
    rc = pt_stream_flush(t->s);
    if (rc) fail_once(pt_stream_errmsg(t->s));
  }
  busy_end(t);
  return rc;
}

/* ---- start / stop -------------------------------------------------------- */

static void on_signal(int sig, siginfo_t *si, void *uc);
static int stop_locked(pt_error *err);
static struct sigaction g_old[65];
/* the signals whose default action ends the process (Ctrl-C, a launcher's
 * kill of the job after MPI_Abort, a crash) */
static const int g_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
                             SIGTERM, SIGINT, SIGHUP, SIGQUIT};
#define G_NSIGS (sizeof g_sigs / sizeof g_sigs[0])

static void install_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO;
  /* all of them blocked while one is handled: a launcher sends SIGTERM
   * twice (to the process group and through `paratrace record`), and the
   * second must not end the process in the middle of the close */
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < G_NSIGS; i++) sigaddset(&sa.sa_mask, g_sigs[i]);
  for (size_t i = 0; i < G_NSIGS; i++) {
    struct sigaction old;
    if (sigaction(g_sigs[i], NULL, &old) != 0) continue;
    /* ignored (nohup) or handled by the program: left as they are */
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
    g_old[g_sigs[i]] = old;
    sigaction(g_sigs[i], &sa, NULL);
  }
}

static int is_request(int sig) {
  return sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

/* Best effort: closing the archive is not async-signal-safe (it allocates
 * and takes locks), but the process is dying; if the close crashes, the
 * blocks already written stay recoverable.  A crash (SIGSEGV, SIGABRT...)
 * closes, then runs what was installed before (MPI libraries print a
 * backtrace there).  A request to end (SIGTERM, SIGINT...) that the
 * program handles itself is left to it: it may shut down cleanly. */
static void on_signal(int sig, siginfo_t *si, void *uc) {
  struct sigaction *old = &g_old[sig];
  int handled = (old->sa_flags & SA_SIGINFO)
                    ? old->sa_sigaction != NULL
                    : old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN;
  if (!handled || !is_request(sig)) {
    /* One thread closes; a signal reaching another thread meanwhile (a
     * process-directed one goes to any thread) waits for it (at most
     * 10 s) instead of ending the process in the middle of the close. */
    static int closing; /* 0, 1 closing, 2 closed */
    int expect = 0;
    if (__atomic_compare_exchange_n(&closing, &expect, 1, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      /* a watchdog: should the close hang (the signal came while this
       * thread held a lock the close needs), the process ends in 10 s */
      struct sigaction dfl, old_alrm;
      memset(&dfl, 0, sizeof dfl);
      dfl.sa_handler = SIG_DFL;
      sigemptyset(&dfl.sa_mask);
      sigaction(SIGALRM, &dfl, &old_alrm);
      unsigned old_alarm = alarm(10);
      uint64_t t0 = pt__clock_ns();
      int ranks = 0;
      /* another thread holding the lock (defining a region, starting its
       * stream) lets it go soon: waited for, at most 2 s; this thread
       * holding it (interrupted inside) cannot close */
      int locked = 0;
      struct timespec ms1 = {0, 1000000};
      for (int i = 0; !t_holds_mu && i < 2000 &&
                      __atomic_load_n(&g_on, __ATOMIC_RELAXED);
           i++) {
        if (pthread_mutex_trylock(&g_mu) == 0) {
          locked = 1;
          t_holds_mu = 1;
          break;
        }
        nanosleep(&ms1, NULL);
      }
      if (locked) {
        if (g_w) {
          ranks = g_o.nranks > 1;
          quiesce(2000);
          write_open_calls();
          stop_locked(NULL);
        }
        mu_unlock();
      }
      /* A launcher ending a job (Open MPI after MPI_Abort or a crash)
       * sends SIGTERM to every rank, then SIGKILL to all as soon as the
       * first one has ended: each rank lingers a little after its close
       * (0.2 s + twice the close time, at most 0.9 s) so that the others
       * finish theirs. */
      if (ranks && is_request(sig)) {
        uint64_t took = pt__clock_ns() - t0;
        uint64_t ns = 200000000 + 2 * took;
        if (ns > 900000000) ns = 900000000;
        struct timespec ts = {0, (long)ns};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
      }
      /* closed: the watchdog off again (a program's own handler may let
       * the process go on) */
      alarm(old_alarm);
      sigaction(SIGALRM, &old_alrm, NULL);
      __atomic_store_n(&closing, 2, __ATOMIC_RELEASE);
    } else {
      struct timespec ms = {0, 1000000};
      for (int i = 0; i < 10000 &&
                      __atomic_load_n(&closing, __ATOMIC_ACQUIRE) == 1;
           i++)
        nanosleep(&ms, NULL);
    }
  }
  if (handled) {
    /* run it as the kernel would have: a one-shot handler (SA_RESETHAND,
     * such as a crash handler that prints and returns so that the fault
     * recurs) leaves the default action behind it, and its own mask is
     * blocked while it runs */
    struct sigaction o = *old;
    if (o.sa_flags & SA_RESETHAND) {
      struct sigaction dfl;
      memset(&dfl, 0, sizeof dfl);
      dfl.sa_handler = SIG_DFL;
      sigemptyset(&dfl.sa_mask);
      sigaction(sig, &dfl, NULL);
      memset(old, 0, sizeof *old);
      old->sa_handler = SIG_DFL;
    }
    sigset_t prev;
    pthread_sigmask(SIG_BLOCK, &o.sa_mask, &prev);
    if (o.sa_flags & SA_SIGINFO) o.sa_sigaction(sig, si, uc);
    else o.sa_handler(sig);
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
    return;
  }
  /* the default action, once this handler returns (the signal is blocked
   * until then; a fault recurs when the instruction runs again) */
  sigaction(sig, old, NULL);
  if (si == NULL || si->si_code <= 0 || is_request(sig) || sig == SIGABRT)
    raise(sig);
}

/* A forked child must never write its parent's archive: it forgets the
 * inherited recorder (the memory stays; the child may start its own). */
static void forget_in_child(void) {
  pthread_mutex_init(&g_mu, NULL);
  t_holds_mu = 0;
  g_w = NULL;
  g_threads = NULL;
  g_nthreads = 0;
  __atomic_store_n(&g_on, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&g_asym, 0, __ATOMIC_RELEASE); /* not inherited */
  __atomic_add_fetch(&g_generation, 1, __ATOMIC_ACQ_REL);
}

int pt_rec_start(const pt_rec_opts *opts, pt_error *err) {
  pt_rec_opts o = {0};
  if (opts) o = *opts;
  if (!o.path) o.path = "paratrace.ptf";
  if (!o.buffer) o.buffer = 4u << 20;
  if (o.buffer < 4096) o.buffer = 4096;
  if (o.buffer > (32u << 20)) o.buffer = 32u << 20;
  if (o.policy < PT_REC_FLUSH || o.policy > PT_REC_RING)
    return pt__err(err, PT_EINVAL, "unknown buffer policy %d", o.policy);
  if (o.level <= 0 || o.level > 3) o.level = 3;
  if (!o.nranks) o.nranks = 1;
  if (o.rank >= o.nranks)
    return pt__err(err, PT_EINVAL, "rank %llu of %llu",
                   (unsigned long long)o.rank, (unsigned long long)o.nranks);
  mu_lock();
  if (g_w) {
    mu_unlock();
    return pt__err(err, PT_ESTATE, "a recorder is already running");
  }
  pt_writer_opts wo = {
      .block_size = o.policy == PT_REC_FLUSH ? o.buffer : 0,
      .creator = o.creator ? o.creator : "paratrace record",
      .overwrite = o.join ? 0 : o.overwrite,
      .join = o.join,
      .part = o.rank};
  /* Several processes write one archive: the others join it at its path,
   * so the leader cannot build it under a temporary name.  An archive to
   * replace is moved aside (PATH.old-PID) instead, and removed when the
   * new one is closed: a run that dies keeps the old one there. */
  free(g_replaced);
  g_replaced = NULL;
  if (wo.overwrite && o.nranks > 1) {
    wo.overwrite = 0;
    struct stat st;
    if (lstat(o.path, &st) == 0 && !pt__is_ptf_dir(o.path)) {
      mu_unlock();
      return pt__err(err, PT_EEXIST, "%s: exists and is not a paratrace "
                     "archive; not replaced (remove it or choose another "
                     "name)", o.path);
    }
    if (lstat(o.path, &st) == 0) {
      size_t n = strlen(o.path) + 32;
      g_replaced = malloc(n);
      if (!g_replaced) {
        mu_unlock();
        return pt__err(err, PT_ENOMEM, "out of memory");
      }
      /* NAME/ (as shell completion gives it) is moved to NAME.old-PID,
       * not into itself */
      int pl = (int)strlen(o.path);
      while (pl > 1 && o.path[pl - 1] == '/') pl--;
      snprintf(g_replaced, n, "%.*s.old-%ld", pl, o.path, (long)getpid());
      pt__rmtree(g_replaced);
      if (rename(o.path, g_replaced) != 0) {
        int e = errno;
        free(g_replaced);
        g_replaced = NULL;
        mu_unlock();
        return pt__err(err, PT_EIO, "%s: cannot move aside: %s", o.path,
                       strerror(e));
      }
    }
  }
  int rc = pt_writer_open(&g_w, o.path, &wo, err);
  if (rc) {
    if (g_replaced) rename(g_replaced, o.path); /* put it back */
    free(g_replaced);
    g_replaced = NULL;
    mu_unlock();
    return rc;
  }
  free(g_path);
  g_path = strdup(o.path);
  o.path = g_path;
  g_o = o;
  g_level = o.level;
  g_failed = 0;
  g_offset = 0;
  g_threads = NULL;
  g_nthreads = 0;
  __atomic_add_fetch(&g_generation, 1, __ATOMIC_ACQ_REL);
  if (!o.join) {
    /* ticks are CLOCK_MONOTONIC ns: no meaningful start (PT_NONE: tools
     * count "from the start" from the first event) */
    pt_def clk = {.kind = PT_DEF_CLOCK, .i0 = 1000000000, .parent = PT_NONE};
    def_locked(&clk);
  }
  char name[48];
  snprintf(name, sizeof name, "rank %llu", (unsigned long long)o.rank);
  pt_def grp = {.kind = PT_DEF_LOCATION_GROUP, .id = o.rank, .parent = PT_NONE,
                .ref = PT_NONE, .i1 = (int64_t)o.rank, .name = name};
  def_locked(&grp);
  /* Names defined before (another recorder) are defined again here. */
  for (size_t i = 0; i < g_capnames; i++) {
    named *n = &g_names[i];
    if (!n->name) continue;
    pt_def d = {.kind = n->name[0] == '0' ? PT_DEF_REGION : PT_DEF_ATTRIBUTE,
                .id = n->id, .name = n->name + 1};
    def_locked(&d);
  }
  __atomic_store_n(&g_measure, 1, __ATOMIC_RELEASE);
  asym_register();
  __atomic_store_n(&g_on, 1, __ATOMIC_RELEASE);
  mu_unlock();
  static int installed;
  if (!installed) {
    installed = 1;
    install_handlers();
    pthread_atfork(NULL, NULL, forget_in_child);
  }
  return PT_OK;
}

/* Caller holds g_mu; recording is off and the threads are quiet. */
static int stop_locked(pt_error *err) {
  int rc = PT_OK;
  for (rthread *t = g_threads; t; t = t->next)
    if (t->ring) {
      int r = ring_drain(t);
      if (r && !rc) rc = pt__err(err, r, "%s", pt_stream_errmsg(t->s));
    }
  pt_error e2 = {0};
  int r = pt_writer_close(g_w, &e2);
  if (r && !rc) rc = pt__err(err, r, "%s", e2.msg);
  /* one message per run: a write error already said (recording stopped)
   * is the one that fails the close again (a full disk) */
  if (r && !__atomic_exchange_n(&g_failed, 1, __ATOMIC_ACQ_REL))
    fprintf(stderr, "paratrace: closing %s: %s\n", g_path, e2.msg);
  g_w = NULL;
  if (!r && g_replaced) pt__rmtree(g_replaced); /* the replaced archive */
  free(g_replaced);
  g_replaced = NULL;
  for (rthread *t = g_threads, *n; t; t = n) {
    n = t->next;
    free(t->ring);
    t->ring = NULL;
    pt__buf_free(&t->scratch);
    t->s = NULL;
    t->next = g_retired; /* see busy_begin() */
    g_retired = t;
  }
  g_threads = NULL;
  __atomic_add_fetch(&g_generation, 1, __ATOMIC_ACQ_REL);
  return rc;
}

int pt_rec_stop(pt_error *err) {
  mu_lock();
  if (!g_w) {
    mu_unlock();
    return PT_OK;
  }
  quiesce(600000);
  int rc = stop_locked(err);
  mu_unlock();
  return rc;
}

void pt__rec_stop_dying(void) {
  mu_lock();
  if (g_w) {
    quiesce(600000);
    write_open_calls();
    stop_locked(NULL);
  }
  mu_unlock();
}

int64_t pt__rec_offset(void) {
  return __atomic_load_n(&g_offset, __ATOMIC_RELAXED);
}

void pt_rec_clock_offset(int64_t offset_ns, uint64_t at) {
  __atomic_store_n(&g_offset, offset_ns, __ATOMIC_RELEASE);
  pt_def d = {.kind = PT_DEF_CLOCK_SYNC, .ref = g_o.rank, .i0 = (int64_t)at,
              .i1 = offset_ns};
  pt_rec_def(&d);
}

/* ---- environment --------------------------------------------------------- */

static int parse_size(const char *s, size_t *out) {
  char *end;
  /* digits first: strtoull takes "-5" (as a huge value) and spaces */
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s) return -1;
  unsigned long long m = 1;
  if (*end == 'k' || *end == 'K') m = 1024, end++;
  else if (*end == 'm' || *end == 'M') m = 1024 * 1024, end++;
  else if (*end == 'g' || *end == 'G') m = 1024ull * 1024 * 1024, end++;
  if (*end || v > SIZE_MAX / m) return -1;
  *out = (size_t)(v * m);
  return 0;
}

int pt_rec_start_env(uint64_t rank, uint64_t nranks, int join, pt_error *err) {
  pt_rec_opts o = {.rank = rank, .nranks = nranks, .join = join};
  int level = 3;
  const char *v;
  if ((v = getenv("PARATRACE_OUTPUT")) && *v) o.path = v;
  if ((v = getenv("PARATRACE_BUFFER")) && *v &&
      (parse_size(v, &o.buffer) || o.buffer < 4096 || o.buffer > (32u << 20)))
    return pt__err(err, PT_EINVAL, "PARATRACE_BUFFER=%s: want a size "
                                   "from 4K to 32M, such as 4M", v);
  if ((v = getenv("PARATRACE_CLOCK")) && *v && strcmp(v, "monotonic") != 0 &&
      strcmp(v, "auto") != 0)
    return pt__err(err, PT_EINVAL, "PARATRACE_CLOCK=%s: want monotonic (or "
                                   "auto: the cycle counter where invariant)",
                   v);
  if ((v = getenv("PARATRACE_POLICY")) && *v) {
    if (strcmp(v, "flush") == 0) o.policy = PT_REC_FLUSH;
    else if (strcmp(v, "stop") == 0) o.policy = PT_REC_STOP;
    else if (strcmp(v, "ring") == 0) o.policy = PT_REC_RING;
    else
      return pt__err(err, PT_EINVAL,
                     "PARATRACE_POLICY=%s: want flush, stop or ring", v);
  }
  if ((v = getenv("PARATRACE_LEVEL")) && *v) {
    if (v[0] < '0' || v[0] > '3' || v[1])
      return pt__err(err, PT_EINVAL, "PARATRACE_LEVEL=%s: want 0..3", v);
    level = v[0] - '0';
  }
  if ((v = getenv("PARATRACE_OVERWRITE")) && strcmp(v, "1") == 0)
    o.overwrite = 1;
  /* the anchor says how the run was recorded */
  v = getenv("PARATRACE_RECORD");
  if (!(v && strcmp(v, "1") == 0) && getenv("LD_PRELOAD") &&
      strstr(getenv("LD_PRELOAD"), "libparatrace-mpi"))
    o.creator = "paratrace (libparatrace-mpi.so preloaded)";
  else if (!(v && strcmp(v, "1") == 0))
    o.creator = "paratrace (linked)";
  int rc = pt_rec_start(&o, err);
  if (rc == PT_OK) pt_trace_level(level);
  return rc;
}

/* ---- the user API -------------------------------------------------------- */

static void stop_at_exit(void) { pt_rec_stop(NULL); }

/* Under `paratrace record` (PARATRACE_RECORD=1) a program that is not MPI
 * starts recording at its first user API call and stops at exit.  An MPI
 * program (launcher variables set) is started by libparatrace-mpi at
 * MPI_Init instead. */
static void autostart(void) {
  static int tried;
  if (__atomic_load_n(&tried, __ATOMIC_RELAXED) ||
      __atomic_exchange_n(&tried, 1, __ATOMIC_ACQ_REL))
    return;
  const char *r = getenv("PARATRACE_RECORD");
  if (!r || strcmp(r, "1") != 0) return;
  if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") ||
      getenv("PMIX_RANK") || getenv("MPI_LOCALNRANKS"))
    return;
  mu_lock();
  int running = g_w != NULL;
  mu_unlock();
  if (running) return;
  pt_error e = {0};
  if (pt_rec_start_env(0, 1, 0, &e) == PT_OK) atexit(stop_at_exit);
  else fprintf(stderr, "paratrace: not recording: %s\n", e.msg);
}

void pt_trace_level(int level) {
  if (level < 0) level = 0;
  if (level > 3) level = 3;
  __atomic_store_n(&g_level, level, __ATOMIC_RELEASE);
}

void pt_trace_measure(int on) {
  autostart();
  if (!__atomic_load_n(&g_on, __ATOMIC_RELAXED)) return;
  if (!on) { /* the off event is the last one recorded */
    pt_event ev = {.time = pt_rec_now(), .kind = PT_EV_MEASURE, .tag = 0};
    pt_rec_event(&ev);
    __atomic_store_n(&g_measure, 0, __ATOMIC_RELEASE);
  } else {
    __atomic_store_n(&g_measure, 1, __ATOMIC_RELEASE);
    pt_event ev = {.time = pt_rec_now(), .kind = PT_EV_MEASURE, .tag = 1};
    pt_rec_event(&ev);
  }
}

static void user_region(const char *name, uint32_t kind) {
  autostart();
  if (!pt_rec_enabled() || pt_rec_level() < 1) return;
  pt_event ev = {.time = pt_rec_now(), .kind = kind,
                 .ref = pt_rec_region(name, PT_ROLE_USER, PT_PARADIGM_USER)};
  pt_rec_event(&ev);
}

void pt_trace_begin(const char *name) { user_region(name, PT_EV_ENTER); }
void pt_trace_end(const char *name) { user_region(name, PT_EV_LEAVE); }

static uint64_t label_id(const char *label) {
  /* Labels share the region name space (class 0) under a prefix. */
  char buf[256];
  snprintf(buf, sizeof buf, "label:%s", label ? label : "");
  mu_lock();
  int created;
  uint64_t id = name_id(0, 0, buf, &created);
  if (created && g_w) {
    /* its code (a PICL event type) is its id: the same on every rank
     * (ids come from the name), and distinct labels stay distinct in a
     * PICL trace (all had code 0) */
    pt_def d = {.kind = PT_DEF_LABEL, .id = id, .i0 = (int64_t)id,
                .name = label};
    def_locked(&d);
  }
  mu_unlock();
  return id;
}

static void mark(const char *label, pt_value v, const char *text) {
  autostart();
  if (!pt_rec_enabled() || pt_rec_level() < 1) return;
  /* MARK has no value slot: the typed value is the attribute "value"
   * (an integer) or "double value": one attribute per type, as its
   * definition declares one (a double under the integer one was
   * mistyped for OTF2 and the text form) */
  pt_attr a = {.val = v};
  if (v.type != PT_TYPE_NONE)
    a.key = pt_rec_attribute(v.type == PT_TYPE_DOUBLE ? "double value" : "value",
                             (int)v.type);
  pt_event ev = {.time = pt_rec_now(), .kind = PT_EV_MARK,
                 .ref = label_id(label), .text = text,
                 .nattrs = v.type != PT_TYPE_NONE, .attrs = &a};
  pt_rec_event(&ev);
}

void pt_trace_mark_int(const char *label, int64_t value) {
  mark(label, (pt_value){.type = PT_TYPE_INT, .v.i = value}, NULL);
}
void pt_trace_mark_double(const char *label, double value) {
  mark(label, (pt_value){.type = PT_TYPE_DOUBLE, .v.d = value}, NULL);
}
void pt_trace_mark_text(const char *label, const char *text) {
  mark(label, (pt_value){.type = PT_TYPE_NONE}, text);
}

void pt_trace_message(const char *text) {
  autostart();
  if (!pt_rec_enabled()) return;
  pt_event ev = {.time = pt_rec_now(), .kind = PT_EV_MESSAGE,
                 .ref = PT_NONE, .text = text};
  if (pt_rec_event(&ev) == PT_OK) pt_rec_flush();
}

void pt_trace_flush(void) { pt_rec_flush(); }
