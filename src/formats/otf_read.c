/* OTF 1.x source: master file, definitions, events merged over streams in
 * time order, summaries and snapshots; plain or zlib-compressed files;
 * short and long keywords.  Mapping to the model: doc/otf.md. */
#include "formats/mpi_fn.h"
#include "formats/otf_int.h"
#include "store/map.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- keyword tables ----------------------------------------------------- */

static const char *const rec_short[] = {
#define X_(id, cl, s, l, a) s,
    OTF_RECORDS(X_)
#undef X_
};
static const char *const rec_long[] = {
#define X_(id, cl, s, l, a) l,
    OTF_RECORDS(X_)
#undef X_
};
static const uint8_t rec_arg[] = {
#define X_(id, cl, s, l, a) a,
    OTF_RECORDS(X_)
#undef X_
};
static const char *const fld_short[] = {
#define X_(id, s, l) s,
    OTF_FIELDS(X_)
#undef X_
};
static const char *const fld_long[] = {
#define X_(id, s, l) l,
    OTF_FIELDS(X_)
#undef X_
};
const char *const pt__otf_xattr_names[OTF_XA__COUNT] = {
#define X_(id, name) name,
    OTF_XATTRS(X_)
#undef X_
};

const char *pt__otf_record_short(int r) {
  return r >= 0 && r < OTF_R__COUNT ? rec_short[r] : NULL;
}
const char *pt__otf_record_long(int r) {
  return r >= 0 && r < OTF_R__COUNT ? rec_long[r] : NULL;
}
const char *pt__otf_field_short(int f) {
  return f >= 0 && f < OTF_F__COUNT ? fld_short[f] : NULL;
}
const char *pt__otf_field_long(int f) {
  return f >= 0 && f < OTF_F__COUNT ? fld_long[f] : NULL;
}

/* Open-addressing hash of keyword -> id (+ 0x100 for a long spelling),
 * built once from the tables. */
#define KW_SLOTS 512
typedef struct kw_table {
  const char *s[KW_SLOTS];
  uint8_t len[KW_SLOTS];
  int16_t id[KW_SLOTS];
} kw_table;
static kw_table rec_kw, fld_kw;
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static inline unsigned kw_hash(const char *p, size_t n) {
  unsigned h = (unsigned)n * 131u;
  for (size_t i = 0; i < n; i++) h = h * 31u + (unsigned char)p[i];
  return h & (KW_SLOTS - 1);
}

static void kw_add(kw_table *t, const char *s, int id) {
  size_t n = strlen(s);
  unsigned h = kw_hash(s, n);
  while (t->s[h]) {
    if (t->len[h] == n && memcmp(t->s[h], s, n) == 0) return; /* dup */
    h = (h + 1) & (KW_SLOTS - 1);
  }
  t->s[h] = s;
  t->len[h] = (uint8_t)n;
  t->id[h] = (int16_t)id;
}

static void kw_init(void) {
  for (int r = 0; r < OTF_R__COUNT; r++) {
    kw_add(&rec_kw, rec_short[r], r);
    kw_add(&rec_kw, rec_long[r], r | 0x100);
  }
  for (int f = 0; f < OTF_F__COUNT; f++) {
    kw_add(&fld_kw, fld_short[f], f);
    kw_add(&fld_kw, fld_long[f], f | 0x100);
  }
}

static inline int kw_find(const kw_table *t, const char *p, size_t n) {
  if (n == 0 || n > 255) return -1;
  unsigned h = kw_hash(p, n);
  while (t->s[h]) {
    if (t->len[h] == n && memcmp(t->s[h], p, n) == 0) return t->id[h];
    h = (h + 1) & (KW_SLOTS - 1);
  }
  return -1;
}

/* ---- line splitting ------------------------------------------------------ */

static inline int is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static inline int is_val(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == ',' ||
         c == '.' || c == '-';
}

int pt__otf_hex(const otf__span *s, uint64_t *out) {
  if (s->n == 0 || s->n > 16 || s->str) return -1;
  uint64_t v = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    unsigned c = (unsigned char)s->p[i], d;
    if (c - '0' < 10) d = c - '0';
    else if (c - 'a' < 6) d = c - 'a' + 10;
    else return -1;
    v = (v << 4) | d;
  }
  *out = v;
  return 0;
}

/* Read one value at p (string or value run). */
static const char *read_value(const char *p, const char *end, otf__span *v) {
  if (p < end && *p == '"') {
    const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
    if (!q) return NULL;
    v->p = p + 1;
    v->n = (uint32_t)(q - p - 1);
    v->str = 1;
    return q + 1;
  }
  const char *q = p;
  while (q < end && is_val((unsigned char)*q)) q++;
  v->p = p;
  v->n = (uint32_t)(q - p);
  v->str = 0;
  return q;
}

int pt__otf_split(const char *p, const char *end, otf__line *ln, char *msg,
                  size_t n) {
  pthread_once(&kw_once, kw_init);
  const char *line = p;
  while (p < end && *p == ' ') p++;
  const char *k = p;
  if (p < end && *p == '#') p++;
  while (p < end && is_upper((unsigned char)*p)) p++;
  int id = kw_find(&rec_kw, k, (size_t)(p - k));
  if (id < 0) {
    pt__errbuf(msg, n, 0, "unknown record '%.*s'",
               (int)((p - k) > 40 ? 40 : (p - k)), k);
    return -1;
  }
  int rec = id & 0xff;
  ln->rec = rec;
  ln->present = 0;
  ln->argstr.n = 0;
  ln->argstr.p = NULL;
  while (p < end && *p == ' ') p++;
  const char *q;
  switch (rec_arg[rec]) {
    case OTF_A_NONE:
      ln->arg.n = 0;
      ln->arg.p = p;
      break;
    case OTF_A_STR:
      q = read_value(p, end, &ln->arg);
      if (!q || !ln->arg.str) {
        pt__errbuf(msg, n, 0, "column %d: expected a quoted string",
                   (int)(p - line) + 1);
        return -2;
      }
      p = q;
      break;
    default: /* NUM, OPTNUM, VERSION */
      q = read_value(p, end, &ln->arg);
      if (!q || ln->arg.str ||
          (ln->arg.n == 0 && rec_arg[rec] != OTF_A_OPTNUM)) {
        pt__errbuf(msg, n, 0, "column %d: expected a hex number",
                   (int)(p - line) + 1);
        return -2;
      }
      p = q;
      if (rec_arg[rec] == OTF_A_VERSION) {
        while (p < end && *p == ' ') p++;
        if (p < end && *p == '"') {
          q = read_value(p, end, &ln->argstr);
          if (!q) {
            pt__errbuf(msg, n, 0, "column %d: unterminated string",
                       (int)(p - line) + 1);
            return -2;
          }
          p = q;
        }
      }
      break;
  }
  for (;;) {
    while (p < end && (*p == ' ' || *p == '\r' || *p == '\t')) p++;
    if (p >= end) break;
    k = p;
    while (p < end && is_upper((unsigned char)*p)) p++;
    int f = kw_find(&fld_kw, k, (size_t)(p - k));
    /* A field with an empty value runs into the next keyword ("MNM" is an
     * empty member list followed by a name): take the longest known
     * keyword at the start of the run. */
    for (size_t l = (size_t)(p - k); f < 0 && l > 1; l--) {
      f = kw_find(&fld_kw, k, l - 1);
      if (f >= 0) p = k + l - 1;
    }
    if (f < 0) {
      pt__errbuf(msg, n, 0, "column %d: unexpected '%.*s' in %s record",
                 (int)(k - line) + 1,
                 (int)((p - k) == 0 ? 1 : ((p - k) > 20 ? 20 : (p - k))), k,
                 rec_short[rec]);
      return -2;
    }
    int fid = f & 0xff;
    while (p < end && *p == ' ') p++;
    q = read_value(p, end, &ln->f[fid]);
    if (!q) {
      pt__errbuf(msg, n, 0, "column %d: unterminated string",
                 (int)(p - line) + 1);
      return -2;
    }
    p = q;
    ln->fl[fid] = (uint8_t)(f >> 8);
    ln->present |= UINT64_C(1) << fid;
  }
  return rec;
}

/* ---- files: bounded number of open descriptors, optional zlib ---------- */

typedef struct otf_fm otf_fm;
typedef struct otf_file {
  char *path;
  otf_fm *fm;
  int fd;
  unsigned lru;
  uint64_t coff; /* next read offset in the file */
  int z, zinit, zend, eof;
  z_stream zs;
  uint8_t *zin;
} otf_file;

struct otf_fm {
  otf_file **open; /* files with fd >= 0 */
  size_t nopen, max;
  unsigned tick;
};

static void file_close_fd(otf_file *f) {
  if (f->fd >= 0) {
    close(f->fd);
    f->fd = -1;
    otf_fm *fm = f->fm;
    for (size_t i = 0; i < fm->nopen; i++)
      if (fm->open[i] == f) {
        fm->open[i] = fm->open[--fm->nopen];
        break;
      }
  }
}

static int file_ensure_open(otf_file *f) {
  otf_fm *fm = f->fm;
  f->lru = ++fm->tick;
  if (f->fd >= 0) return 0;
  if (fm->nopen >= fm->max) {
    size_t victim = 0;
    for (size_t i = 1; i < fm->nopen; i++)
      if (fm->open[i]->lru < fm->open[victim]->lru) victim = i;
    file_close_fd(fm->open[victim]);
  }
  f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
  if (f->fd < 0) return -1;
  fm->open[fm->nopen++] = f;
  return 0;
}

static void file_free(otf_file *f) {
  if (!f) return;
  file_close_fd(f);
  if (f->zinit) inflateEnd(&f->zs);
  free(f->zin);
  free(f->path);
  free(f);
}

#define ZIN_SIZE (64 * 1024)

/* Read up to n bytes of (uncompressed) data; returns count, 0 at end,
 * or a negative status with msg set. */
static long long file_read(otf_file *f, uint8_t *buf, size_t n, char *msg,
                           size_t msgn) {
  if (file_ensure_open(f) != 0)
    return pt__errbuf(msg, msgn, PT_EIO, "%s: cannot open: %s", f->path,
                      strerror(errno));
  if (!f->z) {
    long long r = pt__pread_all(f->fd, buf, n, f->coff);
    if (r < 0)
      return pt__errbuf(msg, msgn, PT_EIO, "%s: read error: %s", f->path,
                        strerror(errno));
    f->coff += (uint64_t)r;
    return r;
  }
  if (f->zend) return 0;
  if (!f->zinit) {
    f->zin = malloc(ZIN_SIZE);
    if (!f->zin) return PT_ENOMEM;
    memset(&f->zs, 0, sizeof f->zs);
    if (inflateInit(&f->zs) != Z_OK)
      return pt__errbuf(msg, msgn, PT_ENOMEM, "%s: zlib init failed",
                        f->path);
    f->zinit = 1;
  }
  f->zs.next_out = buf;
  f->zs.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
  uInt want = f->zs.avail_out;
  while (f->zs.avail_out == want) {
    if (f->zs.avail_in == 0 && !f->eof) {
      long long r = pt__pread_all(f->fd, f->zin, ZIN_SIZE, f->coff);
      if (r < 0)
        return pt__errbuf(msg, msgn, PT_EIO, "%s: read error: %s", f->path,
                          strerror(errno));
      if (r == 0) f->eof = 1;
      f->coff += (uint64_t)r;
      f->zs.next_in = f->zin;
      f->zs.avail_in = (uInt)r;
    }
    if (f->zs.avail_in == 0 && f->eof) {
      /* OTF never finishes its zlib streams (Z_FULL_FLUSH only), so the
       * end of input is normal at a block boundary and a truncation
       * anywhere else. */
      if (!(f->zs.data_type & 128) && f->zs.total_in > 0)
        return pt__errbuf(msg, msgn, PT_ETRUNCATED,
                          "%s: compressed data truncated at offset %llu",
                          f->path, (unsigned long long)f->coff);
      break;
    }
    int zr = inflate(&f->zs, Z_BLOCK);
    if (zr == Z_STREAM_END) {
      f->zend = 1;
      break;
    }
    if (zr != Z_OK && zr != Z_BUF_ERROR)
      return pt__errbuf(msg, msgn, PT_ECORRUPT,
                        "%s: corrupt compressed data near offset %llu: %s",
                        f->path,
                        (unsigned long long)(f->coff - f->zs.avail_in),
                        f->zs.msg ? f->zs.msg : "inflate failed");
  }
  return (long long)(want - f->zs.avail_out);
}

