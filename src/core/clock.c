/* The recorder's and the profiler's clock (core/clock.h). */
#include "core/clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The invariant cycle counter, where the CPU has one, calibrated against
 * CLOCK_MONOTONIC: ns = anchor_ns + (tsc - anchor_tsc) * k, where k is the
 * slope since the first sample (ever more precise) and the anchor is reset
 * to a fresh (tsc, CLOCK_MONOTONIC) pair when it is older than 1/16 of the
 * time since the first sample (at most 100 ms): the counter never drifts
 * from CLOCK_MONOTONIC by more than the reading noise, so processes on one
 * host agree.  PARATRACE_CLOCK=monotonic reads CLOCK_MONOTONIC instead. */
#if PT_CLOCK_TSC
#include <cpuid.h>
#define PT_HAVE_TSC 1
static inline uint64_t tsc_read(void) { return __rdtsc(); }
#else
#define PT_HAVE_TSC 0
static inline uint64_t tsc_read(void) { return 0; }
#endif

/* (clock.h: read inline by pt__clock_ns) */
pt__clk_state pt__clk;
#define g_clk pt__clk

static void k_store(double k) {
  uint64_t b;
  memcpy(&b, &k, sizeof b);
  __atomic_store_n(&g_clk.kbits, b, __ATOMIC_RELAXED);
}
static double k_load(void) {
  uint64_t b = __atomic_load_n(&g_clk.kbits, __ATOMIC_RELAXED);
  double k;
  memcpy(&k, &b, sizeof k);
  return k;
}
static pthread_once_t g_clk_once = PTHREAD_ONCE_INIT;

/* A (CLOCK_MONOTONIC, counter) pair read at one instant: the clock read
 * between two counter reads, the narrowest of a few tries (a process
 * preempted between the two reads would anchor its clock microseconds
 * off the other processes' on an oversubscribed host). */
static void clk_pair(uint64_t *ns, uint64_t *tsc) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 8; i++) {
    uint64_t a = tsc_read(), n = mono_ns(), b = tsc_read();
    if (b < a) continue;
    if (b - a < best) {
      best = b - a;
      *ns = n;
      *tsc = a + (b - a) / 2;
    }
    if (best < 4096) break; /* about a microsecond or less */
  }
  if (best == UINT64_MAX) {
    *ns = mono_ns();
    *tsc = tsc_read();
  }
}

static void clk_init(void) {
  int mode = 1;
#if PT_HAVE_TSC
  unsigned a, b, c, d;
  const char *v = getenv("PARATRACE_CLOCK");
  if ((!v || strcmp(v, "monotonic") != 0) &&
      __get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000007u &&
      __get_cpuid(0x80000007u, &a, &b, &c, &d) && (d & (1u << 8)))
    mode = 2; /* invariant TSC */
#endif
  if (mode == 2) {
    uint64_t n0, t0, n1, t1;
    clk_pair(&n0, &t0);
    do { /* 1 ms for the first slope */
      clk_pair(&n1, &t1);
    } while (n1 - n0 < 1000000u);
    if (t1 <= t0) {
      mode = 1;
    } else {
      g_clk.tsc0 = t0;
      g_clk.ns0 = n0;
      g_clk.tsc_a = t1;
      g_clk.ns_a = n1;
      k_store((double)(n1 - n0) / (double)(t1 - t0));
      g_clk.limit = t1 - t0;
    }
  }
  __atomic_store_n(&g_clk.mode, mode, __ATOMIC_RELEASE);
}

static void clk_reanchor(void) {
  if (__atomic_exchange_n(&g_clk.busy, 1, __ATOMIC_ACQUIRE)) return;
  uint64_t n, t;
  clk_pair(&n, &t);
  if (t > g_clk.tsc0 && n > g_clk.ns0) {
    double k = (double)(n - g_clk.ns0) / (double)(t - g_clk.tsc0);
    uint64_t lim = (t - g_clk.tsc0) / 16;
    uint64_t cap = (uint64_t)(1e8 / k); /* 100 ms */
    __atomic_add_fetch(&g_clk.seq, 1, __ATOMIC_ACQ_REL);
    __atomic_store_n(&g_clk.tsc_a, t, __ATOMIC_RELAXED);
    __atomic_store_n(&g_clk.ns_a, n, __ATOMIC_RELAXED);
    __atomic_store_n(&g_clk.limit, lim < cap ? lim : cap, __ATOMIC_RELAXED);
    k_store(k);
    __atomic_add_fetch(&g_clk.seq, 1, __ATOMIC_ACQ_REL);
  }
  __atomic_store_n(&g_clk.busy, 0, __ATOMIC_RELEASE);
}

__thread __attribute__((tls_model("initial-exec"))) uint64_t pt__clk_last;
#define t_last pt__clk_last

static uint64_t tsc_ns(void);

uint64_t pt__clock_ns_slow(void) {
  int mode = __atomic_load_n(&g_clk.mode, __ATOMIC_ACQUIRE);
  if (mode == 0) {
    pthread_once(&g_clk_once, clk_init);
    mode = g_clk.mode;
  }
  if (mode != 2) return mono_ns();
  uint64_t v = tsc_ns();
  if (v < t_last) v = t_last;
  t_last = v;
  return v;
}

static uint64_t tsc_ns(void) {
  for (;;) {
    uint32_t s0 = __atomic_load_n(&g_clk.seq, __ATOMIC_ACQUIRE);
    uint64_t a = __atomic_load_n(&g_clk.tsc_a, __ATOMIC_RELAXED);
    uint64_t n = __atomic_load_n(&g_clk.ns_a, __ATOMIC_RELAXED);
    uint64_t lim = __atomic_load_n(&g_clk.limit, __ATOMIC_RELAXED);
    double k = k_load();
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if ((s0 & 1) || __atomic_load_n(&g_clk.seq, __ATOMIC_RELAXED) != s0)
      continue;
    uint64_t t = tsc_read();
    if (t < a) return n; /* another CPU's counter a hair behind */
    if (t - a > lim) {
      clk_reanchor();
      if (!__atomic_load_n(&g_clk.busy, __ATOMIC_RELAXED) &&
          __atomic_load_n(&g_clk.seq, __ATOMIC_ACQUIRE) != s0)
        continue;
    }
    return n + (uint64_t)((double)(t - a) * k);
  }
}

