#!/bin/sh
# The real DUMPI writer's quirks (testdata/README.md, dumpi/FORMAT-NOTES.md)
# on the test vectors: the reader survives them, `paratrace check` passes
# and reports each as a warning naming the file, the position (offset and
# call number) and the reason; a .bin cut short (an aborted program leaves
# no trailing index) still reads.
. "$(dirname "$0")/common.inc"
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
[ -d "$TD/dumpi" ] || { echo "PASS dumpi_quirks_skipped_no_testdata"; t_done; }
chk() { # case -> check output in $1.out, exit status in $1.rc
  meta=$(ls "$TD"/dumpi/"$1"/*.meta | head -1)
  "$PT" check "$meta" >"$1.out" 2>&1
  echo $? >"$1.rc"
}
for c in b_ring_nonblocking d_probe_mix; do
  chk $c
  [ "$(cat $c.rc)" = 0 ] && t_pass "$c: check passes" ||
    t_fail "$c: check passes" "$(grep -v warning $c.out | head -2)"
done
grep -q 'warning: .*-000[0-9]\.bin: offset [0-9]* (call [0-9]*): request id [0-9]* reused while still outstanding' \
  b_ring_nonblocking.out && t_pass "reused request id: warning with position" ||
  t_fail "reused request id" "$(grep -m1 reused b_ring_nonblocking.out)"
grep -q 'warning: .*\.bin: offset [0-9]* (call [0-9]*): MPI_Waitany: status error field [0-9]* where MPI leaves it unset' \
  b_ring_nonblocking.out && t_pass "garbage status error: warning with position" ||
  t_fail "garbage status error" "$(grep -m1 status b_ring_nonblocking.out)"
grep -q 'MPI_Sendrecv: status error field' d_probe_mix.out &&
  t_pass "garbage status error in Sendrecv" || t_fail "garbage status error in Sendrecv" "none"
# a file without its trailing index (what an abort leaves): cut the tail
meta=$(ls "$TD"/dumpi/a_pingpong/*.meta | head -1)
d=$(dirname "$meta")
mkdir -p cut
cp "$d"/*.meta "$d"/*.bin cut/
b=$(ls cut/*-0001.bin)
size=$(wc -c <"$b")
head -c $((size * 2 / 3)) "$b" >"$b.tmp" && mv "$b.tmp" "$b"
"$PT" info "cut/$(basename "$meta")" >cut.out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q 'warning' cut.out; then t_pass "cut file reads, with a warning"
else t_fail "cut file" "exit $rc: $(head -3 cut.out)"; fi
t_done
