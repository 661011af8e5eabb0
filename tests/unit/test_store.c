/* PTF archives through the public writer and reader: property round trips,
 * merge order, filters, seek, ordering errors, many streams under a small
 * descriptor limit, overwrite semantics, summaries and snapshots. */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paratrace/analysis.h"
#include "test.h"
#include "test_store_util.h"
#include "store/archive.h"

typedef struct model {
  xev *x;
  size_t n;
  pt__arena a;
  pt_def *defs; /* global, then local by stream id */
  size_t ndefs;
  uint64_t *locs; /* every location */
  size_t nlocs;
} model;

static void model_free(model *m) {
  free(m->x);
  free(m->defs);
  free(m->locs);
  pt__arena_free(&m->a);
  memset(m, 0, sizeof *m);
}

/* Knobs of write_model for the tests of the common-event paths (writer
 * shortcut, reader batches): g_simple = N makes N-1 of N events an enter
 * or leave with a small region id (now and then one that needs a 3-byte
 * varint) and mixes time steps of 1 to 6 bytes; g_threads is the writer's
 * compression threads. */
static int g_simple, g_threads;

/* Write a random archive: nstreams streams with lps locations each, nev
 * events, random definitions (global and local). */
static int write_model(const char *path, model *m, unsigned nstreams,
                       unsigned lps, size_t nev, size_t block, int level,
                       int attr_odds) {
  memset(m, 0, sizeof *m);
  pt_writer_opts o = {.block_size = block, .level = level, .creator = "test",
                      .threads = g_threads};
  pt_writer *w;
  pt_error err;
  int rc = pt_writer_open(&w, path, &o, &err);
  if (rc) {
    fprintf(stderr, "open: %s\n", err.msg);
    return rc;
  }
  m->x = calloc(nev ? nev : 1, sizeof *m->x);
  m->nlocs = (size_t)nstreams * lps;
  m->locs = calloc(m->nlocs ? m->nlocs : 1, sizeof *m->locs);
  size_t ngdefs = 5 + rndn(20), nldefs = nstreams * 2;
  m->defs = calloc(ngdefs + nldefs, sizeof *m->defs);
  for (size_t i = 0; i < ngdefs; i++) {
    rnd_def(&m->a, &m->defs[m->ndefs], 0);
    if ((rc = pt_writer_def(w, &m->defs[m->ndefs]))) return rc;
    m->ndefs++;
  }
  pt_stream **s = calloc(nstreams, sizeof *s);
  uint64_t *t = calloc(nstreams, sizeof *t);
  uint64_t *seq = calloc(nstreams, sizeof *seq);
  for (unsigned i = 0; i < nstreams; i++) {
    if ((rc = pt_writer_stream(w, i, &s[i]))) return rc;
    t[i] = rndn(100);
    for (unsigned j = 0; j < lps; j++) m->locs[i * lps + j] = 1000 + i * lps + j;
  }
  for (unsigned i = 0; i < nstreams; i++)
    for (int k = 0; k < 2; k++) {
      pt_def *d = &m->defs[m->ndefs++];
      rnd_def(&m->a, d, 0);
      if ((rc = pt_stream_def(s[i], d))) return rc;
      d->scope = i + 1;
    }
  for (size_t i = 0; i < nev; i++) {
    unsigned k = (unsigned)rndn(nstreams);
    t[k] += rndn(3) ? rndn(20) : 0;
    xev *x = &m->x[m->n++];
    uint64_t loc = m->locs[k * lps + (rndn(8) ? 0 : rndn(lps))];
    if (g_simple && rndn((uint64_t)g_simple)) {
      static const uint64_t steps[] = {1u << 7, 1u << 15, 1u << 23, 1ull << 31,
                                       1ull << 40};
      if (rndn(50) == 0) t[k] += rndn(steps[rndn(5)]);
      pt_event_init(&x->ev, rndn(2) ? PT_EV_ENTER : PT_EV_LEAVE, t[k], loc);
      x->ev.ref = rndn(100) ? rndn(300) : rndn(1u << 20);
      if (rndn(1000) == 0) x->ev.ref = PT_NONE;
    } else {
      rnd_event(&m->a, &x->ev, 0, t[k], loc, attr_odds);
    }
    x->stream = k;
    x->seq = seq[k]++;
    if ((rc = pt_stream_event(s[k], &x->ev))) {
      fprintf(stderr, "event: %s\n", pt_stream_errmsg(s[k]));
      return rc;
    }
    if (rndn(5000) == 0) pt_stream_flush(s[k]);
  }
  free(s);
  free(t);
  free(seq);
  rc = pt_writer_close(w, &err);
  if (rc) fprintf(stderr, "close: %s\n", err.msg);
  qsort(m->x, m->n, sizeof *m->x, xev_cmp);
  return rc;
}

static int warnings;
static char last_warning[1024];
static void count_warn(void *u, const char *msg) {
  (void)u;
  warnings++;
  snprintf(last_warning, sizeof last_warning, "%s", msg);
}

static int in_set(const uint64_t *set, size_t n, uint64_t v) {
  for (size_t i = 0; i < n; i++)
    if (set[i] == v) return 1;
  return 0;
}

static int passes(const pt_event *x, const pt_reader_opts *o) {
  uint64_t to = o && o->to ? o->to : UINT64_MAX;
  uint64_t from = o ? o->from : 0;
  uint64_t kinds = o && o->kinds ? o->kinds : PT_KINDS_ALL;
  return x->time >= from && x->time < to && (kinds & PT_KIND_BIT(x->kind)) &&
         (!o || !o->locations || in_set(o->locations, o->nlocations, x->location));
}

/* Read with opts through pt_reader_next_run (mixed with pt_reader_next
 * when `mix`): each location's events are the model's, in order; runs
 * are of one location and come in order of their first times. */
static int check_runs(const char *path, const model *m,
                      const pt_reader_opts *o, int mix) {
  pt_reader *r;
  pt_error err;
  if (pt_reader_open(&r, path, o, &err)) {
    fprintf(stderr, "reader open: %s\n", err.msg);
    return 0;
  }
  /* the locations seen, each with the model index to look from next */
  size_t *cur = calloc(m->n + 1, sizeof *cur), nseen = 0;
  uint64_t *seen = calloc(m->n + 1, sizeof *seen);
  size_t got = 0, want = 0;
  for (size_t i = 0; i < m->n; i++) want += (size_t)passes(&m->x[i].ev, o);
  uint64_t prev_first = 0;
  int ok = 1, rc;
  for (;;) {
    pt_event one, fast;
    pt_event_run run;
    int single = mix && rndn(3) == 0;
    if (single) {
      rc = pt_reader_next(r, &one);
      if (rc == PT_OK) {
        run.location = one.location;
        run.n = 1;
        run.event = &one;
      }
    } else {
      rc = pt_reader_next_run(r, &run);
    }
    if (rc != PT_OK) break;
    if (run.n == 0 || (run.event && run.n != 1)) {
      fprintf(stderr, "run of %zu events\n", run.n);
      ok = 0;
      break;
    }
    size_t li = 0;
    while (li < nseen && seen[li] != run.location) li++;
    if (li == nseen) {
      if (nseen == m->n + 1) {
        fprintf(stderr, "runs of more locations than events\n");
        ok = 0;
        break;
      }
      seen[nseen++] = run.location;
    }
    for (size_t k = 0; k < run.n && ok; k++) {
      const pt_event *e = run.event;
      if (!e) {
        /* what pt_reader_next gives for a compact event */
        memset(&fast, 0, sizeof fast);
        fast.time = run.time[k];
        fast.location = run.location;
        fast.kind = run.kind[k];
        fast.ref = run.ref[k];
        e = &fast;
      }
      if (k == 0) {
        if (e->time < prev_first) {
          fprintf(stderr, "run at %llu after one at %llu\n",
                  (unsigned long long)e->time, (unsigned long long)prev_first);
          ok = 0;
        }
        prev_first = e->time;
      }
      size_t i = cur[li];
      while (i < m->n && (m->x[i].ev.location != run.location ||
                          !passes(&m->x[i].ev, o)))
        i++;
      if (i >= m->n || !pt_event_equal(e, &m->x[i].ev)) {
        fprintf(stderr, "run event %zu of location %llu differs\n", got,
                (unsigned long long)run.location);
        ok = 0;
      }
      cur[li] = i + 1;
      got++;
    }
    if (!ok) break;
  }
  if (ok && rc != PT_END) {
    fprintf(stderr, "next_run: %s\n", pt_reader_errmsg(r));
    ok = 0;
  }
  if (ok && got != want) {
    fprintf(stderr, "runs gave %zu events, want %zu\n", got, want);
    ok = 0;
  }
  free(cur);
  free(seen);
  pt_reader_close(r);
  return ok;
}

