/* paratrace-bench: the OTF2 side (libotf2 3.x, serial, no MPI).
 *
 * Writes the generator's definitions and events with the plain OTF2 API
 * (one event writer per location, then the global definitions) and reads
 * them back with the global event reader, which merges all locations in
 * time order. */
#include <otf2/OTF2_Pthread_Locks.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define FAIL(...)                \
  do {                           \
    bench_errf(res, __VA_ARGS__); \
    goto fail;                   \
  } while (0)
#define OTF2_CHECK(call)                                                    \
  do {                                                                      \
    OTF2_ErrorCode e_ = (call);                                             \
    if (e_ != OTF2_SUCCESS)                                                 \
      FAIL("%s: %s (%s)", #call, OTF2_Error_GetName(e_),                    \
           OTF2_Error_GetDescription(e_));                                  \
  } while (0)

/* ---- writing ------------------------------------------------------------ */

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type,
                                OTF2_LocationRef loc, void *caller, bool final) {
  (void)user, (void)type, (void)loc, (void)caller, (void)final;
  return OTF2_FLUSH;
}

/* No post-flush callback: OTF2 then writes no BufferFlush records, so both
 * archives hold exactly the generator's events. */
static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, NULL};

/* Strings get consecutive ids, each distinct string written once (an
 * open-addressing table keyed by content, as a measurement system does). */
typedef struct strtab {
  OTF2_GlobalDefWriter *w;
  OTF2_StringRef next;
  const char **keys; /* borrowed from the generator's definitions */
  OTF2_StringRef *refs;
  size_t cap;        /* power of two */
} strtab;

static uint64_t str_hash(const char *s) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
  return h;
}

static OTF2_ErrorCode str_ref(strtab *t, const char *s, OTF2_StringRef *ref) {
  if (!s) {
    *ref = OTF2_UNDEFINED_STRING;
    return OTF2_SUCCESS;
  }
  if (2 * (t->next + 1) > t->cap) { /* grow to keep the load <= 1/2 */
    size_t cap = t->cap ? 2 * t->cap : 1024;
    const char **keys = calloc(cap, sizeof *keys);
    OTF2_StringRef *refs = calloc(cap, sizeof *refs);
    if (!keys || !refs) {
      free(keys);
      free(refs);
      return OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->keys[i]) continue;
      size_t j = str_hash(t->keys[i]) & (cap - 1);
      while (keys[j]) j = (j + 1) & (cap - 1);
      keys[j] = t->keys[i];
      refs[j] = t->refs[i];
    }
    free(t->keys);
    free(t->refs);
    t->keys = keys;
    t->refs = refs;
    t->cap = cap;
  }
  size_t j = str_hash(s) & (t->cap - 1);
  while (t->keys[j]) {
    if (strcmp(t->keys[j], s) == 0) {
      *ref = t->refs[j];
      return OTF2_SUCCESS;
    }
    j = (j + 1) & (t->cap - 1);
  }
  t->keys[j] = s;
  t->refs[j] = *ref = t->next++;
  return OTF2_GlobalDefWriter_WriteString(t->w, *ref, s);
}

static void strtab_free(strtab *t) {
  free(t->keys);
  free(t->refs);
}

static OTF2_RegionRole otf2_role(int64_t role) {
  switch (role) {
    case PT_ROLE_FUNCTION: return OTF2_REGION_ROLE_FUNCTION;
    case PT_ROLE_WRAPPER: return OTF2_REGION_ROLE_WRAPPER;
    case PT_ROLE_LOOP: return OTF2_REGION_ROLE_LOOP;
    case PT_ROLE_CODE: return OTF2_REGION_ROLE_CODE;
    case PT_ROLE_POINT2POINT: return OTF2_REGION_ROLE_POINT2POINT;
    case PT_ROLE_COLLECTIVE: return OTF2_REGION_ROLE_COLL_OTHER;
    case PT_ROLE_BARRIER: return OTF2_REGION_ROLE_BARRIER;
    case PT_ROLE_FILE_IO: return OTF2_REGION_ROLE_FILE_IO;
    case PT_ROLE_ARTIFICIAL: return OTF2_REGION_ROLE_ARTIFICIAL;
    default: return OTF2_REGION_ROLE_UNKNOWN;
  }
}

