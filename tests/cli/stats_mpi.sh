#!/bin/sh
# mpirun -np K paratrace stats: streams split among the ranks, reduced over
# MPI; the output must equal the one-process output byte for byte, with
# every output form and option, on native archives (split) and other
# formats (rank 0 reads alone).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$B/bin/paratrace-mpi" ]; then
  t_fail "setup" "mpirun or $B/bin/paratrace-mpi missing"; t_done
fi
RUN="mpirun --allow-run-as-root --oversubscribe"
# a sanitized paratrace-mpi: OpenMPI leaks at exit by design, so no leak
# check inside mpirun (memory errors are still caught)
if nm "$B/bin/paratrace-mpi" 2>/dev/null | grep -q __asan_init; then
  RUN="$RUN -x ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
ok "generate" "$PT" generate -o g.ptf --locations 7 --events 30000 --seed 11
ok "text copy" "$PT" convert g.ptf -o g.txt
same() { # name k args...
  name=$1; k=$2; shift 2
  "$PT" stats "$@" >one.out 2>one.err; r1=$?
  $RUN -np "$k" "$PT" stats "$@" >par.out 2>par.err; rk=$?
  # (a parallel run has no collective wait states: it says so instead)
  nowaits one.out >one.cmp
  nowaits par.out >par.cmp
  if [ $r1 = 0 ] && [ $rk = 0 ] && cmp -s one.cmp par.cmp; then
    t_pass "$name (np $k)"
  else
    t_fail "$name (np $k)" "exit $r1/$rk; $(diff one.out par.out | head -3) $(head -2 par.err)"
  fi
}
for k in 2 3 4; do same "table" $k g.ptf; done
same "csv" 3 --csv g.ptf
same "json" 2 --json g.ptf
same "locations" 3 --locations 1,3-5 --csv g.ptf
same "relative" 2 --relative-to solve --csv g.ptf
same "by tag" 3 --by tag --csv g.ptf
same "window, full scan" 3 --from 1ms --to 3ms --no-summaries --csv g.ptf
ok "summarize" "$PT" summarize --every 500us g.ptf
same "window from summaries" 3 --from 1ms --to 3ms --require-summaries --csv g.ptf
same "more ranks than streams" 9 --csv g.ptf
# a late receiver bounded by its send call's leave (stats.sh
# late_receiver_bounded_by_send) when the two ends are read by two ranks
cat >lr.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0
def location id=1 group=1
def region id=1 name="main"
def region id=2 paradigm=3 name="MPI_Send"
def region id=3 paradigm=3 name="MPI_Recv"
event 0 0 enter region=1
event 0 1 enter region=1
event 10 0 enter region=2
event 11 0 send peer=1 comm=0 tag=1 bytes=8
event 12 0 leave region=2
event 100 1 enter region=3
event 101 1 recv peer=0 comm=0 tag=1 bytes=8
event 102 1 leave region=3
event 300 0 leave region=1
event 300 1 leave region=1
TXT
ok "late receiver trace" "$PT" -q convert lr.txt -o lr.ptf
same "late receiver bounded" 2 --csv lr.ptf
grep -q '^message,0,1,0,1,8,0,2,1$' par.out && t_pass "late receiver bounded: value" ||
  t_fail "late receiver bounded: value" "$(grep "^message," par.out)"
same "text input (rank 0 reads)" 3 --csv g.txt
# mpiP's application time (program region, or MPI_Init..MPI_Finalize) and
# sent bytes: each rank holds one location's MPI_Init / MPI_Finalize times
{
  echo '# paratrace text 1'
  for l in 0 1 2; do
    echo "stream $l location=$l"
    echo "def location_group id=$l rank=$l"
    echo "def location id=$l group=$l"
  done
  echo 'def region id=1 name="MPI_Init"'
  echo 'def region id=2 role=1 paradigm=1 name="prog"'
  echo 'def region id=3 role=1 paradigm=3 name="MPI_Sendrecv"'
  echo 'def region id=4 role=1 paradigm=3 name="MPI_Finalize"'
  for l in 0 1 2; do
    p=$(((l + 1) % 3)); o=$((l * 7))
    echo "event $o $l enter region=1"
    echo "event $((o + 100)) $l leave region=1"
    echo "event $((o + 100)) $l enter region=2"
    echo "event $((o + 150)) $l enter region=3"
    echo "event $((o + 151)) $l send callsite=0 peer=$p comm=0 tag=1 bytes=$((l + 4))"
    echo "event $((o + 160)) $l leave region=3"
    echo "event $((o + 400)) $l leave region=2"
    echo "event $((o + 400)) $l enter region=4"
    echo "event $((o + 410)) $l leave region=4"
  done
} >mp.txt
grep -v -e 'region=2$' -e 'id=2 ' mp.txt >mi.txt
ok "program region trace" "$PT" -q convert mp.txt -o mp.ptf
ok "init-finalize trace" "$PT" -q convert mi.txt -o mi.ptf
same "program region" 3 --csv mp.ptf
same "program region, table" 2 mp.ptf
same "MPI_Init..MPI_Finalize" 3 --json mi.ptf
$RUN -np 2 "$PT" stats no-such.ptf >/dev/null 2>err; rc=$?
if [ $rc != 0 ] && grep -q 'no-such.ptf' err; then t_pass "missing trace: error, no hang"
else t_fail "missing trace" "exit $rc"; fi
t_done
