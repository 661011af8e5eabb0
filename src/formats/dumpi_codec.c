/* SST DUMPI call records: the function table, the record decoder and
 * encoder and the dumpi2ascii-style printer, all generic over
 * PT__DUMPI_FUNCS (dumpi_table.h). */
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

#include "formats/dumpi.h"
#include "formats/dumpi_table.h"

/* ---- the table ---------------------------------------------------------- */

#define PT__EXPAND(...) __VA_ARGS__
#define A(T, N, L, CA, CB) {PT__DA_##T, L, CA, CB, N},
#define X(label, name, sem, coll, order, args)                              \
  static const pt__dumpi_arg args_##label[] = {PT__EXPAND args{0, -1, -1, -1, \
                                                               NULL}};
PT__DUMPI_FUNCS(X)
#undef X
#define X(label, name, sem, coll, order, args)                               \
  {label, PT__DS_##sem, PT_COLL_##coll,                                      \
   (uint8_t)(sizeof args_##label / sizeof args_##label[0] - 1), name, order, \
   args_##label},
static const pt__dumpi_func funcs[] = {PT__DUMPI_FUNCS(X)};
#undef X
#undef A

enum { NTABLE = sizeof funcs / sizeof funcs[0] };

const pt__dumpi_func *pt__dumpi_func_get(unsigned label) {
  if (label < PT__DUMPI_NFUNCS) return &funcs[label];
  if (label == PT__DUMPI_FUNC_ENTER || label == PT__DUMPI_FUNC_EXIT)
    return &funcs[label - 1];
  return NULL;
}

int pt__dumpi_label_from_name(const char *name) {
  if (!name) return -1;
  for (size_t i = 0; i < NTABLE; i++)
    if (strcmp(funcs[i].name, name) == 0) return funcs[i].label;
  return -1;
}

const char *pt__dumpi_label_name(unsigned label) {
  if (label < PT__DUMPI_NFUNCS) return funcs[label].name;
  if (label == PT__DUMPI_ALL_FUNCTIONS) return "MPI_ALL_FUNCTIONS";
  const pt__dumpi_func *f = pt__dumpi_func_get(label);
  return f ? f->name : "DUMPI_NO_SUCH_FUNCTION";
}

const uint8_t pt__dumpi_atype_wire_tab[] = {
#define PT__W(NAME, w, p, n) PT__DW_##w,
    PT__DUMPI_ATYPES(PT__W)
#undef PT__W
};
static const char *const atype_prefix[] = {
#define PT__P(NAME, w, p, n) p,
    PT__DUMPI_ATYPES(PT__P)
#undef PT__P
};

/* Constant-name tables of dumpi2ascii (dumpi/common/constants.c). */
enum {
  PT__DN_NONE, PT__DN_DEST, PT__DN_SOURCE, PT__DN_TAG, PT__DN_FUNC,
  PT__DN_COMM, PT__DN_DATATYPE, PT__DN_GROUP, PT__DN_INFO, PT__DN_FILE,
  PT__DN_WIN, PT__DN_ERRHANDLER, PT__DN_KEYVAL, PT__DN_OP, PT__DN_COMBINER,
  PT__DN_THREADLEVEL, PT__DN_TOPOLOGY, PT__DN_LOCKTYPE, PT__DN_WHENCE,
  PT__DN_FILEMODE, PT__DN_WIN_ASSERT, PT__DN_TYPECLASS, PT__DN_COMPARISON,
  PT__DN_ORDERING
};
static const uint8_t atype_names[] = {
#define PT__N(NAME, w, p, n) PT__DN_##n,
    PT__DUMPI_ATYPES(PT__N)
#undef PT__N
};


static const char *const dt_names[] = {
    "MPI_DATATYPE_ERROR", "MPI_DATATYPE_NULL", "MPI_CHAR", "MPI_SIGNED_CHAR",
    "MPI_UNSIGNED_CHAR", "MPI_BYTE", "MPI_WCHAR", "MPI_SHORT",
    "MPI_UNSIGNED_SHORT", "MPI_INT", "MPI_UNSIGNED", "MPI_LONG",
    "MPI_UNSIGNED_LONG", "MPI_FLOAT", "MPI_DOUBLE", "MPI_LONG_DOUBLE",
    "MPI_LONG_LONG_INT", "MPI_UNSIGNED_LONG_LONG", "MPI_LONG_LONG",
    "MPI_PACKED", "MPI_LB", "MPI_UB", "MPI_FLOAT_INT", "MPI_DOUBLE_INT",
    "MPI_LONG_INT", "MPI_SHORT_INT", "MPI_2INT", "MPI_LONG_DOUBLE_INT"};
static const char *const comm_names[] = {"MPI_COMM_ERROR", "MPI_COMM_NULL",
                                         "MPI_COMM_WORLD", "MPI_COMM_SELF"};
static const char *const group_names[] = {"MPI_GROUP_ERROR", "MPI_GROUP_NULL",
                                          "MPI_GROUP_EMPTY"};
static const char *const op_names[] = {
    "MPI_OP_ERROR", "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD",
    "MPI_LAND", "MPI_BAND", "MPI_LOR", "MPI_BOR", "MPI_LXOR",
    "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_OP_NULL",
    "MPI_NO_OP"}; /* 15: MPI-3's, no DUMPI number (recorded traces) */
static const char *const keyval_names[] = {
    "MPI_TAG_UB", "MPI_HOST", "MPI_IO", "MPI_WTIME_IS_GLOBAL",
    "MPI_UNIVERSE_SIZE", "MPI_LASTUSEDCODE", "MPI_APPNUM", "MPI_WIN_BASE",
    "MPI_WIN_SIZE", "MPI_WIN_DISP_UNIT"};
static const char *const combiner_names[] = {
    "MPI_COMBINER_ERROR", "MPI_COMBINER_NAMED", "MPI_COMBINER_DUP",
    "MPI_COMBINER_CONTIGUOUS", "MPI_COMBINER_VECTOR",
    "MPI_COMBINER_HVECTOR_INTEGER", "MPI_COMBINER_HVECTOR",
    "MPI_COMBINER_INDEXED", "MPI_COMBINER_HINDEXED_INTEGER",
    "MPI_COMBINER_HINDEXED", "MPI_COMBINER_INDEXED_BLOCK",
    "MPI_COMBINER_STRUCT_INTEGER", "MPI_COMBINER_STRUCT",
    "MPI_COMBINER_SUBARRAY", "MPI_COMBINER_DARRAY", "MPI_COMBINER_F90_REAL",
    "MPI_COMBINER_F90_COMPLEX", "MPI_COMBINER_F90_INTEGER",
    "MPI_COMBINER_RESIZED"};
static const char *const threadlevel_names[] = {
    NULL, "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
    "MPI_THREAD_MULTIPLE"};
static const char *const topology_names[] = {NULL, "MPI_GRAPH", "MPI_CART",
                                             "MPI_UNDEFINED"};
static const char *const locktype_names[] = {NULL, "MPI_LOCK_SHARED",
                                             "MPI_LOCK_EXCLUSIVE"};
static const char *const whence_names[] = {NULL, "MPI_SEEK_SET",
                                           "MPI_SEEK_CUR", "MPI_SEEK_END"};
static const char *const filemode_names[] = {
    NULL, "MPI_MODE_RDONLY", "MPI_MODE_RDWR", "MPI_MODE_WRONLY",
    "MPI_MODE_CREATE", "MPI_MODE_EXCL", "MPI_MODE_DELETE_ON_CLOSE",
    "MPI_MODE_UNIQUE_OPEN", "MPI_MODE_SEQUENTIAL", "MPI_MODE_APPEND"};
static const char *const typeclass_names[] = {
    NULL, "MPI_TYPECLASS_REAL", "MPI_TYPECLASS_INTEGER",
    "MPI_TYPECLASS_COMPLEX"};
static const char *const comparison_names[] = {
    "MPI_COMPARISON_ERROR", "MPI_IDENT", "MPI_CONGRUENT", "MPI_SIMILAR",
    "MPI_UNEQUAL"};
static const char *const ordering_names[] = {NULL, "MPI_ORDER_C",
                                             "MPI_ORDER_FORTRAN"};

#define PT__COUNTOF(a) (sizeof(a) / sizeof((a)[0]))
static const char *pick(const char *const *tab, size_t n, int64_t v,
                        const char *dflt) {
  return v >= 0 && (uint64_t)v < n && tab[v] ? tab[v] : dflt;
}

const char *pt__dumpi_datatype_name(int id) {
  return pick(dt_names, PT__COUNTOF(dt_names), id, "user-defined-datatype");
}

/* Window assertion flags: NOCHECK 1, NOSTORE 2, NOPUT 4, NOPRECEDE 8,
 * NOSUCCEED 16; dumpi2ascii prints the set joined by '|'. */
static void win_assert_name(char *buf, size_t n, int64_t v) {
  static const char *const bits[] = {"MPI_MODE_NOCHECK", "MPI_MODE_NOSTORE",
                                     "MPI_MODE_NOPUT", "MPI_MODE_NOPRECEDE",
                                     "MPI_MODE_NOSUCCEED"};
  if (v < 0 || v > 31) {
    snprintf(buf, n, "DUMPI_MODE_ERROR");
    return;
  }
  if (v == 0) {
    snprintf(buf, n, "DUMPI_MODE_NONE");
    return;
  }
  size_t l = 0;
  buf[0] = 0;
  for (int b = 0; b < 5; b++)
    if (v & (1 << b))
      l += (size_t)snprintf(buf + l, l < n ? n - l : 0, "%s%s", l ? "|" : "",
                            bits[b]);
}

static const char *const_name(unsigned kind, int64_t v, char *buf, size_t n) {
  switch (kind) {
    case PT__DN_COMM:
      return pick(comm_names, PT__COUNTOF(comm_names), v, "user-defined-comm");
    case PT__DN_DATATYPE:
      return pt__dumpi_datatype_name((int)v);
    case PT__DN_GROUP:
      return pick(group_names, PT__COUNTOF(group_names), v,
                  "user-defined-group");
    case PT__DN_INFO:
      return v >= 1 ? "user-info" : "MPI_INFO_NULL";
    case PT__DN_FILE:
      return v != 0 ? "user-file" : "DUMPI_FILE_NULL";
    case PT__DN_WIN:
      return v != 0 ? "user-defined-win" : "DUMPI_WIN_NULL";
    case PT__DN_ERRHANDLER:
      return v >= 2 ? "user-defined-errhandler"
                    : v == 1 ? "MPI_ERRHANDLER_NULL" : "DUMPI_ERRHANDLER_ERROR";
    case PT__DN_KEYVAL:
      return pick(keyval_names, PT__COUNTOF(keyval_names), v,
                  "user-defined-keyval");
    case PT__DN_OP:
      return pick(op_names, PT__COUNTOF(op_names), v, "user-defined-op");
    case PT__DN_COMBINER:
      return pick(combiner_names, PT__COUNTOF(combiner_names), v,
                  "DUMPI_COMBINER_ERROR");
    case PT__DN_THREADLEVEL:
      return pick(threadlevel_names, PT__COUNTOF(threadlevel_names), v,
                  "DUMPI_THREADLEVEL_ERROR");
    case PT__DN_TOPOLOGY:
      return pick(topology_names, PT__COUNTOF(topology_names), v,
                  "DUMPI_TOPOLOGY_ERROR");
    case PT__DN_LOCKTYPE:
      return pick(locktype_names, PT__COUNTOF(locktype_names), v,
                  "DUMPI_LOCKTYPE_ERROR");
    case PT__DN_WHENCE:
      return pick(whence_names, PT__COUNTOF(whence_names), v,
                  "DUMPI_WHENCE_ERROR");
    case PT__DN_FILEMODE:
      return pick(filemode_names, PT__COUNTOF(filemode_names), v,
                  "DUMPI_FILEMODE_ERROR");
    case PT__DN_WIN_ASSERT:
      win_assert_name(buf, n, v);
      return buf;
    case PT__DN_TYPECLASS:
      return pick(typeclass_names, PT__COUNTOF(typeclass_names), v,
                  "DUMPI_TYPECLASS_ERROR");
    case PT__DN_COMPARISON:
      return pick(comparison_names, PT__COUNTOF(comparison_names), v,
                  "undefined-comparison");
    case PT__DN_ORDERING:
      return pick(ordering_names, PT__COUNTOF(ordering_names), v,
                  "DUMPI_ORDERING_ERROR");
    default:
      return NULL;
  }
}

/* ---- decoding ------------------------------------------------------------ */

typedef struct cur {
  const uint8_t *p, *end;
} cur;

static inline int need(const cur *c, uint64_t n) {
  return (uint64_t)(c->end - c->p) >= n;
}
static inline uint8_t g8(cur *c) { return *c->p++; }
static inline uint16_t g16(cur *c) {
  uint16_t v = (uint16_t)((c->p[0] << 8) | c->p[1]);
  c->p += 2;
  return v;
}
static inline uint32_t g32(cur *c) {
  uint32_t v = ((uint32_t)c->p[0] << 24) | ((uint32_t)c->p[1] << 16) |
               ((uint32_t)c->p[2] << 8) | c->p[3];
  c->p += 4;
  return v;
}
static inline uint64_t g64(cur *c) {
  uint64_t hi = g32(c);
  return (hi << 32) | g32(c);
}

#define TRUNC(what)                                                    \
  do {                                                                 \
    snprintf(err, errn, "record cut short in %s", what);               \
    return PT_ETRUNCATED;                                              \
  } while (0)

static int get_str(cur *c, pt__arena *a, char **out, uint32_t *olen,
                   char *err, size_t errn) {
  if (!need(c, 4)) TRUNC("a string length");
  int32_t len = (int32_t)g32(c);
  if (len < 0) {
    snprintf(err, errn, "negative string length %" PRId32, len);
    return PT_ECORRUPT;
  }
  if (!need(c, (uint64_t)len)) TRUNC("a string");
  if (!a) { /* scan mode: validated, skipped */
    c->p += len;
    return PT_OK;
  }
  char *s = pt__arena_alloc(a, (size_t)len + 1);
  if (!s) return PT_ENOMEM;
  memcpy(s, c->p, (size_t)len);
  s[len] = 0;
  c->p += len;
  *out = s;
  *olen = (uint32_t)len;
  return PT_OK;
}

/* A string array of n strings (n <= 0: none) appended at s[*k] (a NULL:
 * validated and skipped). */
static int get_strs(cur *c, pt__arena *a, int64_t n, char **s, uint32_t *sl,
                    uint32_t *k, char *err, size_t errn) {
  for (int64_t j = 0; j < n; j++, (*k)++) {
    int rc = get_str(c, a, a ? &s[*k] : NULL, a ? &sl[*k] : NULL, err, errn);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

static int64_t *alloc_ints(pt__arena *a, uint64_t n) {
  return (int64_t *)pt__arena_alloc(a, (size_t)(n ? n : 1) * sizeof(int64_t));
}

/* Inline with a constant `wire` (the argument's): the generated decoders
 * below get only the code of their argument's encoding. */
static PT_ALWAYS_INLINE int decode_arg(cur *c, const pt__dumpi_arg *arg,
                                       int wire, pt__dumpi_call *call,
                                       pt__dumpi_val *v, pt__arena *a,
                                       char *err, size_t errn) {
  v->present = 1;
  switch ((pt__dumpi_wire)wire) {
    case PT__DW_I32:
      if (!need(c, 4)) TRUNC(arg->name);
      v->i = (int32_t)g32(c);
      return PT_OK;
    case PT__DW_I64:
      if (!need(c, 8)) TRUNC(arg->name);
      v->i = (int64_t)g64(c);
      return PT_OK;
    case PT__DW_H16:
      if (!need(c, 2)) TRUNC(arg->name);
      v->i = (int16_t)g16(c);
      return PT_OK;
    case PT__DW_U8:
      if (!need(c, 1)) TRUNC(arg->name);
      v->i = g8(c);
      return PT_OK;
    case PT__DW_S8:
      if (!need(c, 1)) TRUNC(arg->name);
      v->i = (int8_t)g8(c);
      return PT_OK;
    case PT__DW_STATUS: {
      if (!(call->mask & PT__DUMPI_MASK_STATUS)) {
        v->present = 0;
        return PT_OK;
      }
      if (!need(c, 4)) TRUNC(arg->name);
      v->i = (int32_t)g32(c);
      uint64_t n = v->i > 0 ? (uint64_t)v->i : 0;
      if (!need(c, n * 14)) TRUNC(arg->name);
      v->na = (uint32_t)(n * 5);
      if (!a) {
        c->p += n * 14;
        return PT_OK;
      }
      v->a = alloc_ints(a, n * 5);
      if (!v->a) return PT_ENOMEM;
      v->na = (uint32_t)(n * 5);
      for (uint64_t j = 0; j < n; j++) {
        int64_t *s = v->a + 5 * j;
        s[0] = (int32_t)g32(c); /* bytes */
        s[1] = (int32_t)g32(c); /* source */
        s[2] = g8(c);           /* cancelled */
        s[3] = g8(c);           /* error */
        s[4] = (int32_t)g32(c); /* tag */
      }
      return PT_OK;
    }
    case PT__DW_I32ARR:
    case PT__DW_H16ARR:
    case PT__DW_U8ARR: {
      pt__dumpi_wire w = (pt__dumpi_wire)wire;
      unsigned es = w == PT__DW_I32ARR ? 4 : w == PT__DW_H16ARR ? 2 : 1;
      if (!need(c, 4)) TRUNC(arg->name);
      v->i = (int32_t)g32(c);
      uint64_t n = v->i > 0 ? (uint64_t)v->i : 0;
      if (!need(c, n * es)) TRUNC(arg->name);
      v->na = (uint32_t)n;
      if (!a) {
        c->p += n * es;
        return PT_OK;
      }
      v->a = alloc_ints(a, n);
      if (!v->a) return PT_ENOMEM;
      for (uint64_t j = 0; j < n; j++)
        v->a[j] = es == 4 ? (int32_t)g32(c)
                  : es == 2 ? (int16_t)g16(c)
                            : (int64_t)g8(c);
      return PT_OK;
    }
    case PT__DW_I32ARR2: {
      if (!need(c, 4)) TRUNC(arg->name);
      v->i = (int32_t)g32(c);
      /* First pass: validate and size. */
      cur t = *c;
      uint64_t total = 0;
      for (int64_t r = 0; r < v->i; r++) {
        if (!need(&t, 4)) TRUNC(arg->name);
        int32_t len = (int32_t)g32(&t);
        uint64_t m = len > 0 ? (uint64_t)len : 0;
        if (!need(&t, m * 4)) TRUNC(arg->name);
        t.p += m * 4;
        total += 1 + m;
      }
      v->na = (uint32_t)total;
      if (!a) {
        c->p = t.p;
        return PT_OK;
      }
      v->a = alloc_ints(a, total);
      if (!v->a) return PT_ENOMEM;
      uint64_t k = 0;
      for (int64_t r = 0; r < v->i; r++) {
        int32_t len = (int32_t)g32(c);
        v->a[k++] = len;
        for (int32_t j = 0; j < len; j++) v->a[k++] = (int32_t)g32(c);
      }
      return PT_OK;
    }
    case PT__DW_STR:
      if (!a) {
        v->ns = 1;
        v->i = 1;
        return get_str(c, NULL, NULL, NULL, err, errn);
      }
      v->s = pt__arena_alloc(a, sizeof(char *));
      v->sl = pt__arena_alloc(a, sizeof(uint32_t));
      if (!v->s || !v->sl) return PT_ENOMEM;
      v->ns = 1;
      v->i = 1;
      return get_str(c, a, &v->s[0], &v->sl[0], err, errn);
    case PT__DW_STRARR:
    case PT__DW_ARGV: {
      int64_t n;
      if (wire == PT__DW_ARGV) {
        n = arg->len >= 0 ? call->v[arg->len].i : 0;
        v->i = n;
      } else {
        if (!need(c, 4)) TRUNC(arg->name);
        v->i = n = (int32_t)g32(c);
      }
      if (n < 0) n = 0;
      if (!need(c, (uint64_t)n * 4)) TRUNC(arg->name);
      if (!a) return get_strs(c, NULL, n, NULL, NULL, &v->ns, err, errn);
      v->s = pt__arena_alloc(a, (size_t)(n ? n : 1) * sizeof(char *));
      v->sl = pt__arena_alloc(a, (size_t)(n ? n : 1) * sizeof(uint32_t));
      if (!v->s || !v->sl) return PT_ENOMEM;
      return get_strs(c, a, n, v->s, v->sl, &v->ns, err, errn);
    }
    case PT__DW_STRARR2: {
      if (!need(c, 4)) TRUNC(arg->name);
      v->i = (int32_t)g32(c);
      uint64_t rows = v->i > 0 ? (uint64_t)v->i : 0;
      if (!need(c, rows * 4)) TRUNC(arg->name);
      /* First pass: count the strings. */
      cur t = *c;
      uint64_t total = 0;
      for (uint64_t r = 0; r < rows; r++) {
        if (!need(&t, 4)) TRUNC(arg->name);
        int32_t m = (int32_t)g32(&t);
        for (int32_t j = 0; j < m; j++) {
          if (!need(&t, 4)) TRUNC(arg->name);
          int32_t len = (int32_t)g32(&t);
          if (len < 0 || !need(&t, (uint64_t)len)) TRUNC(arg->name);
          t.p += len;
          total++;
        }
      }
      if (!a) {
        v->na = (uint32_t)rows;
        v->ns = (uint32_t)total;
        c->p = t.p;
        return PT_OK;
      }
      v->a = alloc_ints(a, rows);
      v->s = pt__arena_alloc(a, (size_t)(total ? total : 1) * sizeof(char *));
      v->sl = pt__arena_alloc(a, (size_t)(total ? total : 1) * sizeof(uint32_t));
      if (!v->a || !v->s || !v->sl) return PT_ENOMEM;
      v->na = (uint32_t)rows;
      for (uint64_t r = 0; r < rows; r++) {
        int32_t m = (int32_t)g32(c);
        v->a[r] = m;
        int rc = get_strs(c, a, m, v->s, v->sl, &v->ns, err, errn);
        if (rc < 0) return rc;
      }
      return PT_OK;
    }
  }
  return PT_ECORRUPT;
}

static PT_ALWAYS_INLINE void get_clock(cur *c, uint32_t off,
                                       pt__dumpi_clock *k) {
  k->sec = (int64_t)off + g16(c);
  k->nsec = g32(c);
}

int pt__dumpi_peek(const uint8_t *p, size_t n, uint32_t wall_off,
                   uint16_t *thread, pt__dumpi_clock *wall_start) {
  cur c = {p, p + n};
  if (!need(&c, 3)) return PT_ETRUNCATED;
  c.p += 2;
  uint8_t mask = g8(&c);
  *thread = 0;
  if (mask & PT__DUMPI_MASK_THREAD) {
    if (!need(&c, 2)) return PT_ETRUNCATED;
    *thread = g16(&c);
  }
  if (mask & PT__DUMPI_MASK_CPU) {
    if (!need(&c, 12)) return PT_ETRUNCATED;
    c.p += 12;
  }
  if (!(mask & PT__DUMPI_MASK_WALL)) return 0;
  if (!need(&c, 6)) return PT_ETRUNCATED;
  wall_start->sec = (int64_t)wall_off + g16(&c);
  wall_start->nsec = g32(&c);
  return 1;
}

/* ---- per-function argument decoders, generated from the table ------------
 *
 * One function per table entry decodes that function's arguments in write
 * order, straight-line: each argument's wire encoding is a constant there,
 * so a fixed-width argument is a load and a byte swap, with no loop over
 * the table and no switch per argument.  A function whose arguments all
 * have a fixed width and no condition checks the record's bounds once
 * (PT__FL_<label> bytes); when that check fails, and for every other
 * function, each argument is checked on its own (the error names it). */

/* Per argument type: its wire encoding and width (bytes; VAR: not fixed). */
enum { VAR = -4096 };
enum {
#define PT__AW(NAME, w, p, n) AWIRE_##NAME = PT__DW_##w,
  PT__DUMPI_ATYPES(PT__AW)
#undef PT__AW
  AWIRE__END
};
enum {
  WW_I32 = 4, WW_I64 = 8, WW_H16 = 2, WW_U8 = 1, WW_S8 = 1, WW_STATUS = VAR,
  WW_I32ARR = VAR, WW_H16ARR = VAR, WW_U8ARR = VAR, WW_I32ARR2 = VAR,
  WW_STR = VAR, WW_STRARR = VAR, WW_STRARR2 = VAR, WW_ARGV = VAR
};
enum {
#define PT__AW(NAME, w, p, n) AWIDTH_##NAME = WW_##w,
  PT__DUMPI_ATYPES(PT__AW)
#undef PT__AW
  AWIDTH__END
};

/* FL_<label>: the argument bytes of a function whose arguments all have a
 * fixed width and no condition, < 0 for the others (at most 16 x 8 bytes,
 * so one VAR makes the sum negative). */
#define A(T, N, L, CA, CB) +((CA) >= 0 ? VAR : AWIDTH_##T)
#define X(label, name, sem, coll, order, args) FL_##label = 0 PT__EXPAND args,
enum { PT__DUMPI_FUNCS(X) FL__END };
#undef X
#undef A

/* The same, per label 0..289 (-1: not fixed). */
#define X(label, name, sem, coll, order, args) \
  (int16_t)(FL_##label < 0 ? -1 : FL_##label),
static const int16_t fix_len[] = {PT__DUMPI_FUNCS(X)};
#undef X

int pt__dumpi_fixed_args(unsigned label) {
  return label < PT__DUMPI_NFUNCS ? fix_len[label] : -1;
}

/* A fixed-width value (wire: a constant at every use), bounds checked:
 * only `present` and `i` stored (get_fixed clears the rest). */
static PT_ALWAYS_INLINE void get_scalar(cur *c, pt__dumpi_val *v, int wire) {
  v->present = 1;
  switch (wire) {
    case PT__DW_I32: v->i = (int32_t)g32(c); break;
    case PT__DW_I64: v->i = (int64_t)g64(c); break;
    case PT__DW_H16: v->i = (int16_t)g16(c); break;
    case PT__DW_U8: v->i = g8(c); break;
    case PT__DW_S8: v->i = (int8_t)g8(c); break;
    default: break; /* (not a fixed width: never used) */
  }
}

/* The same, the rest of the slot cleared. */
static PT_ALWAYS_INLINE void get_fixed(cur *c, pt__dumpi_val *v, int wire) {
  static const pt__dumpi_val one = {.present = 1};
  *v = one;
  get_scalar(c, v, wire);
}

/* A fixed-width value stored as an INT attribute (key: its key), not in
 * the call (pt__dumpi_decode_scalars with attributes). */
static PT_ALWAYS_INLINE void put_attr(cur *c, pt_attr *at, uint32_t key,
                                      int wire) {
  at->key = key;
  at->val.type = PT_TYPE_INT;
  at->val.count = 0;
  switch (wire) {
    case PT__DW_I32: at->val.v.i = (int32_t)g32(c); break;
    case PT__DW_I64: at->val.v.i = (int64_t)g64(c); break;
    case PT__DW_H16: at->val.v.i = (int16_t)g16(c); break;
    case PT__DW_U8: at->val.v.i = g8(c); break;
    case PT__DW_S8: at->val.v.i = (int8_t)g8(c); break;
    default: break; /* (not a fixed width: never used) */
  }
}

static const pt__dumpi_val val_zero;

/* One argument, k-th of the function.  chk_ = 0: the function is fixed
 * and its bytes are checked (lite_: stored as attribute at_[k], not in the
 * call); chk_ = 1: the argument's condition (on
 * earlier arguments only), bounds and (for the others) decode_arg; an
 * argument not on the wire is all zero. */
#define A(T, N, L, CA, CB)                                                   \
  if (!chk_) {                                                               \
    if (lite_) put_attr(c, &at_[k], keys_[k], AWIRE_##T);                    \
    else get_fixed(c, &call->v[k], AWIRE_##T);                               \
  } else if ((CA) < 0 ||                                                     \
             call->v[(CA) & 15].i == call->v[(CB) & 15].i) {                 \
    if (AWIDTH_##T > 0) {                                                    \
      if (!need(c, AWIDTH_##T > 0 ? AWIDTH_##T : 0)) TRUNC(N);               \
      get_fixed(c, &call->v[k], AWIRE_##T);                                  \
    } else {                                                                 \
      call->v[k] = val_zero;                                                 \
      if ((rc = decode_arg(c, &args_[k], AWIRE_##T, call, &call->v[k], a,    \
                           err, errn)) < 0)                                  \
        return rc;                                                           \
    }                                                                        \
  } else {                                                                   \
    call->v[k] = val_zero;                                                   \
  }                                                                          \
  k++;
#define X(label, name, sem, coll, order, args)                               \
  static int dec_##label(cur *cin, pt__dumpi_call *call, pt__arena *a,       \
                         char *err, size_t errn, pt_attr *at_,               \
                         const uint32_t *keys_) {                            \
    /* (a local cursor: in a register on the fixed path; written back on   \
     * success) */                                                           \
    cur lc_ = *cin, *c = &lc_;                                               \
    const pt__dumpi_arg *args_ = args_##label;                               \
    unsigned k = 0;                                                          \
    int rc = 0;                                                              \
    (void)args_, (void)a, (void)rc, (void)err, (void)errn, (void)call;       \
    (void)keys_;                                                             \
    if (FL_##label >= 0 && need(c, FL_##label >= 0 ? FL_##label : 0)) {      \
      const int chk_ = 0;                                                    \
      if (at_) {                                                             \
        const int lite_ = 1;                                                 \
        PT__EXPAND args                                                      \
        (void)lite_;                                                         \
      } else {                                                               \
        const int lite_ = 0;                                                 \
        PT__EXPAND args                                                      \
        (void)lite_;                                                         \
      }                                                                      \
      (void)chk_, (void)k;                                                   \
      cin->p = c->p;                                                         \
      return PT_OK;                                                          \
    }                                                                        \
    {                                                                        \
      const int chk_ = 1, lite_ = 0;                                         \
      k = 0;                                                                 \
      PT__EXPAND args                                                        \
      (void)chk_, (void)lite_, (void)k;                                      \
    }                                                                        \
    cin->p = c->p;                                                           \
    return PT_OK;                                                            \
  }
PT__DUMPI_FUNCS(X)
#undef X
#undef A

typedef int (*dec_fn)(cur *c, pt__dumpi_call *call, pt__arena *a, char *err,
                      size_t errn, pt_attr *at, const uint32_t *keys);
/* In table order (funcs[]). */
#define X(label, name, sem, coll, order, args) dec_##label,
static const dec_fn dec_tab[] = {PT__DUMPI_FUNCS(X)};
#undef X
_Static_assert(sizeof dec_tab / sizeof dec_tab[0] == NTABLE,
               "one decoder per table entry");

static PT_ALWAYS_INLINE long decode(const uint8_t *p, size_t n,
                                   uint32_t cpu_off, uint32_t wall_off,
                                   pt__dumpi_call *call, pt__arena *scratch,
                                   pt_attr *at, const uint32_t *keys,
                                   char *err, size_t errn, int lite) {
  cur c = {p, p + n};
  /* Clear only what this record can use (the 16 argument slots are most of
   * the struct; hot path), field by field: gcc makes a memset of this size
   * a `rep stos`, slow to start. */
  static const pt__dumpi_clock zclock;
  if (!lite) {
    call->label = 0;
    call->mask = 0;
    call->f = NULL;
    call->cpu_start = call->cpu_stop = zclock;
    call->wall_start = call->wall_stop = zclock;
  } /* (lite: a field the record has is set once, below) */
  call->thread = 0;
  call->nperf = 0;
  call->perf_in = call->perf_out = NULL;
  if (!need(&c, 3)) TRUNC("the record prefix");
  call->label = g16(&c);
  call->f = pt__dumpi_func_get(call->label);
  if (!call->f) {
    snprintf(err, errn, "invalid function label %u", (unsigned)call->label);
    return PT_ECORRUPT;
  }
  call->mask = g8(&c);
  if (call->mask & PT__DUMPI_MASK_THREAD) {
    if (!need(&c, 2)) TRUNC("the thread id");
    call->thread = g16(&c);
  }
  if (call->mask & PT__DUMPI_MASK_CPU) {
    if (!need(&c, 12)) TRUNC("the cpu times");
    get_clock(&c, cpu_off, &call->cpu_start);
    get_clock(&c, cpu_off, &call->cpu_stop);
  } else if (lite) {
    call->cpu_start = call->cpu_stop = zclock;
  }
  if (call->mask & PT__DUMPI_MASK_WALL) {
    if (!need(&c, 12)) TRUNC("the wall times");
    get_clock(&c, wall_off, &call->wall_start);
    get_clock(&c, wall_off, &call->wall_stop);
  } else if (lite) {
    call->wall_start = call->wall_stop = zclock;
  }
  if (call->mask & PT__DUMPI_MASK_PERF) {
    if (!need(&c, 1)) TRUNC("the perf counters");
    call->nperf = g8(&c);
    if (!need(&c, (uint64_t)call->nperf * 16)) TRUNC("the perf counters");
    if (!scratch) { /* scan mode */
      c.p += (size_t)call->nperf * 16;
    } else {
      call->perf_in = pt__arena_alloc(scratch, 8u * call->nperf + 8);
      call->perf_out = pt__arena_alloc(scratch, 8u * call->nperf + 8);
      if (!call->perf_in || !call->perf_out) return PT_ENOMEM;
      for (unsigned j = 0; j < call->nperf; j++) {
        call->perf_in[j] = g64(&c);
        call->perf_out[j] = g64(&c);
      }
    }
  }
  int rc = dec_tab[call->f - funcs](&c, call, scratch, err, errn, at, keys);
  if (rc < 0) return rc;
  return (long)(c.p - p);
}

long pt__dumpi_decode(const uint8_t *p, size_t n, uint32_t cpu_off,
                      uint32_t wall_off, pt__dumpi_call *call,
                      pt__arena *scratch, char *err, size_t errn) {
  return decode(p, n, cpu_off, wall_off, call, scratch, NULL, NULL, err, errn,
                0);
}

long pt__dumpi_decode_scalars(const uint8_t *p, size_t n, uint32_t cpu_off,
                              uint32_t wall_off, pt__dumpi_call *call,
                              pt__arena *scratch, pt_attr *at,
                              const uint32_t *keys, char *err, size_t errn) {
  return decode(p, n, cpu_off, wall_off, call, scratch, at, keys, err, errn,
                1);
}

/* ---- encoding ------------------------------------------------------------ */

static inline void p8(uint8_t **q, uint8_t v) { *(*q)++ = v; }
static inline void p16(uint8_t **q, uint16_t v) {
  (*q)[0] = (uint8_t)(v >> 8);
  (*q)[1] = (uint8_t)v;
  *q += 2;
}
static inline void p32(uint8_t **q, uint32_t v) {
  (*q)[0] = (uint8_t)(v >> 24);
  (*q)[1] = (uint8_t)(v >> 16);
  (*q)[2] = (uint8_t)(v >> 8);
  (*q)[3] = (uint8_t)v;
  *q += 4;
}
static inline void p64(uint8_t **q, uint64_t v) {
  p32(q, (uint32_t)(v >> 32));
  p32(q, (uint32_t)v);
}

/* Upper bound of the encoded size of an argument. */
static size_t arg_size(const pt__dumpi_val *v) {
  size_t n = 16 + 8 * (size_t)v->na + 4 * (size_t)v->ns;
  for (uint32_t j = 0; j < v->ns; j++) n += v->sl ? v->sl[j] : strlen(v->s[j]);
  return n;
}

static void put_str(uint8_t **q, const pt__dumpi_val *v, uint32_t j) {
  const char *s = v->ns ? v->s[j] : "";
  size_t l = v->ns && v->sl ? v->sl[j] : strlen(s);
  p32(q, (uint32_t)l);
  memcpy(*q, s, l);
  *q += l;
}

static void encode_arg(uint8_t **q, const pt__dumpi_arg *arg,
                       const pt__dumpi_call *call, const pt__dumpi_val *v) {
  switch ((pt__dumpi_wire)pt__dumpi_atype_wire_tab[arg->type]) {
    case PT__DW_I32: p32(q, (uint32_t)v->i); return;
    case PT__DW_I64: p64(q, (uint64_t)v->i); return;
    case PT__DW_H16: p16(q, (uint16_t)v->i); return;
    case PT__DW_U8:
    case PT__DW_S8: p8(q, (uint8_t)v->i); return;
    case PT__DW_STATUS: {
      if (!(call->mask & PT__DUMPI_MASK_STATUS)) return;
      uint32_t n = v->present && v->i > 0 ? v->na / 5 : 0;
      p32(q, v->present ? (uint32_t)v->i : 0);
      for (uint32_t j = 0; j < n; j++) {
        const int64_t *s = v->a + 5 * j;
        p32(q, (uint32_t)s[0]);
        p32(q, (uint32_t)s[1]);
        p8(q, (uint8_t)s[2]);
        p8(q, (uint8_t)s[3]);
        p32(q, (uint32_t)s[4]);
      }
      return;
    }
    case PT__DW_I32ARR:
    case PT__DW_H16ARR:
    case PT__DW_U8ARR: {
      pt__dumpi_wire w = (pt__dumpi_wire)pt__dumpi_atype_wire_tab[arg->type];
      p32(q, (uint32_t)v->i);
      for (uint32_t j = 0; j < v->na; j++) {
        if (w == PT__DW_I32ARR) p32(q, (uint32_t)v->a[j]);
        else if (w == PT__DW_H16ARR) p16(q, (uint16_t)v->a[j]);
        else p8(q, (uint8_t)v->a[j]);
      }
      return;
    }
    case PT__DW_I32ARR2: {
      p32(q, (uint32_t)v->i);
      for (uint32_t j = 0; j < v->na; j++) p32(q, (uint32_t)v->a[j]);
      return;
    }
    case PT__DW_STR: put_str(q, v, 0); return;
    case PT__DW_STRARR:
    case PT__DW_ARGV:
      if (pt__dumpi_atype_wire_tab[arg->type] == PT__DW_STRARR) p32(q, (uint32_t)v->i);
      for (uint32_t j = 0; j < v->ns; j++) put_str(q, v, j);
      return;
    case PT__DW_STRARR2: {
      p32(q, (uint32_t)v->i);
      uint32_t k = 0;
      for (uint32_t r = 0; r < v->na; r++) {
        p32(q, (uint32_t)v->a[r]);
        for (int64_t j = 0; j < v->a[r] && k < v->ns; j++) put_str(q, v, k++);
      }
      return;
    }
  }
}

static void put_clock(uint8_t **q, uint32_t off, const pt__dumpi_clock *k) {
  p16(q, (uint16_t)(k->sec - (int64_t)off));
  p32(q, k->nsec);
}

int pt__dumpi_encode(pt__buf *out, const pt__dumpi_call *call,
                     uint32_t cpu_off, uint32_t wall_off) {
  const pt__dumpi_func *f = call->f;
  size_t bound = 64 + 17u * call->nperf;
  for (unsigned k = 0; k < f->nargs; k++) bound += arg_size(&call->v[k]);
  if (pt__buf_reserve(out, bound) < 0) return PT_ENOMEM;
  uint8_t *q = out->p + out->len, *q0 = q;
  p16(&q, call->label);
  p8(&q, call->mask);
  if (call->mask & PT__DUMPI_MASK_THREAD) p16(&q, call->thread);
  if (call->mask & PT__DUMPI_MASK_CPU) {
    put_clock(&q, cpu_off, &call->cpu_start);
    put_clock(&q, cpu_off, &call->cpu_stop);
  }
  if (call->mask & PT__DUMPI_MASK_WALL) {
    put_clock(&q, wall_off, &call->wall_start);
    put_clock(&q, wall_off, &call->wall_stop);
  }
  if (call->mask & PT__DUMPI_MASK_PERF) {
    p8(&q, call->nperf);
    for (unsigned j = 0; j < call->nperf; j++) {
      p64(&q, call->perf_in[j]);
      p64(&q, call->perf_out[j]);
    }
  }
  for (unsigned k = 0; k < f->nargs; k++) {
    const pt__dumpi_arg *arg = &f->args[k];
    if (arg->ca >= 0 && call->v[arg->ca].i != call->v[arg->cb].i) continue;
    encode_arg(&q, arg, call, &call->v[k]);
  }
  out->len += (size_t)(q - q0);
  return PT_OK;
}

/* ---- printing ------------------------------------------------------------ */

static void print_statuses(FILE *f, const pt__dumpi_val *v, int64_t count) {
  if (count < 1 || !v->present || v->i <= 0) {
    fputs("<IGNORED>\n", f);
    return;
  }
  int64_t n = count < v->na / 5 ? count : v->na / 5;
  fputc('[', f);
  for (int64_t j = 0; j < n; j++) {
    const int64_t *s = v->a + 5 * j;
    fprintf(f, "{bytes=%d, cancelled=%d, source=%d, tag=%d, error=%d}",
            (int)s[0], (int)(int8_t)s[2], (int)s[1], (int)s[4],
            (int)(int8_t)s[3]);
    if (j < count - 1) fputs(", ", f);
  }
  fputs("]\n", f);
}

static void print_list(FILE *f, const pt__dumpi_val *v, int64_t len) {
  int64_t n = len < v->na ? len : (int64_t)v->na;
  fputc('[', f);
  for (int64_t j = 0; j < n; j++) {
    fprintf(f, "%d", (int)v->a[j]);
    if (j < len - 1) fputs(", ", f);
  }
  fputs("]\n", f);
}

static void print_arg(FILE *f, const pt__dumpi_call *call,
                      const pt__dumpi_arg *arg, const pt__dumpi_val *v,
                      const pt__dumpi_tables *t) {
  const char *pre = atype_prefix[arg->type];
  int64_t len = arg->len >= 0 ? (int32_t)call->v[arg->len].i : 0;
  char buf[160];
  switch ((pt__dumpi_atype)arg->type) {
    case PT__DA_REQUEST:
    case PT__DA_IOREQUEST:
      fprintf(f, "%s %s=[%d]\n", pre, arg->name, (int)v->i);
      return;
    case PT__DA_I64:
      fprintf(f, "int64_t %s=%lld\n", arg->name, (long long)v->i);
      return;
    case PT__DA_FUNC: {
      const char *name = NULL;
      for (size_t j = 0; t && j < t->naddr; j++)
        if (t->addr[j] == (uint64_t)v->i) {
          name = t->addrname[j];
          break;
        }
      fprintf(f, "int %s=%lld (\"%s\")\n", arg->name, (long long)v->i,
              name ? name : "(null)");
      return;
    }
    case PT__DA_STATUS:
      fprintf(f, "MPI_Status %s=", arg->name);
      print_statuses(f, v, 1);
      return;
    case PT__DA_STATUSES:
      fprintf(f, "MPI_Status %s[%d]=", arg->name, (int)len);
      print_statuses(f, v, len);
      return;
    case PT__DA_INTS:
      fprintf(f, "int %s[%d]=", arg->name, (int)len);
      if (len < 1 || !v->present || v->i <= 0) fputs("<IGNORED>\n", f);
      else print_list(f, v, len);
      return;
    case PT__DA_REQUESTS:
    case PT__DA_IOREQUESTS:
      fprintf(f, "%s %s[%d]=", pre, arg->name, (int)len);
      if (len < 0 || !v->present || v->i <= 0) fputs("<IGNORED>\n", f);
      else print_list(f, v, len);
      return;
    case PT__DA_DATATYPES:
    case PT__DA_INFOS:
    case PT__DA_DISTRIBS:
      fprintf(f, "%s %s[%d]=", pre, arg->name, (int)len);
      print_list(f, v, len);
      return;
    case PT__DA_INTS2: {
      fprintf(f, "int %s[%d][%d]=", arg->name, (int)len, 3);
      if (len < 1 || !v->present || v->i <= 0) {
        fputs("<IGNORED>\n", f);
        return;
      }
      /* dumpi2ascii: every row ends in "]\n", the list in "]" (no
       * newline); rows are printed with 3 elements each.  A row takes at
       * least its length element: no more rows than the array holds (a
       * corrupt count asked for 2^31 rows of a 1 KB record) */
      int64_t rows = len < (int64_t)v->na ? len : (int64_t)v->na;
      fputc('[', f);
      uint32_t k = 0;
      for (int64_t r = 0; r < rows; r++) {
        int64_t m = k < v->na ? v->a[k++] : 0;
        fputc('[', f);
        for (int j = 0; j < 3; j++) {
          fprintf(f, "%d", j < m && k + (uint32_t)j < v->na
                               ? (int)v->a[k + (uint32_t)j] : 0);
          if (j < 2) fputs(", ", f);
        }
        k += m > 0 ? (uint32_t)m : 0;
        fputs("]\n", f);
        if (r < rows - 1) fputs(", ", f);
      }
      fputc(']', f);
      return;
    }
    case PT__DA_STRING:
      fprintf(f, "string %s=\"%s\"\n", arg->name,
              v->present && v->ns ? v->s[0] : "(null)");
      return;
    case PT__DA_STRINGS:
    case PT__DA_STRINGS_NT:
    case PT__DA_ARGV: {
      if (arg->type == PT__DA_STRINGS_NT) len = -2;
      fprintf(f, "string %s[%d]=", arg->name, (int)len);
      if (len == 0 || !v->present) {
        fputs("<IGNORED>\n", f);
        return;
      }
      fputc('[', f);
      int64_t n = len > 0 ? (len < v->ns ? len : (int64_t)v->ns) : v->ns;
      for (int64_t j = 0; j < n; j++) {
        fprintf(f, "\"%s\"", v->s[j]);
        if (j < len - 1) fputs(", ", f);
      }
      fputs("]\n", f);
      return;
    }
    case PT__DA_STRINGS2: {
      fprintf(f, "string %s[%d][%d]=", arg->name, (int)len, -2);
      if (len == 0 || !v->present) {
        fputs("<IGNORED>\n", f);
        return;
      }
      fputc('[', f);
      uint32_t k = 0;
      int64_t rows = len > 0 ? (len < v->na ? len : (int64_t)v->na) : v->na;
      for (int64_t r = 0; r < rows; r++) {
        fputc('[', f);
        for (int64_t j = 0; j < v->a[r] && k < v->ns; j++)
          fprintf(f, "\"%s\"", v->s[k++]);
        fputc(']', f);
        if (r < len - 1) fputs(", ", f);
      }
      fputs("]\n", f);
      return;
    }
    default:
      break;
  }
  /* Scalars with an optional constant name. */
  unsigned kind = atype_names[arg->type];
  int iv = (int)v->i;
  if (kind == PT__DN_DEST || kind == PT__DN_SOURCE || kind == PT__DN_TAG) {
    const char *ann = NULL;
    if (kind == PT__DN_TAG && iv == PT__DUMPI_ANY_TAG) ann = "MPI_ANY_TAG";
    if (kind == PT__DN_SOURCE && iv == PT__DUMPI_ANY_SOURCE)
      ann = "MPI_ANY_SOURCE";
    else if (kind != PT__DN_TAG && iv == PT__DUMPI_ROOT)
      ann = "MPI_ROOT";
    if (ann) fprintf(f, "int %s=%d (%s)\n", arg->name, iv, ann);
    else fprintf(f, "int %s=%d\n", arg->name, iv);
    return;
  }
  const char *ann = const_name(kind, v->i, buf, sizeof buf);
  if (ann) fprintf(f, "%s %s=%d (%s)\n", pre, arg->name, iv, ann);
  else fprintf(f, "%s %s=%d\n", pre, arg->name, iv);
}

static void print_perf(FILE *f, const pt__dumpi_call *c, const uint64_t *v,
                       const pt__dumpi_tables *t) {
  if (!(c->mask & PT__DUMPI_MASK_PERF) || c->nperf == 0) return;
  fputs("Perfcounters: [", f);
  for (unsigned j = 0; j < c->nperf; j++) {
    fprintf(f, "%s=%lld", t && j < t->nperf ? t->perfname[j] : "",
            (long long)v[j]);
    if (j + 1 < c->nperf) fputs(", ", f);
  }
  fputs("]\n", f);
}

int pt__dumpi_print_call(FILE *f, const pt__dumpi_call *c,
                         const pt__dumpi_tables *t) {
  const pt__dumpi_func *fn = c->f;
  fprintf(f,
          "%s entering at walltime %d.%09d, cputime %d.%09d seconds in "
          "thread %d.\n",
          fn->name, (int)c->wall_start.sec, (int)c->wall_start.nsec,
          (int)c->cpu_start.sec, (int)c->cpu_start.nsec, (int)c->thread);
  print_perf(f, c, c->perf_in, t);
  for (unsigned k = 0; k < fn->nargs; k++) {
    unsigned j = fn->order ? (unsigned)(fn->order[k] - 'a') : k;
    print_arg(f, c, &fn->args[j], &c->v[j], t);
  }
  fprintf(f,
          "%s returning at walltime %d.%09d, cputime %d.%09d seconds in "
          "thread %d.\n",
          fn->name, (int)c->wall_stop.sec, (int)c->wall_stop.nsec,
          (int)c->cpu_stop.sec, (int)c->cpu_stop.nsec, (int)c->thread);
  print_perf(f, c, c->perf_out, t);
  return ferror(f) ? PT_EIO : PT_OK;
}
