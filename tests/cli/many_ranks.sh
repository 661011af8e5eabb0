#!/bin/sh
# A trace of 1,000 ranks under a limit of 64 open files: conversions to and
# from the one-file-per-rank formats (DUMPI, OTF) and statistics on them
# work, because the native reader keeps at most a quarter of the limit
# open and the writers open a rank's file only to append to it.
. "$(dirname "$0")/common.inc"

ok generate "$PT" -q generate -o k.ptf --locations 1000 --events 40 --msg-every 10 --seed 5
(
  ulimit -n 64 || exit 3
  "$PT" -q convert k.ptf -o k.meta || exit 1
  "$PT" -q convert k.meta -o k2.ptf || exit 1
  "$PT" -q convert k.ptf -o k.otf || exit 1
  "$PT" -q check k.otf >k.otf.check || exit 1
  "$PT" -q stats --csv k.otf >k.otf.csv || exit 1
  "$PT" -q check k2.ptf >k2.check || exit 1
) >many.out 2>&1
rc=$?
if [ $rc = 3 ]; then
  t_pass "ulimit not available here: skipped"
elif [ $rc = 0 ]; then
  t_pass "1000 ranks under ulimit -n 64: DUMPI and OTF both ways"
else
  t_fail "1000 ranks under ulimit -n 64: DUMPI and OTF both ways" "$(tail -3 many.out)"
fi
grep -q 'on 1000 locations' k.otf.check 2>/dev/null && grep -q 'on 1000 locations' k2.check 2>/dev/null &&
  t_pass "every rank read back" ||
  t_fail "every rank read back" "$(cat k.otf.check k2.check 2>/dev/null | tail -2)"
# nothing left behind but the outputs
left=$(ls | grep -c 'tmp-')
[ "$left" = 0 ] && t_pass "no temporaries left" || t_fail "no temporaries left" "$left"

t_done
