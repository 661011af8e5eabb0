/* Many MPI call sites used in turn, as a large program (Quantum
 * ESPRESSO's pw.x with ScaLAPACK: about 150 per rank) uses them: 640
 * calls of MPI_Comm_rank, each from a call instruction of its own, run
 * ROUNDS times; then MPI_Comm_size and MPI_Barrier from two sites called
 * alternately.  Every call site is the same definition each time.
 * Usage: manysites [ROUNDS]; prints "done" per rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define R4(x) x x x x
#define R16(x) R4(R4(x))
#define R64(x) R4(R16(x))
#define CALL MPI_Comm_rank(MPI_COMM_WORLD, &r); sum += r;

static int __attribute__((noinline)) many(void) {
  int r = 0, sum = 0;
  R64(CALL) R64(CALL) R64(CALL) R64(CALL) R64(CALL)
  R64(CALL) R64(CALL) R64(CALL) R64(CALL) R64(CALL)
  return sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rounds = argc > 1 ? atoi(argv[1]) : 3, sum = 0, n;
  for (int k = 0; k < rounds; k++) sum += many();
  for (int k = 0; k < 100; k++) {
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  printf("done %d\n", sum >= 0);
  return 0;
}
