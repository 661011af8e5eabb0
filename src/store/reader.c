/* PTF reader: see include/paratrace/reader.h and doc/format.md.
 *
 * Each selected stream has a cursor holding one decoded block and its next
 * matching event; a loser tree over the cursors yields events in global time
 * order.  The event handed out is the tree winner's current event: the root
 * is advanced lazily at the start of the following call, so the strings it
 * points to stay valid until then.  Files are opened through a small LRU
 * file manager bounded by max_open_files. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paratrace/reader.h"
#include "store/archive.h"
#include "core/pool.h"
#include "store/map.h"

#define INDEX_MAX ((size_t)1 << 31)

/* ---- file manager ------------------------------------------------------ */

typedef struct fmfile {
  char *path;
  int fd;
  uint64_t used;
} fmfile;

typedef struct rstream {
  pt_stream_info info;
  uint64_t *locs;
  int locs_known;
  int selected, all_selected;
  pt__ientry *idx;
  size_t nidx;
  int fid; /* events file */
  int sums_fid, snaps_fid;
} rstream;

#define PT__BATCH 128u
/* Prefetching threads serve at most this many selected streams. */
#define PREFETCH_MAX_STREAMS 64

/* The next block of a stream, read by the merging thread and checked and
 * decompressed by a pool thread (pt_reader_opts.threads). */
typedef struct rjob {
  pt__task task;
  size_t blk;           /* which block of the stream */
  pt__blkhdr h;         /* its header, already parsed and matched */
  pt__buf stored, raw;  /* payload as stored; decompressed */
  const uint8_t *rawp;  /* the payload to decode (stored.p or raw.p) */
  int rc;               /* PT_OK, or the merge reloads it itself (and
                           reports what is wrong) */
  int busy;             /* submitted and not yet taken back */
} rjob;

typedef struct cursor {
  rstream *st;
  size_t order; /* position among streams (ids ascending): tie breaker */
  size_t blk;   /* next block to load */
  uint64_t left;
  uint64_t blk_off;
  pt__buf raw;
  pt__dec dec;
  pt__arena scratch;
  /* The batch: events decoded ahead, bi the next to merge, bn how many.
   * The common events (a reference, no attributes) are kept compact:
   * bt/bref/bkind at location bloc.  Any other event is decoded whole
   * into ev and ends its batch (its strings and attributes live in the
   * scratch arena and the block, valid until the next fill); bslow is its
   * index, UINT32_MAX if none. */
  uint32_t bi, bn, bslow;
  int eof;      /* the window's end reached: no more fills */
  int deferred; /* an error met after the batch's events: the next fill's */
  uint64_t bloc;
  pt_event ev;
  uint64_t bt[PT__BATCH], bref[PT__BATCH];
  uint8_t bkind[PT__BATCH];
  rjob pf;
} cursor;

typedef struct mkey {
  uint64_t t, o; /* time, cursor index; o = UINT64_MAX: exhausted */
} mkey;

typedef struct auxstate {
  size_t si; /* index into r->streams */
  uint64_t off, size;
  int open;
  uint64_t left;
  /* pt__reader_aux_range: blocks whose times miss [lo[0], hi[0]] and
   * [lo[1], hi[1]] are skipped unread (the last block of each file is
   * kept with keep_last) */
  int ranged, keep_last;
  uint64_t lo[2], hi[2];
  pt__buf raw;
  pt__dec dec;
  pt__arena scratch;
} auxstate;

struct pt_reader {
  char *path;
  pt__anchor anchor;
  rstream *streams;
  size_t nstreams;
  pt_def *defs;
  size_t ndefs, capdefs;
  pt__arena arena;
  /* selection */
  uint64_t from, to, kinds, from_eff;
  pt__map locset;
  int has_locset;
  /* merge */
  cursor *curs;
  size_t ncurs;
  /* loser tree over the cursors: keys[i] = (time, i) of cursor i's next
   * event or KEY_DONE; tree[0] = winner, tree[1..K-1] = losers. */
  mkey *keys;
  uint32_t *tree, *win;
  size_t K;
  mkey ru; /* runner-up's key: while the winner stays below it, the tree
              does not change; kept only while one stream leads (ru_valid) */
  int ru_valid;
  int pending, positioned, failed;
  /* files */
  fmfile *files;
  size_t nfiles, capfiles;
  int *open_fids;
  size_t nopen, max_open;
  uint64_t tick;
  ZSTD_DCtx *dctx;
  pt__buf cbuf;
  pt__pool pool; /* prefetching threads; pool.n = 0: none */
  auxstate aux[2];
  pt_warn_fn warn;
  void *warn_user;
  char err[1024];
};

static int rerr(pt_reader *r, int rc, const char *fmt, ...) PT_PRINTF(3, 4);
static int rerr(pt_reader *r, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err, sizeof r->err, fmt, ap);
  va_end(ap);
  return rc;
}

static void rwarn(pt_reader *r, const char *fmt, ...) PT_PRINTF(2, 3);
static void rwarn(pt_reader *r, const char *fmt, ...) {
  if (!r->warn) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->warn(r->warn_user, msg);
}

/* Register a path; returns its file id or -1 (OOM).  Takes ownership of
 * path. */
static int fm_add(pt_reader *r, char *path) {
  if (!path) return -1;
  if (PT_GROW(r->files, r->capfiles, r->nfiles + 1, 64)) {
    free(path);
    return -1;
  }
  r->files[r->nfiles] = (fmfile){path, -1, 0};
  return (int)r->nfiles++;
}

static void fm_evict(pt_reader *r) {
  size_t lru = 0;
  for (size_t i = 1; i < r->nopen; i++)
    if (r->files[r->open_fids[i]].used < r->files[r->open_fids[lru]].used)
      lru = i;
  fmfile *f = &r->files[r->open_fids[lru]];
  close(f->fd);
  f->fd = -1;
  r->open_fids[lru] = r->open_fids[--r->nopen];
}

/* Descriptor of file `fid`, opening it (and closing the least recently
 * used one) as needed.  -1 with errno on failure. */
static int fm_fd(pt_reader *r, int fid) {
  fmfile *f = &r->files[fid];
  f->used = ++r->tick;
  if (PT_LIKELY(f->fd >= 0)) return f->fd;
  if (r->nopen >= r->max_open) fm_evict(r);
  for (;;) {
    int fd = open(f->path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      f->fd = fd;
      r->open_fids[r->nopen++] = fid;
      return fd;
    }
    if ((errno == EMFILE || errno == ENFILE) && r->nopen > 0) {
      fm_evict(r);
      continue;
    }
    return -1;
  }
}

/* ---- loading blocks ---------------------------------------------------- */

static void *dctx_new(void) { return ZSTD_createDCtx(); }
static void dctx_free(void *d) { ZSTD_freeDCtx(d); }

static void run_prefetch(pt__task *t, void *dctx) {
  rjob *j = (rjob *)((char *)t - offsetof(rjob, task));
  const char *why = NULL;
  j->rc = pt__blk_payload(&j->h, j->stored.p, dctx, &j->raw, &j->rawp, &why);
}

/* Read block i of c's stream and hand it to the pool.  Anything odd (short
 * read, bad header) is left for load_block to meet and report. */
