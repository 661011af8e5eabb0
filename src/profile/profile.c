/* Constant-size profiles: the collector, saving, loading and merging.
 *
 * Nodes live in one array allocated at creation (max_nodes); children are
 * found through an open-addressing hash keyed by (parent, kind, key), so a
 * probe is a hash lookup plus a few additions.  Strings (names, module
 * paths) are interned in an arena, so a saved profile stores each once.
 *
 * File layout (little-endian), `ARCHIVE/profile.<id>`:
 *   "PTPROF\0\0"  u32 version (1)  u32 flags (0)
 *   u64 nnodes  u64 dropped  u64 strings_bytes
 *   strings: NUL-terminated, concatenated (offset 0 is "")
 *   nnodes x 88 bytes: u32 parent, u32 kind, u64 key, u32 name, u32 module,
 *     u64 offset, count, incl_ns, child_ns, bytes, trans_ns, sync_ns,
 *     max_ns (a statement's longest call; reserved, 0, in files written
 *     before: the layout is version 1's)
 *   u32 CRC32C of everything before it
 * Parents precede their children; the root is node 0.  Counters are fixed
 * width so the size depends only on the tree, never on the run length. */
#include "profile/profile_int.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/util.h"
#include "store/archive.h"

static const char *const kind_names[] = {
#define PT_X(n, l) l,
    PT_PROFILE_KINDS(PT_X)
#undef PT_X
};

const char *pt_profile_kind_name(int kind) {
  if (kind < 0 || kind >= PT_PROFILE__KINDS) return "?";
  return kind_names[kind];
}

uint64_t pt_profile_now(void) { return pt__clock_ns(); }

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

static uint64_t str_hash(const char *s) { return pt__fnv1a(s, 0); }

uint64_t pt__profile_name_key(const char *name) {
  return mix(str_hash(name ? name : ""));
}

/* ---- interned strings ---------------------------------------------------- */

const char *pt__profile_intern(pt_profile *p, const char *s) {
  if (!s || !*s) return "";
  uint64_t h = str_hash(s);
  size_t mask = p->str_cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const char *e = p->strs[i];
    if (!e) break;
    if (strcmp(e, s) == 0) return e;
  }
  if ((p->nstrs + 1) * 2 > p->str_cap) {
    size_t ncap = p->str_cap * 2;
    const char **n = calloc(ncap, sizeof *n);
    if (!n) return NULL;
    for (size_t j = 0; j < p->str_cap; j++) {
      const char *e = p->strs[j];
      if (!e) continue;
      size_t k = str_hash(e) & (ncap - 1);
      while (n[k]) k = (k + 1) & (ncap - 1);
      n[k] = e;
    }
    free(p->strs);
    p->strs = n;
    p->str_cap = ncap;
    mask = ncap - 1;
  }
  char *copy = pt__arena_strdup(&p->arena, s);
  if (!copy) return NULL;
  size_t i = h & mask;
  while (p->strs[i]) i = (i + 1) & mask;
  p->strs[i] = copy;
  p->nstrs++;
  return copy;
}

/* ---- creation ------------------------------------------------------------ */

int pt_profile_create(pt_profile **out, size_t max_nodes) {
  if (!out) return PT_EINVAL;
  *out = NULL;
  if (max_nodes == 0) max_nodes = 65536;
  if (max_nodes < 2 || max_nodes > (1u << 26)) return PT_EINVAL;
  pt_profile *p = calloc(1, sizeof *p);
  if (!p) return PT_ENOMEM;
  p->cap = max_nodes;
  size_t hcap = 1;
  while (hcap < max_nodes * 2) hcap <<= 1;
  p->hmask = hcap - 1;
  p->nodes = calloc(max_nodes, sizeof *p->nodes);
  p->active = calloc(max_nodes, sizeof *p->active);
  p->est = calloc(max_nodes, sizeof *p->est);
  p->hslot = malloc(hcap * sizeof *p->hslot);
  p->str_cap = 64;
  p->strs = calloc(p->str_cap, sizeof *p->strs);
  p->site_cap = 1024;
  p->sites = calloc(p->site_cap, sizeof *p->sites);
  if (!p->nodes || !p->active || !p->est || !p->hslot || !p->strs || !p->sites) {
    pt_profile_destroy(p);
    return PT_ENOMEM;
  }
  memset(p->hslot, 0xff, hcap * sizeof *p->hslot);
  pt_profile_node *root = &p->nodes[0];
  root->kind = PT_PROFILE_ROOT;
  root->name = "";
  root->module = "";
  root->count = 1;
  p->n = 1;
  p->root_from_clock = 1; /* start: at the first probe */
  *out = p;
  return PT_OK;
}

