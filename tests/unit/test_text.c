/* The text format: random items of every kind -> text sink -> text source
 * -> equal; a golden file form; errors with file:line:column. */
#include <float.h>
#include <math.h>
#include <unistd.h>

#include "formats/text.h"
#include "paratrace/paratrace.h"
#include "test.h"

static const pt__format *F = &pt__format_text;

/* ---- random items ------------------------------------------------------ */

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}
static unsigned rndn(unsigned n) { return (unsigned)(rnd() % n); }

static uint64_t rnd_u64(void) {
  static const uint64_t pick[] = {0, 1, 7, 255, 1000000, UINT64_MAX,
                                  UINT64_MAX - 1, (uint64_t)INT64_MAX + 1};
  unsigned r = rndn(12);
  if (r < 8) return pick[r];
  if (r < 10) return rnd() % 100000;
  return rnd();
}

static int64_t rnd_i64(void) {
  static const int64_t pick[] = {0, -1, 1, INT64_MIN, INT64_MAX, -42,
                                 INT64_MIN + 1};
  unsigned r = rndn(10);
  if (r < 7) return pick[r];
  if (r < 8) return (int64_t)(rnd() % 2000) - 1000;
  return (int64_t)rnd();
}

static double rnd_double(void) {
  double d;
  uint64_t bits;
  switch (rndn(16)) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return 1e-310;
    case 3: return -4.9e-324;
    case 4: return INFINITY;
    case 5: return -INFINITY;
    case 6: return NAN;
    case 7: return -NAN;
    case 8: bits = UINT64_C(0x7ff0000000000001); break; /* signalling */
    case 9: bits = UINT64_C(0xfff4000000abcdef); break;
    case 10: return DBL_MAX;
    case 11: return 0.1;
    case 12: return 1.0 / 3.0;
    case 13: return (double)(int64_t)(rnd() % 100000) - 50000;
    default: bits = rnd(); break; /* anything, NaN payloads included */
  }
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* Strings: empty, ASCII with quotes/backslash/controls, UTF-8 and broken
 * UTF-8, bytes 0x01..0xff. */
static const char *rnd_str(pt__arena *a) {
  static const char *const pick[] = {
      "",        "MPI_Send", "a \"quoted\" \\ word", "line\nbreak\ttab\r",
      "\x01\x7f\xff", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
      "bad \xc3 utf8 \xed\xa0\x80 \xf4\x90\x80\x80 \xc0\xaf",
      "{x=1 y=[2]} # not a comment", "none", "\xe2\x82"};
  if (rndn(3)) return pick[rndn(sizeof pick / sizeof pick[0])];
  unsigned n = rndn(40);
  char *s = pt__arena_alloc(a, n + 1);
  for (unsigned i = 0; i < n; i++) s[i] = (char)(1 + rndn(255));
  s[n] = 0;
  return s;
}

static const char *rnd_opt_str(pt__arena *a) {
  return rndn(4) == 0 ? NULL : rnd_str(a);
}

static void rnd_value(pt__arena *a, pt_value *v) {
  memset(v, 0, sizeof *v);
  v->type = rndn(PT_TYPE__COUNT);
  switch (v->type) {
    case PT_TYPE_INT: v->v.i = rnd_i64(); break;
    case PT_TYPE_UINT: v->v.u = rnd_u64(); break;
    case PT_TYPE_DOUBLE: v->v.d = rnd_double(); break;
    case PT_TYPE_STRING: v->v.s = rnd_str(a); break;
    case PT_TYPE_INTS: {
      v->count = rndn(6);
      int64_t *x = pt__arena_alloc(a, (v->count + 1) * sizeof *x);
      for (uint32_t i = 0; i < v->count; i++) x[i] = rnd_i64();
      v->v.ints = v->count ? x : NULL;
      break;
    }
    default: break;
  }
}

static void rnd_def(pt__arena *a, pt_def *d) {
  uint32_t kind = 1 + rndn(PT_DEF__COUNT - 1);
  pt_def_init(d, kind, 0);
  unsigned r = rndn(4);
  d->scope = r == 0 ? 1 + rndn(5) : r == 1 ? UINT32_MAX : 0;
  uint32_t m = pt_def_slot_mask(kind);
  if (m & (1u << PT_DSLOT_ID)) d->id = rnd_u64();
  if (m & (1u << PT_DSLOT_PARENT)) d->parent = rnd_u64();
  if (m & (1u << PT_DSLOT_REF)) d->ref = rnd_u64();
  if (m & (1u << PT_DSLOT_REF2)) d->ref2 = rnd_u64();
  if (m & (1u << PT_DSLOT_I0)) d->i0 = rnd_i64();
  if (m & (1u << PT_DSLOT_I1)) d->i1 = rnd_i64();
  if (m & (1u << PT_DSLOT_I2)) d->i2 = rnd_i64();
  if (m & (1u << PT_DSLOT_I3)) d->i3 = rnd_i64();
  if (m & (1u << PT_DSLOT_D0)) d->d0 = rnd_double();
  if (m & (1u << PT_DSLOT_NAME)) d->name = rnd_opt_str(a);
  if (m & (1u << PT_DSLOT_S1)) d->s1 = rnd_opt_str(a);
  if (m & (1u << PT_DSLOT_S2)) d->s2 = rnd_opt_str(a);
  if (m & (1u << PT_DSLOT_S3)) d->s3 = rnd_opt_str(a);
  if (m & (1u << PT_DSLOT_MEMBERS)) {
    d->nmembers = rndn(8);
    uint64_t *x = pt__arena_alloc(a, (d->nmembers + 1) * sizeof *x);
    for (uint64_t i = 0; i < d->nmembers; i++) x[i] = rnd_u64();
    d->members = d->nmembers ? x : NULL;
  }
}

