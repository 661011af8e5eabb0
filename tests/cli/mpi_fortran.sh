#!/bin/sh
# The recorder's Fortran bindings (src/mpi/mpi_ftable.h): Fortran programs
# of our own, with the mpi module (OpenMPI's mpif.h entry points) and the
# mpi_f08 module, unmodified under LD_PRELOAD and linked with
# -lparatrace-mpi.  The programs check their own results (statuses,
# 1-based Waitany/Waitsome indices, MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE,
# handles made and freed, strings with trailing blanks) and count their
# calls; the trace must hold the same calls, matched messages, and call
# sites in the Fortran source.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/cli/common.inc"
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
SO=$B/lib/libparatrace-mpi.so
if ! command -v mpifort >/dev/null 2>&1 || [ ! -f "$SO" ]; then
  t_fail "setup" "mpifort or $SO missing (scripts/install-deps.sh installs gfortran and OpenMPI)"
  t_done
fi
RUN="mpirun --allow-run-as-root --oversubscribe"

# counts NAME PREFIX ARCHIVE: calls the program counted = calls in the trace
counts() {
  cat "$2".* | awk '{c[$1] += $2} END {for (k in c) print k, c[k]}' | sort >"$1.want"
  "$PT" stats --csv "$3" |
    awk -F, '$1 == "region" && $3 ~ /^"MPI_/ {gsub(/"/, "", $3); print $3, $5}' |
    sort >"$1.got"
  if cmp -s "$1.want" "$1.got"; then t_pass "$1: counts per function"
  else t_fail "$1: counts per function" "$(diff "$1.want" "$1.got" | head -5)"; fi
}

ok "build mpi module program" mpifort -g -o ft "$SRC/tests/mpi/fortran.f90"
ok "build mpi_f08 program" mpifort -g -o f8 "$SRC/tests/mpi/fortran08.f90"
ok "build linked program" mpifort -g -o ftl "$SRC/tests/mpi/fortran.f90" \
  -L"$B/lib" -lparatrace-mpi -Wl,-rpath,"$B/lib"

for np in 2 3 4; do
  rm -rf f.ptf calls.*
  ok "np$np run" $RUN -np $np -x LD_PRELOAD="$SO" \
    -x PARATRACE_OUTPUT="$PWD/f.ptf" ./ft "$PWD/calls" 3
  ok "np$np check" "$PT" check f.ptf
  counts "np$np" calls f.ptf
done
# every message matched, with the bytes the program sent (np 4: per rank 3
# iterations x 5 messages + 1 Sendrecv + 1 tested + 12 in one Waitall = 29,
# x 4 ranks = 116)
"$PT" check f.ptf >check.out 2>&1
grep -q ' 116 messages matched' check.out && t_pass "np4 messages matched" ||
  t_fail "np4 messages matched" "$(cat check.out)"
"$PT" dump f.ptf >f.txt
grep -q ' send .*bytes=32' f.txt && grep -q ' recv .*bytes=32' f.txt &&
  t_pass "send/recv bytes from Fortran datatypes" ||
  t_fail "send/recv bytes" "$(grep -m2 ' send ' f.txt)"
# Fortran's named datatypes (DUMPI has no number for them) keep their name
grep -q 'name="mpi.datatype.1[0-9]*" value="MPI_INTEGER, 4 bytes"' f.txt &&
  t_pass "Fortran datatypes named" ||
  t_fail "Fortran datatypes named" "$(grep -m3 'mpi.datatype.1[0-9][0-9]"' f.txt)"

rm -rf f8.ptf c8.*
ok "f08 run" $RUN -np 4 -x LD_PRELOAD="$SO" -x PARATRACE_OUTPUT="$PWD/f8.ptf" \
  ./f8 "$PWD/c8"
ok "f08 check" "$PT" check f8.ptf
counts "f08" c8 f8.ptf
# trace mode through mpi_f08: one call site per line of the program (every
# call returns into the module's own wrapper first)
l1=$(grep -n 'call MPI_Irecv' "$SRC/tests/mpi/fortran08.f90" | sed -n 1p | cut -d: -f1)
l2=$(grep -n 'call MPI_Irecv' "$SRC/tests/mpi/fortran08.f90" | sed -n 2p | cut -d: -f1)
"$PT" stats --csv f8.ptf | grep '^mpi_callsite,.*"MPI_Irecv"' >f8.sites
# (4 ranks: each line's MPI_Irecv is called once per rank)
grep -q "fortran08.f90:$l1\",4," f8.sites && grep -q "fortran08.f90:$l2\",4," f8.sites &&
  t_pass "f08 trace: a call site per line" ||
  t_fail "f08 trace: a call site per line" "want lines $l1 and $l2; $(cat f8.sites)"