/* ---- buffered line reader ------------------------------------------------ */

#define LINE_MAX_LEN ((size_t)16 << 20)
#define READ_CHUNK ((size_t)256 << 10)

typedef struct otf_lines {
  otf_file *f;
  const uint8_t *mem; /* memory input (fuzz) instead of a file */
  size_t memlen;
  char *buf;
  size_t cap, pos, len;
  uint64_t lineno;
  int eof;
  size_t cut; /* bytes of an unfinished last line, left out */
} otf_lines;

/* Next line (without the newline) in p, n: 1, 0 at end, or < 0. */
static int lines_next(otf_lines *L, const char **p, size_t *n, char *msg,
                      size_t msgn) {
  for (;;) {
    /* (no buffer before the first read: no pointer arithmetic on NULL) */
    char *s = L->buf ? L->buf + L->pos : NULL;
    size_t avail = L->len - L->pos;
    char *nl = avail ? memchr(s, '\n', avail) : NULL;
    if (nl) {
      *p = s;
      *n = (size_t)(nl - s);
      L->pos += *n + 1;
      L->lineno++;
      return 1;
    }
    if (L->eof) {
      if (!avail) return 0;
      if (!L->mem) {
        /* every OTF record ends with a newline: a file that ends inside
         * one was cut; that record is left out (the caller says so) */
        L->cut = avail;
        L->pos = L->len;
        return 0;
      }
      *p = s;
      *n = avail;
      L->pos = L->len;
      L->lineno++;
      return 1;
    }
    if (L->mem) { /* whole input is the buffer */
      L->eof = 1;
      continue;
    }
    if (L->pos) {
      memmove(L->buf, s, avail);
      L->len = avail;
      L->pos = 0;
    }
    if (L->cap - L->len < READ_CHUNK / 2) {
      if (L->cap >= LINE_MAX_LEN + READ_CHUNK)
        return pt__errbuf(msg, msgn, PT_ELIMIT,
                          "%s:%llu: line longer than %zu bytes", L->f->path,
                          (unsigned long long)L->lineno + 1, LINE_MAX_LEN);
      size_t nc = L->cap ? L->cap * 2 : READ_CHUNK;
      char *nb = realloc(L->buf, nc);
      if (!nb) return PT_ENOMEM;
      L->buf = nb;
      L->cap = nc;
    }
    long long r = file_read(L->f, (uint8_t *)L->buf + L->len, L->cap - L->len,
                            msg, msgn);
    if (r < 0) return (int)r;
    if (r == 0) L->eof = 1;
    L->len += (size_t)r;
  }
}

/* ---- source state -------------------------------------------------------- */

enum { PH_STREAMS, PH_DEFS, PH_EVENTS, PH_STATS, PH_SNAPS, PH_DONE };

typedef struct pending_coll {
  uint64_t proc, match, coll, comm, root, sent, recvd;
} pending_coll;

/* What a byte-array attribute holds: a byte per element, 8-byte integers
 * (OTF_I64_MARK), a string (OTF_STR_MARK). */
enum { BA_BYTES, BA_I64, BA_STR };

/* Key-values one record may carry: the OTF library has no bound (a list);
 * ours keeps a bad file from taking all memory.  (64 before: our own
 * writer wrote a PICL statistics record kept as a mark with more.) */
#define OTF_MAX_KV 65536

typedef struct cursor {
  otf_lines L;
  otf_file *file;
  uint64_t stream;
  int cls; /* OTF_CL_EVT / STAT / SNAP / MARK */
  uint64_t time, proc;
  int have; /* item ready */
  pt_item item;
  pt_attr *attrs; /* key-values of the next record: the OTF library sets
                   * no bound on their number, we set OTF_MAX_KV */
  uint32_t nattrs;
  size_t cap_attrs;
  /* the byte array being read (several key-value lines when longer than
   * OTF_KV_PIECE bytes): its attribute, bytes so far and in all */
  uint32_t ba_attr;
  uint64_t ba_key;
  size_t ba_have, ba_total, ba_cap;
  uint8_t *ba_raw; /* NULL: none open */
  int ba_kind;     /* BA_* of its key */
  pt__arena strs;    /* strings and arrays of the current item */
  pending_coll *pc;
  size_t npc, cappc;
  int done;
} cursor;

typedef struct stream_ent {
  uint64_t stream;
  uint64_t *procs;
  size_t nprocs;
} stream_ent;

/* A process token and the rank it belongs to (see assign_ranks). */
typedef struct tokrank {
  uint64_t tok;
  int64_t rank;
} tokrank;

typedef struct otf_src {
  char *stub;
  char *master;
  pt_source_opts o;
  otf_fm fm;
  stream_ent *streams;
  size_t nstreams;
  /* definitions */
  pt_def *defs;
  size_t ndefs, capdefs;
  pt__arena arena;
  pt__map cnt_props; /* counter token -> its DCNT properties (value type) */
  /* attributes whose byte arrays hold 8-byte integers or a string
   * (OTF_I64_MARK, OTF_STR_MARK), with their BA_* kind */
  uint64_t *mkeys;
  uint8_t *mkind;
  size_t nm, capm;
  /* process token -> rank, sorted by token; empty when the trace defines
   * no process (peers are then process tokens, i.e. location ids) */
  tokrank *rk;
  size_t nrk;
  /* iteration */
  int phase;
  size_t idx, sub;
  cursor *cur;
  size_t ncur;
  size_t *heap;     /* cursor indices, a binary heap by (time, index) */
  uint64_t *hkey;   /* the time of heap[i]'s item, kept beside it */
  size_t nheap;
  cursor *last; /* cursor whose item was handed out */
  /* open regions per process (Enter pushes, Leave pops): a Leave of
   * function 0 ("L", VampirTrace's usual leave) is that of the innermost */
  pt__map stk_at; /* process token -> index in stk */
  struct rstack {
    uint64_t *r;
    size_t n, cap;
  } *stk;
  size_t nstk, capstk;
  uint64_t stk_proc; /* the process of stk_last (a cache) */
  size_t stk_last;   /* SIZE_MAX: none */
  uint64_t nwarn;
  uint64_t rma_skipped[2]; /* RMAPutRemoteEnd (U), RMAEnd (M) records */
  char where[600];
  char err[1024];
} otf_src;

static void warnf(otf_src *s, const char *fmt, ...) PT_PRINTF(2, 3);
static void warnf(otf_src *s, const char *fmt, ...) {
  s->nwarn++;
  if (!s->o.warn || s->nwarn > 100) return;
  char b[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  if (s->nwarn == 100) strcat(b, " (further warnings suppressed)");
  s->o.warn(s->o.warn_user, b);
}

char *pt__otf_stub(const char *master) {
  size_t n = strlen(master);
  /* (in the last component only: the sink is handed
   * "<NAME.otf.tmp-PID>/NAME.otf", whose stub is inside that directory) */
  const char *base = strrchr(master, '/');
  const char *t = strstr(base ? base + 1 : master, ".otf.tmp-");
  if (t) n = (size_t)(t - master);
  else if (n > 4 && strcmp(master + n - 4, ".otf") == 0) n -= 4;
  char *s = malloc(n + 1);
  if (!s) return NULL;
  memcpy(s, master, n);
  s[n] = 0;
  return s;
}

/* Path of file `kind` ("events", "def"...) of stream id; NULL if neither
 * the plain nor the .z variant exists.  *z set for the compressed one. */
static char *stream_path(const char *stub, uint64_t id, const char *kind,
                         int *z) {
  size_t n = strlen(stub) + strlen(kind) + 40;
  char *p = malloc(n);
  if (!p) return NULL;
  struct stat st;
  snprintf(p, n, "%s.%llx.%s", stub, (unsigned long long)id, kind);
  if (stat(p, &st) == 0) {
    *z = 0;
    return p;
  }
  snprintf(p, n, "%s.%llx.%s.z", stub, (unsigned long long)id, kind);
  if (stat(p, &st) == 0) {
    *z = 1;
    return p;
  }
  free(p);
  return NULL;
}

static otf_file *file_new(otf_fm *fm, char *path, int z) {
  otf_file *f = calloc(1, sizeof *f);
  if (!f) {
    free(path);
    return NULL;
  }
  f->path = path;
  f->fm = fm;
  f->fd = -1;
  f->z = z;
  return f;
}

/* ---- master file --------------------------------------------------------- */

static int read_master(otf_src *s) {
  char *txt;
  size_t len;
  int rc = pt__read_file(s->master, 64u << 20, &txt, &len);
  if (rc < 0)
    return pt__errbuf(s->err, sizeof s->err, rc == PT_ENOTFOUND ? rc : PT_EIO,
                      "%s: cannot read the master file (%s)", s->master,
                      pt_strerror(rc));
  char *p = txt, *end = txt + len;
  unsigned long lineno = 0;
  rc = PT_OK;
  while (p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *le = nl ? nl : end;
    lineno++;
    if (le > p && le[-1] == '\r') le--;
    if (le == p) {
      p = nl ? nl + 1 : end;
      continue;
    }
    otf__span v = {p, 0, 0};
    char *q = p;
    while (q < le && is_val((unsigned char)*q) && *q != ',') q++;
    v.n = (uint32_t)(q - p);
    uint64_t sid;
    if (pt__otf_hex(&v, &sid) != 0 || q >= le || *q != ':') {
      rc = pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                      "%s:%lu: expected '<stream>:<process>,...'", s->master,
                      lineno);
      break;
    }
    stream_ent *se = realloc(s->streams, (s->nstreams + 1) * sizeof *se);
    if (!se) { rc = PT_ENOMEM; break; }
    s->streams = se;
    se = &s->streams[s->nstreams++];
    memset(se, 0, sizeof *se);
    se->stream = sid;
    q++;
    size_t cap = 0;
    while (q < le) {
      char *c = q;
      while (c < le && *c != ',') c++;
      v.p = q;
      v.n = (uint32_t)(c - q);
      uint64_t proc;
      if (v.n == 0) { q = c + 1; continue; }
      if (pt__otf_hex(&v, &proc) != 0) {
        rc = pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                        "%s:%lu: bad process id '%.*s'", s->master, lineno,
                        (int)(v.n > 20 ? 20 : v.n), v.p);
        goto out;
      }
      if (se->nprocs == cap) {
        cap = cap ? 2 * cap : 8;
        uint64_t *np = realloc(se->procs, cap * sizeof *np);
        if (!np) { rc = PT_ENOMEM; goto out; }
        se->procs = np;
      }
      se->procs[se->nprocs++] = proc;
      q = c + 1;
    }
    p = nl ? nl + 1 : end;
  }
  if (rc == PT_OK && s->nstreams == 0)
    rc = pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                    "%s: master file lists no streams", s->master);
out:
  free(txt);
  return rc;
}

/* ---- definitions --------------------------------------------------------- */

static pt_def *def_add(otf_src *s, uint32_t kind, uint64_t id,
                       uint32_t scope) {
  if (s->ndefs == s->capdefs) {
    size_t nc = s->capdefs ? 2 * s->capdefs : 64;
    pt_def *nd = realloc(s->defs, nc * sizeof *nd);
    if (!nd) return NULL;
    s->defs = nd;
    s->capdefs = nc;
  }
  pt_def *d = &s->defs[s->ndefs++];
  pt_def_init(d, kind, id);
  d->scope = scope;
  return d;
}

static char *span_str(otf_src *s, const otf__span *v) {
  char *c = pt__arena_alloc(&s->arena, (size_t)v->n + 1);
  if (!c) return NULL;
  memcpy(c, v->p, v->n);
  c[v->n] = 0;
  return c;
}

