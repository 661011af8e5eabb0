/* The native PTF archive as a format of the registry: a source on top of
 * pt_reader and a sink on top of pt_writer.  See src/formats/registry.h.
 *
 * Source order: stream-map entries (one per location of each stream), all
 * definitions, events in global time order (the reader applies the source
 * filters), summaries, snapshots.
 *
 * Sink placement: with opts->streams == 0 a location goes to the stream its
 * PT_ITEM_STREAM entry names, else to a stream numbered by the location's
 * order of first appearance; with streams = M > 0 locations are spread
 * round-robin over M streams in order of first appearance.  Summaries and
 * snapshots are buffered and written per stream in time order at close, so
 * merging streams (or a source that gives them in any order) cannot put
 * them out of order; beyond PTF_AUX_MEM bytes the buffer is sorted into a
 * run file next to the output, and the runs are merged at close (memory
 * stays bounded whatever their number). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "formats/registry.h"
#include "store/archive.h"
#include "store/block.h"
#include "store/map.h"

/* ---- probe ------------------------------------------------------------- */

static int ptf_probe(const char *path, int is_dir, const uint8_t *head,
                     size_t n) {
  (void)head;
  (void)n;
  return is_dir && pt__is_ptf_dir(path) ? 100 : 0;
}

/* ---- source ------------------------------------------------------------ */

typedef struct ptf_src {
  pt_reader *r;
  int phase; /* 0 streams, 1 defs, 2 events, 3 summaries, 4 snapshots */
  size_t si, li, di;
} ptf_src;

static int src_open(void **st, const char *path, const pt_source_opts *o,
                    pt_error *err) {
  *st = NULL;
  ptf_src *s = calloc(1, sizeof *s);
  if (!s) return pt__err(err, PT_ENOMEM, "out of memory");
  pt_reader_opts ro = {0};
  if (o) {
    ro.locations = o->locations;
    ro.nlocations = o->nlocations;
    ro.from = o->from;
    ro.to = o->to;
    ro.kinds = o->kinds;
    ro.max_open_files = o->max_open_files;
    ro.warn = o->warn;
    ro.warn_user = o->warn_user;
    ro.threads = o->threads > 0 ? o->threads : 0;
  }
  if (!o || o->threads == 0)
    ro.threads = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
  int rc = pt_reader_open(&s->r, path, &ro, err);
  if (rc) {
    free(s);
    return rc;
  }
  *st = s;
  return PT_OK;
}

static int src_next(void *st, pt_item *item) {
  ptf_src *s = st;
  int rc;
  switch (s->phase) {
    case 0:
      while (s->si < pt_reader_nstreams(s->r)) {
        const pt_stream_info *si = pt_reader_stream_info(s->r, s->si);
        while (s->li < si->nlocations) {
          /* the generic layer drops entries of unselected locations */
          uint64_t loc = si->locations[s->li++];
          item->type = PT_ITEM_STREAM;
          item->u.stream.stream = si->stream;
          item->u.stream.location = loc;
          return PT_OK;
        }
        s->si++;
        s->li = 0;
      }
      s->phase = 1;
      /* fall through */
    case 1:
      if (s->di < pt_reader_ndefs(s->r)) {
        item->type = PT_ITEM_DEF;
        item->u.def = *pt_reader_def(s->r, s->di++);
        return PT_OK;
      }
      s->phase = 2;
      /* fall through */
    case 2:
      rc = pt_reader_next(s->r, &item->u.event);
      if (rc == PT_OK) {
        item->type = PT_ITEM_EVENT;
        return PT_OK;
      }
      if (rc != PT_END) return rc;
      s->phase = 3;
      pt_reader_aux_rewind(s->r);
      /* fall through */
    case 3:
      rc = pt_reader_aux_next(s->r, PT_ITEM_SUMMARY, item);
      if (rc != PT_END) return rc;
      s->phase = 4;
      /* fall through */
    case 4:
      rc = pt_reader_aux_next(s->r, PT_ITEM_SNAPSHOT, item);
      if (rc != PT_END) return rc;
      s->phase = 5;
      /* fall through */
    default:
      return PT_END;
  }
}

static const char *src_errmsg(void *st) {
  return pt_reader_errmsg(((ptf_src *)st)->r);
}

