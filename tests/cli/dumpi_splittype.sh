#!/bin/sh
# Communicators made by MPI calls SST DUMPI has no record for, through
# DUMPI: tests/mpi/splittype.c (MPI_Comm_split_type on COMM_WORLD, with
# MPI_UNDEFINED, on a sub-communicator; MPI_Comm_dup_with_info,
# MPI_Dist_graph_create(_adjacent), MPI_Comm_create_group of all ranks,
# MPI_Comm_idup; ranks in them differ from COMM_WORLD ranks) recorded by
# libparatrace-mpi.so, written as a DUMPI trace set, read back.  The
# writer drops such calls; it must write each as the MPI_Comm_split that
# makes the same communicator, so that the reader's replay knows its
# members: the messages and collectives on it keep their peers, roots and
# members, and `check` matches every message (before: the communicators
# stayed per-rank handles, peers were ranks in them, 2->1 for 2->3).
# MPI_Comm_create_group of part of its parent cannot be a split: the
# warning must say that its messages will not map.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build splittype" mpicc $SANF -o spt "$SRC/tests/mpi/splittype.c"


for np in 4 5; do
  rm -rf st$np.ptf st$np.meta st$np-*.bin
  if ! $RUN -np $np "$PT" record -o st$np.ptf -- ./spt >st$np.out 2>st$np.err ||
     [ "$(grep -c '^done' st$np.out)" != $np ]; then
    t_fail "np$np splittype run" "$(tail -3 st$np.err)"
    continue
  fi
  "$PT" check st$np.ptf >rec$np.check 2>&1
  if ! "$PT" convert st$np.ptf -o st$np.meta >/dev/null 2>conv$np.err ||
     ! "$PT" convert st$np.meta -o back$np.ptf >/dev/null 2>back$np.err; then
    t_fail "np$np PTF -> DUMPI -> PTF" "$(cat conv$np.err back$np.err | head -3)"
    continue
  fi
  # the calls are said to be written as splits
  if grep -q "MPI_Comm_split_type have no DUMPI record; each written as the MPI_Comm_split" conv$np.err &&
     grep -q "MPI_Comm_idup have no DUMPI record; each written as the MPI_Comm_split" conv$np.err &&
     ! grep -q "cannot describe" conv$np.err; then
    t_pass "np$np splittype: the creating calls written as MPI_Comm_split"
  else
    t_fail "np$np splittype: the creating calls written as MPI_Comm_split" "$(head -c 600 conv$np.err)"
  fi
  # every message matched, as in the recorded trace
  "$PT" check st$np.meta >meta$np.check 2>&1
  want=$(grep -o '[0-9]* messages matched' rec$np.check)
  if grep -q ': OK: .*messages matched' meta$np.check &&
     [ -n "$want" ] && grep -q "$want" meta$np.check; then
    t_pass "np$np splittype: check matches every message ($want)"
  else
    t_fail "np$np splittype: check matches every message" \
      "recorded: $(tail -1 rec$np.check); from DUMPI: $(grep -v warning meta$np.check | tail -3)"
  fi
  # the same events with the same peers, roots, bytes and members
  "$PT" dump st$np.ptf | awk -v ids=1 -f "$SRC/tests/cli/comm_sig.awk" | sort -s -k1,1 >rec$np.sig
  "$PT" dump back$np.ptf | awk -v ids=1 -f "$SRC/tests/cli/comm_sig.awk" | sort -s -k1,1 >back$np.sig
  cut -d' ' -f1-6 rec$np.sig >rec$np.cmp
  cut -d' ' -f1-6 back$np.sig >back$np.cmp
  if [ "$(wc -l <rec$np.cmp)" -ge $((np * 30)) ] && cmp -s rec$np.cmp back$np.cmp; then
    t_pass "np$np splittype: peers, roots, bytes, members as recorded"
  else
    t_fail "np$np splittype: peers, roots, bytes, members as recorded" \
      "$(diff rec$np.cmp back$np.cmp | head -6)"
  fi
  # one communicator id per communicator, the same on every member
  paste -d' ' rec$np.sig back$np.sig | awk '{ print $7, $14 }' | sort -u >pairs$np
  na=$(cut -d' ' -f1 pairs$np | sort -u | wc -l)
  nb=$(cut -d' ' -f2 pairs$np | sort -u | wc -l)
  n_=$(wc -l <pairs$np)
  if [ "$na" = "$n_" ] && [ "$nb" = "$n_" ] && [ "$n_" -ge 8 ]; then
    t_pass "np$np splittype: one communicator id per communicator ($n_)"
  else
    t_fail "np$np splittype: one communicator id per communicator" "$(cat pairs$np)"
  fi
  # dump --style dumpi (the printer) writes the same splits
  "$PT" dump --style dumpi st$np.ptf >ptf$np.txt 2>/dev/null
  "$PT" dump --style dumpi st$np.meta >meta$np.txt 2>/dev/null
  a=$(grep -c '^MPI_Comm_split entering' ptf$np.txt)
  b=$(grep -c '^MPI_Comm_split entering' meta$np.txt)
  if [ "$a" = "$b" ] && [ "$a" -ge $((np * 8)) ] &&
     [ "$(grep -c 'newcomm=' ptf$np.txt)" = "$(grep -c 'newcomm=' meta$np.txt)" ]; then
    t_pass "np$np splittype: dump --style dumpi prints the splits ($a)"
  else
    t_fail "np$np splittype: dump --style dumpi prints the splits" "$a vs $b"
  fi
done

# MPI_Comm_create_group of the even ranks only, MPI_Comm_dup_with_info of
# an intercommunicator: no split can stand for them; the warning says so
# and that their messages will not map; the others match
rm -rf pt.ptf pt.meta pt-*.bin
if $RUN -np 4 "$PT" record -o pt.ptf -- ./spt part >pt.out 2>pt.err &&
   "$PT" convert pt.ptf -o pt.meta >/dev/null 2>ptconv.err; then
  if grep -q "MPI_Comm_create_group have no DUMPI record.*2 made a communicator DUMPI cannot describe (made by part of its parent only.*will not map to their peers" ptconv.err; then
    t_pass "create_group of part of its parent: said not to map"
  else
    t_fail "create_group of part of its parent: said not to map" "$(cat ptconv.err)"
  fi
  if grep -q "MPI_Comm_dup_with_info have no DUMPI record.*made a communicator DUMPI cannot describe (an intercommunicator).*will not map to their peers" ptconv.err; then
    t_pass "dup_with_info of an intercommunicator: said not to map"
  else
    t_fail "dup_with_info of an intercommunicator: said not to map" "$(cat ptconv.err)"
  fi
  "$PT" check pt.meta >pt.check 2>&1
  if grep -q 'unmatched' pt.check && ! grep '^unmatched_' pt.check | grep -qv 'tag 1[89]'; then
    t_pass "create_group of part: only its messages unmatched"
  else
    t_fail "create_group of part: only its messages unmatched" "$(grep -v warning pt.check | head -4)"
  fi
else
  t_fail "part run" "$(cat pt.err ptconv.err | tail -3)"
fi
t_done