static OTF2_Paradigm otf2_paradigm(int64_t p) {
  switch (p) {
    case PT_PARADIGM_USER: return OTF2_PARADIGM_USER;
    case PT_PARADIGM_COMPILER: return OTF2_PARADIGM_COMPILER;
    case PT_PARADIGM_MPI: return OTF2_PARADIGM_MPI;
    case PT_PARADIGM_OPENMP: return OTF2_PARADIGM_OPENMP;
    case PT_PARADIGM_PTHREAD: return OTF2_PARADIGM_PTHREAD;
    case PT_PARADIGM_MEASUREMENT: return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
    default: return OTF2_PARADIGM_UNKNOWN;
  }
}

static uint32_t ref32(uint64_t v) {
  return v == PT_NONE ? UINT32_MAX : (uint32_t)v;
}

/* The definition kinds the generator produces. */
static OTF2_ErrorCode write_def(strtab *t, const pt_def *d) {
  OTF2_GlobalDefWriter *w = t->w;
  OTF2_StringRef a, b, c, f;
  OTF2_ErrorCode e;
#define S(s, r) \
  if ((e = str_ref(t, (s), &(r))) != OTF2_SUCCESS) return e
  switch (d->kind) {
    case PT_DEF_CLOCK:
      return OTF2_GlobalDefWriter_WriteClockProperties(
          w, (uint64_t)d->i0, d->parent, (uint64_t)d->i2,
          OTF2_UNDEFINED_TIMESTAMP);
    case PT_DEF_SYSTEM_NODE:
      S(d->name, a);
      S(d->s1, b);
      return OTF2_GlobalDefWriter_WriteSystemTreeNode(w, ref32(d->id), a, b,
                                                      ref32(d->parent));
    case PT_DEF_LOCATION_GROUP:
      S(d->name, a);
      return OTF2_GlobalDefWriter_WriteLocationGroup(
          w, ref32(d->id), a, OTF2_LOCATION_GROUP_TYPE_PROCESS,
          ref32(d->parent), OTF2_UNDEFINED_LOCATION_GROUP);
    case PT_DEF_LOCATION:
      S(d->name, a);
      return OTF2_GlobalDefWriter_WriteLocation(
          w, d->id, a, OTF2_LOCATION_TYPE_CPU_THREAD, (uint64_t)d->i1,
          ref32(d->parent));
    case PT_DEF_REGION:
      S(d->name, a);
      S(d->s1, b);
      S(d->s2, c);
      S(d->s3, f);
      return OTF2_GlobalDefWriter_WriteRegion(
          w, ref32(d->id), a, b, c, otf2_role(d->i0), otf2_paradigm(d->i1),
          OTF2_REGION_FLAG_NONE, f, (uint32_t)d->i2, (uint32_t)d->i3);
    case PT_DEF_GROUP: {
      OTF2_GroupType type = d->i0 == PT_GROUP_COMM_LOCATIONS
                                ? OTF2_GROUP_TYPE_COMM_LOCATIONS
                                : d->i0 == PT_GROUP_COMM_GROUP
                                      ? OTF2_GROUP_TYPE_COMM_GROUP
                                      : OTF2_GROUP_TYPE_LOCATIONS;
      S(d->name, a);
      return OTF2_GlobalDefWriter_WriteGroup(
          w, ref32(d->id), a, type, otf2_paradigm(d->i1), OTF2_GROUP_FLAG_NONE,
          (uint32_t)d->nmembers, d->members);
    }
    case PT_DEF_COMM:
      S(d->name, a);
      return OTF2_GlobalDefWriter_WriteComm(w, ref32(d->id), a, ref32(d->ref),
                                            ref32(d->parent),
                                            OTF2_COMM_FLAG_NONE);
    case PT_DEF_METRIC: {
      S(d->name, a);
      S(d->s2, b);
      S(d->s1, c);
      OTF2_MetricMemberRef m = ref32(d->id);
      e = OTF2_GlobalDefWriter_WriteMetricMember(
          w, m, a, b, OTF2_METRIC_TYPE_OTHER,
          d->i1 == PT_METRIC_ACCUMULATED ? OTF2_METRIC_ACCUMULATED_START
                                         : OTF2_METRIC_ABSOLUTE_POINT,
          OTF2_TYPE_UINT64, d->i2 == 2 ? OTF2_BASE_BINARY : OTF2_BASE_DECIMAL,
          d->i3, c);
      if (e != OTF2_SUCCESS) return e;
      return OTF2_GlobalDefWriter_WriteMetricClass(
          w, m, 1, &m, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT);
    }
    default:
      return OTF2_SUCCESS; /* not produced by the generator */
  }
#undef S
}

