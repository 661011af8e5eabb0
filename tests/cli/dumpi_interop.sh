#!/bin/sh
# DUMPI files we write read the same with SST DUMPI's libundumpi
# (dumpi2ascii) as with our reader and `dump --style dumpi`.  The expected
# lines below are what the real dumpi2ascii (sst-dumpi 13.0.0, a4c8bf5)
# printed for these files; the test itself needs no SST DUMPI.
#
# libundumpi reads an array's stored count into the scalar argument that
# gives its length (Graph_create's numedges, Alltoallv's commsize,
# Waitall's count), replacing the value stored for it, and prints that
# many elements; a status's cancelled and error fields are int8_t.
. "$(dirname "$0")/common.inc"

# expect NAME FILE LINE...: every LINE is a line of FILE
expect() {
  name=$1 file=$2
  shift 2
  for l in "$@"; do
    if ! grep -qxF -- "$l" "$file"; then
      t_fail "$name" "no line '$l' in: $(grep -F -- "${l%%=*}" "$file" | head -3)"
      return
    fi
  done
  t_pass "$name"
}

# A recorded trace's arguments as the MPI recorder names them; the scalars
# that give an array's length are not recorded (numedges, commsize) and
# some names are the MPI standard's (array_of_displacements, mtype).
cat >args.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location id=0 group=0 name="rank 0"
def region id=1 paradigm=3 name="MPI_Graph_create"
def region id=2 paradigm=3 name="MPI_Alltoallv"
def region id=3 paradigm=3 name="MPI_Type_create_indexed_block"
def region id=4 paradigm=3 name="MPI_Waitall"
def region id=5 paradigm=3 name="MPI_Type_get_contents"
def attribute id=1 type=1 name="nnodes"
def attribute id=2 type=5 name="index"
def attribute id=3 type=5 name="edges"
def attribute id=4 type=5 name="sendcounts"
def attribute id=5 type=5 name="recvcounts"
def attribute id=6 type=1 name="count"
def attribute id=7 type=1 name="blocklength"
def attribute id=8 type=5 name="array_of_displacements"
def attribute id=9 type=1 name="oldtype"
def attribute id=10 type=5 name="requests"
def attribute id=11 type=5 name="statuses"
def attribute id=12 type=1 name="mtype"
def attribute id=13 type=1 name="maxintegers"
def attribute id=14 type=5 name="array_of_integers"
def attribute id=15 type=5 name="senddispls"
def attribute id=16 type=5 name="recvdispls"
event 1000 0 enter region=1 {1=i:4 2=ia:[1,3,5,6] 3=ia:[1,0,2,1,3,2]}
event 1100 0 leave region=1
event 1200 0 enter region=2 {4=ia:[2,2,2,2] 15=ia:[0,16,32,48] 5=ia:[1,2,3,4] 16=ia:[0,16,32,48]}
event 1300 0 leave region=2
event 1400 0 enter region=3 {6=i:2 7=i:5000 8=ia:[0,7] 9=i:9}
event 1500 0 leave region=3
event 1600 0 enter region=4 {6=i:1 10=ia:[2] 11=ia:[64,1,33819350,300,5]}
event 1700 0 leave region=4
event 1800 0 enter region=5 {12=i:101 13=i:7 14=ia:[3,2,1,3,0,5,10]}
event 1900 0 leave region=5
TXT
# no arguments at all: the writer makes them up from the events
cat >synth.txt <<'TXT'
# paratrace text 1
def clock ticks_per_second=1000000000
def location_group id=0 rank=0 name="rank 0"
def location_group id=1 rank=1 name="rank 1"
def location id=0 group=0 name="rank 0"
def location id=1 group=1 name="rank 1"
def region id=1 paradigm=3 name="MPI_Isend"
def region id=2 paradigm=3 name="MPI_Waitall"
def region id=3 paradigm=3 name="MPI_Recv"
event 1000 0 enter region=1
event 1000 0 isend peer=1 comm=2 tag=7 bytes=8 request=4
event 1100 0 leave region=1
event 1200 0 enter region=1
event 1200 0 isend peer=1 comm=2 tag=8 bytes=16 request=5
event 1300 0 leave region=1
event 1400 0 enter region=2
event 1500 0 isend_complete request=4
event 1500 0 isend_complete request=5
event 1500 0 leave region=2
event 1400 1 enter region=3
event 1500 1 recv peer=0 comm=2 tag=7 bytes=8
event 1500 1 leave region=3
event 1600 1 enter region=3
event 1700 1 recv peer=0 comm=2 tag=8 bytes=16
event 1700 1 leave region=3
TXT

for x in args synth; do
  ok "$x convert" "$PT" -q convert $x.txt -o $x.meta || continue
  # the files as read back, and the model printed before writing
  "$PT" -q dump --style dumpi --locations 0 $x.meta >$x.read 2>$x.err ||
    t_fail "$x read" "$(cat $x.err)"
  "$PT" -q dump --style dumpi --locations 0 $x.txt >$x.model 2>$x.err ||
    t_fail "$x model" "$(cat $x.err)"
  cmp -s $x.read $x.model && t_pass "$x printed the same before and after" ||
    t_fail "$x printed the same before and after" "$(diff $x.model $x.read | head -4)"
done

for f in args.read args.model; do
  expect "$f graph_create numedges from edges" $f \
    'int numedges=6' 'int nodes=4' 'int edges[6]=[1, 0, 2, 1, 3, 2]'
  expect "$f alltoallv commsize from its arrays" $f \
    'int commsize=4' 'int sendcounts[4]=[2, 2, 2, 2]' \
    'int recvcounts[4]=[1, 2, 3, 4]' 'int recvdispls[4]=[0, 16, 32, 48]'
  expect "$f indexed_block displacments" $f \
    'int count=2' 'int displacments[2]=[0, 7]'
  expect "$f status bytes are signed" $f \
    'MPI_Status statuses[1]=[{bytes=64, cancelled=-42, source=1, tag=5, error=44}]'
  expect "$f type_get_contents names" $f \
    'MPI_Datatype datatype=101 (user-defined-datatype)' 'int numintegers=7' \
    'int maxintegers=7' 'int arrintegers[7]=[3, 2, 1, 3, 0, 5, 10]'
done
for f in synth.read synth.model; do
  expect "$f waitall count from its requests" $f \
    'int count=2' 'MPI_Request requests[2]=[2, 3]'
done

# the bytes: Graph_create's record stores numedges = 6 (libundumpi keeps
# the array's count either way; our reader takes the stored value)
od -An -v -tx1 args-0000.bin | tr -d '\n' | tr -s ' ' >args.hex
grep -q ' 00 00 00 06 00 00 00 00 00 04 00 00 00 04 00 00 00 01 00 00 00 03' args.hex &&
  t_pass "graph_create numedges on disk" ||
  t_fail "graph_create numedges on disk" "$(head -c 300 args.hex)"
t_done
