/* Two ranks free a communicator in a different order relative to the
 * creation of the next one with the same members (MPI_Comm_free is local;
 * a communicator from MPI_Comm_idup is first seen at its first use):
 * both must give every communicator the same id, or their messages on it
 * never match (tests/cli/limits.sh). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = rank ^ 1;
  double buf[4] = {0};
  for (int i = 0; i < 3; i++) {
    MPI_Comm x, z;
    MPI_Request rq;
    MPI_Comm_dup(MPI_COMM_WORLD, &x);
    MPI_Sendrecv_replace(buf, 4, MPI_DOUBLE, peer, 1, peer, 1, x,
                         MPI_STATUS_IGNORE);
    MPI_Comm_idup(MPI_COMM_WORLD, &z, &rq);
    if (rank == 0) {
      MPI_Comm_free(&x);
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
      MPI_Comm_size(z, &n);
    } else {
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
      MPI_Comm_size(z, &n);
      MPI_Comm_free(&x);
    }
    MPI_Sendrecv_replace(buf, 4, MPI_DOUBLE, peer, 2, peer, 2, z,
                         MPI_STATUS_IGNORE);
    MPI_Comm_free(&z);
  }
  printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
