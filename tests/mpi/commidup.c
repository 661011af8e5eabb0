/* Communicators made by MPI_Comm_idup, completed by MPI_Wait, MPI_Waitall
 * and an MPI_Test loop, next to MPI_Comm_dup's: the recorder defines each
 * with the communicator it duplicates as parent (tests/cli/mpi_comm_parent.sh).
 * Each rank's half of COMM_WORLD (by rank parity) is duplicated once with
 * MPI_Comm_dup and three times with MPI_Comm_idup; COMM_WORLD once with
 * MPI_Comm_idup.  Every new communicator is used by an MPI_Allreduce. */
#include <mpi.h>
#include <stdio.h>

static int sum(MPI_Comm c) {
  int one = 1, n = 0;
  MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, c);
  return n;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half, dup, i1, i2, i3, iw;
  MPI_Request rq[2];
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(half, &dup);
  MPI_Comm_idup(half, &i1, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Comm_idup(half, &i2, &rq[0]);
  MPI_Comm_idup(half, &i3, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  MPI_Comm_idup(MPI_COMM_WORLD, &iw, &rq[0]);
  int flag = 0;
  while (!flag) MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
  int n = sum(half) + sum(dup) + sum(i1) + sum(i2) + sum(i3) + sum(iw);
  int want = 5 * ((size + 1 - rank % 2) / 2) + size;
  printf("%s %d\n", n == want ? "done" : "wrong", rank);
  MPI_Comm_free(&iw);
  MPI_Comm_free(&i3);
  MPI_Comm_free(&i2);
  MPI_Comm_free(&i1);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
