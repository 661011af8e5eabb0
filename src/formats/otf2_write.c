/* OTF2 sink through libotf2.  Events stream into one OTF2 event writer per
 * location; definitions are kept and written at close, when event counts
 * and every used string are known.  Mapping: doc/otf2.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "formats/otf2_int.h"
#include "store/map.h"

/* Dense OTF2 ids for one kind of model ids. */
typedef struct idmap {
  pt__map m;
  uint32_t next;
} idmap;

enum { M_REGION, M_GROUP, M_COMM, M_ATTR, M_PARAM, M_MEMBER, M_METRIC,
       M_STN, M_LG, M_CALLSITE, M_FILE, M_HANDLE, M__COUNT };

/* Pending multi-member metric sample of one location. */
typedef struct pmetric {
  uint64_t group, time;
  uint32_t n, want;
  OTF2_MetricRef ref;
  OTF2_Type types[256];
  OTF2_MetricValue vals[256];
  OTF2_AttributeList *al;
} pmetric;

typedef struct lwriter {
  uint64_t loc;
  OTF2_EvtWriter *w;
  uint64_t nev, last;
  pmetric *pm;
} lwriter;

typedef struct swriter {
  uint64_t loc;
  OTF2_SnapWriter *w;
  int open; /* inside SnapshotStart .. SnapshotEnd */
} swriter;

typedef struct comminfo {
  uint64_t model;     /* model comm id */
  pt__map *inv;       /* COMM_LOCATIONS index -> local rank; NULL = identity */
  pt__map *inv_b;     /* an inter-communicator's group B, likewise */
  int self;           /* COMM_SELF: every peer is rank 0 */
} comminfo;

typedef struct osnk {
  OTF2_Archive *ar;
  char *path;
  char err[768];
  pt_warn_fn warn;
  void *warn_user;
  pt__arena mem;
  /* definitions, copied */
  pt_def *defs;
  size_t ndefs, capdefs;
  pt__map kv;       /* hash(name, scope) -> def index of an otf2: KEYVAL */
  pt__map def_at[PT_DEF__COUNT]; /* kind -> (model id -> def index) */
  idmap ids[M__COUNT];
  /* strings */
  pt__map strmap;
  const char **strs;
  size_t nstrs, capstrs;
  /* writers */
  lwriter *lw;
  size_t nlw, caplw;
  pt__map lw_at;
  OTF2_AttributeList *al;
  /* OTF2 allows a key once per attribute list: the second and later
   * values of a key repeated in one event (DUMPI's argv strings, say) get
   * attributes of their own, "name[r]", defined at close */
  struct rep_attr {
    uint64_t key;
    uint32_t rep, id;
    OTF2_Type type;
  } *reps;
  size_t nreps, capreps;
  OTF2_GlobalDefWriter *gw; /* set while definitions are written */
  uint64_t *by_id;          /* ids_by_otf2's table */
  /* the MPI world, frozen at the first event */
  int has_cl;         /* the source has an MPI COMM_LOCATIONS group */
  uint64_t *cl;       /* COMM_LOCATIONS members (location ids) */
  size_t ncl;
  uint64_t cl_group;  /* model id of that group, or PT_NONE (synthesised) */
  int frozen;         /* rank mode decided (at the first event) */
  int by_location;    /* the trace has no distinct ranks: peers are
                         location ids, numbered by loc_index */
  pt__map loc_index;  /* location id -> index in the synthesised group */
  uint64_t *loc_order; /* index -> location id */
  size_t nloc_order, caploc_order;
  comminfo *ci;
  size_t nci;
  pt__map ci_at;      /* model comm -> index in ci */
  int need_world;     /* synthesise MPI_COMM_WORLD */
  int need_idgroup;   /* synthesise the identity COMM_GROUP */
  uint32_t world_comm, id_group, cl_otf2;
  swriter *sw;
  size_t nsw;
  pt__map sw_at;
  int snap_files;
  pt__map snap_times; /* distinct snapshot times -> 1 */
  uint64_t snaps_skipped;
  uint64_t def_conflicts; /* definitions of an id already defined otherwise */
  uint64_t tmin, tmax;
  uint64_t skipped[PT_EV__COUNT];
  /* RmaWin definitions made for the windows of RMA_* events that have
   * none (other sources than OTF2: a per-rank window id and its
   * communicator), ids after the defined ones */
  struct swin {
    uint64_t ref, comm;
    uint32_t id, ocomm, name;
  } *swins;
  size_t nswins, capswins;
  uint32_t next_win;
  uint64_t nevents;
  int failed;
  /* set on the first error and on abort: pre_flush then refuses every
   * flush, so closing the writers frees their buffers without writing into
   * files that already failed (libotf2 crashed in OTF2_File_Write after
   * ENOSPC when asked to flush again) */
  int no_flush;
  /* a libotf2 call that writes records failed (not a close call: see
   * otf2_close_err).  After a failed file write libotf2 3.0 keeps a
   * freed buffer as still holding data (otf2_file_write_buffered frees
   * file->buffer but leaves it and buffer_used set) and writes and frees
   * it again when the file is closed: a crash.  Its writers and archive
   * are then abandoned, not closed (their memory and open files are
   * lost), and the caller removes the output. */
  int lib_failed;
} osnk;

static int fail(osnk *k, int st, const char *fmt, ...) PT_PRINTF(3, 4);
static int fail(osnk *k, int st, const char *fmt, ...) {
  char m[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  char lib[400];
  const char *l = pt__otf2_take(lib, sizeof lib);
  if (!k->failed)
    snprintf(k->err, sizeof k->err, "%s: %s%s%s%s", k->path, m,
             l ? " [libotf2: " : "", l ? l : "", l ? "]" : "");
  k->failed = 1;
  k->no_flush = 1;
  return st;
}

/* a failed libotf2 close call: the file it closed is finalized and freed
 * whatever failed (a failed write there is no crash), so the archive and
 * the other writers can still be closed and freed */
static int otf2_close_err(osnk *k, const char *what, OTF2_ErrorCode e) {
  return fail(k, PT_EIO, "libotf2: %s failed: %s (%s)", what,
              pt__otf2_errname(e), OTF2_Error_GetDescription(e));
}

/* a failed libotf2 call that writes records (it may flush mid-way): the
 * same, and the archive is abandoned (see lib_failed) */
static int otf2_err(osnk *k, const char *what, OTF2_ErrorCode e) {
  k->lib_failed = 1;
  return otf2_close_err(k, what, e);
}

/* Return errfn's status (otf2_err or otf2_close_err) from the calling
 * function when the libotf2 call fails. */
#define CHECK_WITH(errfn, call, what)                                        \
  do {                                                                       \
    OTF2_ErrorCode e_ = (call);                                              \
    if (e_ != OTF2_SUCCESS) return errfn(k, what, e_);                       \
  } while (0)
#define CHECK(call, what) CHECK_WITH(otf2_err, call, what)
#define CHECK_CLOSE(call, what) CHECK_WITH(otf2_close_err, call, what)

static uint64_t hash_str(const char *s, uint64_t seed) {
  uint64_t h = pt__fnv1a(s, seed);
  return h == UINT64_MAX ? 0 : h;
}

/* ---- ids and strings ------------------------------------------------------ */

static uint32_t id_of(osnk *k, int m, uint64_t model) {
  uint64_t v;
  if (model == PT_NONE) return OTF2_UNDEFINED_UINT32;
  if (pt__map_get(&k->ids[m].m, model, &v)) return (uint32_t)v;
  v = k->ids[m].next++;
  if (pt__map_put(&k->ids[m].m, model, v) < 0) {
    fail(k, PT_ENOMEM, "out of memory");
    return OTF2_UNDEFINED_UINT32;
  }
  return (uint32_t)v;
}

/* The model ids of id space m by OTF2 id: out[v] is the model id given
 * OTF2 id v, UINT64_MAX where none was (an id handed out without a model
 * id); *n ids.  Borrowed until the next call; NULL when out of memory. */
static const uint64_t *ids_by_otf2(osnk *k, int m, size_t *n) {
  const idmap *im = &k->ids[m];
  free(k->by_id);
  uint64_t *t = k->by_id = malloc((im->next ? im->next : 1) * sizeof *t);
  *n = t ? im->next : 0;
  for (size_t i = 0; i < *n; i++) t[i] = UINT64_MAX;
  for (size_t i = 0; t && i < im->m.cap; i++)
    if (im->m.keys[i] != UINT64_MAX && im->m.vals[i] < *n)
      t[im->m.vals[i]] = im->m.keys[i];
  return t;
}

static uint32_t str_id(osnk *k, const char *s) {
  if (!s) s = "";
  uint64_t h = hash_str(s, 0), v;
  while (pt__map_get(&k->strmap, h, &v)) {
    if (strcmp(k->strs[v], s) == 0) return (uint32_t)v;
    h = h + 1 == UINT64_MAX ? 0 : h + 1;
  }
  if (PT_GROW(k->strs, k->capstrs, k->nstrs + 1, 256)) {
    fail(k, PT_ENOMEM, "out of memory");
    return 0;
  }
  const char *c = pt__arena_strdup(&k->mem, s);
  if (!c || pt__map_put(&k->strmap, h, k->nstrs) < 0) {
    fail(k, PT_ENOMEM, "out of memory");
    return 0;
  }
  k->strs[k->nstrs] = c;
  /* while definitions are written, a new string goes out at once, ahead of
   * the record that uses it (readers resolve strings as they go) */
  if (k->gw) {
    OTF2_ErrorCode e =
        OTF2_GlobalDefWriter_WriteString(k->gw, (OTF2_StringRef)k->nstrs, c);
    if (e != OTF2_SUCCESS) otf2_err(k, "writing a string", e);
  }
  return (uint32_t)k->nstrs++;
}

static const pt_def *def_get(const osnk *k, uint32_t kind, uint64_t id) {
  uint64_t i;
  /* PT_NONE is the map's empty-slot key: never look it up */
  if (id == PT_NONE || kind >= PT_DEF__COUNT ||
      !pt__map_get(&k->def_at[kind], id, &i))
    return NULL;
  return &k->defs[i];
}

/* Value of the KEYVAL override `name` of definition `scope`, or NULL. */
static const char *kv_get(const osnk *k, const char *name, uint64_t scope) {
  uint64_t h = hash_str(name, scope * UINT64_C(0x9e3779b97f4a7c15)), i;
  while (pt__map_get(&k->kv, h, &i)) {
    const pt_def *d = &k->defs[i];
    if (d->parent == scope && strcmp(d->name, name) == 0) return d->s1;
    h = h + 1 == UINT64_MAX ? 0 : h + 1;
  }
  return NULL;
}

static int kv_int(const osnk *k, const char *name, uint64_t scope,
                  int64_t dflt) {
  const char *v = kv_get(k, name, scope);
  return v ? (int)strtoll(v, NULL, 10) : (int)dflt;
}

static int is_carrier(const char *name) {
  return name && strncmp(name, PT__OTF2_PREFIX, 5) == 0;
}

static int def_store(osnk *k, const pt_def *d) {
  /* The same definition again (every rank of a recorded trace defines the
   * regions and attributes it uses in its own stream): written once.  A
   * different one under an id already defined: the first is kept. */
  uint64_t prev;
  if (d->kind < PT_DEF__COUNT && d->kind != PT_DEF_KEYVAL &&
      (pt_def_slot_mask(d->kind) & (1u << PT_DSLOT_ID)) && d->id != PT_NONE &&
      pt__map_get(&k->def_at[d->kind], d->id, &prev)) {
    pt_def a = k->defs[prev], b = *d;
    a.scope = b.scope = 0;
    if (!pt_def_equal(&a, &b)) k->def_conflicts++;
    return PT_OK;
  }
  if (PT_GROW(k->defs, k->capdefs, k->ndefs + 1, 128))
    return fail(k, PT_ENOMEM, "out of memory");
  pt_def *c = &k->defs[k->ndefs];
  *c = *d;
  if (pt__def_copy(&k->mem, c, d) < 0)
    return fail(k, PT_ENOMEM, "out of memory");
  size_t idx = k->ndefs++;
  if (d->kind == PT_DEF_KEYVAL && is_carrier(d->name)) {
    uint64_t h = hash_str(d->name, d->parent * UINT64_C(0x9e3779b97f4a7c15));
    while (pt__map_get(&k->kv, h, NULL)) h = h + 1 == UINT64_MAX ? 0 : h + 1;
    if (pt__map_put(&k->kv, h, idx) < 0)
      return fail(k, PT_ENOMEM, "out of memory");
    return PT_OK;
  }
  if (d->kind < PT_DEF__COUNT && d->id != PT_NONE &&
      !pt__map_get(&k->def_at[d->kind], d->id, NULL) &&
      pt__map_put(&k->def_at[d->kind], d->id, idx) < 0)
    return fail(k, PT_ENOMEM, "out of memory");
  /* dense OTF2 ids in definition order */
  switch (d->kind) {
    case PT_DEF_REGION: id_of(k, M_REGION, d->id); break;
    case PT_DEF_SYSTEM_NODE: id_of(k, M_STN, d->id); break;
    case PT_DEF_LOCATION_GROUP: id_of(k, M_LG, d->id); break;
    case PT_DEF_CALLSITE: id_of(k, M_CALLSITE, d->id); break;
    case PT_DEF_COMM: id_of(k, M_COMM, d->id); break;
    case PT_DEF_PARAMETER: id_of(k, M_PARAM, d->id); break;
    case PT_DEF_METRIC: id_of(k, M_MEMBER, d->id); break;
    case PT_DEF_FILE: id_of(k, M_FILE, d->id); break;
    case PT_DEF_IO_HANDLE: id_of(k, M_HANDLE, d->id); break;
    case PT_DEF_ATTRIBUTE:
      if (!is_carrier(d->name)) id_of(k, M_ATTR, d->id);
      break;
    case PT_DEF_GROUP:
      if (d->i0 == PT_GROUP_METRICS) id_of(k, M_METRIC, d->id);
      else id_of(k, M_GROUP, d->id);
      break;
    default: break;
  }
  return k->failed ? PT_ENOMEM : PT_OK;
}

/* ---- the MPI world: ranks, COMM_LOCATIONS, local ranks -------------------- */

/* The COMM_LOCATIONS group behind every MPI communicator, built at close:
 * the source's MPI one if it has one; else the location of each rank in
 * rank order (world rank r = member r when ranks are dense); else, for a
 * trace without ranks (peers are location ids), every location in id
 * order. */
static int loc_index_add(osnk *k, uint64_t loc) {
  if (loc == PT_NONE || pt__map_get(&k->loc_index, loc, NULL)) return PT_OK;
  if (PT_GROW(k->loc_order, k->caploc_order, k->nloc_order + 1, 64))
    return PT_ENOMEM;
  k->loc_order[k->nloc_order] = loc;
  return pt__map_put(&k->loc_index, loc, k->nloc_order++);
}

static const pt_def *source_cl(const osnk *k) {
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_GROUP && d->i0 == PT_GROUP_COMM_LOCATIONS &&
        (d->i1 == PT_PARADIGM_MPI || d->i1 == PT_PARADIGM_UNKNOWN))
      return d;
  }
  return NULL;
}

