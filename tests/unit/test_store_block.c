/* Block codec, index and anchor parsers: round trips and rejection of bad
 * input. */
#include "store/archive.h"
#include "test.h"
#include "test_store_util.h"

TEST(varint_edges) {
  uint64_t vals[] = {0, 1, 127, 128, 255, 16383, 16384, (1ull << 32) - 1,
                     1ull << 32, (1ull << 63) - 1, 1ull << 63, UINT64_MAX};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    uint8_t b[PT_VARINT_MAX];
    size_t n = pt__varint_put(b, vals[i]);
    ASSERT_TRUE(n >= 1 && n <= PT_VARINT_MAX);
    const uint8_t *p = b;
    uint64_t v = 0;
    ASSERT_EQ_I64(pt__varint_get(&p, b + n, &v), 0);
    ASSERT_EQ_U64(v, vals[i]);
    ASSERT_TRUE(p == b + n);
    /* every truncation fails */
    for (size_t k = 0; k < n; k++) {
      p = b;
      ASSERT_EQ_I64(pt__varint_get(&p, b + k, &v), -1);
    }
  }
  /* 11-byte and overflowing 10-byte encodings are rejected */
  uint8_t over[11];
  memset(over, 0xff, sizeof over);
  over[10] = 0x01;
  const uint8_t *p = over;
  uint64_t v;
  ASSERT_EQ_I64(pt__varint_get(&p, over + 11, &v), -1);
  uint8_t big[10];
  memset(big, 0xff, 9);
  big[9] = 0x02; /* bit 64 */
  p = big;
  ASSERT_EQ_I64(pt__varint_get(&p, big + 10, &v), -1);
  int64_t zs[] = {0, -1, 1, -2, INT64_MAX, INT64_MIN, INT64_MIN + 1};
  for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++)
    ASSERT_EQ_I64(pt__unzigzag(pt__zigzag(zs[i])), zs[i]);
  ASSERT_EQ_U64(pt__zigzag(-1), 1);
  ASSERT_EQ_U64(pt__zigzag(1), 2);
  ASSERT_EQ_U64(pt__zigzag(INT64_MIN), UINT64_MAX);
}

/* pt__grow / PT_GROW (core/util.h): first size, doubling, failures that
 * leave the array as it was. */
TEST(grow_doubling) {
  int64_t *a = NULL;
  size_t cap = 0;
  ASSERT_EQ_I64(PT_GROW(a, cap, 1, 16), PT_OK);
  ASSERT_TRUE(a != NULL);
  ASSERT_EQ_U64(cap, 16);
  for (size_t i = 0; i < 16; i++) a[i] = (int64_t)i;
  int64_t *before = a;
  ASSERT_EQ_I64(PT_GROW(a, cap, 16, 16), PT_OK); /* room already */
  ASSERT_TRUE(a == before);
  ASSERT_EQ_U64(cap, 16);
  ASSERT_EQ_I64(PT_GROW(a, cap, 17, 16), PT_OK);
  ASSERT_EQ_U64(cap, 32);
  ASSERT_EQ_I64(PT_GROW(a, cap, 100, 16), PT_OK); /* doubled until it fits */
  ASSERT_EQ_U64(cap, 128);
  for (size_t i = 0; i < 16; i++) ASSERT_EQ_I64(a[i], (int64_t)i);
  /* the size overflows: PT_ENOMEM, the array and cap unchanged */
  before = a;
  ASSERT_EQ_I64(PT_GROW(a, cap, SIZE_MAX / 4, 16), PT_ENOMEM);
  ASSERT_EQ_I64(PT_GROW(a, cap, SIZE_MAX, 16), PT_ENOMEM);
  ASSERT_TRUE(a == before);
  ASSERT_EQ_U64(cap, 128);
  free(a);
  /* element counts near SIZE_MAX / size, and a first size above need */
  char *c = NULL;
  size_t cc = 0;
  ASSERT_EQ_I64(pt__grow(&c, &cc, 3, 1, 256), PT_OK);
  ASSERT_EQ_U64(cc, 256);
  free(c);
  struct big { char x[1 << 20]; } *b = NULL;
  size_t bc = 0;
  ASSERT_EQ_I64(PT_GROW(b, bc, (SIZE_MAX >> 20) + 1, 1), PT_ENOMEM);
  ASSERT_TRUE(b == NULL);
  ASSERT_EQ_U64(bc, 0);
}