/* Parse a comma-separated hex array into arena memory. */
static int span_array(pt__arena *a, const otf__span *v, uint64_t **out,
                      uint64_t *count) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < v->n; i++) n += v->p[i] == ',';
  if (v->n && v->p[v->n - 1] != ',') n++;
  uint64_t *m = n ? pt__arena_alloc(a, (size_t)n * sizeof *m) : NULL;
  if (n && !m) return PT_ENOMEM;
  uint64_t k = 0;
  const char *p = v->p, *end = v->p + v->n;
  while (p < end) {
    const char *c = memchr(p, ',', (size_t)(end - p));
    if (!c) c = end;
    otf__span e = {p, (uint32_t)(c - p), 0};
    if (pt__otf_hex(&e, &m[k]) != 0) return -1;
    k++;
    p = c + 1;
  }
  *out = m;
  *count = k;
  return 0;
}

/* Re-serialise a line's arguments in short form (for KEYVAL pass-through of
 * records without a model slot). */
static char *line_short_text(otf_src *s, const otf__line *ln) {
  size_t n = ln->arg.n + ln->argstr.n + 8;
  for (int f = 0; f < OTF_F__COUNT; f++)
    if (ln->present & (UINT64_C(1) << f)) n += ln->f[f].n + 8;
  char *t = pt__arena_alloc(&s->arena, n), *o = t;
  if (!t) return NULL;
  if (ln->arg.str) *o++ = '"';
  memcpy(o, ln->arg.p, ln->arg.n);
  o += ln->arg.n;
  if (ln->arg.str) *o++ = '"';
  if (ln->argstr.p) {
    *o++ = '"';
    memcpy(o, ln->argstr.p, ln->argstr.n);
    o += ln->argstr.n;
    *o++ = '"';
  }
  for (int f = 0; f < OTF_F__COUNT; f++) {
    if (!(ln->present & (UINT64_C(1) << f))) continue;
    size_t k = strlen(fld_short[f]);
    memcpy(o, fld_short[f], k);
    o += k;
    if (ln->f[f].str) *o++ = '"';
    memcpy(o, ln->f[f].p, ln->f[f].n);
    o += ln->f[f].n;
    if (ln->f[f].str) *o++ = '"';
  }
  *o = 0;
  return t;
}

typedef struct member_pair { uint64_t group, member; } member_pair;

typedef struct defctx {
  member_pair *mp;
  size_t nmp, capmp;
  uint64_t nkeyval;
  /* SCL file names by token, for CALLSITE and REGION file strings */
  uint64_t *sclf_tok;
  const char **sclf_name;
  size_t nsclf;
} defctx;

static int mp_add(defctx *c, uint64_t g, uint64_t m) {
  if (c->nmp == c->capmp) {
    size_t nc = c->capmp ? 2 * c->capmp : 64;
    member_pair *n = realloc(c->mp, nc * sizeof *n);
    if (!n) return PT_ENOMEM;
    c->mp = n;
    c->capmp = nc;
  }
  c->mp[c->nmp].group = g;
  c->mp[c->nmp++].member = m;
  return 0;
}

static int cmp_mp(const void *a, const void *b) {
  const member_pair *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  return 0; /* stable enough: qsort is not stable; fixed below by index */
}

#define FIELD(ln, id) (((ln)->present >> OTF_F_##id) & 1)

/* Required / optional hex field helpers. */
static int fnum(const otf__line *ln, int f, uint64_t *v) {
  if (!(ln->present & (UINT64_C(1) << f))) return -1;
  return pt__otf_hex(&ln->f[f], v);
}
static uint64_t fopt(const otf__line *ln, int f, int *bad) {
  uint64_t v = 0;
  if (ln->present & (UINT64_C(1) << f))
    if (pt__otf_hex(&ln->f[f], &v) != 0) *bad = 1;
  return v;
}

static const char *lookup_sclf(const defctx *c, uint64_t tok) {
  for (size_t i = 0; i < c->nsclf; i++)
    if (c->sclf_tok[i] == tok) return c->sclf_name[i];
  return NULL;
}

static uint32_t ptype_of_otf(uint64_t t) {
  switch (t) {
    case 0: case 1: case 3: case 5: case 7: return PT_TYPE_INT;
    case 2: case 4: case 6: case 8: return PT_TYPE_UINT;
    case 9: case 10: return PT_TYPE_DOUBLE;
    case 11: return PT_TYPE_INTS;
    default: return PT_TYPE_NONE;
  }
}

static int keyval(otf_src *s, defctx *c, uint32_t scope, const char *name,
                  const char *value) {
  pt_def *d = def_add(s, PT_DEF_KEYVAL, ++c->nkeyval, scope);
  if (!d) return PT_ENOMEM;
  d->parent = PT_NONE;
  d->name = name;
  d->s1 = value;
  return 0;
}

/* One definition line -> model definitions. */
static int def_line(otf_src *s, defctx *c, const otf__line *ln,
                    uint32_t scope, const char *where) {
  uint64_t a = 0, v;
  int bad = 0;
  pt_def *d;
  if (rec_arg[ln->rec] == OTF_A_NUM && pt__otf_hex(&ln->arg, &a) != 0)
    goto badnum;
  switch (ln->rec) {
    case OTF_R_DEFTIMERRES:
      if (!(d = def_add(s, PT_DEF_CLOCK, 0, scope))) return PT_ENOMEM;
      d->i0 = (int64_t)a;
      d->parent = PT_NONE; /* no start: times count from the first event */
      return 0;
    case OTF_R_DEFPROCESS: {
      uint64_t parent = fopt(ln, OTF_F_PT, &bad);
      const char *nm = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      if (bad) goto badnum;
      if (parent == 0) {
        if (!(d = def_add(s, PT_DEF_LOCATION_GROUP, a, scope)))
          return PT_ENOMEM;
        d->parent = PT_NONE;
        d->ref = PT_NONE;
        d->name = nm;
      }
      if (!(d = def_add(s, PT_DEF_LOCATION, a, scope))) return PT_ENOMEM;
      d->parent = parent ? parent : a;
      d->i0 = PT_LOCATION_THREAD;
      d->name = nm;
      return 0;
    }
    case OTF_R_DEFPROCESSGROUP: {
      if (!(d = def_add(s, PT_DEF_GROUP, a, scope))) return PT_ENOMEM;
      d->i0 = PT_GROUP_LOCATIONS;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      if (FIELD(ln, M)) {
        uint64_t *m, n;
        int r = span_array(&s->arena, &ln->f[OTF_F_M], &m, &n);
        if (r == PT_ENOMEM) return r;
        if (r) goto badnum;
        d->members = m;
        d->nmembers = n;
      }
      const char *nm = d->name;
      if (!(d = def_add(s, PT_DEF_COMM, a, scope))) return PT_ENOMEM;
      d->parent = PT_NONE;
      d->ref = a;
      d->name = nm;
      return 0;
    }
    case OTF_R_DEFFUNCTION: {
      uint64_t g = fopt(ln, OTF_F_G, &bad), x = fopt(ln, OTF_F_SCL, &bad);
      if (bad) goto badnum;
      if (!(d = def_add(s, PT_DEF_REGION, a, scope))) return PT_ENOMEM;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      /* OTF has no role or paradigm: an MPI function's are known */
      int mpi = pt__mpi_fn_find(d->name);
      d->i0 = mpi >= 0 ? pt__mpi_fn_role(mpi) : PT_ROLE_FUNCTION;
      if (mpi >= 0) d->i1 = PT_PARADIGM_MPI;
      if (x) d->i3 = (int64_t)x; /* resolved to file/line at the end */
      if (FIELD(ln, G) && mp_add(c, OTF_GROUP_FUNC | g, a)) return PT_ENOMEM;
      return 0;
    }
    case OTF_R_DEFFUNCTIONGROUP:
    case OTF_R_DEFCOUNTERGROUP:
    case OTF_R_DEFFILEGROUP: {
      uint64_t ns = ln->rec == OTF_R_DEFFUNCTIONGROUP ? OTF_GROUP_FUNC
                    : ln->rec == OTF_R_DEFCOUNTERGROUP ? OTF_GROUP_CNT
                                                       : OTF_GROUP_FILE;
      if (!(d = def_add(s, PT_DEF_GROUP, ns | a, scope))) return PT_ENOMEM;
      d->i0 = ln->rec == OTF_R_DEFFUNCTIONGROUP  ? PT_GROUP_REGIONS
              : ln->rec == OTF_R_DEFCOUNTERGROUP ? PT_GROUP_METRICS
                                                 : PT_GROUP_UNKNOWN;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      return 0;
    }
    case OTF_R_DEFCOLLOP: {
      uint64_t y = fopt(ln, OTF_F_Y, &bad);
      if (bad) goto badnum;
      if (!(d = def_add(s, PT_DEF_LABEL, OTF_LABEL_COLLOP | a, scope)))
        return PT_ENOMEM;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      d->i0 = (int64_t)y;
      return 0;
    }
    case OTF_R_DEFCOUNTER: {
      uint64_t g = fopt(ln, OTF_F_G, &bad), p = fopt(ln, OTF_F_P, &bad);
      if (bad) goto badnum;
      if (!(d = def_add(s, PT_DEF_METRIC, a, scope))) return PT_ENOMEM;
      d->ref = PT_NONE;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      d->s1 = FIELD(ln, U) ? span_str(s, &ln->f[OTF_F_U]) : NULL;
      d->i0 = otf_cnt_ptype(p);
      /* the samples' value type (a token UINT64_MAX, which the map cannot
       * hold, reads as unsigned) */
      if (pt__map_put(&s->cnt_props, a, p) == PT_ENOMEM) return PT_ENOMEM;
      d->i1 = (p & OTF_CNT_TYPE_ABS) ? PT_METRIC_ABSOLUTE
                                     : PT_METRIC_ACCUMULATED;
      if (FIELD(ln, G) && mp_add(c, OTF_GROUP_CNT | g, a)) return PT_ENOMEM;
      if (p & ~(uint64_t)OTF_CNT_TYPE_ABS) { /* scope / var type bits */
        char *t = pt__arena_alloc(&s->arena, 48);
        if (!t) return PT_ENOMEM;
        snprintf(t, 48, "%llx:%llx", (unsigned long long)a,
                 (unsigned long long)p);
        return keyval(s, c, scope, "otf:counter_properties", t);
      }
      return 0;
    }
    case OTF_R_DEFSCLFILE:
      if (!(d = def_add(s, PT_DEF_FILE, OTF_FILE_SCL | a, scope)))
        return PT_ENOMEM;
      d->parent = PT_NONE;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      {
        uint64_t *nt = realloc(c->sclf_tok, (c->nsclf + 1) * sizeof *nt);
        if (!nt) return PT_ENOMEM;
        c->sclf_tok = nt;
        const char **nn =
            realloc(c->sclf_name, (c->nsclf + 1) * sizeof *nn);
        if (!nn) return PT_ENOMEM;
        c->sclf_name = nn;
        c->sclf_tok[c->nsclf] = a;
        c->sclf_name[c->nsclf++] = d->name;
      }
      return 0;
    case OTF_R_DEFSCL: {
      uint64_t f = fopt(ln, OTF_F_F, &bad), line = fopt(ln, OTF_F_LN, &bad);
      if (!FIELD(ln, LN)) line = fopt(ln, OTF_F_L, &bad); /* deprecated L */
      if (bad) goto badnum;
      if (!(d = def_add(s, PT_DEF_CALLSITE, a, scope))) return PT_ENOMEM;
      d->parent = PT_NONE;
      d->i0 = (int64_t)line;
      d->i1 = (int64_t)f; /* file token: resolved at the end */
      return 0;
    }
    case OTF_R_DEFFILE: {
      uint64_t g = fopt(ln, OTF_F_G, &bad);
      if (bad) goto badnum;
      if (!(d = def_add(s, PT_DEF_FILE, a, scope))) return PT_ENOMEM;
      d->parent = PT_NONE;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      if (FIELD(ln, G) && mp_add(c, OTF_GROUP_FILE | g, a)) return PT_ENOMEM;
      return 0;
    }
    case OTF_R_DEFKEYVALUE: {
      uint64_t y = fopt(ln, OTF_F_Y, &bad);
      if (bad) goto badnum;
      if (!(d = def_add(s, PT_DEF_ATTRIBUTE, a, scope))) return PT_ENOMEM;
      d->i0 = ptype_of_otf(y);
      d->i1 = (int64_t)y;
      d->name = FIELD(ln, NM) ? span_str(s, &ln->f[OTF_F_NM]) : NULL;
      d->s1 = FIELD(ln, T) ? span_str(s, &ln->f[OTF_F_T]) : NULL;
      for (int m = BA_I64; y == 11 && d->s1 && m <= BA_STR; m++) {
        const char *mark = m == BA_I64 ? OTF_I64_MARK : OTF_STR_MARK;
        size_t ml = strlen(mark);
        if (strncmp(d->s1, mark, ml) != 0 || (d->s1[ml] && d->s1[ml] != ' '))
          continue;
        /* written by paratrace: 64-bit integers or a string; the marker
         * is not part of the description */
        d->i0 = m == BA_I64 ? PT_TYPE_INTS : PT_TYPE_STRING;
        d->i1 = 0;
        d->s1 = d->s1[ml] ? d->s1 + ml + 1 : NULL;
        if (s->nm == s->capm) {
          size_t nc = s->capm ? 2 * s->capm : 16;
          uint64_t *nk = realloc(s->mkeys, nc * sizeof *nk);
          if (nk) s->mkeys = nk;
          uint8_t *nd = nk ? realloc(s->mkind, nc) : NULL;
          if (!nd) return PT_ENOMEM;
          s->mkind = nd;
          s->capm = nc;
        }
        s->mkeys[s->nm] = a;
        s->mkind[s->nm++] = (uint8_t)m;
        break;
      }
      return 0;
    }
    case OTF_R_DEFCOMMENT:
      return keyval(s, c, scope, "otf:comment", span_str(s, &ln->arg));
    case OTF_R_DEFCREATOR:
      return keyval(s, c, scope, "otf:creator", span_str(s, &ln->arg));
    case OTF_R_DEFVERSION:
    case OTF_R_DEFUNIQUEID:
    case OTF_R_DEFTIMERANGE:
    case OTF_R_DEFAUXSAMPLE:
    case OTF_R_DEFCOUNTERASSIGN:
    case OTF_R_DEFPROCSUBST:
    case OTF_R_DEFATTRLIST:
    case OTF_R_DEFPROCATTR: {
      /* no model slot: kept verbatim (short form) as KEYVAL "otf:<KW>" */
      char *nm = pt__arena_alloc(&s->arena, 16);
      if (!nm) return PT_ENOMEM;
      snprintf(nm, 16, "otf:%s", rec_short[ln->rec]);
      return keyval(s, c, scope, nm, line_short_text(s, ln));
    }
    case OTF_R_KEYVALUE:
      warnf(s, "%s: key-value pair on a definition dropped", where);
      return 0;
    default:
      warnf(s, "%s: %s record not expected in a definitions file; skipped",
            where, rec_short[ln->rec]);
      return 0;
  }
  (void)v;
badnum:
  return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                    "%s: %s: bad number", where, rec_short[ln->rec]);
}

