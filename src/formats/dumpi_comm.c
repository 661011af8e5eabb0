/* Which communicator a DUMPI communicator handle means.
 *
 * DUMPI stores a communicator as a per-process 16-bit handle and never its
 * members, so a point-to-point peer or a collective root in a
 * sub-communicator is a rank in something the trace does not describe.
 * The creation calls are in the trace, though, with their arguments, on
 * every rank: replaying them together (as a simulator would) gives each
 * communicator's members as COMM_WORLD ranks.  The replay is a
 * rank-by-rank walk over the calls of PT__DCOMM_OPS below: group calls are
 * local; a communicator-creating call is collective over its parent and is
 * matched with the members' calls of the same sequence number on that
 * parent (MPI orders collectives on one communicator alike on every
 * member).  What cannot be worked out (an incomplete trace, an
 * inter-communicator) stays unknown and the reader keeps such ranks as
 * they are.  Layout facts: doc/dumpi.md.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dumpi.h"

/* X(function, op, in1, in2, out, a, b, c): the argument names of the
 * parent communicator or group(s), the new handle, and the op's
 * parameters.  MPI_Intercomm_create: in1 the local communicator, in2 the
 * peer communicator (DUMPI's "remotecomm"), a / b the local / remote
 * leader, c the tag. */
#define PT__DCOMM_OPS(X)                                                    \
  X("MPI_Comm_dup", DUP, "oldcomm", 0, "newcomm", 0, 0, 0)                  \
  X("MPI_Comm_split", SPLIT, "oldcomm", 0, "newcomm", "color", "key", 0)    \
  X("MPI_Comm_create", CREATE, "oldcomm", "group", "newcomm", 0, 0, 0)      \
  X("MPI_Cart_create", CART, "oldcomm", 0, "newcomm", "dims", 0, 0)         \
  X("MPI_Graph_create", GRAPH, "oldcomm", 0, "newcomm", "nodes", 0, 0)      \
  X("MPI_Cart_sub", CART_SUB, "oldcomm", 0, "newcomm", "remain_dims", 0, 0) \
  X("MPI_Intercomm_create", INTER, "localcomm", "remotecomm", "newcomm",    \
    "localleader", "remoteleader", "tag")                                   \
  X("MPI_Intercomm_merge", MERGE, "comm", 0, "newcomm", "high", 0, 0)       \
  X("MPI_Comm_free", FREE, "comm", 0, 0, 0, 0, 0)                           \
  X("MPI_Comm_group", GROUP_OF, "comm", 0, "group", 0, 0, 0)                \
  X("MPI_Comm_remote_group", REMOTE_GROUP, "comm", 0, "group", 0, 0, 0)     \
  X("MPI_Group_incl", INCL, "group", 0, "newgroup", "ranks", 0, 0)          \
  X("MPI_Group_excl", EXCL, "group", 0, "newgroup", "ranks", 0, 0)          \
  X("MPI_Group_range_incl", RANGE_INCL, "group", 0, "newgroup", "ranges",   \
    0, 0)                                                                   \
  X("MPI_Group_range_excl", RANGE_EXCL, "group", 0, "newgroup", "ranges",   \
    0, 0)                                                                   \
  X("MPI_Group_union", UNION, "group1", "group2", "newgroup", 0, 0, 0)      \
  X("MPI_Group_intersection", INTERSECT, "group1", "group2", "newgroup", 0, \
    0, 0)                                                                   \
  X("MPI_Group_difference", DIFFERENCE, "group1", "group2", "newgroup", 0,  \
    0, 0)                                                                   \
  X("MPI_Group_free", GFREE, "group", 0, 0, 0, 0, 0)

enum {
  OP_NONE,
#define OP_ENUM(fn, op, i1, i2, o, a, b, c) OP_##op,
  PT__DCOMM_OPS(OP_ENUM)
#undef OP_ENUM
  OP_UNBIND /* any other call that returns a communicator ("newcomm",
               "parent"): an inter-communicator, a spawn; unknown */
};

typedef struct opspec {
  const char *fn;
  uint8_t op;
  const char *in1, *in2, *out, *a, *b, *c;
} opspec;

static const opspec specs[] = {
#define OP_SPEC(fn, op, i1, i2, o, a, b, c) {fn, OP_##op, i1, i2, o, a, b, c},
    PT__DCOMM_OPS(OP_SPEC)
#undef OP_SPEC
};

typedef struct labinfo {
  uint8_t op;
  int8_t in1, in2, out, a, b, c; /* argument indexes, -1 = none */
} labinfo;

static labinfo lab[PT__DUMPI_NLABELS];
static pthread_once_t lab_once = PTHREAD_ONCE_INIT;

static int8_t arg_index(const pt__dumpi_func *f, const char *name) {
  for (unsigned k = 0; name && k < f->nargs; k++)
    if (!strcmp(f->args[k].name, name)) return (int8_t)k;
  return -1;
}

