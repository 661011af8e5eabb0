/* Crash safety, recovery, damaged files, 64-bit offsets and counts, and
 * auxiliary files that never touch events. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/archive.h"
#include "test.h"
#include "test_store_util.h"

static int warnings;
static char last_warning[1024];
static void count_warn(void *u, const char *msg) {
  (void)u;
  warnings++;
  snprintf(last_warning, sizeof last_warning, "%s", msg);
}

static char *slurp(const char *path, size_t *len) {
  char *p = NULL;
  if (pt__read_file(path, (size_t)1 << 30, &p, len) != 0) return NULL;
  return p;
}

/* The deterministic event i of the crash test. */
static void crash_event(pt__arena *a, uint64_t i, pt_event *ev) {
  rng_seed(1 + i);
  rnd_event(a, ev, 0, i * 3, 10 + i % 3, 5);
}

enum { PER_BLOCK = 700, K = 6 };

/* The reader's prefetching threads for read_all (0: none). */
static int g_read_threads;

/* Count events of an archive and check them against crash_event. */
static int read_all(const char *path, uint64_t *n, int *bad) {
  *n = 0;
  *bad = 0;
  pt_reader *r;
  pt_error err;
  pt_reader_opts o = {.warn = count_warn, .threads = g_read_threads};
  int rc = pt_reader_open(&r, path, &o, &err);
  if (rc) {
    fprintf(stderr, "%s\n", err.msg);
    return rc;
  }
  pt__arena a = {0};
  pt_event ev, x;
  *n = 0;
  *bad = 0;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) {
    pt__arena_reset(&a);
    crash_event(&a, *n, &x);
    if (!pt_event_equal(&ev, &x)) (*bad)++;
    (*n)++;
  }
  if (rc < 0) fprintf(stderr, "next: %s\n", pt_reader_errmsg(r));
  pt_reader_close(r);
  pt__arena_free(&a);
  return rc == PT_END ? PT_OK : rc;
}

TEST(crash_then_recover) {
  char *dir = test_tmpdir("crash");
  char path[4200], ev_path[4300];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  snprintf(ev_path, sizeof ev_path, "%s/s0.events", path);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    pt_writer *w;
    pt_stream *s;
    pt__arena a = {0};
    if (pt_writer_open(&w, path, NULL, NULL) || pt_writer_stream(w, 0, &s))
      _exit(3);
    pt_def d;
    pt_def_init(&d, PT_DEF_REGION, 1);
    d.name = "main";
    pt_writer_def(w, &d);
    uint64_t i = 0;
    for (int b = 0; b < K; b++) {
      for (int k = 0; k < PER_BLOCK; k++, i++) {
        pt_event ev;
        pt__arena_reset(&a);
        crash_event(&a, i, &ev);
        if (pt_stream_event(s, &ev)) _exit(4);
      }
      if (pt_stream_flush(s)) _exit(5);
    }
    for (int k = 0; k < PER_BLOCK / 2; k++, i++) { /* never flushed */
      pt_event ev;
      pt__arena_reset(&a);
      crash_event(&a, i, &ev);
      pt_stream_event(s, &ev);
    }
    kill(getpid(), SIGKILL);
    _exit(6);
  }
  int st;
  ASSERT_TRUE(waitpid(pid, &st, 0) == pid);
  ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  /* a torn write: the first 100 bytes of a copy of block 0 */
  size_t len;
  char *bytes = slurp(ev_path, &len);
  ASSERT_TRUE(bytes != NULL);
  int fd = open(ev_path, O_WRONLY | O_APPEND);
  ASSERT_TRUE(write(fd, bytes, 100) == 100);
  close(fd);
  free(bytes);
  /* readable before recovery, with warnings */
  uint64_t n;
  int bad;
  warnings = 0;
  ASSERT_OK(read_all(path, &n, &bad));
  ASSERT_EQ_U64(n, (uint64_t)K * PER_BLOCK);
  ASSERT_EQ_I64(bad, 0);
  ASSERT_TRUE(warnings >= 2);
  /* recover */
  pt_recover_report rep;
  pt_error err;
  ASSERT_OK(pt_archive_recover(path, &rep, &err));
  ASSERT_EQ_U64(rep.streams, 1);
  ASSERT_EQ_U64(rep.blocks, K);
  ASSERT_EQ_U64(rep.events, (uint64_t)K * PER_BLOCK);
  ASSERT_EQ_U64(rep.truncated_bytes, 100);
  ASSERT_EQ_U64(rep.indexes_rebuilt, 1);
  char dmg[4400];
  snprintf(dmg, sizeof dmg, "%s.damaged", ev_path);
  struct stat sb;
  ASSERT_TRUE(stat(dmg, &sb) == 0 && sb.st_size == 100);
  warnings = 0;
  ASSERT_OK(read_all(path, &n, &bad));
  ASSERT_EQ_U64(n, (uint64_t)K * PER_BLOCK);
  ASSERT_EQ_I64(bad, 0);
  ASSERT_EQ_I64(warnings, 0); /* closed, index valid */
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  ASSERT_EQ_STR(pt_reader_anchor(r, "state"), "closed");
  ASSERT_EQ_STR(pt_reader_anchor(r, "stream.0"), "10 11 12");
  ASSERT_EQ_U64(pt_reader_ndefs(r), 1);
  pt_reader_close(r);
  /* idempotent */
  ASSERT_OK(pt_archive_recover(path, &rep, &err));
  ASSERT_EQ_U64(rep.blocks, K);
  ASSERT_EQ_U64(rep.truncated_bytes, 0);
  ASSERT_OK(read_all(path, &n, &bad));
  ASSERT_EQ_U64(n, (uint64_t)K * PER_BLOCK);
  pt__rmtree(dir);
  free(dir);
}

