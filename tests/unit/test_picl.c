/* PICL format: reader, writer, round trips, the worked example of
 * Worley's report (Tables 19-21), errors.  Uses pt__format_picl directly so
 * it does not depend on the other formats. */
#include <dirent.h>
#include <unistd.h>

#include "core/util.h"
#include "formats/picl.h"
#include "paratrace/paratrace.h"
#include "test.h"

/* ---- helpers ------------------------------------------------------------ */

typedef struct items {
  pt_item *a;
  size_t n, cap;
  pt__arena ar;
  char err[512];
} items;

static void items_free(items *v) {
  free(v->a);
  pt__arena_free(&v->ar);
  memset(v, 0, sizeof *v);
}

static int items_push(items *v, const pt_item *it) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 256;
    v->a = realloc(v->a, v->cap * sizeof *v->a);
    if (!v->a) abort();
  }
  pt_item *d = &v->a[v->n++];
  *d = *it;
  if (it->type == PT_ITEM_DEF) return pt__def_copy(&v->ar, &d->u.def, &it->u.def);
  if (it->type == PT_ITEM_EVENT)
    return pt__event_copy(&v->ar, &d->u.event, &it->u.event);
  return 0;
}

static int drain(void *st, items *v) {
  pt_item it;
  int rc;
  while ((rc = pt__format_picl.src_next(st, &it)) == PT_OK)
    if (items_push(v, &it)) return PT_ENOMEM;
  if (rc < 0)
    snprintf(v->err, sizeof v->err, "%s", pt__format_picl.src_errmsg(st));
  pt__format_picl.src_close(st);
  return rc < 0 ? rc : PT_OK;
}

static int read_mem(const char *text, items *v) {
  void *st;
  memset(v, 0, sizeof *v);
  int rc = pt__picl_open_mem(&st, text, strlen(text), "mem.trf", NULL, NULL);
  if (rc) return rc;
  return drain(st, v);
}

static int read_path(const char *path, items *v) {
  void *st;
  pt_error e;
  memset(v, 0, sizeof *v);
  int rc = pt__format_picl.src_open(&st, path, NULL, &e);
  if (rc) {
    snprintf(v->err, sizeof v->err, "%s", e.msg);
    return rc;
  }
  return drain(st, v);
}

static int write_path(const items *v, const char *path, char *err, size_t n) {
  void *st;
  pt_error e;
  int rc = pt__format_picl.sink_open(&st, path, NULL, &e);
  if (rc) {
    snprintf(err, n, "%s", e.msg);
    return rc;
  }
  for (size_t i = 0; i < v->n; i++) {
    rc = pt__format_picl.sink_write(st, &v->a[i]);
    if (rc < 0) {
      snprintf(err, n, "%s", pt__format_picl.sink_errmsg(st));
      pt__format_picl.sink_abort(st);
      return rc;
    }
  }
  rc = pt__format_picl.sink_close(st, &e);
  if (rc) snprintf(err, n, "%s", e.msg);
  return rc;
}

static char *slurp(const char *path) {
  char *p;
  size_t n;
  return pt__read_file(path, 1 << 26, &p, &n) == 0 ? p : NULL;
}

static int summary_equal(const pt_summary *a, const pt_summary *b) {
  return a->time == b->time && a->location == b->location &&
         a->kind == b->kind && a->ref == b->ref && a->count == b->count &&
         a->incl_time == b->incl_time && a->excl_time == b->excl_time &&
         a->bytes_sent == b->bytes_sent && a->bytes_recv == b->bytes_recv;
}

/* Index of the first differing item, or -1. */
static long items_diff(const items *x, const items *y) {
  size_t n = x->n < y->n ? x->n : y->n;
  for (size_t i = 0; i < n; i++) {
    const pt_item *a = &x->a[i], *b = &y->a[i];
    if (a->type != b->type) return (long)i;
    if (a->type == PT_ITEM_DEF && !pt_def_equal(&a->u.def, &b->u.def))
      return (long)i;
    if (a->type == PT_ITEM_EVENT && !pt_event_equal(&a->u.event, &b->u.event))
      return (long)i;
    if (a->type == PT_ITEM_SUMMARY &&
        !summary_equal(&a->u.summary, &b->u.summary))
      return (long)i;
  }
  return x->n == y->n ? -1 : (long)n;
}

static const char *srcdir(void) {
  const char *d = getenv("PT_SRCDIR");
  return d && *d ? d : ".";
}

