#!/bin/sh
# The DUMPI writer on traces of other formats (OTF2, OTF, text): MPI calls
# synthesised from the message events must read back with the messages
# the source had.  Communicator ids of such a source are not DUMPI
# handles: the writer maps them through the COMM definitions (all ranks
# in order -> MPI_COMM_WORLD 2, COMM_SELF -> 3, others handles from 4 on,
# made by MPI_Comm_split calls it adds after MPI_Init), and gives peers
# and roots as ranks in the communicator.  An MPI_Irecv takes its source,
# tag, bytes and communicator from the completion of its request.
. "$(dirname "$0")/common.inc"

# has NAME FILE LINE...: every LINE is a line of FILE
has() {
  name=$1 file=$2
  shift 2
  for l in "$@"; do
    if ! grep -qxF -- "$l" "$file"; then
      t_fail "$name" "no line '$l' in $file"
      return
    fi
  done
  t_pass "$name"
}

# clean NAME FILE: `paratrace check` reports no problem
clean() {
  if "$PT" check "$2" >"$1.out" 2>&1 && grep -q ': OK: ' "$1.out"; then
    t_pass "$1"
  else
    t_fail "$1" "$(head -c 400 "$1.out")"
  fi
}

# msgs FILE: the message events as (kind, rank, peer, tag, bytes), sorted
msgs() {
  "$PT" dump "$1" | awk '$1 == "event" && ($4 == "send" || $4 == "recv" ||
      $4 == "isend" || $4 == "irecv") {
      for (i = 5; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      print $4, $3, v["peer"], v["tag"], v["bytes"] }' | sort
}

# rank R's records of FILE as dumpi2ascii prints them
calls() {
  "$PT" dump --style dumpi --locations "$2" "$1"
}

