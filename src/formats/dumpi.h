/* SST DUMPI format (libdumpi 13): internal interface of the record codec,
 * the dumpi2ascii-style printer and the trace-set source/sink.
 *
 * Everything per MPI function comes from ONE table, PT__DUMPI_FUNCS in
 * dumpi_table.h: X(label, name, sem, coll, order, (A(type, "arg", len, ca,
 * cb) ...)) where
 *   label  the DUMPI function label (dumpi/common/funclabels.h),
 *   name   the name dumpi2ascii prints ("MPI_Send", "MPIO_Wait"...),
 *   sem    what the call means for the model (PT__DUMPI_SEMS below),
 *   coll   the pt_coll_op of a collective (OTHER otherwise),
 *   order  0 when dumpi2ascii prints the arguments in the order they are
 *          written, else a string: the k-th printed argument is
 *          args[order[k] - 'a'] (Gatherv, Scatterv, Comm_spawn...),
 *   A(...) the arguments in WRITE order (dumpiio.c): argument type
 *          (PT__DUMPI_ATYPES), name (also the model attribute name), the
 *          index of the argument that gives the length dumpi2ascii prints
 *          for an array (-1: none), and a condition: the argument is on the
 *          wire only when args[ca] == args[cb] (-1: always).
 * Decoder, encoder, printer, attribute mapping and region definitions are
 * generic interpreters of that table; there is no code per function.
 *
 * Not public API.  Layout facts: doc/dumpi.md.
 */
#ifndef PT_FORMATS_DUMPI_H
#define PT_FORMATS_DUMPI_H

#include <stdio.h>
#include <string.h>

#include "formats/registry.h"

/* X(NAME, wire, prefix, names) -- argument types.  wire: how the value is
 * stored (PT__DW_*); prefix: the C type dumpi2ascii prints; names: which
 * constant-name table annotates the value (PT__DN_*). */
#define PT__DUMPI_ATYPES(X)                                                  \
  X(INT, I32, "int", NONE)                                                   \
  X(DEST, I32, "int", DEST)                                                  \
  X(SOURCE, I32, "int", SOURCE)                                              \
  X(TAG, I32, "int", TAG)                                                    \
  X(REQUEST, I32, "MPI_Request", NONE)                                       \
  X(IOREQUEST, I32, "MPIO_Request", NONE)                                    \
  X(I64, I64, "int64_t", NONE)                                               \
  X(FUNC, I64, "int", FUNC)                                                  \
  X(COMM, H16, "MPI_Comm", COMM)                                             \
  X(DATATYPE, H16, "MPI_Datatype", DATATYPE)                                 \
  X(GROUP, H16, "MPI_Group", GROUP)                                          \
  X(INFO, H16, "MPI_Info", INFO)                                             \
  X(FILE, H16, "MPI_File", FILE)                                             \
  X(WIN, H16, "int", WIN)                                                    \
  X(ERRHANDLER, H16, "int", ERRHANDLER)                                      \
  X(KEYVAL, H16, "int", KEYVAL)                                              \
  X(COMM_KEYVAL, H16, "int", KEYVAL)                                         \
  X(TYPE_KEYVAL, H16, "int", KEYVAL)                                         \
  X(WIN_KEYVAL, H16, "int", KEYVAL)                                          \
  X(OP, U8, "MPI_Op", OP)                                                    \
  X(COMBINER, U8, "int", COMBINER)                                           \
  X(THREADLEVEL, U8, "int", THREADLEVEL)                                     \
  X(TOPOLOGY, U8, "int", TOPOLOGY)                                           \
  X(LOCKTYPE, U8, "int", LOCKTYPE)                                           \
  X(WHENCE, U8, "int", WHENCE)                                               \
  X(FILEMODE, U8, "int", FILEMODE)                                           \
  X(WIN_ASSERT, U8, "int", WIN_ASSERT)                                       \
  X(TYPECLASS, U8, "int", TYPECLASS)                                         \
  X(COMPARISON, S8, "int", COMPARISON)                                       \
  X(ORDERING, S8, "int", ORDERING)                                           \
  X(STATUS, STATUS, "MPI_Status", NONE)                                      \
  X(STATUSES, STATUS, "MPI_Status", NONE)                                    \
  X(INTS, I32ARR, "int", NONE)                                               \
  X(REQUESTS, I32ARR, "MPI_Request", NONE)                                   \
  X(IOREQUESTS, I32ARR, "MPIO_Request", NONE)                                \
  X(DATATYPES, H16ARR, "MPI_Datatype", NONE)                                 \
  X(INFOS, H16ARR, "MPI_Info", NONE)                                         \
  X(DISTRIBS, U8ARR, "int", NONE)                                            \
  X(INTS2, I32ARR2, "int", NONE)                                             \
  X(STRING, STR, "string", NONE)                                             \
  X(STRINGS, STRARR, "string", NONE)                                         \
  X(STRINGS_NT, STRARR, "string", NONE)                                      \
  X(STRINGS2, STRARR2, "string", NONE)                                       \
  X(ARGV, ARGV, "string", NONE)