/* PICL file -> items -> PICL file (same bytes) -> items (equal). */
static int roundtrip_file(const char *path, char *why, size_t n) {
  items a, b;
  int rc = read_path(path, &a);
  if (rc) {
    snprintf(why, n, "read %.300s: %.400s", path, a.err);
    items_free(&a);
    return 0;
  }
  char *dir = test_tmpdir("picl");
  char out[4200];
  snprintf(out, sizeof out, "%s/out.trf", dir);
  char err[512] = "";
  rc = write_path(&a, out, err, sizeof err);
  if (rc) {
    snprintf(why, n, "write: %.500s", err);
    items_free(&a);
    free(dir);
    return 0;
  }
  char *t1 = slurp(path), *t2 = slurp(out);
  int same = t1 && t2 && strcmp(t1, t2) == 0;
  if (!same) snprintf(why, n, "%.300s: written text differs (see %.400s)", path, out);
  rc = read_path(out, &b);
  long d = rc ? -2 : items_diff(&a, &b);
  if (same && d != -1)
    snprintf(why, n, "%.300s: items differ at %ld (rc %d: %.300s)", path, d, rc, b.err);
  if (same && d == -1) {
    unlink(out);
    rmdir(dir);
  }
  free(t1);
  free(t2);
  items_free(&a);
  items_free(&b);
  free(dir);
  return same && d == -1;
}

/* ---- tests -------------------------------------------------------------- */

TEST(time_parse_format) {
  int64_t ns;
  int dec, ex;
  ASSERT_EQ_I64(pt__picl_parse_time("-0.715036", 9, &ns, &dec, &ex), 0);
  ASSERT_EQ_I64(ns, -715036000);
  ASSERT_EQ_I64(dec, 6);
  ASSERT_TRUE(ex);
  char buf[64];
  pt__picl_format_time(buf, ns, dec);
  ASSERT_EQ_STR(buf, "-0.715036");
  ASSERT_EQ_I64(pt__picl_parse_time("1.5e-3", 6, &ns, &dec, &ex), 0);
  ASSERT_EQ_I64(ns, 1500000);
  ASSERT_TRUE(!ex);
  ASSERT_EQ_I64(pt__picl_parse_time("12", 2, &ns, &dec, &ex), 0);
  ASSERT_EQ_I64(ns, 12000000000LL);
  ASSERT_EQ_I64(dec, 0);
  pt__picl_format_time(buf, 1500, 6);
  ASSERT_EQ_STR(buf, "0.0000015");
  ASSERT_TRUE(pt__picl_parse_time("1.2.3", 5, &ns, &dec, &ex) < 0);
  ASSERT_TRUE(pt__picl_parse_time("-", 1, &ns, &dec, &ex) < 0);
  ASSERT_TRUE(pt__picl_parse_time("1e999999", 8, &ns, &dec, &ex) < 0);
}

/* Times of 10+ integer digits with 9 decimals (epoch nanoseconds) parse
 * exactly up to 2^63-1 ns; digits below 1 ns are truncated toward zero;
 * beyond the range is -2, not a wrong value. */
static int64_t pt_ns(const char *s, int *dec, int *ex) {
  int64_t ns = -12345;
  int rc = pt__picl_parse_time(s, strlen(s), &ns, dec, ex);
  return rc ? (int64_t)rc * 1000000 - 7 : ns; /* distinct from any result */
}