# Four ranks as OTF2 has them: COMM_LOCATIONS group, COMM_GROUPs of
# ranks in it, communicator ids 0..4 (2 and 3 are sub-communicators, not
# DUMPI's WORLD and SELF).  Comm 2 = ranks [3,1], comm 3 = [0,2], comm 4
# each rank alone (a COMM_SELF group, not MPI_COMM_SELF).
{
  cat <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="MPI Rank 0"
def location_group id=1 rank=1 name="MPI Rank 1"
def location_group id=2 rank=2 name="MPI Rank 2"
def location_group id=3 rank=3 name="MPI Rank 3"
def location id=0 group=0 name="Master thread"
def location id=1 group=1 name="Master thread"
def location id=2 group=2 name="Master thread"
def location id=3 group=3 name="Master thread"
def group id=10 type=4 paradigm=3 name="" members=[0,1,2,3]
def group id=11 type=5 paradigm=3 name="" members=[0,1,2,3]
def group id=12 type=5 paradigm=3 name="" members=[3,1]
def group id=13 type=5 paradigm=3 name="" members=[0,2]
def group id=14 type=6 paradigm=3 name=""
def comm id=0 parent=none group=11 paradigm=3 name="MPI_COMM_WORLD"
def comm id=1 parent=none group=14 paradigm=3 name="MPI_COMM_SELF"
def comm id=2 parent=0 group=12 paradigm=3 name=""
def comm id=3 parent=0 group=13 paradigm=3 name=""
def comm id=4 parent=none group=14 paradigm=3 name=""
def region id=1 paradigm=3 name="MPI_Init"
def region id=2 paradigm=3 name="MPI_Comm_split"
def region id=3 paradigm=3 name="MPI_Isend"
def region id=4 paradigm=3 name="MPI_Irecv"
def region id=5 paradigm=3 name="MPI_Wait"
def region id=6 paradigm=3 name="MPI_Bcast"
def region id=7 paradigm=3 name="MPI_Send"
def region id=8 paradigm=3 name="MPI_Recv"
def region id=9 paradigm=3 name="MPI_Allreduce"
TXT
  for r in 0 1 2 3; do echo "event 10$r $r enter region=1"; done
  for r in 0 1 2 3; do echo "event 20$r $r leave region=1"; done
  for r in 0 1 2 3; do echo "event 30$r $r enter region=2"; done
  for r in 0 1 2 3; do echo "event 40$r $r leave region=2"; done
  cat <<'TXT'
event 1000 1 enter region=4
event 1001 1 irecv_request request=7
event 1002 1 leave region=4
event 1010 3 enter region=3
event 1011 3 isend callsite=none peer=1 comm=2 tag=6 bytes=400 request=1
event 1012 3 leave region=3
event 1020 2 enter region=7
event 1021 2 send callsite=none peer=0 comm=3 tag=9 bytes=16
event 1022 2 leave region=7
event 1030 0 enter region=8
event 1031 0 recv callsite=none peer=2 comm=3 tag=9 bytes=16
event 1032 0 leave region=8
event 1040 3 enter region=5
event 1041 3 isend_complete request=1
event 1042 3 leave region=5
event 1050 1 enter region=5
event 1051 1 irecv callsite=none peer=3 comm=2 tag=6 bytes=400 request=7
event 1052 1 leave region=5
event 1060 3 enter region=6
event 1061 3 coll_end op=1 root=3 comm=2 sent=200 received=100
event 1062 3 leave region=6
event 1063 1 enter region=6
event 1064 1 coll_end op=1 root=3 comm=2 sent=0 received=100
event 1065 1 leave region=6
TXT
  for r in 0 1 2 3; do echo "event 110$r $r enter region=6"; done
  for r in 0 1 2 3; do
    b=$((r == 0 ? 50 : 0)) x=$((r == 0 ? 0 : 50))
    echo "event 111$r $r coll_end op=1 root=0 comm=0 sent=$b received=$x"
  done
  for r in 0 1 2 3; do echo "event 112$r $r leave region=6"; done
  for r in 0 1 2 3; do echo "event 120$r $r enter region=9"; done
  for r in 0 1 2 3; do
    echo "event 121$r $r coll_end op=11 root=-1 comm=4 sent=8 received=8"
  done
  for r in 0 1 2 3; do echo "event 122$r $r leave region=9"; done
} >foreign.txt

ok foreign_source_clean "$PT" check foreign.txt >/dev/null
ok foreign_convert "$PT" convert foreign.txt -o foreign.meta
if grep -q 'communicator' foreign_convert.err; then
  t_fail foreign_no_late_warning "$(cat foreign_convert.err)"
else t_pass foreign_no_late_warning; fi
clean foreign_read_back_clean foreign.meta
msgs foreign.txt >m.src
msgs foreign.meta >m.out
if [ -s m.src ] && cmp -s m.src m.out; then t_pass foreign_same_messages
else t_fail foreign_same_messages "$(diff m.src m.out | head -5)"; fi

# rank 1: the sub-communicator is handle 4 (not MPI_COMM_WORLD), made by
# an MPI_Comm_split after MPI_Init; the Irecv from world rank 3 is from
# rank 0 of [3,1], 400 bytes, tag 6; the Bcast's root (world 3) is 0 and
# the receiver's count the bytes it received
calls foreign.meta 1 >r1.txt
has foreign_comm_split r1.txt 'MPI_Comm oldcomm=2 (MPI_COMM_WORLD)' \
  'int color=0' 'int key=1' 'MPI_Comm newcomm=4 (user-defined-comm)' \
  'int color=-32766' 'MPI_Comm newcomm=1 (MPI_COMM_NULL)'
sed -n '/^MPI_Irecv entering/,/^MPI_Irecv returning/p' r1.txt >irecv.txt
has foreign_irecv_args irecv.txt 'int count=400' 'int source=0' 'int tag=6' \
  'MPI_Comm comm=4 (user-defined-comm)'
