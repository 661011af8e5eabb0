/* Example MPI program: a 1-D heat equation on a ring of ranks.  Each
 * iteration exchanges halo cells with both neighbours (Irecv, Isend,
 * Waitall), updates its cells (more work on higher ranks: a visible load
 * imbalance), and every 10 iterations checks convergence with an
 * Allreduce.  Usage: halo [ITERATIONS] [CELLS_PER_RANK] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = argc > 1 ? atoi(argv[1]) : 200;
  int n = argc > 2 ? atoi(argv[2]) : 20000;
  n += n / 4 * rank / (size > 1 ? size - 1 : 1); /* imbalance */
  double *u = calloc((size_t)n + 2, sizeof *u);
  double *v = calloc((size_t)n + 2, sizeof *v);
  if (!u || !v) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 1; i <= n; i++) u[i] = sin(rank + i * 0.001);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double change = 0;
  for (int it = 0; it < iters; it++) {
    MPI_Request rq[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    double local = 0;
    for (int i = 1; i <= n; i++) {
      v[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
      local += fabs(v[i] - u[i]);
    }
    double *t = u;
    u = v;
    v = t;
    if (it % 10 == 0)
      MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("halo: %d iterations, last change %.6g\n", iters, change);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
