/* The timeline layout (pt_timeline_*): hand-built traces in, drawn items
 * out -- bars with depth, messages paired send -> receive, collectives,
 * utilisation, aggregation into pixel bins, sampling, windows, and the
 * writers' output shape. */
#include "test.h"

#include "paratrace/paratrace.h"
#include "paratrace/timeline.h"

static void def(pt_timeline *tl, uint32_t kind, uint64_t id, uint64_t parent,
                int64_t i1, const char *name) {
  pt_def d;
  pt_def_init(&d, kind, id);
  d.parent = parent;
  d.i1 = i1;
  d.name = name;
  if (pt_timeline_def(tl, &d) != PT_OK) abort();
}

/* Two ranks (groups 0, 1 with ranks 0, 1; locations 10, 11), regions 1
 * "solve" (user) and 2 "MPI_Send", 3 "MPI_Recv". */
static void setup(pt_timeline *tl) {
  def(tl, PT_DEF_LOCATION_GROUP, 0, PT_NONE, 0, "rank 0");
  def(tl, PT_DEF_LOCATION_GROUP, 1, PT_NONE, 1, "rank 1");
  def(tl, PT_DEF_LOCATION, 11, 1, 0, "r1");
  def(tl, PT_DEF_LOCATION, 10, 0, 0, "r0");
  def(tl, PT_DEF_REGION, 1, 0, PT_PARADIGM_USER, "solve");
  def(tl, PT_DEF_REGION, 2, 0, PT_PARADIGM_MPI, "MPI_Send");
  def(tl, PT_DEF_REGION, 3, 0, 0, "MPI_Recv");
}

static void ev(pt_timeline *tl, uint64_t t, uint64_t loc, uint32_t kind,
               uint64_t ref) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = ref;
  if (pt_timeline_event(tl, &e) != PT_OK) abort();
}
static void msg(pt_timeline *tl, uint64_t t, uint64_t loc, uint32_t kind,
                int64_t peer, int64_t tag, uint64_t bytes) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = PT_NONE;
  e.peer = peer;
  e.tag = tag;
  e.comm = 2;
  e.size = bytes;
  if (pt_timeline_event(tl, &e) != PT_OK) abort();
}

/* rank 0: solve [0,100) with MPI_Send [40,50) sending 8 bytes at 40;
 * rank 1: MPI_Recv [30,60) receiving at 60; both idle after. */
static void feed(pt_timeline *tl) {
  ev(tl, 0, 10, PT_EV_ENTER, 1);
  ev(tl, 40, 10, PT_EV_ENTER, 2);
  msg(tl, 40, 10, PT_EV_SEND, 1, 5, 8);
  ev(tl, 30, 11, PT_EV_ENTER, 3);
  ev(tl, 50, 10, PT_EV_LEAVE, 2);
  msg(tl, 60, 11, PT_EV_RECV, 0, 5, 8);
  ev(tl, 60, 11, PT_EV_LEAVE, 3);
  ev(tl, 100, 10, PT_EV_LEAVE, 1);
}