/* Read one whole definitions file. */
static int read_def_file(otf_src *s, defctx *c, uint64_t stream, int cls) {
  int z;
  char *path = stream_path(s->stub, stream, cls == OTF_CL_MARK ? "marker" :
                           "def", &z);
  if (!path) return 0;
  otf_lines L = {0};
  L.f = file_new(&s->fm, path, z);
  if (!L.f) return PT_ENOMEM;
  const char *p;
  size_t n;
  int rc;
  otf__line ln;
  char msg[256], where[600];
  while ((rc = lines_next(&L, &p, &n, s->err, sizeof s->err)) == 1 ||
         (rc == 0 && L.cut)) {
    if (rc == 0) { /* (a cut definitions file: said, then the end) */
      warnf(s, "%s:%llu: the file ends inside a record (cut?): its last "
            "%zu bytes are left out", L.f->path,
            (unsigned long long)L.lineno + 1, L.cut);
      L.cut = 0;
      break;
    }
    if (n && p[n - 1] == '\r') n--;
    if (n == 0) continue;
    snprintf(where, sizeof where, "%s:%llu", L.f->path,
             (unsigned long long)L.lineno);
    int r = pt__otf_split(p, p + n, &ln, msg, sizeof msg);
    if (r == -1) {
      warnf(s, "%s: %s; skipped", where, msg);
      continue;
    }
    if (r < 0) {
      rc = pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT, "%s: %s", where,
                      msg);
      break;
    }
    uint32_t scope = stream ? (uint32_t)(stream + 1) : 0;
    if (cls == OTF_CL_MARK) {
      if (r == OTF_R_DEFMARKER) {
        uint64_t a, y = 0;
        int bad = 0;
        y = fopt(&ln, OTF_F_Y, &bad);
        if (pt__otf_hex(&ln.arg, &a) || bad) {
          rc = pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                          "%s: bad number", where);
          break;
        }
        pt_def *d = def_add(s, PT_DEF_LABEL, a, scope);
        if (!d) { rc = PT_ENOMEM; break; }
        d->i0 = (int64_t)y;
        d->name = FIELD(&ln, NM) ? span_str(s, &ln.f[OTF_F_NM]) : NULL;
      }
      continue; /* spots are read by the marker cursor */
    }
    rc = def_line(s, c, &ln, scope, where);
    if (rc < 0) break;
  }
  free(L.buf);
  file_free(L.f);
  return rc < 0 ? rc : 0;
}

static int cmp_tokrank(const void *a, const void *b) {
  return pt__cmp_u64(&((const tokrank *)a)->tok, &((const tokrank *)b)->tok);
}
static const tokrank *find_tok(const tokrank *t, size_t n, uint64_t tok) {
  tokrank key = {tok, 0};
  return bsearch(&key, t, n, sizeof *t, cmp_tokrank);
}
typedef struct tokpar { uint64_t tok, parent; } tokpar;
static int cmp_tokpar(const void *a, const void *b) {
  return pt__cmp_u64(&((const tokpar *)a)->tok, &((const tokpar *)b)->tok);
}

/* OTF 1.x has processes, not ranks: a top-level process (DP without PT) is
 * an MPI rank and a thread is a process with a parent (as VampirTrace
 * writes them; its tokens are rank + 1).  So every top-level process's
 * LOCATION_GROUP gets as rank its position among the top-level processes in
 * token order, a thread's LOCATION belongs to the group of its top-level
 * ancestor, and s->rk maps every process token to its rank, for reading
 * message peers and roots as ranks (the model's peer convention). */
static int assign_ranks(otf_src *s) {
  size_t ng = 0, nl = 0;
  for (size_t i = 0; i < s->ndefs; i++) {
    ng += s->defs[i].kind == PT_DEF_LOCATION_GROUP;
    nl += s->defs[i].kind == PT_DEF_LOCATION;
  }
  if (!ng) return 0;
  uint64_t *top = malloc(ng * sizeof *top);
  tokpar *up = malloc((nl ? nl : 1) * sizeof *up);
  s->rk = malloc((nl ? nl : 1) * sizeof *s->rk);
  if (!top || !up || !s->rk) {
    free(top);
    free(up);
    return PT_ENOMEM;
  }
  ng = nl = 0;
  for (size_t i = 0; i < s->ndefs; i++) {
    const pt_def *d = &s->defs[i];
    if (d->kind == PT_DEF_LOCATION_GROUP) top[ng++] = d->id;
    if (d->kind == PT_DEF_LOCATION)
      up[nl++] = (tokpar){d->id, d->parent};
  }
  qsort(top, ng, sizeof *top, pt__cmp_u64);
  size_t u = 0; /* a process defined twice is one rank */
  for (size_t i = 0; i < ng; i++)
    if (!u || top[u - 1] != top[i]) top[u++] = top[i];
  ng = u;
  qsort(up, nl, sizeof *up, cmp_tokpar);
  s->nrk = 0;
  for (size_t i = 0; i < s->ndefs; i++) {
    pt_def *d = &s->defs[i];
    if (d->kind == PT_DEF_LOCATION_GROUP) {
      const uint64_t *g = bsearch(&d->id, top, ng, sizeof *top, pt__cmp_u64);
      d->i1 = g ? (int64_t)(g - top) : 0;
      continue;
    }
    if (d->kind != PT_DEF_LOCATION) continue;
    /* walk up the parents to a top-level process (at most nl steps: a
     * cycle or an undefined parent leaves the process without a rank) */
    uint64_t p = d->id;
    const uint64_t *g = NULL;
    for (size_t step = 0; step <= nl; step++) {
      if ((g = bsearch(&p, top, ng, sizeof *top, pt__cmp_u64)) != NULL) break;
      tokpar key = {p, 0};
      const tokpar *e = bsearch(&key, up, nl, sizeof *up, cmp_tokpar);
      if (!e || e->parent == p) break;
      p = e->parent;
    }
    if (!g) continue;
    d->parent = *g; /* a thread of a thread: the rank's group */
    s->rk[s->nrk++] = (tokrank){d->id, (int64_t)(g - top)};
  }
  qsort(s->rk, s->nrk, sizeof *s->rk, cmp_tokrank);
  free(top);
  free(up);
  return 0;
}

/* A message peer or collective root (process token) in the model's peer
 * convention: its rank when the trace defines processes (token 0, none, is
 * -1), else the token. */
static int64_t peer_of(otf_src *s, uint64_t tok, const char *wh) {
  if (!s->rk) return (int64_t)tok;
  if (tok == 0) return -1; /* OTF's "no process" */
  const tokrank *e = find_tok(s->rk, s->nrk, tok);
  if (e) return e->rank;
  warnf(s, "%s: process %llx is not defined or has no top-level process; "
        "peer unknown (-1)", wh, (unsigned long long)tok);
  return -1;
}

static int load_defs(otf_src *s) {
  defctx c = {0};
  int rc = read_def_file(s, &c, 0, OTF_CL_DEF);
  for (size_t i = 0; rc == 0 && i < s->nstreams; i++)
    if (s->streams[i].stream != 0)
      rc = read_def_file(s, &c, s->streams[i].stream, OTF_CL_DEF);
  rc = rc ? rc : read_def_file(s, &c, 0, OTF_CL_MARK);
  for (size_t i = 0; rc == 0 && i < s->nstreams; i++)
    if (s->streams[i].stream != 0)
      rc = read_def_file(s, &c, s->streams[i].stream, OTF_CL_MARK);
  if (rc) goto out;
  /* group members: gather (group, member) pairs in file order */
  for (size_t i = 0; i < s->ndefs; i++) {
    pt_def *d = &s->defs[i];
    if (d->kind == PT_DEF_GROUP && (d->id >> OTF_NS_SHIFT) != 0) {
      size_t n = 0;
      for (size_t k = 0; k < c.nmp; k++) n += c.mp[k].group == d->id;
      if (!n) continue;
      uint64_t *m = pt__arena_alloc(&s->arena, n * sizeof *m);
      if (!m) { rc = PT_ENOMEM; goto out; }
      n = 0;
      for (size_t k = 0; k < c.nmp; k++)
        if (c.mp[k].group == d->id) m[n++] = c.mp[k].member;
      d->members = m;
      d->nmembers = n;
    } else if (d->kind == PT_DEF_CALLSITE) {
      d->s1 = lookup_sclf(&c, (uint64_t)d->i1);
      d->i1 = 0;
    }
  }
  for (size_t i = 0; i < s->ndefs; i++) { /* REGION: file/line of its SCL */
    pt_def *d = &s->defs[i];
    if (d->kind != PT_DEF_REGION || !d->i3) continue;
    uint64_t scl = (uint64_t)d->i3;
    d->i3 = 0;
    for (size_t k = 0; k < s->ndefs; k++)
      if (s->defs[k].kind == PT_DEF_CALLSITE && s->defs[k].id == scl) {
        d->s3 = s->defs[k].s1;
        d->i2 = s->defs[k].i0;
        break;
      }
  }
  if ((rc = assign_ranks(s)) != 0) goto out;
  for (int x = 0; x < OTF_XA__COUNT; x++) {
    pt_def *d = def_add(s, PT_DEF_ATTRIBUTE, OTF_XATTR_BASE + (uint64_t)x, 0);
    if (!d) { rc = PT_ENOMEM; goto out; }
    d->i0 = PT_TYPE_UINT;
    d->name = pt__otf_xattr_names[x];
  }
out:
  (void)cmp_mp;
  free(c.mp);
  free(c.sclf_tok);
  free(c.sclf_name);
  return rc;
}

