/* OTF 1.x reader/writer tests against the real OTF 1.12 test vectors
 * ($PT_SRCDIR/../shared/testdata/otf), round trips and bad input. */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "formats/otf.h"
#include "formats/otf_int.h"
#include "test.h"

static char testdata[4096];
static int have_data;

static void find_testdata(void) {
  const char *src = getenv("PT_SRCDIR");
  snprintf(testdata, sizeof testdata, "%s/../shared/testdata/otf",
           src && *src ? src : ".");
  struct stat st;
  have_data = stat(testdata, &st) == 0;
  if (!have_data)
    printf("note: %s not found; test-vector tests skipped\n", testdata);
}

static int nwarn;
static char lastwarn[512];
static void on_warn(void *u, const char *m) {
  (void)u;
  nwarn++;
  snprintf(lastwarn, sizeof lastwarn, "%s", m);
}

/* Everything a source yields, deep-copied. */
typedef struct items {
  pt_item *v;
  size_t n, cap;
  pt__arena a;
  size_t nk[6];
  size_t ev[PT_EV__COUNT];
  size_t df[PT_DEF__COUNT];
} items;

static void items_free(items *it) {
  free(it->v);
  pt__arena_free(&it->a);
  memset(it, 0, sizeof *it);
}

static int read_all(const char *path, items *out, size_t max_open,
                    char *err, size_t errn) {
  memset(out, 0, sizeof *out);
  pt_source_opts o = {0};
  o.warn = on_warn;
  o.max_open_files = max_open;
  void *st;
  pt_error e = {0};
  int rc = pt__format_otf.src_open(&st, path, &o, &e);
  if (rc < 0) {
    snprintf(err, errn, "%s", e.msg);
    return rc;
  }
  pt_item it;
  while ((rc = pt__format_otf.src_next(st, &it)) == PT_OK) {
    if (out->n == out->cap) {
      out->cap = out->cap ? 2 * out->cap : 256;
      out->v = realloc(out->v, out->cap * sizeof *out->v);
    }
    pt_item *c = &out->v[out->n++];
    *c = it;
    if (it.type == PT_ITEM_EVENT) {
      pt__event_copy(&out->a, &c->u.event, &it.u.event);
      out->ev[it.u.event.kind]++;
    } else if (it.type == PT_ITEM_SNAPSHOT) {
      pt__event_copy(&out->a, &c->u.snapshot.event, &it.u.snapshot.event);
    } else if (it.type == PT_ITEM_DEF) {
      pt__def_copy(&out->a, &c->u.def, &it.u.def);
      out->df[it.u.def.kind]++;
    }
    out->nk[it.type]++;
  }
  if (rc < 0) snprintf(err, errn, "%s", pt__format_otf.src_errmsg(st));
  pt__format_otf.src_close(st);
  return rc == PT_END ? PT_OK : rc;
}

static const pt_def *def_of(const items *it, uint32_t kind, uint64_t id) {
  for (size_t i = 0; i < it->n; i++)
    if (it->v[i].type == PT_ITEM_DEF && it->v[i].u.def.kind == kind &&
        it->v[i].u.def.id == id)
      return &it->v[i].u.def;
  return NULL;
}

static const pt_event *nth_event(const items *it, size_t n) {
  for (size_t i = 0; i < it->n; i++)
    if (it->v[i].type == PT_ITEM_EVENT && n-- == 0) return &it->v[i].u.event;
  return NULL;
}

static uint64_t attr_u(const pt_event *e, int x) {
  for (uint32_t i = 0; i < e->nattrs; i++)
    if (e->attrs[i].key == OTF_XATTR_BASE + (uint64_t)x)
      return e->attrs[i].val.v.u;
  return UINT64_MAX;
}

static void path_of(char *buf, size_t n, const char *rel) {
  snprintf(buf, n, "%s/%s", testdata, rel);
}

/* ---- trace a: enter/leave, one stream, short and long keywords ---- */

