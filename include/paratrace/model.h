/* paratrace: the data model.
 *
 * Every trace, whatever its format, is a sequence of *items*: definitions
 * (pt_def), time-stamped events (pt_event), cumulative summaries
 * (pt_summary), snapshot entries (pt_snapshot) and stream-map entries
 * (pt_stream_entry).  Sources yield items, sinks consume them.
 *
 * The model is the union of what PICL, OTF 1.x, SST DUMPI and OTF2 can
 * express; fields a format cannot express are left at their defaults and
 * anything without a dedicated field travels as a typed attribute.
 *
 * Both pt_def and pt_event are *generic* structs: a fixed set of slots whose
 * meaning depends on the kind.  The tables PT_DEF_KINDS and PT_EVENT_KINDS
 * below say, for each kind, which slots are used and what they are called;
 * the binary and text codecs are generated from those tables.  A slot a kind
 * does not use must be zero / NULL (codecs neither write nor read it).
 *
 * Memory: pointers inside items are borrowed; whoever hands an item out
 * documents how long they stay valid (typically "until the next call").
 */
#ifndef PARATRACE_MODEL_H
#define PARATRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reserved id meaning "none" for optional references (parent, group...). */
#define PT_NONE UINT64_MAX

/* ---------------------------------------------------------------------- */
/* Typed values and attributes                                            */
/* ---------------------------------------------------------------------- */

/* X(NAME, text) -- value types of attributes and event values. */
#define PT_TYPES(X)                                                          \
  X(NONE, "none")     /* no value */                                         \
  X(INT, "i")         /* int64_t  v.i */                                     \
  X(UINT, "u")        /* uint64_t v.u */                                     \
  X(DOUBLE, "d")      /* double   v.d */                                     \
  X(STRING, "s")      /* const char *v.s, NUL-terminated, UTF-8 or bytes */  \
  X(INTS, "ia")       /* const int64_t *v.ints, `count` elements */

typedef enum pt_type {
#define PT__TYPE_ENUM(name, text) PT_TYPE_##name,
  PT_TYPES(PT__TYPE_ENUM)
#undef PT__TYPE_ENUM
  PT_TYPE__COUNT
} pt_type;

typedef struct pt_value {
  uint32_t type;  /* pt_type */
  uint32_t count; /* PT_TYPE_INTS: number of elements; else 0 */
  union {
    int64_t i;
    uint64_t u;
    double d;
    const char *s;
    const int64_t *ints;
  } v;
} pt_value;

/* One attribute of an event: `key` is the id of a PT_DEF_ATTRIBUTE
 * definition that names it (for example a DUMPI argument name). */
typedef struct pt_attr {
  uint64_t key;
  pt_value val;
} pt_attr;

/* ---------------------------------------------------------------------- */
/* Definitions                                                            */
/* ---------------------------------------------------------------------- */

/* Slots of a definition, in codec order. */
#define PT_DEF_SLOTS(X)                                                      \
  X(ID, id) X(PARENT, parent) X(REF, ref) X(REF2, ref2) X(I0, i0) X(I1, i1)  \
  X(I2, i2) X(I3, i3) X(D0, d0) X(NAME, name) X(S1, s1) X(S2, s2)           \
  X(S3, s3) X(MEMBERS, members)

enum {
#define PT__DSLOT_ENUM(NAME, field) PT_DSLOT_##NAME,
  PT_DEF_SLOTS(PT__DSLOT_ENUM)
#undef PT__DSLOT_ENUM
  PT_DSLOT__COUNT
};

/* X(NAME, text, id, parent, ref, ref2, i0, i1, i2, i3, d0, name, s1, s2, s3,
 *   members) -- every definition kind with the name of each slot it uses
 * (0 = unused).  The slot names are the keys of the text form. */
