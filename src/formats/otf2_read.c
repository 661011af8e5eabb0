/* OTF2 source through libotf2: global and local definitions, then the
 * events of every location merged in time order by OTF2's global event
 * reader.  Mapping to the model: doc/otf2.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "formats/otf2_int.h"
#include "store/map.h"

/* A definition whose string slots (name, s1, s2, s3) are still OTF2 string
 * refs: slot i becomes pre[i] + string(sref[i]) once every string is known
 * (a writer may define strings after their users). */
typedef struct pdef {
  pt_def d;
  uint32_t sref[4];
  const char *pre[4];
  int folded; /* not passed on: folded into another definition */
} pdef;

typedef struct osrc {
  OTF2_Reader *rd;
  OTF2_GlobalEvtReader *gev;
  int want_gev; /* the events are to be read: gev made at the first */
  int defs_only; /* pt_source_opts.defs_only: no event reader at all */
  char *path;
  char *stem; /* path without ".otf2": STEM.def, STEM/<location>.evt */
  char err[1600];
  int cb_rc; /* first error inside a callback */
  pt__arena mem; /* definitions: live until close */
  pt__arena ev;  /* the current event's items: reset per OTF2 event */
  /* strings: ref -> index */
  pt__map strmap;
  const char **strs;
  size_t nstrs, capstrs;
  /* definitions */
  pdef *defs;
  size_t ndefs, capdefs, dpos;
  uint64_t next_kv;
  pt__map group_def; /* OTF2 group / metric group id -> index in defs */
  pt__map comm_group; /* comm -> group */
  pt__map inter_b;    /* inter-communicator -> its group B */
  pt__map inter_a;    /* (comm << 32 | world rank): a member of group A */
  pt__map loc_rank;   /* location -> world rank */
  pt__map win_comm;   /* RmaWin -> its communicator (OTF2 ids) */
  pt__map cc_region;  /* CallingContext -> its region (OTF2 ids) */
  pt__map rep_attr;   /* attribute "NAME[r]" of a repeated key -> NAME's */
  pt__map ints_attr;  /* STRING attributes the sink marked as INTS */
  uint64_t *locs;
  size_t nlocs, caplocs;
  /* events produced by one OTF2 record */
  pt_item *q;
  size_t qn, qpos, qcap;
  int stage; /* 0 definitions, 1 events, 2 snapshots, 3 end */
  /* chunk sizes of event and definition files, when walk_file() can
   * follow them (POSIX substrate, no compression); else 0 */
  uint64_t chunk_evt, chunk_def;
  OTF2_GlobalSnapReader *gsr;
  uint64_t nsnaps;
} osrc;

static int src_fail(osrc *s, int st, const char *fmt, ...) PT_PRINTF(3, 4);
static int probe(const char *path, int is_dir, const uint8_t *head,
                 size_t n);

static int src_fail(osrc *s, int st, const char *fmt, ...) {
  char m[1100];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  char lib[400];
  const char *l = pt__otf2_take(lib, sizeof lib);
  snprintf(s->err, sizeof s->err, "%s: %s%s%s%s", s->path, m,
           l ? " [libotf2: " : "", l ? l : "", l ? "]" : "");
  if (!s->cb_rc) s->cb_rc = st;
  return st;
}

static int otf2_fail(osrc *s, const char *what, OTF2_ErrorCode e);

/* ---- definitions --------------------------------------------------------- */

static pdef *pdef_add(osrc *s, uint32_t kind, uint64_t id) {
  if (PT_GROW(s->defs, s->capdefs, s->ndefs + 1, 64)) return NULL;
  pdef *p = &s->defs[s->ndefs++];
  memset(p, 0, sizeof *p);
  pt_def_init(&p->d, kind, id);
  for (int i = 0; i < 4; i++) p->sref[i] = OTF2_UNDEFINED_STRING;
  return p;
}

#define ADD(p, kind, id)                                                     \
  pdef *p = pdef_add(s, kind, id);                                           \
  if (!p) return cb_oom(s)

static OTF2_CallbackCode cb_oom(osrc *s) {
  src_fail(s, PT_ENOMEM, "out of memory");
  return OTF2_CALLBACK_INTERRUPT;
}

static uint64_t ref32(uint32_t r) {
  return r == OTF2_UNDEFINED_UINT32 ? PT_NONE : r;
}

/* A KEYVAL "otf2:..." scoped to `scope`; value = pre + string(sref). */
static pdef *kv_add(osrc *s, uint64_t scope, const char *name,
                    const char *value, uint32_t sref) {
  pdef *p = pdef_add(s, PT_DEF_KEYVAL, s->next_kv++);
  if (!p) return NULL;
  p->d.parent = scope;
  p->d.name = pt__arena_strdup(&s->mem, name);
  p->pre[1] = value ? pt__arena_strdup(&s->mem, value) : NULL;
  p->sref[1] = sref;
  if (!p->d.name || (value && !p->pre[1])) return NULL;
  if (sref == OTF2_UNDEFINED_STRING && !value) p->pre[1] = "";
  return p;
}

static int kv_int(osrc *s, uint64_t scope, const char *name, int64_t v) {
  char b[32];
  snprintf(b, sizeof b, "%" PRId64, v);
  return kv_add(s, scope, name, b, OTF2_UNDEFINED_STRING) ? 0 : -1;
}

