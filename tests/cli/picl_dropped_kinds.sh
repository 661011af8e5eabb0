#!/bin/sh
# Event kinds PICL has no record for are counted and named, each of them,
# when a trace is written as PICL.  The writer warned only of the first such
# kind it met, without a count, so a trace of thread begin / end and counter
# samples (the OTF library's "philosophers" example in
# github.com/vasily-pashkov/otf-vis, otf_traces/philosophers) said
# "'thread_begin' events have no PICL record" and lost its 55 metric samples
# and the thread ends without a word.
. "$(dirname "$0")/common.inc"

cat >in.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 role=1 name="work"
def metric id=5 scope=none type=2 mode=1 name="counter" unit=""
event 10 0 thread_begin contingent=0 sequence=0
event 20 0 enter region=1
event 20 0 metric metric=5 value=u:1
event 30 0 metric metric=5 value=u:2
event 40 0 leave region=1
event 40 0 metric metric=5 value=u:3
event 50 0 thread_end contingent=0 sequence=0
TXT

ok convert "$PT" convert in.txt -o out.trf
for w in "picl: 1 'thread_begin' events have no PICL record; left out" \
         "picl: 3 'metric' events have no PICL record; left out" \
         "picl: 1 'thread_end' events have no PICL record; left out"; do
  if grep -qF "$w" convert.err; then t_pass "warned: $w"
  else t_fail "warned: $w" "$(cat convert.err)"; fi
done
# the region visit itself is written
if ok check "$PT" check out.trf >check.out && grep -q "OK: " check.out; then
  t_pass "check out.trf"
else t_fail "check out.trf" "$(cat check.out)"; fi
t_done
