#!/bin/sh
# stats' collective wait states (as Scalasca: wait at NxN, late broadcast,
# early reduce): known answers on a hand-written trace (an Allreduce, a
# Bcast, a Reduce, a non-blocking Iallreduce that has none, a Barrier on
# a sub-communicator, an Allreduce one member never calls), windows,
# --locations (none, and a note), JSON; a program of our own with a known
# culprit (tests/mpi/waits.c: rank 2 late at every Barrier and at its
# Bcast, rank 0 early at its Reduce) recorded with paratrace record, and
# the same through DUMPI and OTF2.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac

# ---- a hand-written trace with known answers ------------------------------
# 3 ranks, MPI_COMM_WORLD (comm 0) and comm 1 = ranks 0 and 2.
#   Allreduce: enters 10, 20, 40, ends 50: waits 30, 20, 0
#   Bcast, root 1: enters 100, 130 (root), 110, ends 140: waits 30, 0, 20
#   Reduce, root 0: enters 200 (root), 230, 260, ends 270: the root waits
#     30 (to the first other member's enter)
#   Iallreduce at 300: non-blocking, no row
#   Barrier on comm 1: enters 400 (rank 0), 420 (rank 2): waits 20, 0
#   Allreduce at 500 on ranks 0 and 1 only: unmatched (no wait)
cat >w.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 1"
def location_group id=2 rank=2 name="rank 2"
def location id=2 group=2 name="thread 2"
def region id=0 name="main"
def region id=1 role=7 paradigm=3 name="MPI_Allreduce"
def region id=2 role=7 paradigm=3 name="MPI_Bcast"
def region id=3 role=7 paradigm=3 name="MPI_Reduce"
def region id=4 role=7 paradigm=3 name="MPI_Iallreduce"
def region id=5 role=8 paradigm=3 name="MPI_Barrier"
def group id=0 type=4 paradigm=3 name="world locations" members=[0,1,2]
def group id=1 type=5 paradigm=3 name="world" members=[0,1,2]
def group id=2 type=5 paradigm=3 name="even" members=[0,2]
def comm id=0 parent=none group=1 paradigm=3 name="MPI_COMM_WORLD"
def comm id=1 parent=0 group=2 paradigm=3 name="even"
event 0 0 enter region=0
event 0 1 enter region=0
event 0 2 enter region=0
event 10 0 enter region=1
event 10 0 coll_begin
event 20 1 enter region=1
event 20 1 coll_begin
event 40 2 enter region=1
event 40 2 coll_begin
event 50 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 50 0 leave region=1
event 50 1 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 50 1 leave region=1
event 50 2 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 50 2 leave region=1
event 100 0 enter region=2
event 100 0 coll_begin
event 110 2 enter region=2
event 110 2 coll_begin
event 130 1 enter region=2
event 130 1 coll_begin
event 140 0 coll_end op=1 root=1 comm=0 sent=0 received=4
event 140 0 leave region=2
event 140 1 coll_end op=1 root=1 comm=0 sent=4 received=0
event 140 1 leave region=2
event 140 2 coll_end op=1 root=1 comm=0 sent=0 received=4
event 140 2 leave region=2
event 200 0 enter region=3
event 200 0 coll_begin
event 230 1 enter region=3
event 230 1 coll_begin
event 260 2 enter region=3
event 260 2 coll_begin
event 270 0 coll_end op=12 root=0 comm=0 sent=8 received=24
event 270 0 leave region=3
event 270 1 coll_end op=12 root=0 comm=0 sent=8 received=0
event 270 1 leave region=3
event 270 2 coll_end op=12 root=0 comm=0 sent=8 received=0
event 270 2 leave region=3
event 300 0 enter region=4
event 300 0 coll_begin
event 300 1 enter region=4
event 300 1 coll_begin
event 300 2 enter region=4
event 300 2 coll_begin
event 305 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 305 0 leave region=4
event 305 1 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 305 1 leave region=4
event 305 2 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 305 2 leave region=4
event 400 0 enter region=5
event 400 0 coll_begin
event 420 2 enter region=5
event 420 2 coll_begin
event 430 0 coll_end op=0 root=-1 comm=1 sent=0 received=0
event 430 0 leave region=5
event 430 2 coll_end op=0 root=-1 comm=1 sent=0 received=0
event 430 2 leave region=5
event 500 0 enter region=1
event 500 0 coll_begin
event 500 1 enter region=1
event 500 1 coll_begin
event 510 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 510 0 leave region=1
event 510 1 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 510 1 leave region=1
event 600 0 leave region=0
event 600 1 leave region=0
event 600 2 leave region=0
TXT
ok convert "$PT" -q convert w.txt -o w.ptf || t_done
cat >w.want <<'CSV'
wait,1,"MPI_Allreduce",wait at NxN,0,2,50,30,1,1
wait,1,"MPI_Allreduce",wait at NxN,1,2,40,20,1,1
wait,1,"MPI_Allreduce",wait at NxN,2,1,10,0,0,0
wait,2,"MPI_Bcast",late broadcast,0,1,40,30,1,0
wait,2,"MPI_Bcast",late broadcast,1,1,10,0,0,0
wait,2,"MPI_Bcast",late broadcast,2,1,30,20,1,0
wait,3,"MPI_Reduce",early reduce,0,1,70,30,1,0
wait,3,"MPI_Reduce",early reduce,1,1,40,0,0,0
wait,3,"MPI_Reduce",early reduce,2,1,10,0,0,0
wait,5,"MPI_Barrier",wait at NxN,0,1,30,20,1,0
wait,5,"MPI_Barrier",wait at NxN,2,1,10,0,0,0
CSV
for f in w.txt w.ptf; do
  "$PT" stats --csv "$f" | grep '^wait,' >w.got
  cmp -s w.want w.got && t_pass "known waits ($f)" ||
    t_fail "known waits ($f)" "$(diff w.want w.got | head -6)"