static void prefetch(pt_reader *r, cursor *c, size_t i) {
  rstream *st = c->st;
  rjob *j = &c->pf;
  if (!r->pool.n || j->busy || i >= st->nidx) return;
  const pt__ientry *e = &st->idx[i];
  if (e->first_ts >= r->to) return;
  int fd = fm_fd(r, st->fid);
  if (fd < 0) return;
  uint8_t hb[PT__BLK_HDR];
  const char *why = NULL;
  if (pt__pread_all(fd, hb, PT__BLK_HDR, e->offset) != PT__BLK_HDR ||
      pt__blkhdr_parse(hb, &j->h, &why) != PT_OK ||
      j->h.type != PT__BLK_EVENTS || j->h.first_ts != e->first_ts ||
      j->h.last_ts != e->last_ts || j->h.count != e->count ||
      j->h.ordinal != e->ordinal)
    return;
  j->stored.len = 0;
  if (pt__buf_reserve(&j->stored, (size_t)j->h.stored + 1) ||
      pt__pread_all(fd, j->stored.p, j->h.stored, e->offset + PT__BLK_HDR) !=
          (long long)j->h.stored)
    return;
  j->blk = i;
  j->busy = 1;
  j->task.run = run_prefetch;
  pt__pool_submit(&r->pool, &j->task);
}

/* Take back c's prefetched block if it is block i and sound: its payload
 * becomes c->raw.  1 if taken. */
static int take_prefetched(pt_reader *r, cursor *c, size_t i) {
  rjob *j = &c->pf;
  if (!j->busy) return 0;
  pt__pool_wait(&r->pool, &j->task);
  j->busy = 0;
  if (j->blk != i || j->rc != PT_OK) return 0;
  pt__buf *b = j->rawp == j->stored.p ? &j->stored : &j->raw;
  pt__buf t = c->raw;
  c->raw = *b;
  *b = t;
  const char *why = NULL;
  if (pt__dec_init_events(&c->dec, c->raw.p, j->h.raw, j->h.first_ts,
                          j->h.count, &c->scratch, &why) != 0)
    return 0;
  c->left = j->h.count;
  c->blk = i + 1;
  c->blk_off = c->st->idx[i].offset;
  return 1;
}

/* Load block i of c's stream.  PT_OK, PT_END (no more blocks, or a damaged
 * last block: warned), or an error. */
static int load_block(pt_reader *r, cursor *c, size_t i) {
  rstream *st = c->st;
  c->left = 0;
  if (i >= st->nidx) return PT_END;
  if (take_prefetched(r, c, i)) {
    prefetch(r, c, i + 1);
    return PT_OK;
  }
  const pt__ientry *e = &st->idx[i];
  const char *path = r->files[st->fid].path;
  int fd = fm_fd(r, st->fid);
  if (fd < 0) return rerr(r, PT_EIO, "%s: %s", path, strerror(errno));
  uint8_t hb[PT__BLK_HDR];
  pt__blkhdr h;
  const char *why = NULL;
  long long got = pt__pread_all(fd, hb, PT__BLK_HDR, e->offset);
  if (got < 0) return rerr(r, PT_EIO, "%s: %s", path, strerror(errno));
  int rc = PT_OK;
  if (got != PT__BLK_HDR) {
    why = "block header cut short";
  } else if (pt__blkhdr_parse(hb, &h, &why) == PT_OK) {
    if (h.type != PT__BLK_EVENTS)
      why = "not an events block";
    else if (h.first_ts != e->first_ts || h.last_ts != e->last_ts ||
             h.count != e->count || h.ordinal != e->ordinal)
      why = "block header does not match the index";
  }
  if (!why) {
    pt__buf *dst = h.codec == PT__CODEC_RAW ? &c->raw : &r->cbuf;
    dst->len = 0;
    if (pt__buf_reserve(dst, (size_t)h.stored + 1))
      return rerr(r, PT_ENOMEM, "out of memory");
    got = pt__pread_all(fd, dst->p, h.stored, e->offset + PT__BLK_HDR);
    if (got < 0) return rerr(r, PT_EIO, "%s: %s", path, strerror(errno));
    const uint8_t *rawp = NULL;
    if (got != (long long)h.stored)
      why = "block payload cut short";
    else if ((rc = pt__blk_payload(&h, dst->p, r->dctx, &c->raw, &rawp,
                                   &why)) == PT_ENOMEM)
      return rerr(r, rc, "out of memory");
    if (!why)
      pt__dec_init_events(&c->dec, rawp, h.raw, h.first_ts, h.count,
                          &c->scratch, &why);
    if (!why) {
      c->left = h.count;
      c->blk = i + 1;
      c->blk_off = e->offset;
      prefetch(r, c, i + 1);
      return PT_OK;
    }
  }
  if (i + 1 == st->nidx) {
    rwarn(r, "%s: damaged last block at offset %" PRIu64 " (%s): stream %" PRIu64
             " ends after %" PRIu64 " events",
          path, e->offset, why, st->info.stream, e->ordinal);
    return PT_END;
  }
  return rerr(r, PT_ECORRUPT, "%s: block at offset %" PRIu64 ": %s", path,
              e->offset, why);
}

static int block_decode_error(pt_reader *r, cursor *c, const char *why) {
  const char *path = r->files[c->st->fid].path;
  c->left = 0;
  if (c->blk == c->st->nidx) {
    rwarn(r, "%s: damaged last block at offset %" PRIu64 " (%s): stream %" PRIu64
             " ends early",
          path, c->blk_off, why, c->st->info.stream);
    return PT_END;
  }
  return rerr(r, PT_ECORRUPT, "%s: block at offset %" PRIu64 ": %s", path,
              c->blk_off, why);
}

/* Apply the reader's filters to the compact entries [a, b) of c's batch;
 * returns the new end.  Times do not decrease, so the window is a prefix
 * cut (from) and a suffix cut (to, which also ends the stream). */
static uint32_t filter_run(pt_reader *r, cursor *c, uint32_t a, uint32_t b) {
  if (PT_UNLIKELY(c->bt[b - 1] >= r->to)) {
    while (b > a && c->bt[b - 1] >= r->to) b--;
    c->eof = 1;
  }
  if (!c->st->all_selected && !pt__map_get(&r->locset, c->bloc, NULL))
    return a;
  uint32_t i = a;
  while (i < b && c->bt[i] < r->from_eff) i++;
  uint32_t o = a;
  if (r->kinds == PT_KINDS_ALL) {
    if (i == a) return b;
    for (; i < b; i++, o++) {
      c->bt[o] = c->bt[i];
      c->bref[o] = c->bref[i];
      c->bkind[o] = c->bkind[i];
    }
    return o;
  }
  for (; i < b; i++)
    if (r->kinds & PT_KIND_BIT(c->bkind[i])) {
      c->bt[o] = c->bt[i];
      c->bref[o] = c->bref[i];
      c->bkind[o] = c->bkind[i];
      o++;
    }
  return o;
}

/* Decode the common events of the current block into c's batch from entry
 * n on, at most lim - n of them; stops at the first other event (or at
 * anything odd: the general decoder then looks at it and names the
 * damage).  The decoder state stays in registers across events.  Returns
 * the new n. */