/* Read with opts and compare with the model filtered by hand. */
static int check_read(const char *path, const model *m,
                      const pt_reader_opts *o) {
  pt_reader *r;
  pt_error err;
  int rc = pt_reader_open(&r, path, o, &err);
  if (rc) {
    fprintf(stderr, "reader open: %s\n", err.msg);
    return 0;
  }
  size_t i = 0, got = 0;
  pt_event ev;
  int ok = 1;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) {
    while (i < m->n && !passes(&m->x[i].ev, o)) i++;
    if (i >= m->n || !pt_event_equal(&ev, &m->x[i].ev)) {
      fprintf(stderr, "event %zu differs (time %llu kind %s loc %llu ref %llu)\n", got,
              (unsigned long long)ev.time, pt_event_kind_name(ev.kind),
              (unsigned long long)ev.location, (unsigned long long)ev.ref);
      if (i < m->n) fprintf(stderr, "expected time %llu kind %s loc %llu ref %llu\n",
              (unsigned long long)m->x[i].ev.time, pt_event_kind_name(m->x[i].ev.kind),
              (unsigned long long)m->x[i].ev.location, (unsigned long long)m->x[i].ev.ref);
      ok = 0;
      break;
    }
    i++;
    got++;
  }
  if (ok && rc != PT_END) {
    fprintf(stderr, "next: %s\n", pt_reader_errmsg(r));
    ok = 0;
  }
  if (ok)
    for (; i < m->n; i++)
      if (passes(&m->x[i].ev, o)) {
        fprintf(stderr, "missing events after %zu\n", got);
        ok = 0;
        break;
      }
  pt_reader_close(r);
  return ok && check_runs(path, m, o, 0) && check_runs(path, m, o, 1);
}

TEST(roundtrip_property) {
  for (int round = 0; round < 8; round++) {
    rng_seed(42 + (uint64_t)round);
    char *dir = test_tmpdir("rt");
    char path[4200];
    snprintf(path, sizeof path, "%s/a.ptf", dir);
    model m;
    unsigned ns = 1 + (unsigned)rndn(6);
    size_t block = (size_t)(256 + rndn(8192));
    int level = (int)rndn(3) - 1; /* raw, default, 1 */
    ASSERT_OK(write_model(path, &m, ns, 1 + (unsigned)rndn(4),
                          (size_t)rndn(20000), block, level, 4));
    ASSERT_TRUE(check_read(path, &m, NULL));
    /* definitions: global then local, in order */
    pt_reader *r;
    ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
    ASSERT_EQ_U64(pt_reader_ndefs(r), m.ndefs);
    for (size_t i = 0; i < m.ndefs; i++)
      if (!pt_def_equal(pt_reader_def(r, i), &m.defs[i]))
        TEST_FAIL_("def %zu differs (kind %u)", i, m.defs[i].kind);
    ASSERT_EQ_U64(pt_reader_nstreams(r), ns);
    uint64_t total = 0;
    for (size_t i = 0; i < ns; i++) {
      const pt_stream_info *si = pt_reader_stream_info(r, i);
      ASSERT_EQ_U64(si->stream, i);
      ASSERT_TRUE(!si->index_rebuilt);
      total += si->events;
    }
    ASSERT_EQ_U64(total, m.n);
    ASSERT_EQ_STR(pt_reader_anchor(r, "creator"), "test");
    ASSERT_EQ_STR(pt_reader_anchor(r, "state"), "closed");
    pt_reader_close(r);
    model_free(&m);
    pt__rmtree(dir);
    free(dir);
  }
}

/* An invalid event is refused with a message that says what is wrong
 * (before: "event kind 1 or a value type invalid" for every case, naming
 * a kind that is valid). */
TEST(invalid_event_said) {
  char *dir = test_tmpdir("inval");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  pt_stream *s;
  ASSERT_OK(pt_writer_stream(w, 0, &s));
  pt_event ev;
  pt_attr a[2];
  memset(a, 0, sizeof a);
  a[0].key = 3;
  a[0].val.type = PT_TYPE_INT;
  a[1].key = 4;
  a[1].val.type = 77;
  pt_event_init(&ev, PT_EV_ENTER, 10, 0);
  ev.nattrs = 2;
  ev.attrs = a;
  ASSERT_STATUS(pt_stream_event(s, &ev), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "stream 0: time 10: enter event: "
                  "attribute 1 (key 4) is value type 77");
  ev.attrs = NULL;
  ASSERT_STATUS(pt_stream_event(s, &ev), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "nattrs is 2 but attrs is NULL");
  a[1].val.type = PT_TYPE_INTS;
  a[1].val.count = 3;
  ev.attrs = a;
  ASSERT_STATUS(pt_stream_event(s, &ev), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "array of 3 elements");
  pt_event_init(&ev, PT_EV_METRIC, 10, 0);
  ev.value.type = 99;
  ASSERT_STATUS(pt_stream_event(s, &ev), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "metric event: its value is value "
                  "type 99");
  ev.kind = 200;
  ASSERT_STATUS(pt_stream_event(s, &ev), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "event kind 200 is not a kind");
  pt_snapshot sn;
  memset(&sn, 0, sizeof sn);
  sn.time = 5;
  pt_event_init(&sn.event, PT_EV_ENTER, 1, 0);
  sn.event.nattrs = 1;
  sn.event.attrs = &a[1];
  ASSERT_STATUS(pt_stream_snapshot(s, &sn), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "snapshot at 5: enter event: "
                  "attribute 0");
  /* a string value NULL is kept apart from "" */
  a[1].val.type = PT_TYPE_STRING;
  a[1].val.count = 0;
  pt_event_init(&ev, PT_EV_ENTER, 10, 0);
  ev.nattrs = 2;
  ev.attrs = a;
  ASSERT_OK(pt_stream_event(s, &ev));
  ASSERT_OK(pt_writer_close(w, NULL));
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  pt_event got;
  ASSERT_OK(pt_reader_next(r, &got));
  ASSERT_TRUE(pt_event_equal(&got, &ev));
  ASSERT_STATUS(pt_reader_next(r, &got), PT_END);
  pt_reader_close(r);
  pt__rmtree(dir);
  free(dir);
}

/* A summary of a kind that is not a pt_summary_kind is refused, as the
 * headers say (before: written, and then the archive could not be dumped
 * or converted to text: "summary of unknown kind 999"). */
