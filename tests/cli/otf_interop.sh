#!/bin/sh
# OTF files we write read with the real OTF library (1.12.5, otfprint).
# Its KeyValue lists hold no empty byte arrays (appending one of length 0
# appends nothing) and its reader stops with "An error occurred while
# reading events" at a byte-array line without hex digits ("K..YbVL0"):
# an empty INTS or STRING attribute is left out.  Byte layout only; the
# test needs no OTF library.
. "$(dirname "$0")/common.inc"
cat >e.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 paradigm=3 name="MPI_Recv"
def attribute id=1 type=5 name="status"
def attribute id=2 type=5 name="requests"
def attribute id=3 type=4 name="note"
event 100 0 enter region=1 {1=ia:[] 2=ia:[2,3] 3=s:""}
event 110 0 leave region=1
TXT
ok "convert" "$PT" -q convert e.txt -o e.otf
if grep -q 'VL0$' e.*.events; then
  t_fail "no empty byte arrays" "$(grep 'VL0$' e.*.events)"
else t_pass "no empty byte arrays"; fi
# the model's integer arrays: 8 bytes little-endian per element, the
# attribute's description marked (one byte each lost values above 255)
grep -q 'YbV02000000000000000300000000000000L10$' e.*.events &&
  grep -q 'NM"requests"T"paratrace:int64le"' e.0.def &&
  t_pass "non-empty array kept" ||
  t_fail "non-empty array kept" "$(cat e.*.events)"
"$PT" -q dump e.otf >e.dump 2>e.err && grep -q 'enter' e.dump &&
  t_pass "reads back" || t_fail "reads back" "$(cat e.err)"
# arrays longer than the library's 100 bytes per line are split as it
# splits them (same key, L = bytes left) and read back whole; values
# above 255 and negative ones survive PTF -> OTF -> PTF
vals=$(awk 'BEGIN {for (i = 0; i < 40; i++) printf "%s%d", i ? "," : "", i * 1000 - 7; }')
cat >big.txt <<TXT
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 paradigm=3 name="MPI_Alltoallv"
def attribute id=1 type=5 name="sendcounts" description="per rank"
def attribute id=2 type=4 name="comment"
event 100 0 enter region=1 {1=ia:[$vals] 2=s:"$(printf '%0150d' 7)"}
event 110 0 leave region=1
TXT
ok "convert big" "$PT" -q convert big.txt -o big.otf
n=$(grep -c '^K1YbV' big.*.events)
[ "$n" = 4 ] && grep -q '^K1YbV.*L140$' big.*.events && grep -q '^K1YbV.*L14$' big.*.events &&
  t_pass "long array split in 100-byte lines" ||
  t_fail "long array split in 100-byte lines" "$n lines: $(grep '^K1' big.*.events | cut -c1-20)"
"$PT" -q dump big.txt | grep '^event 100' >big.want
"$PT" -q dump big.otf 2>big.err | grep '^event 100' >big.got
want_vals=$(sed 's/.*1=ia:\[\([^]]*\)\].*/\1/' big.want)
got_vals=$(sed 's/.*1=ia:\[\([^]]*\)\].*/\1/' big.got)
[ -n "$want_vals" ] && [ "$want_vals" = "$got_vals" ] &&
  t_pass "integer array round trip" ||
  t_fail "integer array round trip" "want $want_vals got $got_vals $(cat big.err)"
"$PT" -q dump big.otf | grep -q 'def attribute id=1 .*description="per rank"' &&
  t_pass "marker not in the description" ||
  t_fail "marker not in the description" "$("$PT" -q dump big.otf | grep 'attribute id=1')"
if command -v otfprint >/dev/null 2>&1; then
  otfprint big.otf >big.print 2>&1 && ! grep -qi error big.print &&
    t_pass "otfprint reads the long arrays" ||
    t_fail "otfprint reads the long arrays" "$(grep -i error big.print | head -3)"
fi
# damaged byte arrays: a piece after a skipped record must not continue
# an array into another attribute's slot (it wrote through an integer
# value taken as a pointer), a missing piece is a warning with the bytes
# read, and a huge L alone reserves nothing
cp big.0.def dmg.0.def
printf '1:1\n' >dmg.otf
aa=$(awk 'BEGIN {for (i = 0; i < 100; i++) printf "aa"}')
{
  printf '64\n*1\nK3YbV%sLc8\nM1\nK2Y7V414141414140\nK3YbV%sL64\nE1\n' "$aa" "$aa"
  i=0; while [ $i -lt 40 ]; do printf 'K3YbVaaLffffff\n'; i=$((i + 1)); done
  printf 'E1\n6e\n*1\nL1\n6e\nL1\n'
} >dmg.1.events
if nm -D "$PT" 2>/dev/null | grep -q __asan_init; then
  "$PT" dump dmg.otf >dmg.dump 2>dmg.err # AddressSanitizer needs its address space
else
  ( ulimit -v 1000000 2>/dev/null; "$PT" dump dmg.otf >dmg.dump 2>dmg.err )
