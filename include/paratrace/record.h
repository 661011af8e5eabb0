/* paratrace: recording events from a running program.
 *
 * One recorder per process writes a PTF archive: each thread that records
 * gets its own stream and location (created on its first event), so the
 * append path takes no lock.  Several processes (MPI ranks) write one
 * archive: one leader and joiners (pt_rec_opts.join), see writer.h.
 *
 *   pt_rec_opts o = {.path = "run.ptf"};
 *   pt_rec_start(&o, &err);
 *   pt_trace_begin("solve"); ... pt_trace_end("solve");
 *   pt_trace_mark_int("iteration", 7);
 *   pt_trace_message("converged");        // written at once (PICL -7)
 *   pt_rec_stop(&err);
 *
 * Buffers: each thread keeps at most `buffer` bytes of events in memory.
 * When they are full the policy decides:
 *   PT_REC_FLUSH  write them as a block and go on (default);
 *   PT_REC_STOP   stop recording this thread and write a BUFFER_OVERFLOW
 *                 event (PICL -913: tracing stopped);
 *   PT_REC_RING   keep the newest events: the oldest are overwritten and a
 *                 BUFFER_OVERFLOW event (PICL -914) says how many were lost;
 *                 the regions open where the kept events begin (whose
 *                 ENTER was lost) are entered again right after it, at its
 *                 time, without their ENTER's attributes.
 * Memory per thread is bounded by `buffer` (plus one block being encoded).
 *
 * Time: nanoseconds of CLOCK_MONOTONIC, read from the invariant cycle
 * counter calibrated against it where the CPU has one, else from
 * CLOCK_MONOTONIC itself (vDSO, no system call; never a CPU-time clock;
 * PARATRACE_CLOCK=monotonic forces it), plus an offset the caller may set
 * (clock synchronisation to rank 0); the archive's CLOCK has 1e9 ticks/s.
 *
 * Never lose the trace: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM,
 * SIGINT, SIGHUP and SIGQUIT flush and
 * close the archive as well as possible before the previous handler (or
 * the default action) runs; blocks already written survive SIGKILL
 * (paratrace recover).  An I/O error (disk full, unwritable directory)
 * prints one message on stderr and switches recording off; the program
 * goes on.
 *
 * Environment (read by pt_rec_start_env and by libparatrace-mpi):
 *   PARATRACE_OUTPUT   archive path (default paratrace.ptf)
 *   PARATRACE_BUFFER   bytes per thread, with K/M/G suffix (default 4M)
 *   PARATRACE_POLICY   flush | stop | ring
 *   PARATRACE_LEVEL    0 nothing, 1 regions and marks, 2 + arguments,
 *                      3 + statuses (default 3)
 *   PARATRACE_MODE     trace (default) | profile | both
 */
#ifndef PARATRACE_RECORD_H
#define PARATRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pt_rec_policy {
  PT_REC_FLUSH = 0,
  PT_REC_STOP = 1,
  PT_REC_RING = 2
} pt_rec_policy;

typedef struct pt_rec_opts {
  const char *path;     /* archive; NULL = "paratrace.ptf" */
  size_t buffer;        /* bytes per thread; 0 = 4 MiB; at least 4 KiB */
  int policy;           /* pt_rec_policy */
  int level;            /* 1..3, see PARATRACE_LEVEL; 0 = 3 (pt_trace_level(0)
                           records nothing) */
  int overwrite;        /* leader: replace an existing archive */
  int join;             /* 1: a joiner of a leader's archive (writer.h) */
  uint64_t rank;        /* location group id and rank of this process */
  uint64_t nranks;      /* processes writing the archive (>= 1) */
  const char *creator;  /* anchor text; NULL = "paratrace record" */
} pt_rec_opts;

/* Start recording into a new archive (or join one).  Thread t (numbered
 * from 0 in order of its first event) of rank r writes stream and
 * location r + t * nranks, in location group r.  Returns PT_OK, PT_ESTATE
 * (already started), PT_EINVAL, or the writer's errors; detail in err. */
PT_API int pt_rec_start(const pt_rec_opts *opts, pt_error *err);
/* pt_rec_start with options from the environment above (and `rank`,
 * `nranks`, `join` as given). */
PT_API int pt_rec_start_env(uint64_t rank, uint64_t nranks, int join,
                            pt_error *err);
/* Flush every thread and close the archive (a leader lists the joiners'
 * streams: close it after they closed).  Later events are dropped.
 * Returns PT_OK or the first error. */
PT_API int pt_rec_stop(pt_error *err);
/* Is a recorder running and recording on this thread? (cheap) */
PT_API int pt_rec_enabled(void);
/* The recording level (0..3). */
PT_API int pt_rec_level(void);

/* Current time in trace ticks (ns, offset applied). */
PT_API uint64_t pt_rec_now(void);
/* Offset (ns) added to the clock from now on; recorded as a CLOCK_SYNC
 * definition of this rank's location group at local time `at`. */
PT_API void pt_rec_clock_offset(int64_t offset_ns, uint64_t at);

/* Definitions (thread-safe).  pt_rec_def copies.  pt_rec_region and
 * pt_rec_attribute return the id of the region / attribute key of that
 * name, defining it on first use (ids are assigned from a hash of the name,
 * so every process gives one name the same id). */
PT_API int pt_rec_def(const pt_def *def);
PT_API uint64_t pt_rec_region(const char *name, int role, int paradigm);
PT_API uint64_t pt_rec_attribute(const char *name, int type);

/* Append an event of this thread (its `location` is set here; time is
 * clamped so it never goes backwards).  Attributes and strings are
 * copied.  Returns PT_OK, or PT_ESTATE when not recording (the event is
 * dropped). */
PT_API int pt_rec_event(pt_event *ev);
/* Write this thread's buffered events now (PT_OK or PT_EIO). */
PT_API int pt_rec_flush(void);

/* ---- the PICL-style user API ------------------------------------------- */

/* tracelevel: 0 records nothing, 1 regions and marks, 2 arguments,
 * 3 statuses. */
PT_API void pt_trace_level(int level);
/* traceevents on/off: measurement on (1) or off (0) for the process;
 * writes a MEASURE event. */
PT_API void pt_trace_measure(int on);
/* traceblockbegin / traceblockend: a user region. */
PT_API void pt_trace_begin(const char *name);
PT_API void pt_trace_end(const char *name);
/* tracedata: a mark of event type `label` with one typed value. */
PT_API void pt_trace_mark_int(const char *label, int64_t value);
PT_API void pt_trace_mark_double(const char *label, double value);
PT_API void pt_trace_mark_text(const char *label, const char *text);
/* tracemsg: a message written and flushed at once (PICL -7). */
PT_API void pt_trace_message(const char *text);
/* traceflush. */
PT_API void pt_trace_flush(void);

#ifdef __cplusplus
}
#endif
#endif
