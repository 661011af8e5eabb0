#!/bin/sh
# paratrace timeline: HTML and SVG outputs, windows and locations,
# aggregation of a large trace under the size limit, bad input; and a
# browser test: headless Chromium loads the page (self-test mode) and
# reports rows drawn, a message line, a zoom that changed the visible
# range, no script errors; a screenshot goes to $BUILD/timeline.png.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
# the embedded viewer is generated from src/analysis/timeline.js
sh "$SRC/scripts/gen-timeline-js.sh" "$SCRATCH/js.c" &&
  cmp -s "$SCRATCH/js.c" "$SRC/src/analysis/timeline_js.c" &&
  t_pass "timeline_js.c up to date" ||
  t_fail "timeline_js.c up to date" "run scripts/gen-timeline-js.sh"
ok "generate" "$PT" generate -o g.ptf --locations 5 --events 4000 --seed 3
ok "html" "$PT" timeline g.ptf -o v.html
ok "svg" "$PT" timeline g.ptf --svg v.svg
grep -q 'window.PT_DATA' v.html && t_pass "html has its data" || t_fail "html data" "none"
if grep -q 'src=\|href=\|http://\|https://\|@import' v.html; then
  t_fail "html self-contained" "$(grep -o 'src=[^ ]*\|href=[^ ]*\|https\?://[^ ]*' v.html | head -2)"
else t_pass "html self-contained"; fi
n=$(grep -m1 '^"rows": \[' v.html | tr ',' '\n' | grep -c .)
[ "$n" = 5 ] && t_pass "html: 5 rows" || t_fail "html rows" "$n"
python3 - v.svg <<'PY' && t_pass "svg is XML" || t_fail "svg is XML" "parse error"
import sys, xml.dom.minidom
xml.dom.minidom.parse(sys.argv[1])
PY
# -o NAME.svg writes the SVG the name says, byte for byte what --svg
# writes (before: the HTML page under an .svg name); with --svg as well,
# a usage error
ok "svg by -o" "$PT" timeline g.ptf -o o.svg
cmp -s o.svg v.svg && t_pass "-o NAME.svg: the SVG" ||
  t_fail "-o NAME.svg: the SVG" "$(head -c 40 o.svg)"
"$PT" timeline g.ptf -o o2.svg --svg o3.svg 2>err; rc=$?
[ $rc = 2 ] && [ ! -e o2.svg ] && [ ! -e o3.svg ] &&
  t_pass "-o NAME.svg with --svg: usage error" ||
  t_fail "-o NAME.svg with --svg: usage error" "exit $rc $(cat err)"
"$PT" timeline g.ptf -o v.html 2>err; rc=$?
[ $rc != 0 ] && grep -q 'exists' err && t_pass "existing output kept" ||
  t_fail "existing output kept" "exit $rc"
ok "force" "$PT" timeline --force g.ptf -o v.html
ok "window and locations" "$PT" timeline g.ptf -o w.html --from 1ms --to 2ms --locations 1,3
n=$(grep -m1 '^"rows": \[' w.html | tr ',' '\n' | grep -c .)
[ "$n" = 2 ] && t_pass "window: 2 rows" || t_fail "window rows" "$n"
# a window's times read from the trace's start, as --from counts them
# (LAMMPS cut at 2 s read "0 ns .. 50 ms"): the SVG's axis starts at
# 0.001 s, the page's data carries the window's offset
ok "window svg" "$PT" timeline g.ptf --svg w.svg --from 1ms --to 2ms --locations 1,3
first=$(grep -o '<text x="[0-9.]*" y="30">[^<]*</text>' w.svg | head -1 | sed 's/.*">//; s/<.*//')
if [ "$first" = "0.001 s" ] && grep -q '"origin": 1000000,' w.html; then
  t_pass "window: times from the trace's start"
else t_fail "window: times from the trace's start" "axis from '$first', $(grep -o '"origin": [0-9]*' w.html)"; fi
# a large trace: aggregated, the file bounded
ok "generate large" "$PT" generate -o big.ptf --locations 8 --events 400000 --seed 4
ok "large html" "$PT" timeline big.ptf -o big.html --max-events 20000
sz=$(wc -c <big.html)
if [ "$sz" -lt 3000000 ] && grep -q '"agg": true' big.html; then
  t_pass "large: aggregated, $sz bytes"
else t_fail "large" "$sz bytes, $(grep -o '"agg": [a-z]*' big.html)"; fi
# aggregated with every message drawn (9,505 visits over the limit, 395
# messages under its quarter): the page says so, not "1 in 1 messages
# drawn" (as it did for HPC Challenge's 29,653 messages)
ok "aggregated, all messages" "$PT" timeline g.ptf -o agg1.html --max-events 4000
grep -q '"agg": true, "sample": 1,' agg1.html && t_pass "agg1: aggregated, sample 1" ||
  t_fail "agg1: aggregated, sample 1" "$(grep -o '"agg": [a-z]*, "sample": [0-9]*' agg1.html)"