void pt_profile_destroy(pt_profile *p) {
  if (!p) return;
  free(p->nodes);
  free(p->active);
  free(p->est);
  free(p->hslot);
  free(p->strs);
  free(p->sites);
  pt__arena_free(&p->arena);
  free(p);
}

void pt_profile_set_probe_cost(pt_profile *p, double probe_ns) {
  pt_profile_set_probe_costs(p, probe_ns, probe_ns);
}

void pt_profile_set_probe_costs(pt_profile *p, double enter_ns,
                                double leave_ns) {
  if (!p) return;
  p->probe_ns = enter_ns > 0 ? enter_ns : 0;
  p->leave_ns = leave_ns > 0 ? leave_ns : 0;
}

/* Virtual time of the whole run so far. */
static uint64_t root_time(const pt_profile *p) {
  uint64_t real = p->last - p->start, debt = (uint64_t)p->debt;
  return real > debt ? real - debt : 0;
}

uint64_t pt_profile_dropped(const pt_profile *p) { return p ? p->dropped : 0; }
size_t pt_profile_nnodes(const pt_profile *p) { return p ? p->n : 0; }

/* Fold the estimated calls of node i into trans/sync: the fastest
 * execution is taken as pure transmission, the rest as waiting. */
static void settle(pt_profile *p, size_t i) {
  pt__profile_est *e = &p->est[i];
  if (!e->count) return;
  pt_profile_node *n = &p->nodes[i];
  uint64_t trans = e->count * e->min;
  n->trans_ns += trans;
  n->sync_ns += e->sum - trans;
  e->sum = e->count = 0;
}

const pt_profile_node *pt_profile_node_at(const pt_profile *p, size_t i) {
  if (!p || i >= p->n) return NULL;
  settle((pt_profile *)p, i);
  /* The root spans the whole run so far; open frames are not folded in
   * until they close, so refresh it here. */
  pt_profile *m = (pt_profile *)p;
  if (m->root_from_clock) m->nodes[0].incl_ns = root_time(m);
  return &p->nodes[i];
}

/* ---- node lookup --------------------------------------------------------- */

static size_t slot_of(uint32_t parent, uint32_t kind, uint64_t key) {
  return (size_t)mix(key ^ ((uint64_t)parent << 8) ^ kind ^
                     ((uint64_t)kind << 60));
}

/* Find or create the child (parent, kind, key); UINT32_MAX when full. */
uint32_t pt__profile_child(pt_profile *p, uint32_t parent, uint32_t kind,
                           uint64_t key, int *created) {
  size_t i = slot_of(parent, kind, key) & p->hmask;
  for (;; i = (i + 1) & p->hmask) {
    uint32_t s = p->hslot[i];
    if (s == UINT32_MAX) break;
    const pt_profile_node *n = &p->nodes[s];
    if (n->parent == parent && n->kind == kind && n->key == key) {
      *created = 0;
      return s;
    }
  }
  if (p->n >= p->cap) return UINT32_MAX;
  uint32_t id = (uint32_t)p->n++;
  pt_profile_node *n = &p->nodes[id];
  memset(n, 0, sizeof *n);
  n->parent = parent;
  n->kind = kind;
  n->key = key;
  n->name = "";
  n->module = "";
  p->hslot[i] = id;
  *created = 1;
  return id;
}

