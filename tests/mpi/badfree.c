/* MPI_Comm_free and MPI_Type_free of a NULL handle (what OpenMPI's
 * MPI_Comm_f2c / MPI_Type_f2c give for an invalid Fortran handle), with
 * MPI_ERRORS_RETURN: the calls fail and the program goes on.  Between
 * them communicators are made and freed, so that the recorder's handle
 * tables have emptied slots (key 0 is their empty mark).  Then
 * MPI_Type_free of MPI_INT and MPI_Comm_free of MPI_COMM_WORLD, which
 * fail. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int bad = 0;
  MPI_Comm c[40], keep[2 * 30];
  for (int round = 0; round < 30; round++) {
    for (int i = 0; i < 40; i++) MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
    /* two kept to the end each round: the next round's are elsewhere */
    MPI_Comm_dup(MPI_COMM_WORLD, &keep[2 * round]);
    MPI_Comm_dup(MPI_COMM_WORLD, &keep[2 * round + 1]);
    for (int i = 0; i < 40; i += 2) MPI_Comm_free(&c[i]);
    MPI_Comm nc = (MPI_Comm)0;
    MPI_Datatype nt = (MPI_Datatype)0;
    bad += MPI_Comm_free(&nc) != MPI_SUCCESS;
    bad += MPI_Type_free(&nt) != MPI_SUCCESS;
    for (int i = 1; i < 40; i += 2) MPI_Barrier(c[i]);
    for (int i = 1; i < 40; i += 2) MPI_Comm_free(&c[i]);
  }
  for (int i = 0; i < 2 * 30; i++) MPI_Comm_free(&keep[i]);
  /* predefined handles cannot be freed: the calls fail, and the type
   * and communicator are the same ones after them */
  MPI_Datatype it = MPI_INT;
  MPI_Comm w = MPI_COMM_WORLD;
  int x = 1;
  bad += MPI_Type_free(&it) != MPI_SUCCESS;
  bad += MPI_Comm_free(&w) != MPI_SUCCESS;
  MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  printf("done %d\n", bad);
  return 0;
}
