#!/bin/sh
# libparatrace-mpi.so interposes on an unmodified binary (LD_PRELOAD) and on
# one linked with -lparatrace-mpi: per-function call counts written at
# MPI_Finalize ($PARATRACE_MPI_COUNTS.<rank>) match what the program did.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
SO=$B/lib/libparatrace-mpi.so
if ! command -v mpicc >/dev/null 2>&1 || [ ! -f "$SO" ]; then
  t_fail "setup: mpicc or $SO missing"; t_done
fi
RUN="mpirun --allow-run-as-root --oversubscribe"
ok "build plain" mpicc -o pp "$SRC/tests/mpi/pingpong.c"
ok "build linked" mpicc -o ppl "$SRC/tests/mpi/pingpong.c" \
  -L"$B/lib" -lparatrace-mpi -Wl,-rpath,"$B/lib" -Wl,--no-as-needed
expect() { # file function count
  got=$(awk -v f="$2" '$1 == f { print $2 }' "$1")
  if [ "$got" = "$3" ]; then t_pass "$1 $2 = $3"
  else t_fail "$1 $2: expected $3 calls, got '${got:-none}'"; fi
}
ok "preload run" $RUN -np 3 -x LD_PRELOAD="$SO" -x PARATRACE_MPI_COUNTS="$PWD/pre" -x PARATRACE_OUTPUT="$PWD/pre.ptf" ./pp 7
for r in 0 1; do expect pre.$r MPI_Send 7; expect pre.$r MPI_Recv 7; done
expect pre.2 MPI_Send ""
for r in 0 1 2; do expect pre.$r MPI_Barrier 1; expect pre.$r MPI_Init 1; done
ok "linked run" $RUN -np 2 -x PARATRACE_MPI_COUNTS="$PWD/lnk" -x PARATRACE_OUTPUT="$PWD/lnk.ptf" ./ppl 4
for r in 0 1; do expect lnk.$r MPI_Send 4; expect lnk.$r MPI_Recv 4; done
ok "untraced run" $RUN -np 2 ./pp 2
ok "preload trace readable" "$PT" check pre.ptf
ok "linked trace readable" "$PT" check lnk.ptf
if [ -e paratrace.ptf ]; then t_fail "untraced" "wrote an archive"; else t_pass "untraced writes nothing"; fi
if ls pre.*.tmp lnk.*.tmp >/dev/null 2>&1; then t_fail "temp files left"; else t_pass "no temp files"; fi
t_done
