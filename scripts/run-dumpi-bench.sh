#!/bin/sh
# DUMPI and OTF2 conversion figures (make bench):
#   1. examples/halo.c (per iteration Irecv x2, Isend x2, Waitall; an
#      Allreduce every 10) on R ranks, recorded with libparatrace-mpi.so at
#      level 3 (every argument and status, as SST DUMPI records them);
#   2. written as a DUMPI trace set by paratrace (byte-compatible with what
#      SST DUMPI writes: tests/cli/dumpi_*.sh), then read back into the
#      model by paratrace-ascii-bench (pt_source: every call becomes its
#      enter/leave, messages, requests and arguments), pinned to one CPU,
#      median of K: MPI calls per second, through pt_source_next (each
#      item copied out), through pt_source_next_batch (items in place) and
#      in runs (pt_source_opts.runs: a rank's calls without the merge);
#   3. DUMPI -> PTF: bytes of the DUMPI set and of the PTF archive;
#   4. that PTF archive -> OTF2, then OTF2 -> PTF (`paratrace convert`)
#      against `otf2-print > /dev/null` on the same archive, median of K.
# Prints a Markdown table.  Usage: scripts/run-dumpi-bench.sh BUILD [ITERS] [RANKS]
set -eu
B=${1:-build}
N=${2:-100000}
R=${3:-4}
K=${DUMPI_BENCH_REPEAT:-5}
CPU=${DUMPI_BENCH_CPU:-0}
PT=$B/bin/paratrace
AB=$B/bin/paratrace-ascii-bench
SO=$B/lib/libparatrace-mpi.so
for f in "$PT" "$AB" "$SO"; do
  [ -e "$f" ] || { echo "run-dumpi-bench: $f missing" >&2; exit 2; }
done
PIN=
command -v taskset >/dev/null && PIN="taskset -c $CPU"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mpicc -O2 -o "$W/halo" examples/halo.c -lm
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun --allow-run-as-root --oversubscribe -np "$R" -x LD_PRELOAD="$SO" \
  -x PARATRACE_OUTPUT="$W/h.ptf" -x PARATRACE_LEVEL=3 "$W/halo" "$N" 16 >/dev/null
"$PT" -q convert "$W/h.ptf" -o "$W/h.meta"
"$PT" -q convert "$W/h.meta" -o "$W/d.ptf"
"$PT" -q convert "$W/d.ptf" -o "$W/h.otf2"

now() { date +%s.%N; }
med() { # command... -> median seconds of K runs
  i=0
  while [ $i -lt "$K" ]; do
    a=$(now); "$@" >/dev/null 2>&1; b=$(now)
    echo "$a $b" | awk '{printf "%.4f\n", $2 - $1}'
    i=$((i + 1))
  done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
js() { sed -n "s/.*\"$1\":\\([0-9.]*\\).*/\\1/p"; }

line=$($PIN "$AB" --repeat "$K" "$W/h.meta" | head -1)
calls=$(echo "$line" | js calls)
cps=$(echo "$line" | js calls_per_s)
rs=$(echo "$line" | js median_s)
line=$($PIN "$AB" --batch --repeat "$K" "$W/h.meta" | head -1)
bcps=$(echo "$line" | js calls_per_s)
brs=$(echo "$line" | js median_s)
line=$($PIN "$AB" --runs --repeat "$K" "$W/h.meta" | head -1)
rcps=$(echo "$line" | js calls_per_s)
rrs=$(echo "$line" | js median_s)
dbytes=$(cat "$W"/h*.meta "$W"/h-*.bin | wc -c)
pbytes=$(du -sb "$W/d.ptf" | cut -f1)
obytes=$(du -sb "$W/h.otf2" "$W/h.def" "$W/h" 2>/dev/null | awk '{s += $1} END {print s}')
tc=$(med $PIN "$PT" -q convert --force "$W/h.otf2" -o "$W/e.ptf")
tp=$(med $PIN otf2-print "$W/h.otf2")
echo "| what | paratrace | reference | ratio |"
echo "|---|---:|---:|---:|"
echo "$calls $rs $cps" | awk '{printf "| DUMPI read into the model: %d MPI calls, s (calls/s) | %.3f (%.1f M/s) | | |\n", $1, $2, $3 / 1e6}'
echo "$calls $brs $bcps" | awk '{printf "| the same through pt_source_next_batch | %.3f (%.1f M/s) | | |\n", $2, $3 / 1e6}'
echo "$calls $rrs $rcps" | awk '{printf "| the same in runs (pt_source_opts.runs: each rank in order, as SST DUMPI reads a file) | %.3f (%.1f M/s) | | |\n", $2, $3 / 1e6}'
echo "$dbytes $pbytes" | awk '{printf "| DUMPI -> PTF, bytes | %d (PTF) | %d (DUMPI) | %.1fx smaller |\n", $2, $1, $1 / $2}'
echo "$tc $tp $obytes" | awk '{printf "| OTF2 (%.1f MB) -> PTF, s | %.3f (convert) | %.3f (otf2-print > /dev/null) | %.1fx |\n", $3 / 1e6, $1, $2, $2 / $1}'