static inline __attribute__((always_inline)) uint32_t
fast_run_tb(cursor *c, uint32_t n, uint32_t lim, const unsigned tb) {
  pt__dec *d = &c->dec;
  const uint8_t *p = d->p, *end = d->end, *tp = d->tp;
  const uint64_t tc = d->tcount;
  uint64_t t = d->prev_time, ti = d->ti;
  const uint32_t ref_only = 1u << PT_ESLOT_REF;
  /* First the events that cannot reach the end of the rows or of the
   * planes (a common event takes at most 3 bytes here): no bounds checks. */
  uint64_t safe = lim - n;
  if (tc - ti < safe) safe = tc - ti;
  if ((uint64_t)(end - p) / 3 < safe) safe = (uint64_t)(end - p) / 3;
  for (const uint32_t lim1 = n + (uint32_t)safe; n < lim1;) {
    uint32_t h = *p;
    if (PT_UNLIKELY(h & (PT__EVH_LOC | PT__EVH_ATTRS)) ||
        PT_UNLIKELY(pt__ev_mask[h] != ref_only))
      goto out;
    uint64_t dt = tp[ti];
    if (tb > 1) dt |= (uint64_t)tp[ti + tc] << 8;
    if (tb > 2) dt |= (uint64_t)tp[ti + 2 * tc] << 16;
    for (unsigned j = 3; PT_UNLIKELY(j < tb); j++)
      dt |= (uint64_t)tp[ti + j * tc] << (8 * j);
    uint64_t ref;
    const uint8_t *q;
    if (PT_LIKELY(p[1] < 0x80)) {
      ref = p[1];
      q = p + 2;
    } else if (p[2] < 0x80) {
      ref = (uint64_t)(p[1] & 0x7f) | (uint64_t)p[2] << 7;
      q = p + 3;
    } else {
      goto out;
    }
    if (PT_UNLIKELY(dt > UINT64_MAX - t)) goto out;
    p = q;
    t += dt;
    ti++;
    c->bt[n] = t;
    c->bref[n] = ref - 1; /* references are stored + 1 (PT_NONE -> 0) */
    c->bkind[n] = (uint8_t)h;
    n++;
  }
  while (n < lim && p < end && ti < tc) {
    uint32_t h = *p;
    if (PT_UNLIKELY(h & (PT__EVH_LOC | PT__EVH_ATTRS)) ||
        PT_UNLIKELY(pt__ev_mask[h] != ref_only))
      break;
    uint64_t dt = tp[ti];
    if (tb > 1) dt |= (uint64_t)tp[ti + tc] << 8;
    if (tb > 2) dt |= (uint64_t)tp[ti + 2 * tc] << 16;
    for (unsigned j = 3; PT_UNLIKELY(j < tb); j++)
      dt |= (uint64_t)tp[ti + j * tc] << (8 * j);
    const uint8_t *q = p + 1;
    uint64_t ref;
    if (PT_LIKELY(q < end && q[0] < 0x80)) {
      ref = q[0];
      q += 1;
    } else if (q + 1 < end && q[1] < 0x80) {
      ref = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
      q += 2;
    } else {
      break;
    }
    if (PT_UNLIKELY(dt > UINT64_MAX - t)) break;
    t += dt;
    ti++;
    p = q;
    c->bt[n] = t;
    c->bref[n] = ref - 1; /* references are stored + 1 (PT_NONE -> 0) */
    c->bkind[n] = (uint8_t)h;
    n++;
  }
out:
  d->p = p;
  d->prev_time = t;
  d->ti = ti;
  d->scratch_dirty = 0;
  return n;
}

/* fast_run for the common plane widths, each with its width constant. */
static uint32_t fast_run(cursor *c, uint32_t n, uint32_t lim) {
  switch (c->dec.tb) {
    case 1: return fast_run_tb(c, n, lim, 1);
    case 2: return fast_run_tb(c, n, lim, 2);
    case 3: return fast_run_tb(c, n, lim, 3);
    default: return fast_run_tb(c, n, lim, c->dec.tb);
  }
}

/* The checks at a block's last event. */
static int block_end_check(pt_reader *r, cursor *c, uint64_t last_time) {
  if (c->dec.p != c->dec.end)
    return block_decode_error(r, c, "bytes after the last event");
  if (last_time != c->st->idx[c->blk - 1].last_ts)
    return block_decode_error(r, c, "last event time differs from header");
  return PT_OK;
}

/* Refill c's batch with its next events passing the filters.  Returns
 * PT_OK (bn >= 1), PT_END, or an error.  An error met after some events
 * were decoded is kept for the next fill, so every event before the damage
 * is delivered first, as an event-at-a-time reader would. */
static int cur_fill(pt_reader *r, cursor *c) {
  uint32_t n = 0;
  int rc = PT_OK;
  c->bi = c->bn = 0;
  c->bslow = UINT32_MAX;
  if (PT_UNLIKELY(c->deferred)) {
    rc = c->deferred;
    c->deferred = 0;
    return rc;
  }
  while (!c->eof) {
    if (PT_UNLIKELY(c->left == 0)) {
      if (n) break;
      if ((rc = load_block(r, c, c->blk))) break;
    }
    pt__dec *d = &c->dec;
    if (n == 0) c->bloc = d->prev_loc;
    uint32_t a = n;
    uint32_t lim = PT__BATCH - n;
    if (c->left < lim) lim = (uint32_t)c->left;
    lim += n;
    if (PT_LIKELY(d->tb && d->prev_loc != PT_NONE)) n = fast_run(c, n, lim);
    if (n > a) {
      c->left -= n - a;
      if (c->left == 0 && (rc = block_end_check(r, c, c->bt[n - 1]))) {
        n--; /* the last event is suspect: what came before stands */
        if (n > a) n = filter_run(r, c, a, n);
        break;
      }
      n = filter_run(r, c, a, n);
      if (n == PT__BATCH || c->eof) break;
      if (c->left == 0) continue;
    }
    /* any other event, decoded whole */
    const char *why = NULL;
    rc = pt__event_get_slow(d, &c->ev, &why);
    if (PT_UNLIKELY(rc)) {
      rc = rc == PT_ENOMEM ? rerr(r, rc, "out of memory")
                           : block_decode_error(r, c, why);
      break;
    }
    if (--c->left == 0 && (rc = block_end_check(r, c, c->ev.time))) break;
    if (PT_UNLIKELY(c->ev.time >= r->to)) {
      c->eof = 1;
      break;
    }
    if (c->ev.time >= r->from_eff && (r->kinds & PT_KIND_BIT(c->ev.kind)) &&
        (c->st->all_selected ||
         pt__map_get(&r->locset, c->ev.location, NULL))) {
      c->bslow = n;
      c->bt[n++] = c->ev.time;
      break;
    }
    if (n) break; /* the location may have changed: a new batch */
  }
  if (rc == PT_END) {
    c->eof = 1;
    rc = PT_OK;
  }
  if (rc) {
    c->eof = 1;
    if (!n) return rc;
    c->deferred = rc;
  }
  c->bn = n;
  return n ? PT_OK : PT_END;
}

/* ---- loser tree -------------------------------------------------------- */

static const mkey KEY_DONE = {UINT64_MAX, UINT64_MAX};

static inline int key_less(mkey a, mkey b) {
  return a.t < b.t || (a.t == b.t && a.o < b.o);
}

static void tree_build(pt_reader *r) {
  size_t K = r->K;
  uint32_t *win = r->win;
  for (size_t j = 0; j < K; j++) win[K + j] = (uint32_t)j;
  for (size_t i = K - 1; i >= 1; i--) {
    uint32_t a = win[2 * i], b = win[2 * i + 1];
    if (key_less(r->keys[b], r->keys[a])) {
      win[i] = b;
      r->tree[i] = a;
    } else {
      win[i] = a;
      r->tree[i] = b;
    }
  }
  r->tree[0] = K > 1 ? win[1] : 0;
}

