#!/bin/sh
# make check: build with gcc, clang and ASan+UBSan; run every unit test, CLI
# test and fuzz corpus; print "N passed, M failed"; exit non-zero on failure.
set -u
cd "$(dirname "$0")/.."
PT_SRCDIR=$PWD; export PT_SRCDIR
JOBS=${JOBS:-2}
LOG=$PWD/build/check-logs
mkdir -p "$LOG"
pass=0
fail=0
failed=""

ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); failed="$failed $1"; echo "FAIL $1"; }

# step NAME CMD...: one pass/fail for a whole command; output to a log.
step() {
  name=$1; shift
  if "$@" >"$LOG/$name.log" 2>&1; then ok "$name"; else
    bad "$name"; tail -n 30 "$LOG/$name.log"; fi
}

# run_tests BUILD TAG: every unit-test program and CLI script; one result
# per test case (PASS/FAIL lines they print).
run_tests() {
  b=$1; tag=$2
  for t in "$b"/tests/test_*; do
    [ -x "$t" ] || continue
    n=$(basename "$t")
    out=$(cd "$b/tests" && TMPDIR=$(mktemp -d) "./$n" 2>"$LOG/$tag-$n.err"); rc=$?
    count_lines "$tag/$n" "$out" "$rc" "$LOG/$tag-$n.err"
  done
  for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    n=$(basename "$s" .sh)
    out=$(PARATRACE="$PWD/$b/bin/paratrace" BUILD="$b" sh "$s" 2>"$LOG/$tag-cli-$n.err"); rc=$?
    count_lines "$tag/cli/$n" "$out" "$rc" "$LOG/$tag-cli-$n.err"
  done
}

T0=$(date +%s)
section() { echo "== $1 (at $(($(date +%s) - T0)) s)"; }

count_lines() {
  what=$1; out=$2; rc=$3; err=$4
  p=$(printf '%s\n' "$out" | grep -c '^PASS ' || true)
  f=$(printf '%s\n' "$out" | grep -c '^FAIL ' || true)
  printf '%s\n' "$out" | grep '^FAIL ' | sed "s|^FAIL |FAIL $what: |"
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$f" -gt 0 ]; then failed="$failed $what"; tail -n 20 "$err"; fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    bad "$what (exit $rc)"; tail -n 20 "$err"
  fi
}

section "gcc build"
step build-gcc make -j"$JOBS" BUILD=build all tests
run_tests build gcc
step install scripts/check-install.sh

section "clang build (warnings as errors)"
step build-clang make -j"$JOBS" CC=clang BUILD=build-clang all tests

section "AddressSanitizer + UndefinedBehaviorSanitizer"
step build-asan make -j"$JOBS" SAN=1 BUILD=build-asan all tests
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# libotf2-internal leaks only (see the file)
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
run_tests build-asan asan
unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS

section "fuzz corpora (each input once)"
if make -j"$JOBS" fuzz-build >"$LOG/fuzz-build.log" 2>&1; then
  ok fuzz-build
  for fz in build-fuzz/fuzz/fuzz_*; do
    n=$(basename "$fz"); c=tests/fuzz/corpus/${n#fuzz_}
    [ -d "$c" ] || { bad "fuzz/$n (no corpus $c)"; continue; }
    # (-timeout: an input that runs for a minute is a failure, reported
    # as such, not a make check that waits libFuzzer's 20 minutes)
    if "$fz" -runs=0 -timeout=60 "$c" >"$LOG/$n.log" 2>&1 &&
       "$fz" -max_total_time="${FUZZ_CHECK_SECONDS:-10}" -timeout=60 -rss_limit_mb=1024 \
         "$(mktemp -d)" "$c" >>"$LOG/$n.log" 2>&1; then
      ok "fuzz/$n"
    else bad "fuzz/$n"; tail -n 30 "$LOG/$n.log"; fi
  done
else
  bad fuzz-build; tail -n 30 "$LOG/fuzz-build.log"
fi

echo
echo "(make check took $(($(date +%s) - T0)) s)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