# MPI_Iprobe through pmpi_iprobe_ from two lines, 50 and 30 times per rank:
# each line its own call site (the application's address is read from the
# stack slot a backtrace found, and only addresses a backtrace confirmed
# are taken)
p1=$(grep -n 'call MPI_Iprobe' "$SRC/tests/mpi/fortran08.f90" | sed -n 1p | cut -d: -f1)
p2=$(grep -n 'call MPI_Iprobe' "$SRC/tests/mpi/fortran08.f90" | sed -n 2p | cut -d: -f1)
"$PT" stats --csv f8.ptf | grep '^mpi_callsite,.*"MPI_Iprobe"' >f8.psites
grep -q "fortran08.f90:$p1\",200," f8.psites &&
  grep -q "fortran08.f90:$p2\",120," f8.psites &&
  [ "$(wc -l <f8.psites)" = 2 ] &&
  t_pass "f08 trace: MPI_Iprobe (pmpi_iprobe_) sites per line" ||
  t_fail "f08 trace: MPI_Iprobe sites per line" "want lines $p1 (200) and $p2 (120); $(cat f8.psites)"

# the bindings that convert more than references: per-process and
# per-neighbour datatype arrays (Alltoallw, in place too), MPI_UNWEIGHTED
# and weights (Dist_graph_*), address results (Win_allocate*, Alloc_mem,
# Win_shared_query; the mpi module's TYPE(C_PTR) forms reach OpenMPI's
# *_cptr entry points), CHARACTER results (a C buffer, copied back
# blank-padded or truncated), MPI_WTIME / MPI_WTICK, ranges(3, n),
# statuses in and out, MPI_Type_get_contents, MPI_Buffer_detach (mpi_f08:
# OpenMPI's ompi_buffer_detach_f08) and the MPI-1 calls with INTEGER
# addresses; with both modules, the program checks its results
ok "build fortran_more (mpi)" mpifort -g -o fm "$SRC/tests/mpi/fortran_more.F90"
ok "build fortran_more (mpi_f08)" mpifort -g -DF08 -o fm8 \
  "$SRC/tests/mpi/fortran_more.F90"
for p in fm fm8; do
  rm -rf m.ptf cm.*
  ok "$p np4 run" $RUN -np 4 -x LD_PRELOAD="$SO" \
    -x PARATRACE_OUTPUT="$PWD/m.ptf" ./$p "$PWD/cm"
  ok "$p np4 check" "$PT" check m.ptf
  counts "$p np4" cm m.ptf
  # (in the counts too; named here so that a missing one says which)
  miss=
  for f in Get_processor_name Get_library_version Error_string \
      Comm_get_name Type_get_name Win_get_name Info_get Info_get_nthkey \
      File_get_view Wtime Wtick Group_range_incl Group_range_excl \
      Request_get_status Status_set_elements Status_set_elements_x \
      Status_set_cancelled Type_get_contents Buffer_detach Open_port \
      Address Type_extent Type_lb Type_ub Type_hvector Type_hindexed \
      Type_struct; do
    grep -q "^MPI_$f [1-9]" "$p np4.got" || miss="$miss MPI_$f"
  done
  [ -z "$miss" ] && t_pass "$p: the bindings with CHARACTER results etc. traced" ||
    t_fail "$p: the bindings with CHARACTER results etc. traced" "missing:$miss"
  # 4 ranks x (2 Alltoallw + 1 Ialltoallw), 4 bytes to each of 4; and
  # 4 x 2 neighbour calls, 4 bytes to each of 2 neighbours
  "$PT" dump m.ptf | grep ' coll_end ' >m.coll
  [ "$(grep -c 'op=10 .*sent=16 received=16' m.coll)" = 12 ] &&
    [ "$(grep -c 'op=27 .*sent=8 received=8' m.coll)" = 8 ] &&
    t_pass "$p: alltoallw bytes" ||
    t_fail "$p: alltoallw bytes" "$(sort m.coll | head -5)"
