#!/bin/sh
# Invalid handles given to MPI_Comm_free / MPI_Type_free (a NULL handle:
# what OpenMPI's f2c functions give for an invalid Fortran handle) fail
# with MPI_ERRORS_RETURN, and a traced program goes on as an untraced one.
# The recorder's handle tables mark empty slots with key 0: a NULL handle
# found an emptied slot and freed the comm_info left there (heap
# corruption: "malloc_consolidate(): invalid chunk size").  Freeing a
# predefined handle fails too, and leaves it as it was.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build badfree" mpicc $SANF -o bf "$SRC/tests/mpi/badfree.c"
if $RUN -np 2 "$PT" record -o bf.ptf -- ./bf >bf.out 2>bf.err &&
   [ "$(grep -c '^done 62$' bf.out)" = 2 ]; then
  t_pass "NULL handles to MPI_Comm_free / MPI_Type_free: run completes"
else
  t_fail "NULL handles to MPI_Comm_free / MPI_Type_free" "$(cat bf.out; head -c 400 bf.err)"
fi
if "$PT" check bf.ptf >bf.chk 2>&1; then
  t_pass "NULL handles: the archive checks"
else
  t_fail "NULL handles: the archive checks" "$(tail -3 bf.chk)"
fi
# a failed MPI_Type_free(MPI_INT) leaves MPI_INT as it was: DUMPI's 9,
# not a user datatype (it was forgotten and numbered again as one)
if "$PT" dump bf.ptf 2>/dev/null | grep -q 'name="mpi.datatype.[0-9]*" value="MPI_INT, ' &&
   ! "$PT" dump bf.ptf 2>/dev/null | grep -q 'name="mpi.datatype.1[0-9][0-9]*" value="MPI_INT, '; then
  t_pass "a failed free of MPI_INT keeps its id"
else
  t_fail "a failed free of MPI_INT keeps its id" \
    "$("$PT" dump bf.ptf 2>&1 | grep 'value="MPI_INT, ' | head -3)"
fi
t_done
