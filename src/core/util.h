/* Internal helpers shared by every module: growable buffers, varints,
 * CRC32C, an arena for strings, error-detail formatting.  Not public API. */
#ifndef PT_CORE_UTIL_H
#define PT_CORE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "paratrace/writer.h"

#if defined(__GNUC__)
#define PT_LIKELY(x) __builtin_expect(!!(x), 1)
#define PT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define PT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define PT_LIKELY(x) (x)
#define PT_UNLIKELY(x) (x)
#define PT_PRINTF(a, b)
#define PT_ALWAYS_INLINE inline
#endif

/* ---- UTF-8 -------------------------------------------------------------- */

/* Length (1-4) of the well-formed UTF-8 sequence at p (NUL-terminated), or
 * 0 when the bytes there are not one (a stray continuation byte, a lead
 * byte without its continuations, an overlong form, a surrogate, a code
 * point above U+10FFFF).  Names read from traces are bytes in whatever
 * encoding the tracer used (KOI8-R, Latin-1...); writers of JSON and HTML,
 * which must be UTF-8, write a byte that is not part of such a sequence as
 * the character U+0000+byte (its Latin-1 reading) instead. */
static inline size_t pt__utf8_len(const unsigned char *p) {
  unsigned c = p[0];
  if (c < 0x80) return 1;
  if (c < 0xC2 || c > 0xF4) return 0;
  size_t n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  unsigned lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c == 0xE0) lo = 0xA0;
  else if (c == 0xED) hi = 0x9F; /* no surrogates */
  else if (c == 0xF0) lo = 0x90;
  else if (c == 0xF4) hi = 0x8F; /* <= U+10FFFF */
  if (p[1] < lo || p[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xBF) return 0;
  return n;
}

/* s (NULL: "") as a JSON string literal on f: '"' and '\\' escaped,
 * control bytes and, with `html` (JSON inside an HTML page's script),
 * '<', '>' and '&' as \u00XX; well-formed UTF-8 as it is, any other byte
 * as its Latin-1 character (\u00XX), so that names in a tracer's 8-bit
 * encoding (KOI8-R, Latin-1...) still make valid JSON.  The one JSON
 * string writer of the CLI, the timeline page and the Perfetto sink. */
static inline void pt__json_str(FILE *f, const char *s, int html) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
       p++) {
    size_t n;
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || (html && (*p == '<' || *p == '>' || *p == '&')))
      fprintf(f, "\\u%04x", *p);
    else if (*p < 0x80)
      fputc(*p, f);
    else if ((n = pt__utf8_len(p)) != 0)
      fwrite(p, 1, n, f), p += n - 1;
    else
      fprintf(f, "\\u%04x", *p);
  }
  fputc('"', f);
}

/* ---- error detail ------------------------------------------------------ */

/* Format `fmt` into err->msg (if err) and set err->status; returns status. */
int pt__err(pt_error *err, int status, const char *fmt, ...) PT_PRINTF(3, 4);
/* Same into a caller buffer of `n` bytes. */
int pt__errbuf(char *buf, size_t n, int status, const char *fmt, ...)
    PT_PRINTF(4, 5);

/* ---- growable byte buffer --------------------------------------------- */

typedef struct pt__buf {
  uint8_t *p;
  size_t len, cap;
} pt__buf;

/* Ensure room for `extra` more bytes; returns 0 or PT_ENOMEM. */
int pt__buf_reserve(pt__buf *b, size_t extra);
int pt__buf_put(pt__buf *b, const void *src, size_t n);
void pt__buf_free(pt__buf *b);

/* ---- arrays grown by doubling ------------------------------------------ */

/* Make the array *arrp (elements of `size` bytes, room for *cap of them)
 * hold at least `need` elements.  When need > *cap it is reallocated to
 * *cap elements (`first` when *cap is 0; first > 0) doubled until they
 * hold need, and *cap is set to that; otherwise nothing is done.  The new
 * elements are not initialised.  Returns PT_OK, or PT_ENOMEM when the size
 * overflows size_t or realloc fails (*arrp and *cap are then unchanged).
 * `arrp` is the address of the array pointer (a T **): use PT_GROW, which
 * passes the element size of the array itself. */
