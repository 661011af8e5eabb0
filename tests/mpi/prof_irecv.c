/* Test program: profile bytes of non-blocking receives, as HPC
 * Challenge's MPIRandomAccess posts them: rank 0 posts an MPI_ANY_SOURCE
 * MPI_Irecv of 1024 longs (8 KiB) and polls it with MPI_Testany until it
 * completes, three times (rank 1 sends 10, 20 and 30 longs: 480 bytes),
 * then posts one more and cancels it (MPI_Cancel, MPI_Wait).  Rank 1
 * also posts an MPI_Irecv from rank 0 of 1000 ints and completes it in
 * an MPI_Waitall with an MPI_Isend of 8 ints to rank 0 (4000 and 32
 * bytes).
 * The profile must count 480 bytes received by rank 0's MPI_Testany
 * statement, 4000 by rank 1's MPI_Waitall, none by the MPI_Irecv
 * statements (they move nothing; before, they counted each posted
 * buffer: 4 x 8 KiB, the cancelled one included) and none by the
 * cancelled receive's MPI_Wait.  Exactly 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "prof_irecv: run on 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  long buf[1024] = {0};
  int small[1000] = {0}, eight[8] = {0};
  int bad = 0;
  if (rank == 0) {
    for (int round = 1; round <= 3; round++) {
      MPI_Request r;
      int idx = -1, flag = 0, n = 0;
      MPI_Status st;
      MPI_Irecv(buf, 1024, MPI_LONG, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &r);
      while (!flag) MPI_Testany(1, &r, &idx, &flag, &st);
      MPI_Get_count(&st, MPI_LONG, &n);
      bad += n != 10 * round;
    }
    MPI_Request r;
    MPI_Irecv(buf, 1024, MPI_LONG, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Send(small, 1000, MPI_INT, 1, 4, MPI_COMM_WORLD);
    MPI_Recv(eight, 8, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    for (int round = 1; round <= 3; round++)
      MPI_Send(buf, 10 * round, MPI_LONG, 0, 2, MPI_COMM_WORLD);
    MPI_Request rq[2];
    MPI_Irecv(small, 1000, MPI_INT, 0, 4, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(eight, 8, MPI_INT, 0, 5, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  }
  if (!bad) printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
