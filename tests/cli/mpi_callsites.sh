#!/bin/sh
# Call sites of the MPI recorder: one call instruction calling several MPI
# functions through a pointer (tests/mpi/fnptr.c, shaped like IMB-IO's
# MPI_File_* calls) gives one call site per function; every call-site
# definition has one callee, the region of the calls that carry it, and
# OTF2 output has no conflicting definitions.  Many call sites in turn
# (tests/mpi/manysites.c: 644 per rank, as a large program has them) are
# each defined once: the recorder kept them in a direct-mapped cache of
# 256 slots, and sites sharing a slot were looked up (dladdr) and defined
# again at each call (pw.x with ScaLAPACK: 4,671 CALLSITE definitions for
# 195 call sites).  And call-site chains (PARATRACE_CALLSITES=N), below.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
if ! command -v mpicc >/dev/null 2>&1 || [ ! -f "$B/lib/libparatrace-mpi.so" ]; then
  t_fail "setup" "mpicc or $B/lib/libparatrace-mpi.so missing"; t_done
fi
RUN="mpirun --allow-run-as-root --oversubscribe"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ok "build" mpicc -std=c11 -g -O1 -o fnptr "$SRC/tests/mpi/fnptr.c"
ok "record" $RUN -np 2 "$PT" record -o fp.ptf -- ./fnptr 10 >run.out
ok "text" "$PT" -q convert fp.ptf -o fp.txt
cat >cs.awk <<'AWK'
/^def[@0-9]* attribute / && /name="callsite"/ {
  match($0, /id=[0-9]+/); key = substr($0, RSTART + 3, RLENGTH - 3)
}
/^def[@0-9]* callsite / {
  match($0, /id=[0-9]+/); id = substr($0, RSTART + 3, RLENGTH - 3)
  match($0, /callee=[0-9]+/); ce = substr($0, RSTART + 7, RLENGTH - 7)
  if ((id in callee) && callee[id] != ce) bad++
  callee[id] = ce
}
/^event .* enter / && key != "" {
  match($0, /region=[0-9]+/); r = substr($0, RSTART + 7, RLENGTH - 7)
  if (match($0, " " key "=u:[0-9]+")) {
    c = substr($0, RSTART + length(key) + 4, RLENGTH - length(key) - 4)
    if (callee[c] != r) wrong++
    n++
  }
}
END {
  print n + 0, wrong + 0, bad + 0
}
AWK
set -- $(awk -f cs.awk fp.txt)
if [ "${1:-0}" -gt 0 ] && [ "$2" = 0 ] && [ "$3" = 0 ]; then
  t_pass "call sites: one callee each ($1 calls)"
else
  t_fail "call sites" "$1 calls with a call site, $2 whose site names another callee, $3 conflicting definitions"
