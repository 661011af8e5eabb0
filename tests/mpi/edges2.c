/* Recorder edge cases (tests/cli/mpi_record.sh): MPI_IN_PLACE
 * collectives, split-collective MPI-IO, sends and receives with
 * MPI_PROC_NULL through requests, a wait on an inactive persistent
 * request, and a datatype of 2 GiB or more (used
 * on MPI_COMM_SELF, where no byte moves).  Prints what the trace must say:
 *   expect RANK OP SENT RECEIVED      per collective (bytes)
 *   io RANK MODE BYTES                per split-collective access
 * Usage: edges2 FILE [noproc] */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int buf[64], out[64];
  for (int i = 0; i < 64; i++) buf[i] = out[i] = me + i;
  int cnt[16], dsp[16];
  for (int i = 0; i < n; i++) cnt[i] = 2, dsp[i] = 2 * i;
  /* the ignored side's count and type are garbage on purpose */
  MPI_Allgather(MPI_IN_PLACE, -7, MPI_DATATYPE_NULL, buf, 2, MPI_INT,
                MPI_COMM_WORLD);
  printf("expect %d Allgather %d %d\n", me, 8, 8 * n);
  MPI_Allgatherv(MPI_IN_PLACE, -7, MPI_DATATYPE_NULL, buf, cnt, dsp, MPI_INT,
                 MPI_COMM_WORLD);
  printf("expect %d Allgatherv %d %d\n", me, 8, 8 * n);
  MPI_Alltoall(MPI_IN_PLACE, -7, MPI_DATATYPE_NULL, buf, 2, MPI_INT,
               MPI_COMM_WORLD);
  printf("expect %d Alltoall %d %d\n", me, 8 * n, 8 * n);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, cnt, dsp,
                MPI_INT, MPI_COMM_WORLD);
  printf("expect %d Alltoallv %d %d\n", me, 8 * n, 8 * n);
  if (me == 0)
    MPI_Gather(MPI_IN_PLACE, -7, MPI_DATATYPE_NULL, buf, 2, MPI_INT, 0,
               MPI_COMM_WORLD);
  else
    MPI_Gather(out, 2, MPI_INT, NULL, -7, MPI_DATATYPE_NULL, 0,
               MPI_COMM_WORLD);
  printf("expect %d Gather %d %d\n", me, 8, me == 0 ? 8 * n : 0);
  if (me == 0)
    MPI_Scatter(buf, 2, MPI_INT, MPI_IN_PLACE, -7, MPI_DATATYPE_NULL, 0,
                MPI_COMM_WORLD);
  else
    MPI_Scatter(NULL, -7, MPI_DATATYPE_NULL, out, 2, MPI_INT, 0,
                MPI_COMM_WORLD);
  printf("expect %d Scatter %d %d\n", me, me == 0 ? 8 * n : 0, 8);
  MPI_Allreduce(MPI_IN_PLACE, buf, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("expect %d Allreduce %d %d\n", me, 12, 12);

  /* MPI_PROC_NULL through requests: nothing to send, receive or complete */
  MPI_Request rq[2];
  MPI_Isend(out, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  MPI_Send_init(out, 4, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &rq[0]);
  for (int k = 0; k < 3; k++) {
    MPI_Start(&rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&rq[0]);
  /* a matched probe of MPI_PROC_NULL, its message received with Imrecv
   * (nothing received: no events, as for MPI_PROC_NULL); with any second
   * argument only (DUMPI has no record of these MPI-3 calls: its reader
   * warns about the Wait's unknown request) */
  if (argc > 2) {
    MPI_Message msg;
    MPI_Status pst;
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &pst);
    MPI_Imrecv(buf, 1, MPI_INT, &msg, &rq[0]);
    MPI_Wait(&rq[0], &pst);
  }
  /* an inactive persistent request (made, never started): waiting on it
   * is legal and completes nothing */
  MPI_Recv_init(buf, 1, MPI_INT, (me + 1) % n, 77, MPI_COMM_WORLD, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Request_free(&rq[0]);

  /* a datatype of 2 GiB + 8 bytes: its definition and a broadcast on
   * MPI_COMM_SELF (a single process: nothing is read) */
  MPI_Datatype big;
  MPI_Type_contiguous(268435457, MPI_DOUBLE, &big);
  MPI_Type_commit(&big);
  MPI_Bcast(buf, 1, big, 0, MPI_COMM_SELF);
  MPI_Type_free(&big);
  printf("expect %d Bcast %lld %d\n", me, 268435457LL * 8, 0);

  /* split collectives: each rank writes then reads its 64 bytes */
  if (argc > 1) {
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    MPI_File_write_at_all_begin(fh, (MPI_Offset)me * 64, out, 16, MPI_INT);
    MPI_File_write_at_all_end(fh, out, MPI_STATUS_IGNORE);
    printf("io %d write 64\n", me);
    MPI_File_read_at_all_begin(fh, (MPI_Offset)me * 64, buf, 16, MPI_INT);
    MPI_Status st;
    MPI_File_read_at_all_end(fh, buf, &st);
    printf("io %d read 64\n", me);
    MPI_File_seek(fh, (MPI_Offset)me * 64, MPI_SEEK_SET);
    MPI_File_write_all_begin(fh, out, 8, MPI_INT);
    MPI_File_write_all_end(fh, out, MPI_STATUS_IGNORE);
    printf("io %d write 32\n", me);
    MPI_File_close(&fh);
  }
  MPI_Finalize();
  return 0;
}
