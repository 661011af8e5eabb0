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
int bench_gen(const bench_case *c, phase_result *res) {
  pt_gen *g = NULL;
  pt_gen_opts go = {.locations = c->locations, .events = c->events,
                    .seed = c->seed};
  double t0 = bench_now();
  if (pt_gen_create(&g, &go) != PT_OK) FAIL("pt_gen_create failed");
  for (uint64_t loc = 0; loc < c->locations; loc++) {
    pt_event ev;
    int rc;
    while ((rc = pt_gen_next(g, loc, &ev)) == PT_OK) {
      res->sum.count++;
      res->sum.time_sum += ev.time;
    }
    if (rc != PT_END) FAIL("pt_gen_next: %s", pt_strerror(rc));
  }
  res->secs = bench_now() - t0;
  pt_gen_destroy(g);
  return 0;
fail:
  pt_gen_destroy(g);
  return -1;
}

int bench_ptf_write(const bench_case *c, phase_result *res) {
  pt_gen *g = NULL;
  pt_writer *w = NULL;
  pt_error err = {0};
  pt_gen_opts go = {.locations = c->locations, .events = c->events,
                    .seed = c->seed};
  pt_writer_opts wo = {.creator = "paratrace-bench"};
  double t0 = bench_now();
  if (pt_gen_create(&g, &go) != PT_OK) FAIL("pt_gen_create failed");
  int rc = pt_writer_open(&w, c->ptf_path, &wo, &err);
  if (rc != PT_OK) FAIL("pt_writer_open: %s: %s", pt_strerror(rc), err.msg);
  for (size_t i = 0; i < pt_gen_ndefs(g); i++) {
    rc = pt_writer_def(w, pt_gen_def(g, i));
    if (rc != PT_OK)
      FAIL("pt_writer_def: %s: %s", pt_strerror(rc), pt_writer_errmsg(w));
  }
  for (uint64_t loc = 0; loc < c->locations; loc++) {
    pt_stream *s;
    rc = pt_writer_stream(w, loc, &s);
    if (rc != PT_OK)
      FAIL("pt_writer_stream: %s: %s", pt_strerror(rc), pt_writer_errmsg(w));
    pt_event ev;
    while ((rc = pt_gen_next(g, loc, &ev)) == PT_OK) {
      int wrc = pt_stream_event(s, &ev);
      if (wrc != PT_OK)
        FAIL("pt_stream_event: %s: %s", pt_strerror(wrc), pt_stream_errmsg(s));
    }
    if (rc != PT_END) FAIL("pt_gen_next: %s", pt_strerror(rc));
  }
  rc = pt_writer_close(w, &err);
  w = NULL;
  if (rc != PT_OK) FAIL("pt_writer_close: %s: %s", pt_strerror(rc), err.msg);
  res->secs = bench_now() - t0;
  pt_gen_destroy(g);
  return 0;
fail:
  pt_writer_abort(w);
  pt_gen_destroy(g);
  return -1;
}

int bench_ptf_read(const bench_case *c, phase_result *res) {
  pt_reader *r = NULL;
  pt_error err = {0};
  double t0 = bench_now();
  int rc = pt_reader_open(&r, c->ptf_path, NULL, &err);
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