done
# MPI_COMM_WORLD defined without a group (as the MPI recorder and the
# DUMPI reader define it): its members are the MPI paradigm's locations
# group, not another paradigm's defined before it (a CUDA stream's in a
# Score-P trace of MPI + CUDA; before, the first group was taken, and no
# instance here had its 1 member: every call unmatched)
sed -e 's/^def group id=0 type=4 paradigm=3 name="world locations" members=\[0,1,2\]$/def group id=9 type=4 paradigm=1 name="GPU locations" members=[1]\
&/' -e 's/^def comm id=0 parent=none group=1 /def comm id=0 parent=none group=none /' w.txt >wp.txt
"$PT" stats --csv wp.txt | grep '^wait,' >wp.got
grep -q 'GPU locations' wp.txt && cmp -s w.want wp.got &&
  t_pass "world from the MPI paradigm's locations group" ||
  t_fail "world from the MPI paradigm's locations group" "$(diff w.want wp.got | head -4)"
"$PT" stats --csv w.ptf |
  grep -q '^section,region_id,function,pattern,location,calls,time,wait,waited,unmatched$' &&
  t_pass csv_header || t_fail csv_header "no wait section header"
# an intercommunicator (KEYVAL otf2:intercomm names its other group):
# its collectives join two groups and are not matched, only counted
sed 's/^def comm id=1 .*/&\
def keyval id=1 scope=1 name="otf2:intercomm" value="1"/' w.txt >wi.txt
"$PT" stats --csv wi.txt | grep '^wait,5,' >wi.got
printf '%s\n' 'wait,5,"MPI_Barrier",wait at NxN,0,1,30,0,0,1' \
  'wait,5,"MPI_Barrier",wait at NxN,2,1,10,0,0,1' >wi.want
cmp -s wi.want wi.got && t_pass intercommunicator_unmatched ||
  t_fail intercommunicator_unmatched "$(cat wi.got)"
# the table: per function over the locations, the longest waiter
"$PT" stats w.ptf >w.out
grep -q '^MPI_Allreduce  *wait at NxN  *5  *100  *50  *50.00  *2  *30  *0  *2$' w.out &&
  grep -q '^MPI_Bcast  *late broadcast  *3  *80  *50  *62.50  *2  *30  *0  *0$' w.out &&
  grep -q '^MPI_Reduce  *early reduce  *3  *120  *30  *25.00  *1  *30  *0  *0$' w.out &&
  t_pass table || t_fail table "$(sed -n '/^Collective/,/^$/p' w.out)"