TEST(time_parse_wide) {
  int dec, ex;
  ASSERT_EQ_I64(pt_ns("1700000000.000001045", &dec, &ex),
                1700000000000001045LL);
  ASSERT_EQ_I64(dec, 9);
  ASSERT_TRUE(ex);
  ASSERT_EQ_I64(pt_ns("-1700000000.000001045", &dec, &ex),
                -1700000000000001045LL);
  ASSERT_TRUE(ex);
  ASSERT_EQ_I64(pt_ns("9223372036.854775807", &dec, &ex), INT64_MAX);
  ASSERT_TRUE(ex);
  ASSERT_EQ_I64(pt_ns("-9223372036.854775807", &dec, &ex), -INT64_MAX);
  ASSERT_EQ_I64(pt_ns("+1700000000.000001045", &dec, &ex),
                1700000000000001045LL);
  ASSERT_TRUE(!ex);
  /* the same times in other spellings */
  ASSERT_EQ_I64(pt_ns("1.700000000000001045e9", &dec, &ex),
                1700000000000001045LL);
  ASSERT_EQ_I64(dec, 9);
  ASSERT_TRUE(!ex);
  ASSERT_EQ_I64(pt_ns("0001700000000.000001045", &dec, &ex),
                1700000000000001045LL);
  ASSERT_TRUE(!ex);
  ASSERT_EQ_I64(pt_ns("9223372036854775807e-9", &dec, &ex), INT64_MAX);
  ASSERT_EQ_I64(pt_ns("9223372036854775807000e-12", &dec, &ex), INT64_MAX);
  ASSERT_EQ_I64(pt_ns("0.000000000000000000000000000000000001e36", &dec, &ex),
                1000000000);
  ASSERT_EQ_I64(pt_ns("1700000000", &dec, &ex), 1700000000000000000LL);
  ASSERT_EQ_I64(dec, 0);
  ASSERT_TRUE(ex);
  /* below 1 ns: truncated toward zero, not exact, decimals as written */
  ASSERT_EQ_I64(pt_ns("1700000000.0000010459", &dec, &ex),
                1700000000000001045LL);
  ASSERT_EQ_I64(dec, 10);
  ASSERT_TRUE(!ex);
  ASSERT_EQ_I64(pt_ns("-1700000000.0000010459999", &dec, &ex),
                -1700000000000001045LL);
  ASSERT_TRUE(!ex);
  ASSERT_EQ_I64(pt_ns("9223372036.8547758079", &dec, &ex), INT64_MAX);
  ASSERT_EQ_I64(pt_ns("1.0000000000", &dec, &ex), 1000000000);
  ASSERT_TRUE(!ex); /* 10 decimals: kept as written (picl.time) */
  ASSERT_EQ_I64(pt_ns("1e-999999", &dec, &ex), 0);
  ASSERT_TRUE(!ex);
  ASSERT_EQ_I64(pt_ns("0e999999999999999999999", &dec, &ex), 0);
  /* out of range: -2 */
  ASSERT_EQ_I64(pt_ns("9223372036.854775808", &dec, &ex), -2000007);
  ASSERT_EQ_I64(pt_ns("-9223372036.854775808", &dec, &ex), -2000007);
  ASSERT_EQ_I64(pt_ns("9999999999.999999999", &dec, &ex), -2000007);
  ASSERT_EQ_I64(pt_ns("99999999999999999999999999", &dec, &ex), -2000007);
  ASSERT_EQ_I64(pt_ns("1e10", &dec, &ex), -2000007);
  ASSERT_EQ_I64(pt_ns("1e999999999999999999999", &dec, &ex), -2000007);
  /* not numbers: -1 */
  ASSERT_EQ_I64(pt_ns(".", &dec, &ex), -1000007);
  ASSERT_EQ_I64(pt_ns("1e", &dec, &ex), -1000007);
  ASSERT_EQ_I64(pt_ns("1e+", &dec, &ex), -1000007);
  ASSERT_EQ_I64(pt_ns("1.5x", &dec, &ex), -1000007);
  ASSERT_EQ_I64(pt_ns("", &dec, &ex), -1000007);
  /* the longest formatting: sign, 10 digits, '.', 30 decimals (was written
   * into 40-byte buffers: 10-digit seconds with 30+ decimals overflowed) */
  char big[64];
  memset(big, 'x', sizeof big);
  size_t bn = pt__picl_format_time(big, -INT64_MAX, 40);
  ASSERT_EQ_I64((int64_t)bn, 42);
  ASSERT_TRUE(bn < PT_PICL_TIME_BUF && big[bn] == 0 && big[bn + 1] == 'x');
  ASSERT_EQ_STR(big, "-9223372036.854775807000000000000000000000");
  ASSERT_EQ_I64(pt_ns(big, &dec, &ex), -INT64_MAX);
  ASSERT_EQ_I64(dec, 30);
  /* every 10-integer-digit, 9-decimal time round-trips through the writer's
   * formatting */
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 2000; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    int64_t t = (int64_t)(x >> 1);
    if (i & 1) t = -t;
    char buf[64];
    pt__picl_format_time(buf, t, 9);
    ASSERT_EQ_I64(pt_ns(buf, &dec, &ex), t);
    ASSERT_TRUE(ex);
  }
}

TEST(testdata_roundtrip) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/../shared/testdata/picl", srcdir());
  DIR *d = opendir(dir);
  if (!d) {
    printf("  note: %s absent; test vectors skipped\n", dir);
    return;
  }
  struct dirent *e;
  int nfiles = 0;
  char why[1024] = "";
  int ok = 1;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 4 || strcmp(e->d_name + l - 4, ".trf")) continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    nfiles++;
    if (!roundtrip_file(path, why, sizeof why)) {
      ok = 0;
      break;
    }
  }
  closedir(d);
  if (!ok) TEST_FAIL_("%s", why);
  ASSERT_TRUE(nfiles >= 4);
}

TEST(golden_roundtrip) {
  const char *names[] = {"worley_example.trf", "features.trf"};
  for (size_t i = 0; i < 2; i++) {
    char path[4096], why[1024] = "";
    snprintf(path, sizeof path, "%s/tests/golden/picl/%s", srcdir(), names[i]);
    if (!roundtrip_file(path, why, sizeof why)) TEST_FAIL_("%s", why);
  }
}

