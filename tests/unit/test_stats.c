/* Statistics (pt_stats_*, pt_archive_summarize, pt_stats_window): hand-built
 * traces with known answers, merge of halves == one pass, and window
 * statistics from summaries == a full scan on random windows. */
#include "test.h"

#include <math.h>

#include "paratrace/paratrace.h"
#include "paratrace/analysis.h"
#include "paratrace/generate.h"

/* ---- building traces --------------------------------------------------- */

static void def_region(pt_stats *s, uint64_t id, const char *name) {
  pt_def d;
  pt_def_init(&d, PT_DEF_REGION, id);
  d.name = name;
  if (pt_stats_def(s, &d) != PT_OK) abort();
}
static void def_loc(pt_stats *s, uint64_t id) {
  pt_def d;
  pt_def_init(&d, PT_DEF_LOCATION_GROUP, id);
  d.i1 = (int64_t)id; /* rank */
  if (pt_stats_def(s, &d) != PT_OK) abort();
  pt_def_init(&d, PT_DEF_LOCATION, id);
  d.parent = id;
  if (pt_stats_def(s, &d) != PT_OK) abort();
}
static void ev(pt_stats *s, uint64_t t, uint64_t loc, uint32_t kind,
               uint64_t ref) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = ref;
  if (pt_stats_event(s, &e) != PT_OK) abort();
}
static void msg(pt_stats *s, uint64_t t, uint64_t loc, uint32_t kind,
                int64_t peer, int64_t tag, uint64_t bytes) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = PT_NONE;
  e.peer = peer;
  e.tag = tag;
  e.size = bytes;
  if (pt_stats_event(s, &e) != PT_OK) abort();
}

static pt_stats *mk(uint64_t from, uint64_t to, uint64_t rel) {
  pt_stats *s = NULL;
  pt_stats_opts o = {0};
  o.from = from;
  o.to = to;
  o.relative_to = rel;
  if (pt_stats_create(&s, &o) != PT_OK) abort();
  return s;
}

static const pt_stats_region_loc_row *find_rl(const pt_stats *s, uint64_t loc,
                                              uint64_t region) {
  for (size_t i = 0; i < pt_stats_nregion_locs(s); i++) {
    const pt_stats_region_loc_row *r = pt_stats_region_loc(s, i);
    if (r->location == loc && r->region == region) return r;
  }
  return NULL;
}
static const pt_stats_region_row *find_region(const pt_stats *s, uint64_t id) {
  for (size_t i = 0; i < pt_stats_nregions(s); i++)
    if (pt_stats_region(s, i)->region == id) return pt_stats_region(s, i);
  return NULL;
}

/* loc 0: A [0,100) containing B [10,30) and B [40,45). */
static void nest_trace(pt_stats *s) {
  def_region(s, 1, "A");
  def_region(s, 2, "B");
  def_loc(s, 0);
  ev(s, 0, 0, PT_EV_ENTER, 1);
  ev(s, 10, 0, PT_EV_ENTER, 2);
  ev(s, 30, 0, PT_EV_LEAVE, 2);
  ev(s, 40, 0, PT_EV_ENTER, 2);
  ev(s, 45, 0, PT_EV_LEAVE, 2);
  ev(s, 100, 0, PT_EV_LEAVE, 1);
}

TEST(inclusive_exclusive_nesting) {
  pt_stats *s = mk(0, 0, PT_NONE);
  nest_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  const pt_stats_region_loc_row *a = find_rl(s, 0, 1), *b = find_rl(s, 0, 2);
  ASSERT_TRUE(a && b);
  ASSERT_EQ_U64(a->count, 1);
  ASSERT_EQ_U64(a->incl, 100);
  ASSERT_EQ_U64(a->excl, 75);
  ASSERT_EQ_U64(b->count, 2);
  ASSERT_EQ_U64(b->incl, 25);
  ASSERT_EQ_U64(b->excl, 25);
  ASSERT_EQ_U64(b->visit_min, 5);
  ASSERT_EQ_U64(b->visit_max, 20);
  /* regions sorted by inclusive time */
  ASSERT_EQ_U64(pt_stats_region(s, 0)->region, 1);
  ASSERT_EQ_STR(pt_stats_region(s, 1)->name, "B");
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  ASSERT_EQ_U64(t.app_time, 100);
  ASSERT_EQ_U64(t.events, 6);
  pt_stats_destroy(s);
}

TEST(window_clips_straddling_regions) {
  pt_stats *s = mk(20, 42, PT_NONE);
  nest_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  const pt_stats_region_loc_row *a = find_rl(s, 0, 1), *b = find_rl(s, 0, 2);
  ASSERT_TRUE(a && b);
  ASSERT_EQ_U64(a->count, 0); /* entered before the window */
  ASSERT_EQ_U64(a->incl, 22);
  ASSERT_EQ_U64(a->excl, 10); /* [30,40) */
  ASSERT_EQ_U64(b->count, 1); /* the visit entered at 40 */
  ASSERT_EQ_U64(b->incl, 12); /* [20,30) + [40,42) */
  ASSERT_EQ_U64(b->excl, 12);
  pt_stats_destroy(s);
}

TEST(open_region_ends_at_trace_end) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "A");
  def_loc(s, 0);
  def_loc(s, 1);
  ev(s, 10, 0, PT_EV_ENTER, 1);
  ev(s, 50, 1, PT_EV_ENTER, 1);
  ev(s, 70, 1, PT_EV_LEAVE, 1);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(find_rl(s, 0, 1)->incl, 60); /* left at 70 */
  pt_stats_destroy(s);
}

TEST(imbalance_across_locations) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "work");
  def_loc(s, 0);
  def_loc(s, 1);
  def_loc(s, 2); /* no region at all: not one of the locations counted */
  def_loc(s, 3); /* other regions only: counts as 0 */
  def_region(s, 2, "other");
  ev(s, 0, 0, PT_EV_ENTER, 1);
  ev(s, 0, 1, PT_EV_ENTER, 1);
  ev(s, 0, 3, PT_EV_ENTER, 2);
  ev(s, 100, 0, PT_EV_LEAVE, 1);
  ev(s, 300, 1, PT_EV_LEAVE, 1);
  ev(s, 300, 3, PT_EV_LEAVE, 2);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nlocations(s), 4);
  const pt_stats_region_row *r = find_region(s, 1);
  ASSERT_TRUE(r != NULL);
  ASSERT_EQ_U64(r->incl, 400);
  ASSERT_EQ_U64(r->incl_min, 0);
  ASSERT_EQ_U64(r->incl_max, 300);
  ASSERT_EQ_U64(r->incl_max_location, 1);
  ASSERT_EQ_DBL(r->incl_mean, 400.0 / 3);
  ASSERT_EQ_DBL(r->imbalance, 300 / (400.0 / 3));
  pt_stats_destroy(s);
}

/* Two ranks: a late sender (receiver waits 50) and a late receiver (sender
 * waits 60), plus the MPI view. */
static void pingpong(pt_stats *s) {
  def_region(s, 1, "main");
  def_region(s, 2, "MPI_Send");
  def_region(s, 3, "MPI_Recv");
  def_loc(s, 0);
  def_loc(s, 1);
  ev(s, 0, 0, PT_EV_ENTER, 1);
  ev(s, 0, 1, PT_EV_ENTER, 1);
  ev(s, 50, 1, PT_EV_ENTER, 3);
  ev(s, 100, 0, PT_EV_ENTER, 2);
  msg(s, 105, 0, PT_EV_SEND, 1, 7, 1000);
  ev(s, 110, 0, PT_EV_LEAVE, 2);
  msg(s, 120, 1, PT_EV_RECV, 0, 7, 1000);
  ev(s, 125, 1, PT_EV_LEAVE, 3);
  ev(s, 200, 0, PT_EV_ENTER, 2);
  ev(s, 260, 1, PT_EV_ENTER, 3);
  msg(s, 265, 1, PT_EV_RECV, 0, 7, 10);
  ev(s, 270, 1, PT_EV_LEAVE, 3);
  msg(s, 270, 0, PT_EV_SEND, 1, 7, 10);
  ev(s, 275, 0, PT_EV_LEAVE, 2);
  ev(s, 300, 0, PT_EV_LEAVE, 1);
  ev(s, 300, 1, PT_EV_LEAVE, 1);
}

static void req_ev(pt_stats *s, uint64_t t, uint64_t loc, uint32_t kind,
                   uint64_t request, int64_t peer, int64_t tag, uint64_t bytes) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = PT_NONE;
  e.request = request;
  e.peer = peer;
  e.tag = tag;
  e.size = bytes;
  if (pt_stats_event(s, &e) != PT_OK) abort();
}

/* Rank 1 receives with MPI_Irecv + MPI_Wait: a late sender is waited for
 * in the Wait (charged from its enter), a late receiver is one whose
 * Irecv came after the send began. */
TEST(nonblocking_receive_late_sender) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 2, "MPI_Send");
  def_region(s, 4, "MPI_Irecv");
  def_region(s, 5, "MPI_Wait");
  def_loc(s, 0);
  def_loc(s, 1);
  /* posted at 0, waiting from 10, the send begins at 50: 40 waited */
  ev(s, 0, 1, PT_EV_ENTER, 4);
  req_ev(s, 1, 1, PT_EV_IRECV_REQUEST, 1, -1, -1, 0);
  ev(s, 2, 1, PT_EV_LEAVE, 4);
  ev(s, 10, 1, PT_EV_ENTER, 5);
  ev(s, 50, 0, PT_EV_ENTER, 2);
  msg(s, 51, 0, PT_EV_SEND, 1, 7, 8);
  ev(s, 52, 0, PT_EV_LEAVE, 2);
  req_ev(s, 60, 1, PT_EV_IRECV, 1, 0, 7, 8);
  ev(s, 61, 1, PT_EV_LEAVE, 5);
  /* posted at 90, before the send at 100, waited from 120: nothing */
  ev(s, 90, 1, PT_EV_ENTER, 4);
  req_ev(s, 91, 1, PT_EV_IRECV_REQUEST, 2, -1, -1, 0);
  ev(s, 92, 1, PT_EV_LEAVE, 4);
  ev(s, 100, 0, PT_EV_ENTER, 2);
  msg(s, 101, 0, PT_EV_SEND, 1, 7, 8);
  ev(s, 102, 0, PT_EV_LEAVE, 2);
  ev(s, 120, 1, PT_EV_ENTER, 5);
  req_ev(s, 121, 1, PT_EV_IRECV, 2, 0, 7, 8);
  ev(s, 122, 1, PT_EV_LEAVE, 5);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nmessages(s), 1);
  const pt_stats_message_row *m = pt_stats_message(s, 0);
  ASSERT_EQ_U64(m->matched, 2);
  ASSERT_EQ_U64(m->late_sender, 40);
  ASSERT_EQ_U64(m->late_receiver, 0);
  pt_stats_destroy(s);
}

/* The late receiver of a blocking send is bounded by the send's leave
 * when that came before the receive was posted (an eager send), else by
 * the receive's enter (a send that waited): the same whether the events
 * come in time order or one location after the other (runs: the receive
 * first, so the send matches a waiting receive before its call is left;
 * also a run cut between the send and its leave). */
static void lr_trace(pt_stats *s, int order) {
  def_region(s, 2, "MPI_Send");
  def_region(s, 3, "MPI_Recv");
  def_loc(s, 0);
  def_loc(s, 1);
  /* eager: send [10, 12], receive entered at 20: 2 waited;
   * rendezvous: send [100, 130], receive entered at 120: 20 waited */
  static const struct { uint64_t t, loc; uint32_t kind; uint64_t ref; } e[] = {
      {10, 0, PT_EV_ENTER, 2},  {11, 0, PT_EV_SEND, 0},  {12, 0, PT_EV_LEAVE, 2},
      {100, 0, PT_EV_ENTER, 2}, {101, 0, PT_EV_SEND, 0}, {130, 0, PT_EV_LEAVE, 2},
      {20, 1, PT_EV_ENTER, 3},  {21, 1, PT_EV_RECV, 0},  {22, 1, PT_EV_LEAVE, 3},
      {120, 1, PT_EV_ENTER, 3}, {125, 1, PT_EV_RECV, 0}, {126, 1, PT_EV_LEAVE, 3}};
  /* order 0: time; 1: location 1, then 0; 2: location 0 up to its first
   * send, location 1, the rest of location 0 */
  static const int ord[3][12] = {{0, 1, 2, 6, 7, 8, 3, 4, 9, 10, 11, 5},
                                 {6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5},
                                 {0, 1, 6, 7, 8, 9, 10, 11, 2, 3, 4, 5}};
  for (int i = 0; i < 12; i++) {
    int k = ord[order][i];
    if (e[k].kind == PT_EV_SEND || e[k].kind == PT_EV_RECV)
      msg(s, e[k].t, e[k].loc, e[k].kind, e[k].loc ? 0 : 1, 7, 8);
    else
      ev(s, e[k].t, e[k].loc, e[k].kind, e[k].ref);
  }
}
TEST(late_receiver_any_order) {
  for (int order = 0; order < 3; order++) {
    pt_stats *s = mk(0, 0, PT_NONE);
    lr_trace(s, order);
    ASSERT_OK(pt_stats_finish(s));
    ASSERT_EQ_U64(pt_stats_nmessages(s), 1);
    const pt_stats_message_row *m = pt_stats_message(s, 0);
    ASSERT_EQ_U64(m->matched, 2);
    ASSERT_EQ_U64(m->late_receiver, 2 + 20);
    ASSERT_EQ_U64(m->late_sender, 0);
    pt_stats_destroy(s);
  }
}

/* Feed orders (random traces of blocking, non-blocking and combined
 * point-to-point calls, with and without wildcard receives and threads):
 * fed one location at a time, the results are the time-ordered scan's
 * when the events other than ENTER / LEAVE come in time order (runs as
 * pt_reader_next_run and DUMPI's pt_source_opts.runs = 2 give them), and
 * also when every event may come early, as long as each rank has one
 * location and no receive is a wildcard (runs = 1; a wildcard receive
 * takes the oldest send waiting, and two threads' sends share a channel,
 * so there the feed order decides what matches). */
typedef struct fo_ev {
  uint64_t t, loc;
  uint32_t kind;
  uint64_t ref, size, req;
  int64_t peer, tag;
} fo_ev;
enum { FO_MAX = 4096 };
static fo_ev fo_e[FO_MAX];
static int fo_n, fo_nloc, fo_wild, fo_thr;
static uint64_t fo_seed;
static uint32_t fo_rnd(uint32_t m) {
  fo_seed = fo_seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(fo_seed >> 33) % m;
}
static int fo_nranks(void) { return fo_thr ? 2 : fo_nloc; }
static int fo_rank(int l) { return fo_thr ? l % 2 : l; }
static void fo_put(uint64_t t, int loc, uint32_t kind, uint64_t ref,
                   int64_t peer, int64_t tag, uint64_t size, uint64_t req) {
  fo_ev x = {t * 16 + (uint64_t)loc, (uint64_t)loc, kind, ref, size, req,
             peer, tag};
  fo_e[fo_n++] = x;
}
/* regions: 1 Send, 2 Recv, 3 Sendrecv, 4 Irecv, 5 Wait, 6 Isend, 7 work */
static void fo_gen(void) {
  fo_n = 0;
  for (int l = 0; l < fo_nloc; l++) {
    uint64_t t = 1 + fo_rnd(20), req = 100;
    int user = 0, ncalls = 5 + (int)fo_rnd(30);
    for (int c = 0; c < ncalls; c++) {
      if (!user && fo_rnd(6) == 0) {
        fo_put(t++, l, PT_EV_ENTER, 7, 0, 0, 0, 0);
        user = 1;
      }
      int nr = fo_nranks();
      int64_t peer = fo_rnd((uint32_t)nr), tag = fo_rnd(2);
      if (peer == fo_rank(l)) peer = (peer + 1) % nr;
      int64_t rpeer = fo_wild && fo_rnd(3) == 0 ? -1 : peer;
      int64_t rtag = fo_wild && fo_rnd(3) == 0 ? -1 : tag;
      uint64_t sz = 1 + fo_rnd(100), d1 = fo_rnd(30), d2 = fo_rnd(30);
      switch (fo_rnd(5)) {
        case 0:
          fo_put(t, l, PT_EV_ENTER, 1, 0, 0, 0, 0);
          fo_put(t + d1, l, PT_EV_SEND, 0, peer, tag, sz, 0);
          fo_put(t + d1 + d2, l, PT_EV_LEAVE, 1, 0, 0, 0, 0);
          break;
        case 1:
          fo_put(t, l, PT_EV_ENTER, 2, 0, 0, 0, 0);
          fo_put(t + d1, l, PT_EV_RECV, 0, rpeer, rtag, sz, 0);
          fo_put(t + d1 + d2, l, PT_EV_LEAVE, 2, 0, 0, 0, 0);
          break;
        case 2:
          fo_put(t, l, PT_EV_ENTER, 3, 0, 0, 0, 0);
          fo_put(t + d1, l, PT_EV_SEND, 0, peer, tag, sz, 0);
          fo_put(t + d1 + d2, l, PT_EV_RECV, 0, rpeer, tag, sz, 0);
          fo_put(t + d1 + d2 + 3, l, PT_EV_LEAVE, 3, 0, 0, 0, 0);
          t += 4;
          break;
        case 3:
          fo_put(t, l, PT_EV_ENTER, 4, 0, 0, 0, 0);
          fo_put(t, l, PT_EV_IRECV_REQUEST, 0, rpeer, rtag, sz, req);
          fo_put(t + 1, l, PT_EV_LEAVE, 4, 0, 0, 0, 0);
          t += 2 + fo_rnd(30);
          fo_put(t, l, PT_EV_ENTER, 5, 0, 0, 0, 0);
          fo_put(t + d1, l, PT_EV_IRECV, 0, rpeer, rtag, sz, req++);
          fo_put(t + d1 + d2, l, PT_EV_LEAVE, 5, 0, 0, 0, 0);
          break;
        default:
          fo_put(t, l, PT_EV_ENTER, 6, 0, 0, 0, 0);
          fo_put(t, l, PT_EV_ISEND, 0, peer, tag, sz, req);
          fo_put(t + 1, l, PT_EV_LEAVE, 6, 0, 0, 0, 0);
          t += 2 + fo_rnd(30);
          fo_put(t, l, PT_EV_ENTER, 5, 0, 0, 0, 0);
          fo_put(t + d1, l, PT_EV_ISEND_COMPLETE, 0, 0, 0, 0, req++);
          fo_put(t + d1 + d2, l, PT_EV_LEAVE, 5, 0, 0, 0, 0);
          break;
      }
      t += d1 + d2 + 1 + fo_rnd(20);
      if (user && fo_rnd(4) == 0) {
        fo_put(t++, l, PT_EV_LEAVE, 7, 0, 0, 0, 0);
        user = 0;
      }
    }
    if (user) fo_put(t++, l, PT_EV_LEAVE, 7, 0, 0, 0, 0);
  }
}
static int fo_cmp(const void *a, const void *b) {
  const fo_ev *x = a, *y = b;
  return x->t < y->t ? -1 : x->t > y->t;
}
static void fo_feed(pt_stats *s, const fo_ev *x) {
  pt_event e;
  pt_event_init(&e, x->kind, x->t, x->loc);
  e.ref = x->kind == PT_EV_ENTER || x->kind == PT_EV_LEAVE ? x->ref : PT_NONE;
  e.peer = x->peer;
  e.tag = x->tag;
  e.size = x->size;
  e.request = x->req;
  if (pt_stats_event(s, &e) != PT_OK) abort();
}
static pt_stats *fo_mk(uint64_t from, uint64_t to) {
  static const char *const names[] = {"",         "MPI_Send",  "MPI_Recv",
                                      "MPI_Sendrecv", "MPI_Irecv", "MPI_Wait",
                                      "MPI_Isend", "work"};
  pt_stats *s = mk(from, to, PT_NONE);
  for (uint64_t r = 1; r <= 7; r++) def_region(s, r, names[r]);
  pt_def d;
  for (int r = 0; r < fo_nranks(); r++) {
    pt_def_init(&d, PT_DEF_LOCATION_GROUP, (uint64_t)r);
    d.i1 = r;
    if (pt_stats_def(s, &d) != PT_OK) abort();
  }
  for (int l = 0; l < fo_nloc; l++) {
    pt_def_init(&d, PT_DEF_LOCATION, (uint64_t)l);
    d.parent = (uint64_t)fo_rank(l);
    if (pt_stats_def(s, &d) != PT_OK) abort();
  }
  return s;
}
/* One location at a time, the one with the earliest next event, for a
 * random number of its events: ENTER / LEAVE past the other locations'
 * next events, the others too with runs 1 (runs 2: not past them). */
