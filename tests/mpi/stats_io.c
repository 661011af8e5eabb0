/* Known MPI-IO byte counts for `paratrace stats` (tests/cli/stats_io.sh).
 * Each rank writes, then reads back, its own block of one shared file
 * (block r starts at r * 4096) with every kind of access: explicit
 * offsets, individual file pointers, collective (_all), non-blocking
 * (completed by MPI_Wait and MPI_Test), non-blocking collective and split
 * collective.  Per rank:
 *
 *   writes (8 operations, 600 bytes):
 *     MPI_File_write_at            100 B    MPI_File_iwrite_at        64 B
 *     MPI_File_write_at_all        200 B    MPI_File_iwrite_at_all    64 B
 *     MPI_File_write                30 B    MPI_File_write_at_all_begin 48 B
 *     MPI_File_write_all            80 B    MPI_File_iwrite           14 B
 *   reads (7 operations):
 *     MPI_File_read_at             100 B    MPI_File_iread_at         80 B
 *     MPI_File_read_at_all         200 B    MPI_File_iread_all        64 B
 *     MPI_File_read                 30 B    MPI_File_read_all_begin  126 B
 *     MPI_File_read_at at block + 500 asking 200 B: the last rank's block
 *       ends at + 600, the end of the file, so it gets 100 B (a short
 *       read); the others read 200 B (their blocks' holes read as zeros)
 *
 * Then one MPI_File_write on the file opened read-only, which fails (no
 * I/O operation; the call is in the MPI view).  Usage: stats_io FILE */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 4096

static int fail(const char *what, int rc) {
  fprintf(stderr, "stats_io: %s returned %d\n", what, rc);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}
#define CHECK(call)                                  \
  do {                                               \
    int rc_ = (call);                                \
    if (rc_ != MPI_SUCCESS) fail(#call, rc_);        \
  } while (0)

static void writes(MPI_File fh, MPI_Offset b, const char *buf) {
  MPI_Status st;
  MPI_Request rq;
  /* what an MPI-IO status leaves undefined (OpenMPI does not set it) is
   * recorded as MPI_ANY_SOURCE / MPI_ANY_TAG, not as these */
  memset(&st, 0x5a, sizeof st);
  st.MPI_SOURCE = 4242;
  st.MPI_TAG = 4343;
  CHECK(MPI_File_write_at(fh, b, buf, 100, MPI_BYTE, &st));
  CHECK(MPI_File_write_at_all(fh, b + 100, buf, 50, MPI_INT, &st));
  CHECK(MPI_File_seek(fh, b + 300, MPI_SEEK_SET));
  CHECK(MPI_File_write(fh, buf, 30, MPI_BYTE, &st));
  CHECK(MPI_File_seek(fh, b + 330, MPI_SEEK_SET));
  CHECK(MPI_File_write_all(fh, buf, 10, MPI_DOUBLE, &st));
  CHECK(MPI_File_iwrite_at(fh, b + 410, buf, 64, MPI_BYTE, &rq));
  CHECK(MPI_Wait(&rq, &st));
  CHECK(MPI_File_iwrite_at_all(fh, b + 474, buf, 16, MPI_INT, &rq));
  CHECK(MPI_Wait(&rq, &st));
  CHECK(MPI_File_write_at_all_begin(fh, b + 538, buf, 48, MPI_BYTE));
  CHECK(MPI_File_write_at_all_end(fh, buf, &st));
  CHECK(MPI_File_seek(fh, b + 586, MPI_SEEK_SET));
  CHECK(MPI_File_iwrite(fh, buf, 14, MPI_BYTE, &rq));
  int done = 0;
  while (!done) CHECK(MPI_Test(&rq, &done, &st));
}

static void reads(MPI_File fh, MPI_Offset b, char *buf) {
  MPI_Status st;
  MPI_Request rq;
  CHECK(MPI_File_read_at(fh, b, buf, 100, MPI_BYTE, &st));
  CHECK(MPI_File_read_at_all(fh, b + 100, buf, 50, MPI_INT, &st));
  CHECK(MPI_File_seek(fh, b + 300, MPI_SEEK_SET));
  CHECK(MPI_File_read(fh, buf, 30, MPI_BYTE, &st));
  CHECK(MPI_File_iread_at(fh, b + 330, buf, 80, MPI_BYTE, &rq));
  CHECK(MPI_Wait(&rq, &st));
  CHECK(MPI_File_seek(fh, b + 410, MPI_SEEK_SET));
  CHECK(MPI_File_iread_all(fh, buf, 64, MPI_BYTE, &rq));
  CHECK(MPI_Wait(&rq, &st));
  CHECK(MPI_File_seek(fh, b + 474, MPI_SEEK_SET));
  CHECK(MPI_File_read_all_begin(fh, buf, 126, MPI_BYTE));
  CHECK(MPI_File_read_all_end(fh, buf, &st));
  CHECK(MPI_File_read_at(fh, b + 500, buf, 200, MPI_BYTE, &st));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *path = argc > 1 ? argv[1] : "stats_io.dat";
  static char buf[BLOCK];
  memset(buf, 'a' + rank % 26, sizeof buf);
  MPI_Offset b = (MPI_Offset)rank * BLOCK;
  MPI_File fh;
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                      MPI_INFO_NULL, &fh));
  writes(fh, b, buf);
  CHECK(MPI_File_sync(fh));
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  reads(fh, b, buf);
  CHECK(MPI_File_close(&fh));
  /* a write that fails: the file opened read-only */
  CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL,
                      &fh));
  MPI_Status st;
  if (MPI_File_write(fh, buf, 10, MPI_BYTE, &st) == MPI_SUCCESS)
    fail("MPI_File_write on a read-only file", MPI_SUCCESS);
  CHECK(MPI_File_close(&fh));
  if (rank == 0) printf("stats_io: done\n");
  MPI_Finalize();
  return 0;
}
