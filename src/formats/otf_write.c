/* OTF 1.x sink: master file, NAME.0.def (+ NAME.x.def for stream-local
 * definitions), NAME.x.events / .snaps / .stats per stream and
 * NAME.0.marker, in the short keyword form written by OTF 1.12.
 *
 * The format is registered multi_file: the generic layer hands us
 * "<tmpdir>/NAME.otf", every file is written in that temporary directory
 * under its final name, and the whole set is moved next to the target on
 * commit (nothing is moved if a file exists and overwrite is off). */
#include "formats/otf_int.h"
#include "store/map.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define FLUSH_AT ((size_t)1 << 20)

typedef struct wfile {
  char *path;
  pt__buf b;
  int created;
} wfile;

typedef struct wstream {
  uint64_t id;
  wfile ev, snaps, stats;
  uint64_t t_ev, p_ev, t_sn, p_sn, t_st, p_st;
  int any_ev, any_sn, any_st;
  uint64_t *procs;
  size_t nprocs, cap;
} wstream;

typedef struct locmap {
  uint64_t loc, stream_idx;
  uint64_t coll_begin; /* time of an open foreign COLL_BEGIN */
  uint64_t next_match;
} locmap;

/* A location group as OTF processes: `key` is the group id (k->grp) or its
 * rank (k->rnk), `tok` the process token of its main process. */
typedef struct grpmain {
  uint64_t key, gid, main; /* main location, PT_NONE: none (own DP) */
  uint64_t rank, tok;
} grpmain;

typedef struct otf_sink {
  char *stub, *master;
  pt_sink_opts o;
  pt__arena arena;
  pt_def *defs;
  size_t ndefs, capdefs;
  /* attributes of the model's integer-array type: their byte arrays hold
   * each element as 8 bytes little-endian (marked in their definition) */
  uint64_t *i64keys;
  size_t ni64, capi64;
  /* stream map from the source (PT_ITEM_STREAM) */
  pt_stream_entry *smap;
  size_t nsmap, capsmap;
  int frozen;
  uint64_t pbias, fbias, cbias; /* process / function / counter token bias */
  uint64_t *big; /* defined location ids too large for a token, in the
                    order they were defined (their token: BIG_TOK + index) */
  size_t nbig;
  grpmain *grp, *rnk; /* by group id / by rank (see freeze) */
  size_t ngrp, nrnk;
  int by_rank; /* the groups carry distinct ranks: peers are ranks */
  wstream *st;
  size_t nst;
  locmap *lm;
  size_t nlm, caplm;
  wfile marker;
  pt__buf line;
  uint64_t dropped[PT_EV__COUNT]; /* events without an OTF record, by kind */
  /* I/O of other sources: an IO_END names a handle, OTF's record a file
   * and an operation; the handle's file (IO_HANDLE definitions, map built
   * when the definitions change) and the mode of the operation's IO_BEGIN
   * (kept until its IO_END) */
  pt__map handle_file;
  size_t handle_file_ndefs;
  /* DCNT properties by metric id (cnt_props), built when the definitions
   * change */
  pt__map cnt_props;
  size_t cnt_props_ndefs;
  struct iop { uint64_t loc, matching; int64_t mode; } *iop;
  size_t niop, capiop;
  char err[1024];
} otf_sink;

/* OTF 1.x file operations (OTF_FILEOP_*) by pt_io_mode */
enum { OTF_OP_READ = 2, OTF_OP_WRITE = 3, OTF_OP_SYNC = 8, OTF_OP_OTHER = 31 };

/* ---- small output helpers -------------------------------------------- */

static inline void put_hex(pt__buf *b, uint64_t v) {
  char t[16];
  int n = 0;
  do {
    t[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  uint8_t *p = b->p + b->len;
  while (n) *p++ = (uint8_t)t[--n];
  b->len = (size_t)(p - b->p);
}
static inline void put_s(pt__buf *b, const char *s) {
  size_t n = strlen(s);
  memcpy(b->p + b->len, s, n);
  b->len += n;
}
static inline void put_c(pt__buf *b, char c) { b->p[b->len++] = (uint8_t)c; }
/* A quoted string; the OTF writer turns quotes and newlines into spaces. */
static void put_str(pt__buf *b, const char *s) {
  put_c(b, '"');
  for (; s && *s; s++)
    put_c(b, (*s == '"' || *s == '\n' || *s == '\r') ? ' ' : *s);
  put_c(b, '"');
}
#define REC(b, id) put_s(b, pt__otf_record_short(OTF_R_##id))
#define FLD(b, id, v) (put_s(b, pt__otf_field_short(OTF_F_##id)), put_hex(b, v))

static int room(otf_sink *k, pt__buf *b, size_t need) {
  if (pt__buf_reserve(b, need + 64) != 0)
    return pt__errbuf(k->err, sizeof k->err, PT_ENOMEM, "out of memory");
  return 0;
}

static int wfile_flush(otf_sink *k, wfile *f) {
  if (!f->b.len && f->created) return 0;
  int fd = open(f->path,
                O_WRONLY | O_CREAT | O_CLOEXEC | (f->created ? O_APPEND : O_TRUNC),
                0644);
  if (fd < 0)
    return pt__errbuf(k->err, sizeof k->err, PT_EIO, "%s: cannot create: %s",
                      f->path, strerror(errno));
  int rc = pt__write_all(fd, f->b.p, f->b.len);
  int e = errno;
  if (close(fd) != 0 && rc == 0) { rc = -1; e = errno; }
  if (rc != 0)
    return pt__errbuf(k->err, sizeof k->err, PT_EIO, "%s: write error: %s",
                      f->path, strerror(e));
  f->created = 1;
  f->b.len = 0;
  return 0;
}

static char *mkpath(const char *stub, uint64_t id, const char *kind) {
  size_t n = strlen(stub) + strlen(kind) + 32;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s.%llx.%s", stub, (unsigned long long)id, kind);
  return p;
}

/* ---- token maps ------------------------------------------------------------ */

static const pt_def *find_def(const otf_sink *k, uint32_t kind, uint64_t id) {
  for (size_t i = 0; i < k->ndefs; i++)
    if (k->defs[i].kind == kind && k->defs[i].id == id) return &k->defs[i];
  return NULL;
}

/* Process token of a location: its id (+1 when there is a location 0),
 * or for an id too large for an OTF reader's file name (a PICL wildcard
 * or host processor, 2^41 + n) BIG_TOK + its rank among the large ids. */
#define BIG_TOK UINT64_C(0x800000)
static uint64_t ptok(const otf_sink *k, uint64_t loc) {
  if (loc < BIG_TOK - k->pbias) return loc + k->pbias;
  for (size_t i = 0; i < k->nbig; i++) /* (a few: host, wildcards) */
    if (k->big[i] == loc) return BIG_TOK + i;
  return BIG_TOK - 1; /* an undefined large location */
}
static uint64_t ftok(const otf_sink *k, uint64_t r) { return r + k->fbias; }
static uint64_t ctok(const otf_sink *k, uint64_t m) { return m + k->cbias; }
/* Communicators and process groups share the process token space. */
static uint64_t gtok(const otf_sink *k, uint64_t g) {
  if (g == PT_NONE) return 0; /* no communicator */
  if (g != 0 && (find_def(k, PT_DEF_LOCATION, g - k->pbias) == NULL ||
                 g < k->pbias))
    return g;
  return g + 0x40000000u;
}

static const char *attr_name(const otf_sink *k, uint64_t key) {
  if (key >= OTF_XATTR_BASE && key < OTF_XATTR_BASE + OTF_XA__COUNT)
    return pt__otf_xattr_names[key - OTF_XATTR_BASE];
  const pt_def *d = find_def(k, PT_DEF_ATTRIBUTE, key);
  return d ? d->name : NULL;
}
/* Value of OTF extra attribute x on ev (by name); 1 if present. */
static int xattr(const otf_sink *k, const pt_event *ev, int x, uint64_t *v) {
  for (uint32_t i = 0; i < ev->nattrs; i++) {
    const char *n = attr_name(k, ev->attrs[i].key);
    if (n && strcmp(n, pt__otf_xattr_names[x]) == 0) {
      *v = ev->attrs[i].val.v.u;
      return 1;
    }
  }
  return 0;
}

static int cmp_grpmain(const void *a, const void *b) {
  uint64_t x = ((const grpmain *)a)->key, y = ((const grpmain *)b)->key;
  return x < y ? -1 : x > y;
}
static const grpmain *find_grp(const grpmain *t, size_t n, uint64_t key) {
  grpmain k = {key, 0, 0, 0, 0};
  return bsearch(&k, t, n, sizeof *t, cmp_grpmain);
}

/* At the first event (definitions known): token biases, and the processes
 * of the location groups.  OTF 1.x has processes and threads (processes
 * with a parent), no ranks; as VampirTrace writes them, a rank is a
 * top-level process and its further threads have that process as parent.
 * So each group's main location -- the location with the group's id, else
 * its first -- is a top-level process and the group's other locations are
 * its threads; when the groups carry distinct ranks (the model's peers are
 * then ranks), a message peer or root is written as its rank's main
 * process, which the reader maps back to the rank. */
static int build_groups(otf_sink *k);

static int freeze(otf_sink *k) {
  if (k->frozen) return 0;
  k->frozen = 1;
  /* Process tokens are location + 1 (VampirTrace's rank + 1), but a trace
   * read from OTF keeps its tokens (its locations are the tokens, none is
   * 0).  Decided now, at the first event: a source may define location 0
   * later (PICL defines a processor at its first record). */
  int from_otf = 0;
  k->pbias = 1;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_KEYVAL && d->name && !strcmp(d->name, "otf:DV"))
      from_otf = 1;
  }
  if (from_otf) k->pbias = 0;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if ((d->kind == PT_DEF_LOCATION || d->kind == PT_DEF_LOCATION_GROUP) &&
        d->id == 0)
      k->pbias = 1;
    if (d->kind == PT_DEF_REGION && d->id == 0) k->fbias = 1;
    if (d->kind == PT_DEF_METRIC && d->id == 0) k->cbias = 1;
  }
  return build_groups(k);
}