static void fo_runs(pt_stats *s, int runs) {
  static int idx[4][FO_MAX];
  int cnt[4] = {0}, pos[4] = {0};
  for (int i = 0; i < fo_n; i++) {
    int l = (int)fo_e[i].loc;
    idx[l][cnt[l]++] = i;
  }
  for (;;) {
    int b = -1;
    uint64_t lim = UINT64_MAX;
    for (int l = 0; l < fo_nloc; l++)
      if (pos[l] < cnt[l] &&
          (b < 0 || fo_e[idx[l][pos[l]]].t < fo_e[idx[b][pos[b]]].t))
        b = l;
    if (b < 0) return;
    for (int l = 0; l < fo_nloc; l++)
      if (l != b && pos[l] < cnt[l] && fo_e[idx[l][pos[l]]].t < lim)
        lim = fo_e[idx[l][pos[l]]].t;
    int len = 1 + (int)fo_rnd(40);
    fo_feed(s, &fo_e[idx[b][pos[b]++]]);
    for (int k = 1; k < len && pos[b] < cnt[b]; k++) {
      const fo_ev *x = &fo_e[idx[b][pos[b]]];
      if (runs == 2 && x->kind != PT_EV_ENTER && x->kind != PT_EV_LEAVE &&
          x->t > lim)
        break;
      fo_feed(s, x);
      pos[b]++;
    }
  }
}
TEST(any_feed_order_same_results) {
  for (int round = 0; round < 600 && !test_failed_; round++) {
    int runs = round % 3 == 0 ? 1 : 2;
    fo_seed = (uint64_t)round * 7919 + 1;
    fo_wild = runs == 2 && fo_rnd(2);
    fo_thr = runs == 2 && fo_rnd(2);
    fo_nloc = fo_thr ? 3 + (int)fo_rnd(2) : 2 + (int)fo_rnd(3);
    fo_gen();
    qsort(fo_e, (size_t)fo_n, sizeof *fo_e, fo_cmp);
    uint64_t from = 0, to = 0;
    if (fo_rnd(3) == 0) {
      from = fo_rnd(2000) * 16;
      to = from + (1 + fo_rnd(3000)) * 16;
    }
    pt_stats *a = fo_mk(from, to), *b = fo_mk(from, to);
    for (int i = 0; i < fo_n; i++) fo_feed(a, &fo_e[i]);
    fo_runs(b, runs);
    ASSERT_OK(pt_stats_finish(a));
    ASSERT_OK(pt_stats_finish(b));
    ASSERT_EQ_U64(pt_stats_nmessages(b), pt_stats_nmessages(a));
    for (size_t i = 0; i < pt_stats_nmessages(a); i++) {
      const pt_stats_message_row *x = pt_stats_message(a, i),
                                 *y = pt_stats_message(b, i);
      if (memcmp(x, y, sizeof *x))
        TEST_FAIL_("round %d (runs %d): messages %" PRIu64 " -> %" PRIu64
                   ": late sender %" PRIu64 " / %" PRIu64 ", receiver %" PRIu64
                   " / %" PRIu64 ", matched %" PRIu64 " / %" PRIu64,
                   round, runs, x->sender, x->receiver, x->late_sender,
                   y->late_sender, x->late_receiver, y->late_receiver,
                   x->matched, y->matched);
    }
    ASSERT_EQ_U64(pt_stats_nlocations(b), pt_stats_nlocations(a));
    for (size_t i = 0; i < pt_stats_nlocations(a); i++)
      ASSERT_TRUE(!memcmp(pt_stats_location(a, i), pt_stats_location(b, i),
                          sizeof(pt_stats_location_row)));
    ASSERT_EQ_U64(pt_stats_nregion_locs(b), pt_stats_nregion_locs(a));
    for (size_t i = 0; i < pt_stats_nregion_locs(a); i++)
      ASSERT_TRUE(!memcmp(pt_stats_region_loc(a, i), pt_stats_region_loc(b, i),
                          sizeof(pt_stats_region_loc_row)));
    ASSERT_EQ_U64(pt_stats_ncallsites(b), pt_stats_ncallsites(a));
    for (size_t i = 0; i < pt_stats_ncallsites(a); i++)
      ASSERT_TRUE(!memcmp(pt_stats_callsite(a, i), pt_stats_callsite(b, i),
                          sizeof(pt_stats_callsite_row)));
    pt_stats_destroy(a);
    pt_stats_destroy(b);
  }
}

/* pt_stats_order_dependent: 0 for messages with a known sender between
 * processes of one location; 1 after a receive from any source without a
 * status (peer -1), one with any tag (tag -1), or a message of a second
 * location of a process. */
TEST(order_dependent_when_it_is) {
  pt_stats *s = mk(0, 0, PT_NONE);
  pingpong(s);
  ASSERT_EQ_I64(pt_stats_order_dependent(s), 0);
  pt_stats_destroy(s);
  for (int k = 0; k < 3; k++) {
    s = mk(0, 0, PT_NONE);
    def_region(s, 2, "MPI_Send");
    def_region(s, 3, "MPI_Recv");
    def_loc(s, 0);
    def_loc(s, 1);
    pt_def d;
    pt_def_init(&d, PT_DEF_LOCATION, 7); /* a second thread of rank 1 */
    d.parent = 1;
    ASSERT_OK(pt_stats_def(s, &d));
    ev(s, 10, 0, PT_EV_ENTER, 2);
    msg(s, 11, 0, PT_EV_SEND, 1, 5, 8);
    ev(s, 12, 0, PT_EV_LEAVE, 2);
    uint64_t rl = k == 2 ? 7 : 1;
    ev(s, 20, rl, PT_EV_ENTER, 3);
    ASSERT_EQ_I64(pt_stats_order_dependent(s), 0);
    msg(s, 21, rl, PT_EV_RECV, k == 0 ? -1 : 0, k == 1 ? -1 : 5, 8);
    ev(s, 22, rl, PT_EV_LEAVE, 3);
    ASSERT_EQ_I64(pt_stats_order_dependent(s), 1);
    ASSERT_OK(pt_stats_finish(s));
    ASSERT_EQ_U64(pt_stats_message(s, 0)->matched, 1);
    pt_stats_destroy(s);
  }
}

TEST(message_matrix_and_late_sender) {
  pt_stats *s = mk(0, 0, PT_NONE);
  pingpong(s);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nmessages(s), 1);
  const pt_stats_message_row *m = pt_stats_message(s, 0);
  ASSERT_EQ_U64(m->sender, 0);
  ASSERT_EQ_U64(m->receiver, 1);
  ASSERT_EQ_U64(m->count, 2);
  ASSERT_EQ_U64(m->bytes, 1010);
  ASSERT_EQ_U64(m->matched, 2);
  ASSERT_EQ_U64(m->late_sender, 50);
  ASSERT_EQ_U64(m->late_receiver, 60);
  const pt_stats_location_row *l0 = pt_stats_location(s, 0);
  const pt_stats_location_row *l1 = pt_stats_location(s, 1);
  ASSERT_EQ_U64(l0->sent, 2);
  ASSERT_EQ_U64(l0->bytes_sent, 1010);
  ASSERT_EQ_U64(l1->received, 2);
  ASSERT_EQ_U64(l0->mpi_time, 10 + 75);
  ASSERT_EQ_U64(l1->mpi_time, 75 + 10);
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  ASSERT_EQ_U64(t.app_time, 600);
  ASSERT_EQ_U64(t.mpi_time, 170);
  /* message sizes per MPI function (call site unknown) */
  ASSERT_EQ_U64(pt_stats_ncallsites(s), 2);
  const pt_stats_callsite_row *c = pt_stats_callsite(s, 0); /* MPI_Send */
  ASSERT_EQ_U64(c->region, 2);
  ASSERT_EQ_U64(c->callsite, PT_NONE);
  ASSERT_EQ_U64(c->calls, 2);
  ASSERT_EQ_U64(c->time, 85);
  ASSERT_EQ_U64(c->messages, 2);
  ASSERT_EQ_U64(c->bytes_min, 10);
  ASSERT_EQ_U64(c->bytes_max, 1000);
  ASSERT_TRUE(find_region(s, 2)->is_mpi);
  ASSERT_TRUE(!find_region(s, 1)->is_mpi);
  pt_stats_destroy(s);
}

/* Unknown peers (-1) and a region id of PT_NONE are counted as such,
 * not taken for the entries of an empty cache. */
TEST(unknown_peer_and_none_region) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "A");
  def_loc(s, 0);
  def_loc(s, 1);
  msg(s, 10, 0, PT_EV_SEND, 1, 5, 100);  /* (0 -> 1) */
  msg(s, 20, 1, PT_EV_RECV, -1, 5, 100); /* peer unknown */
  msg(s, 30, 1, PT_EV_RECV, 0, 5, 7);
  ev(s, 40, 0, PT_EV_ENTER, PT_NONE);
  ev(s, 50, 0, PT_EV_LEAVE, PT_NONE);
  ev(s, 60, 0, PT_EV_ENTER, 1);
  ev(s, 70, 0, PT_EV_LEAVE, 1);
  ASSERT_OK(pt_stats_finish(s));
  const pt_stats_location_row *l0 = pt_stats_location(s, 0);
  const pt_stats_location_row *l1 = pt_stats_location(s, 1);
  ASSERT_EQ_U64(l0->location, 0);
  ASSERT_EQ_U64(l0->sent, 1);
  ASSERT_EQ_U64(l0->received, 0);
  ASSERT_EQ_U64(l1->received, 2);
  ASSERT_EQ_U64(l1->bytes_received, 107);
  const pt_stats_region_loc_row *a = find_rl(s, 0, 1);
  const pt_stats_region_loc_row *n = find_rl(s, 0, PT_NONE);
  ASSERT_TRUE(a && n);
  ASSERT_EQ_U64(a->count, 1);
  ASSERT_EQ_U64(a->incl, 10);
  ASSERT_EQ_U64(n->count, 1);
  ASSERT_EQ_U64(n->incl, 10);
  pt_stats_destroy(s);
}

TEST(matrix_by_tag) {
  pt_stats *s = NULL;
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  o.matrix_by = PT_STATS_BY_TAG;
  ASSERT_OK(pt_stats_create(&s, &o));
  def_loc(s, 0);
  def_loc(s, 1);
  msg(s, 1, 0, PT_EV_SEND, 1, 3, 8);
  msg(s, 2, 0, PT_EV_SEND, 1, 4, 16);
  msg(s, 3, 0, PT_EV_SEND, 1, 4, 16);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nmessages(s), 2);
  ASSERT_EQ_I64(pt_stats_message(s, 0)->key, 3);
  ASSERT_EQ_U64(pt_stats_message(s, 1)->count, 2);
  ASSERT_EQ_U64(pt_stats_message(s, 1)->bytes, 32);
  pt_stats_destroy(s);
}

TEST(relative_statistics) {
  pt_stats *s = mk(0, 0, 5);
  def_region(s, 5, "outer");
  def_region(s, 6, "X");
  def_loc(s, 0);
  def_loc(s, 1);
  ev(s, 0, 0, PT_EV_ENTER, 5);
  ev(s, 10, 0, PT_EV_ENTER, 6);
  ev(s, 20, 0, PT_EV_LEAVE, 6);
  msg(s, 30, 0, PT_EV_SEND, 1, 0, 64);
  ev(s, 50, 0, PT_EV_LEAVE, 5);
  ev(s, 60, 0, PT_EV_ENTER, 6); /* outside: not counted */
  ev(s, 70, 0, PT_EV_LEAVE, 6);
  msg(s, 80, 0, PT_EV_SEND, 1, 0, 64);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nrelative(s), 2);
  const pt_stats_relative_row *x = pt_stats_relative(s, 0);
  ASSERT_EQ_U64(x->what, PT_STATS_REL_REGION);
  ASSERT_EQ_U64(x->id, 6);
  ASSERT_EQ_U64(x->count, 1);
  ASSERT_EQ_U64(x->time, 10);
  const pt_stats_relative_row *y = pt_stats_relative(s, 1);
  ASSERT_EQ_U64(y->what, PT_STATS_REL_EVENT);
  ASSERT_EQ_U64(y->id, PT_EV_SEND);
  ASSERT_EQ_U64(y->count, 1);
  ASSERT_EQ_U64(y->bytes, 64);
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  ASSERT_EQ_U64(t.relative_count, 1);
  ASSERT_EQ_U64(t.relative_time, 50);
  pt_stats_destroy(s);
}

/* Relative rows: regions by time descending, ties by name; then event
 * kinds by name. */
TEST(relative_rows_sorted) {
  pt_stats *s = mk(0, 0, 5);
  def_region(s, 5, "outer");
  def_region(s, 6, "short");
  def_region(s, 7, "long");
  def_region(s, 8, "b_tie");
  def_region(s, 9, "a_tie");
  def_loc(s, 0);
  def_loc(s, 1);
  ev(s, 0, 0, PT_EV_ENTER, 5);
  uint64_t t = 10;
  const uint64_t reg[] = {6, 7, 8, 9}, len[] = {5, 40, 7, 7};
  for (int i = 0; i < 4; i++) {
    ev(s, t, 0, PT_EV_ENTER, reg[i]);
    ev(s, t + len[i], 0, PT_EV_LEAVE, reg[i]);
    t += len[i] + 1;
  }
  msg(s, t, 0, PT_EV_SEND, 1, 0, 64);
  msg(s, t + 1, 0, PT_EV_RECV, 1, 0, 64);
  ev(s, t + 2, 0, PT_EV_LEAVE, 5);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nrelative(s), 6);
  const uint64_t want[] = {7, 9, 8, 6};
  for (size_t i = 0; i < 4; i++) {
    ASSERT_EQ_U64(pt_stats_relative(s, i)->what, PT_STATS_REL_REGION);
    ASSERT_EQ_U64(pt_stats_relative(s, i)->id, want[i]);
  }
  ASSERT_EQ_U64(pt_stats_relative(s, 4)->id, PT_EV_RECV); /* "recv" < "send" */
  ASSERT_EQ_U64(pt_stats_relative(s, 5)->id, PT_EV_SEND);
  pt_stats_destroy(s);
}

/* mpiP's application time: locations 0 and 1 run MPI_Init [0, 100),
 * then (with_prog) the program region [100, 400), an MPI_Send
 * [150, 160) inside, MPI_Finalize [400, 410); location 1 starts 20 later
 * and also has user code before MPI_Init.  Location 2 is a thread: one
 * MPI_Recv [200, 230) and no MPI_Init. */
