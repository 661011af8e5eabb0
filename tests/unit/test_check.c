/* The consistency checker on hand-built definition and event sequences:
 * each problem kind is detected (and counted exactly once where it should
 * be), and a clean trace reports nothing. */
#include "paratrace/analysis.h"
#include "paratrace/generate.h"
#include "paratrace/paratrace.h"
#include "test.h"

/* A small world: locations 0..3 (ranks 0..3 via groups 100..103), regions
 * 1 "main", 2 "compute", 3 "MPI_Send", communicator 7. */
static pt_check *world_tol(uint64_t tolerance) {
  pt_check *c = NULL;
  pt_check_opts o = {0};
  o.max_reports = 50;
  o.clock_tolerance = tolerance;
  if (pt_check_create(&c, &o) != PT_OK) abort();
  pt_def d;
  for (uint64_t i = 0; i < 4; i++) {
    pt_def_init(&d, PT_DEF_LOCATION_GROUP, 100 + i);
    d.i1 = (int64_t)i;
    d.name = "rank";
    if (pt_check_def(c, &d) != PT_OK) abort();
    pt_def_init(&d, PT_DEF_LOCATION, i);
    d.parent = 100 + i;
    d.name = "thread";
    if (pt_check_def(c, &d) != PT_OK) abort();
  }
  const char *names[] = {"main", "compute", "MPI_Send"};
  for (uint64_t r = 1; r <= 3; r++) {
    pt_def_init(&d, PT_DEF_REGION, r);
    d.name = names[r - 1];
    if (pt_check_def(c, &d) != PT_OK) abort();
  }
  return c;
}
static pt_check *world(void) { return world_tol(0); }

static int ev(pt_check *c, uint32_t kind, uint64_t t, uint64_t loc,
              uint64_t ref) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = ref;
  return pt_check_event(c, &e);
}

static int msg(pt_check *c, uint32_t kind, uint64_t t, uint64_t loc,
               int64_t peer, int64_t tag) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.peer = peer;
  e.tag = tag;
  e.comm = 7;
  e.size = 64;
  if (kind == PT_EV_ISEND || kind == PT_EV_IRECV) e.request = 9;
  return pt_check_event(c, &e);
}

/* Total problems, and that exactly `n` are of `kind`. */
#define ASSERT_ONLY(c, kind, n)                       \
  do {                                                \
    ASSERT_EQ_U64(pt_check_count(c, kind), n);        \
    ASSERT_EQ_U64(pt_check_total(c), n);              \
  } while (0)

TEST(clean_trace) {
  pt_check *c = world();
  /* rank 0 sends twice to rank 1 (tags 5, 5), rank 1 receives; nested
   * regions everywhere; an isend/irecv pair in the other direction. */
  ASSERT_OK(ev(c, PT_EV_ENTER, 10, 0, 1));
  ASSERT_OK(ev(c, PT_EV_ENTER, 11, 1, 1));
  ASSERT_OK(ev(c, PT_EV_ENTER, 12, 0, 3));
  ASSERT_OK(msg(c, PT_EV_SEND, 13, 0, 1, 5));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 14, 0, 3));
  ASSERT_OK(msg(c, PT_EV_SEND, 15, 0, 1, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 16, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 17, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_ISEND, 18, 1, 0, 6));
  ASSERT_OK(msg(c, PT_EV_IRECV, 19, 0, 1, 6));
  ASSERT_OK(ev(c, PT_EV_ENTER, 20, 2, 2));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 20, 2, 2)); /* equal times are fine */
  ASSERT_OK(ev(c, PT_EV_LEAVE, 30, 0, 1));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 31, 1, 1));
  ASSERT_OK(pt_check_finish(c));
  ASSERT_EQ_U64(pt_check_total(c), 0);
  ASSERT_EQ_U64(pt_check_nreports(c), 0);
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.events, 14);
  ASSERT_EQ_U64(st.messages_matched, 3);
  ASSERT_EQ_U64(st.max_depth, 2);
  ASSERT_EQ_U64(st.locations, 3);
  ASSERT_EQ_U64(st.max_pending, 2);
  pt_check_destroy(c);
}

