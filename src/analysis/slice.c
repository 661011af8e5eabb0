/* Slices of a trace (pt_slice in include/paratrace/analysis.h).
 *
 * Two statistics engines track state: `pre` the state of the input up to
 * `from` (call stacks, unmatched sends, open requests), `post` the state of
 * what was written (to balance it at the end). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats_int.h"
#include "core/util.h"
#include "formats/mpi_fn.h"

typedef struct in_src {
  pt_source *src; /* non-native input */
  pt_reader *r;   /* native input, read directly to seek */
  pt_item held;   /* the first event, read while reading definitions */
  int have_held;
  pt_sink *k;     /* definitions found between events go here ... */
  pt_stats *pre, *post; /* ... and here */
} in_src;

static int next_event(in_src *in, pt_event *ev) {
  if (PT_UNLIKELY(pt__interrupted())) return PT_EINTR;
  if (in->r) return pt_reader_next(in->r, ev);
  if (in->have_held) {
    in->have_held = 0;
    *ev = in->held.u.event;
    return PT_OK;
  }
  pt_item it;
  int rc;
  while ((rc = pt_source_next(in->src, &it)) == PT_OK) {
    if (it.type == PT_ITEM_EVENT) {
      *ev = it.u.event;
      return PT_OK;
    }
    /* some formats (PICL) define things as they go */
    if (it.type != PT_ITEM_DEF) continue;
    if ((rc = pt_sink_write(in->k, &it)) < 0 ||
        (rc = pt_stats_def(in->pre, &it.u.def)) < 0 ||
        (rc = pt_stats_def(in->post, &it.u.def)) < 0)
      return rc;
  }
  return rc;
}

static const char *in_errmsg(const in_src *in) {
  return in->r ? pt_reader_errmsg(in->r) : pt_source_errmsg(in->src);
}

static int put_event(pt_sink *k, pt_stats *post, const pt_event *ev) {
  pt_item it;
  memset(&it, 0, sizeof it);
  it.type = PT_ITEM_EVENT;
  it.u.event = *ev;
  int rc = pt_sink_write(k, &it);
  if (rc == PT_OK) rc = pt_stats_event(post, ev);
  return rc;
}

static void from_copy(pt_event *ev, const pt__evcopy *c, uint64_t loc,
                      uint64_t t) {
  pt_event_init(ev, c->kind, t, loc);
  uint32_t m = pt_event_slot_mask(c->kind);
  if (m & (1u << PT_ESLOT_REF)) ev->ref = c->ref;
  if (m & (1u << PT_ESLOT_PEER)) ev->peer = c->peer;
  if (m & (1u << PT_ESLOT_COMM)) ev->comm = c->comm;
  if (m & (1u << PT_ESLOT_TAG)) ev->tag = c->tag;
  if (m & (1u << PT_ESLOT_SIZE)) ev->size = c->size;
  if (m & (1u << PT_ESLOT_REQUEST)) ev->request = c->request;
}

static int cmp_pend(const void *a, const void *b) {
  const pt__pend *x = a, *y = b;
  if (x->loc != y->loc) return x->loc < y->loc ? -1 : 1;
  return x->ev.time < y->ev.time ? -1 : x->ev.time > y->ev.time;
}

/* Unmatched sends of s, by location then time; caller frees. */
static pt__pend *pending_sends(const pt_stats *s, size_t *n) {
  size_t np = 0;
  for (size_t i = 0; i < s->chans.n; i++) {
    const pt__chan *c = pt__kt_at(&s->chans, i);
    if (c->recvs) continue;
    for (uint32_t j = c->head; j != UINT32_MAX; j = s->pends[j].next) np++;
  }
  pt__pend *ps = malloc((np ? np : 1) * sizeof *ps);
  if (!ps) return NULL;
  np = 0;
  for (size_t i = 0; i < s->chans.n; i++) {
    const pt__chan *c = pt__kt_at(&s->chans, i);
    if (c->recvs) continue;
    for (uint32_t j = c->head; j != UINT32_MAX; j = s->pends[j].next)
      ps[np++] = s->pends[j];
  }
  qsort(ps, np, sizeof *ps, cmp_pend);
  *n = np;
  return ps;
}

