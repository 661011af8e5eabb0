#!/bin/sh
# Bad input -- a nonexistent file, a garbage file, a garbage directory, a
# truncated archive -- gives one line "paratrace CMD: FILE: reason" and
# exit 1, never a crash; usage errors exit 2; convert never clobbers and
# never leaves a partial output behind.
. "$(dirname "$0")/common.inc"

head -c 4096 /dev/urandom >garbage.bin 2>/dev/null ||
  awk 'BEGIN { for (i = 0; i < 4096; i++) printf "%c", (i * 7 + 3) % 256 }' >garbage.bin
printf 'hello world\n' >hello.txt
printf '# paratrace text 1\nevent 10 0 enter region=\n' >badline.txt
mkdir -p junk.ptf && printf 'not an anchor\n' >junk.ptf/anchor
: >empty.txt

for cmd in info dump check; do
  fails_cleanly ${cmd}_missing 1 "^paratrace $cmd: nonexistent.ptf: " "$PT" $cmd nonexistent.ptf
  fails_cleanly ${cmd}_garbage 1 "^paratrace $cmd: garbage.bin" "$PT" $cmd garbage.bin
  fails_cleanly ${cmd}_hello 1 "^paratrace $cmd: hello.txt" "$PT" $cmd hello.txt
  fails_cleanly ${cmd}_badline 1 "badline.txt:2" "$PT" $cmd badline.txt
  fails_cleanly ${cmd}_junkdir 1 "^paratrace $cmd: junk.ptf" "$PT" $cmd junk.ptf
  fails_cleanly ${cmd}_empty 1 "^paratrace $cmd: empty.txt" "$PT" $cmd empty.txt
done
fails_cleanly convert_missing 1 "nonexistent.ptf" "$PT" convert nonexistent.ptf -o out.txt
fails_cleanly merge_garbage 1 "garbage.bin" "$PT" merge garbage.bin -o out.ptf --streams 2
fails_cleanly recover_missing 1 "^paratrace recover: nonexistent.ptf" "$PT" recover nonexistent.ptf
fails_cleanly recover_garbage 1 "^paratrace recover: garbage.bin" "$PT" recover garbage.bin
[ ! -e out.txt ] && [ ! -e out.ptf ] && t_pass no_output_from_bad_input ||
  t_fail no_output_from_bad_input "$(ls)"

# Usage errors: exit 2.
fails_cleanly unknown_option 2 "unknown option" "$PT" info --bogus x
fails_cleanly unknown_command 2 "not a paratrace command" "$PT" frobnicate
fails_cleanly missing_arg 2 "missing" "$PT" info
fails_cleanly missing_value 2 "needs a value" "$PT" dump x --from
fails_cleanly bad_time 2 "bad time" "$PT" dump x --from 1.5parsecs
fails_cleanly bad_locations 2 "location list" "$PT" dump x --locations 5-2
fails_cleanly bad_kind 2 "unknown event kind" "$PT" dump x --kinds enter,bogus
fails_cleanly generate_missing 2 "events" "$PT" generate -o g.ptf --locations 2
fails_cleanly generate_bad_msg 2 "msg-every" "$PT" generate -o g.ptf --locations 2 --events 5 --msg-every 2
fails_cleanly convert_no_out 2 "missing -o" "$PT" convert x.txt
fails_cleanly convert_from_format 2 "input format is detected" "$PT" convert --from text x.txt -o y.ptf
fails_cleanly convert_unknown_ext 1 "format.*--to FORMAT" "$PT" convert hello.txt -o out.weird
fails_cleanly csv_and_json 2 "choose one" "$PT" stats --csv --json x
fails_cleanly record_bad_buffer 2 "want a size" "$PT" record --buffer 5X -- true
# what the recorder refuses (PARATRACE_BUFFER) the tool refuses first
for b in " 4M" "+4M" "99999999999999999999" "20000000000G" 0 1 1K 64M; do
  fails_cleanly "record_bad_buffer '$b'" 2 "want a size" "$PT" record --buffer "$b" -- true
