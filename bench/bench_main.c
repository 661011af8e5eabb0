/* paratrace-bench: PTF vs OTF2 side by side, in one run.
 *
 *   paratrace-bench [--locations P] [--events N] [--seed S] [--dir D]
 *                   [--repeat K] [--seeks M] [--seek-case]
 *                   [--seek-events T] [--cold] [--keep] [--no-default]
 *
 * For every case: the generator alone, PTF write, OTF2 write, archive
 * sizes, merged reads of both with a checksum that must agree, and random
 * PTF seeks.  Each phase runs in a forked child (own peak RSS).  Prints one
 * JSON object per case on stdout; progress on stderr.  Exits 1 if any
 * phase fails or the checksums disagree. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

void bench_errf(phase_result *res, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->err, sizeof res->err, fmt, ap);
  va_end(ap);
}

typedef struct par_arg {
  int j, threads;
  uint64_t nloc;
  bench_loc_fn fn;
  void *ctx;
  phase_result r; /* this thread's error */
  int rc;
} par_arg;

static void *par_main(void *p) {
  par_arg *a = p;
  uint64_t step = (uint64_t)a->threads;
  for (uint64_t loc = (uint64_t)a->j; loc < a->nloc; loc += step)
    if ((a->rc = a->fn(a->ctx, loc, &a->r)) != 0) break;
  return NULL;
}

int bench_parallel(int threads, uint64_t nloc, bench_loc_fn fn, void *ctx,
                   phase_result *res) {
  if (threads <= 1) {
    for (uint64_t loc = 0; loc < nloc; loc++)
      if (fn(ctx, loc, res)) return -1;
    return 0;
  }
  par_arg *a = calloc((size_t)threads, sizeof *a);
  pthread_t *t = calloc((size_t)threads, sizeof *t);
  int rc = 0, started = 0;
  if (!a || !t) {
    bench_errf(res, "out of memory");
    rc = -1;
    goto out;
  }
  for (int j = 0; j < threads; j++) {
    a[j] = (par_arg){.j = j, .threads = threads, .nloc = nloc, .fn = fn,
                     .ctx = ctx};
    if (pthread_create(&t[j], NULL, par_main, &a[j]) != 0) {
      bench_errf(res, "pthread_create failed");
      rc = -1;
      break;
    }
    started++;
  }
  for (int j = 0; j < started; j++) {
    pthread_join(t[j], NULL);
    if (a[j].rc && !rc) {
      memcpy(res->err, a[j].r.err, sizeof res->err);
      rc = -1;
    }
  }
out:
  free(a);
  free(t);
  return rc;
}

/* ---- files ---------------------------------------------------------------- */

static uint64_t du_apparent, du_disk;

static int du_cb(const char *p, const struct stat *st, int flag,
                 struct FTW *f) {
  (void)p, (void)f;
  if (flag == FTW_F) du_apparent += (uint64_t)st->st_size;
  du_disk += (uint64_t)st->st_blocks * 512;
  return 0;
}

int bench_du(const char *path, uint64_t *apparent, uint64_t *disk) {
  du_apparent = du_disk = 0;
  if (nftw(path, du_cb, 16, FTW_PHYS) != 0) return -1;
  *apparent = du_apparent;
  *disk = du_disk;
  return 0;
}

static int rm_cb(const char *p, const struct stat *st, int flag,
                 struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(p) == 0 ? 0 : -1;
}