done
# communicators and datatypes freed that no recorded call made (their
# constructors disabled): known before the free (a freed handle cannot be
# asked; this crashed in comm_get)
rm -rf m.ptf cm.*
ok "fm with constructors disabled" $RUN -np 3 -x LD_PRELOAD="$SO" \
  -x PARATRACE_OUTPUT="$PWD/m.ptf" \
  -x PARATRACE_DISABLE=MPI_Dist_graph_create_adjacent,MPI_Dist_graph_create,MPI_Cart_create,MPI_Comm_split_type \
  ./fm "$PWD/cm"
ok "fm with constructors disabled: check" "$PT" check m.ptf

rm -rf l.ptf cl.*
ok "linked run" $RUN -np 2 -x PARATRACE_OUTPUT="$PWD/l.ptf" ./ftl "$PWD/cl" 2
ok "linked check" "$PT" check l.ptf
counts "linked" cl l.ptf

# profile mode: statements are the Fortran program's lines
rm -rf p.ptf
ok "profile run" $RUN -np 2 -x PARATRACE_MODE=profile -x LD_PRELOAD="$SO" \
  -x PARATRACE_OUTPUT="$PWD/p.ptf" ./ft "$PWD/cp" 2
"$PT" profile p.ptf >p.txt 2>&1
line=$(grep -n 'call MPI_Waitall' "$SRC/tests/mpi/fortran.f90" | head -1 | cut -d: -f1)
grep -q "statement MPI_Waitall @ .*fortran.f90:$line " p.txt &&
  t_pass "profile: call site in the Fortran source" ||
  t_fail "profile: call site" "want fortran.f90:$line; $(grep -m3 statement p.txt)"

# mpi_f08: OpenMPI's module calls ompi_*_f from its own library; the
# statement is still the program's line
rm -rf p8.ptf
ok "f08 profile run" $RUN -np 2 -x PARATRACE_MODE=profile -x LD_PRELOAD="$SO" \
  -x PARATRACE_OUTPUT="$PWD/p8.ptf" ./f8 "$PWD/cq"
"$PT" profile p8.ptf >p8.txt 2>&1
line=$(grep -n 'call MPI_Waitall' "$SRC/tests/mpi/fortran08.f90" | head -1 | cut -d: -f1)
grep -q "statement MPI_Waitall @ .*fortran08.f90:$line " p8.txt &&
  t_pass "f08 profile: call site in the Fortran source" ||
  t_fail "f08 profile: call site" "want fortran08.f90:$line; $(grep -m3 statement p8.txt)"

# mpi_f08 with many call sites: 300 lines calling MPI_Comm_rank, run 3
# times.  The recorder learns each (module wrapper, program) address pair
# from one backtrace; it kept them in a direct-mapped cache of 256 slots,
# so sites sharing a slot took a backtrace (about 3 us) at every call:
# 670 backtraces for 900 calls.  tests/mpi/countbt.c counts them.
{
  echo 'program many'
  echo '  use mpi_f08'
  echo '  integer :: r, k, s'
  echo '  call MPI_Init()'
  echo '  s = 0'
  echo '  do k = 1, 3'
  i=0
  while [ $i -lt 300 ]; do
    echo '    call MPI_Comm_rank(MPI_COMM_WORLD, r); s = s + r'
    i=$((i + 1))
  done
  echo '  end do'
  echo '  call MPI_Finalize()'
  echo '  print *, "done", s >= 0'
  echo 'end program many'
} >many08.f90
ok "build many mpi_f08 call sites" mpifort -g -O1 -o many08 many08.f90
ok "build countbt" cc -shared -fPIC -o countbt.so "$SRC/tests/mpi/countbt.c" -ldl
rm -rf m8.ptf bt.*
ok "many f08 call sites run" $RUN -np 2 -x LD_PRELOAD="$PWD/countbt.so:$SO" \
  -x PARATRACE_OUTPUT="$PWD/m8.ptf" -x COUNTBT_OUT="$PWD/bt" ./many08 >m8.out