static void see(pt_profile *p, uint64_t t) {
  if (!p->started) {
    p->started = 1;
    p->start = p->last = t;
  }
  if (t > p->last) p->last = t;
}

void pt__profile_mark(pt_profile *p, uint64_t now) {
  if (p) see(p, now);
}

static uint64_t vnow(pt_profile *p, uint64_t now) {
  see(p, now);
  return now - (uint64_t)p->debt;
}

int pt_profile_enter(pt_profile *p, int kind, uint64_t key, const char *name,
                     uint64_t now) {
  if (!p) return PT_EINVAL;
  if (kind <= PT_PROFILE_ROOT || kind >= PT_PROFILE__KINDS ||
      kind == PT_PROFILE_COMM || kind == PT_PROFILE_DEST)
    return PT_EINVAL;
  uint64_t v = vnow(p, now);
  p->debt += p->probe_ns;
  if (p->depth >= PT_PROFILE_MAX_DEPTH) {
    p->overflow++;
    return PT_ELIMIT;
  }
  uint32_t cur = p->depth ? p->stack[p->depth - 1].node : 0;
  pt__profile_frame *f = &p->stack[p->depth++];
  f->v_enter = v;
  f->folded = 0;
  /* Recursion: a procedure already active anywhere on the stack is folded
   * into its outermost activation. */
  if (kind == PT_PROFILE_PROC) {
    for (int d = p->depth - 2; d >= 0; d--) {
      const pt__profile_frame *g = &p->stack[d];
      if (!g->folded && p->nodes[g->node].kind == PT_PROFILE_PROC &&
          p->nodes[g->node].key == key) {
        f->node = g->node;
        f->folded = 1;
        p->nodes[g->node].count++;
        return PT_OK;
      }
    }
  }
  int created = 0;
  uint32_t id = pt__profile_child(p, cur, (uint32_t)kind, key, &created);
  if (id == UINT32_MAX) { /* full: count it in the current node */
    p->dropped++;
    f->node = cur;
    f->folded = 1;
    return PT_OK;
  }
  pt_profile_node *n = &p->nodes[id];
  if (created && name && *name) {
    const char *s = pt__profile_intern(p, name);
    if (s) n->name = s;
  }
  n->count++;
  if (p->active[id]) { /* the same context re-entered inside itself */
    f->node = id;
    f->folded = 1;
    return PT_OK;
  }
  p->active[id] = 1;
  f->node = id;
  return PT_OK;
}

int pt_profile_leave(pt_profile *p, uint64_t now) {
  if (!p) return PT_EINVAL;
  if (p->overflow) {
    p->overflow--;
    p->debt += p->leave_ns;
    return PT_OK;
  }
  if (p->depth == 0) return PT_ESTATE;
  /* The clock was read at the start of this probe: its own cost comes
   * after (the enter's cost is already in the debt). */
  uint64_t v = vnow(p, now);
  p->debt += p->leave_ns;
  pt__profile_frame *f = &p->stack[--p->depth];
  if (f->folded) return PT_OK;
  uint64_t d = v > f->v_enter ? v - f->v_enter : 0;
  pt_profile_node *n = &p->nodes[f->node];
  n->incl_ns += d;
  p->nodes[n->parent].child_ns += d;
  p->active[f->node] = 0;
  return PT_OK;
}

void pt_profile_set_site(pt_profile *p, const char *module, uint64_t offset) {
  if (!p || p->depth == 0) return;
  pt__profile_frame *f = &p->stack[p->depth - 1];
  pt_profile_node *n = &p->nodes[f->node];
  if (f->node == 0 || *n->module) return;
  const char *m = pt__profile_intern(p, module);
  if (m) n->module = m;
  n->offset = offset;
}

