/* Test program for the recorder's cost per call (tests/cli/mpi_cost.sh):
 * `cost iprobe N` calls MPI_Iprobe N times (nothing ever arrives);
 * `cost self N` sends 8 bytes to itself and receives them N times
 * (MPI_Send + MPI_Recv, eager).  One process, no mpirun: run under
 * callgrind, the instructions per call are the same on every run. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const char *what = argc > 1 ? argv[1] : "iprobe";
  long n = argc > 2 ? atol(argv[2]) : 1000;
  char buf[8] = {0};
  int flag, rank;
  MPI_Status st;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (long i = 0; i < n; i++) {
    if (strcmp(what, "self") == 0) {
      MPI_Send(buf, 8, MPI_BYTE, rank, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, 8, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &st);
    } else {
      MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, &st);
    }
  }
  MPI_Finalize();
  return 0;
}