#define PT_DEF_KINDS(X)                                                       \
  /* Clock: ticks per second, epoch (offset of tick 0, ns since 1970), the   \
   * global start (PT_NONE: unknown, tools count from the first event) and    \
   * length in ticks. One per trace. */                                        \
  X(CLOCK, "clock", 0, "start", 0, 0, "ticks_per_second", "epoch", "length", \
    0, 0, 0, 0, 0, 0, 0)                                                      \
  /* Clock synchronisation sample of one location (group): at local time     \
   * `time` the clock differed from the reference by `offset` ticks. */       \
  X(CLOCK_SYNC, "clock_sync", 0, 0, "location", 0, "time", "offset", 0, 0,   \
    "stddev", 0, 0, 0, 0, 0)                                                  \
  /* System tree node (machine, cabinet, node). */                            \
  X(SYSTEM_NODE, "system_node", "id", "parent", 0, 0, 0, 0, 0, 0, 0, "name", \
    "class", 0, 0, 0)                                                         \
  /* Location group: a process / MPI rank.  type: 0 unknown, 1 process,    \
   * 2 accelerator (OTF2's numbers). */                                       \
  X(LOCATION_GROUP, "location_group", "id", "system_node", "creator", 0,     \
    "type", "rank", 0, 0, 0, "name", 0, 0, 0, 0)                              \
  /* Location: a thread (or accelerator stream / metric location). */         \
  X(LOCATION, "location", "id", "group", 0, 0, "type", "events", 0, 0, 0,    \
    "name", 0, 0, 0, 0)                                                       \
  /* Region: function, MPI call, loop, user block. role, paradigm: ints of    \
   * pt_region_role / pt_paradigm. */                                        \
  X(REGION, "region", "id", 0, 0, 0, "role", "paradigm", "begin_line",       \
    "end_line", 0, "name", "canonical", "description", "file", 0)             \
  /* Call site: a statement `line` of `file` inside procedure `region`       \
   * calling region `callee`; parent = enclosing call site or loop. */        \
  X(CALLSITE, "callsite", "id", "parent", "region", "callee", "line", 0, 0,  \
    0, 0, "name", "file", 0, 0, 0)                                            \
  /* Group of locations, ranks, regions or metrics.  type: pt_group_kind. */  \
  X(GROUP, "group", "id", 0, 0, 0, "type", "paradigm", "flags", 0, 0,        \
    "name", 0, 0, 0, "members")                                               \
  /* Communicator over `group`; parent = parent communicator. */              \
  X(COMM, "comm", "id", "parent", "group", 0, "paradigm", "flags", 0, 0, 0,  \
    "name", 0, 0, 0, 0)                                                       \
  /* Event-type label (PICL -5): event type `code` is called `name`. */       \
  X(LABEL, "label", "id", 0, 0, 0, "code", "record_type", 0, 0, 0, "name",   \
    0, 0, 0, 0)                                                               \
  /* Data descriptor (PICL -6): data of record type `record_type`, event     \
   * type `code` is described by integer descriptor `descriptor` (0-5) or by  \
   * the scanf control string `format`. */                                    \
  X(DESCRIPTOR, "descriptor", "id", 0, 0, 0, "code", "record_type",          \
    "descriptor", 0, 0, 0, "format", 0, 0, 0)                                 \
  /* Metric (counter). type: pt_type of its values; mode: pt_metric_mode;     \
   * ref = scope (location, group, system node) or PT_NONE. */                \
  X(METRIC, "metric", "id", 0, "scope", 0, "type", "mode", "base",           \
    "exponent", 0, "name", "unit", "description", 0, 0)                       \
  /* File (path) known to the trace; parent = system node scope. */           \
  X(FILE, "file", "id", "system_node", 0, 0, 0, 0, 0, 0, 0, "name", 0, 0, 0, \
    0)                                                                        \
  /* I/O handle (open file, stream); ref = file, ref2 = communicator. */      \
  X(IO_HANDLE, "io_handle", "id", "parent", "file", "comm", "paradigm",      \
    "flags", 0, 0, 0, "name", 0, 0, 0, 0)                                     \
  /* Attribute key for event attributes; type: pt_type of its values;        \
   * code: the source format's own type code, if any. */                      \
  X(ATTRIBUTE, "attribute", "id", 0, 0, 0, "type", "code", 0, 0, 0, "name",  \
    "description", 0, 0, 0)                                                   \
  /* Parameter (OTF2 parameter) used by PT_EV_PARAMETER. */                  \
  X(PARAMETER, "parameter", "id", 0, 0, 0, "type", 0, 0, 0, 0, "name", 0, 0, \
    0, 0)                                                                     \
  /* Free key-value metadata (DUMPI host/user/version, OTF2 properties). */   \
  X(KEYVAL, "keyval", "id", "scope", 0, 0, 0, 0, 0, 0, 0, "name", "value",   \
    0, 0, 0)

