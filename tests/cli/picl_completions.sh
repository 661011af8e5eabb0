#!/bin/sh
# PICL writer: calls that complete several requests (MPI_Waitall of a send
# and a receive, MPI_Waitsome completing three receives, MPI_Test completing
# an isend) become entry/exit pairs that nest properly -- every entry record
# has its exit, of the same event type -- and read back with every message
# matched.  A sink error names the user's output path, not the temporary.
. "$(dirname "$0")/common.inc"

cat >waits.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 name="MPI_Isend"
def region id=2 name="MPI_Irecv"
def region id=3 name="MPI_Waitall"
def region id=4 name="MPI_Waitsome"
def region id=5 name="MPI_Test"
def region id=6 name="MPI_Wait"
def region id=7 name="MPI_Send"
def region id=8 name="MPI_Recv"
event 90 1 enter region=2
event 91 1 irecv_request request=11
event 92 1 leave region=2
event 100 0 enter region=1
event 101 0 isend callsite=0 peer=1 comm=0 tag=1 bytes=8 request=1
event 102 0 leave region=1
event 104 1 enter region=1
event 105 1 isend callsite=0 peer=0 comm=0 tag=2 bytes=16 request=12
event 106 1 leave region=1
event 110 0 enter region=2
event 111 0 irecv_request request=2
event 112 0 leave region=2
event 120 0 enter region=3
event 130 1 enter region=3
event 140 0 isend_complete request=1
event 140 0 irecv callsite=0 peer=1 comm=0 tag=2 bytes=16 request=2
event 150 0 leave region=3
event 155 1 irecv callsite=0 peer=0 comm=0 tag=1 bytes=8 request=11
event 156 1 isend_complete request=12
event 160 1 leave region=3
event 161 0 enter region=2
event 162 0 irecv_request request=3
event 163 0 leave region=2
event 164 0 enter region=2
event 165 0 irecv_request request=4
event 166 0 leave region=2
event 167 0 enter region=2
event 168 0 irecv_request request=5
event 169 0 leave region=2
event 200 1 enter region=7
event 201 1 send callsite=0 peer=0 comm=0 tag=3 bytes=24
event 202 1 leave region=7
event 210 1 enter region=7
event 211 1 send callsite=0 peer=0 comm=0 tag=4 bytes=32
event 212 1 leave region=7
event 220 1 enter region=7
event 221 1 send callsite=0 peer=0 comm=0 tag=5 bytes=40
event 222 1 leave region=7
event 300 0 enter region=4
event 340 0 irecv callsite=0 peer=1 comm=0 tag=3 bytes=24 request=3
event 340 0 irecv callsite=0 peer=1 comm=0 tag=4 bytes=32 request=4
event 345 0 irecv callsite=0 peer=1 comm=0 tag=5 bytes=40 request=5
event 350 0 leave region=4
event 400 0 enter region=1
event 401 0 isend callsite=0 peer=1 comm=0 tag=6 bytes=48 request=6
event 402 0 leave region=1
event 405 1 enter region=8
event 410 0 enter region=5
event 415 0 isend_complete request=6
event 420 0 leave region=5
event 450 1 recv callsite=0 peer=0 comm=0 tag=6 bytes=48
event 451 1 leave region=8
TXT

ok check_source "$PT" check waits.txt >src.out &&
  { grep -q 'OK: .* 6 messages matched' src.out && t_pass source_has_6_messages ||
      t_fail source_has_6_messages "$(cat src.out)"; }

ok convert_to_picl "$PT" convert waits.txt -o waits.trf &&
  { [ ! -s convert_to_picl.err ] && t_pass convert_no_warning ||
      t_fail convert_no_warning "$(head -c 300 convert_to_picl.err)"; }

# Every entry record is closed by an exit of the same event type, innermost
# first (per processor).
awk '$1 == -3 || $1 == -4 {
       p = $4
       if ($1 == -3) { d[p]++; s[p, d[p]] = $2; next }
       if (d[p] < 1 || s[p, d[p]] != $2) { print "unmatched exit: " $0; bad = 1; exit }
       d[p]--
     }
     END { for (p in d) if (d[p]) { print "open at the end on " p; bad = 1 }
           exit bad }' waits.trf >nest.out &&
  t_pass picl_records_nest || t_fail picl_records_nest "$(cat nest.out)"

