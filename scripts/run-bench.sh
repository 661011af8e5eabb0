#!/bin/sh
# Run the PTF vs OTF2 benchmark (default case + seek case) and print the
# results as Markdown tables.  Called by `make bench` as
#   scripts/run-bench.sh BUILD [extra paratrace-bench options]
# The JSON lines are kept in $BENCH_OUT (default BUILD/bench-results.jsonl).
# Set BENCH_ARGS to replace the default options (e.g. "--events 1000000").
#   scripts/run-bench.sh --table FILE   only print the tables of FILE
set -eu

status=0
if [ "${1:-}" = "--table" ]; then
  OUT=${2:?usage: run-bench.sh --table results.jsonl}
else
  BUILD=${1:-build}
  [ $# -gt 0 ] && shift
  BIN=$BUILD/bin/paratrace-bench
  OUT=${BENCH_OUT:-$BUILD/bench-results.jsonl}
  if [ ! -x "$BIN" ]; then
    echo "run-bench: $BIN not found; build it with: make BUILD=$BUILD $BIN" >&2
    exit 2
  fi
  # shellcheck disable=SC2086  # BENCH_ARGS is a word list on purpose
  "$BIN" ${BENCH_ARGS:---seek-case} "$@" >"$OUT" || status=$?
fi

awk '
function num(k) { return (k in f) ? f[k] + 0 : 0 }
function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "n/a" }
{
  delete f
  line = $0
  gsub(/^[ \t]*\{|\}[ \t]*$/, "", line)
  n = split(line, kv, ",")
  for (i = 1; i <= n; i++) {
    p = index(kv[i], ":")
    k = substr(kv[i], 1, p - 1); v = substr(kv[i], p + 1)
    gsub(/"/, "", k); gsub(/"/, "", v)
    f[k] = v
  }
  if (!("case" in f)) next
  thr = ("threads" in f) ? num("threads") : 1
  printf "\n### %s: %d locations x %d events = %d events (%s cache, %d writer thread%s, median of %d)\n\n", \
    f["case"], num("locations"), num("events"), num("total_events"), f["cache"], thr, thr == 1 ? "" : "s", num("repeat")
  print "| | PTF | OTF2 | OTF2 / PTF |"
  print "|---|---:|---:|---:|"
  printf "| write, s (generator alone: %.2f s) | %.2f | %.2f | %s |\n", \
    num("gen_s"), num("ptf_write_s"), num("otf2_write_s"), ratio(num("otf2_write_s"), num("ptf_write_s"))
  printf "| write net of generator, s | %.2f | %.2f | %s |\n", \
    num("ptf_write_net_s"), num("otf2_write_net_s"), ratio(num("otf2_write_net_s"), num("ptf_write_net_s"))
  if ("ptf_write_bg_net_s" in f)
    printf "| write net, 1 compression thread, s (CPU %.2f s) | %.2f | %.2f | %s |\n", \
      num("ptf_write_bg_cpu_s"), num("ptf_write_bg_net_s"), num("otf2_write_net_s"), ratio(num("otf2_write_net_s"), num("ptf_write_bg_net_s"))
  printf "| read all, merged in time order, s | %.2f | %.2f | %s |\n", \
    num("ptf_read_s"), num("otf2_read_s"), ratio(num("otf2_read_s"), num("ptf_read_s"))
  if ("ptf_read_bg_s" in f)
    printf "| read all, 1 prefetching thread, s (CPU %.2f s) | %.2f | %.2f | %s |\n", \
      num("ptf_read_bg_cpu_s"), num("ptf_read_bg_s"), num("otf2_read_s"), ratio(num("otf2_read_s"), num("ptf_read_bg_s"))
  printf "| read rate, M events/s | %.1f | %.1f | |\n", num("ptf_read_mev_s"), num("otf2_read_mev_s")
  printf "| archive size, MB | %.1f | %.1f | %s |\n", \
    num("ptf_bytes") / 1e6, num("otf2_bytes") / 1e6, ratio(num("otf2_bytes"), num("ptf_bytes"))
  printf "| bytes per event | %.2f | %.2f | |\n", num("ptf_bytes_per_event"), num("otf2_bytes_per_event")
  printf "| read peak RSS, MiB | %.1f | %.1f | %s |\n", \
    num("ptf_read_rss_kb") / 1024, num("otf2_read_rss_kb") / 1024, ratio(num("otf2_read_rss_kb"), num("ptf_read_rss_kb"))
  printf "| write peak RSS, MiB | %.1f | %.1f | %s |\n", \
    num("ptf_write_rss_kb") / 1024, num("otf2_write_rss_kb") / 1024, ratio(num("otf2_write_rss_kb"), num("ptf_write_rss_kb"))
  printf "| seek + first event, median of %d, ms | %.3f (max %.3f) | no index | |\n", \
    num("seeks"), num("ptf_seek_ms"), num("ptf_seek_max_ms")
  printf "| checksums agree | %s | | |\n", f["ok"]
}' "$OUT"

exit $status
