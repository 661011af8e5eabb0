/* A program whose MPI calls all go through one wrapper function (as an
 * application's message-passing layer), called from two places:
 * PARATRACE_CALLSITES=2 must tell the two callers apart. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int g_after; /* no tail calls: each caller keeps its frame */

static void __attribute__((noinline)) exchange(int *buf, int peer) {
  MPI_Sendrecv_replace(buf, 1, MPI_INT, peer, 7, peer, 7, /* WRAPPER */
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  g_after++;
}

static void __attribute__((noinline)) phase_a(int *buf, int peer) {
  exchange(buf, peer); /* PHASE_A */
  g_after++;
}

static void __attribute__((noinline)) phase_b(int *buf, int peer) {
  exchange(buf, peer); /* PHASE_B */
  g_after++;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, n = argc > 1 ? atoi(argv[1]) : 3;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = rank ^ 1, buf = rank;
  if (peer < size)
    for (int i = 0; i < n; i++) {
      phase_a(&buf, peer);
      if (i % 2 == 0) phase_b(&buf, peer);
    }
  MPI_Finalize();
  return 0;
}
