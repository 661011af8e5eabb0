/* The MPI recorder: what each wrapped MPI call writes into the archive.
 *
 * Per call: ENTER of the region "MPI_<name>" at t0 carrying the argument
 * list as attributes (level >= 2; statuses at level 3), the semantic
 * events (send / receive with the peer as a COMM_WORLD rank, non-blocking
 * requests and their completion, collectives with root and bytes, MPI-IO
 * with bytes), LEAVE at t1.  All written after the PMPI call returned, so
 * that output arguments are known.
 *
 * Argument encodings (attribute names are the MPI standard's parameter
 * names, or SST DUMPI's where DUMPI knows the function; doc/mpi.md):
 * communicators as archive communicator ids (MPI_COMM_WORLD 2,
 * MPI_COMM_SELF 3, MPI_COMM_NULL 1, others a global id that every member
 * computes alike from the members' COMM_WORLD ranks and the order of
 * creation); datatypes and ops as SST DUMPI numbers their predefined ones
 * (MPI_INT 9, MPI_SUM 3), user ones from 100 (per rank); requests as ids
 * unique within the rank; a status as 5 integers (bytes, source,
 * cancelled, error, tag); other handles as per-rank ids; ranks, tags and
 * counts as given.  Buffers, MPI_Info objects, strings and callbacks are
 * not recorded.
 *
 * Configuration (environment; PARATRACE_CONFIG may name a file of
 * VAR=value lines read first):
 *   PARATRACE_DISABLE  comma list of functions not recorded ("MPI_Wtime,
 *                      MPI_Comm_rank", a trailing * matches a prefix)
 *   PARATRACE_DETAIL   comma list FUNCTION=LEVEL: 1 timing and semantic
 *                      events, 2 + arguments, 3 + statuses
 *   and record.h's PARATRACE_OUTPUT, BUFFER, POLICY, LEVEL, OVERWRITE. */
#include "mpirec.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/util.h"
#include "formats/dumpi.h"
#include "store/archive.h"
#include "store/block.h"
#include "paratrace/profile.h"
#include "paratrace/record.h"
#include "profile/profile_int.h"

int64_t pt__rec_offset(void); /* record.c */
int pt__rec_event_enc(uint64_t time, const uint8_t *body, size_t len);
int pt__rec_event_enc2(uint64_t t0, const uint8_t *b0, size_t n0,
                       uint64_t t1, const uint8_t *b1, size_t n1);
int pt__rec_event_call(pt__call_evs *c);

/* ---- tables (function names: formats/mpi_fn.h) ---------------------------- */

static int io_collective(uint32_t id) {
  return pt__mpi_io_collective(pt__mpi_fn_names[id]);
}
const char *const pt__mpi_kinds[PT_MPI_NFUNCS] = {
#define PT_MPI_FN(name, ret, params, args, kinds) kinds,
#include "mpi_table.h"
#undef PT_MPI_FN
};
static const char *const fn_args[PT_MPI_NFUNCS] = {
#define PT_MPI_FN(name, ret, params, args, kinds) #args,
#include "mpi_table.h"
#undef PT_MPI_FN
};

enum { EN_NONE, EN_THREAD, EN_LOCK, EN_WHENCE, EN_ORDER, EN_AMODE,
       EN_COMPARE, EN_TOPO, EN_COMBINER, EN_TYPECLASS, EN_DISTRIB,
       EN_ASSERT };

/* Which of those constants argument `name` of function `fn` holds (by the
 * MPI standard's or SST DUMPI's name; found once, at start). */
static uint8_t enum_class(const char *fn, const char *name) {
  static const struct { const char *name; uint8_t cls; } tab[] = {
      {"required", EN_THREAD}, {"provided", EN_THREAD},
      {"supported", EN_THREAD}, {"lock_type", EN_LOCK},
      {"locktype", EN_LOCK}, {"whence", EN_WHENCE}, {"order", EN_ORDER},
      {"amode", EN_AMODE}, {"result", EN_COMPARE}, {"topo", EN_TOPO},
      {"combiner", EN_COMBINER}, {"typeclass", EN_TYPECLASS},
      {"distribs", EN_DISTRIB}, {"distrib_array", EN_DISTRIB},
      {"assert", EN_ASSERT}, {"assertion", EN_ASSERT}};
  if (!name) return EN_NONE;
  if (!strcmp(fn, "MPI_Topo_test") && !strcmp(name, "status")) return EN_TOPO;
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (!strcmp(name, tab[i].name)) return tab[i].cls;
  return EN_NONE;
}

typedef struct fninfo {
  uint8_t sem, coll;
  uint8_t level;      /* per-function detail (0 = global) */
  uint8_t handles;    /* makes or frees a communicator or group ('c', 'g') */
  uint8_t nargs;
  uint8_t rare;       /* RARE_*: the per-call steps this function needs */
  int8_t flag;        /* the output argument named "flag", or -1 */
  uint8_t file_io;    /* an MPI_File_* call: its status says bytes only */
  uint8_t pstmt;      /* profile mode: a statement at its call site */
  int8_t pos[128][6]; /* position of the 1st..6th argument of each kind */
  uint8_t plural[PT_MPI_MAXARGS]; /* 'a' argument that is an array */
  int8_t lenpos[PT_MPI_MAXARGS];  /* the argument giving its length, or -1 */
  uint8_t enumk[PT_MPI_MAXARGS];  /* EN_*: a constant DUMPI numbers */
  char *names[PT_MPI_MAXARGS];
  uint64_t key[PT_MPI_MAXARGS][3]; /* attribute ids: scalar, array, string */
  uint64_t pre[PT_MPI_MAXARGS][3]; /* their key and type encoded (pre_pack) */
  uint64_t region;
  uint64_t rref; /* region as events store it (varint of region), packed */
} fninfo;

/* fninfo.rare: what pt__mpi_end and semantics() do for a few functions
 * only, found once (a bit tested per call instead of a few comparisons
 * per step): an error handler to stand in for (PT_ERRH_GET / NEW),
 * MPI_Finalize, MPI_Init(_thread), a file / window / group handle freed
 * (handle_freed), and the steps after semantics()'s switch (a message
 * handed out, a request without a semantic class, a new communicator). */
enum {
  RARE_ERRH = 1,
  RARE_FINALIZE = 2,
  RARE_INIT = 4,
  RARE_FREED = 8,
  RARE_SEMTAIL = 16
};

static fninfo g_fn[PT_MPI_NFUNCS];
static int handle_freed(int id);
uint64_t pt__mpi_region[PT_MPI_NFUNCS];
unsigned char pt__mpi_sem[PT_MPI_NFUNCS];
unsigned char pt__mpi_on[PT_MPI_NFUNCS];

static uint64_t g_calls[PT_MPI_NFUNCS];
static int g_counting; /* PARATRACE_MPI_COUNTS set */
static int g_rank, g_size, g_level = 3, g_multi, g_started, g_tracing;
static int g_profiling; /* PARATRACE_MODE=profile or both */
static int g_callsites; /* calls record their call site (PARATRACE_CALLSITES) */
static uint64_t g_callsite_key; /* attribute id + 1 */
static uint64_t callsite_key(void) {
  if (!g_callsite_key)
    g_callsite_key = pt_rec_attribute("callsite", PT_TYPE_UINT) + 1;
  return g_callsite_key - 1;
}
static MPI_Group g_world_group;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static int64_t g_offset0;
static uint64_t g_app_region; /* id + 1 while the program region is open */

#define LOCK() do { if (g_multi) pthread_mutex_lock(&g_mu); } while (0)
#define UNLOCK() do { if (g_multi) pthread_mutex_unlock(&g_mu); } while (0)

uint64_t pt__mpi_now(void) { return pt__clock_ns(); }

/* ---- handle maps (open addressing, backward-shift delete) -------------- */

typedef struct hent {
  uintptr_t key; /* 0 = empty */
  uint64_t id;
  int64_t size; /* datatypes: bytes */
  void *info;
} hent;
typedef struct hmap {
  hent *e;
  size_t cap, n;
  /* the entry last found by hfind_last (key 0: none): entries move when
   * the map changes, so hput and hdel clear it */
  uintptr_t last_k;
  hent *last_e;
} hmap;

static size_t hslot(uintptr_t k, size_t cap) {
  uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ULL;
  return (size_t)(h >> 32) & (cap - 1);
}

/* Key 0 marks an empty slot (which may still hold a moved or deleted
 * entry's info): never found nor entered.  A NULL handle reaches here
 * from an erroneous call (OpenMPI's f2c of an invalid Fortran handle). */
static hent *hfind(const hmap *m, uintptr_t k) {
  if (!m->cap || !k) return NULL;
  for (size_t i = hslot(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->e[i].key == k) return &m->e[i];
    if (!m->e[i].key) return NULL;
  }
}

static hent *hput(hmap *m, uintptr_t k) {
  if (!k) return NULL;
  m->last_k = 0;
  if ((m->n + 1) * 2 > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 64;
    hent *ne = calloc(nc, sizeof *ne);
    if (!ne) return NULL;
    for (size_t i = 0; i < m->cap; i++)
      if (m->e[i].key) {
        size_t j = hslot(m->e[i].key, nc);
        while (ne[j].key) j = (j + 1) & (nc - 1);
        ne[j] = m->e[i];
      }
    free(m->e);
    m->e = ne;
    m->cap = nc;
  }
  size_t i = hslot(k, m->cap);
  while (m->e[i].key && m->e[i].key != k) i = (i + 1) & (m->cap - 1);
  if (!m->e[i].key) {
    memset(&m->e[i], 0, sizeof m->e[i]);
    m->e[i].key = k;
    m->n++;
  }
  return &m->e[i];
}

static void hdel(hmap *m, uintptr_t k) {
  hent *e = hfind(m, k);
  if (!e) return;
  m->last_k = 0;
  size_t i = (size_t)(e - m->e), mask = m->cap - 1;
  for (size_t j = (i + 1) & mask; m->e[j].key; j = (j + 1) & mask) {
    size_t h = hslot(m->e[j].key, m->cap);
    /* move j back into the hole i when its home is not in (i, j] */
    if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
      m->e[i] = m->e[j];
      i = j;
    }
  }
  m->e[i].key = 0;
  m->n--;
}

/* ---- datatypes, ops and other handles ----------------------------------- */

static hmap g_types, g_ops, g_misc, g_ghandles;
static hmap g_msgs; /* MPI_Message of a matched probe -> its communicator */
/* MPI_File with a split collective begun: id = the operation's matching
 * id, size = the bytes it asked for, info = its pt_io_mode */
static hmap g_split;
static uint64_t g_next_split;
static uint64_t g_next_type = 100, g_next_op = 100, g_next_misc = 1;
static uint64_t g_next_ghandle = 3;

static void predefined(void) {
  /* SST DUMPI's numbers for the predefined datatypes and ops. */
  struct { MPI_Datatype t; int id; } dt[] = {
      {MPI_DATATYPE_NULL, 1}, {MPI_CHAR, 2}, {MPI_SIGNED_CHAR, 3},
      {MPI_UNSIGNED_CHAR, 4}, {MPI_BYTE, 5}, {MPI_WCHAR, 6}, {MPI_SHORT, 7},
      {MPI_UNSIGNED_SHORT, 8}, {MPI_INT, 9}, {MPI_UNSIGNED, 10},
      {MPI_LONG, 11}, {MPI_UNSIGNED_LONG, 12}, {MPI_FLOAT, 13},
      {MPI_DOUBLE, 14}, {MPI_LONG_DOUBLE, 15}, {MPI_LONG_LONG_INT, 16},
      {MPI_UNSIGNED_LONG_LONG, 17}, {MPI_PACKED, 19},
      {MPI_FLOAT_INT, 22}, {MPI_DOUBLE_INT, 23}, {MPI_LONG_INT, 24},
      {MPI_SHORT_INT, 25}, {MPI_2INT, 26}, {MPI_LONG_DOUBLE_INT, 27}};
  for (size_t i = 0; i < sizeof dt / sizeof dt[0]; i++) {
    hent *e = hput(&g_types, (uintptr_t)dt[i].t);
    if (!e) return;
    MPI_Count sz = 0;
    if (dt[i].t != MPI_DATATYPE_NULL) PMPI_Type_size_x(dt[i].t, &sz);
    e->id = (uint64_t)dt[i].id;
    e->size = sz;
  }
  struct { MPI_Op o; int id; } op[] = {
      {MPI_MAX, 1}, {MPI_MIN, 2}, {MPI_SUM, 3}, {MPI_PROD, 4}, {MPI_LAND, 5},
      {MPI_BAND, 6}, {MPI_LOR, 7}, {MPI_BOR, 8}, {MPI_LXOR, 9},
      {MPI_BXOR, 10}, {MPI_MINLOC, 11}, {MPI_MAXLOC, 12}, {MPI_REPLACE, 13},
      {MPI_OP_NULL, 14},
      /* MPI-3's, which DUMPI has no number for (only the one-sided calls
       * DUMPI lacks take it): the next number, not a user op's */
      {MPI_NO_OP, 15}};
  for (size_t i = 0; i < sizeof op / sizeof op[0]; i++) {
    hent *e = hput(&g_ops, (uintptr_t)op[i].o);
    if (e) e->id = (uint64_t)op[i].id;
  }
}

/* The name of an MPI_COMBINER_* value (NULL: not one of these): a user
 * datatype's definition names it, since its number is the MPI library's
 * own (OpenMPI's MPI_COMBINER_VECTOR is 3, SST DUMPI's CONTIGUOUS). */
static const char *combiner_name(int c) {
#define PT_COMB(n) {MPI_COMBINER_##n, "MPI_COMBINER_" #n}
  static const struct { int c; const char *name; } tab[] = {
      PT_COMB(NAMED),          PT_COMB(DUP),
      PT_COMB(CONTIGUOUS),     PT_COMB(VECTOR),
      PT_COMB(HVECTOR),        PT_COMB(INDEXED),
      PT_COMB(HINDEXED),       PT_COMB(INDEXED_BLOCK),
      PT_COMB(HINDEXED_BLOCK), PT_COMB(STRUCT),
      PT_COMB(SUBARRAY),       PT_COMB(DARRAY),
      PT_COMB(F90_REAL),       PT_COMB(F90_COMPLEX),
      PT_COMB(F90_INTEGER),    PT_COMB(RESIZED)};
#undef PT_COMB
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (tab[i].c == c) return tab[i].name;
  return NULL;
}

/* Ids of freed user datatypes whose definition was written, by what the
 * definition says (size << 32 | combiner): a new type with the same
 * definition takes one instead of a new id and definition, so a program
 * creating and freeing types in a loop defines a handful, not one per
 * creation (330k definitions for 32 ranks x 10,000 creations made every
 * reader of the archive hold 150-200 MB). */
typedef struct type_free_ent {
  uint64_t key, id;
} type_free_ent;
#define TYPE_POOL_MAX 4096 /* freed ids kept; more are not reused */
static type_free_ent *g_tpool;
static size_t g_ntpool;

/* hent.info of a user datatype whose definition was written: its key
 * (below 2^63) with bit 63 set; NULL otherwise. */
#define TYPE_DEFINED (UINT64_C(1) << 63)

static int type_reuse(uint64_t key, uint64_t *id) {
  for (size_t i = g_ntpool; i-- > 0;) /* newest first; creations only */
    if (g_tpool[i].key == key) {
      *id = g_tpool[i].id;
      g_tpool[i] = g_tpool[--g_ntpool];
      return 1;
    }
  return 0;
}

/* Type_free of handle h: its id may be taken by a new type. */
static void type_forget(uintptr_t h) {
  hent *e = hfind(&g_types, h);
  if (e && e->id >= 100 && ((uint64_t)(uintptr_t)e->info & TYPE_DEFINED)) {
    if (!g_tpool) g_tpool = malloc(TYPE_POOL_MAX * sizeof *g_tpool);
    if (g_tpool && g_ntpool < TYPE_POOL_MAX)
      g_tpool[g_ntpool++] = (type_free_ent){
          (uint64_t)(uintptr_t)e->info & ~TYPE_DEFINED, e->id};
  }
  hdel(&g_types, h);
}

/* Id and size of a datatype (user types numbered on first sight): the
 * type last asked for inline (a program sends one or two in turn, and a
 * traced send asks two or three times), the rest in type_get_slow. */
static hent *type_get_slow(MPI_Datatype t);
static inline hent *type_get(MPI_Datatype t) {
  if (PT_LIKELY(g_types.last_k == (uintptr_t)t && t)) return g_types.last_e;
  return type_get_slow(t);
}
static __attribute__((noinline)) hent *type_get_slow(MPI_Datatype t) {
  hent *e = hfind(&g_types, (uintptr_t)t);
  if (e) {
    g_types.last_k = (uintptr_t)t;
    g_types.last_e = e;
  }
  if (e || !t) return e; /* NULL: no type (not MPI_DATATYPE_NULL) */
  /* MPI_Type_size_x: a type of 2 GiB or more has no int size */
  MPI_Count sz = 0;
  if (t != MPI_DATATYPE_NULL && PMPI_Type_size_x(t, &sz) != MPI_SUCCESS)
    sz = 0;
  if (sz < 0) sz = 0; /* MPI_UNDEFINED */
  int ni = 0, na = 0, nd = 0, comb = MPI_COMBINER_NAMED;
  if (t != MPI_DATATYPE_NULL) PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
  if (!(e = hput(&g_types, (uintptr_t)t))) return NULL;
  e->size = (int64_t)sz;
  /* the reuse key holds the size in 31 bits: larger types are neither
   * reused nor kept for reuse */
  int reusable = comb != MPI_COMBINER_NAMED && sz <= INT32_MAX;
  uint64_t key = (uint64_t)(uint32_t)sz << 32 | (uint32_t)comb, id;
  if (reusable && pt_rec_enabled() && type_reuse(key, &id)) {
    e->id = id; /* its definition says the same */
    e->info = (void *)(uintptr_t)(key | TYPE_DEFINED);
    return e;
  }
  e->id = g_next_type++;
  e->info = NULL;
  /* a definition of this rank's user datatype: id, size, combiner */
  if (pt_rec_enabled()) {
    if (reusable) e->info = (void *)(uintptr_t)(key | TYPE_DEFINED);
    char name[64], val[96 + MPI_MAX_OBJECT_NAME], tn[MPI_MAX_OBJECT_NAME] = "";
    int tl = 0;
    snprintf(name, sizeof name, "mpi.datatype.%llu",
             (unsigned long long)e->id);
    /* a named type DUMPI does not number (Fortran's MPI_INTEGER, MPI-2's
     * MPI_INT64_T...): its name, as for the predefined ones */
    if (comb == MPI_COMBINER_NAMED &&
        PMPI_Type_get_name(t, tn, &tl) == MPI_SUCCESS && tn[0])
      snprintf(val, sizeof val, "%s, %lld bytes", tn, (long long)sz);
    else if (combiner_name(comb))
      snprintf(val, sizeof val, "user datatype, %lld bytes, %s",
               (long long)sz, combiner_name(comb));
    else
      snprintf(val, sizeof val, "user datatype, %lld bytes, combiner %d",
               (long long)sz, comb);
    pt_def d = {.kind = PT_DEF_KEYVAL, .id = PT_NONE,
                .parent = (uint64_t)g_rank, .name = name, .s1 = val};
    pt_rec_def(&d);
  }
  return e;
}

/* Definitions of the predefined datatypes (rank 0, once). */
static void predefined_defs(void) {
  for (size_t i = 0; i < g_types.cap; i++) {
    hent *e = &g_types.e[i];
    if (!e->key || e->id >= 100) continue;
    char name[64], val[160], tn[MPI_MAX_OBJECT_NAME] = "";
    int l = 0;
    if ((MPI_Datatype)e->key != MPI_DATATYPE_NULL)
      PMPI_Type_get_name((MPI_Datatype)e->key, tn, &l);
    snprintf(name, sizeof name, "mpi.datatype.%llu", (unsigned long long)e->id);
    snprintf(val, sizeof val, "%s, %lld bytes",
             (MPI_Datatype)e->key == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : tn,
             (long long)e->size);
    pt_def d = {.kind = PT_DEF_KEYVAL, .id = PT_NONE, .parent = PT_NONE,
                .name = name, .s1 = val};
    pt_rec_def(&d);
  }
}
static uint64_t type_size(int64_t t) {
  hent *e = type_get((MPI_Datatype)(intptr_t)t);
  return e && e->size > 0 ? (uint64_t)e->size : 0;
}
static uint64_t misc_id(hmap *m, uint64_t *next, int64_t h) {
  if (!h) return 0;
  hent *e = hfind(m, (uintptr_t)h);
  if (!e && (e = hput(m, (uintptr_t)h))) e->id = (*next)++;
  return e ? e->id : 0;
}

/* A group handle's id: SST DUMPI's numbers (MPI_GROUP_NULL 1,
 * MPI_GROUP_EMPTY 2, the rank's other groups from 3), so that a recorded
 * MPI_Comm_create written as DUMPI names the group its MPI_Group_incl
 * made (ids from 1 made the first two groups NULL and EMPTY there). */
static uint64_t group_hid(int64_t h) {
  if (h == (int64_t)(intptr_t)MPI_GROUP_NULL) return 1;
  if (h == (int64_t)(intptr_t)MPI_GROUP_EMPTY) return 2;
  return misc_id(&g_ghandles, &g_next_ghandle, h);
}

/* ---- communicators ------------------------------------------------------ */

typedef struct comm_info {
  uint64_t id;
  int rank, size, inter, rsize;
  int *world;  /* comm rank -> COMM_WORLD rank (remote group if inter) */
  /* its topology's neighbours, asked at the first neighbourhood
   * collective (nbr_known; see neighbours()): counts, and for a Cartesian
   * one (nbr_cart) the 2 * ndims neighbours */
  int nbr_known, nbr_cart, nbr_in, nbr_out;
  int *nbr;
} comm_info;

static hmap g_comms, g_comm_seq;

static uint64_t fnv(uint64_t h, const int *v, int n) {
  for (int i = 0; i < n; i++) {
    h ^= (uint64_t)(uint32_t)v[i];
    h *= 1099511628211ULL;
  }
  return h;
}

/* Groups defined so far (by id).  A group's id comes from its members,
 * so the communicators of one member list (a loop of MPI_Comm_dup and
 * MPI_Comm_free, a split per time step) share one group definition: each
 * used to bring its own, P members long, written by each of its P
 * members. */
static hmap g_groups;

static uint64_t group_id(const int *members, int n) {
  uint64_t h = pt__mix64(fnv(1469598103934665603ULL ^ 0x67, members, n));
  return (h | (UINT64_C(1) << 62)) & ~(UINT64_C(1) << 63);
}

/* The group of COMM_WORLD ranks `members` (defined on its first use);
 * those outside COMM_WORLD (spawned or connected processes, -1) are left
 * out and counted in the name.  Returns its id. */
static uint64_t def_group(const int *members, int n) {
  if (n < 0) n = 0;
  uint64_t id = group_id(members, n);
  if (hfind(&g_groups, (uintptr_t)id)) return id;
  uint64_t *m = malloc(sizeof *m * (size_t)(n ? n : 1));
  if (!m) return id;
  int k = 0;
  for (int i = 0; i < n; i++)
    if (members[i] >= 0) m[k++] = (uint64_t)members[i];
  /* the name from the members only: every process that defines the
   * group (as a communicator's or as an intercommunicator's remote one)
   * gives the same definition */
  char name[96];
  if (k < n)
    snprintf(name, sizeof name, "group %llx (%d ranks, %d outside COMM_WORLD)",
             (unsigned long long)id, n, n - k);
  else
    snprintf(name, sizeof name, "group %llx (%d ranks)",
             (unsigned long long)id, n);
  pt_def g = {.kind = PT_DEF_GROUP, .id = id, .i0 = PT_GROUP_COMM_GROUP,
              .i1 = PT_PARADIGM_MPI, .name = name, .nmembers = (uint64_t)k,
              .members = m};
  pt_rec_def(&g);
  free(m);
  hput(&g_groups, (uintptr_t)id); /* no room: defined again next time */
  return id;
}

static int min_rank(const int *v, int n) {
  int m = INT_MAX;
  for (int i = 0; i < n; i++)
    if (v[i] >= 0 && v[i] < m) m = v[i];
  return m;
}

/* While comm_made defines a new communicator: the id of the one it was
 * made from (PT_NONE otherwise) and the function that made it (NULL
 * otherwise).  Under the recorder's lock. */
static uint64_t g_comm_parent = PT_NONE;
static const char *g_comm_maker;
/* >= 0: the sequence number the next new communicator takes (one an
 * MPI_Comm_idup reserved at its call, see comm_seq_reserve) */
static int64_t g_comm_seq_forced = -1;

