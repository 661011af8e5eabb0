#!/bin/sh
# make fuzz: run every fuzz target for SECONDS each, growing a scratch
# corpus seeded from tests/fuzz/corpus (the committed corpus is not edited).
set -eu
dir=$1; secs=${2:-300}
for fz in "$dir"/fuzz_*; do
  n=$(basename "$fz"); c=tests/fuzz/corpus/${n#fuzz_}
  work=build-fuzz/corpus/${n#fuzz_}; mkdir -p "$work"
  echo "== $n for ${secs}s"
  "$fz" -max_total_time="$secs" -rss_limit_mb=2048 "$work" "$c"
done
