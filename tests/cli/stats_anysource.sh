#!/bin/sh
# stats, check (and timeline's message lines) match a receive from MPI_ANY_SOURCE without a recorded
# status (peer -1: what a DUMPI trace keeps of MPI_Recv(MPI_ANY_SOURCE,
# ..., MPI_STATUS_IGNORE), a master collecting results) with the oldest
# waiting send to its rank on its communicator with its tag (any tag for
# tag -1), and a send with such a waiting receive.  Known answers on a
# hand-written trace, a parallel run equal to one process, a recorded
# master / worker program read back from DUMPI equal to its PTF.  Before,
# such receives were never matched (check: every send unmatched).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
# ranks 1 and 2 send to rank 0: rank 2 tag 7 at 30, rank 1 tag 7 at 40
# (blocking, each left 1 tick later), rank 1 tag 9 at 200; rank 0
# receives from any source in calls entered at 10 (tag 7, ends 50: rank
# 2's send, the oldest: late sender 20), 60 (any tag, ends 70: rank 1's
# tag-7 send, late receiver 1: it returned at 41) and 100 (tag 9, ends
# 110, before the send at 200 is seen: it waits, and that send takes it:
# late sender 100)
cat >a.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 1"
def location_group id=2 rank=2 name="rank 2"
def location id=2 group=2 name="thread 2"
def region id=1 name="main"
def region id=2 role=6 paradigm=3 name="MPI_Send"
def region id=3 role=6 paradigm=3 name="MPI_Recv"
event 0 0 enter region=1
event 0 1 enter region=1
event 0 2 enter region=1
event 10 0 enter region=3
event 30 2 enter region=2
event 30 2 send callsite=none peer=0 comm=0 tag=7 bytes=8
event 31 2 leave region=2
event 40 1 enter region=2
event 40 1 send callsite=none peer=0 comm=0 tag=7 bytes=16
event 41 1 leave region=2
event 50 0 recv callsite=none peer=-1 comm=0 tag=7 bytes=8
event 50 0 leave region=3
event 60 0 enter region=3
event 70 0 recv callsite=none peer=-1 comm=0 tag=-1 bytes=16
event 70 0 leave region=3
event 100 0 enter region=3
event 110 0 recv callsite=none peer=-1 comm=0 tag=9 bytes=4
event 110 0 leave region=3
event 200 1 enter region=2
event 200 1 send callsite=none peer=0 comm=0 tag=9 bytes=4
event 201 1 leave region=2
event 300 0 leave region=1
event 300 1 leave region=1
event 300 2 leave region=1
TXT
ok convert "$PT" -q convert a.txt -o a.ptf || t_done
printf '%s\n' 'message,1,0,0,2,20,100,1,2' 'message,2,0,0,1,8,20,0,1' >m.want
for f in a.txt a.ptf; do
  "$PT" stats --csv "$f" | grep '^message,' >m.got
  cmp -s m.want m.got && t_pass "matched with late times ($f)" ||
    t_fail "matched with late times ($f)" "$(cat m.got | tr '\n' ' ')"
done
# summarized at 25-tick steps: at 150 the receive from any source of 110
# still waits, so a window from 150 cannot take its late times from the
# summaries (before, they said no receive waited: the window counted the
# receive of 110, outside it, with its late time 100)
cp -r a.ptf s.ptf
ok summarize "$PT" -q summarize --every 25 s.ptf || t_done
"$PT" stats --csv --from 150 --to 300 s.ptf | grep '^message,' >w.got
[ "$(cat w.got)" = 'message,1,0,0,1,4,,,' ] &&
  t_pass "window from summaries: a waiting receive from any source" ||
  t_fail "window from summaries: a waiting receive from any source" "$(cat w.got)"
"$PT" stats --csv --by tag a.ptf | grep '^message,' >tag.got
printf '%s\n' 'message,1,0,7,1,16,0,1,1' 'message,1,0,9,1,4,100,0,1' \
  'message,2,0,7,1,8,20,0,1' >tag.want
