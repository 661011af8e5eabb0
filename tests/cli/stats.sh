#!/bin/sh
# stats / summarize / snapshot / slice: stats on every readable test vector
# in every output mode; known answers on a hand-written trace; a window
# computed from summaries equals a full scan; slices pass check; bad
# arguments fail cleanly.
. "$(dirname "$0")/common.inc"
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
HAVE_JSON=0
command -v python3 >/dev/null 2>&1 && HAVE_JSON=1

# ---- a hand-written trace with known answers ------------------------------
cat >pp.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="thread 0"
def location id=1 group=1 name="thread 1"
def region id=1 name="main"
def region id=2 name="MPI_Send"
def region id=3 name="MPI_Recv"
event 0 0 enter region=1
event 0 1 enter region=1
event 50 1 enter region=3
event 100 0 enter region=2
event 105 0 send callsite=0 peer=1 comm=0 tag=7 bytes=1000
event 110 0 leave region=2
event 120 1 recv callsite=0 peer=0 comm=0 tag=7 bytes=1000
event 125 1 leave region=3
event 300 0 leave region=1
event 300 1 leave region=1
TXT
# per-location figures are over the locations that ran any region: a
# metrics-only location (Score-P's counters, an idle GPU stream) is not a
# process that could have run `work` (min 100, mean 200, imbalance 1.5;
# over all three locations it was min 0, mean 133, imbalance 2.25)
cat >act.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location id=0 name="thread 0"
def location id=1 name="thread 1"
def location id=2 name="counters"
def region id=1 name="work"
event 0 0 enter region=1
event 0 1 enter region=1
event 5 2 metric metric=2 value=u:7
event 100 0 leave region=1
event 300 1 leave region=1
event 310 2 metric metric=2 value=u:9
TXT
"$PT" stats --csv act.txt >act.csv 2>&1
grep -q '^region,1,"work",0,2,400,400,100,300,100,200,300,1,100,200,300,1,1.5$' act.csv &&
  t_pass stats_active_locations || t_fail stats_active_locations "$(grep '^region' act.csv)"
ok pp_table "$PT" stats pp.txt >pp.out
grep -q '^MPI_Recv ' pp.out && grep -q 'late sender' pp.out &&
  t_pass pp_table_sections || t_fail pp_table_sections "$(cat pp.out)"
ok pp_csv "$PT" stats --csv pp.txt >pp.csv
# main: 2 visits, 600 ticks inclusive, 515 exclusive
grep -q '^region,1,"main",0,2,600,515,' pp.csv && t_pass pp_csv_main ||
  t_fail pp_csv_main "$(grep '^region,1' pp.csv)"
# the message: 1 x 1000 bytes, late sender 100 - 50 = 50 ticks
grep -q '^message,0,1,0,1,1000,50,0,1$' pp.csv && t_pass pp_csv_late_sender ||
  t_fail pp_csv_late_sender "$(grep '^message' pp.csv)"
# window [20, 110): main clipped to 90 on each location, no visits counted
ok pp_window "$PT" stats --csv --from 20 --to 110 pp.txt >ppw.csv
grep -q '^region,1,"main",0,0,180,' ppw.csv && t_pass pp_window_clipped ||
  t_fail pp_window_clipped "$(grep '^region,1' ppw.csv)"
ok pp_relative "$PT" stats --csv --relative-to main pp.txt >ppr.csv
grep -q '^relative,"main",region,2,"MPI_Send",1,10,0$' ppr.csv &&
  t_pass pp_relative_values || t_fail pp_relative_values "$(grep '^relative' ppr.csv)"
if [ $HAVE_JSON = 1 ]; then
  "$PT" stats --json --by tag --relative-to 1 pp.txt >pp.json &&
    python3 -c 'import json,sys; d=json.load(open("pp.json")); assert d["messages"]["cells"][0]["key"] == 7; assert d["relative"]["count"] == 2' &&
    t_pass pp_json || t_fail pp_json "$(head -c 300 pp.json)"
fi