/* May a receive re-created at a slice's end go inside region `reg` of
 * s: any region but an MPI call that completes no receive. */
static int recv_fits(const pt_stats *s, uint64_t reg) {
  const char *n = pt_stats_region_name(s, reg);
  int id = n ? pt__mpi_fn_find(n) : -1;
  return id < 0 || pt__mpi_fn_receives(id);
}

static int cmp_loc(const void *a, const void *b) {
  uint64_t x = (*(pt__loc *const *)a)->k[0], y = (*(pt__loc *const *)b)->k[0];
  return x < y ? -1 : x > y;
}

/* Locations of s sorted by id (pointers valid until s changes). */
static pt__loc **sorted_locs(const pt_stats *s) {
  pt__loc **v = malloc((s->locs.n ? s->locs.n : 1) * sizeof *v);
  if (!v) return NULL;
  for (size_t i = 0; i < s->locs.n; i++) v[i] = pt__kt_at(&s->locs, i);
  qsort(v, s->locs.n, sizeof *v, cmp_loc);
  return v;
}

/* Latest snapshot time <= from, if any. */
static int find_snapshot(pt_reader *r, uint64_t from, uint64_t *s) {
  int found = 0, rc;
  pt_item it;
  pt_reader_aux_rewind(r);
  while ((rc = pt_reader_aux_next(r, PT_ITEM_SNAPSHOT, &it)) == PT_OK)
    if (it.u.snapshot.time <= from && (!found || it.u.snapshot.time > *s)) {
      *s = it.u.snapshot.time;
      found = 1;
    }
  return rc == PT_END ? found : rc;
}