cmp -s tag.want tag.got && t_pass "by tag: under the send's tag" ||
  t_fail "by tag: under the send's tag" "$(cat tag.got | tr '\n' ' ')"
"$PT" check a.ptf >chk.out && grep -q '3 messages matched' chk.out &&
  t_pass "check agrees" || t_fail "check agrees" "$(tail -1 chk.out)"
# (the timeline draws a receive's line from a send seen before it: not
# the third, which ends before its send)
"$PT" timeline a.ptf -o a.html >a.tl 2>&1 && grep -q ' 2 messages,' a.tl &&
  t_pass "timeline: 2 message lines" ||
  t_fail "timeline: 2 message lines" "$(cat a.tl)"
# a receive from any source that nothing sends to: said as such
sed 's/^event 200 1 send .*$/event 200 1 send callsite=none peer=2 comm=0 tag=9 bytes=4/' \
  a.txt >u.txt
"$PT" check u.txt >u.out 2>&1
grep -q 'unmatched_recv: location 0, t=110: receive from any source (comm 0, tag 9) has no matching send' u.out &&
  t_pass "check: an unmatched receive from any source" ||
  t_fail "check: an unmatched receive from any source" "$(grep unmatched u.out | head -2)"
# many senders, many receives from any source: each takes the oldest
# send (the one just before it), in time (an index of the send channels
# per receiver, not a scan of every channel)
awk 'BEGIN { n = 200000; r = 64
  print "# paratrace text 1"; print "def clock ticks_per_second=1000000000"
  for (i = 0; i <= r; i++) {
    printf "def location_group id=%d rank=%d name=\"r%d\"\n", i, i, i
    printf "def location id=%d group=%d name=\"t%d\"\n", i, i, i }
  for (i = 0; i < n; i++)   # sends to rank 1 that nobody receives
    printf "event %d %d send peer=1 comm=0 tag=%d bytes=4\n", 10 + i, 2 + i % (r - 1), i
  for (i = 0; i < n; i++) {
    printf "event %d %d send peer=0 comm=0 tag=5 bytes=4\n", 10 + n + 2 * i, 1 + i % r
    printf "event %d 0 recv peer=-1 comm=0 tag=5 bytes=4\n", 11 + n + 2 * i }
}' >many.txt
if timeout 60 "$PT" stats --csv many.txt >many.csv; then
  [ "$(grep -c '^message,[0-9]*,0,0,3125,12500,0,3125,3125$' many.csv)" = 64 ] &&
    t_pass "many senders: receives from any source in time" ||
    t_fail "many senders: receives from any source" "$(grep '^message,.*,0,0,' many.csv | head -3)"
else
  t_fail "many senders: receives from any source in time" "not done in 60 s"
fi
if timeout 60 "$PT" check many.txt >many.chk 2>&1 ||
   grep -q 'problems in' many.chk; then
  grep -q ': 200000 problems in 600000 events: 200000 unmatched_send$' many.chk &&
    t_pass "check: many senders in time" ||
    t_fail "check: many senders" "$(tail -2 many.chk)"
else
  t_fail "check: many senders in time" "not done in 60 s"
fi
rm -f many.txt many.csv many.chk
# receives from any source with a tag nobody sends, beside 200000 waiting
# sends of other tags to the same rank: each finds at once that nothing
# waits for it (before, each looked at every send channel to the rank:
# about 40 s)
awk 'BEGIN { n = 200000
  print "# paratrace text 1"; print "def clock ticks_per_second=1000000000"
  for (i = 0; i <= 1; i++) {
    printf "def location_group id=%d rank=%d name=\"r%d\"\n", i, i, i
    printf "def location id=%d group=%d name=\"t%d\"\n", i, i, i }
  for (i = 0; i < n; i++)
    printf "event %d 1 send peer=0 comm=0 tag=%d bytes=4\n", 10 + i, i
  for (i = 0; i < n; i++)
    printf "event %d 0 recv peer=-1 comm=0 tag=%d bytes=4\n", 10 + n + i, n + 5
}' >nosend.txt
if timeout 20 "$PT" stats --csv nosend.txt >nosend.csv; then
  grep -q '^message,1,0,0,200000,800000,0,0,0$' nosend.csv &&
    t_pass "receives from any source that find no send: in time" ||
    t_fail "receives from any source that find no send" "$(grep '^message,' nosend.csv | head -3)"
