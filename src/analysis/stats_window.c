/* Summaries and snapshots of a native archive, and window statistics from
 * them (include/paratrace/analysis.h, pt_archive_summarize and
 * pt_stats_window).
 *
 * Let F(t) be the profile of [0, t) (open visits counted up to t).  It is
 * additive: the profile of [a, b) is F(b) - F(a), exactly, in u64 ticks.
 * A summary at s stores F(s) per location; with the call stacks at s (the
 * snapshot) the profile of [s, t) is computed from the events in [s, t)
 * alone, so F(t) = F(s) + profile[s, t) and the window [from, to) is
 * G(to) - G(from) with two short scans.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats_int.h"
#include "core/util.h"
#include "paratrace/reader.h"
#include "store/archive.h"

/* ---- writing ---------------------------------------------------------------- */

static int put_sum(pt_aux_writer *aw, const pt_summary *sm) {
  pt_item it;
  memset(&it, 0, sizeof it);
  it.type = PT_ITEM_SUMMARY;
  it.u.summary = *sm;
  return pt_aux_add(aw, &it);
}

/* The first of n records (size bytes each, sorted by the u64 at offset
 * off) whose key is >= key. */
static size_t first_of(const void *base, size_t n, size_t size, size_t off,
                       uint64_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    uint64_t k;
    memcpy(&k, (const char *)base + m * size + off, sizeof k);
    if (k < key) lo = m + 1;
    else hi = m;
  }
  return lo;
}

typedef struct sum_ctx {
  pt_aux_writer *aw;
  uint64_t time, loc;
} sum_ctx;

static int put_region(void *user, uint64_t region, uint64_t count,
                      uint64_t incl, uint64_t excl) {
  sum_ctx *c = user;
  return put_sum(c->aw, &(pt_summary){.time = c->time, .location = c->loc,
                                      .kind = PT_SUM_REGION, .ref = region,
                                      .count = count, .incl_time = incl,
                                      .excl_time = excl});
}

/* Application time of the location so far (sum of exclusive times). */
static int add_excl(void *user, uint64_t region, uint64_t count,
                    uint64_t incl, uint64_t excl) {
  (void)region, (void)count, (void)incl;
  *(uint64_t *)user += excl;
  return PT_OK;
}

static int put_snap(pt_aux_writer *aw, uint64_t t, uint64_t loc,
                    const pt_event *ev);

/* by location + 1, region, call site */
static int cmp_cs(const void *a, const void *b) {
  const pt__cs *x = a, *y = b;
  if (x->k[2] != y->k[2]) return x->k[2] < y->k[2] ? -1 : 1;
  if (x->k[0] != y->k[0]) return x->k[0] < y->k[0] ? -1 : 1;
  return x->k[1] < y->k[1] ? -1 : x->k[1] > y->k[1];
}

/* The call-site counters of location loc at t (cs: the rows keyed by
 * location + 1, sorted), with its open MPI calls counted up to t. */
static int put_callsites(pt_aux_writer *aw, uint64_t t, uint64_t start,
                         uint64_t loc, const pt__cs *cs, size_t ncs,
                         const pt__loc *L) {
  size_t b = first_of(cs, ncs, sizeof *cs, offsetof(pt__cs, k[2]), loc + 1),
         e = b;
  while (e < ncs && cs[e].k[2] == loc + 1) e++;
  size_t nopen = 0;
  for (size_t i = 0; L && i < L->depth; i++) nopen += L->st[i].is_mpi;
  pt__cs *rows = malloc((e - b + nopen + 1) * sizeof *rows);
  if (!rows) return PT_ENOMEM;
  size_t n = e - b;
  if (n) memcpy(rows, cs + b, n * sizeof *rows);
  for (size_t i = 0; L && i < L->depth; i++) {
    const pt__frame *f = &L->st[i];
    if (!f->is_mpi) continue;
    size_t j = 0;
    while (j < n && !(rows[j].k[0] == f->region && rows[j].k[1] == f->callsite)) j++;
    if (j == n) {
      memset(&rows[n], 0, sizeof rows[n]);
      rows[n].k[0] = f->region;
      rows[n].k[1] = f->callsite;
      n++;
    }
    rows[j].calls++;
    rows[j].time += t - f->enter;
  }
  int rc = PT_OK;
  for (size_t i = 0; i < n && rc == PT_OK; i++) {
    const pt__cs *c = &rows[i];
    if (!c->calls && !c->time && !c->msgs && !c->rmsgs && !c->itn) continue;
    rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                   .kind = PT_SUM_CALLSITE, .ref = c->k[1],
                                   .count = c->calls, .incl_time = c->time,
                                   .excl_time = c->k[0],
                                   .bytes_sent = c->bytes,
                                   .bytes_recv = c->rbytes});
    if (rc == PT_OK && (c->msgs || c->rmsgs))
      rc = put_sum(aw, &(pt_summary){
                           .time = t, .location = loc,
                           .kind = PT_SUM_CALLSITE_MSGS, .ref = c->k[1],
                           .count = c->msgs, .incl_time = c->rmsgs,
                           .excl_time = c->k[0],
                           .bytes_sent = c->inb ? c->ibmin : UINT64_MAX,
                           .bytes_recv = c->inb ? c->ibmax : 0});
    /* the extremes of the calls entered and left in the interval */
    if (rc == PT_OK && c->itn)
      rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                     .kind = PT_SUM_CALL_VISITS,
                                     .ref = c->k[1], .count = c->itn,
                                     .incl_time = c->itmin,
                                     .excl_time = c->itmax,
                                     .bytes_sent = c->k[0],
                                     .bytes_recv = start});
  }
  free(rows);
  return rc;
}

static int put_snap(pt_aux_writer *aw, uint64_t t, uint64_t loc,
                    const pt_event *ev) {
  pt_item it;
  memset(&it, 0, sizeof it);
  it.type = PT_ITEM_SNAPSHOT;
  it.u.snapshot.time = t;
  it.u.snapshot.location = loc;
  it.u.snapshot.event = *ev;
  return pt_aux_add(aw, &it);
}

static void from_copy(pt_event *ev, const pt__evcopy *c, uint64_t loc) {
  pt_event_init(ev, c->kind, c->time, loc);
  uint32_t m = pt_event_slot_mask(c->kind);
  if (m & (1u << PT_ESLOT_REF)) ev->ref = c->ref;
  if (m & (1u << PT_ESLOT_PEER)) ev->peer = c->peer;
  if (m & (1u << PT_ESLOT_COMM)) ev->comm = c->comm;
  if (m & (1u << PT_ESLOT_TAG)) ev->tag = c->tag;
  if (m & (1u << PT_ESLOT_SIZE)) ev->size = c->size;
  if (m & (1u << PT_ESLOT_REQUEST)) ev->request = c->request;
}

typedef struct stream_out {
  uint64_t stream;
  const uint64_t *locs;
  size_t nlocs;
  pt_aux_writer *sums, *snaps;
} stream_out;

/* The detail of the first aux writer that failed (an aux writer keeps its
 * own, pt_aux_errmsg), or what rc says. */
static const char *aux_why(const stream_out *so, size_t n, int rc) {
  for (size_t i = 0; i < n; i++) {
    if (so[i].sums && *pt_aux_errmsg(so[i].sums))
      return pt_aux_errmsg(so[i].sums);
    if (so[i].snaps && *pt_aux_errmsg(so[i].snaps))
      return pt_aux_errmsg(so[i].snaps);
  }
  return pt_strerror(rc);
}

static int cmp_iv(const void *a, const void *b) {
  const pt__iv *x = a, *y = b;
  if (x->k[0] != y->k[0]) return x->k[0] < y->k[0] ? -1 : 1;
  return x->k[1] < y->k[1] ? -1 : x->k[1] > y->k[1];
}

