#!/bin/sh
# The profile's program time is mpiP's application time, as the trace's:
# from the end of MPI_Init to the start of MPI_Finalize.  It ran from the
# first to the last communication statement, so an application's time
# before its first message (input, setup) and after its last one was
# missing, and every share of the profile was of that shorter time: CP2K
# 2023.1 (H2O with HFX, 4 ranks, --mode both) had 5.3 s of program per
# rank in the profile against 6.7 s of application time in the trace,
# its first communication 1.4 s after MPI_Init.  tests/mpi/setup_compute.c
# computes 300 ms before its first MPI_Allreduce and 200 ms after its last:
# the profile's program per rank must equal the trace's application time
# of the same run (PARATRACE_MODE=both).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build setup_compute" mpicc $SANF -g -O1 -o sc "$SRC/tests/mpi/setup_compute.c"

rm -rf s.ptf
if ! $RUN -np 2 "$PT" record --mode both -o s.ptf -- ./sc 300 10 200 \
     >s.out 2>s.err || [ "$(grep -c '^done' s.out)" != 2 ]; then
  t_fail "setup_compute run" "$(tail -3 s.err)"
  t_done
fi
for r in 0 1; do
  # ns: the profile's program node of rank r, the trace's application time
  prof=$("$PT" profile --rank $r --csv s.ptf | awk -F, '$2 == "program" {print $6}')
  app=$("$PT" stats --csv --locations $r s.ptf |
        awk -F, -v r=$r '$1 == "location" && $2 == r {print $3}')
  if [ -n "$prof" ] && [ -n "$app" ] && [ "$app" -gt 500000000 ] &&
     awk -v p="$prof" -v a="$app" 'BEGIN { d = p - a; if (d < 0) d = -d
                                          exit !(d < a / 100) }'; then
    t_pass "rank $r: profile's program time = trace's application time"
  else
    t_fail "rank $r: profile's program time = trace's application time" \
      "profile $prof ns, trace $app ns"
  fi
done
t_done