# the table's rows: the longest wait first, then by name, whatever the
# functions' region ids (they came in region-id order, so SLEPc's table
# listed MPI_Allgather, MPI_Allreduce, MPI_Barrier, MPI_Bcast from the
# archive and MPI_Bcast first from its OTF2 copy); here the ids of
# MPI_Allreduce and MPI_Barrier swapped give the same table
sed -n '/^Collective wait/,/^$/p' w.out >w.tab
sed -e 's/region=1$/region=X/' -e 's/region=5$/region=1/' -e 's/region=X$/region=5/' \
  -e 's/^def region id=1 /def region id=X /' -e 's/^def region id=5 /def region id=1 /' \
  -e 's/^def region id=X /def region id=5 /' w.txt >wswap.txt
"$PT" stats wswap.txt | sed -n '/^Collective wait/,/^$/p' >wswap.tab
awk 'NR > 2 && NF { print $1 }' w.tab | tr '\n' ' ' >w.order
if [ "$(cat w.order)" = "MPI_Allreduce MPI_Bcast MPI_Reduce MPI_Barrier " ] &&
   cmp -s w.tab wswap.tab; then
  t_pass "table: longest wait first, whatever the region ids"
else t_fail "table: longest wait first, whatever the region ids" \
  "$(cat w.order); $(diff w.tab wswap.tab | head -6 | tr '\n' ' ')"; fi
# a window: the calls whose COLL_END is in it (the Bcast and the Reduce)
"$PT" stats --csv --from 95 --to 280 w.ptf | grep '^wait,' >win.got
grep -e '"MPI_Bcast"' -e '"MPI_Reduce"' w.want >win.want
cmp -s win.want win.got && t_pass window || t_fail window "$(diff win.want win.got | head -4)"
# --locations: a selection cannot see every member: no rows, and the
# table says why
"$PT" stats --csv --locations 0,1 w.ptf | grep -c '^wait,' >sel.n
"$PT" stats --locations 0,1 w.ptf >sel.out
[ "$(cat sel.n)" = 0 ] && grep -q '^(collective wait states need every rank' sel.out &&
  t_pass locations || t_fail locations "$(cat sel.n) rows; $(tail -2 sel.out)"
# JSON: the same rows
if command -v python3 >/dev/null 2>&1; then
  "$PT" stats --json w.ptf >w.json
  python3 -c '
import json, sys
d = json.load(open("w.json"))
w = [(r["function"], r["location"], r["wait"]) for r in d["waits"]]
sys.exit(0 if len(w) == 11 and ("MPI_Reduce", 0, 30) in w else 1)' &&
    t_pass json || t_fail json "$(grep -A3 waits w.json | head -4)"
fi

# two threads of one rank (locations 0 and 2 of rank 0) take turns at
# the collectives on a communicator (MPI_THREAD_SERIALIZED, an OpenMP
# single): MPI orders them per process, so the second Allreduce of rank 1
# meets thread 1's first (was: numbered per location, both unmatched)
cat >th.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location id=2 group=0 name="thread 1"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 0"
def region id=1 role=7 paradigm=3 name="MPI_Allreduce"
def group id=0 type=4 paradigm=3 name="world locations" members=[0,1]
def group id=1 type=5 paradigm=3 name="world" members=[0,1]
def comm id=0 parent=none group=1 paradigm=3 name="MPI_COMM_WORLD"
event 10 0 enter region=1
event 10 0 coll_begin
event 20 1 enter region=1
event 20 1 coll_begin
event 30 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 30 0 leave region=1
event 30 1 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 30 1 leave region=1
event 100 2 enter region=1
event 100 2 coll_begin
event 130 1 enter region=1
event 130 1 coll_begin
event 140 2 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 140 2 leave region=1
event 140 1 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 140 1 leave region=1
TXT
"$PT" stats --csv th.txt | grep '^wait,' >th.got
printf '%s\n' 'wait,1,"MPI_Allreduce",wait at NxN,0,1,20,10,1,0' \
  'wait,1,"MPI_Allreduce",wait at NxN,1,2,20,0,0,0' \
  'wait,1,"MPI_Allreduce",wait at NxN,2,1,40,30,1,0' >th.want
cmp -s th.want th.got && t_pass threads_of_one_process ||
  t_fail threads_of_one_process "$(diff th.want th.got | head -6)"