/* The groups' main processes and ranks (freeze), again when a location or
 * a location group is defined after the first event (a PICL trace defines
 * each processor at its first record). */
static int build_groups(otf_sink *k) {
  /* large location ids, once: a token handed out stays (new ones go
   * after the others) */
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_LOCATION || d->id < BIG_TOK - k->pbias) continue;
    int known = 0;
    for (size_t j = 0; j < k->nbig && !known; j++) known = k->big[j] == d->id;
    if (known) continue;
    uint64_t *nb = realloc(k->big, (k->nbig + 1) * sizeof *nb);
    if (!nb)
      return pt__errbuf(k->err, sizeof k->err, PT_ENOMEM, "out of memory");
    k->big = nb;
    k->big[k->nbig++] = d->id;
  }
  size_t ng = 0;
  for (size_t i = 0; i < k->ndefs; i++)
    ng += k->defs[i].kind == PT_DEF_LOCATION_GROUP;
  free(k->grp);
  free(k->rnk);
  k->grp = k->rnk = NULL;
  k->ngrp = k->nrnk = 0;
  k->by_rank = 0;
  if (!ng) return 0;
  k->grp = malloc(ng * sizeof *k->grp);
  k->rnk = malloc(ng * sizeof *k->rnk);
  if (!k->grp || !k->rnk)
    return pt__errbuf(k->err, sizeof k->err, PT_ENOMEM, "out of memory");
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_LOCATION_GROUP)
      k->grp[k->ngrp++] =
          (grpmain){d->id, d->id, PT_NONE, (uint64_t)d->i1, 0};
  }
  qsort(k->grp, k->ngrp, sizeof *k->grp, cmp_grpmain);
  size_t u = 0; /* a group defined twice (same id) is one group */
  for (size_t i = 0; i < k->ngrp; i++)
    if (!u || k->grp[u - 1].key != k->grp[i].key) k->grp[u++] = k->grp[i];
  k->ngrp = u;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_LOCATION) continue;
    grpmain *g = (grpmain *)find_grp(k->grp, k->ngrp, d->parent);
    if (g && (g->main == PT_NONE || d->id == g->gid)) g->main = d->id;
  }
  for (size_t i = 0; i < k->ngrp; i++) {
    grpmain *g = &k->grp[i];
    g->tok = ptok(k, g->main != PT_NONE ? g->main : g->gid);
    k->rnk[i] = *g;
    k->rnk[i].key = g->rank;
  }
  k->nrnk = k->ngrp;
  qsort(k->rnk, k->nrnk, sizeof *k->rnk, cmp_grpmain);
  k->by_rank = 1;
  for (size_t i = 1; i < k->nrnk; i++)
    if (k->rnk[i].key == k->rnk[i - 1].key) k->by_rank = 0;
  return 0;
}

static locmap *loc_get(otf_sink *k, uint64_t loc) {
  for (size_t i = 0; i < k->nlm; i++)
    if (k->lm[i].loc == loc) return &k->lm[i];
  /* new location: choose its stream */
  uint64_t sid = 0;
  if (k->o.streams == 0) {
    /* OTF stream 0 is the global definitions (NAME.0.def): a source map
     * with a stream 0 (PTF numbers its streams from 0) is shifted by one,
     * so that its stream 0 does not become "no stream" and share the
     * stream of another location (before: PTF location 0 went to stream 1
     * with location 1) */
    int found = 0, has0 = 0;
    for (size_t i = 0; i < k->nsmap; i++) {
      if (k->smap[i].stream == 0) has0 = 1;
      if (k->smap[i].location == loc) sid = k->smap[i].stream, found = 1;
    }
    if (found) sid += (uint64_t)has0;
    else sid = ptok(k, loc);
  } else {
    sid = (uint64_t)(k->nlm % k->o.streams) + 1;
  }
  if (sid == 0) sid = 1;
  size_t si = 0;
  while (si < k->nst && k->st[si].id != sid) si++;
  if (si == k->nst) {
    wstream *ns = realloc(k->st, (k->nst + 1) * sizeof *ns);
    if (!ns) return NULL;
    k->st = ns;
    wstream *w = &k->st[k->nst];
    memset(w, 0, sizeof *w);
    w->id = sid;
    w->ev.path = mkpath(k->stub, sid, "events");
    w->snaps.path = mkpath(k->stub, sid, "snaps");
    w->stats.path = mkpath(k->stub, sid, "stats");
    if (!w->ev.path || !w->snaps.path || !w->stats.path) return NULL;
    k->nst++;
  }
  wstream *w = &k->st[si];
  if (w->nprocs == w->cap) {
    size_t nc = w->cap ? 2 * w->cap : 8;
    uint64_t *np = realloc(w->procs, nc * sizeof *np);
    if (!np) return NULL;
    w->procs = np;
    w->cap = nc;
  }
  w->procs[w->nprocs++] = ptok(k, loc);
  if (k->nlm == k->caplm) {
    size_t nc = k->caplm ? 2 * k->caplm : 64;
    locmap *nl = realloc(k->lm, nc * sizeof *nl);
    if (!nl) return NULL;
    k->lm = nl;
    k->caplm = nc;
  }
  locmap *m = &k->lm[k->nlm++];
  memset(m, 0, sizeof *m);
  m->loc = loc;
  m->stream_idx = si;
  m->next_match = 1;
  return m;
}

