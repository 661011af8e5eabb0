/* Test program: the recorder's cost per MPI_Testall of many pending
 * requests under MPI_THREAD_MULTIPLE (where each call claims its
 * requests under a lock).  Rank 0 posts N receives, calls MPI_Testall on
 * them K times while they are pending and prints "ms-per-call X"; then
 * rank 1 sends and everything completes.  Usage: testall N K (2 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int prov, rank;
  int n = argc > 1 ? atoi(argv[1]) : 8192, k = argc > 2 ? atoi(argv[2]) : 20;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int *b = calloc((size_t)n, sizeof *b);
  MPI_Request *r = malloc(sizeof *r * (size_t)n);
  if (rank == 0) {
    for (int i = 0; i < n; i++)
      MPI_Irecv(&b[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &r[i]);
    int flag = 0;
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++)
      MPI_Testall(n, r, &flag, MPI_STATUSES_IGNORE);
    double t1 = MPI_Wtime();
    printf("provided %d ms-per-call %.3f\n", prov, (t1 - t0) * 1e3 / k);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
      MPI_Send(&b[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  free(b);
  free(r);
  MPI_Finalize();
  return 0;
}