static void mpip_trace(pt_stats *s, int with_prog) {
  def_region(s, 10, "MPI_Init");
  def_region(s, 12, "MPI_Send");
  def_region(s, 13, "MPI_Finalize");
  def_region(s, 14, "MPI_Recv");
  def_region(s, 15, "setup");
  if (with_prog) {
    pt_def d;
    pt_def_init(&d, PT_DEF_REGION, 11);
    d.name = "prog";
    d.i0 = PT_ROLE_FUNCTION;
    d.i1 = PT_PARADIGM_USER;
    if (pt_stats_def(s, &d) != PT_OK) abort();
  }
  def_loc(s, 0);
  def_loc(s, 1);
  def_loc(s, 2);
  ev(s, 0, 1, PT_EV_ENTER, 15);
  ev(s, 20, 1, PT_EV_LEAVE, 15);
  for (uint64_t l = 0; l < 2; l++) {
    uint64_t o = 20 * l;
    ev(s, o + 0, l, PT_EV_ENTER, 10);
    ev(s, o + 100, l, PT_EV_LEAVE, 10);
    if (with_prog) ev(s, o + 100, l, PT_EV_ENTER, 11);
    ev(s, o + 150, l, PT_EV_ENTER, 12);
    ev(s, o + 160, l, PT_EV_LEAVE, 12);
    if (with_prog) ev(s, o + 400, l, PT_EV_LEAVE, 11);
    ev(s, o + 400, l, PT_EV_ENTER, 13);
    ev(s, o + 410, l, PT_EV_LEAVE, 13);
  }
  ev(s, 200, 2, PT_EV_ENTER, 14);
  ev(s, 230, 2, PT_EV_LEAVE, 14);
}

/* mpiP counts the messages and bytes a function sent: 4 MPI_Sendrecv of
 * 4 bytes each moved 16 bytes (the receives are kept apart); a
 * collective counts its sent part. */
/* pt_stats_resolve_callsites takes "/module+0xhex" statements (alone or
 * in a chain "a < b") for addresses; a file:line whose path has "+0x" in
 * it (an OTF source's) is no address: kept as it is, not cut to the
 * part after the last '/' before "+0x" with addr2line run on a directory. */
static void def_site(pt_stats *s, uint64_t id, uint64_t parent,
                     const char *name, const char *file, int64_t line) {
  pt_def d;
  pt_def_init(&d, PT_DEF_CALLSITE, id);
  d.parent = parent;
  d.ref = d.ref2 = PT_NONE;
  d.name = name;
  d.s1 = file;
  d.i0 = line;
  if (pt_stats_def(s, &d) != PT_OK) abort();
}
TEST(callsite_file_with_plus0x_not_an_address) {
  pt_stats *s = mk(0, UINT64_MAX, 0);
  def_site(s, 1, PT_NONE, NULL, "/nonexistent/a+0x1/file.c", 12);
  def_site(s, 2, 1, NULL, "/nonexistent/b+0x2f.c", 7);
  def_site(s, 3, PT_NONE, "/nonexistent/c+0x", NULL, 0);
  pt_stats_resolve_callsites(s);
  ASSERT_EQ_STR(pt_stats_callsite_name(s, 1),
                "/nonexistent/a+0x1/file.c:12");
  ASSERT_EQ_STR(pt_stats_callsite_name(s, 2),
                "/nonexistent/b+0x2f.c:7 < /nonexistent/a+0x1/file.c:12");
  ASSERT_EQ_STR(pt_stats_callsite_name(s, 3), "/nonexistent/c+0x");
  pt_stats_destroy(s);
}

/* A chained call-site name of any length (pt_stats_deserialize takes
 * names as they come; pt_stats_def's are shorter) comes out of
 * pt_stats_resolve_callsites whole: its buffer was 1300 bytes a
 * statement, and a longer one written past it (heap overflow). */
TEST(callsite_long_chain_name_resolved_whole) {
  pt_stats *s = mk(0, UINT64_MAX, 0);
  def_site(s, 1, PT_NONE, NULL, "/nonexistent/f.c", 1);
  def_site(s, 2, 1, "MARKMARK", NULL, 0);
  ASSERT_OK(pt_stats_finish(s));
  void *buf = NULL;
  size_t len = 0;
  ASSERT_OK(pt_stats_serialize(s, &buf, &len));
  pt_stats_destroy(s);
  /* the name "MARKMARK < /nonexistent/f.c:1", after its 8-byte length */
  const char *old = "MARKMARK < /nonexistent/f.c:1";
  size_t on = strlen(old), at = 0;
  while (at + on <= len && memcmp((char *)buf + at, old, on)) at++;
  ASSERT_TRUE(at + on <= len && at >= 8);
  enum { LONG = 5000 };
  char *name = malloc(LONG + 64);
  ASSERT_TRUE(name);
  memset(name, 'a', LONG);
  snprintf(name + LONG, 64, " < b < /nonexistent/f.c:1");
  size_t nn = strlen(name), opad = (on + 7) / 8 * 8, npad = (nn + 7) / 8 * 8;
  size_t nlen = len - opad + npad;
  uint8_t *nb = calloc(1, nlen);
  ASSERT_TRUE(nb);
  memcpy(nb, buf, at - 8);
  for (int i = 0; i < 8; i++) nb[at - 8 + i] = (uint8_t)((uint64_t)nn >> (8 * i));
  memcpy(nb + at, name, nn);
  memcpy(nb + at + npad, (char *)buf + at + opad, len - at - opad);
  free(buf);
  pt_stats *d = NULL;
  ASSERT_OK(pt_stats_deserialize(&d, nb, nlen));
  free(nb);
  pt_stats_resolve_callsites(d);
  ASSERT_EQ_STR(pt_stats_callsite_name(d, 2), name);
  ASSERT_EQ_STR(pt_stats_callsite_name(d, 1), "/nonexistent/f.c:1");
  free(name);
  pt_stats_destroy(d);
}

TEST(callsite_bytes_are_sent_bytes) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "MPI_Sendrecv");
  def_region(s, 2, "MPI_Allreduce");
  def_region(s, 3, "MPI_Recv");
  def_loc(s, 0);
  def_loc(s, 1);
  for (uint64_t i = 0; i < 2; i++)
    for (uint64_t l = 0; l < 2; l++) {
      uint64_t t = 100 * i + 10 * l;
      ev(s, t, l, PT_EV_ENTER, 1);
      msg(s, t + 1, l, PT_EV_SEND, (int64_t)(1 - l), 0, 4);
      msg(s, t + 2, l, PT_EV_RECV, (int64_t)(1 - l), 0, 4);
      ev(s, t + 3, l, PT_EV_LEAVE, 1);
    }
  pt_event e;
  ev(s, 300, 0, PT_EV_ENTER, 2);
  pt_event_init(&e, PT_EV_COLL_END, 305, 0);
  e.size = 8;
  e.size2 = 16;
  ASSERT_OK(pt_stats_event(s, &e));
  ev(s, 310, 0, PT_EV_LEAVE, 2);
  ev(s, 400, 1, PT_EV_ENTER, 3);
  msg(s, 405, 1, PT_EV_RECV, 0, 9, 100);
  ev(s, 410, 1, PT_EV_LEAVE, 3);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_ncallsites(s), 3);
  const pt_stats_callsite_row *c = pt_stats_callsite(s, 0);
  ASSERT_EQ_U64(c->region, 1);
  ASSERT_EQ_U64(c->calls, 4);
  ASSERT_EQ_U64(c->messages, 4);
  ASSERT_EQ_U64(c->bytes, 16);
  ASSERT_EQ_U64(c->bytes_min, 4);
  ASSERT_EQ_U64(c->bytes_max, 4);
  ASSERT_EQ_U64(c->received, 4);
  ASSERT_EQ_U64(c->bytes_received, 16);
  c = pt_stats_callsite(s, 1);
  ASSERT_EQ_U64(c->region, 2);
  ASSERT_EQ_U64(c->messages, 1);
  ASSERT_EQ_U64(c->bytes, 8);
  ASSERT_EQ_U64(c->bytes_received, 16);
  c = pt_stats_callsite(s, 2); /* a receive sends nothing */
  ASSERT_EQ_U64(c->region, 3);
  ASSERT_EQ_U64(c->messages, 0);
  ASSERT_EQ_U64(c->bytes, 0);
  ASSERT_EQ_U64(c->received, 1);
  ASSERT_EQ_U64(c->bytes_received, 100);
  pt_stats_destroy(s);
}

/* A STRING attribute "callsite" (the recorder's sites as paratrace writes
 * them to OTF2) names an MPI call's site by its text: equal texts are one
 * site on every location, the name is the text; a call without it, or
 * with an empty text, has no site.  (Before: no site at all.) */
static void enter_text(pt_stats *s, uint64_t t, uint64_t loc, uint64_t region,
                       const char *site) {
  pt_event e;
  pt_event_init(&e, PT_EV_ENTER, t, loc);
  e.ref = region;
  pt_attr a = {7, {.type = PT_TYPE_STRING, .v.s = site}};
  if (site) {
    e.attrs = &a;
    e.nattrs = 1;
  }
  if (pt_stats_event(s, &e) != PT_OK) abort();
}
TEST(callsite_text_attribute) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "MPI_Send");
  def_loc(s, 0);
  def_loc(s, 1);
  pt_def d;
  pt_def_init(&d, PT_DEF_ATTRIBUTE, 7);
  d.name = "callsite";
  d.i0 = PT_TYPE_STRING;
  ASSERT_OK(pt_stats_def(s, &d));
  const char *a = "/nonexistent/app+0x1f",
             *b = "/nonexistent/app+0x2f < /nonexistent/app+0x3f";
  const char *site[5] = {a, b, a, NULL, ""};
  for (uint64_t i = 0; i < 5; i++) {
    uint64_t t = 100 * i, l = i % 2;
    enter_text(s, t, l, 1, site[i]);
    msg(s, t + 1, l, PT_EV_SEND, (int64_t)(1 - l), 0, 10 * (i + 1));
    ev(s, t + 2, l, PT_EV_LEAVE, 1);
  }
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_ncallsites(s), 3);
  uint64_t seen = 0;
  for (size_t i = 0; i < 3; i++) {
    const pt_stats_callsite_row *c = pt_stats_callsite(s, i);
    const char *n =
        c->callsite == PT_NONE ? NULL : pt_stats_callsite_name(s, c->callsite);
    if (n && !strcmp(n, a)) { /* calls 0 and 2 (location 0) */
      ASSERT_EQ_U64(c->calls, 2);
      ASSERT_EQ_U64(c->bytes, 10 + 30);
      seen |= 1;
    } else if (n && !strcmp(n, b)) {
      ASSERT_EQ_U64(c->calls, 1);
      ASSERT_EQ_U64(c->bytes, 20);
      seen |= 2;
    } else {
      ASSERT_EQ_U64(c->callsite, PT_NONE); /* no text, an empty one */
      ASSERT_EQ_U64(c->calls, 2);
      ASSERT_EQ_U64(c->bytes, 40 + 50);
      seen |= 4;
    }
  }
  ASSERT_EQ_U64(seen, 7);
  pt_stats_destroy(s);
}

/* mpiP's "Callsite Time statistics": per call site and location the
 * shortest, mean and longest call, and over the locations the location of
 * the longest (lowest id on ties).  MPI_Send (region 1) from a.c:10 (site
 * 1) and a.c:20 (site 2), each call's site named by its message:
 *   location 0: site 1 [0,5) [10,17) [20,50); site 2 [60,69)
 *   location 1: site 1 [0,2) [100,140); site 2 [200,209); [300,303)
 *               without a message (site unknown). */
static void site_call(pt_stats *s, uint64_t loc, uint64_t t0, uint64_t t1,
                      uint64_t site) {
  ev(s, t0, loc, PT_EV_ENTER, 1);
  if (site != PT_NONE) {
    pt_event e;
    pt_event_init(&e, PT_EV_SEND, t0, loc);
    e.ref = site;
    e.peer = (int64_t)(1 - loc);
    e.tag = 1;
    e.size = 8 * (t1 - t0); /* sizes differ per call */
    if (pt_stats_event(s, &e) != PT_OK) abort();
  }
  ev(s, t1, loc, PT_EV_LEAVE, 1);
}
static void call_times_trace(pt_stats *s) {
  def_region(s, 1, "MPI_Send");
  def_site(s, 1, PT_NONE, NULL, "a.c", 10);
  def_site(s, 2, PT_NONE, NULL, "a.c", 20);
  def_loc(s, 0);
  def_loc(s, 1);
  site_call(s, 0, 0, 5, 1);
  site_call(s, 0, 10, 17, 1);
  site_call(s, 0, 20, 50, 1);
  site_call(s, 0, 60, 69, 2);
  site_call(s, 1, 0, 2, 1);
  site_call(s, 1, 100, 140, 1);
  site_call(s, 1, 200, 209, 2);
  site_call(s, 1, 300, 303, PT_NONE);
}
static void check_site(const pt_stats_callsite_row *r, uint64_t site,
                       uint64_t loc, uint64_t calls, uint64_t time,
                       uint64_t mn, uint64_t mx, uint64_t mx_at) {
  ASSERT_TRUE(r != NULL);
  ASSERT_EQ_U64(r->region, 1);
  ASSERT_EQ_U64(r->callsite, site);
  ASSERT_EQ_U64(r->location, loc);
  ASSERT_EQ_U64(r->calls, calls);
  ASSERT_EQ_U64(r->time, time);
  ASSERT_EQ_U64(r->call_min, mn);
  ASSERT_EQ_U64(r->call_max, mx);
  ASSERT_EQ_U64(r->call_max_location, mx_at);
}
TEST(callsite_call_times) {
  pt_stats *s = mk(0, 0, PT_NONE);
  call_times_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  ASSERT_TRUE(t.have & PT_STATS_HAVE_CALL_TIMES);
  /* summed over the locations: by call site, the unknown one last */
  ASSERT_EQ_U64(pt_stats_ncallsites(s), 3);
  check_site(pt_stats_callsite(s, 0), 1, PT_NONE, 5, 84, 2, 40, 1);
  check_site(pt_stats_callsite(s, 1), 2, PT_NONE, 2, 18, 9, 9, 0); /* tie */
  check_site(pt_stats_callsite(s, 2), PT_NONE, PT_NONE, 1, 3, 3, 3, 1);
  ASSERT_EQ_U64(pt_stats_callsite(s, 0)->bytes_min, 16);
  ASSERT_EQ_U64(pt_stats_callsite(s, 0)->bytes_max, 320);
  /* per location */
  ASSERT_EQ_U64(pt_stats_ncallsite_locs(s), 5);
  check_site(pt_stats_callsite_loc(s, 0), 1, 0, 3, 42, 5, 30, 0);
  check_site(pt_stats_callsite_loc(s, 1), 1, 1, 2, 42, 2, 40, 1);
  check_site(pt_stats_callsite_loc(s, 2), 2, 0, 1, 9, 9, 9, 0);
  check_site(pt_stats_callsite_loc(s, 3), 2, 1, 1, 9, 9, 9, 1);
  check_site(pt_stats_callsite_loc(s, 4), PT_NONE, 1, 1, 3, 3, 3, 1);
  ASSERT_EQ_U64(pt_stats_callsite_loc(s, 0)->messages, 3);
  ASSERT_EQ_U64(pt_stats_callsite_loc(s, 0)->bytes_min, 40);
  ASSERT_EQ_U64(pt_stats_callsite_loc(s, 0)->bytes_max, 240);
  ASSERT_EQ_U64(pt_stats_callsite_loc(s, 1)->bytes_min, 16);
  /* a version-8 buffer keeps the rows per location and the extremes */
  void *buf = NULL;
  size_t len = 0;
  pt_stats *d = NULL;
  ASSERT_OK(pt_stats_serialize(s, &buf, &len));
  ASSERT_OK(pt_stats_deserialize(&d, buf, len));
  pt_stats_buffer_free(buf);
  ASSERT_EQ_U64(pt_stats_ncallsite_locs(d), 5);
  for (size_t i = 0; i < 5; i++)
    ASSERT_TRUE(!memcmp(pt_stats_callsite_loc(s, i), pt_stats_callsite_loc(d, i),
                        sizeof(pt_stats_callsite_row)));
  check_site(pt_stats_callsite(d, 0), 1, PT_NONE, 5, 84, 2, 40, 1);
  pt_stats_destroy(d);
  pt_stats_destroy(s);
  /* the window [15, 45): location 0's call [20, 50) counts, cut at 45
   * (25); [10, 17) adds its time in the window (2) but is no call of it */
  s = mk(15, 45, PT_NONE);
  call_times_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_ncallsites(s), 1);
  check_site(pt_stats_callsite(s, 0), 1, PT_NONE, 1, 27, 25, 25, 0);
  ASSERT_EQ_U64(pt_stats_ncallsite_locs(s), 1);
  check_site(pt_stats_callsite_loc(s, 0), 1, 0, 1, 27, 25, 25, 0);
  pt_stats_destroy(s);
}

/* A version-7 buffer (before the rows per location) is still read: its
 * call-site rows summed over the locations, without call times. */
TEST(callsite_deserialize_version_7) {
  pt_stats *s = mk(0, 0, PT_NONE);
  call_times_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  void *buf = NULL;
  size_t len = 0;
  ASSERT_OK(pt_stats_serialize(s, &buf, &len));
  /* rewrite it as version 7: the call-site rows without the location key
   * and the two extremes (3 + 10 words -> 2 + 8), summed per (region,
   * site).  Find the call-site table: its count (5) followed by the first
   * row's key (region 1, site 1, location 0 + 1). */
  unsigned char *b = buf;
  size_t at = SIZE_MAX;
  for (size_t o = 8; o + 32 <= len && at == SIZE_MAX; o += 8) {
    uint64_t w[4];
    memcpy(w, b + o, sizeof w);
    if (w[0] == 5 && w[1] == 1 && w[2] == 1 && w[3] == 1) at = o;
  }
  ASSERT_TRUE(at != SIZE_MAX);
  unsigned char *out = malloc(len);
  ASSERT_TRUE(out != NULL);
  memcpy(out, b, at);
  out[4] = 7;
  size_t n = at;
  uint64_t cnt = 3; /* (1, 1), (1, 2), (1, none) */
  memcpy(out + n, &cnt, 8);
  n += 8;
  for (int site = 0; site < 3; site++) {
    const pt_stats_callsite_row *r = pt_stats_callsite(s, (size_t)site);
    uint64_t w[10] = {r->region, r->callsite, r->calls, r->time, r->messages,
                      r->bytes, r->bytes_min, r->bytes_max, r->received,
                      r->bytes_received};
    memcpy(out + n, w, sizeof w);
    n += sizeof w;
  }
  size_t rest = at + 8 + 5 * 13 * 8;
  /* without version 9's tail: the unmatched messages' count (the 7
   * sends, never received) and their locations and ords; no part,
   * deferral point or deferred message; the collective wait states (1:
   * kept), 2 words: no row, no instance; no deferral overflow */
  enum { TW = 1 + 2 * 7 + 3 + 4 + 1 };
  ASSERT_TRUE(len >= rest + 8 * TW);
  uint64_t tail[TW];
  memcpy(tail, b + len - sizeof tail, sizeof tail);
  ASSERT_EQ_U64(tail[0], 7);
  const uint64_t want[8] = {0, 0, 0, 1, 2, 0, 0, 0};
  ASSERT_TRUE(!memcmp(tail + TW - 8, want, sizeof want));
  memcpy(out + n, b + rest, len - rest - sizeof tail);
  n += len - rest - sizeof tail;
  pt_stats_buffer_free(buf);
  pt_stats *d = NULL;
  ASSERT_OK(pt_stats_deserialize(&d, out, n));
  free(out);
  pt_stats_totals t;
  pt_stats_get_totals(d, &t);
  ASSERT_TRUE(!(t.have & PT_STATS_HAVE_CALL_TIMES));
  ASSERT_EQ_U64(pt_stats_ncallsite_locs(d), 0);
  ASSERT_EQ_U64(pt_stats_ncallsites(d), 3);
  check_site(pt_stats_callsite(d, 0), 1, PT_NONE, 5, 84, 0, 0, PT_NONE);
  ASSERT_EQ_U64(pt_stats_callsite(d, 0)->bytes_max, 320);
  pt_stats_destroy(d);
  pt_stats_destroy(s);
}

