/* The timeline view: layout (this file's first half) and the HTML / SVG
 * writers (timeline_out.c).  See timeline.h. */
#include "paratrace/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "paratrace/status.h"
#include "timeline_int.h"

/* ---- tables ------------------------------------------------------------- */

static size_t mix(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t h = a * 0x9E3779B97F4A7C15ULL;
  h ^= b + 0x7F4A7C159E3779B9ULL + (h << 6) + (h >> 2);
  h ^= c * 0xC2B2AE3D27D4EB4FULL + (h << 6) + (h >> 2);
  h ^= (uint64_t)d * 0x165667B19E3779F9ULL + (h << 6) + (h >> 2);
  return (size_t)(h ^ (h >> 29));
}

/* id -> index (u32), open addressing. */
static int idx_put(tl_idx *m, uint64_t k, uint32_t v) {
  if ((m->n + 1) * 2 > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 64;
    uint64_t *nk = malloc(nc * sizeof *nk);
    uint32_t *nv = malloc(nc * sizeof *nv);
    if (!nk || !nv) {
      free(nk);
      free(nv);
      return PT_ENOMEM;
    }
    for (size_t i = 0; i < nc; i++) nv[i] = UINT32_MAX;
    for (size_t i = 0; i < m->cap; i++) {
      if (m->v[i] == UINT32_MAX) continue;
      size_t j = mix(m->k[i], 0, 0, 0) & (nc - 1);
      while (nv[j] != UINT32_MAX) j = (j + 1) & (nc - 1);
      nk[j] = m->k[i];
      nv[j] = m->v[i];
    }
    free(m->k);
    free(m->v);
    m->k = nk;
    m->v = nv;
    m->cap = nc;
  }
  size_t j = mix(k, 0, 0, 0) & (m->cap - 1);
  while (m->v[j] != UINT32_MAX && m->k[j] != k) j = (j + 1) & (m->cap - 1);
  if (m->v[j] == UINT32_MAX) m->n++;
  m->k[j] = k;
  m->v[j] = v;
  return PT_OK;
}

static uint32_t idx_get(const tl_idx *m, uint64_t k) {
  if (!m->cap) return UINT32_MAX;
  size_t j = mix(k, 0, 0, 0) & (m->cap - 1);
  for (; m->v[j] != UINT32_MAX; j = (j + 1) & (m->cap - 1))
    if (m->k[j] == k) return m->v[j];
  return UINT32_MAX;
}

static void idx_free(tl_idx *m) {
  free(m->k);
  free(m->v);
  memset(m, 0, sizeof *m);
}

#define GROW(arr, n, cap)                                            \
  do {                                                               \
    if ((n) == (cap)) {                                              \
      size_t nc_ = (cap) ? (cap) * 2 : 64;                           \
      void *p_ = realloc((arr), nc_ * sizeof *(arr));                \
      if (!p_) return PT_ENOMEM;                                     \
      (arr) = p_;                                                    \
      (cap) = nc_;                                                   \
    }                                                                \
  } while (0)

/* ---- setup -------------------------------------------------------------- */

pt_timeline *pt_timeline_new(const pt_timeline_opts *o) {
  pt_timeline *tl = calloc(1, sizeof *tl);
  if (!tl) return NULL;
  tl->o = *o;
  pt__kt_init(&tl->pairs, sizeof(pt__oheap));
  pt__kt_init(&tl->dsts, sizeof(pt__oheap));
  if (tl->o.to <= tl->o.from) tl->o.to = tl->o.from + 1;
  if (!tl->o.bins) tl->o.bins = 2000;
  if (!tl->o.util_bins) tl->o.util_bins = 400;
  if (!tl->o.max_items) tl->o.max_items = 200000;
  tl->agg = tl->o.expected_bars > tl->o.max_items;
  uint64_t msg_budget = tl->o.max_items / 4 + 1;
  tl->sample = tl->o.expected_msgs > msg_budget
                   ? (tl->o.expected_msgs + msg_budget - 1) / msg_budget
                   : 1;
  /* collectives on a budget of their own: thousands of messages no longer
   * thin out a few hundred collectives (ABySS: 41 of 292 were drawn) */
  tl->coll_sample = tl->o.expected_colls > msg_budget
                        ? (tl->o.expected_colls + msg_budget - 1) / msg_budget
                        : 1;
  /* (kept modulo coll_sample in a u32 per row and communicator) */
  if (tl->coll_sample > UINT32_MAX - 1) tl->coll_sample = UINT32_MAX - 1;
  if (o->nlocations) {
    tl->sel = malloc(o->nlocations * sizeof *tl->sel);
    if (!tl->sel) {
      free(tl);
      return NULL;
    }
    memcpy(tl->sel, o->locations, o->nlocations * sizeof *tl->sel);
    tl->o.locations = tl->sel;
  }
  return tl;
}