TEST(summary_kind_checked) {
  char *dir = test_tmpdir("sumkind");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  pt_stream *s;
  ASSERT_OK(pt_writer_stream(w, 0, &s));
  pt_event ev;
  pt_event_init(&ev, PT_EV_ENTER, 10, 0);
  ASSERT_OK(pt_stream_event(s, &ev));
  pt_summary sum;
  memset(&sum, 0, sizeof sum);
  sum.time = 20;
  sum.kind = 999;
  ASSERT_STATUS(pt_stream_summary(s, &sum), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "kind 999 is not a pt_summary_kind");
  sum.kind = 0;
  ASSERT_STATUS(pt_stream_summary(s, &sum), PT_EINVAL);
  sum.kind = PT_SUM_CALL_VISITS;
  ASSERT_OK(pt_stream_summary(s, &sum));
  /* a location whose events another stream holds is refused (a reader
   * takes a location's summaries and snapshots from its events' stream;
   * before, both were written and then never found) */
  pt_stream *s1;
  ASSERT_OK(pt_writer_stream(w, 1, &s1));
  pt_event_init(&ev, PT_EV_ENTER, 11, 1);
  ASSERT_OK(pt_stream_event(s1, &ev));
  sum.location = 1;
  ASSERT_STATUS(pt_stream_summary(s, &sum), PT_EINVAL);
  ASSERT_CONTAINS(pt_stream_errmsg(s), "location 1 already belongs to stream 1");
  pt_snapshot snap;
  memset(&snap, 0, sizeof snap);
  snap.time = 30;
  snap.location = 1;
  pt_event_init(&snap.event, PT_EV_ENTER, 11, 1);
  ASSERT_STATUS(pt_stream_snapshot(s, &snap), PT_EINVAL);
  ASSERT_OK(pt_stream_summary(s1, &sum));
  sum.location = 0;
  ASSERT_OK(pt_writer_close(w, NULL));
  pt_aux_writer *a;
  ASSERT_OK(pt_aux_open(&a, path, 0, PT_ITEM_SUMMARY, NULL));
  pt_item it;
  memset(&it, 0, sizeof it);
  it.type = PT_ITEM_SUMMARY;
  it.u.summary = sum;
  it.u.summary.kind = PT_SUM_CALL_VISITS + 1;
  ASSERT_STATUS(pt_aux_add(a, &it), PT_EINVAL);
  /* the aux writer says why (it had no *_errmsg before) */
  ASSERT_CONTAINS(pt_aux_errmsg(a), "unknown kind 17");
  ASSERT_CONTAINS(pt_aux_errmsg(a), ".sums");
  it.u.summary.kind = PT_SUM_REGION;
  ASSERT_OK(pt_aux_add(a, &it));
  it.u.summary.time = 0;
  ASSERT_STATUS(pt_aux_add(a, &it), PT_EORDER);
  ASSERT_CONTAINS(pt_aux_errmsg(a), "before the previous one");
  it.type = PT_ITEM_SNAPSHOT;
  ASSERT_STATUS(pt_aux_add(a, &it), PT_EINVAL);
  ASSERT_CONTAINS(pt_aux_errmsg(a), "file of summaries");
  ASSERT_STATUS(pt_aux_add(a, NULL), PT_EINVAL);
  ASSERT_OK(pt_aux_close(a, NULL));
  pt__rmtree(dir);
  free(dir);
}

/* NULL where a pointer is needed gives PT_EINVAL and a message instead of
 * a crash: the out pointers of pt_writer_open / pt_reader_open /
 * pt_writer_stream, pt_writer_def's def, and a reader location selection
 * with nlocations > 0 but locations NULL (before: all SIGSEGV). */
TEST(null_arguments_refused) {
  char *dir = test_tmpdir("nullarg");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_error err;
  ASSERT_STATUS(pt_writer_open(NULL, path, NULL, &err), PT_EINVAL);
  ASSERT_CONTAINS(err.msg, "out is NULL");
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  ASSERT_STATUS(pt_writer_def(w, NULL), PT_EINVAL);
  ASSERT_CONTAINS(pt_writer_errmsg(w), "def is NULL");
  ASSERT_STATUS(pt_writer_stream(w, 0, NULL), PT_EINVAL);
  ASSERT_CONTAINS(pt_writer_errmsg(w), "out is NULL");
  pt_stream *s;
  ASSERT_OK(pt_writer_stream(w, 0, &s));
  pt_event ev;
  pt_event_init(&ev, PT_EV_ENTER, 1, 0);
  ASSERT_OK(pt_stream_event(s, &ev));
  ASSERT_OK(pt_writer_close(w, NULL));
  ASSERT_STATUS(pt_reader_open(NULL, path, NULL, &err), PT_EINVAL);
  ASSERT_CONTAINS(err.msg, "out is NULL");
  pt_reader_opts o;
  memset(&o, 0, sizeof o);
  o.nlocations = 2;
  pt_reader *r = (pt_reader *)&o;
  ASSERT_STATUS(pt_reader_open(&r, path, &o, &err), PT_EINVAL);
  ASSERT_TRUE(r == NULL);
  ASSERT_CONTAINS(err.msg, "2 locations selected but locations is NULL");
  pt__rmtree(dir);
  free(dir);
}

TEST(out_of_order_and_location_rules) {
  char *dir = test_tmpdir("ooo");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  pt_stream *s0, *s1;
  ASSERT_OK(pt_writer_stream(w, 0, &s0));
  ASSERT_OK(pt_writer_stream(w, 7, &s1));
  pt_event ev;
  pt_event_init(&ev, PT_EV_ENTER, 100, 5);
  ASSERT_OK(pt_stream_event(s0, &ev));
  ev.time = 99;
  ASSERT_STATUS(pt_stream_event(s0, &ev), PT_EORDER);
  ASSERT_CONTAINS(pt_stream_errmsg(s0), "stream 0");
  ASSERT_CONTAINS(pt_stream_errmsg(s0), "location 5");
  ASSERT_CONTAINS(pt_stream_errmsg(s0), "99");
  ASSERT_CONTAINS(pt_stream_errmsg(s0), "100");
  ev.time = 100;
  ASSERT_STATUS(pt_stream_event(s1, &ev), PT_EINVAL); /* loc 5 is s0's */
  ASSERT_CONTAINS(pt_stream_errmsg(s1), "belongs to stream 0");
  ev.kind = 0;
  ASSERT_STATUS(pt_stream_event(s0, &ev), PT_EINVAL);
  ev.kind = PT_EV_METRIC;
  ev.value.type = 99;
  ASSERT_STATUS(pt_stream_event(s0, &ev), PT_EINVAL);
  pt_stream *big;
  ASSERT_STATUS(pt_writer_stream(w, 1ull << 24, &big), PT_ELIMIT);
  pt_def d;
  pt_def_init(&d, 0, 1);
  ASSERT_STATUS(pt_writer_def(w, &d), PT_EINVAL);
  ASSERT_OK(pt_writer_close(w, NULL));
  /* existing path and overwrite = 0 */
  pt_error err;
  ASSERT_STATUS(pt_writer_open(&w, path, NULL, &err), PT_EEXIST);
  ASSERT_TRUE(w == NULL);
  struct stat sb;
  ASSERT_TRUE(stat(path, &sb) == 0); /* untouched */
  pt__rmtree(dir);
  free(dir);
}

TEST(overwrite_and_abort) {
  char *dir = test_tmpdir("ow");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  model m1, m2;
  rng_seed(9);
  ASSERT_OK(write_model(path, &m1, 2, 2, 500, 1024, 1, 0));
  /* overwrite: abort keeps the old archive */
  pt_writer_opts o = {.overwrite = 1};
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, &o, NULL));
  pt_stream *s;
  ASSERT_OK(pt_writer_stream(w, 0, &s));
  pt_event ev;
  pt_event_init(&ev, PT_EV_ENTER, 1, 1);
  ASSERT_OK(pt_stream_event(s, &ev));
  ASSERT_OK(pt_stream_flush(s));
  pt_writer_abort(w);
  ASSERT_TRUE(check_read(path, &m1, NULL));
  /* overwrite: close replaces */
  ASSERT_OK(pt_writer_open(&w, path, &o, NULL));
  ASSERT_OK(pt_writer_stream(w, 3, &s));
  ASSERT_OK(pt_stream_event(s, &ev));
  ASSERT_OK(pt_writer_close(w, NULL));
  memset(&m2, 0, sizeof m2);
  m2.x = calloc(1, sizeof *m2.x);
  m2.x[0].ev = ev;
  m2.n = 1;
  ASSERT_TRUE(check_read(path, &m2, NULL));
  /* no temporaries left next to it */
  int n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while ((e = readdir(d))) n += e->d_name[0] != '.';
  closedir(d);
  ASSERT_EQ_I64(n, 1);
  model_free(&m1);
  model_free(&m2);
  pt__rmtree(dir);
  free(dir);
}

