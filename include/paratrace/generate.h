/* paratrace: a deterministic synthetic trace generator.
 *
 * Produces the definitions and events of an MPI-like program with P
 * locations (one thread per rank), each with exactly N events, from a seed.
 * The same options give bit-identical events on every machine (own PRNG,
 * integer arithmetic only).  Each location's sequence is generated
 * independently of the others, so a writer may produce streams in any
 * order or in parallel, yet messages are consistent across locations.
 *
 *   pt_gen *g;  pt_event ev;
 *   pt_gen_opts o = {.locations = 4, .events = 1000000, .seed = 1};
 *   pt_gen_create(&g, &o);
 *   for (size_t i = 0; i < pt_gen_ndefs(g); i++) put_def(pt_gen_def(g, i));
 *   for (uint64_t loc = 0; loc < 4; loc++)
 *     while (pt_gen_next(g, loc, &ev) == PT_OK) put_event(&ev);
 *   pt_gen_destroy(g);
 *
 * What a location's sequence looks like (all ids are per definition kind):
 *
 * - Nested enter/leave of the user regions 0..R-1 (skewed: low ids are hot),
 *   depth at most PT_GEN_MAX_DEPTH - 1 for user regions; every enter has its
 *   leave by the last event.
 * - A message exchange every `msg_every` events: four consecutive events
 *   enter(MPI_Sendrecv) send recv leave(MPI_Sendrecv) at the same indices on
 *   every location (region id R; depth <= PT_GEN_MAX_DEPTH).  Location i
 *   sends at index k to rank (i+1) mod P and receives at index k+1 from rank
 *   (i-1) mod P, on communicator 0 (MPI_COMM_WORLD), with a tag and a byte
 *   count that both ends derive from (seed, sender, k).
 * - A sample of metric 0 (an accumulated instruction counter, PT_TYPE_UINT)
 *   every `metric_every` events, plus at most one extra sample near the end
 *   when needed to make the count of enter/leave slots even.
 * - No message or scheduled metric falls in the last PT_GEN_TAIL events,
 *   which close the open regions.
 *
 * Time (1 GHz ticks): a global step sequence step(n) >= 200, drawn from the
 * seed alone (log-distributed, 200 ticks .. ~4 ms, heavy-tailed like real
 * region durations), defines T(n) = sum of step(0..n-1).  Event n of every
 * location is at T(n) + jitter with 0 <= jitter < step(n)/2, the jitter
 * drawn per location.  Hence times strictly increase per location and a
 * receive at index k+1 is never earlier than its send at index k on another
 * location: t_send < T(k+1) <= t_recv.
 */
#ifndef PARATRACE_GENERATE_H
#define PARATRACE_GENERATE_H

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest nesting of any location (user regions plus MPI_Sendrecv). */
#define PT_GEN_MAX_DEPTH 8
/* Length of the closing tail without messages or scheduled metrics. */
#define PT_GEN_TAIL 16

typedef struct pt_gen pt_gen;

typedef struct pt_gen_opts {
  uint64_t locations;    /* P >= 1 (0 is PT_EINVAL) */
  uint64_t events;       /* N events per location; 0 is allowed (empty) */
  uint64_t seed;         /* any value */
  uint32_t regions;      /* R user regions; 0 = 16 */
  uint32_t msg_every;    /* period of message exchanges; 0 = 50; must be
                            >= 4 (the exchange itself takes 4 events) */
  uint32_t metric_every; /* period of metric samples; 0 = 100; 1 allowed */
} pt_gen_opts;

/* Create a generator.  `o` must not be NULL.  Builds every definition now
 * (cost O(P + R) plus one O(N) pass over the shared step sequence to know
 * the trace length).  Returns PT_OK and *out; PT_EINVAL (locations == 0,
 * msg_every in 1..3, regions > 2^20, locations > 2^32) or PT_ENOMEM, and
 * then *out is NULL.  Ownership: free with pt_gen_destroy(). */
PT_API int pt_gen_create(pt_gen **out, const pt_gen_opts *o);

/* Number of definitions and definition i (0 <= i < ndefs), in an order a
 * sink can write as is (referenced before referencing): the clock (1 GHz,
 * start 0, length = end of the last event), system node 0, location groups
 * 0..P-1 (rank r), locations 0..P-1 (location i in group i, `events` = N),
 * regions 0..R (R is MPI_Sendrecv; all with file and lines), group 0 (comm
 * locations: location ids 0..P-1), group 1 (comm group: ranks 0..P-1),
 * comm 0 "MPI_COMM_WORLD" over group 1, metric 0.  The pointer and
 * everything it points to is borrowed until pt_gen_destroy.  Thread-safe
 * (read only).  Out-of-range i returns NULL. */
PT_API size_t pt_gen_ndefs(const pt_gen *g);
PT_API const pt_def *pt_gen_def(const pt_gen *g, size_t i);

/* The next event of location `location` (0 <= location < P; ids equal
 * indices) in its own sequence.  Returns PT_OK and fills *ev (no pointers
 * inside; nothing to free), PT_END after the N-th event (and on every call
 * after that), or PT_EINVAL for a location >= P.  Calls for different
 * locations may run concurrently in different threads; calls for the same
 * location must not. */
PT_API int pt_gen_next(pt_gen *g, uint64_t location, pt_event *ev);

/* Restart location `location` at its first event (e.g. to write the same
 * events twice).  Returns PT_OK or PT_EINVAL.  Same threading rule. */
PT_API int pt_gen_rewind(pt_gen *g, uint64_t location);

/* Free the generator and its definitions.  NULL is ok. */
PT_API void pt_gen_destroy(pt_gen *g);

#ifdef __cplusplus
}
#endif
#endif