/* State machine lines: time when it changes, process when either does. */
static void state(otf_sink *k, pt__buf *b, uint64_t *lt, uint64_t *lp,
                  int *any, uint64_t t, uint64_t loc) {
  uint64_t p = ptok(k, loc);
  if (!*any || t != *lt) {
    put_hex(b, t);
    put_c(b, '\n');
    put_c(b, '*');
    put_hex(b, p);
    put_c(b, '\n');
  } else if (p != *lp) {
    put_c(b, '*');
    put_hex(b, p);
    put_c(b, '\n');
  }
  *any = 1;
  *lt = t;
  *lp = p;
}

static int is_i64_key(const otf_sink *k, uint64_t key) {
  for (size_t i = 0; i < k->ni64; i++)
    if (k->i64keys[i] == key) return 1;
  return 0;
}

/* One byte-array value as the OTF library writes it: lines of at most
 * OTF_KV_PIECE bytes with the same key, each with L = the bytes left from
 * its own first one on.  An empty one gets no line: the library appends
 * nothing for it, and its reader fails on "V" without hex digits ("error
 * while reading events"). */
static int put_bytes_kv(otf_sink *k, pt__buf *b, uint64_t key,
                        const pt_value *v, int i64) {
  size_t n = v->type == PT_TYPE_INTS ? (size_t)v->count * (i64 ? 8 : 1)
                                     : (v->v.s ? strlen(v->v.s) : 0);
  for (size_t off = 0; off < n; off += OTF_KV_PIECE) {
    size_t m = n - off < OTF_KV_PIECE ? n - off : OTF_KV_PIECE;
    if (room(k, b, 64 + 2 * m)) return PT_ENOMEM;
    REC(b, KEYVALUE);
    put_hex(b, key);
    FLD(b, Y, 11);
    put_s(b, "V");
    for (size_t j = off; j < off + m; j++) {
      unsigned by;
      if (v->type != PT_TYPE_INTS) by = (unsigned char)v->v.s[j];
      else if (i64) by = (unsigned)((uint64_t)v->v.ints[j / 8] >> (8 * (j % 8))) & 0xff;
      else by = (unsigned)(v->v.ints[j] & 0xff);
      put_c(b, "0123456789abcdef"[by >> 4]);
      put_c(b, "0123456789abcdef"[by & 15]);
    }
    FLD(b, L, n - off);
    put_c(b, '\n');
  }
  return 0;
}

/* Key-value lines for the non-OTF attributes of an event. */
static int put_kv(otf_sink *k, pt__buf *b, const pt_event *ev) {
  for (uint32_t i = 0; i < ev->nattrs; i++) {
    const pt_attr *a = &ev->attrs[i];
    if (a->key >= OTF_XATTR_BASE) continue;
    const pt_value *v = &a->val;
    if (v->type == PT_TYPE_INTS || v->type == PT_TYPE_STRING) {
      /* an empty one has no line (put_bytes_kv writes none) */
      if (put_bytes_kv(k, b, a->key, v,
                       v->type == PT_TYPE_INTS && is_i64_key(k, a->key)))
        return PT_ENOMEM;
      continue;
    }
    if (room(k, b, 64)) return PT_ENOMEM;
    REC(b, KEYVALUE);
    put_hex(b, a->key);
    uint64_t u;
    switch (v->type) {
      case PT_TYPE_INT: FLD(b, Y, 7); FLD(b, V, (uint64_t)v->v.i); break;
      case PT_TYPE_UINT: FLD(b, Y, 8); FLD(b, V, v->v.u); break;
      case PT_TYPE_DOUBLE:
        memcpy(&u, &v->v.d, sizeof u);
        FLD(b, Y, 10);
        FLD(b, V, u);
        break;
      default: FLD(b, Y, 8); FLD(b, V, 0); break;
    }
    put_c(b, '\n');
  }
  return 0;
}

static uint64_t coll_token(const otf_sink *k, const pt_event *ev) {
  uint64_t c;
  if (xattr(k, ev, OTF_XA_COLLOP, &c)) return c;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_LABEL && (d->id >> 32) == 1 &&
        pt__otf_coll_op(d->name, (uint32_t)d->i0) == ev->ref)
      return d->id & 0xffffffffu;
  }
  return 0x10000u + ev->ref; /* synthesised DCO, see write_defs */
}

/* Process token of a model peer (a rank or a location id, see freeze);
 * 0 (none) for -1 and for a rank no location group carries. */
static uint64_t peer_tok(const otf_sink *k, int64_t peer) {
  if (peer < 0) return 0;
  if (!k->by_rank) return ptok(k, (uint64_t)peer);
  const grpmain *g = find_grp(k->rnk, k->nrnk, (uint64_t)peer);
  return g ? g->tok : 0;
}

static int io_begin_note(otf_sink *k, const pt_event *ev) {
  if (k->niop == k->capiop) {
    size_t nc = k->capiop ? 2 * k->capiop : 16;
    struct iop *n = realloc(k->iop, nc * sizeof *n);
    if (!n) return PT_ENOMEM;
    k->iop = n;
    k->capiop = nc;
  }
  k->iop[k->niop++] = (struct iop){ev->location, ev->request, ev->tag};
  return PT_OK;
}

/* The OTF operation of an IO_END (from its IO_BEGIN's mode; forgotten). */
static uint64_t io_end_op(otf_sink *k, const pt_event *ev) {
  for (size_t i = k->niop; i-- > 0;) {
    if (k->iop[i].loc != ev->location || k->iop[i].matching != ev->request)
      continue;
    int64_t m = k->iop[i].mode;
    k->iop[i] = k->iop[--k->niop];
    return m == PT_IO_READ ? OTF_OP_READ : m == PT_IO_WRITE ? OTF_OP_WRITE
           : m == PT_IO_FLUSH ? OTF_OP_SYNC : OTF_OP_OTHER;
  }
  return OTF_OP_OTHER;
}

/* The file of I/O handle h, or PT_NONE. */
static uint64_t io_file(otf_sink *k, uint64_t h) {
  if (k->handle_file_ndefs != k->ndefs) {
    pt__map_free(&k->handle_file);
    for (size_t i = 0; i < k->ndefs; i++)
      if (k->defs[i].kind == PT_DEF_IO_HANDLE &&
          pt__map_put(&k->handle_file, k->defs[i].id, k->defs[i].ref) < 0)
        return PT_NONE;
    k->handle_file_ndefs = k->ndefs;
  }
  uint64_t f;
  return pt__map_get(&k->handle_file, h, &f) ? f : PT_NONE;
}

/* DCNT properties of metric m into *p: those of its `otf:counter_properties`
 * KEYVAL (a trace read from OTF; the first one) when they agree with its
 * value type (a KEYVAL that came through another format may name another
 * metric), else from its value type and mode.  1 if m is defined, 0 if
 * not, PT_ENOMEM. */