TEST(filters_and_seek) {
  rng_seed(2024);
  char *dir = test_tmpdir("flt");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  model m;
  ASSERT_OK(write_model(path, &m, 5, 3, 30000, 2048, 1, 10));
  uint64_t tmax = m.x[m.n - 1].ev.time;
  for (int round = 0; round < 30; round++) {
    pt_reader_opts o = {0};
    uint64_t sel[6];
    size_t nsel = rndn(7);
    for (size_t i = 0; i < nsel; i++) sel[i] = m.locs[rndn(m.nlocs)];
    if (rndn(3)) {
      o.locations = sel;
      o.nlocations = nsel;
    }
    if (rndn(2)) o.from = rndn(tmax + 10);
    if (rndn(2)) o.to = o.from + rndn(tmax / 2 + 1);
    if (rndn(2)) o.kinds = rnd() & ~(uint64_t)1;
    o.max_open_files = 1 + rndn(4);
    if (!check_read(path, &m, &o))
      TEST_FAIL_("round %d: filters differ (nloc %zu from %llu to %llu)",
                 round, o.nlocations, (unsigned long long)o.from,
                 (unsigned long long)o.to);
  }
  /* seek to random times equals a linear scan */
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  for (int round = 0; round < 200; round++) {
    uint64_t t = rndn(tmax + 5);
    ASSERT_OK(pt_reader_seek(r, t));
    size_t i = 0;
    while (i < m.n && m.x[i].ev.time < t) i++;
    for (int k = 0; k < 50; k++, i++) {
      pt_event ev;
      int rc = pt_reader_next(r, &ev);
      if (i >= m.n) {
        ASSERT_STATUS(rc, PT_END);
        break;
      }
      ASSERT_OK(rc);
      if (!pt_event_equal(&ev, &m.x[i].ev))
        TEST_FAIL_("seek %llu: event %d differs", (unsigned long long)t, k);
    }
  }
  pt_reader_close(r);
  model_free(&m);
  pt__rmtree(dir);
  free(dir);
}

/* Archives of mostly enter/leave events go through the writer's shortcut
 * and the reader's batches; whatever the filters and seeks, the reader
 * gives what a filtered scan of the model gives. */
TEST(common_event_paths) {
  rng_seed(77);
  char *dir = test_tmpdir("fast");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  model m;
  g_simple = 20;
  int rc = write_model(path, &m, 3, 3, 60000, 4096, 1, 30);
  g_simple = 0;
  ASSERT_OK(rc);
  ASSERT_TRUE(check_read(path, &m, NULL));
  uint64_t tmax = m.x[m.n - 1].ev.time;
  for (int round = 0; round < 40; round++) {
    pt_reader_opts o = {0};
    uint64_t sel[4];
    size_t nsel = 1 + rndn(4);
    for (size_t i = 0; i < nsel; i++) sel[i] = m.locs[rndn(m.nlocs)];
    if (rndn(2)) {
      o.locations = sel;
      o.nlocations = nsel;
    }
    if (rndn(2)) o.from = rndn(tmax + 10);
    if (rndn(2)) o.to = o.from + 1 + rndn(tmax / 2 + 1);
    if (rndn(3) == 0)
      o.kinds = PT_KIND_BIT(PT_EV_ENTER) | (rnd() & ~(uint64_t)1);
    if (!check_read(path, &m, &o))
      TEST_FAIL_("round %d: filters differ (nloc %zu from %llu to %llu)",
                 round, o.nlocations, (unsigned long long)o.from,
                 (unsigned long long)o.to);
  }
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  for (int round = 0; round < 100; round++) {
    uint64_t t = rndn(tmax + 5);
    ASSERT_OK(pt_reader_seek(r, t));
    size_t i = 0;
    while (i < m.n && m.x[i].ev.time < t) i++;
    for (int k = 0; k < 300; k++, i++) {
      pt_event ev;
      int rc2 = pt_reader_next(r, &ev);
      if (i >= m.n) {
        ASSERT_STATUS(rc2, PT_END);
        break;
      }
      ASSERT_OK(rc2);
      if (!pt_event_equal(&ev, &m.x[i].ev))
        TEST_FAIL_("seek %llu: event %d differs", (unsigned long long)t, k);
    }
  }
  pt_reader_close(r);
  model_free(&m);
  pt__rmtree(dir);
  free(dir);
}

/* One location per stream and almost only enter/leave: the reader's
 * common step (a scan of a fixed four keys when there are at most four
 * streams, the unchecked part of a batch fill) does nearly all the work,
 * with 1, 2, 3 and 4 streams (keys past the streams stay done) and with
 * more than four (the general path), whole and filtered. */
TEST(few_streams_common_step) {
  static const unsigned ns[] = {1, 2, 3, 4, 5};
  for (size_t v = 0; v < sizeof ns / sizeof ns[0]; v++) {
    rng_seed(9100 + v);
    char *dir = test_tmpdir("few");
    char path[4200];
    snprintf(path, sizeof path, "%s/a.ptf", dir);
    model m;
    g_simple = 60;
    int rc = write_model(path, &m, ns[v], 1, 30000, 2048, 1, 40);
    g_simple = 0;
    ASSERT_OK(rc);
    if (!check_read(path, &m, NULL))
      TEST_FAIL_("%u streams: merged read differs", ns[v]);
    uint64_t tmax = m.x[m.n - 1].ev.time;
    for (int round = 0; round < 10; round++) {
      pt_reader_opts o = {0};
      uint64_t sel[2] = {m.locs[rndn(m.nlocs)], m.locs[rndn(m.nlocs)]};
      if (rndn(2)) {
        o.locations = sel;
        o.nlocations = 1 + rndn(2);
      }
      o.from = rndn(tmax + 10);
      if (rndn(2)) o.to = o.from + 1 + rndn(tmax / 2 + 1);
      if (!check_read(path, &m, &o))
        TEST_FAIL_("%u streams, round %d: filtered read differs", ns[v],
                   round);
    }
    model_free(&m);
    pt__rmtree(dir);
    free(dir);
  }
}

/* Blocks whose widest time delta takes 1 to 8 bytes (the writer lays out
 * planes 0-2 in one pass and the wider ones after it, with and without a
 * compression thread): every time reads back. */
TEST(delta_widths_roundtrip) {
  for (unsigned wbytes = 1; wbytes <= 8; wbytes++)
    for (int threads = 0; threads <= 1; threads++) {
      rng_seed(300 + wbytes);
      char *dir = test_tmpdir("dw");
      char path[4200];
      snprintf(path, sizeof path, "%s/a.ptf", dir);
      pt_writer_opts o = {.threads = threads, .block_size = 4096};
      pt_writer *w;
      pt_stream *st;
      ASSERT_OK(pt_writer_open(&w, path, &o, NULL));
      ASSERT_OK(pt_writer_stream(w, 0, &st));
      enum { N = 6000 };
      static uint64_t times[N];
      uint64_t t = 5;
      for (int i = 0; i < N; i++) {
        /* one wide delta every 997 events (6 of them: no overflow) */
        if (i % 997 == 500)
          t += ((uint64_t)1 << (wbytes == 8 ? 56 : 8 * wbytes - 1)) + rndn(99);
        else
          t += rndn(300);
        times[i] = t;
        pt_event ev;
        pt_event_init(&ev, i & 1 ? PT_EV_LEAVE : PT_EV_ENTER, t, 3);
        ev.ref = (uint64_t)rndn(200);
        ASSERT_OK(pt_stream_event(st, &ev));
      }
      ASSERT_OK(pt_writer_close(w, NULL));
      pt_reader *r;
      ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
      pt_event ev;
      for (int i = 0; i < N; i++) {
        ASSERT_OK(pt_reader_next(r, &ev));
        if (ev.time != times[i])
          TEST_FAIL_("width %u, threads %d: event %d at %llu, not %llu",
                     wbytes, threads, i, (unsigned long long)ev.time,
                     (unsigned long long)times[i]);
      }
      ASSERT_STATUS(pt_reader_next(r, &ev), PT_END);
      pt_reader_close(r);
      pt__rmtree(dir);
      free(dir);
    }
}

/* Damaged events payloads whose checksums were made right again (the
 * blocks stored raw, so the bytes are the payload): the reader's batch
 * fill (which decodes runs of common events without bounds checks when
 * they cannot reach the end) hands out events or names the damage, and
 * never reads outside the block (run under ASan by the suite). */