typedef enum pt_def_kind {
  PT_DEF_INVALID = 0,
#define PT__DEF_ENUM(NAME, text, ...) PT_DEF_##NAME,
  PT_DEF_KINDS(PT__DEF_ENUM)
#undef PT__DEF_ENUM
  PT_DEF__COUNT
} pt_def_kind;

/* A definition.  Slot meaning per kind: see PT_DEF_KINDS. */
typedef struct pt_def {
  uint32_t kind;   /* pt_def_kind */
  uint32_t scope;  /* 0 = global; else 1 + stream id of a local definition */
  uint64_t id, parent, ref, ref2;
  int64_t i0, i1, i2, i3;
  double d0;
  const char *name, *s1, *s2, *s3; /* NULL = absent */
  uint64_t nmembers;
  const uint64_t *members;
} pt_def;

/* Region roles (REGION.role). */
typedef enum pt_region_role {
  PT_ROLE_UNKNOWN = 0, PT_ROLE_FUNCTION, PT_ROLE_WRAPPER, PT_ROLE_LOOP,
  PT_ROLE_CODE, PT_ROLE_USER, PT_ROLE_POINT2POINT, PT_ROLE_COLLECTIVE,
  PT_ROLE_BARRIER, PT_ROLE_FILE_IO, PT_ROLE_SYNC, PT_ROLE_ARTIFICIAL,
  PT_ROLE_TRACING
} pt_region_role;

/* Paradigms (REGION.paradigm, GROUP.paradigm, COMM.paradigm...). */
typedef enum pt_paradigm {
  PT_PARADIGM_UNKNOWN = 0, PT_PARADIGM_USER, PT_PARADIGM_COMPILER,
  PT_PARADIGM_MPI, PT_PARADIGM_OPENMP, PT_PARADIGM_PTHREAD, PT_PARADIGM_POSIX_IO,
  PT_PARADIGM_MPI_IO, PT_PARADIGM_PICL, PT_PARADIGM_MEASUREMENT
} pt_paradigm;

/* GROUP.type. */
typedef enum pt_group_kind {
  PT_GROUP_UNKNOWN = 0, PT_GROUP_LOCATIONS, PT_GROUP_REGIONS, PT_GROUP_METRICS,
  PT_GROUP_COMM_LOCATIONS, /* members: location ids of the comm's ranks */
  PT_GROUP_COMM_GROUP,     /* members: ranks (indices into COMM_LOCATIONS) */
  PT_GROUP_COMM_SELF, PT_GROUP_EVENT_TYPES, PT_GROUP_PROCESSES
} pt_group_kind;

/* LOCATION.type. */
typedef enum pt_location_kind {
  PT_LOCATION_UNKNOWN = 0, PT_LOCATION_THREAD, PT_LOCATION_GPU,
  PT_LOCATION_METRIC
} pt_location_kind;

/* METRIC.mode. */
typedef enum pt_metric_mode {
  PT_METRIC_ABSOLUTE = 0, /* sample is the value at that time */
  PT_METRIC_ACCUMULATED,  /* monotone counter since start */
  PT_METRIC_RELATIVE      /* value since the previous sample */
} pt_metric_mode;

/* ---------------------------------------------------------------------- */
/* Events                                                                 */
/* ---------------------------------------------------------------------- */

/* Event slots beyond time/location/kind, in codec order: X(NAME, field) */
#define PT_EVENT_SLOTS(X)                                                    \
  X(REF, ref) X(PEER, peer) X(COMM, comm) X(TAG, tag) X(SIZE, size)          \
  X(SIZE2, size2) X(REQUEST, request) X(VALUE, value) X(TEXT, text)