bts=$(echo $(cat bt.* 2>/dev/null))
sites=$("$PT" stats --csv m8.ptf | grep -c '^mpi_callsite,[0-9]*,"MPI_Comm_rank",[0-9]*,"MAIN__ many08.f90:')
set -- $bts
if [ $# = 2 ] && [ "$1" -le 310 ] && [ "$2" -le 310 ] && [ "$sites" = 300 ]; then
  t_pass "many f08 call sites: a backtrace per site ($bts for 300 sites x 3)"
else
  t_fail "many f08 call sites: a backtrace per site" \
    "backtraces per rank: $bts (want <= 310), $sites call sites (want 300)"
fi
# The bindings OpenMPI's own Fortran entry points perform (attribute
# values, Fortran procedures as callbacks), traced around them (the
# PT_MPI_FP rows): with the mpi module and with mpi_f08, the program
# checks its results (the callbacks ran, with Fortran arguments) and its
# call counts, the calls inside the callbacks too, are the trace's; the
# records are those of the C calls: MPI_Comm_get_attr(MPI_TAG_UB) with
# flag 1, the keyval MPI_Comm_create_keyval made is the one set and read,
# MPI_Op_create's op is the one MPI_Allreduce uses, MPI_Grequest_start's
# request the one MPI_Wait completes, and so on for the datatype and
# window attributes, the error handler constructors and
# MPI_Register_datarep.  The counts also show that MPI_Errhandler_create
# is one call (OpenMPI's entry point jumps to
# ompi_comm_create_errhandler_f, which is ours: called, it recorded a
# second, nested MPI_Comm_create_errhandler).
# calls_of DUMP: each MPI call's enter, "NAME location attr=value..." (the
# attributes by name, the call site left out), from `paratrace dump`
calls_of() {
  awk '
    $1 == "def" && $2 == "region" { split($3, a, "="); rn[a[2]] = $0
      sub(/.*name="/, "", rn[a[2]]); sub(/".*/, "", rn[a[2]]) }
    $1 == "def" && $2 == "attribute" { split($3, a, "="); an[a[2]] = $0
      sub(/.*name="/, "", an[a[2]]); sub(/".*/, "", an[a[2]]) }
    $1 == "event" && $4 == "enter" { split($5, a, "=")
      if (!(a[2] in rn) || rn[a[2]] !~ /^MPI_/) next
      line = rn[a[2]] " " $3
      for (i = 6; i <= NF; i++) { f = $i; gsub(/[{}]/, "", f); split(f, kv, "=")
        if (an[kv[1]] != "callsite") line = line " " an[kv[1]] "=" kv[2] }
      print line }' "$1"
}
ok "build fortran_pass (mpi)" mpifort -g -o fp "$SRC/tests/mpi/fortran_pass.F90"
ok "build fortran_pass (mpi_f08)" mpifort -g -DF08 -o fp8 \
  "$SRC/tests/mpi/fortran_pass.F90"
for p in fp fp8; do
  rm -rf pp.ptf cpp.*
  ok "$p np3 run" $RUN -np 3 -x LD_PRELOAD="$SO" \
    -x PARATRACE_OUTPUT="$PWD/pp.ptf" ./$p "$PWD/cpp"
  ok "$p np3 check" "$PT" check pp.ptf
  counts "$p np3" cpp pp.ptf
  "$PT" dump pp.ptf >pp.txt
  calls_of pp.txt >pp.calls
  ga=$(grep -c '^MPI_Comm_get_attr [0-9]* comm=i:2 keyval=i:0 flag=i:1$' pp.calls)
  [ "$ga" = 3 ] && t_pass "$p: MPI_Comm_get_attr(MPI_TAG_UB) recorded" ||
    t_fail "$p: MPI_Comm_get_attr(MPI_TAG_UB) recorded" \
      "$ga of 3; $(grep -m3 '^MPI_Comm_get_attr' pp.calls)"
  bad=
  for r in 0 1 2; do
    awk -v r=$r '$2 == r' pp.calls >pp.r
    kv=$(awk '$1 == "MPI_Comm_create_keyval" { print $3 }' pp.r)
    sk=$(awk '$1 == "MPI_Comm_set_attr" { print $4 }' pp.r | sort -u)
    gk=$(awk '$1 == "MPI_Comm_get_attr" && $4 != "keyval=i:0" { print $4 }' pp.r | sort -u)
    op=$(awk '$1 == "MPI_Op_create" { print $4 }' pp.r)
    ar=$(awk '$1 == "MPI_Allreduce" { print $5; exit }' pp.r)
    gr=$(awk '$1 == "MPI_Grequest_start" { print $3 }' pp.r)
    wr=$(awk '$1 == "MPI_Wait" { print $3 }' pp.r)
    case "$kv" in keyval=i:[0-9]*) ;; *) bad="$bad rank $r keyval '$kv';" ;; esac
    [ "$sk" = "$kv" ] && [ "$gk" = "$kv" ] ||
      bad="$bad rank $r keyval made $kv, set $sk, read $gk;"
    case "$op" in op=i:1[0-9][0-9]) ;; *) bad="$bad rank $r op '$op';" ;; esac
    [ "$ar" = "$op" ] || bad="$bad rank $r Op_create $op, Allreduce $ar;"
    case "$gr" in request=i:[2-9]*) ;; *) bad="$bad rank $r request '$gr';" ;; esac
    [ "$wr" = "$gr" ] || bad="$bad rank $r Grequest_start $gr, Wait $wr;"
  done
  [ -z "$bad" ] && t_pass "$p: keyval, op and request ids as from C" ||
    t_fail "$p: keyval, op and request ids as from C" "$bad"
  # the datatype and window keyvals and attributes, the datarep's name,
  # the MPI-1 attribute calls (mpi module only), as C records them
  awk '$2 == 0' pp.calls >pp.r
  td=$(awk '$1 == "MPI_Type_dup" { print $4 }' pp.r | sed 's/newtype=//')
  tk=$(awk '$1 == "MPI_Type_create_keyval" { print $3 }' pp.r)
  wn=$(awk '$1 == "MPI_Win_create" { print $6 }' pp.r)
  wk=$(awk '$1 == "MPI_Win_create_keyval" { print $3 }' pp.r)
  bad=
  for want in "MPI_Type_set_attr 0 datatype=$td $tk" \
      "MPI_Type_get_attr 0 datatype=$td $tk flag=i:1" \
      "MPI_Win_set_attr 0 $wn $wk" "MPI_Win_get_attr 0 $wn $wk flag=i:1" \
      'MPI_Register_datarep 0 name=s:"ptrep"' 'MPI_File_create_errhandler 0' \
      'MPI_Win_create_errhandler 0'; do
    grep -qxF "$want" pp.r || bad="$bad [$want]"
  done
  if [ $p = fp ]; then
    ck=$(awk '$1 == "MPI_Keyval_create" { print $3 }' pp.r)
    cc=$(awk '$1 == "MPI_Attr_put" { print $3 }' pp.r)
    for want in "MPI_Attr_get 0 $cc $ck flag=i:1" \
        "MPI_Attr_get 0 comm=i:2 key=i:0 flag=i:1" 'MPI_Errhandler_create 0'; do
      grep -qxF "$want" pp.r || bad="$bad [$want]"
    done
  fi
  [ -z "$bad" ] && t_pass "$p: datatype, window and MPI-1 attributes as from C" ||
    t_fail "$p: datatype, window and MPI-1 attributes as from C" \
      "missing$bad; $(sed -n '/Type_dup/,$p' pp.r | head -30)"
  # call sites: MPI_Op_create's is its line; the MPI_Comm_size the delete
  # callback calls inside MPI_Comm_set_attr (and MPI_Comm_free) is in
  # delete_fn, and the MPI_Comm_set_attr calls are the main program's
  # (after the nested call, the outer one still finds its caller)
  "$PT" stats --csv pp.ptf | grep '^mpi_callsite,' >pp.sites
  l=$(grep -n 'call MPI_Op_create' "$SRC/tests/mpi/fortran_pass.F90" | cut -d: -f1)
  if grep -q "\"MPI_Op_create\",[0-9]*,\"MAIN__ fortran_pass.F90:$l\",3," pp.sites &&
    grep -q '"MPI_Comm_size",[0-9]*,"fpass_cb::delete_fn fortran_pass.F90:[0-9]*",9,' pp.sites &&
    [ "$(grep -c '"MPI_Comm_set_attr",' pp.sites)" -ge 1 ] &&
    ! grep '"MPI_Comm_set_attr",' pp.sites | grep -vq '"MAIN__ fortran_pass.F90:'; then
    t_pass "$p: call sites of the pass-through calls and of a callback's calls"
  else
    t_fail "$p: call sites of the pass-through calls and of a callback's calls" \
      "want MPI_Op_create at line $l; $(grep 'Op_create\|Comm_size\|set_attr' pp.sites | cut -d, -f3,5,6)"
  fi
  # stats names them
  "$PT" stats pp.ptf >pp.stats 2>&1
  miss=
  for f in Comm_get_attr Comm_set_attr Comm_create_keyval Op_create \
      Comm_create_errhandler Grequest_start; do
    grep -q "MPI_$f" pp.stats || miss="$miss MPI_$f"
  done
  [ -z "$miss" ] && t_pass "$p: paratrace stats shows them" ||
    t_fail "$p: paratrace stats shows them" "missing:$miss"