static void lab_init(void) {
  for (unsigned l = 0; l < PT__DUMPI_NLABELS; l++) {
    const pt__dumpi_func *f = pt__dumpi_func_get(l);
    labinfo *li = &lab[l];
    li->op = OP_NONE;
    li->in1 = li->in2 = li->out = li->a = li->b = li->c = -1;
    if (!f) continue;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
      if (strcmp(specs[i].fn, f->name)) continue;
      li->op = specs[i].op;
      li->in1 = arg_index(f, specs[i].in1);
      li->in2 = arg_index(f, specs[i].in2);
      li->out = arg_index(f, specs[i].out);
      li->a = arg_index(f, specs[i].a);
      li->b = arg_index(f, specs[i].b);
      li->c = arg_index(f, specs[i].c);
    }
    if (li->op == OP_NONE) {
      int8_t o = arg_index(f, "newcomm");
      if (o < 0) o = arg_index(f, "parent");
      if (o >= 0 && pt__dumpi_atype_wire(f->args[o].type) == PT__DW_H16) {
        li->op = OP_UNBIND;
        li->out = o;
      }
    }
  }
}

int pt__dcomm_label(unsigned label) {
  pthread_once(&lab_once, lab_init);
  return label < PT__DUMPI_NLABELS && lab[label].op != OP_NONE;
}

static int32_t handle_of(const pt__dumpi_call *c, int8_t k) {
  return k >= 0 && c->v[k].present ? (int32_t)(int16_t)c->v[k].i : -1;
}

int pt__dcomm_op_make(const pt__dumpi_call *c, uint64_t call, pt__arena *a,
                      pt__dcomm_op *o) {
  pthread_once(&lab_once, lab_init);
  const labinfo *li = &lab[c->label];
  memset(o, 0, sizeof *o);
  o->call = call;
  o->op = li->op;
  o->in1 = handle_of(c, li->in1);
  o->in2 = handle_of(c, li->in2);
  o->out = handle_of(c, li->out);
  const pt__dumpi_val *va = li->a >= 0 && c->v[li->a].present ? &c->v[li->a]
                                                               : NULL;
  if (va && va->a) { /* an array */
    o->n = va->na;
    o->v = pt__arena_alloc(a, (size_t)(va->na ? va->na : 1) * sizeof(int64_t));
    if (!o->v) return PT_ENOMEM;
    memcpy(o->v, va->a, (size_t)va->na * sizeof(int64_t));
  } else if (va) {
    o->a = va->i;
  }
  if (li->b >= 0 && c->v[li->b].present) o->b = c->v[li->b].i;
  if (li->c >= 0 && c->v[li->c].present) o->c = c->v[li->c].i;
  return PT_OK;
}

/* ---- the replay ---------------------------------------------------------- */

typedef struct hent {
  int32_t h, v; /* handle -> comm or group index */
} hent;

typedef struct hmap {
  hent *e;
  size_t n, cap;
} hmap;

static int hget(const hmap *m, int32_t h) {
  for (size_t i = m->n; i-- > 0;)
    if (m->e[i].h == h) return m->e[i].v;
  return -1;
}

static int hset(hmap *m, int32_t h, int32_t v) {
  for (size_t i = 0; i < m->n; i++)
    if (m->e[i].h == h) {
      m->e[i].v = v;
      return PT_OK;
    }
  if (PT_GROW(m->e, m->cap, m->n + 1, 8)) return PT_ENOMEM;
  m->e[m->n].h = h;
  m->e[m->n++].v = v;
  return PT_OK;
}

typedef struct grp {
  uint32_t n;
  int64_t *m; /* world ranks */
} grp;

typedef struct rstate {
  size_t cur;   /* next op */
  int blocked;  /* waiting in an instance */
  hmap comm;    /* handle -> comm index */
  hmap group;   /* handle -> group index */
  hmap seq;     /* comm index -> collective creations seen */
  pt__dcomm_bind *bind;
  size_t nbind, capbind;
} rstate;

typedef struct inst {
  int32_t comm;
  int32_t seq;
  size_t n;     /* arrivals */
  size_t *rank; /* arrived ranks, in arrival order */
} inst;

/* One side of an MPI_Intercomm_create: every member of the local
 * communicator arrived; it waits for the other side, whose leader is
 * `rleader` and whose remote leader is `leader` (world ranks), with the
 * same tag (the leaders meet on the peer communicator with that tag; of
 * several such, MPI matches them in order: the earliest waits longest). */
typedef struct half {
  int32_t comm;
  int64_t leader, rleader, tag;
  size_t n;
  size_t *rank; /* the members, in arrival order */
} half;

typedef struct replay {
  pt__dcomm *dc;
  size_t nranks;
  pt__dcomm_op *const *ops;
  const size_t *nops;
  rstate *r;
  grp *g;
  size_t ng, capg;
  inst *in;
  size_t nin, capin;
  half *h;
  size_t nh, caph;
  int64_t *pos; /* world rank -> local rank in the instance's parent */
  uint8_t *side; /* world rank -> 1 if in the parent's remote group */
  size_t *arr;  /* world rank -> its index among the instance's arrivals */
  int32_t *self; /* rank -> comm index of its COMM_SELF, or -1 */
} replay;

static int64_t min_of(const int64_t *m, uint32_t n) {
  int64_t x = INT64_MAX;
  for (uint32_t j = 0; j < n; j++) x = m[j] < x ? m[j] : x;
  return x;
}

/* A new communicator: members m[0..n), and for an intercommunicator the
 * other group rm[0..nr) (nr > 0); stored with the group holding the lower
 * COMM_WORLD rank first. */