TEST(damaged_payload_with_good_checksum) {
  rng_seed(5150);
  char *dir = test_tmpdir("dmg");
  char path[4200], ev0[4300];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  snprintf(ev0, sizeof ev0, "%s/s0.events", path);
  model m;
  g_simple = 40;
  int rc = write_model(path, &m, 1, 1, 3000, 1024, -1, 40);
  g_simple = 0;
  ASSERT_OK(rc);
  char *orig = NULL;
  size_t n = 0;
  ASSERT_OK(pt__read_file(ev0, 1u << 26, &orig, &n));
  char *img = malloc(n);
  ASSERT_TRUE(img != NULL);
  for (int round = 0; round < 300; round++) {
    memcpy(img, orig, n);
    /* damage one block's payload, then fix its checksums */
    size_t off = 0, pick = rndn(8), k = 0;
    while (off + PT__BLK_HDR <= n) {
      pt__blkhdr h;
      const char *why;
      if (pt__blkhdr_parse((uint8_t *)img + off, &h, &why)) break;
      uint8_t *pl = (uint8_t *)img + off + PT__BLK_HDR;
      if (k++ == pick || off + PT__BLK_HDR + h.stored >= n) {
        ASSERT_EQ_U64(h.codec, PT__CODEC_RAW);
        int nb = 1 + (int)rndn(4);
        for (int b = 0; b < nb; b++) {
          size_t at = rndn(4) ? h.stored - 1 - rndn(h.stored < 40 ? h.stored : 40)
                              : rndn(h.stored);
          pl[at] = (uint8_t)(rndn(3) ? rnd() : (rndn(2) ? 0x80 | rnd() : 0));
        }
        h.pcrc = pt__crc32c(0, pl, h.stored);
        pt__blkhdr_write((uint8_t *)img + off, &h);
        break;
      }
      off += PT__BLK_HDR + h.stored;
    }
    FILE *f = fopen(ev0, "wb");
    ASSERT_TRUE(f && fwrite(img, 1, n, f) == n);
    fclose(f);
    pt_reader *r;
    ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
    pt_event ev;
    uint64_t got = 0;
    while ((rc = pt_reader_next(r, &ev)) == PT_OK) got++;
    if (rc != PT_END && rc != PT_ECORRUPT)
      TEST_FAIL_("round %d: %s", round, pt_strerror(rc));
    ASSERT_TRUE(got <= m.n);
    pt_reader_close(r);
  }
  free(img);
  free(orig);
  model_free(&m);
  pt__rmtree(dir);
  free(dir);
}

/* Every file but the anchor, byte for byte. */
static int same_files(const char *a, const char *b) {
  DIR *d = opendir(a);
  if (!d) return 0;
  struct dirent *e;
  int same = 1, n = 0;
  while (same && (e = readdir(d))) {
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "anchor")) continue;
    char pa[8400], pb[8400];
    snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
    snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
    char *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    if (pt__read_file(pa, 1u << 30, &x, &nx) ||
        pt__read_file(pb, 1u << 30, &y, &ny) || nx != ny ||
        memcmp(x, y, nx) != 0) {
      fprintf(stderr, "%s differs\n", e->d_name);
      same = 0;
    }
    free(x);
    free(y);
    n++;
  }
  closedir(d);
  return same && n > 0;
}

/* Compression threads change when blocks are written, not what: the same
 * events give the same files, with few streams (descriptors kept open)
 * and with many (open, append, close per block), and read back equal. */
TEST(compression_threads_same_archive) {
  char *dir = test_tmpdir("thr");
  static const unsigned streams[] = {3, 40};
  for (int v = 0; v < 2; v++) {
    char p0[4200], p1[4200];
    snprintf(p0, sizeof p0, "%s/inline%d.ptf", dir, v);
    snprintf(p1, sizeof p1, "%s/threads%d.ptf", dir, v);
    model m0, m1;
    g_simple = 10;
    rng_seed(500 + (uint64_t)v);
    ASSERT_OK(write_model(p0, &m0, streams[v], 2, 40000, 1024, 1, 20));
    g_threads = 1 + v;
    rng_seed(500 + (uint64_t)v);
    int rc = write_model(p1, &m1, streams[v], 2, 40000, 1024, 1, 20);
    g_threads = g_simple = 0;
    ASSERT_OK(rc);
    ASSERT_TRUE(same_files(p0, p1));
    ASSERT_TRUE(check_read(p1, &m1, NULL));
    model_free(&m0);
    model_free(&m1);
  }
  pt_writer *w;
  pt_error err;
  pt_writer_opts bad = {.threads = 65};
  char p[4200];
  snprintf(p, sizeof p, "%s/bad.ptf", dir);
  ASSERT_STATUS(pt_writer_open(&w, p, &bad, &err), PT_EINVAL);
  /* a stream flushed by hand is on disk when pt_stream_flush returns */
  pt_writer_opts o = {.threads = 2, .block_size = 512};
  snprintf(p, sizeof p, "%s/flush.ptf", dir);
  ASSERT_OK(pt_writer_open(&w, p, &o, &err));
  pt_stream *s;
  ASSERT_OK(pt_writer_stream(w, 0, &s));
  for (uint64_t i = 0; i < 5000; i++) {
    pt_event ev;
    pt_event_init(&ev, i % 2 ? PT_EV_LEAVE : PT_EV_ENTER, i * 10, 7);
    ev.ref = 3;
    ASSERT_OK(pt_stream_event(s, &ev));
  }
  ASSERT_OK(pt_stream_flush(s));
  struct stat st;
  char ep[4300];
  snprintf(ep, sizeof ep, "%s/s0.events", p);
  ASSERT_TRUE(stat(ep, &st) == 0 && st.st_size > 0);
  pt_writer_abort(w);
  pt__rmtree(dir);
  free(dir);
}

/* Prefetching threads (pt_reader_opts.threads) change who decompresses a
 * block, not what is read: filters, seeks back and forth, and a small
 * descriptor limit give what a filtered scan of the model gives. */
TEST(prefetch_threads_same_events) {
  rng_seed(4242);
  char *dir = test_tmpdir("pf");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  model m;
  g_simple = 8;
  int rc = write_model(path, &m, 6, 2, 50000, 1024, 1, 20);
  g_simple = 0;
  ASSERT_OK(rc);
  uint64_t tmax = m.x[m.n - 1].ev.time;
  for (int round = 0; round < 24; round++) {
    pt_reader_opts o = {.threads = 1 + round % 3};
    uint64_t sel[4];
    size_t nsel = 1 + rndn(4);
    for (size_t i = 0; i < nsel; i++) sel[i] = m.locs[rndn(m.nlocs)];
    if (round >= 2 && rndn(2)) {
      o.locations = sel;
      o.nlocations = nsel;
    }
    if (round >= 2 && rndn(2)) o.from = rndn(tmax + 10);
    if (round >= 2 && rndn(2)) o.to = o.from + 1 + rndn(tmax / 2 + 1);
    if (round >= 2 && rndn(3) == 0) o.kinds = rnd() & ~(uint64_t)1;
    if (rndn(3) == 0) o.max_open_files = 1 + rndn(3);
    if (!check_read(path, &m, &o))
      TEST_FAIL_("round %d (%d threads): events differ", round, o.threads);
  }
  pt_reader *r;
  pt_reader_opts o = {.threads = 2};
  ASSERT_OK(pt_reader_open(&r, path, &o, NULL));
  for (int round = 0; round < 100; round++) {
    uint64_t t = rndn(tmax + 5);
    ASSERT_OK(pt_reader_seek(r, t));
    size_t i = 0;
    while (i < m.n && m.x[i].ev.time < t) i++;
    int want = (int)rndn(3000); /* often across blocks */
    for (int k = 0; k < want; k++, i++) {
      pt_event ev;
      int rc2 = pt_reader_next(r, &ev);
      if (i >= m.n) {
        ASSERT_STATUS(rc2, PT_END);
        break;
      }
      ASSERT_OK(rc2);
      if (!pt_event_equal(&ev, &m.x[i].ev))
        TEST_FAIL_("seek %llu: event %d differs", (unsigned long long)t, k);
    }
  }
  pt_reader_close(r);
  /* closing with blocks in flight */
  ASSERT_OK(pt_reader_open(&r, path, &o, NULL));
  pt_event ev;
  ASSERT_OK(pt_reader_next(r, &ev));
  pt_reader_close(r);
  pt_error err;
  pt_reader_opts bad = {.threads = 65};
  ASSERT_STATUS(pt_reader_open(&r, path, &bad, &err), PT_EINVAL);
  ASSERT_CONTAINS(err.msg, "65");
  bad.threads = -1;
  ASSERT_STATUS(pt_reader_open(&r, path, &bad, &err), PT_EINVAL);
  model_free(&m);
  pt__rmtree(dir);
  free(dir);
}

