/* The MPI recorder behind libparatrace-mpi.so: internal interface between
 * the generated wrappers (wrappers.c) and the recording logic (mpirec.c).
 *
 * Every wrapper does, for MPI_<name>(args):
 *   if (!pt__mpi_on[id]) return PMPI_<name>(args);   one load, no clock
 *   pt__mpi_call c; pt__mpi_begin(&c, id);
 *   pt__mpi_arg(&c, &arg) for each argument         (before the call:
 *        values kept, MPI_STATUS(ES)_IGNORE replaced by local storage,
 *        request handles that the call will free remembered)
 *   t0 = now; r = PMPI_<name>(args); t1 = now;
 *   pt__mpi_end(&c, t0, t1, r, caller)               (events, arguments)
 * MPI_Init, MPI_Init_thread, MPI_Finalize and MPI_Abort also start and
 * stop the recorder (pt__mpi_after_init, pt__mpi_before_finalize...).
 * Not public API. */
#ifndef PT_MPI_MPIREC_H
#define PT_MPI_MPIREC_H

#include <mpi.h>
#include <stdint.h>

enum {
#define PT_MPI_FN(name, ret, params, args, kinds) PT_MPI_ID_##name,
#include "mpi_table.h"
#undef PT_MPI_FN
  PT_MPI_NFUNCS
};

#define PT_MPI_MAXARGS 16
#define PT_MPI_INLINE 8 /* statuses / requests kept without malloc */

typedef struct pt__mpi_call {
  int id, n, count; /* function, arguments seen, first count ('n') */
  int64_t v[PT_MPI_MAXARGS]; /* argument values before the call */
  void *addr[PT_MPI_MAXARGS]; /* where each argument lives */
  MPI_Status st;              /* replaces MPI_STATUS_IGNORE */
  MPI_Status *sts;            /* replaces MPI_STATUSES_IGNORE */
  MPI_Status sts_inline[PT_MPI_INLINE];
  MPI_Request *reqs; /* request handles before the call */
  MPI_Request reqs_inline[PT_MPI_INLINE];
  int nreqs;
  int owned; /* bit 0: sts malloc'ed; bit 1: reqs malloc'ed */
} pt__mpi_call;

/* Per function: record it?  0 before MPI_Init, after MPI_Finalize, when
 * disabled by PARATRACE_DISABLE, or when recording stopped. */
extern unsigned char pt__mpi_on[PT_MPI_NFUNCS];

void pt__mpi_begin(pt__mpi_call *c, int id);
void pt__mpi_arg(pt__mpi_call *c, int64_t value, void *addr);
void pt__mpi_end(pt__mpi_call *c, uint64_t t0, uint64_t t1, int ret,
                 void *caller);
uint64_t pt__mpi_now(void);

/* MPI_Init / MPI_Init_thread returned (provided: the thread level). */
void pt__mpi_after_init(int provided);
/* Before PMPI_Finalize: clock sample, close the archive. */
void pt__mpi_before_finalize(void);
/* Before PMPI_Abort: flush and close as well as possible. */
void pt__mpi_before_abort(void);

#endif
