#!/bin/sh
# Every format to every writable format, on the real test vectors: each
# conversion succeeds, reads back (info), keeps the event count where the
# target can express every event, and passes `check` where the source did.
. "$(dirname "$0")/common.inc"
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
[ -d "$TD" ] || { echo "PASS formats_skipped_no_testdata"; t_done; }

nevents() { "$PT" -q info "$1" 2>/dev/null | awk '$1 == "events" {print $2; exit}'; }

# What ParaGraph needs of a PICL file (issue 7): records in time order;
# for each processor the tracing event -901 entered first and exited last;
# processors numbered 0..P-1; statistics records (-101..-103) at the end.
paragraph_rules() {
  awk '
    { rt = $1 + 0; t = $3 + 0; p = $4 + 0 }
    NR > 1 && t < last { print "line " NR ": time goes back"; bad = 1; exit }
    { last = t }
    p < 0 { next }                                   # labels, definitions
    rt <= -101 && rt >= -103 { stats[p] = 1; next }
    stats[p] { print "line " NR ": record after statistics"; bad = 1; exit }
    !(p in first) {
      first[p] = 1; if (p + 1 > np) np = p + 1
      if (!(rt == -3 && $2 == -901)) { print "line " NR ": processor " p " does not start with -3 -901"; bad = 1; exit }
      next
    }
    closed[p] { print "line " NR ": record after -4 -901 on processor " p; bad = 1; exit }
    rt == -4 && $2 == -901 { closed[p] = 1 }
    END {
      if (bad) exit 1
      for (i = 0; i < np; i++) {
        if (!(i in first)) { print "processor " i " missing (not numbered 0..P-1)"; exit 1 }
        if (!closed[i]) { print "processor " i " has no -4 -901"; exit 1 }
      }
      if (np == 0) { print "no processor"; exit 1 }
    }' "$1"
}

i=0
for src in "$TD"/dumpi/a_pingpong/*.meta "$TD"/dumpi/c_collectives/*.meta \
           "$TD"/otf/b_msgs_2streams/trace/*.otf "$TD"/picl/ring_async_sync.trf; do
  i=$((i + 1))
  ok "in$i" "$PT" -q convert "$src" -o "in$i.ptf" || continue
  n0=$(nevents "in$i.ptf")
  for ext in txt trf otf meta ptf; do
    out="out$i-$ext.$ext"
    ok "conv$i-$ext" "$PT" -q convert "in$i.ptf" -o "$out" || continue
    if [ "$ext" = trf ]; then
      paragraph_rules "$out" >"pg$i.out" 2>&1 && t_pass "paragraph$i" ||
        t_fail "paragraph$i" "$(cat "pg$i.out")"
    fi
    ok "back$i-$ext" "$PT" -q convert "$out" -o "back$i-$ext.ptf" || continue
    n1=$(nevents "back$i-$ext.ptf")
    if [ "$ext" = meta ] && [ "${src##*.}" = trf ]; then
      # (no MPI call: nothing to check, and check says so)
      "$PT" -q check "back$i-$ext.ptf" >"chk$i-$ext.out" 2>&1
      [ $? = 1 ] && grep -q 'no events' "chk$i-$ext.out" && t_pass "check$i-$ext" ||
        t_fail "check$i-$ext" "$(head -c 300 "chk$i-$ext.out")"
    elif [ "$ext" != ptf ] && [ "$ext" != txt ]; then
      "$PT" -q check "back$i-$ext.ptf" >"chk$i-$ext.out" 2>&1 &&
        t_pass "check$i-$ext" ||
        t_fail "check$i-$ext" "$(head -c 300 "chk$i-$ext.out")"
    fi
    case $ext in
      txt|ptf)  # lossless: identical dumps
        "$PT" dump "in$i.ptf" >a.txt && "$PT" dump "back$i-$ext.ptf" >b.txt &&
          cmp -s a.txt b.txt && t_pass "lossless$i-$ext" ||
          t_fail "lossless$i-$ext" "$(diff a.txt b.txt | head -3)" ;;
      *) # DUMPI holds only MPI calls: a PICL trace (no MPI regions) has none
         if [ "$ext" = meta ] && [ "${src##*.}" = trf ]; then
           [ "$n1" = 0 ] && t_pass "events$i-$ext" ||
             t_fail "events$i-$ext" "expected no MPI calls, got $n1"
         else
           [ -n "$n1" ] && [ "$n1" -gt 0 ] && t_pass "events$i-$ext" ||
             t_fail "events$i-$ext" "no events after $ext ($n0 before)"
         fi ;;
    esac
  done
done
# PICL -> PTF -> PICL is byte-identical
for trf in "$TD"/picl/*.trf; do
  b=$(basename "$trf" .trf)
  "$PT" -q convert "$trf" -o "p-$b.ptf" && "$PT" -q convert "p-$b.ptf" -o "p-$b.trf" &&
    cmp -s "p-$b.trf" "$trf" && t_pass "picl_identical_$b" ||
    t_fail "picl_identical_$b" "$(cmp "p-$b.trf" "$trf" 2>&1 | head -1)"
done
# to DUMPI: OTF2 keyvals scoped to regions or communicators are no ranks;
# PICL's host processor and regions that are no MPI calls are left out
# with a warning, not an error
for src in "$TD"/otf2/*/trace/*.otf2 "$TD"/picl/reduce_mcast.trf; do
  case "$src" in
    *.otf2) b=otf2_$(basename "$(dirname "$(dirname "$src")")") ;;
    *) b=picl_$(basename "$src" .trf) ;;
  esac
  rm -rf "d-$b.meta" "d-$b"-*.bin
  if "$PT" convert "$src" -o "d-$b.meta" >"d-$b.out" 2>&1; then
    t_pass "to_dumpi_$b"
  else t_fail "to_dumpi_$b" "$(tail -2 "d-$b.out")"; fi
done
grep -Eq '[0-9]+ events? of 1 location without an MPI rank' d-picl_reduce_mcast.out &&
  t_pass dumpi_norank_counted || t_fail dumpi_norank_counted "$(cat d-picl_reduce_mcast.out)"
grep -q 'no MPI call in the trace' "$(ls d-*reduce_mcast*.out | head -1)" &&
  t_pass "to_dumpi_empty_said" || t_fail "to_dumpi_empty_said" "no warning"
# OTF's side files are written with the rest in the temporary directory:
# an unrelated NAME.1.events next to the target is never replaced
mkdir -p col && echo keep >col/bar.1.events && rm -f col/bar.otf
"$PT" -q convert "$TD"/picl/pingpong.trf -o col/bar.otf >col.out 2>&1
[ $? = 1 ] && [ "$(cat col/bar.1.events)" = keep ] && [ ! -e col/bar.otf ] &&
  grep -q 'already exists' col.out && t_pass otf_side_files_not_replaced ||
  t_fail otf_side_files_not_replaced "$(cat col.out; ls col)"
# PICL -> OTF: every message keeps its partners (processors are defined at
# their first record, after the first event), and the wildcard / host
# processor (location 2^41 + n) gets a token an OTF reader accepts
for trf in "$TD"/picl/*.trf; do
  b=$(basename "$trf" .trf)
  m1=$("$PT" check "$trf" 2>/dev/null | sed -n 's/.* \([0-9]*\) messages matched.*/\1/p')
  "$PT" -q convert "$trf" -o "po-$b.otf" 2>/dev/null
  m2=$("$PT" check "po-$b.otf" 2>/dev/null | sed -n 's/.*: OK: .* \([0-9]*\) messages matched.*/\1/p')
  [ -n "$m1" ] && [ "$m1" = "$m2" ] && "$PT" -q convert "po-$b.otf" -o "po-$b.ptf" 2>/dev/null &&
    t_pass "picl_to_otf_messages_$b" ||
    t_fail "picl_to_otf_messages_$b" "$m1 in the source, '$m2' in OTF: $("$PT" check "po-$b.otf" 2>&1 | tail -1)"