TEST(time_order) {
  pt_check *c = world();
  ASSERT_OK(ev(c, PT_EV_ENTER, 10, 0, 1));
  ASSERT_OK(ev(c, PT_EV_ENTER, 5, 1, 1)); /* other location: fine */
  ASSERT_OK(ev(c, PT_EV_LEAVE, 9, 0, 1)); /* backwards on location 0 */
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  /* location 1 still has "main" open */
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_TIME_ORDER), 1);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNCLOSED_REGION), 1);
  ASSERT_EQ_U64(pt_check_total(c), 2);
  const pt_check_problem *p = pt_check_report(c, 0);
  ASSERT_TRUE(p != NULL);
  ASSERT_EQ_U64(p->kind, PT_CHECK_TIME_ORDER);
  ASSERT_EQ_U64(p->location, 0);
  ASSERT_EQ_U64(p->time, 9);
  ASSERT_EQ_U64(p->time2, 10);
  ASSERT_CONTAINS(p->text, "location 0");
  ASSERT_CONTAINS(p->text, "t=9");
  pt_check_destroy(c);
}

TEST(leave_without_enter) {
  pt_check *c = world();
  ASSERT_OK(ev(c, PT_EV_LEAVE, 10, 2, 2));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_LEAVE_WITHOUT_ENTER, 1);
  ASSERT_CONTAINS(pt_check_report(c, 0)->text, "compute");
  pt_check_destroy(c);
}

TEST(leave_mismatch) {
  pt_check *c = world();
  ASSERT_OK(ev(c, PT_EV_ENTER, 1, 0, 1));
  ASSERT_OK(ev(c, PT_EV_ENTER, 2, 0, 2));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 3, 0, 3)); /* 3 was never entered: ignored */
  ASSERT_OK(ev(c, PT_EV_LEAVE, 4, 0, 2));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 5, 0, 1));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_LEAVE_MISMATCH, 1);
  const pt_check_problem *p = pt_check_report(c, 0);
  ASSERT_EQ_U64(p->ref, 3);
  ASSERT_CONTAINS(p->text, "MPI_Send");
  ASSERT_CONTAINS(p->text, "compute");
  pt_check_destroy(c);
}

TEST(leave_skips_frames) {
  /* enter main, enter compute, leave main: one mismatch, and the stack
   * resynchronises (compute is closed with main, nothing left open). */
  pt_check *c = world();
  ASSERT_OK(ev(c, PT_EV_ENTER, 1, 0, 1));
  ASSERT_OK(ev(c, PT_EV_ENTER, 2, 0, 2));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 3, 0, 1));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_LEAVE_MISMATCH, 1);
  pt_check_destroy(c);
}

TEST(unclosed_region) {
  pt_check *c = world();
  ASSERT_OK(ev(c, PT_EV_ENTER, 1, 3, 1));
  ASSERT_OK(ev(c, PT_EV_ENTER, 2, 3, 2));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 3, 3, 2));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_UNCLOSED_REGION, 1);
  const pt_check_problem *p = pt_check_report(c, 0);
  ASSERT_EQ_U64(p->location, 3);
  ASSERT_EQ_U64(p->ref, 1);
  ASSERT_EQ_U64(p->time2, 1);
  ASSERT_CONTAINS(p->text, "main");
  pt_check_destroy(c);
}

TEST(unmatched_send) {
  pt_check *c = world();
  ASSERT_OK(msg(c, PT_EV_SEND, 1, 0, 1, 5));
  ASSERT_OK(msg(c, PT_EV_SEND, 2, 0, 1, 5));
  ASSERT_OK(msg(c, PT_EV_SEND, 3, 0, 2, 5)); /* to rank 2: never received */
  ASSERT_OK(msg(c, PT_EV_RECV, 4, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 5, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 6, 2, 0, 6)); /* wrong tag */
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNMATCHED_SEND), 1);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNMATCHED_RECV), 1);
  ASSERT_EQ_U64(pt_check_total(c), 2);
  /* reported in the order the messages were seen */
  const pt_check_problem *p = pt_check_report(c, 0);
  ASSERT_EQ_U64(p->kind, PT_CHECK_UNMATCHED_SEND);
  ASSERT_EQ_U64(p->time, 3);
  ASSERT_CONTAINS(p->text, "send to 2");
  ASSERT_CONTAINS(p->text, "tag 5");
  p = pt_check_report(c, 1);
  ASSERT_EQ_U64(p->kind, PT_CHECK_UNMATCHED_RECV);
  ASSERT_EQ_U64(p->location, 2);
  ASSERT_CONTAINS(p->text, "tag 6");
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.messages_matched, 2);
  pt_check_destroy(c);
}