# ---- every test vector, every output mode ---------------------------------
if [ -d "$TD" ]; then
  i=0
  for src in "$TD"/dumpi/*/*.meta "$TD"/otf/*/trace/*.otf "$TD"/picl/*.trf \
             "$TD"/otf2/*/trace/*.otf2; do
    [ -e "$src" ] || continue
    i=$((i + 1))
    # OTF2: stats stops reading after the definitions once (the clock),
    # and libotf2 leaks the records its event reader read ahead: the
    # sanitizer build would flag it; OTF2 gets the summaries part below
    case $src in *.otf2) modes= ;; *) modes="table csv json" ;; esac
    for mode in $modes; do
      opt=; [ $mode = table ] || opt=--$mode
      "$PT" -q stats $opt "$src" >"v$i.$mode" 2>"v$i.$mode.err"
      rc=$?
      if crashed "v$i.$mode.err" $rc || [ $rc -ne 0 ]; then
        t_fail "vector$i-$mode" "$(basename "$src"): exit $rc $(head -c 200 "v$i.$mode.err")"
      elif [ $mode = json ] && [ $HAVE_JSON = 1 ] &&
           ! python3 -m json.tool "v$i.json" >/dev/null 2>&1; then
        t_fail "vector$i-json" "$(basename "$src"): invalid JSON"
      else t_pass "vector$i-$mode"; fi
    done
    # a slice of the middle third passes check
    span=$("$PT" -q info "$src" | awk '$1 == "time" && $2 == "span" {print $3, $5}')
    set -- $span
    if [ $# -eq 2 ] && [ -n "$modes" ] && "$PT" -q check "$src" >/dev/null 2>&1; then
      a=$1 b=$2
      f=$((a + (b - a) / 3)) t=$((a + 2 * (b - a) / 3 + 1))
      if ok "vector$i-slice" "$PT" -q slice --from $f --to $t -o "sl$i.ptf" "$src"; then
        "$PT" -q check "sl$i.ptf" >"sl$i.out" 2>&1 && t_pass "vector$i-slice-check" ||
          t_fail "vector$i-slice-check" "$(tail -2 "sl$i.out")"
      fi
    fi
    # as a summarized archive: a window from summaries equals a full scan
    set -- $span
    if [ $# -eq 2 ] && [ $2 -gt $1 ] &&
       "$PT" -q convert "$src" -o "vs$i.ptf" >/dev/null 2>&1 &&
       "$PT" -q summarize --every $((($2 - $1) / 7 + 1)) "vs$i.ptf" >/dev/null 2>&1; then
      f=$(($1 + ($2 - $1) / 5)) t=$(($1 + 3 * ($2 - $1) / 5))
      if "$PT" -q stats --csv --require-summaries --from $f --to $t "vs$i.ptf" >vs$i.fast 2>&1 &&
         "$PT" -q stats --csv --no-summaries --from $f --to $t "vs$i.ptf" >vs$i.full 2>&1 &&
         [ "$(grep -v '^totals' vs$i.fast | nowaits)" = "$(grep -v '^totals' vs$i.full | nowaits)" ]; then
        t_pass "vector$i-window-from-summaries"
      else
        t_fail "vector$i-window-from-summaries" "$(basename "$src"): $(diff vs$i.fast vs$i.full | head -4)"
      fi
    else
      t_fail "vector$i-summarize" "$(basename "$src")"
    fi
  done
else
  t_pass stats_vectors_skipped_no_testdata
fi

# ---- summaries: a window from summaries equals a full scan ----------------
# normalise: drop the totals line (events read); per-visit min/max, the
# call sites and late sender/receiver come from the summaries' records
# and must be equal
norm() {
  grep -v -e '^totals' -e '^section' -e '^$' "$1"
}
ok gen "$PT" -q generate -o g.ptf --locations 4 --events 4000 --seed 9
fails_cleanly require_summaries_missing 1 'summaries' \
  "$PT" stats --require-summaries --from 10ms --to 20ms g.ptf
ok summarize "$PT" summarize --every 3ms g.ptf
[ -f g.ptf/s0.sums ] && [ -f g.ptf/s0.snaps ] && t_pass summarize_files ||
  t_fail summarize_files "$(ls g.ptf)"
n=0
for w in "--from 10ms --to 20ms" "--from 1234567 --to 7654321" "--from 15ms" \
         "--to 9ms" "--from 4ms --to 4.5ms --locations 1,3" "--from 3ms --to 6ms"; do
  n=$((n + 1))
  "$PT" -q stats --csv --require-summaries $w g.ptf >fast$n.csv 2>fast$n.err &&
    "$PT" -q stats --csv --no-summaries $w g.ptf >full$n.csv 2>full$n.err
  if [ $? -ne 0 ]; then
    t_fail "window$n" "$(cat fast$n.err full$n.err | head -c 300)"
    continue
  fi
  grep -q ',1$' fast$n.csv || { t_fail "window$n" "summaries not used"; continue; }
  norm fast$n.csv >fast$n.n
  norm full$n.csv >full$n.n
  [ -s full$n.n ] && cmp -s fast$n.n full$n.n && t_pass "window$n" ||
    t_fail "window$n" "$(diff fast$n.n full$n.n | head -5)"
done
# a window from summaries has everything a full scan has but --by and
# --relative-to: no note, late sender/receiver in the table
"$PT" -q stats --from 10ms --to 20ms g.ptf >fastt.txt 2>&1 &&
  grep -q 'from summaries (' fastt.txt &&
  grep -q 'late sender/receiver in' fastt.txt &&
  ! grep -q 'need the window' fastt.txt &&
  t_pass window_table_late || t_fail window_table_late "$(tail -3 fastt.txt)"
# a receive waiting for its send at a summary time: late times from that
# time on need the events, and the table says so
cat >rb.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0
def location id=1 group=1
def region id=1 name="main"
def region id=2 paradigm=3 name="MPI_Send"
def region id=3 paradigm=3 name="MPI_Recv"
event 0 0 enter region=1
event 0 1 enter region=1
event 5 1 enter region=3
event 10 1 recv peer=0 comm=0 tag=1 bytes=8
event 12 1 leave region=3
event 20 0 enter region=2
event 22 0 send peer=1 comm=0 tag=1 bytes=8
event 25 0 leave region=2
event 40 1 enter region=3
event 50 0 enter region=2
event 52 0 send peer=1 comm=0 tag=1 bytes=8
event 54 0 leave region=2
event 55 1 recv peer=0 comm=0 tag=1 bytes=8
event 56 1 leave region=3
event 90 0 leave region=1
event 90 1 leave region=1
TXT
ok rb_convert "$PT" -q convert rb.txt -o rb.ptf
ok rb_summarize "$PT" -q summarize --every 15 rb.ptf
# (summary times 15, 30, ...: at 15 the receive at 10 waits for the send
# at 22)
"$PT" -q stats --from 16 --to 60 rb.ptf >rb1.out 2>&1 &&
  grep -q 'from summaries (' rb1.out &&
  grep -q 'late sender/receiver need.*--no-summaries' rb1.out &&
  grep -q '^ *0 *1 .* - *-$' rb1.out &&
  t_pass window_late_waiting_receive || t_fail window_late_waiting_receive "$(cat rb1.out)"
# a receive never matched: a window whose edge it precedes leaves the
# late times out (instead of reading on to the end of the trace)
sed -e '/^event 20 0/d' -e '/^event 22 0/d' -e '/^event 25 0/d' rb.txt >rc.txt
ok rc_convert "$PT" -q convert rc.txt -o rc.ptf
ok rc_summarize "$PT" -q summarize --every 15 rc.ptf
"$PT" -q stats --from 2 --to 8 rc.ptf >rc1.out 2>&1 &&
  grep -q 'from summaries (' rc1.out &&
  grep -q 'late sender/receiver need.*--no-summaries' rc1.out &&
  t_pass window_late_unmatched_receive || t_fail window_late_unmatched_receive "$(cat rc1.out)"
# from 30 on the summaries have late times: 10 ticks late sender (the
# receive entered at 40, its send at 50), as a full scan
"$PT" -q stats --csv --require-summaries --from 30 --to 60 rb.ptf >rb2.csv 2>&1 &&
  "$PT" -q stats --csv --no-summaries --from 30 --to 60 rb.ptf >rb3.csv 2>&1 &&
  grep -q '^message,0,1,0,1,8,10,0,1$' rb2.csv &&
  grep -q '^message,0,1,0,1,8,10,0,1$' rb3.csv &&
  t_pass window_late_from_summaries ||
  t_fail window_late_from_summaries "$(grep message rb2.csv rb3.csv)"
# two threads of rank 0 send on one channel at the same time (their
# stream order is not their location order): the summaries keep each
# unmatched send's place in its channel's queue, so the window pairs them
# as a full scan does (late receiver 0, not 10)
cat >tie.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
stream 0 location=0
stream 0 location=2
stream 1 location=1
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0
def location id=1 group=1
def location id=2 group=0
def region id=1 name="main"
def region id=2 paradigm=3 name="MPI_Send"
def region id=3 paradigm=3 name="MPI_Recv"
def region id=6 paradigm=3 name="MPI_Isend"
event 0 0 enter region=1
event 0 1 enter region=1
event 0 2 enter region=1
event 5 2 enter region=6
event 10 2 isend peer=1 comm=0 tag=1 bytes=8 request=1
event 10 2 leave region=6
event 10 0 enter region=2
event 10 0 send peer=1 comm=0 tag=1 bytes=8
event 11 0 leave region=2
event 20 1 enter region=3
event 21 1 recv peer=0 comm=0 tag=1 bytes=8
event 22 1 leave region=3
event 30 1 enter region=3
event 31 1 recv peer=0 comm=0 tag=1 bytes=8
event 32 1 leave region=3
event 90 0 leave region=1
event 90 1 leave region=1
event 90 2 leave region=1
TXT
ok tie_convert "$PT" -q convert tie.txt -o tie.ptf
ok tie_summarize "$PT" -q summarize --every 15 tie.ptf
"$PT" -q stats --csv --require-summaries --to 25 tie.ptf >tie1.csv 2>&1 &&
  "$PT" -q stats --csv --no-summaries --to 25 tie.ptf >tie2.csv 2>&1 &&
  [ "$(grep '^message' tie1.csv)" = "$(grep '^message' tie2.csv)" ] &&
  grep -q '^message,0,1,0,2,16,0,0,1$' tie1.csv &&
  t_pass window_late_tied_sends || t_fail window_late_tied_sends "$(grep message tie1.csv tie2.csv)"
# late receiver is bounded by the send call: an eager MPI_Send returned
# at 12 and its receive was posted at 100 (2 ticks, not 90); a send call
# open at the summary time 50 returned at 70, its receive posted at 80
# (50, not 60); a rendezvous send left at 260 after its receive was
# posted at 230 (30).  A window from summaries keeps the bounds: the
# first call's duration in its pending record, the second from the frame.
cat >lr.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0
def location id=1 group=1
def region id=1 name="main"
def region id=2 paradigm=3 name="MPI_Send"
def region id=3 paradigm=3 name="MPI_Recv"
event 0 0 enter region=1
event 0 1 enter region=1
event 10 0 enter region=2
event 11 0 send peer=1 comm=0 tag=1 bytes=8
event 12 0 leave region=2
event 20 0 enter region=2
event 21 0 send peer=1 comm=0 tag=2 bytes=8
event 70 0 leave region=2
event 80 1 enter region=3
event 81 1 recv peer=0 comm=0 tag=2 bytes=8
event 82 1 leave region=3
event 100 1 enter region=3
event 101 1 recv peer=0 comm=0 tag=1 bytes=8
event 102 1 leave region=3
event 200 0 enter region=2
event 201 0 send peer=1 comm=0 tag=3 bytes=8
event 230 1 enter region=3
event 260 0 leave region=2
event 261 1 recv peer=0 comm=0 tag=3 bytes=8
event 262 1 leave region=3
event 300 0 leave region=1
event 300 1 leave region=1
TXT
"$PT" -q stats --csv lr.txt >lr1.csv 2>&1
grep -q '^message,0,1,0,3,24,0,82,3$' lr1.csv && t_pass late_receiver_bounded_by_send ||
  t_fail late_receiver_bounded_by_send "$(grep "^message," lr1.csv)"
ok lr_convert "$PT" -q convert lr.txt -o lr.ptf
ok lr_summarize "$PT" -q summarize --every 50 lr.ptf
"$PT" -q stats --csv --require-summaries --from 60 --to 290 lr.ptf >lr2.csv 2>&1 &&
  "$PT" -q stats --csv --no-summaries --from 60 --to 290 lr.ptf >lr3.csv 2>&1 &&
  grep -q '^message,0,1,0,1,8,0,82,3$' lr2.csv &&
  [ "$(grep '^message' lr2.csv)" = "$(grep '^message' lr3.csv)" ] &&
  t_pass window_late_receiver_bounded ||
  t_fail window_late_receiver_bounded "$(grep "^message," lr2.csv lr3.csv)"
# a slice of a trace whose two threads of a rank sent on one channel
# before `from`: the send still pending at `from` is the later one (8 B)
sed -e '/^stream /d' -e 's/^event 5 2 enter region=6/event 9 2 enter region=2/' \
    -e 's/^event 10 2 isend .*/event 10 2 send peer=1 comm=0 tag=1 bytes=100/' \
    -e 's/^event 10 2 leave region=6/event 11 2 leave region=2/' \
    -e 's/^event 10 0 enter/event 12 0 enter/' -e 's/^event 10 0 send/event 12 0 send/' \
    -e 's/^event 11 0 leave/event 13 0 leave/' -e 's/^event 21 1 recv \(.*\)bytes=8/event 21 1 recv \1bytes=100/' \
    tie.txt >slt.txt