/* A barrier moves no message; a broadcast's root sends, the others
 * receive (no 0-byte sends on them). */
TEST(collectives_without_bytes_are_not_messages) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "MPI_Barrier");
  def_region(s, 2, "MPI_Bcast");
  def_loc(s, 0);
  def_loc(s, 1);
  pt_event e;
  for (uint64_t l = 0; l < 2; l++) {
    ev(s, 10 * l, l, PT_EV_ENTER, 1);
    pt_event_init(&e, PT_EV_COLL_END, 10 * l + 1, l);
    ASSERT_OK(pt_stats_event(s, &e));
    ev(s, 10 * l + 2, l, PT_EV_LEAVE, 1);
    ev(s, 100 + 10 * l, l, PT_EV_ENTER, 2);
    pt_event_init(&e, PT_EV_COLL_END, 100 + 10 * l + 1, l);
    e.size = l == 0 ? 64 : 0;
    e.size2 = l == 0 ? 0 : 64;
    ASSERT_OK(pt_stats_event(s, &e));
    ev(s, 100 + 10 * l + 2, l, PT_EV_LEAVE, 2);
  }
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_ncallsites(s), 2);
  const pt_stats_callsite_row *c = pt_stats_callsite(s, 0);
  ASSERT_EQ_U64(c->region, 1);
  ASSERT_EQ_U64(c->calls, 2);
  ASSERT_EQ_U64(c->messages, 0);
  ASSERT_EQ_U64(c->received, 0);
  c = pt_stats_callsite(s, 1);
  ASSERT_EQ_U64(c->region, 2);
  ASSERT_EQ_U64(c->messages, 1);
  ASSERT_EQ_U64(c->bytes, 64);
  ASSERT_EQ_U64(c->bytes_min, 64);
  ASSERT_EQ_U64(c->received, 1);
  ASSERT_EQ_U64(c->bytes_received, 64);
  pt_stats_destroy(s);
}

/* One-sided operations at their origin: a put sends, a get receives, a
 * fetching atomic both; in the matrix the data's direction; merged halves
 * (one serialized) equal one pass. */
static void rma_ev(pt_stats *s, uint64_t t, uint64_t loc, uint32_t kind,
                   int64_t target, uint64_t sent, uint64_t recvd) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = 1; /* window */
  e.peer = target;
  e.comm = 2;
  e.size = sent;
  e.size2 = recvd;
  if (pt_stats_event(s, &e) != PT_OK) abort();
}
static void rma_trace(pt_stats *s) {
  def_region(s, 1, "MPI_Put");
  def_region(s, 2, "MPI_Get");
  def_region(s, 3, "MPI_Fetch_and_op");
  def_region(s, 4, "MPI_Send");
  for (uint64_t l = 0; l < 3; l++) def_loc(s, l);
  ev(s, 10, 0, PT_EV_ENTER, 1);
  rma_ev(s, 11, 0, PT_EV_RMA_PUT, 1, 12, 0);
  ev(s, 12, 0, PT_EV_LEAVE, 1);
  ev(s, 20, 0, PT_EV_ENTER, 1);
  rma_ev(s, 21, 0, PT_EV_RMA_PUT, 2, 30, 0);
  ev(s, 22, 0, PT_EV_LEAVE, 1);
  ev(s, 30, 1, PT_EV_ENTER, 2);
  rma_ev(s, 31, 1, PT_EV_RMA_GET, 0, 0, 40);
  ev(s, 32, 1, PT_EV_LEAVE, 2);
  ev(s, 40, 2, PT_EV_ENTER, 3);
  rma_ev(s, 41, 2, PT_EV_RMA_ATOMIC, 0, 8, 8);
  ev(s, 42, 2, PT_EV_LEAVE, 3);
  ev(s, 50, 0, PT_EV_ENTER, 4);
  msg(s, 51, 0, PT_EV_SEND, 1, 5, 100);
  ev(s, 52, 0, PT_EV_LEAVE, 4);
  ev(s, 53, 1, PT_EV_ENTER, 4); /* (a receive, to match the send) */
  msg(s, 54, 1, PT_EV_RECV, 0, 5, 100);
  ev(s, 55, 1, PT_EV_LEAVE, 4);
}
static const pt_stats_message_row *find_mx(const pt_stats *s, uint64_t from,
                                           uint64_t to) {
  for (size_t i = 0; i < pt_stats_nmessages(s); i++) {
    const pt_stats_message_row *m = pt_stats_message(s, i);
    if (m->sender == from && m->receiver == to) return m;
  }
  return NULL;
}
TEST(one_sided_operations) {
  pt_stats *s = mk(0, 0, PT_NONE);
  rma_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  uint64_t want[][7] = {/* region, messages, bytes, received, bytes,
                           smallest and largest sent */
                        {1, 2, 42, 0, 0, 12, 30},
                        {2, 0, 0, 1, 40, 0, 0},
                        {3, 1, 8, 1, 8, 8, 8}};
  for (size_t w = 0; w < 3; w++) {
    const pt_stats_callsite_row *c = NULL;
    for (size_t i = 0; i < pt_stats_ncallsites(s); i++)
      if (pt_stats_callsite(s, i)->region == want[w][0])
        c = pt_stats_callsite(s, i);
    ASSERT_TRUE(c != NULL);
    ASSERT_EQ_U64(c->messages, want[w][1]);
    ASSERT_EQ_U64(c->bytes, want[w][2]);
    ASSERT_EQ_U64(c->received, want[w][3]);
    ASSERT_EQ_U64(c->bytes_received, want[w][4]);
    ASSERT_EQ_U64(c->bytes_min, want[w][5]);
    ASSERT_EQ_U64(c->bytes_max, want[w][6]);
  }
  /* the matrix: 0 -> 1 the put and the send (one matched, not late);
   * 0 -> 2 a put; 0 -> 1 also what 1 got from 0; 2 -> 0 and 0 -> 2 the
   * atomic's two parts */
  const pt_stats_message_row *m = find_mx(s, 0, 1);
  ASSERT_TRUE(m != NULL);
  ASSERT_EQ_U64(m->count, 3);
  ASSERT_EQ_U64(m->bytes, 12 + 100 + 40);
  ASSERT_EQ_U64(m->matched, 1);
  m = find_mx(s, 0, 2);
  ASSERT_TRUE(m != NULL);
  ASSERT_EQ_U64(m->count, 2);
  ASSERT_EQ_U64(m->bytes, 30 + 8);
  m = find_mx(s, 2, 0);
  ASSERT_TRUE(m != NULL);
  ASSERT_EQ_U64(m->count, 1);
  ASSERT_EQ_U64(m->bytes, 8);
  ASSERT_TRUE(find_mx(s, 1, 0) == NULL);
  ASSERT_EQ_U64(pt_stats_nmessages(s), 3);
  /* locations: at the origin */
  const pt_stats_location_row *l = pt_stats_location(s, 0);
  ASSERT_EQ_U64(l->sent, 3);
  ASSERT_EQ_U64(l->bytes_sent, 142);
  ASSERT_EQ_U64(l->received, 0);
  l = pt_stats_location(s, 1);
  ASSERT_EQ_U64(l->received, 2);
  ASSERT_EQ_U64(l->bytes_received, 140);
  l = pt_stats_location(s, 2);
  ASSERT_EQ_U64(l->sent, 1);
  ASSERT_EQ_U64(l->bytes_sent, 8);
  ASSERT_EQ_U64(l->received, 1);
  ASSERT_EQ_U64(l->bytes_received, 8);
  /* halves by location, one through the serialized form */
  uint64_t a[] = {0}, b[] = {1, 2};
  pt_stats_opts o = {0};
  o.locations = a;
  o.nlocations = 1;
  pt_stats *h1 = NULL, *h2 = NULL, *h2b = NULL;
  ASSERT_OK(pt_stats_create(&h1, &o));
  rma_trace(h1);
  ASSERT_OK(pt_stats_finish(h1));
  o.locations = b;
  o.nlocations = 2;
  ASSERT_OK(pt_stats_create(&h2, &o));
  rma_trace(h2);
  ASSERT_OK(pt_stats_finish(h2));
  void *buf = NULL;
  size_t len = 0;
  ASSERT_OK(pt_stats_serialize(h2, &buf, &len));
  ASSERT_OK(pt_stats_deserialize(&h2b, buf, len));
  /* a peer-total row whose one-sided flag is neither 0 nor 1 is refused:
   * the row (location 2, target 0, 1) with 1 op / 8 bytes each way */
  const uint64_t row[7] = {2, 0, 1, 1, 8, 1, 8};
  unsigned char *p = buf;
  size_t at = SIZE_MAX;
  for (size_t off = 0; off + sizeof row <= len && at == SIZE_MAX; off += 8) {
    uint64_t w[7];
    for (int j = 0; j < 7; j++) {
      w[j] = 0;
      for (int q = 0; q < 8; q++)
        w[j] |= (uint64_t)p[off + 8 * (size_t)j + (size_t)q] << (8 * q);
    }
    if (memcmp(w, row, sizeof row) == 0) at = off;
  }
  ASSERT_TRUE(at != SIZE_MAX);
  p[at + 16] = 2;
  pt_stats *bad = NULL;
  ASSERT_STATUS(pt_stats_deserialize(&bad, buf, len), PT_ECORRUPT);
  ASSERT_TRUE(bad == NULL);
  pt_stats_buffer_free(buf);
  ASSERT_OK(pt_stats_merge(h1, h2b));
  ASSERT_EQ_U64(pt_stats_nmessages(h1), pt_stats_nmessages(s));
  for (size_t i = 0; i < pt_stats_nmessages(s); i++) {
    const pt_stats_message_row *x = pt_stats_message(s, i),
                               *y = pt_stats_message(h1, i);
    ASSERT_EQ_U64(x->sender, y->sender);
    ASSERT_EQ_U64(x->receiver, y->receiver);
    ASSERT_EQ_U64(x->count, y->count);
    ASSERT_EQ_U64(x->bytes, y->bytes);
    ASSERT_EQ_U64(x->matched, y->matched);
  }
  for (size_t i = 0; i < 3; i++) {
    const pt_stats_location_row *x = pt_stats_location(s, i),
                                *y = pt_stats_location(h1, i);
    ASSERT_EQ_U64(x->bytes_sent, y->bytes_sent);
    ASSERT_EQ_U64(x->bytes_received, y->bytes_received);
  }
  pt_stats_destroy(h2b);
  pt_stats_destroy(h2);
  pt_stats_destroy(h1);
  pt_stats_destroy(s);
}

TEST(app_time_as_mpip) {
  for (int with_prog = 1; with_prog >= 0; with_prog--) {
    pt_stats *s = mk(0, 0, PT_NONE);
    mpip_trace(s, with_prog);
    ASSERT_OK(pt_stats_finish(s));
    pt_stats_totals t;
    pt_stats_get_totals(s, &t);
    ASSERT_EQ_U64(t.app_def, with_prog ? PT_STATS_APP_PROGRAM
                                       : PT_STATS_APP_INIT_FINALIZE);
    ASSERT_EQ_U64(t.app_region, with_prog ? 11 : PT_NONE);
    /* 300 + 300 from the end of MPI_Init to the start of MPI_Finalize,
     * 30 for the thread (time in regions); MPI: 10 + 10 + 30 */
    ASSERT_EQ_U64(t.app_time, 630);
    ASSERT_EQ_U64(t.mpi_time, 50);
    const pt_stats_location_row *l1 = pt_stats_location(s, 1);
    ASSERT_EQ_U64(l1->app_time, 300);
    ASSERT_EQ_U64(l1->mpi_time, 10);
    /* MPI_Init and MPI_Finalize stay in the flat profile */
    ASSERT_EQ_U64(find_region(s, 10)->incl, 200);
    ASSERT_EQ_U64(find_region(s, 13)->count, 2);
    /* a window: [300, 415) holds 100 + 115 of the spans, no MPI call */
    pt_stats *w = mk(300, 415, PT_NONE);
    mpip_trace(w, with_prog);
    ASSERT_OK(pt_stats_finish(w));
    pt_stats_get_totals(w, &t);
    ASSERT_EQ_U64(t.app_time, 215);
    ASSERT_EQ_U64(t.mpi_time, 0);
    /* merged halves (one through the serialized form) give the same */
    for (int half = 0; half < 2; half++) {
      uint64_t a[2] = {0, 2}, b[1] = {1};
      pt_stats_opts o = {0};
      o.relative_to = PT_NONE;
      o.end = 430;
      o.locations = half ? b : a;
      o.nlocations = half ? 1 : 2;
      pt_stats *h1 = NULL, *h2 = NULL, *h3 = NULL;
      ASSERT_OK(pt_stats_create(&h1, &o));
      mpip_trace(h1, with_prog);
      ASSERT_OK(pt_stats_finish(h1));
      o.locations = half ? a : b;
      o.nlocations = half ? 2 : 1;
      ASSERT_OK(pt_stats_create(&h2, &o));
      mpip_trace(h2, with_prog);
      ASSERT_OK(pt_stats_finish(h2));
      void *buf = NULL;
      size_t len = 0;
      ASSERT_OK(pt_stats_serialize(h2, &buf, &len));
      ASSERT_OK(pt_stats_deserialize(&h3, buf, len));
      pt_stats_buffer_free(buf);
      ASSERT_OK(pt_stats_merge(h1, h3));
      pt_stats_totals m;
      pt_stats_get_totals(h1, &m);
      ASSERT_EQ_U64(m.app_def, with_prog ? PT_STATS_APP_PROGRAM
                                         : PT_STATS_APP_INIT_FINALIZE);
      ASSERT_EQ_U64(m.app_time, 630);
      ASSERT_EQ_U64(m.mpi_time, 50);
      pt_stats_destroy(h1);
      pt_stats_destroy(h2);
      pt_stats_destroy(h3);
    }
    pt_stats_destroy(w);
    pt_stats_destroy(s);
  }
  /* without MPI_Init: time inside any region, as before */
  pt_stats *s = mk(0, 0, PT_NONE);
  nest_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  ASSERT_EQ_U64(t.app_def, PT_STATS_APP_REGIONS);
  ASSERT_EQ_U64(t.app_region, PT_NONE);
  ASSERT_EQ_U64(t.app_time, 100);
  pt_stats_destroy(s);
}

TEST(bad_options) {
  pt_stats *s = NULL;
  pt_stats_opts o = {0};
  o.from = 10;
  o.to = 5;
  ASSERT_STATUS(pt_stats_create(&s, &o), PT_EINVAL);
  ASSERT_TRUE(s == NULL);
  pt_stats_destroy(NULL);
}

/* ---- generated traces -------------------------------------------------------- */

/* Two objects equal in every row. */
static int same_stats(const pt_stats *a, const pt_stats *b, int detail) {
  if (pt_stats_nregion_locs(a) != pt_stats_nregion_locs(b)) return 0;
  for (size_t i = 0; i < pt_stats_nregion_locs(a); i++) {
    const pt_stats_region_loc_row *x = pt_stats_region_loc(a, i),
                                  *y = pt_stats_region_loc(b, i);
    if (x->location != y->location || x->region != y->region ||
        x->count != y->count || x->incl != y->incl || x->excl != y->excl)
      return 0;
    if (detail && (x->visit_min != y->visit_min || x->visit_max != y->visit_max))
      return 0;
  }
  if (pt_stats_nregions(a) != pt_stats_nregions(b)) return 0;
  for (size_t i = 0; i < pt_stats_nregions(a); i++) {
    const pt_stats_region_row *x = pt_stats_region(a, i), *y = pt_stats_region(b, i);
    if (x->region != y->region || x->incl_max_location != y->incl_max_location ||
        x->imbalance != y->imbalance || x->excl_min != y->excl_min)
      return 0;
  }
  if (pt_stats_nlocations(a) != pt_stats_nlocations(b)) return 0;
  for (size_t i = 0; i < pt_stats_nlocations(a); i++)
    if (memcmp(pt_stats_location(a, i), pt_stats_location(b, i),
               sizeof(pt_stats_location_row)))
      return 0;
  if (pt_stats_nmessages(a) != pt_stats_nmessages(b)) return 0;
  for (size_t i = 0; i < pt_stats_nmessages(a); i++) {
    const pt_stats_message_row *x = pt_stats_message(a, i), *y = pt_stats_message(b, i);
    if (x->sender != y->sender || x->receiver != y->receiver ||
        x->count != y->count || x->bytes != y->bytes)
      return 0;
    if (detail && (x->late_sender != y->late_sender ||
                   x->late_receiver != y->late_receiver || x->matched != y->matched))
      return 0;
  }
  if (detail) {
    if (pt_stats_ncallsites(a) != pt_stats_ncallsites(b)) return 0;
    for (size_t i = 0; i < pt_stats_ncallsites(a); i++)
      if (memcmp(pt_stats_callsite(a, i), pt_stats_callsite(b, i),
                 sizeof(pt_stats_callsite_row)))
        return 0;
    if (pt_stats_nrelative(a) != pt_stats_nrelative(b)) return 0;
    for (size_t i = 0; i < pt_stats_nrelative(a); i++)
      if (memcmp(pt_stats_relative(a, i), pt_stats_relative(b, i),
                 sizeof(pt_stats_relative_row)))
        return 0;
  }
  pt_stats_totals ta, tb;
  pt_stats_get_totals(a, &ta);
  pt_stats_get_totals(b, &tb);
  return ta.app_time == tb.app_time && ta.mpi_time == tb.mpi_time &&
         (!detail || (ta.events == tb.events &&
                      ta.relative_time == tb.relative_time));
}

