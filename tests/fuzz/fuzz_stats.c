/* libFuzzer target for the analyses fed by any source: the statistics
 * engine (pt_stats_*: profile, MPI view, messages with late times, I/O,
 * metrics, collective wait states, relative statistics) and the checker
 * (pt_check_*) and the timeline layout (pt_timeline_*: bars, message
 * lines, aggregation), on the items of a text trace (src/formats/text.c)
 * parsed from the input; and two parts of the statistics (even and odd
 * location ids, pt_stats_opts.part), the odd one through the serialized
 * form, merged and completed.  Definitions and events may contradict each other in
 * every way a hostile trace can (undefined references, events out of
 * order, communicators claiming any number of members, unbalanced
 * regions): the engines must never crash, hang or allocate without bound,
 * and every row they report must be readable.
 *
 * Build with `make fuzz-build`; run: build-fuzz/fuzz/fuzz_stats
 *      -dict=tests/fuzz/text.dict DIR tests/fuzz/corpus/stats
 */
#include <stdio.h>
#include <stdlib.h>

#include "formats/text.h"
#include "paratrace/analysis.h"
#include "paratrace/timeline.h"

#define MAX_ITEMS 4096
#define MAX_LINE ((size_t)1 << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink_; /* rows read, so that reading them stays */

/* Read every row the engine reports. */
static void read_all(pt_stats *s) {
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  uint64_t x = t.app_time;
  for (size_t i = 0; i < pt_stats_nregions(s); i++) x += pt_stats_region(s, i)->incl;
  for (size_t i = 0; i < pt_stats_nregion_locs(s); i++)
    x += pt_stats_region_loc(s, i)->count;
  for (size_t i = 0; i < pt_stats_nlocations(s); i++)
    x += pt_stats_location(s, i)->mpi_time;
  for (size_t i = 0; i < pt_stats_ncallsites(s); i++)
    x += pt_stats_callsite(s, i)->calls;
  for (size_t i = 0; i < pt_stats_nmessages(s); i++)
    x += pt_stats_message(s, i)->late_sender;
  for (size_t i = 0; i < pt_stats_nrelative(s); i++)
    x += pt_stats_relative(s, i)->count;
  for (size_t i = 0; i < pt_stats_nio(s); i++) x += pt_stats_io(s, i)->bytes;
  for (size_t i = 0; i < pt_stats_nwaits(s); i++) x += pt_stats_wait(s, i)->wait;
  for (size_t i = 0; i < pt_stats_nmetrics(s); i++)
    x += pt_stats_metric(s, i)->samples;
  for (size_t i = 0; i < pt_stats_nmetric_regions(s); i++)
    x += pt_stats_metric_region(s, i)->visits;
  pt_stats_resolve_callsites(s);
  sink_ += x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const pt__format *f = &pt__format_text;
  void *src;
  if (pt__text_open_mem(&src, data, size, "fuzz", MAX_LINE, NULL)) return 0;
  pt_stats *st[2] = {NULL, NULL}, *pt[2] = {NULL, NULL};
  pt_stats_opts o[2] = {{0}, {0}};
  o[0].relative_to = PT_NONE;
  /* the parts: even and odd location ids below 64 */
  uint64_t even[32], odd[32];
  for (uint64_t i = 0; i < 32; i++) even[i] = 2 * i, odd[i] = 2 * i + 1;
  pt_stats_opts po = {0};
  po.relative_to = PT_NONE;
  po.part = 1;
  po.nlocations = 32;
  /* the second: a window, relative statistics inside region 1, by tag */
  o[1].from = 100;
  o[1].to = 1000;
  o[1].relative_to = 1;
  o[1].matrix_by = PT_STATS_BY_TAG;
  pt_check *ck = NULL;
  /* a timeline of [0, 5000) that aggregates above 64 items */
  pt_timeline_opts to = {0};
  to.to = 5000;
  to.max_items = 64;
  to.expected_bars = 100;
  to.bins = 50;
  to.util_bins = 20;
  pt_timeline *tl = pt_timeline_new(&to);
  po.locations = even;
  int bad = pt_stats_create(&pt[0], &po);
  po.locations = odd;
  bad |= pt_stats_create(&pt[1], &po);
  if (bad || !tl || pt_stats_create(&st[0], &o[0]) ||
      pt_stats_create(&st[1], &o[1]) || pt_check_create(&ck, NULL)) {
    fprintf(stderr, "fuzz_stats: create failed\n");
    abort();
  }
  int ok[4] = {1, 1, 1, 1}, pok = 1;
  pt_item it;
  size_t n = 0;
  while (n++ < MAX_ITEMS && f->src_next(src, &it) == PT_OK) {
    if (it.type == PT_ITEM_DEF) {
      for (int k = 0; k < 2; k++)
        if (ok[k] && pt_stats_def(st[k], &it.u.def) < 0) ok[k] = 0;
      for (int k = 0; k < 2; k++)
        if (pok && pt_stats_def(pt[k], &it.u.def) < 0) pok = 0;
      if (ok[2] && pt_check_def(ck, &it.u.def) < 0) ok[2] = 0;
      if (ok[3] && pt_timeline_def(tl, &it.u.def) < 0) ok[3] = 0;
    } else if (it.type == PT_ITEM_EVENT) {
      for (int k = 0; k < 2; k++)
        if (ok[k] && pt_stats_event(st[k], &it.u.event) < 0) ok[k] = 0;
      for (int k = 0; k < 2; k++)
        if (pok && pt_stats_event(pt[k], &it.u.event) < 0) pok = 0;
      if (ok[2] && pt_check_event(ck, &it.u.event) < 0) ok[2] = 0;
      if (ok[3] && pt_timeline_event(tl, &it.u.event) < 0) ok[3] = 0;
    }
  }
  f->src_close(src);
  for (int k = 0; k < 2; k++) {
    if (ok[k] && pt_stats_finish(st[k]) == PT_OK) read_all(st[k]);
    pt_stats_destroy(st[k]);
  }
  if (ok[2] && pt_check_finish(ck) == PT_OK)
    for (size_t i = 0; i < pt_check_nreports(ck); i++)
      sink_ += pt_check_report(ck, i)->time;
  pt_check_destroy(ck);
  void *buf = NULL;
  size_t len = 0;
  pt_stats *back = NULL;
  if (pok && pt_stats_finish(pt[0]) == PT_OK &&
      pt_stats_finish(pt[1]) == PT_OK &&
      pt_stats_serialize(pt[1], &buf, &len) == PT_OK &&
      pt_stats_deserialize(&back, buf, len) == PT_OK &&
      pt_stats_merge(pt[0], back) == PT_OK && pt_stats_complete(pt[0]) == PT_OK)
    read_all(pt[0]);
  pt_stats_buffer_free(buf);
  pt_stats_destroy(back);
  pt_stats_destroy(pt[0]);
  pt_stats_destroy(pt[1]);
  if (ok[3] && pt_timeline_finish(tl) == PT_OK) {
    const pt_timeline_bar *b = pt_timeline_bars(tl);
    for (size_t i = 0; i < pt_timeline_nbars(tl); i++) sink_ += b[i].t1;
    const pt_timeline_msg *m = pt_timeline_msgs(tl);
    for (size_t i = 0; i < pt_timeline_nmsgs(tl); i++) sink_ += m[i].bytes;
    for (size_t i = 0; i < pt_timeline_nrows(tl); i++)
      sink_ += pt_timeline_row_location(tl, i);
  }
  pt_timeline_free(tl);
  return 0;
}