enum {
#define PT__ESLOT_ENUM(NAME, field) PT_ESLOT_##NAME,
  PT_EVENT_SLOTS(PT__ESLOT_ENUM)
#undef PT__ESLOT_ENUM
  PT_ESLOT__COUNT
};

/* X(NAME, text, ref, peer, comm, tag, size, size2, request, value, text)
 * -- every event kind with the name of each slot it uses (0 = unused).
 * Peers: when the trace's location groups carry distinct `rank`s, a peer is
 * the partner's rank in COMM_WORLD; otherwise (a source that knows no MPI
 * ranks) it is the partner's location id.  -1 means any/unknown; a
 * receive's tag -1 means any tag (MPI_ANY_TAG, status not recorded).
 * Sizes are bytes. */
#define PT_EVENT_KINDS(X)                                                     \
  X(ENTER, "enter", "region", 0, 0, 0, 0, 0, 0, 0, 0)                        \
  X(LEAVE, "leave", "region", 0, 0, 0, 0, 0, 0, 0, 0)                        \
  /* Point event of an event type (PICL -2), data in attributes. */           \
  X(MARK, "mark", "label", 0, 0, 0, 0, 0, 0, 0, "text")                      \
  X(SEND, "send", "callsite", "peer", "comm", "tag", "bytes", 0, 0, 0, 0)    \
  X(RECV, "recv", "callsite", "peer", "comm", "tag", "bytes", 0, 0, 0, 0)    \
  X(ISEND, "isend", "callsite", "peer", "comm", "tag", "bytes", 0,           \
    "request", 0, 0)                                                          \
  X(ISEND_COMPLETE, "isend_complete", 0, 0, 0, 0, 0, 0, "request", 0, 0)     \
  X(IRECV_REQUEST, "irecv_request", 0, 0, 0, 0, 0, 0, "request", 0, 0)       \
  X(IRECV, "irecv", "callsite", "peer", "comm", "tag", "bytes", 0,           \
    "request", 0, 0)                                                          \
  X(REQUEST_TEST, "request_test", 0, 0, 0, 0, 0, 0, "request", 0, 0)         \
  X(REQUEST_CANCELLED, "request_cancelled", 0, 0, 0, 0, 0, 0, "request", 0,  \
    0)                                                                        \
  X(COLL_BEGIN, "coll_begin", 0, 0, 0, 0, 0, 0, 0, 0, 0)                     \
  /* ref = collective operation (pt_coll_op), peer = root or -1. */           \
  X(COLL_END, "coll_end", "op", "root", "comm", 0, "sent", "received", 0, 0, \
    0)                                                                        \
  /* ref = io handle, tag = mode (pt_io_mode), size2 = flags, request =       \
   * matching id. */                                                          \
  X(IO_BEGIN, "io_begin", "handle", 0, 0, "mode", "bytes", "flags",          \
    "matching", 0, 0)                                                         \
  X(IO_END, "io_end", "handle", 0, 0, 0, "bytes", 0, "matching", 0, 0)       \
  X(METRIC, "metric", "metric", 0, 0, 0, 0, 0, 0, "value", 0)                \
  X(PARAMETER, "parameter", "parameter", 0, 0, 0, 0, 0, 0, "value", 0)       \
  /* User data record (PICL record type > 0): tag = record type, ref =        \
   * label of its event type; data in attributes. */                          \
  X(USER, "user", "label", 0, 0, "record_type", 0, 0, 0, 0, 0)               \
  /* Message / comment written immediately (PICL -7). */                      \
  X(MESSAGE, "message", "label", 0, 0, 0, 0, 0, 0, 0, "text")                \
  /* Measurement switched on (tag = 1) or off (tag = 0). */                    \
  X(MEASURE, "measure", 0, 0, 0, "on", 0, 0, 0, 0, 0)                        \
  /* The recorder flushed its buffer from this time until size2 (ticks). */   \
  X(BUFFER_FLUSH, "buffer_flush", 0, 0, 0, 0, 0, "until", 0, 0, 0)           \
  /* Buffer full: tag = policy (pt_overflow_policy); size = events lost. */   \
  X(BUFFER_OVERFLOW, "buffer_overflow", 0, 0, 0, "policy", "lost", 0, 0, 0,  \
    0)                                                                        \
  /* Threads (OTF2 fork/join and create/wait models). tag = paradigm,        \
   * size = requested threads, comm = thread team / contingent, request =     \
   * sequence number. */                                                      \
  X(THREAD_FORK, "thread_fork", 0, 0, 0, "paradigm", "threads", 0, 0, 0, 0)  \
  X(THREAD_JOIN, "thread_join", 0, 0, 0, "paradigm", 0, 0, 0, 0, 0)          \
  X(THREAD_TEAM_BEGIN, "thread_team_begin", 0, 0, "team", 0, 0, 0, 0, 0, 0)  \
  X(THREAD_TEAM_END, "thread_team_end", 0, 0, "team", 0, 0, 0, 0, 0, 0)      \
  X(THREAD_CREATE, "thread_create", 0, 0, "contingent", 0, 0, 0, "sequence", \
    0, 0)                                                                     \
  X(THREAD_BEGIN, "thread_begin", 0, 0, "contingent", 0, 0, 0, "sequence",   \
    0, 0)                                                                     \
  X(THREAD_WAIT, "thread_wait", 0, 0, "contingent", 0, 0, 0, "sequence", 0,  \
    0)                                                                        \
  X(THREAD_END, "thread_end", 0, 0, "contingent", 0, 0, 0, "sequence", 0,   \
    0)                                                                        \
  /* One-sided (RMA) operations, at the origin (OTF2's RmaPut, RmaGet,       \
   * RmaAtomic): ref = window (a source's own id: the MPI recorder's per-    \
   * rank id, OTF2's RmaWin), peer = target (COMM_WORLD rank, as a message's \
   * peer; -1 unknown), comm = the window's communicator (PT_NONE unknown),  \
   * size = bytes the origin sends (put, accumulate, an atomic's operand),   \
   * size2 = bytes it receives (get, an atomic's result), request = OTF2's   \
   * matching id (0 when none), tag of RMA_ATOMIC = pt_rma_atomic. */        \
  X(RMA_PUT, "rma_put", "window", "target", "comm", 0, "bytes", 0,           \
    "matching", 0, 0)                                                         \
  X(RMA_GET, "rma_get", "window", "target", "comm", 0, 0, "bytes",           \
    "matching", 0, 0)                                                         \
  X(RMA_ATOMIC, "rma_atomic", "window", "target", "comm", "type", "sent",    \
    "received", "matching", 0, 0)

