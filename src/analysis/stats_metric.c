/* The metrics section of the statistics engine (include/paratrace/
 * analysis.h, pt_stats_metric*): METRIC events (counters and gauges: a
 * Score-P trace's PAPI counters, power and energy of metric-only
 * locations) per metric, per (metric, location) and, for accumulated
 * counters sampled at the enters and leaves of visits, the inclusive delta
 * per region.
 *
 * Samples belong to the window their time is in.  A visit's delta (the
 * value at its leave - the value at its enter) belongs to a window that
 * holds both its enter and its leave.  The value at a
 * time is a sample of the same location with that time, before or after
 * the ENTER / LEAVE (Score-P writes the METRIC record after the event it
 * belongs to in some versions, before in others); so each location keeps
 * its own stack of open visits with the enter values of its accumulated
 * counters, and the visits just left wait for a sample at their leave
 * time until an event with another time comes.
 *
 * Memory: per metric, per (metric, location), per (metric, region), and
 * the open visits of each location times its accumulated counters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats_int.h"
#include "core/util.h"

void pt__stats_metric_init(pt_stats *s) {
  pt__kt_init(&s->mets, sizeof(pt__met));
  pt__kt_init(&s->mv, sizeof(pt__mv));
  pt__kt_init(&s->mr, sizeof(pt__mr));
  pt__kt_init(&s->mloc, sizeof(pt__mloc));
}

static void mloc_free(pt__mloc *m) {
  free(m->slot_met);
  free(m->slot_cur);
  free(m->slot_t);
  free(m->fr);
  free(m->fv);
  free(m->pl);
  free(m->plv);
}

void pt__stats_metric_free_output(pt_stats *s) {
  free(s->out_met);
  free(s->out_mloc);
  free(s->out_mreg);
  s->out_met = s->out_mloc = NULL;
  s->out_mreg = NULL;
  s->nout_met = s->nout_mloc = s->nout_mreg = 0;
}

void pt__stats_metric_clear(pt_stats *s) {
  for (size_t i = 0; i < s->mloc.n; i++)
    mloc_free(pt__kt_at(&s->mloc, i));
  pt__kt_free(&s->mloc);
  pt__kt_free(&s->mv);
  pt__kt_free(&s->mr);
}

void pt__stats_metric_free(pt_stats *s) {
  pt__stats_metric_free_output(s);
  pt__stats_metric_clear(s);
  for (size_t i = 0; i < s->mets.n; i++) {
    pt__met *m = pt__kt_at(&s->mets, i);
    free(m->name);
    free(m->unit);
  }
  pt__kt_free(&s->mets);
}

/* Set metric `id`'s definition (copies). */
static int met_put(pt_stats *s, uint64_t id, const char *name,
                   const char *unit, uint32_t type, uint32_t mode) {
  char buf[40];
  if (!name) {
    snprintf(buf, sizeof buf, "metric %llu", (unsigned long long)id);
    name = buf;
  }
  char *n = strdup(name), *u = strdup(unit ? unit : "");
  pt__met *m = n && u ? pt__kt_get(&s->mets, PT__K(id, 0, 0, 0)) : NULL;
  if (!m) {
    free(n);
    free(u);
    return PT_ENOMEM;
  }
  free(m->name);
  free(m->unit);
  m->name = n;
  m->unit = u;
  m->type = type;
  m->mode = mode;
  s->met_acc |= mode == PT_METRIC_ACCUMULATED;
  return PT_OK;
}

int pt__stats_metric_def(pt_stats *s, const pt_def *d) {
  if (d->kind != PT_DEF_METRIC) return PT_OK;
  return met_put(s, d->id, d->name, d->s1, (uint32_t)d->i0,
                 d->i1 >= 0 && d->i1 <= PT_METRIC_RELATIVE ? (uint32_t)d->i1
                                                            : 0);
}

/* ---- the open state of a location ------------------------------------------ */

static pt__mloc *mloc_of(pt_stats *s, uint64_t loc) {
  /* the last one found first: a run's events are of one location */
  if (s->mloc_last < s->mloc.n) {
    pt__mloc *m = pt__kt_at(&s->mloc, s->mloc_last);
    if (m->k[0] == loc) return m;
  }
  pt__mloc *m = pt__kt_get(&s->mloc, PT__K(loc, 0, 0, 0));
  if (m) s->mloc_last = (size_t)(m - (pt__mloc *)pt__kt_at(&s->mloc, 0));
  return m;
}

/* Slot of metric `met` on m, added when new (every open and waiting visit
 * gets NaN for it). */