TEST(block_header) {
  pt__blkhdr h = {.type = PT__BLK_EVENTS,
                  .codec = PT__CODEC_ZSTD,
                  .first_ts = 5,
                  .last_ts = 9,
                  .count = 3,
                  .ordinal = (1ull << 40) + 7, /* > 2^32 */
                  .stored = 100,
                  .raw = 200,
                  .pcrc = 0xdeadbeef};
  uint8_t b[PT__BLK_HDR];
  pt__blkhdr_write(b, &h);
  pt__blkhdr g;
  const char *why = NULL;
  ASSERT_OK(pt__blkhdr_parse(b, &g, &why));
  ASSERT_EQ_U64(g.ordinal, h.ordinal);
  ASSERT_EQ_U64(g.count, 3);
  ASSERT_EQ_U64(g.stored, 100);
  ASSERT_EQ_U64(g.raw, 200);
  /* any single flipped bit is caught */
  for (size_t i = 0; i < PT__BLK_HDR; i++)
    for (int bit = 0; bit < 8; bit++) {
      uint8_t c[PT__BLK_HDR];
      memcpy(c, b, sizeof c);
      c[i] ^= (uint8_t)(1u << bit);
      ASSERT_STATUS(pt__blkhdr_parse(c, &g, &why), PT_ECORRUPT);
    }
  /* valid checksum but impossible values */
  pt__blkhdr bad = h;
  bad.raw = PT__BLK_MAX_RAW + 1;
  pt__blkhdr_write(b, &bad);
  ASSERT_STATUS(pt__blkhdr_parse(b, &g, &why), PT_ECORRUPT);
  bad = h;
  bad.count = 201; /* more items than bytes */
  pt__blkhdr_write(b, &bad);
  ASSERT_STATUS(pt__blkhdr_parse(b, &g, &why), PT_ECORRUPT);
  bad = h;
  bad.first_ts = 10;
  pt__blkhdr_write(b, &bad);
  ASSERT_STATUS(pt__blkhdr_parse(b, &g, &why), PT_ECORRUPT);
  bad = h;
  bad.codec = PT__CODEC_RAW; /* raw needs stored == raw */
  pt__blkhdr_write(b, &bad);
  ASSERT_STATUS(pt__blkhdr_parse(b, &g, &why), PT_ECORRUPT);
  bad = h;
  bad.ordinal = UINT64_MAX - 1;
  pt__blkhdr_write(b, &bad);
  ASSERT_STATUS(pt__blkhdr_parse(b, &g, &why), PT_ECORRUPT);
}

/* Encode random events into one payload, build a block, decode it. */
static void codec_round(int level, int n) {
  pt__arena a = {0}, scratch = {0};
  pt_event *evs = calloc((size_t)n, sizeof *evs);
  pt__buf raw = {0}, out = {0}, dec = {0};
  uint64_t t = rnd_u64() >> 2, pt = t, pl = PT_NONE;
  for (int i = 0; i < n; i++) {
    t += rndn(4) ? rndn(1000) : 0;
    rnd_event(&a, &evs[i], 0, t, rndn(3) ? 7 : rnd_u64() >> 1, 3);
    if (i == 0) pt = t;
    size_t b = pt__event_bound(&evs[i]);
    ASSERT_TRUE(b > 0);
    pt__buf_reserve(&raw, b);
    size_t k = pt__event_put(raw.p + raw.len, &evs[i], &pt, &pl, NULL);
    ASSERT_TRUE(k <= b);
    raw.len += k;
  }
  pt__blkhdr h = {.type = PT__BLK_EVENTS,
                  .first_ts = evs[0].time,
                  .last_ts = t,
                  .count = (uint64_t)n};
  ZSTD_CCtx *cc = ZSTD_createCCtx();
  ZSTD_DCtx *dc = ZSTD_createDCtx();
  ASSERT_OK(pt__blk_build(&h, raw.p, raw.len, cc, level, &out));
  pt__blkhdr g;
  const char *why = "";
  ASSERT_OK(pt__blkhdr_parse(out.p, &g, &why));
  ASSERT_EQ_U64(g.stored + PT__BLK_HDR, out.len);
  const uint8_t *rp;
  ASSERT_OK(pt__blk_payload(&g, out.p + PT__BLK_HDR, dc, &dec, &rp, &why));
  pt__dec d;
  pt__dec_init(&d, rp, g.raw, g.first_ts, &scratch);
  for (int i = 0; i < n; i++) {
    pt_event e;
    int rc = pt__event_get(&d, &e, &why);
    if (rc) TEST_FAIL_("event %d: %s", i, why);
    if (!pt_event_equal(&e, &evs[i]))
      TEST_FAIL_("event %d (kind %s) differs", i,
                 pt_event_kind_name(evs[i].kind));
  }
  ASSERT_TRUE(d.p == d.end);
  /* a flipped payload byte is caught by the checksum */
  out.p[PT__BLK_HDR + g.stored / 2] ^= 0x10;
  ASSERT_STATUS(pt__blk_payload(&g, out.p + PT__BLK_HDR, dc, &dec, &rp, &why),
                PT_ECORRUPT);
  ZSTD_freeCCtx(cc);
  ZSTD_freeDCtx(dc);
  pt__buf_free(&raw);
  pt__buf_free(&out);
  pt__buf_free(&dec);
  pt__arena_free(&a);
  pt__arena_free(&scratch);
  free(evs);
}

