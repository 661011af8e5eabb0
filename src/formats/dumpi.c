/* SST DUMPI trace sets (.meta + one .bin per rank): source, sink and the
 * model-level dumpi2ascii printer.  The per-function knowledge is in
 * dumpi_table.h; this file maps records to model items and back.
 * Layout and mapping: doc/dumpi.md. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/stats_int.h"
#include "formats/dumpi.h"
#include "formats/dumpi_table.h"
#include "store/map.h"

#define NS 1000000000LL
#define PT__EXPAND(...) __VA_ARGS__
/* The matching id of a non-blocking I/O operation's events (as the MPI
 * recorder numbers them: apart from the blocking calls' ids). */
#define IO_MATCH(model) ((UINT64_C(1) << 32) | (model))
#define MAX_WARN 2 /* warnings of one kind per file before they are suppressed */

/* ======================================================================== */
/* Attribute keys and argument roles                                         */
/* ======================================================================== */

/* Extra per-call attributes besides the arguments. */
#define EXTRA_ATTRS(X)                                                       \
  X(THREAD, "dumpi.thread", INT)       /* thread index when != 0 */          \
  X(MASK, "dumpi.mask", INT)           /* option mask when != 0x4F */        \
  X(CPU_START, "dumpi.cpu_start", INT) /* ENTER: cpu clock, ns */            \
  X(CPU_STOP, "dumpi.cpu_stop", INT)   /* LEAVE: cpu clock, ns */            \
  X(PERF, "dumpi.perf", INTS)          /* ENTER: counters before, LEAVE: after */ \
  X(WALL, "dumpi.wall", INTS)          /* [start, stop] ns when the event  \
                                          times had to be clamped */

enum {
#define EX_ENUM(N, s, t) EX_##N,
  EXTRA_ATTRS(EX_ENUM)
#undef EX_ENUM
  EX__COUNT
};
static const char *const extra_names[] = {
#define EX_NAME(N, s, t) s,
    EXTRA_ATTRS(EX_NAME)
#undef EX_NAME
};
static const uint8_t extra_types[] = {
#define EX_TYPE(N, s, t) PT_TYPE_##t,
    EXTRA_ATTRS(EX_TYPE)
#undef EX_TYPE
};

/* Model type of an argument (STRARR2 has a second, STRING, part). */
static uint32_t arg_mtype(unsigned atype) {
  switch (pt__dumpi_atype_wire(atype)) {
    case PT__DW_I32: case PT__DW_I64: case PT__DW_H16: case PT__DW_U8:
    case PT__DW_S8:
      return PT_TYPE_INT;
    case PT__DW_STR: case PT__DW_STRARR: case PT__DW_ARGV:
      return PT_TYPE_STRING;
    default:
      return PT_TYPE_INTS;
  }
}

/* Argument values, for the mapping: in int64_t from the first one's. */
enum { V_STRIDE = sizeof(pt__dumpi_val) / sizeof(int64_t),
       AT_STRIDE = sizeof(pt_attr) / sizeof(int64_t) };
_Static_assert(sizeof(pt__dumpi_val) % sizeof(int64_t) == 0 &&
               sizeof(pt_attr) % sizeof(int64_t) == 0 &&
               offsetof(pt__dumpi_val, i) % sizeof(int64_t) == 0 &&
               offsetof(pt_attr, val.v.i) % sizeof(int64_t) == 0 &&
               (PT__DUMPI_MAX_ARGS - 1) * V_STRIDE <= 127 &&
               (PT__DUMPI_MAX_ARGS - 1) * AT_STRIDE <= 127,
               "argument values at int8_t offsets of int64_t");

/* Argument roles used by the mapping, found by name in each function. */
#define ROLES(X)                                                             \
  X(count) X(datatype) X(dest) X(source) X(tag) X(comm) X(request)           \
  X(requests) X(index) X(indices) X(outcount) X(flag) X(status) X(statuses) \
  X(root) X(sendcount) X(sendtype) X(recvcount) X(recvtype) X(sendcounts)    \
  X(recvcounts) X(sendtag) X(recvtag) X(commsize) X(commrank) X(sendtypes)   \
  X(recvtypes) X(rank) X(size) X(oldtype) X(newtype) X(oldcomm) X(newcomm) \
  X(file) X(filename) X(origincount) X(origintype) X(targetrank) X(win)
enum {
#define R_ENUM(n) R_##n,
  ROLES(R_ENUM)
#undef R_ENUM
  R__COUNT
};
static const char *const role_names[] = {
#define R_NAME(n) #n,
    ROLES(R_NAME)
#undef R_NAME
};
static int8_t role_idx[PT__DUMPI_NLABELS][R__COUNT];
/* The same as offsets, in int64_t, of the arguments' values from the
 * call's iv: [0] in its argument slots (v[k].i), [1] in its attributes
 * (at[k].val.v.i, a fixed-argument call); -1: no such argument. */
static int8_t role_off[2][PT__DUMPI_NLABELS][R__COUNT];
static int file_open_label; /* MPI_File_open */
/* For the walk at open: the argument bytes of a label whose arguments all
 * have a fixed width and no condition (-1: decoded; so are the replay's
 * communicator calls), and the offset of its communicator argument among
 * them when the reader maps the call to events (-1: none). */
static int16_t fix_len[PT__DUMPI_NFUNCS], fix_comm[PT__DUMPI_NFUNCS];
/* The other labels the walk sizes without decoding: their arguments are
 * fixed-width values, integer arrays and status lists without a condition
 * (MPI_Waitall...); walk_wire: each argument's wire encoding, walk_comm:
 * the communicator argument read when the call maps to events (-1:
 * none).  walk_nargs 0: decoded (replay calls, MPI_File_open, strings). */
static uint8_t walk_nargs[PT__DUMPI_NFUNCS];
/* The bytes before a record's arguments (label, mask, thread, clocks) by
 * its mask; 0 for a mask with perf counters (those records are decoded). */
static uint8_t hdr_len[256];
static uint8_t walk_wire[PT__DUMPI_NFUNCS][PT__DUMPI_MAX_ARGS];
static int8_t walk_comm[PT__DUMPI_NFUNCS];
/* walk_size for one label, generated from the table (wk_<label>, after
 * the fused mapping); walk_fn[l]: it, for the labels walk_nargs sizes. */
typedef size_t (*wk_fn)(const uint8_t *r, size_t avail, size_t h,
                        int32_t *comm);
static wk_fn walk_fn[PT__DUMPI_NFUNCS];
static const wk_fn wk_tab[PT__DUMPI_NLABELS];
/* Per label, for map_call: each argument's model type (arg_mtype), and
 * which arguments are status lists (bit k). */
static uint8_t arg_mt[PT__DUMPI_NLABELS][PT__DUMPI_MAX_ARGS];
static uint16_t status_args[PT__DUMPI_NLABELS];
/* Labels with a string argument (the only ones whose values have ns). */
static uint8_t has_str[PT__DUMPI_NLABELS];
/* Labels whose arguments all have a fixed width and no condition: every
 * argument of a decoded record is present and an INT attribute, stored
 * there by the decoder; at_cap: the attributes map_call makes of such a
 * call (the ENTER's and the LEAVE's), 0 for the other labels. */
static uint8_t at_cap[PT__DUMPI_NLABELS];
/* The same for the labels fm_tab maps (theirs and the generic path's
 * attributes of a call have one layout). */
static uint8_t fm_cap[PT__DUMPI_NLABELS];
static pthread_once_t role_once = PTHREAD_ONCE_INIT;
static void role_init(void) {
  file_open_label = pt__dumpi_label_from_name("MPI_File_open");
  for (unsigned l = 0; l < PT__DUMPI_NLABELS; l++) {
    const pt__dumpi_func *f = pt__dumpi_func_get(l);
    for (unsigned k = 0; f && k < f->nargs; k++) {
      arg_mt[l][k] = (uint8_t)arg_mtype(f->args[k].type);
      unsigned w = pt__dumpi_atype_wire(f->args[k].type);
      if (w == PT__DW_STATUS) status_args[l] |= (uint16_t)(1u << k);
      if (w == PT__DW_STR || w == PT__DW_STRARR || w == PT__DW_STRARR2 ||
          w == PT__DW_ARGV)
        has_str[l] = 1;
    }
    for (unsigned r = 0; r < R__COUNT; r++) {
      role_idx[l][r] = -1;
      for (unsigned k = 0; f && k < f->nargs; k++)
        if (strcmp(f->args[k].name, role_names[r]) == 0)
          role_idx[l][r] = (int8_t)k;
      int k = role_idx[l][r];
      role_off[0][l][r] = (int8_t)(k < 0 ? -1 : k * (int)V_STRIDE);
      role_off[1][l][r] = (int8_t)(k < 0 ? -1 : k * (int)AT_STRIDE);
    }
  }
  /* (every label of the table: fm_tab has Function_enter / _exit too) */
  for (unsigned l = 0; l < PT__DUMPI_NLABELS; l++) {
    const pt__dumpi_func *f = pt__dumpi_func_get(l);
    if (f) fm_cap[l] = (uint8_t)(EX__COUNT + 2u * f->nargs + 2);
  }
  for (unsigned m = 0; m < 256; m++)
    hdr_len[m] = (uint8_t)(m & PT__DUMPI_MASK_PERF ? 0
                           : 3 + (m & PT__DUMPI_MASK_THREAD ? 2 : 0) +
                                 (m & PT__DUMPI_MASK_CPU ? 12 : 0) +
                                 (m & PT__DUMPI_MASK_WALL ? 12 : 0));
  for (unsigned l = 0; l < PT__DUMPI_NFUNCS; l++) {
    const pt__dumpi_func *f = pt__dumpi_func_get(l);
    if (f && pt__dumpi_fixed_args(l) >= 0)
      at_cap[l] = (uint8_t)(EX__COUNT + 2u * f->nargs + 2);
    int len = f && !pt__dcomm_label(l) ? pt__dumpi_fixed_args(l) : -1;
    int comm = -1, off = 0;
    /* the communicator's offset, when the call maps to events */
    for (unsigned k = 0; len >= 0 && k < f->nargs; k++) {
      unsigned w = pt__dumpi_atype_wire(f->args[k].type);
      if ((int)k == role_idx[l][R_comm] && f->sem != PT__DS_NONE) {
        if (w != PT__DW_H16) len = -1;
        comm = off;
      }
      off += (int)pt__dumpi_wire_width(w);
    }
    fix_len[l] = (int16_t)len;
    fix_comm[l] = (int16_t)(len >= 0 ? comm : -1);
    int ok = f && len < 0 && !pt__dcomm_label(l) && (int)l != file_open_label;
    for (unsigned k = 0; ok && k < f->nargs; k++) {
      unsigned w = pt__dumpi_atype_wire(f->args[k].type);
      walk_wire[l][k] = (uint8_t)w;
      ok = f->args[k].ca < 0 &&
           (pt__dumpi_wire_width(w) || w == PT__DW_STATUS ||
            w == PT__DW_I32ARR || w == PT__DW_H16ARR || w == PT__DW_U8ARR);
      if (ok && (int)k == role_idx[l][R_comm] && f->sem != PT__DS_NONE)
        ok = w == PT__DW_H16;
    }
    walk_nargs[l] = (uint8_t)(ok && f->nargs ? f->nargs : 0);
    walk_comm[l] = (int8_t)(ok && f->sem != PT__DS_NONE ? role_idx[l][R_comm]
                                                        : -1);
    walk_fn[l] = walk_nargs[l] && l < PT__DUMPI_NLABELS ? wk_tab[l] : NULL;
  }
}

/* ======================================================================== */
/* One .bin file                                                             */
/* ======================================================================== */

typedef struct dfile {
  char *path;
  const uint8_t *data;
  size_t size;
  int mapped;
  int generic; /* the walk sizes with walk_size, not walk_fn (tests) */
  uint32_t cpu_off, wall_off;
  size_t stream_begin, stream_end; /* call records in [begin, end) */
  int has_index, truncated, has_tail; /* tail = header..tables parsed */
  uint64_t ncalls;                   /* records in the stream */
  uint16_t *tids; /* the thread ids of the records, ascending (in mem); */
  size_t ntids;   /* at least 1 (a file without calls: {0}) */
  /* with several threads: the offset of every record, and the records of
   * thread tids[t], by number (0-based), at tcall[tfirst[t] ..
   * tfirst[t + 1]) (all in mem) */
  uint64_t *roff, *tcall, *tfirst;
  uint32_t label_count[PT__DUMPI_NLABELS];
  uint8_t *comms_used; /* bitmap of communicator ids used by p2p / coll */
  pt__dcomm_op *cops;  /* communicator and group calls (dumpi_comm.c) */
  size_t ncops, capcops;
  struct dfopen { /* MPI_File_open calls, in call order */
    uint64_t call;   /* 1-based record number */
    int32_t fh;      /* DUMPI's file handle id */
    int32_t comm;    /* DUMPI's communicator id */
    uint32_t gen;    /* earlier opens that gave the same fh */
    const char *name; /* in mem */
  } *fopens;
  size_t nfopens, capfopens;
  pt__map fhn; /* DUMPI file id -> opens of it so far (the walk) */
  /* header */
  uint8_t version[3];
  uint64_t starttime;
  char *host, *user;
  int64_t nmeshcrd, nmeshsize;
  int64_t *meshcrd, *meshsize;
  /* footer */
  int has_footer;
  uint32_t called[PT__DUMPI_FOOTER_SLOTS], ignored[PT__DUMPI_FOOTER_SLOTS];
  size_t nkv;
  char **kv; /* key, value pairs */
  size_t nperf;
  char **perf;
  size_t nsizes;
  int64_t *sizes;
  size_t naddr;
  uint64_t *addr;
  char **addrname;
  pt__arena mem; /* strings and tables above */
  /* warnings */
  pt_warn_fn warn;
  void *warn_user;
  unsigned nwarn[8];
  size_t cur_off;    /* the call being mapped: its offset and number */
  uint64_t cur_call; /* (1-based; 0: not in the call stream) */
} dfile;

enum { W_REQREUSE, W_REQUNKNOWN, W_PROCNULL, W_STATUSERR, W_TIME, W_DTYPE,
       W__COUNT };

static void dwarn(dfile *f, unsigned kind, const char *fmt, ...)
    PT_PRINTF(3, 4);
static void dwarn(dfile *f, unsigned kind, const char *fmt, ...) {
  if (kind < 8 && f->nwarn[kind]++ >= MAX_WARN) return;
  if (!f->warn) return;
  char msg[700];
  int n = f->cur_call
              ? snprintf(msg, sizeof msg, "%s: offset %zu (call %llu): ",
                         f->path, f->cur_off,
                         (unsigned long long)f->cur_call)
              : snprintf(msg, sizeof msg, "%s: ", f->path);
  if (n < 0 || (size_t)n >= sizeof msg) n = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  va_end(ap);
  if (kind < 8 && f->nwarn[kind] == MAX_WARN) {
    size_t l = strlen(msg);
    snprintf(msg + l, sizeof msg - l, " (further warnings of this kind for "
             "this file suppressed)");
  }
  f->warn(f->warn_user, msg);
}

typedef struct rd {
  const uint8_t *p, *end, *base;
} rd;
static int rneed(const rd *r, uint64_t n) {
  return (uint64_t)(r->end - r->p) >= n;
}
static uint32_t r32(rd *r) {
  uint32_t v = ((uint32_t)r->p[0] << 24) | ((uint32_t)r->p[1] << 16) |
               ((uint32_t)r->p[2] << 8) | r->p[3];
  r->p += 4;
  return v;
}
static uint64_t r64(rd *r) {
  uint64_t h = r32(r);
  return (h << 32) | r32(r);
}
static uint64_t be64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
  return v;
}

/* u16 length + bytes (header and tables). */
static int rstr16(rd *r, pt__arena *a, char **out) {
  if (!rneed(r, 2)) return -1;
  unsigned len = (unsigned)((r->p[0] << 8) | r->p[1]);
  r->p += 2;
  if (!rneed(r, len)) return -1;
  char *s = pt__arena_alloc(a, len + 1);
  if (!s) return -1;
  memcpy(s, r->p, len);
  s[len] = 0;
  r->p += len;
  *out = s;
  return 0;
}

static int rints(rd *r, pt__arena *a, int64_t *n, int64_t **out) {
  if (!rneed(r, 4)) return -1;
  *n = (int32_t)r32(r);
  uint64_t m = *n > 0 ? (uint64_t)*n : 0;
  if (!rneed(r, m * 4)) return -1;
  *out = pt__arena_alloc(a, (size_t)(m + 1) * 8);
  if (!*out) return -1;
  for (uint64_t i = 0; i < m; i++) (*out)[i] = (int32_t)r32(r);
  return 0;
}

#define FERR(st, off, ...)                                                  \
  pt__err(err, st, "%s: offset %llu: %s", f->path, (unsigned long long)(off), \
          (snprintf(reason, sizeof reason, __VA_ARGS__), reason))

static int parse_header(dfile *f, size_t off) {
  rd r = {f->data + off, f->data + f->size, f->data};
  if (!rneed(&r, 11)) return -1;
  for (int i = 0; i < 3; i++) f->version[i] = *r.p++;
  f->starttime = r64(&r);
  if (rstr16(&r, &f->mem, &f->host) || rstr16(&r, &f->mem, &f->user))
    return -1;
  if (rints(&r, &f->mem, &f->nmeshcrd, &f->meshcrd) ||
      rints(&r, &f->mem, &f->nmeshsize, &f->meshsize))
    return -1;
  return (int)(r.p - (f->data + off));
}

static long parse_footer(dfile *f, size_t off) {
  rd r = {f->data + off, f->data + f->size, f->data};
  if (!rneed(&r, 8 + 8 * PT__DUMPI_FOOTER_SLOTS)) return -1;
  if (r64(&r) != PT__DUMPI_FOOT_MAGIC) return -2;
  for (int i = 0; i < PT__DUMPI_FOOTER_SLOTS; i++) f->called[i] = r32(&r);
  for (int i = 0; i < PT__DUMPI_FOOTER_SLOTS; i++) f->ignored[i] = r32(&r);
  f->has_footer = 1;
  return (long)(r.p - (f->data + off));
}

/* count + n pairs (keyval) or n strings (perf labels). */
static long parse_strings(dfile *f, size_t off, int pairs, size_t *n,
                          char ***out) {
  rd r = {f->data + off, f->data + f->size, f->data};
  if (!rneed(&r, 4)) return -1;
  int32_t c = (int32_t)r32(&r);
  uint64_t m = c > 0 ? (uint64_t)c * (pairs ? 2 : 1) : 0;
  if (!rneed(&r, m * 2)) return -1;
  char **s = pt__arena_alloc(&f->mem, (size_t)(m + 1) * sizeof *s);
  if (!s) return -1;
  for (uint64_t i = 0; i < m; i++)
    if (rstr16(&r, &f->mem, &s[i])) return -1;
  *n = (size_t)(pairs ? m / 2 : m);
  *out = s;
  return (long)(r.p - (f->data + off));
}

static long parse_sizes(dfile *f, size_t off) {
  rd r = {f->data + off, f->data + f->size, f->data};
  int64_t n;
  if (rints(&r, &f->mem, &n, &f->sizes)) return -1;
  f->nsizes = n > 0 ? (size_t)n : 0;
  return (long)(r.p - (f->data + off));
}

static long parse_addrs(dfile *f, size_t off) {
  rd r = {f->data + off, f->data + f->size, f->data};
  if (!rneed(&r, 4)) return -1;
  int32_t c = (int32_t)r32(&r);
  uint64_t m = c > 0 ? (uint64_t)c : 0;
  if (!rneed(&r, m * 10)) return -1;
  f->addr = pt__arena_alloc(&f->mem, (size_t)(m + 1) * 8);
  f->addrname = pt__arena_alloc(&f->mem, (size_t)(m + 1) * sizeof(char *));
  if (!f->addr || !f->addrname) return -1;
  for (uint64_t i = 0; i < m; i++) {
    if (!rneed(&r, 8)) return -1;
    f->addr[i] = r64(&r);
    if (rstr16(&r, &f->mem, &f->addrname[i])) return -1;
  }
  f->naddr = (size_t)m;
  return (long)(r.p - (f->data + off));
}

/* Parse the parts after the stream in file order, starting at the header
 * offset (used when there is no index). */
static void parse_tail_walk(dfile *f, size_t off) {
  long n = parse_header(f, off);
  if (n < 0) return;
  off += (size_t)n;
  if ((n = parse_footer(f, off)) < 0) return;
  off += (size_t)n;
  size_t nkv;
  char **kv;
  if ((n = parse_strings(f, off, 1, &nkv, &kv)) < 0) return;
  f->nkv = nkv;
  f->kv = kv;
  off += (size_t)n;
  if ((n = parse_strings(f, off, 0, &f->nperf, &f->perf)) < 0) return;
  off += (size_t)n;
  if ((n = parse_sizes(f, off)) < 0) return;
  off += (size_t)n;
  if ((n = parse_addrs(f, off)) < 0) return;
  f->has_tail = 1;
}

static size_t tid_index(const dfile *f, uint16_t tid) {
  size_t lo = 0, hi = f->ntids;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->tids[mid] < tid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* A file with several threads: where each thread's records are (a second
 * pass over the records the walk validated; 16 bytes per record). */
static int thread_lists(dfile *f, pt_error *err) {
  size_t n = (size_t)f->ncalls, nt = f->ntids;
  f->roff = pt__arena_alloc(&f->mem, (n + 1) * sizeof *f->roff);
  f->tcall = pt__arena_alloc(&f->mem, (n + 1) * sizeof *f->tcall);
  f->tfirst = pt__arena_alloc(&f->mem, (nt + 1) * sizeof *f->tfirst);
  uint16_t *rt = malloc((n + 1) * sizeof *rt);
  if (!f->roff || !f->tcall || !f->tfirst || !rt) {
    free(rt);
    return pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
  }
  memset(f->tfirst, 0, (nt + 1) * sizeof *f->tfirst);
  pt__dumpi_call c;
  char why[200];
  size_t pos = f->stream_begin;
  for (size_t i = 0; i < n; i++) {
    long len = pt__dumpi_decode(f->data + pos, f->stream_end - pos,
                                f->cpu_off, f->wall_off, &c, NULL, why,
                                sizeof why);
    if (len <= 0) { /* the walk read them all */
      free(rt);
      return pt__err(err, PT_ECORRUPT, "%s: offset %zu: %s", f->path, pos,
                     why);
    }
    f->roff[i] = pos;
    rt[i] = (uint16_t)tid_index(f, c.thread);
    f->tfirst[rt[i] + 1]++;
    pos += (size_t)len;
  }
  for (size_t t = 0; t < nt; t++) f->tfirst[t + 1] += f->tfirst[t];
  for (size_t i = 0; i < n; i++) f->tcall[f->tfirst[rt[i]]++] = i;
  for (size_t t = nt; t > 0; t--) f->tfirst[t] = f->tfirst[t - 1];
  f->tfirst[0] = 0;
  free(rt);
  return PT_OK;
}

/* Walk the call stream from stream_begin: count labels, validate every
 * record, find its end.  With an index, stream_end is known and any bad
 * record is corruption; without, the walk ends at END_OF_STREAM or at the
 * first incomplete record (a truncated file: warning). */
/* An MPI_File_open record at pos: its file handle, communicator and file
 * name, for the file and I/O handle definitions (file_defs). */
static int walk_file_open(dfile *f, size_t pos, size_t end,
                          pt__arena *scratch, pt_error *err) {
  char why[200];
  pt__dumpi_call c;
  pt__arena_reset(scratch);
  if (pt__dumpi_decode(f->data + pos, end - pos, f->cpu_off, f->wall_off, &c,
                       scratch, why, sizeof why) < 0)
    return pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
  const int8_t *ri = role_idx[c.label];
  if (ri[R_file] < 0 || ri[R_filename] < 0 || ri[R_comm] < 0) return PT_OK;
  const pt__dumpi_val *fh = &c.v[ri[R_file]], *nm = &c.v[ri[R_filename]],
                      *cm = &c.v[ri[R_comm]];
  if (!fh->present) return PT_OK;
  if (PT_GROW(f->fopens, f->capfopens, f->nfopens + 1, 8) < 0)
    return pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
  struct dfopen *o = &f->fopens[f->nfopens];
  o->call = f->ncalls;
  o->fh = (int32_t)fh->i;
  o->comm = cm->present ? (int32_t)cm->i : PT__DUMPI_COMM_WORLD;
  uint64_t gen = 0;
  pt__map_get(&f->fhn, (uint32_t)o->fh, &gen);
  if (pt__map_put(&f->fhn, (uint32_t)o->fh, gen + 1) < 0)
    return pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
  o->gen = (uint32_t)gen;
  const char *n = nm->present && nm->ns && nm->s[0] ? nm->s[0] : "?";
  size_t len = strnlen(n, 4096);
  char *d = pt__arena_alloc(&f->mem, len + 1);
  if (!d) return pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
  memcpy(d, n, len);
  d[len] = 0;
  o->name = d;
  f->nfopens++;
  return PT_OK;
}

/* The size of the record at r[0..avail) of a walk_nargs label, whose
 * arguments start at h, as pt__dumpi_decode would find it, its
 * communicator argument in *comm (when walk_comm says); 0: not sized here
 * (cut short: the decoder says where). */
static size_t walk_size(const uint8_t *r, size_t avail, size_t h, unsigned l,
                        int32_t *comm) {
  size_t o = h;
  for (unsigned k = 0; k < walk_nargs[l]; k++) {
    unsigned w = walk_wire[l][k], es = pt__dumpi_wire_width(w);
    if (es) {
      if (avail - o < es) return 0;
      if ((int)k == walk_comm[l]) *comm = r[o] << 8 | r[o + 1];
      o += es;
      continue;
    }
    if (w == PT__DW_STATUS && !(r[2] & PT__DUMPI_MASK_STATUS)) continue;
    if (avail - o < 4) return 0;
    int32_t n = (int32_t)((uint32_t)r[o] << 24 | (uint32_t)r[o + 1] << 16 |
                          (uint32_t)r[o + 2] << 8 | r[o + 3]);
    o += 4;
    uint64_t b = (uint64_t)(n > 0 ? n : 0) *
                 (w == PT__DW_STATUS ? 14 : w == PT__DW_I32ARR ? 4
                  : w == PT__DW_H16ARR ? 2 : 1);
    if (avail - o < b) return 0;
    o += (size_t)b;
  }
  return o;
}

static int walk_stream(dfile *f, pt_error *err) {
  pthread_once(&role_once, role_init);
  char reason[256], why[200];
  pt__dumpi_call c;
  pt__arena scratch = {0};
  size_t pos = f->stream_begin;
  f->comms_used = pt__arena_alloc(&f->mem, 65536 / 8);
  if (!f->comms_used) return pt__err(err, PT_ENOMEM, "out of memory");
  memset(f->comms_used, 0, 65536 / 8);
  size_t end = f->has_index ? f->stream_end : f->size;
  int rc = PT_OK;
  uint8_t tseen[65536 / 8] = {0};
  int32_t tprev = -1; /* thread of the previous record */
  /* (the fast path's state in locals: its byte stores could alias f's
   * fields; f->ncalls is set before anything else reads it) */
  const uint8_t *data = f->data;
  uint8_t *cused = f->comms_used;
  uint32_t *lcount = f->label_count;
  uint64_t ncalls = f->ncalls;
  int32_t uprev = -1; /* communicator of the previous sized record */
  for (;;) {
    /* most records: all arguments of a fixed width, sized and checked
     * (the bytes pt__dumpi_decode would need) without decoding them; then
     * those the walk can size by stepping over their arrays (MPI_Waitall...).
     * (Neither is END_OF_STREAM, label 293; a record cut short is decoded
     * below, which says where.) */
    const uint8_t *r = data + pos;
    if (end - pos > 2048) __builtin_prefetch(r + 2048);
    unsigned l = end - pos >= 3 ? (unsigned)r[0] << 8 | r[1] : PT__DUMPI_NFUNCS;
    size_t h = l < PT__DUMPI_NFUNCS ? hdr_len[r[2]] : 0, len = 0;
    int32_t u = -1;
    if (h && fix_len[l] >= 0) {
      if (h + (size_t)fix_len[l] <= end - pos) {
        len = h + (size_t)fix_len[l];
        if (fix_comm[l] >= 0) {
          const uint8_t *q = r + h + fix_comm[l];
          u = q[0] << 8 | q[1];
        }
      }
    } else if (h && walk_fn[l] && h <= end - pos) {
      len = PT_UNLIKELY(f->generic) ? walk_size(r, end - pos, h, l, &u)
                                    : walk_fn[l](r, end - pos, h, &u);
    }
    if (len) {
      int32_t th = r[2] & PT__DUMPI_MASK_THREAD ? r[3] << 8 | r[4] : 0;
      lcount[l]++;
      ncalls++;
      if (th != tprev) {
        tseen[th / 8] |= (uint8_t)(1u << (th % 8));
        tprev = th;
      }
      if (u >= 0 && u != uprev) {
        cused[u / 8] |= (uint8_t)(1u << (u % 8));
        uprev = u;
      }
      pos += len;
      continue;
    }
    f->ncalls = ncalls;
    if (pos + 2 <= (f->has_index ? end + 2 : end) &&
        f->data[pos] == (PT__DUMPI_END_OF_STREAM >> 8) &&
        f->data[pos + 1] == (PT__DUMPI_END_OF_STREAM & 0xff)) {
      if (f->has_index && pos != end) {
        rc = FERR(PT_ECORRUPT, pos, "end of stream before the header the "
                  "index points to (%llu)", (unsigned long long)end);
        break;
      }
      f->stream_end = pos;
      if (!f->has_index) parse_tail_walk(f, pos + 2);
      break;
    }
    if (f->has_index && pos >= end) {
      rc = FERR(PT_ECORRUPT, pos, "call stream does not end with "
                "DUMPI_END_OF_STREAM");
      break;
    }
    long n = pt__dumpi_decode(f->data + pos, end - pos, f->cpu_off,
                              f->wall_off, &c, NULL, why, sizeof why);
    if (n == PT_ENOMEM) {
      rc = pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
      break;
    }
    if (n < 0) {
      if (f->has_index) {
        rc = FERR(PT_ECORRUPT, pos, "call record %llu: %s",
                  (unsigned long long)f->ncalls, why);
        break;
      }
      f->stream_end = pos;
      f->truncated = 1;
      dwarn(f, 99, "offset %llu: no index and the stream is cut (%s): "
            "read the %llu complete calls before it",
            (unsigned long long)pos, why, (unsigned long long)f->ncalls);
      break;
    }
    f->label_count[c.label]++;
    ncalls = ++f->ncalls;
    if (c.thread != tprev) {
      tseen[c.thread / 8] |= (uint8_t)(1u << (c.thread % 8));
      tprev = c.thread;
    }
    if (pt__dcomm_label(c.label)) { /* decoded again with its arrays */
      pt__arena_reset(&scratch);
      if (PT_GROW(f->cops, f->capcops, f->ncops + 1, 16)) {
        rc = pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
        break;
      }
      if (pt__dumpi_decode(f->data + pos, end - pos, f->cpu_off, f->wall_off,
                           &c, &scratch, why, sizeof why) < 0 ||
          pt__dcomm_op_make(&c, f->ncalls, &f->mem, &f->cops[f->ncops]) < 0) {
        rc = pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
        break;
      }
      f->ncops++;
    }
    if (c.label == (unsigned)file_open_label &&
        (rc = walk_file_open(f, pos, end, &scratch, err)) < 0)
      break;
    pos += (size_t)n;
    int k = role_idx[c.label][R_comm];
    if (c.f->sem != PT__DS_NONE && k >= 0 && c.v[k].present) {
      uint16_t cu = (uint16_t)c.v[k].i;
      f->comms_used[cu / 8] |= (uint8_t)(1u << (cu % 8));
    }
  }
  pt__arena_free(&scratch);
  if (rc < 0) return rc;
  size_t nt = 0;
  for (size_t i = 0; i < sizeof tseen; i++)
    for (uint8_t b = tseen[i]; b; b &= (uint8_t)(b - 1)) nt++;
  if (!(f->tids = pt__arena_alloc(&f->mem, (nt ? nt : 1) * sizeof *f->tids)))
    return pt__err(err, PT_ENOMEM, "%s: out of memory", f->path);
  f->tids[0] = 0;
  f->ntids = nt ? 0 : 1;
  for (size_t t = 0; t < 65536 && f->ntids < nt; t++)
    if (tseen[t / 8] & (1u << (t % 8))) f->tids[f->ntids++] = (uint16_t)t;
  return f->ntids > 1 ? thread_lists(f, err) : PT_OK;
}

