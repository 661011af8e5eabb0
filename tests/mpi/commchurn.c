/* Creates and frees communicators in a loop (a dup and a split per
 * iteration, one message on each): communicators with the same members
 * must share one group definition (each dup brought its own, P members
 * long, on each of its P members: tests/cli/limits.sh). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
  for (int i = 0; i < 300; i++) {
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int x = i, y = -1;
    MPI_Sendrecv(&x, 1, MPI_INT, peer, 5, &y, 1, MPI_INT, peer, 5, dup,
                 MPI_STATUS_IGNORE);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, half);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
  }
  printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
