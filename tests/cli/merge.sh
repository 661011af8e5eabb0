#!/bin/sh
# merge 4 -> 2 streams (and 4 -> 1, 4 -> 3) keeps every event: the dump is
# identical, since the reader merges streams in global time order.
. "$(dirname "$0")/common.inc"

ok generate "$PT" -q generate -o four.ptf --locations 4 --events 2500 --seed 3
ok dump4 "$PT" dump four.ptf >d4.txt
ok info4 "$PT" info four.ptf >i4.txt
grep -q '^streams *4$' i4.txt && t_pass four_streams ||
  t_fail four_streams "$(grep streams i4.txt)"

for m in 2 1 3; do
  ok merge_$m "$PT" -q merge four.ptf -o m$m.ptf --streams $m
  ok info_$m "$PT" info --json m$m.ptf >i$m.json
  grep -q "\"streams\": $m[,}]" i$m.json && t_pass streams_$m ||
    t_fail streams_$m "$(head -c 300 i$m.json)"
  ok dump_$m "$PT" dump m$m.ptf >d$m.txt
  # every event is kept: same events, in any order ...
  grep '^event ' d4.txt | sort >s4.txt
  grep '^event ' d$m.txt | sort >s$m.txt
  cmp -s s4.txt s$m.txt && t_pass same_events_$m ||
    t_fail same_events_$m "$(diff s4.txt s$m.txt | head -3)"
  # ... and the definitions too
  grep '^def' d4.txt | sort >e4.txt
  grep '^def' d$m.txt | sort >e$m.txt
  cmp -s e4.txt e$m.txt && t_pass same_defs_$m ||
    t_fail same_defs_$m "$(diff e4.txt e$m.txt | head -3)"
done
ok check_merged "$PT" -q check m2.ptf >c2.out

# merge reads any format: text -> 2 streams
ok to_text "$PT" -q convert four.ptf -o four.txt
ok merge_text "$PT" -q merge four.txt -o t2.ptf --streams 2
ok dump_t2 "$PT" dump t2.ptf >dt2.txt
grep '^event ' dt2.txt | sort | cmp -s - s4.txt && t_pass merge_from_text ||
  t_fail merge_from_text "events differ"

fails_cleanly merge_needs_streams 2 'streams' "$PT" merge four.ptf -o x.ptf
fails_cleanly merge_bad_streams 2 'stream count' "$PT" merge four.ptf -o x.ptf --streams 0
fails_cleanly merge_no_clobber 1 'exists' "$PT" merge four.ptf -o m2.ptf --streams 2
[ ! -e x.ptf ] && t_pass no_output_on_usage_error || t_fail no_output_on_usage_error "x.ptf exists"

# more streams asked for than there are locations: one each, and it says so
"$PT" generate -o m8.ptf --locations 8 --events 200 --seed 1 >/dev/null
"$PT" merge m8.ptf -o m8x.ptf --streams 20 2>m8x.err &&
  "$PT" info m8x.ptf | grep -q '^streams *8$' &&
  grep -q '20 streams asked for, 8 locations: 8 streams written' m8x.err &&
  t_pass merge_more_streams_than_locations ||
  t_fail merge_more_streams_than_locations "$(cat m8x.err; "$PT" info m8x.ptf | grep streams)"
t_done
