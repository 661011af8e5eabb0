/* A master collecting results from MPI_ANY_SOURCE without a status (the
 * payload says who sent it), as SST DUMPI then records the receives:
 * source -1, status ignored.  Rank 0 receives ROUNDS x (size - 1) results:
 * blocking MPI_Recv(MPI_ANY_SOURCE, tag 3, MPI_STATUS_IGNORE) in the even
 * rounds, MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) + MPI_Wait(...,
 * MPI_STATUS_IGNORE) in the odd ones; worker w sends (w + 1) ints per
 * result, tag 3, after w x 2 ms in the first round (so that they arrive
 * in rank order at first), then as they come.  It prints the bytes it got
 * from each worker (from the payload) for the test to compare. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ROUNDS = 6 };

static void nap(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int buf[64];
  if (rank == 0) {
    long *got = calloc((size_t)size, sizeof *got);
    for (int r = 0; r < ROUNDS; r++)
      for (int i = 1; i < size; i++) {
        if (r % 2 == 0)
          MPI_Recv(buf, 64, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        else {
          MPI_Request q;
          MPI_Irecv(buf, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                    MPI_COMM_WORLD, &q);
          MPI_Wait(&q, MPI_STATUS_IGNORE);
        }
        if (buf[0] > 0 && buf[0] < size)
          got[buf[0]] += (long)(buf[0] + 1) * (long)sizeof(int);
      }
    for (int w = 1; w < size; w++) printf("from %d: %ld bytes\n", w, got[w]);
    free(got);
  } else {
    for (int r = 0; r < ROUNDS; r++) {
      if (r == 0) nap(2L * rank);
      for (int j = 0; j <= rank; j++) buf[j] = rank;
      MPI_Send(buf, rank + 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
