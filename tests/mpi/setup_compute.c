/* Test program: time of the program's own outside its communication, as
 * an application that reads its input after MPI_Init and writes results
 * before MPI_Finalize: BEFORE ms of computation, ITERS MPI_Allreduce, AFTER
 * ms of computation.  Prints "done".
 * Usage: setup_compute [BEFORE_MS [ITERS [AFTER_MS]]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* busy for ms milliseconds (not sleeping: the time is the program's) */
static double spin(double ms) {
  double t0 = now(), x = 0;
  while ((now() - t0) * 1e3 < ms) x += 1e-9;
  return x;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double before = argc > 1 ? atof(argv[1]) : 300;
  int iters = argc > 2 ? atoi(argv[2]) : 10;
  double after = argc > 3 ? atof(argv[3]) : 200;
  double x = spin(before), y = 0;
  for (int i = 0; i < iters; i++)
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  x += spin(after);
  MPI_Finalize();
  if (x >= 0 && y >= 0) printf("done\n");
  return 0;
}
