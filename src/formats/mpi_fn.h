/* The MPI functions paratrace knows, from its one table of them
 * (src/mpi/mpi_table.h, the names; src/mpi/mpi_sem.h, what a call means):
 * the recorder numbers and defines its regions with these, and a format
 * that names MPI calls only by name (PICL's labels) finds a region's
 * function, role and paradigm here.  Needs no <mpi.h>.  Not public API. */
#ifndef PT_FORMATS_MPI_FN_H
#define PT_FORMATS_MPI_FN_H

enum {
#define PT_MPI_FN(name, ret, params, args, kinds) PT_MPI_ID_##name,
#include "mpi/mpi_table.h"
#undef PT_MPI_FN
  PT_MPI_NFUNCS
};

/* What a call means for the model (mpi_sem.h's column; NONE: enter,
 * leave and arguments only).  The classes before NOREG are communication
 * statements (profile mode); RMA_*: one-sided operations (RMA_* events):
 * PUT, GET, ACC (accumulate), GACC (get-accumulate), FOP (fetch-and-op),
 * CAS (compare-and-swap). */
#define PT_MS_LIST(X)                                                        \
  X(NONE) X(SEND) X(RECV) X(SENDRECV) X(ISEND) X(IRECV) X(SEND_INIT)         \
  X(RECV_INIT) X(START) X(STARTALL) X(WAIT) X(TEST) X(WAITANY) X(TESTANY)    \
  X(WAITALL) X(TESTALL) X(WAITSOME) X(TESTSOME) X(REQUEST_FREE) X(CANCEL)    \
  X(COLL) X(ICOLL) X(RMA_PUT) X(RMA_GET) X(RMA_ACC) X(RMA_GACC) X(RMA_FOP)  \
  X(RMA_CAS) X(NOREG) X(COMM_FREE) X(TYPE_FREE) X(FILE_OPEN)                \
  X(FILE_CLOSE) X(IO_READ) X(IO_WRITE) X(IO_IREAD) X(IO_IWRITE)           \
  X(IO_SREAD) X(IO_SWRITE) X(IO_SEND)
enum {
#define PT_MS_ENUM(n) PT_MS_##n,
  PT_MS_LIST(PT_MS_ENUM)
#undef PT_MS_ENUM
};

/* "MPI_Send"... by function id (PT_MPI_ID_*). */
extern const char *const pt__mpi_fn_names[PT_MPI_NFUNCS];

/* The id of the MPI function called `name` ("MPI_Waitall"; exact, case
 * sensitive), or -1. */
int pt__mpi_fn_find(const char *name);

/* The pt_region_role of function `id`'s region (mpi_sem.h): BARRIER,
 * COLLECTIVE, POINT2POINT (sends, receives, requests), FILE_IO, else
 * FUNCTION. */
int pt__mpi_fn_role(int id);

/* Can a call of function `id` complete a receive (a blocking receive,
 * MPI_Sendrecv, a wait or test)?  0 for others and ids out of range. */
int pt__mpi_fn_receives(int id);

/* Is function `id` a blocking collective (MPI_Allreduce, MPI_Barrier...;
 * not MPI_Iallreduce)?  0 for others and ids out of range. */
int pt__mpi_fn_blocking_coll(int id);

#endif