static int cnt_props(otf_sink *k, uint64_t m, uint64_t *p) {
  if (k->cnt_props_ndefs != k->ndefs) {
    pt__map_free(&k->cnt_props);
    for (size_t i = 0; i < k->ndefs; i++) {
      const pt_def *d = &k->defs[i];
      if (d->kind == PT_DEF_METRIC && d->id != UINT64_MAX &&
          pt__map_put(&k->cnt_props, d->id, otf_cnt_props(d->i0, d->i1)) ==
              PT_ENOMEM)
        return PT_ENOMEM;
    }
    for (size_t i = k->ndefs; i-- > 0;) { /* backwards: the first wins */
      const pt_def *kv = &k->defs[i];
      unsigned long long id, v;
      const pt_def *d;
      if (kv->kind == PT_DEF_KEYVAL && kv->name && kv->s1 &&
          strcmp(kv->name, "otf:counter_properties") == 0 &&
          sscanf(kv->s1, "%llx:%llx", &id, &v) == 2 &&
          (d = find_def(k, PT_DEF_METRIC, id)) != NULL &&
          otf_cnt_ptype(v) == (uint64_t)d->i0 &&
          pt__map_put(&k->cnt_props, id, v) == PT_ENOMEM)
        return PT_ENOMEM;
    }
    k->cnt_props_ndefs = k->ndefs;
  }
  return pt__map_get(&k->cnt_props, m, p);
}

/* Sample V of a METRIC value x of metric m, in the metric's declared value
 * type (an undefined metric's: that of x). */
static int cnt_value(otf_sink *k, uint64_t m, const pt_value *x,
                     uint64_t *v) {
  uint64_t p;
  int rc = cnt_props(k, m, &p);
  if (rc < 0) return rc;
  if (rc == 0) p = otf_cnt_props(x->type, PT_METRIC_ABSOLUTE);
  *v = otf_cnt_encode(p, x);
  return 0;
}

static int write_event(otf_sink *k, const pt_event *ev) {
  locmap *m = loc_get(k, ev->location);
  if (!m) return pt__errbuf(k->err, sizeof k->err, PT_ENOMEM, "out of memory");
  wstream *w = &k->st[m->stream_idx];
  pt__buf *b = &w->ev.b;
  if (w->any_ev && ev->time < w->t_ev)
    return pt__errbuf(k->err, sizeof k->err, PT_EORDER,
                      "%s: time %llu after %llu in one stream (events must "
                      "come in time order)",
                      w->ev.path, (unsigned long long)ev->time,
                      (unsigned long long)w->t_ev);
  if (ev->kind == PT_EV_MARK) { /* markers file: own time and process */
    pt__buf *mb = &k->marker.b;
    size_t tl = ev->text ? strlen(ev->text) : 0;
    /* its values (a recorder mark's) as key-value lines before it */
    if (put_kv(k, mb, ev)) return PT_ENOMEM;
    if (room(k, mb, tl + 80)) return PT_ENOMEM;
    REC(mb, MARKERSPOT);
    put_hex(mb, ev->ref);
    put_s(mb, "T");
    put_hex(mb, ev->time);
    put_s(mb, "P");
    put_hex(mb, ptok(k, ev->location));
    put_s(mb, "V");
    put_str(mb, ev->text ? ev->text : "");
    put_c(mb, '\n');
    return mb->len >= FLUSH_AT ? wfile_flush(k, &k->marker) : 0;
  }
  size_t tl = ev->kind == PT_EV_MESSAGE && ev->text ? strlen(ev->text) : 0;
  if (room(k, b, 256 + tl)) return PT_ENOMEM;
  size_t mark = b->len;
  uint64_t lt = w->t_ev, lp = w->p_ev;
  int any = w->any_ev;
  state(k, b, &w->t_ev, &w->p_ev, &w->any_ev, ev->time, ev->location);
  size_t after_state = b->len;
  if (put_kv(k, b, ev)) return PT_ENOMEM;
  if (room(k, b, 256 + tl)) return PT_ENOMEM;
  uint64_t x = 0, v1, v2;
  int has_scl = xattr(k, ev, OTF_XA_SCL, &x);
  switch (ev->kind) {
    case PT_EV_ENTER:
    case PT_EV_LEAVE:
      if (ev->kind == PT_EV_ENTER) REC(b, ENTER); else REC(b, LEAVE);
      put_hex(b, ftok(k, ev->ref));
      if (has_scl) FLD(b, SCL, x);
      break;
    case PT_EV_SEND:
    case PT_EV_RECV:
    case PT_EV_ISEND:
    case PT_EV_IRECV:
      if (ev->kind == PT_EV_SEND || ev->kind == PT_EV_ISEND) REC(b, SEND);
      else REC(b, RECEIVE);
      put_hex(b, peer_tok(k, ev->peer));
      FLD(b, L, ev->size);
      FLD(b, T, (uint64_t)ev->tag);
      FLD(b, C, gtok(k, ev->comm));
      if (ev->ref) FLD(b, SCL, ev->ref);
      break;
    case PT_EV_METRIC: {
      uint64_t v;
      if (cnt_value(k, ev->ref, &ev->value, &v))
        return pt__errbuf(k->err, sizeof k->err, PT_ENOMEM, "out of memory");
      REC(b, COUNTER);
      put_hex(b, ctok(k, ev->ref));
      FLD(b, V, v);
      break;
    }
    case PT_EV_COLL_BEGIN:
      if (xattr(k, ev, OTF_XA_MATCH, &v1)) {
        uint64_t comm = 0, root = 0, sent = 0, rec = 0, coll = 0;
        xattr(k, ev, OTF_XA_COLLOP, &coll);
        xattr(k, ev, OTF_XA_COMM, &comm);
        xattr(k, ev, OTF_XA_ROOT, &root);
        xattr(k, ev, OTF_XA_SENT, &sent);
        xattr(k, ev, OTF_XA_RECVD, &rec);
        REC(b, COLLOPBEGIN);
        put_hex(b, coll);
        FLD(b, H, v1);
        FLD(b, C, gtok(k, comm));
        FLD(b, RT, root);
        FLD(b, S, sent);
        FLD(b, R, rec);
        if (has_scl) FLD(b, SCL, x);
      } else { /* foreign: written as one COP at the end */
        m->coll_begin = ev->time + 1;
        goto nothing;
      }
      break;
    case PT_EV_COLL_END:
      if (xattr(k, ev, OTF_XA_MATCH, &v1)) {
        REC(b, COLLOPEND);
        put_hex(b, v1);
      } else {
        if (!xattr(k, ev, OTF_XA_DURATION, &v2))
          v2 = m->coll_begin ? ev->time - (m->coll_begin - 1) : 0;
        m->coll_begin = 0;
        REC(b, COLLOP);
        put_hex(b, coll_token(k, ev));
        FLD(b, C, gtok(k, ev->comm));
        FLD(b, RT, peer_tok(k, ev->peer));
        FLD(b, S, ev->size);
        FLD(b, R, ev->size2);
        FLD(b, D, v2);
        if (has_scl) FLD(b, SCL, x);
      }
      break;
    case PT_EV_IO_BEGIN:
      if (!xattr(k, ev, OTF_XA_FILEOP, &v1) && io_begin_note(k, ev))
        return PT_ENOMEM;
      REC(b, FILEOPBEGIN);
      put_hex(b, ev->request);
      if (has_scl) FLD(b, SCL, x);
      break;
    case PT_EV_IO_END: {
      uint64_t h = 0, op = 0, dur, file = ev->ref;
      xattr(k, ev, OTF_XA_HANDLE, &h);
      if (!xattr(k, ev, OTF_XA_FILEOP, &op)) {
        /* not from OTF: ref is a handle, the mode was on the IO_BEGIN */
        op = io_end_op(k, ev);
        h = ev->ref;
        file = io_file(k, ev->ref);
        if (file == PT_NONE) file = 0; /* a handle without a file */
      }
      uint64_t bytes = ev->size == UINT64_MAX ? 0 : ev->size; /* unknown */
      if (xattr(k, ev, OTF_XA_DURATION, &dur)) {
        REC(b, FILEOP);
        put_hex(b, file);
        FLD(b, H, h);
        FLD(b, OP, op);
        FLD(b, B, bytes);
        FLD(b, D, dur);
      } else {
        REC(b, FILEOPEND);
        put_hex(b, file);
        FLD(b, MI, ev->request);
        FLD(b, H, h);
        FLD(b, OP, op);
        FLD(b, B, bytes);
      }
      if (has_scl) FLD(b, SCL, x);
      break;
    }
    case PT_EV_RMA_PUT:
    case PT_EV_RMA_GET: {
      /* T / G: origin 0 (this process, unless otf:origin says another),
       * target process, the window's communicator, the window as the tag
       * (OTF pairs a transfer with its RMAEnd by communicator and tag; the
       * model has no end, none is written), bytes.  OTF's tag is 32 bits:
       * a larger window id has no place (counted as dropped). */
      uint64_t origin = 0;
      if (ev->ref > UINT32_MAX) {
        k->dropped[ev->kind]++;
        goto nothing;
      }
      xattr(k, ev, OTF_XA_ORIGIN, &origin);
      if (ev->kind == PT_EV_RMA_PUT) REC(b, RMAPUT); else REC(b, RMAGET);
      put_hex(b, origin);
      FLD(b, P, ev->peer >= 0 ? peer_tok(k, ev->peer) : 0);
      FLD(b, C, ev->comm == PT_NONE ? 0 : gtok(k, ev->comm));
      FLD(b, T, ev->ref);
      FLD(b, L, ev->kind == PT_EV_RMA_PUT ? ev->size : ev->size2);
      if (has_scl) FLD(b, SCL, x);
      break;
    }
    case PT_EV_MESSAGE:
      REC(b, EVTCOMMENT);
      put_str(b, ev->text ? ev->text : "");
      break;
    case PT_EV_THREAD_BEGIN: REC(b, BEGINPROCESS); break;
    case PT_EV_THREAD_END: REC(b, ENDPROCESS); break;
    default: /* reported once per kind at close */
      if (ev->kind < PT_EV__COUNT) k->dropped[ev->kind]++;
      goto nothing;
  }
  put_c(b, '\n');
  return b->len >= FLUSH_AT ? wfile_flush(k, &w->ev) : 0;
nothing: /* undo the state lines and key-values */
  (void)after_state;
  b->len = mark;
  w->t_ev = lt;
  w->p_ev = lp;
  w->any_ev = any;
  return 0;
}

