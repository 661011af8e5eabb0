#!/bin/sh
# The profile and the trace of one run (PARATRACE_MODE=both) count an
# MPI_Sendrecv(_replace) alike: tests/mpi/rotate.c makes the send-receives
# of Quantum ESPRESSO's pw.x (a ring rotation with MPI_Sendrecv_replace,
# one to the rank itself, MPI_PROC_NULL at the ends, a message shorter
# than the receive buffer).  The profile's statement counted the bytes
# sent only, with one destination, while its collectives count what they
# sent and received and `stats` gives a call site both (pw.x: 206.2 KiB
# sent and 206.2 KiB received at one call site, 206.2K B in the profile).
# Now: the statement's bytes are both, with a destination where it sent
# ("->") and one where it received from ("<-").
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
. "$SRC/tests/cli/mpi.inc"
ok "build rotate" mpicc $SANF -g -O1 -o rotate "$SRC/tests/mpi/rotate.c"

for np in 3 4; do
  rm -rf r$np.ptf
  if ! $RUN -np $np "$PT" record --mode both -o r$np.ptf -- ./rotate 5 \
       >r$np.out 2>r$np.err || [ "$(grep -c '^done' r$np.out)" != $np ]; then
    t_fail "np$np rotate run" "$(tail -3 r$np.err)"
    continue
  fi
  # stats: function, call site, calls, bytes sent + received
  "$PT" stats r$np.ptf --csv 2>/dev/null |
    awk -F, '$1 == "mpi_callsite" && $3 ~ /Sendrecv/ {
               gsub(/"/, ""); print $3 "|" $5 "|" $6 "|" $11 + $15 }' |
    sort >stats$np.txt
  # profile: the same per statement, and the bytes of its destinations
  "$PT" profile r$np.ptf --csv 2>/dev/null |
    awk -F, '$2 == "statement" { s = ($3 ~ /Sendrecv/) ? $3 "|" $4 : ""
                                 if (s != "") { c[s] += $5; b[s] += $8 }
                                 next }
             $2 == "destination" && s != "" { d[s] += $8
                                              if ($3 == "<-") from[s]++
                                              else to[s]++
                                              next }
             { s = "" }
             END { for (k in c) print k "|" c[k] "|" b[k] "|" d[k] "|" \
                                      (from[k] > 0) (to[k] > 0) }' |
    sort >prof$np.txt
  cut -d'|' -f1-4 prof$np.txt >prof$np.cmp
  if [ "$(wc -l <stats$np.txt)" = 4 ] && cmp -s stats$np.txt prof$np.cmp; then
    t_pass "np$np sendrecv: profile bytes = sent + received, as stats ($(wc -l <stats$np.txt) statements)"
  else
    t_fail "np$np sendrecv: profile bytes = sent + received, as stats" \
      "stats: $(cat stats$np.txt) profile: $(cat prof$np.txt)"
  fi
  # destinations both ways, adding up to the statement
  if [ "$(awk -F'|' '$4 == $5 && $6 == "11"' prof$np.txt | wc -l)" = 4 ]; then
    t_pass "np$np sendrecv: destinations '->' and '<-' add up to the statement"
  else
    t_fail "np$np sendrecv: destinations both ways" "$(cat prof$np.txt)"
  fi
done
t_done
