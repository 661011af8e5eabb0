/* MPI_Init, one call, MPI_Finalize: the program's own time (between the
 * end of MPI_Init and the start of MPI_Finalize) is a few microseconds,
 * whatever the recorder spent starting inside MPI_Init. */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Finalize();
  return r < 0;
}
