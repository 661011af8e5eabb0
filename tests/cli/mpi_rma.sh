#!/bin/sh
# The one-sided pattern of ARMCI-MPI (NWChem's Global Arrays):
# tests/mpi/rma_ops.c recorded by libparatrace-mpi.so on 3 ranks.  The
# program's results are unchanged and every call is recorded with its
# arguments; MPI_NO_OP (MPI-3's, which has no SST DUMPI number) is
# recorded as the predefined op 15, not as a user op: before, it took the
# first user-op number (100) on each rank that used it, so NWChem's
# MPI_Get_accumulate calls showed a user-defined op and ScaLAPACK's own
# MPI_Op_create ops were numbered 101, 102... on those ranks only.
# One-sided operations carry their bytes and target (RMA_* events) and
# `stats` counts them: before, every one-sided call moved 0 B in the MPI
# functions and call-site tables and none in the message matrix (an
# NWChem run, all ARMCI-MPI one-sided traffic, showed no communication).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build rma_ops" mpicc $SANF -o rma "$SRC/tests/mpi/rma_ops.c"
rm -rf rma.ptf
if $RUN -np 3 "$PT" record -o rma.ptf -- ./rma >rma.out 2>rma.err &&
   [ "$(grep -c '^done' rma.out)" = 3 ]; then
  t_pass "rma_ops: the program's results unchanged when recorded"
else
  t_fail "rma_ops: the program's results unchanged when recorded" "$(tail -3 rma.err)"
  t_done
fi
ok "check" "$PT" check rma.ptf
"$PT" dump rma.ptf >rma.txt
# FUNC ATTR: the values of attribute ATTR on every enter of FUNC, sorted
vals() {
  awk -v f="$1" -v a="$2" '
    { sub(/^def@[0-9]+ /, "def ") }
    $1 == "def" && $2 == "region" && $0 ~ ("name=\"" f "\"") {
      sub(/.*id=/, "", $3); reg = $3 }
    $1 == "def" && $2 == "attribute" && $0 ~ ("name=\"" a "\"") {
      sub(/id=/, "", $3); at = $3 }
    $1 == "event" && $4 == "enter" && $5 == "region=" reg {
      n = split($0, kv, /[{} ]/)
      for (i = 1; i <= n; i++)
        if (index(kv[i], at "=i:") == 1) print substr(kv[i], length(at) + 4)
    }' rma.txt | sort | uniq -c | awk '{ printf "%s x%s ", $2, $1 }'
}
expect() {
  got=$(vals "$1" "$2")
  if [ "$got" = "$3" ]; then t_pass "$1 $2: $3"
  else t_fail "$1 $2: want '$3'" "got '$got'"; fi
}
expect MPI_Get_accumulate op "15 x3 "
expect MPI_Fetch_and_op op "15 x3 3 x3 "
expect MPI_Accumulate op "13 x3 "
expect MPI_Allreduce op "100 x3 "
# the op MPI_Op_create made and the one MPI_Op_free freed (not recorded
# before: PETSc's five MPI_Op_create calls showed as "MPI_Op op=0
# (MPI_OP_ERROR)" in dump --style dumpi and the DUMPI output)
expect MPI_Op_create op "100 x3 "
expect MPI_Op_free op "100 x3 "
expect MPI_Get_accumulate origin_count "4 x3 "
expect MPI_Get_accumulate result_count "4 x3 "
expect MPI_Accumulate targetcount "4 x3 "
expect MPI_Win_allocate disp_unit "8 x3 "
expect MPI_Win_allocate size "128 x3 "
# every call once per rank (the flushes and locks too; rma_reversed
# locks, unlocks and frees its window too)
for fn in MPI_Win_allocate:3 MPI_Win_lock_all:6 MPI_Accumulate:3 \
          MPI_Win_flush_local_all:3 MPI_Get_accumulate:3 MPI_Win_flush_all:3 \
          MPI_Win_unlock_all:6 MPI_Win_free:6 MPI_Win_create:3 MPI_Win_lock:9 \
          MPI_Win_unlock:9 MPI_Put:3 MPI_Rget_accumulate:3; do
  f=${fn%:*} want=${fn#*:}
  n=$(awk -v f="$f" '{ sub(/^def@[0-9]+ /, "def ") }
    $1 == "def" && $2 == "region" && $0 ~ ("name=\"" f "\"") { sub(/.*id=/, "", $3); r = $3 }
    $1 == "event" && $4 == "enter" && $5 == "region=" r { n++ } END { print n + 0 }' rma.txt)
  if [ "$n" = "$want" ]; then t_pass "$f recorded on every rank ($want)"
  else t_fail "$f recorded on every rank ($want)" "$n"; fi
done
# One-sided operations: an RMA_* event per call with the origin's bytes
# and the target as a COMM_WORLD rank (rma_reversed's window is over
# COMM_WORLD in reverse order: a target's rank there is not its
# COMM_WORLD rank).  KIND FIELDS: the sorted "location target bytes" of
# every event of KIND (its size and size2 slots as the text form names
# them).
rma_events() {
  awk -v k="$1" -v f="$2" '$1 == "event" && $4 == k {
      n = split(f, want, ","); line = $3
      for (j = 1; j <= n; j++)
        for (i = 5; i <= NF; i++) if (index($i, want[j] "=") == 1) {
          v = $i; sub(/^[^=]*=/, "", v); line = line " " v }
      print line }' rma.txt | sort | tr '\n' ';'
}
expect_ev() {
  got=$(rma_events "$1" "$2")
  if [ "$got" = "$3" ]; then t_pass "$1 $2: $3"
  else t_fail "$1 $2: want '$3'" "got '$got'"; fi
}
# each rank puts to its right neighbour: MPI_Put 3 ints, MPI_Rput 2
# doubles
expect_ev rma_put target,bytes "0 1 12;0 1 16;1 2 12;1 2 16;2 0 12;2 0 16;"
# and gets from its left one: MPI_Get 5 doubles, MPI_Rget 6 chars
expect_ev rma_get target,bytes "0 2 40;0 2 6;1 0 40;1 0 6;2 1 40;2 1 6;"
# MPI_Compare_and_swap (type 3): a long and its comparand out, one back
expect_ev rma_atomic type,target,sent,received "$(for r in 0 1 2; do
  rt=$(( (r + 1) % 3 ))
  printf '%s 0 %s 32 0;%s 3 %s 16 8;%s 0 %s 28 0;%s 7 %s 8 8;%s 7 0 0 8;%s 7 0 8 8;%s 7 %s 0 32;' \
    $r $rt $r $rt $r $rt $r $rt $r $r $r $r
done | tr ';' '\n' | sort | tr '\n' ';')"

