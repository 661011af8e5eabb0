#!/bin/sh
# An OTF 1.x trace's non-blocking calls written as PICL.  OTF has one
# message record, so an MPI_Isend holds a plain send and an MPI_Irecv holds
# nothing (its receive is in the MPI_Wait).  The PICL writer wrote them as
# sendbegin / recvbegin (-27 / -57) pairs without data ("-3 -27 t 0 0 0"),
# which read back as an isend of no peer, tag or bytes and an irecv post of
# no request: `check` noted them as requests never completed and `stats`
# listed MPI_Isend with messages of 0 bytes.  Found on VampirTrace 5.4's WRF
# trace (github.com/vasily-pashkov/otf-vis, otf_traces/wrf, commit 3b218ce:
# 51,360 such requests, 25,680 sends of 0 B).  Such a call is now a user
# event type of its own, named after the call, as a Wait that completes
# nothing already was; the message is the send/recv pair inside.
. "$(dirname "$0")/common.inc"

cat >in.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 role=6 paradigm=3 name="MPI_Isend"
def region id=2 role=6 paradigm=3 name="MPI_Irecv"
def region id=3 role=6 paradigm=3 name="MPI_Wait"
def region id=4 role=1 name="main"
event 100 0 enter region=4
event 100 1 enter region=4
event 1000 1 enter region=2
event 1100 1 leave region=2
event 2000 0 enter region=1
event 2010 0 isend peer=1 tag=7 bytes=4096 request=5
event 2100 0 leave region=1
event 2200 0 enter region=3
event 2250 0 isend_complete request=5
event 2300 0 leave region=3
event 2500 1 enter region=3
event 2900 1 recv peer=0 tag=7 bytes=4096
event 3000 1 leave region=3
event 4000 0 leave region=4
event 4000 1 leave region=4
TXT

ok to_otf "$PT" convert in.txt -o t.otf
ok to_picl "$PT" convert t.otf -o t.trf
if grep -Eq '^-[34] -(27|57) [^ ]+ [^ ]+ [^ ]+ 0$' t.trf; then
  t_fail "no -27/-57 pair without data" "$(grep -E '^-[34] -(27|57) ' t.trf)"
else t_pass "no -27/-57 pair without data"; fi
ok check "$PT" check t.trf >check.out
if grep -q "never completed" check.out check.err; then
  t_fail "no pending requests" "$(cat check.out check.err)"
else t_pass "no pending requests"; fi
if grep -q "OK: .* 1 messages matched" check.out; then t_pass "message matched"
else t_fail "message matched" "$(cat check.out)"; fi
"$PT" dump t.trf >dump.txt 2>/dev/null
if grep -Eq ' (isend|irecv_request) ' dump.txt; then
  t_fail "no isend / irecv post read back" "$(grep -E ' (isend|irecv_request) ' dump.txt)"
else t_pass "no isend / irecv post read back"; fi
ok stats "$PT" stats t.trf >stats.txt
for f in MPI_Isend MPI_Irecv MPI_Wait; do
  if grep -Eq "^$f +[0-9]+ " stats.txt; then t_pass "stats lists $f"
  else t_fail "stats lists $f" "$(cat stats.txt)"; fi
done
if grep -Eq '^ +0 +1 +1 +4.0 KiB' stats.txt; then t_pass "4 KiB message 0 -> 1"
else t_fail "4 KiB message 0 -> 1" "$(grep -A3 '^Messages' stats.txt)"; fi
t_done
