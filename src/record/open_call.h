/* The call a thread is blocked in, for the recorder's signal handler:
 * written by the MPI recorder around each PMPI call (two stores, no
 * function call), read from another thread when the process is killed.
 * Not public API. */
#ifndef PT_RECORD_OPEN_CALL_H
#define PT_RECORD_OPEN_CALL_H

#include <stdint.h>

typedef struct pt__open_call {
  uint64_t region; /* region id + 1; 0: not in a call */
  uint64_t time;   /* its start, the raw clock (before the clock offset) */
  uint64_t gen;    /* the recording (pt__rec_generation) in which this
                    * thread has its stream; 0: none yet */
} pt__open_call;

extern __thread pt__open_call pt__rec_open
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* The recorder's switches: recording, measurement on (pt_trace_measure),
 * the detail level; atomic.  Read inline on the MPI recorder's per-call
 * path (pt__rec_enabled_now, pt__rec_level_now: pt_rec_enabled and
 * pt_rec_level without a call). */
extern int pt__rec_on __attribute__((visibility("hidden")));
extern int pt__rec_measure __attribute__((visibility("hidden")));
extern int pt__rec_lvl __attribute__((visibility("hidden")));
static inline int pt__rec_enabled_now(void) {
  return __atomic_load_n(&pt__rec_on, __ATOMIC_RELAXED) &&
         __atomic_load_n(&pt__rec_measure, __ATOMIC_RELAXED);
}
static inline int pt__rec_level_now(void) {
  return __atomic_load_n(&pt__rec_lvl, __ATOMIC_RELAXED);
}

/* Bumped by each start and stop of a recording. */
extern uint64_t pt__rec_generation __attribute__((visibility("hidden")));

/* Gives the calling thread its stream now (not at its first event): a
 * thread whose first call blocks is then known to the signal handler,
 * which writes that call's ENTER when the process is killed in it. */
void pt__rec_thread(void) __attribute__((visibility("hidden")));

/* The process is ending without returning from a call (MPI_Abort): the
 * recording stops as pt_rec_stop, and every other thread's call in
 * progress is written as entered, never left, as when the process is
 * killed by a signal. */
void pt__rec_stop_dying(void) __attribute__((visibility("hidden")));

/* A call starts: the thread's call in progress is (region, t0). */
static inline __attribute__((always_inline)) void pt__rec_open_call(
    uint64_t region, uint64_t t0) {
  if (__builtin_expect(pt__rec_open.gen != __atomic_load_n(
                                               &pt__rec_generation,
                                               __ATOMIC_RELAXED),
                       0))
    pt__rec_thread();
  __atomic_store_n(&pt__rec_open.time, t0, __ATOMIC_RELAXED);
  __atomic_store_n(&pt__rec_open.region, region, __ATOMIC_RELEASE);
}

#endif