/* Helpers to find things in an item list. */
static const pt_def *find_def(const items *v, uint32_t kind, const char *name,
                              int64_t code) {
  for (size_t i = 0; i < v->n; i++) {
    const pt_item *it = &v->a[i];
    if (it->type != PT_ITEM_DEF || it->u.def.kind != kind) continue;
    const pt_def *d = &it->u.def;
    if (name && (!d->name || strcmp(d->name, name))) continue;
    if (kind == PT_DEF_LABEL && d->i0 != code) continue;
    return d;
  }
  return NULL;
}

static int keyval_within(const items *v, uint64_t label, int64_t *within) {
  for (size_t i = 0; i < v->n; i++) {
    const pt_def *d = &v->a[i].u.def;
    if (v->a[i].type == PT_ITEM_DEF && d->kind == PT_DEF_KEYVAL &&
        d->parent == label && d->name && !strcmp(d->name, "picl.within")) {
      *within = strtoll(d->s1, NULL, 10);
      return 1;
    }
  }
  return 0;
}

/* The summary of event type x relative to event type `within`. */
static const pt_summary *find_sum(const items *v, int64_t x, int64_t within) {
  for (size_t i = 0; i < v->n; i++) {
    if (v->a[i].type != PT_ITEM_SUMMARY) continue;
    const pt_summary *s = &v->a[i].u.summary;
    for (size_t j = 0; j < v->n; j++) {
      const pt_def *d = &v->a[j].u.def;
      if (v->a[j].type != PT_ITEM_DEF || d->kind != PT_DEF_LABEL ||
          d->id != s->ref)
        continue;
      int64_t w = -1;
      keyval_within(v, d->id, &w);
      if (d->i0 == x && w == within) return s;
    }
  }
  return NULL;
}

TEST(worley_example_table21) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/golden/picl/worley_example.trf",
           srcdir());
  items v;
  int rc = read_path(path, &v);
  if (rc) TEST_FAIL_("%s", v.err);
  /* time base: first record at -0.715036 s -> bias of 1 s */
  const pt_def *kv = NULL;
  for (size_t i = 0; i < v.n; i++)
    if (v.a[i].type == PT_ITEM_DEF && v.a[i].u.def.kind == PT_DEF_KEYVAL &&
        !strcmp(v.a[i].u.def.name, "picl.time_bias"))
      kv = &v.a[i].u.def;
  ASSERT_TRUE(kv != NULL);
  ASSERT_EQ_STR(kv->s1, "1000000000");
  /* one location: processor 6, process 0 */
  const pt_def *g = find_def(&v, PT_DEF_LOCATION_GROUP, NULL, 0);
  ASSERT_TRUE(g != NULL);
  ASSERT_EQ_I64(g->i1, 6);
  /* Table 21: the first statistics record (-101, relative to -1) */
  struct {
    int64_t x;
    uint64_t ns;
  } t21[] = {{-11, 98000},     {-21, 46000},      {-52, 1212000},
             {-401, 8083000},  {-901, 717018000}, {-902, 1170000},
             {-903, 705632000}};
  for (size_t i = 0; i < sizeof t21 / sizeof t21[0]; i++) {
    const pt_summary *s = find_sum(&v, t21[i].x, -1);
    if (!s) TEST_FAIL_("no summary for event type %" PRId64, t21[i].x);
    ASSERT_EQ_U64(s->incl_time, t21[i].ns);
    ASSERT_EQ_U64(s->location, 6);
    ASSERT_EQ_U64(s->time, 1001982000); /* 0.001982 s + 1 s bias */
  }
  /* counts (-102) and volumes (-103) */
  ASSERT_EQ_U64(find_sum(&v, -52, -1)->count, 2);
  ASSERT_EQ_U64(find_sum(&v, -904, -1)->count, 1);
  ASSERT_EQ_U64(find_sum(&v, -12, -1)->count, 1);
  ASSERT_EQ_U64(find_sum(&v, -52, -1)->bytes_recv, 16);
  ASSERT_EQ_U64(find_sum(&v, -21, -1)->bytes_sent, 8);
  ASSERT_EQ_U64(find_sum(&v, -901, -1)->bytes_sent, 428);
  /* user event types 0 and 1, and statistics within them */
  ASSERT_EQ_U64(find_sum(&v, 0, -1)->incl_time, 523000);
  ASSERT_EQ_U64(find_sum(&v, 1, -1)->incl_time, 1013000);
  ASSERT_EQ_U64(find_sum(&v, -52, 0)->incl_time, 387000);
  ASSERT_EQ_U64(find_sum(&v, -52, 0)->bytes_recv, 8);
  ASSERT_EQ_U64(find_sum(&v, -21, 1)->count, 1);
  ASSERT_EQ_U64(find_sum(&v, -52, 1)->incl_time, 825000);
  /* -901 time = exit - entry of the tracing event (Table 21) */
  uint64_t t_in = 0, t_out = 0, recv_bytes = 0;
  int nrecv = 0, nsend = 0;
  for (size_t i = 0; i < v.n; i++) {
    if (v.a[i].type != PT_ITEM_EVENT) continue;
    const pt_event *e = &v.a[i].u.event;
    if (e->kind == PT_EV_ENTER && !t_in) t_in = e->time;
    if (e->kind == PT_EV_LEAVE) t_out = e->time;
    if (e->kind == PT_EV_RECV) nrecv++, recv_bytes += e->size;
    if (e->kind == PT_EV_SEND) {
      nsend++;
      ASSERT_EQ_I64(e->peer, 7);
      ASSERT_EQ_I64(e->tag, 1);
      ASSERT_EQ_U64(e->size, 8);
    }
  }
  ASSERT_EQ_U64(t_out - t_in, find_sum(&v, -901, -1)->incl_time);
  ASSERT_EQ_I64(nrecv, 2);
  ASSERT_EQ_U64(recv_bytes, 16);
  ASSERT_EQ_I64(nsend, 1);
  /* the user records carry the received double */
  int nuser = 0;
  for (size_t i = 0; i < v.n; i++) {
    const pt_event *e = &v.a[i].u.event;
    if (v.a[i].type != PT_ITEM_EVENT || e->kind != PT_EV_USER) continue;
    nuser++;
    ASSERT_EQ_U64(e->nattrs, 1);
    ASSERT_EQ_U64(e->attrs[0].val.type, PT_TYPE_DOUBLE);
  }
  ASSERT_EQ_I64(nuser, 2);
  items_free(&v);
}