# stats: the bytes of every one-sided function (CSV call-site rows,
# summed over its call sites): "calls sent_msgs bytes received_msgs
# bytes_received"
"$PT" stats --csv rma.ptf >rma.csv
"$PT" stats rma.ptf >rma.stats
"$PT" stats --json rma.ptf >rma.json
fbytes() {
  awk -F, -v f="\"$1\"" '$1 == "mpi_callsite" && $3 == f {
      c += $6; m += $10; b += $11; r += $14; rb += $15 }
    END { print c + 0, m + 0, b + 0, r + 0, rb + 0 }' rma.csv
}
expect_fn() {
  got=$(fbytes "$1")
  if [ "$got" = "$2" ]; then t_pass "stats $1: $2"
  else t_fail "stats $1: want '$2' (calls, sent, bytes, received, bytes)" "got '$got'"; fi
}
expect_fn MPI_Put "3 3 36 0 0"
expect_fn MPI_Rput "3 3 48 0 0"
expect_fn MPI_Get "3 0 0 3 120"
expect_fn MPI_Rget "3 0 0 3 18"
expect_fn MPI_Accumulate "3 3 96 0 0"
expect_fn MPI_Raccumulate "3 3 84 0 0"
# with MPI_NO_OP the origin buffer is not sent
expect_fn MPI_Get_accumulate "3 0 0 3 96"
expect_fn MPI_Rget_accumulate "3 3 24 3 24"
expect_fn MPI_Fetch_and_op "6 3 24 6 48"
expect_fn MPI_Compare_and_swap "3 3 48 3 24"
# the table shows them too
if awk '$1 == "MPI_Put" && $7 == "36" && $8 == "B" { ok = 1 }
        $1 == "MPI_Get" && $(NF - 1) == "120" && $NF == "B" { g = 1 }
        END { exit !(ok && g) }' rma.stats; then
  t_pass "stats table: MPI_Put sent 36 B, MPI_Get received 120 B"
else
  t_fail "stats table: MPI_Put sent 36 B, MPI_Get received 120 B" \
    "$(grep -E '^MPI_(Put|Get) ' rma.stats)"
