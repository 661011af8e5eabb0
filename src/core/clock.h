/* The clock of recorded events and profiles: nanoseconds on the
 * CLOCK_MONOTONIC scale, read from the invariant cycle counter where the
 * CPU has one (see clock.c).  Not public API. */
#ifndef PT_CORE_CLOCK_H
#define PT_CORE_CLOCK_H

#include <stdint.h>

uint64_t pt__clock_ns(void);

#endif
