#!/bin/sh
# stats' I/O section: known answers on a hand-written trace (blocking and
# non-blocking operations, a short one, one that never ends, a reused
# key, a handle without definition), no section for a trace without I/O,
# and an MPI-IO program of our own (tests/mpi/stats_io.c: explicit
# offsets, file pointers, collective, non-blocking, split collective, a
# short read, a failed write) recorded with paratrace record: exact
# operations and bytes per mode, function, call site and file; windows
# (a full scan and summaries agree with the definition, computed here
# from the events); --locations; mpirun -np 2; DUMPI, OTF2 and OTF
# conversions.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
HAVE_JSON=0
command -v python3 >/dev/null 2>&1 && HAVE_JSON=1

# ---- a hand-written trace with known answers ------------------------------
# main [0, 100): a write (100 B, 10 ticks); a non-blocking read begun in
# MPI_File_iread at 30, completed short in MPI_Wait at 55; a short write
# on a handle without a definition; an IO_END without its IO_BEGIN (not
# counted); a flush that never ends (unfinished, time to the end); an
# operation of mode 17 (other) whose key is reused at 85 (unfinished).
cat >io.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def region id=1 name="main"
def region id=2 role=9 paradigm=3 name="MPI_File_write_at"
def region id=3 role=9 paradigm=3 name="MPI_File_iread"
def region id=4 name="MPI_Wait"
def file id=9 system_node=none name="data"
def io_handle id=5 parent=none file=9 comm=none name="data"
event 0 0 enter region=1
event 10 0 enter region=2
event 10 0 io_begin handle=5 mode=1 bytes=100 flags=0 matching=1
event 20 0 io_end handle=5 bytes=100 matching=1
event 20 0 leave region=2
event 30 0 enter region=3
event 30 0 io_begin handle=5 mode=0 bytes=64 flags=1 matching=2
event 31 0 leave region=3
event 40 0 enter region=2
event 40 0 io_begin handle=6 mode=1 bytes=50 flags=0 matching=1
event 45 0 io_end handle=6 bytes=10 matching=1
event 45 0 leave region=2
event 50 0 enter region=4
event 55 0 io_end handle=5 bytes=60 matching=2
event 55 0 leave region=4
event 60 0 io_end handle=5 bytes=5 matching=99
event 70 0 io_begin handle=5 mode=2 bytes=0 flags=0 matching=3
event 80 0 io_begin handle=5 mode=17 bytes=8 flags=0 matching=4
event 85 0 io_begin handle=5 mode=1 bytes=8 flags=0 matching=4
event 90 0 io_end handle=5 bytes=8 matching=4
event 100 0 leave region=1
TXT
cat >io.want <<'TXT'
io,1,"main",,"-",9,"data",write,1,8,8,8,8,5,0,0
io,1,"main",,"-",9,"data",flush,1,0,0,0,0,30,0,1
io,1,"main",,"-",9,"data",other,1,0,0,0,8,5,0,1
io,2,"MPI_File_write_at",,"-",9,"data",write,1,100,100,100,100,10,0,0
io,2,"MPI_File_write_at",,"-",,"-",write,1,10,10,10,50,5,1,0
io,3,"MPI_File_iread",,"-",9,"data",read,1,60,60,60,64,25,1,0
TXT
ok known_csv "$PT" stats --csv io.txt >io.csv
grep '^io,' io.csv >io.got
if cmp -s io.want io.got; then t_pass known_rows
else t_fail known_rows "$(diff io.want io.got | head -6 | tr '\n' ' ')"; fi
grep -q '^section,region_id,function,callsite_id,callsite,file_id,file,mode,ops,bytes,bytes_min,bytes_max,requested,time,short,unfinished$' io.csv &&
  t_pass known_csv_header || t_fail known_csv_header "$(grep '^section,region_id,function,callsite' io.csv)"
# an operation belongs to the window of its IO_BEGIN, whole: the read begun
# at 30 and completed at 55 is in [0, 35) with its 60 bytes, not in [35, 100)
"$PT" stats --csv --to 35 io.txt | grep '^io,' >w1.got
"$PT" stats --csv --from 35 io.txt | grep '^io,' >w2.got
if [ "$(cut -d, -f2,8,9,10 w1.got | tr '\n' ' ')" = "2,write,1,100 3,read,1,60 " ] &&
   [ "$(wc -l <w2.got)" = 4 ] && ! grep -q read w2.got; then
  t_pass known_windows
