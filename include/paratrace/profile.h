/* paratrace: constant-size run-time profiles (Li & Zhang's hybrid of
 * counting and tracing).
 *
 * A profile is a tree of records whose size depends on the structure of
 * the program -- its procedures, call sites, loops and communication
 * statements and the destinations those talk to -- and never on how long
 * it runs.  Each node counts executions and accumulates inclusive time;
 * communication nodes also accumulate bytes, transmission time and
 * synchronisation delay (time spent waiting for the partner).  The levels
 * are those of the seed's top-down analysis:
 *
 *   program -> procedure -> call site -> loop -> communication statement
 *           -> destination
 *
 * Collecting (one collector per thread; no locks, no allocation once the
 * tree has been built, no system call):
 *
 *   pt_profile *p;
 *   pt_profile_create(&p, 0);
 *   pt_profile_enter(p, PT_PROFILE_PROC, key, name, pt_profile_now());
 *   ...
 *   pt_profile_comm(p, site_key, "MPI_Send", dest, bytes, t0, t1, sync_ns);
 *   pt_profile_leave(p, pt_profile_now());
 *   pt_profile_save(p, "run.ptf", rank, &err);   // run.ptf/profile.<rank>
 *   pt_profile_destroy(p);
 *
 * Keys identify a node among its siblings: procedures and communication
 * statements by any stable id (a name hash, or a call site), call sites
 * and loops by their code address as pt_profile_site() makes it: module +
 * offset, so that address-space randomisation never splits one call site
 * into several.  Recursion is folded as the seed describes: entering a
 * procedure that is already active on the collector's stack creates no
 * node and accumulates no time (the outermost activation holds it), so
 * direct and mutual recursion never double-count.
 *
 * Intrusion compensation: pt_profile_calibrate() measures what one probe
 * (an enter or leave) costs; with compensation on, every probe advances a
 * "virtual time" debt by that cost and reported times are real time minus
 * the debt accumulated inside the interval (the seed's virtual clock).
 *
 * Reading: pt_profile_load() reads one saved profile; pt_profile_merge()
 * sums several (ranks) by structural identity (the path of kinds and
 * names from the root); pt_profile_report() prints the top-down tree.
 */
#ifndef PARATRACE_PROFILE_H
#define PARATRACE_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, label): node kinds, in the order of the seed's hierarchy. */
#define PT_PROFILE_KINDS(X)                   \
  X(ROOT, "program")                          \
  X(PROC, "procedure")                        \
  X(CALL, "call site")                        \
  X(LOOP, "loop")                             \
  X(BLOCK, "block")                           \
  X(COMM, "statement")                        \
  X(DEST, "destination")

typedef enum pt_profile_kind {
#define PT_X(n, l) PT_PROFILE_##n,
  PT_PROFILE_KINDS(PT_X)
#undef PT_X
  PT_PROFILE__KINDS
} pt_profile_kind;

/* Label of a kind ("procedure"); "?" for an unknown value. */
PT_API const char *pt_profile_kind_name(int kind);

/* One record of the tree.  Times are nanoseconds. */
typedef struct pt_profile_node {
  uint32_t parent;    /* index of the parent; the root (index 0) has 0 */
  uint32_t kind;      /* pt_profile_kind */
  uint64_t key;       /* identity among siblings */
  const char *name;   /* label: procedure / MPI function / "loop"; may be "" */
  const char *module; /* CALL/LOOP/COMM: object file of the site, or "" */
  uint64_t offset;    /* CALL/LOOP/COMM: address in that file (link-time) */
  uint64_t count;     /* executions */
  uint64_t incl_ns;   /* inclusive time */
  uint64_t child_ns;  /* time inside child nodes (exclusive = incl - child) */
  uint64_t bytes;     /* COMM/DEST: bytes moved */
  uint64_t trans_ns;  /* COMM/DEST: transmission time */
  uint64_t sync_ns;   /* COMM/DEST: synchronisation delay */
  uint64_t max_ns;    /* COMM: the longest single call (as mpiP's
                         Callsite Time Max); 0 in a file written before */
} pt_profile_node;

typedef struct pt_profile pt_profile;

/* ---- collecting --------------------------------------------------------- */