TEST(unmatched_recv_other_comm) {
  pt_check *c = world();
  pt_event e;
  ASSERT_OK(msg(c, PT_EV_SEND, 1, 0, 1, 5));
  pt_event_init(&e, PT_EV_RECV, 2, 1);
  e.peer = 0;
  e.tag = 5;
  e.comm = 8; /* different communicator: no match */
  ASSERT_OK(pt_check_event(c, &e));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNMATCHED_SEND), 1);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNMATCHED_RECV), 1);
  pt_check_destroy(c);
}

/* A receive with tag -1 (MPI_ANY_TAG, no status recorded) matches the
 * oldest pending send of the pair whatever its tag, in either order. */
TEST(any_tag_receive) {
  pt_check *c = world();
  ASSERT_OK(msg(c, PT_EV_SEND, 1, 0, 1, 9));
  ASSERT_OK(msg(c, PT_EV_SEND, 2, 0, 1, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 3, 1, 0, -1)); /* takes the tag-9 send */
  ASSERT_OK(msg(c, PT_EV_RECV, 4, 2, 0, -1)); /* pending, any tag */
  ASSERT_OK(msg(c, PT_EV_SEND, 5, 0, 2, 3));  /* matches it (too late) */
  ASSERT_OK(msg(c, PT_EV_RECV, 6, 1, 0, 5));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_EQ_U64(pt_check_total(c), 1);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_RECV_BEFORE_SEND), 1);
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.messages_matched, 3);
  pt_check_destroy(c);
}

TEST(recv_before_send) {
  pt_check *c = world();
  /* In time order the receive comes first: it completes at 5, the send
   * starts at 8. */
  ASSERT_OK(msg(c, PT_EV_RECV, 5, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_SEND, 8, 0, 1, 5));
  /* Out of global order (only per-location order): still caught. */
  ASSERT_OK(msg(c, PT_EV_SEND, 20, 2, 3, 1));
  ASSERT_OK(msg(c, PT_EV_RECV, 10, 3, 2, 1));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_RECV_BEFORE_SEND, 2);
  const pt_check_problem *p = pt_check_report(c, 0);
  ASSERT_EQ_U64(p->location, 1);
  ASSERT_EQ_U64(p->time, 5);
  ASSERT_EQ_U64(p->time2, 8);
  p = pt_check_report(c, 1);
  ASSERT_EQ_U64(p->location, 3);
  ASSERT_EQ_U64(p->time2, 20);
  pt_check_destroy(c);
}

/* A send counts from the start of its call: an Isend event placed at its
 * call's exit (PICL's layout) after the receive completed is fine when the
 * call had begun before; the same send outside any call, or in a region
 * that is not a message-passing call, is a problem. */
TEST(send_counts_from_its_call) {
  pt_check *c = world();
  ASSERT_OK(ev(c, PT_EV_ENTER, 10, 0, 3));
  ASSERT_OK(msg(c, PT_EV_RECV, 12, 1, 0, 5)); /* after the call began */
  ASSERT_OK(msg(c, PT_EV_ISEND, 14, 0, 1, 5));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 14, 0, 3));
  ASSERT_OK(msg(c, PT_EV_RECV, 16, 1, 0, 6)); /* before the send below */
  ASSERT_OK(msg(c, PT_EV_SEND, 18, 0, 1, 6));
  /* inside a region that is not a message-passing call: its own time */
  ASSERT_OK(ev(c, PT_EV_ENTER, 20, 0, 2));
  ASSERT_OK(msg(c, PT_EV_RECV, 22, 1, 0, 7));
  ASSERT_OK(msg(c, PT_EV_SEND, 24, 0, 1, 7));
  ASSERT_OK(ev(c, PT_EV_LEAVE, 26, 0, 2));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_RECV_BEFORE_SEND, 2);
  ASSERT_EQ_U64(pt_check_report(c, 0)->time, 16);
  ASSERT_EQ_U64(pt_check_report(c, 0)->time2, 18);
  ASSERT_EQ_U64(pt_check_report(c, 1)->time2, 24);
  pt_check_destroy(c);
}