fi
if python3 -c '
import json, sys
d = json.load(open("rma.json"))
b = {}
for r in d["mpi_callsites"]:
    x = b.setdefault(r["function"], [0, 0])
    x[0] += r["bytes"]; x[1] += r["bytes_received"]
sys.exit(0 if b["MPI_Put"] == [36, 0] and b["MPI_Get"] == [0, 120]
         and b["MPI_Compare_and_swap"] == [48, 24] else 1)'; then
  t_pass "stats --json: the one-sided bytes per call site"
else
  t_fail "stats --json: the one-sided bytes per call site" ""
fi
# the matrix: what a put sends goes from origin to target, what a get
# receives from target to origin (cells "sender receiver count bytes");
# rank 0 sends its right neighbour 1 32 + 12 + 16 + 28 + 8 + 16 bytes in
# six operations, and rank 1 gets 40 + 6 + 8 + 8 from it in four
expect_mx() {
  got=$(awk -F, -v s="$1" -v r="$2" '$1 == "message" && $2 == s && $3 == r {
          print $5, $6 }' rma.csv)
  if [ "$got" = "$3" ]; then t_pass "matrix $1 -> $2: $3"
  else t_fail "matrix $1 -> $2: want '$3'" "got '$got'"; fi
}
expect_mx 0 1 "10 174"
expect_mx 0 0 "4 56"
expect_mx 1 0 "3 24"
# per location: 7 operations sent 120 B, 7 received 110 B
got=$(awk -F, '$1 == "location" { print $2, $5, $6, $7, $8 }' rma.csv | tr '\n' ';')
if [ "$got" = "0 7 120 7 110;1 7 120 7 110;2 7 120 7 110;" ]; then
  t_pass "locations: one-sided bytes sent and received"
else
  t_fail "locations: one-sided bytes sent and received" "$got"
fi
# windows from summaries count them as a full scan does (PT_SUM_RMA)
rm -rf rmas.ptf && cp -r rma.ptf rmas.ptf
# (about 100 summary times whatever the run took: a fixed 100us gave
# more summary times than events when a loaded machine stretched the run
# past a second, which summarize rejects as a slip)
span=$("$PT" info rmas.ptf | sed -n 's/^time span .*: \([0-9]*\) ticks = .*/\1/p')
ok "summarize" "$PT" summarize --every $(( ${span:-10000000} / 100 + 1 )) rmas.ptf
# windows with edges at the one-sided operations (ticks: the times of
# the RMA_* events, sorted; window q from the (q * n / 8)-th to just
# after the ((q + 2) * n / 8)-th, so each holds some and cuts others off)
awk '$1 == "event" && $4 ~ /^rma_/ { print $2 }' rma.txt | sort -n >rmat.txt
n=$(wc -l <rmat.txt)
same=1 nonempty=0
: >wb.txt
for q in 1 2 3 4 5; do
  from=$(sed -n "$(( q * n / 8 ))p" rmat.txt)
  to=$(( $(sed -n "$(( (q + 2) * n / 8 ))p" rmat.txt) + 1 ))
  "$PT" stats --csv --from "$from" --to "$to" rmas.ptf >w1.all
  # (computed from the summaries: the totals' last field)
  awk -F, '$1 == "totals" && $NF != 1 { exit 1 }' w1.all || same=0
  grep -v '^totals' w1.all | nowaits >w1.csv
  "$PT" stats --csv --no-summaries --from "$from" --to "$to" rmas.ptf |
    grep -v '^totals' | nowaits >w2.csv
  cmp -s w1.csv w2.csv || same=0
  grep -q '^message,' w1.csv && nonempty=$((nonempty + 1))
  awk -F, '$1 == "message" { b += $6 } END { print b + 0 }' w1.csv >>wb.txt
done
# the windows cut the operations differently (not all or nothing)
distinct=$(sort -u wb.txt | wc -l)
# and the whole trace, where every one-sided operation is
"$PT" stats --csv --from 0 --to 100000s rmas.ptf | grep -v '^totals' | nowaits >w1.csv
"$PT" stats --csv --no-summaries --from 0 --to 100000s rmas.ptf | grep -v '^totals' |
  nowaits >w2.csv
if [ $same = 1 ] && [ $nonempty = 5 ] && [ "$distinct" -ge 3 ] &&
   cmp -s w1.csv w2.csv && grep -q '^message,0,1,0,10,174,' w1.csv; then
  t_pass "windows from summaries: the one-sided bytes as a scan"