ok slt_convert "$PT" -q convert slt.txt -o slt.ptf
ok slt_summarize "$PT" -q summarize --every 15 slt.ptf
"$PT" -q slice --from 25 --to 60 -o slts.txt slt.ptf >/dev/null 2>&1 &&
  grep -q '^event 25 0 send .*bytes=8$' slts.txt &&
  t_pass slice_thread_sends_order || t_fail slice_thread_sends_order "$(grep send slts.txt)"
# summaries never change the events
"$PT" dump g.ptf | grep "^event" >after.txt
"$PT" -q generate -o g2.ptf --locations 4 --events 4000 --seed 9
"$PT" dump g2.ptf | grep "^event" >before.txt
cmp -s before.txt after.txt && t_pass summarize_keeps_events ||
  t_fail summarize_keeps_events "dumps differ"
# summaries survive a conversion, a merge into fewer streams and text
# input that lists them in any order (all put back in time order per
# stream): the windows from them are those of the original
"$PT" -q convert g.ptf -o gc.ptf && "$PT" -q merge g.ptf -o gm.ptf --streams 2 ||
  t_fail summaries_copied "convert or merge failed"
"$PT" dump g.ptf >gd.txt && { grep -v '^summary' gd.txt; grep '^summary' gd.txt | tac; } >gr.txt &&
  "$PT" -q convert gr.txt -o gr.ptf || t_fail summaries_copied "text with summaries in reverse order"
for a in gc gm gr; do
  "$PT" -q stats --csv --require-summaries --from 10ms --to 20ms $a.ptf >$a.csv 2>$a.err &&
    norm $a.csv >$a.n && cmp -s fast1.n $a.n && t_pass "summaries_copied_$a" ||
    t_fail "summaries_copied_$a" "$(cat $a.err; diff fast1.n $a.n | head -5)"
done

# ---- mpiP's definitions: application time from the end of MPI_Init to the
# start of MPI_Finalize (the recorder's program region, or the calls), sent
# bytes per MPI function, --relative-to rows sorted by time -----------------
cat >mp.txt <<'TXT'
# paratrace text 1
stream 0 location=0
stream 1 location=1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0
def location id=1 group=1
def region id=1 name="MPI_Init"
def region id=2 role=1 paradigm=1 name="prog"
def region id=3 role=1 paradigm=3 name="MPI_Sendrecv"
def region id=4 role=1 paradigm=3 name="MPI_Finalize"
def region id=5 name="inner"
def region id=6 name="a_inner"
event 0 0 enter region=1
event 0 1 enter region=1
event 1000 0 leave region=1
event 1000 0 enter region=2
event 1000 1 leave region=1
event 1000 1 enter region=2
event 1100 0 enter region=3
event 1100 1 enter region=3
event 1101 0 send callsite=0 peer=1 comm=0 tag=1 bytes=4
event 1101 1 send callsite=0 peer=0 comm=0 tag=1 bytes=4
event 1102 0 recv callsite=0 peer=1 comm=0 tag=1 bytes=4
event 1102 1 recv callsite=0 peer=0 comm=0 tag=1 bytes=4
event 1110 0 leave region=3
event 1110 1 leave region=3
event 1200 0 enter region=3
event 1200 1 enter region=3
event 1201 0 send callsite=0 peer=1 comm=0 tag=1 bytes=4
event 1201 1 send callsite=0 peer=0 comm=0 tag=1 bytes=4
event 1202 0 recv callsite=0 peer=1 comm=0 tag=1 bytes=4
event 1202 1 recv callsite=0 peer=0 comm=0 tag=1 bytes=4
event 1210 0 leave region=3
event 1210 1 leave region=3
event 1300 0 enter region=5
event 1350 0 leave region=5
event 1400 0 enter region=6
event 1400 1 enter region=6
event 1410 0 leave region=6
event 1410 1 leave region=6
event 2000 0 leave region=2
event 2000 0 enter region=4
event 2000 1 leave region=2
event 2000 1 enter region=4
event 2010 0 leave region=4
event 2010 1 leave region=4
TXT
grep -v -e 'region=2$' -e 'id=2 ' mp.txt >mi.txt
ok mp_csv "$PT" stats --csv mp.txt >mp.csv
# application time 1000 + 1000, MPI time the 4 Sendrecv (MPI_Init and
# MPI_Finalize excluded, as mpiP), the program region's id
grep -q '^totals,.*,2000,40,program,2,0$' mp.csv && t_pass mp_app_time_program ||
  t_fail mp_app_time_program "$(grep '^totals' mp.csv)"
grep -q '^location,0,1000,20,' mp.csv && t_pass mp_location_app_time ||
  t_fail mp_location_app_time "$(grep '^location,' mp.csv)"
ok mi_csv "$PT" stats --csv mi.txt >mi.csv
grep -q '^totals,.*,2000,40,init_finalize,,0$' mi.csv &&
  t_pass mp_app_time_init_finalize || t_fail mp_app_time_init_finalize "$(grep '^totals' mi.csv)"
# the program region defined but never entered (a ring buffer overwrote
# it): the next definition, not an application time of 0
grep -v -e 'region=2$' mp.txt >mr.txt
"$PT" stats --csv mr.txt 2>&1 | grep -q '^totals,.*,2000,40,init_finalize,,0$' &&
  t_pass mp_program_region_lost || t_fail mp_program_region_lost "$("$PT" stats --csv mr.txt 2>&1 | grep '^totals')"
# 4 Sendrecv of 4 bytes each sent 16 bytes (and received 16); each
# call lasted 10 ticks, the longest (a tie) on location 0
grep -q '^mpi_callsite,3,"MPI_Sendrecv",,"-",4,40,2,100,4,16,4,4,4,16,,10,10,10,0$' mp.csv &&
  t_pass mp_sent_bytes || t_fail mp_sent_bytes "$(grep '^mpi_callsite' mp.csv)"
ok mp_table "$PT" stats mp.txt >mp.out
grep -q "program region 'prog'" mp.out && t_pass mp_table_says_definition ||
  t_fail mp_table_says_definition "$(head -4 mp.out)"
grep -q '^MPI_Init  *2  *[0-9.e-]*  *-  *-  ' mp.out &&
  grep -q '^MPI_Sendrecv  *4  *[0-9.e-]*  *2\.00  *100\.00  *4  *16 B ' mp.out &&
  t_pass mp_table_mpi_view || t_fail mp_table_mpi_view "$(grep '^MPI_' mp.out)"
"$PT" stats pp.txt | grep -q 'time inside any region' &&
  t_pass pp_table_says_definition || t_fail pp_table_says_definition "$("$PT" stats pp.txt | head -3)"
# --relative-to: regions by time descending (inner 50, MPI_Sendrecv 40,
# a_inner 20), then event kinds by name
"$PT" stats --relative-to prog mp.txt |
  awk '/^Inside/ {on = 1; next} on && NF > 2 && $1 != "type" {print $2}' >mpr.order
[ "$(tr '\n' ' ' <mpr.order)" = "inner MPI_Sendrecv a_inner recv send " ] &&
  t_pass mp_relative_sorted || t_fail mp_relative_sorted "$(tr '\n' ' ' <mpr.order)"