int pt__grow(void *arrp, size_t *cap, size_t need, size_t size, size_t first);

/* PT_GROW(arr, cap, need, first): pt__grow for the array lvalue `arr`
 * (T *) and its capacity lvalue `cap` (size_t), without a call when cap
 * already holds need.  Its arguments are evaluated more than once: give
 * it no side effects.  Typical use, appending to arr[0..n):
 *   if (PT_GROW(arr, cap, n + 1, 16)) return PT_ENOMEM;
 *   arr[n++] = x; */
#define PT_GROW(arr, cap, need, first)                                       \
  ((need) <= (cap) ? PT_OK                                                   \
                   : pt__grow(&(arr), &(cap), (need), sizeof *(arr), (first)))

/* ---- varints (LEB128, little-endian base-128) -------------------------- */

#define PT_VARINT_MAX 10

static inline size_t pt__varint_put(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

/* Decode from [*pp, end).  Returns 0 and advances *pp, or -1 if the varint
 * is truncated or longer than 10 bytes / overflows 64 bits. */
static inline int pt__varint_get(const uint8_t **pp, const uint8_t *end,
                                 uint64_t *out) {
  const uint8_t *p = *pp;
  if (PT_LIKELY(p < end && *p < 0x80)) {
    *out = *p;
    *pp = p + 1;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (p >= end) return -1;
    uint8_t byte = *p++;
    if (shift == 63 && byte > 1) return -1;
    v |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *out = v;
      *pp = p;
      return 0;
    }
  }
  return -1;
}

/* 64-bit FNV-1a of a string, starting from `seed` xor the offset basis
 * (seed 0: plain FNV-1a). */
/* A 64-bit finalizer (MurmurHash3's fmix64): every input bit moves about
 * half the output bits.  For hash tables and ids made of hashes. */
static inline uint64_t pt__mix64(uint64_t x) {
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= UINT64_C(0xc4ceb3f97f4a7c15);
  return x ^ (x >> 33);
}

static inline uint64_t pt__fnv1a(const char *s, uint64_t seed) {
  uint64_t h = UINT64_C(1469598103934665603) ^ seed;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
  return h;
}