TEST(clock_tolerance) {
  /* Gaps of 3 and 10 ticks with a tolerance of 5: the first is skew
   * (counted, not a problem), the second a problem. */
  pt_check *c = world_tol(5);
  ASSERT_OK(msg(c, PT_EV_SEND, 8, 0, 1, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 5, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_SEND, 30, 2, 3, 1));
  ASSERT_OK(msg(c, PT_EV_RECV, 20, 3, 2, 1));
  ASSERT_OK(msg(c, PT_EV_SEND, 40, 0, 1, 6));
  ASSERT_OK(msg(c, PT_EV_RECV, 45, 1, 0, 6)); /* in order: neither */
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_RECV_BEFORE_SEND, 1);
  ASSERT_EQ_U64(pt_check_report(c, 0)->time, 20);
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.skewed_messages, 1);
  ASSERT_EQ_U64(st.max_skew, 3);
  ASSERT_EQ_U64(st.messages_matched, 3);
  pt_check_destroy(c);
}

TEST(ring_loss_is_not_a_problem) {
  /* Location 1's ring buffer dropped its oldest events (a BUFFER_OVERFLOW
   * with the ring policy first): its first receive kept (t=5) pairs with a
   * later send whose partner was dropped, and its leftover receive has no
   * send: counted as lossy, not problems.  Location 3 without loss: its
   * receive before the send is a problem. */
  pt_check *c = world();
  pt_event ov = {.time = 4, .location = 1, .kind = PT_EV_BUFFER_OVERFLOW,
                 .tag = 2, .size = 17};
  ASSERT_OK(pt_check_event(c, &ov));
  ASSERT_OK(msg(c, PT_EV_RECV, 5, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_SEND, 8, 0, 1, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 9, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_SEND, 20, 2, 3, 1));
  ASSERT_OK(msg(c, PT_EV_RECV, 10, 3, 2, 1));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_RECV_BEFORE_SEND, 1);
  ASSERT_EQ_U64(pt_check_report(c, 0)->location, 3);
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.lossy_messages, 2);
  pt_check_destroy(c);
}

TEST(fifo_matching) {
  /* Two sends on one channel, receives in between: FIFO pairs the first
   * send with the first receive.  The second receive ends (t=6) before the
   * second send (t=7) began. */
  pt_check *c = world();
  ASSERT_OK(msg(c, PT_EV_SEND, 1, 0, 1, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 4, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_RECV, 6, 1, 0, 5));
  ASSERT_OK(msg(c, PT_EV_SEND, 7, 0, 1, 5));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_ONLY(c, PT_CHECK_RECV_BEFORE_SEND, 1);
  ASSERT_EQ_U64(pt_check_report(c, 0)->time, 6);
  pt_check_destroy(c);
}

TEST(undefined_refs) {
  pt_check *c = world();
  ASSERT_OK(ev(c, PT_EV_ENTER, 1, 0, 42)); /* region 42 undefined */
  ASSERT_OK(ev(c, PT_EV_LEAVE, 2, 0, 42));
  ASSERT_OK(ev(c, PT_EV_MARK, 3, 9, 0));   /* location 9 undefined */
  ASSERT_OK(ev(c, PT_EV_MARK, 4, 9, 0));
  ASSERT_OK(ev(c, PT_EV_MARK, 5, 9, 0));
  ASSERT_OK(ev(c, PT_EV_ENTER, 6, 1, 43)); /* 43 defined later: fine */
  ASSERT_OK(ev(c, PT_EV_LEAVE, 7, 1, 43));
  pt_def d;
  pt_def_init(&d, PT_DEF_REGION, 43);
  d.name = "late";
  ASSERT_OK(pt_check_def(c, &d));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNDEFINED_REGION), 1);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNDEFINED_LOCATION), 1);
  ASSERT_EQ_U64(pt_check_total(c), 2);
  for (size_t i = 0; i < pt_check_nreports(c); i++) {
    const pt_check_problem *p = pt_check_report(c, i);
    if (p->kind == PT_CHECK_UNDEFINED_REGION) {
      ASSERT_EQ_U64(p->ref, 42);
      ASSERT_EQ_U64(p->count, 2);
    } else {
      ASSERT_EQ_U64(p->ref, 9);
      ASSERT_EQ_U64(p->count, 3);
      ASSERT_CONTAINS(p->text, "location 9 is not defined");
    }
  }
  pt_check_destroy(c);
}