TEST(features) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/golden/picl/features.trf", srcdir());
  items v;
  int rc = read_path(path, &v);
  if (rc) TEST_FAIL_("%s", v.err);
  /* -5 labels name user event types (also when given as a %s string) */
  ASSERT_TRUE(find_def(&v, PT_DEF_LABEL, "hello world", 0) != NULL);
  ASSERT_TRUE(find_def(&v, PT_DEF_REGION, "hello world", 0) != NULL);
  ASSERT_TRUE(find_def(&v, PT_DEF_LABEL, "\"ring broadcast\"", 1) != NULL);
  /* -6 binds 7 to "%d%lf" */
  const pt_def *dd = find_def(&v, PT_DEF_DESCRIPTOR, NULL, 0);
  ASSERT_TRUE(dd != NULL);
  ASSERT_EQ_I64(dd->i2, 7);
  ASSERT_EQ_STR(dd->s1, "%d%lf");
  /* subsets -> groups */
  int ngroups = 0;
  for (size_t i = 0; i < v.n; i++)
    if (v.a[i].type == PT_ITEM_DEF && v.a[i].u.def.kind == PT_DEF_GROUP) {
      ngroups++;
      if (!strcmp(v.a[i].u.def.name, "-5")) {
        ASSERT_EQ_U64(v.a[i].u.def.nmembers, 3);
        ASSERT_EQ_U64(v.a[i].u.def.i0, PT_GROUP_LOCATIONS);
      }
    }
  ASSERT_EQ_I64(ngroups, 3);
  int user_ok = 0, msg_ok = 0, isend = 0, irecv = 0, done = 0, ovf = 0,
      coll = 0, host = 0;
  for (size_t i = 0; i < v.n; i++) {
    if (v.a[i].type != PT_ITEM_EVENT) continue;
    const pt_event *e = &v.a[i].u.event;
    switch (e->kind) {
      case PT_EV_USER:
        /* "%d%lf" bound to 7: 3 1.5 -4 2.25 as typed values */
        if (e->tag == 1 && e->nattrs >= 4) {
          const pt_attr *a = e->attrs;
          if (a[0].val.type == PT_TYPE_INT && a[0].val.v.i == 3 &&
              a[1].val.type == PT_TYPE_DOUBLE && a[1].val.v.d == 1.5 &&
              a[2].val.type == PT_TYPE_INT && a[2].val.v.i == -4 &&
              a[3].val.type == PT_TYPE_DOUBLE && a[3].val.v.d == 2.25)
            user_ok = 1;
        }
        break;
      case PT_EV_MESSAGE:
        if (e->text && !strcmp(e->text, "a message  x")) msg_ok = 1;
        break;
      case PT_EV_ISEND:
        isend = e->peer == 1 && e->tag == 3 && e->size == 64 && e->request == 3;
        break;
      case PT_EV_IRECV:
        irecv = e->peer == 0 && e->tag == 3 && e->size == 64 && e->request == 3;
        break;
      case PT_EV_ISEND_COMPLETE:
        done = e->request == 3;
        break;
      case PT_EV_BUFFER_OVERFLOW:
        ovf++;
        break;
      case PT_EV_COLL_END:
        if (e->ref == PT_COLL_REDUCE && e->peer == 0 && e->size == 8) coll++;
        if (e->ref == PT_COLL_BARRIER) coll++;
        break;
      default:
        break;
    }
    if (e->location > 1000 && e->location < ((uint64_t)1 << 40)) host = 1;
  }
  ASSERT_TRUE(user_ok);
  ASSERT_TRUE(msg_ok);
  ASSERT_TRUE(isend);
  ASSERT_TRUE(irecv);
  ASSERT_TRUE(done);
  ASSERT_EQ_I64(ovf, 2);
  ASSERT_EQ_I64(coll, 3);
  ASSERT_TRUE(host); /* processor 32767 is location 32767 */
  /* the -1 statistic is UINT64_MAX */
  ASSERT_EQ_U64(find_sum(&v, -27, -1)->incl_time, UINT64_MAX);
  ASSERT_EQ_U64(find_sum(&v, -52, -1)->bytes_recv, 16);
  items_free(&v);
}