static inline uint64_t pt__zigzag(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t pt__unzigzag(uint64_t v) {
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Fixed-width little-endian. */
static inline void pt__put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void pt__put_u64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t pt__get_u32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static inline uint64_t pt__get_u64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static inline uint16_t pt__get_u16(const uint8_t *p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static inline void pt__put_u16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

/* ---- CRC32C (Castagnoli), hardware-accelerated where available --------- */

uint32_t pt__crc32c(uint32_t crc, const void *data, size_t n);

/* ---- string arena ------------------------------------------------------ */

/* Bump allocator for strings and arrays that live as long as an owner.
 * Chunks are never moved, so returned pointers stay valid until free. */
struct pt__arena_chunk {
  struct pt__arena_chunk *next;
  size_t cap;
  _Alignas(8) unsigned char data[];
};
typedef struct pt__arena {
  struct pt__arena_chunk *head;
  size_t used, cap;
  unsigned char *base; /* head's data */
} pt__arena;

void *pt__arena_alloc_slow(pt__arena *a, size_t n);
/* 8-aligned; NULL on OOM.  Inline: the readers allocate per record. */
static inline void *pt__arena_alloc(pt__arena *a, size_t n) {
  n = (n + 7) & ~(size_t)7;
  if (PT_LIKELY(a->head && a->cap - a->used >= n)) {
    void *p = a->base + a->used;
    a->used += n;
    return p;
  }
  return pt__arena_alloc_slow(a, n);
}
char *pt__arena_strdup(pt__arena *a, const char *s); /* NULL in -> NULL */
void pt__arena_reset_slow(pt__arena *a);
/* Keep the newest chunk, free the others.  Inline: per record. */
static inline void pt__arena_reset(pt__arena *a) {
  if (a->head && !a->head->next) a->used = 0;
  else pt__arena_reset_slow(a);
}
void pt__arena_free(pt__arena *a);

/* Deep-copy the strings/arrays of an event / def into `a`, rewriting the
 * pointers of *dst (which starts as a shallow copy of src).  `attrs`
 * storage for events is also taken from the arena.  0 or PT_ENOMEM. */
int pt__event_copy(pt__arena *a, pt_event *dst, const pt_event *src);
int pt__def_copy(pt__arena *a, pt_def *dst, const pt_def *src);

/* A CALLSITE the MPI recorder gives for an address: the module's path
 * (s1), "module+0xoffset" (name), no line.  Writes "path+0xoffset" (what
 * pt_stats_resolve_callsites hands to addr2line) into buf (n bytes) and
 * returns 1; also when s1 holds that form already (read from OTF 1.x,
 * whose source locations have no name); else 0. */
int pt__callsite_address(const pt_def *d, char *buf, size_t n);

/* ---- files ------------------------------------------------------------- */

/* Write all of buf at the current position; 0 or -1 (errno set). */
int pt__write_all(int fd, const void *buf, size_t n);
/* pread all n bytes; returns bytes read (< n only at end of file), -1. */
long long pt__pread_all(int fd, void *buf, size_t n, uint64_t off);
/* Remove a directory tree (best effort); 0 or -1. */
int pt__rmtree(const char *path);

/* What --force may replace, so that a mistyped output name never removes
 * a user's directory (a PTF archive: pt__is_ptf_dir, store/archive.h):
 * pt__is_trace_files_dir is 1 for a directory whose entries are all
 * regular files ending in one of `suffixes` (NULL-terminated), such as
 * OTF2's NAME/ of .evt and .def files. */
int pt__is_trace_files_dir(const char *path, const char *const *suffixes);
/* Read a whole small file (limit bytes) into a NUL-terminated malloc'd
 * buffer; 0, PT_ENOTFOUND, PT_EIO, PT_ELIMIT, PT_ENOMEM. */
int pt__read_file(const char *path, size_t limit, char **out, size_t *len);

/* Files a multi-file reader keeps open by default: 64, but at most a
 * quarter of the process's limit on open files (at least 4): a
 * converter's sink (one file per rank in DUMPI, OTF, OTF2) needs
 * descriptors too. */
size_t pt__default_max_open(void);

/* qsort/bsearch comparator of uint64_t values, ascending. */
int pt__cmp_u64(const void *a, const void *b);

/* Set by pt_pipe_interrupt() (a signal handler): the long loops (pt_pipe,
 * pt_slice, pt_archive_summarize) stop at their next item with PT_EINTR. */
int pt__interrupted(void);

/* gfortran's module procedure symbol "__mod_MOD_name" as "mod::name" into
 * out (n bytes); other names are copied unchanged (truncated to fit).
 * (src/profile/report.c) */
void pt__fortran_name(const char *in, char *out, size_t n);
/* Run binutils' `addr2line -f -C -e module` on addrs[0..n) (no shell:
 * fork + exec); func[i] gets the function (gfortran module procedures as
 * "mod::name"), line[i] "file:line" (the file's base name), malloc'd,
 * NULL where unknown or on failure.  (src/profile/report.c) */
void pt__addr2line(const char *module, const uint64_t *addrs, size_t n,
                   char **func, char **line);

/* The module (shared object or the program) holding code address addr:
 * its path into path[n] and addr's link-time offset in it (the same in
 * every process whatever the address-space layout).  0, or -1 when
 * unknown (offset = addr).  (src/profile/profile.c) */
int pt__code_module(const void *addr, uint64_t *offset, char *path,
                    size_t n);

#endif