static int add_comm2(replay *p, const int64_t *m, uint32_t n,
                     const int64_t *rm, uint32_t nr, uint32_t op,
                     int32_t parent) {
  pt__dcomm *dc = p->dc;
  if (nr && min_of(rm, nr) < min_of(m, n)) {
    const int64_t *t = m;
    uint32_t tn = n;
    m = rm, n = nr, rm = t, nr = tn;
  }
  if (PT_GROW(dc->comms, dc->capcomms, dc->ncomms + 1, 16)) return PT_ENOMEM;
  pt__dcomm_comm *c = &dc->comms[dc->ncomms];
  memset(c, 0, sizeof *c);
  c->members = pt__arena_alloc(&dc->mem, (n ? n : 1) * sizeof(int64_t));
  if (!c->members) return PT_ENOMEM;
  if (n) memcpy(c->members, m, n * sizeof(int64_t));
  c->n = n;
  if (nr) {
    if (!(c->remote = pt__arena_alloc(&dc->mem, nr * sizeof(int64_t))))
      return PT_ENOMEM;
    memcpy(c->remote, rm, nr * sizeof(int64_t));
    c->nremote = nr;
  }
  c->parent = parent;
  c->fn = op == OP_SPLIT ? "MPI_Comm_split" : op == OP_DUP ? "MPI_Comm_dup"
          : op == OP_CREATE ? "MPI_Comm_create" : op == OP_CART ? "MPI_Cart_create"
          : op == OP_GRAPH ? "MPI_Graph_create" : op == OP_CART_SUB ? "MPI_Cart_sub"
          : op == OP_INTER ? "MPI_Intercomm_create"
          : op == OP_MERGE ? "MPI_Intercomm_merge"
          : "predefined";
  return (int)dc->ncomms++;
}

static int add_comm(replay *p, const int64_t *m, uint32_t n, uint32_t op,
                    int32_t parent) {
  return add_comm2(p, m, n, NULL, 0, op, parent);
}

/* Members of both groups of comm c (one for an intracommunicator). */
static uint32_t total(const pt__dcomm_comm *c) { return c->n + c->nremote; }

/* World rank r's own group in comm c and the other one (an
 * intracommunicator: its members, and no other group). */
static void sides(const pt__dcomm_comm *c, int64_t r, const int64_t **loc,
                  uint32_t *nl, const int64_t **rem, uint32_t *nr) {
  *loc = c->members, *nl = c->n, *rem = c->remote, *nr = c->nremote;
  for (uint32_t j = 0; j < c->nremote; j++)
    if (c->remote[j] == r) {
      *loc = c->remote, *nl = c->nremote, *rem = c->members, *nr = c->n;
      return;
    }
}

static int add_group(replay *p, const int64_t *m, uint32_t n) {
  if (PT_GROW(p->g, p->capg, p->ng + 1, 16)) return PT_ENOMEM;
  grp *g = &p->g[p->ng];
  g->m = pt__arena_alloc(&p->dc->mem, (n ? n : 1) * sizeof(int64_t));
  if (!g->m) return PT_ENOMEM;
  if (n) memcpy(g->m, m, n * sizeof(int64_t));
  g->n = n;
  return (int)p->ng++;
}

static int bind(replay *p, size_t r, uint64_t call, int32_t h, int32_t comm) {
  rstate *s = &p->r[r];
  if (h < 0) return PT_OK;
  if (PT_GROW(s->bind, s->capbind, s->nbind + 1, 8)) return PT_ENOMEM;
  s->bind[s->nbind].call = call;
  s->bind[s->nbind].handle = h;
  s->bind[s->nbind++].comm = comm;
  return hset(&s->comm, h, comm);
}

/* Comm index of handle h on rank r (-1: unknown). */
static int comm_of(replay *p, size_t r, int32_t h) {
  if (h == PT__DUMPI_COMM_WORLD) return 0;
  if (h == PT__DUMPI_COMM_SELF) {
    if (p->self[r] < 0) {
      int64_t me = (int64_t)r;
      int c = add_comm(p, &me, 1, OP_NONE, -1);
      if (c < 0) return c;
      p->self[r] = c;
    }
    return p->self[r];
  }
  int c = hget(&p->r[r].comm, h);
  return c < 0 ? -1 : c; /* (-2: freed) */
}

enum { GROUP_EMPTY = 2 };

/* Group index of handle h on rank r (-1: unknown; -2: the empty group). */
static int group_of(replay *p, size_t r, int32_t h) {
  if (h == GROUP_EMPTY) return -2;
  return hget(&p->r[r].group, h);
}

