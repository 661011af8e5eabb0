#!/bin/sh
# mpirun -np K paratrace stats: the parts defer their receives from
# MPI_ANY_SOURCE without a status (peer -1), which may take the send of a
# sender another part holds, and what their receiver does on the
# communicator after them, to rank 0, where they are matched in time order
# once every part is in: the output is one process's.  Four ranks each
# send one message a step to another rank (tags 0 and 1) and then receive
# one from any source (any tag or a tag) or from a rank with any tag,
# 500 steps; the parts (2 or 3) cut between ranks.  Before, a part matched
# the receives from any source among its own senders first (here every
# row of the matrix differed, with -np 2; two with -np 3).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
awk -v n=500 'function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
BEGIN { x = 12345
  for (i = 0; i < n; i++) {
    for (r = 0; r < 4; r++)
      printf "event %d %d send peer=%d comm=0 tag=%d bytes=%d\n", 1000 * i + rnd(400), r, (r + 1 + rnd(3)) % 4, rnd(2), 8 * (r + 1)
    for (r = 0; r < 4; r++) {
      k = rnd(4); t = 1000 * i + 400 + rnd(500)
      if (k < 2) { p = -1; g = -1 } else if (k == 2) { p = -1; g = rnd(2) } else { p = (r + 1 + rnd(3)) % 4; g = -1 }
      printf "event %d %d recv peer=%d comm=0 tag=%d bytes=8\n", t, r, p, g }
  }
}' | sort -s -n -k2,2 >ev.txt
{
  echo "# paratrace text 1"
  echo "def clock ticks_per_second=1000000000"
  for r in 0 1 2 3; do
    echo "def location_group id=$r rank=$r name=\"rank $r\""
    echo "def location id=$r group=$r name=\"thread $r\""
  done
  cat ev.txt
} >w.txt
ok convert "$PT" -q convert w.txt -o w.ptf || t_done
# (the test's point: wildcard receives are matched, some not as a part
# alone would)
[ "$("$PT" stats --csv w.ptf | grep -c '^message,')" = 12 ] &&
  t_pass "12 pairs exchange messages" || t_fail "12 pairs exchange messages" ""
for form in "--csv" "" "--csv --by tag" "--json"; do
  "$PT" stats $form w.ptf >one.out
  nowaits one.out >one.cmp
  for np in 2 3; do
    $RUN -np $np "$PT" stats $form w.ptf >par.out 2>par.err
    nowaits par.out >par.cmp
    cmp -s one.cmp par.cmp &&
      t_pass "mpirun -np $np stats $form: one process's output" ||
      t_fail "mpirun -np $np stats $form: one process's output" \
        "$(diff one.cmp par.cmp | head -4 | tr '\n' ' ') $(head -2 par.err)"
  done
done
# the shares defer at most PARATRACE_STATS_MAX_DEFERRED messages (2^20 by
# default, about 200 bytes each): past them rank 0 reads the trace alone
# and says so, with one process's output (before: no bound, 357 MB on
# rank 0 for 300,000 deferred messages)
"$PT" stats --csv w.ptf >one.out
for np in 2 3; do
  $RUN -np $np -x PARATRACE_STATS_MAX_DEFERRED=50 "$PT" stats --csv w.ptf \
    >par.out 2>par.err
  if cmp -s one.out par.out && grep -q 'deferred more than 50 messages.*rank 0 reads the trace alone' par.err; then
    t_pass "mpirun -np $np, deferral bound: rank 0 reads alone, one process's output"
  else
    t_fail "mpirun -np $np, deferral bound: rank 0 reads alone, one process's output" \
      "$(diff one.out par.out | head -4 | tr '\n' ' ') $(head -2 par.err)"
  fi
done
# a value that is not a number is an error, not the default (before: read
# as 0, i.e. 2^20, silently)
fails_cleanly max_deferred_not_a_number 1 'PARATRACE_STATS_MAX_DEFERRED=50k: not a number' \
  env PARATRACE_STATS_MAX_DEFERRED=50k "$PT" stats w.ptf
t_done
