#!/bin/sh
# PTF archives of each format version this reader takes (doc/format.md):
# tests/golden/ptf/v2.ptf was written by the version-2 writer (before the
# one-sided RMA_* event kinds), v3.ptf by version 3 with one of each RMA_*
# kind.  Each dumps as its .expect file says, passes check, and the
# version-3 one's one-sided bytes are counted by stats.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
G=$SRC/tests/golden/ptf
for v in 2 3; do
  # (a copy: reading never writes, but the golden files stay untouched)
  rm -rf "v$v.ptf" && cp -r "$G/v$v.ptf" "v$v.ptf"
  ok "v$v dump" "$PT" dump "v$v.ptf" >"v$v.txt"
  if cmp -s "v$v.txt" "$G/v$v.expect"; then t_pass "v$v dump as expected"
  else t_fail "v$v dump as expected" "$(diff "$G/v$v.expect" "v$v.txt" | head -5)"; fi
  ok "v$v check" "$PT" check "v$v.ptf" >/dev/null
  got=$("$PT" info "v$v.ptf" | awk '$1 == "version" { print $2 }')
  [ "$got" = "$v" ] && t_pass "v$v info version" ||
    t_fail "v$v info version" "'$got'"
done
# version 3: a put of 64 bytes 0 -> 1, a get of 40 bytes from 0 by 1, a
# fetch-and-op of 8 bytes each way between 1 and 0
"$PT" stats --csv v3.ptf >v3.csv
got=$(awk -F, '$1 == "message" { printf "%s>%s %s %s;", $2, $3, $5, $6 }
               $1 == "mpi_callsite" { printf "%s %s %s;", $3, $11, $15 }' v3.csv)
want='"MPI_Put" 64 0;"MPI_Get" 0 40;"MPI_Fetch_and_op" 8 8;0>1 3 112;1>0 1 8;'
[ "$got" = "$want" ] && t_pass "v3 stats: one-sided bytes" ||
  t_fail "v3 stats: one-sided bytes" "$got"
# a version this reader does not know is refused with a clear error
rm -rf v9.ptf && cp -r "$G/v3.ptf" v9.ptf
sed 's/^version = 3$/version = 9/' "$G/v3.ptf/anchor" >v9.ptf/anchor
if "$PT" dump v9.ptf >/dev/null 2>v9.err; then
  t_fail "v9 refused" "read"
elif grep -q "unsupported version '9' (this reader: 2 to 3)" v9.err; then
  t_pass "v9 refused"
else
  t_fail "v9 refused" "$(head -c 200 v9.err)"
fi
t_done
