/* OTF 1.x: pieces shared by otf_read.c and otf_write.c only. */
#ifndef PT_FORMATS_OTF_INT_H
#define PT_FORMATS_OTF_INT_H

#include "formats/otf.h"

#include <stdint.h>
#include <string.h>

/* Attributes the reader adds for OTF fields that have no slot in the model;
 * X(ID, name).  Their ATTRIBUTE definitions have ids OTF_XATTR_BASE + ID
 * and type UINT; the writer recognises them by name. */
#define OTF_XATTRS(X)                                                      \
  X(SCL, "otf:scl") X(COLLOP, "otf:collop") X(MATCH, "otf:match")         \
  X(DURATION, "otf:duration") X(HANDLE, "otf:handle")                     \
  X(FILEOP, "otf:fileop") X(COUNT, "otf:count") X(COMM, "otf:comm")       \
  X(ROOT, "otf:root") X(SENT, "otf:sent") X(RECVD, "otf:recvd")           \
  X(FILE, "otf:file") X(ORIGIN, "otf:origin")

enum {
#define OTF__XA_ENUM(id, name) OTF_XA_##id,
  OTF_XATTRS(OTF__XA_ENUM)
#undef OTF__XA_ENUM
  OTF_XA__COUNT
};
#define OTF_XATTR_BASE (UINT64_C(1) << 32)

/* The OTF library's longest byte array per key-value line: longer values
 * take several lines with the same key (L = the bytes left). */
#define OTF_KV_PIECE 100
/* Description prefix of an attribute whose byte arrays hold 64-bit
 * integers, 8 bytes little-endian each (the model's integer arrays; a
 * byte per element would lose every value above 255). */
#define OTF_I64_MARK "paratrace:int64le"
/* ... and of one whose byte arrays hold the bytes of a string (the
 * model's strings: read back as strings, not as arrays of bytes). */
#define OTF_STR_MARK "paratrace:string"
/* The marker an attribute is written with: the model's integer arrays and
 * strings, not an OTF byte array read back (code 11); NULL for others. */
static inline const char *otf_attr_mark(const pt_def *d) {
  if (d->id >= OTF_XATTR_BASE || d->i1 == 11) return NULL;
  return d->i0 == PT_TYPE_INTS     ? OTF_I64_MARK
         : d->i0 == PT_TYPE_STRING ? OTF_STR_MARK
                                   : NULL;
}
extern const char *const pt__otf_xattr_names[OTF_XA__COUNT];

/* Model id spaces for OTF tokens of different OTF name spaces that map to
 * one model kind (doc/otf.md, "ids"). */
#define OTF_NS_SHIFT 32
#define OTF_GROUP_FUNC (UINT64_C(1) << 32)  /* function groups */
#define OTF_GROUP_CNT (UINT64_C(2) << 32)   /* counter groups */
#define OTF_GROUP_FILE (UINT64_C(3) << 32)  /* file groups */
#define OTF_LABEL_COLLOP (UINT64_C(1) << 32) /* DCO as LABEL */
#define OTF_FILE_SCL (UINT64_C(1) << 32)     /* DSF as FILE */

/* OTF counter properties (DCNT P), as OTF 1.x defines them: bits 0-1 the
 * type (0 accumulated, 1 absolute), bits 2-3 the scope, bits 5-8 the value
 * type: 0 / 64 / 128 unsigned 8 / 4 / 2 bytes, 32 / 96 / 160 signed 8 / 4
 * / 2 bytes (bit 5 = signed), 256 float, 288 double (>= 256: not an
 * integer). */
#define OTF_CNT_TYPE_ABS 1u
#define OTF_CNT_VARTYPE_MASK 0x1e0u   /* 480 */
#define OTF_CNT_VARTYPE_SIGNED 0x20u  /* in an integer type: signed */
#define OTF_CNT_VARTYPE_SIGNED8 0x20u /* 32 */
#define OTF_CNT_VARTYPE_FLOAT 0x100u  /* 256 */
#define OTF_CNT_VARTYPE_DOUBLE 0x120u /* 288 */

/* A counter sample's V is 64 bits whatever the value type (as the OTF
 * library's otfprint reads it): unsigned types the value, signed types
 * its 64-bit two's complement (4- and 2-byte ones too), double its IEEE
 * bits, float its single-precision IEEE bits in the low 32 bits. */