# the Waitall: a sendend pair then a recvend pair, one after the other;
# the Waitsome: three recvend pairs; the Test: a sendstatus pair (-28,
# "checking and finding that a send request is complete"; it was a sendend
# -31, "waiting until a send request is complete")
grep -e '^-[34] -28 ' -e '^-[34] -31 ' -e '^-[34] -61 ' waits.trf | grep ' 0 0 ' >pairs.out
cat >pairs.want <<'WANT'
-3 -31 0.00000012 0 0 1 2 1
-4 -31 0.00000014 0 0 0
-3 -61 0.00000014 0 0 1 2 2
-4 -61 0.00000015 0 0 4 2 16 2 1 -1
-3 -61 0.0000003 0 0 1 2 3
-4 -61 0.00000034 0 0 4 2 24 3 1 -1
-3 -61 0.00000034 0 0 1 2 4
-4 -61 0.000000345 0 0 4 2 32 4 1 -1
-3 -61 0.000000345 0 0 1 2 5
-4 -61 0.00000035 0 0 4 2 40 5 1 -1
-3 -28 0.00000041 0 0 1 2 6
-4 -28 0.00000042 0 0 0
WANT
cmp -s pairs.out pairs.want && t_pass completion_pairs ||
  t_fail completion_pairs "$(diff pairs.want pairs.out | head -20)"

ok check_picl "$PT" check waits.trf >trf.out &&
  { grep -q 'OK: .* 6 messages matched' trf.out && t_pass picl_has_6_messages ||
      t_fail picl_has_6_messages "$(cat trf.out)"; }

# read back: the same sends, receives and completions
"$PT" convert waits.trf -o back.txt 2>back.err || t_fail read_back "$(cat back.err)"
for k in send isend recv irecv isend_complete irecv_request; do
  a=$(grep -c "^event [0-9]* [0-9]* $k " waits.txt)
  b=$(grep -c "^event [0-9]* [0-9]* $k " back.txt)
  [ "$a" = "$b" ] && t_pass "read_back_$k" || t_fail "read_back_$k" "$a in the source, $b read back"
done
# each completion keeps its own request
grep -q '^event 140 0 isend_complete request=1$' back.txt &&
  grep -q '^event 420 0 isend_complete request=6$' back.txt &&
  t_pass completion_requests || t_fail completion_requests "$(grep isend_complete back.txt)"

# A sink error names the output path the user gave, not the temporary file;
# a real depth limit (enters never left) also names location and time.
{
  echo '# paratrace text 1'
  echo 'def clock ticks_per_second=1000000000'
  echo 'def location_group id=0 rank=0 name="rank 0"'
  echo 'def location id=0 group=0 name="rank 0"'
  echo 'def region id=1 name="compute"'
  awk 'BEGIN { for (i = 1; i <= 65600; i++) print "event " i " 0 enter region=1" }'
} >deep.txt
fails_cleanly deep_names_output 1 \
  'deep.trf: location 0 (processor 0 process 0), t=65537: more than 65536 regions open' \
  "$PT" convert deep.txt -o deep.trf &&
  { grep -q 'tmp-' deep_names_output.err &&
      t_fail deep_no_tmp_name "$(cat deep_names_output.err)" || t_pass deep_no_tmp_name; }
# 300 regions open at once (enters without leaves, as in APEX traces):
# written (the region stack grows; it held 256 before)
awk 'NR <= 5 || /enter/ && ++n <= 300' deep.txt >deep300.txt
"$PT" -q convert deep300.txt -o deep300.trf 2>deep300.err &&
  [ "$("$PT" dump deep300.trf | grep -c '^event [0-9]* [0-9]* enter ')" -ge 300 ] &&
  t_pass deep_300_open || t_fail deep_300_open "$(cat deep300.err)"
# A user region is announced by a -5 label on the processor that uses it
# (not on -1, which reads back as one more processor), and a collective
# PICL has no event type for is said, not dropped silently.
cat >user.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 name="solver"
def region id=2 name="MPI_Bcast"
event 100 0 enter region=1
event 101 1 enter region=1
event 110 0 enter region=2
event 111 1 enter region=2
event 112 0 coll_end op=1 root=0 comm=0 sent=8 received=0
event 113 0 leave region=2
event 114 1 coll_end op=1 root=0 comm=0 sent=0 received=8
event 115 1 leave region=2
event 120 0 leave region=1
event 121 1 leave region=1
TXT
"$PT" convert user.txt -o user.trf 2>user.err
grep -q "2 'bcast' collective operations have no PICL event type" user.err &&
  t_pass picl_unwritable_collective_said ||
  t_fail picl_unwritable_collective_said "$(cat user.err)"
if grep -q '^-5 ' user.trf && ! grep '^-5 ' user.trf | grep -q ' -1 -1 '; then
  t_pass picl_label_on_its_processor