/* ---- event / summary / snapshot cursors ---------------------------------- */

/* Room for one more key-value of the next record: 0, or -1 past
 * OTF_MAX_KV (or out of memory). */
static int attr_room(cursor *k) {
  if (k->nattrs >= OTF_MAX_KV) return -1;
  return PT_GROW(k->attrs, k->cap_attrs, (size_t)k->nattrs + 1, 16) ? -1 : 0;
}

static int attr_x(cursor *k, int x, uint64_t v) {
  if (attr_room(k)) return -1;
  pt_attr *a = &k->attrs[k->nattrs++];
  a->key = OTF_XATTR_BASE + (uint64_t)x;
  a->val.type = PT_TYPE_UINT;
  a->val.count = 0;
  a->val.v.u = v;
  return 0;
}

/* Longest byte array read (a larger L is taken as damage). */
#define OTF_KV_MAX_BYTES (UINT64_C(1) << 24)

static const char *cur_where(otf_src *s, const cursor *k);

/* The byte array being read ends (another key-value line, or its record):
 * one whose pieces did not all come is kept as read, with a warning. */
static void ba_end(otf_src *s, cursor *k) {
  if (k->ba_raw &&
      (k->ba_have < k->ba_total || (k->ba_kind == BA_I64 && k->ba_have % 8)))
    warnf(s, "%s: byte array of key %llu cut short: %zu of %zu bytes%s",
          cur_where(s, k), (unsigned long long)k->ba_key, k->ba_have,
          k->ba_total,
          k->ba_kind == BA_I64 && k->ba_have % 8 ? " (8 per element)" : "");
  k->ba_raw = NULL;
}

/* The attributes read so far are used or dropped. */
static void attrs_reset(otf_src *s, cursor *k) {
  ba_end(s, k);
  k->nattrs = 0;
}

/* A byte-array key-value line: a value, or the next piece of the one
 * before (same key, L = the bytes it left).  The attribute holds its
 * elements: a byte each, or 8-byte little-endian integers for an
 * OTF_I64_MARK key; an OTF_STR_MARK key's holds the bytes as a string.
 * Storage grows with the bytes read, never with L. */
static int kv_bytes(otf_src *s, cursor *k, uint64_t key,
                    const otf__line *ln) {
  const otf__span *v = &ln->f[OTF_F_V];
  if (v->n % 2 || v->str) return -1;
  size_t nb = v->n / 2;
  uint64_t left = nb;
  if (FIELD(ln, L) && (pt__otf_hex(&ln->f[OTF_F_L], &left) || left < nb))
    return -1;
  if (left > OTF_KV_MAX_BYTES) return -1;
  int cont = k->ba_raw && k->ba_key == key && k->ba_have < k->ba_total &&
             k->ba_total - k->ba_have == left && k->ba_attr + 1 == k->nattrs;
  if (!cont) {
    ba_end(s, k);
    if (attr_room(k)) return -1;
    k->ba_key = key;
    k->ba_total = (size_t)left;
    k->ba_have = k->ba_cap = 0;
    k->ba_kind = BA_BYTES;
    for (size_t i = 0; i < s->nm; i++)
      if (s->mkeys[i] == key) k->ba_kind = s->mkind[i];
    k->ba_attr = k->nattrs++;
    pt_attr *a = &k->attrs[k->ba_attr];
    a->key = key;
    a->val.type = PT_TYPE_INTS;
    a->val.count = 0;
    a->val.v.ints = NULL;
  }
  pt_attr *a = &k->attrs[k->ba_attr];
  if (!k->ba_raw || k->ba_have + nb > k->ba_cap) {
    /* have + nb <= total: grow geometrically up to it */
    size_t nc = k->ba_cap * 2 > 128 ? k->ba_cap * 2 : 128;
    if (nc < k->ba_have + nb) nc = k->ba_have + nb;
    if (nc > k->ba_total) nc = k->ba_total;
    size_t nel = k->ba_kind == BA_I64 ? nc / 8 + 1 : nc + 1;
    uint8_t *raw = pt__arena_alloc(&k->strs, nc + 1);
    int64_t *el = pt__arena_alloc(&k->strs, nel * sizeof *el);
    if (!raw || !el) return -1;
    if (k->ba_have) memcpy(raw, k->ba_raw, k->ba_have);
    if (a->val.count) memcpy(el, a->val.v.ints, a->val.count * sizeof *el);
    k->ba_raw = raw;
    k->ba_cap = nc;
    a->val.v.ints = el;
  }
  for (size_t i = 0; i < nb; i++) {
    otf__span b = {v->p + 2 * i, 2, 0};
    uint64_t x;
    if (pt__otf_hex(&b, &x)) return -1;
    k->ba_raw[k->ba_have + i] = (uint8_t)x;
  }
  k->ba_have += nb;
  int64_t *el = (int64_t *)(uintptr_t)a->val.v.ints;
  if (k->ba_kind == BA_STR) {
    k->ba_raw[k->ba_have] = 0; /* (room for it: cap + 1 bytes) */
    a->val.type = PT_TYPE_STRING;
    a->val.v.s = (const char *)k->ba_raw;
  } else if (k->ba_kind == BA_BYTES) {
    for (size_t i = a->val.count; i < k->ba_have; i++) el[i] = k->ba_raw[i];
    a->val.count = (uint32_t)k->ba_have;
  } else {
    for (size_t i = a->val.count; (i + 1) * 8 <= k->ba_have; i++) {
      el[i] = (int64_t)pt__get_u64(k->ba_raw + 8 * i);
      a->val.count = (uint32_t)(i + 1);
    }
  }
  return 0;
}

/* A key-value line: attribute for the next record of this cursor. */
static int kv_line(otf_src *s, cursor *k, const otf__line *ln) {
  uint64_t key, type = 8;
  if (pt__otf_hex(&ln->arg, &key) ||
      (FIELD(ln, Y) && pt__otf_hex(&ln->f[OTF_F_Y], &type)) || !FIELD(ln, V))
    return -1;
  if (type == 11) return kv_bytes(s, k, key, ln);
  ba_end(s, k);
  if (attr_room(k)) return -1;
  pt_attr *a = &k->attrs[k->nattrs];
  a->key = key;
  a->val.count = 0;
  const otf__span *v = &ln->f[OTF_F_V];
  {
    uint64_t x;
    if (pt__otf_hex(v, &x)) return -1;
    switch (type) {
      case 0: case 2: case 4: case 6: case 8:
        a->val.type = type == 0 ? PT_TYPE_INT : PT_TYPE_UINT;
        a->val.v.u = x;
        break;
      case 1: a->val.type = PT_TYPE_INT; a->val.v.i = (int8_t)x; break;
      case 3: a->val.type = PT_TYPE_INT; a->val.v.i = (int16_t)x; break;
      case 5: a->val.type = PT_TYPE_INT; a->val.v.i = (int32_t)x; break;
      case 7: a->val.type = PT_TYPE_INT; a->val.v.i = (int64_t)x; break;
      case 9: {
        uint32_t b32 = (uint32_t)x;
        float fl;
        memcpy(&fl, &b32, sizeof fl);
        a->val.type = PT_TYPE_DOUBLE;
        a->val.v.d = fl;
        break;
      }
      case 10:
        a->val.type = PT_TYPE_DOUBLE;
        memcpy(&a->val.v.d, &x, sizeof x);
        break;
      default: return -1;
    }
  }
  k->nattrs++;
  return 0;
}

static pending_coll *pc_find(cursor *k, uint64_t proc, uint64_t match) {
  for (size_t i = 0; i < k->npc; i++)
    if (k->pc[i].proc == proc && k->pc[i].match == match) return &k->pc[i];
  return NULL;
}

/* Find collective-op LABEL of token to compute the model op. */
static uint32_t coll_op_of(const otf_src *s, uint64_t tok) {
  for (size_t i = 0; i < s->ndefs; i++)
    if (s->defs[i].kind == PT_DEF_LABEL &&
        s->defs[i].id == (OTF_LABEL_COLLOP | tok))
      return pt__otf_coll_op(s->defs[i].name, (uint32_t)s->defs[i].i0);
  return PT_COLL_OTHER;
}

/* Inline equivalent of pt_event_init (hot path). */
static inline void ev_init(pt_event *e, uint32_t kind, uint64_t t,
                           uint64_t loc) {
  /* a copy of a zero event, not a memset: gcc makes the memset of this
   * size a slow `rep stos` */
  static const pt_event zero;
  *e = zero;
  e->kind = kind;
  e->time = t;
  e->location = loc;
}
#define pt_event_init ev_init

/* Convert a record line of an events/snaps/stats file into k->item.
 * Returns 1 (item ready), 0 (consumed, no item), or < 0. */
static const char *cur_where(otf_src *s, const cursor *k) {
  snprintf(s->where, sizeof s->where, "%s:%llu", k->file->path,
           (unsigned long long)k->L.lineno);
  return s->where;
}
#define where cur_where(s, k)

