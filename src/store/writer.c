/* PTF writer: see include/paratrace/writer.h and doc/format.md.
 *
 * Each stream owns its encoder state and files, so the append path takes
 * no lock; a block is compressed with a zstd context and buffers borrowed
 * from the sets all writers share (archive.h pt__zs: one mutex per block,
 * and a stream holds no idle 0.6 MB context).  The writer's mutex guards
 * the stream table, the location -> stream map and the global
 * definitions; a stream takes it only when it meets a new location or
 * when global definitions are pending at the moment it writes a block (so
 * no written event block can refer to a definition that is not yet in the
 * defs file).
 *
 * With opts.threads > 0, full event blocks go to the writer's compression
 * threads: a stream detaches its block (pt__bw_take: buffers swapped, no
 * copy), queues it and goes on encoding into the other buffer; it waits
 * only when its previous block is still in flight.  Definitions that the
 * block needs are written before it is queued, so the order on disk is
 * the same as without threads.  The queue's mutex is taken once per block,
 * never per event. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pool.h"
#include "store/archive.h"
#include "store/map.h"

#define DEFAULT_BLOCK (256u << 10)
/* Streams beyond this many write each block with open/append/close, so a
 * writer of thousands of streams needs few descriptors. */
#define KEEP_OPEN_STREAMS 32

struct pt_stream {
  pt_writer *w;
  uint64_t id;
  pt__bw ev, ldefs, sums, snaps;
  int have_sums, have_snaps;
  pt__ientry *idx;
  size_t nidx, capidx;
  uint64_t events, first_time, last_time;
  uint64_t sum_last, snap_last;
  uint64_t cur_loc; /* last location seen (fast ownership check) */
  pt__map mylocs;   /* location -> order of appearance */
  uint64_t *locs;
  size_t nlocs, caplocs;
  int failed; /* an I/O error left the stream unusable */
  char err[512];
  /* the block between pt__bw_take and pt__bw_done */
  pt__bjob job;
  pt__task task;      /* job's place in the writer's pool */
  int jbusy;          /* taken, not yet accounted (owner thread only) */
  int lean;           /* beyond the first streams: free the job's buffers
                         after each block (memory ~ one block per stream) */
};

struct pt_writer {
  pthread_mutex_t mu;
  char *path;    /* final name */
  char *dir;     /* where files are written (path or a temporary) */
  int overwrite;
  int join;      /* a joiner: no anchor, defs in s<part>.defs */
  uint64_t part;
  size_t block_size;
  int level;
  char *creator;
  pt__bw defs;
  int zs_ref; /* holds a reference to the shared block-building sets */
  atomic_int defs_pending;
  int have_clock;
  pt_def clock;
  pt_stream **streams; /* creation order */
  size_t nstreams, capstreams;
  pt__map stream_ids; /* id -> index in streams */
  pt__map loc_owner;  /* location -> stream id */
  char err[512];
  pt__pool pool; /* compression threads (opts.threads); pool.n = 0: none */
};

/* ---- helpers ----------------------------------------------------------- */

static int werr(pt_writer *w, int rc, const char *fmt, ...) PT_PRINTF(3, 4);
static int werr(pt_writer *w, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->err, sizeof w->err, fmt, ap);
  va_end(ap);
  return rc;
}

static int serr(pt_stream *s, int rc, const char *fmt, ...) PT_PRINTF(3, 4);
static int serr(pt_stream *s, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->err, sizeof s->err, fmt, ap);
  va_end(ap);
  return rc;
}

/* Flush pending global definitions; caller holds w->mu. */
static int flush_defs_locked(pt_writer *w) {
  int rc = pt__bw_flush_shared(&w->defs, w->level, NULL, NULL);
  if (rc)
    return werr(w, rc, "%s: writing definitions: %s", w->defs.path,
                pt_strerror(rc));
  atomic_store(&w->defs_pending, 0);
  return PT_OK;
}

/* ---- compression threads ----------------------------------------------- */

static void *cctx_new(void) { return ZSTD_createCCtx(); }
static void cctx_free(void *c) { ZSTD_freeCCtx(c); }

/* A stream's block in a compression thread (ctx: that thread's cctx). */
static void run_block(pt__task *t, void *ctx) {
  pt_stream *s = (pt_stream *)((char *)t - offsetof(pt_stream, task));
  pt__bjob_run(&s->job, ctx, s->w->level);
}

/* ---- open -------------------------------------------------------------- */

