/* The one-sided pattern of ARMCI-MPI (what NWChem's Global Arrays run
 * on): MPI_Win_allocate, MPI_Win_lock_all, MPI_Accumulate with
 * MPI_REPLACE as a put, MPI_Get_accumulate with MPI_NO_OP as a get,
 * MPI_Fetch_and_op (MPI_SUM, MPI_NO_OP) as a counter, flushes, then a
 * reduction with a user op.  Prints "done RANK" when the values came
 * back right.  For tests/cli/mpi_rma.sh. */
#include <mpi.h>
#include <stdio.h>

static void bor(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)t;
  for (int i = 0; i < *len; i++) ((int *)inout)[i] |= ((int *)in)[i];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long *base;
  MPI_Win win;
  MPI_Win_allocate(16 * sizeof(long), sizeof(long), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 16; i++) base[i] = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  int right = (rank + 1) % size;
  long put[4] = {rank, rank + 1, rank + 2, rank + 3};
  /* a put as ARMCI-MPI does it: 4 longs at displacement rank*4 */
  MPI_Accumulate(put, 4, MPI_LONG, right, rank * 4, 4, MPI_LONG, MPI_REPLACE,
                 win);
  MPI_Win_flush(right, win);
  MPI_Barrier(MPI_COMM_WORLD);
  long got[4] = {0}, dummy[4] = {0};
  int left = (rank + size - 1) % size;
  /* a get: MPI_NO_OP; the left neighbour's put landed on this rank, so
   * read this rank's own slot for it */
  MPI_Get_accumulate(dummy, 4, MPI_LONG, got, 4, MPI_LONG, rank, left * 4, 4,
                     MPI_LONG, MPI_NO_OP, win);
  MPI_Win_flush_local_all(win);
  for (int i = 0; i < 4; i++) bad += got[i] != left + i;
  MPI_Barrier(MPI_COMM_WORLD);
  long one = 1, old = -1;
  MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 15, MPI_SUM, win);
  MPI_Win_flush(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Fetch_and_op(NULL, &old, MPI_LONG, 0, 15, MPI_NO_OP, win);
  MPI_Win_flush_all(win);
  bad += old != size;
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Op op;
  MPI_Op_create(bor, 1, &op);
  int bit = 1 << rank, all = 0;
  MPI_Allreduce(&bit, &all, 1, MPI_INT, op, MPI_COMM_WORLD);
  bad += all != (1 << size) - 1;
  MPI_Op_free(&op);
  if (!bad) printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