# many messages, few collectives: the messages are sampled, the
# collectives are not (ABySS's 313,674 messages thinned its 292
# collective ends to 41, drawn on each rank for different instances;
# the page said only "a sample of the messages").  2 ranks, 200 messages,
# 20 Allreduce each; --max-events 200: 51 messages, 51 collective ends
{
  echo '# paratrace text 1'
  echo 'stream 0 location=0'
  echo 'stream 1 location=1'
  echo 'def clock ticks_per_second=1000000000'
  echo 'def location_group id=0 system_node=none creator=none rank=0 name="rank 0"'
  echo 'def location_group id=1 system_node=none creator=none rank=1 name="rank 1"'
  echo 'def location id=0 group=0 name="rank 0"'
  echo 'def location id=1 group=1 name="rank 1"'
  echo 'def region id=1 role=6 paradigm=3 name="MPI_Send"'
  echo 'def region id=2 role=6 paradigm=3 name="MPI_Recv"'
  echo 'def region id=3 role=8 paradigm=3 name="MPI_Allreduce"'
  i=0
  while [ $i -lt 200 ]; do
    t=$((i * 1000 + 1000))
    echo "event $t 0 enter region=1"
    echo "event $((t + 10)) 0 send callsite=0 peer=1 comm=2 tag=1 bytes=8"
    echo "event $((t + 20)) 0 leave region=1"
    echo "event $t 1 enter region=2"
    echo "event $((t + 30)) 1 recv callsite=0 peer=0 comm=2 tag=1 bytes=8"
    echo "event $((t + 40)) 1 leave region=2"
    if [ $((i % 10)) = 9 ]; then
      for l in 0 1; do
        echo "event $((t + 100)) $l enter region=3"
        echo "event $((t + 100)) $l coll_begin"
        echo "event $((t + 200)) $l coll_end op=11 root=-1 comm=2 sent=8 received=8"
        echo "event $((t + 200)) $l leave region=3"
      done
    fi
    i=$((i + 1))
  done
} >colls.txt
"$PT" timeline colls.txt -o colls.html --max-events 200 2>err
if grep -q ': 2 locations, .* messages (a sample), 40 collectives$' err &&
   grep -q '"coll_sample": 1,' colls.html; then
  t_pass "messages sampled, every collective drawn"
else t_fail "messages sampled, every collective drawn" "$(cat err)"; fi
# more collectives than their budget: each row draws its own k-th, so a
# drawn collective is drawn on both ranks (a count over all rows drew
# rank 0's for one instance and rank 1's for the next)
"$PT" timeline colls.txt -o colls2.html --max-events 100 2>err
python3 - colls2.html <<'PY' && t_pass "sampled collectives: the same instances on every row" ||
import re, sys
page = open(sys.argv[1]).read()
c = page[page.index('"colls": [') + 10:]
v = [int(x) for x in c[:c.index(']')].split(',') if x.strip()]
rows = {}
for k in range(0, len(v), 5):
    rows.setdefault(v[k], []).append(v[k + 3])
assert len(v) // 5 < 40, "not sampled"
assert sorted(rows) == [0, 1] and rows[0] == rows[1], rows
PY
  t_fail "sampled collectives: the same instances on every row" "$(cat err)"
# rank 0 also in collectives of a communicator of its own (every third
# step a barrier on comm 1): a count per row over all communicators drew
# rank 0's k-th and rank 1's k-th, different MPI_Allreduce instances (3 of
# 13 and 10 in common); counted per communicator, the same ones
{
  sed -n '1,8p' colls.txt
  echo 'def region id=3 role=8 paradigm=3 name="MPI_Allreduce"'
  echo 'def region id=4 role=8 paradigm=3 name="MPI_Barrier"'
  i=0
  while [ $i -lt 40 ]; do
    t=$((i * 1000 + 1000))
    if [ $((i % 3)) = 0 ]; then
      echo "event $((t + 10)) 0 enter region=4"
      echo "event $((t + 10)) 0 coll_begin"
      echo "event $((t + 20)) 0 coll_end op=0 root=-1 comm=1 sent=0 received=0"
      echo "event $((t + 20)) 0 leave region=4"
    fi
    for l in 0 1; do
      echo "event $((t + 100)) $l enter region=3"
      echo "event $((t + 100)) $l coll_begin"
      echo "event $((t + 200)) $l coll_end op=11 root=-1 comm=2 sent=8 received=8"
      echo "event $((t + 200)) $l leave region=3"
    done
    i=$((i + 1))
  done
} >subcomm.txt
"$PT" timeline subcomm.txt -o subcomm.html --max-events 100 2>err
python3 - subcomm.html <<'PY' && t_pass "sampled collectives: the same instances per communicator" ||
import sys
page = open(sys.argv[1]).read()
assert '"coll_sample": 1,' not in page, "not sampled"
c = page[page.index('"colls": [') + 10:]
v = [int(x) for x in c[:c.index(']')].split(',') if x.strip()]
rows = {}
for k in range(0, len(v), 5):
    if v[k + 1] == 11:
        rows.setdefault(v[k], []).append(v[k + 3])