int pt_writer_open(pt_writer **out, const char *path,
                   const pt_writer_opts *opts, pt_error *err) {
  if (!out) return pt__err(err, PT_EINVAL, "pt_writer_open: out is NULL");
  *out = NULL;
  if (!path || !*path) return pt__err(err, PT_EINVAL, "empty archive path");
  pt_writer_opts o = {0};
  if (opts) o = *opts;
  if (o.level > 22 || o.level < -1)
    return pt__err(err, PT_EINVAL, "zstd level %d out of range", o.level);
  if (o.block_size > PT__BLK_MAX_RAW / 2)
    return pt__err(err, PT_EINVAL, "block size %zu above %u", o.block_size,
                   PT__BLK_MAX_RAW / 2);
  if (o.threads < 0 || o.threads > 64)
    return pt__err(err, PT_EINVAL, "%d compression threads (0..64)",
                   o.threads);
  struct stat pst;
  if (o.overwrite && lstat(path, &pst) == 0 && !pt__is_ptf_dir(path))
    return pt__err(err, PT_EEXIST, "%s: exists and is not a paratrace "
                   "archive; not replaced (remove it or choose another "
                   "name)", path);
  pt_writer *w = calloc(1, sizeof *w);
  if (!w) return pt__err(err, PT_ENOMEM, "out of memory");
  pthread_mutex_init(&w->mu, NULL);
  w->defs.fd = -1;
  w->block_size = o.block_size ? o.block_size : DEFAULT_BLOCK;
  if (w->block_size < 256) w->block_size = 256;
  w->level = o.level == 0 ? 1 : o.level;
  w->overwrite = o.overwrite;
  if (o.join && (o.overwrite || o.part >= PT__MAX_STREAMS)) {
    pthread_mutex_destroy(&w->mu);
    free(w);
    return pt__err(err, PT_EINVAL,
                   "join needs overwrite = 0 and a part below 2^24");
  }
  w->join = o.join;
  w->part = o.part;
  size_t plen = strlen(path);
  while (plen > 1 && path[plen - 1] == '/') plen--;
  w->path = strndup(path, plen);
  w->creator = strdup(o.creator ? o.creator : "paratrace");
  pt__zs_ref();
  w->zs_ref = 1;
  if (!w->path || !w->creator) goto oom;
  if (o.threads > 0 &&
      pt__pool_start(&w->pool, o.threads, cctx_new, cctx_free) != 0) {
    pt_writer_abort(w);
    return pt__err(err, PT_EIO, "cannot start %d compression threads",
                   o.threads);
  }
  for (const char *c = w->creator; *c; c++)
    if (*c == '\n' || *c == '\r') {
      pt_writer_abort(w);
      return pt__err(err, PT_EINVAL, "creator contains a newline");
    }
  if (o.overwrite) {
    size_t n = plen + 64;
    if (!(w->dir = malloc(n))) goto oom;
    static atomic_uint counter;
    snprintf(w->dir, n, "%s.tmp-w%ld-%u", w->path, (long)getpid(),
             atomic_fetch_add(&counter, 1));
    pt__rmtree(w->dir);
  } else {
    if (!(w->dir = strdup(w->path))) goto oom;
  }
  if (mkdir(w->dir, 0755) != 0 && !(w->join && errno == EEXIST)) {
    int e = errno;
    int rc = e == EEXIST ? PT_EEXIST : e == ENOENT ? PT_ENOTFOUND : PT_EIO;
    pt__err(err, rc, "%s: %s", w->dir, strerror(e));
    free(w->dir);
    w->dir = NULL; /* not ours: abort must not remove it */
    pt_writer_abort(w);
    return rc;
  }
  char *dp = w->join ? pt__path(w->dir, "s%" PRIu64 ".defs", w->part)
                     : pt__path(w->dir, "defs");
  int rc = dp ? pt__bw_open(&w->defs, dp, PT__BLK_DEFS, 1) : PT_ENOMEM;
  if (rc) {
    pt__err(err, rc, "%s: %s", dp ? dp : w->dir,
            rc == PT_EIO ? strerror(errno) : pt_strerror(rc));
    free(dp);
    pt_writer_abort(w);
    return rc;
  }
  free(dp);
  if (w->join) {
    pt_stream *own;
    if ((rc = pt_writer_stream(w, w->part, &own))) {
      pt__err(err, rc, "%s", w->err);
      free(w->dir);
      w->dir = NULL; /* shared: abort must not remove it */
      pt_writer_abort(w);
      return rc;
    }
    *out = w;
    return PT_OK;
  }
  pt__anchor_info ai = {.creator = w->creator, .closed = 0};
  if ((rc = pt__anchor_store(w->dir, &ai, err))) {
    pt_writer_abort(w);
    return rc;
  }
  *out = w;
  return PT_OK;
oom:
  pt_writer_abort(w);
  return pt__err(err, PT_ENOMEM, "out of memory");
}

const char *pt_writer_errmsg(const pt_writer *w) { return w ? w->err : ""; }
const char *pt_stream_errmsg(const pt_stream *s) { return s ? s->err : ""; }

/* ---- definitions ------------------------------------------------------- */

static int encode_def(pt__bw *bw, const pt_def *d, size_t block_size,
                      int *full) {
  size_t bound = pt__def_bound(d);
  if (!bound) return PT_EINVAL;
  if (bound > PT__BLK_MAX_RAW / 2) return PT_ELIMIT;
  uint8_t *p = pt__bw_begin(bw, 0, bound);
  if (!p) return PT_ENOMEM;
  pt__bw_end(bw, 0, pt__def_put(p, d));
  *full = bw->raw.len >= block_size;
  return PT_OK;
}

int pt_writer_def(pt_writer *w, const pt_def *def) {
  if (!def) {
    pthread_mutex_lock(&w->mu);
    int rc = werr(w, PT_EINVAL, "pt_writer_def: def is NULL");
    pthread_mutex_unlock(&w->mu);
    return rc;
  }
  pthread_mutex_lock(&w->mu);
  int full = 0;
  int rc = encode_def(&w->defs, def, w->block_size, &full);
  if (rc) {
    werr(w, rc, "definition (kind %u, id %" PRIu64 "): %s", def->kind,
         def->id, rc == PT_EINVAL ? "invalid kind or members" : pt_strerror(rc));
  } else {
    atomic_store(&w->defs_pending, 1);
    if (def->kind == PT_DEF_CLOCK) {
      w->have_clock = 1;
      w->clock = *def;
      w->clock.name = w->clock.s1 = w->clock.s2 = w->clock.s3 = NULL;
      w->clock.members = NULL;
      w->clock.nmembers = 0;
    }
    if (full) rc = flush_defs_locked(w);
  }
  pthread_mutex_unlock(&w->mu);
  return rc;
}