/* The best loser on the winner's path is the runner-up. */
static void tree_runner_up(pt_reader *r) {
  uint32_t w = r->tree[0];
  mkey ru = KEY_DONE;
  for (size_t i = (r->K + w) >> 1; i >= 1; i >>= 1)
    if (key_less(r->keys[r->tree[i]], ru)) ru = r->keys[r->tree[i]];
  r->ru = ru;
}

/* The winner's key changed: replay its path. */
static void tree_replay(pt_reader *r) {
  uint32_t w = r->tree[0];
  for (size_t i = (r->K + w) >> 1; i >= 1; i >>= 1) {
    uint32_t l = r->tree[i];
    if (key_less(r->keys[l], r->keys[w])) {
      r->tree[i] = w;
      w = l;
    }
  }
  r->tree[0] = w;
}

/* With few streams a scan for the smallest key beats the loser tree: its
 * comparisons become conditional moves, while the tree's branches go
 * whichever way the streams interleave and are mispredicted about half the
 * time.  Ties go to the lower index, as in the tree; a live key at time
 * UINT64_MAX loses to nothing but is found by the second pass. */
#define LINEAR_MAX 8
/* Kept a loop over the actual K: unrolled for a constant 4, the compiler
 * turned the selects into a branch that goes whichever way the streams
 * interleave, mispredicted about half the time (measured: 15% slower
 * reads with 20% fewer instructions). */
static inline __attribute__((always_inline)) uint32_t
linear_winner(const mkey *keys, size_t K) {
  uint64_t bt = keys[0].t;
  uint32_t bw = 0;
  for (uint32_t k = 1; k < K; k++) {
    uint64_t t = keys[k].t;
    int lt = t < bt;
    bt = lt ? t : bt;
    bw = lt ? k : bw;
  }
  if (PT_UNLIKELY(bt == UINT64_MAX))
    for (uint32_t k = 0; k < K; k++)
      if (keys[k].o != UINT64_MAX) return k;
  return bw;
}

/* Position every selected stream at its first event >= t. */
static int position(pt_reader *r, uint64_t t) {
  r->from_eff = t > r->from ? t : r->from;
  r->pending = 0;
  r->failed = 0;
  for (size_t k = 0; k < r->K; k++) r->keys[k] = KEY_DONE;
  for (size_t k = 0; k < r->ncurs; k++) {
    cursor *c = &r->curs[k];
    rstream *st = c->st;
    /* first block whose last time >= from_eff */
    size_t lo = 0, hi = st->nidx;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (st->idx[mid].last_ts < r->from_eff)
        lo = mid + 1;
      else
        hi = mid;
    }
    c->blk = lo;
    c->left = 0;
    c->eof = 0;
    c->deferred = 0;
    c->bi = c->bn = 0;
    if (lo < st->nidx && st->idx[lo].first_ts >= r->to) continue;
    int rc = cur_fill(r, c);
    if (rc == PT_END) continue;
    if (rc < 0) {
      r->failed = rc;
      return rc;
    }
    r->keys[k] = (mkey){c->bt[0], k};
  }
  tree_build(r);
  r->ru_valid = 0;
  r->positioned = 1;
  return PT_OK;
}

static int next_slow(pt_reader *r);

/* Step past the event (or run) handed out last and find the stream with
 * the earliest next event.  Returns PT_OK with *wout, PT_END or an error. */
static inline __attribute__((always_inline)) int advance(pt_reader *r,
                                                        uint32_t *wout) {
  if (PT_UNLIKELY(r->failed)) return r->failed;
  if (PT_UNLIKELY(!r->positioned)) {
    int rc = position(r, r->from);
    if (rc) return rc;
  }
  uint32_t w = r->tree[0];
  if (PT_LIKELY(r->pending)) {
    cursor *c = &r->curs[w];
    int rc = PT_OK;
    if (PT_UNLIKELY(++c->bi == c->bn)) rc = cur_fill(r, c);
    if (PT_LIKELY(rc == PT_OK)) {
      r->keys[w].t = c->bt[c->bi];
    } else if (rc == PT_END) {
      r->keys[w] = KEY_DONE;
    } else {
      r->failed = rc;
      return rc;
    }
    r->pending = 0;
    if (r->K <= LINEAR_MAX) {
      w = linear_winner(r->keys, r->K);
      r->tree[0] = w;
    } else if (!r->ru_valid || !key_less(r->keys[w], r->ru)) {
      /* One stream leading for a run costs one comparison per event; when
       * streams alternate, a plain replay (log2 K comparisons) is cheaper
       * than keeping the runner-up. */
      uint32_t old = w;
      tree_replay(r);
      w = r->tree[0];
      r->ru_valid = w == old;
      if (r->ru_valid) tree_runner_up(r);
    }
  }
  if (PT_UNLIKELY(r->keys[w].o == UINT64_MAX)) return PT_END;
  *wout = w;
  return PT_OK;
}

int pt_reader_next(pt_reader *r, pt_event *ev) {
  uint32_t w;
  const cursor *c;
  uint32_t i;
  /* The common step: few streams, and the stream of the event handed out
   * last has more events in its batch.  Everything else (a refill, the
   * first event, an error, the loser tree) is advance()'s, kept out of
   * this path so that it needs no saved registers. */
  if (PT_LIKELY(r->pending && !r->failed && r->K <= LINEAR_MAX)) {
    w = r->tree[0];
    cursor *cw = &r->curs[w];
    i = cw->bi + 1;
    if (PT_LIKELY(i < cw->bn)) {
      cw->bi = i;
      r->keys[w].t = cw->bt[i];
      w = linear_winner(r->keys, r->K);
      r->tree[0] = w;
      r->pending = 0;
      if (PT_UNLIKELY(r->keys[w].o == UINT64_MAX)) return PT_END;
      goto emit;
    }
  }
  {
    int rc = next_slow(r);
    if (PT_UNLIKELY(rc)) return rc;
    w = r->tree[0]; /* advance leaves the winner there */
  }
emit:
  c = &r->curs[w];
  i = c->bi;
  if (PT_LIKELY(i != c->bslow)) {
    pt__event_blank(ev, c->bt[i], c->bloc, c->bkind[i], c->bref[i]);
  } else {
    *ev = c->ev;
  }
  r->pending = 1;
  return PT_OK;
}

/* pt_reader_next's path for everything but its common step. */
static __attribute__((noinline)) int next_slow(pt_reader *r) {
  uint32_t w;
  return advance(r, &w);
}

int pt_reader_next_run(pt_reader *r, pt_event_run *run) {
  uint32_t w;
  int rc = advance(r, &w);
  if (PT_UNLIKELY(rc)) return rc;
  cursor *c = &r->curs[w];
  uint32_t i = c->bi;
  if (PT_UNLIKELY(i == c->bslow)) {
    run->location = c->ev.location;
    run->n = 1;
    run->time = &c->ev.time;
    run->ref = &c->ev.ref;
    run->kind = NULL;
    run->event = &c->ev;
  } else {
    /* the whole event, when there is one, ends the batch */
    uint32_t e = c->bslow < c->bn ? c->bslow : c->bn;
    run->location = c->bloc;
    run->n = e - i;
    run->time = c->bt + i;
    run->ref = c->bref + i;
    run->kind = c->bkind + i;
    run->event = NULL;
    c->bi = e - 1;
  }
  r->pending = 1;
  return PT_OK;
}

