#!/bin/sh
# The one-sided pattern of ARMCI-MPI (NWChem's Global Arrays):
# tests/mpi/rma_ops.c recorded by libparatrace-mpi.so on 3 ranks.  The
# program's results are unchanged and every call is recorded with its
# arguments; MPI_NO_OP (MPI-3's, which has no SST DUMPI number) is
# recorded as the predefined op 15, not as a user op: before, it took the
# first user-op number (100) on each rank that used it, so NWChem's
# MPI_Get_accumulate calls showed a user-defined op and ScaLAPACK's own
# MPI_Op_create ops were numbered 101, 102... on those ranks only.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build rma_ops" mpicc $SANF -o rma "$SRC/tests/mpi/rma_ops.c"
rm -rf rma.ptf
if $RUN -np 3 "$PT" record -o rma.ptf -- ./rma >rma.out 2>rma.err &&
   [ "$(grep -c '^done' rma.out)" = 3 ]; then
  t_pass "rma_ops: the program's results unchanged when recorded"
else
  t_fail "rma_ops: the program's results unchanged when recorded" "$(tail -3 rma.err)"
  t_done
fi
ok "check" "$PT" check rma.ptf
"$PT" dump rma.ptf >rma.txt
# FUNC ATTR: the values of attribute ATTR on every enter of FUNC, sorted
vals() {
  awk -v f="$1" -v a="$2" '
    { sub(/^def@[0-9]+ /, "def ") }
    $1 == "def" && $2 == "region" && $0 ~ ("name=\"" f "\"") {
      sub(/.*id=/, "", $3); reg = $3 }
    $1 == "def" && $2 == "attribute" && $0 ~ ("name=\"" a "\"") {
      sub(/id=/, "", $3); at = $3 }
    $1 == "event" && $4 == "enter" && $5 == "region=" reg {
      n = split($0, kv, /[{} ]/)
      for (i = 1; i <= n; i++)
        if (index(kv[i], at "=i:") == 1) print substr(kv[i], length(at) + 4)
    }' rma.txt | sort | uniq -c | awk '{ printf "%s x%s ", $2, $1 }'
}
expect() {
  got=$(vals "$1" "$2")
  if [ "$got" = "$3" ]; then t_pass "$1 $2: $3"
  else t_fail "$1 $2: want '$3'" "got '$got'"; fi
}
expect MPI_Get_accumulate op "15 x3 "
expect MPI_Fetch_and_op op "15 x3 3 x3 "
expect MPI_Accumulate op "13 x3 "
expect MPI_Allreduce op "100 x3 "
# the op MPI_Op_create made and the one MPI_Op_free freed (not recorded
# before: PETSc's five MPI_Op_create calls showed as "MPI_Op op=0
# (MPI_OP_ERROR)" in dump --style dumpi and the DUMPI output)
expect MPI_Op_create op "100 x3 "
expect MPI_Op_free op "100 x3 "
expect MPI_Get_accumulate origin_count "4 x3 "
expect MPI_Get_accumulate result_count "4 x3 "
expect MPI_Accumulate targetcount "4 x3 "
expect MPI_Win_allocate disp_unit "8 x3 "
expect MPI_Win_allocate size "128 x3 "
# every call once per rank (the flushes and locks too)
for f in MPI_Win_allocate MPI_Win_lock_all MPI_Accumulate MPI_Win_flush_local_all \
         MPI_Get_accumulate MPI_Win_flush_all MPI_Win_unlock_all MPI_Win_free; do
  n=$(awk -v f="$f" '{ sub(/^def@[0-9]+ /, "def ") }
    $1 == "def" && $2 == "region" && $0 ~ ("name=\"" f "\"") { sub(/.*id=/, "", $3); r = $3 }
    $1 == "event" && $4 == "enter" && $5 == "region=" r { n++ } END { print n + 0 }' rma.txt)
  if [ "$n" = 3 ]; then t_pass "$f recorded on every rank"
  else t_fail "$f recorded on every rank" "$n"; fi
done
# the printed forms name it
if "$PT" dump --style dumpi rma.ptf 2>/dev/null | grep -q 'op=100 (user-defined-op)'; then
  t_pass "dump --style dumpi: the user op is 100"
else
  t_fail "dump --style dumpi: the user op is 100" ""
fi
t_done