# ---- a slice: the same instances as the window ------------------------------
# Rank 0 is still in the first Allreduce at `from` = 60, which ranks 1 and
# 2 had left at 50.  The slice re-enters rank 0's call at 60; it kept the
# call's COLL_END (at 70), so rank 0's first Allreduce in the slice was
# that instance and ranks 1 and 2's the next: every later Allreduce
# differed (PETSc's SNES ex19 sliced at 600-700 ms).  Now that COLL_END is
# left out and the slice's rows are the window's for the calls entered
# in it: stats --from 75 (after the partial call's end) on the whole
# trace.
#   Allreduce 2: enters 100, 80, 90, ends 110: waits 0, 20, 10
#   Bcast, root 1: enters 120, 150 (root), 130, ends 160: waits 30, 0, 20
#   Barrier: enters 200, 210, 240, ends 250: waits 40, 30, 0
cat >sl.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 1"
def location_group id=2 rank=2 name="rank 2"
def location id=2 group=2 name="thread 2"
def region id=0 name="main"
def region id=1 role=7 paradigm=3 name="MPI_Allreduce"
def region id=2 role=7 paradigm=3 name="MPI_Bcast"
def region id=5 role=8 paradigm=3 name="MPI_Barrier"
def group id=0 type=4 paradigm=3 name="world locations" members=[0,1,2]
def group id=1 type=5 paradigm=3 name="world" members=[0,1,2]
def comm id=0 parent=none group=1 paradigm=3 name="MPI_COMM_WORLD"
event 0 0 enter region=0
event 0 1 enter region=0
event 0 2 enter region=0
event 10 0 enter region=1
event 10 0 coll_begin
event 20 1 enter region=1
event 20 1 coll_begin
event 40 2 enter region=1
event 40 2 coll_begin
event 50 1 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 50 1 leave region=1
event 50 2 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 50 2 leave region=1
event 70 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 70 0 leave region=1
event 80 1 enter region=1
event 80 1 coll_begin
event 90 2 enter region=1
event 90 2 coll_begin
event 100 0 enter region=1
event 100 0 coll_begin
event 110 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 110 0 leave region=1
event 110 1 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 110 1 leave region=1
event 110 2 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 110 2 leave region=1
event 120 0 enter region=2
event 120 0 coll_begin
event 130 2 enter region=2
event 130 2 coll_begin
event 150 1 enter region=2
event 150 1 coll_begin
event 160 0 coll_end op=1 root=1 comm=0 sent=0 received=4
event 160 0 leave region=2
event 160 1 coll_end op=1 root=1 comm=0 sent=4 received=0
event 160 1 leave region=2
event 160 2 coll_end op=1 root=1 comm=0 sent=0 received=4
event 160 2 leave region=2
event 200 0 enter region=5
event 200 0 coll_begin
event 210 1 enter region=5
event 210 1 coll_begin
event 240 2 enter region=5
event 240 2 coll_begin
event 250 0 coll_end op=0 root=-1 comm=0 sent=0 received=0
event 250 0 leave region=5
event 250 1 coll_end op=0 root=-1 comm=0 sent=0 received=0
event 250 1 leave region=5
event 250 2 coll_end op=0 root=-1 comm=0 sent=0 received=0
event 250 2 leave region=5
event 400 0 leave region=0
event 400 1 leave region=0
event 400 2 leave region=0
TXT
cat >sl.want <<'CSV'
wait,1,"MPI_Allreduce",wait at NxN,0,1,10,0,0,0
wait,1,"MPI_Allreduce",wait at NxN,1,1,30,20,1,0
wait,1,"MPI_Allreduce",wait at NxN,2,1,20,10,1,0
wait,2,"MPI_Bcast",late broadcast,0,1,40,30,1,0
wait,2,"MPI_Bcast",late broadcast,1,1,10,0,0,0
wait,2,"MPI_Bcast",late broadcast,2,1,30,20,1,0
wait,5,"MPI_Barrier",wait at NxN,0,1,50,40,1,0
wait,5,"MPI_Barrier",wait at NxN,1,1,40,30,1,0
wait,5,"MPI_Barrier",wait at NxN,2,1,10,0,0,0
CSV
"$PT" stats --csv --from 75 --to 300 sl.txt | grep '^wait,' >slw.got
cmp -s sl.want slw.got && t_pass "slice: the window's waits" ||
  t_fail "slice: the window's waits" "$(diff sl.want slw.got | head -4)"