done
# their calls with recording switched off go straight to OpenMPI's
rm -rf pp.ptf cpp.*
ok "fp8 with the pass-through calls disabled" $RUN -np 2 -x LD_PRELOAD="$SO" \
  -x PARATRACE_OUTPUT="$PWD/pp.ptf" \
  -x PARATRACE_DISABLE=MPI_Op_create,MPI_Comm_get_attr,MPI_Comm_create_keyval \
  ./fp8 "$PWD/cpp"
"$PT" stats --csv pp.ptf | grep -c '"MPI_\(Op_create\|Comm_get_attr\|Comm_create_keyval\)"' >pp.n
[ "$(cat pp.n)" = 0 ] && t_pass "fp8 disabled: not recorded" ||
  t_fail "fp8 disabled: not recorded" "$(cat pp.n) rows"
# linked with -lparatrace-mpi, which defines every Fortran entry point the
# program calls, the program does not need OpenMPI's libmpi_mpifh and the
# linker (--as-needed) leaves it out: the recorder opens it for the
# pass-through calls (they failed with MPI_ERR_INTERN: no entry point)
ok "build fortran_pass linked" mpifort -g -o fpl "$SRC/tests/mpi/fortran_pass.F90" \
  -L"$B/lib" -lparatrace-mpi -Wl,-rpath,"$B/lib"
