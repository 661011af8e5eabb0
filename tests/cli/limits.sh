#!/bin/sh
# Resource limits: what a conversion or a recording costs must not grow
# with the trace, and a full disk or bad settings give one clear message.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"

# peak RSS in KiB of a command (GNU time), empty when time is missing,
# FAIL when the command fails
peak_kb() {
  [ -x /usr/bin/time ] || { "$@" >/dev/null 2>rss.err || echo FAIL; return 0; }
  /usr/bin/time -f '%M' -o rss.txt "$@" >/dev/null 2>rss.err || { echo FAIL; return 0; }
  tail -1 rss.txt
}

# libotf2 keeps an event buffer's chunks in memory until the writer is
# closed unless its allocator refuses one; the sink bounds them per
# location.  Before: 2 locations x 2 M events took ~60 MB (the whole
# 47 MB output); now ~16 MB whatever the length.
ok gen_long "$PT" -q generate -o long.ptf --locations 2 --events 2000000 --seed 3
kb=$(peak_kb "$PT" -q convert long.ptf -o long.otf2)
if [ "$kb" = FAIL ] || [ ! -f long.otf2 ]; then
  t_fail "OTF2 writer memory bounded" "convert failed: $(head -c 300 rss.err)"
elif [ -z "$kb" ]; then
  t_pass "OTF2 writer memory bounded (GNU time missing: skipped)"
elif nm -D "$PT" 2>/dev/null | grep -q __asan_init; then
  # AddressSanitizer's quarantine and shadow memory: no RSS bound to check
  t_pass "OTF2 writer memory bounded (sanitized build: $kb KiB, not checked)"
elif [ "$kb" -lt 40000 ]; then
  t_pass "OTF2 writer memory bounded ($kb KiB for 4 M events)"
else
  t_fail "OTF2 writer memory bounded" "$kb KiB peak for 4 M events (want < 40000)"
fi
if command -v otf2-print >/dev/null 2>&1 && [ -f long.otf2 ]; then
  n=$(otf2-print long.otf2 2>/dev/null | grep -c -e '^ENTER' -e '^LEAVE')
  want=$("$PT" info long.ptf | awk '$1 == "enter" || $1 == "leave" {s += $2} END {print s}')
  [ "$n" = "$want" ] && t_pass "flushed OTF2 archive complete ($n enter/leave)" ||
    t_fail "flushed OTF2 archive complete" "otf2-print shows $n enter/leave, want $want"
fi

# A writer of many streams holds per stream only the block it is filling:
# zstd contexts and block buffers are shared (before: each stream kept its
# own context, 258 MB for 1,000 streams of 3,000 events; now ~45 MB).
kb=$(peak_kb "$PT" -q generate -o many.ptf --locations 1000 --events 3000 --seed 2)
if [ "$kb" = FAIL ]; then
  t_fail "writer memory per stream" "generate failed: $(head -c 300 rss.err)"
elif [ -z "$kb" ]; then
  t_pass "writer memory per stream (GNU time missing: skipped)"
elif nm -D "$PT" 2>/dev/null | grep -q __asan_init; then
  t_pass "writer memory per stream (sanitized build: $kb KiB, not checked)"
elif [ "$kb" -lt 150000 ]; then
  t_pass "writer memory per stream ($kb KiB for 1,000 streams)"
else
  t_fail "writer memory per stream" "$kb KiB peak for 1,000 streams (want < 150000)"
fi
rm -rf many.ptf