static void rnd_event(pt__arena *a, pt_event *ev) {
  uint32_t kind = 1 + rndn(PT_EV__COUNT - 1);
  pt_event_init(ev, kind, rnd_u64(), rnd_u64());
  uint32_t m = pt_event_slot_mask(kind);
  if (m & (1u << PT_ESLOT_REF)) ev->ref = rnd_u64();
  if (m & (1u << PT_ESLOT_PEER)) ev->peer = rnd_i64();
  if (m & (1u << PT_ESLOT_COMM)) ev->comm = rnd_u64();
  if (m & (1u << PT_ESLOT_TAG)) ev->tag = rnd_i64();
  if (m & (1u << PT_ESLOT_SIZE)) ev->size = rnd_u64();
  if (m & (1u << PT_ESLOT_SIZE2)) ev->size2 = rnd_u64();
  if (m & (1u << PT_ESLOT_REQUEST)) ev->request = rnd_u64();
  if (m & (1u << PT_ESLOT_VALUE)) rnd_value(a, &ev->value);
  if (m & (1u << PT_ESLOT_TEXT)) ev->text = rnd_opt_str(a);
  ev->nattrs = rndn(3) ? rndn(6) : 0;
  if (ev->nattrs) {
    pt_attr *at = pt__arena_alloc(a, ev->nattrs * sizeof *at);
    for (uint32_t i = 0; i < ev->nattrs; i++) {
      at[i].key = rnd_u64();
      rnd_value(a, &at[i].val);
    }
    ev->attrs = at;
  }
}

static void rnd_item(pt__arena *a, pt_item *it) {
  memset(it, 0, sizeof *it);
  switch (rndn(8)) {
    case 0:
      it->type = PT_ITEM_STREAM;
      it->u.stream.stream = rnd_u64();
      it->u.stream.location = rnd_u64();
      break;
    case 1:
    case 2:
      it->type = PT_ITEM_DEF;
      rnd_def(a, &it->u.def);
      break;
    case 3: {
      it->type = PT_ITEM_SUMMARY;
      pt_summary *s = &it->u.summary;
      s->time = rnd_u64();
      s->location = rnd_u64();
      s->kind = 1 + rndn(5);
      s->ref = rnd_u64();
      s->count = rnd_u64();
      s->incl_time = rnd_u64();
      s->excl_time = rnd_u64();
      s->bytes_sent = rnd_u64();
      s->bytes_recv = rnd_u64();
      break;
    }
    case 4:
      it->type = PT_ITEM_SNAPSHOT;
      it->u.snapshot.time = rnd_u64();
      it->u.snapshot.location = rnd_u64();
      rnd_event(a, &it->u.snapshot.event);
      break;
    default:
      it->type = PT_ITEM_EVENT;
      rnd_event(a, &it->u.event);
      break;
  }
}

static int item_equal(const pt_item *a, const pt_item *b) {
  if (a->type != b->type) return 0;
  switch (a->type) {
    case PT_ITEM_DEF: return pt_def_equal(&a->u.def, &b->u.def);
    case PT_ITEM_EVENT: return pt_event_equal(&a->u.event, &b->u.event);
    case PT_ITEM_STREAM:
      return a->u.stream.stream == b->u.stream.stream &&
             a->u.stream.location == b->u.stream.location;
    case PT_ITEM_SUMMARY: {
      const pt_summary *x = &a->u.summary, *y = &b->u.summary;
      return x->time == y->time && x->location == y->location &&
             x->kind == y->kind && x->ref == y->ref && x->count == y->count &&
             x->incl_time == y->incl_time && x->excl_time == y->excl_time &&
             x->bytes_sent == y->bytes_sent && x->bytes_recv == y->bytes_recv;
    }
    case PT_ITEM_SNAPSHOT:
      return a->u.snapshot.time == b->u.snapshot.time &&
             a->u.snapshot.location == b->u.snapshot.location &&
             pt_event_equal(&a->u.snapshot.event, &b->u.snapshot.event);
  }
  return 0;
}

/* ---- helpers ----------------------------------------------------------- */

static char *tmp_path(const char *tag, const char *file) {
  char *dir = test_tmpdir(tag);
  char *p = malloc(strlen(dir) + strlen(file) + 2);
  sprintf(p, "%s/%s", dir, file);
  free(dir);
  return p;
}

static char *slurp(const char *path) {
  char *s = NULL;
  size_t n;
  if (pt__read_file(path, (size_t)1 << 30, &s, &n)) return NULL;
  return s;
}

