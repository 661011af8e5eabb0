#!/bin/sh
# Profile mode (PARATRACE_MODE=profile), non-blocking receives: their
# bytes are the status's and are counted by the wait or test that
# completes them, with the source as destination ("<- rank N"), as a
# blocking receive's are; the MPI_Irecv statement moves none.  Before,
# each MPI_Irecv counted the size of the buffer it posted, so HPC
# Challenge's MPIRandomAccess (8 KiB buffers, MPI_ANY_SOURCE, polled with
# MPI_Testany) showed 9.2 MB received where 6.0 MiB arrived, cancelled
# receives included.  tests/mpi/prof_irecv.c on 2 ranks.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build prof_irecv" mpicc $SANF -o pi "$SRC/tests/mpi/prof_irecv.c"
rm -rf pi.ptf
if $RUN -np 2 -x PARATRACE_MODE=profile -x LD_PRELOAD="$SO" \
     -x PARATRACE_OUTPUT="$PWD/pi.ptf" ./pi >pi.out 2>pi.err &&
   [ "$(grep -c '^done' pi.out)" = 2 ]; then
  t_pass "prof_irecv: the program's results unchanged when profiled"
else
  t_fail "prof_irecv: the program's results unchanged when profiled" "$(tail -3 pi.err)"
  # the text form writes bytes as stats does (3.9 KiB, 480 B; it wrote
# "3.9K B")
"$PT" profile pi.ptf >pi.txt 2>&1
got=$(grep 'statement MPI_Waitall' pi.txt | sed -n 's/.*\[\([^,]*\), trans.*/\1/p')
expect "text: MPI_Waitall's bytes" "$got" "3.9 KiB"
got=$(grep 'statement MPI_Testany' pi.txt | sed -n 's/.*\[\([^,]*\), trans.*/\1/p')
expect "text: MPI_Testany's bytes" "$got" "480 B"
t_done
fi
"$PT" profile --csv pi.ptf >pi.csv 2>pi.perr ||
  t_fail "profile --csv" "$(head -3 pi.perr)"
# bytes per statement function (summed over the ranks and call sites)
bytes() {
  awk -F, -v f="$1" '$2 == "statement" && $3 == f { b += $8 } END { print b + 0 }' pi.csv
}
# destinations of a statement function: direction, rank, bytes
dests() {
  awk -F, -v f="$1" '$2 == "statement" { s = ($3 == f) ; next }
       $2 == "destination" && s { printf "%s%s:%s ", $3, $4, $8 }' pi.csv
}
expect() {
  if [ "$2" = "$3" ]; then t_pass "$1: $3"
  else t_fail "$1: want '$3'" "got '$2'"; fi
}
expect "MPI_Irecv bytes" "$(bytes MPI_Irecv)" 0
expect "MPI_Testany bytes (3 receives of 80, 160, 240)" "$(bytes MPI_Testany)" 480
expect "MPI_Testany sources" "$(dests MPI_Testany)" "<-1:480 "
expect "MPI_Waitall bytes (the receive it completed, not the send)" "$(bytes MPI_Waitall)" 4000
expect "MPI_Waitall sources" "$(dests MPI_Waitall)" "<-0:4000 "
expect "MPI_Wait of the cancelled receive" "$(bytes MPI_Wait)" 0
expect "MPI_Isend bytes at the send" "$(bytes MPI_Isend)" 32
expect "MPI_Recv bytes from its status" "$(bytes MPI_Recv)" 32
# the text form writes bytes as stats does (3.9 KiB, 480 B; it wrote
# "3.9K B")
"$PT" profile pi.ptf >pi.txt 2>&1
got=$(grep 'statement MPI_Waitall' pi.txt | sed -n 's/.*\[\([^,]*\), trans.*/\1/p')
expect "text: MPI_Waitall's bytes" "$got" "3.9 KiB"
got=$(grep 'statement MPI_Testany' pi.txt | sed -n 's/.*\[\([^,]*\), trans.*/\1/p')
expect "text: MPI_Testany's bytes" "$got" "480 B"
t_done