static int write_summary(otf_sink *k, const pt_summary *s) {
  locmap *m = loc_get(k, s->location);
  if (!m) return PT_ENOMEM;
  wstream *w = &k->st[m->stream_idx];
  pt__buf *b = &w->stats.b;
  if (room(k, b, 300)) return PT_ENOMEM;
  state(k, b, &w->t_st, &w->p_st, &w->any_st, s->time, s->location);
  switch (s->kind) {
    case PT_SUM_REGION:
      if (s->ref >> 32) { REC(b, SUMFUNCTIONGROUP); put_hex(b, s->ref & 0xffffffffu); }
      else { REC(b, SUMFUNCTION); put_hex(b, ftok(k, s->ref)); }
      FLD(b, N, s->count);
      FLD(b, E, s->excl_time);
      FLD(b, I, s->incl_time);
      break;
    case PT_SUM_MESSAGES:
      REC(b, SUMMESSAGE);
      put_hex(b, s->ref == PT_NONE ? 0 : ptok(k, s->ref));
      FLD(b, C, 0);
      FLD(b, T, 0);
      FLD(b, NS, s->count);
      FLD(b, NR, s->excl_time);
      FLD(b, S, s->bytes_sent);
      FLD(b, R, s->bytes_recv);
      break;
    case PT_SUM_COLLECTIVE:
      REC(b, SUMCOLLOP);
      put_hex(b, 0);
      FLD(b, CL, s->ref);
      FLD(b, NS, s->count);
      FLD(b, NR, s->excl_time);
      FLD(b, S, s->bytes_sent);
      FLD(b, R, s->bytes_recv);
      break;
    case PT_SUM_IO:
      REC(b, SUMFILEOP);
      put_hex(b, s->ref);
      FLD(b, NO, s->count);
      FLD(b, NC, 0);
      FLD(b, NRD, s->incl_time);
      FLD(b, NW, s->excl_time);
      FLD(b, NSK, 0);
      FLD(b, BR, s->bytes_recv);
      FLD(b, BW, s->bytes_sent);
      break;
    default:
      return 0; /* LABEL, VISITS, SPAN, CALLSITE*: no OTF record (doc/otf.md) */
  }
  put_c(b, '\n');
  return b->len >= FLUSH_AT ? wfile_flush(k, &w->stats) : 0;
}

static int write_snapshot(otf_sink *k, const pt_snapshot *s) {
  locmap *m = loc_get(k, s->location);
  if (!m) return PT_ENOMEM;
  wstream *w = &k->st[m->stream_idx];
  pt__buf *b = &w->snaps.b;
  const pt_event *e = &s->event;
  size_t tl = e->text ? strlen(e->text) : 0;
  if (room(k, b, 400 + tl)) return PT_ENOMEM;
  size_t mark = b->len;
  uint64_t lt = w->t_sn, lp = w->p_sn;
  int any = w->any_sn;
  state(k, b, &w->t_sn, &w->p_sn, &w->any_sn, s->time, s->location);
  uint64_t x = 0, v;
  int has_scl = xattr(k, e, OTF_XA_SCL, &x);
  switch (e->kind) {
    case PT_EV_ENTER:
      REC(b, SNAPENTER);
      put_hex(b, ftok(k, e->ref));
      FLD(b, O, e->time);
      break;
    case PT_EV_SEND:
      REC(b, SNAPSEND);
      put_hex(b, peer_tok(k, e->peer));
      FLD(b, O, e->time);
      FLD(b, G, gtok(k, e->comm));
      FLD(b, T, (uint64_t)e->tag);
      FLD(b, L, e->size);
      if (e->ref) { x = e->ref; has_scl = 1; }
      break;
    case PT_EV_IO_BEGIN:
      if (e->request || !xattr(k, e, OTF_XA_HANDLE, &v)) {
        REC(b, SNAPBEGINFILEOP);
        put_hex(b, e->time);
        FLD(b, MI, e->request);
      } else {
        REC(b, SNAPOPENFILE);
        put_hex(b, e->ref);
        FLD(b, O, e->time);
        FLD(b, H, v);
      }
      break;
    case PT_EV_COLL_BEGIN: {
      uint64_t c = 0, h = 0, g = 0, rt = 0, sn = 0, rc = 0;
      xattr(k, e, OTF_XA_COLLOP, &c);
      xattr(k, e, OTF_XA_MATCH, &h);
      xattr(k, e, OTF_XA_COMM, &g);
      xattr(k, e, OTF_XA_ROOT, &rt);
      xattr(k, e, OTF_XA_SENT, &sn);
      xattr(k, e, OTF_XA_RECVD, &rc);
      REC(b, SNAPBEGINCOLLOP);
      put_hex(b, e->time);
      FLD(b, CL, c);
      FLD(b, H, h);
      FLD(b, G, gtok(k, g));
      FLD(b, RT, rt);
      FLD(b, S, sn);
      FLD(b, R, rc);
      break;
    }
    case PT_EV_COLL_END:
      if (!xattr(k, e, OTF_XA_COUNT, &v)) goto nothing;
      REC(b, SNAPCOLLOPCOUNT);
      put_hex(b, gtok(k, e->comm));
      FLD(b, N, v);
      has_scl = 0;
      break;
    case PT_EV_METRIC:
      REC(b, SNAPCOUNTER);
      put_hex(b, e->time);
      FLD(b, CNT, ctok(k, e->ref));
      if (cnt_value(k, e->ref, &e->value, &v))
        return pt__errbuf(k->err, sizeof k->err, PT_ENOMEM, "out of memory");
      FLD(b, V, v);
      break;
    case PT_EV_MESSAGE:
      REC(b, SNAPCOMMENT);
      put_str(b, e->text ? e->text : "");
      has_scl = 0;
      break;
    default:
      goto nothing;
  }
  if (has_scl) FLD(b, SCL, x);
  put_c(b, '\n');
  return b->len >= FLUSH_AT ? wfile_flush(k, &w->snaps) : 0;
nothing:
  b->len = mark;
  w->t_sn = lt;
  w->p_sn = lp;
  w->any_sn = any;
  return 0;
}

