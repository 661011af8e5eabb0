/* paratrace: the timeline view (paratrace timeline) -- layout of a trace
 * window into drawable items (one row per location, region bars, message
 * lines, collective marks, utilisation bins) and the HTML / SVG writers.
 * Pure functions of the items fed in (tests/unit/test_timeline.c).
 *
 *   pt_timeline *tl = pt_timeline_new(&opts);
 *   pt_timeline_def(tl, &def) ...;  pt_timeline_event(tl, &ev) ...;
 *   pt_timeline_finish(tl);
 *   pt_timeline_write_html(tl, f, &page);   or pt_timeline_write_svg(tl, f, &page)
 *   pt_timeline_free(tl);
 *
 * Exact mode draws every region visit, message and collective.  When the
 * window holds more region visits than opts.max_items (known beforehand
 * from a counting pass: opts.expected_bars), each row is drawn as
 * opts.bins pixel-wide bins coloured by the region that covered most of
 * the bin, and one message in `sample` is drawn; the page says so.
 * Collectives are sampled apart (pt_timeline_coll_sample, from
 * opts.expected_colls): every row draws its own k-th, 2k-th ... collective
 * of each communicator, so that the members of a drawn collective are drawn
 * together. */
#ifndef PARATRACE_TIMELINE_H
#define PARATRACE_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pt_timeline_opts {
  uint64_t from, to;        /* window in ticks, to > from */
  uint64_t expected_bars;   /* region visits in the window (counting pass) */
  uint64_t expected_msgs;   /* sends in the window (and one-sided
                               transfers: an RMA_* event's bytes sent
                               and received, one line each) */
  uint64_t max_items;       /* drawn items above which it aggregates */
  uint32_t bins;            /* aggregated bins per row (default 2000) */
  uint32_t util_bins;       /* utilisation bins (default 400) */
  const uint64_t *locations; /* selected locations (NULL: all) */
  size_t nlocations;
  uint64_t expected_colls;  /* collective ends (COLL_END) in the window:
                               above max_items / 4 they are sampled */
} pt_timeline_opts;

typedef struct pt_timeline_bar {
  uint32_t row, depth;
  uint64_t region;
  uint64_t t0, t1;
} pt_timeline_bar;

/* A matched message, send to receive; or a one-sided transfer (an RMA_*
 * event: origin -> target for the bytes it sent, target -> origin for
 * those it received), t_send = t_recv = its time, tag -1. */
typedef struct pt_timeline_msg {
  uint32_t from_row, to_row;
  uint64_t t_send, t_recv, bytes;
  int64_t tag;
} pt_timeline_msg;

typedef struct pt_timeline_coll {
  uint32_t row;
  uint32_t op;
  uint64_t t0, t1, bytes;
} pt_timeline_coll;

typedef struct pt_timeline pt_timeline;

/* A new layout for window [o->from, o->to) (o is copied, the location
 * list too).  NULL on out of memory.  The caller owns it: free with
 * pt_timeline_free (NULL ok). */
PT_API pt_timeline *pt_timeline_new(const pt_timeline_opts *o);
PT_API void pt_timeline_free(pt_timeline *tl);
PT_API int pt_timeline_def(pt_timeline *tl, const pt_def *d);
/* Events in time order per location.  PT_OK or PT_ENOMEM. */
PT_API int pt_timeline_event(pt_timeline *tl, const pt_event *e);
/* Close the regions still open at the window's end.  PT_OK / PT_ENOMEM. */
PT_API int pt_timeline_finish(pt_timeline *tl);

/* The window's end (ticks, exclusive). */
PT_API uint64_t pt_timeline_end(const pt_timeline *tl);

/* Results, after pt_timeline_finish.  Everything returned is owned by tl
 * and valid until pt_timeline_free.  Bars carry region ids, rows are in
 * location order. */
PT_API int pt_timeline_aggregated(const pt_timeline *tl);
PT_API uint64_t pt_timeline_sample(const pt_timeline *tl); /* 1 in N messages drawn */
/* 1 in N collectives drawn, per row */
PT_API uint64_t pt_timeline_coll_sample(const pt_timeline *tl);
PT_API size_t pt_timeline_nrows(const pt_timeline *tl);
PT_API uint64_t pt_timeline_row_location(const pt_timeline *tl, size_t row);
PT_API const char *pt_timeline_row_name(const pt_timeline *tl, size_t row);
PT_API size_t pt_timeline_nbars(const pt_timeline *tl);
PT_API const pt_timeline_bar *pt_timeline_bars(const pt_timeline *tl);
PT_API size_t pt_timeline_nmsgs(const pt_timeline *tl);
PT_API const pt_timeline_msg *pt_timeline_msgs(const pt_timeline *tl);
PT_API size_t pt_timeline_ncolls(const pt_timeline *tl);
PT_API const pt_timeline_coll *pt_timeline_colls(const pt_timeline *tl);
/* Utilisation of row r, bin b: ns in user code and in MPI (rest idle);
 * bin width = (to - from) / util_bins. */
PT_API void pt_timeline_util(const pt_timeline *tl, size_t row, uint32_t bin, uint64_t *user,
                 uint64_t *mpi);
PT_API uint32_t pt_timeline_util_bins(const pt_timeline *tl);
PT_API const char *pt_timeline_region_name(const pt_timeline *tl, uint64_t region);
PT_API int pt_timeline_region_is_mpi(const pt_timeline *tl, uint64_t region);

/* Summary rows the page shows (top regions by exclusive time). */
typedef struct pt_timeline_summary_row {
  const char *name;
  uint64_t count, excl, incl;
} pt_timeline_summary_row;

typedef struct pt_timeline_page {
  const char *title;        /* the trace's path */
  uint64_t ticks_per_second;
  const pt_timeline_summary_row *summary;
  size_t nsummary;
  /* with has_origin, times on the page (axis, window, tooltips) count
   * from `origin` (the trace's start, as --from does), not from the
   * window's start: a window cut at 2 s reads 2.000 s .. 2.050 s; an
   * origin after the window's start is taken as its start */
  uint64_t origin;
  int has_origin;
} pt_timeline_page;

/* Write the self-contained HTML page / the static SVG.  PT_OK or PT_EIO. */
PT_API int pt_timeline_write_html(const pt_timeline *tl, FILE *f, const pt_timeline_page *pg);
PT_API int pt_timeline_write_svg(const pt_timeline *tl, FILE *f, const pt_timeline_page *pg);

#ifdef __cplusplus
}
#endif
#endif