TEST(ranks_from_groups) {
  /* Locations 10 and 11 are ranks 0 and 1: peers name ranks. */
  pt_check *c = NULL;
  ASSERT_OK(pt_check_create(&c, NULL));
  pt_def d;
  for (uint64_t i = 0; i < 2; i++) {
    pt_def_init(&d, PT_DEF_LOCATION_GROUP, 50 + i);
    d.i1 = (int64_t)i;
    ASSERT_OK(pt_check_def(c, &d));
    pt_def_init(&d, PT_DEF_LOCATION, 10 + i);
    d.parent = 50 + i;
    ASSERT_OK(pt_check_def(c, &d));
  }
  ASSERT_OK(msg(c, PT_EV_SEND, 1, 10, 1, 0));
  ASSERT_OK(msg(c, PT_EV_RECV, 2, 11, 0, 0));
  ASSERT_OK(pt_check_finish(c));
  pt_check_destroy(c);
}

TEST(cap_and_callback) {
  /* 30 unmatched sends: details of 10 kept, all 30 counted. */
  pt_check *c = NULL;
  pt_check_opts o = {0};
  o.max_reports = 10;
  ASSERT_OK(pt_check_create(&c, &o));
  pt_def d;
  pt_def_init(&d, PT_DEF_LOCATION, 0);
  ASSERT_OK(pt_check_def(c, &d));
  for (uint64_t t = 0; t < 30; t++)
    ASSERT_OK(msg(c, PT_EV_SEND, t, 0, 1, (int64_t)t));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_EQ_U64(pt_check_total(c), 30);
  ASSERT_EQ_U64(pt_check_nreports(c), 10);
  ASSERT_TRUE(pt_check_report(c, 10) == NULL);
  ASSERT_STATUS(pt_check_event(c, &(pt_event){0}), PT_ESTATE);
  pt_check_destroy(c);
}

static void count_cb(void *user, const pt_check_problem *p) {
  (*(uint64_t *)user)++;
  if (!p->text || !*p->text) abort();
}

TEST(callback_sees_all) {
  pt_check *c = NULL;
  uint64_t seen = 0;
  pt_check_opts o = {0};
  o.max_reports = 3;
  o.on_problem = count_cb;
  o.user = &seen;
  ASSERT_OK(pt_check_create(&c, &o));
  for (uint64_t t = 0; t < 20; t++)
    ASSERT_OK(ev(c, PT_EV_LEAVE, t, 0, 1));
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  /* 20 leaves without enter + location 0 and region 1 undefined */
  ASSERT_EQ_U64(seen, 22);
  ASSERT_EQ_U64(pt_check_total(c), 22);
  ASSERT_EQ_U64(pt_check_nreports(c), 3);
  pt_check_destroy(c);
}

TEST(memory_bounded_by_open_state) {
  /* A million matched messages and balanced regions leave no state. */
  pt_check *c = world();
  for (uint64_t t = 0; t < 200000; t++) {
    ASSERT_OK(ev(c, PT_EV_ENTER, 4 * t, 0, 3));
    ASSERT_OK(msg(c, PT_EV_SEND, 4 * t + 1, 0, 1, (int64_t)(t % 1000)));
    ASSERT_OK(ev(c, PT_EV_LEAVE, 4 * t + 2, 0, 3));
    ASSERT_OK(msg(c, PT_EV_RECV, 4 * t + 3, 1, 0, (int64_t)(t % 1000)));
  }
  ASSERT_OK(pt_check_finish(c));
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.messages_matched, 200000);
  ASSERT_EQ_U64(st.max_pending, 1);
  ASSERT_EQ_U64(st.max_depth, 1);
  pt_check_destroy(c);
}

/* Feed a generated trace, location after location (only per-location
 * order: matching must not depend on global order).  `drop` = index of a
 * receive to leave out (counting all receives), or -1. */
static pt_check *run_generated(int64_t drop, uint64_t *recvs) {
  pt_gen *g = NULL;
  pt_gen_opts o = {0};
  o.locations = 5;
  o.events = 5000;
  o.seed = 42;
  o.msg_every = 20;
  if (pt_gen_create(&g, &o) != PT_OK) return NULL;
  pt_check *c = NULL;
  if (pt_check_create(&c, NULL) != PT_OK) abort();
  for (size_t i = 0; i < pt_gen_ndefs(g); i++)
    if (pt_check_def(c, pt_gen_def(g, i)) != PT_OK) abort();
  pt_event e;
  int64_t nrecv = 0;
  for (uint64_t loc = o.locations; loc-- > 0;)
    while (pt_gen_next(g, loc, &e) == PT_OK) {
      if (e.kind == PT_EV_RECV && nrecv++ == drop) continue;
      if (pt_check_event(c, &e) != PT_OK) abort();
    }
  *recvs = (uint64_t)nrecv;
  pt_gen_destroy(g);
  return c;
}

