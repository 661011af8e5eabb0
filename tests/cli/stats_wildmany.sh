#!/bin/sh
# Receives without a recorded status that may take a send of any of many
# channels (MPI_ANY_SOURCE or MPI_ANY_TAG: peer -1 or tag -1) find the
# oldest waiting send in O(log n): N sends of N distinct tags wait, then N
# such receives each take the oldest.  Before, each receive looked at every
# channel holding a send (quadratic: N = 30,000 took 7.4 s in stats, 1.3 s
# in check, 18.7 s in timeline; the sizes here would take about 5.5
# minutes in stats, 14 in timeline, 6 in check, over 20 times the limits;
# 0.4-1.7 s each now, 2-6 s under ASan).  Also the order among sends of
# equal times, the same in stats and timeline.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
# gen N PEER: rank 1 sends tags 0..N-1 to rank 0 at 10.., then rank 0
# receives N times from PEER (-1: any source; 1: rank 1) with any tag
gen() {
  awk -v n="$1" -v peer="$2" 'BEGIN {
    print "# paratrace text 1"; print "def clock ticks_per_second=1000000000"
    for (i = 0; i <= 1; i++) {
      printf "def location_group id=%d rank=%d name=\"r%d\"\n", i, i, i
      printf "def location id=%d group=%d name=\"t%d\"\n", i, i, i }
    for (i = 0; i < n; i++)
      printf "event %d 1 send peer=0 comm=0 tag=%d bytes=4\n", 10 + i, i
    for (i = 0; i < n; i++)
      printf "event %d 0 recv peer=%d comm=0 tag=-1 bytes=4\n", 10 + n + i, peer
  }'
}
# (each receive takes the send N ticks older: late receiver N each)
for mode in src tag; do
  peer=-1
  [ $mode = tag ] && peer=1
  gen 200000 $peer >m.txt
  if timeout 15 "$PT" stats --csv m.txt >m.csv; then
    grep -q '^message,1,0,0,200000,800000,0,40000000000,200000$' m.csv &&
      t_pass "stats: 200000 receives, any $mode" ||
      t_fail "stats: 200000 receives, any $mode" "$(grep '^message,' m.csv)"
  else
    t_fail "stats: 200000 receives, any $mode" "not done in 15 s"
  fi
  if timeout 30 "$PT" timeline m.txt -o m.html >m.out 2>&1; then
    # (one line in 4: 200000 matched)
    grep -q ' 50000 messages (a sample),' m.out &&
      t_pass "timeline: 200000 receives, any $mode" ||
      t_fail "timeline: 200000 receives, any $mode" "$(cat m.out)"
  else
    t_fail "timeline: 200000 receives, any $mode" "not done in 30 s"
  fi
  rm -f m.html
  gen 500000 $peer >m.txt
  if timeout 15 "$PT" check m.txt >m.out 2>&1; then
    grep -q '500000 messages matched' m.out &&
      t_pass "check: 500000 receives, any $mode" ||
      t_fail "check: 500000 receives, any $mode" "$(tail -2 m.out)"
  else
    t_fail "check: 500000 receives, any $mode" "not done in 15 s"
  fi
  rm -f m.txt m.csv m.out
done
# two sends of equal time wait (rank 2's first in the file), two receives
# from any source take them: the first takes rank 1's, by location as in
# stats (before, the timeline gave it rank 2's: the first channel listed)
cat >tie.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 1"
def location_group id=2 rank=2 name="rank 2"
def location id=2 group=2 name="thread 2"
event 30 2 send peer=0 comm=0 tag=7 bytes=8
event 30 1 send peer=0 comm=0 tag=7 bytes=16
event 50 0 recv peer=-1 comm=0 tag=7 bytes=8
event 60 0 recv peer=-1 comm=0 tag=7 bytes=16
TXT
"$PT" stats --csv tie.txt | grep '^message,' >tie.csv
printf '%s\n' 'message,1,0,0,1,16,0,20,1' 'message,2,0,0,1,8,0,30,1' >tie.want
cmp -s tie.want tie.csv && t_pass "stats: equal times, by location" ||
  t_fail "stats: equal times, by location" "$(cat tie.csv | tr '\n' ' ')"
# the message lines of the SVG (rows top down: ranks 0, 1, 2): the line
# ending first (the receive at 50) starts at the row above the other's
ok "tie svg" "$PT" timeline tie.txt -o tie.html --svg tie.svg || t_done
grep 'stroke="#222"' tie.svg | sed 's/.* y1="\([0-9.]*\)" x2="\([0-9.]*\)".*/\2 \1/' |
  sort -n >tie.lines
[ "$(wc -l <tie.lines)" = 2 ] &&
  awk 'NR == 1 { a = $2 } NR == 2 { exit !(a < $2) }' tie.lines &&
  t_pass "timeline: equal times, by location as stats" ||
  t_fail "timeline: equal times, by location as stats" "$(cat tie.lines | tr '\n' ' ')"
t_done
