/* Test program: ITERS allreduce + ring exchanges; rank VICTIM (if given)
 * kills itself with SIGKILL after half of them (a crash the recorder
 * cannot see), or with HOW = abort calls MPI_Abort there.
 * Usage: spin ITERS [VICTIM [kill|abort]] */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int victim = argc > 2 ? atoi(argv[2]) : -1;
  double x = rank, y;
  for (int i = 0; i < n; i++) {
    if (i == n / 2 && rank == victim) {
      if (argc > 3 && strcmp(argv[3], "abort") == 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
      kill(getpid(), SIGKILL);
    }
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % size, 0, &y, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