static int slot_of(pt__mloc *m, uint64_t met, size_t *slot) {
  for (size_t j = 0; j < m->nslot; j++)
    if (m->slot_met[j] == met) {
      *slot = j;
      return PT_OK;
    }
  size_t ns = m->nslot + 1;
  uint64_t *sm = realloc(m->slot_met, ns * sizeof *sm);
  if (!sm) return PT_ENOMEM;
  m->slot_met = sm;
  double *sc = realloc(m->slot_cur, ns * sizeof *sc);
  if (!sc) return PT_ENOMEM;
  m->slot_cur = sc;
  uint64_t *st = realloc(m->slot_t, ns * sizeof *st);
  if (!st) return PT_ENOMEM;
  m->slot_t = st;
  /* restride the enter values: frames (cap) and waiting visits (plcap) */
  double *fv = NULL, *plv = NULL;
  if (m->cap && !(fv = malloc(m->cap * ns * sizeof *fv))) return PT_ENOMEM;
  if (m->plcap && !(plv = malloc(m->plcap * ns * sizeof *plv))) {
    free(fv);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < m->depth; i++) {
    for (size_t j = 0; j < m->nslot; j++)
      fv[i * ns + j] = m->fv[i * m->nslot + j];
    fv[i * ns + m->nslot] = NAN;
  }
  for (size_t i = 0; i < m->npl; i++) {
    for (size_t j = 0; j < m->nslot; j++)
      plv[i * ns + j] = m->plv[i * m->nslot + j];
    plv[i * ns + m->nslot] = NAN;
  }
  free(m->fv);
  free(m->plv);
  m->fv = fv;
  m->plv = plv;
  m->slot_met[m->nslot] = met;
  m->slot_t[m->nslot] = UINT64_MAX; /* no sample yet */
  m->slot_cur[m->nslot] = 0;
  *slot = m->nslot;
  m->nslot = ns;
  return PT_OK;
}

/* A visit of `region` (in the window: in_w) had value e at its enter and
 * v at its leave. */
static int commit(pt_stats *s, uint64_t met, uint64_t region, double e,
                  double v) {
  pt__mr *r = pt__kt_get(&s->mr, PT__K(met, region, 0, 0));
  if (!r) return PT_ENOMEM;
  double d = v - e;
  if (!r->visits || d < r->dmin) r->dmin = d;
  if (!r->visits || d > r->dmax) r->dmax = d;
  r->visits++;
  r->delta += d;
  return PT_OK;
}

int pt__stats_metric_region(pt_stats *s, uint64_t loc, int enter,
                            uint64_t region, uint64_t t, int w) {
  pt__mloc *m = mloc_of(s, loc);
  if (!m) return PT_ENOMEM;
  const size_t ns = m->nslot;
  if (m->npl && m->pl_t != t) m->npl = 0; /* no sample came at their leave */
  m->ev_t = t + 1;
  for (size_t j = 0; j < ns; j++) s->met_sync += m->slot_t[j] == t;
  if (enter) {
    size_t cap = m->cap; /* m->cap is fv's too, grown next */
    if (pt__grow(&m->fr, &cap, m->depth + 1, sizeof *m->fr, 8) < 0)
      return PT_ENOMEM;
    if (cap != m->cap && ns) {
      double *fv = realloc(m->fv, cap * ns * sizeof *fv);
      if (!fv) return PT_ENOMEM;
      m->fv = fv;
    }
    m->cap = cap;
    m->fr[m->depth] = (pt__mframe){region, t, (uint8_t)(w != 0)};
    for (size_t j = 0; j < ns; j++) /* a sample at t before the ENTER */
      m->fv[m->depth * ns + j] = m->slot_t[j] == t ? m->slot_cur[j] : NAN;
    m->depth++;
    return PT_OK;
  }
  size_t d = m->depth;
  while (d && m->fr[d - 1].region != region) d--;
  if (!d) return PT_OK; /* not open here (entered before the state) */
  m->depth = d - 1;     /* visits above it are dropped, as the engine's */
  if (!ns) return PT_OK; /* no counter yet (and m->fv may be NULL) */
  const pt__mframe *f = &m->fr[d - 1];
  const double *ev = &m->fv[(d - 1) * ns];
  int wait = 0;
  for (size_t j = 0; j < ns; j++) {
    if (isnan(ev[j]) || !f->in_w || !w) continue;
    if (m->slot_t[j] == t) { /* a sample at t before the LEAVE */
      if (commit(s, m->slot_met[j], region, ev[j], m->slot_cur[j]) < 0)
        return PT_ENOMEM;
    } else {
      wait = 1;
    }
  }
  if (!wait) return PT_OK;
  /* wait for a sample at t after the LEAVE */
  size_t plcap = m->plcap; /* plv's too, grown next */
  if (pt__grow(&m->pl, &plcap, m->npl + 1, sizeof *m->pl, 8) < 0)
    return PT_ENOMEM;
  if (plcap != m->plcap) {
    double *plv = realloc(m->plv, plcap * (ns ? ns : 1) * sizeof *plv);
    if (!plv) return PT_ENOMEM;
    m->plv = plv;
  }
  m->plcap = plcap;
  m->pl[m->npl] = m->fr[d - 1];
  for (size_t j = 0; j < ns; j++)
    m->plv[m->npl * ns + j] = m->slot_t[j] == t ? NAN : m->fv[(d - 1) * ns + j];
  m->npl++;
  m->pl_t = t;
  return PT_OK;
}

