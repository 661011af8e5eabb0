/* OTF2 bridge: enum tables shared by source and sink (doc/otf2.md). */
#include "formats/otf2_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const pt__otf2_carrier_names[PT__OTF2_C__COUNT] = {
#define X_(N, s, t) s,
    PT__OTF2_CARRIERS(X_)
#undef X_
};
const uint8_t pt__otf2_carrier_types[PT__OTF2_C__COUNT] = {
#define X_(N, s, t) PT_TYPE_##t,
    PT__OTF2_CARRIERS(X_)
#undef X_
};
const char *const pt__otf2_label_names[PT__OTF2_L__COUNT] = {
#define X_(N, s) s,
    PT__OTF2_LABELS(X_)
#undef X_
};

const char *const pt__otf2_generic_names[PT__OTF2_G__COUNT] = {
#define X_(N, n, ...) "otf2:" #N,
    PT__OTF2_GENERIC(X_)
#undef X_
};

/* X(otf2 role, model role) in OTF2 order; the first OTF2 role of a model
 * role is the one the sink writes. */
#define ROLE_MAP(X)                                                          \
  X(UNKNOWN, UNKNOWN) X(FUNCTION, FUNCTION) X(WRAPPER, WRAPPER)              \
  X(LOOP, LOOP) X(CODE, CODE) X(PARALLEL, CODE) X(SECTIONS, CODE)            \
  X(SECTION, CODE) X(WORKSHARE, CODE) X(SINGLE, CODE) X(SINGLE_SBLOCK, CODE) \
  X(MASTER, CODE) X(CRITICAL, SYNC) X(CRITICAL_SBLOCK, SYNC)                 \
  X(ATOMIC, SYNC) X(BARRIER, BARRIER) X(IMPLICIT_BARRIER, BARRIER)           \
  X(FLUSH, SYNC) X(ORDERED, SYNC) X(ORDERED_SBLOCK, SYNC) X(TASK, CODE)      \
  X(TASK_CREATE, CODE) X(TASK_WAIT, SYNC) X(COLL_ONE2ALL, COLLECTIVE)        \
  X(COLL_ALL2ONE, COLLECTIVE) X(COLL_ALL2ALL, COLLECTIVE)                    \
  X(COLL_OTHER, COLLECTIVE) X(FILE_IO, FILE_IO) X(POINT2POINT, POINT2POINT)  \
  X(RMA, POINT2POINT) X(DATA_TRANSFER, POINT2POINT)                          \
  X(ARTIFICIAL, ARTIFICIAL) X(THREAD_CREATE, CODE) X(THREAD_WAIT, SYNC)      \
  X(TASK_UNTIED, CODE) X(ALLOCATE, CODE) X(DEALLOCATE, CODE)                 \
  X(REALLOCATE, CODE) X(FILE_IO_METADATA, FILE_IO)

int pt__otf2_role_to_model(int role) {
  switch (role) {
#define X_(o, m)                  \
  case OTF2_REGION_ROLE_##o:      \
    return PT_ROLE_##m;
    ROLE_MAP(X_)
#undef X_
    default:
      return PT_ROLE_UNKNOWN;
  }
}

int pt__otf2_role_from_model(int role) {
  switch (role) {
    case PT_ROLE_FUNCTION: return OTF2_REGION_ROLE_FUNCTION;
    case PT_ROLE_WRAPPER: return OTF2_REGION_ROLE_WRAPPER;
    case PT_ROLE_LOOP: return OTF2_REGION_ROLE_LOOP;
    case PT_ROLE_CODE: return OTF2_REGION_ROLE_CODE;
    case PT_ROLE_USER: return OTF2_REGION_ROLE_FUNCTION;
    case PT_ROLE_POINT2POINT: return OTF2_REGION_ROLE_POINT2POINT;
    case PT_ROLE_COLLECTIVE: return OTF2_REGION_ROLE_COLL_OTHER;
    case PT_ROLE_BARRIER: return OTF2_REGION_ROLE_BARRIER;
    case PT_ROLE_FILE_IO: return OTF2_REGION_ROLE_FILE_IO;
    case PT_ROLE_SYNC: return OTF2_REGION_ROLE_TASK_WAIT;
    case PT_ROLE_ARTIFICIAL: return OTF2_REGION_ROLE_ARTIFICIAL;
    case PT_ROLE_TRACING: return OTF2_REGION_ROLE_ARTIFICIAL;
    default: return OTF2_REGION_ROLE_UNKNOWN;
  }
}

int pt__otf2_paradigm_to_model(int p) {
  switch (p) {
    case OTF2_PARADIGM_USER: return PT_PARADIGM_USER;
    case OTF2_PARADIGM_COMPILER: return PT_PARADIGM_COMPILER;
    case OTF2_PARADIGM_MPI: return PT_PARADIGM_MPI;
    case OTF2_PARADIGM_OPENMP: return PT_PARADIGM_OPENMP;
    case OTF2_PARADIGM_PTHREAD: return PT_PARADIGM_PTHREAD;
    case OTF2_PARADIGM_MEASUREMENT_SYSTEM: return PT_PARADIGM_MEASUREMENT;
    default: return PT_PARADIGM_UNKNOWN;
  }
}

