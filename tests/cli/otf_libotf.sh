#!/bin/sh
# OTF 1.x against the real OTF library (Debian otf-trace, libopen-trace-format):
# - every OTF test vector (written by the real library) -> our reader -> PTF
#   -> our OTF writer; the real library's otfprint of our output equals its
#   otfprint of the original (record numbers and timing line dropped, sorted);
# - our output compressed file by file with the real library's otfcompress
#   (.z streams) reads in our reader to the same dump as the plain files.
. "$(dirname "$0")/common.inc"
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
[ -d "$TD/otf" ] || { echo "PASS otf_libotf_skipped_no_testdata"; t_done; }
# make check installs otf-trace (scripts/install-deps.sh): missing is a failure.
command -v otfprint >/dev/null 2>&1 ||
  { t_fail otf_libotf_tools "otfprint not found (apt-get install otf-trace)"; t_done; }

norm() { sed -e 's/^(#[0-9]*)//' -e '/processing time/d' | LC_ALL=C sort; }

i=0
for m in $(find "$TD/otf" -name '*.otf' | LC_ALL=C sort); do
  i=$((i + 1))
  ok "to_ptf_$i" "$PT" -q convert "$m" -o "v$i.ptf" || continue
  mkdir -p "o$i"
  ok "to_otf_$i" "$PT" -q convert "v$i.ptf" -o "o$i/t.otf" || continue
  otfprint "$m" 2>/dev/null | norm >"want$i.txt"
  otfprint "o$i/t.otf" 2>"print$i.err" >"print$i.out"; rc=$?
  norm <"print$i.out" >"got$i.txt"
  n=$(grep -c . "want$i.txt")
  if [ "$rc" -eq 0 ] && [ "$n" -gt 20 ] && cmp -s "want$i.txt" "got$i.txt"; then
    t_pass "libotf_reads_ours_$i"
  else
    t_fail "libotf_reads_ours_$i" "$m: otfprint rc $rc, $n lines; diff: $(diff "want$i.txt" "got$i.txt" | head -5)"
  fi
  # The real library's zlib layout (one .z per stream file) in our reader.
  mkdir -p "z$i"
  cp "o$i"/t.* "z$i"/
  (cd "z$i" && for f in t.*; do
     [ "$f" = t.otf ] || otfcompress "$f" >/dev/null 2>&1 || exit 1
   done) || { t_fail "otfcompress_$i" "otfcompress failed"; continue; }
  if ls "z$i"/*.z >/dev/null 2>&1 && ! ls "z$i" | grep -v -e '\.z$' -e '^t\.otf$' | grep -q .; then
    t_pass "otfcompress_$i"
  else
    t_fail "otfcompress_$i" "unexpected files: $(ls "z$i")"
  fi
  ok "dump_plain_$i" "$PT" dump "o$i/t.otf" >"p$i.dump" &&
    ok "dump_z_$i" "$PT" dump "z$i/t.otf" >"z$i.dump" &&
    { [ -s "p$i.dump" ] && cmp -s "p$i.dump" "z$i.dump" && t_pass "ours_reads_libotf_z_$i" ||
      t_fail "ours_reads_libotf_z_$i" "dumps differ: $(diff "p$i.dump" "z$i.dump" | head -5)"; }
done
# A generated multi-location trace (any model trace, not a test vector):
# the real library reads our OTF output with the same number of events of
# each kind as our dump of the source shows.
ok gen "$PT" generate -q -o g.ptf --locations 3 --events 2000 --seed 7 &&
  ok gen_to_otf "$PT" -q convert g.ptf -o g.otf && {
  "$PT" dump g.ptf | awk '$1 == "event" {
      k = $4; if (k == "metric") k = "Counter:"; else if (k == "send") k = "SendMessage:";
      else if (k == "recv") k = "ReceiveMessage:"; else if (k == "enter") k = "Enter:";
      else if (k == "leave") k = "Leave:"; print k }' | LC_ALL=C sort | uniq -c >gwant.txt
  otfprint g.otf 2>gprint.err | sed 's/^(#[0-9]*) *//' |
    awk '/^\t[0-9]/ {print $2}' | LC_ALL=C sort | uniq -c >ggot.txt
  [ "$(awk '{s += $1} END {print s}' gwant.txt)" -gt 5000 ] && cmp -s gwant.txt ggot.txt &&
    t_pass libotf_reads_generated ||
    t_fail libotf_reads_generated "kinds differ: $(diff gwant.txt ggot.txt | head -6)"
}
# Events OTF has no record for (a DUMPI trace's Irecv requests): one
# warning per kind with the count, not one per event
b=$(ls "$TD"/dumpi/b_ring_nonblocking/*.meta 2>/dev/null | head -1)
if [ -n "$b" ]; then
  "$PT" convert "$b" -o rq.otf 2>rq.err
  n=$(grep -c 'irecv_request events have no OTF record' rq.err)
  [ "$n" = 1 ] && grep -q ': [0-9][0-9]* irecv_request events' rq.err &&
    t_pass dropped_kinds_warned_once || t_fail dropped_kinds_warned_once "$n lines"
fi
# A trace the real library's own writer compresses (OTF_Writer with
# OTF_FILECOMPRESSION_COMPRESSED: .z files, 2 processes x 20,000
# enter/leave, ~90 KB of zlib) reads completely in our reader.
cat >w.c <<'CEOF'
#include <otf.h>
int main(void) {
  OTF_FileManager *m = OTF_FileManager_open(10);
  OTF_Writer *w = OTF_Writer_open("lz", 1, m);
  if (!m || !w) return 1;
  OTF_Writer_setCompression(w, OTF_FILECOMPRESSION_COMPRESSED);
  OTF_Writer_writeDefTimerResolution(w, 0, 1000000);
  OTF_Writer_writeDefProcess(w, 0, 1, "p1", 0);
  OTF_Writer_writeDefProcess(w, 0, 2, "p2", 0);
  OTF_Writer_writeDefFunction(w, 0, 1, "f", 0, 0);
  for (unsigned long t = 1; t <= 20000; t++) {
    OTF_Writer_writeEnter(w, t * 10, 1, 1 + (t & 1), 0);
    OTF_Writer_writeLeave(w, t * 10 + 5, 1, 1 + (t & 1), 0);
  }
  return OTF_Writer_close(w) != 1;
}
CEOF
if ${CC:-cc} -I/usr/include/open-trace-format -o w w.c -lopen-trace-format 2>cc.err && ./w &&
   [ -f lz.1.events.z ]; then
  t_pass libotf_writes_zlib
  ok dump_libotf_zlib "$PT" dump lz.otf >lz.dump &&
    { [ "$(grep -c ' enter ' lz.dump)" -eq 20000 ] && [ "$(grep -c ' leave ' lz.dump)" -eq 20000 ] &&
      t_pass ours_reads_libotf_writer_zlib ||
      t_fail ours_reads_libotf_writer_zlib "$(grep -c ' enter ' lz.dump) enters, want 20000"; }
else
  t_fail libotf_writes_zlib "could not build or run an OTF_Writer program: $(head -c 300 cc.err)"
fi
[ "$i" -ge 4 ] && t_pass otf_vectors_found || t_fail otf_vectors_found "only $i OTF traces under $TD/otf"
# I/O from a source that names handles (OTF2, the recorder): OTF's record
# gets the handle's file, the handle and the operation of the IO_BEGIN
# (were: the handle as file id, handle 0, operation OPEN)
cat >io.txt <<'EOF'
# paratrace text 1
def clock start=0 ticks_per_second=1000000000 length=100
def location_group id=0 type=1 rank=0 name="MPI Rank 0"
def location id=0 group=0 type=1
def file id=0 name="/scratch"
def file id=1 name="/scratch/data.bin"
def io_handle id=5 file=1 name="fd 3"
event 10 0 io_begin handle=5 mode=1 bytes=4096 flags=0 matching=1
event 20 0 io_end handle=5 bytes=4000 matching=1
event 30 0 io_begin handle=5 mode=0 bytes=512 flags=0 matching=2
event 40 0 io_end handle=5 bytes=512 matching=2
EOF
mkdir -p iod
ok io_to_otf "$PT" -q convert io.txt -o iod/t.otf &&
  otfprint iod/t.otf >io.out 2>&1 &&
  grep -q 'EndFileOperation: process 1, file ID 1, matching ID 1, handle ID 5, operation WRITE.*bytes 4000' io.out &&
  grep -q 'file ID 1, matching ID 2, handle ID 5, operation READ.*bytes 512' io.out &&
  t_pass otf_io_file_and_operation ||
  t_fail otf_io_file_and_operation "$(grep FileOperation io.out)"
# Counter value types (OTF_COUNTER_VARTYPE_*: unsigned, signed, float,
# double in bits 5-8 of the properties): a trace the library writes with
# signed, double, float and 4-byte signed counters (a sample's 64 bits are
# the two's complement, the IEEE double, the IEEE float in the low 32
# bits) reads as INT and DOUBLE values (were: every value UINT, a signed
# counter's -40 as 18446744073709551576, a double as its bits), and
# OTF -> PTF -> OTF, OTF -> OTF2 -> PTF -> OTF keep the types and values
# (were: a double truncated to an integer, INT declared UNSIGNED8, DOUBLE
# declared SIGNED8)
cat >cnt.c <<'CEOF'
#include <otf.h>
#include <string.h>
static uint64_t dbits(double d) { uint64_t v; memcpy(&v, &d, 8); return v; }
static uint64_t fbits(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }
int main(void) {
  OTF_FileManager *m = OTF_FileManager_open(10);
  OTF_Writer *w = OTF_Writer_open("cnt", 1, m);
  if (!m || !w) return 1;
  OTF_Writer_writeDefTimerResolution(w, 0, 1000000);
  OTF_Writer_writeDefProcess(w, 0, 1, "p1", 0);
  OTF_Writer_writeDefCounterGroup(w, 0, 1, "g");
  OTF_Writer_writeDefCounter(w, 0, 1, "cycles", OTF_COUNTER_TYPE_ACC |
                             OTF_COUNTER_VARTYPE_UNSIGNED8, 1, "#");
  OTF_Writer_writeDefCounter(w, 0, 2, "temp", OTF_COUNTER_TYPE_ABS |
                             OTF_COUNTER_SCOPE_POINT | OTF_COUNTER_VARTYPE_SIGNED8, 1, "C");
  OTF_Writer_writeDefCounter(w, 0, 3, "ratio", OTF_COUNTER_TYPE_ABS |
                             OTF_COUNTER_VARTYPE_DOUBLE, 1, "");
  OTF_Writer_writeDefCounter(w, 0, 4, "half", OTF_COUNTER_TYPE_ABS |
                             OTF_COUNTER_VARTYPE_FLOAT, 1, "");
  OTF_Writer_writeDefCounter(w, 0, 5, "delta", OTF_COUNTER_TYPE_ABS |
                             OTF_COUNTER_VARTYPE_SIGNED4, 1, "");
  OTF_Writer_writeCounter(w, 10, 1, 1, 123456789);
  OTF_Writer_writeCounter(w, 10, 1, 2, (uint64_t)(int64_t)-40);
  OTF_Writer_writeCounter(w, 10, 1, 3, dbits(0.75));
  OTF_Writer_writeCounter(w, 10, 1, 4, fbits(0.5f));
  OTF_Writer_writeCounter(w, 10, 1, 5, (uint64_t)(int64_t)-3);
  OTF_Writer_writeCounter(w, 20, 1, 2, 7);
  OTF_Writer_writeCounter(w, 20, 1, 3, dbits(-1e300));
  OTF_Writer_writeCounter(w, 20, 1, 3, dbits(0.1));
  OTF_Writer_writeCounterSnapshot(w, 30, 20, 1, 2, (uint64_t)(int64_t)-41, NULL);
  OTF_Writer_writeCounterSnapshot(w, 30, 20, 1, 3, dbits(-2.5), NULL);
  return OTF_Writer_close(w) != 1;
}
CEOF
if ${CC:-cc} -I/usr/include/open-trace-format -o cnt cnt.c -lopen-trace-format 2>cc.err && ./cnt; then
  "$PT" dump cnt.otf >cnt.dump 2>cnt.err
  miss=
  for want in 'def metric id=1 .*type=2 ' 'def metric id=2 .*type=1 ' \
      'def metric id=3 .*type=3 ' 'def metric id=4 .*type=3 ' 'def metric id=5 .*type=1 ' \
      ' metric metric=1 value=u:123456789$' ' metric metric=2 value=i:-40$' \
      ' metric metric=3 value=d:0.75$' ' metric metric=4 value=d:0.5$' \
      ' metric metric=5 value=i:-3$' ' metric metric=2 value=i:7$' \
      ' metric metric=3 value=d:-1e+300$' ' metric metric=3 value=d:0.1$' \
      'snapshot .*metric=2 value=i:-41' 'snapshot .*metric=3 value=d:-2.5'; do
    grep -q -e "$want" cnt.dump || miss="$miss [$want]"
  done
  [ -z "$miss" ] && t_pass otf_counter_types_read ||
    t_fail otf_counter_types_read "missing$miss: $(grep metric cnt.dump | head -8)"
  # OTF -> PTF -> OTF: the library prints our output as the original
  mkdir -p cnt2
  ok cnt_to_ptf "$PT" -q convert cnt.otf -o cnt.ptf &&
    ok cnt_to_otf "$PT" -q convert cnt.ptf -o cnt2/t.otf && {
    otfprint cnt.otf 2>/dev/null | norm >cwant.txt
    otfprint cnt2/t.otf 2>/dev/null | norm >cgot.txt
    grep -q 'Counter: process 1, counter 2, value -40' cwant.txt &&
      grep -q 'counter 3, value 0.750000' cwant.txt && cmp -s cwant.txt cgot.txt &&
      t_pass otf_counter_types_otf_ptf_otf ||
      t_fail otf_counter_types_otf_ptf_otf "$(diff cwant.txt cgot.txt | head -6)"
  }
  # OTF -> OTF2 -> PTF -> OTF: INT64 and DOUBLE members, values exact
  if command -v otf2-print >/dev/null 2>&1; then
    mkdir -p c2
    ok cnt_to_otf2 "$PT" -q convert cnt.otf -o c2/t.otf2 &&
      ok cnt_otf2_to_ptf "$PT" -q convert c2/t.otf2 -o c2.ptf &&
      ok cnt_otf2_to_otf "$PT" -q convert c2.ptf -o c2/back.otf && {
      otf2-print c2/t.otf2 >c2.print 2>&1
      grep -q '"temp" <[0-9]*>; INT64; -40)' c2.print &&
        grep -q '"ratio" <[0-9]*>; DOUBLE; 0.75)' c2.print &&
        t_pass otf_counter_types_to_otf2 ||
        t_fail otf_counter_types_to_otf2 "$(grep METRIC c2.print | head -4)"
      # single-member metric classes in id order (were in hash order:
      # "out of order Metric definition: 3")
      otf2-print -G c2/t.otf2 >c2g.print 2>&1
      grep -q 'METRIC_CLASS  *5 ' c2g.print && ! grep -q 'out of order' c2g.print &&
        t_pass otf2_metric_classes_in_order ||
        t_fail otf2_metric_classes_in_order "$(grep -e 'out of order' -e METRIC_CLASS c2g.print | head -4)"
      otfprint c2/back.otf >c2b.print 2>&1
      "$PT" dump c2/back.otf 2>&1 | grep ' metric metric=' | sed 's/^event [0-9]* [0-9]* //' >c2b.got
      grep '^event .* metric metric=' cnt.dump | sed 's/^event [0-9]* [0-9]* //' >c2b.want
      grep -q 'name "temp", properties ABS/[A-Z]*/SIGNED8' c2b.print &&
        grep -q 'name "ratio", properties ABS/[A-Z]*/DOUBLE' c2b.print &&
        grep -q 'counter 2, value -40$' c2b.print && grep -q 'counter 3, value 0.750000$' c2b.print &&
        [ -s c2b.want ] && cmp -s c2b.want c2b.got &&
        t_pass otf_counter_types_otf2_ptf_otf ||
        t_fail otf_counter_types_otf2_ptf_otf "$(grep -i counter c2b.print | head -4) $(diff c2b.want c2b.got | head -4)"
    }
  fi
else
  t_fail otf_counter_types_read "could not build or run an OTF_Writer program: $(head -c 300 cc.err)"
fi
t_done