static void check_a(const char *rel) {
  char p[4200], err[1024] = "";
  path_of(p, sizeof p, rel);
  items it;
  int rc = read_all(p, &it, 0, err, sizeof err);
  if (rc) printf("  %s\n", err);
  ASSERT_OK(rc);
  /* otfprint_a: 10 definitions, 26 events: 11 enter, 11 leave, 2+2 PB/PE */
  ASSERT_EQ_U64(it.nk[PT_ITEM_STREAM], 2);
  ASSERT_EQ_U64(it.ev[PT_EV_ENTER], 11);
  ASSERT_EQ_U64(it.ev[PT_EV_LEAVE], 11);
  ASSERT_EQ_U64(it.ev[PT_EV_THREAD_BEGIN], 2);
  ASSERT_EQ_U64(it.ev[PT_EV_THREAD_END], 2);
  ASSERT_EQ_U64(it.df[PT_DEF_REGION], 3);
  ASSERT_EQ_U64(it.df[PT_DEF_LOCATION], 2);
  ASSERT_EQ_U64(it.df[PT_DEF_LOCATION_GROUP], 2);
  const pt_def *clk = def_of(&it, PT_DEF_CLOCK, 0);
  ASSERT_TRUE(clk != NULL);
  ASSERT_EQ_I64(clk->i0, 1000000);
  const pt_def *r = def_of(&it, PT_DEF_REGION, 2);
  ASSERT_TRUE(r != NULL);
  ASSERT_EQ_STR(r->name, "compute");
  const pt_def *g = def_of(&it, PT_DEF_GROUP, OTF_GROUP_FUNC | 10);
  ASSERT_TRUE(g != NULL);
  ASSERT_EQ_STR(g->name, "Application");
  ASSERT_EQ_U64(g->nmembers, 3);
  const pt_def *l = def_of(&it, PT_DEF_LOCATION, 2);
  ASSERT_TRUE(l != NULL);
  ASSERT_EQ_STR(l->name, "Process 1");
  /* (#15) 110 Enter: function 2, process 1 is the 5th event */
  const pt_event *e = nth_event(&it, 4);
  ASSERT_TRUE(e != NULL);
  ASSERT_EQ_U64(e->kind, PT_EV_ENTER);
  ASSERT_EQ_U64(e->time, 110);
  ASSERT_EQ_U64(e->ref, 2);
  ASSERT_EQ_U64(e->location, 1);
  /* (#34) 1091 Leave: function 1, process 2 */
  e = nth_event(&it, 23);
  ASSERT_EQ_U64(e->kind, PT_EV_LEAVE);
  ASSERT_EQ_U64(e->time, 1091);
  ASSERT_EQ_U64(e->location, 2);
  items_free(&it);
}
TEST(otf_a_short) { if (have_data) check_a("a_enter_leave/trace/trace_a.otf"); }
TEST(otf_a_long) {
  if (have_data) check_a("a_enter_leave/trace_long/trace_a.otf");
}

/* ---- trace b: messages, collectives, counters, 2 streams ---- */

