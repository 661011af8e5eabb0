#!/bin/sh
# The MPI function table (src/mpi/mpi_table.h) matches the installed MPI:
# every row's signature agrees with mpi.h (compile check) and every C binding
# libmpi exports with a PMPI_ twin is in the table, except the reasoned
# exclusions below.
#   MPI_Pcontrol  variadic (int level, ...): not in the table; wrappers.c
#                 defines it by hand (it only switches measurement on/off
#                 and never calls PMPI_Pcontrol).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
EXCLUDE="Pcontrol"
if ! command -v mpicc >/dev/null 2>&1; then
  t_fail "mpicc: not installed (scripts/install-deps.sh installs OpenMPI)"
  t_done
fi
ok "table signatures match mpi.h" \
  mpicc -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-deprecated-declarations \
  -o table_check "$SRC/tests/mpi/table_check.c"
{ [ -x table_check ] && ./table_check; } | sort -u >table.txt
LIB=$(mpicc -showme:libdirs | tr ' ' '\n' | while read -r d; do
  ls "$d"/libmpi.so 2>/dev/null; done | head -1)
[ -n "$LIB" ] || LIB=$(find /usr/lib -name 'libmpi.so.40*' | head -1)
nm -D --defined-only "$LIB" | awk '$2 ~ /[TW]/ && $3 ~ /^PMPI_/ {
  sub(/^PMPI_/, "", $3); print $3 }' | sort -u >exported.txt
for e in $EXCLUDE; do grep -vx "$e" exported.txt >e.tmp; mv e.tmp exported.txt; done
n=$(wc -l <exported.txt)
if [ "$n" -lt 300 ]; then
  t_fail "exported list: only $n PMPI_ symbols found in $LIB"
else
  missing=$(comm -23 exported.txt table.txt | tr '\n' ' ')
  if [ -z "$missing" ]; then t_pass "all $n exported MPI C bindings in table"
  else t_fail "missing from src/mpi/mpi_table.h: $missing"; fi
fi
# the Fortran table is derived from the C one by its generator
if python3 "$SRC/scripts/gen-mpi-ftable.py" "$SRC/src/mpi/mpi_table.h" |
  cmp -s - "$SRC/src/mpi/mpi_ftable.h"; then
  t_pass "mpi_ftable.h is gen-mpi-ftable.py's output"
else
  t_fail "mpi_ftable.h" "differs from scripts/gen-mpi-ftable.py src/mpi/mpi_table.h"
fi
t_done
