/* paratrace: status codes.
 *
 * Every library function that can fail returns an int status: PT_OK (0) on
 * success, PT_END (a positive value) when an iteration is exhausted, and a
 * negative PT_E* code on error.  The detail of an error (file, offset,
 * reason) is kept by the handle that failed and is read with that handle's
 * *_errmsg() function; there is no global error state.
 */
#ifndef PARATRACE_STATUS_H
#define PARATRACE_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PT_API __attribute__((visibility("default")))
#else
#define PT_API
#endif

/* X(NAME, value, message) -- the one table of status codes. */
#define PT_STATUS_MAP(X)                                                      \
  X(OK, 0, "success")                                                         \
  X(END, 1, "end of data")                                                    \
  X(EINVAL, -1, "invalid argument")                                           \
  X(ENOMEM, -2, "out of memory")                                              \
  X(EIO, -3, "input/output error")                                            \
  X(ECORRUPT, -4, "corrupt or malformed data")                                \
  X(EVERSION, -5, "unsupported format version")                               \
  X(EFORMAT, -6, "unknown or unsupported format")                             \
  X(EORDER, -7, "timestamps out of order")                                    \
  X(ENOTFOUND, -8, "not found")                                               \
  X(EEXIST, -9, "already exists")                                             \
  X(ELIMIT, -10, "limit exceeded")                                            \
  X(ESTATE, -11, "operation not valid in this state")                         \
  X(EUNSUPPORTED, -12, "not supported by this format")                        \
  X(ETRUNCATED, -13, "truncated data")                                        \
  X(ECHECK, -14, "consistency check failed")                                  \
  X(EINTR, -15, "interrupted")

typedef enum pt_status {
#define PT__STATUS_ENUM(name, value, msg) PT_##name = value,
  PT_STATUS_MAP(PT__STATUS_ENUM)
#undef PT__STATUS_ENUM
} pt_status;

/* Human-readable message for a status code.  Returns a static string (never
 * NULL; unknown codes give "unknown status").  Thread-safe. */
PT_API const char *pt_strerror(int status);

/* Symbolic name of a status code without the PT_ prefix ("ECORRUPT").
 * Returns a static string (never NULL).  Thread-safe. */
PT_API const char *pt_status_name(int status);

#ifdef __cplusplus
}
#endif
#endif
