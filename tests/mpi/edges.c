/* Test program: arguments the recorder must NOT read past what MPI itself
 * reads -- gather/scatter arrays and types that mean nothing off the root
 * (given as invalid pointers and MPI_DATATYPE_NULL), neighbourhood count
 * arrays as long as the neighbour count (not the communicator size), a
 * graph's edge array as long as the edge count.  The arrays end where a
 * guard page begins, so one element too many is a crash.  Needs 4 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* n ints ending exactly at a PROT_NONE page. */
static int *guarded(int n) {
  long pg = sysconf(_SC_PAGESIZE);
  char *m = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  mprotect(m + pg, (size_t)pg, PROT_NONE);
  return (int *)(m + pg) - n;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double s[64] = {0}, r[64];
  int *bad = guarded(0); /* the first int of the guard page */
  /* gather/scatter: the root's arrays only */
  int *cnt = guarded(size), *dsp = guarded(size);
  for (int i = 0; i < size; i++) cnt[i] = 1, dsp[i] = i;
  MPI_Gatherv(s, 1, MPI_DOUBLE, r, rank == 0 ? cnt : bad,
              rank == 0 ? dsp : bad, rank == 0 ? MPI_DOUBLE : MPI_DATATYPE_NULL,
              0, MPI_COMM_WORLD);
  /* a gather's receive type off the root: a handle that is no datatype */
  MPI_Gather(s, 1, MPI_DOUBLE, r, 1,
             rank == 0 ? MPI_DOUBLE : (MPI_Datatype)(void *)bad, 0,
             MPI_COMM_WORLD);
  MPI_Scatterv(s, rank == 0 ? cnt : bad, rank == 0 ? dsp : bad,
               rank == 0 ? MPI_DOUBLE : MPI_DATATYPE_NULL, r, 1, MPI_DOUBLE,
               0, MPI_COMM_WORLD);
  /* a ring: 2 neighbours, arrays of 2 */
  MPI_Comm ring;
  int dims[1] = {size}, per[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
  int *nc = guarded(2), *nd = guarded(2), *rc = guarded(2), *rd = guarded(2);
  nc[0] = nc[1] = rc[0] = rc[1] = 1;
  nd[0] = rd[0] = 0;
  nd[1] = rd[1] = 1;
  MPI_Neighbor_alltoallv(s, nc, nd, MPI_DOUBLE, r, rc, rd, MPI_DOUBLE, ring);
  MPI_Neighbor_allgatherv(s, 1, MPI_DOUBLE, r, rc, rd, MPI_DOUBLE, ring);
  MPI_Comm_free(&ring);
  /* a graph: node i talks to i + 1 (a chain): size - 1 edges... each
   * undirected edge listed at both ends */
  int *index = guarded(size), nedges = 0;
  for (int i = 0; i < size; i++) nedges += (i > 0) + (i < size - 1), index[i] = nedges;
  int *edges = guarded(nedges), e = 0;
  for (int i = 0; i < size; i++) {
    if (i > 0) edges[e++] = i - 1;
    if (i < size - 1) edges[e++] = i + 1;
  }
  MPI_Comm graph;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph);
  MPI_Comm_free(&graph);
  if (rank == 0) printf("edges: ok\n");
  MPI_Finalize();
  return 0;
}
