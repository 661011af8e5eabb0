#!/bin/sh
# OTF2 records without a model kind (RMA, thread locks and tasks, calling
# contexts and samples, I/O handle operations, non-blocking collectives,
# communicator creation, OTF2 1.x OpenMP records) and the definitions they
# use (RmaWin, SourceCodeLocation, CallingContext, InterruptGenerator),
# with the definitions that attach to others (paradigm, I/O paradigm, file
# and calling context properties, system tree domains, pre-created handle
# states, callpaths and their parameters, Cartesian topologies):
# an archive written with libotf2 by tests/otf2/records.c goes
# OTF2 -> PTF -> text -> PTF -> OTF2, and otf2-print of the result equals
# otf2-print of the original (events in order, definitions up to ids).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
command -v otf2-print >/dev/null 2>&1 ||
  { t_fail setup "otf2-print missing (scripts/install-deps.sh installs otf2-tools)"; t_done; }
${CC:-cc} -std=c11 -o gen "$SRC/tests/otf2/records.c" -lotf2 2>gen.err ||
  { t_fail setup "cannot build tests/otf2/records.c: $(head -c 300 gen.err)"; t_done; }
ok generate ./gen arch || t_done

norm_events() { sed -e 's/ <[0-9][0-9]*>//g'; }
norm_defs() {
  sed -e 's/ <[0-9][0-9]*>//g' -e 's/^\([A-Z_][A-Z_]*\)  *[0-9][0-9]*  /\1  /' |
    LC_ALL=C sort
}

ok to_ptf "$PT" -q convert arch/traces.otf2 -o r.ptf || t_done
ok to_text "$PT" dump r.ptf -o r.txt || t_done
ok text_to_ptf "$PT" -q convert r.txt -o r2.ptf || t_done
ok to_otf2 "$PT" -q convert r2.ptf -o r.otf2 || t_done

# otf2-print warns about the wide topology's non-contiguous dimension ids
# in the original too: the result must warn the same, nothing more
otf2-print arch/traces.otf2 2>want.err | norm_events >want.txt
otf2-print r.otf2 2>print.err | norm_events >got.txt
n=$(grep -c '^[A-Z_]* *[01]  ' want.txt)
[ "$n" -gt 90 ] && t_pass "records_written_$n" ||
  t_fail records_written "only $n event lines in the original"
cmp -s want.err print.err && cmp -s want.txt got.txt && t_pass events_equal ||
  t_fail events_equal "$(head -c 200 print.err) $(diff want.txt got.txt | head -6)"
for r in RMA_PUT RMA_ATOMIC THREAD_ACQUIRE_LOCK THREAD_TASK_SWITCH \
         CALLING_CONTEXT_SAMPLE IO_SEEK IO_DUPLICATE_HANDLE \
         NON_BLOCKING_COLLECTIVE_COMPLETE COMM_DESTROY OMP_FORK OMP_JOIN; do
  grep -q "^$r " got.txt && t_pass "kept_$r" || t_fail "kept_$r" "not in the result"
done
grep -q 'IO_SEEK .*-64' got.txt && t_pass seek_negative_offset ||
  t_fail seek_negative_offset "$(grep IO_SEEK got.txt | head -1)"

otf2-print -G arch/traces.otf2 2>want.err | norm_defs >want.txt
otf2-print -G r.otf2 2>print.err | norm_defs >got.txt
cmp -s want.err print.err && cmp -s want.txt got.txt && t_pass defs_equal ||
  t_fail defs_equal "$(head -c 200 print.err) $(diff want.txt got.txt | head -6)"
grep -q 'CALLING_CONTEXT .*Parent: "main@records.c:42"' got.txt &&
  t_pass calling_context_parent ||
  t_fail calling_context_parent "$(grep CALLING_CONTEXT got.txt)"

# CallingContextEnter / Leave (Score-P with unwinding writes them in place
# of Enter / Leave) are the enter and leave of the context's region, so
# statistics see them (each rank: main, and inside it the context of main
# entered and left: 2 visits; before, marks: 1 visit each), and go back
# as themselves (events_equal above)
"$PT" stats --csv r.ptf | grep '^region,' >cc.csv
grep -q '^region,0,"main",0,4,' cc.csv && t_pass calling_context_visits ||
  t_fail calling_context_visits "$(cat cc.csv)"
grep -q '^event 1026 0 enter region=0 {' r.txt && t_pass calling_context_enter ||
  t_fail calling_context_enter "$(grep '^event 1026 ' r.txt)"

# The PTF archive is valid and the records are readable as marks; the
# message on the inter-communicator is matched (peers from the remote group)
ok check_ptf "$PT" check r.ptf >check.out
grep -q ' 1 messages matched' check.out && t_pass intercomm_message_matched ||
  t_fail intercomm_message_matched "$("$PT" check r.ptf 2>&1 | tail -2)"
grep -q 'otf2:RmaWaitChange' r.txt && t_pass text_names_record ||
  t_fail text_names_record "no otf2:RmaWaitChange label in the text form"
# RmaPut, RmaGet and RmaAtomic are model events (RMA_*), with the target
# as a COMM_WORLD rank, the window's communicator and the bytes, which
# stats counts (before, marks: no bytes anywhere)
grep -q '^event 1010 0 rma_put window=1 target=1 comm=0 bytes=4096 matching=100$' r.txt &&
  grep -q '^event 1011 0 rma_get window=0 target=1 comm=0 bytes=512 matching=200$' r.txt &&
  grep -q '^event 1012 0 rma_atomic window=0 target=1 comm=0 type=5 sent=8 received=8 matching=300$' r.txt &&
  t_pass rma_model_events ||
  t_fail rma_model_events "$(grep -E 'rma_|otf2:Rma(Put|Get|Atomic)' r.txt | head -4)"
# the matrix: 0 -> 1 rank 0's put (4096) and atomic operand (8), rank 1's
# get (512) and atomic result (8) from 0, and the 16-byte message
"$PT" stats --csv r.ptf >r.csv
grep -q '^message,0,1,0,5,4640,' r.csv && t_pass rma_matrix ||
  t_fail rma_matrix "$(grep '^message' r.csv)"
t_done
