/* The collective wait states of the statistics engine
 * (include/paratrace/analysis.h, pt_stats_wait): blocking collective
 * calls matched into instances across the members of their communicator,
 * and the time each member waited for the others, by the patterns
 * Scalasca names (wait at N x N, late broadcast, early reduce).
 *
 * The state is the instances some but not all of whose members have been
 * seen (normally a few: the events come in time order and a blocking
 * collective ends on no member before the last one entered it), bounded
 * by PENDING_MAX members in all; a call that would pass the bound is
 * counted unmatched.
 *
 * A part (pt_stats_opts.part) holds some processes' calls: its unfinished
 * instances stay and go with it into the merges, which join the members
 * of both parts' instances; pt_stats_complete counts what is still
 * unfinished as unmatched.  A part holds at most held_max members
 * (pt_stats_opts.part_max_members, 2^21 by default; about 100 bytes
 * each): past that it gives the wait states up (drops
 * its instances and PT_STATS_HAVE_WAITS, which the merges then lack), so
 * that a trace with many collective calls across the parts costs a
 * parallel run bounded memory, as a serial one.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/stats_int.h"
#include "formats/mpi_fn.h"

/* The wait pattern of each collective operation (0: none counted). */
#define PATTERNS(X)                                                          \
  X(BARRIER, NXN) X(ALLGATHER, NXN) X(ALLGATHERV, NXN) X(ALLTOALL, NXN)      \
  X(ALLTOALLV, NXN) X(ALLTOALLW, NXN) X(ALLREDUCE, NXN)                      \
  X(REDUCE_SCATTER, NXN) X(REDUCE_SCATTER_BLOCK, NXN)                       \
  X(BCAST, LATE_BCAST) X(SCATTER, LATE_BCAST) X(SCATTERV, LATE_BCAST)       \
  X(REDUCE, EARLY_REDUCE) X(GATHER, EARLY_REDUCE) X(GATHERV, EARLY_REDUCE)
static const uint8_t pattern_of[PT_COLL__COUNT] = {
#define PAT(op, p) [PT_COLL_##op] = PT_WAIT_##p,
    PATTERNS(PAT)
#undef PAT
};

#define PATTERN_NAMES(X)                                                     \
  X(NXN, "wait at NxN") X(LATE_BCAST, "late broadcast")                     \
  X(EARLY_REDUCE, "early reduce")

const char *pt_wait_pattern_name(uint32_t p) {
  switch (p) {
#define PN(n, text) case PT_WAIT_##n: return text;
    PATTERN_NAMES(PN)
#undef PN
    default: return "";
  }
}

enum { PENDING_MAX = 1u << 21 }; /* members of unfinished instances */

typedef struct creg { uint64_t k[4]; uint8_t blocking; } creg;
typedef struct ccomm { uint64_t k[4]; uint64_t group; uint8_t inter; } ccomm;
typedef struct cgrp { uint64_t k[4]; uint64_t n; uint32_t type; } cgrp;
typedef struct cseq { uint64_t k[4]; uint64_t n; } cseq;
/* A member's call. */
typedef struct cmem {
  uint64_t loc, region, enter, end;
  int64_t rank;
  uint8_t w;
} cmem;
/* An instance (communicator, sequence number) and the calls seen. */
typedef struct cinst {
  uint64_t k[4];
  uint64_t size, n, cap; /* cap: room in m */
  /* the end and location of the member that made it (root and pattern
   * are that call's: the first in the order one scan meets them) */
  uint64_t first_t, first_loc;
  int64_t root;
  uint32_t pattern;
  cmem *m;
} cinst;
/* Row (region, location). */
typedef struct cwait {
  uint64_t k[4];
  uint32_t pattern;
  uint64_t calls, time, wait, waited, unmatched;
} cwait;

struct pt__coll {
  pt__ktab regs, comms, grps, seqs, insts, rows;
  int part;          /* a part's: instances wait for the merges */
  uint64_t world;    /* members of MPI_COMM_WORLD (0: unknown) */
  int world_mpi;     /* world is from the MPI paradigm's group */
  uint64_t pending;  /* members held by unfinished instances */
  uint64_t held;     /* members stored in instances (parts' bound) */
  uint64_t held_max; /* a part's bound (pt_stats_opts.part_max_members) */
  int gave_up;       /* a part past PART_MAX: no wait states */
};