static void account(pt_profile *p, uint32_t id, uint64_t dur, uint64_t bytes,
                    uint64_t sync_ns) {
  pt_profile_node *n = &p->nodes[id];
  n->count++;
  n->incl_ns += dur;
  n->bytes += bytes;
  if (sync_ns == PT_PROFILE_SYNC_ESTIMATE) {
    pt__profile_est *e = &p->est[id];
    if (e->count == 0 && e->min == 0) e->min = dur;
    if (dur < e->min) e->min = dur;
    e->sum += dur;
    e->count++;
    return;
  }
  if (sync_ns > dur) sync_ns = dur;
  n->trans_ns += dur - sync_ns;
  n->sync_ns += sync_ns;
}

int pt_profile_comm(pt_profile *p, uint64_t key, const char *name,
                    const char *module, uint64_t offset, int64_t dest,
                    uint64_t bytes, uint64_t t0, uint64_t t1,
                    uint64_t sync_ns) {
  if (!p || t1 < t0) return PT_EINVAL;
  see(p, t0);
  see(p, t1);
  uint64_t dur = t1 - t0;
  uint32_t cur = p->depth ? p->stack[p->depth - 1].node : 0;
  p->debt += p->probe_ns;
  int created = 0;
  uint32_t id = pt__profile_child(p, cur, PT_PROFILE_COMM, key, &created);
  if (id == UINT32_MAX) {
    p->dropped++;
    return PT_OK;
  }
  pt_profile_node *n = &p->nodes[id];
  if (created) {
    const char *s = pt__profile_intern(p, name);
    const char *m = pt__profile_intern(p, module);
    if (s) n->name = s;
    if (m) n->module = m;
    n->offset = offset;
  }
  account(p, id, dur, bytes, sync_ns);
  if (dur > n->max_ns) n->max_ns = dur; /* the statement's longest call */
  p->nodes[cur].child_ns += dur;
  if (dest < 0) return PT_OK;
  uint32_t did = pt__profile_child(p, id, PT_PROFILE_DEST, (uint64_t)dest,
                                   &created);
  if (did == UINT32_MAX) {
    p->dropped++;
    return PT_OK;
  }
  /* Destinations break their statement down; they are not inside it, so
   * they do not reduce its exclusive time. */
  account(p, did, dur, bytes, sync_ns);
  return PT_OK;
}

int pt__profile_comm_multi(pt_profile *p, uint64_t key, const char *name,
                           const char *module, uint64_t offset,
                           uint64_t total, const uint64_t *keys,
                           const uint64_t *bytes, size_t n, uint64_t t0,
                           uint64_t t1, uint64_t sync_ns) {
  int rc = pt_profile_comm(p, key, name, module, offset, -1, total, t0, t1,
                           sync_ns);
  if (rc != PT_OK || !n) return rc;
  uint32_t cur = p->depth ? p->stack[p->depth - 1].node : 0;
  int created = 0;
  uint32_t id = pt__profile_child(p, cur, PT_PROFILE_COMM, key, &created);
  if (id == UINT32_MAX) return PT_OK; /* counted as dropped already */
  uint64_t dur = t1 - t0, share = dur / n;
  for (size_t i = 0; i < n; i++) {
    uint32_t did = pt__profile_child(p, id, PT_PROFILE_DEST, keys[i],
                                     &created);
    if (did == UINT32_MAX) {
      p->dropped++;
      continue;
    }
    /* the first partner takes the remainder: the shares add up */
    uint64_t d = share + (i == 0 ? dur - share * n : 0);
    account(p, did, d, bytes[i],
            sync_ns == PT_PROFILE_SYNC_ESTIMATE ? sync_ns
            : sync_ns / n + (i == 0 ? sync_ns - sync_ns / n * n : 0));
  }
  return PT_OK;
}

/* ---- code sites ---------------------------------------------------------- */

int pt__code_module(const void *addr, uint64_t *offset, char *path,
                    size_t n) {
  Dl_info info;
  struct link_map *lm = NULL;
  if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) {
    *offset = (uint64_t)(uintptr_t)addr;
    return -1;
  }
  *offset = (uint64_t)((uintptr_t)addr - (uintptr_t)lm->l_addr);
  const char *name = lm->l_name;
  if (name && *name) {
    snprintf(path, n, "%s", name);
    return 0;
  }
  /* the main program */
  ssize_t k = readlink("/proc/self/exe", path, n - 1);
  if (k <= 0) return -1;
  path[k] = '\0';
  return 0;
}