static int cmp_span(const void *a, const void *b) {
  const pt__span *x = a, *y = b;
  if (x->loc != y->loc) return x->loc < y->loc ? -1 : 1;
  if (x->leave != y->leave) return x->leave < y->leave ? -1 : 1;
  if (x->enter != y->enter) return x->enter < y->enter ? -1 : 1;
  return x->region < y->region ? -1 : x->region > y->region;
}

/* The visit records of location loc at t: a marker, the interval's
 * extremes per region (ivs sorted by location), the crossing visits that
 * ended (spans sorted by location). */
static int put_visits(pt_aux_writer *aw, uint64_t t, uint64_t loc,
                      uint64_t start, const pt__iv *ivs, size_t niv,
                      const pt__span *sp, size_t nsp, int cs_ok) {
  /* bytes_recv 1: the records of the MPI calls per call site are here
   * too (PT_SUM_CALL_VISITS, call sites of PT_SUM_SPAN records) */
  int rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                     .kind = PT_SUM_VISITS, .ref = PT_NONE,
                                     .count = (uint64_t)cs_ok,
                                     .bytes_sent = start, .bytes_recv = 1});
  for (size_t i = first_of(ivs, niv, sizeof *ivs, offsetof(pt__iv, k[0]), loc);
       i < niv && ivs[i].k[0] == loc && rc == PT_OK; i++)
    rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                   .kind = PT_SUM_VISITS, .ref = ivs[i].k[1],
                                   .count = ivs[i].count,
                                   .incl_time = ivs[i].vmin,
                                   .excl_time = ivs[i].vmax,
                                   .bytes_sent = start});
  for (size_t i = first_of(sp, nsp, sizeof *sp, offsetof(pt__span, loc), loc);
       i < nsp && sp[i].loc == loc && rc == PT_OK; i++)
    rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                   .kind = PT_SUM_SPAN, .ref = sp[i].region,
                                   .count = 1, .incl_time = sp[i].enter,
                                   .excl_time = sp[i].leave,
                                   .bytes_sent = sp[i].is_mpi ? sp[i].callsite
                                                              : 0,
                                   .bytes_recv = (uint64_t)sp[i].is_mpi});
  return rc;
}

/* unmatched sends by process (snapshots: a thread's under its process's
 * first location, as before), then time, then queue position */
static int cmp_pend(const void *a, const void *b) {
  const pt__pend *x = a, *y = b;
  if (x->loc != y->loc) return x->loc < y->loc ? -1 : 1;
  if (x->ev.time != y->ev.time) return x->ev.time < y->ev.time ? -1 : 1;
  return x->qpos < y->qpos ? -1 : x->qpos > y->qpos;
}

/* the same by sending location (PT_SUM_PENDING) */
static int cmp_pend_src(const void *a, const void *b) {
  const pt__pend *x = a, *y = b;
  if (x->src != y->src) return x->src < y->src ? -1 : 1;
  if (x->ev.time != y->ev.time) return x->ev.time < y->ev.time ? -1 : 1;
  return x->qpos < y->qpos ? -1 : x->qpos > y->qpos;
}

static int cmp_late(const void *a, const void *b) {
  const pt__late *x = a, *y = b;
  if (x->k[0] != y->k[0]) return x->k[0] < y->k[0] ? -1 : 1;
  return x->k[1] < y->k[1] ? -1 : x->k[1] > y->k[1];
}

/* A pending blocking send whose call has returned: its duration + 1, kept
 * in the 31 bits above the queue position of its PT_SUM_PENDING record
 * (0: call still open, or too long to keep; a window from summaries then
 * bounds its late receiver as a scan does only when the call is open). */
static uint64_t pend_dur(const pt__pend *p) {
  if (!p->blocking || !p->left || p->leave < p->enter) return 0;
  uint64_t d = p->leave - p->enter + 1;
  return d < ((uint64_t)1 << 31) ? d : 0;
}

/* The message state of location loc at t: the late-sender / receiver
 * counters of its receives (lts sorted by receiving location), a marker
 * with the receives still unmatched (of every location), its unmatched
 * sends (ps sorted by sending location) with their queue positions and
 * its open receive requests. */
static int put_late(pt_aux_writer *aw, const pt_stats *s, uint64_t t,
                    uint64_t loc, const pt__late *lts, size_t nlt,
                    uint64_t nrecvq, const pt__pend *ps, size_t np) {
  int rc = PT_OK;
  for (size_t i = first_of(lts, nlt, sizeof *lts, offsetof(pt__late, k[0]), loc);
       i < nlt && lts[i].k[0] == loc && rc == PT_OK; i++)
    rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                   .kind = PT_SUM_LATE, .ref = lts[i].k[1],
                                   .count = lts[i].matched,
                                   .incl_time = lts[i].ls,
                                   .excl_time = lts[i].lr});
  if (rc == PT_OK)
    rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                   .kind = PT_SUM_PENDING, .ref = PT_NONE,
                                   .count = nrecvq});
  for (size_t i = first_of(ps, np, sizeof *ps, offsetof(pt__pend, src), loc);
       i < np && ps[i].src == loc && rc == PT_OK; i++)
    rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                   .kind = PT_SUM_PENDING,
                                   .ref = (uint64_t)ps[i].ev.peer,
                                   .count = ps[i].ev.comm,
                                   .incl_time = ps[i].ev.time,
                                   .excl_time = ps[i].enter,
                                   .bytes_sent = (uint64_t)ps[i].ev.tag,
                                   .bytes_recv = ps[i].blocking |
                                                 (uint64_t)ps[i].qpos << 1 |
                                                 pend_dur(&ps[i]) << 33});
  for (size_t i = 0; i < s->reqs.n && rc == PT_OK; i++) {
    const pt__req *q = pt__kt_at(&s->reqs, i);
    if (q->k[0] != loc || q->ev.kind != PT_EV_IRECV_REQUEST) continue;
    rc = put_sum(aw, &(pt_summary){.time = t, .location = loc,
                                   .kind = PT_SUM_POSTED, .ref = q->k[1],
                                   .incl_time = q->post,
                                   .excl_time = q->ev.time});
  }
  return rc;
}

