/* A stripped program whose MPI call is in a static function right after a
 * tiny exported one: addr2line names the call after the exported function
 * (the nearest symbol below); stats must not. */
#include <mpi.h>

int tiny_exported(int x);
int tiny_exported(int x) { return x + 1; }

static __attribute__((noinline)) void worker(int n) {
  volatile int pad = 0;
  for (int i = 0; i < n; i++) pad += i;
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worker(tiny_exported(3));
  MPI_Finalize();
  return 0;
}