# Settings the recorder cannot use are said, never silently ignored (an
# unknown PARATRACE_MODE recorded nothing and printed nothing).
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
if command -v mpicc >/dev/null 2>&1 && [ -f "$B/lib/libparatrace-mpi.so" ] &&
   ! nm -D "$B/lib/libparatrace.so" 2>/dev/null | grep -q __asan_init &&
   mpicc -o pp "$SRC/tests/mpi/pingpong.c" 2>pp.err; then
  RUN="mpirun --allow-run-as-root --oversubscribe"
  for kv in PARATRACE_MODE=zz PARATRACE_CALLSITES=maybe \
            PARATRACE_DETAIL=MPI_Send=abc; do
    var=${kv%%=*}
    rm -rf bad.ptf
    env "$kv" $RUN -np 2 -x "$var" "$PT" record -o bad.ptf -- ./pp >bad.out 2>bad.err
    rc=$?
    if [ $rc = 0 ] && grep -q "paratrace: .*$var" bad.err; then
      t_pass "$kv: said on stderr"
    else
      t_fail "$kv: said on stderr" "exit $rc: $(head -c 300 bad.err)"
    fi
  done
  # a file at the output path: rank 0 refuses it, the launcher kills the
  # other ranks, and no rank tells the user to recover the file
  echo mine >afile
  $RUN -np 2 "$PT" record -o afile -- ./pp >af.out 2>af.err
  if grep -q 'already exists' af.err && ! grep -q 'paratrace recover' af.err &&
     [ "$(cat afile)" = mine ]; then
    t_pass "output path is a file: refused, kept, no recover hint"
  else
    t_fail "output path is a file: refused, kept, no recover hint" "$(head -c 400 af.err)"
  fi
  # derived datatypes created and freed in a loop: a freed type's id and
  # definition are taken by a new type with the same size and combiner
  # (each creation defined a new type: 1,000 definitions per rank here)
  if mpicc -o tc "$SRC/tests/mpi/typechurn.c" 2>tc.err &&
     $RUN -np 2 "$PT" record -o tc.ptf -- ./tc >tc.out 2>tc.err; then
    n=$("$PT" dump tc.ptf | grep -c 'user datatype')
    b=$("$PT" stats --csv tc.ptf | awk -F, '$1 == "location" {s += $6} END {print s}')
    if [ "$n" -le 4 ] && [ "$b" = 32000 ] && "$PT" -q check tc.ptf >/dev/null; then
      t_pass "datatype churn: $n definitions, bytes right"
    else
      t_fail "datatype churn" "$n user datatype definitions (want <= 4), $b bytes sent (want 32000)"
    fi
    # the combiner by name (its number was OpenMPI's: 3, SST DUMPI's
    # CONTIGUOUS, for the MPI_Type_vector types of pw.x's ScaLAPACK)
    "$PT" dump tc.ptf | grep 'value="user datatype' | sed 's/.*value="//' |
      sort -u >tc.defs
    printf '%s\n' 'user datatype, 16 bytes, MPI_COMBINER_CONTIGUOUS"' \
      'user datatype, 16 bytes, MPI_COMBINER_VECTOR"' >tc.want
    if cmp -s tc.want tc.defs; then
      t_pass "user datatypes: combiner by name"
    else
      t_fail "user datatypes: combiner by name" "$(cat tc.defs)"
    fi
  else
    t_fail "datatype churn run" "$(head -c 300 tc.err)"
  fi
  # communicators created and freed in a loop: those with the same members
  # share one group definition (before: one per communicator, 1,200 here)
  # and every communicator keeps its own id (messages all match)
  if mpicc -o cc "$SRC/tests/mpi/commchurn.c" 2>cc.err &&
     $RUN -np 4 "$PT" record -o cc.ptf -- ./cc >cc.out 2>cc.err; then
    g=$("$PT" info cc.ptf | awk '$1 == "group" {print $2}')
    c=$("$PT" info cc.ptf | awk '$1 == "comm" {print $2}')
    if [ "$g" -le 6 ] && [ "$c" -ge 900 ] &&
       "$PT" check cc.ptf >cc.chk 2>&1 && grep -q '1200 messages matched' cc.chk; then
      t_pass "communicator churn: $g group definitions for $c communicators, messages matched"
    else
      t_fail "communicator churn" "$g groups, $c comms (want <= 6 groups, >= 900 comms): $(tail -2 cc.chk)"
    fi
  else
    t_fail "communicator churn run" "$(head -c 300 cc.err)"
  fi
  # a communicator freed by one rank before and by the other after the
  # next one is created: every communicator keeps one id on both ranks
  # (reusing freed ids broke this once), so every message matches
  if mpicc -o co "$SRC/tests/mpi/commorder.c" 2>co.err &&
     $RUN -np 2 "$PT" record -o co.ptf -- ./co >co.out 2>co.err; then
    if "$PT" check co.ptf >co.chk 2>&1 && grep -q '12 messages matched' co.chk; then
      t_pass "communicators freed in different orders: messages matched"
    else
      t_fail "communicators freed in different orders" "$(tail -2 co.chk)"
    fi
  else
    t_fail "communicator order run" "$(head -c 300 co.err)"
  fi
else
  t_pass "recorder settings (no mpicc or MPI recorder, or a sanitized build: skipped)"
fi

t_done
