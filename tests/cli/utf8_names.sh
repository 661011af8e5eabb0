#!/bin/sh
# Names that are not UTF-8 (a tracer's 8-bit encoding) in JSON and HTML.
# OTF 1.x and PICL names are bytes; a VampirTrace-era converter wrote its
# function names in KOI8-R (github.com/vasily-pashkov/otf-vis,
# otf_traces/out/out.0.def, "txt2otf converter version 0.6.x", commit
# 3b218ce).  The perfetto JSON, `timeline` HTML and `stats --json` wrote
# those bytes as they were: not UTF-8, so not JSON (Python's json module and
# browsers reject or garble it).  A byte that is not part of a well-formed
# UTF-8 sequence is now written as the Latin-1 character of that byte
# (\u00XX in JSON, that character in UTF-8 in HTML text); UTF-8 names are written unchanged.
. "$(dirname "$0")/common.inc"
command -v python3 >/dev/null || { echo "FAIL utf8_names: python3 missing"; exit 1; }

# region 1: KOI8-R "Выход" (0xf7 0xd9 0xc8 0xcf 0xc4); region 2: the same
# word in UTF-8; region 3: a lone continuation byte and a truncated
# sequence; region 4: an overlong '/' (0xc0 0xaf) and a surrogate
{
  printf '# paratrace text 1\n'
  printf 'def clock ticks_per_second=1000000\n'
  printf 'def location_group id=0 rank=0 name="rank 0"\n'
  printf 'def location id=0 group=0 name="rank 0"\n'
  printf 'def region id=1 role=1 name="\367\331\310\317\304_(0)"\n'
  printf 'def region id=2 role=1 name="\320\222\321\213\321\205\320\276\320\264"\n'
  printf 'def region id=3 role=1 name="a\200b\342\202"\n'
  printf 'def region id=4 role=1 name="\300\257\355\240\200"\n'
  printf 'event 10 0 enter region=1\nevent 20 0 enter region=2\n'
  printf 'event 30 0 enter region=3\nevent 40 0 enter region=4\n'
  printf 'event 50 0 leave region=4\nevent 60 0 leave region=3\n'
  printf 'event 70 0 leave region=2\nevent 80 0 leave region=1\n'
} >in.txt

ok perfetto "$PT" convert in.txt -o out.json
ok timeline "$PT" timeline in.txt -o out.html
ok stats_json "$PT" stats --json in.txt >stats.json
cat >val.py <<'PY'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path, 'rb').read().decode('utf-8')  # fails if not UTF-8
want = ['\u00f7\u00d9\u00c8\u00cf\u00c4_(0)', '\u0412\u044b\u0445\u043e\u0434',
        'a\u0080b\u00e2\u0082', '\u00c0\u00af\u00ed\u00a0\u0080']
if kind == 'json':
    d = json.loads(text)
    blob = json.dumps(d, ensure_ascii=False)
else:
    import html
    blob = html.unescape(text)
missing = [w for w in want if w not in blob]
sys.exit('missing: %r' % missing if missing else 0)
PY
for f in out.json:json stats.json:json out.html:html; do
  if python3 val.py "${f#*:}" "${f%%:*}" >val.err 2>&1; then
    t_pass "${f%%:*} is UTF-8 with every name"
  else t_fail "${f%%:*} is UTF-8 with every name" "$(tail -2 val.err)"; fi
done
t_done