sed -n '/^MPI_Bcast entering/,/^MPI_Bcast returning/p' r1.txt | head -6 >bc.txt
has foreign_bcast_receiver bc.txt 'int count=100' 'int root=0' \
  'MPI_Comm comm=4 (user-defined-comm)'
calls foreign.meta 3 >r3.txt
sed -n '/^MPI_Isend entering/,/^MPI_Isend returning/p' r3.txt >isend.txt
has foreign_isend_args isend.txt 'int count=400' 'int dest=1' 'int tag=6' \
  'MPI_Comm comm=4 (user-defined-comm)'
sed -n '/^MPI_Bcast entering/,/^MPI_Bcast returning/p' r3.txt | head -6 >bc3.txt
has foreign_bcast_root bc3.txt 'int count=100' 'int root=0'
# comm 3 = [0,2]: handle 5 (was MPI_COMM_SELF), peers 1 and 0; comm 4
# (each rank alone): handle 6, split by color = the rank
calls foreign.meta 2 >r2.txt
sed -n '/^MPI_Send entering/,/^MPI_Send returning/p' r2.txt >send.txt
has foreign_send_args send.txt 'int dest=0' 'MPI_Comm comm=5 (user-defined-comm)'
calls foreign.meta 0 >r0.txt
sed -n '/^MPI_Recv entering/,/^MPI_Recv returning/p' r0.txt >recv.txt
has foreign_recv_args recv.txt 'int source=1' 'MPI_Comm comm=5 (user-defined-comm)'
has foreign_selflike r2.txt 'int color=2' 'MPI_Comm newcomm=6 (user-defined-comm)' \
  'MPI_Comm comm=6 (user-defined-comm)'
# printing the source directly gives the same records (the Irecv held
# back until its completion)
"$PT" dump --style dumpi foreign.txt | grep -v walltime >p.src
"$PT" dump --style dumpi foreign.meta | grep -v walltime >p.out
if cmp -s p.src p.out; then t_pass foreign_print_same
else t_fail foreign_print_same "$(diff p.src p.out | head -5)"; fi

# The same through OTF2 (its reader's communicator ids and groups)
if "$PT" convert foreign.txt -o foreign.otf2 2>/dev/null; then
  ok otf2_convert "$PT" convert foreign.otf2 -o viaotf2.meta
  clean otf2_read_back_clean viaotf2.meta
  msgs viaotf2.meta >m.otf2
  if cmp -s m.src m.otf2; then t_pass otf2_same_messages
  else t_fail otf2_same_messages "$(diff m.src m.otf2 | head -5)"; fi
fi

# OTF: process groups of location ids; the one of all processes is
# MPI_COMM_WORLD (id 1000000), another with the two ranks reversed a user
# communicator; location groups 1, 2 are ranks 0, 1
cat >otf.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=1 name="Process 0"
def location_group id=2 rank=1 name="Process 1"
def location id=1 group=1 name="Process 0"
def location id=2 group=2 name="Process 1"
def group id=1000000 type=1 name="MPI_COMM_WORLD" members=[1,2]
def comm id=1000000 parent=none group=1000000 name="MPI_COMM_WORLD"
def group id=1000001 type=1 name="MPI Communicator 1" members=[2,1]
def comm id=1000001 parent=none group=1000001 name="MPI Communicator 1"
def region id=2 name="MPI_Send"
def region id=3 name="MPI_Recv"
event 20 1 enter region=2
event 21 1 send callsite=0 peer=1 comm=1000000 tag=7 bytes=4096
event 22 2 enter region=3
event 30 1 leave region=2
event 40 2 recv callsite=0 peer=0 comm=1000000 tag=7 bytes=4096
event 41 2 leave region=3
event 42 2 enter region=2
event 43 2 send callsite=0 peer=0 comm=1000001 tag=9 bytes=16
event 44 2 leave region=2
event 45 1 enter region=3
event 50 1 recv callsite=0 peer=1 comm=1000001 tag=9 bytes=16
event 51 1 leave region=3
TXT
ok otf_convert "$PT" convert otf.txt -o otf.meta
clean otf_read_back_clean otf.meta
printf '%s\n' 'recv 0 1 9 16' 'recv 1 0 7 4096' 'send 0 1 7 4096' \
  'send 1 0 9 16' >o.src