/* The communicator's definition, the same on every member: an
 * intracommunicator's group; for an intercommunicator (as OTF2 has it)
 * the group of the side with the lowest COMM_WORLD rank, and the other
 * side's group in KEYVAL otf2:intercomm (scope: the communicator). */
static void def_comm(const comm_info *ci, const int *local, const int *remote) {
  const int *a = local, *b = remote;
  int na = ci->size, nb = ci->inter ? ci->rsize : 0;
  if (ci->inter && min_rank(remote, nb) < min_rank(local, na)) {
    a = remote, b = local;
    na = ci->rsize, nb = ci->size;
  }
  uint64_t gid = def_group(a, na);
  /* named after the call that made it, which every member of an
   * intracommunicator made with the same function (the sides of an
   * intercommunicator may not: MPI_Comm_accept / MPI_Comm_connect) */
  char name[96];
  snprintf(name, sizeof name, "%s %llx",
           g_comm_maker && !ci->inter ? g_comm_maker : "comm",
           (unsigned long long)ci->id);
  if (ci->inter) {
    /* (an id is a KEYVAL value, a signed integer: bit 63 is clear) */
    uint64_t bid = def_group(b, nb);
    char v[32];
    snprintf(v, sizeof v, "%lld", (long long)bid);
    pt_def kv = {.kind = PT_DEF_KEYVAL, .id = PT_NONE, .parent = ci->id,
                 .name = "otf2:intercomm", .s1 = v};
    pt_rec_def(&kv);
  }
  /* the communicator it was made from (see comm_made): the same on every
   * member; none for an intercommunicator (each side made it from its
   * own) */
  uint64_t parent = !ci->inter && g_comm_parent != 1 ? g_comm_parent : PT_NONE;
  pt_def c = {.kind = PT_DEF_COMM, .id = ci->id, .parent = parent,
              .ref = gid, .i0 = PT_PARADIGM_MPI, .name = name};
  pt_rec_def(&c);
}

/* World ranks of the members of group g (n of them) into out. */
static void translate(MPI_Group g, int n, int *out) {
  int *in = calloc((size_t)(n ? n : 1), sizeof *in);
  if (!in) {
    for (int i = 0; i < n; i++) out[i] = -1;
    return;
  }
  for (int i = 0; i < n; i++) in[i] = i;
  if (PMPI_Group_translate_ranks(g, n, in, g_world_group, out) != MPI_SUCCESS)
    for (int i = 0; i < n; i++) out[i] = -1;
  /* a process outside COMM_WORLD (spawned, connected): unknown, -1 in the
   * model, not MPI_UNDEFINED */
  for (int i = 0; i < n; i++)
    if (out[i] < 0) out[i] = -1;
  free(in);
}

/* The info of communicator c; registered (and defined) on first sight. */
/* The communicator last looked up (a program uses one or two in turn):
 * no hash lookup for it.  Cleared when it is forgotten; like g_comms,
 * used under the recorder's lock. */
static int64_t g_comm_last_h;
static comm_info *g_comm_last;

static comm_info *comm_get_slow(int64_t handle);
/* (inline: the common case costs a comparison, not the prologue and
 * epilogue of the whole lookup) */
static inline comm_info *comm_get(int64_t handle) {
  if (PT_LIKELY(g_comm_last && handle == g_comm_last_h)) return g_comm_last;
  return comm_get_slow(handle);
}
static __attribute__((noinline)) comm_info *comm_get_slow(int64_t handle) {
  MPI_Comm c = (MPI_Comm)(intptr_t)handle;
  hent *e = hfind(&g_comms, (uintptr_t)handle);
  if (e) {
    g_comm_last_h = handle;
    g_comm_last = e->info;
    return e->info;
  }
  if (c == MPI_COMM_NULL || !handle) return NULL;
  comm_info *ci = calloc(1, sizeof *ci);
  if (!ci) return NULL;
  PMPI_Comm_rank(c, &ci->rank);
  PMPI_Comm_size(c, &ci->size);
  PMPI_Comm_test_inter(c, &ci->inter);
  MPI_Group lg = MPI_GROUP_NULL, rg = MPI_GROUP_NULL;
  PMPI_Comm_group(c, &lg);
  int *local = malloc(sizeof(int) * (size_t)(ci->size + 1));
  ci->rsize = ci->size;
  if (ci->inter) {
    PMPI_Comm_remote_size(c, &ci->rsize);
    PMPI_Comm_remote_group(c, &rg);
  }
  ci->world = malloc(sizeof(int) * (size_t)(ci->rsize + 1));
  if (!local || !ci->world) {
    free(local);
    free(ci->world);
    free(ci);
    return NULL;
  }
  translate(lg, ci->size, local);
  if (ci->inter) translate(rg, ci->rsize, ci->world);
  else memcpy(ci->world, local, sizeof(int) * (size_t)ci->size);
  if (c == MPI_COMM_WORLD) {
    ci->id = 2;
  } else if (c == MPI_COMM_SELF) {
    ci->id = 3;
  } else {
    /* Members' world ranks (both sides of an intercommunicator, combined
     * so that both sides agree) and how many communicators with exactly
     * these members this process saw before: the same on every member. */
    uint64_t h = pt__mix64(fnv(1469598103934665603ULL, local, ci->size));
    if (ci->inter) {
      /* the two sides in a canonical order, mixed: a plain xor of the
       * two hashes made [0]|[2] and [1]|[3] one id */
      uint64_t r = pt__mix64(fnv(1469598103934665603ULL, ci->world, ci->rsize));
      h = pt__mix64(pt__mix64(h < r ? h : r) + (h < r ? r : h));
    }
    h |= 1;
    uint64_t seq = 0;
    if (g_comm_seq_forced >= 0) {
      seq = (uint64_t)g_comm_seq_forced;
    } else {
      hent *s = hput(&g_comm_seq, (uintptr_t)h);
      seq = s ? s->id++ : 0;
    }
    ci->id = (h & ~UINT64_C(0xffff)) | (seq & 0xffff) | (UINT64_C(1) << 62);
    ci->id &= ~(UINT64_C(1) << 63);
    def_comm(ci, local, ci->world);
  }
  free(local);
  if (lg != MPI_GROUP_NULL) PMPI_Group_free(&lg);
  if (rg != MPI_GROUP_NULL) PMPI_Group_free(&rg);
  if (!(e = hput(&g_comms, (uintptr_t)handle))) {
    free(ci->world);
    free(ci);
    return NULL;
  }
  e->id = ci->id;
  e->info = ci;
  return ci;
}

static uint64_t comm_id(int64_t handle) {
  if ((MPI_Comm)(intptr_t)handle == MPI_COMM_NULL) return 1;
  comm_info *ci = comm_get(handle);
  return ci ? ci->id : PT_NONE;
}

/* Communicator h that call c made (its 'c' argument), registered (and
 * defined, on first sight) with the one it was made from as parent: the
 * call's only 'C' argument (MPI_Comm_dup's, _split's, _create's,
 * MPI_Cart_create's, MPI_Intercomm_merge's...), as OTF2 and the DUMPI
 * reader have it. */
static uint64_t comm_parent(const pt__mpi_call *c) {
  const fninfo *f = &g_fn[c->id];
  int cj = f->pos['C'][0];
  return cj >= 0 && f->pos['C'][1] < 0 ? comm_id(c->v[cj]) : PT_NONE;
}
static comm_info *comm_made_from(uint64_t parent, const char *maker,
                                  int64_t h) {
  g_comm_parent = parent;
  g_comm_maker = maker;
  comm_info *ci = comm_get(h);
  g_comm_parent = PT_NONE;
  g_comm_maker = NULL;
  return ci;
}
static comm_info *comm_made(const pt__mpi_call *c, int64_t h) {
  return comm_made_from(comm_parent(c), pt__mpi_fn_names[c->id], h);
}
/* The sequence number of the communicator an MPI_Comm_idup of the
 * intracommunicator `parent` (a handle) makes, taken at the call: the
 * idups come in the same order on every member, their completions need
 * not (-1: none reserved; an intercommunicator's is taken when it
 * completes).  The duplicate has the parent's members, so the same
 * hash as comm_get's. */
static int64_t comm_seq_reserve(int64_t parent) {
  comm_info *ci = comm_get(parent);
  if (!ci || ci->inter) return -1;
  uint64_t h = pt__mix64(fnv(1469598103934665603ULL, ci->world, ci->size));
  hent *s = hput(&g_comm_seq, (uintptr_t)(h | 1));
  return s ? (int64_t)(s->id++ & 0xffff) : -1;
}

void pt__mpi_before_free(const pt__mpi_call *c) {
  int64_t h = 0;
  memcpy(&h, &c->reqs_inline[0], sizeof(void *));
  LOCK();
  if (g_fn[c->id].sem == PT_MS_COMM_FREE) comm_get(h);
  else type_get((MPI_Datatype)(intptr_t)h);
  UNLOCK();
}

static void comm_forget(int64_t handle) {
  hent *e = hfind(&g_comms, (uintptr_t)handle);
  if (!e) return;
  comm_info *ci = e->info;
  if (ci && ci->id != 2 && ci->id != 3) {
    if (g_comm_last == ci) g_comm_last = NULL;
    free(ci->world);
    free(ci->nbr);
    free(ci);
    hdel(&g_comms, (uintptr_t)handle);
  }
}

/* COMM_WORLD rank of rank r of communicator c (-1: any / unknown;
 * INT64_MIN: MPI_PROC_NULL, no message). */
static int64_t world_rank(const comm_info *ci, int r) {
  if (r == MPI_PROC_NULL) return INT64_MIN;
  if (!ci || r < 0 || r >= ci->rsize) return -1;
  return ci->world[r];
}

/* ---- windows ------------------------------------------------------------ */

/* An RMA window: its communicator's id and its ranks as COMM_WORLD ranks
 * (the target of a one-sided operation is a rank in the window's group).
 * Registered when a recorded call creates the window, from the
 * communicator it was made over; a window first seen in an operation (its
 * creation not recorded) asks MPI for its group and has no communicator
 * (PT_NONE).  Used under the recorder's lock. */
typedef struct win_info {
  uint64_t comm;
  int size;
  int world[];
} win_info;
static hmap g_wins;

static win_info *win_alloc(int n) {
  win_info *w = malloc(sizeof *w + sizeof(int) * (size_t)(n > 0 ? n : 1));
  if (w) w->size = n > 0 ? n : 0;
  return w;
}

static void win_put(int64_t handle, win_info *w) {
  hent *e = w ? hput(&g_wins, (uintptr_t)handle) : NULL;
  if (!e) {
    free(w);
    return;
  }
  free(e->info); /* a handle MPI reused after a free the recorder missed */
  e->info = w;
}

/* Window `handle` was created over communicator `comm` (a handle). */
static void win_created(int64_t handle, int64_t comm) {
  if ((MPI_Win)(intptr_t)handle == MPI_WIN_NULL) return;
  comm_info *ci = comm_get(comm);
  if (!ci || ci->inter) return; /* windows are made over intracommunicators */
  win_info *w = win_alloc(ci->size);
  if (!w) return;
  w->comm = ci->id;
  memcpy(w->world, ci->world, sizeof(int) * (size_t)w->size);
  win_put(handle, w);
}

static win_info *win_get(int64_t handle) {
  hent *e = hfind(&g_wins, (uintptr_t)handle);
  if (e) return e->info;
  MPI_Win win = (MPI_Win)(intptr_t)handle;
  if (win == MPI_WIN_NULL || !handle) return NULL;
  MPI_Group g = MPI_GROUP_NULL;
  int n = 0;
  if (PMPI_Win_get_group(win, &g) != MPI_SUCCESS) return NULL;
  PMPI_Group_size(g, &n);
  win_info *w = win_alloc(n);
  if (w) {
    w->comm = PT_NONE;
    translate(g, w->size, w->world);
  }
  PMPI_Group_free(&g);
  win_put(handle, w);
  e = hfind(&g_wins, (uintptr_t)handle);
  return e ? e->info : NULL;
}

static void win_forget(int64_t handle) {
  hent *e = hfind(&g_wins, (uintptr_t)handle);
  if (!e) return;
  free(e->info);
  hdel(&g_wins, (uintptr_t)handle);
}

/* ---- requests ----------------------------------------------------------- */

/* RQ_IO: a non-blocking MPI-IO operation (comm = the I/O handle id, tag =
 * the pt_io_mode, bytes = requested) */
/* RQ_COMM: MPI_Comm_idup's (comm = the parent's id, comm_handle = the
 * address of the program's MPI_Comm that holds the new communicator once
 * the request completes) */
enum { RQ_OTHER, RQ_SEND, RQ_RECV, RQ_COLL, RQ_IO, RQ_COMM };
/* A non-blocking I/O operation's matching id: its request id, above the
 * function ids that blocking ones use */
#define IO_MATCH(model) ((UINT64_C(1) << 32) | (model))
typedef struct req {
  uint64_t model; /* id of the current use (new at each start) */
  uint64_t hid;   /* id in the argument lists (a persistent request keeps
                     it across starts) */
  uint8_t kind, persistent, active;
  int64_t peer, tag;
  uint64_t comm, bytes;
  int64_t comm_handle; /* to translate the source of the completion */
  const void *claim; /* MPI_THREAD_MULTIPLE: the call (its pt__mpi_call)
                        that will complete it, from before its PMPI call */
  struct req *next; /* same handle, created later */
} req;

/* Handle -> list of requests, oldest first.  OpenMPI hands out one shared
 * handle for every send that completed at once, so one handle may stand
 * for several outstanding requests; they complete oldest first.
 *
 * With MPI_THREAD_MULTIPLE a handle is also reused between threads: when
 * thread B's MPI_Wait frees handle H inside PMPI_Wait, thread A's next
 * MPI_Irecv may get H back and register it before B's wrapper has taken
 * the lock to complete its own request, so the list holds B's (done) and
 * A's (live) request, and whichever wrapper locks first would complete
 * the oldest.  So every call that completes or starts requests claims
 * them (pt__mpi_claim, under the lock, before its PMPI call, while they
 * are certainly live): the other calls pass over requests claimed by
 * someone else.  A request may still be completed by another thread than
 * its creator: claims are per call, not per thread.  Single-threaded
 * programs never claim (no lock on their path). */
static hmap g_reqs;
/* Request ids start at 2: as in SST DUMPI, 1 is MPI_REQUEST_NULL and 0
 * a request the recorder does not know. */
static uint64_t g_next_req = 2;
int pt__mpi_multi;

static req *req_new(int64_t handle, int kind) {
  if ((MPI_Request)(intptr_t)handle == MPI_REQUEST_NULL) return NULL;
  req *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  hent *e = hput(&g_reqs, (uintptr_t)handle);
  if (!e) {
    free(r);
    return NULL;
  }
  req **tail = (req **)&e->info;
  while (*tail) tail = &(*tail)->next;
  *tail = r;
  r->kind = (uint8_t)kind;
  r->model = r->hid = g_next_req++;
  r->active = 1;
  r->peer = -1;
  return r;
}
/* The n-th request (0 = oldest) behind a handle that call `who` may use:
 * first those it claimed, then unclaimed ones; NULL if none. */
static req *req_nth(const void *who, int64_t handle, int n) {
  hent *e = hfind(&g_reqs, (uintptr_t)handle);
  req *first = e ? e->info : NULL;
  /* claims exist only under MPI_THREAD_MULTIPLE: otherwise one pass over
   * the unclaimed requests (constant time for the usual n = 0) */
  for (int pass = g_multi && who ? 0 : 1; pass < 2; pass++)
    for (req *r = first; r; r = r->next)
      if (r->claim == (pass ? NULL : who) && n-- == 0) return r;
  return NULL;
}
static req *req_get(const void *who, int64_t handle) {
  return req_nth(who, handle, 0);
}
/* Forget request r behind a handle. */
static void req_drop(int64_t handle, req *r) {
  hent *e = hfind(&g_reqs, (uintptr_t)handle);
  if (!e || !r) return;
  for (req **p = (req **)&e->info; *p; p = &(*p)->next)
    if (*p == r) {
      *p = r->next;
      free(r);
      break;
    }
  if (!e->info) hdel(&g_reqs, (uintptr_t)handle);
}

/* The request handles call c completes or starts (see pt__mpi_arg). */
static const MPI_Request *call_reqs(const pt__mpi_call *c, int *n) {
  *n = c->nreqs > 0 && c->reqs ? c->nreqs : 0;
  return c->reqs;
}

/* Before the PMPI call (MPI_THREAD_MULTIPLE only): claim the requests
 * behind c's handles (a handle given k times: k of them).  Each handle
 * claims the oldest request behind it that nobody claimed; nothing was
 * claimed by c before, so the k-th time a handle comes, the k - 1 older
 * ones are c's already and it takes the next: the same as req_nth(c, h,
 * k - 1), in one pass over the handles instead of counting earlier
 * duplicates (O(n^2) under the lock for a Testall of n requests). */
void pt__mpi_claim(pt__mpi_call *c) {
  int n;
  const MPI_Request *h = call_reqs(c, &n);
  if (!n) return;
  pthread_mutex_lock(&g_mu);
  for (int q = 0; q < n; q++) {
    hent *e = hfind(&g_reqs, (uintptr_t)h[q]);
    for (req *r = e ? e->info : NULL; r; r = r->next)
      if (!r->claim) {
        r->claim = c;
        break;
      }
  }
  pthread_mutex_unlock(&g_mu);
}

/* After the call (lock held): what c claimed and did not complete is
 * free again. */
static void unclaim(const pt__mpi_call *c) {
  int n;
  const MPI_Request *h = call_reqs(c, &n);
  for (int q = 0; q < n; q++) {
    hent *e = hfind(&g_reqs, (uintptr_t)h[q]);
    for (req *r = e ? e->info : NULL; r; r = r->next)
      if (r->claim == c) r->claim = NULL;
  }
}

/* ---- configuration ------------------------------------------------------ */

static int name_match(const char *pat, size_t n, const char *name) {
  if (n && pat[n - 1] == '*') return strncmp(pat, name, n - 1) == 0;
  return strlen(name) == n && strncmp(pat, name, n) == 0;
}

/* Apply "A,B*,C" (disable) or "A=1,B*=2" (detail) to the table. */
static void apply_list(const char *v, int detail) {
  while (v && *v) {
    const char *end = strchr(v, ',');
    size_t len = end ? (size_t)(end - v) : strlen(v);
    size_t nl = len;
    int lev = 0;
    const char *eq = memchr(v, '=', len);
    if (detail && eq) {
      nl = (size_t)(eq - v);
      lev = atoi(eq + 1);
      if (eq + 2 != v + len || eq[1] < '1' || eq[1] > '3') {
        fprintf(stderr, "paratrace: PARATRACE_DETAIL: '%.*s': want a "
                        "level 1..3; left as it was\n", (int)len, v);
        v = end ? end + 1 : NULL;
        continue;
      }
    }
    while (nl && (v[nl - 1] == ' ')) nl--;
    while (nl && *v == ' ') v++, nl--;
    int hit = 0;
    for (int i = 0; i < PT_MPI_NFUNCS; i++)
      if (name_match(v, nl, pt__mpi_fn_names[i])) {
        hit = 1;
        if (detail) g_fn[i].level = (uint8_t)(lev < 1 ? 1 : lev > 3 ? 3 : lev);
        else g_fn[i].level = 255; /* disabled */
      }
    if (!hit && nl)
      fprintf(stderr, "paratrace: %s: no MPI function matches '%.*s'\n",
              detail ? "PARATRACE_DETAIL" : "PARATRACE_DISABLE", (int)nl, v);
    v = end ? end + 1 : NULL;
  }
}

/* PARATRACE_CONFIG: VAR=value lines put into the environment unless the
 * variable is already set there (the environment wins). */
static void read_config(void) {
  const char *path = getenv("PARATRACE_CONFIG");
  if (!path || !*path) return;
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "paratrace: PARATRACE_CONFIG=%s: cannot open: %s\n",
            path, strerror(errno));
    return;
  }
  char line[4096];
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '#' || *p == '\n' || !*p) continue;
    p[strcspn(p, "\r\n")] = 0;
    char *eq = strchr(p, '=');
    if (!eq || strncmp(p, "PARATRACE_", 10) != 0) {
      fprintf(stderr, "paratrace: %s:%d: want PARATRACE_VAR=value\n", path,
              lineno);
      continue;
    }
    *eq = 0;
    setenv(p, eq + 1, 0);
  }
  fclose(f);
}

/* The name SST DUMPI gives argument `name` of function f (so that a
 * recorded trace converts to DUMPI with its arguments), or NULL. */
static const char *dumpi_name(const pt__dumpi_func *f, const char *name) {
  static const char *const syn[][2] = {
      {"fh", "file"}, {"type", "datatype"}, {"incount", "count"},
      {"comm_old", "oldcomm"}, {"old_comm", "oldcomm"},
      {"new_comm", "newcomm"}, {"comm_cart", "newcomm"},
      {"comm_graph", "newcomm"}, {"newintercomm", "newcomm"},
      /* Intercomm_merge's input (its output is "newintercomm" in Open
       * MPI's prototype), Comm_join's output: DUMPI's comm; Comm_spawn's
       * output: DUMPI's newcomm */
      {"intercomm", "comm"}, {"intercomm", "newcomm"}, {"origin_datatype", "origintype"},
      {"target_datatype", "targettype"}, {"sdispls", "senddispls"},
      {"rdispls", "recvdispls"}, {"assert", "assertion"}, {"ndims", "ndim"},
      {"disp", "displ"}, {"rank_source", "source"}, {"rank_dest", "dest"},
      {"provided", "supported"}, {"comm_keyval", "keyval"},
      {"type_keyval", "keyval"}, {"win_keyval", "keyval"},
      {"array_of_blocklengths", "lengths"},
      {"array_of_displacements", "indices"}, {"n", "count"},
      {"bridge_comm", "remotecomm"}, {"lock_type", "locktype"},
      {"rank", "winrank"}, {"status", "topo"},
      {"distrib_array", "distribs"}, {"gsize_array", "gsizes"},
      {"darg_array", "dargs"}, {"psize_array", "psizes"},
      {"size_array", "sizes"}, {"subsize_array", "subsizes"},
      {"start_array", "starts"},
      /* DUMPI's own names for arguments the standard names otherwise */
      {"true_lb", "lb"}, {"true_extent", "extent"},
      {"array_of_types", "oldtypes"}, {"array_of_datatypes", "arrdatatypes"},
      {"array_of_argv", "argvs"}, {"count", "elements"},
      {"outsize", "outcount"}, {"insize", "incount"},
      {"datatype", "intype"}, {"type", "oldtype"}, {"info", "oldinfo"},
      {"flag", "inter"}, {"flag", "result"}, {"keyval", "key"},
      {"nedges", "edges"}, {"nneighbors", "nneigh"},
      {"maxneighbors", "nneigh"}, {"periods", "period"},
      {"string", "errorstring"}, {"comm_name", "name"},
      {"type_name", "name"}, {"win_name", "name"}, {"datarep", "name"},
      {"erhandler", "errhandler"}, {"valuelen", "valuelength"},
      {"info_used", "info"}, {"disp", "bytes"}};
  char cand[3][64];
  const char *base = strncmp(name, "array_of_", 9) == 0 ? name + 9 : name;
  snprintf(cand[0], sizeof cand[0], "%s", name);
  size_t w = 0;
  for (const char *q = base; *q && w < sizeof cand[1] - 1; q++)
    if (*q != '_') cand[1][w++] = *q;
  cand[1][w] = 0;
  snprintf(cand[2], sizeof cand[2], "%s", base);
  for (int c = 0; c < 3; c++)
    for (unsigned a = 0; a < f->nargs; a++)
      if (!strcmp(f->args[a].name, cand[c])) return f->args[a].name;
  for (size_t i = 0; i < sizeof syn / sizeof syn[0]; i++)
    if (!strcmp(name, syn[i][0]))
      for (unsigned a = 0; a < f->nargs; a++)
        if (!strcmp(f->args[a].name, syn[i][1])) return f->args[a].name;
  return NULL;
}