/* ---- writer from a foreign model trace ----------------------------------- */

static void add_def(items *v, pt_def d) {
  pt_item it = {.type = PT_ITEM_DEF};
  it.u.def = d;
  items_push(v, &it);
}

static void add_ev(items *v, pt_event e) {
  pt_item it = {.type = PT_ITEM_EVENT};
  it.u.event = e;
  items_push(v, &it);
}

static pt_event ev(uint32_t kind, uint64_t t, uint64_t loc, uint64_t ref) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.ref = ref;
  return e;
}

static pt_event msg(uint32_t kind, uint64_t t, uint64_t loc, int64_t peer,
                    int64_t tag, uint64_t bytes, uint64_t req) {
  pt_event e;
  pt_event_init(&e, kind, t, loc);
  e.peer = peer;
  e.tag = tag;
  e.size = bytes;
  e.request = req;
  return e;
}

/* 3 MPI ranks, clock in microseconds: init, a ring of messages (blocking
 * send 0->1, isend/wait 1->2, recv on 2 and 0), a barrier, user region. */
static void build_foreign(items *v) {
  memset(v, 0, sizeof *v);
  pt_def d;
  pt_def_init(&d, PT_DEF_CLOCK, 0);
  d.i0 = 1000000;
  add_def(v, d);
  const char *regions[] = {"MPI_Init", "MPI_Send", "MPI_Recv", "MPI_Isend",
                           "MPI_Wait", "MPI_Barrier", "compute", "MPI_Finalize"};
  for (uint64_t r = 0; r < 8; r++) {
    pt_def_init(&d, PT_DEF_REGION, 100 + r);
    d.name = regions[r];
    add_def(v, d);
  }
  for (uint64_t p = 0; p < 3; p++) {
    pt_def_init(&d, PT_DEF_LOCATION_GROUP, p);
    d.i1 = (int64_t)p;
    add_def(v, d);
    pt_def_init(&d, PT_DEF_LOCATION, 1000 + p);
    d.parent = p;
    add_def(v, d);
  }
  enum { INIT = 100, SEND, RECV, ISEND, WAIT, BARRIER, COMPUTE, FIN };
  for (uint64_t p = 0; p < 3; p++) add_ev(v, ev(PT_EV_ENTER, 10 + p, 1000 + p, INIT));
  for (uint64_t p = 0; p < 3; p++) add_ev(v, ev(PT_EV_LEAVE, 20 + p, 1000 + p, INIT));
  add_ev(v, ev(PT_EV_ENTER, 30, 1000, SEND));
  add_ev(v, msg(PT_EV_SEND, 31, 1000, 1, 5, 800, 0));
  add_ev(v, ev(PT_EV_ENTER, 32, 1001, RECV));
  add_ev(v, ev(PT_EV_ENTER, 33, 1002, COMPUTE));
  add_ev(v, ev(PT_EV_LEAVE, 40, 1000, SEND));
  add_ev(v, msg(PT_EV_RECV, 45, 1001, 0, 5, 800, 0));
  add_ev(v, ev(PT_EV_LEAVE, 45, 1001, RECV));
  add_ev(v, ev(PT_EV_ENTER, 46, 1001, ISEND));
  add_ev(v, msg(PT_EV_ISEND, 47, 1001, 2, 6, 16, 77));
  add_ev(v, ev(PT_EV_LEAVE, 48, 1001, ISEND));
  add_ev(v, ev(PT_EV_ENTER, 49, 1001, WAIT));
  add_ev(v, ev(PT_EV_LEAVE, 50, 1002, COMPUTE));
  add_ev(v, ev(PT_EV_ENTER, 51, 1002, RECV));
  add_ev(v, msg(PT_EV_RECV, 52, 1002, 1, 6, 16, 0));
  add_ev(v, ev(PT_EV_LEAVE, 52, 1002, RECV));
  add_ev(v, msg(PT_EV_ISEND_COMPLETE, 53, 1001, 0, 0, 0, 77));
  add_ev(v, ev(PT_EV_LEAVE, 53, 1001, WAIT));
  for (uint64_t p = 0; p < 3; p++) add_ev(v, ev(PT_EV_ENTER, 60 + p, 1000 + p, BARRIER));
  for (uint64_t p = 0; p < 3; p++) {
    pt_event c = ev(PT_EV_COLL_END, 70, 1000 + p, PT_COLL_BARRIER);
    c.peer = -1;
    add_ev(v, c);
    add_ev(v, ev(PT_EV_LEAVE, 70, 1000 + p, BARRIER));
  }
  /* a send outside any region: an entry/exit pair of its own */
  add_ev(v, msg(PT_EV_SEND, 80, 1002, 0, 9, 4, 0));
  add_ev(v, ev(PT_EV_ENTER, 81, 1000, RECV));
  add_ev(v, msg(PT_EV_RECV, 90, 1000, 2, 9, 4, 0));
  add_ev(v, ev(PT_EV_LEAVE, 90, 1000, RECV));
  for (uint64_t p = 0; p < 3; p++) add_ev(v, ev(PT_EV_ENTER, 95, 1000 + p, FIN));
  for (uint64_t p = 0; p < 3; p++) add_ev(v, ev(PT_EV_LEAVE, 99 - p, 1000 + p, FIN));
}

