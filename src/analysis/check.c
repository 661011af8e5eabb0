/* The trace consistency checker (include/paratrace/analysis.h).
 *
 * State kept, all bounded by the open state of the trace:
 *   - per location seen: last time and the stack of open regions;
 *   - per message channel (sender, receiver, comm, tag): a FIFO of the
 *     sends or of the receives not matched yet (never both: a new one is
 *     matched against the other side first); empty channels are freed;
 *   - the definitions of regions, locations and location groups;
 *   - one record per distinct undefined reference (with a count);
 *   - per (process, request id) a non-blocking request started and not
 *     completed yet (deleted when it completes).
 */
#include "paratrace/analysis.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats_int.h"

/* ---- tables ------------------------------------------------------------- */

static const char *const kind_names[PT_CHECK__COUNT] = {
#define NAME_(NAME, text, desc) [PT_CHECK_##NAME] = text,
    PT_CHECK_KINDS(NAME_)
#undef NAME_
};
static const char *const kind_descs[PT_CHECK__COUNT] = {
#define DESC_(NAME, text, desc) [PT_CHECK_##NAME] = desc,
    PT_CHECK_KINDS(DESC_)
#undef DESC_
};

const char *pt_check_kind_name(uint32_t kind) {
  return kind > 0 && kind < PT_CHECK__COUNT ? kind_names[kind] : NULL;
}
const char *pt_check_kind_description(uint32_t kind) {
  return kind > 0 && kind < PT_CHECK__COUNT ? kind_descs[kind] : NULL;
}

/* ---- a u64 -> u64 hash map (open addressing, no deletion) --------------- */

typedef struct u64map {
  uint64_t *keys, *vals;
  uint8_t *used;
  size_t cap, len; /* cap is 0 or a power of two */
} u64map;


/* Slot of `key`, or of the empty slot where it would go. */
static size_t map_slot(const u64map *m, uint64_t key) {
  size_t i = (size_t)pt__mix64(key) & (m->cap - 1);
  while (m->used[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  return i;
}

static uint64_t *map_get(const u64map *m, uint64_t key) {
  if (!m->cap) return NULL;
  size_t i = map_slot(m, key);
  return m->used[i] ? &m->vals[i] : NULL;
}

static int map_grow(u64map *m) {
  size_t ncap = m->cap ? m->cap * 2 : 64;
  u64map n = {calloc(ncap, sizeof *n.keys), calloc(ncap, sizeof *n.vals),
              calloc(ncap, 1), ncap, 0};
  if (!n.keys || !n.vals || !n.used) {
    free(n.keys);
    free(n.vals);
    free(n.used);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->used[i]) continue;
    size_t j = map_slot(&n, m->keys[i]);
    n.used[j] = 1;
    n.keys[j] = m->keys[i];
    n.vals[j] = m->vals[i];
    n.len++;
  }
  free(m->keys);
  free(m->vals);
  free(m->used);
  *m = n;
  return PT_OK;
}

/* Set key -> val (insert or replace). */
static int map_put(u64map *m, uint64_t key, uint64_t val) {
  if ((m->len + 1) * 4 > m->cap * 3 && map_grow(m) < 0) return PT_ENOMEM;
  size_t i = map_slot(m, key);
  if (!m->used[i]) {
    m->used[i] = 1;
    m->keys[i] = key;
    m->len++;
  }
  m->vals[i] = val;
  return PT_OK;
}

static void map_free(u64map *m) {
  free(m->keys);
  free(m->vals);
  free(m->used);
  memset(m, 0, sizeof *m);
}

/* Grow a plain array to hold at least `need` elements of `size`. */
static int grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return PT_OK;
  size_t n = *cap ? *cap : 16;
  while (n < need) n *= 2;
  void *q = realloc(*p, n * size);
  if (!q) return PT_ENOMEM;
  *p = q;
  *cap = n;
  return PT_OK;
}

/* ---- state -------------------------------------------------------------- */

typedef struct frame {
  uint64_t region, time;
} frame;

typedef struct loc_state {
  uint64_t id;
  uint64_t last_time;
  int seen;
  int lossy; /* a ring buffer dropped its oldest events (BUFFER_OVERFLOW) */
  int stopped; /* the stop policy ended its recording (BUFFER_OVERFLOW) */
  frame *stack;
  size_t depth, cap;
} loc_state;

typedef struct undef_ref {
  uint64_t id, time, location, count;
} undef_ref;

#define NIL UINT32_MAX
#define CALL_BIT (UINT64_C(1) << 63)

/* A region that is a message-passing call: the send events inside it count
 * from its start (do_message). */
static int is_call_region(const pt_def *d) {
  return d->i0 == PT_ROLE_POINT2POINT || d->i0 == PT_ROLE_COLLECTIVE ||
         d->i1 == PT_PARADIGM_MPI || d->i1 == PT_PARADIGM_PICL ||
         (d->name && strncmp(d->name, "MPI_", 4) == 0);
}

/* A message waiting for its partner. */
typedef struct pend {
  uint64_t time, location, seq;
  uint32_t next;
} pend;