static void check_b(const char *rel, int local_defs) {
  char p[4200], err[1024] = "";
  path_of(p, sizeof p, rel);
  items it;
  int rc = read_all(p, &it, 0, err, sizeof err);
  if (rc) printf("  %s\n", err);
  ASSERT_OK(rc);
  /* otfprint_b: events #25..#212 = 188 */
  ASSERT_EQ_U64(it.nk[PT_ITEM_EVENT], 188);
  ASSERT_EQ_U64(it.ev[PT_EV_SEND], 12);
  ASSERT_EQ_U64(it.ev[PT_EV_RECV], 12);
  ASSERT_EQ_U64(it.ev[PT_EV_METRIC], 24);
  ASSERT_EQ_U64(it.ev[PT_EV_COLL_BEGIN], 12);
  ASSERT_EQ_U64(it.ev[PT_EV_COLL_END], 24); /* 12 COP + 12 COPE */
  ASSERT_EQ_U64(it.ev[PT_EV_ENTER], 52);
  ASSERT_EQ_U64(it.ev[PT_EV_LEAVE], 52);
  const pt_def *g = def_of(&it, PT_DEF_GROUP, 100);
  ASSERT_TRUE(g != NULL);
  ASSERT_EQ_STR(g->name, "MPI_COMM_WORLD");
  ASSERT_EQ_U64(g->nmembers, 4);
  ASSERT_EQ_U64(g->members[3], 4);
  ASSERT_TRUE(def_of(&it, PT_DEF_COMM, 100) != NULL);
  const pt_def *m = def_of(&it, PT_DEF_METRIC, 2);
  ASSERT_TRUE(m != NULL);
  ASSERT_EQ_STR(m->name, "mem_used");
  ASSERT_EQ_STR(m->s1, "bytes");
  ASSERT_EQ_I64(m->i1, PT_METRIC_ABSOLUTE);
  const pt_def *co = def_of(&it, PT_DEF_LABEL, OTF_LABEL_COLLOP | 1);
  ASSERT_TRUE(co != NULL);
  ASSERT_EQ_STR(co->name, "MPI_Allreduce");
  ASSERT_EQ_I64(co->i0, 4);
  size_t ncmt = 0;
  for (size_t i = 0; i < it.n; i++)
    if (it.v[i].type == PT_ITEM_DEF && it.v[i].u.def.kind == PT_DEF_KEYVAL &&
        strcmp(it.v[i].u.def.name, "otf:comment") == 0) {
      ncmt++;
      ASSERT_EQ_U64(it.v[i].u.def.scope, 2 + (ncmt - 1)); /* stream 1, 2 */
    }
  ASSERT_EQ_U64(ncmt, local_defs ? 2 : 0);
  /* time order across streams, and specific records */
  uint64_t last = 0;
  const pt_event *send = NULL, *coll = NULL, *cope = NULL;
  for (size_t i = 0; i < it.n; i++) {
    if (it.v[i].type != PT_ITEM_EVENT) continue;
    const pt_event *e = &it.v[i].u.event;
    ASSERT_TRUE(e->time >= last);
    last = e->time;
    if (!send && e->kind == PT_EV_SEND && e->location == 4) send = e;
    if (!coll && e->kind == PT_EV_COLL_END && e->location == 2) coll = e;
    if (!cope && e->kind == PT_EV_COLL_END &&
        attr_u(e, OTF_XA_MATCH) != UINT64_MAX)
      cope = e;
  }
  /* (#52) 2115 SendMessage: sender 4, receiver 1, group 100, type 7,
   * length 4096; the receiver is read as its rank: process 1 is the first
   * top-level process, rank 0 (the sender's group, process 4, rank 3) */
  ASSERT_TRUE(send != NULL);
  ASSERT_EQ_U64(send->time, 2115);
  ASSERT_EQ_I64(send->peer, 0);
  int64_t rank4 = -1;
  for (size_t i = 0; i < it.n; i++)
    if (it.v[i].type == PT_ITEM_DEF &&
        it.v[i].u.def.kind == PT_DEF_LOCATION_GROUP && it.v[i].u.def.id == 4)
      rank4 = it.v[i].u.def.i1;
  ASSERT_EQ_I64(rank4, 3);
  ASSERT_EQ_U64(send->comm, 100);
  ASSERT_EQ_I64(send->tag, 7);
  ASSERT_EQ_U64(send->size, 4096);
  /* (#73) 2202 Collective: process 2, collective 1, group 100, root 0,
   * sent 8, received 8, duration 58 */
  ASSERT_TRUE(coll != NULL);
  ASSERT_EQ_U64(coll->time, 2202);
  ASSERT_EQ_U64(coll->ref, PT_COLL_ALLREDUCE);
  ASSERT_EQ_U64(coll->comm, 100);
  ASSERT_EQ_U64(coll->size, 8);
  ASSERT_EQ_U64(attr_u(coll, OTF_XA_DURATION), 58);
  ASSERT_TRUE(cope != NULL);
  ASSERT_EQ_U64(cope->time, 2260);
  ASSERT_EQ_U64(attr_u(cope, OTF_XA_MATCH), 1);
  ASSERT_EQ_U64(cope->size2, 8);
  items_free(&it);
}
TEST(otf_b_short) { if (have_data) check_b("b_msgs_2streams/trace/trace_b.otf", 1); }
TEST(otf_b_long) {
  if (have_data) check_b("b_msgs_2streams/trace_long/trace_b.otf", 1);
}
TEST(otf_b_globalonly) {
  if (have_data) check_b("b_msgs_2streams/trace_globalonly/trace_bg.otf", 0);
}
TEST(otf_b_merged) {
  if (!have_data) return;
  check_b("b_msgs_2streams/merged_1stream/trace_m1.otf", 0);
  check_b("b_msgs_2streams/merged_per_proc/trace_m0.otf", 0);
}
/* zlib variant, and the bounded file manager (1 open file for 2 streams) */
TEST(otf_c_zlib) {
  if (!have_data) return;
  check_b("c_zlib/trace/trace_c.otf", 1);
  char p[4200], err[1024] = "";
  path_of(p, sizeof p, "c_zlib/trace/trace_c.otf");
  items a, b;
  ASSERT_OK(read_all(p, &a, 1, err, sizeof err));
  path_of(p, sizeof p, "b_msgs_2streams/trace/trace_b.otf");
  ASSERT_OK(read_all(p, &b, 0, err, sizeof err));
  ASSERT_EQ_U64(a.nk[PT_ITEM_EVENT], b.nk[PT_ITEM_EVENT]);
  size_t ia = 0, ib = 0;
  for (;;) {
    while (ia < a.n && a.v[ia].type != PT_ITEM_EVENT) ia++;
    while (ib < b.n && b.v[ib].type != PT_ITEM_EVENT) ib++;
    if (ia >= a.n || ib >= b.n) break;
    ASSERT_TRUE(pt_event_equal(&a.v[ia].u.event, &b.v[ib].u.event));
    ia++, ib++;
  }
  items_free(&a);
  items_free(&b);
}

