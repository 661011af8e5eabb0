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
} pt__open_call;

extern __thread pt__open_call pt__rec_open
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

#endif
