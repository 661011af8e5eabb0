#!/bin/sh
# Reading a sendbegin (-27) pair without its data and a recvbegin (-57)
# pair without its request.  The reader made an isend of no peer, tag or
# bytes and an irecv post of request "none" of them: `check` noted
# requests never completed and `stats` counted sends of 0 bytes.  Our own
# PICL writer wrote such pairs for an OTF 1.x trace's MPI_Isend / MPI_Irecv
# (VampirTrace 5.4's WRF trace, github.com/vasily-pashkov/otf-vis,
# otf_traces/wrf/wrf.otf, commit 3b218ce; the writer is fixed too, see
# picl_otf_nonblocking.sh), and other files may have them.  They are now
# read as a wait that completes nothing already was: the call, without a
# derived event.  A -27 entry with its data still gives its isend.
. "$(dirname "$0")/common.inc"

printf -- '%s\n' '-3 -901 0.000000 0 0 0' '-3 -57 0.100000 0 0 0' \
  '-4 -57 0.110000 0 0 0' '-3 -27 0.200000 0 0 0' '-4 -27 0.210000 0 0 0' \
  '-3 -27 0.300000 0 0 4 2 8 1 1 -1' '-4 -27 0.310000 0 0 1 2 7' \
  '-4 -901 1.000000 0 0 0' >e.trf
ok dump "$PT" dump e.trf >d.txt
n=$(grep -c ' isend ' d.txt); m=$(grep -c ' irecv_request ' d.txt)
if [ "$n" -eq 1 ] && [ "$m" -eq 0 ]; then t_pass "one isend, no irecv post"
else t_fail "one isend, no irecv post" "$(grep -E ' (isend|irecv_request) ' d.txt)"; fi
if grep -q ' isend callsite=0 peer=1 comm=none tag=1 bytes=8 request=7' d.txt
then t_pass "the isend with data"; else t_fail "the isend with data" "$(grep ' isend ' d.txt)"; fi
# (its send has no receiver here: check finds that problem, and notes the
# one request of the trace, the isend's, as pending)
"$PT" check e.trf >c.txt 2>&1
if grep -q 'note: 1 non-blocking request never completed.*isend of request 7' c.txt &&
   grep -q '1 problem in 9 events: 1 unmatched_send' c.txt; then
  t_pass "only the real request pending"
else t_fail "only the real request pending" "$(cat c.txt)"; fi
ok to_picl "$PT" convert e.trf -o e2.trf
if cmp -s e.trf e2.trf; then t_pass "PICL -> PICL unchanged"
else t_fail "PICL -> PICL unchanged" "$(diff e.trf e2.trf)"; fi
t_done
