#!/bin/sh
# OTF2 through the CLI: `paratrace convert` both ways on the test vectors
# (OTF2 -> PTF -> OTF2 and otf2-print of the result equal to otf2-print of
# the original up to definition ids), other formats to OTF2, info/dump on
# an archive, and bad archives failing cleanly.
. "$(dirname "$0")/common.inc"
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
[ -d "$TD/otf2" ] || { echo "PASS otf2_skipped_no_testdata"; t_done; }
command -v otf2-print >/dev/null 2>&1 ||
  { echo "PASS otf2_skipped_no_otf2_print"; t_done; }

# Normalise otf2-print output: drop " <id>" references (the name or value
# printed next to them stays), and for definitions (-G) the id column, then
# sort; events (and snapshots) stay in order.
norm_events() { sed -e 's/ <[0-9][0-9]*>//g'; }
norm_defs() {
  sed -e 's/ <[0-9][0-9]*>//g' -e 's/^\([A-Z_][A-Z_]*\)  *[0-9][0-9]*  /\1  /' |
    LC_ALL=C sort
}

for v in tiny mapped attributes metrics mpi mpi_extras; do
  in=$TD/otf2/$v/trace/traces.otf2
  ok "to_ptf_$v" "$PT" -q convert "$in" -o "$v.ptf" || continue
  ok "to_otf2_$v" "$PT" -q convert "$v.ptf" -o "$v.otf2" || continue
  [ -f "$v.def" ] && [ -d "$v" ] && t_pass "files_$v" ||
    t_fail "files_$v" "missing $v.def or $v/: $(ls)"
  otf2-print "$in" 2>/dev/null | norm_events >want.txt
  otf2-print "$v.otf2" 2>print.err >print.out; rc=$?
  norm_events <print.out >got.txt
  [ "$rc" -eq 0 ] && [ ! -s print.err ] && cmp -s want.txt got.txt &&
    t_pass "events_equal_$v" ||
    t_fail "events_equal_$v" "rc $rc $(head -c 200 print.err) $(diff want.txt got.txt | head -4)"
  otf2-print -G "$in" 2>/dev/null | norm_defs >want.txt
  otf2-print -G "$v.otf2" 2>print.err | norm_defs >got.txt
  [ ! -s print.err ] && cmp -s want.txt got.txt && t_pass "defs_equal_$v" ||
    t_fail "defs_equal_$v" "$(head -c 200 print.err) $(diff want.txt got.txt | head -4)"
done

# A region's source file: undefined (Score-P's artificial regions, and a
# region without file= here) stays OTF2_UNDEFINED_STRING, "" stays "", in
# the sink and through OTF2 -> PTF -> OTF2 (the test vectors have no
# undefined file, so defs_equal_* above could not see it come back as "").
cat >rfile.txt <<'EOF'
# paratrace text 1
def clock start=100 ticks_per_second=1000000000 length=100
def region id=1 role=1 paradigm=1 name="nofile"
def region id=2 role=1 paradigm=1 name="emptyfile" file=""
def region id=3 role=1 paradigm=1 begin_line=3 end_line=9 name="withfile" file="a.c"
def location_group id=0 type=1 rank=0 name="MPI Rank 0"
def location id=0 group=0 type=1
event 101 0 enter region=1
event 102 0 leave region=1
EOF
if ok region_file_to_otf2 "$PT" -q convert rfile.txt -o rfile.otf2; then
  otf2-print -G rfile.otf2 >rfile.G 2>&1
  grep -q '"nofile".*File: UNDEFINED,' rfile.G && grep -q '"emptyfile".*File: ""' rfile.G &&
    grep -q '"withfile".*File: "a.c".*Begin: 3, End: 9' rfile.G &&
    t_pass region_file_undefined_written ||
    t_fail region_file_undefined_written "$(grep REGION rfile.G)"
  if ok region_file_to_ptf "$PT" -q convert rfile.otf2 -o rfile.ptf &&
    ok region_file_back "$PT" -q convert rfile.ptf -o rfile2.otf2; then
    norm_defs <rfile.G >want.txt
    otf2-print -G rfile2.otf2 2>&1 | norm_defs >got.txt
    cmp -s want.txt got.txt && t_pass region_file_round_trip ||
      t_fail region_file_round_trip "$(diff want.txt got.txt | head -4)"
  fi
fi

