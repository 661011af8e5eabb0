/* The recorder's pass-through Fortran entry points (the PT_MPI_FP rows of
 * src/mpi/mpi_ftable.h) when OpenMPI's own Fortran library is not
 * loaded: a C program (linked with libmpi only) finds mpi_op_create_ and
 * mpi_comm_get_attr_ in the preloaded recorder and calls them as
 * Fortran would.  They must fail cleanly (an MPI error code in ierr,
 * the output arguments untouched), and the program goes on.  Prints
 * "fnoreal: ierr <op_create> <comm_get_attr>" on rank 0; exit 1 when an
 * entry point is missing or a call returned success. */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

typedef void op_create_f(void *fn, MPI_Fint *commute, MPI_Fint *op,
                         MPI_Fint *ierr);
typedef void get_attr_f(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val,
                        MPI_Fint *flag, MPI_Fint *ierr);

static void user_fn(void *in, void *inout, MPI_Fint *len, MPI_Fint *type) {
  (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, bad = 0;
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
  oc((void *)user_fn, &commute, &op, &e1); /* (said once on stderr) */
  ga(&comm, &key, &val, &flag, &e2);
  if (e1 == MPI_SUCCESS || e2 == MPI_SUCCESS || op != -7 || flag != -7 ||
      val != -7)
    bad = 1;
  /* MPI goes on */
  int sum = 0, one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("fnoreal: ierr %d %d sum %d\n", e1, e2, sum);
  MPI_Finalize();
  return bad;
}
