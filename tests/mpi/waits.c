/* Test program: collective wait states with a known culprit.  Rank 2 (the
 * last one, with 3 ranks) sleeps 100 ms before each of 3 MPI_Barrier
 * calls, so the others wait about 300 ms there in all (wait at NxN), and
 * rank 2 hardly at all; then rank 2, as root, sleeps 100 ms before an
 * MPI_Bcast (late broadcast: the others wait about 100 ms), and rank 0,
 * as root, enters an MPI_Reduce 100 ms before the others (early reduce:
 * rank 0 waits about 100 ms).  3 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void nap_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0) fprintf(stderr, "waits: run on 3 ranks\n");
    MPI_Finalize();
    return 1;
  }
  for (int i = 0; i < 3; i++) {
    if (rank == 2) nap_ms(100);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int v = rank, sum = 0;
  if (rank == 2) nap_ms(100);
  MPI_Bcast(&v, 1, MPI_INT, 2, MPI_COMM_WORLD);
  if (rank != 0) nap_ms(100);
  MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