TEST(generated_trace_is_clean) {
  uint64_t recvs = 0;
  pt_check *c = run_generated(-1, &recvs);
  ASSERT_TRUE(c != NULL);
  int rc = pt_check_finish(c);
  if (rc != PT_OK && pt_check_nreports(c))
    fprintf(stderr, "  first: %s\n", pt_check_report(c, 0)->text);
  ASSERT_OK(rc);
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.events, 5 * 5000);
  ASSERT_TRUE(recvs > 100);
  ASSERT_EQ_U64(st.messages_matched, recvs);
  pt_check_destroy(c);
}

TEST(generated_trace_missing_recv) {
  uint64_t recvs = 0;
  pt_check *c = run_generated(37, &recvs);
  ASSERT_TRUE(c != NULL);
  ASSERT_STATUS(pt_check_finish(c), PT_ECHECK);
  ASSERT_EQ_U64(pt_check_count(c, PT_CHECK_UNMATCHED_SEND), 1);
  /* FIFO: a later receive on the same channel pairs with an earlier
   * send, so some receives may now end before their partner began -- but
   * nothing else may show up. */
  ASSERT_EQ_U64(pt_check_total(c),
                1 + pt_check_count(c, PT_CHECK_RECV_BEFORE_SEND));
  pt_check_destroy(c);
}

TEST(names) {
  ASSERT_EQ_STR(pt_check_kind_name(PT_CHECK_UNMATCHED_SEND), "unmatched_send");
  ASSERT_TRUE(pt_check_kind_name(0) == NULL);
  ASSERT_TRUE(pt_check_kind_name(PT_CHECK__COUNT) == NULL);
  ASSERT_CONTAINS(pt_check_kind_description(PT_CHECK_RECV_BEFORE_SEND),
                  "before");
}

/* Requests started and never completed: counted, the earliest named;
 * beyond 2^20 open ones (a program freeing active requests in a loop, of
 * which no event tells) only counted, so memory stays bounded. */
TEST(unfinished_requests_bounded) {
  pt_check *c = world();
  pt_event e;
  const uint64_t n = (UINT64_C(1) << 20) + 5;
  for (uint64_t i = 0; i < n; i++) {
    pt_event_init(&e, PT_EV_IRECV_REQUEST, 10 + i, 1);
    e.request = 1000 + i;
    ASSERT_EQ_I64(pt_check_event(c, &e), PT_OK);
  }
  pt_event_init(&e, PT_EV_ISEND_COMPLETE, n + 20, 1); /* never started */
  e.request = 7;
  ASSERT_EQ_I64(pt_check_event(c, &e), PT_OK);
  ASSERT_EQ_I64(pt_check_finish(c), PT_OK);
  pt_check_stats st;
  pt_check_get_stats(c, &st);
  ASSERT_EQ_U64(st.unfinished_requests, UINT64_C(1) << 20);
  ASSERT_EQ_U64(st.unfinished_untracked, 5);
  ASSERT_EQ_U64(st.unfinished_location, 1);
  ASSERT_EQ_U64(st.unfinished_request, 1000);
  ASSERT_EQ_U64(st.unfinished_time, 10);
  ASSERT_EQ_U64(st.unfinished_kind, PT_EV_IRECV_REQUEST);
  pt_check_destroy(c);
}

int main(void) {
  RUN(unfinished_requests_bounded);
  RUN(clean_trace);
  RUN(time_order);
  RUN(leave_without_enter);
  RUN(leave_mismatch);
  RUN(leave_skips_frames);
  RUN(unclosed_region);
  RUN(unmatched_send);
  RUN(unmatched_recv_other_comm);
  RUN(any_tag_receive);
  RUN(recv_before_send);
  RUN(send_counts_from_its_call);
  RUN(clock_tolerance);
  RUN(ring_loss_is_not_a_problem);
  RUN(fifo_matching);
  RUN(undefined_refs);
  RUN(ranks_from_groups);
  RUN(cap_and_callback);
  RUN(callback_sees_all);
  RUN(memory_bounded_by_open_state);
  RUN(generated_trace_is_clean);
  RUN(generated_trace_missing_recv);
  RUN(names);
  return test_summary();
}
