#!/bin/sh
# Non-blocking MPI-IO through DUMPI: a program of our own
# (tests/mpi/fileio.c, IMB-IO style: MPI_File_iwrite_at / iwrite /
# iwrite_shared / iread_at / iread / iread_shared completed by MPI_Wait,
# Waitall, Test loops and Waitany, blocking write_at / read_at between)
# recorded by paratrace, written as a DUMPI trace set and read back.  The
# reader must register the requests the MPI_File_i* calls create (no
# "completion of request id N that no recorded call created" warning) and
# give the same I/O events as recorded: per location, each IO_BEGIN /
# IO_END with its time, handle, mode, bytes and flags, each IO_END paired
# with the same IO_BEGIN (the matching ids themselves are numbered apart).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
if ! command -v mpicc >/dev/null 2>&1 || [ ! -f "$B/lib/libparatrace-mpi.so" ]; then
  t_fail "setup" "mpicc or $B/lib/libparatrace-mpi.so missing"; t_done
fi
RUN="mpirun --allow-run-as-root --oversubscribe"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ok "build" mpicc -std=c11 -g -O1 -o fileio "$SRC/tests/mpi/fileio.c"
ok "record" $RUN -np 2 "$PT" record -o x.ptf -- ./fileio f.dat 3 >run.out
ok "to dumpi" "$PT" convert x.ptf -o x.meta
ok "from dumpi" "$PT" convert x.meta -o y.ptf
if grep -q "no recorded call created" "from dumpi.err"; then
  t_fail "requests registered" "$(grep -m1 'no recorded call' "from dumpi.err")"
else
  t_pass "requests registered"
fi
ok "text x" "$PT" -q convert x.ptf -o x.txt
ok "text y" "$PT" -q convert y.ptf -o y.txt
# Per location: "time kind handle mode bytes flags" for IO_BEGIN, "time
# kind handle bytes begin#k" for IO_END, k = the number of its IO_BEGIN
# (the latest open one with the same matching id) on that location.
cat >io.awk <<'AWK'
$1 == "event" && ($4 == "io_begin" || $4 == "io_end") {
  loc = $3; m = ""; line = $2 " " $4
  for (i = 5; i <= NF; i++) {
    split($i, kv, "=")
    if (kv[1] == "matching") m = kv[2]; else line = line " " $i
  }
  if ($4 == "io_begin") {
    k = ++nb[loc]; open[loc, m, ++no[loc, m]] = k
  } else {
    k = no[loc, m] > 0 ? open[loc, m, no[loc, m]--] : "none"
    line = line " begin#" k
  }
  print loc, line
}
AWK
awk -f io.awk x.txt | sort -s -k1,1n >x.io
awk -f io.awk y.txt | sort -s -k1,1n >y.io
n=$(grep -c io_end x.io)
nb=$(grep -c "io_end.*begin#none" x.io)
if [ "$n" -ge 36 ] && [ "$nb" = 0 ]; then
  t_pass "recorded: $n I/O operations"
else
  t_fail "recorded" "$n IO_END events, $nb without an IO_BEGIN"
fi
if cmp -s x.io y.io; then
  t_pass "I/O events as recorded"
else
  t_fail "I/O events as recorded" "$(diff x.io y.io | head -5 | tr '\n' ' ')"
fi
# the files and I/O handles the reader defines from the MPI_File_open
# calls: those the recorder defined (ids, files, names, communicators), so
# that OTF2 output names its handles
defs() { grep -E '^def(@[0-9]+)? (file|io_handle) ' "$1" | sed 's/^def@[0-9]*/def/' | sort -u; }
defs x.txt >x.defs
defs y.txt >y.defs
if [ -s x.defs ] && cmp -s x.defs y.defs; then
  t_pass "file and I/O handle definitions"
else
  t_fail "file and I/O handle definitions" "$(diff x.defs y.defs | head -4 | tr '\n' ' ')"
fi
ok "to otf2" "$PT" convert y.ptf -o y.otf2 --to otf2
if otf2-print y.otf2 2>&1 | grep -q 'IO_OPERATION_BEGIN.*Handle: "f.dat"' &&
   ! otf2-print y.otf2 2>&1 | grep -q 'Handle: INVALID'; then
  t_pass "otf2: I/O handles named"
else
  t_fail "otf2: I/O handles named" "$(otf2-print y.otf2 2>&1 | grep -m2 IO_OPERATION)"
fi
# a DUMPI file id opened again after its close (as a DUMPI writer that
# reuses ids would write it): another handle, with its own file name.  Rank
# 0's open / write_at / close of x.txt twice, the second on file b.dat.
rid() { grep -m1 "^def region .*name=\"$1\"" x.txt | sed 's/.* id=\([0-9]*\) .*/\1/'; }
enter() { grep -m1 "^event [0-9]* 0 enter region=$(rid "$1") " x.txt | cut -d' ' -f4-; }
open=$(enter MPI_File_open)
wr=$(enter MPI_File_write_at)
cl=$(enter MPI_File_close)
{
  grep -v '^event' x.txt
  t=1000
  for f in a.dat b.dat; do
    for e in "$(echo "$open" | sed "s/s:\"f.dat\"/s:\"$f\"/")" "$wr" "$cl"; do
      r=$(echo "$e" | sed 's/.*region=\([0-9]*\).*/\1/')
      echo "event $t 0 $e"; t=$((t + 10))
      echo "event $t 0 leave region=$r"; t=$((t + 10))
    done
  done
} >reuse.txt
ok "reuse: to dumpi" "$PT" convert reuse.txt -o reuse.meta
ok "reuse: from dumpi" "$PT" convert reuse.meta -o reuse.ptf
"$PT" dump reuse.ptf >reuse.out
h1=$(grep -m1 'def io_handle .*name="a.dat"' reuse.out | sed 's/.* id=\([0-9]*\) .*/\1/')
h2=$(grep -m1 'def io_handle .*name="b.dat"' reuse.out | sed 's/.* id=\([0-9]*\) .*/\1/')
n1=$(grep -c " io_begin handle=$h1 " reuse.out)
n2=$(grep -c " io_begin handle=$h2 " reuse.out)
if [ -n "$h1" ] && [ -n "$h2" ] && [ "$h1" != "$h2" ] && [ "$n1" = 1 ] && [ "$n2" = 1 ]; then
  t_pass "reuse: a handle per open"
else
  t_fail "reuse: a handle per open" "a.dat $h1 ($n1), b.dat $h2 ($n2): $(grep -E 'io_handle|io_begin' reuse.out | head -4 | tr '\n' ' ')"
fi
t_done