/* ---- trace d: snapshots and statistics ---- */
TEST(otf_d_snaps_stats) {
  if (!have_data) return;
  char p[4200], err[1024] = "";
  path_of(p, sizeof p, "d_snaps_stats/trace/trace_d.otf");
  items it;
  int rc = read_all(p, &it, 0, err, sizeof err);
  if (rc) printf("  %s\n", err);
  ASSERT_OK(rc);
  /* otfprint_d: statistics #641..#724 = 84, snapshots #725..#756 = 32 */
  ASSERT_EQ_U64(it.nk[PT_ITEM_SUMMARY], 84);
  ASSERT_EQ_U64(it.nk[PT_ITEM_SNAPSHOT], 32);
  ASSERT_EQ_U64(it.nk[PT_ITEM_EVENT], 608);
  int found_sf = 0, found_sm = 0, found_tc = 0, found_te = 0;
  for (size_t i = 0; i < it.n; i++) {
    if (it.v[i].type == PT_ITEM_SUMMARY) {
      const pt_summary *s = &it.v[i].u.summary;
      /* 4667 StatFunction: process 1, function 1, invocations 1,
       * excltime 3100, incltime 3667 */
      if (s->time == 4667 && s->location == 1 && s->kind == PT_SUM_REGION &&
          s->ref == 1) {
        found_sf = 1;
        ASSERT_EQ_U64(s->count, 1);
        ASSERT_EQ_U64(s->excl_time, 3100);
        ASSERT_EQ_U64(s->incl_time, 3667);
      }
      /* 4667 StatMessage: process 3 ... numsent 3, numreceived 3,
       * bytessent 9216, bytesreceived 6144 */
      if (s->time == 4667 && s->location == 3 && s->kind == PT_SUM_MESSAGES) {
        found_sm = 1;
        ASSERT_EQ_U64(s->count, 3);
        ASSERT_EQ_U64(s->excl_time, 3);
        ASSERT_EQ_U64(s->bytes_sent, 9216);
        ASSERT_EQ_U64(s->bytes_recv, 6144);
      }
    } else if (it.v[i].type == PT_ITEM_SNAPSHOT) {
      const pt_snapshot *s = &it.v[i].u.snapshot;
      /* 4667 SnapCounter: process 1, otime 4103, counter 2, value 1060864
       * (otfprint swaps process and otime) */
      if (s->time == 4667 && s->location == 1 &&
          s->event.kind == PT_EV_METRIC && s->event.ref == 2) {
        found_tc = 1;
        ASSERT_EQ_U64(s->event.time, 4103);
        ASSERT_EQ_U64(s->event.value.v.u, 1060864);
      }
      if (s->time == 8334 && s->location == 4 &&
          s->event.kind == PT_EV_ENTER) {
        found_te = 1;
        ASSERT_EQ_U64(s->event.time, 1000);
        ASSERT_EQ_U64(s->event.ref, 1);
      }
    }
  }
  ASSERT_TRUE(found_sf && found_sm && found_tc && found_te);
  items_free(&it);
}

