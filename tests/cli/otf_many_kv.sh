#!/bin/sh
# A record with more than 64 key-values.  The OTF library puts no bound on
# a record's KeyValue list, and our own writer writes one K line per value
# of a PICL record kept in a mark (a statistics record of 522 pairs gives
# 1,044), but the reader accepted at most 64 and failed the whole trace
# ("bad key-value record").  Found converting VampirTrace 5.4's WRF trace
# (github.com/vasily-pashkov/otf-vis, otf_traces/wrf/wrf.otf, commit
# 3b218ce) to PICL and the PICL to OTF: the OTF could not be read back.
# Now up to 65,536 per record; past that the error says so.
. "$(dirname "$0")/common.inc"

printf '1:1\n' >t.otf
printf '%s\n' 'DV1.a.1"test"' DTRf4240 'DP1NM"Process 0"' 'DFG1NM"user"' \
  'DF1G1NM"main"' 'DK1Y7NM"value"' >t.0.def
{
  printf '64\n*1\n'
  i=0
  while [ $i -lt 300 ]; do printf 'K1Y7V%x\n' $i; i=$((i + 1)); done
  printf 'E1\nc8\n*1\nL1\n'
} >t.1.events

ok dump "$PT" dump t.otf >d.txt
n=$(grep ' enter region=1 ' d.txt | grep -o '1=i:[0-9]*' | wc -l)
if [ "$n" -eq 300 ]; then t_pass "300 key-values on the enter"
else t_fail "300 key-values on the enter" "got $n: $(cat dump.err)"; fi
if grep -q '1=i:299}' d.txt; then t_pass "last value 299"
else t_fail "last value 299" "$(grep ' enter ' d.txt | tail -c 200)"; fi
ok check "$PT" check t.otf >/dev/null

# past the bound: an error naming the file, line and the reason
{
  printf '64\n*1\n'
  awk 'BEGIN { for (i = 0; i < 65537; i++) print "K1Y7V1" }'
  printf 'E1\nc8\n*1\nL1\n'
} >t.1.events
if "$PT" dump t.otf >/dev/null 2>big.err; then
  t_fail "65537 key-values rejected" "accepted"
elif grep -q 't.1.events:65539: bad key-value record (more than 65536 key-values for one record)' big.err; then
  t_pass "65537 key-values rejected"
else t_fail "65537 key-values rejected" "$(cat big.err)"; fi
t_done
