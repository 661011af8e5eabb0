/* An MPI program that returns from main without MPI_Finalize: each rank's
 * recorder closes its part of the archive at exit, in no order; rank 0's
 * anchor may be written before the other ranks' parts.  With an argument
 * S, the ranks other than 0 wait S seconds before returning, so that
 * their parts come after rank 0's anchor (or the launcher ends them with
 * SIGTERM when rank 0 has gone without MPI_Finalize: the same). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  double x = r, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) printf("sum %g\n", y);
  if (r != 0 && argc > 1) {
    double s = atof(argv[1]);
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
  }
  return 0; /* no MPI_Finalize */
}