static const char *module_of(pt_profile *p, const void *addr,
                             uint64_t *offset) {
  char path[PATH_MAX];
  if (pt__code_module(addr, offset, path, sizeof path) != 0) return "";
  const char *s = pt__profile_intern(p, path);
  return s ? s : "";
}

uint64_t pt_profile_site(pt_profile *p, const void *addr, const char **module,
                         uint64_t *offset) {
  uintptr_t a = (uintptr_t)addr;
  size_t mask = p->site_cap - 1;
  size_t i = (size_t)mix(a) & mask;
  for (;; i = (i + 1) & mask) {
    pt__profile_site *s = &p->sites[i];
    if (s->addr == a && s->module) {
      *module = s->module;
      *offset = s->offset;
      return s->key;
    }
    if (!s->module) break;
  }
  uint64_t off = 0;
  const char *m = module_of(p, addr, &off);
  uint64_t key = mix(str_hash(m) ^ mix(off));
  *module = m;
  *offset = off;
  if ((p->nsites + 1) * 2 > p->site_cap) {
    if (p->site_cap >= (1u << 20)) return key; /* resolve uncached */
    size_t ncap = p->site_cap * 2;
    pt__profile_site *n = calloc(ncap, sizeof *n);
    if (!n) return key;
    for (size_t j = 0; j < p->site_cap; j++) {
      if (!p->sites[j].module) continue;
      size_t k = (size_t)mix(p->sites[j].addr) & (ncap - 1);
      while (n[k].module) k = (k + 1) & (ncap - 1);
      n[k] = p->sites[j];
    }
    free(p->sites);
    p->sites = n;
    p->site_cap = ncap;
    mask = ncap - 1;
    i = (size_t)mix(a) & mask;
    while (p->sites[i].module) i = (i + 1) & mask;
  }
  p->sites[i].addr = a;
  p->sites[i].module = m;
  p->sites[i].offset = off;
  p->sites[i].key = key;
  p->nsites++;
  return key;
}

/* ---- calibration --------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double pt_profile_calibrate(void) {
  pt_profile *p;
  if (pt_profile_create(&p, 64) != PT_OK) return 0;
  enum { ROUNDS = 7, PAIRS = 20000 };
  double r[ROUNDS];
  for (int k = 0; k < ROUNDS; k++) {
    uint64_t t0 = pt_profile_now();
    for (int i = 0; i < PAIRS; i++) {
      pt_profile_enter(p, PT_PROFILE_PROC, (uint64_t)(i & 7), NULL,
                       pt_profile_now());
      pt_profile_leave(p, pt_profile_now());
    }
    uint64_t t1 = pt_profile_now();
    r[k] = (double)(t1 - t0) / (2.0 * PAIRS);
  }
  pt_profile_destroy(p);
  qsort(r, ROUNDS, sizeof r[0], cmp_double);
  return r[ROUNDS / 2];
}

/* ---- saving -------------------------------------------------------------- */

enum { HEADER = 40, NODE_BYTES = 88 };
static const char MAGIC[8] = {'P', 'T', 'P', 'R', 'O', 'F', 0, 0};

/* Close every open frame at the last probe (for saving a live profile). */
static void close_open(pt_profile *p) {
  while (p->depth) pt_profile_leave(p, p->last);
  for (size_t i = 0; i < p->n; i++) settle(p, i);
  p->overflow = 0;
  if (p->root_from_clock) p->nodes[0].incl_ns = root_time(p);
}

typedef struct str_off {
  const char *s;
  uint32_t off;
} str_off;

