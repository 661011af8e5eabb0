/* OTF2 bridge (libotf2): shared tables of the source (otf2_read.c) and the
 * sink (otf2_write.c).  Mapping to the model: doc/otf2.md.  Not public API. */
#ifndef PT_FORMATS_OTF2_INT_H
#define PT_FORMATS_OTF2_INT_H

#include <stdio.h>
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

/* OTF2 allows an attribute key once per attribute list; the sink writes
 * the second and later values of a key repeated in one event as attributes
 * of their own, named "NAME[r]", described by the text below around NAME
 * (printf: the value's index r, then NAME); the source folds them back
 * into NAME. */
#define PT__OTF2_REP_DESC_A "paratrace: value "
#define PT__OTF2_REP_DESC_B " (from 0) of attribute '"
#define PT__OTF2_REP_DESC_C "' repeated in one event"

/* OTF2 has no integer-array type: the sink writes an INTS attribute as a
 * STRING ("1,2,3") and marks it by ending its description with this text
 * (after a space when there is a description); the source strips it and
 * reads the values back as INTS. */
#define PT__OTF2_INTS_DESC "[paratrace: integer array as comma-separated STRING]"

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
  X(SNAP_POS, "otf2:snap.position", UINT)    /* SnapshotEnd: read position */ \
  X(FIELD, "otf2:field", UINT)           /* a field of a generic record */   \
  X(FIELD_I, "otf2:field.int", INT)      /* ... a signed one */          \
  X(CCTX, "otf2:calling_context", UINT)  /* an ENTER / LEAVE read from a    \
                                            CallingContextEnter / Leave:    \
                                            the context (its region is the  \
                                            event's) */                     \
  X(UNWIND, "otf2:unwind", UINT)         /* ... a CallingContextEnter's     \
                                            unwind distance */

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

/* OTF2 event records without a model kind or a label above, carried
 * generically: a MARK event with the label "otf2:<Name>" whose fields, in
 * order, are "otf2:field" (UINT: counts, enums, references as model ids,
 * PT_NONE when undefined) or "otf2:field.int" (INT) attributes.
 * X(Name, N, (OTF2_Type suffix, C type, name) x N) in the order of the
 * OTF2 record (OTF2_EvtWriter_<Name>); N = 0 has one empty (). */