else
  t_fail "receives from any source that find no send: in time" "not done in 20 s"
fi
rm -f nosend.txt nosend.csv
# receives from any source with one tag, each just after a send with it,
# beside 200000 waiting sends of other tags to the same rank: each finds
# its send from the list of that tag's senders (before, from every send
# channel to the rank: about 40 s)
awk 'BEGIN { n = 200000
  print "# paratrace text 1"; print "def clock ticks_per_second=1000000000"
  for (i = 0; i <= 2; i++) {
    printf "def location_group id=%d rank=%d name=\"r%d\"\n", i, i, i
    printf "def location id=%d group=%d name=\"t%d\"\n", i, i, i }
  for (i = 0; i < n; i++)
    printf "event %d 1 send peer=0 comm=0 tag=%d bytes=4\n", 10 + i, i
  for (i = 0; i < n; i++) {
    printf "event %d 2 send peer=0 comm=0 tag=%d bytes=4\n", 10 + n + 2 * i, n + 5
    printf "event %d 0 recv peer=-1 comm=0 tag=%d bytes=4\n", 11 + n + 2 * i, n + 5 }
}' >onetag.txt
if timeout 20 "$PT" stats --csv onetag.txt >onetag.out; then
  grep -q '^message,2,0,0,200000,800000,0,.*,200000$' onetag.out &&
    t_pass "stats: receives from any source with a tag, among many others: in time" ||
    t_fail "stats: receives from any source with a tag, among many others" "$(grep '^message,' onetag.out | head -3)"
else
  t_fail "stats: receives from any source with a tag, among many others: in time" "not done in 20 s"
fi
timeout 20 "$PT" check onetag.txt >onetag.out 2>&1
grep -q ': 200000 problems in 600000 events: 200000 unmatched_send$' onetag.out &&
  t_pass "check: receives from any source with a tag, among many others: in time" ||
  t_fail "check: receives from any source with a tag, among many others: in time" "$(tail -1 onetag.out)"
timeout 20 "$PT" timeline onetag.txt -o onetag.html >onetag.out 2>&1 &&
  grep -q ' messages (a sample),' onetag.out &&
  t_pass "timeline: receives from any source with a tag, among many others: in time" ||
  t_fail "timeline: receives from any source with a tag, among many others: in time" "$(tail -1 onetag.out)"
rm -f onetag.html
rm -f onetag.txt onetag.out
. "$SRC/tests/cli/mpi.inc"
"$PT" stats --csv a.ptf >one.csv
$RUN -np 2 "$PT" stats --csv a.ptf >par.csv 2>par.err
nowaits one.csv >one.cmp
nowaits par.csv >par.cmp
cmp -s one.cmp par.cmp && t_pass "mpirun -np 2: the same" ||
  t_fail "mpirun -np 2: the same" "$(diff one.cmp par.cmp | head -4) $(head -2 par.err)"
