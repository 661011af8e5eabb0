#!/bin/sh
# generate -> info -> dump -> convert to text and back -> dump again: the
# two dumps are identical, and the text form reads back to the same trace.
. "$(dirname "$0")/common.inc"

P=4 N=3000
if ok generate "$PT" -q generate -o run.ptf --locations $P --events $N \
     --seed 7 --regions 12 --msg-every 20; then
  [ -d run.ptf ] && t_pass generate_dir || t_fail generate_dir "no run.ptf/"
fi

if ok info "$PT" info run.ptf >info.out; then
  grep -q '^format *ptf' info.out && grep -q "^events *$((P * N))\$" info.out &&
    grep -q "^streams *$P\$" info.out && grep -q '^time span.* s' info.out &&
    grep -q 'bytes on disk' info.out &&
    t_pass info_content || t_fail info_content "$(cat info.out)"
fi
if ok info_json "$PT" info --json run.ptf >info.json; then
  if command -v python3 >/dev/null 2>&1; then
    python3 - info.json $P $N <<'PY' && t_pass info_json_valid ||
import json, sys
d = json.load(open(sys.argv[1]))
p, n = int(sys.argv[2]), int(sys.argv[3])
assert d["format"] == "ptf", d
assert d["streams"] == p, d
assert d["events"]["total"] == p * n, d
assert sum(v for k, v in d["events"].items() if k != "total") == p * n
assert d["events"]["enter"] == d["events"]["leave"], d
assert d["bytes_on_disk"] > 0 and d["raw_bytes"] > 0, d
assert d["definitions"]["location"] == p, d
assert d["time"]["ticks"] == d["time"]["last"] - d["time"]["first"]
PY
      t_fail info_json_valid "$(cat info.json)"
  fi
fi

ok dump1 "$PT" dump run.ptf >d1.txt &&
  { [ "$(events d1.txt)" -eq $((P * N)) ] && t_pass dump1_events ||
      t_fail dump1_events "$(events d1.txt) event lines, want $((P * N))"; }

ok to_text "$PT" -q convert run.ptf -o run.txt
ok to_ptf "$PT" -q convert run.txt -o back.ptf
ok dump2 "$PT" dump back.ptf >d2.txt
cmp -s d1.txt d2.txt && t_pass dumps_identical ||
  t_fail dumps_identical "$(diff d1.txt d2.txt | head -5)"
# the text file is itself a dump of the trace
ok dump_text "$PT" dump run.txt >d3.txt
cmp -s d1.txt d3.txt && t_pass text_dump_identical ||
  t_fail text_dump_identical "$(diff d1.txt d3.txt | head -5)"
# --to picks the format whatever the name says
ok to_named "$PT" -q convert run.ptf --to text -o run.data
cmp -s run.txt run.data && t_pass convert_to_format ||
  t_fail convert_to_format "run.data differs from run.txt"

# A generated trace is consistent.
ok check_generated "$PT" -q check run.ptf >check.out
grep -q 'OK' check.out && t_pass check_generated_ok ||
  t_fail check_generated_ok "$(cat check.out)"

# Filters: --head, --kinds, --locations, time windows in ticks and units.
ok dump_head "$PT" dump --head 10 run.ptf >h.txt &&
  { [ "$(events h.txt)" -eq 10 ] && t_pass head_count ||
      t_fail head_count "$(events h.txt) events"; }
ok dump_kinds "$PT" dump --kinds enter,leave run.ptf >k.txt &&
  { want=$(grep -c -e '^event [0-9]* [0-9]* enter ' -e '^event [0-9]* [0-9]* leave ' d1.txt)
    got=$(events k.txt)
    other=$(grep '^event ' k.txt | grep -v -e ' enter ' -e ' leave ' | wc -l)
    [ "$got" -eq "$want" ] && [ "$other" -eq 0 ] && t_pass kinds_filter ||
      t_fail kinds_filter "got $got events ($other others), want $want"; }
ok dump_locs "$PT" dump --locations 1,3 run.ptf >l.txt &&
  { want=$(grep -c -e '^event [0-9]* [13] ' d1.txt)
    other=$(grep '^event ' l.txt | grep -v -e '^event [0-9]* [13] ' | wc -l)
    [ "$(events l.txt)" -eq "$want" ] && [ "$other" -eq 0 ] &&
      t_pass locations_filter ||
      t_fail locations_filter "$(events l.txt) events ($other others), want $want"; }
# the generator's clock is 1 GHz starting at 0: 1ms = 1000000 ticks
ok dump_ticks "$PT" dump --from 1000000 --to 3000000 run.ptf >w1.txt
ok dump_units "$PT" dump --from 1ms --to 3000us run.ptf >w2.txt
cmp -s w1.txt w2.txt && t_pass time_units ||
  t_fail time_units "$(diff w1.txt w2.txt | head -3)"
bad=$(awk '$1 == "event" && ($2 < 1000000 || $2 >= 3000000)' w1.txt | wc -l)
[ "$bad" -eq 0 ] && [ "$(events w1.txt)" -gt 0 ] && t_pass time_window ||
  t_fail time_window "$bad events outside, $(events w1.txt) in all"
ok convert_window "$PT" -q convert run.ptf --from 1ms --to-time 3ms -o win.ptf
ok dump_window "$PT" dump win.ptf >w3.txt
[ "$(events w3.txt)" -eq "$(events w1.txt)" ] && t_pass convert_window_events ||
  t_fail convert_window_events "$(events w3.txt) vs $(events w1.txt)"

# dump -o writes the same as stdout, and refuses to overwrite
ok dump_file "$PT" -q dump run.ptf -o d4.txt
cmp -s d1.txt d4.txt && t_pass dump_file_same || t_fail dump_file_same "differs"
fails_cleanly dump_no_clobber 1 'exists' "$PT" dump run.ptf -o d4.txt


# Traces with no definitions at all (one location's enter/leave) and with
# nothing (the text header only) convert to every format that can be
# written; under UBSan the OTF2 sink passed NULL to memcpy when no
# location was defined and the DUMPI sink NULL to qsort for no rank.
printf '# paratrace text 1\nevent 1 0 enter region=1\nevent 2 0 leave region=1\n' >nodefs.txt
printf '# paratrace text 1\n' >nothing.txt
for in in nodefs nothing; do
  for out in ptf txt trf otf otf2 meta json; do
    "$PT" -q convert $in.txt -o "${in}_out.$out" >conv.out 2>conv.err; rc=$?
    if crashed conv.err $rc || [ $rc -ne 0 ]; then
      t_fail "sparse_${in}_to_$out" "exit $rc: $(head -c 300 conv.err)"
    else
      t_pass "sparse_${in}_to_$out"
    fi
  done
done

t_done