int pt_stream_def(pt_stream *s, const pt_def *def) {
  if (s->w->join && s->id == s->w->part)
    return serr(s, PT_EINVAL,
                "stream %" PRIu64 " holds the joined writer's definitions; "
                "use pt_writer_def",
                s->id);
  int full = 0;
  int rc = encode_def(&s->ldefs, def, s->w->block_size, &full);
  if (rc)
    return serr(s, rc, "stream %" PRIu64 ": local definition (kind %u): %s",
                s->id, def->kind, pt_strerror(rc));
  if (full) {
    rc = pt__bw_flush_shared(&s->ldefs, s->w->level, NULL, NULL);
    if (rc)
      return serr(s, rc, "%s: %s", s->ldefs.path, pt_strerror(rc));
  }
  return PT_OK;
}

/* ---- streams ----------------------------------------------------------- */

static void stream_free(pt_stream *s) {
  if (!s) return;
  pt__bw_free(&s->ev);
  pt__bw_free(&s->ldefs);
  pt__bw_free(&s->sums);
  pt__bw_free(&s->snaps);
  pt__bjob_free(&s->job);
  free(s->idx);
  pt__map_free(&s->mylocs);
  free(s->locs);
  free(s);
}

int pt_writer_stream(pt_writer *w, uint64_t stream_id, pt_stream **out) {
  if (!out) return werr(w, PT_EINVAL, "pt_writer_stream: out is NULL");
  *out = NULL;
  if (stream_id >= PT__MAX_STREAMS)
    return werr(w, PT_ELIMIT, "stream id %" PRIu64 " above the limit 2^24",
                stream_id);
  pthread_mutex_lock(&w->mu);
  uint64_t ix;
  int rc = PT_OK;
  if (pt__map_get(&w->stream_ids, stream_id, &ix)) {
    *out = w->streams[ix];
    goto done;
  }
  pt_stream *s = calloc(1, sizeof *s);
  if (!s) {
    rc = werr(w, PT_ENOMEM, "out of memory");
    goto done;
  }
  s->w = w;
  s->id = stream_id;
  s->cur_loc = PT_NONE;
  s->ev.fd = s->ldefs.fd = s->sums.fd = s->snaps.fd = -1;
  int keep = w->nstreams < KEEP_OPEN_STREAMS;
  s->lean = !keep;
  char *ep = pt__path(w->dir, "s%" PRIu64 ".events", stream_id);
  char *dp = pt__path(w->dir, "s%" PRIu64 ".defs", stream_id);
  if (!ep || !dp) {
    rc = PT_ENOMEM;
  } else if ((rc = pt__bw_open(&s->ev, ep, PT__BLK_EVENTS, keep)) == PT_OK) {
    /* Local defs go to their file lazily: path only for now. */
    s->ldefs.type = PT__BLK_DEFS;
    s->ldefs.path = dp;
    dp = NULL;
  }
  if (!rc) rc = PT_GROW(w->streams, w->capstreams, w->nstreams + 1, 16);
  if (!rc) rc = pt__map_put(&w->stream_ids, stream_id, w->nstreams);
  if (rc) {
    werr(w, rc, "%s: %s", ep ? ep : w->dir,
         rc == PT_EIO ? strerror(errno) : pt_strerror(rc));
    free(ep);
    free(dp);
    stream_free(s);
    goto done;
  }
  free(ep);
  free(dp);
  w->streams[w->nstreams++] = s;
  *out = s;
done:
  pthread_mutex_unlock(&w->mu);
  return rc;
}

/* A location not seen before in this stream: claim it in the writer-wide
 * map (a location must stay in one stream). */
static int claim_location(pt_stream *s, uint64_t loc) {
  if (pt__map_get(&s->mylocs, loc, NULL)) {
    s->cur_loc = loc;
    return PT_OK;
  }
  if (loc == PT_NONE)
    return serr(s, PT_EINVAL, "stream %" PRIu64 ": location id is PT_NONE",
                s->id);
  pt_writer *w = s->w;
  pthread_mutex_lock(&w->mu);
  uint64_t owner;
  int rc = PT_OK;
  if (pt__map_get(&w->loc_owner, loc, &owner) && owner != s->id)
    rc = serr(s, PT_EINVAL,
              "stream %" PRIu64 ": location %" PRIu64
              " already belongs to stream %" PRIu64,
              s->id, loc, owner);
  else if (pt__map_put(&w->loc_owner, loc, s->id))
    rc = PT_ENOMEM;
  pthread_mutex_unlock(&w->mu);
  if (rc) return rc;
  if (PT_GROW(s->locs, s->caplocs, s->nlocs + 1, 8) ||
      pt__map_put(&s->mylocs, loc, s->nlocs))
    return serr(s, PT_ENOMEM, "out of memory");
  s->locs[s->nlocs++] = loc;
  s->cur_loc = loc;
  return PT_OK;
}

/* Wait for the block in flight (if any) and account for it. */
static int collect(pt_stream *s) {
  if (!s->jbusy) return PT_OK;
  pt_writer *w = s->w;
  if (w->pool.n) pt__pool_wait(&w->pool, &s->task);
  s->jbusy = 0;
  if (s->job.rc) {
    s->failed = 1;
    return serr(s, s->job.rc, "%s: writing a block: %s", s->ev.path,
                s->job.rc == PT_EIO ? strerror(s->job.err)
                                    : pt_strerror(s->job.rc));
  }
  pt__bw_done(&s->ev, &s->job, &s->idx[s->nidx++]);
  if (s->lean) pt__bjob_free(&s->job);
  return PT_OK;
}

/* Send the pending events as a block to the file: written before return
 * without threads or with `wait`; otherwise queued. */