int bench_rmtree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
  return nftw(path, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static int drop_cb(const char *p, const struct stat *st, int flag,
                   struct FTW *f) {
  (void)st, (void)f;
  if (flag != FTW_F) return 0;
  int fd = open(p, O_RDONLY);
  if (fd < 0) return -1;
  fdatasync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
  return 0;
}

int bench_drop_cache(const char *path) {
  return nftw(path, drop_cb, 16, FTW_PHYS);
}

/* ---- phases in children ---------------------------------------------------- */

typedef int (*phase_fn)(const bench_case *, phase_result *);

static int run_phase(const char *what, phase_fn fn, const bench_case *c,
                     phase_result *res) {
  int fds[2];
  memset(res, 0, sizeof *res);
  fflush(NULL);
  if (pipe(fds) != 0) {
    perror("pipe");
    exit(2);
  }
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    close(fds[0]);
    phase_result r;
    memset(&r, 0, sizeof r);
    r.ok = fn(c, &r) == 0;
    ssize_t n = write(fds[1], &r, sizeof r);
    _exit(n == (ssize_t)sizeof r ? 0 : 3);
  }
  close(fds[1]);
  size_t got = 0;
  while (got < sizeof *res) {
    ssize_t n = read(fds[0], (char *)res + got, sizeof *res - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fds[0]);
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  if (got != sizeof *res || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    memset(res, 0, sizeof *res);
    if (WIFSIGNALED(status))
      snprintf(res->err, sizeof res->err, "child killed by signal %d (%s)",
               WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
      snprintf(res->err, sizeof res->err, "child failed (status %d)", status);
  }
  res->rss_kb = ru.ru_maxrss;
  res->cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
               (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
  fprintf(stderr, "  %-12s %s %8.3f s  cpu %7.3f s  rss %7ld KiB%s%s\n",
          what, res->ok ? "ok  " : "FAIL", res->secs, res->cpu_s, res->rss_kb,
          res->ok ? "" : "  ", res->err);
  return res->ok ? 0 : -1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- one case ---------------------------------------------------------------- */

typedef struct options {
  uint64_t locations, events, seed, seek_events;
  const char *dir;
  int repeat, seeks, seek_case, cold, keep, no_default, threads;
} options;

#define REPS 64

static int same_sum(const bench_sum *a, const bench_sum *b) {
  return a->count == b->count && a->time_sum == b->time_sum &&
         a->hash_sum == b->hash_sum;
}

/* Runs one case; prints its JSON line.  Returns 0 if every phase worked and
 * every checksum agreed. */
static int run_case(const options *o, bench_case *c) {
  int K = o->repeat, bad = 0;
  double gen[REPS], pw[REPS], ow[REPS], pr[REPS], orr[REPS], pb[REPS];
  double gen_c[REPS], pw_c[REPS], ow_c[REPS], pr_c[REPS], or_c[REPS],
      pb_c[REPS], rb[REPS], rb_c[REPS];
  long rb_rss = 0;
  long pb_rss = 0;
  uint64_t pb_bytes = 0;
  long pw_rss = 0, ow_rss = 0, pr_rss = 0, or_rss = 0, gen_rss = 0;
  phase_result r, gen_r, pr_r, or_r, seek_r, rb_r;
  memset(&pr_r, 0, sizeof pr_r);
  memset(&rb_r, 0, sizeof rb_r);
  memset(&or_r, 0, sizeof or_r);
  memset(&seek_r, 0, sizeof seek_r);
  uint64_t total = c->locations * c->events;

  snprintf(c->ptf_path, sizeof c->ptf_path, "%s/%s.ptf", c->dir, c->name);
  snprintf(c->otf2_path, sizeof c->otf2_path, "%s/%s.otf2", c->dir, c->name);
  fprintf(stderr,
          "case %s: %" PRIu64 " locations x %" PRIu64 " events (%" PRIu64
          " total), seed %" PRIu64 ", %d writer thread(s), dir %s\n",
          c->name, c->locations, c->events, total, c->seed, c->threads, c->dir);

  for (int k = 0; k < K; k++) {
    if (run_phase("generate", bench_gen, c, &gen_r)) return -1;
    gen[k] = gen_r.secs;
    gen_c[k] = gen_r.cpu_s;
    if (gen_r.rss_kb > gen_rss) gen_rss = gen_r.rss_kb;
  }
  for (int k = 0; k < K; k++) {
    /* the archive compressed by one background thread, then inline (the
     * one that is read back); both must be the same bytes */
    bench_case cb = *c;
    cb.cthreads = 1;
    bench_rmtree(c->ptf_path);
    if (run_phase("ptf_write_bg", bench_ptf_write, &cb, &r)) return -1;
    pb[k] = r.secs;
    pb_c[k] = r.cpu_s;
    if (r.rss_kb > pb_rss) pb_rss = r.rss_kb;
    uint64_t disk;
    if (k == 0 && bench_du(c->ptf_path, &pb_bytes, &disk)) pb_bytes = 0;
    bench_rmtree(c->ptf_path);
    if (run_phase("ptf_write", bench_ptf_write, c, &r)) return -1;
    pw[k] = r.secs;
    pw_c[k] = r.cpu_s;
    if (r.rss_kb > pw_rss) pw_rss = r.rss_kb;
    bench_rmtree(c->otf2_path);
    if (run_phase("otf2_write", bench_otf2_write, c, &r)) return -1;
    ow[k] = r.secs;
    ow_c[k] = r.cpu_s;
    if (r.rss_kb > ow_rss) ow_rss = r.rss_kb;
  }
  uint64_t ptf_bytes = 0, ptf_disk = 0, otf2_bytes = 0, otf2_disk = 0;
  if (bench_du(c->ptf_path, &ptf_bytes, &ptf_disk) ||
      bench_du(c->otf2_path, &otf2_bytes, &otf2_disk)) {
    fprintf(stderr, "cannot measure archive sizes: %s\n", strerror(errno));
    return -1;
  }

  for (int k = 0; k < K; k++) {
    if (o->cold) bench_drop_cache(c->ptf_path);
    if (run_phase("ptf_read", bench_ptf_read, c, &pr_r)) return -1;
    pr[k] = pr_r.secs;
    pr_c[k] = pr_r.cpu_s;
    if (pr_r.rss_kb > pr_rss) pr_rss = pr_r.rss_kb;
    if (o->cold) bench_drop_cache(c->otf2_path);
    if (run_phase("otf2_read", bench_otf2_read, c, &or_r)) return -1;
    orr[k] = or_r.secs;
    or_c[k] = or_r.cpu_s;
    if (or_r.rss_kb > or_rss) or_rss = or_r.rss_kb;
    /* the same archive read with one prefetching thread */
    bench_case cb = *c;
    cb.cthreads = 1;
    if (o->cold) bench_drop_cache(c->ptf_path);
    if (run_phase("ptf_read_bg", bench_ptf_read, &cb, &rb_r)) return -1;
    rb[k] = rb_r.secs;
    rb_c[k] = rb_r.cpu_s;
    if (rb_r.rss_kb > rb_rss) rb_rss = rb_r.rss_kb;
  }
  if (o->cold) bench_drop_cache(c->ptf_path);
  if (run_phase("ptf_seek", bench_ptf_seek, c, &seek_r)) return -1;

  /* The checks: both readers saw every generated event, the same content,
   * in non-decreasing time. */
  if (gen_r.sum.count != total || pr_r.sum.count != total ||
      or_r.sum.count != total) {
    fprintf(stderr,
            "CHECK FAILED: event counts: generated %" PRIu64 ", PTF %" PRIu64
            ", OTF2 %" PRIu64 ", expected %" PRIu64 "\n",
            gen_r.sum.count, pr_r.sum.count, or_r.sum.count, total);
    bad = 1;
  }
  if (gen_r.sum.time_sum != pr_r.sum.time_sum ||
      gen_r.sum.time_sum != or_r.sum.time_sum) {
    fprintf(stderr,
            "CHECK FAILED: time sums: generated %" PRIu64 ", PTF %" PRIu64
            ", OTF2 %" PRIu64 "\n",
            gen_r.sum.time_sum, pr_r.sum.time_sum, or_r.sum.time_sum);
    bad = 1;
  }
  if (!same_sum(&pr_r.sum, &rb_r.sum) || rb_r.sum.order_errs) {
    fprintf(stderr,
            "CHECK FAILED: PTF read with a prefetching thread differs: %016" PRIx64
            " vs %016" PRIx64 "\n",
            rb_r.sum.hash_sum, pr_r.sum.hash_sum);
    bad = 1;
  }
  if (!same_sum(&pr_r.sum, &or_r.sum)) {
    fprintf(stderr,
            "CHECK FAILED: content hashes differ: PTF %016" PRIx64
            ", OTF2 %016" PRIx64 "\n",
            pr_r.sum.hash_sum, or_r.sum.hash_sum);
    bad = 1;
  }
  if (pb_bytes != ptf_bytes) {
    fprintf(stderr,
            "CHECK FAILED: PTF archive of %" PRIu64 " bytes with a compression "
            "thread, %" PRIu64 " without\n",
            pb_bytes, ptf_bytes);
    bad = 1;
  }
  if (pr_r.sum.order_errs || or_r.sum.order_errs) {
    fprintf(stderr,
            "CHECK FAILED: events out of global time order: PTF %" PRIu64
            ", OTF2 %" PRIu64 "\n",
            pr_r.sum.order_errs, or_r.sum.order_errs);
    bad = 1;
  }

  double gen_s = median(gen, K), ptf_w = median(pw, K), otf2_w = median(ow, K);
  double ptf_r = median(pr, K), otf2_r = median(orr, K);
  double ptf_wn = ptf_w - gen_s, otf2_wn = otf2_w - gen_s;
  double ptf_b = median(pb, K), ptf_bn = ptf_b - gen_s;
  double ptf_rb = median(rb, K);
  double ev = total ? (double)total : 1;
  printf(
      "{\"case\":\"%s\",\"locations\":%" PRIu64 ",\"events\":%" PRIu64
      ",\"total_events\":%" PRIu64 ",\"seed\":%" PRIu64
      ",\"repeat\":%d,\"threads\":%d,\"cache\":\"%s\""
      ",\"gen_s\":%.3f,\"ptf_write_s\":%.3f,\"otf2_write_s\":%.3f"
      ",\"ptf_write_net_s\":%.3f,\"otf2_write_net_s\":%.3f"
      ",\"ptf_read_s\":%.3f,\"otf2_read_s\":%.3f"
      ",\"ptf_bytes\":%" PRIu64 ",\"otf2_bytes\":%" PRIu64
      ",\"ptf_disk_bytes\":%" PRIu64 ",\"otf2_disk_bytes\":%" PRIu64
      ",\"ptf_bytes_per_event\":%.3f,\"otf2_bytes_per_event\":%.3f"
      ",\"ptf_seek_ms\":%.3f,\"ptf_seek_max_ms\":%.3f,\"seeks\":%d"
      ",\"gen_rss_kb\":%ld,\"ptf_write_rss_kb\":%ld,\"otf2_write_rss_kb\":%ld"
      ",\"ptf_read_rss_kb\":%ld,\"otf2_read_rss_kb\":%ld"
      ",\"ptf_read_mev_s\":%.2f,\"otf2_read_mev_s\":%.2f"
      ",\"write_speedup\":%.3f,\"write_speedup_net\":%.3f"
      ",\"read_speedup\":%.3f,\"size_ratio\":%.3f"
      ",\"ptf_write_bg_s\":%.3f,\"ptf_write_bg_net_s\":%.3f"
      ",\"ptf_write_bg_rss_kb\":%ld,\"write_bg_speedup_net\":%.3f"
      ",\"gen_cpu_s\":%.3f,\"ptf_write_cpu_s\":%.3f,\"ptf_write_bg_cpu_s\":%.3f"
      ",\"otf2_write_cpu_s\":%.3f,\"ptf_read_cpu_s\":%.3f,\"otf2_read_cpu_s\":%.3f"
      ",\"ptf_read_bg_s\":%.3f,\"ptf_read_bg_cpu_s\":%.3f,\"ptf_read_bg_rss_kb\":%ld"
      ",\"read_bg_speedup\":%.3f"
      ",\"checksum_count\":%" PRIu64 ",\"checksum_time_sum\":%" PRIu64
      ",\"checksum_hash\":\"%016" PRIx64 "\",\"ok\":%s}\n",
      c->name, c->locations, c->events, total, c->seed, K, c->threads,
      o->cold ? "cold" : "warm", gen_s, ptf_w, otf2_w, ptf_wn, otf2_wn, ptf_r,
      otf2_r, ptf_bytes, otf2_bytes, ptf_disk, otf2_disk,
      (double)ptf_bytes / ev, (double)otf2_bytes / ev, seek_r.seek_med_ms,
      seek_r.seek_max_ms, c->seeks, gen_rss, pw_rss, ow_rss, pr_rss, or_rss,
      ev / ptf_r / 1e6, ev / otf2_r / 1e6, otf2_w / ptf_w,
      ptf_wn > 0 ? otf2_wn / ptf_wn : 0.0, otf2_r / ptf_r,
      ptf_bytes ? (double)otf2_bytes / (double)ptf_bytes : 0.0, ptf_b, ptf_bn,
      pb_rss, ptf_bn > 0 ? otf2_wn / ptf_bn : 0.0, median(gen_c, K),
      median(pw_c, K), median(pb_c, K), median(ow_c, K), median(pr_c, K),
      median(or_c, K), ptf_rb, median(rb_c, K), rb_rss,
      ptf_rb > 0 ? otf2_r / ptf_rb : 0.0, pr_r.sum.count, pr_r.sum.time_sum, pr_r.sum.hash_sum,
      bad ? "false" : "true");
  fflush(stdout);
  return bad ? -1 : 0;
}

/* ---- main ------------------------------------------------------------------ */

static void usage(FILE *f) {
  fprintf(f,
          "usage: paratrace-bench [options]\n"
          "  --locations P    locations (streams) per case      [4]\n"
          "  --events N       events per location, default case [10000000]\n"
          "  --seed S         generator seed                    [1]\n"
          "  --dir D          where archives go  [$TMPDIR or /tmp]/paratrace-bench-PID\n"
          "  --repeat K       repetitions per phase; medians reported [1]\n"
          "  --seeks M        random seeks timed                [100]\n"
          "  --threads T      writer threads (locations dealt round robin) [1]\n"
          "  --seek-case      also run the large seek case\n"
          "  --seek-events T  total events of the seek case     [100000000]\n"
          "  --no-default     skip the default case\n"
          "  --cold           drop the archives from the page cache before reads\n"
          "  --keep           keep the archives\n");
}

static uint64_t parse_u64(const char *opt, const char *s) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s ? s : "", &end, 10);
  if (!s || !*s || *end || errno || s[0] == '-') {
    fprintf(stderr, "paratrace-bench: %s needs a non-negative integer\n", opt);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  options o = {.locations = 4, .events = 10000000, .seed = 1,
               .seek_events = 100000000, .repeat = 1, .seeks = 100,
               .threads = 1};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--locations")) o.locations = parse_u64(a, v), i++;
    else if (!strcmp(a, "--events")) o.events = parse_u64(a, v), i++;
    else if (!strcmp(a, "--seed")) o.seed = parse_u64(a, v), i++;
    else if (!strcmp(a, "--dir")) {
      if (!v) { usage(stderr); return 2; }
      o.dir = v, i++;
    }
    else if (!strcmp(a, "--repeat")) o.repeat = (int)parse_u64(a, v), i++;
    else if (!strcmp(a, "--seeks")) o.seeks = (int)parse_u64(a, v), i++;
    else if (!strcmp(a, "--seek-events")) o.seek_events = parse_u64(a, v), i++;
    else if (!strcmp(a, "--threads")) o.threads = (int)parse_u64(a, v), i++;
    else if (!strcmp(a, "--seek-case")) o.seek_case = 1;
    else if (!strcmp(a, "--no-default")) o.no_default = 1;
    else if (!strcmp(a, "--cold")) o.cold = 1;
    else if (!strcmp(a, "--keep")) o.keep = 1;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
    else { usage(stderr); return 2; }
  }
  if (o.locations == 0 || o.threads < 1 || o.threads > 1024 ||
      o.repeat < 1 || o.repeat > REPS || o.seeks < 1 || o.seeks > 1000000) {
    fprintf(stderr,
            "paratrace-bench: need locations >= 1, 1 <= threads <= 1024, "
            "1 <= repeat <= %d, 1 <= seeks <= 1000000\n",
            REPS);
    return 2;
  }

  char dir[4096];
  int made_dir = 0;
  if (o.dir) {
    snprintf(dir, sizeof dir, "%s", o.dir);
    if (mkdir(dir, 0777) == 0) made_dir = 1;
    else if (errno != EEXIST) {
      fprintf(stderr, "paratrace-bench: mkdir %s: %s\n", dir, strerror(errno));
      return 2;
    }
  } else {
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/paratrace-bench-%ld", t && *t ? t : "/tmp",
             (long)getpid());
    if (mkdir(dir, 0777) != 0) {
      fprintf(stderr, "paratrace-bench: mkdir %s: %s\n", dir, strerror(errno));
      return 2;
    }
    made_dir = 1;
  }

  int rc = 0;
  if (!o.no_default) {
    bench_case c = {.name = "default", .locations = o.locations,
                    .events = o.events, .seed = o.seed, .dir = dir,
                    .seeks = o.seeks, .threads = o.threads};
    if (run_case(&o, &c)) rc = 1;
    if (!o.keep) bench_rmtree(c.ptf_path), bench_rmtree(c.otf2_path);
  }
  if (o.seek_case) {
    bench_case c = {.name = "seek", .locations = o.locations,
                    .events = o.seek_events / o.locations, .seed = o.seed,
                    .dir = dir, .seeks = o.seeks, .threads = o.threads};
    if (run_case(&o, &c)) rc = 1;
    if (!o.keep) bench_rmtree(c.ptf_path), bench_rmtree(c.otf2_path);
  }
  if (!o.keep && made_dir) rmdir(dir);
  if (rc) fprintf(stderr, "paratrace-bench: FAILED\n");
  return rc;
}
