#!/bin/sh
# OTF writer and reader, trace of an MPI_THREAD_MULTIPLE program (2 ranks x
# 2 threads, messages between threads of different ranks; peers are ranks):
# as VampirTrace writes them, each rank is a top-level OTF process and its
# further threads are processes with that parent; a message names the
# peer rank's main process, and the reader gives the top-level processes
# ranks, so the messages still match when the .otf is read back.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.inc"

. "$HERE/threads.inc"
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