/* Argument names from the table's "(a, b, c)" and kind positions. */
static void tables_init(void) {
  for (int i = 0; i < PT_MPI_NFUNCS; i++) {
    fninfo *f = &g_fn[i];
    memset(f->pos, -1, sizeof f->pos);
    const char *k = pt__mpi_kinds[i];
    f->nargs = (uint8_t)strlen(k);
    f->handles = strchr(k, 'c') || strchr(k, 'g');
    for (int j = 0; k[j] && j < PT_MPI_MAXARGS; j++) {
      int8_t *p = f->pos[(unsigned char)k[j] & 127];
      for (int q = 0; q < 6; q++)
        if (p[q] < 0) {
          p[q] = (int8_t)j;
          break;
        }
    }
    const char *a = fn_args[i];
    for (int j = 0; j < f->nargs; j++) {
      while (*a && (*a == '(' || *a == ',' || *a == ' ')) a++;
      size_t n = strcspn(a, ",) ");
      f->names[j] = strndup(a, n);
      a += n;
    }
    /* Iprobe, Improbe, Test, Testany, Request_get_status: a status after
     * the flag is set only when the flag is */
    f->flag = -1;
    for (int j = 0; j < f->nargs && j < PT_MPI_MAXARGS; j++)
      if (k[j] == 'a' && f->names[j] && !strcmp(f->names[j], "flag"))
        f->flag = (int8_t)j;
    f->file_io = !strncmp(pt__mpi_fn_names[i], "MPI_File_", 9);
    /* which int-pointer arguments are arrays: plural names */
    for (int j = 0; j < f->nargs && j < PT_MPI_MAXARGS; j++) {
      const char *nm = f->names[j];
      size_t l = nm ? strlen(nm) : 0;
      /* not: counts (num_cvars), single values whose names end in s
       * (errorclass, var_class, continuous, address) */
      f->plural[j] = (l > 1 && nm[l - 1] == 's' && strcmp(nm, "status") &&
                      nm[l - 2] != 's' && nm[l - 2] != 'u' &&
                      strncmp(nm, "num_", 4)) ||
                     (l > 6 && !strcmp(nm + l - 6, "_array")) ||
                     (nm && !strcmp(nm, "edges")) ||
                     (nm && !strcmp(nm, "index") &&
                      i == PT_MPI_ID_Graph_create);
    }
    /* the argument that gives an array's length: array_of_X's is max_X
     * (Type_get_contents), else the nearest count before it (count, not
     * blocklength, in Type_create_indexed_block), else the nearest int
     * (ndims, maxdims); found by the standard's names, before they are
     * replaced by DUMPI's below */
    for (int j = 0; j < f->nargs && j < PT_MPI_MAXARGS; j++) {
      const char *nm = f->names[j];
      f->lenpos[j] = -1;
      if (!f->plural[j] || !nm) continue;
      for (int q = 0; q < f->nargs && q < PT_MPI_MAXARGS; q++)
        if (!strncmp(nm, "array_of_", 9) && f->names[q] &&
            !strncmp(f->names[q], "max_", 4) &&
            !strcmp(f->names[q] + 4, nm + 9))
          f->lenpos[j] = (int8_t)q;
      for (int pass = 0; pass < 2 && f->lenpos[j] < 0; pass++)
        for (int q = j - 1; q >= 0 && f->lenpos[j] < 0; q--)
          if (k[q] == 'n' || (pass && k[q] == 'i')) f->lenpos[j] = (int8_t)q;
    }
    /* functions SST DUMPI knows: its argument names */
    int label = pt__dumpi_label_from_name(pt__mpi_fn_names[i]);
    const pt__dumpi_func *df = label >= 0 ? pt__dumpi_func_get((unsigned)label)
                                          : NULL;
    for (int j = 0; j < f->nargs && j < PT_MPI_MAXARGS; j++)
      f->enumk[j] = enum_class(pt__mpi_fn_names[i], f->names[j]);
    for (int j = 0; df && j < f->nargs; j++) {
      const char *dn = f->names[j] ? dumpi_name(df, f->names[j]) : NULL;
      if (dn && strcmp(dn, f->names[j]) != 0) {
        char *copy = strdup(dn);
        if (copy) {
          free(f->names[j]);
          f->names[j] = copy;
        }
      }
    }
  }
#define PT_MPI_SEM(name, S, K)                      \
  g_fn[PT_MPI_ID_##name].sem = PT_MS_##S;           \
  pt__mpi_sem[PT_MPI_ID_##name] = PT_MS_##S;        \
  g_fn[PT_MPI_ID_##name].coll = PT_COLL_##K;
#define PT_MPI_POLL(name) g_fn[PT_MPI_ID_##name].pstmt = 1;
#include "mpi_sem.h"
#undef PT_MPI_SEM
#undef PT_MPI_POLL
  for (int i = 0; i < PT_MPI_NFUNCS; i++) {
    fninfo *f = &g_fn[i];
    /* the communication statements: messages, requests, collectives,
     * one-sided operations, and waiting or polling for messages */
    if (f->sem != PT_MS_NONE && f->sem < PT_MS_NOREG) f->pstmt = 1;
    int sem = f->sem, r = f->pos['r'][0] >= 0, cm = f->pos['c'][0] >= 0;
    f->rare = (uint8_t)(
        (pt__mpi_errh[i] == PT_ERRH_GET || pt__mpi_errh[i] == PT_ERRH_NEW
             ? RARE_ERRH : 0) |
        (i == PT_MPI_ID_Finalize ? RARE_FINALIZE : 0) |
        (i == PT_MPI_ID_Init || i == PT_MPI_ID_Init_thread ? RARE_INIT : 0) |
        (handle_freed(i) ? RARE_FREED : 0) |
        (i == PT_MPI_ID_Mprobe || i == PT_MPI_ID_Improbe ||
                 ((sem == PT_MS_NONE || sem == PT_MS_NOREG ||
                   (sem >= PT_MS_RMA_PUT && sem <= PT_MS_RMA_CAS)) && r) ||
                 (sem != PT_MS_NOREG && sem != PT_MS_COMM_FREE && cm)
             ? RARE_SEMTAIL : 0));
  }
}

/* ---- the per-call path -------------------------------------------------- */


/* A call's ENTER event is encoded as the writer stores it (doc/format.md:
 * header byte, region, attribute count, then per attribute its key, type
 * and value) straight from the arguments, into a per-thread buffer:
 * enc_begin writes the header, the attributes follow as they are read,
 * enc_finish fills in their count.  Integer arrays are gathered in `ints`
 * first.  An attribute that does not fit (at most ENC_MAXATTRS, whose
 * count is one byte, ENC_CAP bytes, ENC_INTS integers per call) is left
 * out. */
enum { ENC_CAP = 256 * 1024, ENC_MAXATTRS = 64, ENC_INTS = 16384 };
typedef struct scratch {
  uint8_t *b;
  size_t len, cap;
  size_t hl; /* header bytes before the attribute count */
  uint32_t na;
  int64_t *ints;
  size_t ni, capi;
} scratch;
static __thread __attribute__((tls_model("initial-exec"))) scratch t_scr;

static uint8_t *put_packed(uint8_t *w, uint64_t p);

/* Ready for the ENTER of region `ref` (rref: ref + 1 as a packed varint,
 * or 0); 0 when the buffers cannot be had (the call is recorded without
 * arguments). */
static int enc_begin(uint64_t ref, uint64_t rref) {
  scratch *s = &t_scr;
  if (PT_UNLIKELY(!s->cap)) {
    s->b = malloc(ENC_CAP);
    s->ints = malloc(ENC_INTS * sizeof *s->ints);
    if (!s->b || !s->ints) {
      free(s->b), free(s->ints);
      s->b = NULL, s->ints = NULL;
      s->na = 0;
      return 0;
    }
    s->cap = ENC_CAP;
    s->capi = ENC_INTS;
  }
  uint8_t *w = s->b;
  *w++ = (uint8_t)(PT_EV_ENTER | PT__EVH_ATTRS);
  /* references are stored + 1 */
  w = PT_LIKELY(rref) ? put_packed(w, rref) : w + pt__varint_put(w, ref + 1);
  s->hl = (size_t)(w - s->b);
  *w++ = 0; /* the attribute count, set by enc_finish */
  s->len = (size_t)(w - s->b);
  s->na = 0;
  s->ni = 0;
  return 1;
}

static int64_t *ints_alloc(size_t n) {
  scratch *s = &t_scr;
  if (s->ni + n > s->capi) return NULL;
  int64_t *p = s->ints + s->ni;
  s->ni += n;
  return p;
}

/* Up to 7 bytes packed into the low bytes of a word whose top byte is
 * their count (0 when there are more), and written back by put_packed
 * (which may write 8 bytes: room for 8 is the caller's). */
static uint64_t pack_bytes(const uint8_t *b, size_t n) {
  if (n > 7) return 0;
  uint64_t w = 0;
  for (size_t i = 0; i < n; i++) w |= (uint64_t)b[i] << (8 * i);
  return w | (uint64_t)n << 56;
}

static inline uint8_t *put_packed(uint8_t *w, uint64_t p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(w, &p, 8);
#else
  for (int i = 0; i < 7; i++) w[i] = (uint8_t)(p >> (8 * i));
#endif
  return w + (p >> 56);
}

/* An attribute's key and type as the block stores them (key varint, type
 * byte), packed; 0 when they take more than 7 bytes. */
static uint64_t pre_pack(uint64_t key, uint32_t type) {
  uint8_t b[PT_VARINT_MAX + 1];
  size_t n = pt__varint_put(b, key);
  b[n++] = (uint8_t)type;
  return pack_bytes(b, n);
}

/* A varint, packed; 0 when it takes more than 7 bytes. */
static uint64_t varint_pack(uint64_t v) {
  uint8_t b[PT_VARINT_MAX];
  return pack_bytes(b, pt__varint_put(b, v));
}

/* Room for an attribute with up to `vbytes` bytes of value: its key and
 * type written (from `pre`, or key and type when pre is 0); returns where
 * the value goes, or NULL (left out).  enc_end commits. */
static inline uint8_t *enc_attr(uint64_t pre, uint64_t key, uint32_t type,
                                size_t vbytes) {
  scratch *s = &t_scr;
  if (PT_UNLIKELY(s->na >= ENC_MAXATTRS ||
                  s->cap - s->len < 8 + PT_VARINT_MAX + 1 + vbytes))
    return NULL;
  uint8_t *w = s->b + s->len;
  if (PT_LIKELY(pre)) return put_packed(w, pre);
  w += pt__varint_put(w, key);
  *w++ = (uint8_t)type;
  return w;
}

static inline void enc_end(uint8_t *w) {
  scratch *s = &t_scr;
  s->len = (size_t)(w - s->b);
  s->na++;
}

static uint64_t arg_key(int id, int j, int array) {
  fninfo *f = &g_fn[id];
  uint64_t k = __atomic_load_n(&f->key[j][array], __ATOMIC_ACQUIRE);
  if (!k) {
    k = pt_rec_attribute(f->names[j], array == 2   ? PT_TYPE_STRING
                                      : array == 1 ? PT_TYPE_INTS
                                                   : PT_TYPE_INT) + 1;
    __atomic_store_n(&f->key[j][array], k, __ATOMIC_RELEASE);
  }
  return k - 1;
}

static const uint32_t arg_type[3] = {PT_TYPE_INT, PT_TYPE_INTS,
                                     PT_TYPE_STRING};

/* Argument j of function id as an attribute (array: 0 scalar, 1 integer
 * array, 2 string), with room for `vbytes` of value: see enc_attr. */
static inline uint8_t *enc_arg(int id, int j, int array, size_t vbytes) {
  fninfo *f = &g_fn[id];
  uint64_t pre = __atomic_load_n(&f->pre[j][array], __ATOMIC_RELAXED);
  if (PT_UNLIKELY(!pre)) {
    pre = pre_pack(arg_key(id, j, array), arg_type[array]);
    __atomic_store_n(&f->pre[j][array], pre, __ATOMIC_RELAXED);
  }
  return enc_attr(pre, pre ? 0 : arg_key(id, j, array), arg_type[array],
                  vbytes);
}

static void __attribute__((noinline)) enc_int_slow(int id, int j, int64_t v) {
  uint8_t *w = enc_arg(id, j, 0, PT_VARINT_MAX);
  if (w) enc_end(w + pt__varint_put(w, pt__zigzag(v)));
}

/* The common case inline: key and type known, room for them and a value
 * (nothing in it calls out, so nothing to save on the way in). */
static inline __attribute__((always_inline)) void enc_int(int id, int j,
                                                          int64_t v) {
  uint64_t pre = __atomic_load_n(&g_fn[id].pre[j][0], __ATOMIC_RELAXED);
  scratch *s = &t_scr;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (PT_LIKELY(pre && s->na < ENC_MAXATTRS &&
                s->cap - s->len >= 8 + PT_VARINT_MAX)) {
    uint8_t *w = put_packed(s->b + s->len, pre);
    w += pt__varint_put(w, pt__zigzag(v));
    s->len = (size_t)(w - s->b);
    s->na++;
    return;
  }
#endif
  enc_int_slow(id, j, v);
}

static void enc_ints(int id, int j, const int64_t *o, size_t n) {
  if (n > (SIZE_MAX / PT_VARINT_MAX) - 1) return;
  uint8_t *w = enc_arg(id, j, 1, (n + 1) * PT_VARINT_MAX);
  if (!w) return;
  w += pt__varint_put(w, n);
  for (size_t q = 0; q < n; q++) w += pt__varint_put(w, pt__zigzag(o[q]));
  enc_end(w);
}

/* A string attribute: its length + 1, its bytes and a NUL. */
static uint8_t *str_put(uint8_t *w, const char *str, size_t len) {
  w += pt__varint_put(w, len + 1);
  memcpy(w, str, len);
  w[len] = '\0';
  return w + len + 1;
}

static void enc_str(int id, int j, const char *str, size_t len) {
  uint8_t *w = enc_arg(id, j, 2, PT_VARINT_MAX + len + 1);
  if (w) enc_end(str_put(w, str, len));
}

/* The ENTER begun by enc_begin with the attributes encoded since (without
 * attributes: header and region only).  Returns the event's bytes, valid
 * until the next enc_begin. */
static const uint8_t *enc_finish(size_t *len) {
  scratch *s = &t_scr;
  if (s->na) {
    s->b[s->hl] = (uint8_t)s->na; /* < 128: one byte */
    *len = s->len;
  } else {
    s->b[0] = PT_EV_ENTER;
    *len = s->hl;
  }
  return s->b;
}

/* The bytes a status says were received: 1 and *out, or 0 when it does
 * not say.  Not MPI_Get_count, whose int cannot hold 2 GiB or more. */
static int status_bytes(const MPI_Status *st, uint64_t *out) {
#ifdef OPEN_MPI
  *out = (uint64_t)st->_ucount;
  return 1;
#else
  MPI_Count n = 0;
  if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS ||
      n == MPI_UNDEFINED || n < 0)
    return 0;
  *out = (uint64_t)n;
  return 1;
#endif
}

/* A status as 5 integers: bytes, source, cancelled, error, tag.  MPI sets
 * the error field only in the statuses of a multiple-completion call that
 * returns MPI_ERR_IN_STATUS; otherwise it is whatever the application's
 * memory held, so it is recorded as 0 unless `err_set`. */
static void status_vals(const MPI_Status *st, int64_t *o, int err_set) {
#ifdef OPEN_MPI
  /* OpenMPI's status: the byte count and the cancel flag are fields */
  o[0] = st->_ucount > (size_t)INT32_MAX ? -1 : (int64_t)st->_ucount;
  o[1] = st->MPI_SOURCE;
  o[2] = st->_cancelled;
  o[3] = err_set ? st->MPI_ERROR : 0;
  o[4] = st->MPI_TAG;
  return;
#endif
  int n = 0, cancelled = 0;
  PMPI_Get_count(st, MPI_BYTE, &n);
  PMPI_Test_cancelled(st, &cancelled);
  o[0] = n == MPI_UNDEFINED ? -1 : n;
  o[1] = st->MPI_SOURCE;
  o[2] = cancelled;
  o[3] = err_set ? st->MPI_ERROR : 0;
  o[4] = st->MPI_TAG;
}

static int int_value(const void *p) {
  int v = 0;
  if ((uintptr_t)p > 4096) memcpy(&v, p, sizeof v);
  return v;
}

#define ARG(kind, nth) (g_fn[c->id].pos[(unsigned char)(kind)][nth])
#define VAL(kind, nth) (ARG(kind, nth) >= 0 ? c->v[ARG(kind, nth)] : 0)

/* An MPI-IO status defines the count only: OpenMPI leaves its source, tag
 * and cancel flag as the program's memory held them (PnetCDF's writes
 * recorded cancelled=-50, source=-1548765344), so they are recorded as
 * MPI_ANY_SOURCE, MPI_ANY_TAG and 0. */
static void io_status_vals(int64_t *o) {
  o[1] = MPI_ANY_SOURCE;
  o[2] = 0;
  o[4] = MPI_ANY_TAG;
}

/* The request whose completion status number q of wait or test c
 * returns, or MPI_REQUEST_NULL (not a wait or test, or none). */
static MPI_Request status_req(const pt__mpi_call *c, int q) {
  switch (g_fn[c->id].sem) {
    case PT_MS_WAIT: case PT_MS_TEST:
      return c->nreqs == 1 && q == 0 ? c->reqs_inline[0] : MPI_REQUEST_NULL;
    case PT_MS_WAITANY: case PT_MS_TESTANY: {
      int ix = int_value((void *)(intptr_t)VAL('a', 0));
      return c->reqs && q == 0 && ix >= 0 && ix < c->nreqs ? c->reqs[ix]
                                                           : MPI_REQUEST_NULL;
    }
    case PT_MS_WAITALL: case PT_MS_TESTALL:
      return c->reqs && q < c->nreqs ? c->reqs[q] : MPI_REQUEST_NULL;
    case PT_MS_WAITSOME: case PT_MS_TESTSOME: {
      const int *ix = (const int *)(intptr_t)VAL('a', 1);
      return c->reqs && (uintptr_t)ix > 4096 && ix[q] >= 0 && ix[q] < c->nreqs
                 ? c->reqs[ix[q]]
                 : MPI_REQUEST_NULL;
    }
    default:
      return MPI_REQUEST_NULL;
  }
}

/* Status number q of call c is an MPI-IO operation's: the call is an
 * MPI_File_* function, or a wait or test completing a non-blocking
 * MPI-IO request. */
static int g_io_reqs; /* a non-blocking MPI-IO request was ever made */
static int io_status(const pt__mpi_call *c, int q) {
  if (g_fn[c->id].file_io) return 1;
  /* (a program without non-blocking MPI-IO pays no request lookup per
   * status of its waits) */
  if (!__atomic_load_n(&g_io_reqs, __ATOMIC_RELAXED)) return 0;
  MPI_Request h = status_req(c, q);
  req *r = h != MPI_REQUEST_NULL ? req_nth(c, (int64_t)(intptr_t)h, 0) : NULL;
  return r && r->kind == RQ_IO;
}

/* A status argument j (value v) of call c as recorded, in o: 0 when none
 * is (below level 3; MPI_STATUS_IGNORE, for which the recorder's own
 * status stood in; or a false flag, with which MPI leaves it undefined). */
static inline __attribute__((always_inline)) int status_recorded(
    const pt__mpi_call *c, const fninfo *fi, int j, int64_t v, int level,
    int64_t o[5]) {
  if (fi->flag >= 0 && fi->flag < j &&
      !int_value((void *)(intptr_t)c->v[fi->flag]))
    return 0;
  if (level < 3 || !v || v == (int64_t)(intptr_t)&c->st) return 0;
  status_vals((const MPI_Status *)(intptr_t)v, o, 0);
  if (io_status(c, 0)) io_status_vals(o);
  return 1;
}

/* ---- collectives: which arguments count, and their lengths ------------- */

/* A rank's part in a rooted collective on an intercommunicator: the
 * root passes MPI_ROOT, the rest of its group MPI_PROC_NULL (no part at
 * all), the other group the root's rank in that (remote) group. */
enum { ROLE_INTRA, ROLE_ROOT, ROLE_LEAF, ROLE_NONE };

typedef struct coll_shape {
  int op, is_root, role; /* role: ROLE_* */
  int64_t sendn, recvn; /* entries of the send / receive side arrays */
  int second_b;         /* position of the receive buffer */
  const char *kinds;    /* the function's argument kinds */
  int in_place; /* MPI_IN_PLACE makes MPI ignore the send side (1) or, at a
                 * scatter's root, the receive side (2); 0 otherwise */
} coll_shape;

static int nbr_load(comm_info *ci, MPI_Comm cm);

static coll_shape shape_of(const pt__mpi_call *c, comm_info *ci) {
  coll_shape sh = {.op = g_fn[c->id].coll};
  int64_t root = ARG('k', 0) >= 0 ? VAL('k', 0) : -1;
  sh.is_root = ci && !ci->inter ? ci->rank == root : root == MPI_ROOT;
  sh.role = !ci || !ci->inter || ARG('k', 0) < 0 ? ROLE_INTRA
            : root == MPI_ROOT                    ? ROLE_ROOT
            : root == MPI_PROC_NULL               ? ROLE_NONE
                                                  : ROLE_LEAF;
  sh.sendn = sh.recvn = ci ? ci->rsize : 0;
  /* an intercommunicator's Reduce_scatter(_block): recvcounts and the
   * blocks of the send buffer are per rank of the local group */
  if (ci && ci->inter &&
      (sh.op == PT_COLL_REDUCE_SCATTER || sh.op == PT_COLL_REDUCE_SCATTER_BLOCK))
    sh.sendn = sh.recvn = ci->size;
  if (sh.op >= PT_COLL_NEIGHBOR_ALLGATHER && sh.op <= PT_COLL_NEIGHBOR_ALLTOALLW) {
    int known = ci && nbr_load(ci, (MPI_Comm)(intptr_t)VAL('C', 0));
    sh.recvn = known ? ci->nbr_in : 0;
    sh.sendn = known ? ci->nbr_out : 0;
  }
  sh.second_b = ARG('b', 1) >= 0 ? ARG('b', 1) : 99;
  sh.kinds = pt__mpi_kinds[c->id];
  /* MPI_IN_PLACE (intracommunicators only): the counts and types of the
   * side it replaces are not read by MPI, and may be anything */
  int b0 = ARG('b', 0), b1 = ARG('b', 1);
  if (ci && !ci->inter) {
    int send_ip = b0 >= 0 && (void *)(intptr_t)c->v[b0] == MPI_IN_PLACE;
    int recv_ip = b1 >= 0 && (void *)(intptr_t)c->v[b1] == MPI_IN_PLACE;
    switch (sh.op) {
      case PT_COLL_GATHER: case PT_COLL_GATHERV:
        if (sh.is_root && send_ip) sh.in_place = 1;
        break;
      case PT_COLL_ALLGATHER: case PT_COLL_ALLGATHERV: case PT_COLL_ALLTOALL:
      case PT_COLL_ALLTOALLV: case PT_COLL_ALLTOALLW:
        if (send_ip) sh.in_place = 1;
        break;
      case PT_COLL_SCATTER: case PT_COLL_SCATTERV:
        if (sh.is_root && recv_ip) sh.in_place = 2;
        break;
      default:
        break;
    }
  }
  return sh;
}

/* Does argument j of this collective mean anything at this rank?  (The
 * receive side of a gather and the send side of a scatter only at the
 * root: elsewhere they may be garbage and must not be read.  On an
 * intercommunicator the root's side only at the root, the other side only
 * in the remote group, nothing at MPI_PROC_NULL.) */
static int coll_significant(const coll_shape *sh, int j) {
  /* the root, the communicator and the request are not a buffer's side */
  char k = sh->kinds ? sh->kinds[j] : 0;
  if (k == 'k' || k == 'C' || k == 'r') return 1;
  int recv_side = j > sh->second_b;
  if (sh->in_place == 1 && j < sh->second_b) return 0;
  if (sh->in_place == 2 && recv_side) return 0;
  if (sh->role == ROLE_NONE) return 0;
  if (sh->role != ROLE_INTRA &&
      (sh->op == PT_COLL_GATHER || sh->op == PT_COLL_GATHERV))
    return recv_side == (sh->role == ROLE_ROOT);
  if (sh->role != ROLE_INTRA &&
      (sh->op == PT_COLL_SCATTER || sh->op == PT_COLL_SCATTERV))
    return recv_side != (sh->role == ROLE_ROOT);
  if (sh->op == PT_COLL_GATHER || sh->op == PT_COLL_GATHERV)
    return !recv_side || sh->is_root;
  if (sh->op == PT_COLL_SCATTER || sh->op == PT_COLL_SCATTERV)
    return recv_side || sh->is_root;
  return 1;
}

static int64_t coll_len(const coll_shape *sh, int j) {
  return j > sh->second_b ? sh->recvn : sh->sendn;
}

static uint64_t sum_counts(const pt__mpi_call *c, const coll_shape *sh,
                           int j) {
  if (j < 0 || !coll_significant(sh, j)) return 0;
  const int *a = (const int *)(intptr_t)c->v[j];
  uint64_t s = 0;
  int64_t n = coll_len(sh, j);
  for (int64_t i = 0; i < n && (uintptr_t)a > 4096; i++)
    s += a[i] > 0 ? (uint64_t)a[i] : 0;
  return s;
}

/* counts[me] of the int array argument j (0 if not there). */
static uint64_t own_count(const pt__mpi_call *c, int j, int me) {
  const int *a = (const int *)(intptr_t)(j >= 0 ? c->v[j] : 0);
  if ((uintptr_t)a <= 4096 || me < 0) return 0;
  return a[me] > 0 ? (uint64_t)a[me] : 0;
}

/* Bytes of argument pair (count j, datatype d) if significant. */
static uint64_t sig_bytes(const pt__mpi_call *c, const coll_shape *sh, int j,
                          int d) {
  if (j < 0 || d < 0 || !coll_significant(sh, j) || !coll_significant(sh, d))
    return 0;
  return c->v[j] > 0 ? (uint64_t)c->v[j] * type_size(c->v[d]) : 0;
}

static uint64_t sig_size(const pt__mpi_call *c, const coll_shape *sh, int d) {
  return d >= 0 && coll_significant(sh, d) ? type_size(c->v[d]) : 0;
}

/* Sum of counts[i] x size(types[i]) (Alltoallw and its neighbour form). */
static uint64_t sum_w(const pt__mpi_call *c, const coll_shape *sh, int ja,
                      int jt) {
  if (ja < 0 || jt < 0) return 0;
  const int *a = (const int *)(intptr_t)c->v[ja];
  const MPI_Datatype *t = (const MPI_Datatype *)(intptr_t)c->v[jt];
  uint64_t s = 0;
  int64_t n = coll_len(sh, ja);
  for (int64_t i = 0; i < n && (uintptr_t)a > 4096 && (uintptr_t)t > 4096; i++)
    s += (uint64_t)(a[i] > 0 ? a[i] : 0) * type_size((int64_t)(intptr_t)t[i]);
  return s;
}

/* ---- neighbourhood collectives: which neighbours are real ------------- */

/* The neighbours of this rank in a communicator with a topology, in the
 * order of the collective's blocks: the number of sources (receive side)
 * in *nin, of destinations (send side) in *nout (0 without a topology).
 * Only a Cartesian topology can have MPI_PROC_NULL neighbours (a
 * non-periodic edge: a block that moves nothing); for it, the neighbours
 * (the same on both sides) go into nb[], which holds `cap`, and *cart is
 * set.  A Cartesian communicator with more dimensions than fit gets
 * *cart set and *nin = *nout = -1: the caller sizes nb[] to 2 * ndims
 * (in *nout's place: -1 - 2 * ndims) and asks again.  Graphs and
 * distributed graphs have no MPI_PROC_NULL: every block is real, and no
 * list is read. */
static void neighbours(MPI_Comm cm, int rank, int *nb, int cap, int *cart,
                       int *nin, int *nout) {
  int topo = MPI_UNDEFINED;
  *nin = *nout = 0;
  *cart = 0;
  PMPI_Topo_test(cm, &topo);
  if (topo == MPI_CART) {
    int nd = 0;
    PMPI_Cartdim_get(cm, &nd);
    *cart = 1;
    if (nd < 0) return;
    if (2 * nd > cap) {
      *nin = -1;
      *nout = -1 - 2 * nd;
      return;
    }
    for (int d = 0; d < nd; d++) {
      int lo = MPI_PROC_NULL, hi = MPI_PROC_NULL;
      PMPI_Cart_shift(cm, d, 1, &lo, &hi);
      nb[2 * d] = lo;
      nb[2 * d + 1] = hi;
    }
    *nin = *nout = 2 * nd;
  } else if (topo == MPI_GRAPH) {
    int n = 0;
    if (PMPI_Graph_neighbors_count(cm, rank, &n) == MPI_SUCCESS && n > 0)
      *nin = *nout = n;
  } else if (topo == MPI_DIST_GRAPH) {
    int i = 0, o = 0, weighted = 0;
    if (PMPI_Dist_graph_neighbors_count(cm, &i, &o, &weighted) ==
        MPI_SUCCESS) {
      *nin = i > 0 ? i : 0;
      *nout = o > 0 ? o : 0;
    }
  }
}

/* Bytes of a side of a neighbourhood collective: per block i (n of them,
 * nb[i] the neighbour, or every one real when nb is NULL) counts[i] (or
 * `count` when counts is NULL) items of types[i] (or of size `size` when
 * types is NULL); MPI_PROC_NULL blocks move nothing. */
static uint64_t nbr_side(const int *nb, int n, int count, const int *counts,
                         uint64_t size, const MPI_Datatype *types) {
  uint64_t s = 0;
  if ((counts && (uintptr_t)counts <= 4096) ||
      (types && (uintptr_t)types <= 4096))
    return 0;
  for (int i = 0; i < n; i++) {
    if (nb && nb[i] == MPI_PROC_NULL) continue;
    int k = counts ? counts[i] : count;
    if (k <= 0) continue;
    s += (uint64_t)k *
         (types ? type_size((int64_t)(intptr_t)types[i]) : size);
  }
  return s;
}

/* The neighbours of ci (communicator cm), asked once: 1 when known. */
static int nbr_load(comm_info *ci, MPI_Comm cm) {
  if (ci->nbr_known) return 1;
  /* a Cartesian communicator's neighbours on the stack (32 dimensions);
   * more only in a program nobody writes, then on the heap */
  int buf[64], *nb = buf, nin = 0, nout = 0, cart = 0;
  neighbours(cm, ci->rank, buf, 64, &cart, &nin, &nout);
  if (cart && nin < 0) {
    int cap = -1 - nout;
    nb = malloc(sizeof *nb * (size_t)cap);
    if (!nb) return 0;
    neighbours(cm, ci->rank, nb, cap, &cart, &nin, &nout);
    if (nin < 0) nin = nout = 0;
  }
  if (cart && nin > 0) {
    ci->nbr = malloc(sizeof *ci->nbr * (size_t)nin);
    if (!ci->nbr) {
      if (nb != buf) free(nb);
      return 0;
    }
    memcpy(ci->nbr, nb, sizeof *nb * (size_t)nin);
  }
  if (nb != buf) free(nb);
  ci->nbr_cart = cart;
  ci->nbr_in = nin;
  ci->nbr_out = nout;
  ci->nbr_known = 1;
  return 1;
}

/* Bytes a neighbourhood collective sends and receives at this rank, real
 * neighbours only. */
static void nbr_bytes(const pt__mpi_call *c, comm_info *ci,
                      const coll_shape *sh, uint64_t *sent, uint64_t *recvd) {
  if (!ci || !nbr_load(ci, (MPI_Comm)(intptr_t)VAL('C', 0))) return;
  int nin = ci->nbr_in, nout = ci->nbr_out;
  const int *in = ci->nbr_cart ? ci->nbr : NULL, *out = in;
  int N0 = ARG('n', 0), N1 = ARG('n', 1), D0 = ARG('D', 0), D1 = ARG('D', 1);
  const int *A0 = (const int *)(intptr_t)VAL('a', 0);
  int n0 = N0 >= 0 ? (int)c->v[N0] : 0, n1 = N1 >= 0 ? (int)c->v[N1] : 0;
  uint64_t s0 = sig_size(c, sh, D0), s1 = sig_size(c, sh, D1);
  switch (sh->op) {
    case PT_COLL_NEIGHBOR_ALLGATHER: case PT_COLL_NEIGHBOR_ALLTOALL:
      *sent = nbr_side(out, nout, n0, NULL, s0, NULL);
      *recvd = nbr_side(in, nin, n1, NULL, s1, NULL);
      break;
    case PT_COLL_NEIGHBOR_ALLGATHERV: /* b n D b a a D */
      *sent = nbr_side(out, nout, n0, NULL, s0, NULL);
      *recvd = nbr_side(in, nin, 0, A0, s1, NULL);
      break;
    case PT_COLL_NEIGHBOR_ALLTOALLV: /* b a a D b a a D */
      *sent = nbr_side(out, nout, 0, A0, s0, NULL);
      *recvd = nbr_side(in, nin, 0, (const int *)(intptr_t)VAL('a', 2), s1,
                        NULL);
      break;
    case PT_COLL_NEIGHBOR_ALLTOALLW: /* b a A T b a A T */
      *sent = nbr_side(out, nout, 0, A0, 0,
                       (const MPI_Datatype *)(intptr_t)VAL('T', 0));
      *recvd = nbr_side(in, nin, 0, (const int *)(intptr_t)VAL('a', 1), 0,
                        (const MPI_Datatype *)(intptr_t)VAL('T', 1));
      break;
    default:
      break;
  }
}

/* How many ints argument j ('a') of this call holds (0: a scalar;
 * ARR_EMPTY: an array of none; < 0 otherwise: nothing to record). */
#define ARR_EMPTY INT_MIN
static int array_len(const pt__mpi_call *c, int j) {
  const fninfo *f = &g_fn[c->id];
  const char *nm = f->names[j];
  if (!f->plural[j]) return 0;
  if (f->sem == PT_MS_COLL || f->sem == PT_MS_ICOLL) {
    int ci = f->pos['C'][0];
    comm_info *cm = ci >= 0 ? comm_get(c->v[ci]) : NULL;
    coll_shape sh = shape_of(c, cm);
    if (!coll_significant(&sh, j)) return -1;
    int64_t n = coll_len(&sh, j);
    return n > 0 ? (int)n : -1;
  }
  /* arrays whose length another argument's contents give */
  if (c->id == PT_MPI_ID_Graph_create && j == f->pos['a'][1]) { /* edges */
    int nn = f->pos['i'][0], ix = f->pos['a'][0];
    const int *index = ix >= 0 ? (const int *)(intptr_t)c->v[ix] : NULL;
    if (nn < 0 || c->v[nn] <= 0 || (uintptr_t)index <= 4096) return -1;
    return index[c->v[nn] - 1] > 0 ? index[c->v[nn] - 1] : -1;
  }
  if (c->id == PT_MPI_ID_Graph_get) { /* maxindex, maxedges, index, edges */
    int q = f->pos['i'][j == f->pos['a'][0] ? 0 : 1];
    return q >= 0 && c->v[q] > 0 ? (int)c->v[q] : -1;
  }
  if (c->id == PT_MPI_ID_Dist_graph_create &&
      (j == f->pos['a'][2] || j == f->pos['a'][3])) { /* targets, weights */
    int nn = f->pos['i'][0], dg = f->pos['a'][1];
    const int *deg = dg >= 0 ? (const int *)(intptr_t)c->v[dg] : NULL;
    if (nn < 0 || (uintptr_t)deg <= 4096) return -1;
    int64_t tot = 0;
    for (int64_t i = 0; i < c->v[nn] && i < 4096; i++)
      tot += deg[i] > 0 ? deg[i] : 0;
    return tot > 0 ? (int)tot : -1;
  }
  /* one int per dimension of the Cartesian communicator, which no
   * argument counts (MPI_Cart_sub's remain_dims, MPI_Cart_rank's coords) */
  if (c->id == PT_MPI_ID_Cart_sub || c->id == PT_MPI_ID_Cart_rank) {
    int ci = f->pos['C'][0], topo = MPI_UNDEFINED, nd = -1;
    MPI_Comm cm = ci >= 0 ? (MPI_Comm)(intptr_t)c->v[ci] : MPI_COMM_NULL;
    if (cm == MPI_COMM_NULL || PMPI_Topo_test(cm, &topo) != MPI_SUCCESS ||
        topo != MPI_CART || PMPI_Cartdim_get(cm, &nd) != MPI_SUCCESS ||
        nd < 0)
      return -1;
    return nd > 0 ? nd : ARR_EMPTY;
  }
  if ((f->sem == PT_MS_WAITSOME || f->sem == PT_MS_TESTSOME) &&
      strstr(nm, "indices")) { /* outcount before it */
    int o = j > 0 ? int_value((void *)(intptr_t)c->v[j - 1]) : 0;
    /* none completed: an empty array (not a scalar: the array's first
     * element is not set then, and the attribute must keep one type);
     * MPI_UNDEFINED (no active request): not meaningful */
    return o > 0 ? o : o == 0 ? ARR_EMPTY : -1;
  }
  int q = f->lenpos[j];
  if (q < 0) return 0;
  return c->v[q] > 0 ? (int)c->v[q] : -1; /* none: nothing to read */
}

/* MPI constants that SST DUMPI numbers its own way, by argument name:
 * recorded in DUMPI's numbering, like datatypes and reduction ops (thread
 * levels 1-4, lock types shared 1 / exclusive 2, whence set 1 / cur 2 /
 * end 3, array order C 1 / Fortran 2; 0 = not a known constant). */
static int64_t dumpi_enum(int cls, int64_t v) {
  if (cls == EN_NONE) return v;
  if (cls == EN_THREAD)
    return v == MPI_THREAD_SINGLE       ? 1
           : v == MPI_THREAD_FUNNELED   ? 2
           : v == MPI_THREAD_SERIALIZED ? 3
           : v == MPI_THREAD_MULTIPLE   ? 4 : 0;
  if (cls == EN_LOCK)
    return v == MPI_LOCK_SHARED ? 1 : v == MPI_LOCK_EXCLUSIVE ? 2 : 0;
  if (cls == EN_WHENCE)
    return v == MPI_SEEK_SET ? 1 : v == MPI_SEEK_CUR ? 2
           : v == MPI_SEEK_END ? 3 : 0;
  if (cls == EN_ORDER)
    return v == MPI_ORDER_C ? 1 : v == MPI_ORDER_FORTRAN ? 2 : 0;
  if (cls == EN_COMPARE)
    return v == MPI_IDENT ? 1 : v == MPI_CONGRUENT ? 2
           : v == MPI_SIMILAR ? 3 : v == MPI_UNEQUAL ? 4 : 0;
  if (cls == EN_TOPO)
    return v == MPI_GRAPH ? 1 : v == MPI_CART ? 2 : v == MPI_UNDEFINED ? 3 : 0;
  if (cls == EN_TYPECLASS)
    return v == MPI_TYPECLASS_REAL ? 1 : v == MPI_TYPECLASS_INTEGER ? 2
           : v == MPI_TYPECLASS_COMPLEX ? 3 : 0;
  if (cls == EN_DISTRIB)
    return v == MPI_DISTRIBUTE_BLOCK ? 1 : v == MPI_DISTRIBUTE_CYCLIC ? 2
           : v == MPI_DISTRIBUTE_NONE ? 3 : v == MPI_DISTRIBUTE_DFLT_DARG ? 4
           : 0;
  if (cls == EN_COMBINER) {
    static const int comb[][2] = {
        {MPI_COMBINER_NAMED, 1},         {MPI_COMBINER_DUP, 2},
        {MPI_COMBINER_CONTIGUOUS, 3},    {MPI_COMBINER_VECTOR, 4},
        {MPI_COMBINER_HVECTOR, 6},       {MPI_COMBINER_INDEXED, 7},
        {MPI_COMBINER_HINDEXED, 9},      {MPI_COMBINER_INDEXED_BLOCK, 10},
        {MPI_COMBINER_STRUCT, 12},       {MPI_COMBINER_SUBARRAY, 13},
        {MPI_COMBINER_DARRAY, 14},       {MPI_COMBINER_F90_REAL, 15},
        {MPI_COMBINER_F90_COMPLEX, 16},  {MPI_COMBINER_F90_INTEGER, 17},
        {MPI_COMBINER_RESIZED, 18}};
    for (size_t i = 0; i < sizeof comb / sizeof comb[0]; i++)
      if (v == comb[i][0]) return comb[i][1];
    return 0;
  }
  if (cls == EN_ASSERT) { /* bits: NOCHECK 1, NOSTORE 2, NOPUT 4,
                             NOPRECEDE 8, NOSUCCEED 16 */
    int64_t d = 0;
    if (v & MPI_MODE_NOCHECK) d |= 1;
    if (v & MPI_MODE_NOSTORE) d |= 2;
    if (v & MPI_MODE_NOPUT) d |= 4;
    if (v & MPI_MODE_NOPRECEDE) d |= 8;
    if (v & MPI_MODE_NOSUCCEED) d |= 16;
    return d;
  }
  if (cls == EN_AMODE) /* one flag; a combination is 0, as in DUMPI */
    return v == MPI_MODE_RDONLY            ? 1
           : v == MPI_MODE_RDWR            ? 2
           : v == MPI_MODE_WRONLY          ? 3
           : v == MPI_MODE_CREATE          ? 4
           : v == MPI_MODE_EXCL            ? 5
           : v == MPI_MODE_DELETE_ON_CLOSE ? 6
           : v == MPI_MODE_UNIQUE_OPEN     ? 7
           : v == MPI_MODE_SEQUENTIAL      ? 8
           : v == MPI_MODE_APPEND          ? 9 : 0;
  return v;
}

/* A file access mode as the names of its flags ("MPI_MODE_CREATE|
 * MPI_MODE_RDWR"): kept beside DUMPI's one-flag "amode" (argument
 * "amode_flags"). */
static void amode_flags(int v) {
  static const struct { int bit; const char *name; } fl[] = {
      {MPI_MODE_RDONLY, "MPI_MODE_RDONLY"},
      {MPI_MODE_RDWR, "MPI_MODE_RDWR"},
      {MPI_MODE_WRONLY, "MPI_MODE_WRONLY"},
      {MPI_MODE_CREATE, "MPI_MODE_CREATE"},
      {MPI_MODE_EXCL, "MPI_MODE_EXCL"},
      {MPI_MODE_DELETE_ON_CLOSE, "MPI_MODE_DELETE_ON_CLOSE"},
      {MPI_MODE_UNIQUE_OPEN, "MPI_MODE_UNIQUE_OPEN"},
      {MPI_MODE_SEQUENTIAL, "MPI_MODE_SEQUENTIAL"},
      {MPI_MODE_APPEND, "MPI_MODE_APPEND"}};
  static uint64_t key;
  if (!key) key = pt_rec_attribute("amode_flags", PT_TYPE_STRING) + 1;
  char o[256];
  size_t l = 0;
  o[0] = '\0';
  for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
    if (v & fl[i].bit)
      l += (size_t)snprintf(o + l, sizeof o - l, "%s%s", l ? "|" : "",
                            fl[i].name);
  uint8_t *w = enc_attr(0, key - 1, PT_TYPE_STRING, PT_VARINT_MAX + l + 1);
  if (w) enc_end(str_put(w, o, l));
}

/* MPI_File_close, MPI_Win_free, MPI_Group_free: their MPI_File * /
 * MPI_Win * / MPI_Group * argument is the handle they free (its value
 * before the call; after it, the null handle). */
static int handle_freed(int id) {
  return g_fn[id].sem == PT_MS_FILE_CLOSE || id == PT_MPI_ID_Win_free ||
         id == PT_MPI_ID_Group_free;
}

/* Argument j of call c as its attribute(s), any kind (the per-function
 * encoders below call it for the kinds they do not encode inline).  (c
 * and fi restrict: the attributes' bytes, stored through uint8_t
 * pointers, change neither, so the compiler keeps the call's id, values
 * and function entry in registers instead of reloading them after each
 * attribute) */
static inline __attribute__((always_inline)) void add_arg(
    const pt__mpi_call *restrict c, int j, int level, int ret) {
  const int id = c->id;
  const fninfo *restrict fi = &g_fn[id];
  int ok = ret == MPI_SUCCESS;
  const char *k = pt__mpi_kinds[id];
  int64_t v = c->v[j];
  switch (k[j]) {
    case 'C': case 'c': {
      int64_t h = k[j] == 'c' ? (int64_t)(intptr_t)*(MPI_Comm *)(intptr_t)v
                              : v;
      if (k[j] == 'c' && fi->sem == PT_MS_COMM_FREE)
        memcpy(&h, &c->reqs_inline[0], sizeof(void *));
      else if (k[j] == 'c' && (!ok || fi->sem == PT_MS_NOREG))
        h = (int64_t)(intptr_t)MPI_COMM_NULL; /* not valid (yet) */
      else if (k[j] == 'c' && (MPI_Comm)(intptr_t)h != MPI_COMM_NULL)
        comm_made(c, h); /* made by this call: defined with its parent */
      enc_int(id, j, (int64_t)comm_id(h));
      break;
    }
    case 'D': case 'd': {
      int64_t h = k[j] == 'd'
                      ? (int64_t)(intptr_t)*(MPI_Datatype *)(intptr_t)v
                      : v;
      if (k[j] == 'd' && fi->sem == PT_MS_TYPE_FREE)
        memcpy(&h, &c->reqs_inline[0], sizeof(void *));
      else if (k[j] == 'd' && !ok)
        h = (int64_t)(intptr_t)MPI_DATATYPE_NULL;
      hent *e = type_get((MPI_Datatype)(intptr_t)h);
      enc_int(id, j, e ? (int64_t)e->id : 0);
      break;
    }
    case 'O':
      enc_int(id, j, (int64_t)misc_id(&g_ops, &g_next_op, v));
      break;
    case 'o': /* MPI_Op_create's new op; MPI_Op_free's, before the call */
      if (id == PT_MPI_ID_Op_free)
        enc_int(id, j, (int64_t)misc_id(&g_ops, &g_next_op, c->hpre));
      else if (ok && v)
        enc_int(id, j,
                (int64_t)misc_id(&g_ops, &g_next_op,
                                 (int64_t)(intptr_t)*(MPI_Op *)(intptr_t)v));
      break;
    case 'G':
      enc_int(id, j, (int64_t)group_hid(v));
      break;
    case 'W': case 'F':
      enc_int(id, j, (int64_t)misc_id(&g_misc, &g_next_misc, v));
      break;
    case 'g':
      if (handle_freed(id)) /* the group freed, not MPI_GROUP_NULL */
        enc_int(id, j, (int64_t)group_hid(c->hpre));
      else if (ok)
        enc_int(id, j,
                (int64_t)group_hid(
                    (int64_t)(intptr_t)*(MPI_Group *)(intptr_t)v));
      break;
    case 'k': case 't': case 'n': case 'i': case 'l':
      /* (the calls made inline only where there is something to do) */
      enc_int(id, j, k[j] == 'i' && fi->enumk[j]
                            ? dumpi_enum(fi->enumk[j], v) : v);
      if (k[j] == 'i' && fi->enumk[j] == EN_AMODE)
        amode_flags((int)v);
      break;
    case 'A': { /* MPI_Aint / MPI_Offset / MPI_Count: array or output */
      const int64_t *p = (const int64_t *)(intptr_t)v;
      int len = array_len(c, j);
      if (len < 0 || (uintptr_t)p <= 4096) break;
      if (len == 0) {
        if (ok) enc_int(id, j, *p);
        break;
      }
      if (len > 4096) len = 4096;
      enc_ints(id, j, p, (size_t)len);
      break;
    }
    case 'f': case 'w': { /* MPI_File *, MPI_Win *: created or freed */
      int64_t h = c->hpre; /* a close or free: the handle before */
      if (!handle_freed(id)) {
        if (!ok || !v) break;
        h = k[j] == 'f' ? (int64_t)(intptr_t)*(MPI_File *)(intptr_t)v
                        : (int64_t)(intptr_t)*(MPI_Win *)(intptr_t)v;
      }
      enc_int(id, j, (int64_t)misc_id(&g_misc, &g_next_misc, h));
      break;
    }
    case 'x': /* MPI_Init's argv: its strings, one attribute each */
      if ((id == PT_MPI_ID_Init || id == PT_MPI_ID_Init_thread) &&
          ok && v && *(char ***)(intptr_t)v && c->v[0]) {
        char **argv = *(char ***)(intptr_t)v;
        int argc = *(const int *)(intptr_t)c->v[0];
        for (int q = 0; q < argc && q < 32 && argv[q]; q++)
          enc_str(id, j, argv[q], strnlen(argv[q], 1024));
      }
      break;
    case 'z': { /* a string the call reads (file name, info key...) */
      const char *str = (const char *)(intptr_t)v;
      if ((uintptr_t)str <= 4096) break;
      enc_str(id, j, str, strnlen(str, 4096));
      break;
    }
    case 'a': {
      const int *p = (const int *)(intptr_t)v;
      int len = fi->plural[j] ? array_len(c, j) : 0;
      if (len == ARR_EMPTY) {
        enc_ints(id, j, NULL, 0);
        break;
      }
      if (len < 0) break; /* not meaningful here, or length unknown */
      if (len == 0) {
        if ((uintptr_t)p > 4096)
          enc_int(id, j, fi->enumk[j]
                                ? dumpi_enum(fi->enumk[j], *p) : *p);
        break;
      }
      if ((uintptr_t)p <= 4096) break; /* MPI_UNWEIGHTED and friends */
      if (len > 4096) len = 4096;
      int64_t *o = ints_alloc((size_t)len);
      if (!o) break;
      int ek = fi->enumk[j];
      for (int q = 0; q < len; q++) o[q] = ek ? dumpi_enum(ek, p[q]) : p[q];
      enc_ints(id, j, o, (size_t)len);
      break;
    }
    case 'r': case 'q': {
      req *r = NULL;
      int sem = fi->sem;
      if (k[j] == 'r' && sem != PT_MS_WAIT && sem != PT_MS_TEST &&
          sem != PT_MS_START && sem != PT_MS_REQUEST_FREE &&
          sem != PT_MS_CANCEL) {
        /* a request this call creates: semantics() (next) gives it the
         * next id */
        MPI_Request h = v ? *(MPI_Request *)(intptr_t)v : MPI_REQUEST_NULL;
        enc_int(id, j,
                !ok ? 0 : h != MPI_REQUEST_NULL ? (int64_t)g_next_req : 1);
        break;
      }
      MPI_Request h = MPI_REQUEST_NULL;
      if (k[j] == 'q') h = (MPI_Request)(intptr_t)v;
      else if (c->nreqs == 1 && c->reqs == c->reqs_inline)
        h = c->reqs_inline[0];
      else if (v)
        h = *(MPI_Request *)(intptr_t)v;
      r = req_get(c, (int64_t)(intptr_t)h);
      enc_int(id, j, r ? (int64_t)r->hid : h == MPI_REQUEST_NULL ? 1 : 0);
      break;
    }
    case 'R': {
      if (!c->reqs || c->nreqs <= 0) break;
      int len = c->nreqs > 4096 ? 4096 : c->nreqs;
      int64_t *o = ints_alloc((size_t)len);
      if (!o) break;
      for (int q = 0; q < len; q++) {
        /* a shared handle seen earlier in the array: the next of its
         * requests (looked for only where a handle has several, so
         * that the usual array costs O(n), not O(n^2)) */
        hent *e = hfind(&g_reqs, (uintptr_t)c->reqs[q]);
        int dup = 0;
        if (e && e->info && ((req *)e->info)->next)
          for (int p = 0; p < q; p++) dup += c->reqs[p] == c->reqs[q];
        req *r = req_nth(c, (int64_t)(intptr_t)c->reqs[q], dup);
        o[q] = r ? (int64_t)r->hid
                 : c->reqs[q] == MPI_REQUEST_NULL ? 1 : 0;
      }
      enc_ints(id, j, o, (size_t)len);
      break;
    }
    case 's':
      {
        int64_t o[5];
        if (status_recorded(c, fi, j, v, level, o)) enc_ints(id, j, o, 5);
      }
      break;
    case 'u': /* a status the call reads (MPI_Get_count...); its error
               * field 0 as for the statuses calls return (unset) */
      if (level >= 3 && (uintptr_t)v > 4096) {
        int64_t o[5];
        status_vals((const MPI_Status *)(intptr_t)v, o, 0);
        enc_ints(id, j, o, 5);
      }
      break;
    case 'T': { /* datatypes the call reads, one per entry */
      const MPI_Datatype *p = (const MPI_Datatype *)(intptr_t)v;
      int len = array_len(c, j);
      if (len <= 0 || (uintptr_t)p <= 4096) break;
      if (len > 4096) len = 4096;
      int64_t *o = ints_alloc((size_t)len);
      if (!o) break;
      for (int q = 0; q < len; q++) {
        hent *e = type_get(p[q]);
        o[q] = e ? (int64_t)e->id : 0;
      }
      enc_ints(id, j, o, (size_t)len);
      break;
    }
    case 'S': {
      if (level < 3 || !v || c->count <= 0) break;
      if (c->sts && v == (int64_t)(intptr_t)c->sts) break; /* IGNORE */
      int len = c->count > 819 ? 819 : c->count;
      /* Waitsome/Testsome: only the first outcount statuses are set */
      int oc = fi->pos['a'][0];
      if ((fi->sem == PT_MS_WAITSOME ||
           fi->sem == PT_MS_TESTSOME) && oc >= 0) {
        int o = int_value((void *)(intptr_t)c->v[oc]);
        len = o > 0 && o < len ? o : (o > 0 ? len : 0);
      }
      if (fi->sem == PT_MS_TESTALL) {
        int fl = fi->pos['a'][0];
        if (fl >= 0 && !int_value((void *)(intptr_t)c->v[fl])) len = 0;
      }
      if (!len) break;
      int64_t *o = ints_alloc(5 * (size_t)len);
      if (!o) break;
      for (int q = 0; q < len; q++) {
        status_vals((const MPI_Status *)(intptr_t)v + q, o + 5 * q,
                    ret == MPI_ERR_IN_STATUS);
        if (io_status(c, q)) io_status_vals(o + 5 * q);
      }
      enc_ints(id, j, o, 5 * (size_t)len);
      break;
    }
    default:
      break; /* buffers, infos, strings, callbacks: not recorded */
  }
}

/* add_arg out of line (one copy of its switch) */
static __attribute__((noinline)) void add_arg_slow(
    const pt__mpi_call *restrict c, int j, int level, int ret) {
  add_arg(c, j, level, ret);
}

/* The arguments of a collective: those meaningful on this rank (a
 * gather's receive side off the root, a scatter's send side are not, and
 * may be garbage: not read). */
static __attribute__((noinline)) void add_coll_args(
    const pt__mpi_call *restrict c, int level, int ret) {
  const fninfo *fi = &g_fn[c->id];
  int n = c->n < PT_MPI_MAXARGS ? c->n : PT_MPI_MAXARGS;
  int cj = fi->pos['C'][0];
  coll_shape sh = shape_of(c, cj >= 0 ? comm_get(c->v[cj]) : NULL);
  for (int j = 0; j < n; j++)
    if (coll_significant(&sh, j)) add_arg_slow(c, j, level, ret);
}

/* Each function's arguments, encoded by a function generated from its
 * row of mpi_table.h: one step per argument, in order, with the kind a
 * constant, so that the common kinds (ranks, tags, counts, plain
 * integers, communicators and datatypes, a status) are encoded inline
 * with no loop over descriptors and no switch at run time; the rest go
 * through add_arg_slow, collectives through add_coll_args.  The same
 * bytes as one add_arg per argument in order. */
static const unsigned char sem_const[PT_MPI_NFUNCS] = {
#define PT_MPI_SEM(name, S, K) [PT_MPI_ID_##name] = PT_MS_##S,
#include "mpi_sem.h"
#undef PT_MPI_SEM
};

/* The generated encoders write through a cursor kept in registers (the
 * write pointer, the last position with room for an attribute key, type
 * and integer value, and the attribute count), stored back to the
 * thread's buffer only around the steps that use it themselves. */
typedef struct ecur {
  uint8_t *w, *lim;
  uint32_t na;
} ecur;

static inline __attribute__((always_inline)) void ecur_open(ecur *e) {
  scratch *s = &t_scr;
  e->w = s->b + s->len;
  e->lim = s->b + s->cap - (8 + PT_VARINT_MAX);
  e->na = s->na;
}

static inline __attribute__((always_inline)) void ecur_close(const ecur *e) {
  scratch *s = &t_scr;
  s->len = (size_t)(e->w - s->b);
  s->na = e->na;
}

/* enc_int through the cursor */
static inline __attribute__((always_inline)) void ecur_int(ecur *e, int id,
                                                           int j, int64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t pre = __atomic_load_n(&g_fn[id].pre[j][0], __ATOMIC_RELAXED);
  if (PT_LIKELY(pre && e->na < ENC_MAXATTRS && e->w <= e->lim)) {
    uint8_t *w = put_packed(e->w, pre);
    e->w = w + pt__varint_put(w, pt__zigzag(v));
    e->na++;
    return;
  }
#endif
  ecur_close(e);
  enc_int_slow(id, j, v);
  ecur_open(e);
}

/* enc_ints of 5 values (a status) through the cursor: key and type of an
 * integer array, the count and the values, under enc_ints's room check
 * (8 + PT_VARINT_MAX + 1 + 6 * PT_VARINT_MAX bytes free). */
static inline __attribute__((always_inline)) void ecur_ints5(
    ecur *e, int id, int j, const int64_t *o) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t pre = __atomic_load_n(&g_fn[id].pre[j][1], __ATOMIC_RELAXED);
  if (PT_LIKELY(pre && e->na < ENC_MAXATTRS &&
                e->w + 6 * PT_VARINT_MAX + 1 <= e->lim)) {
    uint8_t *w = put_packed(e->w, pre);
    *w++ = 5;
    for (int q = 0; q < 5; q++) w += pt__varint_put(w, pt__zigzag(o[q]));
    e->w = w;
    e->na++;
    return;
  }
#endif
  ecur_close(e);
  enc_ints(id, j, o, 5);
  ecur_open(e);
}

static inline __attribute__((always_inline)) void enc_kind(
    const pt__mpi_call *restrict c, ecur *e, int id, char k, int j,
    int level, int ret) {
  const fninfo *fi = &g_fn[id];
  int64_t v = c->v[j];
  switch (k) {
    case 'b': /* buffers: not recorded */
      return;
    case 'x': /* MPI_Init's argv (add_arg); other opaque values: none */
      if (id != PT_MPI_ID_Init && id != PT_MPI_ID_Init_thread) return;
      break;
    case 'k': case 't': case 'n': case 'l':
      ecur_int(e, id, j, v);
      return;
    case 'i':
      if (fi->enumk[j]) break;
      ecur_int(e, id, j, v);
      return;
    case 'C':
      ecur_int(e, id, j, (int64_t)comm_id(v));
      return;
    case 'D': {
      hent *h = type_get((MPI_Datatype)(intptr_t)v);
      ecur_int(e, id, j, h ? (int64_t)h->id : 0);
      return;
    }
    case 'a': /* one int the call reads or returns */
      if (fi->plural[j] || fi->enumk[j]) break;
      if ((uintptr_t)v > 4096) ecur_int(e, id, j, *(const int *)(intptr_t)v);
      return;
    case 's':
      {
        int64_t o[5];
        if (status_recorded(c, fi, j, v, level, o)) ecur_ints5(e, id, j, o);
      }
      return;
    default:
      break;
  }
  ecur_close(e);
  add_arg_slow(c, j, level, ret);
  ecur_open(e);
}

#define ENC_ARG(K, j, x) enc_kind(c, &e, id, (K)[j], j, level, ret);
#define PT_MPI_FN(name, rtype, params, args, kinds)                        \
  static void enc_##name(const pt__mpi_call *restrict c, int level,         \
                         int ret) {                                         \
    enum { id = PT_MPI_ID_##name };                                         \
    if (sem_const[id] == PT_MS_COLL || sem_const[id] == PT_MS_ICOLL) {      \
      add_coll_args(c, level, ret);                                         \
      return;                                                               \
    }                                                                       \
    ecur e;                                                                 \
    ecur_open(&e);                                                          \
    PT_MPI_EACH(ENC_ARG, kinds, args)                                       \
    ecur_close(&e);                                                         \
    (void)c, (void)level, (void)ret;                                        \
  }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "mpi_table.h"
#pragma GCC diagnostic pop
#undef PT_MPI_FN
#undef ENC_ARG

static void (*const enc_args[PT_MPI_NFUNCS])(const pt__mpi_call *restrict,
                                             int, int) = {
#define PT_MPI_FN(name, rtype, params, args, kinds) \
  [PT_MPI_ID_##name] = enc_##name,
#include "mpi_table.h"
#undef PT_MPI_FN
};

/* ---- semantic events ---------------------------------------------------- */

/* An event with every other field zero.  Copied from a constant: a
 * designated initialiser of the whole struct compiles to `rep stos`,
 * which costs about 10 ns per event on the test machine. */
static const pt_event ev_zero;
static inline void ev_set(pt_event *e, uint64_t t, uint32_t kind,
                          uint64_t ref) {
  *e = ev_zero;
  e->time = t;
  e->kind = kind;
  e->ref = ref;
}

static __thread __attribute__((tls_model("initial-exec"))) int t_quiet; /* bookkeeping only, no events */
/* The ENTER of the call being recorded, encoded but not yet written:
 * written with its LEAVE in one go, or before the first event between
 * them (pend_flush). */
static __thread __attribute__((tls_model("initial-exec"))) struct {
  uint64_t t;
  const uint8_t *b;
  size_t n;
} t_pend;

/* The events the call implies (a message, a request, a completion...),
 * encoded while its ENTER waits in t_pend: the call's events are then
 * written in one go with its LEAVE (a handful of them at most; more, or a
 * larger one, and the waiting ones are written first). */
enum { EXT_MAX = 6, EXT_CAP = 512 };
static __thread __attribute__((tls_model("initial-exec"))) struct {
  uint64_t t[EXT_MAX];
  uint16_t off[EXT_MAX + 1]; /* event i: b[off[i]..off[i + 1]) */
  int n;
  uint8_t b[EXT_CAP];
} t_ext;

/* Until its ENTER is written, the call stays this thread's open call
 * (pt__rec_open): a process killed in between still shows it entered. */
static void pend_flush(void) {
  if (t_pend.n) {
    size_t n = t_pend.n;
    t_pend.n = 0;
    pt__rec_event_enc(t_pend.t, t_pend.b, n);
    __atomic_store_n(&pt__rec_open.region, 0, __ATOMIC_RELAXED);
  }
  for (int i = 0; i < t_ext.n; i++)
    pt__rec_event_enc(t_ext.t[i], t_ext.b + t_ext.off[i],
                      (size_t)(t_ext.off[i + 1] - t_ext.off[i]));
  t_ext.n = 0;
}

/* Where the next event goes in t_ext (room for PT__EVENT_PLAIN_MAX
 * bytes), or NULL when there is no waiting ENTER or no room. */
static inline uint8_t *ext_room(void) {
  if (!t_pend.n || t_ext.n >= EXT_MAX) return NULL;
  size_t at = t_ext.off[t_ext.n]; /* off[0] is 0 */
  return EXT_CAP - at >= PT__EVENT_PLAIN_MAX ? t_ext.b + at : NULL;
}

/* The n bytes written at ext_room() are an event at time t. */
static inline void ext_commit(uint64_t t, size_t n) {
  t_ext.t[t_ext.n] = t;
  t_ext.off[t_ext.n + 1] = (uint16_t)(t_ext.off[t_ext.n] + n);
  t_ext.n++;
}

/* e encoded into t_ext behind the waiting ENTER: 1, or 0 when there is
 * none, or no room, or e is not a plain event (attributes, a value or
 * text; an invalid one, which pt_rec_event reports). */
static int ext_add(const pt_event *e) {
  uint8_t *w = ext_room();
  size_t n = w ? pt__event_put_plain(w, e) : 0;
  if (n) ext_commit(e->time, n);
  return n != 0;
}

static void emit(pt_event *e) {
  if (!t_quiet) {
    if (ext_add(e)) return;
    pend_flush();
    pt_rec_event(e);
  }
}

/* The call site of the call being recorded (PT_NONE: not known): the
 * callsite of its messages. */
static __thread __attribute__((tls_model("initial-exec"))) uint64_t t_site =
    PT_NONE;

static void __attribute__((noinline)) ev_p2p_slow(uint32_t kind, uint64_t t,
                                                  int64_t peer, int64_t tag,
                                                  uint64_t comm, uint64_t bytes,
                                                  uint64_t request) {
  pt_event e = ev_zero;
  e.time = t;
  e.kind = kind;
  e.ref = t_site;
  e.peer = peer;
  e.tag = tag;
  e.comm = comm;
  e.size = bytes;
  e.request = request;
  emit(&e);
}

/* t_site + 1 as a varint, packed (pack_bytes), or 0 (not known, or too
 * long to pack) */
static __thread __attribute__((tls_model("initial-exec"))) uint64_t
    t_site_ref;

/* pt__event_put_fields inline (kind a constant where it is called), the
 * call site's reference written from its packed form */
static inline __attribute__((always_inline)) size_t p2p_put(
    uint8_t *p, uint32_t kind, int64_t peer, uint64_t comm, int64_t tag,
    uint64_t size, uint64_t request) {
  if (kind == PT_EV_INVALID || kind >= PT_EV__COUNT || kind >= 64) return 0;
  uint32_t m = pt__ev_mask[kind];
  if (m & ((1u << PT_ESLOT_VALUE) | (1u << PT_ESLOT_TEXT))) return 0;
  uint8_t *w = p;
  *w++ = (uint8_t)kind;
  if (m & (1u << PT_ESLOT_REF)) {
    uint64_t r = t_site_ref;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (PT_LIKELY(r)) w = put_packed(w, r); /* 8 bytes: PLAIN_MAX allows */
    else
#endif
      w += pt__varint_put(w, t_site + 1);
  }
  if (m & (1u << PT_ESLOT_PEER)) w += pt__varint_put(w, pt__zigzag(peer));
  if (m & (1u << PT_ESLOT_COMM)) w += pt__varint_put(w, comm);
  if (m & (1u << PT_ESLOT_TAG)) w += pt__varint_put(w, pt__zigzag(tag));
  if (m & (1u << PT_ESLOT_SIZE)) w += pt__varint_put(w, size);
  if (m & (1u << PT_ESLOT_SIZE2)) w += pt__varint_put(w, 0);
  if (m & (1u << PT_ESLOT_REQUEST)) w += pt__varint_put(w, request);
  return (size_t)(w - p);
}

/* A message or request event of the call being recorded: encoded behind
 * its ENTER (written with its LEAVE), or written now. */
static inline void ev_p2p(uint32_t kind, uint64_t t, int64_t peer,
                          int64_t tag, uint64_t comm, uint64_t bytes,
                          uint64_t request) {
  uint8_t *w = t_quiet ? NULL : ext_room();
  size_t n = w ? p2p_put(w, kind, peer, comm, tag, bytes, request) : 0;
  if (n)
    ext_commit(t, n);
  else
    ev_p2p_slow(kind, t, peer, tag, comm, bytes, request);
}


static uint64_t count_bytes(const pt__mpi_call *c, int nth) {
  int64_t n = VAL('n', nth);
  return n > 0 ? (uint64_t)n * type_size(VAL('D', nth)) : 0;
}

/* Profile mode: the partners of the persistent requests an MPI_Start /
 * MPI_Startall started, the sources of the receives a wait or test
 * completed, and the two of an MPI_Sendrecv(_replace) (a
 * destination key each: the rank, with PT__PROFILE_FROM for a receive's
 * source; the same key once, its bytes summed).  Set by semantics(), read
 * by pt__mpi_end() in the same thread.  Only destination lines come from
 * here: the statement's bytes are the call's (c->pbytes), with the
 * partners that have no rank (MPI_ANY_SOURCE) or do not fit. */
enum { MAX_PARTS = 64 };
static __thread uint64_t t_part_key[MAX_PARTS], t_part_bytes[MAX_PARTS];
static __thread int t_nparts;

static void part_put(uint64_t k, uint64_t bytes) {
  for (int i = 0; i < t_nparts; i++)
    if (t_part_key[i] == k) {
      t_part_bytes[i] += bytes;
      return;
    }
  if (t_nparts == MAX_PARTS) return;
  t_part_key[t_nparts] = k;
  t_part_bytes[t_nparts++] = bytes;
}

static void part_add(const req *r) {
  if (r->peer < 0) return; /* MPI_ANY_SOURCE, unknown: no destination */
  part_put((uint64_t)r->peer | (r->kind == RQ_RECV ? PT__PROFILE_FROM : 0),
           r->bytes);
}

/* Complete request handle h of call c with status st (NULL: none) at
 * time t. */
static void complete(pt__mpi_call *c, int64_t h, const MPI_Status *st,
                     uint64_t t) {
  req *r = req_get(c, h);
  if (!r || !r->active) return;
  /* a request with MPI_PROC_NULL had no ISEND / IRECV_REQUEST: nothing
   * completes (or is cancelled) in the trace either */
  if (r->peer == INT64_MIN && (r->kind == RQ_SEND || r->kind == RQ_RECV))
    goto done;
  int cancelled = 0;
  /* only a point-to-point request's status says whether it was cancelled
   * (an MPI-IO request's leaves the field as the program's memory had it) */
  if (st && (r->kind == RQ_SEND || r->kind == RQ_RECV))
    PMPI_Test_cancelled(st, &cancelled);
  if (cancelled) {
    pt_event e = ev_zero;
    e.time = t;
    e.kind = PT_EV_REQUEST_CANCELLED;
    e.request = r->model;
    emit(&e);
  } else if (r->kind == RQ_SEND) {
    pt_event e = ev_zero;
    e.time = t;
    e.kind = PT_EV_ISEND_COMPLETE;
    e.request = r->model;
    emit(&e);
  } else if (r->kind == RQ_RECV) {
    int64_t peer = r->peer, tag = r->tag;
    uint64_t bytes = r->bytes;
    if (st) {
      if (st->MPI_SOURCE == MPI_PROC_NULL) peer = INT64_MIN;
      else if (st->MPI_SOURCE >= 0) {
        hent *he = hfind(&g_comms, (uintptr_t)r->comm_handle);
        comm_info *ci = he ? he->info : NULL;
        peer = world_rank(ci && ci->id == r->comm ? ci : NULL,
                          st->MPI_SOURCE);
      }
      if (st->MPI_TAG >= 0) tag = st->MPI_TAG;
      status_bytes(st, &bytes);
    }
    if (peer != INT64_MIN)
      ev_p2p(PT_EV_IRECV, t, peer, tag, r->comm, bytes, r->model);
    /* the profile's statement: a receive (persistent or not) moves its
     * bytes (the status's, not the buffer's) where it completes, from the
     * source its status names, as a blocking receive does */
    if (g_profiling && peer != INT64_MIN) {
      c->pbytes += bytes;
      if (peer >= 0) part_put((uint64_t)peer | PT__PROFILE_FROM, bytes);
    }
  } else if (r->kind == RQ_COMM && r->comm_handle) {
    /* MPI_Comm_idup's communicator exists now: defined (first sight)
     * with the one it duplicates as parent, as MPI_Comm_dup's is */
    MPI_Comm nc = *(MPI_Comm *)(intptr_t)r->comm_handle;
    g_comm_seq_forced = r->tag;
    if (nc != MPI_COMM_NULL)
      comm_made_from(r->comm, "MPI_Comm_idup", (int64_t)(intptr_t)nc);
    g_comm_seq_forced = -1;
  } else if (r->kind == RQ_IO) {
    uint64_t bytes = r->bytes;
    if (st) status_bytes(st, &bytes);
    pt_event e = ev_zero;
    e.time = t;
    e.kind = PT_EV_IO_END;
    e.ref = r->comm;
    e.size = bytes;
    e.request = IO_MATCH(r->model);
    emit(&e);
  }
done:
  if (r->persistent) r->active = 0;
  else req_drop(h, r);
}

/* A wait or test: completes requests. */
static int completes(int sem) {
  return sem == PT_MS_WAIT || sem == PT_MS_TEST || sem == PT_MS_WAITANY ||
         sem == PT_MS_TESTANY || sem == PT_MS_WAITALL ||
         sem == PT_MS_TESTALL || sem == PT_MS_WAITSOME ||
         sem == PT_MS_TESTSOME;
}

/* Start persistent request r (req_get of its handle) at time t. */
static void start(req *r, uint64_t t) {
  if (!r || !r->persistent) return;
  r->active = 1;
  r->model = g_next_req++;
  if (r->peer == INT64_MIN) return;
  if (r->kind == RQ_SEND)
    ev_p2p(PT_EV_ISEND, t, r->peer, r->tag, r->comm, r->bytes, r->model);
  else if (r->kind == RQ_RECV) {
    pt_event e = ev_zero;
    e.time = t;
    e.kind = PT_EV_IRECV_REQUEST;
    e.request = r->model;
    emit(&e);
  }
}

static const MPI_Status *status_arg(const pt__mpi_call *c, int q) {
  int s = ARG('s', 0) >= 0 ? ARG('s', 0) : ARG('S', 0);
  if (s < 0 || !c->v[s]) return NULL;
  return (const MPI_Status *)(intptr_t)c->v[s] + q;
}

static void coll_bytes(const pt__mpi_call *c, comm_info *ci,
                       uint64_t *sent, uint64_t *recvd) {
  coll_shape sh = shape_of(c, ci);
  int N0 = ARG('n', 0), N1 = ARG('n', 1), D0 = ARG('D', 0), D1 = ARG('D', 1);
  int A0 = ARG('a', 0), A2 = ARG('a', 2);
  uint64_t n = ci ? (uint64_t)ci->rsize : 0;
  int me = ci ? ci->rank : -1;
  *sent = *recvd = 0;
  switch (sh.op) {
    case PT_COLL_BCAST:
      if (sh.is_root) *sent = sig_bytes(c, &sh, N0, D0);
      else *recvd = sig_bytes(c, &sh, N0, D0);
      break;
    case PT_COLL_REDUCE:
      *sent = sig_bytes(c, &sh, N0, D0);
      if (sh.is_root) *recvd = *sent;
      if (sh.role == ROLE_ROOT) *sent = 0; /* the other group sends */
      break;
    case PT_COLL_ALLREDUCE: case PT_COLL_SCAN: case PT_COLL_EXSCAN:
      *sent = *recvd = sig_bytes(c, &sh, N0, D0);
      break;
    /* With MPI_IN_PLACE the side MPI ignores counts as the block this rank
     * keeps in place (what it would have sent or received): sent and
     * received totals agree, as without MPI_IN_PLACE. */
    case PT_COLL_GATHER:
      *recvd = sig_bytes(c, &sh, N1, D1) * n;
      *sent = sh.in_place ? sig_bytes(c, &sh, N1, D1)
                          : sig_bytes(c, &sh, N0, D0);
      break;
    case PT_COLL_GATHERV: /* bnD b a a D */
      *recvd = sum_counts(c, &sh, A0) * sig_size(c, &sh, D1);
      *sent = sh.in_place ? own_count(c, A0, me) * sig_size(c, &sh, D1)
                          : sig_bytes(c, &sh, N0, D0);
      break;
    case PT_COLL_SCATTER:
      *sent = sig_bytes(c, &sh, N0, D0) * n;
      *recvd = sh.in_place ? sig_bytes(c, &sh, N0, D0)
                           : sig_bytes(c, &sh, N1, D1);
      break;
    case PT_COLL_SCATTERV: /* b a a D b n D */
      *sent = sum_counts(c, &sh, A0) * sig_size(c, &sh, D0);
      *recvd = sh.in_place ? own_count(c, A0, me) * sig_size(c, &sh, D0)
                           : sig_bytes(c, &sh, N0, D1);
      break;
    case PT_COLL_ALLGATHER:
      *sent = sh.in_place ? sig_bytes(c, &sh, N1, D1)
                          : sig_bytes(c, &sh, N0, D0);
      *recvd = sig_bytes(c, &sh, N1, D1) * (uint64_t)sh.recvn;
      break;
    case PT_COLL_ALLGATHERV:
      *sent = sh.in_place ? own_count(c, A0, me) * sig_size(c, &sh, D1)
                          : sig_bytes(c, &sh, N0, D0);
      *recvd = sum_counts(c, &sh, A0) * sig_size(c, &sh, D1);
      break;
    case PT_COLL_ALLTOALL:
      *sent = sh.in_place ? sig_bytes(c, &sh, N1, D1) * (uint64_t)sh.sendn
                          : sig_bytes(c, &sh, N0, D0) * (uint64_t)sh.sendn;
      *recvd = sig_bytes(c, &sh, N1, D1) * (uint64_t)sh.recvn;
      break;
    case PT_COLL_ALLTOALLV: /* b a a D b a a D */
      *recvd = sum_counts(c, &sh, A2) * sig_size(c, &sh, D1);
      *sent = sh.in_place ? *recvd
                          : sum_counts(c, &sh, A0) * sig_size(c, &sh, D0);
      break;
    case PT_COLL_ALLTOALLW: /* b a a T b a a T: types are T0, T1 */
      *recvd = sum_w(c, &sh, A2, ARG('T', 1));
      *sent = sh.in_place ? *recvd : sum_w(c, &sh, A0, ARG('T', 0));
      break;
    case PT_COLL_NEIGHBOR_ALLGATHER: case PT_COLL_NEIGHBOR_ALLGATHERV:
    case PT_COLL_NEIGHBOR_ALLTOALL: case PT_COLL_NEIGHBOR_ALLTOALLV:
    case PT_COLL_NEIGHBOR_ALLTOALLW:
      nbr_bytes(c, ci, &sh, sent, recvd);
      break;
    case PT_COLL_REDUCE_SCATTER: { /* b b a D: recvcounts on every rank */
      const int *rc = (const int *)(intptr_t)(A0 >= 0 ? c->v[A0] : 0);
      uint64_t ts = sig_size(c, &sh, D0);
      *sent = sum_counts(c, &sh, A0) * ts;
      /* rc has a count per rank of the local group (sh.sendn) */
      if ((uintptr_t)rc > 4096 && me >= 0 && me < sh.sendn)
        *recvd = (uint64_t)(rc[me] > 0 ? rc[me] : 0) * ts;
      break;
    }
    case PT_COLL_REDUCE_SCATTER_BLOCK:
      *recvd = sig_bytes(c, &sh, N0, D0);
      *sent = *recvd * (uint64_t)sh.sendn;
      break;
    default:
      break;
  }
}

/* The communicator of the message an MPI_Mrecv / MPI_Imrecv receives
 * (remembered at its MPI_Mprobe / MPI_Improbe; COMM_WORLD if unknown). */
static int64_t message_comm(const pt__mpi_call *c) {
  int64_t m = 0;
  if (c->nreqs == -1) memcpy(&m, &c->reqs_inline[0], sizeof(void *));
  hent *e = m ? hfind(&g_msgs, (uintptr_t)m) : NULL;
  int64_t comm = e ? (int64_t)e->id : (int64_t)(intptr_t)MPI_COMM_WORLD;
  if (e) hdel(&g_msgs, (uintptr_t)m);
  return comm;
}

/* Imrecv / Mrecv of the message a matched probe of MPI_PROC_NULL gave:
 * nothing is received (no events, as for a receive from MPI_PROC_NULL). */
static int message_noproc(const pt__mpi_call *c) {
  int64_t m = 0;
  if (c->nreqs == -1) memcpy(&m, &c->reqs_inline[0], sizeof(void *));
  return m && (MPI_Message)(intptr_t)m == MPI_MESSAGE_NO_PROC;
}

/* The archive id of an open MPI file (the I/O handle definition and the
 * ref of I/O events): the rank in the high half, so that ranks do not
 * collide. */
static uint64_t io_handle_id(int64_t fh) {
  return ((uint64_t)(uint32_t)g_rank << 32) | misc_id(&g_misc, &g_next_misc, fh);
}

/* MPI_File_open succeeded: the file (id from its name, so that every rank
 * agrees), the paradigm (MPI-IO, id 0, once) and this rank's handle. */
static void def_open_file(const pt__mpi_call *c) {
  int fj = g_fn[c->id].pos['f'][0], nj = g_fn[c->id].pos['z'][0];
  if (fj < 0 || !c->v[fj]) return;
  MPI_File fh = *(MPI_File *)(intptr_t)c->v[fj];
  const char *path = nj >= 0 ? (const char *)(intptr_t)c->v[nj] : NULL;
  char name[4096];
  snprintf(name, sizeof name, "%s", (uintptr_t)path > 4096 ? path : "?");
  static int paradigm;
  if (!paradigm) {
    paradigm = 1;
    /* OTF2's IoParadigm, as the model keeps it: class parallel (1), no
     * flags, identification MPI-IO */
    pt_def p = {.kind = PT_DEF_KEYVAL, .id = PT_NONE, .parent = 0,
                .name = "otf2:io_paradigm", .s1 = "1 0 MPI-IO"};
    pt_rec_def(&p);
    pt_def pn = {.kind = PT_DEF_KEYVAL, .id = PT_NONE, .parent = 0,
                 .name = "otf2:io_paradigm.name", .s1 = "MPI I/O"};
    pt_rec_def(&pn);
  }
  uint64_t file = pt__fnv1a(name, 0) & 0xffffffffu;
  pt_def fd = {.kind = PT_DEF_FILE, .id = file, .parent = PT_NONE,
               .name = name};
  pt_rec_def(&fd);
  pt_def hd = {.kind = PT_DEF_IO_HANDLE,
               .id = io_handle_id((int64_t)(intptr_t)fh),
               .parent = PT_NONE, .ref = file,
               .ref2 = comm_id(VAL('C', 0)), .i0 = 0, .i1 = 0,
               .name = name};
  pt_rec_def(&hd);
}

/* A one-sided operation (class sem, RMA_*) that returned at t: its RMA_*
 * event at the origin.  The bytes are the origin's side: what it sends
 * (origin_count x origin_datatype; none for an MPI_NO_OP get-accumulate or
 * fetch-and-op, whose origin buffer MPI ignores; a compare-and-swap's
 * value and its comparand) and what comes back into its buffers (a get's
 * origin buffer, a get-accumulate's result_count x result_datatype, one
 * element of a fetch-and-op or compare-and-swap). */
static void rma(pt__mpi_call *c, int sem, uint64_t t) {
  int k = (int)VAL('k', 0);
  if (k == MPI_PROC_NULL) return; /* no operation, as a message to it */
  win_info *w = win_get(VAL('W', 0));
  int64_t peer = w && k >= 0 && k < w->size ? w->world[k] : -1;
  int no_op = ARG('O', 0) >= 0 &&
              (MPI_Op)(intptr_t)VAL('O', 0) == MPI_NO_OP;
  uint64_t one = type_size(VAL('D', 0)), sent = 0, recvd = 0;
  pt_event e = ev_zero;
  e.time = t;
  e.kind = PT_EV_RMA_ATOMIC;
  switch (sem) {
    case PT_MS_RMA_PUT:
      e.kind = PT_EV_RMA_PUT;
      sent = count_bytes(c, 0);
      break;
    case PT_MS_RMA_GET:
      e.kind = PT_EV_RMA_GET;
      recvd = count_bytes(c, 0);
      break;
    case PT_MS_RMA_ACC:
      e.tag = PT_RMA_ACCUMULATE;
      sent = count_bytes(c, 0);
      break;
    case PT_MS_RMA_GACC:
      e.tag = PT_RMA_FETCH_AND_ACCUMULATE;
      sent = no_op ? 0 : count_bytes(c, 0);
      recvd = count_bytes(c, 1);
      break;
    case PT_MS_RMA_FOP:
      e.tag = PT_RMA_FETCH_AND_ACCUMULATE;
      sent = no_op ? 0 : one;
      recvd = one;
      break;
    default: /* PT_MS_RMA_CAS */
      e.tag = PT_RMA_COMPARE_AND_SWAP;
      sent = 2 * one;
      recvd = one;
      break;
  }
  e.ref = misc_id(&g_misc, &g_next_misc, VAL('W', 0));
  e.peer = peer;
  e.comm = w ? w->comm : PT_NONE;
  e.size = sent;
  e.size2 = recvd;
  emit(&e);
  c->pdest = peer;
  c->pbytes = sent + recvd;
}

static void semantics(pt__mpi_call *c, uint64_t t0, uint64_t t1, int ret) {
  const fninfo *f = &g_fn[c->id];
  int ok = ret == MPI_SUCCESS;
  switch (f->sem) {
    case PT_MS_FILE_OPEN:
      if (ok) def_open_file(c);
      break;
    case PT_MS_SEND: {
      comm_info *ci = comm_get(VAL('C', 0));
      int64_t p = world_rank(ci, (int)VAL('k', 0));
      uint64_t bytes = count_bytes(c, 0);
      if (ok && p != INT64_MIN)
        ev_p2p(PT_EV_SEND, t0, p, VAL('t', 0), ci ? ci->id : PT_NONE, bytes,
               0);
      c->pdest = p == INT64_MIN ? -1 : p;
      c->pbytes = bytes;
      break;
    }
    case PT_MS_RECV: {
      const MPI_Status *st = status_arg(c, 0);
      if (!ok || !st || st->MPI_SOURCE == MPI_PROC_NULL) break;
      comm_info *ci;
      if (c->id == PT_MPI_ID_Mrecv)
        ci = comm_get(message_comm(c));
      else
        ci = comm_get(VAL('C', 0));
      uint64_t n = 0;
      status_bytes(st, &n);
      ev_p2p(PT_EV_RECV, t1, world_rank(ci, st->MPI_SOURCE), st->MPI_TAG,
             ci ? ci->id : PT_NONE, n, 0);
      c->pdest = world_rank(ci, st->MPI_SOURCE);
      c->pbytes = n;
      break;
    }
    case PT_MS_SENDRECV: {
      comm_info *ci = comm_get(VAL('C', 0));
      int64_t p = world_rank(ci, (int)VAL('k', 0));
      t_nparts = 0;
      if (!ok) break;
      uint64_t sent = count_bytes(c, 0);
      if (p != INT64_MIN) {
        ev_p2p(PT_EV_SEND, t0, p, VAL('t', 0), ci ? ci->id : PT_NONE, sent,
               0);
        if (p >= 0) part_put((uint64_t)p, sent);
      }
      c->pbytes = p != INT64_MIN ? sent : 0;
      /* the profile's statement: both directions, as a collective's */
      const MPI_Status *st = status_arg(c, 0);
      if (st && st->MPI_SOURCE != MPI_PROC_NULL) {
        uint64_t n = 0;
        status_bytes(st, &n);
        int64_t from = world_rank(ci, st->MPI_SOURCE);
        ev_p2p(PT_EV_RECV, t1, from, st->MPI_TAG, ci ? ci->id : PT_NONE, n,
               0);
        c->pbytes += n;
        if (from >= 0) part_put((uint64_t)from | PT__PROFILE_FROM, n);
      }
      break;
    }
    case PT_MS_ISEND: case PT_MS_IRECV: case PT_MS_SEND_INIT:
    case PT_MS_RECV_INIT: {
      if (!ok) break;
      int send = f->sem == PT_MS_ISEND || f->sem == PT_MS_SEND_INIT;
      int pers = f->sem == PT_MS_SEND_INIT || f->sem == PT_MS_RECV_INIT;
      int ri = ARG('r', 0);
      if (ri < 0 || !c->v[ri]) break;
      int64_t h = (int64_t)(intptr_t)*(MPI_Request *)(intptr_t)c->v[ri];
      req *r = req_new(h, send ? RQ_SEND : RQ_RECV);
      if (!r) break;
      int64_t chandle = VAL('C', 0);
      if (c->id == PT_MPI_ID_Imrecv) chandle = message_comm(c);
      comm_info *ci = comm_get(chandle);
      r->comm_handle = chandle;
      r->persistent = (uint8_t)pers;
      r->comm = ci ? ci->id : PT_NONE;
      r->peer = c->id != PT_MPI_ID_Imrecv ? world_rank(ci, (int)VAL('k', 0))
                : message_noproc(c)         ? INT64_MIN
                                            : -1;
      r->tag = ARG('t', 0) >= 0 ? VAL('t', 0) : -1;
      r->bytes = count_bytes(c, 0);
      c->pdest = r->peer == INT64_MIN ? -1 : r->peer;
      /* a persistent one moves at starts; a receive where it completes */
      c->pbytes = pers || !send ? 0 : r->bytes;
      if (pers) {
        r->active = 0;
        break;
      }
      if (r->peer == INT64_MIN) break; /* MPI_PROC_NULL */
      if (send)
        ev_p2p(PT_EV_ISEND, t0, r->peer, r->tag, r->comm, r->bytes, r->model);
      else {
        pt_event e = ev_zero;
        e.time = t0;
        e.kind = PT_EV_IRECV_REQUEST;
        e.request = r->model;
        emit(&e);
      }
      break;
    }
    case PT_MS_START: case PT_MS_STARTALL: {
      /* the profile's statement: what the started sends move (their
       * partner if they share one); a started receive moves its bytes
       * (the status's, not the buffer's) at the wait or test that
       * completes it, as a non-persistent one does */
      const MPI_Request *hs = f->sem == PT_MS_START ? c->reqs_inline : c->reqs;
      int n = f->sem == PT_MS_START ? (c->nreqs == 1) : c->nreqs, first = 1;
      t_nparts = 0;
      for (int q = 0; ok && hs && q < n; q++) {
        req *r = req_get(c, (int64_t)(intptr_t)hs[q]);
        if (r && r->persistent && r->kind == RQ_SEND &&
            r->peer != INT64_MIN) {
          c->pbytes += r->bytes;
          c->pdest = first || c->pdest == r->peer ? r->peer : -1;
          first = 0;
          if (g_profiling) part_add(r);
        }
        start(r, t0);
      }
      break;
    }
    case PT_MS_WAIT: case PT_MS_TEST: {
      t_nparts = 0; /* the receives it completes (complete()) */
      if (c->nreqs != 1) break;
      if (f->sem == PT_MS_TEST &&
          !int_value((void *)(intptr_t)VAL('a', 0)))
        break;
      complete(c, (int64_t)(intptr_t)c->reqs_inline[0], status_arg(c, 0), t1);
      break;
    }
    case PT_MS_WAITANY: case PT_MS_TESTANY: {
      t_nparts = 0;
      int ix = int_value((void *)(intptr_t)VAL('a', 0));
      if (f->sem == PT_MS_TESTANY && !int_value((void *)(intptr_t)VAL('a', 1)))
        break;
      if (ix == MPI_UNDEFINED || ix < 0 || ix >= c->nreqs) break;
      complete(c, (int64_t)(intptr_t)c->reqs[ix], status_arg(c, 0), t1);
      break;
    }
    case PT_MS_WAITALL: case PT_MS_TESTALL: {
      t_nparts = 0;
      if (f->sem == PT_MS_TESTALL && !int_value((void *)(intptr_t)VAL('a', 0)))
        break;
      for (int q = 0; q < c->nreqs; q++)
        complete(c, (int64_t)(intptr_t)c->reqs[q], status_arg(c, q), t1);
      break;
    }
    case PT_MS_WAITSOME: case PT_MS_TESTSOME: {
      t_nparts = 0;
      int oc = int_value((void *)(intptr_t)VAL('a', 0));
      const int *ix = (const int *)(intptr_t)VAL('a', 1);
      if (oc == MPI_UNDEFINED || (uintptr_t)ix <= 4096) break;
      for (int q = 0; q < oc; q++)
        if (ix[q] >= 0 && ix[q] < c->nreqs)
          complete(c, (int64_t)(intptr_t)c->reqs[ix[q]], status_arg(c, q), t1);
      break;
    }
    case PT_MS_REQUEST_FREE:
      if (c->nreqs == 1) {
        int64_t h = (int64_t)(intptr_t)c->reqs_inline[0];
        req *r = req_get(c, h);
        /* persistent: gone; active non-persistent: completes unseen */
        if (r) req_drop(h, r);
      }
      break;
    case PT_MS_CANCEL:
      break; /* the completion that follows reports the cancellation */
    case PT_MS_COLL: case PT_MS_ICOLL: {
      if (!ok) break;
      comm_info *ci = comm_get(VAL('C', 0));
      uint64_t sent, recvd;
      coll_bytes(c, ci, &sent, &recvd);
      pt_event b = ev_zero;
      b.time = t0;
      b.kind = PT_EV_COLL_BEGIN;
      emit(&b);
      /* the root as a COMM_WORLD rank: on an intercommunicator this rank
       * (MPI_ROOT), unknown here (MPI_PROC_NULL: no part) or a rank of
       * the remote group, which world_rank() translates */
      int64_t root = -1;
      if (ARG('k', 0) >= 0 && ci) {
        int k = (int)VAL('k', 0);
        root = ci->inter && k == MPI_ROOT ? g_rank
               : ci->inter && k == MPI_PROC_NULL ? -1
               : world_rank(ci, k);
      }
      c->pdest = root == INT64_MIN ? -1 : root;
      c->pbytes = sent + recvd;
      pt_event e = ev_zero;
      e.time = t1;
      e.kind = PT_EV_COLL_END;
      e.ref = f->coll;
      e.peer = root == INT64_MIN ? -1 : root;
      e.comm = ci ? ci->id : PT_NONE;
      e.size = sent;
      e.size2 = recvd;
      emit(&e);
      if (f->sem == PT_MS_ICOLL && ARG('r', 0) >= 0 && c->v[ARG('r', 0)])
        req_new((int64_t)(intptr_t)*(MPI_Request *)(intptr_t)
                    c->v[ARG('r', 0)], RQ_COLL);
      break;
    }
    case PT_MS_RMA_PUT: case PT_MS_RMA_GET: case PT_MS_RMA_ACC:
    case PT_MS_RMA_GACC: case PT_MS_RMA_FOP: case PT_MS_RMA_CAS:
      if (ok) rma(c, f->sem, t1);
      break;
    /* a free that failed (a predefined or invalid handle) freed nothing:
     * the handle keeps its id */
    case PT_MS_COMM_FREE:
      if (ok && c->nreqs == 0 && c->reqs == c->reqs_inline) {
        int64_t h;
        memcpy(&h, &c->reqs_inline[0], sizeof(void *));
        comm_forget(h);
      }
      break;
    case PT_MS_TYPE_FREE:
      if (ok && c->reqs == c->reqs_inline) {
        int64_t h;
        memcpy(&h, &c->reqs_inline[0], sizeof(void *));
        type_forget((uintptr_t)h);
      }
      break;
    case PT_MS_IO_READ: case PT_MS_IO_WRITE: {
      if (!ok) break;
      int coll = io_collective(c->id);
      const MPI_Status *st = status_arg(c, 0);
      uint64_t bytes = count_bytes(c, 0);
      if (st) status_bytes(st, &bytes);
      uint64_t fh = io_handle_id(VAL('F', 0));
      c->pbytes = bytes;
      pt_event b = ev_zero;
      b.time = t0;
      b.kind = PT_EV_IO_BEGIN;
      b.ref = fh;
      b.tag = f->sem == PT_MS_IO_READ ? PT_IO_READ : PT_IO_WRITE;
      b.size = count_bytes(c, 0);
      b.size2 = coll ? 2 : 0; /* OTF2_IO_OPERATION_FLAG_COLLECTIVE */
      b.request = c->id;
      emit(&b);
      pt_event e = ev_zero;
      e.time = t1;
      e.kind = PT_EV_IO_END;
      e.ref = fh;
      e.size = bytes;
      e.request = c->id;
      emit(&e);
      break;
    }
    case PT_MS_IO_IREAD: case PT_MS_IO_IWRITE: {
      /* begins now, ends when the request completes (complete()) */
      int rj = ARG('r', 0);
      if (!ok || rj < 0 || !c->v[rj]) break;
      req *r = req_new(
          (int64_t)(intptr_t)*(MPI_Request *)(intptr_t)c->v[rj], RQ_IO);
      if (!r) break;
      __atomic_store_n(&g_io_reqs, 1, __ATOMIC_RELAXED);
      r->comm = io_handle_id(VAL('F', 0));
      r->tag = f->sem == PT_MS_IO_IREAD ? PT_IO_READ : PT_IO_WRITE;
      r->bytes = count_bytes(c, 0);
      pt_event b = ev_zero;
      b.time = t0;
      b.kind = PT_EV_IO_BEGIN;
      b.ref = r->comm;
      b.tag = r->tag;
      b.size = r->bytes;
      /* OTF2_IO_OPERATION_FLAG_NON_BLOCKING (| COLLECTIVE: iread_all) */
      b.size2 = 1 | (io_collective(c->id) ? 2 : 0);
      b.request = IO_MATCH(r->model);
      emit(&b);
      break;
    }
    case PT_MS_IO_SREAD: case PT_MS_IO_SWRITE: {
      /* a split collective begins: it ends at the _end call on the file */
      if (!ok) break;
      hent *e = hput(&g_split, (uintptr_t)VAL('F', 0));
      if (!e) break;
      /* matching ids apart from function ids and IO_MATCH's */
      e->id = (UINT64_C(2) << 32) | (g_next_split++ & 0xffffffffu);
      e->size = (int64_t)count_bytes(c, 0);
      e->info = (void *)(uintptr_t)(f->sem == PT_MS_IO_SREAD ? PT_IO_READ
                                                              : PT_IO_WRITE);
      c->pbytes = (uint64_t)e->size;
      pt_event b = ev_zero;
      b.time = t0;
      b.kind = PT_EV_IO_BEGIN;
      b.ref = io_handle_id(VAL('F', 0));
      b.tag = (int64_t)(uintptr_t)e->info;
      b.size = (uint64_t)e->size;
      b.size2 = 3; /* OTF2's NON_BLOCKING | COLLECTIVE */
      b.request = e->id;
      emit(&b);
      break;
    }
    case PT_MS_IO_SEND: {
      hent *e = hfind(&g_split, (uintptr_t)VAL('F', 0));
      if (!e) break; /* its begin was not seen or failed */
      uint64_t bytes = ok ? (uint64_t)e->size : 0;
      const MPI_Status *st = status_arg(c, 0);
      if (ok && st) status_bytes(st, &bytes);
      pt_event x = ev_zero;
      x.time = t1;
      x.kind = PT_EV_IO_END;
      x.ref = io_handle_id(VAL('F', 0));
      x.size = bytes;
      x.request = e->id;
      emit(&x);
      hdel(&g_split, (uintptr_t)VAL('F', 0));
      break;
    }
    default:
      break;
  }
  if (PT_LIKELY(!(f->rare & RARE_SEMTAIL))) return;
  /* A matched probe hands out a message: remember its communicator. */
  if (ok && (c->id == PT_MPI_ID_Mprobe || c->id == PT_MPI_ID_Improbe) &&
      ARG('x', 0) >= 0 && c->v[ARG('x', 0)]) {
    MPI_Message m = *(MPI_Message *)(intptr_t)c->v[ARG('x', 0)];
    if (m != MPI_MESSAGE_NULL && m != MPI_MESSAGE_NO_PROC) {
      hent *e = hput(&g_msgs, (uintptr_t)m);
      if (e) e->id = (uint64_t)VAL('C', 0);
    }
  }
  /* Requests created by calls without a semantic class (generalized
   * requests, MPI-IO and RMA requests, Comm_idup): tracked so that their
   * completion is recognised and ids stay unique. */
  if (ok && (f->sem == PT_MS_NONE || f->sem == PT_MS_NOREG ||
             (f->sem >= PT_MS_RMA_PUT && f->sem <= PT_MS_RMA_CAS)) &&
      ARG('r', 0) >= 0 && c->v[ARG('r', 0)]) {
    /* a communicator made by a request (MPI_Comm_idup): valid once the
     * request completes, registered then (see complete()) */
    int made = f->sem == PT_MS_NOREG && ARG('c', 0) >= 0 && c->v[ARG('c', 0)];
    req *r = req_new(
        (int64_t)(intptr_t)*(MPI_Request *)(intptr_t)c->v[ARG('r', 0)],
        made ? RQ_COMM : RQ_OTHER);
    if (r && made) {
      r->comm = comm_parent(c);
      r->comm_handle = c->v[ARG('c', 0)];
      /* (tag: its sequence number, reserved now) */
      int cj = g_fn[c->id].pos['C'][0];
      r->tag = cj >= 0 ? comm_seq_reserve(c->v[cj]) : -1;
    }
  }
  /* New communicators: registered in creation order (same on all members). */
  if (ok && f->sem != PT_MS_NOREG && f->sem != PT_MS_COMM_FREE &&
      ARG('c', 0) >= 0 && c->addr[ARG('c', 0)])
    comm_made(c, (int64_t)(intptr_t)*(MPI_Comm *)(intptr_t)c->v[ARG('c', 0)]);
}

/* ---- call sites through OpenMPI's mpi_f08 module ------------------------ */
/* A call through `use mpi_f08` reaches our ompi_send_f from mpi_send_f08_
 * in libmpi_usempif08, so the return address is in that library, one
 * frame short of the application.  Such addresses are recognised by the
 * library's load range and the application's frame is found by unwinding
 * (backtrace, from the .eh_frame tables); calls from C and from the mpi
 * module cost one range test. */
enum { PT_SHIMS = 4 };
static struct { uintptr_t lo, hi; } g_shim[PT_SHIMS];
static int g_nshim;
static pthread_once_t g_shim_once = PTHREAD_ONCE_INIT;

static int shim_range(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *b = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
  b = b ? b + 1 : info->dlpi_name;
  if (!b || strncmp(b, "libmpi_usempif08", 16) || g_nshim >= PT_SHIMS)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || g_nshim >= PT_SHIMS)
      continue;
    g_shim[g_nshim].lo = info->dlpi_addr + ph->p_vaddr;
    g_shim[g_nshim].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    g_nshim++;
  }
  return 0;
}
static void shim_init(void) { dl_iterate_phdr(shim_range, NULL); }