int pt__stats_coll_init(pt_stats *s) {
  pt__coll *c = calloc(1, sizeof *c);
  if (!c) return PT_ENOMEM;
  pt__kt_init(&c->regs, sizeof(creg));
  pt__kt_init(&c->comms, sizeof(ccomm));
  pt__kt_init(&c->grps, sizeof(cgrp));
  pt__kt_init(&c->seqs, sizeof(cseq));
  pt__kt_init(&c->insts, sizeof(cinst));
  pt__kt_init(&c->rows, sizeof(cwait));
  c->part = s->part;
  c->held_max =
      s->opts.part_max_members ? s->opts.part_max_members : (uint64_t)1 << 21;
  s->coll = c;
  return PT_OK;
}

static void drop_insts(pt__coll *c) {
  for (size_t i = 0; i < c->insts.n; i++)
    free(((cinst *)pt__kt_at(&c->insts, i))->m);
  pt__kt_free(&c->insts);
  c->pending = 0;
  c->held = 0;
}

void pt__stats_coll_free(pt_stats *s) {
  pt__coll *c = s->coll;
  if (!c) return;
  drop_insts(c);
  pt__ktab *t[] = {&c->regs, &c->comms, &c->grps, &c->seqs, &c->rows};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) pt__kt_free(t[i]);
  free(c);
  s->coll = NULL;
}

int pt__stats_coll_def(pt_stats *s, const pt_def *d) {
  pt__coll *c = s->coll;
  if (!c) return PT_OK;
  switch (d->kind) {
    case PT_DEF_REGION: {
      int id = d->name ? pt__mpi_fn_find(d->name) : -1;
      creg *r = pt__kt_get(&c->regs, PT__K(d->id, 0, 0, 0));
      if (!r) return PT_ENOMEM;
      r->blocking = (uint8_t)pt__mpi_fn_blocking_coll(id);
      return PT_OK;
    }
    case PT_DEF_COMM: {
      int fresh = !pt__kt_find(&c->comms, PT__K(d->id, 0, 0, 0));
      ccomm *r = pt__kt_get(&c->comms, PT__K(d->id, 0, 0, 0));
      if (!r) return PT_ENOMEM;
      r->group = d->ref;
      if (fresh) r->inter = 0;
      return PT_OK;
    }
    case PT_DEF_KEYVAL: { /* an intercommunicator's other side */
      if (!d->name || strcmp(d->name, "otf2:intercomm") != 0 ||
          d->parent == PT_NONE)
        return PT_OK;
      ccomm *r = pt__kt_get(&c->comms, PT__K(d->parent, 0, 0, 0));
      if (!r) return PT_ENOMEM;
      r->inter = 1;
      return PT_OK;
    }
    case PT_DEF_GROUP: {
      cgrp *r = pt__kt_get(&c->grps, PT__K(d->id, 0, 0, 0));
      if (!r) return PT_ENOMEM;
      r->n = d->nmembers;
      r->type = (uint32_t)d->i0;
      /* MPI_COMM_WORLD's locations: the MPI paradigm's group (a trace of
       * MPI with CUDA or OpenMP has one per paradigm), else the first */
      if (d->i0 == PT_GROUP_COMM_LOCATIONS &&
          (d->i1 == PT_PARADIGM_MPI ? !c->world_mpi : !c->world)) {
        c->world = d->nmembers;
        c->world_mpi = d->i1 == PT_PARADIGM_MPI;
      }
      return PT_OK;
    }
    default:
      return PT_OK;
  }
}

/* Members of communicator `comm`: its group's, MPI_COMM_WORLD's for one
 * defined without a group (the MPI recorder's and the DUMPI reader's
 * world); 0 when unknown, and for an intercommunicator (its collectives
 * join two groups: not matched here). */
static uint64_t comm_size(const pt__coll *c, uint64_t comm) {
  const ccomm *r = pt__kt_find(&c->comms, PT__K(comm, 0, 0, 0));
  if (!r || r->inter) return 0;
  if (r->group == PT_NONE) return c->world;
  const cgrp *g = pt__kt_find(&c->grps, PT__K(r->group, 0, 0, 0));
  if (!g) return 0;
  return g->type == PT_GROUP_COMM_SELF ? 1 : g->n;
}