/* The per-visit extremes of two objects are equal. */
static int same_visits(const pt_stats *a, const pt_stats *b) {
  if (pt_stats_nregion_locs(a) != pt_stats_nregion_locs(b) ||
      pt_stats_nregions(a) != pt_stats_nregions(b))
    return 0;
  for (size_t i = 0; i < pt_stats_nregion_locs(a); i++) {
    const pt_stats_region_loc_row *x = pt_stats_region_loc(a, i),
                                  *y = pt_stats_region_loc(b, i);
    if (x->visit_min != y->visit_min || x->visit_max != y->visit_max) return 0;
  }
  for (size_t i = 0; i < pt_stats_nregions(a); i++) {
    const pt_stats_region_row *x = pt_stats_region(a, i), *y = pt_stats_region(b, i);
    if (x->visit_min != y->visit_min || x->visit_max != y->visit_max) return 0;
  }
  return 1;
}

/* The call-site tables of two objects are equal: summed over the
 * locations and per location, per-call time extremes included. */
static int same_callsites(const pt_stats *a, const pt_stats *b) {
  if (pt_stats_ncallsites(a) != pt_stats_ncallsites(b)) return 0;
  for (size_t i = 0; i < pt_stats_ncallsites(a); i++)
    if (memcmp(pt_stats_callsite(a, i), pt_stats_callsite(b, i),
               sizeof(pt_stats_callsite_row)))
      return 0;
  if (pt_stats_ncallsite_locs(a) != pt_stats_ncallsite_locs(b)) return 0;
  for (size_t i = 0; i < pt_stats_ncallsite_locs(a); i++)
    if (memcmp(pt_stats_callsite_loc(a, i), pt_stats_callsite_loc(b, i),
               sizeof(pt_stats_callsite_row)))
      return 0;
  return 1;
}

static uint64_t gen_end(pt_gen *g) {
  for (size_t i = 0; i < pt_gen_ndefs(g); i++)
    if (pt_gen_def(g, i)->kind == PT_DEF_CLOCK) return (uint64_t)pt_gen_def(g, i)->i2;
  return 0;
}

/* Feed a generated trace (location by location: the engine only needs
 * per-location order) into s. */
static void feed_gen(pt_stats *s, pt_gen *g, uint64_t nloc) {
  for (size_t i = 0; i < pt_gen_ndefs(g); i++)
    if (pt_stats_def(s, pt_gen_def(g, i)) != PT_OK) abort();
  for (uint64_t loc = 0; loc < nloc; loc++) {
    pt_gen_rewind(g, loc);
    pt_event e;
    while (pt_gen_next(g, loc, &e) == PT_OK)
      if (pt_stats_event(s, &e) != PT_OK) abort();
  }
}

TEST(merge_of_halves_equals_one_pass) {
  pt_gen *g = NULL;
  pt_gen_opts go = {.locations = 6, .events = 3000, .seed = 42, .msg_every = 20};
  ASSERT_OK(pt_gen_create(&g, &go));
  uint64_t end = gen_end(g);
  ASSERT_TRUE(end > 0);
  uint64_t wins[3][2] = {{0, 0}, {end / 5, end / 2}, {end / 3, end / 3 + 12345}};
  for (int w = 0; w < 3; w++) {
    pt_stats_opts o = {0};
    o.from = wins[w][0];
    o.to = wins[w][1];
    o.end = end;
    o.relative_to = 3;
    pt_stats *all = NULL, *h1 = NULL, *h2 = NULL;
    ASSERT_OK(pt_stats_create(&all, &o));
    feed_gen(all, g, 6);
    ASSERT_OK(pt_stats_finish(all));
    uint64_t a[] = {0, 2, 4}, b[] = {1, 3, 5};
    o.locations = a;
    o.nlocations = 3;
    ASSERT_OK(pt_stats_create(&h1, &o));
    feed_gen(h1, g, 6);
    ASSERT_OK(pt_stats_finish(h1));
    o.locations = b;
    ASSERT_OK(pt_stats_create(&h2, &o));
    feed_gen(h2, g, 6);
    ASSERT_OK(pt_stats_finish(h2));
    /* as over MPI: h2 travels as bytes */
    void *buf = NULL;
    size_t len = 0;
    pt_stats *h2b = NULL;
    ASSERT_OK(pt_stats_serialize(h2, &buf, &len));
    ASSERT_OK(pt_stats_deserialize(&h2b, buf, len));
    if (w == 1) { /* every truncation and a flipped byte fail cleanly */
      for (size_t cut = 0; cut < len; cut += 1 + cut / 64) {
        pt_stats *bad = NULL;
        ASSERT_TRUE(pt_stats_deserialize(&bad, buf, cut) < 0);
        ASSERT_TRUE(bad == NULL);
      }
      ((unsigned char *)buf)[4] ^= 0x40;
      pt_stats *bad = NULL;
      ASSERT_STATUS(pt_stats_deserialize(&bad, buf, len), PT_EVERSION);
    }
    pt_stats_buffer_free(buf);
    ASSERT_OK(pt_stats_merge(h1, h2b));
    pt_stats_destroy(h2b);
    if (w == 0) ASSERT_TRUE(pt_stats_nmessages(all) > 0);
    ASSERT_TRUE(same_stats(all, h1, 1));
    ASSERT_TRUE(same_callsites(all, h1));
    pt_stats_destroy(all);
    pt_stats_destroy(h1);
    pt_stats_destroy(h2);
  }
  pt_gen_destroy(g);
}

/* Write a generated trace as a PTF archive, one stream per location. */
static int write_ptf(const char *path, pt_gen *g, uint64_t nloc) {
  pt_writer *w = NULL;
  if (pt_writer_open(&w, path, NULL, NULL) != PT_OK) return -1;
  for (size_t i = 0; i < pt_gen_ndefs(g); i++)
    if (pt_writer_def(w, pt_gen_def(g, i)) != PT_OK) return -1;
  for (uint64_t loc = 0; loc < nloc; loc++) {
    pt_stream *st = NULL;
    if (pt_writer_stream(w, loc, &st) != PT_OK) return -1;
    pt_gen_rewind(g, loc);
    pt_event e;
    while (pt_gen_next(g, loc, &e) == PT_OK)
      if (pt_stream_event(st, &e) != PT_OK) return -1;
  }
  return pt_writer_close(w, NULL) == PT_OK ? 0 : -1;
}

static pt_stats *full_scan(const char *path, const pt_stats_opts *o) {
  pt_reader *r = NULL;
  if (pt_reader_open(&r, path, NULL, NULL) != PT_OK) return NULL;
  pt_stats *s = NULL;
  if (pt_stats_create(&s, o) != PT_OK) abort();
  for (size_t i = 0; i < pt_reader_ndefs(r); i++) pt_stats_def(s, pt_reader_def(r, i));
  pt_event e;
  while (pt_reader_next(r, &e) == PT_OK)
    if (pt_stats_event(s, &e) != PT_OK) abort();
  pt_reader_close(r);
  if (pt_stats_finish(s) != PT_OK) abort();
  return s;
}

/* The same through pt_reader_next_run and pt_stats_run. */
static pt_stats *run_scan(const char *path, const pt_stats_opts *o) {
  pt_reader *r = NULL;
  if (pt_reader_open(&r, path, NULL, NULL) != PT_OK) return NULL;
  pt_stats *s = NULL;
  if (pt_stats_create(&s, o) != PT_OK) abort();
  for (size_t i = 0; i < pt_reader_ndefs(r); i++) pt_stats_def(s, pt_reader_def(r, i));
  pt_event_run run;
  size_t maxrun = 0;
  while (pt_reader_next_run(r, &run) == PT_OK) {
    int rc = pt_stats_run(s, &run);
    if (rc != PT_OK) {
      fprintf(stderr, "pt_stats_run: %s\n", pt_strerror(rc));
      abort();
    }
    if (run.n > maxrun) maxrun = run.n;
  }
  pt_reader_close(r);
  if (pt_stats_finish(s) != PT_OK) abort();
  if (maxrun < 4) abort(); /* runs are longer than single events */
  return s;
}

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Runs of one location at a time give the statistics of the time-ordered
 * merge, whatever the options. */
TEST(runs_equal_merged_events) {
  char *dir = test_tmpdir("runs");
  char path[4200];
  snprintf(path, sizeof path, "%s/g.ptf", dir);
  pt_gen *g = NULL;
  pt_gen_opts go = {.locations = 5, .events = 20000, .seed = 11, .msg_every = 7};
  ASSERT_OK(pt_gen_create(&g, &go));
  uint64_t end = gen_end(g);
  ASSERT_TRUE(write_ptf(path, g, 5) == 0);
  pt_gen_destroy(g);
  uint64_t seed = 99;
  for (int k = 0; k < 12; k++) {
    pt_stats_opts o = {0};
    o.relative_to = PT_NONE;
    if (k % 2) {
      o.from = rnd(&seed) % end;
      o.to = o.from + rnd(&seed) % (end / 2) + 1;
    }
    if (k % 3 == 1) o.relative_to = 1 + rnd(&seed) % 4;
    if (k % 4 == 2) o.matrix_by = PT_STATS_BY_TAG;
    uint64_t sel[] = {0, 3};
    if (k % 5 == 4) {
      o.locations = sel;
      o.nlocations = 2;
    }
    pt_stats *a = full_scan(path, &o), *b = run_scan(path, &o);
    ASSERT_TRUE(a && b);
    pt_stats_totals ta, tb;
    pt_stats_get_totals(a, &ta);
    pt_stats_get_totals(b, &tb);
    if (k == 0) ASSERT_TRUE(pt_stats_nmessages(a) > 0 && ta.events > 0);
    if (!same_stats(a, b, 1) || memcmp(&ta, &tb, sizeof ta))
      TEST_FAIL_("options %d: runs differ from merged events", k);
    pt_stats_destroy(a);
    pt_stats_destroy(b);
  }
  char cmd[4300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) abort();
  free(dir);
}

/* The message matrices' late sender / receiver and matched counts. */
static int same_late(const pt_stats *a, const pt_stats *b) {
  if (pt_stats_nmessages(a) != pt_stats_nmessages(b)) return 0;
  for (size_t i = 0; i < pt_stats_nmessages(a); i++) {
    const pt_stats_message_row *x = pt_stats_message(a, i), *y = pt_stats_message(b, i);
    if (x->sender != y->sender || x->receiver != y->receiver ||
        x->late_sender != y->late_sender ||
        x->late_receiver != y->late_receiver || x->matched != y->matched)
      return 0;
  }
  return 1;
}

/* ---- metrics ------------------------------------------------------------ */

static void def_metric(pt_stats *s, uint64_t id, const char *name,
                       const char *unit, uint32_t type, uint32_t mode) {
  pt_def d;
  pt_def_init(&d, PT_DEF_METRIC, id);
  d.ref = PT_NONE;
  d.i0 = type;
  d.i1 = mode;
  d.name = name;
  d.s1 = unit;
  if (pt_stats_def(s, &d) != PT_OK) abort();
}
static void sample(pt_stats *s, uint64_t t, uint64_t loc, uint64_t metric,
                   uint32_t type, double v) {
  pt_event e;
  pt_event_init(&e, PT_EV_METRIC, t, loc);
  e.ref = metric;
  e.value.type = type;
  if (type == PT_TYPE_UINT) e.value.v.u = (uint64_t)v;
  else if (type == PT_TYPE_INT) e.value.v.i = (int64_t)v;
  else e.value.v.d = v;
  if (pt_stats_event(s, &e) != PT_OK) abort();
}

/* loc 0: A [0,100) containing B [10,30) and B [40,45), an accumulated
 * counter (0, "ins") sampled at every enter and leave, after the event
 * (as OTF2 writes it) at 0, 30 and 100 and before it at 10, 40 and 45;
 * loc 5, a metric location: a gauge (1, "power", W) and a relative
 * counter (2, "rel").  Locations: only those in `only` (PT_NONE: all). */
static void metric_trace(pt_stats *s, uint64_t only) {
  def_region(s, 1, "A");
  def_region(s, 2, "B");
  def_loc(s, 0);
  def_loc(s, 5);
  def_metric(s, 0, "ins", "#", PT_TYPE_UINT, PT_METRIC_ACCUMULATED);
  def_metric(s, 1, "power", "W", PT_TYPE_DOUBLE, PT_METRIC_ABSOLUTE);
  def_metric(s, 2, "rel", NULL, PT_TYPE_INT, PT_METRIC_RELATIVE);
  if (only == PT_NONE || only == 0) {
    ev(s, 0, 0, PT_EV_ENTER, 1);
    sample(s, 0, 0, 0, PT_TYPE_UINT, 100);
    sample(s, 10, 0, 0, PT_TYPE_UINT, 150);
    ev(s, 10, 0, PT_EV_ENTER, 2);
    ev(s, 30, 0, PT_EV_LEAVE, 2);
    sample(s, 30, 0, 0, PT_TYPE_UINT, 350);
    sample(s, 40, 0, 0, PT_TYPE_UINT, 400);
    ev(s, 40, 0, PT_EV_ENTER, 2);
    sample(s, 45, 0, 0, PT_TYPE_UINT, 450);
    ev(s, 45, 0, PT_EV_LEAVE, 2);
    ev(s, 100, 0, PT_EV_LEAVE, 1);
    sample(s, 100, 0, 0, PT_TYPE_UINT, 1100);
  }
  if (only == PT_NONE || only == 5) {
    sample(s, 20, 5, 1, PT_TYPE_DOUBLE, 10.5);
    sample(s, 20, 5, 2, PT_TYPE_INT, 3);
    sample(s, 60, 5, 1, PT_TYPE_DOUBLE, 20.5);
    sample(s, 60, 5, 2, PT_TYPE_INT, 4);
    sample(s, 90, 5, 1, PT_TYPE_DOUBLE, 15);
  }
}

static const pt_stats_metric_row *find_metric(const pt_stats *s, uint64_t m) {
  for (size_t i = 0; i < pt_stats_nmetrics(s); i++)
    if (pt_stats_metric(s, i)->metric == m) return pt_stats_metric(s, i);
  return NULL;
}

/* Same metric rows (exactly); regions too when `regions`. */
static int same_metrics(const pt_stats *a, const pt_stats *b, int regions) {
  if (pt_stats_nmetrics(a) != pt_stats_nmetrics(b) ||
      pt_stats_nmetric_locs(a) != pt_stats_nmetric_locs(b))
    return 0;
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < (k ? pt_stats_nmetric_locs(a) : pt_stats_nmetrics(a));
         i++) {
      const pt_stats_metric_row *x = k ? pt_stats_metric_loc(a, i)
                                       : pt_stats_metric(a, i),
                                *y = k ? pt_stats_metric_loc(b, i)
                                       : pt_stats_metric(b, i);
      if (x->metric != y->metric || x->location != y->location ||
          strcmp(x->name, y->name) || strcmp(x->unit, y->unit) ||
          x->type != y->type || x->mode != y->mode ||
          x->samples != y->samples || x->locations != y->locations ||
          x->min != y->min || x->max != y->max || x->mean != y->mean ||
          x->min_location != y->min_location ||
          x->max_location != y->max_location ||
          x->first_time != y->first_time || x->last_time != y->last_time ||
          x->increase != y->increase)
        return 0;
    }
  if (!regions) return 1;
  if (pt_stats_nmetric_regions(a) != pt_stats_nmetric_regions(b)) return 0;
  for (size_t i = 0; i < pt_stats_nmetric_regions(a); i++) {
    const pt_stats_metric_region_row *x = pt_stats_metric_region(a, i),
                                     *y = pt_stats_metric_region(b, i);
    if (x->metric != y->metric || x->region != y->region ||
        x->visits != y->visits || x->delta != y->delta ||
        x->per_visit_min != y->per_visit_min ||
        x->per_visit_max != y->per_visit_max)
      return 0;
  }
  return 1;
}