static void src_close(void *st) {
  ptf_src *s = st;
  if (!s) return;
  pt_reader_close(s->r);
  free(s);
}

static pt_reader *src_reader(void *st) { return ((ptf_src *)st)->r; }

/* ---- sink -------------------------------------------------------------- */

#define PTF_AUX_MEM ((size_t)128 << 20)

typedef struct auxitem {
  uint64_t stream, seq;
  pt_item item;
} auxitem;

typedef struct ptf_sink {
  pt_writer *w;
  uint64_t m;          /* opts->streams */
  pt__map loc_stream;  /* location -> stream id */
  uint64_t nlocs_seen; /* order of first appearance */
  uint64_t nentries;   /* PT_ITEM_STREAM entries written */
  uint64_t last_loc;   /* cache of the last event's location */
  pt_stream *last_s;
  auxitem *aux;         /* buffered summaries and snapshots */
  size_t naux, capaux, aux_bytes;
  uint64_t aux_seq;     /* arrival order, across runs */
  char *path;           /* the output (temporary) path: runs go next to it */
  size_t nruns;         /* run files PATH.auxrun-N written so far */
  size_t aux_mem;       /* buffer bytes before a run is written */
  pt__arena arena;
  pt_warn_fn warn;
  void *warn_user;
  char err[768];
} ptf_sink;