static OTF2_ErrorCode write_event(OTF2_EvtWriter *w, const pt_event *ev) {
  switch (ev->kind) {
    case PT_EV_ENTER:
      return OTF2_EvtWriter_Enter(w, NULL, ev->time, (OTF2_RegionRef)ev->ref);
    case PT_EV_LEAVE:
      return OTF2_EvtWriter_Leave(w, NULL, ev->time, (OTF2_RegionRef)ev->ref);
    case PT_EV_SEND:
      return OTF2_EvtWriter_MpiSend(w, NULL, ev->time, (uint32_t)ev->peer,
                                    (OTF2_CommRef)ev->comm, (uint32_t)ev->tag,
                                    ev->size);
    case PT_EV_RECV:
      return OTF2_EvtWriter_MpiRecv(w, NULL, ev->time, (uint32_t)ev->peer,
                                    (OTF2_CommRef)ev->comm, (uint32_t)ev->tag,
                                    ev->size);
    case PT_EV_METRIC: {
      OTF2_Type type = OTF2_TYPE_UINT64;
      OTF2_MetricValue v;
      v.unsigned_int = ev->value.v.u;
      return OTF2_EvtWriter_Metric(w, NULL, ev->time, (OTF2_MetricRef)ev->ref,
                                   1, &type, &v);
    }
    default:
      return OTF2_ERROR_INVALID_ARGUMENT;
  }
}

typedef struct otf2_ctx {
  pt_gen *g;
  OTF2_Archive *ar;
} otf2_ctx;

/* One event writer per location. */
static int otf2_loc(void *ctx, uint64_t loc, phase_result *res) {
  otf2_ctx *x = ctx;
  OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(x->ar, loc);
  if (!w) FAIL("OTF2_Archive_GetEvtWriter(%llu) failed", (unsigned long long)loc);
  pt_event ev;
  int rc;
  while ((rc = pt_gen_next(x->g, loc, &ev)) == PT_OK)
    OTF2_CHECK(write_event(w, &ev));
  if (rc != PT_END) FAIL("pt_gen_next: %s", pt_strerror(rc));
  OTF2_CHECK(OTF2_Archive_CloseEvtWriter(x->ar, w));
  return 0;
fail:
  return -1;
}