rm -rf pl.ptf cpl.*
ok "fpl np2 run" $RUN -np 2 -x PARATRACE_OUTPUT="$PWD/pl.ptf" ./fpl "$PWD/cpl"
ok "fpl np2 check" "$PT" check pl.ptf
counts "fpl np2" cpl pl.ptf
# without OpenMPI's Fortran library (a C program calling the entry points
# it finds in the recorder, PARATRACE_MPI_FORTRAN_LIB naming no library):
# an MPI error code in ierr, one line on stderr per entry point, no
# crash; with the library (the default name), the recorder opens it and
# the calls succeed
ok "build fnoreal" mpicc -o fnoreal "$SRC/tests/mpi/fnoreal.c"
rm -rf nr.ptf
$RUN -np 1 -x LD_PRELOAD="$SO" -x PARATRACE_OUTPUT="$PWD/nr.ptf" \
  -x PARATRACE_MPI_FORTRAN_LIB=/nonexistent/libmpi_mpifh.so ./fnoreal fail \
  >nr.out 2>nr.err
rc=$?
if [ $rc = 0 ] && grep -q '^fnoreal: ierr [1-9][0-9]* [1-9][0-9]* sum 1$' nr.out &&
  [ "$(grep -c 'ompi_op_create_f not found' nr.err)" = 1 ] &&
  [ "$(grep -c 'ompi_comm_get_attr_f not found' nr.err)" = 1 ]; then
  t_pass "no OpenMPI Fortran library: the calls fail cleanly"
else
  t_fail "no OpenMPI Fortran library: the calls fail cleanly" \
    "exit $rc: $(cat nr.out) $(head -c 400 nr.err)"
fi
rm -rf nr.ptf
$RUN -np 1 -x LD_PRELOAD="$SO" -x PARATRACE_OUTPUT="$PWD/nr.ptf" \
  ./fnoreal ok >nr.out 2>nr.err
rc=$?
if [ $rc = 0 ] && grep -q '^fnoreal: ierr 0 0 sum 1$' nr.out &&
  ! grep -q 'not found' nr.err; then
  t_pass "OpenMPI's Fortran library not loaded: the recorder opens it"
else
  t_fail "OpenMPI's Fortran library not loaded: the recorder opens it" \
    "exit $rc: $(cat nr.out) $(head -c 400 nr.err)"