TEST(foreign_writer) {
  items v;
  build_foreign(&v);
  char *dir = test_tmpdir("picl-foreign");
  char out[4200], err[512] = "";
  snprintf(out, sizeof out, "%s/mpi.trf", dir);
  ASSERT_OK(write_path(&v, out, err, sizeof err));
  items_free(&v);
  char *text = slurp(out);
  ASSERT_TRUE(text != NULL);
  /* line checks: time order, -901 first and last per processor, stats */
  int first[3] = {0}, seen[3] = {0}, after_exit[3] = {0};
  int64_t last_t = INT64_MIN;
  int stats = 0, in_stats[3] = {0}, nlines = 0;
  char *save = NULL;
  for (char *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
    long rt, et, proc;
    char ts[64];
    nlines++;
    if (sscanf(ln, "%ld %ld %63s %ld", &rt, &et, ts, &proc) != 4)
      TEST_FAIL_("bad line %s", ln);
    int64_t t;
    int dec, ex;
    ASSERT_OK(pt__picl_parse_time(ts, strlen(ts), &t, &dec, &ex));
    if (t < last_t) TEST_FAIL_("not sorted at: %s", ln);
    last_t = t;
    if (proc < 0) continue; /* labels */
    if (rt <= -101 && rt >= -103) {
      stats++;
      in_stats[proc] = 1;
      continue;
    }
    if (in_stats[proc]) TEST_FAIL_("event record after statistics: %s", ln);
    ASSERT_TRUE(proc >= 0 && proc < 3);
    if (!seen[proc]) {
      seen[proc] = 1;
      first[proc] = rt == -3 && et == -901;
    }
    if (after_exit[proc]) TEST_FAIL_("record after -4 -901: %s", ln);
    if (rt == -4 && et == -901) after_exit[proc] = 1;
  }
  for (int p = 0; p < 3; p++) {
    ASSERT_TRUE(first[p]);
    ASSERT_TRUE(after_exit[p]);
  }
  ASSERT_TRUE(stats >= 9); /* -101/-102/-103 for 3 processors */
  free(text);
  text = slurp(out);
  /* the point-to-point records, microsecond clock -> seconds */
  ASSERT_CONTAINS(text, "-3 -21 0.000030 0 0 4 2 800 5 1 -1\n");
  ASSERT_CONTAINS(text, "-4 -21 0.000040 0 0 0\n");
  ASSERT_CONTAINS(text, "-3 -52 0.000032 1 0 3 2 5 0 -1\n");
  ASSERT_CONTAINS(text, "-4 -52 0.000045 1 0 4 2 800 5 0 -1\n");
  ASSERT_CONTAINS(text, "-3 -27 0.000046 1 0 4 2 16 6 2 -1\n");
  ASSERT_CONTAINS(text, "-4 -27 0.000048 1 0 1 2 77\n");
  ASSERT_CONTAINS(text, "-3 -31 0.000049 1 0 1 2 77\n");
  ASSERT_CONTAINS(text, "-3 -402 0.000060 0 0 1 2 -1\n");
  ASSERT_CONTAINS(text, "-3 -21 0.000080 2 0 4 2 4 9 0 -1\n");
  ASSERT_CONTAINS(text, "-4 -21 0.000080 2 0 0\n");
  ASSERT_CONTAINS(text, "-3 -11 0.000010 0 0 0\n");
  /* the user region gets a user event type and a -5 label */
  ASSERT_CONTAINS(text, "-5 0 0.000033 2 0 7 0 compute\n"); /* on its processor */
  ASSERT_CONTAINS(text, "-3 0 0.000033 2 0 0\n");
  ASSERT_CONTAINS(text, "-4 -901 0.000099 0 0 0\n");
  ASSERT_CONTAINS(text, "-102 -1 0.000099 0 0 ");
  /* and it reads back */
  items w;
  int rc = read_path(out, &w);
  if (rc) TEST_FAIL_("%s", w.err);
  int sends = 0, recvs = 0;
  for (size_t i = 0; i < w.n; i++) {
    if (w.a[i].type != PT_ITEM_EVENT) continue;
    sends += w.a[i].u.event.kind == PT_EV_SEND || w.a[i].u.event.kind == PT_EV_ISEND;
    recvs += w.a[i].u.event.kind == PT_EV_RECV;
  }
  ASSERT_EQ_I64(sends, 3);
  ASSERT_EQ_I64(recvs, 3);
  items_free(&w);
  free(text);
  unlink(out);
  rmdir(dir);
  free(dir);
}