static int write_items(const char *path, const pt_item *items, size_t n) {
  void *st;
  pt_error err;
  int rc = F->sink_open(&st, path, NULL, &err);
  if (rc) return rc;
  for (size_t i = 0; i < n; i++)
    if ((rc = F->sink_write(st, &items[i])) < 0) {
      fprintf(stderr, "  sink: %s\n", F->sink_errmsg(st));
      F->sink_abort(st);
      return rc;
    }
  return F->sink_close(st, &err);
}

/* Parse `text` from memory; returns the first non-OK status (PT_END when
 * all is well) and copies the error message to msg. */
static int parse_mem(const char *text, size_t max_line, char *msg,
                     size_t msgn, size_t *nitems) {
  void *st;
  int rc = pt__text_open_mem(&st, text, strlen(text), "t.txt", max_line, NULL);
  if (rc) return rc;
  pt_item it;
  size_t n = 0;
  while ((rc = F->src_next(st, &it)) == PT_OK) n++;
  snprintf(msg, msgn, "%s", rc < 0 ? F->src_errmsg(st) : "");
  /* errors are sticky */
  if (rc < 0 && F->src_next(st, &it) != rc) rc = 12345;
  F->src_close(st);
  if (nitems) *nitems = n;
  return rc;
}

/* ---- tests ------------------------------------------------------------- */

TEST(slot_keys_unique) {
  /* A key must name one slot per kind, or the parser cannot tell. */
  for (uint32_t k = 1; k < PT_EV__COUNT; k++)
    for (unsigned a = 0; a < PT_ESLOT__COUNT; a++)
      for (unsigned b = a + 1; b < PT_ESLOT__COUNT; b++) {
        const char *x = pt_event_slot_name(k, a), *y = pt_event_slot_name(k, b);
        ASSERT_TRUE(!x || !y || strcmp(x, y) != 0);
      }
  for (uint32_t k = 1; k < PT_DEF__COUNT; k++)
    for (unsigned a = 0; a < PT_DSLOT__COUNT; a++)
      for (unsigned b = a + 1; b < PT_DSLOT__COUNT; b++) {
        const char *x = pt_def_slot_name(k, a), *y = pt_def_slot_name(k, b);
        ASSERT_TRUE(!x || !y || strcmp(x, y) != 0);
      }
}

static void roundtrip_seed(uint64_t seed, size_t n) {
  rng_state = seed;
  pt__arena a = {0};
  pt_item *items = calloc(n, sizeof *items);
  for (size_t i = 0; i < n; i++) rnd_item(&a, &items[i]);
  /* every kind at least once, whatever the seed */
  for (uint32_t k = 1; k < PT_EV__COUNT && k < n; k++) {
    items[k].type = PT_ITEM_EVENT;
    do rnd_event(&a, &items[k].u.event);
    while (items[k].u.event.kind != k);
  }
  for (uint32_t k = 1; k < PT_DEF__COUNT && PT_EV__COUNT + k < n; k++) {
    pt_item *it = &items[PT_EV__COUNT + k];
    it->type = PT_ITEM_DEF;
    do rnd_def(&a, &it->u.def);
    while (it->u.def.kind != k);
  }
  char *path = tmp_path("text", "rt.pttxt");
  int rc = write_items(path, items, n);
  if (rc) {
    free(items);
    pt__arena_free(&a);
    TEST_FAIL_("write: %s", pt_status_name(rc));
  }
  void *st;
  pt_error err;
  rc = F->src_open(&st, path, NULL, &err);
  if (rc) TEST_FAIL_("open: %s", err.msg);
  pt_item it;
  size_t i = 0;
  while ((rc = F->src_next(st, &it)) == PT_OK) {
    if (i >= n || !item_equal(&items[i], &it)) {
      fprintf(stderr, "  seed %llu: item %zu differs after a round trip\n",
              (unsigned long long)seed, i);
      test_failed_ = 1;
      break;
    }
    i++;
  }
  if (rc < 0) fprintf(stderr, "  %s\n", F->src_errmsg(st));
  F->src_close(st);
  /* text -> items -> text is the identity on canonical text */
  char *first = slurp(path);
  unlink(path);
  free(items);
  pt__arena_free(&a);
  ASSERT_STATUS(rc, PT_END);
  ASSERT_EQ_U64(i, n);
  ASSERT_TRUE(first != NULL);
  void *src;
  ASSERT_OK(pt__text_open_mem(&src, first, strlen(first), NULL, 0, NULL));
  void *snk;
  ASSERT_OK(F->sink_open(&snk, path, NULL, &err));
  while ((rc = F->src_next(src, &it)) == PT_OK)
    ASSERT_OK(F->sink_write(snk, &it));
  ASSERT_STATUS(rc, PT_END);
  F->src_close(src);
  ASSERT_OK(F->sink_close(snk, &err));
  char *second = slurp(path);
  ASSERT_TRUE(second && strcmp(first, second) == 0);
  free(first);
  free(second);
  unlink(path);
  free(path);
}