for o in sl1.ptf sl1.txt; do
  rm -rf "$o"
  if ok "slice_partial_$o" "$PT" slice --from 60 --to 300 -o "$o" sl.txt; then
    "$PT" stats --csv "$o" | grep '^wait,' >sl.got
    cmp -s sl.want sl.got && t_pass "slice: waits as the window's ($o)" ||
      t_fail "slice: waits as the window's ($o)" \
        "$(diff sl.want sl.got | head -6)"
    grep -q 'left out 1 collective ends' "$SCRATCH/slice_partial_$o.err" &&
      t_pass "slice: reports the left-out end ($o)" ||
      t_fail "slice: reports the left-out end ($o)" \
        "$(cat "$SCRATCH/slice_partial_$o.err")"
    "$PT" -q check "$o" >sl.chk 2>&1 && t_pass "slice: check ($o)" ||
      t_fail "slice: check ($o)" "$(tail -2 sl.chk)"
  fi
done
# a member still in an instance at `from` that others enter after it
# (the Barrier at 220: rank 2 enters at 240) keeps its call: the instance
# is whole in the slice (waits from the re-created enters at 220)
rm -rf sl2.ptf
if ok slice_open_coll_kept "$PT" slice --from 220 --to 300 -o sl2.ptf \
  sl.txt; then
  "$PT" stats --csv sl2.ptf | grep '^wait,' >sl2.got
  printf '%s\n' 'wait,5,"MPI_Barrier",wait at NxN,0,1,30,20,1,0' \
    'wait,5,"MPI_Barrier",wait at NxN,1,1,30,20,1,0' \
    'wait,5,"MPI_Barrier",wait at NxN,2,1,10,0,0,0' >sl2.want
  cmp -s sl2.want sl2.got &&
    ! grep -q 'left out' "$SCRATCH/slice_open_coll_kept.err" &&
    t_pass "slice: an instance entered across from kept" ||
    t_fail "slice: an instance entered across from kept" \
      "$(diff sl2.want sl2.got | head -4)"
fi

# the mirror at `to`: rank 2 ends the Barrier at 260, ranks 0 and 1 at
# 250; a slice to 255 had their calls unmatched (no wait), the window
# matches them.  The slice reads on to rank 2's COLL_END and adds it at
# 255: the Barrier's rows of ranks 0 and 1 are the window's, and rank 2's
# call (open at 255) counts, 240-255, no wait
sed -e 's/^event 250 2 /event 260 2 /' sl.txt >sl3.txt
rm -rf sl3.ptf
if ok slice_coll_to "$PT" slice --from 60 --to 255 -o sl3.ptf sl3.txt; then
  "$PT" stats --csv sl3.ptf | grep '^wait,5,' >sl3.got
  "$PT" stats --csv --from 75 --to 255 sl3.txt | grep '^wait,5,' >sl3w.got
  printf '%s\n' 'wait,5,"MPI_Barrier",wait at NxN,2,1,15,0,0,0' >>sl3w.got
  cmp -s sl3w.got sl3.got &&
    grep -q 'added 1 collective ends at 255' "$SCRATCH/slice_coll_to.err" &&
    t_pass "slice: an instance cut at to completed" ||
    t_fail "slice: an instance cut at to completed" \
      "$(diff sl3w.got sl3.got | head -4)"
  "$PT" -q check sl3.ptf >sl3.chk 2>&1 && t_pass "slice: check (cut at to)" ||
    t_fail "slice: check (cut at to)" "$(tail -2 sl3.chk)"
fi