else t_fail picl_label_on_its_processor "$(grep '^-5 ' user.trf)"; fi
"$PT" convert user.trf -o user2.ptf 2>/dev/null &&
  "$PT" info user2.ptf | grep -q 'locations *2 defined, 2 with events' &&
  t_pass picl_no_phantom_location ||
  t_fail picl_no_phantom_location "$("$PT" info user2.ptf 2>&1 | grep locations)"

# A wait that completes no message (a non-blocking collective's request)
# reads back without a phantom receive
cat >nbc.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 name="MPI_Iallreduce"
def region id=2 name="MPI_Wait"
event 100 0 enter region=1
event 100 0 coll_begin
event 101 0 coll_end op=11 root=-1 comm=0 sent=8 received=8
event 101 0 leave region=1
event 110 0 enter region=2
event 120 0 leave region=2
TXT
ok nbc_to_picl "$PT" -q convert nbc.txt -o nbc.trf &&
  ok nbc_back "$PT" -q convert nbc.trf -o nbc_back.txt &&
  { ! grep -Eq ' (irecv|recv|isend_complete) ' nbc_back.txt && t_pass nbc_wait_no_phantom_recv ||
      t_fail nbc_wait_no_phantom_recv "$(grep -E ' (irecv|recv|isend_complete) ' nbc_back.txt)"; }
# times PICL cannot hold (beyond 2^63 ns) are said, not silently clamped
cat >far.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 name="MPI_Barrier"
event 9223372036854000000 0 enter region=1
event 9223372036854000001 0 leave region=1
TXT
"$PT" convert far.txt -o far.trf >far.out 2>&1 && grep -q 'time values beyond what PICL holds' far.out &&
  t_pass picl_far_times_said || t_fail picl_far_times_said "$(cat far.out)"
# Epoch-nanosecond times (10 integer digits, 9 decimals) read back exactly:
# the parser dropped fraction digits past 18 significant ones but still
# counted them, so 1700000000.000001045 read as 170000000000000104 ns and
# paratrace could not read its own PICL output ("time goes backwards").
cat >epoch.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 name="compute"
def region id=2 name="MPI_Send"
def region id=3 name="MPI_Recv"
event 1700000000000001045 0 enter region=1
event 1700000000000001046 1 enter region=3
event 1700000000123456789 0 leave region=1
event 1700000000123456790 0 enter region=2
event 1700000000123456790 0 send callsite=0 peer=1 comm=0 tag=7 bytes=800
event 1700000000200000000 0 leave region=2
event 1700000001000000001 1 recv callsite=0 peer=0 comm=0 tag=7 bytes=800
event 1700000001000000001 1 leave region=3
event 9223372036854775806 1 enter region=1
event 9223372036854775807 1 leave region=1
TXT
ok epoch_to_ptf "$PT" -q convert epoch.txt -o epoch.ptf &&
  ok epoch_to_picl "$PT" -q convert epoch.ptf -o epoch.trf &&
  ok epoch_picl_to_ptf "$PT" -q convert epoch.trf -o epoch_back.ptf &&
  { # every event of the source is there, at its time and location
    awk '$1 == "event" { print $2, $3, $4 }' epoch.txt | sort >ep_a.txt
    "$PT" dump epoch_back.ptf | awk '$1 == "event" { print $2, $3, $4 }' | sort >ep_b.txt
    [ -s ep_a.txt ] && [ -z "$(comm -23 ep_a.txt ep_b.txt)" ] && t_pass epoch_times_exact ||
      t_fail epoch_times_exact "missing after PICL: $(comm -23 ep_a.txt ep_b.txt | head -3)"; } &&
  ok epoch_back_to_picl "$PT" -q convert epoch_back.ptf -o epoch_back.trf &&
  { cmp -s epoch.trf epoch_back.trf && t_pass epoch_picl_identical ||
      t_fail epoch_picl_identical "$(diff epoch.trf epoch_back.trf | head -4)"; }
# the new user's file: 9 decimals after 6, then a time below 1 ns
# (truncated, kept as written) and one in exponent form
printf '%s\n' '-3 -901 1700000000.000001 0 0 0' '-3 0 1700000000.000001045 0 0 0' \
  '-4 0 1700000000.0000010459 0 0 0' '-3 0 1.7000000000000011e9 0 0 0' \
  '-4 0 1700000000.000001100 0 0 0' '-4 -901 1700000000.0000012 0 0 0' >user.trf
ok epoch_user_dump "$PT" dump user.trf >user.dump &&
  { [ "$(awk '$1 == "event" { printf "%s ", $2 }' user.dump)" = \
      "1700000000000001000 1700000000000001045 1700000000000001045 1700000000000001100 1700000000000001100 1700000000000001200 " ] &&
      t_pass epoch_user_times || t_fail epoch_user_times "$(grep '^event' user.dump)"; }
