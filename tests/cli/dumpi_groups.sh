#!/bin/sh
# Communicators made by MPI_Comm_create from groups, recorded and written
# as DUMPI: tests/mpi/groups.c does what ScaLAPACK's BLACS does under
# Quantum ESPRESSO's pw.x (MPI_Comm_group, MPI_Group_incl, MPI_Comm_create,
# both groups freed, messages on the new communicator; twice, then
# MPI_GROUP_EMPTY).  The recorder numbered a rank's groups from 1, which
# SST DUMPI reads as MPI_GROUP_NULL (1) and MPI_GROUP_EMPTY (2), and
# recorded each MPI_Group_free with the id of MPI_GROUP_NULL (the handle
# after the call), so the reader's replay could not make the
# communicators: pw.x with 4 ranks -> DUMPI had 1670 sends unmatched.
# Now: SST DUMPI's numbers (NULL 1, EMPTY 2, others from 3), the freed
# group as its argument, every message matched from DUMPI as recorded.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build groups" mpicc $SANF -o grp "$SRC/tests/mpi/groups.c"

# dumpi2ascii's form: each group call with its group arguments on a line
cat >gcalls.awk <<'AWK'
/^MPI_(Comm_group|Group_incl|Group_free|Comm_create) entering/ { f = $1; a = ""; next }
f != "" && /^MPI_Group / { a = a " " $2 " " $3 }
f != "" && / returning / { print f a; f = "" }
AWK

for np in 4 3; do
  rm -rf g$np.ptf g$np.meta g$np-*.bin back$np.ptf
  if ! $RUN -np $np "$PT" record -o g$np.ptf -- ./grp >g$np.out 2>g$np.err ||
     [ "$(grep -c '^done' g$np.out)" != $np ]; then
    t_fail "np$np groups run" "$(tail -3 g$np.err)"
    continue
  fi
  "$PT" check g$np.ptf >rec$np.check 2>&1
  want=$(grep -o '[0-9]* messages matched' rec$np.check)
  if ! "$PT" convert g$np.ptf -o g$np.meta >/dev/null 2>conv$np.err ||
     ! "$PT" convert g$np.meta -o back$np.ptf >/dev/null 2>back$np.err; then
    t_fail "np$np PTF -> DUMPI -> PTF" "$(cat conv$np.err back$np.err | head -3)"
    continue
  fi
  # the group arguments as SST DUMPI numbers them
  "$PT" dump --style dumpi g$np.meta --locations 1 2>/dev/null |
    awk -f gcalls.awk >calls$np.txt
  if [ "$(grep -c '^MPI_Group_free group=[0-9]* (user-defined-group)$' calls$np.txt)" = 6 ] &&
     ! grep -q 'MPI_GROUP_NULL' calls$np.txt &&
     [ "$(grep -c '^MPI_Comm_create group=[0-9]* (user-defined-group)$' calls$np.txt)" = 2 ] &&
     grep -q '^MPI_Comm_create group=2 (MPI_GROUP_EMPTY)$' calls$np.txt; then
    t_pass "np$np groups: DUMPI group handles (freed groups, MPI_GROUP_EMPTY)"
  else
    t_fail "np$np groups: DUMPI group handles" "$(cat calls$np.txt)"
  fi
  # a freed group is the one MPI_Comm_group / MPI_Group_incl made
  if awk '{ for (i = 2; i <= NF; i++) sub(/^[a-z]*=/, "", $i) }
          $1 == "MPI_Comm_group" { a = $2 } $1 == "MPI_Group_incl" { s = $4 }
          $1 == "MPI_Group_free" { n++; if ((n % 2 == 1 && $2 != s) ||
                                            (n % 2 == 0 && $2 != a)) bad = 1 }
          END { exit bad || n != 6 }' calls$np.txt; then
    t_pass "np$np groups: MPI_Group_free names the group it frees"
  else
    t_fail "np$np groups: MPI_Group_free names the group it frees" "$(cat calls$np.txt)"
  fi
  # every message matched, as in the recorded trace
  "$PT" check g$np.meta >meta$np.check 2>&1
  if grep -q ': OK: .*messages matched' meta$np.check &&
     [ -n "$want" ] && grep -q "$want" meta$np.check; then
    t_pass "np$np groups: check matches every message from DUMPI ($want)"
  else
    t_fail "np$np groups: check matches every message from DUMPI" \
      "recorded: $(tail -1 rec$np.check); from DUMPI: $(tail -3 meta$np.check)"
  fi
  # the same peers, roots, bytes and members as recorded
  "$PT" dump g$np.ptf | awk -f "$SRC/tests/cli/comm_sig.awk" | sort -s -k1,1 >rec$np.sig
  "$PT" dump back$np.ptf | awk -f "$SRC/tests/cli/comm_sig.awk" | sort -s -k1,1 >back$np.sig
  if [ "$(wc -l <rec$np.sig)" -ge $((np * 4)) ] && cmp -s rec$np.sig back$np.sig; then
    t_pass "np$np groups: peers, roots, bytes, members as recorded"
  else
    t_fail "np$np groups: peers, roots, bytes, members as recorded" \
      "$(diff rec$np.sig back$np.sig | head -6)"
  fi
done
t_done