# a call open at both ends whose instance was partial at `from` gets no
# COLL_END at `to`: rank 0 is in the first Bcast (root 1) from 15 to 100,
# which ranks 1 and 2 (eager) left before 25 and whose second they end
# inside [25, 50); rank 0's COLL_END at 100 is the first's, not the
# second's (it would have made a whole second instance of it): ranks 1
# and 2's calls stay unmatched (rank 0 enters the second at 110)
cat >sl4.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 1"
def location_group id=2 rank=2 name="rank 2"
def location id=2 group=2 name="thread 2"
def region id=2 role=7 paradigm=3 name="MPI_Bcast"
def group id=0 type=4 paradigm=3 name="world locations" members=[0,1,2]
def group id=1 type=5 paradigm=3 name="world" members=[0,1,2]
def comm id=0 parent=none group=1 paradigm=3 name="MPI_COMM_WORLD"
event 10 1 enter region=2
event 11 2 enter region=2
event 12 1 coll_end op=1 root=1 comm=0 sent=4 received=0
event 12 1 leave region=2
event 15 0 enter region=2
event 20 2 coll_end op=1 root=1 comm=0 sent=0 received=4
event 20 2 leave region=2
event 30 1 enter region=2
event 32 1 coll_end op=1 root=1 comm=0 sent=4 received=0
event 32 1 leave region=2
event 33 2 enter region=2
event 40 2 coll_end op=1 root=1 comm=0 sent=0 received=4
event 40 2 leave region=2
event 100 0 coll_end op=1 root=1 comm=0 sent=0 received=4
event 100 0 leave region=2
event 110 0 enter region=2
event 120 0 coll_end op=1 root=1 comm=0 sent=0 received=4
event 120 0 leave region=2
TXT
rm -rf sl4.ptf
if ok slice_coll_both "$PT" slice --from 25 --to 50 -o sl4.ptf sl4.txt; then
  "$PT" stats --csv sl4.ptf | grep '^wait,' >sl4.got
  printf '%s\n' 'wait,2,"MPI_Bcast",late broadcast,1,1,2,0,0,1' \
    'wait,2,"MPI_Bcast",late broadcast,2,1,7,0,0,1' >sl4.want
  cmp -s sl4.want sl4.got &&
    ! grep -q 'collective ends at' "$SCRATCH/slice_coll_both.err" &&
    t_pass "slice: no collective end at to for a call partial at from" ||
    t_fail "slice: no collective end at to for a call partial at from" \
      "$(diff sl4.want sl4.got | head -4)"
fi

# ---- a program of our own, recorded ----------------------------------------
. "$SRC/tests/cli/mpi.inc"
# a parallel run (each rank reads a share of the streams): the shares send
# their calls of the instances they did not see whole to rank 0, which
# matches them: one process's output, wait states included (before, none,
# "need every rank's events")
par_same() { # par_same NAME TRACE NP OPTIONS...
  n=$1 f=$2 np=$3
  shift 3
  "$PT" stats "$@" "$f" >one.out
  $RUN -np "$np" "$PT" stats "$@" "$f" >par.out 2>par.err
  grep -q '^wait,\|^Collective wait states\|"waits": \[$' one.out &&
    cmp -s one.out par.out && t_pass "$n" ||
    t_fail "$n" "$(diff one.out par.out | head -4 | tr '\n' ' ') $(head -2 par.err)"
}
if [ -x "$B/bin/paratrace-mpi" ]; then
  par_same "mpirun -np 2 stats: the wait states of one process" w.ptf 2
  par_same "mpirun -np 3 stats --csv: the wait states of one process" w.ptf 3 --csv
  # calls out of step (a world instance of ranks 1-3's Bcast and rank 0's
  # Allreduce, then an Allreduce on ranks 0 and 1): a row whose instances
  # have two patterns names the highest, in one process and in the parts
  # (which resolve the instances in another order: the row of rank 0's
  # Allreduce was "wait at NxN" in one process, "late broadcast" under
  # mpirun -np 2)
  cat >step.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def location_group id=1 rank=1 name="rank 1"
def location id=1 group=1 name="thread 1"
def location_group id=2 rank=2 name="rank 2"
def location id=2 group=2 name="thread 2"
def location_group id=3 rank=3 name="rank 3"
def location id=3 group=3 name="thread 3"
def region id=1 role=7 paradigm=3 name="MPI_Allreduce"
def region id=2 role=7 paradigm=3 name="MPI_Bcast"
def group id=0 type=4 paradigm=3 name="world locations" members=[0,1,2,3]
def group id=1 type=5 paradigm=3 name="world" members=[0,1,2,3]
def group id=2 type=5 paradigm=3 name="low" members=[0,1]
def comm id=0 parent=none group=1 paradigm=3 name="MPI_COMM_WORLD"
def comm id=1 parent=0 group=2 paradigm=3 name="low"
event 10 0 enter region=1
event 10 0 coll_begin
event 10 1 enter region=2
event 10 1 coll_begin
event 10 2 enter region=2
event 10 2 coll_begin
event 10 3 enter region=2
event 10 3 coll_begin
event 20 1 coll_end op=1 root=1 comm=0 sent=4 received=0
event 20 1 leave region=2
event 20 2 coll_end op=1 root=1 comm=0 sent=0 received=4
event 20 2 leave region=2
event 20 3 coll_end op=1 root=1 comm=0 sent=0 received=4
event 20 3 leave region=2
event 30 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 30 0 leave region=1
event 100 0 enter region=1
event 100 0 coll_begin
event 105 1 enter region=1
event 105 1 coll_begin
event 110 0 coll_end op=11 root=-1 comm=1 sent=8 received=8
event 110 0 leave region=1
event 110 1 coll_end op=11 root=-1 comm=1 sent=8 received=8
event 110 1 leave region=1
TXT
  ok "convert step" "$PT" -q convert step.txt -o step.ptf || t_done
  par_same "mpirun -np 2 stats --csv, calls out of step: one process's" \
    step.ptf 2 --csv
  # --locations: the shares of a selection see no instance whole: no wait
  # rows, as in one process (was: every call a row, counted unmatched)
  $RUN -np 2 "$PT" stats --csv --locations 0,1 w.ptf >psel.csv 2>psel.err
  $RUN -np 2 "$PT" stats --locations 0,1 w.ptf >psel.out 2>>psel.err
  grep -q '^location,' psel.csv && ! grep -q '^wait,' psel.csv &&
    grep -q '^(collective wait states need every rank' psel.out &&
    t_pass "mpirun -np 2 stats --locations: no wait states, as one process" ||
    t_fail "mpirun -np 2 stats --locations: no wait states, as one process" \
      "$(grep -c '^wait,' psel.csv) rows; $(tail -2 psel.out) $(head -2 psel.err)"
