#!/bin/sh
# make install into a scratch prefix, then build and run a program against
# it through pkg-config (both the shared and the static library).
set -eu
P=$(mktemp -d)
trap 'rm -rf "$P"' EXIT
make -s install PREFIX="$P" >/dev/null
cat >"$P/use.c" <<'C'
#include <paratrace/paratrace.h>
#include <stdio.h>
int main(void) {
  pt_event e;
  pt_event_init(&e, PT_EV_ENTER, 1, 0);
  printf("%s %s\n", pt_event_kind_name(e.kind), pt_strerror(PT_ECORRUPT));
  return 0;
}
C
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
cc "$P/use.c" $(pkg-config --cflags --libs paratrace) -o "$P/use"
[ "$(LD_LIBRARY_PATH="$P/lib" "$P/use")" = "enter corrupt or malformed data" ]
cc "$P/use.c" $(pkg-config --cflags paratrace) "$P/lib/libparatrace.a" \
  $(pkg-config --static --libs-only-l paratrace | sed 's/-lparatrace//') -o "$P/use-static"
"$P/use-static" >/dev/null
[ -x "$P/bin/paratrace" ] && "$P/bin/paratrace" --version >/dev/null
