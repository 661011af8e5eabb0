#!/bin/sh
# `dump --style dumpi` prints every rank of every DUMPI test vector exactly
# as SST DUMPI's dumpi2ascii did (the *.bin.txt references), both from the
# DUMPI files directly and after DUMPI -> PTF.
. "$(dirname "$0")/common.inc"
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
[ -d "$TD/dumpi" ] || { echo "PASS dumpi_style_skipped_no_testdata"; t_done; }
for meta in "$TD"/dumpi/*/*.meta; do
  case=$(basename "$(dirname "$meta")")
  "$PT" -q convert "$meta" -o "$case.ptf" || { t_fail "$case" "convert"; continue; }
  for ref in "$(dirname "$meta")"/*.bin.txt; do
    rank=$(echo "$ref" | sed 's/.*-0*\([0-9][0-9]*\)\.bin\.txt$/\1/')
    for src in "$meta" "$case.ptf"; do
      tag=$case-r$rank-$(basename "$src" | sed 's/.*\.//')
      "$PT" -q dump --style dumpi --locations "$rank" "$src" >"$tag.txt" 2>"$tag.err" &&
        cmp -s "$tag.txt" "$ref" && t_pass "$tag" ||
        t_fail "$tag" "$(diff "$tag.txt" "$ref" | head -3; head -c 200 "$tag.err")"
    done
  done
  # all ranks together: each rank's calls exactly as its reference, under
  # a "# rank R" line wherever the rank changes
  nref=$(ls "$(dirname "$meta")"/*.bin.txt | wc -l)
  "$PT" -q dump --style dumpi "$meta" >"$case-all.txt" 2>/dev/null
  if [ "$nref" -gt 1 ]; then
    ok=1
    for ref in "$(dirname "$meta")"/*.bin.txt; do
      rank=$(echo "$ref" | sed 's/.*-0*\([0-9][0-9]*\)\.bin\.txt$/\1/')
      awk -v r="# rank $rank" '/^# rank / {on = ($0 == r); next} on' \
        "$case-all.txt" >"$case-all-r$rank.txt"
      cmp -s "$case-all-r$rank.txt" "$ref" || ok=0
    done
    [ $ok = 1 ] && t_pass "$case-all-ranks-labelled" ||
      t_fail "$case-all-ranks-labelled" "$(head -3 "$case-all.txt")"
  elif grep -q '^# rank' "$case-all.txt"; then
    t_fail "$case-one-rank-unlabelled" "$(head -2 "$case-all.txt")"
  fi
done
t_done
