/* Perfetto / Chrome Trace Event JSON sink (write only).
 *
 * Output: {"traceEvents":[...],"displayTimeUnit":"ns","metadata":{...}}
 * that ui.perfetto.dev and chrome://tracing load:
 *   - pid = location group (process), tid = location (thread); their names
 *     as "M" metadata events (process_name / thread_name);
 *   - ENTER/LEAVE as "B"/"E" slices (per-thread time order keeps nesting);
 *   - point events (marks, user records, messages, collectives ends, I/O)
 *     as "i" instant events with their fields in args;
 *   - messages as flow events: "s" at the send, "f" (bp "e") at the
 *     matching receive, paired FIFO per (sender, receiver, communicator,
 *     tag) as MPI matches them, a receive with tag -1 taking any tag;
 *   - metric samples as "C" counter events of the process;
 *   - one-sided operations (RMA_PUT / RMA_GET / RMA_ATOMIC) as "i" instant
 *     events of category "rma" at the origin, named put / get / the
 *     atomic's kind, with window, target, communicator and bytes in args
 *     (no flow: the model has no event at the target to bind one to).
 * Timestamps are microseconds since the first event, printed with enough
 * decimals to keep the clock's resolution (3 for a 1 GHz clock).  The
 * trace's absolute start tick and resolution are in "metadata".
 * Above 2.5 M events the viewers become impractical: one warning says so
 * and names the options that cut the trace down.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "formats/registry.h"

#define PF_WARN_EVENTS 2500000u

typedef struct pf_name {
  uint64_t id;
  char *name;
} pf_name;

/* Pending message of one (src, dst, comm, tag) channel. */
typedef struct pf_pend {
  uint64_t src, dst, comm;
  int64_t tag;
  uint64_t flow;
  int is_recv;
  uint32_t next; /* chain in the hash bucket; UINT32_MAX = end */
  int used;
} pf_pend;

typedef struct pf_map {
  uint64_t *k, *v;
  size_t n, cap;
} pf_map;

typedef struct pf_sink {
  FILE *f;
  int to_stdout;
  char *name;  /* the output in messages: its path, or "stdout" */
  int ioerr;   /* errno of the first failed write, 0 = none */
  char err[512];
  pt_warn_fn warn;
  void *warn_user;
  pt__arena mem;
  /* definitions */
  pf_name *regions, *metrics, *groups, *locs, *labels;
  size_t nregions, nmetrics, ngroups, nlocs, nlabels;
  size_t capr, capm, capg, capl, capb;
  uint64_t *loc_group; /* pairs (location, group) in locs order */
  int64_t *group_rank; /* pairs (group, rank) in groups order */
  uint64_t tps;
  /* state */
  int started, warned, ranks_checked, ranks_distinct;
  uint64_t nonfinite; /* metric samples JSON cannot hold (NaN, inf) */
  uint64_t t0, events, next_flow;
  int decimals;
  /* pending messages: open hashing over a slab */
  pf_pend *pend;
  size_t npend, cappend;
  uint32_t *bucket;
  size_t nbucket;
  uint32_t free_head;
  /* threads and processes whose names were written; location -> group */
  pf_map named_locs, named_groups, loc_to_group;
  uint64_t last_named;
} pf_sink;

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap * 2 : 16;
  while (c < need) c *= 2;
  void *n = realloc(*p, c * elem);
  if (!n) return PT_ENOMEM;
  *p = n;
  *cap = c;
  return 0;
}

static int add_name(pf_sink *k, pf_name **arr, size_t *n, size_t *cap,
                    uint64_t id, const char *name) {
  if (grow((void **)arr, cap, *n + 1, sizeof **arr)) return PT_ENOMEM;
  char *s = pt__arena_strdup(&k->mem, name ? name : "");
  if (!s) return PT_ENOMEM;
  (*arr)[(*n)++] = (pf_name){id, s};
  return 0;
}

static const char *find_name(const pf_name *a, size_t n, uint64_t id) {
  for (size_t i = n; i-- > 0;) /* later definitions win */
    if (a[i].id == id) return a[i].name;
  return NULL;
}