TEST(metrics_gauges_and_counters) {
  pt_stats *s = mk(0, 0, PT_NONE);
  metric_trace(s, PT_NONE);
  ASSERT_OK(pt_stats_finish(s));
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  ASSERT_TRUE(t.have & PT_STATS_HAVE_METRIC_REGIONS);
  ASSERT_EQ_U64(pt_stats_nmetrics(s), 3);
  const pt_stats_metric_row *m = pt_stats_metric(s, 0);
  ASSERT_EQ_U64(m->metric, 0);
  ASSERT_EQ_STR(m->name, "ins");
  ASSERT_EQ_STR(m->unit, "#");
  ASSERT_EQ_U64(m->type, PT_TYPE_UINT);
  ASSERT_EQ_U64(m->mode, PT_METRIC_ACCUMULATED);
  ASSERT_EQ_U64(m->location, PT_NONE);
  ASSERT_EQ_U64(m->samples, 6);
  ASSERT_EQ_U64(m->locations, 1);
  ASSERT_EQ_DBL(m->min, 100);
  ASSERT_EQ_DBL(m->max, 1100);
  ASSERT_EQ_DBL(m->mean, 425);
  ASSERT_EQ_DBL(m->increase, 1000);
  ASSERT_EQ_U64(m->first_time, 0);
  ASSERT_EQ_U64(m->last_time, 100);
  m = pt_stats_metric(s, 1); /* a gauge of the metric location */
  ASSERT_EQ_STR(m->name, "power");
  ASSERT_EQ_STR(m->unit, "W");
  ASSERT_EQ_U64(m->samples, 3);
  ASSERT_EQ_DBL(m->min, 10.5);
  ASSERT_EQ_DBL(m->max, 20.5);
  ASSERT_EQ_DBL(m->mean, 46.0 / 3);
  ASSERT_EQ_DBL(m->increase, 0);
  ASSERT_EQ_U64(m->min_location, 5);
  ASSERT_EQ_U64(m->max_location, 5);
  m = pt_stats_metric(s, 2); /* relative: the increase is the sum */
  ASSERT_EQ_STR(m->unit, "");
  ASSERT_EQ_U64(m->mode, PT_METRIC_RELATIVE);
  ASSERT_EQ_DBL(m->increase, 7);
  ASSERT_EQ_U64(pt_stats_nmetric_locs(s), 3);
  ASSERT_EQ_U64(pt_stats_metric_loc(s, 1)->location, 5);
  /* per region: A 1100 - 100; B (350 - 150) + (450 - 400) */
  ASSERT_EQ_U64(pt_stats_nmetric_regions(s), 2);
  const pt_stats_metric_region_row *r = pt_stats_metric_region(s, 0);
  ASSERT_EQ_U64(r->metric, 0);
  ASSERT_EQ_U64(r->region, 1);
  ASSERT_EQ_U64(r->visits, 1);
  ASSERT_EQ_DBL(r->delta, 1000);
  r = pt_stats_metric_region(s, 1);
  ASSERT_EQ_U64(r->region, 2);
  ASSERT_EQ_U64(r->visits, 2);
  ASSERT_EQ_DBL(r->delta, 250);
  ASSERT_EQ_DBL(r->per_visit_min, 50);
  ASSERT_EQ_DBL(r->per_visit_max, 200);
  pt_stats_destroy(s);

  /* two metric locations: min / max where they were sampled */
  s = mk(0, 0, PT_NONE);
  def_metric(s, 7, "temp", "C", PT_TYPE_INT, PT_METRIC_ABSOLUTE);
  sample(s, 1, 3, 7, PT_TYPE_INT, 40);
  sample(s, 1, 2, 7, PT_TYPE_INT, 40);
  sample(s, 2, 2, 7, PT_TYPE_INT, 50);
  sample(s, 2, 3, 7, PT_TYPE_INT, -5);
  ASSERT_OK(pt_stats_finish(s));
  m = find_metric(s, 7);
  ASSERT_TRUE(m != NULL);
  ASSERT_EQ_U64(m->samples, 4);
  ASSERT_EQ_U64(m->locations, 2);
  ASSERT_EQ_DBL(m->min, -5);
  ASSERT_EQ_U64(m->min_location, 3);
  ASSERT_EQ_DBL(m->max, 50);
  ASSERT_EQ_U64(m->max_location, 2);
  ASSERT_EQ_DBL(m->mean, 31.25);
  ASSERT_EQ_U64(pt_stats_nmetric_regions(s), 0);
  pt_stats_destroy(s);
}

TEST(metrics_window) {
  /* [35, 95): samples at 40, 45 (ins), 60 (power, rel), 90 (power); the
   * B visit [40, 45] is the only one entered and left inside */
  pt_stats *s = mk(35, 95, PT_NONE);
  metric_trace(s, PT_NONE);
  ASSERT_OK(pt_stats_finish(s));
  const pt_stats_metric_row *m = find_metric(s, 0);
  ASSERT_TRUE(m != NULL);
  ASSERT_EQ_U64(m->samples, 2);
  ASSERT_EQ_DBL(m->increase, 50);
  ASSERT_EQ_DBL(m->mean, 425);
  ASSERT_EQ_U64(m->first_time, 40);
  ASSERT_EQ_U64(m->last_time, 45);
  ASSERT_EQ_U64(find_metric(s, 1)->samples, 2);
  ASSERT_EQ_DBL(find_metric(s, 1)->mean, 17.75);
  ASSERT_EQ_DBL(find_metric(s, 2)->increase, 4);
  ASSERT_EQ_U64(pt_stats_nmetric_regions(s), 1);
  ASSERT_EQ_U64(pt_stats_metric_region(s, 0)->region, 2);
  ASSERT_EQ_DBL(pt_stats_metric_region(s, 0)->delta, 50);
  pt_stats_destroy(s);
  /* [0, 45): the second B visit ends at the edge; its leave sample is out */
  s = mk(0, 45, PT_NONE);
  metric_trace(s, PT_NONE);
  ASSERT_OK(pt_stats_finish(s));
  m = find_metric(s, 0);
  ASSERT_EQ_U64(m->samples, 4);
  ASSERT_EQ_DBL(m->mean, 250);
  ASSERT_EQ_DBL(m->increase, 300);
  ASSERT_EQ_U64(pt_stats_nmetric_regions(s), 1);
  ASSERT_EQ_U64(pt_stats_metric_region(s, 0)->visits, 1);
  ASSERT_EQ_DBL(pt_stats_metric_region(s, 0)->delta, 200);
  pt_stats_destroy(s);
  /* a window without samples: no rows */
  s = mk(101, 200, PT_NONE);
  metric_trace(s, PT_NONE);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nmetrics(s), 0);
  ASSERT_EQ_U64(pt_stats_nmetric_locs(s), 0);
  pt_stats_destroy(s);
}

TEST(metrics_merge_and_serialize) {
  pt_stats *one = NULL, *a = NULL, *b = NULL, *b2 = NULL;
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  o.end = 100;
  uint64_t la[] = {0}, lb[] = {5};
  ASSERT_OK(pt_stats_create(&one, &o));
  metric_trace(one, PT_NONE);
  ASSERT_OK(pt_stats_finish(one));
  o.locations = la;
  o.nlocations = 1;
  ASSERT_OK(pt_stats_create(&a, &o));
  metric_trace(a, 0);
  ASSERT_OK(pt_stats_finish(a));
  o.locations = lb;
  ASSERT_OK(pt_stats_create(&b, &o));
  metric_trace(b, 5);
  ASSERT_OK(pt_stats_finish(b));
  void *buf = NULL;
  size_t len = 0;
  ASSERT_OK(pt_stats_serialize(b, &buf, &len));
  ASSERT_OK(pt_stats_deserialize(&b2, buf, len));
  /* a cut buffer is refused */
  pt_stats *bad = NULL;
  ASSERT_STATUS(pt_stats_deserialize(&bad, buf, len - 8), PT_ECORRUPT);
  pt_stats_buffer_free(buf);
  ASSERT_TRUE(same_metrics(b, b2, 1));
  ASSERT_OK(pt_stats_merge(a, b2));
  ASSERT_TRUE(same_metrics(one, a, 1));
  ASSERT_EQ_U64(pt_stats_nmetrics(a), 3);
  ASSERT_EQ_DBL(find_metric(a, 1)->mean, 46.0 / 3);
  pt_stats_destroy(one);
  pt_stats_destroy(a);
  pt_stats_destroy(b);
  pt_stats_destroy(b2);
}

/* Samples of +/-inf (a DOUBLE metric of an untrusted trace) are not
 * counted: they made the mean, the increase and the per-region deltas NaN
 * or infinite. */
TEST(metrics_infinite_values_not_counted) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "A");
  def_loc(s, 0);
  def_metric(s, 1, "g", "", PT_TYPE_DOUBLE, PT_METRIC_ABSOLUTE);
  def_metric(s, 2, "c", "", PT_TYPE_DOUBLE, PT_METRIC_ACCUMULATED);
  sample(s, 0, 0, 1, PT_TYPE_DOUBLE, 1);
  sample(s, 1, 0, 1, PT_TYPE_DOUBLE, INFINITY);
  sample(s, 2, 0, 1, PT_TYPE_DOUBLE, -INFINITY);
  sample(s, 3, 0, 1, PT_TYPE_DOUBLE, 3);
  sample(s, 0, 0, 2, PT_TYPE_DOUBLE, 10);
  ev(s, 0, 0, PT_EV_ENTER, 1);
  ev(s, 5, 0, PT_EV_LEAVE, 1);
  sample(s, 5, 0, 2, PT_TYPE_DOUBLE, INFINITY);
  sample(s, 6, 0, 2, PT_TYPE_DOUBLE, 20);
  ASSERT_OK(pt_stats_finish(s));
  const pt_stats_metric_row *g = find_metric(s, 1), *c = find_metric(s, 2);
  ASSERT_TRUE(g && c);
  ASSERT_EQ_U64(g->samples, 2);
  ASSERT_EQ_DBL(g->mean, 2);
  ASSERT_EQ_DBL(g->max, 3);
  ASSERT_EQ_U64(c->samples, 2);
  ASSERT_EQ_DBL(c->increase, 10);
  for (size_t i = 0; i < pt_stats_nmetric_regions(s); i++)
    ASSERT_TRUE(isfinite(pt_stats_metric_region(s, i)->delta));
  pt_stats_destroy(s);
}

/* Enters and leaves out of time order (an untrusted trace): the visits
 * waiting for a sample at their leave time are dropped by any event with
 * another time, not kept (one per event) until a later time comes. */
TEST(metrics_out_of_order_waits_bounded) {
  pt_stats *s = mk(0, 0, PT_NONE);
  def_region(s, 1, "A");
  def_loc(s, 0);
  def_metric(s, 0, "ins", "", PT_TYPE_UINT, PT_METRIC_ACCUMULATED);
  sample(s, 1, 0, 0, PT_TYPE_UINT, 100);
  for (int i = 0; i < 1000; i++) {
    ev(s, 1, 0, PT_EV_ENTER, 1);
    ev(s, 2, 0, PT_EV_LEAVE, 1);
  }
  sample(s, 2, 0, 0, PT_TYPE_UINT, 150);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nmetric_regions(s), 1);
  ASSERT_EQ_U64(pt_stats_metric_region(s, 0)->visits, 1);
  ASSERT_EQ_DBL(pt_stats_metric_region(s, 0)->delta, 50);
  pt_stats_destroy(s);
}

/* Metric definitions with short names and no unit take 40 bytes each: a
 * valid buffer with many of them was refused (counted at 48). */
TEST(metrics_serialize_short_names) {
  pt_stats *s = mk(0, 0, PT_NONE), *d = NULL;
  def_loc(s, 0);
  for (uint64_t m = 0; m < 64; m++)
    def_metric(s, m, "m", "", PT_TYPE_UINT, PT_METRIC_ABSOLUTE);
  ASSERT_OK(pt_stats_finish(s));
  void *buf = NULL;
  size_t len = 0;
  ASSERT_OK(pt_stats_serialize(s, &buf, &len));
  ASSERT_OK(pt_stats_deserialize(&d, buf, len));
  pt_stats_buffer_free(buf);
  pt_stats_destroy(d);
  pt_stats_destroy(s);
}

/* A buffer whose metric values are impossible (NaN, min > max) is
 * refused: they made NaN means and increases. */
TEST(metrics_deserialize_bad_values) {
  pt_stats *s = mk(0, 0, PT_NONE), *d = NULL;
  def_loc(s, 0);
  def_region(s, 1, "A");
  def_metric(s, 1, "g", "", PT_TYPE_DOUBLE, PT_METRIC_ABSOLUTE);
  def_metric(s, 2, "c", "", PT_TYPE_DOUBLE, PT_METRIC_ACCUMULATED);
  sample(s, 1, 0, 1, PT_TYPE_DOUBLE, 12345.5);
  sample(s, 0, 0, 2, PT_TYPE_DOUBLE, 1000.25);
  ev(s, 0, 0, PT_EV_ENTER, 1);
  ev(s, 5, 0, PT_EV_LEAVE, 1);
  sample(s, 5, 0, 2, PT_TYPE_DOUBLE, 1777.75); /* delta 777.5 */
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nmetric_regions(s), 1);
  void *buf = NULL;
  size_t len = 0;
  ASSERT_OK(pt_stats_serialize(s, &buf, &len));
  ASSERT_OK(pt_stats_deserialize(&d, buf, len));
  pt_stats_destroy(d);
  /* NaN for the first copy of the value (min; delta), 1e300 for the
   * first (min > max) or second (the region's per_visit_min > max) */
  double vals[] = {12345.5, 777.5}, bad[] = {NAN, 1e300};
  for (int k = 0; k < 4; k++) {
    size_t which = k == 3 ? 2 : 1;
    unsigned char *cp = malloc(len);
    ASSERT_TRUE(cp != NULL);
    memcpy(cp, buf, len);
    size_t hits = 0;
    for (size_t off = 0; off + 8 <= len; off += 8) { /* 8-byte aligned */
      double x;
      memcpy(&x, cp + off, 8);
      if (x == vals[k / 2] && ++hits == which)
        memcpy(cp + off, &bad[k % 2], 8);
    }
    ASSERT_TRUE(hits >= which);
    d = NULL;
    ASSERT_STATUS(pt_stats_deserialize(&d, cp, len), PT_ECORRUPT);
    free(cp);
  }
  pt_stats_buffer_free(buf);
  pt_stats_destroy(s);
}

TEST(summaries_window_equals_full_scan) {
  char *dir = test_tmpdir("stats");
  char path[4200];
  snprintf(path, sizeof path, "%s/g.ptf", dir);
  pt_gen *g = NULL;
  pt_gen_opts go = {.locations = 4, .events = 4000, .seed = 7, .msg_every = 30};
  ASSERT_OK(pt_gen_create(&g, &go));
  uint64_t end = gen_end(g);
  ASSERT_TRUE(write_ptf(path, g, 4) == 0);
  pt_gen_destroy(g);
  /* no summaries yet: not found */
  pt_stats *w = NULL;
  pt_error err = {0};
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  ASSERT_STATUS(pt_stats_window(&w, path, &o, NULL, &err), PT_ENOTFOUND);
  ASSERT_OK(pt_archive_summarize(path, end / 37 + 1, PT_STATS_SUMMARIES |
                                 PT_STATS_SNAPSHOTS, &err));
  uint64_t seed = 12345, total = 0, read = 0, late_sum = 0;
  int with_late = 0;
  for (int k = 0; k < 80; k++) {
    if (k == 40) /* a finer grid: more visits cross summary times */
      ASSERT_OK(pt_archive_summarize(path, end / 301 + 1, PT_STATS_SUMMARIES |
                                     PT_STATS_SNAPSHOTS, &err));
    uint64_t a = rnd(&seed) % (end + end / 10), b = rnd(&seed) % (end + end / 10);
    if (a > b) { uint64_t t = a; a = b; b = t; }
    if (k == 0) a = 0, b = 0;           /* whole trace */
    if (k == 1) b = a + 1;              /* tiny window */
    o.from = a;
    o.to = b;
    o.end = end;
    uint64_t sel[] = {1, 2};
    o.locations = k % 3 == 2 ? sel : NULL;
    o.nlocations = k % 3 == 2 ? 2 : 0;
    pt_stats *f = full_scan(path, &o);
    ASSERT_TRUE(f != NULL);
    uint64_t n = 0;
    ASSERT_OK(pt_stats_window(&w, path, &o, &n, &err));
    pt_stats_totals t;
    pt_stats_get_totals(w, &t);
    ASSERT_EQ_U64(t.have & ~(uint32_t)PT_STATS_HAVE_LATE,
                  PT_STATS_HAVE_PROFILE | PT_STATS_HAVE_VISITS |
                      PT_STATS_HAVE_CALLSITES | PT_STATS_HAVE_METRIC_REGIONS |
                      PT_STATS_HAVE_CALL_TIMES);
    if (k == 0) ASSERT_TRUE(pt_stats_ncallsites(w) > 0);
    if (t.have & PT_STATS_HAVE_LATE) {
      with_late++;
      for (size_t i = 0; i < pt_stats_nmessages(w); i++)
        late_sum += pt_stats_message(w, i)->late_sender +
                    pt_stats_message(w, i)->late_receiver;
    }
    if (k == 0) ASSERT_TRUE(pt_stats_nmetrics(w) > 0);
    if (!same_stats(f, w, 0) || !same_visits(f, w) || !same_callsites(f, w) ||
        ((t.have & PT_STATS_HAVE_LATE) && !same_late(f, w)) ||
        !same_metrics(f, w, 1)) {
      pt_stats_destroy(f);
      pt_stats_destroy(w);
      TEST_FAIL_("window %d [%" PRIu64 ", %" PRIu64 ") differs", k, a, b);
    }
    read += n;
    total += 4 * 4000;
    pt_stats_destroy(f);
    pt_stats_destroy(w);
  }
  /* the summaries path reads a small part of the events */
  ASSERT_TRUE(read * 4 < total);
  /* the generator's receives follow their sends: late times from
   * summaries in most windows, and not all zero */
  ASSERT_TRUE(with_late >= 60 && late_sum > 0);
  char cmd[4300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) abort();
  free(dir);
}

/* ---- I/O ------------------------------------------------------------------------ */

static void def_io(pt_stats *s, uint32_t kind, uint64_t id, uint64_t file,
                   const char *name) {
  pt_def d;
  pt_def_init(&d, kind, id);
  d.ref = file;
  d.name = name;
  if (kind == PT_DEF_FILE) d.parent = PT_NONE, d.ref = 0;
  if (pt_stats_def(s, &d) != PT_OK) abort();
}
static void io_ev(pt_stats *s, uint64_t t, uint32_t kind, uint64_t handle,
                  int64_t mode, uint64_t bytes, uint64_t match) {
  pt_event e;
  pt_event_init(&e, kind, t, 0);
  e.ref = handle;
  if (kind == PT_EV_IO_BEGIN) e.tag = mode;
  e.size = bytes;
  e.request = match;
  if (pt_stats_event(s, &e) != PT_OK) abort();
}