typedef struct msg_key {
  uint64_t src, dst, comm;
  int64_t tag;
} msg_key;

typedef struct chan {
  msg_key key;
  uint32_t head, tail; /* queue of pend */
  uint32_t hnext;      /* next chan in the bucket, or free list */
  int recvs;           /* 1: the queue holds receives, 0: sends */
} chan;

/* The sender of a receive from MPI_ANY_SOURCE without a recorded status
 * (peer -1), in a channel's key */
#define ANY_SRC UINT64_MAX

/* A request started and not completed (a count: a writer that reuses an
 * id while it is open, as some do, starts it twice). */
typedef struct req_open {
  uint64_t k[4]; /* see req_key */
  uint64_t loc;  /* the location that first started it */
  uint64_t time; /* when it was first started */
  uint32_t kind; /* the event that started it */
  uint32_t n;
} req_open;

struct pt_check {
  pt_check_opts opts;
  int finished;

  /* definitions */
  u64map region_name; /* region id -> index into names (or NIL), with
                         CALL_BIT for a communication call's region */
  char **names;
  size_t nnames, names_cap;
  u64map loc_group;   /* location id -> group id (PT_NONE if none) */
  u64map group_rank;  /* group id -> rank */
  u64map rank_seen;   /* rank -> 1, to see whether ranks are distinct */
  int ranks_distinct;

  /* per location */
  u64map loc_index; /* location id -> index into locs */
  loc_state *locs;
  size_t nlocs, locs_cap;

  /* undefined references */
  u64map undef_region, undef_loc; /* id -> index into undefs */
  undef_ref *undefs;
  size_t nundefs, undefs_cap;
  uint8_t *undef_kind; /* per undef: 0 region, 1 location */
  size_t undef_kind_cap;

  /* message matching */
  uint32_t *buckets;
  size_t nbuckets;
  /* heaps (oheap.h) of the send channels (tag >= 0), kept from the first
   * receive that needs them on (lists): per (dst, comm, src, 0) for
   * MPI_ANY_TAG receives (pairs), per (dst, comm, 0, 0) and (dst, comm,
   * tag, 1) for MPI_ANY_SOURCE (dsts); their oldest send is the one
   * queued first (seq) */
  pt__ktab pairs, dsts;
  int lists;
  uint64_t wild_src; /* receives from MPI_ANY_SOURCE queued */
  chan *chans;
  size_t nchans_used, chans_cap;
  uint32_t chan_free;
  pend *pends;
  size_t npends_used, pends_cap;
  uint32_t pend_free;
  uint64_t pending, seq;

  /* non-blocking requests open: req_key -> req_open */
  pt__ktab reqs;

  /* results */
  uint64_t counts[PT_CHECK__COUNT];
  uint64_t total;
  pt_check_problem *reports;
  size_t nreports, reports_cap;
  pt__arena texts;
  pt_check_stats stats;
  int oom;
};

int pt_check_create(pt_check **out, const pt_check_opts *opts) {
  assert(out);
  *out = NULL;
  pt_check *c = calloc(1, sizeof *c);
  if (!c) return PT_ENOMEM;
  if (opts) c->opts = *opts;
  if (!c->opts.max_reports) c->opts.max_reports = 100;
  c->ranks_distinct = 1;
  c->chan_free = c->pend_free = NIL;
  pt__kt_init(&c->reqs, sizeof(req_open));
  pt__kt_init(&c->pairs, sizeof(pt__oheap));
  pt__kt_init(&c->dsts, sizeof(pt__oheap));
  *out = c;
  return PT_OK;
}

/* ---- reporting ---------------------------------------------------------- */

static const char *region_label(const pt_check *c, uint64_t region,
                                char *buf, size_t n) {
  const uint64_t *ix = map_get(&c->region_name, region);
  if (ix && (*ix & ~CALL_BIT) != NIL)
    snprintf(buf, n, "%" PRIu64 " (%s)", region, c->names[*ix & ~CALL_BIT]);
  else
    snprintf(buf, n, "%" PRIu64, region);
  return buf;
}

static void report(pt_check *c, uint32_t kind, uint64_t location,
                   uint64_t time, uint64_t ref, uint64_t time2, uint64_t count,
                   const char *fmt, ...) PT_PRINTF(8, 9);

static void report(pt_check *c, uint32_t kind, uint64_t location,
                   uint64_t time, uint64_t ref, uint64_t time2, uint64_t count,
                   const char *fmt, ...) {
  c->counts[kind]++;
  c->total++;
  int keep = c->nreports < c->opts.max_reports;
  if (!keep && !c->opts.on_problem) return;
  char text[512];
  int n = snprintf(text, sizeof text, "location %" PRIu64 ", t=%" PRIu64 ": ",
                   location, time);
  if (n < 0 || (size_t)n >= sizeof text) n = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
  va_end(ap);
  pt_check_problem p = {kind, 0, location, time, ref, time2, count, text};
  if (keep) {
    char *copy = NULL;
    if (grow((void **)&c->reports, &c->reports_cap, c->nreports + 1,
             sizeof *c->reports) == PT_OK)
      copy = pt__arena_strdup(&c->texts, text);
    if (copy) {
      p.text = copy;
      c->reports[c->nreports++] = p;
      p.text = text;
    } else {
      c->oom = 1;
    }
  }
  if (c->opts.on_problem) c->opts.on_problem(c->opts.user, &p);
}

