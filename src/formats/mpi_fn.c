/* MPI functions by name and id, from src/mpi/mpi_table.h and mpi_sem.h
 * (see mpi_fn.h). */
#include "formats/mpi_fn.h"

#include <string.h>

#include "paratrace/model.h"

const char *const pt__mpi_fn_names[PT_MPI_NFUNCS] = {
#define PT_MPI_FN(name, ret, params, args, kinds) "MPI_" #name,
#include "mpi/mpi_table.h"
#undef PT_MPI_FN
};

static const unsigned char fn_sem[PT_MPI_NFUNCS] = {
#define PT_MPI_SEM(name, S, K) [PT_MPI_ID_##name] = PT_MS_##S,
#include "mpi/mpi_sem.h"
#undef PT_MPI_SEM
};

/* (0 is PT_COLL_BARRIER: read for collectives only) */
static const unsigned char fn_coll[PT_MPI_NFUNCS] = {
#define PT_MPI_SEM(name, S, K) [PT_MPI_ID_##name] = PT_COLL_##K,
#include "mpi/mpi_sem.h"
#undef PT_MPI_SEM
};

int pt__mpi_fn_find(const char *name) {
  if (!name || strncmp(name, "MPI_", 4) != 0) return -1;
  for (int i = 0; i < PT_MPI_NFUNCS; i++)
    if (strcmp(pt__mpi_fn_names[i] + 4, name + 4) == 0) return i;
  return -1;
}

int pt__mpi_fn_receives(int id) {
  if (id < 0 || id >= PT_MPI_NFUNCS) return 0;
  int sem = fn_sem[id];
  return sem == PT_MS_RECV || sem == PT_MS_SENDRECV ||
         (sem >= PT_MS_WAIT && sem <= PT_MS_TESTSOME);
}

int pt__mpi_fn_role(int id) {
  if (id < 0 || id >= PT_MPI_NFUNCS) return PT_ROLE_FUNCTION;
  int sem = fn_sem[id];
  if (sem == PT_MS_COLL || sem == PT_MS_ICOLL)
    return fn_coll[id] == PT_COLL_BARRIER ? PT_ROLE_BARRIER
                                                  : PT_ROLE_COLLECTIVE;
  if (sem >= PT_MS_SEND && sem <= PT_MS_CANCEL) return PT_ROLE_POINT2POINT;
  if (sem >= PT_MS_IO_READ) return PT_ROLE_FILE_IO;
  return PT_ROLE_FUNCTION;
}

int pt__mpi_fn_blocking_coll(int id) {
  return id >= 0 && id < PT_MPI_NFUNCS && fn_sem[id] == PT_MS_COLL;
}