/* ---- writer: OTF -> model -> OTF -> model gives equal items ---- */

static int items_equal(const items *a, const items *b, char *why, size_t n) {
  if (a->n != b->n) {
    snprintf(why, n, "item count %zu != %zu", a->n, b->n);
    return 0;
  }
  for (size_t i = 0; i < a->n; i++) {
    const pt_item *x = &a->v[i], *y = &b->v[i];
    int eq = x->type == y->type;
    if (eq) switch (x->type) {
      case PT_ITEM_DEF: eq = pt_def_equal(&x->u.def, &y->u.def); break;
      case PT_ITEM_EVENT: eq = pt_event_equal(&x->u.event, &y->u.event); break;
      case PT_ITEM_SUMMARY:
        eq = memcmp(&x->u.summary, &y->u.summary, sizeof x->u.summary) == 0;
        break;
      case PT_ITEM_SNAPSHOT:
        eq = x->u.snapshot.time == y->u.snapshot.time &&
             x->u.snapshot.location == y->u.snapshot.location &&
             pt_event_equal(&x->u.snapshot.event, &y->u.snapshot.event);
        break;
      case PT_ITEM_STREAM:
        eq = x->u.stream.stream == y->u.stream.stream &&
             x->u.stream.location == y->u.stream.location;
        break;
    }
    if (!eq) {
      snprintf(why, n, "item %zu (type %u) differs", i, x->type);
      return 0;
    }
  }
  return 1;
}

static int write_all(const items *it, const char *path, uint64_t streams,
                     char *err, size_t errn) {
  pt_sink_opts o = {0};
  o.streams = streams;
  void *st;
  pt_error e = {0};
  int rc = pt__format_otf.sink_open(&st, path, &o, &e);
  if (rc < 0) { snprintf(err, errn, "%s", e.msg); return rc; }
  for (size_t i = 0; i < it->n; i++) {
    rc = pt__format_otf.sink_write(st, &it->v[i]);
    if (rc < 0) {
      snprintf(err, errn, "%s", pt__format_otf.sink_errmsg(st));
      pt__format_otf.sink_abort(st);
      return rc;
    }
  }
  rc = pt__format_otf.sink_close(st, &e);
  if (rc < 0) snprintf(err, errn, "%s", e.msg);
  return rc;
}

static void roundtrip(const char *rel) {
  char p[4200], err[1024] = "", why[256] = "";
  path_of(p, sizeof p, rel);
  items a, b, c;
  ASSERT_OK(read_all(p, &a, 0, err, sizeof err));
  char *dir = test_tmpdir("otf");
  char out[4200], out2[4200];
  snprintf(out, sizeof out, "%s/rt.otf", dir);
  int rc = write_all(&a, out, 0, err, sizeof err);
  if (rc) printf("  write: %s\n", err);
  ASSERT_OK(rc);
  rc = read_all(out, &b, 0, err, sizeof err);
  if (rc) printf("  reread: %s\n", err);
  ASSERT_OK(rc);
  int eq = items_equal(&a, &b, why, sizeof why);
  if (!eq) printf("  %s: %s\n", rel, why);
  ASSERT_TRUE(eq);
  /* and once more, through M = 1 stream: same events in the same order */
  snprintf(out2, sizeof out2, "%s/one.otf", dir);
  ASSERT_OK(write_all(&b, out2, 1, err, sizeof err));
  ASSERT_OK(read_all(out2, &c, 0, err, sizeof err));
  ASSERT_EQ_U64(c.nk[PT_ITEM_EVENT], a.nk[PT_ITEM_EVENT]);
  ASSERT_EQ_U64(c.nk[PT_ITEM_SUMMARY], a.nk[PT_ITEM_SUMMARY]);
  items_free(&a);
  items_free(&b);
  items_free(&c);
  pt__rmtree(dir);
  free(dir);
}
TEST(otf_roundtrip_a) { if (have_data) roundtrip("a_enter_leave/trace/trace_a.otf"); }
TEST(otf_roundtrip_b) { if (have_data) roundtrip("b_msgs_2streams/trace/trace_b.otf"); }
TEST(otf_roundtrip_b_long) {
  if (have_data) roundtrip("b_msgs_2streams/trace_long/trace_b.otf");
}
TEST(otf_roundtrip_c) { if (have_data) roundtrip("c_zlib/trace/trace_c.otf"); }
TEST(otf_roundtrip_d) { if (have_data) roundtrip("d_snaps_stats/trace/trace_d.otf"); }