# windows from summaries equal a full scan with the program region and
# without it (MPI_Init..MPI_Finalize per location, from the summaries'
# app_span records)
ok mp_ptf "$PT" -q convert mp.txt -o mp.ptf
ok mi_ptf "$PT" -q convert mi.txt -o mi.ptf
# no summaries at all in an archive with MPI_Init: said so (it said
# "summaries without where MPI_Init ends (written by an earlier version,
# or the archive has no location lists)", seen on a recorded CP2K trace)
fails_cleanly mp_require_no_summaries 1 'no usable summaries (run paratrace summarize)' \
  "$PT" stats --require-summaries --from 500 --to 1105 mp.ptf
ok mp_summarize "$PT" -q summarize --every 300 mp.ptf
ok mi_summarize "$PT" -q summarize --every 300 mi.ptf
for w in "--from 500 --to 1105" "--from 1205 --to 2005" "--from 1000"; do
  for t in mp mi; do
    "$PT" -q stats --csv $w $t.ptf >$t.fast.csv 2>$t.fast.err &&
      "$PT" -q stats --csv --no-summaries $w $t.ptf >$t.full.csv 2>$t.full.err ||
      { t_fail "$t window $w" "$(cat $t.fast.err $t.full.err)"; continue; }
    norm $t.fast.csv >$t.fast.n
    norm $t.full.csv >$t.full.n
    a=$(grep '^totals' $t.fast.csv | cut -d, -f9-11)
    b=$(grep '^totals' $t.full.csv | cut -d, -f9-11)
    [ "$a" = "$b" ] && cmp -s $t.fast.n $t.full.n && t_pass "$t window $w" ||
      t_fail "$t window $w" "$a / $b $(diff $t.fast.n $t.full.n | head -4)"
  done
  grep -q ',1$' mp.fast.csv && t_pass "mp window $w from summaries" ||
    t_fail "mp window $w from summaries" "$(grep '^totals' mp.fast.csv)"
  grep -q 'init_finalize,,1$' mi.fast.csv && t_pass "mi window $w from summaries" ||
    t_fail "mi window $w from summaries" "$(grep '^totals' mi.fast.csv)"
done
# a location still inside MPI_Init when the trace ends: its MPI_Init ends
# at the trace's end, in the summaries as in a full scan
cat >mio.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0
def location id=1 group=1
def region id=9 paradigm=3 name="MPI_Init"
def region id=8 paradigm=3 name="MPI_Finalize"
def region id=4 name="a"
event 0 0 enter region=9
event 0 1 enter region=9
event 5 0 leave region=9
event 10 0 enter region=4
event 20 1 enter region=4
event 50 0 leave region=4
event 60 0 enter region=8
event 70 0 leave region=8
event 80 1 leave region=4
TXT
ok mio_convert "$PT" -q convert mio.txt -o mio.ptf
ok mio_summarize "$PT" -q summarize --every 10 mio.ptf
"$PT" -q stats --csv --require-summaries --from 15 --to 65 mio.ptf >mio1.csv 2>&1 &&
  "$PT" -q stats --csv --no-summaries --from 15 --to 65 mio.ptf >mio2.csv 2>&1 &&
  [ "$(norm mio1.csv)" = "$(norm mio2.csv)" ] &&
  grep -q '^location,1,0,0,' mio1.csv &&
  t_pass window_init_never_left || t_fail window_init_never_left "$(diff mio1.csv mio2.csv)"
# summaries of an earlier version (no app_span records): the window scans
"$PT" -q convert mi.ptf -o mi_sum.txt &&
  grep -v '^summary .* app_span ' mi_sum.txt >mi_old.txt &&
  "$PT" -q convert mi_old.txt -o mi_old.ptf && grep -q ' app_span ' mi_sum.txt &&
  t_pass mi_old_summaries || t_fail mi_old_summaries "$(head -3 mi_sum.txt)"
fails_cleanly mi_require_summaries 1 'MPI_Init' \
  "$PT" stats --require-summaries --from 500 --to 1105 mi_old.ptf
# call sites (attribute "callsite" on the MPI calls' enters) and message
# sizes from summaries: MPI calls open across summary times, two sites of
# one function, sizes varying
{
  cat <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0
def location id=1 group=1
def region id=1 role=1 paradigm=1 name="prog"
def region id=2 paradigm=3 name="MPI_Send"
def region id=3 paradigm=3 name="MPI_Recv"
def attribute id=1 type=2 name="callsite"
def callsite id=10 region=1 callee=2 line=10 name="a.c:10"
def callsite id=11 region=1 callee=2 line=20 name="a.c:20"
def callsite id=12 region=1 callee=3 line=30 name="a.c:30"
event 0 0 enter region=1
event 0 1 enter region=1
TXT
  awk 'BEGIN {
    for (i = 0; i < 60; i++) {
      t = 100 + i * 100; d = i % 7 == 3 ? 95 : 5 + i % 4
      b = 8 * (1 + (i * 37) % 13)
      printf "event %d 0 enter region=2 {1=u:%d}\n", t, 10 + i % 2
      printf "event %d 1 enter region=3 {1=u:12}\n", t
      printf "event %d 0 send peer=1 comm=0 tag=1 bytes=%d\n", t + 1, b
      printf "event %d 1 recv peer=0 comm=0 tag=1 bytes=%d\n", t + 2, b
      printf "event %d 1 leave region=3\n", t + 3
      printf "event %d 0 leave region=2\n", t + d
    }
    print "event 7000 0 leave region=1"; print "event 7000 1 leave region=1"
  }'
} >cs.txt
ok cs_ptf "$PT" -q convert cs.txt -o cs.ptf
ok cs_summarize "$PT" -q summarize --every 30 cs.ptf
# info says what summarize added (it said nothing: a user could not tell
# whether windows would come from summaries, nor why converting such an
# archive to OTF2 warned about snapshot entries)
"$PT" -q convert cs.txt -o cs0.ptf
n=$("$PT" info cs.ptf | grep -c '^s[a-z]* *in 2 of 2 streams$')
n0=$("$PT" info cs0.ptf | grep -c '^summaries\|^snapshots')
j=$("$PT" info --json cs.ptf | python3 -c 'import json, sys
d = json.load(sys.stdin); print(d["streams_with_summaries"], d["streams_with_snapshots"])')
[ "$n" = 2 ] && [ "$n0" = 0 ] && [ "$j" = "2 2" ] && t_pass info_summaries ||
  t_fail info_summaries "$n $n0 $j: $("$PT" info cs.ptf)"
for w in "--from 150 --to 1105" "--from 1399 --to 4410" "--from 2000" \
         "--to 3333" "--from 410 --to 430"; do
  "$PT" -q stats --csv --require-summaries $w cs.ptf >cs.fast.csv 2>cs.fast.err &&
    "$PT" -q stats --csv --no-summaries $w cs.ptf >cs.full.csv 2>cs.full.err ||
    { t_fail "cs window $w" "$(cat cs.fast.err cs.full.err)"; continue; }
  norm cs.fast.csv >cs.fast.n
  norm cs.full.csv >cs.full.n
  grep -q '^mpi_callsite,.*a.c:20' cs.full.n && cmp -s cs.fast.n cs.full.n &&
    t_pass "cs window $w" || t_fail "cs window $w" "$(diff cs.fast.n cs.full.n | head -4)"
done
# windows from summaries where a full scan knows more than the summary
# time: a call that learns its site from a message after the summary time
# (the window moves the call's part before it to that site; it wrapped
# below zero once), a send to a
# peer < 0, a thread's send (the matrix is between processes)
cat >lsite.txt <<'TXT'
# paratrace text 1
def location_group id=0 rank=0
def location_group id=1 rank=1
def location id=0 group=0
def location id=1 group=1
def location id=2 group=0
def region id=1 name="main"
def region id=2 paradigm=3 name="MPI_Send"
def callsite id=10 region=1 callee=2 line=10 name="a.c:10"
event 0 0 enter region=1
event 0 1 enter region=1
event 0 2 enter region=1
event 5 0 enter region=2
event 15 0 send callsite=10 peer=1 comm=0 tag=1 bytes=8
event 16 2 send callsite=0 peer=1 comm=0 tag=2 bytes=4
event 17 1 send callsite=0 peer=-1 comm=0 tag=1 bytes=2
event 18 0 leave region=2
event 40 0 leave region=1
event 40 1 leave region=1
event 40 2 leave region=1
TXT
ok lsite_ptf "$PT" -q convert lsite.txt -o lsite.ptf
ok lsite_summarize "$PT" -q summarize --every 10 lsite.ptf
for w in "--to 12" "--from 12 --to 30" "--from 12" "--to 30" "--from 3 --to 35"; do
  "$PT" -q stats --csv --require-summaries $w lsite.ptf >lsite.fast.csv 2>&1 &&
    "$PT" -q stats --csv --no-summaries $w lsite.ptf >lsite.full.csv 2>&1 ||
    { t_fail "lsite window $w" "$(cat lsite.fast.csv lsite.full.csv | head -3)"; continue; }
  norm lsite.fast.csv >lsite.fast.n
  # the call-site table too: the call open at 10 learns its site at 15
  norm lsite.full.csv >lsite.full.n
  grep -q '^mpi_callsite' lsite.fast.n &&
  cmp -s lsite.fast.n lsite.full.n && ! grep -q '^mpi_callsite.*18446744073709551' lsite.fast.n &&
    t_pass "lsite window $w" || t_fail "lsite window $w" "$(diff lsite.fast.n lsite.full.n | head -6)"
done
# long C++ call-site names: the table keeps each site's file:line
sed -e 's/name="a.c:10"/name="CommRecv(Domain\&, int, int, int, int, int, bool, bool) lulesh-comm.cc:10"/' \
    -e 's/name="a.c:20"/name="CommRecv(Domain\&, int, int, int, int, int, bool, bool) lulesh-comm.cc:20"/' \
    cs.txt >cs2.txt
"$PT" stats cs2.txt >cs2.out 2>&1
grep -q 'CommRecv lulesh-comm.cc:10 ' cs2.out && grep -q 'CommRecv lulesh-comm.cc:20 ' cs2.out &&
  t_pass callsite_long_names || t_fail callsite_long_names "$(grep -A4 'call sites' cs2.out)"
# a C++ template instance's name longer than the label buffer (Boost.MPI:
# 330 characters, probe_handler<serialized_data<std::vector<std::string>>>)
# keeps its file:line too; the end of its cut name used to be whatever
# fell at byte 255 ("...probe_handler<bo... std::allocator<char")
long_t='boost::mpi::request::probe_handler<boost::mpi::detail::serialized_data<std::vector<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::allocator<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > > > >::test()'
awk -v t="$long_t" '{ sub(/name="a.c:10"/, "name=\"" t " request_handlers.hpp:163\"");
  sub(/name="a.c:20"/, "name=\"" t " request_handlers.hpp:177\""); print }' cs.txt >cs3.txt
