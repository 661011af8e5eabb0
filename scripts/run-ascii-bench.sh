#!/bin/sh
# ASCII parse speed: a synthetic trace (paratrace generate) written as PICL,
# plain OTF 1.x and zlib OTF (the real library's otfcompress, one .z per
# stream file), read by paratrace-ascii-bench with our readers and, for OTF,
# the real OTF library.  Called by `make bench` as
#   scripts/run-ascii-bench.sh BUILD
# Environment: ASCII_BENCH_LOCATIONS (4), ASCII_BENCH_EVENTS per location
# (1000000), ASCII_BENCH_REPEAT (3), ASCII_BENCH_CPU (0: both readers run
# pinned to this CPU with taskset, so they are compared on the same core;
# "none" to not pin).  Prints one JSON object per reading.
set -eu
BUILD=${1:?usage: run-ascii-bench.sh BUILD}
PT=$BUILD/bin/paratrace
BIN=$BUILD/bin/paratrace-ascii-bench
for b in "$PT" "$BIN"; do
  [ -x "$b" ] || { echo "run-ascii-bench: $b not found (make BUILD=$BUILD $b)" >&2; exit 1; }
done
command -v otfcompress >/dev/null || { echo "run-ascii-bench: otfcompress missing (make deps)" >&2; exit 1; }
P=${ASCII_BENCH_LOCATIONS:-4}
N=${ASCII_BENCH_EVENTS:-1000000}
K=${ASCII_BENCH_REPEAT:-3}
D=$(mktemp -d "${TMPDIR:-/tmp}/pt-ascii-bench.XXXXXX")
trap 'rm -rf "$D"' EXIT
"$PT" generate -q -o "$D/g.ptf" --locations "$P" --events "$N"
"$PT" convert -q "$D/g.ptf" -o "$D/g.trf"
mkdir "$D/plain" "$D/z"
"$PT" convert -q "$D/g.ptf" -o "$D/plain/g.otf"
cp "$D/plain"/g.* "$D/z/"
(cd "$D/z" && for f in g.*; do [ "$f" = g.otf ] || otfcompress "$f" >/dev/null; done)
plain=$(cat "$D/plain"/g.* | wc -c)
CPU=${ASCII_BENCH_CPU:-0}
PIN=
if [ "$CPU" != none ] && command -v taskset >/dev/null; then PIN="taskset -c $CPU"; fi
$PIN "$BIN" --repeat "$K" "$D/g.trf" "$D/plain/g.otf"
$PIN "$BIN" --repeat "$K" --plain-bytes "$plain" "$D/z/g.otf"