typedef enum pt__dumpi_atype {
#define PT__DA_ENUM(NAME, w, p, n) PT__DA_##NAME,
  PT__DUMPI_ATYPES(PT__DA_ENUM)
#undef PT__DA_ENUM
  PT__DA__COUNT
} pt__dumpi_atype;

/* Wire encodings (big-endian).  I32ARR: i32 n + n x i32; H16ARR / U8ARR:
 * i32 n + n x u16 / u8; I32ARR2: i32 rows + per row an I32ARR; STATUS: i32 n
 * + n x (i32 bytes, i32 source, u8 cancelled, u8 error, i32 tag), present
 * only when the record's mask has a status bit; STR: u32 len + bytes;
 * STRARR: i32 n + n x STR; STRARR2: i32 rows + per row a STRARR; ARGV: argc
 * x STR, the count being the preceding INT argument. */
typedef enum pt__dumpi_wire {
  PT__DW_I32, PT__DW_I64, PT__DW_H16, PT__DW_U8, PT__DW_S8, PT__DW_STATUS,
  PT__DW_I32ARR, PT__DW_H16ARR, PT__DW_U8ARR, PT__DW_I32ARR2, PT__DW_STR,
  PT__DW_STRARR, PT__DW_STRARR2, PT__DW_ARGV
} pt__dumpi_wire;

/* What a call means for the model mapping. */
#define PT__DUMPI_SEMS(X)                                                    \
  X(NONE) X(SEND) X(RECV) X(ISEND) X(IRECV) X(SEND_INIT) X(RECV_INIT)        \
  X(START) X(STARTALL) X(SENDRECV) X(WAIT) X(TEST) X(WAITANY) X(TESTANY)     \
  X(WAITALL) X(TESTALL) X(WAITSOME) X(TESTSOME) X(REQUEST_FREE) X(CANCEL)    \
  X(COMM_RANK) X(COMM_SIZE) X(COLL) X(IO_READ) X(IO_WRITE) X(IO_IREAD)       \
  X(IO_IWRITE) X(IO_SREAD) X(IO_SWRITE) X(IO_SEND) X(RMA_PUT) X(RMA_GET)  \
  X(RMA_ACC) X(WIN_CREATE) X(WIN_FREE)

typedef enum pt__dumpi_sem {
#define PT__DS_ENUM(NAME) PT__DS_##NAME,
  PT__DUMPI_SEMS(PT__DS_ENUM)
#undef PT__DS_ENUM
  PT__DS__COUNT
} pt__dumpi_sem;

/* Labels and constants (dumpi/common/funclabels.h, constants.h). */
enum {
  PT__DUMPI_NFUNCS = 290,      /* labels 0..289 are MPI functions */
  PT__DUMPI_ALL_FUNCTIONS = 290, /* footer "total" slot */
  PT__DUMPI_FUNC_ENTER = 291,
  PT__DUMPI_FUNC_EXIT = 292,
  PT__DUMPI_END_OF_STREAM = 293,
  PT__DUMPI_NLABELS = 294,
  PT__DUMPI_FOOTER_SLOTS = 291 /* call counts of labels 0..290 */
};
#define PT__DUMPI_HEAD_MAGIC UINT64_C(0xFFAADD44554D5049)
#define PT__DUMPI_FOOT_MAGIC UINT64_C(0xF007FEE7)
#define PT__DUMPI_MASK_STATUS 0x03
#define PT__DUMPI_MASK_CPU 0x04
#define PT__DUMPI_MASK_WALL 0x08
#define PT__DUMPI_MASK_THREAD 0x40
#define PT__DUMPI_MASK_PERF 0x80
#define PT__DUMPI_MASK_DEFAULT 0x4F
#define PT__DUMPI_MAX_ARGS 16
#define PT__DUMPI_ANY_SOURCE (-1)
#define PT__DUMPI_ANY_TAG (-1)
#define PT__DUMPI_ROOT (-2)
#define PT__DUMPI_COMM_WORLD 2
#define PT__DUMPI_COMM_SELF 3
#define PT__DUMPI_REQUEST_NULL 1
#define PT__DUMPI_BYTE 5