static int build_world(osnk *k) {
  k->cl_group = PT_NONE;
  {
    const pt_def *d = source_cl(k);
    if (d) {
      k->cl_group = d->id;
      k->ncl = d->nmembers;
      k->cl = malloc((d->nmembers + 1) * sizeof *k->cl);
      if (!k->cl) return fail(k, PT_ENOMEM, "out of memory");
      if (d->nmembers) memcpy(k->cl, d->members, d->nmembers * sizeof *k->cl);
      return PT_OK;
    }
  }
  if (k->by_location) { /* members in loc_index order */
    for (size_t i = 0; i < k->ndefs; i++)
      if (k->defs[i].kind == PT_DEF_LOCATION &&
          loc_index_add(k, k->defs[i].id) < 0)
        return fail(k, PT_ENOMEM, "out of memory");
    k->cl = malloc((k->nloc_order + 1) * sizeof *k->cl);
    if (!k->cl) return fail(k, PT_ENOMEM, "out of memory");
    if (k->nloc_order) /* NULL when no location is defined */
      memcpy(k->cl, k->loc_order, k->nloc_order * sizeof *k->cl);
    k->ncl = k->nloc_order;
    return PT_OK;
  }
  size_t n = 0;
  for (size_t i = 0; i < k->ndefs; i++) n += k->defs[i].kind == PT_DEF_LOCATION;
  for (size_t i = 0; i < k->nlw; i++)
    n += !def_get(k, PT_DEF_LOCATION, k->lw[i].loc);
  k->cl = malloc((n + 1) * sizeof *k->cl);
  if (!k->cl) return fail(k, PT_ENOMEM, "out of memory");
  /* rank -> first location of the location group with that rank */
  pt__map lg_rank = {0}, rank_loc = {0};
  int rc = PT_OK;
  for (size_t i = 0; i < k->ndefs && rc == PT_OK; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_LOCATION_GROUP && d->i1 >= 0 && d->id != PT_NONE)
      rc = pt__map_put(&lg_rank, d->id, (uint64_t)d->i1);
  }
  for (size_t i = 0; i < k->ndefs && rc == PT_OK; i++) {
    const pt_def *d = &k->defs[i];
    uint64_t r;
    if (d->kind == PT_DEF_LOCATION && d->parent != PT_NONE &&
        pt__map_get(&lg_rank, d->parent, &r) &&
        !pt__map_get(&rank_loc, r, NULL))
      rc = pt__map_put(&rank_loc, r, d->id);
  }
  if (rc == PT_OK && rank_loc.n) {
    uint64_t *rk = malloc((rank_loc.n + 1) * sizeof *rk);
    if (!rk) rc = PT_ENOMEM;
    size_t m = 0;
    for (size_t i = 0; rk && i < rank_loc.cap; i++)
      if (rank_loc.keys[i] != UINT64_MAX) rk[m++] = rank_loc.keys[i];
    if (rk) qsort(rk, m, sizeof *rk, pt__cmp_u64);
    for (size_t i = 0; rk && i < m && k->ncl < n; i++) {
      uint64_t loc = 0;
      pt__map_get(&rank_loc, rk[i], &loc);
      k->cl[k->ncl++] = loc;
    }
    free(rk);
  } else if (rc == PT_OK) {
    for (size_t i = 0; i < k->ndefs; i++)
      if (k->defs[i].kind == PT_DEF_LOCATION) k->cl[k->ncl++] = k->defs[i].id;
    for (size_t i = 0; i < k->nlw; i++)
      if (!def_get(k, PT_DEF_LOCATION, k->lw[i].loc))
        k->cl[k->ncl++] = k->lw[i].loc;
    qsort(k->cl, k->ncl, sizeof *k->cl, pt__cmp_u64);
  }
  pt__map_free(&lg_rank);
  pt__map_free(&rank_loc);
  return rc < 0 ? fail(k, PT_ENOMEM, "out of memory") : PT_OK;
}

/* At the first event: do the location groups carry distinct ranks (then a
 * peer is a world rank) or not (then a peer is a location id, numbered by
 * the order of the location ids known now; later ones are appended)? */
static int freeze(osnk *k) {
  k->frozen = 1;
  k->has_cl = source_cl(k) != NULL;
  pt__map seen = {0};
  int distinct = 0, rc = PT_OK;
  for (size_t i = 0; i < k->ndefs && rc == PT_OK; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_LOCATION_GROUP || d->i1 < 0) continue;
    if (pt__map_get(&seen, (uint64_t)d->i1, NULL)) {
      distinct = 0;
      break;
    }
    rc = pt__map_put(&seen, (uint64_t)d->i1, 1);
    distinct = 1;
  }
  pt__map_free(&seen);
  if (rc < 0) return fail(k, PT_ENOMEM, "out of memory");
  if (distinct) return PT_OK;
  k->by_location = 1;
  size_t n = 0;
  for (size_t i = 0; i < k->ndefs; i++) n += k->defs[i].kind == PT_DEF_LOCATION;
  uint64_t *ids = malloc((n + 1) * sizeof *ids);
  if (!ids) return fail(k, PT_ENOMEM, "out of memory");
  n = 0;
  for (size_t i = 0; i < k->ndefs; i++)
    if (k->defs[i].kind == PT_DEF_LOCATION) ids[n++] = k->defs[i].id;
  qsort(ids, n, sizeof *ids, pt__cmp_u64);
  for (size_t i = 0; i < n && rc == PT_OK; i++) rc = loc_index_add(k, ids[i]);
  free(ids);
  return rc < 0 ? fail(k, PT_ENOMEM, "out of memory") : PT_OK;
}

/* *inv = a new map of the members of group g to their index there (a
 * member listed twice: its first); PT_OK or PT_ENOMEM. */
static int member_index(pt__map **inv, const pt_def *g) {
  pt__map *m = *inv = calloc(1, sizeof *m);
  if (!m) return PT_ENOMEM;
  for (uint64_t j = 0; j < g->nmembers; j++)
    if (g->members[j] != PT_NONE && !pt__map_get(m, g->members[j], NULL) &&
        pt__map_put(m, g->members[j], j) < 0)
      return PT_ENOMEM;
  return PT_OK;
}

/* Communicator info: how world ranks become local ranks. */
static comminfo *comm_info(osnk *k, uint64_t comm) {
  uint64_t i;
  if (pt__map_get(&k->ci_at, comm, &i)) return &k->ci[i];
  comminfo *n = realloc(k->ci, (k->nci + 1) * sizeof *n);
  if (!n) return NULL;
  k->ci = n;
  comminfo *c = &k->ci[k->nci];
  memset(c, 0, sizeof *c);
  c->model = comm;
  const pt_def *cd = def_get(k, PT_DEF_COMM, comm);
  const pt_def *g = cd ? def_get(k, PT_DEF_GROUP, cd->ref) : NULL;
  if (!cd) {
    /* the synthesised MPI_COMM_WORLD (comm_ref): identity */
  } else if (g && g->i0 == PT_GROUP_COMM_SELF) {
    c->self = 1;
  } else if (g && g->i0 == PT_GROUP_COMM_GROUP) {
    if (member_index(&c->inv, g) < 0) return NULL;
  } else {
    k->need_idgroup = 1; /* COMM_LOCATIONS or unknown membership */
  }
  /* an inter-communicator: a peer is in one of the two disjoint groups,
   * and its rank is its index there */
  const char *inter = cd ? kv_get(k, "otf2:intercomm", comm) : NULL;
  const pt_def *gb = NULL;
  if (inter && strtoll(inter, NULL, 10) >= 0)
    gb = def_get(k, PT_DEF_GROUP, (uint64_t)strtoll(inter, NULL, 10));
  if (gb && gb->i0 == PT_GROUP_COMM_GROUP && member_index(&c->inv_b, gb) < 0)
    return NULL;
  if (pt__map_put(&k->ci_at, comm, k->nci) < 0) return NULL;
  return &k->ci[k->nci++];
}

/* Does communicator d keep its own group (COMM_GROUP / COMM_SELF)? */
static int own_group(const osnk *k, const pt_def *d) {
  const pt_def *g = def_get(k, PT_DEF_GROUP, d->ref);
  return g && (g->i0 == PT_GROUP_COMM_GROUP || g->i0 == PT_GROUP_COMM_SELF);
}

static uint32_t comm_ref(osnk *k, uint64_t comm) {
  if (comm == PT_NONE || !def_get(k, PT_DEF_COMM, comm)) {
    if (!k->need_world) {
      k->need_world = 1;
      k->need_idgroup = 1;
      k->world_comm = id_of(k, M_COMM, UINT64_MAX - 3);
    }
    return k->world_comm;
  }
  return id_of(k, M_COMM, comm);
}

/* Thread team / contingent: a defined communicator, else undefined. */
static uint32_t team_ref(osnk *k, uint64_t comm) {
  return def_get(k, PT_DEF_COMM, comm) ? id_of(k, M_COMM, comm)
                                       : OTF2_UNDEFINED_COMM;
}

/* World rank (the index in COMM_LOCATIONS; a location id when the trace
 * has no ranks) -> rank in communicator `comm`. */
static uint32_t local_rank(osnk *k, uint64_t comm, int64_t peer) {
  if (peer < 0) return OTF2_UNDEFINED_UINT32;
  comminfo *c = comm_info(k, comm == PT_NONE ? UINT64_MAX - 1 : comm);
  if (!c) {
    fail(k, PT_ENOMEM, "out of memory");
    return 0;
  }
  if (c->self) return 0;
  uint64_t r = 0;
  if (c->inv && pt__map_get(c->inv, (uint64_t)peer, &r)) return (uint32_t)r;
  if (c->inv_b && pt__map_get(c->inv_b, (uint64_t)peer, &r))
    return (uint32_t)r;
  if (k->by_location && !k->has_cl) {
    if (loc_index_add(k, (uint64_t)peer) < 0) {
      fail(k, PT_ENOMEM, "out of memory");
      return 0;
    }
    pt__map_get(&k->loc_index, (uint64_t)peer, &r);
    return (uint32_t)r;
  }
  return (uint32_t)peer;
}

/* ---- events ---------------------------------------------------------------- */

static lwriter *writer_for(osnk *k, uint64_t loc) {
  uint64_t i;
  if (loc == PT_NONE) {
    fail(k, PT_EINVAL, "an event without a location");
    return NULL;
  }
  if (pt__map_get(&k->lw_at, loc, &i)) return &k->lw[i];
  if (PT_GROW(k->lw, k->caplw, k->nlw + 1, 16)) return NULL;
  OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(k->ar, loc);
  if (!w) {
    fail(k, PT_EIO, "libotf2 cannot create the event writer of location "
         "%" PRIu64, loc);
    return NULL;
  }
  lwriter *l = &k->lw[k->nlw];
  memset(l, 0, sizeof *l);
  l->loc = loc;
  l->w = w;
  if (pt__map_put(&k->lw_at, loc, k->nlw) < 0) return NULL;
  k->nlw++;
  return l;
}

/* The MPI recorder's "callsite" attribute: the id of a CALLSITE
 * definition.  OTF2 3.0 has no attribute type for its (deprecated)
 * Callsite definitions, so the attribute is written as a STRING, the call
 * site itself ("/path/of/module+0xoffset", "file:line" or its name); a
 * chain (PARATRACE_CALLSITES above 1: CALLSITEs linked by parent) as its
 * statements innermost first, " < " between them, as paratrace stats
 * names it (else the callers of one statement would be one string). */
static int is_callsite_attr(const pt_def *d) {
  return d && d->name && !strcmp(d->name, "callsite") &&
         (d->i0 == PT_TYPE_UINT || d->i0 == PT_TYPE_INT);
}

static void callsite_one(const pt_def *c, uint64_t id, char *buf, size_t n) {
  const char *plus = c && c->name ? strstr(c->name, "+0x") : NULL;
  if (plus && c->i0 <= 0 && c->s1 && c->s1[0] == '/')
    snprintf(buf, n, "%s%s", c->s1, plus);
  else if (c && c->s1 && c->i0 > 0)
    snprintf(buf, n, "%s:%lld", c->s1, (long long)c->i0);
  else if (c && c->name)
    snprintf(buf, n, "%s", c->name);
  else
    snprintf(buf, n, "callsite %" PRIu64, id);
}

static void callsite_text(const osnk *k, uint64_t id, char *buf, size_t n) {
  size_t l = 0;
  callsite_one(def_get(k, PT_DEF_CALLSITE, id), id, buf, n);
  /* the statements above it (at most 8, as the recorder writes them: a
   * parent loop in a foreign trace ends there too) */
  for (int d = 1; d < 8; d++) {
    const pt_def *c = def_get(k, PT_DEF_CALLSITE, id);
    if (!c || c->parent == PT_NONE || c->parent == id ||
        !def_get(k, PT_DEF_CALLSITE, c->parent))
      break;
    id = c->parent;
    l += strlen(buf + l);
    if (l + 4 >= n) break;
    memcpy(buf + l, " < ", 4);
    l += 3;
    callsite_one(def_get(k, PT_DEF_CALLSITE, id), id, buf + l, n - l);
  }
}

static OTF2_Type attr_type(const osnk *k, uint64_t key, uint32_t vtype) {
  const pt_def *d = def_get(k, PT_DEF_ATTRIBUTE, key);
  if (is_callsite_attr(d)) return OTF2_TYPE_STRING;
  int dflt = pt__otf2_type_from_model(d ? (int)d->i0 : (int)vtype);
  if (dflt == OTF2_TYPE_NONE) dflt = pt__otf2_type_from_model((int)vtype);
  return (OTF2_Type)kv_int(k, "otf2:attribute.type", key, dflt);
}

