/* The statistics engine (include/paratrace/analysis.h, "Statistics").
 *
 * One pass over definitions and events.  State, all bounded by the open
 * state of the trace or by (locations x regions): per location a call
 * stack; one row per (location, region), (location, peer), matrix cell,
 * (MPI region, call site), relative entry; unmatched messages per channel
 * (sender rank, receiver rank, comm, tag) as FIFOs, freed when empty; open
 * requests, freed when completed.
 *
 * Times are clipped to the window: c(x) = min(max(x, from), to).  A visit
 * [e, l) adds c(l) - c(e) to its inclusive time and that minus its
 * children's clipped inclusive times to its exclusive time, which is the
 * same as the time within the window during which it is innermost.  All
 * sums are in u64 ticks, so sums of pieces are exact (the summaries path
 * relies on it).
 */
#include "analysis/stats_int.h"
#include "core/util.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- keyed table ---------------------------------------------------------- */

static uint64_t khash(const uint64_t k[4]) {
  return pt__mix64(k[0] * UINT64_C(0x9e3779b97f4a7c15) +
               k[1] * UINT64_C(0xc2b2ae3d27d4eb4f) +
               k[2] * UINT64_C(0x165667b19e3779f9) + k[3]);
}
static const uint64_t *kkey(const pt__ktab *t, uint32_t idx) {
  return (const uint64_t *)(const void *)(t->rec + (size_t)idx * t->rsize);
}
static int keq(const uint64_t *a, const uint64_t *b) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

void pt__kt_init(pt__ktab *t, size_t rsize) {
  memset(t, 0, sizeof *t);
  t->rsize = rsize;
}
void pt__kt_free(pt__ktab *t) {
  free(t->slot);
  free(t->rec);
  size_t r = t->rsize;
  memset(t, 0, sizeof *t);
  t->rsize = r;
}

static size_t kslot(const pt__ktab *t, const uint64_t k[4]) {
  size_t i = (size_t)khash(k) & (t->cap - 1);
  while (t->slot[i] && !keq(kkey(t, t->slot[i] - 1), k))
    i = (i + 1) & (t->cap - 1);
  return i;
}

void *pt__kt_find(const pt__ktab *t, const uint64_t k[4]) {
  if (!t->cap) return NULL;
  size_t i = kslot(t, k);
  return t->slot[i] ? t->rec + (size_t)(t->slot[i] - 1) * t->rsize : NULL;
}

static int kt_rehash(pt__ktab *t, size_t ncap) {
  uint32_t *ns = calloc(ncap, sizeof *ns);
  if (!ns) return PT_ENOMEM;
  free(t->slot);
  t->slot = ns;
  t->cap = ncap;
  for (size_t r = 0; r < t->n; r++) {
    size_t i = kslot(t, kkey(t, (uint32_t)r));
    t->slot[i] = (uint32_t)r + 1;
  }
  return PT_OK;
}

void *pt__kt_get(pt__ktab *t, const uint64_t k[4]) {
  void *p = pt__kt_find(t, k);
  if (p) return p;
  if (t->n >= UINT32_MAX - 1) return NULL;
  if ((t->n + 1) * 2 > t->cap && kt_rehash(t, t->cap ? t->cap * 2 : 64) < 0)
    return NULL;
  if (t->n == t->rcap) {
    size_t nc = t->rcap ? t->rcap * 2 : 32;
    char *q = realloc(t->rec, nc * t->rsize);
    if (!q) return NULL;
    t->rec = q;
    t->rcap = nc;
  }
  p = t->rec + t->n * t->rsize;
  memset(p, 0, t->rsize);
  memcpy(p, k, 4 * sizeof *k);
  t->slot[kslot(t, k)] = (uint32_t)t->n + 1;
  t->n++;
  return p;
}

/* Delete the record in slot i (occupied). */
static void kt_del_slot(pt__ktab *t, size_t i) {
  uint32_t idx = t->slot[i] - 1;
  /* backward-shift deletion keeps probe chains intact */
  t->slot[i] = 0;
  size_t j = i;
  for (;;) {
    j = (j + 1) & (t->cap - 1);
    if (!t->slot[j]) break;
    size_t home = (size_t)khash(kkey(t, t->slot[j] - 1)) & (t->cap - 1);
    /* move slot j to i if home is not cyclically in (i, j] */
    int move = i <= j ? (home <= i || home > j) : (home <= i && home > j);
    if (move) {
      t->slot[i] = t->slot[j];
      t->slot[j] = 0;
      i = j;
    }
  }
  uint32_t last = (uint32_t)t->n - 1;
  if (idx != last) {
    size_t ls = kslot(t, kkey(t, last));
    memcpy(t->rec + (size_t)idx * t->rsize, t->rec + (size_t)last * t->rsize,
           t->rsize);
    t->slot[ls] = idx + 1;
  }
  t->n--;
}

void pt__kt_del(pt__ktab *t, const uint64_t k[4]) {
  if (!t->cap) return;
  size_t i = kslot(t, k);
  if (t->slot[i]) kt_del_slot(t, i);
}

/* ---- records ------------------------------------------------------------------ */

typedef struct reg_rec {
  uint64_t k[4];
  char *name;
  int is_mpi;
  int role, paradigm, special; /* special: PT__INIT, PT__FINALIZE */
} reg_rec;
typedef struct u_rec {
  uint64_t k[4];
  uint64_t v;
  int set;
} u_rec;
typedef struct mx_rec {
  uint64_t k[4]; /* sender loc, receiver loc, key */
  uint64_t count, bytes, ls, lr, matched;
} mx_rec;
/* cs_rec is pt__cs (stats_int.h) */
typedef pt__cs cs_rec;
typedef struct rel_rec {
  uint64_t k[4]; /* what, id */
  uint64_t count, time, bytes;
} rel_rec;
typedef pt__chan chan_rec;
/* heaps of send channels (see any_source_send): sendtags (receiver,
 * communicator, sender, 0); sendsrcs (receiver, communicator, 0, 0) and
 * (receiver, communicator, tag, 1) */
typedef pt__oheap tags_rec;

/* The sender of a receive from MPI_ANY_SOURCE without a recorded status
 * (peer -1), in a channel's key */
#define ANY_SRC UINT64_MAX

#define NIL UINT32_MAX
#define K PT__K /* a key of four words */

/* ---- create / destroy ------------------------------------------------- */

int pt_stats_create(pt_stats **out, const pt_stats_opts *opts) {
  assert(out);
  *out = NULL;
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  if (opts) o = *opts;
  uint64_t hi = o.to ? o.to : UINT64_MAX;
  if (o.from > hi) return PT_EINVAL;
  pt_stats *s = calloc(1, sizeof *s);
  if (!s) return PT_ENOMEM;
  s->opts = o;
  s->lo = o.from;
  s->mm_lo = o.from;
  s->hi = hi;
  s->pend_free = NIL;
  s->part = o.part != 0;
  s->have = PT_STATS_HAVE_PROFILE | PT_STATS_HAVE_DETAIL | PT_STATS_HAVE_VISITS |
            PT_STATS_HAVE_CALLSITES | PT_STATS_HAVE_LATE |
            PT_STATS_HAVE_METRIC_REGIONS | PT_STATS_HAVE_CALL_TIMES;
  if (o.locations && o.nlocations) {
    s->sel = malloc(o.nlocations * sizeof *s->sel);
    if (!s->sel) {
      free(s);
      return PT_ENOMEM;
    }
    memcpy(s->sel, o.locations, o.nlocations * sizeof *s->sel);
    qsort(s->sel, o.nlocations, sizeof *s->sel, pt__cmp_u64);
  }
  s->opts.locations = s->sel;
  pt__kt_init(&s->regions, sizeof(reg_rec));
  pt__kt_init(&s->callsites, sizeof(pt__name));
  pt__kt_init(&s->locdefs, sizeof(u_rec));
  pt__kt_init(&s->groups, sizeof(u_rec));
  pt__kt_init(&s->loc2rank, sizeof(u_rec));
  pt__kt_init(&s->rank2loc, sizeof(u_rec));
  pt__kt_init(&s->locs, sizeof(pt__loc));
  pt__kt_init(&s->rl, sizeof(pt__rl));
  pt__kt_init(&s->pm, sizeof(pt__pm));
  pt__kt_init(&s->mx, sizeof(mx_rec));
  pt__kt_init(&s->cs, sizeof(cs_rec));
  pt__kt_init(&s->rel, sizeof(rel_rec));
  pt__stats_io_init(s);
  pt__stats_metric_init(s);
  pt__kt_init(&s->iv, sizeof(pt__iv));
  pt__kt_init(&s->chans, sizeof(chan_rec));
  pt__kt_init(&s->sendtags, sizeof(tags_rec));
  pt__kt_init(&s->sendsrcs, sizeof(tags_rec));
  pt__kt_init(&s->reqs, sizeof(pt__req));
  pt__kt_init(&s->defers, sizeof(pt__defer));
  pt__kt_init(&s->lt, sizeof(pt__late));
  pt__kt_init(&s->selranks, sizeof(u_rec));
  /* collective wait states: every member's events are needed, so not
   * with a selection of locations (but in a part of the whole trace: the
   * merges join them; not in one of a selection, part 2) */
  if (!(o.locations && o.nlocations) || o.part == 1) {
    if (pt__stats_coll_init(s) < 0) {
      pt_stats_destroy(s);
      return PT_ENOMEM;
    }
    s->have |= PT_STATS_HAVE_WAITS;
  }
  *out = s;
  return PT_OK;
}

static void free_output(pt_stats *s) {
  free(s->out_regions);
  free(s->out_rl);
  free(s->out_locs);
  free(s->out_cs);
  free(s->out_csl);
  free(s->out_mx);
  free(s->out_rel);
  free(s->out_io);
  s->out_io = NULL;
  s->nout_io = 0;
  free(s->out_wait);
  s->out_wait = NULL;
  s->nout_wait = 0;
  pt__stats_metric_free_output(s);
  s->out_regions = NULL;
  s->out_rl = NULL;
  s->out_locs = NULL;
  s->out_cs = NULL;
  s->out_csl = NULL;
  s->out_mx = NULL;
  s->out_rel = NULL;
  s->nout_regions = s->nout_rl = s->nout_locs = s->nout_cs = s->nout_csl =
      s->nout_mx = s->nout_rel = 0;
  s->aggregated = 0;
}

void pt__stats_invalidate(pt_stats *s) { free_output(s); }

void pt_stats_destroy(pt_stats *s) {
  if (!s) return;
  free_output(s);
  pt__stats_metric_free(s);
  pt__stats_coll_free(s);
  for (size_t i = 0; i < s->regions.n; i++)
    free(((reg_rec *)pt__kt_at(&s->regions, i))->name);
  pt__names_free(&s->callsites);
  pt__names_free(&s->files);
  for (size_t i = 0; i < s->locs.n; i++) {
    free(((pt__loc *)pt__kt_at(&s->locs, i))->st);
    free(((pt__loc *)pt__kt_at(&s->locs, i))->fix);
  }
  for (size_t i = 0; i < s->sendtags.n; i++)
    pt__oh_free(pt__kt_at(&s->sendtags, i));
  for (size_t i = 0; i < s->sendsrcs.n; i++)
    pt__oh_free(pt__kt_at(&s->sendsrcs, i));
  pt__ktab *tabs[] = {&s->regions, &s->handles, &s->locdefs, &s->groups,
                      &s->loc2rank, &s->rank2loc, &s->locs, &s->rl,
                      &s->pm, &s->mx, &s->cs, &s->rel, &s->chans, &s->reqs,
                      &s->iv, &s->lt, &s->selranks, &s->io, &s->ioop,
                      &s->sendtags, &s->sendsrcs, &s->defers};
  for (size_t i = 0; i < sizeof tabs / sizeof *tabs; i++) pt__kt_free(tabs[i]);
  free(s->dmsgs);
  free(s->spans);
  free(s->pends);
  free(s->loc_direct);
  free(s->sel);
  free(s);
}

/* ---- definitions ---------------------------------------------------------- */

static char *dupstr(const char *a) {
  size_t n = strlen(a) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, a, n);
  return p;
}

int pt__names_put(pt__ktab *t, uint64_t id, const char *name) {
  if (!name) return PT_OK;
  char *n = dupstr(name);
  pt__name *r = n ? pt__kt_get(t, K(id, 0, 0, 0)) : NULL;
  if (!r) {
    free(n);
    return PT_ENOMEM;
  }
  free(r->name);
  r->name = n;
  return PT_OK;
}

const char *pt__names_get(const pt__ktab *t, uint64_t id) {
  const pt__name *r = pt__kt_find(t, K(id, 0, 0, 0));
  return r ? r->name : NULL;
}