typedef enum pt_event_kind {
  PT_EV_INVALID = 0,
#define PT__EV_ENUM(NAME, text, ...) PT_EV_##NAME,
  PT_EVENT_KINDS(PT__EV_ENUM)
#undef PT__EV_ENUM
  PT_EV__COUNT
} pt_event_kind;

/* Bit of an event kind in a kind mask (pt_reader_opts.kinds). */
#define PT_KIND_BIT(k) (UINT64_C(1) << (k))
#define PT_KINDS_ALL (~UINT64_C(0))

/* Collective operations (COLL_END.op), MPI's and OTF2's list. */
#define PT_COLL_OPS(X)                                                       \
  X(BARRIER, "barrier") X(BCAST, "bcast") X(GATHER, "gather")               \
  X(GATHERV, "gatherv") X(SCATTER, "scatter") X(SCATTERV, "scatterv")       \
  X(ALLGATHER, "allgather") X(ALLGATHERV, "allgatherv")                     \
  X(ALLTOALL, "alltoall") X(ALLTOALLV, "alltoallv")                         \
  X(ALLTOALLW, "alltoallw") X(ALLREDUCE, "allreduce") X(REDUCE, "reduce")   \
  X(REDUCE_SCATTER, "reduce_scatter") X(SCAN, "scan") X(EXSCAN, "exscan")   \
  X(REDUCE_SCATTER_BLOCK, "reduce_scatter_block")                           \
  X(CREATE_HANDLE, "create_handle") X(DESTROY_HANDLE, "destroy_handle")     \
  X(ALLOCATE, "allocate") X(DEALLOCATE, "deallocate")                       \
  X(CREATE_HANDLE_AND_ALLOCATE, "create_handle_and_allocate")               \
  X(DESTROY_HANDLE_AND_DEALLOCATE, "destroy_handle_and_deallocate")         \
  X(NEIGHBOR_ALLGATHER, "neighbor_allgather")                               \
  X(NEIGHBOR_ALLGATHERV, "neighbor_allgatherv")                             \
  X(NEIGHBOR_ALLTOALL, "neighbor_alltoall")                                 \
  X(NEIGHBOR_ALLTOALLV, "neighbor_alltoallv")                               \
  X(NEIGHBOR_ALLTOALLW, "neighbor_alltoallw") X(OTHER, "other")