/* ---- output -------------------------------------------------------------- */

static void jstr(FILE *f, const char *s) { pt__json_str(f, s, 0); }

static void sep(pf_sink *k) {
  if (k->started) fputs(",\n", k->f);
  k->started = 1;
}

/* Microseconds since the first event, with the clock's precision. */
static void ts(pf_sink *k, uint64_t t) {
  uint64_t d = t >= k->t0 ? t - k->t0 : 0;
  uint64_t tps = k->tps ? k->tps : 1000000000u;
  /* d / tps seconds = d * 1e6 / tps microseconds, split to stay exact */
  uint64_t whole = d / tps, rem = d % tps;
  long double frac_us = (long double)rem * 1e6L / (long double)tps;
  uint64_t us = whole * 1000000u + (uint64_t)frac_us;
  long double fr = frac_us - floorl(frac_us);
  if (k->decimals == 0) {
    fprintf(k->f, "%" PRIu64, us);
  } else {
    uint64_t scale = 1;
    for (int i = 0; i < k->decimals; i++) scale *= 10;
    uint64_t f = (uint64_t)(fr * (long double)scale + 0.5L);
    if (f >= scale) {
      us++;
      f -= scale;
    }
    fprintf(k->f, "%" PRIu64 ".%0*" PRIu64, us, k->decimals, f);
  }
}

static int map_get(const pf_map *m, uint64_t key, uint64_t *val);

static uint64_t group_of(const pf_sink *k, uint64_t loc) {
  uint64_t g;
  if (map_get(&k->loc_to_group, loc, &g) && g != PT_NONE) return g;
  return loc;
}

static void head(pf_sink *k, const char *ph, const pt_event *e) {
  sep(k);
  fprintf(k->f, "{\"ph\":\"%s\",\"ts\":", ph);
  ts(k, e->time);
  fprintf(k->f, ",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64, group_of(k, e->location),
          e->location);
}

/* u64 -> u64 map, open addressing; keys stored + 1 (0 = empty), so the
 * key UINT64_MAX (PT_NONE) is never stored: put ignores it, get misses. */
static uint64_t hkey(uint64_t a, uint64_t b, uint64_t c);

