#!/bin/sh
# OTF writer and reader, trace of an MPI_THREAD_MULTIPLE program (2 ranks x
# 2 threads, messages between threads of different ranks; peers are ranks):
# as VampirTrace writes them, each rank is a top-level OTF process and its
# further threads are processes with that parent; a message names the
# peer rank's main process, and the reader gives the top-level processes
# ranks, so the messages still match when the .otf is read back.
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
ok convert_otf "$PT" convert thr_sorted.txt -o thr.otf
# processes: locations 0 and 2 (tokens 1 and 3) are the ranks' main
# processes, 1 and 3 (tokens 2 and 4) their threads; no process of its own
# for the groups
procs=$(grep -h '^DP[0-9a-f]*NM' thr.*def | sed 's/NM"[^"]*"/ /' | sort | tr '\n' ,)
[ "$procs" = "DP1 ,DP2 PT1,DP3 ,DP4 PT3," ] && t_pass threads_have_parents ||
  t_fail threads_have_parents "DP records: $procs"
# every message names the peer rank's main process (1 or 3)
peers=$(cat thr.*.events | sed -n 's/^[SR]\([0-9a-f]*\)L.*/\1/p' | sort -u | tr '\n' ,)
[ "$peers" = "1,3," ] && t_pass peers_are_main_processes ||
  t_fail peers_are_main_processes "peer processes: $peers"
ok check_otf "$PT" check thr.otf >otf.out &&
  { grep -q 'OK: .* 3 messages matched' otf.out && t_pass otf_3_messages ||
      t_fail otf_3_messages "$(cat otf.out)"; }
# read back, the groups carry ranks 0 and 1 and the peers are those ranks
ok dump_otf "$PT" dump thr.otf >back.txt
ranks=$(sed -n 's/^def location_group id=\([0-9]*\) .*/\1/p' back.txt | tr '\n' ,)
rank1=$(grep -c '^def location_group id=3 .*rank=1 ' back.txt)
[ "$ranks" = "1,3," ] && [ "$rank1" = 1 ] && t_pass groups_have_ranks ||
  t_fail groups_have_ranks "$(grep '^def location' back.txt)"
speers=$(grep -E ' (send|recv) ' back.txt | sed 's/.* peer=\([-0-9]*\) .*/\1/' | tr '\n' ,)
[ "$speers" = "1,0,0,1,0,1," ] && t_pass peers_are_ranks ||
  t_fail peers_are_ranks "peers: $speers"
# and through OTF once more: the same processes
ok convert_again "$PT" convert back.txt -o again.otf
procs2=$(grep -h '^DP[0-9a-f]*NM' again.*def | sed 's/NM"[^"]*"/ /' | sort | tr '\n' ,)
[ "$procs2" = "$procs" ] && t_pass otf_otf_same_processes ||
  t_fail otf_otf_same_processes "DP records: $procs2"
ok check_again "$PT" check again.otf >again.out &&
  { grep -q 'OK: .* 3 messages matched' again.out && t_pass again_3_messages ||
      t_fail again_3_messages "$(cat again.out)"; }

t_done
