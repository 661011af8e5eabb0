#!/bin/sh
# make demo: the main job on a bundled example.  Generates a synthetic
# 4-rank trace into the native archive, shows what is in it, checks it,
# prints its statistics, converts it to the text form and back, and prints
# the head of the dump.
set -eu
B=${1:-build}
PT="$B/bin/paratrace"
OUT="$B/demo"
rm -rf "$OUT"; mkdir -p "$OUT"

run() { echo; echo "\$ $*"; "$@"; }

run "$PT" generate -o "$OUT/synthetic.ptf" --locations 4 --events 250000 --seed 42
run "$PT" info "$OUT/synthetic.ptf"
run "$PT" check "$OUT/synthetic.ptf"
run "$PT" stats "$OUT/synthetic.ptf"
run "$PT" convert "$OUT/synthetic.ptf" -o "$OUT/synthetic.txt"
run "$PT" convert "$OUT/synthetic.txt" -o "$OUT/roundtrip.ptf"
"$PT" dump "$OUT/synthetic.ptf" -o "$OUT/a.txt"
"$PT" dump "$OUT/roundtrip.ptf" -o "$OUT/b.txt"
if cmp -s "$OUT/a.txt" "$OUT/b.txt"; then
  echo; echo "native -> text -> native: identical dumps"
else
  echo "native -> text -> native: dumps DIFFER" >&2; exit 1
fi
echo; echo "\$ $PT dump $OUT/synthetic.ptf --head 25"
"$PT" dump "$OUT/synthetic.ptf" --head 25

echo
echo "Outputs are in $OUT/:"
echo "  synthetic.ptf   the native archive (see doc/format.md)"
echo "  synthetic.txt   its lossless text form (see doc/text-format.md)"
echo "  roundtrip.ptf   the text form converted back"