int pt__names_merge(pt__ktab *dst, const pt__ktab *src) {
  for (size_t i = 0; i < src->n; i++) {
    const pt__name *x = pt__kt_at(src, i);
    if (pt__kt_find(dst, x->k)) continue;
    int rc = pt__names_put(dst, x->k[0], x->name);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

void pt__names_free(pt__ktab *t) {
  for (size_t i = 0; i < t->n; i++) free(((pt__name *)pt__kt_at(t, i))->name);
  pt__kt_free(t);
}

static int special_of(const char *name) {
  if (strcmp(name, "MPI_Init") == 0 || strcmp(name, "MPI_Init_thread") == 0)
    return PT__INIT;
  return strcmp(name, "MPI_Finalize") == 0 ? PT__FINALIZE : PT__PLAIN;
}

static int map_loc(pt_stats *s, uint64_t id, uint64_t grp, int state);

int pt_stats_def(pt_stats *s, const pt_def *d) {
  assert(s && d);
  if (s->finished) return PT_ESTATE;
  if (pt__stats_io_def(s, d) < 0 || pt__stats_metric_def(s, d) < 0 ||
      pt__stats_coll_def(s, d) < 0)
    return PT_ENOMEM;
  switch (d->kind) {
    case PT_DEF_REGION: {
      reg_rec *r = pt__kt_get(&s->regions, K(d->id, 0, 0, 0));
      if (!r) return PT_ENOMEM;
      char buf[32];
      if (!d->name) snprintf(buf, sizeof buf, "region %llu",
                             (unsigned long long)d->id);
      char *n = dupstr(d->name ? d->name : buf);
      if (!n) return PT_ENOMEM;
      free(r->name);
      r->name = n;
      r->is_mpi = d->i1 == PT_PARADIGM_MPI || strncmp(n, "MPI_", 4) == 0;
      r->role = (int)d->i0;
      r->paradigm = (int)d->i1;
      r->special = special_of(n);
      break;
    }
    case PT_DEF_ATTRIBUTE:
      if (d->name && !strcmp(d->name, "callsite") &&
          (d->i0 == PT_TYPE_UINT || d->i0 == PT_TYPE_INT)) {
        s->cs_attr = d->id + 1;
        s->cs_attr_type = (uint32_t)d->i0;
      } else if (d->name && !strcmp(d->name, "callsite") &&
                 d->i0 == PT_TYPE_STRING) {
        s->cs_str_attr = d->id + 1;
      }
      break;
    case PT_DEF_CALLSITE: {
      char buf[512];
      if (pt__callsite_address(d, buf, sizeof buf))
        ; /* kept whole for pt_stats_resolve_callsites */
      else if (d->s1 && d->i0 > 0)
        snprintf(buf, sizeof buf, "%s:%lld", d->s1, (long long)d->i0);
      else if (d->name)
        snprintf(buf, sizeof buf, "%s", d->name);
      else
        snprintf(buf, sizeof buf, "callsite %llu", (unsigned long long)d->id);
      /* inside another call site (the MPI recorder's PARATRACE_CALLSITES
       * above 1): the chain, innermost first, " < " between statements */
      const char *pn = d->parent != PT_NONE && d->parent != d->id
                           ? pt__names_get(&s->callsites, d->parent)
                           : NULL;
      if (!pn) return pt__names_put(&s->callsites, d->id, buf);
      size_t bl = strlen(buf), pl = strlen(pn);
      char *chain = malloc(bl + 3 + pl + 1);
      if (!chain) return PT_ENOMEM;
      memcpy(chain, buf, bl);
      memcpy(chain + bl, " < ", 3);
      memcpy(chain + bl + 3, pn, pl + 1);
      int rc = pt__names_put(&s->callsites, d->id, chain);
      free(chain);
      return rc;
    }
    case PT_DEF_LOCATION: {
      /* after the first event (sources that define as they go, such as
       * PICL): mapped to its rank now, when ranks are in use */
      if (s->frozen && pt__kt_find(&s->locdefs, K(d->id, 0, 0, 0)))
        return PT_OK;
      u_rec *u = pt__kt_get(&s->locdefs, K(d->id, 0, 0, 0));
      if (!u) return PT_ENOMEM;
      u->v = d->parent;
      if (s->frozen) return map_loc(s, d->id, d->parent, 1);
      break;
    }
    case PT_DEF_LOCATION_GROUP: {
      if (s->frozen && pt__kt_find(&s->groups, K(d->id, 0, 0, 0)))
        return PT_OK;
      if (s->frozen && s->use_ranks) /* its rank must be new */
        for (size_t i = 0; i < s->groups.n; i++)
          if (((u_rec *)pt__kt_at(&s->groups, i))->v == (uint64_t)d->i1)
            return PT_OK;
      u_rec *u = pt__kt_get(&s->groups, K(d->id, 0, 0, 0));
      if (!u) return PT_ENOMEM;
      u->v = (uint64_t)d->i1;
      u->set = 1;
      if (s->frozen) /* the locations defined before it */
        for (size_t i = 0; i < s->locdefs.n; i++) {
          u_rec *l = pt__kt_at(&s->locdefs, i);
          int rc;
          if (l->v == d->id && (rc = map_loc(s, l->k[0], l->v, 0)) < 0)
            return rc;
        }
      break;
    }
    default: break;
  }
  return PT_OK;
}

int pt__stats_selected(const pt_stats *s, uint64_t loc) {
  if (!s->sel) return 1;
  size_t lo = 0, hi = s->opts.nlocations;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (s->sel[m] < loc) lo = m + 1;
    else if (s->sel[m] > loc) hi = m;
    else return 1;
  }
  return 0;
}

pt__loc *pt__stats_loc(pt_stats *s, uint64_t loc) {
  /* locations are never deleted, so their indices are stable: small ids
   * are looked up in an array */
  if (loc < s->nloc_direct && s->loc_direct[loc])
    return pt__kt_at(&s->locs, s->loc_direct[loc] - 1);
  pt__loc *L = pt__kt_get(&s->locs, K(loc, 0, 0, 0));
  if (L && loc < 65536) {
    if (loc >= s->nloc_direct) {
      size_t n = s->nloc_direct ? s->nloc_direct : 64;
      while (n <= loc) n *= 2;
      uint32_t *q = realloc(s->loc_direct, n * sizeof *q);
      if (!q) return L; /* the cache is optional */
      memset(q + s->nloc_direct, 0, (n - s->nloc_direct) * sizeof *q);
      s->loc_direct = q;
      s->nloc_direct = n;
    }
    s->loc_direct[loc] =
        (uint32_t)((size_t)((char *)L - s->locs.rec) / s->locs.rsize + 1);
  }
  return L;
}

/* Location id of group grp: its state (if selected and `state`), and its
 * rank when ranks are in use; the first location of a rank speaks for
 * it. */
static int map_loc(pt_stats *s, uint64_t id, uint64_t grp, int state) {
  if (state && pt__stats_selected(s, id) && !pt__stats_loc(s, id))
    return PT_ENOMEM;
  if (!s->use_ranks) return PT_OK;
  u_rec *g = pt__kt_find(&s->groups, K(grp, 0, 0, 0));
  if (!g) return PT_OK;
  u_rec *a = pt__kt_get(&s->loc2rank, K(id, 0, 0, 0));
  if (!a) return PT_ENOMEM;
  a->v = g->v;
  a->set = 1;
  u_rec *b = pt__kt_find(&s->rank2loc, K(g->v, 0, 0, 0));
  if (!b) {
    b = pt__kt_get(&s->rank2loc, K(g->v, 0, 0, 0));
    if (!b) return PT_ENOMEM;
    b->v = id;
    b->set = 1;
  }
  return PT_OK;
}

int pt__stats_freeze(pt_stats *s) {
  if (s->frozen) return PT_OK;
  s->frozen = 1;
  /* ranks are used when every group has a distinct rank */
  pt__ktab seen;
  pt__kt_init(&seen, sizeof(u_rec));
  int distinct = s->groups.n > 0;
  for (size_t i = 0; i < s->groups.n && distinct; i++) {
    u_rec *g = pt__kt_at(&s->groups, i);
    if (pt__kt_find(&seen, K(g->v, 0, 0, 0))) distinct = 0;
    else if (!pt__kt_get(&seen, K(g->v, 0, 0, 0))) {
      pt__kt_free(&seen);
      return PT_ENOMEM;
    }
  }
  pt__kt_free(&seen);
  s->use_ranks = distinct;
  for (size_t i = 0; i < s->locdefs.n; i++) {
    u_rec *l = pt__kt_at(&s->locdefs, i);
    int rc = map_loc(s, l->k[0], l->v, 1);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

uint64_t pt__stats_rank_of(const pt_stats *s, uint64_t loc) {
  if (!s->use_ranks) return loc;
  const u_rec *u = pt__kt_find(&s->loc2rank, K(loc, 0, 0, 0));
  return u ? u->v : loc;
}

uint64_t pt__stats_peer_loc(const pt_stats *s, int64_t peer) {
  if (peer < 0) return PT_NONE;
  if (!s->use_ranks) return (uint64_t)peer;
  const u_rec *u = pt__kt_find(&s->rank2loc, K((uint64_t)peer, 0, 0, 0));
  return u ? u->v : (uint64_t)peer;
}

/* ---- events ------------------------------------------------------------------- */

static inline uint64_t clip(const pt_stats *s, uint64_t x) {
  return x < s->lo ? s->lo : x > s->hi ? s->hi : x;
}
static inline int in_w(const pt_stats *s, uint64_t t) {
  return t >= s->lo && t < s->hi;
}

static int is_mpi_region(const pt_stats *s, uint64_t region) {
  const reg_rec *r = pt__kt_find(&s->regions, K(region, 0, 0, 0));
  return r && r->is_mpi;
}
static int special_region(const pt_stats *s, uint64_t region) {
  const reg_rec *r = pt__kt_find(&s->regions, K(region, 0, 0, 0));
  return r ? r->special : PT__PLAIN;
}

int pt__stats_has_init_region(const pt_stats *s) {
  for (size_t i = 0; i < s->regions.n; i++)
    if (((const reg_rec *)pt__kt_at(&s->regions, i))->special == PT__INIT)
      return 1;
  return 0;
}

/* The MPI recorder's program region (src/mpi/mpirec.c): the only region
 * with role FUNCTION and paradigm USER, in a trace that defines MPI_Init.
 * From the definitions only, so that every path (full scan, summaries,
 * merge) agrees. */
uint64_t pt__stats_program_region(const pt_stats *s) {
  uint64_t found = PT_NONE;
  size_t n = 0;
  for (size_t i = 0; i < s->regions.n; i++) {
    const reg_rec *r = pt__kt_at(&s->regions, i);
    if (r->role == PT_ROLE_FUNCTION && r->paradigm == PT_PARADIGM_USER &&
        !r->is_mpi) {
      found = r->k[0];
      n++;
    }
  }
  return n == 1 && pt__stats_has_init_region(s) ? found : PT_NONE;
}

/* The location record of loc; small ids through the direct map. */
static inline pt__loc *loc_of(pt_stats *s, uint64_t loc) {
  if (loc < s->nloc_direct) {
    uint32_t i = s->loc_direct[loc];
    if (i) return pt__kt_at(&s->locs, i - 1);
  }
  return pt__stats_loc(s, loc);
}

/* Push a frame on L (the record of location loc).  Touches the row table
 * only, so L stays valid. */
static int push_L(pt_stats *s, pt__loc *L, uint64_t loc, uint64_t region,
                  uint64_t enter) {
  if (L->depth == L->cap) {
    size_t nc = L->cap ? L->cap * 2 : 16;
    pt__frame *q = realloc(L->st, nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    L->st = q;
    L->cap = nc;
  }
  uint64_t R = s->opts.relative_to;
  size_t ci = (size_t)(region ^ (region >> 7)) & (PT__ROWCACHE - 1);
  pt__rl *r;
  uint32_t row;
  if (L->rc_region[ci] == region + 1 && region != UINT64_MAX) {
    row = L->rc_row[ci];
    r = pt__kt_at(&s->rl, row);
  } else {
    r = pt__kt_get(&s->rl, K(loc, region, 0, 0));
    if (!r) return PT_ENOMEM;
    row = (uint32_t)(((char *)r - s->rl.rec) / s->rl.rsize);
    L->rc_region[ci] = region + 1;
    L->rc_row[ci] = row;
  }
  if (!r->known) {
    r->known = 1;
    r->is_mpi = (uint8_t)is_mpi_region(s, region);
    r->special = (uint8_t)special_region(s, region);
  }
  pt__frame *f = &L->st[L->depth++];
  f->region = region;
  f->enter = enter;
  f->child = 0;
  f->callsite = PT_NONE;
  f->row = row;
  f->is_mpi = r->is_mpi;
  f->from_state = 0;
  f->spend = NIL;
  f->in_rel = region != R && L->rel_depth > 0;
  if (region == R) L->rel_depth++;
  return PT_OK;
}

uint64_t pt__stats_enter_callsite(const pt_stats *s, const pt_event *ev) {
  for (uint32_t i = 0; s->cs_attr && i < ev->nattrs; i++)
    if (ev->attrs[i].key == s->cs_attr - 1 &&
        pt__kt_find(&s->callsites, K(ev->attrs[i].val.v.u, 0, 0, 0)))
      return ev->attrs[i].val.v.u;
  return PT_NONE;
}

/* The call site an ENTER event names by its text (a STRING attribute
 * "callsite": the MPI recorder's sites as paratrace writes them to OTF2,
 * "/path/module+0xoffset" or a chain "a < b"), or PT_NONE; the text is a
 * call site of its own, its id a hash of the text (equal texts, one site,
 * in any part of a parallel run) above the ids of defined call sites.
 * PT_ENOMEM as an error. */
static uint64_t enter_callsite_text(pt_stats *s, const pt_event *ev, int *rc) {
  for (uint32_t i = 0; i < ev->nattrs; i++) {
    if (ev->attrs[i].key != s->cs_str_attr - 1 ||
        ev->attrs[i].val.type != PT_TYPE_STRING || !ev->attrs[i].val.v.s ||
        !*ev->attrs[i].val.v.s)
      continue;
    const char *t = ev->attrs[i].val.v.s;
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *c = (const unsigned char *)t; *c; c++)
      h = (h ^ *c) * UINT64_C(1099511628211);
    h |= UINT64_C(1) << 63;
    if (h == PT_NONE) h--;
    const char *have = pt__names_get(&s->callsites, h);
    if (!have && (*rc = pt__names_put(&s->callsites, h, t)) < 0) return PT_NONE;
    return h;
  }
  return PT_NONE;
}

int pt__stats_push(pt_stats *s, uint64_t loc, uint64_t region,
                   uint64_t enter, uint64_t callsite) {
  pt__loc *L = pt__stats_loc(s, loc);
  if (!L) return PT_ENOMEM;
  int rc = push_L(s, L, loc, region, enter);
  if (rc == PT_OK) L->st[L->depth - 1].from_state = 1;
  if (rc == PT_OK && L->st[L->depth - 1].is_mpi)
    L->st[L->depth - 1].callsite = callsite;
  return rc;
}

int pt__stats_set_callsite(pt_stats *s, uint64_t loc, uint64_t depth,
                           uint64_t region, uint64_t enter, uint64_t callsite) {
  pt__loc *L = pt__kt_find(&s->locs, K(loc, 0, 0, 0));
  if (!L || depth >= L->depth) return 0;
  pt__frame *f = &L->st[depth];
  if (!f->is_mpi || f->region != region || f->enter != enter ||
      !pt__kt_find(&s->callsites, K(callsite, 0, 0, 0)))
    return 0;
  f->callsite = callsite;
  return 1;
}

/* The call-site row of (region, callsite) of L, through L's cache (rows
 * of the call-site table are never deleted). */
static cs_rec *cs_row(pt_stats *s, pt__loc *L, uint64_t region,
                      uint64_t callsite) {
  size_t ci = (size_t)(region ^ (region >> 9) ^ callsite) & (PT__MSGCACHE - 1);
  if (L->cc_reg[ci] == region + 1 && region != UINT64_MAX &&
      L->cc_site[ci] == callsite)
    return pt__kt_at(&s->cs, L->cc_row[ci]);
  cs_rec *c = pt__kt_get(&s->cs, K(region, callsite, L->k[0] + 1, 0));
  if (!c) return NULL;
  L->cc_reg[ci] = region + 1;
  L->cc_site[ci] = callsite;
  L->cc_row[ci] = (uint32_t)(((char *)c - s->cs.rec) / s->cs.rsize);
  return c;
}

/* Summarizing: a visit [enter, t) of (loc, region) ended; c: its call-site
 * row when it is an MPI call (of site callsite), else NULL. */
static int iv_visit(pt_stats *s, uint64_t loc, uint64_t region,
                    uint64_t enter, uint64_t t, cs_rec *c, uint64_t callsite) {
  if (enter >= s->iv_start) { /* inside the current interval */
    pt__iv *v = pt__kt_get(&s->iv, K(loc, region, 0, 0));
    if (!v) return PT_ENOMEM;
    pt__fold_ext(&v->vmin, &v->vmax, v->count != 0, t - enter, t - enter);
    v->count++;
    if (c) {
      pt__fold_ext(&c->itmin, &c->itmax, c->itn != 0, t - enter, t - enter);
      c->itn++;
    }
    return PT_OK;
  }
  if (s->nspans == s->spans_cap) {
    size_t nc = s->spans_cap ? s->spans_cap * 2 : 64;
    pt__span *q = realloc(s->spans, nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    s->spans = q;
    s->spans_cap = nc;
  }
  s->spans[s->nspans++] = (pt__span){loc, region, enter, t, callsite, c != NULL};
  return PT_OK;
}

void pt__stats_track_visits(pt_stats *s) {
  s->track_iv = 1;
  s->iv_start = 0;
}

void pt__stats_new_interval(pt_stats *s, uint64_t t) {
  pt__kt_free(&s->iv); /* keeps its record size */
  for (size_t i = 0; i < s->cs.n; i++) {
    cs_rec *c = pt__kt_at(&s->cs, i);
    c->inb = c->itn = 0;
  }
  s->nspans = 0;
  s->iv_start = t;
}

int pt__stats_visit_extreme(pt_stats *s, uint64_t loc, uint64_t region,
                            uint64_t vmin, uint64_t vmax) {
  pt__rl *r = pt__kt_get(&s->rl, K(loc, region, 0, 0));
  if (!r) return PT_ENOMEM;
  pt__fold_ext(&r->vmin, &r->vmax, r->vset, vmin, vmax);
  r->vset = 1;
  return PT_OK;
}

/* Leave the innermost frame of L at time t. */
static int pop(pt_stats *s, pt__loc *L, uint64_t t) {
  pt__frame f = L->st[--L->depth];
  while (PT_UNLIKELY(L->nfix) && L->fix[L->nfix - 1].depth >= L->depth) {
    /* a late receiver counted up to the receive's enter: bounded by this
     * leave if it came first (see pt__lrfix) */
    const pt__lrfix *x = &L->fix[--L->nfix];
    if (t >= x->renter) continue;
    uint64_t d = x->renter - (t > x->senter ? t : x->senter);
    mx_rec *m = pt__kt_find(&s->mx, x->mx);
    if (m) m->lr -= d;
    pt__late *y = x->has_lt ? pt__kt_find(&s->lt, x->lt) : NULL;
    if (y) y->lr -= d;
  }
  if (f.spend != NIL) {
    /* its blocking send still waits for its receive: the sender waited
     * no longer than this call lasted (the slot may have been matched and
     * reused: then it is another call's, with another location or enter) */
    pt__pend *q = &s->pends[f.spend];
    if (q->used && q->src == L->k[0] && q->enter == f.enter &&
        q->ev.kind == PT_EV_SEND && !q->left) {
      q->left = 1;
      q->leave = t;
    }
  }
  uint64_t incl = clip(s, t) - clip(s, f.enter);
  uint64_t excl = incl - f.child;
  int counted = in_w(s, f.enter);
  if (L->depth) L->st[L->depth - 1].child += incl;
  pt__rl *r = pt__kt_at(&s->rl, f.row);
  if (r->special == PT__INIT && !L->has_init) {
    L->has_init = 1;
    L->init_end = t;
  }
  r->incl += incl;
  r->excl += excl;
  /* visits entered in [mm_lo, hi) count for the per-visit extremes */
  int ext = f.enter >= s->mm_lo && f.enter < s->hi;
  uint64_t v = ext ? clip(s, t) - f.enter : 0;
  if (ext) {
    /* from the enter even when that is before lo (a window made of
     * summaries counts visits entered before the scan started) */
    pt__fold_ext(&r->vmin, &r->vmax, r->vset, v, v);
    r->vset = 1;
  }
  cs_rec *c = NULL;
  if (f.is_mpi && (incl || counted || ext || PT_UNLIKELY(s->track_iv))) {
    if (!(c = cs_row(s, L, f.region, f.callsite))) return PT_ENOMEM;
    c->calls += (uint64_t)counted;
    c->time += incl;
    if (ext) { /* the call's time, as the region's visit above */
      pt__fold_ext(&c->tmin, &c->tmax, c->tset, v, v);
      c->tset = 1;
    }
  }
  if (PT_UNLIKELY(s->track_iv)) {
    int rc = iv_visit(s, L->k[0], f.region, f.enter, t, c, f.callsite);
    if (rc < 0) return rc;
  }
  if (f.in_rel && (incl || counted)) {
    rel_rec *rr = pt__kt_get(&s->rel, K(PT_STATS_REL_REGION, f.region, 0, 0));
    if (!rr) return PT_ENOMEM;
    rr->time += incl;
  }
  if (f.region == s->opts.relative_to) {
    L->rel_depth--;
    s->rel_time += incl;
  }
  return PT_OK;
}

static void evcopy(pt__evcopy *c, const pt_event *ev) {
  c->time = ev->time;
  c->kind = ev->kind;
  c->ref = ev->ref;
  c->peer = ev->peer;
  c->comm = ev->comm;
  c->tag = ev->tag;
  c->size = ev->size;
  c->request = ev->request;
}

static uint32_t pend_new(pt_stats *s) {
  if (s->pend_free != NIL) {
    uint32_t i = s->pend_free;
    s->pend_free = s->pends[i].next;
    return i;
  }
  if (s->npends == s->pends_cap) {
    size_t nc = s->pends_cap ? s->pends_cap * 2 : 64;
    if (nc >= NIL) return NIL;
    pt__pend *q = realloc(s->pends, nc * sizeof *q);
    if (!q) return NIL;
    s->pends = q;
    s->pends_cap = nc;
  }
  return (uint32_t)s->npends++;
}

/* A blocking send whose call has not been left matched receive rcv and
 * counted rcv->enter - snd->enter as its late receiver: note it at the
 * send's frame (the top of its location's stack when the send is the
 * event being added, slot NIL; else the frame whose queued send was slot)
 * for pop to bound it by the leave.  PT_OK (no frame, not an MPI call's,
 * or too many notes: the bound stays, as at the end of the trace) or
 * PT_ENOMEM. */
enum { PT__LRFIX_MAX = 4096 };
static int lr_defer(pt_stats *s, const pt__pend *snd, uint32_t slot,
                    const pt__pend *rcv, const uint64_t mx[4]) {
  pt__loc *L = pt__kt_find(&s->locs, K(snd->src, 0, 0, 0));
  if (!L || !L->depth) return PT_OK;
  size_t d = L->depth;
  if (slot == NIL) {
    if (L->st[d - 1].enter != snd->enter) return PT_OK;
  } else {
    while (d && (L->st[d - 1].spend != slot || L->st[d - 1].enter != snd->enter))
      d--;
    if (!d) return PT_OK;
  }
  /* only in an MPI call's frame, which holds few sends and is left soon:
   * a send straight inside a long user region (PICL, OTF) keeps its bound
   * rather than a note per message until the region ends; and at most
   * PT__LRFIX_MAX notes per location */
  if (!L->st[d - 1].is_mpi || L->nfix >= PT__LRFIX_MAX) return PT_OK;
  if (PT_GROW(L->fix, L->capfix, L->nfix + 1, 4)) return PT_ENOMEM;
  pt__lrfix *x = &L->fix[L->nfix++];
  memcpy(x->mx, mx, sizeof x->mx);
  x->has_lt = (uint8_t)(s->track_late != 0);
  const uint64_t lt[4] = {rcv->src, snd->src, 0, 0};
  memcpy(x->lt, lt, sizeof x->lt);
  x->renter = rcv->enter;
  x->senter = snd->enter;
  x->depth = (uint32_t)(d - 1);
  return PT_OK;
}

/* A matched pair: late sender / receiver into the matrix (sslot: the
 * send's slot when it was queued, NIL when it is the event being added). */
static int matched(pt_stats *s, const uint64_t ck[4], const pt__pend *snd,
                   uint32_t sslot, const pt__pend *rcv) {
  if (!rcv->in_w) return PT_OK;
  int64_t key = s->opts.matrix_by == PT_STATS_BY_TAG    ? (int64_t)ck[3]
                : s->opts.matrix_by == PT_STATS_BY_COMM ? (int64_t)ck[2]
                                                        : 0;
  mx_rec *m = pt__kt_get(&s->mx, K(snd->loc, rcv->loc, (uint64_t)key, 0));
  if (!m) return PT_ENOMEM;
  uint64_t ls = rcv->blocking && snd->enter > rcv->wait
                    ? snd->enter - rcv->wait : 0;
  /* the sender waited from its call's enter until the receive was posted,
   * but not after its call returned (an eager send returns at once) */
  uint64_t posted = snd->left && snd->leave < rcv->enter ? snd->leave
                                                         : rcv->enter;
  uint64_t lr = snd->blocking && posted > snd->enter ? posted - snd->enter : 0;
  m->matched++;
  m->ls += ls;
  m->lr += lr;
  if (PT_UNLIKELY(s->track_late)) {
    pt__late *x = pt__kt_get(&s->lt, K(rcv->src, snd->src, 0, 0));
    if (!x) return PT_ENOMEM;
    x->matched++;
    x->ls += ls;
    x->lr += lr;
  }
  if (lr && !snd->left)
    return lr_defer(s, snd, sslot, rcv,
                    K(snd->loc, rcv->loc, (uint64_t)key, 0));
  return PT_OK;
}

/* Whether a receive from rank `sender` can still be matched by a send of
 * a selected location (with track_late: a window from summaries reads on
 * until its receives are matched). */
static int recv_waits(pt_stats *s, uint64_t sender) {
  if (!pt__stats_rank_exists(s, sender)) return 0;
  if (!s->sel) return 1;
  if (!s->selranks_built) {
    for (size_t i = 0; i < s->opts.nlocations; i++)
      if (!pt__kt_get(&s->selranks, K(pt__stats_rank_of(s, s->sel[i]), 0, 0, 0)))
        return 1; /* out of memory: wait, as without a selection */
    s->selranks_built = 1;
  }
  return pt__kt_find(&s->selranks, K(sender, 0, 0, 0)) != NULL;
}

/* The channel at ck's slot (NULL: none). */
static chan_rec *chan_at(pt__ktab *ct, const uint64_t ck[4], size_t *slot) {
  *slot = ct->cap ? kslot(ct, ck) : 0;
  return ct->cap && ct->slot[*slot]
             ? (chan_rec *)(void *)(ct->rec +
                                    (size_t)(ct->slot[*slot] - 1) * ct->rsize)
             : NULL;
}

/* The heaps of the send channels that hold sends (tag >= 0), for the
 * receives that may take any of them (oheap.h): sendtags, per (receiver,
 * comm, sender), for MPI_ANY_TAG; sendsrcs, per (receiver, comm) and per
 * (receiver, comm, tag), for MPI_ANY_SOURCE.  Each is kept from the first
 * receive that needs it on (a trace without such receives pays nothing).
 * A channel's entry is its oldest send: by time, then location, then tag
 * (then sender), so that every path picks alike; its serial is the
 * send's ord. */
static int send_valid(void *user, const pt__oheap *h, const pt__oh_ent *e) {
  pt_stats *s = user;
  size_t slot;
  const chan_rec *c =
      chan_at(&s->chans, K(e->ch[0], h->k[0], h->k[1], e->ch[1]), &slot);
  if (!c || !c->live || c->recvs || c->head == NIL) return 0;
  const pt__pend *p = &s->pends[c->head];
  return p->ord == e->serial && p->ev.time == e->key[0] && p->src == e->key[1];
}

/* Heap i (0 sendtags, 1 and 2 sendsrcs) of send channel c (created;
 * NULL: out of memory), its record's index cached in c. */
static pt__oheap *chan_heap(pt_stats *s, chan_rec *c, int i) {
  pt__ktab *t = i ? &s->sendsrcs : &s->sendtags;
  if (c->hx[i]) return pt__kt_at(t, c->hx[i] - 1);
  pt__oheap *h = pt__kt_get(
      t, i == 0   ? K(c->k[1], c->k[2], c->k[0], 0)
         : i == 1 ? K(c->k[1], c->k[2], 0, 0)
                  : K(c->k[1], c->k[2], c->k[3], 1));
  if (h) c->hx[i] = (uint32_t)(((char *)h - t->rec) / t->rsize) + 1;
  return h;
}

/* Push channel c's current entry (is_new: it begins to hold sends) into
 * the heaps of mask (bit i: heap i of chan_heap). */
static int idx_push(pt_stats *s, chan_rec *c, int is_new, unsigned mask) {
  const pt__pend *p = &s->pends[c->head];
  const pt__oh_ent e = {{p->ev.time, p->src, c->k[3], c->k[0]},
                        {c->k[0], c->k[3]},
                        p->ord};
  int rc = PT_OK;
  for (int i = 0; i < 3 && rc == PT_OK; i++)
    if (mask & (1u << i))
      rc = pt__oh_push(chan_heap(s, c, i), &e, is_new, send_valid, s);
  return rc;
}

/* Whether channel c is in the heaps: it holds sends, of a tag >= 0. */
static int indexed(const chan_rec *c) {
  return c->live && !c->recvs && c->head != NIL && (int64_t)c->k[3] >= 0;
}

/* Start keeping heap i (of chan_heap): every channel holding sends now
 * goes in.  Each kind is kept from the first receive that needs it. */
static int idx_start(pt_stats *s, int i) {
  if (s->idx & (1u << i)) return PT_OK;
  for (size_t j = 0; j < s->chans.n; j++) {
    chan_rec *c = pt__kt_at(&s->chans, j);
    if (!indexed(c)) continue;
    int rc = idx_push(s, c, 1, 1u << i);
    if (rc < 0) return rc;
  }
  s->idx |= 1u << i;
  return PT_OK;
}

/* Channel c (tag >= 0) begins to hold sends (is_new), or its oldest send
 * changed. */
static int send_chan_new(pt_stats *s, chan_rec *c, int is_new) {
  return s->idx ? idx_push(s, c, is_new, s->idx) : PT_OK;
}

/* Send channel c is deleted (empty): its entries are stale. */
static void send_chan_gone(pt_stats *s, chan_rec *c) {
  if ((int64_t)c->k[3] < 0) return;
  for (int i = 0; i < 3; i++)
    if (s->idx & (1u << i)) pt__oh_gone(chan_heap(s, c, i));
}

/* The channel key of the oldest send of heap h (NULL: none) into mk; 0
 * when there is none. */
static int heap_oldest(pt_stats *s, pt__oheap *h, uint64_t mk[4]) {
  const pt__oh_ent *e = pt__oh_top(h, send_valid, s);
  if (!e) return 0;
  mk[0] = e->ch[0];
  mk[1] = h->k[0];
  mk[2] = h->k[1];
  mk[3] = e->ch[1];
  return 1;
}

/* A receive with MPI_ANY_TAG and no recorded status (tag -1: a DUMPI
 * trace's MPI_Recv with MPI_STATUS_IGNORE) takes the oldest waiting send
 * from its sender on its communicator, whatever the tag, as MPI matches
 * it (and as paratrace check does); one that finds none waits on the
 * channel of tag -1, where the next such send finds it when its own
 * channel has no receive waiting.  The key of that send's channel into
 * mk; 0 when there is none (or out of memory: *rc). */
static int any_tag_send(pt_stats *s, const uint64_t ck[4], uint64_t mk[4],
                        int *rc) {
  if ((*rc = idx_start(s, 0)) < 0) return 0;
  return heap_oldest(s, pt__kt_find(&s->sendtags, K(ck[1], ck[2], ck[0], 0)),
                     mk);
}

/* A receive from MPI_ANY_SOURCE without a recorded status (peer -1: a
 * DUMPI trace's MPI_Recv(MPI_ANY_SOURCE, ..., MPI_STATUS_IGNORE), a
 * master collecting results) takes the oldest waiting send to its rank on
 * its communicator with its tag (any tag for tag -1), whoever sent it:
 * the trace does not say which message MPI gave it, and the first sent is
 * the one a receive posted after them all would get.  One that finds none
 * waits on the channel (ANY_SRC, receiver, comm, tag), where the next
 * such send finds it when its own channel has no receive waiting.  The
 * key of that send's channel into mk; 0 when there is none (or out of
 * memory: *rc). */
static int any_source_send(pt_stats *s, const uint64_t ck[4], uint64_t mk[4],
                           int *rc) {
  /* with a tag, the heap of its senders; else that of every channel */
  const int any = (int64_t)ck[3] < 0;
  if ((*rc = idx_start(s, any ? 1 : 2)) < 0) return 0;
  return heap_oldest(
      s,
      pt__kt_find(&s->sendsrcs,
                  any ? K(ck[1], ck[2], 0, 0) : K(ck[1], ck[2], ck[3], 1)),
      mk);
}

/* The oldest receive waiting on one of the wildcard channels a send of
 * channel ck can match (MPI_ANY_TAG from its sender, MPI_ANY_SOURCE with
 * its tag or any tag): the one posted first; its channel and slot. */
static chan_rec *wild_recv(pt_stats *s, const uint64_t ck[4], size_t *slot) {
  const uint64_t wk[3][4] = {{ck[0], ck[1], ck[2], UINT64_MAX},
                             {ANY_SRC, ck[1], ck[2], ck[3]},
                             {ANY_SRC, ck[1], ck[2], UINT64_MAX}};
  chan_rec *best = NULL;
  int n = s->nwild_src ? 3 : 1;
  for (int i = 0; i < n; i++) {
    size_t ws;
    chan_rec *w = chan_at(&s->chans, wk[i], &ws);
    if (!w || w->head == NIL || !w->recvs) continue;
    const pt__pend *a = &s->pends[w->head];
    const pt__pend *b = best ? &s->pends[best->head] : NULL;
    if (!b || a->enter < b->enter ||
        (a->enter == b->enter && a->ev.time < b->ev.time))
      best = w, *slot = ws;
  }
  return best;
}

/* Add a send (is_recv 0) or receive to channel ck: match it against the
 * oldest waiting partner or queue it. */
static int chan_add_q(pt_stats *s, const uint64_t ck[4], const pt__pend *p,
                      int is_recv, uint32_t *queued) {
  if (queued) *queued = NIL;
  pt__ktab *ct = &s->chans;
  size_t slot;
  chan_rec *c = chan_at(ct, ck, &slot);
  const uint64_t *mk = ck; /* the matched pair's channel */
  uint64_t ak[4];
  int rc = PT_OK;
  /* (a wildcard receive whose channel holds receives already finds no
   * send: a send that one of them could take would have taken it) */
  if (is_recv && (!c || c->head == NIL) &&
      (ck[0] == ANY_SRC ? any_source_send(s, ck, ak, &rc)
                        : (int64_t)ck[3] < 0 && any_tag_send(s, ck, ak, &rc))) {
    c = chan_at(ct, ak, &slot);
    mk = ak;
  } else if (rc < 0) {
    return rc;
  } else if (!is_recv && (!c || c->head == NIL || !c->recvs)) {
    size_t ws;
    chan_rec *w = wild_recv(s, ck, &ws);
    if (w) c = w, slot = ws;
  }
  if (c && c->head != NIL && c->recvs != is_recv) {
    uint32_t i = c->head;
    pt__pend other = s->pends[i];
    if (other.waits) s->rq_wait--;
    if (c->k[0] == ANY_SRC) s->nwild_src--;
    c->head = other.next;
    if (c->head == NIL) {
      if (!c->recvs) send_chan_gone(s, c);
      kt_del_slot(ct, slot);
    } else if (!c->recvs && (int64_t)c->k[3] >= 0) {
      /* its oldest send changed */
      if ((rc = send_chan_new(s, c, 0)) < 0) return rc;
    }
    s->pends[i].used = 0;
    s->pends[i].next = s->pend_free;
    s->pend_free = i;
    return is_recv ? matched(s, mk, &other, i, p)
                   : matched(s, mk, p, NIL, &other);
  }
  uint32_t i = pend_new(s);
  if (i == NIL) return PT_ENOMEM;
  c = pt__kt_get(&s->chans, ck);
  if (!c) return PT_ENOMEM;
  s->pends[i] = *p;
  s->pends[i].used = 1;
  s->pends[i].next = NIL;
  s->pends[i].waits = 0;
  if (is_recv && s->track_late && p->in_w &&
      (ck[0] == ANY_SRC ? 1 : recv_waits(s, ck[0]))) {
    s->pends[i].waits = 1;
    s->rq_wait++;
  }
  if (!c->live) {
    c->live = 1;
    c->head = c->tail = i;
    c->recvs = is_recv;
    if (!is_recv && (int64_t)ck[3] >= 0 && send_chan_new(s, c, 1) < 0) {
      c->live = 0;
      pt__kt_del(&s->chans, ck); /* (not live: no queue to keep) */
      return PT_ENOMEM;
    }
  } else {
    s->pends[c->tail].next = i;
    c->tail = i;
  }
  c->recvs = is_recv;
  if (is_recv && ck[0] == ANY_SRC) s->nwild_src++;
  if (queued) *queued = i;
  return PT_OK;
}

static int chan_add(pt_stats *s, const uint64_t ck[4], const pt__pend *p,
                    int is_recv) {
  return chan_add_q(s, ck, p, is_recv, NULL);
}

/* ---- a part's deferred messages (pt_stats_opts.part) ----------------------
 * A part holds some processes' streams.  Until a receive from any source
 * (peer -1) comes, the messages to a receiver on a communicator match
 * each sender's alone, so a part matches those it holds as one object
 * fed every event would, and the merge the others (in time order).  Such
 * a receive takes the oldest send of any sender, which may be in another
 * part: from the first on, the group's messages wait in dmsgs (and in the
 * merges), and pt_stats_complete matches them once every part is in. */

/* Whether (time, location, ord) a comes before b: the order a single scan
 * meets messages in (ord among one location's, fed in order). */
static int msg_before(uint64_t ta, uint64_t la, uint64_t oa, uint64_t tb,
                      uint64_t lb, uint64_t ob) {
  if (ta != tb) return ta < tb;
  if (la != lb) return la < lb;
  return oa < ob;
}

/* Receive p from any source of channel ck: the group's first? */
static int defer_point(pt_stats *s, const uint64_t ck[4], const pt__pend *p) {
  pt__defer *d = pt__kt_find(&s->defers, K(ck[1], ck[2], 0, 0));
  if (d && !msg_before(p->ev.time, p->src, p->ord, d->time, d->src, d->ord))
    return PT_OK;
  if (!d && !(d = pt__kt_get(&s->defers, K(ck[1], ck[2], 0, 0))))
    return PT_ENOMEM;
  d->time = p->ev.time;
  d->src = p->src;
  d->ord = p->ord;
  return PT_OK;
}

/* Whether message p of channel ck waits for pt_stats_complete. */
static int deferred(const pt_stats *s, const uint64_t ck[4],
                    const pt__pend *p) {
  const pt__defer *d = pt__kt_find(&s->defers, K(ck[1], ck[2], 0, 0));
  return d && !msg_before(p->ev.time, p->src, p->ord, d->time, d->src, d->ord);
}

/* Defer message p of channel ck (its pend's index into *at). */
static int defer_add(pt_stats *s, const uint64_t ck[4], const pt__pend *p,
                     int is_recv, uint32_t *at) {
  if (s->ndmsgs == s->dmsgs_cap) {
    size_t nc = s->dmsgs_cap ? s->dmsgs_cap * 2 : 16;
    pt__dmsg *q = realloc(s->dmsgs, nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    s->dmsgs = q;
    s->dmsgs_cap = nc;
  }
  uint32_t i = pend_new(s);
  if (i == NIL) return PT_ENOMEM;
  s->pends[i] = *p;
  s->pends[i].used = 1;
  s->pends[i].next = NIL;
  s->pends[i].waits = 0;
  pt__dmsg *m = &s->dmsgs[s->ndmsgs++];
  memcpy(m->k, ck, sizeof m->k);
  m->pi = i;
  m->recv = (uint8_t)(is_recv != 0);
  if (at) *at = i;
  return PT_OK;
}

static int message(pt_stats *s, pt__loc *L, const pt_event *ev) {
  uint64_t loc = L->k[0];
  int w = in_w(s, ev->time);
  int is_send = ev->kind == PT_EV_SEND || ev->kind == PT_EV_ISEND;
  if (!L->has_rank) {
    L->rank = pt__stats_rank_of(s, loc);
    L->proc_loc = pt__stats_proc_loc(s, loc);
    L->has_rank = 1;
    /* a process's locations share its channels: which one's message
     * comes first depends on the order they were fed in */
    if (L->proc_loc != loc) s->order_dep = 1;
  }
  /* the matrix is between processes (each named by its first location):
   * a thread's send is its process's, as is the receive that matches it */
  uint64_t me_loc = L->proc_loc;
  if (w) {
    /* the (location, peer) counters and the peer's location, cached per
     * peer (rows of pm are never deleted) */
    uint64_t pk = (uint64_t)ev->peer;
    size_t ci = (size_t)(pk ^ (pk >> 5)) & (PT__MSGCACHE - 1);
    pt__pm *p;
    uint64_t ploc;
    if (L->mc_peer[ci] == pk + 1 && pk != UINT64_MAX) { /* 0 = empty */
      p = pt__kt_at(&s->pm, L->mc_pm[ci]);
      ploc = L->mc_ploc[ci];
    } else {
      p = pt__kt_get(&s->pm, K(loc, pk, 0, 0));
      if (!p) return PT_ENOMEM;
      ploc = pt__stats_peer_loc(s, ev->peer);
      L->mc_peer[ci] = pk + 1;
      L->mc_pm[ci] = (uint32_t)(((char *)p - s->pm.rec) / s->pm.rsize);
      L->mc_ploc[ci] = ploc;
    }
    if (is_send) {
      p->sent++;
      p->bsent += ev->size;
      int64_t key = s->opts.matrix_by == PT_STATS_BY_TAG    ? ev->tag
                    : s->opts.matrix_by == PT_STATS_BY_COMM ? (int64_t)ev->comm
                                                            : 0;
      mx_rec *m = pt__kt_get(&s->mx, K(me_loc, ploc, (uint64_t)key, 0));
      if (!m) return PT_ENOMEM;
      m->count++;
      m->bytes += ev->size;
    } else {
      p->recv++;
      p->brecv += ev->size;
    }
  }
  /* (a receive's tag -1: MPI_ANY_TAG without a status, see
   * any_tag_send; its peer -1: MPI_ANY_SOURCE, see any_source_send) */
  if ((ev->peer < 0 && (is_send || ev->peer != -1)) ||
      (ev->tag < 0 && (is_send || ev->tag != -1)))
    return PT_OK;
  /* a wildcard receive takes the oldest send waiting when it is fed */
  if (ev->peer < 0 || ev->tag < 0) s->order_dep = 1;
  uint64_t me = L->rank, peer = ev->peer < 0 ? ANY_SRC : (uint64_t)ev->peer;
  uint64_t ck[4] = {is_send ? me : peer, is_send ? peer : me, ev->comm,
                    (uint64_t)ev->tag};
  pt__pend p;
  memset(&p, 0, sizeof p);
  p.loc = me_loc;
  p.src = loc;
  p.enter = L->depth ? L->st[L->depth - 1].enter : ev->time;
  p.wait = p.enter;
  /* a completed receive request waited in the call completing it (Wait,
   * Waitall, ...); it was posted by its MPI_Irecv */
  p.blocking = ev->kind == PT_EV_SEND || ev->kind == PT_EV_RECV ||
               ev->kind == PT_EV_IRECV;
  if (ev->kind == PT_EV_IRECV) {
    const pt__req *q = pt__kt_find(&s->reqs, K(ev->location, ev->request, 0, 0));
    if (q && q->ev.kind == PT_EV_IRECV_REQUEST && q->post <= p.wait)
      p.enter = q->post;
  }
  p.in_w = (uint8_t)w;
  p.ord = s->nord++;
  evcopy(&p.ev, ev);
  uint32_t qi;
  int rc;
  if (PT_UNLIKELY(s->part) && !s->part_overflow &&
      (s->defers.n || ck[0] == ANY_SRC)) {
    /* a part: a receive from any source waits for every sender's sends,
     * and so does what its receiver and communicator do after it (at
     * most opts.part_max_deferred messages: past them the part says its
     * results are not one scan's, and keeps its memory) */
    uint64_t max = s->opts.part_max_deferred ? s->opts.part_max_deferred
                                             : (uint64_t)1 << 20;
    if (s->ndmsgs >= max) {
      s->part_overflow = 1;
      return chan_add(s, ck, &p, !is_send);
    }
    if (!is_send && ck[0] == ANY_SRC &&
        (rc = defer_point(s, ck, &p)) < 0)
      return rc;
    if (deferred(s, ck, &p)) {
      if ((rc = defer_add(s, ck, &p, !is_send, &qi)) < 0) return rc;
      if (ev->kind == PT_EV_SEND && L->depth) L->st[L->depth - 1].spend = qi;
      return PT_OK;
    }
  }
  if (ev->kind != PT_EV_SEND || !L->depth) return chan_add(s, ck, &p, !is_send);
  /* a blocking send left queued: its call's leave bounds its late receiver */
  rc = chan_add_q(s, ck, &p, 0, &qi);
  if (rc == PT_OK && qi != NIL) L->st[L->depth - 1].spend = qi;
  return rc;
}

/* A one-sided operation (RMA_* event) in the window, at its origin L:
 * its (location, target, 1) totals and the matrix, where the bytes it
 * sent go from the origin's process to the target's and those it received
 * from the target's to the origin's.  No matching: the target has no
 * event. */
static int one_sided(pt_stats *s, pt__loc *L, const pt_event *ev) {
  if (!L->has_rank) {
    L->rank = pt__stats_rank_of(s, L->k[0]);
    L->proc_loc = pt__stats_proc_loc(s, L->k[0]);
    L->has_rank = 1;
  }
  pt__pm *p = pt__kt_get(&s->pm, K(L->k[0], (uint64_t)ev->peer, 1, 0));
  if (!p) return PT_ENOMEM;
  uint64_t me = L->proc_loc, them = pt__stats_peer_loc(s, ev->peer);
  /* --by tag: one-sided operations have none (-1) */
  int64_t key = s->opts.matrix_by == PT_STATS_BY_TAG    ? -1
                : s->opts.matrix_by == PT_STATS_BY_COMM ? (int64_t)ev->comm
                                                        : 0;
  if (ev->size) {
    p->sent++;
    p->bsent += ev->size;
    mx_rec *m = pt__kt_get(&s->mx, K(me, them, (uint64_t)key, 0));
    if (!m) return PT_ENOMEM;
    m->count++;
    m->bytes += ev->size;
  }
  if (ev->size2) {
    p = pt__kt_get(&s->pm, K(L->k[0], (uint64_t)ev->peer, 1, 0));
    if (!p) return PT_ENOMEM;
    p->recv++;
    p->brecv += ev->size2;
    mx_rec *m = pt__kt_get(&s->mx, K(them, me, (uint64_t)key, 0));
    if (!m) return PT_ENOMEM;
    m->count++;
    m->bytes += ev->size2;
  }
  return PT_OK;
}

/* An enter of `region` at t on L (location loc); w: t is in the window. */
static inline int ev_enter(pt_stats *s, pt__loc *L, uint64_t loc,
                           uint64_t region, uint64_t t, int w) {
  int inside = L->rel_depth > 0 && region != s->opts.relative_to;
  int rc = push_L(s, L, loc, region, t);
  if (rc < 0) return rc;
  pt__rl *r = pt__kt_at(&s->rl, L->st[L->depth - 1].row);
  if (r->special == PT__FINALIZE && !L->has_fin) {
    L->has_fin = 1;
    L->fin_start = t;
  }
  if (w) {
    r->count++;
    if (inside) {
      rel_rec *c = pt__kt_get(&s->rel, K(PT_STATS_REL_REGION, region, 0, 0));
      if (!c) return PT_ENOMEM;
      c->count++;
    }
    if (region == s->opts.relative_to) s->rel_count++;
  }
  return PT_OK;
}

/* A leave of `region` at t on L.  pop touches the row, call-site and
 * relative tables, never the locations: L stays valid. */
static inline int ev_leave(pt_stats *s, pt__loc *L, uint64_t region,
                           uint64_t t) {
  size_t d = L->depth;
  if (PT_LIKELY(d && L->st[d - 1].region == region)) return pop(s, L, t);
  while (d && L->st[d - 1].region != region) d--;
  if (!d) return PT_OK; /* no such open region: ignored */
  while (L->depth >= d) {
    int rc = pop(s, L, t);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

int pt_stats_event(pt_stats *s, const pt_event *ev) {
  assert(s && ev);
  if (s->finished) return PT_ESTATE;
  if (!s->frozen) {
    int rc = pt__stats_freeze(s);
    if (rc < 0) return rc;
  }
  if (!s->any_event || ev->time > s->last_time) s->last_time = ev->time;
  s->any_event = 1;
  if (s->sel && !pt__stats_selected(s, ev->location)) return PT_OK;
  pt__loc *L = loc_of(s, ev->location);
  if (!L) return PT_ENOMEM;
  uint64_t t = ev->time;
  int w = in_w(s, t);
  if (w) s->events++;
  int rc = PT_OK;
  switch (ev->kind) {
    case PT_EV_ENTER: {
      if (PT_UNLIKELY(s->met_acc) &&
          (rc = pt__stats_metric_region(s, ev->location, 1, ev->ref, t, w)) < 0)
        return rc;
      rc = ev_enter(s, L, ev->location, ev->ref, t, w);
      /* an MPI call recorded with its call site (attribute "callsite") */
      if (rc >= 0 && ev->nattrs && s->cs_attr && L->depth &&
          L->st[L->depth - 1].is_mpi)
        L->st[L->depth - 1].callsite = pt__stats_enter_callsite(s, ev);
      /* ... or with its text (an OTF2 archive paratrace wrote) */
      if (rc >= 0 && ev->nattrs && s->cs_str_attr && L->depth &&
          L->st[L->depth - 1].is_mpi &&
          L->st[L->depth - 1].callsite == PT_NONE)
        L->st[L->depth - 1].callsite = enter_callsite_text(s, ev, &rc);
      return rc;
    }
    case PT_EV_LEAVE:
      if (PT_UNLIKELY(s->met_acc) &&
          (rc = pt__stats_metric_region(s, ev->location, 0, ev->ref, t, w)) < 0)
        return rc;
      return ev_leave(s, L, ev->ref, t);
    case PT_EV_METRIC:
      if ((rc = pt__stats_metric_event(s, ev, w)) < 0) return rc;
      break;
    default: break;
  }
  int msg = ev->kind == PT_EV_SEND || ev->kind == PT_EV_ISEND ||
            ev->kind == PT_EV_RECV || ev->kind == PT_EV_IRECV;
  int rma = ev->kind == PT_EV_RMA_PUT || ev->kind == PT_EV_RMA_GET ||
            ev->kind == PT_EV_RMA_ATOMIC;
  /* both parts of a collective or one-sided operation */
  int two = ev->kind == PT_EV_COLL_END || rma;
  uint64_t bytes = two                        ? ev->size + ev->size2
                   : msg                      ? ev->size
                   : ev->kind == PT_EV_IO_END ? ev->size
                                              : 0;
  if (w && L->rel_depth > 0) {
    rel_rec *c = pt__kt_get(&s->rel, K(PT_STATS_REL_EVENT, ev->kind, 0, 0));
    if (!c) return PT_ENOMEM;
    c->count++;
    c->bytes += bytes;
  }
  if (msg || two) {
    if (L->depth && L->st[L->depth - 1].is_mpi) {
      pt__frame *f = &L->st[L->depth - 1];
      /* the call's site is the first one known (its enter's, else its
       * first message's): a window resumed from a snapshot must file the
       * call where a full scan does */
      if (msg && f->callsite == PT_NONE &&
          pt__kt_find(&s->callsites, K(ev->ref, 0, 0, 0))) {
        f->callsite = ev->ref;
        if (PT_UNLIKELY(f->from_state) && f->enter < s->lo) {
          /* the summaries at lo counted the call, open, under no site:
           * a full scan files it whole under the site it learns now */
          uint64_t dt = s->lo - f->enter;
          cs_rec *c = cs_row(s, L, f->region, PT_NONE);
          if (!c) return PT_ENOMEM;
          c->calls--;
          c->time -= dt;
          if (!(c = cs_row(s, L, f->region, ev->ref))) return PT_ENOMEM;
          c->calls++;
          c->time += dt;
        }
      }
      if (w) {
        /* mpiP's message sizes are what the call sent: the send of a
         * Sendrecv, the sent part of a collective; receives apart */
        cs_rec *c = cs_row(s, L, f->region, f->callsite);
        if (!c) return PT_ENOMEM;
        /* a collective counts as a message sent when it sent bytes and
         * as one received when it received some: a barrier is neither,
         * a broadcast's root sends, the other ranks receive; so does a
         * one-sided operation at its origin (a put sends, a get receives,
         * a fetching atomic both) */
        int coll = two;
        int sent = coll ? ev->size > 0
                        : ev->kind == PT_EV_SEND || ev->kind == PT_EV_ISEND;
        if (sent) {
          uint64_t sb = ev->size;
          if (t >= s->mm_lo) pt__fold_ext(&c->bmin, &c->bmax, c->nb++ != 0, sb, sb);
          if (PT_UNLIKELY(s->track_iv))
            pt__fold_ext(&c->ibmin, &c->ibmax, c->inb++ != 0, sb, sb);
          c->msgs++;
          c->bytes += sb;
        }
        if (coll ? ev->size2 > 0 : !sent) {
          c->rmsgs++;
          c->rbytes += coll ? ev->size2 : ev->size;
        }
      }
    }
  }
  if (ev->kind == PT_EV_COLL_END && s->coll &&
      (rc = pt__stats_coll_event(s, L, ev, w)) < 0)
    return rc;
  if (msg) {
    L = pt__stats_loc(s, ev->location);
    if ((rc = message(s, L, ev)) < 0) return rc;
  }
  if (rma && w) {
    L = pt__stats_loc(s, ev->location);
    if ((rc = one_sided(s, L, ev)) < 0) return rc;
  }
  if (ev->kind == PT_EV_IO_BEGIN || ev->kind == PT_EV_IO_END)
    return pt__stats_io_event(s, L, ev, w);
  /* open requests, for snapshots */
  uint64_t rk[4] = {ev->location, ev->request, 0, 0};
  switch (ev->kind) {
    case PT_EV_ISEND:
    case PT_EV_IRECV_REQUEST: {
      pt__req *q = pt__kt_get(&s->reqs, rk);
      if (!q) return PT_ENOMEM;
      evcopy(&q->ev, ev);
      q->post = L->depth ? L->st[L->depth - 1].enter : ev->time;
      break;
    }
    case PT_EV_ISEND_COMPLETE:
    case PT_EV_IRECV:
    case PT_EV_REQUEST_CANCELLED: pt__kt_del(&s->reqs, rk); break;
    default: break;
  }
  return PT_OK;
}

int pt_stats_run(pt_stats *s, const pt_event_run *run) {
  assert(s && run && run->n);
  if (run->event) return pt_stats_event(s, run->event);
  if (s->finished) return PT_ESTATE;
  if (!s->frozen) {
    int rc = pt__stats_freeze(s);
    if (rc < 0) return rc;
  }
  const size_t n = run->n;
  const uint64_t loc = run->location, *tm = run->time, *ref = run->ref;
  const uint8_t *kind = run->kind;
  /* times are non-decreasing within a run */
  if (!s->any_event || tm[n - 1] > s->last_time) s->last_time = tm[n - 1];
  s->any_event = 1;
  if (s->sel && !pt__stats_selected(s, loc)) return PT_OK;
  pt__loc *L = loc_of(s, loc);
  if (!L) return PT_ENOMEM;
  const uint64_t lo = s->lo, hi = s->hi;
  uint64_t nw = 0; /* enters and leaves inside the window */
  for (size_t i = 0; i < n; i++) {
    uint64_t t = tm[i];
    int w = t >= lo && t < hi;
    int rc;
    if (PT_LIKELY(kind[i] == PT_EV_LEAVE)) {
      nw += (uint64_t)w;
      rc = PT_UNLIKELY(s->met_acc)
               ? pt__stats_metric_region(s, loc, 0, ref[i], t, w)
               : PT_OK;
      if (PT_LIKELY(rc >= 0)) rc = ev_leave(s, L, ref[i], t);
    } else if (PT_LIKELY(kind[i] == PT_EV_ENTER)) {
      nw += (uint64_t)w;
      rc = PT_UNLIKELY(s->met_acc)
               ? pt__stats_metric_region(s, loc, 1, ref[i], t, w)
               : PT_OK;
      if (PT_LIKELY(rc >= 0)) rc = ev_enter(s, L, loc, ref[i], t, w);
    } else {
      pt_event ev;
      memset(&ev, 0, sizeof ev);
      ev.time = t;
      ev.location = loc;
      ev.kind = kind[i];
      ev.ref = ref[i];
      rc = pt_stats_event(s, &ev);
      L = loc_of(s, loc); /* the location table may have grown */
      if (!L) return PT_ENOMEM;
    }
    if (PT_UNLIKELY(rc < 0)) {
      s->events += nw;
      return rc;
    }
  }
  s->events += nw;
  return PT_OK;
}

int pt_stats_finish(pt_stats *s) {
  assert(s);
  if (s->finished) return PT_OK;
  int rc = pt__stats_freeze(s);
  if (rc < 0) return rc;
  s->end_eff = s->opts.end ? s->opts.end : s->last_time;
  for (size_t i = 0; i < s->locs.n; i++) {
    pt__loc *L = pt__kt_at(&s->locs, i);
    while (L->depth) {
      if ((rc = pop(s, L, s->end_eff)) < 0) return rc;
      L = pt__kt_at(&s->locs, i);
    }
  }
  if ((rc = pt__stats_io_finish(s)) < 0) return rc;
  if ((rc = pt__stats_coll_finish(s)) < 0) return rc;
  s->finished = 1;
  return PT_OK;
}

/* ---- partial (cumulative) state, for summaries --------------------------- */

int pt__stats_partial(pt_stats *s, uint64_t loc, uint64_t t, pt__rl_fn fn,
                      void *user, uint64_t *depth) {
  pt__loc *L = pt__kt_find(&s->locs, K(loc, 0, 0, 0));
  size_t d = L ? L->depth : 0;
  *depth = d;
  /* open frames' partial incl/excl, innermost first */
  uint64_t *pin = NULL, *pex = NULL;
  if (d) {
    pin = calloc(d, sizeof *pin);
    pex = calloc(d, sizeof *pex);
    if (!pin || !pex) {
      free(pin);
      free(pex);
      return PT_ENOMEM;
    }
    for (size_t i = d; i-- > 0;) {
      pin[i] = clip(s, t) - clip(s, L->st[i].enter);
      pex[i] = pin[i] - L->st[i].child - (i + 1 < d ? pin[i + 1] : 0);
    }
  }
  int rc = PT_OK;
  for (size_t r = 0; r < s->rl.n && rc == PT_OK; r++) {
    pt__rl *x = pt__kt_at(&s->rl, r);
    if (x->k[0] != loc) continue;
    uint64_t in = x->incl, ex = x->excl;
    for (size_t i = 0; i < d; i++)
      if (L->st[i].region == x->k[1]) {
        in += pin[i];
        ex += pex[i];
      }
    rc = fn(user, x->k[1], x->count, in, ex);
  }
  /* open regions without a row yet (entered before the window) */
  for (size_t i = 0; i < d && rc == PT_OK; i++) {
    if (pt__kt_find(&s->rl, K(loc, L->st[i].region, 0, 0))) continue;
    int first = 1;
    for (size_t j = 0; j < i; j++)
      if (L->st[j].region == L->st[i].region) first = 0;
    if (!first) continue;
    uint64_t in = 0, ex = 0;
    for (size_t j = i; j < d; j++)
      if (L->st[j].region == L->st[i].region) {
        in += pin[j];
        ex += pex[j];
      }
    rc = fn(user, L->st[i].region, 0, in, ex);
  }
  free(pin);
  free(pex);
  return rc;
}

int pt__stats_add_summary(pt_stats *s, const pt_summary *m, int sign) {
  uint64_t sg = sign < 0 ? UINT64_MAX : 1; /* wrapping multiply */
  if (!pt__stats_selected(s, m->location)) return PT_OK;
  if (!pt__stats_loc(s, m->location)) return PT_ENOMEM;
  if (m->kind == PT_SUM_REGION && m->ref != PT_NONE) {
    pt__rl *r = pt__kt_get(&s->rl, K(m->location, m->ref, 0, 0));
    if (!r) return PT_ENOMEM;
    r->count += sg * m->count;
    r->incl += sg * m->incl_time;
    r->excl += sg * m->excl_time;
  } else if (m->kind == PT_SUM_CALLSITE) {
    cs_rec *c = pt__kt_get(&s->cs, K(m->excl_time, m->ref, m->location + 1, 0));
    if (!c) return PT_ENOMEM;
    c->calls += sg * m->count;
    c->time += sg * m->incl_time;
    c->bytes += sg * m->bytes_sent;
    c->rbytes += sg * m->bytes_recv;
  } else if (m->kind == PT_SUM_CALLSITE_MSGS) {
    cs_rec *c = pt__kt_get(&s->cs, K(m->excl_time, m->ref, m->location + 1, 0));
    if (!c) return PT_ENOMEM;
    c->msgs += sg * m->count;
    c->rmsgs += sg * m->incl_time;
  } else if ((m->kind == PT_SUM_MESSAGES || m->kind == PT_SUM_RMA) &&
             m->ref != PT_NONE) {
    /* PT_SUM_PEER_UNKNOWN: messages to / from a peer < 0 */
    uint64_t peer = m->ref == PT_SUM_PEER_UNKNOWN ? PT_NONE : m->ref;
    pt__pm *p = pt__kt_get(&s->pm, K(m->location, peer,
                                     m->kind == PT_SUM_RMA, 0));
    if (!p) return PT_ENOMEM;
    p->sent += sg * m->count;
    p->recv += sg * m->excl_time;
    p->bsent += sg * m->bytes_sent;
    p->brecv += sg * m->bytes_recv;
  } else if (m->kind == PT_SUM_LATE && pt__stats_selected(s, m->ref)) {
    /* a pair a scan of the selected locations matches */
    pt__late *l = pt__kt_get(&s->lt, K(m->location, m->ref, 0, 0));
    if (!l) return PT_ENOMEM;
    l->matched += sg * m->count;
    l->ls += sg * m->incl_time;
    l->lr += sg * m->excl_time;
  }
  return PT_OK;
}

int pt__stats_add_rows(pt_stats *d, const pt_stats *s, int sign) {
  uint64_t sg = sign < 0 ? UINT64_MAX : 1;
  for (size_t i = 0; i < s->locs.n; i++)
    if (!pt__stats_loc(d, ((pt__loc *)pt__kt_at(&s->locs, i))->k[0]))
      return PT_ENOMEM;
  for (size_t i = 0; i < s->rl.n; i++) {
    const pt__rl *x = pt__kt_at(&s->rl, i);
    pt__rl *r = pt__kt_get(&d->rl, x->k);
    if (!r) return PT_ENOMEM;
    r->count += sg * x->count;
    r->incl += sg * x->incl;
    r->excl += sg * x->excl;
  }
  for (size_t i = 0; i < s->pm.n; i++) {
    const pt__pm *x = pt__kt_at(&s->pm, i);
    pt__pm *p = pt__kt_get(&d->pm, x->k);
    if (!p) return PT_ENOMEM;
    p->sent += sg * x->sent;
    p->bsent += sg * x->bsent;
    p->recv += sg * x->recv;
    p->brecv += sg * x->brecv;
  }
  for (size_t i = 0; i < s->cs.n; i++) {
    const cs_rec *x = pt__kt_at(&s->cs, i);
    cs_rec *c = pt__kt_get(&d->cs, x->k);
    if (!c) return PT_ENOMEM;
    c->calls += sg * x->calls;
    c->time += sg * x->time;
    c->msgs += sg * x->msgs;
    c->bytes += sg * x->bytes;
    c->rmsgs += sg * x->rmsgs;
    c->rbytes += sg * x->rbytes;
  }
  for (size_t i = 0; i < s->lt.n; i++) {
    const pt__late *x = pt__kt_at(&s->lt, i);
    pt__late *l = pt__kt_get(&d->lt, x->k);
    if (!l) return PT_ENOMEM;
    l->matched += sg * x->matched;
    l->ls += sg * x->ls;
    l->lr += sg * x->lr;
  }
  return PT_OK;
}

int pt__stats_sites_pending(const pt_stats *s, uint64_t t) {
  if (!s->callsites.n) return 0;
  for (size_t i = 0; i < s->locs.n; i++) {
    const pt__loc *L = pt__kt_at(&s->locs, i);
    for (size_t j = 0; j < L->depth && L->st[j].enter < t; j++)
      if (L->st[j].is_mpi && L->st[j].callsite == PT_NONE) return 1;
  }
  return 0;
}

int pt__stats_msg_extreme(pt_stats *s, uint64_t loc, uint64_t region,
                          uint64_t callsite, uint64_t bmin, uint64_t bmax) {
  cs_rec *c = pt__kt_get(&s->cs, K(region, callsite, loc + 1, 0));
  if (!c) return PT_ENOMEM;
  pt__fold_ext(&c->bmin, &c->bmax, c->nb++ != 0, bmin, bmax);
  return PT_OK;
}

int pt__stats_call_extreme(pt_stats *s, uint64_t loc, uint64_t region,
                           uint64_t callsite, uint64_t tmin, uint64_t tmax) {
  cs_rec *c = pt__kt_get(&s->cs, K(region, callsite, loc + 1, 0));
  if (!c) return PT_ENOMEM;
  pt__fold_ext(&c->tmin, &c->tmax, c->tset, tmin, tmax);
  c->tset = 1;
  return PT_OK;
}

int pt__stats_rows_from_pm(pt_stats *s) {
  for (size_t i = 0; i < s->mx.n;) pt__kt_del(&s->mx, ((mx_rec *)pt__kt_at(&s->mx, i))->k);
  for (size_t i = 0; i < s->pm.n; i++) {
    const pt__pm *p = pt__kt_at(&s->pm, i);
    /* one-sided totals (k[2] 1): what they received came from the target,
     * as one_sided() has it */
    if (p->k[2] && (p->recv || p->brecv)) {
      mx_rec *m = pt__kt_get(&s->mx, K(pt__stats_peer_loc(s, (int64_t)p->k[1]),
                                       pt__stats_proc_loc(s, p->k[0]), 0, 0));
      if (!m) return PT_ENOMEM;
      p = pt__kt_at(&s->pm, i);
      m->count += p->recv;
      m->bytes += p->brecv;
    }
    if (!p->sent && !p->bsent) continue;
    /* between processes, as message() has it: a thread's sends are its
     * process's (the first location of its rank) */
    mx_rec *m = pt__kt_get(&s->mx, K(pt__stats_proc_loc(s, p->k[0]),
                                     pt__stats_peer_loc(s, (int64_t)p->k[1]),
                                     0, 0));
    if (!m) return PT_ENOMEM;
    p = pt__kt_at(&s->pm, i);
    m->count += p->sent;
    m->bytes += p->bsent;
  }
  for (size_t i = 0; s->track_late && i < s->lt.n; i++) {
    const pt__late *l = pt__kt_at(&s->lt, i);
    if (!l->matched && !l->ls && !l->lr) continue;
    mx_rec *m = pt__kt_get(&s->mx, K(pt__stats_proc_loc(s, l->k[1]),
                                     pt__stats_proc_loc(s, l->k[0]), 0, 0));
    if (!m) return PT_ENOMEM;
    l = pt__kt_at(&s->lt, i);
    m->matched += l->matched;
    m->ls += l->ls;
    m->lr += l->lr;
  }
  return PT_OK;
}

int pt__stats_rank_exists(const pt_stats *s, uint64_t rank) {
  /* without ranks peers are location ids, and a location may have events
   * without a definition: any may exist */
  return !s->use_ranks || pt__kt_find(&s->rank2loc, K(rank, 0, 0, 0)) != NULL;
}

int pt__stats_splits_process(const pt_stats *s) {
  if (!s->sel || !s->use_ranks) return 0;
  pt__ktab seen; /* rank -> 1 selected, 2 not, 3 both */
  pt__kt_init(&seen, sizeof(u_rec));
  int split = 0;
  for (size_t i = 0; i < s->locdefs.n && !split; i++) {
    uint64_t id = ((const u_rec *)pt__kt_at(&s->locdefs, i))->k[0];
    u_rec *u = pt__kt_get(&seen, K(pt__stats_rank_of(s, id), 0, 0, 0));
    if (!u) {
      split = 1; /* out of memory: say no late times rather than wrong ones */
      break;
    }
    u->v |= pt__stats_selected(s, id) ? 1u : 2u;
    split = u->v == 3;
  }
  pt__kt_free(&seen);
  return split;
}

int pt__stats_set_app_span(pt_stats *s, uint64_t loc, uint64_t flags,
                           uint64_t init_end, uint64_t fin_start) {
  pt__loc *L = pt__stats_loc(s, loc);
  if (!L) return PT_ENOMEM;
  L->has_init = (flags & 1) != 0;
  L->init_end = L->has_init ? init_end : 0;
  L->has_fin = (flags & 2) != 0;
  L->fin_start = L->has_fin ? fin_start : 0;
  return PT_OK;
}

uint64_t pt__stats_proc_loc(const pt_stats *s, uint64_t loc) {
  if (s->use_ranks && pt__kt_find(&s->loc2rank, K(loc, 0, 0, 0)))
    return pt__stats_peer_loc(s, (int64_t)pt__stats_rank_of(s, loc));
  return loc;
}

int pt__stats_push_send(pt_stats *s, uint64_t loc, int64_t peer,
                        uint64_t comm, int64_t tag, uint64_t time,
                        uint64_t enter, int blocking, uint64_t dur) {
  if (peer < 0 || tag < 0) return PT_OK; /* never matched */
  pt__pend p;
  memset(&p, 0, sizeof p);
  p.loc = pt__stats_proc_loc(s, loc);
  p.src = loc;
  p.enter = p.wait = enter;
  p.ord = s->nord++;
  p.blocking = (uint8_t)(blocking != 0);
  p.ev.time = time;
  p.ev.kind = blocking ? PT_EV_SEND : PT_EV_ISEND;
  p.ev.peer = peer;
  p.ev.comm = comm;
  p.ev.tag = tag;
  if (blocking && dur) {
    p.left = 1;
    p.leave = enter + dur - 1;
  }
  uint64_t ck[4] = {pt__stats_rank_of(s, loc), (uint64_t)peer, comm,
                    (uint64_t)tag};
  uint32_t qi;
  int rc = chan_add_q(s, ck, &p, 0, &qi);
  if (rc != PT_OK || qi == NIL || !blocking || dur) return rc;
  /* its call still open at the summary time: the frame pushed from the
   * state takes its leave, as in a scan */
  pt__loc *L = pt__kt_find(&s->locs, K(loc, 0, 0, 0));
  for (size_t d = L ? L->depth : 0; d > 0; d--)
    if (L->st[d - 1].enter == enter && L->st[d - 1].spend == NIL) {
      L->st[d - 1].spend = qi;
      break;
    }
  return rc;
}

int pt__stats_push_posted(pt_stats *s, uint64_t loc, uint64_t request,
                          uint64_t time, uint64_t post) {
  pt__req *q = pt__kt_get(&s->reqs, K(loc, request, 0, 0));
  if (!q) return PT_ENOMEM;
  memset(&q->ev, 0, sizeof q->ev);
  q->ev.kind = PT_EV_IRECV_REQUEST;
  q->ev.time = time;
  q->ev.request = request;
  q->post = post;
  return PT_OK;
}

/* ---- merge ------------------------------------------------------------------- */

/* A queued message of either part: its time, location and place in its
 * part's queues, its channel's key and side, the message. */
typedef struct merge_pend {
  uint64_t time, loc, ord;
  size_t seq;
  uint64_t k[4];
  int recvs;
  pt__pend p;
} merge_pend;

static int cmp_merge_pend(const void *a, const void *b) {
  const merge_pend *x = a, *y = b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  if (x->loc != y->loc) return x->loc < y->loc ? -1 : 1;
  if (x->ord != y->ord) return x->ord < y->ord ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void merge_put(merge_pend *m, size_t seq, const uint64_t k[4],
                      int recvs, const pt__pend *p) {
  m->time = p->ev.time;
  m->loc = p->src;
  m->ord = p->ord;
  m->seq = seq;
  memcpy(m->k, k, sizeof m->k);
  m->recvs = recvs;
  m->p = *p;
}

/* Append the queued messages of s to mp at *np (with deferred: and the
 * deferred ones). */
static void merge_collect(const pt_stats *s, merge_pend *mp, size_t *np,
                          int deferred) {
  for (size_t i = 0; i < s->chans.n; i++) {
    const chan_rec *c = pt__kt_at(&s->chans, i);
    for (uint32_t j = c->head; j != NIL; j = s->pends[j].next, (*np)++)
      merge_put(&mp[*np], *np, c->k, c->recvs, &s->pends[j]);
  }
  for (size_t i = 0; deferred && i < s->ndmsgs; i++, (*np)++)
    merge_put(&mp[*np], *np, s->dmsgs[i].k, s->dmsgs[i].recv,
              &s->pends[s->dmsgs[i].pi]);
}

static size_t merge_count(const pt_stats *s) {
  size_t n = s->ndmsgs;
  for (size_t i = 0; i < s->chans.n; i++) {
    const chan_rec *c = pt__kt_at(&s->chans, i);
    for (uint32_t j = c->head; j != NIL; j = s->pends[j].next) n++;
  }
  return n;
}

/* Empty the message queues of finished s (no frame refers to a queued
 * send any more) and the lists of its send channels. */
static void queues_clear(pt_stats *s) {
  pt__kt_free(&s->chans);
  for (size_t i = 0; i < s->sendtags.n; i++)
    pt__oh_free(pt__kt_at(&s->sendtags, i));
  for (size_t i = 0; i < s->sendsrcs.n; i++)
    pt__oh_free(pt__kt_at(&s->sendsrcs, i));
  pt__kt_free(&s->sendtags);
  pt__kt_free(&s->sendsrcs);
  s->idx = 0;
  s->npends = 0;
  s->pend_free = NIL;
  s->rq_wait = 0;
  s->nwild_src = 0;
  s->ndmsgs = 0;
}

int pt_stats_merge(pt_stats *d, const pt_stats *s) {
  assert(d && s && d != s);
  if (!d->finished || !s->finished) return PT_ESTATE;
  if (d->lo != s->lo || d->hi != s->hi || d->end_eff != s->end_eff ||
      d->opts.relative_to != s->opts.relative_to ||
      d->opts.matrix_by != s->opts.matrix_by)
    return PT_EINVAL;
  free_output(d);
  int rc;
  for (size_t i = 0; i < s->regions.n; i++) {
    const reg_rec *x = pt__kt_at(&s->regions, i);
    if (pt__kt_find(&d->regions, x->k)) continue;
    char *n = dupstr(x->name);
    reg_rec *r = n ? pt__kt_get(&d->regions, x->k) : NULL;
    if (!r) {
      free(n);
      return PT_ENOMEM;
    }
    r->name = n;
    r->is_mpi = x->is_mpi;
    r->role = x->role;
    r->paradigm = x->paradigm;
    r->special = x->special;
  }
  if ((rc = pt__names_merge(&d->callsites, &s->callsites)) < 0) return rc;
  if ((rc = pt__stats_add_rows(d, s, 1)) < 0) return rc;
  if ((rc = pt__stats_add_io(d, s)) < 0) return rc;
  if ((rc = pt__stats_add_metrics(d, s)) < 0) return rc;
  for (size_t i = 0; i < s->locs.n; i++) { /* application time bounds */
    const pt__loc *x = pt__kt_at(&s->locs, i);
    pt__loc *L = pt__stats_loc(d, x->k[0]);
    if (!L) return PT_ENOMEM;
    if (x->has_init && (!L->has_init || x->init_end < L->init_end)) {
      L->has_init = 1;
      L->init_end = x->init_end;
    }
    if (x->has_fin && (!L->has_fin || x->fin_start < L->fin_start)) {
      L->has_fin = 1;
      L->fin_start = x->fin_start;
    }
  }
  for (size_t i = 0; i < s->rl.n; i++) { /* per-visit extremes */
    const pt__rl *x = pt__kt_at(&s->rl, i);
    pt__rl *r = pt__kt_find(&d->rl, x->k);
    if (!x->vset) continue;
    pt__fold_ext(&r->vmin, &r->vmax, r->vset, x->vmin, x->vmax);
    r->vset = 1;
  }
  for (size_t i = 0; i < s->mx.n; i++) {
    const mx_rec *x = pt__kt_at(&s->mx, i);
    mx_rec *m = pt__kt_get(&d->mx, x->k);
    if (!m) return PT_ENOMEM;
    m->count += x->count;
    m->bytes += x->bytes;
    m->ls += x->ls;
    m->lr += x->lr;
    m->matched += x->matched;
  }
  for (size_t i = 0; i < s->cs.n; i++) {
    const cs_rec *x = pt__kt_at(&s->cs, i);
    cs_rec *c = pt__kt_find(&d->cs, x->k); /* counters: pt__stats_add_rows */
    if (x->nb) {
      pt__fold_ext(&c->bmin, &c->bmax, c->nb != 0, x->bmin, x->bmax);
      c->nb += x->nb;
    }
    if (x->tset) {
      pt__fold_ext(&c->tmin, &c->tmax, c->tset, x->tmin, x->tmax);
      c->tset = 1;
    }
  }
  for (size_t i = 0; i < s->rel.n; i++) {
    const rel_rec *x = pt__kt_at(&s->rel, i);
    rel_rec *c = pt__kt_get(&d->rel, x->k);
    if (!c) return PT_ENOMEM;
    c->count += x->count;
    c->time += x->time;
    c->bytes += x->bytes;
  }
  d->events += s->events;
  d->rel_count += s->rel_count;
  d->rel_time += s->rel_time;
  d->have &= s->have;
  /* instances are matched across parts only (the calls of others are
   * not kept) */
  if ((d->have & PT_STATS_HAVE_WAITS) && d->part && s->part) {
    if ((rc = pt__stats_coll_merge(d, s)) < 0) return rc;
  } else {
    d->have &= ~(uint32_t)PT_STATS_HAVE_WAITS;
  }
  /* parts: the deferral points of both (the earlier of a group's) */
  d->part |= s->part;
  d->part_overflow |= s->part_overflow;
  for (size_t i = 0; i < s->defers.n; i++) {
    const pt__defer *x = pt__kt_at(&s->defers, i);
    pt__defer *y = pt__kt_find(&d->defers, x->k);
    if (y && !msg_before(x->time, x->src, x->ord, y->time, y->src, y->ord))
      continue;
    if (!y && !(y = pt__kt_get(&d->defers, x->k))) return PT_ENOMEM;
    y->time = x->time;
    y->src = x->src;
    y->ord = x->ord;
  }
  /* the unmatched messages of both meet in time order (each channel's in
   * FIFO order): dst's are taken out of its queues and queued again with
   * src's, so that a send meets the receive a single scan gives it (not
   * one dst queued later while an older wildcard receive waits), and a
   * receive from MPI_ANY_SOURCE or with MPI_ANY_TAG the oldest send;
   * those of a group deferred from there on wait (pt_stats_complete) */
  size_t nd = merge_count(d), np = nd + merge_count(s);
  if (!merge_count(s)) return PT_OK;
  merge_pend *mp = malloc(np * sizeof *mp);
  if (!mp) return PT_ENOMEM;
  np = 0;
  merge_collect(d, mp, &np, 1);
  merge_collect(s, mp, &np, 1);
  qsort(mp, np, sizeof *mp, cmp_merge_pend);
  queues_clear(d);
  rc = PT_OK;
  for (size_t x = 0; x < np && rc == PT_OK; x++)
    rc = deferred(d, mp[x].k, &mp[x].p)
             ? defer_add(d, mp[x].k, &mp[x].p, mp[x].recvs, NULL)
             : chan_add(d, mp[x].k, &mp[x].p, mp[x].recvs);
  free(mp);
  return rc < 0 ? rc : PT_OK;
}

int pt_stats_part_overflow(const pt_stats *s) {
  return s && s->part_overflow;
}

int pt_stats_order_dependent(const pt_stats *s) {
  return s && s->order_dep;
}

int pt_stats_complete(pt_stats *s) {
  assert(s);
  if (!s->finished) return PT_ESTATE;
  if (!s->part) return PT_OK;
  int rc = pt__stats_coll_complete(s);
  if (rc < 0) return rc;
  size_t n = s->ndmsgs, np = 0;
  merge_pend *mp = n ? malloc(n * sizeof *mp) : NULL;
  if (n && !mp) return PT_ENOMEM;
  for (size_t i = 0; i < n; i++, np++) {
    const pt__dmsg *m = &s->dmsgs[i];
    merge_put(&mp[np], np, m->k, m->recv, &s->pends[m->pi]);
    s->pends[m->pi].used = 0;
    s->pends[m->pi].next = s->pend_free;
    s->pend_free = m->pi;
  }
  if (np) qsort(mp, np, sizeof *mp, cmp_merge_pend);
  s->ndmsgs = 0;
  pt__kt_free(&s->defers);
  s->part = 0;
  free_output(s);
  for (size_t x = 0; x < np && rc == PT_OK; x++)
    rc = chan_add(s, mp[x].k, &mp[x].p, mp[x].recvs);
  free(mp);
  return rc < 0 ? rc : PT_OK;
}

/* ---- output ------------------------------------------------------------------- */

static int cmp_rl(const void *a, const void *b) {
  const pt_stats_region_loc_row *x = a, *y = b;
  if (x->region != y->region) return x->region < y->region ? -1 : 1;
  return x->location < y->location ? -1 : x->location > y->location;
}
static int cmp_region(const void *a, const void *b) {
  const pt_stats_region_row *x = a, *y = b;
  if (x->incl != y->incl) return x->incl > y->incl ? -1 : 1;
  return x->region < y->region ? -1 : x->region > y->region;
}
static int cmp_k3(const uint64_t *x, const uint64_t *y) {
  for (int i = 0; i < 3; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}
/* by region, call site, location (PT_NONE last: the summed rows of a
 * version-7 buffer) */
static int cmp_cs(const void *a, const void *b) {
  const pt_stats_callsite_row *x = a, *y = b;
  uint64_t p[3] = {x->region, x->callsite, x->location},
           q[3] = {y->region, y->callsite, y->location};
  return cmp_k3(p, q);
}
static int cmp_mx(const void *a, const void *b) {
  const pt_stats_message_row *x = a, *y = b;
  uint64_t p[3] = {x->sender, x->receiver, (uint64_t)x->key ^ (UINT64_C(1) << 63)};
  uint64_t q[3] = {y->sender, y->receiver, (uint64_t)y->key ^ (UINT64_C(1) << 63)};
  return cmp_k3(p, q);
}
/* Relative rows: regions, then event kinds; each by time descending,
 * then name, then id.  qsort has no context argument: the object whose
 * rows are sorted (for the names) is passed in this per-thread pointer. */
static _Thread_local const pt_stats *rel_sorting;
static const char *rel_name(const pt_stats_relative_row *r) {
  const char *n = r->what == PT_STATS_REL_REGION
                      ? pt_stats_region_name(rel_sorting, r->id)
                      : pt_event_kind_name((uint32_t)r->id);
  return n ? n : "";
}
static int cmp_rel(const void *a, const void *b) {
  const pt_stats_relative_row *x = a, *y = b;
  if (x->what != y->what) return x->what < y->what ? -1 : 1;
  if (x->time != y->time) return x->time > y->time ? -1 : 1;
  int c = strcmp(rel_name(x), rel_name(y));
  if (c) return c < 0 ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}
static int cmp_loc(const void *a, const void *b) {
  const pt_stats_location_row *x = a, *y = b;
  return x->location < y->location ? -1 : x->location > y->location;
}

const char *pt_stats_region_name(const pt_stats *s, uint64_t region) {
  const reg_rec *r = pt__kt_find(&s->regions, K(region, 0, 0, 0));
  return r ? r->name : NULL;
}
/* One statement of a call-site name ("module+0xoffset", the module a
 * full path), as pt_stats_resolve_callsites takes it apart. */
typedef struct cs_part {
  size_t site;      /* index in s->callsites */
  const char *text; /* the statement's text in the old name */
  size_t len, mlen; /* its length; the module's (0: not an address) */
  uint64_t addr;    /* the call's address (the return address - 1) */
  char *fn, *ln;    /* addr2line's answer (malloc'ed or NULL) */
} cs_part;

/* The resolved text of part p into b[n]. */
static void cs_part_name(const cs_part *p, char *b, size_t n) {
  if (!p->mlen) {
    snprintf(b, n, "%.*s", (int)p->len, p->text);
    return;
  }
  const char *base = p->text + p->mlen;
  while (base > p->text && base[-1] != '/') base--;
  int bl = (int)(p->text + p->mlen - base);
  const char *off = p->text + p->mlen;
  int ol = (int)(p->len - p->mlen);
  /* without a line (no debug information) the function alone would not
   * tell its call sites apart: its module and offset too */
  if (p->fn && p->ln) snprintf(b, n, "%.590s %.590s", p->fn, p->ln);
  else if (p->ln) snprintf(b, n, "%.1190s", p->ln);
  else if (p->fn)
    snprintf(b, n, "%.590s (%.*s%.*s)", p->fn, bl > 300 ? 300 : bl, base,
             ol > 40 ? 40 : ol, off);
  else snprintf(b, n, "%.*s%.*s", bl > 300 ? 300 : bl, base,
                ol > 40 ? 40 : ol, off);
}

/* Parts ordered by module (then by position: a deterministic order) for
 * one addr2line run per module. */
static _Thread_local const cs_part *cs_sorting;
static int cs_part_cmp(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  const cs_part *x = &cs_sorting[i], *y = &cs_sorting[j];
  if (x->mlen != y->mlen) return x->mlen < y->mlen ? -1 : 1;
  int c = x->mlen ? memcmp(x->text, y->text, x->mlen) : 0;
  if (c) return c;
  return i < j ? -1 : i > j;
}

void pt_stats_resolve_callsites(pt_stats *s) {
  size_t n = s->callsites.n, np = 0, cap = 0;
  cs_part *pt = NULL;
  size_t *ord = NULL;
  uint64_t *addr = NULL;
  char **fn = NULL, **ln = NULL;
  /* every statement of every name ("a < b < c": a chain of them) */
  for (size_t i = 0; i < n; i++) {
    const char *nm = ((pt__name *)pt__kt_at(&s->callsites, i))->name;
    for (const char *p = nm; p && *p;) {
      const char *e = strstr(p, " < ");
      size_t len = e ? (size_t)(e - p) : strlen(p);
      if (PT_GROW(pt, cap, np + 1, 64) < 0) goto out;
      cs_part *c = &pt[np++];
      *c = (cs_part){.site = i, .text = p, .len = len};
      /* "/module+0xhex" to the statement's end: an address ("file:line"
       * of a file whose path has "+0x" in it is not) */
      const char *plus = NULL;
      for (const char *x = p; x + 3 <= p + len; x++)
        if (!strncmp(x, "+0x", 3)) plus = x;
      size_t hex = plus ? (size_t)(p + len - (plus + 3)) : 0;
      for (size_t q = 0; q < hex; q++)
        if (!isxdigit((unsigned char)plus[3 + q])) {
          hex = 0;
          break;
        }
      if (!hex) plus = NULL;
      if (p[0] == '/' && plus) {
        c->mlen = (size_t)(plus - p);
        uint64_t off = strtoull(plus + 3, NULL, 16);
        c->addr = off ? off - 1 : 0; /* a return address: the call before */
      }
      p = e ? e + 3 : p + len;
    }
  }
  if (!np) goto out;
  ord = malloc(np * sizeof *ord);
  addr = malloc(np * sizeof *addr);
  fn = calloc(np, sizeof *fn);
  ln = calloc(np, sizeof *ln);
  if (!ord || !addr || !fn || !ln) goto out;
  for (size_t i = 0; i < np; i++) ord[i] = i;
  cs_sorting = pt;
  qsort(ord, np, sizeof *ord, cs_part_cmp);
  /* every statement of one module in one run of addr2line */
  for (size_t a = 0, b; a < np; a = b) {
    const cs_part *h = &pt[ord[a]];
    for (b = a + 1; b < np && pt[ord[b]].mlen == h->mlen &&
                    (!h->mlen || !memcmp(pt[ord[b]].text, h->text, h->mlen));
         b++)
      ;
    if (!h->mlen) continue;
    char module[4096];
    snprintf(module, sizeof module, "%.*s", (int)h->mlen, h->text);
    for (size_t q = a; q < b; q++) addr[q - a] = pt[ord[q]].addr;
    pt__addr2line(module, addr, b - a, fn, ln);
    for (size_t q = a; q < b; q++) {
      pt[ord[q]].fn = fn[q - a];
      pt[ord[q]].ln = ln[q - a];
      fn[q - a] = ln[q - a] = NULL;
    }
  }
  /* the names again, statement by statement (a site's are consecutive) */
  for (size_t a = 0, b; a < np; a = b) {
    for (b = a + 1; b < np && pt[b].site == pt[a].site; b++)
      ;
    /* room for each statement whole: an address's resolved text is at
     * most 1190 bytes (cs_part_name), any other one is copied as it is
     * (a name read by pt_stats_deserialize may be of any length) */
    size_t cap2 = 1, l = 0;
    for (size_t q = a; q < b; q++) cap2 += 3 + (pt[q].mlen ? 1200 : pt[q].len);
    char *nm = malloc(cap2);
    if (!nm) continue;
    for (size_t q = a; q < b; q++) {
      if (q > a) l += (size_t)snprintf(nm + l, cap2 - l, " < ");
      cs_part_name(&pt[q], nm + l, cap2 - l);
      l += strlen(nm + l);
    }
    pt__name *x = pt__kt_at(&s->callsites, pt[a].site);
    free(x->name); /* the parts pointed into it: not used after this */
    x->name = nm;
  }
out:
  for (size_t i = 0; i < np; i++) free(pt[i].fn), free(pt[i].ln);
  free(pt);
  free(ord);
  free(addr);
  free(fn);
  free(ln);
}

const char *pt_stats_callsite_name(const pt_stats *s, uint64_t callsite) {
  return pt__names_get(&s->callsites, callsite);
}

/* Application and MPI time per location (the definitions are in
 * analysis.h): from the rows and the MPI_Init / MPI_Finalize times, so
 * that every path gives the same. */
typedef struct app_acc {
  uint64_t excl, mpi_all, mpi_inside, prog;
  int prog_row; /* a row of the program region */
} app_acc;
static int app_times(pt_stats *s) {
  size_t nl = s->nout_locs;
  app_acc *a = calloc(nl ? nl : 1, sizeof *a);
  if (!a) return PT_ENOMEM;
  uint64_t prog = pt__stats_program_region(s);
  int any_init = 0;
  for (size_t i = 0; i < s->locs.n; i++)
    any_init |= ((const pt__loc *)pt__kt_at(&s->locs, i))->has_init;
  s->app_region = prog;
  s->app_def = prog != PT_NONE ? PT_STATS_APP_PROGRAM
               : any_init      ? PT_STATS_APP_INIT_FINALIZE
                               : PT_STATS_APP_REGIONS;
  for (size_t i = 0; i < s->nout_rl; i++) {
    const pt_stats_region_loc_row *o = &s->out_rl[i];
    pt_stats_location_row key = {.location = o->location};
    pt_stats_location_row *l =
        bsearch(&key, s->out_locs, nl, sizeof *s->out_locs, cmp_loc);
    if (!l) continue;
    app_acc *x = &a[l - s->out_locs];
    int sp = special_region(s, o->region);
    x->excl += o->excl;
    if (is_mpi_region(s, o->region)) {
      x->mpi_all += o->incl;
      if (sp == PT__PLAIN) x->mpi_inside += o->incl;
    }
    if (o->region == prog) {
      x->prog += o->incl;
      x->prog_row = 1;
    }
  }
  /* a program region defined but without a visit (a ring buffer overwrote
   * it, a window inside MPI_Init or MPI_Finalize): the next definition */
  int prog_seen = 0;
  for (size_t i = 0; i < nl; i++) prog_seen |= a[i].prog_row;
  if (s->app_def == PT_STATS_APP_PROGRAM && !prog_seen) {
    s->app_region = PT_NONE;
    s->app_def = any_init ? PT_STATS_APP_INIT_FINALIZE : PT_STATS_APP_REGIONS;
  }
  for (size_t i = 0; i < nl; i++) {
    pt_stats_location_row *l = &s->out_locs[i];
    const app_acc *x = &a[i];
    const pt__loc *L = pt__kt_find(&s->locs, K(l->location, 0, 0, 0));
    /* a thread of an MPI process (no MPI_Init of its own): the process's
     * MPI_Init..MPI_Finalize, as its other threads run inside it */
    if (s->app_def != PT_STATS_APP_REGIONS && L && !L->has_init) {
      uint64_t pl = pt__stats_proc_loc(s, l->location);
      const pt__loc *P =
          pl != l->location ? pt__kt_find(&s->locs, K(pl, 0, 0, 0)) : NULL;
      if (P && P->has_init) L = P;
    }
    /* per location the first that applies: its program region, its
     * (process's) MPI_Init..MPI_Finalize (0 in a window inside either),
     * its regions */
    if (s->app_def == PT_STATS_APP_PROGRAM && x->prog_row) {
      l->app_time = x->prog;
      l->mpi_time = x->mpi_inside;
    } else if (s->app_def != PT_STATS_APP_REGIONS && L && L->has_init) {
      uint64_t lo = clip(s, L->init_end);
      uint64_t hi = clip(s, L->has_fin ? L->fin_start : s->end_eff);
      l->app_time = hi > lo ? hi - lo : 0;
      l->mpi_time = x->mpi_inside;
    } else {
      l->app_time = x->excl;
      l->mpi_time = x->mpi_all;
    }
  }
  free(a);
  return PT_OK;
}

static int aggregate(pt_stats *s) {
  if (s->aggregated) return PT_OK;
  int crc = s->part && s->finished ? pt_stats_complete(s) : PT_OK;
  if (crc < 0) return crc;
  int detail = (s->have & PT_STATS_HAVE_DETAIL) != 0;
  int visits = (s->have & PT_STATS_HAVE_VISITS) != 0;
  /* locations */
  size_t nl = s->locs.n;
  s->out_locs = calloc(nl ? nl : 1, sizeof *s->out_locs);
  s->out_rl = calloc(s->rl.n ? s->rl.n : 1, sizeof *s->out_rl);
  s->out_regions = calloc(s->rl.n ? s->rl.n : 1, sizeof *s->out_regions);
  s->out_cs = calloc(s->cs.n ? s->cs.n : 1, sizeof *s->out_cs);
  s->out_csl = calloc(s->cs.n ? s->cs.n : 1, sizeof *s->out_csl);
  s->out_mx = calloc(s->mx.n ? s->mx.n : 1, sizeof *s->out_mx);
  s->out_rel = calloc(s->rel.n ? s->rel.n : 1, sizeof *s->out_rel);
  if (!s->out_locs || !s->out_rl || !s->out_regions || !s->out_cs ||
      !s->out_csl || !s->out_mx || !s->out_rel) {
    free_output(s);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < nl; i++)
    s->out_locs[i].location = ((pt__loc *)pt__kt_at(&s->locs, i))->k[0];
  qsort(s->out_locs, nl, sizeof *s->out_locs, cmp_loc);
  s->nout_locs = nl;
  /* rows (all-zero rows dropped: both paths may create them) */
  for (size_t i = 0; i < s->rl.n; i++) {
    const pt__rl *x = pt__kt_at(&s->rl, i);
    if (!x->count && !x->incl && !x->excl) continue;
    pt_stats_region_loc_row *o = &s->out_rl[s->nout_rl++];
    o->location = x->k[0];
    o->region = x->k[1];
    o->count = x->count;
    o->incl = x->incl;
    o->excl = x->excl;
    if (visits && x->count && x->vset) {
      o->visit_min = x->vmin;
      o->visit_max = x->vmax;
    }
  }
  qsort(s->out_rl, s->nout_rl, sizeof *s->out_rl, cmp_rl);
  if (app_times(s) < 0) {
    free_output(s);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < s->pm.n; i++) {
    const pt__pm *p = pt__kt_at(&s->pm, i);
    pt_stats_location_row key = {.location = p->k[0]};
    pt_stats_location_row *l =
        bsearch(&key, s->out_locs, nl, sizeof *s->out_locs, cmp_loc);
    if (!l) continue;
    l->sent += p->sent;
    l->bytes_sent += p->bsent;
    l->received += p->recv;
    l->bytes_received += p->brecv;
  }
  /* The per-location figures of a region (min, mean, imbalance) are over
   * the locations that spent time in any region: a location with events
   * but no region (metrics only, an idle GPU stream of a Score-P trace)
   * is not a process that could have run it. */
  unsigned char *act = calloc(nl ? nl : 1, 1);
  if (!act) {
    free_output(s);
    return PT_ENOMEM;
  }
  size_t nact = 0;
  for (size_t i = 0; i < s->nout_rl; i++) {
    pt_stats_location_row key = {.location = s->out_rl[i].location};
    pt_stats_location_row *l =
        bsearch(&key, s->out_locs, nl, sizeof *s->out_locs, cmp_loc);
    if (l && !act[l - s->out_locs]) {
      act[l - s->out_locs] = 1;
      nact++;
    }
  }
  /* regions: over the rows of each region (sorted by region, location) */
  for (size_t i = 0; i < s->nout_rl;) {
    size_t j = i;
    pt_stats_region_row *g = &s->out_regions[s->nout_regions++];
    uint64_t reg = s->out_rl[i].region;
    g->region = reg;
    const char *nm = pt_stats_region_name(s, reg);
    g->name = nm ? nm : "?";
    g->is_mpi = is_mpi_region(s, reg);
    g->incl_min = g->excl_min = UINT64_MAX;
    g->incl_max_location = g->excl_max_location = PT_NONE;
    uint64_t vmin = UINT64_MAX, vmax = 0;
    for (; j < s->nout_rl && s->out_rl[j].region == reg; j++) {
      const pt_stats_region_loc_row *o = &s->out_rl[j];
      g->count += o->count;
      g->incl += o->incl;
      g->excl += o->excl;
      if (o->count && o->visit_min < vmin) vmin = o->visit_min;
      if (o->count && o->visit_max > vmax) vmax = o->visit_max;
      if (o->incl < g->incl_min) g->incl_min = o->incl;
      if (o->excl < g->excl_min) g->excl_min = o->excl;
      if (g->incl_max_location == PT_NONE || o->incl > g->incl_max) {
        g->incl_max = o->incl;
        g->incl_max_location = o->location;
      }
      if (g->excl_max_location == PT_NONE || o->excl > g->excl_max) {
        g->excl_max = o->excl;
        g->excl_max_location = o->location;
      }
    }
    /* active locations without a row count as 0 */
    size_t rows = j - i;
    if (rows < nact) {
      g->incl_min = g->excl_min = 0;
      /* a zero max may belong to a lower location id without a row */
      for (size_t k = 0; k < nl; k++) {
        if (!act[k]) continue;
        uint64_t id = s->out_locs[k].location;
        int has = 0;
        for (size_t m = i; m < j && !has; m++) has = s->out_rl[m].location == id;
        if (has) continue;
        if (g->incl_max == 0 && id < g->incl_max_location) g->incl_max_location = id;
        if (g->excl_max == 0 && id < g->excl_max_location) g->excl_max_location = id;
        break; /* the lowest missing id is the only candidate */
      }
    }
    double n = (double)(nact > rows ? nact : rows);
    g->incl_mean = (double)g->incl / n;
    g->excl_mean = (double)g->excl / n;
    g->imbalance = g->incl ? (double)g->incl_max / g->incl_mean : 0;
    if (visits && g->count && vmin <= vmax) {
      g->visit_min = vmin;
      g->visit_max = vmax;
    }
    i = j;
  }
  free(act);
  qsort(s->out_regions, s->nout_regions, sizeof *s->out_regions, cmp_region);
  if (s->have & PT_STATS_HAVE_CALLSITES) {
    int times = (s->have & PT_STATS_HAVE_CALL_TIMES) != 0;
    /* per location (rows keyed by location + 1 = 0, from a version-7
     * buffer, are already summed: location PT_NONE, listed with the
     * others only in the sums) */
    for (size_t i = 0; i < s->cs.n; i++) {
      const cs_rec *x = pt__kt_at(&s->cs, i);
      if (!x->calls && !x->time && !x->msgs && !x->rmsgs) continue;
      pt_stats_callsite_row *o = &s->out_csl[s->nout_csl++];
      o->region = x->k[0];
      o->callsite = x->k[1];
      o->location = x->k[2] - 1; /* 0 - 1 = PT_NONE */
      o->calls = x->calls;
      o->time = x->time;
      o->call_max_location = PT_NONE;
      if (times && x->calls && x->tset) {
        o->call_min = x->tmin;
        o->call_max = x->tmax;
        o->call_max_location = o->location;
      }
      o->messages = x->msgs;
      o->bytes = x->bytes;
      o->bytes_min = x->nb ? x->bmin : 0;
      o->bytes_max = x->nb ? x->bmax : 0;
      o->received = x->rmsgs;
      o->bytes_received = x->rbytes;
    }
    qsort(s->out_csl, s->nout_csl, sizeof *s->out_csl, cmp_cs);
    /* summed over the locations (in location order: the max's location is
     * the lowest id on ties) */
    for (size_t i = 0; i < s->nout_csl;) {
      const pt_stats_callsite_row *x = &s->out_csl[i];
      pt_stats_callsite_row *o = &s->out_cs[s->nout_cs++];
      *o = *x;
      o->location = PT_NONE;
      int tset = o->call_max_location != PT_NONE;
      for (i++; i < s->nout_csl && s->out_csl[i].region == o->region &&
                s->out_csl[i].callsite == o->callsite;
           i++) {
        x = &s->out_csl[i];
        o->calls += x->calls;
        o->time += x->time;
        if (x->call_max_location != PT_NONE) {
          if (!tset || x->call_min < o->call_min) o->call_min = x->call_min;
          if (!tset || x->call_max > o->call_max) {
            o->call_max = x->call_max;
            o->call_max_location = x->call_max_location;
          }
          tset = 1;
        }
        if (x->messages) {
          if (!o->messages || x->bytes_min < o->bytes_min)
            o->bytes_min = x->bytes_min;
          if (!o->messages || x->bytes_max > o->bytes_max)
            o->bytes_max = x->bytes_max;
        }
        o->messages += x->messages;
        o->bytes += x->bytes;
        o->received += x->received;
        o->bytes_received += x->bytes_received;
      }
    }
    /* a version-7 buffer's summed rows stand for locations unknown */
    size_t k = 0;
    for (size_t i = 0; i < s->nout_csl; i++)
      if (s->out_csl[i].location != PT_NONE) s->out_csl[k++] = s->out_csl[i];
    s->nout_csl = k;
  }
  if (pt__stats_io_aggregate(s) < 0 || pt__stats_metric_aggregate(s) < 0 ||
      pt__stats_coll_aggregate(s) < 0) {
    free_output(s);
    return PT_ENOMEM;
  }
  if (detail) {
    for (size_t i = 0; i < s->rel.n; i++) {
      const rel_rec *x = pt__kt_at(&s->rel, i);
      if (!x->count && !x->time && !x->bytes) continue;
      pt_stats_relative_row *o = &s->out_rel[s->nout_rel++];
      o->what = (uint32_t)x->k[0];
      o->id = x->k[1];
      o->count = x->count;
      o->time = x->time;
      o->bytes = x->bytes;
    }
    rel_sorting = s;
    qsort(s->out_rel, s->nout_rel, sizeof *s->out_rel, cmp_rel);
    rel_sorting = NULL;
  }
  for (size_t i = 0; i < s->mx.n; i++) {
    const mx_rec *x = pt__kt_at(&s->mx, i);
    if (!x->count && !x->bytes && !x->matched) continue;
    pt_stats_message_row *o = &s->out_mx[s->nout_mx++];
    o->sender = x->k[0];
    o->receiver = x->k[1];
    o->key = (int64_t)x->k[2];
    o->count = x->count;
    o->bytes = x->bytes;
    if (s->have & PT_STATS_HAVE_LATE) {
      o->late_sender = x->ls;
      o->late_receiver = x->lr;
      o->matched = x->matched;
    }
  }
  qsort(s->out_mx, s->nout_mx, sizeof *s->out_mx, cmp_mx);
  s->aggregated = 1;
  return PT_OK;
}

#define ACCESSORS(NNAME, NAME, TYPE, ARR, N)                          \
  size_t NNAME(const pt_stats *s) {                                    \
    assert(s && s->finished);                                          \
    if (aggregate((pt_stats *)s) < 0) return 0;                        \
    return s->N;                                                       \
  }                                                                    \
  const TYPE *NAME(const pt_stats *s, size_t i) {                      \
    assert(s && s->finished);                                          \
    if (aggregate((pt_stats *)s) < 0 || i >= s->N) return NULL;        \
    return &s->ARR[i];                                                 \
  }
ACCESSORS(pt_stats_nregions, pt_stats_region, pt_stats_region_row, out_regions,
          nout_regions)
ACCESSORS(pt_stats_nregion_locs, pt_stats_region_loc, pt_stats_region_loc_row,
          out_rl, nout_rl)
ACCESSORS(pt_stats_nlocations, pt_stats_location, pt_stats_location_row,
          out_locs, nout_locs)
ACCESSORS(pt_stats_ncallsites, pt_stats_callsite, pt_stats_callsite_row, out_cs,
          nout_cs)
ACCESSORS(pt_stats_ncallsite_locs, pt_stats_callsite_loc, pt_stats_callsite_row,
          out_csl, nout_csl)
ACCESSORS(pt_stats_nmessages, pt_stats_message, pt_stats_message_row, out_mx,
          nout_mx)
ACCESSORS(pt_stats_nrelative, pt_stats_relative, pt_stats_relative_row, out_rel,
          nout_rel)
ACCESSORS(pt_stats_nio, pt_stats_io, pt_stats_io_row, out_io, nout_io)
ACCESSORS(pt_stats_nwaits, pt_stats_wait, pt_stats_wait_row, out_wait,
          nout_wait)
ACCESSORS(pt_stats_nmetrics, pt_stats_metric, pt_stats_metric_row, out_met,
          nout_met)
ACCESSORS(pt_stats_nmetric_locs, pt_stats_metric_loc, pt_stats_metric_row,
          out_mloc, nout_mloc)
ACCESSORS(pt_stats_nmetric_regions, pt_stats_metric_region,
          pt_stats_metric_region_row, out_mreg, nout_mreg)

void pt_stats_get_totals(const pt_stats *s, pt_stats_totals *t) {
  assert(s && t && s->finished);
  memset(t, 0, sizeof *t);
  t->have = s->have;
  t->from = s->lo;
  t->to = s->hi;
  t->end = s->end_eff;
  t->events = s->have & PT_STATS_HAVE_DETAIL ? s->events : 0;
  t->app_region = PT_NONE;
  if (aggregate((pt_stats *)s) == PT_OK) {
    t->app_def = s->app_def;
    t->app_region = s->app_region;
  }
  if (s->aggregated)
    for (size_t i = 0; i < s->nout_locs; i++) {
      t->app_time += s->out_locs[i].app_time;
      t->mpi_time += s->out_locs[i].mpi_time;
    }
  if (s->have & PT_STATS_HAVE_DETAIL) {
    t->relative_count = s->rel_count;
    t->relative_time = s->rel_time;
  }
}

/* ---- serialization (for a reduction over MPI) ------------------------------ */

/* Format: "PTST" u32 version 1, then u64 little-endian words: lo, hi, end,
 * relative_to, matrix_by, have, events, rel_count, rel_time, then tables,
 * each a count followed by its rows (strings: length, bytes padded to 8).
 * Version 2: call-site rows hold the received messages and bytes.
 * Version 3: a region's flags word holds is_mpi | role << 8 | paradigm <<
 * 16; a location is its id, flags (has_init | has_fin << 1), the end of
 * MPI_Init and the start of MPI_Finalize.
 * Version 4: an unmatched message holds its wait time after its enter.
 * Version 5: file names after the call sites' names, I/O rows after the
 * relative rows.
 * Version 6: after the I/O rows the metric definitions (id, type | mode
 * << 32, name, unit), the (metric, location) rows and the (metric,
 * region) rows (doubles as their IEEE bits). */
#define SER_MAGIC "PTST"
/* 8: call-site rows per location, with call times; 9: after the
 * unmatched messages their count and each one's location and ord, then a
 * part's flag, its deferral points (receiver, comm, time, location, ord)
 * and its deferred messages (each its channel's key, side, message,
 * location and ord) */
#define SER_VERSION 9
#define SER_VERSION_MIN 7

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
static double bitsd(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static int put64(pt__buf *b, uint64_t v) {
  uint8_t x[8];
  for (int i = 0; i < 8; i++) x[i] = (uint8_t)(v >> (8 * i));
  return pt__buf_put(b, x, 8);
}
static int putstr(pt__buf *b, const char *str) {
  size_t n = strlen(str);
  int rc = put64(b, n);
  if (rc == PT_OK) rc = pt__buf_put(b, str, n);
  static const uint8_t zero[8] = {0};
  if (rc == PT_OK && n % 8) rc = pt__buf_put(b, zero, 8 - n % 8);
  return rc;
}
/* A name table: count, then id and name of each. */
static int putnames(pt__buf *b, const pt__ktab *t) {
  int rc = put64(b, t->n);
  for (size_t i = 0; i < t->n && rc == PT_OK; i++) {
    const pt__name *r = pt__kt_at(t, i);
    rc = put64(b, r->k[0]);
    if (rc == PT_OK) rc = putstr(b, r->name);
  }
  return rc;
}

/* An unmatched message (PEND_WORDS words; its location and ord apart). */
#define PEND_WORDS 15
static int putpend(pt__buf *b, const pt__pend *p) {
  uint64_t w[PEND_WORDS] = {p->loc, p->enter, p->wait, p->blocking, p->in_w,
                            p->ev.time, p->ev.kind, p->ev.ref,
                            (uint64_t)p->ev.peer, p->ev.comm,
                            (uint64_t)p->ev.tag, p->ev.size, p->ev.request,
                            p->left, p->leave};
  int rc = PT_OK;
  for (size_t k = 0; k < PEND_WORDS && rc == PT_OK; k++) rc = put64(b, w[k]);
  return rc;
}

int pt_stats_serialize(const pt_stats *s, void **buf, size_t *len) {
  assert(s && buf && len);
  *buf = NULL;
  *len = 0;
  if (!s->finished) return PT_ESTATE;
  pt__buf b = {0};
  int rc = pt__buf_put(&b, SER_MAGIC, 4);
  uint8_t ver[4] = {SER_VERSION, 0, 0, 0};
  if (rc == PT_OK) rc = pt__buf_put(&b, ver, 4);
  uint64_t head[] = {s->lo, s->hi, s->end_eff, s->opts.relative_to,
                     s->opts.matrix_by, s->have, s->events, s->rel_count,
                     s->rel_time};
  for (size_t i = 0; i < sizeof head / sizeof *head && rc == PT_OK; i++)
    rc = put64(&b, head[i]);
  /* regions, call sites */
  if (rc == PT_OK) rc = put64(&b, s->regions.n);
  for (size_t i = 0; i < s->regions.n && rc == PT_OK; i++) {
    const reg_rec *r = pt__kt_at(&s->regions, i);
    rc = put64(&b, r->k[0]);
    if (rc == PT_OK)
      rc = put64(&b, (uint64_t)(r->is_mpi != 0) |
                         (uint64_t)(r->role & 0xff) << 8 |
                         (uint64_t)(r->paradigm & 0xff) << 16);
    if (rc == PT_OK) rc = putstr(&b, r->name);
  }
  if (rc == PT_OK) rc = putnames(&b, &s->callsites);
  if (rc == PT_OK) rc = putnames(&b, &s->files);
  /* locations */
  if (rc == PT_OK) rc = put64(&b, s->locs.n);
  for (size_t i = 0; i < s->locs.n && rc == PT_OK; i++) {
    const pt__loc *L = pt__kt_at(&s->locs, i);
    uint64_t w[] = {L->k[0], (uint64_t)L->has_init | (uint64_t)L->has_fin << 1,
                    L->init_end, L->fin_start};
    for (size_t j = 0; j < 4 && rc == PT_OK; j++) rc = put64(&b, w[j]);
  }
  /* rows: key words then value words */
#define ROWS(TAB, TYPE, NK, ...)                                          \
  if (rc == PT_OK) rc = put64(&b, (TAB).n);                               \
  for (size_t i = 0; i < (TAB).n && rc == PT_OK; i++) {                   \
    const TYPE *x = pt__kt_at(&(TAB), i);                                 \
    uint64_t w[] = {__VA_ARGS__};                                         \
    for (size_t j = 0; j < NK && rc == PT_OK; j++) rc = put64(&b, x->k[j]); \
    for (size_t j = 0; j < sizeof w / sizeof *w && rc == PT_OK; j++)      \
      rc = put64(&b, w[j]);                                               \
  }
  ROWS(s->rl, pt__rl, 2, x->count, x->incl, x->excl,
       x->vset ? x->vmin : UINT64_MAX, x->vset ? x->vmax : 0)
  ROWS(s->pm, pt__pm, 3, x->sent, x->bsent, x->recv, x->brecv)
  ROWS(s->mx, mx_rec, 3, x->count, x->bytes, x->ls, x->lr, x->matched)
  ROWS(s->cs, cs_rec, 3, x->calls, x->time, x->msgs, x->bytes, x->bmin,
       x->bmax, x->rmsgs, x->rbytes, x->tset ? x->tmin : UINT64_MAX,
       x->tset ? x->tmax : 0)
  ROWS(s->rel, rel_rec, 2, x->count, x->time, x->bytes)
  ROWS(s->io, pt__io, 4, x->ops, x->bytes, x->bmin, x->bmax, x->requested,
       x->time, x->shorts, x->unfinished)
  if (rc == PT_OK) rc = put64(&b, s->mets.n);
  for (size_t i = 0; i < s->mets.n && rc == PT_OK; i++) {
    const pt__met *m = pt__kt_at(&s->mets, i);
    rc = put64(&b, m->k[0]);
    if (rc == PT_OK) rc = put64(&b, (uint64_t)m->type | (uint64_t)m->mode << 32);
    if (rc == PT_OK) rc = putstr(&b, m->name);
    if (rc == PT_OK) rc = putstr(&b, m->unit);
  }
  ROWS(s->mv, pt__mv, 2, x->n, x->t_first, x->t_last, dbits(x->min),
       dbits(x->max), dbits(x->sum), dbits(x->first), dbits(x->last))
  ROWS(s->mr, pt__mr, 2, x->visits, dbits(x->delta), dbits(x->dmin),
       dbits(x->dmax))
#undef ROWS
  /* unmatched messages: per channel its key, side and queue */
  uint64_t nq = 0;
  if (rc == PT_OK) rc = put64(&b, s->chans.n);
  for (size_t i = 0; i < s->chans.n && rc == PT_OK; i++) {
    const pt__chan *c = pt__kt_at(&s->chans, i);
    uint64_t n = 0;
    for (uint32_t j = c->head; j != NIL; j = s->pends[j].next) n++;
    for (size_t j = 0; j < 4 && rc == PT_OK; j++) rc = put64(&b, c->k[j]);
    if (rc == PT_OK) rc = put64(&b, (uint64_t)c->recvs);
    if (rc == PT_OK) rc = put64(&b, n);
    for (uint32_t j = c->head; j != NIL && rc == PT_OK; j = s->pends[j].next)
      rc = putpend(&b, &s->pends[j]);
    nq += n;
  }
  /* version 9: their locations and ords, then a part's deferral */
  if (rc == PT_OK) rc = put64(&b, nq);
  for (size_t i = 0; i < s->chans.n && rc == PT_OK; i++) {
    const pt__chan *c = pt__kt_at(&s->chans, i);
    for (uint32_t j = c->head; j != NIL && rc == PT_OK; j = s->pends[j].next) {
      rc = put64(&b, s->pends[j].src);
      if (rc == PT_OK) rc = put64(&b, s->pends[j].ord);
    }
  }
  if (rc == PT_OK) rc = put64(&b, (uint64_t)s->part);
  if (rc == PT_OK) rc = put64(&b, s->defers.n);
  for (size_t i = 0; i < s->defers.n && rc == PT_OK; i++) {
    const pt__defer *d = pt__kt_at(&s->defers, i);
    uint64_t w[] = {d->k[0], d->k[1], d->time, d->src, d->ord};
    for (size_t k = 0; k < sizeof w / sizeof *w && rc == PT_OK; k++)
      rc = put64(&b, w[k]);
  }
  if (rc == PT_OK) rc = put64(&b, s->ndmsgs);
  for (size_t i = 0; i < s->ndmsgs && rc == PT_OK; i++) {
    const pt__dmsg *m = &s->dmsgs[i];
    for (size_t j = 0; j < 4 && rc == PT_OK; j++) rc = put64(&b, m->k[j]);
    if (rc == PT_OK) rc = put64(&b, m->recv);
    if (rc == PT_OK) rc = putpend(&b, &s->pends[m->pi]);
    if (rc == PT_OK) rc = put64(&b, s->pends[m->pi].src);
    if (rc == PT_OK) rc = put64(&b, s->pends[m->pi].ord);
  }
  /* the collective wait states (a part's: with its unfinished instances) */
  int waits = s->coll && (s->have & PT_STATS_HAVE_WAITS);
  if (rc == PT_OK) rc = put64(&b, (uint64_t)waits);
  if (rc == PT_OK && waits) {
    uint64_t *w = NULL;
    size_t nw = 0;
    rc = pt__stats_coll_words(s, &w, &nw);
    if (rc == PT_OK) rc = put64(&b, nw);
    for (size_t i = 0; i < nw && rc == PT_OK; i++) rc = put64(&b, w[i]);
    free(w);
  }
  if (rc == PT_OK) rc = put64(&b, (uint64_t)s->part_overflow);
  if (rc < 0) {
    pt__buf_free(&b);
    return rc;
  }
  *buf = b.p;
  *len = b.len;
  return PT_OK;
}

void pt_stats_buffer_free(void *buf) { free(buf); }

typedef struct rd {
  const uint8_t *p, *end;
  int bad;
} rd;
static uint64_t get64(rd *r) {
  if (r->bad || r->end - r->p < 8) {
    r->bad = 1;
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[i] << (8 * i);
  r->p += 8;
  return v;
}
/* A count of items of at least `min` bytes each that fits the rest. */
/* The values of a deserialized (metric, location) row are possible: the
 * samples finite (the engine counts no others), min <= first, last <= max;
 * the sum not NaN (it may overflow to an infinity). */
static int mv_ok(const pt__mv *x) {
  return isfinite(x->min) && isfinite(x->max) && x->min <= x->first &&
         x->first <= x->max && x->min <= x->last && x->last <= x->max &&
         !isnan(x->sum);
}

static uint64_t getcount(rd *r, size_t min) {
  uint64_t n = get64(r);
  if (!r->bad && n > (uint64_t)(r->end - r->p) / min) r->bad = 1;
  return r->bad ? 0 : n;
}
static char *getstr(rd *r) {
  uint64_t n = getcount(r, 1);
  size_t padded = (size_t)((n + 7) / 8 * 8);
  if (r->bad || (size_t)(r->end - r->p) < padded) {
    r->bad = 1;
    return NULL;
  }
  char *str = malloc((size_t)n + 1);
  if (!str) return NULL;
  memcpy(str, r->p, (size_t)n);
  str[n] = 0;
  r->p += padded;
  return str;
}
/* A name table as putnames wrote it; PT_OK, or PT_ENOMEM (r->bad: the
 * caller's check). */
static int getnames(rd *r, pt__ktab *t) {
  uint64_t n = getcount(r, 16);
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    uint64_t id = get64(r);
    char *name = getstr(r);
    if (r->bad) break;
    if (!name) return PT_ENOMEM;
    int rc = pt__names_put(t, id, name);
    free(name);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

/* An unmatched message (its location its process's, its ord its place in
 * the buffer: version 9 gives them after the queues). */
static void getpend(rd *r, pt_stats *s, pt__pend *p) {
  memset(p, 0, sizeof *p);
  p->loc = get64(r);
  p->src = p->loc;
  p->enter = get64(r);
  p->wait = get64(r);
  p->blocking = get64(r) != 0;
  p->in_w = get64(r) != 0;
  p->ev.time = get64(r);
  p->ev.kind = (uint32_t)get64(r);
  p->ev.ref = get64(r);
  p->ev.peer = (int64_t)get64(r);
  p->ev.comm = get64(r);
  p->ev.tag = (int64_t)get64(r);
  p->ev.size = get64(r);
  p->ev.request = get64(r);
  p->left = get64(r) != 0;
  p->leave = get64(r);
  p->ord = s->nord++;
}

int pt_stats_deserialize(pt_stats **out, const void *buf, size_t len) {
  assert(out && (buf || !len));
  *out = NULL;
  rd r = {buf, (const uint8_t *)buf + len, 0};
  if (len < 8 || memcmp(buf, SER_MAGIC, 4) != 0) return PT_EFORMAT;
  int ver = r.p[4];
  if (ver < SER_VERSION_MIN || ver > SER_VERSION) return PT_EVERSION;
  r.p += 8;
  merge_pend *q = NULL; /* the unmatched messages read */
  size_t nq = 0, qcap = 0;
  uint64_t head[9];
  for (int i = 0; i < 9; i++) head[i] = get64(&r);
  if (r.bad || head[0] > head[1] || head[4] > PT_STATS_BY_COMM) return PT_ECORRUPT;
  pt_stats_opts o = {0};
  o.from = head[0];
  o.to = head[1] == UINT64_MAX ? 0 : head[1];
  o.end = head[2];
  o.relative_to = head[3];
  o.matrix_by = (uint32_t)head[4];
  pt_stats *s = NULL;
  int rc = pt_stats_create(&s, &o);
  if (rc < 0) return rc;
  s->frozen = s->finished = 1;
  s->end_eff = head[2];
  s->have = (uint32_t)head[5] & (PT_STATS_HAVE_PROFILE | PT_STATS_HAVE_DETAIL |
                                 PT_STATS_HAVE_VISITS | PT_STATS_HAVE_CALLSITES |
                                 PT_STATS_HAVE_LATE |
                                 PT_STATS_HAVE_METRIC_REGIONS |
                                 (ver >= 8 ? PT_STATS_HAVE_CALL_TIMES : 0));
  s->events = head[6];
  s->rel_count = head[7];
  s->rel_time = head[8];
  uint64_t n = getcount(&r, 24);
  for (uint64_t i = 0; i < n && !r.bad; i++) {
    uint64_t id = get64(&r), mpi = get64(&r);
    char *name = getstr(&r);
    if (r.bad) break;
    reg_rec *x = name ? pt__kt_get(&s->regions, K(id, 0, 0, 0)) : NULL;
    if (!x) {
      free(name);
      goto nomem;
    }
    free(x->name);
    x->name = name;
    x->is_mpi = (mpi & 1) != 0;
    x->role = (int)(mpi >> 8 & 0xff);
    x->paradigm = (int)(mpi >> 16 & 0xff);
    x->special = special_of(name);
  }
  if (getnames(&r, &s->callsites) < 0 || getnames(&r, &s->files) < 0)
    goto nomem;
  n = getcount(&r, 32);
  for (uint64_t i = 0; i < n && !r.bad; i++) {
    uint64_t id = get64(&r), fl = get64(&r), ie = get64(&r), fs = get64(&r);
    if (r.bad) break;
    pt__loc *L = pt__stats_loc(s, id);
    if (!L) goto nomem;
    L->has_init = (fl & 1) != 0;
    L->has_fin = (fl & 2) != 0;
    L->init_end = ie;
    L->fin_start = fs;
  }
#define ROWS(TAB, TYPE, NK, NV, ...)                                        \
  n = getcount(&r, 8 * (NK + NV));                                          \
  for (uint64_t i = 0; i < n && !r.bad; i++) {                              \
    uint64_t k[4] = {0, 0, 0, 0}, v[NV];                                    \
    for (size_t j = 0; j < NK; j++) k[j] = get64(&r);                       \
    for (size_t j = 0; j < NV; j++) v[j] = get64(&r);                       \
    TYPE *x = pt__kt_get(&(TAB), k);                                        \
    if (!x) goto nomem;                                                     \
    __VA_ARGS__;                                                            \
  }
  ROWS(s->rl, pt__rl, 2, 5, x->count = v[0], x->incl = v[1], x->excl = v[2],
       x->vmin = v[3], x->vmax = v[4], x->vset = v[3] != UINT64_MAX)
  ROWS(s->pm, pt__pm, 3, 4, x->sent = v[0], x->bsent = v[1], x->recv = v[2],
       x->brecv = v[3], r.bad |= k[2] > 1) /* k[2]: 1 = one-sided */
  ROWS(s->mx, mx_rec, 3, 5, x->count = v[0], x->bytes = v[1], x->ls = v[2],
       x->lr = v[3], x->matched = v[4])
  if (ver >= 8) { /* (region, call site, location + 1) */
    ROWS(s->cs, cs_rec, 3, 10, x->calls = v[0], x->time = v[1],
         x->msgs = v[2], x->bytes = v[3], x->bmin = v[4], x->bmax = v[5],
         x->rmsgs = v[6], x->rbytes = v[7], x->nb = x->msgs, x->tmin = v[8],
         x->tmax = v[9], x->tset = v[8] != UINT64_MAX,
         r.bad |= k[2] == 0 || (x->tset && x->tmin > x->tmax))
  } else { /* 7: (region, call site), summed over the locations */
    ROWS(s->cs, cs_rec, 2, 8, x->calls = v[0], x->time = v[1],
         x->msgs = v[2], x->bytes = v[3], x->bmin = v[4], x->bmax = v[5],
         x->rmsgs = v[6], x->rbytes = v[7], x->nb = x->msgs)
  }
  ROWS(s->rel, rel_rec, 2, 3, x->count = v[0], x->time = v[1],
       x->bytes = v[2])
  ROWS(s->io, pt__io, 4, 8, x->ops = v[0], x->bytes = v[1], x->bmin = v[2],
       x->bmax = v[3], x->requested = v[4], x->time = v[5], x->shorts = v[6],
       x->unfinished = v[7], r.bad |= x->unfinished > x->ops)
  n = getcount(&r, 32); /* id, type | mode, two lengths: 32 bytes at least */
  for (uint64_t i = 0; i < n && !r.bad; i++) {
    uint64_t id = get64(&r), tm = get64(&r);
    char *name = getstr(&r), *unit = r.bad ? NULL : getstr(&r);
    if (r.bad || (tm >> 32) > PT_METRIC_RELATIVE) {
      r.bad = 1;
      free(name);
      free(unit);
      break;
    }
    pt__met *m = name && unit ? pt__kt_get(&s->mets, K(id, 0, 0, 0)) : NULL;
    if (!m) {
      free(name);
      free(unit);
      goto nomem;
    }
    free(m->name);
    free(m->unit);
    m->name = name;
    m->unit = unit;
    m->type = (uint32_t)tm;
    m->mode = (uint32_t)(tm >> 32);
  }
  ROWS(s->mv, pt__mv, 2, 8, x->n = v[0], x->t_first = v[1], x->t_last = v[2],
       x->min = bitsd(v[3]), x->max = bitsd(v[4]), x->sum = bitsd(v[5]),
       x->first = bitsd(v[6]), x->last = bitsd(v[7]),
       r.bad |= x->n == 0 || x->t_first > x->t_last || !mv_ok(x))
  ROWS(s->mr, pt__mr, 2, 4, x->visits = v[0], x->delta = bitsd(v[1]),
       x->dmin = bitsd(v[2]), x->dmax = bitsd(v[3]),
       r.bad |= x->visits == 0 || isnan(x->delta) || !(x->dmin <= x->dmax))
#undef ROWS
  n = getcount(&r, 48);
  for (uint64_t i = 0; i < n && !r.bad; i++) {
    uint64_t ck[4];
    for (int j = 0; j < 4; j++) ck[j] = get64(&r);
    int recvs = get64(&r) != 0;
    uint64_t m = getcount(&r, 120);
    for (uint64_t j = 0; j < m && !r.bad; j++) {
      pt__pend p;
      getpend(&r, s, &p);
      if (r.bad) break;
      if (nq == qcap) {
        size_t nc = qcap ? qcap * 2 : 16;
        merge_pend *x = realloc(q, nc * sizeof *x);
        if (!x) goto nomem;
        q = x;
        qcap = nc;
      }
      merge_put(&q[nq], nq, ck, recvs, &p);
      nq++;
    }
  }
  if (ver >= 9 && !r.bad) { /* their locations and ords */
    if (getcount(&r, 16) != nq) r.bad = 1;
    for (size_t i = 0; i < nq && !r.bad; i++) {
      q[i].p.src = get64(&r);
      q[i].p.ord = get64(&r);
    }
  }
  /* queued as they were: a channel holds one side only */
  for (size_t i = 0; i < nq && !r.bad; i++)
    if ((rc = chan_add(s, q[i].k, &q[i].p, q[i].recvs)) < 0) goto fail;
  if (ver >= 9 && !r.bad) {
    s->part = get64(&r) != 0;
    n = getcount(&r, 40);
    for (uint64_t i = 0; i < n && !r.bad; i++) {
      uint64_t w[5];
      for (int j = 0; j < 5; j++) w[j] = get64(&r);
      if (r.bad) break;
      pt__defer *d = pt__kt_get(&s->defers, K(w[0], w[1], 0, 0));
      if (!d) goto nomem;
      d->time = w[2];
      d->src = w[3];
      d->ord = w[4];
    }
    n = getcount(&r, 40 + 8 * PEND_WORDS + 16);
    for (uint64_t i = 0; i < n && !r.bad; i++) {
      uint64_t ck[4];
      for (int j = 0; j < 4; j++) ck[j] = get64(&r);
      int recv = get64(&r) != 0;
      pt__pend p;
      getpend(&r, s, &p);
      p.src = get64(&r);
      p.ord = get64(&r);
      if (r.bad) break;
      if ((rc = defer_add(s, ck, &p, recv, NULL)) < 0) goto fail;
    }
    if (get64(&r) && !r.bad) { /* collective wait states */
      size_t nw = (size_t)getcount(&r, 8);
      uint64_t *w = r.bad ? NULL : malloc((nw ? nw : 1) * sizeof *w);
      if (!r.bad && !w) goto nomem;
      for (size_t i = 0; i < nw && !r.bad; i++) w[i] = get64(&r);
      rc = r.bad ? PT_OK : pt__stats_coll_load(s, w, nw);
      free(w);
      if (rc < 0) goto fail;
      if (!r.bad) s->have |= PT_STATS_HAVE_WAITS;
    }
    s->part_overflow = get64(&r) != 0;
  }
  if (r.bad || r.p != r.end) {
    rc = PT_ECORRUPT;
    goto fail;
  }
  free(q);
  *out = s;
  return PT_OK;
nomem:
  rc = PT_ENOMEM;
fail:
  free(q);
  pt_stats_destroy(s);
  return rc;
}