static int value_of(const pt_value *v, double *x) {
  switch (v->type) {
    case PT_TYPE_INT: *x = (double)v->v.i; return 1;
    case PT_TYPE_UINT: *x = (double)v->v.u; return 1;
    case PT_TYPE_DOUBLE: *x = v->v.d; return isfinite(*x); /* not inf */
    default: return 0;
  }
}

int pt__stats_metric_event(pt_stats *s, const pt_event *ev, int w) {
  double v;
  if (!value_of(&ev->value, &v)) return PT_OK;
  const uint64_t t = ev->time;
  const pt__met *def = pt__kt_find(&s->mets, PT__K(ev->ref, 0, 0, 0));
  if (!def) { /* undefined: counted as an absolute metric of that id */
    int rc = met_put(s, ev->ref, NULL, NULL, ev->value.type,
                     PT_METRIC_ABSOLUTE);
    if (rc < 0) return rc;
    def = pt__kt_find(&s->mets, PT__K(ev->ref, 0, 0, 0));
  }
  if (w) {
    pt__mv *r = pt__kt_get(&s->mv, PT__K(ev->ref, ev->location, 0, 0));
    if (!r) return PT_ENOMEM;
    if (!r->n || v < r->min) r->min = v;
    if (!r->n || v > r->max) r->max = v;
    if (!r->n) {
      r->first = v;
      r->t_first = t;
    }
    r->last = v;
    r->t_last = t;
    r->sum += v;
    r->n++;
  }
  if (def->mode != PT_METRIC_ACCUMULATED) return PT_OK;
  pt__mloc *m = mloc_of(s, ev->location);
  if (!m) return PT_ENOMEM;
  if (m->npl && m->pl_t != t) m->npl = 0; /* any other time: even earlier */
  size_t j;
  if (slot_of(m, ev->ref, &j) < 0) return PT_ENOMEM;
  const size_t ns = m->nslot;
  /* visits entered at t without a value yet (a sample after the ENTER) */
  for (size_t d = m->depth; d > 0 && m->fr[d - 1].enter == t; d--)
    if (isnan(m->fv[(d - 1) * ns + j])) m->fv[(d - 1) * ns + j] = v;
  /* visits left at t waiting for it (a sample after the LEAVE) */
  for (size_t p = 0; p < m->npl; p++) {
    double *e = &m->plv[p * ns + j];
    if (isnan(*e)) continue;
    if (commit(s, ev->ref, m->pl[p].region, *e, v) < 0) return PT_ENOMEM;
    *e = NAN;
  }
  m->slot_cur[j] = v;
  m->slot_t[j] = t;
  s->met_async++;
  s->met_sync += m->ev_t == t + 1;
  return PT_OK;
}

/* ---- merge, output ------------------------------------------------------------ */

int pt__stats_add_metrics(pt_stats *d, const pt_stats *s) {
  for (size_t i = 0; i < s->mets.n; i++) {
    const pt__met *x = pt__kt_at(&s->mets, i);
    if (pt__kt_find(&d->mets, x->k)) continue;
    int rc = met_put(d, x->k[0], x->name, x->unit, x->type, x->mode);
    if (rc < 0) return rc;
  }
  for (size_t i = 0; i < s->mv.n; i++) {
    const pt__mv *x = pt__kt_at(&s->mv, i);
    if (!x->n) continue;
    pt__mv *r = pt__kt_get(&d->mv, x->k);
    if (!r) return PT_ENOMEM;
    if (!r->n || x->min < r->min) r->min = x->min;
    if (!r->n || x->max > r->max) r->max = x->max;
    if (!r->n || x->t_first < r->t_first) {
      r->first = x->first;
      r->t_first = x->t_first;
    }
    if (!r->n || x->t_last >= r->t_last) {
      r->last = x->last;
      r->t_last = x->t_last;
    }
    r->sum += x->sum;
    r->n += x->n;
  }
  for (size_t i = 0; i < s->mr.n; i++) {
    const pt__mr *x = pt__kt_at(&s->mr, i);
    if (!x->visits) continue;
    pt__mr *r = pt__kt_get(&d->mr, x->k);
    if (!r) return PT_ENOMEM;
    if (!r->visits || x->dmin < r->dmin) r->dmin = x->dmin;
    if (!r->visits || x->dmax > r->dmax) r->dmax = x->dmax;
    r->visits += x->visits;
    r->delta += x->delta;
  }
  return PT_OK;
}