typedef enum pt_coll_op {
#define PT__COLL_ENUM(NAME, text) PT_COLL_##NAME,
  PT_COLL_OPS(PT__COLL_ENUM)
#undef PT__COLL_ENUM
  PT_COLL__COUNT
} pt_coll_op;

/* I/O operation modes (IO_BEGIN.tag): OTF2's numbers, and OTHER. */
#define PT_IO_MODES(X)                                                       \
  X(READ, "read") X(WRITE, "write") X(FLUSH, "flush") X(OTHER, "other")

typedef enum pt_io_mode {
#define PT__IO_ENUM(NAME, text) PT_IO_##NAME,
  PT_IO_MODES(PT__IO_ENUM)
#undef PT__IO_ENUM
  PT_IO__COUNT
} pt_io_mode;

/* RMA_ATOMIC.tag: the kind of atomic operation, OTF2's OTF2_RmaAtomicType
 * numbers.  The MPI recorder: MPI_(R)accumulate ACCUMULATE,
 * MPI_(R)get_accumulate and MPI_Fetch_and_op FETCH_AND_ACCUMULATE,
 * MPI_Compare_and_swap COMPARE_AND_SWAP. */
#define PT_RMA_ATOMICS(X)                                                    \
  X(ACCUMULATE) X(INCREMENT) X(TEST_AND_SET) X(COMPARE_AND_SWAP) X(SWAP)    \
  X(FETCH_AND_ADD) X(FETCH_AND_INCREMENT) X(FETCH_AND_ACCUMULATE)

typedef enum pt_rma_atomic {
#define PT__RMA_ENUM(NAME) PT_RMA_##NAME,
  PT_RMA_ATOMICS(PT__RMA_ENUM)
#undef PT__RMA_ENUM
  PT_RMA__COUNT
} pt_rma_atomic;

/* BUFFER_OVERFLOW.tag: what the recorder did when its buffer was full. */
typedef enum pt_overflow_policy {
  PT_OVERFLOW_FLUSH = 0, /* wrote the buffer out and went on */
  PT_OVERFLOW_STOP,      /* stopped recording (PICL -913) */
  PT_OVERFLOW_RING       /* overwrote the oldest events (PICL -914) */
} pt_overflow_policy;

/* An event.  Slot meaning per kind: see PT_EVENT_KINDS. */
typedef struct pt_event {
  uint64_t time;     /* ticks of the trace clock */
  uint64_t location; /* LOCATION id */
  uint32_t kind;     /* pt_event_kind */
  uint32_t nattrs;   /* number of attributes */
  uint64_t ref;
  int64_t peer;
  uint64_t comm;
  int64_t tag;
  uint64_t size, size2;
  uint64_t request;
  pt_value value;
  const char *text;     /* NULL = absent */
  const pt_attr *attrs; /* nattrs entries, NULL when 0 */
} pt_event;

/* ---------------------------------------------------------------------- */
/* Summaries, snapshots, stream map                                       */
/* ---------------------------------------------------------------------- */