#define PT__OTF2_GENERIC(X)                                                  \
  X(OmpFork, 1, (UINT32, uint32_t, threads))                                 \
  X(OmpJoin, 0, ())                                                          \
  X(OmpAcquireLock, 2, (UINT32, uint32_t, lock),                             \
      (UINT32, uint32_t, order))                                             \
  X(OmpReleaseLock, 2, (UINT32, uint32_t, lock),                             \
      (UINT32, uint32_t, order))                                             \
  X(OmpTaskCreate, 1, (UINT64, uint64_t, task))                              \
  X(OmpTaskSwitch, 1, (UINT64, uint64_t, task))                              \
  X(OmpTaskComplete, 1, (UINT64, uint64_t, task))                            \
  X(RmaWinCreate, 1, (RMA_WIN, OTF2_RmaWinRef, win))                         \
  X(RmaWinDestroy, 1, (RMA_WIN, OTF2_RmaWinRef, win))                        \
  X(RmaCollectiveBegin, 0, ())                                               \
  X(RmaCollectiveEnd, 6, (UINT8, OTF2_CollectiveOp, op),                     \
      (UINT32, OTF2_RmaSyncLevel, level), (RMA_WIN, OTF2_RmaWinRef, win),    \
      (UINT32, uint32_t, root), (UINT64, uint64_t, sent),                    \
      (UINT64, uint64_t, received))                                          \
  X(RmaGroupSync, 3, (UINT32, OTF2_RmaSyncLevel, level),                     \
      (RMA_WIN, OTF2_RmaWinRef, win), (GROUP, OTF2_GroupRef, group))         \
  X(RmaRequestLock, 4, (RMA_WIN, OTF2_RmaWinRef, win),                       \
      (UINT32, uint32_t, remote), (UINT64, uint64_t, lock),                  \
      (UINT8, OTF2_LockType, type))                                          \
  X(RmaAcquireLock, 4, (RMA_WIN, OTF2_RmaWinRef, win),                       \
      (UINT32, uint32_t, remote), (UINT64, uint64_t, lock),                  \
      (UINT8, OTF2_LockType, type))                                          \
  X(RmaTryLock, 4, (RMA_WIN, OTF2_RmaWinRef, win),                           \
      (UINT32, uint32_t, remote), (UINT64, uint64_t, lock),                  \
      (UINT8, OTF2_LockType, type))                                          \
  X(RmaReleaseLock, 3, (RMA_WIN, OTF2_RmaWinRef, win),                       \
      (UINT32, uint32_t, remote), (UINT64, uint64_t, lock))                  \
  X(RmaSync, 3, (RMA_WIN, OTF2_RmaWinRef, win), (UINT32, uint32_t, remote),  \
      (UINT8, OTF2_RmaSyncType, type))                                       \
  X(RmaWaitChange, 1, (RMA_WIN, OTF2_RmaWinRef, win))                        \
  X(RmaPut, 4, (RMA_WIN, OTF2_RmaWinRef, win), (UINT32, uint32_t, remote),   \
      (UINT64, uint64_t, bytes), (UINT64, uint64_t, match))                  \
  X(RmaGet, 4, (RMA_WIN, OTF2_RmaWinRef, win), (UINT32, uint32_t, remote),   \
      (UINT64, uint64_t, bytes), (UINT64, uint64_t, match))                  \
  X(RmaAtomic, 6, (RMA_WIN, OTF2_RmaWinRef, win),                            \
      (UINT32, uint32_t, remote), (UINT8, OTF2_RmaAtomicType, type),         \
      (UINT64, uint64_t, sent), (UINT64, uint64_t, received),                \
      (UINT64, uint64_t, match))                                             \
  X(RmaOpCompleteBlocking, 2, (RMA_WIN, OTF2_RmaWinRef, win),                \
      (UINT64, uint64_t, match))                                             \
  X(RmaOpCompleteNonBlocking, 2, (RMA_WIN, OTF2_RmaWinRef, win),             \
      (UINT64, uint64_t, match))                                             \
  X(RmaOpTest, 2, (RMA_WIN, OTF2_RmaWinRef, win),                            \
      (UINT64, uint64_t, match))                                             \
  X(RmaOpCompleteRemote, 2, (RMA_WIN, OTF2_RmaWinRef, win),                  \
      (UINT64, uint64_t, match))                                             \
  X(ThreadAcquireLock, 3, (UINT8, OTF2_Paradigm, model),                     \
      (UINT32, uint32_t, lock), (UINT32, uint32_t, order))                   \
  X(ThreadReleaseLock, 3, (UINT8, OTF2_Paradigm, model),                     \
      (UINT32, uint32_t, lock), (UINT32, uint32_t, order))                   \
  X(ThreadTaskCreate, 3, (COMM, OTF2_CommRef, team),                         \
      (UINT32, uint32_t, creator), (UINT32, uint32_t, generation))           \
  X(ThreadTaskSwitch, 3, (COMM, OTF2_CommRef, team),                         \
      (UINT32, uint32_t, creator), (UINT32, uint32_t, generation))           \
  X(ThreadTaskComplete, 3, (COMM, OTF2_CommRef, team),                       \
      (UINT32, uint32_t, creator), (UINT32, uint32_t, generation))           \
  X(CallingContextEnter, 2, (CALLING_CONTEXT, OTF2_CallingContextRef, cc),   \
      (UINT32, uint32_t, unwind))                                            \
  X(CallingContextLeave, 1, (CALLING_CONTEXT, OTF2_CallingContextRef, cc))   \
  X(CallingContextSample, 3, (CALLING_CONTEXT, OTF2_CallingContextRef, cc),  \
      (UINT32, uint32_t, unwind),                                            \
      (INTERRUPT_GENERATOR, OTF2_InterruptGeneratorRef, gen))                \
  X(IoCreateHandle, 4, (IO_HANDLE, OTF2_IoHandleRef, handle),                \
      (UINT8, OTF2_IoAccessMode, mode),                                      \
      (UINT32, OTF2_IoCreationFlag, creation),                               \
      (UINT32, OTF2_IoStatusFlag, status))                                   \
  X(IoDestroyHandle, 1, (IO_HANDLE, OTF2_IoHandleRef, handle))               \
  X(IoDuplicateHandle, 3, (IO_HANDLE, OTF2_IoHandleRef, old_handle),         \
      (IO_HANDLE, OTF2_IoHandleRef, new_handle),                             \
      (UINT32, OTF2_IoStatusFlag, status))                                   \
  X(IoSeek, 4, (IO_HANDLE, OTF2_IoHandleRef, handle),                        \
      (INT64, int64_t, request), (UINT8, OTF2_IoSeekOption, whence),         \
      (UINT64, uint64_t, result))                                            \
  X(IoChangeStatusFlags, 2, (IO_HANDLE, OTF2_IoHandleRef, handle),           \
      (UINT32, OTF2_IoStatusFlag, status))                                   \
  X(IoDeleteFile, 2, (UINT8, OTF2_IoParadigmRef, paradigm),                  \
      (IO_FILE, OTF2_IoFileRef, file))                                       \
  X(IoAcquireLock, 2, (IO_HANDLE, OTF2_IoHandleRef, handle),                 \
      (UINT8, OTF2_LockType, type))                                          \
  X(IoReleaseLock, 2, (IO_HANDLE, OTF2_IoHandleRef, handle),                 \
      (UINT8, OTF2_LockType, type))                                          \
  X(IoTryLock, 2, (IO_HANDLE, OTF2_IoHandleRef, handle),                     \
      (UINT8, OTF2_LockType, type))                                          \
  X(NonBlockingCollectiveRequest, 1, (UINT64, uint64_t, request))            \
  X(NonBlockingCollectiveComplete, 6, (UINT8, OTF2_CollectiveOp, op),        \
      (COMM, OTF2_CommRef, comm), (UINT32, uint32_t, root),                  \
      (UINT64, uint64_t, sent), (UINT64, uint64_t, received),                \
      (UINT64, uint64_t, request))                                           \
  X(CommCreate, 1, (COMM, OTF2_CommRef, comm))                               \
  X(CommDestroy, 1, (COMM, OTF2_CommRef, comm))

