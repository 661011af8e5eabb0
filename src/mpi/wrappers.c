/* PMPI interposition wrappers, one per row of mpi_table.h. Each wrapper
 * times the PMPI call and passes (function id, caller address, t0, t1) to
 * one hook. This first version only counts calls and time per function
 * (written at MPI_Finalize to $PARATRACE_MPI_COUNTS when set); event
 * recording through the recorder core (record.h) is not wired yet. */
#define _POSIX_C_SOURCE 200809L
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum {
#define PT_MPI_FN(name, ret, params, args, kinds) PT_MPI_ID_##name,
#include "mpi_table.h"
#undef PT_MPI_FN
    PT_MPI_NFUNCS
};

static const char *const pt_mpi_names[PT_MPI_NFUNCS] = {
#define PT_MPI_FN(name, ret, params, args, kinds) "MPI_" #name,
#include "mpi_table.h"
#undef PT_MPI_FN
};

static _Atomic uint64_t pt_mpi_calls[PT_MPI_NFUNCS];
static _Atomic uint64_t pt_mpi_ns[PT_MPI_NFUNCS];

static inline uint64_t pt_mpi_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The one hook point every wrapper reaches after its PMPI call. */
static void pt_mpi_hook(int id, void *caller, uint64_t t0, uint64_t t1)
{
    (void)caller;
    pt_mpi_calls[id] += 1;
    pt_mpi_ns[id] += t1 - t0;
}

/* Before PMPI_Finalize: write per-function counts (temp name, rename). */
static void pt_mpi_before_finalize(void)
{
    const char *out = getenv("PARATRACE_MPI_COUNTS");
    if (out == NULL || *out == '\0')
        return;
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096], tmp[4200];
    if (snprintf(path, sizeof path, "%s.%d", out, rank) >= (int)sizeof path)
        return;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL)
        return;
    for (int i = 0; i < PT_MPI_NFUNCS; i++)
        if (pt_mpi_calls[i] != 0)
            fprintf(f, "%s %llu %llu\n", pt_mpi_names[i],
                    (unsigned long long)pt_mpi_calls[i],
                    (unsigned long long)pt_mpi_ns[i]);
    if (fclose(f) == 0)
        rename(tmp, path);
    else
        remove(tmp);
}

#define PT_MPI_FN(name, ret, params, args, kinds)                           \
    ret MPI_##name params                                                   \
    {                                                                       \
        void *pt_caller_ = __builtin_return_address(0);                         \
        if (PT_MPI_ID_##name == PT_MPI_ID_Finalize)                         \
            pt_mpi_before_finalize();                                       \
        uint64_t pt_t0_ = pt_mpi_now();                                         \
        ret pt_r_ = PMPI_##name args;                                           \
        pt_mpi_hook(PT_MPI_ID_##name, pt_caller_, pt_t0_, pt_mpi_now());            \
        return pt_r_;                                                         \
    }
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "mpi_table.h"
#undef PT_MPI_FN