TEST(exact_layout) {
  pt_timeline_opts o = {.from = 0, .to = 200, .expected_bars = 3,
                        .util_bins = 4};
  pt_timeline *tl = pt_timeline_new(&o);
  ASSERT_TRUE(tl);
  setup(tl);
  feed(tl);
  ASSERT_EQ_I64(pt_timeline_finish(tl), PT_OK);
  ASSERT_EQ_I64(pt_timeline_aggregated(tl), 0);
  ASSERT_EQ_U64(pt_timeline_nrows(tl), 2);
  /* rows in location order, named by their definitions */
  ASSERT_EQ_U64(pt_timeline_row_location(tl, 0), 10);
  ASSERT_EQ_STR(pt_timeline_row_name(tl, 1), "r1");
  ASSERT_EQ_U64(pt_timeline_nbars(tl), 3);
  const pt_timeline_bar *b = pt_timeline_bars(tl);
  int seen = 0;
  for (size_t i = 0; i < 3; i++) {
    if (b[i].region == 2) { /* nested MPI_Send on row 0 */
      ASSERT_EQ_U64(b[i].row, 0);
      ASSERT_EQ_U64(b[i].depth, 1);
      ASSERT_EQ_U64(b[i].t0, 40);
      ASSERT_EQ_U64(b[i].t1, 50);
      seen |= 1;
    } else if (b[i].region == 1) {
      ASSERT_EQ_U64(b[i].depth, 0);
      ASSERT_EQ_U64(b[i].t1, 100);
      seen |= 2;
    } else if (b[i].region == 3) {
      ASSERT_EQ_U64(b[i].row, 1);
      seen |= 4;
    }
  }
  ASSERT_EQ_I64(seen, 7);
  ASSERT_EQ_U64(pt_timeline_nmsgs(tl), 1);
  const pt_timeline_msg *m = pt_timeline_msgs(tl);
  ASSERT_EQ_U64(m->from_row, 0);
  ASSERT_EQ_U64(m->to_row, 1);
  ASSERT_EQ_U64(m->t_send, 40);
  ASSERT_EQ_U64(m->t_recv, 60);
  ASSERT_EQ_U64(m->bytes, 8);
  ASSERT_TRUE(pt_timeline_region_is_mpi(tl, 2));
  ASSERT_TRUE(pt_timeline_region_is_mpi(tl, 3)); /* by its name */
  ASSERT_TRUE(!pt_timeline_region_is_mpi(tl, 1));
  /* utilisation, bins of 50: row 0 bin 0: user 40 + MPI 10; bin 1: user
   * 50; rows idle after 100 */
  uint64_t u, mp;
  pt_timeline_util(tl, 0, 0, &u, &mp);
  ASSERT_EQ_U64(u, 40);
  ASSERT_EQ_U64(mp, 10);
  pt_timeline_util(tl, 0, 1, &u, &mp);
  ASSERT_EQ_U64(u, 50);
  pt_timeline_util(tl, 0, 2, &u, &mp);
  ASSERT_EQ_U64(u + mp, 0);
  pt_timeline_util(tl, 1, 0, &u, &mp);
  ASSERT_EQ_U64(mp, 20); /* MPI_Recv [30,50) */
  pt_timeline_free(tl);
}

TEST(window_clips_and_open_regions) {
  /* window [45, 80): the send (at 40) is before it, so no message; the
   * regions entered before the window start at 45, solve ends at 80 */
  pt_timeline_opts o = {.from = 45, .to = 80, .expected_bars = 3};
  pt_timeline *tl = pt_timeline_new(&o);
  setup(tl);
  feed(tl);
  ASSERT_EQ_I64(pt_timeline_finish(tl), PT_OK);
  ASSERT_EQ_U64(pt_timeline_nmsgs(tl), 0);
  const pt_timeline_bar *b = pt_timeline_bars(tl);
  for (size_t i = 0; i < pt_timeline_nbars(tl); i++) {
    ASSERT_TRUE(b[i].t0 >= 45 && b[i].t1 <= 80 && b[i].t0 <= b[i].t1);
    if (b[i].region == 1) ASSERT_EQ_U64(b[i].t1, 80);
  }
  pt_timeline_free(tl);
}

TEST(locations_selected) {
  uint64_t only = 11;
  pt_timeline_opts o = {.from = 0, .to = 200, .locations = &only,
                        .nlocations = 1};
  pt_timeline *tl = pt_timeline_new(&o);
  setup(tl);
  feed(tl);
  ASSERT_EQ_I64(pt_timeline_finish(tl), PT_OK);
  ASSERT_EQ_U64(pt_timeline_nrows(tl), 1);
  ASSERT_EQ_U64(pt_timeline_row_location(tl, 0), 11);
  ASSERT_EQ_U64(pt_timeline_nbars(tl), 1);
  pt_timeline_free(tl);
}

/* Nothing in the window: no rows, nothing drawn (the rows were sorted
 * from a NULL array, undefined behaviour that UBSan reported from
 * fuzz_stats). */
TEST(no_rows) {
  pt_timeline_opts o = {.from = 0, .to = 200};
  pt_timeline *tl = pt_timeline_new(&o);
  ASSERT_TRUE(tl != NULL);
  ASSERT_EQ_I64(pt_timeline_finish(tl), PT_OK);
  ASSERT_EQ_U64(pt_timeline_nrows(tl), 0);
  ASSERT_EQ_U64(pt_timeline_nbars(tl), 0);
  pt_timeline_free(tl);
}