/* ---- definitions -------------------------------------------------------- */

int pt_check_def(pt_check *c, const pt_def *d) {
  assert(c && d);
  if (c->finished) return PT_ESTATE;
  int rc = PT_OK;
  switch (d->kind) {
    case PT_DEF_REGION: {
      uint64_t ix = NIL;
      if (d->name) {
        if (grow((void **)&c->names, &c->names_cap, c->nnames + 1,
                 sizeof *c->names) < 0)
          return PT_ENOMEM;
        char *s = pt__arena_strdup(&c->texts, d->name);
        if (!s) return PT_ENOMEM;
        c->names[c->nnames] = s;
        ix = c->nnames++;
      }
      if (!map_get(&c->region_name, d->id)) c->stats.regions_defined++;
      rc = map_put(&c->region_name, d->id,
                   ix | (is_call_region(d) ? CALL_BIT : 0));
      break;
    }
    case PT_DEF_LOCATION:
      if (!map_get(&c->loc_group, d->id)) c->stats.locations_defined++;
      rc = map_put(&c->loc_group, d->id, d->parent);
      break;
    case PT_DEF_LOCATION_GROUP: {
      uint64_t rank = (uint64_t)d->i1;
      const uint64_t *old = map_get(&c->group_rank, d->id);
      if (old && *old == rank) break;
      if (old || map_get(&c->rank_seen, rank)) c->ranks_distinct = 0;
      rc = map_put(&c->group_rank, d->id, rank);
      if (rc == PT_OK) rc = map_put(&c->rank_seen, rank, 1);
      break;
    }
    default:
      break;
  }
  return rc;
}

/* ---- helpers for events ------------------------------------------------- */

/* The rank a location speaks for in messages. */
static uint64_t rank_of(const pt_check *c, uint64_t location) {
  if (!c->ranks_distinct || !c->group_rank.len) return location;
  const uint64_t *g = map_get(&c->loc_group, location);
  if (!g) return location;
  const uint64_t *r = map_get(&c->group_rank, *g);
  return r ? *r : location;
}

static int lossy(pt_check *c, uint64_t id) {
  const uint64_t *ix = map_get(&c->loc_index, id);
  return ix && c->locs[*ix].lossy;
}

static loc_state *loc_get(pt_check *c, uint64_t id) {
  const uint64_t *ix = map_get(&c->loc_index, id);
  if (ix) return &c->locs[*ix];
  if (grow((void **)&c->locs, &c->locs_cap, c->nlocs + 1, sizeof *c->locs) <
      0)
    return NULL;
  if (map_put(&c->loc_index, id, c->nlocs) < 0) return NULL;
  loc_state *s = &c->locs[c->nlocs++];
  memset(s, 0, sizeof *s);
  s->id = id;
  c->stats.locations++;
  return s;
}

/* Remember a reference to `id` that is not defined (yet). */
static int note_undef(pt_check *c, int is_loc, uint64_t id,
                      const pt_event *ev) {
  u64map *m = is_loc ? &c->undef_loc : &c->undef_region;
  uint64_t *ix = map_get(m, id);
  if (ix) {
    c->undefs[*ix].count++;
    return PT_OK;
  }
  if (grow((void **)&c->undefs, &c->undefs_cap, c->nundefs + 1,
           sizeof *c->undefs) < 0 ||
      grow((void **)&c->undef_kind, &c->undef_kind_cap, c->nundefs + 1, 1) < 0)
    return PT_ENOMEM;
  if (map_put(m, id, c->nundefs) < 0) return PT_ENOMEM;
  c->undefs[c->nundefs] = (undef_ref){id, ev->time, ev->location, 1};
  c->undef_kind[c->nundefs] = (uint8_t)is_loc;
  c->nundefs++;
  return PT_OK;
}

static int push_frame(loc_state *s, uint64_t region, uint64_t time) {
  if (grow((void **)&s->stack, &s->cap, s->depth + 1, sizeof *s->stack) < 0)
    return PT_ENOMEM;
  s->stack[s->depth++] = (frame){region, time};
  return PT_OK;
}

static void do_leave(pt_check *c, loc_state *s, const pt_event *ev) {
  char a[160], b[160];
  if (!s->depth) {
    report(c, PT_CHECK_LEAVE_WITHOUT_ENTER, ev->location, ev->time, ev->ref,
           ev->time, 1, "leave of region %s with no region open",
           region_label(c, ev->ref, a, sizeof a));
    return;
  }
  frame top = s->stack[s->depth - 1];
  if (top.region == ev->ref) {
    s->depth--;
    return;
  }
  report(c, PT_CHECK_LEAVE_MISMATCH, ev->location, ev->time, ev->ref,
         top.time, 1,
         "leave of region %s but the innermost open region is %s (entered "
         "at t=%" PRIu64 ")",
         region_label(c, ev->ref, a, sizeof a),
         region_label(c, top.region, b, sizeof b), top.time);
  /* Resynchronise: if the region is open further down, the frames above it
   * were never left; close them all.  Otherwise ignore this leave. */
  for (size_t i = s->depth - 1; i-- > 0;)
    if (s->stack[i].region == ev->ref) {
      s->depth = i;
      return;
    }
}