else
  t_fail known_windows "$(cat w1.got w2.got | tr '\n' ' ')"
fi
ok known_table "$PT" stats io.txt >io.out
# the table: totals by mode, functions, files; no call sites (none known)
awk '/^I\/O \(operations/ {s = 1} s && $1 == "read" {print $2, $3, $4}' io.out >io.read
if [ "$(cat io.read)" = "1 60 B" ] && grep -q '^I/O functions$' io.out &&
   grep -q '^I/O files$' io.out && ! grep -q '^I/O call sites' io.out &&
   grep -q '^MPI_File_write_at  *write  *2  *110 B ' io.out; then
  t_pass known_table_sections
else
  t_fail known_table_sections "$(sed -n '/^I\/O/,$p' io.out | head -12)"
fi
if [ $HAVE_JSON = 1 ]; then
  "$PT" stats --json io.txt >io.json &&
    python3 -c '
import json
d = json.load(open("io.json"))
io = d["io"]
assert len(io) == 6, io
r = [x for x in io if x["mode"] == "read"][0]
assert (r["function"], r["ops"], r["bytes"], r["requested"], r["short"],
        r["time"], r["file_name"], r["callsite"]) == (
        "MPI_File_iread", 1, 60, 64, 1, 25, "data", None), r
assert [x["unfinished"] for x in io] == [0, 1, 1, 0, 0, 0]' &&
    t_pass known_json || t_fail known_json "$(head -c 300 io.json)"
fi

# a trace without I/O: no section in the table, no rows in CSV and JSON
cat >noio.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location id=0 name="thread 0"
def region id=1 name="work"
event 0 0 enter region=1
event 100 0 leave region=1
TXT
"$PT" stats noio.txt >noio.out && "$PT" stats --csv noio.txt >noio.csv &&
  ! grep -q '^I/O' noio.out && ! grep -q '^io,' noio.csv &&
  grep -q '^section,region_id,function,callsite_id,callsite,file_id' noio.csv &&
  t_pass no_io || t_fail no_io "$(grep -i 'i/o\|^io' noio.out noio.csv)"
if [ $HAVE_JSON = 1 ]; then
  "$PT" stats --json noio.txt >noio.json &&
    python3 -c 'import json; assert json.load(open("noio.json"))["io"] == []' &&
    t_pass no_io_json || t_fail no_io_json "$(head -c 300 noio.json)"
fi

# A non-blocking operation begun by one thread and completed by another
# thread of the same process (MPI_THREAD_MULTIPLE: MPI_File_iwrite_at in
# one thread, MPI_Waitall in another; the recorder's matching ids of such
# operations are unique within the rank): one operation with its bytes
# (was: unfinished, 0 bytes).  Threads 0 and 2 are rank 0's (the
# recorder's numbering: thread t of rank r is location r + t * nranks)
cat >xt.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="thread 0"
def location id=1 group=1 name="thread 0"
def location id=2 group=0 name="thread 1"
def region id=1 name="main"
def region id=3 role=9 paradigm=3 name="MPI_File_iwrite_at"
def region id=4 name="MPI_Waitall"
def file id=9 system_node=none name="data"
def io_handle id=5 parent=none file=9 comm=none name="data"
event 0 0 enter region=1
event 0 1 enter region=1
event 0 2 enter region=1
event 10 0 enter region=3
event 10 0 io_begin handle=5 mode=1 bytes=128 flags=1 matching=4294967298
event 12 0 leave region=3
event 20 2 enter region=4
event 30 2 io_end handle=5 bytes=128 matching=4294967298
event 30 2 leave region=4
event 40 1 enter region=3
event 40 1 io_begin handle=5 mode=1 bytes=64 flags=1 matching=4294967298
event 42 1 leave region=3
event 50 1 enter region=4
event 55 1 io_end handle=5 bytes=64 matching=4294967298
event 55 1 leave region=4
event 100 0 leave region=1
event 100 1 leave region=1
event 100 2 leave region=1
TXT
printf '%s\n' 'io,3,"MPI_File_iwrite_at",,"-",9,"data",write,2,192,64,128,192,35,0,0' >xt.want
"$PT" stats --csv xt.txt | grep '^io,' >xt.got
cmp -s xt.want xt.got && t_pass "operation completed by another thread" ||
  t_fail "operation completed by another thread" "$(cat xt.got)"

# ---- an MPI-IO program, recorded --------------------------------------------
if ! command -v mpicc >/dev/null 2>&1 || [ ! -f "$B/lib/libparatrace-mpi.so" ]; then
  t_fail "mpi setup" "mpicc or $B/lib/libparatrace-mpi.so missing"; t_done