TEST(roundtrip_random) {
  const char *env = getenv("PT_TEST_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 0) : 1;
  for (uint64_t s = seed; s < seed + 5 && !test_failed_; s++)
    roundtrip_seed(s * UINT64_C(0x2545f4914f6cdd1d), 20000);
}

/* The file form is stable: these items give exactly this text. */
static const char golden_text[] =
    "# paratrace text 1\n"
    "stream 0 location=0\n"
    "def clock ticks_per_second=1000000000\n"
    "def region id=3 role=6 paradigm=3 begin_line=10 name=\"MPI_Send\" "
    "file=\"ring.c\"\n"
    "def@2 keyval id=1 scope=none name=\"host\" value=\"n\\\"01\\n\\x01\\xff\"\n"
    "def group id=5 type=4 name=\"\" members=[0,1,none]\n"
    "def clock_sync location=2 time=-5 stddev=0.1\n"
    "event 1200 0 enter region=3\n"
    "event 1250 0 send callsite=0 peer=-1 comm=0 tag=7 bytes=800 "
    "{7=i:-9223372036854775808 8=u:18446744073709551615 9=d:-0 10=d:1e-310 "
    "11=d:inf 12=d:-nan 13=s:\"x\\\"y\\\\\" 14=ia:[1,-2,3] 15=ia:[] 16=none}\n"
    "event 1300 0 metric metric=2 value=d:nan:0x7ff0000000000001\n"
    "event 1400 0 mark label=none text=\"caf\xc3\xa9\"\n"
    "summary 5000 0 region ref=3 count=4 incl=100 excl=90 sent=0 recv=0\n"
    "snapshot 5000 0 event 4000 0 enter region=3\n";

TEST(golden_form) {
  pt_item it[13];
  memset(it, 0, sizeof it);
  it[0].type = PT_ITEM_STREAM;
  it[1].type = PT_ITEM_DEF;
  pt_def_init(&it[1].u.def, PT_DEF_CLOCK, 0);
  it[1].u.def.i0 = 1000000000;
  it[2].type = PT_ITEM_DEF;
  pt_def *r = &it[2].u.def;
  pt_def_init(r, PT_DEF_REGION, 3);
  r->name = "MPI_Send";
  r->i0 = PT_ROLE_POINT2POINT;
  r->i1 = PT_PARADIGM_MPI;
  r->i2 = 10;
  r->s3 = "ring.c";
  it[3].type = PT_ITEM_DEF;
  pt_def *kv = &it[3].u.def;
  pt_def_init(kv, PT_DEF_KEYVAL, 1);
  kv->scope = 3;
  kv->parent = PT_NONE;
  kv->name = "host";
  kv->s1 = "n\"01\n\x01\xff";
  it[4].type = PT_ITEM_DEF;
  static const uint64_t mem[] = {0, 1, PT_NONE};
  pt_def_init(&it[4].u.def, PT_DEF_GROUP, 5);
  it[4].u.def.i0 = PT_GROUP_COMM_LOCATIONS;
  it[4].u.def.name = "";
  it[4].u.def.members = mem;
  it[4].u.def.nmembers = 3;
  it[5].type = PT_ITEM_DEF;
  pt_def_init(&it[5].u.def, PT_DEF_CLOCK_SYNC, 0);
  it[5].u.def.ref = 2;
  it[5].u.def.i0 = -5;
  it[5].u.def.d0 = 0.1;
  it[6].type = PT_ITEM_EVENT;
  pt_event_init(&it[6].u.event, PT_EV_ENTER, 1200, 0);
  it[6].u.event.ref = 3;
  it[7].type = PT_ITEM_EVENT;
  pt_event *s = &it[7].u.event;
  pt_event_init(s, PT_EV_SEND, 1250, 0);
  s->peer = -1;
  s->tag = 7;
  s->size = 800;
  static const int64_t xs[] = {1, -2, 3};
  pt_attr at[10];
  memset(at, 0, sizeof at);
  for (int i = 0; i < 10; i++) at[i].key = 7 + (uint64_t)i;
  at[0].val.type = PT_TYPE_INT;
  at[0].val.v.i = INT64_MIN;
  at[1].val.type = PT_TYPE_UINT;
  at[1].val.v.u = UINT64_MAX;
  at[2].val.type = PT_TYPE_DOUBLE;
  at[2].val.v.d = -0.0;
  at[3].val.type = PT_TYPE_DOUBLE;
  at[3].val.v.d = 1e-310;
  at[4].val.type = PT_TYPE_DOUBLE;
  at[4].val.v.d = INFINITY;
  uint64_t nb = UINT64_C(0xfff8000000000000);
  at[5].val.type = PT_TYPE_DOUBLE;
  memcpy(&at[5].val.v.d, &nb, 8);
  at[6].val.type = PT_TYPE_STRING;
  at[6].val.v.s = "x\"y\\";
  at[7].val.type = PT_TYPE_INTS;
  at[7].val.count = 3;
  at[7].val.v.ints = xs;
  at[8].val.type = PT_TYPE_INTS;
  s->nattrs = 10;
  s->attrs = at;
  it[8].type = PT_ITEM_EVENT;
  pt_event_init(&it[8].u.event, PT_EV_METRIC, 1300, 0);
  it[8].u.event.ref = 2;
  it[8].u.event.value.type = PT_TYPE_DOUBLE;
  uint64_t sn = UINT64_C(0x7ff0000000000001);
  memcpy(&it[8].u.event.value.v.d, &sn, 8);
  it[9].type = PT_ITEM_EVENT;
  pt_event_init(&it[9].u.event, PT_EV_MARK, 1400, 0);
  it[9].u.event.ref = PT_NONE;
  it[9].u.event.text = "caf\xc3\xa9";
  it[10].type = PT_ITEM_SUMMARY;
  pt_summary *sm = &it[10].u.summary;
  sm->time = 5000;
  sm->kind = PT_SUM_REGION;
  sm->ref = 3;
  sm->count = 4;
  sm->incl_time = 100;
  sm->excl_time = 90;
  it[11].type = PT_ITEM_SNAPSHOT;
  it[11].u.snapshot.time = 5000;
  pt_event_init(&it[11].u.snapshot.event, PT_EV_ENTER, 4000, 0);
  it[11].u.snapshot.event.ref = 3;
  size_t n = 12;

  char *path = tmp_path("text", "golden.txt");
  ASSERT_OK(write_items(path, it, n));
  char *got = slurp(path);
  unlink(path);
  free(path);
  ASSERT_TRUE(got != NULL);
  if (strcmp(got, golden_text) != 0) {
    fprintf(stderr, "  got:\n%s  want:\n%s", got, golden_text);
    free(got);
    TEST_FAIL_("text form differs from the golden form");
  }
  free(got);
  /* and it reads back to the same items */
  void *st;
  ASSERT_OK(pt__text_open_mem(&st, golden_text, strlen(golden_text), NULL, 0,
                              NULL));
  pt_item back;
  for (size_t i = 0; i < n; i++) {
    int rc = F->src_next(st, &back);
    if (rc) fprintf(stderr, "  %s\n", F->src_errmsg(st));
    ASSERT_OK(rc);
    if (!item_equal(&it[i], &back)) TEST_FAIL_("golden item %zu differs", i);
  }
  ASSERT_STATUS(F->src_next(st, &back), PT_END);
  F->src_close(st);
}

TEST(lenient_layout) {
  /* comments, blank lines, CRLF, tabs, keys in any order, omitted slots,
   * no final newline */
  const char *t =
      "# paratrace text 1\r\n"
      "# a comment\n"
      "\n"
      "   \t\n"
      "event\t10  2 send  bytes=5\ttag=-3 {  1=i:2   }\r\n"
      "def region name=\"f\" id=4\n"
      "summary 1 2 io count=3";
  void *st;
  ASSERT_OK(pt__text_open_mem(&st, t, strlen(t), NULL, 0, NULL));
  pt_item it;
  ASSERT_OK(F->src_next(st, &it));
  ASSERT_EQ_U64(it.type, PT_ITEM_EVENT);
  ASSERT_EQ_U64(it.u.event.time, 10);
  ASSERT_EQ_U64(it.u.event.location, 2);
  ASSERT_EQ_U64(it.u.event.kind, PT_EV_SEND);
  ASSERT_EQ_U64(it.u.event.size, 5);
  ASSERT_EQ_I64(it.u.event.tag, -3);
  ASSERT_EQ_I64(it.u.event.peer, 0);
  ASSERT_EQ_U64(it.u.event.nattrs, 1);
  ASSERT_EQ_I64(it.u.event.attrs[0].val.v.i, 2);
  ASSERT_OK(F->src_next(st, &it));
  ASSERT_EQ_U64(it.u.def.id, 4);
  ASSERT_EQ_STR(it.u.def.name, "f");
  ASSERT_TRUE(it.u.def.s3 == NULL);
  ASSERT_OK(F->src_next(st, &it));
  ASSERT_EQ_U64(it.u.summary.kind, PT_SUM_IO);
  ASSERT_EQ_U64(it.u.summary.count, 3);
  ASSERT_STATUS(F->src_next(st, &it), PT_END);
  ASSERT_STATUS(F->src_next(st, &it), PT_END);
  F->src_close(st);
}

static const struct {
  const char *text;
  int status;
  const char *msg; /* must appear in the error message */
} bad_cases[] = {
    {"", PT_ECORRUPT, "t.txt:1: empty input"},
    {"hello\n", PT_ECORRUPT, "t.txt:1:1: not a paratrace text file"},
    {"# paratrace text 2\n", PT_EVERSION, "t.txt:1:18: text format version 2"},
    {"# paratrace text x\n", PT_ECORRUPT, "t.txt:1:18: expected a version"},
    {"# paratrace text 1\nevent 1 0 enter region=3 bogus=1\n", PT_ECORRUPT,
     "t.txt:2:26: unknown key 'bogus' for event kind 'enter'"},
    {"# paratrace text 1\nevent 1 0 enter peer=1\n", PT_ECORRUPT,
     "t.txt:2:17: unknown key 'peer'"},
    {"# paratrace text 1\n\nevent 1 0 jump\n", PT_ECORRUPT,
     "t.txt:3:11: unknown event kind 'jump'"},
    {"# paratrace text 1\nfoo 1\n", PT_ECORRUPT,
     "t.txt:2:1: unknown line type 'foo'"},
    {"# paratrace text 1\ndef widget id=1\n", PT_ECORRUPT,
     "t.txt:2:5: unknown definition kind 'widget'"},
    {"# paratrace text 1\nsummary 1 2 bogus\n", PT_ECORRUPT,
     "t.txt:2:13: unknown summary kind"},
    {"# paratrace text 1\nsummary 1 2 io cnt=1\n", PT_ECORRUPT,
     "t.txt:2:16: unknown key 'cnt' for a summary"},
    {"# paratrace text 1\nevent 18446744073709551616 0 enter\n", PT_ECORRUPT,
     "t.txt:2:7: number out of range"},
    {"# paratrace text 1\nevent 1 0 send peer=9223372036854775808\n",
     PT_ECORRUPT, "t.txt:2:21: number out of range for a signed"},
    {"# paratrace text 1\nevent 1 0 send peer=-9223372036854775809\n",
     PT_ECORRUPT, "t.txt:2:21: number out of range"},
    {"# paratrace text 1\nevent 1 0 mark text=\"abc\n", PT_ECORRUPT,
     "t.txt:2:21: unterminated string"},
    {"# paratrace text 1\nevent 1 0 mark text=\"abc\\\"\n", PT_ECORRUPT,
     "t.txt:2:21: unterminated string"},
    {"# paratrace text 1\nevent 1 0 mark text=\"a\\qb\"\n", PT_ECORRUPT,
     "t.txt:2:23: bad escape '\\q"},
    {"# paratrace text 1\nevent 1 0 mark text=\"a\\x4\"\n", PT_ECORRUPT,
     "t.txt:2:23: bad escape: \\x needs two hex digits"},
    {"# paratrace text 1\nevent 1 0 mark text=\"a\\x00\"\n", PT_ECORRUPT,
     "t.txt:2:23: NUL byte"},
    {"# paratrace text 1\nevent 1 0 mark text=\"a\tb\"\n", PT_ECORRUPT,
     "t.txt:2:23: control byte 0x09"},
    {"# paratrace text 1\nevent 1 0 mark text=abc\n", PT_ECORRUPT,
     "t.txt:2:21: expected '\"'"},
    {"# paratrace text 1\nevent 1\n", PT_ECORRUPT, "t.txt:2:8: missing location"},
    {"# paratrace text 1\nevent\n", PT_ECORRUPT, "t.txt:2:6: missing time"},
    {"# paratrace text 1\nevent 1 2\n", PT_ECORRUPT, "missing event kind"},
    {"# paratrace text 1\nevent 1 0 enter region=3 region=4\n", PT_ECORRUPT,
     "t.txt:2:26: duplicate key 'region'"},
    {"# paratrace text 1\nevent 1 0 enter region=\n", PT_ECORRUPT,
     "t.txt:2:24: expected an unsigned number, found end of line"},
    {"# paratrace text 1\nevent 1 0 enter region=3x\n", PT_ECORRUPT,
     "t.txt:2:25: unexpected 'x' after number"},
    {"# paratrace text 1\nevent 1 0 enter region 3\n", PT_ECORRUPT,
     "t.txt:2:23: expected '=' after key"},
    {"# paratrace text 1\ndef group id=1 members=[1,2\n", PT_ECORRUPT,
     "t.txt:2:24: unterminated list"},
    {"# paratrace text 1\ndef group id=1 members=[1;2]\n", PT_ECORRUPT,
     "t.txt:2:26: unexpected ';' after number"},
    {"# paratrace text 1\ndef group id=1 members=[-1]\n", PT_ECORRUPT,
     "t.txt:2:25: expected an unsigned number"},
    {"# paratrace text 1\nevent 1 0 enter {1=q:5}\n", PT_ECORRUPT,
     "t.txt:2:20: unknown value type 'q:5}'"},
    {"# paratrace text 1\nevent 1 0 enter {1=i:5\n", PT_ECORRUPT,
     "t.txt:2:17: unterminated attribute list"},
    {"# paratrace text 1\nevent 1 0 enter {1=i:5} x\n", PT_ECORRUPT,
     "t.txt:2:25: expected end of line after the attribute list"},
    {"# paratrace text 1\nevent 1 0 enter {x=i:5}\n", PT_ECORRUPT,
     "t.txt:2:18: expected an attribute key"},
    {"# paratrace text 1\nevent 1 0 enter {1=u:-5}\n", PT_ECORRUPT,
     "t.txt:2:22: expected an unsigned number"},
    {"# paratrace text 1\nevent 1 0 enter {1=d:1e999}\n", PT_ECORRUPT,
     "t.txt:2:22: number out of range for a double"},
    {"# paratrace text 1\nevent 1 0 enter {1=d:0x10}\n", PT_ECORRUPT,
     "t.txt:2:22: expected a floating-point number"},
    {"# paratrace text 1\nevent 1 0 enter {1=d:nan:0x0000000000000001}\n",
     PT_ECORRUPT, "t.txt:2:22: NaN bits are not a NaN"},
    {"# paratrace text 1\nevent 1 0 enter {1=ia:[1,,2]}\n", PT_ECORRUPT,
     "t.txt:2:26: expected a signed number"},
    {"# paratrace text 1\nevent 1 0 enter {1=i}\n", PT_ECORRUPT,
     "t.txt:2:21: expected ':' after type"},
    {"# paratrace text 1\nevent 1 0 enter region=3\nevent 2 0 enter "
     "region=4\nevent 3 0 enter region=-1\n", PT_ECORRUPT,
     "t.txt:4:24: expected an unsigned number"},
    {"# paratrace text 1\ndef@none region id=1\n", PT_ECORRUPT,
     "t.txt:2:5: expected a stream number"},
    {"# paratrace text 1\ndef@4294967295 region id=1\n", PT_ECORRUPT,
     "t.txt:2:5: stream of a local definition out of range"},
    {"# paratrace text 1\nsnapshot 1 2 evnt 3 4 enter\n", PT_ECORRUPT,
     "t.txt:2:14: expected 'event'"},
    {"# paratrace text 1\nstream 1 loc=2\n", PT_ECORRUPT,
     "t.txt:2:10: expected 'location='"},
    {"# paratrace text 1\nevent 1 0 enter region=3\x01\n", PT_ECORRUPT,
     "t.txt:2:25: unexpected '\\x01' after number"},
    {"# paratrace text 1\nevent 1 0 enter region=3 " /* 20-byte limit */
     "\n", PT_ECORRUPT, "t.txt:2: line longer than 20 bytes"},
};

TEST(parse_errors) {
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    char msg[512];
    size_t max_line = strstr(bad_cases[i].msg, "longer than 20") ? 20 : 0;
    int rc = parse_mem(bad_cases[i].text, max_line, msg, sizeof msg, NULL);
    if (rc != bad_cases[i].status || !strstr(msg, bad_cases[i].msg))
      TEST_FAIL_("case %zu: got %s \"%s\", want %s \"%s\"", i,
                 pt_status_name(rc), msg, pt_status_name(bad_cases[i].status),
                 bad_cases[i].msg);
  }
}