/* A closed one-stream archive of nblk blocks of PER_BLOCK events. */
static void make_archive(const char *path, int nblk) {
  pt_writer *w;
  pt_stream *s;
  pt__arena a = {0};
  pt_writer_open(&w, path, NULL, NULL);
  pt_writer_stream(w, 0, &s);
  uint64_t i = 0;
  for (int b = 0; b < nblk; b++) {
    for (int k = 0; k < PER_BLOCK; k++, i++) {
      pt_event ev;
      pt__arena_reset(&a);
      crash_event(&a, i, &ev);
      pt_stream_event(s, &ev);
    }
    pt_stream_flush(s);
  }
  pt_writer_close(w, NULL);
  pt__arena_free(&a);
}

static uint64_t block_offset(const char *ev_path, int blk) {
  size_t len;
  uint8_t *p = (uint8_t *)slurp(ev_path, &len);
  uint64_t off = 0;
  for (int i = 0; i < blk; i++) off += PT__BLK_HDR + pt__get_u32(p + off + 40);
  free(p);
  return off;
}

static void flip(const char *path, uint64_t off) {
  int fd = open(path, O_RDWR);
  uint8_t c;
  pread(fd, &c, 1, (off_t)off);
  c ^= 0x5a;
  pwrite(fd, &c, 1, (off_t)off);
  close(fd);
}

/* Each case with and without prefetching threads: a block checked ahead
 * by a thread is reported exactly as one checked by the merge. */