/* 1,000 streams, RLIMIT_NOFILE = 64, max_open_files = 16 (in a child so the
 * limit does not leak into other tests). */
TEST(many_streams_few_files) {
  char *dir = test_tmpdir("many");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit rl = {64, 64};
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) _exit(10);
    rng_seed(3);
    model m;
    if (write_model(path, &m, 1000, 1, 50000, 512, 1, 0) != PT_OK) _exit(11);
    pt_reader_opts o = {.max_open_files = 16};
    if (!check_read(path, &m, &o)) _exit(12);
    pt_reader *r;
    if (pt_reader_open(&r, path, &o, NULL)) _exit(13);
    if (pt_reader_nstreams(r) != 1000) _exit(14);
    /* count open descriptors while reading */
    pt_event ev;
    int maxfd = 0;
    for (int k = 0; k < 20000 && pt_reader_next(r, &ev) == PT_OK; k++) {
      if (k % 1000 == 0) {
        int n = 0;
        DIR *d = opendir("/proc/self/fd");
        struct dirent *e;
        while (d && (e = readdir(d))) n += e->d_name[0] != '.';
        if (d) closedir(d);
        if (n > maxfd) maxfd = n;
      }
    }
    pt_reader_close(r);
    if (maxfd > 16 + 8) _exit(15);
    model_free(&m);
    _exit(0);
  }
  int st;
  ASSERT_TRUE(waitpid(pid, &st, 0) == pid);
  ASSERT_TRUE(WIFEXITED(st));
  ASSERT_EQ_I64(WEXITSTATUS(st), 0);
  pt__rmtree(dir);
  free(dir);
}

TEST(summaries_and_snapshots) {
  char *dir = test_tmpdir("aux");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt__arena a = {0};
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  pt_stream *s[2];
  ASSERT_OK(pt_writer_stream(w, 0, &s[0]));
  ASSERT_OK(pt_writer_stream(w, 1, &s[1]));
  pt_event ev;
  pt_event_init(&ev, PT_EV_ENTER, 10, 100);
  ASSERT_OK(pt_stream_event(s[0], &ev));
  pt_event_init(&ev, PT_EV_ENTER, 10, 200);
  ASSERT_OK(pt_stream_event(s[1], &ev));
  pt_summary sums[40];
  pt_snapshot snaps[40];
  rng_seed(11);
  for (int i = 0; i < 40; i++) {
    int k = i / 20;
    sums[i] = (pt_summary){(uint64_t)(i % 20) * 10, k ? 200u : 100u,
                           PT_SUM_REGION, 0, rndn(10), rnd_u64(), rnd_u64(),
                           rnd_u64(), rnd_u64(), rnd_u64()};
    ASSERT_OK(pt_stream_summary(s[k], &sums[i]));
    snaps[i].time = (uint64_t)(i % 20) * 10;
    snaps[i].location = k ? 200 : 100;
    rnd_event(&a, &snaps[i].event, 0, rndn(5), snaps[i].location, 2);
    ASSERT_OK(pt_stream_snapshot(s[k], &snaps[i]));
  }
  ASSERT_STATUS(pt_stream_summary(s[0], &sums[0]), PT_EORDER);
  ASSERT_OK(pt_writer_close(w, NULL));
  pt_reader *r;
  uint64_t only200 = 200;
  pt_reader_opts o = {.locations = &only200, .nlocations = 1};
  for (int pass = 0; pass < 2; pass++) {
    ASSERT_OK(pt_reader_open(&r, path, pass ? &o : NULL, NULL));
    pt_item it;
    int i = pass ? 20 : 0;
    while (pt_reader_aux_next(r, PT_ITEM_SUMMARY, &it) == PT_OK) {
      ASSERT_TRUE(i < 40);
      ASSERT_TRUE(memcmp(&it.u.summary, &sums[i], sizeof sums[i]) == 0);
      i++;
    }
    ASSERT_EQ_I64(i, 40);
    i = pass ? 20 : 0;
    while (pt_reader_aux_next(r, PT_ITEM_SNAPSHOT, &it) == PT_OK) {
      ASSERT_TRUE(i < 40);
      ASSERT_EQ_U64(it.u.snapshot.time, snaps[i].time);
      ASSERT_TRUE(pt_event_equal(&it.u.snapshot.event, &snaps[i].event));
      i++;
    }
    ASSERT_EQ_I64(i, 40);
    pt_reader_aux_rewind(r);
    ASSERT_OK(pt_reader_aux_next(r, PT_ITEM_SUMMARY, &it));
    pt_reader_close(r);
  }
  pt__arena_free(&a);
  pt__rmtree(dir);
  free(dir);
}

/* A joined writer that closes after the leader (an MPI program ending
 * without MPI_Finalize: each rank closes on its own) leaves its manifest
 * part.<id>; the anchor does not name its stream.  The reader takes the
 * stream's location list from the manifest, so a location subset picks
 * the stream and summaries can be written for it (before: the stream had
 * no list, and `paratrace summarize` wrote no summaries for it).  A
 * damaged manifest is said and skipped. */
TEST(late_joiner_locations) {
  char *dir = test_tmpdir("late");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer *lead, *join;
  ASSERT_OK(pt_writer_open(&lead, path, NULL, NULL));
  pt_writer_opts jo = {.join = 1, .part = 1};
  ASSERT_OK(pt_writer_open(&join, path, &jo, NULL));
  pt_stream *s0, *s1;
  ASSERT_OK(pt_writer_stream(lead, 0, &s0));
  ASSERT_OK(pt_writer_stream(join, 1, &s1));
  pt_event ev;
  for (uint64_t t = 10; t < 40; t += 10) {
    pt_event_init(&ev, PT_EV_MARK, t, 100);
    ASSERT_OK(pt_stream_event(s0, &ev));
    pt_event_init(&ev, PT_EV_MARK, t + 1, 200);
    ASSERT_OK(pt_stream_event(s1, &ev));
    pt_event_init(&ev, PT_EV_MARK, t + 2, 201);
    ASSERT_OK(pt_stream_event(s1, &ev));
  }
  ASSERT_OK(pt_writer_close(lead, NULL)); /* the leader first */
  ASSERT_OK(pt_writer_close(join, NULL));
  for (int pass = 0; pass < 2; pass++) {
    if (pass) { /* a damaged manifest: said, the stream read without it */
      char mp[4300];
      snprintf(mp, sizeof mp, "%s/part.1", path);
      FILE *f = fopen(mp, "w");
      ASSERT_TRUE(f != NULL);
      fputs("stream 1 events", f);
      fclose(f);
    }
    warnings = 0;
    pt_reader_opts all = {.warn = count_warn};
    pt_reader *r;
    ASSERT_OK(pt_reader_open(&r, path, &all, NULL));
    ASSERT_EQ_U64(pt_reader_nstreams(r), 2);
    const pt_stream_info *si = pt_reader_stream_info(r, 1);
    ASSERT_EQ_U64(si->stream, 1);
    if (!pass) {
      ASSERT_EQ_I64(warnings, 0);
      ASSERT_EQ_U64(si->nlocations, 2);
      ASSERT_EQ_U64(si->locations[0], 200);
      ASSERT_EQ_U64(si->locations[1], 201);
    } else {
      ASSERT_EQ_I64(warnings, 1);
      ASSERT_EQ_U64(si->nlocations, 0);
    }
    pt_reader_close(r);
    /* a subset: only the joiner's location 201, all of its events */
    uint64_t only = 201;
    pt_reader_opts o = {.locations = &only, .nlocations = 1,
                        .warn = count_warn};
    ASSERT_OK(pt_reader_open(&r, path, &o, NULL));
    size_t n = 0;
    while (pt_reader_next(r, &ev) == PT_OK) {
      ASSERT_EQ_U64(ev.location, 201);
      n++;
    }
    ASSERT_EQ_U64(n, 3);
    pt_reader_close(r);
    /* summaries: for the joiner's locations too; without its list,
     * refused with the way out (before: written for stream 0 only) */
    pt_error err = {0};
    int src = pt_archive_summarize(path, 5, PT_STATS_SUMMARIES, &err);
    if (pass) {
      ASSERT_STATUS(src, PT_EINVAL);
      ASSERT_TRUE(strstr(err.msg, "paratrace recover") != NULL);
      continue;
    }
    ASSERT_OK(src);
    ASSERT_OK(pt_reader_open(&r, path, &o, NULL));
    pt_item it;
    n = 0;
    while (pt_reader_aux_next(r, PT_ITEM_SUMMARY, &it) == PT_OK) {
      ASSERT_EQ_U64(it.u.summary.location, 201);
      n++;
    }
    ASSERT_TRUE(n > 0);
    pt_reader_close(r);
  }
  pt__rmtree(dir);
  free(dir);
}

