/* Test program: profile bytes of MPI_Start / MPI_Startall.  Rank 0
 * starts a persistent MPI_ANY_SOURCE receive of 400 bytes and rank 1
 * sends it 100; then every rank starts a 40-byte persistent send and
 * receive with every other rank in one MPI_Startall.  A start counts the
 * bytes of the sends it starts; a started receive counts the bytes that
 * arrived (its status's, not its buffer's) at the wait that completes
 * it, as a non-persistent receive does: MPI_Start 0 bytes, rank 0's
 * MPI_Wait 100 bytes (the receive has no known partner), MPI_Startall
 * 40 per partner, MPI_Waitall 40 per partner.  Any number of ranks >= 2. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int buf[100] = {0};
  if (rank == 0) {
    MPI_Request r;
    MPI_Recv_init(buf, 100, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
  } else if (rank == 1) {
    MPI_Send(buf, 25, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }
  int n = 2 * (size - 1), k = 0;
  MPI_Request *rq = malloc(sizeof *rq * (size_t)n);
  int *sb = calloc(10 * (size_t)size, sizeof(int));
  int *rb = calloc(10 * (size_t)size, sizeof(int));
  for (int p = 0; p < size; p++) {
    if (p == rank) continue;
    MPI_Send_init(sb + 10 * p, 10, MPI_INT, p, 1, MPI_COMM_WORLD, &rq[k++]);
    MPI_Recv_init(rb + 10 * p, 10, MPI_INT, p, 1, MPI_COMM_WORLD, &rq[k++]);
  }
  MPI_Startall(n, rq);
  MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
  for (int i = 0; i < n; i++) MPI_Request_free(&rq[i]);
  free(rq);
  free(sb);
  free(rb);
  MPI_Finalize();
  return 0;
}