/* ---- bad input ---- */

static void put_file(const char *dir, const char *name, const void *d,
                     size_t n) {
  char p[4200];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  if (!f) abort();
  fwrite(d, 1, n, f);
  fclose(f);
}

static int read_dir(const char *dir, char *err, size_t n) {
  char p[4200];
  snprintf(p, sizeof p, "%s/t.otf", dir);
  items it;
  int rc = read_all(p, &it, 0, err, n);
  items_free(&it);
  return rc;
}

/* Threads as VampirTrace writes them: ranks are top-level processes (token
 * rank + 1, defined here out of order), threads are processes with a
 * parent (a thread of a thread too); a message names the receiving rank's
 * main process.  The reader gives the top-level processes ranks in token
 * order and reads peers as ranks; the writer writes them back as the same
 * processes. */
TEST(otf_threads_are_ranks) {
  char *dir = test_tmpdir("otfthr");
  char err[1024] = "", p[4200], out[4200], why[256] = "";
  const char mf[] = "1:10001,20001,10002,2,1\n";
  put_file(dir, "t.otf", mf, sizeof mf - 1);
  const char df[] = "DV1.c.4\"salmon\"\nDUI0\nDTR3e8\n"
                    "DP2NM\"rank 1\"\nDP1NM\"rank 0\"\n"
                    "DP10001NM\"r0 t1\"PT1\nDP20001NM\"r0 t2\"PT10001\n"
                    "DP10002NM\"r1 t1\"PT2\nDPG64M1,2,NM\"w\"\n";
  put_file(dir, "t.0.def", df, sizeof df - 1);
  const char ev[] = "10\n*10001\nS2L8T1C64\n*20001\nS2L8T2C64\n"
                    "20\n*10002\nR1L8T1C64\n*2\nR1L8T2C64\nS7L8T3C64\n"
                    "S0L8T4C64\n";
  put_file(dir, "t.1.events", ev, sizeof ev - 1);
  snprintf(p, sizeof p, "%s/t.otf", dir);
  items a, b;
  nwarn = 0;
  ASSERT_OK(read_all(p, &a, 0, err, sizeof err));
  ASSERT_EQ_U64(a.df[PT_DEF_LOCATION_GROUP], 2);
  ASSERT_EQ_I64(def_of(&a, PT_DEF_LOCATION_GROUP, 1)->i1, 0);
  ASSERT_EQ_I64(def_of(&a, PT_DEF_LOCATION_GROUP, 2)->i1, 1);
  ASSERT_EQ_U64(def_of(&a, PT_DEF_LOCATION, 0x10001)->parent, 1);
  ASSERT_EQ_U64(def_of(&a, PT_DEF_LOCATION, 0x20001)->parent, 1);
  ASSERT_EQ_U64(def_of(&a, PT_DEF_LOCATION, 0x10002)->parent, 2);
  int64_t want[] = {1, 1, 0, 0, -1, -1};
  for (size_t i = 0; i < 6; i++) {
    const pt_event *e = nth_event(&a, i);
    ASSERT_TRUE(e != NULL);
    ASSERT_EQ_I64(e->peer, want[i]);
  }
  ASSERT_EQ_U64(nwarn, 1); /* process 7 is not defined; 0 is none */
  ASSERT_CONTAINS(lastwarn, "t.1.events:11");
  /* written back: ranks' main processes 1 and 2 again (the undefined
   * receiver becomes 0, none), threads have their top-level parent */
  snprintf(out, sizeof out, "%s/rt.otf", dir);
  ASSERT_OK(write_all(&a, out, 0, err, sizeof err));
  ASSERT_OK(read_all(out, &b, 0, err, sizeof err));
  int eq = items_equal(&a, &b, why, sizeof why);
  if (!eq) printf("  %s\n", why);
  ASSERT_TRUE(eq);
  items_free(&a);
  items_free(&b);
  pt__rmtree(dir);
  free(dir);
}

