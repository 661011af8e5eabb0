#!/bin/sh
# Statistics speed (make bench): a generated archive of L locations x N
# events; `paratrace stats` over the whole trace (events per second), then
# windows of growing width with summaries (--require-summaries: only the
# summaries and the events at the window's edges are read) and without
# (--no-summaries: a scan up to the window's end).  Median of 3 runs,
# whole process.  Prints a Markdown table.
#   scripts/run-stats-bench.sh BUILD [L] [N]
set -eu
B=${1:-build}
L=${2:-4}
N=${3:-10000000}
PT=$B/bin/paratrace
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$PT" generate -q -o "$W/s.ptf" --locations "$L" --events "$N" --seed 7
"$PT" summarize -q --every 10ms "$W/s.ptf"
now() { date +%s.%N; }
med() { # command... -> median seconds of 3 runs
  for i in 1 2 3; do
    a=$(now); "$@" >/dev/null; b=$(now)
    echo "$a $b" | awk '{printf "%.4f\n", $2 - $1}'
  done | sort -n | sed -n 2p
}
cpu() { # command... -> median CPU seconds (user + system) of 3 runs
  for i in 1 2 3; do
    sh -c '"$@" >/dev/null; times' sh "$@" | tail -1 |
      awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] } print t }'
  done | sort -n | sed -n 2p
}
total=$((L * N))
t=$(med "$PT" stats -q --no-summaries "$W/s.ptf")
c=$(cpu "$PT" stats -q --no-summaries "$W/s.ptf")
echo "| what | seconds | rate |"
echo "|---|---:|---:|"
echo "| full scan, $total events | $t | $(echo "$total $t" | awk '{printf "%.1f M events/s", $1 / $2 / 1e6}') |"
echo "| full scan, CPU seconds (user + system, all threads) | $c | $(echo "$total $c" | awk '{printf "%.1f M events/s per core", $1 / $2 / 1e6}') |"
for w in 0.01 0.1 1 3; do
  to=$(echo "1 $w" | awk '{print $1 + $2}')
  ts=$(med "$PT" stats -q --require-summaries --from 1s --to "${to}s" "$W/s.ptf")
  tn=$(med "$PT" stats -q --no-summaries --from 1s --to "${to}s" "$W/s.ptf")
  rd=$("$PT" stats --require-summaries --from 1s --to "${to}s" "$W/s.ptf" |
       sed -n 's/.*(\([0-9]*\) events read).*/\1/p')
  echo "| window [1 s, $to s): with summaries ($rd events read) / full scan | $ts / $tn | |"
done