static int dfile_init(dfile *f, pt_error *err) {
  char reason[256];
  if (f->size < 8 || be64(f->data) != PT__DUMPI_HEAD_MAGIC)
    return FERR(PT_EFORMAT, 0, "not a DUMPI trace file (bad lead-in magic)");
  /* The index: 7 offsets after the magic; older files have fewer. */
  static const int nfields[] = {7, 6, 5, 4};
  uint64_t ix[7] = {0}; /* sizes, addrs, perf, header, body, footer, kv */
  int bad_index = 0;
  for (int v = 0; v < 4 && !f->has_index; v++) {
    size_t len = 8 + 8 * (size_t)nfields[v];
    if (f->size < 16 + len) continue;
    const uint8_t *p = f->data + f->size - len;
    if (be64(p) != PT__DUMPI_HEAD_MAGIC) continue;
    int skip = 7 - nfields[v];
    memset(ix, 0, sizeof ix);
    for (int i = 0; i < nfields[v]; i++) ix[skip + i] = be64(p + 8 + 8 * i);
    /* Accept only a consistent index: the body at 8, the header right
     * after an END_OF_STREAM label, every offset inside the file.  (A
     * file cut inside its index can show the magic where an older,
     * shorter index would start.) */
    size_t limit = f->size - len;
    int ok = ix[4] == 8 && ix[3] >= 18 && ix[3] < limit &&
             f->data[ix[3] - 2] == (PT__DUMPI_END_OF_STREAM >> 8) &&
             f->data[ix[3] - 1] == (PT__DUMPI_END_OF_STREAM & 0xff);
    for (int i = 0; i < 7; i++) ok = ok && ix[i] <= limit;
    if (ok) f->has_index = 1;
    else bad_index = 1;
  }
  if (!f->has_index) memset(ix, 0, sizeof ix);
  size_t body = f->has_index && ix[4] ? (size_t)ix[4] : 8;
  if (body + 8 > f->size)
    return FERR(PT_ECORRUPT, body, "file too short for the time offsets");
  rd r = {f->data + body, f->data + f->size, f->data};
  f->cpu_off = r32(&r);
  f->wall_off = r32(&r);
  f->stream_begin = body + 8;
  if (f->has_index) {
    if (ix[3] < f->stream_begin + 2)
      return FERR(PT_ECORRUPT, ix[3], "header offset before the stream");
    f->stream_end = (size_t)ix[3] - 2;
    if (parse_header(f, (size_t)ix[3]) < 0)
      return FERR(PT_ECORRUPT, ix[3], "bad header record");
    long n = ix[5] ? parse_footer(f, (size_t)ix[5]) : 0;
    if (n == -2) return FERR(PT_ECORRUPT, ix[5], "bad footer magic");
    if (n < 0) return FERR(PT_ECORRUPT, ix[5], "footer cut short");
    if (ix[6] && parse_strings(f, (size_t)ix[6], 1, &f->nkv, &f->kv) < 0)
      return FERR(PT_ECORRUPT, ix[6], "bad keyval record");
    if (ix[2] && parse_strings(f, (size_t)ix[2], 0, &f->nperf, &f->perf) < 0)
      return FERR(PT_ECORRUPT, ix[2], "bad perf-counter label record");
    if (ix[0] && parse_sizes(f, (size_t)ix[0]) < 0)
      return FERR(PT_ECORRUPT, ix[0], "bad datatype-size record");
    if (ix[1] && parse_addrs(f, (size_t)ix[1]) < 0)
      return FERR(PT_ECORRUPT, ix[1], "bad function-address record");
    f->has_tail = 1; /* (a version other than 13: said once per set,
                        src_open) */
  } else {
    dwarn(f, 99, "%s trailing index (the writer did not finish, e.g. an "
          "aborted run): walking the stream from the start",
          bad_index ? "inconsistent" : "no");
  }
  return walk_stream(f, err);
}

static void dfile_free(dfile *f) {
  if (f->mapped && f->data) munmap((void *)f->data, f->size);
  free(f->cops);
  free(f->fopens);
  pt__map_free(&f->fhn);
  pt__arena_free(&f->mem);
  free(f->path);
  memset(f, 0, sizeof *f);
}

static int dfile_open(dfile *f, const char *path, pt_warn_fn warn, void *wu,
                      pt_error *err) {
  memset(f, 0, sizeof *f);
  f->warn = warn;
  f->warn_user = wu;
  f->path = strdup(path);
  if (!f->path) return pt__err(err, PT_ENOMEM, "out of memory");
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return pt__err(err, errno == ENOENT ? PT_ENOTFOUND : PT_EIO, "%s: %s",
                   path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return pt__err(err, PT_EIO, "%s: %s", path, strerror(errno));
  }
  f->size = (size_t)st.st_size;
  if (f->size) {
    /* (populated at once: the walk at open reads every page anyway, and
     * one call maps them for less than a fault per 64 KiB: open of a
     * 100 MB set 24.6 -> 22.2 ms) */
    void *m = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
                   0);
    if (m == MAP_FAILED) {
      close(fd);
      return pt__err(err, PT_EIO, "%s: mmap: %s", path, strerror(errno));
    }
    f->data = m;
    f->mapped = 1;
  } else {
    f->data = (const uint8_t *)"";
  }
  close(fd);
  return dfile_init(f, err);
}

/* ======================================================================== */
/* Mapping calls to events (one rank)                                        */
/* ======================================================================== */

typedef struct preq {
  int32_t id;       /* DUMPI request id */
  uint64_t model;   /* model request id */
  uint8_t send, persistent, active;
  uint8_t cancel; /* MPI_Cancel called on it */
  uint8_t io;     /* MPI_File_i*: comm is the I/O handle, tag the mode */
  int64_t peer, tag;
  uint64_t comm, bytes;
} preq;

typedef struct crank_info { /* Comm_rank / Comm_size seen per comm id */
  int32_t comm;
  int64_t rank, size;
} crank_info;

typedef struct ucomm { /* a user handle bound to a replayed communicator */
  int32_t handle, comm;  /* comm: index in pt__dcomm.comms, -1 = unknown */
  int64_t me;            /* this rank's rank in it (in its own group) */
  uint32_t size;         /* the size of this rank's group */
} ucomm;

/* The calls of one thread of a rank: a location of its own, with its own
 * time order (clamping).  A thread's next call is mapped when the
 * time-ordered merge reaches its start, so the calls of a rank's threads
 * are mapped in the order they started (the rank's requests and
 * communicators are shared by its threads: an MPI_Wait on one thread
 * completes the MPI_Isend another thread made before). */
typedef struct tstream {
  size_t rank;
  uint64_t loc;
  uint64_t last_time; /* end of the thread's previous call */
  int64_t wall_base, wall_last, cpu_base, cpu_last; /* (unwrap) */
  size_t ti;       /* next record: tcall[ti] of a several-thread file */
  int pending;     /* the next record is found, not yet mapped: */
  size_t off;      /* its offset */
  uint64_t call;   /* and number (1-based) */
  pt_item *q;      /* the events of the mapped call (items: handed out in
                      place by src_next_batch) */
  size_t qn, qcap, qi;
  pt__arena arena; /* the decoded record and the events' attributes */
} tstream;

typedef struct mapper {
  dfile *f;
  uint64_t rank, nranks, loc;
  tstream *th; /* the thread of the call being mapped (its location: loc) */
  /* where its events go: the q, qn, qcap and arena of th, lent for the
   * call */
  pt_item *q;
  size_t qn, qcap;
  pt__arena *arena;
  const pt__dcomm *dc;        /* NULL: no replay (one file) */
  const pt__dcomm_bind *bind; /* this rank's bindings, in call order */
  size_t nbind, bi;
  ucomm *uc;
  size_t nuc, capuc;
  const uint32_t (*attr_id)[PT__DUMPI_MAX_ARGS + 1]; /* [label][k]; [.][16]:
                                                      STRARR2 strings */
  const uint32_t *extra_id;
  uint64_t next_req;
  uint64_t next_io; /* matching ids of blocking I/O calls */
  /* outstanding requests, oldest first, at reqs[reqh .. nreqs): the
   * oldest completes first in the common case, by moving reqh (no copy) */
  preq *reqs;
  size_t reqh, nreqs, capreqs;
  /* how many of them have an id of each value mod 64: a new request whose
   * bucket is empty reuses no outstanding id (no scan) */
  uint32_t reqcnt[64];
  /* split collectives begun (MPI_File_*_begin), one per file at a time */
  struct dsplit {
    uint64_t fh, match, bytes;
  } *splits;
  size_t nsplits, capsplits;
  crank_info *cinfo;
  size_t ncinfo, capcinfo;
  pt__map fgen; /* DUMPI file id -> its latest open's gen (dfopen) */
  pt__map wins; /* DUMPI window id -> the model id of the communicator its
                   MPI_Win_create made it over (PT_NONE after its free) */
} mapper;

static void mapper_free(mapper *m) {
  pt__map_free(&m->fgen);
  pt__map_free(&m->wins);
  free(m->uc);
  free(m->reqs);
  free(m->splits);
  free(m->cinfo);
}

/* An event at the end of the queue, every field written once (the
 * fields not given are 0 / NULL, as pt_event_init has them). */
static PT_ALWAYS_INLINE pt_event *qpush_ev(mapper *m, uint32_t kind,
                                           uint64_t t, uint64_t ref,
                                           int64_t peer, uint64_t comm,
                                           int64_t tag, uint64_t size,
                                           uint64_t request, uint32_t nattrs,
                                           pt_attr *attrs) {
  if (PT_GROW(m->q, m->qcap, m->qn + 1, 16)) return NULL;
  pt_item *it = &m->q[m->qn++];
  it->type = PT_ITEM_EVENT;
  pt_event *e = &it->u.event;
  /* pt_event_init, inline (one call per event), field by field: a copy of
   * a zero event loads what it stores; a compound literal or memset of
   * this size is a `rep stos` */
  e->time = t;
  e->location = m->loc;
  e->kind = kind;
  e->nattrs = nattrs;
  e->ref = ref;
  e->peer = peer;
  e->comm = comm;
  e->tag = tag;
  e->size = size;
  e->size2 = 0;
  e->request = request;
  e->value.type = 0;
  e->value.count = 0;
  e->value.v.u = 0;
  e->text = NULL;
  e->attrs = attrs;
  return e;
}
static PT_ALWAYS_INLINE pt_event *qpush(mapper *m, uint32_t kind,
                                        uint64_t t) {
  return qpush_ev(m, kind, t, 0, 0, 0, 0, 0, 0, 0, NULL);
}

/* Absolute seconds with 16-bit wrap-around tracking: *base is 65536 x the
 * wraps seen, *last the previous result.  (sec >= 0, the body offset plus
 * 16 bits: with no previous result, *last 0, there is no wrap.) */
static PT_ALWAYS_INLINE int64_t unwrap(int64_t sec, int64_t *base,
                                       int64_t *last) {
  int64_t s = sec + *base;
  if (s < *last - 32768) {
    *base += 65536;
    s += 65536;
  }
  *last = s;
  return s;
}

/* Model ids of replayed communicators: UCOMM + index (their groups too). */
#define UCOMM (UINT64_C(1) << 40)

static const ucomm *uc_get(const mapper *m, int64_t h) {
  for (size_t i = 0; i < m->nuc; i++)
    if (m->uc[i].handle == h) return m->uc[i].comm >= 0 ? &m->uc[i] : NULL;
  return NULL;
}

/* This rank's own group (remote = 0) or the group its peers and roots are
 * ranks of (remote = 1) in replayed communicator c: the members of an
 * intracommunicator; an intercommunicator's group holding this rank, or
 * the other one. */
static const int64_t *group_of(const mapper *m, const pt__dcomm_comm *c,
                               int remote, uint32_t *n) {
  int in_b = 0;
  for (uint32_t j = 0; j < c->nremote && !in_b; j++)
    in_b = c->remote[j] == (int64_t)m->rank;
  if (!c->nremote || in_b == remote) {
    *n = c->n;
    return c->members;
  }
  *n = c->nremote;
  return c->remote;
}

/* Apply the bindings of calls up to `call` (before mapping it). */
static int uc_apply(mapper *m, uint64_t call) {
  for (; m->bi < m->nbind && m->bind[m->bi].call <= call; m->bi++) {
    const pt__dcomm_bind *b = &m->bind[m->bi];
    size_t i = 0;
    while (i < m->nuc && m->uc[i].handle != b->handle) i++;
    if (i == m->nuc) {
      if (PT_GROW(m->uc, m->capuc, m->nuc + 1, 8)) return PT_ENOMEM;
      m->nuc++;
    }
    ucomm *u = &m->uc[i];
    u->handle = b->handle;
    u->comm = b->comm;
    u->me = -1;
    u->size = 0;
    if (b->comm >= 0) {
      const pt__dcomm_comm *c = &m->dc->comms[b->comm];
      const int64_t *own = group_of(m, c, 0, &u->size);
      for (uint32_t j = 0; j < u->size; j++)
        if (own[j] == (int64_t)m->rank) u->me = j;
    }
  }
  return PT_OK;
}

static uint64_t comm_id_slow(const mapper *m, int64_t dumpi_comm) {
  if (dumpi_comm == PT__DUMPI_COMM_WORLD || dumpi_comm == PT__DUMPI_COMM_SELF)
    return (uint64_t)dumpi_comm;
  const ucomm *u = uc_get(m, dumpi_comm);
  if (u) return UCOMM + (uint64_t)u->comm;
  return ((m->rank + 1) << 16) | (uint16_t)dumpi_comm;
}
/* (inline for the common communicators, every call asks) */
static PT_ALWAYS_INLINE uint64_t comm_id(const mapper *m, int64_t dumpi_comm) {
  if (dumpi_comm == PT__DUMPI_COMM_WORLD || dumpi_comm == PT__DUMPI_COMM_SELF)
    return (uint64_t)dumpi_comm;
  return comm_id_slow(m, dumpi_comm);
}

/* The COMM_WORLD rank of rank `local` of model communicator `comm` (as it
 * is when the communicator's members are unknown). */
static int64_t world_rank_slow(const mapper *m, uint64_t comm,
                               int64_t local) {
  if (local < 0) return local;
  if (comm == PT__DUMPI_COMM_SELF) return local == 0 ? (int64_t)m->rank : local;
  if (m->dc && comm >= UCOMM && comm - UCOMM < m->dc->ncomms) {
    const pt__dcomm_comm *c = &m->dc->comms[comm - UCOMM];
    if (!c->nremote) return (uint64_t)local < c->n ? c->members[local] : local;
    uint32_t n;
    const int64_t *g = group_of(m, c, 1, &n); /* the remote group */
    return (uint64_t)local < n ? g[local] : local;
  }
  return local;
}
/* (inline: a rank of COMM_WORLD or of a communicator without members is
 * itself) */
static PT_ALWAYS_INLINE int64_t world_rank(const mapper *m, uint64_t comm,
                                           int64_t local) {
  if (local < 0 || (comm < UCOMM && comm != PT__DUMPI_COMM_SELF))
    return local;
  return world_rank_slow(m, comm, local);
}

static const int64_t default_sizes[28] = {0, 0, 1, 1, 1, 1, 4, 2, 2, 4,
                                          4, 8, 8, 4, 8, 16, 8, 8, 8, 1,
                                          0, 0, 8, 12, 16, 6, 8, 20};

static uint64_t type_size_slow(mapper *m, int64_t dt) {
  dfile *f = m->f;
  if (dt >= 0 && (uint64_t)dt < f->nsizes) return (uint64_t)f->sizes[dt];
  if (dt >= 0 && dt < 28) return (uint64_t)default_sizes[dt];
  dwarn(f, W_DTYPE, "datatype %lld has no size in the trace; bytes counted "
        "as 0", (long long)dt);
  return 0;
}
/* (inline: the trace's size table, every message asks) */
static PT_ALWAYS_INLINE uint64_t type_size(mapper *m, int64_t dt) {
  const dfile *f = m->f;
  if (dt >= 0 && (uint64_t)dt < f->nsizes) return (uint64_t)f->sizes[dt];
  return type_size_slow(m, dt);
}

/* The value of the argument with a role (an absent argument's i is 0:
 * pt__dumpi_decode), or the argument; ri: c->ro (the role offsets of the
 * call's label, where its values are), once per call. */
static int64_t vi(const pt__dumpi_call *c, const int8_t *ri, int role) {
  int o = ri[role];
  return o >= 0 ? c->iv[o] : 0;
}
/* (a call whose arguments are attributes has only present scalars) */
static const pt__dumpi_val present_scalar = {.present = 1};
static const pt__dumpi_val *vv(const pt__dumpi_call *c, const int8_t *ri,
                               int role) {
  if (ri[role] < 0) return NULL;
  if (c->iv != &c->v[0].i) return &present_scalar;
  int k = role_idx[c->label][role];
  return c->v[k].present ? &c->v[k] : NULL;
}
static int64_t sum_ints(const pt__dumpi_val *v) {
  int64_t s = 0;
  for (uint32_t j = 0; v && j < v->na; j++) s += v->a[j];
  return s;
}

static crank_info *cinfo_get(mapper *m, int64_t comm, int create) {
  for (size_t i = 0; i < m->ncinfo; i++)
    if (m->cinfo[i].comm == comm) return &m->cinfo[i];
  if (!create) return NULL;
  if (PT_GROW(m->cinfo, m->capcinfo, m->ncinfo + 1, 8)) return NULL;
  crank_info *ci = &m->cinfo[m->ncinfo++];
  ci->comm = (int32_t)comm;
  ci->rank = ci->size = -1;
  return ci;
}

/* My rank and the size of a communicator, -1 if unknown. */
static int64_t my_rank(mapper *m, int64_t comm) {
  if (comm == PT__DUMPI_COMM_WORLD) return (int64_t)m->rank;
  if (comm == PT__DUMPI_COMM_SELF) return 0;
  const ucomm *u = uc_get(m, comm);
  if (u) return u->me;
  crank_info *ci = cinfo_get(m, comm, 0);
  return ci ? ci->rank : -1;
}
static int64_t comm_size(mapper *m, int64_t comm) {
  if (comm == PT__DUMPI_COMM_WORLD) return (int64_t)m->nranks;
  if (comm == PT__DUMPI_COMM_SELF) return 1;
  const ucomm *u = uc_get(m, comm);
  if (u) return u->size;
  crank_info *ci = cinfo_get(m, comm, 0);
  return ci && ci->size > 0 ? ci->size : 0;
}

static int64_t peer_of(mapper *m, int64_t p) {
  if (p == PT__DUMPI_ROOT) {
    dwarn(m->f, W_PROCNULL, "peer -2 (OpenMPI's MPI_PROC_NULL, stored raw; "
          "dumpi2ascii calls it MPI_ROOT): no message event");
    return INT64_MIN;
  }
  return p < 0 ? -1 : p;
}

static PT_ALWAYS_INLINE int req_add(mapper *m, int32_t id, int send,
                                    int persistent, int64_t peer, int64_t tag,
                                    uint64_t comm, uint64_t bytes,
                                    preq **out) {
  uint32_t *cnt = &m->reqcnt[(uint32_t)id % 64];
  for (size_t i = *cnt ? m->reqh : m->nreqs; i < m->nreqs; i++)
    if (m->reqs[i].id == id && (!m->reqs[i].persistent || m->reqs[i].active))
      dwarn(m->f, W_REQREUSE, "request id %d reused while still "
            "outstanding (the MPI library handed out the same handle); "
            "completions match the oldest first", (int)id);
  if (m->nreqs == m->capreqs && m->reqh) { /* room at the front: use it */
    memmove(m->reqs, m->reqs + m->reqh,
            (m->nreqs - m->reqh) * sizeof *m->reqs);
    m->nreqs -= m->reqh;
    m->reqh = 0;
  }
  if (PT_GROW(m->reqs, m->capreqs, m->nreqs + 1, 16)) return PT_ENOMEM;
  (*cnt)++;
  preq *r = &m->reqs[m->nreqs++];
  r->id = id;
  r->model = persistent ? 0 : ++m->next_req;
  r->send = (uint8_t)send;
  r->persistent = (uint8_t)persistent;
  r->active = (uint8_t)!persistent;
  r->cancel = 0;
  r->io = 0;
  r->peer = peer;
  r->tag = tag;
  r->comm = comm;
  r->bytes = bytes;
  if (out) *out = r;
  return PT_OK;
}

/* Remove reqs[i], keeping the order of the others. */
static PT_ALWAYS_INLINE void req_remove(mapper *m, size_t i) {
  m->reqcnt[(uint32_t)m->reqs[i].id % 64]--;
  if (i == m->reqh) {
    if (++m->reqh == m->nreqs) m->reqh = m->nreqs = 0;
    return;
  }
  memmove(&m->reqs[i], &m->reqs[i + 1], (m->nreqs - i - 1) * sizeof *m->reqs);
  m->nreqs--;
}

/* Complete request `id` with status s (5 ints or NULL) at time t. */
static PT_ALWAYS_INLINE int req_complete(mapper *m, int64_t id,
                                         const int64_t *s, uint64_t t) {
  if (id == PT__DUMPI_REQUEST_NULL || id == 0) return PT_OK;
  size_t i;
  for (i = m->reqh; i < m->nreqs; i++)
    if (m->reqs[i].id == id && m->reqs[i].active) break;
  if (i == m->nreqs) {
    /* a persistent request made but not started (or already completed):
     * waiting on an inactive request is legal and completes nothing */
    for (i = m->reqh; i < m->nreqs; i++)
      if (m->reqs[i].id == id && m->reqs[i].persistent) return PT_OK;
    dwarn(m->f, W_REQUNKNOWN, "completion of request id %lld that no "
          "recorded call created (e.g. an MPI-3 call DUMPI does not record)",
          (long long)id);
    return PT_OK;
  }
  preq *r = &m->reqs[i];
  pt_event *e;
  if (r->io) { /* as the MPI recorder has it: the operation ends */
    if (!(e = qpush(m, PT_EV_IO_END, t))) return PT_ENOMEM;
    e->ref = r->comm;
    e->size = s && s[0] >= 0 ? (uint64_t)s[0] : r->bytes;
    e->request = IO_MATCH(r->model);
    req_remove(m, i);
    return PT_OK;
  }
  /* cancelled: as the status says; without a status (MPI_STATUS_IGNORE)
   * a request MPI_Cancel was called on is taken as cancelled (it is, unless
   * it had matched already: then only the status could tell) */
  if (s ? s[2] != 0 : r->cancel) {
    if (!(e = qpush(m, PT_EV_REQUEST_CANCELLED, t))) return PT_ENOMEM;
    e->request = r->model;
  } else if (r->send) {
    if (!qpush_ev(m, PT_EV_ISEND_COMPLETE, t, 0, 0, 0, 0, 0, r->model, 0,
                  NULL))
      return PT_ENOMEM;
  } else {
    if (!qpush_ev(m, PT_EV_IRECV, t, PT_NONE,
                  s && s[1] >= 0 ? world_rank(m, r->comm, s[1]) : r->peer,
                  r->comm, s && s[4] >= 0 ? s[4] : r->tag,
                  s && s[0] >= 0 ? (uint64_t)s[0] : r->bytes, r->model, 0,
                  NULL))
      return PT_ENOMEM;
  }
  if (r->persistent) r->active = 0;
  else req_remove(m, i);
  return PT_OK;
}

static int start_req(mapper *m, int64_t id, uint64_t t) {
  for (size_t i = m->reqh; i < m->nreqs; i++) {
    preq *r = &m->reqs[i];
    if (r->id != id || !r->persistent) continue;
    r->active = 1;
    r->cancel = 0;
    r->model = ++m->next_req;
    pt_event *e = qpush(m, r->send ? PT_EV_ISEND : PT_EV_IRECV_REQUEST, t);
    if (!e) return PT_ENOMEM;
    e->request = r->model;
    if (r->send) {
      e->ref = PT_NONE;
      e->peer = r->peer;
      e->tag = r->tag;
      e->comm = r->comm;
      e->size = r->bytes;
    }
    return PT_OK;
  }
  dwarn(m->f, W_REQUNKNOWN, "MPI_Start of request id %lld that no recorded "
        "*_init created", (long long)id);
  return PT_OK;
}

static const int64_t *status_at(const pt__dumpi_val *v, int64_t j) {
  if (!v || j < 0 || (uint64_t)(j + 1) * 5 > v->na) return NULL;
  return v->a + 5 * j;
}

/* The model id of I/O handle `fh` of rank r opened by its gen-th
 * MPI_File_open that gave this DUMPI id (the MPI recorder's numbering:
 * rank in the high half, DUMPI's id in the low; a later open of the same
 * id, after a close, is another handle: gen in bits 16-31). */
static uint64_t io_handle_id(uint64_t r, int64_t fh, uint32_t gen) {
  return ((uint64_t)(uint32_t)r << 32) |
         (gen ? (uint32_t)gen << 16 | (uint16_t)fh : (uint32_t)fh);
}

/* This rank's handle of DUMPI file id `fh` in the call being mapped: that
 * of the latest MPI_File_open of fh mapped (file_opened). */
static uint64_t io_handle(const mapper *m, int64_t fh) {
  uint64_t gen = 0;
  pt__map_get(&m->fgen, (uint32_t)fh, &gen);
  return io_handle_id(m->rank, fh, (uint32_t)gen);
}

/* The MPI_File_open being mapped (the walk's record of it, found by its
 * number): later calls on its file id are its handle's. */
static int file_opened(mapper *m) {
  const dfile *f = m->f;
  size_t lo = 0, hi = f->nfopens;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->fopens[mid].call < f->cur_call) lo = mid + 1;
    else hi = mid;
  }
  if (lo == f->nfopens || f->fopens[lo].call != f->cur_call) return PT_OK;
  return pt__map_put(&m->fgen, (uint32_t)f->fopens[lo].fh, f->fopens[lo].gen);
}

/* An MPI_File read or write (blocking: both events now; non-blocking:
 * IO_BEGIN and a request that IO_END completes). */
static int io_call(mapper *m, const pt__dumpi_call *c, uint64_t t0,
                   uint64_t t1) {
  const int8_t *ri = c->ro;
  pt__dumpi_sem sem = (pt__dumpi_sem)c->f->sem;
  int nb = sem == PT__DS_IO_IREAD || sem == PT__DS_IO_IWRITE;
  uint64_t fh = io_handle(m, vi(c, ri, R_file));
  uint64_t b =
      (uint64_t)vi(c, ri, R_count) * type_size(m, vi(c, ri, R_datatype));
  uint64_t match;
  if (nb) {
    preq *r;
    int rc = req_add(m, (int32_t)vi(c, ri, R_request), 0, 0, -1, 0, fh, b, &r);
    if (rc < 0) return rc;
    r->io = 1;
    match = IO_MATCH(r->model);
  } else {
    match = ++m->next_io;
  }
  pt_event *e = qpush(m, PT_EV_IO_BEGIN, t0);
  if (!e) return PT_ENOMEM;
  e->ref = fh;
  e->tag = sem == PT__DS_IO_READ || sem == PT__DS_IO_IREAD ? PT_IO_READ
                                                           : PT_IO_WRITE;
  e->size = b;
  /* OTF2_IO_OPERATION_FLAG_NON_BLOCKING, | COLLECTIVE for the accesses
   * every process of the file's group makes (*_all, *_ordered) */
  e->size2 = (uint64_t)nb | (pt__mpi_io_collective(c->f->name) ? 2u : 0u);
  e->request = match;
  if (nb) return PT_OK;
  const int64_t *s = status_at(vv(c, ri, R_status), 0);
  if (!(e = qpush(m, PT_EV_IO_END, t1))) return PT_ENOMEM;
  e->ref = fh;
  e->size = s && s[0] >= 0 ? (uint64_t)s[0] : b;
  e->request = match;
  return PT_OK;
}

/* A split collective (MPI_File_*_begin ... _end): IO_BEGIN at the begin
 * call with the bytes asked, IO_END at the end call with the bytes its
 * status gives, as the MPI recorder has them (flags non-blocking and
 * collective).  An end without its begin maps to nothing. */
static int io_split(mapper *m, const pt__dumpi_call *c, uint64_t t0,
                    uint64_t t1) {
  const int8_t *ri = c->ro;
  pt__dumpi_sem sem = (pt__dumpi_sem)c->f->sem;
  uint64_t fh = io_handle(m, vi(c, ri, R_file));
  size_t i;
  for (i = 0; i < m->nsplits && m->splits[i].fh != fh; i++) {
  }
  if (sem == PT__DS_IO_SEND) {
    if (i == m->nsplits) return PT_OK;
    struct dsplit sp = m->splits[i];
    m->splits[i] = m->splits[--m->nsplits];
    const int64_t *s = status_at(vv(c, ri, R_status), 0);
    pt_event *e = qpush(m, PT_EV_IO_END, t1);
    if (!e) return PT_ENOMEM;
    e->ref = fh;
    e->size = s && s[0] >= 0 ? (uint64_t)s[0] : sp.bytes;
    e->request = sp.match;
    return PT_OK;
  }
  if (i == m->nsplits) { /* a new one (an unfinished earlier one: replaced) */
    if (PT_GROW(m->splits, m->capsplits, m->nsplits + 1, 4)) return PT_ENOMEM;
    m->nsplits++;
  }
  struct dsplit *sp = &m->splits[i];
  sp->fh = fh;
  sp->match = ++m->next_io;
  sp->bytes =
      (uint64_t)vi(c, ri, R_count) * type_size(m, vi(c, ri, R_datatype));
  pt_event *e = qpush(m, PT_EV_IO_BEGIN, t0);
  if (!e) return PT_ENOMEM;
  e->ref = fh;
  e->tag = sem == PT__DS_IO_SREAD ? PT_IO_READ : PT_IO_WRITE;
  e->size = sp->bytes;
  e->size2 = 3; /* OTF2_IO_OPERATION_FLAG_NON_BLOCKING | _COLLECTIVE */
  e->request = sp->match;
  return PT_OK;
}

static int p2p_event(mapper *m, uint32_t kind, uint64_t t, int64_t peer,
                     int64_t tag, int64_t comm, uint64_t bytes) {
  int64_t p = peer_of(m, peer);
  if (p == INT64_MIN) return PT_OK;
  pt_event *e = qpush(m, kind, t);
  if (!e) return PT_ENOMEM;
  e->ref = PT_NONE;
  e->comm = comm_id(m, comm);
  e->peer = world_rank(m, e->comm, p);
  e->tag = tag;
  e->size = bytes;
  return PT_OK;
}

/* A one-sided operation of SST DUMPI 13 (MPI_Put, MPI_Get,
 * MPI_Accumulate) that returned at t: its RMA_* event, as the MPI
 * recorder writes it (doc/mpi.md): the bytes origincount x origintype,
 * the target a COMM_WORLD rank through the communicator of the window's
 * MPI_Win_create (a window the trace did not create: target and
 * communicator unknown). */
static int rma_event(mapper *m, const pt__dumpi_call *c, uint64_t t) {
  const int8_t *ri = c->ro;
  int64_t tr = vi(c, ri, R_targetrank);
  if (tr == PT__DUMPI_ROOT) return PT_OK; /* MPI_PROC_NULL: no operation */
  uint64_t win = (uint64_t)(uint16_t)vi(c, ri, R_win), mcomm = PT_NONE;
  pt__map_get(&m->wins, win, &mcomm);
  int64_t n = vi(c, ri, R_origincount);
  uint64_t bytes =
      n > 0 ? (uint64_t)n * type_size(m, vi(c, ri, R_origintype)) : 0;
  pt_event *e = qpush(m, PT_EV_RMA_ATOMIC, t);
  if (!e) return PT_ENOMEM;
  e->ref = win;
  e->comm = mcomm;
  e->peer = mcomm == PT_NONE || tr < 0 ? -1 : world_rank(m, mcomm, tr);
  if (c->f->sem == PT__DS_RMA_PUT) {
    e->kind = PT_EV_RMA_PUT;
    e->size = bytes;
  } else if (c->f->sem == PT__DS_RMA_GET) {
    e->kind = PT_EV_RMA_GET;
    e->size2 = bytes;
  } else {
    e->tag = PT_RMA_ACCUMULATE;
    e->size = bytes;
  }
  return PT_OK;
}

/* Bytes sent / received by a collective, from counts x datatype sizes. */
static void coll_bytes(mapper *m, const pt__dumpi_call *c, uint64_t *sent,
                       uint64_t *recvd) {
  const int8_t *ri = c->ro;
  int64_t comm = vi(c, ri, R_comm), root = vi(c, ri, R_root);
  int64_t me = vv(c, ri, R_commrank) ? vi(c, ri, R_commrank) : my_rank(m, comm);
  int64_t n =
      vv(c, ri, R_commsize) ? vi(c, ri, R_commsize) : comm_size(m, comm);
  int is_root = me >= 0 && me == root;
  /* an intercommunicator: counts per rank of the remote group; a rooted
   * call's root passes MPI_ROOT (Open MPI -4, MPICH -3), the rest of its
   * group MPI_PROC_NULL (-2, -1: no part at all), the other group the
   * root's rank there */
  const ucomm *u = uc_get(m, comm);
  const pt__dcomm_comm *ic = u && m->dc->comms[u->comm].nremote
                                 ? &m->dc->comms[u->comm] : NULL;
  if (ic) {
    if (ri[R_root] >= 0) {
      if (root == -1 || root == -2) {
        *sent = *recvd = 0;
        return;
      }
      is_root = root < 0;
    }
    uint32_t rn;
    group_of(m, ic, 1, &rn);
    n = rn;
  }
  uint64_t cnt = (uint64_t)(vi(c, ri, R_count) > 0 ? vi(c, ri, R_count) : 0) *
                 type_size(m, vi(c, ri, R_datatype));
  uint64_t sc =
      (uint64_t)(vi(c, ri, R_sendcount) > 0 ? vi(c, ri, R_sendcount) : 0) *
      type_size(m, vi(c, ri, R_sendtype));
  uint64_t rc =
      (uint64_t)(vi(c, ri, R_recvcount) > 0 ? vi(c, ri, R_recvcount) : 0) *
      type_size(m, vi(c, ri, R_recvtype));
  uint64_t un = n > 0 ? (uint64_t)n : 0;
  *sent = *recvd = 0;
  switch (c->f->coll) {
    case PT_COLL_BCAST:
      if (is_root) *sent = cnt; else *recvd = cnt;
      break;
    case PT_COLL_REDUCE:
      *sent = cnt;
      if (is_root) *recvd = cnt;
      break;
    case PT_COLL_ALLREDUCE: case PT_COLL_SCAN: case PT_COLL_EXSCAN:
      *sent = *recvd = cnt;
      break;
    case PT_COLL_GATHER:
      *sent = sc;
      if (is_root) *recvd = rc * un;
      break;
    case PT_COLL_GATHERV:
      *sent = sc;
      if (is_root)
        *recvd = (uint64_t)sum_ints(vv(c, ri, R_recvcounts)) *
                 type_size(m, vi(c, ri, R_recvtype));
      break;
    case PT_COLL_SCATTER:
      *recvd = rc;
      if (is_root) *sent = sc * un;
      break;
    case PT_COLL_SCATTERV:
      *recvd = rc;
      if (is_root)
        *sent = (uint64_t)sum_ints(vv(c, ri, R_sendcounts)) *
                type_size(m, vi(c, ri, R_sendtype));
      break;
    case PT_COLL_ALLGATHER:
      *sent = sc;
      *recvd = rc * un;
      break;
    case PT_COLL_ALLGATHERV:
      *sent = sc;
      *recvd = (uint64_t)sum_ints(vv(c, ri, R_recvcounts)) *
               type_size(m, vi(c, ri, R_recvtype));
      break;
    case PT_COLL_ALLTOALL:
      *sent = sc * un;
      *recvd = rc * un;
      break;
    case PT_COLL_ALLTOALLV:
      *sent = (uint64_t)sum_ints(vv(c, ri, R_sendcounts)) *
              type_size(m, vi(c, ri, R_sendtype));
      *recvd = (uint64_t)sum_ints(vv(c, ri, R_recvcounts)) *
               type_size(m, vi(c, ri, R_recvtype));
      break;
    case PT_COLL_ALLTOALLW: {
      const pt__dumpi_val *a = vv(c, ri, R_sendcounts),
                          *b = vv(c, ri, R_sendtypes);
      for (uint32_t j = 0; a && b && j < a->na && j < b->na; j++)
        *sent += (uint64_t)a->a[j] * type_size(m, b->a[j]);
      a = vv(c, ri, R_recvcounts);
      b = vv(c, ri, R_recvtypes);
      for (uint32_t j = 0; a && b && j < a->na && j < b->na; j++)
        *recvd += (uint64_t)a->a[j] * type_size(m, b->a[j]);
      break;
    }
    case PT_COLL_REDUCE_SCATTER: {
      const pt__dumpi_val *rcs = vv(c, ri, R_recvcounts);
      uint64_t sz = type_size(m, vi(c, ri, R_datatype));
      *sent = (uint64_t)sum_ints(rcs) * sz;
      if (rcs && me >= 0 && (uint64_t)me < rcs->na)
        *recvd = (uint64_t)rcs->a[me] * sz;
      break;
    }
    default:
      break;
  }
  if (ic && is_root) { /* the root's group only sends or only receives */
    if (c->f->coll == PT_COLL_REDUCE || c->f->coll == PT_COLL_GATHER ||
        c->f->coll == PT_COLL_GATHERV)
      *sent = 0;
    if (c->f->coll == PT_COLL_SCATTER || c->f->coll == PT_COLL_SCATTERV)
      *recvd = 0;
  }
}