/* What a summary counts. */
typedef enum pt_summary_kind {
  PT_SUM_REGION = 1, /* ref = region: count = visits, incl/excl time */
  PT_SUM_MESSAGES,   /* ref = peer location or PT_NONE for all: count,
                        bytes_sent, bytes_recv */
  PT_SUM_LABEL,      /* ref = label (event type, PICL -101..-103) */
  PT_SUM_COLLECTIVE, /* ref = pt_coll_op */
  PT_SUM_IO,         /* ref = io handle or file */
  /* Not cumulative: the extremes of the interval [bytes_sent, time) since
   * the previous summary time.  ref = region: count = visits of the region
   * entered and left inside the interval, incl_time / excl_time = the
   * shortest / longest of them (ticks); ref = PT_NONE: a marker, written
   * for every location at every summary time by pt_archive_summarize. */
  PT_SUM_VISITS,
  /* One visit that crossed a summary time, written at the first summary
   * time after it ended: ref = region, incl_time = enter time, excl_time =
   * leave time, count = 1. */
  PT_SUM_SPAN,
  /* Cumulative, per call site of an MPI function (as the stats' call-site
   * table): ref = call site (PT_NONE: unknown), excl_time = the MPI
   * region; count = calls entered before t, incl_time = time in them,
   * bytes_sent / bytes_recv = bytes they sent / received. */
  PT_SUM_CALLSITE,
  /* With the same keys: count = messages sent, incl_time = messages
   * received (cumulative); bytes_sent / bytes_recv = the smallest /
   * largest size sent since the previous summary time (not cumulative;
   * bytes_sent > bytes_recv when none was sent). */
  PT_SUM_CALLSITE_MSGS,
  /* Cumulative, per receiving location and sending location (ref): count
   * = messages received before t whose send was matched by t, incl_time /
   * excl_time = their late-sender / late-receiver time (stats' message
   * matrix). */
  PT_SUM_LATE,
  /* Not cumulative: the unmatched sends at t.  ref = PT_NONE: a marker,
   * count = receives (of any location; from a defined rank if ranks) no send
   * had matched at t (the PT_SUM_LATE records at t are complete when 0).
   * Otherwise one send of
   * this location: ref = peer as recorded (int64 bits), count =
   * communicator, bytes_sent = tag (int64 bits), incl_time = the send's
   * time, excl_time = when the call that sent it was entered, bytes_recv =
   * (1 for a blocking send (SEND), 0 for ISEND) | its position in its
   * channel's queue << 1 (0 = the oldest). */
  PT_SUM_PENDING,
  /* Not cumulative: an open receive request at t: ref = request, incl_time
   * = when the call that posted it (MPI_Irecv) was entered, excl_time =
   * the IRECV_REQUEST's time. */
  PT_SUM_POSTED,
  /* Not cumulative: the call site of an MPI call open at t: ref = call
   * site, count = its depth in the call stack (0 = outermost), incl_time
   * = its enter time, excl_time = the MPI region. */
  PT_SUM_CALL_OPEN,
  /* Once per location, at the last summary time: where its MPI program
   * runs in the whole trace (mpiP's application time): count = 1 if it has
   * an MPI_Init visit | 2 if an MPI_Finalize one, incl_time = the end of
   * its first MPI_Init, excl_time = the start of its first MPI_Finalize. */
  PT_SUM_APP_SPAN,
  /* Cumulative, one-sided operations of this location (the origin) with
   * target ref (as PT_SUM_MESSAGES' peer): count = those that sent bytes
   * to it, bytes_sent = those bytes; excl_time = those that received
   * bytes from it, bytes_recv = those bytes (RMA_* events' size, size2). */
  PT_SUM_RMA,
  /* Not cumulative, as PT_SUM_VISITS per call site of an MPI function:
   * ref = call site (PT_NONE: unknown), bytes_sent = the MPI region; count
   * = its calls entered and left inside the interval [bytes_recv, time),
   * incl_time / excl_time = the shortest / longest of them (ticks).  (A
   * PT_SUM_SPAN of an MPI call has bytes_recv = 1 and its call site in
   * bytes_sent; the PT_SUM_VISITS marker has bytes_recv = 1 when the
   * location's records at t include these.) */
  PT_SUM_CALL_VISITS
} pt_summary_kind;