static int flush_events(pt_stream *s, int wait) {
  if (!s->ev.count) return wait ? collect(s) : PT_OK;
  pt_writer *w = s->w;
  int rc;
  if (atomic_load_explicit(&w->defs_pending, memory_order_acquire)) {
    pthread_mutex_lock(&w->mu);
    rc = atomic_load(&w->defs_pending) ? flush_defs_locked(w) : PT_OK;
    pthread_mutex_unlock(&w->mu);
    if (rc) return serr(s, rc, "%s", w->err);
  }
  if (s->ldefs.count) {
    rc = pt__bw_flush_shared(&s->ldefs, w->level, NULL, NULL);
    if (rc) return serr(s, rc, "%s: %s", s->ldefs.path, pt_strerror(rc));
  }
  if ((rc = collect(s))) return rc;
  if (PT_GROW(s->idx, s->capidx, s->nidx + 1, 64))
    return serr(s, PT_ENOMEM, "out of memory");
  if (w->pool.n) {
    pt__bw_take(&s->ev, &s->job);
    s->jbusy = 1;
    s->task.run = run_block;
    pt__pool_submit(&w->pool, &s->task);
    return wait ? collect(s) : PT_OK;
  }
  int wrote;
  rc = pt__bw_flush_shared(&s->ev, w->level, &s->idx[s->nidx],
                    &wrote);
  if (rc) {
    s->failed = 1;
    return serr(s, rc, "%s: writing a block: %s", s->ev.path,
                rc == PT_EIO ? strerror(errno) : pt_strerror(rc));
  }
  if (wrote) s->nidx++;
  return PT_OK;
}

/* The general append path (pt_stream_event takes a shortcut for the most
 * common events). */
static int event_slow(pt_stream *s, const pt_event *ev) {
  if (PT_UNLIKELY(ev->time < s->last_time) && s->events)
    return serr(s, PT_EORDER,
                "stream %" PRIu64 ": location %" PRIu64 ": time %" PRIu64
                " is before the previous event's time %" PRIu64,
                s->id, ev->location, ev->time, s->last_time);
  if (PT_UNLIKELY(ev->location != s->cur_loc)) {
    int rc = claim_location(s, ev->location);
    if (rc) return rc;
  }
  size_t bound = pt__event_bound(ev);
  if (PT_UNLIKELY(!bound)) {
    char why[256];
    pt__event_why(ev, why, sizeof why);
    return serr(s, PT_EINVAL, "stream %" PRIu64 ": time %" PRIu64 ": %s",
                s->id, ev->time, why);
  }
  if (PT_UNLIKELY(bound > PT__BLK_MAX_RAW / 2))
    return serr(s, PT_ELIMIT, "stream %" PRIu64 ": event too large", s->id);
  if (PT_UNLIKELY(s->failed))
    return serr(s, PT_EIO, "stream %" PRIu64 ": an earlier write failed",
                s->id);
  pt__bw *bw = &s->ev;
  if (bw->count && bw->raw.len + 2 * bw->count + bound > s->w->block_size) {
    int rc = flush_events(s, 0);
    if (rc) return rc;
  }
  uint8_t *p = pt__bw_begin(bw, ev->time, bound);
  if (PT_UNLIKELY(!p) || PT_UNLIKELY(bw->dts.cap - bw->dts.len < 8 &&
                                     pt__buf_reserve(&bw->dts, 8)))
    return serr(s, PT_ENOMEM, "out of memory");
  uint64_t dt;
  size_t n = pt__event_put(p, ev, &bw->prev_time, &bw->prev_loc, &dt);
  memcpy(bw->dts.p + bw->dts.len, &dt, 8);
  bw->dts.len += 8;
  pt__bw_end(bw, ev->time, n);
  if (!s->events) s->first_time = ev->time;
  s->events++;
  s->last_time = ev->time;
  return PT_OK;
}

/* An event without a value or text, with attributes of integer types
 * only (an MPI call's enter with its arguments, a message), of the
 * stream's current location, into a block that is not empty: encoded
 * straight into the block's free room as pt__event_put would, checking the
 * room as it goes instead of bounding the event first.  Returns 1 when
 * written; 0 to take the general path (a partial write is not kept: the
 * row is committed at the end only). */
static int event_fast(pt_stream *s, const pt_event *ev, uint32_t m) {
  pt__bw *bw = &s->ev;
  size_t used = bw->raw.len + 2 * bw->count;
  if (used >= s->w->block_size) return 0;
  size_t avail = s->w->block_size - used;
  if (avail > bw->raw.cap - bw->raw.len) avail = bw->raw.cap - bw->raw.len;
  if (avail < 1 + 8 * PT_VARINT_MAX) return 0;
  uint8_t *p = bw->raw.p + bw->raw.len, *w = p, *end = p + avail;
  *w++ = (uint8_t)(ev->kind | (ev->nattrs ? PT__EVH_ATTRS : 0));
  if (m & (1u << PT_ESLOT_REF)) w += pt__varint_put(w, ev->ref + 1);
  if (m & (1u << PT_ESLOT_PEER)) w += pt__varint_put(w, pt__zigzag(ev->peer));
  if (m & (1u << PT_ESLOT_COMM)) w += pt__varint_put(w, ev->comm);
  if (m & (1u << PT_ESLOT_TAG)) w += pt__varint_put(w, pt__zigzag(ev->tag));
  if (m & (1u << PT_ESLOT_SIZE)) w += pt__varint_put(w, ev->size);
  if (m & (1u << PT_ESLOT_SIZE2)) w += pt__varint_put(w, ev->size2);
  if (m & (1u << PT_ESLOT_REQUEST)) w += pt__varint_put(w, ev->request);
  if (ev->nattrs) w += pt__varint_put(w, ev->nattrs);
  for (uint32_t i = 0; i < ev->nattrs; i++) {
    const pt_attr *a = &ev->attrs[i];
    if ((size_t)(end - w) < 2 * PT_VARINT_MAX + 1) return 0;
    w += pt__varint_put(w, a->key);
    *w++ = (uint8_t)a->val.type;
    switch (a->val.type) {
      case PT_TYPE_INT: w += pt__varint_put(w, pt__zigzag(a->val.v.i)); break;
      case PT_TYPE_UINT: w += pt__varint_put(w, a->val.v.u); break;
      case PT_TYPE_INTS: {
        uint32_t n = a->val.count;
        if (n && !a->val.v.ints) return 0; /* the general path says why */
        if ((size_t)(end - w) / PT_VARINT_MAX < (size_t)n + 1) return 0;
        w += pt__varint_put(w, n);
        for (uint32_t j = 0; j < n; j++)
          w += pt__varint_put(w, pt__zigzag(a->val.v.ints[j]));
        break;
      }
      default: return 0;
    }
  }
  uint64_t dt = ev->time - bw->prev_time;
  memcpy(bw->dts.p + bw->dts.len, &dt, 8);
  bw->dts.len += 8;
  bw->prev_time = ev->time;
  bw->raw.len += (size_t)(w - p);
  bw->count++;
  bw->last_ts = ev->time;
  s->events++;
  s->last_time = ev->time;
  return 1;
}

