/* Test program: MPI_THREAD_MULTIPLE, a batch job's faults in a hybrid
 * program.  Every rank starts a thread whose first MPI call is a receive
 * that never completes (it has made no other MPI call), and a worker
 * thread that exchanges messages with the neighbours; then, on rank 1,
 * the worker dies (`segv`: a NULL store, `abort`: MPI_Abort) while the
 * other threads and ranks are blocked in MPI.  `none` ends normally.
 * Usage: thread_crash segv|abort|none */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int rank, size;
static const char *mode;
static MPI_Comm quiet;

static void *blocker(void *arg) {
  (void)arg;
  int v;
  MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 99, quiet, MPI_STATUS_IGNORE);
  return NULL;
}

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 20; i++) {
    int v = i, w;
    MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 5, &w, 1, MPI_INT,
                 (rank + size - 1) % size, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  printf("rank %d worker done\n", rank);
  fflush(stdout);
  if (rank == 1) {
    usleep(200000); /* the blocker is in its receive by now */
    if (!strcmp(mode, "segv")) *(volatile int *)(size_t)(size - size) = 1;
    if (!strcmp(mode, "abort")) MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int provided;
  mode = argc > 1 ? argv[1] : "none";
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "thread_crash: MPI_THREAD_MULTIPLE not provided\n");
    MPI_Abort(MPI_COMM_WORLD, 77);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_dup(MPI_COMM_WORLD, &quiet);
  pthread_t a, b;
  pthread_create(&a, NULL, blocker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(b, NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  int v = 0;
  MPI_Send(&v, 1, MPI_INT, rank, 99, quiet); /* releases the blocker */
  pthread_join(a, NULL);
  MPI_Comm_free(&quiet);
  MPI_Finalize();
  return 0;
}