TEST(event_codec_roundtrip) {
  for (int round = 0; round < 20; round++) {
    rng_seed(1000 + (uint64_t)round);
    codec_round(round % 3 == 0 ? -1 : 1, 1 + (int)rndn(3000));
    if (test_failed_) return;
  }
}

/* The zstd window of a frame header (RFC 8878 3.1.1.1), or 0 when the
 * frame is single-segment (its window is the content size). */
static uint64_t zstd_window(const uint8_t *f, size_t n) {
  if (n < 6) return 0;
  uint8_t fhd = f[4];
  if (fhd & 0x20) return 0; /* single segment */
  uint8_t wd = f[5];
  uint64_t base = (uint64_t)1 << (10 + (wd >> 3));
  return base + (base / 8) * (wd & 7);
}

/* Events blocks are compressed with a 64 KiB zstd window at the fast
 * levels and a 2^11-entry match table at level 1 (smaller and quicker on
 * trace data; block.c); any zstd decoder reads them.  Other block types
 * keep zstd's defaults. */
TEST(events_block_zstd_window) {
  pt__buf raw = {0}, out = {0}, dec = {0};
  rng_seed(4242);
  /* 200 KB shaped like an events payload: a low-entropy part and rows */
  size_t n = 200000;
  ASSERT_OK(pt__buf_reserve(&raw, n));
  for (size_t i = 0; i < n; i++)
    raw.p[i] = (uint8_t)(i < n / 2 ? rndn(256) : (i & 1) ? 2 : 1 + rndn(16));
  raw.len = n;
  ZSTD_CCtx *cc = ZSTD_createCCtx();
  ZSTD_DCtx *dc = ZSTD_createDCtx();
  for (int type = PT__BLK_EVENTS; type <= PT__BLK_DEFS; type++) {
    pt__blkhdr h = {.type = (uint8_t)type,
                    .first_ts = 1,
                    .last_ts = 2,
                    .count = 1000};
    ASSERT_OK(pt__blk_build(&h, raw.p, raw.len, cc, 1, &out));
    ASSERT_EQ_U64(h.codec, PT__CODEC_ZSTD);
    uint64_t win = zstd_window(out.p + PT__BLK_HDR, h.stored);
    if (type == PT__BLK_EVENTS)
      ASSERT_EQ_U64(win, (uint64_t)1 << PT__EVENTS_WLOG);
    else
      ASSERT_TRUE(win == 0 || win > ((uint64_t)1 << PT__EVENTS_WLOG));
    if (type == PT__BLK_EVENTS) {
      /* exactly what zstd makes with the documented parameters: level 1,
       * the 64 KiB window and the 2^11-entry table */
      ZSTD_CCtx *ref = ZSTD_createCCtx();
      size_t cap = ZSTD_compressBound(n);
      uint8_t *z = malloc(cap);
      ASSERT_TRUE(ref && z);
      ZSTD_CCtx_setParameter(ref, ZSTD_c_compressionLevel, 1);
      ZSTD_CCtx_setParameter(ref, ZSTD_c_windowLog, PT__EVENTS_WLOG);
      ZSTD_CCtx_setParameter(ref, ZSTD_c_hashLog, PT__EVENTS_HLOG);
      size_t zn = ZSTD_compress2(ref, z, cap, raw.p, n);
      ASSERT_TRUE(!ZSTD_isError(zn));
      ASSERT_EQ_U64(h.stored, zn);
      ASSERT_TRUE(memcmp(out.p + PT__BLK_HDR, z, zn) == 0);
      free(z);
      ZSTD_freeCCtx(ref);
    }
    pt__blkhdr g;
    const char *why = "";
    const uint8_t *rp;
    ASSERT_OK(pt__blkhdr_parse(out.p, &g, &why));
    ASSERT_OK(pt__blk_payload(&g, out.p + PT__BLK_HDR, dc, &dec, &rp, &why));
    ASSERT_EQ_U64(g.raw, n);
    ASSERT_TRUE(memcmp(rp, raw.p, n) == 0);
  }
  ZSTD_freeCCtx(cc);
  ZSTD_freeDCtx(dc);
  pt__buf_free(&raw);
  pt__buf_free(&out);
  pt__buf_free(&dec);
}

