/* One call instruction, several MPI functions: MPI_Comm_rank and
 * MPI_Comm_size called alternately through one function pointer (as
 * IMB-IO calls its MPI_File_* functions), N times each.  Between the
 * calls, 300 distinct call sites of MPI_Comm_rank push the first site out
 * of any small per-address cache.  Usage: fnptr [N] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*comm_int_fn)(MPI_Comm, int *);

static volatile int g_calls;
static int __attribute__((noinline)) call_through(comm_int_fn f, int *v) {
  int r = f(MPI_COMM_WORLD, v); /* not a tail call: the site is here */
  g_calls++;
  return r;
}

#define R1(i) MPI_Comm_rank(MPI_COMM_WORLD, &v[(i) % 4]);
#define R10(i) R1(i##0) R1(i##1) R1(i##2) R1(i##3) R1(i##4) R1(i##5) \
  R1(i##6) R1(i##7) R1(i##8) R1(i##9)
#define R100(i) R10(i##0) R10(i##1) R10(i##2) R10(i##3) R10(i##4) \
  R10(i##5) R10(i##6) R10(i##7) R10(i##8) R10(i##9)

static void __attribute__((noinline)) many_sites(void) {
  int v[4];
  R100(1) R100(2) R100(3)
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = argc > 1 ? atoi(argv[1]) : 10, rank = 0, size = 0;
  comm_int_fn fns[2] = {MPI_Comm_rank, MPI_Comm_size};
  for (int i = 0; i < 2 * n; i++) {
    call_through(fns[i % 2], i % 2 ? &size : &rank);
    many_sites();
  }
  if (rank == 0) printf("fnptr: %d ranks, %d calls through one pointer\n",
                        size, 2 * n);
  MPI_Finalize();
  return 0;
}