msgs otf.meta >o.out
if cmp -s o.src o.out; then t_pass otf_same_messages
else t_fail otf_same_messages "$(diff o.src o.out | head -5)"; fi
calls otf.meta 1 >o1.txt
sed -n '/^MPI_Recv entering/,/^MPI_Recv returning/p' o1.txt >orecv.txt
has otf_world_recv orecv.txt 'int source=0' 'MPI_Comm comm=2 (MPI_COMM_WORLD)'
sed -n '/^MPI_Send entering/,/^MPI_Send returning/p' o1.txt >osend.txt
has otf_user_send osend.txt 'int dest=1' 'MPI_Comm comm=4 (user-defined-comm)'

# A trace with DUMPI-style ids (what the recorder and the DUMPI reader
# define: COMM 2 MPI_COMM_WORLD, 3 MPI_COMM_SELF) keeps them: no split
# added, comm 2 is MPI_COMM_WORLD
cat >native.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="MPI Rank 0"
def location_group id=1 rank=1 name="MPI Rank 1"
def location id=0 group=0 name="Master thread of rank 0"
def location id=1 group=1 name="Master thread of rank 1"
def group id=0 type=4 paradigm=3 name="MPI_COMM_WORLD ranks" members=[0,1]
def group id=1 type=6 paradigm=3 name="MPI_COMM_SELF"
def comm id=2 parent=none group=0 paradigm=3 name="MPI_COMM_WORLD"
def comm id=3 parent=none group=1 paradigm=3 name="MPI_COMM_SELF"
def region id=1 paradigm=3 name="MPI_Init"
def region id=2 paradigm=3 name="MPI_Send"
def region id=3 paradigm=3 name="MPI_Recv"
event 10 0 enter region=1
event 11 1 enter region=1
event 20 0 leave region=1
event 21 1 leave region=1
event 30 0 enter region=2
event 31 0 send callsite=none peer=1 comm=2 tag=1 bytes=8
event 32 1 enter region=3
event 33 0 leave region=2
event 40 1 recv callsite=none peer=0 comm=2 tag=1 bytes=8
event 41 1 leave region=3
TXT
ok native_convert "$PT" convert native.txt -o native.meta
clean native_read_back_clean native.meta
calls native.meta 0 >n0.txt
if grep -q MPI_Comm_split n0.txt; then t_fail native_no_split "$(head -5 n0.txt)"
else has native_no_split n0.txt 'int dest=1' 'MPI_Comm comm=2 (MPI_COMM_WORLD)'; fi

# An MPI_Irecv completed after more than the writer's 64 KiB buffer (its
# record already in the file), and one never completed (any source, any
# tag, 0 bytes)
{
  sed -n '1,/^def region id=9/p' foreign.txt
  echo "event 1000 1 enter region=4"
  echo "event 1001 1 irecv_request request=7"
  echo "event 1002 1 leave region=4"
  echo "event 1003 1 enter region=4"
  echo "event 1004 1 irecv_request request=8"
  echo "event 1005 1 leave region=4"
  awk 'BEGIN { for (i = 0; i < 4000; i++) {
    t = 2000 + 10 * i
    printf "event %d 1 enter region=7\n", t
    printf "event %d 1 send callsite=none peer=2 comm=0 tag=1 bytes=1\n", t + 1
    printf "event %d 1 leave region=7\n", t + 2 } }'
  echo "event 100000 1 enter region=5"
  echo "event 100001 1 irecv callsite=none peer=3 comm=2 tag=6 bytes=400 request=7"
  echo "event 100002 1 leave region=5"
} >late.txt
ok late_convert "$PT" convert late.txt -o late.meta
calls late.meta 1 | sed -n '/^MPI_Irecv entering/,/^MPI_Irecv returning/p' >late1.txt
has late_irecv_patched late1.txt 'int count=400' 'int source=0' 'int tag=6' \
  'MPI_Comm comm=4 (user-defined-comm)' 'int count=0' \
  'int source=-1 (MPI_ANY_SOURCE)' 'int tag=-1 (MPI_ANY_TAG)'