static int build_strings(const pt_profile *p, pt__buf *sb, str_off **map,
                         size_t *mcap) {
  /* Offsets by pointer (strings are interned); offset 0 is "". */
  size_t cap = 16;
  while (cap < (p->nstrs + 1) * 2) cap <<= 1;
  str_off *m = calloc(cap, sizeof *m);
  if (!m) return PT_ENOMEM;
  uint8_t z = 0;
  if (pt__buf_put(sb, &z, 1)) {
    free(m);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < p->str_cap; i++) {
    const char *s = p->strs[i];
    if (!s) continue;
    size_t k = (size_t)mix((uintptr_t)s) & (cap - 1);
    while (m[k].s) k = (k + 1) & (cap - 1);
    m[k].s = s;
    m[k].off = (uint32_t)sb->len;
    if (pt__buf_put(sb, s, strlen(s) + 1)) {
      free(m);
      return PT_ENOMEM;
    }
  }
  *map = m;
  *mcap = cap;
  return PT_OK;
}

static uint32_t str_lookup(const str_off *m, size_t cap, const char *s) {
  if (!s || !*s) return 0;
  size_t k = (size_t)mix((uintptr_t)s) & (cap - 1);
  for (; m[k].s; k = (k + 1) & (cap - 1))
    if (m[k].s == s) return m[k].off;
  return 0;
}

int pt__profile_encode(pt_profile *p, pt__buf *out) {
  close_open(p);
  pt__buf sb = {0};
  str_off *map = NULL;
  size_t mcap = 0;
  int rc = build_strings(p, &sb, &map, &mcap);
  if (rc) {
    pt__buf_free(&sb);
    return rc;
  }
  size_t total = HEADER + sb.len + p->n * NODE_BYTES + 4;
  if (pt__buf_reserve(out, total)) {
    free(map);
    pt__buf_free(&sb);
    return PT_ENOMEM;
  }
  uint8_t *b = out->p + out->len;
  memcpy(b, MAGIC, 8);
  pt__put_u32(b + 8, 1);
  pt__put_u32(b + 12, 0);
  pt__put_u64(b + 16, p->n);
  pt__put_u64(b + 24, p->dropped);
  pt__put_u64(b + 32, sb.len);
  memcpy(b + HEADER, sb.p, sb.len);
  uint8_t *q = b + HEADER + sb.len;
  for (size_t i = 0; i < p->n; i++, q += NODE_BYTES) {
    const pt_profile_node *n = &p->nodes[i];
    pt__put_u32(q, n->parent);
    pt__put_u32(q + 4, n->kind);
    pt__put_u64(q + 8, n->key);
    pt__put_u32(q + 16, str_lookup(map, mcap, n->name));
    pt__put_u32(q + 20, str_lookup(map, mcap, n->module));
    pt__put_u64(q + 24, n->offset);
    pt__put_u64(q + 32, n->count);
    pt__put_u64(q + 40, n->incl_ns);
    pt__put_u64(q + 48, n->child_ns);
    pt__put_u64(q + 56, n->bytes);
    pt__put_u64(q + 64, n->trans_ns);
    pt__put_u64(q + 72, n->sync_ns);
    pt__put_u64(q + 80, n->max_ns); /* reserved (0) before */
  }
  pt__put_u32(q, pt__crc32c(0, b, (size_t)(q - b)));
  out->len += total;
  free(map);
  pt__buf_free(&sb);
  return PT_OK;
}

int pt__profile_is_file(const char *path) {
  char head[sizeof MAGIC];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, head, sizeof head);
  close(fd);
  return n == (ssize_t)sizeof head && !memcmp(head, MAGIC, sizeof head);
}

int pt_profile_is_output(const char *dir) {
  DIR *d = dir ? opendir(dir) : NULL;
  if (!d) return 0;
  struct dirent *e;
  int ok = 1;
  while (ok && (e = readdir(d))) {
    const char *n = e->d_name;
    if (!strcmp(n, ".") || !strcmp(n, "..")) continue;
    ok = !strncmp(n, "profile.", 8) && n[8] &&
         strspn(n + 8, "0123456789") == strlen(n + 8);
  }
  closedir(d);
  return ok;
}