/* ---- message channels --------------------------------------------------- */

static uint64_t key_hash(const msg_key *k) {
  return pt__mix64(k->src ^
                   pt__mix64(k->dst ^
                             pt__mix64(k->comm ^ pt__mix64((uint64_t)k->tag))));
}

static int key_eq(const msg_key *a, const msg_key *b) {
  return a->src == b->src && a->dst == b->dst && a->comm == b->comm &&
         a->tag == b->tag;
}

static int buckets_grow(pt_check *c) {
  size_t n = c->nbuckets ? c->nbuckets * 2 : 256;
  uint32_t *b = malloc(n * sizeof *b);
  if (!b) return PT_ENOMEM;
  for (size_t i = 0; i < n; i++) b[i] = NIL;
  /* rehash every chan in use */
  for (size_t i = 0; i < c->nbuckets; i++) {
    uint32_t ch = c->buckets[i];
    while (ch != NIL) {
      uint32_t next = c->chans[ch].hnext;
      size_t h = (size_t)key_hash(&c->chans[ch].key) & (n - 1);
      c->chans[ch].hnext = b[h];
      b[h] = ch;
      ch = next;
    }
  }
  free(c->buckets);
  c->buckets = b;
  c->nbuckets = n;
  return PT_OK;
}

static chan *chan_find(pt_check *c, const msg_key *k, uint32_t **link) {
  if (!c->nbuckets) return NULL;
  uint32_t *l = &c->buckets[key_hash(k) & (c->nbuckets - 1)];
  while (*l != NIL) {
    chan *ch = &c->chans[*l];
    if (key_eq(&ch->key, k)) {
      if (link) *link = l;
      return ch;
    }
    l = &ch->hnext;
  }
  return NULL;
}

/* Whether e is the current entry of its channel (the channel's oldest
 * send is the one e names). */
static int send_valid(void *user, const pt__oheap *h, const pt__oh_ent *e) {
  pt_check *c = user;
  const msg_key k = {e->ch[0], h->k[0], h->k[1], (int64_t)e->ch[1]};
  const chan *ch = chan_find(c, &k, NULL);
  return ch && !ch->recvs && ch->head != NIL &&
         c->pends[ch->head].seq == e->serial;
}
static int in_pairs(const chan *ch) { return !ch->recvs && ch->key.tag >= 0; }
/* Send channel ch (tag >= 0, holding sends) into the heaps of its pair,
 * its destination and its destination's tag (is_new: it begins to hold
 * sends; else its oldest send changed). */
static int lists_push(pt_check *c, const chan *ch, int is_new) {
  const uint64_t seq = c->pends[ch->head].seq;
  const msg_key *k = &ch->key;
  const pt__oh_ent e = {{seq, 0, 0, 0}, {k->src, (uint64_t)k->tag}, seq};
  return pt__oh_push_chan(&c->pairs, &c->dsts, k->dst, k->comm, k->src,
                          k->tag, &e, is_new, send_valid, c);
}
/* Send channel ch holds no more sends: its entries are stale. */
static void lists_gone(pt_check *c, const chan *ch) {
  const msg_key *k = &ch->key;
  pt__oh_gone_chan(&c->pairs, &c->dsts, k->dst, k->comm, k->src, k->tag);
}
/* Start keeping the heaps: every send channel holding sends goes in (a
 * free channel's queue is empty). */
static int lists_start(pt_check *c) {
  if (c->lists) return PT_OK;
  for (size_t i = 0; i < c->nchans_used; i++) {
    const chan *ch = &c->chans[i];
    if (ch->head != NIL && in_pairs(ch) && lists_push(c, ch, 1) < 0)
      return PT_ENOMEM;
  }
  c->lists = 1;
  return PT_OK;
}
/* The channel of the oldest send of heap h (NULL: none), its bucket
 * link into *link; NULL when none. */
static chan *heap_oldest(pt_check *c, pt__oheap *h, uint32_t **link) {
  const pt__oh_ent *e = pt__oh_top(h, send_valid, c);
  if (!e) return NULL;
  const msg_key k = {e->ch[0], h->k[0], h->k[1], (int64_t)e->ch[1]};
  return chan_find(c, &k, link);
}