/* A local group operation of rank r. */
static int group_op(replay *p, size_t r, const pt__dcomm_op *o) {
  rstate *s = &p->r[r];
  if (o->op == OP_GFREE) return hset(&s->group, o->in1, -1);
  const int64_t *src = NULL;
  uint32_t n = 0;
  int64_t *tmp = NULL;
  int res = -1, rc = PT_OK;
  if (o->op == OP_GROUP_OF || o->op == OP_REMOTE_GROUP) {
    int c = comm_of(p, r, o->in1);
    if (c < -1) return c;
    if (c >= 0) {
      const int64_t *lg, *rg;
      uint32_t nl, nr;
      sides(&p->dc->comms[c], (int64_t)r, &lg, &nl, &rg, &nr);
      if (o->op == OP_GROUP_OF) res = add_group(p, lg, nl);
      else if (nr) res = add_group(p, rg, nr); /* (intra: an error) */
    }
    return res < -1 ? res : hset(&s->group, o->out, res);
  }
  int g = group_of(p, r, o->in1);
  if (g == -1) return hset(&s->group, o->out, -1);
  if (g >= 0) {
    src = p->g[g].m;
    n = p->g[g].n;
  }
  switch (o->op) {
    case OP_INCL:
    case OP_EXCL:
    case OP_RANGE_INCL:
    case OP_RANGE_EXCL: {
      /* which ranks of the group the call names */
      uint8_t *in = calloc(n ? n : 1, 1);
      tmp = malloc((n ? n : 1) * sizeof *tmp);
      if (!in || !tmp) {
        free(in);
        free(tmp);
        return PT_ENOMEM;
      }
      uint32_t k = 0;
      int bad = 0;
      if (o->op == OP_INCL || o->op == OP_EXCL) {
        for (uint32_t j = 0; j < o->n; j++) {
          int64_t x = o->v[j];
          if (x < 0 || x >= n || k >= n || in[x]) { /* (MPI: distinct) */
            bad = 1;
            break;
          }
          if (o->op == OP_INCL) tmp[k++] = src[x];
          in[x] = 1;
        }
      } else { /* ranges: rows of (length, first, last, stride) */
        for (uint32_t j = 0; j + 4 <= o->n && !bad; j += 4) {
          int64_t len = o->v[j], f = o->v[j + 1], l = o->v[j + 2],
                  st = o->v[j + 3];
          if (len != 3 || st == 0) {
            bad = 1;
            break;
          }
          for (int64_t x = f; st > 0 ? x <= l : x >= l; x += st) {
            if (x < 0 || x >= n || k >= n || in[x]) {
              bad = 1;
              break;
            }
            if (o->op == OP_RANGE_INCL) tmp[k++] = src[x];
            in[x] = 1;
          }
        }
      }
      if (!bad && (o->op == OP_EXCL || o->op == OP_RANGE_EXCL)) {
        k = 0;
        for (uint32_t x = 0; x < n; x++)
          if (!in[x]) tmp[k++] = src[x];
      }
      free(in);
      res = bad ? -1 : add_group(p, tmp, k);
      break;
    }
    case OP_UNION:
    case OP_INTERSECT:
    case OP_DIFFERENCE: {
      int g2 = group_of(p, r, o->in2);
      if (g2 == -1) break;
      const int64_t *b = g2 >= 0 ? p->g[g2].m : NULL;
      uint32_t nb = g2 >= 0 ? p->g[g2].n : 0;
      tmp = malloc(((size_t)n + nb + 1) * sizeof *tmp);
      if (!tmp) return PT_ENOMEM;
      uint32_t k = 0;
      /* union: the first group's order, then the second's new members;
       * intersection / difference: the first group's order */
      for (uint32_t x = 0; x < n; x++) {
        int inb = 0;
        for (uint32_t y = 0; y < nb && !inb; y++) inb = b[y] == src[x];
        if (o->op == OP_UNION || (o->op == OP_INTERSECT) == inb)
          tmp[k++] = src[x];
      }
      for (uint32_t y = 0; o->op == OP_UNION && y < nb; y++) {
        int ina = 0;
        for (uint32_t x = 0; x < n && !ina; x++) ina = src[x] == b[y];
        if (!ina) tmp[k++] = b[y];
      }
      res = add_group(p, tmp, k);
      break;
    }
    default:
      break;
  }
  free(tmp);
  if (res < -1) return res;
  rc = hset(&s->group, o->out, res);
  return rc;
}

typedef struct skey {
  int64_t color, key, local, world;
  int side; /* in the parent's remote group (an intercommunicator's) */
} skey;

static int cmp_skey(const void *a, const void *b) {
  const skey *x = a, *y = b;
  if (x->color != y->color) return (x->color > y->color) - (x->color < y->color);
  if (x->side != y->side) return x->side - y->side;
  if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
  return (x->local > y->local) - (x->local < y->local);
}

/* Rank r's creation call is done: its handle means comm (-1: unknown). */
static int finish(replay *p, size_t r, int32_t comm) {
  const pt__dcomm_op *o = &p->ops[r][p->r[r].cur];
  int rc = bind(p, r, o->call, o->out, comm);
  p->r[r].cur++;
  p->r[r].blocked = 0;
  return rc;
}

/* Every member of the local communicator in->comm arrived at its
 * MPI_Intercomm_create: pair it with the other side if that is waiting,
 * else wait for it (the members stay blocked).  The leader's arguments
 * count (the others' peer communicator and remote leader are not
 * significant): the remote leader's COMM_WORLD rank through the peer
 * communicator, and the tag. */
