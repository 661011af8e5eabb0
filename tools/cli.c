/* Shared helpers of the subcommands (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

cli_globals cli = {"paratrace", 0};
const cli_par *cli_parallel;

/* ---- option parsing ------------------------------------------------------ */

void cli_parser_init(cli_parser *p, int argc, char **argv,
                     const cli_option *opts) {
  p->argc = argc;
  p->argv = argv;
  p->i = 1;
  p->opts = opts;
  p->only_args = 0;
  p->trace = NULL;
}

void cli_parser_trace(cli_parser *p, const char **trace) { p->trace = trace; }

int cli_next(cli_parser *p, const char **value) {
  *value = NULL;
  for (;;) {
    if (p->i >= p->argc) return CLI_END;
    char *a = p->argv[p->i++];
    if (p->only_args || a[0] != '-' || a[1] == 0) { /* "-" is an argument */
      if (!p->trace) {
        *value = a;
        return CLI_ARG;
      }
      if (*p->trace) {
        cli_usage("one trace at a time");
        return CLI_ERROR;
      }
      *p->trace = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      p->only_args = 1;
      continue;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return CLI_HELP;
    if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      cli.quiet = 1;
      continue;
    }
    const cli_option *o = NULL;
    const char *inline_val = NULL;
    if (a[1] == '-') {
      const char *name = a + 2;
      size_t len = strcspn(name, "=");
      for (const cli_option *q = p->opts; q && q->name; q++)
        if (strlen(q->name) == len && strncmp(q->name, name, len) == 0) {
          o = q;
          break;
        }
      if (!o) {
        cli_usage("unknown option '--%.*s'", (int)len, name);
        return CLI_ERROR;
      }
      if (name[len] == '=') {
        if (!o->has_arg) {
          cli_usage("option '--%s' takes no value", o->name);
          return CLI_ERROR;
        }
        inline_val = name + len + 1;
      }
    } else {
      for (const cli_option *q = p->opts; q && q->name; q++)
        if (q->short_name && q->short_name == a[1]) {
          o = q;
          break;
        }
      if (!o) {
        cli_usage("unknown option '-%c'", a[1]);
        return CLI_ERROR;
      }
      if (a[2]) {
        if (!o->has_arg) {
          cli_usage("option '-%c' takes no value", a[1]);
          return CLI_ERROR;
        }
        inline_val = a + 2;
      }
    }
    if (o->has_arg && !inline_val) {
      if (p->i >= p->argc) {
        cli_usage("option '--%s' needs a value", o->name);
        return CLI_ERROR;
      }
      inline_val = p->argv[p->i++];
    }
    *value = inline_val;
    return o->id;
  }
}

/* ---- messages ------------------------------------------------------------ */

int cli_fail(const char *file, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *m = msg;
  if (file) {
    /* "FILE: reason" is not doubled; "FILE:line:col: reason" and
     * "FILE/part: reason" already name the file: print them as they are. */
    size_t n = strlen(file);
    if (strncmp(m, file, n) == 0 && m[n] == ':') {
      if (m[n + 1] == ' ')
        m += n + 2;
      else
        file = NULL;
    } else if (strncmp(m, file, n) == 0 && m[n] == '/') {
      file = NULL; /* names a file inside FILE (an archive's part) */
    }
  }
  /* keep it to one line */
  for (char *c = msg; *c; c++)
    if (*c == '\n') *c = ' ';
  if (file)
    fprintf(stderr, "paratrace %s: %s: %s\n", cli.cmd, file, m);
  else
    fprintf(stderr, "paratrace %s: %s\n", cli.cmd, m);
  return CLI_FAIL;
}

int cli_usage(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "paratrace %s: %s\nTry 'paratrace %s --help'.\n", cli.cmd,
          msg, cli.cmd);
  return CLI_USAGE;
}

int cli_help(const char *text) {
  fputs(text, stdout);
  return CLI_OK;
}

/* ---- values -------------------------------------------------------------- */

int cli_parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = (uint64_t)v;
  return 0;
}