static int event_other(pt_stream *s, const pt_event *ev);

/* An enter, leave or other event with only a reference, no attributes, of
 * the stream's current location, into a block that has room: the header
 * byte, the reference and the time delta, nothing else to decide. */
int pt_stream_event(pt_stream *s, const pt_event *ev) {
  pt__bw *bw = &s->ev;
  uint32_t kind = ev->kind;
  if (PT_LIKELY(ev->time >= s->last_time && ev->location == bw->prev_loc &&
                !s->failed &&
                bw->count && !ev->nattrs && kind < 64 &&
                pt__ev_mask[kind] == (1u << PT_ESLOT_REF) &&
                bw->raw.cap - bw->raw.len >= 1 + PT_VARINT_MAX &&
                bw->dts.cap - bw->dts.len >= 8 &&
                bw->raw.len + 2 * bw->count + 1 + 3 * PT_VARINT_MAX <=
                    s->w->block_size)) {
    uint8_t *p = bw->raw.p + bw->raw.len;
    p[0] = (uint8_t)kind;
    size_t n = 1 + pt__varint_put(p + 1, ev->ref + 1); /* PT_NONE -> 0 */
    uint64_t dt = ev->time - bw->prev_time;
    memcpy(bw->dts.p + bw->dts.len, &dt, 8);
    bw->dts.len += 8;
    bw->prev_time = ev->time;
    bw->raw.len += n;
    bw->count++;
    bw->last_ts = ev->time;
    s->events++;
    s->last_time = ev->time;
    return PT_OK;
  }
  return event_other(s, ev);
}

/* pt_stream_event's path for every other event: kept out of line so that
 * the shortcut above saves no registers. */
static __attribute__((noinline)) int event_other(pt_stream *s,
                                                 const pt_event *ev) {
  pt__bw *bw = &s->ev;
  uint32_t kind = ev->kind;
  if (kind < PT_EV__COUNT && kind != PT_EV_INVALID && ev->time >= s->last_time &&
      ev->location == bw->prev_loc && !s->failed && bw->count &&
      !(pt__ev_mask[kind] &
        ((1u << PT_ESLOT_VALUE) | (1u << PT_ESLOT_TEXT))) &&
      (!ev->nattrs || ev->attrs) && bw->dts.cap - bw->dts.len >= 8 &&
      event_fast(s, ev, pt__ev_mask[kind]))
    return PT_OK;
  return event_slow(s, ev);
}

/* A short copy without a call: overlapping words for 4 to 64 bytes. */
static inline void copy_short(uint8_t *d, const uint8_t *b, size_t len) {
  if (len >= 4 && len < 8) { /* a LEAVE: header and a 4-byte region */
    memcpy(d, b, 4);
    memcpy(d + len - 4, b + len - 4, 4);
  } else if (len >= 8 && len <= 16) {
    memcpy(d, b, 8);
    memcpy(d + len - 8, b + len - 8, 8);
  } else if (len > 16 && len <= 32) {
    memcpy(d, b, 16);
    memcpy(d + len - 16, b + len - 16, 16);
  } else if (len > 32 && len <= 64) {
    memcpy(d, b, 32);
    memcpy(d + len - 32, b + len - 32, 32);
  } else {
    memcpy(d, b, len);
  }
}

/* An event already encoded as pt__event_put would, without its time and
 * with the header's location bit clear, appended for location `loc` at
 * `time` into a block that has room (the recorder's MPI calls encode their
 * arguments straight into these bytes).  Returns PT_OK when written; 1 when
 * the caller must take the general path (another location than the
 * block's last event, an empty or full block, time out of order, a failed
 * stream). */
int pt__stream_event_enc(pt_stream *s, uint64_t loc, uint64_t time,
                         const uint8_t *body, size_t len) {
  pt__bw *bw = &s->ev;
  if (PT_LIKELY(time >= s->last_time && loc == bw->prev_loc && !s->failed &&
                bw->count && bw->raw.cap - bw->raw.len >= len &&
                bw->dts.cap - bw->dts.len >= 8 &&
                bw->raw.len + 2 * bw->count + len <= s->w->block_size)) {
    copy_short(bw->raw.p + bw->raw.len, body, len);
    uint64_t dt = time - bw->prev_time;
    memcpy(bw->dts.p + bw->dts.len, &dt, 8);
    bw->dts.len += 8;
    bw->prev_time = time;
    bw->raw.len += len;
    bw->count++;
    bw->last_ts = time;
    s->events++;
    s->last_time = time;
    return PT_OK;
  }
  return 1;
}