static chan *chan_new(pt_check *c, const msg_key *k) {
  uint32_t ix;
  if (c->chan_free != NIL) {
    ix = c->chan_free;
    c->chan_free = c->chans[ix].hnext;
  } else {
    if (c->nchans_used >= NIL - 1) return NULL;
    if (grow((void **)&c->chans, &c->chans_cap, c->nchans_used + 1,
             sizeof *c->chans) < 0)
      return NULL;
    ix = (uint32_t)c->nchans_used++;
    if (c->nchans_used > c->nbuckets && buckets_grow(c) < 0) {
      c->nchans_used--;
      return NULL;
    }
  }
  if (!c->nbuckets && buckets_grow(c) < 0) return NULL;
  chan *ch = &c->chans[ix];
  ch->key = *k;
  ch->head = ch->tail = NIL;
  ch->recvs = 0;
  size_t h = (size_t)key_hash(k) & (c->nbuckets - 1);
  ch->hnext = c->buckets[h];
  c->buckets[h] = ix;
  return ch;
}

static int pend_push(pt_check *c, chan *ch, const pt_event *ev,
                     uint64_t time) {
  uint32_t ix;
  if (c->pend_free != NIL) {
    ix = c->pend_free;
    c->pend_free = c->pends[ix].next;
  } else {
    if (c->npends_used >= NIL - 1) return PT_ELIMIT;
    if (grow((void **)&c->pends, &c->pends_cap, c->npends_used + 1,
             sizeof *c->pends) < 0)
      return PT_ENOMEM;
    ix = (uint32_t)c->npends_used++;
  }
  c->pends[ix] = (pend){time, ev->location, c->seq++, NIL};
  if (ch->tail == NIL)
    ch->head = ix;
  else
    c->pends[ch->tail].next = ix;
  ch->tail = ix;
  if (++c->pending > c->stats.max_pending) c->stats.max_pending = c->pending;
  return PT_OK;
}

/* Take the oldest message of a non-empty channel into *out; frees the
 * channel when it becomes empty (link points at the channel's slot in its
 * bucket).  PT_OK or PT_ENOMEM (the heaps). */
static int pend_pop(pt_check *c, chan *ch, uint32_t *link, pend *out) {
  uint32_t ix = ch->head;
  pend p = c->pends[ix];
  int rc = PT_OK;
  ch->head = p.next;
  if (ch->head == NIL) {
    ch->tail = NIL;
    uint32_t self = *link;
    if (in_pairs(ch) && c->lists) lists_gone(c, ch);
    *link = ch->hnext;
    ch->hnext = c->chan_free;
    c->chan_free = self;
  } else if (in_pairs(ch) && c->lists) {
    rc = lists_push(c, ch, 0); /* its oldest send changed */
  }
  c->pends[ix].next = c->pend_free;
  c->pend_free = ix;
  c->pending--;
  *out = p;
  return rc;
}

/* A send or receive; `time` is when it counts for the clock condition: a
 * receive's own time (when it completed), a send's call's start (the
 * ENTER of the message-passing call it is in, else its own time): formats
 * place the send event at different points of its call (PICL's Isend
 * record has its request only at the call's exit), and the condition is
 * about the call. */
static int do_message(pt_check *c, const pt_event *ev, int is_recv,
                      uint64_t time) {
  /* unknown partner: nothing to match, except a receive from
   * MPI_ANY_SOURCE without a recorded status (peer -1) */
  if (ev->peer < 0 && (!is_recv || ev->peer != -1)) return PT_OK;
  uint64_t me = rank_of(c, ev->location);
  uint64_t peer = ev->peer < 0 ? ANY_SRC : (uint64_t)ev->peer;
  msg_key k = {is_recv ? peer : me, is_recv ? me : peer, ev->comm, ev->tag};
  uint32_t *link = NULL;
  chan *ch = chan_find(c, &k, &link);
  if (!ch && is_recv && (k.src == ANY_SRC || k.tag < 0) &&
      lists_start(c) < 0)
    return PT_ENOMEM;
  if (!ch && is_recv && k.src == ANY_SRC) {
    /* MPI_ANY_SOURCE without a recorded status: the oldest pending send
     * to this rank on the communicator with the tag (any tag for -1),
     * whoever sent it (the trace does not say which message MPI gave it;
     * the first sent is the one a receive posted after them all gets);
     * from the heap of the send channels to (dst, comm), or with a tag to
     * (dst, comm, tag) */
    ch = heap_oldest(c,
                     pt__kt_find(&c->dsts,
                                 k.tag < 0
                                     ? PT__K(k.dst, k.comm, 0, 0)
                                     : PT__K(k.dst, k.comm, (uint64_t)k.tag, 1)),
                     &link);
  } else if (!ch && is_recv && k.tag < 0) {
    /* MPI_ANY_TAG without a recorded status: the oldest pending send on
     * (sender, receiver, comm) with any tag, as MPI would match it; from
     * the pair's heap of send channels (a scan of every channel made such
     * receives quadratic) */
    ch = heap_oldest(c, pt__kt_find(&c->pairs, PT__K(k.dst, k.comm, k.src, 0)),
                     &link);
  } else if (!ch && !is_recv) {
    /* a pending receive with MPI_ANY_TAG from this sender, or from
     * MPI_ANY_SOURCE with this tag or any: the one posted first */
    const msg_key w[3] = {{k.src, k.dst, k.comm, -1},
                          {ANY_SRC, k.dst, k.comm, k.tag},
                          {ANY_SRC, k.dst, k.comm, -1}};
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < (c->wild_src ? 3 : 1); i++) {
      uint32_t *wl = NULL;
      chan *x = chan_find(c, &w[i], &wl);
      if (x && x->recvs && x->head != NIL && c->pends[x->head].seq < best) {
        best = c->pends[x->head].seq;
        ch = x;
        link = wl;
      }
    }
  }
  if (ch && ch->recvs != is_recv) {
    if (ch->key.src == ANY_SRC) c->wild_src--;
    const msg_key sk = is_recv ? ch->key : k; /* the send's */
    pend other;
    if (pend_pop(c, ch, link, &other) < 0) return PT_ENOMEM;
    c->stats.messages_matched++;
    uint64_t send_time = is_recv ? other.time : time;
    uint64_t recv_time = is_recv ? time : other.time;
    uint64_t recv_loc = is_recv ? ev->location : other.location;
    if (recv_time < send_time &&
        send_time - recv_time <= c->opts.clock_tolerance) {
      c->stats.skewed_messages++;
      if (send_time - recv_time > c->stats.max_skew)
        c->stats.max_skew = send_time - recv_time;
    } else if (recv_time < send_time && (lossy(c, ev->location) ||
                                         lossy(c, other.location))) {
      /* a ring buffer dropped the partner of the first messages kept:
       * first in, first out pairs them with later ones */
      c->stats.lossy_messages++;
    } else if (recv_time < send_time)
      report(c, PT_CHECK_RECV_BEFORE_SEND, recv_loc, recv_time, PT_NONE,
             send_time, 1,
             "receive from %" PRIu64 " (comm %" PRIu64 ", tag %" PRId64
             ") ended before its send began at t=%" PRIu64,
             sk.src, sk.comm, sk.tag, send_time);
    return PT_OK;
  }
  if (!ch) {
    ch = chan_new(c, &k);
    if (!ch) return PT_ENOMEM;
    ch->recvs = is_recv;
  }
  int rc = pend_push(c, ch, ev, time);
  if (rc == PT_OK && ch->head == ch->tail && in_pairs(ch) && c->lists)
    rc = lists_push(c, ch, 1); /* it begins to hold sends */
  if (rc == PT_OK && is_recv && k.src == ANY_SRC) c->wild_src++;
  return rc;
}