int cli_parse_time(const char *s, cli_time *out) {
  memset(out, 0, sizeof *out);
  if (!s || !*s) return -1;
  size_t n = strlen(s);
  static const struct {
    const char *suffix;
    double scale;
  } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
    size_t k = strlen(units[u].suffix);
    if (n <= k || strcmp(s + n - k, units[u].suffix) != 0) continue;
    char num[64];
    if (n - k >= sizeof num) return -1;
    memcpy(num, s, n - k);
    num[n - k] = 0;
    if (!(num[0] >= '0' && num[0] <= '9') && num[0] != '.') return -1;
    errno = 0;
    char *end;
    double v = strtod(num, &end);
    if (errno || *end || !isfinite(v) || v < 0) return -1;
    out->set = 1;
    out->has_unit = 1;
    out->seconds = v * units[u].scale;
    return 0;
  }
  if (cli_parse_u64(s, &out->ticks) != 0) return -1;
  out->set = 1;
  return 0;
}

int cli_read_clock(const char *path, cli_clock *clk) {
  memset(clk, 0, sizeof *clk);
  int unset = 0;
  pt_source *src = NULL;
  pt_error err = {0};
  int rc = pt_source_open(&src, path, NULL, &err);
  if (rc < 0) return cli_fail(path, "%s", err.msg);
  pt_item it;
  while ((rc = pt_source_next(src, &it)) == PT_OK) {
    if (it.type == PT_ITEM_EVENT) break;
    if (it.type == PT_ITEM_DEF && it.u.def.kind == PT_DEF_CLOCK) {
      clk->found = 1;
      clk->ticks_per_second =
          it.u.def.i0 > 0 ? (uint64_t)it.u.def.i0 : 0;
      clk->start = it.u.def.parent == PT_NONE ? 0 : it.u.def.parent;
      unset = it.u.def.parent == PT_NONE;
      break;
    }
  }
  if (rc < 0) {
    cli_fail(path, "%s", pt_source_errmsg(src));
    pt_source_close(src);
    return CLI_FAIL;
  }
  if (unset) {
    /* No start in the clock (a recorder's CLOCK_MONOTONIC ticks): the
     * trace starts at its first event. */
    pt_reader *r = pt_source_reader(src);
    uint64_t first = UINT64_MAX;
    for (size_t i = 0; r && i < pt_reader_nstreams(r); i++) {
      const pt_stream_info *si = pt_reader_stream_info(r, i);
      if (si->events && si->first_time < first) first = si->first_time;
    }
    if (!r) {
      if (rc == PT_OK && it.type == PT_ITEM_EVENT) first = it.u.event.time;
      while (first == UINT64_MAX && (rc = pt_source_next(src, &it)) == PT_OK)
        if (it.type == PT_ITEM_EVENT) first = it.u.event.time;
    }
    if (first != UINT64_MAX) clk->start = first;
  }
  pt_source_close(src);
  return 0;
}

int cli_time_ticks(const cli_time *t, const cli_clock *clk, const char *path,
                   uint64_t *out) {
  if (!t->has_unit) {
    *out = t->ticks;
    return 0;
  }
  if (!clk->ticks_per_second) {
    cli_fail(path, "the trace has no clock definition; give times in ticks");
    return -1;
  }
  double ticks = t->seconds * (double)clk->ticks_per_second;
  if (ticks >= 18446744073709551615.0 - (double)clk->start) {
    *out = UINT64_MAX;
    return 0;
  }
  *out = clk->start + (uint64_t)llround(ticks);
  return 0;
}

int cli_resolve_window(const char *path, const cli_time *from,
                       const cli_time *to, uint64_t *from_ticks,
                       uint64_t *to_ticks) {
  *from_ticks = 0;
  *to_ticks = 0;
  cli_clock clk = {0};
  if ((from->set && from->has_unit) || (to->set && to->has_unit))
    if (cli_read_clock(path, &clk) != 0) return CLI_FAIL;
  if (from->set && cli_time_ticks(from, &clk, path, from_ticks) != 0)
    return CLI_FAIL;
  if (to->set && cli_time_ticks(to, &clk, path, to_ticks) != 0)
    return CLI_FAIL;
  if (to->set && *to_ticks == 0) {
    /* "to 0" means an empty window, but 0 means "no end" to the library */
    *from_ticks = 1;
    *to_ticks = 1;
  }
  if (to->set && from->set && *to_ticks < *from_ticks)
    return cli_fail(path, "empty window: --to is before --from");
  return 0;
}

int cli_resolve_nonempty_window(const char *path, const cli_time *from,
                                const cli_time *to, uint64_t *from_ticks,
                                uint64_t *to_ticks) {
  if (cli_resolve_window(path, from, to, from_ticks, to_ticks) != 0)
    return CLI_FAIL;
  if (from->set && to->set && *to_ticks <= *from_ticks)
    return cli_fail(path, "empty window: --to must be after --from");
  return 0;
}