TEST(multithreaded_streams_compile_time_contract) {
  /* Streams share nothing: two children of the same writer in one thread
   * interleave freely; definitions added between blocks land before them. */
  char *dir = test_tmpdir("defs");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer_opts wo = {.block_size = 256};
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, &wo, NULL));
  pt_stream *s;
  ASSERT_OK(pt_writer_stream(w, 0, &s));
  for (uint64_t i = 0; i < 2000; i++) {
    pt_def d;
    pt_def_init(&d, PT_DEF_REGION, i);
    d.name = "r";
    ASSERT_OK(pt_writer_def(w, &d));
    pt_event ev;
    pt_event_init(&ev, PT_EV_ENTER, i, 1);
    ev.ref = i;
    ASSERT_OK(pt_stream_event(s, &ev));
  }
  /* before close: every event block written so far has its region defined
   * in the defs file (read it as an unclosed archive) */
  ASSERT_OK(pt_stream_flush(s));
  pt_reader *r;
  warnings = 0;
  pt_reader_opts ro = {.warn = count_warn};
  ASSERT_OK(pt_reader_open(&r, path, &ro, NULL));
  ASSERT_TRUE(warnings > 0); /* not closed */
  uint64_t maxref = 0;
  pt_event ev;
  size_t n = 0;
  while (pt_reader_next(r, &ev) == PT_OK) {
    maxref = ev.ref;
    n++;
  }
  ASSERT_EQ_U64(n, 2000);
  ASSERT_TRUE(pt_reader_ndefs(r) > maxref);
  pt_reader_close(r);
  ASSERT_OK(pt_writer_close(w, NULL));
  pt__rmtree(dir);
  free(dir);
}

typedef struct thr {
  pt_writer *w;
  uint64_t id;
  int rc;
} thr;

static void *thread_writer(void *p) {
  thr *t = p;
  pt_stream *s;
  if ((t->rc = pt_writer_stream(t->w, t->id, &s))) return NULL;
  for (uint64_t i = 0; i < 50000 && !t->rc; i++) {
    pt_event ev;
    pt_event_init(&ev, i & 1 ? PT_EV_LEAVE : PT_EV_ENTER, i, 100 + t->id);
    ev.ref = i % 16;
    t->rc = pt_stream_event(s, &ev);
    if (i % 10000 == 0) {
      pt_def d;
      pt_def_init(&d, PT_DEF_REGION, 1000 * t->id + i);
      d.name = "from a thread";
      if (!t->rc) t->rc = pt_writer_def(t->w, &d);
    }
  }
  return NULL;
}

/* Threads each drive their own stream and add global definitions. */
TEST(threads_own_streams) {
  char *dir = test_tmpdir("thr");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer_opts o = {.block_size = 4096};
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, &o, NULL));
  thr t[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    t[i] = (thr){w, (uint64_t)i, 0};
    ASSERT_TRUE(pthread_create(&th[i], NULL, thread_writer, &t[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    ASSERT_OK(t[i].rc);
  }
  ASSERT_OK(pt_writer_close(w, NULL));
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  ASSERT_EQ_U64(pt_reader_ndefs(r), 20);
  pt_event ev;
  uint64_t n = 0, last = 0;
  while (pt_reader_next(r, &ev) == PT_OK) {
    ASSERT_TRUE(ev.time >= last);
    last = ev.time;
    n++;
  }
  ASSERT_EQ_U64(n, 200000);
  pt_reader_close(r);
  pt__rmtree(dir);
  free(dir);
}

/* An archive of another format version is refused with a clear error. */
TEST(other_version_refused) {
  char *dir = test_tmpdir("ver");
  char path[4200], anchor[4300];
  snprintf(path, sizeof path, "%s/v.ptf", dir);
  pt_writer *w;
  pt_stream *st;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  ASSERT_OK(pt_writer_stream(w, 0, &st));
  pt_event e;
  pt_event_init(&e, PT_EV_ENTER, 5, 0);
  ASSERT_OK(pt_stream_event(st, &e));
  ASSERT_OK(pt_writer_close(w, NULL));
  snprintf(anchor, sizeof anchor, "%s/anchor", path);
  char *text;
  size_t n;
  ASSERT_OK(pt__read_file(anchor, 1 << 20, &text, &n));
  char *v = strstr(text, "version = 3");
  ASSERT_TRUE(v != NULL);
  /* version 2 (before the RMA event kinds) is still read */
  v[10] = '2';
  FILE *f2 = fopen(anchor, "w");
  ASSERT_TRUE(f2 != NULL);
  fwrite(text, 1, n, f2);
  fclose(f2);
  pt_reader *r2 = NULL;
  ASSERT_OK(pt_reader_open(&r2, path, NULL, NULL));
  pt_reader_close(r2);
  v[10] = '1';
  FILE *f = fopen(anchor, "w");
  ASSERT_TRUE(f != NULL);
  fwrite(text, 1, n, f);
  fclose(f);
  free(text);
  pt_reader *r = NULL;
  pt_error err = {0};
  ASSERT_STATUS(pt_reader_open(&r, path, NULL, &err), PT_EVERSION);
  ASSERT_CONTAINS(err.msg, "unsupported version '1' (this reader: 2 to 3)");
  pt__rmtree(dir);
  free(dir);
}


/* Writers share zstd contexts and buffers through one process-wide list
 * (archive.h pt__zs).  A fork while another thread is taking a set from
 * it or giving one back must not leave the child with that list locked:
 * the child's own writer then hung at its first block.  A thread takes
 * and gives back sets without pause while the main thread forks; each
 * child writes a small archive (SIGALRM ends one that hangs). */
static atomic_int zs_fork_stop;
static void *zs_churn(void *arg) {
  (void)arg;
  while (!atomic_load(&zs_fork_stop)) pt__zs_put(pt__zs_get());
  return NULL;
}

TEST(fork_while_sets_are_shared) {
  char *dir = test_tmpdir("zsfork");
  char held[4200];
  snprintf(held, sizeof held, "%s/held.ptf", dir);
  pt_writer *w;
  /* a writer open in the parent: the sets are pooled, not freed */
  ASSERT_OK(pt_writer_open(&w, held, NULL, NULL));
  pthread_t th;
  atomic_store(&zs_fork_stop, 0);
  ASSERT_TRUE(pthread_create(&th, NULL, zs_churn, NULL) == 0);
  int hung = 0, failed = 0;
  fflush(NULL);
  for (int i = 0; i < 200 && !hung && !failed; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      alarm(5);
      char p[4300];
      snprintf(p, sizeof p, "%s/c%d.ptf", dir, i);
      pt_writer *cw;
      pt_stream *s;
      if (pt_writer_open(&cw, p, NULL, NULL)) _exit(1);
      if (pt_writer_stream(cw, 0, &s)) _exit(2);
      pt_def loc = {.kind = PT_DEF_LOCATION, .id = 0, .parent = PT_NONE,
                    .name = "loc"};
      if (pt_writer_def(cw, &loc)) _exit(3);
      pt_event ev = {.time = 1, .kind = PT_EV_MARK, .location = 0};
      if (pt_stream_event(s, &ev)) _exit(4);
      _exit(pt_writer_close(cw, NULL) ? 5 : 0);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
      failed = 1;
      break;
    }
    if (WIFSIGNALED(st)) hung = 1;
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) failed = 1;
  }
  atomic_store(&zs_fork_stop, 1);
  pthread_join(th, NULL);
  ASSERT_OK(pt_writer_close(w, NULL));
  ASSERT_TRUE(!failed);
  ASSERT_TRUE(!hung); /* a child hung on the shared sets' lock */
  pt__rmtree(dir);
  free(dir);
}