static int add_row(pt__coll *c, const cmem *m, uint32_t pattern,
                   uint64_t wait, int unmatched) {
  if (!m->w) return PT_OK;
  cwait *r = pt__kt_get(&c->rows, PT__K(m->region, m->loc, 0, 0));
  if (!r) return PT_ENOMEM;
  uint64_t dur = m->end > m->enter ? m->end - m->enter : 0;
  /* the row's pattern: its instances' (they differ only when a trace's
   * calls fall out of step: then the highest, whatever the order the
   * instances are resolved in, so that the parts' merges agree with one
   * scan) */
  if (pattern > r->pattern) r->pattern = pattern;
  r->calls++;
  r->time += dur;
  r->unmatched += unmatched != 0;
  if (wait > dur) wait = dur;
  r->wait += wait;
  r->waited += wait > 0;
  return PT_OK;
}

/* Every member of x has been seen: its waits into the rows. */
static int resolve(pt__coll *c, const cinst *x) {
  uint64_t last = 0, first_other = UINT64_MAX, root_enter = 0;
  int has_root = 0;
  for (uint64_t i = 0; i < x->n; i++) {
    const cmem *m = &x->m[i];
    if (m->enter > last) last = m->enter;
    if (x->root >= 0 && m->rank == x->root) {
      has_root = 1;
      root_enter = m->enter;
    } else if (m->enter < first_other) {
      first_other = m->enter;
    }
  }
  for (uint64_t i = 0; i < x->n; i++) {
    const cmem *m = &x->m[i];
    int is_root = has_root && m->rank == x->root;
    uint64_t w = 0;
    switch (x->pattern) {
      case PT_WAIT_NXN:
        w = last - m->enter;
        break;
      case PT_WAIT_LATE_BCAST:
        if (has_root && !is_root && root_enter > m->enter)
          w = root_enter - m->enter;
        break;
      case PT_WAIT_EARLY_REDUCE:
        if (is_root && first_other != UINT64_MAX && first_other > m->enter)
          w = first_other - m->enter;
        break;
      default:
        break;
    }
    int rc = add_row(c, m, x->pattern, w, 0);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

static int join(pt__coll *c, const cinst *y, const cmem *m);

int pt__stats_coll_event(pt_stats *s, const pt__loc *L, const pt_event *ev,
                         int w) {
  pt__coll *c = s->coll;
  if (!c || !L->depth || !L->st[L->depth - 1].is_mpi) return PT_OK;
  const pt__frame *f = &L->st[L->depth - 1];
  const creg *rg = pt__kt_find(&c->regs, PT__K(f->region, 0, 0, 0));
  if (!rg || !rg->blocking) return PT_OK;
  uint32_t pattern = ev->ref < PT_COLL__COUNT ? pattern_of[ev->ref] : 0;
  if (!pattern) return PT_OK;
  cmem m = {ev->location, f->region, f->enter, ev->time,
            (int64_t)pt__stats_rank_of(s, ev->location), (uint8_t)(w != 0)};
  uint64_t size = comm_size(c, ev->comm);
  if (size == 0) return add_row(c, &m, pattern, 0, 1);
  /* numbered per process, not per location: MPI orders a communicator's
   * collectives per process, whichever of its threads calls them */
  cseq *q = pt__kt_get(
      &c->seqs, PT__K(pt__stats_proc_loc(s, ev->location), ev->comm, 0, 0));
  if (!q) return PT_ENOMEM;
  uint64_t seq = ++q->n;
  if (size == 1) return add_row(c, &m, pattern, 0, 0); /* alone: no wait */
  cinst *x = pt__kt_find(&c->insts, PT__K(ev->comm, seq, 0, 0));
  if (c->part) {
    /* a part holds its instances until the merges, each with room for the
     * members it has seen, PART_MAX members in all */
    if (c->gave_up) return PT_OK;
    if (c->held >= c->held_max) {
      c->gave_up = 1;
      drop_insts(c);
      s->have &= ~(uint32_t)PT_STATS_HAVE_WAITS;
      return PT_OK;
    }
    if (!x && size > PENDING_MAX) return add_row(c, &m, pattern, 0, 1);
    const cinst y = {{ev->comm, seq, 0, 0}, size, 0, 0, ev->time,
                     ev->location, ev->peer, pattern, NULL};
    return join(c, &y, &m);
  }
  if (!x) {
    if (size > PENDING_MAX - c->pending) /* (no overflow: pending <= MAX) */
      return add_row(c, &m, pattern, 0, 1);
    cmem *mem = malloc(size * sizeof *mem);
    if (!mem || !(x = pt__kt_get(&c->insts, PT__K(ev->comm, seq, 0, 0)))) {
      free(mem);
      return PT_ENOMEM;
    }
    x->size = x->cap = size;
    x->m = mem;
    x->first_t = ev->time;
    x->first_loc = ev->location;
    x->root = ev->peer;
    x->pattern = pattern;
    c->pending += size;
  }
  if (x->n == x->size) return add_row(c, &m, pattern, 0, 1); /* too many */
  x->m[x->n++] = m;
  if (x->n < x->size) return PT_OK;
  cinst done = *x;
  pt__kt_del(&c->insts, done.k);
  c->pending -= done.size;
  int rc = resolve(c, &done);
  free(done.m);
  return rc;
}

int pt__stats_coll_in_blocking(const pt_stats *s, const pt__loc *L) {
  const pt__coll *c = s->coll;
  if (!c || !L || !L->depth || !L->st[L->depth - 1].is_mpi) return 0;
  const creg *rg =
      pt__kt_find(&c->regs, PT__K(L->st[L->depth - 1].region, 0, 0, 0));
  return rg && rg->blocking;
}

int pt__stats_coll_ended_before(pt_stats *pre, const pt__loc *L,
                                const pt_event *ev, int advance) {
  pt__coll *c = pre->coll;
  if (ev->kind != PT_EV_COLL_END || !pt__stats_coll_in_blocking(pre, L))
    return 0;
  if (!(ev->ref < PT_COLL__COUNT ? pattern_of[ev->ref] : 0)) return 0;
  if (comm_size(c, ev->comm) < 2) return 0; /* not matched, or alone */
  /* the call's number in the whole trace: the calls pre saw, plus those
   * of the window so far (counted here, as pt__stats_coll_event would) */
  const uint64_t *qk =
      PT__K(pt__stats_proc_loc(pre, ev->location), ev->comm, 0, 0);
  uint64_t seq;
  if (advance) {
    cseq *q = pt__kt_get(&c->seqs, qk);
    if (!q) return PT_ENOMEM;
    seq = ++q->n;
  } else {
    const cseq *q = pt__kt_find(&c->seqs, qk);
    seq = (q ? q->n : 0) + 1;
  }
  /* an instance pre holds unfinished had a member end it before */
  return pt__kt_find(&c->insts, PT__K(ev->comm, seq, 0, 0)) != NULL;
}

int pt__stats_coll_finish(pt_stats *s) {
  pt__coll *c = s->coll;
  if (!c || c->part) return PT_OK; /* (a part's wait for the merges) */
  for (size_t i = 0; i < c->insts.n; i++) {
    const cinst *x = pt__kt_at(&c->insts, i);
    for (uint64_t j = 0; j < x->n; j++) {
      int rc = add_row(c, &x->m[j], x->pattern, 0, 1);
      if (rc < 0) return rc;
    }
  }
  drop_insts(c);
  return PT_OK;
}

static int cmp_wait(const void *a, const void *b) {
  const pt_stats_wait_row *x = a, *y = b;
  if (x->region != y->region) return x->region < y->region ? -1 : 1;
  if (x->location != y->location) return x->location < y->location ? -1 : 1;
  return 0;
}

int pt__stats_coll_aggregate(pt_stats *s) {
  free(s->out_wait); /* (free_output's: NULL here) */
  s->out_wait = NULL;
  s->nout_wait = 0;
  pt__coll *c = s->coll;
  size_t n = c && (s->have & PT_STATS_HAVE_WAITS) ? c->rows.n : 0;
  s->out_wait = calloc(n ? n : 1, sizeof *s->out_wait);
  if (!s->out_wait) return PT_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    const cwait *r = pt__kt_at(&c->rows, i);
    s->out_wait[s->nout_wait++] = (pt_stats_wait_row){
        .region = r->k[0], .location = r->k[1], .pattern = r->pattern,
        .calls = r->calls, .time = r->time, .wait = r->wait,
        .waited = r->waited, .unmatched = r->unmatched};
  }
  qsort(s->out_wait, s->nout_wait, sizeof *s->out_wait, cmp_wait);
  return PT_OK;
}

/* ---- parts (pt_stats_opts.part) ------------------------------------------- */

/* Member m of instance y (its key, size, root, pattern and first call)
 * into c: resolved when it is the last.  The root and pattern are those
 * of the call one scan meets first (they agree unless the trace's calls
 * do not). */
static int join(pt__coll *c, const cinst *y, const cmem *m) {
  cinst *x = pt__kt_find(&c->insts, y->k);
  if (!x) {
    if (!(x = pt__kt_get(&c->insts, y->k))) return PT_ENOMEM;
    x->size = y->size;
    x->root = y->root;
    x->pattern = y->pattern;
    x->first_t = y->first_t;
    x->first_loc = y->first_loc;
    c->pending += y->size;
  } else if (y->first_t < x->first_t ||
             (y->first_t == x->first_t && y->first_loc < x->first_loc)) {
    x->root = y->root;
    x->pattern = y->pattern;
    x->first_t = y->first_t;
    x->first_loc = y->first_loc;
  }
  const uint32_t pattern = x->pattern;
  if (x->n == x->size) return add_row(c, m, pattern, 0, 1); /* too many */
  if (x->n == x->cap) { /* (room as members come: a buffer's sizes are
                           untrusted) */
    uint64_t nc = x->cap ? x->cap * 2 : 2;
    if (nc > x->size) nc = x->size;
    cmem *q = realloc(x->m, nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    x->m = q;
    x->cap = nc;
  }
  x->m[x->n++] = *m;
  c->held++;
  if (x->n < x->size) return PT_OK;
  cinst done = *x;
  pt__kt_del(&c->insts, done.k);
  c->pending -= done.size;
  c->held -= done.n;
  int rc = resolve(c, &done);
  free(done.m);
  return rc;
}

int pt__stats_coll_merge(pt_stats *d, const pt_stats *s) {
  pt__coll *c = d->coll;
  const pt__coll *o = s->coll;
  if (!c || !o) return PT_OK;
  c->part |= o->part;
  for (size_t i = 0; i < o->rows.n; i++) {
    const cwait *x = pt__kt_at(&o->rows, i);
    cwait *r = pt__kt_get(&c->rows, x->k);
    if (!r) return PT_ENOMEM;
    if (x->pattern > r->pattern) r->pattern = x->pattern;
    r->calls += x->calls;
    r->time += x->time;
    r->wait += x->wait;
    r->waited += x->waited;
    r->unmatched += x->unmatched;
  }
  for (size_t i = 0; i < o->insts.n; i++) {
    const cinst *x = pt__kt_at(&o->insts, i);
    const cinst y = *x; /* (join may move the records of c, not of o) */
    for (uint64_t j = 0; j < y.n; j++) {
      int rc = join(c, &y, &y.m[j]);
      if (rc < 0) return rc;
    }
    if (c->part && c->held > c->held_max) { /* the merge's bound too */
      c->gave_up = 1;
      drop_insts(c);
      d->have &= ~(uint32_t)PT_STATS_HAVE_WAITS;
      return PT_OK;
    }
  }
  return PT_OK;
}

int pt__stats_coll_complete(pt_stats *s) {
  pt__coll *c = s->coll;
  if (!c || !c->part) return PT_OK;
  c->part = 0;
  return pt__stats_coll_finish(s);
}

/* Words: rows (count, then region, location, pattern, calls, time, wait,
 * waited, unmatched each), instances (count, then comm, seq, size, root,
 * pattern, first call's end and location, members and each member's
 * location, region, enter, end, rank, in-window). */
enum { ROW_WORDS = 8, INST_WORDS = 8, MEM_WORDS = 6 };

int pt__stats_coll_words(const pt_stats *s, uint64_t **out, size_t *nout) {
  *out = NULL;
  *nout = 0;
  const pt__coll *c = s->coll;
  if (!c) return PT_OK;
  size_t n = 2 + c->rows.n * ROW_WORDS;
  for (size_t i = 0; i < c->insts.n; i++)
    n += INST_WORDS + ((const cinst *)pt__kt_at(&c->insts, i))->n * MEM_WORDS;
  uint64_t *w = malloc(n * sizeof *w);
  if (!w) return PT_ENOMEM;
  size_t k = 0;
  w[k++] = c->rows.n;
  for (size_t i = 0; i < c->rows.n; i++) {
    const cwait *r = pt__kt_at(&c->rows, i);
    uint64_t v[ROW_WORDS] = {r->k[0], r->k[1], r->pattern, r->calls,
                             r->time, r->wait, r->waited, r->unmatched};
    memcpy(w + k, v, sizeof v);
    k += ROW_WORDS;
  }
  w[k++] = c->insts.n;
  for (size_t i = 0; i < c->insts.n; i++) {
    const cinst *x = pt__kt_at(&c->insts, i);
    uint64_t v[INST_WORDS] = {x->k[0], x->k[1], x->size, (uint64_t)x->root,
                              x->pattern, x->first_t, x->first_loc, x->n};
    memcpy(w + k, v, sizeof v);
    k += INST_WORDS;
    for (uint64_t j = 0; j < x->n; j++) {
      const cmem *m = &x->m[j];
      uint64_t u[MEM_WORDS] = {m->loc, m->region, m->enter, m->end,
                               (uint64_t)m->rank, m->w};
      memcpy(w + k, u, sizeof u);
      k += MEM_WORDS;
    }
  }
  *out = w;
  *nout = k;
  return PT_OK;
}

int pt__stats_coll_load(pt_stats *s, const uint64_t *w, size_t n) {
  pt__coll *c = s->coll;
  if (!c) return PT_ECORRUPT;
  c->part = s->part;
  size_t k = 0;
  if (n < 1) return PT_ECORRUPT;
  uint64_t nr = w[k++];
  if (nr > (n - k) / ROW_WORDS) return PT_ECORRUPT;
  for (uint64_t i = 0; i < nr; i++, k += ROW_WORDS) {
    const uint64_t *v = w + k;
    if (v[2] > PT_WAIT_EARLY_REDUCE || v[6] > v[3] || v[7] > v[3])
      return PT_ECORRUPT;
    cwait *r = pt__kt_get(&c->rows, PT__K(v[0], v[1], 0, 0));
    if (!r) return PT_ENOMEM;
    if (v[2] > r->pattern) r->pattern = (uint32_t)v[2];
    r->calls += v[3];
    r->time += v[4];
    r->wait += v[5];
    r->waited += v[6];
    r->unmatched += v[7];
  }
  if (k >= n) return PT_ECORRUPT;
  uint64_t ni = w[k++];
  for (uint64_t i = 0; i < ni; i++) {
    if (n - k < INST_WORDS) return PT_ECORRUPT;
    const uint64_t *v = w + k;
    k += INST_WORDS;
    uint64_t size = v[2], nm = v[7];
    if (v[4] < PT_WAIT_NXN || v[4] > PT_WAIT_EARLY_REDUCE || size < 2 ||
        size > PENDING_MAX ||
        nm == 0 || nm >= size || nm > (n - k) / MEM_WORDS ||
        pt__kt_find(&c->insts, PT__K(v[0], v[1], 0, 0)))
      return PT_ECORRUPT;
    cinst y = {{v[0], v[1], 0, 0}, size, 0, 0, v[5], v[6], (int64_t)v[3],
               (uint32_t)v[4], NULL};
    for (uint64_t j = 0; j < nm; j++, k += MEM_WORDS) {
      const uint64_t *u = w + k;
      const cmem m = {u[0], u[1], u[2], u[3], (int64_t)u[4], (uint8_t)(u[5] != 0)};
      int rc = join(c, &y, &m);
      if (rc < 0) return rc;
    }
  }
  return k == n ? PT_OK : PT_ECORRUPT;
}
