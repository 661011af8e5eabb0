/* Test program: MPI_THREAD_MULTIPLE with three threads per rank, each
 * doing Irecv + Send + Wait N times with the neighbouring ranks on a
 * communicator of its own, so that a request handle one thread's
 * MPI_Wait frees is soon handed to another thread's MPI_Irecv; then a
 * receive posted by the main thread and completed by another thread.
 * Every receive must complete the request its own MPI_Irecv created.
 * Usage: threads_req N */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { NT = 3 };
static int rank, size, n;
static MPI_Comm comms[NT];
static MPI_Request handed;

static void *run(void *arg) {
  int t = (int)(long)arg, cnt = 8 * (t + 1);
  int sb[64] = {0}, rb[64];
  for (int i = 0; i < n; i++) {
    MPI_Request q;
    MPI_Irecv(rb, cnt, MPI_INT, (rank + size - 1) % size, t, comms[t], &q);
    MPI_Send(sb, cnt, MPI_INT, (rank + 1) % size, t, comms[t]);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  return NULL;
}

/* completes the request the main thread created */
static void *finish(void *arg) {
  int x = rank;
  (void)arg;
  MPI_Send(&x, 1, MPI_INT, (rank + 1) % size, 99, comms[0]);
  MPI_Wait(&handed, MPI_STATUS_IGNORE);
  return NULL;
}

int main(int argc, char **argv) {
  int provided, y;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "threads_req: MPI_THREAD_MULTIPLE not provided\n");
    MPI_Abort(MPI_COMM_WORLD, 77);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  n = argc > 1 ? atoi(argv[1]) : 200;
  for (int t = 0; t < NT; t++) MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
  pthread_t th[NT];
  for (long t = 0; t < NT; t++) pthread_create(&th[t], NULL, run, (void *)t);
  for (int t = 0; t < NT; t++) pthread_join(th[t], NULL);
  MPI_Irecv(&y, 1, MPI_INT, (rank + size - 1) % size, 99, comms[0], &handed);
  pthread_create(&th[0], NULL, finish, NULL);
  pthread_join(th[0], NULL);
  for (int t = 0; t < NT; t++) MPI_Comm_free(&comms[t]);
  MPI_Finalize();
  return 0;
}
