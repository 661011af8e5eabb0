/* Creates and frees derived datatypes in a loop (two ranks exchange one
 * element of each per iteration): the recorder must not define a new
 * datatype per creation (tests/cli/limits.sh). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double buf[16] = {0};
  int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
  for (int i = 0; i < 500; i++) {
    MPI_Datatype pair, strided;
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    MPI_Sendrecv(buf, 1, pair, peer, 0, buf + 4, 1, pair, peer, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(buf, 1, strided, peer, 1, buf + 8, 1, strided, peer, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&pair);
    MPI_Type_free(&strided);
  }
  printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