static uint64_t as_u64(const pt_value *v) {
  switch (v->type) {
    case PT_TYPE_INT: return (uint64_t)v->v.i;
    case PT_TYPE_DOUBLE: return (uint64_t)v->v.d;
    case PT_TYPE_UINT: return v->v.u;
    default: return 0;
  }
}
static int64_t as_i64(const pt_value *v) {
  switch (v->type) {
    case PT_TYPE_UINT: return (int64_t)v->v.u;
    case PT_TYPE_DOUBLE: return (int64_t)v->v.d;
    case PT_TYPE_INT: return v->v.i;
    default: return 0;
  }
}
static double as_dbl(const pt_value *v) {
  switch (v->type) {
    case PT_TYPE_UINT: return (double)v->v.u;
    case PT_TYPE_INT: return (double)v->v.i;
    case PT_TYPE_DOUBLE: return v->v.d;
    default: return 0;
  }
}

/* A model reference value of OTF2 type `t` -> OTF2 id. */
static uint32_t ref_of(osnk *k, OTF2_Type t, uint64_t v) {
  switch (t) {
    case OTF2_TYPE_REGION: return id_of(k, M_REGION, v);
    case OTF2_TYPE_GROUP: return id_of(k, M_GROUP, v);
    case OTF2_TYPE_METRIC: return id_of(k, M_METRIC, v);
    case OTF2_TYPE_COMM: return id_of(k, M_COMM, v);
    case OTF2_TYPE_PARAMETER: return id_of(k, M_PARAM, v);
    case OTF2_TYPE_ATTRIBUTE: return id_of(k, M_ATTR, v);
    case OTF2_TYPE_IO_FILE: return id_of(k, M_FILE, v);
    case OTF2_TYPE_IO_HANDLE: return id_of(k, M_HANDLE, v);
    case OTF2_TYPE_LOCATION_GROUP: return id_of(k, M_LG, v);
    default: return v == PT_NONE ? OTF2_UNDEFINED_UINT32 : (uint32_t)v;
  }
}

static int value_of(osnk *k, OTF2_Type t, const pt_value *v,
                    OTF2_AttributeValue *out) {
  switch (t) {
    case OTF2_TYPE_INT8: out->int8 = (int8_t)as_i64(v); break;
    case OTF2_TYPE_INT16: out->int16 = (int16_t)as_i64(v); break;
    case OTF2_TYPE_INT32: out->int32 = (int32_t)as_i64(v); break;
    case OTF2_TYPE_INT64: out->int64 = as_i64(v); break;
    case OTF2_TYPE_UINT8: out->uint8 = (uint8_t)as_u64(v); break;
    case OTF2_TYPE_UINT16: out->uint16 = (uint16_t)as_u64(v); break;
    case OTF2_TYPE_UINT32: out->uint32 = (uint32_t)as_u64(v); break;
    case OTF2_TYPE_UINT64: out->uint64 = as_u64(v); break;
    case OTF2_TYPE_FLOAT: out->float32 = (float)as_dbl(v); break;
    case OTF2_TYPE_DOUBLE: out->float64 = as_dbl(v); break;
    case OTF2_TYPE_LOCATION: out->locationRef = as_u64(v); break;
    case OTF2_TYPE_STRING: {
      if (v->type == PT_TYPE_STRING) {
        out->stringRef = str_id(k, v->v.s);
      } else if (v->type == PT_TYPE_INTS) { /* "1,2,3" */
        pt__buf b = {0};
        char num[24];
        for (uint32_t i = 0; i < v->count; i++) {
          int n = snprintf(num, sizeof num, "%s%" PRId64, i ? "," : "",
                           v->v.ints[i]);
          if (pt__buf_put(&b, num, (size_t)n) < 0) {
            pt__buf_free(&b);
            return fail(k, PT_ENOMEM, "out of memory");
          }
        }
        if (pt__buf_put(&b, "", 1) < 0) {
          pt__buf_free(&b);
          return fail(k, PT_ENOMEM, "out of memory");
        }
        out->stringRef = str_id(k, (const char *)b.p);
        pt__buf_free(&b);
      } else {
        char num[40];
        if (v->type == PT_TYPE_DOUBLE) snprintf(num, sizeof num, "%.17g", v->v.d);
        else if (v->type == PT_TYPE_INT) snprintf(num, sizeof num, "%" PRId64, v->v.i);
        else snprintf(num, sizeof num, "%" PRIu64, as_u64(v));
        out->stringRef = str_id(k, num);
      }
      break;
    }
    default: out->uint32 = ref_of(k, t, as_u64(v));
  }
  return PT_OK;
}

/* The OTF2 attribute of the rep-th repeat (rep >= 1) of key in one event. */
static uint32_t rep_ref(osnk *k, uint64_t key, uint32_t rep, OTF2_Type t) {
  for (size_t i = 0; i < k->nreps; i++)
    if (k->reps[i].key == key && k->reps[i].rep == rep) return k->reps[i].id;
  if (PT_GROW(k->reps, k->capreps, k->nreps + 1, 16)) {
    fail(k, PT_ENOMEM, "out of memory");
    return OTF2_UNDEFINED_UINT32;
  }
  uint32_t id = (uint32_t)k->ids[M_ATTR].next++;
  k->reps[k->nreps++] = (struct rep_attr){key, rep, id, t};
  return id;
}

/* The event's own attributes (carriers excluded) into k->al; NULL if none. */
static OTF2_AttributeList *attrs_of(osnk *k, const pt_event *e,
                                    OTF2_AttributeList *al) {
  OTF2_AttributeList_RemoveAllAttributes(al);
  for (uint32_t i = 0; i < e->nattrs; i++) {
    const pt_attr *a = &e->attrs[i];
    if (a->key >= PT__OTF2_CARRIER_BASE &&
        a->key < PT__OTF2_CARRIER_BASE + PT__OTF2_C__COUNT)
      continue;
    const pt_def *d = def_get(k, PT_DEF_ATTRIBUTE, a->key);
    if (d && is_carrier(d->name)) continue;
    OTF2_Type t = attr_type(k, a->key, a->val.type);
    if (t == OTF2_TYPE_NONE) continue;
    OTF2_AttributeValue v;
    memset(&v, 0, sizeof v);
    if (is_callsite_attr(d) && a->val.type != PT_TYPE_STRING) {
      char cs[4200];
      callsite_text(k, as_u64(&a->val), cs, sizeof cs);
      v.stringRef = str_id(k, cs);
    } else if (value_of(k, t, &a->val, &v) < 0) {
      return NULL;
    }
    uint32_t rep = 0;
    for (uint32_t j = 0; j < i; j++) rep += e->attrs[j].key == a->key;
    uint32_t ref = rep ? rep_ref(k, a->key, rep, t) : id_of(k, M_ATTR, a->key);
    if (ref == OTF2_UNDEFINED_UINT32) return NULL;
    OTF2_AttributeList_AddAttribute(al, ref, t, v);
  }
  return OTF2_AttributeList_GetNumberOfElements(al) ? al : NULL;
}

static const pt_value *carrier_val(const pt_event *e, int which) {
  for (uint32_t i = 0; i < e->nattrs; i++)
    if (e->attrs[i].key == PT__OTF2_CARRIER_BASE + (uint64_t)which)
      return &e->attrs[i].val;
  return NULL;
}

static OTF2_Type metric_vtype(const osnk *k, uint64_t member) {
  const pt_def *d = def_get(k, PT_DEF_METRIC, member);
  int dflt = pt__otf2_type_from_model(d ? (int)d->i0 : PT_TYPE_DOUBLE);
  if (dflt == OTF2_TYPE_STRING || dflt == OTF2_TYPE_NONE) dflt = OTF2_TYPE_DOUBLE;
  return (OTF2_Type)kv_int(k, "otf2:metric.value_type", member, dflt);
}

static OTF2_MetricValue metric_value(OTF2_Type t, const pt_value *v) {
  OTF2_MetricValue m;
  if (t == OTF2_TYPE_INT64) m.signed_int = as_i64(v);
  else if (t == OTF2_TYPE_UINT64) m.unsigned_int = as_u64(v);
  else m.floating_point = as_dbl(v);
  return m;
}

static int pm_flush(osnk *k, lwriter *l) {
  pmetric *p = l->pm;
  if (!p || !p->n) return PT_OK;
  OTF2_AttributeList *al =
      OTF2_AttributeList_GetNumberOfElements(p->al) ? p->al : NULL;
  OTF2_ErrorCode e = OTF2_EvtWriter_Metric(l->w, al, p->time, p->ref,
                                           (uint8_t)p->n, p->types, p->vals);
  OTF2_AttributeList_RemoveAllAttributes(p->al);
  p->n = 0;
  l->nev++;
  if (e != OTF2_SUCCESS) return otf2_err(k, "writing a Metric event", e);
  return PT_OK;
}

/* METRIC: members of one OTF2 class come as consecutive model events
 * tagged with the class (otf2:metric); they are gathered and written as
 * one record.  An untagged sample is a one-member class of its own. */
static int write_metric(osnk *k, lwriter *l, const pt_event *e) {
  const pt_value *cv = carrier_val(e, PT__OTF2_C_METRIC);
  const pt_def *g = cv ? def_get(k, PT_DEF_GROUP, cv->v.u) : NULL;
  if (!l->pm) {
    l->pm = calloc(1, sizeof *l->pm);
    if (!l->pm || !(l->pm->al = OTF2_AttributeList_New()))
      return fail(k, PT_ENOMEM, "out of memory");
  }
  pmetric *p = l->pm;
  if (p->n && (!g || p->group != g->id || p->time != e->time ||
               p->n >= p->want)) {
    int rc = pm_flush(k, l);
    if (rc < 0) return rc;
  }
  if (!g) { /* synthesised single-member class: id = member | 1 << 63 */
    p->group = e->ref | (UINT64_C(1) << 63);
    p->ref = id_of(k, M_METRIC, p->group);
    p->want = 1;
  } else if (!p->n) {
    p->group = g->id;
    p->ref = id_of(k, M_METRIC, g->id);
    p->want = g->nmembers ? (uint32_t)(g->nmembers > 255 ? 255 : g->nmembers) : 1;
  }
  if (!p->n) {
    p->time = e->time;
    OTF2_AttributeList *al = attrs_of(k, e, p->al);
    (void)al;
    if (k->failed) return PT_ENOMEM;
  }
  OTF2_Type t = metric_vtype(k, e->ref);
  p->types[p->n] = t;
  p->vals[p->n] = metric_value(t, &e->value);
  p->n++;
  if (!g && !def_get(k, PT_DEF_METRIC, e->ref)) id_of(k, M_MEMBER, e->ref);
  return p->n >= p->want ? pm_flush(k, l) : PT_OK;
}

static OTF2_CollectiveOp coll_op(const pt_event *e) {
  const pt_value *c = carrier_val(e, PT__OTF2_C_OP);
  if (c) return (OTF2_CollectiveOp)as_i64(c);
  switch (e->ref) {
    case PT_COLL_NEIGHBOR_ALLGATHER: return OTF2_COLLECTIVE_OP_ALLGATHER;
    case PT_COLL_NEIGHBOR_ALLGATHERV: return OTF2_COLLECTIVE_OP_ALLGATHERV;
    case PT_COLL_NEIGHBOR_ALLTOALL: return OTF2_COLLECTIVE_OP_ALLTOALL;
    case PT_COLL_NEIGHBOR_ALLTOALLV: return OTF2_COLLECTIVE_OP_ALLTOALLV;
    case PT_COLL_NEIGHBOR_ALLTOALLW: return OTF2_COLLECTIVE_OP_ALLTOALLW;
    default:
      return e->ref <= OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE
                 ? (OTF2_CollectiveOp)e->ref
                 : OTF2_COLLECTIVE_OP_BARRIER;
  }
}

static uint32_t tag32(int64_t t) {
  return t < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)t;
}

static OTF2_Paradigm thread_par(const pt_event *e) {
  const pt_value *c = carrier_val(e, PT__OTF2_C_PARADIGM);
  return (OTF2_Paradigm)(c ? as_i64(c) : pt__otf2_paradigm_from_model((int)e->tag));
}

/* Index of the otf2 carrier label of a MARK (PT__OTF2_L__COUNT + g for
 * generic record g), or -1. */
static int mark_label(const osnk *k, const pt_event *e) {
  const pt_def *d = def_get(k, PT_DEF_LABEL, e->ref);
  if (!d || !is_carrier(d->name)) return -1;
  for (int i = 0; i < PT__OTF2_L__COUNT; i++)
    if (strcmp(d->name, pt__otf2_label_names[i]) == 0) return i;
  for (int i = 0; i < PT__OTF2_G__COUNT; i++)
    if (strcmp(d->name, pt__otf2_generic_names[i]) == 0)
      return PT__OTF2_L__COUNT + i;
  return -1;
}

/* A generic field's OTF2 value: references mapped to the archive's ids. */
static uint64_t gref(osnk *k, OTF2_Type type, uint64_t v) {
  return type >= OTF2_TYPE_ATTRIBUTE ? ref_of(k, type, v) : v;
}

/* Generic record g (PT__OTF2_GENERIC) of e: its "otf2:field" attributes in
 * order; missing fields are 0. */
static OTF2_ErrorCode write_generic(osnk *k, OTF2_EvtWriter *w,
                                    OTF2_AttributeList *al, OTF2_TimeStamp t,
                                    int g, const pt_event *e) {
  uint64_t f[PT__OTF2_MAX_FIELDS] = {0};
  unsigned nf = 0;
  for (uint32_t i = 0; i < e->nattrs && nf < PT__OTF2_MAX_FIELDS; i++) {
    const pt_attr *a = &e->attrs[i];
    if (a->key == PT__OTF2_CARRIER_BASE + PT__OTF2_C_FIELD)
      f[nf++] = a->val.v.u;
    else if (a->key == PT__OTF2_CARRIER_BASE + PT__OTF2_C_FIELD_I)
      f[nf++] = (uint64_t)a->val.v.i;
  }
  switch (g) {
#pragma GCC diagnostic push /* the Omp* records are deprecated in OTF2 */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define G_ARG(i, K, T, n) , (T)gref(k, OTF2_TYPE_##K, f[i])
#define G_CASE(N, nf, ...)                                                   \
  case PT__OTF2_G_##N:                                                       \
    return OTF2_EvtWriter_##N(w, al, t PT__OTF2_EACH(G_ARG, nf, __VA_ARGS__));
    PT__OTF2_GENERIC(G_CASE)
#undef G_CASE
#undef G_ARG
#pragma GCC diagnostic pop
  }
  return OTF2_SUCCESS;
}

