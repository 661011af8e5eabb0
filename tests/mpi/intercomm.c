/* Test program: messages on intercommunicators, for the DUMPI reader's
 * replay (tests/cli/dumpi_intercomm.sh).  Needs 4 ranks or more.
 *
 *   inter   MPI_Intercomm_create between the lower and the upper half of
 *           COMM_WORLD (peer communicator COMM_WORLD, tag 7);
 *           Send/Recv lower -> upper, Isend/Irecv(ANY_SOURCE) upper ->
 *           lower, Sendrecv between the groups' rank 0s, a Bcast from
 *           the lower group's rank 0 (MPI_ROOT / MPI_PROC_NULL), a Reduce
 *           to the upper group's rank 0, Barrier
 *   dup     MPI_Comm_dup of inter: one message
 *   split   MPI_Comm_split of inter by local rank parity (key: minus the
 *           local rank): each group's first member sends to the other's
 *   merged  MPI_Intercomm_merge (upper high): lower rank 0 sends to the
 *           last rank
 *   eo      MPI_Intercomm_create between the even and the odd COMM_WORLD
 *           ranks, peer communicator `merged` (tag 9), created twice
 *           with the same leaders (the second with tag 9 again: matched
 *           in order); messages on both
 *
 * Ends with "done" on every rank. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size, lr, rsize;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int half = size / 2, upper = rank >= half;
  int buf[64] = {0}, out[64] = {0};
  MPI_Comm local, inter, dup, split, merged, par, eo, eo2;
  MPI_Comm_split(MPI_COMM_WORLD, upper, rank, &local);
  MPI_Comm_rank(local, &lr);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, upper ? 0 : half, 7, &inter);
  MPI_Comm_remote_size(inter, &rsize);
  int na = half, nb = size - half;
  /* lower rank i sends to upper rank i % nb */
  if (!upper) {
    MPI_Send(buf, 4, MPI_INT, lr % nb, 11, inter);
  } else {
    for (int i = 0; i < na; i++)
      if (i % nb == lr) MPI_Recv(out, 4, MPI_INT, i, 11, inter, MPI_STATUS_IGNORE);
  }
  /* upper rank j sends to lower rank j % na, received from ANY_SOURCE */
  MPI_Request q[16];
  MPI_Status st[16];
  int nq = 0;
  if (upper) {
    MPI_Isend(buf, 3 + lr, MPI_INT, lr % na, 12, inter, &q[nq++]);
  } else {
    for (int j = 0; j < nb && nq < 16; j++)
      if (j % na == lr)
        MPI_Irecv(out + 8 * nq, 8, MPI_INT, MPI_ANY_SOURCE, 12, inter, &q[nq++]);
  }
  MPI_Waitall(nq, q, st);
  if (lr == 0)
    MPI_Sendrecv(buf, 2, MPI_INT, 0, 13, out, 2, MPI_INT, 0, 13, inter,
                 MPI_STATUS_IGNORE);
  int root = upper ? 0 : lr == 0 ? MPI_ROOT : MPI_PROC_NULL;
  MPI_Bcast(buf, 6, MPI_INT, root, inter);
  root = !upper ? 0 : lr == 0 ? MPI_ROOT : MPI_PROC_NULL;
  MPI_Reduce(buf, out, 5, MPI_INT, MPI_SUM, root, inter);
  MPI_Barrier(inter);

  MPI_Comm_dup(inter, &dup);
  if (!upper && lr == 0) MPI_Send(buf, 1, MPI_INT, nb - 1, 14, dup);
  if (upper && lr == nb - 1) MPI_Recv(out, 1, MPI_INT, 0, 14, dup, MPI_STATUS_IGNORE);

  MPI_Comm_split(inter, lr % 2, -lr, &split);
  int sr;
  MPI_Comm_rank(split, &sr);
  if (sr == 0 && !upper) MPI_Send(buf, 5, MPI_INT, 0, 15, split);
  if (sr == 0 && upper) MPI_Recv(out, 5, MPI_INT, 0, 15, split, MPI_STATUS_IGNORE);

  MPI_Intercomm_merge(inter, upper, &merged);
  int mr;
  MPI_Comm_rank(merged, &mr);
  if (mr == 0) MPI_Send(buf, 7, MPI_INT, size - 1, 16, merged);
  if (mr == size - 1) MPI_Recv(out, 7, MPI_INT, 0, 16, merged, MPI_STATUS_IGNORE);

  /* even / odd COMM_WORLD ranks; merged has COMM_WORLD's order (the lower
   * group passed high = 0), so the other side's leader is merged rank 1
   * or 0 */
  int odd = rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, odd, rank, &par);
  MPI_Intercomm_create(par, 0, merged, odd ? 0 : 1, 9, &eo);
  MPI_Intercomm_create(par, 0, merged, odd ? 0 : 1, 9, &eo2);
  int pr;
  MPI_Comm_rank(par, &pr);
  if (pr == 0 && !odd) {
    MPI_Send(buf, 9, MPI_INT, 0, 17, eo);
    MPI_Recv(out, 10, MPI_INT, 0, 18, eo2, MPI_STATUS_IGNORE);
  }
  if (pr == 0 && odd) {
    MPI_Recv(out, 9, MPI_INT, 0, 17, eo, MPI_STATUS_IGNORE);
    MPI_Send(buf, 10, MPI_INT, 0, 18, eo2);
  }
  MPI_Comm_free(&eo2);
  MPI_Comm_free(&eo);
  MPI_Comm_free(&par);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
