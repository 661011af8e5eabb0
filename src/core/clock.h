/* The clock of recorded events and profiles: nanoseconds on the
 * CLOCK_MONOTONIC scale, read from the invariant cycle counter where the
 * CPU has one (see clock.c).  Not public API. */
#ifndef PT_CORE_CLOCK_H
#define PT_CORE_CLOCK_H

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PT_CLOCK_TSC 1
#else
#define PT_CLOCK_TSC 0
#endif

/* The time base (clock.c): ns = ns_a + (tsc - tsc_a) * k while
 * tsc - tsc_a <= limit; seq is odd while the anchor changes. */
typedef struct pt__clk_state {
  int mode;      /* 0 unknown, 1 CLOCK_MONOTONIC, 2 TSC */
  uint32_t seq;  /* seqlock: odd while the anchor changes */
  int busy;      /* a thread is re-anchoring */
  uint64_t tsc0, ns0, tsc_a, ns_a, limit;
  uint64_t kbits; /* ns per tick, a double's bits (atomic access) */
} pt__clk_state;
extern pt__clk_state pt__clk __attribute__((visibility("hidden")));

/* The last value this thread read: a re-anchoring may move the clock back
 * by a few ns, a thread's readings never go back. */
extern __thread uint64_t pt__clk_last
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* Everything but the common case: first use, CLOCK_MONOTONIC, a counter
 * read outside the anchor's range (re-anchoring), a change under way. */
uint64_t pt__clock_ns_slow(void) __attribute__((visibility("hidden")));

/* The clock now.  The common case inline (it is read twice per recorded
 * MPI call): the anchor read under its seqlock, one counter read, the
 * conversion.  The counter is at most `limit` ticks past the anchor there
 * (1/16 of the time since the first sample, at most 100 ms: far below
 * 2^52), so the conversions can be the signed ones, one instruction each
 * where the unsigned ones take a dozen, with the same values. */
static inline __attribute__((always_inline)) uint64_t pt__clock_ns(void) {
#if PT_CLOCK_TSC
  pt__clk_state *g = &pt__clk;
  if (__builtin_expect(__atomic_load_n(&g->mode, __ATOMIC_ACQUIRE) == 2, 1)) {
    uint32_t s0 = __atomic_load_n(&g->seq, __ATOMIC_ACQUIRE);
    uint64_t a = __atomic_load_n(&g->tsc_a, __ATOMIC_RELAXED);
    uint64_t n = __atomic_load_n(&g->ns_a, __ATOMIC_RELAXED);
    uint64_t lim = __atomic_load_n(&g->limit, __ATOMIC_RELAXED);
    uint64_t kb = __atomic_load_n(&g->kbits, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint64_t t = __rdtsc();
    if (__builtin_expect(!(s0 & 1) &&
                             __atomic_load_n(&g->seq, __ATOMIC_RELAXED) ==
                                 s0 &&
                             t >= a && t - a <= lim,
                         1)) {
      double k;
      memcpy(&k, &kb, sizeof k);
      uint64_t v = n + (uint64_t)(int64_t)((double)(int64_t)(t - a) * k);
      uint64_t last = pt__clk_last;
      if (v < last) v = last;
      pt__clk_last = v;
      return v;
    }
  }
#endif
  return pt__clock_ns_slow();
}

#endif
