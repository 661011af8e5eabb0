/* Test program: messages on communicators made by MPI calls SST DUMPI has
 * no record for (tests/cli/dumpi_splittype.sh).  The DUMPI writer must
 * write each such call as the MPI_Comm_split that makes the same
 * communicator, so that the reader's replay gives its messages their
 * peers.  Every communicator below has ranks that differ from the
 * COMM_WORLD ranks.  Needs 4 ranks or more.
 *
 *   shm     MPI_Comm_split_type(WORLD, SHARED, key size - rank): all ranks
 *           (one node), in reverse order
 *   evens   MPI_Comm_split_type(WORLD, SHARED or MPI_UNDEFINED on odd
 *           ranks, key -rank): the even ranks in reverse order, odd ranks
 *           MPI_COMM_NULL
 *   half    MPI_Comm_split(WORLD, lower/upper half, key -rank), then
 *   hshm    MPI_Comm_split_type(half, SHARED, key 0): a sub-communicator's
 *   dupi    MPI_Comm_dup_with_info(shm)
 *   graph   MPI_Dist_graph_create_adjacent(shm) ring, no reorder
 *   dgraph  MPI_Dist_graph_create(WORLD, every rank its own edges, reorder)
 *   grp     MPI_Comm_create_group(WORLD, all ranks in reverse order)
 *   idup    MPI_Comm_idup(shm) completed by MPI_Wait
 *
 * On each: a ring Sendrecv (right neighbour in the communicator, tag per
 * communicator), a Bcast from rank 1 and a Reduce to the last rank.
 * With the argument "part": also MPI_Comm_create_group of the even ranks
 * only (called by them alone, which no MPI_Comm_split can stand for) and a
 * ring on it (tag 18); MPI_Comm_dup_with_info of an intercommunicator
 * between the two halves of `half` and a message between their leaders
 * on it (tag 19).  Ends with "done" on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void traffic(MPI_Comm c, int tag) {
  int r, n, buf[8] = {0}, in[8] = {0};
  if (c == MPI_COMM_NULL) return;
  MPI_Comm_rank(c, &r);
  MPI_Comm_size(c, &n);
  for (int i = 0; i < 8; i++) buf[i] = r * 100 + tag + i;
  int cnt = tag % 7 + 1;
  MPI_Sendrecv(buf, cnt, MPI_INT, (r + 1) % n, tag, in, cnt, MPI_INT,
               (r + n - 1) % n, tag, c, MPI_STATUS_IGNORE);
  if (n > 1) MPI_Bcast(buf, 2, MPI_INT, 1, c);
  MPI_Reduce(buf, in, 3, MPI_INT, MPI_SUM, n - 1, c);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm shm, evens, half, hshm, dupi, graph, dgraph, grp, idup;

  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, size - rank,
                      MPI_INFO_NULL, &shm);
  traffic(shm, 10);
  MPI_Comm_split_type(MPI_COMM_WORLD,
                      rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, -rank,
                      MPI_INFO_NULL, &evens);
  traffic(evens, 11);
  MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, -rank, &half);
  MPI_Comm_split_type(half, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &hshm);
  traffic(hshm, 12);
  MPI_Comm_dup_with_info(shm, MPI_INFO_NULL, &dupi);
  traffic(dupi, 13);

  int sr, sn;
  MPI_Comm_rank(shm, &sr);
  MPI_Comm_size(shm, &sn);
  int src = (sr + sn - 1) % sn, dst = (sr + 1) % sn, one = 1;
  MPI_Dist_graph_create_adjacent(shm, 1, &src, &one, 1, &dst, &one,
                                 MPI_INFO_NULL, 0, &graph);
  traffic(graph, 14);
  int deg = 1, tgt = (rank + 1) % size;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &deg, &tgt, &one,
                        MPI_INFO_NULL, 1, &dgraph);
  traffic(dgraph, 15);

  MPI_Group wg, rg;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int ranks[256];
  for (int i = 0; i < size && i < 256; i++) ranks[i] = size - 1 - i;
  MPI_Group_incl(wg, size, ranks, &rg);
  MPI_Comm_create_group(MPI_COMM_WORLD, rg, 5, &grp);
  traffic(grp, 16);
  MPI_Group_free(&rg);

  MPI_Request q;
  MPI_Comm_idup(shm, &idup, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  traffic(idup, 17);

  if (argc > 1 && !strcmp(argv[1], "part")) {
    MPI_Comm part = MPI_COMM_NULL;
    MPI_Group eg;
    int ne = 0;
    for (int i = size - 1; i >= 0; i--)
      if (i % 2 == 0) ranks[ne++] = i;
    MPI_Group_incl(wg, ne, ranks, &eg);
    if (rank % 2 == 0) MPI_Comm_create_group(MPI_COMM_WORLD, eg, 6, &part);
    traffic(part, 18);
    MPI_Group_free(&eg);
    if (part != MPI_COMM_NULL) MPI_Comm_free(&part);
    /* an intercommunicator between the halves, duplicated by a call DUMPI
     * has no record for: no split can make it */
    MPI_Comm inter, idupi;
    int hr, hb = 9;
    MPI_Comm_rank(half, &hr);
    /* (half's rank 0 is the highest COMM_WORLD rank of each half) */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
                         rank < size / 2 ? size - 1 : size / 2 - 1, 3, &inter);
    MPI_Comm_dup_with_info(inter, MPI_INFO_NULL, &idupi);
    if (hr == 0 && rank < size / 2)
      MPI_Send(&hb, 1, MPI_INT, 0, 19, idupi);
    else if (hr == 0)
      MPI_Recv(&hb, 1, MPI_INT, 0, 19, idupi, MPI_STATUS_IGNORE);
    MPI_Comm_free(&idupi);
    MPI_Comm_free(&inter);
  }
  MPI_Group_free(&wg);

  MPI_Comm_free(&idup);
  MPI_Comm_free(&grp);
  MPI_Comm_free(&dgraph);
  MPI_Comm_free(&graph);
  MPI_Comm_free(&dupi);
  MPI_Comm_free(&hshm);
  MPI_Comm_free(&half);
  if (evens != MPI_COMM_NULL) MPI_Comm_free(&evens);
  MPI_Comm_free(&shm);
  printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