/* ---- definitions at close ------------------------------------------------ */

static const pt_def *kv_named(const otf_sink *k, const char *name,
                              uint32_t scope) {
  for (size_t i = 0; i < k->ndefs; i++)
    if (k->defs[i].kind == PT_DEF_KEYVAL && k->defs[i].scope == scope &&
        k->defs[i].name && strcmp(k->defs[i].name, name) == 0)
      return &k->defs[i];
  return NULL;
}

/* First group of `kind` (GROUP.type) and id space `ns` containing m. */
static uint64_t group_of(const otf_sink *k, int64_t type, uint64_t ns,
                         uint64_t m) {
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *g = &k->defs[i];
    if (g->kind != PT_DEF_GROUP || g->i0 != type) continue;
    if (ns && (g->id & ~UINT64_C(0xffffffff)) != ns) continue;
    for (uint64_t j = 0; j < g->nmembers; j++)
      if (g->members[j] == m) return g->id & 0xffffffffu;
  }
  return 0;
}

static uint64_t sclfile_tok(const otf_sink *k, const char *name) {
  for (size_t i = 0; name && i < k->ndefs; i++)
    if (k->defs[i].kind == PT_DEF_FILE && (k->defs[i].id >> 32) == 1 &&
        k->defs[i].name && strcmp(k->defs[i].name, name) == 0)
      return k->defs[i].id & 0xffffffffu;
  return 0;
}

/* The file a call site's DEFSCL names (see scl_file). */
static const char *scl_file_name(const pt_def *cs, char *buf, size_t n) {
  return pt__callsite_address(cs, buf, n) ? buf : cs->s1;
}

static int write_def(otf_sink *k, pt__buf *b, const pt_def *d) {
  size_t sl = 64;
  const char *ss[4] = {d->name, d->s1, d->s2, d->s3};
  for (int i = 0; i < 4; i++) sl += ss[i] ? strlen(ss[i]) : 0;
  if (room(k, b, 256 + sl + 20 * (size_t)d->nmembers)) return PT_ENOMEM;
  switch (d->kind) {
    case PT_DEF_CLOCK:
      REC(b, DEFTIMERRES);
      put_hex(b, (uint64_t)d->i0);
      break;
    case PT_DEF_LOCATION_GROUP: {
      const grpmain *g = find_grp(k->grp, k->ngrp, d->id);
      if ((g && g->main != PT_NONE) || find_def(k, PT_DEF_LOCATION, d->id))
        return 0; /* written as its main location */
      REC(b, DEFPROCESS);
      put_hex(b, ptok(k, d->id));
      if (d->name) { put_s(b, "NM"); put_str(b, d->name); }
      break;
    }
    case PT_DEF_LOCATION: {
      uint64_t parent = 0;
      const grpmain *gm = find_grp(k->grp, k->ngrp, d->parent);
      if (gm) { /* a thread of its group's main process */
        if (gm->main != d->id) parent = ptok(k, gm->main);
      } else if (d->parent != d->id && d->parent != PT_NONE &&
                 find_def(k, PT_DEF_LOCATION, d->parent)) {
        parent = ptok(k, d->parent);
      }
      REC(b, DEFPROCESS);
      put_hex(b, ptok(k, d->id));
      const char *nm = d->name;
      if (!nm) {
        const pt_def *g = find_def(k, PT_DEF_LOCATION_GROUP,
                                   gm && gm->main == d->id ? gm->gid : d->id);
        if (g) nm = g->name;
      }
      if (nm) { put_s(b, "NM"); put_str(b, nm); }
      if (parent) FLD(b, PT, parent);
      break;
    }
    case PT_DEF_GROUP: {
      uint64_t ns = d->id >> 32;
      if (ns == 0 && (d->i0 == PT_GROUP_LOCATIONS ||
                      d->i0 == PT_GROUP_COMM_LOCATIONS ||
                      d->i0 == PT_GROUP_PROCESSES)) {
        REC(b, DEFPROCESSGROUP);
        put_hex(b, gtok(k, d->id));
        put_s(b, "M");
        for (uint64_t i = 0; i < d->nmembers; i++) {
          put_hex(b, ptok(k, d->members[i]));
          put_c(b, ',');
        }
        put_s(b, "NM");
        put_str(b, d->name ? d->name : "");
      } else if (d->i0 == PT_GROUP_REGIONS) {
        REC(b, DEFFUNCTIONGROUP);
        put_hex(b, d->id & 0xffffffffu);
        put_s(b, "NM");
        put_str(b, d->name ? d->name : "");
      } else if (d->i0 == PT_GROUP_METRICS) {
        REC(b, DEFCOUNTERGROUP);
        put_hex(b, d->id & 0xffffffffu);
        put_s(b, "NM");
        put_str(b, d->name ? d->name : "");
      } else if (ns == 3) {
        REC(b, DEFFILEGROUP);
        put_hex(b, d->id & 0xffffffffu);
        put_s(b, "NM");
        put_str(b, d->name ? d->name : "");
      } else {
        return 0;
      }
      break;
    }
    case PT_DEF_COMM: {
      const pt_def *g = find_def(k, PT_DEF_GROUP, d->ref);
      if (g && g->id == d->id) return 0; /* the DPG of its group */
      REC(b, DEFPROCESSGROUP);
      put_hex(b, gtok(k, d->id));
      put_s(b, "M");
      for (uint64_t i = 0; g && i < g->nmembers; i++) {
        put_hex(b, ptok(k, g->members[i]));
        put_c(b, ',');
      }
      put_s(b, "NM");
      put_str(b, d->name ? d->name : "");
      break;
    }
    case PT_DEF_REGION: {
      uint64_t g = group_of(k, PT_GROUP_REGIONS, 0, d->id);
      REC(b, DEFFUNCTION);
      put_hex(b, ftok(k, d->id));
      FLD(b, G, g);
      put_s(b, "NM");
      put_str(b, d->name ? d->name : "");
      if (d->s3) { /* the SCL with this file/line */
        for (size_t i = 0; i < k->ndefs; i++) {
          const pt_def *c = &k->defs[i];
          if (c->kind == PT_DEF_CALLSITE && c->s1 && c->i0 == d->i2 &&
              strcmp(c->s1, d->s3) == 0) {
            FLD(b, SCL, c->id);
            break;
          }
        }
      }
      break;
    }
    case PT_DEF_LABEL:
      if ((d->id >> 32) == 1) {
        REC(b, DEFCOLLOP);
        put_hex(b, d->id & 0xffffffffu);
        put_s(b, "NM");
        put_str(b, d->name ? d->name : "");
        FLD(b, Y, (uint64_t)d->i0);
      } else { /* marker definition */
        pt__buf *mb = &k->marker.b;
        if (room(k, mb, sl + 64)) return PT_ENOMEM;
        REC(mb, DEFMARKER);
        put_hex(mb, d->id);
        put_s(mb, "NM");
        put_str(mb, d->name ? d->name : "");
        FLD(mb, Y, (uint64_t)d->i0);
        put_c(mb, '\n');
        return 0;
      }
      break;
    case PT_DEF_METRIC: {
      REC(b, DEFCOUNTER);
      put_hex(b, ctok(k, d->id));
      FLD(b, G, group_of(k, PT_GROUP_METRICS, 0, d->id));
      put_s(b, "NM");
      put_str(b, d->name ? d->name : "");
      uint64_t p;
      if (cnt_props(k, d->id, &p) != 1) /* (an id UINT64_MAX) */
        p = otf_cnt_props(d->i0, d->i1);
      FLD(b, P, p);
      put_s(b, "U");
      put_str(b, d->s1 ? d->s1 : "");
      break;
    }
    case PT_DEF_FILE:
      if ((d->id >> 32) == 1) {
        REC(b, DEFSCLFILE);
        put_hex(b, d->id & 0xffffffffu);
      } else {
        REC(b, DEFFILE);
        put_hex(b, d->id);
      }
      put_s(b, "NM");
      put_str(b, d->name ? d->name : "");
      if ((d->id >> 32) != 1) FLD(b, G, group_of(k, PT_GROUP_UNKNOWN,
                                                 OTF_GROUP_FILE, d->id));
      break;
    case PT_DEF_CALLSITE: {
      char fb[512];
      REC(b, DEFSCL);
      put_hex(b, d->id);
      FLD(b, F, sclfile_tok(k, scl_file_name(d, fb, sizeof fb)));
      FLD(b, LN, (uint64_t)d->i0);
      break;
    }
    case PT_DEF_ATTRIBUTE: {
      if (d->id >= OTF_XATTR_BASE) return 0;
      uint64_t y = d->i1 ? (uint64_t)d->i1
                   : d->i0 == PT_TYPE_INT    ? 7
                   : d->i0 == PT_TYPE_DOUBLE ? 10
                   : (d->i0 == PT_TYPE_INTS || d->i0 == PT_TYPE_STRING) ? 11
                                                                        : 8;
      REC(b, DEFKEYVALUE);
      put_hex(b, d->id);
      FLD(b, Y, y);
      put_s(b, "NM");
      put_str(b, d->name ? d->name : "");
      put_s(b, "T");
      const char *mark = otf_attr_mark(d);
      if (mark) { /* the marker our reader looks for */
        char t[1024];
        snprintf(t, sizeof t, "%s%s%s", mark, d->s1 ? " " : "",
                 d->s1 ? d->s1 : "");
        put_str(b, t);
      } else {
        put_str(b, d->s1 ? d->s1 : "");
      }
      break;
    }
    case PT_DEF_KEYVAL:
      if (!d->name) return 0;
      if (strcmp(d->name, "otf:counter_properties") == 0) return 0;
      if (strcmp(d->name, "otf:comment") == 0) {
        REC(b, DEFCOMMENT);
        put_str(b, d->s1 ? d->s1 : "");
      } else if (strcmp(d->name, "otf:creator") == 0) {
        REC(b, DEFCREATOR);
        put_str(b, d->s1 ? d->s1 : "");
      } else if (strncmp(d->name, "otf:D", 5) == 0 && d->s1) {
        /* a record kept verbatim by the reader */
        put_s(b, d->name + 4);
        put_s(b, d->s1);
      } else {
        REC(b, DEFCOMMENT);
        put_c(b, '"');
        for (const char *s = d->name; *s; s++)
          put_c(b, (*s == '"' || *s == '\n') ? ' ' : *s);
        put_c(b, '=');
        for (const char *s = d->s1 ? d->s1 : ""; *s; s++)
          put_c(b, (*s == '"' || *s == '\n') ? ' ' : *s);
        put_c(b, '"');
      }
      break;
    default:
      return 0;
  }
  put_c(b, '\n');
  return 0;
}