fi
rc=$?
if [ $rc -eq 0 ] && grep -q 'dmg.1.events:.*cut short: 100 of 200 bytes' dmg.err &&
   grep -q 'cut short: 1 of 16777215 bytes' dmg.err && grep -q '2=i:71748523475264' dmg.dump; then
  t_pass "damaged byte arrays: warnings, no wild write, bounded memory"
else
  t_fail "damaged byte arrays" "exit $rc: $(head -c 300 dmg.err)"
fi
# a location without events: its stream file gets a time and a process
# line (an empty events file stops the OTF library's reader)
cat >quiet.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 name="work"
event 100 0 enter region=1
event 110 0 leave region=1
TXT
ok "convert quiet" "$PT" -q convert quiet.txt -o quiet.otf
empty=$(find . -name 'quiet.*.events' -size 0 | wc -l)
n=$("$PT" -q dump quiet.otf | grep -c '^event')
[ "$empty" = 0 ] && [ "$n" = 2 ] && t_pass "no empty events file, events unchanged" ||
  t_fail "no empty events file, events unchanged" "$empty empty files, $n events"
if command -v otfprint >/dev/null 2>&1; then
  otfprint quiet.otf >quiet.print 2>&1 && ! grep -qi error quiet.print &&
    t_pass "otfprint reads a trace with a quiet location" ||
    t_fail "otfprint reads a trace with a quiet location" "$(grep -i error quiet.print | head -3)"
fi
# Counter value types: a signed metric is declared SIGNED8 (properties
# bit 5), a double one DOUBLE (288) as OTF 1.x defines them, and their
# samples are the two's complement and the IEEE bits (were: INT declared
# 0x10 = UNSIGNED4 to the library, DOUBLE 0x30 = SIGNED4, a double sample
# truncated to an integer); they read back with their types and values
cat >cnt.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def metric id=1 scope=none type=2 mode=1 name="cycles" unit="#"
def metric id=2 scope=none type=1 name="temp" unit="C"
def metric id=3 scope=none type=3 name="ratio" unit=""
event 100 0 metric metric=1 value=u:18446744073709551615
event 100 0 metric metric=2 value=i:-40
event 100 0 metric metric=3 value=d:0.75
event 110 0 metric metric=3 value=d:-1e+300
event 120 0 metric metric=2 value=i:-9223372036854775808
event 130 0 metric metric=3 value=d:0.1
TXT
ok "convert counters" "$PT" -q convert cnt.txt -o cnt.otf
grep -q '^DCNT1.*NM"cycles"P0U' cnt.0.def && grep -q '^DCNT2.*NM"temp"P21U' cnt.0.def &&
  grep -q '^DCNT3.*NM"ratio"P121U' cnt.0.def &&
  grep -q '^CNT2Vffffffffffffffd8$' cnt.*.events && grep -q '^CNT3V3fe8000000000000$' cnt.*.events &&
  t_pass "counter types declared and written as OTF defines them" ||
  t_fail "counter types declared and written as OTF defines them" "$(grep DCNT cnt.0.def; grep CNT cnt.*.events)"
# (location 0 becomes process token 1)
strip_loc() { grep -e '^def metric' -e '^event' | sed 's/^\(event [0-9]*\) [0-9]* /\1 /'; }
"$PT" -q dump cnt.txt | strip_loc >cnt.want
"$PT" -q dump cnt.otf 2>cnt.err | strip_loc >cnt.got
cmp -s cnt.want cnt.got && t_pass "counter types and values read back" ||
  t_fail "counter types and values read back" "$(diff cnt.want cnt.got | head -6) $(head -c 200 cnt.err)"
# every PTF location gets its own OTF stream, numbered like its process
# token (location + 1; OTF stream 0 is the global definitions): PTF
# numbers its streams from 0, and location 0 went into location 1's stream
# (master "1:1,2", 7 streams for 8 locations)
if "$PT" -q generate -o st8.ptf --locations 8 --events 100 --seed 1 2>st8.err &&
   "$PT" -q convert st8.ptf -o st8.otf 2>>st8.err; then
  want=$(printf '%s\n' 1:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8)
  got=$(LC_ALL=C sort -t: -k1,1n st8.otf)
  nev=$(ls st8.*.events 2>/dev/null | wc -l)
  [ "$got" = "$want" ] && [ "$nev" -eq 8 ] &&
    t_pass "one OTF stream per PTF location" ||
    t_fail "one OTF stream per PTF location" "master: $(tr '\n' ' ' <st8.otf); $nev event files"
  "$PT" -q dump st8.ptf | strip_loc >st8.want
  "$PT" -q dump st8.otf 2>st8.err | strip_loc >st8.got
  [ "$(grep -c '^event' st8.want)" -eq "$(grep -c '^event' st8.got)" ] &&
    [ "$(grep -c '^event' st8.got)" -eq 800 ] &&
    t_pass "8 locations through OTF: all events read back" ||
    t_fail "8 locations through OTF: all events read back" "$(head -c 200 st8.err)"
