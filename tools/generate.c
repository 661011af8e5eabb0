/* paratrace generate: write a synthetic PTF archive from the deterministic
 * generator (include/paratrace/generate.h), one stream per location,
 * streams written by parallel threads. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "paratrace/generate.h"

static const char help[] =
    "usage: paratrace generate -o OUT --locations P --events N [options]\n"
    "\n"
    "Write a synthetic native archive: P locations (one MPI rank each), N\n"
    "events per location, deterministic for a seed: nested regions, a\n"
    "message exchange with the neighbour ranks every K events, metric\n"
    "samples.  One stream per location.  The result passes `check`.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT    the archive to write (conventionally NAME.ptf)\n"
    "  --locations P       number of locations (>= 1)\n"
    "  --events N          events per location\n"
    "  --seed S            seed (default 1)\n"
    "  --regions R         number of user regions (default 16)\n"
    "  --msg-every K       a message exchange every K events (>= 4;\n"
    "                      default 50)\n"
    "  --metric-every M    a metric sample every M events (default 100)\n"
    "  -j, --jobs J        writer threads (default: number of CPUs, at most\n"
    "                      P)\n"
    "  --force             replace OUT if it exists\n"
    "  -q, --quiet         no progress bar\n"
    "  -h, --help\n";

enum {
  O_OUT = 1, O_LOCS, O_EVENTS, O_SEED, O_REGIONS, O_MSG, O_METRIC, O_JOBS,
  O_FORCE
};
static const cli_option options[] = {
    {"output", 'o', 1, O_OUT},       {"locations", 0, 1, O_LOCS},
    {"events", 0, 1, O_EVENTS},      {"seed", 0, 1, O_SEED},
    {"regions", 0, 1, O_REGIONS},    {"msg-every", 0, 1, O_MSG},
    {"metric-every", 0, 1, O_METRIC}, {"jobs", 'j', 1, O_JOBS},
    {"force", 0, 0, O_FORCE},        {0, 0, 0, 0}};

typedef struct shared {
  pt_gen *gen;
  pt_writer *w;
  uint64_t nlocs;
  uint64_t next_loc; /* atomic: next location to write */
  uint64_t events;   /* atomic: events written (for the progress bar) */
  int failed;        /* atomic */
  pthread_mutex_t lock;
  char err[600];     /* first error, under lock */
} shared;

