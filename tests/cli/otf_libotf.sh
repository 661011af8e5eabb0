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
t_done