/* ---- events ------------------------------------------------------------- */

/* When send ev of location s began: its call's ENTER (do_message). */
static uint64_t send_start(const pt_check *c, const loc_state *s,
                           const pt_event *ev) {
  if (!s->depth) return ev->time;
  const frame *f = &s->stack[s->depth - 1];
  const uint64_t *v = map_get(&c->region_name, f->region);
  return v && (*v & CALL_BIT) ? f->time : ev->time;
}

/* The key of ev's request: requests belong to the process (the location
 * group), since a thread may complete a request another thread started
 * (MPI_THREAD_MULTIPLE: an MPI_Isend in one thread, its MPI_Wait in
 * another; the MPI recorder's request ids are unique within a rank); a
 * location without a group is its own process. */
static void req_key(const pt_check *c, const pt_event *ev, uint64_t k[4]) {
  const uint64_t *g = map_get(&c->loc_group, ev->location);
  int grp = g && *g != PT_NONE;
  k[0] = grp ? *g : ev->location;
  k[1] = ev->request;
  k[2] = (uint64_t)grp;
  k[3] = 0;
}

/* A non-blocking request started by ev (ISEND, IRECV_REQUEST). */
enum { REQS_MAX = 1 << 20 }; /* open requests tracked at most (48 MiB) */
static int req_start(pt_check *c, const pt_event *ev) {
  uint64_t k[4];
  req_key(c, ev, k);
  if (c->reqs.n >= REQS_MAX && !pt__kt_find(&c->reqs, k)) {
    /* a program that frees active requests in a loop (no event says so)
     * leaves one open per request: bounded, counted */
    c->stats.unfinished_untracked++;
    return PT_OK;
  }
  req_open *r = pt__kt_get(&c->reqs, k);
  if (!r) return PT_ENOMEM;
  if (!r->n++) {
    r->loc = ev->location;
    r->time = ev->time;
    r->kind = ev->kind;
  }
  return PT_OK;
}

/* ... completed or cancelled by ev (one not seen started: ignored, as a
 * trace cut after its start has them). */
static void req_end(pt_check *c, const pt_event *ev) {
  uint64_t k[4];
  req_key(c, ev, k);
  req_open *r = pt__kt_find(&c->reqs, k);
  if (r && !--r->n) pt__kt_del(&c->reqs, k);
}

