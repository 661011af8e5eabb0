/* OTF2 bridge (libotf2): shared tables of the source (otf2_read.c) and the
 * sink (otf2_write.c).  Mapping to the model: doc/otf2.md.  Not public API. */
#ifndef PT_FORMATS_OTF2_INT_H
#define PT_FORMATS_OTF2_INT_H

#include <otf2/otf2.h>

#include "formats/registry.h"

/* Model GROUP ids of OTF2 metric classes / instances: OTF2 metric refs live
 * in their own id space, so they are moved above the OTF2 group ids. */
#define PT__OTF2_METRIC_GROUP(ref) ((UINT64_C(1) << 32) | (uint64_t)(ref))

/* Definitions the source invents (attribute keys and labels that carry
 * OTF2 fields the model has no slot for) use ids from here on. */
#define PT__OTF2_CARRIER_BASE (UINT64_C(1) << 40)

/* Prefix of every carrier name: attribute keys, labels and KEYVAL names
 * starting with it are the bridge's own and never written as OTF2
 * attributes or properties. */
#define PT__OTF2_PREFIX "otf2:"

/* Carrier attribute keys: X(NAME, name, model type). */
#define PT__OTF2_CARRIERS(X)                                                 \
  X(METRIC, "otf2:metric", UINT)         /* model GROUP id of the metric    \
                                            class / instance of a sample */  \
  X(ARG, "otf2:program.arg", STRING)     /* ProgramBegin argument (each) */  \
  X(EXIT, "otf2:program.exit", INT)      /* ProgramEnd exit status */        \
  X(PARADIGM, "otf2:paradigm", INT)      /* exact OTF2 paradigm of a thread \
                                            event when the model's differs */ \
  X(HANDLE, "otf2:io.handle", UINT)      /* IoOperationTest/Issued/Cancel. */ \
  X(MATCHING, "otf2:io.matching", UINT)  /* ... their matching id */         \
  X(OP, "otf2:coll.op", INT)             /* collective op outside the model */ \
  X(SNAP_RECORDS, "otf2:snap.records", UINT) /* SnapshotStart: #records */   \
  X(SNAP_POS, "otf2:snap.position", UINT)    /* SnapshotEnd: read position */

enum {
#define PT__OTF2_C_ENUM(N, s, t) PT__OTF2_C_##N,
  PT__OTF2_CARRIERS(PT__OTF2_C_ENUM)
#undef PT__OTF2_C_ENUM
  PT__OTF2_C__COUNT
};

/* Carrier labels of MARK events for OTF2 records without a model kind. */
#define PT__OTF2_LABELS(X)                                                   \
  X(PROGRAM_BEGIN, "otf2:ProgramBegin")                                      \
  X(PROGRAM_END, "otf2:ProgramEnd")                                          \
  X(IO_TEST, "otf2:IoOperationTest")                                         \
  X(IO_ISSUED, "otf2:IoOperationIssued")                                     \
  X(IO_CANCELLED, "otf2:IoOperationCancelled")                              \
  X(SNAP_START, "otf2:SnapshotStart")                                        \
  X(SNAP_END, "otf2:SnapshotEnd")

enum {
#define PT__OTF2_L_ENUM(N, s) PT__OTF2_L_##N,
  PT__OTF2_LABELS(PT__OTF2_L_ENUM)
#undef PT__OTF2_L_ENUM
  PT__OTF2_L__COUNT
};

extern const char *const pt__otf2_carrier_names[PT__OTF2_C__COUNT];
extern const uint8_t pt__otf2_carrier_types[PT__OTF2_C__COUNT];
extern const char *const pt__otf2_label_names[PT__OTF2_L__COUNT];

/* Enum maps.  *_to_model gives the model's nearest value; *_from_model the
 * OTF2 value a model value is written as.  When from(to(x)) != x the
 * source adds an "otf2:<kind>.<field>" KEYVAL override (doc/otf2.md). */
int pt__otf2_role_to_model(int role);
int pt__otf2_role_from_model(int role);
int pt__otf2_paradigm_to_model(int p);
int pt__otf2_paradigm_from_model(int p);
int pt__otf2_type_to_model(int t); /* OTF2_Type -> pt_type */
int pt__otf2_type_from_model(int t);
int pt__otf2_mode_to_model(int m); /* OTF2_MetricMode -> pt_metric_mode */
int pt__otf2_mode_from_model(int m);

/* "NAME: reason" of an OTF2 error code. */
const char *pt__otf2_errname(OTF2_ErrorCode e);

#endif