TEST(otf_missing_master) {
  char *dir = test_tmpdir("otfbad");
  char err[1024] = "";
  ASSERT_STATUS(read_dir(dir, err, sizeof err), PT_ENOTFOUND);
  ASSERT_CONTAINS(err, "t.otf");
  pt__rmtree(dir);
  free(dir);
}

TEST(otf_bad_hex) {
  char *dir = test_tmpdir("otfbad");
  char err[1024] = "";
  put_file(dir, "t.otf", "1:1\n", 4);
  put_file(dir, "t.0.def", "DTR3e8\nDP1NM\"p\"\n", 16);
  const char ev[] = "10\n*1\nE1\n2g\n*1\nL1\n";
  put_file(dir, "t.1.events", ev, sizeof ev - 1);
  ASSERT_STATUS(read_dir(dir, err, sizeof err), PT_ECORRUPT);
  ASSERT_CONTAINS(err, "t.1.events:4");
  ASSERT_CONTAINS(err, "bad time");
  const char ev2[] = "10\n*1\nS2LzzT1C1\n";
  put_file(dir, "t.1.events", ev2, sizeof ev2 - 1);
  ASSERT_STATUS(read_dir(dir, err, sizeof err), PT_ECORRUPT);
  ASSERT_CONTAINS(err, "t.1.events:3");
  pt__rmtree(dir);
  free(dir);
}

TEST(otf_unknown_record_warns) {
  char *dir = test_tmpdir("otfbad");
  char err[1024] = "";
  put_file(dir, "t.otf", "1:1\n", 4);
  put_file(dir, "t.0.def", "DTR3e8\nDZZ1\nDP1NM\"p\"\n", 21);
  const char ev[] = "10\n*1\nE1\nQQQ5\n20\n*1\nL1\n";
  put_file(dir, "t.1.events", ev, sizeof ev - 1);
  nwarn = 0;
  char p[4200];
  snprintf(p, sizeof p, "%s/t.otf", dir);
  items it;
  ASSERT_OK(read_all(p, &it, 0, err, sizeof err));
  ASSERT_EQ_U64(nwarn, 2);
  ASSERT_CONTAINS(lastwarn, "QQQ");
  ASSERT_EQ_U64(it.nk[PT_ITEM_EVENT], 2);
  items_free(&it);
  pt__rmtree(dir);
  free(dir);
}

TEST(otf_bad_zlib) {
  if (!have_data) return;
  char src[4200];
  path_of(src, sizeof src, "c_zlib/trace/trace_c.1.events.z");
  char *data;
  size_t n;
  ASSERT_OK(pt__read_file(src, 1 << 20, &data, &n));
  char *dir = test_tmpdir("otfbad");
  char err[1024] = "";
  put_file(dir, "t.otf", "1:1,2\n", 6);
  put_file(dir, "t.0.def", "DTR3e8\n", 7);
  /* truncated */
  put_file(dir, "t.1.events.z", data, n / 2);
  int rc = read_dir(dir, err, sizeof err);
  ASSERT_TRUE(rc == PT_ETRUNCATED || rc == PT_ECORRUPT);
  ASSERT_CONTAINS(err, "t.1.events.z");
  /* corrupt */
  for (size_t i = 10; i < n; i += 7) data[i] ^= 0x5a;
  put_file(dir, "t.1.events.z", data, n);
  rc = read_dir(dir, err, sizeof err);
  ASSERT_TRUE(rc == PT_ECORRUPT || rc == PT_ETRUNCATED);
  ASSERT_CONTAINS(err, "t.1.events.z");
  free(data);
  pt__rmtree(dir);
  free(dir);
}

