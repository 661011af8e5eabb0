# The communication of a trace's text form (paratrace dump), per location,
# on communicators other than COMM_WORLD / COMM_SELF: messages with peer,
# tag and bytes, collectives with root and bytes, each with its
# communicator's members (and an intercommunicator's remote group).  With
# -v ids=1 the communicator id too.  The DUMPI round-trip tests compare
# this for the recorded trace and the one read back.
{ sub(/^def@[0-9]+ /, "def ") }
$1 == "def" && $2 == "group" {
  id = ""; m = ""
  for (i = 3; i <= NF; i++) {
    if ($i ~ /^id=/) id = substr($i, 4)
    if ($i ~ /^members=/) m = substr($i, 9)
  }
  gm[id] = m
}
$1 == "def" && $2 == "keyval" && /name="otf2:intercomm"/ {
  for (i = 3; i <= NF; i++) {
    if ($i ~ /^scope=/) sc = substr($i, 7)
    if ($i ~ /^value=/) { v = substr($i, 7); gsub(/"/, "", v) }
  }
  remote[sc] = v
}
$1 == "def" && $2 == "comm" {
  for (i = 3; i <= NF; i++) {
    if ($i ~ /^id=/) id = substr($i, 4)
    if ($i ~ /^group=/) g = substr($i, 7)
  }
  cg[id] = g
}
$1 == "event" && ($4 == "send" || $4 == "recv" || $4 == "isend" ||
                  $4 == "irecv" || $4 == "coll_end") {
  delete f
  for (i = 5; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
  c = f["comm"]
  if (c == 2 || c == 3) next
  sig = gm[cg[c]]
  if (c in remote) sig = sig "|" gm[remote[c]]
  if (ids) sig = sig " " c
  if ($4 == "coll_end")
    print $3, $4, "root=" f["root"], "sent=" f["sent"], "received=" f["received"], sig
  else
    print $3, $4, "peer=" f["peer"], "tag=" f["tag"], "bytes=" f["bytes"], sig
}