static int rec_item(otf_src *s, cursor *k, const otf__line *ln) {
  uint64_t a = 0;
  int bad = 0;
  if (rec_arg[ln->rec] == OTF_A_NUM ||
      (rec_arg[ln->rec] == OTF_A_OPTNUM && ln->arg.n))
    if (pt__otf_hex(&ln->arg, &a)) bad = 1;
  pt_item *it = &k->item;
  pt_event *ev = &it->u.event;
  pt_event *sev = &it->u.snapshot.event;
  pt_summary *sm = &it->u.summary;
  int r = ln->rec;
  uint64_t scl = fopt(ln, OTF_F_SCL, &bad);
  if (k->cls == OTF_CL_EVT && r >= OTF_R_SNAPCOMMENT &&
      r <= OTF_R_SNAPCOUNTER) {
    warnf(s, "%s: snapshot record inside an events file skipped", where);
    attrs_reset(s, k);
    return 0;
  }
  switch (r) {
    case OTF_R_KEYVALUE:
      if (kv_line(s, k, ln))
        return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                          "%s: bad key-value record%s", where,
                          k->nattrs >= OTF_MAX_KV
                              ? " (more than 65536 key-values for one record)"
                              : "");
      return 0;
    case OTF_R_NOOP:
      return 0;
    /* ---- events ---- */
    case OTF_R_ENTER:
    case OTF_R_LEAVE:
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, r == OTF_R_ENTER ? PT_EV_ENTER : PT_EV_LEAVE,
                    k->time, k->proc);
      ev->ref = a;
      if (scl && attr_x(k, OTF_XA_SCL, scl)) goto toomany;
      break;
    case OTF_R_SEND:
    case OTF_R_RECEIVE: {
      uint64_t len = fopt(ln, OTF_F_L, &bad), tag = fopt(ln, OTF_F_T, &bad),
               comm = fopt(ln, OTF_F_C, &bad);
      if (!FIELD(ln, L) || !FIELD(ln, T) || !FIELD(ln, C)) goto missing;
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, r == OTF_R_SEND ? PT_EV_SEND : PT_EV_RECV, k->time,
                    k->proc);
      ev->ref = scl;
      ev->peer = peer_of(s, a, where);
      ev->comm = comm;
      ev->tag = (int64_t)tag;
      ev->size = len;
      break;
    }
    case OTF_R_COUNTER: {
      uint64_t v = fopt(ln, OTF_F_V, &bad);
      if (!FIELD(ln, V)) goto missing;
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, PT_EV_METRIC, k->time, k->proc);
      ev->ref = a;
      uint64_t p = 0; /* an undefined counter: unsigned */
      pt__map_get(&s->cnt_props, a, &p);
      ev->value = otf_cnt_decode(p, v);
      break;
    }
    case OTF_R_COLLOP: {
      uint64_t comm = fopt(ln, OTF_F_C, &bad), root = fopt(ln, OTF_F_RT, &bad),
               sent = fopt(ln, OTF_F_S, &bad), rec = fopt(ln, OTF_F_R, &bad),
               dur = fopt(ln, OTF_F_D, &bad);
      if (!FIELD(ln, C) || !FIELD(ln, D)) goto missing;
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, PT_EV_COLL_END, k->time, k->proc);
      ev->ref = coll_op_of(s, a);
      ev->peer = root ? peer_of(s, root, where) : -1;
      ev->comm = comm;
      ev->size = sent;
      ev->size2 = rec;
      if (attr_x(k, OTF_XA_COLLOP, a) || attr_x(k, OTF_XA_DURATION, dur) ||
          (scl && attr_x(k, OTF_XA_SCL, scl)))
        goto toomany;
      break;
    }
    case OTF_R_COLLOPBEGIN: {
      pending_coll pc = {k->proc, fopt(ln, OTF_F_H, &bad), a,
                         fopt(ln, OTF_F_C, &bad), fopt(ln, OTF_F_RT, &bad),
                         fopt(ln, OTF_F_S, &bad), fopt(ln, OTF_F_R, &bad)};
      if (!FIELD(ln, H) || !FIELD(ln, C)) goto missing;
      if (bad) goto badnum;
      pending_coll *e = pc_find(k, pc.proc, pc.match);
      if (!e) {
        if (k->npc == k->cappc) {
          size_t nc = k->cappc ? 2 * k->cappc : 16;
          pending_coll *np = realloc(k->pc, nc * sizeof *np);
          if (!np) return PT_ENOMEM;
          k->pc = np;
          k->cappc = nc;
        }
        e = &k->pc[k->npc++];
      }
      *e = pc;
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, PT_EV_COLL_BEGIN, k->time, k->proc);
      if (attr_x(k, OTF_XA_MATCH, pc.match) ||
          attr_x(k, OTF_XA_COLLOP, pc.coll) ||
          attr_x(k, OTF_XA_COMM, pc.comm) ||
          attr_x(k, OTF_XA_ROOT, pc.root) ||
          attr_x(k, OTF_XA_SENT, pc.sent) ||
          attr_x(k, OTF_XA_RECVD, pc.recvd) ||
          (scl && attr_x(k, OTF_XA_SCL, scl)))
        goto toomany;
      break;
    }
    case OTF_R_COLLOPEND: {
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, PT_EV_COLL_END, k->time, k->proc);
      pending_coll *e = pc_find(k, k->proc, a);
      if (attr_x(k, OTF_XA_MATCH, a)) goto toomany;
      if (e) {
        ev->ref = coll_op_of(s, e->coll);
        ev->peer = e->root ? peer_of(s, e->root, where) : -1;
        ev->comm = e->comm;
        ev->size = e->sent;
        ev->size2 = e->recvd;
        if (attr_x(k, OTF_XA_COLLOP, e->coll)) goto toomany;
        *e = k->pc[--k->npc];
      } else {
        warnf(s, "%s: collective end %llx without a begin", where,
              (unsigned long long)a);
        ev->ref = PT_COLL_OTHER;
        ev->peer = -1;
      }
      break;
    }
    case OTF_R_EVTCOMMENT: {
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, PT_EV_MESSAGE, k->time, k->proc);
      char *t = pt__arena_alloc(&k->strs, ln->arg.n + 1);
      if (!t) return PT_ENOMEM;
      memcpy(t, ln->arg.p, ln->arg.n);
      t[ln->arg.n] = 0;
      ev->text = t;
      break;
    }
    case OTF_R_BEGINPROCESS:
    case OTF_R_ENDPROCESS:
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev,
                    r == OTF_R_BEGINPROCESS ? PT_EV_THREAD_BEGIN
                                            : PT_EV_THREAD_END,
                    k->time, k->proc);
      break;
    case OTF_R_FILEOP:
    case OTF_R_FILEOPEND:
    case OTF_R_FILEOPEND_OLD: {
      uint64_t h = fopt(ln, OTF_F_H, &bad), op = fopt(ln, OTF_F_OP, &bad),
               by = fopt(ln, OTF_F_B, &bad), mi = fopt(ln, OTF_F_MI, &bad),
               dur = fopt(ln, OTF_F_D, &bad);
      if (!FIELD(ln, OP)) goto missing;
      if (r == OTF_R_FILEOPEND_OLD) { mi = h; h = 0; }
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, PT_EV_IO_END, k->time, k->proc);
      ev->ref = a; /* the FILE (OTF has no handle definitions) */
      ev->size = by;
      ev->request = mi;
      if ((h && attr_x(k, OTF_XA_HANDLE, h)) ||
          attr_x(k, OTF_XA_FILEOP, op) ||
          (r == OTF_R_FILEOP && attr_x(k, OTF_XA_DURATION, dur)) ||
          (scl && attr_x(k, OTF_XA_SCL, scl)))
        goto toomany;
      break;
    }
    case OTF_R_FILEOPBEGIN:
    case OTF_R_FILEOPBEGIN_OLD:
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, PT_EV_IO_BEGIN, k->time, k->proc);
      ev->request = a;
      if (scl && attr_x(k, OTF_XA_SCL, scl)) goto toomany;
      break;
    case OTF_R_RMAPUT:
    case OTF_R_RMAGET: {
      /* T / G origin P target C comm T tag L bytes [X scl]: a put or get
       * issued by this process; the tag is the window (as our writer and
       * VampirTrace write it).  An origin other than 0 (a transfer on
       * behalf of another process) is kept in otf:origin. */
      int pf = FIELD(ln, P) ? OTF_F_P : OTF_F_PROC;
      uint64_t target = fopt(ln, pf, &bad), comm = fopt(ln, OTF_F_C, &bad),
               tag = fopt(ln, OTF_F_T, &bad), len = fopt(ln, OTF_F_L, &bad);
      if (!(ln->present & (UINT64_C(1) << pf)) || !FIELD(ln, C) ||
          !FIELD(ln, T) || !FIELD(ln, L))
        goto missing;
      it->type = PT_ITEM_EVENT;
      pt_event_init(ev, r == OTF_R_RMAPUT ? PT_EV_RMA_PUT : PT_EV_RMA_GET,
                    k->time, k->proc);
      ev->ref = tag;
      ev->peer = target ? peer_of(s, target, where) : -1;
      ev->comm = comm ? comm : PT_NONE;
      if (r == OTF_R_RMAPUT) ev->size = len;
      else ev->size2 = len;
      if ((a && a != k->proc && attr_x(k, OTF_XA_ORIGIN, a)) ||
          (scl && attr_x(k, OTF_XA_SCL, scl)))
        goto toomany;
      break;
    }
    case OTF_R_RMAPUTRE:
    case OTF_R_RMAEND:
      /* the target side of a put, the completion of puts and gets: the
       * model has no such events (counted, said at the end) */
      s->rma_skipped[r == OTF_R_RMAEND]++;
      attrs_reset(s, k);
      return 0;
    /* ---- snapshots ---- */
    case OTF_R_SNAPCOMMENT:
    case OTF_R_SNAPENTER:
    case OTF_R_SNAPSEND:
    case OTF_R_SNAPOPENFILE:
    case OTF_R_SNAPBEGINCOLLOP:
    case OTF_R_SNAPBEGINFILEOP:
    case OTF_R_SNAPCOLLOPCOUNT:
    case OTF_R_SNAPCOUNTER: {
      uint64_t ot = fopt(ln, OTF_F_O, &bad);
      it->type = PT_ITEM_SNAPSHOT;
      it->u.snapshot.time = k->time;
      it->u.snapshot.location = k->proc;
      uint32_t kind = r == OTF_R_SNAPENTER        ? PT_EV_ENTER
                      : r == OTF_R_SNAPSEND       ? PT_EV_SEND
                      : r == OTF_R_SNAPOPENFILE   ? PT_EV_IO_BEGIN
                      : r == OTF_R_SNAPBEGINFILEOP ? PT_EV_IO_BEGIN
                      : r == OTF_R_SNAPBEGINCOLLOP ? PT_EV_COLL_BEGIN
                      : r == OTF_R_SNAPCOLLOPCOUNT ? PT_EV_COLL_END
                      : r == OTF_R_SNAPCOUNTER    ? PT_EV_METRIC
                                                  : PT_EV_MESSAGE;
      pt_event_init(sev, kind, ot, k->proc);
      if (r == OTF_R_SNAPENTER) {
        if (!FIELD(ln, O)) goto missing;
        sev->ref = a;
        if (scl && attr_x(k, OTF_XA_SCL, scl)) goto toomany;
      } else if (r == OTF_R_SNAPSEND) {
        sev->peer = peer_of(s, a, where);
        sev->comm = fopt(ln, OTF_F_G, &bad);
        sev->tag = (int64_t)fopt(ln, OTF_F_T, &bad);
        sev->size = fopt(ln, OTF_F_L, &bad);
        sev->ref = scl;
      } else if (r == OTF_R_SNAPOPENFILE) {
        sev->ref = a;
        if (attr_x(k, OTF_XA_HANDLE, fopt(ln, OTF_F_H, &bad)) ||
            (scl && attr_x(k, OTF_XA_SCL, scl)))
          goto toomany;
      } else if (r == OTF_R_SNAPBEGINFILEOP) {
        sev->time = a;
        sev->request = fopt(ln, OTF_F_MI, &bad);
        if (scl && attr_x(k, OTF_XA_SCL, scl)) goto toomany;
      } else if (r == OTF_R_SNAPBEGINCOLLOP) {
        sev->time = a;
        if (attr_x(k, OTF_XA_COLLOP, fopt(ln, OTF_F_CL, &bad)) ||
            attr_x(k, OTF_XA_MATCH, fopt(ln, OTF_F_H, &bad)) ||
            attr_x(k, OTF_XA_COMM, fopt(ln, OTF_F_G, &bad)) ||
            attr_x(k, OTF_XA_ROOT, fopt(ln, OTF_F_RT, &bad)) ||
            attr_x(k, OTF_XA_SENT, fopt(ln, OTF_F_S, &bad)) ||
            attr_x(k, OTF_XA_RECVD, fopt(ln, OTF_F_R, &bad)) ||
            (scl && attr_x(k, OTF_XA_SCL, scl)))
          goto toomany;
      } else if (r == OTF_R_SNAPCOLLOPCOUNT) {
        sev->time = k->time;
        sev->ref = PT_COLL_OTHER;
        sev->peer = -1;
        sev->comm = a;
        if (attr_x(k, OTF_XA_COUNT, fopt(ln, OTF_F_N, &bad))) goto toomany;
      } else if (r == OTF_R_SNAPCOUNTER) {
        sev->time = a;
        sev->ref = fopt(ln, OTF_F_CNT, &bad);
        uint64_t p = 0;
        pt__map_get(&s->cnt_props, sev->ref, &p);
        sev->value = otf_cnt_decode(p, fopt(ln, OTF_F_V, &bad));
        if (!FIELD(ln, CNT) || !FIELD(ln, V)) goto missing;
      } else { /* comment */
        sev->time = k->time;
        char *t = pt__arena_alloc(&k->strs, ln->arg.n + 1);
        if (!t) return PT_ENOMEM;
        memcpy(t, ln->arg.p, ln->arg.n);
        t[ln->arg.n] = 0;
        sev->text = t;
      }
      sev->nattrs = k->nattrs;
      sev->attrs = k->nattrs ? k->attrs : NULL;
      attrs_reset(s, k);
      if (bad) goto badnum;
      return 1;
    }
    /* ---- summaries ---- */
    case OTF_R_SUMFUNCTION:
    case OTF_R_SUMFUNCTIONGROUP:
    case OTF_R_SUMMESSAGE:
    case OTF_R_SUMCOLLOP:
    case OTF_R_SUMFILEOP: {
      it->type = PT_ITEM_SUMMARY;
      memset(sm, 0, sizeof *sm);
      sm->time = k->time;
      sm->location = k->proc;
      if (r == OTF_R_SUMFUNCTION || r == OTF_R_SUMFUNCTIONGROUP) {
        sm->kind = PT_SUM_REGION;
        sm->ref = r == OTF_R_SUMFUNCTION ? a : (OTF_GROUP_FUNC | a);
        sm->count = fopt(ln, OTF_F_N, &bad);
        sm->excl_time = fopt(ln, OTF_F_E, &bad);
        sm->incl_time = fopt(ln, OTF_F_I, &bad);
      } else if (r == OTF_R_SUMMESSAGE || r == OTF_R_SUMCOLLOP) {
        uint64_t comm = r == OTF_R_SUMMESSAGE ? fopt(ln, OTF_F_C, &bad) : a;
        uint64_t tag = r == OTF_R_SUMMESSAGE ? fopt(ln, OTF_F_T, &bad) : 0;
        if (comm || tag)
          warnf(s, "%s: communicator/tag of a summary dropped", where);
        sm->kind = r == OTF_R_SUMMESSAGE ? PT_SUM_MESSAGES : PT_SUM_COLLECTIVE;
        sm->ref = r == OTF_R_SUMMESSAGE ? (a ? a : PT_NONE)
                                        : fopt(ln, OTF_F_CL, &bad);
        sm->count = fopt(ln, OTF_F_NS, &bad);
        sm->excl_time = fopt(ln, OTF_F_NR, &bad);
        sm->bytes_sent = fopt(ln, OTF_F_S, &bad);
        sm->bytes_recv = fopt(ln, OTF_F_R, &bad);
      } else {
        sm->kind = PT_SUM_IO;
        sm->ref = a;
        sm->count = fopt(ln, OTF_F_NO, &bad);
        sm->incl_time = fopt(ln, OTF_F_NRD, &bad);
        sm->excl_time = fopt(ln, OTF_F_NW, &bad);
        sm->bytes_recv = fopt(ln, OTF_F_BR, &bad);
        sm->bytes_sent = fopt(ln, OTF_F_BW, &bad);
      }
      attrs_reset(s, k);
      if (bad) goto badnum;
      return 1;
    }
    default:
      warnf(s, "%s: %s record not expected here; skipped", where,
            rec_short[r]);
      attrs_reset(s, k);
      return 0;
  }
  if (bad) goto badnum;
  ev->nattrs = k->nattrs;
  ev->attrs = k->nattrs ? k->attrs : NULL;
  attrs_reset(s, k);
  return 1;