int pt_check_event(pt_check *c, const pt_event *ev) {
  assert(c && ev);
  if (c->finished) return PT_ESTATE;
  c->stats.events++;
  loc_state *s = loc_get(c, ev->location);
  if (!s) return PT_ENOMEM;
  if (!map_get(&c->loc_group, ev->location) &&
      note_undef(c, 1, ev->location, ev) < 0)
    return PT_ENOMEM;
  if (s->seen && ev->time < s->last_time)
    report(c, PT_CHECK_TIME_ORDER, ev->location, ev->time, PT_NONE,
           s->last_time, 1,
           "%s goes back in time: the previous event was at t=%" PRIu64,
           pt_event_kind_name(ev->kind) ? pt_event_kind_name(ev->kind)
                                        : "event",
           s->last_time);
  s->seen = 1;
  s->last_time = ev->time;

  switch (ev->kind) {
    case PT_EV_ENTER:
    case PT_EV_LEAVE:
      if (!map_get(&c->region_name, ev->ref) && note_undef(c, 0, ev->ref, ev) < 0)
        return PT_ENOMEM;
      if (ev->kind == PT_EV_ENTER) {
        if (push_frame(s, ev->ref, ev->time) < 0) return PT_ENOMEM;
        if (s->depth > c->stats.max_depth) c->stats.max_depth = s->depth;
      } else {
        do_leave(c, s, ev);
      }
      break;
    case PT_EV_SEND:
      return do_message(c, ev, 0, send_start(c, s, ev));
    case PT_EV_ISEND:
      if (req_start(c, ev) < 0) return PT_ENOMEM;
      return do_message(c, ev, 0, send_start(c, s, ev));
    case PT_EV_IRECV_REQUEST:
      return req_start(c, ev);
    case PT_EV_ISEND_COMPLETE:
    case PT_EV_REQUEST_CANCELLED:
      req_end(c, ev);
      break;
    case PT_EV_IRECV:
      req_end(c, ev);
      return do_message(c, ev, 1, ev->time);
    case PT_EV_RECV:
      return do_message(c, ev, 1, ev->time);
    case PT_EV_BUFFER_OVERFLOW:
      /* the ring policy (PICL -914): the events before were dropped */
      if (ev->tag == 2 && ev->size > 0) s->lossy = 1;
      /* the stop policy (PICL -913): nothing after it was recorded */
      if (ev->tag == 1) s->stopped = 1;
      break;
    default:
      break;
  }
  return PT_OK;
}

/* ---- end ---------------------------------------------------------------- */

typedef struct left {
  pend p;
  msg_key k;
  int recv;
} left;

static int cmp_left(const void *a, const void *b) {
  uint64_t x = ((const left *)a)->p.seq, y = ((const left *)b)->p.seq;
  return x < y ? -1 : x > y;
}