else
  t_fail "windows from summaries: the one-sided bytes as a scan" \
    "same=$same nonempty=$nonempty distinct=$distinct $(diff w1.csv w2.csv | head -5)"
fi

# SST DUMPI: the trace's DUMPI form (MPI-2's MPI_Put, MPI_Get,
# MPI_Accumulate; MPI_Win_allocate and the MPI-3 calls have no record)
# read back gives the same bytes, targets through the window's
# MPI_Win_create and its communicator's replayed MPI_Comm_split
rm -rf rmad rmad-*.bin rmad.meta
"$PT" -q convert rma.ptf -o rmad --to dumpi 2>/dev/null
"$PT" stats --csv rmad >rmad.csv 2>/dev/null
for fx in "MPI_Put:3 3 36 0 0" "MPI_Get:3 0 0 3 120" "MPI_Accumulate:3 3 96 0 0"; do
  f=${fx%%:*} want=${fx#*:}
  got=$(awk -F, -v f="\"$f\"" '$1 == "mpi_callsite" && $3 == f {
      c += $6; m += $10; b += $11; r += $14; rb += $15 }
    END { print c + 0, m + 0, b + 0, r + 0, rb + 0 }' rmad.csv)
  if [ "$got" = "$want" ]; then t_pass "DUMPI: stats $f: $want"
  else t_fail "DUMPI: stats $f: want '$want'" "got '$got'"; fi
done
"$PT" dump rmad 2>/dev/null >rmad.txt
got=$(awk '$1 == "event" && $4 == "rma_put" { for (i = 5; i <= NF; i++)
    if ($i ~ /^target=/) print $3, $i }' rmad.txt | sort | tr '\n' ';')
if [ "$got" = "0 target=1;1 target=2;2 target=0;" ]; then
  t_pass "DUMPI: MPI_Put's target a COMM_WORLD rank"
else
  t_fail "DUMPI: MPI_Put's target a COMM_WORLD rank" "$got"
fi
# and DUMPI -> PTF -> DUMPI is byte-identical with them
rm -rf rmad.ptf rmad2 rmad2-*.bin rmad2.meta
"$PT" -q convert rmad -o rmad.ptf 2>/dev/null
"$PT" -q convert rmad.ptf -o rmad2 --to dumpi 2>/dev/null
same=1
for r in 0000 0001 0002; do cmp -s rmad-$r.bin rmad2-$r.bin || same=0; done
if [ $same = 1 ]; then t_pass "DUMPI -> PTF -> DUMPI byte-identical"
else t_fail "DUMPI -> PTF -> DUMPI byte-identical" "$(ls rmad*)"; fi

# a one-sided call without recorded arguments (as from a Score-P OTF2
# trace) written as DUMPI gets them from its RMA_* event: its bytes as
# MPI_BYTE counts, its target's rank in the window's communicator
"$PT" dump rma.ptf -o rmana.txt 2>/dev/null
sed -e '/^event .* enter /s/ {.*}$//' rmana.txt >rmana2.txt
rm -rf rmand rmand-*.bin rmand.meta
"$PT" -q convert rmana2.txt -o rmand --to dumpi 2>/dev/null
"$PT" stats --csv rmand >rmand.csv 2>/dev/null
got=$(for f in MPI_Put MPI_Get MPI_Accumulate; do
  awk -F, -v f="\"$f\"" '$1 == "mpi_callsite" && $3 == f {
      c += $6; m += $10; b += $11; r += $14; rb += $15 }
    END { printf "%d %d %d %d %d;", c, m, b, r, rb }' rmand.csv
done)
# rank 1 puts to COMM_WORLD rank 2, rank 0 of the reversed window
t1=$("$PT" dump --style dumpi --locations 1 rmand 2>/dev/null |
  awk '/^MPI_Put entering/ { p = 1 } p && /targetrank=/ { print; exit }')
if [ "$got" = "3 3 36 0 0;3 0 0 3 120;3 3 96 0 0;" ] &&
   [ "$t1" = "int targetrank=0" ]; then
  t_pass "DUMPI: one-sided arguments synthesised from the RMA events"
else
  t_fail "DUMPI: one-sided arguments synthesised from the RMA events" "$got $t1"
fi