else
  t_fail "one OTF stream per PTF location" "$(head -c 300 st8.err)"
fi
# Call sites through OTF 1.x: a source location is a file token and a line,
# and the writer gave a call site of another source file 0 (no DEFSCLFILE
# for its file): read back, `stats` named them "callsite N".  Now each
# file gets its DEFSCLFILE; a recorded address (module path,
# "module+0xoffset", no line) keeps "path+0xoffset" as its file, which
# `stats` resolves as it does the recorder's own.
cat >cs.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 role=6 paradigm=3 name="MPI_Send"
def attribute id=2 type=2 name="callsite"
def attribute id=3 type=4 name="filename" description="file opened"
def callsite id=7 line=12 file="halo.c"
def callsite id=8 name="true+0x10" file="/bin/true"
event 100 0 enter region=1 {2=u:7 3=s:"io.dat"}
event 110 0 leave region=1
event 120 0 enter region=1 {2=u:8}
event 130 0 leave region=1
TXT
ok cs_otf "$PT" -q convert cs.txt -o cs.otf &&
  ok cs_back "$PT" -q convert cs.otf -o cs.ptf &&
  { "$PT" stats cs.txt | sed -n '/^MPI call sites/,/^$/p' >cs.a
    "$PT" stats cs.ptf | sed -n '/^MPI call sites/,/^$/p' >cs.b
    grep -q 'halo.c:12' cs.a && cmp -s cs.a cs.b && t_pass otf_callsites ||
      t_fail otf_callsites "$(diff cs.a cs.b)"; }
grep -q '^DSF1NM"halo.c"$' cs.0.def && grep -q '^DS7F1LNc$' cs.0.def &&
  grep -q '^DSF2NM"/bin/true+0x10"$' cs.0.def && grep -q '^DS8F2LN0$' cs.0.def &&
  t_pass otf_callsite_files || t_fail otf_callsite_files "$(grep '^DS' cs.0.def)"
# A string attribute (the recorder's file names, argv...) is an OTF byte
# array: marked in its definition, it reads back as the string (it came
# back as an array of bytes, [105,111,...])
grep -q '^DK3YbNM"filename"T"paratrace:string file opened"$' cs.0.def &&
  "$PT" dump cs.ptf | grep -q '^def attribute id=3 type=4 name="filename" description="file opened"$' &&
  "$PT" dump cs.ptf | grep -q ' enter region=1 {2=u:7 3=s:"io.dat"}$' &&
  t_pass otf_string_attribute ||
  t_fail otf_string_attribute "$(grep '^DK3' cs.0.def; "$PT" dump cs.ptf | grep -e 'id=3' -e ' enter ')"
# VampirTrace writes every Leave as "L" (function 0: "unknown, stack
# integrity not checked"), e.g. a WRF trace of VampirTrace 5.4: it is the
# leave of the innermost open region of that process (every leave came out
# as a leave of region 0: half a million leave_mismatch + unclosed_region
# in check, MPI calls "nested deeper than 8" for dumpi, a slice re-entering
# thousands of regions).  A leave with nothing open stays region 0's and
# check reports it.  Two processes interleaved in one stream.
printf '1:1,2\n' >vt.otf
printf 'DTRf4240\nDP1NM"Process 0"\nDP2NM"Process 1"\nDFG1NM"MPI"\nDFG2NM"Application"\nDF5G2NM"main"\nDF6G2NM"solve"\nDF7G1NM"MPI_Barrier"\n' >vt.0.def
printf '64\n*1\nE5\n65\n*2\nE5\n6e\n*1\nE6\n6f\n*2\nE7\n78\n*1\nE7\n79\n*2\nL\n82\n*1\nL\n83\n*1\nL\n8c\n*2\nL\n8d\n*1\nL\n' >vt.1.events
"$PT" check vt.otf >vt.chk 2>&1 && grep -q 'OK: 10 events on 2 locations.*max call depth 3' vt.chk &&
  t_pass otf_leave_0_innermost || t_fail otf_leave_0_innermost "$(head -5 vt.chk)"
"$PT" -q dump vt.otf | grep ' leave ' | awk '{print $3, $5}' | tr '\n' ' ' >vt.lv
want='2 region=7 1 region=7 1 region=6 2 region=5 1 region=5 '
[ "$(cat vt.lv)" = "$want" ] && t_pass otf_leave_0_regions ||
  t_fail otf_leave_0_regions "got '$(cat vt.lv)', want '$want'"
# the leave of a process with nothing open: left as region 0's, reported
printf '64\n*1\nL\n6e\n*1\nE5\n78\n*1\nL\n' >vt0.1.events
printf '1:1\n' >vt0.otf; cp vt.0.def vt0.0.def
"$PT" check vt0.otf >vt0.chk 2>&1
grep -q 'leave_without_enter: location 1, t=100: leave of region 0 ' vt0.chk &&
  ! grep -q "leave_mismatch\|unclosed_region" vt0.chk && t_pass otf_leave_0_nothing_open ||
  t_fail otf_leave_0_nothing_open "$(cat vt0.chk)"
t_done