/* Per thread, learnt from backtraces: for each shim return address, where
 * the application's return address lies above the Fortran entry point's
 * frame (fixed for a shim function without variable-size locals), and
 * the (shim, application) address pairs a backtrace confirmed.  A call
 * then reads the slot and takes the address only if it is a confirmed
 * pair: a call site seen for the first time, or a frame that does not
 * look as learnt, costs one backtrace (about 3 us), the others a few
 * loads (before: a backtrace per call, 3.1 us per MPI_Iprobe).  Both are
 * kept in one open-addressing table that grows at half full: entry
 * (shim, 0) holds the offset, (shim, app) marks a confirmed pair (a
 * direct-mapped cache of 256 slots per kind lost pairs that shared a
 * slot: 300 call sites called in turn took a backtrace at 2 calls in 3). */
#define SHIM_SLOTS 256 /* first size; then doubled at half full */
#define SHIM_SCAN 2048 /* bytes above the frame searched for the address */
typedef struct shim_ent {
  uintptr_t shim; /* 0: an empty slot */
  uintptr_t app;  /* 0: the offset entry; else a confirmed pair */
  uintptr_t off;  /* the offset entry's: offset from the frame */
} shim_ent;
static __thread __attribute__((tls_model("initial-exec"))) shim_ent *t_shim;
static __thread __attribute__((tls_model("initial-exec"))) size_t t_shim_cap,
    t_shim_n;
