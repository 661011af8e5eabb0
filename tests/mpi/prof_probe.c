/* Profile mode: waiting and polling for messages are statements.  Rank 1
 * sends four messages, 150 ms apart; rank 0 waits for the first in
 * MPI_Probe, polls for the second with MPI_Iprobe, for the third with
 * MPI_Improbe (received with MPI_Mrecv), and for the fourth polls a
 * posted receive with MPI_Request_get_status.  Each rank prints "done"
 * with the values it received. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int r, v[4] = {0, 0, 0, 0}, flag = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 1) {
    for (int i = 0; i < 4; i++) {
      int x = 10 + i;
      usleep(150000);
      MPI_Send(&x, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
    }
    printf("done %d\n", r);
  } else if (r == 0) {
    MPI_Status st;
    MPI_Message m;
    MPI_Request q;
    MPI_Probe(1, 0, MPI_COMM_WORLD, &st);
    MPI_Recv(&v[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &st);
    while (!flag) MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, &st);
    MPI_Recv(&v[1], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &st);
    for (flag = 0; !flag;) MPI_Improbe(1, 2, MPI_COMM_WORLD, &flag, &m, &st);
    MPI_Mrecv(&v[2], 1, MPI_INT, &m, &st);
    MPI_Irecv(&v[3], 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &q);
    for (flag = 0; !flag;) MPI_Request_get_status(q, &flag, &st);
    MPI_Wait(&q, &st);
    printf("done %d %d %d %d %d\n", r, v[0], v[1], v[2], v[3]);
  } else {
    printf("done %d\n", r);
  }
  MPI_Finalize();
  return 0;
}
