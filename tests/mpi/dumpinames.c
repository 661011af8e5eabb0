/* Calls whose arguments the MPI standard and SST DUMPI name differently
 * (MPI_Type_get_true_extent's true_lb/true_extent are DUMPI's lb/extent,
 * MPI_Type_create_struct's array_of_types its oldtypes, ...), each with
 * a known result, so that tests/cli/dumpi_argnames.sh can check that a
 * recorded trace's DUMPI form carries the values, not zeros; and the
 * datatype arrays a call reads (MPI_Alltoallw's, 2 ranks). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, flag = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Initialized(&flag); /* result=1 */
  MPI_Aint lb, extent;
  MPI_Type_get_true_extent(MPI_DOUBLE, &lb, &extent); /* lb 0, extent 8 */
  MPI_Datatype vec, st, dup;
  MPI_Type_vector(3, 1, 4, MPI_INT, &vec);
  MPI_Type_get_true_extent(vec, &lb, &extent); /* extent 36 */
  int bl[2] = {1, 2};
  MPI_Aint disp[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(2, bl, disp, types, &st); /* oldtypes 14 9 */
  MPI_Type_dup(MPI_INT, &dup);                     /* oldtype 9 */
  char buf[64];
  int pos = 0, ints[3] = {1, 2, 3};
  MPI_Pack(ints, 3, MPI_INT, buf, 60, &pos, MPI_COMM_WORLD); /* outcount 60 */
  pos = 0;
  MPI_Unpack(buf, 52, &pos, ints, 3, MPI_INT, MPI_COMM_WORLD); /* incount 52 */
  int inter = 1;
  MPI_Comm_test_inter(MPI_COMM_WORLD, &inter); /* inter 0 */
  MPI_Comm_set_name(MPI_COMM_WORLD, "argnames_world");
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
  MPI_Info info, info2;
  MPI_Info_create(&info);
  MPI_Info_set(info, "argkey", "argvalue");
  MPI_Info_dup(info, &info2);
  int vlen = 0;
  MPI_Info_get_valuelen(info2, "argkey", &vlen, &flag);
  char val[32];
  MPI_Info_get(info2, "argkey", 31, val, &flag); /* valuelength 31 */
  /* rank i sends MPI_INT to even i + j, MPI_DOUBLE to odd: the pair's
   * types match (sendtypes [9, 14] on rank 0, [14, 9] on rank 1) */
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 2) {
    double sb[2] = {1, 2}, rb[2];
    int sc[2] = {1, 1}, sd[2] = {0, 8};
    MPI_Datatype ty[2];
    for (int j = 0; j < 2; j++) ty[j] = (rank + j) % 2 ? MPI_DOUBLE : MPI_INT;
    MPI_Alltoallw(sb, sc, sd, ty, rb, sc, sd, ty, MPI_COMM_WORLD);
  }
  MPI_Info_free(&info2);
  MPI_Info_free(&info);
  MPI_Type_free(&dup);
  MPI_Type_free(&st);
  MPI_Type_free(&vec);
  printf("done %d\n", rank);
  MPI_Finalize();
  return 0;
}
