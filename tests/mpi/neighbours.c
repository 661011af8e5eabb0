/* Test program: neighbourhood collectives, every variant (allgather(v),
 * alltoall(v,w), blocking and non-blocking) on a 1-D non-periodic
 * Cartesian communicator, whose end ranks have an MPI_PROC_NULL
 * neighbour that moves no data, and on a weighted distributed graph (a
 * chain), and on a distributed graph with more neighbours than a fixed list
 * would hold (a multigraph: 5000 edges from the previous rank and to the
 * next, every block real).  Prints, per call in order, "expect RANK SENT RECEIVED": the
 * bytes this rank really sends and receives.  Any number of ranks >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank;

static void expect(long sent, long recvd) {
  printf("expect %d %ld %ld\n", rank, sent, recvd);
}

int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[1] = {size}, per[1] = {0}, lo, hi;
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &cart);
  MPI_Cart_shift(cart, 0, 1, &lo, &hi);
  int real[2] = {lo != MPI_PROC_NULL, hi != MPI_PROC_NULL};
  int nb = real[0] + real[1];
  int sb[64] = {0}, rb[64];
  int sc[2] = {2, 3}, sd[2] = {0, 8}, rc[2] = {3, 2}, rd[2] = {0, 8};
  MPI_Aint sdw[2] = {0, 32}, rdw[2] = {0, 32};
  MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE}, rt[2] = {MPI_DOUBLE, MPI_INT};
  long sv = 4L * (sc[0] * real[0] + sc[1] * real[1]);
  long rv = 4L * (rc[0] * real[0] + rc[1] * real[1]);
  long sw = 4L * sc[0] * real[0] + 8L * sc[1] * real[1];
  long rw = 8L * rc[0] * real[0] + 4L * rc[1] * real[1];
  int gc[2] = {5, 5}, gd[2] = {0, 8};
  for (int nbc = 0; nbc < 2; nbc++) {
    MPI_Request q[5];
    if (!nbc) {
      MPI_Neighbor_allgather(sb, 5, MPI_INT, rb, 5, MPI_INT, cart);
      MPI_Neighbor_allgatherv(sb, 5, MPI_INT, rb, gc, gd, MPI_INT, cart);
      MPI_Neighbor_alltoall(sb, 5, MPI_INT, rb, 5, MPI_INT, cart);
      MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, cart);
      MPI_Neighbor_alltoallw(sb, sc, sdw, st, rb, rc, rdw, rt, cart);
    } else {
      MPI_Ineighbor_allgather(sb, 5, MPI_INT, rb, 5, MPI_INT, cart, &q[0]);
      MPI_Wait(&q[0], MPI_STATUS_IGNORE);
      MPI_Ineighbor_allgatherv(sb, 5, MPI_INT, rb, gc, gd, MPI_INT, cart,
                               &q[1]);
      MPI_Wait(&q[1], MPI_STATUS_IGNORE);
      MPI_Ineighbor_alltoall(sb, 5, MPI_INT, rb, 5, MPI_INT, cart, &q[2]);
      MPI_Wait(&q[2], MPI_STATUS_IGNORE);
      MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, cart,
                              &q[3]);
      MPI_Wait(&q[3], MPI_STATUS_IGNORE);
      MPI_Ineighbor_alltoallw(sb, sc, sdw, st, rb, rc, rdw, rt, cart, &q[4]);
      MPI_Wait(&q[4], MPI_STATUS_IGNORE);
    }
    expect(20L * nb, 20L * nb);
    expect(20L * nb, 20L * nb);
    expect(20L * nb, 20L * nb);
    expect(sv, rv);
    expect(sw, rw);
  }
  /* a weighted chain: i receives from i - 1 and sends to i + 1 */
  int src = rank - 1, dst = rank + 1, w = 1;
  int indeg = rank > 0, outdeg = rank < size - 1;
  MPI_Comm dg;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, &src, &w, outdeg,
                                 &dst, &w, MPI_INFO_NULL, 0, &dg);
  MPI_Neighbor_alltoall(sb, 3, MPI_INT, rb, 3, MPI_INT, dg);
  expect(12L * outdeg, 12L * indeg);
  MPI_Comm_free(&dg);
  /* a multigraph: 5000 edges from the previous rank and to the next */
  int m = 5000;
  int *ms = malloc(sizeof *ms * (size_t)m), *md = malloc(sizeof *md * (size_t)m);
  int *sbig = calloc((size_t)m, sizeof *sbig), *rbig = calloc((size_t)m, sizeof *rbig);
  int *ws = malloc(sizeof *ws * (size_t)m);
  for (int i = 0; i < m; i++) {
    ms[i] = (rank + size - 1) % size;
    md[i] = (rank + 1) % size;
    ws[i] = 1;
  }
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, m, ms, ws, m, md, ws,
                                 MPI_INFO_NULL, 0, &dg);
  MPI_Neighbor_alltoall(sbig, 1, MPI_INT, rbig, 1, MPI_INT, dg);
  expect(4L * m, 4L * m);
  MPI_Comm_free(&dg);
  free(ms);
  free(md);
  free(sbig);
  free(rbig);
  free(ws);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