static int inter_half(replay *p, inst *in) {
  pt__dcomm *dc = p->dc;
  /* (comm_of and add_comm2 may move dc->comms; members do not move) */
  const int64_t *lm = dc->comms[in->comm].members;
  const uint32_t ln = dc->comms[in->comm].n;
  const pt__dcomm_op *o0 = &p->ops[in->rank[0]][p->r[in->rank[0]].cur];
  int64_t leader = -1, rleader = -1, tag = 0;
  int rc = PT_OK;
  if (o0->a >= 0 && o0->a < (int64_t)ln) {
    leader = lm[o0->a];
    const pt__dcomm_op *lo = &p->ops[leader][p->r[leader].cur];
    int pc = comm_of(p, (size_t)leader, lo->in2);
    if (pc < -1) return pc;
    if (pc >= 0 && !dc->comms[pc].nremote && lo->b >= 0 &&
        lo->b < (int64_t)dc->comms[pc].n) {
      rleader = dc->comms[pc].members[lo->b];
      tag = lo->c;
    }
  }
  if (rleader < 0 || rleader == leader) { /* unknown */
    dc->unresolved += in->n;
    for (size_t i = 0; i < in->n && rc >= 0; i++)
      rc = finish(p, in->rank[i], -1);
    return rc;
  }
  for (size_t i = 0; i < p->nh; i++) {
    half *h = &p->h[i];
    if (h->leader != rleader || h->rleader != leader || h->tag != tag)
      continue;
    const pt__dcomm_comm *oc = &dc->comms[h->comm];
    int c = add_comm2(p, lm, ln, oc->members, oc->n, OP_INTER, in->comm);
    if (c < 0) return c;
    for (size_t j = 0; j < in->n && rc >= 0; j++)
      rc = finish(p, in->rank[j], c);
    for (size_t j = 0; j < h->n && rc >= 0; j++) rc = finish(p, h->rank[j], c);
    free(h->rank);
    memmove(h, h + 1, (p->nh - i - 1) * sizeof *h);
    p->nh--;
    return rc;
  }
  if (PT_GROW(p->h, p->caph, p->nh + 1, 4)) return PT_ENOMEM;
  half *h = &p->h[p->nh++];
  h->comm = in->comm;
  h->leader = leader;
  h->rleader = rleader;
  h->tag = tag;
  h->n = in->n;
  h->rank = in->rank; /* taken over from the instance */
  in->rank = NULL;
  return PT_OK;
}

/* Every member of both groups of intercommunicator in->comm arrived at
 * its creation call of sequence number in->seq: MPI_Comm_dup (the same
 * groups), MPI_Comm_split (an intercommunicator per color present in both
 * groups: each group's members of that color by key, then rank; a color
 * in one group only gives MPI_COMM_NULL), MPI_Intercomm_merge (an
 * intracommunicator: the group that passed high = 0 first; both the same:
 * the group with the lower COMM_WORLD rank first, an implementation's
 * choice). */
static int complete_inter(replay *p, inst *in) {
  pt__dcomm *dc = p->dc;
  const int32_t P = in->comm;
  const int64_t *A = dc->comms[P].members, *B = dc->comms[P].remote;
  const uint32_t na = dc->comms[P].n, nb = dc->comms[P].nremote;
  for (uint32_t l = 0; l < na; l++) p->pos[A[l]] = l, p->side[A[l]] = 0;
  for (uint32_t l = 0; l < nb; l++) p->pos[B[l]] = l, p->side[B[l]] = 1;
  for (size_t i = 0; i < in->n; i++) p->arr[in->rank[i]] = i;
  uint8_t op = p->ops[in->rank[0]][p->r[in->rank[0]].cur].op;
  for (size_t i = 1; i < in->n; i++)
    if (p->ops[in->rank[i]][p->r[in->rank[i]].cur].op != op) op = OP_UNBIND;
  const size_t n = in->n;
  skey *k = malloc(n * sizeof *k);
  int64_t *mem = malloc(n * sizeof *mem);
  int32_t *res = malloc(n * sizeof *res); /* by arrival */
  int rc = k && mem && res ? PT_OK : PT_ENOMEM;
  for (size_t i = 0; res && i < n; i++) res[i] = -1;
  switch (rc == PT_OK ? op : OP_NONE) {
    case OP_NONE:
      break;
    case OP_DUP: {
      int c = add_comm2(p, A, na, B, nb, op, P);
      if (c < 0) rc = c;
      for (size_t i = 0; i < n && c >= 0; i++) res[i] = c;
      break;
    }
    case OP_SPLIT: {
      for (size_t i = 0; i < n; i++) {
        const pt__dcomm_op *o = &p->ops[in->rank[i]][p->r[in->rank[i]].cur];
        k[i].color = o->a;
        k[i].key = o->b;
        k[i].world = (int64_t)in->rank[i];
        k[i].local = p->pos[in->rank[i]];
        k[i].side = p->side[in->rank[i]];
      }
      qsort(k, n, sizeof *k, cmp_skey);
      for (size_t i = 0; i < n && rc >= 0;) {
        size_t j = i, s1 = i;
        while (j < n && k[j].color == k[i].color) j++;
        while (s1 < j && !k[s1].side) s1++;
        if (k[i].color >= 0 && s1 > i && s1 < j) {
          for (size_t x = i; x < j; x++) mem[x - i] = k[x].world;
          int c = add_comm2(p, mem, (uint32_t)(s1 - i), mem + (s1 - i),
                            (uint32_t)(j - s1), op, P);
          if (c < 0) rc = c;
          for (size_t x = i; x < j && c >= 0; x++) res[p->arr[k[x].world]] = c;
        }
        i = j;
      }
      break;
    }
    case OP_MERGE: {
      int64_t high[2] = {0, 0};
      int seen[2] = {0, 0};
      for (size_t i = 0; i < n; i++) {
        int sd = p->side[in->rank[i]];
        if (!seen[sd]) {
          high[sd] = p->ops[in->rank[i]][p->r[in->rank[i]].cur].a;
          seen[sd] = 1;
        }
      }
      int bfirst = high[0] && !high[1];
      memcpy(mem, bfirst ? B : A, (bfirst ? nb : na) * sizeof *mem);
      memcpy(mem + (bfirst ? nb : na), bfirst ? A : B,
             (bfirst ? na : nb) * sizeof *mem);
      int c = add_comm(p, mem, na + nb, op, P);
      if (c < 0) rc = c;
      for (size_t i = 0; i < n && c >= 0; i++) res[i] = c;
      break;
    }
    default: /* members disagree, or a call not made on an inter-communicator */
      dc->unresolved += n;
      break;
  }
  for (size_t i = 0; i < n && rc >= 0; i++) rc = finish(p, in->rank[i], res[i]);
  free(k);
  free(mem);
  free(res);
  return rc;
}