TEST(damaged_blocks) {
  for (g_read_threads = 0; g_read_threads < 2; g_read_threads++) {
  char *dir = test_tmpdir("dmg");
  char path[4200], ev_path[4300];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  snprintf(ev_path, sizeof ev_path, "%s/s0.events", path);
  uint64_t n;
  int bad;
  /* middle block payload: an error naming the file and offset */
  make_archive(path, 5);
  uint64_t off2 = block_offset(ev_path, 2);
  flip(ev_path, off2 + PT__BLK_HDR + 10);
  warnings = 0;
  ASSERT_STATUS(read_all(path, &n, &bad), PT_ECORRUPT);
  ASSERT_EQ_U64(n, 2 * PER_BLOCK);
  pt_reader *r;
  pt_reader_opts ro = {.threads = g_read_threads};
  ASSERT_OK(pt_reader_open(&r, path, &ro, NULL));
  pt_event ev;
  int rc;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) {}
  ASSERT_STATUS(rc, PT_ECORRUPT);
  ASSERT_CONTAINS(pt_reader_errmsg(r), "s0.events");
  char want[64];
  snprintf(want, sizeof want, "offset %llu", (unsigned long long)off2);
  ASSERT_CONTAINS(pt_reader_errmsg(r), want);
  ASSERT_STATUS(pt_reader_next(r, &ev), PT_ECORRUPT); /* sticky */
  /* seeking past the damage works */
  ASSERT_OK(pt_reader_seek(r, 3 * PER_BLOCK * 3));
  ASSERT_OK(pt_reader_next(r, &ev));
  ASSERT_EQ_U64(ev.time, 3 * PER_BLOCK * 3);
  pt_reader_close(r);
  pt__rmtree(path);

  /* last block damaged: the stream ends with a warning */
  make_archive(path, 5);
  flip(ev_path, block_offset(ev_path, 4) + PT__BLK_HDR + 3);
  warnings = 0;
  ASSERT_OK(read_all(path, &n, &bad));
  ASSERT_EQ_U64(n, 4 * PER_BLOCK);
  ASSERT_EQ_I64(bad, 0);
  ASSERT_EQ_I64(warnings, 1);
  ASSERT_CONTAINS(last_warning, "s0.events");
  pt__rmtree(path);

  /* file cut in the middle of block 3: index stale, rebuilt, tail warned */
  make_archive(path, 5);
  ASSERT_TRUE(truncate(ev_path, (off_t)(block_offset(ev_path, 3) + 77)) == 0);
  warnings = 0;
  ASSERT_OK(read_all(path, &n, &bad));
  ASSERT_EQ_U64(n, 3 * PER_BLOCK);
  ASSERT_EQ_I64(warnings, 2); /* rebuilt index + damaged tail */
  pt__rmtree(path);

  /* index missing */
  make_archive(path, 3);
  char ip[4300];
  snprintf(ip, sizeof ip, "%s/s0.index", path);
  unlink(ip);
  warnings = 0;
  ASSERT_OK(read_all(path, &n, &bad));
  ASSERT_EQ_U64(n, 3 * PER_BLOCK);
  ASSERT_EQ_I64(warnings, 1);
  pt__rmtree(path);
  pt__rmtree(dir);
  free(dir);
  }
  g_read_threads = 0;
}

/* Random single-byte damage and cuts in every file: never a crash, and
 * every outcome is a status. */
TEST(random_damage_never_crashes) {
  char *dir = test_tmpdir("fuzz");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  const char *files[] = {"anchor", "defs", "s0.events", "s0.index"};
  uint64_t dmg_rng = 99;
  for (int round = 0; round < 200; round++) {
    make_archive(path, 3);
    char fp[4400];
    snprintf(fp, sizeof fp, "%s/%s", path, files[round % 4]);
    struct stat sb;
    if (stat(fp, &sb) == 0 && sb.st_size > 0) {
      /* own generator: make_archive reseeds the shared one */
      rng_seed(dmg_rng);
      if (rndn(3) == 0)
        truncate(fp, (off_t)rndn((uint64_t)sb.st_size));
      else
        for (int k = 0; k < 1 + (int)rndn(3); k++)
          flip(fp, rndn((uint64_t)sb.st_size));
      dmg_rng = rnd();
    }
    uint64_t n;
    int bad;
    g_read_threads = (round / 4) % 2;
    int rc = read_all(path, &n, &bad);
    g_read_threads = 0;
    ASSERT_TRUE(rc <= 0);
    if (bad) TEST_FAIL_("round %d (%s): %d wrong events of %llu", round,
                        files[round % 4], bad, (unsigned long long)n);
    pt_recover_report rep;
    rc = pt_archive_recover(path, &rep, NULL);
    ASSERT_TRUE(rc <= 0);
    pt__rmtree(path);
  }
  pt__rmtree(dir);
  free(dir);
}