TEST(def_sum_snap_codec_roundtrip) {
  pt__arena a = {0}, scratch = {0};
  rng_seed(77);
  for (int round = 0; round < 500; round++) {
    uint8_t *buf;
    pt_def d;
    rnd_def(&a, &d, 1 + (uint32_t)(round % (PT_DEF__COUNT - 1)));
    size_t b = pt__def_bound(&d);
    ASSERT_TRUE(b > 0);
    buf = malloc(b);
    size_t n = pt__def_put(buf, &d);
    pt__dec dec;
    pt__dec_init(&dec, buf, n, 0, &scratch);
    pt_def g;
    const char *why = "";
    int rc = pt__def_get(&dec, &g, &why);
    if (rc) TEST_FAIL_("def kind %u: %s", d.kind, why);
    ASSERT_TRUE(pt_def_equal(&g, &d));
    ASSERT_TRUE(dec.p == dec.end);
    /* every truncation is an error, never a crash */
    for (size_t k = 0; k < n; k++) {
      pt__dec_init(&dec, buf, k, 0, &scratch);
      ASSERT_STATUS(pt__def_get(&dec, &g, &why), PT_ECORRUPT);
    }
    free(buf);

    pt_summary s = {rnd_u64(), rnd_u64() >> 1, (uint32_t)rndn(6), 0,
                    rnd_u64(), rnd_u64(), rnd_u64(), rnd_u64(), rnd_u64(),
                    rnd_u64()};
    uint8_t sb[PT__SUM_BOUND];
    uint64_t pt = 0;
    n = pt__summary_put(sb, &s, &pt);
    pt__dec_init(&dec, sb, n, 0, &scratch);
    pt_summary gs;
    ASSERT_OK(pt__summary_get(&dec, &gs, &why));
    ASSERT_TRUE(memcmp(&gs, &s, sizeof s) == 0);

    pt_snapshot sn;
    sn.time = rnd_u64();
    sn.location = rndn(100);
    rnd_event(&a, &sn.event, 0, rnd_u64(), sn.location, 2);
    b = pt__snapshot_bound(&sn);
    buf = malloc(b);
    pt = 0;
    n = pt__snapshot_put(buf, &sn, &pt);
    pt__dec_init(&dec, buf, n, 0, &scratch);
    pt_snapshot gn;
    ASSERT_OK(pt__snapshot_get(&dec, &gn, &why));
    ASSERT_EQ_U64(gn.time, sn.time);
    ASSERT_EQ_U64(gn.location, sn.location);
    ASSERT_TRUE(pt_event_equal(&gn.event, &sn.event));
    free(buf);
  }
  pt__arena_free(&a);
  pt__arena_free(&scratch);
}

TEST(event_decode_garbage_never_crashes) {
  pt__arena scratch = {0};
  rng_seed(5);
  uint8_t buf[256];
  for (int round = 0; round < 20000; round++) {
    size_t n = rndn(sizeof buf);
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)rnd();
    pt__dec d;
    pt__dec_init(&d, buf, n, rnd(), &scratch);
    const char *why;
    pt_event e;
    for (int k = 0; k < 50 && d.p < d.end; k++)
      if (pt__event_get(&d, &e, &why)) break;
    pt_def df;
    pt__dec_init(&d, buf, n, 0, &scratch);
    for (int k = 0; k < 50 && d.p < d.end; k++)
      if (pt__def_get(&d, &df, &why)) break;
  }
  pt__arena_free(&scratch);
}