int pt_reader_seek(pt_reader *r, uint64_t t) { return position(r, t); }

int pt_reader_foreach(pt_reader *r, pt_event_fn fn, void *user) {
  pt_event ev;
  int rc;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) {
    int u = fn(user, &ev);
    if (u) return u;
  }
  return rc == PT_END ? PT_OK : rc;
}

/* ---- open -------------------------------------------------------------- */

typedef struct defload {
  pt_reader *r;
  uint32_t scope;
  int rc;
  const char *why;
  pt__arena scratch;
} defload;

static int on_def_block(void *user, const pt__blkhdr *h, uint64_t off,
                        const uint8_t *raw) {
  (void)off;
  defload *L = user;
  pt_reader *r = L->r;
  pt__dec d;
  pt__dec_init(&d, raw, h->raw, 0, &L->scratch);
  for (uint64_t i = 0; i < h->count; i++) {
    pt_def def;
    int rc = pt__def_get(&d, &def, &L->why);
    if (rc == PT_ENOMEM) L->rc = rc;
    if (rc) return 1;
    def.scope = L->scope;
    if (PT_GROW(r->defs, r->capdefs, r->ndefs + 1, 256) ||
        pt__def_copy(&r->arena, &r->defs[r->ndefs], &def)) {
      L->rc = PT_ENOMEM;
      return 1;
    }
    r->ndefs++;
  }
  if (d.p != d.end) {
    L->why = "bytes after the last definition";
    return 1;
  }
  return 0;
}

/* Load the definitions of file `path` (absent is fine). */
/* The anchor's "files" (a blank-separated list) names `name`. */
static int anchor_lists(const pt_reader *r, const char *name) {
  const char *f = pt__anchor_get(&r->anchor, "files");
  size_t n = strlen(name);
  while (f && *f) {
    while (*f == ' ') f++;
    size_t l = strcspn(f, " ");
    if (l == n && !strncmp(f, name, n)) return 1;
    f += l;
  }
  return 0;
}

static int load_defs(pt_reader *r, const char *path, uint32_t scope) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    /* a stream's own definitions are optional; the archive's are lost
     * when the anchor lists the file ("files = defs ...") */
    if (errno == ENOENT && scope == 0 && anchor_lists(r, "defs"))
      rwarn(r, "%s: missing: the archive's definitions are lost (regions, "
            "locations... read without names)", path);
    if (errno == ENOENT) return PT_OK;
    return rerr(r, PT_EIO, "%s: %s", path, strerror(errno));
  }
  defload L = {.r = r, .scope = scope};
  pt__scan s;
  int rc = pt__scan_blocks(fd, PT__BLK_DEFS, r->dctx, on_def_block, &L, &s);
  close(fd);
  free(s.e);
  pt__arena_free(&L.scratch);
  if (!rc) rc = L.rc;
  if (rc) return rerr(r, rc, "%s: %s", path, pt_strerror(rc));
  if (s.why)
    rwarn(r, "%s: definitions after offset %" PRIu64 " ignored: %s%s%s", path,
          s.bad_off, s.why, L.why ? ": " : "", L.why ? L.why : "");
  return PT_OK;
}

static int cmp_stream(const void *a, const void *b) {
  uint64_t x = ((const rstream *)a)->info.stream,
           y = ((const rstream *)b)->info.stream;
  return x < y ? -1 : x > y;
}

static int add_stream(pt_reader *r, pt__map *seen, uint64_t id,
                      size_t *cap) {
  if (pt__map_get(seen, id, NULL)) return PT_OK;
  if (id >= PT__MAX_STREAMS) return PT_ECORRUPT;
  if (PT_GROW(r->streams, *cap, r->nstreams + 1, 16)) return PT_ENOMEM;
  rstream *st = &r->streams[r->nstreams];
  memset(st, 0, sizeof *st);
  st->info.stream = id;
  st->fid = st->sums_fid = st->snaps_fid = -1;
  if (pt__map_put(seen, id, r->nstreams)) return PT_ENOMEM;
  r->nstreams++;
  return PT_OK;
}

/* The location lists of streams the anchor does not name, from the
 * manifests (part.<id>) of joined writers that closed after the leader:
 * a program that ends without MPI_Finalize (exit, a crash, a launcher's
 * SIGTERM) closes each rank on its own, and rank 0's anchor lists only
 * the parts present then; the leader removes the manifests it merged, so
 * those left are the late ones.  A manifest that cannot be read is said
 * and skipped (its streams stay without a list, as before). */
static int late_manifests(pt_reader *r) {
  int missing = 0;
  for (size_t i = 0; i < r->nstreams; i++) missing |= !r->streams[i].locs_known;
  if (!missing) return PT_OK;
  DIR *d = opendir(r->path);
  if (!d) return rerr(r, PT_EIO, "%s: %s", r->path, strerror(errno));
  int rc = PT_OK;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    const char *nm = e->d_name;
    if (strncmp(nm, "part.", 5) != 0 || !nm[5] ||
        strspn(nm + 5, "0123456789") != strlen(nm + 5))
      continue;
    char *mp = pt__path(r->path, "%s", nm);
    if (!mp) {
      rc = rerr(r, PT_ENOMEM, "out of memory");
      break;
    }
    pt__stream_desc *sd = NULL;
    size_t n = 0, cap = 0;
    pt_error err = {0};
    int mrc = pt__manifest_parse(mp, &sd, &n, &cap, &err);
    if (mrc == PT_ENOMEM) rc = rerr(r, mrc, "out of memory");
    else if (mrc) rwarn(r, "%s", err.msg);
    for (size_t k = 0; !mrc && k < n; k++) {
      for (size_t i = 0; i < r->nstreams; i++) {
        rstream *st = &r->streams[i];
        if (st->info.stream != sd[k].id || st->locs_known) continue;
        free(st->locs);
        st->locs = (uint64_t *)sd[k].locs;
        sd[k].locs = NULL;
        st->info.nlocations = sd[k].nlocs;
        st->locs_known = 1;
      }
    }
    for (size_t k = 0; k < n; k++) free((void *)sd[k].locs);
    free(sd);
    free(mp);
  }
  closedir(d);
  return rc;
}

/* Streams named by the anchor ("stream.<id> = locations") and by the
 * directory (s<id>.events, for archives whose writer died), with the
 * location lists of the latter from late manifests. */
static int find_streams(pt_reader *r) {
  pt__map seen = {0};
  size_t cap = 0;
  int rc = PT_OK;
  for (size_t i = 0; !rc && i < r->anchor.nkv; i++) {
    const char *k = r->anchor.kv[i].key;
    uint64_t id;
    if (strncmp(k, "stream.", 7) != 0 ||
        pt__parse_u64(k + 7, strlen(k + 7), &id) != 0)
      continue;
    if ((rc = add_stream(r, &seen, id, &cap))) break;
    uint64_t ix = 0;
    pt__map_get(&seen, id, &ix);
    rstream *st = &r->streams[ix];
    free(st->locs);
    size_t n;
    rc = pt__parse_u64_list(r->anchor.kv[i].val, &st->locs, &n);
    if (rc) {
      rerr(r, rc, "%s/anchor: bad location list of stream %" PRIu64, r->path,
           id);
      break;
    }
    st->info.nlocations = n;
    st->locs_known = 1;
  }
  if (!rc) {
    DIR *d = opendir(r->path);
    if (!d) {
      rc = rerr(r, PT_EIO, "%s: %s", r->path, strerror(errno));
    } else {
      struct dirent *e;
      while (!rc && (e = readdir(d))) {
        const char *nm = e->d_name;
        size_t len = strlen(nm);
        uint64_t id;
        if (nm[0] != 's' || len < 9 || strcmp(nm + len - 7, ".events") != 0 ||
            pt__parse_u64(nm + 1, len - 8, &id) != 0 || id >= PT__MAX_STREAMS)
          continue;
        rc = add_stream(r, &seen, id, &cap);
      }
      closedir(d);
    }
  }
  if (!rc) rc = late_manifests(r);
  pt__map_free(&seen);
  if (rc == PT_ECORRUPT && !r->err[0])
    rerr(r, rc, "%s/anchor: stream id out of range", r->path);
  else if (rc && !r->err[0])
    rerr(r, rc, "%s: %s", r->path, pt_strerror(rc));
  if (!rc && r->nstreams)
    qsort(r->streams, r->nstreams, sizeof *r->streams, cmp_stream);
  return rc;
}

