#!/bin/sh
# Recorder overhead (make bench): bench/mpi/mpi_bench.c untraced and traced
# with libparatrace-mpi.so, side by side in one run, 5 alternating
# repetitions; prints the medians as a Markdown table:
#   ping-pong: 2 ranks, N round trips of 8 bytes (MPI_Send + MPI_Recv)
#   iprobe:    1 rank, M calls of MPI_Iprobe that never find a message
# ns/call added = traced - untraced loop time per MPI call (rank 0);
# bytes/call = archive size / MPI calls of the loop.
#   scripts/run-mpi-bench.sh BUILD [N] [M]
set -eu
B=${1:-build}
N=${2:-200000}
M=${3:-1000000}
SO=$B/lib/libparatrace-mpi.so
[ -f "$SO" ] || { echo "run-mpi-bench: $SO missing" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mpicc -O2 -o "$W/mb" bench/mpi/mpi_bench.c
RUN="mpirun --allow-run-as-root --oversubscribe"

one() { # case np calls level(- = untraced, p = profile mode) -> ns/call, bytes/call
  rm -rf "$W/t.ptf"
  if [ "$4" = - ]; then
    out=$($RUN -np "$2" "$W/mb" "$1" "$3")
  elif [ "$4" = p ]; then
    out=$($RUN -np "$2" -x LD_PRELOAD="$SO" -x PARATRACE_OUTPUT="$W/t.ptf" \
      -x PARATRACE_MODE=profile "$W/mb" "$1" "$3")
  else
    out=$($RUN -np "$2" -x LD_PRELOAD="$SO" -x PARATRACE_OUTPUT="$W/t.ptf" \
      -x PARATRACE_LEVEL="$4" "$W/mb" "$1" "$3")
  fi
  ns=$(printf '%s\n' "$out" | sed -n 's/.*ns_per_call=\([0-9.]*\).*/\1/p')
  calls=$(printf '%s\n' "$out" | sed -n 's/.*calls=\([0-9]*\).*/\1/p')
  bytes=0
  [ -d "$W/t.ptf" ] && bytes=$(du -sb "$W/t.ptf" | cut -f1)
  echo "$ns $bytes $calls"
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

echo "| case | MPI calls | untraced ns/call | traced ns/call | added ns/call | bytes/call on disk |"
echo "|---|---:|---:|---:|---:|---:|"
for c in "pingpong 2 $N" "iprobe 1 $M"; do
  set -- $c
  for lv in 3 1 p; do
    : >"$W/u"; : >"$W/t"; : >"$W/b"
    for i in 1 2 3 4 5; do
      one "$1" "$2" "$3" - | cut -d' ' -f1 >>"$W/u"
      r=$(one "$1" "$2" "$3" "$lv")
      echo "$r" | cut -d' ' -f1 >>"$W/t"
      echo "$r" | awk '{ printf "%.2f\n", $2 / ($3 * ($1 > 0 ? 1 : 1)) }' >>"$W/b"
    done
    u=$(median <"$W/u"); t=$(median <"$W/t"); b=$(median <"$W/b")
    # ping-pong: both ranks write, and rank 0 made 2N calls: per call of
    # the whole run = archive / (2 ranks x 2N)
    if [ "$1" = pingpong ]; then b=$(echo "$b" | awk '{printf "%.2f", $1 / 2}'); fi
    case $lv in
      3) name="$1 (level 3, full arguments + statuses)" ;;
      1) name="$1 (level 1, timing + messages)" ;;
      p) name="$1 (profile mode)" ;;
    esac
    echo "| $name | $3 x $( [ "$1" = pingpong ] && echo 2 || echo 1 ) | $u | $t | $(echo "$t $u" | awk '{printf "%.1f", $1 - $2}') | $b |"
  done
done