"$PT" -q convert user.trf -o user.ptf 2>user_rt.err &&
  "$PT" -q convert user.ptf -o user2.trf 2>>user_rt.err &&
  cmp -s user.trf user2.trf && t_pass epoch_user_picl_identical ||
  t_fail epoch_user_picl_identical "$(cat user_rt.err; diff user.trf user2.trf 2>&1 | head -4)"
# a time beyond 2^63-1 ns is an error at its line and column, not a wrong time
printf '%s\n' '-3 -901 9223372036.854775807 0 0 0' '-4 -901 9223372036.854775808 0 0 0' >over.trf
fails_cleanly time_overflow_said 1 "over.trf:2:9: timestamp '9223372036.854775808' out of range" \
  "$PT" dump over.trf
# ... also where a negative first time's bias (whole seconds) leaves less room
printf '%s\n' '-3 -901 -9223372036.5 0 0 0' >early.trf
fails_cleanly time_bias_overflow_said 1 "early.trf:1:9: timestamp '-9223372036.5' out of range" \
  "$PT" dump early.trf
printf '%s\n' '-3 -901 -1.5 0 0 0' '-4 -901 9223372035.0 0 0 0' >late.trf
fails_cleanly time_after_bias_said 1 "late.trf:2:9: timestamp '9223372035.0' out of range.*at most 9223372034.854775807 s" \
  "$PT" dump late.trf
# Leaves that do not close the innermost open region (overlapping regions,
# as APEX writes them; a stray leave): written as they are, like the other
# sinks do, with one warning giving the count and the first; nothing is
# left on the region stack (it grew by one frame per overlap, and the 257th
# failed the conversion: "regions nested deeper than 256", no file).
cat >overlap.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 name="main"
def region id=2 name="task A"
def region id=3 name="task B"
def region id=4 name="MPI_Send"
def region id=5 name="MPI_Recv"
event 100 0 enter region=1
event 100 1 enter region=1
event 101 0 enter region=4
event 101 1 enter region=5
event 103 0 send callsite=0 peer=1 comm=0 tag=7 bytes=800
event 104 0 leave region=4
event 105 1 recv callsite=0 peer=0 comm=0 tag=7 bytes=800
event 105 1 leave region=5
TXT
t=200
while [ $t -lt 3200 ]; do
  printf 'event %d 0 enter region=2\nevent %d 0 enter region=3\n' $t $((t + 1))
  printf 'event %d 0 leave region=2\nevent %d 0 leave region=3\n' $((t + 2)) $((t + 3))
  t=$((t + 10))
done >>overlap.txt
printf 'event 3300 0 leave region=3\nevent 3301 0 leave region=1\nevent 3301 1 leave region=1\n' >>overlap.txt
if "$PT" convert overlap.txt -o overlap.trf >overlap.out 2>&1; then
  t_pass overlap_to_picl
  [ "$(wc -l <overlap.out)" -eq 1 ] &&
    grep -q '301 leaves did not match the innermost open region of their location (the first at location 0, t=202)' overlap.out &&
    grep -q '300 closed that region further down.* 1 had no open region' overlap.out &&
    t_pass overlap_said_once || t_fail overlap_said_once "$(head -c 400 overlap.out)"
  # every enter and leave of a user region is written, each as one record
  n_src=$(grep -Ec ' (enter|leave) region=[123]$' overlap.txt)
  n_trf=$(awk '($1 == -3 || $1 == -4) && $2 >= 0' overlap.trf | wc -l)
  [ "$n_src" -eq "$n_trf" ] && t_pass overlap_all_written ||
    t_fail overlap_all_written "$n_src enters/leaves in the source, $n_trf records"
  # it reads back; check finds the source's problem and only that
  "$PT" check overlap.txt 2>&1 | tail -1 | sed 's/^[^:]*: //' >overlap_src.chk
  "$PT" check overlap.trf 2>&1 | tail -1 | sed 's/^[^:]*: //' >overlap_trf.chk
  grep -q '^[0-9]* problems in [0-9]* events: [0-9]* leave_mismatch$' overlap_trf.chk &&
    [ "$(cut -d' ' -f1 overlap_src.chk)" = "$(cut -d' ' -f1 overlap_trf.chk)" ] &&
    t_pass overlap_reads_back ||
    t_fail overlap_reads_back "source: $(cat overlap_src.chk); PICL: $(cat overlap_trf.chk)"
else
  t_fail overlap_to_picl "$(head -c 300 overlap.out)"
fi
t_done
