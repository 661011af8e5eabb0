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

/* X(function, op, in1, in2, out, a, b): the argument names of the parent
 * communicator or group(s), the new handle, and the op's parameters. */
#define PT__DCOMM_OPS(X)                                                     \
  X("MPI_Comm_dup", DUP, "oldcomm", 0, "newcomm", 0, 0)                      \
  X("MPI_Comm_split", SPLIT, "oldcomm", 0, "newcomm", "color", "key")        \
  X("MPI_Comm_create", CREATE, "oldcomm", "group", "newcomm", 0, 0)          \
  X("MPI_Cart_create", CART, "oldcomm", 0, "newcomm", "dims", 0)             \
  X("MPI_Graph_create", GRAPH, "oldcomm", 0, "newcomm", "nodes", 0)          \
  X("MPI_Cart_sub", CART_SUB, "oldcomm", 0, "newcomm", "remain_dims", 0)     \
  X("MPI_Comm_free", FREE, "comm", 0, 0, 0, 0)                               \
  X("MPI_Comm_group", GROUP_OF, "comm", 0, "group", 0, 0)                    \
  X("MPI_Group_incl", INCL, "group", 0, "newgroup", "ranks", 0)              \
  X("MPI_Group_excl", EXCL, "group", 0, "newgroup", "ranks", 0)              \
  X("MPI_Group_range_incl", RANGE_INCL, "group", 0, "newgroup", "ranges", 0) \
  X("MPI_Group_range_excl", RANGE_EXCL, "group", 0, "newgroup", "ranges", 0) \
  X("MPI_Group_union", UNION, "group1", "group2", "newgroup", 0, 0)          \
  X("MPI_Group_intersection", INTERSECT, "group1", "group2", "newgroup", 0,  \
    0)                                                                       \
  X("MPI_Group_difference", DIFFERENCE, "group1", "group2", "newgroup", 0,   \
    0)                                                                       \
  X("MPI_Group_free", GFREE, "group", 0, 0, 0, 0)

enum {
  OP_NONE,
#define OP_ENUM(fn, op, i1, i2, o, a, b) OP_##op,
  PT__DCOMM_OPS(OP_ENUM)
#undef OP_ENUM
  OP_UNBIND /* any other call that returns a communicator ("newcomm",
               "parent"): an inter-communicator, a spawn; unknown */
};

typedef struct opspec {
  const char *fn;
  uint8_t op;
  const char *in1, *in2, *out, *a, *b;
} opspec;

static const opspec specs[] = {
#define OP_SPEC(fn, op, i1, i2, o, a, b) {fn, OP_##op, i1, i2, o, a, b},
    PT__DCOMM_OPS(OP_SPEC)
#undef OP_SPEC
};

typedef struct labinfo {
  uint8_t op;
  int8_t in1, in2, out, a, b; /* argument indexes, -1 = none */
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
    li->in1 = li->in2 = li->out = li->a = li->b = -1;
    if (!f) continue;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
      if (strcmp(specs[i].fn, f->name)) continue;
      li->op = specs[i].op;
      li->in1 = arg_index(f, specs[i].in1);
      li->in2 = arg_index(f, specs[i].in2);
      li->out = arg_index(f, specs[i].out);
      li->a = arg_index(f, specs[i].a);
      li->b = arg_index(f, specs[i].b);
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
  if (m->n == m->cap) {
    size_t nc = m->cap ? 2 * m->cap : 8;
    hent *e = realloc(m->e, nc * sizeof *e);
    if (!e) return PT_ENOMEM;
    m->e = e;
    m->cap = nc;
  }
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
  int64_t *pos; /* world rank -> local rank in the instance's parent */
  size_t *arr;  /* world rank -> its index among the instance's arrivals */
  int32_t *self; /* rank -> comm index of its COMM_SELF, or -1 */
} replay;

