#!/bin/sh
# make demo: the main job on bundled examples.  Builds the example MPI
# programs (examples/), records the halo exchange with 4 ranks through
# `paratrace record`, shows what is in the archive, checks it and prints
# the top of its statistics; then the same for the master/worker example,
# and a synthetic trace converted to the text form and back.
set -eu
B=${1:-build}
PT="$B/bin/paratrace"
OUT="$B/demo"
rm -rf "$OUT"; mkdir -p "$OUT"

run() { echo; echo "\$ $*"; "$@"; }
MPIRUN="mpirun --allow-run-as-root --oversubscribe"

if command -v mpicc >/dev/null 2>&1 && [ -f "$B/lib/libparatrace-mpi.so" ]; then
  run mpicc -O2 -o "$OUT/halo" examples/halo.c -lm
  run mpicc -O2 -o "$OUT/master_worker" examples/master_worker.c
  run $MPIRUN -np 4 "$PT" record -o "$OUT/halo.ptf" -- "$OUT/halo" 2000 20000
  run "$PT" info "$OUT/halo.ptf"
  run "$PT" check "$OUT/halo.ptf"
  echo; echo "\$ $PT stats $OUT/halo.ptf | head -40"
  "$PT" stats "$OUT/halo.ptf" | head -40
  run "$PT" timeline "$OUT/halo.ptf" -o "$OUT/halo.html" --svg "$OUT/halo.svg"
  run $MPIRUN -np 4 "$PT" record -o "$OUT/master_worker.ptf" -- "$OUT/master_worker" 200
  echo; echo "\$ $PT stats $OUT/master_worker.ptf | sed -n '/^Messages/,\$p'"
  "$PT" stats "$OUT/master_worker.ptf" | sed -n '/^Messages/,$p'
else
  echo "demo: mpicc or $B/lib/libparatrace-mpi.so missing: MPI part skipped" >&2
fi

run "$PT" generate -o "$OUT/synthetic.ptf" --locations 4 --events 250000 --seed 42
run "$PT" convert "$OUT/synthetic.ptf" -o "$OUT/synthetic.txt"
run "$PT" convert "$OUT/synthetic.txt" -o "$OUT/roundtrip.ptf"
"$PT" dump "$OUT/synthetic.ptf" -o "$OUT/a.txt"
"$PT" dump "$OUT/roundtrip.ptf" -o "$OUT/b.txt"
if cmp -s "$OUT/a.txt" "$OUT/b.txt"; then
  echo; echo "native -> text -> native: identical dumps"
else
  echo "native -> text -> native: dumps DIFFER" >&2; exit 1
fi

echo
echo "Outputs are in $OUT/:"
echo "  halo.ptf            the recorded 4-rank halo exchange (native archive)"
echo "  halo.html           its timeline: open $OUT/halo.html in a browser"
echo "  halo.svg            the same drawing, static"
echo "  master_worker.ptf   the recorded master/worker run"
echo "  synthetic.ptf       a generated trace; synthetic.txt its text form"
