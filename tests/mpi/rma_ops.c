/* The one-sided pattern of ARMCI-MPI (what NWChem's Global Arrays run
 * on): MPI_Win_allocate, MPI_Win_lock_all, MPI_Accumulate with
 * MPI_REPLACE as a put, MPI_Get_accumulate with MPI_NO_OP as a get,
 * MPI_Fetch_and_op (MPI_SUM, MPI_NO_OP) as a counter, flushes, then a
 * reduction with a user op; then every other one-sided call on a window
 * whose ranks are not COMM_WORLD's (rma_reversed).  Prints "done RANK"
 * when the values came back right.  For tests/cli/mpi_rma.sh. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

static void bor(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)t;
  for (int i = 0; i < *len; i++) ((int *)inout)[i] |= ((int *)in)[i];
}

/* Every other one-sided call, each with its own byte count, on a window
 * over COMM_WORLD in reverse order (so a target's rank in the window is
 * not its COMM_WORLD rank), under MPI_Win_lock: the bytes and targets
 * tests/cli/mpi_rma.sh expects.  Returns the number of wrong values. */
static int rma_reversed(int rank, int size) {
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &rev);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int rright = size - 1 - right, rleft = size - 1 - left;
  /* this rank's window memory: ints [0..8), doubles [8..16), chars,
   * a long counter */
  struct mem {
    int i[8];
    double d[8];
    char c[8];
    long n;
  } m = {{0}, {0}, {0}, 0}, *base = &m;
  for (int i = 0; i < 8; i++) m.d[i] = rank * 10 + i, m.c[i] = (char)('a' + rank);
  MPI_Win w;
  MPI_Win_create(base, sizeof m, 1, MPI_INFO_NULL, rev, &w);
  MPI_Barrier(MPI_COMM_WORLD);
  int bad = 0;
  /* a put of 3 ints (12 bytes) to the right neighbour */
  int three[3] = {rank, rank, rank};
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rright, 0, w);
  MPI_Put(three, 3, MPI_INT, rright, 0, 3, MPI_INT, w);
  MPI_Win_unlock(rright, w);
  /* a get of 5 doubles (40 bytes) from the left one */
  double five[5];
  MPI_Win_lock(MPI_LOCK_SHARED, rleft, 0, w);
  MPI_Get(five, 5, MPI_DOUBLE, rleft, offsetof(struct mem, d), 5, MPI_DOUBLE,
          w);
  MPI_Win_unlock(rleft, w);
  for (int i = 0; i < 5; i++) bad += five[i] != left * 10 + i;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < 3; i++) bad += m.i[i] != left;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, w);
  /* request-based: Rput 2 doubles (16), Rget 6 chars (6), Raccumulate 7
   * ints (28), Rget_accumulate 1 long each way (8 + 8) */
  double two[2] = {-1, -2};
  char six[6];
  int seven[7] = {1, 1, 1, 1, 1, 1, 1};
  long add = 1, before = -1;
  MPI_Request rq[4];
  MPI_Rput(two, 2, MPI_DOUBLE, rright, offsetof(struct mem, d) + 48, 2,
           MPI_DOUBLE, w, &rq[0]);
  MPI_Rget(six, 6, MPI_CHAR, rleft, offsetof(struct mem, c), 6, MPI_CHAR, w,
           &rq[1]);
  MPI_Raccumulate(seven, 7, MPI_INT, rright, 0, 7, MPI_INT, MPI_SUM, w,
                  &rq[2]);
  MPI_Rget_accumulate(&add, 1, MPI_LONG, &before, 1, MPI_LONG, rright,
                      offsetof(struct mem, n), 1, MPI_LONG, MPI_SUM, w, &rq[3]);
  MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
  for (int i = 0; i < 6; i++) bad += six[i] != 'a' + left;
  bad += before != 0;
  MPI_Win_unlock_all(w);
  MPI_Barrier(MPI_COMM_WORLD);
  /* compare-and-swap of a long on the right neighbour (its counter is 1):
   * 16 bytes out (value and comparand), 8 back */
  long newv = 100 + rank, cmp = 1, old = -1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rright, 0, w);
  MPI_Compare_and_swap(&newv, &cmp, &old, MPI_LONG, rright,
                       offsetof(struct mem, n), w);
  MPI_Win_unlock(rright, w);
  bad += old != 1;
  MPI_Barrier(MPI_COMM_WORLD);
  bad += m.n != 100 + left || m.d[6] != -1 || m.d[7] != -2;
  for (int i = 0; i < 7; i++) bad += m.i[i] != (i < 3 ? left : 0) + 1;
  MPI_Win_free(&w);
  MPI_Comm_free(&rev);
  return bad;
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
  bad += rma_reversed(rank, size);
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