TEST(file_errors_and_params) {
  char *path = tmp_path("text", "bad.txt");
  FILE *f = fopen(path, "w");
  ASSERT_TRUE(f != NULL);
  fputs("# paratrace text 1\nevent 1 0 enter region=3\nevent 2 0 leave "
        "region=3 x=1\n", f);
  fclose(f);
  void *st;
  pt_error err;
  ASSERT_OK(F->src_open(&st, path, NULL, &err));
  pt_item it;
  ASSERT_OK(F->src_next(st, &it));
  ASSERT_STATUS(F->src_next(st, &it), PT_ECORRUPT);
  char want[600];
  snprintf(want, sizeof want, "%s:3:26: unknown key 'x'", path);
  ASSERT_CONTAINS(F->src_errmsg(st), want);
  F->src_close(st);
  /* max_line through params */
  pt_source_opts o = {0};
  o.params = "max_line=20";
  ASSERT_OK(F->src_open(&st, path, &o, &err));
  ASSERT_STATUS(F->src_next(st, &it), PT_ECORRUPT);
  ASSERT_CONTAINS(F->src_errmsg(st), ":2: line longer than 20 bytes");
  F->src_close(st);
  o.params = "max_line=0";
  ASSERT_STATUS(F->src_open(&st, path, &o, &err), PT_EINVAL);
  o.params = "colour=red";
  ASSERT_STATUS(F->src_open(&st, path, &o, &err), PT_EINVAL);
  ASSERT_CONTAINS(err.msg, "unknown parameter 'colour=red'");
  unlink(path);
  ASSERT_STATUS(F->src_open(&st, path, NULL, &err), PT_ENOTFOUND);
  free(path);
}

