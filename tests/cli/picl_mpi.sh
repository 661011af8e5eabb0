#!/bin/sh
# An MPI trace through PICL and back: the writer names each event type it
# writes an MPI call as (MPI_Waitall for -61...) with a -5 label on the
# call's processor, the reader names the regions after those labels and
# gives a region named after an MPI function (src/mpi/mpi_table.h) the MPI
# paradigm, so `stats` finds the same application and MPI time (it found
# 0% MPI time: the calls came back as "recvend (wait)"...).  A Wait / Test
# that completes nothing is not a -61 / -58 completion pair, a Test that
# completes a send is a -28 sendstatus pair, an Iprobe is not a -53 "probe
# (available)", and marks keep their label's name.  Labels are scoped by
# processor and process as PICL defines them.
. "$(dirname "$0")/common.inc"

cat >defs.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 role=1 paradigm=3 name="MPI_Init"
def region id=2 role=1 paradigm=3 name="MPI_Comm_rank"
def region id=3 role=1 paradigm=3 name="MPI_Comm_size"
def region id=4 role=6 paradigm=3 name="MPI_Send"
def region id=5 role=6 paradigm=3 name="MPI_Isend"
def region id=6 role=6 paradigm=3 name="MPI_Irecv"
def region id=7 role=6 paradigm=3 name="MPI_Waitall"
def region id=8 role=6 paradigm=3 name="MPI_Test"
def region id=9 role=6 paradigm=3 name="MPI_Iprobe"
def region id=10 role=7 paradigm=3 name="MPI_Bcast"
def region id=11 role=1 paradigm=3 name="MPI_Finalize"
def region id=12 role=6 paradigm=3 name="MPI_Recv"
def region id=13 role=6 paradigm=3 name="MPI_Wait"
def region id=20 role=1 paradigm=1 name="prog"
def region id=21 role=5 paradigm=1 name="step"
def attribute id=50 type=1 name="value"
def label id=60 code=60 name="iteration"
TXT
cat >events.txt <<'TXT'
event 10 0 enter region=1
event 20 0 leave region=1
event 21 0 enter region=2
event 22 0 leave region=2
event 23 0 enter region=3
event 24 0 leave region=3
event 20 0 enter region=20
event 30 0 enter region=21
event 31 0 mark label=60 {50=i:7}
event 40 0 enter region=4
event 41 0 send callsite=0 peer=1 comm=0 tag=1 bytes=8
event 42 0 leave region=4
event 50 0 enter region=6
event 51 0 irecv_request request=1
event 52 0 leave region=6
event 53 0 enter region=5
event 54 0 isend callsite=0 peer=1 comm=0 tag=2 bytes=16 request=2
event 55 0 leave region=5
event 60 0 enter region=7
event 70 0 irecv callsite=0 peer=1 comm=0 tag=3 bytes=24 request=1
event 70 0 isend_complete request=2
event 75 0 leave region=7
event 80 0 enter region=7
event 81 0 leave region=7
event 85 0 enter region=5
event 86 0 isend callsite=0 peer=1 comm=0 tag=4 bytes=32 request=3
event 87 0 leave region=5
event 90 0 enter region=8
event 91 0 leave region=8
event 92 0 enter region=8
event 93 0 isend_complete request=3
event 94 0 leave region=8
event 95 0 enter region=9
event 96 0 leave region=9
event 100 0 enter region=10
event 101 0 coll_begin
event 105 0 coll_end op=1 root=0 comm=0 sent=8 received=0
event 106 0 leave region=10
event 110 0 leave region=21
event 120 0 leave region=20
event 120 0 enter region=11
event 130 0 leave region=11
event 10 1 enter region=1
event 20 1 leave region=1
event 20 1 enter region=20
event 35 1 enter region=12
event 45 1 recv callsite=0 peer=0 comm=0 tag=1 bytes=8
event 46 1 leave region=12
event 50 1 enter region=5
event 56 1 isend callsite=0 peer=0 comm=0 tag=3 bytes=24 request=11
event 57 1 leave region=5
event 58 1 enter region=12
event 65 1 recv callsite=0 peer=0 comm=0 tag=2 bytes=16
event 66 1 leave region=12
event 67 1 enter region=13
event 68 1 isend_complete request=11
event 69 1 leave region=13
event 88 1 enter region=12
event 89 1 recv callsite=0 peer=0 comm=0 tag=4 bytes=32
event 90 1 leave region=12
event 100 1 enter region=10
event 102 1 coll_begin
event 107 1 coll_end op=1 root=0 comm=0 sent=0 received=8
event 108 1 leave region=10
event 120 1 leave region=20
event 120 1 enter region=11
event 130 1 leave region=11
TXT
{ cat defs.txt; sort -s -n -k2,2 events.txt; } >mpi.txt

