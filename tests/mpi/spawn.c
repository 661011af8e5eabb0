/* A parent job that spawns one child process and sends it a message:
 * the child is outside the recorded job (not in COMM_WORLD), so the
 * parent's send has an unknown peer (-1) and the intercommunicator's group
 * lists only COMM_WORLD members. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent, kids;
  int rank, v = 0;
  MPI_Comm_get_parent(&parent);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (parent == MPI_COMM_NULL) {
    int err = 0;
    MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0,
                   MPI_COMM_WORLD, &kids, &err);
    v = 7;
    if (rank == 0) MPI_Send(&v, 1, MPI_INT, 0, 1, kids);
    MPI_Comm_disconnect(&kids);
  } else {
    MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
    printf("child got %d\n", v);
    MPI_Comm_disconnect(&parent);
  }
  MPI_Finalize();
  return 0;
}
