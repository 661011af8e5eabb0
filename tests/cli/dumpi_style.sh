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
# Arguments the recorder names as the MPI standard does and DUMPI
# otherwise: MPI_File_set_view's etype and disp are DUMPI's hosttype and
# offset (etype was printed as MPI_DATATYPE_ERROR)
cat >view.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 paradigm=3 name="MPI_File_set_view"
def attribute id=1 type=1 name="etype"
def attribute id=2 type=1 name="disp"
event 100 0 enter region=1 {1=i:9 2=i:128}
event 110 0 leave region=1
TXT
"$PT" dump --style dumpi view.txt >view.out 2>&1 &&
  grep -q 'MPI_Datatype hosttype=9 (MPI_INT)' view.out && grep -q 'int64_t offset=128' view.out &&
  t_pass dumpi_set_view_names || t_fail dumpi_set_view_names "$(cat view.out)"
# calls after 2^32 s, where DUMPI's seconds wrap, are said
cat >farm.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 paradigm=3 name="MPI_Barrier"
event 5000000000 0 enter region=1
event 5000000001 0 leave region=1
TXT
"$PT" convert farm.txt -o farm.meta >farm.out 2>&1 && grep -q "1 call after 2^32 s" farm.out &&
  t_pass dumpi_far_times_said || t_fail dumpi_far_times_said "$(cat farm.out)"
# a failed write names the output and the reason (before: "DUMPI writer:
# input/output error")
if [ -w /dev/full ]; then
  "$PT" -q generate -o wf.ptf --locations 2 --events 2000 --seed 1 ||
    t_fail dumpi_style_full "generate failed"
  fails_cleanly dumpi_style_full_stdout 1 \
    '^paratrace dump: stdout: write failed: No space left on device$' \
    sh -c 'exec "$0" dump --style dumpi wf.ptf >/dev/full' "$PT"
  fails_cleanly dumpi_ascii_full_convert 1 \
    '^paratrace convert: stdout: write failed: No space left on device$' \
    sh -c 'exec "$0" -q convert --to dumpi-ascii wf.ptf -o - >/dev/full' "$PT"
fi
t_done