/* ---- errors ------------------------------------------------------------- */

TEST(errors) {
  struct {
    const char *in, *where, *why;
    int status;
  } cases[] = {
      {"-3 -901 x 0 0 0\n", "mem.trf:1:9:", "bad timestamp", PT_ECORRUPT},
      {"-3 -901 0.0 0 0 0\n-3 -21 0.1 0 0 4 2 1 2\n", "mem.trf:2:23:",
       "expected 4 data fields", PT_ECORRUPT},
      {"-3 -21 0.1 0 0 0 5\n", "mem.trf:1:18:", "data after", PT_ECORRUPT},
      {"-3 -21 0.1 0 0 2 \"%d\n", "mem.trf:1:18:", "unterminated", PT_ECORRUPT},
      {"-3 abc 0.1 0 0 0\n", "mem.trf:1:4:", "bad event type", PT_ECORRUPT},
      {"-3 -21 0.1 0 0 1 2 1 2\n", "mem.trf:1:22:", "more data", PT_ECORRUPT},
      {"-3 -21 0.2 0 0 0\n\n-3 -21 0.1 0 0 0\n", "mem.trf:3:8:", "backwards",
       PT_EORDER},
      {"-3 -21 0.1 0 0 1 2 99999999999999999999\n", "mem.trf:1:20:",
       "bad integer", PT_ECORRUPT},
      {"-3 -1 -0.5 0 0 0\n-3 -1 -2.0 1 0 0\n", "mem.trf:2:7:",
       "earlier than the time base", PT_ECORRUPT},
      {"-3 -21 0.1 0 0\n", "mem.trf:1:15:", "missing number of data",
       PT_ECORRUPT},
      {"-3 -21 0.1 0 0 -2\n", "mem.trf:1:16:", "bad number of data",
       PT_ECORRUPT},
      {"-3 -21 0.1 0 0 1 \"%lf\" abc\n", "mem.trf:1:24:", "bad number",
       PT_ECORRUPT},
      {"-3 -21 0.1 0 0 1\n", "mem.trf:1:17:", "missing data descriptor",
       PT_ECORRUPT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    items v;
    int rc = read_mem(cases[i].in, &v);
    if (rc != cases[i].status)
      TEST_FAIL_("case %zu: status %d, want %d (%s)", i, rc, cases[i].status,
                 v.err);
    ASSERT_CONTAINS(v.err, cases[i].where);
    ASSERT_CONTAINS(v.err, cases[i].why);
    items_free(&v);
  }
}

TEST(empty_and_blank) {
  items v;
  ASSERT_OK(read_mem("", &v));
  items_free(&v);
  ASSERT_OK(read_mem("\n  \n\r\n-3 -901 0.5 0 0 0\r\n\n", &v));
  int nev = 0;
  for (size_t i = 0; i < v.n; i++) nev += v.a[i].type == PT_ITEM_EVENT;
  ASSERT_EQ_I64(nev, 1);
  items_free(&v);
}

TEST(format_registered) {
  int found = 0;
  for (size_t i = 0; i < pt_format_count(); i++)
    if (!strcmp(pt_format_get(i)->name, "picl")) found = 1;
  ASSERT_TRUE(found);
}

int main(void) {
  RUN(time_parse_format);
  RUN(time_parse_wide);
  RUN(testdata_roundtrip);
  RUN(golden_roundtrip);
  RUN(worley_example_table21);
  RUN(features);
  RUN(foreign_writer);
  RUN(errors);
  RUN(empty_and_blank);
  RUN(format_registered);
  return test_summary();
}
