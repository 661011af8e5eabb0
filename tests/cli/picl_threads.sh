#!/bin/sh
# PICL writer, trace of an MPI_THREAD_MULTIPLE program (2 ranks x 2
# threads, messages between threads of different ranks; peers are ranks):
# the threads of a rank become processes 0, 1... of the rank's processor,
# so the messages still match when the .trf is read back.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.inc"

. "$HERE/threads.inc"
ok convert_picl "$PT" convert thr_sorted.txt -o thr.trf
# each thread of a rank is a process of the rank's processor (numbered in
# order of first use)
procs=$(awk '$1 == -3 && $4 >= 0 { print $4 " " $5 }' thr.trf | sort -u | tr '\n' ,)
[ "$procs" = "0 0,0 1,1 0,1 1," ] && t_pass threads_are_processes ||
  t_fail threads_are_processes "processor/process pairs: $procs"
ok check_picl "$PT" check thr.trf >trf.out &&
  { grep -q 'OK: .* 3 messages matched' trf.out && t_pass picl_3_messages ||
      t_fail picl_3_messages "$(cat trf.out)"; }

# stats read straight from the .trf (PICL defines processors as it goes:
# the threads' locations come after the first event) equal stats of its
# PTF conversion: threads reported as their rank (were their location ids)
ok picl_to_ptf "$PT" -q convert thr.trf -o thr.ptf &&
  "$PT" stats thr.trf | tail -n +2 >st_trf.txt && "$PT" stats thr.ptf | tail -n +2 >st_ptf.txt &&
  cmp -s st_trf.txt st_ptf.txt && t_pass stats_picl_late_locations ||
  t_fail stats_picl_late_locations "$(diff st_trf.txt st_ptf.txt | head -6)"
t_done
