/* An MPI program that returns from main without MPI_Finalize: each rank's
 * recorder closes its part of the archive at exit, in no order; rank 0's
 * anchor may be written before the other ranks' parts. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  double x = r, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) printf("sum %g\n", y);
  return 0; /* no MPI_Finalize */
}
