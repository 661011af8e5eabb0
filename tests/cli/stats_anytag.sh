#!/bin/sh
# stats matches a receive with tag -1 (MPI_ANY_TAG without a status: what
# a DUMPI trace keeps of MPI_Recv(..., MPI_ANY_TAG, ..., MPI_STATUS_IGNORE),
# as GROMACS calls it) with the oldest waiting send from its sender on its
# communicator, whatever the tag, and a send with a waiting one: late
# sender / receiver on a hand-written trace with known answers, --by tag
# (each under the send's tag), a parallel run equal to one process.
# Before, such receives were not matched (matched 0, no late times).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
# rank 0 sends tag 7 at 30 and tag 5 at 40 (blocking, each left 1 tick
# later), tag 9 at 200; rank 1 receives with MPI_ANY_TAG (tag -1) in calls
# entered at 10 (ends 50: the tag-7 send, late sender 20), 60 (ends 70:
# the tag-5 send, late receiver 1: the send returned at 41) and 100 (ends
# 110, before the send at 200 is seen: it waits, then the tag-9 send takes
# it: late sender 100)
cat >a.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 1"
def region id=1 name="main"
def region id=2 role=6 paradigm=3 name="MPI_Send"
def region id=3 role=6 paradigm=3 name="MPI_Recv"
event 0 0 enter region=1
event 0 1 enter region=1
event 10 1 enter region=3
event 30 0 enter region=2
event 30 0 send callsite=none peer=1 comm=0 tag=7 bytes=8
event 31 0 leave region=2
event 40 0 enter region=2
event 40 0 send callsite=none peer=1 comm=0 tag=5 bytes=16
event 41 0 leave region=2
event 50 1 recv callsite=none peer=0 comm=0 tag=-1 bytes=8
event 50 1 leave region=3
event 60 1 enter region=3
event 70 1 recv callsite=none peer=0 comm=0 tag=-1 bytes=16
event 70 1 leave region=3
event 100 1 enter region=3
event 110 1 recv callsite=none peer=0 comm=0 tag=-1 bytes=4
event 110 1 leave region=3
event 200 0 enter region=2
event 200 0 send callsite=none peer=1 comm=0 tag=9 bytes=4
event 201 0 leave region=2
event 300 0 leave region=1
event 300 1 leave region=1
TXT
ok convert "$PT" -q convert a.txt -o a.ptf || t_done
for f in a.txt a.ptf; do
  got=$("$PT" stats --csv "$f" | grep '^message,')
  [ "$got" = "message,0,1,0,3,28,120,1,3" ] && t_pass "matched with late times ($f)" ||
    t_fail "matched with late times ($f)" "$got"
done
"$PT" stats --csv --by tag a.ptf | grep '^message,' >tag.got
printf '%s\n' 'message,0,1,5,1,16,0,1,1' 'message,0,1,7,1,8,20,0,1' \
  'message,0,1,9,1,4,100,0,1' >tag.want
cmp -s tag.want tag.got && t_pass "by tag: under the send's tag" ||
  t_fail "by tag: under the send's tag" "$(cat tag.got | tr '\n' ' ')"
"$PT" check a.ptf >chk.out && grep -q '3 messages matched' chk.out &&
  t_pass "check agrees" || t_fail "check agrees" "$(tail -1 chk.out)"
# many send channels waiting elsewhere (300000 sends to rank 1, each its
# own tag, never received) and 300000 tag -1 receives on another pair,
# each matching the send just before it: the receives look at their own
# pair's channels only (was: every channel of the trace per receive,
# quadratic: over a minute here; now about a second)
awk 'BEGIN { n = 300000
  print "# paratrace text 1"; print "def clock ticks_per_second=1000000000"
  for (r = 0; r < 4; r++) {
    printf "def location_group id=%d rank=%d name=\"r%d\"\n", r, r, r
    printf "def location id=%d group=%d name=\"t%d\"\n", r, r, r }
  for (i = 0; i < n; i++)
    printf "event %d 0 send peer=1 comm=0 tag=%d bytes=4\n", 10 + i, i
  for (i = 0; i < n; i++) {
    printf "event %d 2 send peer=3 comm=0 tag=%d bytes=4\n", 10 + n + 2 * i, i
    printf "event %d 3 recv peer=2 comm=0 tag=-1 bytes=4\n", 11 + n + 2 * i }
}' >many.txt
if timeout 40 "$PT" stats --csv many.txt >many.csv; then
  grep -q '^message,2,3,0,300000,1200000,0,300000,300000$' many.csv &&
    t_pass "many waiting channels: tag -1 receives in time" ||
    t_fail "many waiting channels: tag -1 receives" "$(grep '^message,' many.csv | head -3)"
else
  t_fail "many waiting channels: tag -1 receives in time" "not done in 40 s"
fi
# paratrace check matches them alike, from the pair's channels (was: a
# scan of every channel bucket per receive: 107 s for this trace)
# (the 300000 sends to rank 1 are its only problems: every tag -1
# receive found its send)
if timeout 40 "$PT" check many.txt >many.chk 2>&1 ||
   grep -q 'problems in' many.chk; then
  grep -q ': 300000 problems in 900000 events: 300000 unmatched_send$' many.chk &&
    t_pass "check: many waiting channels in time" ||
    t_fail "check: many waiting channels" "$(tail -2 many.chk)"
else
  t_fail "check: many waiting channels in time" "not done in 40 s"
fi
# the timeline's message lines alike, from the pair's send channels (was:
# a scan of every channel per receive: over 2 minutes for a third of
# this trace)
if timeout 60 "$PT" timeline many.txt -o many.html >many.tl 2>&1; then
  grep -q 'messages (a sample)' many.tl &&
    t_pass "timeline: many waiting channels in time" ||
    t_fail "timeline: many waiting channels" "$(cat many.tl)"
else
  t_fail "timeline: many waiting channels in time" "not done in 60 s"
fi
rm -f many.txt many.csv many.chk many.html many.tl
. "$SRC/tests/cli/mpi.inc"
if [ -x "$B/bin/paratrace-mpi" ]; then
  "$PT" stats --csv a.ptf >one.csv
  $RUN -np 2 "$PT" stats --csv a.ptf >par.csv 2>par.err
  nowaits one.csv >one.cmp
  nowaits par.csv >par.cmp
  cmp -s one.cmp par.cmp && t_pass "mpirun -np 2: the same" ||
    t_fail "mpirun -np 2: the same" "$(diff one.cmp par.cmp | head -4) $(head -2 par.err)"
fi
t_done