/* Create an empty collector holding at most `max_nodes` nodes (0 = 65536).
 * When the tree is full, new contexts are counted in the nearest existing
 * ancestor and pt_profile_dropped() says how many were folded so.  Memory
 * is allocated here, once: O(max_nodes).  Caller destroys.
 * Returns PT_OK, PT_EINVAL or PT_ENOMEM. */
PT_API int pt_profile_create(pt_profile **out, size_t max_nodes);
/* Free the collector (NULL is ok). */
PT_API void pt_profile_destroy(pt_profile *p);

/* Monotonic time in nanoseconds (CLOCK_MONOTONIC; vDSO, no system call). */
PT_API uint64_t pt_profile_now(void);

/* Turn intrusion compensation on with `probe_ns` per probe (0 = off). */
PT_API void pt_profile_set_probe_cost(pt_profile *p, double probe_ns);
/* The same with different costs for enter (and comm) probes and for leave
 * probes; each probe's cost is taken to follow its clock read. */
PT_API void pt_profile_set_probe_costs(pt_profile *p, double enter_ns,
                                       double leave_ns);
/* Measure the cost of one enter+leave pair on a scratch collector and
 * return half of it in nanoseconds (the median of several rounds). */
PT_API double pt_profile_calibrate(void);

/* Open a node of `kind` (PROC, CALL, LOOP, BLOCK) with `key` under the
 * innermost open node at time `now`.  `name` (copied on first use; may be
 * NULL) labels it.  PT_OK, or PT_EINVAL (bad kind; nothing is opened) or
 * PT_ELIMIT when the stack is deeper than 4096 (the probe is counted but
 * ignored; its matching leave is ignored too). */
PT_API int pt_profile_enter(pt_profile *p, int kind, uint64_t key,
                            const char *name, uint64_t now);
/* Close the innermost open node at `now`.  PT_OK or PT_EINVAL (nothing
 * open). */
PT_API int pt_profile_leave(pt_profile *p, uint64_t now);
/* Attach a code address to the innermost open node (CALL/LOOP): module
 * path (copied) and link-time offset.  Used by the site helpers. */
PT_API void pt_profile_set_site(pt_profile *p, const char *module,
                                uint64_t offset);

/* Record one execution of communication statement `key` (named `name`,
 * e.g. "MPI_Send"; at site module+offset) under the innermost open node:
 * it ran from t0 to t1, moved `bytes` to/from `dest` (a COMM_WORLD rank;
 * -1 when it has none, e.g. a barrier), of which `sync_ns` were spent
 * waiting for the partner; transmission time is (t1 - t0) - sync_ns.
 * With sync_ns = PT_PROFILE_SYNC_ESTIMATE the split is estimated per node
 * (statement, and statement x destination): its fastest execution counts
 * as transmission, the excess of every execution over it as waiting --
 * what a run-time tool can know without the partner's clock.
 * Returns PT_OK or PT_EINVAL (t1 < t0). */
#define PT_PROFILE_SYNC_ESTIMATE UINT64_MAX
PT_API int pt_profile_comm(pt_profile *p, uint64_t key, const char *name,
                           const char *module, uint64_t offset, int64_t dest,
                           uint64_t bytes, uint64_t t0, uint64_t t1,
                           uint64_t sync_ns);

/* Resolve a code address to a stable site: module path and link-time
 * offset (address minus the module's load bias), cached per collector, so
 * repeated calls cost one hash lookup.  `*module` is owned by the
 * collector.  Returns a key usable with pt_profile_enter/comm. */
PT_API uint64_t pt_profile_site(pt_profile *p, const void *addr,
                                const char **module, uint64_t *offset);

/* Contexts folded into an ancestor because the tree was full. */
PT_API uint64_t pt_profile_dropped(const pt_profile *p);
/* Number of nodes and node i (borrowed until the next call on p; i must be
 * < pt_profile_nnodes).  Nodes still open are reported with the time up
 * to their last probe. */
PT_API size_t pt_profile_nnodes(const pt_profile *p);
PT_API const pt_profile_node *pt_profile_node_at(const pt_profile *p,
                                                 size_t i);

/* ---- saving and loading ------------------------------------------------- */

/* Write the profile as `ARCHIVE/profile.<id>` (the archive directory is
 * created if missing; the file is written under a temporary name and
 * renamed).  Open nodes are closed at their last probe first.  The file
 * size depends only on the tree (fixed-width counters).  Returns PT_OK or
 * PT_EIO / PT_ENOMEM with the detail in err. */