/* A cumulative, monotone counter of one (location, kind, ref) valid at
 * `time`: the statistics of [a, b) are summary(b) - summary(a). */
typedef struct pt_summary {
  uint64_t time;
  uint64_t location;
  uint32_t kind; /* pt_summary_kind */
  uint32_t pad_;
  uint64_t ref;
  uint64_t count;
  uint64_t incl_time, excl_time; /* ticks */
  uint64_t bytes_sent, bytes_recv;
} pt_summary;

/* One piece of the state of a location at `time` (not including events at
 * `time` itself): an open region (event.kind ENTER with its original time),
 * a pending send/receive/request, an open I/O operation.  `event.location`
 * equals `location`. */
typedef struct pt_snapshot {
  uint64_t time;
  uint64_t location;
  pt_event event; /* event.time = the original time of that event */
} pt_snapshot;

/* Location `location` is stored in stream `stream` of a native archive. */
typedef struct pt_stream_entry {
  uint64_t stream;
  uint64_t location;
} pt_stream_entry;

/* ---------------------------------------------------------------------- */
/* Items: what sources yield and sinks consume                            */
/* ---------------------------------------------------------------------- */

typedef enum pt_item_type {
  PT_ITEM_DEF = 1,
  PT_ITEM_EVENT,
  PT_ITEM_SUMMARY,
  PT_ITEM_SNAPSHOT,
  PT_ITEM_STREAM
} pt_item_type;

typedef struct pt_item {
  uint32_t type; /* pt_item_type */
  union {
    pt_def def;
    pt_event event;
    pt_summary summary;
    pt_snapshot snapshot;
    pt_stream_entry stream;
  } u;
} pt_item;

/* ---------------------------------------------------------------------- */
/* Tables as functions                                                    */
/* ---------------------------------------------------------------------- */

/* Names of kinds and types ("enter", "region", "i"...).  Return a static
 * string, or NULL for an out-of-range value.  Thread-safe. */
PT_API const char *pt_event_kind_name(uint32_t kind);
PT_API const char *pt_def_kind_name(uint32_t kind);
PT_API const char *pt_type_name(uint32_t type);
PT_API const char *pt_coll_op_name(uint32_t op);
PT_API const char *pt_io_mode_name(uint32_t mode);

/* Inverse lookups: return the kind, or PT_EV_INVALID / PT_DEF_INVALID / -1
 * when `name` is unknown. */
PT_API uint32_t pt_event_kind_from_name(const char *name);
PT_API uint32_t pt_def_kind_from_name(const char *name);
PT_API int pt_type_from_name(const char *name);
PT_API int pt_coll_op_from_name(const char *name);

/* Name of slot `slot` (PT_ESLOT_* / PT_DSLOT_*) for a kind, or NULL when the
 * kind does not use it.  Static strings; thread-safe. */
PT_API const char *pt_event_slot_name(uint32_t kind, unsigned slot);
PT_API const char *pt_def_slot_name(uint32_t kind, unsigned slot);

/* Bit mask of the slots (1 << PT_ESLOT_* / PT_DSLOT_*) a kind uses; 0 for an
 * invalid kind. */
PT_API uint32_t pt_event_slot_mask(uint32_t kind);
PT_API uint32_t pt_def_slot_mask(uint32_t kind);

/* Initialise an event / definition: every slot zero / NULL (value type
 * NONE), then kind, time and location (or id) set.  Use before filling in
 * the slots a kind uses; slots a kind does not use must stay zero. */
PT_API void pt_event_init(pt_event *ev, uint32_t kind, uint64_t time,
                          uint64_t location);
PT_API void pt_def_init(pt_def *def, uint32_t kind, uint64_t id);

/* Structural equality of two events / definitions (strings and arrays by
 * content, doubles bitwise).  Returns 1 if equal, 0 if not. */
PT_API int pt_event_equal(const pt_event *a, const pt_event *b);
PT_API int pt_def_equal(const pt_def *a, const pt_def *b);

#ifdef __cplusplus
}
#endif
#endif
