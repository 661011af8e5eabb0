/* Test program: MPI_THREAD_MULTIPLE, one thread cancels a receive that
 * never matches while the main thread polls it with MPI_Test (with
 * slow_cancel.c preloaded, the poll completes it while MPI_Cancel is
 * still in progress).  Prints "cancelled N": the trace must hold N
 * request_cancelled events per rank.  Usage: cancel_mt N */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static MPI_Request handle;
static int go; /* i + 1: cancel round i; -(i + 1): round i cancelled */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int n;

static int get(void) {
  pthread_mutex_lock(&mu);
  int v = go;
  pthread_mutex_unlock(&mu);
  return v;
}
static void put(int v) {
  pthread_mutex_lock(&mu);
  go = v;
  pthread_mutex_unlock(&mu);
}

static void *canceller(void *arg) {
  (void)arg;
  for (int i = 0; i < n; i++) {
    while (get() != i + 1) {
    }
    MPI_Request r = handle;
    MPI_Cancel(&r);
    put(-(i + 1));
  }
  return NULL;
}

int main(int argc, char **argv) {
  int prov, rank, y, cancelled = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  n = argc > 1 ? atoi(argv[1]) : 10;
  pthread_t t;
  pthread_create(&t, NULL, canceller, NULL);
  for (int i = 0; i < n; i++) {
    MPI_Request mine;
    MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &mine);
    handle = mine;
    put(i + 1);
    int flag = 0, c = 0;
    MPI_Status st;
    while (!flag) MPI_Test(&mine, &flag, &st);
    while (get() != -(i + 1)) {
    }
    MPI_Test_cancelled(&st, &c);
    cancelled += c;
  }
  pthread_join(t, NULL);
  printf("rank %d cancelled %d provided %d\n", rank, cancelled, prov);
  MPI_Finalize();
  return 0;
}
