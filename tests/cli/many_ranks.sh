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
# summaries and snapshots of 1000 streams under the same limit (each
# block is appended by open/write/close); a window from them equals a scan
cp -R k.ptf ks.ptf
(
  ulimit -n 64 || exit 3
  "$PT" -q summarize --every 20000 ks.ptf || exit 1
  "$PT" -q stats --csv --require-summaries --from 40000 --to 100000 ks.ptf >ks1.csv || exit 1
  "$PT" -q stats --csv --no-summaries --from 40000 --to 100000 ks.ptf >ks2.csv || exit 1
) >ks.out 2>&1
rc=$?
if [ $rc = 3 ]; then
  t_pass "ulimit not available here: skipped"
elif [ $rc = 0 ] && [ -f ks.ptf/s999.sums ] && [ -f ks.ptf/s999.snaps ]; then
  t_pass "summarize 1000 streams under ulimit -n 64"
else
  t_fail "summarize 1000 streams under ulimit -n 64" "$(tail -3 ks.out)"
fi
grep -v -e '^totals' -e '^section' -e '^$' ks1.csv >ks1.n 2>/dev/null
grep -v -e '^totals' -e '^section' -e '^$' ks2.csv >ks2.n 2>/dev/null
[ -s ks2.n ] && cmp -s ks1.n ks2.n && t_pass "1000-stream window from summaries" ||
  t_fail "1000-stream window from summaries" "$(diff ks1.n ks2.n 2>&1 | head -4)"
# nothing left behind but the outputs
left=$(ls | grep -c 'tmp-')
[ "$left" = 0 ] && t_pass "no temporaries left" || t_fail "no temporaries left" "$left"

t_done
