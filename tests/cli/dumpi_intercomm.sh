#!/bin/sh
# Intercommunicators through DUMPI: a program of our own
# (tests/mpi/intercomm.c: MPI_Intercomm_create twice over different peer
# communicators, Comm_dup / Comm_split / Intercomm_merge of an
# intercommunicator, point-to-point with ANY_SOURCE, MPI_ROOT /
# MPI_PROC_NULL roots) recorded by libparatrace-mpi.so, written as a DUMPI
# trace set, read back.  DUMPI keeps per-rank handles only: the reader
# must replay the creations of every rank (pairing the two sides of each
# MPI_Intercomm_create) to give every message the same peers (COMM_WORLD
# ranks of the remote group) and communicators (members, both groups) as
# the recorder did, one communicator id on both sides, so that `check`
# matches every message.  On 4 ranks the two MPI_Comm_split
# intercommunicators are [0]|[2] and [1]|[3], which the recorder's member
# hash once gave one id.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build intercomm" mpicc $SANF -o icm "$SRC/tests/mpi/intercomm.c"


for np in 4 5 6; do
  rm -rf icm$np.ptf icm$np.meta icm$np-*.bin
  if ! $RUN -np $np "$PT" record -o icm$np.ptf -- ./icm >icm$np.out 2>icm$np.err ||
     [ "$(grep -c '^done' icm$np.out)" != $np ]; then
    t_fail "np$np intercomm run" "$(tail -3 icm$np.err)"
    continue
  fi
  "$PT" check icm$np.ptf >rec$np.check 2>&1
  if ! "$PT" convert icm$np.ptf -o icm$np.meta >/dev/null 2>conv$np.err ||
     ! "$PT" convert icm$np.meta -o back$np.ptf >/dev/null 2>back$np.err; then
    t_fail "np$np PTF -> DUMPI -> PTF" "$(cat conv$np.err back$np.err | head -3)"
    continue
  fi
  "$PT" dump icm$np.ptf | awk -v ids=1 -f "$SRC/tests/cli/comm_sig.awk" | sort -s -k1,1 >rec$np.sig
  "$PT" dump back$np.ptf | awk -v ids=1 -f "$SRC/tests/cli/comm_sig.awk" | sort -s -k1,1 >back$np.sig
  # the same events with the same peers, roots, bytes and members ...
  cut -d' ' -f1-6 rec$np.sig >rec$np.cmp
  cut -d' ' -f1-6 back$np.sig >back$np.cmp
  if [ "$(grep -c '|' rec$np.cmp)" -ge 20 ] && cmp -s rec$np.cmp back$np.cmp; then
    t_pass "np$np intercomm: peers, roots, bytes, members as recorded"
  else
    t_fail "np$np intercomm: peers, roots, bytes, members as recorded" \
      "$(diff rec$np.cmp back$np.cmp | head -6)"
  fi
  # ... on communicators that correspond one to one (the recorder's ids
  # are hashes, the reader's numbers: the pairs must be a bijection)
  paste -d' ' rec$np.sig back$np.sig | awk '{ print $7, $14 }' | sort -u >pairs$np
  na=$(cut -d' ' -f1 pairs$np | sort -u | wc -l)
  nb=$(cut -d' ' -f2 pairs$np | sort -u | wc -l)
  np_=$(wc -l <pairs$np)
  if [ "$na" = "$np_" ] && [ "$nb" = "$np_" ] && [ "$np_" -ge 6 ]; then
    t_pass "np$np intercomm: one communicator id per communicator ($np_)"
  else
    t_fail "np$np intercomm: one communicator id per communicator" "$(cat pairs$np)"
  fi
  # every message matched, as in the recorded trace
  "$PT" check back$np.ptf >back$np.check 2>&1
  want=$(grep -o '[0-9]* messages matched' rec$np.check)
  if grep -q ': OK: .*messages matched' back$np.check &&
     [ -n "$want" ] && grep -q "$want" back$np.check; then
    t_pass "np$np intercomm: check matches every message ($want)"
  else
    t_fail "np$np intercomm: check matches every message" \
      "recorded: $(tail -1 rec$np.check); from DUMPI: $(tail -3 back$np.check)"
  fi
done
t_done
