/* The PTF format module (source and sink of the registry), driven directly
 * through pt__format_ptf so it does not depend on the generic layer. */
#include <sys/stat.h>

#include "formats/registry.h"
#include "test.h"
#include "test_store_util.h"

/* Copy src_path to dst_path through the module with `streams`. */
static int copy_archive_p(const char *src_path, const char *dst_path,
                          uint64_t streams, const pt_source_opts *so,
                          const char *params) {
  const pt__format *f = &pt__format_ptf;
  void *src, *dst;
  pt_error err;
  int rc = f->src_open(&src, src_path, so, &err);
  if (rc) return rc;
  pt_sink_opts ko = {.streams = streams, .block_size = 1024,
                     .params = params};
  if ((rc = f->sink_open(&dst, dst_path, &ko, &err))) {
    f->src_close(src);
    return rc;
  }
  pt_item it;
  while ((rc = f->src_next(src, &it)) == PT_OK)
    if ((rc = f->sink_write(dst, &it))) {
      fprintf(stderr, "sink: %s\n", f->sink_errmsg(dst));
      break;
    }
  f->src_close(src);
  if (rc != PT_END) {
    f->sink_abort(dst);
    return rc;
  }
  rc = f->sink_close(dst, &err);
  if (rc) fprintf(stderr, "close: %s\n", err.msg);
  return rc;
}

static int copy_archive(const char *src_path, const char *dst_path,
                        uint64_t streams, const pt_source_opts *so) {
  return copy_archive_p(src_path, dst_path, streams, so, NULL);
}

/* Every item of two archives, in source order, equal? */
static int same_items(const char *a, const char *b, int same_streams) {
  const pt__format *f = &pt__format_ptf;
  void *sa, *sb;
  if (f->src_open(&sa, a, NULL, NULL) || f->src_open(&sb, b, NULL, NULL))
    return 0;
  pt_item x, y;
  int ok = 1, ra, rb;
  size_t n = 0;
  for (;;) {
    do ra = f->src_next(sa, &x);
    while (ra == PT_OK && !same_streams && x.type == PT_ITEM_STREAM);
    do rb = f->src_next(sb, &y);
    while (rb == PT_OK && !same_streams && y.type == PT_ITEM_STREAM);
    if (ra != rb) {
      fprintf(stderr, "item %zu: status %d vs %d\n", n, ra, rb);
      ok = 0;
      break;
    }
    if (ra != PT_OK) break;
    n++;
    if (x.type != y.type) {
      fprintf(stderr, "item %zu: type %u vs %u\n", n, x.type, y.type);
      ok = 0;
      break;
    }
    int eq = 1;
    switch (x.type) {
      case PT_ITEM_EVENT: eq = pt_event_equal(&x.u.event, &y.u.event); break;
      case PT_ITEM_DEF:
        if (!same_streams && x.u.def.scope) y.u.def.scope = x.u.def.scope;
        eq = pt_def_equal(&x.u.def, &y.u.def);
        break;
      case PT_ITEM_SUMMARY:
        eq = memcmp(&x.u.summary, &y.u.summary, sizeof x.u.summary) == 0;
        break;
      case PT_ITEM_SNAPSHOT:
        eq = x.u.snapshot.time == y.u.snapshot.time &&
             pt_event_equal(&x.u.snapshot.event, &y.u.snapshot.event);
        break;
      case PT_ITEM_STREAM:
        eq = x.u.stream.stream == y.u.stream.stream &&
             x.u.stream.location == y.u.stream.location;
        break;
    }
    /* merged streams interleave their summaries/snapshots by time */
    if (!same_streams &&
        (x.type == PT_ITEM_SUMMARY || x.type == PT_ITEM_SNAPSHOT))
      eq = 1;
    if (!eq) {
      fprintf(stderr, "item %zu (type %u) differs\n", n, x.type);
      ok = 0;
      break;
    }
  }
  f->src_close(sa);
  f->src_close(sb);
  return ok && n > 0;
}