/* Load or rebuild the index of stream st. */
static int stream_index(pt_reader *r, rstream *st, int closed) {
  uint64_t id = st->info.stream;
  char *ep = pt__path(r->path, "s%" PRIu64 ".events", id);
  char *ip = pt__path(r->path, "s%" PRIu64 ".index", id);
  char *sp = pt__path(r->path, "s%" PRIu64 ".sums", id);
  char *np = pt__path(r->path, "s%" PRIu64 ".snaps", id);
  int rc = PT_OK;
  if (!ep || !ip || !sp || !np) {
    rc = rerr(r, PT_ENOMEM, "out of memory");
    goto out;
  }
  struct stat sb;
  int missing = 0;
  if (stat(ep, &sb) != 0) {
    /* a stream that never wrote a file: empty */
    if (errno != ENOENT) rc = rerr(r, PT_EIO, "%s: %s", ep, strerror(errno));
    sb.st_size = 0;
    missing = 1;
  }
  if (rc) goto out;
  int lost = 0;
  if (missing && closed) {
    /* ... unless the anchor says it had events: lost, said as such (not as
     * an index that does not match) */
    char key[64];
    snprintf(key, sizeof key, "stream.%" PRIu64 ".events", id);
    const char *v = pt__anchor_get(&r->anchor, key);
    uint64_t n = 0;
    if (v && pt__parse_u64(v, strlen(v), &n) == 0 && n) {
      rwarn(r, "%s: missing: the %" PRIu64 " events the anchor lists for "
            "stream %" PRIu64 " are lost", ep, n, id);
      lost = 1;
    }
  }
  uint64_t fsize = (uint64_t)sb.st_size;
  st->info.stored_bytes = fsize;
  st->info.has_summaries = stat(sp, &sb) == 0;
  st->info.has_snapshots = stat(np, &sb) == 0;
  st->fid = fm_add(r, ep);
  ep = NULL;
  st->sums_fid = fm_add(r, sp);
  sp = NULL;
  st->snaps_fid = fm_add(r, np);
  np = NULL;
  if (st->fid < 0 || st->sums_fid < 0 || st->snaps_fid < 0) {
    rc = rerr(r, PT_ENOMEM, "out of memory");
    goto out;
  }
  if (lost) { /* an empty stream */
    st->info.index_rebuilt = 1;
    goto out;
  }
  const char *why = NULL;
  if (closed) {
    char *buf = NULL;
    size_t len = 0;
    int frc = pt__read_file(ip, INDEX_MAX, &buf, &len);
    uint64_t esize = 0;
    if (frc == PT_ENOMEM) {
      rc = rerr(r, frc, "out of memory");
      goto out;
    }
    if (frc) {
      why = frc == PT_ENOTFOUND ? "index missing" : "index unreadable";
    } else {
      frc = pt__index_parse((const uint8_t *)buf, len, &st->idx, &st->nidx,
                            &esize, &why);
      if (frc == PT_ENOMEM) {
        free(buf);
        rc = rerr(r, frc, "out of memory");
        goto out;
      }
      if (!frc && esize != fsize) {
        why = "index does not match the events file size";
        free(st->idx);
        st->idx = NULL;
        st->nidx = 0;
      }
    }
    free(buf);
  } else {
    why = "archive not closed";
  }
  if (why) {
    st->info.index_rebuilt = 1;
    int fd = fsize ? fm_fd(r, st->fid) : -1;
    if (fsize && fd < 0) {
      rc = rerr(r, PT_EIO, "%s: %s", r->files[st->fid].path, strerror(errno));
      goto out;
    }
    pt__scan s;
    if (fd >= 0) {
      rc = pt__scan_blocks(fd, PT__BLK_EVENTS, NULL, NULL, NULL, &s);
      if (rc) {
        free(s.e);
        rerr(r, rc, "%s: %s", r->files[st->fid].path, pt_strerror(rc));
        goto out;
      }
    } else {
      memset(&s, 0, sizeof s);
    }
    st->idx = s.e;
    st->nidx = s.n;
    st->info.raw_bytes = s.raw_bytes;
    rwarn(r, "%s: %s: index rebuilt from %zu block headers", ip, why, s.n);
    if (s.why)
      rwarn(r,
            "%s: damaged tail at offset %" PRIu64 " ignored (%s): %" PRIu64
            " bytes",
            r->files[st->fid].path, s.bad_off, s.why, s.file_size - s.good_end);
  }
  st->info.blocks = st->nidx;
  for (size_t i = 0; i < st->nidx; i++) st->info.events += st->idx[i].count;
  if (st->nidx) {
    st->info.first_time = st->idx[0].first_ts;
    st->info.last_time = st->idx[st->nidx - 1].last_ts;
  }
out:
  free(ep);
  free(ip);
  free(sp);
  free(np);
  return rc;
}

static void apply_selection(pt_reader *r) {
  for (size_t i = 0; i < r->nstreams; i++) {
    rstream *st = &r->streams[i];
    st->info.locations = st->locs;
    if (!r->has_locset) {
      st->selected = st->all_selected = 1;
      continue;
    }
    if (!st->locs_known) {
      st->selected = 1;
      st->all_selected = 0;
      continue;
    }
    size_t hit = 0;
    for (size_t j = 0; j < st->info.nlocations; j++)
      hit += pt__map_get(&r->locset, st->locs[j], NULL);
    st->selected = hit > 0;
    st->all_selected = hit == st->info.nlocations;
  }
}