done
# DUMPI from a trace whose threads have Score-P's location ids
# (thread << 32 | rank): every thread's calls go to its rank's file as
# thread 1 (were left out, with a warning that named only one location)
cat >sp.txt <<'EOF'
# paratrace text 1
def clock start=0 ticks_per_second=1000000000 length=100
def region id=1 role=6 paradigm=3 name="MPI_Barrier" canonical="MPI_Barrier"
def location_group id=0 type=1 rank=0 name="MPI Rank 0"
def location_group id=1 type=1 rank=1 name="MPI Rank 1"
def location id=0 group=0 type=1
def location id=1 group=1 type=1
def location id=4294967296 group=0 type=1
def location id=4294967297 group=1 type=1
event 10 0 enter region=1
event 11 1 enter region=1
event 12 4294967296 enter region=1
event 13 4294967297 enter region=1
event 20 0 leave region=1
event 21 1 leave region=1
event 22 4294967296 leave region=1
event 23 4294967297 leave region=1
EOF
"$PT" convert sp.txt -o sp.meta >sp.out 2>&1 &&
  [ "$("$PT" dump --style dumpi sp.meta | grep -c 'entering.*thread 1')" = 2 ] &&
  [ "$("$PT" dump --style dumpi sp.meta | grep -c 'entering.*thread 0')" = 2 ] &&
  ! grep -q 'left out' sp.out && t_pass dumpi_large_thread_ids ||
  t_fail dumpi_large_thread_ids "$(cat sp.out; "$PT" dump --style dumpi sp.meta | grep entering)"
# DUMPI -> PTF: the source hands the PTF sink (one stream per location)
# runs of one rank at a time, without its merge; the archive is the one a
# time-ordered read writes (--locations makes the source filter, which
# reads in time order): the test vectors and the two-thread set above
for m in "$TD"/dumpi/*/*.meta sp.meta; do
  b=$(basename "$m" .meta)
  rm -rf "run-$b.ptf" "ord-$b.ptf"
  locs=$("$PT" dump --to 0 "$m" 2>/dev/null | sed -n 's/^def location id=\([0-9]*\) .*/\1/p' |
    paste -sd, -)
  if "$PT" -q convert "$m" -o "run-$b.ptf" &&
     "$PT" -q convert --locations "$locs" "$m" -o "ord-$b.ptf" &&
     diff -r "run-$b.ptf" "ord-$b.ptf" >/dev/null; then
    t_pass "dumpi_to_ptf_runs_$b"
  else
    t_fail "dumpi_to_ptf_runs_$b" "$(diff -r "run-$b.ptf" "ord-$b.ptf" 2>&1 | head -3)"
  fi
done
t_done
