#!/bin/sh
# stats' Metrics section: known answers on a hand-written trace (an
# accumulated counter sampled at every enter and leave, before and after
# the event; a gauge and a relative counter on a metric-only location):
# per metric, per location and per region rows in CSV, JSON and the text
# table; the metric location not listed in the Locations table; a window
# (full scan and from summaries equal); and the libotf2 archive with PAPI counters and a power
# gauge in ../shared/testdata.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
TD=${PT_SRCDIR:-$SRC}/../shared/testdata
HAVE_JSON=0
command -v python3 >/dev/null 2>&1 && HAVE_JSON=1

# loc 0: A [0, 100) containing B [10, 30) and B [40, 45); counter "ins"
# sampled at each enter and leave (after the event at 0, 30, 100; before
# it at 10, 40, 45).  loc 5, a metric location: gauge "power" (W), a
# relative counter "rel".
cat >m.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 type=1 name="thread 0"
def location id=5 group=0 type=3 name="power"
def region id=1 name="A"
def region id=2 name="B"
def metric id=0 scope=none type=2 mode=1 name="ins" unit="#"
def metric id=1 scope=none type=3 mode=0 name="power" unit="W"
def metric id=2 scope=none type=1 mode=2 name="rel" unit=""
event 0 0 enter region=1
event 0 0 metric metric=0 value=u:100
event 10 0 metric metric=0 value=u:150
event 10 0 enter region=2
event 20 5 metric metric=1 value=d:10.5
event 20 5 metric metric=2 value=i:3
event 30 0 leave region=2
event 30 0 metric metric=0 value=u:350
event 40 0 metric metric=0 value=u:400
event 40 0 enter region=2
event 45 0 metric metric=0 value=u:450
event 45 0 leave region=2
event 60 5 metric metric=1 value=d:20.5
event 60 5 metric metric=2 value=i:4
event 90 5 metric metric=1 value=d:15
event 100 0 leave region=1
event 100 0 metric metric=0 value=u:1100
TXT

# ---- CSV: exact rows ----------------------------------------------------------
cat >m.want <<'TXT'
metric,0,"ins","#",uint64,accumulated,,6,1,100,425,1100,0,0,0,100,1000,10000
metric,1,"power","W",double,absolute,,3,1,10.5,15.333333333333334,20.5,5,5,20,90,,
metric,2,"rel","",int64,relative,,2,1,3,3.5,4,5,5,20,60,7,175
metric_location,0,"ins","#",uint64,accumulated,0,6,1,100,425,1100,0,0,0,100,1000,10000
metric_location,1,"power","W",double,absolute,5,3,1,10.5,15.333333333333334,20.5,5,5,20,90,,
metric_location,2,"rel","",int64,relative,5,2,1,3,3.5,4,5,5,20,60,7,175
metric_region,0,"ins",1,"A",1,1000,1000,1000
metric_region,0,"ins",2,"B",2,250,50,200
TXT
ok csv "$PT" stats --csv m.txt >m.csv &&
  { grep '^metric' m.csv >m.got
    if cmp -s m.want m.got; then t_pass csv_rows
    else t_fail csv_rows "$(diff m.want m.got | head -20)"; fi; }

# ---- text: the section, per region; the metric location not in Locations -------
ok table "$PT" stats m.txt >m.out
if grep -q '^Metrics (samples' m.out &&
   grep -Eq '^ins +# +accumulated +6 +1 +100 +425 +1100 +0 +0 +1000 +10000$' m.out &&
   grep -Eq '^power +W +absolute +3 +1 +10.5 +15.3333 +20.5 +5 +5 +- +-$' m.out &&
   grep -Eq '^ins +B +2 +250 +125 +50 +200 +25.00$' m.out &&
   grep -q '^(1 metric location without regions or messages not listed' m.out &&
   ! awk '/^Locations/ {on = 1} on && $1 == "5" {bad = 1} END {exit !bad}' m.out
then t_pass table_sections
else t_fail table_sections "$(sed -n '/^Metrics/,$p' m.out | head -30)"; fi

# ---- JSON ------------------------------------------------------------------------
if [ $HAVE_JSON = 1 ]; then
  "$PT" stats --json m.txt >m.json &&
    python3 - <<'PY' && t_pass json || t_fail json "$(head -c 400 m.json)"