static int cmp_mrow(const void *a, const void *b) {
  const pt_stats_metric_row *x = a, *y = b;
  if (x->metric != y->metric) return x->metric < y->metric ? -1 : 1;
  if (x->location != y->location) return x->location < y->location ? -1 : 1;
  return 0;
}

static int cmp_mreg(const void *a, const void *b) {
  const pt_stats_metric_region_row *x = a, *y = b;
  if (x->metric != y->metric) return x->metric < y->metric ? -1 : 1;
  if (x->delta != y->delta) return x->delta > y->delta ? -1 : 1;
  if (x->region != y->region) return x->region < y->region ? -1 : 1;
  return 0;
}

int pt__stats_metric_aggregate(pt_stats *s) {
  size_t n = s->mv.n ? s->mv.n : 1;
  s->out_mloc = calloc(n, sizeof *s->out_mloc);
  s->out_met = calloc(n, sizeof *s->out_met);
  s->out_mreg = calloc(s->mr.n ? s->mr.n : 1, sizeof *s->out_mreg);
  if (!s->out_mloc || !s->out_met || !s->out_mreg) {
    pt__stats_metric_free_output(s);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < s->mv.n; i++) {
    const pt__mv *x = pt__kt_at(&s->mv, i);
    if (!x->n) continue;
    const pt__met *m = pt__kt_find(&s->mets, PT__K(x->k[0], 0, 0, 0));
    uint32_t mode = m ? m->mode : PT_METRIC_ABSOLUTE;
    s->out_mloc[s->nout_mloc++] = (pt_stats_metric_row){
        .metric = x->k[0], .location = x->k[1],
        .name = m ? m->name : "", .unit = m ? m->unit : "",
        .type = m ? m->type : PT_TYPE_NONE, .mode = mode,
        .samples = x->n, .locations = 1, .min = x->min,
        .mean = x->sum / (double)x->n, .max = x->max,
        .min_location = x->k[1], .max_location = x->k[1],
        .first_time = x->t_first, .last_time = x->t_last,
        .increase = mode == PT_METRIC_ACCUMULATED ? x->last - x->first
                    : mode == PT_METRIC_RELATIVE  ? x->sum
                                                  : 0};
  }
  qsort(s->out_mloc, s->nout_mloc, sizeof *s->out_mloc, cmp_mrow);
  /* per metric: the location rows of one metric are consecutive */
  for (size_t i = 0; i < s->nout_mloc;) {
    const pt_stats_metric_row *x = &s->out_mloc[i];
    pt_stats_metric_row g = *x;
    double sum = 0;
    g.location = PT_NONE;
    size_t j = i + 1;
    for (; j < s->nout_mloc && s->out_mloc[j].metric == x->metric; j++) {
      const pt_stats_metric_row *y = &s->out_mloc[j];
      /* locations ascending: the lowest id wins ties */
      if (y->min < g.min) {
        g.min = y->min;
        g.min_location = y->location;
      }
      if (y->max > g.max) {
        g.max = y->max;
        g.max_location = y->location;
      }
      if (y->first_time < g.first_time) g.first_time = y->first_time;
      if (y->last_time > g.last_time) g.last_time = y->last_time;
      g.samples += y->samples;
      g.locations++;
      g.increase += y->increase;
    }
    for (size_t k = i; k < j; k++) { /* the exact sums */
      const pt__mv *r =
          pt__kt_find(&s->mv, PT__K(x->metric, s->out_mloc[k].location, 0, 0));
      sum += r ? r->sum : 0;
    }
    g.mean = sum / (double)g.samples;
    s->out_met[s->nout_met++] = g;
    i = j;
  }
  for (size_t i = 0; i < s->mr.n; i++) {
    const pt__mr *x = pt__kt_at(&s->mr, i);
    if (!x->visits || !(s->have & PT_STATS_HAVE_METRIC_REGIONS)) continue;
    s->out_mreg[s->nout_mreg++] = (pt_stats_metric_region_row){
        .metric = x->k[0], .region = x->k[1], .visits = x->visits,
        .delta = x->delta, .per_visit_min = x->dmin,
        .per_visit_max = x->dmax};
  }
  qsort(s->out_mreg, s->nout_mreg, sizeof *s->out_mreg, cmp_mreg);
  return PT_OK;
}