TEST(long_lines_stream) {
  /* A line far longer than the read chunk, then short lines: the reader
   * must grow, compact and keep line numbers right. */
  size_t n = (size_t)3 << 20;
  char *big = malloc(n + 1);
  for (size_t i = 0; i < n; i++) big[i] = (char)('a' + i % 26);
  big[n] = 0;
  pt_item items[3];
  memset(items, 0, sizeof items);
  items[0].type = PT_ITEM_EVENT;
  pt_event_init(&items[0].u.event, PT_EV_MARK, 1, 0);
  items[0].u.event.text = big;
  items[1].type = PT_ITEM_EVENT;
  pt_event_init(&items[1].u.event, PT_EV_ENTER, 2, 0);
  items[2] = items[0];
  char *path = tmp_path("text", "long.txt");
  ASSERT_OK(write_items(path, items, 3));
  void *st;
  pt_error err;
  ASSERT_OK(F->src_open(&st, path, NULL, &err));
  pt_item it;
  for (int i = 0; i < 3; i++) {
    ASSERT_OK(F->src_next(st, &it));
    ASSERT_TRUE(item_equal(&items[i], &it));
  }
  ASSERT_STATUS(F->src_next(st, &it), PT_END);
  F->src_close(st);
  /* the same file with a 1 MiB limit fails on line 2 */
  pt_source_opts o = {0};
  o.params = "max_line=1048576";
  ASSERT_OK(F->src_open(&st, path, &o, &err));
  ASSERT_STATUS(F->src_next(st, &it), PT_ECORRUPT);
  ASSERT_CONTAINS(F->src_errmsg(st), "long.txt:2: line longer than 1048576");
  F->src_close(st);
  unlink(path);
  free(path);
  free(big);
}