/* Every member of comm P arrived at its creation call of sequence number
 * in->seq: work out the new communicator(s) and bind each member's handle. */
static int complete(replay *p, inst *in) {
  pt__dcomm *dc = p->dc;
  const int32_t P = in->comm;
  if (dc->comms[P].nremote) return complete_inter(p, in);
  const uint32_t n = dc->comms[P].n;
  for (uint32_t l = 0; l < n; l++) p->pos[dc->comms[P].members[l]] = l;
  for (size_t i = 0; i < in->n; i++) p->arr[in->rank[i]] = i;
  const pt__dcomm_op *o0 = &p->ops[in->rank[0]][p->r[in->rank[0]].cur];
  uint8_t op = o0->op;
  /* every member must make the same kind of call */
  for (size_t i = 1; i < in->n; i++)
    if (p->ops[in->rank[i]][p->r[in->rank[i]].cur].op != op) op = OP_UNBIND;
  skey *k = malloc((size_t)(n ? n : 1) * sizeof *k);
  int64_t *mem = malloc((size_t)(n ? n : 1) * sizeof *mem);
  int32_t *res = malloc((size_t)(n ? n : 1) * sizeof *res); /* by arrival */
  if (!k || !mem || !res) {
    free(k);
    free(mem);
    free(res);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < in->n; i++) res[i] = -1;
  int rc = PT_OK, pending = 0;
  switch (op) {
    case OP_DUP: {
      int c = add_comm(p, dc->comms[P].members, n, op, P);
      if (c < 0) {
        rc = c;
        break;
      }
      dc->comms[c].ndims = dc->comms[P].ndims; /* a dup keeps the topology */
      dc->comms[c].dims = dc->comms[P].dims;
      for (size_t i = 0; i < in->n; i++) res[i] = c;
      break;
    }
    case OP_SPLIT: {
      for (size_t i = 0; i < in->n; i++) {
        const pt__dcomm_op *o = &p->ops[in->rank[i]][p->r[in->rank[i]].cur];
        k[i].color = o->a;
        k[i].key = o->b;
        k[i].world = (int64_t)in->rank[i];
        k[i].local = p->pos[in->rank[i]];
        k[i].side = 0;
      }
      qsort(k, in->n, sizeof *k, cmp_skey);
      for (size_t i = 0; i < in->n && rc >= 0;) {
        size_t j = i;
        while (j < in->n && k[j].color == k[i].color) j++;
        if (k[i].color >= 0) { /* MPI_UNDEFINED is negative */
          for (size_t x = i; x < j; x++) mem[x - i] = k[x].world;
          int c = add_comm(p, mem, (uint32_t)(j - i), op, P);
          if (c < 0) rc = c;
          for (size_t x = i; x < j && c >= 0; x++) res[p->arr[k[x].world]] = c;
        }
        i = j;
      }
      break;
    }
    case OP_CREATE: {
      /* members: the group each member passes (the same one) */
      int c = -1;
      const grp *gc = NULL;
      for (size_t i = 0; i < in->n && rc >= 0; i++) {
        size_t r = in->rank[i];
        int g = group_of(p, r, p->ops[r][p->r[r].cur].in2);
        if (g < 0) continue;
        const grp *gg = &p->g[g];
        int member = 0;
        for (uint32_t x = 0; x < gg->n && !member; x++)
          member = gg->m[x] == (int64_t)r;
        if (!member) continue;
        if (c < 0) {
          if ((c = add_comm(p, gg->m, gg->n, op, P)) < 0) rc = c;
          gc = gg;
        }
        if (c >= 0 && gg->n == gc->n &&
            !memcmp(gg->m, gc->m, gg->n * sizeof *gg->m))
          res[i] = c;
      }
      break;
    }
    case OP_CART:
    case OP_GRAPH: {
      /* the first prod(dims) / nodes ranks, in order (no reordering) */
      const pt__dcomm_op *o = o0;
      int64_t size = 1;
      if (op == OP_CART) {
        for (uint32_t d = 0; d < o->n && size > 0; d++)
          size = o->v[d] > 0 && size <= (int64_t)n / o->v[d] ? size * o->v[d]
                                                             : 0;
      } else {
        size = o->a;
      }
      if (size <= 0 || size > (int64_t)n) break;
      int c = add_comm(p, dc->comms[P].members, (uint32_t)size, op, P);
      if (c < 0) {
        rc = c;
        break;
      }
      if (op == OP_CART && o->n) {
        dc->comms[c].dims = pt__arena_alloc(&dc->mem, o->n * sizeof(int64_t));
        if (!dc->comms[c].dims) {
          rc = PT_ENOMEM;
          break;
        }
        memcpy(dc->comms[c].dims, o->v, o->n * sizeof(int64_t));
        dc->comms[c].ndims = o->n;
      }
      for (size_t i = 0; i < in->n; i++)
        if (p->pos[in->rank[i]] < size) res[i] = c;
      break;
    }
    case OP_CART_SUB: {
      /* grid coordinates (row-major); a new communicator per value of
       * the dropped coordinates, ranks in grid order */
      /* (add_comm may move dc->comms: the parent's fields are copied) */
      const uint32_t nd = dc->comms[P].ndims;
      const int64_t *dims = dc->comms[P].dims;
      if (!nd || o0->n != nd) break;
      int64_t size = 1;
      for (uint32_t d = 0; d < nd; d++) size *= dims[d];
      if (size != (int64_t)n) break;
      for (size_t i = 0; i < in->n; i++) {
        int64_t l = p->pos[in->rank[i]], color = 0, rest = l;
        int64_t stride = size;
        for (uint32_t d = 0; d < nd; d++) {
          stride /= dims[d];
          int64_t coord = rest / stride;
          rest %= stride;
          if (!o0->v[d]) color = color * dims[d] + coord;
        }
        k[i].color = color;
        k[i].key = l;
        k[i].local = l;
        k[i].world = (int64_t)in->rank[i];
        k[i].side = 0;
      }
      qsort(k, in->n, sizeof *k, cmp_skey);
      int64_t *sub = pt__arena_alloc(&dc->mem, (nd ? nd : 1) * sizeof *sub);
      if (!sub) {
        rc = PT_ENOMEM;
        break;
      }
      uint32_t ns = 0;
      for (uint32_t d = 0; d < nd; d++)
        if (o0->v[d]) sub[ns++] = dims[d];
      for (size_t i = 0; i < in->n && rc >= 0;) {
        size_t j = i;
        while (j < in->n && k[j].color == k[i].color) j++;
        for (size_t x = i; x < j; x++) mem[x - i] = k[x].world;
        int c = add_comm(p, mem, (uint32_t)(j - i), op, P);
        if (c < 0) {
          rc = c;
          break;
        }
        dc->comms[c].dims = sub;
        dc->comms[c].ndims = ns;
        for (size_t x = i; x < j; x++) res[p->arr[k[x].world]] = c;
        i = j;
      }
      break;
    }
    case OP_INTER:
      rc = inter_half(p, in);
      pending = 1; /* inter_half bound the handles, or they wait */
      break;
    default: /* members disagree on the call, or an intercommunicator
                call on an intracommunicator: unknown */
      dc->unresolved += in->n;
      break;
  }
  for (size_t i = 0; i < in->n && rc >= 0 && !pending; i++)
    rc = finish(p, in->rank[i], res[i]);
  free(k);
  free(mem);
  free(res);
  return rc;
}