/* Emit the state at time t for every stream. */
static int emit(pt_stats *s, stream_out *so, size_t nso, uint64_t t,
                pt_error *err) {
  /* pending sends, with their positions in their channels' queues;
   * receives waiting for a send that some location of the trace can make
   * (one from a rank the trace does not have never meets one) */
  size_t np = 0;
  uint64_t nrecvq = 0;
  for (size_t i = 0; i < s->chans.n; i++) {
    const pt__chan *c = pt__kt_at(&s->chans, i);
    /* (a receive from MPI_ANY_SOURCE without a status, sender
     * UINT64_MAX: any send to it) */
    int live = !c->recvs || c->k[0] == UINT64_MAX ||
               pt__stats_rank_exists(s, c->k[0]);
    for (uint32_t j = c->head; j != UINT32_MAX; j = s->pends[j].next) {
      if (c->recvs) nrecvq += (uint64_t)live;
      else np++;
    }
  }
  pt__pend *ps = malloc((np ? 2 * np : 1) * sizeof *ps);
  if (!ps) return pt__err(err, PT_ENOMEM, "out of memory");
  np = 0;
  for (size_t i = 0; i < s->chans.n; i++) {
    const pt__chan *c = pt__kt_at(&s->chans, i);
    if (c->recvs) continue;
    uint32_t pos = 0;
    for (uint32_t j = c->head; j != UINT32_MAX; j = s->pends[j].next) {
      ps[np] = s->pends[j];
      ps[np++].qpos = pos++;
    }
  }
  /* by process for the snapshots, by sending location for the summaries */
  pt__pend *pss = ps + np;
  if (np) memcpy(pss, ps, np * sizeof *ps);
  qsort(ps, np, sizeof *ps, cmp_pend);
  qsort(pss, np, sizeof *pss, cmp_pend_src);
  /* the interval's visit extremes, by location */
  size_t niv = s->iv.n;
  pt__iv *ivs = malloc((niv ? niv : 1) * sizeof *ivs);
  if (!ivs) {
    free(ps);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < niv; i++) ivs[i] = *(pt__iv *)pt__kt_at(&s->iv, i);
  qsort(ivs, niv, sizeof *ivs, cmp_iv);
  if (s->nspans) qsort(s->spans, s->nspans, sizeof *s->spans, cmp_span);
  size_t ncs = s->cs.n;
  pt__cs *css = malloc((ncs ? ncs : 1) * sizeof *css);
  if (!css) {
    free(ps);
    free(ivs);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < ncs; i++) css[i] = *(pt__cs *)pt__kt_at(&s->cs, i);
  qsort(css, ncs, sizeof *css, cmp_cs);
  size_t nlt = s->lt.n;
  pt__late *lts = malloc((nlt ? nlt : 1) * sizeof *lts);
  if (!lts) {
    free(ps);
    free(ivs);
    free(css);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < nlt; i++) lts[i] = *(pt__late *)pt__kt_at(&s->lt, i);
  qsort(lts, nlt, sizeof *lts, cmp_late);
  int rc = PT_OK;
  for (size_t k = 0; k < nso && rc == PT_OK; k++) {
    for (size_t li = 0; li < so[k].nlocs && rc == PT_OK; li++) {
      uint64_t loc = so[k].locs[li];
      if (so[k].sums) {
        sum_ctx c = {so[k].sums, t, loc};
        uint64_t depth = 0, app = 0;
        rc = pt__stats_partial(s, loc, t, add_excl, &app, &depth);
        if (rc == PT_OK)
          rc = put_sum(so[k].sums, &(pt_summary){.time = t, .location = loc,
                                                 .kind = PT_SUM_REGION,
                                                 .ref = PT_NONE, .count = depth,
                                                 .incl_time = app,
                                                 .excl_time = app});
        if (rc == PT_OK) rc = pt__stats_partial(s, loc, t, put_region, &c, &depth);
        const pt__loc *L = pt__kt_find(&s->locs, (const uint64_t[4]){loc, 0, 0, 0});
        /* The call-site records are complete (marker count 1): each open
         * MPI call's site is kept (kind PT_SUM_CALL_OPEN), and a window
         * scan that sees a call open here learn its site later moves the
         * call's part before t to that site. */
        if (rc == PT_OK)
          rc = put_visits(so[k].sums, t, loc, s->iv_start, ivs, niv, s->spans,
                          s->nspans, 1);
        for (size_t i = 0; L && i < L->depth && rc == PT_OK; i++) {
          const pt__frame *f = &L->st[i];
          if (f->is_mpi && f->callsite != PT_NONE)
            rc = put_sum(so[k].sums,
                         &(pt_summary){.time = t, .location = loc,
                                       .kind = PT_SUM_CALL_OPEN,
                                       .ref = f->callsite, .count = i,
                                       .incl_time = f->enter,
                                       .excl_time = f->region});
        }
        if (rc == PT_OK)
          rc = put_callsites(so[k].sums, t, s->iv_start, loc, css, ncs, L);
        if (rc == PT_OK)
          rc = put_late(so[k].sums, s, t, loc, lts, nlt, nrecvq, pss, np);
        for (size_t i = 0; i < s->pm.n && rc == PT_OK; i++) {
          const pt__pm *p = pt__kt_at(&s->pm, i);
          if (p->k[0] != loc) continue;
          rc = put_sum(so[k].sums,
                       &(pt_summary){.time = t, .location = loc,
                                     .kind = p->k[2] ? PT_SUM_RMA
                                                     : PT_SUM_MESSAGES,
                                     .ref = p->k[1] == PT_NONE
                                                ? PT_SUM_PEER_UNKNOWN
                                                : p->k[1],
                                     .count = p->sent, .excl_time = p->recv,
                                     .bytes_sent = p->bsent,
                                     .bytes_recv = p->brecv});
        }
      }
      if (so[k].snaps && rc == PT_OK) {
        const pt__loc *L = pt__kt_find(&s->locs, (const uint64_t[4]){loc, 0, 0, 0});
        pt_event ev;
        for (size_t i = 0; L && i < L->depth && rc == PT_OK; i++) {
          pt_event_init(&ev, PT_EV_ENTER, L->st[i].enter, loc);
          ev.ref = L->st[i].region;
          pt_attr site;
          if (L->st[i].is_mpi && L->st[i].callsite != PT_NONE && s->cs_attr) {
            memset(&site, 0, sizeof site);
            site.key = s->cs_attr - 1;
            site.val.type = s->cs_attr_type;
            site.val.v.u = L->st[i].callsite;
            ev.attrs = &site;
            ev.nattrs = 1;
          }
          rc = put_snap(so[k].snaps, t, loc, &ev);
        }
        for (size_t i = 0; i < np && rc == PT_OK; i++) {
          if (ps[i].loc != loc) continue;
          from_copy(&ev, &ps[i].ev, loc);
          rc = put_snap(so[k].snaps, t, loc, &ev);
        }
        for (size_t i = 0; i < s->reqs.n && rc == PT_OK; i++) {
          const pt__req *q = pt__kt_at(&s->reqs, i);
          if (q->k[0] != loc) continue;
          if (q->ev.kind == PT_EV_ISEND) continue; /* a pending send above,
                                                      or already received */
          from_copy(&ev, &q->ev, loc);
          rc = put_snap(so[k].snaps, t, loc, &ev);
        }
      }
    }
  }
  free(ps);
  free(ivs);
  free(css);
  free(lts);
  if (rc < 0) return pt__err(err, rc, "writing the state at %" PRIu64 ": %s", t,
                             aux_why(so, nso, rc));
  pt__stats_new_interval(s, t);
  return PT_OK;
}

static uint64_t trace_end(const pt_reader *r) {
  uint64_t end = 0;
  for (size_t i = 0; i < pt_reader_nstreams(r); i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    if (si->events && si->last_time > end) end = si->last_time;
  }
  return end;
}
static uint64_t trace_start(const pt_reader *r) {
  uint64_t st = UINT64_MAX;
  for (size_t i = 0; i < pt_reader_nstreams(r); i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    if (si->events && si->first_time < st) st = si->first_time;
  }
  return st == UINT64_MAX ? 0 : st;
}