/* The OTF2 RmaWin of an RMA_* event: its window's own (an OTF2 source's,
 * kept as a KEYVAL "otf2:def.RmaWin"), else one made for the (window,
 * communicator) pair, named "window N".  OTF2_UNDEFINED_UINT32 on OOM. */
static uint32_t rma_win(osnk *k, const pt_event *e) {
  if (e->ref <= UINT32_MAX && kv_get(k, "otf2:def.RmaWin", e->ref))
    return (uint32_t)e->ref;
  for (size_t i = 0; i < k->nswins; i++)
    if (k->swins[i].ref == e->ref && k->swins[i].comm == e->comm)
      return k->swins[i].id;
  if (!k->nswins) { /* after every defined one */
    for (size_t i = 0; i < k->ndefs; i++) {
      const pt_def *d = &k->defs[i];
      if (d->kind == PT_DEF_KEYVAL && d->name &&
          strcmp(d->name, "otf2:def.RmaWin") == 0 && d->parent < UINT32_MAX &&
          d->parent >= k->next_win)
        k->next_win = (uint32_t)d->parent + 1;
    }
  }
  if (PT_GROW(k->swins, k->capswins, k->nswins + 1, 4)) {
    fail(k, PT_ENOMEM, "out of memory");
    return OTF2_UNDEFINED_UINT32;
  }
  char name[48];
  snprintf(name, sizeof name, "window %" PRIu64, e->ref);
  struct swin *w = &k->swins[k->nswins++];
  w->ref = e->ref;
  w->comm = e->comm;
  w->id = k->next_win++;
  w->ocomm = comm_ref(k, e->comm);
  w->name = str_id(k, name);
  return w->id;
}

static int write_event(osnk *k, const pt_event *e) {
  if (!k->frozen) {
    int rc = freeze(k);
    if (rc < 0) return rc;
  }
  lwriter *l = writer_for(k, e->location);
  if (!l) return k->failed ? PT_EIO : fail(k, PT_ENOMEM, "out of memory");
  if (l->nev && e->time < l->last)
    return fail(k, PT_EORDER, "location %" PRIu64 ": time %" PRIu64
                " after %" PRIu64 " (OTF2 needs non-decreasing times per "
                "location)", e->location, e->time, l->last);
  l->last = e->time;
  if (e->time < k->tmin) k->tmin = e->time;
  if (e->time > k->tmax) k->tmax = e->time;
  if (e->kind == PT_EV_METRIC) return write_metric(k, l, e);
  int rc = pm_flush(k, l);
  if (rc < 0) return rc;
  OTF2_AttributeList *al = attrs_of(k, e, k->al);
  if (k->failed) return PT_ENOMEM;
  OTF2_EvtWriter *w = l->w;
  OTF2_TimeStamp t = e->time;
  OTF2_ErrorCode x = OTF2_SUCCESS;
  switch (e->kind) {
    case PT_EV_ENTER: {
      /* one read from a CallingContextEnter goes back as one */
      const pt_value *cc = carrier_val(e, PT__OTF2_C_CCTX);
      const pt_value *uw = carrier_val(e, PT__OTF2_C_UNWIND);
      x = cc ? OTF2_EvtWriter_CallingContextEnter(
                   w, al, t, ref_of(k, OTF2_TYPE_CALLING_CONTEXT, cc->v.u),
                   uw ? (uint32_t)uw->v.u : 1)
             : OTF2_EvtWriter_Enter(w, al, t, id_of(k, M_REGION, e->ref));
      break;
    }
    case PT_EV_LEAVE: {
      const pt_value *cc = carrier_val(e, PT__OTF2_C_CCTX);
      x = cc ? OTF2_EvtWriter_CallingContextLeave(
                   w, al, t, ref_of(k, OTF2_TYPE_CALLING_CONTEXT, cc->v.u))
             : OTF2_EvtWriter_Leave(w, al, t, id_of(k, M_REGION, e->ref));
      break;
    }
    case PT_EV_SEND:
      x = OTF2_EvtWriter_MpiSend(w, al, t,
                                 local_rank(k, e->comm, e->peer),
                                 comm_ref(k, e->comm), tag32(e->tag), e->size);
      break;
    case PT_EV_RECV:
      x = OTF2_EvtWriter_MpiRecv(w, al, t,
                                 local_rank(k, e->comm, e->peer),
                                 comm_ref(k, e->comm), tag32(e->tag), e->size);
      break;
    case PT_EV_ISEND:
      x = OTF2_EvtWriter_MpiIsend(
          w, al, t, local_rank(k, e->comm, e->peer),
          comm_ref(k, e->comm), tag32(e->tag), e->size, e->request);
      break;
    case PT_EV_IRECV:
      x = OTF2_EvtWriter_MpiIrecv(
          w, al, t, local_rank(k, e->comm, e->peer),
          comm_ref(k, e->comm), tag32(e->tag), e->size, e->request);
      break;
    case PT_EV_ISEND_COMPLETE:
      x = OTF2_EvtWriter_MpiIsendComplete(w, al, t, e->request);
      break;
    case PT_EV_IRECV_REQUEST:
      x = OTF2_EvtWriter_MpiIrecvRequest(w, al, t, e->request);
      break;
    case PT_EV_REQUEST_TEST:
      x = OTF2_EvtWriter_MpiRequestTest(w, al, t, e->request);
      break;
    case PT_EV_REQUEST_CANCELLED:
      x = OTF2_EvtWriter_MpiRequestCancelled(w, al, t, e->request);
      break;
    case PT_EV_COLL_BEGIN:
      x = OTF2_EvtWriter_MpiCollectiveBegin(w, al, t);
      break;
    case PT_EV_COLL_END:
      x = OTF2_EvtWriter_MpiCollectiveEnd(
          w, al, t, coll_op(e), comm_ref(k, e->comm),
          local_rank(k, e->comm, e->peer), e->size, e->size2);
      break;
    case PT_EV_PARAMETER: {
      uint32_t p = id_of(k, M_PARAM, e->ref);
      if (e->value.type == PT_TYPE_STRING)
        x = OTF2_EvtWriter_ParameterString(w, al, t, p,
                                           str_id(k, e->value.v.s));
      else if (e->value.type == PT_TYPE_INT)
        x = OTF2_EvtWriter_ParameterInt(w, al, t, p, e->value.v.i);
      else
        x = OTF2_EvtWriter_ParameterUnsignedInt(w, al, t, p,
                                                as_u64(&e->value));
      break;
    }
    case PT_EV_THREAD_FORK:
      x = OTF2_EvtWriter_ThreadFork(w, al, t, thread_par(e), (uint32_t)e->size);
      break;
    case PT_EV_THREAD_JOIN:
      x = OTF2_EvtWriter_ThreadJoin(w, al, t, thread_par(e));
      break;
    case PT_EV_THREAD_TEAM_BEGIN:
      x = OTF2_EvtWriter_ThreadTeamBegin(w, al, t, team_ref(k, e->comm));
      break;
    case PT_EV_THREAD_TEAM_END:
      x = OTF2_EvtWriter_ThreadTeamEnd(w, al, t, team_ref(k, e->comm));
      break;
    case PT_EV_THREAD_CREATE:
      x = OTF2_EvtWriter_ThreadCreate(w, al, t, team_ref(k, e->comm),
                                      e->request);
      break;
    case PT_EV_THREAD_BEGIN:
      x = OTF2_EvtWriter_ThreadBegin(w, al, t, team_ref(k, e->comm),
                                     e->request);
      break;
    case PT_EV_THREAD_WAIT:
      x = OTF2_EvtWriter_ThreadWait(w, al, t, team_ref(k, e->comm),
                                    e->request);
      break;
    case PT_EV_THREAD_END:
      x = OTF2_EvtWriter_ThreadEnd(w, al, t, team_ref(k, e->comm),
                                   e->request);
      break;
    case PT_EV_IO_BEGIN:
      x = OTF2_EvtWriter_IoOperationBegin(
          w, al, t, id_of(k, M_HANDLE, e->ref),
          (OTF2_IoOperationMode)(e->tag >= 0 && e->tag <= 2 ? e->tag : 0),
          (OTF2_IoOperationFlag)e->size2, e->size, e->request);
      break;
    case PT_EV_IO_END:
      x = OTF2_EvtWriter_IoOperationComplete(w, al, t, id_of(k, M_HANDLE, e->ref),
                                             e->size, e->request);
      break;
    case PT_EV_RMA_PUT:
      x = OTF2_EvtWriter_RmaPut(w, al, t, rma_win(k, e),
                                local_rank(k, e->comm, e->peer), e->size,
                                e->request);
      break;
    case PT_EV_RMA_GET:
      x = OTF2_EvtWriter_RmaGet(w, al, t, rma_win(k, e),
                                local_rank(k, e->comm, e->peer), e->size2,
                                e->request);
      break;
    case PT_EV_RMA_ATOMIC:
      x = OTF2_EvtWriter_RmaAtomic(w, al, t, rma_win(k, e),
                                   local_rank(k, e->comm, e->peer),
                                   (OTF2_RmaAtomicType)e->tag, e->size,
                                   e->size2, e->request);
      break;
    case PT_EV_MEASURE:
      x = OTF2_EvtWriter_MeasurementOnOff(
          w, al, t, e->tag ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF);
      break;
    case PT_EV_BUFFER_FLUSH:
      x = OTF2_EvtWriter_BufferFlush(w, al, t, e->size2);
      break;
    case PT_EV_MARK: {
      int lab = mark_label(k, e);
      const pt_value *h = carrier_val(e, PT__OTF2_C_HANDLE);
      const pt_value *m = carrier_val(e, PT__OTF2_C_MATCHING);
      uint32_t hid = h ? id_of(k, M_HANDLE, h->v.u) : OTF2_UNDEFINED_UINT32;
      uint64_t mid = m ? m->v.u : 0;
      if (lab == PT__OTF2_L_PROGRAM_BEGIN) {
        uint32_t n = 0;
        OTF2_StringRef *args = malloc((e->nattrs + 1) * sizeof *args);
        if (!args) return fail(k, PT_ENOMEM, "out of memory");
        for (uint32_t i = 0; i < e->nattrs; i++)
          if (e->attrs[i].key == PT__OTF2_CARRIER_BASE + PT__OTF2_C_ARG &&
              e->attrs[i].val.type == PT_TYPE_STRING)
            args[n++] = str_id(k, e->attrs[i].val.v.s);
        x = OTF2_EvtWriter_ProgramBegin(w, al, t, str_id(k, e->text), n, args);
        free(args);
      } else if (lab == PT__OTF2_L_PROGRAM_END) {
        const pt_value *c = carrier_val(e, PT__OTF2_C_EXIT);
        x = OTF2_EvtWriter_ProgramEnd(w, al, t, c ? as_i64(c) : 0);
      } else if (lab == PT__OTF2_L_IO_TEST) {
        x = OTF2_EvtWriter_IoOperationTest(w, al, t, hid, mid);
      } else if (lab == PT__OTF2_L_IO_ISSUED) {
        x = OTF2_EvtWriter_IoOperationIssued(w, al, t, hid, mid);
      } else if (lab == PT__OTF2_L_IO_CANCELLED) {
        x = OTF2_EvtWriter_IoOperationCancelled(w, al, t, hid, mid);
      } else if (lab >= PT__OTF2_L__COUNT) {
        x = write_generic(k, w, al, t, lab - PT__OTF2_L__COUNT, e);
      } else {
        k->skipped[e->kind]++;
        return PT_OK;
      }
      break;
    }
    default: /* USER, MESSAGE, BUFFER_OVERFLOW: no OTF2 event record */
      if (e->kind < PT_EV__COUNT) k->skipped[e->kind]++;
      return PT_OK;
  }
  if (k->failed) return PT_ENOMEM;
  if (x != OTF2_SUCCESS) {
    char what[64];
    const char *kn = pt_event_kind_name(e->kind);
    snprintf(what, sizeof what, "writing a%s %s event",
             strchr("aeiou", kn[0]) ? "n" : "", kn);
    return otf2_err(k, what, x);
  }
  l->nev++;
  k->nevents++;
  return PT_OK;
}

/* ---- snapshots ------------------------------------------------------------ */

static swriter *snap_writer(osnk *k, uint64_t loc) {
  uint64_t i;
  if (loc == PT_NONE) return NULL;
  if (pt__map_get(&k->sw_at, loc, &i)) return &k->sw[i];
  if (!k->snap_files) {
    OTF2_ErrorCode e = OTF2_Archive_OpenSnapFiles(k->ar);
    if (e != OTF2_SUCCESS) {
      otf2_err(k, "opening the snapshot files", e);
      return NULL;
    }
    k->snap_files = 1;
  }
  swriter *n = realloc(k->sw, (k->nsw + 1) * sizeof *n);
  if (!n) return NULL;
  k->sw = n;
  OTF2_SnapWriter *w = OTF2_Archive_GetSnapWriter(k->ar, loc);
  if (!w) {
    fail(k, PT_EIO, "libotf2 cannot create the snapshot writer of location "
         "%" PRIu64, loc);
    return NULL;
  }
  swriter *s = &k->sw[k->nsw];
  memset(s, 0, sizeof *s);
  s->loc = loc;
  s->w = w;
  if (pt__map_put(&k->sw_at, loc, k->nsw) < 0) return NULL;
  k->nsw++;
  return s;
}

/* A snapshot entry: written only inside an OTF2 snapshot, i.e. between the
 * SnapshotStart / SnapshotEnd marks an OTF2 source yields (other sources'
 * snapshot entries carry no record count and are counted as skipped). */