/* The COMM_WORLD rank of a collective's root (DUMPI communicator handle,
 * model communicator id, the root argument).  On an intercommunicator:
 * this rank for MPI_ROOT, -1 for MPI_PROC_NULL, else a rank of the remote
 * group (see coll_bytes). */
static int64_t coll_root(const mapper *m, int64_t comm, uint64_t mcomm,
                         int64_t root) {
  const ucomm *u = uc_get(m, comm);
  if (u && m->dc->comms[u->comm].nremote && root < 0)
    return root == -1 || root == -2 ? -1 : (int64_t)m->rank;
  return world_rank(m, mcomm, root);
}

/* A non-blocking or persistent send or receive (MPI_Isend, MPI_Irecv,
 * MPI_Send_init...): its request, and for the non-blocking ones the
 * ISEND or IRECV_REQUEST event at t0. */
static PT_ALWAYS_INLINE int req_call(mapper *m, int send, int pers,
                                     int64_t peer, int64_t tag, int64_t comm,
                                     int64_t count, int64_t datatype,
                                     int64_t request, uint64_t t0) {
  uint64_t b = (uint64_t)count * type_size(m, datatype);
  uint64_t mc = comm_id(m, comm);
  int64_t p = peer == PT__DUMPI_ROOT ? PT__DUMPI_ROOT
              : peer < 0 ? -1 : world_rank(m, mc, peer);
  preq *r;
  int rc = req_add(m, (int32_t)request, send, pers, p, tag, mc, b, &r);
  if (rc < 0) return rc;
  if (pers) return PT_OK;
  if (p == PT__DUMPI_ROOT) {
    peer_of(m, p); /* warn */
    r->peer = -1;
  }
  pt_event *e =
      send ? qpush_ev(m, PT_EV_ISEND, t0, PT_NONE, r->peer, r->comm, r->tag,
                      b, r->model, 0, NULL)
           : qpush_ev(m, PT_EV_IRECV_REQUEST, t0, 0, 0, 0, 0, 0, r->model, 0,
                      NULL);
  if (!e) return PT_ENOMEM;
  return PT_OK;
}

/* A wait or test call's completions at t1 (sem: which one; the arrays
 * NULL with n 0 when the call has none or they are not recorded: rq the
 * requests, ix the indices, st the status or statuses, 5 ints each). */
static PT_ALWAYS_INLINE int wait_call(mapper *m, pt__dumpi_sem sem,
                                      int64_t flag, int64_t request,
                                      int64_t index, int64_t outcount,
                                      const int64_t *rq, uint32_t nrq,
                                      const int64_t *ix, uint32_t nix,
                                      const int64_t *st, uint32_t nst,
                                      uint64_t t1) {
  int rc;
#define ST_AT(j) ((uint64_t)((j) + 1) * 5 <= nst ? st + 5 * (j) : NULL)
  switch (sem) {
    case PT__DS_WAIT:
    case PT__DS_TEST:
      if (sem == PT__DS_TEST && !flag) return PT_OK;
      return req_complete(m, request, ST_AT(0), t1);
    case PT__DS_WAITANY:
    case PT__DS_TESTANY:
      if (sem == PT__DS_TESTANY && !flag) return PT_OK;
      if (!rq || index < 0 || (uint64_t)index >= nrq) return PT_OK;
      return req_complete(m, rq[index], ST_AT(0), t1);
    case PT__DS_WAITALL:
    case PT__DS_TESTALL:
      if (sem == PT__DS_TESTALL && !flag) return PT_OK;
      for (uint32_t j = 0; j < nrq; j++)
        if ((rc = req_complete(m, rq[j], ST_AT(j), t1)) < 0) return rc;
      return PT_OK;
    case PT__DS_WAITSOME:
    case PT__DS_TESTSOME:
      for (int64_t j = 0; rq && ix && j < outcount && (uint64_t)j < nix;
           j++) {
        int64_t k = ix[j];
        if (k < 0 || (uint64_t)k >= nrq) continue;
        if ((rc = req_complete(m, rq[k], ST_AT(j), t1)) < 0) return rc;
      }
      return PT_OK;
    default:
      return PT_OK;
  }
#undef ST_AT
}

/* The semantic events of call c between its ENTER (t0) and LEAVE (t1). */
static int map_semantics(mapper *m, const pt__dumpi_call *c, uint64_t t0,
                         uint64_t t1) {
  const int8_t *ri = c->ro;
  const pt__dumpi_func *f = c->f;
  int rc = PT_OK;
  int64_t comm = vi(c, ri, R_comm);
  switch ((pt__dumpi_sem)f->sem) {
    case PT__DS_NONE:
      return PT_OK;
    case PT__DS_RMA_PUT: case PT__DS_RMA_GET: case PT__DS_RMA_ACC:
      return rma_event(m, c, t1);
    case PT__DS_WIN_CREATE:
      return pt__map_put(&m->wins, (uint64_t)(uint16_t)vi(c, ri, R_win),
                         comm_id(m, comm)) < 0 ? PT_ENOMEM : PT_OK;
    case PT__DS_WIN_FREE:
      return pt__map_put(&m->wins, (uint64_t)(uint16_t)vi(c, ri, R_win),
                         PT_NONE) < 0 ? PT_ENOMEM : PT_OK;
    case PT__DS_SEND:
      return p2p_event(
          m, PT_EV_SEND, t0, vi(c, ri, R_dest), vi(c, ri, R_tag), comm,
          (uint64_t)vi(c, ri, R_count) * type_size(m, vi(c, ri, R_datatype)));
    case PT__DS_RECV: {
      const int64_t *s = status_at(vv(c, ri, R_status), 0);
      int64_t src = vi(c, ri, R_source);
      if (src == PT__DUMPI_ROOT) return p2p_event(m, PT_EV_RECV, t1, src, 0, 0, 0);
      uint64_t b =
          (uint64_t)vi(c, ri, R_count) * type_size(m, vi(c, ri, R_datatype));
      return p2p_event(m, PT_EV_RECV, t1, s && s[1] >= 0 ? s[1] : src,
                       s && s[4] >= 0 ? s[4] : vi(c, ri, R_tag), comm,
                       s && s[0] >= 0 ? (uint64_t)s[0] : b);
    }
    case PT__DS_SENDRECV: {
      int rp = ri[R_sendcount] >= 0;
      uint64_t sb = rp ? (uint64_t)vi(c, ri, R_sendcount) *
                             type_size(m, vi(c, ri, R_sendtype))
                       : (uint64_t)vi(c, ri, R_count) *
                             type_size(m, vi(c, ri, R_datatype));
      uint64_t rb = rp ? (uint64_t)vi(c, ri, R_recvcount) *
                             type_size(m, vi(c, ri, R_recvtype))
                       : sb;
      if ((rc = p2p_event(m, PT_EV_SEND, t0, vi(c, ri, R_dest),
                          vi(c, ri, R_sendtag), comm, sb)) < 0)
        return rc;
      const int64_t *s = status_at(vv(c, ri, R_status), 0);
      int64_t src = vi(c, ri, R_source);
      if (src == PT__DUMPI_ROOT) return p2p_event(m, PT_EV_RECV, t1, src, 0, 0, 0);
      return p2p_event(m, PT_EV_RECV, t1, s && s[1] >= 0 ? s[1] : src,
                       s && s[4] >= 0 ? s[4] : vi(c, ri, R_recvtag), comm,
                       s && s[0] >= 0 ? (uint64_t)s[0] : rb);
    }
    case PT__DS_ISEND:
    case PT__DS_IRECV:
    case PT__DS_SEND_INIT:
    case PT__DS_RECV_INIT: {
      int send = f->sem == PT__DS_ISEND || f->sem == PT__DS_SEND_INIT;
      int pers = f->sem == PT__DS_SEND_INIT || f->sem == PT__DS_RECV_INIT;
      return req_call(m, send, pers, send ? vi(c, ri, R_dest)
                                          : vi(c, ri, R_source),
                      vi(c, ri, R_tag), comm, vi(c, ri, R_count),
                      vi(c, ri, R_datatype), vi(c, ri, R_request), t0);
    }
    case PT__DS_IO_READ:
    case PT__DS_IO_WRITE:
    case PT__DS_IO_IREAD:
    case PT__DS_IO_IWRITE:
      return io_call(m, c, t0, t1);
    case PT__DS_IO_SREAD:
    case PT__DS_IO_SWRITE:
    case PT__DS_IO_SEND:
      return io_split(m, c, t0, t1);
    case PT__DS_START:
      return start_req(m, vi(c, ri, R_request), t0);
    case PT__DS_STARTALL: {
      const pt__dumpi_val *rq = vv(c, ri, R_requests);
      for (uint32_t j = 0; rq && j < rq->na; j++)
        if ((rc = start_req(m, rq->a[j], t0)) < 0) return rc;
      return PT_OK;
    }
    case PT__DS_WAIT: case PT__DS_TEST: case PT__DS_WAITANY:
    case PT__DS_TESTANY: case PT__DS_WAITALL: case PT__DS_TESTALL:
    case PT__DS_WAITSOME: case PT__DS_TESTSOME: {
      const pt__dumpi_val *rq = vv(c, ri, R_requests),
                          *ix = vv(c, ri, R_indices),
                          *st = vv(c, ri, R_statuses);
      if (!st) st = vv(c, ri, R_status);
      return wait_call(m, (pt__dumpi_sem)f->sem, vi(c, ri, R_flag),
                       vi(c, ri, R_request), vi(c, ri, R_index),
                       vi(c, ri, R_outcount), rq ? rq->a : NULL,
                       rq ? rq->na : 0, ix ? ix->a : NULL, ix ? ix->na : 0,
                       st ? st->a : NULL, st ? st->na : 0, t1);
    }
    case PT__DS_REQUEST_FREE: {
      /* a persistent request is gone; an active one completes unseen (as
       * the MPI recorder has it): forgotten, so that a later request with
       * the same DUMPI id is not taken for it */
      int64_t id = vi(c, ri, R_request);
      for (size_t i = m->reqh; i < m->nreqs; i++)
        if (m->reqs[i].id == id &&
            (m->reqs[i].persistent || m->reqs[i].active)) {
          req_remove(m, i);
          break;
        }
      return PT_OK;
    }
    case PT__DS_CANCEL: {
      /* the completion that follows reports it (REQUEST_CANCELLED), as
       * the MPI recorder does */
      int64_t id = vi(c, ri, R_request);
      for (size_t i = m->reqh; i < m->nreqs; i++)
        if (m->reqs[i].id == id && m->reqs[i].active) {
          m->reqs[i].cancel = 1;
          break;
        }
      return PT_OK;
    }
    case PT__DS_COMM_RANK:
    case PT__DS_COMM_SIZE: {
      crank_info *ci = cinfo_get(m, comm, 1);
      if (!ci) return PT_ENOMEM;
      if (f->sem == PT__DS_COMM_RANK) ci->rank = vi(c, ri, R_rank);
      else ci->size = vi(c, ri, R_size);
      return PT_OK;
    }
    case PT__DS_COLL: {
      pt_event *e = qpush(m, PT_EV_COLL_BEGIN, t0);
      if (!e) return PT_ENOMEM;
      uint64_t sent, recvd;
      coll_bytes(m, c, &sent, &recvd);
      if (!(e = qpush(m, PT_EV_COLL_END, t1))) return PT_ENOMEM;
      e->ref = f->coll;
      e->comm = comm_id(m, comm);
      e->peer = ri[R_root] >= 0
                    ? coll_root(m, comm, e->comm, vi(c, ri, R_root)) : -1;
      e->size = sent;
      e->size2 = recvd;
      return PT_OK;
    }
    default:
      return PT_OK;
  }
}

static pt_attr *attr_push(pt_attr *at, uint32_t *n, uint64_t key,
                          uint32_t type) {
  pt_attr *a = &at[(*n)++];
  a->key = key; /* (every field: no memset, one call per attribute) */
  a->val.type = type;
  a->val.count = 0;
  a->val.v.u = 0;
  return a;
}

/* Map call c of this rank into m->q (ENTER, semantic events, LEAVE), on
 * the location of thread m->th.  at: the attributes
 * pt__dumpi_decode_scalars stored the arguments of a fixed-argument call
 * in (room for at_cap[label]), else NULL. */
static int map_call(mapper *m, pt__dumpi_call *c, pt_attr *at) {
  const pt__dumpi_func *f = c->f;
  if (c->label == (unsigned)file_open_label && file_opened(m) < 0)
    return PT_ENOMEM;
  pt__arena *arena = m->arena;
  uint64_t *last_time = &m->th->last_time;
  /* times */
  int64_t ws = 0, we = 0;
  int have_wall = (c->mask & PT__DUMPI_MASK_WALL) != 0;
  if (have_wall) {
    ws = unwrap(c->wall_start.sec, &m->th->wall_base, &m->th->wall_last) * NS +
         c->wall_start.nsec;
    we = unwrap(c->wall_stop.sec, &m->th->wall_base, &m->th->wall_last) * NS +
         c->wall_stop.nsec;
  }
  uint64_t t0 = have_wall && ws >= 0 ? (uint64_t)ws : *last_time;
  uint64_t t1 = have_wall && we >= 0 ? (uint64_t)we : t0;
  int clamped = 0;
  if (t0 < *last_time) {
    dwarn(m->f, W_TIME, "call %s starts before the previous call of its "
          "thread ended; event times clamped", f->name);
    t0 = *last_time;
    clamped = 1;
  }
  if (t1 < t0) {
    t1 = t0;
    clamped = 1;
  }
  *last_time = t1;

  /* attributes of the ENTER (and, after them, the LEAVE's two) */
  uint32_t cap = EX__COUNT + 2u * f->nargs;
  uint32_t n = 0;
  const uint32_t *ids = m->attr_id[c->label];
  const uint8_t *mts = arg_mt[c->label];
  if (at) { /* (most calls: the arguments are there) */
    n = f->nargs;
    c->iv = &at[0].val.v.i;
    c->ro = role_off[1][c->label];
  } else {
    if (has_str[c->label])
      for (unsigned k = 0; k < f->nargs; k++) cap += c->v[k].ns;
    if (!(at = pt__arena_alloc(arena, (cap + 2) * sizeof *at)))
      return PT_ENOMEM;
    c->iv = &c->v[0].i;
    c->ro = role_off[0][c->label];
    for (unsigned k = 0; k < f->nargs; k++) {
      const pt__dumpi_val *v = &c->v[k];
      if (!v->present) continue;
      uint64_t key = ids[k];
      switch (mts[k]) {
        case PT_TYPE_INT:
          attr_push(at, &n, key, PT_TYPE_INT)->val.v.i = v->i;
          break;
        case PT_TYPE_STRING:
          for (uint32_t j = 0; j < v->ns; j++)
            attr_push(at, &n, key, PT_TYPE_STRING)->val.v.s = v->s[j];
          break;
        default: {
          pt_attr *a = attr_push(at, &n, key, PT_TYPE_INTS);
          a->val.count = v->na;
          a->val.v.ints = v->a;
          if (pt__dumpi_atype_wire(f->args[k].type) == PT__DW_STRARR2)
            for (uint32_t j = 0; j < v->ns; j++)
              attr_push(at, &n, m->attr_id[c->label][PT__DUMPI_MAX_ARGS],
                        PT_TYPE_STRING)
                  ->val.v.s = v->s[j];
        }
      }
    }
  }
  if (c->thread)
    attr_push(at, &n, m->extra_id[EX_THREAD], PT_TYPE_INT)->val.v.i = c->thread;
  if (c->mask != PT__DUMPI_MASK_DEFAULT)
    attr_push(at, &n, m->extra_id[EX_MASK], PT_TYPE_INT)->val.v.i = c->mask;
  if (c->mask & PT__DUMPI_MASK_CPU)
    attr_push(at, &n, m->extra_id[EX_CPU_START], PT_TYPE_INT)->val.v.i =
        unwrap(c->cpu_start.sec, &m->th->cpu_base, &m->th->cpu_last) * NS +
        c->cpu_start.nsec;
  int64_t *perf = NULL;
  if (c->mask & PT__DUMPI_MASK_PERF) {
    perf = pt__arena_alloc(arena, 16u * c->nperf + 16);
    if (!perf) return PT_ENOMEM;
    for (unsigned j = 0; j < c->nperf; j++) {
      perf[j] = (int64_t)c->perf_in[j];
      perf[c->nperf + j] = (int64_t)c->perf_out[j];
    }
    pt_attr *a = attr_push(at, &n, m->extra_id[EX_PERF], PT_TYPE_INTS);
    a->val.count = c->nperf;
    a->val.v.ints = perf;
  }
  if (clamped) {
    int64_t *w = pt__arena_alloc(arena, 16);
    if (!w) return PT_ENOMEM;
    w[0] = ws;
    w[1] = we;
    pt_attr *a = attr_push(at, &n, m->extra_id[EX_WALL], PT_TYPE_INTS);
    a->val.count = 2;
    a->val.v.ints = w;
  }
  pt_event *e = qpush(m, PT_EV_ENTER, t0);
  if (!e) return PT_ENOMEM;
  e->ref = c->label;
  e->nattrs = n;
  e->attrs = n ? at : NULL;

  /* MPI sets a status's error field only in the statuses of the
   * multiple-completion calls (MPI_ERR_IN_STATUS); the real writer copies
   * the field of single statuses anyway, unset: warn, keep it as stored. */
  for (unsigned sa = status_args[c->label], k; sa; sa &= sa - 1) {
    k = (unsigned)__builtin_ctz(sa);
    const pt__dumpi_val *v = &c->v[k];
    if (!v->present) continue;
    int single = f->args[k].type == PT__DA_STATUS;
    for (uint32_t j = 0; j + 5 <= v->na; j += 5) {
      int64_t errf = v->a[j + 3];
      if ((single && errf != 0) || errf < 0 || errf > 1000) {
        dwarn(m->f, W_STATUSERR, "%s: status error field %lld where MPI "
              "leaves it unset (the writer copies an uninitialised field); "
              "kept as stored, not read as an error", f->name,
              (long long)errf);
        break;
      }
    }
  }

  int rc = map_semantics(m, c, t0, t1);
  if (rc < 0) return rc;

  /* LEAVE */
  pt_attr *lat = at + cap;
  uint32_t ln = 0;
  if (c->mask & PT__DUMPI_MASK_CPU)
    attr_push(lat, &ln, m->extra_id[EX_CPU_STOP], PT_TYPE_INT)->val.v.i =
        unwrap(c->cpu_stop.sec, &m->th->cpu_base, &m->th->cpu_last) * NS +
        c->cpu_stop.nsec;
  if (perf) {
    pt_attr *a = attr_push(lat, &ln, m->extra_id[EX_PERF], PT_TYPE_INTS);
    a->val.count = c->nperf;
    a->val.v.ints = perf + c->nperf;
  }
  if (!(e = qpush(m, PT_EV_LEAVE, t1))) return PT_ENOMEM;
  e->ref = c->label;
  e->nattrs = ln;
  e->attrs = ln ? lat : NULL;
  return PT_OK;
}

/* ======================================================================== */
/* The commonest calls: decoded and mapped in one pass                       */
/* ======================================================================== */

/* A call whose arguments are fixed-width values, integer arrays and
 * status lists, none with a condition, and whose meaning is none, a send,
 * a non-blocking or persistent send or receive, a collective (the
 * fixed-argument ones) or a wait or test (MPI_Isend, MPI_Irecv, MPI_Send,
 * MPI_Allreduce, MPI_Wait, MPI_Waitall, MPI_Testsome, MPI_Comm_rank...):
 * fm_<label>, generated from the table below, reads the record's header
 * and arguments and writes the ENTER, the semantic events and the LEAVE
 * with their attributes, as pt__dumpi_decode_scalars or pt__dumpi_decode
 * and map_call do (the same items, attributes and warnings, in the same
 * order), with each argument's wire encoding, attribute slot and role
 * constants of the function.  It returns the record's bytes, or 0 for a
 * record it does not take (perf counters, cut short: nothing written; the
 * generic path maps it or says what is wrong), or an error. */
typedef long (*fm_fn)(mapper *m, const uint8_t *p, size_t avail,
                      uint32_t cpu_off, uint32_t wall_off, pt_attr *at);

/* Per argument type: its wire encoding, and its width (bytes) for the
 * fixed ones, FM_ARR for an integer array or status list, FM_VAR for the
 * others (as in dumpi_codec.c). */
enum { FM_VAR = -65536, FM_ARR = -256 };
enum {
#define FM_W(NAME, w, p, n) FMW_##NAME = PT__DW_##w,
  PT__DUMPI_ATYPES(FM_W)
#undef FM_W
  FMW__END
};
enum {
  FMD_I32 = 4, FMD_I64 = 8, FMD_H16 = 2, FMD_U8 = 1, FMD_S8 = 1,
  FMD_STATUS = FM_ARR, FMD_I32ARR = FM_ARR, FMD_H16ARR = FM_VAR,
  FMD_U8ARR = FM_VAR, FMD_I32ARR2 = FM_VAR, FMD_STR = FM_VAR,
  FMD_STRARR = FM_VAR, FMD_STRARR2 = FM_VAR, FMD_ARGV = FM_VAR
};
enum {
#define FM_D(NAME, w, p, n) FMD_##NAME##_T = FMD_##w,
  PT__DUMPI_ATYPES(FM_D)
#undef FM_D
  FMD__END
};
/* FML_<label>: the argument bytes of a fixed function (at most 16 x 8);
 * in (FM_VAR / 2, 0) one with arrays or status lists (each counts
 * FM_ARR); below, the others. */
#define A(T, N, L, CA, CB) +((CA) >= 0 ? FM_VAR : FMD_##T##_T)
#define X(label, name, sem, coll, order, args) FML_##label = 0 PT__EXPAND args,
enum { PT__DUMPI_FUNCS(X) FML__END };
#undef X
#undef A
#define FM_WAITS(sem)                                                        \
  ((sem) == PT__DS_WAIT || (sem) == PT__DS_TEST || (sem) == PT__DS_WAITANY || \
   (sem) == PT__DS_TESTANY || (sem) == PT__DS_WAITALL ||                     \
   (sem) == PT__DS_TESTALL || (sem) == PT__DS_WAITSOME ||                    \
   (sem) == PT__DS_TESTSOME)
/* The functions fm_ maps (the others are the generic path's). */
#define FM_TAKES(fl, sem)                                                    \
  ((fl) >= 0 ? (sem) == PT__DS_NONE || (sem) == PT__DS_SEND ||               \
                   (sem) == PT__DS_ISEND || (sem) == PT__DS_IRECV ||         \
                   (sem) == PT__DS_SEND_INIT || (sem) == PT__DS_RECV_INIT || \
                   (sem) == PT__DS_COLL                                      \
   : (fl) > FM_VAR / 2 ? FM_WAITS(sem) : 0)
/* Argument name N is role s (string literals: folded by the compiler). */
#define FM_IS(N, s) (sizeof(N) == sizeof(s) && !__builtin_memcmp(N, s, sizeof(s)))

static PT_ALWAYS_INLINE uint32_t fm_be32(const uint8_t *q) {
  return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 |
         q[3];
}
static PT_ALWAYS_INLINE uint16_t fm_be16(const uint8_t *q) {
  return (uint16_t)(q[0] << 8 | q[1]);
}
/* One fixed-width argument value at *q (wire: a constant), *q moved on. */
static PT_ALWAYS_INLINE int64_t fm_arg(const uint8_t **q, int wire) {
  const uint8_t *p = *q;
  switch (wire) {
    case PT__DW_I32: *q += 4; return (int32_t)fm_be32(p);
    case PT__DW_I64:
      *q += 8;
      return (int64_t)((uint64_t)fm_be32(p) << 32 | fm_be32(p + 4));
    case PT__DW_H16: *q += 2; return (int16_t)fm_be16(p);
    case PT__DW_U8: *q += 1; return p[0];
    case PT__DW_S8: *q += 1; return (int8_t)p[0];
    default: return 0; /* (not a fixed width: never used) */
  }
}
static PT_ALWAYS_INLINE void fm_attr(pt_attr *a, uint64_t key, int64_t v) {
  a->key = key;
  a->val.type = PT_TYPE_INT;
  a->val.count = 0;
  a->val.v.i = v;
}
/* An integer array (status: a status list, 5 ints per status) at *q,
 * bounds checked against end: its elements into the arena, *n of them;
 * 0 when cut short (*q not moved), -1 out of memory. */
static PT_ALWAYS_INLINE int fm_ints(const uint8_t **q, const uint8_t *end,
                                    int status, pt__arena *a, int64_t **out,
                                    uint32_t *n) {
  const uint8_t *p = *q;
  if (end - p < 4) return 0;
  int32_t c = (int32_t)fm_be32(p);
  uint64_t k = c > 0 ? (uint64_t)c : 0;
  p += 4;
  if ((uint64_t)(end - p) < k * (status ? 14 : 4)) return 0;
  int64_t *v = pt__arena_alloc(a, (size_t)(k ? k * (status ? 5 : 1) : 1) *
                                      sizeof(int64_t));
  if (!v) return -1;
  if (status) {
    for (uint64_t j = 0; j < k; j++, p += 14) {
      v[5 * j] = (int32_t)fm_be32(p);          /* bytes */
      v[5 * j + 1] = (int32_t)fm_be32(p + 4);  /* source */
      v[5 * j + 2] = p[8];                     /* cancelled */
      v[5 * j + 3] = p[9];                     /* error */
      v[5 * j + 4] = (int32_t)fm_be32(p + 10); /* tag */
    }
    k *= 5;
  } else {
    for (uint64_t j = 0; j < k; j++, p += 4) v[j] = (int32_t)fm_be32(p);
  }
  *q = p;
  *out = v;
  *n = (uint32_t)k;
  return 1;
}

/* The arguments' role values fm_map reads (0, or NULL and 0: the function
 * has no such argument, or a status list not recorded). */
typedef struct fm_roles {
  int64_t count, datatype, dest, source, tag, comm, request, flag, index,
      outcount;
  const int64_t *requests, *indices, *status;
  uint32_t nrequests, nindices, nstatus;
  int single; /* the status list is one status (MPI_Wait...) */
} fm_roles;

/* The body of fm_<label> after its arguments: the times, the ENTER's
 * extras, the events (label, name, meaning, argument count: constants;
 * n: the ENTER's attributes so far, the arguments; rv: their roles). */
static PT_ALWAYS_INLINE int fm_map(mapper *m, const uint8_t *p,
                                   uint32_t cpu_off, uint32_t wall_off,
                                   pt_attr *at, uint32_t n, unsigned label,
                                   const char *name, pt__dumpi_sem sem,
                                   unsigned nargs, const fm_roles *rv) {
  tstream *th = m->th;
  unsigned mask = p[2];
  const uint8_t *q = p + 3;
  int64_t thread = 0;
  if (mask & PT__DUMPI_MASK_THREAD) {
    thread = fm_be16(q);
    q += 2;
  }
  const uint8_t *cpu = q;
  if (mask & PT__DUMPI_MASK_CPU) q += 12;
  /* times (map_call) */
  int64_t ws = 0, we = 0;
  int have_wall = (mask & PT__DUMPI_MASK_WALL) != 0;
  if (have_wall) {
    ws = unwrap((int64_t)wall_off + fm_be16(q), &th->wall_base,
                &th->wall_last) * NS + fm_be32(q + 2);
    we = unwrap((int64_t)wall_off + fm_be16(q + 6), &th->wall_base,
                &th->wall_last) * NS + fm_be32(q + 8);
  }
  uint64_t last = th->last_time;
  uint64_t t0 = have_wall && ws >= 0 ? (uint64_t)ws : last;
  uint64_t t1 = have_wall && we >= 0 ? (uint64_t)we : t0;
  int clamped = 0;
  if (t0 < last) {
    dwarn(m->f, W_TIME, "call %s starts before the previous call of its "
          "thread ended; event times clamped", name);
    t0 = last;
    clamped = 1;
  }
  if (t1 < t0) {
    t1 = t0;
    clamped = 1;
  }
  th->last_time = t1;
  /* the ENTER's extras after its arguments */
  if (thread) fm_attr(&at[n++], m->extra_id[EX_THREAD], thread);
  if (mask != PT__DUMPI_MASK_DEFAULT)
    fm_attr(&at[n++], m->extra_id[EX_MASK], mask);
  if (mask & PT__DUMPI_MASK_CPU)
    fm_attr(&at[n++], m->extra_id[EX_CPU_START],
            unwrap((int64_t)cpu_off + fm_be16(cpu), &th->cpu_base,
                   &th->cpu_last) * NS + fm_be32(cpu + 2));
  if (clamped) {
    int64_t *w = pt__arena_alloc(m->arena, 16);
    if (!w) return PT_ENOMEM;
    w[0] = ws;
    w[1] = we;
    pt_attr *a = &at[n++];
    a->key = m->extra_id[EX_WALL];
    a->val.type = PT_TYPE_INTS;
    a->val.count = 2;
    a->val.v.ints = w;
  }
  pt_event *e = qpush_ev(m, PT_EV_ENTER, t0, label, 0, 0, 0, 0, 0, n,
                         n ? at : NULL);
  if (!e) return PT_ENOMEM;
  /* a status's error field (map_call) */
  for (uint32_t j = 0; rv->status && j + 5 <= rv->nstatus; j += 5) {
    int64_t errf = rv->status[j + 3];
    if ((rv->single && errf != 0) || errf < 0 || errf > 1000) {
      dwarn(m->f, W_STATUSERR, "%s: status error field %lld where MPI "
            "leaves it unset (the writer copies an uninitialised field); "
            "kept as stored, not read as an error", name, (long long)errf);
      break;
    }
  }
  /* the semantic events (map_semantics) */
  int rc = PT_OK;
  if (sem == PT__DS_SEND) {
    rc = p2p_event(m, PT_EV_SEND, t0, rv->dest, rv->tag, rv->comm,
                   (uint64_t)rv->count * type_size(m, rv->datatype));
  } else if (sem == PT__DS_ISEND || sem == PT__DS_IRECV ||
             sem == PT__DS_SEND_INIT || sem == PT__DS_RECV_INIT) {
    int send = sem == PT__DS_ISEND || sem == PT__DS_SEND_INIT;
    rc = req_call(m, send, sem == PT__DS_SEND_INIT || sem == PT__DS_RECV_INIT,
                  send ? rv->dest : rv->source, rv->tag, rv->comm, rv->count,
                  rv->datatype, rv->request, t0);
  } else if (FM_WAITS(sem)) {
    rc = wait_call(m, sem, rv->flag, rv->request, rv->index, rv->outcount,
                   rv->requests, rv->nrequests, rv->indices, rv->nindices,
                   rv->status, rv->nstatus, t1);
  } else if (sem != PT__DS_NONE) { /* (a collective: its counts by role) */
    pt__dumpi_call c;
    c.label = label;
    c.f = pt__dumpi_func_get(label);
    c.iv = &at[0].val.v.i;
    c.ro = role_off[1][label];
    rc = map_semantics(m, &c, t0, t1);
  }
  if (rc < 0) return rc;
  /* LEAVE */
  pt_attr *lat = at + EX__COUNT + 2u * nargs;
  uint32_t ln = 0;
  if (mask & PT__DUMPI_MASK_CPU)
    fm_attr(&lat[ln++], m->extra_id[EX_CPU_STOP],
            unwrap((int64_t)cpu_off + fm_be16(cpu + 6), &th->cpu_base,
                   &th->cpu_last) * NS + fm_be32(cpu + 8));
  if (!qpush_ev(m, PT_EV_LEAVE, t1, label, 0, 0, 0, 0, 0, ln,
                ln ? lat : NULL))
    return PT_ENOMEM;
  return PT_OK;
}

