/* Test shim, preloaded before libparatrace-mpi.so: PMPI_Cancel sleeps
 * 20 ms after the real one, so that another thread's MPI_Test completes
 * the cancelled request while the recorder's MPI_Cancel wrapper has not
 * returned yet (a race that otherwise needs luck to show). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <time.h>

int PMPI_Cancel(MPI_Request *request) {
  static int (*real)(MPI_Request *);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "PMPI_Cancel");
  int rc = real(request);
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  return rc;
}
