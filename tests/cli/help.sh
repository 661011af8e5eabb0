#!/bin/sh
# --help works for every subcommand (exit 0, a usage line on stdout), as do
# `paratrace help CMD`, `paratrace --help` and `--version`.
. "$(dirname "$0")/common.inc"

for cmd in info dump convert check merge recover generate; do
  "$PT" $cmd --help >h.out 2>h.err
  rc=$?
  [ $rc -eq 0 ] && grep -q "^usage: paratrace $cmd" h.out && [ ! -s h.err ] &&
    t_pass help_$cmd || t_fail help_$cmd "exit $rc: $(head -c 200 h.out h.err)"
  "$PT" help $cmd >h2.out 2>&1
  cmp -s h.out h2.out && t_pass help_cmd_$cmd || t_fail help_cmd_$cmd "differs"
  "$PT" $cmd -h >h3.out 2>&1
  cmp -s h.out h3.out && t_pass help_short_$cmd || t_fail help_short_$cmd "differs"
  # every subcommand rejects an unknown option with exit 2
  "$PT" $cmd --no-such-option >/dev/null 2>u.err
  rc=$?
  [ $rc -eq 2 ] && grep -q "^paratrace $cmd: unknown option" u.err &&
    t_pass usage_$cmd || t_fail usage_$cmd "exit $rc: $(cat u.err)"
done
"$PT" --help >top.out 2>&1 && grep -q '^usage: paratrace' top.out &&
  grep -q 'generate' top.out && t_pass help_top || t_fail help_top "$(head -3 top.out)"
"$PT" help >top2.out 2>&1 && cmp -s top.out top2.out && t_pass help_word ||
  t_fail help_word "differs"
"$PT" --version >v.out 2>&1 && grep -q '^paratrace [0-9][0-9.]*$' v.out &&
  t_pass version || t_fail version "$(cat v.out)"
"$PT" >/dev/null 2>n.err
[ $? -eq 2 ] && grep -q usage n.err && t_pass no_command || t_fail no_command "$(cat n.err)"
"$PT" help nonesuch >/dev/null 2>&1
[ $? -eq 2 ] && t_pass help_unknown || t_fail help_unknown "not exit 2"

t_done