void pt_timeline_free(pt_timeline *tl) {
  if (!tl) return;
  for (size_t i = 0; i < tl->nrows; i++) {
    free(tl->rows[i].stack);
    free(tl->rows[i].util);
    free(tl->rows[i].bin);
    free(tl->rows[i].name);
  }
  free(tl->rows);
  for (size_t i = 0; i < tl->nregions; i++) free(tl->regions[i].name);
  free(tl->regions);
  for (size_t i = 0; i < tl->nlocdefs; i++) free(tl->locdefs[i].name);
  free(tl->locdefs);
  free(tl->groups);
  free(tl->bars);
  free(tl->msgs);
  free(tl->colls);
  for (size_t i = 0; i < tl->chcap; i++) free(tl->ch[i].q);
  free(tl->ch);
  for (size_t i = 0; i < tl->pairs.n; i++)
    pt__oh_free(pt__kt_at(&tl->pairs, i));
  for (size_t i = 0; i < tl->dsts.n; i++)
    pt__oh_free(pt__kt_at(&tl->dsts, i));
  pt__kt_free(&tl->pairs);
  pt__kt_free(&tl->dsts);
  idx_free(&tl->row_of);
  idx_free(&tl->region_of);
  idx_free(&tl->coll_seen);
  idx_free(&tl->locdef_of);
  idx_free(&tl->group_of);
  idx_free(&tl->rank_loc);
  free(tl->sel);
  free(tl);
}

static int selected(const pt_timeline *tl, uint64_t loc) {
  if (!tl->o.nlocations) return 1;
  for (size_t i = 0; i < tl->o.nlocations; i++)
    if (tl->o.locations[i] == loc) return 1;
  return 0;
}