static int sink_open(void **st, const char *path, const pt_sink_opts *o,
                     pt_error *err) {
  *st = NULL;
  ptf_sink *k = calloc(1, sizeof *k);
  if (!k) return pt__err(err, PT_ENOMEM, "out of memory");
  pt_writer_opts wo = {0};
  if (o) {
    wo.block_size = o->block_size;
    wo.level = o->level;
    k->m = o->streams;
    k->warn = o->warn;
    k->warn_user = o->warn_user;
    wo.threads = o->threads > 0 ? o->threads : 0;
  }
  if (!o || o->threads == 0)
    wo.threads = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
  /* the generic layer hands a fresh temporary name and renames it */
  wo.overwrite = 0;
  int rc = pt_writer_open(&k->w, path, &wo, err);
  if (rc) {
    free(k);
    return rc;
  }
  if (!(k->path = strdup(path))) {
    pt_writer_abort(k->w);
    free(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  k->last_loc = PT_NONE;
  /* params "aux_mem=BYTES": the buffer's size (tests make it small) */
  const char *am = o && o->params ? strstr(o->params, "aux_mem=") : NULL;
  k->aux_mem = am ? (size_t)strtoull(am + 8, NULL, 10) : PTF_AUX_MEM;
  *st = k;
  return PT_OK;
}

static int kerr(ptf_sink *k, int rc, const char *fmt, ...) PT_PRINTF(3, 4);
static int kerr(ptf_sink *k, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k->err, sizeof k->err, fmt, ap);
  va_end(ap);
  return rc;
}

/* The stream id of a location, assigning one on first appearance. */
static int place(ptf_sink *k, uint64_t loc, uint64_t *sid) {
  if (pt__map_get(&k->loc_stream, loc, sid)) return PT_OK;
  uint64_t order = k->nlocs_seen++;
  *sid = k->m ? order % k->m : order;
  if (*sid >= PT__MAX_STREAMS)
    return kerr(k, PT_ELIMIT, "location %" PRIu64 ": more than 2^24 streams",
                loc);
  if (pt__map_put(&k->loc_stream, loc, *sid))
    return kerr(k, PT_EINVAL, "location id %" PRIu64 " is reserved", loc);
  return PT_OK;
}

static int stream_of(ptf_sink *k, uint64_t loc, pt_stream **s) {
  uint64_t sid;
  int rc = place(k, loc, &sid);
  if (rc) return rc;
  rc = pt_writer_stream(k->w, sid, s);
  if (rc) return kerr(k, rc, "%s", pt_writer_errmsg(k->w));
  return PT_OK;
}

static uint64_t aux_time(const auxitem *a) {
  return a->item.type == PT_ITEM_SUMMARY ? a->item.u.summary.time
                                         : a->item.u.snapshot.time;
}

static int cmp_aux(const void *pa, const void *pb) {
  const auxitem *a = pa, *b = pb;
  if (a->stream != b->stream) return a->stream < b->stream ? -1 : 1;
  uint64_t ta = aux_time(a), tb = aux_time(b);
  if (ta != tb) return ta < tb ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Run files: records of u64 stream, u64 seq, u32 item type, u32 length,
 * then the item in the archive's own encoding (time absolute). */
static char *run_path(const ptf_sink *k, size_t i) {
  size_t n = strlen(k->path) + 40;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s.auxrun-%zu", k->path, i);
  return p;
}

/* The buffer, sorted, into run file k->nruns; the buffer is emptied. */
static int spill(ptf_sink *k) {
  qsort(k->aux, k->naux, sizeof *k->aux, cmp_aux);
  char *p = run_path(k, k->nruns);
  if (!p) return kerr(k, PT_ENOMEM, "out of memory");
  FILE *f = fopen(p, "wb");
  if (!f) {
    kerr(k, PT_EIO, "%s: %s", p, strerror(errno));
    free(p);
    return PT_EIO;
  }
  k->nruns++;
  pt__buf b = {0};
  int rc = PT_OK;
  for (size_t i = 0; rc == PT_OK && i < k->naux; i++) {
    const pt_item *it = &k->aux[i].item;
    size_t bound = it->type == PT_ITEM_SUMMARY
                       ? PT__SUM_BOUND
                       : pt__snapshot_bound(&it->u.snapshot);
    if (!bound) {
      rc = kerr(k, PT_EINVAL, "invalid snapshot event");
      break;
    }
    b.len = 0;
    if (pt__buf_reserve(&b, 24 + bound)) {
      rc = kerr(k, PT_ENOMEM, "out of memory");
      break;
    }
    uint64_t prev = 0;
    size_t n = it->type == PT_ITEM_SUMMARY
                   ? pt__summary_put(b.p + 24, &it->u.summary, &prev)
                   : pt__snapshot_put(b.p + 24, &it->u.snapshot, &prev);
    pt__put_u64(b.p, k->aux[i].stream);
    pt__put_u64(b.p + 8, k->aux[i].seq);
    pt__put_u64(b.p + 16, (uint64_t)it->type | (uint64_t)n << 32);
    if (fwrite(b.p, 1, 24 + n, f) != 24 + n)
      rc = kerr(k, PT_EIO, "%s: %s", p, strerror(errno));
  }
  if (fclose(f) != 0 && rc == PT_OK)
    rc = kerr(k, PT_EIO, "%s: %s", p, strerror(errno));
  pt__buf_free(&b);
  free(p);
  k->naux = 0;
  k->aux_bytes = 0;
  pt__arena_reset(&k->arena);
  return rc;
}

static int buffer_aux(ptf_sink *k, const pt_item *it, uint64_t loc) {
  uint64_t sid;
  int rc = place(k, loc, &sid);
  if (rc) return rc;
  if (k->aux_bytes > k->aux_mem && (rc = spill(k)) < 0) return rc;
  if (k->naux == k->capaux) {
    size_t nc = k->capaux ? k->capaux * 2 : 256;
    auxitem *na = realloc(k->aux, nc * sizeof *na);
    if (!na) return kerr(k, PT_ENOMEM, "out of memory");
    k->aux = na;
    k->capaux = nc;
  }
  auxitem *a = &k->aux[k->naux];
  a->stream = sid;
  a->seq = k->aux_seq++;
  a->item = *it;
  k->aux_bytes += 2 * sizeof *a; /* and the array's doubling */
  if (it->type == PT_ITEM_SNAPSHOT) {
    const pt_event *e = &it->u.snapshot.event;
    k->aux_bytes += 64 + e->nattrs * (sizeof(pt_attr) + 16) +
                    (e->text ? strlen(e->text) : 0);
    if (pt__event_copy(&k->arena, &a->item.u.snapshot.event, e))
      return kerr(k, PT_ENOMEM, "out of memory");
  }
  k->naux++;
  return PT_OK;
}

static int sink_write(void *st, const pt_item *it) {
  ptf_sink *k = st;
  pt_stream *s;
  int rc;
  switch (it->type) {
    case PT_ITEM_EVENT: {
      const pt_event *ev = &it->u.event;
      if (PT_LIKELY(ev->location == k->last_loc)) {
        s = k->last_s;
      } else {
        if ((rc = stream_of(k, ev->location, &s))) return rc;
        k->last_loc = ev->location;
        k->last_s = s;
      }
      rc = pt_stream_event(s, ev);
      if (rc) return kerr(k, rc, "%s", pt_stream_errmsg(s));
      return PT_OK;
    }
    case PT_ITEM_DEF: {
      const pt_def *d = &it->u.def;
      if (d->scope == 0) {
        rc = pt_writer_def(k->w, d);
        if (rc) return kerr(k, rc, "%s", pt_writer_errmsg(k->w));
        return PT_OK;
      }
      uint64_t sid = (uint64_t)d->scope - 1;
      if (k->m) sid %= k->m;
      rc = pt_writer_stream(k->w, sid, &s);
      if (!rc) rc = pt_stream_def(s, d);
      if (rc) return kerr(k, rc, "local definition of stream %" PRIu64 ": %s",
                          sid, pt_strerror(rc));
      return PT_OK;
    }
    case PT_ITEM_STREAM: {
      uint64_t sid;
      k->nentries++;
      if (pt__map_get(&k->loc_stream, it->u.stream.location, &sid))
        return PT_OK; /* first placement wins */
      if (k->m) return place(k, it->u.stream.location, &sid);
      if (it->u.stream.stream >= PT__MAX_STREAMS)
        return kerr(k, PT_ELIMIT, "stream id %" PRIu64 " above 2^24",
                    it->u.stream.stream);
      k->nlocs_seen++;
      if (pt__map_put(&k->loc_stream, it->u.stream.location,
                      it->u.stream.stream))
        return kerr(k, PT_EINVAL, "location id is reserved");
      return PT_OK;
    }
    case PT_ITEM_SUMMARY:
      return buffer_aux(k, it, it->u.summary.location);
    case PT_ITEM_SNAPSHOT:
      return buffer_aux(k, it, it->u.snapshot.location);
    default:
      return kerr(k, PT_EINVAL, "unknown item type %u", it->type);
  }
}

/* Every location in a stream of its own: locations placed by order of
 * first appearance, not spread over M streams nor placed by a stream map
 * (which may put several in one). */
static int sink_per_location(void *st) {
  const ptf_sink *k = st;
  return k->m == 0 && k->nentries == 0;
}

static void sink_free(ptf_sink *k) {
  for (size_t i = 0; i < k->nruns; i++) { /* the runs are never output */
    char *p = run_path(k, i);
    if (p) unlink(p);
    free(p);
  }
  pt__map_free(&k->loc_stream);
  free(k->aux);
  free(k->path);
  pt__arena_free(&k->arena);
  free(k);
}

static int write_aux(ptf_sink *k, uint64_t sid, const pt_item *it,
                     pt_error *err) {
  pt_stream *s;
  int rc = pt_writer_stream(k->w, sid, &s);
  if (rc) return pt__err(err, rc, "%s", pt_writer_errmsg(k->w));
  rc = it->type == PT_ITEM_SUMMARY ? pt_stream_summary(s, &it->u.summary)
                                   : pt_stream_snapshot(s, &it->u.snapshot);
  if (rc) return pt__err(err, rc, "%s", pt_stream_errmsg(s));
  return PT_OK;
}

/* A run being merged: its current item (decoded into `item`). */
typedef struct runrd {
  FILE *f;
  auxitem cur;
  int live;
  pt__buf raw;
  pt__arena scratch;
} runrd;

static int run_next(ptf_sink *k, runrd *r, size_t i, pt_error *err) {
  uint8_t h[24];
  size_t got = fread(h, 1, 24, r->f);
  if (got == 0 && feof(r->f)) {
    r->live = 0;
    return PT_OK;
  }
  uint64_t tl = pt__get_u64(h + 16);
  uint32_t type = (uint32_t)tl, n = (uint32_t)(tl >> 32);
  r->raw.len = 0;
  if (got != 24 || (type != PT_ITEM_SUMMARY && type != PT_ITEM_SNAPSHOT) ||
      pt__buf_reserve(&r->raw, n ? n : 1) || fread(r->raw.p, 1, n, r->f) != n)
    return pt__err(err, PT_EIO, "%s.auxrun-%zu: cannot read it back",
                   k->path, i);
  r->cur.stream = pt__get_u64(h);
  r->cur.seq = pt__get_u64(h + 8);
  r->cur.item.type = type;
  pt__dec d;
  pt__dec_init(&d, r->raw.p, n, 0, &r->scratch);
  const char *why = NULL;
  int rc = type == PT_ITEM_SUMMARY
               ? pt__summary_get(&d, &r->cur.item.u.summary, &why)
               : pt__snapshot_get(&d, &r->cur.item.u.snapshot, &why);
  if (rc)
    return pt__err(err, rc, "%s.auxrun-%zu: %s", k->path, i,
                   why ? why : pt_strerror(rc));
  r->live = 1;
  return PT_OK;
}

/* Merge the run files (the buffer spilled as the last) into the streams. */
static int merge_runs(ptf_sink *k, pt_error *err) {
  int rc = k->naux ? spill(k) : PT_OK;
  if (rc) return pt__err(err, rc, "%s", k->err);
  runrd *rs = calloc(k->nruns, sizeof *rs);
  if (!rs) return pt__err(err, PT_ENOMEM, "out of memory");
  for (size_t i = 0; rc == PT_OK && i < k->nruns; i++) {
    char *p = run_path(k, i);
    rs[i].f = p ? fopen(p, "rb") : NULL;
    if (!rs[i].f)
      rc = pt__err(err, p ? PT_EIO : PT_ENOMEM, "%s: %s", p ? p : "run",
                   strerror(errno));
    free(p);
    if (rc == PT_OK) rc = run_next(k, &rs[i], i, err);
  }
  while (rc == PT_OK) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < k->nruns; i++)
      if (rs[i].live &&
          (best == SIZE_MAX || cmp_aux(&rs[i].cur, &rs[best].cur) < 0))
        best = i;
    if (best == SIZE_MAX) break;
    rc = write_aux(k, rs[best].cur.stream, &rs[best].cur.item, err);
    if (rc == PT_OK) rc = run_next(k, &rs[best], best, err);
  }
  for (size_t i = 0; i < k->nruns; i++) {
    if (rs[i].f) fclose(rs[i].f);
    pt__buf_free(&rs[i].raw);
    pt__arena_free(&rs[i].scratch);
  }
  free(rs);
  return rc;
}