/* A block placed beyond 4 GiB in a sparse file, with ordinals > 2^32. */
TEST(offsets_beyond_4gib) {
  char *dir = test_tmpdir("big");
  char path[4200], ep[4300], ip[4300];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  mkdir(path, 0755);
  snprintf(ep, sizeof ep, "%s/s0.events", path);
  snprintf(ip, sizeof ip, "%s/s0.index", path);
  const uint64_t base = (1ull << 33) + 5, far = 5ull << 30;
  pt__arena a = {0};
  ZSTD_CCtx *cc = ZSTD_createCCtx();
  pt__buf raw = {0}, out = {0};
  pt__ientry e[2];
  int fd = open(ep, O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_TRUE(fd >= 0);
  for (int b = 0; b < 2; b++) {
    /* an events payload: 1-byte delta plane, then the row stream */
    raw.len = 0;
    pt__buf_reserve(&raw, 101);
    raw.p[0] = 1;
    raw.len = 101;
    uint64_t pt = (uint64_t)b * 1000, pl = PT_NONE;
    for (int i = 0; i < 100; i++) {
      pt_event ev;
      pt_event_init(&ev, PT_EV_ENTER, (uint64_t)b * 1000 + (uint64_t)i, 1);
      ev.ref = (uint64_t)i;
      pt__buf_reserve(&raw, 64);
      uint64_t dt;
      raw.len += pt__event_put(raw.p + raw.len, &ev, &pt, &pl, &dt);
      raw.p[1 + i] = (uint8_t)dt;
    }
    pt__blkhdr h = {.type = PT__BLK_EVENTS,
                    .first_ts = (uint64_t)b * 1000,
                    .last_ts = (uint64_t)b * 1000 + 99,
                    .count = 100,
                    .ordinal = base + (uint64_t)b * 100};
    ASSERT_OK(pt__blk_build(&h, raw.p, raw.len, cc, 1, &out));
    uint64_t off = b ? far : 0;
    if (pwrite(fd, out.p, out.len, (off_t)off) != (ssize_t)out.len) {
      /* no sparse files here: skip */
      close(fd);
      goto done;
    }
    e[b] = (pt__ientry){h.first_ts, h.last_ts, off, 100, h.ordinal};
  }
  struct stat sb;
  fstat(fd, &sb);
  close(fd);
  ASSERT_TRUE((uint64_t)sb.st_size > far);
  ASSERT_OK(pt__index_build(e, 2, (uint64_t)sb.st_size, &raw));
  ASSERT_TRUE(pt__write_atomic(ip, raw.p, raw.len) == 0);
  char anchor[4400];
  snprintf(anchor, sizeof anchor, "%s/anchor", path);
  const char *at =
      "format = ptf\nversion = 2\nstate = closed\nstreams = 1\nstream.0 = 1\n";
  ASSERT_TRUE(pt__write_atomic(anchor, at, strlen(at)) == 0);
  pt_reader *r;
  warnings = 0;
  pt_reader_opts o = {.warn = count_warn};
  ASSERT_OK(pt_reader_open(&r, path, &o, NULL));
  ASSERT_EQ_I64(warnings, 0);
  const pt_stream_info *si = pt_reader_stream_info(r, 0);
  ASSERT_EQ_U64(si->events, 200);
  ASSERT_TRUE(si->stored_bytes > far);
  ASSERT_OK(pt_reader_seek(r, 1050));
  pt_event ev;
  ASSERT_OK(pt_reader_next(r, &ev));
  ASSERT_EQ_U64(ev.time, 1050);
  ASSERT_EQ_U64(ev.ref, 50);
  ASSERT_OK(pt_reader_seek(r, 0));
  uint64_t n = 0;
  while (pt_reader_next(r, &ev) == PT_OK) n++;
  ASSERT_EQ_U64(n, 200);
  pt_reader_close(r);
done:
  ZSTD_freeCCtx(cc);
  pt__buf_free(&raw);
  pt__buf_free(&out);
  pt__arena_free(&a);
  pt__rmtree(dir);
  free(dir);
}

TEST(aux_replace_keeps_events) {
  char *dir = test_tmpdir("auxr");
  char path[4200], ep[4300], ip[4300];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  snprintf(ep, sizeof ep, "%s/s0.events", path);
  snprintf(ip, sizeof ip, "%s/s0.index", path);
  make_archive(path, 2);
  size_t elen, ilen;
  char *ev0 = slurp(ep, &elen), *ix0 = slurp(ip, &ilen);
  ASSERT_TRUE(ev0 && ix0);
  pt_error err;
  pt_aux_writer *a;
  ASSERT_STATUS(pt_aux_open(&a, path, 9, PT_ITEM_SUMMARY, &err), PT_ENOTFOUND);
  for (int gen = 1; gen <= 3; gen++) {
    ASSERT_OK(pt_aux_open(&a, path, 0, PT_ITEM_SUMMARY, &err));
    for (int i = 0; i < 1000 * gen; i++) {
      pt_item it = {.type = PT_ITEM_SUMMARY};
      it.u.summary = (pt_summary){(uint64_t)i, 10, PT_SUM_REGION, 0,
                                  (uint64_t)gen, (uint64_t)i, 0, 0, 0, 0};
      ASSERT_OK(pt_aux_add(a, &it));
    }
    pt_item bad = {.type = PT_ITEM_SNAPSHOT};
    ASSERT_STATUS(pt_aux_add(a, &bad), PT_EINVAL);
    pt_item back = {.type = PT_ITEM_SUMMARY};
    ASSERT_STATUS(pt_aux_add(a, &back), PT_EORDER);
    ASSERT_OK(pt_aux_close(a, &err));
    /* an aborted rewrite leaves the previous generation */
    ASSERT_OK(pt_aux_open(&a, path, 0, PT_ITEM_SUMMARY, &err));
    pt_item it = {.type = PT_ITEM_SUMMARY};
    it.u.summary.kind = PT_SUM_REGION;
    ASSERT_OK(pt_aux_add(a, &it));
    pt_aux_abort(a);
    pt_reader *r;
    ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
    ASSERT_TRUE(pt_reader_stream_info(r, 0)->has_summaries);
    ASSERT_CONTAINS(pt_reader_anchor(r, "files"), "s0.sums");
    int n = 0;
    while (pt_reader_aux_next(r, PT_ITEM_SUMMARY, &it) == PT_OK) {
      ASSERT_EQ_U64(it.u.summary.ref, (uint64_t)gen);
      ASSERT_EQ_U64(it.u.summary.count, (uint64_t)n);
      n++;
    }
    ASSERT_EQ_I64(n, 1000 * gen);
    pt_reader_close(r);
  }
  ASSERT_OK(pt_aux_remove(path, 0, PT_ITEM_SUMMARY, &err));
  ASSERT_OK(pt_aux_remove(path, 0, PT_ITEM_SNAPSHOT, &err)); /* absent: ok */
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, path, NULL, NULL));
  ASSERT_TRUE(!pt_reader_stream_info(r, 0)->has_summaries);
  pt_item it;
  ASSERT_STATUS(pt_reader_aux_next(r, PT_ITEM_SUMMARY, &it), PT_END);
  pt_reader_close(r);
  size_t elen1, ilen1;
  char *ev1 = slurp(ep, &elen1), *ix1 = slurp(ip, &ilen1);
  ASSERT_TRUE(ev1 && ix1);
  ASSERT_TRUE(elen1 == elen && memcmp(ev0, ev1, elen) == 0);
  ASSERT_TRUE(ilen1 == ilen && memcmp(ix0, ix1, ilen) == 0);
  free(ev0);
  free(ix0);
  free(ev1);
  free(ix1);
  pt__rmtree(dir);
  free(dir);
}