fi
"$PT" stats fp.ptf >st.out 2>st.err
for f in MPI_Comm_rank MPI_Comm_size; do
  got=$(awk -v f=$f '/^MPI call sites/ { on = 1; next } /^$/ { on = 0 }
                    on && $1 == f && $2 == "call_through" { print $4 }' st.out)
  if [ "$got" = 20 ]; then t_pass "stats: $f through the pointer, 20 calls"
  else t_fail "stats: $f through the pointer" "got '${got:-no row}' calls"; fi
done
"$PT" convert fp.ptf -o fp.otf2 2>otf2.err; rc=$?
if [ $rc = 0 ] && ! grep -q 'reuse the id' otf2.err; then t_pass "otf2: no conflicting definitions"
else t_fail "otf2" "exit $rc: $(head -c 300 otf2.err)"; fi

ok "build manysites" mpicc -std=c11 -g -O1 -o manysites "$SRC/tests/mpi/manysites.c"
ok "record manysites" $RUN -np 2 "$PT" record -o ms.ptf -- ./manysites 3 >ms.out
"$PT" dump ms.ptf >ms.txt 2>ms.err
# per rank: CALLSITE definitions, distinct ones, calls carrying a site
for loc in 0 1; do
  if [ "$loc" = 0 ]; then pat='^def callsite '; else pat="^def@$loc callsite "; fi
  defs=$(grep -c "$pat" ms.txt)
  ids=$(grep "$pat" ms.txt | sed 's/.* id=\([0-9]*\).*/\1/' | sort -u | wc -l)
  if [ "$defs" = 644 ] && [ "$ids" = 644 ]; then
    t_pass "many call sites: each defined once (rank $loc: $defs)"
  else
    t_fail "many call sites: each defined once (rank $loc)" \
      "$defs definitions of $ids call sites, want 644 (640 + 4)"
  fi
done
got=$("$PT" stats ms.ptf | awk '/^MPI call sites/ { on = 1; next } /^$/ { on = 0 }
                                on && $1 == "MPI_Comm_rank" && $2 == "many" { n++; c += $4 }
                                END { print n + 0, c + 0 }')
if [ "$got" = "640 3840" ]; then t_pass "many call sites: 640 rows in stats, 3 calls each per rank"
else t_fail "many call sites: stats rows" "rows and calls: $got, want 640 3840"; fi

# Call-site chains (PARATRACE_CALLSITES=N, record --callsites N, as mpiP's
# -k): tests/mpi/wrapped.c makes every MPI_Sendrecv_replace in one wrapper
# called from two procedures; one level gives one row, two levels a row
# per caller, three levels the caller's caller too.
ok "build wrapped" mpicc -std=c11 -g -O1 -o wrapped "$SRC/tests/mpi/wrapped.c"
line() { grep -n "/\* $1 \*/" "$SRC/tests/mpi/wrapped.c" | cut -d: -f1; }
LW=$(line WRAPPER) LA=$(line PHASE_A) LB=$(line PHASE_B)
MA=$(grep -n 'phase_a(&buf' "$SRC/tests/mpi/wrapped.c" | cut -d: -f1)
# rows DEPTH: "calls<TAB>site" of MPI_Sendrecv_replace, sorted
rows() {
  "$PT" stats --csv w$1.ptf |
    awk -F'"' '$1 ~ /^mpi_callsite,/ && $2 == "MPI_Sendrecv_replace" {
                 split($5, f, ","); print f[2] "\t" $4 }' | sort
}
for d in 1 2 3; do
  rm -rf w$d.ptf
  ok "record --callsites $d" $RUN -np 2 "$PT" record --callsites $d -o w$d.ptf -- ./wrapped 10
done
want1=$(printf '30\texchange wrapped.c:%s' "$LW")
if [ "$(rows 1)" = "$want1" ]; then t_pass "call sites, one level: the wrapper's statement"
else t_fail "call sites, one level" "got '$(rows 1)', want '$want1'"; fi
want2=$(printf '10\texchange wrapped.c:%s < phase_b wrapped.c:%s\n20\texchange wrapped.c:%s < phase_a wrapped.c:%s' "$LW" "$LB" "$LW" "$LA")
if [ "$(rows 2)" = "$want2" ]; then t_pass "call sites, two levels: a row per caller of the wrapper"
else t_fail "call sites, two levels" "got '$(rows 2)', want '$want2'"; fi
got3=$(rows 3 | grep -c "< phase_a wrapped.c:$LA < main wrapped.c:$MA\$")
if [ "$got3" = 1 ]; then t_pass "call sites, three levels: main's statement too"
else t_fail "call sites, three levels" "$(rows 3)"; fi
# the text table: a chain whole when it fits in 100 columns
if "$PT" stats w3.ptf | grep -q "^MPI_Sendrecv_replace exchange wrapped.c:$LW < phase_a wrapped.c:$LA < main wrapped.c:$MA  "
then t_pass "stats text: a chain of three statements whole"
else t_fail "stats text: a chain of three statements" "$("$PT" stats w3.ptf | grep '^MPI_Sendrecv_replace')"; fi
# profile mode: the callers' statements are call-site nodes above the
# statement (a program without procedure probes)
rm -rf wp.ptf
ok "record --mode profile --callsites 2" $RUN -np 2 "$PT" record --mode profile --callsites 2 -o wp.ptf -- ./wrapped 10
"$PT" profile --csv wp.ptf >wp.csv 2>wp.err
if grep -q "^1,call site,,phase_a wrapped.c:$LA,20," wp.csv &&
   grep -q "^2,statement,MPI_Sendrecv_replace,exchange wrapped.c:$LW,20," wp.csv &&
   grep -q "^1,call site,,phase_b wrapped.c:$LB,10," wp.csv &&
   grep -q "^2,statement,MPI_Sendrecv_replace,exchange wrapped.c:$LW,10," wp.csv; then
  t_pass "profile mode: a call-site node per caller of the wrapper"
else t_fail "profile mode, call-site chains" "$(head -c 600 wp.csv) $(cat wp.err)"; fi
# without debug information addr2line may still name the file
# ("wrapped.c:?"): no line, so the site is named by its offset, which
# tells a function's sites apart
ok "build wrapped without -g" mpicc -std=c11 -O1 -o wrapped_nodbg "$SRC/tests/mpi/wrapped.c"
rm -rf wn.ptf
ok "record wrapped_nodbg" $RUN -np 2 "$PT" record -o wn.ptf -- ./wrapped_nodbg 2
got=$("$PT" stats --csv wn.ptf | awk -F'"' '$1 ~ /^mpi_callsite,/ && $2 == "MPI_Sendrecv_replace" { print $4 }')
case $got in
  "exchange (wrapped_nodbg+0x"*")") t_pass "no debug information: '$got'" ;;
  *) t_fail "no debug information" "call site named '$got'" ;;
esac
"$PT" convert w2.ptf -o w2.otf2 2>w2.err; rc=$?
if [ $rc = 0 ] && [ ! -s w2.err ]; then t_pass "call-site chains convert to OTF2"
else t_fail "call-site chains to OTF2" "exit $rc: $(head -c 300 w2.err)"; fi
# ... each call's "callsite" string the whole chain (it was the wrapper's
# statement alone: the 20 calls from phase_a and the 10 from phase_b one
# string)
if command -v otf2-print >/dev/null 2>&1; then
  got=$(otf2-print w2.otf2 2>/dev/null |
        grep -o '"callsite" <[0-9]*>; STRING; "[^"]*"' | sort | uniq -c |
        awk '($1 == 20 || $1 == 10) && / < / { n++ } END { print n + 0 }')
  if [ "$got" = 2 ]; then t_pass "OTF2: a call-site chain's string names its callers"
  else t_fail "OTF2 call-site chain strings" "$(otf2-print w2.otf2 2>&1 |
    grep -o '"callsite" <[0-9]*>; STRING; "[^"]*"' | sort | uniq -c | head -5)"; fi
fi
rm -rf wb.ptf
$RUN -np 2 -x PARATRACE_CALLSITES=9 -x PARATRACE_OUTPUT="$PWD/wb.ptf" -x LD_PRELOAD="$B/lib/libparatrace-mpi.so" ./wrapped 2 >wb.out 2>wb.err
if grep -q 'PARATRACE_CALLSITES=9: want 0' wb.err && [ "$(rows b | cut -f1)" = 6 ]; then
  t_pass "PARATRACE_CALLSITES=9: said, one level recorded"
else t_fail "PARATRACE_CALLSITES=9" "$(head -c 300 wb.err) / $(rows b)"; fi
t_done