typedef struct pt__dumpi_arg {
  uint8_t type;   /* pt__dumpi_atype */
  int8_t len;     /* index of the print-length argument or -1 */
  int8_t ca, cb;  /* present iff args[ca] == args[cb]; -1 = always */
  const char *name;
} pt__dumpi_arg;

typedef struct pt__dumpi_func {
  uint16_t label;
  uint8_t sem;  /* pt__dumpi_sem */
  uint8_t coll; /* pt_coll_op (COLL only) */
  uint8_t nargs;
  const char *name;
  const char *order; /* NULL = write order */
  const pt__dumpi_arg *args;
} pt__dumpi_func;

/* The table entry of a label, or NULL (290, 293, out of range). */
const pt__dumpi_func *pt__dumpi_func_get(unsigned label);
/* Label of a function name ("MPI_Send"), or -1. */
int pt__dumpi_label_from_name(const char *name);
/* Footer / dumpi2ascii name of labels 0..290 ("MPI_ALL_FUNCTIONS"). */
const char *pt__dumpi_label_name(unsigned label);
/* Wire encoding of an argument type (PT__DW_I32 for unknown types);
 * inline: the reader asks for every argument of every call. */
extern const uint8_t pt__dumpi_atype_wire_tab[];
static inline pt__dumpi_wire pt__dumpi_atype_wire(unsigned atype) {
  return atype < PT__DA__COUNT ? (pt__dumpi_wire)pt__dumpi_atype_wire_tab[atype]
                               : PT__DW_I32;
}
/* Bytes of one value of a fixed-width wire encoding (PT__DW_I32 4, I64 8,
 * H16 2, U8 / S8 1), 0 for the others (arrays, strings, statuses...). */
static inline unsigned pt__dumpi_wire_width(unsigned wire) {
  return wire == PT__DW_I32 ? 4 : wire == PT__DW_I64 ? 8 : wire == PT__DW_H16 ? 2
         : wire == PT__DW_U8 || wire == PT__DW_S8 ? 1 : 0;
}
/* The argument bytes of a label whose arguments all have a fixed width
 * and no condition, -1 for the other labels (and out of range). */
int pt__dumpi_fixed_args(unsigned label);
/* dumpi2ascii's annotation of a datatype id ("MPI_INT",
 * "user-defined-datatype"). */
const char *pt__dumpi_datatype_name(int id);

/* One decoded argument.  Scalars: `i`.  Arrays: `i` = count as stored
 * (statuses: number of statuses; INTS2 / STRARR2: rows), `a` / `na` the
 * elements (statuses: 5 per status: bytes, source, cancelled, error, tag;
 * INTS2: per row its length then its elements; STRARR2: row lengths).
 * Strings: `s` / `ns`, NUL-terminated; `sl` their stored lengths (NULL:
 * strlen; a stored string may contain NUL bytes).  present = 0: the argument's
 * condition was false (or statuses not recorded); everything else zero. */
typedef struct pt__dumpi_val {
  int present;
  int64_t i;
  uint32_t na, ns;
  int64_t *a;
  char **s;
  uint32_t *sl;
} pt__dumpi_val;

typedef struct pt__dumpi_clock {
  int64_t sec; /* body offset + 16-bit stored seconds (+ 65536 x wraps) */
  uint32_t nsec;
} pt__dumpi_clock;

/* One call record. */
typedef struct pt__dumpi_call {
  uint16_t label;
  uint8_t mask;
  uint16_t thread;
  pt__dumpi_clock cpu_start, cpu_stop, wall_start, wall_stop;
  uint8_t nperf;
  uint64_t *perf_in, *perf_out;
  const pt__dumpi_func *f;
  pt__dumpi_val v[PT__DUMPI_MAX_ARGS];
  /* (the reader's mapping, not the codec: where it finds the scalar
   * arguments, in v or in the attributes pt__dumpi_decode_scalars stored
   * them in; the value of an argument with offset o in ro is iv[o]) */
  const int64_t *iv;
  const int8_t *ro;
} pt__dumpi_call;