int pt__otf2_paradigm_from_model(int p) {
  switch (p) {
    case PT_PARADIGM_USER: return OTF2_PARADIGM_USER;
    case PT_PARADIGM_COMPILER: return OTF2_PARADIGM_COMPILER;
    case PT_PARADIGM_MPI: return OTF2_PARADIGM_MPI;
    case PT_PARADIGM_OPENMP: return OTF2_PARADIGM_OPENMP;
    case PT_PARADIGM_PTHREAD: return OTF2_PARADIGM_PTHREAD;
    case PT_PARADIGM_POSIX_IO: return OTF2_PARADIGM_USER;
    case PT_PARADIGM_MPI_IO: return OTF2_PARADIGM_MPI;
    case PT_PARADIGM_PICL: return OTF2_PARADIGM_USER;
    case PT_PARADIGM_MEASUREMENT: return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
    default: return OTF2_PARADIGM_UNKNOWN;
  }
}

int pt__otf2_type_to_model(int t) {
  switch (t) {
    case OTF2_TYPE_INT8: case OTF2_TYPE_INT16: case OTF2_TYPE_INT32:
    case OTF2_TYPE_INT64:
      return PT_TYPE_INT;
    case OTF2_TYPE_FLOAT: case OTF2_TYPE_DOUBLE:
      return PT_TYPE_DOUBLE;
    case OTF2_TYPE_STRING:
      return PT_TYPE_STRING;
    case OTF2_TYPE_NONE:
      return PT_TYPE_NONE;
    default: /* unsigned integers and references to definitions */
      return PT_TYPE_UINT;
  }
}

int pt__otf2_type_from_model(int t) {
  switch (t) {
    case PT_TYPE_INT: return OTF2_TYPE_INT64;
    case PT_TYPE_UINT: return OTF2_TYPE_UINT64;
    case PT_TYPE_DOUBLE: return OTF2_TYPE_DOUBLE;
    case PT_TYPE_STRING: case PT_TYPE_INTS: return OTF2_TYPE_STRING;
    default: return OTF2_TYPE_NONE;
  }
}

int pt__otf2_mode_to_model(int m) {
  switch (m & OTF2_METRIC_VALUE_MASK) {
    case OTF2_METRIC_VALUE_ACCUMULATED: return PT_METRIC_ACCUMULATED;
    case OTF2_METRIC_VALUE_RELATIVE: return PT_METRIC_RELATIVE;
    default: return PT_METRIC_ABSOLUTE;
  }
}

int pt__otf2_mode_from_model(int m) {
  switch (m) {
    case PT_METRIC_ACCUMULATED: return OTF2_METRIC_ACCUMULATED_START;
    case PT_METRIC_RELATIVE: return OTF2_METRIC_RELATIVE_LAST;
    default: return OTF2_METRIC_ABSOLUTE_POINT;
  }
}

const char *pt__otf2_errname(OTF2_ErrorCode e) {
  const char *n = OTF2_Error_GetName(e);
  return n ? n : "unknown OTF2 error";
}

/* libotf2 prints its errors to stderr unless a callback takes them: the
 * first message since the last take is kept (the deepest: it names the
 * file), per thread, and the reader's or writer's own error quotes it. */
static _Thread_local char t_lib[400];
static _Thread_local OTF2_ErrorCode t_code;
static OTF2_ErrorCode lib_error(void *u, const char *file, uint64_t line,
                                const char *fn, OTF2_ErrorCode code,
                                const char *fmt, va_list va) {
  (void)u, (void)file, (void)line, (void)fn;
  int en = errno;
  if (!t_lib[0] && fmt) {
    vsnprintf(t_lib, sizeof t_lib, fmt, va);
    t_code = code;
    /* a failed POSIX call (fclose of a file whose buffered data did not
     * fit) is reported as INTEGRITY_FAULT without its reason: add errno */
    size_t n = strlen(t_lib);
    if (en && strstr(t_lib, "Posix call") && n + 3 < sizeof t_lib)
      snprintf(t_lib + n, sizeof t_lib - n, ": %s", strerror(en));
  }
  errno = en;
  return code;
}
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_register(void) { OTF2_Error_RegisterCallback(lib_error, NULL); }

void pt__otf2_capture(void) {
  pthread_once(&lib_once, lib_register);
  t_lib[0] = 0;
}

OTF2_ErrorCode pt__otf2_held_code(void) {
  return t_lib[0] ? t_code : OTF2_SUCCESS;
}

const char *pt__otf2_take(char *buf, size_t n) {
  if (!t_lib[0]) return NULL;
  snprintf(buf, n, "%s", t_lib);
  t_lib[0] = 0;
  return buf;
}
