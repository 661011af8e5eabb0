#!/bin/sh
# Many OTF2 regions whose role and paradigm the model has no exact value
# for (Score-P writes such for MPI collectives, HIP and CUDA: role
# COLL_ONE2ALL, paradigm HIP...): the reader keeps them as key-values, added
# while it reads the region definition.  It read the region's paradigm
# through a pointer into the array of definitions after adding the role's
# key-value, which can move that array: a heap-use-after-free that
# AddressSanitizer showed on Score-P traces (LLNL pipit's ping-pong with
# PAPI, an AMD MI300 HIP trace).  An archive written with libotf2 by
# tests/otf2/regions.c goes OTF2 -> PTF -> OTF2: no crash nor sanitizer
# report, no invalid read under valgrind (when there is one and the build
# is not sanitized), every region's role and paradigm kept.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
command -v otf2-print >/dev/null 2>&1 ||
  { t_fail setup "otf2-print missing (scripts/install-deps.sh installs otf2-tools)"; t_done; }
${CC:-cc} -std=c11 -o gen "$SRC/tests/otf2/regions.c" -lotf2 2>gen.err ||
  { t_fail setup "cannot build tests/otf2/regions.c: $(head -c 300 gen.err)"; t_done; }
ok generate ./gen arch || t_done

"$PT" -q convert arch/traces.otf2 -o r.ptf >conv.out 2>conv.err; rc=$?
if crashed conv.err "$rc"; then t_fail to_ptf "crashed (exit $rc): $(head -c 400 conv.err)"
elif [ "$rc" -ne 0 ]; then t_fail to_ptf "exit $rc: $(head -c 300 conv.err)"
else t_pass to_ptf; fi
ok to_otf2 "$PT" -q convert r.ptf -o r.otf2 || t_done

# the definitions: every REGION line the same up to string ids
regions() { otf2-print -G "$1" | grep '^REGION ' | sed -e 's/ <[0-9][0-9]*>//g'; }
regions arch/traces.otf2 >want.txt
regions r.otf2 >got.txt
n=$(grep -c 'Role: COLL_ONE2ALL, Paradigm: HIP' want.txt)
[ "$(wc -l <want.txt)" -eq 3000 ] && [ "$n" -gt 100 ] && cmp -s want.txt got.txt &&
  t_pass regions_kept || t_fail regions_kept "$n; $(diff want.txt got.txt | head -4)"

# Commands that read the definitions (the clock) before the events open
# the archive twice (check, slice): the first time for the definitions
# only.  The global event reader, made at open, read ahead the first record
# of every location, and libotf2 leaks a ProgramBegin's argument array when
# it is closed before handing it out (LeakSanitizer on Score-P traces); it
# is made at the first event now.  (A sanitized build reports the leak.)
for c in check "slice --from 10us --to 20us -o s.ptf"; do
  n=$(echo "$c" | cut -d' ' -f1)
  # shellcheck disable=SC2086
  "$PT" $c arch/traces.otf2 >"$n.out" 2>"$n.err"; rc=$?
  if crashed "$n.err" "$rc"; then t_fail "defs_first_$n" "$(grep -m3 -e Sanitizer -e '#[01] ' "$n.err")"
  elif [ "$rc" -ne 0 ]; then t_fail "defs_first_$n" "exit $rc: $(head -c 300 "$n.err")"
  else t_pass "defs_first_$n"; fi
done

if command -v valgrind >/dev/null 2>&1 && ! nm -D "$PT" 2>/dev/null | grep -q __asan_init &&
   ! nm "$PT" 2>/dev/null | grep -q __asan_init; then
  valgrind -q --error-exitcode=9 "$PT" -q info arch/traces.otf2 >vg.out 2>vg.err; rc=$?
  [ "$rc" -eq 0 ] && t_pass valgrind_clean ||
    t_fail valgrind_clean "exit $rc: $(grep -m3 -e 'Invalid' -e ' at ' vg.err)"
fi
t_done