int pt_profile_save(pt_profile *p, const char *archive, uint64_t id,
                    pt_error *err) {
  if (!p || !archive) return pt__err(err, PT_EINVAL, "profile: no path");
  if (mkdir(archive, 0777) != 0 && errno != EEXIST)
    return pt__err(err, PT_EIO, "%s: cannot create directory: %s", archive,
                   strerror(errno));
  pt__buf b = {0};
  int rc = pt__profile_encode(p, &b);
  if (rc) {
    pt__buf_free(&b);
    return pt__err(err, rc, "%s: out of memory encoding the profile", archive);
  }
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/profile.%llu", archive,
           (unsigned long long)id);
  rc = pt__write_atomic(path, b.p, b.len);
  pt__buf_free(&b);
  if (rc != 0)
    return pt__err(err, PT_EIO, "%s: cannot write: %s", path,
                   strerror(errno));
  return PT_OK;
}

/* ---- loading ------------------------------------------------------------- */

int pt__profile_decode(pt_profile **out, const uint8_t *b, size_t len,
                       const char *file, pt_error *err) {
  *out = NULL;
  if (len < 8 || memcmp(b, MAGIC, 8) != 0)
    return pt__err(err, PT_EFORMAT, "%s: offset 0: not a paratrace profile",
                   file);
  if (len < HEADER + 4)
    return pt__err(err, PT_ETRUNCATED, "%s: offset %zu: truncated header",
                   file, len);
  uint32_t version = pt__get_u32(b + 8);
  if (version != 1)
    return pt__err(err, PT_EVERSION,
                   "%s: offset 8: profile version %u (this build reads 1)",
                   file, version);
  uint64_t nn = pt__get_u64(b + 16), dropped = pt__get_u64(b + 24);
  uint64_t sl = pt__get_u64(b + 32);
  if (sl == 0 || sl > len || nn == 0 || nn > (len / NODE_BYTES) ||
      HEADER + sl + nn * NODE_BYTES + 4 != len)
    return pt__err(err, PT_ECORRUPT,
                   "%s: offset 16: node count %llu / string bytes %llu do not "
                   "match the file size %zu",
                   file, (unsigned long long)nn, (unsigned long long)sl, len);
  uint32_t crc = pt__get_u32(b + len - 4);
  if (pt__crc32c(0, b, len - 4) != crc)
    return pt__err(err, PT_ECORRUPT, "%s: offset %zu: checksum mismatch",
                   file, len - 4);
  const char *strs = (const char *)b + HEADER;
  if (strs[0] != '\0' || strs[sl - 1] != '\0')
    return pt__err(err, PT_ECORRUPT, "%s: offset %d: bad string table", file,
                   HEADER);
  pt_profile *p;
  int rc = pt_profile_create(&p, (size_t)(nn < 2 ? 2 : nn));
  if (rc) return pt__err(err, rc, "%s: cannot allocate %llu nodes", file,
                         (unsigned long long)nn);
  p->n = 0;
  p->dropped = dropped;
  p->root_from_clock = 0;
  const uint8_t *q = b + HEADER + sl;
  for (uint64_t i = 0; i < nn; i++, q += NODE_BYTES) {
    size_t at = (size_t)(q - b);
    uint32_t parent = pt__get_u32(q), kind = pt__get_u32(q + 4);
    uint32_t so = pt__get_u32(q + 16), mo = pt__get_u32(q + 20);
    int bad = kind >= PT_PROFILE__KINDS || so >= sl || mo >= sl ||
              (so && strs[so - 1] != '\0') || (mo && strs[mo - 1] != '\0');
    if (i == 0)
      bad |= kind != PT_PROFILE_ROOT || parent != 0;
    else
      bad |= kind == PT_PROFILE_ROOT || parent >= i;
    if (bad) {
      pt_profile_destroy(p);
      return pt__err(err, PT_ECORRUPT,
                     "%s: offset %zu: node %llu: bad kind, parent or string",
                     file, at, (unsigned long long)i);
    }
    uint64_t key = pt__get_u64(q + 8);
    pt_profile_node *n;
    if (i == 0) {
      n = &p->nodes[0];
      p->n = 1;
    } else {
      int created = 0;
      uint32_t id = pt__profile_child(p, parent, kind, key, &created);
      if (id == UINT32_MAX || !created) {
        pt_profile_destroy(p);
        return pt__err(err, PT_ECORRUPT, "%s: offset %zu: duplicate node %llu",
                       file, at, (unsigned long long)i);
      }
      n = &p->nodes[id];
    }
    const char *nm = pt__profile_intern(p, strs + so);
    const char *md = pt__profile_intern(p, strs + mo);
    if (!nm || !md) {
      pt_profile_destroy(p);
      return pt__err(err, PT_ENOMEM, "%s: out of memory", file);
    }
    n->name = nm;
    n->module = md;
    n->offset = pt__get_u64(q + 24);
    n->count = pt__get_u64(q + 32);
    n->incl_ns = pt__get_u64(q + 40);
    n->child_ns = pt__get_u64(q + 48);
    n->bytes = pt__get_u64(q + 56);
    n->trans_ns = pt__get_u64(q + 64);
    n->sync_ns = pt__get_u64(q + 72);
    n->max_ns = pt__get_u64(q + 80); /* 0 in files written before */
  }
  *out = p;
  return PT_OK;
}