calls late.txt 1 | sed -n '/^MPI_Irecv entering/,/^MPI_Irecv returning/p' >late2.txt
if cmp -s late1.txt late2.txt; then t_pass late_print_same
else t_fail late_print_same "$(diff late1.txt late2.txt | head -5)"; fi

# A communicator defined after a rank's first call: no MPI_Comm_split
# for it on any rank (before: on the ranks not yet started only, a
# collective the others never call)
{
  echo '# paratrace text 1'
  echo 'def clock ticks_per_second=1000000000'
  echo 'def location_group id=0 rank=0 name="rank 0"'
  echo 'def location_group id=1 rank=1 name="rank 1"'
  echo 'def location id=0 group=0 name="rank 0"'
  echo 'def location id=1 group=1 name="rank 1"'
  echo 'def group id=10 type=5 paradigm=3 name="" members=[0,1]'
  echo 'def comm id=0 parent=none group=10 paradigm=3 name="MPI_COMM_WORLD"'
  echo 'def region id=1 paradigm=3 name="MPI_Init"'
  echo 'def region id=7 paradigm=3 name="MPI_Send"'
  echo 'def region id=8 paradigm=3 name="MPI_Recv"'
  echo 'event 100 0 enter region=1'
  echo 'event 110 0 leave region=1'
  echo 'event 120 0 enter region=7'
  echo 'event 121 0 send callsite=none peer=1 comm=5 tag=3 bytes=4'
  echo 'event 122 0 leave region=7'
  echo 'def group id=11 type=5 paradigm=3 name="" members=[1,0]'
  echo 'def comm id=5 parent=0 group=11 paradigm=3 name="sub"'
  echo 'event 130 1 enter region=1'
  echo 'event 140 1 leave region=1'
  echo 'event 150 1 enter region=8'
  echo 'event 151 1 recv callsite=none peer=0 comm=5 tag=3 bytes=4'
  echo 'event 152 1 leave region=8'
} >latec.txt
"$PT" convert latec.txt -o latec.meta 2>latec.err
n=$("$PT" dump --style dumpi latec.meta 2>/dev/null | grep -c 'MPI_Comm_split entering')
[ "$n" = 0 ] && grep -q 'per-rank handles' latec.err && t_pass late_comm_no_partial_split ||
  t_fail late_comm_no_partial_split "$n splits; $(cat latec.err)"