fi
# PARATRACE_MPI_FORTRAN_LIB naming the recorder itself: its own entry
# point is not taken for OpenMPI's (the call called itself until the
# stack ran out: a segmentation fault); the calls fail cleanly
rm -rf nr.ptf
$RUN -np 1 -x LD_PRELOAD="$SO" -x PARATRACE_OUTPUT="$PWD/nr.ptf" \
  -x PARATRACE_MPI_FORTRAN_LIB="$SO" ./fnoreal fail >nr.out 2>nr.err
rc=$?
if [ $rc = 0 ] && grep -q '^fnoreal: ierr [1-9][0-9]* [1-9][0-9]* sum 1$' nr.out &&
  [ "$(grep -c 'ompi_op_create_f not found' nr.err)" = 1 ]; then
  t_pass "PARATRACE_MPI_FORTRAN_LIB naming the recorder: no recursion"
else
  t_fail "PARATRACE_MPI_FORTRAN_LIB naming the recorder: no recursion" \
    "exit $rc: $(cat nr.out) $(head -c 400 nr.err)"
fi
# MPI_Comm_spawn and MPI_Comm_spawn_multiple (CHARACTER arrays, through
# OpenMPI's own entry points): the children check their arguments and
# the numbers the parent sends; each parent rank records both calls as C
# would (the command as a string, maxprocs, root, comm, the new
# intercommunicator, errcodes unless MPI_ERRCODES_IGNORE), and the sends
# to the children are on those intercommunicators
ok "build fortran_spawn (mpi)" mpifort -g -o fs "$SRC/tests/mpi/fortran_spawn.F90"
ok "build fortran_spawn (mpi_f08)" mpifort -g -DF08 -o fs8 \
  "$SRC/tests/mpi/fortran_spawn.F90"
for p in fs fs8; do
  rm -rf fs.ptf
  $RUN -np 2 -x LD_PRELOAD="$SO" -x PARATRACE_OUTPUT="$PWD/fs.ptf" ./$p \
    >fs.out 2>fs.err
  rc=$?
  if [ $rc = 0 ] && grep -q '^fortran_spawn: ok' fs.out &&
    [ "$(grep -c '^child ok' fs.out)" = 3 ]; then
    t_pass "$p: spawned children ran"
  else
    t_fail "$p: spawned children ran" "exit $rc: $(cat fs.out) $(head -c 300 fs.err)"
    continue
  fi
  ok "$p: check" "$PT" check fs.ptf
  "$PT" dump fs.ptf >fs.txt
  calls_of fs.txt >fs.calls
  bad=
  for r in 0 1; do
    s1=$(awk -v r=$r '$1 == "MPI_Comm_spawn" && $2 == r' fs.calls)
    s2=$(awk -v r=$r '$1 == "MPI_Comm_spawn_multiple" && $2 == r' fs.calls)
    case "$s1" in "MPI_Comm_spawn $r command=s:\"./$p\" maxprocs=i:1 root=i:0 comm=i:2 newcomm=i:"*" errcodes=ia:[0]") ;;
      *) bad="$bad rank $r: $s1;" ;; esac
    case "$s2" in "MPI_Comm_spawn_multiple $r count=i:2 maxprocs=ia:[1,1] root=i:0 comm=i:2 newcomm=i:"*) ;;
      *) bad="$bad rank $r: $s2;" ;; esac
  done
  n1=$(awk '$1 == "MPI_Comm_spawn" && $2 == 0 { sub(/.*newcomm=i:/, ""); print $1 }' fs.calls)
  n2=$(awk '$1 == "MPI_Comm_spawn_multiple" && $2 == 0 { sub(/.*newcomm=i:/, ""); print $1 }' fs.calls)
  [ "$(grep -c " 0 send .*peer=-1 comm=$n1 tag=1 bytes=4" fs.txt)" = 1 ] &&
    [ "$(grep -c " 0 send .*peer=-1 comm=$n2 tag=1 bytes=4" fs.txt)" = 2 ] &&
    [ "$n1" != "$n2" ] || bad="$bad sends not on $n1 / $n2: $(grep ' send ' fs.txt)"
  [ -z "$bad" ] && t_pass "$p: MPI_Comm_spawn(_multiple) recorded as from C" ||
    t_fail "$p: MPI_Comm_spawn(_multiple) recorded as from C" "$bad"
done
t_done