int pt_archive_summarize(const char *path, uint64_t every, unsigned what,
                         pt_error *err) {
  if (!every || !(what & 3)) return pt__err(err, PT_EINVAL, "bad interval");
  pt_reader *r = NULL;
  int rc = pt_reader_open(&r, path, NULL, err);
  if (rc < 0) return rc;
  size_t nso = pt_reader_nstreams(r);
  /* More summary times than events is a slip (ticks for milliseconds):
   * each would repeat every counter of every location for nothing. */
  uint64_t events = 0, first = trace_start(r), last = trace_end(r);
  for (size_t i = 0; i < nso; i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    events += si->events;
    /* summaries are per location of a stream: a stream whose writer died
     * before writing its manifest has no list (no window could use what
     * would be written) */
    if (si->events && !si->nlocations) {
      uint64_t id = si->stream;
      pt_reader_close(r);
      return pt__err(err, PT_EINVAL,
                     "stream %" PRIu64 " has events but no location list "
                     "(its writer died before closing): run `paratrace "
                     "recover` on the archive first", id);
    }
  }
  uint64_t times = last > first ? (last - first) / every : 0;
  if (times > 10000 && times > events) {
    pt_reader_close(r);
    return pt__err(err, PT_EINVAL,
                   "an interval of %" PRIu64 " ticks gives %" PRIu64
                   " summary times for %" PRIu64 " events; use at least %"
                   PRIu64 " ticks", every, times, events,
                   (last - first) / (events > 10000 ? events : 10000) + 1);
  }
  stream_out *so = calloc(nso ? nso : 1, sizeof *so);
  pt_stats *s = NULL;
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  o.end = last;
  if (!so || pt_stats_create(&s, &o) < 0) {
    rc = pt__err(err, PT_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < pt_reader_ndefs(r) && rc == PT_OK; i++)
    rc = pt_stats_def(s, pt_reader_def(r, i));
  if (rc == PT_OK) rc = pt__stats_freeze(s);
  if (what & PT_STATS_SUMMARIES) {
    pt__stats_track_visits(s);
    s->track_late = 1;
  }
  for (size_t i = 0; i < nso && rc == PT_OK; i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    so[i].stream = si->stream;
    so[i].locs = si->locations;
    so[i].nlocs = si->nlocations;
    if (what & PT_STATS_SUMMARIES)
      rc = pt_aux_open(&so[i].sums, path, si->stream, PT_ITEM_SUMMARY, err);
    if (rc == PT_OK && (what & PT_STATS_SNAPSHOTS))
      rc = pt_aux_open(&so[i].snaps, path, si->stream, PT_ITEM_SNAPSHOT, err);
  }
  if (rc < 0) goto out;
  uint64_t end = o.end, next = trace_start(r) + every, last_sum = 0;
  int emitted = 0;
  pt_event ev;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) {
    if (PT_UNLIKELY(pt__interrupted())) {
      rc = pt__err(err, PT_EINTR, "interrupted");
      goto out;
    }
    while (next <= ev.time && next <= end) {
      if ((rc = emit(s, so, nso, next, err)) < 0) goto out;
      emitted = 1;
      last_sum = next;
      next += every;
    }
    if ((rc = pt_stats_event(s, &ev)) < 0) {
      pt__err(err, rc, "%s", pt_strerror(rc));
      goto out;
    }
  }
  if (rc != PT_END) {
    pt__err(err, rc, "%s", pt_reader_errmsg(r));
    goto out;
  }
  rc = PT_OK;
  /* where each location's MPI program runs, known now for the whole trace
   * (a window's application time under MPI_Init..MPI_Finalize): regions
   * still open end at the trace's end, as in a full scan (an MPI_Init
   * that never ends ends there) */
  if (emitted && (rc = pt_stats_finish(s)) < 0) {
    pt__err(err, rc, "%s", pt_strerror(rc));
    goto out;
  }
  for (size_t i = 0; emitted && i < nso && rc == PT_OK; i++) {
    for (size_t li = 0; so[i].sums && li < so[i].nlocs && rc == PT_OK; li++) {
      const pt__loc *L = pt__kt_find(&s->locs, (const uint64_t[4]){so[i].locs[li], 0, 0, 0});
      rc = put_sum(so[i].sums,
                   &(pt_summary){.time = last_sum, .location = so[i].locs[li],
                                 .kind = PT_SUM_APP_SPAN,
                                 .count = L ? (uint64_t)L->has_init |
                                                  (uint64_t)L->has_fin << 1
                                            : 0,
                                 .incl_time = L && L->has_init ? L->init_end : 0,
                                 .excl_time = L && L->has_fin ? L->fin_start : 0});
    }
  }
  if (rc < 0) {
    pt__err(err, rc, "writing the summaries: %s", aux_why(so, nso, rc));
    goto out;
  }
  /* the anchor's files line once, not per file (quadratic in streams) */
  for (size_t i = 0; i < nso && rc == PT_OK; i++) {
    if (so[i].sums) rc = pt__aux_close(so[i].sums, 0, err);
    so[i].sums = NULL;
    if (rc == PT_OK && so[i].snaps) rc = pt__aux_close(so[i].snaps, 0, err);
    so[i].snaps = NULL;
  }
  if (nso) pt__aux_refresh_files(path);
out:
  for (size_t i = 0; so && i < nso; i++) {
    pt_aux_abort(so[i].sums);
    pt_aux_abort(so[i].snaps);
  }
  free(so);
  pt_stats_destroy(s);
  pt_reader_close(r);
  return rc;
}

/* ---- window statistics from summaries ------------------------------------ */

typedef struct tmark {
  uint64_t time, loc, depth, enters;
  int has_marker, has_visits, has_sites;
  int has_calls; /* a PT_SUM_VISITS marker saying it has call records */
  int has_late, late_ok; /* a PT_SUM_PENDING marker; with count 0 */
} tmark;