static int write_snapshot(osnk *k, const pt_snapshot *sn) {
  const pt_event *e = &sn->event;
  swriter *s = snap_writer(k, sn->location);
  if (!s) return k->failed ? PT_EIO : fail(k, PT_ENOMEM, "out of memory");
  OTF2_AttributeList *al = attrs_of(k, e, k->al);
  if (k->failed) return PT_ENOMEM;
  OTF2_SnapWriter *w = s->w;
  OTF2_TimeStamp st = sn->time, t = e->time;
  OTF2_ErrorCode x = OTF2_SUCCESS;
  int lab = e->kind == PT_EV_MARK ? mark_label(k, e) : -1;
  if (lab == PT__OTF2_L_SNAP_START) {
    const pt_value *n = carrier_val(e, PT__OTF2_C_SNAP_RECORDS);
    x = OTF2_SnapWriter_SnapshotStart(w, al, st, n ? n->v.u : 0);
    s->open = 1;
    if (pt__map_put(&k->snap_times, st == PT_NONE ? 0 : st, 1) < 0)
      return fail(k, PT_ENOMEM, "out of memory");
  } else if (!s->open) {
    k->snaps_skipped++;
    return PT_OK;
  } else if (lab == PT__OTF2_L_SNAP_END) {
    const pt_value *p = carrier_val(e, PT__OTF2_C_SNAP_POS);
    x = OTF2_SnapWriter_SnapshotEnd(w, al, st, p ? p->v.u : 0);
    s->open = 0;
  } else {
    switch (e->kind) {
      case PT_EV_ENTER:
        x = OTF2_SnapWriter_Enter(w, al, st, t, id_of(k, M_REGION, e->ref));
        break;
      case PT_EV_MEASURE:
        x = OTF2_SnapWriter_MeasurementOnOff(
            w, al, st, t, e->tag ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF);
        break;
      case PT_EV_SEND:
        x = OTF2_SnapWriter_MpiSend(w, al, st, t, local_rank(k, e->comm, e->peer),
                                    comm_ref(k, e->comm), tag32(e->tag), e->size);
        break;
      case PT_EV_ISEND:
        x = OTF2_SnapWriter_MpiIsend(w, al, st, t,
                                     local_rank(k, e->comm, e->peer),
                                     comm_ref(k, e->comm), tag32(e->tag),
                                     e->size, e->request);
        break;
      case PT_EV_ISEND_COMPLETE:
        x = OTF2_SnapWriter_MpiIsendComplete(w, al, st, t, e->request);
        break;
      case PT_EV_RECV:
        x = OTF2_SnapWriter_MpiRecv(w, al, st, t, local_rank(k, e->comm, e->peer),
                                    comm_ref(k, e->comm), tag32(e->tag), e->size);
        break;
      case PT_EV_IRECV_REQUEST:
        x = OTF2_SnapWriter_MpiIrecvRequest(w, al, st, t, e->request);
        break;
      case PT_EV_IRECV:
        x = OTF2_SnapWriter_MpiIrecv(w, al, st, t,
                                     local_rank(k, e->comm, e->peer),
                                     comm_ref(k, e->comm), tag32(e->tag),
                                     e->size, e->request);
        break;
      case PT_EV_COLL_BEGIN:
        x = OTF2_SnapWriter_MpiCollectiveBegin(w, al, st, t);
        break;
      case PT_EV_COLL_END:
        x = OTF2_SnapWriter_MpiCollectiveEnd(
            w, al, st, t, coll_op(e), comm_ref(k, e->comm),
            local_rank(k, e->comm, e->peer), e->size, e->size2);
        break;
      case PT_EV_PARAMETER: {
        uint32_t p = id_of(k, M_PARAM, e->ref);
        if (e->value.type == PT_TYPE_STRING)
          x = OTF2_SnapWriter_ParameterString(w, al, st, t, p,
                                              str_id(k, e->value.v.s));
        else if (e->value.type == PT_TYPE_INT)
          x = OTF2_SnapWriter_ParameterInt(w, al, st, t, p, e->value.v.i);
        else
          x = OTF2_SnapWriter_ParameterUnsignedInt(w, al, st, t, p,
                                                   as_u64(&e->value));
        break;
      }
      default:
        k->snaps_skipped++;
        return PT_OK;
    }
  }
  if (k->failed) return PT_ENOMEM;
  if (x != OTF2_SUCCESS) return otf2_err(k, "writing a snapshot record", x);
  return PT_OK;
}

/* ---- definitions at close ------------------------------------------------- */

#define W(call, what)                                                        \
  do {                                                                       \
    OTF2_ErrorCode e_ = (call);                                              \
    if (k->failed) return PT_EIO;                                            \
    if (e_ != OTF2_SUCCESS) return otf2_err(k, "writing " what, e_);         \
  } while (0)

/* A field of a generic definition: v as read from its KEYVAL (-1 = an
 * undefined reference or string), str the STRING field. */
static uint64_t gdval(osnk *k, OTF2_Type type, int64_t v, const char *str) {
  if (type == OTF2_TYPE_STRING)
    return v < 0 ? OTF2_UNDEFINED_STRING : str_id(k, str ? str : "");
  if (type >= OTF2_TYPE_ATTRIBUTE)
    return ref_of(k, type, v < 0 ? PT_NONE : (uint64_t)v);
  return (uint64_t)v;
}

/* The definitions kept as "otf2:def.<Name>" KEYVALs (PT__OTF2_GENERIC_DEFS),
 * in table order (a calling context after the source locations). */
static int write_generic_defs(osnk *k, OTF2_GlobalDefWriter *gw) {
#define G_DARG(i, K, T, n) , (T)gdval(k, OTF2_TYPE_##K, v[i], str)
#define G_DWRITE(N, nf, ...)                                                 \
  for (size_t i = 0; i < k->ndefs; i++) {                                    \
    const pt_def *d = &k->defs[i];                                           \
    if (d->kind != PT_DEF_KEYVAL || !d->name || !d->s1 ||                    \
        strcmp(d->name, "otf2:def." #N) != 0)                                \
      continue;                                                              \
    int64_t v[PT__OTF2_MAX_FIELDS] = {0};                                    \
    const char *p = d->s1;                                                   \
    for (int j = 0; j < PT__OTF2_MAX_FIELDS && *p; j++) {                    \
      char *end;                                                             \
      v[j] = strtoll(p, &end, 10);                                           \
      if (end == p) break;                                                   \
      p = end;                                                               \
    }                                                                        \
    const char *str = kv_get(k, "otf2:def." #N ".str", d->parent);           \
    (void)str;                                                               \
    W(OTF2_GlobalDefWriter_Write##N(gw, (OTF2_##N##Ref)d->parent             \
                                        PT__OTF2_EACH(G_DARG, nf,            \
                                                      __VA_ARGS__)),         \
      "a " #N " definition");                                                \
  }
  PT__OTF2_GENERIC_DEFS(G_DWRITE)
#undef G_DWRITE
#undef G_DARG
  return k->failed ? PT_ENOMEM : PT_OK;
}

/* Definitions that refer to files, handles or generic definitions: the
 * Cartesian topologies and coordinates, system tree domains, pre-created
 * handle states and the phase-1 properties. */
static int write_property(osnk *k, OTF2_GlobalDefWriter *gw,
                          const pt_def *d, int phase);
static int write_late_defs(osnk *k, OTF2_GlobalDefWriter *gw) {
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_KEYVAL || !d->name || !d->s1) continue;
    int topo = strcmp(d->name, "otf2:def.CartTopology") == 0;
    int coord = !topo && strcmp(d->name, "otf2:def.CartCoordinate") == 0;
    if (topo || coord) {
      /* "<comm|rank> <n> <value>..." */
      uint32_t vals[255];
      char *end;
      const char *p = d->s1;
      long long first = strtoll(p, &end, 10);
      if (end == p) continue;
      p = end;
      unsigned long n = strtoul(p, &end, 10);
      if (end == p || n > 255) continue;
      p = end;
      unsigned j = 0;
      for (; j < n; j++) {
        vals[j] = (uint32_t)strtoul(p, &end, 10);
        if (end == p) break;
        p = end;
      }
      if (j < n) continue;
      if (topo) {
        const char *nm = kv_get(k, "otf2:def.CartTopology.str", d->parent);
        W(OTF2_GlobalDefWriter_WriteCartTopology(
              gw, (OTF2_CartTopologyRef)d->parent,
              nm ? str_id(k, nm) : OTF2_UNDEFINED_STRING,
              ref_of(k, OTF2_TYPE_COMM,
                     first < 0 ? PT_NONE : (uint64_t)first),
              (uint8_t)n, vals),
          "a Cartesian topology");
      } else {
        W(OTF2_GlobalDefWriter_WriteCartCoordinate(
              gw, (OTF2_CartTopologyRef)d->parent, (uint32_t)first,
              (uint8_t)n, vals),
          "a Cartesian coordinate");
      }
    } else if (strcmp(d->name, "otf2:stn_domain") == 0) {
      W(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
            gw, id_of(k, M_STN, d->parent),
            (OTF2_SystemTreeDomain)strtoul(d->s1, NULL, 10)),
        "a system tree node domain");
    } else if (strcmp(d->name, "otf2:io_precreated") == 0) {
      char *end;
      unsigned long mode = strtoul(d->s1, &end, 10);
      unsigned long fl = strtoul(end, NULL, 10);
      W(OTF2_GlobalDefWriter_WriteIoPreCreatedHandleState(
            gw, id_of(k, M_HANDLE, d->parent), (OTF2_IoAccessMode)mode,
            (OTF2_IoStatusFlag)fl),
        "a pre-created I/O handle state");
    } else if (strncmp(d->name, "otf2:property.", 14) == 0) {
      int rc = write_property(k, gw, d, 1);
      if (rc < 0) return rc;
    }
  }
  return k->failed ? PT_ENOMEM : PT_OK;
}

static uint64_t loc_events(const osnk *k, uint64_t loc) {
  uint64_t i;
  return loc != PT_NONE && pt__map_get(&k->lw_at, loc, &i) ? k->lw[i].nev : 0;
}

/* Owners whose properties go out with the other definitions (phase 0) or
 * after the files, handles and generic definitions they refer to (1). */
static int owner_is(const char *n, size_t len, const char *owner) {
  return strlen(owner) == len && strncmp(n, owner, len) == 0;
}
static int property_phase(const char *n, size_t len) {
  return owner_is(n, len, "io_file") || owner_is(n, len, "calling_context") ||
                 owner_is(n, len, "callpath")
             ? 1
             : 0;
}

/* A property KEYVAL "otf2:property.<owner>:<name>" = "<type> <value>" as
 * its OTF2 value. */
static int property_value(osnk *k, const pt_def *d, OTF2_Type *type,
                          OTF2_AttributeValue *v) {
  char *end;
  long t = strtol(d->s1, &end, 10);
  const char *text = *end == ' ' ? end + 1 : end;
  memset(v, 0, sizeof *v);
  pt_value pv;
  if (t == OTF2_TYPE_STRING) {
    pv = (pt_value){PT_TYPE_STRING, 0, {.s = text}};
  } else if (t == OTF2_TYPE_FLOAT || t == OTF2_TYPE_DOUBLE) {
    pv = (pt_value){PT_TYPE_DOUBLE, 0, {.d = strtod(text, NULL)}};
  } else if (t >= OTF2_TYPE_INT8 && t <= OTF2_TYPE_INT64) {
    pv = (pt_value){PT_TYPE_INT, 0, {.i = strtoll(text, NULL, 10)}};
  } else {
    pv = (pt_value){PT_TYPE_UINT, 0, {.u = strtoull(text, NULL, 10)}};
  }
  if (t >= OTF2_TYPE_UINT8 && t <= OTF2_TYPE_STRING) {
    if (value_of(k, (OTF2_Type)t, &pv, v) < 0) return PT_ENOMEM;
  } else {
    v->uint64 = pv.v.u; /* references: raw */
  }
  *type = (OTF2_Type)t;
  return PT_OK;
}

static int write_property(osnk *k, OTF2_GlobalDefWriter *gw,
                          const pt_def *d, int phase) {
  const char *n = d->name + strlen("otf2:property.");
  const char *colon = strchr(n, ':');
  if (!colon || !d->s1) return PT_OK;
  size_t olen = (size_t)(colon - n);
  if (property_phase(n, olen) != phase) return PT_OK;
  OTF2_Type type;
  OTF2_AttributeValue v;
  int rc = property_value(k, d, &type, &v);
  if (rc < 0) return rc;
  /* numbered names: paradigm properties and callpath parameters */
  uint64_t num = strtoull(colon + 1, NULL, 10);
  if (owner_is(n, olen, "paradigm")) {
    W(OTF2_GlobalDefWriter_WriteParadigmProperty(
          gw, (OTF2_Paradigm)d->parent, (OTF2_ParadigmProperty)num, type, v),
      "a paradigm property");
    return PT_OK;
  }
  if (owner_is(n, olen, "callpath")) {
    W(OTF2_GlobalDefWriter_WriteCallpathParameter(
          gw, (OTF2_CallpathRef)d->parent, id_of(k, M_PARAM, num), type, v),
      "a callpath parameter");
    return PT_OK;
  }
  if (!owner_is(n, olen, "io_file") && !owner_is(n, olen, "calling_context") &&
      !owner_is(n, olen, "system_node") &&
      !owner_is(n, olen, "location_group") && !owner_is(n, olen, "location"))
    return PT_OK; /* I/O paradigm properties go with their paradigm */
  uint32_t name = str_id(k, colon + 1);
  if (owner_is(n, olen, "io_file")) {
    W(OTF2_GlobalDefWriter_WriteIoFileProperty(
          gw, id_of(k, M_FILE, d->parent), name, type, v),
      "an I/O file property");
  } else if (owner_is(n, olen, "calling_context")) {
    W(OTF2_GlobalDefWriter_WriteCallingContextProperty(
          gw, (OTF2_CallingContextRef)d->parent, name, type, v),
      "a calling context property");
  } else if (olen == 11 && strncmp(n, "system_node", 11) == 0) {
    W(OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(
          gw, id_of(k, M_STN, d->parent), name, (OTF2_Type)type, v),
      "a system tree node property");
  } else if (olen == 14 && strncmp(n, "location_group", 14) == 0) {
    W(OTF2_GlobalDefWriter_WriteLocationGroupProperty(
          gw, id_of(k, M_LG, d->parent), name, (OTF2_Type)type, v),
      "a location group property");
  } else if (olen == 8 && strncmp(n, "location", 8) == 0) {
    W(OTF2_GlobalDefWriter_WriteLocationProperty(gw, d->parent, name,
                                                 (OTF2_Type)type, v),
      "a location property");
  }
  return PT_OK;
}