/* loc 0, end 100: main [0, 100) with a blocking write, a non-blocking read
 * completed short in MPI_Wait, a short write on a handle without a
 * definition, an IO_END without its IO_BEGIN, a flush that never ends,
 * and an operation whose key is reused before it ends. */
static void io_trace(pt_stats *s) {
  def_region(s, 1, "main");
  def_region(s, 2, "MPI_File_write_at");
  def_region(s, 3, "MPI_File_iread");
  def_region(s, 4, "MPI_Wait");
  def_io(s, PT_DEF_FILE, 9, 0, "data");
  def_io(s, PT_DEF_IO_HANDLE, 5, 9, "data");
  def_loc(s, 0);
  ev(s, 0, 0, PT_EV_ENTER, 1);
  ev(s, 10, 0, PT_EV_ENTER, 2);
  io_ev(s, 10, PT_EV_IO_BEGIN, 5, PT_IO_WRITE, 100, 1);
  io_ev(s, 20, PT_EV_IO_END, 5, 0, 100, 1);
  ev(s, 20, 0, PT_EV_LEAVE, 2);
  ev(s, 30, 0, PT_EV_ENTER, 3);
  io_ev(s, 30, PT_EV_IO_BEGIN, 5, PT_IO_READ, 64, 2);
  ev(s, 31, 0, PT_EV_LEAVE, 3);
  ev(s, 40, 0, PT_EV_ENTER, 2);
  io_ev(s, 40, PT_EV_IO_BEGIN, 6, PT_IO_WRITE, 50, 1);
  io_ev(s, 45, PT_EV_IO_END, 6, 0, 10, 1);
  ev(s, 45, 0, PT_EV_LEAVE, 2);
  ev(s, 50, 0, PT_EV_ENTER, 4);
  io_ev(s, 55, PT_EV_IO_END, 5, 0, 60, 2);
  ev(s, 55, 0, PT_EV_LEAVE, 4);
  io_ev(s, 60, PT_EV_IO_END, 5, 0, 5, 99);
  io_ev(s, 70, PT_EV_IO_BEGIN, 5, PT_IO_FLUSH, 0, 3);
  io_ev(s, 80, PT_EV_IO_BEGIN, 5, 17, 8, 4);
  io_ev(s, 85, PT_EV_IO_BEGIN, 5, PT_IO_WRITE, 8, 4);
  io_ev(s, 90, PT_EV_IO_END, 5, 0, 8, 4);
  ev(s, 100, 0, PT_EV_LEAVE, 1);
}

/* Row i is (region, file, mode): ops, bytes, min, max, requested, time,
 * short, unfinished. */
static int io_row_is(const pt_stats *s, size_t i, uint64_t region,
                     uint64_t file, uint32_t mode, const uint64_t v[8]) {
  const pt_stats_io_row *r = pt_stats_io(s, i);
  if (!r) return 0;
  uint64_t w[8] = {r->ops, r->bytes, r->bytes_min, r->bytes_max,
                   r->requested, r->time, r->short_ops, r->unfinished};
  if (r->region != region || r->callsite != PT_NONE || r->file != file ||
      r->mode != mode || memcmp(v, w, sizeof w)) {
    fprintf(stderr, "io row %zu: region %llu file %llu mode %u:", i,
            (unsigned long long)r->region, (unsigned long long)r->file,
            r->mode);
    for (int k = 0; k < 8; k++) fprintf(stderr, " %llu", (unsigned long long)w[k]);
    fprintf(stderr, "\n");
    return 0;
  }
  return 1;
}

TEST(io_operations) {
  pt_stats *s = mk(0, 0, PT_NONE);
  io_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nio(s), 6);
  ASSERT_EQ_STR(pt_stats_file_name(s, 9), "data");
  ASSERT_TRUE(pt_stats_file_name(s, 5) == NULL);
  /* main: the flush never ends (time to the end), the operation of mode
   * 17 (other) ends unfinished when its key is reused */
  ASSERT_TRUE(io_row_is(s, 0, 1, 9, PT_IO_WRITE,
                        (const uint64_t[8]){1, 8, 8, 8, 8, 5, 0, 0}));
  ASSERT_TRUE(io_row_is(s, 1, 1, 9, PT_IO_FLUSH,
                        (const uint64_t[8]){1, 0, 0, 0, 0, 30, 0, 1}));
  ASSERT_TRUE(io_row_is(s, 2, 1, 9, PT_IO_OTHER,
                        (const uint64_t[8]){1, 0, 0, 0, 8, 5, 0, 1}));
  ASSERT_TRUE(io_row_is(s, 3, 2, 9, PT_IO_WRITE,
                        (const uint64_t[8]){1, 100, 100, 100, 100, 10, 0, 0}));
  ASSERT_TRUE(io_row_is(s, 4, 2, PT_NONE, PT_IO_WRITE,
                        (const uint64_t[8]){1, 10, 10, 10, 50, 5, 1, 0}));
  /* the read, filed under the MPI_File_iread that began it */
  ASSERT_TRUE(io_row_is(s, 5, 3, 9, PT_IO_READ,
                        (const uint64_t[8]){1, 60, 60, 60, 64, 25, 1, 0}));
  pt_stats_destroy(s);
  /* an operation belongs to the window of its IO_BEGIN, whole */
  s = mk(0, 35, PT_NONE);
  io_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nio(s), 2);
  ASSERT_TRUE(io_row_is(s, 0, 2, 9, PT_IO_WRITE,
                        (const uint64_t[8]){1, 100, 100, 100, 100, 10, 0, 0}));
  ASSERT_TRUE(io_row_is(s, 1, 3, 9, PT_IO_READ,
                        (const uint64_t[8]){1, 60, 60, 60, 64, 25, 1, 0}));
  pt_stats_destroy(s);
  s = mk(35, 0, PT_NONE);
  io_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nio(s), 4);
  ASSERT_TRUE(io_row_is(s, 3, 2, PT_NONE, PT_IO_WRITE,
                        (const uint64_t[8]){1, 10, 10, 10, 50, 5, 1, 0}));
  pt_stats_destroy(s);
  /* no I/O */
  s = mk(0, 0, PT_NONE);
  nest_trace(s);
  ASSERT_OK(pt_stats_finish(s));
  ASSERT_EQ_U64(pt_stats_nio(s), 0);
  ASSERT_TRUE(pt_stats_io(s, 0) == NULL);
  pt_stats_destroy(s);
}

/* A generated trace with I/O (io_next): after event i of a location, a
 * blocking write or read (every 25th; every 50th short), and a
 * non-blocking write begun in an MPI_File_iwrite (i = 5 mod 40) and ended
 * 37 events later in an MPI_Wait (never, every 400th); location 3's
 * handle is not defined.  Regions 1000..1002, file 7. */
enum { IO_R_BLOCK = 1000, IO_R_NB, IO_R_WAIT, IO_FILE = 7, IO_ATTR = 50,
       IO_SITE = 60 };
typedef struct io_gen {
  pt_gen *g;
  uint64_t n; /* events per location */
  uint64_t loc, i;
  pt_event q[8];
  pt_attr site;
  size_t nq, iq;
} io_gen;

static void io_defs(pt_def *d, size_t *n, uint64_t nloc) {
  static const char *names[] = {"MPI_File_write_at", "MPI_File_iwrite",
                                "MPI_Wait"};
  for (int k = 0; k < 3; k++) {
    pt_def_init(&d[*n], PT_DEF_REGION, IO_R_BLOCK + (uint64_t)k);
    d[*n].i0 = k < 2 ? PT_ROLE_FILE_IO : PT_ROLE_POINT2POINT;
    d[*n].i1 = PT_PARADIGM_MPI;
    d[(*n)++].name = names[k];
  }
  pt_def_init(&d[*n], PT_DEF_FILE, IO_FILE);
  d[*n].parent = PT_NONE;
  d[(*n)++].name = "g.dat";
  for (uint64_t l = 0; l + 1 < nloc; l++) {
    pt_def_init(&d[*n], PT_DEF_IO_HANDLE, l);
    d[*n].parent = PT_NONE;
    d[*n].ref = IO_FILE;
    d[(*n)++].ref2 = PT_NONE;
  }
  pt_def_init(&d[*n], PT_DEF_ATTRIBUTE, IO_ATTR);
  d[*n].i0 = PT_TYPE_UINT;
  d[(*n)++].name = "callsite";
  for (uint64_t k = 0; k < 2; k++) {
    pt_def_init(&d[*n], PT_DEF_CALLSITE, IO_SITE + k);
    d[*n].parent = d[*n].ref = d[*n].ref2 = PT_NONE;
    d[(*n)++].name = k ? "io.c:2" : "io.c:1";
  }
}

static void io_push(io_gen *x, uint32_t kind, uint64_t t, uint64_t ref) {
  pt_event *e = &x->q[x->nq++];
  pt_event_init(e, kind, t, x->loc);
  e->ref = ref;
}
static void io_op(io_gen *x, uint32_t kind, uint64_t t, int64_t mode,
                  uint64_t bytes, uint64_t match) {
  io_push(x, kind, t, x->loc);
  pt_event *e = &x->q[x->nq - 1];
  if (kind == PT_EV_IO_BEGIN) e->tag = mode;
  e->size = bytes;
  e->request = match;
}

static void io_gen_start(io_gen *x, pt_gen *g, uint64_t n, uint64_t loc) {
  memset(x, 0, sizeof *x);
  x->g = g;
  x->n = n;
  x->loc = loc;
  pt_gen_rewind(g, loc);
}

/* The next event of the location, PT_OK or PT_END. */
static int io_next(io_gen *x, pt_event *e) {
  if (x->iq < x->nq) {
    *e = x->q[x->iq++];
    return PT_OK;
  }
  x->nq = x->iq = 0;
  int rc = pt_gen_next(x->g, x->loc, e);
  if (rc != PT_OK) return rc;
  uint64_t i = x->i++, t = e->time;
  if (i + 40 + PT_GEN_TAIL >= x->n) return PT_OK; /* closing tail */
  if (i % 25 == 0) { /* gaps between events are >= 100 ticks */
    io_push(x, PT_EV_ENTER, t + 1, IO_R_BLOCK);
    x->site = (pt_attr){IO_ATTR, {PT_TYPE_UINT, 0, {.u = IO_SITE + i % 2}}};
    x->q[x->nq - 1].attrs = &x->site;
    x->q[x->nq - 1].nattrs = 1;
    uint64_t b = 1 + (i * 7 + x->loc) % 500;
    io_op(x, PT_EV_IO_BEGIN, t + 1, (int64_t)(i / 25 % 2), b, i);
    io_op(x, PT_EV_IO_END, t + 2, 0, i % 50 ? b : b / 2, i);
    io_push(x, PT_EV_LEAVE, t + 3, IO_R_BLOCK);
  } else if (i % 40 == 5) {
    io_push(x, PT_EV_ENTER, t + 1, IO_R_NB);
    io_op(x, PT_EV_IO_BEGIN, t + 1, PT_IO_WRITE, 64 + i % 7, 1000000 + i);
    io_push(x, PT_EV_LEAVE, t + 2, IO_R_NB);
  } else if (i % 40 == 2 && i >= 42 && (i - 37) % 400 != 45) {
    io_push(x, PT_EV_ENTER, t + 1, IO_R_WAIT);
    io_op(x, PT_EV_IO_END, t + 2, 0, 64 + (i - 37) % 7, 1000000 + i - 37);
    io_push(x, PT_EV_LEAVE, t + 3, IO_R_WAIT);
  }
  return PT_OK;
}

static pt_gen *io_gen_create(uint64_t nloc, uint64_t n, uint64_t seed,
                             pt_def *extra, size_t *nextra) {
  pt_gen *g = NULL;
  pt_gen_opts go = {.locations = nloc, .events = n, .seed = seed,
                    .msg_every = 30};
  if (pt_gen_create(&g, &go) != PT_OK) abort();
  *nextra = 0;
  io_defs(extra, nextra, nloc);
  return g;
}

static void feed_io(pt_stats *s, pt_gen *g, uint64_t nloc, uint64_t n,
                    const pt_def *extra, size_t nextra) {
  for (size_t i = 0; i < pt_gen_ndefs(g); i++)
    if (pt_stats_def(s, pt_gen_def(g, i)) != PT_OK) abort();
  for (size_t i = 0; i < nextra; i++)
    if (pt_stats_def(s, &extra[i]) != PT_OK) abort();
  for (uint64_t loc = 0; loc < nloc; loc++) {
    io_gen x;
    io_gen_start(&x, g, n, loc);
    pt_event e;
    while (io_next(&x, &e) == PT_OK)
      if (pt_stats_event(s, &e) != PT_OK) abort();
  }
}

static int write_ptf_io(const char *path, pt_gen *g, uint64_t nloc,
                        uint64_t n, const pt_def *extra, size_t nextra) {
  pt_writer *w = NULL;
  if (pt_writer_open(&w, path, NULL, NULL) != PT_OK) return -1;
  for (size_t i = 0; i < pt_gen_ndefs(g); i++)
    if (pt_writer_def(w, pt_gen_def(g, i)) != PT_OK) return -1;
  for (size_t i = 0; i < nextra; i++)
    if (pt_writer_def(w, &extra[i]) != PT_OK) return -1;
  for (uint64_t loc = 0; loc < nloc; loc++) {
    pt_stream *st = NULL;
    if (pt_writer_stream(w, loc, &st) != PT_OK) return -1;
    io_gen x;
    io_gen_start(&x, g, n, loc);
    pt_event e;
    while (io_next(&x, &e) == PT_OK)
      if (pt_stream_event(st, &e) != PT_OK) return -1;
  }
  return pt_writer_close(w, NULL) == PT_OK ? 0 : -1;
}

/* The I/O tables of two objects are equal. */
static int same_io(const pt_stats *a, const pt_stats *b) {
  if (pt_stats_nio(a) != pt_stats_nio(b)) return 0;
  for (size_t i = 0; i < pt_stats_nio(a); i++)
    if (memcmp(pt_stats_io(a, i), pt_stats_io(b, i), sizeof(pt_stats_io_row)))
      return 0;
  return 1;
}

/* Merged halves (one serialized), runs, and windows from summaries give
 * the I/O rows of one pass over the events, on random windows. */
TEST(io_merge_runs_and_summaries) {
  const uint64_t nloc = 4, n = 4000;
  pt_def extra[16];
  size_t nextra = 0;
  pt_gen *g = io_gen_create(nloc, n, 5, extra, &nextra);
  uint64_t end = gen_end(g);
  char *dir = test_tmpdir("statsio");
  char path[4200];
  snprintf(path, sizeof path, "%s/io.ptf", dir);
  ASSERT_TRUE(write_ptf_io(path, g, nloc, n, extra, nextra) == 0);
  pt_error err = {0};
  ASSERT_OK(pt_archive_summarize(path, end / 53 + 1, PT_STATS_SUMMARIES |
                                 PT_STATS_SNAPSHOTS, &err));
  uint64_t seed = 777, unfinished = 0, shorts = 0, sites = 0, nofile = 0;
  for (int k = 0; k < 40; k++) {
    uint64_t a = rnd(&seed) % end, b = rnd(&seed) % (end + end / 10);
    if (a > b) { uint64_t t = a; a = b; b = t; }
    if (k == 0) a = 0, b = 0;
    if (b == a) b = 0;
    pt_stats_opts o = {0};
    o.from = a;
    o.to = b;
    o.end = end;
    o.relative_to = PT_NONE;
    uint64_t sel[] = {1, 3};
    o.locations = k % 3 == 2 ? sel : NULL;
    o.nlocations = k % 3 == 2 ? 2 : 0;
    pt_stats *one = NULL, *h1 = NULL, *h2 = NULL, *h2b = NULL, *w = NULL;
    ASSERT_OK(pt_stats_create(&one, &o));
    feed_io(one, g, nloc, n, extra, nextra);
    ASSERT_OK(pt_stats_finish(one));
    if (k == 0) ASSERT_TRUE(pt_stats_nio(one) > 4);
    for (size_t i = 0; i < pt_stats_nio(one); i++) {
      const pt_stats_io_row *r = pt_stats_io(one, i);
      unfinished += r->unfinished;
      shorts += r->short_ops;
      sites += r->callsite != PT_NONE;
      nofile += r->file == PT_NONE;
    }
    /* halves by location, one through the serialized form */
    uint64_t ha[] = {0, 2}, hb[] = {1, 3};
    pt_stats_opts oh = o;
    oh.locations = ha;
    oh.nlocations = 2;
    ASSERT_OK(pt_stats_create(&h1, &oh));
    feed_io(h1, g, nloc, n, extra, nextra);
    ASSERT_OK(pt_stats_finish(h1));
    oh.locations = hb;
    ASSERT_OK(pt_stats_create(&h2, &oh));
    feed_io(h2, g, nloc, n, extra, nextra);
    ASSERT_OK(pt_stats_finish(h2));
    void *buf = NULL;
    size_t len = 0;
    ASSERT_OK(pt_stats_serialize(h2, &buf, &len));
    ASSERT_OK(pt_stats_deserialize(&h2b, buf, len));
    pt_stats_buffer_free(buf);
    ASSERT_OK(pt_stats_merge(h1, h2b));
    pt_stats *f = full_scan(path, &o), *r = run_scan(path, &o);
    ASSERT_TRUE(f && r);
    uint64_t nr = 0;
    ASSERT_OK(pt_stats_window(&w, path, &o, &nr, &err));
    int ok = (o.locations || same_io(one, h1)) && same_io(one, f) &&
             same_io(one, r) && same_io(one, w);
    pt_stats_destroy(one);
    pt_stats_destroy(h1);
    pt_stats_destroy(h2);
    pt_stats_destroy(h2b);
    pt_stats_destroy(f);
    pt_stats_destroy(r);
    pt_stats_destroy(w);
    if (!ok)
      TEST_FAIL_("window %d [%" PRIu64 ", %" PRIu64 ") differs", k, a, b);
  }
  /* every case met */
  ASSERT_TRUE(unfinished > 0 && shorts > 0 && sites > 0 && nofile > 0);
  pt_gen_destroy(g);
  char cmd[4300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) abort();
  free(dir);
}