/* The recorder closes its archive from a signal handler (record.c
 * on_signal), which builds blocks with the shared sets: a signal that
 * interrupted its thread inside the sets' list (taking or giving back a
 * set) must not make that close wait for the lock its own thread holds.
 * In a child (alarm 10 s): the main thread takes and gives back sets,
 * another thread signals it 20,000 times, the handler takes and gives
 * back a set as a close would. */
static volatile sig_atomic_t zs_sig_done, zs_sig_bad;
static void zs_on_usr1(int sig) {
  (void)sig;
  pt__zs *z = pt__zs_get();
  if (!z || !z->cctx) zs_sig_bad = 1;
  pt__zs_put(z);
}
static void *zs_signaller(void *arg) {
  pthread_t main_th = *(pthread_t *)arg;
  for (int i = 0; i < 20000; i++) {
    pthread_kill(main_th, SIGUSR1);
    if (i % 64 == 0) sched_yield();
  }
  zs_sig_done = 1;
  return NULL;
}

TEST(signal_handler_gets_a_set) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(10);
    /* sets pooled, as while a writer is open; two made before the
     * signals, so that neither the loop nor the handler (when the loop
     * is outside the list) allocates: a handler interrupting malloc
     * would wait on malloc's lock, which is not what is tested */
    pt__zs_ref();
    pt__zs *z1 = pt__zs_get(), *z2 = pt__zs_get();
    if (!z1 || !z2) _exit(4);
    pt__zs_put(z1);
    pt__zs_put(z2);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = zs_on_usr1;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0) _exit(1);
    pthread_t self = pthread_self(), th;
    if (pthread_create(&th, NULL, zs_signaller, &self) != 0) _exit(2);
    while (!zs_sig_done) pt__zs_put(pt__zs_get());
    pthread_join(th, NULL);
    pt__zs_unref();
    _exit(zs_sig_bad ? 3 : 0);
  }
  int st;
  ASSERT_TRUE(waitpid(pid, &st, 0) == pid);
  if (WIFSIGNALED(st))
    fprintf(stderr, "  child ended by signal %d (hung)\n", WTERMSIG(st));
  ASSERT_TRUE(WIFEXITED(st));
  ASSERT_EQ_I64(WEXITSTATUS(st), 0);
}

/* pt__stream_event_call of an ENTER body[0], k events eb, a LEAVE
 * body[2] */
static int call_evs(pt_stream *s, uint64_t loc, pt__call_evs *ce,
                    uint64_t t0, size_t k, const uint64_t *et,
                    const uint8_t *eb, const uint16_t *off, uint64_t t1,
                    const uint8_t *const *body, const size_t *len) {
  *ce = (pt__call_evs){.t0 = t0, .t1 = t1, .b0 = body[0], .b1 = body[2],
                       .n0 = len[0], .n1 = len[2], .k = k, .et = et,
                       .eb = eb, .off = off};
  return pt__stream_event_call(s, loc, ce);
}

/* Pre-encoded events in batches (the MPI recorder's ENTER, the events a
 * call implies and its LEAVE): written all or none, and read back as the
 * same events written one by one. */
TEST(encoded_event_batches) {
  char *dir = test_tmpdir("encn");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  pt_stream *s;
  ASSERT_OK(pt_writer_stream(w, 0, &s));
  pt_event want[12];
  size_t nw = 0;
  pt_event_init(&want[nw], PT_EV_ENTER, 10, 3);
  want[nw].ref = 1;
  ASSERT_OK(pt_stream_event(s, &want[nw]));
  nw++;
  /* ENTER of region 2, a SEND, a LEAVE, encoded as the recorder does */
  pt_event b[3];
  pt_event_init(&b[0], PT_EV_ENTER, 20, 3);
  b[0].ref = 2;
  pt_event_init(&b[1], PT_EV_SEND, 20, 3);
  b[1].ref = PT_NONE;
  b[1].peer = -1;
  b[1].tag = -77;
  b[1].comm = 300;
  b[1].size = 1u << 20;
  pt_event_init(&b[2], PT_EV_LEAVE, 35, 3);
  b[2].ref = 2;
  uint8_t buf[3][PT__EVENT_PLAIN_MAX];
  const uint8_t *body[3] = {buf[0], buf[1], buf[2]};
  size_t len[3];
  uint64_t t[3];
  for (int i = 0; i < 3; i++) {
    len[i] = pt__event_put_plain(buf[i], &b[i]);
    ASSERT_TRUE(len[i] > 0);
    t[i] = b[i].time;
    want[nw++] = b[i];
  }
  /* refused, nothing written: another location, an ENTER before the
   * stream's last event */
  uint16_t off[2] = {0, (uint16_t)len[1]};
  uint64_t t1 = t[2];
  pt__call_evs ce;
  ASSERT_EQ_I64(call_evs(s, 4, &ce, t[0], 1, &t[1], body[1], off, t1, body,
                         len),
                1);
  ASSERT_EQ_I64(call_evs(s, 3, &ce, 5, 1, &t[1], body[1], off, t1, body, len),
                1);
  ASSERT_EQ_I64(call_evs(s, 3, &ce, t[0], 1, &t[1], body[1], off, t1, body,
                         len),
                PT_OK);
  ASSERT_EQ_I64(ce.t1, 35);
  /* the same call again at 40, its SEND at 38 and its LEAVE at 39: times
   * going back are taken as the time before them (all at 40) */
  uint64_t ts = 38;
  t1 = 39;
  ASSERT_EQ_I64(call_evs(s, 3, &ce, 40, 1, &ts, body[1], off, t1, body, len),
                PT_OK);
  ASSERT_EQ_I64(ce.t1, 40);
  for (int i = 0; i < 3; i++) {
    want[nw] = b[i];
    want[nw++].time = 40;
  }
  /* no implied events: the ENTER and the LEAVE alone */
  t1 = 45;
  ASSERT_EQ_I64(call_evs(s, 3, &ce, 42, 0, NULL, NULL, off, t1, body, len),
                PT_OK);
  want[nw] = b[0];
  want[nw++].time = 42;
  want[nw] = b[2];
  want[nw++].time = 45;
  /* a kind with a text slot or an event with attributes: not plain */
  pt_event m;
  pt_event_init(&m, PT_EV_MARK, 40, 3);
  m.text = "x";
  if (pt_event_slot_mask(PT_EV_MARK) & (1u << PT_ESLOT_TEXT))
    ASSERT_EQ_I64(pt__event_put_plain(buf[0], &m), 0);
  pt_attr a = {.key = 1, .val = {.type = PT_TYPE_INT, .v.i = 5}};
  b[1].attrs = &a;
  b[1].nattrs = 1;
  ASSERT_EQ_I64(pt__event_put_plain(buf[0], &b[1]), 0);
  pt_event_init(&want[nw], PT_EV_LEAVE, 50, 3);
  want[nw].ref = 1;
  ASSERT_OK(pt_stream_event(s, &want[nw]));
  nw++;
  ASSERT_OK(pt_writer_close(w, NULL));
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  pt_event ev;
  for (size_t i = 0; i < nw; i++) {
    ASSERT_OK(pt_reader_next(r, &ev));
    if (!pt_event_equal(&ev, &want[i])) TEST_FAIL_("event %zu differs", i);
  }
  ASSERT_STATUS(pt_reader_next(r, &ev), PT_END);
  pt_reader_close(r);
  pt__rmtree(dir);
  free(dir);
}

int main(void) {
  RUN(other_version_refused);
  RUN(threads_own_streams);
  RUN(roundtrip_property);
  RUN(out_of_order_and_location_rules);
  RUN(encoded_event_batches);
  RUN(invalid_event_said);
  RUN(summary_kind_checked);
  RUN(null_arguments_refused);
  RUN(overwrite_and_abort);
  RUN(filters_and_seek);
  RUN(common_event_paths);
  RUN(few_streams_common_step);
  RUN(delta_widths_roundtrip);
  RUN(damaged_payload_with_good_checksum);
  RUN(compression_threads_same_archive);
  RUN(prefetch_threads_same_events);
  RUN(many_streams_few_files);
  RUN(summaries_and_snapshots);
  RUN(late_joiner_locations);
  RUN(fork_while_sets_are_shared);
  RUN(signal_handler_gets_a_set);
  RUN(multithreaded_streams_compile_time_contract);
  return test_summary();
}