TEST(index_build_parse) {
  pt__ientry e[3] = {{1, 5, 0, 10, 0},
                     {5, 9, 5000000000ull, 1ull << 33, 10},      /* > 4 GiB */
                     {9, 20, 9000000000ull, 4, 10 + (1ull << 33)}}; /* > 2^32 */
  pt__buf b = {0};
  ASSERT_OK(pt__index_build(e, 3, 9000001000ull, &b));
  pt__ientry *g;
  size_t n;
  uint64_t es;
  const char *why = "";
  ASSERT_OK(pt__index_parse(b.p, b.len, &g, &n, &es, &why));
  ASSERT_EQ_U64(n, 3);
  ASSERT_EQ_U64(es, 9000001000ull);
  ASSERT_TRUE(memcmp(g, e, sizeof e) == 0);
  free(g);
  for (size_t i = 0; i < b.len; i++) {
    b.p[i] ^= 0x04;
    int rc = pt__index_parse(b.p, b.len, &g, &n, &es, &why);
    ASSERT_TRUE(rc == PT_ECORRUPT || rc == PT_EVERSION);
    b.p[i] ^= 0x04;
  }
  for (size_t k = 0; k < b.len; k++)
    ASSERT_TRUE(pt__index_parse(b.p, k, &g, &n, &es, &why) != PT_OK);
  /* consistent checksum but ordinals not contiguous */
  e[2].ordinal = 5;
  ASSERT_OK(pt__index_build(e, 3, 9000001000ull, &b));
  ASSERT_STATUS(pt__index_parse(b.p, b.len, &g, &n, &es, &why), PT_ECORRUPT);
  pt__buf_free(&b);
}

TEST(anchor_parse) {
  const char *t =
      "format = ptf\n# comment\n\nversion = 2\n  stream.3 =  1 2 3 \n"
      "creator = a = b\nstream.4 =\n";
  pt__anchor a;
  const char *why = "";
  size_t line;
  ASSERT_OK(pt__anchor_parse(t, strlen(t), &a, &why, &line));
  ASSERT_EQ_STR(pt__anchor_get(&a, "version"), "2");
  ASSERT_EQ_STR(pt__anchor_get(&a, "creator"), "a = b");
  ASSERT_EQ_STR(pt__anchor_get(&a, "stream.4"), "");
  uint64_t *l;
  size_t n;
  ASSERT_OK(pt__parse_u64_list(pt__anchor_get(&a, "stream.3"), &l, &n));
  ASSERT_EQ_U64(n, 3);
  ASSERT_EQ_U64(l[2], 3);
  free(l);
  pt__anchor_free(&a);
  ASSERT_STATUS(pt__parse_u64_list("1 x", &l, &n), PT_ECORRUPT);
  ASSERT_STATUS(pt__parse_u64_list("18446744073709551616", &l, &n),
                PT_ECORRUPT);
  const char *bad[] = {"", "format = otf\n", "hello\n", "format = ptf\nnoeq\n",
                       "format = ptf\n = x\n", "format = ptf\nk y = 1\n",
                       "x = 1\nformat = ptf\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int rc = pt__anchor_parse(bad[i], strlen(bad[i]), &a, &why, &line);
    ASSERT_TRUE(rc == PT_EFORMAT || rc == PT_ECORRUPT);
    pt__anchor_free(&a);
  }
  char nul[] = "format = ptf\nx = a\0b\n";
  ASSERT_TRUE(pt__anchor_parse(nul, sizeof nul - 1, &a, &why, &line) != PT_OK);
  pt__anchor_free(&a);
}

int main(void) {
  RUN(varint_edges);
  RUN(grow_doubling);
  RUN(block_header);
  RUN(event_codec_roundtrip);
  RUN(events_block_zstd_window);
  RUN(def_sum_snap_codec_roundtrip);
  RUN(event_decode_garbage_never_crashes);
  RUN(index_build_parse);
  RUN(anchor_parse);
  return test_summary();
}