done
# a directory of the profile mode alone (no events) says how to read it
mkdir -p prof.ptf && : >prof.ptf/profile.0
fails_cleanly info_profile_only 1 "paratrace profile" "$PT" info prof.ptf

# An archive to damage.
if ok generate "$PT" -q generate -o good.ptf --locations 3 --events 4000 --seed 5; then
  ok dump_good "$PT" dump good.ptf >good.txt
  fails_cleanly reversed_window 1 "empty window" "$PT" dump good.ptf --from 2000 --to 1000
  fails_cleanly dump_no_such_location 1 "no location 99" "$PT" dump good.ptf --locations 0,99
  fails_cleanly stats_no_such_location 1 "no location 99" "$PT" stats good.ptf --locations 99

  # convert refuses to overwrite, and leaves OUT as it was
  cp good.txt keep.txt
  fails_cleanly convert_no_clobber 1 "exists" "$PT" convert good.ptf -o keep.txt
  cmp -s good.txt keep.txt && t_pass clobber_untouched || t_fail clobber_untouched "changed"
  fails_cleanly convert_no_clobber_dir 1 "exists" "$PT" convert good.txt -o good.ptf
  ok convert_force "$PT" -q convert good.ptf -o keep.txt --to text --force
  fails_cleanly convert_same_file 1 "input" "$PT" convert keep.txt -o keep.txt --force

  # truncate every file of a copy of the archive to half, one at a time
  for f in $(cd good.ptf && find . -type f | sort); do
    rm -rf cut.ptf
    cp -R good.ptf cut.ptf
    size=$(wc -c <"cut.ptf/$f")
    head -c $((size / 2)) "good.ptf/$f" >"cut.ptf/$f"
    tag=$(echo "$f" | tr -c 'a-zA-Z0-9\n' '_')
    "$PT" check cut.ptf >cut.out 2>cut.err
    rc=$?
    if crashed cut.err $rc; then
      t_fail "truncated$tag" "crashed (exit $rc): $(head -c 400 cut.err)"
    elif [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
      t_fail "truncated$tag" "exit $rc"
    elif grep -v '^paratrace ' cut.err | grep -q .; then
      t_fail "truncated$tag" "stray stderr: $(head -c 300 cut.err)"
    elif [ $rc -eq 1 ] && ! grep -q 'problem\|damaged' cut.out &&
         [ "$(grep -v ': warning: ' cut.err | wc -l)" -ne 1 ]; then
      # exit 1 is either problems found in what was readable (the lost
      # events leave messages unmatched) or one error line
      t_fail "truncated$tag" "want problems or one error line: $(head -c 400 cut.err)"
    else
      t_pass "truncated$tag"
    fi
    # convert of a damaged archive never leaves a partial output
    "$PT" -q convert cut.ptf -o cut-out.txt >/dev/null 2>cut2.err
    rc=$?
    if crashed cut2.err $rc; then t_fail "truncated_convert$tag" "crashed"
    elif [ $rc -ne 0 ] && [ -e cut-out.txt ]; then
      t_fail "truncated_convert$tag" "failed (exit $rc) but left cut-out.txt"
    else t_pass "truncated_convert$tag"; fi
    rm -f cut-out.txt
    ls -a | grep -q 'cut-out.txt.tmp' && t_fail "truncated_tmp$tag" "temporary left"
  done

  # a closed archive with a stream cut short: check reads what is there
  # (warnings) and fails, saying how many events the writer recorded
  rm -rf cut.ptf
  cp -R good.ptf cut.ptf
  ev=$(cd cut.ptf && ls *.events | head -n 1)
  head -c 100 "good.ptf/$ev" >"cut.ptf/$ev"
  "$PT" check cut.ptf >cut.out 2>cut.err
  rc=$?
  if [ $rc -eq 1 ] && grep -q 'damaged: the writer closed the archive with 12000 events' cut.out; then
    t_pass check_closed_archive_cut_short
  else t_fail check_closed_archive_cut_short "exit $rc: $(cat cut.out cut.err | head -5)"; fi

  # the anchor lost: info says recover rebuilds it
  rm -rf noanchor.ptf
  cp -R good.ptf noanchor.ptf && rm noanchor.ptf/anchor
  fails_cleanly info_no_anchor_says_recover 1 "paratrace recover" "$PT" info noanchor.ptf

  # a truncated events file: recover keeps the complete blocks
  rm -rf rec.ptf
  cp -R good.ptf rec.ptf
  ev=$(cd rec.ptf && find . -type f -size +1k | sort | head -n 1)
  if [ -n "$ev" ]; then
    size=$(wc -c <"rec.ptf/$ev")
    head -c $((size - 7)) "good.ptf/$ev" >"rec.ptf/$ev"
    ok recover "$PT" recover rec.ptf >rec.out &&
      { grep -q 'kept' rec.out && t_pass recover_report || t_fail recover_report "$(cat rec.out)"; }
    "$PT" dump rec.ptf >rec.txt 2>rec.err
    rc=$?
    if crashed rec.err $rc; then t_fail recovered_dump "crashed"
    elif [ $rc -ne 0 ]; then t_fail recovered_dump "exit $rc: $(cat rec.err)"
    elif [ "$(events rec.txt)" -gt "$(events good.txt)" ]; then
      t_fail recovered_dump "more events than before"
    else t_pass recovered_dump; fi
  fi

  # the raw size the writer puts in the anchor is the blocks' headers'
  # (time planes + rows), the one recover counts: info says the same
  # before and after recover of an intact archive
  rm -rf raw.ptf
  if "$PT" -q generate -o raw.ptf --locations 2 --events 100000 --seed 4 &&
     "$PT" info raw.ptf >raw1.out && "$PT" -q recover raw.ptf &&
     "$PT" info raw.ptf >raw2.out; then
    r1=$(grep '^size' raw1.out)
    r2=$(grep '^size' raw2.out)
    [ -n "$r1" ] && [ "$r1" = "$r2" ] && t_pass info_raw_size_as_recover ||
      t_fail info_raw_size_as_recover "before: $r1 / after: $r2"
  else t_fail info_raw_size_as_recover "generate/info/recover failed"; fi

  # a summarized archive whose stream 2 is cut in the middle: recover
  # removes every summary and snapshot (they describe the cut events) and
  # the temporaries of a killed summarize; summarized again, a window from
  # summaries equals a full scan and a slice equals one without snapshots
  rm -rf sum.ptf
  if "$PT" -q generate -o sum.ptf --locations 4 --events 200000 --seed 3 &&
     "$PT" -q summarize --every 20ms sum.ptf; then
    sh -c 'exit 0' &
    dead=$!
    wait $dead
    : >"sum.ptf/s1.sums.tmp.$dead"
    : >"sum.ptf/s1.snaps.tmp.$dead"
    touch -d '1 hour ago' "sum.ptf/s1.sums.tmp.$dead" "sum.ptf/s1.snaps.tmp.$dead"
    # written to just now: maybe a summarize on another node (kept)
    : >"sum.ptf/s3.sums.tmp.$dead"
    size=$(wc -c <sum.ptf/s2.events)
    printf '\377\377\377\377' |
      dd of=sum.ptf/s2.events bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
    ok recover_summarized "$PT" recover sum.ptf >sum.out &&
      { grep -q 'summaries removed.*summarize again' sum.out &&
          grep -q 'removed 2 temporaries' sum.out &&
          t_pass recover_says_summaries_removed ||
          t_fail recover_says_summaries_removed "$(cat sum.out)"; }
    left=$(cd sum.ptf && ls | grep -e '\.sums' -e '\.snaps')
    [ "$left" = "s3.sums.tmp.$dead" ] && t_pass recover_removes_summaries ||
      t_fail recover_removes_summaries "$left"
    fails_cleanly recover_no_stale_summaries 1 'summaries' \
      "$PT" stats --require-summaries --from 500ms --to 900ms sum.ptf
    "$PT" -q slice --from 500ms --to 900ms -o sl1.txt sum.ptf 2>/dev/null
    ok resummarize "$PT" -q summarize --every 20ms sum.ptf
    n=0
    # (a window from summaries leaves the late times of a channel out
    # (empty) when a send was never matched: the receives of location 3
    # after location 2 ends)
    for w in "--from 500ms --to 900ms --locations 2" "--from 500ms --to 900ms" \
             "--from 100ms --to 200ms --locations 2"; do
      n=$((n + 1))
      if "$PT" -q stats --csv --require-summaries $w sum.ptf >rf$n.csv 2>rf$n.err &&
         "$PT" -q stats --csv --no-summaries $w sum.ptf >rs$n.csv 2>>rf$n.err; then
        grep -v -e '^totals' -e '^section' -e '^$' rf$n.csv >rf$n.n
        grep -v -e '^totals' -e '^section' -e '^$' rs$n.csv >rs$n.n
        bad=$(paste -d'|' rf$n.n rs$n.n | awk -F'|' '$1 != $2 &&
          !($1 ~ /^message,.*,,,$/ &&
            index($2, substr($1, 1, length($1) - 3)) == 1)')
        [ -s rs$n.n ] && [ "$(wc -l <rf$n.n)" -eq "$(wc -l <rs$n.n)" ] &&
          [ -z "$bad" ] && t_pass "recovered_window$n" ||
          t_fail "recovered_window$n" "$(diff rf$n.n rs$n.n | head -5)"
      else t_fail "recovered_window$n" "$(head -c 300 rf$n.err)"; fi
    done
    "$PT" -q slice --from 500ms --to 900ms -o sl2.txt sum.ptf 2>/dev/null
    [ -s sl1.txt ] && cmp -s sl1.txt sl2.txt && t_pass recovered_slice ||
      t_fail recovered_slice "$(diff sl1.txt sl2.txt | head -4)"
  else t_fail recover_summarized "generate/summarize failed"; fi

  # an archive its writer never closed: check says so; with nothing
  # flushed it is not OK
  rm -rf open.ptf
  cp -R good.ptf open.ptf
  sed 's/^state = closed/state = open/' good.ptf/anchor >open.ptf/anchor
  "$PT" check open.ptf >open.out 2>/dev/null; rc=$?
  grep -q 'note: the archive was not closed' open.out && [ $rc = 0 ] &&
    t_pass unclosed_check_note || t_fail unclosed_check_note "exit $rc: $(cat open.out)"
  for f in open.ptf/s*.events; do : >"$f"; done
  "$PT" check open.ptf >open.out 2>/dev/null; rc=$?
  grep -q 'no events: nothing was flushed' open.out && [ $rc = 1 ] &&
    t_pass unclosed_empty_check || t_fail unclosed_empty_check "exit $rc: $(cat open.out)"
fi

# A file where an archive (a directory) is expected; an archive without
# its definitions or without a stream's events: said, not an I/O error
: >plain.ptf
fails_cleanly ptf_is_a_file 1 'plain.ptf: not a PTF archive (an archive is a directory' \
  "$PT" info plain.ptf
"$PT" -q generate -o nodefs.ptf --locations 2 --events 100
rm nodefs.ptf/defs
"$PT" info nodefs.ptf >nodefs.out 2>&1 && grep -q 'nodefs.ptf/defs: missing' nodefs.out &&
  t_pass ptf_defs_missing_said || t_fail ptf_defs_missing_said "$(head -3 nodefs.out)"
"$PT" -q generate -o noev.ptf --locations 2 --events 100
rm noev.ptf/s1.events
"$PT" info noev.ptf >noev.out 2>&1
grep -q 's1.events: missing: the [0-9]* events the anchor lists for stream 1 are lost' noev.out &&
  ! grep -q 'index rebuilt' noev.out && t_pass ptf_events_missing_said ||
  t_fail ptf_events_missing_said "$(head -3 noev.out)"
"$PT" check noev.ptf 2>/dev/null | grep -q damaged && t_pass ptf_events_missing_damaged ||
  t_fail ptf_events_missing_damaged "check does not say damaged"
# An OTF events file cut inside a record: the record is left out, and said
TD=${PT_SRCDIR:-$OLDPWD}/../shared/testdata
# a directory holding a trace (a DUMPI run's output directory) names the
# trace's main file, not its per-rank files ("paratrace stats dumpi/" only
# said "not a trace in any known format")
if [ -d "$TD/dumpi/a_pingpong" ]; then
  mkdir -p dset && cp "$TD"/dumpi/a_pingpong/*.bin "$TD"/dumpi/a_pingpong/*.meta dset/
  fails_cleanly dir_names_trace_inside 1 \
    'dset: not a trace in any known format (.*); it holds dset/a_pingpong-2026.11.22.07.42.02.meta: give that$' \
    "$PT" stats dset
  mkdir -p nothing_here && : >nothing_here/notes.txt
  fails_cleanly dir_without_trace 1 'nothing_here: not a trace in any known format (tried: [a-z0-9, ]*)$' \
    "$PT" info nothing_here
fi
if [ -d "$TD/otf/b_msgs_2streams/trace" ]; then
  mkdir -p cutotf && cp "$TD"/otf/b_msgs_2streams/trace/* cutotf/
  truncate -s 60 cutotf/trace_b.1.events
  "$PT" info cutotf/trace_b.otf >cutotf.out 2>&1 &&
    grep -q 'trace_b.1.events:[0-9]*: the file ends inside a record' cutotf.out &&
    t_pass otf_cut_record_said || t_fail otf_cut_record_said "$(head -3 cutotf.out)"
fi
# --force replaces an earlier output, never a user's directory or (as an
# archive) a file: a mistyped -o loses nothing
mkdir -p userdir/sub && echo keep >userdir/results.csv && echo keep >userfile.txt &&
  mkdir -p userotf && echo keep >userotf/notes.txt
"$PT" -q generate -o small.ptf --locations 2 --events 100
fails_cleanly force_keeps_dir_as_ptf 1 'not a paratrace archive; not replaced' \
  "$PT" convert small.ptf -o userdir --to ptf --force
fails_cleanly force_keeps_file_as_ptf 1 'not a paratrace archive; not replaced' \
  "$PT" convert small.ptf -o userfile.txt --to ptf --force
fails_cleanly force_keeps_dir_as_text 1 'is a directory; not replaced' \
  "$PT" convert small.ptf -o userdir --to text --force
fails_cleanly force_keeps_otf2_side_dir 1 'holds other files; not replaced' \
  "$PT" convert small.ptf -o userotf.otf2 --force
# a program that makes no MPI call the recorder sees and marks nothing:
# its exit status, no archive, and a warning saying why (before: silence)
"$PT" record -o nothing.ptf -- true 2>nothing.err; rc=$?
[ $rc = 0 ] && [ ! -e nothing.ptf ] && grep -q 'no trace written to .*nothing.ptf' nothing.err &&
  t_pass record_nothing_said || t_fail record_nothing_said "exit $rc: $(cat nothing.err)"
"$PT" -q generate -o old.ptf --locations 2 --events 10 && touch -d '2 hours ago' old.ptf &&
  "$PT" record --force -o old.ptf -- true 2>nothing.err &&
  grep -q 'no trace written to .*old.ptf' nothing.err &&
  t_pass record_nothing_force_said || t_fail record_nothing_force_said "$(cat nothing.err)"
"$PT" record -q -o nothing.ptf -- sh -c 'exit 3' 2>nothing.err; rc=$?
[ $rc = 3 ] && [ ! -s nothing.err ] && t_pass record_nothing_quiet ||
  t_fail record_nothing_quiet "exit $rc: $(cat nothing.err)"
fails_cleanly record_force_keeps_dir 1 'not a paratrace archive or profile; not replaced' \
  "$PT" record --force -o userdir -- true
[ -f userdir/results.csv ] && [ -d userdir/sub ] && [ "$(cat userfile.txt)" = keep ] &&
  [ -f userotf/notes.txt ] && ! ls -a | grep -q 'tmp-' && t_pass force_user_data_kept ||
  t_fail force_user_data_kept "$(ls userdir userotf; ls -a | grep tmp-)"
# ... nor a device, FIFO, socket or symbolic link: the rename would turn
# it into a regular file (as root: /dev/null destroyed)
mknod -m 666 fakenull c 1 3 2>/dev/null && mkfifo ff ff.ptf && ln -s ff fflink &&
  echo keep >kept.txt && ln -s kept.txt keptlink && {
  fails_cleanly force_keeps_chardev_dump 1 'character device; not replaced' \
    "$PT" dump small.ptf -o fakenull --force
  fails_cleanly force_keeps_fifo_text 1 'FIFO.*; not replaced' \
    "$PT" convert small.ptf -o ff --to text --force
  fails_cleanly force_keeps_symlink_text 1 'symbolic link; not replaced' \
    "$PT" convert small.ptf -o keptlink --to text --force
  fails_cleanly force_keeps_fifo_link_dumpi 1 'symbolic link; not replaced' \
    "$PT" convert small.ptf -o fflink --to dumpi --force
  fails_cleanly force_keeps_fifo_otf2 1 'ff, where the trace.s event files go, is not a directory; not replaced' \
    "$PT" convert small.ptf -o ff --to otf2 --force
  fails_cleanly force_keeps_fifo_slice 1 'not a paratrace archive; not replaced' \
    "$PT" slice small.ptf --from 0 --to 1000s -o ff.ptf --force
  fails_cleanly force_keeps_fifo_timeline 1 'FIFO); not replaced' \
    "$PT" timeline small.ptf -o ff --force
  fails_cleanly force_keeps_chardev_svg 1 'character device); not replaced' \
    "$PT" timeline small.ptf --svg fakenull --force
  # a rank file of a multi-file output that is a FIFO
  "$PT" -q convert small.ptf -o fifo.meta && rm fifo-0001.bin && mkfifo fifo-0001.bin
  fails_cleanly force_keeps_fifo_rank_file 1 'fifo-0001.bin: is a FIFO.*not replaced' \
    "$PT" convert small.ptf -o fifo.meta --force
  rm -rf fifo.meta.tmp-*
  [ -c fakenull ] && [ -p ff ] && [ -p ff.ptf ] && [ -L fflink ] && [ -L keptlink ] &&
    [ "$(cat kept.txt)" = keep ] && [ -p fifo-0001.bin ] &&
    t_pass force_special_files_kept ||
    t_fail force_special_files_kept "$(ls -l fakenull ff fflink keptlink fifo-0001.bin)"
  rm -f fakenull ff ff.ptf fflink keptlink kept.txt fifo.meta fifo-000*.bin
} || t_fail force_special_setup "mknod/mkfifo failed (not root?)"
# --force over an earlier multi-file output with more ranks removes that
# output's files the new one does not write, and nothing else
"$PT" -q generate -o med8.ptf --locations 8 --events 100 &&
  "$PT" -q convert med8.ptf -o stale.meta && "$PT" -q convert med8.ptf -o stale.otf &&
  touch stale-0099.bin.keep stale-01.bin stale.x.events stale.1.events.bak \
    stale2-0005.bin stale.otf.notes other.5.events && mkdir stale-0006.bin.d
ok force_multi_dumpi "$PT" -q convert small.ptf -o stale.meta --force
ok force_multi_otf "$PT" -q convert small.ptf -o stale.otf --force
n_bin=$(ls stale-[0-9][0-9][0-9][0-9].bin | wc -l)
n_otf=$(ls stale.[0-9a-f]*.events | wc -l)
"$PT" info stale.meta >stale_meta.info 2>&1
"$PT" info stale.otf >stale_otf.info 2>&1
[ "$n_bin" = 2 ] && [ ! -e stale-0002.bin ] && [ ! -e stale-0007.bin ] &&
  [ ! -e stale.7.events ] && [ "$n_otf" -le 2 ] &&
  grep -q 'locations *2 defined' stale_meta.info && grep -q 'locations *2 defined' stale_otf.info &&
  t_pass force_multi_stale_removed ||
  t_fail force_multi_stale_removed "bins $n_bin otf $n_otf: $(ls stale*)"
[ -e stale-0099.bin.keep ] && [ -e stale-01.bin ] && [ -e stale.x.events ] &&
  [ -e stale.1.events.bak ] && [ -e stale2-0005.bin ] && [ -e stale.otf.notes ] &&
  [ -e other.5.events ] && [ -d stale-0006.bin.d ] && t_pass force_multi_others_kept ||
  t_fail force_multi_others_kept "$(ls)"
rm -rf stale* other.5.events med8.ptf
# timeline -o HTML --svg SVG: both outputs appear or neither (the SVG
# failing, here unwritable, leaves no HTML; an HTML it would replace stays)
fails_cleanly timeline_svg_fails 1 'nodir/v.svg: No such file' \
  "$PT" timeline small.ptf -o tl.html --svg nodir/v.svg
[ ! -e tl.html ] && t_pass timeline_svg_fails_no_html || t_fail timeline_svg_fails_no_html "$(ls -l tl.html)"
echo old >tl.html
fails_cleanly timeline_svg_fails_force 1 'nodir/v.svg: No such file' \
  "$PT" timeline small.ptf -o tl.html --svg nodir/v.svg --force
[ "$(cat tl.html)" = old ] && t_pass timeline_svg_fails_html_kept ||
  t_fail timeline_svg_fails_html_kept "$(head -c 100 tl.html)"
rm -f tl.html && echo keep >tl.svg
fails_cleanly timeline_svg_exists 1 'tl.svg: exists' \
  "$PT" timeline small.ptf -o tl.html --svg tl.svg
[ ! -e tl.html ] && t_pass timeline_svg_exists_no_html || t_fail timeline_svg_exists_no_html "$(ls -l tl.html)"
ok timeline_both_force "$PT" -q timeline small.ptf -o tl.html --svg tl.svg --force &&
  grep -q 'PT_DATA' tl.html && grep -q '<svg' tl.svg && t_pass timeline_both_written ||
  t_fail timeline_both_written "$(ls -l tl.*)"
rm -f tl.html tl.svg
ok force_replaces_archive "$PT" -q convert small.ptf -o noev.ptf --force
# ... an archive whose anchor starts with a comment (format.md allows it)
"$PT" -q convert small.ptf -o ann.ptf && sed -i '1i # kept by hand' ann.ptf/anchor &&
  ok force_replaces_commented_anchor "$PT" -q convert small.ptf -o ann.ptf --force
# ... also with a comment longer than a short line buffer (the check read
# the anchor on its own and took the comment's rest as the format line)
"$PT" -q convert small.ptf -o lann.ptf &&
  sed -i "1i # $(printf '%0200d' 0)" lann.ptf/anchor &&
  ok force_replaces_long_commented_anchor "$PT" -q convert small.ptf -o lann.ptf --force
# ... and its own OTF2 output, also named without .otf2 (NAME/ is then -o)
ok otf2_noext "$PT" -q convert small.ptf --to otf2 -o ownotf
ok force_replaces_own_otf2 "$PT" -q convert small.ptf --to otf2 -o ownotf --force
# A conversion interrupted (SIGTERM, Ctrl-C) leaves no temporary behind
"$PT" -q generate -o intr.ptf --locations 4 --events 500000
for ext in otf meta; do
  "$PT" -q convert intr.ptf -o "intr-out.$ext" 2>/dev/null &
  pid=$!
  sleep 0.3
  kill -TERM $pid 2>/dev/null
  wait $pid
  left=$(ls -a | grep -c 'intr-out.*tmp-')
  [ "$left" = 0 ] && t_pass "interrupted_$ext" || t_fail "interrupted_$ext" "$(ls -a | grep tmp-)"
  rm -rf intr-out.* intr-out-*.bin
done
# generate writes under a temporary name: killed midway it leaves no
# half-written archive (a rerun then succeeds), and an existing OUT is
# refused in words (not a raw "File exists")
"$PT" -q generate -o intr-gen.ptf --locations 4 --events 30000000 2>/dev/null &
pid=$!
sleep 0.3
kill -TERM $pid 2>/dev/null
wait $pid
[ ! -e intr-gen.ptf ] && [ "$(ls -a | grep -c 'intr-gen.*tmp-')" = 0 ] &&
  t_pass interrupted_generate || t_fail interrupted_generate "$(ls -a | grep intr-gen)"
ok generate_after_interrupt "$PT" -q generate -o intr-gen.ptf --locations 2 --events 100
fails_cleanly generate_exists 1 'intr-gen.ptf: already exists (not overwritten); use --force' \
  "$PT" -q generate -o intr-gen.ptf --locations 2 --events 100
ok generate_force "$PT" -q generate -o intr-gen.ptf --locations 3 --events 100 --force &&
  "$PT" -q info intr-gen.ptf | grep -q 'locations.*3' &&
  t_pass generate_force_replaced || t_fail generate_force_replaced "$("$PT" info intr-gen.ptf 2>&1 | head -5)"
echo keep >gen-user.txt
fails_cleanly generate_force_keeps_file 1 'not a paratrace archive; not replaced' \
  "$PT" -q generate -o gen-user.txt --locations 2 --events 100 --force
[ "$(cat gen-user.txt)" = keep ] && t_pass generate_force_file_kept ||
  t_fail generate_force_file_kept "$(ls -l gen-user.txt)"
rm -rf intr-gen.ptf gen-user.txt
# sync -o on an archive already synchronised writes OUT anyway (a copy)
cat >sdrift.txt <<'EOT'
# paratrace text 1
stream 0 location=0
stream 1 location=1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 name="main"
def clock_sync location=1 time=1000 offset=0
def clock_sync location=1 time=1001000 offset=1000
event 1000 0 enter region=1
event 1000 1 enter region=1
event 1001000 0 leave region=1
event 1001000 1 leave region=1
EOT
"$PT" -q convert sdrift.txt -o sdrift.ptf && "$PT" -q sync sdrift.ptf
ok sync_already_to_out "$PT" sync sdrift.ptf -o sdrift2.ptf >sync_already.out
grep -q 'already synchronised; copied unchanged' sync_already.out &&
  "$PT" dump sdrift.ptf >sd1.txt && "$PT" dump sdrift2.ptf >sd2.txt && cmp -s sd1.txt sd2.txt &&
  [ "$(grep -c paratrace.clock sd2.txt)" = 1 ] && t_pass sync_already_copied ||
  t_fail sync_already_copied "$(cat sync_already.out; diff sd1.txt sd2.txt 2>&1 | head -5)"
fails_cleanly sync_already_out_exists 1 'already exists' "$PT" sync sdrift.ptf -o sdrift2.ptf
rm -rf sdrift.txt sdrift.ptf sdrift2.ptf sd1.txt sd2.txt sync_already.out
# ... nor an interrupted slice, dump to a file, sync or summarize
"$PT" -q summarize --every 10ms intr.ptf
for c in "slice --from 0 --to 1000s -o intr-out.ptf" "dump -o intr-out.txt" \
         "sync -o intr-out.ptf" "summarize --every 1ms"; do
  "$PT" -q $c intr.ptf 2>/dev/null &
  pid=$!
  sleep 0.2
  kill -TERM $pid 2>/dev/null
  wait $pid
  left=$(ls -a . intr.ptf | grep -c 'tmp-')
  [ "$left" = 0 ] && t_pass "interrupted_${c%% *}" ||
    t_fail "interrupted_${c%% *}" "$(ls -a . intr.ptf | grep tmp-)"
  rm -rf intr-out.*
done
"$PT" -q check intr.ptf >/dev/null && t_pass interrupted_summarize_archive_ok ||
  t_fail interrupted_summarize_archive_ok "$("$PT" check intr.ptf 2>&1 | tail -2)"
# Nothing left behind by the failures above.
ls -a | grep -q '\.tmp-' && t_fail no_temporaries "$(ls -a | grep tmp)" || t_pass no_temporaries

t_done
