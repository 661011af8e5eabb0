/* OTF 1.x: pieces shared by otf_read.c and otf_write.c only. */
#ifndef PT_FORMATS_OTF_INT_H
#define PT_FORMATS_OTF_INT_H

#include "formats/otf.h"

/* Attributes the reader adds for OTF fields that have no slot in the model;
 * X(ID, name).  Their ATTRIBUTE definitions have ids OTF_XATTR_BASE + ID
 * and type UINT; the writer recognises them by name. */
#define OTF_XATTRS(X)                                                      \
  X(SCL, "otf:scl") X(COLLOP, "otf:collop") X(MATCH, "otf:match")         \
  X(DURATION, "otf:duration") X(HANDLE, "otf:handle")                     \
  X(FILEOP, "otf:fileop") X(COUNT, "otf:count") X(COMM, "otf:comm")       \
  X(ROOT, "otf:root") X(SENT, "otf:sent") X(RECVD, "otf:recvd")           \
  X(FILE, "otf:file")

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
/* An attribute written with OTF_I64_MARK: the model's integer arrays, not
 * an OTF byte array read back (code 11). */
static inline int is_i64_attr(const pt_def *d) {
  return d->id < OTF_XATTR_BASE && d->i0 == PT_TYPE_INTS && d->i1 != 11;
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

/* OTF counter property bits (OTF_Definitions.h). */
#define OTF_CNT_TYPE_ABS 1u
#define OTF_CNT_VARTYPE_MASK 0xf0u
#define OTF_CNT_VARTYPE_SIGNED8 0x10u
#define OTF_CNT_VARTYPE_FLOAT 0x20u
#define OTF_CNT_VARTYPE_DOUBLE 0x30u

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