TEST(aggregation_and_sampling) {
  /* 1000 visits on one row, limit 100: pixel bins, 1 in N messages */
  pt_timeline_opts o = {.from = 0, .to = 10000, .expected_bars = 1000,
                        .expected_msgs = 1000, .max_items = 100, .bins = 10};
  pt_timeline *tl = pt_timeline_new(&o);
  setup(tl);
  for (uint64_t i = 0; i < 1000; i++) {
    uint64_t t = i * 10;
    ev(tl, t, 10, PT_EV_ENTER, i < 500 ? 1 : 2);
    msg(tl, t, 10, PT_EV_SEND, 1, 0, 4);
    ev(tl, t + 9, 10, PT_EV_LEAVE, i < 500 ? 1 : 2);
    msg(tl, t + 9, 11, PT_EV_RECV, 0, 0, 4);
  }
  ASSERT_EQ_I64(pt_timeline_finish(tl), PT_OK);
  ASSERT_TRUE(pt_timeline_aggregated(tl));
  ASSERT_EQ_U64(pt_timeline_nbars(tl), 0);
  ASSERT_TRUE(pt_timeline_sample(tl) > 1);
  ASSERT_TRUE(pt_timeline_nmsgs(tl) <= 100 / 4 + 1);
  ASSERT_TRUE(pt_timeline_nmsgs(tl) >= 1000 / pt_timeline_sample(tl) - 1);
  /* the writer states it */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  pt_timeline_page pg = {.title = "agg", .ticks_per_second = 1000000000};
  ASSERT_EQ_I64(pt_timeline_write_html(tl, f, &pg), PT_OK);
  fclose(f);
  ASSERT_CONTAINS(buf, "\"agg\": true");
  /* first half of the window solve (region 1), second half MPI_Send */
  ASSERT_CONTAINS(buf, "\"bins\": {\"n\": 10, \"rows\": [[1,1,1,1,1,2,2,2,2,2]");
  free(buf);
  pt_timeline_free(tl);
}

TEST(writers_escape_and_shape) {
  pt_timeline_opts o = {.from = 0, .to = 200};
  pt_timeline *tl = pt_timeline_new(&o);
  setup(tl);
  def(tl, PT_DEF_REGION, 4, 0, 0, "<script>\"x\"");
  ev(tl, 0, 10, PT_EV_ENTER, 4);
  ev(tl, 10, 10, PT_EV_LEAVE, 4);
  feed(tl);
  ASSERT_EQ_I64(pt_timeline_finish(tl), PT_OK);
  pt_timeline_summary_row sr = {.name = "a<b", .count = 1, .excl = 5,
                                .incl = 5};
  pt_timeline_page pg = {.title = "t&t", .ticks_per_second = 1000000000,
                         .summary = &sr, .nsummary = 1};
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ASSERT_EQ_I64(pt_timeline_write_html(tl, f, &pg), PT_OK);
  fclose(f);
  ASSERT_TRUE(strstr(buf, "<script>\"x\"") == NULL); /* escaped */
  ASSERT_CONTAINS(buf, "\\u003cscript\\u003e\\\"x\\\"");
  ASSERT_CONTAINS(buf, "<td>a&lt;b</td>");
  ASSERT_CONTAINS(buf, "t&amp;t");
  ASSERT_CONTAINS(buf, "window.PT_DATA");
  ASSERT_TRUE(strstr(buf, "http://") == NULL && strstr(buf, "https://") == NULL);
  free(buf);
  buf = NULL;
  f = open_memstream(&buf, &len);
  ASSERT_EQ_I64(pt_timeline_write_svg(tl, f, &pg), PT_OK);
  fclose(f);
  ASSERT_CONTAINS(buf, "<svg xmlns=");
  ASSERT_CONTAINS(buf, "<line x1="); /* the message */
  ASSERT_CONTAINS(buf, "&lt;script&gt;&quot;x&quot;");
  free(buf);
  pt_timeline_free(tl);
}

int main(void) {
  RUN(exact_layout);
  RUN(window_clips_and_open_regions);
  RUN(locations_selected);
  RUN(no_rows);
  RUN(aggregation_and_sampling);
  RUN(writers_escape_and_shape);
  return test_summary();
}