fi
ok "build waits" mpicc $SANF -o waits "$SRC/tests/mpi/waits.c" || t_done
rm -rf wr.ptf
ok record $RUN -np 3 "$PT" record -o wr.ptf -- ./waits || t_done
# (function location wait waited) in ms, from the CSV's ticks (ns)
waits() {
  awk -F, '$1 == "wait" { gsub(/"/, "", $3)
                          printf "%s %d %.0f %d\n", $3, $5, $8 / 1e6, $9 }' "$1"
}
"$PT" stats --csv wr.ptf >wr.csv
waits wr.csv >wr.got
if [ -x "$B/bin/paratrace-mpi" ]; then
  par_same "recorded, mpirun -np 2 stats --csv: one process's" wr.ptf 2 --csv
  par_same "recorded, mpirun -np 3 stats --json: one process's" wr.ptf 3 --json
  par_same "recorded, mpirun -np 3 stats --from: one process's" wr.ptf 3 \
    --csv --no-summaries --from 50ms
fi
# each of 3 barriers: ranks 0 and 1 wait for rank 2's 100 ms nap; the
# Bcast's root (2) is 100 ms late; the Reduce's root (0) 100 ms early.
# Bounds leave room for a loaded machine: at least 80% of the naps, the
# culprit under 20% of them.
awk '
  $1 == "MPI_Barrier" && $2 < 2 && ($3 < 240 || $4 != 3) { bad = bad " " $0 }
  $1 == "MPI_Barrier" && $2 == 2 && $3 > 60 { bad = bad " " $0 }
  $1 == "MPI_Bcast" && $2 < 2 && ($3 < 80 || $4 != 1) { bad = bad " " $0 }
  $1 == "MPI_Bcast" && $2 == 2 && $3 != 0 { bad = bad " " $0 }
  $1 == "MPI_Reduce" && $2 == 0 && ($3 < 80 || $4 != 1) { bad = bad " " $0 }
  $1 == "MPI_Reduce" && $2 > 0 && $3 != 0 { bad = bad " " $0 }
  { n++ }
  END { if (n != 9 || bad != "") { print n, bad; exit 1 } }' wr.got >wr.bad &&
  t_pass "recorded: the culprit found" || t_fail "recorded: the culprit found" "$(cat wr.bad)"
# through DUMPI and OTF2: the same calls, waits within 1 ms (DUMPI keeps
# nanoseconds; OTF2 the ticks)
for to in meta otf2; do
  rm -rf "wd.$to" wd wd.def
  if ok "to $to" "$PT" -q convert wr.ptf -o "wd.$to"; then
    "$PT" stats --csv "wd.$to" >wd.csv
    waits wd.csv >wd.got
    if awk 'NR == FNR { w[$1 " " $2] = $3; c[$1 " " $2] = $4; next }
            { k = $1 " " $2; d = w[k] - $3; if (!(k in w) || d > 1 || d < -1 ||
              c[k] != $4) exit 1; n++ }
            END { exit n == 9 ? 0 : 1 }' wr.got wd.got; then
      t_pass "through $to: the same waits"
    else
      t_fail "through $to: the same waits" "$(diff wr.got wd.got | head -4)"
    fi
  fi
done
t_done
