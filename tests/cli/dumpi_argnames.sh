#!/bin/sh
# Arguments the MPI standard and SST DUMPI name differently, recorded by
# libparatrace-mpi.so and printed in DUMPI's form (dump --style dumpi and
# convert to DUMPI, read back): tests/mpi/dumpinames.c.  The recorder
# names an argument as DUMPI does where DUMPI knows the function; for
# these it kept the standard's name, so the DUMPI form had zeros (found on
# NWChem: every MPI_Type_get_true_extent of ARMCI-MPI printed "int
# extent=0" for MPI_BYTE, whose true extent is 1).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build dumpinames" mpicc $SANF -o dn "$SRC/tests/mpi/dumpinames.c"
rm -rf an.ptf an.meta an-*.bin
if ! $RUN -np 2 "$PT" record -o an.ptf -- ./dn >an.out 2>an.err ||
   [ "$(grep -c '^done' an.out)" != 2 ]; then
  t_fail "dumpinames run" "$(tail -3 an.err)"
  t_done
fi
"$PT" dump --style dumpi --locations 0 an.ptf >an.txt 2>an.derr
ok "convert to DUMPI" "$PT" convert an.ptf -o an.meta
"$PT" dump --style dumpi --locations 0 an.meta >meta.txt 2>meta.err

# the argument lines of the first call of function $2 in file $1
args() {
  awk -v f="$2" -v n="${3:-1}" '
    $1 == f && $2 == "entering" { k++; if (k == n) on = 1; next }
    $1 == f && $2 == "returning" { if (on) exit }
    on { print }' "$1"
}
# want FUNC NTH "line" ...: every line among the call's arguments
want() {
  f=$1; n=$2; shift 2
  for file in an.txt meta.txt; do
    a=$(args $file $f $n)
    miss=
    for l in "$@"; do
      printf '%s\n' "$a" | grep -qxF "$l" || miss="$miss [$l]"
    done
    if [ -z "$miss" ]; then
      t_pass "$file: $f #$n: $*"
    else
      t_fail "$file: $f #$n: $*" "missing$miss; got: $(printf '%s' "$a" | tr '\n' ';')"
    fi
  done
}
want MPI_Initialized 1 "int result=1"
want MPI_Type_get_true_extent 1 "int lb=0" "int extent=8"
want MPI_Type_get_true_extent 2 "int lb=0" "int extent=36"
want MPI_Type_dup 1 "MPI_Datatype oldtype=9 (MPI_INT)"
want MPI_Pack 1 "int outcount=60"
want MPI_Unpack 1 "int incount=52"
want MPI_Comm_test_inter 1 "int inter=0"
want MPI_Comm_set_name 1 "string name=\"argnames_world\""
want MPI_Info_get 1 "int valuelength=31"
# datatype arrays the call reads (kind T): they were not recorded
want MPI_Type_create_struct 1 "MPI_Datatype oldtypes[2]=[14, 9]"
want MPI_Alltoallw 1 "MPI_Datatype sendtypes[2]=[9, 14]" "MPI_Datatype recvtypes[2]=[9, 14]" "int sendcounts[2]=[1, 1]"
t_done
