#!/bin/sh
# The MPI recorder on hybrid (MPI + threads) programs and the faults of a
# batch job: a thread blocked in its first MPI call when the process is
# killed still shows that call entered; MPI_Testsome / MPI_Waitsome
# loops (requests completed by later calls) through DUMPI.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"

# (not instrumented itself, as fatal.c in mpi_record.sh: in a sanitized
# build the program's own AddressSanitizer takes the SIGSEGV first and
# ends the process before the recorder's handler closes the trace)
ok "build thread_crash" mpicc -g -o tcr "$SRC/tests/mpi/thread_crash.c" -pthread

# a normal end: three streams per rank (main, blocker, worker)
ok "thread_crash run" $RUN -np 3 "$PT" record -o tc0.ptf -- ./tcr none >tc0.out
ok "thread_crash check" "$PT" check tc0.ptf >tc0.check
n=$("$PT" info tc0.ptf | awk '$1 == "locations" {print $4}')
[ "$n" = 9 ] && t_pass "thread_crash: a stream per thread ($n)" ||
  t_fail "thread_crash: a stream per thread" "$n locations with events"

# a thread of rank 1 dies (SIGSEGV, MPI_Abort) while every rank's blocker
# thread waits in its first MPI call, a receive: that receive shows as
# entered and never left on every rank, the killed ones (SIGTERM) and the
# dying one alike
for mode in segv abort; do
  rm -rf tc.ptf
  timeout 120 $RUN -np 3 "$PT" record -o tc.ptf -- ./tcr $mode >tc.out 2>tc.err
  "$PT" check tc.ptf >tc.check 2>&1
  n=$(grep -c 'unclosed_region: .*(MPI_Recv)' tc.check)
  [ "$n" = 3 ] && t_pass "thread_crash $mode: every blocked thread's first call shown" ||
    t_fail "thread_crash $mode: every blocked thread's first call shown" \
      "$n of 3 MPI_Recv open: $(head -c 600 tc.check)"
  w=$(grep -c 'worker done' tc.out)
  [ "$w" = 3 ] && t_pass "thread_crash $mode: the program's output kept" ||
    t_fail "thread_crash $mode: the program's output kept" "$(cat tc.out)"
done
# Testsome / Waitsome whose first calls complete nothing: their indices
# stay an integer array (an empty one), so the DUMPI writer writes every
# later call's indices and the trace set reads back with the receives
ok "build testsome" mpicc $SANF -g -o tsome "$SRC/tests/mpi/testsome.c"
ok "testsome run" $RUN -np 3 "$PT" record -o ts.ptf -- ./tsome 8
ok "testsome check" "$PT" check ts.ptf >ts.check
"$PT" dump ts.ptf >ts.dump
if grep -q '^def.* attribute .*type=5 name="indices"' ts.dump &&
   ! grep -q '^def.* attribute .*type=1 name="indices"' ts.dump; then
  t_pass "testsome: indices an integer array"
else t_fail "testsome: indices an integer array" "$(grep 'name="indices"' ts.dump)"; fi
ok "testsome: to dumpi" "$PT" convert ts.ptf -o tsd.meta --to dumpi
"$PT" check tsd.meta >tsd.check 2>&1
m0=$(sed -n 's/.* \([0-9]*\) messages matched.*/\1/p' ts.check)
m1=$(sed -n 's/.* \([0-9]*\) messages matched.*/\1/p' tsd.check)
[ -n "$m0" ] && [ "$m0" = "$m1" ] && grep -q ': OK:' tsd.check &&
  t_pass "testsome: DUMPI reads back with every message ($m1)" ||
  t_fail "testsome: DUMPI reads back with every message" "$m0 vs $(head -3 tsd.check)"

# an argument name with two types (Waitany's scalar index, Graph_create's
# array index): two attribute definitions, so the array reaches DUMPI
ok "build argtypes" mpicc $SANF -g -o argt "$SRC/tests/mpi/argtypes.c"
ok "argtypes run" $RUN -np 2 "$PT" record -o at.ptf -- ./argt
ok "argtypes: to dumpi" "$PT" convert at.ptf -o atd.meta --to dumpi
"$PT" dump --style dumpi atd.meta --locations 0 >atd.txt 2>&1
if grep -q '^int index\[2\]=\[1, 2\]' atd.txt && grep -q '^int index=0' atd.txt; then
  t_pass "argtypes: scalar and array of one name both kept"
else t_fail "argtypes: scalar and array of one name both kept" "$(grep index atd.txt)"; fi
t_done