ok check_source "$PT" check mpi.txt >src.chk
ok to_picl "$PT" -q convert mpi.txt -o mpi.trf || t_done
ok picl_to_ptf "$PT" -q convert mpi.trf -o back.ptf || t_done

# the same application and MPI time, and the same time per MPI function
"$PT" stats mpi.txt | sed -n 2p >tot.src
"$PT" stats back.ptf | sed -n 2p >tot.back
grep -q 'MPI time 74 ns' tot.src && cmp -s tot.src tot.back &&
  t_pass picl_same_mpi_time || t_fail picl_same_mpi_time "source: $(cat tot.src); back: $(cat tot.back)"
fn_times() { "$PT" stats --csv "$1" | awk -F, '$1 == "region" { print $3, $4, $6 }' | sort; }
fn_times mpi.txt >rt.src
fn_times back.ptf | grep -v '"tracing"' >rt.back
cmp -s rt.src rt.back && t_pass picl_time_per_function ||
  t_fail picl_time_per_function "$(diff rt.src rt.back | head -6)"
# regions named after MPI functions are MPI regions with their role, also
# one PICL has no event type for (MPI_Bcast, a user event type)
"$PT" dump back.ptf >back.dump
grep -q '^def region id=[0-9]* role=6 paradigm=3 name="MPI_Waitall" canonical="PICL:-61"' back.dump &&
  grep -q '^def region id=[0-9]* role=7 paradigm=3 name="MPI_Bcast" canonical="PICL:[0-9]*"$' back.dump &&
  grep -q '^def region id=[0-9]* role=5 paradigm=1 name="step"' back.dump &&
  t_pass picl_mpi_regions || t_fail picl_mpi_regions "$(grep '^def region' back.dump)"

# the Waitall of nothing: a user event type labelled MPI_Waitall, not a
# -61 recvend pair without data; the Test that finds nothing: not a -58
# recvstatus (complete); the Test completing the isend: -28 sendstatus
awk '$4 == 0 && ($1 == -3 || $1 == -4)' mpi.trf >p0.trf
u=$(awk '$1 == -5 && $NF == "MPI_Waitall" && $2 >= 0 { print $2 }' mpi.trf)
[ -n "$u" ] && grep -q "^-3 $u 0.00000008 0 0 0$" p0.trf &&
  grep -q "^-4 $u 0.000000081 0 0 0$" p0.trf &&
  ! grep -q '^-[34] -61 0.00000008' p0.trf &&
  t_pass picl_wait_of_nothing || t_fail picl_wait_of_nothing "$(grep -e ' 0.00000008 ' p0.trf)"
t=$(awk '$1 == -5 && $NF == "MPI_Test" && $2 >= 0 { print $2 }' mpi.trf)
[ -n "$t" ] && grep -q "^-3 $t 0.00000009 0 0 0$" p0.trf &&
  grep -q '^-3 -28 0.000000092 0 0 1 2 3$' p0.trf &&
  grep -q '^-4 -28 0.000000094 0 0 0$' p0.trf &&
  ! grep -q '^-[34] -5[89] ' p0.trf &&
  t_pass picl_test_pairs || t_fail picl_test_pairs "$(grep -e ' 0.00000009' p0.trf)"
