/* Not a timed test: a workload like the PTF vs OTF2 benchmark (enter/leave
 * over 16 regions, a send or receive every ~50 events, metric samples), to
 * print write and merged-read speeds, bytes per event and seek latency.
 * Small by default so it runs in the suite; PT_PERF_EVENTS=10000000 (per
 * location) for real numbers.  Asserts only correctness (counts, order). */
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "test_store_util.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t dir_bytes(const char *path) {
  char cmd[4300];
  snprintf(cmd, sizeof cmd, "du -sb '%s'", path);
  FILE *f = popen(cmd, "r");
  unsigned long long n = 0;
  if (f) {
    if (fscanf(f, "%llu", &n) != 1) n = 0;
    pclose(f);
  }
  return n;
}

enum { NLOC = 4 };

/* Generate the next event of location loc. */
typedef struct gen {
  uint64_t t, depth, n;
  uint32_t stack[64];
  uint64_t counter;
} gen;

static void gen_next(gen *g, uint64_t loc, pt_event *ev) {
  g->t += 20 + rndn(400);
  g->n++;
  uint64_t r = rndn(100);
  if (g->n % 50 == 0) {
    pt_event_init(ev, (g->n / 50) & 1 ? PT_EV_SEND : PT_EV_RECV, g->t, loc);
    ev->peer = (int64_t)((loc + 1) % NLOC);
    ev->tag = 42;
    ev->comm = 0;
    ev->size = 1024 * (1 + rndn(4));
    ev->ref = 3;
  } else if (g->n % 23 == 0) {
    pt_event_init(ev, PT_EV_METRIC, g->t, loc);
    ev->ref = 1;
    g->counter += rndn(5000);
    ev->value.type = PT_TYPE_UINT;
    ev->value.v.u = g->counter;
  } else if (g->depth == 0 || (g->depth < 60 && r < 50)) {
    uint32_t reg = (uint32_t)rndn(16);
    g->stack[g->depth++] = reg;
    pt_event_init(ev, PT_EV_ENTER, g->t, loc);
    ev->ref = reg;
  } else {
    pt_event_init(ev, PT_EV_LEAVE, g->t, loc);
    ev->ref = g->stack[--g->depth];
  }
}

TEST(perf_workload) {
  const char *env = getenv("PT_PERF_EVENTS");
  uint64_t per = env ? strtoull(env, NULL, 10) : 200000;
  char *dir = test_tmpdir("perf");
  char path[4200];
  const char *keep = getenv("PT_PERF_KEEP"); /* write there, keep it */
  snprintf(path, sizeof path, "%s", keep ? keep : dir);
  if (!keep) strcat(path, "/p.ptf");
  rng_seed(1);
  pt_writer *w;
  ASSERT_OK(pt_writer_open(&w, path, NULL, NULL));
  pt_stream *s[NLOC];
  gen g[NLOC];
  memset(g, 0, sizeof g);
  for (int i = 0; i < NLOC; i++) ASSERT_OK(pt_writer_stream(w, (uint64_t)i, &s[i]));
  for (uint32_t i = 0; i < 16; i++) {
    pt_def d;
    pt_def_init(&d, PT_DEF_REGION, i);
    d.name = "region";
    ASSERT_OK(pt_writer_def(w, &d));
  }
  /* pre-generate in chunks so the timing is the writer's, not the PRNG's */
  enum { CH = 1 << 16 };
  pt_event *buf = malloc(sizeof(pt_event) * CH * NLOC);
  double tw = 0;
  uint64_t done = 0;
  while (done < per) {
    uint64_t n = per - done < CH ? per - done : CH;
    for (int l = 0; l < NLOC; l++)
      for (uint64_t i = 0; i < n; i++) gen_next(&g[l], (uint64_t)l, &buf[l * CH + i]);
    double t0 = now();
    for (int l = 0; l < NLOC; l++)
      for (uint64_t i = 0; i < n; i++)
        if (pt_stream_event(s[l], &buf[l * CH + i]) != PT_OK)
          TEST_FAIL_("write: %s", pt_stream_errmsg(s[l]));
    tw += now() - t0;
    done += n;
  }
  double t0 = now();
  ASSERT_OK(pt_writer_close(w, NULL));
  tw += now() - t0;
  free(buf);
  uint64_t total = per * NLOC;
  uint64_t bytes = dir_bytes(path);
  t0 = now();
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  pt_event ev;
  uint64_t n = 0, last = 0;
  int ordered = 1;
  while (pt_reader_next(r, &ev) == PT_OK) {
    if (ev.time < last) ordered = 0;
    last = ev.time;
    n++;
  }
  double tr = now() - t0;
  ASSERT_EQ_U64(n, total);
  ASSERT_TRUE(ordered);
  /* seek latency: seek + first event */
  double ts = 0;
  int nseek = 200;
  for (int i = 0; i < nseek; i++) {
    uint64_t t = rndn(last + 1);
    double a = now();
    ASSERT_OK(pt_reader_seek(r, t));
    ASSERT_OK(pt_reader_next(r, &ev));
    ts += now() - a;
    ASSERT_TRUE(ev.time >= t);
  }
  pt_reader_close(r);
  printf("  perf: %llu events: write %.1f Mev/s, read merged %.1f Mev/s, "
         "%.2f bytes/event, seek %.3f ms\n",
         (unsigned long long)total, total / tw / 1e6, total / tr / 1e6,
         (double)bytes / (double)total, ts / nseek * 1e3);
  if (!keep) pt__rmtree(dir);
  rmdir(dir);
  free(dir);
}

int main(void) {
  RUN(perf_workload);
  return test_summary();
}