int pt__stream_event_enc2(pt_stream *s, uint64_t loc, uint64_t t0,
                          const uint8_t *b0, size_t n0, uint64_t t1,
                          const uint8_t *b1, size_t n1) {
  pt__bw *bw = &s->ev;
  if (PT_LIKELY(t0 >= s->last_time && t1 >= t0 && loc == bw->prev_loc &&
                !s->failed && bw->count && n0 <= SIZE_MAX - n1 &&
                bw->raw.cap - bw->raw.len >= n0 + n1 &&
                bw->dts.cap - bw->dts.len >= 16 &&
                bw->raw.len + 2 * (bw->count + 1) + n0 + n1 <=
                    s->w->block_size)) {
    copy_short(bw->raw.p + bw->raw.len, b0, n0);
    copy_short(bw->raw.p + bw->raw.len + n0, b1, n1);
    uint64_t dt[2] = {t0 - bw->prev_time, t1 - t0};
    memcpy(bw->dts.p + bw->dts.len, dt, 16);
    bw->dts.len += 16;
    bw->prev_time = t1;
    bw->raw.len += n0 + n1;
    bw->count += 2;
    bw->last_ts = t1;
    s->events += 2;
    s->last_time = t1;
    return PT_OK;
  }
  return 1;
}

int pt__stream_event_call(pt_stream *s, uint64_t loc, pt__call_evs *c) {
  pt__bw *bw = &s->ev;
  size_t k = c->k, n0 = c->n0, n1 = c->n1;
  size_t ne = k ? c->off[k] : 0, total = n0 + ne + n1;
  uint64_t t0 = c->t0;
  if (PT_UNLIKELY(t0 < s->last_time || loc != bw->prev_loc || s->failed ||
                  !bw->count || k > 64 || n0 > PT__BLK_MAX_RAW ||
                  n1 > PT__BLK_MAX_RAW || ne > PT__BLK_MAX_RAW ||
                  bw->dts.cap - bw->dts.len < 8 * (k + 2) ||
                  bw->raw.cap - bw->raw.len < total ||
                  bw->raw.len + 2 * (bw->count + k + 2) + total >
                      s->w->block_size))
    return 1;
  uint8_t *w = bw->raw.p + bw->raw.len;
  copy_short(w, c->b0, n0);
  if (ne) copy_short(w + n0, c->eb, ne);
  copy_short(w + n0 + ne, c->b1, n1);
  uint8_t *d = bw->dts.p + bw->dts.len;
  uint64_t dt = t0 - bw->prev_time, prev = t0;
  memcpy(d, &dt, 8);
  for (size_t i = 0; i < k; i++) {
    uint64_t t = c->et[i] < prev ? prev : c->et[i];
    dt = t - prev;
    memcpy(d + 8 * (i + 1), &dt, 8);
    prev = t;
  }
  uint64_t t1 = c->t1 < prev ? prev : c->t1;
  c->t1 = t1;
  dt = t1 - prev;
  memcpy(d + 8 * (k + 1), &dt, 8);
  bw->dts.len += 8 * (k + 2);
  bw->prev_time = t1;
  bw->raw.len += total;
  bw->count += k + 2;
  bw->last_ts = t1;
  s->events += k + 2;
  s->last_time = t1;
  return PT_OK;
}

int pt_stream_flush(pt_stream *s) { return flush_events(s, 1); }

static int aux_lazy_open(pt_stream *s, pt__bw *bw, int *have, uint8_t type,
                         const char *ext) {
  if (*have) return PT_OK;
  char *p = pt__path(s->w->dir, "s%" PRIu64 ".%s", s->id, ext);
  if (!p) return serr(s, PT_ENOMEM, "out of memory");
  int rc = pt__bw_open(bw, p, type, 0);
  if (rc) {
    serr(s, rc, "%s: %s", p, strerror(errno));
    pt__bw_free(bw);
    free(p);
    return rc;
  }
  free(p);
  *have = 1;
  return PT_OK;
}

int pt_stream_summary(pt_stream *s, const pt_summary *sum) {
  if (s->have_sums && sum->time < s->sum_last)
    return serr(s, PT_EORDER, "stream %" PRIu64 ": summary time goes back",
                s->id);
  if (!pt__summary_kind_ok(sum->kind))
    return serr(s, PT_EINVAL, "stream %" PRIu64 ": summary at %" PRIu64
                ": kind %u is not a pt_summary_kind (%d..%d)", s->id,
                sum->time, (unsigned)sum->kind, PT_SUM_REGION,
                PT_SUM_CALL_VISITS);
  /* one of this stream's locations (a reader takes a location's
   * summaries from the stream that holds its events) */
  if (sum->location != s->cur_loc) {
    int rc = claim_location(s, sum->location);
    if (rc) return rc;
  }
  int rc = aux_lazy_open(s, &s->sums, &s->have_sums, PT__BLK_SUMS, "sums");
  if (rc) return rc;
  uint8_t *p = pt__bw_begin(&s->sums, sum->time, PT__SUM_BOUND);
  if (!p) return serr(s, PT_ENOMEM, "out of memory");
  pt__bw_end(&s->sums, sum->time,
             pt__summary_put(p, sum, &s->sums.prev_time));
  s->sum_last = sum->time;
  if (s->sums.raw.len >= s->w->block_size) {
    rc = pt__bw_flush_shared(&s->sums, s->w->level, NULL, NULL);
    if (rc) return serr(s, rc, "%s: %s", s->sums.path, pt_strerror(rc));
  }
  return PT_OK;
}