int cli_check_locations(const char *path, pt_reader *r,
                        const uint64_t *locs, size_t n) {
  if (!r || !n) return CLI_OK; /* other formats: filtered as they come */
  for (size_t i = 0; i < n; i++) {
    int found = 0;
    for (size_t d = 0; !found && pt_reader_def(r, d); d++) {
      const pt_def *x = pt_reader_def(r, d);
      found = x->kind == PT_DEF_LOCATION && x->id == locs[i];
    }
    for (size_t k = 0; !found && k < pt_reader_nstreams(r); k++) {
      const pt_stream_info *si = pt_reader_stream_info(r, k);
      for (uint64_t j = 0; !found && j < si->nlocations; j++)
        found = si->locations[j] == locs[i];
    }
    if (!found)
      return cli_fail(path, "no location %" PRIu64 " in this trace "
                      "(paratrace info lists them)", locs[i]);
  }
  return CLI_OK;
}

int cli_parse_locations(const char *s, uint64_t **out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (!s || !*s) return -1;
  size_t cap = 0, len = 0;
  uint64_t *v = NULL;
  const char *p = s;
  while (*p) {
    char tok[64];
    size_t k = strcspn(p, ",");
    if (k == 0 || k >= sizeof tok) goto bad;
    memcpy(tok, p, k);
    tok[k] = 0;
    p += k;
    if (*p == ',') {
      p++;
      if (!*p) goto bad; /* trailing comma */
    }
    uint64_t lo, hi;
    char *dash = strchr(tok, '-');
    if (dash) {
      *dash = 0;
      if (cli_parse_u64(tok, &lo) || cli_parse_u64(dash + 1, &hi) || hi < lo)
        goto bad;
    } else {
      if (cli_parse_u64(tok, &lo)) goto bad;
      hi = lo;
    }
    if (hi - lo >= (UINT64_C(1) << 24) || len + (hi - lo) >= (1u << 24))
      goto bad;
    for (uint64_t x = lo;; x++) {
      if (len == cap) {
        cap = cap ? cap * 2 : 16;
        uint64_t *q = realloc(v, cap * sizeof *v);
        if (!q) goto bad;
        v = q;
      }
      v[len++] = x;
      if (x == hi) break;
    }
  }
  *out = v;
  *n = len;
  return 0;
bad:
  free(v);
  return -1;
}

int cli_parse_kinds(const char *s, uint64_t *mask, const char **bad) {
  static char badname[64];
  *mask = 0;
  if (bad) *bad = "";
  if (!s || !*s) return -1;
  const char *p = s;
  while (*p) {
    size_t k = strcspn(p, ",");
    char tok[64];
    if (k == 0 || k >= sizeof tok) {
      snprintf(badname, sizeof badname, "%.*s", (int)(k < 60 ? k : 60), p);
      if (bad) *bad = badname;
      return -1;
    }
    memcpy(tok, p, k);
    tok[k] = 0;
    uint32_t kind = pt_event_kind_from_name(tok);
    if (kind == PT_EV_INVALID || kind >= 64) {
      snprintf(badname, sizeof badname, "%s", tok);
      if (bad) *bad = badname;
      return -1;
    }
    *mask |= PT_KIND_BIT(kind);
    p += k;
    if (*p == ',') p++;
  }
  return 0;
}

const char *cli_fmt_seconds(char *buf, size_t n, uint64_t ticks,
                            const cli_clock *clk) {
  if (!clk->ticks_per_second)
    snprintf(buf, n, "? s");
  else
    snprintf(buf, n, "%.9g s", (double)ticks / (double)clk->ticks_per_second);
  return buf;
}

