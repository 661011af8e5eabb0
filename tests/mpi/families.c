/* Test program for the MPI recorder: calls every family of MPI functions
 * (blocking, non-blocking and persistent point-to-point, probes and
 * matched probes, cancel, blocking and non-blocking collectives,
 * communicator creation with split / dup / cart / idup and neighbourhood
 * collectives, derived datatypes, MPI-IO, one-sided) and writes how many
 * times it called each function to <prefix>.<rank> ("MPI_Send 12"), so a
 * test can compare with what the trace recorded.  Needs >= 2 ranks.
 * Usage: families PREFIX [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct { const char *name; int n; } calls[128];
static int ncalls;

static void count(const char *name) {
  for (int i = 0; i < ncalls; i++)
    if (strcmp(calls[i].name, name) == 0) {
      calls[i].n++;
      return;
    }
  if (ncalls < 128) calls[ncalls].name = name, calls[ncalls++].n = 1;
}
#define C(f, ...) (count(#f), f(__VA_ARGS__))

int main(int argc, char **argv) {
  int rank, size, provided;
  C(MPI_Init_thread, &argc, &argv, MPI_THREAD_SINGLE, &provided);
  C(MPI_Comm_rank, MPI_COMM_WORLD, &rank);
  C(MPI_Comm_size, MPI_COMM_WORLD, &size);
  int iters = argc > 2 ? atoi(argv[2]) : 3;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double buf[64], rbuf[64 * 16];
  int ibuf[64];
  for (int i = 0; i < 64; i++) buf[i] = rank + i, ibuf[i] = i;
  MPI_Status st;
  MPI_Request rq[8];

  for (int it = 0; it < iters; it++) {
    /* blocking ring: even ranks send first */
    if (rank % 2 == 0) {
      C(MPI_Send, buf, 8, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
      C(MPI_Recv, rbuf, 8, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
    } else {
      C(MPI_Recv, rbuf, 8, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
        MPI_STATUS_IGNORE);
      C(MPI_Ssend, buf, 8, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    }
    C(MPI_Sendrecv, buf, 4, MPI_DOUBLE, right, 2, rbuf, 4, MPI_DOUBLE, left,
      2, MPI_COMM_WORLD, &st);
    C(MPI_Sendrecv_replace, ibuf, 3, MPI_INT, left, 3, right, 3,
      MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* non-blocking halo: Waitall with ignored statuses */
    C(MPI_Irecv, rbuf, 16, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &rq[0]);
    C(MPI_Irecv, rbuf + 16, 16, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &rq[1]);
    C(MPI_Isend, buf, 16, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &rq[2]);
    C(MPI_Isend, buf, 16, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &rq[3]);
    C(MPI_Waitall, 4, rq, MPI_STATUSES_IGNORE);
    /* any source: Waitany, then Waitsome / Testsome / Testall / Test */
    C(MPI_Irecv, rbuf, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD,
      &rq[0]);
    C(MPI_Issend, buf, 2, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &rq[1]);
    int idx, done = 0, outc, ind[4], flag;
    while (done < 2) {
      C(MPI_Waitany, 2, rq, &idx, &st);
      done++;
    }
    C(MPI_Irecv, rbuf, 3, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &rq[0]);
    C(MPI_Isend, buf, 3, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &rq[1]);
    for (done = 0; done < 2; done += outc)
      C(MPI_Waitsome, 2, rq, &outc, ind, MPI_STATUSES_IGNORE);
    C(MPI_Irecv, rbuf, 1, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &rq[0]);
    C(MPI_Isend, buf, 1, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &rq[1]);
    for (done = 0; done < 2; done += outc)
      C(MPI_Testsome, 2, rq, &outc, ind, MPI_STATUSES_IGNORE);
    C(MPI_Irecv, rbuf, 1, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &rq[0]);
    C(MPI_Isend, buf, 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &rq[1]);
    for (flag = 0; !flag;) C(MPI_Testall, 2, rq, &flag, MPI_STATUSES_IGNORE);
    C(MPI_Irecv, rbuf, 1, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &rq[0]);
    C(MPI_Send, buf, 1, MPI_DOUBLE, right, 10, MPI_COMM_WORLD);
    for (flag = 0; !flag;) C(MPI_Test, &rq[0], &flag, &st);
    C(MPI_Irecv, rbuf, 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &rq[0]);
    C(MPI_Send, buf, 1, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
    for (flag = 0; !flag;) C(MPI_Testany, 1, rq, &idx, &flag, &st);
  }

  /* persistent requests */
  C(MPI_Send_init, buf, 5, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &rq[0]);
  C(MPI_Recv_init, rbuf, 5, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &rq[1]);
  for (int it = 0; it < iters; it++) {
    C(MPI_Startall, 2, rq);
    C(MPI_Waitall, 2, rq, MPI_STATUSES_IGNORE);
  }
  C(MPI_Start, &rq[1]);
  C(MPI_Start, &rq[0]);
  C(MPI_Wait, &rq[0], MPI_STATUS_IGNORE);
  st.MPI_ERROR = 77; /* MPI_Wait leaves it as it is: not recorded */
  C(MPI_Wait, &rq[1], &st);
  C(MPI_Request_free, &rq[0]);
  C(MPI_Request_free, &rq[1]);

  /* probes */
  int flag = 0;
  C(MPI_Send, ibuf, 7, MPI_INT, right, 30, MPI_COMM_WORLD);
  C(MPI_Probe, left, 30, MPI_COMM_WORLD, &st);
  C(MPI_Recv, ibuf, 7, MPI_INT, st.MPI_SOURCE, 30, MPI_COMM_WORLD, &st);
  int got = 0; /* the status a call reads: recorded as given */
  C(MPI_Get_count, &st, MPI_INT, &got);
  C(MPI_Get_elements, &st, MPI_INT, &got);
  C(MPI_Send, ibuf, 6, MPI_INT, right, 31, MPI_COMM_WORLD);
  while (!flag) C(MPI_Iprobe, MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, &flag, &st);
  C(MPI_Recv, ibuf, 6, MPI_INT, MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, &st);
  MPI_Message msg;
  C(MPI_Send, ibuf, 5, MPI_INT, right, 32, MPI_COMM_WORLD);
  C(MPI_Mprobe, left, 32, MPI_COMM_WORLD, &msg, &st);
  C(MPI_Mrecv, ibuf, 5, MPI_INT, &msg, &st);
  C(MPI_Send, ibuf, 4, MPI_INT, right, 33, MPI_COMM_WORLD);
  for (flag = 0; !flag;)
    C(MPI_Improbe, left, 33, MPI_COMM_WORLD, &flag, &msg, &st);
  C(MPI_Imrecv, ibuf, 4, MPI_INT, &msg, &rq[0]);
  C(MPI_Wait, &rq[0], &st);

  /* cancel a receive that is never matched */
  C(MPI_Irecv, rbuf, 1, MPI_DOUBLE, left, 999, MPI_COMM_WORLD, &rq[0]);
  C(MPI_Cancel, &rq[0]);
  C(MPI_Wait, &rq[0], &st);
  int cancelled = 0;
  C(MPI_Test_cancelled, &st, &cancelled);
  MPI_Status cst = st; /* a status that says "cancelled" */
  /* the same without a status: only the MPI_Cancel tells a trace reader */
  C(MPI_Irecv, rbuf, 1, MPI_DOUBLE, left, 998, MPI_COMM_WORLD, &rq[0]);
  C(MPI_Cancel, &rq[0]);
  C(MPI_Wait, &rq[0], MPI_STATUS_IGNORE);

  /* collectives */
  int counts[64], displs[64], scounts[64];
  for (int i = 0; i < size; i++)
    counts[i] = i + 1, displs[i] = i * 16, scounts[i] = rank + 1;
  C(MPI_Barrier, MPI_COMM_WORLD);
  C(MPI_Bcast, buf, 10, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  C(MPI_Reduce, buf, rbuf, 10, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
  C(MPI_Allreduce, buf, rbuf, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  C(MPI_Gather, buf, 2, MPI_DOUBLE, rbuf, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  C(MPI_Gatherv, buf, rank + 1, MPI_DOUBLE, rbuf, counts, displs, MPI_DOUBLE,
    0, MPI_COMM_WORLD);
  C(MPI_Scatter, buf, 2, MPI_DOUBLE, rbuf, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  C(MPI_Allgather, buf, 3, MPI_DOUBLE, rbuf, 3, MPI_DOUBLE, MPI_COMM_WORLD);
  C(MPI_Alltoall, buf, 1, MPI_DOUBLE, rbuf, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  C(MPI_Alltoallv, buf, scounts, displs, MPI_DOUBLE, rbuf, counts, displs,
    MPI_DOUBLE, MPI_COMM_WORLD);
  C(MPI_Reduce_scatter_block, buf, rbuf, 2, MPI_DOUBLE, MPI_SUM,
    MPI_COMM_WORLD);
  C(MPI_Scan, buf, rbuf, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  C(MPI_Exscan, buf, rbuf, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  C(MPI_Ibcast, buf, 4, MPI_DOUBLE, 1, MPI_COMM_WORLD, &rq[0]);
  C(MPI_Iallreduce, buf, rbuf, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
    &rq[1]);
  C(MPI_Waitall, 2, rq, MPI_STATUSES_IGNORE);
  C(MPI_Ibarrier, MPI_COMM_WORLD, &rq[0]);
  for (flag = 0; !flag;) C(MPI_Test, &rq[0], &flag, MPI_STATUS_IGNORE);

  /* communicators: split (peers are translated to COMM_WORLD ranks) */
  MPI_Comm half, dup, cart, idup;
  int hr, hs;
  C(MPI_Comm_split, MPI_COMM_WORLD, rank % 2, -rank, &half);
  C(MPI_Comm_rank, half, &hr);
  C(MPI_Comm_size, half, &hs);
  C(MPI_Allreduce, buf, rbuf, 1, MPI_DOUBLE, MPI_SUM, half);
  if (hs > 1) {
    C(MPI_Sendrecv, buf, 2, MPI_DOUBLE, (hr + 1) % hs, 40, rbuf, 2,
      MPI_DOUBLE, (hr + hs - 1) % hs, 40, half, &st);
  }
  C(MPI_Comm_dup, half, &dup);
  C(MPI_Bcast, buf, 1, MPI_DOUBLE, 0, dup);
  C(MPI_Comm_free, &dup);
  int dims[1] = {size}, periods[1] = {1};
  C(MPI_Cart_create, MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  C(MPI_Neighbor_allgather, buf, 2, MPI_DOUBLE, rbuf, 2, MPI_DOUBLE, cart);
  /* constants SST DUMPI numbers its own way: a comparison, a topology */
  int cmp = -1, topo = -1;
  C(MPI_Comm_compare, MPI_COMM_WORLD, MPI_COMM_WORLD, &cmp);
  C(MPI_Topo_test, cart, &topo);
  C(MPI_Comm_idup, MPI_COMM_WORLD, &idup, &rq[0]);
  C(MPI_Wait, &rq[0], MPI_STATUS_IGNORE);
  C(MPI_Barrier, idup);
  C(MPI_Comm_free, &idup);
  C(MPI_Comm_free, &cart);
  /* an intercommunicator between the halves (leaders: world ranks 0 and
   * 1, the last of each half), merged back into one intracommunicator */
  MPI_Comm inter, merged;
  int mr = -1;
  C(MPI_Intercomm_create, half, hs - 1, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 60,
    &inter);
  C(MPI_Intercomm_merge, inter, rank % 2, &merged);
  C(MPI_Comm_rank, merged, &mr);
  C(MPI_Comm_free, &merged);
  C(MPI_Comm_free, &inter);
  C(MPI_Comm_free, &half);

  /* derived datatype */
  MPI_Datatype pair;
  C(MPI_Type_contiguous, 2, MPI_DOUBLE, &pair);
  C(MPI_Type_commit, &pair);
  C(MPI_Sendrecv, buf, 3, pair, right, 50, rbuf, 3, pair, left, 50,
    MPI_COMM_WORLD, &st);
  C(MPI_Type_free, &pair);
  int bl[3] = {2, 1, 3}, dis[3] = {0, 5, 10};
  MPI_Datatype ix;
  C(MPI_Type_indexed, 3, bl, dis, MPI_DOUBLE, &ix);
  int ni = 0, na = 0, nd = 0, comb = -1;
  C(MPI_Type_get_envelope, ix, &ni, &na, &nd, &comb);
  /* array lengths from the right argument: count, not blocklength; the
   * max_ argument of the same name; scalars whose names end in s */
  int dis2[2] = {0, 7};
  MPI_Aint hdis2[2] = {0, 56};
  MPI_Datatype ib, hb;
  C(MPI_Type_create_indexed_block, 2, 5000, dis2, MPI_INT, &ib);
  C(MPI_Type_create_hindexed_block, 2, 5000, hdis2, MPI_INT, &hb);
  int gi[8];
  MPI_Aint ga[8];
  MPI_Datatype gd[8];
  C(MPI_Type_get_contents, ix, ni, na, nd, gi, ga, gd);
  int ecls = -1;
  C(MPI_Error_class, MPI_ERR_OTHER, &ecls);
  C(MPI_Type_free, &ib);
  C(MPI_Type_free, &hb);
  C(MPI_Type_free, &ix);

  /* MPI-IO */
  if (argc > 3) {
    MPI_File fh;
    C(MPI_File_open, MPI_COMM_WORLD, argv[3],
      MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    C(MPI_File_write_at, fh, (MPI_Offset)rank * 64, buf, 8, MPI_DOUBLE, &st);
    /* collective: OTF2's COLLECTIVE flag on its I/O operation */
    C(MPI_File_write_at_all, fh, (MPI_Offset)rank * 16 + 1024, buf, 2,
      MPI_DOUBLE, &st);
    C(MPI_File_read_at, fh, (MPI_Offset)rank * 64, rbuf, 8, MPI_DOUBLE,
      MPI_STATUS_IGNORE);
    /* a non-blocking write completed into a status whose memory says
     * "cancelled": MPI-IO does not set that field, the request is not one */
    MPI_Request iorq;
    C(MPI_File_iwrite_at, fh, (MPI_Offset)rank * 64 + 256, buf, 4,
      MPI_DOUBLE, &iorq);
    C(MPI_Wait, &iorq, &cst);
    C(MPI_File_close, &fh);
  }

  /* one-sided */
  MPI_Win win;
  C(MPI_Win_create, rbuf, 64 * sizeof(double), sizeof(double), MPI_INFO_NULL,
    MPI_COMM_WORLD, &win);
  C(MPI_Win_fence, MPI_MODE_NOPRECEDE, win);
  C(MPI_Put, buf, 2, MPI_DOUBLE, right, 0, 2, MPI_DOUBLE, win);
  C(MPI_Win_fence, 0, win);
  C(MPI_Win_free, &win);

  /* the expected counts, before MPI_Finalize (which is counted too) */
  count("MPI_Finalize");
  char path[4096];
  snprintf(path, sizeof path, "%s.%d", argc > 1 ? argv[1] : "calls", rank);
  FILE *f = fopen(path, "w");
  if (f) {
    for (int i = 0; i < ncalls; i++)
      fprintf(f, "%s %d\n", calls[i].name, calls[i].n);
    fclose(f);
  }
  MPI_Finalize();
  return 0;
}
