/* Send-receives as Quantum ESPRESSO's pw.x makes them (its linear-algebra
 * rotations: MPI_Sendrecv_replace of a block to the next rank of a
 * communicator, received from the previous one, sometimes its own rank):
 *   ring:  MPI_Sendrecv_replace of 16 doubles, ITER times, to rank + 1
 *   self:  MPI_Sendrecv_replace to and from the rank itself
 *   edge:  MPI_Sendrecv of 8 ints to rank + 1, from rank - 1, with
 *          MPI_PROC_NULL past the ends (no wrap-around)
 *   short: MPI_Sendrecv of 12 chars into a 64-char buffer (what it
 *          received is the message, not the buffer)
 * Usage: rotate [ITER]; prints "done" per rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int iter = argc > 1 ? atoi(argv[1]) : 5;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double block[16];
  for (int i = 0; i < 16; i++) block[i] = rank + i;
  for (int k = 0; k < iter; k++) /* ring */
    MPI_Sendrecv_replace(block, 16, MPI_DOUBLE, next, 7, prev, 7,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* self */
  MPI_Sendrecv_replace(block, 16, MPI_DOUBLE, rank, 8, rank, 8,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* edge */
  int out[8] = {0}, in[8];
  MPI_Sendrecv(out, 8, MPI_INT, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 9,
               in, 8, MPI_INT, rank > 0 ? rank - 1 : MPI_PROC_NULL, 9,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* short */
  char so[12] = {0}, ri[64];
  MPI_Status st;
  MPI_Sendrecv(so, 12, MPI_CHAR, next, 10, ri, 64, MPI_CHAR, prev, 10,
               MPI_COMM_WORLD, &st);
  MPI_Finalize();
  printf("done\n");
  return 0;
}