/* ---- events damaged inside blocks whose checksums hold ------------------ */

/* Event i of stream s in the content-damage test: stream s holds
 * locations s and s + 2 (a location change now and then); mostly
 * enter/leave with small references (the batch fill's fast path), some
 * with references of three varint bytes or more, sends, and events of any
 * kind, some with attributes. */
static void mixed_event(pt__arena *a, uint64_t s, uint64_t i, uint64_t *t,
                        pt_event *ev) {
  rng_seed(7 + 2 * i + s);
  *t += 1 + rndn(rndn(4) ? 300 : 2000000);
  uint64_t loc = s + (rndn(40) == 0 ? 2 : 0);
  uint64_t r = rndn(30);
  if (r < 2) {
    rnd_event(a, ev, PT_EV_SEND, *t, loc, 0);
  } else if (r == 2) {
    rnd_event(a, ev, 0, *t, loc, 2);
  } else {
    pt_event_init(ev, r & 1 ? PT_EV_ENTER : PT_EV_LEAVE, *t, loc);
    ev->ref = rndn(50) ? rndn(200) : 20000 + rndn(100000);
  }
}

/* What a read gave: every event (or run) hashed in order, the final
 * status and message, the warnings. */
typedef struct rdigest {
  uint64_t n, h;
  int rc, warns;
  char msg[512], warn[1024];
} rdigest;