# Bytes after a file's end-of-file record are never read by libotf2 (seen:
# a tool appended a newline to every file of an archive): the archive
# reads as without them.  A file that ends before its end-of-file record
# is still refused, naming it.
if [ -f mpi.def ]; then
  mkdir nl && cp -r mpi.otf2 mpi.def mpi nl/
  for f in nl/mpi.otf2 nl/mpi.def nl/mpi/*; do printf '\n' >>"$f"; done
  "$PT" dump mpi.otf2 >want.txt 2>&1
  ok appended_newline "$PT" dump nl/mpi.otf2 >got.txt &&
    { cmp -s want.txt got.txt && t_pass appended_newline_same ||
        t_fail appended_newline_same "$(diff want.txt got.txt | head -4)"; }
  cp -r nl nlt && truncate -s -3 nlt/mpi/1.evt && printf '\n' >>nlt/mpi/1.evt
  fails_cleanly truncated_then_newline 1 'nlt/mpi/1.evt: truncated' \
    "$PT" dump nlt/mpi.otf2
fi

# info and dump straight from an archive.
ok info_otf2 "$PT" -q info "$TD/otf2/mpi/trace/traces.otf2" >info.txt &&
  { grep -q '^format  *otf2' info.txt && grep -q '^events  *122' info.txt &&
      t_pass info_fields || t_fail info_fields "$(head -5 info.txt)"; }
ok dump_otf2 "$PT" dump "$TD/otf2/metrics/trace/traces.otf2" >dump.txt &&
  { [ "$(events dump.txt)" -eq 51 ] && t_pass dump_events ||
      t_fail dump_events "$(events dump.txt) events, want 51: 16 enter/leave + 16 two-member + 3 one-member metric samples"; }

# Other formats -> OTF2 that otf2-print reads cleanly.
i=0
for src in "$TD"/picl/pingpong.trf "$TD"/dumpi/b_ring_nonblocking/*.meta \
           "$TD"/otf/b_msgs_2streams/trace/trace_b.otf; do
  [ -f "$src" ] || continue
  i=$((i + 1))
  ok "other_$i" "$PT" -q convert "$src" -o "other$i.otf2" || continue
  otf2-print "other$i.otf2" >o.out 2>o.err; rc=$?
  [ "$rc" -eq 0 ] && [ ! -s o.err ] && ! grep -q INVALID o.out &&
    t_pass "other_print_$i" || t_fail "other_print_$i" "rc $rc $(head -c 200 o.err)"
done

# A location without events (an idle thread; here: one left out of the
# events by --locations) still gets its .evt file: otf2-print and the
# OTF2 reader open one for every location defined.
"$PT" -q generate -o idle.ptf --locations 3 --events 300
ok idle_convert "$PT" -q convert idle.ptf --locations 0,2 -o idle.otf2 &&
  { otf2-print idle.otf2 >o.out 2>o.err && [ ! -s o.err ] &&
      "$PT" info idle.otf2 >o.out 2>o.err &&
      grep -q '3 defined, 2 with events' o.out && t_pass idle_location_readable ||
      t_fail idle_location_readable "$(head -c 300 o.err)"; }

# MPI_COMM_SELF (a COMM_SELF group): rank 0 on it is the location's own
# rank, also after a trip through OTF2 (was read as world rank 0)
cat >self.txt <<'EOF'
# paratrace text 1
def clock start=100 ticks_per_second=1000000000 length=100
def region id=1 role=6 paradigm=3 name="MPI_Send" canonical="MPI_Send"
def region id=2 role=6 paradigm=3 name="MPI_Recv" canonical="MPI_Recv"
def location_group id=0 type=1 rank=0 name="MPI Rank 0"
def location_group id=1 type=1 rank=1 name="MPI Rank 1"
def location id=0 group=0 type=1
def location id=1 group=1 type=1
def group id=0 type=4 paradigm=3 members=[0,1]
def group id=1 type=5 paradigm=3 members=[0,1]
def group id=2 type=6 paradigm=3
def comm id=0 group=1 paradigm=3 name="MPI_COMM_WORLD"
def comm id=1 group=2 paradigm=3 name="MPI_COMM_SELF"
event 101 1 enter region=1
event 102 1 send peer=1 comm=1 tag=9 bytes=64
event 103 1 leave region=1
event 104 1 enter region=2
event 105 1 recv peer=1 comm=1 tag=9 bytes=64
event 106 1 leave region=2
EOF
# ... and on a thread location of that rank (Score-P's thread << 32 | rank)
sed -e 's/^def location id=1 group=1 type=1$/&\ndef location id=4294967297 group=1 type=1/' \
    -e 's/^event \([0-9]*\) 1 /event \1 4294967297 /' self.txt >selft.txt
ok selft_to_otf2 "$PT" -q convert selft.txt -o selft.otf2 &&
  "$PT" check selft.otf2 >selft.out 2>&1 && t_pass comm_self_thread_peer ||
  t_fail comm_self_thread_peer "$(cat selft.out)"
ok self_to_otf2 "$PT" -q convert self.txt -o self.otf2 &&
  "$PT" check self.otf2 >self.out 2>&1 && "$PT" stats self.otf2 >self.st 2>&1 &&
  grep -Eq '^ +1 +1 +1 +64 B' self.st && t_pass comm_self_peer ||
  t_fail comm_self_peer "$(cat self.out; sed -n '/^Messages/,$p' self.st)"

# A damaged anchor: the reason is given (libotf2's own message)
mkdir -p badanchor && cp tiny.otf2 badanchor/t.otf2 2>/dev/null
printf 'garbage' >badanchor/t.otf2
fails_cleanly otf2_bad_anchor_reason 1 'OTF2 anchor file (.*[a-z].*)' "$PT" info badanchor/t.otf2

# A key repeated in one event (DUMPI keeps MPI_Init's argv strings so):
# OTF2 allows a key once per attribute list, so the repeats get attributes
# "argv[1]", "argv[2]" of their own; libotf2 reports nothing, every value is
# in the archive.
src=$(ls "$TD"/dumpi/a_pingpong/*.meta | head -1)
if [ -f "$src" ]; then
  "$PT" dump "$src" | sed 's|16=s:"./a_pingpong"|16=s:"./a_pingpong" 16=s:"-n" 16=s:"five"|' >rep.txt
  if grep -q '16=s:"five"' rep.txt; then
    "$PT" -q convert rep.txt -o rep.otf2 2>rep.err && [ ! -s rep.err ] &&
      t_pass rep_to_otf2 || t_fail rep_to_otf2 "$(head -c 300 rep.err)"
    otf2-print rep.otf2 >o.out 2>o.err
    [ ! -s o.err ] && grep -q '"argv\[2\]".*"five"\|"five".*argv\[2\]' o.out && grep -q '"-n"' o.out &&
      t_pass rep_values_kept || t_fail rep_values_kept "$(head -c 300 o.err; grep -m1 five o.out)"
  else
    t_fail rep_setup "the MPI_Init event of $src has changed"
  fi
fi

# No clobbering: converting again onto an existing archive fails; --force
# replaces all three parts (the NAME/ directory too).
fails_cleanly otf2_exists 1 "already exists" "$PT" convert tiny.ptf -o tiny.otf2
ok otf2_force "$PT" -q convert --force mpi.ptf -o tiny.otf2 &&
  { otf2-print tiny.otf2 2>/dev/null | norm_events >got.txt
    otf2-print mpi.otf2 2>/dev/null | norm_events >want.txt
    cmp -s want.txt got.txt && [ -f tiny/3.evt ] &&
      ! ls -d tiny.*old* >/dev/null 2>&1 && t_pass otf2_force_replaced ||
      t_fail otf2_force_replaced "$(ls)"; }
# NAME.otf2 also writes NAME.def and NAME/: when one of them exists, the
# conversion is refused before it starts, and nothing is left behind
# (`convert eig.ptf -o eig.otf2` next to the program ./eig converted the
# whole trace, then failed with "./eig: already exists", leaving it in
# eig.otf2.tmp-PID); a program there is not replaced even with --force,
# so the message does not suggest it
printf 'a program\n' >prog
fails_cleanly otf2_name_is_a_file 1 "prog, where the trace's event files go, is not a directory; not replaced" \
  "$PT" convert tiny.ptf -o prog.otf2
[ "$(cat prog)" = "a program" ] && ! ls -d prog.otf2* >/dev/null 2>&1 &&
  ! grep -q 'use --force' otf2_name_is_a_file.err &&
  t_pass "otf2_name_is_a_file: nothing written, no --force advice" ||
  t_fail "otf2_name_is_a_file: nothing written, no --force advice" "$(ls -d prog*; cat otf2_name_is_a_file.err)"
rm tiny.otf2
fails_cleanly otf2_parts_exist 1 "tiny already exists (not overwritten" \
  "$PT" convert tiny.ptf -o tiny.otf2
! ls -d tiny.otf2* >/dev/null 2>&1 && t_pass "otf2_parts_exist: nothing written" ||
  t_fail "otf2_parts_exist: nothing written" "$(ls -d tiny.otf2*)"
ok otf2_parts_force "$PT" -q convert --force mpi.ptf -o tiny.otf2
# NAME.def a directory (or a special file): refused before the conversion
# too, with or without --force (the check looked at NAME/ only: without
# --force the message advised --force, and --force converted the whole
# trace, then failed with the output left in NAME.otf2.tmp-PID)
mkdir dd.def && printf 'keep\n' >dd.def/keep
for f in "" --force; do
  fails_cleanly "otf2_def_is_a_dir$f" 1 "dd.def, where the trace's definitions go, is a directory; not replaced" \
    "$PT" convert $f tiny.ptf -o dd.otf2
  [ "$(cat dd.def/keep)" = keep ] && ! ls -d dd.otf2* >/dev/null 2>&1 &&
    ! grep -q 'use --force' "otf2_def_is_a_dir$f.err" &&
    t_pass "otf2_def_is_a_dir$f: nothing written, no --force advice" ||
    t_fail "otf2_def_is_a_dir$f: nothing written, no --force advice" "$(ls -d dd*; cat "otf2_def_is_a_dir$f.err")"
done

# Bad archives: one clean error line naming the file, never a crash
# (libotf2 may print its own "[OTF2] ..." lines first; they are dropped).
bad() {
  name=$1 pat=$2
  shift 2
  "$PT" dump "$@" >bad.out 2>bad.all; rc=$?
  grep -v '^\[OTF2\]' bad.all >bad.err
  if crashed bad.all "$rc"; then t_fail "$name" "crashed: $(head -c 300 bad.all)"
  elif [ "$rc" -ne 1 ] || [ "$(wc -l <bad.err)" -ne 1 ]; then
    t_fail "$name" "exit $rc: $(head -c 300 bad.err)"
  elif ! grep -q -e "$pat" bad.err; then t_fail "$name" "$(head -c 300 bad.err)"
  else t_pass "$name"; fi
}
head -c 3000 /dev/urandom >garbage.otf2 2>/dev/null
bad bad_garbage "garbage.otf2" garbage.otf2
cp -r "$TD/otf2/mpi/trace" t1 && chmod -R u+w t1 && truncate -s 150 t1/traces/2.evt
bad bad_truncated_evt "t1/traces/2.evt" t1/traces.otf2
cp -r "$TD/otf2/mpi/trace" t2 && chmod -R u+w t2 && rm t2/traces.def
bad bad_missing_def "t2/traces.def" t2/traces.otf2
cp -r "$TD/otf2/mpi/trace" t3 && chmod -R u+w t3 && truncate -s 30 t3/traces.otf2
bad bad_truncated_anchor "t3/traces.otf2" t3/traces.otf2
bad bad_missing "nothere.otf2" nothere.otf2
# Regions events name without a definition are defined in id order (were
# in hash order: "out of order Region definition")
cat >ur.txt <<'TXT'
# paratrace text 1
def clock start=0 ticks_per_second=1000000000 length=100
def location_group id=0 type=1 rank=0 name="MPI Rank 0"
def location id=0 group=0 type=1
def region id=1 name="main"
event 10 0 enter region=1
event 11 0 enter region=2
event 12 0 enter region=3
event 13 0 enter region=4
event 14 0 enter region=5
event 15 0 leave region=5
event 16 0 leave region=4
event 17 0 leave region=3
event 18 0 leave region=2
event 19 0 leave region=1
TXT
ok ur_to_otf2 "$PT" -q convert ur.txt -o ur.otf2 && {
  otf2-print -G ur.otf2 >ur.out 2>&1
  [ "$(grep -c '^REGION ' ur.out)" = 5 ] && ! grep -q 'out of order' ur.out &&
    t_pass otf2_undefined_regions_in_order ||
    t_fail otf2_undefined_regions_in_order "$(grep -e 'out of order' -e '^REGION' ur.out | head -5)"
}
# A damaged record (two bytes 0xff: an invalid size byte of a compressed
# integer, which libotf2 only notices decoding it): the error names the
# location's file, the record's number and offset, and the last good
# event.  The offsets are into files this test wrote above (mpi.otf2):
# 150 is inside location 1's 10th event, 136 inside the 12th definition.
if [ -f mpi/1.evt ] && [ -f mpi.def ]; then
  mkdir c1 c2 && cp -r mpi.otf2 mpi.def mpi c1/ && cp -r mpi.otf2 mpi.def mpi c2/
  printf '\377\377' | dd of=c1/mpi/1.evt bs=1 seek=150 conv=notrunc 2>/dev/null
  bad bad_event_where 'events of location 1 (c1/mpi/1.evt: event 10 at offset 137; the last good one at time [0-9]*) failed: INVALID_DATA' c1/mpi.otf2
  printf '\377\377' | dd of=c2/mpi.def bs=1 seek=136 conv=notrunc 2>/dev/null
  bad bad_def_where 'global definitions (c2/mpi.def: definition 12 at offset 131) failed: INVALID_DATA' c2/mpi.otf2
  # a length byte made 0xff: the record runs past its chunk, found before
  # libotf2 reads the file
  cp -r c1 c3 && cp mpi/1.evt c3/mpi/1.evt
  printf '\377\377' | dd of=c3/mpi/1.evt bs=1 seek=250 conv=notrunc 2>/dev/null
  bad bad_record_length 'c3/mpi/1.evt: damaged OTF2 file at offset 250 (a record runs past the end of its chunk)' c3/mpi.otf2
fi
# a clock without a start (the MPI recorder's CLOCK_MONOTONIC ticks): the
# clock properties give the observed span, as Score-P writes them (a
# recorded LAMMPS run was written with global offset 2^64 - 1, length 0)
cat >nostart.txt <<'TXT'
# paratrace text 1
def clock start=none ticks_per_second=1000000000
def location_group id=0 rank=0
def location id=0 group=0
def region id=1 name="main"
event 5000 0 enter region=1
event 7500 0 leave region=1
TXT
ok otf2_nostart_convert "$PT" -q convert nostart.txt -o nostart.otf2
got=$(otf2-print -G nostart.otf2 2>&1 | grep '^CLOCK_PROPERTIES')
case $got in
  *"Global Offset: 5000, Length: 2500,"*) t_pass otf2_clock_without_start ;;
  *) t_fail otf2_clock_without_start "$got" ;;
esac
# an archive with summaries (and so snapshots) converts with a warning
# that says where those entries come from (it said "snapshot entries
# outside an OTF2 snapshot or without an OTF2 snapshot record")
ok otf2_summarized_convert "$PT" -q convert nostart.txt -o nostart.ptf
ok otf2_summarized "$PT" -q summarize --every 1000 nostart.ptf
"$PT" convert nostart.ptf -o nostart2.otf2 2>summ.err
if grep -q 'snapshot entries not written (.*paratrace snapshot or summarize.*); the events are all written$' summ.err; then
  t_pass otf2_snapshot_warning_says_why
else t_fail otf2_snapshot_warning_says_why "$(cat summ.err)"; fi
# a write that fails (a full disk; here the file size limit, EFBIG with
# SIGXFSZ ignored) fails cleanly, names the output and the reason, and
# leaves nothing behind: in the middle of the conversion (a location's
# events outgrow libotf2's buffers and are flushed) and when the files are
# closed (everything still buffered).  libotf2 crashed on both (it writes a
# buffer it freed after the failed write).
"$PT" -q generate -o fbig.ptf --locations 1 --events 200000 --seed 1 &&
  "$PT" -q generate -o fsmall.ptf --locations 4 --events 2000 --seed 1 ||
  t_fail otf2_write_fails "generate failed"
for f in fbig fsmall; do
  if (ulimit -f 40) 2>/dev/null; then
    fails_cleanly otf2_write_fails_$f 1 \
      "paratrace convert: ${f}_out.otf2: libotf2: .* failed: .*File \(is \)\{0,1\}too large" \
      sh -c 'trap "" XFSZ; ulimit -f 40 && exec "$0" convert "$1" -o "$2"' \
      "$PT" $f.ptf ${f}_out.otf2
    left=$(ls -d ${f}_out* 2>/dev/null)
    [ -z "$left" ] && t_pass otf2_write_fails_${f}_nothing_left ||
      t_fail otf2_write_fails_${f}_nothing_left "left behind: $left"
  else
    t_pass "otf2_write_fails_$f: ulimit -f not available here: skipped"
  fi
done
t_done