badnum:
  return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                    "%s: %s: bad number", where, rec_short[r]);
missing:
  return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                    "%s: %s: required field missing", where, rec_short[r]);
toomany:
  return pt__errbuf(s->err, sizeof s->err, PT_ELIMIT,
                    "%s: too many key-value pairs on one record", where);
}
#undef where

/* Lower-case hex digit values, -1 for any other byte. */
static const int8_t hex_tab[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
    ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16};
static inline int hexval(unsigned c) { return hex_tab[c & 0xff] - 1; }

/* The usual lines read straight from the buffer, without looking for the
 * newline first: a time line, a process line ("*p") or an enter/leave
 * record ("Ef" / "Lf") of an events file, each hex digits up to a '\n'.
 * 1: a time or process line consumed; 2: k->item is an event; 0: anything
 * else (a longer or odd line, the end of the buffer), for cursor_next's
 * general path, which reads the line again from its start. */
static inline int fast_line(otf_src *s, cursor *k) {
  otf_lines *L = &k->L;
  if (!L->buf) return 0;
  const char *p = L->buf + L->pos, *e = L->buf + L->len;
  if (p == e) return 0;
  unsigned c0 = (unsigned char)*p;
  const char *q = p;
  int what; /* 0 time, 1 process, 2 enter, 3 leave */
  if (c0 == '*') what = 1, q++;
  else if (c0 == 'E' && k->cls == OTF_CL_EVT && !k->nattrs) what = 2, q++;
  else if (c0 == 'L' && k->cls == OTF_CL_EVT && !k->nattrs) what = 3, q++;
  else what = 0;
  uint64_t v = 0;
  const char *d0 = q;
  int h;
  while (q < e && (h = hexval((unsigned char)*q)) >= 0) {
    if (v >> 60) return 0;
    v = (v << 4) | (uint64_t)h;
    q++;
  }
  if (q == d0 || q == e || *q != '\n') return 0;
  if (what >= 2 && q - d0 > 16) return 0;
  L->pos = (size_t)(q + 1 - L->buf);
  L->lineno++;
  switch (what) {
    case 0:
      if (v < k->time && k->cls != OTF_CL_MARK)
        warnf(s, "%s:%llu: time goes backwards", k->file->path,
              (unsigned long long)L->lineno);
      k->time = v;
      return 1;
    case 1:
      k->proc = v;
      return 1;
    default:
      k->item.type = PT_ITEM_EVENT;
      ev_init(&k->item.u.event, what == 2 ? PT_EV_ENTER : PT_EV_LEAVE,
              k->time, k->proc);
      k->item.u.event.ref = v;
      return 2;
  }
}

/* Advance a cursor to its next item.  1 ready, 0 at end, < 0 error. */
static int cursor_next(otf_src *s, cursor *k) {
  const char *p;
  size_t n;
  int rc;
  otf__line ln;
  char msg[256];
  if (k->strs.used) pt__arena_reset(&k->strs);
  k->ba_raw = NULL;
  for (;;) {
    int fl = fast_line(s, k);
    if (fl == 2) return 1;
    if (fl == 1) continue;
    if ((rc = lines_next(&k->L, &p, &n, s->err, sizeof s->err)) != 1) {
      if (rc == 0 && k->L.cut) {
        warnf(s, "%s:%llu: the file ends inside a record (cut?): its last "
              "%zu bytes are left out", k->L.f->path,
              (unsigned long long)k->L.lineno + 1, k->L.cut);
        k->L.cut = 0;
      }
      break;
    }
    if (n && p[n - 1] == '\r') n--;
    if (n == 0) continue;
    unsigned c0 = (unsigned char)p[0];
    int d = hexval(c0);
    if (d >= 0) { /* time line: hand-rolled hex */
      uint64_t t = (uint64_t)d;
      size_t i = 1;
      for (; i < n; i++) {
        int e = hexval((unsigned char)p[i]);
        if (e < 0) break;
        if (t >> 60) { i = 0; break; }
        t = (t << 4) | (uint64_t)e;
      }
      if (i != n)
        return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                          "%s:%llu: bad time stamp '%.*s'", k->file->path,
                          (unsigned long long)k->L.lineno,
                          (int)(n > 30 ? 30 : n), p);
      if (t < k->time && k->cls != OTF_CL_MARK)
        warnf(s, "%s:%llu: time goes backwards", k->file->path,
              (unsigned long long)k->L.lineno);
      k->time = t;
      continue;
    }
    if (c0 == '*') {
      uint64_t pr = 0;
      size_t i = 1;
      for (; i < n; i++) {
        int e = hexval((unsigned char)p[i]);
        if (e < 0 || (pr >> 60)) break;
        pr = (pr << 4) | (uint64_t)e;
      }
      if (i != n || n == 1)
        return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                          "%s:%llu: bad process line '%.*s'", k->file->path,
                          (unsigned long long)k->L.lineno,
                          (int)(n > 30 ? 30 : n), p);
      k->proc = pr;
      continue;
    }
    if ((c0 == 'E' || c0 == 'L') && n > 1 && n <= 17 && !k->nattrs &&
        k->cls == OTF_CL_EVT) { /* fast path: E<f> / L<f> */
      uint64_t f = 0;
      size_t i = 1;
      for (; i < n; i++) {
        int e = hexval((unsigned char)p[i]);
        if (e < 0) break;
        f = (f << 4) | (uint64_t)e;
      }
      if (i == n) {
        k->item.type = PT_ITEM_EVENT;
        ev_init(&k->item.u.event, c0 == 'E' ? PT_EV_ENTER : PT_EV_LEAVE,
                k->time, k->proc);
        k->item.u.event.ref = f;
        return 1;
      }
    }
    int r = pt__otf_split(p, p + n, &ln, msg, sizeof msg);
    const char *where = r >= 0 ? "" : cur_where(s, k);
    if (r == -1 || (r == -2 && c0 == '#')) {
      warnf(s, "%s: %s; skipped", where, msg);
      attrs_reset(s, k);
      continue;
    }
    if (r < 0)
      return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT, "%s: %s", where,
                        msg);
    if (k->cls == OTF_CL_MARK) {
      /* key-value lines belong to the marker after them (its values) */
      if (r == OTF_R_KEYVALUE) {
        if (kv_line(s, k, &ln))
          return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                            "%s: bad key-value record%s", cur_where(s, k),
                            k->nattrs >= OTF_MAX_KV
                                ? " (more than 65536 key-values for one "
                                  "record)"
                                : "");
        continue;
      }
      if (r != OTF_R_MARKERSPOT) {
        attrs_reset(s, k);
        continue;
      }
      uint64_t tok, t, pr;
      if (pt__otf_hex(&ln.arg, &tok) || fnum(&ln, OTF_F_T, &t) ||
          fnum(&ln, OTF_F_P, &pr) || !FIELD(&ln, V))
        return pt__errbuf(s->err, sizeof s->err, PT_ECORRUPT,
                          "%s: bad marker record", cur_where(s, k));
      k->item.type = PT_ITEM_EVENT;
      pt_event *ev = &k->item.u.event;
      pt_event_init(ev, PT_EV_MARK, t, pr);
      ev->ref = tok;
      char *txt = pt__arena_alloc(&k->strs, ln.f[OTF_F_V].n + 1);
      if (!txt) return PT_ENOMEM;
      memcpy(txt, ln.f[OTF_F_V].p, ln.f[OTF_F_V].n);
      txt[ln.f[OTF_F_V].n] = 0;
      ev->text = txt;
      ev->nattrs = k->nattrs;
      ev->attrs = k->nattrs ? k->attrs : NULL;
      attrs_reset(s, k);
      k->time = t;
      return 1;
    }
    rc = rec_item(s, k, &ln);
    if (rc != 0) return rc;
  }
  return rc;
}

/* ---- heap over cursors ----------------------------------------------------- */

static inline uint64_t cur_time(const cursor *k) {
  return k->item.type == PT_ITEM_EVENT ? k->item.u.event.time
         : k->item.type == PT_ITEM_SUMMARY ? k->item.u.summary.time
                                           : k->item.u.snapshot.time;
}
/* Heap positions a and b: earlier time first, then the lower cursor. */
static inline int heap_less(const otf_src *s, size_t a, size_t b) {
  uint64_t ta = s->hkey[a], tb = s->hkey[b];
  return ta < tb || (ta == tb && s->heap[a] < s->heap[b]);
}
static void heap_down(otf_src *s, size_t i) {
  size_t n = s->nheap;
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    if (l < n && heap_less(s, l, m)) m = l;
    if (l + 1 < n && heap_less(s, l + 1, m)) m = l + 1;
    if (m == i) return;
    size_t t = s->heap[i];
    s->heap[i] = s->heap[m];
    s->heap[m] = t;
    uint64_t tk = s->hkey[i];
    s->hkey[i] = s->hkey[m];
    s->hkey[m] = tk;
    i = m;
  }
}

static void free_cursors(otf_src *s) {
  for (size_t i = 0; i < s->ncur; i++) {
    cursor *k = &s->cur[i];
    free(k->L.buf);
    file_free(k->file);
    pt__arena_free(&k->strs);
    free(k->pc);
    free(k->attrs);
  }
  free(s->cur);
  free(s->heap);
  free(s->hkey);
  s->cur = NULL;
  s->heap = NULL;
  s->hkey = NULL;
  s->ncur = s->nheap = 0;
  s->last = NULL;
}