static int sink_close(void *st, pt_error *err) {
  ptf_sink *k = st;
  int rc = PT_OK;
  if (k->nruns) {
    rc = merge_runs(k, err);
  } else {
    if (k->naux) qsort(k->aux, k->naux, sizeof *k->aux, cmp_aux);
    for (size_t i = 0; !rc && i < k->naux; i++)
      rc = write_aux(k, k->aux[i].stream, &k->aux[i].item, err);
  }
  if (rc) {
    pt_writer_abort(k->w);
  } else {
    rc = pt_writer_close(k->w, err);
  }
  /* locations are dealt to streams one by one: fewer locations than the
   * streams asked for give one stream each */
  if (!rc && k->m > k->nlocs_seen && k->nlocs_seen && k->warn) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "%" PRIu64 " streams asked for, %" PRIu64 " locations: %" PRIu64
             " streams written (one location each)",
             k->m, k->nlocs_seen, k->nlocs_seen);
    k->warn(k->warn_user, msg);
  }
  sink_free(k);
  return rc;
}

static void sink_abort(void *st) {
  ptf_sink *k = st;
  if (!k) return;
  pt_writer_abort(k->w);
  sink_free(k);
}

static const char *sink_errmsg(void *st) { return ((ptf_sink *)st)->err; }

const pt__format pt__format_ptf = {
    .info = {"ptf", "paratrace native archive (PTF directory)", ".ptf", 1, 1},
    .probe = ptf_probe,
    .src_open = src_open,
    .src_next = src_next,
    .src_errmsg = src_errmsg,
    .src_close = src_close,
    .src_reader = src_reader,
    .stdout_ok = 0,
    .sink_open = sink_open,
    .sink_write = sink_write,
    .sink_per_location = sink_per_location,
    .sink_errmsg = sink_errmsg,
    .sink_close = sink_close,
    .sink_abort = sink_abort,
};