# OTF2: RmaPut / RmaGet / RmaAtomic records on RmaWin definitions made
# for the recorder's windows (remote: the target's rank in the window's
# communicator), read back with the same targets and bytes
if command -v otf2-print >/dev/null 2>&1; then
  rm -rf rmao.otf2 rmao.def rmao
  ok "to OTF2" "$PT" -q convert rma.ptf -o rmao.otf2
  otf2-print rmao.otf2 >rmao.print 2>rmao.err
  n=$(grep -c '^RMA_\(PUT\|GET\|ATOMIC\) ' rmao.print)
  nw=$(otf2-print -G rmao.otf2 2>/dev/null | grep -c '^RMA_WIN ')
  # rank 0 gets from COMM_WORLD rank 2, rank 0 of the reversed window
  if [ ! -s rmao.err ] && [ "$n" = 33 ] && [ "$nw" = 2 ] &&
     grep -q '^RMA_GET  *0  .*Window: "window 2" <[0-9]*>, Remote: 0 ("rank 2" <2>), Bytes: 40,' rmao.print; then
    t_pass "OTF2: the one-sided records and their windows"
  else
    t_fail "OTF2: the one-sided records and their windows" \
      "n=$n windows=$nw $(head -c 200 rmao.err) $(grep '^RMA_GET  *0 ' rmao.print | head -2)"
  fi
  rmaev() {
    "$PT" dump "$1" 2>/dev/null | awk '$1 == "event" && $4 ~ /^rma_/ {
        s = $3 " " $4
        for (i = 5; i <= NF; i++)
          if ($i ~ /^(target|bytes|sent|received|type)=/) s = s " " $i
        print s }' | sort
  }
  rmaev rma.ptf >ev1.txt
  rmaev rmao.otf2 >ev2.txt
  "$PT" stats --csv rmao.otf2 2>/dev/null | grep '^message,' >mo2.txt
  grep '^message,' rma.csv >mo1.txt
  if [ -s ev1.txt ] && cmp -s ev1.txt ev2.txt && cmp -s mo1.txt mo2.txt; then
    t_pass "OTF2: read back with the same targets, bytes and matrix"
  else
    t_fail "OTF2: read back with the same targets, bytes and matrix" \
      "$(diff ev1.txt ev2.txt | head -4) $(diff mo1.txt mo2.txt | head -4)"
  fi
fi

# the timeline draws a line for each direction an operation moved bytes
# in (7 sent and 7 received per rank, as the Locations table says)
# (its summary line goes to stderr)
if "$PT" timeline rma.ptf -o rma.html 2>rma.tl && grep -q ' 42 messages' rma.tl
then t_pass "timeline: one-sided lines"
else t_fail "timeline: one-sided lines" "$(cat rma.tl)"; fi
# ... and the page draws them (zero-length in time: vertical lines)
CH=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CH" ]; then
  v=$(timeout 120 "$CH" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d)" --dump-dom "file://$PWD/rma.html#selftest" \
    2>/dev/null | sed -n 's/.*<pre id="selftest">\([^<]*\)<.*/\1/p')
  case $v in
    *'"messages":42,'*'"errors":[]'*) t_pass "timeline page: 42 one-sided lines drawn" ;;
    *) t_fail "timeline page: 42 one-sided lines drawn" "$v" ;;
  esac
fi

# profile mode: each one-sided call is a communication statement with
# its bytes (sent and received) and its targets as destinations
rm -rf rmap.ptf
ok "profile run" $RUN -np 3 -x PARATRACE_MODE=profile -x LD_PRELOAD="$SO" \
  -x PARATRACE_OUTPUT="$PWD/rmap.ptf" ./rma
"$PT" profile --csv rmap.ptf 2>/dev/null >rmap.csv
got=$(awk -F, '$2 == "statement" { s = $3; b[s] += $8; next }
    $2 == "destination" && s == "MPI_Put" { d = d " " $4; next }
    $2 == "destination" { next }
    { s = "" }
    END { printf "%d %d %d %d %d%s\n", b["MPI_Put"], b["MPI_Get"],
          b["MPI_Compare_and_swap"], b["MPI_Fetch_and_op"],
          b["MPI_Rget_accumulate"], d }' rmap.csv)
case $got in
  "36 120 72 72 48 "[0-2]" "[0-2]" "[0-2])
    t_pass "profile: one-sided statements with bytes and targets" ;;
  *) t_fail "profile: one-sided statements with bytes and targets" "$got" ;;
esac

# the printed forms name it
if "$PT" dump --style dumpi rma.ptf 2>/dev/null | grep -q 'op=100 (user-defined-op)'; then
  t_pass "dump --style dumpi: the user op is 100"
else
  t_fail "dump --style dumpi: the user op is 100" ""
fi
t_done