assert sorted(rows) == [0, 1] and rows[0] == rows[1], rows
PY
  t_fail "sampled collectives: the same instances per communicator" "$(cat err)"
# bad input
"$PT" timeline no-such.ptf -o x.html 2>err; rc=$?
[ $rc = 1 ] && grep -q 'no-such.ptf' err && [ ! -e x.html ] &&
  t_pass "missing trace: error, no output" || t_fail "missing trace" "exit $rc"
"$PT" timeline g.ptf 2>/dev/null; rc=$?
[ $rc = 2 ] && t_pass "no output: usage" || t_fail "no output" "exit $rc"
"$PT" timeline g.ptf -o y.html --from 2ms --to 1ms 2>/dev/null; rc=$?
[ $rc = 1 ] && [ ! -e y.html ] && t_pass "empty window: error" || t_fail "empty window" "exit $rc"
printf 'garbage\n' >bad.txt
"$PT" timeline bad.txt -o z.html 2>err; rc=$?
[ $rc != 0 ] && [ ! -e z.html ] && ! ls z.html.tmp* >/dev/null 2>&1 &&
  t_pass "bad trace: error, nothing half-written" || t_fail "bad trace" "exit $rc"
# the browser
CH=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CH" ]; then
  t_fail "browser" "chromium not installed (scripts/install-deps.sh installs it)"
  t_done
fi
browse() { # url out-file [extra args]
  url=$1; shift
  timeout 120 "$CH" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d)" "$@" "$url" 2>>chrome.err
}
for page in v.html big.html agg1.html; do
  browse "file://$PWD/$page#selftest" --dump-dom >dom.txt
  # the line above the drawing: how many messages an aggregated page drew
  range=$(sed -n 's/.*<div id="range">\([^<]*\)<.*/\1/p' dom.txt)
  sample=$(grep -o '"sample": [0-9]*' $page | grep -o '[0-9]*$')
  case $page:$sample in
    v.html:*) want="showing" ;;
    *:1) want="(aggregated: one bar per pixel bin, every message drawn)" ;;
    *) want="(aggregated: one bar per pixel bin, 1 in $sample messages drawn)" ;;
  esac
  case $range in
    *"$want"*) t_pass "browser $page: says $want" ;;
    *) t_fail "browser $page: says $want" "$range" ;;
  esac
  verdict=$(sed -n 's/.*<pre id="selftest">\([^<]*\)<.*/\1/p' dom.txt)
  rows=$(echo "$verdict" | sed -n 's/.*"rows":\([0-9]*\).*/\1/p')
  want=$(echo "$verdict" | sed -n 's/.*"expected_rows":\([0-9]*\).*/\1/p')
  msgs=$(echo "$verdict" | sed -n 's/.*"messages":\([0-9]*\).*/\1/p')
  if [ -n "$rows" ] && [ "$rows" = "$want" ] && [ "$rows" -gt 0 ]; then
    t_pass "browser $page: $rows rows drawn"
  else t_fail "browser $page: rows" "$verdict"; fi
  [ "${msgs:-0}" -gt 0 ] && t_pass "browser $page: message lines ($msgs)" ||
    t_fail "browser $page: message lines" "$verdict"
  echo "$verdict" | grep -q '"zoomed":true' && t_pass "browser $page: zoom changes the range" ||
    t_fail "browser $page: zoom" "$verdict"
  echo "$verdict" | grep -q '"errors":\[\]' && t_pass "browser $page: no script errors" ||
    t_fail "browser $page: script errors" "$verdict"
done
browse "file://$PWD/w.html" --dump-dom >wdom.txt
if grep -q 'id="range">showing 1.000 ms .. 2.000 ms (1.000 ms of 1.000 ms)' wdom.txt; then
  t_pass "browser w.html: the window shown from the trace's start"
else t_fail "browser w.html: the window's times" "$(grep -o 'id="range">[^<]*' wdom.txt)"; fi
rm -f "$B/timeline.png"
browse "file://$PWD/v.html" --window-size=1400,900 --screenshot="$B/timeline.png" >/dev/null
[ -s "$B/timeline.png" ] && t_pass "screenshot $B/timeline.png" ||
  t_fail "screenshot" "none written"
t_done