fi
RUN="mpirun --allow-run-as-root --oversubscribe"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ok build mpicc -std=c11 -g -O1 -o stats_io "$SRC/tests/mpi/stats_io.c" || t_done
ok record $RUN -np 2 "$PT" record -o s.ptf -- ./stats_io sio.dat >run.out || t_done
ok text "$PT" -q convert s.ptf -o s.txt
# an MPI-IO status defines its count only: the recorder writes
# MPI_ANY_SOURCE, MPI_ANY_TAG and not cancelled for the rest, which it used
# to copy from the program's memory (stats_io fills the status with 4242,
# 4343 and 0x5a bytes before its MPI_File_write_at)
"$PT" dump --style dumpi --locations 0 s.ptf >sd.txt 2>&1
st=$(grep -A6 '^MPI_File_write_at entering' sd.txt | grep -m1 'MPI_Status status=')
case $st in
*"bytes=100, cancelled=0, source=-1, tag=-1, error=0"*)
  t_pass "MPI-IO status: count only" ;;
*) t_fail "MPI-IO status: count only" "$st" ;;
esac
# and so is the status of the MPI_Wait that completes its MPI_File_iwrite_at
# (OpenMPI copies the request's own status, whose source, tag and cancel
# flag it never set: the previous build recorded cancelled=123,
# source=-186585120)
st=$(grep -A3 '^MPI_Wait entering' sd.txt | grep -m1 'MPI_Status status=')
case $st in
*"bytes=64, cancelled=0, source=-1, tag=-1, error=0"*)
  t_pass "MPI-IO request's status: count only" ;;
*) t_fail "MPI-IO request's status: count only" "$st" ;;
esac

# per function (summed over call sites and files), from a CSV:
# function mode ops bytes min max requested time short unfinished
cat >fn.awk <<'AWK'
BEGIN { FS = "," }
$1 == "io" {
  k = $3 " " $8
  if (!(k in ops) || $11 < mn[k]) mn[k] = $11
  if (!(k in ops) || $12 > mx[k]) mx[k] = $12
  ops[k] += $9; by[k] += $10; rq[k] += $13; tm[k] += $14; sh[k] += $15
  un[k] += $16
}
END {
  for (k in ops) print k, ops[k], by[k], mn[k], mx[k], rq[k], tm[k], sh[k], un[k]
}
AWK
# per mode: ops bytes requested short unfinished
mode_totals() {
  awk -F, '$1 == "io" { o[$8] += $9; b[$8] += $10; r[$8] += $13; s[$8] += $15
                        u[$8] += $16 }
           END { for (m in o) print m, o[m], b[m], r[m], s[m], u[m] }' "$1" | sort
}
ok csv "$PT" stats --csv s.ptf >s.csv
# each rank writes 600 bytes in 8 operations and reads 7 times: 800 bytes
# on rank 0, 700 on rank 1, whose last read hits the end of the file
printf '%s\n' "read 14 1500 1600 1 0" "write 16 1200 1200 0 0" >modes.want
mode_totals s.csv >modes.got
if cmp -s modes.want modes.got; then t_pass "bytes read and written"
else t_fail "bytes read and written" "$(cat modes.got | tr '\n' ' ')"; fi
cat >fn.want <<'TXT'
"MPI_File_iread_all" read 2 128 64 64 128 0 0
"MPI_File_iread_at" read 2 160 80 80 160 0 0
"MPI_File_iwrite" write 2 28 14 14 28 0 0
"MPI_File_iwrite_at" write 2 128 64 64 128 0 0
"MPI_File_iwrite_at_all" write 2 128 64 64 128 0 0
"MPI_File_read" read 2 60 30 30 60 0 0
"MPI_File_read_all_begin" read 2 252 126 126 252 0 0
"MPI_File_read_at" read 4 500 100 200 600 1 0
"MPI_File_read_at_all" read 2 400 200 200 400 0 0
"MPI_File_write" write 2 60 30 30 60 0 0
"MPI_File_write_all" write 2 160 80 80 160 0 0
"MPI_File_write_at" write 2 200 100 100 200 0 0
"MPI_File_write_at_all" write 2 400 200 200 400 0 0
"MPI_File_write_at_all_begin" write 2 96 48 48 96 0 0
TXT
awk -f fn.awk s.csv | awk '{$8 = ""; print}' | sed 's/  / /' | sort >fn.got
if cmp -s fn.want fn.got; then t_pass "operations and bytes per function"
else t_fail "operations and bytes per function" "$(diff fn.want fn.got | head -6 | tr '\n' ' ')"; fi
# the failed write (read-only file) is a call of the MPI view, not an
# operation: 4 calls of MPI_File_write, 2 operations
calls=$(awk -F, '$1 == "region" && $3 == "\"MPI_File_write\"" {print $5}' s.csv)
[ "$calls" = 4 ] && t_pass "failed write: a call, no operation" ||
  t_fail "failed write" "MPI_File_write calls: '$calls'"