__thread __attribute__((tls_model("initial-exec"))) void *pt__f_frame;

static size_t shim_slot(uintptr_t a, uintptr_t g, size_t cap) {
  uint64_t h = ((uint64_t)a ^ ((uint64_t)g * 0xC2B2AE3D27D4EB4FULL)) *
               0x9E3779B97F4A7C15ULL;
  return (size_t)(h >> 32) & (cap - 1);
}

static const shim_ent *shim_find(uintptr_t a, uintptr_t g) {
  if (!t_shim) return NULL;
  for (size_t i = shim_slot(a, g, t_shim_cap); t_shim[i].shim;
       i = (i + 1) & (t_shim_cap - 1))
    if (t_shim[i].shim == a && t_shim[i].app == g) return &t_shim[i];
  return NULL;
}

/* Enter (a, g) with offset `off` (or update it); without memory nothing
 * is learnt (the next call takes a backtrace again). */
static void shim_put(uintptr_t a, uintptr_t g, uintptr_t off) {
  if (!t_shim || (t_shim_n + 1) * 2 > t_shim_cap) {
    size_t cap = t_shim ? 2 * t_shim_cap : SHIM_SLOTS;
    shim_ent *n = calloc(cap, sizeof *n);
    if (!n) return;
    for (size_t j = 0; j < t_shim_cap; j++) {
      if (!t_shim[j].shim) continue;
      size_t i = shim_slot(t_shim[j].shim, t_shim[j].app, cap);
      while (n[i].shim) i = (i + 1) & (cap - 1);
      n[i] = t_shim[j];
    }
    free(t_shim);
    t_shim = n;
    t_shim_cap = cap;
  }
  size_t i = shim_slot(a, g, t_shim_cap);
  for (; t_shim[i].shim; i = (i + 1) & (t_shim_cap - 1))
    if (t_shim[i].shim == a && t_shim[i].app == g) {
      t_shim[i].off = off;
      return;
    }
  t_shim[i] = (shim_ent){a, g, off};
  t_shim_n++;
}