int pt_stream_snapshot(pt_stream *s, const pt_snapshot *snap) {
  if (s->have_snaps && snap->time < s->snap_last)
    return serr(s, PT_EORDER, "stream %" PRIu64 ": snapshot time goes back",
                s->id);
  if (snap->location != s->cur_loc) {
    int rc = claim_location(s, snap->location);
    if (rc) return rc;
  }
  size_t bound = pt__snapshot_bound(snap);
  if (!bound) {
    char why[256];
    pt__event_why(&snap->event, why, sizeof why);
    return serr(s, PT_EINVAL, "stream %" PRIu64 ": snapshot at %" PRIu64
                ": %s", s->id, snap->time, why);
  }
  if (bound > PT__BLK_MAX_RAW / 2)
    return serr(s, PT_ELIMIT, "stream %" PRIu64 ": snapshot too large", s->id);
  int rc =
      aux_lazy_open(s, &s->snaps, &s->have_snaps, PT__BLK_SNAPS, "snaps");
  if (rc) return rc;
  pt__bw *bw = &s->snaps;
  if (bw->count && bw->raw.len + bound > s->w->block_size &&
      (rc = pt__bw_flush_shared(bw, s->w->level, NULL, NULL)))
    return serr(s, rc, "%s: %s", bw->path, pt_strerror(rc));
  uint8_t *p = pt__bw_begin(bw, snap->time, bound);
  if (!p) return serr(s, PT_ENOMEM, "out of memory");
  pt__bw_end(bw, snap->time, pt__snapshot_put(p, snap, &bw->prev_time));
  s->snap_last = snap->time;
  return PT_OK;
}

/* ---- joined writers (several processes, one archive) -------------------- */

/* part.<id>: one line per stream of a joined writer:
 *   stream ID events N blocks N first T last T raw N locs L,L,...  */
static int write_manifest(pt_writer *w, pt_error *err) {
  pt__buf b = {0};
  char line[256];
  int rc = PT_OK;
  for (size_t i = 0; !rc && i < w->nstreams; i++) {
    pt_stream *s = w->streams[i];
    int n = snprintf(line, sizeof line,
                     "stream %" PRIu64 " events %" PRIu64 " blocks %zu first %"
                     PRIu64 " last %" PRIu64 " raw %" PRIu64 " locs ",
                     s->id, s->events, s->nidx, s->first_time, s->last_time,
                     s->ev.raw_bytes);
    if (pt__buf_put(&b, line, (size_t)n)) rc = PT_ENOMEM;
    for (size_t k = 0; !rc && k < s->nlocs; k++) {
      n = snprintf(line, sizeof line, "%s%" PRIu64, k ? "," : "", s->locs[k]);
      if (pt__buf_put(&b, line, (size_t)n)) rc = PT_ENOMEM;
    }
    if (!rc && pt__buf_put(&b, "\n", 1)) rc = PT_ENOMEM;
  }
  if (rc) {
    pt__buf_free(&b);
    return pt__err(err, rc, "out of memory");
  }
  char *mp = pt__path(w->dir, "part.%" PRIu64, w->part);
  if (!mp) rc = pt__err(err, PT_ENOMEM, "out of memory");
  else if (pt__write_atomic(mp, b.p, b.len) != 0)
    rc = pt__err(err, PT_EIO, "%s: %s", mp, strerror(errno));
  free(mp);
  pt__buf_free(&b);
  return rc;
}

typedef struct parts {
  pt__stream_desc *d;
  size_t n, cap;
  char **files;
  size_t nfiles;
  uint64_t *locs; /* all location lists, one allocation per stream */
  uint64_t **loclists;
} parts;

static void parts_free(parts *p) {
  for (size_t i = 0; i < p->n; i++) free((void *)p->d[i].locs);
  free(p->d);
  for (size_t i = 0; i < p->nfiles; i++) free(p->files[i]);
  free(p->files);
}

static int parse_manifest(parts *p, const char *path, pt_error *err) {
  return pt__manifest_parse(path, &p->d, &p->n, &p->cap, err);
}

static int read_manifests(pt_writer *w, parts *p, pt_error *err) {
  DIR *dir = opendir(w->dir);
  if (!dir) return pt__err(err, PT_EIO, "%s: %s", w->dir, strerror(errno));
  struct dirent *e;
  int rc = PT_OK;
  while (rc == PT_OK && (e = readdir(dir))) {
    const char *n = e->d_name;
    if (strncmp(n, "part.", 5) != 0 || !n[5] ||
        strspn(n + 5, "0123456789") != strlen(n + 5))
      continue;
    char *path = pt__path(w->dir, "%s", n);
    char **nf = path ? realloc(p->files, (p->nfiles + 1) * sizeof *nf) : NULL;
    if (!nf) {
      free(path);
      rc = pt__err(err, PT_ENOMEM, "out of memory");
      break;
    }
    p->files = nf;
    p->files[p->nfiles++] = path;
    rc = parse_manifest(p, path, err);
  }
  closedir(dir);
  return rc;
}

/* ---- close ------------------------------------------------------------- */

static int stream_finish(pt_writer *w, pt_stream *s, pt_error *err) {
  int rc = flush_events(s, 1);
  if (rc) return pt__err(err, rc, "%s", s->err);
  if (s->ldefs.count)
    rc = pt__bw_flush_shared(&s->ldefs, w->level, NULL, NULL);
  if (!rc && s->have_sums)
    rc = pt__bw_flush_shared(&s->sums, w->level, NULL, NULL);
  if (!rc && s->have_snaps)
    rc = pt__bw_flush_shared(&s->snaps, w->level, NULL, NULL);
  if (rc)
    return pt__err(err, rc, "stream %" PRIu64 ": %s", s->id, pt_strerror(rc));
  pt__buf ib = {0};
  char *ip = pt__path(w->dir, "s%" PRIu64 ".index", s->id);
  rc = ip ? pt__index_build(s->idx, s->nidx, s->ev.file_off, &ib) : PT_ENOMEM;
  if (!rc && pt__write_atomic(ip, ib.p, ib.len) != 0)
    rc = pt__err(err, PT_EIO, "%s: %s", ip, strerror(errno));
  else if (rc)
    pt__err(err, rc, "index of stream %" PRIu64 ": %s", s->id,
            pt_strerror(rc));
  free(ip);
  pt__buf_free(&ib);
  return rc;
}

