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
t_done