static void set_error(shared *sh, const char *msg) {
  pthread_mutex_lock(&sh->lock);
  if (!sh->err[0]) snprintf(sh->err, sizeof sh->err, "%s", msg);
  pthread_mutex_unlock(&sh->lock);
  __atomic_store_n(&sh->failed, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg) {
  shared *sh = arg;
  for (;;) {
    uint64_t loc = __atomic_fetch_add(&sh->next_loc, 1, __ATOMIC_RELAXED);
    if (loc >= sh->nlocs || __atomic_load_n(&sh->failed, __ATOMIC_RELAXED))
      break;
    pt_stream *s = NULL;
    int rc = pt_writer_stream(sh->w, loc, &s);
    if (rc < 0) {
      set_error(sh, pt_writer_errmsg(sh->w));
      break;
    }
    pt_event ev;
    uint64_t n = 0;
    while ((rc = pt_gen_next(sh->gen, loc, &ev)) == PT_OK) {
      rc = pt_stream_event(s, &ev);
      if (rc < 0) {
        set_error(sh, pt_stream_errmsg(s));
        return NULL;
      }
      if (++n == 4096) {
        __atomic_fetch_add(&sh->events, n, __ATOMIC_RELAXED);
        n = 0;
        if (__atomic_load_n(&sh->failed, __ATOMIC_RELAXED)) return NULL;
      }
    }
    __atomic_fetch_add(&sh->events, n, __ATOMIC_RELAXED);
    if (rc < 0) {
      char m[64];
      snprintf(m, sizeof m, "generator: %s", pt_strerror(rc));
      set_error(sh, m);
      break;
    }
  }
  return NULL;
}

int cmd_generate(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *out = NULL;
  pt_gen_opts go = {0};
  go.seed = 1;
  uint64_t v, jobs = 0;
  int have_p = 0, have_n = 0, force = 0, id;
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case CLI_ARG: return cli_usage("unexpected argument '%s'", val);
      case O_OUT: out = val; break;
      case O_FORCE: force = 1; break;
      default:
        if (cli_parse_u64(val, &v))
          return cli_usage("bad number '%s' for --%s", val,
                           options[id - 1].name);
        switch (id) {
          case O_LOCS:
            if (v == 0 || v > (UINT64_C(1) << 24))
              return cli_usage("--locations must be 1 .. 16777216");
            go.locations = v;
            have_p = 1;
            break;
          case O_EVENTS: go.events = v; have_n = 1; break;
          case O_SEED: go.seed = v; break;
          case O_REGIONS:
            if (v == 0 || v > (1u << 20))
              return cli_usage("--regions must be 1 .. 1048576");
            go.regions = (uint32_t)v;
            break;
          case O_MSG:
            if (v < 4 || v > UINT32_MAX)
              return cli_usage("--msg-every must be at least 4");
            go.msg_every = (uint32_t)v;
            break;
          case O_METRIC:
            if (v == 0 || v > UINT32_MAX)
              return cli_usage("--metric-every must be at least 1");
            go.metric_every = (uint32_t)v;
            break;
          case O_JOBS:
            if (v == 0 || v > 1024) return cli_usage("--jobs must be 1 .. 1024");
            jobs = v;
            break;
        }
    }
  }
  if (!out) return cli_usage("missing -o OUT");
  if (!have_p) return cli_usage("missing --locations P");
  if (!have_n) return cli_usage("missing --events N");
  if (!jobs) {
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = ncpu > 0 ? (uint64_t)ncpu : 1;
    if (jobs > 64) jobs = 64;
  }
  if (jobs > go.locations) jobs = go.locations;

  shared sh;
  memset(&sh, 0, sizeof sh);
  sh.nlocs = go.locations;
  pthread_mutex_init(&sh.lock, NULL);
  int rc = pt_gen_create(&sh.gen, &go);
  if (rc < 0) {
    pthread_mutex_destroy(&sh.lock);
    return cli_fail(out, "generator: %s", pt_strerror(rc));
  }

  /* The archive is written under a temporary name next to OUT and renamed
   * into place by pt_writer_close (overwrite = 1), as convert's output:
   * a run killed or failing midway leaves no half-written OUT.  Without
   * --force an existing OUT is refused here (and again before the rename). */
  struct stat ost;
  if (!force && lstat(out, &ost) == 0) {
    pt_gen_destroy(sh.gen);
    pthread_mutex_destroy(&sh.lock);
    return cli_fail(out, "already exists (not overwritten); use --force to "
                         "replace it");
  }
  pt_writer_opts wo = {0};
  wo.creator = "paratrace generate";
  wo.overwrite = 1;
  pt_error err = {0};
  cli_catch_stop(); /* a signal stops the workers; the temporary is removed */
  rc = pt_writer_open(&sh.w, out, &wo, &err);
  if (rc < 0) {
    pt_gen_destroy(sh.gen);
    pthread_mutex_destroy(&sh.lock);
    return cli_fail(out, "%s", err.msg[0] ? err.msg : pt_strerror(rc));
  }
  int status = CLI_OK;
  for (size_t i = 0; i < pt_gen_ndefs(sh.gen); i++) {
    rc = pt_writer_def(sh.w, pt_gen_def(sh.gen, i));
    if (rc < 0) {
      status = cli_fail(out, "%s", pt_writer_errmsg(sh.w));
      break;
    }
  }

  if (status == CLI_OK) {
    cli_progress bar;
    cli_progress_start(&bar, "generate", go.locations * go.events);
    pthread_t *tids = calloc(jobs, sizeof *tids);
    uint64_t started = 0;
    if (!tids) set_error(&sh, "out of memory");
    for (; tids && started < jobs; started++)
      if (pthread_create(&tids[started], NULL, worker, &sh) != 0) {
        set_error(&sh, "cannot start a thread");
        break;
      }
    if (started) {
      /* Poll the shared counter for the bar until the workers are done. */
      while (__atomic_load_n(&sh.next_loc, __ATOMIC_RELAXED) < sh.nlocs +
                                                                   started &&
             !__atomic_load_n(&sh.failed, __ATOMIC_RELAXED)) {
        if (cli_stopped()) {
          set_error(&sh, "interrupted");
          break;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
        cli_progress_update(&bar,
                            __atomic_load_n(&sh.events, __ATOMIC_RELAXED));
      }
    }
    for (uint64_t i = 0; i < started; i++) pthread_join(tids[i], NULL);
    free(tids);
    cli_progress_end(&bar);
    if (sh.failed) status = cli_fail(out, "%s", sh.err);
  }

  if (status == CLI_OK && cli_stopped()) status = cli_fail(out, "interrupted");
  if (status == CLI_OK && !force && lstat(out, &ost) == 0) {
    /* appeared while writing: not ours to replace */
    pt_writer_abort(sh.w);
    sh.w = NULL;
    status = cli_fail(out, "appeared while writing; not overwritten");
  } else if (status == CLI_OK) {
    rc = pt_writer_close(sh.w, &err);
    if (rc < 0)
      status = cli_fail(out, "%s", err.msg[0] ? err.msg : pt_strerror(rc));
  } else {
    pt_writer_abort(sh.w);
  }
  if (status == CLI_OK && !cli.quiet)
    printf("%s: %" PRIu64 " locations x %" PRIu64 " events\n", out,
           go.locations, go.events);
  pt_gen_destroy(sh.gen);
  pthread_mutex_destroy(&sh.lock);
  if (status != CLI_OK) cli_stop_reraise(); /* the temporary is gone */
  return status;
}
