/* Communicators made from groups, as ScaLAPACK's BLACS makes them
 * (BI_TransUserComm, which Quantum ESPRESSO's pw.x runs through on a
 * 2 x 2 process grid): MPI_Comm_dup of COMM_WORLD, MPI_Comm_group of the
 * duplicate, MPI_Group_incl of some of its ranks, MPI_Comm_create, both
 * groups freed at once; then messages and a broadcast on the new
 * communicator and MPI_Comm_free.
 *   round 0: all ranks in reverse order
 *   round 1: the even ranks (the others get MPI_COMM_NULL), after the
 *            first round's groups were freed (their handles come back)
 *   round 2: MPI_Comm_create of MPI_GROUP_EMPTY (MPI_COMM_NULL everywhere)
 * Prints "done" per rank. */
#include <mpi.h>
#include <stdio.h>

static void round_of(MPI_Comm dup, int size, int round) {
  MPI_Group all, some;
  int ranks[64], n = 0;
  MPI_Comm_group(dup, &all);
  if (round == 0)
    for (int r = size - 1; r >= 0 && n < 64; r--) ranks[n++] = r;
  else
    for (int r = 0; r < size && n < 64; r += 2) ranks[n++] = r;
  MPI_Group_incl(all, n, ranks, &some);
  MPI_Comm c;
  MPI_Comm_create(dup, round == 2 ? MPI_GROUP_EMPTY : some, &c);
  MPI_Group_free(&some);
  MPI_Group_free(&all);
  if (c == MPI_COMM_NULL) return;
  int me, cn;
  MPI_Comm_rank(c, &me);
  MPI_Comm_size(c, &cn);
  int out = me * 10 + round, in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, (me + 1) % cn, 40 + round, &in, 1, MPI_INT,
               (me + cn - 1) % cn, 40 + round, c, MPI_STATUS_IGNORE);
  double x[3] = {0};
  if (me == 0) x[0] = x[1] = x[2] = 1.5;
  MPI_Bcast(x, 3, MPI_DOUBLE, 0, c);
  MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  for (int round = 0; round < 3; round++) round_of(dup, size, round);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  printf("done\n");
  return 0;
}
