/* Test program: a fatal MPI error (MPI_ERRORS_ARE_FATAL, the default) on
 * one rank: every rank's trace must be closed, the failing call entered.
 * Before it: MPI_Comm_get_errhandler still says MPI_ERRORS_ARE_FATAL,
 * and a communicator the program set to MPI_ERRORS_RETURN returns the
 * error; MPI_Errhandler_get says MPI_ERRORS_ARE_FATAL too.  Usage:
 * fatal RANK [code|restore|set|win] (the rank that sends to an invalid
 * rank; with `code`, that raises an error code MPI does not know, whose
 * error string fails in the handler; with `restore`, the send follows a
 * library's save / MPI_ERRORS_RETURN / restore of COMM_WORLD's handler;
 * with `set`, the program sets MPI_ERRORS_ARE_FATAL itself; with `win`,
 * the error is an MPI_Put to an invalid rank on a window; with `file`,
 * the program makes file errors fatal (MPI_FILE_NULL's handler) and opens
 * a file that does not exist) */
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0 /* MPI_Errhandler_get */
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
  MPI_Errhandler_get(MPI_COMM_WORLD, &eh);
  if (eh != MPI_ERRORS_ARE_FATAL) printf("rank %d: Errhandler_get not fatal\n", rank);
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
  const char *mode = argc > 2 ? argv[2] : "";
  if (!strcmp(mode, "restore")) {
    MPI_Errhandler saved;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved);
    MPI_Errhandler_free(&saved);
  } else if (!strcmp(mode, "set")) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
  MPI_Win w = MPI_WIN_NULL;
  if (!strcmp(mode, "win")) {
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_get_errhandler(w, &eh);
    if (eh != MPI_ERRORS_ARE_FATAL) printf("rank %d: win errhandler not fatal\n", rank);
    MPI_Errhandler_free(&eh);
    MPI_Win_fence(0, w);
  }
  if (!strcmp(mode, "file")) {
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    if (eh != MPI_ERRORS_ARE_FATAL) printf("rank %d: file errhandler not fatal\n", rank);
    MPI_Errhandler_free(&eh);
  }
  fflush(stdout);
  if (rank == who && !strcmp(mode, "file")) {
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, "/nonexistent-dir/paratrace-test", MPI_MODE_RDONLY,
                  MPI_INFO_NULL, &fh);
  } else if (rank == who && !strcmp(mode, "code"))
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, 123456);
  else if (rank == who && w != MPI_WIN_NULL)
    MPI_Put(&x, 1, MPI_INT, size + 5, 0, 1, MPI_INT, w);
  else if (rank == who)
    MPI_Send(&x, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
  if (w != MPI_WIN_NULL) {
    MPI_Win_fence(0, w);
    MPI_Win_free(&w);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