import json
d = json.load(open("m.json"))
m = {x["name"]: x for x in d["metrics"]}
assert m["ins"]["increase"] == 1000 and m["ins"]["rate_per_second"] == 10000
assert m["power"]["increase"] is None and m["power"]["max"] == 20.5
assert [x["location"] for x in d["metric_locations"]] == [0, 5, 5]
r = d["metric_regions"]
assert [(x["region_name"], x["visits"], x["delta"]) for x in r] == \
    [("A", 1, 1000), ("B", 2, 250)]
PY
fi

# ---- JSON stays JSON when sums overflow (a mean, an increase, a rate: inf)
cat >big.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 type=1 name="thread 0"
def metric id=1 scope=none type=3 mode=0 name="g" unit=""
def metric id=2 scope=none type=3 mode=1 name="c" unit=""
event 0 0 metric metric=1 value=d:1e308
event 0 0 metric metric=2 value=d:-1.5e308
event 1 0 metric metric=1 value=d:1.5e308
event 1 0 metric metric=2 value=d:1.5e308
TXT
if [ $HAVE_JSON = 1 ]; then
  "$PT" stats --json big.txt >big.json &&
    python3 - <<'PY' && t_pass json_overflow || t_fail json_overflow "$(grep '"g"\|"c"' big.json | head -c 600)"
import json
def strict(x):
    raise ValueError("not JSON: " + x)
d = json.load(open("big.json"), parse_constant=strict)
m = {x["name"]: x for x in d["metrics"]}
assert m["g"]["mean"] is None and m["g"]["max"] == 1.5e308
assert m["c"]["increase"] is None and m["c"]["rate_per_second"] is None
PY
fi

# ---- windows: a scan, and summaries (samples; deltas need the scan) -------------
cat >w.want <<'TXT'
metric,0,"ins","#",uint64,accumulated,,2,1,400,425,450,0,0,40,45,50,10000
metric,1,"power","W",double,absolute,,2,1,15,17.75,20.5,5,5,60,90,,
metric,2,"rel","",int64,relative,,1,1,4,4,4,5,5,60,60,4,
metric_region,0,"ins",2,"B",1,50,50,50
TXT
ok window "$PT" stats --csv --from 35 --to 95 m.txt >w.csv &&
  { grep -E '^metric(_region)?,' w.csv >w.got
    if cmp -s w.want w.got; then t_pass window_rows
    else t_fail window_rows "$(diff w.want w.got | head -20)"; fi; }
ok convert "$PT" convert m.txt -o m.ptf &&
  ok summarize "$PT" summarize --every 25 m.ptf &&
  ok window_sum "$PT" stats --csv --from 35 --to 95 --require-summaries \
    m.ptf >ws.csv &&
  { used=$(awk -F, '$1 == "totals" {print $NF}' ws.csv)
    grep -E '^metric(_region)?,' ws.csv >ws.got
    if [ "$used" = 1 ] && cmp -s w.want ws.got; then t_pass window_summaries
    else t_fail window_summaries "used=$used $(diff w.want ws.got | head)"; fi; }

# ---- a libotf2 archive: PAPI counters at enter/leave, a power gauge ------------
A=$TD/otf2/metrics/trace/traces.otf2
if [ -f "$A" ]; then
  ok otf2 "$PT" stats --csv "$A" >o.csv &&
    { got=$(grep -E '^metric_region,|^metric,' o.csv | cut -d, -f1-10 | tr '\n' ' ')
      want='metric,0,"PAPI_TOT_CYC","#",uint64,accumulated,,16,2,0 metric,1,"PAPI_FP_OPS","#",uint64,accumulated,,16,2,0 metric,2,"node_power","W",double,absolute,,3,1,180.5 metric_region,0,"PAPI_TOT_CYC",0,"main",2,5580,2340,3240 metric_region,0,"PAPI_TOT_CYC",1,"work",6,4500,600,900 metric_region,1,"PAPI_FP_OPS",0,"main",2,12060,6030,6030 metric_region,1,"PAPI_FP_OPS",1,"work",6,12000,1000,3000 '
      if [ "$got" = "$want" ]; then t_pass otf2_metrics
      else t_fail otf2_metrics "$got"; fi; }
fi
t_done