int pt_reader_open(pt_reader **out, const char *path,
                   const pt_reader_opts *opts, pt_error *err) {
  if (!out) return pt__err(err, PT_EINVAL, "pt_reader_open: out is NULL");
  *out = NULL;
  if (!path) return pt__err(err, PT_EINVAL, "no path");
  if (opts && opts->nlocations && !opts->locations)
    return pt__err(err, PT_EINVAL, "%zu locations selected but locations "
                   "is NULL", opts->nlocations);
  pt_reader_opts o = {0};
  if (opts) o = *opts;
  pt_reader *r = calloc(1, sizeof *r);
  if (!r) return pt__err(err, PT_ENOMEM, "out of memory");
  r->warn = o.warn;
  r->warn_user = o.warn_user;
  r->from = o.from;
  r->to = o.to ? o.to : UINT64_MAX;
  r->kinds = o.kinds ? o.kinds : PT_KINDS_ALL;
  r->max_open = o.max_open_files ? o.max_open_files : pt__default_max_open();
  if (o.threads < 0 || o.threads > 64) {
    pt_reader_close(r);
    return pt__err(err, PT_EINVAL, "%d prefetching threads (0..64)",
                   o.threads);
  }
  size_t plen = strlen(path);
  while (plen > 1 && path[plen - 1] == '/') plen--;
  r->path = strndup(path, plen);
  r->open_fids = malloc(r->max_open * sizeof *r->open_fids);
  r->dctx = ZSTD_createDCtx();
  int rc = PT_OK;
  if (!r->path || !r->open_fids || !r->dctx) {
    rc = rerr(r, PT_ENOMEM, "out of memory");
    goto fail;
  }
  for (size_t i = 0; i < o.nlocations; i++)
    if (pt__map_put(&r->locset, o.locations[i], 1) == PT_ENOMEM) {
      rc = rerr(r, PT_ENOMEM, "out of memory");
      goto fail;
    }
  r->has_locset = o.locations != NULL;
  /* anchor */
  struct stat ds;
  if (stat(r->path, &ds) == 0 && !S_ISDIR(ds.st_mode)) {
    rc = rerr(r, PT_EFORMAT, "%s: not a PTF archive (an archive is a "
              "directory; this is a file)", r->path);
    goto fail;
  }
  char *ap = pt__path(r->path, "anchor");
  char *text = NULL;
  size_t len = 0;
  rc = ap ? pt__read_file(ap, PT__ANCHOR_MAX, &text, &len) : PT_ENOMEM;
  if (rc) {
    struct stat sb;
    char *pp = pt__path(r->path, "profile.0");
    struct stat pb;
    int profile = pp && stat(pp, &pb) == 0;
    free(pp);
    if (rc == PT_ENOTFOUND && stat(r->path, &sb) == 0 && profile) {
      /* PARATRACE_MODE=profile: profiles, no events */
      rc = PT_EFORMAT;
      rerr(r, rc, "%s: holds a run-time profile only (recorded with "
                  "PARATRACE_MODE=profile), no events: read it with "
                  "'paratrace profile %s'", r->path, r->path);
    } else if (rc == PT_ENOTFOUND && stat(r->path, &sb) == 0) {
      /* stream files without their anchor (a writer killed early, or the
       * anchor lost): recover rebuilds it */
      char *s0 = pt__path(r->path, "s0.events");
      struct stat s0b;
      int streams = s0 && stat(s0, &s0b) == 0;
      free(s0);
      rc = PT_EFORMAT;
      if (streams)
        rerr(r, rc, "%s: no anchor, but stream files: 'paratrace recover %s' "
                    "rebuilds it", r->path, r->path);
      else
        rerr(r, rc, "%s: not a PTF archive (no anchor)", r->path);
    } else {
      rerr(r, rc, "%s: %s", ap ? ap : r->path,
           rc == PT_ENOTFOUND ? "no such archive" : pt_strerror(rc));
    }
    free(ap);
    goto fail;
  }
  const char *why = "";
  size_t line = 0;
  rc = pt__anchor_parse(text, len, &r->anchor, &why, &line);
  free(text);
  if (rc) {
    rerr(r, rc, "%s: line %zu: %s", ap, line, rc == PT_ENOMEM ? "out of memory" : why);
    free(ap);
    goto fail;
  }
  const char *ver = pt__anchor_get(&r->anchor, "version");
  int vok = 0;
  for (int v = PT__PTF_VERSION_MIN; v <= PT__PTF_VERSION && ver; v++) {
    char want[16];
    snprintf(want, sizeof want, "%d", v);
    if (strcmp(ver, want) == 0) vok = 1;
  }
  if (!vok) {
    rc = rerr(r, PT_EVERSION,
              "%s: unsupported version '%s' (this reader: %d to %d)", ap,
              ver ? ver : "(none)", PT__PTF_VERSION_MIN, PT__PTF_VERSION);
    free(ap);
    goto fail;
  }
  free(ap);
  const char *state = pt__anchor_get(&r->anchor, "state");
  int closed = state && strcmp(state, "closed") == 0;
  if (!closed)
    rwarn(r, "%s: archive was not closed (writer still running or died); "
             "reading what its block headers describe",
          r->path);
  if ((rc = find_streams(r))) goto fail;
  for (size_t i = 0; i < r->nstreams; i++) {
    rstream *st = &r->streams[i];
    if ((rc = stream_index(r, st, closed))) goto fail;
    if (closed && !st->info.index_rebuilt) {
      char key[64];
      snprintf(key, sizeof key, "stream.%" PRIu64 ".raw_bytes", st->info.stream);
      const char *v = pt__anchor_get(&r->anchor, key);
      uint64_t x;
      if (v && pt__parse_u64(v, strlen(v), &x) == 0) st->info.raw_bytes = x;
    }
  }
  /* definitions: global, then local in stream order */
  char *dp = pt__path(r->path, "defs");
  rc = dp ? load_defs(r, dp, 0) : rerr(r, PT_ENOMEM, "out of memory");
  free(dp);
  if (rc) goto fail;
  for (size_t i = 0; i < r->nstreams; i++) {
    uint64_t id = r->streams[i].info.stream;
    char *lp = pt__path(r->path, "s%" PRIu64 ".defs", id);
    rc = lp ? load_defs(r, lp, (uint32_t)(id + 1))
            : rerr(r, PT_ENOMEM, "out of memory");
    free(lp);
    if (rc) goto fail;
  }
  apply_selection(r);
  size_t nsel = 0;
  for (size_t i = 0; i < r->nstreams; i++) nsel += r->streams[i].selected;
  r->curs = calloc(nsel ? nsel : 1, sizeof *r->curs);
  r->K = 1;
  while (r->K < nsel) r->K *= 2;
  r->keys = calloc(r->K, sizeof *r->keys);
  r->tree = calloc(r->K, sizeof *r->tree);
  r->win = calloc(2 * r->K, sizeof *r->win);
  if (!r->curs || !r->keys || !r->tree || !r->win) {
    rc = rerr(r, PT_ENOMEM, "out of memory");
    goto fail;
  }
  for (size_t i = 0; i < r->nstreams; i++) {
    if (!r->streams[i].selected) continue;
    cursor *c = &r->curs[r->ncurs];
    c->st = &r->streams[i];
    c->order = i;
    r->ncurs++;
  }
  if (o.threads > 0 && r->ncurs > 0 && r->ncurs <= PREFETCH_MAX_STREAMS &&
      pt__pool_start(&r->pool, o.threads, dctx_new, dctx_free) != 0) {
    rc = rerr(r, PT_EIO, "cannot start %d prefetching threads", o.threads);
    goto fail;
  }
  *out = r;
  return PT_OK;
fail:
  pt__err(err, rc, "%s", r->err);
  pt_reader_close(r);
  return rc;
}

/* ---- accessors --------------------------------------------------------- */

size_t pt_reader_ndefs(const pt_reader *r) { return r->ndefs; }
const pt_def *pt_reader_def(const pt_reader *r, size_t i) {
  return i < r->ndefs ? &r->defs[i] : NULL;
}
size_t pt_reader_nstreams(const pt_reader *r) { return r->nstreams; }
const pt_stream_info *pt_reader_stream_info(const pt_reader *r, size_t i) {
  return i < r->nstreams ? &r->streams[i].info : NULL;
}
const char *pt_reader_anchor(const pt_reader *r, const char *key) {
  return pt__anchor_get(&r->anchor, key);
}
const char *pt_reader_errmsg(const pt_reader *r) { return r ? r->err : ""; }