/* ---- collective wait states --------------------------------------------- */

/* 3 ranks; an Allreduce on a communicator of `members` ranks (group 7,
 * comm 9): enters 10, 20, 40 (rank r at enter[r]), COLL_END and leave at
 * 50; the locations fed in the order `order`. */
static pt_stats *waits_trace(uint64_t members, const int *order,
                             const pt_stats_opts *o) {
  pt_stats *s = NULL;
  if (pt_stats_create(&s, o) != PT_OK) abort();
  def_region(s, 1, "MPI_Allreduce");
  for (uint64_t l = 0; l < 3; l++) def_loc(s, l);
  static const uint64_t m[3] = {0, 1, 2};
  pt_def d;
  pt_def_init(&d, PT_DEF_GROUP, 7);
  d.i0 = PT_GROUP_COMM_GROUP;
  d.nmembers = members;
  d.members = members <= 3 ? m : NULL;
  if (pt_stats_def(s, &d) != PT_OK) abort();
  pt_def_init(&d, PT_DEF_COMM, 9);
  d.ref = 7;
  if (pt_stats_def(s, &d) != PT_OK) abort();
  static const uint64_t enter[3] = {10, 20, 40};
  for (int i = 0; i < 3; i++) {
    uint64_t l = (uint64_t)order[i];
    ev(s, enter[l], l, PT_EV_ENTER, 1);
    pt_event e;
    pt_event_init(&e, PT_EV_COLL_END, 50, l);
    e.ref = PT_COLL_ALLREDUCE;
    e.comm = 9;
    e.peer = -1;
    if (pt_stats_event(s, &e) != PT_OK) abort();
    ev(s, 50, l, PT_EV_LEAVE, 1);
  }
  if (pt_stats_finish(s) != PT_OK) abort();
  return s;
}

TEST(collective_wait_states) {
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  /* the waits do not depend on the order the locations come in */
  static const int orders[2][3] = {{0, 1, 2}, {2, 0, 1}};
  for (int k = 0; k < 2; k++) {
    pt_stats *s = waits_trace(3, orders[k], &o);
    pt_stats_totals t;
    pt_stats_get_totals(s, &t);
    ASSERT_TRUE(t.have & PT_STATS_HAVE_WAITS);
    ASSERT_EQ_U64(pt_stats_nwaits(s), 3);
    static const uint64_t want[3] = {30, 20, 0};
    for (size_t i = 0; i < 3; i++) {
      const pt_stats_wait_row *r = pt_stats_wait(s, i);
      ASSERT_EQ_U64(r->location, i);
      ASSERT_EQ_U64(r->pattern, PT_WAIT_NXN);
      ASSERT_EQ_U64(r->wait, want[i]);
      ASSERT_EQ_U64(r->unmatched, 0);
    }
    ASSERT_EQ_STR(pt_wait_pattern_name(PT_WAIT_NXN), "wait at NxN");
    /* a merge cannot match calls across its parts: none after it */
    pt_stats *b = waits_trace(3, orders[k], &o);
    ASSERT_OK(pt_stats_merge(s, b));
    pt_stats_get_totals(s, &t);
    ASSERT_TRUE(!(t.have & PT_STATS_HAVE_WAITS));
    ASSERT_EQ_U64(pt_stats_nwaits(s), 0);
    pt_stats_destroy(b);
    pt_stats_destroy(s);
  }
  /* a communicator claiming more members than can ever come (hostile
   * input): no allocation of that size, the calls unmatched */
  static const int order[3] = {0, 1, 2};
  uint64_t huge[] = {4, UINT64_C(1) << 40, UINT64_MAX};
  for (size_t k = 0; k < 3; k++) {
    pt_stats *s = waits_trace(huge[k], order, &o);
    ASSERT_EQ_U64(pt_stats_nwaits(s), 3);
    for (size_t i = 0; i < 3; i++) {
      ASSERT_EQ_U64(pt_stats_wait(s, i)->unmatched, 1);
      ASSERT_EQ_U64(pt_stats_wait(s, i)->wait, 0);
    }
    pt_stats_destroy(s);
  }
  /* a selection of locations: none */
  uint64_t sel[2] = {0, 1};
  o.locations = sel;
  o.nlocations = 2;
  pt_stats *s = waits_trace(3, order, &o);
  pt_stats_totals t;
  pt_stats_get_totals(s, &t);
  ASSERT_TRUE(!(t.have & PT_STATS_HAVE_WAITS));
  ASSERT_EQ_U64(pt_stats_nwaits(s), 0);
  pt_stats_destroy(s);
}

/* ---- parts (pt_stats_opts.part) ------------------------------------------ */

/* Four ranks: each step every rank sends to another (tags 0, 1) in an
 * MPI_Send, receives from any source (any tag or a tag) or from a rank
 * with any tag in an MPI_Recv, and every 4th step all meet in an
 * MPI_Allreduce (comm 9) or an MPI_Bcast from rank 3; events in time
 * order (then location), as a reader gives them.  A receive's call may
 * still be open when the collective is entered (its leave unwinds the
 * collective's frame, whose end is then no collective call): the ranks'
 * calls fall out of step and instances join an Allreduce with a Bcast,
 * whose pattern and root are then the first call's one scan meets. */
typedef struct pev { pt_event e; size_t seq; } pev;
static int cmp_pev(const void *a, const void *b) {
  const pev *x = a, *y = b;
  if (x->e.time != y->e.time) return x->e.time < y->e.time ? -1 : 1;
  if (x->e.location != y->e.location) return x->e.location < y->e.location ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}
static pev *parts_trace(size_t steps, size_t *n) {
  pev *v = malloc(steps * 4 * 12 * sizeof *v);
  if (!v) abort();
  size_t k = 0;
  uint64_t x = 7;
#define R(m) (x = (x * 16807) % 2147483647, x % (m))
#define PUSH(t, l, kind)                                                   \
  (pt_event_init(&v[k].e, (kind), (t), (l)), v[k].e.ref = PT_NONE,           \
   v[k].seq = k, &v[k++].e)
  for (size_t i = 0; i < steps; i++) {
    uint64_t t0 = 1000 * i;
    for (uint64_t r = 0; r < 4; r++) {
      uint64_t a = t0 + R(300), b = a + 1 + R(50);
      PUSH(a, r, PT_EV_ENTER)->ref = 1;
      pt_event *e = PUSH(a, r, PT_EV_SEND);
      e->peer = (int64_t)((r + 1 + R(3)) % 4);
      e->tag = (int64_t)R(2);
      e->size = 8 * (r + 1);
      PUSH(b, r, PT_EV_LEAVE)->ref = 1;
      uint64_t c = t0 + 400 + R(200), d = c + 1 + R(300);
      PUSH(c, r, PT_EV_ENTER)->ref = 2;
      e = PUSH(d, r, PT_EV_RECV);
      uint64_t kind = R(4);
      e->peer = kind < 3 ? -1 : (int64_t)((r + 1 + R(3)) % 4);
      e->tag = kind == 2 ? (int64_t)R(2) : -1;
      e->size = 8;
      PUSH(d, r, PT_EV_LEAVE)->ref = 2;
      if (i % 4 == 3) {
        uint64_t reg = i % 8 == 3 ? 3 : 4, f = t0 + 800 + R(100);
        PUSH(f, r, PT_EV_ENTER)->ref = reg;
        e = PUSH(t0 + 950, r, PT_EV_COLL_END);
        e->ref = reg == 3 ? PT_COLL_ALLREDUCE : PT_COLL_BCAST;
        e->comm = 9;
        e->peer = reg == 3 ? -1 : (int64_t)(i % 4);
        PUSH(t0 + 950, r, PT_EV_LEAVE)->ref = reg;
      }
    }
  }
#undef PUSH
#undef R
  qsort(v, k, sizeof *v, cmp_pev);
  *n = k;
  return v;
}
static uint64_t parts_max_members; /* pt_stats_opts.part_max_members */
static pt_stats *parts_scan(const pev *v, size_t n, const uint64_t *sel,
                            size_t nsel, int part) {
  pt_stats_opts o = {0};
  o.part_max_members = parts_max_members;
  o.relative_to = PT_NONE;
  o.locations = sel;
  o.nlocations = nsel;
  o.part = part;
  pt_stats *s = NULL;
  if (pt_stats_create(&s, &o) != PT_OK) abort();
  def_region(s, 1, "MPI_Send");
  def_region(s, 2, "MPI_Recv");
  def_region(s, 3, "MPI_Allreduce");
  def_region(s, 4, "MPI_Bcast");
  for (uint64_t l = 0; l < 4; l++) def_loc(s, l);
  static const uint64_t m[4] = {0, 1, 2, 3};
  pt_def d;
  pt_def_init(&d, PT_DEF_GROUP, 7);
  d.i0 = PT_GROUP_COMM_GROUP;
  d.nmembers = 4;
  d.members = m;
  if (pt_stats_def(s, &d) != PT_OK) abort();
  pt_def_init(&d, PT_DEF_COMM, 9);
  d.ref = 7;
  if (pt_stats_def(s, &d) != PT_OK) abort();
  for (size_t i = 0; i < n; i++)
    if (pt_stats_event(s, &v[i].e) != PT_OK) abort();
  if (pt_stats_finish(s) != PT_OK) abort();
  return s;
}
static int same_messages_waits(const pt_stats *a, const pt_stats *b) {
  if (pt_stats_nmessages(a) != pt_stats_nmessages(b)) return 0;
  for (size_t i = 0; i < pt_stats_nmessages(a); i++)
    if (memcmp(pt_stats_message(a, i), pt_stats_message(b, i),
               sizeof(pt_stats_message_row)))
      return 0;
  if (pt_stats_nwaits(a) != pt_stats_nwaits(b)) return 0;
  for (size_t i = 0; i < pt_stats_nwaits(a); i++)
    if (memcmp(pt_stats_wait(a, i), pt_stats_wait(b, i),
               sizeof(pt_stats_wait_row)))
      return 0;
  pt_stats_totals x, y;
  pt_stats_get_totals(a, &x);
  pt_stats_get_totals(b, &y);
  return x.have == y.have;
}

/* Parts (two or three, cut between ranks), each but the first through
 * the serialized form, merged and completed: the messages (receives from
 * any source among them) and the collective wait states of one object.
 * Without opts.part the parts match their wildcard receives alone and
 * keep no wait states: not the same. */
TEST(parts_merge_as_one_object) {
  size_t n = 0;
  pev *v = parts_trace(200, &n);
  pt_stats *all = parts_scan(v, n, NULL, 0, 0);
  ASSERT_TRUE(pt_stats_nwaits(all) == 8);
  static const uint64_t locs[4] = {0, 1, 2, 3};
  static const size_t cuts[2][4] = {{0, 2, 4, 4}, {0, 1, 3, 4}};
  for (int part = 1; part >= 0; part--)
    for (int c = 0; c < 2; c++) {
      pt_stats *d = NULL;
      for (int p = 0; p < 3; p++) {
        size_t lo = cuts[c][p], hi = cuts[c][p + 1];
        if (lo == hi) continue;
        pt_stats *s = parts_scan(v, n, locs + lo, hi - lo, part);
        if (!d) {
          d = s;
          continue;
        }
        void *buf = NULL;
        size_t len = 0;
        pt_stats *sb = NULL;
        ASSERT_OK(pt_stats_serialize(s, &buf, &len));
        ASSERT_OK(pt_stats_deserialize(&sb, buf, len));
        if (part && c == 1 && p == 1) /* every truncation fails cleanly */
          for (size_t cut = 0; cut < len; cut += 1 + cut / 32) {
            pt_stats *bad = NULL;
            ASSERT_TRUE(pt_stats_deserialize(&bad, buf, cut) < 0);
            ASSERT_TRUE(bad == NULL);
          }
        pt_stats_buffer_free(buf);
        ASSERT_OK(pt_stats_merge(d, sb));
        pt_stats_destroy(sb);
        pt_stats_destroy(s);
      }
      if (part) ASSERT_OK(pt_stats_complete(d));
      ASSERT_TRUE(same_messages_waits(all, d) == part);
      pt_stats_destroy(d);
    }
  pt_stats_destroy(all);
  free(v);
}

/* A part that would hold more members of unfinished collective
 * instances than part_max_members gives the wait states up, and so does
 * the merge; below the bound they are one scan's. */
TEST(parts_bound_their_collective_members) {
  size_t n = 0;
  pev *v = parts_trace(200, &n);
  static const uint64_t locs[4] = {0, 1, 2, 3};
  for (int small = 0; small < 2; small++) {
    parts_max_members = small ? 50 : 0;
    pt_stats *a = parts_scan(v, n, locs, 2, 1);
    pt_stats *b = parts_scan(v, n, locs + 2, 2, 1);
    void *buf = NULL;
    size_t len = 0;
    pt_stats *sb = NULL;
    ASSERT_OK(pt_stats_serialize(b, &buf, &len));
    pt_stats_totals t; /* (b's totals after it is serialized) */
    pt_stats_get_totals(b, &t);
    ASSERT_TRUE((!(t.have & PT_STATS_HAVE_WAITS)) == small);
    ASSERT_OK(pt_stats_deserialize(&sb, buf, len));
    pt_stats_buffer_free(buf);
    ASSERT_OK(pt_stats_merge(a, sb));
    ASSERT_OK(pt_stats_complete(a));
    pt_stats_get_totals(a, &t);
    ASSERT_TRUE((!(t.have & PT_STATS_HAVE_WAITS)) == small);
    ASSERT_TRUE(small ? pt_stats_nwaits(a) == 0 : pt_stats_nwaits(a) == 8);
    pt_stats_destroy(sb);
    pt_stats_destroy(b);
    pt_stats_destroy(a);
  }
  parts_max_members = 0;
  free(v);
}

/* The merges keep the parts' bound too: parts each under it whose merge
 * holds more members than it (three of four members of every instance)
 * give the wait states up. */
TEST(parts_merge_bounds_collective_members) {
  size_t n = 0;
  pev *v = parts_trace(200, &n);
  static const uint64_t locs[4] = {0, 1, 2, 3};
  /* (with this trace: part 0-1 holds at most 128 members, part 2 at
   * most 64, their merge more than 128 and at most 256) */
  for (uint64_t bound = 128; bound <= 256; bound *= 2) {
    parts_max_members = bound;
    pt_stats *a = parts_scan(v, n, locs, 2, 1);
    pt_stats *b = parts_scan(v, n, locs + 2, 1, 1);
    void *buf = NULL;
    size_t len = 0;
    pt_stats *sb = NULL;
    ASSERT_OK(pt_stats_serialize(b, &buf, &len));
    pt_stats_totals t;
    pt_stats_get_totals(b, &t);
    int bw = (t.have & PT_STATS_HAVE_WAITS) != 0;
    ASSERT_OK(pt_stats_deserialize(&sb, buf, len));
    pt_stats_buffer_free(buf);
    ASSERT_OK(pt_stats_serialize(a, &buf, &len));
    pt_stats *sa = NULL;
    ASSERT_OK(pt_stats_deserialize(&sa, buf, len));
    pt_stats_buffer_free(buf);
    pt_stats_get_totals(sa, &t);
    int aw = (t.have & PT_STATS_HAVE_WAITS) != 0;
    ASSERT_OK(pt_stats_merge(a, sb));
    ASSERT_OK(pt_stats_serialize(a, &buf, &len));
    pt_stats *sm = NULL;
    ASSERT_OK(pt_stats_deserialize(&sm, buf, len));
    pt_stats_buffer_free(buf);
    pt_stats_get_totals(sm, &t);
    int mw = (t.have & PT_STATS_HAVE_WAITS) != 0;
    ASSERT_TRUE(aw && bw);
    ASSERT_TRUE(mw == (bound == 256));
    pt_stats_destroy(sm);
    pt_stats_destroy(sa);
    pt_stats_destroy(sb);
    pt_stats_destroy(b);
    pt_stats_destroy(a);
  }
  parts_max_members = 0;
  free(v);
}

int main(void) {
  RUN(inclusive_exclusive_nesting);
  RUN(window_clips_straddling_regions);
  RUN(open_region_ends_at_trace_end);
  RUN(imbalance_across_locations);
  RUN(message_matrix_and_late_sender);
  RUN(late_receiver_any_order);
  RUN(order_dependent_when_it_is);
  RUN(any_feed_order_same_results);
  RUN(nonblocking_receive_late_sender);
  RUN(unknown_peer_and_none_region);
  RUN(matrix_by_tag);
  RUN(relative_statistics);
  RUN(relative_rows_sorted);
  RUN(callsite_bytes_are_sent_bytes);
  RUN(callsite_text_attribute);
  RUN(callsite_call_times);
  RUN(callsite_deserialize_version_7);
  RUN(callsite_file_with_plus0x_not_an_address);
  RUN(callsite_long_chain_name_resolved_whole);
  RUN(collectives_without_bytes_are_not_messages);
  RUN(app_time_as_mpip);
  RUN(bad_options);
  RUN(merge_of_halves_equals_one_pass);
  RUN(runs_equal_merged_events);
  RUN(summaries_window_equals_full_scan);
  RUN(metrics_gauges_and_counters);
  RUN(metrics_window);
  RUN(one_sided_operations);
  RUN(metrics_merge_and_serialize);
  RUN(metrics_infinite_values_not_counted);
  RUN(metrics_out_of_order_waits_bounded);
  RUN(metrics_serialize_short_names);
  RUN(metrics_deserialize_bad_values);
  RUN(io_operations);
  RUN(io_merge_runs_and_summaries);
  RUN(collective_wait_states);
  RUN(parts_merge_as_one_object);
  RUN(parts_bound_their_collective_members);
  RUN(parts_merge_bounds_collective_members);
  return test_summary();
}
