#!/bin/sh
# One-sided (RMA) events through the exports that dropped them:
# - OTF 1.x: puts and gets become RMAPut / RMAGet records that the OTF
#   library's otfprint reads (window as the tag) and our reader reads back
#   as the same puts and gets; atomics (no OTF record) are dropped with a
#   counted warning; RMAPutRemoteEnd / RMAEnd records and an origin other
#   than the process itself are read (skipped with one counted warning /
#   kept in otf:origin and written back);
# - PICL: left out, one warning with the count of each kind;
# - Perfetto: instant events of category "rma" with window, target, bytes.
# Before, OTF dropped all three kinds (and the reader skipped every RMA
# record with a warning each), PICL said only "'rma_put' events have no
# PICL record", Perfetto wrote nothing for them.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
IN=$SRC/tests/golden/ptf/v3.expect # a put, a get and a fetch-and-op

# ---- OTF 1.x
mkdir o
ok "otf write" "$PT" convert "$IN" -o o/t.otf
if grep -q '1 rma_atomic events have no OTF record; dropped' "otf write.err" &&
   ! grep -q 'rma_put\|rma_get' "otf write.err"; then
  t_pass "otf: only the atomic dropped, counted"
else
  t_fail "otf: only the atomic dropped, counted" "$(cat "otf write.err")"
fi
"$PT" dump o/t.otf >o.txt 2>o.err
if grep -q '^event 110 1 rma_put window=1 target=1 comm=[0-9]* bytes=64 matching=0$' o.txt &&
   grep -q '^event 130 2 rma_get window=1 target=0 comm=[0-9]* bytes=40 matching=0$' o.txt &&
   [ "$(grep -c ' rma_' o.txt)" = 2 ] && [ ! -s o.err ]; then
  t_pass "otf: puts and gets read back"
else
  t_fail "otf: puts and gets read back" "$(grep rma o.txt; cat o.err)"
fi
if command -v otfprint >/dev/null 2>&1; then
  otfprint o/t.otf >p.txt 2>p.err
  if grep -q 'RMAPut: origin 1, target 2, communicator [0-9]*, tag 1, bytes 64' p.txt &&
     grep -q 'RMAGet: origin 2, target 1, communicator [0-9]*, tag 1, bytes 40' p.txt; then
    t_pass "otf: the OTF library reads the RMA records"
  else
    t_fail "otf: the OTF library reads the RMA records" "$(grep -i rma p.txt; head -3 p.err)"
  fi
else
  t_pass "otf: otfprint not installed (library check skipped)"
fi
# a remote end and an end record (skipped, counted once) and a put on
# behalf of process 2 (origin kept)
ev=$(ls o/t.*.events | head -1)
sed 's/^T0P2C\(.*\)$/T0P2C\1\nU0P2C\1\nT2P2C\1\nM2C40000002T1/' "$ev" >ev.tmp &&
  mv ev.tmp "$ev"
"$PT" dump o/t.otf >o2.txt 2>o2.err
if [ "$(grep -c ' rma_put ' o2.txt)" = 2 ] &&
   grep -q 'rma_put window=1 target=1 .*{[0-9]*=u:2}$' o2.txt &&
   [ "$(grep -c . o2.err)" = 1 ] &&
   grep -q '1 RMA put remote-end (U) and 1 RMA end (M) records skipped' o2.err; then
  t_pass "otf: U / M skipped with one counted warning, origin kept"
else
  t_fail "otf: U / M skipped with one counted warning, origin kept" "$(grep rma o2.txt; cat o2.err)"
fi
"$PT" convert o/t.otf -o o2.ptf 2>/dev/null && mkdir o3 &&
  "$PT" convert o2.ptf -o o3/t.otf 2>/dev/null
if grep -q '^T2P2C' o3/t.*.events && grep -q '^T0P2C' o3/t.*.events; then
  t_pass "otf: origin written back"
else
  t_fail "otf: origin written back" "$(grep '^[TG]' o3/t.*.events)"
fi

# ---- PICL
ok "picl write" "$PT" convert "$IN" -o t.picl
if [ "$(grep -c . "picl write.err")" = 1 ] &&
   grep -q 'picl: 3 one-sided (RMA) operations have no PICL record and were left out (1 puts, 1 gets, 1 atomics)' "picl write.err"; then
  t_pass "picl: one counted warning"
else
  t_fail "picl: one counted warning" "$(cat "picl write.err")"
fi

# ---- Perfetto
ok "perfetto write" "$PT" convert "$IN" --to perfetto -o t.json
if command -v python3 >/dev/null 2>&1; then
  got=$(python3 -c '
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("cat") == "rma"]
for e in ev:
    a = e["args"]
    print(e["ph"], e["tid"], e["name"], a["window"], a["target"], a.get("bytes", "-"),
          a.get("sent", "-"), a.get("received", "-"))
' t.json 2>&1)
  want="i 0 put 1 1 64 - -
i 1 get 1 0 40 - -
i 1 fetch_and_accumulate 1 0 - 8 8"
  if [ "$got" = "$want" ]; then t_pass "perfetto: one-sided operations as instant events"
  else t_fail "perfetto: one-sided operations as instant events" "$got"; fi
else
  t_fail "perfetto" "python3 missing"
fi
t_done
