/* Test program: an argument name that is a scalar in one MPI function
 * and an integer array in another: MPI_Waitany's index, then
 * MPI_Graph_create's index (2 ranks or more; the graph has 2 nodes). */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank, size, idx, v = 1, w;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Request r;
  MPI_Isend(&v, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &r);
  MPI_Recv(&w, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitany(1, &r, &idx, MPI_STATUS_IGNORE);
  int index[2] = {1, 2}, edges[2] = {1, 0};
  MPI_Comm g;
  MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &g);
  if (g != MPI_COMM_NULL) MPI_Comm_free(&g);
  MPI_Finalize();
  return 0;
}