static int write_defs(otf_sink *k) {
  /* global definitions, then one file per stream with local ones */
  uint32_t maxscope = 0;
  for (size_t i = 0; i < k->ndefs; i++)
    if (k->defs[i].scope > maxscope) maxscope = k->defs[i].scope;
  for (uint32_t sc = 0; sc <= maxscope; sc++) {
    wfile f = {0};
    int any = 0;
    for (size_t i = 0; i < k->ndefs; i++) any |= k->defs[i].scope == sc;
    if (!any) continue;
    f.path = mkpath(k->stub, sc ? sc - 1 : 0, "def");
    if (!f.path) return PT_ENOMEM;
    int rc = 0;
    if (sc == 0) { /* version and id first, as the OTF writer does */
      if (room(k, &f.b, 128)) rc = PT_ENOMEM;
      if (!rc && !kv_named(k, "otf:DV", 0)) put_s(&f.b, "DV1.c.4\"salmon\"\n");
      if (!rc && !kv_named(k, "otf:DUI", 0)) put_s(&f.b, "DUI0\n");
    }
    /* DCO definitions the events need but the model did not carry */
    for (size_t i = 0; !rc && i < k->ndefs; i++)
      if (k->defs[i].scope == sc) rc = write_def(k, &f.b, &k->defs[i]);
    if (!rc) rc = wfile_flush(k, &f);
    pt__buf_free(&f.b);
    free(f.path);
    if (rc) return rc;
  }
  if (maxscope == 0 && k->ndefs == 0) {
    wfile f = {0};
    f.path = mkpath(k->stub, 0, "def");
    if (!f.path || room(k, &f.b, 64)) { free(f.path); return PT_ENOMEM; }
    put_s(&f.b, "DV1.c.4\"salmon\"\n");
    int rc = wfile_flush(k, &f);
    pt__buf_free(&f.b);
    free(f.path);
    if (rc) return rc;
  }
  return 0;
}

/* ---- sink interface -------------------------------------------------------- */

void pt__otf_sink_abort(void *st);

