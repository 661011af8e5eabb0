/* A program shaped like Figure 12 of Li & Zhang (seed 004), without MPI:
 * main calls p1 and p2, both call p3; p3 calls p4 directly and inside a
 * loop (loop1) that holds a nested loop (loop2) calling p4 again.  p4
 * does the arithmetic, so the top-down drill-down ends there.
 *
 * Build with -finstrument-functions -g and link with libparatrace, then
 *   PARATRACE_MODE=profile PARATRACE_OUTPUT=run.ptf ./profile_shape 100
 *   paratrace profile run.ptf
 *   paratrace profile run.ptf --focus p3
 *
 * `./profile_shape N tiny` instead calls an empty function N * 10000
 * times and prints how long that took: the probe-heavy case that
 * intrusion compensation is for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "paratrace/profile.h"

#define NOINLINE __attribute__((noinline))

static volatile double sink;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

NOINLINE static void p4(int n) {
  double x = 0;
  for (int i = 0; i < n; i++) x += (double)i * 0.5;
  sink = x;
}

NOINLINE static void p3(int n) {
  p4(n);
  PT_PROFILE_LOOP_BEGIN(); /* loop1 */
  for (int j = 0; j < 3; j++) {
    PT_PROFILE_LOOP_BEGIN(); /* loop2 */
    for (int k = 0; k < 2; k++) p4(n);
    PT_PROFILE_LOOP_END();
  }
  PT_PROFILE_LOOP_END();
}

NOINLINE static void p1(int n) { p3(n); }
NOINLINE static void p2(int n) { p3(4 * n); }

NOINLINE static void tiny(void) { sink += 1; }

NOINLINE static void work(long calls) {
  for (long i = 0; i < calls; i++) tiny();
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 100;
  if (iters <= 0) {
    fprintf(stderr, "usage: profile_shape ITERATIONS [tiny]\n");
    return 2;
  }
  if (argc > 2 && strcmp(argv[2], "tiny") == 0) {
    double t0 = now_ns();
    work(iters * 10000);
    printf("work_ns %.0f\n", now_ns() - t0);
    return 0;
  }
  for (long i = 0; i < iters; i++) {
    p1(2000);
    p2(2000);
  }
  return 0;
}
