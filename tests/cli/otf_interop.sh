#!/bin/sh
# OTF files we write read with the real OTF library (1.12.5, otfprint).
# Its KeyValue lists hold no empty byte arrays (appending one of length 0
# appends nothing) and its reader stops with "An error occurred while
# reading events" at a byte-array line without hex digits ("K..YbVL0"):
# an empty INTS or STRING attribute is left out.  Byte layout only; the
# test needs no OTF library.
. "$(dirname "$0")/common.inc"
cat >e.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 paradigm=3 name="MPI_Recv"
def attribute id=1 type=5 name="status"
def attribute id=2 type=5 name="requests"
def attribute id=3 type=4 name="note"
event 100 0 enter region=1 {1=ia:[] 2=ia:[2,3] 3=s:""}
event 110 0 leave region=1
TXT
ok "convert" "$PT" -q convert e.txt -o e.otf
if grep -q 'VL0$' e.*.events; then
  t_fail "no empty byte arrays" "$(grep 'VL0$' e.*.events)"
else t_pass "no empty byte arrays"; fi
grep -q 'YbV0203L2$' e.*.events && t_pass "non-empty array kept" ||
  t_fail "non-empty array kept" "$(cat e.*.events)"
"$PT" -q dump e.otf >e.dump 2>e.err && grep -q 'enter' e.dump &&
  t_pass "reads back" || t_fail "reads back" "$(cat e.err)"
t_done