/* The application's return address for a call whose wrapper's return
 * address is caller. */
static int g_shim_ready;
static __attribute__((noinline)) void *app_caller_slow(void *caller) {
  if (PT_UNLIKELY(!__atomic_load_n(&g_shim_ready, __ATOMIC_ACQUIRE))) {
    pthread_once(&g_shim_once, shim_init);
    __atomic_store_n(&g_shim_ready, 1, __ATOMIC_RELEASE);
  }
  uintptr_t a = (uintptr_t)caller;
  int shim = 0;
  for (int i = 0; i < g_nshim; i++)
    if (a >= g_shim[i].lo && a < g_shim[i].hi) shim = 1;
  if (!shim) return caller;
  /* the entry point's frame: saved frame pointer, then its return
   * address (caller) */
  char *fr = pt__f_frame;
  if (fr && *(void **)(fr + sizeof(void *)) != caller) fr = NULL;
  const shim_ent *o = fr ? shim_find(a, 0) : NULL;
  if (o) {
    uintptr_t g;
    memcpy(&g, fr + o->off, sizeof g);
    if (g && shim_find(a, g)) return (void *)g;
  }
  void *bt[8];
  int n = backtrace(bt, 8);
  void *app = caller;
  for (int i = 0; i + 1 < n; i++)
    if (bt[i] == caller) {
      app = bt[i + 1];
      break;
    }
  if (app == caller || !fr) return app;
  /* the slot: the first word above the return address that holds the
   * application's address (its return slot is there, above the shim's
   * frame, so the search ends before the stack does) */
  for (size_t d = 2 * sizeof(void *); d < SHIM_SCAN; d += sizeof(void *)) {
    uintptr_t g;
    memcpy(&g, fr + d, sizeof g);
    if (g == (uintptr_t)app) {
      shim_put(a, 0, d);
      shim_put(a, g, 0);
      break;
    }
  }
  return app;
}

