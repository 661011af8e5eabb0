#!/bin/sh
# PICL writer, trace of an MPI_THREAD_MULTIPLE program (2 ranks x 2
# threads, messages between threads of different ranks; peers are ranks):
# the threads of a rank become processes 0, 1... of the rank's processor,
# so the messages still match when the .trf is read back.
. "$(dirname "$0")/common.inc"

cat >thr.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=10 rank=0 name="rank 0"
def location_group id=11 rank=1 name="rank 1"
def location id=0 group=10 name="rank 0 thread 0"
def location id=1 group=10 name="rank 0 thread 1"
def location id=2 group=11 name="rank 1 thread 0"
def location id=3 group=11 name="rank 1 thread 1"
def region id=1 name="MPI_Send"
def region id=2 name="MPI_Recv"
event 100 1 enter region=1
event 101 1 send callsite=0 peer=1 comm=0 tag=1 bytes=8
event 102 1 leave region=1
event 100 3 enter region=2
event 110 3 recv callsite=0 peer=0 comm=0 tag=1 bytes=8
event 110 3 leave region=2
event 120 2 enter region=1
event 121 2 send callsite=0 peer=0 comm=0 tag=2 bytes=16
event 122 2 leave region=1
event 115 0 enter region=2
event 130 0 recv callsite=0 peer=1 comm=0 tag=2 bytes=16
event 130 0 leave region=2
event 140 3 enter region=1
event 141 3 send callsite=0 peer=0 comm=0 tag=3 bytes=24
event 142 3 leave region=1
event 140 1 enter region=2
event 150 1 recv callsite=0 peer=1 comm=0 tag=3 bytes=24
event 150 1 leave region=2
TXT
# (the events above are grouped by message; the text reader wants time order)
{ sed -n '1,/^def region id=2/p' thr.txt; grep '^event' thr.txt | sort -s -n -k2,2; } >thr_sorted.txt

ok check_source "$PT" check thr_sorted.txt >src.out &&
  { grep -q 'OK: .* 3 messages matched' src.out && t_pass source_3_messages ||
      t_fail source_3_messages "$(cat src.out)"; }
ok convert_picl "$PT" convert thr_sorted.txt -o thr.trf
# each thread of a rank is a process of the rank's processor (numbered in
# order of first use)
procs=$(awk '$1 == -3 && $4 >= 0 { print $4 " " $5 }' thr.trf | sort -u | tr '\n' ,)
[ "$procs" = "0 0,0 1,1 0,1 1," ] && t_pass threads_are_processes ||
  t_fail threads_are_processes "processor/process pairs: $procs"
ok check_picl "$PT" check thr.trf >trf.out &&
  { grep -q 'OK: .* 3 messages matched' trf.out && t_pass picl_3_messages ||
      t_fail picl_3_messages "$(cat trf.out)"; }

t_done