static int add_comm(replay *p, const int64_t *m, uint32_t n, uint32_t op,
                    int32_t parent) {
  pt__dcomm *dc = p->dc;
  if (dc->ncomms == dc->capcomms) {
    size_t nc = dc->capcomms ? 2 * dc->capcomms : 16;
    pt__dcomm_comm *c = realloc(dc->comms, nc * sizeof *c);
    if (!c) return PT_ENOMEM;
    dc->comms = c;
    dc->capcomms = nc;
  }
  pt__dcomm_comm *c = &dc->comms[dc->ncomms];
  memset(c, 0, sizeof *c);
  c->members = pt__arena_alloc(&dc->mem, (n ? n : 1) * sizeof(int64_t));
  if (!c->members) return PT_ENOMEM;
  if (n) memcpy(c->members, m, n * sizeof(int64_t));
  c->n = n;
  c->parent = parent;
  c->fn = op == OP_SPLIT ? "MPI_Comm_split" : op == OP_DUP ? "MPI_Comm_dup"
          : op == OP_CREATE ? "MPI_Comm_create" : op == OP_CART ? "MPI_Cart_create"
          : op == OP_GRAPH ? "MPI_Graph_create" : op == OP_CART_SUB ? "MPI_Cart_sub"
          : "predefined";
  return (int)dc->ncomms++;
}

static int add_group(replay *p, const int64_t *m, uint32_t n) {
  if (p->ng == p->capg) {
    size_t nc = p->capg ? 2 * p->capg : 16;
    grp *g = realloc(p->g, nc * sizeof *g);
    if (!g) return PT_ENOMEM;
    p->g = g;
    p->capg = nc;
  }
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
  if (s->nbind == s->capbind) {
    size_t nc = s->capbind ? 2 * s->capbind : 8;
    pt__dcomm_bind *b = realloc(s->bind, nc * sizeof *b);
    if (!b) return PT_ENOMEM;
    s->bind = b;
    s->capbind = nc;
  }
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
  if (o->op == OP_GROUP_OF) {
    int c = comm_of(p, r, o->in1);
    if (c < -1) return c;
    if (c >= 0) res = add_group(p, p->dc->comms[c].members, p->dc->comms[c].n);
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
} skey;

static int cmp_skey(const void *a, const void *b) {
  const skey *x = a, *y = b;
  if (x->color != y->color) return (x->color > y->color) - (x->color < y->color);
  if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
  return (x->local > y->local) - (x->local < y->local);
}

/* Every member of comm P arrived at its creation call of sequence number
 * in->seq: work out the new communicator(s) and bind each member's handle. */
static int complete(replay *p, inst *in) {
  pt__dcomm *dc = p->dc;
  const int32_t P = in->comm;
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
  int rc = PT_OK;
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
    default: /* members disagree on the call: unknown */
      dc->unresolved += in->n;
      break;
  }
  for (size_t i = 0; i < in->n && rc >= 0; i++) {
    size_t r = in->rank[i];
    const pt__dcomm_op *o = &p->ops[r][p->r[r].cur];
    rc = bind(p, r, o->call, o->out, res[i]);
    p->r[r].cur++;
    p->r[r].blocked = 0;
  }
  free(k);
  free(mem);
  free(res);
  return rc;
}

static inst *inst_get(replay *p, int32_t comm, int32_t seq) {
  for (size_t i = 0; i < p->nin; i++)
    if (p->in[i].comm == comm && p->in[i].seq == seq) return &p->in[i];
  if (p->nin == p->capin) {
    size_t nc = p->capin ? 2 * p->capin : 8;
    inst *n = realloc(p->in, nc * sizeof *n);
    if (!n) return NULL;
    p->in = n;
    p->capin = nc;
  }
  inst *in = &p->in[p->nin];
  in->rank = malloc((p->dc->comms[comm].n ? p->dc->comms[comm].n : 1) *
                    sizeof *in->rank);
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
      case OP_GROUP_OF: case OP_INCL: case OP_EXCL: case OP_RANGE_INCL:
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
        if (in->n >= p->dc->comms[c].n) { /* cannot happen with MPI */
          p->dc->unresolved++;
          rc = bind(p, r, o->call, o->out, -1);
          s->cur++;
          break;
        }
        in->rank[in->n++] = r;
        s->blocked = 1;
        if (in->n == p->dc->comms[c].n) {
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
  p.self = malloc((nranks ? nranks : 1) * sizeof *p.self);
  int rc = p.r && p.pos && p.arr && p.self ? PT_OK : PT_ENOMEM;
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
     * trace ends early, or the members disagree): its result is unknown */
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
