/* paratrace-bench: PTF vs OTF2, shared pieces.
 *
 * Each phase (generate, write, read, seek) runs in its own forked child so
 * that its peak RSS is its own; the child reports a phase_result through a
 * pipe.  Every phase function returns 0 on success or -1 with a message in
 * res->err.  Only the benchmark program may exit(). */
#ifndef PT_BENCH_H
#define PT_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "paratrace/generate.h"
#include "paratrace/paratrace.h"

typedef struct bench_case {
  const char *name;   /* "default", "seek" */
  uint64_t locations; /* P */
  uint64_t events;    /* N per location */
  uint64_t seed;
  const char *dir;    /* where the archives go */
  char ptf_path[4096], otf2_path[4096];
  int seeks;          /* random seeks to time */
  int threads;        /* writer threads (generate and write phases) */
  int cthreads;       /* PTF writer's compression threads and reader's
                         prefetching threads (opts.threads of each) */
} bench_case;

/* Order-independent content checksum plus an order check.  Both readers
 * fold events through bench_fold so that their sums can be compared. */
typedef struct bench_sum {
  uint64_t count;
  uint64_t time_sum;   /* sum of timestamps (mod 2^64) */
  uint64_t hash_sum;   /* sum of a hash of every event's fields */
  uint64_t order_errs; /* events earlier than their predecessor */
  uint64_t last_time;
} bench_sum;

static inline uint64_t bench_mix(uint64_t x) {
  x ^= x >> 31;
  x *= UINT64_C(0x7FB5D329728EA185);
  x ^= x >> 27;
  x *= UINT64_C(0x81DADEF4BC2DD44D);
  return x ^ (x >> 33);
}

/* The fields both formats carry for the generator's event kinds: kind,
 * location, time, region / metric id (not the callsite of send/recv, which
 * OTF2 has no field for), peer, communicator, tag, bytes, metric value. */
static inline void bench_fold(bench_sum *s, const pt_event *e) {
  uint64_t h = bench_mix(e->time ^ (e->location << 48) ^ ((uint64_t)e->kind << 40));
  int msg = e->kind == PT_EV_SEND || e->kind == PT_EV_RECV;
  if (!msg) h = bench_mix(h + e->ref);
  if (msg) {
    h = bench_mix(h + (uint64_t)e->peer);
    h = bench_mix(h + e->comm * 0x9E3779B97F4A7C15u + (uint64_t)e->tag);
    h = bench_mix(h + e->size);
  }
  if (e->kind == PT_EV_METRIC) h = bench_mix(h + e->value.v.u);
  s->count++;
  s->time_sum += e->time;
  s->hash_sum += h;
  if (e->time < s->last_time) s->order_errs++;
  s->last_time = e->time;
}

typedef struct phase_result {
  int ok;
  double secs;          /* wall time of the phase body */
  bench_sum sum;
  double seek_med_ms, seek_max_ms;
  long rss_kb;          /* peak RSS of the child (wait4) */
  double cpu_s;         /* user + system CPU time of the child (wait4) */
  char err[512];
} phase_result;

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Set res->err (truncated to fit). */
void bench_errf(phase_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Run fn(ctx, loc, res) for every location, on `threads` threads (thread
 * j takes locations j, j + threads, ...; 1 = the calling thread, in
 * order).  fn reports errors into its `res` argument (per thread; results
 * go through ctx).  Returns 0, or -1 with the first failure's message in
 * res->err. */
typedef int (*bench_loc_fn)(void *ctx, uint64_t loc, phase_result *res);
int bench_parallel(int threads, uint64_t nloc, bench_loc_fn fn, void *ctx,
                   phase_result *res);

/* Phases. */
int bench_gen(const bench_case *c, phase_result *res);
int bench_ptf_write(const bench_case *c, phase_result *res);
int bench_ptf_read(const bench_case *c, phase_result *res);
int bench_ptf_seek(const bench_case *c, phase_result *res);
int bench_otf2_write(const bench_case *c, phase_result *res);
int bench_otf2_read(const bench_case *c, phase_result *res);

/* Files. */
int bench_rmtree(const char *path);                   /* 0 or -1 */
int bench_du(const char *path, uint64_t *apparent, uint64_t *disk);
int bench_drop_cache(const char *path);               /* 0 or -1 */

#endif