# two ranks, one per part: every message is matched in the merge, where a
# send of one part meets the oldest wildcard receive of the other, not a
# receive the other part queued later (rank 1's send at 168 takes rank
# 0's receive from any source at 47, not its receive from 1 at 816);
# before, one message fewer was matched than in one process
cat >w.txt <<'TXT'
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
event 47 0 recv callsite=none peer=-1 comm=0 tag=-1 bytes=8
event 84 0 recv callsite=none peer=-1 comm=0 tag=-1 bytes=8
event 168 1 send callsite=none peer=0 comm=0 tag=0 bytes=8
event 184 0 recv callsite=none peer=-1 comm=0 tag=1 bytes=8
event 200 0 send callsite=none peer=1 comm=0 tag=0 bytes=8
event 208 0 send callsite=none peer=1 comm=0 tag=1 bytes=8
event 368 0 send callsite=none peer=1 comm=0 tag=0 bytes=8
event 417 1 recv callsite=none peer=-1 comm=0 tag=-1 bytes=8
event 436 1 send callsite=none peer=0 comm=0 tag=1 bytes=8
event 493 1 recv callsite=none peer=-1 comm=0 tag=0 bytes=8
event 527 1 send callsite=none peer=0 comm=0 tag=1 bytes=8
event 578 0 send callsite=none peer=1 comm=0 tag=1 bytes=8
event 628 1 recv callsite=none peer=0 comm=0 tag=1 bytes=8
event 699 1 recv callsite=none peer=-1 comm=0 tag=-1 bytes=8
event 740 1 send callsite=none peer=0 comm=0 tag=1 bytes=8
event 743 1 send callsite=none peer=0 comm=0 tag=0 bytes=8
event 814 0 recv callsite=none peer=-1 comm=0 tag=0 bytes=8
event 816 0 recv callsite=none peer=1 comm=0 tag=0 bytes=8
event 839 0 recv callsite=none peer=1 comm=0 tag=1 bytes=8
event 1019 1 send callsite=none peer=0 comm=0 tag=0 bytes=8
event 1029 0 leave region=1
event 1029 1 leave region=1
TXT
ok "convert w" "$PT" -q convert w.txt -o w.ptf || t_done
"$PT" stats --csv w.ptf >w1.csv
$RUN -np 2 "$PT" stats --csv w.ptf >w2.csv 2>w2.err
nowaits w1.csv >w1.cmp
nowaits w2.csv >w2.cmp
[ "$(grep '^message,' w1.csv | awk -F, '{ s += $NF } END { print s }')" = 10 ] &&
  cmp -s w1.cmp w2.cmp && t_pass "mpirun -np 2, wildcards across the parts: the same" ||
  t_fail "mpirun -np 2, wildcards across the parts: the same" "$(diff w1.cmp w2.cmp | head -4) $(head -2 w2.err)"
# a master / worker program: recorded, the receives know their sender;
# written as DUMPI (source MPI_ANY_SOURCE, status ignored, as SST DUMPI
# keeps them) and read back, they do not, and are matched alike
ok "build anysrc" mpicc $SANF -o anysrc "$SRC/tests/mpi/anysrc.c" || t_done
ok record $RUN -np 4 "$PT" record -o r.ptf -- ./anysrc >prog.out || t_done
printf 'from %d: %d bytes\n' 1 48 2 72 3 96 >prog.want
cmp -s prog.want prog.out && t_pass "the program's own result" ||
  t_fail "the program's own result" "$(cat prog.out | tr '\n' ' ')"
ok "to DUMPI" "$PT" -q convert r.ptf -o d.meta || t_done
"$PT" dump d.meta | grep -c ' i*recv .*peer=-1 ' >n.got
[ "$(cat n.got)" = 18 ] && t_pass "DUMPI: 18 receives from any source" ||
  t_fail "DUMPI: 18 receives from any source" "$(cat n.got)"
"$PT" check d.meta >d.chk 2>&1 && grep -q '18 messages matched' d.chk &&
  t_pass "check of the DUMPI: every message matched" ||
  t_fail "check of the DUMPI: every message matched" "$(tail -1 d.chk)"
"$PT" timeline d.meta -o d.html >d.tl 2>&1 && grep -q ' 18 messages,' d.tl &&
  t_pass "timeline of the DUMPI: 18 message lines" ||
  t_fail "timeline of the DUMPI: 18 message lines" "$(cat d.tl)"
"$PT" stats --csv r.ptf | grep '^message,' | cut -d, -f1-6,9 >r.msg
"$PT" stats --csv d.meta | grep '^message,' | cut -d, -f1-6,9 >d.msg
[ -s r.msg ] && cmp -s r.msg d.msg && t_pass "stats of the DUMPI: the same matrix" ||
  t_fail "stats of the DUMPI: the same matrix" "$(diff r.msg d.msg | head -4)"
t_done
