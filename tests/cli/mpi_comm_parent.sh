#!/bin/sh
# Communicators made by MPI_Comm_idup have the communicator they
# duplicate as parent in their COMM definition, as MPI_Comm_dup's have:
# the recorder registers the new communicator when the request completes
# (MPI_Wait, MPI_Waitall, MPI_Test; tests/mpi/commidup.c).  Before, an
# idup'ed communicator was defined at its first use, with no parent.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build commidup" mpicc $SANF -o commidup "$SRC/tests/mpi/commidup.c"
for lvl in 3 1; do
  rm -rf ci$lvl.ptf
  if $RUN -np 4 -x PARATRACE_LEVEL=$lvl "$PT" record -o ci$lvl.ptf -- ./commidup \
       >ci$lvl.out 2>ci$lvl.err && [ "$(grep -c '^done' ci$lvl.out)" = 4 ]; then
    t_pass "level $lvl: commidup runs unchanged when recorded"
  else
    t_fail "level $lvl: commidup runs" "$(cat ci$lvl.out; tail -3 ci$lvl.err)"
    continue
  fi
  ok "level $lvl: check" "$PT" check ci$lvl.ptf
  "$PT" dump ci$lvl.ptf | sed 's/^def@[0-9]* /def /' |
    awk '$1 == "def" && $2 == "comm"' | sort -u >ci$lvl.comms
  # COMM_WORLD (2) and COMM_SELF (3) have none; the two halves and the
  # idup of COMM_WORLD have COMM_WORLD; each half's dup and three idups
  # have their half
  res=$(awk '{ id = $3; sub(/id=/, "", id); p = $4; sub(/parent=/, "", p)
               par[id] = p; n++ }
             END {
               for (id in par) {
                 p = par[id]
                 if (id == 2 || id == 3) { if (p != "none") bad++; continue }
                 if (p == "none") none++
                 else if (p == 2) world++
                 else if (par[p] == 2) half++
                 else bad++
               }
               printf "%d comms, %d without parent, %d from world, %d from a half, %d odd", n, none, world, half, bad
             }' ci$lvl.comms)
  if [ "$res" = "13 comms, 0 without parent, 3 from world, 8 from a half, 0 odd" ]; then
    t_pass "level $lvl: idup'ed communicators have their parent ($res)"
  else
    t_fail "level $lvl: idup'ed communicators have their parent" "$res: $(cat ci$lvl.comms)"
  fi
  # each is named after the call that made it (before: "comm <id>"):
  # the halves by MPI_Comm_split, the rest by MPI_Comm_dup and
  # MPI_Comm_idup (4 of them: one of COMM_WORLD, three per half)
  names=$(sed -n 's/.* name="\([A-Za-z_]*\) [0-9a-f]*"$/\1/p' ci$lvl.comms |
          sort | uniq -c | awk '{printf "%s %s;", $2, $1}')
  if [ "$names" = "MPI_Comm_dup 2;MPI_Comm_idup 7;MPI_Comm_split 2;" ]; then
    t_pass "level $lvl: communicators named after the call that made them"
  else
    t_fail "level $lvl: communicators named after the call that made them" "$names"
  fi
done
# two idups of COMM_WORLD completed in a different order on the two ranks
# (tests/mpi/idup_order.c): each communicator keeps the id the order of
# the idup calls gives it, so the message on each is matched (was: ids by
# completion order, swapped on rank 1, one recv_before_send)
if ok "build idup_order" mpicc $SANF -o idup_order "$SRC/tests/mpi/idup_order.c"; then
  rm -rf io.ptf
  if $RUN -np 2 "$PT" record -o io.ptf -- ./idup_order >io.out 2>io.err &&
     [ "$(grep -c '^done' io.out)" = 2 ]; then
    # rank 0's sends and rank 1's receives, in program order: a then b
    "$PT" dump io.ptf | awk '$1 == "event" && (($3 == 0 && $4 == "send") ||
                                               ($3 == 1 && $4 == "recv")) {
        for (i = 5; i <= NF; i++) if ($i ~ /^comm=/) c[$3] = c[$3] " " $i }
      END { print c[0] "|" c[1] }' >io.comms
    if awk -F'|' '{ exit !($1 == $2 && $1 != "") }' io.comms; then
      t_pass "idups completed out of order: same ids on every rank"
    else
      t_fail "idups completed out of order: same ids on every rank" "$(cat io.comms)"
    fi
  else
    t_fail "idup_order runs" "$(cat io.out; tail -3 io.err)"
  fi
fi
t_done