TEST(sink_refuses_bad_items) {
  char *path = tmp_path("text", "refuse.txt");
  void *st;
  pt_error err;
  ASSERT_OK(F->sink_open(&st, path, NULL, &err));
  pt_item it;
  memset(&it, 0, sizeof it);
  it.type = PT_ITEM_EVENT;
  pt_event_init(&it.u.event, PT_EV__COUNT, 1, 0);
  ASSERT_STATUS(F->sink_write(st, &it), PT_EINVAL);
  ASSERT_CONTAINS(F->sink_errmsg(st), "unknown kind");
  it.type = PT_ITEM_DEF;
  pt_def_init(&it.u.def, 0, 1);
  ASSERT_STATUS(F->sink_write(st, &it), PT_EINVAL);
  it.type = PT_ITEM_SUMMARY;
  memset(&it.u.summary, 0, sizeof it.u.summary);
  ASSERT_STATUS(F->sink_write(st, &it), PT_EINVAL);
  it.type = 99;
  ASSERT_STATUS(F->sink_write(st, &it), PT_EINVAL);
  /* an attribute of unknown type: nothing of the line is written */
  pt_attr a = {1, {77, 0, {.i = 0}}};
  it.type = PT_ITEM_EVENT;
  pt_event_init(&it.u.event, PT_EV_ENTER, 1, 0);
  it.u.event.nattrs = 1;
  it.u.event.attrs = &a;
  ASSERT_STATUS(F->sink_write(st, &it), PT_EINVAL);
  ASSERT_OK(F->sink_close(st, &err));
  char *got = slurp(path);
  ASSERT_EQ_STR(got, "# paratrace text 1\n");
  free(got);
  unlink(path);
  free(path);
}

