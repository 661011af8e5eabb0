#!/bin/sh
# A PICL record kept in a mark (here a statistics record the reader cannot
# regenerate exactly) through OTF 1.x and back to PICL.  A mark read from
# OTF always has a text (MS ... V""), and the PICL writer took that empty
# text for character data: it wrote "-101 E t p q 0 "%d%lf"" -- ndata 0,
# the descriptor, no values -- which PICL readers (ours: "data after a
# record with 0 data fields") reject.  Found converting VampirTrace 5.4's
# WRF trace (github.com/vasily-pashkov/otf-vis, otf_traces/wrf/wrf.otf,
# commit 3b218ce) to PICL, to OTF and to PICL again.
. "$(dirname "$0")/common.inc"

printf -- '%s\n' '-3 -901 0.000000 0 0 0' '-3 -11 0.100000 0 0 0' \
  '-4 -11 0.200000 0 0 0' '-4 -901 1.000000 0 0 0' \
  '-101 -1 1.000000 0 0 2 "%d%lf" -11 0.0000577 -901 1.0000001' >k.trf
ok to_otf "$PT" convert k.trf -o k.otf
ok to_picl "$PT" convert k.otf -o k2.trf
if grep -Eq '^-101 [0-9]+ 1\.000000 0 0 2 "%d%lf" -11 0\.0000577 -901 1\.0000001$' k2.trf
then t_pass "the kept record comes back with its values"
else t_fail "the kept record comes back with its values" "$(grep -- '^-101' k2.trf)"; fi
ok check "$PT" check k2.trf >/dev/null
t_done