"$PT" stats cs3.txt >cs3.out 2>&1
grep -q '^MPI_Send .*probe_handl.*\.\.\. request_handlers.hpp:163 ' cs3.out &&
  grep -q '^MPI_Send .*probe_handl.*\.\.\. request_handlers.hpp:177 ' cs3.out &&
  ! grep -q 'std::allocator<char *[0-9]' cs3.out &&
  t_pass callsite_template_names || t_fail callsite_template_names "$(grep -A4 'call sites' cs3.out)"
# call-site chains (PARATRACE_CALLSITES=2) too long for the table's 100
# columns: the parameter lists go (and a caller's module when it is the
# module of the statement before it), then the start of long function
# names, so that the callers, which tell the rows apart, stay (a LAMMPS run
# showed nine rows "remap_3d(double*, double*, double*, remap_plan_3d*)
# (liblammps.so.0+0x7bbac9) < ...", its callers cut)
chain_rows() { # FILE INNER OUTER1 OUTER2: two MPI_Send sites, chains
  awk -v i="$2" -v o1="$3" -v o2="$4" '
    /^def callsite id=10 / {
      printf "def callsite id=20 name=\"%s\"\n", o1
      printf "def callsite id=21 name=\"%s\"\n", o2
      printf "def callsite id=10 parent=20 region=1 callee=2 name=\"%s\"\n", i
      next
    }
    /^def callsite id=11 / {
      printf "def callsite id=11 parent=21 region=1 callee=2 name=\"%s\"\n", i
      next
    }
    { print }' cs.txt >"$1.txt"
  "$PT" -q stats "$1.txt" >"$1.out" 2>&1
  awk '/^MPI call sites/ {on = 1; next} /^$/ {on = 0} on && /^MPI_Send / {print substr($0, 22, 100)}' "$1.out"
}
chain_rows csa 'remap_3d(double*, double*, double*, remap_plan_3d*) (liblammps.so.0+0x7bbac9)' \
  'fft_3d (liblammps.so.0+0x7108e9)' 'fft_3d (liblammps.so.0+0x710913)' >csa.rows
grep -q '^remap_3d (liblammps.so.0+0x7bbac9) < fft_3d (+0x7108e9) *$' csa.rows &&
  grep -q '^remap_3d (liblammps.so.0+0x7bbac9) < fft_3d (+0x710913) *$' csa.rows &&
  t_pass callsite_chain_params_dropped ||
  t_fail callsite_chain_params_dropped "$(cat csa.rows csa.out | head -20)"
chain_rows csb 'LAMMPS_NS::CommBrick::reverse_comm() (liblammps.so.0+0x2b0cab)' \
  'MD::Driver::run_verlet_steps(int) (libmd-driver.so.1+0x5c4b15)' \
  'MD::Driver::setup_verlet_run(int) (libmd-driver.so.1+0x5c529f)' >csb.rows
[ "$(sort -u csb.rows | wc -l)" = 2 ] &&
  grep -q '^\.\.\..*::reverse_comm (liblammps.so.0+0x2b0cab) < \.\.\..*run_verlet_steps (libmd-driver.so.1+0x5c4b15) *$' csb.rows &&
  grep -q '^\.\.\..*::reverse_comm (liblammps.so.0+0x2b0cab) < \.\.\..*setup_verlet_run (libmd-driver.so.1+0x5c529f) *$' csb.rows &&
  t_pass callsite_chain_shared_width ||
  t_fail callsite_chain_shared_width "$(cat csb.rows csb.out | head -20)"
# const member functions (OpenFOAM 1912's solvers, PARATRACE_CALLSITES=3):
# the qualifier after the parameter list goes with it, or cutting the
# front of "Foam::PCG::scalarSolve const" left "... const" and no name
chain_rows csd 'Foam::reduce(double&, Foam::sumOp<double> const&, int, int) (libPstream.so+0x6daa)' \
  'Foam::PCG::scalarSolve(Foam::Field<double>&, Foam::Field<double> const&, unsigned char) const (libOpenFOAM.so+0x5fe53e) < Foam::PCG::solve(Foam::Field<double>&, Foam::Field<double> const&, unsigned char) const (libOpenFOAM.so+0x5ff274)' \
  'Foam::PCG::scalarSolve(Foam::Field<double>&, Foam::Field<double> const&, unsigned char) const (libOpenFOAM.so+0x5fe401) < Foam::PCG::solve(Foam::Field<double>&, Foam::Field<double> const&, unsigned char) const (libOpenFOAM.so+0x5ff274)' >csd.rows
[ "$(sort -u csd.rows | wc -l)" = 2 ] &&
  grep -q 'Solve (libOpenFOAM.so+0x5fe53e) < .*::solve (+0x5ff274)' csd.rows &&
  grep -q 'Solve (libOpenFOAM.so+0x5fe401) < .*::solve (+0x5ff274)' csd.rows &&
  ! grep -q 'const' csd.rows &&
  t_pass callsite_chain_const_members ||
  t_fail callsite_chain_const_members "$(cat csd.rows csd.out | head -20)"
# three statements of one module without debug information (hypre's
# communication under two solver phases, PARATRACE_CALLSITES=3): the
# callers' module is said once, so that every statement keeps its offset
# and the end of its name
chain_rows csc 'hypre_FinalizeCommunication (libHYPRE-2.26.0.so+0x3bb76d)' \
  'hypre_InitializeIndtComputations (libHYPRE-2.26.0.so+0x277b39) < hypre_CyclicReduction (libHYPRE-2.26.0.so+0x31e6a6)' \
  'hypre_InitializeIndtComputations (libHYPRE-2.26.0.so+0x277b39) < hypre_CyclicReduction (libHYPRE-2.26.0.so+0x31bcf4)' >csc.rows