/* Generic labels follow the labels above: the label id of record Name is
 * PT__OTF2_CARRIER_BASE + PT__OTF2_L__COUNT + PT__OTF2_G_<Name>. */
enum {
#define PT__OTF2_G_ENUM(N, n, ...) PT__OTF2_G_##N,
  PT__OTF2_GENERIC(PT__OTF2_G_ENUM)
#undef PT__OTF2_G_ENUM
  PT__OTF2_G__COUNT
};

/* Definitions without a model kind, kept as two KEYVALs scoped by their
 * OTF2 id: "otf2:def.<Name>" = the numeric fields in order, decimal,
 * space-separated (a STRING field as 0; references as model ids, -1 when
 * undefined), and "otf2:def.<Name>.str" = the one STRING field.
 * X(Name, N, fields) as above, the fields after `self`. */
#define PT__OTF2_GENERIC_DEFS(X)                                             \
  X(RmaWin, 3, (STRING, OTF2_StringRef, name), (COMM, OTF2_CommRef, comm),   \
      (UINT32, OTF2_RmaWinFlag, flags))                                      \
  X(SourceCodeLocation, 2, (STRING, OTF2_StringRef, file),                   \
      (UINT32, uint32_t, line))                                              \
  X(CallingContext, 3, (REGION, OTF2_RegionRef, region),                     \
      (SOURCE_CODE_LOCATION, OTF2_SourceCodeLocationRef, scl),               \
      (CALLING_CONTEXT, OTF2_CallingContextRef, parent))                     \
  X(InterruptGenerator, 5, (STRING, OTF2_StringRef, name),                   \
      (UINT8, OTF2_InterruptGeneratorMode, mode), (UINT8, OTF2_Base, base),  \
      (INT64, int64_t, exponent), (UINT64, uint64_t, period))                \
  X(Callpath, 2, (UINT32, OTF2_CallpathRef, parent),                         \
      (REGION, OTF2_RegionRef, region))                                      \
  X(CartDimension, 3, (STRING, OTF2_StringRef, name),                        \
      (UINT32, uint32_t, size), (UINT8, OTF2_CartPeriodicity, periodicity))

