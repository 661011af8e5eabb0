#!/bin/sh
# OTF 1.x file operations through OTF2.  An OTF file operation names the
# file (DEFFILE token) and the reader puts that file in the I/O event's
# handle slot (OTF has no handle definitions).  The OTF2 writer numbers
# handles anew and wrote no handle definition for them, so read back
# `stats` charged the operations to the wrong files: the source-code files
# (DEFSCLFILE) that took the low file ids.  Found on VampirTrace 5.4's WRF
# trace (github.com/vasily-pashkov/otf-vis, otf_traces/wrf/wrf.otf, commit
# 3b218ce): wrfinput_d01's 11,523 reads were listed under "io_grib1.f".
# Now the OTF2 writer defines a handle of the file for each such id, and
# `stats` takes an OTF-style operation's file through its handle when the
# handle is defined.
. "$(dirname "$0")/common.inc"
command -v otf2-print >/dev/null || { echo "FAIL otf_io_otf2: otf2-print missing"; exit 1; }

printf '1:1\n' >t.otf
printf '%s\n' 'DV1.a.1"test"' DTRf4240 'DP1NM"Process 0"' 'DFG1NM"user"' \
  'DF1G1NM"main"' 'DSF1NM"main.c"' 'DSF2NM"io.c"' 'DFLG1NM"fileio"' \
  'DFL1NM"input.dat"G1' 'DFL2NM"output.dat"G1' >t.0.def
# a read of 1 KiB of input.dat (handle 1), a write of 2 KiB of output.dat
printf '%s\n' 64 '*1' E1 c8 '*1' F1H1OP2B400D32 12c '*1' F2H2OP3B800D32 \
  190 '*1' L1 >t.1.events

ok stats_otf "$PT" stats t.otf >s1.txt
ok to_otf2 "$PT" convert t.otf -o x.otf2
ok stats_otf2 "$PT" stats x.otf2 >s2.txt
for s in s1.txt s2.txt; do
  if grep -Eq '^input\.dat +read +1 +1\.0 KiB' $s &&
     grep -Eq '^output\.dat +write +1 +2\.0 KiB' $s &&
     ! grep -Eq '^(main|io)\.c ' $s; then
    t_pass "I/O per file in $s"
  else t_fail "I/O per file in $s" "$(grep -A4 '^file ' $s)"; fi
done
otf2-print x.otf2 >p.txt 2>&1
if grep -q 'IO_OPERATION_COMPLETE.*Handle: "input.dat"' p.txt &&
   grep -q 'IO_OPERATION_COMPLETE.*Handle: "output.dat"' p.txt; then
  t_pass "otf2-print names the handles"
else t_fail "otf2-print names the handles" "$(grep IO_OPERATION p.txt)"; fi
t_done
