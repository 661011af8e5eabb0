/* Test program: a fatal MPI error (MPI_ERRORS_ARE_FATAL, the default) on
 * one rank: every rank's trace must be closed, the failing call entered.
 * Before it: MPI_Comm_get_errhandler still says MPI_ERRORS_ARE_FATAL,
 * and a communicator the program set to MPI_ERRORS_RETURN returns the
 * error.  Usage: fatal RANK [code] (the rank that sends to an invalid
 * rank; with `code`, that raises an error code MPI does not know, whose
 * error string fails in the handler) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int rank, size, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int who = argc > 1 ? atoi(argv[1]) : 1;
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  if (eh != MPI_ERRORS_ARE_FATAL) printf("rank %d: errhandler not fatal\n", rank);
  MPI_Errhandler_free(&eh);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_get_errhandler(c, &eh);
  if (eh != MPI_ERRORS_ARE_FATAL) printf("rank %d: dup errhandler not fatal\n", rank);
  MPI_Errhandler_free(&eh);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  if (MPI_Send(&x, 1, MPI_INT, size + 5, 0, c) != MPI_SUCCESS)
    printf("rank %d: error returned\n", rank);
  MPI_Comm_free(&c);
  for (int i = 0; i < 5; i++)
    MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % size, 0,
                         (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
  fflush(stdout);
  if (rank == who && argc > 2 && !strcmp(argv[2], "code"))
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, 123456);
  else if (rank == who)
    MPI_Send(&x, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