/* Model value type of counter properties p: DOUBLE, INT or UINT. */
static inline uint32_t otf_cnt_ptype(uint64_t p) {
  unsigned vt = (unsigned)p & OTF_CNT_VARTYPE_MASK;
  return vt >= OTF_CNT_VARTYPE_FLOAT        ? PT_TYPE_DOUBLE
         : (vt & OTF_CNT_VARTYPE_SIGNED) ? PT_TYPE_INT
                                          : PT_TYPE_UINT;
}

/* Counter properties for a model METRIC of value type t and mode: the
 * 8-byte integer or the double variant. */
static inline uint64_t otf_cnt_props(int64_t t, int64_t mode) {
  uint64_t p = mode == PT_METRIC_ABSOLUTE ? OTF_CNT_TYPE_ABS : 0;
  if (t == PT_TYPE_DOUBLE) p |= OTF_CNT_VARTYPE_DOUBLE;
  else if (t == PT_TYPE_INT) p |= OTF_CNT_VARTYPE_SIGNED8;
  return p;
}

/* The model value of sample V = v of a counter with properties p. */
static inline pt_value otf_cnt_decode(uint64_t p, uint64_t v) {
  unsigned vt = (unsigned)p & OTF_CNT_VARTYPE_MASK;
  pt_value r = {PT_TYPE_UINT, 0, {.u = v}};
  if (vt == OTF_CNT_VARTYPE_FLOAT) {
    uint32_t b = (uint32_t)v;
    float f;
    memcpy(&f, &b, sizeof f);
    r.type = PT_TYPE_DOUBLE;
    r.v.d = f;
  } else if (vt >= OTF_CNT_VARTYPE_FLOAT) {
    r.type = PT_TYPE_DOUBLE;
    memcpy(&r.v.d, &v, sizeof r.v.d);
  } else if (vt & OTF_CNT_VARTYPE_SIGNED) {
    r.type = PT_TYPE_INT;
    r.v.i = (int64_t)v;
  }
  return r;
}

/* A double as int64_t / uint64_t, rounded toward zero (NaN -> 0, out of
 * range -> the nearer end), without the undefined behaviour of a plain
 * cast. */
static inline int64_t otf_d2i(double d) {
  if (!(d == d)) return 0;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  if (d >= 9223372036854775808.0) return INT64_MAX;
  return (int64_t)d;
}
static inline uint64_t otf_d2u(double d) {
  if (!(d > 0)) return 0;
  if (d >= 18446744073709551616.0) return UINT64_MAX;
  return (uint64_t)d;
}

/* Sample V for model value x of a counter with properties p: x converted
 * to the counter's value type (a double to an integer rounds toward zero
 * and saturates; an integer of the other signedness keeps its bits). */
static inline uint64_t otf_cnt_encode(uint64_t p, const pt_value *x) {
  unsigned vt = (unsigned)p & OTF_CNT_VARTYPE_MASK;
  if (vt >= OTF_CNT_VARTYPE_FLOAT) {
    double d = x->type == PT_TYPE_DOUBLE ? x->v.d
               : x->type == PT_TYPE_INT  ? (double)x->v.i
               : x->type == PT_TYPE_UINT ? (double)x->v.u
                                         : 0;
    uint64_t v;
    if (vt == OTF_CNT_VARTYPE_FLOAT) {
      float f = (float)d;
      uint32_t b;
      memcpy(&b, &f, sizeof b);
      return b;
    }
    memcpy(&v, &d, sizeof v);
    return v;
  }
  if (x->type == PT_TYPE_DOUBLE)
    return vt & OTF_CNT_VARTYPE_SIGNED ? (uint64_t)otf_d2i(x->v.d)
                                       : otf_d2u(x->v.d);
  return x->type == PT_TYPE_INT || x->type == PT_TYPE_UINT ? x->v.u : 0;
}

/* OTF collective types (DCO Y). */
enum { OTF_COLL_BARRIER = 1, OTF_COLL_ONE2ALL, OTF_COLL_ALL2ONE,
       OTF_COLL_ALL2ALL };

/* Model collective op from an OTF collective name ("MPI_Allreduce") and
 * type; PT_COLL_OTHER when unknown. */
uint32_t pt__otf_coll_op(const char *name, uint32_t type);
/* OTF collective type of a model op. */
uint32_t pt__otf_coll_type(uint32_t op);

/* Derive the file stub ("dir/trace") from a master path ("dir/trace.otf",
 * or the generic layer's "dir/trace.otf.tmp-123").  malloc'd; NULL on
 * OOM. */
char *pt__otf_stub(const char *master);

#endif