int pt__otf_sink_open(void **st, const char *path, const pt_sink_opts *o,
                      pt_error *err) {
  otf_sink *k = calloc(1, sizeof *k);
  if (!k) return pt__err(err, PT_ENOMEM, "out of memory");
  k->o = *o;
  k->master = strdup(path);
  k->stub = pt__otf_stub(path);
  if (!k->master || !k->stub) {
    pt__otf_sink_abort(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  k->marker.path = mkpath(k->stub, 0, "marker");
  if (!k->marker.path) {
    pt__otf_sink_abort(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  *st = k;
  return PT_OK;
}

/* Keep a copy of definition d (written at close, in order). */
static int add_def(otf_sink *k, const pt_def *d) {
  if (k->ndefs == k->capdefs) {
    size_t nc = k->capdefs ? 2 * k->capdefs : 64;
    pt_def *nd = realloc(k->defs, nc * sizeof *nd);
    if (!nd) return PT_ENOMEM;
    k->defs = nd;
    k->capdefs = nc;
  }
  if (pt__def_copy(&k->arena, &k->defs[k->ndefs], d))
    return pt__errbuf(k->err, sizeof k->err, PT_ENOMEM, "out of memory");
  k->ndefs++;
  return 0;
}

/* A call site of another source has no DEFSCLFILE for its file: one is
 * defined before it, with the next free token, unless a file of that name
 * is.  A recorded address (no line) keeps "path+0xoffset" as its file
 * name: OTF's source location has no other field for it, and `stats`
 * resolves that form read back as it does the recorder's. */
static int scl_file(otf_sink *k, const pt_def *cs) {
  char buf[512];
  const char *name = scl_file_name(cs, buf, sizeof buf);
  if (!name || sclfile_tok(k, name)) return 0;
  uint64_t tok = 0;
  for (size_t i = 0; i < k->ndefs; i++)
    if (k->defs[i].kind == PT_DEF_FILE && (k->defs[i].id >> 32) == 1 &&
        (k->defs[i].id & 0xffffffffu) > tok)
      tok = k->defs[i].id & 0xffffffffu;
  if (tok == 0xffffffffu) return 0; /* (no token left: none) */
  pt_def f = {0};
  f.kind = PT_DEF_FILE;
  f.scope = cs->scope;
  f.id = UINT64_C(1) << 32 | (tok + 1);
  f.parent = f.ref = PT_NONE;
  f.name = name;
  return add_def(k, &f);
}

int pt__otf_sink_write(void *st, const pt_item *it) {
  otf_sink *k = st;
  switch (it->type) {
    case PT_ITEM_DEF: {
      int rc = it->u.def.kind == PT_DEF_CALLSITE ? scl_file(k, &it->u.def) : 0;
      if (rc || (rc = add_def(k, &it->u.def))) return rc;
      if (it->u.def.kind == PT_DEF_ATTRIBUTE &&
          it->u.def.i0 == PT_TYPE_INTS && otf_attr_mark(&it->u.def)) {
        if (k->ni64 == k->capi64) {
          size_t nc = k->capi64 ? 2 * k->capi64 : 16;
          uint64_t *n = realloc(k->i64keys, nc * sizeof *n);
          if (!n) return PT_ENOMEM;
          k->i64keys = n;
          k->capi64 = nc;
        }
        k->i64keys[k->ni64++] = it->u.def.id;
      }
      if (k->frozen && (it->u.def.kind == PT_DEF_LOCATION_GROUP ||
                        it->u.def.kind == PT_DEF_LOCATION))
        return build_groups(k) ? PT_ENOMEM : 0;
      return 0;
    }
    case PT_ITEM_STREAM:
      if (k->nsmap == k->capsmap) {
        size_t nc = k->capsmap ? 2 * k->capsmap : 64;
        pt_stream_entry *n = realloc(k->smap, nc * sizeof *n);
        if (!n) return PT_ENOMEM;
        k->smap = n;
        k->capsmap = nc;
      }
      k->smap[k->nsmap++] = it->u.stream;
      return 0;
    case PT_ITEM_EVENT:
      return freeze(k) ? PT_ENOMEM : write_event(k, &it->u.event);
    case PT_ITEM_SUMMARY:
      return freeze(k) ? PT_ENOMEM : write_summary(k, &it->u.summary);
    case PT_ITEM_SNAPSHOT:
      return freeze(k) ? PT_ENOMEM : write_snapshot(k, &it->u.snapshot);
    default:
      return pt__errbuf(k->err, sizeof k->err, PT_EINVAL, "bad item type %u",
                        it->type);
  }
}

const char *pt__otf_sink_errmsg(void *st) { return ((otf_sink *)st)->err; }

static int sink_finish(otf_sink *k) {
  for (uint32_t i = 0; i < PT_EV__COUNT && k->o.warn; i++)
    if (k->dropped[i]) {
      char t[160];
      snprintf(t, sizeof t, "otf: %" PRIu64 " %s events have no OTF record; "
               "dropped", k->dropped[i], pt_event_kind_name(i));
      k->o.warn(k->o.warn_user, t);
    }
  if (freeze(k)) return PT_ENOMEM;
  /* every defined location gets a stream, even without events */
  for (size_t i = 0; i < k->ndefs; i++)
    if (k->defs[i].kind == PT_DEF_LOCATION && !loc_get(k, k->defs[i].id))
      return PT_ENOMEM;
  int rc = 0;
  for (size_t i = 0; !rc && i < k->nst; i++) {
    wstream *w = &k->st[i];
    if (!w->any_ev) {
      /* a stream without events still gets a time and a process line:
       * the OTF library's reader fails on an empty events file ("An error
       * occurred while reading events") */
      for (size_t j = 0; j < k->nlm && !w->any_ev; j++)
        if (k->lm[j].stream_idx == i && !room(k, &w->ev.b, 64)) {
          w->t_ev = 0;
          w->p_ev = ptok(k, k->lm[j].loc);
          w->any_ev = 1;
        }
    }
    if (w->any_ev && !room(k, &w->ev.b, 64)) { /* final state line */
      put_hex(&w->ev.b, w->t_ev);
      put_s(&w->ev.b, "\n*");
      put_hex(&w->ev.b, w->p_ev);
      put_c(&w->ev.b, '\n');
    }
    rc = wfile_flush(k, &w->ev);
    if (!rc && (w->any_sn || w->snaps.created)) rc = wfile_flush(k, &w->snaps);
    if (!rc && (w->any_st || w->stats.created)) rc = wfile_flush(k, &w->stats);
  }
  if (!rc) rc = write_defs(k); /* also fills the marker definitions */
  if (!rc && (k->marker.b.len || k->marker.created)) {
    /* definitions must precede the spots: rewrite defs + spooled spots */
    rc = wfile_flush(k, &k->marker);
  }
  if (rc) return rc;
  /* master file last */
  pt__buf m = {0};
  for (size_t i = 0; i < k->nst; i++) {
    wstream *w = &k->st[i];
    if (room(k, &m, 40 + 20 * w->nprocs)) { pt__buf_free(&m); return PT_ENOMEM; }
    put_hex(&m, w->id);
    put_c(&m, ':');
    for (size_t j = 0; j < w->nprocs; j++) {
      if (j) put_c(&m, ',');
      put_hex(&m, w->procs[j]);
      if (room(k, &m, 40)) { pt__buf_free(&m); return PT_ENOMEM; }
    }
    put_c(&m, '\n');
  }
  wfile f = {k->master, m, 0};
  rc = wfile_flush(k, &f);
  pt__buf_free(&f.b);
  return rc;
}

static void sink_free(otf_sink *k) {
  for (size_t i = 0; i < k->nst; i++) {
    wstream *w = &k->st[i];
    free(w->ev.path); free(w->snaps.path); free(w->stats.path);
    pt__buf_free(&w->ev.b); pt__buf_free(&w->snaps.b);
    pt__buf_free(&w->stats.b);
    free(w->procs);
  }
  free(k->st);
  free(k->lm);
  free(k->grp);
  free(k->rnk);
  free(k->big);
  free(k->defs);
  free(k->i64keys);
  free(k->smap);
  free(k->iop);
  pt__map_free(&k->handle_file);
  pt__map_free(&k->cnt_props);
  pt__arena_free(&k->arena);
  pt__buf_free(&k->marker.b);
  pt__buf_free(&k->line);
  free(k->marker.path);
  free(k->stub);
  free(k->master);
  free(k);
}

int pt__otf_sink_close(void *st, pt_error *err) {
  otf_sink *k = st;
  int rc = sink_finish(k);
  if (rc < 0) pt__err(err, rc, "%s", k->err[0] ? k->err : pt_strerror(rc));
  sink_free(k);
  return rc;
}

void pt__otf_sink_abort(void *st) {
  otf_sink *k = st;
  if (!k) return;
  /* remove the files written under their final names */
  for (size_t i = 0; i < k->nst; i++) {
    wstream *w = &k->st[i];
    if (w->ev.created) unlink(w->ev.path);
    if (w->snaps.created) unlink(w->snaps.path);
    if (w->stats.created) unlink(w->stats.path);
  }
  if (k->marker.created && k->marker.path) unlink(k->marker.path);
  sink_free(k);
}
