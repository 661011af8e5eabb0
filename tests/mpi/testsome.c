/* Test program: MPI_Testsome and MPI_Waitsome loops whose first calls
 * complete nothing (the sender waits for a go message sent after them),
 * and a Waitsome on requests that are all MPI_REQUEST_NULL (outcount
 * MPI_UNDEFINED).  Each rank receives N messages from the previous rank.
 * Usage: testsome N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 4;
  if (n > 64) n = 64;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int in[64], out[64], idx[64], outc, done, go = 1;
  MPI_Request rq[64];
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < n; i++)
      MPI_Irecv(&in[i], 1, MPI_INT, prev, i, MPI_COMM_WORLD, &rq[i]);
    /* nothing has been sent yet: outcount 0 */
    if (round == 0) MPI_Testsome(n, rq, &outc, idx, MPI_STATUSES_IGNORE);
    MPI_Send(&go, 1, MPI_INT, prev, 1000, MPI_COMM_WORLD);
    MPI_Recv(&go, 1, MPI_INT, next, 1000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++) {
      out[i] = rank * 100 + i;
      MPI_Send(&out[i], 1, MPI_INT, next, i, MPI_COMM_WORLD);
    }
    for (done = 0; done < n;) {
      if (round == 0)
        MPI_Testsome(n, rq, &outc, idx, MPI_STATUSES_IGNORE);
      else
        MPI_Waitsome(n, rq, &outc, idx, MPI_STATUSES_IGNORE);
      if (outc == MPI_UNDEFINED) break;
      done += outc;
    }
  }
  /* every request is MPI_REQUEST_NULL now: outcount MPI_UNDEFINED */
  MPI_Waitsome(n, rq, &outc, idx, MPI_STATUSES_IGNORE);
  if (outc != MPI_UNDEFINED) printf("rank %d: outcount %d\n", rank, outc);
  MPI_Finalize();
  return 0;
}