TEST(ptf_module_roundtrip) {
  char *dir = test_tmpdir("ptf");
  char a[4200], b[4200], c[4200];
  snprintf(a, sizeof a, "%s/a.ptf", dir);
  snprintf(b, sizeof b, "%s/b.ptf", dir);
  snprintf(c, sizeof c, "%s/c.ptf", dir);
  pt__arena ar = {0};
  rng_seed(8);
  pt_writer *w;
  pt_writer_opts wo = {.block_size = 700};
  ASSERT_OK(pt_writer_open(&w, a, &wo, NULL));
  for (int i = 0; i < 30; i++) {
    pt_def d;
    rnd_def(&ar, &d, 0);
    ASSERT_OK(pt_writer_def(w, &d));
  }
  pt_stream *s[3];
  uint64_t t[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) ASSERT_OK(pt_writer_stream(w, (uint64_t)i * 2, &s[i]));
  pt_def ld;
  rnd_def(&ar, &ld, PT_DEF_KEYVAL);
  ASSERT_OK(pt_stream_def(s[1], &ld));
  for (int i = 0; i < 5000; i++) {
    int k = (int)rndn(3);
    t[k] += rndn(10);
    pt_event ev;
    rnd_event(&ar, &ev, 0, t[k], 100 + (uint64_t)k * 10 + rndn(2), 6);
    ASSERT_OK(pt_stream_event(s[k], &ev));
  }
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 10; i++) {
      pt_summary sum = {(uint64_t)i * 7, 100 + (uint64_t)k * 10, PT_SUM_REGION,
                        0, 1, (uint64_t)i, 2, 3, 4, 5};
      ASSERT_OK(pt_stream_summary(s[k], &sum));
      pt_snapshot sn = {(uint64_t)i * 7, 100 + (uint64_t)k * 10, {0}};
      rnd_event(&ar, &sn.event, PT_EV_ENTER, (uint64_t)i, sn.location, 0);
      ASSERT_OK(pt_stream_snapshot(s[k], &sn));
    }
  ASSERT_OK(pt_writer_close(w, NULL));
  /* probe */
  ASSERT_EQ_I64(pt__format_ptf.probe(a, 1, NULL, 0), 100);
  ASSERT_EQ_I64(pt__format_ptf.probe(dir, 1, NULL, 0), 0);
  ASSERT_EQ_I64(pt__format_ptf.probe(a, 0, NULL, 0), 0);
  /* same stream map: identical item sequence */
  ASSERT_OK(copy_archive(a, b, 0, NULL));
  ASSERT_TRUE(same_items(a, b, 1));
  /* repartitioned into one stream: same events, defs, aux items */
  ASSERT_OK(copy_archive(a, c, 1, NULL));
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, c, NULL, NULL));
  ASSERT_EQ_U64(pt_reader_nstreams(r), 1);
  ASSERT_EQ_U64(pt_reader_stream_info(r, 0)->nlocations, 6);
  pt_reader_close(r);
  ASSERT_TRUE(same_items(a, c, 0));
  /* summaries and snapshots beyond the sink's buffer go through sorted run
   * files merged at close: the same items, the runs removed */
  char d[4200], e[4200];
  snprintf(d, sizeof d, "%s/d.ptf", dir);
  snprintf(e, sizeof e, "%s/e.ptf", dir);
  ASSERT_OK(copy_archive_p(a, d, 0, NULL, "aux_mem=600"));
  ASSERT_TRUE(same_items(a, d, 1));
  ASSERT_OK(copy_archive_p(c, e, 0, NULL, "aux_mem=600"));
  ASSERT_TRUE(same_items(c, e, 1));
  char run[4300];
  snprintf(run, sizeof run, "%s.auxrun-0", d);
  struct stat rst;
  ASSERT_TRUE(stat(run, &rst) != 0);
  /* the source (with the generic layer) applies filters */
  uint64_t only = 100;
  pt_source_opts so = {.locations = &only, .nlocations = 1};
  pt_source *src;
  ASSERT_OK(pt_source_open(&src, a, &so, NULL));
  pt_item it;
  size_t nev = 0;
  while (pt_source_next(src, &it) == PT_OK) {
    if (it.type == PT_ITEM_EVENT) {
      ASSERT_EQ_U64(it.u.event.location, 100);
      nev++;
    }
    if (it.type == PT_ITEM_STREAM) ASSERT_EQ_U64(it.u.stream.location, 100);
  }
  ASSERT_TRUE(nev > 0);
  ASSERT_TRUE(pt_source_reader(src) != NULL);
  pt_source_close(src);
  pt__arena_free(&ar);
  pt__rmtree(dir);
  free(dir);
}

int main(void) {
  RUN(ptf_module_roundtrip);
  return test_summary();
}
