/* Test program: MPI_THREAD_MULTIPLE with two threads per rank, each
 * exchanging N messages with the next rank (tag = thread), so the recorder
 * must give every thread its own stream.  Usage: threads N */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, n;

static void *run(void *arg) {
  int t = (int)(long)arg;
  double x = rank, y;
  for (int i = 0; i < n; i++)
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % size, t, &y, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, t, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  return NULL;
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "threads: MPI_THREAD_MULTIPLE not provided\n");
    MPI_Abort(MPI_COMM_WORLD, 77);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  n = argc > 1 ? atoi(argv[1]) : 100;
  pthread_t th[2];
  for (long t = 0; t < 2; t++) pthread_create(&th[t], NULL, run, (void *)t);
  for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