static uint64_t dmix(uint64_t h, uint64_t x) {
  h ^= x + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
  return h * UINT64_C(0xff51afd7ed558ccd);
}

static uint64_t dstr(uint64_t h, const char *p) {
  if (!p) return dmix(h, 1);
  for (; *p; p++) h = dmix(h, (uint8_t)*p);
  return dmix(h, 2);
}

static uint64_t dvalue(uint64_t h, const pt_value *v) {
  h = dmix(h, v->type);
  switch (v->type) {
    case PT_TYPE_STRING: return dstr(h, v->v.s);
    case PT_TYPE_INTS:
      h = dmix(h, v->count);
      for (uint32_t i = 0; i < v->count; i++) h = dmix(h, (uint64_t)v->v.ints[i]);
      return h;
    default: return dmix(h, v->v.u);
  }
}

static uint64_t devent(uint64_t h, const pt_event *e) {
  h = dmix(h, e->time);
  h = dmix(h, e->location);
  h = dmix(h, e->kind);
  h = dmix(h, e->ref);
  h = dmix(h, (uint64_t)e->peer);
  h = dmix(h, e->comm);
  h = dmix(h, (uint64_t)e->tag);
  h = dmix(h, e->size);
  h = dmix(h, e->size2);
  h = dmix(h, e->request);
  h = dvalue(h, &e->value);
  h = dstr(h, e->text);
  h = dmix(h, e->nattrs);
  for (uint32_t i = 0; i < e->nattrs; i++)
    h = dvalue(dmix(h, e->attrs[i].key), &e->attrs[i].val);
  return h;
}

/* Read path with opts o: mode 0 pt_reader_next, 1 pt_reader_next_run, 2
 * a seek to `at` then pt_reader_next. */
static void digest_read(const char *path, const pt_reader_opts *o, int mode,
                        uint64_t at, rdigest *d) {
  memset(d, 0, sizeof *d);
  warnings = 0;
  last_warning[0] = 0;
  pt_reader_opts ro = *o;
  ro.warn = count_warn;
  pt_reader *r;
  pt_error err;
  d->rc = pt_reader_open(&r, path, &ro, &err);
  if (d->rc) {
    snprintf(d->msg, sizeof d->msg, "%s", err.msg);
    return;
  }
  int rc = mode == 2 ? pt_reader_seek(r, at) : PT_OK;
  while (rc == PT_OK) {
    if (mode == 1) {
      pt_event_run run;
      if ((rc = pt_reader_next_run(r, &run)) != PT_OK) break;
      d->h = dmix(dmix(d->h, run.location), run.n);
      if (run.event) {
        d->h = devent(d->h, run.event);
      } else {
        for (size_t i = 0; i < run.n; i++)
          d->h = dmix(dmix(dmix(d->h, run.time[i]), run.ref[i]), run.kind[i]);
      }
      d->n += run.n;
    } else {
      pt_event ev;
      if ((rc = pt_reader_next(r, &ev)) != PT_OK) break;
      d->h = devent(d->h, &ev);
      d->n++;
    }
  }
  d->rc = rc;
  if (rc < 0) snprintf(d->msg, sizeof d->msg, "%s", pt_reader_errmsg(r));
  pt_reader_close(r);
  d->warns = warnings;
  snprintf(d->warn, sizeof d->warn, "%s", last_warning);
}

/* Blocks whose events are damaged but whose checksums were recomputed (so
 * only the event decoder can tell): a reader with prefetching threads
 * gives the same events, runs, errors and warnings as one without, with
 * filters, seeks and one open file at a time. */