[ "$(sort -u csc.rows | wc -l)" = 2 ] &&
  grep -q 'ication (libHYPRE-2.26.0.so+0x3bb76d) < .*Computations (+0x277b39) < .*Reduction (+0x31e6a6)' csc.rows &&
  grep -q 'ication (libHYPRE-2.26.0.so+0x3bb76d) < .*Computations (+0x277b39) < .*Reduction (+0x31bcf4)' csc.rows &&
  t_pass callsite_chain_one_module ||
  t_fail callsite_chain_one_module "$(cat csc.rows csc.out | head -20)"
# the call-site table lists each function's sites by time, longest first
# (a.c:10 holds the long calls: i % 7 == 3 is odd or even in turn)
"$PT" stats cs.txt | awk '/^MPI call sites/ {on = 1; next} /^$/ {on = 0}
  on && $1 == "MPI_Send" {print $2, $4}' >cs.order
awk 'NR > 1 && $2 + 0 > prev + 0 {bad = 1} {prev = $2} END {exit bad || NR != 2}' cs.order &&
  t_pass callsite_order_by_time || t_fail callsite_order_by_time "$(cat cs.order)"

# the time of one call per call site (mpiP's "Callsite Time statistics"):
# a.c:10 / a.c:20 hold the calls i even / odd on location 0, of 5 + i % 4
# ticks, or 95 when i % 7 == 3; a.c:30 the 60 receives of 3 ticks on
# location 1.  Count, time, min, mean, max and the location of the max,
# summed (mpi_callsite) and per location (mpi_callsite_location: here one
# location per site, the same figures)
awk 'BEGIN {
  for (i = 0; i < 60; i++) {
    d = i % 7 == 3 ? 95 : 5 + i % 4; s = 10 + i % 2
    n[s]++; t[s] += d
    if (!(s in mn) || d < mn[s]) mn[s] = d
    if (d > mx[s]) mx[s] = d
  }
  n[12] = 60; t[12] = 180; mn[12] = mx[12] = 3
  for (s = 10; s <= 12; s++)
    printf "%d %d %d %d %.6f %d %d\n", s, n[s], t[s], mn[s], t[s] / n[s], mx[s], s == 12
}' >ct.want
"$PT" -q stats --csv cs.txt >ct.csv 2>&1
for sec in mpi_callsite mpi_callsite_location; do
  awk -F, -v sec=$sec '$1 == sec { printf "%d %d %d %d %.6f %d %d\n", $4, $6, $7, $17, $18, $19, $20 }' ct.csv >ct.got
  cmp -s ct.want ct.got && t_pass "call_times $sec" ||
    t_fail "call_times $sec" "$(paste -d'|' ct.want ct.got)"
done
awk -F, '$1 == "mpi_callsite_location" { print $16 }' ct.csv | tr '\n' ' ' | grep -q '^0 0 1 $' &&
  t_pass call_times_locations || t_fail call_times_locations "$(grep '^mpi_callsite' ct.csv)"
"$PT" -q stats --json cs.txt | python3 -c 'import json, sys
d = json.load(sys.stdin)
r = {c["callsite"]: (c["calls"], c["call_min"], c["call_max"], c["call_max_location"])
     for c in d["mpi_callsites"]}
assert d["call_time_extremes"] is True, d["call_time_extremes"]
assert r == {10: (30, 5, 95, 0), 11: (30, 6, 95, 0), 12: (60, 3, 3, 1)}, r
assert len(d["mpi_callsite_locations"]) == 3' 2>ct.err &&
  t_pass call_times_json || t_fail call_times_json "$(tail -2 ct.err)"
# the table, per location with --site-locations: a.c:10's row of
# location 0, then its * row (calls, min, mean, max in ns, max@)
"$PT" -q stats --site-locations cs.txt >ct.out 2>&1
awk '/^MPI call-site times/ {on = 1; next} /^$/ {on = 0}
  on && $1 == "MPI_Send" && $2 == "a.c:10" {print $3, $4, $5, $6, $7, $8}' ct.out >ct.rows
printf '0 30 5 %s 95 0\n* 30 5 %s 95 0\n' "$(sed -n 1p ct.want | awk '{printf "%.4g", $5}')" \
  "$(sed -n 1p ct.want | awk '{printf "%.4g", $5}')" >ct.rows.want
cmp -s ct.rows ct.rows.want && t_pass call_times_table ||
  t_fail call_times_table "$(cat ct.rows; grep -A6 'call-site times' ct.out)"
# windows from summaries: the call times equal a full scan's (above, cs
# window ...); from summaries written before the call records (no kind 16,
# no call site on a span, the visit marker without recv=1) the window
# leaves them out and keeps the rest of the call-site table
"$PT" -q convert cs.ptf -o ct_sum.txt &&
  grep -v '^summary .* call_visits ' ct_sum.txt |
  sed -e '/^summary .* visits ref=none /s/ recv=1$/ recv=0/' \
      -e '/^summary .* span /s/ sent=[0-9]* recv=1$/ sent=0 recv=0/' >ct_old.txt &&
  "$PT" -q convert ct_old.txt -o ct_old.ptf &&
  "$PT" -q stats --json --require-summaries --from 150 --to 4410 ct_old.ptf >ct_old.json &&
  "$PT" -q stats --csv --require-summaries --from 150 --to 4410 ct_old.ptf >ct_old.csv &&
  "$PT" -q stats --csv --no-summaries --from 150 --to 4410 cs.ptf >ct_full.csv &&
  python3 -c 'import json, sys
d = json.load(open("ct_old.json"))
assert d["call_time_extremes"] is False
assert all("call_min" not in c for c in d["mpi_callsites"])' &&
  [ "$(awk -F, '$1 ~ /^mpi_callsite/ {print $1,$4,$6,$7,$10,$11,$16}' ct_old.csv)" = \
    "$(awk -F, '$1 ~ /^mpi_callsite/ {print $1,$4,$6,$7,$10,$11,$16}' ct_full.csv)" ] &&
  t_pass call_times_old_summaries ||
  t_fail call_times_old_summaries "$(grep -c call_visits ct_old.txt) $(head -c 300 ct_old.json)"

# ---- slices -------------------------------------------------------------------
ok slice_nosnap "$PT" -q slice --from 10ms --to 20ms -o s1.ptf g2.ptf
ok slice_nosnap_check "$PT" -q check s1.ptf >/dev/null
ok snapshot "$PT" snapshot --every 4ms g2.ptf
ok slice_snap "$PT" -q slice --from 10ms --to 20ms -o s2.ptf g2.ptf
ok slice_snap_check "$PT" -q check s2.ptf >/dev/null
"$PT" dump s1.ptf >s1.txt
"$PT" dump s2.ptf >s2.txt
cmp -s s1.txt s2.txt && t_pass slice_snapshot_same ||
  t_fail slice_snapshot_same "$(diff s1.txt s2.txt | head -4)"
# an MPI call open at `from` keeps its call site (its re-created ENTER had
# no attribute: the slice's stats listed it under call site "-"; PETSc's
# SNES ex19 sliced at 600-700 ms had 2 such MPI_Allgather and MPI_Allreduce
# rows); cs.txt's 4th MPI_Send, at a.c:20, runs from 400 to 495
ok slice_callsite "$PT" -q slice --from 410 --to 430 -o slcs.ptf cs.ptf
"$PT" -q stats --csv slcs.ptf >slcs.csv 2>&1
if grep -q '^mpi_callsite,[0-9]*,"MPI_Send",[0-9]*,"a.c:20",1,' slcs.csv &&
   ! grep -q '^mpi_callsite,[0-9]*,"MPI_Send",[0-9]*,"-"' slcs.csv; then
  t_pass slice_keeps_callsite