static int write_defs(osnk *k, OTF2_GlobalDefWriter *gw) {
  /* the strings events used; later ones go out as they are interned */
  for (size_t i = 0; i < k->nstrs; i++)
    W(OTF2_GlobalDefWriter_WriteString(gw, (OTF2_StringRef)i, k->strs[i]),
      "a string");
  k->gw = gw;
  /* clock */
  const pt_def *clk = NULL;
  for (size_t i = 0; i < k->ndefs && !clk; i++)
    if (k->defs[i].kind == PT_DEF_CLOCK) clk = &k->defs[i];
  uint64_t tps = clk && clk->i0 > 0 ? (uint64_t)clk->i0 : 1000000000;
  uint64_t off = k->tmin == UINT64_MAX ? 0 : k->tmin;
  uint64_t len = k->tmin == UINT64_MAX ? 0 : k->tmax - k->tmin;
  /* the clock's own start and length (an OTF2 source's); a clock without
   * a start (PT_NONE: the MPI recorder's CLOCK_MONOTONIC ticks) has the
   * observed span, as Score-P writes it (it was written as global offset
   * 2^64 - 1 and length 0, which Vampir takes for the trace's start) */
  if (clk && clk->parent != PT_NONE && (clk->i2 > 0 || clk->parent)) {
    off = clk->parent;
    len = (uint64_t)clk->i2;
  }
  uint64_t realtime = OTF2_UNDEFINED_TIMESTAMP;
  if (clk && clk->i1) {
    __int128 ns = (__int128)off * 1000000000 / tps;
    realtime = clk->i1 == 1 ? (uint64_t)ns : (uint64_t)(clk->i1 + (int64_t)ns);
  }
  W(OTF2_GlobalDefWriter_WriteClockProperties(gw, tps, off, len, realtime),
    "the clock properties");

  /* paradigms (from the source's KEYVALs), else MPI when used */
  int have_mpi_paradigm = 0;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_KEYVAL || !d->name ||
        strcmp(d->name, "otf2:paradigm") != 0 || !d->s1)
      continue;
    char *end;
    long cls = strtol(d->s1, &end, 10);
    if (*end == ' ') end++;
    if (d->parent == OTF2_PARADIGM_MPI) have_mpi_paradigm = 1;
    W(OTF2_GlobalDefWriter_WriteParadigm(gw, (OTF2_Paradigm)d->parent,
                                         str_id(k, end),
                                         (OTF2_ParadigmClass)cls),
      "a paradigm");
  }
  (void)have_mpi_paradigm;


  /* system tree: at least one node */
  int have_stn = 0;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_SYSTEM_NODE) {
      have_stn = 1;
      W(OTF2_GlobalDefWriter_WriteSystemTreeNode(
            gw, id_of(k, M_STN, d->id), str_id(k, d->name ? d->name : "node"),
            str_id(k, d->s1 ? d->s1 : "node"), id_of(k, M_STN, d->parent)),
        "a system tree node");
    }
  }
  uint32_t stn0 = have_stn ? 0 : id_of(k, M_STN, UINT64_MAX - 1);
  if (!have_stn)
    W(OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, stn0, str_id(k, "machine"),
                                               str_id(k, "machine"),
                                               OTF2_UNDEFINED_SYSTEM_TREE_NODE),
      "a system tree node");

  /* location groups, each followed by its locations (chained per group, in
   * definition order, so this stays linear); locations of an undefined
   * group and locations with events but no definition get a synthesised
   * group of their own */
  size_t *next = malloc((k->ndefs + 1) * sizeof *next);
  pt__map head = {0};
  if (!next) return fail(k, PT_ENOMEM, "out of memory");
  for (size_t i = k->ndefs; i-- > 0;) {
    const pt_def *l = &k->defs[i];
    uint64_t h;
    if (l->kind != PT_DEF_LOCATION || l->parent == PT_NONE) continue;
    next[i] = pt__map_get(&head, l->parent, &h) ? (size_t)h : SIZE_MAX;
    if (pt__map_put(&head, l->parent, i) < 0) {
      free(next);
      pt__map_free(&head);
      return fail(k, PT_ENOMEM, "out of memory");
    }
  }
  int rc = PT_OK;
  for (size_t i = 0; i < k->ndefs && rc == PT_OK; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_LOCATION_GROUP || d->id == PT_NONE) continue;
    char nm[48];
    snprintf(nm, sizeof nm, "Process %" PRIu64, d->id);
    uint32_t parent = d->parent == PT_NONE || !def_get(k, PT_DEF_SYSTEM_NODE,
                                                       d->parent)
                          ? stn0
                          : id_of(k, M_STN, d->parent);
    OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteLocationGroup(
        gw, id_of(k, M_LG, d->id), str_id(k, d->name ? d->name : nm),
        d->i0 == OTF2_LOCATION_GROUP_TYPE_ACCELERATOR
            ? OTF2_LOCATION_GROUP_TYPE_ACCELERATOR
            : OTF2_LOCATION_GROUP_TYPE_PROCESS,
        parent, id_of(k, M_LG, d->ref));
    if (e != OTF2_SUCCESS) rc = otf2_err(k, "writing a location group", e);
    uint64_t h;
    size_t j = pt__map_get(&head, d->id, &h) ? (size_t)h : SIZE_MAX;
    for (; j != SIZE_MAX && rc == PT_OK && !k->failed; j = next[j]) {
      const pt_def *l = &k->defs[j];
      char ln[48];
      snprintf(ln, sizeof ln, "Thread %" PRIu64, l->id);
      e = OTF2_GlobalDefWriter_WriteLocation(
          gw, l->id, str_id(k, l->name ? l->name : ln),
          l->i0 >= 1 && l->i0 <= 3 ? (OTF2_LocationType)l->i0
                                   : OTF2_LOCATION_TYPE_CPU_THREAD,
          loc_events(k, l->id), id_of(k, M_LG, d->id));
      if (e != OTF2_SUCCESS) rc = otf2_err(k, "writing a location", e);
    }
  }
  free(next);
  pt__map_free(&head);
  if (k->failed) return rc < 0 ? rc : PT_EIO;
  /* orphans */
  for (size_t i = 0; i < k->ndefs + k->nlw; i++) {
    uint64_t loc;
    const pt_def *l;
    if (i < k->ndefs) {
      l = &k->defs[i];
      if (l->kind != PT_DEF_LOCATION || l->id == PT_NONE ||
          def_get(k, PT_DEF_LOCATION_GROUP, l->parent))
        continue;
      loc = l->id;
    } else {
      loc = k->lw[i - k->ndefs].loc;
      if (def_get(k, PT_DEF_LOCATION, loc)) continue; /* done above */
      l = NULL;
    }
    char nm[48];
    snprintf(nm, sizeof nm, "Process %" PRIu64, loc);
    uint32_t g = id_of(k, M_LG, (UINT64_C(1) << 62) | loc);
    W(OTF2_GlobalDefWriter_WriteLocationGroup(
          gw, g, str_id(k, nm), OTF2_LOCATION_GROUP_TYPE_PROCESS, stn0,
          OTF2_UNDEFINED_LOCATION_GROUP),
      "a location group");
    snprintf(nm, sizeof nm, "Thread %" PRIu64, loc);
    W(OTF2_GlobalDefWriter_WriteLocation(
          gw, loc, str_id(k, l && l->name ? l->name : nm),
          OTF2_LOCATION_TYPE_CPU_THREAD, loc_events(k, loc), g),
      "a location");
  }

  /* regions in ascending id order (OTF2 readers expect it), those events
   * name without a definition among them.  CALLSITE: OTF2 3.0 deprecates
   * Callsite definitions; not written (the "callsite" attribute carries the
   * site as a string, callsite_text) */
  size_t nid;
  const uint64_t *by_id = ids_by_otf2(k, M_REGION, &nid);
  if (!by_id) return fail(k, PT_ENOMEM, "out of memory");
  for (size_t v = 0; v < nid; v++) {
    if (by_id[v] == UINT64_MAX) continue;
    const pt_def *d = def_get(k, PT_DEF_REGION, by_id[v]);
    char nm[48];
    snprintf(nm, sizeof nm, "region %" PRIu64, by_id[v]);
    if (!d) {
      W(OTF2_GlobalDefWriter_WriteRegion(
            gw, (uint32_t)v, str_id(k, nm), str_id(k, nm), str_id(k, ""),
            OTF2_REGION_ROLE_UNKNOWN, OTF2_PARADIGM_UNKNOWN,
            OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0),
        "a region");
      continue;
    }
    const char *name = d->name ? d->name : nm;
    W(OTF2_GlobalDefWriter_WriteRegion(
          gw, (uint32_t)v, str_id(k, name), str_id(k, d->s1 ? d->s1 : name),
          str_id(k, d->s2),
          (OTF2_RegionRole)kv_int(k, "otf2:region.role", d->id,
                                  pt__otf2_role_from_model((int)d->i0)),
          (OTF2_Paradigm)kv_int(k, "otf2:region.paradigm", d->id,
                                pt__otf2_paradigm_from_model((int)d->i1)),
          (OTF2_RegionFlag)kv_int(k, "otf2:region.flags", d->id, 0),
          d->s3 ? str_id(k, d->s3) : OTF2_UNDEFINED_STRING,
          (uint32_t)d->i2, (uint32_t)d->i3),
      "a region");
  }

  /* groups (ascending ids: the source's, then synthesised ones) and
   * communicators */
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_GROUP || d->i0 == PT_GROUP_METRICS) continue;
    OTF2_GroupType gt = d->i0 <= PT_GROUP_COMM_SELF ? (OTF2_GroupType)d->i0
                        : d->i0 == PT_GROUP_PROCESSES ? OTF2_GROUP_TYPE_LOCATIONS
                                                      : OTF2_GROUP_TYPE_UNKNOWN;
    uint64_t *m = NULL;
    if (gt == OTF2_GROUP_TYPE_REGIONS && d->nmembers) {
      m = malloc(d->nmembers * sizeof *m);
      if (!m) return fail(k, PT_ENOMEM, "out of memory");
      for (uint64_t j = 0; j < d->nmembers; j++)
        m[j] = id_of(k, M_REGION, d->members[j]);
    }
    OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteGroup(
          gw, id_of(k, M_GROUP, d->id), str_id(k, d->name), gt,
          (OTF2_Paradigm)kv_int(k, "otf2:group.paradigm", d->id,
                                pt__otf2_paradigm_from_model((int)d->i1)),
          (OTF2_GroupFlag)d->i2, (uint32_t)d->nmembers,
          m ? m : d->members);
    free(m);
    if (e != OTF2_SUCCESS) return otf2_err(k, "writing a group", e);
  }
  if (k->cl_group == PT_NONE && (k->need_world || k->need_idgroup)) {
    W(OTF2_GlobalDefWriter_WriteGroup(gw, k->cl_otf2, str_id(k, ""),
                                      OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                      (uint32_t)k->ncl, k->cl),
      "a group");
  }
  if (k->need_idgroup) {
    uint64_t *ids = malloc((k->ncl + 1) * sizeof *ids);
    if (!ids) return fail(k, PT_ENOMEM, "out of memory");
    for (size_t i = 0; i < k->ncl; i++) ids[i] = i;
    OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteGroup(
          gw, k->id_group, str_id(k, ""), OTF2_GROUP_TYPE_COMM_GROUP,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)k->ncl, ids);
    free(ids);
    if (e != OTF2_SUCCESS) return otf2_err(k, "writing a group", e);
  }
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_COMM) continue;
    uint32_t gid = own_group(k, d) ? id_of(k, M_GROUP, d->ref) : k->id_group;
    const char *inter = kv_get(k, "otf2:intercomm", d->id);
    if (inter) {
      long long b = strtoll(inter, NULL, 10);
      W(OTF2_GlobalDefWriter_WriteInterComm(
            gw, id_of(k, M_COMM, d->id), str_id(k, d->name), gid,
            id_of(k, M_GROUP, b < 0 ? PT_NONE : (uint64_t)b),
            id_of(k, M_COMM, d->parent), (OTF2_CommFlag)d->i1),
        "an inter-communicator");
      continue;
    }
    W(OTF2_GlobalDefWriter_WriteComm(gw, id_of(k, M_COMM, d->id),
                                     str_id(k, d->name), gid,
                                     id_of(k, M_COMM, d->parent),
                                     (OTF2_CommFlag)d->i1),
      "a communicator");
  }

  if (k->need_world)
    W(OTF2_GlobalDefWriter_WriteComm(gw, k->world_comm,
                                     str_id(k, "MPI_COMM_WORLD"), k->id_group,
                                     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
      "a communicator");

  /* metrics: members, classes and instances, recorders.  Each kind in
   * ascending id order (OTF2 readers expect ids 0, 1, 2... in order); ids
   * were handed out as definitions and samples came.  First the ids of
   * members only a class names. */
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_GROUP || d->i0 != PT_GROUP_METRICS ||
        kv_get(k, "otf2:metric_instance", d->id))
      continue;
    for (size_t j = 0; j < d->nmembers && j < 255; j++)
      id_of(k, M_MEMBER, d->members[j]);
  }
  by_id = ids_by_otf2(k, M_MEMBER, &nid);
  if (!by_id) return fail(k, PT_ENOMEM, "out of memory");
  for (size_t v = 0; v < nid; v++) {
    uint64_t m = by_id[v];
    if (m == UINT64_MAX) continue;
    const pt_def *d = def_get(k, PT_DEF_METRIC, m);
    if (!d) { /* used by samples or classes, not defined */
      char nm[48];
      snprintf(nm, sizeof nm, "metric %" PRIu64, m);
      W(OTF2_GlobalDefWriter_WriteMetricMember(
            gw, (OTF2_MetricMemberRef)v, str_id(k, nm), str_id(k, ""),
            OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
            OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, str_id(k, "")),
        "a metric member");
      continue;
    }
    W(OTF2_GlobalDefWriter_WriteMetricMember(
          gw, (OTF2_MetricMemberRef)v, str_id(k, d->name), str_id(k, d->s2),
          (OTF2_MetricType)kv_int(k, "otf2:metric.type", d->id,
                                  OTF2_METRIC_TYPE_OTHER),
          (OTF2_MetricMode)kv_int(k, "otf2:metric.mode", d->id,
                                  pt__otf2_mode_from_model((int)d->i1)),
          metric_vtype(k, d->id),
          d->i2 == 2 ? OTF2_BASE_BINARY : OTF2_BASE_DECIMAL, d->i3,
          str_id(k, d->s1 ? d->s1 : "")),
      "a metric member");
  }
  /* classes and instances share one id space: a METRICS group is either,
   * a key with bit 63 a single-member class of untagged samples */
  by_id = ids_by_otf2(k, M_METRIC, &nid);
  if (!by_id) return fail(k, PT_ENOMEM, "out of memory");
  for (size_t v = 0; v < nid; v++) {
    uint64_t g = by_id[v];
    if (g == UINT64_MAX) continue;
    if (g >> 63) {
      OTF2_MetricMemberRef mm = id_of(k, M_MEMBER, g & ~(UINT64_C(1) << 63));
      W(OTF2_GlobalDefWriter_WriteMetricClass(
            gw, (OTF2_MetricRef)v, 1, &mm, OTF2_METRIC_ASYNCHRONOUS,
            OTF2_RECORDER_KIND_ABSTRACT),
        "a metric class");
      continue;
    }
    const pt_def *d = def_get(k, PT_DEF_GROUP, g);
    if (!d || d->i0 != PT_GROUP_METRICS) continue;
    const char *inst = kv_get(k, "otf2:metric_instance", d->id);
    if (inst) {
      unsigned long long cls = 0, rec = 0, scope = 0;
      int st = 0;
      if (sscanf(inst, "%llu %llu %d %llu", &cls, &rec, &st, &scope) != 4)
        continue;
      uint64_t sc = scope;
      if (st == OTF2_SCOPE_SYSTEM_TREE_NODE) sc = id_of(k, M_STN, scope);
      else if (st == OTF2_SCOPE_LOCATION_GROUP) sc = id_of(k, M_LG, scope);
      else if (st == OTF2_SCOPE_GROUP) sc = id_of(k, M_GROUP, scope);
      W(OTF2_GlobalDefWriter_WriteMetricInstance(
            gw, (OTF2_MetricRef)v,
            id_of(k, M_METRIC, PT__OTF2_METRIC_GROUP(cls)), rec,
            (OTF2_MetricScope)st, sc),
        "a metric instance");
      continue;
    }
    int occ = OTF2_METRIC_SYNCHRONOUS_STRICT, kind = OTF2_RECORDER_KIND_CPU;
    const char *c = kv_get(k, "otf2:metric_class", d->id);
    if (c) sscanf(c, "%d %d", &occ, &kind);
    OTF2_MetricMemberRef mm[256];
    uint32_t n = d->nmembers > 255 ? 255 : (uint32_t)d->nmembers;
    for (uint32_t j = 0; j < n; j++) mm[j] = id_of(k, M_MEMBER, d->members[j]);
    W(OTF2_GlobalDefWriter_WriteMetricClass(
          gw, (OTF2_MetricRef)v, (uint8_t)n, mm, (OTF2_MetricOccurrence)occ,
          (OTF2_RecorderKind)kind),
      "a metric class");
  }
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_KEYVAL && d->name && d->s1 &&
        strcmp(d->name, "otf2:metric_class_recorder") == 0)
      W(OTF2_GlobalDefWriter_WriteMetricClassRecorder(
            gw, id_of(k, M_METRIC, d->parent), strtoull(d->s1, NULL, 10)),
        "a metric class recorder");
  }

  /* attributes, parameters, files, handles */
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_ATTRIBUTE && !is_carrier(d->name)) {
      OTF2_Type t = attr_type(k, d->id, (uint32_t)d->i0);
      uint32_t desc = str_id(k, d->s1);
      if (d->i0 == PT_TYPE_INTS && t == OTF2_TYPE_STRING) {
        /* marked, so that the source reads the values back as INTS */
        const char *s1 = d->s1 ? d->s1 : "";
        size_t n = strlen(s1) + sizeof PT__OTF2_INTS_DESC + 1;
        char *m = pt__arena_alloc(&k->mem, n);
        if (!m) return fail(k, PT_ENOMEM, "out of memory");
        snprintf(m, n, "%s%s%s", s1, *s1 ? " " : "", PT__OTF2_INTS_DESC);
        desc = str_id(k, m);
      }
      W(OTF2_GlobalDefWriter_WriteAttribute(gw, id_of(k, M_ATTR, d->id),
                                            str_id(k, d->name), desc, t),
        "an attribute");
    } else if (d->kind == PT_DEF_PARAMETER) {
      W(OTF2_GlobalDefWriter_WriteParameter(
            gw, id_of(k, M_PARAM, d->id), str_id(k, d->name),
            d->i0 == PT_TYPE_STRING ? OTF2_PARAMETER_TYPE_STRING
            : d->i0 == PT_TYPE_INT  ? OTF2_PARAMETER_TYPE_INT64
                                    : OTF2_PARAMETER_TYPE_UINT64),
        "a parameter");
    } else if (d->kind == PT_DEF_KEYVAL && d->name &&
               strncmp(d->name, "otf2:property.", 14) == 0) {
      rc = write_property(k, gw, d, 0);
      if (rc < 0) return rc;
    }
  }
  /* the repeated attributes: their ids follow those of the defined ones */
  for (size_t i = 0; i < k->nreps; i++) {
    const struct rep_attr *r = &k->reps[i];
    const pt_def *d = def_get(k, PT_DEF_ATTRIBUTE, r->key);
    char base[64], nm[512], desc[600];
    snprintf(base, sizeof base, "attribute %" PRIu64, r->key);
    const char *bn = d && d->name ? d->name : base;
    snprintf(nm, sizeof nm, "%s[%" PRIu32 "]", bn, r->rep);
    snprintf(desc, sizeof desc,
             PT__OTF2_REP_DESC_A "%" PRIu32 PT__OTF2_REP_DESC_B
             "%s" PT__OTF2_REP_DESC_C, r->rep, bn);
    W(OTF2_GlobalDefWriter_WriteAttribute(gw, r->id, str_id(k, nm),
                                          str_id(k, desc), r->type),
      "an attribute");
  }
  int io_par_written = 0;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    /* once per paradigm: the first definition (each process of a recorded
     * trace defines it) */
    if (d->kind == PT_DEF_KEYVAL && d->name && d->s1 &&
        strcmp(d->name, "otf2:io_paradigm") == 0 &&
        kv_get(k, d->name, d->parent) == d->s1) {
      int cls = 0, fl = 0, pos = 0;
      sscanf(d->s1, "%d %d %n", &cls, &fl, &pos);
      const char *nm = kv_get(k, "otf2:io_paradigm.name", d->parent);
      /* its properties: "otf2:property.io_paradigm:<property>" */
      OTF2_IoParadigmProperty props[16];
      OTF2_Type types[16];
      OTF2_AttributeValue vals[16];
      uint8_t np = 0;
      for (size_t j = 0; j < k->ndefs && np < 16; j++) {
        const pt_def *q = &k->defs[j];
        if (q->kind != PT_DEF_KEYVAL || !q->name || !q->s1 ||
            q->parent != d->parent ||
            strncmp(q->name, "otf2:property.io_paradigm:", 26) != 0)
          continue;
        rc = property_value(k, q, &types[np], &vals[np]);
        if (rc < 0) return rc;
        props[np++] =
            (OTF2_IoParadigmProperty)strtoul(q->name + 26, NULL, 10);
      }
      W(OTF2_GlobalDefWriter_WriteIoParadigm(
            gw, (OTF2_IoParadigmRef)d->parent, str_id(k, d->s1 + pos),
            str_id(k, nm ? nm : d->s1 + pos), (OTF2_IoParadigmClass)cls,
            (OTF2_IoParadigmFlag)fl, np, np ? props : NULL,
            np ? types : NULL, np ? vals : NULL),
        "an I/O paradigm");
      io_par_written = 1;
    }
  }
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_FILE) {
      uint32_t scope = d->parent == PT_NONE ? stn0 : id_of(k, M_STN, d->parent);
      if (kv_get(k, "otf2:file.directory", d->id))
        W(OTF2_GlobalDefWriter_WriteIoDirectory(
              gw, id_of(k, M_FILE, d->id), str_id(k, d->name), scope),
          "an I/O directory");
      else
        W(OTF2_GlobalDefWriter_WriteIoRegularFile(
              gw, id_of(k, M_FILE, d->id), str_id(k, d->name), scope),
          "an I/O file");
    } else if (d->kind == PT_DEF_IO_HANDLE) {
      if (!io_par_written) { /* a handle needs an I/O paradigm */
        io_par_written = 1;
        W(OTF2_GlobalDefWriter_WriteIoParadigm(
              gw, 0, str_id(k, "POSIX"), str_id(k, "POSIX I/O"),
              OTF2_IO_PARADIGM_CLASS_SERIAL, OTF2_IO_PARADIGM_FLAG_OS, 0,
              NULL, NULL, NULL),
          "an I/O paradigm");
      }
      W(OTF2_GlobalDefWriter_WriteIoHandle(
            gw, id_of(k, M_HANDLE, d->id), str_id(k, d->name),
            id_of(k, M_FILE, d->ref),
            kv_get(k, "otf2:io_paradigm", (uint64_t)d->i0) ? (uint32_t)d->i0
                                                            : 0,
            (OTF2_IoHandleFlag)d->i1, id_of(k, M_COMM, d->ref2),
            id_of(k, M_HANDLE, d->parent)),
        "an I/O handle");
    }
  }
  /* I/O events whose handle has no definition but names a FILE: a source
   * without handle definitions (OTF 1.x's file operations name the file,
   * doc/otf.md) puts the file id there.  OTF2 operations name a handle, so
   * each such id gets a handle of that file; without it the handle ids,
   * numbered anew, named no file or another one when read back. */
  size_t nh;
  const uint64_t *hm = ids_by_otf2(k, M_HANDLE, &nh);
  if (!hm && k->ids[M_HANDLE].next) return fail(k, PT_ENOMEM, "out of memory");
  pt__map fdef = {0}; /* file id -> def index + 1; 0 once a handle has it */
  for (size_t i = 0; i < k->ndefs && nh; i++) {
    const pt_def *d = &k->defs[i];
    uint64_t x;
    if (d->kind == PT_DEF_FILE && !pt__map_get(&fdef, d->id, &x) &&
        pt__map_put(&fdef, d->id, i + 1) == PT_ENOMEM) {
      pt__map_free(&fdef);
      return fail(k, PT_ENOMEM, "out of memory");
    }
  }
  for (size_t i = 0; i < k->ndefs && nh; i++)
    if (k->defs[i].kind == PT_DEF_IO_HANDLE &&
        pt__map_put(&fdef, k->defs[i].id, 0) == PT_ENOMEM) {
      pt__map_free(&fdef);
      return fail(k, PT_ENOMEM, "out of memory");
    }
  for (size_t v = 0; v < nh; v++) {
    uint64_t mid = hm[v], fi;
    if (mid == UINT64_MAX || !pt__map_get(&fdef, mid, &fi) || !fi) continue;
    const pt_def *file = &k->defs[fi - 1];
    OTF2_ErrorCode e = OTF2_SUCCESS;
    if (!io_par_written) {
      io_par_written = 1;
      e = OTF2_GlobalDefWriter_WriteIoParadigm(
          gw, 0, str_id(k, "POSIX"), str_id(k, "POSIX I/O"),
          OTF2_IO_PARADIGM_CLASS_SERIAL, OTF2_IO_PARADIGM_FLAG_OS, 0, NULL,
          NULL, NULL);
    }
    if (e == OTF2_SUCCESS && !k->failed)
      e = OTF2_GlobalDefWriter_WriteIoHandle(
          gw, (uint32_t)v, str_id(k, file->name), id_of(k, M_FILE, mid), 0,
          OTF2_IO_HANDLE_FLAG_NONE, OTF2_UNDEFINED_COMM,
          OTF2_UNDEFINED_IO_HANDLE);
    if (k->failed || e != OTF2_SUCCESS) {
      pt__map_free(&fdef);
      if (k->failed) return PT_EIO;
      return otf2_err(k, "writing an I/O handle of a file", e);
    }
  }
  pt__map_free(&fdef);
  rc = write_generic_defs(k, gw);
  if (rc < 0) return rc;
  for (size_t i = 0; i < k->nswins; i++)
    W(OTF2_GlobalDefWriter_WriteRmaWin(gw, k->swins[i].id, k->swins[i].name,
                                       k->swins[i].ocomm,
                                       OTF2_RMA_WIN_FLAG_NONE),
      "an RmaWin definition");
  return write_late_defs(k, gw);
}

