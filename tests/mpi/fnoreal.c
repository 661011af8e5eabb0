/* The recorder's pass-through Fortran entry points (the PT_MPI_FP rows of
 * src/mpi/mpi_ftable.h) in a process that has not loaded OpenMPI's
 * Fortran library: a C program (linked with libmpi only) finds
 * mpi_op_create_ and mpi_comm_get_attr_ in the preloaded recorder and
 * calls them as Fortran would.  Usage: fnoreal fail|ok.  fail (run with
 * PARATRACE_MPI_FORTRAN_LIB naming no library): they must fail cleanly,
 * an MPI error code in ierr and the output arguments untouched, and the
 * program goes on.  ok: the recorder opens OpenMPI's Fortran library
 * itself and the calls succeed (MPI_TAG_UB read, an op made and freed).
 * Prints "fnoreal: ierr <op_create> <comm_get_attr> sum <n>" on rank 0;
 * exit 1 when an entry point is missing or a call did not do as asked. */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

typedef void op_create_f(void *fn, MPI_Fint *commute, MPI_Fint *op,
                         MPI_Fint *ierr);
typedef void get_attr_f(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val,
                        MPI_Fint *flag, MPI_Fint *ierr);

static void user_fn(void *in, void *inout, MPI_Fint *len, MPI_Fint *type) {
  (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, bad = 0, ok = argc > 1 && !strcmp(argv[1], "ok");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  void *a = dlsym(RTLD_DEFAULT, "mpi_op_create_");
  void *b = dlsym(RTLD_DEFAULT, "mpi_comm_get_attr_");
  if (!a || !b) {
    fprintf(stderr, "fnoreal: no mpi_op_create_ / mpi_comm_get_attr_\n");
    MPI_Finalize();
    return 1;
  }
  MPI_Fint commute = 1, op = -7, e1 = MPI_SUCCESS, e2 = MPI_SUCCESS;
  MPI_Fint comm = MPI_Comm_c2f(MPI_COMM_WORLD), key = MPI_TAG_UB, flag = -7;
  MPI_Aint val = -7;
  op_create_f *oc = (op_create_f *)a; /* (POSIX: dlsym's functions) */
  get_attr_f *ga = (get_attr_f *)b;
  oc((void *)user_fn, &commute, &op, &e1);
  if (!ok) /* (said once on stderr) */
    oc((void *)user_fn, &commute, &op, &e1);
  ga(&comm, &key, &val, &flag, &e2);
  if (!ok && (e1 == MPI_SUCCESS || e2 == MPI_SUCCESS || op != -7 ||
              flag != -7 || val != -7))
    bad = 1;
  if (ok && (e1 != MPI_SUCCESS || e2 != MPI_SUCCESS || !flag || val < 32767))
    bad = 1;
  if (ok && !bad) {
    MPI_Op cop = MPI_Op_f2c(op);
    if (cop == MPI_OP_NULL || MPI_Op_free(&cop) != MPI_SUCCESS) bad = 1;
  }
  /* MPI goes on */
  int sum = 0, one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("fnoreal: ierr %d %d sum %d\n", e1, e2, sum);
  MPI_Finalize();
  return bad;
}