int pt_profile_load(pt_profile **out, const char *file, pt_error *err) {
  if (!out || !file) return pt__err(err, PT_EINVAL, "profile: no file");
  *out = NULL;
  char *data = NULL;
  size_t len = 0;
  int rc = pt__read_file(file, (size_t)1 << 31, &data, &len);
  if (rc) return pt__err(err, rc, "%s: cannot read: %s", file,
                         rc == PT_ELIMIT ? "larger than 2 GiB"
                                         : strerror(errno));
  rc = pt__profile_decode(out, (const uint8_t *)data, len, file, err);
  free(data);
  return rc;
}

/* ---- merging ------------------------------------------------------------- */

int pt_profile_merge(pt_profile *dst, const pt_profile *src) {
  if (!dst || !src) return PT_EINVAL;
  uint32_t *map = malloc(src->n * sizeof *map);
  if (!map) return PT_ENOMEM;
  map[0] = 0;
  pt_profile_node *r = &dst->nodes[0];
  /* the program runs once per rank: a dst that never recorded nor merged
   * anything (fresh from pt_profile_create, its root counted once) takes
   * src's count */
  if (!dst->merges && !dst->started && dst->n == 1) r->count = 0;
  dst->merges++;
  r->count += src->nodes[0].count;
  r->incl_ns += src->nodes[0].incl_ns;
  r->child_ns += src->nodes[0].child_ns;
  dst->root_from_clock = 0;
  for (size_t i = 1; i < src->n; i++) {
    const pt_profile_node *s = &src->nodes[i];
    uint32_t parent = map[s->parent];
    int created = 0;
    uint32_t id = parent == UINT32_MAX
                      ? UINT32_MAX
                      : pt__profile_child(dst, parent, s->kind, s->key,
                                          &created);
    map[i] = id;
    if (id == UINT32_MAX) {
      dst->dropped++;
      continue;
    }
    pt_profile_node *d = &dst->nodes[id];
    if (created) {
      d->name = pt__profile_intern(dst, s->name);
      d->module = pt__profile_intern(dst, s->module);
      if (!d->name || !d->module) {
        free(map);
        return PT_ENOMEM;
      }
      d->offset = s->offset;
    }
    d->count += s->count;
    d->incl_ns += s->incl_ns;
    d->child_ns += s->child_ns;
    d->bytes += s->bytes;
    d->trans_ns += s->trans_ns;
    d->sync_ns += s->sync_ns;
    if (s->max_ns > d->max_ns) d->max_ns = s->max_ns;
  }
  dst->dropped += src->dropped;
  free(map);
  return PT_OK;
}