/* Per-location definition files: clock offsets (and an empty file for every
 * other location, as Score-P writes them). */
static int write_local_defs(osnk *k) {
  CHECK(OTF2_Archive_OpenDefFiles(k->ar), "opening the local definition files");
  size_t nsync = 0;
  for (size_t j = 0; j < k->ndefs; j++) nsync += k->defs[j].kind == PT_DEF_CLOCK_SYNC;
  for (size_t i = 0; i < k->nlw; i++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(k->ar, k->lw[i].loc);
    if (!dw) return fail(k, PT_EIO, "libotf2 cannot create a definition writer");
    for (size_t j = 0; nsync && j < k->ndefs; j++) {
      const pt_def *d = &k->defs[j];
      if (d->kind != PT_DEF_CLOCK_SYNC || d->ref != k->lw[i].loc) continue;
      OTF2_ErrorCode e = OTF2_DefWriter_WriteClockOffset(
          dw, (OTF2_TimeStamp)d->i0, d->i1, d->d0);
      if (e != OTF2_SUCCESS) return otf2_err(k, "writing a clock offset", e);
    }
    CHECK_CLOSE(OTF2_Archive_CloseDefWriter(k->ar, dw),
                "closing a definition writer");
  }
  CHECK_CLOSE(OTF2_Archive_CloseDefFiles(k->ar), "closing the definition files");
  return PT_OK;
}

/* ---- sink interface ------------------------------------------------------- */

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l,
                                void *cb, bool final) {
  (void)ft, (void)l, (void)cb, (void)final;
  const osnk *k = u;
  return k->no_flush ? OTF2_NO_FLUSH : OTF2_FLUSH;
}
static const OTF2_FlushCallbacks flush_cbs = {pre_flush, NULL};

/* libotf2 keeps every chunk of an event buffer in memory until the writer
 * is closed unless its allocator refuses one: then it writes the buffer
 * out (pre_flush says yes), frees its chunks through free_all and asks
 * again.  Without these callbacks a conversion held the whole output in
 * memory (50 M events to OTF2: 620 MB).  Each location's event buffer gets
 * at most OTF2_CHUNKS_PER_BUFFER chunks; other buffers (definitions) grow
 * as libotf2 wants. */
#define OTF2_CHUNKS_PER_BUFFER 4
typedef struct chunk_list {
  size_t n, cap;
  void **c;
} chunk_list;

