/* Test program: rooted collectives on an intercommunicator between the
 * lower and the upper half of COMM_WORLD (Bcast, Reduce, Gather, Gatherv
 * with the root in the lower group; Scatter, Scatterv, Ibcast with the
 * root in the upper group; then Reduce_scatter and Reduce_scatter_block,
 * which have no root: ROOT -1).  The root passes MPI_ROOT, the rest of its
 * group MPI_PROC_NULL (no part: nothing moves), the other group the
 * root's rank there.  Prints, per call in order, "expect RANK ROOT SENT
 * RECEIVED": the root as a COMM_WORLD rank (-1 where the rank takes no
 * part) and the bytes this rank sends and receives.  Needs 4 ranks or
 * more; an odd number gives groups of different sizes. */
#include <mpi.h>
#include <stdio.h>

static int rank;

static void expect(int root, long sent, long recvd) {
  printf("expect %d %d %ld %ld\n", rank, root, sent, recvd);
}

int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int half = size / 2, upper = rank >= half, lr;
  int na = half, nb = size - half; /* lower group A, upper group B */
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, upper, rank, &local);
  MPI_Comm_rank(local, &lr);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, upper ? 0 : half, 7, &inter);
  int buf[256] = {0}, out[256], cnt[64], dsp[64];
  /* root: world rank 0 (A's 0) */
  int ra = upper ? 0 : lr == 0 ? MPI_ROOT : MPI_PROC_NULL;
  int a_root = !upper && lr == 0, a_none = !upper && lr != 0;
  MPI_Bcast(buf, 25, MPI_INT, ra, inter);
  if (a_root) expect(0, 100, 0);
  else if (a_none) expect(-1, 0, 0);
  else expect(0, 0, 100);
  MPI_Reduce(buf, out, 25, MPI_INT, MPI_SUM, ra, inter);
  if (a_root) expect(0, 0, 100);
  else if (a_none) expect(-1, 0, 0);
  else expect(0, 100, 0);
  MPI_Gather(buf, 5, MPI_INT, out, 5, MPI_INT, ra, inter);
  if (a_root) expect(0, 0, 20L * nb);
  else if (a_none) expect(-1, 0, 0);
  else expect(0, 20, 0);
  long sum = 0;
  for (int i = 0; i < nb; i++) cnt[i] = i + 1, dsp[i] = 4 * i, sum += i + 1;
  MPI_Gatherv(buf, upper ? lr + 1 : 0, MPI_INT, out, cnt, dsp, MPI_INT, ra,
              inter);
  if (a_root) expect(0, 0, 4 * sum);
  else if (a_none) expect(-1, 0, 0);
  else expect(0, 4L * (lr + 1), 0);
  /* root: world rank `half` (B's 0) */
  int rb = !upper ? 0 : lr == 0 ? MPI_ROOT : MPI_PROC_NULL;
  int b_root = upper && lr == 0, b_none = upper && lr != 0;
  MPI_Scatter(buf, 5, MPI_INT, out, 5, MPI_INT, rb, inter);
  if (b_root) expect(half, 20L * na, 0);
  else if (b_none) expect(-1, 0, 0);
  else expect(half, 0, 20);
  sum = 0;
  for (int i = 0; i < na; i++) cnt[i] = i + 2, dsp[i] = 4 * i, sum += i + 2;
  MPI_Scatterv(buf, cnt, dsp, MPI_INT, out, upper ? 0 : lr + 2, MPI_INT, rb,
               inter);
  if (b_root) expect(half, 4 * sum, 0);
  else if (b_none) expect(-1, 0, 0);
  else expect(half, 0, 4L * (lr + 2));
  MPI_Request q;
  MPI_Ibcast(buf, 10, MPI_INT, rb, inter, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (b_root) expect(half, 40, 0);
  else if (b_none) expect(-1, 0, 0);
  else expect(half, 0, 40);
  /* no root: recvcounts (Reduce_scatter) and the send buffer's blocks
   * (Reduce_scatter_block) are per rank of the local group, whose size
   * differs from the remote one with an odd number of ranks */
  int ln = upper ? nb : na, total = 6;
  for (int i = 0; i < ln; i++) cnt[i] = total / ln + (i < total % ln);
  MPI_Reduce_scatter(buf, out, cnt, MPI_INT, MPI_SUM, inter);
  expect(-1, 4L * total, 4L * cnt[lr]);
  int rcb = upper ? na : nb; /* na * nb elements reduced either way */
  MPI_Reduce_scatter_block(buf, out, rcb, MPI_INT, MPI_SUM, inter);
  expect(-1, 4L * rcb * ln, 4L * rcb);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
