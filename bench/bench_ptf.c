/* paratrace-bench: the PTF side (generator alone, write, merged read, seek),
 * through the public API only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define FAIL(...)                \
  do {                           \
    bench_errf(res, __VA_ARGS__); \
    goto fail;                   \
  } while (0)

/* The generator alone, consuming each event as cheaply as a sink could
 * (count and time sum), to subtract from the write times. */
typedef struct gen_ctx {
  pt_gen *g;
  bench_sum *sum; /* shared by the threads */
} gen_ctx;

static int gen_loc(void *ctx, uint64_t loc, phase_result *res) {
  gen_ctx *x = ctx;
  pt_event ev;
  uint64_t n = 0, tsum = 0;
  int rc;
  while ((rc = pt_gen_next(x->g, loc, &ev)) == PT_OK) {
    n++;
    tsum += ev.time;
  }
  if (rc != PT_END) {
    bench_errf(res, "pt_gen_next: %s", pt_strerror(rc));
    return -1;
  }
  __atomic_fetch_add(&x->sum->count, n, __ATOMIC_RELAXED);
  __atomic_fetch_add(&x->sum->time_sum, tsum, __ATOMIC_RELAXED);
  return 0;
}

int bench_gen(const bench_case *c, phase_result *res) {
  pt_gen *g = NULL;
  pt_gen_opts go = {.locations = c->locations, .events = c->events,
                    .seed = c->seed};
  double t0 = bench_now();
  if (pt_gen_create(&g, &go) != PT_OK) FAIL("pt_gen_create failed");
  gen_ctx x = {g, &res->sum};
  if (bench_parallel(c->threads, c->locations, gen_loc, &x, res)) goto fail;
  res->secs = bench_now() - t0;
  pt_gen_destroy(g);
  return 0;
fail:
  pt_gen_destroy(g);
  return -1;
}

typedef struct ptf_ctx {
  pt_gen *g;
  pt_writer *w;
} ptf_ctx;

/* One stream per location, id = location id. */
static int ptf_loc(void *ctx, uint64_t loc, phase_result *res) {
  ptf_ctx *x = ctx;
  pt_stream *s;
  int rc = pt_writer_stream(x->w, loc, &s);
  if (rc != PT_OK)
    FAIL("pt_writer_stream: %s: %s", pt_strerror(rc), pt_writer_errmsg(x->w));
  pt_event ev;
  while ((rc = pt_gen_next(x->g, loc, &ev)) == PT_OK) {
    int wrc = pt_stream_event(s, &ev);
    if (wrc != PT_OK)
      FAIL("pt_stream_event: %s: %s", pt_strerror(wrc), pt_stream_errmsg(s));
  }
  if (rc != PT_END) FAIL("pt_gen_next: %s", pt_strerror(rc));
  return 0;
fail:
  return -1;
}

int bench_ptf_write(const bench_case *c, phase_result *res) {
  ptf_ctx x = {0};
  pt_error err = {0};
  pt_gen_opts go = {.locations = c->locations, .events = c->events,
                    .seed = c->seed};
  pt_writer_opts wo = {.creator = "paratrace-bench", .threads = c->cthreads};
  double t0 = bench_now();
  if (pt_gen_create(&x.g, &go) != PT_OK) FAIL("pt_gen_create failed");
  int rc = pt_writer_open(&x.w, c->ptf_path, &wo, &err);
  if (rc != PT_OK) FAIL("pt_writer_open: %s: %s", pt_strerror(rc), err.msg);
  for (size_t i = 0; i < pt_gen_ndefs(x.g); i++) {
    rc = pt_writer_def(x.w, pt_gen_def(x.g, i));
    if (rc != PT_OK)
      FAIL("pt_writer_def: %s: %s", pt_strerror(rc), pt_writer_errmsg(x.w));
  }
  if (bench_parallel(c->threads, c->locations, ptf_loc, &x, res)) goto fail;
  rc = pt_writer_close(x.w, &err);
  x.w = NULL;
  if (rc != PT_OK) FAIL("pt_writer_close: %s: %s", pt_strerror(rc), err.msg);
  res->secs = bench_now() - t0;
  pt_gen_destroy(x.g);
  return 0;
fail:
  pt_writer_abort(x.w);
  pt_gen_destroy(x.g);
  return -1;
}

int bench_ptf_read(const bench_case *c, phase_result *res) {
  pt_reader *r = NULL;
  pt_error err = {0};
  pt_reader_opts ro = {.threads = c->cthreads};
  double t0 = bench_now();
  int rc = pt_reader_open(&r, c->ptf_path, &ro, &err);
  if (rc != PT_OK) FAIL("pt_reader_open: %s: %s", pt_strerror(rc), err.msg);
  pt_event ev;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) bench_fold(&res->sum, &ev);
  if (rc != PT_END)
    FAIL("pt_reader_next: %s: %s", pt_strerror(rc), pt_reader_errmsg(r));
  pt_reader_close(r);
  res->secs = bench_now() - t0;
  return 0;
fail:
  pt_reader_close(r);
  return -1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* c->seeks random seeks over the archive's time span: each timed from
 * pt_reader_seek(t) to the first event returned, which must be >= t. */
int bench_ptf_seek(const bench_case *c, phase_result *res) {
  pt_reader *r = NULL;
  pt_error err = {0};
  double *ms = NULL;
  double t0 = bench_now();
  int rc = pt_reader_open(&r, c->ptf_path, NULL, &err);
  if (rc != PT_OK) FAIL("pt_reader_open: %s: %s", pt_strerror(rc), err.msg);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; i < pt_reader_nstreams(r); i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    if (!si->events) continue;
    if (si->first_time < lo) lo = si->first_time;
    if (si->last_time > hi) hi = si->last_time;
  }
  if (lo > hi) FAIL("archive has no events");
  int n = c->seeks > 0 ? c->seeks : 1;
  ms = calloc((size_t)n, sizeof *ms);
  if (!ms) FAIL("out of memory");
  uint64_t rng = c->seed ^ UINT64_C(0x5EEC);
  for (int i = 0; i < n; i++) {
    rng += UINT64_C(0x9E3779B97F4A7C15);
    uint64_t t = lo + bench_mix(rng) % (hi - lo + 1);
    pt_event ev;
    double a = bench_now();
    rc = pt_reader_seek(r, t);
    if (rc != PT_OK)
      FAIL("pt_reader_seek: %s: %s", pt_strerror(rc), pt_reader_errmsg(r));
    rc = pt_reader_next(r, &ev);
    double b = bench_now();
    if (rc != PT_OK && rc != PT_END)
      FAIL("pt_reader_next: %s: %s", pt_strerror(rc), pt_reader_errmsg(r));
    if (rc == PT_OK && ev.time < t)
      FAIL("seek to %llu returned an event at %llu", (unsigned long long)t,
           (unsigned long long)ev.time);
    ms[i] = (b - a) * 1e3;
  }
  qsort(ms, (size_t)n, sizeof *ms, cmp_double);
  res->seek_med_ms = ms[n / 2];
  res->seek_max_ms = ms[n - 1];
  pt_reader_close(r);
  free(ms);
  res->secs = bench_now() - t0;
  return 0;
fail:
  pt_reader_close(r);
  free(ms);
  return -1;
}
