#!/bin/sh
# The public headers as a user includes them: each one alone compiles
# warning-free as C11 (-pedantic) with gcc and clang, and as C++ (the
# extern "C" blocks balance; timeline.h closed its block at once, so its
# declarations got C++ linkage and its last '}' did not compile), and a
# C++ program that calls a function of every header links against the
# library.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
INC=$SRC/include

for h in "$INC"/paratrace/*.h; do
  n=$(basename "$h" .h)
  printf '#include <paratrace/%s.h>\nint main(void) { return 0; }\n' "$n" >"h_$n.c"
  for cc in gcc clang; do
    command -v $cc >/dev/null 2>&1 || continue
    ok "c11_${cc}_$n" $cc -std=c11 -Wall -Wextra -pedantic -Werror \
      -Wstrict-prototypes -I"$INC" -c "h_$n.c" -o /dev/null
  done
  for cxx in g++ clang++; do
    command -v $cxx >/dev/null 2>&1 || continue
    ok "cxx_${cxx}_$n" $cxx -x c++ -std=c++11 -Wall -Wextra -pedantic -Werror \
      -I"$INC" -c "h_$n.c" -o /dev/null
  done
done

# C linkage: one function of each header called from C++ and linked.
if command -v g++ >/dev/null 2>&1 && [ -f "$B/lib/libparatrace.a" ]; then
  # a sanitized build (make SAN=1) links with the sanitizers' runtimes
  SANF=
  nm "$B/lib/libparatrace.a" 2>/dev/null | grep -q __asan_ &&
    SANF=-fsanitize=address,undefined
  cat >link.cpp <<'CPP'
#include <paratrace/paratrace.h>
#include <paratrace/analysis.h>
#include <cstdio>
int main(int argc, char **) {
  std::printf("%s\n", pt_strerror(PT_EORDER));     // status.h
  std::printf("%s\n", pt_event_kind_name(1));      // model.h
  std::printf("%zu\n", pt_format_count());         // format.h
  if (argc > 5) {  // referenced, not run
    pt_writer_abort(nullptr);                      // writer.h
    pt_reader_close(nullptr);                      // reader.h
    pt_timeline_free(nullptr);                     // timeline.h
    (void)pt_rec_enabled();                        // record.h
    (void)pt_check_kind_name(0);                   // analysis.h
    pt_gen_destroy(nullptr);                       // generate.h
    (void)pt_profile_kind_name(0);                 // profile.h
  }
  return 0;
}
CPP
  ok cxx_link g++ -std=c++11 $SANF -I"$INC" link.cpp -o link "$B/lib/libparatrace.a" \
    -lotf2 -lzstd -lz -lm -pthread &&
    ok cxx_run ./link >/dev/null
fi

t_done
