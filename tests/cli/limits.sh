#!/bin/sh
# Resource limits: what a conversion or a recording costs must not grow
# with the trace, and a full disk or bad settings give one clear message.
. "$(dirname "$0")/common.inc"

# peak RSS in KiB of a command (GNU time), empty when time is missing
peak_kb() {
  [ -x /usr/bin/time ] || return 0
  /usr/bin/time -f '%M' -o rss.txt "$@" >/dev/null 2>rss.err || return 0
  tail -1 rss.txt
}

# libotf2 keeps an event buffer's chunks in memory until the writer is
# closed unless its allocator refuses one; the sink bounds them per
# location.  Before: 2 locations x 2 M events took ~60 MB (the whole
# 47 MB output); now ~16 MB whatever the length.
ok gen_long "$PT" -q generate -o long.ptf --locations 2 --events 2000000 --seed 3
kb=$(peak_kb "$PT" -q convert long.ptf -o long.otf2)
if [ -z "$kb" ]; then
  t_pass "OTF2 writer memory bounded (GNU time missing: skipped)"
elif [ "$kb" -lt 40000 ]; then
  t_pass "OTF2 writer memory bounded ($kb KiB for 4 M events)"
else
  t_fail "OTF2 writer memory bounded" "$kb KiB peak for 4 M events (want < 40000)"
fi
if command -v otf2-print >/dev/null 2>&1 && [ -f long.otf2 ]; then
  n=$(otf2-print long.otf2 2>/dev/null | grep -c -e '^ENTER' -e '^LEAVE')
  want=$("$PT" info long.ptf | awk '$1 == "enter" || $1 == "leave" {s += $2} END {print s}')
  [ "$n" = "$want" ] && t_pass "flushed OTF2 archive complete ($n enter/leave)" ||
    t_fail "flushed OTF2 archive complete" "otf2-print shows $n enter/leave, want $want"
fi

t_done