else t_fail slice_keeps_callsite "$(grep '^mpi_callsite,' slcs.csv)"; fi
# a message sent before the window and received inside keeps both ends
cat >late.txt <<'TXT'
# paratrace text 1
def location_group id=0 rank=0
def location_group id=1 rank=1
def location id=0 group=0
def location id=1 group=1
def region id=1 name="main"
event 0 0 enter region=1
event 0 1 enter region=1
event 10 0 send callsite=0 peer=1 comm=0 tag=1 bytes=4
event 50 1 recv callsite=0 peer=0 comm=0 tag=1 bytes=4
event 60 0 send callsite=0 peer=1 comm=0 tag=1 bytes=4
event 90 1 recv callsite=0 peer=0 comm=0 tag=1 bytes=4
event 100 0 leave region=1
event 100 1 leave region=1
TXT
ok slice_pending "$PT" -q slice --from 20 --to 70 -o late.ptf late.txt
"$PT" dump late.ptf >late.out
if "$PT" -q check late.ptf >/dev/null 2>&1 &&
   grep -q '^event 20 0 send' late.out && grep -q '^event 70 1 recv' late.out; then
  t_pass slice_pending_kept
else t_fail slice_pending_kept "$(grep '^event' late.out)"; fi

# re-created message events go where they belong (a LAMMPS slice showed
# MPI_Send as receiving): a send made by an MPI_Isend before the window,
# its sender in MPI_Wait at `from`, is not the MPI_Wait's; a receive made
# at the end for a send not yet received, its receiver in its own
# MPI_Send at `to`, is not the MPI_Send's (it goes in the region around)
cat >sl_mpi.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0
def location_group id=1 rank=1
def location id=0 group=0
def location id=1 group=1
def region id=1 name="main"
def region id=2 paradigm=3 name="MPI_Isend"
def region id=3 paradigm=3 name="MPI_Wait"
def region id=4 paradigm=3 name="MPI_Send"
def region id=5 paradigm=3 name="MPI_Recv"
event 0 0 enter region=1
event 0 1 enter region=1
event 10 0 enter region=2
event 11 0 isend peer=1 comm=0 tag=1 bytes=100 request=7
event 12 0 leave region=2
event 15 0 enter region=3
event 40 1 enter region=5
event 45 1 recv peer=0 comm=0 tag=1 bytes=100
event 46 1 leave region=5
event 50 0 isend_complete request=7
event 51 0 leave region=3
event 60 0 enter region=4
event 61 0 send peer=1 comm=0 tag=2 bytes=8
event 62 1 enter region=4
event 63 1 send peer=0 comm=0 tag=3 bytes=4
event 90 0 recv peer=1 comm=0 tag=3 bytes=4
event 91 0 leave region=4
event 92 1 recv peer=0 comm=0 tag=2 bytes=8
event 93 1 leave region=4
event 100 0 leave region=1
event 100 1 leave region=1
TXT
ok slice_mpi "$PT" -q slice --from 20 --to 70 -o sl_mpi.ptf sl_mpi.txt
"$PT" -q stats --csv sl_mpi.ptf >sl_mpi.csv 2>&1
# mpi_callsite columns: section, region_id, function, callsite_id,
# callsite, calls, time, pct_app, pct_mpi, messages (sent), bytes,
# bytes_min, bytes_max, received, bytes_received
sent_wait=$(awk -F, '$1 == "mpi_callsite" && $3 == "\"MPI_Wait\"" {print $10}' sl_mpi.csv)
recv_send=$(awk -F, '$1 == "mpi_callsite" && $3 == "\"MPI_Send\"" {n += $15} END {print n + 0}' sl_mpi.csv)
if "$PT" -q check sl_mpi.ptf >/dev/null 2>&1 && [ "${sent_wait:-0}" = 0 ] && [ "$recv_send" = 0 ]; then
  t_pass slice_recreated_messages_placed
else t_fail slice_recreated_messages_placed "MPI_Wait sent '$sent_wait' bytes, MPI_Send received $recv_send bytes: $(grep mpi_callsite sl_mpi.csv)"; fi
# the same from a snapshot that holds the pending send (taken at 15)
ok late_ptf "$PT" -q convert late.txt -o late-in.ptf
ok late_snapshot "$PT" snapshot --every 15 late-in.ptf
ok slice_pending_snap "$PT" -q slice --from 20 --to 70 -o late2.ptf late-in.ptf
"$PT" dump late2.ptf | grep '^event' >late2.out
grep '^event' late.out | cmp -s - late2.out && t_pass slice_pending_from_snapshot ||
  t_fail slice_pending_from_snapshot "$(cat late2.out)"

# ---- bad arguments --------------------------------------------------------------
fails_cleanly unknown_region 1 'unknown region' "$PT" stats --relative-to nosuch pp.txt
fails_cleanly empty_window 1 'empty window' "$PT" stats --from 50 --to 50 pp.txt
# --by comm names the communicators (the MPI recorder's are ids hashed
# from their members, 7988707121473781761 in a LAMMPS run, which the
# table printed as such while dump names it "comm 6edd96cd0e140001");
# one the trace does not define keeps its id
cat >bycomm.txt <<'TXT'
# paratrace text 1
def location_group id=0 rank=0
def location_group id=1 rank=1
def location id=0 group=0
def location id=1 group=1
def group id=0 type=4 paradigm=3 name="MPI_COMM_WORLD ranks" members=[0,1]
def comm id=2 parent=none paradigm=3 name="MPI_COMM_WORLD"
def comm id=7988707121473781761 parent=none group=0 paradigm=3 name="comm 6edd96cd0e140001"
def region id=1 name="main"
event 0 0 enter region=1
event 0 1 enter region=1
event 10 0 send peer=1 comm=2 tag=1 bytes=8
event 12 1 recv peer=0 comm=2 tag=1 bytes=8
event 20 0 send peer=1 comm=7988707121473781761 tag=1 bytes=16
event 22 1 recv peer=0 comm=7988707121473781761 tag=1 bytes=16
event 30 0 send peer=1 comm=77 tag=1 bytes=32
event 32 1 recv peer=0 comm=77 tag=1 bytes=32
event 40 0 leave region=1
event 40 1 leave region=1
TXT
"$PT" -q stats --by comm bycomm.txt >bycomm.out 2>&1
if grep -q '^ *0 *1 *MPI_COMM_WORLD *1 *8 B ' bycomm.out &&
   grep -q '^ *0 *1 comm 6edd96cd0e140001 *1 *16 B ' bycomm.out &&
   grep -q '^ *0 *1 *77 *1 *32 B ' bycomm.out &&
   "$PT" -q stats --by comm --csv bycomm.txt | grep -q ',7988707121473781761,'; then
  t_pass stats_by_comm_names
else t_fail stats_by_comm_names "$(cat bycomm.out)"; fi
fails_cleanly bad_by 2 'tag or comm' "$PT" stats --by color pp.txt
fails_cleanly slice_no_out 2 'missing -o' "$PT" slice --from 1 --to 2 pp.txt
fails_cleanly summarize_not_ptf 1 'native archive' "$PT" summarize --every 10 pp.txt
fails_cleanly summarize_no_every 2 'every' "$PT" summarize g.ptf
fails_cleanly summarize_tiny_every 1 'summary times for' "$PT" summarize --every 1 g.ptf
# A window from summaries reads only the summary blocks near its edges
# (before: every summary block of the archive, twice; a 10 ms window of a
# 67 s trace with summaries every 2 ms took longer than a full scan).  A
# damaged block at the start of s0.sums is never read by a window at the
# end, and one that needs it says which file and offset.
rm -rf swin.ptf swin2.ptf
"$PT" -q generate -o swin.ptf --locations 2 --events 400000 --seed 5
"$PT" -q summarize --every 1ms swin.ptf
cp -r swin.ptf swin2.ptf
printf '\377\377\377\377' | dd of=swin2.ptf/s0.sums bs=1 seek=200 conv=notrunc 2>/dev/null
"$PT" stats --from 5s --to 5.01s swin.ptf 2>&1 | tail -n +2 >swin.a
"$PT" stats --from 5s --to 5.01s swin2.ptf 2>&1 | tail -n +2 >swin.b
"$PT" stats --no-summaries --from 5s --to 5.01s swin.ptf 2>&1 | tail -n +2 >swin.c
if [ -s swin.a ] && cmp -s swin.a swin.b && head -1 swin.a | grep -q 'application time' &&
   "$PT" stats --from 5s --to 5.01s swin2.ptf | head -1 | grep -q 'from summaries'; then
  t_pass "window_far_blocks_unread"
else
  t_fail "window_far_blocks_unread" "$(diff swin.a swin.b | head -5)"