/* A string value whose pointer is NULL (PTF writes and reads it back as
 * NULL, distinct from "") has a text form, s:none, so native -> text ->
 * native keeps it; before, the sink refused the event ("attribute 0 has
 * a bad value") and `paratrace dump` / convert to text of such an archive
 * failed. */
TEST(string_value_null) {
  char *path = tmp_path("text", "snull.txt");
  void *st;
  pt_error err;
  ASSERT_OK(F->sink_open(&st, path, NULL, &err));
  pt_attr a[3];
  memset(a, 0, sizeof a);
  a[0].key = 1;
  a[0].val.type = PT_TYPE_STRING; /* NULL */
  a[1].key = 2;
  a[1].val.type = PT_TYPE_STRING;
  a[1].val.v.s = "none";
  a[2].key = 3;
  a[2].val.type = PT_TYPE_STRING;
  a[2].val.v.s = "";
  pt_item it[2];
  memset(it, 0, sizeof it);
  it[0].type = PT_ITEM_EVENT;
  pt_event_init(&it[0].u.event, PT_EV_ENTER, 1, 0);
  it[0].u.event.nattrs = 3;
  it[0].u.event.attrs = a;
  it[1].type = PT_ITEM_EVENT;
  pt_event_init(&it[1].u.event, PT_EV_METRIC, 2, 0);
  it[1].u.event.value.type = PT_TYPE_STRING;
  for (int i = 0; i < 2; i++) ASSERT_OK(F->sink_write(st, &it[i]));
  ASSERT_OK(F->sink_close(st, &err));
  char *got = slurp(path);
  ASSERT_EQ_STR(got, "# paratrace text 1\n"
                     "event 1 0 enter region=0 {1=s:none 2=s:\"none\" 3=s:\"\"}\n"
                     "event 2 0 metric metric=0 value=s:none\n");
  free(got);
  ASSERT_OK(F->src_open(&st, path, NULL, &err));
  pt_item r;
  for (int i = 0; i < 2; i++) {
    ASSERT_OK(F->src_next(st, &r));
    ASSERT_TRUE(pt_event_equal(&r.u.event, &it[i].u.event));
  }
  ASSERT_TRUE(r.u.event.value.v.s == NULL);
  ASSERT_STATUS(F->src_next(st, &r), PT_END);
  F->src_close(st);
  unlink(path);
  free(path);
}

TEST(probe) {
  const char *yes = "# paratrace text 1\nevent 1 0 enter\n";
  ASSERT_EQ_I64(F->probe("x", 0, (const uint8_t *)yes, strlen(yes)), 100);
  ASSERT_EQ_I64(F->probe("x", 0, (const uint8_t *)"# paratrace", 11), 0);
  ASSERT_EQ_I64(F->probe("x", 1, NULL, 0), 0);
  ASSERT_CONTAINS(F->info.extensions, ".pttxt");
  ASSERT_EQ_STR(F->info.name, "text");
  ASSERT_TRUE(F->stdout_ok);
}

int main(void) {
  RUN(slot_keys_unique);
  RUN(string_value_null);
  RUN(roundtrip_random);
  RUN(golden_form);
  RUN(lenient_layout);
  RUN(parse_errors);
  RUN(file_errors_and_params);
  RUN(long_lines_stream);
  RUN(sink_refuses_bad_items);
  RUN(probe);
  return test_summary();
}