/* The thread id and wall start time of the record at p[0..n) without
 * decoding the rest: returns 1 (wall times present, *wall_start set), 0
 * (no wall times), or PT_ETRUNCATED. */
int pt__dumpi_peek(const uint8_t *p, size_t n, uint32_t wall_off,
                   uint16_t *thread, pt__dumpi_clock *wall_start);

/* Decode the record at p[0..n) (starting with its label) into *c, arrays
 * and strings in `scratch` (valid until it is reset); scratch NULL = scan
 * mode: the record is validated and sized the same way, scalars and counts
 * (i, na, ns) are set, no array or string is stored (a, s, sl, perf_in,
 * perf_out stay NULL).  cpu_off / wall_off:
 * the body's offsets.  Seconds are offset + stored 16 bits (no wrap
 * handling here).  Returns the record's size in bytes (> 0), or
 * PT_ETRUNCATED (record cut by the end of data), PT_ECORRUPT (bad label or
 * count; reason in err[errn]), PT_ENOMEM. */
long pt__dumpi_decode(const uint8_t *p, size_t n, uint32_t cpu_off,
                      uint32_t wall_off, pt__dumpi_call *c,
                      pt__arena *scratch, char *err, size_t errn);

/* pt__dumpi_decode for the reader: a record of a function whose arguments
 * all have a fixed width and no condition (pt__dumpi_fixed_args >= 0) has
 * its arguments stored as INT attributes, argument k as at[k] (key
 * keys[k]), not in c->v (left as it was); at NULL: stored in c->v.  Every
 * other record is decoded as pt__dumpi_decode decodes it (at unused).  On
 * an error *c (and at) are left part-written (pt__dumpi_decode clears *c
 * first). */
long pt__dumpi_decode_scalars(const uint8_t *p, size_t n, uint32_t cpu_off,
                              uint32_t wall_off, pt__dumpi_call *c,
                              pt__arena *scratch, pt_attr *at,
                              const uint32_t *keys, char *err, size_t errn);

/* Append the record of *c to out (inverse of decode; seconds are stored as
 * (sec - offset) mod 65536).  Returns PT_OK or PT_ENOMEM. */
int pt__dumpi_encode(pt__buf *out, const pt__dumpi_call *c, uint32_t cpu_off,
                     uint32_t wall_off);

/* The per-file tables the printer needs: the function-address table
 * (annotates Function_enter/exit) and the perf-counter labels. */
typedef struct pt__dumpi_tables {
  size_t naddr;
  const uint64_t *addr;
  char *const *addrname;
  size_t nperf;
  char *const *perfname;
} pt__dumpi_tables;

/* Print *c the way dumpi2ascii does ("MPI_Send entering at walltime ...",
 * one line per argument, "... returning at ...").  t may be NULL.
 * Returns PT_OK or PT_EIO. */
int pt__dumpi_print_call(FILE *f, const pt__dumpi_call *c,
                         const pt__dumpi_tables *t);

/* ---- printing a model stream the way dumpi2ascii prints a .bin -------- */

/* Feed every item of a (DUMPI-derived or any) model trace; each MPI call
 * (ENTER ... LEAVE of an MPI region) is printed at its LEAVE with the
 * arguments from its attributes (or synthesised from its events, as the
 * DUMPI writer does).  `location` selects one location (rank); PT_NONE
 * prints all of them interleaved.  This is `paratrace dump --style dumpi`.
 * Ownership: free with pt__dumpi_printer_free (NULL ok). */
typedef struct pt__dumpi_printer pt__dumpi_printer;
int pt__dumpi_printer_new(pt__dumpi_printer **out, FILE *f,
                          uint64_t location);
/* Returns PT_OK, PT_ENOMEM, PT_EIO, PT_ECORRUPT (bad attributes). */
int pt__dumpi_printer_item(pt__dumpi_printer *p, const pt_item *item);
const char *pt__dumpi_printer_errmsg(const pt__dumpi_printer *p);
void pt__dumpi_printer_free(pt__dumpi_printer *p);

/* ---- parsing one .bin from memory (fuzz target, tests) ----------------- */