/* ---- summaries and snapshots ------------------------------------------- */

void pt_reader_aux_rewind(pt_reader *r) {
  for (int k = 0; k < 2; k++) {
    auxstate *a = &r->aux[k];
    a->si = 0;
    a->off = a->size = 0;
    a->open = 0;
    a->left = 0;
  }
}

void pt__reader_aux_range(pt_reader *r, const uint64_t lo[2],
                          const uint64_t hi[2], int keep_last) {
  for (int k = 0; k < 2; k++) {
    r->aux[k].ranged = 1;
    for (int j = 0; j < 2; j++) {
      r->aux[k].lo[j] = lo[j];
      r->aux[k].hi[j] = hi[j];
    }
    r->aux[k].keep_last = keep_last;
  }
  pt_reader_aux_rewind(r);
}

static int aux_misses(const auxstate *a, const pt__blkhdr *h) {
  for (int j = 0; j < 2; j++)
    if (h->last_ts >= a->lo[j] && h->first_ts <= a->hi[j]) return 0;
  return 1;
}

static int aux_load(pt_reader *r, auxstate *a, int fid, uint8_t type) {
  const char *path = r->files[fid].path;
  int fd = fm_fd(r, fid);
  if (fd < 0) {
    if (errno == ENOENT) return PT_END; /* removed meanwhile */
    return rerr(r, PT_EIO, "%s: %s", path, strerror(errno));
  }
  if (!a->open) {
    struct stat sb;
    if (fstat(fd, &sb) != 0) return rerr(r, PT_EIO, "%s: %s", path, strerror(errno));
    a->size = (uint64_t)sb.st_size;
    a->off = 0;
    a->open = 1;
  }
again:
  if (a->off >= a->size) return PT_END;
  const char *why = NULL;
  uint8_t hb[PT__BLK_HDR];
  pt__blkhdr h;
  int tail = 0;
  if (a->size - a->off < PT__BLK_HDR) {
    why = "incomplete block header";
    tail = 1;
  } else if (pt__pread_all(fd, hb, PT__BLK_HDR, a->off) != PT__BLK_HDR) {
    return rerr(r, PT_EIO, "%s: read error", path);
  } else if (pt__blkhdr_parse(hb, &h, &why) == PT_OK) {
    if (h.type != type)
      why = "unexpected block type";
    else if (a->size - a->off - PT__BLK_HDR < h.stored) {
      why = "incomplete block payload";
      tail = 1;
    }
  }
  if (!why && a->ranged && aux_misses(a, &h) &&
      !(a->keep_last && a->size - a->off - PT__BLK_HDR == h.stored)) {
    a->off += PT__BLK_HDR + h.stored; /* outside the range: not read */
    goto again;
  }
  if (!why) {
    pt__buf *dst = h.codec == PT__CODEC_RAW ? &a->raw : &r->cbuf;
    dst->len = 0;
    if (pt__buf_reserve(dst, (size_t)h.stored + 1))
      return rerr(r, PT_ENOMEM, "out of memory");
    if (pt__pread_all(fd, dst->p, h.stored, a->off + PT__BLK_HDR) !=
        (long long)h.stored)
      return rerr(r, PT_EIO, "%s: read error", path);
    const uint8_t *rawp;
    int rc = pt__blk_payload(&h, dst->p, r->dctx, &a->raw, &rawp, &why);
    if (rc == PT_ENOMEM) return rerr(r, rc, "out of memory");
    if (!rc) {
      pt__dec_init(&a->dec, rawp, h.raw, h.first_ts, &a->scratch);
      a->dec.prev_time = h.first_ts;
      a->left = h.count;
      a->off += PT__BLK_HDR + h.stored;
      return PT_OK;
    }
  }
  if (tail) {
    rwarn(r, "%s: incomplete block at offset %" PRIu64 " ignored (%s)", path,
          a->off, why);
    a->off = a->size;
    return PT_END;
  }
  return rerr(r, PT_ECORRUPT, "%s: block at offset %" PRIu64 ": %s", path,
              a->off, why);
}

int pt_reader_aux_next(pt_reader *r, uint32_t what, pt_item *item) {
  if (what != PT_ITEM_SUMMARY && what != PT_ITEM_SNAPSHOT)
    return rerr(r, PT_EINVAL, "aux_next: what must be a summary or snapshot");
  int snaps = what == PT_ITEM_SNAPSHOT;
  auxstate *a = &r->aux[snaps];
  uint8_t type = snaps ? PT__BLK_SNAPS : PT__BLK_SUMS;
  for (;;) {
    if (a->si >= r->nstreams) return PT_END;
    rstream *st = &r->streams[a->si];
    int has = snaps ? st->info.has_snapshots : st->info.has_summaries;
    if (!st->selected || !has) {
      a->si++;
      a->open = 0;
      continue;
    }
    if (a->left == 0) {
      int rc = aux_load(r, a, snaps ? st->snaps_fid : st->sums_fid, type);
      if (rc == PT_END) {
        a->si++;
        a->open = 0;
        continue;
      }
      if (rc) return rc;
    }
    const char *why;
    int rc;
    uint64_t loc;
    item->type = what;
    a->dec.scratch_dirty = 0;
    if (snaps) {
      rc = pt__snapshot_get(&a->dec, &item->u.snapshot, &why);
      loc = item->u.snapshot.location;
    } else {
      rc = pt__summary_get(&a->dec, &item->u.summary, &why);
      loc = item->u.summary.location;
    }
    a->left--;
    if (!rc && a->left == 0 && a->dec.p != a->dec.end) {
      rc = PT_ECORRUPT;
      why = "bytes after the last item";
    }
    if (rc)
      return rerr(r, rc, "%s: block before offset %" PRIu64 ": %s",
                  r->files[snaps ? st->snaps_fid : st->sums_fid].path, a->off,
                  rc == PT_ENOMEM ? "out of memory" : why);
    if (r->has_locset && !pt__map_get(&r->locset, loc, NULL)) continue;
    return PT_OK;
  }
}

void pt_reader_close(pt_reader *r) {
  if (!r) return;
  pt__pool_stop(&r->pool); /* no block in flight past this point */
  for (size_t i = 0; i < r->nfiles; i++) {
    if (r->files[i].fd >= 0) close(r->files[i].fd);
    free(r->files[i].path);
  }
  free(r->files);
  free(r->open_fids);
  for (size_t i = 0; i < r->ncurs; i++) {
    pt__buf_free(&r->curs[i].raw);
    pt__buf_free(&r->curs[i].pf.stored);
    pt__buf_free(&r->curs[i].pf.raw);
    pt__arena_free(&r->curs[i].scratch);
  }
  free(r->curs);
  free(r->keys);
  free(r->tree);
  free(r->win);
  for (size_t i = 0; i < r->nstreams; i++) {
    free(r->streams[i].locs);
    free(r->streams[i].idx);
  }
  free(r->streams);
  for (int k = 0; k < 2; k++) {
    pt__buf_free(&r->aux[k].raw);
    pt__arena_free(&r->aux[k].scratch);
  }
  free(r->defs);
  pt__arena_free(&r->arena);
  pt__map_free(&r->locset);
  pt__anchor_free(&r->anchor);
  ZSTD_freeDCtx(r->dctx);
  pt__buf_free(&r->cbuf);
  free(r->path);
  free(r);
}
