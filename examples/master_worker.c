/* Example MPI program: rank 0 hands out TASKS tasks of varying size to
 * the other ranks, which compute and send back a result; the master
 * receives from MPI_ANY_SOURCE and answers each result with a new task or
 * a stop message (tag 2).  Usage: master_worker [TASKS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double work(int size) {
  double s = 0;
  for (int i = 0; i < size * 1000; i++) s += 1.0 / (1.0 + i);
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int tasks = argc > 1 ? atoi(argv[1]) : 100;
  if (size < 2) {
    fprintf(stderr, "master_worker: needs at least 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0) {
    int next = 0, active = 0;
    double total = 0, r;
    for (int w = 1; w < size; w++) {
      int t = next < tasks ? 1 + next % 7 : 0;
      MPI_Send(&t, 1, MPI_INT, w, t ? 1 : 2, MPI_COMM_WORLD);
      if (t) next++, active++;
    }
    while (active > 0) {
      MPI_Status st;
      MPI_Recv(&r, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
      total += r;
      active--;
      int t = next < tasks ? 1 + next % 7 : 0;
      MPI_Send(&t, 1, MPI_INT, st.MPI_SOURCE, t ? 1 : 2, MPI_COMM_WORLD);
      if (t) next++, active++;
    }
    printf("master_worker: %d tasks, total %.6f\n", tasks, total);
  } else {
    for (;;) {
      int t;
      MPI_Status st;
      MPI_Recv(&t, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == 2) break;
      double r = work(t);
      MPI_Send(&r, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