/* PT__OTF2_EACH(M, N, fields...): M(index, OTF2_Type suffix, C type, name)
 * for each field tuple of a row above. */
#define PT__OTF2_EACH(M, n, ...) PT__OTF2_EACH_##n(M, __VA_ARGS__)
#define PT__OTF2_UNP(...) __VA_ARGS__
#define PT__OTF2_AP(M, i, t) PT__OTF2_AP_(M, i, PT__OTF2_UNP t)
#define PT__OTF2_AP_(M, i, ...) PT__OTF2_AP__(M, i, __VA_ARGS__)
#define PT__OTF2_AP__(M, i, K, T, n) M(i, K, T, n)
#define PT__OTF2_EACH_0(M, a)
#define PT__OTF2_EACH_1(M, a) PT__OTF2_AP(M, 0, a)
#define PT__OTF2_EACH_2(M, a, b) PT__OTF2_EACH_1(M, a) PT__OTF2_AP(M, 1, b)
#define PT__OTF2_EACH_3(M, a, b, c)                                          \
  PT__OTF2_EACH_2(M, a, b) PT__OTF2_AP(M, 2, c)
#define PT__OTF2_EACH_4(M, a, b, c, d)                                       \
  PT__OTF2_EACH_3(M, a, b, c) PT__OTF2_AP(M, 3, d)
#define PT__OTF2_EACH_5(M, a, b, c, d, e)                                    \
  PT__OTF2_EACH_4(M, a, b, c, d) PT__OTF2_AP(M, 4, e)
#define PT__OTF2_EACH_6(M, a, b, c, d, e, f)                                 \
  PT__OTF2_EACH_5(M, a, b, c, d, e) PT__OTF2_AP(M, 5, f)
#define PT__OTF2_MAX_FIELDS 6

extern const char *const pt__otf2_generic_names[PT__OTF2_G__COUNT];

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
/* libotf2's error messages: taken by a callback instead of printed
 * (capture: register, forget earlier ones); take: the first one since,
 * copied into buf (NULL if none), then forgotten. */
void pt__otf2_capture(void);
const char *pt__otf2_take(char *buf, size_t n);
/* the error code of the message pt__otf2_take would return (OTF2_SUCCESS
 * if none is held) */
OTF2_ErrorCode pt__otf2_held_code(void);

/* The fuzz target's way into the reader's walk over an OTF2 file's
 * framing (otf2_read.c): `size` bytes of `f` in chunks of `chunk` bytes,
 * from the first chunk to the end-of-file record, looking for record
 * number `want` (its offset in *at, UINT64_MAX if not reached).  Returns
 * 0 (end-of-file record at *off), 1 (the data ends first, at *off) or 2
 * (damaged at *off). */
int pt__otf2_walk(FILE *f, uint64_t size, uint64_t chunk, int evt,
                  uint64_t want, uint64_t *off, uint64_t *at);

#endif