/* Parse a whole .bin image: magic, index (or a walk from the start),
 * header, footer, tables and every call record, then the model mapping of
 * every call.  Returns PT_OK or an error with the detail in err. */
int pt__dumpi_parse_mem(const uint8_t *data, size_t n, pt_warn_fn warn,
                        void *warn_user, pt_error *err);
/* The same, with every call mapped the generic way (generic != 0: also
 * sized at open by the walk's loop over the table, not the per-label
 * walkers generated from it) or the commonest ones by their fused
 * decoder-mappers (as the source reads them), and a digest of every item handed out (*digest, may be NULL):
 * each way must give the same items, warnings and errors (tests, fuzz). */
int pt__dumpi_parse_mem_digest(const uint8_t *data, size_t n, int generic,
                               pt_warn_fn warn, void *warn_user,
                               uint64_t *digest, pt_error *err);

/* ---- communicators (dumpi_comm.c) ------------------------------------- */

/* A call that creates, frees or builds a communicator or group, as the
 * replay needs it: handles (-1: absent), a / b / c (split color / key,
 * graph nodes, Intercomm_create's leaders and tag, Intercomm_merge's
 * high), v / n (cart dims, remain_dims, group ranks, ranges as INTS2). */
typedef struct pt__dcomm_op {
  uint64_t call; /* the call's number in its rank's stream (1-based) */
  uint8_t op;
  int32_t in1, in2, out;
  int64_t a, b, c;
  uint32_t n;
  int64_t *v;
} pt__dcomm_op;

/* From call number `call` on, `handle` means communicator `comm` (index in
 * pt__dcomm.comms; -1: unknown, -2: freed). */
typedef struct pt__dcomm_bind {
  uint64_t call;
  int32_t handle, comm;
} pt__dcomm_bind;

/* An intracommunicator has members only.  An intercommunicator has two
 * groups: `members` is the one holding the lower COMM_WORLD rank (OTF2's
 * group A), `remote` the other (nremote > 0); a rank of either group
 * names ranks of the other one in point-to-point calls and roots. */
typedef struct pt__dcomm_comm {
  uint32_t n, nremote;
  int64_t *members; /* COMM_WORLD ranks, in local rank order */
  int64_t *remote;  /* an intercommunicator's other group, else NULL */
  uint32_t ndims;   /* Cartesian topology (for Cart_sub), else 0 */
  int64_t *dims;
  int32_t parent;   /* index of the parent, -1 for predefined ones */
  const char *fn;   /* the creating function ("MPI_Comm_split") */
} pt__dcomm_comm;

/* The result of the replay.  comms[0] is MPI_COMM_WORLD.  Ownership: free
 * with pt__dcomm_free. */
typedef struct pt__dcomm {
  pt__dcomm_comm *comms;
  size_t ncomms, capcomms;
  size_t nranks;
  pt__dcomm_bind **bind; /* per rank, in call order */
  size_t *nbind;
  uint64_t unresolved; /* creation calls whose result is unknown */
  pt__arena mem;
} pt__dcomm;

/* Does the call with this label take part in the replay? */
int pt__dcomm_label(unsigned label);
/* The op of decoded call c (arrays stored, not scan mode), arrays copied
 * into a.  PT_OK or PT_ENOMEM. */
int pt__dcomm_op_make(const pt__dumpi_call *c, uint64_t call, pt__arena *a,
                      pt__dcomm_op *out);
/* Replay the ops of every rank (ops[r][0..nops[r])).  PT_OK or PT_ENOMEM;
 * what cannot be matched is left unknown, never an error. */
int pt__dcomm_resolve(pt__dcomm *dc, size_t nranks, pt__dcomm_op *const *ops,
                      const size_t *nops);
void pt__dcomm_free(pt__dcomm *dc);

extern const pt__format pt__format_dumpi;

/* An MPI-IO data access every process of the file's group makes (by its
 * MPI name: MPI_File_*_all, MPI_File_*_ordered): OTF2's COLLECTIVE flag.
 * Used by the DUMPI reader and the MPI recorder. */
static inline int pt__mpi_io_collective(const char *name) {
  size_t l = name ? strlen(name) : 0;
  return (l > 4 && strcmp(name + l - 4, "_all") == 0) ||
         (l > 8 && strcmp(name + l - 8, "_ordered") == 0);
}

#endif
