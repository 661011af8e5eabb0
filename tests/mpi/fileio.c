/* Non-blocking MPI-IO as IMB-IO does it: every rank opens one shared
 * file and, N times, starts MPI_File_iwrite_at / MPI_File_iwrite /
 * MPI_File_iwrite_shared and their read counterparts and completes the
 * requests with MPI_Wait, MPI_Waitall or MPI_Test loops; a blocking
 * MPI_File_write_at / read_at pair in between.  Usage: fileio FILE [N] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 64

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *path = argc > 1 ? argv[1] : "fileio.dat";
  int n = argc > 2 ? atoi(argv[2]) : 3;
  MPI_File fh;
  if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                    MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
    fprintf(stderr, "fileio: cannot open %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char wbuf[LEN], rbuf[3][LEN];
  for (int i = 0; i < LEN; i++) wbuf[i] = (char)('a' + (rank + i) % 26);
  MPI_Offset base = (MPI_Offset)rank * LEN;
  MPI_Offset stride = (MPI_Offset)size * LEN;
  for (int it = 0; it < n; it++) {
    MPI_Offset at = base + (MPI_Offset)it * 4 * stride;
    MPI_Request rq[3];
    MPI_Status st[3];
    /* three writes, one wait each */
    MPI_File_iwrite_at(fh, at, wbuf, LEN, MPI_CHAR, &rq[0]);
    MPI_Wait(&rq[0], &st[0]);
    MPI_File_seek(fh, at + stride, MPI_SEEK_SET);
    MPI_File_iwrite(fh, wbuf, LEN / 2, MPI_CHAR, &rq[1]);
    MPI_File_iwrite_shared(fh, wbuf, LEN / 4, MPI_BYTE, &rq[2]);
    MPI_Waitall(2, &rq[1], &st[1]);
    MPI_File_write_at(fh, at + 2 * stride, wbuf, LEN, MPI_CHAR, &st[0]);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    /* three reads in flight together, completed by Test loops and Wait */
    MPI_File_iread_at(fh, at, rbuf[0], LEN, MPI_CHAR, &rq[0]);
    MPI_File_seek(fh, at + stride, MPI_SEEK_SET);
    MPI_File_iread(fh, rbuf[1], LEN / 2, MPI_CHAR, &rq[1]);
    MPI_File_iread_shared(fh, rbuf[2], LEN / 8, MPI_BYTE, &rq[2]);
    int done = 0;
    while (!done) MPI_Test(&rq[0], &done, &st[0]);
    int idx = -1;
    MPI_Waitany(2, &rq[1], &idx, &st[1]);
    MPI_Wait(&rq[idx == 0 ? 2 : 1], &st[2]);
    MPI_File_read_at(fh, at + 2 * stride, rbuf[0], LEN, MPI_CHAR, &st[0]);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_File_close(&fh);
  if (rank == 0) printf("fileio: %d ranks, %d iterations\n", size, n);
  MPI_Finalize();
  return 0;
}