int bench_otf2_write(const bench_case *c, phase_result *res) {
  otf2_ctx x = {0};
  strtab st = {0};
  pt_gen_opts go = {.locations = c->locations, .events = c->events,
                    .seed = c->seed};
  double t0 = bench_now();
  if (pt_gen_create(&x.g, &go) != PT_OK) FAIL("pt_gen_create failed");
  x.ar = OTF2_Archive_Open(c->otf2_path, "traces", OTF2_FILEMODE_WRITE,
                           OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
                           OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT,
                           OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!x.ar) FAIL("OTF2_Archive_Open(%s) failed", c->otf2_path);
  OTF2_CHECK(OTF2_Archive_SetFlushCallbacks(x.ar, &flush_callbacks, NULL));
  OTF2_CHECK(OTF2_Archive_SetSerialCollectiveCallbacks(x.ar));
  if (c->threads > 1)
    OTF2_CHECK(OTF2_Pthread_Archive_SetLockingCallbacks(x.ar, NULL));
  OTF2_CHECK(OTF2_Archive_SetCreator(x.ar, "paratrace-bench"));
  OTF2_CHECK(OTF2_Archive_OpenEvtFiles(x.ar));
  if (bench_parallel(c->threads, c->locations, otf2_loc, &x, res)) goto fail;
  OTF2_CHECK(OTF2_Archive_CloseEvtFiles(x.ar));
  /* Empty local definition files, as a measurement system writes them. */
  OTF2_CHECK(OTF2_Archive_OpenDefFiles(x.ar));
  for (uint64_t loc = 0; loc < c->locations; loc++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(x.ar, loc);
    if (!dw) FAIL("OTF2_Archive_GetDefWriter failed");
    OTF2_CHECK(OTF2_Archive_CloseDefWriter(x.ar, dw));
  }
  OTF2_CHECK(OTF2_Archive_CloseDefFiles(x.ar));
  st.w = OTF2_Archive_GetGlobalDefWriter(x.ar);
  if (!st.w) FAIL("OTF2_Archive_GetGlobalDefWriter failed");
  for (size_t i = 0; i < pt_gen_ndefs(x.g); i++)
    OTF2_CHECK(write_def(&st, pt_gen_def(x.g, i)));
  OTF2_ErrorCode e = OTF2_Archive_Close(x.ar);
  x.ar = NULL;
  if (e != OTF2_SUCCESS) FAIL("OTF2_Archive_Close: %s", OTF2_Error_GetName(e));
  res->secs = bench_now() - t0;
  strtab_free(&st);
  pt_gen_destroy(x.g);
  return 0;
fail:
  if (x.ar) OTF2_Archive_Close(x.ar);
  strtab_free(&st);
  pt_gen_destroy(x.g);
  return -1;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct locs {
  uint64_t *v;
  size_t n, cap;
} locs;

static OTF2_CallbackCode on_location(void *user, OTF2_LocationRef self,
                                     OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t nev,
                                     OTF2_LocationGroupRef group) {
  (void)name, (void)type, (void)nev, (void)group;
  locs *l = user;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    uint64_t *v = realloc(l->v, cap * sizeof *v);
    if (!v) return OTF2_CALLBACK_ERROR;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = self;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                  void *user, OTF2_AttributeList *al,
                                  OTF2_RegionRef region) {
  (void)al;
  pt_event ev = {.time = t, .location = loc, .kind = PT_EV_ENTER,
                 .ref = region};
  bench_fold(user, &ev);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                  void *user, OTF2_AttributeList *al,
                                  OTF2_RegionRef region) {
  (void)al;
  pt_event ev = {.time = t, .location = loc, .kind = PT_EV_LEAVE,
                 .ref = region};
  bench_fold(user, &ev);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                 void *user, OTF2_AttributeList *al,
                                 uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len) {
  (void)al;
  pt_event ev = {.time = t, .location = loc, .kind = PT_EV_SEND,
                 .peer = peer, .comm = comm, .tag = tag, .size = len};
  bench_fold(user, &ev);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                 void *user, OTF2_AttributeList *al,
                                 uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len) {
  (void)al;
  pt_event ev = {.time = t, .location = loc, .kind = PT_EV_RECV,
                 .peer = peer, .comm = comm, .tag = tag, .size = len};
  bench_fold(user, &ev);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                   void *user, OTF2_AttributeList *al,
                                   OTF2_MetricRef metric, uint8_t n,
                                   const OTF2_Type *types,
                                   const OTF2_MetricValue *values) {
  (void)al, (void)types;
  pt_event ev = {.time = t, .location = loc, .kind = PT_EV_METRIC,
                 .ref = metric};
  ev.value.type = PT_TYPE_UINT;
  ev.value.v.u = n ? values[0].unsigned_int : 0;
  bench_fold(user, &ev);
  return OTF2_CALLBACK_SUCCESS;
}

/* A record this libotf2 does not know: fold it as kind 0, which breaks
 * the checksum loudly. */
static OTF2_CallbackCode on_unknown(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                    void *user, OTF2_AttributeList *al) {
  (void)al;
  pt_event ev = {.time = t, .location = loc, .kind = PT_EV_INVALID};
  bench_fold(user, &ev);
  return OTF2_CALLBACK_SUCCESS;
}

int bench_otf2_read(const bench_case *c, phase_result *res) {
  char anchor[4200];
  OTF2_Reader *r = NULL;
  OTF2_GlobalDefReaderCallbacks *dcb = NULL;
  OTF2_GlobalEvtReaderCallbacks *ecb = NULL;
  locs l = {0};
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", c->otf2_path);
  double t0 = bench_now();
  r = OTF2_Reader_Open(anchor);
  if (!r) FAIL("OTF2_Reader_Open(%s) failed", anchor);
  OTF2_CHECK(OTF2_Reader_SetSerialCollectiveCallbacks(r));

  OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
  if (!gdr) FAIL("OTF2_Reader_GetGlobalDefReader failed");
  dcb = OTF2_GlobalDefReaderCallbacks_New();
  if (!dcb) FAIL("out of memory");
  OTF2_CHECK(OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location));
  OTF2_CHECK(OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, dcb, &l));
  uint64_t ndefs = 0;
  OTF2_CHECK(OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &ndefs));
  OTF2_CHECK(OTF2_Reader_CloseGlobalDefReader(r, gdr));
  if (l.n != c->locations)
    FAIL("OTF2 archive has %zu locations, expected %llu", l.n,
         (unsigned long long)c->locations);

  for (size_t i = 0; i < l.n; i++)
    OTF2_CHECK(OTF2_Reader_SelectLocation(r, l.v[i]));
  OTF2_CHECK(OTF2_Reader_OpenDefFiles(r));
  OTF2_CHECK(OTF2_Reader_OpenEvtFiles(r));
  for (size_t i = 0; i < l.n; i++) {
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, l.v[i]);
    if (dr) {
      uint64_t n = 0;
      OTF2_CHECK(OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n));
      OTF2_CHECK(OTF2_Reader_CloseDefReader(r, dr));
    }
    if (!OTF2_Reader_GetEvtReader(r, l.v[i]))
      FAIL("OTF2_Reader_GetEvtReader failed");
  }
  OTF2_CHECK(OTF2_Reader_CloseDefFiles(r));

  OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(r);
  if (!ger) FAIL("OTF2_Reader_GetGlobalEvtReader failed");
  ecb = OTF2_GlobalEvtReaderCallbacks_New();
  if (!ecb) FAIL("out of memory");
  OTF2_CHECK(OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(ecb, on_unknown));
  OTF2_CHECK(OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, on_enter));
  OTF2_CHECK(OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, on_leave));
  OTF2_CHECK(OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ecb, on_send));
  OTF2_CHECK(OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ecb, on_recv));
  OTF2_CHECK(OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(ecb, on_metric));
  OTF2_CHECK(OTF2_Reader_RegisterGlobalEvtCallbacks(r, ger, ecb, &res->sum));
  uint64_t nev = 0;
  OTF2_CHECK(OTF2_Reader_ReadAllGlobalEvents(r, ger, &nev));
  OTF2_CHECK(OTF2_Reader_CloseGlobalEvtReader(r, ger));
  OTF2_CHECK(OTF2_Reader_CloseEvtFiles(r));
  OTF2_ErrorCode e = OTF2_Reader_Close(r);
  r = NULL;
  if (e != OTF2_SUCCESS) FAIL("OTF2_Reader_Close: %s", OTF2_Error_GetName(e));
  res->secs = bench_now() - t0;
  OTF2_GlobalDefReaderCallbacks_Delete(dcb);
  OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
  free(l.v);
  return 0;
fail:
  if (r) OTF2_Reader_Close(r);
  if (dcb) OTF2_GlobalDefReaderCallbacks_Delete(dcb);
  if (ecb) OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
  free(l.v);
  return -1;
}