static int map_put(pf_map *m, uint64_t key, uint64_t val) {
  if (key == UINT64_MAX) return 0;
  if (2 * (m->n + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 64;
    uint64_t *nk = calloc(cap, sizeof *nk), *nv = calloc(cap, sizeof *nv);
    if (!nk || !nv) {
      free(nk);
      free(nv);
      return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->k[i]) {
        size_t h = (size_t)hkey(m->k[i], 0, 0) & (cap - 1);
        while (nk[h]) h = (h + 1) & (cap - 1);
        nk[h] = m->k[i];
        nv[h] = m->v[i];
      }
    free(m->k);
    free(m->v);
    m->k = nk;
    m->v = nv;
    m->cap = cap;
  }
  size_t h = (size_t)hkey(key + 1, 0, 0) & (m->cap - 1);
  while (m->k[h] && m->k[h] != key + 1) h = (h + 1) & (m->cap - 1);
  if (!m->k[h]) m->n++;
  m->k[h] = key + 1;
  m->v[h] = val;
  return 0;
}

static int map_get(const pf_map *m, uint64_t key, uint64_t *val) {
  if (!m->cap || key == UINT64_MAX) return 0;
  size_t h = (size_t)hkey(key + 1, 0, 0) & (m->cap - 1);
  while (m->k[h]) {
    if (m->k[h] == key + 1) {
      if (val) *val = m->v[h];
      return 1;
    }
    h = (h + 1) & (m->cap - 1);
  }
  return 0;
}

static void map_free(pf_map *m) {
  free(m->k);
  free(m->v);
}

static void name_thread(pf_sink *k, uint64_t loc) {
  if (loc == k->last_named && k->named_locs.n) return;
  k->last_named = loc;
  if (map_get(&k->named_locs, loc, NULL) || map_put(&k->named_locs, loc, 1))
    return; /* known (or no memory: names are cosmetic) */
  uint64_t g = group_of(k, loc);
  if (!map_get(&k->named_groups, g, NULL) && !map_put(&k->named_groups, g, 1)) {
    const char *gn = find_name(k->groups, k->ngroups, g);
    sep(k);
    fprintf(k->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu64
                  ",\"args\":{\"name\":", g);
    if (gn)
      jstr(k->f, gn);
    else
      fprintf(k->f, "\"process %" PRIu64 "\"", g);
    fputs("}}", k->f);
  }
  const char *ln = find_name(k->locs, k->nlocs, loc);
  sep(k);
  fprintf(k->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu64
                ",\"tid\":%" PRIu64 ",\"args\":{\"name\":", g, loc);
  if (ln)
    jstr(k->f, ln);
  else
    fprintf(k->f, "\"location %" PRIu64 "\"", loc);
  fputs("}}", k->f);
}

/* ---- message pairing ------------------------------------------------------ */

static void ranks_check(pf_sink *k) {
  if (k->ranks_checked) return;
  k->ranks_checked = 1;
  k->ranks_distinct = k->ngroups > 0;
  for (size_t i = 0; i < k->ngroups && k->ranks_distinct; i++)
    for (size_t j = i + 1; j < k->ngroups; j++)
      if (k->group_rank[i] == k->group_rank[j]) {
        k->ranks_distinct = 0;
        break;
      }
}

/* The model's peer convention (model.h): ranks when distinct, else ids. */
static uint64_t me_of(pf_sink *k, uint64_t loc) {
  ranks_check(k);
  if (!k->ranks_distinct) return loc;
  uint64_t g = group_of(k, loc);
  for (size_t i = 0; i < k->ngroups; i++)
    if (k->groups[i].id == g) return (uint64_t)k->group_rank[i];
  return loc;
}

static uint64_t hkey(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9E3779B97F4A7C15u ^ (b + 0x632BE59BD9B4E019u);
  h ^= c * 0xC2B2AE3D27D4EB4Fu;
  h ^= h >> 29;
  return h * 0xBF58476D1CE4E5B9u;
}

static int pend_rehash(pf_sink *k) {
  size_t n = k->nbucket ? k->nbucket * 2 : 1024;
  uint32_t *b = malloc(n * sizeof *b);
  if (!b) return PT_ENOMEM;
  for (size_t i = 0; i < n; i++) b[i] = UINT32_MAX;
  free(k->bucket);
  k->bucket = b;
  k->nbucket = n;
  for (size_t i = 0; i < k->npend; i++) {
    if (!k->pend[i].used) continue;
    size_t h = hkey(k->pend[i].src, k->pend[i].dst, k->pend[i].comm) & (n - 1);
    k->pend[i].next = b[h];
    b[h] = (uint32_t)i;
  }
  return 0;
}

/* Find (and remove) the oldest pending opposite-side message; returns its
 * flow id or 0.  Oldest = lowest flow id (ids grow with time). */
static uint64_t pend_take(pf_sink *k, uint64_t src, uint64_t dst, uint64_t comm,
                          int64_t tag, int is_recv) {
  if (!k->nbucket) return 0;
  size_t h = hkey(src, dst, comm) & (k->nbucket - 1);
  uint32_t *best_link = NULL;
  uint64_t best = UINT64_MAX;
  for (uint32_t *l = &k->bucket[h]; *l != UINT32_MAX; l = &k->pend[*l].next) {
    pf_pend *p = &k->pend[*l];
    if (p->src != src || p->dst != dst || p->comm != comm ||
        p->is_recv == is_recv)
      continue;
    if (p->tag != tag && !(is_recv && tag < 0) && !(!is_recv && p->tag < 0))
      continue;
    if (p->flow < best) {
      best = p->flow;
      best_link = l;
    }
  }
  if (!best_link) return 0;
  uint32_t ix = *best_link;
  *best_link = k->pend[ix].next;
  k->pend[ix].used = 0;
  k->pend[ix].next = k->free_head;
  k->free_head = ix;
  return best;
}

static int pend_add(pf_sink *k, uint64_t src, uint64_t dst, uint64_t comm,
                    int64_t tag, int is_recv, uint64_t flow) {
  uint32_t ix;
  if (k->free_head != UINT32_MAX) {
    ix = k->free_head;
    k->free_head = k->pend[ix].next;
  } else {
    if (k->npend >= UINT32_MAX - 1) return PT_ELIMIT;
    if (grow((void **)&k->pend, &k->cappend, k->npend + 1, sizeof *k->pend))
      return PT_ENOMEM;
    ix = (uint32_t)k->npend++;
    if (k->npend > k->nbucket && pend_rehash(k)) return PT_ENOMEM;
  }
  if (!k->nbucket && pend_rehash(k)) return PT_ENOMEM;
  size_t h = hkey(src, dst, comm) & (k->nbucket - 1);
  k->pend[ix] = (pf_pend){src, dst, comm, tag, flow, is_recv, k->bucket[h], 1};
  k->bucket[h] = ix;
  return 0;
}

/* A send ("s") or receive ("f") end of a flow. */
static int flow(pf_sink *k, const pt_event *e, int is_recv) {
  if (e->peer < 0) return 0;
  uint64_t me = me_of(k, e->location);
  uint64_t src = is_recv ? (uint64_t)e->peer : me;
  uint64_t dst = is_recv ? me : (uint64_t)e->peer;
  uint64_t id = pend_take(k, src, dst, e->comm, e->tag, is_recv);
  int second = id != 0; /* the other end was seen: this one closes it */
  if (!second) {
    id = ++k->next_flow;
    int rc = pend_add(k, src, dst, e->comm, e->tag, is_recv, id);
    if (rc) return rc;
  }
  /* The end seen first is "s", the later one "f" bound to the enclosing
   * slice ("bp":"e"). */
  head(k, second ? "f" : "s", e);
  fprintf(k->f, ",\"cat\":\"message\",\"name\":\"message\",\"id\":%" PRIu64,
          id);
  if (second) fputs(",\"bp\":\"e\"", k->f);
  fputs("}", k->f);
  return 0;
}

/* ---- events --------------------------------------------------------------- */

static void args_common(pf_sink *k, const pt_event *e) {
  uint32_t m = pt_event_slot_mask(e->kind);
  fputs(",\"args\":{", k->f);
  int first = 1;
#define ARG(fmt, val)                          \
  do {                                         \
    if (!first) fputc(',', k->f);              \
    first = 0;                                 \
    fprintf(k->f, fmt, val);                   \
  } while (0)
  if (m & (1u << PT_ESLOT_PEER)) ARG("\"peer\":%" PRId64, e->peer);
  if (m & (1u << PT_ESLOT_TAG)) {
    if (!first) fputc(',', k->f);
    first = 0;
    jstr(k->f, pt_event_slot_name(e->kind, PT_ESLOT_TAG));
    fprintf(k->f, ":%" PRId64, e->tag);
  }
  if (m & (1u << PT_ESLOT_COMM)) ARG("\"comm\":%" PRIu64, e->comm);
  if (m & (1u << PT_ESLOT_SIZE)) {
    if (!first) fputc(',', k->f);
    first = 0;
    jstr(k->f, pt_event_slot_name(e->kind, PT_ESLOT_SIZE));
    fprintf(k->f, ":%" PRIu64, e->size);
  }
  if (m & (1u << PT_ESLOT_SIZE2)) {
    if (!first) fputc(',', k->f);
    first = 0;
    jstr(k->f, pt_event_slot_name(e->kind, PT_ESLOT_SIZE2));
    fprintf(k->f, ":%" PRIu64, e->size2);
  }
  if (m & (1u << PT_ESLOT_REQUEST)) ARG("\"request\":%" PRIu64, e->request);
  if (e->text) {
    if (!first) fputc(',', k->f);
    first = 0;
    fputs("\"text\":", k->f);
    jstr(k->f, e->text);
  }
#undef ARG
  fputs("}", k->f);
}

static const char *region_name(pf_sink *k, uint64_t id, char *buf, size_t n) {
  const char *s = find_name(k->regions, k->nregions, id);
  if (s) return s;
  snprintf(buf, n, "region %" PRIu64, id);
  return buf;
}

static double value_num(const pt_value *v) {
  switch (v->type) {
    case PT_TYPE_INT: return (double)v->v.i;
    case PT_TYPE_UINT: return (double)v->v.u;
    case PT_TYPE_DOUBLE: return v->v.d;
    default: return 0;
  }
}

/* RMA_ATOMIC.tag names (pt_rma_atomic), lower case */
#define PF_RMA_NAME(NAME) #NAME,
static const char *const pf_atomic[] = {PT_RMA_ATOMICS(PF_RMA_NAME)};
#undef PF_RMA_NAME

/* A one-sided operation at its origin: an instant event. */
static void rma_event(pf_sink *k, const pt_event *e) {
  char nm[40];
  if (e->kind == PT_EV_RMA_ATOMIC) {
    const char *a = e->tag >= 0 && e->tag < PT_RMA__COUNT
                        ? pf_atomic[e->tag] : "atomic";
    size_t i = 0;
    for (; a[i] && i + 1 < sizeof nm; i++)
      nm[i] = (char)(a[i] >= 'A' && a[i] <= 'Z' ? a[i] - 'A' + 'a' : a[i]);
    nm[i] = 0;
  } else {
    snprintf(nm, sizeof nm, "%s", e->kind == PT_EV_RMA_PUT ? "put" : "get");
  }
  head(k, "i", e);
  fputs(",\"s\":\"t\",\"cat\":\"rma\",\"name\":", k->f);
  jstr(k->f, nm);
  fprintf(k->f, ",\"args\":{\"window\":%" PRIu64 ",\"target\":%" PRId64,
          e->ref, e->peer);
  if (e->comm != PT_NONE) fprintf(k->f, ",\"comm\":%" PRIu64, e->comm);
  if (e->kind != PT_EV_RMA_GET)
    fprintf(k->f, ",\"%s\":%" PRIu64,
            e->kind == PT_EV_RMA_PUT ? "bytes" : "sent", e->size);
  if (e->kind != PT_EV_RMA_PUT)
    fprintf(k->f, ",\"%s\":%" PRIu64,
            e->kind == PT_EV_RMA_GET ? "bytes" : "received", e->size2);
  if (e->request) fprintf(k->f, ",\"matching\":%" PRIu64, e->request);
  fputs("}}", k->f);
}

static int pf_event(pf_sink *k, const pt_event *e) {
  if (!k->events++) {
    k->t0 = e->time;
    uint64_t tps = k->tps ? k->tps : 1000000000u;
    k->decimals = 0;
    for (uint64_t r = 1000000; r < tps && k->decimals < 9; r *= 10)
      k->decimals++;
  }
  if (k->events == PF_WARN_EVENTS + 1 && k->warn && !k->warned) {
    k->warned = 1;
    k->warn(k->warn_user,
            "more than 2.5 million events: ui.perfetto.dev and "
            "chrome://tracing may not load this file; cut the trace down "
            "with --from/--to or --locations");
  }
  name_thread(k, e->location);
  char buf[64];
  switch (e->kind) {
    case PT_EV_ENTER:
    case PT_EV_LEAVE:
      head(k, e->kind == PT_EV_ENTER ? "B" : "E", e);
      fputs(",\"name\":", k->f);
      jstr(k->f, region_name(k, e->ref, buf, sizeof buf));
      fputs("}", k->f);
      return 0;
    case PT_EV_SEND:
    case PT_EV_ISEND:
      return flow(k, e, 0);
    case PT_EV_RECV:
    case PT_EV_IRECV:
      return flow(k, e, 1);
    case PT_EV_METRIC: {
      const char *mn = find_name(k->metrics, k->nmetrics, e->ref);
      double v = value_num(&e->value);
      if (!isfinite(v)) { /* left out (said at the end) */
        k->nonfinite++;
        return 0;
      }
      sep(k);
      fputs("{\"ph\":\"C\",\"ts\":", k->f);
      ts(k, e->time);
      fprintf(k->f, ",\"pid\":%" PRIu64 ",\"name\":", group_of(k, e->location));
      if (mn)
        jstr(k->f, mn);
      else
        fprintf(k->f, "\"metric %" PRIu64 "\"", e->ref);
      fprintf(k->f, ",\"args\":{\"value\":%.17g}}", v);
      return 0;
    }
    case PT_EV_COLL_END: {
      head(k, "i", e);
      const char *op = pt_coll_op_name((uint32_t)e->ref);
      fputs(",\"s\":\"t\",\"cat\":\"collective\",\"name\":", k->f);
      jstr(k->f, op ? op : "collective");
      args_common(k, e);
      fputs("}", k->f);
      return 0;
    }
    case PT_EV_MARK:
    case PT_EV_USER:
    case PT_EV_MESSAGE: {
      head(k, "i", e);
      const char *ln = find_name(k->labels, k->nlabels, e->ref);
      fputs(",\"s\":\"t\",\"cat\":", k->f);
      jstr(k->f, pt_event_kind_name(e->kind));
      fputs(",\"name\":", k->f);
      jstr(k->f, ln ? ln : e->text ? e->text : pt_event_kind_name(e->kind));
      args_common(k, e);
      fputs("}", k->f);
      return 0;
    }
    case PT_EV_IO_BEGIN:
    case PT_EV_IO_END:
    case PT_EV_BUFFER_FLUSH:
    case PT_EV_BUFFER_OVERFLOW:
    case PT_EV_MEASURE:
      head(k, "i", e);
      fputs(",\"s\":\"t\",\"name\":", k->f);
      jstr(k->f, pt_event_kind_name(e->kind));
      args_common(k, e);
      fputs("}", k->f);
      return 0;
    case PT_EV_RMA_PUT:
    case PT_EV_RMA_GET:
    case PT_EV_RMA_ATOMIC:
      rma_event(k, e);
      return 0;
    default: /* requests, collective begins, threads: no visual form */
      return 0;
  }
}

static int pf_def(pf_sink *k, const pt_def *d) {
  switch (d->kind) {
    case PT_DEF_CLOCK:
      if (d->i0 > 0) k->tps = (uint64_t)d->i0;
      return 0;
    case PT_DEF_REGION:
      return add_name(k, &k->regions, &k->nregions, &k->capr, d->id, d->name);
    case PT_DEF_METRIC:
      return add_name(k, &k->metrics, &k->nmetrics, &k->capm, d->id, d->name);
    case PT_DEF_LABEL:
      return add_name(k, &k->labels, &k->nlabels, &k->capb, d->id, d->name);
    case PT_DEF_LOCATION_GROUP: {
      size_t cap = k->capg;
      if (add_name(k, &k->groups, &k->ngroups, &k->capg, d->id, d->name))
        return PT_ENOMEM;
      if (grow((void **)&k->group_rank, &cap, k->ngroups, sizeof *k->group_rank))
        return PT_ENOMEM;
      k->group_rank[k->ngroups - 1] = d->i1;
      return 0;
    }
    case PT_DEF_LOCATION: {
      size_t cap = k->capl;
      if (add_name(k, &k->locs, &k->nlocs, &k->capl, d->id, d->name))
        return PT_ENOMEM;
      if (grow((void **)&k->loc_group, &cap, k->nlocs, sizeof *k->loc_group))
        return PT_ENOMEM;
      k->loc_group[k->nlocs - 1] = d->parent;
      return map_put(&k->loc_to_group, d->id, d->parent) ? PT_ENOMEM : 0;
    }
    default:
      return 0;
  }
}

/* ---- the format interface ------------------------------------------------ */

static int pf_open(void **st, const char *path, const pt_sink_opts *o,
                   pt_error *err) {
  pf_sink *k = calloc(1, sizeof *k);
  if (!k) return pt__err(err, PT_ENOMEM, "out of memory");
  k->free_head = UINT32_MAX;
  if (o) {
    k->warn = o->warn;
    k->warn_user = o->warn_user;
  }
  k->to_stdout = strcmp(path, "-") == 0;
  if (!(k->name = strdup(k->to_stdout ? "stdout" : path))) {
    free(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  if (k->to_stdout) {
    k->f = stdout;
  } else if (!(k->f = fopen(path, "w"))) {
    int e = errno;
    free(k->name);
    free(k);
    return pt__err(err, PT_EIO, "%s: cannot create: %s", path, strerror(e));
  }
  fputs("{\"traceEvents\":[\n", k->f);
  *st = k;
  return 0;
}

static int pf_write(void *st, const pt_item *it) {
  pf_sink *k = st;
  int rc = 0;
  if (it->type == PT_ITEM_DEF)
    rc = pf_def(k, &it->u.def);
  else if (it->type == PT_ITEM_EVENT)
    rc = pf_event(k, &it->u.event);
  /* a failed write (full disk) stops the conversion here, with errno as
   * it was right after the write */
  if (!rc && !k->ioerr && ferror(k->f)) {
    k->ioerr = errno ? errno : EIO;
    snprintf(k->err, sizeof k->err, "%s: write failed: %s", k->name,
             strerror(k->ioerr));
    return PT_EIO;
  }
  if (rc) snprintf(k->err, sizeof k->err, "perfetto writer: %s", pt_strerror(rc));
  return rc;
}

static const char *pf_errmsg(void *st) { return ((pf_sink *)st)->err; }

static void pf_free(pf_sink *k) {
  pt__arena_free(&k->mem);
  free(k->regions);
  free(k->metrics);
  free(k->groups);
  free(k->locs);
  free(k->labels);
  free(k->loc_group);
  free(k->group_rank);
  free(k->pend);
  free(k->bucket);
  map_free(&k->named_locs);
  map_free(&k->named_groups);
  map_free(&k->loc_to_group);
  free(k->name);
  free(k);
}

static int pf_close(void *st, pt_error *err) {
  pf_sink *k = st;
  if (k->nonfinite && k->warn) {
    char m[160];
    snprintf(m, sizeof m, "perfetto: %" PRIu64 " metric sample%s not a "
             "finite number (NaN, infinity) left out: JSON has none",
             k->nonfinite, k->nonfinite == 1 ? "" : "s");
    k->warn(k->warn_user, m);
  }
  fprintf(k->f, "\n],\"displayTimeUnit\":\"ns\",\"metadata\":{"
                "\"producer\":\"paratrace\",\"start_tick\":%" PRIu64
                ",\"ticks_per_second\":%" PRIu64 ",\"events\":%" PRIu64 "}}\n",
          k->t0, k->tps ? k->tps : 1000000000u, k->events);
  errno = 0;
  int e = fflush(k->f) != 0 || ferror(k->f) ? (errno ? errno : EIO) : 0;
  if (k->ioerr) e = k->ioerr;
  if (!k->to_stdout && fclose(k->f) != 0 && !e) e = errno ? errno : EIO;
  int rc = e ? pt__err(err, PT_EIO, "%s: write failed: %s", k->name,
                       strerror(e))
             : 0;
  pf_free(k);
  return rc;
}

static void pf_abort(void *st) {
  pf_sink *k = st;
  if (!k->to_stdout) fclose(k->f);
  pf_free(k);
}

const pt__format pt__format_perfetto = {
    .info = {.name = "perfetto",
             .description = "Chrome Trace Event JSON for ui.perfetto.dev and "
                            "chrome://tracing",
             .extensions = ".json",
             .can_read = 0,
             .can_write = 1},
    .stdout_ok = 1,
    .sink_open = pf_open,
    .sink_write = pf_write,
    .sink_errmsg = pf_errmsg,
    .sink_close = pf_close,
    .sink_abort = pf_abort,
};