# call sites (the program has debug information) and the file
sites=$(awk -F, '$1 == "io" && $4 != "" && $5 ~ /stats_io\.c:[0-9]+"$/' s.csv | wc -l)
rows=$(grep -c '^io,' s.csv)
nfile=$(awk -F, '$1 == "io" && $7 == "\"sio.dat\""' s.csv | wc -l)
short=$(awk -F, '$1 == "io" && $15 == 1 {print $10, $13}' s.csv)
if [ "$rows" = 15 ] && [ "$sites" = 15 ] && [ "$nfile" = 15 ] && [ "$short" = "300 400" ]; then
  t_pass "call sites and file"
else
  t_fail "call sites and file" "$rows rows, $sites with a site, $nfile on sio.dat, short: $short"
fi
ok table "$PT" stats s.ptf >s.out
if grep -q '^I/O call sites' s.out && grep -q '^sio.dat  *read  *14  *1.5 KiB ' s.out &&
   grep -q '^MPI_File_read_at  *reads stats_io.c:[0-9]*  *read  *2  *300 B ' s.out; then
  t_pass "table sections"
else
  t_fail "table sections" "$(sed -n '/^I\/O/,/^Locations/p' s.out | head -8)"
fi
# rank 1 alone: 600 bytes written, 700 read (its last read short)
"$PT" stats --csv --locations 1 s.ptf >l1.csv
printf '%s\n' "read 7 700 800 1 0" "write 8 600 600 0 0" >l1.want
mode_totals l1.csv >l1.got
cmp -s l1.want l1.got && t_pass "--locations" ||
  t_fail "--locations" "$(cat l1.got | tr '\n' ' ')"
if [ -x "$B/bin/paratrace-mpi" ]; then
  $RUN -np 2 "$PT" stats --csv s.ptf >par.csv 2>par.err
  nowaits s.csv >s.cmp
  nowaits par.csv >par.cmp
  cmp -s s.cmp par.cmp && t_pass "mpirun -np 2 stats" ||
    t_fail "mpirun -np 2 stats" "$(diff s.csv par.csv | head -3) $(head -2 par.err)"
  # a process's threads stay on one rank of the parallel statistics, so
  # the operation one began and another completed pairs there too (was,
  # with 3 ranks: each thread's stream on its own rank, the operation
  # unfinished)
  ok xt_ptf "$PT" -q convert xt.txt -o xt.ptf
  $RUN -np 3 "$PT" stats --csv xt.ptf 2>xt.err | grep '^io,' >xt.par
  cmp -s xt.want xt.par && t_pass "mpirun -np 3 stats: a process's threads together" ||
    t_fail "mpirun -np 3 stats: a process's threads together" "$(cat xt.par) $(head -2 xt.err)"
fi

