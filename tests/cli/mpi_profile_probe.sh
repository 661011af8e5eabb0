#!/bin/sh
# Profile mode (PARATRACE_MODE=profile): waiting and polling for messages
# are statements at their call sites (MPI_Probe, MPI_Iprobe, MPI_Mprobe,
# MPI_Improbe, MPI_Request_get_status), as mpiP counts them, not the
# program's own time.  Before, a trial on ABySS (68% of its time in
# MPI_Request_get_status polling in the trace) showed the program node
# 92% exclusive in the profile and none of those calls.
# tests/mpi/prof_probe.c on 2 ranks: rank 0 waits about 150 ms for each
# of rank 1's four messages, in each way.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build prof_probe" mpicc $SANF -o pp "$SRC/tests/mpi/prof_probe.c"
rm -rf pp.ptf
if $RUN -np 2 -x PARATRACE_MODE=profile -x LD_PRELOAD="$SO" \
     -x PARATRACE_OUTPUT="$PWD/pp.ptf" ./pp >pp.out 2>pp.err &&
   grep -q '^done 0 10 11 12 13$' pp.out && grep -q '^done 1$' pp.out; then
  t_pass "prof_probe: the program's results unchanged when profiled"
else
  t_fail "prof_probe: the program's results unchanged when profiled" \
    "$(cat pp.out; tail -3 pp.err)"
  t_done
fi
"$PT" profile --csv pp.ptf >pp.csv 2>pp.perr ||
  t_fail "profile --csv" "$(head -3 pp.perr)"
# statement F: its calls and inclusive ns (summed over sites and ranks)
stmt() {
  awk -F, -v f="$1" '$2 == "statement" && $3 == f { n += $5; t += $6 }
       END { print n + 0, t + 0 }' pp.csv
}
for f in MPI_Probe MPI_Iprobe MPI_Improbe MPI_Request_get_status; do
  set -- $(stmt $f)
  # each waited for a message sent about 150 ms after the one before;
  # a polling loop's calls hold a part of that (the rest is the loop's
  # own time between the calls, and each call's probe overhead is taken
  # off): at least 10 ms
  if [ "$1" -ge 1 ] && [ "$2" -ge 10000000 ]; then
    t_pass "$f: a statement ($1 calls, $2 ns)"
  else
    t_fail "$f: a statement with the waiting time" "$1 calls, $2 ns"
  fi
done
set -- $(stmt MPI_Probe)
expect_eq() {
  if [ "$2" = "$3" ]; then t_pass "$1: $3"
  else t_fail "$1: want '$3'" "got '$2'"; fi
}
expect_eq "MPI_Probe: one call" "$1" 1
# the text report names them under the program
"$PT" profile pp.ptf >pp.txt 2>&1
got=$(grep -c 'statement MPI_\(Probe\|Iprobe\|Improbe\|Request_get_status\) @' pp.txt)
expect_eq "text: the four polling statements" "$got" 4
t_done