/* The roles fm_map reads, by argument name (the last argument of a name
 * wins, as in role_init). */
#define FM_SCALARS(X, N)                                                     \
  X(N, count) X(N, datatype) X(N, dest) X(N, source) X(N, tag) X(N, comm)    \
  X(N, request) X(N, flag) X(N, index) X(N, outcount)
#define FM_SCALAR(N, r)                                                      \
  if (FM_IS(N, #r)) rv.r = v_;
/* One argument, the k-th: a fixed-width value (checked with the others
 * when the function's are all fixed: chk_ 0), or an integer array or
 * status list (a status list only when the record's mask says so), into
 * the ENTER's next attribute. */
#define A(T, N, L, CA, CB)                                                   \
  if (FMD_##T##_T > 0) {                                                     \
    if (chk_ && end - q < (FMD_##T##_T > 0 ? FMD_##T##_T : 0)) return 0;     \
    int64_t v_ = fm_arg(&q, FMW_##T);                                        \
    fm_attr(&at[n], ids[k], v_);                                             \
    n++;                                                                     \
    FM_SCALARS(FM_SCALAR, N)                                                 \
  } else if ((int)FMD_##T##_T == (int)FM_ARR) {                              \
    int st_ = (int)FMW_##T == (int)PT__DW_STATUS;                            \
    if (!st_ || (mask & PT__DUMPI_MASK_STATUS)) {                            \
      int64_t *v_;                                                           \
      uint32_t nv_;                                                          \
      int r_ = fm_ints(&q, end, st_, m->arena, &v_, &nv_);                   \
      if (r_ <= 0) return r_ < 0 ? PT_ENOMEM : 0;                            \
      pt_attr *a_ = &at[n++];                                                \
      a_->key = ids[k];                                                      \
      a_->val.type = PT_TYPE_INTS;                                           \
      a_->val.count = nv_;                                                   \
      a_->val.v.ints = v_;                                                   \
      if (FM_IS(N, "requests")) rv.requests = v_, rv.nrequests = nv_;        \
      if (FM_IS(N, "indices")) rv.indices = v_, rv.nindices = nv_;           \
      if (st_ && (FM_IS(N, "status") || FM_IS(N, "statuses"))) {             \
        rv.status = v_;                                                      \
        rv.nstatus = nv_;                                                    \
        rv.single = PT__DA_##T == PT__DA_STATUS;                             \
      }                                                                      \
    }                                                                        \
  }                                                                          \
  k++;
#define X(label, name, sem, coll, order, args)                               \
  static long fm_##label(mapper *m, const uint8_t *p, size_t avail,         \
                         uint32_t cpu_off, uint32_t wall_off, pt_attr *at) { \
    const int fl_ = FML_##label;                                             \
    const uint8_t *end = p + avail;                                          \
    unsigned mask = p[2];                                                    \
    size_t h = hdr_len[mask];                                                \
    if (!FM_TAKES(fl_, PT__DS_##sem) || !h || h > avail ||                   \
        (fl_ >= 0 && (size_t)(fl_ >= 0 ? fl_ : 0) > avail - h))              \
      return 0;                                                              \
    const int chk_ = fl_ < 0;                                                \
    const uint8_t *q = p + h;                                                \
    const uint32_t *ids = m->attr_id[label];                                 \
    fm_roles rv = {0};                                                       \
    unsigned k = 0;                                                          \
    uint32_t n = 0;                                                          \
    PT__EXPAND args                                                          \
    (void)end, (void)chk_, (void)ids;                                        \
    int rc = fm_map(m, p, cpu_off, wall_off, at, n, label, name,             \
                    PT__DS_##sem, k, &rv);                                   \
    return rc < 0 ? rc : (long)(q - p);                                      \
  }
PT__DUMPI_FUNCS(X)
#undef X
#undef A
#undef FM_SCALAR

/* Per label: its fm_, NULL where the generic path maps it. */
#define X(label, name, sem, coll, order, args)                               \
  [label] = FM_TAKES(FML_##label, PT__DS_##sem) ? fm_##label : NULL,
static const fm_fn fm_tab[PT__DUMPI_NLABELS] = {PT__DUMPI_FUNCS(X)};
#undef X
static const fm_fn fm_none[PT__DUMPI_NLABELS];

/* The walk's sizing (walk_size) generated per label: wk_<label> steps
 * over the record's arguments, each a constant width or an integer array
 * or status list (its element width a constant), and reads the
 * communicator (the last argument named "comm" of a call that maps to
 * events); walk_fn uses it where walk_nargs says the label is walked so.
 * WK_BAD: an argument it cannot step over (a condition, a string...): no
 * wk_ for that label. */
#define WK_ELEM(T)                                                           \
  ((int)FMW_##T == (int)PT__DW_STATUS   ? 14                                 \
   : (int)FMW_##T == (int)PT__DW_I32ARR ? 4                                  \
   : (int)FMW_##T == (int)PT__DW_H16ARR ? 2                                  \
   : (int)FMW_##T == (int)PT__DW_U8ARR  ? 1                                  \
                                        : 0)
#define WK_BAD(T, CA) ((CA) >= 0 || (FMD_##T##_T <= 0 && !WK_ELEM(T)))
#define A(T, N, L, CA, CB)                                                   \
  if (FMD_##T##_T > 0) {                                                     \
    /* (1: the width in the branch never taken) */                          \
    if (avail - o < (size_t)(FMD_##T##_T > 0 ? FMD_##T##_T : 1)) return 0;  \
    if (sem_ && FM_IS(N, "comm")) *comm = r[o] << 8 | r[o + 1];             \
    o += (size_t)(FMD_##T##_T > 0 ? FMD_##T##_T : 1);                       \
  } else if (WK_ELEM(T) &&                                                   \
             ((int)FMW_##T != (int)PT__DW_STATUS || (r[2] & st_))) {         \
    if (avail - o < 4) return 0;                                             \
    int32_t n_ = (int32_t)fm_be32(r + o);                                    \
    o += 4;                                                                  \
    uint64_t b_ = (uint64_t)(n_ > 0 ? n_ : 0) * (unsigned)WK_ELEM(T);        \
    if (avail - o < b_) return 0;                                            \
    o += (size_t)b_;                                                         \
  }
#define X(label, name, sem, coll, order, args)                               \
  static size_t wk_##label(const uint8_t *r, size_t avail, size_t h,        \
                           int32_t *comm) {                                  \
    const int sem_ = PT__DS_##sem != PT__DS_NONE;                            \
    const unsigned st_ = PT__DUMPI_MASK_STATUS;                              \
    size_t o = h;                                                            \
    (void)sem_, (void)st_, (void)comm, (void)avail, (void)r;                 \
    PT__EXPAND args                                                          \
    return o;                                                                \
  }
PT__DUMPI_FUNCS(X)
#undef X
#undef A
#define A(T, N, L, CA, CB) +WK_BAD(T, CA)
#define X(label, name, sem, coll, order, args)                               \
  [label] = (0 PT__EXPAND args) == 0 ? wk_##label : NULL,
static const wk_fn wk_tab[PT__DUMPI_NLABELS] = {PT__DUMPI_FUNCS(X)};
#undef X
#undef A

/* ======================================================================== */
/* Attribute key assignment (shared by the source and parse_mem)            */
/* ======================================================================== */

typedef struct akeys {
  uint32_t id[PT__DUMPI_NLABELS][PT__DUMPI_MAX_ARGS + 1];
  uint32_t extra[EX__COUNT];
  size_t n;
  const char *name[PT__DUMPI_NLABELS * 4 + EX__COUNT];
  uint32_t type[PT__DUMPI_NLABELS * 4 + EX__COUNT];
} akeys;

static uint32_t akey(akeys *k, const char *name, uint32_t type) {
  for (size_t i = 0; i < k->n; i++)
    if (k->type[i] == type && strcmp(k->name[i], name) == 0) return (uint32_t)i;
  k->name[k->n] = name;
  k->type[k->n] = type;
  return (uint32_t)k->n++;
}

/* Keys for the extras and for every argument of the labels used. */
static int akeys_build(akeys *k, const uint32_t *label_used) {
  k->n = 0;
  for (unsigned e = 0; e < EX__COUNT; e++)
    k->extra[e] = akey(k, extra_names[e], extra_types[e]);
  for (unsigned l = 0; l < PT__DUMPI_NLABELS; l++) {
    const pt__dumpi_func *f = pt__dumpi_func_get(l);
    if (!f || !label_used[l]) continue;
    if (k->n + 2u * f->nargs > sizeof k->name / sizeof k->name[0])
      return PT_ELIMIT;
    for (unsigned a = 0; a < f->nargs; a++) {
      k->id[l][a] = akey(k, f->args[a].name, arg_mtype(f->args[a].type));
      if (pt__dumpi_atype_wire(f->args[a].type) == PT__DW_STRARR2)
        k->id[l][PT__DUMPI_MAX_ARGS] =
            akey(k, f->args[a].name, PT_TYPE_STRING);
    }
  }
  return PT_OK;
}

/* ======================================================================== */
/* The source                                                                */
/* ======================================================================== */

typedef struct rankst {
  dfile f;
  mapper m;
  size_t pos;     /* next record (a one-thread file) */
  size_t ts0;     /* its threads: dsrc.ts[ts0 .. ts0 + f.ntids) */
  pt__dumpi_call call;
} rankst;

typedef struct dsrc {
  char *meta_path;
  size_t nranks;
  rankst *r;
  akeys keys;
  pt_def *defs;
  size_t ndefs, capdefs, defi;
  pt__arena mem;
  tstream *ts;  /* the threads of all ranks, rank by rank */
  size_t nts;
  size_t *heap; /* threads (indices in ts) by head event time */
  uint64_t *hkey; /* the head event time of heap[i], kept beside it */
  size_t nheap;
  /* The least of the top's children (key, then thread), valid when
   * lim_ok: while the top's next event stays below it, the top stays the
   * top and the heap is not touched (a thread's events come in runs). */
  uint64_t lim_key;
  size_t lim_who;
  int lim_ok;
  int started;
  int runs;        /* pt_source_opts.runs: batches not cut at the heads */
  pt_item defitem; /* src_next_batch's definition */
  int deferred;     /* src_next_batch's error, returned at the next call */
  pt__dcomm dc; /* the communicators, replayed */
  const fm_fn *fm; /* fm_tab, or fm_none: every call the generic way (tests) */
  char err[700];
} dsrc;

static int def_add(dsrc *s, pt_def **out, uint32_t kind, uint64_t id) {
  if (PT_GROW(s->defs, s->capdefs, s->ndefs + 1, 64)) return PT_ENOMEM;
  *out = &s->defs[s->ndefs++];
  pt_def_init(*out, kind, id);
  return PT_OK;
}

static const char *sdup(dsrc *s, const char *fmt, ...) PT_PRINTF(2, 3);
static const char *sdup(dsrc *s, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return pt__arena_strdup(&s->mem, buf);
}

static int kv_add(dsrc *s, uint64_t scope, const char *name,
                  const char *value) {
  pt_def *d;
  if (def_add(s, &d, PT_DEF_KEYVAL, s->ndefs) < 0) return PT_ENOMEM;
  d->parent = scope;
  d->name = pt__arena_strdup(&s->mem, name);
  d->s1 = pt__arena_strdup(&s->mem, value ? value : "");
  if (!d->name || !d->s1) return PT_ENOMEM;
  return PT_OK;
}

/* "v0,v1,..." of n ints into the arena. */
static const char *ints_str(pt__arena *a, const int64_t *v, size_t n) {
  pt__buf b = {0};
  char tmp[32];
  for (size_t i = 0; i < n; i++) {
    int l = snprintf(tmp, sizeof tmp, "%s%lld", i ? "," : "", (long long)v[i]);
    if (pt__buf_put(&b, tmp, (size_t)l) < 0) {
      pt__buf_free(&b);
      return NULL;
    }
  }
  if (pt__buf_put(&b, "", 1) < 0) {
    pt__buf_free(&b);
    return NULL;
  }
  char *s = pt__arena_strdup(a, (const char *)b.p);
  pt__buf_free(&b);
  return s;
}

/* "label=count,..." of the nonzero footer slots. */
static const char *footer_str(pt__arena *a, const uint32_t *v) {
  pt__buf b = {0};
  char tmp[32];
  for (unsigned i = 0; i < PT__DUMPI_FOOTER_SLOTS; i++) {
    if (!v[i]) continue;
    int l = snprintf(tmp, sizeof tmp, "%s%u=%u", b.len ? "," : "", i, v[i]);
    if (pt__buf_put(&b, tmp, (size_t)l) < 0) goto oom;
  }
  if (pt__buf_put(&b, "", 1) < 0) goto oom;
  char *s = pt__arena_strdup(a, (const char *)b.p);
  pt__buf_free(&b);
  return s;
oom:
  pt__buf_free(&b);
  return NULL;
}

/* Per-rank keyvals: everything of the .bin that is not a call. */
static int rank_keyvals(dsrc *s, size_t r) {
  dfile *f = &s->r[r].f;
  uint64_t g = r;
  char tmp[64];
  int rc = 0;
#define KV(name, value)                                                      \
  do {                                                                       \
    if ((rc = kv_add(s, g, name, value)) < 0) return rc;                     \
  } while (0)
  snprintf(tmp, sizeof tmp, "%u", f->cpu_off);
  KV("dumpi.cpu_offset", tmp);
  snprintf(tmp, sizeof tmp, "%u", f->wall_off);
  KV("dumpi.wall_offset", tmp);
  if (!f->has_index) KV("dumpi.index", "none");
  if (f->truncated) KV("dumpi.truncated", "1");
  if (!f->has_tail) return PT_OK;
  snprintf(tmp, sizeof tmp, "%d.%d.%d", f->version[0], f->version[1],
           f->version[2]);
  KV("dumpi.version", tmp);
  snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)f->starttime);
  KV("dumpi.starttime", tmp);
  KV("dumpi.hostname", f->host);
  KV("dumpi.username", f->user);
  const char *v;
  if (!(v = ints_str(&s->mem, f->meshcrd,
                     f->nmeshcrd > 0 ? (size_t)f->nmeshcrd : 0)))
    return PT_ENOMEM;
  KV("dumpi.meshcrd", v);
  if (!(v = ints_str(&s->mem, f->meshsize,
                     f->nmeshsize > 0 ? (size_t)f->nmeshsize : 0)))
    return PT_ENOMEM;
  KV("dumpi.meshsize", v);
  if (f->has_footer) {
    if (!(v = footer_str(&s->mem, f->called))) return PT_ENOMEM;
    KV("dumpi.footer.called", v);
    if (!(v = footer_str(&s->mem, f->ignored))) return PT_ENOMEM;
    KV("dumpi.footer.ignored", v);
  }
  if (!(v = ints_str(&s->mem, f->sizes, f->nsizes))) return PT_ENOMEM;
  KV("dumpi.typesizes", v);
  for (size_t i = 0; i < f->nperf; i++) {
    snprintf(tmp, sizeof tmp, "dumpi.perflabel.%zu", i);
    KV(tmp, f->perf[i]);
  }
  for (size_t i = 0; i < f->naddr; i++) {
    snprintf(tmp, sizeof tmp, "dumpi.func.%llu",
             (unsigned long long)f->addr[i]);
    KV(tmp, f->addrname[i]);
  }
  for (size_t i = 0; i < f->nkv; i++) {
    const char *k = sdup(s, "dumpi.keyval.%s", f->kv[2 * i]);
    if (!k) return PT_ENOMEM;
    KV(k, f->kv[2 * i + 1]);
  }
#undef KV
  return PT_OK;
}

static uint32_t region_role(const pt__dumpi_func *f) {
  switch ((pt__dumpi_sem)f->sem) {
    case PT__DS_COLL:
      return f->coll == PT_COLL_BARRIER ? PT_ROLE_BARRIER
                                        : PT_ROLE_COLLECTIVE;
    case PT__DS_IO_READ: case PT__DS_IO_WRITE: case PT__DS_IO_IREAD:
    case PT__DS_IO_IWRITE: case PT__DS_IO_SREAD: case PT__DS_IO_SWRITE:
    case PT__DS_IO_SEND:
      return PT_ROLE_FILE_IO;
    case PT__DS_NONE: case PT__DS_COMM_RANK: case PT__DS_COMM_SIZE:
    case PT__DS_RMA_PUT: case PT__DS_RMA_GET: case PT__DS_RMA_ACC:
    case PT__DS_WIN_CREATE: case PT__DS_WIN_FREE:
      return f->label >= PT__DUMPI_FUNC_ENTER ? PT_ROLE_ARTIFICIAL
                                              : PT_ROLE_FUNCTION;
    default:
      return PT_ROLE_POINT2POINT;
  }
}

/* All definitions, built at open. */
static int build_defs(dsrc *s, char **meta_kv, size_t nmeta) {
  pt_def *d;
  uint64_t tmin = UINT64_MAX, tmax = 0;
  (void)tmin;
  (void)tmax;
  if (def_add(s, &d, PT_DEF_CLOCK, 0) < 0) return PT_ENOMEM;
  d->i0 = NS; /* ticks per second; epoch unknown (CLOCK_MONOTONIC) */
  d->parent = PT_NONE; /* no start: "seconds from the start" count from
                          the first call, not from tick 0 */
  const char *host = "";
  for (size_t i = 0; i < nmeta; i++) {
    const char *k = sdup(s, "dumpi.meta.%s", meta_kv[2 * i]);
    if (!k || kv_add(s, PT_NONE, k, meta_kv[2 * i + 1]) < 0) return PT_ENOMEM;
    if (strcmp(meta_kv[2 * i], "hostname") == 0) host = meta_kv[2 * i + 1];
  }
  if (def_add(s, &d, PT_DEF_SYSTEM_NODE, 0) < 0) return PT_ENOMEM;
  d->parent = PT_NONE;
  d->name = pt__arena_strdup(&s->mem, host);
  d->s1 = "node";
  uint32_t used[PT__DUMPI_NLABELS] = {0};
  uint64_t *members = pt__arena_alloc(&s->mem, 8 * s->nranks + 8);
  if (!members) return PT_ENOMEM;
  for (size_t r = 0; r < s->nranks; r++) {
    if (def_add(s, &d, PT_DEF_LOCATION_GROUP, r) < 0) return PT_ENOMEM;
    d->parent = 0;
    d->ref = PT_NONE;
    d->i1 = (int64_t)r;
    d->name = sdup(s, "MPI Rank %zu", r);
    if (def_add(s, &d, PT_DEF_LOCATION, r) < 0) return PT_ENOMEM;
    d->parent = r;
    d->i0 = PT_LOCATION_THREAD;
    d->name = sdup(s, "Master thread of rank %zu", r);
    /* further threads of the rank: location nranks x (thread's position
     * among the rank's thread ids) + r, as paratrace's recorder numbers
     * them; the lowest thread id (0 when present) is location r */
    for (size_t t = 1; t < s->r[r].f.ntids; t++) {
      if (def_add(s, &d, PT_DEF_LOCATION, s->nranks * t + r) < 0)
        return PT_ENOMEM;
      d->parent = r;
      d->i0 = PT_LOCATION_THREAD;
      d->name = sdup(s, "Thread %u of rank %zu",
                     (unsigned)s->r[r].f.tids[t], r);
    }
    members[r] = r;
    if (rank_keyvals(s, r) < 0) return PT_ENOMEM;
    for (unsigned l = 0; l < PT__DUMPI_NLABELS; l++)
      used[l] += s->r[r].f.label_count[l];
  }
  if (def_add(s, &d, PT_DEF_GROUP, 0) < 0) return PT_ENOMEM;
  d->i0 = PT_GROUP_COMM_LOCATIONS;
  d->i1 = PT_PARADIGM_MPI;
  d->name = "MPI_COMM_WORLD ranks";
  d->nmembers = s->nranks;
  d->members = members;
  if (def_add(s, &d, PT_DEF_GROUP, 1) < 0) return PT_ENOMEM;
  d->i0 = PT_GROUP_COMM_SELF;
  d->i1 = PT_PARADIGM_MPI;
  d->name = "MPI_COMM_SELF";
  if (def_add(s, &d, PT_DEF_COMM, PT__DUMPI_COMM_WORLD) < 0) return PT_ENOMEM;
  d->parent = PT_NONE;
  d->ref = 0;
  d->i0 = PT_PARADIGM_MPI;
  d->name = "MPI_COMM_WORLD";
  if (def_add(s, &d, PT_DEF_COMM, PT__DUMPI_COMM_SELF) < 0) return PT_ENOMEM;
  d->parent = PT_NONE;
  d->ref = 1;
  d->i0 = PT_PARADIGM_MPI;
  d->name = "MPI_COMM_SELF";
  for (unsigned l = 0; l < PT__DUMPI_NLABELS; l++) {
    const pt__dumpi_func *f = pt__dumpi_func_get(l);
    if (!f || !used[l]) continue;
    if (def_add(s, &d, PT_DEF_REGION, l) < 0) return PT_ENOMEM;
    d->i0 = region_role(f);
    d->i1 = l >= PT__DUMPI_FUNC_ENTER ? PT_PARADIGM_MEASUREMENT
                                      : PT_PARADIGM_MPI;
    d->name = f->name;
  }
  int rc = akeys_build(&s->keys, used);
  if (rc < 0) return rc;
  for (size_t i = 0; i < s->keys.n; i++) {
    if (def_add(s, &d, PT_DEF_ATTRIBUTE, i) < 0) return PT_ENOMEM;
    d->i0 = s->keys.type[i];
    d->name = s->keys.name[i];
  }
  return PT_OK;
}

/* Communicators other than WORLD/SELF.  Those the replay worked out
 * (dumpi_comm.c) are COMM UCOMM + index over a COMM_GROUP of their
 * COMM_WORLD ranks.  A handle of a rank that is used while its
 * communicator is unknown is named by the id ((rank + 1) << 16 | DUMPI id)
 * ("communicator 4 of rank 0").  Definitions must precede events, so these
 * are made for every (rank, handle) a point-to-point or collective call
 * uses and that some binding leaves unknown (or none binds). */
static int user_comm_defs(dsrc *s) {
  const pt__dcomm *dc = &s->dc;
  for (size_t i = 1; i < dc->ncomms; i++) {
    const pt__dcomm_comm *c = &dc->comms[i];
    if (c->parent < 0) continue; /* a rank's COMM_SELF */
    pt_def *d;
    uint64_t *mem = pt__arena_alloc(&s->mem, (c->n ? c->n : 1) * 8);
    if (!mem) return PT_ENOMEM;
    for (uint32_t j = 0; j < c->n; j++) mem[j] = (uint64_t)c->members[j];
    if (def_add(s, &d, PT_DEF_GROUP, UCOMM + i) < 0) return PT_ENOMEM;
    d->i0 = PT_GROUP_COMM_GROUP;
    d->i1 = PT_PARADIGM_MPI;
    d->name = sdup(s, "%s #%zu ranks", c->fn, i);
    d->nmembers = c->n;
    d->members = mem;
    if (c->nremote) {
      /* an intercommunicator (as the MPI recorder and OTF2 have it): its
       * group is the one with the lower COMM_WORLD rank, the other one is
       * GROUP 2 x UCOMM + index, named by KEYVAL otf2:intercomm */
      uint64_t *rm = pt__arena_alloc(&s->mem, c->nremote * 8);
      if (!rm) return PT_ENOMEM;
      for (uint32_t j = 0; j < c->nremote; j++) rm[j] = (uint64_t)c->remote[j];
      if (def_add(s, &d, PT_DEF_GROUP, 2 * UCOMM + i) < 0) return PT_ENOMEM;
      d->i0 = PT_GROUP_COMM_GROUP;
      d->i1 = PT_PARADIGM_MPI;
      d->name = sdup(s, "%s #%zu remote group", c->fn, i);
      d->nmembers = c->nremote;
      d->members = rm;
      char v[32];
      snprintf(v, sizeof v, "%llu", (unsigned long long)(2 * UCOMM + i));
      if (kv_add(s, UCOMM + i, "otf2:intercomm", v) < 0) return PT_ENOMEM;
    }
    const pt__dcomm_comm *pc = &dc->comms[c->parent];
    uint64_t parent = c->nremote ? PT_NONE
                      : c->parent == 0 ? PT__DUMPI_COMM_WORLD
                      : pc->parent < 0 ? PT__DUMPI_COMM_SELF
                                       : UCOMM + (uint64_t)c->parent;
    if (def_add(s, &d, PT_DEF_COMM, UCOMM + i) < 0) return PT_ENOMEM;
    d->parent = parent;
    d->ref = UCOMM + i;
    d->i0 = PT_PARADIGM_MPI;
    d->name = sdup(s, "%s #%zu", c->fn, i);
  }
  for (size_t r = 0; r < s->nranks; r++) {
    const uint8_t *used = s->r[r].f.comms_used;
    const pt__dcomm_bind *b = dc->bind ? dc->bind[r] : NULL;
    size_t nb = dc->nbind ? dc->nbind[r] : 0;
    for (unsigned id = 0; used && id < 65536; id++) {
      if (!used[id / 8]) { /* (a byte of none: its 8 ids at once) */
        id |= 7;
        continue;
      }
      if (!(used[id / 8] & (1u << (id % 8)))) continue;
      if (id == PT__DUMPI_COMM_WORLD || id == PT__DUMPI_COMM_SELF) continue;
      int bound = 0, unknown = 0;
      for (size_t j = 0; j < nb; j++)
        if ((uint16_t)b[j].handle == id) {
          bound = 1;
          unknown |= b[j].comm == -1; /* (-2: freed) */
        }
      if (bound && !unknown) continue;
      pt_def *d;
      if (def_add(s, &d, PT_DEF_COMM, ((uint64_t)(r + 1) << 16) | id) < 0)
        return PT_ENOMEM;
      d->parent = PT_NONE;
      d->ref = PT_NONE;
      d->i0 = PT_PARADIGM_MPI;
      d->name = sdup(s, "communicator %d of rank %zu", (int)(int16_t)id, r);
    }
  }
  return PT_OK;
}

/* The model communicator that DUMPI communicator id h of rank r names at
 * record `call`: WORLD, SELF, a replayed one (its latest binding), or
 * PT_NONE (unknown). */
static uint64_t comm_at(const dsrc *s, size_t r, int32_t h, uint64_t call) {
  if (h == PT__DUMPI_COMM_WORLD || h == PT__DUMPI_COMM_SELF) return (uint64_t)h;
  const pt__dcomm_bind *b = s->dc.bind ? s->dc.bind[r] : NULL;
  size_t nb = s->dc.nbind ? s->dc.nbind[r] : 0;
  int32_t comm = -1;
  for (size_t j = 0; j < nb && b[j].call <= call; j++)
    if (b[j].handle == h) comm = b[j].comm;
  return comm >= 0 ? UCOMM + (uint64_t)comm : PT_NONE;
}

/* Files and I/O handles of the MPI_File_open calls (as the MPI recorder
 * defines them: a file's id from its name, so that the ranks agree, one
 * handle per open, and the MPI-IO paradigm once). */
static int file_defs(dsrc *s) {
  int paradigm = 0, rc = PT_OK;
  pt__map files = {0}; /* file ids defined */
  for (size_t r = 0; r < s->nranks && rc == PT_OK; r++) {
    const dfile *f = &s->r[r].f;
    for (size_t i = 0; i < f->nfopens && rc == PT_OK; i++) {
      const struct dfopen *o = &f->fopens[i];
      pt_def *d;
      rc = PT_ENOMEM;
      if (!paradigm++ && (kv_add(s, 0, "otf2:io_paradigm", "1 0 MPI-IO") < 0 ||
                          kv_add(s, 0, "otf2:io_paradigm.name", "MPI I/O") < 0))
        break;
      uint64_t file = pt__fnv1a(o->name, 0) & 0xffffffffu;
      if (!pt__map_get(&files, file, NULL)) {
        if (pt__map_put(&files, file, 0) < 0 ||
            def_add(s, &d, PT_DEF_FILE, file) < 0)
          break;
        d->parent = PT_NONE;
        d->name = o->name;
      }
      if (def_add(s, &d, PT_DEF_IO_HANDLE, io_handle_id(r, o->fh, o->gen)) < 0)
        break;
      d->parent = PT_NONE;
      d->ref = file;
      d->ref2 = comm_at(s, r, o->comm, o->call);
      d->name = o->name;
      rc = PT_OK;
    }
  }
  pt__map_free(&files);
  return rc;
}

/* Replay the communicator calls of every rank (dumpi_comm.c). */
static int replay_comms(dsrc *s) {
  pt__dcomm_op **ops = malloc((s->nranks ? s->nranks : 1) * sizeof *ops);
  size_t *nops = malloc((s->nranks ? s->nranks : 1) * sizeof *nops);
  int rc = ops && nops ? PT_OK : PT_ENOMEM;
  for (size_t r = 0; rc == PT_OK && r < s->nranks; r++) {
    ops[r] = s->r[r].f.cops;
    nops[r] = s->r[r].f.ncops;
  }
  if (rc == PT_OK) rc = pt__dcomm_resolve(&s->dc, s->nranks, ops, nops);
  free(ops);
  free(nops);
  for (size_t r = 0; rc == PT_OK && r < s->nranks; r++) {
    mapper *m = &s->r[r].m;
    m->dc = &s->dc;
    m->bind = s->dc.bind[r];
    m->nbind = s->dc.nbind[r];
  }
  return rc;
}

/* .meta: key=value lines. */
static int read_meta(const char *path, pt__arena *a, char ***kv, size_t *n,
                     pt_error *err) {
  char *text;
  size_t len;
  int rc = pt__read_file(path, 1 << 20, &text, &len);
  if (rc < 0)
    return pt__err(err, rc, "%s: cannot read the .meta file (%s)", path,
                   pt_strerror(rc));
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  char **out = pt__arena_alloc(a, 2 * lines * sizeof *out);
  if (!out) {
    free(text);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  size_t m = 0, lineno = 0;
  for (char *p = text; *p;) {
    char *e = strchr(p, '\n');
    if (e) *e = 0;
    lineno++;
    if (*p) {
      char *eq = strchr(p, '=');
      if (!eq) {
        free(text);
        return pt__err(err, PT_ECORRUPT, "%s: line %zu: not key=value", path,
                       lineno);
      }
      *eq = 0;
      out[2 * m] = pt__arena_strdup(a, p);
      out[2 * m + 1] = pt__arena_strdup(a, eq + 1);
      if (!out[2 * m] || !out[2 * m + 1]) {
        free(text);
        return pt__err(err, PT_ENOMEM, "out of memory");
      }
      m++;
    }
    if (!e) break;
    p = e + 1;
  }
  free(text);
  *kv = out;
  *n = m;
  return PT_OK;
}

static const char *kv_get(char **kv, size_t n, const char *key) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(kv[2 * i], key) == 0) return kv[2 * i + 1];
  return NULL;
}

static void src_close(void *st) {
  dsrc *s = st;
  if (!s) return;
  for (size_t r = 0; r < s->nranks; r++) {
    dfile_free(&s->r[r].f);
    mapper_free(&s->r[r].m);
  }
  free(s->r);
  for (size_t i = 0; i < s->nts; i++) {
    free(s->ts[i].q);
    pt__arena_free(&s->ts[i].arena);
  }
  free(s->ts);
  pt__dcomm_free(&s->dc);
  free(s->defs);
  free(s->heap);
  free(s->hkey);
  pt__arena_free(&s->mem);
  free(s->meta_path);
  free(s);
}

/* After build_defs: the thread streams of every rank and the heap. */
static int streams_init(dsrc *s) {
  s->nts = 0;
  for (size_t r = 0; r < s->nranks; r++) {
    s->r[r].ts0 = s->nts;
    s->nts += s->r[r].f.ntids;
    s->r[r].m.attr_id = (const uint32_t(*)[PT__DUMPI_MAX_ARGS + 1])s->keys.id;
    s->r[r].m.extra_id = s->keys.extra;
  }
  s->ts = calloc(s->nts, sizeof *s->ts);
  s->heap = calloc(s->nts, sizeof *s->heap);
  s->hkey = calloc(s->nts, sizeof *s->hkey);
  if (!s->ts || !s->heap || !s->hkey) return PT_ENOMEM;
  for (size_t r = 0; r < s->nranks; r++)
    for (size_t t = 0; t < s->r[r].f.ntids; t++) {
      tstream *ts = &s->ts[s->r[r].ts0 + t];
      ts->rank = r;
      ts->loc = s->nranks * t + r;
      if (s->r[r].f.ntids > 1) ts->ti = s->r[r].f.tfirst[t];
    }
  return PT_OK;
}

static int is_bin(const uint8_t *head, size_t n) {
  return n >= 8 && be64(head) == PT__DUMPI_HEAD_MAGIC;
}

static int src_open(void **st, const char *path, const pt_source_opts *o,
                    pt_error *err) {
  pthread_once(&role_once, role_init);
  dsrc *s = calloc(1, sizeof *s);
  if (!s) return pt__err(err, PT_ENOMEM, "out of memory");
  s->fm = fm_tab;
  s->runs = o && o->runs;
  s->meta_path = strdup(path);
  if (!s->meta_path) {
    free(s);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  char **kv = NULL;
  size_t nkv = 0;
  int rc;
  /* A single .bin (by its magic) is a one-rank trace set. */
  uint8_t head[8];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  long long hn = fd >= 0 ? pt__pread_all(fd, head, 8, 0) : -1;
  if (fd >= 0) close(fd);
  int single = hn == 8 && is_bin(head, 8);
  char **bins = NULL;
  if (single) {
    s->nranks = 1;
    bins = pt__arena_alloc(&s->mem, sizeof *bins);
    if (!bins || !(bins[0] = pt__arena_strdup(&s->mem, path))) {
      rc = pt__err(err, PT_ENOMEM, "out of memory");
      goto fail;
    }
  } else {
    if ((rc = read_meta(path, &s->mem, &kv, &nkv, err)) < 0) goto fail;
    const char *np = kv_get(kv, nkv, "numprocs");
    const char *pre = kv_get(kv, nkv, "fileprefix");
    char *endp;
    long long nr = np ? strtoll(np, &endp, 10) : -1;
    if (!np || *endp || nr <= 0 || nr > 1000000 || !pre || !*pre) {
      rc = pt__err(err, PT_ECORRUPT, "%s: the .meta file needs numprocs "
                   "(1..1000000) and fileprefix", path);
      goto fail;
    }
    s->nranks = (size_t)nr;
    bins = pt__arena_alloc(&s->mem, s->nranks * sizeof *bins);
    if (!bins) {
      rc = pt__err(err, PT_ENOMEM, "out of memory");
      goto fail;
    }
    const char *slash = strrchr(path, '/');
    int dlen = slash ? (int)(slash - path + 1) : 0;
    for (size_t r = 0; r < s->nranks; r++)
      if (!(bins[r] = (char *)sdup(s, "%.*s%s-%04zu.bin", dlen, path, pre,
                                   r))) {
        rc = pt__err(err, PT_ENOMEM, "out of memory");
        goto fail;
      }
  }
  s->r = calloc(s->nranks, sizeof *s->r);
  if (!s->r) {
    rc = pt__err(err, PT_ENOMEM, "out of memory");
    goto fail;
  }
  for (size_t r = 0; r < s->nranks; r++) {
    rankst *k = &s->r[r];
    if ((rc = dfile_open(&k->f, bins[r], o ? o->warn : NULL,
                         o ? o->warn_user : NULL, err)) < 0)
      goto fail;
    k->pos = k->f.stream_begin;
    k->m.f = &k->f;
    k->m.rank = r;
    k->m.nranks = s->nranks;
  }
  /* Files of a version other than 13: once per version, not once per file
   * (a 1,024-rank set of an older DUMPI said it 1,024 times per command) */
  for (size_t r = 0; o && o->warn && r < s->nranks; r++) {
    const dfile *f = &s->r[r].f, *g;
    if (!f->has_tail || f->version[0] == 13) continue;
    size_t n = 0, q = 0;
    for (; q < r; q++) { /* said already at an earlier file of it */
      g = &s->r[q].f;
      if (g->has_tail && !memcmp(g->version, f->version, 3)) break;
    }
    if (q < r) continue;
    for (q = r; q < s->nranks; q++) {
      g = &s->r[q].f;
      n += g->has_tail && !memcmp(g->version, f->version, 3);
    }
    char msg[1400];
    if (s->nranks == 1)
      snprintf(msg, sizeof msg, "%.1000s: written by DUMPI %d.%d.%d; layout "
               "of version 13 assumed", f->path, f->version[0],
               f->version[1], f->version[2]);
    else
      snprintf(msg, sizeof msg, "%.1000s: %zu of the %zu files (the first "
               "%.200s) written by DUMPI %d.%d.%d; layout of version 13 "
               "assumed", path, n, s->nranks, f->path, f->version[0],
               f->version[1], f->version[2]);
    o->warn(o->warn_user, msg);
  }
  if ((rc = replay_comms(s)) < 0 || (rc = build_defs(s, kv, nkv)) < 0 ||
      (rc = user_comm_defs(s)) < 0 || (rc = file_defs(s)) < 0) {
    rc = pt__err(err, rc, "%s: %s while building definitions", path,
                 pt_strerror(rc));
    goto fail;
  }
  if ((rc = streams_init(s)) < 0) {
    rc = pt__err(err, rc, "out of memory");
    goto fail;
  }
  *st = s;
  return PT_OK;
fail:
  src_close(s);
  return rc;
}

/* Find thread t's next record: 1 (t->pending, t->off, t->call set) or 0
 * (no more). */
static int st_locate(dsrc *s, tstream *t) {
  rankst *k = &s->r[t->rank];
  const dfile *f = &k->f;
  if (f->ntids == 1) {
    if (k->pos >= f->stream_end) return 0;
    t->off = k->pos;
    t->call = f->cur_call + 1;
  } else {
    size_t t_idx = (size_t)(t - s->ts) - k->ts0;
    if (t->ti >= f->tfirst[t_idx + 1]) return 0;
    t->off = (size_t)f->roff[f->tcall[t->ti]];
    t->call = f->tcall[t->ti] + 1;
  }
  t->pending = 1;
  return 1;
}

/* The time the pending record's ENTER will have (map_call's t0). */
static uint64_t st_start(const dsrc *s, tstream *t) {
  const dfile *f = &s->r[t->rank].f;
  uint16_t tid;
  pt__dumpi_clock ws;
  uint64_t t0 = t->last_time;
  if (pt__dumpi_peek(f->data + t->off, f->stream_end - t->off, f->wall_off,
                     &tid, &ws) == 1) {
    int64_t v = unwrap(ws.sec, &t->wall_base, &t->wall_last) * NS + ws.nsec;
    if (v >= 0 && (uint64_t)v > t0) t0 = (uint64_t)v;
  }
  return t0;
}

/* Decode and map thread t's pending record into t->q (append: after the
 * events there, which stay valid, and t->qi at the first new one). */
static int st_map(dsrc *s, tstream *t, int append) {
  rankst *k = &s->r[t->rank];
  char why[200];
  if (!append) pt__arena_reset(&t->arena);
  k->f.cur_off = t->off;
  k->f.cur_call = t->call;
  const uint8_t *p = k->f.data + t->off;
  size_t avail = k->f.stream_end - t->off;
  unsigned l = avail >= 3 ? (unsigned)p[0] << 8 | p[1] : PT__DUMPI_NLABELS;
  size_t q0 = append ? t->qn : 0; /* (the call's first event) */
  /* where the call's events go */
  k->m.th = t;
  k->m.loc = t->loc;
  k->m.q = t->q;
  k->m.qn = q0;
  k->m.qcap = t->qcap;
  k->m.arena = &t->arena;
  int rc = PT_OK;
  if (k->m.bi < k->m.nbind && k->m.bind[k->m.bi].call <= t->call)
    rc = uc_apply(&k->m, t->call); /* (a binding is due: rare) */
  pt_attr *at = NULL;
  long n = 0;
  fm_fn fm = l < PT__DUMPI_NLABELS ? s->fm[l] : NULL;
  if (rc < 0) {
    n = rc;
  } else if (fm) { /* the commonest calls: decoded and mapped at once */
    if (!(at = pt__arena_alloc(&t->arena, fm_cap[l] * sizeof *at))) {
      pt__errbuf(s->err, sizeof s->err, PT_ENOMEM,
                 "%s: offset %zu: out of memory", k->f.path, t->off);
      return PT_ENOMEM; /* (as the generic path says it) */
    }
    if ((n = fm(&k->m, p, avail, k->f.cpu_off, k->f.wall_off, at)) < 0)
      rc = (int)n;
    if (!at_cap[l]) at = NULL; /* (the generic path's arguments) */
  }
  if (n == 0) { /* the generic path: decoded, then mapped */
    /* a fixed-argument call's arguments: decoded into its attributes */
    if (l < PT__DUMPI_NLABELS && at_cap[l] && !at &&
        !(at = pt__arena_alloc(&t->arena, at_cap[l] * sizeof *at)))
      n = PT_ENOMEM;
    else
      n = pt__dumpi_decode_scalars(p, avail, k->f.cpu_off, k->f.wall_off,
                                   &k->call, &t->arena, at,
                                   at ? k->m.attr_id[l] : NULL, why,
                                   sizeof why);
    if (n < 0) {
      /* (the decoder gives a reason only for a cut or corrupt record: why
       * is not set when it ran out of memory) */
      if (n == PT_ENOMEM)
        pt__errbuf(s->err, sizeof s->err, PT_ENOMEM,
                   "%s: offset %zu: out of memory", k->f.path, t->off);
      else
        pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT, "%s: offset %zu: %s",
                   k->f.path, t->off, why);
      return n == PT_ENOMEM ? PT_ENOMEM : PT_ECORRUPT;
    }
    rc = map_call(&k->m, &k->call, at);
  }
  if (k->f.ntids == 1) k->pos = t->off + (size_t)(n > 0 ? n : 0);
  else t->ti++;
  t->pending = 0;
  t->q = k->m.q;
  t->qi = q0;
  t->qn = k->m.qn;
  t->qcap = k->m.qcap;
  if (rc < 0) {
    pt__errbuf(s->err, sizeof s->err, rc, "%s: %s", k->f.path,
               pt_strerror(rc));
    return rc;
  }
  return PT_OK;
}

/* Events in a thread's call queue before src_next_batch maps no more
 * calls after it (the calls in it stay in memory until it is used up). */
enum { BATCH_MAX = 256 };

/* src_next_batch's mapping: the next calls of thread t, its one-thread
 * rank's (t->off, t->call: the first), appended to its queue while they
 * are the commonest calls (fm_tab) with no communicator binding due, the
 * queue's last event is at or before le (none: after one call) and it
 * holds fewer than BATCH_MAX, as st_map(s, t, 1) maps each, with the
 * queue lent to the mapper once; *j: raised to the queue's length after
 * the last call whose events are all at or before le (as the caller's
 * scan would find).  PT_OK; 1: the next call (t->off, t->call, pending)
 * is st_map's; or an error (t->qn: the queue before the failed call). */
static int st_run(dsrc *s, tstream *t, uint64_t le, int none, size_t *j) {
  rankst *k = &s->r[t->rank];
  mapper *m = &k->m;
  const uint8_t *data = k->f.data;
  size_t end = k->f.stream_end, off = t->off;
  uint64_t call = t->call;
  if (s->fm != fm_tab) { /* (every call the generic way: st_map's) */
    t->pending = 1;
    return 1;
  }
  int rc = PT_OK;
  m->th = t;
  m->loc = t->loc;
  m->q = t->q;
  m->qn = t->qn;
  m->qcap = t->qcap;
  m->arena = &t->arena;
  for (;;) {
    const uint8_t *p = data + off;
    size_t avail = end - off;
    /* (the calls after the next ones: the ranks' files are read a run at
     * a time, which the hardware's prefetch follows less well; 3.5% of
     * the halo set's read in runs) */
    if (avail > 1024) __builtin_prefetch(p + 1024);
    unsigned l = avail >= 3 ? (unsigned)p[0] << 8 | p[1] : PT__DUMPI_NLABELS;
    fm_fn fm = l < PT__DUMPI_NLABELS ? fm_tab[l] : NULL;
    if (!fm || (m->bi < m->nbind && m->bind[m->bi].call <= call)) {
      rc = 1;
      break;
    }
    k->f.cur_off = off;
    k->f.cur_call = call;
    size_t qn = m->qn;
    pt_attr *at = pt__arena_alloc(&t->arena, fm_cap[l] * sizeof *at);
    if (!at) { /* (as st_map says it) */
      rc = PT_ENOMEM;
      pt__errbuf(s->err, sizeof s->err, PT_ENOMEM,
                 "%s: offset %zu: out of memory", k->f.path, off);
      break;
    }
    long n = fm(m, p, avail, k->f.cpu_off, k->f.wall_off, at);
    if (n == 0) { /* (st_map's generic path: nothing was written) */
      rc = 1;
      break;
    }
    if (n < 0) {
      rc = (int)n;
      m->qn = qn;
      pt__errbuf(s->err, sizeof s->err, rc, "%s: %s", k->f.path,
                 pt_strerror(rc));
      break;
    }
    k->pos = off + (size_t)n;
    if (none || m->q[m->qn - 1].u.event.time > le) break;
    *j = m->qn;
    if (m->qn >= BATCH_MAX || k->pos >= end) break;
    off = k->pos;
    call++;
  }
  t->off = off;
  t->call = call;
  t->pending = rc == 1;
  t->q = m->q;
  t->qn = m->qn;
  t->qcap = m->qcap;
  return rc;
}

/* The top thread has no call left: the last one takes its place (the
 * caller restores the order); returns how many remain. */
static size_t heap_drop_top(dsrc *s) {
  s->nheap--;
  s->heap[0] = s->heap[s->nheap];
  s->hkey[0] = s->hkey[s->nheap];
  return s->nheap;
}

/* Heap positions a and b: earlier head event first, then the lower rank
 * (and thread). */
static int heap_less(const dsrc *s, size_t a, size_t b) {
  uint64_t ta = s->hkey[a], tb = s->hkey[b];
  return ta < tb || (ta == tb && s->heap[a] < s->heap[b]);
}
static void heap_swap(dsrc *s, size_t i, size_t j) {
  size_t t = s->heap[i];
  s->heap[i] = s->heap[j];
  s->heap[j] = t;
  uint64_t k = s->hkey[i];
  s->hkey[i] = s->hkey[j];
  s->hkey[j] = k;
}
static void heap_down(dsrc *s, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    if (l < s->nheap && heap_less(s, l, m)) m = l;
    if (l + 1 < s->nheap && heap_less(s, l + 1, m)) m = l + 1;
    if (m == i) return;
    heap_swap(s, i, m);
    i = m;
  }
}
/* Set lim_key / lim_who from the top's children. */
static void heap_lim(dsrc *s) {
  size_t c = 1;
  if (s->nheap > 2 && heap_less(s, 2, 1)) c = 2;
  if (c < s->nheap) {
    s->lim_key = s->hkey[c];
    s->lim_who = s->heap[c];
  } else {
    s->lim_key = UINT64_MAX;
    s->lim_who = SIZE_MAX;
  }
  s->lim_ok = 1;
}
static void heap_up(dsrc *s, size_t i) {
  while (i) {
    size_t p = (i - 1) / 2;
    if (!heap_less(s, i, p)) return;
    heap_swap(s, i, p);
    i = p;
  }
}

/* Thread t's next call: 1 when there is one, its heap key in *key, or 0.
 * A thread that is its rank's only one is mapped at once (key: its first
 * event); others are left pending (key: the time their ENTER will have)
 * and mapped when they reach the top of the heap, so the calls of a
 * rank's threads are mapped in the order they started. */
static PT_ALWAYS_INLINE int st_next(dsrc *s, tstream *t, uint64_t *key) {
  const rankst *k = &s->r[t->rank];
  for (;;) {
    if (k->f.ntids == 1) { /* (st_locate, short) */
      if (k->pos >= k->f.stream_end) return 0;
      t->off = k->pos;
      t->call = k->f.cur_call + 1;
      t->pending = 1;
    } else {
      if (!st_locate(s, t)) return 0;
      *key = st_start(s, t);
      return 1;
    }
    int rc = st_map(s, t, 0);
    if (rc < 0) return rc;
    if (t->qn) { /* (every call has an ENTER and a LEAVE) */
      *key = t->q[0].u.event.time;
      return 1;
    }
  }
}

/* Map the pending thread at the top of the heap (a thread of a rank with
 * several), until the top has its events: PT_OK, PT_END or an error. */
static int top_map(dsrc *s) {
  int rc;
  tstream *t = &s->ts[s->heap[0]];
  while (t->pending) {
    if ((rc = st_map(s, t, 0)) < 0) return rc;
    if (t->qn && t->q[0].u.event.time == s->hkey[0]) break;
    if (t->qn) { /* (st_start said that time) */
      s->hkey[0] = t->q[0].u.event.time;
    } else {
      if ((rc = st_next(s, t, &s->hkey[0])) < 0) return rc;
      if (!rc && !heap_drop_top(s)) return PT_END;
    }
    heap_down(s, 0);
    s->lim_ok = 0;
    t = &s->ts[s->heap[0]];
  }
  return PT_OK;
}

/* The heap holds the threads with a call to come: mapped (key: the time
 * of its next event) or pending (see st_next).  Brings the next event to
 * the top: PT_OK (it is s->ts[s->heap[0]].q[qi]), PT_END or an error. */
static PT_ALWAYS_INLINE int src_head(dsrc *s) {
  int rc;
  if (!s->started) {
    s->started = 1;
    for (size_t i = 0; i < s->nts; i++) {
      if ((rc = st_next(s, &s->ts[i], &s->hkey[s->nheap])) < 0) return rc;
      if (rc) {
        s->heap[s->nheap++] = i;
        heap_up(s, s->nheap - 1);
      }
    }
    s->lim_ok = 0;
  } else if (s->nheap) {
    /* Advance the thread whose event was handed out last time. */
    tstream *t = &s->ts[s->heap[0]];
    if (++t->qi < t->qn) {
      s->hkey[0] = t->q[t->qi].u.event.time;
    } else {
      if ((rc = st_next(s, t, &s->hkey[0])) < 0) return rc;
      if (!rc) {
        heap_drop_top(s);
        s->lim_ok = 0;
      }
    }
    if (s->nheap) {
      uint64_t key = s->hkey[0];
      if (!s->lim_ok || key > s->lim_key ||
          (key == s->lim_key && s->heap[0] > s->lim_who)) {
        heap_down(s, 0);
        heap_lim(s);
      }
    }
  }
  if (!s->nheap) return PT_END;
  tstream *t = &s->ts[s->heap[0]];
  if (t->pending) return top_map(s);
  return PT_OK;
}

static int src_next(void *st, pt_item *item) {
  dsrc *s = st;
  if (s->deferred) return s->deferred;
  if (s->defi < s->ndefs) {
    item->type = PT_ITEM_DEF;
    item->u.def = s->defs[s->defi++];
    return PT_OK;
  }
  int rc = src_head(s);
  if (rc != PT_OK) return rc;
  const tstream *t = &s->ts[s->heap[0]];
  item->type = PT_ITEM_EVENT;
  item->u.event = t->q[t->qi].u.event;
  return PT_OK;
}


/* The top thread's next event and those after it that src_next would hand
 * out next as well: each stays below the least of the other heads
 * (lim_key, then the lower thread), so the top stays the top.  When the
 * thread's call queue runs out (and it is its rank's only thread), its
 * next call is mapped after it in the queue, as src_next would map it
 * then.  The state afterwards is that of src_next after the last item; an
 * error mapping a call is returned at the next call (after the items
 * before it, as src_next would).  With runs (pt_source_opts.runs) the
 * batch is not cut at the other heads: the top thread's queue and, for a
 * rank's only thread, its next calls after it, up to BATCH_MAX events. */
static int src_next_batch(void *st, const pt_item **items, size_t *n) {
  dsrc *s = st;
  if (s->deferred) return s->deferred;
  if (s->defi < s->ndefs) {
    s->defitem.type = PT_ITEM_DEF;
    s->defitem.u.def = s->defs[s->defi++];
    *items = &s->defitem;
    *n = 1;
    return PT_OK;
  }
  int rc = src_head(s);
  if (rc != PT_OK) return rc;
  tstream *t = &s->ts[s->heap[0]];
  if (!s->lim_ok) heap_lim(s); /* (the top is the least: a heap) */
  size_t first = t->qi, j = t->qi + 1;
  /* an event stays before the other heads iff its time <= le (and some
   * time can: !none) */
  uint64_t le = s->lim_key;
  int none = 0;
  if (s->runs) { /* a run: the queue and the calls after it, uncut */
    le = UINT64_MAX;
  } else if (s->heap[0] > s->lim_who) {
    if (le) le--;
    else none = 1;
  }
  rankst *k = &s->r[t->rank];
  for (;;) {
    if (!none) {
      /* the queue's last event (a LEAVE) has its latest time: each call's
       * events have its ENTER's or its LEAVE's time, and a call starts
       * after the previous one left; so when the last is <= le, all are
       * (no scan) */
      const pt_item *q = t->q;
      size_t qn = t->qn;
      if (j < qn && q[qn - 1].u.event.time <= le) j = qn;
      else
        while (j < qn && q[j].u.event.time <= le) j++;
    }
    /* (the queue, not the batch, is bounded: a thread that loses the top
     * in the middle of its queue starts its next batch there) */
    if (j < t->qn || t->qn >= BATCH_MAX || k->f.ntids != 1 ||
        k->pos >= k->f.stream_end)
      break;
    /* (st_next, mapping after the queue) */
    t->off = k->pos;
    t->call = k->f.cur_call + 1;
    t->pending = 1;
    size_t q1 = t->qn;
    if ((rc = st_run(s, t, le, none, &j)) == 1) {
      q1 = t->qn;
      rc = st_map(s, t, 1);
    }
    if (rc < 0) {
      /* (the events before the failed call's are all <= le, or none was
       * mapped before it: st_run goes on only then) */
      s->deferred = rc;
      t->qn = j = q1 > j ? q1 : j; /* (what the failed call left) */
      break;
    }
  }
  *items = &t->q[first];
  *n = j - first;
  t->qi = j - 1;
  s->hkey[0] = t->q[t->qi].u.event.time;
  return PT_OK;
}

static const char *src_errmsg(void *st) { return ((dsrc *)st)->err; }
static void src_runs(void *st) { ((dsrc *)st)->runs = 1; }

/* ======================================================================== */
/* In-memory parse (fuzzing, tests)                                          */
/* ======================================================================== */

/* digest: every field of an item, its attributes' keys and values (the
 * elements of arrays, the bytes of strings), in order. */
static uint64_t dg_mix(uint64_t h, uint64_t v) {
  h ^= v + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
  return h * UINT64_C(0x100000001B3);
}
static uint64_t dg_str(uint64_t h, const char *p) {
  if (!p) return dg_mix(h, 1);
  for (; *p; p++) h = dg_mix(h, (uint8_t)*p);
  return dg_mix(h, 2);
}
static uint64_t dg_value(uint64_t h, const pt_value *v) {
  h = dg_mix(dg_mix(h, v->type), v->count);
  if (v->type == PT_TYPE_STRING) return dg_str(h, v->v.s);
  if (v->type == PT_TYPE_INTS) {
    for (uint32_t j = 0; j < v->count; j++) h = dg_mix(h, (uint64_t)v->v.ints[j]);
    return h;
  }
  return dg_mix(h, v->v.u);
}
static uint64_t dg_item(uint64_t h, const pt_item *it) {
  h = dg_mix(h, it->type);
  if (it->type == PT_ITEM_DEF) {
    const pt_def *d = &it->u.def;
    return dg_str(dg_mix(dg_mix(h, d->kind), d->id), d->name);
  }
  if (it->type != PT_ITEM_EVENT) return h;
  const pt_event *e = &it->u.event;
  uint64_t f[] = {e->time, e->location, e->kind, e->nattrs, e->ref,
                  (uint64_t)e->peer, e->comm, (uint64_t)e->tag, e->size,
                  e->size2, e->request};
  for (size_t j = 0; j < sizeof f / sizeof f[0]; j++) h = dg_mix(h, f[j]);
  h = dg_str(dg_value(h, &e->value), e->text);
  for (uint32_t j = 0; j < e->nattrs; j++)
    h = dg_value(dg_mix(h, e->attrs[j].key), &e->attrs[j].val);
  return h;
}

int pt__dumpi_parse_mem_digest(const uint8_t *data, size_t n, int generic,
                               pt_warn_fn warn, void *wu, uint64_t *digest,
                               pt_error *err) {
  pthread_once(&role_once, role_init);
  uint64_t h = 0;
  dsrc *s = calloc(1, sizeof *s);
  if (!s) return pt__err(err, PT_ENOMEM, "out of memory");
  s->fm = generic ? fm_none : fm_tab;
  s->r = calloc(1, sizeof *s->r);
  if (!s->r) {
    src_close(s);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  s->nranks = 1;
  rankst *k = &s->r[0];
  k->f.path = strdup("<memory>");
  k->f.data = data;
  k->f.size = n;
  k->f.warn = warn;
  k->f.warn_user = wu;
  k->f.generic = generic;
  int rc = k->f.path ? dfile_init(&k->f, err)
                     : pt__err(err, PT_ENOMEM, "out of memory");
  if (rc >= 0) {
    k->pos = k->f.stream_begin;
    k->m.f = &k->f;
    k->m.nranks = 1;
    if ((rc = replay_comms(s)) >= 0 && (rc = build_defs(s, NULL, 0)) >= 0 &&
        (rc = user_comm_defs(s)) >= 0 && (rc = file_defs(s)) >= 0 &&
        (rc = streams_init(s)) < 0)
      pt__errbuf(s->err, sizeof s->err, rc, "out of memory");
    /* both ways of handing items out, in turn (what the readers use) */
    pt_item it;
    const pt_item *its;
    size_t nits;
    for (uint64_t round = 0; rc >= 0; round++) {
      if ((rc = round % 2 ? src_next_batch(s, &its, &nits)
                          : src_next(s, &it)) != PT_OK)
        break;
      if (round % 2)
        for (size_t j = 0; j < nits; j++) h = dg_item(h, &its[j]);
      else
        h = dg_item(h, &it);
    }
    if (rc == PT_END) rc = PT_OK;
    if (rc < 0) pt__err(err, rc, "%s", s->err);
  }
  s->r[0].f.data = NULL; /* not ours */
  src_close(s);
  if (digest) *digest = h;
  return rc;
}

int pt__dumpi_parse_mem(const uint8_t *data, size_t n, pt_warn_fn warn,
                        void *wu, pt_error *err) {
  return pt__dumpi_parse_mem_digest(data, n, 0, warn, wu, NULL, err);
}

/* ======================================================================== */
/* The sink (and the model-level printer)                                    */
/* ======================================================================== */

typedef struct frame {
  int label;
  uint64_t region;
  uint64_t t0;
  pt_event enter;
  pt_event *evs; /* semantic events inside, copied */
  size_t nevs, capevs;
} frame;

/* A recorded call DUMPI has no record for that made a communicator
 * (MPI_Comm_split_type, MPI_Dist_graph_create...): its arguments, kept
 * from its ENTER until its LEAVE (dropped_comm_call). */
typedef struct skdrop {
  int active, depth;
  uint64_t region, t0;
  int64_t parent, newcomm;
} skdrop;

typedef struct sthread {
  uint64_t loc;
  uint16_t index; /* DUMPI's thread id: order of the location in its rank */
  frame stack[8];
  int depth;
  skdrop drop;
  pt__arena arena; /* frames */
} sthread;

/* A FIFO of keys: v[head..end) (anonymous requests, srank). */
typedef struct pt__anonq {
  uint64_t *v;
  size_t head, end, cap;
} pt__anonq;

typedef struct srank {
  int64_t rank;
  char *path;
  int created;
  uint64_t written; /* bytes in the file so far */
  pt__buf out;
  uint32_t cpu_off, wall_off;
  int have_offsets;
  /* metadata from keyvals (NULL = absent) */
  const char *kv_version, *kv_start, *kv_host, *kv_user, *kv_meshcrd,
      *kv_meshsize, *kv_called, *kv_ignored, *kv_sizes;
  char **perf;
  size_t nperf;
  uint64_t *addr;
  char **addrname;
  size_t naddr;
  char **kvs; /* keyval record pairs */
  size_t nkvs;
  int64_t *usizes; /* sizes of the rank's user datatypes (recorder's
                      mpi.datatype.N keyvals), by id; -1 unknown */
  size_t nusizes;
  uint32_t called[PT__DUMPI_FOOTER_SLOTS];
  /* the rank's threads (locations), each with its own call stack: two
   * threads' calls overlap */
  struct sthread *thr;
  size_t nthr, last_thr;
  pt__arena callmem;
  /* synthesis */
  uint64_t *reqmap; /* model request -> DUMPI id pairs */
  size_t nreqmap, capreqmap;
  int32_t next_req;
  uint64_t *cids; /* archive communicator ids given DUMPI handles 4, 5...
                     (another source's communicators of unknown members:
                     0x4000, 0x4001...) */
  size_t ncids, capcids;
  int prologue; /* the communicator-creating calls were written (or are
                   not needed): see comm_prologue */
  struct skidup *idup; /* MPI_Comm_idup handles not yet bound */
  size_t nidup, capidup;
  struct skpend *pend; /* MPI_Irecv records waiting for their completion */
  size_t npend, cappend;
  /* requests of a source without request ids (OTF 1: a plain SEND in
   * MPI_Isend, an MPI_Irecv with no event, the RECV in the MPI_Wait that
   * completes it): keys (bit 63 | n) of the receives and sends posted and
   * not completed yet, oldest first (synthesise) */
  pt__anonq anon_rx, anon_tx;
  uint64_t anon_seq;
} srank;

/* How the event communicator ids of the trace are taken (comms_resolve). */
enum {
  SKM_UNDECIDED = 0,
  SKM_NATIVE,  /* DUMPI-style: 2 WORLD, 3 SELF, others the per-rank handles
                  of a DUMPI trace or the recorder's archive ids */
  SKM_FOREIGN  /* any other source: ids mapped through the definitions */
};

/* What a communicator of the source is to DUMPI. */
enum {
  SKC_UNKNOWN = 0, /* members not known (no group, an intercommunicator) */
  SKC_WORLD,       /* MPI_COMM_WORLD (2) */
  SKC_SELF,        /* MPI_COMM_SELF (3) */
  SKC_SELFLIKE,    /* another communicator of each rank alone */
  SKC_USER         /* members known: a user handle, the same on every rank */
};

typedef struct skcomm {
  uint64_t k[4]; /* the communicator id */
  uint64_t group;
  const char *name;
  int defined, inter, resolved, kind;
  int64_t paradigm;
  int64_t handle;   /* SKC_USER / SKC_SELFLIKE: its DUMPI handle (foreign) */
  int64_t *members; /* COMM_WORLD ranks by rank in the communicator */
  uint32_t n;
} skcomm;

typedef struct skgroup {
  uint64_t k[4];
  int64_t type; /* pt_group_kind */
  int64_t paradigm;
  uint64_t n;
  uint64_t *members;
} skgroup;

/* An MPI_Irecv written before its completion said the source, tag, bytes
 * and communicator: where those arguments are, to be filled in then. */
typedef struct skpend {
  uint64_t request; /* model request id */
  uint64_t at;      /* the record: file offset, or print-queue offset */
  size_t qent;      /* print mode: its print-queue entry */
  int16_t off[4];   /* byte offsets in the record of count, source, tag,
                       comm (-1: absent) */
  uint8_t w[4];     /* their widths */
} skpend;

/* print mode: a record held back (encoded) behind an unfinished MPI_Irecv */
typedef struct skqent {
  size_t rank; /* index in dsink.ranks */
  size_t off, len;
  int npending;
} skqent;

typedef struct sk_region {
  uint64_t k[4];
  int16_t label; /* -1: not a DUMPI function */
  const char *mpi_name; /* an MPI function DUMPI has no label for, or NULL */
  uint64_t dropped;     /* its calls, not written */
  uint64_t as_split;    /* of those that made a communicator: written as
                           the MPI_Comm_split that makes it */
  uint64_t unmapped;    /* ... that could not be: why (the last reason) */
  const char *why;
} sk_region;

/* An MPI_Comm_idup of a recorded trace: the recorder cannot name the new
 * communicator (not valid before the request completes), so the call is
 * written as an MPI_Comm_split (a dup) whose handle is reserved here and
 * bound to the first communicator of the parent's members this rank uses
 * afterwards (sk_comm_in). */
typedef struct skidup {
  size_t slot;     /* its entry in srank.cids (a placeholder id) */
  int64_t parent;  /* the parent's value (2, 3, an archive id) */
} skidup;
typedef struct sk_attr {
  uint64_t k[4];
  const char *name;
  uint32_t type;
} sk_attr;

typedef struct dsink {
  char *meta_tmp;   /* what the generic layer renames */
  char *prefix;     /* final path prefix of the .bin files */
  const char *fileprefix; /* basename of prefix */
  int overwrite, print_mode;
  FILE *pf;
  uint64_t only_loc;
  pt__map norank;       /* location without a rank -> its events dropped */
  uint64_t far;         /* calls after 2^32 s: DUMPI's times wrap there */
  uint64_t call_enters, other_enters; /* visits of MPI calls / of others */
  int label_ranks;      /* print mode: "# rank R" before each change of rank
                           (when more than one rank is defined) */
  int64_t printed_rank; /* rank of the last call printed, -1 = none */
  double tick_to_ns;
  /* definitions */
  pt__ktab regions; /* region id -> its DUMPI label (sk_region) */
  pt__ktab attrs;   /* attribute id -> name, type (sk_attr) */
  pt__map loc_group; /* location id -> group id (ids may be large: Score-P
                       numbers a rank's threads thread << 32 | rank) */
  int64_t *group_rank;
  int rank_dup; /* groups shared a rank: the source's peers are location ids */
  size_t ngroup_rank;
  srank *ranks;
  size_t nranks;
  char **meta_kv; /* global dumpi.meta.* in order */
  size_t nmeta;
  const char *host;
  /* communicators (foreign sources: mapped to DUMPI handles) */
  pt__ktab comms;  /* skcomm by id */
  pt__ktab groups; /* skgroup by id */
  uint64_t clgroup; /* MPI's COMM_LOCATIONS group, or PT_NONE */
  int clmpi;        /* (its paradigm is MPI's) */
  int comm_mode, comms_dirty, have_world, have_self;
  int64_t next_handle;
  uint64_t late_comms;   /* given a handle after some rank's prologue */
  uint64_t lost_handles; /* more communicators than 16-bit handles */
  uint64_t open_irecvs;  /* MPI_Irecv never completed (at close) */
  int lab_init, lab_init_thread, lab_initialized, lab_split;
  /* print mode: records held back behind an MPI_Irecv (skqent) */
  pt__buf pq;
  skqent *pqe;
  size_t npqe, hpqe, cappqe;
  uint64_t pq_forced; /* held MPI_Irecv printed unfilled (queue bound) */
  pt__arena pqmem;
  pt__arena mem;
  pt_warn_fn warn;
  void *warn_user;
  char err[600];
} dsink;

/* The location group of location loc (loc itself when it has none). */
static uint64_t loc_group_of(const dsink *k, uint64_t loc) {
  uint64_t g;
  if (!pt__map_get(&k->loc_group, loc, &g) || g == PT_NONE) g = loc;
  return g;
}

/* The rank location group g was given (sk_def), negative if none. */
static int64_t given_rank(const dsink *k, uint64_t g) {
  return g < k->ngroup_rank ? k->group_rank[g] : -1;
}

/* The rank of location group g (its given rank, else g itself), created
 * on first use if `create` and in 0..1000000; NULL if none. */
static srank *rank_for_group(dsink *k, uint64_t g, int create) {
  int64_t rank = given_rank(k, g);
  if (rank < 0) rank = (int64_t)g;
  for (size_t i = 0; i < k->nranks; i++)
    if (k->ranks[i].rank == rank) return &k->ranks[i];
  if (!create || rank < 0 || rank > 1000000) return NULL;
  srank *n = realloc(k->ranks, (k->nranks + 1) * sizeof *n);
  if (!n) return NULL;
  k->ranks = n;
  srank *r = &k->ranks[k->nranks++];
  memset(r, 0, sizeof *r);
  r->rank = rank;
  r->next_req = 2;
  return r;
}

static srank *rank_for_loc(dsink *k, uint64_t loc) {
  return rank_for_group(k, loc_group_of(k, loc), 1);
}

/* The thread state of location loc in rank r (created on first use). */
static sthread *thread_for_loc(dsink *k, srank *r, uint64_t loc) {
  if (r->last_thr < r->nthr && r->thr[r->last_thr].loc == loc)
    return &r->thr[r->last_thr];
  for (size_t i = 0; i < r->nthr; i++)
    if (r->thr[i].loc == loc) return &r->thr[r->last_thr = i];
  if (r->nthr >= 65535) return NULL;
  sthread *n = realloc(r->thr, (r->nthr + 1) * sizeof *n);
  if (!n) return NULL;
  r->thr = n;
  sthread *t = &r->thr[r->nthr];
  memset(t, 0, sizeof *t);
  t->loc = loc;
  /* the thread id: how many locations of the same process have a smaller
   * id (a recorder numbers a rank's threads rank + i * nranks; the
   * master thread comes first) */
  uint64_t g = PT_NONE;
  pt__map_get(&k->loc_group, loc, &g);
  if (g != PT_NONE)
    for (size_t i = 0; i < k->loc_group.cap; i++)
      if (k->loc_group.keys[i] < loc && k->loc_group.vals[i] == g) t->index++;
  r->last_thr = r->nthr++;
  return t;
}

static int sk_def(dsink *k, const pt_def *d) {
  switch (d->kind) {
    case PT_DEF_CLOCK:
      if (d->i0 > 0) k->tick_to_ns = 1e9 / (double)d->i0;
      return PT_OK;
    case PT_DEF_REGION: {
      /* ids may be sparse (the recorder hashes names): a table, not an
       * array */
      sk_region *x = pt__kt_get(&k->regions, (uint64_t[4]){d->id, 0, 0, 0});
      if (!x) return PT_ENOMEM;
      x->label = (int16_t)pt__dumpi_label_from_name(d->name);
      x->mpi_name = NULL;
      if (x->label < 0 && d->name && !strncmp(d->name, "MPI_", 4) &&
          !(x->mpi_name = pt__arena_strdup(&k->mem, d->name)))
        return PT_ENOMEM;
      return PT_OK;
    }
    case PT_DEF_ATTRIBUTE: {
      sk_attr *x = pt__kt_get(&k->attrs, (uint64_t[4]){d->id, 0, 0, 0});
      if (!x) return PT_ENOMEM;
      x->name = pt__arena_strdup(&k->mem, d->name ? d->name : "");
      x->type = (uint32_t)d->i0;
      return x->name ? PT_OK : PT_ENOMEM;
    }
    case PT_DEF_LOCATION:
      if (d->id == PT_NONE) return PT_OK;
      return pt__map_put(&k->loc_group, d->id, d->parent) < 0 ? PT_ENOMEM
                                                               : PT_OK;
    case PT_DEF_LOCATION_GROUP: {
      if (d->id > 10000000) return PT_OK;
      size_t had = k->ngroup_rank; /* every entry is set: -1 = none */
      if (PT_GROW(k->group_rank, k->ngroup_rank, d->id + 1, 8))
        return PT_ENOMEM;
      for (size_t i = had; i < k->ngroup_rank; i++) k->group_rank[i] = -1;
      /* Sources that do not know MPI ranks leave every group at rank 0:
       * a rank already taken by another group gets the lowest free one. */
      int64_t want = d->i1;
      for (int again = 1, first = 1; again; first = 0) {
        again = 0;
        for (size_t i = 0; i < k->nranks; i++)
          if (k->ranks[i].rank == want) {
            want = first ? 0 : want + 1;
            again = 1;
            k->rank_dup = 1;
            break;
          }
      }
      k->group_rank[d->id] = want;
      return rank_for_group(k, d->id, 1) ? PT_OK : PT_ENOMEM;
    }
    case PT_DEF_GROUP: {
      if (d->i0 == PT_GROUP_REGIONS || d->i0 == PT_GROUP_METRICS ||
          d->i0 == PT_GROUP_EVENT_TYPES)
        return PT_OK; /* no communicator's */
      skgroup *g = pt__kt_get(&k->groups, (uint64_t[4]){d->id, 0, 0, 0});
      if (!g) return PT_ENOMEM;
      g->type = d->i0;
      g->paradigm = d->i1;
      g->n = d->nmembers;
      g->members = NULL;
      if (d->nmembers) {
        if (d->nmembers > SIZE_MAX / 8 ||
            !(g->members = pt__arena_alloc(&k->mem, 8 * d->nmembers)))
          return PT_ENOMEM;
        memcpy(g->members, d->members, 8 * d->nmembers);
      }
      /* the MPI one, else one of no paradigm said */
      if (d->i0 == PT_GROUP_COMM_LOCATIONS &&
          (d->i1 == PT_PARADIGM_MPI ||
           (d->i1 == PT_PARADIGM_UNKNOWN && k->clgroup == PT_NONE)) &&
          (k->clgroup == PT_NONE || !k->clmpi)) {
        k->clgroup = d->id;
        k->clmpi = d->i1 == PT_PARADIGM_MPI;
      }
      k->comms_dirty = 1;
      return PT_OK;
    }
    case PT_DEF_COMM: {
      skcomm *c = pt__kt_get(&k->comms, (uint64_t[4]){d->id, 0, 0, 0});
      if (!c) return PT_ENOMEM;
      if (c->resolved) return PT_OK; /* a second definition: the first */
      c->defined = 1;
      c->group = d->ref;
      c->paradigm = d->i0;
      c->name = d->name ? pt__arena_strdup(&k->mem, d->name) : NULL;
      if (d->name && !c->name) return PT_ENOMEM;
      k->comms_dirty = 1;
      return PT_OK;
    }
    case PT_DEF_SYSTEM_NODE:
      if (!k->host && d->name)
        k->host = pt__arena_strdup(&k->mem, d->name);
      return PT_OK;
    case PT_DEF_KEYVAL: {
      if (!d->name) return PT_OK;
      const char *v = pt__arena_strdup(&k->mem, d->s1 ? d->s1 : "");
      if (!v) return PT_ENOMEM;
      if (!strcmp(d->name, "otf2:intercomm") && d->parent != PT_NONE) {
        /* the communicator is an intercommunicator: no members DUMPI
         * could be given here */
        skcomm *c =
            pt__kt_get(&k->comms, (uint64_t[4]){d->parent, 0, 0, 0});
        if (!c) return PT_ENOMEM;
        c->inter = 1;
        k->comms_dirty = 1;
        return PT_OK;
      }
      if (d->parent == PT_NONE) {
        if (strncmp(d->name, "dumpi.meta.", 11) != 0) return PT_OK;
        char **m = realloc(k->meta_kv, (k->nmeta + 1) * 2 * sizeof *m);
        if (!m) return PT_ENOMEM;
        k->meta_kv = m;
        m[2 * k->nmeta] = pt__arena_strdup(&k->mem, d->name + 11);
        m[2 * k->nmeta + 1] = (char *)v;
        k->nmeta++;
        return PT_OK;
      }
      /* a rank's keyval (scope: a location group defined before); others
       * (a communicator's such as OTF2's otf2:intercomm, a region's such
       * as otf2:region.role) have nothing to give DUMPI */
      if (given_rank(k, d->parent) < 0) return PT_OK;
      srank *r = rank_for_group(k, d->parent, 1);
      if (!r) return PT_ENOMEM;
      const char *n = d->name;
      if (!strncmp(n, "mpi.datatype.", 13)) {
        /* paratrace's MPI recorder: "user datatype, 16 bytes, ..." */
        char *end;
        unsigned long id = strtoul(n + 13, &end, 10);
        const char *c = strchr(v, ',');
        long long sz = c ? strtoll(c + 1, NULL, 10) : -1;
        if (*end || id < 28 || id > 65535 || sz < 0) return PT_OK;
        if (id >= r->nusizes) {
          int64_t *u = realloc(r->usizes, (id + 1) * sizeof *u);
          if (!u) return PT_ENOMEM;
          for (size_t i = r->nusizes; i <= id; i++) u[i] = -1;
          r->usizes = u;
          r->nusizes = id + 1;
        }
        r->usizes[id] = sz;
        return PT_OK;
      }
      if (strncmp(n, "dumpi.", 6) != 0) return PT_OK;
      n += 6;
      if (!strcmp(n, "cpu_offset")) {
        r->cpu_off = (uint32_t)strtoul(v, NULL, 10);
        r->have_offsets |= 1;
      } else if (!strcmp(n, "wall_offset")) {
        r->wall_off = (uint32_t)strtoul(v, NULL, 10);
        r->have_offsets |= 2;
      } else if (!strcmp(n, "version")) r->kv_version = v;
      else if (!strcmp(n, "starttime")) r->kv_start = v;
      else if (!strcmp(n, "hostname")) r->kv_host = v;
      else if (!strcmp(n, "username")) r->kv_user = v;
      else if (!strcmp(n, "meshcrd")) r->kv_meshcrd = v;
      else if (!strcmp(n, "meshsize")) r->kv_meshsize = v;
      else if (!strcmp(n, "footer.called")) r->kv_called = v;
      else if (!strcmp(n, "footer.ignored")) r->kv_ignored = v;
      else if (!strcmp(n, "typesizes")) r->kv_sizes = v;
      else if (!strncmp(n, "perflabel.", 10)) {
        char **p = realloc(r->perf, (r->nperf + 1) * sizeof *p);
        if (!p) return PT_ENOMEM;
        r->perf = p;
        p[r->nperf++] = (char *)v;
      } else if (!strncmp(n, "func.", 5)) {
        uint64_t *a = realloc(r->addr, (r->naddr + 1) * sizeof *a);
        if (!a) return PT_ENOMEM;
        r->addr = a;
        char **an = realloc(r->addrname, (r->naddr + 1) * sizeof *an);
        if (!an) return PT_ENOMEM;
        r->addrname = an;
        a[r->naddr] = strtoull(n + 5, NULL, 10);
        an[r->naddr++] = (char *)v;
      } else if (!strncmp(n, "keyval.", 7)) {
        char **p = realloc(r->kvs, (r->nkvs + 1) * 2 * sizeof *p);
        if (!p) return PT_ENOMEM;
        r->kvs = p;
        p[2 * r->nkvs] = pt__arena_strdup(&k->mem, n + 7);
        p[2 * r->nkvs + 1] = (char *)v;
        r->nkvs++;
      }
      return PT_OK;
    }
    default:
      return PT_OK;
  }
}

static uint64_t to_ns(const dsink *k, uint64_t t) {
  return k->tick_to_ns == 1.0 ? t : (uint64_t)((double)t * k->tick_to_ns);
}

static const char *attr_name(const dsink *k, uint64_t key, uint32_t *type) {
  const sk_attr *x = pt__kt_find(&k->attrs, (uint64_t[4]){key, 0, 0, 0});
  if (!x || !x->name) return NULL;
  *type = x->type;
  return x->name;
}

static const pt_attr *find_attr(const dsink *k, const pt_event *e,
                                const char *name, uint32_t type) {
  for (uint32_t i = 0; i < e->nattrs; i++) {
    uint32_t t;
    const char *n = attr_name(k, e->attrs[i].key, &t);
    if (n && t == type && e->attrs[i].val.type == type && !strcmp(n, name))
      return &e->attrs[i];
  }
  return NULL;
}

static int32_t req_map(srank *r, uint64_t model, int create) {
  for (size_t i = 0; i < r->nreqmap; i++)
    if (r->reqmap[2 * i] == model) return (int32_t)r->reqmap[2 * i + 1];
  if (!create) return PT__DUMPI_REQUEST_NULL;
  if (pt__grow(&r->reqmap, &r->capreqmap, r->nreqmap + 1,
               2 * sizeof *r->reqmap, 16)) /* pairs (model, handle) */
    return -1;
  r->reqmap[2 * r->nreqmap] = model;
  r->reqmap[2 * r->nreqmap + 1] = (uint64_t)r->next_req;
  r->nreqmap++;
  return r->next_req++;
}

/* The handle of rank r for archive communicator id v: the rank's next free
 * one from `base` on, the same one each time.  PT_OK or PT_ENOMEM. */
static int cid_handle(srank *r, uint64_t v, int64_t base, int64_t *h) {
  for (size_t i = 0; i < r->ncids; i++)
    if (r->cids[i] == v) {
      *h = (int64_t)(uint16_t)(base + (int64_t)i);
      return PT_OK;
    }
  if (PT_GROW(r->cids, r->capcids, r->ncids + 1, 8)) return PT_ENOMEM;
  r->cids[r->ncids] = v;
  *h = (int64_t)(uint16_t)(base + (int64_t)r->ncids++);
  return PT_OK;
}

/* The rank of location loc (as rank_for_loc has it), -1 if none. */
static int64_t loc_rank(const dsink *k, uint64_t loc) {
  uint64_t g = loc_group_of(k, loc);
  int64_t rank = given_rank(k, g);
  return rank >= 0 ? rank : g <= 1000000 ? (int64_t)g : -1;
}

/* The members of communicator c as COMM_WORLD ranks, from its group:
 * locations (OTF's process groups, OTF2's COMM_LOCATIONS), ranks in the
 * COMM_LOCATIONS group (OTF2's and the recorder's COMM_GROUP), or the
 * rank itself (COMM_SELF).  Sets c->kind to SKC_SELFLIKE, SKC_USER or
 * SKC_UNKNOWN.  PT_OK or PT_ENOMEM. */
static int comm_members(dsink *k, skcomm *c) {
  const skgroup *g =
      c->group == PT_NONE
          ? NULL
          : pt__kt_find(&k->groups, (uint64_t[4]){c->group, 0, 0, 0});
  const skgroup *cl =
      k->clgroup == PT_NONE
          ? NULL
          : pt__kt_find(&k->groups, (uint64_t[4]){k->clgroup, 0, 0, 0});
  c->kind = SKC_UNKNOWN;
  c->n = 0;
  /* MPI's (or of no paradigm said): not an OpenMP team's */
  if (!g || c->inter || g->n > k->nranks ||
      (c->paradigm != PT_PARADIGM_MPI && c->paradigm != PT_PARADIGM_UNKNOWN) ||
      (g->paradigm != PT_PARADIGM_MPI && g->paradigm != PT_PARADIGM_UNKNOWN))
    return PT_OK;
  if (g->type == PT_GROUP_COMM_SELF) {
    c->kind = SKC_SELFLIKE;
    return PT_OK;
  }
  int64_t *m = pt__arena_alloc(&k->mem, 8 * g->n + 8);
  if (!m) return PT_ENOMEM;
  for (uint64_t i = 0; i < g->n; i++) {
    uint64_t x = g->members[i];
    switch (g->type) {
      case PT_GROUP_LOCATIONS: case PT_GROUP_COMM_LOCATIONS:
        m[i] = loc_rank(k, x);
        break;
      case PT_GROUP_PROCESSES: /* location groups */
        m[i] = given_rank(k, x);
        break;
      case PT_GROUP_COMM_GROUP: case PT_GROUP_UNKNOWN:
        m[i] = !cl ? (int64_t)x : x < cl->n ? loc_rank(k, cl->members[x]) : -1;
        break;
      default:
        return PT_OK;
    }
    if (m[i] < 0 || (uint64_t)m[i] >= k->nranks) return PT_OK;
  }
  c->members = m;
  c->n = (uint32_t)g->n;
  c->kind = SKC_USER;
  return PT_OK;
}

/* c's members are all ranks in COMM_WORLD's order. */
static int comm_is_all(const dsink *k, const skcomm *c) {
  if (c->kind != SKC_USER || c->n != k->nranks) return 0;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->members[i] != (int64_t)i) return 0;
  return 1;
}

/* Work out the communicators defined since the last call.  A trace that
 * defines COMM 2 "MPI_COMM_WORLD" and COMM 3 "MPI_COMM_SELF" (what the
 * DUMPI reader and paratrace's recorder define) has DUMPI-style ids
 * (SKM_NATIVE).  In any other trace with communicator definitions
 * (SKM_FOREIGN: OTF2, OTF...) the ids mean nothing to DUMPI: the
 * communicator whose group is all ranks in order is MPI_COMM_WORLD, the
 * one of a COMM_SELF group MPI_COMM_SELF (those so named first), and every
 * other one with known members gets a handle from 4 on, the same on every
 * rank (comm_prologue creates them).  In both, members known give the
 * translation of COMM_WORLD ranks to ranks in the communicator.  PT_OK or
 * PT_ENOMEM. */
static int comms_resolve(dsink *k) {
  if (!k->comms_dirty) return PT_OK;
  k->comms_dirty = 0;
  if (k->comm_mode == SKM_UNDECIDED && k->comms.n) {
    const skcomm *w = pt__kt_find(&k->comms, (uint64_t[4]){2, 0, 0, 0});
    const skcomm *sf = pt__kt_find(&k->comms, (uint64_t[4]){3, 0, 0, 0});
    k->comm_mode = w && sf && w->name && sf->name &&
                           !strcmp(w->name, "MPI_COMM_WORLD") &&
                           !strcmp(sf->name, "MPI_COMM_SELF")
                       ? SKM_NATIVE
                       : SKM_FOREIGN;
    k->next_handle = 4;
  }
  size_t first = SIZE_MAX;
  for (size_t i = 0; i < k->comms.n; i++) {
    skcomm *c = pt__kt_at(&k->comms, i);
    if (!c->defined || c->resolved) continue;
    c->resolved = 1;
    if (first == SIZE_MAX) first = i;
    int rc = comm_members(k, c);
    if (rc < 0) return rc;
  }
  if (first == SIZE_MAX) return PT_OK;
  int prologued = 0;
  for (size_t i = 0; i < k->nranks; i++) prologued |= k->ranks[i].prologue;
  /* WORLD and SELF: those so named, else the first that fits */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = first; i < k->comms.n; i++) {
      skcomm *c = pt__kt_at(&k->comms, i);
      if (!c->resolved || c->handle) continue;
      int named_w = !pass && c->name && !strcmp(c->name, "MPI_COMM_WORLD");
      int named_s = !pass && c->name && !strcmp(c->name, "MPI_COMM_SELF");
      if (!k->have_world && (pass || named_w) && comm_is_all(k, c)) {
        c->kind = SKC_WORLD;
        c->handle = PT__DUMPI_COMM_WORLD;
        k->have_world = 1;
      } else if (!k->have_self && (pass || named_s) &&
                 c->kind == SKC_SELFLIKE) {
        c->kind = SKC_SELF;
        c->handle = PT__DUMPI_COMM_SELF;
        k->have_self = 1;
      }
    }
  for (size_t i = first; i < k->comms.n; i++) {
    skcomm *c = pt__kt_at(&k->comms, i);
    if (!c->resolved || c->handle ||
        (c->kind != SKC_USER && c->kind != SKC_SELFLIKE))
      continue;
    if (k->comm_mode == SKM_FOREIGN && k->next_handle >= 0x4000) {
      /* beyond: the per-rank handles */
      c->kind = SKC_UNKNOWN;
      k->lost_handles++;
      continue;
    }
    if (prologued && k->comm_mode == SKM_FOREIGN) {
      /* some rank's MPI_Comm_split calls are written already: a split of
       * this one on the others only would be a collective not every
       * rank calls (a replay hangs); per-rank handles instead */
      c->kind = SKC_UNKNOWN;
      k->late_comms++;
      continue;
    }
    c->handle = k->next_handle++;
  }
  return PT_OK;
}

/* The members of communicator value v of a DUMPI-style trace (2 WORLD,
 * 3 SELF, else an archive id with its definition) as COMM_WORLD ranks:
 * *m (NULL: all ranks in order), *n.  1 known, 0 unknown (no definition,
 * no group, members outside the trace), -1 an intercommunicator. */
static int native_members(dsink *k, const srank *r, int64_t v,
                          const int64_t **m, uint32_t *n, int64_t *self) {
  *m = NULL;
  *n = 0;
  if (v == PT__DUMPI_COMM_WORLD) {
    *n = (uint32_t)k->nranks;
    return 1;
  }
  *self = r->rank;
  if (v == PT__DUMPI_COMM_SELF) {
    *m = self;
    *n = 1;
    return 1;
  }
  if (v < 0x10000 || comms_resolve(k) < 0) return 0;
  const skcomm *c = pt__kt_find(&k->comms, (uint64_t[4]){(uint64_t)v, 0, 0, 0});
  if (!c || !c->resolved) return 0;
  if (c->inter) return -1;
  if (c->kind == SKC_SELF || c->kind == SKC_SELFLIKE) {
    *m = self;
    *n = 1;
    return 1;
  }
  if ((c->kind != SKC_USER && c->kind != SKC_WORLD) || !c->members) return 0;
  *m = c->members;
  *n = c->n;
  return 1;
}

static int64_t member_at(const int64_t *m, uint32_t i) {
  return m ? m[i] : (int64_t)i;
}

/* The DUMPI handle of communicator value v on rank r, for a recorded
 * argument (a DUMPI trace's or the recorder's): a value that fits a handle
 * is one (a DUMPI trace's own, MPI_COMM_NULL 1, WORLD 2, SELF 3); an
 * archive id (the recorder's, a replayed DUMPI communicator's) gets the
 * rank's next free handle from 4 on, the same one each time.  For a
 * communicator the call takes (not one it makes, `out`), an archive id
 * this rank has not used before may be the one of an MPI_Comm_idup of
 * this rank (skidup): the oldest one whose parent has the same members in
 * the same order.  PT_OK or PT_ENOMEM. */
static int sk_comm_in(dsink *k, srank *r, int64_t v, int64_t *h, int out) {
  if (v >= INT16_MIN && v <= 0xffff) {
    *h = v;
    return PT_OK;
  }
  if (!out && r->nidup) {
    int seen = 0;
    for (size_t i = 0; i < r->ncids && !seen; i++)
      seen = r->cids[i] == (uint64_t)v;
    const int64_t *m, *pm;
    uint32_t n, pn;
    int64_t s1, s2;
    if (!seen && native_members(k, r, v, &m, &n, &s1) == 1)
      for (size_t i = 0; i < r->nidup; i++) {
        if (native_members(k, r, r->idup[i].parent, &pm, &pn, &s2) != 1 ||
            pn != n)
          continue;
        uint32_t j = 0;
        while (j < n && member_at(m, j) == member_at(pm, j)) j++;
        if (j < n) continue;
        size_t slot = r->idup[i].slot;
        r->cids[slot] = (uint64_t)v;
        memmove(&r->idup[i], &r->idup[i + 1],
                (r->nidup - i - 1) * sizeof *r->idup);
        r->nidup--;
        *h = (int64_t)(uint16_t)(4 + (int64_t)slot);
        return PT_OK;
      }
  }
  return cid_handle(r, (uint64_t)v, 4, h);
}

/* The same for an event's communicator id of a DUMPI-style trace. */
static int64_t dumpi_comm(dsink *k, srank *r, uint64_t comm) {
  if (comm == PT__DUMPI_COMM_WORLD || comm == PT__DUMPI_COMM_SELF)
    return (int64_t)comm;
  int64_t h;
  if (comm >= 0x10000 && comm != PT_NONE &&
      sk_comm_in(k, r, (int64_t)comm, &h, 0) == 0)
    return h;
  return PT__DUMPI_COMM_WORLD;
}

/* The DUMPI handle of event communicator `comm` on rank r; *out = its
 * definition when its members are known (NULL: take peers as they are).
 * Returns the handle, or PT_ENOMEM. */
static int64_t comm_handle(dsink *k, srank *r, uint64_t comm,
                           const skcomm **out) {
  *out = NULL;
  if (k->comms_dirty && comms_resolve(k) < 0) return PT_ENOMEM;
  const skcomm *c =
      comm == PT_NONE ? NULL
                      : pt__kt_find(&k->comms, (uint64_t[4]){comm, 0, 0, 0});
  if (c && !c->resolved) c = NULL;
  if (c && c->kind != SKC_UNKNOWN) *out = c;
  if (k->comm_mode != SKM_FOREIGN) return dumpi_comm(k, r, comm);
  if (c && c->kind != SKC_UNKNOWN) return c->handle;
  if (!c) return PT__DUMPI_COMM_WORLD; /* no such definition (as before) */
  /* members unknown: a handle of this rank alone (so not matched with
   * another rank's), after the shared ones */
  int64_t h;
  return cid_handle(r, comm, 0x4000, &h) < 0 ? PT_ENOMEM : h;
}

/* The rank in communicator c of COMM_WORLD rank `world` (DUMPI's dest,
 * source, root); as it is when c is NULL or world is not a member. */
static int64_t comm_rank(const skcomm *c, const srank *r, int64_t world) {
  if (!c || world < 0 || c->kind == SKC_WORLD) return world;
  if (c->kind == SKC_SELF || c->kind == SKC_SELFLIKE)
    return world == r->rank ? 0 : world;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->members[i] == world) return (int64_t)i;
  return world;
}

static int64_t sk_comm_size(const skcomm *c, size_t nranks) {
  if (!c || c->kind == SKC_WORLD) return (int64_t)nranks;
  if (c->kind == SKC_SELF || c->kind == SKC_SELFLIKE) return 1;
  return c->n;
}

/* The MPI standard's parameter names (the recorder's attributes) of the
 * arguments DUMPI names otherwise. */
static const char *const arg_alias[][2] = {
    {"oldcomm", "comm"},      {"oldcomm", "old_comm"},
    {"oldcomm", "comm_old"},  {"newcomm", "new_comm"},
    {"newcomm", "comm_cart"}, {"newcomm", "comm_graph"},
    {"ndim", "ndims"},        {"nodes", "nnodes"},
    {"cancelled", "flag"},    {"hosttype", "etype"}, /* File_set/get_view */
    {"offset", "disp"},       {"elements", "count"}, /* Get_elements */
    /* the recorder's MPI names where DUMPI has its own (Type_get_contents;
     * DUMPI spells Type_create_indexed_block's argument "displacments") */
    {"displacments", "array_of_displacements"},
    {"datatype", "mtype"},    {"arrintegers", "array_of_integers"},
    {"arraddresses", "array_of_addresses"}};

static const pt_attr *find_arg(const dsink *k, const pt_event *e,
                               const char *name, uint32_t type) {
  const pt_attr *a = find_attr(k, e, name, type);
  for (size_t i = 0; !a && i < sizeof arg_alias / sizeof arg_alias[0]; i++)
    if (!strcmp(arg_alias[i][0], name))
      a = find_attr(k, e, arg_alias[i][1], type);
  return a;
}

/* MPI_UNDEFINED as MPICH and Open MPI have it (a Comm_split color). */
#define SK_UNDEFINED (-32766)

/* Bytes of a collective as DUMPI counts (datatype MPI_BYTE): the count of
 * Bcast / reductions, and the per-process send and receive counts; sent /
 * received are the COLL_END's bytes of this rank, n the communicator's
 * size.  The inverse of what the reader (coll_bytes) makes of them; a
 * Bcast's root may have its bytes as sent (the reader, the recorder) or
 * as received with sent = n x count (Score-P). */
static void coll_counts(unsigned coll, uint64_t sent, uint64_t recvd,
                        int64_t n, int64_t *count, int64_t *scount,
                        int64_t *rcount) {
  uint64_t un = n > 0 ? (uint64_t)n : 1;
  *count = (int64_t)sent;
  *scount = (int64_t)sent;
  *rcount = (int64_t)recvd;
  switch (coll) {
    case PT_COLL_BCAST:
      *count = (int64_t)(recvd ? recvd : sent);
      break;
    case PT_COLL_REDUCE: case PT_COLL_ALLREDUCE: case PT_COLL_SCAN:
    case PT_COLL_EXSCAN:
      *count = (int64_t)(sent ? sent : recvd);
      break;
    case PT_COLL_GATHER: case PT_COLL_ALLGATHER:
      *rcount = (int64_t)(recvd / un);
      break;
    case PT_COLL_SCATTER:
      *scount = (int64_t)(sent / un);
      break;
    case PT_COLL_ALLTOALL:
      *scount = (int64_t)(sent / un);
      *rcount = (int64_t)(recvd / un);
      break;
    default:
      break;
  }
}

/* Fill the arguments of a call that has no DUMPI argument attributes from
 * the semantic events inside it (what the writer can reconstruct).
 * Communicators are the DUMPI handles of comm_handle, peers and roots
 * ranks in them.  An MPI_Irecv's request event carries no source, tag or
 * size: they (and its communicator) are left MPI_ANY_SOURCE, MPI_ANY_TAG,
 * 0 and WORLD, and *defer is set to the request, whose completion fills
 * them in (pend_complete); else PT_NONE. */
static int pend_complete(dsink *k, srank *r, const pt_event *e);

/* Keys in a FIFO of anonymous requests (anon_rx / anon_tx). */
static size_t anon_n(const pt__anonq *q) { return q->end - q->head; }

/* Append a key: PT_OK or PT_ENOMEM (the taken front reused first). */
static int anon_push(pt__anonq *q, uint64_t key) {
  if (q->end == q->cap && q->head) {
    memmove(q->v, q->v + q->head, anon_n(q) * sizeof *q->v);
    q->end -= q->head;
    q->head = 0;
  }
  if (PT_GROW(q->v, q->cap, q->end + 1, 16)) return PT_ENOMEM;
  q->v[q->end++] = key;
  return PT_OK;
}

/* Take the oldest key (the queue is not empty). */
static uint64_t anon_pop(pt__anonq *q) {
  uint64_t key = q->v[q->head++];
  if (q->head == q->end) q->head = q->end = 0;
  return key;
}

static int synthesise(dsink *k, srank *r, frame *fr, pt__dumpi_call *c,
                      size_t nranks, uint64_t *defer) {
  pt__arena *a = &r->callmem;
  const pt_event *p2p = NULL, *coll = NULL, *rma = NULL;
  size_t ncompl = 0, nrecv = 0;
  *defer = PT_NONE;
  for (size_t i = 0; i < fr->nevs; i++) {
    const pt_event *e = &fr->evs[i];
    switch (e->kind) {
      case PT_EV_RMA_PUT: case PT_EV_RMA_GET: case PT_EV_RMA_ATOMIC:
        if (!rma) rma = e;
        break;
      case PT_EV_SEND: case PT_EV_RECV: case PT_EV_ISEND:
      case PT_EV_IRECV_REQUEST:
        if (!p2p || (p2p->kind == PT_EV_IRECV_REQUEST)) p2p = e;
        break;
      case PT_EV_ISEND_COMPLETE: case PT_EV_IRECV:
      case PT_EV_REQUEST_CANCELLED:
        ncompl++;
        break;
      case PT_EV_COLL_END:
        coll = e;
        break;
      default:
        break;
    }
  }
  c->mask = PT__DUMPI_MASK_DEFAULT & ~PT__DUMPI_MASK_CPU;
  const pt__dumpi_func *f = c->f;
  const pt_event *recv = NULL;
  for (size_t i = 0; i < fr->nevs; i++)
    if (fr->evs[i].kind == PT_EV_RECV) recv = &fr->evs[i], nrecv++;
  /* A source without request ids (OTF 1 from VampirTrace: a plain SEND
   * inside MPI_Isend, nothing inside MPI_Irecv, the RECV inside the
   * MPI_Wait that completed it): the nonblocking call gets a handle of
   * its own, and a completion call with no request events completes them
   * oldest first: one receive per RECV in it (the RECV is its status and
   * fills in the MPI_Irecv's count, source, tag and communicator), and
   * with no RECV, MPI_Wait the oldest send, MPI_Waitall every send. */
  uint64_t anon = PT_NONE;
  int sem = f->sem;
  if ((sem == PT__DS_IRECV && !p2p) ||
      (sem == PT__DS_ISEND && p2p && p2p->kind == PT_EV_SEND)) {
    anon = UINT64_C(1) << 63 | r->anon_seq++;
    int rx = sem == PT__DS_IRECV;
    if (anon_push(rx ? &r->anon_rx : &r->anon_tx, anon) < 0)
      return PT_ENOMEM;
    if (rx) *defer = anon;
  }
  int completes = !ncompl &&
                  (sem == PT__DS_WAIT || sem == PT__DS_WAITANY ||
                   sem == PT__DS_WAITSOME || sem == PT__DS_WAITALL ||
                   sem == PT__DS_TEST || sem == PT__DS_TESTANY ||
                   sem == PT__DS_TESTSOME || sem == PT__DS_TESTALL);
  size_t nanon = 0;
  if (completes) {
    nanon = nrecv < anon_n(&r->anon_rx) ? nrecv : anon_n(&r->anon_rx);
    if (!nrecv && sem == PT__DS_WAIT && anon_n(&r->anon_tx)) nanon = 1;
    if (sem == PT__DS_WAITALL) nanon += anon_n(&r->anon_tx);
  }
  int64_t *reqs = pt__arena_alloc(a, 8 * (ncompl + nanon) + 8);
  int64_t *sts = pt__arena_alloc(a, 40 * (ncompl + nanon) + 40);
  int64_t *idx = pt__arena_alloc(a, 8 * (ncompl + nanon) + 8);
  if (!reqs || !sts || !idx) return PT_ENOMEM;
  const skcomm *ec;
  size_t nc = 0;
  for (size_t i = 0; i < fr->nevs; i++) {
    const pt_event *e = &fr->evs[i];
    if (e->kind != PT_EV_ISEND_COMPLETE && e->kind != PT_EV_IRECV &&
        e->kind != PT_EV_REQUEST_CANCELLED)
      continue;
    reqs[nc] = req_map(r, e->request, 0);
    int64_t *s = sts + 5 * nc;
    s[0] = e->kind == PT_EV_IRECV ? (int64_t)e->size : 0;
    s[1] = -1;
    if (e->kind == PT_EV_IRECV) {
      if (comm_handle(k, r, e->comm, &ec) < 0) return PT_ENOMEM;
      s[1] = comm_rank(ec, r, e->peer);
    }
    s[2] = e->kind == PT_EV_REQUEST_CANCELLED;
    s[3] = 0;
    s[4] = e->kind == PT_EV_IRECV ? e->tag : -1;
    idx[nc] = (int64_t)nc;
    nc++;
  }
  for (size_t i = 0; completes && i < fr->nevs && anon_n(&r->anon_rx); i++) {
    if (fr->evs[i].kind != PT_EV_RECV) continue;
    pt_event e = fr->evs[i];
    e.kind = PT_EV_IRECV;
    e.request = anon_pop(&r->anon_rx);
    if ((reqs[nc] = req_map(r, e.request, 0)) < 0) return PT_ENOMEM;
    int64_t *s = sts + 5 * nc;
    if (comm_handle(k, r, e.comm, &ec) < 0) return PT_ENOMEM;
    s[0] = (int64_t)e.size;
    s[1] = comm_rank(ec, r, e.peer);
    s[2] = s[3] = 0;
    s[4] = e.tag;
    idx[nc] = (int64_t)nc;
    nc++;
    int rc = pend_complete(k, r, &e); /* the MPI_Irecv's arguments */
    if (rc < 0) return rc;
  }
  if (completes && anon_n(&r->anon_tx) &&
      ((sem == PT__DS_WAIT && !nrecv) || sem == PT__DS_WAITALL)) {
    size_t n = sem == PT__DS_WAIT ? 1 : anon_n(&r->anon_tx);
    for (size_t i = 0; i < n; i++) {
      uint64_t key = anon_pop(&r->anon_tx);
      if ((reqs[nc] = req_map(r, key, 0)) < 0) return PT_ENOMEM;
      int64_t *s = sts + 5 * nc;
      s[0] = 0;
      s[1] = -1;
      s[2] = s[3] = 0;
      s[4] = -1;
      idx[nc] = (int64_t)nc;
      nc++;
    }
  }
  if (recv && nc == ncompl) { /* (the anonymous ones have their own) */
    if (comm_handle(k, r, recv->comm, &ec) < 0) return PT_ENOMEM;
    sts[0] = (int64_t)recv->size;
    sts[1] = comm_rank(ec, r, recv->peer);
    sts[2] = sts[3] = 0;
    sts[4] = recv->tag;
  }
  /* the call's communicator: an MPI_Irecv's is its completion's */
  const pt_event *pe = p2p;
  int later = pe && pe->kind == PT_EV_IRECV_REQUEST && !coll;
  const skcomm *cc = NULL;
  int64_t hcomm = PT__DUMPI_COMM_WORLD;
  if (!later && (coll || pe) &&
      (hcomm = comm_handle(k, r, coll ? coll->comm : pe->comm, &cc)) < 0)
    return PT_ENOMEM;
  if (later) *defer = pe->request;
  int64_t csize = sk_comm_size(cc, nranks);
  int64_t count = 0, scount = 0, rcount = 0;
  if (coll)
    coll_counts(f->coll, coll->size, coll->size2, csize, &count, &scount,
                &rcount);
  else if (pe && !later)
    count = scount = (int64_t)pe->size;
  if (!coll && recv) rcount = (int64_t)recv->size;
  int foreign = k->comm_mode == SKM_FOREIGN;
  int64_t myrank = comm_rank(cc, r, r->rank);
  /* a one-sided call (MPI_Put, MPI_Get, MPI_Accumulate): its bytes as
   * MPI_BYTE counts, its target's rank in the window's communicator (the
   * window itself has no MPI_Win_create here: read back, its target is
   * unknown) */
  int64_t rbytes = 0, rtarget = -1;
  if (rma) {
    const skcomm *wc = NULL;
    if (comm_handle(k, r, rma->comm, &wc) < 0) return PT_ENOMEM;
    rbytes = (int64_t)(rma->kind == PT_EV_RMA_GET ? rma->size2 : rma->size);
    rtarget = rma->peer >= 0 ? comm_rank(wc, r, rma->peer) : -1;
  }
  for (unsigned j = 0; j < f->nargs; j++) {
    const pt__dumpi_arg *arg = &f->args[j];
    pt__dumpi_val *v = &c->v[j];
    v->present = 1;
    const char *n = arg->name;
    int64_t x = 0;
    switch (pt__dumpi_atype_wire(arg->type)) {
      case PT__DW_STATUS: {
        int one = arg->type == PT__DA_STATUS;
        size_t cnt = one ? (recv || nc ? 1 : 0) : nc;
        v->i = (int64_t)cnt;
        v->na = (uint32_t)(5 * cnt);
        v->a = sts;
        continue;
      }
      case PT__DW_I32ARR:
      case PT__DW_H16ARR:
      case PT__DW_U8ARR:
        if (!strcmp(n, "requests")) {
          v->i = (int64_t)nc;
          v->na = (uint32_t)nc;
          v->a = reqs;
        } else if (!strcmp(n, "indices")) {
          v->i = (int64_t)nc;
          v->na = (uint32_t)nc;
          v->a = idx;
        } else {
          v->i = 0;
        }
        continue;
      case PT__DW_I32ARR2: case PT__DW_STRARR: case PT__DW_STRARR2:
      case PT__DW_ARGV:
        v->i = 0;
        continue;
      case PT__DW_STR:
        v->s = pt__arena_alloc(a, sizeof(char *));
        if (!v->s) return PT_ENOMEM;
        v->s[0] = "";
        v->ns = 1;
        continue;
      default:
        break;
    }
    if (foreign && arg->type == PT__DA_COMM && !strcmp(n, "newcomm"))
      x = 1; /* MPI_COMM_NULL: the communicators are comm_prologue's */
    else if (foreign && c->label == k->lab_split && !strcmp(n, "color"))
      x = SK_UNDEFINED;
    else if (arg->type == PT__DA_COMM)
      x = hcomm;
    else if (arg->type == PT__DA_DATATYPE)
      x = PT__DUMPI_BYTE;
    else if (!strcmp(n, "count"))
      x = count;
    else if (!strcmp(n, "sendcount"))
      x = scount;
    else if (!strcmp(n, "recvcount"))
      x = rcount;
    else if (!strcmp(n, "dest"))
      x = pe ? comm_rank(cc, r, pe->peer) : -1;
    else if (!strcmp(n, "source"))
      x = later ? PT__DUMPI_ANY_SOURCE
          : recv ? sts[1]
          : pe   ? comm_rank(cc, r, pe->peer)
                 : -1;
    else if (!strcmp(n, "tag") || !strcmp(n, "sendtag"))
      x = later || (anon != PT_NONE && sem == PT__DS_IRECV) ? PT__DUMPI_ANY_TAG
          : pe ? pe->tag : 0;
    else if (!strcmp(n, "recvtag"))
      x = recv ? recv->tag : 0;
    else if (!strcmp(n, "root"))
      x = coll && coll->peer >= 0 ? comm_rank(cc, r, coll->peer) : 0;
    else if (!strcmp(n, "commrank") || !strcmp(n, "rank"))
      x = myrank;
    else if (!strcmp(n, "commsize") || !strcmp(n, "size"))
      x = csize;
    else if (!strcmp(n, "origincount") || !strcmp(n, "targetcount"))
      x = rbytes;
    else if (!strcmp(n, "targetrank"))
      x = rtarget;
    else if (!strcmp(n, "win"))
      x = rma ? (int64_t)(uint16_t)rma->ref : 0;
    else if (arg->type == PT__DA_REQUEST) {
      const pt_event *re = NULL;
      for (size_t i = 0; i < fr->nevs; i++)
        if (fr->evs[i].kind == PT_EV_ISEND ||
            fr->evs[i].kind == PT_EV_IRECV_REQUEST) {
          re = &fr->evs[i];
          break;
        }
      if (re) x = req_map(r, re->request, 1);
      else if (anon != PT_NONE) x = req_map(r, anon, 1);
      else x = nc ? reqs[0] : PT__DUMPI_REQUEST_NULL;
      if (x < 0) return PT_ENOMEM;
    } else if (!strcmp(n, "flag"))
      x = nc ? 1 : 0;
    else if (!strcmp(n, "outcount"))
      x = (int64_t)nc;
    else if (!strcmp(n, "index"))
      x = 0;
    else if (arg->type == PT__DA_OP)
      x = 3; /* MPI_SUM: the model does not say */
    v->i = x;
  }
  return PT_OK;
}

/* libundumpi reads the length of a 1-D array (count + elements on the
 * wire) into the scalar argument that names its length (dumpi2ascii's
 * `len`: Waitall's count, Graph_create's numedges, Alltoallv's commsize),
 * replacing the value stored for that scalar; dumpi2ascii prints the
 * replaced value and that many elements.  So a scalar the writer had to
 * make up (`made` has bit k for argument k) must be the array's length:
 * the file then reads the same with libundumpi and with our reader. */
static void lengths_from_arrays(pt__dumpi_call *c, uint32_t made) {
  const pt__dumpi_func *f = c->f;
  for (unsigned j = 0; j < f->nargs; j++) {
    const pt__dumpi_arg *arg = &f->args[j];
    int l = arg->len;
    pt__dumpi_wire w = pt__dumpi_atype_wire(arg->type);
    if (l < 0 || (unsigned)l >= f->nargs || !(made & (1u << l)) ||
        !c->v[j].present ||
        (w != PT__DW_I32ARR && w != PT__DW_H16ARR && w != PT__DW_U8ARR) ||
        pt__dumpi_atype_wire(f->args[l].type) != PT__DW_I32)
      continue;
    if (arg->ca >= 0 && c->v[arg->ca].i != c->v[arg->cb].i) continue;
    c->v[l].i = c->v[j].i;
  }
}

/* Split a "a,b,c" list into n ints (allocated in a). */
static int64_t *parse_ints(pt__arena *a, const char *s, size_t *n) {
  size_t m = *s ? 1 : 0;
  for (const char *p = s; *p; p++) m += *p == ',';
  int64_t *v = pt__arena_alloc(a, 8 * m + 8);
  if (!v) return NULL;
  const char *p = s;
  for (size_t i = 0; i < m; i++) {
    char *e;
    v[i] = strtoll(p, &e, 10);
    p = *e == ',' ? e + 1 : e;
  }
  *n = m;
  return v;
}

/* Rank r's header offsets (the seconds its cpu and wall times count from)
 * when the source gave neither: those of its first record, at wall time w0
 * (ns). */
static void offsets_from(srank *r, uint64_t w0) {
  if (r->have_offsets) return;
  r->wall_off = (uint32_t)(w0 / NS);
  r->cpu_off = 0;
  r->have_offsets = 3;
}

/* Build the call of a frame closed by LEAVE `lv`. */
static int build_call(dsink *k, srank *r, frame *fr, const pt_event *lv,
                      pt__dumpi_call *c, uint64_t *defer) {
  *defer = PT_NONE;
  pt__arena_reset(&r->callmem);
  memset(c, 0, sizeof *c);
  c->label = (uint16_t)fr->label;
  c->f = pt__dumpi_func_get(c->label);
  const pt__dumpi_func *f = c->f;
  const pt_event *en = &fr->enter;
  int derived = 0;
  uint32_t made = 0; /* scalar arguments not in the attributes */
  for (unsigned j = 0; j < f->nargs && !derived; j++)
    if (find_arg(k, en, f->args[j].name, arg_mtype(f->args[j].type)))
      derived = 1;
  if (find_attr(k, en, extra_names[EX_MASK], PT_TYPE_INT) ||
      find_attr(k, en, extra_names[EX_CPU_START], PT_TYPE_INT))
    derived = 1;
  /* times */
  uint64_t w0 = to_ns(k, fr->t0), w1 = to_ns(k, lv->time);
  const pt_attr *wa = find_attr(k, en, extra_names[EX_WALL], PT_TYPE_INTS);
  if (wa && wa->val.count == 2) {
    w0 = (uint64_t)wa->val.v.ints[0];
    w1 = (uint64_t)wa->val.v.ints[1];
  }
  if (w1 / NS > UINT32_MAX) k->far++;
  offsets_from(r, w0);
  c->wall_start.sec = (int64_t)(w0 / NS);
  c->wall_start.nsec = (uint32_t)(w0 % NS);
  c->wall_stop.sec = (int64_t)(w1 / NS);
  c->wall_stop.nsec = (uint32_t)(w1 % NS);
  if (!derived) {
    int rc = synthesise(k, r, fr, c, k->nranks, defer);
    if (rc == PT_OK) lengths_from_arrays(c, ~0u); /* all made up */
    return rc;
  }
  const pt_attr *at;
  c->mask = (at = find_attr(k, en, extra_names[EX_MASK], PT_TYPE_INT))
                ? (uint8_t)at->val.v.i
                : PT__DUMPI_MASK_DEFAULT;
  if ((at = find_attr(k, en, extra_names[EX_THREAD], PT_TYPE_INT)))
    c->thread = (uint16_t)at->val.v.i;
  if ((at = find_attr(k, en, extra_names[EX_CPU_START], PT_TYPE_INT))) {
    c->cpu_start.sec = at->val.v.i / NS;
    c->cpu_start.nsec = (uint32_t)(at->val.v.i % NS);
  }
  if ((at = find_attr(k, lv, extra_names[EX_CPU_STOP], PT_TYPE_INT))) {
    c->cpu_stop.sec = at->val.v.i / NS;
    c->cpu_stop.nsec = (uint32_t)(at->val.v.i % NS);
  }
  if (c->mask & PT__DUMPI_MASK_PERF) {
    const pt_attr *pi = find_attr(k, en, extra_names[EX_PERF], PT_TYPE_INTS);
    const pt_attr *po = find_attr(k, lv, extra_names[EX_PERF], PT_TYPE_INTS);
    uint32_t np = pi ? pi->val.count : 0;
    if (np > 255) np = 255;
    c->nperf = (uint8_t)np;
    c->perf_in = pt__arena_alloc(&r->callmem, 8u * np + 8);
    c->perf_out = pt__arena_alloc(&r->callmem, 8u * np + 8);
    if (!c->perf_in || !c->perf_out) return PT_ENOMEM;
    for (uint32_t j = 0; j < np; j++) {
      c->perf_in[j] = (uint64_t)pi->val.v.ints[j];
      c->perf_out[j] =
          po && j < po->val.count ? (uint64_t)po->val.v.ints[j] : 0;
    }
  }
  for (unsigned j = 0; j < f->nargs; j++) {
    const pt__dumpi_arg *arg = &f->args[j];
    pt__dumpi_val *v = &c->v[j];
    if (arg->ca >= 0 && c->v[arg->ca].i != c->v[arg->cb].i) continue;
    pt__dumpi_wire w = pt__dumpi_atype_wire(arg->type);
    uint32_t mt = arg_mtype(arg->type);
    v->present = 1;
    if (mt == PT_TYPE_INT) {
      at = find_arg(k, en, arg->name, PT_TYPE_INT);
      v->i = at ? at->val.v.i : 0;
      if (!at) made |= 1u << j;
      /* (a communicator the call makes is no use of an MPI_Comm_idup's) */
      if (at && arg->type == PT__DA_COMM &&
          sk_comm_in(k, r, v->i, &v->i,
                     !strcmp(arg->name, "newcomm") ||
                         !strcmp(arg->name, "intercomm") ||
                         !strcmp(arg->name, "parent")) < 0)
        return PT_ENOMEM;
      continue;
    }
    if (mt == PT_TYPE_INTS) {
      at = find_arg(k, en, arg->name, PT_TYPE_INTS);
      v->na = at ? at->val.count : 0;
      v->a = at ? (int64_t *)at->val.v.ints : NULL;
      if (w == PT__DW_STATUS) {
        v->na -= v->na % 5;
        v->i = v->na / 5;
        if (!at && !(c->mask & PT__DUMPI_MASK_STATUS)) v->present = 0;
      } else if (w == PT__DW_I32ARR2) {
        /* rows: walk [len, elems...] */
        uint32_t q = 0, rows = 0;
        while (q < v->na) {
          int64_t len = v->a[q] > 0 ? v->a[q] : 0;
          if (q + 1 + (uint64_t)len > v->na) {
            v->na = q;
            break;
          }
          q += 1 + (uint32_t)len;
          rows++;
        }
        v->i = rows;
      } else {
        v->i = v->na;
      }
      if (w != PT__DW_STRARR2) continue;
    }
    /* strings: every attribute of that name, in order */
    uint32_t ns = 0;
    for (uint32_t i = 0; i < en->nattrs; i++) {
      uint32_t t;
      const char *nm = attr_name(k, en->attrs[i].key, &t);
      if (nm && t == PT_TYPE_STRING &&
          en->attrs[i].val.type == PT_TYPE_STRING && !strcmp(nm, arg->name))
        ns++;
    }
    uint32_t want = ns;
    if (w == PT__DW_ARGV) want = arg->len >= 0 && c->v[arg->len].i > 0
                                     ? (uint32_t)c->v[arg->len].i : 0;
    if (w == PT__DW_STR) want = 1;
    if (w == PT__DW_STRARR2) {
      uint64_t tot = 0;
      for (uint32_t q = 0; q < v->na; q++) tot += v->a[q] > 0 ? (uint64_t)v->a[q] : 0;
      want = (uint32_t)tot;
    }
    v->s = pt__arena_alloc(&r->callmem, (size_t)(want + 1) * sizeof(char *));
    if (!v->s) return PT_ENOMEM;
    uint32_t got = 0;
    for (uint32_t i = 0; i < en->nattrs && got < want; i++) {
      uint32_t t;
      const char *nm = attr_name(k, en->attrs[i].key, &t);
      if (nm && t == PT_TYPE_STRING &&
          en->attrs[i].val.type == PT_TYPE_STRING && !strcmp(nm, arg->name))
        v->s[got++] = (char *)en->attrs[i].val.v.s;
    }
    while (got < want) v->s[got++] = "";
    v->ns = want;
    if (w == PT__DW_STRARR) v->i = want;
    else if (w == PT__DW_ARGV) v->i = c->v[arg->len].i;
    else if (w == PT__DW_STR) v->i = 1;
  }
  lengths_from_arrays(c, made);
  return PT_OK;
}

static void bput(pt__buf *b, const void *p, size_t n) {
  (void)pt__buf_put(b, p, n);
}
static void b8(pt__buf *b, uint8_t v) { bput(b, &v, 1); }
static void b16(pt__buf *b, uint16_t v) {
  uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
  bput(b, x, 2);
}
static void b32(pt__buf *b, uint32_t v) {
  uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8),
                  (uint8_t)v};
  bput(b, x, 4);
}
static void b64(pt__buf *b, uint64_t v) {
  b32(b, (uint32_t)(v >> 32));
  b32(b, (uint32_t)v);
}
static void bstr16(pt__buf *b, const char *s) {
  size_t l = strlen(s);
  if (l > 65535) l = 65535;
  b16(b, (uint16_t)l);
  bput(b, s, l);
}

static int rank_flush(dsink *k, srank *r) {
  if (!r->out.len) return PT_OK;
  int fd = open(r->path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0 || pt__write_all(fd, r->out.p, r->out.len) < 0) {
    pt__errbuf(k->err, sizeof k->err, PT_EIO, "%s: %s", r->path,
               strerror(errno));
    if (fd >= 0) close(fd);
    return PT_EIO;
  }
  close(fd);
  r->written += r->out.len;
  r->out.len = 0;
  return PT_OK;
}

static int rank_create(dsink *k, srank *r) {
  if (r->created) return PT_OK;
  char buf[32];
  snprintf(buf, sizeof buf, "-%04lld.bin", (long long)r->rank);
  size_t n = strlen(k->prefix) + strlen(buf) + 1;
  r->path = malloc(n);
  if (!r->path) return PT_ENOMEM;
  snprintf(r->path, n, "%s%s", k->prefix, buf);
  int fl = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (k->overwrite ? 0 : O_EXCL);
  int fd = open(r->path, fl, 0644);
  if (fd < 0) {
    pt__errbuf(k->err, sizeof k->err, errno == EEXIST ? PT_EEXIST : PT_EIO,
               "%s: %s", r->path, strerror(errno));
    free(r->path);
    r->path = NULL;
    return errno == EEXIST ? PT_EEXIST : PT_EIO;
  }
  close(fd);
  r->created = 1;
  b64(&r->out, PT__DUMPI_HEAD_MAGIC);
  b32(&r->out, r->cpu_off);
  b32(&r->out, r->wall_off);
  return PT_OK;
}

static int print_call(dsink *k, srank *r, pt__dumpi_call *c) {
  /* what the record would hold: no argument whose condition is false (a
   * non-root's Gather recvtype); a synthesised call has them all */
  for (unsigned j = 0; j < c->f->nargs; j++) {
    const pt__dumpi_arg *arg = &c->f->args[j];
    if (arg->ca >= 0 && c->v[arg->ca].i != c->v[arg->cb].i)
      memset(&c->v[j], 0, sizeof c->v[j]);
  }
  /* dumpi2ascii prints offset + the stored 16 bits of seconds. */
  pt__dumpi_clock *cl[4] = {&c->cpu_start, &c->cpu_stop, &c->wall_start,
                            &c->wall_stop};
  for (int i = 0; i < 4; i++) {
    int64_t off = i < 2 ? r->cpu_off : r->wall_off;
    if (cl[i]->sec || cl[i]->nsec)
      cl[i]->sec = off + (uint16_t)(cl[i]->sec - off);
  }
  if (!(c->mask & PT__DUMPI_MASK_CPU))
    c->cpu_start = c->cpu_stop = (pt__dumpi_clock){0, 0};
  if (!(c->mask & PT__DUMPI_MASK_WALL))
    c->wall_start = c->wall_stop = (pt__dumpi_clock){0, 0};
  pt__dumpi_tables t = {r->naddr, r->addr, r->addrname, r->nperf, r->perf};
  if (k->label_ranks && k->nranks > 1 && r->rank != k->printed_rank) {
    /* dumpi2ascii prints one file (rank) at a time; no line of it
     * starts with '#' */
    fprintf(k->pf, "# rank %lld\n", (long long)r->rank);
    k->printed_rank = r->rank;
  }
  return pt__dumpi_print_call(k->pf, c, &t);
}

/* Print mode: at most this many records wait behind an MPI_Irecv whose
 * completion has not come; beyond it the oldest is printed as it is
 * (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0), said at close. */
enum { PQ_MAX_HELD = 1 << 20 };

/* The pending completion entries of print-queue entry `qe`: gone (its
 * record printed without them). */
static void pend_drop_qent(dsink *k, size_t qe) {
  srank *r = &k->ranks[k->pqe[qe].rank];
  size_t j = 0;
  for (size_t i = 0; i < r->npend; i++)
    if (r->pend[i].qent != qe) r->pend[j++] = r->pend[i];
  r->npend = j;
  k->pqe[qe].npending = 0;
}

/* Print mode: printed entries at the front of the queue are dropped
 * (entries, bytes, and the offsets pending completions hold), so that a
 * queue that never empties (an MPI_Irecv always outstanding somewhere)
 * stays as long as what it holds. */
static void pq_compact(dsink *k) {
  size_t h = k->hpqe;
  if (h < 4096 || h < k->npqe - h) return;
  size_t base = k->pqe[h].off;
  memmove(k->pq.p, k->pq.p + base, k->pq.len - base);
  k->pq.len -= base;
  memmove(k->pqe, k->pqe + h, (k->npqe - h) * sizeof *k->pqe);
  k->npqe -= h;
  k->hpqe = 0;
  for (size_t i = 0; i < k->npqe; i++) k->pqe[i].off -= base;
  for (size_t ri = 0; ri < k->nranks; ri++) {
    srank *r = &k->ranks[ri];
    for (size_t i = 0; i < r->npend; i++) {
      r->pend[i].qent -= h;
      r->pend[i].at -= base;
    }
  }
}

/* Print mode: print the held-back records from the first on, up to one
 * still waiting for a completion (all: every one). */
static int pq_drain(dsink *k, int all) {
  while (k->hpqe < k->npqe && (all || !k->pqe[k->hpqe].npending)) {
    const skqent *q = &k->pqe[k->hpqe++];
    srank *r = &k->ranks[q->rank];
    pt__dumpi_call c;
    char err[200];
    pt__arena_reset(&k->pqmem);
    long n = pt__dumpi_decode(k->pq.p + q->off, q->len, r->cpu_off,
                              r->wall_off, &c, &k->pqmem, err, sizeof err);
    if (n < 0) return (int)n;
    int rc = print_call(k, r, &c);
    if (rc < 0) return rc;
  }
  if (k->hpqe == k->npqe) k->hpqe = k->npqe = k->pq.len = 0;
  else if (!all) pq_compact(k);
  return PT_OK;
}

/* Print mode: no more than PQ_MAX_HELD records held back. */
static int pq_bound(dsink *k) {
  while (k->npqe - k->hpqe >= PQ_MAX_HELD) {
    if (k->pqe[k->hpqe].npending) {
      pend_drop_qent(k, k->hpqe);
      k->pq_forced++;
    }
    int rc = pq_drain(k, 0);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

/* Write (print) call c of rank r.  *at = where its record starts: the
 * offset in the rank's file, or in print mode in the print queue (hold:
 * the record waits for a completion, and so do the ones after it). */
static int emit_call(dsink *k, srank *r, pt__dumpi_call *c, int hold,
                     uint64_t *at) {
  *at = 0;
  if (k->print_mode) {
    if (!hold && k->hpqe == k->npqe) return print_call(k, r, c);
    /* room for this one (before its offset is taken: the bound may move
     * the queue) */
    int rc = pq_bound(k);
    if (rc < 0) return rc;
    if (!hold && k->hpqe == k->npqe) return print_call(k, r, c);
    if (PT_GROW(k->pqe, k->cappqe, k->npqe + 1, 64)) return PT_ENOMEM;
    size_t off = k->pq.len;
    if (pt__dumpi_encode(&k->pq, c, r->cpu_off, r->wall_off) < 0)
      return PT_ENOMEM;
    k->pqe[k->npqe++] = (skqent){(size_t)(r - k->ranks), off,
                                 k->pq.len - off, hold};
    *at = off;
    return PT_OK;
  }
  int rc = rank_create(k, r);
  if (rc < 0) return rc;
  *at = r->written + r->out.len;
  if (pt__dumpi_encode(&r->out, c, r->cpu_off, r->wall_off) < 0)
    return PT_ENOMEM;
  r->called[c->label < PT__DUMPI_ALL_FUNCTIONS ? c->label
                                               : PT__DUMPI_ALL_FUNCTIONS]++;
  if (c->label < PT__DUMPI_ALL_FUNCTIONS) r->called[PT__DUMPI_ALL_FUNCTIONS]++;
  if (r->out.len >= (64u << 10)) return rank_flush(k, r);
  return PT_OK;
}

/* The byte offsets in the record of c of the arguments names[0..n), in
 * one walk of its arguments: off[i] the offset of names[i] and w[i] its
 * width, off[i] = -1 (w[i] untouched) where there is no such argument or
 * one before it is not of fixed width (in MPI_Irecv all are). */
static void arg_offsets(const pt__dumpi_call *c, const char *const *names,
                        int n, int *off, uint8_t *w) {
  const pt__dumpi_func *f = c->f;
  int at = 3;
  if (c->mask & PT__DUMPI_MASK_THREAD) at += 2;
  if (c->mask & PT__DUMPI_MASK_CPU) at += 12;
  if (c->mask & PT__DUMPI_MASK_WALL) at += 12;
  if (c->mask & PT__DUMPI_MASK_PERF) at += 1 + 16 * c->nperf;
  for (int i = 0; i < n; i++) off[i] = -1;
  for (unsigned j = 0; j < f->nargs; j++) {
    const pt__dumpi_arg *arg = &f->args[j];
    unsigned wd = pt__dumpi_wire_width(pt__dumpi_atype_wire(arg->type));
    if (!wd || arg->ca >= 0) return;
    for (int i = 0; i < n; i++)
      if (off[i] < 0 && !strcmp(arg->name, names[i])) {
        off[i] = at;
        w[i] = (uint8_t)wd;
      }
    at += (int)wd;
  }
}

/* Remember the MPI_Irecv c just written at `at`, to be completed by the
 * completion of model request `request`. */
static int pend_add(dsink *k, srank *r, const pt__dumpi_call *c,
                    uint64_t request, uint64_t at) {
  static const char *const names[4] = {"count", "source", "tag", "comm"};
  skpend p = {.request = request, .at = at,
              .qent = k->print_mode ? k->npqe - 1 : 0};
  int off[4], any = 0;
  arg_offsets(c, names, 4, off, p.w);
  for (int i = 0; i < 4; i++) {
    p.off[i] = (int16_t)off[i];
    any |= p.off[i] >= 0;
  }
  if (!any) {
    if (k->print_mode) k->pqe[p.qent].npending = 0;
    return k->print_mode ? pq_drain(k, 0) : PT_OK;
  }
  if (PT_GROW(r->pend, r->cappend, r->npend + 1, 16)) return PT_ENOMEM;
  r->pend[r->npend++] = p;
  return PT_OK;
}

/* Completion (or cancel) e of a request on rank r: fill in the MPI_Irecv
 * that waits for it. */
static int pend_complete(dsink *k, srank *r, const pt_event *e) {
  size_t i = 0;
  while (i < r->npend && r->pend[i].request != e->request) i++;
  if (i == r->npend) return PT_OK;
  skpend p = r->pend[i];
  /* in posting order: a request id used again matches its oldest use */
  memmove(&r->pend[i], &r->pend[i + 1], (r->npend - i - 1) * sizeof *r->pend);
  r->npend--;
  if (e->kind == PT_EV_IRECV) {
    int64_t peer = e->peer;
    if (k->rank_dup && peer >= 0) { /* location id -> the rank written */
      srank *pr = rank_for_loc(k, (uint64_t)peer);
      if (!pr) return PT_ENOMEM;
      peer = pr->rank;
    }
    const skcomm *c;
    int64_t h = comm_handle(k, r, e->comm, &c);
    if (h < 0) return PT_ENOMEM;
    int64_t v[4] = {(int64_t)e->size, comm_rank(c, r, peer), e->tag, h};
    int fd = -1;
    for (int j = 0; j < 4; j++) {
      if (p.off[j] < 0) continue;
      uint8_t b[8];
      for (unsigned q = 0; q < p.w[j]; q++)
        b[q] = (uint8_t)((uint64_t)v[j] >> (8 * (p.w[j] - 1 - q)));
      uint64_t at = p.at + (uint64_t)p.off[j];
      if (k->print_mode) {
        memcpy(k->pq.p + at, b, p.w[j]);
      } else if (at >= r->written) {
        memcpy(r->out.p + (at - r->written), b, p.w[j]);
      } else { /* already in the file */
        if (fd < 0 && (fd = open(r->path, O_WRONLY | O_CLOEXEC)) < 0) break;
        if (pwrite(fd, b, p.w[j], (off_t)at) != (ssize_t)p.w[j]) {
          close(fd);
          fd = -2;
          break;
        }
      }
    }
    if (fd >= 0) close(fd);
    if (fd != -1 && fd < 0) {
      pt__errbuf(k->err, sizeof k->err, PT_EIO, "%s: %s", r->path,
                 strerror(errno));
      return PT_EIO;
    }
  }
  if (!k->print_mode) return PT_OK;
  k->pqe[p.qent].npending--;
  return pq_drain(k, 0);
}

/* Another source's communicators (SKM_FOREIGN) come without the calls
 * that made them, or with calls that do not say which: on every rank,
 * right after its MPI_Init (or before its first call), one MPI_Comm_split
 * of MPI_COMM_WORLD per communicator in definition order makes them as
 * the DUMPI reader (and a simulator) will replay them: the members with
 * color 0 and their rank as key get the communicator's handle, the
 * others MPI_UNDEFINED and MPI_COMM_NULL (a communicator of each rank
 * alone: color = the rank).  The source's own creating calls are written
 * with MPI_COMM_NULL (synthesise). */
/* Write an MPI_Comm_split(oldcomm, color, key) -> newcomm of rank r (DUMPI
 * handles) from t0 to t1. */
static int emit_split(dsink *k, srank *r, uint16_t thread,
                      pt__dumpi_clock t0, pt__dumpi_clock t1, int64_t oldcomm,
                      int64_t color, int64_t key, int64_t newcomm) {
  pt__dumpi_call c;
  memset(&c, 0, sizeof c);
  c.label = (uint16_t)k->lab_split;
  c.f = pt__dumpi_func_get(c.label);
  c.mask = PT__DUMPI_MASK_DEFAULT & ~PT__DUMPI_MASK_CPU;
  c.thread = thread;
  for (unsigned j = 0; j < c.f->nargs; j++) {
    const char *n = c.f->args[j].name;
    c.v[j].present = 1;
    c.v[j].i = !strcmp(n, "oldcomm")   ? oldcomm
               : !strcmp(n, "color")   ? color
               : !strcmp(n, "key")     ? key
               : !strcmp(n, "newcomm") ? newcomm
                                       : 0;
  }
  c.wall_start = t0;
  c.wall_stop = t1;
  uint64_t at;
  return emit_call(k, r, &c, 0, &at);
}

static int comm_prologue(dsink *k, srank *r, uint16_t thread,
                         pt__dumpi_clock t) {
  if (comms_resolve(k) < 0) return PT_ENOMEM;
  r->prologue = 1; /* (after: what is resolved now is not late) */
  if (k->comm_mode != SKM_FOREIGN || k->lab_split < 0) return PT_OK;
  for (size_t i = 0; i < k->comms.n; i++) {
    const skcomm *cm = pt__kt_at(&k->comms, i);
    if (!cm->resolved || cm->handle < 4) continue;
    int64_t color = SK_UNDEFINED, key = 0, h = 1;
    if (cm->kind == SKC_SELFLIKE) {
      color = r->rank;
      h = cm->handle;
    } else {
      for (uint32_t j = 0; j < cm->n; j++)
        if (cm->members[j] == r->rank) {
          color = 0;
          key = (int64_t)j;
          h = cm->handle;
        }
    }
    int rc = emit_split(k, r, thread, t, t, PT__DUMPI_COMM_WORLD, color, key,
                        h);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

/* The value of the first of the INT attributes `names` of e (NULL-ended);
 * 0 if none. */
static int find_int(const dsink *k, const pt_event *e,
                    const char *const *names, int64_t *v) {
  for (; *names; names++) {
    const pt_attr *a = find_attr(k, e, *names, PT_TYPE_INT);
    if (a) {
      *v = a->val.v.i;
      return 1;
    }
  }
  return 0;
}

/* ENTER e of a recorded call DUMPI has no record for (x): if it makes an
 * intracommunicator from a parent (the recorder's arguments: MPI-3's
 * MPI_Comm_split_type, _create_group, _dup_with_info, _idup,
 * MPI_Dist_graph_create(_adjacent)...), keep its parent and new
 * communicator for its LEAVE (dropped_comm_call). */
static void dropped_comm_enter(dsink *k, sthread *th, const pt_event *e) {
  static const char *const outs[] = {"newcomm", "comm_dist_graph",
                                     "newintercomm", NULL};
  static const char *const ins[] = {"comm", "comm_old", "oldcomm", NULL};
  skdrop *d = &th->drop;
  if (d->active || k->comm_mode == SKM_FOREIGN)
    return; /* (one at a time: MPI calls do not nest) */
  if (k->comms_dirty && comms_resolve(k) < 0) return;
  if (k->comm_mode != SKM_NATIVE || k->lab_split < 0 ||
      !find_int(k, e, outs, &d->newcomm))
    return;
  if (!find_int(k, e, ins, &d->parent)) d->parent = -1; /* none */
  d->active = 1;
  d->depth = th->depth;
  d->region = e->ref;
  d->t0 = e->time;
}

static pt__dumpi_clock ns_clock(uint64_t ns) {
  pt__dumpi_clock c = {(int64_t)(ns / NS), (uint32_t)(ns % NS)};
  return c;
}

/* LEAVE lv of the call that dropped_comm_enter kept (x its region):
 * DUMPI keeps no members, and without a record of the call that made it
 * the reader's replay cannot know the communicator, so the messages and
 * collectives on it would keep ranks in it with a handle of the rank
 * alone.  Written instead, in its place: the MPI_Comm_split of its
 * parent that makes the same communicator (color: its lowest COMM_WORLD
 * rank, key: the rank in it; MPI_UNDEFINED for MPI_COMM_NULL), which
 * every member of the parent calls as it called the dropped call.  Not
 * possible (counted in x, said at close): an intercommunicator, members
 * or parent unknown, MPI_Comm_create_group of part of its parent (a
 * split is collective over the whole parent). */
static int dropped_comm_call(dsink *k, srank *r, sthread *th, sk_region *x,
                             const pt_event *lv) {
  skdrop *d = &th->drop;
  d->active = 0;
  const int64_t *pm, *m;
  uint32_t pn, n;
  int64_t s1, s2;
  int idup = !strcmp(x->mpi_name, "MPI_Comm_idup") ||
             !strcmp(x->mpi_name, "MPI_Comm_idup_with_info");
  int pk = d->parent < 0 ? 0 : native_members(k, r, d->parent, &pm, &pn, &s1);
  int nk = d->newcomm == 1 ? 1 : native_members(k, r, d->newcomm, &m, &n, &s2);
  const char *why = NULL;
  if (pk < 0 || nk < 0)
    why = "an intercommunicator";
  else if (!pk || !nk)
    why = "members or parent unknown";
  int64_t color = SK_UNDEFINED, key = 0, in = -1;
  for (uint32_t j = 0; !why && j < pn && in < 0; j++)
    if (member_at(pm, j) == r->rank) in = j;
  if (!why && in < 0) why = "the caller is not in its parent";
  if (!why && idup) {
    color = 0; /* a dup: the handle is bound at its first use (skidup) */
    key = in;
  } else if (!why && d->newcomm != 1) {
    uint32_t found = 0;
    color = INT64_MAX;
    key = -1;
    for (uint32_t j = 0; j < n; j++) {
      int64_t w = member_at(m, j);
      uint32_t q = 0;
      while (q < pn && member_at(pm, q) != w) q++;
      if (q < pn) found++;
      if (w < color) color = w;
      if (w == r->rank) key = j;
    }
    if (found < n || key < 0)
      why = "members outside its parent";
    else if (n < pn && !strcmp(x->mpi_name, "MPI_Comm_create_group"))
      why = "made by part of its parent only, and an MPI_Comm_split is "
            "collective over the whole parent";
  } else if (!why && !strcmp(x->mpi_name, "MPI_Comm_create_group")) {
    return PT_OK; /* (failed: made nothing) */
  }
  if (why) {
    x->unmapped++;
    x->why = why;
    return PT_OK;
  }
  int64_t ho, hn = 1;
  int rc = sk_comm_in(k, r, d->parent, &ho, 0);
  if (rc < 0) return rc;
  if (idup) {
    /* a placeholder id (archive ids have bit 63 clear) */
    if (PT_GROW(r->idup, r->capidup, r->nidup + 1, 8)) return PT_ENOMEM;
    size_t slot = r->ncids;
    rc = cid_handle(r, UINT64_C(1) << 63 | slot, 4, &hn);
    if (rc < 0) return rc;
    r->idup[r->nidup++] = (skidup){slot, d->parent};
  } else if (d->newcomm != 1 &&
             (rc = sk_comm_in(k, r, d->newcomm, &hn, 1)) < 0) {
    return rc;
  }
  uint64_t w0 = to_ns(k, d->t0), w1 = to_ns(k, lv->time);
  offsets_from(r, w0);
  if (!r->prologue && (rc = comm_prologue(k, r, th->index, ns_clock(w0))) < 0)
    return rc;
  x->as_split++;
  return emit_split(k, r, th->index, ns_clock(w0), ns_clock(w1), ho, color,
                    key, hn);
}

static int sk_event(dsink *k, const pt_event *e) {
  if (k->print_mode && k->only_loc != PT_NONE && e->location != k->only_loc)
    return PT_OK;
  srank *r = rank_for_loc(k, e->location);
  if (!r) {
    /* a location that is no rank (PICL's wildcard or host processor,
     * location 2^41 + n): nothing DUMPI could hold; said once */
    uint64_t n = 0;
    pt__map_get(&k->norank, e->location, &n);
    if (pt__map_put(&k->norank, e->location, n + 1) < 0) return PT_ENOMEM;
    return PT_OK;
  }
  int label = -1;
  if (e->kind == PT_EV_ENTER || e->kind == PT_EV_LEAVE) {
    sk_region *x = pt__kt_find(&k->regions, (uint64_t[4]){e->ref, 0, 0, 0});
    if (x) label = x->label;
    if (x && x->mpi_name && e->kind == PT_EV_ENTER) x->dropped++;
    if (x && x->mpi_name) {
      /* a call DUMPI has no record for that may make a communicator */
      sthread *t = thread_for_loc(k, r, e->location);
      if (!t) return PT_ENOMEM;
      if (e->kind == PT_EV_ENTER) dropped_comm_enter(k, t, e);
      else if (t->drop.active && t->drop.region == e->ref &&
               t->drop.depth == t->depth)
        return dropped_comm_call(k, r, t, x, e);
      return PT_OK;
    }
    if (e->kind == PT_EV_ENTER) {
      if (label < 0) k->other_enters++;
      else k->call_enters++;
    }
  }
  if ((e->kind == PT_EV_IRECV || e->kind == PT_EV_REQUEST_CANCELLED) &&
      r->npend) {
    int rc = pend_complete(k, r, e);
    if (rc < 0) return rc;
  }
  sthread *th = thread_for_loc(k, r, e->location);
  if (!th) return PT_ENOMEM;
  if (e->kind == PT_EV_ENTER) {
    if (label < 0) return PT_OK;
    if (th->depth == 8) {
      pt__errbuf(k->err, sizeof k->err, PT_ELIMIT,
                 "location %llu: MPI calls nested deeper than 8",
                 (unsigned long long)e->location);
      return PT_ELIMIT;
    }
    if (th->depth == 0) pt__arena_reset(&th->arena);
    frame *fr = &th->stack[th->depth++];
    fr->label = label;
    fr->region = e->ref;
    fr->t0 = e->time;
    fr->nevs = 0;
    if (pt__event_copy(&th->arena, &fr->enter, e) < 0) return PT_ENOMEM;
    return PT_OK;
  }
  if (e->kind == PT_EV_LEAVE) {
    if (label < 0 || th->depth == 0 ||
        th->stack[th->depth - 1].region != e->ref)
      return PT_OK;
    frame *fr = &th->stack[th->depth - 1];
    pt__dumpi_call c;
    uint64_t defer, at;
    int rc = build_call(k, r, fr, e, &c, &defer);
    if (rc < 0) return rc;
    if (!c.thread) c.thread = th->index;
    int init = c.label == k->lab_init || c.label == k->lab_init_thread;
    if (!r->prologue && !init && c.label != k->lab_initialized &&
        (rc = comm_prologue(k, r, c.thread, c.wall_start)) < 0)
      return rc;
    rc = emit_call(k, r, &c, defer != PT_NONE, &at);
    if (rc >= 0 && defer != PT_NONE) rc = pend_add(k, r, &c, defer, at);
    if (rc >= 0 && !r->prologue && init)
      rc = comm_prologue(k, r, c.thread, c.wall_stop);
    th->depth--;
    return rc;
  }
  if (th->depth == 0) return PT_OK;
  frame *fr = &th->stack[th->depth - 1];
  if (PT_GROW(fr->evs, fr->capevs, fr->nevs + 1, 8)) return PT_ENOMEM;
  fr->evs[fr->nevs] = *e;
  if (k->rank_dup && e->peer >= 0) { /* location id -> the rank written */
    srank *pr = rank_for_loc(k, (uint64_t)e->peer);
    if (pr) fr->evs[fr->nevs].peer = pr->rank;
  }
  fr->evs[fr->nevs].nattrs = 0;
  fr->evs[fr->nevs].attrs = NULL;
  fr->evs[fr->nevs].text = NULL;
  fr->nevs++;
  return PT_OK;
}

static int sk_write(void *st, const pt_item *it) {
  dsink *k = st;
  int rc = PT_OK;
  if (it->type == PT_ITEM_DEF) rc = sk_def(k, &it->u.def);
  else if (it->type == PT_ITEM_EVENT) rc = sk_event(k, &it->u.event);
  if (rc < 0 && !k->err[0])
    pt__errbuf(k->err, sizeof k->err, rc, "DUMPI writer: %s",
               pt_strerror(rc));
  return rc;
}

static void footer_parse(const char *s, uint32_t *out) {
  memset(out, 0, PT__DUMPI_FOOTER_SLOTS * sizeof *out);
  while (s && *s) {
    char *e;
    unsigned long i = strtoul(s, &e, 10);
    if (*e != '=') break;
    unsigned long v = strtoul(e + 1, &e, 10);
    if (i < PT__DUMPI_FOOTER_SLOTS) out[i] = (uint32_t)v;
    s = *e == ',' ? e + 1 : e;
    if (!*e) break;
  }
}

/* END_OF_STREAM, header, footer, keyval, perf labels, datatype sizes,
 * address table, index. */
static int rank_finish(dsink *k, srank *r) {
  int rc = rank_create(k, r);
  if (rc < 0) return rc;
  pt__buf *b = &r->out;
  uint64_t base = r->written;
  b16(b, PT__DUMPI_END_OF_STREAM);
  uint64_t o_header = base + b->len;
  unsigned v0 = 13, v1 = 0, v2 = 0;
  if (r->kv_version) sscanf(r->kv_version, "%u.%u.%u", &v0, &v1, &v2);
  b8(b, (uint8_t)v0);
  b8(b, (uint8_t)v1);
  b8(b, (uint8_t)v2);
  uint64_t start = 0;
  const char *ms = kv_get(k->meta_kv, k->nmeta, "startime");
  if (r->kv_start) start = strtoull(r->kv_start, NULL, 10);
  else if (ms) start = strtoull(ms, NULL, 10);
  b64(b, start);
  bstr16(b, r->kv_host ? r->kv_host : k->host ? k->host : "localhost");
  bstr16(b, r->kv_user ? r->kv_user : "<none>");
  size_t n;
  pt__arena tmp = {0};
  const int64_t *mc = parse_ints(&tmp, r->kv_meshcrd ? r->kv_meshcrd : "", &n);
  if (!mc) goto oom;
  b32(b, (uint32_t)n);
  for (size_t i = 0; i < n; i++) b32(b, (uint32_t)mc[i]);
  mc = parse_ints(&tmp, r->kv_meshsize ? r->kv_meshsize : "", &n);
  if (!mc) goto oom;
  b32(b, (uint32_t)n);
  for (size_t i = 0; i < n; i++) b32(b, (uint32_t)mc[i]);
  uint64_t o_footer = base + b->len;
  uint32_t called[PT__DUMPI_FOOTER_SLOTS], ignored[PT__DUMPI_FOOTER_SLOTS];
  if (r->kv_called) footer_parse(r->kv_called, called);
  else memcpy(called, r->called, sizeof called);
  footer_parse(r->kv_ignored, ignored);
  b64(b, PT__DUMPI_FOOT_MAGIC);
  for (int i = 0; i < PT__DUMPI_FOOTER_SLOTS; i++) b32(b, called[i]);
  for (int i = 0; i < PT__DUMPI_FOOTER_SLOTS; i++) b32(b, ignored[i]);
  /* keyval record: libdumpi never indexes it (offset 0). */
  uint64_t o_keyval = r->nkvs ? base + b->len : 0;
  b32(b, (uint32_t)r->nkvs);
  for (size_t i = 0; i < r->nkvs; i++) {
    bstr16(b, r->kvs[2 * i]);
    bstr16(b, r->kvs[2 * i + 1]);
  }
  uint64_t o_perf = base + b->len;
  b32(b, (uint32_t)r->nperf);
  for (size_t i = 0; i < r->nperf; i++) bstr16(b, r->perf[i]);
  uint64_t o_sizes = base + b->len;
  if (r->kv_sizes) {
    const int64_t *sz = parse_ints(&tmp, r->kv_sizes, &n);
    if (!sz) goto oom;
    b32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) b32(b, (uint32_t)sz[i]);
  } else {
    /* the predefined sizes, then the rank's user datatypes if known */
    size_t nt = r->nusizes > 28 ? r->nusizes : 28;
    b32(b, (uint32_t)nt);
    for (size_t i = 0; i < nt; i++)
      b32(b, (uint32_t)(i < 28 ? default_sizes[i]
                               : r->usizes[i] >= 0 ? r->usizes[i] : 0));
  }
  uint64_t o_addr = base + b->len;
  b32(b, (uint32_t)r->naddr);
  for (size_t i = 0; i < r->naddr; i++) {
    b64(b, r->addr[i]);
    bstr16(b, r->addrname[i]);
  }
  b64(b, PT__DUMPI_HEAD_MAGIC);
  b64(b, o_sizes);
  b64(b, o_addr);
  b64(b, o_perf);
  b64(b, o_header);
  b64(b, 8);
  b64(b, o_footer);
  b64(b, o_keyval);
  pt__arena_free(&tmp);
  if (!b->p) return PT_ENOMEM;
  /* the offsets at byte 8 may have been learnt after the file started */
  if ((rc = rank_flush(k, r)) < 0) return rc;
  int fd = open(r->path, O_WRONLY | O_CLOEXEC);
  uint8_t off[8];
  for (int i = 0; i < 4; i++) {
    off[i] = (uint8_t)(r->cpu_off >> (24 - 8 * i));
    off[4 + i] = (uint8_t)(r->wall_off >> (24 - 8 * i));
  }
  if (fd < 0 || pwrite(fd, off, 8, 8) != 8) {
    if (fd >= 0) close(fd);
    pt__errbuf(k->err, sizeof k->err, PT_EIO, "%s: %s", r->path,
               strerror(errno));
    return PT_EIO;
  }
  close(fd);
  return PT_OK;
oom:
  pt__arena_free(&tmp);
  return PT_ENOMEM;
}

static void sk_free(dsink *k) {
  if (!k) return;
  for (size_t i = 0; i < k->nranks; i++) {
    srank *r = &k->ranks[i];
    free(r->path);
    pt__buf_free(&r->out);
    free(r->perf);
    free(r->usizes);
    free(r->cids);
    free(r->addr);
    free(r->addrname);
    free(r->kvs);
    for (size_t j = 0; j < r->nthr; j++) {
      for (int d = 0; d < 8; d++) free(r->thr[j].stack[d].evs);
      pt__arena_free(&r->thr[j].arena);
    }
    free(r->thr);
    pt__arena_free(&r->callmem);
    free(r->reqmap);
    free(r->anon_rx.v);
    free(r->anon_tx.v);
    free(r->pend);
    free(r->idup);
  }
  pt__kt_free(&k->comms);
  pt__kt_free(&k->groups);
  pt__buf_free(&k->pq);
  free(k->pqe);
  pt__arena_free(&k->pqmem);
  free(k->ranks);
  pt__kt_free(&k->regions);
  pt__kt_free(&k->attrs);
  pt__map_free(&k->loc_group);
  pt__map_free(&k->norank);
  free(k->group_rank);
  free(k->meta_kv);
  free(k->meta_tmp);
  free(k->prefix);
  pt__arena_free(&k->mem);
  free(k);
}

static int cmp_rank(const void *a, const void *b) {
  const srank *x = a, *y = b;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int sk_close(void *st, pt_error *err) {
  dsink *k = st;
  int rc = PT_OK;
  /* MPI calls DUMPI has no record for (MPI-3: non-blocking and
   * neighbourhood collectives, matched probes...): said once per function */
  for (size_t i = 0; i < k->regions.n && k->warn; i++) {
    const sk_region *x =
        (const sk_region *)(void *)(k->regions.rec + i * k->regions.rsize);
    if (!x->dropped) continue;
    char t[480];
    if (x->as_split == x->dropped) {
      snprintf(t, sizeof t, "dumpi: %" PRIu64 " calls of %s have no DUMPI "
               "record; each written as the MPI_Comm_split that makes the "
               "same communicator (members and rank order)",
               x->dropped, x->mpi_name);
    } else {
      int n = snprintf(t, sizeof t, "dumpi: %" PRIu64 " calls of %s have "
                       "no DUMPI record; dropped (with any messages, "
                       "requests or collective data they carry)",
                       x->dropped, x->mpi_name);
      if (x->as_split && n > 0 && (size_t)n < sizeof t)
        n += snprintf(t + n, sizeof t - (size_t)n, " (%" PRIu64 " written "
                      "as the MPI_Comm_split that makes the same "
                      "communicator)", x->as_split);
      if (x->unmapped && n > 0 && (size_t)n < sizeof t)
        snprintf(t + n, sizeof t - (size_t)n, "; %" PRIu64 " made a "
                 "communicator DUMPI cannot describe (%s): the messages and "
                 "collectives on it keep ranks in it under a handle of one "
                 "rank and will not map to their peers when read back",
                 x->unmapped, x->why);
    }
    k->warn(k->warn_user, t);
  }
  for (size_t i = 0; i < k->nranks; i++) k->open_irecvs += k->ranks[i].npend;
  if (k->open_irecvs && k->warn) {
    char t[200];
    snprintf(t, sizeof t, "dumpi: %" PRIu64 " MPI_Irecv call%s whose request "
             "never completes: written with MPI_ANY_SOURCE, MPI_ANY_TAG, "
             "count 0", k->open_irecvs, k->open_irecvs == 1 ? "" : "s");
    k->warn(k->warn_user, t);
  }
  if ((k->late_comms || k->lost_handles) && k->warn) {
    char t[240];
    snprintf(t, sizeof t, "dumpi: %" PRIu64 " communicator%s defined after "
             "MPI calls and %" PRIu64 " beyond the 16-bit handles: given "
             "per-rank handles (no MPI_Comm_split makes them), their "
             "messages may not match when read back", k->late_comms,
             k->late_comms == 1 ? "" : "s", k->lost_handles);
    k->warn(k->warn_user, t);
  }
  if (k->far && k->warn) {
    char t[200];
    snprintf(t, sizeof t, "dumpi: %" PRIu64 " call%s after 2^32 s (the "
             "year 2106 as wall time), where DUMPI's 32-bit seconds wrap: "
             "their times are wrong", k->far, k->far == 1 ? "" : "s");
    k->warn(k->warn_user, t);
  }
  if (k->norank.n && k->warn) { /* said once, with how much */
    uint64_t first = UINT64_MAX, events = 0;
    for (size_t i = 0; i < k->norank.cap; i++)
      if (k->norank.keys[i] != UINT64_MAX) {
        events += k->norank.vals[i];
        if (k->norank.keys[i] < first) first = k->norank.keys[i];
      }
    char t[240];
    snprintf(t, sizeof t, "dumpi: %" PRIu64 " event%s of %zu location%s "
             "without an MPI rank (location %" PRIu64 "%s) left out",
             events, events == 1 ? "" : "s", k->norank.n,
             k->norank.n == 1 ? "" : "s", first,
             k->norank.n == 1 ? "" : " and others");
    k->warn(k->warn_user, t);
  }
  if (!k->call_enters && k->other_enters && k->warn) {
    /* (a PICL or synthetic trace: its regions are no MPI functions) */
    char t[200];
    snprintf(t, sizeof t, "dumpi: no MPI call in the trace: DUMPI holds MPI "
             "calls only, so the %" PRIu64 " region visits are left out and "
             "the trace set is empty", k->other_enters);
    k->warn(k->warn_user, t);
  }
  if (k->nranks) /* ranks is NULL in an empty trace */
    qsort(k->ranks, k->nranks, sizeof *k->ranks, cmp_rank);
  /* Ranks must be 0..n-1 for the .meta's numprocs. */
  for (size_t i = 0; i < k->nranks && rc >= 0; i++)
    if (k->ranks[i].rank != (int64_t)i) {
      rc = pt__err(err, PT_EUNSUPPORTED,
                   "DUMPI needs ranks 0..%zu; rank %lld is missing", k->nranks,
                   (long long)i);
    }
  for (size_t i = 0; i < k->nranks && rc >= 0; i++)
    if ((rc = rank_finish(k, &k->ranks[i])) < 0)
      pt__err(err, rc, "%s", k->err);
  if (rc >= 0) {
    FILE *m = fopen(k->meta_tmp, "w");
    if (!m) {
      rc = pt__err(err, PT_EIO, "%s: %s", k->meta_tmp, strerror(errno));
    } else {
      static const char *const order[] = {
          "hostname", "numprocs", "username", "startime", "fileprefix",
          "version", "subversion", "subsubversion"};
      char np[32];
      snprintf(np, sizeof np, "%zu", k->nranks);
      if (k->nmeta) {
        for (size_t i = 0; i < k->nmeta; i++) {
          const char *key = k->meta_kv[2 * i], *v = k->meta_kv[2 * i + 1];
          if (!strcmp(key, "numprocs")) v = np;
          if (!strcmp(key, "fileprefix")) v = k->fileprefix;
          fprintf(m, "%s=%s\n", key, v);
        }
      } else {
        const char *vals[] = {k->host ? k->host : "localhost", np, "<none>",
                              "0", k->fileprefix, "13", "0", "0"};
        for (int i = 0; i < 8; i++) fprintf(m, "%s=%s\n", order[i], vals[i]);
      }
      if (fclose(m) != 0)
        rc = pt__err(err, PT_EIO, "%s: %s", k->meta_tmp, strerror(errno));
    }
  }
  if (rc < 0)
    for (size_t i = 0; i < k->nranks; i++)
      if (k->ranks[i].created) unlink(k->ranks[i].path);
  sk_free(k);
  return rc;
}

static void sk_abort(void *st) {
  dsink *k = st;
  if (!k) return;
  for (size_t i = 0; i < k->nranks; i++)
    if (k->ranks[i].created) unlink(k->ranks[i].path);
  sk_free(k);
}

static const char *sk_errmsg(void *st) { return ((dsink *)st)->err; }

static dsink *sk_new(void) {
  dsink *k = calloc(1, sizeof *k);
  if (!k) return NULL;
  k->tick_to_ns = 1.0;
  k->only_loc = PT_NONE;
  k->clgroup = PT_NONE;
  pt__kt_init(&k->regions, sizeof(sk_region));
  pt__kt_init(&k->attrs, sizeof(sk_attr));
  pt__kt_init(&k->comms, sizeof(skcomm));
  pt__kt_init(&k->groups, sizeof(skgroup));
  k->lab_init = pt__dumpi_label_from_name("MPI_Init");
  k->lab_init_thread = pt__dumpi_label_from_name("MPI_Init_thread");
  k->lab_initialized = pt__dumpi_label_from_name("MPI_Initialized");
  k->lab_split = pt__dumpi_label_from_name("MPI_Comm_split");
  return k;
}

/* The generic layer (multi_file) hands us "<tmpdir>/<final name>.meta"; the
 * .bin files are written next to it under their final names (the .meta
 * refers to them by prefix) and the whole set is moved into place on
 * commit.  A ".tmp-<pid>" suffix, if any, is still stripped. */
static int sk_open(void **st, const char *path, const pt_sink_opts *o,
                   pt_error *err) {
  dsink *k = sk_new();
  if (!k) return pt__err(err, PT_ENOMEM, "out of memory");
  k->overwrite = o ? o->overwrite : 0;
  k->warn = o ? o->warn : NULL;
  k->warn_user = o ? o->warn_user : NULL;
  k->meta_tmp = strdup(path);
  size_t len = strlen(path);
  const char *t = strstr(path, ".tmp-");
  if (t) {
    const char *d = t + 5;
    while (*d >= '0' && *d <= '9') d++;
    if (!*d) len = (size_t)(t - path);
  }
  if (len > 5 && !strncmp(path + len - 5, ".meta", 5)) len -= 5;
  k->prefix = malloc(len + 1);
  if (!k->meta_tmp || !k->prefix) {
    sk_free(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  memcpy(k->prefix, path, len);
  k->prefix[len] = 0;
  const char *slash = strrchr(k->prefix, '/');
  k->fileprefix = slash ? slash + 1 : k->prefix;
  *st = k;
  return PT_OK;
}

/* ---- the model-level printer ------------------------------------------- */

struct pt__dumpi_printer {
  dsink *k;
};

int pt__dumpi_printer_new(pt__dumpi_printer **out, FILE *f,
                          uint64_t location) {
  pt__dumpi_printer *p = calloc(1, sizeof *p);
  if (!p || !(p->k = sk_new())) {
    free(p);
    return PT_ENOMEM;
  }
  p->k->print_mode = 1;
  p->k->pf = f;
  p->k->only_loc = location;
  p->k->printed_rank = -1;
  *out = p;
  return PT_OK;
}

int pt__dumpi_printer_item(pt__dumpi_printer *p, const pt_item *item) {
  return sk_write(p->k, item);
}

const char *pt__dumpi_printer_errmsg(const pt__dumpi_printer *p) {
  return p->k->err;
}

void pt__dumpi_printer_free(pt__dumpi_printer *p) {
  if (!p) return;
  dsink *k = p->k;
  uint64_t open = k->pq_forced;
  for (size_t i = 0; i < k->nranks; i++) open += k->ranks[i].npend;
  (void)pq_drain(k, 1); /* MPI_Irecv never completed: as they are */
  if (open && k->warn) {
    char t[200];
    snprintf(t, sizeof t, "dumpi: %" PRIu64 " MPI_Irecv call%s printed with "
             "MPI_ANY_SOURCE, MPI_ANY_TAG, count 0 (no completion of the "
             "request, or none within %d records)", open,
             open == 1 ? "" : "s", (int)PQ_MAX_HELD);
    k->warn(k->warn_user, t);
  }
  sk_free(k);
  free(p);
}

/* ---- registry entry ------------------------------------------------------ */

static int probe(const char *path, int is_dir, const uint8_t *head,
                 size_t n) {
  (void)path;
  if (is_dir) return 0;
  if (is_bin(head, n)) return 90;
  /* a .meta: key=value text with hostname=, numprocs= and fileprefix= */
  int h = 0, np = 0, fp = 0;
  size_t i = 0;
  while (i < n) {
    size_t e = i;
    while (e < n && head[e] != '\n') e++;
    size_t l = e - i;
    const char *s = (const char *)head + i;
    if (l > 9 && !memcmp(s, "hostname=", 9)) h = 1;
    if (l > 9 && !memcmp(s, "numprocs=", 9)) np = 1;
    if (l > 11 && !memcmp(s, "fileprefix=", 11)) fp = 1;
    i = e + 1;
  }
  return h && np && fp ? 95 : 0;
}

const pt__format pt__format_dumpi = {
    .info = {"dumpi", "SST DUMPI trace set (.meta + one .bin per rank)",
             ".meta .bin", 1, 1},
    .probe = probe,
    .src_open = src_open,
    .src_next = src_next,
    .src_next_batch = src_next_batch,
    .src_errmsg = src_errmsg,
    .src_close = src_close,
    .src_runs = src_runs,
    .stdout_ok = 0,
    .multi_file = 1,
    .sink_open = sk_open,
    .sink_write = sk_write,
    .sink_errmsg = sk_errmsg,
    .sink_close = sk_close,
    .sink_abort = sk_abort,
};

/* ---- "dumpi-ascii": the printer as a write-only sink ----------------------
 * `paratrace dump --style dumpi` (or convert --to dumpi-ascii): every MPI
 * call printed the way dumpi2ascii prints it, all ranks interleaved in time
 * order (select one with --locations). */

typedef struct dascii {
  FILE *f;
  int to_stdout;
  char *name; /* the output in messages: its path, or "stdout" */
  int ioerr;  /* errno of the first failed write, 0 = none */
  pt__dumpi_printer *p;
  char err[1024];
} dascii;

static int da_open(void **st, const char *path, const pt_sink_opts *o,
                   pt_error *err) {
  dascii *a = calloc(1, sizeof *a);
  if (!a) return pt__err(err, PT_ENOMEM, "out of memory");
  a->to_stdout = strcmp(path, "-") == 0;
  if (!(a->name = strdup(a->to_stdout ? "stdout" : path))) {
    free(a);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  a->f = a->to_stdout ? stdout : fopen(path, "w");
  if (!a->f) {
    int e = errno;
    free(a->name);
    free(a);
    return pt__err(err, PT_EIO, "%s: cannot create: %s", path, strerror(e));
  }
  if (pt__dumpi_printer_new(&a->p, a->f, PT_NONE)) {
    if (!a->to_stdout) fclose(a->f);
    free(a->name);
    free(a);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  /* several ranks printed together: labelled, unless params say
   * "nolabel" (dump --style dumpi of one rank, for diffing with
   * dumpi2ascii) */
  a->p->k->label_ranks = !(o && o->params && strstr(o->params, "nolabel"));
  *st = a;
  return PT_OK;
}

static int da_write(void *st, const pt_item *it) {
  dascii *a = st;
  int rc = pt__dumpi_printer_item(a->p, it);
  /* the printer gives only EIO for a failed write: name the output and
   * the reason (errno as the failed write left it) */
  if (!a->ioerr && ferror(a->f)) {
    a->ioerr = errno ? errno : EIO;
    snprintf(a->err, sizeof a->err, "%s: write failed: %s", a->name,
             strerror(a->ioerr));
    return PT_EIO;
  }
  if (rc < 0)
    snprintf(a->err, sizeof a->err, "%s", pt__dumpi_printer_errmsg(a->p));
  return rc;
}

static const char *da_errmsg(void *st) { return ((dascii *)st)->err; }

static int da_close(void *st, pt_error *err) {
  dascii *a = st;
  pt__dumpi_printer_free(a->p);
  errno = 0;
  int e = fflush(a->f) != 0 || ferror(a->f) ? (errno ? errno : EIO) : 0;
  if (a->ioerr) e = a->ioerr;
  if (!a->to_stdout && fclose(a->f) != 0 && !e) e = errno ? errno : EIO;
  int rc = e ? pt__err(err, PT_EIO, "%s: write failed: %s", a->name,
                       strerror(e))
             : PT_OK;
  free(a->name);
  free(a);
  return rc;
}

static void da_abort(void *st) {
  dascii *a = st;
  pt__dumpi_printer_free(a->p);
  if (!a->to_stdout) fclose(a->f);
  free(a->name);
  free(a);
}

const pt__format pt__format_dumpi_ascii = {
    .info = {.name = "dumpi-ascii",
             .description = "MPI calls printed like SST DUMPI's dumpi2ascii "
                            "(dump --style dumpi)",
             .extensions = "",
             .can_read = 0,
             .can_write = 1},
    .stdout_ok = 1,
    .sink_open = da_open,
    .sink_write = da_write,
    .sink_errmsg = da_errmsg,
    .sink_close = da_close,
    .sink_abort = da_abort,
};