int pt_slice(const char *inpath, const char *out, uint64_t from, uint64_t to,
             const pt_sink_opts *sopts, pt_slice_report *report,
             pt_error *err) {
  pt_slice_report rep;
  memset(&rep, 0, sizeof rep);
  if (from >= to) return pt__err(err, PT_EINVAL, "empty window");
  in_src in;
  memset(&in, 0, sizeof in);
  pt_sink *k = NULL;
  pt_stats *pre = NULL, *post = NULL;
  pt__pend *ps = NULL;
  pt__loc **lv = NULL;
  unsigned char *done = NULL; /* pending sends (ps) written */
  pt_event ev;
  int rc;
  const char *fmt = pt_format_detect(inpath);
  if (fmt && strcmp(fmt, "ptf") == 0) rc = pt_reader_open(&in.r, inpath, NULL, err);
  else {
    pt_source_opts so = {0};
    if (sopts) so.warn = sopts->warn, so.warn_user = sopts->warn_user;
    rc = pt_source_open(&in.src, inpath, &so, err);
  }
  if (rc < 0) return rc;
  pt_stats_opts o = {0};
  o.relative_to = PT_NONE;
  if ((rc = pt_stats_create(&pre, &o)) < 0 ||
      (rc = pt_stats_create(&post, &o)) < 0)
    goto fail;
  if ((rc = pt_sink_open(&k, out, sopts, err)) < 0) goto done;
  in.k = k;
  in.pre = pre;
  in.post = post;
  /* definitions (and the stream map of a native input) */
  pt_item it;
  if (in.r) {
    for (size_t i = 0; i < pt_reader_nstreams(in.r) && rc == PT_OK; i++) {
      const pt_stream_info *si = pt_reader_stream_info(in.r, i);
      for (uint64_t j = 0; j < si->nlocations && rc == PT_OK; j++) {
        memset(&it, 0, sizeof it);
        it.type = PT_ITEM_STREAM;
        it.u.stream.stream = si->stream;
        it.u.stream.location = si->locations[j];
        rc = pt_sink_write(k, &it);
      }
    }
    for (size_t i = 0; i < pt_reader_ndefs(in.r) && rc == PT_OK; i++) {
      memset(&it, 0, sizeof it);
      it.type = PT_ITEM_DEF;
      it.u.def = *pt_reader_def(in.r, i);
      rc = pt_sink_write(k, &it);
      if (rc == PT_OK) rc = pt_stats_def(pre, &it.u.def);
      if (rc == PT_OK) rc = pt_stats_def(post, &it.u.def);
    }
  } else {
    while ((rc = pt_source_next(in.src, &it)) == PT_OK) {
      if (it.type == PT_ITEM_EVENT) {
        in.held = it;
        in.have_held = 1;
        break;
      }
      if (it.type != PT_ITEM_DEF && it.type != PT_ITEM_STREAM) continue;
      rc = pt_sink_write(k, &it);
      if (rc == PT_OK && it.type == PT_ITEM_DEF) rc = pt_stats_def(pre, &it.u.def);
      if (rc == PT_OK && it.type == PT_ITEM_DEF) rc = pt_stats_def(post, &it.u.def);
      if (rc < 0) break;
    }
    if (rc == PT_END) rc = PT_OK;
  }
  if (rc < 0) goto fail;
  if ((rc = pt__stats_freeze(pre)) < 0 || (rc = pt__stats_freeze(post)) < 0)
    goto fail;
  /* the state at the snapshot */
  uint64_t snap = 0;
  if (in.r) {
    rc = find_snapshot(in.r, from, &snap);
    if (rc < 0) goto fail;
    if (rc == 1) {
      rep.used_snapshot = 1;
      rep.start = snap;
      pt_reader_aux_rewind(in.r);
      while ((rc = pt_reader_aux_next(in.r, PT_ITEM_SNAPSHOT, &it)) == PT_OK) {
        const pt_snapshot *sn = &it.u.snapshot;
        if (sn->time != snap) continue;
        if (sn->event.kind == PT_EV_ENTER)
          rc = pt__stats_push(pre, sn->location, sn->event.ref, sn->event.time,
                              pt__stats_enter_callsite(pre, &sn->event));
        else
          rc = pt_stats_event(pre, &sn->event);
        if (rc < 0) goto fail;
      }
      if (rc != PT_END) goto fail;
      if ((rc = pt_reader_seek(in.r, snap)) < 0) goto fail;
    }
  }
  /* events before the window: state only */
  int more = 0;
  while ((rc = next_event(&in, &ev)) == PT_OK) {
    if (!rep.used_snapshot && !rep.events_read) rep.start = ev.time;
    rep.events_read++;
    if (ev.time >= from) {
      more = 1;
      break;
    }
    if ((rc = pt_stats_event(pre, &ev)) < 0) goto fail;
  }
  if (rc < 0 && rc != PT_END) goto fail;
  /* re-create the state at `from`: the open regions, and each send not
   * yet received inside the deepest of them entered before it was sent
   * (an MPI_Isend's send is not the MPI_Wait's open at `from`: it counted
   * as sent by that call in the slice's statistics) */
  if (!(lv = sorted_locs(pre))) goto nomem;
  size_t np = 0, si = 0;
  if (!(ps = pending_sends(pre, &np))) goto nomem;
  if (!(done = calloc(np ? np : 1, 1))) goto nomem;
  for (size_t i = 0; i < pre->locs.n; i++) {
    uint64_t loc = lv[i]->k[0];
    while (si < np && ps[si].loc < loc) si++; /* (sorted by location) */
    for (size_t j = 0; j <= lv[i]->depth; j++) {
      uint64_t next = j < lv[i]->depth ? lv[i]->st[j].enter : UINT64_MAX;
      for (; si < np && ps[si].loc == loc && ps[si].ev.time < next; si++) {
        pt_event e;
        from_copy(&e, &ps[si].ev, ps[si].loc, from);
        if ((rc = put_event(k, post, &e)) < 0) goto fail;
        done[si] = 1;
        rep.sends++;
      }
      if (j == lv[i]->depth) break;
      pt_event e;
      pt_event_init(&e, PT_EV_ENTER, from, loc);
      e.ref = lv[i]->st[j].region;
      /* an MPI call keeps its call site (the slice's `stats` listed the
       * calls open at `from` under call site "-") */
      pt_attr cs;
      if (pre->cs_attr && lv[i]->st[j].callsite != PT_NONE) {
        cs = (pt_attr){pre->cs_attr - 1,
                       {.type = PT_TYPE_UINT, .v.u = lv[i]->st[j].callsite}};
        e.attrs = &cs;
        e.nattrs = 1;
      }
      if ((rc = put_event(k, post, &e)) < 0) goto fail;
      rep.enters++;
    }
  }
  for (size_t i = 0; i < np; i++) { /* of a location without state */
    if (done[i]) continue;
    pt_event e;
    from_copy(&e, &ps[i].ev, ps[i].loc, from);
    if ((rc = put_event(k, post, &e)) < 0) goto fail;
    rep.sends++;
  }
  for (size_t i = 0; i < pre->reqs.n; i++) {
    const pt__req *q = pt__kt_at(&pre->reqs, i);
    if (q->ev.kind != PT_EV_IRECV_REQUEST) continue;
    pt_event e;
    from_copy(&e, &q->ev, q->k[0], from);
    if ((rc = put_event(k, post, &e)) < 0) goto fail;
  }
  /* the window */
  uint64_t end = from;
  int cut = 0;
  while (more) {
    if (ev.time >= to) {
      cut = 1;
      break;
    }
    /* the COLL_END of a collective call whose instance some member ended
     * before `from` is left out (the call stays a visit, without its
     * collective): kept, it took the place of the member's next instance,
     * so the slice matched every later call of the communicator with a
     * different instance on each member */
    const uint64_t lk[4] = {ev.location, 0, 0, 0};
    const pt__loc *PL =
        ev.kind == PT_EV_COLL_END ? pt__kt_find(&post->locs, lk) : NULL;
    if (PL && (rc = pt__stats_coll_ended_before(pre, PL, &ev, 1)) != 0) {
      if (rc < 0) goto fail;
      rep.colls_dropped++;
    } else {
      if ((rc = put_event(k, post, &ev)) < 0) goto fail;
      rep.events_written++;
    }
    if (ev.time > end) end = ev.time;
    rc = next_event(&in, &ev);
    if (rc == PT_END) break;
    if (rc < 0) goto fail;
    rep.events_read++;
  }
  if (cut) end = to;
  rep.end = end;
  /* a blocking collective call open at `to` whose instance a member ended
   * inside gets its COLL_END (read on) at the end, so that the instance
   * is whole in the slice (else the calls ended inside were unmatched) */
  if (cut && post->coll) {
    size_t nc = 0, nl = post->locs.n; /* (no location is added here) */
    unsigned char *cand = calloc(nl ? nl : 1, 1);
    if (!cand) goto nomem;
    for (size_t i = 0; i < nl; i++)
      if (pt__stats_coll_in_blocking(post, pt__kt_at(&post->locs, i)))
        cand[i] = 1, nc++;
    while (nc) {
      size_t i = nl;
      const uint64_t lk[4] = {ev.location, 0, 0, 0};
      const pt__loc *PL = pt__kt_find(&post->locs, lk);
      if (PL) i = (size_t)(PL - (const pt__loc *)pt__kt_at(&post->locs, 0));
      if (i < nl && cand[i] &&
          (ev.kind == PT_EV_ENTER || ev.kind == PT_EV_LEAVE ||
           ev.kind == PT_EV_COLL_END)) {
        cand[i] = 0, nc--;
        /* (not a call of an instance partial at `from` as well: its
         * COLL_END is left out, and post numbered the call not; looking
         * only (advance 0) cannot fail) */
        if (ev.kind == PT_EV_COLL_END &&
            pt__stats_coll_ended_before(post, PL, &ev, 0) > 0 &&
            pt__stats_coll_ended_before(pre, PL, &ev, 0) == 0) {
          pt_event e = ev;
          e.time = end;
          e.attrs = NULL, e.nattrs = 0;
          if ((rc = put_event(k, post, &e)) < 0) {
            free(cand);
            goto fail;
          }
          rep.colls_added++;
        }
      }
      rc = next_event(&in, &ev);
      if (rc == PT_END) break;
      if (rc < 0) {
        free(cand);
        goto fail;
      }
      rep.events_read++;
    }
    free(cand);
  }
  /* balance: receives for unmatched sends, each inside the deepest open
   * region of its receiver that can hold it (not an MPI call that
   * completes no receive: a receiver in its own MPI_Send at `to` showed
   * the receive as received by MPI_Send), and leaves */
  free(ps);
  free(done);
  done = NULL;
  if (!(ps = pending_sends(post, &np))) goto nomem;
  if (!(done = calloc(np ? np : 1, 1))) goto nomem;
  free(lv);
  if (!(lv = sorted_locs(post))) goto nomem;
  for (size_t i = 0; i <= post->locs.n; i++) {
    pt__loc *L = i < post->locs.n ? lv[i] : NULL; /* NULL: the rest */
    for (size_t j = L ? L->depth : 0;; j--) {
      int hold = !L || j == 0 || recv_fits(post, L->st[j - 1].region);
      for (size_t q = 0; hold && q < np; q++) {
        if (done[q]) continue;
        uint64_t rl = pt__stats_peer_loc(post, ps[q].ev.peer);
        if (rl == PT_NONE ||
            !pt__kt_find(&post->locdefs, (const uint64_t[4]){rl, 0, 0, 0}))
          done[q] = 1;
        if (done[q] || (L && rl != L->k[0])) continue;
        pt_event e;
        pt_event_init(&e, PT_EV_RECV, end, rl);
        e.ref = ps[q].ev.ref;
        e.peer = (int64_t)pt__stats_rank_of(post, ps[q].loc);
        e.comm = ps[q].ev.comm;
        e.tag = ps[q].ev.tag;
        e.size = ps[q].ev.size;
        if ((rc = put_event(k, post, &e)) < 0) goto fail;
        done[q] = 1;
        rep.recvs++;
      }
      if (j == 0) break;
      pt_event e;
      pt_event_init(&e, PT_EV_LEAVE, end, L->k[0]);
      e.ref = L->st[j - 1].region;
      memset(&it, 0, sizeof it);
      it.type = PT_ITEM_EVENT;
      it.u.event = e;
      if ((rc = pt_sink_write(k, &it)) < 0) goto fail;
      rep.leaves++;
    }
  }
  rc = pt_sink_close(k, err);
  k = NULL;
  goto done;
nomem:
  rc = PT_ENOMEM;
fail:
  if (err && !err->msg[0]) {
    const char *m = k ? pt_sink_errmsg(k) : NULL;
    if (rc == PT_EINTR)
      pt__err(err, rc, "interrupted");
    else if (rc != PT_ENOMEM && (in.r || in.src) && in_errmsg(&in) &&
             *in_errmsg(&in))
      pt__err(err, rc, "%s", in_errmsg(&in));
    else if (m && *m)
      pt__err(err, rc, "%s", m);
    else
      pt__err(err, rc, "%s", pt_strerror(rc));
  }
done:
  pt_sink_abort(k);
  free(ps);
  free(done);
  free(lv);
  pt_stats_destroy(pre);
  pt_stats_destroy(post);
  if (in.r) pt_reader_close(in.r);
  if (in.src) pt_source_close(in.src);
  if (report) *report = rep;
  return rc;
}