# ---- windows: a scan and summaries give what the events say ------------------
# The definition, from the text dump: operations whose io_begin is in
# [from, to), with the bytes of their io_end; per mode "ops bytes".
cat >def.awk <<'AWK'
$1 == "event" && ($4 == "io_begin" || $4 == "io_end") {
  h = m = b = md = ""
  for (i = 5; i <= NF; i++) {
    split($i, kv, "=")
    if (kv[1] == "handle") h = kv[2]; else if (kv[1] == "matching") m = kv[2]
    else if (kv[1] == "bytes") b = kv[2]; else if (kv[1] == "mode") md = kv[2]
  }
  k = $3 " " h " " m
  if ($4 == "io_begin") {
    if (k in open) { ops[open[k]]++; delete open[k] }
    if ($2 >= from && (to == "" || $2 < to)) open[k] = md
  } else if (k in open) {
    ops[open[k]]++; bytes[open[k]] += b; delete open[k]
  }
}
END {
  for (k in open) ops[open[k]]++
  for (md in ops) print (md == 0 ? "read" : md == 1 ? "write" : md), ops[md], bytes[md] + 0
}
AWK
first=$(awk '$1 == "event" {print $2; exit}' s.txt)
last=$(awk '$1 == "event" {t = $2} END {print t}' s.txt)
# T: the first read; t1, t2: just after the first MPI_File_iwrite_at and
# MPI_File_iread_at began (windows that cut operations in flight)
T=$(awk '$4 == "io_begin" && / mode=0 / {print $2; exit}' s.txt)
t1=$(( $(awk '$4 == "io_begin" && / flags=1 / {print $2; exit}' s.txt) + 1 ))
t2=$(( $(awk '$4 == "io_begin" && / mode=0 / && / flags=1 / {print $2; exit}' s.txt) + 1 ))
cp -r s.ptf sum.ptf
ok summarize "$PT" summarize --every $(( (last - first) / 40 + 1 )) sum.ptf
n=0
for w in "0 $T" "$T $last" "$t1 $t2" "$first $t1" "$t2 $last"; do
  n=$((n + 1))
  set -- $w
  awk -v from="$1" -v to="$2" -f def.awk s.txt | sort >def.$n
  "$PT" stats --csv --from "$1" --to "$2" --no-summaries sum.ptf >scan.$n.csv
  "$PT" stats --csv --from "$1" --to "$2" --require-summaries sum.ptf >sum.$n.csv 2>sum.$n.err
  mode_totals scan.$n.csv | awk '{print $1, $2, $3}' >scan.$n
  used=$(awk -F, '$1 == "totals" {print $NF}' sum.$n.csv)
  if [ -s def.$n ] && cmp -s def.$n scan.$n && [ "$used" = 1 ] &&
     [ "$(grep '^io,' scan.$n.csv)" = "$(grep '^io,' sum.$n.csv)" ]; then
    t_pass "window $n [$1, $2): $(cat def.$n | tr '\n' ' ')"
  else
    t_fail "window $n [$1, $2)" "definition: $(cat def.$n | tr '\n' ' '); scan: $(cat scan.$n | tr '\n' ' '); summaries (used $used): $(mode_totals sum.$n.csv | tr '\n' ' ') $(head -c 200 sum.$n.err)"
  fi
done
# before the first read: the writes only; from it: the reads only
[ "$(cat def.1)" = "write 16 1200" ] && [ "$(cat def.2)" = "read 14 1500" ] &&
  t_pass "windows split writes and reads" ||
  t_fail "windows split writes and reads" "$(cat def.1 def.2 | tr '\n' ' ')"

# ---- conversions ----------------------------------------------------------------
# OTF2 keeps every operation, time and the file (call sites become string
# attributes there: none in stats)
ok to_otf2 "$PT" convert s.ptf -o s.otf2
ok otf2_csv "$PT" stats --csv s.otf2 >o.csv
awk -f fn.awk s.csv | sort >fn.rec
awk -f fn.awk o.csv | sort >fn.otf2
nf=$(awk -F, '$1 == "io" && $7 == "\"sio.dat\""' o.csv | wc -l)
if cmp -s fn.rec fn.otf2 && [ "$nf" = "$(grep -c '^io,' o.csv)" ]; then
  t_pass "otf2: the same operations, bytes and times"
else
  t_fail "otf2" "$(diff fn.rec fn.otf2 | head -4 | tr '\n' ' ') files: $nf"
fi
# DUMPI 13 has no record of MPI_File_iwrite_at_all / iread_all (MPI-3.1:
# dropped, with a warning) and no return codes: the failed write reads back
# as an operation whose status says 0 bytes (short).  The rest as recorded.
ok to_dumpi "$PT" convert s.ptf -o s.meta
ok dumpi_csv "$PT" stats --csv s.meta >d.csv
printf '%s\n' "read 12 1372 1472 1 0" "write 16 1072 1092 2 0" >dmodes.want
mode_totals d.csv >dmodes.got
cmp -s dmodes.want dmodes.got && t_pass "dumpi: bytes read and written" ||
  t_fail "dumpi: bytes read and written" "$(cat dmodes.got | tr '\n' ' ')"
awk -f fn.awk d.csv | sort >fn.dumpi
drop='"MPI_File_iwrite_at_all"|"MPI_File_iread_all"|"MPI_File_write"'
if [ "$(grep -Ev "^($drop) " fn.rec)" = "$(grep -Ev "^($drop) " fn.dumpi)" ] &&
   grep -q '^"MPI_File_write" write 4 60 0 30 80 [0-9]* 2 0$' fn.dumpi; then
  t_pass "dumpi: the other functions as recorded"
