/* Duplicates and frees communicators in a loop (the ranks exchange a
 * message on each duplicate), two at a time and freed in opposite orders
 * on even and odd ranks: the recorder must not define a communicator per
 * duplicate, and every rank must give a duplicate the same id
 * (tests/cli/limits.sh). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
  double out[4] = {0}, in[4];
  for (int i = 0; i < 300; i++) {
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    MPI_Sendrecv(out, 4, MPI_DOUBLE, peer, i, in, 4, MPI_DOUBLE, peer, i, a,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(out, 2, MPI_DOUBLE, peer, i, in, 2, MPI_DOUBLE, peer, i, b,
                 MPI_STATUS_IGNORE);
    if (rank % 2) {
      MPI_Comm_free(&a);
      MPI_Comm_free(&b);
    } else {
      MPI_Comm_free(&b);
      MPI_Comm_free(&a);
    }
  }
  printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
