/* An MPI program that returns from main without MPI_Finalize: each rank's
 * recorder closes its part of the archive at exit, in no order; rank 0's
 * anchor may be written before the other ranks' parts.  With an argument
 * S, the ranks other than 0 wait until rank 0 has closed the archive
 * named by PARATRACE_OUTPUT (its anchor says "state = closed"; at most S
 * seconds) before returning, so that their parts come after its anchor
 * however slow the machine (or the launcher
 * ends them with SIGTERM when rank 0 has gone without MPI_Finalize: the
 * same). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  double x = r, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) printf("sum %g\n", y);
  if (r != 0 && argc > 1) {
    const char *out = getenv("PARATRACE_OUTPUT");
    char anchor[4096];
    snprintf(anchor, sizeof anchor, "%s/anchor", out ? out : ".");
    struct timespec ts = {0, 10000000}; /* 10 ms */
    for (double waited = 0; waited < atof(argv[1]); waited += 0.01) {
      FILE *f = fopen(anchor, "r");
      int closed = 0;
      if (f) {
        char line[256];
        while (!closed && fgets(line, sizeof line, f))
          closed = strncmp(line, "state = closed", 14) == 0;
        fclose(f);
      }
      if (closed) break;
      nanosleep(&ts, NULL);
    }
  }
  return 0; /* no MPI_Finalize */
}