TEST(otf_split_table) {
  otf__line ln;
  char msg[256];
  const char l1[] = "DCNT1G1eNM\"FP_OPS\"P0U\"#\"";
  ASSERT_EQ_I64(pt__otf_split(l1, l1 + sizeof l1 - 1, &ln, msg, sizeof msg),
                OTF_R_DEFCOUNTER);
  uint64_t v;
  ASSERT_OK(pt__otf_hex(&ln.f[OTF_F_G], &v));
  ASSERT_EQ_U64(v, 0x1e);
  const char l2[] = "COLLOPBEGIN 1 HANDLEID 1 COMM 64 ROOT 0 SENT 8 RECVD 8";
  ASSERT_EQ_I64(pt__otf_split(l2, l2 + sizeof l2 - 1, &ln, msg, sizeof msg),
                OTF_R_COLLOPBEGIN);
  ASSERT_OK(pt__otf_hex(&ln.f[OTF_F_C], &v));
  ASSERT_EQ_U64(v, 0x64);
  const char l3[] = "S2L400T7Q64";
  ASSERT_EQ_I64(pt__otf_split(l3, l3 + sizeof l3 - 1, &ln, msg, sizeof msg),
                -2);
  ASSERT_CONTAINS(msg, "column 9");
  for (int r = 0; r < OTF_R__COUNT; r++) {
    const char *s = pt__otf_record_short(r);
    ASSERT_TRUE(s && *s);
  }
}

/* Parse speed over a synthetic events file (printed, not asserted). */
TEST(otf_parse_speed) {
  char *dir = test_tmpdir("otfspeed");
  pt__buf b = {0};
  uint64_t t = 0;
  for (int i = 0; i < 400000; i++) {
    char l[128];
    t += 13;
    int n = snprintf(l, sizeof l, "%llx\n*%x\nE%x\nCNT1V%llx\nS%xL400T7C64\n",
                     (unsigned long long)t, i % 4 + 1, i % 50 + 1,
                     (unsigned long long)t * 3, (i + 1) % 4 + 1);
    pt__buf_put(&b, l, (size_t)n);
  }
  put_file(dir, "t.otf", "1:1,2,3,4\n", 10);
  put_file(dir, "t.0.def", "DTR3e8\n", 7);
  put_file(dir, "t.1.events", b.p, b.len);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  char p[4200], err[256];
  snprintf(p, sizeof p, "%s/t.otf", dir);
  pt_source_opts o = {0};
  void *st;
  pt_error e;
  ASSERT_OK(pt__format_otf.src_open(&st, p, &o, &e));
  pt_item it;
  size_t n = 0;
  int rc;
  while ((rc = pt__format_otf.src_next(st, &it)) == PT_OK) n++;
  pt__format_otf.src_close(st);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  (void)err;
  double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  printf("note: parsed %.1f MB (%zu items) in %.3f s: %.0f MB/s\n",
         (double)b.len / 1e6, n, s, (double)b.len / 1e6 / s);
  ASSERT_STATUS(rc, PT_END);
  pt__buf_free(&b);
  pt__rmtree(dir);
  free(dir);
}

int main(void) {
  find_testdata();
  RUN(otf_split_table);
  RUN(otf_a_short);
  RUN(otf_a_long);
  RUN(otf_b_short);
  RUN(otf_b_long);
  RUN(otf_b_globalonly);
  RUN(otf_b_merged);
  RUN(otf_c_zlib);
  RUN(otf_d_snaps_stats);
  RUN(otf_roundtrip_a);
  RUN(otf_roundtrip_b);
  RUN(otf_roundtrip_b_long);
  RUN(otf_roundtrip_c);
  RUN(otf_roundtrip_d);
  RUN(otf_threads_are_ranks);
  RUN(otf_missing_master);
  RUN(otf_bad_hex);
  RUN(otf_unknown_record_warns);
  RUN(otf_bad_zlib);
  RUN(otf_parse_speed);
  return test_summary();
}