static inst *inst_get(replay *p, int32_t comm, int32_t seq) {
  for (size_t i = 0; i < p->nin; i++)
    if (p->in[i].comm == comm && p->in[i].seq == seq) return &p->in[i];
  if (PT_GROW(p->in, p->capin, p->nin + 1, 8)) return NULL;
  inst *in = &p->in[p->nin];
  in->rank = malloc((total(&p->dc->comms[comm]) ? total(&p->dc->comms[comm])
                                                : 1) * sizeof *in->rank);
  if (!in->rank) return NULL;
  in->comm = comm;
  in->seq = seq;
  in->n = 0;
  p->nin++;
  return in;
}

static void inst_drop(replay *p, inst *in) {
  free(in->rank);
  *in = p->in[--p->nin];
}

/* Advance rank r until it blocks in a collective or runs out of ops.
 * Returns the number of ops done, or an error. */
static long advance(replay *p, size_t r) {
  rstate *s = &p->r[r];
  long done = 0;
  while (!s->blocked && s->cur < p->nops[r]) {
    const pt__dcomm_op *o = &p->ops[r][s->cur];
    int rc = PT_OK;
    switch (o->op) {
      case OP_FREE:
        rc = bind(p, r, o->call, o->in1, -2);
        s->cur++;
        break;
      case OP_UNBIND:
        rc = bind(p, r, o->call, o->out, -1);
        s->cur++;
        break;
      case OP_GROUP_OF: case OP_REMOTE_GROUP: case OP_INCL: case OP_EXCL: case OP_RANGE_INCL:
      case OP_RANGE_EXCL: case OP_UNION: case OP_INTERSECT:
      case OP_DIFFERENCE: case OP_GFREE:
        rc = group_op(p, r, o);
        s->cur++;
        break;
      default: { /* collective over the parent */
        int c = comm_of(p, r, o->in1);
        if (c < -1) return c;
        if (c < 0) { /* parent unknown: so is the result */
          p->dc->unresolved++;
          rc = bind(p, r, o->call, o->out, -1);
          s->cur++;
          break;
        }
        int seq = hget(&s->seq, c);
        seq = seq < 0 ? 0 : seq;
        if ((rc = hset(&s->seq, c, seq + 1)) < 0) return rc;
        inst *in = inst_get(p, c, seq);
        if (!in) return PT_ENOMEM;
        if (in->n >= total(&p->dc->comms[c])) { /* cannot happen with MPI */
          p->dc->unresolved++;
          rc = bind(p, r, o->call, o->out, -1);
          s->cur++;
          break;
        }
        in->rank[in->n++] = r;
        s->blocked = 1;
        if (in->n == total(&p->dc->comms[c])) {
          rc = complete(p, in);
          inst_drop(p, in);
        }
        break;
      }
    }
    if (rc < 0) return rc;
    done++;
  }
  return done;
}