/* ---- progress bar -------------------------------------------------------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_start(cli_progress *p, const char *label, uint64_t total) {
  memset(p, 0, sizeof *p);
  p->label = label;
  p->total = total;
  p->active = !cli.quiet && isatty(STDERR_FILENO);
  p->start = p->last = now_s();
}

static void draw(cli_progress *p, double t) {
  double el = t - p->start;
  double rate = el > 0 ? (double)p->done / el : 0;
  if (p->total) {
    double f = (double)p->done / (double)p->total;
    if (f > 1) f = 1;
    int w = 30, fill = (int)(f * w);
    char bar[32];
    for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
    bar[w] = 0;
    fprintf(stderr, "\r%s [%s] %5.1f%% %" PRIu64 "/%" PRIu64 " events %.0f/s ",
            p->label, bar, 100 * f, p->done, p->total, rate);
  } else {
    fprintf(stderr, "\r%s %" PRIu64 " events %.0f/s ", p->label, p->done,
            rate);
  }
  fflush(stderr);
  p->drawn = 1;
}

void cli_progress_update(cli_progress *p, uint64_t done) {
  p->done = done;
  if (!p->active) return;
  double t = now_s();
  if (t - p->last < 0.1) return;
  p->last = t;
  draw(p, t);
}

void cli_progress_end(cli_progress *p) {
  if (p->active && p->drawn) {
    fprintf(stderr, "\r%*s\r", 79, "");
    fflush(stderr);
  }
  p->active = 0;
}

void cli_progress_cb(void *user, uint64_t events) {
  cli_progress_update(user, events);
}

int cli_open_source(pt_source **src, const char *path,
                    const pt_source_opts *so) {
  pt_source_opts warn_only = {0};
  warn_only.warn = cli_warn;
  pt_error err = {0};
  if (pt_source_open(src, path, so ? so : &warn_only, &err) < 0)
    return cli_fail(path, "%s", err.msg);
  return CLI_OK;
}

uint64_t cli_source_event_total(pt_source *src) {
  pt_reader *r = pt_source_reader(src);
  if (!r) return 0;
  uint64_t n = 0;
  for (size_t i = 0; i < pt_reader_nstreams(r); i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    if (si) n += si->events;
  }
  return n;
}

void cli_warn(void *user, const char *message) {
  (void)user;
  if (cli.quiet) return;
  /* once each: a command may open its input more than once (a window is
   * resolved before the scan) and would say the same again */
  static uint64_t seen[256];
  static size_t nseen;
  uint64_t h = 1469598103934665603ULL;
  for (const char *c = message; *c; c++)
    h = (h ^ (uint8_t)*c) * 1099511628211ULL;
  for (size_t i = 0; i < nseen; i++)
    if (seen[i] == h) return;
  if (nseen < sizeof seen / sizeof seen[0]) seen[nseen++] = h;
  fprintf(stderr, "paratrace %s: warning: %s\n", cli.cmd, message);
}

/* ---- MPI-parallel commands ------------------------------------------------- */

int cli_launcher_size(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                     "PMIX_SIZE", "SLURM_NTASKS"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) {
      long n = strtol(v, NULL, 10);
      return n > 1 && n < (1 << 24) ? (int)n : 1;
    }
  }
  return 1;
}

int cli_exec_parallel(int argc, char **argv) {
  char exe[4096];
  ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 32);
  if (l <= 0) return cli_fail(NULL, "cannot find this program's path");
  exe[l] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return cli_fail(NULL, "cannot find this program's path");
  strcpy(slash + 1, "paratrace-mpi");
  char **nargv = calloc((size_t)argc + 3, sizeof *nargv);
  if (!nargv) return cli_fail(NULL, "out of memory");
  int k = 0;
  nargv[k++] = exe;
  if (cli.quiet) nargv[k++] = (char *)"--quiet";
  for (int i = 0; i < argc; i++) nargv[k++] = argv[i];
  nargv[k] = NULL;
  fflush(NULL);
  execv(exe, nargv);
  int e = errno;
  free(nargv);
  return cli_fail(exe, "%s (needed to run in parallel under mpirun; built "
                  "when mpicc is installed)", strerror(e));
}

/* ---- interruption ---------------------------------------------------------- */

static struct sigaction g_prev[3];
static const int g_stop_sigs[3] = {SIGINT, SIGTERM, SIGHUP};
static volatile sig_atomic_t g_stop_sig;

static void on_stop(int sig) {
  g_stop_sig = sig;
  pt_pipe_interrupt();
  for (int i = 0; i < 3; i++) sigaction(g_stop_sigs[i], &g_prev[i], NULL);
}

void cli_catch_stop(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++) {
    sigaction(g_stop_sigs[i], NULL, &g_prev[i]);
    /* ignored (nohup, a background job of a non-interactive shell): stays so */
    if (g_prev[i].sa_handler == SIG_IGN) continue;
    sigaction(g_stop_sigs[i], &sa, NULL);
  }
}

int cli_stopped(void) { return g_stop_sig != 0; }

void cli_stop_reraise(void) {
  int sig = g_stop_sig;
  if (!sig) return;
  signal(sig, SIG_DFL);
  raise(sig);
}
