#!/bin/sh
# Call sites inside a procedure the compiler inlined (tests/mpi/inlined.f90:
# a contained subroutine gfortran -O1 inlines into the main program) are
# named after that procedure at every site, in the archive and in its OTF2
# copy alike.  binutils 2.40's addr2line names the first address it is
# asked about in an inlined body after the enclosing procedure (MAIN__)
# and the later ones after the inlined one, so one of the five sites read
# "MAIN__" and which one depended on the order of the trace's call-site
# definitions (PARPACK: "av lap.f90:63" in the PTF archive, "MAIN__
# lap.f90:63" in its OTF2 copy).  pt__addr2line asks for each address
# twice and keeps the second answer.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
if ! command -v mpifort >/dev/null 2>&1 || ! command -v addr2line >/dev/null 2>&1 ||
   [ ! -f "$B/lib/libparatrace-mpi.so" ]; then
  t_fail "setup" "mpifort, addr2line or $B/lib/libparatrace-mpi.so missing"; t_done
fi
RUN="mpirun --allow-run-as-root --oversubscribe"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
F=$SRC/tests/mpi/inlined.f90
ok "build" mpifort -g -O1 -o inlprog "$F"
nm inlprog | grep -qi 'exch' && echo "note: exch not inlined by this compiler" >&2
ok "record" $RUN -np 2 "$PT" record -o inl.ptf -- ./inlprog >run.out
grep -q 'halo    1.0   1.0' run.out && t_pass "program's result" ||
  t_fail "program's result" "$(cat run.out)"
ok "otf2" "$PT" -q convert inl.ptf -o copy.otf2
# the names of the call sites of the MPI calls inside exch (5 sites), the
# procedure's part of each
sites() {
  "$PT" stats --csv "$1" |
    awk -F, '$1 == "mpi_callsite" && $3 ~ /MPI_(Irecv|Isend|Waitall)/ {
      print $5 }' | tr -d '"' | sed 's/:[0-9]*$//' | sort | uniq -c |
    awk '{ print $1, $2, $3 }'
}
want="5 exch inlined.f90"
for t in inl.ptf copy.otf2; do
  got=$(sites $t)
  [ "$got" = "$want" ] && t_pass "$t: every site in exch" ||
    t_fail "$t: every site in exch" "want $(echo $want), got $(echo $got)"
done
t_done