/* The common case inline: the shim ranges known, and none (no mpi_f08
 * module in the process): the return address is the application's. */
static inline __attribute__((always_inline)) void *app_caller(void *caller) {
  if (PT_LIKELY(__atomic_load_n(&g_shim_ready, __ATOMIC_ACQUIRE) &&
                !g_nshim))
    return caller;
  return app_caller_slow(caller);
}

/* ---- call sites (mpiP's view from a trace) ----------------------------- */

/* The call site of return address `caller` calling MPI function `id`:
 * module + link-time offset (the same in every process of the program,
 * whatever the address-space layout), defined as a CALLSITE the first
 * time (name "module+0xoffset", file = the module's path, which
 * `paratrace stats` resolves to function and line when the module has
 * debug information).  One call instruction can call several MPI
 * functions (through a function pointer, as IMB-IO calls its MPI_File_*
 * functions): the definition names its callee, so the id hashes the callee
 * too and each (address, function) pair is a call site of its own.  Kept
 * per thread by address and callee in an open-addressing table that grows
 * (never evicts: a direct-mapped cache of 256 slots let two sites that
 * share a slot and alternate, as in pw.x with ScaLAPACK, each miss every
 * time, costing a dladdr and writing the definition again: 4,671 CALLSITE
 * definitions for 195 call sites). */
#define SITE_CACHE 256 /* first size; then doubled at half full */
typedef struct site_ent {
  uintptr_t addr; /* 0: an empty slot */
  uint64_t region;
  uint64_t id;
  uint64_t val; /* id as a varint, packed (see pack_bytes), or 0 */
  uint64_t ref; /* id + 1 (a reference as events store it), packed, or 0 */
} site_ent;
static __thread __attribute__((tls_model("initial-exec"))) site_ent
    *t_sites;
static __thread __attribute__((tls_model("initial-exec"))) size_t t_site_cap,
    t_site_n;

/* The call site of application address a calling region `callee`
 * (PT_NONE: a caller's frame, whose callee is the procedure of the site
 * below it) inside call site `parent` (PT_NONE: none recorded), defined;
 * its id, or PT_NONE when a is in no module. */
static uint64_t site_def(void *a, uint64_t callee, uint64_t parent) {
  uint64_t off;
  char mod[PATH_MAX];
  if (!a || pt__code_module(a, &off, mod, sizeof mod) != 0) return PT_NONE;
  /* 30 bits of a hash: short in every ENTER (call sites are their own
   * kind of definition, only compared with each other) */
  uint64_t h = pt__fnv1a(mod, 0) ^ (off * 0x9E3779B97F4A7C15ULL) ^
               ((callee + 1) * 0xC2B2AE3D27D4EB4FULL);
  if (parent != PT_NONE) h = (h ^ parent) * 0xFF51AFD7ED558CCDULL;
  uint64_t id = ((h >> 32) & ((UINT64_C(1) << 30) - 1)) | (UINT64_C(1) << 30);
  const char *base = strrchr(mod, '/');
  base = base ? base + 1 : mod;
  char name[320];
  snprintf(name, sizeof name, "%.280s+0x%llx", base, (unsigned long long)off);
  pt_def d = {.kind = PT_DEF_CALLSITE, .id = id, .parent = parent,
              .ref = PT_NONE, .ref2 = callee, .name = name, .s1 = mod};
  pt_rec_def(&d);
  return id;
}

/* PARATRACE_CALLSITES=N above 1 (as mpiP's -k): a call site is the
 * calling statement and the N - 1 statements that called the procedures
 * above it, a chain of CALLSITE definitions linked by parent (so that an
 * MPI call made through a program's wrapper layer shows where the
 * wrapper was called from).  The frames come from glibc's backtrace (the
 * unwind tables: no frame pointers needed), once per call. */
enum { SITE_MAXDEPTH = 8, SITE_SKIP = 24 };
static int g_site_depth = 1;

/* The application's frames above the call (frames[0] = a, the call's own
 * return address); how many, at most g_site_depth.  The unwinder's cost
 * is per frame walked: after the first call only the recorder's own
 * frames (t_bt_skip of them, the same each time from one wrapper) and the
 * chain's are walked, the whole stack again when a is not where it was. */
static __thread __attribute__((tls_model("initial-exec"))) int t_bt_skip = -1;
static int site_frames(void *a, void **frames) {
  void *bt[SITE_MAXDEPTH + SITE_SKIP];
  int n = 0, i = t_bt_skip, d = 1;
  if (i >= 0) n = backtrace(bt, i + g_site_depth);
  if (i < 0 || n <= i || bt[i] != a) {
    n = backtrace(bt, (int)(sizeof bt / sizeof *bt));
    for (i = 0; i < n && bt[i] != a; i++)
      ;
    if (i == n) return frames[0] = a, 1;
    t_bt_skip = i <= SITE_SKIP ? i : -1;
  }
  frames[0] = a;
  while (d < g_site_depth && i + d < n) {
    frames[d] = bt[i + d];
    d++;
  }
  return d;
}

/* The chain of frames fr[0..d) (fr[0] the calling statement), defined
 * from the outermost in; the id of fr[0]'s site. */
static uint64_t site_chain(void *const *fr, int d, uint64_t region) {
  uint64_t parent = PT_NONE;
  for (int q = d - 1; q > 0; q--) {
    uint64_t id = site_def(fr[q], PT_NONE, parent);
    if (id != PT_NONE) parent = id;
  }
  return site_def(fr[0], region, parent);
}

static size_t site_slot(uintptr_t a, uint64_t region, size_t cap) {
  uint64_t h = ((uint64_t)a ^ (region * 0xC2B2AE3D27D4EB4FULL)) *
               0x9E3779B97F4A7C15ULL;
  return (size_t)(h >> 32) & (cap - 1);
}

/* Twice the slots, the entries moved: 0, or -1 without memory. */
/* The two sites last found by site_of (a loop calling one or two MPI
 * functions finds them here without hashing), NULL when not known. */
static __thread __attribute__((tls_model("initial-exec"))) const site_ent
    *t_site_last[2];

static int site_grow(void) {
  size_t cap = t_site_cap ? 2 * t_site_cap : SITE_CACHE;
  site_ent *n = calloc(cap, sizeof *n);
  if (!n) return -1;
  for (size_t j = 0; j < t_site_cap; j++) {
    const site_ent *o = &t_sites[j];
    if (!o->addr) continue;
    size_t i = site_slot(o->addr, o->region, cap);
    while (n[i].addr) i = (i + 1) & (cap - 1);
    n[i] = *o;
  }
  free(t_sites);
  t_sites = n;
  t_site_cap = cap;
  t_site_last[0] = t_site_last[1] = NULL; /* they pointed into the old */
  return 0;
}

/* The call site of the statement at application address fr[0] (through
 * the mpi_f08 module every call returns into the module's own wrapper:
 * the table is keyed by the application's address, app_caller) with the
 * d - 1 frames above it (site_frames) calling region `region`. */
static const site_ent *site_of(void *const *fr, int d, uint64_t region) {
  void *caller = fr[0];
  uintptr_t a = (uintptr_t)caller;
  if (!a) return NULL;
  if (d > 1) {
    /* keyed by the whole chain: a hash with the top bit set, which no
     * user-space code address has */
    uint64_t h = a;
    for (int q = 1; q < d; q++)
      h = (h ^ (uintptr_t)fr[q]) * 0x9E3779B97F4A7C15ULL;
    a = (uintptr_t)(h | UINT64_C(1) << 63);
  }
  const site_ent *l0 = t_site_last[0], *l1 = t_site_last[1];
  if (l0 && l0->addr == a && l0->region == region) return l0;
  if (l1 && l1->addr == a && l1->region == region) return l1;
  if (!t_sites && site_grow() < 0) return NULL;
  size_t i = site_slot(a, region, t_site_cap);
  for (; t_sites[i].addr; i = (i + 1) & (t_site_cap - 1))
    if (t_sites[i].addr == a && t_sites[i].region == region) {
      t_site_last[1] = l0;
      t_site_last[0] = &t_sites[i];
      return &t_sites[i];
    }
  if ((t_site_n + 1) * 2 > t_site_cap) {
    if (site_grow() < 0) return NULL;
    i = site_slot(a, region, t_site_cap);
    while (t_sites[i].addr) i = (i + 1) & (t_site_cap - 1);
  }
  site_ent *e = &t_sites[i];
  e->addr = a;
  e->region = region;
  e->id = d > 1 ? site_chain(fr, d, region) : site_def(caller, region, PT_NONE);
  e->val = varint_pack(e->id);
  e->ref = varint_pack(e->id + 1);
  t_site_n++;
  t_site_last[1] = t_site_last[0]; /* (a grow above cleared them) */
  t_site_last[0] = e;
  return e;
}

/* The region of MPI function `id` (defined on first use), + 1. */
static uint64_t fn_region(int id) {
  fninfo *f = &g_fn[id];
  if (!f->region) {
    f->region = pt_rec_region(pt__mpi_fn_names[id], pt__mpi_fn_role(id),
                              PT_PARADIGM_MPI) + 1;
    f->rref = varint_pack(f->region);
    __atomic_store_n(&pt__mpi_region[id], f->region, __ATOMIC_RELAXED);
  }
  return f->region;
}

static uint64_t on_rank0_clock(uint64_t raw, int64_t off) {
  return off < 0 && (uint64_t)-off > raw ? 0 : raw + (uint64_t)off;
}

uint64_t pt__mpi_region_slow(int id) {
  /* before the recorder has started (MPI_Init's own start) the region
   * cannot be defined yet: it would lose its role and paradigm */
  if (!g_started || !pt_rec_enabled()) return 0;
  return g_fn[id].level == 255 ? 0 : fn_region(id); /* PARATRACE_DISABLE */
}

static void fatal_as_predefined(int64_t out);
static void fatal_win_created(int64_t out);

/* Profile mode: the communication statement of call c (fninfo.pstmt: a
 * message, request, collective or one-sided class, or waiting or polling
 * for messages) at its call site; fr[0..fd) its frames when the
 * trace found them (fd 0: not looked for). */
static __attribute__((noinline)) void profile_call(pt__mpi_call *c,
                                                   void **fr, int fd,
                                                   uint64_t raw0,
                                                   uint64_t raw1, int ret,
                                                   void *caller) {
  const fninfo *f = &g_fn[c->id];
  /* profile mode: a communication statement at its call site */
  pt_profile *p = pt_profile_self();
  if (p) {
    const char *mod = NULL;
    uint64_t offs = 0;
    void *app = fd ? fr[0] : app_caller(caller);
    /* PARATRACE_CALLSITES above 1 in a program without procedure
     * probes (none open): the statements that called the statement's
     * procedure become call-site nodes above it, outermost first (the
     * frames found for the trace, or found now) */
    int d = 1;
    if (g_site_depth > 1 && !p->depth && app) {
      if (fd) d = fd;
      else fr[0] = app, d = site_frames(app, fr);
    }
    /* no probes of the program's: no intrusion to compensate */
    double pe = p->probe_ns, pl = p->leave_ns;
    p->probe_ns = p->leave_ns = 0;
    for (int q = d - 1; q > 0; q--) {
      uint64_t k = pt_profile_site(p, fr[q], &mod, &offs);
      pt_profile_enter(p, PT_PROFILE_CALL, k, NULL, raw0);
      pt_profile_set_site(p, mod, offs);
    }
    p->probe_ns = pe, p->leave_ns = pl;
    uint64_t site = pt_profile_site(p, app, &mod, &offs);
    uint64_t key = site * 0x9E3779B97F4A7C15ULL + (uint64_t)c->id;
    /* a start: one destination per partner, each with its direction
     * (the statement's name does not say whether it sends); a
     * send-receive: where it sent and where it received from */
    if (f->sem == PT_MS_START || f->sem == PT_MS_STARTALL ||
        f->sem == PT_MS_SENDRECV || completes(f->sem))
      pt__profile_comm_multi(p, key, pt__mpi_fn_names[c->id], mod, offs,
                             ret == MPI_SUCCESS ? c->pbytes : 0,
                             t_part_key, t_part_bytes,
                             ret == MPI_SUCCESS ? (size_t)t_nparts : 0,
                             raw0, raw1, PT_PROFILE_SYNC_ESTIMATE);
    else
      pt_profile_comm(p, key, pt__mpi_fn_names[c->id], mod, offs, c->pdest,
                      c->pbytes, raw0, raw1, PT_PROFILE_SYNC_ESTIMATE);
    p->probe_ns = p->leave_ns = 0;
    for (int q = 1; q < d; q++) pt_profile_leave(p, raw1);
    p->probe_ns = pe, p->leave_ns = pl;
  }
}

void pt__mpi_end(pt__mpi_call *c, uint64_t raw0, uint64_t raw1, int ret,
                 void *caller) {
  fninfo *f = &g_fn[c->id];
  int rare = f->rare;
  /* events: on rank 0's time base (the offset measured at MPI_Init) */
  int64_t off = pt__rec_offset();
  uint64_t t0 = on_rank0_clock(raw0, off), t1 = on_rank0_clock(raw1, off);
  if (g_counting) __atomic_add_fetch(&g_calls[c->id], 1, __ATOMIC_RELAXED);
  int level = f->level && f->level <= 3 ? f->level : g_level;
  int rlevel = pt__rec_level_now();
  if (level > rlevel) level = rlevel;
  /* at level 1 too, the calls that make or free communicators and groups
   * record their arguments (which communicator they made, from what):
   * rare calls, and without them a reader of the trace's DUMPI form
   * cannot tell which communicator a message's ranks are in */
  if (level == 1 && !f->level && f->handles) level = 2;
  int rec = f->level != 255 && level >= 1 && pt__rec_enabled_now();
  /* the call is no longer open once its ENTER is written (pend_flush,
   * below); one not recorded, now */
  if (!rec) __atomic_store_n(&pt__rec_open.region, 0, __ATOMIC_RELAXED);
  /* the statement (and with PARATRACE_CALLSITES above 1 the frames above
   * it: an unwind, microseconds) found before the lock, which other
   * threads' calls wait for */
  void *fr[SITE_MAXDEPTH];
  int fd = 0;
  if (rec && g_callsites) {
    fr[0] = app_caller(caller);
    fd = g_site_depth > 1 && fr[0] ? site_frames(fr[0], fr) : 1;
  }
  LOCK();
  if (PT_UNLIKELY(rare & RARE_ERRH) && ret == MPI_SUCCESS) {
    if (pt__mpi_errh[c->id] == PT_ERRH_GET) fatal_as_predefined(c->v[1]);
    if (pt__mpi_errh[c->id] == PT_ERRH_NEW && f->pos['w'][0] >= 0 &&
        c->v[f->pos['w'][0]]) {
      fatal_win_created(c->v[f->pos['w'][0]]);
      /* its communicator, for the targets of its operations */
      win_created(
          (int64_t)(intptr_t)*(MPI_Win *)(intptr_t)c->v[f->pos['w'][0]],
          f->pos['C'][0] >= 0 ? c->v[f->pos['C'][0]] : 0);
    }
  }
  if (PT_UNLIKELY(rare & RARE_FINALIZE) && g_app_region) {
    /* the program's own time ends where MPI_Finalize begins */
    pt_event e = ev_zero;
    e.time = t0;
    e.kind = PT_EV_LEAVE;
    e.ref = g_app_region - 1;
    pt_rec_event(&e);
    g_app_region = 0;
  }
  if (rec) {
    if (PT_UNLIKELY(!f->region)) fn_region(c->id);
    /* a traced call made while another is being recorded (a callback of
     * its): that one's ENTER first, before its buffer is reused */
    if (PT_UNLIKELY(t_pend.n)) pend_flush();
    int have = enc_begin(f->region - 1, f->rref);
    if (level >= 2 && have) enc_args[c->id](c, level, ret);
    if (g_callsites) {
      const site_ent *se = site_of(fr, fd, f->region - 1);
      t_site = se ? se->id : PT_NONE;
      t_site_ref = se ? se->ref : 0;
      if (t_site != PT_NONE && have) {
        static uint64_t pre; /* the callsite attribute's key and type */
        uint64_t p = __atomic_load_n(&pre, __ATOMIC_RELAXED);
        if (!p) {
          p = pre_pack(callsite_key(), PT_TYPE_UINT);
          __atomic_store_n(&pre, p, __ATOMIC_RELAXED);
        }
        uint8_t *w = enc_attr(p, p ? 0 : callsite_key(), PT_TYPE_UINT,
                              PT_VARINT_MAX);
        if (w)
          enc_end(se->val ? put_packed(w, se->val)
                          : w + pt__varint_put(w, t_site));
      }
    }
    if (have) {
      t_pend.b = enc_finish(&t_pend.n);
      t_pend.t = t0;
    } else {
      pt_event en;
      ev_set(&en, t0, PT_EV_ENTER, f->region - 1);
      pt_rec_event(&en);
      __atomic_store_n(&pt__rec_open.region, 0, __ATOMIC_RELAXED);
    }
  }
  t_quiet = !rec;
  /* (a function without a semantic class and none of the steps after
   * its switch, such as MPI_Iprobe, has nothing there: no call) */
  if (f->sem != PT_MS_NONE || (rare & RARE_SEMTAIL))
    semantics(c, t0, t1, ret);
  if (g_multi) unclaim(c);
  t_quiet = 0;
  t_site = PT_NONE;
  t_site_ref = 0;
  /* a freed file, window or group handle: the next one MPI hands out may
   * be the same pointer, it gets a new id */
  if (PT_UNLIKELY(rare & RARE_FREED) && c->hpre && ret == MPI_SUCCESS) {
    hmap *m = c->id == PT_MPI_ID_Group_free ? &g_ghandles : &g_misc;
    if (c->id == PT_MPI_ID_Win_free) win_forget(c->hpre);
    if (hfind(m, (uintptr_t)c->hpre)) hdel(m, (uintptr_t)c->hpre);
  }
  if (rec) { /* the LEAVE: header byte and region + 1 */
    uint8_t lv[1 + PT_VARINT_MAX + 8];
    lv[0] = PT_EV_LEAVE;
    size_t n = f->rref ? (size_t)(put_packed(lv + 1, f->rref) - lv)
                       : 1 + pt__varint_put(lv + 1, f->region);
    if (t_pend.n && !t_ext.n) { /* nothing between them: both at once */
      size_t n0 = t_pend.n;
      t_pend.n = 0;
      pt__rec_event_enc2(t_pend.t, t_pend.b, n0, t1, lv, n);
      __atomic_store_n(&pt__rec_open.region, 0, __ATOMIC_RELAXED);
    } else if (t_pend.n) { /* the ENTER, the call's events, the LEAVE */
      pt__call_evs ce = {.t0 = t_pend.t, .t1 = t1, .b0 = t_pend.b, .b1 = lv,
                         .n0 = t_pend.n, .n1 = n, .k = (size_t)t_ext.n,
                         .et = t_ext.t, .eb = t_ext.b, .off = t_ext.off};
      t_pend.n = 0;
      t_ext.n = 0;
      pt__rec_event_call(&ce);
      __atomic_store_n(&pt__rec_open.region, 0, __ATOMIC_RELAXED);
    } else {
      pt__rec_event_enc(t1, lv, n);
    }
  }
  if (PT_UNLIKELY(rare & RARE_INIT) && pt_rec_enabled() && !g_app_region) {
    /* The program's own time (mpiP's application time) runs from the end
     * of MPI_Init to the start of MPI_Finalize: a region named after the
     * program, so that time outside MPI calls is counted. */
    g_app_region = pt_rec_region(program_invocation_short_name,
                                 PT_ROLE_FUNCTION, PT_PARADIGM_USER) + 1;
    pt_event e = ev_zero;
    e.time = t1;
    e.kind = PT_EV_ENTER;
    e.ref = g_app_region - 1;
    pt_rec_event(&e);
  }
  UNLOCK();
  if (g_profiling && (rare & (RARE_INIT | RARE_FINALIZE))) {
    /* the program's time in the profile, as in the trace: from the end of
     * MPI_Init to the start of MPI_Finalize, not from the first to the
     * last communication statement */
    pt_profile *p = pt_profile_self();
    if (p) pt__profile_mark(p, c->id == PT_MPI_ID_Finalize ? raw0 : raw1);
  }
  if (g_profiling && f->pstmt)
    profile_call(c, fr, fd, raw0, raw1, ret, caller);
  if (PT_UNLIKELY(c->owned)) {
    if (c->owned & 1) free(c->sts);
    if (c->owned & 2) free(c->reqs);
  }
}