static char *dupstr(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

int pt_timeline_def(pt_timeline *tl, const pt_def *d) {
  switch (d->kind) {
    case PT_DEF_REGION: {
      uint32_t i = idx_get(&tl->region_of, d->id);
      if (i == UINT32_MAX) {
        GROW(tl->regions, tl->nregions, tl->capregions);
        i = (uint32_t)tl->nregions++;
        memset(&tl->regions[i], 0, sizeof tl->regions[i]);
        tl->regions[i].id = d->id;
        if (idx_put(&tl->region_of, d->id, i)) return PT_ENOMEM;
      }
      tl_region *r = &tl->regions[i];
      free(r->name);
      r->name = dupstr(d->name ? d->name : "");
      if (!r->name) return PT_ENOMEM;
      r->mpi = d->i1 == PT_PARADIGM_MPI || strncmp(r->name, "MPI_", 4) == 0;
      return PT_OK;
    }
    case PT_DEF_LOCATION: {
      uint32_t i = idx_get(&tl->locdef_of, d->id);
      if (i == UINT32_MAX) {
        GROW(tl->locdefs, tl->nlocdefs, tl->caplocdefs);
        i = (uint32_t)tl->nlocdefs++;
        memset(&tl->locdefs[i], 0, sizeof tl->locdefs[i]);
        if (idx_put(&tl->locdef_of, d->id, i)) return PT_ENOMEM;
      }
      tl->locdefs[i].id = d->id;
      tl->locdefs[i].group = d->parent;
      free(tl->locdefs[i].name);
      tl->locdefs[i].name = d->name ? dupstr(d->name) : NULL;
      return PT_OK;
    }
    case PT_DEF_LOCATION_GROUP: {
      uint32_t i = idx_get(&tl->group_of, d->id);
      if (i == UINT32_MAX) {
        GROW(tl->groups, tl->ngroups, tl->capgroups);
        i = (uint32_t)tl->ngroups++;
        if (idx_put(&tl->group_of, d->id, i)) return PT_ENOMEM;
      }
      tl->groups[i].id = d->id;
      tl->groups[i].rank = d->i1;
      return PT_OK;
    }
    case PT_DEF_CLOCK:
      return PT_OK;
    default:
      return PT_OK;
  }
}

/* Peers are COMM_WORLD ranks when the groups carry distinct ranks (then
 * rank -> its first location), else location ids.  Decided at the first
 * event. */
static int freeze(pt_timeline *tl) {
  tl->frozen = 1;
  int distinct = tl->ngroups > 0;
  tl_idx seen = {0};
  for (size_t i = 0; i < tl->ngroups && distinct; i++) {
    if (idx_get(&seen, (uint64_t)tl->groups[i].rank) != UINT32_MAX)
      distinct = 0;
    else if (idx_put(&seen, (uint64_t)tl->groups[i].rank, 1)) {
      idx_free(&seen);
      return PT_ENOMEM;
    }
  }
  idx_free(&seen);
  tl->by_rank = distinct;
  if (!distinct) return PT_OK;
  /* rank -> the lowest location id of its group */
  for (size_t i = 0; i < tl->nlocdefs; i++) {
    uint32_t g = idx_get(&tl->group_of, tl->locdefs[i].group);
    if (g == UINT32_MAX) continue;
    uint64_t rk = (uint64_t)tl->groups[g].rank;
    uint32_t cur = idx_get(&tl->rank_loc, rk);
    if (cur == UINT32_MAX || tl->locdefs[cur].id > tl->locdefs[i].id)
      if (idx_put(&tl->rank_loc, rk, (uint32_t)i)) return PT_ENOMEM;
  }
  return PT_OK;
}

/* The location that `peer` of an event names, or PT_NONE. */
static uint64_t peer_loc(const pt_timeline *tl, int64_t peer) {
  if (peer < 0) return PT_NONE;
  if (!tl->by_rank) return (uint64_t)peer;
  uint32_t i = idx_get(&tl->rank_loc, (uint64_t)peer);
  return i == UINT32_MAX ? PT_NONE : tl->locdefs[i].id;
}

/* The rank (or location id) of location loc, for channel keys. */
static uint64_t loc_key(const pt_timeline *tl, uint64_t loc) {
  if (!tl->by_rank) return loc;
  uint32_t i = idx_get(&tl->locdef_of, loc);
  if (i == UINT32_MAX) return loc;
  uint32_t g = idx_get(&tl->group_of, tl->locdefs[i].group);
  return g == UINT32_MAX ? loc : (uint64_t)tl->groups[g].rank;
}

static tl_row *row_for(pt_timeline *tl, uint64_t loc, uint32_t *ix) {
  uint32_t i = idx_get(&tl->row_of, loc);
  if (i != UINT32_MAX) {
    *ix = i;
    return &tl->rows[i];
  }
  if (tl->nrows == tl->caprows) {
    size_t nc = tl->caprows ? tl->caprows * 2 : 16;
    tl_row *n = realloc(tl->rows, nc * sizeof *n);
    if (!n) return NULL;
    tl->rows = n;
    tl->caprows = nc;
  }
  tl_row *r = &tl->rows[tl->nrows];
  memset(r, 0, sizeof *r);
  r->loc = loc;
  r->last = tl->o.from;
  r->util = calloc(2 * (size_t)tl->o.util_bins, sizeof *r->util);
  if (!r->util) return NULL;
  if (tl->agg) {
    r->bin = calloc((size_t)tl->o.bins, sizeof *r->bin);
    if (!r->bin) {
      free(r->util);
      return NULL;
    }
  }
  if (idx_put(&tl->row_of, loc, (uint32_t)tl->nrows)) {
    free(r->util);
    free(r->bin);
    return NULL;
  }
  *ix = (uint32_t)tl->nrows++;
  return r;
}

/* ---- accounting --------------------------------------------------------- */

/* Add [a, b) spent in `region` (innermost; UINT32_MAX: none) to the row's
 * utilisation bins and, aggregated, to its drawing bins. */
static void account(pt_timeline *tl, tl_row *r, uint64_t a, uint64_t b,
                    uint32_t region) {
  if (b <= a || region == UINT32_MAX) return;
  uint64_t span = tl->o.to - tl->o.from;
  int mpi = tl->regions[region].mpi;
  for (int pass = 0; pass < 2; pass++) {
    uint32_t nb = pass ? tl->o.bins : tl->o.util_bins;
    if (pass && !tl->agg) break;
    uint64_t lo = a - tl->o.from, hi = b - tl->o.from;
    uint64_t i0 = (uint64_t)((long double)lo * nb / span);
    uint64_t i1 = (uint64_t)((long double)(hi - 1) * nb / span);
    if (i1 >= nb) i1 = nb - 1;
    for (uint64_t i = i0; i <= i1; i++) {
      uint64_t bs = tl->o.from + (uint64_t)((long double)i * span / nb);
      uint64_t be = tl->o.from + (uint64_t)((long double)(i + 1) * span / nb);
      uint64_t s = a > bs ? a : bs, e = b < be ? b : be;
      if (e <= s) continue;
      uint64_t d = e - s;
      if (!pass) {
        r->util[2 * i + (mpi ? 1 : 0)] += d;
        continue;
      }
      tl_bin *x = &r->bin[i];
      /* two candidates per bin; the one that covered more is drawn */
      if (x->r[0] == region + 1) x->ns[0] += d;
      else if (x->r[1] == region + 1) x->ns[1] += d;
      else if (!x->r[0]) x->r[0] = region + 1, x->ns[0] = d;
      else if (!x->r[1]) x->r[1] = region + 1, x->ns[1] = d;
      else if (d > x->ns[1]) x->r[1] = region + 1, x->ns[1] = d;
      if (x->ns[1] > x->ns[0]) {
        tl_bin t = *x;
        x->r[0] = t.r[1], x->ns[0] = t.ns[1];
        x->r[1] = t.r[0], x->ns[1] = t.ns[0];
      }
    }
  }
}

static uint64_t clip(const pt_timeline *tl, uint64_t t) {
  return t < tl->o.from ? tl->o.from : t > tl->o.to ? tl->o.to : t;
}

static uint32_t region_index(pt_timeline *tl, uint64_t id) {
  uint32_t i = idx_get(&tl->region_of, id);
  if (i != UINT32_MAX) return i;
  /* an undefined region: named by its id */
  char buf[40];
  snprintf(buf, sizeof buf, "region %llu", (unsigned long long)id);
  pt_def d;
  pt_def_init(&d, PT_DEF_REGION, id);
  d.name = buf;
  if (pt_timeline_def(tl, &d)) return UINT32_MAX;
  return idx_get(&tl->region_of, id);
}

static int add_bar(pt_timeline *tl, uint32_t row, uint32_t depth, uint32_t region,
                   uint64_t t0, uint64_t t1) {
  if (tl->agg || t1 < tl->o.from || (t1 == tl->o.from && t0 < t1))
    return PT_OK; /* ended before the window (times not clipped yet) */
  if (tl->nbars >= tl->o.max_items) {
    tl->truncated = 1;
    return PT_OK;
  }
  GROW(tl->bars, tl->nbars, tl->capbars);
  pt_timeline_bar *b = &tl->bars[tl->nbars++];
  b->row = row;
  b->depth = depth;
  b->region = region; /* index until finish */
  b->t0 = clip(tl, t0);
  b->t1 = clip(tl, t1);
  return PT_OK;
}

/* ---- messages ----------------------------------------------------------- */

static tl_chan *chan_find(pt_timeline *tl, uint64_t s, uint64_t d, uint64_t c,
                          int64_t tag, int create) {
  if (create && (tl->nch + 1) * 2 > tl->chcap) {
    size_t nc = tl->chcap ? tl->chcap * 2 : 256;
    tl_chan *n = calloc(nc, sizeof *n);
    if (!n) return NULL;
    for (size_t i = 0; i < tl->chcap; i++) {
      if (!tl->ch[i].used) continue;
      tl_chan *o = &tl->ch[i];
      size_t j = mix(o->src, o->dst, o->comm, (uint64_t)o->tag) & (nc - 1);
      while (n[j].used) j = (j + 1) & (nc - 1);
      n[j] = *o;
    }
    free(tl->ch);
    tl->ch = n;
    tl->chcap = nc;
  }
  if (!tl->chcap) return NULL;
  size_t j = mix(s, d, c, (uint64_t)tag) & (tl->chcap - 1);
  for (; tl->ch[j].used; j = (j + 1) & (tl->chcap - 1)) {
    tl_chan *x = &tl->ch[j];
    if (x->src == s && x->dst == d && x->comm == c && x->tag == tag) return x;
  }
  if (!create) return NULL;
  tl_chan *x = &tl->ch[j];
  memset(x, 0, sizeof *x);
  x->used = 1;
  x->src = s, x->dst = d, x->comm = c, x->tag = tag;
  tl->nch++;
  return x;
}

/* Whether e is the current entry of its channel: the channel's oldest
 * send is the one e names. */
static int send_valid(void *user, const pt__oheap *h, const pt__oh_ent *e) {
  pt_timeline *tl = user;
  const tl_chan *c =
      chan_find(tl, e->ch[0], h->k[0], h->k[1], (int64_t)e->ch[1], 0);
  return c && c->n && c->q[c->head].seq == e->serial &&
         c->q[c->head].t == e->key[0];
}

/* Channel c (tag >= 0, holding sends) into the heaps of its pair, its
 * destination and its destination's tag: its oldest send, by time, then
 * sender, then tag (is_new: it begins to hold sends). */
static int lists_push(pt_timeline *tl, const tl_chan *c, int is_new) {
  const tl_pend *p = &c->q[c->head];
  const pt__oh_ent e = {{p->t, c->src, (uint64_t)c->tag, 0},
                        {c->src, (uint64_t)c->tag},
                        p->seq};
  return pt__oh_push_chan(&tl->pairs, &tl->dsts, c->dst, c->comm, c->src,
                          c->tag, &e, is_new, send_valid, tl);
}

/* Channel c holds no more sends: its entries are stale. */
static void lists_gone(pt_timeline *tl, const tl_chan *c) {
  pt__oh_gone_chan(&tl->pairs, &tl->dsts, c->dst, c->comm, c->src, c->tag);
}

/* Start keeping the heaps (the first receive that needs them): every
 * channel holding sends goes in. */
static int lists_start(pt_timeline *tl) {
  if (tl->lists) return PT_OK;
  for (size_t i = 0; i < tl->chcap; i++) {
    const tl_chan *c = &tl->ch[i];
    if (c->used && c->n && c->tag >= 0 && lists_push(tl, c, 1) < 0)
      return PT_ENOMEM;
  }
  tl->lists = 1;
  return PT_OK;
}

/* The channel of the oldest send of heap h (NULL: none), or NULL. */
static tl_chan *heap_oldest(pt_timeline *tl, pt__oheap *h) {
  const pt__oh_ent *e = pt__oh_top(h, send_valid, tl);
  return e ? chan_find(tl, e->ch[0], h->k[0], h->k[1], (int64_t)e->ch[1], 0)
           : NULL;
}

static int on_send(pt_timeline *tl, uint32_t row, const pt_event *e) {
  uint64_t dl = peer_loc(tl, e->peer);
  if (dl == PT_NONE || tl->pending >= (1u << 22)) return PT_OK;
  tl_chan *c = chan_find(tl, loc_key(tl, e->location),
                         tl->by_rank ? (uint64_t)e->peer : dl, e->comm,
                         e->tag, 1);
  if (!c) return PT_ENOMEM;
  if (c->n == c->cap) {
    size_t nc = c->cap ? c->cap * 2 : 4;
    tl_pend *q = malloc(nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    for (size_t i = 0; i < c->n; i++) q[i] = c->q[(c->head + i) % c->cap];
    free(c->q);
    c->q = q;
    c->cap = nc;
    c->head = 0;
  }
  tl_pend *p = &c->q[(c->head + c->n) % c->cap];
  p->t = e->time;
  p->bytes = e->size;
  p->row = row;
  p->seq = tl->nsends++;
  c->n++;
  if (c->n == 1 && c->tag >= 0 && tl->lists && lists_push(tl, c, 1) < 0)
    return PT_ENOMEM;
  tl->pending++;
  return PT_OK;
}

static int on_recv(pt_timeline *tl, uint32_t row, const pt_event *e) {
  /* peer -1: MPI_ANY_SOURCE without a status, tag -1: MPI_ANY_TAG
   * without one: the oldest pending send (to this location on the
   * communicator with the tag, of the pair), as stats matches them */
  if (e->peer < -1 || (e->peer == -1 && e->tag < -1)) return PT_OK;
  uint64_t me = loc_key(tl, e->location);
  tl_chan *c = NULL;
  if ((e->peer == -1 || e->tag < 0) && lists_start(tl) < 0) return PT_ENOMEM;
  if (e->peer == -1) {
    /* with a tag, the heap of that tag's senders */
    c = heap_oldest(tl, pt__kt_find(&tl->dsts,
                                    e->tag < 0
                                        ? PT__K(me, e->comm, 0, 0)
                                        : PT__K(me, e->comm, (uint64_t)e->tag, 1)));
  } else {
    uint64_t s = tl->by_rank ? (uint64_t)e->peer : peer_loc(tl, e->peer);
    c = e->tag >= 0 ? chan_find(tl, s, me, e->comm, e->tag, 0)
                    : heap_oldest(tl, pt__kt_find(&tl->pairs,
                                                  PT__K(me, e->comm, s, 0)));
  }
  if (!c || !c->n) return PT_OK;
  tl_pend p = c->q[c->head];
  c->head = (c->head + 1) % c->cap;
  c->n--;
  if (c->tag >= 0 && tl->lists) {
    if (!c->n)
      lists_gone(tl, c);
    else if (lists_push(tl, c, 0) < 0) /* its oldest send changed */
      return PT_ENOMEM;
  }
  tl->pending--;
  tl->matched++;
  if (tl->matched % tl->sample) return PT_OK;
  if (tl->nmsgs >= tl->o.max_items) {
    tl->truncated = 1;
    return PT_OK;
  }
  GROW(tl->msgs, tl->nmsgs, tl->capmsgs);
  pt_timeline_msg *m = &tl->msgs[tl->nmsgs++];
  m->from_row = p.row;
  m->to_row = row;
  m->t_send = clip(tl, p.t);
  m->t_recv = clip(tl, e->time);
  m->bytes = p.bytes;
  m->tag = e->tag;
  return PT_OK;
}

/* ---- events ------------------------------------------------------------- */

/* One-sided operation e of row `row` (its origin): a line for the bytes it
 * sent, origin -> target, and one for those it received, target ->
 * origin, both at its time (the target has no event). */
static int on_rma(pt_timeline *tl, uint32_t row, const pt_event *e) {
  uint64_t tloc = peer_loc(tl, e->peer);
  if (tloc == PT_NONE || !selected(tl, tloc)) return PT_OK;
  uint32_t ti;
  if (!row_for(tl, tloc, &ti)) return PT_ENOMEM;
  for (int dir = 0; dir < 2; dir++) {
    uint64_t bytes = dir ? e->size2 : e->size;
    if (!bytes) continue;
    tl->matched++;
    if (tl->matched % tl->sample) continue;
    if (tl->nmsgs >= tl->o.max_items) {
      tl->truncated = 1;
      return PT_OK;
    }
    GROW(tl->msgs, tl->nmsgs, tl->capmsgs);
    pt_timeline_msg *m = &tl->msgs[tl->nmsgs++];
    m->from_row = dir ? ti : row;
    m->to_row = dir ? row : ti;
    m->t_send = m->t_recv = clip(tl, e->time);
    m->bytes = bytes;
    m->tag = -1;
  }
  return PT_OK;
}

int pt_timeline_event(pt_timeline *tl, const pt_event *e) {
  if (!tl->frozen && freeze(tl)) return PT_ENOMEM;
  if (e->time >= tl->o.to || !selected(tl, e->location)) return PT_OK;
  uint32_t ri;
  tl_row *r = row_for(tl, e->location, &ri);
  if (!r) return PT_ENOMEM;
  uint64_t t = clip(tl, e->time);
  uint32_t inner = r->depth ? r->stack[r->depth - 1].region : UINT32_MAX;
  switch (e->kind) {
    case PT_EV_ENTER: {
      uint32_t reg = region_index(tl, e->ref);
      if (reg == UINT32_MAX) return PT_ENOMEM;
      account(tl, r, r->last, t, inner);
      r->last = t;
      if (r->depth == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 16;
        if (nc > 4096) { /* absurd depth: ignore deeper levels */
          r->overflow++;
          return PT_OK;
        }
        tl_frame *n = realloc(r->stack, nc * sizeof *n);
        if (!n) return PT_ENOMEM;
        r->stack = n;
        r->cap = nc;
      }
      r->stack[r->depth].region = reg;
      r->stack[r->depth].t0 = e->time;
      r->depth++;
      if (r->depth > r->maxdepth) r->maxdepth = r->depth;
      tl->visits++;
      return PT_OK;
    }
    case PT_EV_LEAVE: {
      uint32_t reg = region_index(tl, e->ref);
      if (reg == UINT32_MAX) return PT_ENOMEM;
      if (r->overflow) {
        r->overflow--;
        return PT_OK;
      }
      account(tl, r, r->last, t, inner);
      r->last = t;
      if (!r->depth) /* entered before the window */
        return add_bar(tl, ri, 0, reg, tl->o.from, e->time);
      r->depth--;
      return add_bar(tl, ri, r->depth, r->stack[r->depth].region,
                     r->stack[r->depth].t0, e->time);
    }
    case PT_EV_SEND:
    case PT_EV_ISEND:
      return e->time >= tl->o.from ? on_send(tl, ri, e) : PT_OK;
    case PT_EV_RECV:
    case PT_EV_IRECV:
      return on_recv(tl, ri, e);
    case PT_EV_RMA_PUT:
    case PT_EV_RMA_GET:
    case PT_EV_RMA_ATOMIC:
      return e->time >= tl->o.from ? on_rma(tl, ri, e) : PT_OK;
    case PT_EV_COLL_BEGIN:
      r->coll_t0 = t;
      return PT_OK;
    case PT_EV_COLL_END: {
      if (e->time < tl->o.from) return PT_OK;
      /* every row its own k-th collective of each communicator: the
       * members of one collective are drawn together (a count over all
       * rows drew a different subset of the instances on each row, and
       * so did a count per row over all communicators when a row also
       * took part in collectives of a communicator the others are not in) */
      if (tl->coll_sample > 1) {
        uint64_t seen;
        if (e->comm == PT_NONE) {
          seen = ++r->ncoll_seen;
        } else {
          uint64_t key = mix(ri, e->comm, 0x636f6c6cu, 0);
          uint32_t n = idx_get(&tl->coll_seen, key);
          n = n == UINT32_MAX ? 1 : (uint32_t)((n + 1) % tl->coll_sample);
          if (idx_put(&tl->coll_seen, key, n)) return PT_ENOMEM;
          seen = n;
        }
        if (seen % tl->coll_sample) {
          r->coll_t0 = 0;
          return PT_OK;
        }
      }
      if (tl->ncolls >= tl->o.max_items) {
        tl->truncated = 1;
        return PT_OK;
      }
      GROW(tl->colls, tl->ncolls, tl->capcolls);
      pt_timeline_coll *c = &tl->colls[tl->ncolls++];
      c->row = ri;
      c->op = (uint32_t)e->ref;
      c->t0 = r->coll_t0 && r->coll_t0 <= t ? r->coll_t0 : t;
      c->t1 = t;
      c->bytes = e->size + e->size2;
      r->coll_t0 = 0;
      return PT_OK;
    }
    default:
      return PT_OK;
  }
}

static int cmp_loc(const void *a, const void *b) {
  const tl_row *x = a, *y = b;
  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

int pt_timeline_finish(pt_timeline *tl) {
  if (!tl->frozen && freeze(tl)) return PT_ENOMEM;
  /* regions still open end at the window's end */
  for (uint32_t i = 0; i < tl->nrows; i++) {
    tl_row *r = &tl->rows[i];
    uint32_t inner = r->depth ? r->stack[r->depth - 1].region : UINT32_MAX;
    uint64_t end = tl->o.to;
    account(tl, r, r->last, end, inner);
    r->last = end;
    while (r->depth) {
      r->depth--;
      int rc = add_bar(tl, i, r->depth, r->stack[r->depth].region,
                       r->stack[r->depth].t0, end);
      if (rc) return rc;
    }
  }
  /* rows in location order; items renumbered */
  uint32_t *perm = malloc((tl->nrows + 1) * sizeof *perm);
  if (!perm) return PT_ENOMEM;
  for (uint32_t i = 0; i < tl->nrows; i++) tl->rows[i].order = i;
  if (tl->nrows > 1) qsort(tl->rows, tl->nrows, sizeof *tl->rows, cmp_loc);
  for (uint32_t i = 0; i < tl->nrows; i++) perm[tl->rows[i].order] = i;
  for (size_t i = 0; i < tl->nbars; i++) {
    tl->bars[i].row = perm[tl->bars[i].row];
    tl->bars[i].region = tl->regions[tl->bars[i].region].id;
  }
  for (size_t i = 0; i < tl->nmsgs; i++) {
    tl->msgs[i].from_row = perm[tl->msgs[i].from_row];
    tl->msgs[i].to_row = perm[tl->msgs[i].to_row];
  }
  for (size_t i = 0; i < tl->ncolls; i++) tl->colls[i].row = perm[tl->colls[i].row];
  free(perm);
  idx_free(&tl->row_of);
  for (uint32_t i = 0; i < tl->nrows; i++) {
    if (idx_put(&tl->row_of, tl->rows[i].loc, i)) return PT_ENOMEM;
    uint32_t d = idx_get(&tl->locdef_of, tl->rows[i].loc);
    char buf[64];
    const char *nm = d != UINT32_MAX ? tl->locdefs[d].name : NULL;
    if (!nm) {
      snprintf(buf, sizeof buf, "location %llu",
               (unsigned long long)tl->rows[i].loc);
      nm = buf;
    }
    if (!(tl->rows[i].name = dupstr(nm))) return PT_ENOMEM;
  }
  tl->finished = 1;
  return PT_OK;
}

/* ---- results ------------------------------------------------------------ */

int pt_timeline_aggregated(const pt_timeline *tl) { return tl->agg; }
uint64_t pt_timeline_end(const pt_timeline *tl) { return tl->o.to; }
uint64_t pt_timeline_sample(const pt_timeline *tl) { return tl->sample; }
uint64_t pt_timeline_coll_sample(const pt_timeline *tl) { return tl->coll_sample; }
size_t pt_timeline_nrows(const pt_timeline *tl) { return tl->nrows; }
uint64_t pt_timeline_row_location(const pt_timeline *tl, size_t row) {
  return tl->rows[row].loc;
}
const char *pt_timeline_row_name(const pt_timeline *tl, size_t row) {
  return tl->rows[row].name ? tl->rows[row].name : "";
}
size_t pt_timeline_nbars(const pt_timeline *tl) { return tl->nbars; }
const pt_timeline_bar *pt_timeline_bars(const pt_timeline *tl) { return tl->bars; }
size_t pt_timeline_nmsgs(const pt_timeline *tl) { return tl->nmsgs; }
const pt_timeline_msg *pt_timeline_msgs(const pt_timeline *tl) { return tl->msgs; }
size_t pt_timeline_ncolls(const pt_timeline *tl) { return tl->ncolls; }
const pt_timeline_coll *pt_timeline_colls(const pt_timeline *tl) { return tl->colls; }
uint32_t pt_timeline_util_bins(const pt_timeline *tl) { return tl->o.util_bins; }
void pt_timeline_util(const pt_timeline *tl, size_t row, uint32_t bin, uint64_t *user,
                 uint64_t *mpi) {
  *user = tl->rows[row].util[2 * bin];
  *mpi = tl->rows[row].util[2 * bin + 1];
}
const char *pt_timeline_region_name(const pt_timeline *tl, uint64_t region) {
  uint32_t i = idx_get(&tl->region_of, region);
  return i == UINT32_MAX ? "?" : tl->regions[i].name;
}
int pt_timeline_region_is_mpi(const pt_timeline *tl, uint64_t region) {
  uint32_t i = idx_get(&tl->region_of, region);
  return i != UINT32_MAX && tl->regions[i].mpi;
}