else
  t_fail "dumpi: the other functions" "$(diff fn.rec fn.dumpi | head -6 | tr '\n' ' ')"
fi
# OTF 1 keeps file operations as OTF has them (a begin with only its
# matching id, the end naming the file, the operation and the bytes): they
# pair by matching id, and every function keeps its operations, bytes,
# times and unfinished ones; OTF has no requested bytes, so none is short
# (requested = bytes).  Were: no I/O rows at all, for OTF read directly
# and for PTF -> OTF -> PTF (an HDF5 program's collective writes vanished
# from stats after the round trip)
ok to_otf "$PT" convert s.ptf -o s.otf
ok otf_csv "$PT" stats --csv s.otf >otf.csv
ok otf_back "$PT" -q convert s.otf -o s_otf.ptf
ok otf_back_csv "$PT" stats --csv s_otf.ptf >otfb.csv
cut -d' ' -f1-6,8,10 fn.rec >fn.rec.otf
awk -f fn.awk otf.csv | sort | cut -d' ' -f1-6,8,10 >fn.otf
awk -f fn.awk otfb.csv | sort | cut -d' ' -f1-6,8,10 >fn.otfb
nfo=$(awk -F, '$1 == "io" && $7 == "\"sio.dat\""' otf.csv | wc -l)
if [ -s fn.otf ] && cmp -s fn.rec.otf fn.otf && cmp -s fn.rec.otf fn.otfb &&
   [ "$nfo" = "$(grep -c '^io,' otf.csv)" ] &&
   awk -F, '$1 == "io" && ($13 != $10 || $15 != 0) {bad = 1} END {exit bad}' otf.csv; then
  t_pass "otf: the same operations, bytes and times"
else
  t_fail "otf" "$(diff fn.rec.otf fn.otf | head -4 | tr '\n' ' ') back: $(diff fn.rec.otf fn.otfb | head -2 | tr '\n' ' ') files: $nfo"
fi
# OTF 1's own forms, known answers: a lone FileOperation record (an IO_END
# with otf:duration, no begin: it began 10 ticks before, inside 'write'),
# a begin / end pair by matching id (read, 64 B), an OPEN (operation 0:
# not a transfer, not counted) and a begin that never ends (unfinished;
# its end would have said the file and operation)
cat >otf1.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="thread 0"
def region id=1 name="main"
def region id=2 name="write"
def file id=7 system_node=none name="out.dat"
def attribute id=4294967299 type=2 name="otf:duration"
def attribute id=4294967300 type=2 name="otf:handle"
def attribute id=4294967301 type=2 name="otf:fileop"
event 0 0 enter region=1
event 10 0 enter region=2
event 20 0 io_end handle=7 bytes=100 matching=0 {4294967299=u:10 4294967300=u:3 4294967301=u:3}
event 20 0 leave region=2
event 30 0 io_begin handle=0 mode=0 bytes=0 flags=0 matching=5
event 40 0 io_end handle=7 bytes=64 matching=5 {4294967300=u:3 4294967301=u:2}
event 50 0 io_end handle=7 bytes=0 matching=0 {4294967299=u:5 4294967300=u:3 4294967301=u:0}
event 60 0 io_begin handle=0 mode=0 bytes=0 flags=0 matching=6
event 100 0 leave region=1
TXT
cat >otf1.want <<'TXT'
io,1,"main",,"-",7,"out.dat",read,1,64,64,64,64,10,0,0
io,1,"main",,"-",,"-",other,1,0,0,0,0,40,0,1
io,2,"write",,"-",7,"out.dat",write,1,100,100,100,100,10,0,0
TXT
mkdir -p otf1
"$PT" stats --csv otf1.txt | grep '^io,' >otf1.got
"$PT" -q convert otf1.txt -o otf1/t.otf && "$PT" stats --csv otf1/t.otf | grep '^io,' >otf1.got2
"$PT" stats --csv --from 12 otf1.txt | grep '^io,' >otf1.got3
if cmp -s otf1.want otf1.got && cmp -s otf1.want otf1.got2 &&
   [ "$(head -2 otf1.want)" = "$(cat otf1.got3)" ]; then
  t_pass "otf: file operation records, known answers"
else
  t_fail "otf: file operation records" "$(cat otf1.got otf1.got2 otf1.got3 | tr '\n' ' ')"
fi
t_done