int pt_check_finish(pt_check *c) {
  assert(c);
  if (c->finished) return PT_ESTATE;
  c->finished = 1;
  char a[160];

  for (size_t i = 0; i < c->nlocs; i++) {
    loc_state *s = &c->locs[i];
    if (s->stopped) { /* its leaves were not recorded */
      c->stats.stopped_items += s->depth;
      continue;
    }
    for (size_t d = s->depth; d-- > 0;)
      report(c, PT_CHECK_UNCLOSED_REGION, s->id, s->last_time,
             s->stack[d].region, s->stack[d].time, 1,
             "region %s entered at t=%" PRIu64 " is still open at the end "
             "(depth %zu)",
             region_label(c, s->stack[d].region, a, sizeof a),
             s->stack[d].time, d + 1);
  }

  /* the ranks (message ends) of the locations the stop policy stopped */
  u64map stop_rank;
  memset(&stop_rank, 0, sizeof stop_rank);
  for (size_t i = 0; i < c->nlocs; i++)
    if (c->locs[i].stopped &&
        map_put(&stop_rank, rank_of(c, c->locs[i].id), 1) < 0) {
      map_free(&stop_rank);
      return PT_ENOMEM;
    }

  /* the ranks the trace has (its locations'): a message end outside them
   * (one rank's file of a larger run) is said to be so */
  u64map have_rank;
  memset(&have_rank, 0, sizeof have_rank);
  if (c->pending) {
    int oom = 0;
    for (size_t i = 0; i < c->loc_group.cap && !oom; i++)
      if (c->loc_group.used[i])
        oom = map_put(&have_rank, rank_of(c, c->loc_group.keys[i]), 1) < 0;
    for (size_t i = 0; i < c->nlocs && !oom; i++)
      oom = map_put(&have_rank, rank_of(c, c->locs[i].id), 1) < 0;
    if (oom) {
      map_free(&have_rank);
      map_free(&stop_rank);
      return PT_ENOMEM;
    }
  }

  if (c->pending) {
    left *ls = malloc(c->pending * sizeof *ls);
    if (!ls) {
      map_free(&have_rank);
      map_free(&stop_rank);
      return PT_ENOMEM;
    }
    size_t n = 0;
    for (size_t b = 0; b < c->nbuckets; b++)
      for (uint32_t ch = c->buckets[b]; ch != NIL; ch = c->chans[ch].hnext)
        for (uint32_t p = c->chans[ch].head; p != NIL; p = c->pends[p].next)
          if (n < c->pending)
            ls[n++] = (left){c->pends[p], c->chans[ch].key,
                             c->chans[ch].recvs};
    qsort(ls, n, sizeof *ls, cmp_left);
    for (size_t i = 0; i < n; i++) {
      const left *l = &ls[i];
      if (lossy(c, l->p.location)) { /* its partner may have been dropped */
        c->stats.lossy_messages++;
        continue;
      }
      /* either end stopped recording (stop policy) before the other */
      if (stop_rank.len && (map_get(&stop_rank, l->k.src) ||
                            map_get(&stop_rank, l->k.dst))) {
        c->stats.stopped_items++;
        continue;
      }
      uint64_t peer = l->recv ? l->k.src : l->k.dst;
      const char *out = peer == ANY_SRC || map_get(&have_rank, peer)
                            ? ""
                            : " (no location of the trace is that rank: "
                              "part of a larger run?)";
      if (l->recv && peer == ANY_SRC)
        report(c, PT_CHECK_UNMATCHED_RECV, l->p.location, l->p.time, PT_NONE,
               l->p.time, 1,
               "receive from any source (comm %" PRIu64 ", tag %" PRId64
               ") has no matching send",
               l->k.comm, l->k.tag);
      else if (l->recv)
        report(c, PT_CHECK_UNMATCHED_RECV, l->p.location, l->p.time, PT_NONE,
               l->p.time, 1,
               "receive from %" PRIu64 " (comm %" PRIu64 ", tag %" PRId64
               ") has no matching send%s",
               l->k.src, l->k.comm, l->k.tag, out);
      else
        report(c, PT_CHECK_UNMATCHED_SEND, l->p.location, l->p.time, PT_NONE,
               l->p.time, 1,
               "send to %" PRIu64 " (comm %" PRIu64 ", tag %" PRId64
               ") has no matching receive%s",
               l->k.dst, l->k.comm, l->k.tag, out);
    }
    free(ls);
  }
  map_free(&have_rank);
  map_free(&stop_rank);

  /* requests never completed: a note (stats), not a problem */
  for (size_t i = 0; i < c->reqs.n; i++) {
    const req_open *r = pt__kt_at(&c->reqs, i);
    const uint64_t *ix = map_get(&c->loc_index, r->loc);
    if (ix && c->locs[*ix].stopped) continue;
    pt_check_stats *st = &c->stats;
    if (!st->unfinished_requests || r->time < st->unfinished_time ||
        (r->time == st->unfinished_time &&
         (r->loc < st->unfinished_location ||
          (r->loc == st->unfinished_location &&
           r->k[1] < st->unfinished_request)))) {
      st->unfinished_location = r->loc;
      st->unfinished_time = r->time;
      st->unfinished_request = r->k[1];
      st->unfinished_kind = r->kind;
    }
    st->unfinished_requests += r->n;
  }

  for (size_t i = 0; i < c->nundefs; i++) {
    const undef_ref *u = &c->undefs[i];
    if (c->undef_kind[i]) {
      if (map_get(&c->loc_group, u->id)) continue; /* defined later */
      report(c, PT_CHECK_UNDEFINED_LOCATION, u->location, u->time, u->id,
             u->time, u->count,
             "location %" PRIu64 " is not defined (%" PRIu64 " event%s)",
             u->id, u->count, u->count == 1 ? "" : "s");
    } else {
      if (map_get(&c->region_name, u->id)) continue;
      report(c, PT_CHECK_UNDEFINED_REGION, u->location, u->time, u->id,
             u->time, u->count,
             "region %" PRIu64 " is not defined (%" PRIu64 " event%s)", u->id,
             u->count, u->count == 1 ? "" : "s");
    }
  }
  if (c->oom) return PT_ENOMEM;
  return c->total ? PT_ECHECK : PT_OK;
}

uint64_t pt_check_total(const pt_check *c) { return c->total; }

uint64_t pt_check_count(const pt_check *c, uint32_t kind) {
  return kind < PT_CHECK__COUNT ? c->counts[kind] : 0;
}

size_t pt_check_nreports(const pt_check *c) { return c->nreports; }

const pt_check_problem *pt_check_report(const pt_check *c, size_t i) {
  return i < c->nreports ? &c->reports[i] : NULL;
}

void pt_check_get_stats(const pt_check *c, pt_check_stats *st) {
  *st = c->stats;
}

void pt_check_destroy(pt_check *c) {
  if (!c) return;
  map_free(&c->region_name);
  for (size_t i = 0; i < c->pairs.n; i++) pt__oh_free(pt__kt_at(&c->pairs, i));
  for (size_t i = 0; i < c->dsts.n; i++) pt__oh_free(pt__kt_at(&c->dsts, i));
  pt__kt_free(&c->pairs);
  pt__kt_free(&c->dsts);
  map_free(&c->loc_group);
  map_free(&c->group_rank);
  map_free(&c->rank_seen);
  map_free(&c->loc_index);
  map_free(&c->undef_region);
  map_free(&c->undef_loc);
  for (size_t i = 0; i < c->nlocs; i++) free(c->locs[i].stack);
  free(c->locs);
  free(c->names);
  free(c->undefs);
  free(c->undef_kind);
  free(c->buckets);
  free(c->chans);
  free(c->pends);
  free(c->reports);
  pt__kt_free(&c->reqs);
  pt__arena_free(&c->texts);
  free(c);
}