fi
"$PT" stats --from 0 --to 10ms swin2.ptf >/dev/null 2>swin.err; rc=$?
if [ $rc = 1 ] && grep -q 's0.sums: block at offset 0: block payload checksum' swin.err; then
  t_pass "window_damaged_block_named"
else
  t_fail "window_damaged_block_named" "exit $rc: $(head -c 300 swin.err)"
fi
# windows at the start, the middle, the end and across the whole trace
# equal a scan of the window (the edge ranges widen until they hold the
# usable summary times around each edge)
for w in "0 1ms" "2s 2.5s" "1s 4s" "5.3s 9s" "0 9s" "2.71828s 2.71829s"; do
  set -- $w
  "$PT" stats --from "$1" --to "$2" swin.ptf | tail -n +2 | nowaits >swin.w1
  "$PT" stats --no-summaries --from "$1" --to "$2" swin.ptf | tail -n +2 |
    nowaits >swin.w2
  if cmp -s swin.w1 swin.w2; then t_pass "window_edges_equal_scan [$1, $2)"
  else t_fail "window_edges_equal_scan [$1, $2)" "$(diff swin.w1 swin.w2 | head -6)"; fi
done
# One stream of 2500 locations with MPI_Init: its last summary block holds
# the APP_SPAN records of the last locations only (those of the first ones
# end the block before, for each --every below).  A window of location 0
# must still find its APP_SPAN record (it reported "summaries without
# where MPI_Init ends" and fell back to a full scan).
awk -v N=2500 'BEGIN {
  print "# paratrace text 1"
  for (i = 0; i < N; i++) print "stream 0 location=" i
  for (i = 0; i < N; i++) {
    print "def location_group id=" i " rank=" i
    print "def location id=" i " group=" i
  }
  print "def region id=1 name=\"MPI_Init\""
  print "def region id=2 role=1 paradigm=2 name=\"work\""
  print "def region id=3 role=1 paradigm=3 name=\"MPI_Finalize\""
  n = split("0 enter 1,100 leave 1,200 enter 2,9000 leave 2,9500 enter 3,10000 leave 3", ev, ",")
  for (k = 1; k <= n; k++) {
    split(ev[k], f, " ")
    for (i = 0; i < N; i++) print "event " f[1] " " i " " f[2] " region=" f[3]
  }
}' >span1.txt
"$PT" -q convert span1.txt -o span1.ptf
for e in 1300 700 650; do
  rm -rf span1s.ptf
  cp -r span1.ptf span1s.ptf
  "$PT" -q summarize --every $e span1s.ptf
  "$PT" stats --require-summaries --from 100 --to 300 --locations 0 span1s.ptf \
    >span1.a 2>&1; rc=$?
  "$PT" stats --no-summaries --from 100 --to 300 --locations 0 span1s.ptf \
    2>&1 | tail -n +2 >span1.b
  if [ $rc = 0 ] && head -1 span1.a | grep -q 'from summaries' &&
     tail -n +2 span1.a | cmp -s - span1.b; then
    t_pass "window_app_span_in_earlier_block every $e"
  else
    t_fail "window_app_span_in_earlier_block every $e" "exit $rc: $(head -c 300 span1.a)"
  fi
done
# DUMPI read in runs (one rank's calls at a time): receives from
# MPI_ANY_SOURCE without a status take the oldest send waiting, so the
# messages must reach the engine in time order.  Rank 1 starts first and
# sends at 50; rank 0 receives from any source at 11 and 61; rank 2 sends
# at 8: in time order the receive at 11 takes rank 2's message.  The
# stats of the DUMPI set are those of the time-ordered read
# (--locations makes the source filter, which reads in time order).
# Before: rank 1's run went first, its send was waiting when rank 0's
# run came, and the late sender / receiver times differed.
cat >anyrun.txt <<'EOF'
# paratrace text 1
def clock start=0 ticks_per_second=1000000000 length=100
def region id=1 role=6 paradigm=3 name="MPI_Send" canonical="MPI_Send"
def region id=2 role=6 paradigm=3 name="MPI_Recv" canonical="MPI_Recv"
def region id=3 role=6 paradigm=3 name="MPI_Comm_rank" canonical="MPI_Comm_rank"
def location_group id=0 type=1 rank=0 name="MPI Rank 0"
def location_group id=1 type=1 rank=1 name="MPI Rank 1"
def location_group id=2 type=1 rank=2 name="MPI Rank 2"
def location id=0 group=0 type=1
def location id=1 group=1 type=1
def location id=2 group=2 type=1
event 1 1 enter region=3
event 2 1 leave region=3
event 3 0 enter region=3
event 4 0 leave region=3
event 5 2 enter region=3
event 6 2 leave region=3
event 7 2 enter region=1
event 8 2 send peer=0 comm=0 tag=0 bytes=8
event 9 2 leave region=1
event 10 0 enter region=2
event 11 0 recv peer=-1 comm=0 tag=0 bytes=8
event 12 0 leave region=2
event 48 1 enter region=1
event 50 1 send peer=0 comm=0 tag=0 bytes=16
event 51 1 leave region=1
event 60 0 enter region=2
event 61 0 recv peer=-1 comm=0 tag=0 bytes=16
event 62 0 leave region=2
EOF
rm -rf anyrun.meta anyrun-*.bin anyrun.ptf
if "$PT" -q convert anyrun.txt -o anyrun.meta &&
   "$PT" -q convert --locations 0,1,2 anyrun.meta -o anyrun.ptf &&
   "$PT" stats --csv anyrun.meta >anyrun.a 2>&1 &&
   "$PT" stats --csv anyrun.ptf >anyrun.b 2>&1 &&
   grep -q '^message,2,0,0,1,8,0,2,1$' anyrun.b && cmp -s anyrun.a anyrun.b; then
  t_pass dumpi_runs_any_source_in_time_order
else
  t_fail dumpi_runs_any_source_in_time_order "$(diff anyrun.a anyrun.b | head -4 | tr '\n' ' ')"
fi
# ... and two threads of a rank receiving on one channel: thread 1's
# MPI_Recv [10, 20] takes the first message in time order, though
# thread 0's [5, 50] started first (a DUMPI receive's event is at its
# leave: in runs thread 0's came first; late receiver 4, not 9)
cat >thrrun.txt <<'EOF'
# paratrace text 1
def clock start=0 ticks_per_second=1000000000 length=100
def region id=1 role=6 paradigm=3 name="MPI_Send" canonical="MPI_Send"
def region id=2 role=6 paradigm=3 name="MPI_Recv" canonical="MPI_Recv"
def location_group id=0 type=1 rank=0 name="MPI Rank 0"
def location_group id=1 type=1 rank=1 name="MPI Rank 1"
def location id=0 group=0 type=1
def location id=1 group=1 type=1
def location id=4294967297 group=1 type=1
event 1 0 enter region=1
event 1 0 send peer=1 comm=0 tag=0 bytes=8
event 5 1 enter region=2
event 10 4294967297 enter region=2
event 20 4294967297 recv peer=0 comm=0 tag=0 bytes=8
event 20 4294967297 leave region=2
event 30 0 leave region=1
event 31 0 enter region=1
event 31 0 send peer=1 comm=0 tag=0 bytes=16
event 50 1 recv peer=0 comm=0 tag=0 bytes=16
event 50 1 leave region=2
event 60 0 leave region=1
EOF
rm -rf thrrun.meta thrrun-*.bin thrrun.ptf
if "$PT" -q convert thrrun.txt -o thrrun.meta &&
   locs=$("$PT" dump --to 0 thrrun.meta | sed -n 's/^def location id=\([0-9]*\) .*/\1/p' | paste -sd, -) &&
   "$PT" -q convert --locations "$locs" thrrun.meta -o thrrun.ptf &&
   "$PT" stats --csv thrrun.meta >thrrun.a 2>&1 &&
   "$PT" stats --csv thrrun.ptf >thrrun.b 2>&1 &&
   grep -q '^message,0,1,0,2,24,26,9,2$' thrrun.b && cmp -s thrrun.a thrrun.b; then
  t_pass dumpi_runs_thread_channel_in_time_order
else
  t_fail dumpi_runs_thread_channel_in_time_order "$(diff thrrun.a thrrun.b | head -4 | tr '\n' ' ')"
fi
t_done