# An MPI_Irecv always outstanding (rank 0 posts the next before the
# previous completes, 6,000 times): the print queue never empties; printed
# records are dropped from its front as it goes (before, it held every
# record to the end), and the output equals the converted file's
{
  echo '# paratrace text 1'
  echo 'def clock ticks_per_second=1000000000'
  echo 'def location_group id=0 rank=0 name="rank 0"'
  echo 'def location_group id=1 rank=1 name="rank 1"'
  echo 'def location id=0 group=0 name="rank 0"'
  echo 'def location id=1 group=1 name="rank 1"'
  echo 'def group id=10 type=5 paradigm=3 name="" members=[0,1]'
  echo 'def comm id=0 parent=none group=10 paradigm=3 name="MPI_COMM_WORLD"'
  echo 'def region id=1 paradigm=3 name="MPI_Init"'
  echo 'def region id=4 paradigm=3 name="MPI_Irecv"'
  echo 'def region id=5 paradigm=3 name="MPI_Wait"'
  echo 'def region id=7 paradigm=3 name="MPI_Send"'
  awk 'BEGIN {
    print "event 100 0 enter region=1"; print "event 101 1 enter region=1"
    print "event 110 0 leave region=1"; print "event 111 1 leave region=1"
    t = 1000
    for (i = 1; i <= 6000; i++) {
      print "event " t " 0 enter region=4"
      print "event " t + 1 " 0 irecv_request request=" i
      print "event " t + 2 " 0 leave region=4"
      print "event " t + 3 " 1 enter region=7"
      print "event " t + 4 " 1 send callsite=none peer=0 comm=0 tag=5 bytes=8"
      print "event " t + 5 " 1 leave region=7"
      if (i > 1) {
        print "event " t + 6 " 0 enter region=5"
        print "event " t + 7 " 0 irecv callsite=none peer=1 comm=0 tag=5 bytes=8 request=" i - 1
        print "event " t + 8 " 0 leave region=5"
      }
      t += 10
    }
    print "event " t " 0 enter region=5"
    print "event " t + 1 " 0 irecv callsite=none peer=1 comm=0 tag=5 bytes=8 request=6000"
    print "event " t + 2 " 0 leave region=5" }'
} >roll.txt
"$PT" dump --style dumpi roll.txt >roll.print 2>roll.err
"$PT" -q convert roll.txt -o roll.meta && "$PT" dump --style dumpi roll.meta >roll.file 2>/dev/null
if [ -s roll.print ] && cmp -s roll.print roll.file &&
   [ "$(grep -c 'int source=1$' roll.print)" = 6000 ]; then t_pass rolling_irecv_print
else t_fail rolling_irecv_print "$(diff roll.print roll.file | head -5; cat roll.err)"; fi

# A source without request ids (OTF 1 as VampirTrace writes it, e.g. a WRF
# trace): a plain send inside MPI_Isend, nothing inside MPI_Irecv, the
# receive inside the MPI_Wait / MPI_Waitall that completed it.  The writer
# gave all of them MPI_REQUEST_NULL (1) and an MPI_Irecv of MPI_ANY_SOURCE
# and count 0: read back, no receive at all (25,680 unmatched sends on the
# WRF trace) and "request id 1 reused while still outstanding" warnings.
# Now each nonblocking call gets a handle, and the completion calls take
# them oldest first: a receive per recv event in them (its status, and the
# MPI_Irecv's count/source/tag), else MPI_Wait the oldest send and
# MPI_Waitall every send.
{
  cat <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def group id=10 type=4 paradigm=3 name="" members=[0,1]
def group id=11 type=5 paradigm=3 name="" members=[0,1]
def comm id=0 parent=none group=11 paradigm=3 name="MPI_COMM_WORLD"
def region id=1 paradigm=3 name="MPI_Irecv"
def region id=2 paradigm=3 name="MPI_Isend"
def region id=3 paradigm=3 name="MPI_Wait"
def region id=4 paradigm=3 name="MPI_Waitall"
TXT
  for r in 0 1; do
    p=$((1 - r))
    echo "event 10$r $r enter region=1"
    echo "event 11$r $r leave region=1"
    echo "event 12$r $r enter region=2"
    echo "event 13$r $r send callsite=0 peer=$p comm=0 tag=$p bytes=100"
    echo "event 14$r $r leave region=2"
    echo "event 15$r $r enter region=3"
    echo "event 16$r $r recv callsite=0 peer=$p comm=0 tag=$r bytes=100"
    echo "event 17$r $r leave region=3"
    echo "event 18$r $r enter region=3"
    echo "event 19$r $r leave region=3"
    echo "event 20$r $r enter region=1"
    echo "event 21$r $r leave region=1"
    echo "event 22$r $r enter region=1"
    echo "event 23$r $r leave region=1"
    echo "event 24$r $r enter region=2"
    echo "event 25$r $r send callsite=0 peer=$p comm=0 tag=7 bytes=70"
    echo "event 26$r $r leave region=2"
    echo "event 27$r $r enter region=2"
    echo "event 28$r $r send callsite=0 peer=$p comm=0 tag=8 bytes=80"
    echo "event 29$r $r leave region=2"
    echo "event 30$r $r enter region=4"
    echo "event 31$r $r recv callsite=0 peer=$p comm=0 tag=7 bytes=70"
    echo "event 32$r $r recv callsite=0 peer=$p comm=0 tag=8 bytes=80"
    echo "event 33$r $r leave region=4"
  done
} | sort -k2,2n -s >noreq.unsorted
{ grep -v '^event' noreq.unsorted; grep '^event' noreq.unsorted | sort -k2,2n; } >noreq.txt
ok noreq_to_dumpi "$PT" convert noreq.txt -o noreq.meta &&
  { [ ! -s noreq_to_dumpi.err ] && t_pass noreq_no_warning ||
      t_fail noreq_no_warning "$(head -c 300 noreq_to_dumpi.err)"; }