int pt__dcomm_resolve(pt__dcomm *dc, size_t nranks, pt__dcomm_op *const *ops,
                      const size_t *nops) {
  replay p = {0};
  p.dc = dc;
  p.nranks = nranks;
  p.ops = ops;
  p.nops = nops;
  p.r = calloc(nranks ? nranks : 1, sizeof *p.r);
  p.pos = calloc(nranks ? nranks : 1, sizeof *p.pos);
  p.arr = calloc(nranks ? nranks : 1, sizeof *p.arr);
  p.side = calloc(nranks ? nranks : 1, sizeof *p.side);
  p.self = malloc((nranks ? nranks : 1) * sizeof *p.self);
  int rc = p.r && p.pos && p.arr && p.side && p.self ? PT_OK : PT_ENOMEM;
  for (size_t r = 0; r < nranks && p.self; r++) p.self[r] = -1;
  int64_t *world = rc == PT_OK ? malloc((nranks ? nranks : 1) * sizeof *world)
                               : NULL;
  if (rc == PT_OK && !world) rc = PT_ENOMEM;
  for (size_t r = 0; world && r < nranks; r++) world[r] = (int64_t)r;
  if (rc == PT_OK && add_comm(&p, world, (uint32_t)nranks, OP_NONE, -1) < 0)
    rc = PT_ENOMEM; /* comm 0: MPI_COMM_WORLD */
  free(world);
  while (rc == PT_OK) {
    long progress = 0;
    for (size_t r = 0; r < nranks && rc == PT_OK; r++) {
      long n = advance(&p, r);
      if (n < 0) rc = (int)n;
      else progress += n;
    }
    if (rc < 0 || progress) continue;
    /* stuck: the earliest pending instance never completes (a rank's
     * trace ends early, or the members disagree): its result is unknown;
     * with none, the earliest side of an MPI_Intercomm_create whose other
     * side never came */
    if (!p.nin && p.nh) {
      half *h = &p.h[0];
      for (size_t i = 0; i < h->n && rc == PT_OK; i++)
        rc = finish(&p, h->rank[i], -1);
      dc->unresolved += h->n;
      free(h->rank);
      memmove(h, h + 1, (p.nh - 1) * sizeof *h);
      p.nh--;
      continue;
    }
    if (!p.nin) break;
    inst *in = &p.in[0];
    for (size_t i = 0; i < in->n && rc == PT_OK; i++) {
      size_t r = in->rank[i];
      rc = bind(&p, r, p.ops[r][p.r[r].cur].call, p.ops[r][p.r[r].cur].out,
                -1);
      p.r[r].cur++;
      p.r[r].blocked = 0;
      dc->unresolved++;
    }
    inst_drop(&p, in);
  }
  if (rc == PT_OK) {
    dc->nranks = nranks;
    dc->bind = calloc(nranks ? nranks : 1, sizeof *dc->bind);
    dc->nbind = calloc(nranks ? nranks : 1, sizeof *dc->nbind);
    if (!dc->bind || !dc->nbind) rc = PT_ENOMEM;
  }
  for (size_t r = 0; p.r && r < nranks; r++) {
    if (rc == PT_OK) {
      dc->bind[r] = p.r[r].bind;
      dc->nbind[r] = p.r[r].nbind;
    } else {
      free(p.r[r].bind);
    }
    free(p.r[r].comm.e);
    free(p.r[r].group.e);
    free(p.r[r].seq.e);
  }
  for (size_t i = 0; i < p.nin; i++) free(p.in[i].rank);
  free(p.in);
  for (size_t i = 0; i < p.nh; i++) free(p.h[i].rank);
  free(p.h);
  free(p.side);
  free(p.g);
  free(p.r);
  free(p.pos);
  free(p.arr);
  free(p.self);
  return rc;
}

void pt__dcomm_free(pt__dcomm *dc) {
  if (!dc) return;
  for (size_t r = 0; dc->bind && r < dc->nranks; r++) free(dc->bind[r]);
  free(dc->bind);
  free(dc->nbind);
  free(dc->comms);
  pt__arena_free(&dc->mem);
  memset(dc, 0, sizeof *dc);
}
