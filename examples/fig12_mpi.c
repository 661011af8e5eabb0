/* An MPI program shaped like Figure 12 of Li & Zhang (seed 004), for the
 * profile mode's top-down drill-down:
 *
 *   main:  call p1; call p2
 *   p1:    call p3            p2: call p3 (with 4x the work)
 *   p3:    e1: exchange with the right neighbour (MPI_Sendrecv)
 *          loop1: 3 times
 *            e2: send to a destination that changes every pass
 *                (rank + 1 + pass mod size-1), receive likewise
 *            loop2: 2 times: call p4
 *   p4:    arithmetic (where the time goes)
 *
 * Build: mpicc -g -O1 -finstrument-functions fig12_mpi.c -lparatrace
 * Run:   PARATRACE_MODE=profile mpirun -np 4 ./fig12_mpi 100
 *        paratrace profile paratrace.ptf --focus p3 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "paratrace/profile.h"

#define NOINLINE __attribute__((noinline))

static int rank, size;
static volatile double sink;
static double buf_out[256], buf_in[256];

NOINLINE static void p4(int n) {
  double x = 0;
  for (int i = 0; i < n; i++) x += (double)i * 0.5;
  sink = x;
}

NOINLINE static void p3(int n) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  /* e1 */
  MPI_Sendrecv(buf_out, 64, MPI_DOUBLE, right, 1, buf_in, 64, MPI_DOUBLE,
               left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  PT_PROFILE_LOOP_BEGIN(); /* loop1 */
  for (int pass = 0; pass < 3; pass++) {
    if (size > 1) {
      /* e2: the destination changes with the pass */
      int step = 1 + pass % (size - 1);
      int dest = (rank + step) % size, src = (rank + size - step) % size;
      MPI_Sendrecv(buf_out, 128, MPI_DOUBLE, dest, 2, buf_in, 128,
                   MPI_DOUBLE, src, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    PT_PROFILE_LOOP_BEGIN(); /* loop2 */
    for (int k = 0; k < 2; k++) p4(n);
    PT_PROFILE_LOOP_END();
  }
  PT_PROFILE_LOOP_END();
}

NOINLINE static void p1(int n) { p3(n); }
NOINLINE static void p2(int n) { p3(4 * n); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 100;
  if (iters <= 0) iters = 100;
  for (long i = 0; i < iters; i++) {
    p1(2000);
    p2(2000);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("fig12: %ld iterations on %d ranks\n", iters, size);
  MPI_Finalize();
  return 0;
}
