#!/bin/sh
# Perfetto / Chrome JSON: for generated traces and the real test vectors,
# the output parses as JSON, B/E slices nest per thread, and flow events
# pair up one to one with the matched messages (paratrace check's count).
. "$(dirname "$0")/common.inc"
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
command -v python3 >/dev/null || { echo "FAIL perfetto: python3 missing"; exit 1; }

cat >validate.py <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
ev = d["traceEvents"]
stacks, s_ids, f_ids = {}, {}, {}
for e in ev:
    ph, key = e["ph"], (e.get("pid"), e.get("tid"))
    if ph == "B":
        stacks.setdefault(key, []).append(e["name"])
    elif ph == "E":
        st = stacks.get(key)
        assert st and st[-1] == e["name"], "bad nesting at %r" % (e,)
        st.pop()
    elif ph == "s":
        assert e["id"] not in s_ids, "flow start twice"
        s_ids[e["id"]] = e
    elif ph == "f":
        assert e["id"] in s_ids and e["id"] not in f_ids, "unpaired flow end"
        assert e["ts"] >= s_ids[e["id"]]["ts"], "flow goes back in time"
        f_ids[e["id"]] = e
assert all(not s for s in stacks.values()), "unclosed slices"
assert len(f_ids) == want and len(s_ids) == want, \
    "%d flow starts, %d ends, want %d" % (len(s_ids), len(f_ids), want)
PY

n=0
for src in gen "$TD"/dumpi/b_ring_nonblocking/*.meta "$TD"/dumpi/a_pingpong/*.meta \
           "$TD"/otf/b_msgs_2streams/trace/*.otf "$TD"/picl/ring_async_sync.trf; do
  n=$((n + 1))
  if [ "$src" = gen ]; then
    "$PT" -q generate -o in$n.ptf --locations 3 --events 20000 --seed 5 || { t_fail gen "generate"; continue; }
  else
    [ -e "$src" ] || continue
    "$PT" -q convert "$src" -o in$n.ptf || { t_fail "in$n" "convert $src"; continue; }
  fi
  msgs=$("$PT" -q check in$n.ptf | sed -n 's/.* \([0-9]*\) messages matched.*/\1/p')
  ok "json$n" "$PT" -q convert in$n.ptf -o out$n.json || continue
  python3 validate.py out$n.json "${msgs:-0}" >v$n.txt 2>&1 &&
    t_pass "valid$n" || t_fail "valid$n" "$(tail -1 v$n.txt)"
done
# --to perfetto to stdout works too
"$PT" -q convert in1.ptf -o - --to perfetto | python3 -c 'import json,sys; json.load(sys.stdin)' &&
  t_pass stdout || t_fail stdout "stdout JSON does not parse"
# metric samples JSON cannot hold (NaN, infinity) are left out and counted,
# not written as 0
cat >nan.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def metric id=0 type=3 base=10 name="m"
event 100 0 metric metric=0 value=d:1.5
event 101 0 metric metric=0 value=d:nan
event 102 0 metric metric=0 value=d:-inf
TXT
"$PT" convert nan.txt -o nan.json >nan.out 2>&1 &&
  python3 -c 'import json,sys; d=json.load(open("nan.json")); c=[e for e in d["traceEvents"] if e.get("ph")=="C"]; sys.exit(0 if len(c)==1 and c[0]["args"]["value"]==1.5 else 1)' &&
  grep -q '2 metric samples not a finite number' nan.out && t_pass nonfinite_metrics_left_out ||
  t_fail nonfinite_metrics_left_out "$(cat nan.out; grep '"C"' nan.json)"
# a failed write names the output and the reason (before: "perfetto
# writer: write failed"), and a file output is not left behind
"$PT" -q generate -o wf.ptf --locations 2 --events 2000 --seed 1 ||
  t_fail perfetto_write_fails "generate failed"
if [ -w /dev/full ]; then
  fails_cleanly perfetto_full_stdout 1 \
    '^paratrace convert: stdout: write failed: No space left on device$' \
    sh -c 'exec "$0" -q convert --to perfetto wf.ptf -o - >/dev/full' "$PT"
fi
if (ulimit -f 40) 2>/dev/null; then
  fails_cleanly perfetto_file_too_large 1 \
    '^paratrace convert: wf.json: write failed: File too large$' \
    sh -c 'trap "" XFSZ; ulimit -f 40 && exec "$0" -q convert wf.ptf -o wf.json' "$PT"
  [ -z "$(ls -d wf.json* 2>/dev/null)" ] && t_pass perfetto_file_too_large_nothing_left ||
    t_fail perfetto_file_too_large_nothing_left "$(ls -d wf.json*)"
fi
t_done
