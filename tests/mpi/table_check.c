/* Compile-time check of src/mpi/mpi_table.h against the installed mpi.h:
 * for every row, PMPI_<name> must convert to a pointer to a function with
 * exactly the row's return type and parameter list (-Werror turns any
 * mismatch into a build failure). Prints the row names, one a line, so the
 * CLI test can compare them with the library's exported symbols. */
/* OpenMPI 4.1 hides the removed MPI-1 functions it still exports. */
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0
#include <mpi.h>
#include <stdio.h>

#define PT_MPI_FN(name, ret, params, args, kinds)                   \
    static ret (*const check_##name) params = PMPI_##name;
#include "../../src/mpi/mpi_table.h"
#undef PT_MPI_FN

int main(void)
{
#define PT_MPI_FN(name, ret, params, args, kinds)                   \
    if (check_##name == NULL) return 1;                             \
    if (sizeof(kinds) < 1) return 1;                                \
    puts(#name);
#include "../../src/mpi/mpi_table.h"
#undef PT_MPI_FN
    return 0;
}