"$PT" check noreq.meta >noreq.chk 2>&1
grep -q 'OK: .*6 messages matched' noreq.chk && [ "$(grep -c warning noreq.chk)" = 0 ] &&
  t_pass noreq_messages_matched || t_fail noreq_messages_matched "$(head -c 400 noreq.chk)"
msgs noreq.txt | sed 's/^send/S/; s/^recv/R/' >noreq.want
msgs noreq.meta | sed 's/^isend/S/; s/^irecv/R/' >noreq.got
cmp -s noreq.want noreq.got && t_pass noreq_same_messages ||
  t_fail noreq_same_messages "$(diff noreq.want noreq.got | head -6)"
calls noreq.meta 0 >noreq.calls
has noreq_calls noreq.calls 'int count=100' 'int source=1' 'MPI_Request request=[2]' \
  'MPI_Request request=[3]' 'MPI_Status status=[{bytes=100, cancelled=0, source=1, tag=0, error=0}]' \
  'MPI_Request requests[4]=[4, 5, 6, 7]'

# A set written by another DUMPI version (SST 8.1, DUMPI 1.x: real traces
# of dumpi_to_graph, the DOE mini-apps): the reader says once per version
# which files it is (it said it once per file: a line per rank on every
# command of a 1,024-rank set).
"$PT" -q generate -o gv.ptf --locations 6 --events 40 >/dev/null 2>&1 &&
  "$PT" -q convert gv.ptf -o gv.meta && "$PT" dump gv.meta >gv.txt ||
  t_fail version_setup "cannot make a DUMPI set"
sed 's/name="dumpi.version" value="13.0.0"/name="dumpi.version" value="8.1.0"/' gv.txt >gv8.txt
sed '/scope=3 name="dumpi.version"/s/value="8.1.0"/value="1.1.0"/' gv8.txt >gv81.txt
ok version_set "$PT" -q convert gv81.txt -o gv81.meta &&
  "$PT" info gv81.meta >gv81.out 2>gv81.err
[ "$(grep -c 'layout of version 13 assumed' gv81.err)" = 2 ] &&
  grep -q 'gv81.meta: 5 of the 6 files (the first gv81-0000.bin) written by DUMPI 8.1.0; layout of version 13 assumed' gv81.err &&
  grep -q 'gv81.meta: 1 of the 6 files (the first gv81-0003.bin) written by DUMPI 1.1.0' gv81.err &&
  t_pass version_said_once || t_fail version_said_once "$(cat gv81.err)"
"$PT" info gv81-0003.bin >/dev/null 2>gv1.err
grep -qx 'paratrace info: warning: gv81-0003.bin: written by DUMPI 1.1.0; layout of version 13 assumed' gv1.err &&
  t_pass version_one_file || t_fail version_one_file "$(cat gv1.err)"

t_done
