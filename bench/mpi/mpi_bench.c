/* Recorder overhead benchmark.  `mpi_bench pingpong N`: ranks 0 and 1 do N
 * round trips of 8 bytes (MPI_Send / MPI_Recv); `mpi_bench iprobe N`: each
 * rank calls MPI_Iprobe N times (nothing ever arrives).  Prints the time
 * per MPI call of the loop (ns) on rank 0; run it with and without the
 * recorder and compare. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *what = argc > 1 ? argv[1] : "pingpong";
  long n = argc > 2 ? atol(argv[2]) : 200000;
  char buf[8] = {0};
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  long calls = 0;
  if (strcmp(what, "pingpong") == 0) {
    for (long i = 0; i < n && rank < 2 && size > 1; i++) {
      if (rank == 0) {
        MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
    calls = 2 * n;
  } else {
    int flag;
    MPI_Status st;
    for (long i = 0; i < n; i++)
      MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, &st);
    calls = n;
  }
  double t = MPI_Wtime() - t0;
  if (rank == 0)
    printf("%s calls=%ld total_s=%.6f ns_per_call=%.1f\n", what, calls, t,
           t * 1e9 / (double)calls);
  MPI_Finalize();
  return 0;
}