static OTF2_CallbackCode d_clock(void *u, uint64_t res, uint64_t off,
                                 uint64_t len, uint64_t realtime) {
  osrc *s = u;
  ADD(p, PT_DEF_CLOCK, 0);
  p->d.parent = off;
  p->d.i0 = (int64_t)res;
  p->d.i2 = (int64_t)len;
  /* epoch = realtime of tick 0; the sink inverts this exactly */
  if (realtime != OTF2_UNDEFINED_TIMESTAMP && res) {
    __int128 ns = (__int128)off * 1000000000 / res;
    p->d.i1 = (int64_t)realtime - (int64_t)ns;
    if (p->d.i1 == 0) p->d.i1 = 1; /* 0 means "unknown" */
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_string(void *u, OTF2_StringRef ref,
                                  const char *str) {
  osrc *s = u;
  if (PT_GROW(s->strs, s->capstrs, s->nstrs + 1, 256)) return cb_oom(s);
  const char *c = pt__arena_strdup(&s->mem, str ? str : "");
  if (!c || pt__map_put(&s->strmap, ref, s->nstrs) < 0) return cb_oom(s);
  s->strs[s->nstrs++] = c;
  return OTF2_CALLBACK_SUCCESS;
}

static const char *str_of(const osrc *s, uint32_t ref) {
  uint64_t i;
  if (ref == OTF2_UNDEFINED_STRING || !pt__map_get(&s->strmap, ref, &i))
    return NULL;
  return s->strs[i];
}

static OTF2_CallbackCode d_paradigm(void *u, OTF2_Paradigm par,
                                    OTF2_StringRef name,
                                    OTF2_ParadigmClass cls) {
  osrc *s = u;
  char pre[32];
  snprintf(pre, sizeof pre, "%d ", (int)cls);
  if (!kv_add(s, par, "otf2:paradigm", pre, name)) return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_attribute(void *u, OTF2_AttributeRef self,
                                     OTF2_StringRef name, OTF2_StringRef desc,
                                     OTF2_Type type) {
  osrc *s = u;
  ADD(p, PT_DEF_ATTRIBUTE, self);
  p->d.i0 = pt__otf2_type_to_model(type);
  p->d.i1 = type;
  p->sref[0] = name;
  p->sref[1] = desc;
  if (pt__otf2_type_from_model((int)p->d.i0) != type &&
      kv_int(s, self, "otf2:attribute.type", type) < 0)
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_stn(void *u, OTF2_SystemTreeNodeRef self,
                               OTF2_StringRef name, OTF2_StringRef cls,
                               OTF2_SystemTreeNodeRef parent) {
  osrc *s = u;
  ADD(p, PT_DEF_SYSTEM_NODE, self);
  p->d.parent = ref32(parent);
  p->sref[0] = name;
  p->sref[1] = cls;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_lg(void *u, OTF2_LocationGroupRef self,
                              OTF2_StringRef name, OTF2_LocationGroupType type,
                              OTF2_SystemTreeNodeRef parent,
                              OTF2_LocationGroupRef creator) {
  osrc *s = u;
  ADD(p, PT_DEF_LOCATION_GROUP, self);
  p->d.parent = ref32(parent);
  p->d.ref = ref32(creator);
  p->d.i0 = type;
  p->d.i1 = -1; /* rank: set from the MPI COMM_LOCATIONS group later */
  p->sref[0] = name;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_loc(void *u, OTF2_LocationRef self,
                               OTF2_StringRef name, OTF2_LocationType type,
                               uint64_t nev, OTF2_LocationGroupRef group) {
  osrc *s = u;
  ADD(p, PT_DEF_LOCATION, self);
  p->d.parent = ref32(group);
  p->d.i0 = type; /* OTF2_LocationType == pt_location_kind */
  p->d.i1 = (int64_t)nev;
  p->sref[0] = name;
  if (PT_GROW(s->locs, s->caplocs, s->nlocs + 1, 16)) return cb_oom(s);
  s->locs[s->nlocs++] = self;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_region(void *u, OTF2_RegionRef self,
                                  OTF2_StringRef name, OTF2_StringRef canon,
                                  OTF2_StringRef desc, OTF2_RegionRole role,
                                  OTF2_Paradigm par, OTF2_RegionFlag flags,
                                  OTF2_StringRef file, uint32_t begin,
                                  uint32_t end) {
  osrc *s = u;
  ADD(p, PT_DEF_REGION, self);
  p->d.i0 = pt__otf2_role_to_model(role);
  p->d.i1 = pt__otf2_paradigm_to_model(par);
  p->d.i2 = begin;
  p->d.i3 = end;
  p->sref[0] = name;
  p->sref[1] = canon;
  p->sref[2] = desc;
  p->sref[3] = file;
  /* decided before kv_int, which adds a definition: p may move */
  int role_kv = pt__otf2_role_from_model((int)p->d.i0) != role,
      par_kv = pt__otf2_paradigm_from_model((int)p->d.i1) != par;
  p = NULL;
  if (role_kv && kv_int(s, self, "otf2:region.role", role) < 0)
    return cb_oom(s);
  if (par_kv && kv_int(s, self, "otf2:region.paradigm", par) < 0)
    return cb_oom(s);
  if (flags && kv_int(s, self, "otf2:region.flags", flags) < 0)
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_callsite(void *u, OTF2_CallsiteRef self,
                                    OTF2_StringRef file, uint32_t line,
                                    OTF2_RegionRef entered,
                                    OTF2_RegionRef left) {
  osrc *s = u;
  ADD(p, PT_DEF_CALLSITE, self);
  p->d.parent = PT_NONE;
  p->d.ref = ref32(left);
  p->d.ref2 = ref32(entered);
  p->d.i0 = line;
  p->sref[1] = file;
  return OTF2_CALLBACK_SUCCESS;
}

static int remember_group(osrc *s, uint64_t id) {
  return pt__map_put(&s->group_def, id, s->ndefs - 1);
}

static OTF2_CallbackCode d_group(void *u, OTF2_GroupRef self,
                                 OTF2_StringRef name, OTF2_GroupType type,
                                 OTF2_Paradigm par, OTF2_GroupFlag flags,
                                 uint32_t n, const uint64_t *members) {
  osrc *s = u;
  ADD(p, PT_DEF_GROUP, self);
  p->d.i0 = type; /* OTF2_GroupType == pt_group_kind for 0..6 */
  p->d.i1 = pt__otf2_paradigm_to_model(par);
  p->d.i2 = flags;
  p->sref[0] = name;
  p->d.nmembers = n;
  if (n) {
    uint64_t *m = pt__arena_alloc(&s->mem, n * sizeof *m);
    if (!m) return cb_oom(s);
    memcpy(m, members, n * sizeof *m);
    p->d.members = m;
  }
  int par_kv = pt__otf2_paradigm_from_model((int)p->d.i1) != par;
  p = NULL; /* (kv_int adds a definition: p may move) */
  if (remember_group(s, self) < 0) return cb_oom(s);
  if (par_kv && kv_int(s, self, "otf2:group.paradigm", par) < 0)
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_comm(void *u, OTF2_CommRef self,
                                OTF2_StringRef name, OTF2_GroupRef group,
                                OTF2_CommRef parent, OTF2_CommFlag flags) {
  osrc *s = u;
  ADD(p, PT_DEF_COMM, self);
  p->d.parent = ref32(parent);
  p->d.ref = ref32(group);
  p->d.i1 = flags;
  p->sref[0] = name;
  if (pt__map_put(&s->comm_group, self, p->d.ref) < 0) return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

/* An inter-communicator: COMM with group A and the common communicator as
 * parent; KEYVAL "otf2:intercomm" (scope = comm) = group B. */
static OTF2_CallbackCode d_intercomm(void *u, OTF2_CommRef self,
                                     OTF2_StringRef name, OTF2_GroupRef a,
                                     OTF2_GroupRef b, OTF2_CommRef common,
                                     OTF2_CommFlag flags) {
  osrc *s = u;
  if (d_comm(u, self, name, a, common, flags) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;
  uint64_t g = ref32(b);
  if (kv_int(s, self, "otf2:intercomm", g == PT_NONE ? -1 : (int64_t)g) < 0 ||
      pt__map_put(&s->inter_b, self, g) < 0)
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_parameter(void *u, OTF2_ParameterRef self,
                                     OTF2_StringRef name,
                                     OTF2_ParameterType type) {
  osrc *s = u;
  ADD(p, PT_DEF_PARAMETER, self);
  p->d.i0 = type == OTF2_PARAMETER_TYPE_STRING  ? PT_TYPE_STRING
            : type == OTF2_PARAMETER_TYPE_INT64 ? PT_TYPE_INT
                                                : PT_TYPE_UINT;
  p->sref[0] = name;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_member(void *u, OTF2_MetricMemberRef self,
                                  OTF2_StringRef name, OTF2_StringRef desc,
                                  OTF2_MetricType mtype, OTF2_MetricMode mode,
                                  OTF2_Type vtype, OTF2_Base base,
                                  int64_t exponent, OTF2_StringRef unit) {
  osrc *s = u;
  ADD(p, PT_DEF_METRIC, self);
  p->d.ref = PT_NONE;
  p->d.i0 = pt__otf2_type_to_model(vtype);
  p->d.i1 = pt__otf2_mode_to_model(mode);
  p->d.i2 = base == OTF2_BASE_BINARY ? 2 : 10;
  p->d.i3 = exponent;
  p->sref[0] = name;
  p->sref[1] = unit;
  p->sref[2] = desc;
  /* decided before kv_int, which adds a definition: p may move */
  int mode_kv = pt__otf2_mode_from_model((int)p->d.i1) != mode,
      vtype_kv = pt__otf2_type_from_model((int)p->d.i0) != vtype;
  p = NULL;
  if (mtype != OTF2_METRIC_TYPE_OTHER &&
      kv_int(s, self, "otf2:metric.type", mtype) < 0)
    return cb_oom(s);
  if (mode_kv && kv_int(s, self, "otf2:metric.mode", mode) < 0)
    return cb_oom(s);
  if (vtype_kv && kv_int(s, self, "otf2:metric.value_type", vtype) < 0)
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_mclass(void *u, OTF2_MetricRef self, uint8_t n,
                                  const OTF2_MetricMemberRef *members,
                                  OTF2_MetricOccurrence occ,
                                  OTF2_RecorderKind kind) {
  osrc *s = u;
  uint64_t gid = PT__OTF2_METRIC_GROUP(self);
  ADD(p, PT_DEF_GROUP, gid);
  p->d.i0 = PT_GROUP_METRICS;
  p->d.nmembers = n;
  uint64_t *m = pt__arena_alloc(&s->mem, (n + 1) * sizeof *m);
  if (!m) return cb_oom(s);
  for (unsigned i = 0; i < n; i++) m[i] = members[i];
  p->d.members = m;
  if (remember_group(s, gid) < 0) return cb_oom(s);
  char v[48];
  snprintf(v, sizeof v, "%d %d", (int)occ, (int)kind);
  if (!kv_add(s, gid, "otf2:metric_class", v, OTF2_UNDEFINED_STRING))
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_minstance(void *u, OTF2_MetricRef self,
                                     OTF2_MetricRef cls, OTF2_LocationRef rec,
                                     OTF2_MetricScope stype, uint64_t scope) {
  osrc *s = u;
  uint64_t gid = PT__OTF2_METRIC_GROUP(self), ci;
  ADD(p, PT_DEF_GROUP, gid);
  p->d.i0 = PT_GROUP_METRICS;
  if (pt__map_get(&s->group_def, PT__OTF2_METRIC_GROUP(cls), &ci)) {
    p->d.nmembers = s->defs[ci].d.nmembers; /* same storage: arena */
    p->d.members = s->defs[ci].d.members;
  }
  if (remember_group(s, gid) < 0) return cb_oom(s);
  char v[96];
  snprintf(v, sizeof v, "%" PRIu32 " %" PRIu64 " %d %" PRIu64, cls, rec,
           (int)stype, scope);
  if (!kv_add(s, gid, "otf2:metric_instance", v, OTF2_UNDEFINED_STRING))
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_mrecorder(void *u, OTF2_MetricRef m,
                                     OTF2_LocationRef rec) {
  osrc *s = u;
  if (kv_int(s, PT__OTF2_METRIC_GROUP(m), "otf2:metric_class_recorder",
             (int64_t)rec) < 0)
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

/* Properties: KEYVAL "otf2:property.<owner>:<NAME>" = "<OTF2_Type> <value>"
 * (string values by content). */
static OTF2_CallbackCode property_kv(osrc *s, const char *kn, uint64_t scope,
                                     OTF2_StringRef name, OTF2_Type type,
                                     OTF2_AttributeValue v) {
  char val[64];
  pdef *p = pdef_add(s, PT_DEF_KEYVAL, s->next_kv++);
  if (!p) return cb_oom(s);
  p->d.parent = scope;
  p->pre[0] = pt__arena_strdup(&s->mem, kn);
  p->sref[0] = name;
  uint32_t sref = OTF2_UNDEFINED_STRING;
  switch (type) {
    case OTF2_TYPE_INT8: snprintf(val, sizeof val, "%d %d", type, v.int8); break;
    case OTF2_TYPE_INT16: snprintf(val, sizeof val, "%d %d", type, v.int16); break;
    case OTF2_TYPE_INT32: snprintf(val, sizeof val, "%d %d", type, v.int32); break;
    case OTF2_TYPE_INT64:
      snprintf(val, sizeof val, "%d %" PRId64, type, v.int64);
      break;
    case OTF2_TYPE_FLOAT:
      snprintf(val, sizeof val, "%d %.9g", type, (double)v.float32);
      break;
    case OTF2_TYPE_DOUBLE:
      snprintf(val, sizeof val, "%d %.17g", type, v.float64);
      break;
    case OTF2_TYPE_STRING:
      snprintf(val, sizeof val, "%d ", type);
      sref = v.stringRef;
      break;
    default: /* unsigned and references: the raw 64-bit value */
      snprintf(val, sizeof val, "%d %" PRIu64, type,
               type == OTF2_TYPE_UINT8    ? v.uint8
               : type == OTF2_TYPE_UINT16 ? v.uint16
               : type == OTF2_TYPE_UINT32 ? v.uint32
                                          : v.uint64);
  }
  p->pre[1] = pt__arena_strdup(&s->mem, val);
  p->sref[1] = sref;
  if (!p->pre[0] || !p->pre[1]) return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode property(osrc *s, const char *owner, uint64_t scope,
                                  OTF2_StringRef name, OTF2_Type type,
                                  OTF2_AttributeValue v) {
  char kn[64];
  snprintf(kn, sizeof kn, "otf2:property.%s:", owner);
  return property_kv(s, kn, scope, name, type, v);
}

static OTF2_CallbackCode d_stn_prop(void *u, OTF2_SystemTreeNodeRef n,
                                    OTF2_StringRef name, OTF2_Type t,
                                    OTF2_AttributeValue v) {
  return property(u, "system_node", n, name, t, v);
}
static OTF2_CallbackCode d_lg_prop(void *u, OTF2_LocationGroupRef g,
                                   OTF2_StringRef name, OTF2_Type t,
                                   OTF2_AttributeValue v) {
  return property(u, "location_group", g, name, t, v);
}
static OTF2_CallbackCode d_loc_prop(void *u, OTF2_LocationRef l,
                                    OTF2_StringRef name, OTF2_Type t,
                                    OTF2_AttributeValue v) {
  return property(u, "location", l, name, t, v);
}

/* Properties named by a number (an enumeration or a reference), not a
 * string: "otf2:property.<owner>:<number>". */
static OTF2_CallbackCode property_n(osrc *s, const char *owner, uint64_t scope,
                                    uint64_t n, OTF2_Type type,
                                    OTF2_AttributeValue v) {
  char kn[80];
  snprintf(kn, sizeof kn, "otf2:property.%s:%" PRIu64, owner, n);
  return property_kv(s, kn, scope, OTF2_UNDEFINED_STRING, type, v);
}
static OTF2_CallbackCode d_par_prop(void *u, OTF2_Paradigm par,
                                    OTF2_ParadigmProperty prop, OTF2_Type t,
                                    OTF2_AttributeValue v) {
  return property_n(u, "paradigm", par, prop, t, v);
}
static OTF2_CallbackCode d_file_prop(void *u, OTF2_IoFileRef f,
                                     OTF2_StringRef name, OTF2_Type t,
                                     OTF2_AttributeValue v) {
  return property(u, "io_file", f, name, t, v);
}
/* scoped by the OTF2 ids, as the generic definitions they belong to */
static OTF2_CallbackCode d_cc_prop(void *u, OTF2_CallingContextRef c,
                                   OTF2_StringRef name, OTF2_Type t,
                                   OTF2_AttributeValue v) {
  return property(u, "calling_context", c, name, t, v);
}
static OTF2_CallbackCode d_cp_param(void *u, OTF2_CallpathRef c,
                                    OTF2_ParameterRef par, OTF2_Type t,
                                    OTF2_AttributeValue v) {
  return property_n(u, "callpath", c, par, t, v);
}

/* KEYVAL "otf2:stn_domain" (scope = node) = the OTF2_SystemTreeDomain. */
static OTF2_CallbackCode d_stn_domain(void *u, OTF2_SystemTreeNodeRef n,
                                      OTF2_SystemTreeDomain dom) {
  osrc *s = u;
  if (kv_int(s, n, "otf2:stn_domain", dom) < 0) return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}
/* KEYVAL "otf2:io_precreated" (scope = handle) = "<mode> <status flags>". */
static OTF2_CallbackCode d_io_precreated(void *u, OTF2_IoHandleRef h,
                                         OTF2_IoAccessMode mode,
                                         OTF2_IoStatusFlag flags) {
  osrc *s = u;
  char v[48];
  snprintf(v, sizeof v, "%d %" PRIu32, (int)mode, (uint32_t)flags);
  if (!kv_add(s, h, "otf2:io_precreated", v, OTF2_UNDEFINED_STRING))
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}
/* Cartesian topologies, scoped by OTF2 id like the generic definitions:
 * "otf2:def.CartTopology" = "<comm> <n> <dimension>..." (the communicator
 * as a model id) with ".str" = the name; "otf2:def.CartCoordinate" (scope
 * = the topology, one per rank) = "<rank> <n> <coordinate>...". */
static uint64_t ref_value(OTF2_Type type, uint64_t v);
/* " <v>" for each of the n values, after the l characters of b[cap]
 * (room: 11 per value; a full buffer stops the list, never overruns). */
static void append_u32s(char *b, size_t cap, int l, const uint32_t *v,
                        unsigned n) {
  for (unsigned i = 0; i < n && l >= 0 && (size_t)l < cap; i++)
    l += snprintf(b + l, cap - (size_t)l, " %" PRIu32, v[i]);
}
static OTF2_CallbackCode d_cart_topo(void *u, OTF2_CartTopologyRef self,
                                     OTF2_StringRef name, OTF2_CommRef comm,
                                     uint8_t n, const OTF2_CartDimensionRef *d) {
  osrc *s = u;
  char b[11 * 256 + 64];
  uint64_t c = ref_value(OTF2_TYPE_COMM, comm);
  int l = snprintf(b, sizeof b, "%" PRId64 " %u",
                   c == PT_NONE ? INT64_C(-1) : (int64_t)c, (unsigned)n);
  uint32_t dims[256];
  for (unsigned i = 0; i < n; i++) dims[i] = (uint32_t)d[i];
  append_u32s(b, sizeof b, l, dims, n);
  if (!kv_add(s, self, "otf2:def.CartTopology", b, OTF2_UNDEFINED_STRING) ||
      (name != OTF2_UNDEFINED_STRING &&
       !kv_add(s, self, "otf2:def.CartTopology.str", NULL, name)))
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode d_cart_coord(void *u, OTF2_CartTopologyRef topo,
                                      uint32_t rank, uint8_t n,
                                      const uint32_t *coords) {
  osrc *s = u;
  char b[11 * 256 + 32];
  int l = snprintf(b, sizeof b, "%" PRIu32 " %u", rank, (unsigned)n);
  append_u32s(b, sizeof b, l, coords, n);
  if (!kv_add(s, topo, "otf2:def.CartCoordinate", b, OTF2_UNDEFINED_STRING))
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_iofile(void *u, OTF2_IoFileRef self,
                                  OTF2_StringRef name,
                                  OTF2_SystemTreeNodeRef scope) {
  osrc *s = u;
  ADD(p, PT_DEF_FILE, self);
  p->d.parent = ref32(scope);
  p->sref[0] = name;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_iodir(void *u, OTF2_IoFileRef self,
                                 OTF2_StringRef name,
                                 OTF2_SystemTreeNodeRef scope) {
  osrc *s = u;
  if (d_iofile(u, self, name, scope) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;
  if (kv_int(s, self, "otf2:file.directory", 1) < 0) return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_iohandle(void *u, OTF2_IoHandleRef self,
                                    OTF2_StringRef name, OTF2_IoFileRef file,
                                    OTF2_IoParadigmRef par,
                                    OTF2_IoHandleFlag flags, OTF2_CommRef comm,
                                    OTF2_IoHandleRef parent) {
  osrc *s = u;
  ADD(p, PT_DEF_IO_HANDLE, self);
  p->d.parent = ref32(parent);
  p->d.ref = ref32(file);
  p->d.ref2 = ref32(comm);
  p->d.i0 = par; /* the OTF2 IoParadigm definition (KEYVAL otf2:io_paradigm) */
  p->d.i1 = flags;
  p->sref[0] = name;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_ioparadigm(
    void *u, OTF2_IoParadigmRef self, OTF2_StringRef ident,
    OTF2_StringRef name, OTF2_IoParadigmClass cls, OTF2_IoParadigmFlag flags,
    uint8_t nprops, const OTF2_IoParadigmProperty *props,
    const OTF2_Type *types, const OTF2_AttributeValue *values) {
  osrc *s = u;
  for (unsigned i = 0; i < nprops; i++)
    if (property_n(s, "io_paradigm", self, props[i], types[i], values[i]) !=
        OTF2_CALLBACK_SUCCESS)
      return OTF2_CALLBACK_INTERRUPT;
  char v[48];
  snprintf(v, sizeof v, "%d %d ", (int)cls, (int)flags);
  if (!kv_add(s, self, "otf2:io_paradigm", v, ident) ||
      !kv_add(s, self, "otf2:io_paradigm.name", NULL, name))
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

/* Local definitions: clock offsets (mapping tables are applied by libotf2). */
typedef struct local_ctx {
  osrc *s;
  uint64_t loc;
} local_ctx;

/* OTF2's global event reader always applies the clock offsets, so events
 * come in corrected time; the offsets are kept as KEYVAL
 * "otf2:clock_offset" (scope = location, "time offset stddev") for the
 * record, never as CLOCK_SYNC (which would be applied a second time). */
static OTF2_CallbackCode d_clock_offset(void *u, OTF2_TimeStamp t,
                                        int64_t off, double stddev) {
  local_ctx *c = u;
  osrc *s = c->s;
  char v[96];
  snprintf(v, sizeof v, "%" PRIu64 " %" PRId64 " %.17g", (uint64_t)t, off,
           stddev);
  if (!kv_add(s, c->loc, "otf2:clock_offset", v, OTF2_UNDEFINED_STRING))
    return cb_oom(s);
  return OTF2_CALLBACK_SUCCESS;
}

/* The value index r if attribute `d` is one the sink made for the r-th
 * value of a key repeated in one event ("NAME[r]", described by
 * PT__OTF2_REP_DESC_*), with *base and *blen = NAME; else 0. */
static uint32_t rep_of(const pt_def *d, const char **base, size_t *blen) {
  static const char a[] = PT__OTF2_REP_DESC_A, b[] = PT__OTF2_REP_DESC_B,
                    c[] = PT__OTF2_REP_DESC_C;
  const char *t = d->s1, *n = d->name;
  if (!t || !n || strncmp(t, a, sizeof a - 1) != 0) return 0;
  t += sizeof a - 1;
  char *end;
  errno = 0;
  unsigned long r = strtoul(t, &end, 10);
  if (end == t || errno || r == 0 || r > UINT32_MAX ||
      strncmp(end, b, sizeof b - 1) != 0)
    return 0;
  const char *nm = end + sizeof b - 1;
  size_t tl = strlen(nm);
  if (tl < sizeof c - 1 || strcmp(nm + tl - (sizeof c - 1), c) != 0) return 0;
  size_t bl = tl - (sizeof c - 1);
  /* the name must be NAME[r] */
  char idx[16];
  int il = snprintf(idx, sizeof idx, "[%lu]", r);
  if (strlen(n) != bl + (size_t)il || strncmp(n, nm, bl) != 0 ||
      strcmp(n + bl, idx) != 0)
    return 0;
  *base = nm;
  *blen = bl;
  return (uint32_t)r;
}

/* Fold the sink's "NAME[r]" attributes back into NAME: their definitions
 * are not passed on and their values take NAME's key (take_attrs), so a
 * key repeated in one event (DUMPI's argv strings and int arrays) comes
 * back repeated.  Only when NAME is an attribute of the same OTF2 type
 * that is not such an attribute itself. */
static int fold_rep_attrs(osrc *s) {
  for (size_t i = 0; i < s->ndefs; i++) {
    pdef *p = &s->defs[i];
    const char *bn;
    size_t bl;
    if (p->d.kind != PT_DEF_ATTRIBUTE || !rep_of(&p->d, &bn, &bl)) continue;
    const pt_def *base = NULL;
    for (size_t j = 0; j < s->ndefs && !base; j++) {
      const pt_def *d = &s->defs[j].d;
      const char *b2;
      size_t l2;
      if (j != i && d->kind == PT_DEF_ATTRIBUTE && d->name &&
          d->i1 == p->d.i1 && strlen(d->name) == bl &&
          strncmp(d->name, bn, bl) == 0 && !rep_of(d, &b2, &l2))
        base = d;
    }
    if (!base) continue;
    if (pt__map_put(&s->rep_attr, p->d.id, base->id) < 0) return PT_ENOMEM;
    p->folded = 1;
    /* its type override (d_attribute), if any, goes with it */
    if (i + 1 < s->ndefs && s->defs[i + 1].d.kind == PT_DEF_KEYVAL &&
        s->defs[i + 1].d.parent == p->d.id && s->defs[i + 1].d.name &&
        strcmp(s->defs[i + 1].d.name, "otf2:attribute.type") == 0)
      s->defs[i + 1].folded = 1;
  }
  return PT_OK;
}

/* Resolve string refs; give location groups their MPI rank. */
static int finish_defs(osrc *s) {
  for (size_t i = 0; i < s->ndefs; i++) {
    pdef *p = &s->defs[i];
    const char **slot[4] = {&p->d.name, &p->d.s1, &p->d.s2, &p->d.s3};
    for (int k = 0; k < 4; k++) {
      const char *str = str_of(s, p->sref[k]);
      if (p->sref[k] != OTF2_UNDEFINED_STRING && !str)
        str = ""; /* a dangling string ref: keep the slot present */
      if (p->pre[k] && str) {
        size_t a = strlen(p->pre[k]), b = strlen(str);
        char *c = pt__arena_alloc(&s->mem, a + b + 1);
        if (!c) return PT_ENOMEM;
        memcpy(c, p->pre[k], a);
        memcpy(c + a, str, b + 1);
        *slot[k] = c;
      } else if (p->pre[k]) {
        *slot[k] = p->pre[k];
      } else if (str) {
        *slot[k] = str;
      }
    }
  }
  /* STRING attributes the sink marked as integer arrays: INTS again */
  for (size_t i = 0; i < s->ndefs; i++) {
    pt_def *d = &s->defs[i].d;
    static const char mk[] = PT__OTF2_INTS_DESC;
    size_t n = d->s1 ? strlen(d->s1) : 0, m = sizeof mk - 1;
    if (d->kind != PT_DEF_ATTRIBUTE || d->i1 != OTF2_TYPE_STRING || n < m ||
        strcmp(d->s1 + n - m, mk) != 0 || (n > m && d->s1[n - m - 1] != ' '))
      continue;
    char *t = pt__arena_alloc(&s->mem, n > m ? n - m : 1);
    if (!t || pt__map_put(&s->ints_attr, d->id, 1) < 0) return PT_ENOMEM;
    if (n > m) memcpy(t, d->s1, n - m - 1);
    t[n > m ? n - m - 1 : 0] = 0;
    d->s1 = t;
    d->i0 = PT_TYPE_INTS;
  }
  int frc = fold_rep_attrs(s);
  if (frc < 0) return frc;
  /* Ranks: index of a location in the (first) MPI COMM_LOCATIONS group. */
  const pt_def *cl = NULL;
  for (size_t i = 0; i < s->ndefs && !cl; i++) {
    const pt_def *d = &s->defs[i].d;
    if (d->kind == PT_DEF_GROUP && d->i0 == PT_GROUP_COMM_LOCATIONS &&
        d->i1 == PT_PARADIGM_MPI)
      cl = d;
  }
  if (cl) {
    pt__map lg_idx = {0};
    pt__map *loc_rank = &s->loc_rank;
    int rc = PT_OK;
    for (uint64_t k = 0; k < cl->nmembers && rc == PT_OK; k++)
      if (cl->members[k] != PT_NONE &&
          !pt__map_get(loc_rank, cl->members[k], NULL))
        rc = pt__map_put(loc_rank, cl->members[k], k);
    for (size_t i = 0; i < s->ndefs && rc == PT_OK; i++)
      if (s->defs[i].d.kind == PT_DEF_LOCATION_GROUP)
        rc = pt__map_put(&lg_idx, s->defs[i].d.id, i);
    for (size_t i = 0; i < s->ndefs && rc == PT_OK; i++) {
      const pt_def *d = &s->defs[i].d;
      uint64_t r, gi;
      if (d->kind != PT_DEF_LOCATION || d->id == PT_NONE ||
          d->parent == PT_NONE || !pt__map_get(loc_rank, d->id, &r) ||
          !pt__map_get(&lg_idx, d->parent, &gi))
        continue;
      if (s->defs[gi].d.i1 < 0) s->defs[gi].d.i1 = (int64_t)r;
    }
    /* the other locations of a rank (threads: Score-P's thread << 32 |
     * rank) speak as their group's rank (MPI_COMM_SELF, inter-comms) */
    for (size_t i = 0; i < s->ndefs && rc == PT_OK; i++) {
      const pt_def *d = &s->defs[i].d;
      uint64_t gi;
      if (d->kind != PT_DEF_LOCATION || d->id == PT_NONE ||
          pt__map_get(loc_rank, d->id, NULL) ||
          !pt__map_get(&lg_idx, d->parent, &gi) || s->defs[gi].d.i1 < 0)
        continue;
      rc = pt__map_put(loc_rank, d->id, (uint64_t)s->defs[gi].d.i1);
    }
    pt__map_free(&lg_idx);
    if (rc < 0) return rc;
  }
  /* Inter-communicators: which world ranks are in group A. */
  for (size_t i = 0; i < s->ndefs; i++) {
    const pt_def *d = &s->defs[i].d;
    uint64_t b, gi;
    if (d->kind != PT_DEF_COMM || !pt__map_get(&s->inter_b, d->id, &b) ||
        d->ref == PT_NONE || !pt__map_get(&s->group_def, d->ref, &gi))
      continue;
    const pt_def *g = &s->defs[gi].d;
    if (g->i0 != PT_GROUP_COMM_GROUP) continue;
    for (uint64_t k = 0; k < g->nmembers; k++)
      if (pt__map_put(&s->inter_a, d->id << 32 | (g->members[k] & 0xffffffffu),
                      1) < 0)
        return PT_ENOMEM;
  }
  /* Communicator paradigm: from its group. */
  for (size_t i = 0; i < s->ndefs; i++) {
    pt_def *d = &s->defs[i].d;
    uint64_t gi;
    if (d->kind == PT_DEF_COMM && d->ref != PT_NONE &&
        pt__map_get(&s->group_def, d->ref, &gi))
      d->i0 = s->defs[gi].d.i1;
  }
  return PT_OK;
}

/* Carrier attribute keys and labels, defined once up front. */
static int carrier_defs(osrc *s) {
  for (int i = 0; i < PT__OTF2_C__COUNT; i++) {
    pdef *p = pdef_add(s, PT_DEF_ATTRIBUTE, PT__OTF2_CARRIER_BASE + i);
    if (!p) return PT_ENOMEM;
    p->d.i0 = pt__otf2_carrier_types[i];
    p->pre[0] = pt__otf2_carrier_names[i];
  }
  for (int i = 0; i < PT__OTF2_L__COUNT + PT__OTF2_G__COUNT; i++) {
    pdef *p = pdef_add(s, PT_DEF_LABEL, PT__OTF2_CARRIER_BASE + i);
    if (!p) return PT_ENOMEM;
    p->d.i0 = -(int64_t)(i + 1000); /* event-type code: none in OTF2 */
    p->pre[0] = i < PT__OTF2_L__COUNT
                    ? pt__otf2_label_names[i]
                    : pt__otf2_generic_names[i - PT__OTF2_L__COUNT];
  }
  return PT_OK;
}

/* ---- events -------------------------------------------------------------- */

static pt_event *ev_push(osrc *s, uint32_t kind, uint64_t loc, uint64_t t) {
  if (PT_GROW(s->q, s->qcap, s->qn + 1, 16)) return NULL;
  pt_item *it = &s->q[s->qn++];
  it->type = PT_ITEM_EVENT;
  pt_event_init(&it->u.event, kind, t, loc);
  return &it->u.event;
}

#define EV(e, kind)                                                          \
  pt_event *e = ev_push(s, kind, loc, t);                                    \
  if (!e) return cb_oom(s)

/* Model id of an OTF2 reference value of type `type`. */
static uint64_t ref_value(OTF2_Type type, uint64_t v) {
  if (type == OTF2_TYPE_LOCATION)
    return v == OTF2_UNDEFINED_LOCATION ? PT_NONE : v;
  if (v == OTF2_UNDEFINED_UINT32) return PT_NONE;
  if (type == OTF2_TYPE_METRIC) return PT__OTF2_METRIC_GROUP(v);
  return v;
}

/* A STRING value "1,-2,3" ("" = no element) -> INTS; left a STRING when
 * it is not such a list.  -1: out of memory. */
static int parse_ints(osrc *s, pt_value *x) {
  const char *p = x->v.s;
  uint32_t n = *p ? 1 : 0;
  for (const char *q = p; *q; q++) n += *q == ',';
  int64_t *v = n ? pt__arena_alloc(&s->ev, n * sizeof *v) : NULL;
  if (n && !v) return -1;
  for (uint32_t i = 0; i < n; i++) {
    char *end;
    errno = 0;
    long long y = strtoll(p, &end, 10);
    if (end == p || errno || (*end != ',' && *end != 0) ||
        (*end == 0) != (i + 1 == n))
      return 0;
    v[i] = y;
    p = end + (*end == ',');
  }
  x->type = PT_TYPE_INTS;
  x->count = n;
  x->v.ints = v;
  return 0;
}

/* Attribute list -> attrs (plus `extra` free slots at the end). */
static int take_attrs(osrc *s, pt_event *e, OTF2_AttributeList *al,
                      unsigned extra) {
  uint32_t n = al ? OTF2_AttributeList_GetNumberOfElements(al) : 0;
  if (n + extra == 0) return 0;
  pt_attr *a = pt__arena_alloc(&s->ev, (n + extra) * sizeof *a);
  if (!a) return -1;
  memset(a, 0, (n + extra) * sizeof *a);
  for (uint32_t i = 0; i < n; i++) {
    OTF2_AttributeRef key;
    OTF2_Type type;
    OTF2_AttributeValue v;
    if (OTF2_AttributeList_GetAttributeByIndex(al, i, &key, &type, &v) !=
        OTF2_SUCCESS)
      return -1;
    uint64_t base;
    a[i].key = s->rep_attr.n && pt__map_get(&s->rep_attr, key, &base)
                   ? base
                   : key;
    pt_value *x = &a[i].val;
    switch (type) {
      case OTF2_TYPE_INT8: x->type = PT_TYPE_INT; x->v.i = v.int8; break;
      case OTF2_TYPE_INT16: x->type = PT_TYPE_INT; x->v.i = v.int16; break;
      case OTF2_TYPE_INT32: x->type = PT_TYPE_INT; x->v.i = v.int32; break;
      case OTF2_TYPE_INT64: x->type = PT_TYPE_INT; x->v.i = v.int64; break;
      case OTF2_TYPE_UINT8: x->type = PT_TYPE_UINT; x->v.u = v.uint8; break;
      case OTF2_TYPE_UINT16: x->type = PT_TYPE_UINT; x->v.u = v.uint16; break;
      case OTF2_TYPE_UINT32: x->type = PT_TYPE_UINT; x->v.u = v.uint32; break;
      case OTF2_TYPE_UINT64: x->type = PT_TYPE_UINT; x->v.u = v.uint64; break;
      case OTF2_TYPE_FLOAT: x->type = PT_TYPE_DOUBLE; x->v.d = v.float32; break;
      case OTF2_TYPE_DOUBLE: x->type = PT_TYPE_DOUBLE; x->v.d = v.float64; break;
      case OTF2_TYPE_STRING: {
        const char *str = str_of(s, v.stringRef);
        x->type = PT_TYPE_STRING;
        x->v.s = str ? str : "";
        if (s->ints_attr.n && pt__map_get(&s->ints_attr, a[i].key, NULL) &&
            parse_ints(s, x) < 0)
          return -1;
        break;
      }
      case OTF2_TYPE_LOCATION:
        x->type = PT_TYPE_UINT;
        x->v.u = ref_value(type, v.locationRef);
        break;
      default:
        x->type = PT_TYPE_UINT;
        x->v.u = ref_value(type, v.uint32);
    }
  }
  e->attrs = a;
  e->nattrs = n;
  return 0;
}

static void carrier(pt_event *e, int which, pt_value v) {
  pt_attr *a = (pt_attr *)e->attrs + e->nattrs++;
  a->key = PT__OTF2_CARRIER_BASE + which;
  a->val = v;
}

#define ATTRS(e, al, extra)                                                  \
  do {                                                                       \
    if (take_attrs(s, e, al, extra) < 0) return cb_oom(s);                   \
  } while (0)

/* Comm-local rank -> world rank (the index in COMM_LOCATIONS; on a
 * COMM_SELF group, rank 0 is the location's own).  On an
 * inter-communicator the rank is in the remote group: B for a location
 * in group A, else A. */
static int64_t world_rank(const osrc *s, uint32_t comm, uint32_t r,
                          uint64_t loc) {
  if (r == OTF2_UNDEFINED_UINT32) return -1;
  uint64_t g, gi, me;
  if (!pt__map_get(&s->comm_group, comm, &g)) return r;
  if (s->inter_b.n && pt__map_get(&s->inter_b, comm, &gi) &&
      pt__map_get(&s->loc_rank, loc, &me) &&
      pt__map_get(&s->inter_a, (uint64_t)comm << 32 | me, NULL))
    g = gi;
  if (g == PT_NONE || !pt__map_get(&s->group_def, g, &gi)) return r;
  const pt_def *d = &s->defs[gi].d;
  if (d->i0 == PT_GROUP_COMM_GROUP && r < d->nmembers)
    return (int64_t)d->members[r];
  /* MPI_COMM_SELF and its like: rank 0 is the location's own rank */
  if (d->i0 == PT_GROUP_COMM_SELF && r == 0 && pt__map_get(&s->loc_rank, loc, &me))
    return (int64_t)me;
  return r;
}

static uint64_t comm_id(uint32_t c) { return ref32(c); }

typedef OTF2_LocationRef LOC;
typedef OTF2_TimeStamp TS;
typedef OTF2_AttributeList AL;

static OTF2_CallbackCode e_enter(LOC loc, TS t, void *u, AL *al,
                                 OTF2_RegionRef r) {
  osrc *s = u;
  EV(e, PT_EV_ENTER);
  e->ref = ref32(r);
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_leave(LOC loc, TS t, void *u, AL *al,
                                 OTF2_RegionRef r) {
  osrc *s = u;
  EV(e, PT_EV_LEAVE);
  e->ref = ref32(r);
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode p2p(osrc *s, uint32_t kind, LOC loc, TS t, AL *al,
                             uint32_t peer, uint32_t comm, uint32_t tag,
                             uint64_t len, uint64_t req) {
  EV(e, kind);
  e->ref = PT_NONE;
  e->peer = world_rank(s, comm, peer, loc);
  e->comm = comm_id(comm);
  e->tag = tag == OTF2_UNDEFINED_UINT32 ? -1 : (int64_t)tag;
  e->size = len;
  e->request = req;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_send(LOC loc, TS t, void *u, AL *al, uint32_t to,
                                OTF2_CommRef c, uint32_t tag, uint64_t len) {
  return p2p(u, PT_EV_SEND, loc, t, al, to, c, tag, len, 0);
}
static OTF2_CallbackCode e_recv(LOC loc, TS t, void *u, AL *al, uint32_t from,
                                OTF2_CommRef c, uint32_t tag, uint64_t len) {
  return p2p(u, PT_EV_RECV, loc, t, al, from, c, tag, len, 0);
}
static OTF2_CallbackCode e_isend(LOC loc, TS t, void *u, AL *al, uint32_t to,
                                 OTF2_CommRef c, uint32_t tag, uint64_t len,
                                 uint64_t req) {
  return p2p(u, PT_EV_ISEND, loc, t, al, to, c, tag, len, req);
}
static OTF2_CallbackCode e_irecv(LOC loc, TS t, void *u, AL *al,
                                 uint32_t from, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len, uint64_t req) {
  return p2p(u, PT_EV_IRECV, loc, t, al, from, c, tag, len, req);
}

static OTF2_CallbackCode reqev(osrc *s, uint32_t kind, LOC loc, TS t, AL *al,
                               uint64_t req) {
  EV(e, kind);
  e->request = req;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_isend_c(LOC loc, TS t, void *u, AL *al,
                                   uint64_t req) {
  return reqev(u, PT_EV_ISEND_COMPLETE, loc, t, al, req);
}
static OTF2_CallbackCode e_irecv_r(LOC loc, TS t, void *u, AL *al,
                                   uint64_t req) {
  return reqev(u, PT_EV_IRECV_REQUEST, loc, t, al, req);
}
static OTF2_CallbackCode e_rtest(LOC loc, TS t, void *u, AL *al,
                                 uint64_t req) {
  return reqev(u, PT_EV_REQUEST_TEST, loc, t, al, req);
}
static OTF2_CallbackCode e_rcancel(LOC loc, TS t, void *u, AL *al,
                                   uint64_t req) {
  return reqev(u, PT_EV_REQUEST_CANCELLED, loc, t, al, req);
}

static OTF2_CallbackCode e_cbegin(LOC loc, TS t, void *u, AL *al) {
  osrc *s = u;
  EV(e, PT_EV_COLL_BEGIN);
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_cend(LOC loc, TS t, void *u, AL *al,
                                OTF2_CollectiveOp op, OTF2_CommRef c,
                                uint32_t root, uint64_t sent, uint64_t recvd) {
  osrc *s = u;
  EV(e, PT_EV_COLL_END);
  int known = op <= OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE;
  e->ref = known ? op : PT_COLL_OTHER;
  e->peer = world_rank(s, c, root, loc);
  e->comm = comm_id(c);
  e->size = sent;
  e->size2 = recvd;
  ATTRS(e, al, known ? 0 : 1);
  if (!known)
    carrier(e, PT__OTF2_C_OP, (pt_value){PT_TYPE_INT, 0, {.i = op}});
  return OTF2_CALLBACK_SUCCESS;
}

/* One model METRIC event per member, in member order, each tagged with the
 * class/instance (doc/otf2.md). */
static OTF2_CallbackCode e_metric(LOC loc, TS t, void *u, AL *al,
                                  OTF2_MetricRef m, uint8_t n,
                                  const OTF2_Type *types,
                                  const OTF2_MetricValue *vals) {
  osrc *s = u;
  uint64_t gid = PT__OTF2_METRIC_GROUP(m), gi;
  const pt_def *g = pt__map_get(&s->group_def, gid, &gi) ? &s->defs[gi].d
                                                          : NULL;
  for (unsigned i = 0; i < n; i++) {
    EV(e, PT_EV_METRIC);
    e->ref = g && i < g->nmembers ? g->members[i] : i;
    switch (types[i]) {
      case OTF2_TYPE_INT64:
        e->value = (pt_value){PT_TYPE_INT, 0, {.i = vals[i].signed_int}};
        break;
      case OTF2_TYPE_DOUBLE:
        e->value = (pt_value){PT_TYPE_DOUBLE, 0, {.d = vals[i].floating_point}};
        break;
      default:
        e->value = (pt_value){PT_TYPE_UINT, 0, {.u = vals[i].unsigned_int}};
    }
    ATTRS(e, i == 0 ? al : NULL, 1);
    carrier(e, PT__OTF2_C_METRIC, (pt_value){PT_TYPE_UINT, 0, {.u = gid}});
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_pstring(LOC loc, TS t, void *u, AL *al,
                                   OTF2_ParameterRef p, OTF2_StringRef str) {
  osrc *s = u;
  EV(e, PT_EV_PARAMETER);
  e->ref = ref32(p);
  const char *v = str_of(s, str);
  e->value = (pt_value){PT_TYPE_STRING, 0, {.s = v ? v : ""}};
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_pint(LOC loc, TS t, void *u, AL *al,
                                OTF2_ParameterRef p, int64_t v) {
  osrc *s = u;
  EV(e, PT_EV_PARAMETER);
  e->ref = ref32(p);
  e->value = (pt_value){PT_TYPE_INT, 0, {.i = v}};
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_puint(LOC loc, TS t, void *u, AL *al,
                                 OTF2_ParameterRef p, uint64_t v) {
  osrc *s = u;
  EV(e, PT_EV_PARAMETER);
  e->ref = ref32(p);
  e->value = (pt_value){PT_TYPE_UINT, 0, {.u = v}};
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode thread_paradigm(osrc *s, pt_event *e, AL *al,
                                         OTF2_Paradigm par) {
  e->tag = pt__otf2_paradigm_to_model(par);
  int exact = pt__otf2_paradigm_from_model((int)e->tag) == par;
  ATTRS(e, al, exact ? 0 : 1);
  if (!exact)
    carrier(e, PT__OTF2_C_PARADIGM, (pt_value){PT_TYPE_INT, 0, {.i = par}});
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_fork(LOC loc, TS t, void *u, AL *al,
                                OTF2_Paradigm par, uint32_t n) {
  osrc *s = u;
  EV(e, PT_EV_THREAD_FORK);
  e->size = n;
  return thread_paradigm(s, e, al, par);
}
static OTF2_CallbackCode e_join(LOC loc, TS t, void *u, AL *al,
                                OTF2_Paradigm par) {
  osrc *s = u;
  EV(e, PT_EV_THREAD_JOIN);
  return thread_paradigm(s, e, al, par);
}
static OTF2_CallbackCode team(osrc *s, uint32_t kind, LOC loc, TS t, AL *al,
                              OTF2_CommRef c, uint64_t seq) {
  EV(e, kind);
  e->comm = comm_id(c);
  e->request = seq;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_tbegin(LOC loc, TS t, void *u, AL *al,
                                  OTF2_CommRef c) {
  return team(u, PT_EV_THREAD_TEAM_BEGIN, loc, t, al, c, 0);
}
static OTF2_CallbackCode e_tend(LOC loc, TS t, void *u, AL *al,
                                OTF2_CommRef c) {
  return team(u, PT_EV_THREAD_TEAM_END, loc, t, al, c, 0);
}
static OTF2_CallbackCode e_tcreate(LOC loc, TS t, void *u, AL *al,
                                   OTF2_CommRef c, uint64_t seq) {
  return team(u, PT_EV_THREAD_CREATE, loc, t, al, c, seq);
}
static OTF2_CallbackCode e_tthbegin(LOC loc, TS t, void *u, AL *al,
                                    OTF2_CommRef c, uint64_t seq) {
  return team(u, PT_EV_THREAD_BEGIN, loc, t, al, c, seq);
}
static OTF2_CallbackCode e_twait(LOC loc, TS t, void *u, AL *al,
                                 OTF2_CommRef c, uint64_t seq) {
  return team(u, PT_EV_THREAD_WAIT, loc, t, al, c, seq);
}
static OTF2_CallbackCode e_tthend(LOC loc, TS t, void *u, AL *al,
                                  OTF2_CommRef c, uint64_t seq) {
  return team(u, PT_EV_THREAD_END, loc, t, al, c, seq);
}

static OTF2_CallbackCode e_iobegin(LOC loc, TS t, void *u, AL *al,
                                   OTF2_IoHandleRef h, OTF2_IoOperationMode m,
                                   OTF2_IoOperationFlag f, uint64_t bytes,
                                   uint64_t match) {
  osrc *s = u;
  EV(e, PT_EV_IO_BEGIN);
  e->ref = ref32(h);
  e->tag = m; /* OTF2 READ/WRITE/FLUSH == PT_IO_READ/WRITE/FLUSH */
  e->size = bytes;
  e->size2 = f;
  e->request = match;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_ioend(LOC loc, TS t, void *u, AL *al,
                                 OTF2_IoHandleRef h, uint64_t bytes,
                                 uint64_t match) {
  osrc *s = u;
  EV(e, PT_EV_IO_END);
  e->ref = ref32(h);
  e->size = bytes;
  e->request = match;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode iomark(osrc *s, int label, LOC loc, TS t, AL *al,
                                OTF2_IoHandleRef h, uint64_t match) {
  EV(e, PT_EV_MARK);
  e->ref = PT__OTF2_CARRIER_BASE + label;
  ATTRS(e, al, 2);
  carrier(e, PT__OTF2_C_HANDLE, (pt_value){PT_TYPE_UINT, 0, {.u = ref32(h)}});
  carrier(e, PT__OTF2_C_MATCHING, (pt_value){PT_TYPE_UINT, 0, {.u = match}});
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_iotest(LOC loc, TS t, void *u, AL *al,
                                  OTF2_IoHandleRef h, uint64_t m) {
  return iomark(u, PT__OTF2_L_IO_TEST, loc, t, al, h, m);
}
static OTF2_CallbackCode e_ioissued(LOC loc, TS t, void *u, AL *al,
                                    OTF2_IoHandleRef h, uint64_t m) {
  return iomark(u, PT__OTF2_L_IO_ISSUED, loc, t, al, h, m);
}
static OTF2_CallbackCode e_iocancel(LOC loc, TS t, void *u, AL *al,
                                    OTF2_IoHandleRef h, uint64_t m) {
  return iomark(u, PT__OTF2_L_IO_CANCELLED, loc, t, al, h, m);
}

static OTF2_CallbackCode e_measure(LOC loc, TS t, void *u, AL *al,
                                   OTF2_MeasurementMode m) {
  osrc *s = u;
  EV(e, PT_EV_MEASURE);
  e->tag = m == OTF2_MEASUREMENT_ON;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_flush(LOC loc, TS t, void *u, AL *al, TS stop) {
  osrc *s = u;
  EV(e, PT_EV_BUFFER_FLUSH);
  e->size2 = stop;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_pbegin(LOC loc, TS t, void *u, AL *al,
                                  OTF2_StringRef name, uint32_t n,
                                  const OTF2_StringRef *args) {
  osrc *s = u;
  EV(e, PT_EV_MARK);
  e->ref = PT__OTF2_CARRIER_BASE + PT__OTF2_L_PROGRAM_BEGIN;
  const char *nm = str_of(s, name);
  e->text = nm ? nm : "";
  ATTRS(e, al, n);
  for (uint32_t i = 0; i < n; i++) {
    const char *a = str_of(s, args[i]);
    carrier(e, PT__OTF2_C_ARG, (pt_value){PT_TYPE_STRING, 0, {.s = a ? a : ""}});
  }
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_pend(LOC loc, TS t, void *u, AL *al, int64_t st) {
  osrc *s = u;
  EV(e, PT_EV_MARK);
  e->ref = PT__OTF2_CARRIER_BASE + PT__OTF2_L_PROGRAM_END;
  ATTRS(e, al, 1);
  carrier(e, PT__OTF2_C_EXIT, (pt_value){PT_TYPE_INT, 0, {.i = st}});
  return OTF2_CALLBACK_SUCCESS;
}

/* ---- generic records (PT__OTF2_GENERIC, PT__OTF2_GENERIC_DEFS) --------- */

/* A field as a model value: references as model ids. */
static uint64_t gvalue(OTF2_Type type, uint64_t v) {
  return type >= OTF2_TYPE_ATTRIBUTE ? ref_value(type, v) : v;
}
static void gfield(pt_event *e, OTF2_Type type, uint64_t v) {
  if (type == OTF2_TYPE_INT64)
    carrier(e, PT__OTF2_C_FIELD_I,
            (pt_value){PT_TYPE_INT, 0, {.i = (int64_t)v}});
  else
    carrier(e, PT__OTF2_C_FIELD,
            (pt_value){PT_TYPE_UINT, 0, {.u = gvalue(type, v)}});
}

#define G_PARAM(i, K, T, n) , T n
#define G_ONE(i, K, T, n) +1
#define G_STORE(i, K, T, n) gfield(e, OTF2_TYPE_##K, (uint64_t)n);
#define G_CB(N, nf, ...)                                                     \
  static OTF2_CallbackCode g_##N(LOC loc, TS t, void *u,                     \
                                 AL *al PT__OTF2_EACH(G_PARAM, nf,           \
                                                      __VA_ARGS__)) {        \
    osrc *s = u;                                                             \
    EV(e, PT_EV_MARK);                                                       \
    e->ref = PT__OTF2_CARRIER_BASE + PT__OTF2_L__COUNT + PT__OTF2_G_##N;     \
    ATTRS(e, al, 0 PT__OTF2_EACH(G_ONE, nf, __VA_ARGS__));                   \
    PT__OTF2_EACH(G_STORE, nf, __VA_ARGS__)                                  \
    return OTF2_CALLBACK_SUCCESS;                                            \
  }
PT__OTF2_GENERIC(G_CB)
#undef G_CB

/* Definitions: "otf2:def.<Name>" (numbers) and ".str" (the string). */
#define G_NUM(i, K, T, n)                                                    \
  if (OTF2_TYPE_##K == OTF2_TYPE_STRING) {                                   \
    str = (uint32_t)(n); /* its slot: 0, or -1 when undefined */             \
    l += snprintf(b + l, sizeof b - l, "%s%d", i ? " " : "",                 \
                  str == OTF2_UNDEFINED_STRING ? -1 : 0);                    \
  } else if (OTF2_TYPE_##K == OTF2_TYPE_INT64) {                             \
    l += snprintf(b + l, sizeof b - l, "%s%" PRId64, i ? " " : "",           \
                  (int64_t)(n));                                             \
  } else {                                                                   \
    uint64_t v_ = gvalue(OTF2_TYPE_##K, (uint64_t)(n));                      \
    l += snprintf(b + l, sizeof b - l, "%s%" PRId64, i ? " " : "",           \
                  v_ == PT_NONE ? INT64_C(-1) : (int64_t)v_);                \
  }
#define G_DEF(N, nf, ...)                                                    \
  static OTF2_CallbackCode gd_##N(void *u, OTF2_##N##Ref self PT__OTF2_EACH( \
      G_PARAM, nf, __VA_ARGS__)) {                                           \
    osrc *s = u;                                                             \
    char b[256];                                                             \
    int l = 0;                                                               \
    uint32_t str = OTF2_UNDEFINED_STRING;                                    \
    PT__OTF2_EACH(G_NUM, nf, __VA_ARGS__)                                    \
    if (!kv_add(s, self, "otf2:def." #N, b, OTF2_UNDEFINED_STRING) ||        \
        (str != OTF2_UNDEFINED_STRING &&                                     \
         !kv_add(s, self, "otf2:def." #N ".str", NULL, str)))                \
      return cb_oom(s);                                                      \
    return OTF2_CALLBACK_SUCCESS;                                            \
  }
PT__OTF2_GENERIC_DEFS(G_DEF)
#undef G_DEF
#undef G_NUM

/* An RmaWin: kept generically (gd_RmaWin), and its communicator for the
 * targets of its operations. */
static OTF2_CallbackCode d_rma_win(void *u, OTF2_RmaWinRef self,
                                   OTF2_StringRef name, OTF2_CommRef comm,
                                   OTF2_RmaWinFlag flags) {
  osrc *s = u;
  OTF2_CallbackCode c = gd_RmaWin(u, self, name, comm, flags);
  if (c == OTF2_CALLBACK_SUCCESS && pt__map_put(&s->win_comm, self, comm) < 0)
    return cb_oom(s);
  return c;
}

/* A CallingContext: kept generically (gd_CallingContext), and its region
 * for the ENTER / LEAVE of a CallingContextEnter / Leave. */
static OTF2_CallbackCode d_cc(void *u, OTF2_CallingContextRef self,
                              OTF2_RegionRef region,
                              OTF2_SourceCodeLocationRef scl,
                              OTF2_CallingContextRef parent) {
  osrc *s = u;
  OTF2_CallbackCode c = gd_CallingContext(u, self, region, scl, parent);
  if (c == OTF2_CALLBACK_SUCCESS && region != OTF2_UNDEFINED_REGION &&
      pt__map_put(&s->cc_region, self, region) < 0)
    return cb_oom(s);
  return c;
}

/* CallingContextEnter / Leave (Score-P with unwinding writes them instead
 * of Enter / Leave, for the same instrumented regions): the ENTER / LEAVE
 * of the context's region, as libotf2 itself hands them to a reader that
 * asks for Enter and Leave only, with the context (and the enter's unwind
 * distance) in carriers, from which the OTF2 sink writes the records back.
 * A context without a region stays the generic record. */
static OTF2_CallbackCode e_cc_enter(LOC loc, TS t, void *u, AL *al,
                                    OTF2_CallingContextRef cc,
                                    uint32_t unwind) {
  osrc *s = u;
  uint64_t r;
  if (!pt__map_get(&s->cc_region, cc, &r))
    return g_CallingContextEnter(loc, t, u, al, cc, unwind);
  EV(e, PT_EV_ENTER);
  e->ref = r;
  ATTRS(e, al, 2);
  carrier(e, PT__OTF2_C_CCTX, (pt_value){PT_TYPE_UINT, 0, {.u = cc}});
  carrier(e, PT__OTF2_C_UNWIND, (pt_value){PT_TYPE_UINT, 0, {.u = unwind}});
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_cc_leave(LOC loc, TS t, void *u, AL *al,
                                    OTF2_CallingContextRef cc) {
  osrc *s = u;
  uint64_t r;
  if (!pt__map_get(&s->cc_region, cc, &r))
    return g_CallingContextLeave(loc, t, u, al, cc);
  EV(e, PT_EV_LEAVE);
  e->ref = r;
  ATTRS(e, al, 1);
  carrier(e, PT__OTF2_C_CCTX, (pt_value){PT_TYPE_UINT, 0, {.u = cc}});
  return OTF2_CALLBACK_SUCCESS;
}

/* RmaPut, RmaGet, RmaAtomic: RMA_* events (model.h).  The target is a rank
 * in the window's communicator, made a COMM_WORLD rank as a message's
 * peer is; a window without a definition keeps it (communicator none). */
static OTF2_CallbackCode rma(osrc *s, uint32_t kind, LOC loc, TS t, AL *al,
                             OTF2_RmaWinRef win, uint32_t remote, int64_t type,
                             uint64_t sent, uint64_t recvd, uint64_t match) {
  EV(e, kind);
  uint64_t c = OTF2_UNDEFINED_COMM;
  pt__map_get(&s->win_comm, win, &c);
  e->ref = ref_value(OTF2_TYPE_RMA_WIN, win);
  e->comm = c == OTF2_UNDEFINED_COMM ? PT_NONE : comm_id((uint32_t)c);
  e->peer = c == OTF2_UNDEFINED_COMM
                ? (remote == OTF2_UNDEFINED_UINT32 ? -1 : (int64_t)remote)
                : world_rank(s, (uint32_t)c, remote, loc);
  e->tag = type;
  e->size = sent;
  e->size2 = recvd;
  e->request = match;
  ATTRS(e, al, 0);
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode e_rma_put(LOC loc, TS t, void *u, AL *al,
                                   OTF2_RmaWinRef win, uint32_t remote,
                                   uint64_t bytes, uint64_t match) {
  return rma(u, PT_EV_RMA_PUT, loc, t, al, win, remote, 0, bytes, 0, match);
}
static OTF2_CallbackCode e_rma_get(LOC loc, TS t, void *u, AL *al,
                                   OTF2_RmaWinRef win, uint32_t remote,
                                   uint64_t bytes, uint64_t match) {
  return rma(u, PT_EV_RMA_GET, loc, t, al, win, remote, 0, 0, bytes, match);
}
static OTF2_CallbackCode e_rma_atomic(LOC loc, TS t, void *u, AL *al,
                                      OTF2_RmaWinRef win, uint32_t remote,
                                      OTF2_RmaAtomicType type, uint64_t sent,
                                      uint64_t recvd, uint64_t match) {
  return rma(u, PT_EV_RMA_ATOMIC, loc, t, al, win, remote, type, sent, recvd,
             match);
}

/* ---- snapshots ------------------------------------------------------------ */

/* Snapshot records reuse the event callbacks with the original event time,
 * then the items they queued become PT_ITEM_SNAPSHOT at the snapshot time.
 * SnapshotStart / SnapshotEnd are MARKs with carrier labels. */
static void to_snap(osrc *s, size_t q0, uint64_t snap_time) {
  for (size_t i = q0; i < s->qn; i++) {
    pt_event ev = s->q[i].u.event;
    s->q[i].type = PT_ITEM_SNAPSHOT;
    s->q[i].u.snapshot.time = snap_time;
    s->q[i].u.snapshot.location = ev.location;
    s->q[i].u.snapshot.event = ev;
  }
}

#define SNAP(name, call)                                                     \
  do {                                                                       \
    osrc *s_ = u;                                                            \
    size_t q0_ = s_->qn;                                                     \
    OTF2_CallbackCode c_ = (call);                                           \
    to_snap(s_, q0_, snap);                                                  \
    return c_;                                                               \
  } while (0)

static OTF2_CallbackCode sn_mark(osrc *s, LOC loc, TS t, AL *al, int label,
                                 int which, uint64_t v) {
  EV(e, PT_EV_MARK);
  e->ref = PT__OTF2_CARRIER_BASE + label;
  ATTRS(e, al, 1);
  carrier(e, which, (pt_value){PT_TYPE_UINT, 0, {.u = v}});
  return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode sn_start(LOC loc, TS snap, void *u, AL *al,
                                  uint64_t n) {
  SNAP(start, sn_mark(u, loc, snap, al, PT__OTF2_L_SNAP_START,
                      PT__OTF2_C_SNAP_RECORDS, n));
}
static OTF2_CallbackCode sn_end(LOC loc, TS snap, void *u, AL *al,
                                uint64_t pos) {
  SNAP(end, sn_mark(u, loc, snap, al, PT__OTF2_L_SNAP_END,
                    PT__OTF2_C_SNAP_POS, pos));
}
static OTF2_CallbackCode sn_measure(LOC loc, TS snap, void *u, AL *al, TS t,
                                    OTF2_MeasurementMode m) {
  SNAP(measure, e_measure(loc, t, u, al, m));
}
static OTF2_CallbackCode sn_enter(LOC loc, TS snap, void *u, AL *al, TS t,
                                  OTF2_RegionRef r) {
  SNAP(enter, e_enter(loc, t, u, al, r));
}
static OTF2_CallbackCode sn_send(LOC loc, TS snap, void *u, AL *al, TS t,
                                 uint32_t to, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len) {
  SNAP(send, e_send(loc, t, u, al, to, c, tag, len));
}
static OTF2_CallbackCode sn_isend(LOC loc, TS snap, void *u, AL *al, TS t,
                                  uint32_t to, OTF2_CommRef c, uint32_t tag,
                                  uint64_t len, uint64_t req) {
  SNAP(isend, e_isend(loc, t, u, al, to, c, tag, len, req));
}
static OTF2_CallbackCode sn_isend_c(LOC loc, TS snap, void *u, AL *al, TS t,
                                    uint64_t req) {
  SNAP(isend_c, e_isend_c(loc, t, u, al, req));
}
static OTF2_CallbackCode sn_recv(LOC loc, TS snap, void *u, AL *al, TS t,
                                 uint32_t from, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len) {
  SNAP(recv, e_recv(loc, t, u, al, from, c, tag, len));
}
static OTF2_CallbackCode sn_irecv_r(LOC loc, TS snap, void *u, AL *al, TS t,
                                    uint64_t req) {
  SNAP(irecv_r, e_irecv_r(loc, t, u, al, req));
}
static OTF2_CallbackCode sn_irecv(LOC loc, TS snap, void *u, AL *al, TS t,
                                  uint32_t from, OTF2_CommRef c, uint32_t tag,
                                  uint64_t len, uint64_t req) {
  SNAP(irecv, e_irecv(loc, t, u, al, from, c, tag, len, req));
}
static OTF2_CallbackCode sn_cbegin(LOC loc, TS snap, void *u, AL *al, TS t) {
  SNAP(cbegin, e_cbegin(loc, t, u, al));
}
static OTF2_CallbackCode sn_cend(LOC loc, TS snap, void *u, AL *al, TS t,
                                 OTF2_CollectiveOp op, OTF2_CommRef c,
                                 uint32_t root, uint64_t sent,
                                 uint64_t recvd) {
  SNAP(cend, e_cend(loc, t, u, al, op, c, root, sent, recvd));
}
static OTF2_CallbackCode sn_pstring(LOC loc, TS snap, void *u, AL *al, TS t,
                                    OTF2_ParameterRef p, OTF2_StringRef v) {
  SNAP(pstring, e_pstring(loc, t, u, al, p, v));
}
static OTF2_CallbackCode sn_pint(LOC loc, TS snap, void *u, AL *al, TS t,
                                 OTF2_ParameterRef p, int64_t v) {
  SNAP(pint, e_pint(loc, t, u, al, p, v));
}
static OTF2_CallbackCode sn_puint(LOC loc, TS snap, void *u, AL *al, TS t,
                                  OTF2_ParameterRef p, uint64_t v) {
  SNAP(puint, e_puint(loc, t, u, al, p, v));
}

/* After the events: the .snap files, if the anchor announces snapshots. */
static int open_snapshots(osrc *s) {
  uint32_t n = 0;
  if (OTF2_Reader_GetNumberOfSnapshots(s->rd, &n) != OTF2_SUCCESS || !n)
    return PT_OK;
  OTF2_ErrorCode e = OTF2_Reader_OpenSnapFiles(s->rd);
  if (e != OTF2_SUCCESS) return otf2_fail(s, "opening the snapshot files", e);
  for (size_t i = 0; i < s->nlocs; i++)
    if (!OTF2_Reader_GetSnapReader(s->rd, s->locs[i]))
      return src_fail(s, PT_ECORRUPT, "cannot open the snapshots of "
                      "location %" PRIu64 " (%s/%" PRIu64 ".snap)",
                      s->locs[i], s->stem, s->locs[i]);
  s->gsr = OTF2_Reader_GetGlobalSnapReader(s->rd);
  if (!s->gsr)
    return src_fail(s, PT_ECORRUPT, "cannot open the global snapshot reader");
  OTF2_GlobalSnapReaderCallbacks *cb = OTF2_GlobalSnapReaderCallbacks_New();
  if (!cb) return src_fail(s, PT_ENOMEM, "out of memory");
#define SET(what, fn) OTF2_GlobalSnapReaderCallbacks_Set##what##Callback(cb, fn)
  SET(SnapshotStart, sn_start);
  SET(SnapshotEnd, sn_end);
  SET(MeasurementOnOff, sn_measure);
  SET(Enter, sn_enter);
  SET(MpiSend, sn_send);
  SET(MpiIsend, sn_isend);
  SET(MpiIsendComplete, sn_isend_c);
  SET(MpiRecv, sn_recv);
  SET(MpiIrecvRequest, sn_irecv_r);
  SET(MpiIrecv, sn_irecv);
  SET(MpiCollectiveBegin, sn_cbegin);
  SET(MpiCollectiveEnd, sn_cend);
  SET(ParameterString, sn_pstring);
  SET(ParameterInt, sn_pint);
  SET(ParameterUnsignedInt, sn_puint);
#undef SET
  e = OTF2_Reader_RegisterGlobalSnapCallbacks(s->rd, s->gsr, cb, s);
  OTF2_GlobalSnapReaderCallbacks_Delete(cb);
  if (e != OTF2_SUCCESS) return otf2_fail(s, "registering callbacks", e);
  s->nsnaps = n;
  return PT_OK;
}

/* ---- open / next / close -------------------------------------------------- */

static int otf2_fail(osrc *s, const char *what, OTF2_ErrorCode e) {
  int st = e == OTF2_ERROR_ENOENT ? PT_ENOTFOUND
           : e == OTF2_ERROR_MEM_FAULT || e == OTF2_ERROR_MEM_ALLOC_FAILED
               ? PT_ENOMEM
               : PT_ECORRUPT;
  return src_fail(s, st, "%s failed: %s (%s)", what, pt__otf2_errname(e),
                  OTF2_Error_GetDescription(e));
}

#define CHECK(call, what)                                                    \
  do {                                                                       \
    OTF2_ErrorCode e_ = (call);                                              \
    if (e_ != OTF2_SUCCESS) return otf2_fail(s, what, e_);                   \
  } while (0)

/* Anchor metadata: KEYVAL "otf2:archive.<field>" and
 * "otf2:archive.property:<NAME>". */
static int anchor_keyvals(osrc *s) {
  static const char *const fields[] = {"machine", "creator", "description"};
  for (int i = 0; i < 3; i++) {
    char *v = NULL;
    OTF2_ErrorCode e = i == 0   ? OTF2_Reader_GetMachineName(s->rd, &v)
                       : i == 1 ? OTF2_Reader_GetCreator(s->rd, &v)
                                : OTF2_Reader_GetDescription(s->rd, &v);
    char name[48];
    snprintf(name, sizeof name, "otf2:archive.%s", fields[i]);
    int ok = e != OTF2_SUCCESS || !v || !*v ||
             kv_add(s, PT_NONE, name, v, OTF2_UNDEFINED_STRING) != NULL;
    free(v);
    if (!ok) return src_fail(s, PT_ENOMEM, "out of memory");
  }
  uint32_t n = 0;
  char **names = NULL;
  if (OTF2_Reader_GetPropertyNames(s->rd, &n, &names) != OTF2_SUCCESS)
    return PT_OK;
  int rc = PT_OK;
  for (uint32_t i = 0; i < n && rc == PT_OK; i++) {
    char *v = NULL;
    if (OTF2_Reader_GetProperty(s->rd, names[i], &v) != OTF2_SUCCESS) continue;
    size_t len = strlen(names[i]) + 32;
    char *kn = malloc(len);
    if (kn) snprintf(kn, len, "otf2:archive.property:%s", names[i]);
    if (!kn || !kv_add(s, PT_NONE, kn, v ? v : "", OTF2_UNDEFINED_STRING))
      rc = src_fail(s, PT_ENOMEM, "out of memory");
    free(kn);
    free(v);
  }
  free(names);
  return rc;
}

/* ---- the framing of a file, as libotf2 3.0.2 reads it --------------------
 *
 * A file (POSIX substrate, no compression) is a sequence of chunks at
 * multiples of the chunk size (the last one shorter).  A chunk opens with
 * an 18-byte header (0x03, the endianness: 0x42 little, 0x23 big, the
 * numbers of its first and last event), then records follow: 0x00 ends
 * the chunk (padding up to the next one), 0x02 ends the file (libotf2
 * writes 0x01 after it and reads nothing past it), in event and snapshot
 * files 0x05 is a timestamp (8 bytes) and 0x06 an attribute list, and
 * every other type byte is followed by the record's length (1 byte, or
 * 0xff and 8 bytes) and that many bytes; a record ends before its chunk
 * does.  libotf2 reads a whole chunk into a buffer of the chunk size and
 * does not notice when the file ends early: it goes on in uninitialised
 * memory.  walk_file() follows the same framing over the bytes there are,
 * for the end-of-file check and to find where a record libotf2 refused
 * starts (its reader callbacks do not give offsets). */
#define W_HEADER 18
typedef struct walk {
  int state;          /* W_EOF, W_SHORT (the data ends first), W_BAD */
  const char *why;    /* W_BAD: what is wrong at `off` */
  uint64_t off;       /* the end-of-file record / the end of the data /
                         the damage */
  uint64_t want;      /* in: a record number (0-based) to look for */
  uint64_t at;        /* where its records (timestamp, attributes) start;
                         UINT64_MAX if not reached */
  uint64_t time;      /* events: the time of record want - 1 */
  int has_time;
} walk;
enum { W_EOF, W_SHORT, W_BAD };

static uint64_t w_uint(const unsigned char *b, int n, int big) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)b[big ? n - 1 - i : i] << (8 * i);
  return v;
}

/* Walks `f` (`size` bytes, chunks of `chunk` bytes) from chunk number c0 to
 * the end-of-file record, counting records: in event and snapshot files
 * (evt) those other than timestamps and attribute lists, else all.  One
 * chunk (at most the bytes there are) is in memory at a time. */
static void walk_file(FILE *f, uint64_t size, uint64_t chunk, int evt,
                      uint64_t c0, walk *w) {
  uint64_t count = 0, time = 0, ev_time = 0;
  int have_time = 0, have_ev_time = 0;
  unsigned char *buf = NULL;
  w->at = UINT64_MAX;
  w->has_time = 0;
  w->state = W_BAD, w->off = 0, w->why = "out of memory or unreadable";
  for (uint64_t c = c0;; c++) {
    uint64_t base = c * chunk;
    if (base >= size || size - base < W_HEADER) {
      w->state = W_SHORT, w->off = size;
      break;
    }
    /* n: the bytes of this chunk there are; records end before `chunk` */
    uint64_t n = size - base < chunk ? size - base : chunk;
    free(buf);
    buf = malloc(n);
    if (!buf || fseeko(f, (off_t)base, SEEK_SET) != 0 ||
        fread(buf, 1, n, f) != n)
      break;
    if (buf[0] != 3) {
      w->state = W_BAD, w->off = base;
      w->why = "a chunk does not start with a chunk header";
      break;
    }
    int big = buf[1] == 0x23, next = 0;
    uint64_t pos = W_HEADER, grp = pos;
    while (!next) {
      if (pos >= n) {
        w->state = W_SHORT, w->off = size;
        goto out;
      }
      unsigned t = buf[pos];
      uint64_t hdr, len = 0;
      if (t == 0) { /* end of chunk */
        next = 1;
        continue;
      }
      if (t == 2) {
        w->state = W_EOF, w->off = base + pos;
        goto out;
      }
      if (evt && t == 5) { /* timestamp */
        if (chunk - pos <= 9) {
          w->state = W_BAD, w->off = base + pos;
          w->why = "a timestamp runs past the end of its chunk";
          goto out;
        }
        if (n - pos < 9) {
          w->state = W_SHORT, w->off = size;
          goto out;
        }
        time = w_uint(buf + pos + 1, 8, big), have_time = 1;
        pos += 9;
        continue;
      }
      hdr = 2;
      if (n - pos >= 2) len = buf[pos + 1];
      if (n - pos >= 2 && len == 0xff) {
        hdr = 10;
        if (n - pos >= 10) len = w_uint(buf + pos + 2, 8, big);
      }
      if (chunk - pos <= hdr || (n - pos >= hdr && len >= chunk - pos - hdr)) {
        w->state = W_BAD, w->off = base + pos;
        w->why = "a record runs past the end of its chunk";
        goto out;
      }
      if (n - pos < hdr || len > n - pos - hdr) {
        w->state = W_SHORT, w->off = size;
        goto out;
      }
      int counted = !(evt && t == 6); /* not an attribute list */
      if (counted) {
        if (count == w->want) {
          w->at = base + grp;
          w->time = ev_time;
          w->has_time = have_ev_time && count > 0;
        }
        count++;
        ev_time = time, have_ev_time = have_time;
      }
      pos += hdr + len;
      if (counted) grp = pos;
    }
  }
out:
  free(buf);
}

int pt__otf2_walk(FILE *f, uint64_t size, uint64_t chunk, int evt,
                  uint64_t want, uint64_t *off, uint64_t *at) {
  walk w = {.want = want};
  walk_file(f, size, chunk, evt, 0, &w);
  *off = w.off;
  *at = w.at;
  return w.state;
}

/* Before libotf2 reads a file: the end-of-file record is there (else
 * libotf2 would read past the data).  What follows it is never read
 * (a tool's appended newline, say), as by libotf2.  The last chunk is
 * walked (chunks are independent); the earlier ones are checked for their
 * chunk header.  0 = fine or not checkable. */
static int check_file(osrc *s, const char *file, uint64_t chunk, int evt,
                      int must) {
  FILE *f = fopen(file, "rb");
  if (!f) {
    if (!must) return PT_OK;
    return src_fail(s, PT_ENOTFOUND, "%s: cannot open: %s", file,
                    strerror(errno));
  }
  walk w = {.state = W_EOF, .want = UINT64_MAX};
  uint64_t size = 0;
  if (fseeko(f, 0, SEEK_END) == 0 && ftello(f) >= 0)
    size = (uint64_t)ftello(f);
  if (size < W_HEADER + 1) {
    fclose(f);
    return src_fail(s, PT_ETRUNCATED, "%s: truncated OTF2 file (%" PRIu64
                    " bytes: too short for a chunk)", file, size);
  }
  if (chunk >= W_HEADER + 2) {
    uint64_t last = (size - 1) / chunk;
    unsigned char b = 0;
    /* bytes appended after a last chunk that was full: not read */
    if (last > 0 && (fseeko(f, (off_t)(last * chunk), SEEK_SET) != 0 ||
                     fread(&b, 1, 1, f) != 1 || b != 3))
      last--;
    for (uint64_t c = 0; c < last && w.state == W_EOF; c++)
      if (fseeko(f, (off_t)(c * chunk), SEEK_SET) != 0 ||
          fread(&b, 1, 1, f) != 1 || b != 3) {
        w.state = W_BAD, w.off = c * chunk;
        w.why = "a chunk does not start with a chunk header";
      }
    if (w.state == W_EOF) walk_file(f, size, chunk, evt, last, &w);
  }
  fclose(f);
  if (w.state == W_SHORT)
    return src_fail(s, PT_ETRUNCATED, "%s: truncated OTF2 file (the data "
                    "ends at offset %" PRIu64 ", before the end-of-file "
                    "record)", file, w.off);
  if (w.state == W_BAD)
    return src_fail(s, PT_ECORRUPT, "%s: damaged OTF2 file at offset %"
                    PRIu64 " (%s)", file, w.off, w.why);
  return PT_OK;
}

/* After libotf2 refused a file having read `good` records of it: where
 * the next one starts, as text for the error message ("definition 35 at
 * offset 900", "event 35 at offset 900; the last good one at time T"), or
 * what the walk found wrong first.  Empty if it cannot tell. */
static void where(char *b, size_t cap, const char *file, uint64_t chunk,
                  int evt, uint64_t good) {
  b[0] = 0;
  FILE *f = chunk ? fopen(file, "rb") : NULL;
  if (!f) return;
  walk w = {.want = good};
  uint64_t size = 0;
  if (fseeko(f, 0, SEEK_END) == 0 && ftello(f) >= 0)
    size = (uint64_t)ftello(f);
  walk_file(f, size, chunk, evt, 0, &w);
  fclose(f);
  const char *noun = evt ? "event" : "definition";
  if (w.at != UINT64_MAX) {
    int l = snprintf(b, cap, "%s %" PRIu64 " at offset %" PRIu64, noun,
                     good + 1, w.at);
    if (w.has_time && l > 0 && (size_t)l < cap)
      snprintf(b + l, cap - (size_t)l, "; the last good one at time %" PRIu64,
               w.time);
  } else if (w.state == W_BAD) {
    snprintf(b, cap, "after %s %" PRIu64 ", offset %" PRIu64 ": %s", noun,
             good, w.off, w.why);
  } else if (w.state == W_SHORT) {
    snprintf(b, cap, "after %s %" PRIu64 ", the data ends at offset %" PRIu64,
             noun, good, w.off);
  } else if (good) {
    snprintf(b, cap, "after %s %" PRIu64, noun, good);
  }
}

/* The files of the archive, before libotf2 reads them. */
static int check_files(osrc *s, int locals) {
  OTF2_FileSubstrate sub;
  OTF2_Compression comp;
  uint64_t ce = 0, cd = 0;
  if (OTF2_Reader_GetFileSubstrate(s->rd, &sub) != OTF2_SUCCESS ||
      OTF2_Reader_GetCompression(s->rd, &comp) != OTF2_SUCCESS ||
      OTF2_Reader_GetChunkSize(s->rd, &ce, &cd) != OTF2_SUCCESS ||
      sub != OTF2_SUBSTRATE_POSIX || comp != OTF2_COMPRESSION_NONE)
    return PT_OK;
  /* libotf2's range: a walk holds one chunk in memory */
  s->chunk_evt = ce >= W_HEADER + 2 && ce <= OTF2_CHUNK_SIZE_MAX ? ce : 0;
  s->chunk_def = cd >= W_HEADER + 2 && cd <= OTF2_CHUNK_SIZE_MAX ? cd : 0;
  size_t n = strlen(s->stem) + 48;
  char *file = malloc(n);
  if (!file) return src_fail(s, PT_ENOMEM, "out of memory");
  int rc = PT_OK;
  if (!locals) {
    snprintf(file, n, "%s.def", s->stem);
    rc = check_file(s, file, cd, 0, 1);
  }
  for (size_t i = 0; locals && i < s->nlocs && rc == PT_OK; i++) {
    snprintf(file, n, "%s/%" PRIu64 ".evt", s->stem, s->locs[i]);
    rc = check_file(s, file, ce, 1, 1);
    if (rc == PT_OK) {
      snprintf(file, n, "%s/%" PRIu64 ".def", s->stem, s->locs[i]);
      rc = check_file(s, file, cd, 0, 0);
    }
    if (rc == PT_OK) {
      snprintf(file, n, "%s/%" PRIu64 ".snap", s->stem, s->locs[i]);
      rc = check_file(s, file, ce, 1, 0);
    }
  }
  free(file);
  return rc;
}

static int read_global_defs(osrc *s) {
  int crc = check_files(s, 0);
  if (crc < 0) return crc;
  OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(s->rd);
  if (!gd)
    return src_fail(s, PT_ECORRUPT, "cannot read the global definitions "
                    "(%s.def missing or unreadable)", s->stem);
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  if (!cb) return src_fail(s, PT_ENOMEM, "out of memory");
#define SET(what, fn) OTF2_GlobalDefReaderCallbacks_Set##what##Callback(cb, fn)
  SET(ClockProperties, d_clock);
  SET(String, d_string);
  SET(Paradigm, d_paradigm);
  SET(Attribute, d_attribute);
  SET(SystemTreeNode, d_stn);
  SET(LocationGroup, d_lg);
  SET(Location, d_loc);
  SET(Region, d_region);
  SET(Callsite, d_callsite);
  SET(Group, d_group);
  SET(Comm, d_comm);
  SET(InterComm, d_intercomm);
  SET(Parameter, d_parameter);
  SET(MetricMember, d_member);
  SET(MetricClass, d_mclass);
  SET(MetricInstance, d_minstance);
  SET(MetricClassRecorder, d_mrecorder);
  SET(SystemTreeNodeProperty, d_stn_prop);
  SET(LocationGroupProperty, d_lg_prop);
  SET(LocationProperty, d_loc_prop);
  SET(IoRegularFile, d_iofile);
  SET(IoDirectory, d_iodir);
  SET(IoHandle, d_iohandle);
  SET(IoParadigm, d_ioparadigm);
  SET(ParadigmProperty, d_par_prop);
  SET(IoFileProperty, d_file_prop);
  SET(CallingContextProperty, d_cc_prop);
  SET(CallpathParameter, d_cp_param);
  SET(SystemTreeNodeDomain, d_stn_domain);
  SET(IoPreCreatedHandleState, d_io_precreated);
  SET(CartTopology, d_cart_topo);
  SET(CartCoordinate, d_cart_coord);
#define G_SET(N, ...) SET(N, gd_##N);
  PT__OTF2_GENERIC_DEFS(G_SET)
#undef G_SET
  SET(RmaWin, d_rma_win); /* generic, and its communicator kept */
  SET(CallingContext, d_cc); /* generic, and its region kept */
#undef SET
  OTF2_ErrorCode e = OTF2_Reader_RegisterGlobalDefCallbacks(s->rd, gd, cb, s);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  if (e != OTF2_SUCCESS) return otf2_fail(s, "registering callbacks", e);
  uint64_t n = 0;
  e = OTF2_Reader_ReadAllGlobalDefinitions(s->rd, gd, &n);
  OTF2_Reader_CloseGlobalDefReader(s->rd, gd);
  if (s->cb_rc) return s->cb_rc;
  if (e != OTF2_SUCCESS) {
    char what[800], file[520], at[200];
    snprintf(file, sizeof file, "%.500s.def", s->stem);
    where(at, sizeof at, file, s->chunk_def, 0, n);
    snprintf(what, sizeof what, "reading the global definitions (%s%s%s)",
             file, at[0] ? ": " : "", at);
    return otf2_fail(s, what, e);
  }
  return PT_OK;
}

static int open_events(osrc *s) {
  CHECK(OTF2_Reader_OpenEvtFiles(s->rd), "opening the event files");
  OTF2_ErrorCode de = OTF2_Reader_OpenDefFiles(s->rd);
  OTF2_DefReaderCallbacks *dcb = OTF2_DefReaderCallbacks_New();
  if (!dcb) return src_fail(s, PT_ENOMEM, "out of memory");
  OTF2_DefReaderCallbacks_SetClockOffsetCallback(dcb, d_clock_offset);
  for (size_t i = 0; i < s->nlocs; i++) {
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(s->rd, s->locs[i]);
    if (!er) {
      OTF2_DefReaderCallbacks_Delete(dcb);
      return src_fail(s, PT_ECORRUPT,
                      "cannot open the events of location %" PRIu64
                      " (%s/%" PRIu64 ".evt)", s->locs[i], s->stem,
                      s->locs[i]);
    }
    if (de != OTF2_SUCCESS) continue; /* no local definitions at all */
    char file[4200];
    struct stat sb;
    snprintf(file, sizeof file, "%.4000s/%" PRIu64 ".def", s->stem, s->locs[i]);
    if (stat(file, &sb) != 0) continue; /* none for this location */
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(s->rd, s->locs[i]);
    if (!dr) continue; /* a location without local definitions */
    local_ctx c = {s, s->locs[i]};
    OTF2_ErrorCode e = OTF2_Reader_RegisterDefCallbacks(s->rd, dr, dcb, &c);
    uint64_t n = 0;
    if (e == OTF2_SUCCESS) e = OTF2_Reader_ReadAllLocalDefinitions(s->rd, dr, &n);
    OTF2_Reader_CloseDefReader(s->rd, dr);
    if (s->cb_rc || e != OTF2_SUCCESS) {
      OTF2_DefReaderCallbacks_Delete(dcb);
      if (s->cb_rc) return s->cb_rc;
      char what[800], at[200];
      where(at, sizeof at, file, s->chunk_def, 0, n);
      snprintf(what, sizeof what, "reading the local definitions of "
               "location %" PRIu64 " (%.500s%s%s)", s->locs[i], file,
               at[0] ? ": " : "", at);
      return otf2_fail(s, what, e);
    }
  }
  OTF2_DefReaderCallbacks_Delete(dcb);
  if (de == OTF2_SUCCESS) OTF2_Reader_CloseDefFiles(s->rd);
  s->want_gev = 1;
  return PT_OK;
}

/* The global event reader, made when the first event is wanted: it reads
 * ahead one record of every location, and libotf2 does not free what that
 * record holds (a ProgramBegin's argument array, an attribute list) when
 * the reader is closed before handing it out.  Made at open, every reader
 * that only wanted the definitions (the clock: check, stats, slice) leaked
 * it (LeakSanitizer, Score-P traces). */
static int open_gev(osrc *s) {
  s->want_gev = 0;
  s->gev = OTF2_Reader_GetGlobalEvtReader(s->rd);
  if (!s->gev)
    return src_fail(s, PT_ECORRUPT, "cannot open the global event reader");
  OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
  if (!cb) return src_fail(s, PT_ENOMEM, "out of memory");
#define SET(what, fn) OTF2_GlobalEvtReaderCallbacks_Set##what##Callback(cb, fn)
  SET(Enter, e_enter);
  SET(Leave, e_leave);
  SET(MpiSend, e_send);
  SET(MpiRecv, e_recv);
  SET(MpiIsend, e_isend);
  SET(MpiIrecv, e_irecv);
  SET(MpiIsendComplete, e_isend_c);
  SET(MpiIrecvRequest, e_irecv_r);
  SET(MpiRequestTest, e_rtest);
  SET(MpiRequestCancelled, e_rcancel);
  SET(MpiCollectiveBegin, e_cbegin);
  SET(MpiCollectiveEnd, e_cend);
  SET(Metric, e_metric);
  SET(ParameterString, e_pstring);
  SET(ParameterInt, e_pint);
  SET(ParameterUnsignedInt, e_puint);
  SET(ThreadFork, e_fork);
  SET(ThreadJoin, e_join);
  SET(ThreadTeamBegin, e_tbegin);
  SET(ThreadTeamEnd, e_tend);
  SET(ThreadCreate, e_tcreate);
  SET(ThreadBegin, e_tthbegin);
  SET(ThreadWait, e_twait);
  SET(ThreadEnd, e_tthend);
  SET(IoOperationBegin, e_iobegin);
  SET(IoOperationComplete, e_ioend);
  SET(IoOperationTest, e_iotest);
  SET(IoOperationIssued, e_ioissued);
  SET(IoOperationCancelled, e_iocancel);
  SET(MeasurementOnOff, e_measure);
  SET(BufferFlush, e_flush);
  SET(ProgramBegin, e_pbegin);
  SET(ProgramEnd, e_pend);
#pragma GCC diagnostic push /* the Omp* records are deprecated in OTF2 */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define G_SET(N, ...) SET(N, g_##N);
  PT__OTF2_GENERIC(G_SET)
#undef G_SET
#pragma GCC diagnostic pop
  /* these three are model events (their generic form, a MARK, is still
   * written back by the sink, from archives made before) */
  SET(RmaPut, e_rma_put);
  SET(RmaGet, e_rma_get);
  SET(RmaAtomic, e_rma_atomic);
  SET(CallingContextEnter, e_cc_enter);
  SET(CallingContextLeave, e_cc_leave);
#undef SET
  OTF2_ErrorCode e =
      OTF2_Reader_RegisterGlobalEvtCallbacks(s->rd, s->gev, cb, s);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  if (e != OTF2_SUCCESS) return otf2_fail(s, "registering callbacks", e);
  return PT_OK;
}

static void src_close(void *st) {
  osrc *s = st;
  if (!s) return;
  if (s->rd) {
    if (s->gev) OTF2_Reader_CloseGlobalEvtReader(s->rd, s->gev);
    if (s->gsr) OTF2_Reader_CloseGlobalSnapReader(s->rd, s->gsr);
    OTF2_Reader_Close(s->rd);
  }
  pt__arena_free(&s->mem);
  pt__arena_free(&s->ev);
  pt__map_free(&s->strmap);
  pt__map_free(&s->group_def);
  pt__map_free(&s->win_comm);
  pt__map_free(&s->cc_region);
  pt__map_free(&s->comm_group);
  pt__map_free(&s->inter_b);
  pt__map_free(&s->inter_a);
  pt__map_free(&s->loc_rank);
  pt__map_free(&s->rep_attr);
  pt__map_free(&s->ints_attr);
  free(s->strs);
  free(s->defs);
  free(s->locs);
  free(s->q);
  free(s->path);
  free(s->stem);
  free(s);
}

/* No format parameters yet. */
static int parse_params(osrc *s, const char *p, pt_error *err) {
  if (p && *p)
    return pt__err(err, PT_EINVAL, "%s: the OTF2 reader takes no "
                   "parameters (got '%s')", s->path, p);
  return PT_OK;
}

static int src_open(void **st, const char *path, const pt_source_opts *o,
                    pt_error *err) {
  *st = NULL;
  osrc *s = calloc(1, sizeof *s);
  if (!s || !(s->path = strdup(path))) {
    free(s);
    return pt__err(err, PT_ENOMEM, "%s: out of memory", path);
  }
  s->stem = strdup(path);
  if (!s->stem) {
    src_close(s);
    return pt__err(err, PT_ENOMEM, "%s: out of memory", path);
  }
  size_t sl = strlen(s->stem);
  if (sl > 5 && strcmp(s->stem + sl - 5, ".otf2") == 0) s->stem[sl - 5] = 0;
  s->defs_only = o && o->defs_only;
  int rc = parse_params(s, o ? o->params : NULL, err);
  if (rc < 0) {
    src_close(s);
    return rc;
  }
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    rc = pt__err(err, PT_ENOTFOUND, "%s: no OTF2 anchor file there", path);
    src_close(s);
    return rc;
  }
  pt__otf2_capture();
  s->rd = OTF2_Reader_Open(path);
  if (!s->rd) {
    /* the reason: libotf2's own message, else what the file holds */
    char lib[400], why[80] = "";
    const char *l = pt__otf2_take(lib, sizeof lib);
    if (!l) {
      unsigned char head[6] = {0};
      FILE *f = fopen(path, "rb");
      size_t got = f ? fread(head, 1, sizeof head, f) : 0;
      if (f) fclose(f);
      snprintf(why, sizeof why, "%s",
               sb.st_size == 0 ? "the file is empty"
               : !probe(path, 0, head, got)
                   ? "no OTF2 anchor header at offset 0"
                   : "the anchor header is damaged");
    }
    rc = pt__err(err, PT_ECORRUPT,
                 "%s: libotf2 cannot open this as an OTF2 anchor file (%s)",
                 path, l ? l : why);
    src_close(s);
    return rc;
  }
  rc = PT_OK;
  OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(s->rd);
  if (e != OTF2_SUCCESS) rc = otf2_fail(s, "setting up the reader", e);
  if (rc == PT_OK) rc = carrier_defs(s);
  if (rc == PT_OK) rc = anchor_keyvals(s);
  if (rc == PT_OK) rc = read_global_defs(s);
  if (rc == PT_OK) {
    for (size_t i = 0; i < s->nlocs && rc == PT_OK; i++) {
      e = OTF2_Reader_SelectLocation(s->rd, s->locs[i]);
      if (e != OTF2_SUCCESS) rc = otf2_fail(s, "selecting a location", e);
    }
  }
  if (rc == PT_OK) rc = check_files(s, 1);
  if (rc == PT_OK && s->nlocs) rc = open_events(s);
  if (rc == PT_OK) rc = finish_defs(s);
  if (rc < 0) {
    if (rc == PT_ENOMEM && !s->err[0])
      snprintf(s->err, sizeof s->err, "%s: out of memory", path);
    pt__err(err, rc, "%s", s->err);
    src_close(s);
    return rc;
  }
  s->stage = 0;
  *st = s;
  return PT_OK;
}

/* The global event reader does not say which location failed.  Each
 * location's events are read alone, through a reader of its own, until
 * one fails; the number of its good events locates the bad record in its
 * file.  1 = found. */
static int bad_location(osrc *s, uint64_t *loc, uint64_t *good) {
  OTF2_Reader *rd = OTF2_Reader_Open(s->path);
  if (!rd) return 0;
  int found = 0;
  if (OTF2_Reader_SetSerialCollectiveCallbacks(rd) == OTF2_SUCCESS) {
    for (size_t i = 0; i < s->nlocs; i++)
      OTF2_Reader_SelectLocation(rd, s->locs[i]);
    if (OTF2_Reader_OpenEvtFiles(rd) == OTF2_SUCCESS) {
      for (size_t i = 0; i < s->nlocs && !found; i++) {
        OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, s->locs[i]);
        if (!er) continue;
        uint64_t n = 0;
        if (OTF2_Reader_ReadLocalEvents(rd, er, OTF2_UNDEFINED_UINT64, &n) !=
            OTF2_SUCCESS) {
          *loc = s->locs[i];
          *good = n;
          found = 1;
        }
        OTF2_Reader_CloseEvtReader(rd, er);
      }
      OTF2_Reader_CloseEvtFiles(rd);
    }
  }
  OTF2_Reader_Close(rd);
  return found;
}

static int evt_fail(osrc *s, OTF2_ErrorCode e) {
  char lib[400], junk[400], what[800];
  const char *l = pt__otf2_take(lib, sizeof lib);
  uint64_t loc = 0, good = 0;
  int found = bad_location(s, &loc, &good);
  pt__otf2_take(junk, sizeof junk); /* the second reader's, same cause */
  if (found) {
    char file[520], at[200];
    snprintf(file, sizeof file, "%.500s/%" PRIu64 ".evt", s->stem, loc);
    where(at, sizeof at, file, s->chunk_evt, 1, good);
    snprintf(what, sizeof what, "reading the events of location %" PRIu64
             " (%s%s%s)", loc, file, at[0] ? ": " : "", at);
  } else {
    snprintf(what, sizeof what, "reading events from %.500s/*.evt", s->stem);
  }
  int st = e == OTF2_ERROR_MEM_FAULT || e == OTF2_ERROR_MEM_ALLOC_FAILED
               ? PT_ENOMEM
               : PT_ECORRUPT;
  return src_fail(s, st, "%s failed: %s (%s)%s%s%s", what,
                  pt__otf2_errname(e), OTF2_Error_GetDescription(e),
                  l ? " [libotf2: " : "", l ? l : "", l ? "]" : "");
}

static int src_next(void *st, pt_item *item) {
  osrc *s = st;
  if (s->cb_rc) return s->cb_rc;
  if (s->stage == 0) {
    while (s->dpos < s->ndefs && s->defs[s->dpos].folded) s->dpos++;
    if (s->dpos < s->ndefs) {
      item->type = PT_ITEM_DEF;
      item->u.def = s->defs[s->dpos++].d;
      return PT_OK;
    }
    /* libotf2 leaks the records its event reader read ahead when it is
     * closed before handing them out: not made for the definitions only */
    if (s->defs_only) return PT_END;
    if (s->want_gev) {
      int rc = open_gev(s);
      if (rc < 0) return rc;
    }
    s->stage = s->gev ? 1 : 3;
  }
  while (s->stage == 1) {
    if (s->qpos < s->qn) {
      *item = s->q[s->qpos++];
      return PT_OK;
    }
    s->qn = s->qpos = 0;
    pt__arena_reset(&s->ev);
    int has = 0;
    OTF2_ErrorCode e = OTF2_Reader_HasGlobalEvent(s->rd, s->gev, &has);
    if (e != OTF2_SUCCESS) return evt_fail(s, e);
    if (!has) {
      s->stage = 2;
      int rc = open_snapshots(s);
      if (rc < 0) return rc;
      break;
    }
    e = OTF2_Reader_ReadGlobalEvent(s->rd, s->gev);
    if (s->cb_rc) return s->cb_rc;
    if (e != OTF2_SUCCESS && e != OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
      return evt_fail(s, e);
  }
  while (s->stage == 2 && s->gsr) {
    if (s->qpos < s->qn) {
      *item = s->q[s->qpos++];
      return PT_OK;
    }
    s->qn = s->qpos = 0;
    pt__arena_reset(&s->ev);
    uint64_t n = 0;
    OTF2_ErrorCode e = OTF2_Reader_ReadGlobalSnapshots(s->rd, s->gsr, 1, &n);
    if (s->cb_rc) return s->cb_rc;
    if (e != OTF2_SUCCESS && e != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
      char what[600];
      snprintf(what, sizeof what, "reading snapshots from %.500s/*.snap",
               s->stem);
      return otf2_fail(s, what, e);
    }
    if (n == 0 && s->qn == 0) break;
  }
  s->stage = 3;
  return PT_END;
}

static const char *src_errmsg(void *st) { return ((osrc *)st)->err; }

static int probe(const char *path, int is_dir, const uint8_t *head,
                 size_t n) {
  (void)path;
  if (is_dir) return 0;
  if (n >= 6 && memcmp(head + 2, "OTF2", 4) == 0) return 90;
  return 0;
}

/* The sink (otf2_write.c). */
int pt__otf2_sink_open(void **st, const char *path, const pt_sink_opts *o,
                       pt_error *err);
int pt__otf2_sink_write(void *st, const pt_item *item);
const char *pt__otf2_sink_errmsg(void *st);
int pt__otf2_sink_close(void *st, pt_error *err);
void pt__otf2_sink_abort(void *st);

const pt__format pt__format_otf2 = {
    .info = {"otf2", "OTF2 archive through libotf2 (anchor NAME.otf2 + "
                     "NAME.def + NAME/)",
             ".otf2", 1, 1},
    .probe = probe,
    .src_open = src_open,
    .src_next = src_next,
    .src_errmsg = src_errmsg,
    .src_close = src_close,
    .stdout_ok = 0,
    .multi_file = 1,
    .sink_open = pt__otf2_sink_open,
    .sink_write = pt__otf2_sink_write,
    .sink_errmsg = pt__otf2_sink_errmsg,
    .sink_close = pt__otf2_sink_close,
    .sink_abort = pt__otf2_sink_abort,
};