TEST(damaged_events_same_with_threads) {
  char *dir = test_tmpdir("dmgev");
  char path[4200];
  snprintf(path, sizeof path, "%s/a.ptf", dir);
  pt_writer *w;
  pt_writer_opts wo = {.level = -1, .block_size = 2048};
  ASSERT_OK(pt_writer_open(&w, path, &wo, NULL));
  pt__arena a = {0};
  uint64_t tmax = 0;
  for (uint64_t s = 0; s < 2; s++) {
    pt_stream *st;
    ASSERT_OK(pt_writer_stream(w, s, &st));
    uint64_t t = 1000;
    for (uint64_t i = 0; i < 4000; i++) {
      pt_event ev;
      pt__arena_reset(&a);
      mixed_event(&a, s, i, &t, &ev);
      ASSERT_OK(pt_stream_event(st, &ev));
    }
    if (t > tmax) tmax = t;
  }
  ASSERT_OK(pt_writer_close(w, NULL));
  pt__arena_free(&a);
  char ev_path[2][4300];
  uint8_t *orig[2];
  size_t len[2];
  for (int s = 0; s < 2; s++) {
    snprintf(ev_path[s], sizeof ev_path[s], "%s/s%d.events", path, s);
    orig[s] = (uint8_t *)slurp(ev_path[s], &len[s]);
    ASSERT_TRUE(orig[s] != NULL);
  }
  uint64_t dmg_rng = 4711;
  int errors = 0, warned = 0;
  for (int round = 0; round < 150; round++) {
    rng_seed(dmg_rng);
    dmg_rng = rnd();
    int s = (int)rndn(2);
    uint8_t *p = malloc(len[s]);
    ASSERT_TRUE(p != NULL);
    memcpy(p, orig[s], len[s]);
    /* the block offsets; damage one block (the last one often) */
    uint64_t offs[4096];
    size_t nb = 0;
    for (uint64_t off = 0; off + PT__BLK_HDR <= len[s] && nb < 4096;
         off += PT__BLK_HDR + pt__get_u32(p + off + 40))
      offs[nb++] = off;
    ASSERT_TRUE(nb > 2);
    uint64_t off = offs[rndn(4) == 0 ? nb - 1 : rndn(nb)];
    uint8_t *h = p + off, *pl = h + PT__BLK_HDR;
    uint32_t stored = pt__get_u32(h + 40);
    ASSERT_EQ_I64(h[5], PT__CODEC_RAW);
    for (int k = 0, nk = 1 + (int)rndn(3); k < nk; k++)
      pl[rndn(stored)] ^= (uint8_t)(1 + rndn(255));
    pt__put_u32(h + 48, pt__crc32c(0, pl, stored));
    pt__put_u32(h + 52, pt__crc32c(0, h, 52));
    FILE *f = fopen(ev_path[s], "wb");
    ASSERT_TRUE(f && fwrite(p, 1, len[s], f) == len[s]);
    fclose(f);
    free(p);
    pt_reader_opts o = {0};
    uint64_t sel = rndn(4);
    if (round % 3 == 1) o.from = rndn(tmax);
    if (round % 5 == 2) o.to = rndn(tmax) + 1;
    if (round % 4 == 3) {
      o.locations = &sel;
      o.nlocations = 1;
    }
    if (round % 2) o.max_open_files = 1;
    uint64_t at = rndn(tmax + 2);
    for (int mode = 0; mode < 3; mode++) {
      rdigest d0, d1;
      o.threads = 0;
      digest_read(path, &o, mode, at, &d0);
      o.threads = 1;
      digest_read(path, &o, mode, at, &d1);
      if (d0.n != d1.n || d0.h != d1.h || d0.rc != d1.rc ||
          strcmp(d0.msg, d1.msg) || d0.warns != d1.warns ||
          strcmp(d0.warn, d1.warn))
        TEST_FAIL_("round %d, mode %d: %llu events, %s '%s', %d warnings "
                   "'%s' inline; %llu, %s '%s', %d '%s' with a thread",
                   round, mode, (unsigned long long)d0.n,
                   pt_status_name(d0.rc), d0.msg, d0.warns, d0.warn,
                   (unsigned long long)d1.n, pt_status_name(d1.rc), d1.msg,
                   d1.warns, d1.warn);
      errors += d0.rc < 0;
      warned += d0.warns > 0;
    }
  }
  /* the damage was met both ways: errors and damaged-last-block warnings */
  ASSERT_TRUE(errors > 0);
  ASSERT_TRUE(warned > 0);
  for (int s = 0; s < 2; s++) free(orig[s]);
  pt__rmtree(dir);
  free(dir);
}

int main(void) {
  RUN(crash_then_recover);
  RUN(damaged_blocks);
  RUN(random_damage_never_crashes);
  RUN(damaged_events_same_with_threads);
  RUN(offsets_beyond_4gib);
  RUN(aux_replace_keeps_events);
  return test_summary();
}