! grep -q '^-[34] -53 ' p0.trf && t_pass picl_iprobe_not_available ||
  t_fail picl_iprobe_not_available "$(grep -e ' -53 ' p0.trf)"
# the -5 labels: on the call's processor, once until the name changes
grep -q '^-5 -61 0.00000006 0 0 11 0 MPI_Waitall$' mpi.trf &&
  grep -q '^-5 -31 0.00000006 0 0 11 0 MPI_Waitall$' mpi.trf &&
  [ "$(grep -c '^-5 -27 ' mpi.trf)" = 2 ] &&
  t_pass picl_labels || t_fail picl_labels "$(grep '^-5 ' mpi.trf)"
# reading back: the messages, and the mark with its label's name
ok check_picl "$PT" check mpi.trf >chk.out &&
  { grep -q 'OK: .* 4 messages matched' chk.out && t_pass picl_messages ||
      t_fail picl_messages "$(cat chk.out)"; }
grep -q '^def label id=[0-9]* code=[0-9]* record_type=-5 name="iteration"' back.dump &&
  t_pass picl_mark_label || t_fail picl_mark_label "$(grep '^def label' back.dump)"
# PICL -> PTF -> PICL gives the same records (PTF keeps the order of
# records of one time per processor, not across processors)
ok back_to_picl "$PT" -q convert back.ptf -o again.trf &&
  { sort mpi.trf >a.sorted; sort again.trf >b.sorted
    cmp -s a.sorted b.sorted && t_pass picl_same_records ||
      t_fail picl_same_records "$(diff a.sorted b.sorted | head -4)"; }

# A foreign file: a label names its type on its own processor and process
# (-1: all); processor 1 keeps the table's name; a label between an entry
# and its exit does not part them
cat >scope.trf <<'TRF'
-3 -901 0.000000 0 0 0
-5 -21 0.000000 0 0 6 0 mysend
-3 -901 0.000000 1 0 0
-5 -52 0.000000 -1 -1 6 0 myrecv
-3 -21 0.000010 0 0 4 2 8 1 1 0
-5 -21 0.000010 0 0 5 0 other
-3 -52 0.000010 1 0 3 2 1 0 0
-4 -21 0.000011 0 0 0
-3 -21 0.000012 1 0 4 2 8 2 0 0
-4 -21 0.000013 1 0 0
-4 -52 0.000020 1 0 4 2 8 1 0 0
-3 -52 0.000021 0 0 3 2 2 1 0
-4 -52 0.000022 0 0 4 2 8 2 1 0
-3 -21 0.000025 0 0 4 2 8 3 1 0
-4 -21 0.000026 0 0 0
-3 -52 0.000027 1 0 3 2 3 0 0
-4 -52 0.000028 1 0 4 2 8 3 0 0
-4 -901 0.000030 0 0 0
-4 -901 0.000030 1 0 0
TRF
ok scope_check "$PT" check scope.trf >scope.chk &&
  grep -q 'OK: .* 3 messages matched' scope.chk && t_pass picl_scope_check ||
  t_fail picl_scope_check "$(cat scope.chk)"
"$PT" stats --csv scope.trf | awk -F, '$1 == "region" { print $3, $5 }' | sort >scope.out
printf '%s\n' '"myrecv" 3' '"mysend" 1' '"other" 1' '"send" 1' '"tracing" 2' >scope.want
cmp -s scope.out scope.want && t_pass picl_label_scope ||
  t_fail picl_label_scope "$(diff scope.want scope.out)"
ok scope_ptf "$PT" -q convert scope.trf -o scope.ptf &&
  ok scope_again "$PT" -q convert scope.ptf -o scope2.trf &&
  { cmp -s scope.trf scope2.trf && t_pass picl_scope_identical ||
      t_fail picl_scope_identical "$(diff scope.trf scope2.trf | head -4)"; }
t_done