/* ---- start, clock synchronisation, stop --------------------------------- */

static MPI_Comm g_sync_comm = MPI_COMM_NULL;
static int *g_remote; /* rank 0: which ranks run on another host */
static int g_on_host0 = 1; /* this rank shares rank 0's host (and clock) */
enum { SYNC_ROUNDS = 10, SYNC_TAG = 4077 };

/* Offset (ns) that turns this rank's raw clock into rank 0's, from the
 * ping-pong with the smallest round trip; *at = local raw time of it. */
static int64_t clock_offset(uint64_t *at) {
  long long t = 0;
  int64_t best_off = 0;
  uint64_t best_rtt = UINT64_MAX;
  *at = pt_rec_now() - (uint64_t)g_offset0;
  if (g_sync_comm == MPI_COMM_NULL) return 0;
  if (g_rank == 0) {
    for (int k = 1; k < g_size; k++)
      for (int i = 0; g_remote && g_remote[k] && i < SYNC_ROUNDS; i++) {
        PMPI_Recv(&t, 1, MPI_LONG_LONG, k, SYNC_TAG, g_sync_comm,
                  MPI_STATUS_IGNORE);
        t = (long long)(pt_rec_now() - (uint64_t)g_offset0);
        PMPI_Send(&t, 1, MPI_LONG_LONG, k, SYNC_TAG, g_sync_comm);
      }
    return 0;
  }
  /* Same host as rank 0: CLOCK_MONOTONIC is the same clock, offset 0
   * (a ping-pong would only add its own error). */
  if (g_on_host0) return 0;
  for (int i = 0; i < SYNC_ROUNDS; i++) {
    uint64_t t1 = pt_rec_now() - (uint64_t)g_offset0;
    PMPI_Send(&t, 1, MPI_LONG_LONG, 0, SYNC_TAG, g_sync_comm);
    PMPI_Recv(&t, 1, MPI_LONG_LONG, 0, SYNC_TAG, g_sync_comm,
              MPI_STATUS_IGNORE);
    uint64_t t2 = pt_rec_now() - (uint64_t)g_offset0;
    if (t2 - t1 < best_rtt) {
      best_rtt = t2 - t1;
      uint64_t mid = t1 + (t2 - t1) / 2;
      best_off = (int64_t)t - (int64_t)mid;
      *at = mid;
    }
  }
  return best_off;
}

static void world_defs(void) {
  uint64_t *m = malloc(sizeof *m * (size_t)g_size);
  if (!m) return;
  for (int i = 0; i < g_size; i++) m[i] = (uint64_t)i;
  pt_def g = {.kind = PT_DEF_GROUP, .id = 0, .i0 = PT_GROUP_COMM_LOCATIONS,
              .i1 = PT_PARADIGM_MPI, .name = "MPI_COMM_WORLD ranks",
              .nmembers = (uint64_t)g_size, .members = m};
  pt_rec_def(&g);
  pt_def s = {.kind = PT_DEF_GROUP, .id = 1, .i0 = PT_GROUP_COMM_SELF,
              .i1 = PT_PARADIGM_MPI, .name = "MPI_COMM_SELF"};
  pt_rec_def(&s);
  pt_def w = {.kind = PT_DEF_COMM, .id = 2, .parent = PT_NONE, .ref = 0,
              .i0 = PT_PARADIGM_MPI, .name = "MPI_COMM_WORLD"};
  pt_rec_def(&w);
  pt_def c = {.kind = PT_DEF_COMM, .id = 3, .parent = PT_NONE, .ref = 1,
              .i0 = PT_PARADIGM_MPI, .name = "MPI_COMM_SELF"};
  pt_rec_def(&c);
  free(m);
}

/* Profile mode alone, at MPI_Init: the output directory must be new, or
 * (PARATRACE_OVERWRITE=1) an earlier profile or archive, removed by rank
 * 0 before any rank saves (at MPI_Finalize).  Decided by rank 0 for all;
 * 0: not profiling (said once). */
static int profile_dir_ready(void) {
  const char *out = getenv("PARATRACE_OUTPUT");
  if (!out || !*out) out = "paratrace.ptf";
  int ok = 1;
  struct stat st;
  if (g_rank == 0 && lstat(out, &st) == 0) {
    const char *ow = getenv("PARATRACE_OVERWRITE");
    if (!(ow && !strcmp(ow, "1"))) {
      fprintf(stderr, "paratrace: not profiling: %s exists (not replaced: "
                      "PARATRACE_OVERWRITE=1 or `paratrace record --force` "
                      "replaces it)\n", out);
      ok = 0;
    } else if (S_ISDIR(st.st_mode) &&
               (pt__is_ptf_dir(out) || pt_profile_is_output(out))) {
      if (pt__rmtree(out) != 0) {
        fprintf(stderr, "paratrace: not profiling: %s: cannot remove the "
                        "earlier output: %s\n", out, strerror(errno));
        ok = 0;
      }
    } else {
      fprintf(stderr, "paratrace: not profiling: %s exists and is not a "
                      "paratrace archive or profile; not replaced\n", out);
      ok = 0;
    }
  }
  if (g_size > 1) PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok;
}

/* Which wrappers go through the recorder from now on. */
static void enable_all(void) {
  for (int i = 0; i < PT_MPI_NFUNCS; i++) {
    const char *n = pt__mpi_fn_names[i];
    size_t l = strlen(n);
    int conv = l > 4 && (!strcmp(n + l - 4, "_c2f") ||
                         !strcmp(n + l - 4, "_f2c"));
    /* disabled functions that keep request / communicator tables right
     * still pass through the recorder, without events */
    int needed = g_fn[i].sem != PT_MS_NONE || pt__mpi_errh[i] != PT_ERRH_NONE ||
                 strchr(pt__mpi_kinds[i], 'c') || strchr(pt__mpi_kinds[i], 'r');
    pt__mpi_on[i] = !conv && (g_fn[i].level != 255 || needed);
  }
}

/* A program that exits without MPI_Finalize: close what this rank has
 * (no communication: the archive may need `paratrace recover` if the
 * leader closed before a joiner). */
static int g_finalized;
static void at_exit(void) {
  if (g_tracing && !g_finalized) pt_rec_stop(NULL);
}

/* ---- fatal MPI errors --------------------------------------------------- */
/* Open MPI's MPI_ERRORS_ARE_FATAL ends the process inside the library
 * (ompi_mpi_abort: no MPI_Abort, no signal the recorder sees, no atexit),
 * so a rank that hits an error lost its whole trace.  Where
 * MPI_COMM_WORLD and MPI_COMM_SELF have that handler at MPI_Init, they
 * get one of ours that says what MPI would have said, closes the trace as
 * MPI_Abort does (the failing call entered, never left) and aborts as
 * MPI_ERRORS_ARE_FATAL does; communicators made from them inherit it.  A
 * program's own MPI_Comm_set_errhandler replaces it, and
 * MPI_Comm_get_errhandler answers MPI_ERRORS_ARE_FATAL for it. */
static MPI_Errhandler g_fatal = MPI_ERRHANDLER_NULL;
/* a communicator of our own with MPI_ERRORS_ARE_FATAL: where
 * MPI_Comm_get_errhandler takes the reference it hands out instead */
static MPI_Comm g_fatal_ref = MPI_COMM_NULL;

/* ... and one for windows, created with it (a window's default is
 * MPI_ERRORS_ARE_FATAL too): put on each window created with that
 * handler. */
static MPI_Errhandler g_fatal_win = MPI_ERRHANDLER_NULL;
/* ... and one for files: a file's default is MPI_ERRORS_RETURN, but a
 * program may set MPI_ERRORS_ARE_FATAL on a file or on MPI_FILE_NULL
 * (which files opened later inherit) */
static MPI_Errhandler g_fatal_file = MPI_ERRHANDLER_NULL;

/* Say what MPI would, close the trace (the failing call entered, never
 * left), abort through `abort_comm`; never returns to the program. */
static void fatal_close(const char *what, const char *name, int code,
                        MPI_Comm abort_comm) {
  char es[MPI_MAX_ERROR_STRING] = "";
  int l = 0;
  if (PMPI_Error_string(code, es, &l) != MPI_SUCCESS || !es[0])
    snprintf(es, sizeof es, "error code %d", code);
  uint64_t r = __atomic_load_n(&pt__rec_open.region, __ATOMIC_RELAXED);
  const char *fn = "an MPI call";
  for (int i = 0; r && i < PT_MPI_NFUNCS; i++)
    if (g_fn[i].region == r) fn = pt__mpi_fn_names[i];
  fprintf(stderr,
          "[rank %d] *** An error occurred in %s\n"
          "[rank %d] *** on %s %s\n"
          "[rank %d] *** %s\n"
          "[rank %d] *** MPI_ERRORS_ARE_FATAL (processes in this %s "
          "will now abort,\n[rank %d] ***    and potentially your MPI job); "
          "paratrace closes this rank's trace\n",
          g_rank, fn, g_rank, what, name[0] ? name : "(unnamed)", g_rank, es,
          g_rank, what, g_rank);
  if (r && g_tracing && pt_rec_enabled()) {
    /* the call that failed: entered, never left (as when killed in it) */
    pt_event e;
    ev_set(&e, on_rank0_clock(pt__rec_open.time, pt__rec_offset()), PT_EV_ENTER,
           r - 1);
    pt_rec_event(&e);
  }
  __atomic_store_n(&pt__rec_open.region, 0, __ATOMIC_RELAXED);
  pt__mpi_before_abort();
  PMPI_Abort(abort_comm, code);
  /* an MPI whose abort returns: the program must not go on */
  _exit(code > 0 && code < 256 ? code : 1);
}

static void on_fatal(MPI_Comm *comm, int *code, ...) {
  /* an error in the calls below (an error code MPI does not know, a
   * communicator that is not one) comes back here: it returns to them */
  static __thread int inside;
  if (inside) return;
  inside = 1;
  char cn[MPI_MAX_OBJECT_NAME] = "";
  int l = 0;
  PMPI_Comm_get_name(*comm, cn, &l);
  fatal_close("communicator", cn, *code, *comm);
}

static void on_fatal_win(MPI_Win *win, int *code, ...) {
  static __thread int inside;
  if (inside) return;
  inside = 1;
  char wn[MPI_MAX_OBJECT_NAME] = "";
  int l = 0;
  PMPI_Win_get_name(*win, wn, &l);
  fatal_close("win", wn, *code, MPI_COMM_WORLD);
}

static void on_fatal_file(MPI_File *fh, int *code, ...) {
  static __thread int inside;
  if (inside) return;
  inside = 1;
  (void)fh; /* MPI has no file names to ask for */
  fatal_close("file", "", *code, MPI_COMM_WORLD);
}

static void fatal_install(void) {
  MPI_Comm cs[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
  int fatal[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    MPI_Errhandler cur = MPI_ERRHANDLER_NULL;
    if (PMPI_Comm_get_errhandler(cs[i], &cur) != MPI_SUCCESS) continue;
    fatal[i] = cur == MPI_ERRORS_ARE_FATAL;
    PMPI_Errhandler_free(&cur);
  }
  if (!fatal[0] && !fatal[1]) return;
  if (PMPI_Comm_dup(MPI_COMM_SELF, &g_fatal_ref) != MPI_SUCCESS ||
      PMPI_Comm_set_errhandler(g_fatal_ref, MPI_ERRORS_ARE_FATAL) !=
          MPI_SUCCESS ||
      PMPI_Comm_create_errhandler(on_fatal, &g_fatal) != MPI_SUCCESS)
    return;
  if (PMPI_Win_create_errhandler(on_fatal_win, &g_fatal_win) != MPI_SUCCESS)
    g_fatal_win = MPI_ERRHANDLER_NULL;
  if (PMPI_File_create_errhandler(on_fatal_file, &g_fatal_file) != MPI_SUCCESS)
    g_fatal_file = MPI_ERRHANDLER_NULL;
  for (int i = 0; i < 2; i++)
    if (fatal[i]) PMPI_Comm_set_errhandler(cs[i], g_fatal);
}

/* MPI_Comm_get_errhandler, MPI_Errhandler_get or MPI_Win_get_errhandler
 * returned one of our handlers: MPI_ERRORS_ARE_FATAL (a reference of its
 * own, as MPI hands out). */
static void fatal_as_predefined(int64_t out) {
  MPI_Errhandler *eh = (MPI_Errhandler *)(intptr_t)out;
  if (!eh || g_fatal == MPI_ERRHANDLER_NULL ||
      (*eh != g_fatal && *eh != g_fatal_win && *eh != g_fatal_file))
    return;
  MPI_Errhandler pre;
  if (PMPI_Comm_get_errhandler(g_fatal_ref, &pre) != MPI_SUCCESS) return;
  PMPI_Errhandler_free(eh);
  *eh = pre;
}

/* A window was created (its handle at `out`): where it has
 * MPI_ERRORS_ARE_FATAL, it gets our handler instead. */
static void fatal_win_created(int64_t out) {
  MPI_Win *w = (MPI_Win *)(intptr_t)out;
  if (!w || *w == MPI_WIN_NULL || g_fatal_win == MPI_ERRHANDLER_NULL) return;
  MPI_Errhandler cur = MPI_ERRHANDLER_NULL;
  if (PMPI_Win_get_errhandler(*w, &cur) != MPI_SUCCESS) return;
  if (cur == MPI_ERRORS_ARE_FATAL) PMPI_Win_set_errhandler(*w, g_fatal_win);
  PMPI_Errhandler_free(&cur);
}

void pt__mpi_errhandler_in(pt__mpi_call *c) {
  if (c->n < 2 || !c->addr[1] || g_fatal == MPI_ERRHANDLER_NULL) return;
  MPI_Errhandler *eh = (MPI_Errhandler *)c->addr[1];
  if (*eh != MPI_ERRORS_ARE_FATAL) return;
  if (c->id == PT_MPI_ID_Win_set_errhandler) {
    if (g_fatal_win != MPI_ERRHANDLER_NULL) *eh = g_fatal_win;
  } else if (c->id == PT_MPI_ID_File_set_errhandler) {
    if (g_fatal_file != MPI_ERRHANDLER_NULL) *eh = g_fatal_file;
  } else {
    *eh = g_fatal;
  }
}

void pt__mpi_after_init(int provided) {
  if (g_started) return;
  g_started = 1;
  read_config();
  tables_init();
  apply_list(getenv("PARATRACE_DISABLE"), 0);
  apply_list(getenv("PARATRACE_DETAIL"), 1);
  g_multi = provided == MPI_THREAD_MULTIPLE;
  pt__mpi_multi = g_multi;
  g_counting = getenv("PARATRACE_MPI_COUNTS") && *getenv("PARATRACE_MPI_COUNTS");
  /* 0 none, 1 the calling statement, N up to 8: and N - 1 callers */
  const char *cs = getenv("PARATRACE_CALLSITES");
  char *cend = NULL;
  long depth = cs && *cs ? strtol(cs, &cend, 10) : 1;
  if (cs && *cs && (*cend || depth < 0 || depth > SITE_MAXDEPTH)) {
    fprintf(stderr, "paratrace: PARATRACE_CALLSITES=%s: want 0 (none) to "
                    "%d (the calling statement and %d callers above it); "
                    "1 used\n", cs, SITE_MAXDEPTH, SITE_MAXDEPTH - 1);
    depth = 1;
  }
  g_callsites = depth > 0;
  g_site_depth = depth > 0 ? (int)depth : 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g_size);
  PMPI_Comm_group(MPI_COMM_WORLD, &g_world_group);
  predefined();
  const char *mode = getenv("PARATRACE_MODE");
  int trace = !mode || !*mode || !strcmp(mode, "trace") ||
              !strcmp(mode, "both");
  /* an unknown mode recorded nothing and said nothing */
  if (mode && *mode && !trace && strcmp(mode, "profile") && g_rank == 0)
    fprintf(stderr, "paratrace: not recording: PARATRACE_MODE=%s: want "
                    "trace, profile or both\n", mode);
  g_profiling = mode && (!strcmp(mode, "profile") || !strcmp(mode, "both")) &&
                pt_profile_runtime_enabled();
  /* the profile alone writes into a directory of its own: not into an
   * existing one (an earlier run's profile.N files would be summed with
   * this run's), unless replacing was asked for */
  if (g_profiling && !trace && !profile_dir_ready()) {
    g_profiling = 0;
    pt__profile_runtime_discard();
  }
  if (g_profiling) pt_profile_runtime_config((uint64_t)g_rank,
                                             getenv("PARATRACE_OUTPUT"));
  /* The leader (rank 0) creates the archive; the others join it. */
  int rc = PT_OK;
  pt_error err = {0};
  if (trace && g_rank == 0) {
    rc = pt_rec_start_env(0, (uint64_t)g_size, 0, &err);
    if (rc)
      fprintf(stderr, "paratrace: not recording: %s\n", err.msg);
  }
  if (trace && g_size > 1) PMPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (trace && g_rank != 0 && rc == PT_OK) {
    rc = pt_rec_start_env((uint64_t)g_rank, (uint64_t)g_size, 1, &err);
    if (rc)
      fprintf(stderr, "paratrace: rank %d not recording: %s\n", g_rank,
              err.msg);
  }
  g_tracing = trace && rc == PT_OK;
  if (!g_tracing) {
    if (g_profiling) enable_all();
    return;
  }
  g_level = pt_rec_level();
  atexit(at_exit);
  if (g_rank == 0) {
    world_defs();
    predefined_defs();
  }
  comm_get((int64_t)(intptr_t)MPI_COMM_WORLD);
  comm_get((int64_t)(intptr_t)MPI_COMM_SELF);
  char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
  int hl = 0;
  PMPI_Get_processor_name(host, &hl);
  pt_def kv = {.kind = PT_DEF_KEYVAL, .id = PT_NONE, .parent = (uint64_t)g_rank,
               .name = "mpi.hostname", .s1 = host};
  pt_rec_def(&kv);
  if (g_size > 1) {
    char host0[MPI_MAX_PROCESSOR_NAME + 1];
    memcpy(host0, host, sizeof host0 < sizeof host ? sizeof host0
                                                  : sizeof host);
    host0[MPI_MAX_PROCESSOR_NAME] = 0;
    PMPI_Bcast(host0, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    g_on_host0 = strcmp(host0, host) == 0;
    /* PARATRACE_SYNC=pingpong: measure even on rank 0's host (tests) */
    const char *sy = getenv("PARATRACE_SYNC");
    if (sy && strcmp(sy, "pingpong") == 0) g_on_host0 = 0;
    int remote = !g_on_host0;
    if (g_rank == 0) g_remote = calloc((size_t)g_size, sizeof *g_remote);
    PMPI_Gather(&remote, 1, MPI_INT, g_remote, 1, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Comm_dup(MPI_COMM_WORLD, &g_sync_comm);
  }
  uint64_t at;
  int64_t off = clock_offset(&at);
  g_offset0 = off;
  pt_rec_clock_offset(off, at);
  fatal_install();
  enable_all();
}

static void write_counts(void) {
  const char *out = getenv("PARATRACE_MPI_COUNTS");
  if (out == NULL || *out == '\0') return;
  char path[4096], tmp[4200];
  if (snprintf(path, sizeof path, "%s.%d", out, g_rank) >= (int)sizeof path)
    return;
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (f == NULL) return;
  for (int i = 0; i < PT_MPI_NFUNCS; i++)
    if (g_calls[i] != 0)
      fprintf(f, "%s %llu\n", pt__mpi_fn_names[i], (unsigned long long)g_calls[i]);
  if (fclose(f) == 0) rename(tmp, path);
  else remove(tmp);
}

void pt__mpi_before_finalize(void) {
  memset(pt__mpi_on, 0, sizeof pt__mpi_on);
  g_finalized = 1;
  if (!g_started) return;
  if (!g_tracing) {
    write_counts();
    return;
  }
  /* second clock sample: kept for the drift correction (paratrace sync) */
  uint64_t at;
  int64_t off = clock_offset(&at);
  pt_def d = {.kind = PT_DEF_CLOCK_SYNC, .ref = (uint64_t)g_rank,
              .i0 = (int64_t)at, .i1 = off};
  pt_rec_def(&d);
  if (g_sync_comm != MPI_COMM_NULL) PMPI_Comm_free(&g_sync_comm);
  if (g_fatal_ref != MPI_COMM_NULL) PMPI_Comm_free(&g_fatal_ref);
  write_counts();
  /* joiners close first, then the leader lists their streams */
  pt_error err = {0};
  if (g_rank != 0) pt_rec_stop(&err);
  if (g_size > 1) PMPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) pt_rec_stop(&err);
}

void pt__mpi_before_abort(void) {
  memset(pt__mpi_on, 0, sizeof pt__mpi_on);
  if (g_started && g_tracing) {
    write_counts();
    /* the other threads' calls in progress: entered, never left */
    pt__rec_stop_dying();
  }
}

void pt__mpi_pcontrol(int level);
void pt__mpi_pcontrol(int level) {
  if (g_started && g_tracing) pt_trace_measure(level != 0);
}