/* Set up the cursors of one phase and prime the heap. */
static int start_phase(otf_src *s, int cls) {
  free_cursors(s);
  size_t want = s->nstreams + (cls == OTF_CL_EVT ? s->nstreams + 1 : 0);
  s->cur = calloc(want ? want : 1, sizeof *s->cur);
  s->heap = calloc(want ? want : 1, sizeof *s->heap);
  s->hkey = calloc(want ? want : 1, sizeof *s->hkey);
  if (!s->cur || !s->heap || !s->hkey) return PT_ENOMEM;
  const char *kind = cls == OTF_CL_EVT    ? "events"
                     : cls == OTF_CL_STAT ? "stats"
                                          : "snaps";
  for (int pass = 0; pass < (cls == OTF_CL_EVT ? 2 : 1); pass++) {
    for (size_t i = 0; i <= s->nstreams; i++) {
      uint64_t sid;
      if (i == s->nstreams) {
        if (pass == 0) continue; /* stream 0 markers only */
        sid = 0;
      } else {
        sid = s->streams[i].stream;
        if (pass == 1 && sid == 0) continue;
      }
      int z;
      char *path = stream_path(s->stub, sid, pass ? "marker" : kind, &z);
      if (!path) {
        if (cls == OTF_CL_EVT && pass == 0 && sid != 0)
          warnf(s, "%s: stream %llx has no events file", s->master,
                (unsigned long long)sid);
        continue;
      }
      cursor *k = &s->cur[s->ncur];
      memset(k, 0, sizeof *k);
      k->file = k->L.f = file_new(&s->fm, path, z);
      if (!k->file) return PT_ENOMEM;
      k->stream = sid;
      k->cls = pass ? OTF_CL_MARK : cls;
      s->ncur++;
      int rc = cursor_next(s, k);
      if (rc < 0) return rc;
      if (rc == 1) {
        s->hkey[s->nheap] = cur_time(k);
        s->heap[s->nheap++] = s->ncur - 1;
      }
    }
  }
  for (size_t i = s->nheap / 2; i-- > 0;) heap_down(s, i);
  return 0;
}

/* ---- source interface ----------------------------------------------------- */

static void src_close(void *st);

static int src_open(void **st, const char *path, const pt_source_opts *o,
                    pt_error *err) {
  otf_src *s = calloc(1, sizeof *s);
  if (!s) return pt__err(err, PT_ENOMEM, "out of memory");
  s->o = *o;
  s->stk_last = SIZE_MAX;
  s->fm.max = o->max_open_files ? o->max_open_files : pt__default_max_open();
  s->fm.open = calloc(s->fm.max, sizeof *s->fm.open);
  s->master = strdup(path);
  s->stub = pt__otf_stub(path);
  if (!s->fm.open || !s->master || !s->stub) {
    src_close(s);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  int rc = read_master(s);
  if (rc == PT_OK) rc = load_defs(s);
  if (rc < 0) {
    pt__err(err, rc, "%s", s->err[0] ? s->err : pt_strerror(rc));
    src_close(s);
    return rc;
  }
  *st = s;
  return PT_OK;
}

/* Keep the open regions of e's process; a Leave of function 0 (OTF:
 * unknown, stack integrity not checked) gets the innermost one's.  A
 * Leave pops one region whatever its function (OTF's reading); one with
 * nothing open stays as it is (check reports it). */
static int track_region(otf_src *s, pt_event *e) {
  size_t i;
  if (s->stk_last != SIZE_MAX && s->stk_proc == e->location) {
    i = s->stk_last;
  } else {
    uint64_t v;
    if (pt__map_get(&s->stk_at, e->location, &v)) {
      i = (size_t)v;
    } else {
      if (PT_GROW(s->stk, s->capstk, s->nstk + 1, 16)) return PT_ENOMEM;
      i = s->nstk++;
      memset(&s->stk[i], 0, sizeof s->stk[i]);
      if (pt__map_put(&s->stk_at, e->location, i) < 0) return PT_ENOMEM;
    }
    s->stk_proc = e->location;
    s->stk_last = i;
  }
  struct rstack *t = &s->stk[i];
  if (e->kind == PT_EV_ENTER) {
    if (PT_GROW(t->r, t->cap, t->n + 1, 16)) return PT_ENOMEM;
    t->r[t->n++] = e->ref;
  } else if (t->n) {
    uint64_t top = t->r[--t->n];
    if (e->ref == 0) e->ref = top;
  }
  return PT_OK;
}

static int src_next(void *st, pt_item *item) {
  otf_src *s = st;
  int rc;
  for (;;) {
    switch (s->phase) {
      case PH_STREAMS:
        while (s->idx < s->nstreams) {
          stream_ent *se = &s->streams[s->idx];
          if (s->sub < se->nprocs) {
            item->type = PT_ITEM_STREAM;
            item->u.stream.stream = se->stream;
            item->u.stream.location = se->procs[s->sub++];
            return PT_OK;
          }
          s->idx++;
          s->sub = 0;
        }
        s->phase = PH_DEFS;
        s->idx = 0;
        continue;
      case PH_DEFS:
        if (s->idx < s->ndefs) {
          item->type = PT_ITEM_DEF;
          item->u.def = s->defs[s->idx++];
          return PT_OK;
        }
        s->phase = PH_EVENTS;
        if ((rc = start_phase(s, OTF_CL_EVT)) < 0) goto fail;
        continue;
      case PH_EVENTS:
      case PH_STATS:
      case PH_SNAPS:
        if (s->last) { /* advance the cursor handed out last time */
          cursor *k = s->last;
          s->last = NULL;
          rc = cursor_next(s, k);
          if (rc < 0) goto fail;
          if (rc == 0) {
            s->nheap--;
            s->heap[0] = s->heap[s->nheap];
            s->hkey[0] = s->hkey[s->nheap];
          } else {
            s->hkey[0] = cur_time(k);
          }
          if (s->nheap) heap_down(s, 0);
        }
        if (s->nheap) {
          cursor *k = &s->cur[s->heap[0]];
          *item = k->item;
          s->last = k;
          if (s->phase == PH_EVENTS && item->type == PT_ITEM_EVENT &&
              (item->u.event.kind == PT_EV_ENTER ||
               item->u.event.kind == PT_EV_LEAVE) &&
              (rc = track_region(s, &item->u.event)) < 0)
            goto fail;
          return PT_OK;
        }
        s->phase++;
        if (s->phase == PH_DONE) {
          free_cursors(s);
          if (s->rma_skipped[0] + s->rma_skipped[1])
            warnf(s, "%s: %" PRIu64 " RMA put remote-end (U) and %" PRIu64
                  " RMA end (M) records skipped: the model has no event for "
                  "a put's arrival at its target or for the end of one-sided "
                  "transfers (the puts and gets themselves are read)",
                  s->master, s->rma_skipped[0], s->rma_skipped[1]);
          return PT_END;
        }
        rc = start_phase(s, s->phase == PH_STATS ? OTF_CL_STAT : OTF_CL_SNAP);
        if (rc < 0) goto fail;
        continue;
      default:
        return PT_END;
    }
  }
fail:
  if (!s->err[0]) pt__errbuf(s->err, sizeof s->err, rc, "%s", pt_strerror(rc));
  s->phase = PH_DONE;
  return rc;
}

static const char *src_errmsg(void *st) { return ((otf_src *)st)->err; }

static void src_close(void *st) {
  otf_src *s = st;
  if (!s) return;
  free_cursors(s);
  for (size_t i = 0; i < s->nstk; i++) free(s->stk[i].r);
  free(s->stk);
  pt__map_free(&s->stk_at);
  for (size_t i = 0; i < s->nstreams; i++) free(s->streams[i].procs);
  free(s->streams);
  free(s->defs);
  free(s->mkeys);
  free(s->mkind);
  free(s->rk);
  pt__map_free(&s->cnt_props);
  pt__arena_free(&s->arena);
  free(s->fm.open);
  free(s->stub);
  free(s->master);
  free(s);
}

/* ---- memory parser for the fuzz target ------------------------------------ */

int pt__otf_parse_mem(const void *data, size_t n, char *msg, size_t msgn) {
  otf_src s;
  memset(&s, 0, sizeof s);
  defctx c = {0};
  cursor k;
  memset(&k, 0, sizeof k);
  otf_file mf = {0};
  mf.path = (char *)"<memory>";
  k.file = &mf;
  k.cls = OTF_CL_EVT;
  k.L.mem = data;
  k.L.buf = (char *)data;
  k.L.len = n;
  k.L.cap = n;
  const char *p;
  size_t len;
  int rc;
  otf__line ln;
  char m2[256];
  /* pass 1: definitions and events line by line, one item at a time */
  while ((rc = lines_next(&k.L, &p, &len, s.err, sizeof s.err)) == 1) {
    if (len == 0) continue;
    if (p[0] == 'D' || (len > 3 && memcmp(p, "DEF", 3) == 0)) {
      if (pt__otf_split(p, p + len, &ln, m2, sizeof m2) >= 0) {
        rc = def_line(&s, &c, &ln, 0, "<memory>");
        if (rc < 0) break;
      }
      continue;
    }
    /* hand one line to the cursor logic by re-pointing its reader */
    otf_lines save = k.L;
    k.L.buf = (char *)p;
    k.L.pos = 0;
    k.L.len = len;
    k.L.eof = 1;
    k.cls = (p[0] == 'S' && len > 1 && is_upper((unsigned char)p[1]))
                ? OTF_CL_STAT
            : (p[0] == 'T' && len > 1 && is_upper((unsigned char)p[1]))
                ? OTF_CL_SNAP
                : OTF_CL_EVT;
    do {
      rc = cursor_next(&s, &k);
    } while (rc == 1);
    k.L = save;
    if (rc < 0) break;
    rc = 1;
  }
  if (msg && msgn) snprintf(msg, msgn, "%s", s.err);
  free(k.pc);
  free(k.attrs);
  pt__arena_free(&k.strs);
  free(s.defs);
  pt__map_free(&s.cnt_props);
  pt__arena_free(&s.arena);
  free(c.mp);
  free(c.sclf_tok);
  free(c.sclf_name);
  return rc < 0 ? rc : PT_OK;
}

/* ---- collective names ------------------------------------------------------ */

uint32_t pt__otf_coll_op(const char *name, uint32_t type) {
  if (name) {
    const char *n = name;
    if (strncasecmp(n, "MPI_", 4) == 0) n += 4;
    for (uint32_t op = 0; op < PT_COLL__COUNT; op++) {
      const char *on = pt_coll_op_name(op);
      if (on && strcasecmp(on, n) == 0) return op;
    }
  }
  return type == OTF_COLL_BARRIER ? PT_COLL_BARRIER : PT_COLL_OTHER;
}

uint32_t pt__otf_coll_type(uint32_t op) {
  switch (op) {
    case PT_COLL_BARRIER: return OTF_COLL_BARRIER;
    case PT_COLL_BCAST: case PT_COLL_SCATTER: case PT_COLL_SCATTERV:
      return OTF_COLL_ONE2ALL;
    case PT_COLL_GATHER: case PT_COLL_GATHERV: case PT_COLL_REDUCE:
      return OTF_COLL_ALL2ONE;
    default: return OTF_COLL_ALL2ALL;
  }
}

/* ---- registry glue (the sink lives in otf_write.c) ---------------------- */

static int probe(const char *path, int is_dir, const uint8_t *head,
                 size_t n) {
  if (is_dir) return 0;
  size_t pl = strlen(path);
  int ext = pl > 4 && strcmp(path + pl - 4, ".otf") == 0;
  /* content: lines "<hex>:<hex>,<hex>..." */
  size_t i = 0;
  int ok = n > 0;
  while (i < n && ok) {
    size_t j = i;
    while (j < n && hexval(head[j]) >= 0) j++;
    if (j == i || j >= n || head[j] != ':') { ok = 0; break; }
    j++;
    while (j < n && (hexval(head[j]) >= 0 || head[j] == ',')) j++;
    if (j < n && head[j] != '\n') ok = 0;
    i = j + 1;
  }
  if (ok && ext) return 95;
  if (ok) return 60;
  return ext ? 10 : 0;
}

int pt__otf_sink_open(void **st, const char *path, const pt_sink_opts *o,
                      pt_error *err);
int pt__otf_sink_write(void *st, const pt_item *item);
const char *pt__otf_sink_errmsg(void *st);
int pt__otf_sink_close(void *st, pt_error *err);
void pt__otf_sink_abort(void *st);

const pt__format pt__format_otf = {
    .info = {"otf", "Open Trace Format 1.x (VampirTrace), plain or zlib",
             ".otf", 1, 1},
    .probe = probe,
    .src_open = src_open,
    .src_next = src_next,
    .src_errmsg = src_errmsg,
    .src_close = src_close,
    .src_reader = NULL,
    .stdout_ok = 0,
    .multi_file = 1,
    .sink_open = pt__otf_sink_open,
    .sink_write = pt__otf_sink_write,
    .sink_errmsg = pt__otf_sink_errmsg,
    .sink_close = pt__otf_sink_close,
    .sink_abort = pt__otf_sink_abort,
};