static int cmp_tmark(const void *a, const void *b) {
  const tmark *x = a, *y = b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* A stats object for the scans below: opts with the window [lo, hi). */
static int scan_obj(pt_reader *r, const pt_stats_opts *opts, uint64_t end,
                    uint64_t lo, uint64_t hi, pt_stats **out) {
  pt_stats_opts o = *opts;
  o.from = lo;
  o.to = hi == UINT64_MAX ? 0 : hi;
  o.end = end;
  o.relative_to = PT_NONE;
  o.matrix_by = PT_STATS_BY_PAIR;
  pt_stats *g = NULL;
  int rc = pt_stats_create(&g, &o);
  for (size_t i = 0; rc == PT_OK && i < pt_reader_ndefs(r); i++)
    rc = pt_stats_def(g, pt_reader_def(r, i));
  if (rc == PT_OK) rc = pt__stats_freeze(g);
  if (rc < 0) {
    pt_stats_destroy(g);
    return rc;
  }
  *out = g;
  return PT_OK;
}

/* The state at one summary time, read once: the open regions of its
 * snapshot and its summaries. */
typedef struct saved_state {
  pt_snapshot *st; /* ENTER snapshots, in file order */
  size_t nst, capst;
  pt_summary *sm;
  size_t nsm, capsm;
} saved_state;

static void saved_free(saved_state *a) {
  for (size_t i = 0; i < a->nst; i++) free((void *)a->st[i].event.attrs);
  free(a->st);
  free(a->sm);
}

static int saved_snap(saved_state *a, const pt_snapshot *sn) {
  if (a->nst == a->capst) {
    size_t nc = a->capst ? a->capst * 2 : 64;
    pt_snapshot *q = realloc(a->st, nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    a->st = q;
    a->capst = nc;
  }
  pt_snapshot *d = &a->st[a->nst];
  *d = *sn;
  d->event.attrs = NULL;
  d->event.nattrs = 0;
  d->event.text = NULL;
  if (sn->event.nattrs) { /* kept: the call site of an open MPI call */
    pt_attr *at = malloc(sn->event.nattrs * sizeof *at);
    if (!at) return PT_ENOMEM;
    memcpy(at, sn->event.attrs, sn->event.nattrs * sizeof *at);
    for (uint32_t i = 0; i < sn->event.nattrs; i++)
      if (at[i].val.type == PT_TYPE_STRING || at[i].val.type == PT_TYPE_INTS)
        at[i].val.type = PT_TYPE_NONE; /* not needed, not kept */
    d->event.attrs = at;
    d->event.nattrs = sn->event.nattrs;
  }
  a->nst++;
  return PT_OK;
}

static int saved_sum(saved_state *a, const pt_summary *m) {
  if (a->nsm == a->capsm) {
    size_t nc = a->capsm ? a->capsm * 2 : 256;
    pt_summary *q = realloc(a->sm, nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    a->sm = q;
    a->capsm = nc;
  }
  a->sm[a->nsm++] = *m;
  return PT_OK;
}

/* unmatched sends by their positions in their channels' queues (then a
 * total order): each channel's in the order a scan queued them */
static int cmp_pending(const void *a, const void *b) {
  const pt_summary *x = a, *y = b;
  uint64_t px = (x->bytes_recv >> 1) & UINT32_MAX;
  uint64_t py = (y->bytes_recv >> 1) & UINT32_MAX;
  if (px != py) return px < py ? -1 : 1;
  if (x->location != y->location) return x->location < y->location ? -1 : 1;
  return x->incl_time < y->incl_time ? -1 : x->incl_time > y->incl_time;
}

/* The unmatched sends and open receive requests of a saved state (of the
 * selected locations), queued in g as a scan up to its time left them. */
static int push_messages(pt_stats *g, const saved_state *a) {
  size_t n = 0;
  for (size_t i = 0; i < a->nsm; i++)
    n += a->sm[i].kind == PT_SUM_PENDING && a->sm[i].ref != PT_NONE;
  pt_summary *p = malloc((n ? n : 1) * sizeof *p);
  if (!p) return PT_ENOMEM;
  n = 0;
  int rc = PT_OK;
  for (size_t i = 0; i < a->nsm && rc == PT_OK; i++) {
    const pt_summary *m = &a->sm[i];
    if (!pt__stats_selected(g, m->location)) continue;
    if (m->kind == PT_SUM_PENDING && m->ref != PT_NONE) p[n++] = *m;
    else if (m->kind == PT_SUM_POSTED)
      rc = pt__stats_push_posted(g, m->location, m->ref, m->excl_time,
                                 m->incl_time);
  }
  qsort(p, n, sizeof *p, cmp_pending);
  for (size_t i = 0; i < n && rc == PT_OK; i++)
    rc = pt__stats_push_send(g, p[i].location, (int64_t)p[i].ref, p[i].count,
                             (int64_t)p[i].bytes_sent, p[i].incl_time,
                             p[i].excl_time, (p[i].bytes_recv & 1) != 0,
                             p[i].bytes_recv >> 33);
  free(p);
  return rc;
}

/* Push the call stacks of a saved state; with sums, add its summaries and,
 * when g keeps late times, its message state. */
static int push_state(pt_stats *g, const saved_state *a, int sums) {
  int rc = PT_OK;
  for (size_t i = 0; rc == PT_OK && i < a->nst; i++) {
    const pt_snapshot *sn = &a->st[i];
    if (pt__stats_selected(g, sn->location))
      rc = pt__stats_push(g, sn->location, sn->event.ref, sn->event.time,
                          pt__stats_enter_callsite(g, &sn->event));
  }
  for (size_t i = 0; rc == PT_OK && i < a->nsm; i++) {
    const pt_summary *m = &a->sm[i];
    if (m->kind == PT_SUM_CALL_OPEN && pt__stats_selected(g, m->location))
      pt__stats_set_callsite(g, m->location, m->count, m->excl_time,
                             m->incl_time, m->ref);
    else if (sums)
      rc = pt__stats_add_summary(g, m, 1);
  }
  if (sums && rc == PT_OK && g->track_late) rc = push_messages(g, a);
  return rc;
}

/* What a scan reads on past its end for (what a full scan sees later):
 * AHEAD_SITES, while an open MPI call may still learn its call site (a
 * full scan files the call under the site it learns after t) and, when g
 * keeps late times, while a receive before t waits for its send (a full
 * scan matches it later); AHEAD_IO, while an I/O operation begun before
 * t has not ended (its bytes and time are known at its end). */
enum { AHEAD_SITES = 1, AHEAD_IO = 2 };
static int reads_on(const pt_stats *g, uint64_t t, int ahead) {
  return ((ahead & AHEAD_SITES) &&
          (pt__stats_sites_pending(g, t) || (g->track_late && g->rq_wait))) ||
         ((ahead & AHEAD_IO) && pt__stats_io_pending(g));
}

/* Feed the events in [a, t) to g, and on past t while reads_on(ahead). */
static int scan(pt_reader *r, pt_stats *g, uint64_t a, uint64_t t,
                int ahead, uint64_t *nread) {
  if (t <= a && !reads_on(g, t, ahead)) return PT_OK;
  int rc = pt_reader_seek(r, a);
  pt_event ev;
  uint64_t past = 0;
  while (rc == PT_OK && (rc = pt_reader_next(r, &ev)) == PT_OK) {
    if (ev.time >= t) {
      if (!ahead || (past++ % 64 == 0 && !reads_on(g, t, ahead))) break;
    }
    (*nread)++;
    rc = pt_stats_event(g, &ev);
  }
  return rc == PT_END ? PT_OK : rc;
}

/* G(t): the profile of [0, t) from the state at s (s = 0 and no state when
 * use_s is 0).  Visits entered in [mm_lo, t) count for the extremes. */
static int g_of(pt_reader *r, const pt_stats_opts *opts, uint64_t end,
                int use_s, uint64_t s, const saved_state *st, uint64_t t,
                uint64_t mm_lo, int late, pt_stats **out, uint64_t *nread,
                pt_error *err) {
  pt_stats *g = NULL;
  uint64_t lo = use_s ? s : 0;
  int rc = scan_obj(r, opts, end, lo, t, &g);
  if (rc < 0) return pt__err(err, rc, "%s", pt_strerror(rc));
  g->mm_lo = mm_lo;
  g->track_late = late;
  if (use_s) rc = push_state(g, st, 1);
  if (rc == PT_OK) rc = scan(r, g, lo, t, AHEAD_SITES, nread);
  if (rc == PT_OK) rc = pt_stats_finish(g);
  if (rc < 0) {
    pt_stats_destroy(g);
    return pt__err(err, rc, "%s", pt_reader_errmsg(r));
  }
  *out = g;
  return PT_OK;
}

static int add_extremes(pt_stats *dst, const pt_stats *src);

/* The metric rows of [from, to), which summaries do not hold, into dst
 * (in place of its own): the METRIC events of the window and, with
 * `regions`, its ENTER and LEAVE events (a delta counts for a visit
 * entered and left in the window: nothing before `from` is needed), from
 * a reader of those kinds only. */
static int metric_rows(const char *path, const pt_stats_opts *opts,
                       uint64_t end, int regions, pt_stats *dst,
                       uint64_t *nread, pt_error *err) {
  pt_reader_opts ro = {0};
  ro.locations = opts->locations;
  ro.nlocations = opts->nlocations;
  ro.from = opts->from;
  ro.to = opts->to;
  ro.kinds = PT_KIND_BIT(PT_EV_METRIC) |
             (regions ? PT_KIND_BIT(PT_EV_ENTER) | PT_KIND_BIT(PT_EV_LEAVE)
                      : 0);
  pt_reader *r = NULL;
  int rc = pt_reader_open(&r, path, &ro, err);
  if (rc < 0) return rc;
  pt_stats_opts o = *opts;
  o.end = end;
  pt_stats *g = NULL;
  if ((rc = pt_stats_create(&g, &o)) < 0) {
    pt_reader_close(r);
    return pt__err(err, rc, "%s", pt_strerror(rc));
  }
  for (size_t i = 0; rc == PT_OK && i < pt_reader_ndefs(r); i++)
    if (pt_reader_def(r, i)->kind == PT_DEF_METRIC)
      rc = pt_stats_def(g, pt_reader_def(r, i));
  pt_event ev;
  while (rc == PT_OK && (rc = pt_reader_next(r, &ev)) == PT_OK) {
    (*nread)++;
    rc = pt_stats_event(g, &ev);
  }
  if (rc == PT_END) rc = pt_stats_finish(g);
  pt__stats_metric_clear(dst);
  if (rc == PT_OK) rc = pt__stats_add_metrics(dst, g);
  pt_stats_destroy(g);
  if (rc < 0 && err && !err->msg[0])
    pt__err(err, rc, "%s: %s", path,
            *pt_reader_errmsg(r) ? pt_reader_errmsg(r) : pt_strerror(rc));
  pt_reader_close(r);
  return rc;
}

/* The I/O rows of [from, to), which summaries do not hold, into dst (in
 * place of its own): the operations begun in the window, read from the
 * state at s (the call stacks, for the calls that began them; the trace
 * start when use_s is 0) and on past `to` until each has ended. */
static int io_rows(pt_reader *r, const pt_stats_opts *opts, uint64_t end,
                   int use_s, uint64_t s, const saved_state *st,
                   pt_stats *dst, uint64_t *nread, pt_error *err) {
  pt_stats *g = NULL;
  uint64_t to = opts->to ? opts->to : UINT64_MAX;
  int rc = scan_obj(r, opts, end, opts->from, to, &g);
  if (rc < 0) return pt__err(err, rc, "%s", pt_strerror(rc));
  if (use_s) rc = push_state(g, st, 0);
  if (rc == PT_OK) rc = scan(r, g, use_s ? s : 0, to, AHEAD_IO, nread);
  if (rc == PT_OK) rc = pt_stats_finish(g);
  pt__kt_free(&dst->io);
  if (rc == PT_OK) rc = pt__stats_add_io(dst, g);
  pt_stats_destroy(g);
  if (rc < 0) return pt__err(err, rc, "%s", pt_reader_errmsg(r));
  return PT_OK;
}

/* The extremes of the visits entered in [from, to) that ended before n1,
 * the first summary time after from (the state at s, the latest usable
 * summary time <= from, or the trace start), into gb. */
static int head_extremes(pt_reader *r, const pt_stats_opts *opts,
                         uint64_t end, int use_s, uint64_t s,
                         const saved_state *st, uint64_t n1, pt_stats *gb,
                         uint64_t *nread, pt_error *err) {
  pt_stats *g = NULL;
  int rc = scan_obj(r, opts, end, opts->from, opts->to ? opts->to : UINT64_MAX,
                    &g);
  if (rc < 0) return pt__err(err, rc, "%s", pt_strerror(rc));
  if (use_s) rc = push_state(g, st, 0);
  if (rc == PT_OK) rc = scan(r, g, use_s ? s : 0, n1, 0, nread);
  /* no finish: visits still open at n1 are counted by the records after */
  if (rc == PT_OK) rc = add_extremes(gb, g);
  pt_stats_destroy(g);
  if (rc < 0) return pt__err(err, rc, "%s", pt_reader_errmsg(r));
  return PT_OK;
}

/* Extremes recorded by summaries, folded into acc: those of the visits
 * inside an interval that starts at n1 or later and ends by sb, of the
 * visits that crossed a summary time, entered in [from, to) and ended
 * before sb, and of the sizes sent in those intervals. */
static int recorded_extreme(const pt_summary *m, const pt_stats_opts *o,
                            uint64_t n1, uint64_t sb, pt_stats *acc) {
  uint64_t to = o->to ? o->to : UINT64_MAX;
  if (m->time > sb || !pt__stats_selected(acc, m->location)) return PT_OK;
  if (m->kind == PT_SUM_VISITS && m->ref != PT_NONE && m->count &&
      m->time > n1 && m->bytes_sent >= n1)
    return pt__stats_visit_extreme(acc, m->location, m->ref, m->incl_time,
                                   m->excl_time);
  if (m->kind == PT_SUM_CALL_VISITS && m->count && m->time > n1 &&
      m->bytes_recv >= n1 && m->incl_time <= m->excl_time)
    return pt__stats_call_extreme(acc, m->location, m->bytes_sent, m->ref,
                                  m->incl_time, m->excl_time);
  if (m->kind == PT_SUM_CALLSITE_MSGS && m->time > n1 &&
      m->bytes_sent <= m->bytes_recv)
    return pt__stats_msg_extreme(acc, m->location, m->excl_time, m->ref,
                                 m->bytes_sent, m->bytes_recv);
  if (m->kind == PT_SUM_SPAN && m->incl_time >= o->from && m->incl_time < to &&
      m->excl_time < sb && m->excl_time >= m->incl_time) {
    uint64_t d = m->excl_time - m->incl_time;
    int rc = pt__stats_visit_extreme(acc, m->location, m->ref, d, d);
    if (rc == PT_OK && m->bytes_recv == 1) /* an MPI call */
      rc = pt__stats_call_extreme(acc, m->location, m->ref, m->bytes_sent, d,
                                  d);
    return rc;
  }
  return PT_OK;
}

/* The extremes folded into src, into dst. */
static int add_extremes(pt_stats *dst, const pt_stats *src) {
  int rc = PT_OK;
  for (size_t i = 0; rc == PT_OK && i < src->rl.n; i++) {
    const pt__rl *x = pt__kt_at(&src->rl, i);
    if (x->vset)
      rc = pt__stats_visit_extreme(dst, x->k[0], x->k[1], x->vmin, x->vmax);
  }
  for (size_t i = 0; rc == PT_OK && i < src->cs.n; i++) {
    const pt__cs *x = pt__kt_at(&src->cs, i);
    if (x->nb)
      rc = pt__stats_msg_extreme(dst, x->k[2] - 1, x->k[0], x->k[1], x->bmin,
                                 x->bmax);
    if (rc == PT_OK && x->tset)
      rc = pt__stats_call_extreme(dst, x->k[2] - 1, x->k[0], x->k[1], x->tmin,
                                  x->tmax);
  }
  return rc;
}

int pt_stats_window(pt_stats **out, const char *path,
                    const pt_stats_opts *opts, uint64_t *events_read,
                    pt_error *err) {
  *out = NULL;
  uint64_t nread = 0;
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  if (opts) o = *opts;
  pt_reader_opts ro = {0};
  ro.locations = o.locations;
  ro.nlocations = o.nlocations;
  pt_reader *r = NULL;
  int rc = pt_reader_open(&r, path, &ro, err);
  if (rc < 0) return rc;
  uint64_t end = o.end ? o.end : trace_end(r);
  /* the selected locations (from definitions) */
  pt_stats *probe = NULL;
  tmark *tm = NULL;
  size_t ntm = 0, cap = 0;
  pt_stats *ga = NULL, *gb = NULL;
  saved_state st_a = {0}, st_b = {0};
  if ((rc = pt_stats_create(&probe, &o)) < 0) goto fail;
  for (size_t i = 0; i < pt_reader_ndefs(r) && rc == PT_OK; i++)
    rc = pt_stats_def(probe, pt_reader_def(r, i));
  if (rc == PT_OK) rc = pt__stats_freeze(probe);
  if (rc < 0) goto fail;
  /* the application time of a trace with MPI_Init runs from its end to
   * the start of MPI_Finalize (without a program region, or in a window
   * where it has no visit): per location from PT_SUM_APP_SPAN */
  int need_span = pt__stats_has_init_region(probe);
  /* locations that must have summaries: the selected ones stored in a
   * stream (a defined location without events has none) */
  size_t nsel = 0;
  int unknown = 0;
  for (size_t i = 0; i < pt_reader_nstreams(r); i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    if (!si->nlocations && si->events) unknown = 1;
    for (uint64_t j = 0; j < si->nlocations; j++)
      nsel += (size_t)pt__stats_selected(probe, si->locations[j]);
  }
  if (unknown) nsel = probe->locs.n;
  /* marker summaries and snapshot enter counts per (time, location) */
  pt_item it;
  size_t nspan = 0, nsum = 0; /* APP_SPAN records; summaries of any kind */
  /* Summary times read: [lo[0], hi[0]] around `from` and [lo[1], hi[1]]
   * around `to`, widened (4x) until each holds a usable time on either
   * side of its edge (or reaches the trace's end).  Blocks outside are
   * skipped unread, so finding the states costs what the edges' neighbour-
   * hoods hold, not every summary of the archive; each file's last block
   * is read for its APP_SPAN records (written at the last summary time). */
  uint64_t t_start = trace_start(r), to_w = o.to ? o.to : UINT64_MAX;
  if (to_w > end) to_w = end;
  if (to_w < o.from) to_w = o.from;
  uint64_t margin = (end > t_start ? end - t_start : 0) / 256 + 1;
  uint64_t lo[2], hi[2];
widen:
  for (int j = 0; j < 2; j++) {
    uint64_t e = j ? to_w : o.from;
    lo[j] = e > t_start && e - t_start > margin ? e - margin : 0;
    hi[j] = e < end && end - e > margin ? e + margin : UINT64_MAX;
  }
  if (hi[0] >= lo[1]) hi[0] = hi[1], lo[1] = lo[0]; /* they meet: one */
  pt__reader_aux_range(r, lo, hi, 1);
  ntm = 0;
  nspan = 0;
  nsum = 0;
  /* the APP_SPAN records' time (all are written at the last summary
   * time), or a lower bound of it: the latest summary time read */
  uint64_t t_span = 0;
  for (int pass = 0; pass < 2; pass++) {
    pt_reader_aux_rewind(r);
    uint32_t what = pass ? PT_ITEM_SNAPSHOT : PT_ITEM_SUMMARY;
    while ((rc = pt_reader_aux_next(r, what, &it)) == PT_OK) {
      uint64_t t, loc;
      int mark = 0, vis = 0, late = 0;
      if (pass == 0) nsum++;
      if (pass == 0 && it.u.summary.time > t_span)
        t_span = it.u.summary.time;
      if (pass == 0 && it.u.summary.kind == PT_SUM_APP_SPAN) {
        const pt_summary *m = &it.u.summary;
        if (!pt__stats_selected(probe, m->location)) continue;
        if ((rc = pt__stats_set_app_span(probe, m->location, m->count,
                                         m->incl_time, m->excl_time)) < 0)
          goto fail;
        nspan++;
        continue;
      }
      if (pass == 0) {
        if (it.u.summary.ref != PT_NONE) continue;
        if (it.u.summary.kind == PT_SUM_VISITS) vis = 1;
        else if (it.u.summary.kind == PT_SUM_REGION) mark = 1;
        else if (it.u.summary.kind == PT_SUM_PENDING) late = 1;
        else continue;
        t = it.u.summary.time;
        loc = it.u.summary.location;
      } else {
        if (it.u.snapshot.event.kind != PT_EV_ENTER) continue;
        t = it.u.snapshot.time;
        loc = it.u.snapshot.location;
      }
      /* (a time at a range's edge may be in part of its blocks only) */
      if ((t < lo[0] || t > hi[0]) && (t < lo[1] || t > hi[1])) continue;
      if (!pt__stats_selected(probe, loc)) continue;
      if (ntm == cap) {
        cap = cap ? cap * 2 : 256;
        tmark *q = realloc(tm, cap * sizeof *q);
        if (!q) {
          rc = PT_ENOMEM;
          goto fail;
        }
        tm = q;
      }
      tm[ntm++] = (tmark){t, loc, mark ? it.u.summary.count : 0,
                          mark || vis || late ? 0 : 1, mark, vis,
                          vis && it.u.summary.count == 1,
                          vis && it.u.summary.bytes_recv == 1, late,
                          late && it.u.summary.count == 0};
    }
    if (rc != PT_END) goto fail;
  }
  rc = PT_OK;
  if (need_span && nspan < nsel &&
      (lo[0] > 0 || hi[1] < UINT64_MAX || hi[0] < lo[1])) {
    /* a stream's APP_SPAN records may begin in a block before its last
     * one: every block that reaches their time.  Those of the selected
     * locations may all be there (a --locations subset of a stream whose
     * last block holds other locations' records only: the reader returns
     * none of them), so t_span may be a bound below their time. */
    pt__reader_aux_range(r, (const uint64_t[2]){t_span, t_span},
                         (const uint64_t[2]){UINT64_MAX, UINT64_MAX}, 0);
    nspan = 0;
    while ((rc = pt_reader_aux_next(r, PT_ITEM_SUMMARY, &it)) == PT_OK) {
      const pt_summary *m = &it.u.summary;
      nsum++;
      if (m->kind != PT_SUM_APP_SPAN || !pt__stats_selected(probe, m->location))
        continue;
      if ((rc = pt__stats_set_app_span(probe, m->location, m->count,
                                       m->incl_time, m->excl_time)) < 0)
        goto fail;
      nspan++;
    }
    if (rc != PT_END) goto fail;
    rc = PT_OK;
  }
  if (need_span && nspan < nsel && !nsum) {
    /* (the ranges read reach the end of every stream: none at all) */
    rc = pt__err(err, PT_ENOTFOUND, "%s: no summaries", path);
    goto fail;
  }
  if (need_span && nspan < nsel) {
    rc = pt__err(err, PT_ENOTFOUND,
                 "%s: summaries without where MPI_Init ends (written by an "
                 "earlier version, or the archive has no location lists): "
                 "the application time needs a full scan", path);
    goto fail;
  }
  if (ntm) qsort(tm, ntm, sizeof *tm, cmp_tmark);
  /* merge entries of one (time, location); a time is usable when every
   * selected location has a marker whose depth equals its snapshot's
   * enter count */
  size_t nu = 0;
  int visits_ok = 1; /* every marker has its visit records */
  int calls_ok = 1;  /* ... and its call records per call site */
  /* call-site records complete at a usable time (marker count 1 for
   * every selected location): the window needs them at its two states */
  uint8_t *usable_sites = malloc(ntm ? ntm : 1);
  /* late times complete at a usable time: every selected location has a
   * PT_SUM_PENDING marker saying no receive waited for its send */
  uint8_t *usable_late = malloc(ntm ? ntm : 1);
  uint64_t *usable = malloc((ntm ? ntm : 1) * sizeof *usable);
  if (!usable || !usable_sites || !usable_late) {
    free(usable);
    free(usable_sites);
    free(usable_late);
    rc = PT_ENOMEM;
    goto fail;
  }
  for (size_t i = 0; i < ntm;) {
    uint64_t t = tm[i].time;
    size_t good = 0;
    int bad = 0, t_sites = 1, t_late = 1;
    while (i < ntm && tm[i].time == t) {
      uint64_t loc = tm[i].loc, depth = 0, enters = 0;
      int marker = 0, vmarker = 0, smarker = 0, lmarker = 0, lok = 0;
      int cmarker = 0;
      for (; i < ntm && tm[i].time == t && tm[i].loc == loc; i++) {
        if (tm[i].has_marker) {
          marker++;
          depth = tm[i].depth;
        }
        vmarker += tm[i].has_visits;
        smarker += tm[i].has_sites;
        cmarker += tm[i].has_calls;
        lmarker += tm[i].has_late;
        lok += tm[i].late_ok;
        enters += tm[i].enters;
      }
      if (marker && vmarker != 1) visits_ok = 0;
      if (marker && cmarker != 1) calls_ok = 0;
      if (marker && smarker != 1) t_sites = 0;
      if (marker && (lmarker != 1 || lok != 1)) t_late = 0;
      if (marker == 1 && depth == enters) good++;
      else bad = 1;
    }
    if (!bad && good == nsel) {
      usable_sites[nu] = (uint8_t)t_sites;
      usable_late[nu] = (uint8_t)t_late;
      usable[nu++] = t;
    }
  }
  if (lo[0] > 0 || hi[1] < UINT64_MAX || hi[0] < lo[1]) {
    /* each edge's range must hold the usable times around it (sa, the
     * first one after from; sb, the first one after to): else they may
     * lie outside */
    /* (a usable time after from, not at it: the first summary time
     * after from, n1, is then in the first range too) */
    int have_a = 0, have_f = 0, have_b = 0, have_t = !o.to;
    for (size_t i = 0; i < nu; i++) {
      if (usable[i] <= o.from) have_a = 1;
      if (usable[i] > o.from && usable[i] <= hi[0]) have_f = 1;
      if (usable[i] >= lo[1] && usable[i] <= to_w) have_b = 1;
      if (o.to && usable[i] >= o.to) have_t = 1;
    }
    int need = (lo[0] > 0 && !have_a) || (hi[0] < UINT64_MAX && !have_f);
    if (hi[0] < lo[1]) /* two ranges: sb must be in the second */
      need |= !have_b;
    need |= hi[1] < UINT64_MAX && !have_t;
    if (need) {
      free(usable);
      free(usable_sites);
      free(usable_late);
      margin = margin > UINT64_MAX / 4 ? UINT64_MAX : margin * 4;
      goto widen;
    }
  }
  if (!nu) {
    free(usable);
    free(usable_sites);
    free(usable_late);
    rc = pt__err(err, PT_ENOTFOUND, "%s: no usable summaries", path);
    goto fail;
  }
  uint64_t to = o.to ? o.to : UINT64_MAX;
  uint64_t sa = 0, sb = 0;
  int ua = 0, ub = 0, sa_sites = 1, sb_sites = 1, sa_late = 1, sb_late = 1;
  /* Past an edge t the scan reads on until the receives before t have
   * met their sends: that ends by the first summary time >= t at which no
   * receive waits; when that one has waiting receives (one may never be
   * matched) the late times are left out rather than read to the end. */
  int ahead_late = 1, seen_a = 0, seen_b = 0;
  for (size_t i = 0; i < nu; i++) {
    if (usable[i] <= o.from) {
      sa = usable[i], ua = 1;
      sa_sites = usable_sites[i], sa_late = usable_late[i];
    }
    if (usable[i] <= to) {
      sb = usable[i], ub = 1;
      sb_sites = usable_sites[i], sb_late = usable_late[i];
    }
    if (o.from && usable[i] >= o.from && !seen_a) {
      seen_a = 1;
      ahead_late &= usable_late[i];
    }
    if (to != UINT64_MAX && usable[i] >= to && !seen_b) {
      seen_b = 1;
      ahead_late &= usable_late[i];
    }
  }
  free(usable);
  free(usable_sites);
  free(usable_late);
  int sites_ok = visits_ok && (!ua || sa_sites) && (!ub || sb_sites);
  /* A scan of some threads of a process pairs their messages otherwise
   * than the summaries (made of all locations) do. */
  int late_ok = (!ua || sa_late) && (!ub || sb_late) && ahead_late &&
                !pt__stats_splits_process(probe);
  /* the first summary time after from */
  uint64_t n1 = UINT64_MAX;
  for (size_t i = 0; i < ntm && n1 == UINT64_MAX; i++)
    if (tm[i].has_marker && tm[i].time > o.from) n1 = tm[i].time;
  /* one more pass over the summary and snapshot files: the states at sa
   * and sb, and the extremes recorded between (into probe) */
  int extremes = visits_ok && ub && n1 <= sb;
  /* (everything this pass takes lies in [sa, sb]: SPAN records are
   * written after their visit, which began at or after from >= sa) */
  pt__reader_aux_range(r, (const uint64_t[2]){ua ? sa : 0, ua ? sa : 0},
                       (const uint64_t[2]){ub ? sb : 0, ub ? sb : 0}, 0);
  while ((rc = pt_reader_aux_next(r, PT_ITEM_SNAPSHOT, &it)) == PT_OK) {
    const pt_snapshot *sn = &it.u.snapshot;
    if (sn->event.kind != PT_EV_ENTER) continue;
    if (ua && sn->time == sa && (rc = saved_snap(&st_a, sn)) < 0) break;
    if (ub && sn->time == sb && (rc = saved_snap(&st_b, sn)) < 0) break;
  }
  if (rc != PT_END) goto fail;
  while ((rc = pt_reader_aux_next(r, PT_ITEM_SUMMARY, &it)) == PT_OK) {
    const pt_summary *m = &it.u.summary;
    if (ua && m->time == sa && (rc = saved_sum(&st_a, m)) < 0) break;
    if (ub && m->time == sb && (rc = saved_sum(&st_b, m)) < 0) break;
    if (extremes && (rc = recorded_extreme(m, &o, n1, sb, probe)) < 0) break;
  }
  if (rc != PT_END) goto fail;
  rc = PT_OK;
  if ((rc = g_of(r, &o, end, ub, sb, &st_b, to, o.from, late_ok, &gb, &nread,
                 err)) < 0)
    goto out;
  if (o.from && (rc = g_of(r, &o, end, ua, sa, &st_a, o.from, 0, late_ok, &ga,
                           &nread, err)) < 0)
    goto out;
  /* per-visit extremes: gb has those of the visits entered in [from, to)
   * that were open at sb or entered after it; when a summary time lies
   * in (from, sb], the others are in the summaries and in [from, n1) */
  if (extremes) {
    if ((rc = head_extremes(r, &o, end, ua, sa, &st_a, n1, gb, &nread, err)) < 0)
      goto out;
    if ((rc = add_extremes(gb, probe)) < 0) goto fail;
  }
  /* I/O from the events, when the trace may have any (gb's own rows are
   * those of [sb, to)) */
  if (probe->io_defs || gb->io_seen || (ga && ga->io_seen)) {
    if ((rc = io_rows(r, &o, end, ua, sa, &st_a, gb, &nread, err)) < 0)
      goto out;
  } else {
    pt__kt_free(&gb->io);
  }
  /* metric samples from the window's METRIC events (gb's own are those
   * of [sb, to)) */
  if (probe->mets.n || gb->mets.n || (ga && ga->mets.n)) {
    /* the enters and leaves too, unless the scans at the edges met
     * accumulated samples and none at the time of an enter or leave (a
     * counter sampled on its own: no deltas per region) */
    uint64_t as = gb->met_async + (ga ? ga->met_async : 0),
             sy = gb->met_sync + (ga ? ga->met_sync : 0);
    int regions = (probe->met_acc || gb->met_acc) && (sy || !as);
    if ((rc = metric_rows(path, &o, end, regions, gb, &nread, err)) < 0)
      goto out;
  } else {
    pt__stats_metric_clear(gb);
  }
  if (ga && (rc = pt__stats_add_rows(gb, ga, -1)) < 0) goto fail;
  if ((rc = pt__stats_rows_from_pm(gb)) < 0) goto fail;
  for (size_t i = 0; need_span && i < probe->locs.n; i++) {
    const pt__loc *L = pt__kt_at(&probe->locs, i);
    if ((rc = pt__stats_set_app_span(gb, L->k[0],
                                     (uint64_t)L->has_init |
                                         (uint64_t)L->has_fin << 1,
                                     L->init_end, L->fin_start)) < 0)
      goto fail;
  }
  pt__stats_invalidate(gb);
  gb->have = PT_STATS_HAVE_PROFILE | (visits_ok ? PT_STATS_HAVE_VISITS : 0) |
             (sites_ok ? PT_STATS_HAVE_CALLSITES : 0) |
             (sites_ok && calls_ok ? PT_STATS_HAVE_CALL_TIMES : 0) |
             (late_ok ? PT_STATS_HAVE_LATE : 0) | PT_STATS_HAVE_METRIC_REGIONS;
  gb->lo = o.from;
  gb->hi = to;
  gb->opts.from = o.from;
  gb->opts.to = o.to;
  gb->end_eff = end;
  gb->events = 0;
  *out = gb;
  gb = NULL;
  goto out;
fail:
  if (rc < 0 && err && !err->msg[0])
    pt__err(err, rc, "%s: %s", path,
            *pt_reader_errmsg(r) ? pt_reader_errmsg(r) : pt_strerror(rc));
  else if (err && rc < 0)
    err->status = rc;
out:
  if (events_read) *events_read = nread;
  free(tm);
  saved_free(&st_a);
  saved_free(&st_b);
  pt_stats_destroy(probe);
  pt_stats_destroy(ga);
  pt_stats_destroy(gb);
  pt_reader_close(r);
  return rc;
}