static void writer_free(pt_writer *w) {
  pt__pool_stop(&w->pool);
  for (size_t i = 0; i < w->nstreams; i++) stream_free(w->streams[i]);
  free(w->streams);
  pt__map_free(&w->stream_ids);
  pt__map_free(&w->loc_owner);
  pt__bw_free(&w->defs);
  if (w->zs_ref) pt__zs_unref();
  pthread_mutex_destroy(&w->mu);
  free(w->path);
  free(w->dir);
  free(w->creator);
  free(w);
}

int pt_writer_close(pt_writer *w, pt_error *err) {
  if (!w) return PT_OK;
  int rc = PT_OK;
  pthread_mutex_lock(&w->mu);
  rc = flush_defs_locked(w);
  pthread_mutex_unlock(&w->mu);
  if (rc) pt__err(err, rc, "%s", w->err);
  for (size_t i = 0; !rc && i < w->nstreams; i++)
    rc = stream_finish(w, w->streams[i], err);
  /* definitions written by stream flushes after the first flush above */
  if (!rc && atomic_load(&w->defs_pending)) {
    rc = flush_defs_locked(w);
    if (rc) pt__err(err, rc, "%s", w->err);
  }
  if (w->join) {
    if (!rc) rc = write_manifest(w, err);
    for (size_t i = 0; i < w->nstreams; i++) {
      pt__bw *b = &w->streams[i]->ev;
      if (b->fd >= 0) close(b->fd);
      b->fd = -1;
    }
    writer_free(w);
    return rc;
  }
  pt__stream_desc *sd = NULL;
  parts pj = {0};
  if (!rc) rc = read_manifests(w, &pj, err);
  if (!rc && (w->nstreams + pj.n) &&
      !(sd = calloc(w->nstreams + pj.n, sizeof *sd)))
    rc = pt__err(err, PT_ENOMEM, "out of memory");
  if (!rc) {
    /* the anchor lists streams by id */
    for (size_t i = 0; i < w->nstreams; i++) {
      pt_stream *s = w->streams[i];
      sd[i] = (pt__stream_desc){s->id,         s->locs,      s->nlocs,
                                s->events,     s->nidx,      s->first_time,
                                s->last_time,  s->ev.raw_bytes};
    }
    for (size_t i = 0; i < pj.n; i++) sd[w->nstreams + i] = pj.d[i];
    size_t nsd = w->nstreams + pj.n;
    for (size_t i = 1; i < nsd; i++)
      for (size_t j = i; j > 0 && sd[j - 1].id > sd[j].id; j--) {
        pt__stream_desc t = sd[j];
        sd[j] = sd[j - 1];
        sd[j - 1] = t;
      }
    pt__anchor_info ai = {.creator = w->creator,
                          .closed = 1,
                          .have_clock = w->have_clock,
                          .ticks_per_second = w->clock.i0,
                          .epoch = w->clock.i1,
                          .length = w->clock.i2,
                          .start = w->clock.parent,
                          .streams = sd,
                          .nstreams = nsd};
    for (size_t i = 1; i < nsd && !rc; i++)
      if (sd[i].id == sd[i - 1].id)
        rc = pt__err(err, PT_EINVAL,
                     "%s: stream %" PRIu64 " written by two writers", w->dir,
                     sd[i].id);
    /* close descriptors before the final rename */
    for (size_t i = 0; i < w->nstreams; i++) {
      pt__bw *b = &w->streams[i]->ev;
      if (b->fd >= 0) close(b->fd);
      b->fd = -1;
    }
    if (w->defs.fd >= 0) close(w->defs.fd);
    w->defs.fd = -1;
    if (!rc) rc = pt__anchor_store(w->dir, &ai, err);
    /* The manifests are in the anchor now. */
    for (size_t i = 0; !rc && i < pj.nfiles; i++) unlink(pj.files[i]);
  }
  free(sd);
  parts_free(&pj);
  int keep = 0;
  if (!rc && w->overwrite) {
    size_t n = strlen(w->path) + 64;
    char *old = malloc(n);
    struct stat pst;
    if (!old) {
      rc = pt__err(err, PT_ENOMEM, "out of memory");
    } else if (lstat(w->path, &pst) == 0 && !pt__is_ptf_dir(w->path)) {
      /* appeared while writing: not ours to remove; the new archive
       * stays where it was written */
      rc = pt__err(err, PT_EEXIST, "%s: exists and is not a paratrace "
                   "archive; not replaced: the new archive is %s", w->path,
                   w->dir);
      keep = 1;
    } else {
      snprintf(old, n, "%s.old-w%ld", w->path, (long)getpid());
      pt__rmtree(old);
      int moved = rename(w->path, old) == 0;
      if (!moved && errno != ENOENT) {
        rc = pt__err(err, PT_EIO, "%s: %s", w->path, strerror(errno));
      } else if (rename(w->dir, w->path) != 0) {
        rc = pt__err(err, PT_EIO, "%s -> %s: %s", w->dir, w->path,
                     strerror(errno));
        if (moved) rename(old, w->path);
      } else if (moved) {
        pt__rmtree(old);
      }
      free(old);
    }
  }
  if (rc && !keep) {
    if (w->overwrite && w->dir) pt__rmtree(w->dir);
  }
  writer_free(w);
  return rc;
}

void pt_writer_abort(pt_writer *w) {
  if (!w) return;
  pt__pool_stop(&w->pool); /* no block in flight past this point */
  for (size_t i = 0; i < w->nstreams; i++) {
    pt__bw *b = &w->streams[i]->ev;
    if (b->fd >= 0) close(b->fd);
    b->fd = -1;
  }
  /* A joiner shares the directory: it never removes it. */
  if (w->dir && !w->join) pt__rmtree(w->dir);
  writer_free(w);
}
