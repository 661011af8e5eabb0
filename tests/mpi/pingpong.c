/* Test program: N ping-pong round trips between ranks 0 and 1 (others
 * idle), then a barrier. Argument: N. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, x = 0, n = argc > 1 ? atoi(argv[1]) : 10;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < n && rank < 2; i++) {
        if (rank == 0) {
            MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