static void *chunk_alloc(void *u, OTF2_FileType ft, OTF2_LocationRef l,
                         void **per, uint64_t size) {
  (void)u, (void)l;
  chunk_list *cl = *per;
  if (!cl) {
    if (!(cl = calloc(1, sizeof *cl))) return NULL;
    *per = cl;
  }
  /* refused: libotf2 flushes this buffer and frees its chunks.  Event
   * buffers after a few chunks; the others (snapshots, definitions) at
   * 128 MiB, the bound libotf2's own allocator keeps for every buffer */
  if (ft == OTF2_FILETYPE_EVENTS ? cl->n >= OTF2_CHUNKS_PER_BUFFER
                                 : (uint64_t)cl->n * size >= (UINT64_C(128) << 20))
    return NULL;
  if (PT_GROW(cl->c, cl->cap, cl->n + 1, 8)) return NULL;
  void *m = malloc((size_t)size);
  if (m) cl->c[cl->n++] = m;
  return m;
}

static void chunk_free_all(void *u, OTF2_FileType ft, OTF2_LocationRef l,
                           void **per, bool final) {
  (void)u, (void)ft, (void)l;
  chunk_list *cl = *per;
  if (!cl) return;
  for (size_t i = 0; i < cl->n; i++) free(cl->c[i]);
  cl->n = 0;
  if (final) {
    free(cl->c);
    free(cl);
    *per = NULL;
  }
}
static const OTF2_MemoryCallbacks memory_cbs = {chunk_alloc, chunk_free_all};

static void sink_free(osnk *k) {
  if (!k) return;
  for (size_t i = 0; i < k->nlw; i++)
    if (k->lw[i].pm) {
      OTF2_AttributeList_Delete(k->lw[i].pm->al);
      free(k->lw[i].pm);
    }
  if (k->al) OTF2_AttributeList_Delete(k->al);
  for (size_t i = 0; i < k->nci; i++) {
    if (k->ci[i].inv) pt__map_free(k->ci[i].inv);
    free(k->ci[i].inv);
    if (k->ci[i].inv_b) pt__map_free(k->ci[i].inv_b);
    free(k->ci[i].inv_b);
  }
  free(k->ci);
  pt__map_free(&k->ci_at);
  for (int i = 0; i < M__COUNT; i++) pt__map_free(&k->ids[i].m);
  for (int i = 0; i < PT_DEF__COUNT; i++) pt__map_free(&k->def_at[i]);
  pt__map_free(&k->kv);
  pt__map_free(&k->strmap);
  pt__map_free(&k->lw_at);
  pt__map_free(&k->sw_at);
  pt__map_free(&k->snap_times);
  free(k->sw);
  free(k->swins);
  free(k->cl);
  pt__map_free(&k->loc_index);
  free(k->loc_order);
  free(k->strs);
  free(k->reps);
  free(k->defs);
  free(k->by_id);
  free(k->lw);
  pt__arena_free(&k->mem);
  free(k->path);
  free(k);
}

int pt__otf2_sink_open(void **st, const char *path, const pt_sink_opts *o,
                       pt_error *err) {
  *st = NULL;
  osnk *k = calloc(1, sizeof *k);
  if (!k || !(k->path = strdup(path))) {
    free(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  k->tmin = UINT64_MAX;
  if (o) {
    k->warn = o->warn;
    k->warn_user = o->warn_user;
  }
  /* PATH = DIR/NAME.otf2: archive DIR, name NAME */
  char *dir = strdup(path);
  if (!dir) {
    sink_free(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  char *slash = strrchr(dir, '/');
  const char *base = slash ? slash + 1 : dir;
  if (slash == dir) dir[1] = 0, base = path + 1;
  else if (slash) *slash = 0;
  char *name = strdup(base);
  size_t nl = name ? strlen(name) : 0;
  if (name && nl > 5 && strcmp(name + nl - 5, ".otf2") == 0) name[nl - 5] = 0;
  if (!name || !*name) {
    free(dir);
    free(name);
    sink_free(k);
    return pt__err(err, PT_EINVAL, "%s: no archive name", path);
  }
  /* The smallest chunks libotf2 allows (256 KiB): a reader holds one event
   * chunk per location and the writer clears a definition chunk per
   * location, so chunk size x locations is what both cost. */
  pt__otf2_capture();
  k->ar = OTF2_Archive_Open(slash ? dir : ".", name, OTF2_FILEMODE_WRITE,
                            OTF2_CHUNK_SIZE_MIN, OTF2_CHUNK_SIZE_MIN,
                            OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  free(dir);
  free(name);
  if (!k->ar) {
    sink_free(k);
    return pt__err(err, PT_EIO, "%s: libotf2 cannot create the archive",
                   path);
  }
  OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(k->ar, &flush_cbs, k);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_SetMemoryCallbacks(k->ar, &memory_cbs, NULL);
  if (e == OTF2_SUCCESS) e = OTF2_Archive_SetSerialCollectiveCallbacks(k->ar);
  if (e == OTF2_SUCCESS) e = OTF2_Archive_OpenEvtFiles(k->ar);
  k->al = e == OTF2_SUCCESS ? OTF2_AttributeList_New() : NULL;
  if (e != OTF2_SUCCESS || !k->al) {
    int rc = pt__err(err, PT_EIO, "%s: libotf2 cannot set up the archive: %s",
                     path, e != OTF2_SUCCESS ? pt__otf2_errname(e)
                                             : "out of memory");
    OTF2_Archive_Close(k->ar);
    k->ar = NULL;
    sink_free(k);
    return rc;
  }
  /* reserved ids of synthesised definitions */
  k->world_comm = OTF2_UNDEFINED_COMM;
  *st = k;
  return PT_OK;
}

int pt__otf2_sink_write(void *st, const pt_item *it) {
  osnk *k = st;
  if (k->failed) return PT_ESTATE;
  if (it->type == PT_ITEM_DEF) return def_store(k, &it->u.def);
  if (it->type == PT_ITEM_EVENT) return write_event(k, &it->u.event);
  if (it->type == PT_ITEM_SNAPSHOT) {
    if (!k->frozen) {
      int rc = freeze(k);
      if (rc < 0) return rc;
    }
    return write_snapshot(k, &it->u.snapshot);
  }
  return PT_OK; /* summaries, stream map: nothing in OTF2 */
}

const char *pt__otf2_sink_errmsg(void *st) { return ((osnk *)st)->err; }

/* Anchor: machine, creator, description and properties from the source's
 * "otf2:archive.*" KEYVALs; other global KEYVALs (DUMPI host, user...)
 * become properties PARATRACE::<NAME> (OTF2 allows [A-Z0-9_] names). */
static int anchor_meta(osnk *k) {
  int have_creator = 0;
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind != PT_DEF_KEYVAL || !d->name || !d->s1) continue;
    OTF2_ErrorCode e = OTF2_SUCCESS;
    if (strcmp(d->name, "otf2:archive.machine") == 0) {
      e = OTF2_Archive_SetMachineName(k->ar, d->s1);
    } else if (strcmp(d->name, "otf2:archive.creator") == 0) {
      e = OTF2_Archive_SetCreator(k->ar, d->s1);
      have_creator = 1;
    } else if (strcmp(d->name, "otf2:archive.description") == 0) {
      e = OTF2_Archive_SetDescription(k->ar, d->s1);
    } else if (strncmp(d->name, "otf2:archive.property:", 22) == 0) {
      e = OTF2_Archive_SetProperty(k->ar, d->name + 22, d->s1, true);
    } else if (!is_carrier(d->name) && d->parent == PT_NONE) {
      char name[160] = "PARATRACE::";
      size_t n = strlen(name);
      for (const char *p = d->name; *p && n + 1 < sizeof name; p++) {
        char c = *p;
        if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        name[n++] = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
      }
      name[n] = 0;
      e = OTF2_Archive_SetProperty(k->ar, name, d->s1, true);
    }
    if (e != OTF2_SUCCESS) return otf2_err(k, "setting anchor metadata", e);
  }
  if (!have_creator) CHECK(OTF2_Archive_SetCreator(k->ar, "paratrace"),
                           "setting the creator");
  return PT_OK;
}

/* A warning naming the output by its file name, "NAME: message" (cut to
 * 199 bytes). */
static void warn_out(osnk *k, const char *fmt, ...) PT_PRINTF(2, 3);
static void warn_out(osnk *k, const char *fmt, ...) {
  const char *base = strrchr(k->path, '/');
  char m[200];
  int l = snprintf(m, sizeof m, "%s: ", base ? base + 1 : k->path);
  if (l >= 0 && (size_t)l < sizeof m) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m + l, sizeof m - (size_t)l, fmt, ap);
    va_end(ap);
  }
  k->warn(k->warn_user, m);
}

static int lib_silent(osnk *k, const char *what);

static int finish(osnk *k) {
  pt__otf2_capture();
  int rc = build_world(k);
  if (rc < 0) return rc;
  for (size_t i = 0; i < k->nlw && rc == PT_OK; i++) rc = pm_flush(k, &k->lw[i]);
  if (rc < 0) return rc;
  /* communicators over COMM_LOCATIONS or of unknown membership use the
   * identity COMM_GROUP over the COMM_LOCATIONS group */
  for (size_t i = 0; i < k->ndefs; i++)
    if (k->defs[i].kind == PT_DEF_COMM && !own_group(k, &k->defs[i]))
      k->need_idgroup = 1;
  if (k->cl_group == PT_NONE && (k->need_world || k->need_idgroup))
    k->cl_otf2 = id_of(k, M_GROUP, UINT64_MAX - 10);
  if (k->need_idgroup) k->id_group = id_of(k, M_GROUP, UINT64_MAX - 4);
  /* every location defined gets its event file, even without events
   * (an idle thread): readers open the .evt of each location */
  for (size_t i = 0; i < k->ndefs; i++) {
    const pt_def *d = &k->defs[i];
    if (d->kind == PT_DEF_LOCATION && d->id != PT_NONE && !writer_for(k, d->id))
      return k->failed ? PT_EIO : fail(k, PT_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < k->nlw; i++) {
    OTF2_ErrorCode e = OTF2_Archive_CloseEvtWriter(k->ar, k->lw[i].w);
    k->lw[i].w = NULL;
    if (e != OTF2_SUCCESS)
      return otf2_close_err(k, "closing an event writer", e);
  }
  CHECK_CLOSE(OTF2_Archive_CloseEvtFiles(k->ar), "closing the event files");
  if ((rc = lib_silent(k, "closing the event files")) < 0) return rc;
  if (k->snap_files) {
    for (size_t i = 0; i < k->nsw; i++) {
      OTF2_ErrorCode e = OTF2_Archive_CloseSnapWriter(k->ar, k->sw[i].w);
      k->sw[i].w = NULL;
      if (e != OTF2_SUCCESS)
        return otf2_close_err(k, "closing a snapshot writer", e);
    }
    CHECK_CLOSE(OTF2_Archive_CloseSnapFiles(k->ar), "closing the snapshot files");
    if ((rc = lib_silent(k, "closing the snapshot files")) < 0) return rc;
    CHECK(OTF2_Archive_SetNumberOfSnapshots(k->ar, (uint32_t)k->snap_times.n),
          "setting the number of snapshots");
  }
  rc = write_local_defs(k);
  if (rc == PT_OK) rc = lib_silent(k, "writing the local definitions");
  if (rc < 0) return rc;
  OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(k->ar);
  if (!gw) return fail(k, PT_EIO, "libotf2 cannot create the definition writer");
  rc = write_defs(k, gw);
  k->gw = NULL;
  if (rc < 0) return rc;
  CHECK_CLOSE(OTF2_Archive_CloseGlobalDefWriter(k->ar, gw),
        "closing the definition writer");
  rc = anchor_meta(k);
  if (rc < 0) return rc;
  OTF2_ErrorCode e = OTF2_Archive_Close(k->ar);
  k->ar = NULL;
  if (e != OTF2_SUCCESS) return otf2_close_err(k, "closing the archive", e);
  if ((rc = lib_silent(k, "closing the archive")) < 0) return rc;
  if (k->warn && k->snaps_skipped)
    warn_out(k, "%" PRIu64 " snapshot entries not written (no OTF2 "
             "snapshot record: from paratrace snapshot or summarize?); "
             "the events are all written",
             k->snaps_skipped);
  if (k->warn && k->def_conflicts)
    warn_out(k, "%" PRIu64 " definitions reuse the id of a different "
             "definition of their kind; the first was kept",
             k->def_conflicts);
  if (k->warn) {
    for (int i = 0; i < PT_EV__COUNT; i++)
      if (k->skipped[i]) {
        char m[160];
        const char *base = strrchr(k->path, '/');
        snprintf(m, sizeof m, "%s: %" PRIu64 " '%s' events have no OTF2 "
                 "record and were not written", base ? base + 1 : k->path,
                 k->skipped[i],
                 pt_event_kind_name((uint32_t)i));
        k->warn(k->warn_user, m);
      }
  }
  return PT_OK;
}

/* libotf2 reports some write errors only to its error callback: a file's
 * last buffered data that cannot be written when the file is closed
 * (otf2_file_finalize returns success).  A close call that succeeded but
 * left a message failed all the same. */
static int lib_silent(osnk *k, const char *what) {
  OTF2_ErrorCode e = pt__otf2_held_code();
  char lib[400];
  const char *l = pt__otf2_take(lib, sizeof lib);
  if (!l) return PT_OK;
  return fail(k, PT_EIO, "libotf2: %s failed: %s (%s) [libotf2: %s]", what,
              pt__otf2_errname(e), OTF2_Error_GetDescription(e), l);
}

/* Close what is still open of the archive (unless it was abandoned: see
 * lib_failed), then free the sink. */
static void sink_close_free(osnk *k) {
  if (k->lib_failed) k->ar = NULL;
  if (k->ar) {
    for (size_t i = 0; i < k->nlw; i++)
      if (k->lw[i].w) OTF2_Archive_CloseEvtWriter(k->ar, k->lw[i].w);
    for (size_t i = 0; i < k->nsw; i++)
      if (k->sw[i].w) OTF2_Archive_CloseSnapWriter(k->ar, k->sw[i].w);
    OTF2_Archive_Close(k->ar);
  }
  sink_free(k);
}

int pt__otf2_sink_close(void *st, pt_error *err) {
  osnk *k = st;
  int rc = k->failed ? PT_ESTATE : finish(k);
  if (rc < 0) pt__err(err, rc, "%s", k->err);
  sink_close_free(k);
  return rc;
}

void pt__otf2_sink_abort(void *st) {
  osnk *k = st;
  if (!k) return;
  k->no_flush = 1; /* the output is discarded: write nothing more */
  sink_close_free(k);
}
