/* Two MPI_Comm_idup of one communicator whose requests complete in a
 * different order on different ranks (legal: only the idups themselves
 * must come in the same order): rank 0 waits for the first, then the
 * second; the others the other way round.  Each new communicator then
 * carries one message from rank 0 to rank 1, which the recorder must
 * file under the same communicator on both sides
 * (tests/cli/mpi_comm_parent.sh: paratrace check matches both). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 0, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm a, b;
  MPI_Request rq[2];
  MPI_Comm_idup(MPI_COMM_WORLD, &a, &rq[0]);
  MPI_Comm_idup(MPI_COMM_WORLD, &b, &rq[1]);
  if (rank == 0) {
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
  } else {
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  }
  if (rank == 0) {
    v = 1;
    MPI_Send(&v, 1, MPI_INT, 1, 7, a);
    v = 2;
    MPI_Send(&v, 1, MPI_INT, 1, 7, b);
  } else if (rank == 1) {
    MPI_Recv(&v, 1, MPI_INT, 0, 7, a, MPI_STATUS_IGNORE);
    ok = v == 1;
    MPI_Recv(&v, 1, MPI_INT, 0, 7, b, MPI_STATUS_IGNORE);
    ok = ok && v == 2;
  }
  printf("%s %d\n", ok ? "done" : "wrong", rank);
  MPI_Comm_free(&b);
  MPI_Comm_free(&a);
  MPI_Finalize();
  return 0;
}
