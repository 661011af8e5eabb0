/* The MPI side of `mpirun -np K paratrace stats`: only in paratrace-mpi
 * (built with mpicc).  Sets cli_parallel before main runs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

static int par_init(int *rank, int *size) {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited && MPI_Init(NULL, NULL) != MPI_SUCCESS) return -1;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  return 0;
}

/* Send one buffer of any length to rank 0 in pieces of at most 1 GiB. */
enum { CHUNK = 1 << 30, TAG = 7301 };

static int par_reduce(pt_stats **s, int mine, int rank, int size,
                      int *failed, char *err, size_t errn) {
  void *buf = NULL;
  size_t len = 0;
  *failed = 0;
  int ok_flag = mine;
  if (mine == 1 && (!*s || pt_stats_serialize(*s, &buf, &len) != PT_OK))
    ok_flag = 0;
  unsigned long long mylen = ok_flag == 1 ? len : 0;
  unsigned long long *lens = NULL;
  int *oks = NULL;
  if (rank == 0) {
    lens = calloc((size_t)size, sizeof *lens);
    oks = calloc((size_t)size, sizeof *oks);
  }
  MPI_Gather(&mylen, 1, MPI_UNSIGNED_LONG_LONG, lens, 1,
             MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Gather(&ok_flag, 1, MPI_INT, oks, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int rc = 0;
  if (rank != 0) {
    for (size_t off = 0; ok_flag == 1 && off < len; off += CHUNK) {
      size_t n = len - off < CHUNK ? len - off : CHUNK;
      MPI_Send((char *)buf + off, (int)n, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
    }
  } else {
    for (int r = 1; r < size; r++) {
      if (!oks || oks[r] != 1) {
        if (!oks || oks[r] == 0) *failed = 1;
        continue;
      }
      char *in = malloc(lens[r] ? lens[r] : 1);
      for (size_t off = 0; off < lens[r]; off += CHUNK) {
        size_t n = lens[r] - off < CHUNK ? lens[r] - off : CHUNK;
        MPI_Recv(in ? in + off : NULL, in ? (int)n : 0, MPI_BYTE, r, TAG,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      pt_stats *part = NULL;
      int e = in ? pt_stats_deserialize(&part, in, lens[r]) : PT_ENOMEM;
      if (e == PT_OK && *s) e = pt_stats_merge(*s, part);
      pt_stats_destroy(part);
      free(in);
      if (e != PT_OK && !rc) {
        snprintf(err, errn, "merging the statistics of rank %d: %s", r,
                 pt_strerror(e));
        rc = -1;
      }
    }
    if (!oks || oks[0] == 0) *failed = 1;
  }
  free(lens);
  free(oks);
  pt_stats_buffer_free(buf);
  return rc;
}

static void par_finish(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin) MPI_Finalize();
}

static const cli_par impl = {par_init, par_reduce, par_finish};

__attribute__((constructor)) static void install(void) { cli_parallel = &impl; }
