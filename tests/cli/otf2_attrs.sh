#!/bin/sh
# Attribute values OTF2 has no form for, through OTF2 and back: a key
# repeated in one event (DUMPI's MPI_Init argv strings) and an integer array
# (DUMPI's MPI_Group_incl ranks, Alltoallv counts, statuses).  The sink
# writes the repeats as attributes "NAME[r]" of their own and an array as a
# comma-separated STRING; reading paratrace's own archive back must give the
# same values (found on DOE mini-app DUMPI traces converted to OTF2 and back
# to DUMPI: argv came back as "" and every array as <IGNORED>).
. "$(dirname "$0")/common.inc"

"$PT" -q generate -o g.ptf --locations 2 --events 20 >/dev/null 2>&1 &&
  "$PT" dump g.ptf >g.txt 2>/dev/null ||
  { t_fail setup "cannot generate a trace"; t_done; }
# attribute 900: a STRING key repeated three times; 901: an int array;
# 902: an int array with a description; all on the first enter event.
awk 'BEGIN { done = 0 }
  /^def clock/ { print; print "def attribute id=900 type=4 name=\"argv\"";
    print "def attribute id=901 type=5 name=\"ranks\"";
    print "def attribute id=902 type=5 name=\"counts\" description=\"per rank\"";
    next }
  /^event [0-9]* [0-9]* enter / && !done {
    print $0 " {900=s:\"./app\" 900=s:\"-n\" 900=s:\"five\" 901=ia:[0,3,-6] 902=ia:[]}";
    done = 1; next }
  { print }' g.txt >a.txt
grep -q '900=s:"five"' a.txt || { t_fail setup "no event got the attributes"; t_done; }

ok to_otf2 "$PT" -q convert a.txt -o a.otf2 &&
  ok back_to_text "$PT" -q convert a.otf2 -o b.txt || t_done
# (OTF2 numbers attributes anew: the keys are compared by name below)
line=$(grep -m1 's:"./app"' b.txt | sed 's/ [0-9][0-9]*=\([a-z]*\):/ K=\1:/g; s/{[0-9][0-9]*=/{K=/')
case $line in
  *'{K=s:"./app" K=s:"-n" K=s:"five" K=ia:[0,3,-6] K=ia:[]}'*)
    t_pass repeated_and_array_values_back ;;
  *) t_fail repeated_and_array_values_back "got: $line" ;;
esac
key() { sed -n "s/^def attribute id=\([0-9]*\) .*name=\"$1\".*/\1/p" b.txt; }
a=$(key argv) r=$(key ranks) c=$(key counts)
grep -q "{$a=s:\"./app\" $a=s:\"-n\" $a=s:\"five\" $r=ia:\[0,3,-6\] $c=ia:\[\]}" b.txt &&
  t_pass keys_by_name || t_fail keys_by_name "argv=$a ranks=$r counts=$c: $line"
# the definitions come back as they were: no "argv[1]" attributes, the
# arrays typed INTS (5) with their own description
grep -q 'name="argv\[' b.txt && t_fail no_repeat_defs "$(grep 'argv\[' b.txt)" ||
  t_pass no_repeat_defs
grep -q '^def attribute id=[0-9]* type=5 .*name="ranks" description=""' b.txt &&
  grep -q '^def attribute id=[0-9]* type=5 .*name="counts" description="per rank"' b.txt &&
  t_pass array_defs_back || t_fail array_defs_back "$(grep '^def attribute' b.txt)"
# twice through OTF2: the same archive content
ok to_otf2_again "$PT" -q convert b.txt -o c.otf2 &&
  ok back_again "$PT" -q convert c.otf2 -o c.txt &&
  { grep -v '^def keyval' b.txt >b1; grep -v '^def keyval' c.txt >c1
    cmp -s b1 c1 && t_pass stable || t_fail stable "$(diff b1 c1 | head -5)"; }

# What libotf2 shows: the values are all there, otf2-print is clean
if command -v otf2-print >/dev/null 2>&1; then
  otf2-print -A a.otf2 >p.out 2>p.err
  [ ! -s p.err ] && grep -q '"argv\[2\]" <[0-9]*>; STRING; "five"' p.out &&
    grep -q '"ranks" <[0-9]*>; STRING; "0,3,-6"' p.out && t_pass otf2_print_values ||
    t_fail otf2_print_values "$(head -c 300 p.err; grep -m1 ranks p.out)"
fi

# A foreign STRING attribute that merely looks like a list stays a STRING,
# and a foreign "x[1]" without the sink's description stays its own key.
awk '/^def clock/ { print; print "def attribute id=910 type=4 name=\"x\"";
    print "def attribute id=911 type=4 name=\"x[1]\""; next }
  /^event [0-9]* [0-9]* enter / && !d { print $0 " {910=s:\"1,2\" 911=s:\"y\"}"; d = 1; next }
  { print }' g.txt >f.txt
ok foreign_to_otf2 "$PT" -q convert f.txt -o f.otf2 &&
  ok foreign_back "$PT" -q convert f.otf2 -o fb.txt &&
  { grep -q '{[0-9]*=s:"1,2" [0-9]*=s:"y"}' fb.txt &&
      grep -q '^def attribute .*name="x\[1\]"' fb.txt && t_pass foreign_kept ||
      t_fail foreign_kept "$(grep -m1 '910=' fb.txt)"; }
t_done