PT_API int pt_profile_save(pt_profile *p, const char *archive, uint64_t id,
                           pt_error *err);
/* 1 if `dir` is a directory holding nothing but profile.<id> files (what
 * the profile mode alone writes; an empty directory too), else 0: an
 * earlier output that may be replaced. */
PT_API int pt_profile_is_output(const char *dir);
/* Read one saved profile file (any path).  Caller destroys *out.  Returns
 * PT_OK, PT_EIO, PT_EFORMAT (not a profile), PT_EVERSION or PT_ECORRUPT
 * with file and offset in err. */
PT_API int pt_profile_load(pt_profile **out, const char *file, pt_error *err);
/* Add `src` into `dst`, matching nodes by their path of (kind, name,
 * module, offset, and for DEST the key).  Returns PT_OK or PT_ENOMEM. */
PT_API int pt_profile_merge(pt_profile *dst, const pt_profile *src);

/* ---- reporting ---------------------------------------------------------- */

typedef struct pt_profile_report_opts {
  const char *focus;  /* print only subtrees rooted at nodes named so */
  double min_pct;     /* hide nodes below this % of the total (0 = all) */
  int max_depth;      /* 0 = unlimited */
  int resolve;        /* 1: resolve sites to function/file:line (addr2line) */
  int csv;            /* 1: CSV rows (depth,kind,name,site,count,incl_ns,
                         excl_ns,bytes,trans_ns,sync_ns,max_ns) instead of
                         a tree */
} pt_profile_report_opts;

/* Print the top-down tree: per node count, inclusive time and % of the
 * program, exclusive time and %, and for communication bytes,
 * transmission time and synchronisation delay.  Returns PT_OK,
 * PT_ENOTFOUND (focus names no node) or PT_EIO. */
PT_API int pt_profile_report(const pt_profile *p, FILE *out,
                             const pt_profile_report_opts *opts,
                             pt_error *err);

/* ---- the run-time profile mode ------------------------------------------ */

/* The profile mode keeps one collector per thread, created on first use.
 * It is switched on by pt_profile_runtime_enable(), or at load time by the
 * environment:
 *
 *   PARATRACE_MODE=profile | both   collect profiles (both: and trace)
 *   PARATRACE_OUTPUT=DIR.ptf        archive the profiles go into
 *                                   (default ./paratrace.ptf)
 *   PARATRACE_COMPENSATE=0          do not subtract the probe cost
 *   PARATRACE_PROFILE_NODES=N       nodes per thread (default 65536)
 *
 * At exit (or pt_profile_runtime_save) every thread's profile is written
 * as DIR/profile.<rank * 1024 + thread>, thread numbered in creation
 * order; the rank is taken from the launcher's environment
 * (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID) until the MPI
 * library sets it.  Programs compiled with
 * -finstrument-functions and linked with libparatrace get procedure and
 * call-site records through __cyg_profile_func_enter/exit.  All these
 * functions are cheap no-ops while the mode is off. */

/* Is the profile mode on? */
PT_API int pt_profile_runtime_enabled(void);
/* Switch it on (calibrating the probe cost when `compensate`) or off. */
PT_API void pt_profile_runtime_enable(int on, int compensate);
/* This thread's collector (created on first call; owned by the runtime),
 * or NULL when the mode is off or memory ran out. */
PT_API pt_profile *pt_profile_self(void);
/* Set the rank used in file names (default 0) and the archive path
 * (copied; NULL keeps the current one). */
PT_API void pt_profile_runtime_config(uint64_t rank, const char *archive);
/* Write every thread's profile now (also done once at exit).  Returns
 * PT_OK or the first error, detail in err. */
PT_API int pt_profile_runtime_save(pt_error *err);

/* User API for loops and blocks (PICL's traceblockbegin/end in spirit):
 * the site is the caller's address, so each loop in the source is one
 * record however often it runs. */
PT_API void pt_profile_loop_begin(void);
PT_API void pt_profile_loop_end(void);
PT_API void pt_profile_block_begin(const char *name);
PT_API void pt_profile_block_end(void);

#define PT_PROFILE_LOOP_BEGIN() pt_profile_loop_begin()
#define PT_PROFILE_LOOP_END() pt_profile_loop_end()

#ifdef __cplusplus
}
#endif
#endif
