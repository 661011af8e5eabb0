/* Preloaded before libparatrace-mpi.so: counts the process's calls of
 * backtrace() (the recorder takes one to find a call site's application
 * address through OpenMPI's mpi_f08 module) and writes the count to
 * $COUNTBT_OUT.<pid> at exit (tests/cli/mpi_fortran.sh). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long calls;

int backtrace(void **buf, int size) {
  static int (*real)(void **, int);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "backtrace");
  __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  return real ? real(buf, size) : 0;
}

__attribute__((destructor)) static void countbt_done(void) {
  const char *p = getenv("COUNTBT_OUT");
  if (!p) return;
  char f[4096];
  snprintf(f, sizeof f, "%s.%d", p, (int)getpid());
  FILE *o = fopen(f, "w");
  if (!o) return;
  fprintf(o, "%ld\n", calls);
  fclose(o);
}
