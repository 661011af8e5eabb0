/* paratrace stats: flat profile, MPI view, message matrix and relative
 * statistics of a trace or a window of it (the logic is pt_stats_* in
 * src/analysis/stats*.c; this file reads the source and prints). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/util.h"
#include "paratrace/analysis.h"

static const char help[] =
    "usage: paratrace stats [options] TRACE\n"
    "\n"
    "Statistics of a trace in any format, or of the window [--from, --to):\n"
    "  profile   per region: visits, inclusive and exclusive time (total,\n"
    "            per visit, min/mean/max over locations), imbalance\n"
    "            (max/mean over locations) and the location of the max\n"
    "  mpi       per MPI function and call site: calls, time as % of the\n"
    "            application time and of the MPI time; messages and bytes\n"
    "            sent (as mpiP), bytes received apart; one-sided calls\n"
    "            (MPI_Put, MPI_Get, accumulates, atomics) with the bytes\n"
    "            their origin sent and received; per call site also the\n"
    "            shortest, mean and longest call and the location of the\n"
    "            longest (mpiP's Callsite Time statistics), per location\n"
    "            with --site-locations\n"
    "  messages  sender x receiver: count, bytes, late-sender and\n"
    "            late-receiver waiting time; one-sided bytes go from the\n"
    "            origin to the target (put) or back (get), no late times\n"
    "  io        per mode, MPI-IO function, call site and file: operations,\n"
    "            bytes read or written (total, min, mean, max, as mpiP), time\n"
    "            from start to completion, short and unfinished operations\n"
    "  metrics   per counter (METRIC definitions: PAPI counters, power,\n"
    "            energy): samples, min/mean/max and where, the increase and\n"
    "            rate of an accumulated counter; per location; per region\n"
    "            the inclusive increase of a counter sampled at enter and\n"
    "            leave (Score-P's PAPI counters: instructions per region)\n"
    "  waits     collective wait states, as Scalasca: per blocking\n"
    "            collective and location the time spent waiting for the\n"
    "            last member (wait at NxN: Allreduce, Barrier, Alltoall...),\n"
    "            for a late root (late broadcast: Bcast, Scatter) or, at the\n"
    "            root, for the first sender (early reduce: Reduce, Gather);\n"
    "            the calls of every member matched by communicator and order\n"
    "            (a full scan of every rank: not with --locations or\n"
    "            summaries; under mpirun the ranks' calls meet on rank 0)\n"
    "  relative  with --relative-to R: count and time of every region, and\n"
    "            count and bytes of every event kind, inside visits of R\n"
    "\n"
    "A region straddling a window edge counts with the part of its time\n"
    "inside the window; its visit counts if it was entered inside.  Regions\n"
    "open at the end of the trace end at its last event.\n"
    "\n"
    "An I/O operation counts in the window it started in, with the bytes its\n"
    "completion says were transferred (a non-blocking one's: at its MPI_Wait)\n"
    "and its time until then, under the call that started it.\n"
    "\n"
    "Application time, as mpiP, from the end of MPI_Init to the start of\n"
    "MPI_Finalize per location: the MPI recorder's program region, or else\n"
    "the MPI_Init and MPI_Finalize calls; MPI time is then the time in the\n"
    "other MPI calls.  A trace without MPI_Init (and a thread without it)\n"
    "counts the time inside any region.  The output says which was used.\n"
    "\n"
    "On a native archive with summaries (paratrace summarize) a window is\n"
    "computed from summary differences and the events near its edges\n"
    "only; the result equals a full scan.  Summaries hold the profile with\n"
    "per-visit min/max, the MPI call sites with their calls' and messages'\n"
    "min/max, per-location\n"
    "message totals, the pair matrix with late sender/receiver (when no\n"
    "receive waited for its send at the summary times used or at the\n"
    "first one after each edge); --by and --relative-to need a full scan\n"
    "(implied by them; --no-summaries forces one).  Summaries hold no I/O\n"
    "and no metrics: a window of a trace with I/O or metrics reads its\n"
    "events for those sections.\n"
    "\n"
    "options:\n"
    "  --from T, --to T     window (ticks, or 1.5s/200ms/... from the start)\n"
    "  --locations L        only these locations (0,2,5-9)\n"
    "  --relative-to R      relative statistics inside region R (name or id)\n"
    "  --by tag|comm        split the message matrix by tag or communicator\n"
    "  --site-locations     the call-site tables per location too (each\n"
    "                       location's row, then * for all; CSV and JSON\n"
    "                       always have them: mpi_callsite_location rows)\n"
    "  --csv                CSV (exact ticks and bytes), one block per section\n"
    "  --json               JSON (exact ticks and bytes)\n"
    "  --no-summaries       always scan the events\n"
    "  --require-summaries  fail if the window cannot use summaries\n"
    "  -q, --quiet          no progress bar\n"
    "  -h, --help\n";

enum {
  O_FROM = 1, O_TO, O_LOCS, O_REL, O_BY, O_CSV, O_JSON, O_NOSUM, O_REQSUM,
  O_SITELOCS
};
static const cli_option options[] = {
    {"from", 0, 1, O_FROM},       {"to", 0, 1, O_TO},
    {"locations", 0, 1, O_LOCS},  {"relative-to", 0, 1, O_REL},
    {"by", 0, 1, O_BY},           {"csv", 0, 0, O_CSV},
    {"json", 0, 0, O_JSON},       {"no-summaries", 0, 0, O_NOSUM},
    {"require-summaries", 0, 0, O_REQSUM},
    {"site-locations", 0, 0, O_SITELOCS}, {0, 0, 0, 0}};

enum { OUT_TABLE, OUT_CSV, OUT_JSON };

typedef struct ctx {
  const char *path;
  const pt_stats *s;
  pt_stats_totals tot;
  uint64_t tps; /* ticks per second, 0 = unknown */
  int out;
  uint64_t rel;
  const char *rel_name;
  int by;
  int used_summaries;
  int parts; /* shares of a native archive read by the ranks of mpirun */
  int site_locs; /* --site-locations: call-site rows per location */
  uint64_t events_read;
} ctx;

/* ---- definitions before the first event: clock, region by name --------- */

static int scan_defs(const char *path, const char *region, uint64_t *rel,
                     uint64_t *tps) {
  pt_source *src = NULL;
  pt_error err = {0};
  pt_source_opts so = {0};
  so.warn = cli_warn;
  so.defs_only = 1;
  if (pt_source_open(&src, path, &so, &err) < 0)
    return cli_fail(path, "%s", err.msg);
  pt_item it;
  int rc, found = 0;
  uint64_t id = 0;
  int numeric = region && cli_parse_u64(region, &id) == 0;
  while ((rc = pt_source_next(src, &it)) == PT_OK) {
    if (it.type == PT_ITEM_EVENT) break;
    if (it.type != PT_ITEM_DEF) continue;
    const pt_def *d = &it.u.def;
    if (d->kind == PT_DEF_CLOCK && d->i0 > 0) *tps = (uint64_t)d->i0;
    if (region && d->kind == PT_DEF_REGION && !found &&
        ((d->name && strcmp(d->name, region) == 0) ||
         (numeric && d->id == id))) {
      *rel = d->id;
      found = 1;
    }
  }
  if (rc < 0) {
    cli_fail(path, "%s", pt_source_errmsg(src));
    pt_source_close(src);
    return CLI_FAIL;
  }
  pt_source_close(src);
  if (region && !found)
    return cli_fail(path, "unknown region '%s' (give a region name or id)",
                    region);
  return 0;
}

/* ---- formatting ------------------------------------------------------------- */

typedef struct unit {
  const char *name;
  double div; /* ticks per unit */
} unit;

/* A time unit that shows `max` ticks with 1..4 integer digits. */
static unit pick_unit(const ctx *c, uint64_t max) {
  if (!c->tps) return (unit){"ticks", 1};
  double sec = (double)max / (double)c->tps;
  if (sec >= 1) return (unit){"s", (double)c->tps};
  if (sec >= 1e-3) return (unit){"ms", (double)c->tps / 1e3};
  if (sec >= 1e-6) return (unit){"us", (double)c->tps / 1e6};
  return (unit){"ns", (double)c->tps / 1e9};
}

static const char *fmt_bytes(char *b, size_t n, double v) {
  const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (v >= 1024 && i < 4) v /= 1024, i++;
  if (i == 0) snprintf(b, n, "%.0f B", v);
  else snprintf(b, n, "%.1f %s", v, u[i]);
  return b;
}

static void json_str(const char *s) { pt__json_str(stdout, s, 0); }
static void csv_str(const char *s) {
  putchar('"');
  for (; s && *s; s++) {
    if (*s == '"') putchar('"');
    putchar(*s);
  }
  putchar('"');
}

static double pct(uint64_t a, uint64_t b) {
  return b ? 100.0 * (double)a / (double)b : 0;
}

static const char *loc_name(char *b, size_t n, uint64_t loc) {
  if (loc == PT_NONE) snprintf(b, n, "-");
  else snprintf(b, n, "%" PRIu64, loc);
  return b;
}

static const char *region_label(const ctx *c, uint64_t id, char *b, size_t n) {
  if (id == PT_NONE) return "-";
  const char *nm = pt_stats_region_name(c->s, id);
  if (nm) return nm;
  snprintf(b, n, "region %" PRIu64, id);
  return b;
}
static const char *callsite_label(const ctx *c, uint64_t id, char *b,
                                  size_t n) {
  if (id == PT_NONE) return "-";
  const char *nm = pt_stats_callsite_name(c->s, id);
  if (nm) return nm;
  snprintf(b, n, "callsite %" PRIu64, id);
  return b;
}

static const char *file_label(const ctx *c, uint64_t id, char *b, size_t n) {
  if (id == PT_NONE) return "-";
  const char *nm = pt_stats_file_name(c->s, id);
  if (nm) return nm;
  snprintf(b, n, "file %" PRIu64, id);
  return b;
}
static const char *mode_label(uint32_t mode) {
  const char *m = pt_io_mode_name(mode);
  return m ? m : "?";
}

/* ---- communicator names (the --by comm table) ---------------------------- */

typedef struct comm_names {
  size_t n;
  struct comm_name {
    uint64_t id;
    char *name;
  } *v;
} comm_names;
static int cmp_comm_name(const void *a, const void *b) {
  const struct comm_name *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id;
}
static void comm_names_free(comm_names *cn) {
  for (size_t i = 0; i < cn->n; i++) free(cn->v[i].name);
  free(cn->v);
  cn->v = NULL;
  cn->n = 0;
}
/* The names of the COMM definitions of the trace at path (those before
 * its first event), sorted by id.  Best effort: what could not be read
 * is a communicator shown by its id. */
static void comm_names_read(const char *path, comm_names *cn) {
  pt_source *src = NULL;
  pt_error err = {0};
  pt_source_opts so = {0};
  so.defs_only = 1;
  cn->n = 0;
  cn->v = NULL;
  if (pt_source_open(&src, path, &so, &err) < 0) return;
  pt_item it;
  while (pt_source_next(src, &it) == PT_OK && it.type != PT_ITEM_EVENT) {
    const pt_def *d = &it.u.def;
    if (it.type != PT_ITEM_DEF || d->kind != PT_DEF_COMM || !d->name ||
        !*d->name)
      continue;
    struct comm_name *g = realloc(cn->v, (cn->n + 1) * sizeof *g);
    if (!g) break;
    cn->v = g;
    if (!(g[cn->n].name = strdup(d->name))) break;
    g[cn->n++].id = d->id;
  }
  pt_source_close(src);
  if (!cn->n) return;
  /* one of equal ids (every member of a recorded communicator defines it,
   * alike) */
  qsort(cn->v, cn->n, sizeof *cn->v, cmp_comm_name);
  size_t k = 0;
  for (size_t i = 0; i < cn->n; i++) {
    if (k && cn->v[k - 1].id == cn->v[i].id) free(cn->v[i].name);
    else cn->v[k++] = cn->v[i];
  }
  cn->n = k;
}
/* Communicator id's name, or NULL. */
static const char *comm_name_of(const comm_names *cn, uint64_t id) {
  struct comm_name key = {id, NULL};
  const struct comm_name *f =
      cn->n ? bsearch(&key, cn->v, cn->n, sizeof key, cmp_comm_name) : NULL;
  return f ? f->name : NULL;
}

static const char *fit_one_site(const char *label, char *b, size_t n,
                                size_t w);

/* The bytes of the C++ qualifiers of a member function at s[0..len) (" const",
 * " volatile", " &", " &&", in any number, each followed by a blank or the
 * end), which demangled names put after the parameter list. */
static size_t cv_quals(const char *s, size_t len) {
  static const char *const q[] = {" const", " volatile", " &&", " &"};
  size_t at = 0;
  for (int again = 1; again;) {
    again = 0;
    for (size_t j = 0; j < sizeof q / sizeof *q; j++) {
      size_t l = strlen(q[j]);
      if (len - at >= l && !memcmp(s + at, q[j], l) &&
          (at + l == len || s[at + l] == ' ')) {
        at += l;
        again = 1;
        break;
      }
    }
  }
  return at;
}

/* The statement s[0..len) into b[n] without its first C++ parameter list:
 * the first balanced "(...)" that follows a name directly ("f(int, int)
 * file:line" -> "f file:line"; the " (module+0xoff)" of a statement
 * without debug information follows a blank and stays), and the
 * qualifiers after it ("S::f(int) const" -> "S::f": cut from the front,
 * "...::f const (lib.so+0x5fe53e)" kept " const" and lost the name, as
 * OpenFOAM's "Foam::PCG::scalarSolve(...) const" did).  Returns the length
 * written; an unbalanced list is kept as it is. */
static size_t drop_params(const char *s, size_t len, char *b, size_t n) {
  size_t k = 0;
  int depth = 0, dropped = 0;
  if (!n) return 0;
  for (size_t i = 0; i < len && k + 1 < n; i++) {
    char ch = s[i];
    if (ch == '(' && !dropped && !depth && i > 0 && s[i - 1] != ' ') depth++;
    else if (ch == '(' && depth) depth++;
    if (!depth) b[k++] = ch;
    if (ch == ')' && depth && --depth == 0) {
      dropped = 1;
      i += cv_quals(s + i + 1, len - i - 1);
    }
  }
  if (depth) { /* unbalanced: keep the statement as it was */
    k = len < n - 1 ? len : n - 1;
    memcpy(b, s, k);
  }
  b[k] = 0;
  return k;
}

/* Statement s[0..len) in exactly w columns into b (w + 1 bytes): the
 * start of its function name cut ("...Brick::forward_comm (lib.so+0x2b08)":
 * a C++ name's end is the method, its start the namespace), its end (from
 * the last blank: " file:line" or " (module+0xoff)") kept.  0 when that
 * leaves fewer than 6 characters of the name. */
static int cut_front(const char *s, size_t len, char *b, size_t w) {
  size_t tail = 0;
  for (size_t i = len; i > 0; i--)
    if (s[i - 1] == ' ') {
      tail = len - (i - 1);
      break;
    }
  if (len <= w || tail + 3 + 6 > w) return 0;
  size_t keep = w - 3 - tail; /* characters of the name's end */
  memcpy(b, "...", 3);
  memcpy(b + 3, s + (len - tail) - keep, keep + tail);
  b[w] = 0;
  return 1;
}

/* The module of statement s[0..len) named "function (module+0xoff)" (no
 * debug information): a pointer to "module" inside s, its length in *ml;
 * NULL for any other form. */
static const char *stmt_module(const char *s, size_t len, size_t *ml) {
  if (len < 6 || s[len - 1] != ')') return NULL;
  size_t o = len - 1;
  while (o > 0 && s[o - 1] != '(') o--;
  if (o < 2 || s[o - 2] != ' ') return NULL;
  const char *m = s + o, *end = s + len - 1, *plus = NULL;
  for (const char *x = m; x + 3 <= end; x++)
    if (!strncmp(x, "+0x", 3)) plus = x;
  if (!plus || plus == m) return NULL;
  *ml = (size_t)(plus - m);
  return m;
}

/* A call-site label in at most w (>= 8) columns.  A chain of statements
 * ("inner file:line < outer file:line", PARATRACE_CALLSITES above 1)
 * that does not fit loses the C++ parameter lists of its statements
 * first and writes a caller in the module of the statement before it as
 * "f (+0xoff)", then the width is shared among its statements (a short one
 * keeps all of it, the long ones lose the start of their function
 * names): the callers are what tell its rows apart (LAMMPS's remap_3d
 * called from nine places of fft_3d was nine rows "remap_3d(double*,
 * double*, double*, remap_plan_3d*) (liblammps.so.0+0x7bbac9) < ...").
 * When even the shortest forms do not fit, as many statements from the
 * innermost as do, then " < ...", which marks the cut callers even when
 * the innermost alone had to be shortened.  One statement keeps its end
 * (see fit_one_site). */
static const char *fit_site(const char *label, char *b, size_t n, size_t w) {
  size_t len = strlen(label);
  const char *lt = strstr(label, " < ");
  if (len <= w || n < w + 1 || !lt) return fit_one_site(label, b, n, w);
  static const char more[] = " < ...";
  const size_t ml = sizeof more - 1;
  /* the chain without parameter lists, statement by statement */
  enum { MAXST = 8 }; /* PARATRACE_CALLSITES goes up to 8 */
  char sh[1024], pmod[256];
  size_t k = 0, ns = 0, st[MAXST], sl[MAXST], pml = 0;
  for (const char *p = label; *p && k + 1 < sizeof sh;) {
    const char *e = strstr(p, " < ");
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (p != label) k += (size_t)snprintf(sh + k, sizeof sh - k, " < ");
    if (k + 1 >= sizeof sh) break;
    size_t at = k, ml2 = 0;
    k += drop_params(p, l, sh + k, sizeof sh - k);
    /* a caller in the module of the statement before it: "(+0x5c4b15)" */
    const char *m = stmt_module(sh + at, k - at, &ml2);
    if (m && ml2 == pml && !memcmp(m, pmod, ml2)) {
      memmove((char *)m, m + ml2, (size_t)(sh + k - (m + ml2)) + 1);
      k -= ml2;
    } else if (m && ml2 < sizeof pmod) {
      memcpy(pmod, m, ml2);
      pml = ml2;
    } else {
      pml = 0;
    }
    if (ns < MAXST) st[ns] = at, sl[ns] = k - at;
    ns++;
    p = e ? e + 3 : p + l;
  }
  int whole = k < sizeof sh - 1; /* sh holds the chain whole */
  if (whole && k <= w) { /* w < n: checked above */
    memcpy(b, sh, k + 1);
    return b;
  }
  /* The first m statements (all, then fewer with " < ..." after them)
   * in the width: each keeps max(its least, min(its length, T)) columns
   * for the largest T that fits, its least being its end and "..." and 6
   * characters of its name (see cut_front) */
  size_t nst = ns < MAXST ? ns : MAXST, least[MAXST];
  if (!whole && nst == ns) nst--; /* the last one was cut by sh's size */
  for (size_t i = 0; i < nst; i++) {
    size_t tail = 0;
    for (size_t q = sl[i]; q > 0 && !tail; q--)
      if (sh[st[i] + q - 1] == ' ') tail = sl[i] - (q - 1);
    least[i] = tail + 3 + 6 < sl[i] ? tail + 3 + 6 : sl[i];
  }
  for (size_t m = nst; m >= 1; m--) {
    size_t fixed = 3 * (m - 1) + (m < ns ? ml : 0), need = 0;
    for (size_t i = 0; i < m; i++) need += least[i];
    if (fixed + need > w) continue;
    size_t avail = w - fixed, lo = 0, hi = sizeof sh, sum = 0;
    while (lo < hi) { /* the largest T whose columns fit */
      size_t t = lo + (hi - lo + 1) / 2, s2 = 0;
      for (size_t i = 0; i < m; i++) {
        size_t c = sl[i] < t ? sl[i] : t;
        s2 += c > least[i] ? c : least[i];
      }
      if (s2 <= avail) lo = t;
      else hi = t - 1;
    }
    size_t cols[MAXST];
    for (size_t i = 0; i < m; i++) {
      size_t c = sl[i] < lo ? sl[i] : lo;
      cols[i] = c > least[i] ? c : least[i];
      sum += cols[i];
    }
    /* what is left over (less than one column per statement) goes to the
     * innermost statements that are still cut */
    for (size_t i = 0; i < m && sum < avail; i++)
      if (cols[i] < sl[i]) cols[i]++, sum++;
    size_t o = 0;
    for (size_t i = 0; i < m; i++) {
      if (i) memcpy(b + o, " < ", 3), o += 3;
      if (cols[i] >= sl[i]) memcpy(b + o, sh + st[i], sl[i]), o += sl[i];
      else cut_front(sh + st[i], sl[i], b + o, cols[i]), o += cols[i];
    }
    if (m < ns) memcpy(b + o, more, ml), o += ml;
    b[o] = 0;
    return b;
  }
  /* not even the innermost statement: it alone, shortened, and the mark
   * of the callers when there is room for both */
  char first[sizeof sh];
  const char *fe = strstr(sh, " < ");
  snprintf(first, sizeof first, "%.*s", (int)(fe ? (size_t)(fe - sh) : k), sh);
  if (w >= 8 + ml) {
    char f2[256];
    const char *f = fit_one_site(first, f2, sizeof f2, w - ml);
    snprintf(b, n, "%s%s", f, more);
    return b;
  }
  const char *f = fit_one_site(first, b, n, w);
  if (f != b) snprintf(b, n, "%s", f);
  return b;
}

/* One statement's label in at most w (>= 8) columns, keeping its end (the
 * " file:line" of "function file:line"): a C++ parameter list goes first,
 * then the middle of the function name ("..."). */
static const char *fit_one_site(const char *label, char *b, size_t n,
                                size_t w) {
  size_t len = strlen(label);
  if (len <= w || n < w + 1) return label;
  /* the whole statement without its parameter list first: a C++ template
   * instance's name can be longer than b (Boost.MPI's probe_handler<...>
   * names run to 330 characters), and its end is what is kept */
  char sb[512], *t = len < sizeof sb ? sb : malloc(len + 1);
  if (!t) { /* out of memory: the end of the label as it is */
    snprintf(b, n, "...%s", label + len - (w - 3));
    return b;
  }
  size_t k = drop_params(label, len, t, len + 1);
  if (k <= w) {
    memcpy(b, t, k + 1);
  } else {
    const char *sp = strrchr(t, ' ');
    size_t tail = sp ? k - (size_t)(sp - t) : 0;
    if (tail + 3 + 4 > w) tail = w - 3; /* no room for a head: keep the end */
    size_t head = w - 3 - tail;
    memcpy(b, t, head);
    memcpy(b + head, "...", 3);
    memcpy(b + head + 3, t + k - tail, tail);
    b[w] = 0;
  }
  if (t != sb) free(t);
  return b;
}

typedef struct site_order {
  const pt_stats_callsite_row *row;
  size_t rank; /* the function's row in the region table */
} site_order;
static int cmp_site_order(const void *a, const void *b) {
  const site_order *x = a, *y = b;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  if (x->row->time != y->row->time) return x->row->time > y->row->time ? -1 : 1;
  return x->row->callsite < y->row->callsite ? -1
         : x->row->callsite > y->row->callsite;
}

/* Per MPI function: message totals from the call-site rows. */
typedef struct mpi_msgs {
  uint64_t messages, bytes, bmin, bmax, received, brecv;
} mpi_msgs;
static mpi_msgs msgs_of(const pt_stats *s, uint64_t region) {
  mpi_msgs m = {0, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < pt_stats_ncallsites(s); i++) {
    const pt_stats_callsite_row *r = pt_stats_callsite(s, i);
    if (r->region != region) continue;
    m.received += r->received;
    m.brecv += r->bytes_received;
    if (!r->messages) continue;
    if (!m.messages || r->bytes_min < m.bmin) m.bmin = r->bytes_min;
    if (r->bytes_max > m.bmax) m.bmax = r->bytes_max;
    m.messages += r->messages;
    m.bytes += r->bytes;
  }
  return m;
}

/* The per-location rows of (region, call site): [*b, *e) of
 * pt_stats_callsite_loc (sorted by region, call site, location). */
static void loc_rows(const pt_stats *s, const pt_stats_callsite_row *r,
                     size_t *b, size_t *e) {
  size_t lo = 0, hi = pt_stats_ncallsite_locs(s);
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    const pt_stats_callsite_row *x = pt_stats_callsite_loc(s, m);
    if (x->region < r->region ||
        (x->region == r->region && x->callsite < r->callsite))
      lo = m + 1;
    else
      hi = m;
  }
  *b = *e = lo;
  while (*e < pt_stats_ncallsite_locs(s)) {
    const pt_stats_callsite_row *x = pt_stats_callsite_loc(s, *e);
    if (x->region != r->region || x->callsite != r->callsite) break;
    (*e)++;
  }
}

/* The application and MPI time of a location (0 when not listed). */
static void loc_times(const pt_stats *s, uint64_t loc, uint64_t *app,
                      uint64_t *mpi) {
  *app = *mpi = 0;
  for (size_t i = 0; i < pt_stats_nlocations(s); i++)
    if (pt_stats_location(s, i)->location == loc) {
      *app = pt_stats_location(s, i)->app_time;
      *mpi = pt_stats_location(s, i)->mpi_time;
    }
}

/* MPI_Init / MPI_Finalize are outside mpiP's application time: no
 * percentages for them when that definition is used. */
static int outside_app(const ctx *c, uint64_t region) {
  if (c->tot.app_def == PT_STATS_APP_REGIONS) return 0;
  const char *n = pt_stats_region_name(c->s, region);
  return n && (strcmp(n, "MPI_Init") == 0 ||
               strcmp(n, "MPI_Init_thread") == 0 ||
               strcmp(n, "MPI_Finalize") == 0);
}

static const char *app_def_name(uint32_t d) {
  return d == PT_STATS_APP_PROGRAM         ? "program"
         : d == PT_STATS_APP_INIT_FINALIZE ? "init_finalize"
                                           : "regions";
}

/* One line: which definition of the application time was used. */
static void print_app_def(const ctx *c) {
  char nb[64];
  switch (c->tot.app_def) {
    case PT_STATS_APP_PROGRAM:
      printf("(as mpiP: application time = the program region '%s', from "
             "the end of MPI_Init to the start of MPI_Finalize; MPI time = "
             "the MPI calls in it)\n",
             region_label(c, c->tot.app_region, nb, sizeof nb));
      break;
    case PT_STATS_APP_INIT_FINALIZE:
      printf("(as mpiP: application time = from the end of MPI_Init to the "
             "start of MPI_Finalize; MPI time = the MPI calls other than "
             "those)\n");
      break;
    default:
      printf("(application time = time inside any region; MPI time = time "
             "in MPI regions)\n");
      break;
  }
}

static const char *rel_label(const ctx *c, const pt_stats_relative_row *r,
                             char *b, size_t n) {
  if (r->what == PT_STATS_REL_REGION) return region_label(c, r->id, b, n);
  const char *k = pt_event_kind_name((uint32_t)r->id);
  return k ? k : "?";
}

/* ---- I/O: the rows viewed by mode, function, call site, file ------------ */

/* The keys a view keeps besides the mode. */
enum { IO_FN = 1, IO_SITE = 2, IO_FILE = 4 };
typedef struct io_view {
  unsigned keys;
  const char *title;
} io_view;
static const io_view io_views[] = {
    {0, NULL}, /* under the section's heading */
    {IO_FN, "I/O functions"},
    {IO_FN | IO_SITE, "I/O call sites (as mpiP's aggregate I/O size)"},
    {IO_FILE, "I/O files"},
};

/* by bytes, most first (as mpiP), then by key */
static int cmp_io_bytes(const void *a, const void *b) {
  const pt_stats_io_row *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
  return pt_stats_io_cmp(a, b);
}

/* Fold row y into x (same key). */
static void io_fold(pt_stats_io_row *x, const pt_stats_io_row *y) {
  int xc = x->ops > x->unfinished, yc = y->ops > y->unfinished;
  if (yc && (!xc || y->bytes_min < x->bytes_min)) x->bytes_min = y->bytes_min;
  if (yc && (!xc || y->bytes_max > x->bytes_max)) x->bytes_max = y->bytes_max;
  x->ops += y->ops;
  x->bytes += y->bytes;
  x->requested += y->requested;
  x->time += y->time;
  x->short_ops += y->short_ops;
  x->unfinished += y->unfinished;
}

/* The I/O rows of s merged by the view's keys (the others PT_NONE), by
 * bytes; *n rows, free() them.  NULL when out of memory. */
static pt_stats_io_row *io_group(const pt_stats *s, unsigned keys, size_t *n) {
  size_t m = pt_stats_nio(s), k = 0;
  pt_stats_io_row *g = malloc((m ? m : 1) * sizeof *g);
  if (!g) return NULL;
  for (size_t i = 0; i < m; i++) {
    g[i] = *pt_stats_io(s, i);
    if (!(keys & IO_FN)) g[i].region = PT_NONE;
    if (!(keys & IO_SITE)) g[i].callsite = PT_NONE;
    if (!(keys & IO_FILE)) g[i].file = PT_NONE;
  }
  qsort(g, m, sizeof *g, pt_stats_io_cmp);
  for (size_t i = 0; i < m; i++) {
    if (k && pt_stats_io_cmp(&g[k - 1], &g[i]) == 0) io_fold(&g[k - 1], &g[i]);
    else g[k++] = g[i];
  }
  qsort(g, k, sizeof *g, cmp_io_bytes);
  *n = k;
  return g;
}

/* The name columns of an I/O row: (label, width) per key the view keeps. */
static const char *io_name(const ctx *c, const pt_stats_io_row *r,
                           unsigned key, char *b, size_t n, size_t w) {
  char lb[64];
  if (key == IO_FN) return region_label(c, r->region, b, n);
  if (key == IO_FILE) return file_label(c, r->file, b, n);
  return fit_site(callsite_label(c, r->callsite, lb, sizeof lb), b, n, w);
}
static const char *io_heading(unsigned key) {
  return key == IO_FN ? "function" : key == IO_FILE ? "file" : "call site";
}

/* One view as a table (rows of io_group). */
static void print_io_view(const ctx *c, const io_view *v,
                          const pt_stats_io_row *g, size_t n, unit u,
                          uint64_t total) {
  static const unsigned order[] = {IO_FN, IO_SITE, IO_FILE};
  int w[3] = {24, 24, 24};
  char b[256], b1[64], b2[64], b3[64], b4[64];
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      if (!(v->keys & order[k])) continue;
      size_t l = strlen(io_name(c, &g[i], order[k], b, sizeof b, 60));
      if (l > (size_t)w[k]) w[k] = l > 60 ? 60 : (int)l;
    }
  if (v->title) printf("\n%s\n", v->title);
  for (int k = 0; k < 3; k++)
    if (v->keys & order[k]) printf("%-*s ", w[k], io_heading(order[k]));
  printf("%-5s %9s %11s %10s %10s %10s %6s %11s %9s %10s\n", "mode", "ops",
         "bytes", "min", "mean", "max", "%io", "time", "short", "unfinished");
  for (size_t i = 0; i < n; i++) {
    const pt_stats_io_row *r = &g[i];
    for (int k = 0; k < 3; k++)
      if (v->keys & order[k])
        printf("%-*.*s ", w[k], w[k],
               io_name(c, r, order[k], b, sizeof b, (size_t)w[k]));
    uint64_t done = r->ops - r->unfinished;
    printf("%-5s %9" PRIu64 " %11s %10s %10s %10s %6.2f %11.6g %9" PRIu64
           " %10" PRIu64 "\n",
           mode_label(r->mode), r->ops,
           fmt_bytes(b1, sizeof b1, (double)r->bytes),
           done ? fmt_bytes(b2, sizeof b2, (double)r->bytes_min) : "-",
           done ? fmt_bytes(b3, sizeof b3, (double)r->bytes / (double)done)
                : "-",
           done ? fmt_bytes(b4, sizeof b4, (double)r->bytes_max) : "-",
           pct(r->bytes, total), (double)r->time / u.div, r->short_ops,
           r->unfinished);
  }
}

/* The I/O tables: nothing when the window has no I/O operation; call
 * sites and files when the trace names them. */
static void print_io(const ctx *c) {
  const pt_stats *s = c->s;
  uint64_t total = 0, time = 0;
  int sites = 0, files = 0;
  for (size_t i = 0; i < pt_stats_nio(s); i++) {
    const pt_stats_io_row *r = pt_stats_io(s, i);
    total += r->bytes;
    time += r->time;
    sites |= r->callsite != PT_NONE;
    files |= r->file != PT_NONE;
  }
  if (!pt_stats_nio(s)) return;
  unit u = pick_unit(c, time); /* no row's is larger */
  printf("\nI/O (operations started in the window, under the call that "
         "started them; bytes transferred, as their completions say; time "
         "from start to completion, in %s)\n", u.name);
  for (size_t i = 0; i < sizeof io_views / sizeof *io_views; i++) {
    const io_view *v = &io_views[i];
    if (((v->keys & IO_SITE) && !sites) || ((v->keys & IO_FILE) && !files))
      continue;
    size_t n = 0;
    pt_stats_io_row *g = io_group(s, v->keys, &n);
    if (!g) {
      printf("\n%s: out of memory\n", v->title);
      continue;
    }
    print_io_view(c, v, g, n, u, total);
    free(g);
  }
}

/* ---- metrics ------------------------------------------------------------------ */

static const char *metric_mode_label(uint32_t mode) {
  return mode == PT_METRIC_ACCUMULATED ? "accumulated"
         : mode == PT_METRIC_RELATIVE  ? "relative"
                                       : "absolute";
}

static const char *metric_type_label(uint32_t type) {
  return type == PT_TYPE_INT      ? "int64"
         : type == PT_TYPE_UINT   ? "uint64"
         : type == PT_TYPE_DOUBLE ? "double"
                                  : "other";
}

/* Whether a metric row has an increase (a counter, not a gauge). */
static int metric_counts(const pt_stats_metric_row *m) {
  return m->mode != PT_METRIC_ABSOLUTE;
}

/* The increase per second of a counter; *ok = 0 when unknown (a gauge, no
 * clock, one sample time). */
static double metric_rate(const ctx *c, const pt_stats_metric_row *m,
                          int *ok) {
  *ok = metric_counts(m) && c->tps && m->last_time > m->first_time;
  if (!*ok) return 0;
  return m->increase /
         ((double)(m->last_time - m->first_time) / (double)c->tps);
}

static const char *metric_name(const pt_stats *s, uint64_t metric) {
  for (size_t i = 0; i < pt_stats_nmetrics(s); i++)
    if (pt_stats_metric(s, i)->metric == metric)
      return pt_stats_metric(s, i)->name;
  return "?";
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The metric-only locations: no region, message or time, and metric
 * samples (Score-P's metric locations, not listed in the Locations
 * table), sorted; NULL when none (or out of memory: all are listed). */
static uint64_t *metric_only_locs(const pt_stats *s, size_t *n) {
  size_t nr = pt_stats_nregion_locs(s), nm = pt_stats_nmetric_locs(s), k = 0;
  *n = 0;
  if (!nm) return NULL;
  uint64_t *rl = malloc((nr ? nr : 1) * sizeof *rl);
  uint64_t *out = malloc(nm * sizeof *out);
  if (!rl || !out) {
    free(rl);
    free(out);
    return NULL;
  }
  for (size_t i = 0; i < nr; i++) rl[i] = pt_stats_region_loc(s, i)->location;
  qsort(rl, nr, sizeof *rl, cmp_u64);
  for (size_t i = 0; i < nm; i++) {
    uint64_t l = pt_stats_metric_loc(s, i)->location;
    if (!bsearch(&l, rl, nr, sizeof *rl, cmp_u64)) out[k++] = l;
  }
  free(rl);
  qsort(out, k, sizeof *out, cmp_u64);
  size_t u = 0; /* unique, and without messages or time */
  for (size_t i = 0; i < k; i++) {
    if (u && out[u - 1] == out[i]) continue;
    out[u++] = out[i];
  }
  k = 0;
  for (size_t i = 0; i < pt_stats_nlocations(s); i++) {
    const pt_stats_location_row *l = pt_stats_location(s, i);
    if (!bsearch(&l->location, out, u, sizeof *out, cmp_u64)) continue;
    if (l->app_time || l->mpi_time || l->sent || l->received) continue;
    out[k++] = l->location; /* locations ascending: stays sorted */
  }
  *n = k;
  if (!k) {
    free(out);
    return NULL;
  }
  return out;
}

/* Per-location rows the text table prints at most (CSV / JSON: all). */
#define METRIC_LOC_ROWS 40
/* Region rows per metric the text table prints at most. */
#define METRIC_REGION_ROWS 20

static void print_metric_line(const ctx *c, const pt_stats_metric_row *m,
                              int nw, int per_loc) {
  char b1[32], b2[32];
  int ok;
  double rate = metric_rate(c, m, &ok);
  printf("%-*.*s %-8.8s %-11s %9" PRIu64, nw, nw, m->name, m->unit,
         metric_mode_label(m->mode), m->samples);
  if (per_loc) printf(" %10" PRIu64, m->location);
  else printf(" %5" PRIu64, m->locations);
  printf(" %12.6g %12.6g %12.6g", m->min, m->mean, m->max);
  if (!per_loc)
    printf(" %10s %10s", loc_name(b1, sizeof b1, m->min_location),
           loc_name(b2, sizeof b2, m->max_location));
  if (metric_counts(m)) printf(" %12.6g", m->increase);
  else printf(" %12s", "-");
  if (ok) printf(" %12.6g\n", rate);
  else printf(" %12s\n", "-");
}

/* The metrics tables: nothing when the window has no sample. */
static void print_metrics(const ctx *c) {
  const pt_stats *s = c->s;
  size_t nm = pt_stats_nmetrics(s);
  if (!nm) return;
  int nw = 16;
  for (size_t i = 0; i < nm; i++) {
    size_t l = strlen(pt_stats_metric(s, i)->name);
    if (l > (size_t)nw) nw = l > 40 ? 40 : (int)l;
  }
  printf("\nMetrics (samples in the window; increase of a counter: last - "
         "first value per location, summed; rate: increase per second)\n");
  printf("%-*s %-8s %-11s %9s %5s %12s %12s %12s %10s %10s %12s %12s\n", nw,
         "metric", "unit", "mode", "samples", "locs", "min", "mean", "max",
         "min loc", "max loc", "increase", "rate/s");
  for (size_t i = 0; i < nm; i++)
    print_metric_line(c, pt_stats_metric(s, i), nw, 0);
  size_t nl = pt_stats_nmetric_locs(s);
  if (nl > nm && nl <= METRIC_LOC_ROWS) {
    printf("\nMetrics per location\n");
    printf("%-*s %-8s %-11s %9s %10s %12s %12s %12s %12s %12s\n", nw,
           "metric", "unit", "mode", "samples", "location", "min", "mean",
           "max", "increase", "rate/s");
    for (size_t i = 0; i < nl; i++)
      print_metric_line(c, pt_stats_metric_loc(s, i), nw, 1);
  } else if (nl > nm) {
    printf("(%zu rows per metric and location: --csv or --json)\n", nl);
  }
  size_t nr = pt_stats_nmetric_regions(s);
  if (!nr) return;
  int rw = 24;
  for (size_t i = 0; i < nr; i++) {
    const char *n =
        pt_stats_region_name(s, pt_stats_metric_region(s, i)->region);
    size_t l = n ? strlen(n) : 0;
    if (l > (size_t)rw) rw = l > 60 ? 60 : (int)l;
  }
  printf("\nMetrics per region (counters sampled at enter and leave: value "
         "at leave - value at enter, inclusive, of the visits entered and "
         "left in the window; %% of the counter's increase)\n");
  printf("%-*s %-*s %9s %14s %12s %12s %12s %7s\n", nw, "metric", rw,
         "region", "visits", "total", "per visit", "min", "max", "%");
  for (size_t i = 0; i < nr;) {
    uint64_t met = pt_stats_metric_region(s, i)->metric;
    double all = 0;
    for (size_t k = 0; k < nm; k++)
      if (pt_stats_metric(s, k)->metric == met)
        all = pt_stats_metric(s, k)->increase;
    size_t j = i, shown = 0;
    char nb[64];
    for (; j < nr && pt_stats_metric_region(s, j)->metric == met; j++) {
      const pt_stats_metric_region_row *r = pt_stats_metric_region(s, j);
      if (shown++ >= METRIC_REGION_ROWS) continue;
      printf("%-*.*s %-*.*s %9" PRIu64 " %14.6g %12.6g %12.6g %12.6g", nw,
             nw, metric_name(s, met), rw, rw,
             region_label(c, r->region, nb, sizeof nb), r->visits, r->delta,
             r->delta / (double)r->visits, r->per_visit_min,
             r->per_visit_max);
      if (all > 0) printf(" %7.2f\n", 100.0 * r->delta / all);
      else printf(" %7s\n", "-");
    }
    if (shown > METRIC_REGION_ROWS)
      printf("%-*.*s ... %zu more regions (--csv or --json)\n", nw, nw,
             metric_name(s, met), shown - METRIC_REGION_ROWS);
    i = j;
  }
}

/* ---- table -------------------------------------------------------------------- */

/* Collective wait states, per function over the locations (sum, and the
 * location that waited longest), the longest wait first (then by name):
 * the rows came in the order of the functions' region ids, so the table
 * of a trace and of its OTF2 or DUMPI copy listed them differently. */
typedef struct wait_sum {
  pt_stats_wait_row t;
  uint64_t lmax, lat;
  char name[64];
} wait_sum;

static int cmp_wait_sum(const void *a, const void *b) {
  const wait_sum *x = a, *y = b;
  if (x->t.wait != y->t.wait) return x->t.wait > y->t.wait ? -1 : 1;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  return x->t.pattern < y->t.pattern ? -1 : x->t.pattern > y->t.pattern;
}

static void print_waits(const ctx *c) {
  const pt_stats *s = c->s;
  size_t n = pt_stats_nwaits(s);
  if (!n) return;
  uint64_t maxw = 0;
  for (size_t i = 0; i < n; i++)
    if (pt_stats_wait(s, i)->time > maxw) maxw = pt_stats_wait(s, i)->time;
  unit u = pick_unit(c, maxw);
  wait_sum *w = malloc(n * sizeof *w);
  if (!w) {
    fprintf(stderr, "paratrace stats: out of memory\n");
    return;
  }
  size_t nw = 0;
  for (size_t i = 0; i < n;) {
    const pt_stats_wait_row *r = pt_stats_wait(s, i);
    wait_sum *ws = &w[nw++];
    ws->t = *r;
    ws->lmax = r->wait;
    ws->lat = r->location;
    size_t j = i + 1;
    for (; j < n && pt_stats_wait(s, j)->region == r->region; j++) {
      const pt_stats_wait_row *x = pt_stats_wait(s, j);
      ws->t.calls += x->calls;
      ws->t.time += x->time;
      ws->t.wait += x->wait;
      ws->t.waited += x->waited;
      ws->t.unmatched += x->unmatched;
      if (x->wait > ws->lmax) ws->lmax = x->wait, ws->lat = x->location;
    }
    char nb[64];
    snprintf(ws->name, sizeof ws->name, "%s",
             region_label(c, r->region, nb, sizeof nb));
    i = j;
  }
  qsort(w, nw, sizeof *w, cmp_wait_sum);
  printf("\nCollective wait states (as Scalasca; times in %s: waiting for "
         "the last member, the root or the first sender)\n", u.name);
  printf("%-20s %-14s %9s %11s %11s %6s %9s %11s %5s %9s\n", "function",
         "pattern", "calls", "time", "wait", "wait%", "waited", "loc max",
         "max@", "unmatched");
  for (size_t i = 0; i < nw; i++) {
    const pt_stats_wait_row *t = &w[i].t;
    printf("%-20.20s %-14s %9" PRIu64 " %11.6g %11.6g %6.2f %9" PRIu64
           " %11.6g %5" PRIu64 " %9" PRIu64 "\n",
           w[i].name, pt_wait_pattern_name(t->pattern), t->calls,
           (double)t->time / u.div, (double)t->wait / u.div,
           pct(t->wait, t->time), t->waited, (double)w[i].lmax / u.div,
           w[i].lat, t->unmatched);
  }
  free(w);
}

static void print_table(const ctx *c) {
  int calltimes = (c->tot.have & PT_STATS_HAVE_CALL_TIMES) != 0;
  const pt_stats *s = c->s;
  int detail = (c->tot.have & PT_STATS_HAVE_DETAIL) != 0;
  int visits = (c->tot.have & PT_STATS_HAVE_VISITS) != 0;
  int sites = (c->tot.have & PT_STATS_HAVE_CALLSITES) != 0;
  int late = (c->tot.have & PT_STATS_HAVE_LATE) != 0;
  char b1[64], b2[64], b3[64], b4[64], nb[64];
  uint64_t maxt = c->tot.app_time;
  for (size_t i = 0; i < pt_stats_nregions(s); i++)
    if (pt_stats_region(s, i)->incl > maxt) maxt = pt_stats_region(s, i)->incl;
  unit u = pick_unit(c, maxt);
  printf("trace %s", c->path);
  if (c->tot.from || c->tot.to != UINT64_MAX) {
    printf(", window [%" PRIu64 ", ", c->tot.from);
    if (c->tot.to == UINT64_MAX) printf("end)");
    else printf("%" PRIu64 ")", c->tot.to);
    printf(" ticks");
  }
  printf(", %zu location%s", pt_stats_nlocations(s),
         pt_stats_nlocations(s) == 1 ? "" : "s");
  if (detail) printf(", %" PRIu64 " events", c->tot.events);
  if (c->used_summaries)
    printf(", from summaries (%" PRIu64 " events read)", c->events_read);
  printf("\napplication time %.6g %s, MPI time %.6g %s (%.2f%%)\n",
         (double)c->tot.app_time / u.div, u.name,
         (double)c->tot.mpi_time / u.div, u.name,
         pct(c->tot.mpi_time, c->tot.app_time));
  print_app_def(c);

  /* name columns as wide as the longest name (24 to 60): names that
   * differ only in their end (MPI_File_write_at_all_begin / _end) must not
   * look alike */
  int nw = 24, mw = 24;
  for (size_t i = 0; i < pt_stats_nregions(s); i++) {
    const pt_stats_region_row *r = pt_stats_region(s, i);
    size_t l = r->name ? strlen(r->name) : 0;
    if (l > (size_t)nw) nw = l > 60 ? 60 : (int)l;
    if (r->is_mpi && l > (size_t)mw) mw = l > 60 ? 60 : (int)l;
  }
  /* location columns as wide as the largest id (Score-P's are 2^32 x
   * rank + thread) */
  int lw = 8;
  for (size_t i = 0; i < pt_stats_nlocations(s); i++) {
    int d = snprintf(NULL, 0, "%" PRIu64, pt_stats_location(s, i)->location);
    if (d > lw) lw = d;
  }
  printf("\nFlat profile (times in %s; loc = over the locations that ran "
         "any region)\n", u.name);
  printf("%-*s %9s %11s %11s %10s %10s %10s %10s %10s %10s %6s %*s\n",
         nw, "region", "count", "incl", "excl", "incl/visit", "visit min",
         "visit max", "loc min", "loc mean", "loc max", "imbal", lw - 2, "max@");
  for (size_t i = 0; i < pt_stats_nregions(s); i++) {
    const pt_stats_region_row *r = pt_stats_region(s, i);
    char vmin[32] = "-", vmax[32] = "-";
    if (visits && r->count) {
      snprintf(vmin, sizeof vmin, "%.4g", (double)r->visit_min / u.div);
      snprintf(vmax, sizeof vmax, "%.4g", (double)r->visit_max / u.div);
    }
    printf("%-*.*s %9" PRIu64 " %11.6g %11.6g %10.4g %10s %10s %10.4g "
           "%10.4g %10.4g %6.2f %*s\n",
           nw, nw, r->name, r->count, (double)r->incl / u.div, (double)r->excl / u.div,
           r->count ? (double)r->incl / (double)r->count / u.div : 0, vmin,
           vmax, (double)r->incl_min / u.div, r->incl_mean / u.div,
           (double)r->incl_max / u.div, r->imbalance, lw - 2,
           loc_name(b1, sizeof b1, r->incl_max_location));
  }

  int any_mpi = 0;
  for (size_t i = 0; i < pt_stats_nregions(s); i++)
    any_mpi |= pt_stats_region(s, i)->is_mpi;
  if (any_mpi) {
    printf("\nMPI functions (%% of application / MPI time; messages sent "
           "and their sizes, as mpiP; bytes received)\n");
    printf("%-*s %9s %11s %7s %7s %9s %11s %10s %10s %10s %11s\n",
           mw, "function", "calls", "time", "%app", "%mpi", "sent", "bytes",
           "min", "mean", "max", "received");
    for (size_t i = 0; i < pt_stats_nregions(s); i++) {
      const pt_stats_region_row *r = pt_stats_region(s, i);
      if (!r->is_mpi) continue;
      printf("%-*.*s %9" PRIu64 " %11.6g", mw, mw, r->name, r->count,
             (double)r->incl / u.div);
      if (outside_app(c, r->region)) printf(" %7s %7s", "-", "-");
      else
        printf(" %7.2f %7.2f", pct(r->incl, c->tot.app_time),
               pct(r->incl, c->tot.mpi_time));
      mpi_msgs m = msgs_of(s, r->region);
      if (sites && m.messages)
        printf(" %9" PRIu64 " %11s %10s %10s %10s", m.messages,
               fmt_bytes(b1, sizeof b1, (double)m.bytes),
               fmt_bytes(b2, sizeof b2, (double)m.bmin),
               fmt_bytes(b3, sizeof b3, (double)m.bytes / (double)m.messages),
               fmt_bytes(b4, sizeof b4, (double)m.bmax));
      else
        printf(" %9s %11s %10s %10s %10s", "-", "-", "-", "-", "-");
      if (sites && m.received)
        printf(" %11s\n", fmt_bytes(b1, sizeof b1, (double)m.brecv));
      else
        printf(" %11s\n", "-");
    }
    int known = 0;
    for (size_t i = 0; i < pt_stats_ncallsites(s); i++)
      known |= pt_stats_callsite(s, i)->callsite != PT_NONE;
    /* (--site-locations: even when no site is known) */
    if (known || (c->site_locs && pt_stats_ncallsites(s))) {
      /* as wide as the longest site (up to 60): sites that differ only
       * in their line must not look alike */
      int w = 24, fw = 20;
      char fb[256];
      for (size_t i = 0; i < pt_stats_ncallsites(s); i++) {
        size_t l = strlen(region_label(c, pt_stats_callsite(s, i)->region, nb,
                                       sizeof nb));
        if (l > (size_t)fw) fw = l > 60 ? 60 : (int)l;
      }
      /* chains of statements (PARATRACE_CALLSITES above 1): up to 100 */
      int wmax = 60;
      for (size_t i = 0; i < pt_stats_ncallsites(s); i++)
        if (strstr(callsite_label(c, pt_stats_callsite(s, i)->callsite, b4,
                                  sizeof b4), " < "))
          wmax = 100;
      for (size_t i = 0; i < pt_stats_ncallsites(s); i++) {
        size_t l = strlen(callsite_label(
            c, pt_stats_callsite(s, i)->callsite, b4, sizeof b4));
        if (l > (size_t)w) w = l > (size_t)wmax ? wmax : (int)l;
      }
      int lcol = c->site_locs; /* a location column */
      printf("\nMPI call sites%s\n",
             lcol ? " (per location, then * = all of them)" : "");
      printf("%-*s %-*s", fw, "function", w, "call site");
      if (lcol) printf(" %*s", lw, "loc");
      printf(" %9s %11s %7s %7s %9s %11s %10s %10s %11s\n", "calls", "time",
             "%app", "%mpi", "sent", "bytes", "min", "max", "received");
      /* as mpiP: the functions in the order of the table above, each
       * one's sites by time, longest first */
      size_t ncs = pt_stats_ncallsites(s);
      site_order *ord = malloc((ncs ? ncs : 1) * sizeof *ord);
      for (size_t i = 0; ord && i < ncs; i++) {
        const pt_stats_callsite_row *r = pt_stats_callsite(s, i);
        ord[i].row = r;
        ord[i].rank = SIZE_MAX;
        for (size_t j = 0; j < pt_stats_nregions(s); j++)
          if (pt_stats_region(s, j)->region == r->region) ord[i].rank = j;
      }
      if (ord) qsort(ord, ncs, sizeof *ord, cmp_site_order);
      for (size_t i = 0; i < ncs; i++) {
        const pt_stats_callsite_row *a = ord ? ord[i].row : pt_stats_callsite(s, i);
        size_t lb = 0, le = 0;
        if (lcol) loc_rows(s, a, &lb, &le);
        for (size_t j = lb; j <= le; j++) {
          const pt_stats_callsite_row *r = j < le ? pt_stats_callsite_loc(s, j) : a;
          uint64_t app = c->tot.app_time, mpi = c->tot.mpi_time;
          if (j < le) loc_times(s, r->location, &app, &mpi);
          printf("%-*.*s %-*.*s", fw, fw,
                 region_label(c, r->region, nb, sizeof nb), w, w,
                 fit_site(callsite_label(c, r->callsite, b4, sizeof b4), fb,
                          sizeof fb, (size_t)w));
          if (lcol)
            printf(" %*s", lw, j < le ? loc_name(b1, sizeof b1, r->location) : "*");
          printf(" %9" PRIu64 " %11.6g", r->calls, (double)r->time / u.div);
          if (outside_app(c, r->region)) printf(" %7s %7s", "-", "-");
          else printf(" %7.2f %7.2f", pct(r->time, app), pct(r->time, mpi));
          printf(" %9" PRIu64 " %11s %10s %10s %11s\n", r->messages,
                 fmt_bytes(b1, sizeof b1, (double)r->bytes),
                 fmt_bytes(b2, sizeof b2, (double)r->bytes_min),
                 fmt_bytes(b3, sizeof b3, (double)r->bytes_max),
                 fmt_bytes(b4, sizeof b4, (double)r->bytes_received));
        }
      }
      /* mpiP's "Callsite Time statistics": one call's time */
      uint64_t tmax = 0;
      for (size_t i = 0; i < ncs; i++)
        if (pt_stats_callsite(s, i)->call_max > tmax)
          tmax = pt_stats_callsite(s, i)->call_max;
      unit cu = pick_unit(c, tmax);
      printf("\nMPI call-site times (one call, in %s; max@ = the location of "
             "the longest%s)\n", cu.name,
             lcol ? "; per location, then * = all of them" : "");
      if (!calltimes)
        printf("(min and max not computed: the summaries predate them)\n");
      printf("%-*s %-*s", fw, "function", w, "call site");
      if (lcol) printf(" %*s", lw, "loc");
      printf(" %9s %10s %10s %10s %*s\n", "calls", "min", "mean", "max",
             lw - 2, "max@");
      for (size_t i = 0; i < ncs; i++) {
        const pt_stats_callsite_row *a = ord ? ord[i].row : pt_stats_callsite(s, i);
        size_t lb = 0, le = 0;
        if (lcol) loc_rows(s, a, &lb, &le);
        for (size_t j = lb; j <= le; j++) {
          const pt_stats_callsite_row *r = j < le ? pt_stats_callsite_loc(s, j) : a;
          char mn[32] = "-", mx[32] = "-", me[32] = "-";
          if (r->calls)
            snprintf(me, sizeof me, "%.4g", (double)r->time / (double)r->calls / cu.div);
          if (calltimes && r->calls) {
            snprintf(mn, sizeof mn, "%.4g", (double)r->call_min / cu.div);
            snprintf(mx, sizeof mx, "%.4g", (double)r->call_max / cu.div);
          }
          printf("%-*.*s %-*.*s", fw, fw,
                 region_label(c, r->region, nb, sizeof nb), w, w,
                 fit_site(callsite_label(c, r->callsite, b4, sizeof b4), fb,
                          sizeof fb, (size_t)w));
          if (lcol)
            printf(" %*s", lw, j < le ? loc_name(b1, sizeof b1, r->location) : "*");
          printf(" %9" PRIu64 " %10s %10s %10s %*s\n", r->calls, mn, me, mx,
                 lw - 2,
                 calltimes && r->calls
                     ? loc_name(b2, sizeof b2, r->call_max_location)
                     : "-");
        }
      }
      free(ord);
    }
  }

  print_io(c);
  print_metrics(c);

  size_t nmo = 0; /* metric-only locations, not listed */
  uint64_t *mo = metric_only_locs(s, &nmo);
  if (pt_stats_nlocations(s) > nmo) {
    printf("\nLocations (times in %s)\n", u.name);
    printf("%*s %11s %11s %7s %9s %11s %9s %11s\n", lw, "location", "app time",
           "MPI time", "%mpi", "sent", "bytes", "received", "bytes");
    for (size_t i = 0; i < pt_stats_nlocations(s); i++) {
      const pt_stats_location_row *l = pt_stats_location(s, i);
      if (nmo && bsearch(&l->location, mo, nmo, sizeof *mo, cmp_u64))
        continue;
      printf("%*" PRIu64 " %11.6g %11.6g %7.2f %9" PRIu64 " %11s %9" PRIu64
             " %11s\n",
             lw, l->location, (double)l->app_time / u.div,
             (double)l->mpi_time / u.div, pct(l->mpi_time, l->app_time),
             l->sent, fmt_bytes(b1, sizeof b1, (double)l->bytes_sent),
             l->received, fmt_bytes(b2, sizeof b2, (double)l->bytes_received));
    }
  }
  if (nmo)
    printf("(%zu metric location%s without regions or messages not listed: "
           "see Metrics)\n", nmo, nmo == 1 ? "" : "s");
  free(mo);

  if (pt_stats_nmessages(s)) {
    uint64_t ml = 0;
    for (size_t i = 0; i < pt_stats_nmessages(s); i++) {
      const pt_stats_message_row *m = pt_stats_message(s, i);
      if (m->late_sender > ml) ml = m->late_sender;
      if (m->late_receiver > ml) ml = m->late_receiver;
    }
    unit lu = pick_unit(c, ml);
    if (late) printf("\nMessages (late sender/receiver in %s)\n", lu.name);
    else printf("\nMessages\n");
    /* communicators by their names (MPI_COMM_WORLD, the recorder's
     * "MPI_Comm_split 6edd96cd0e140001", the DUMPI reader's "MPI_Comm_dup #2"), as
     * wide as the longest (up to 40); their ids are in --csv / --json */
    comm_names cn = {0, NULL};
    int kw = 8;
    if (c->by == PT_STATS_BY_COMM) {
      comm_names_read(c->path, &cn);
      for (size_t i = 0; i < pt_stats_nmessages(s); i++) {
        const char *nm = comm_name_of(&cn, (uint64_t)pt_stats_message(s, i)->key);
        size_t l = nm ? strlen(nm) : 0;
        if (l > (size_t)kw) kw = l > 40 ? 40 : (int)l;
      }
    }
    printf("%*s %*s", lw, "sender", lw, "receiver");
    if (c->by) printf(" %*s", kw, c->by == PT_STATS_BY_TAG ? "tag" : "comm");
    printf(" %9s %11s %12s %12s\n", "count", "bytes", "late sender",
           "late recv");
    for (size_t i = 0; i < pt_stats_nmessages(s); i++) {
      const pt_stats_message_row *m = pt_stats_message(s, i);
      printf("%*s %*s", lw, loc_name(b1, sizeof b1, m->sender), lw,
             loc_name(b2, sizeof b2, m->receiver));
      const char *nm = c->by == PT_STATS_BY_COMM
                           ? comm_name_of(&cn, (uint64_t)m->key)
                           : NULL;
      if (nm) printf(" %*.*s", kw, kw, nm);
      else if (c->by) printf(" %*" PRId64, kw, m->key);
      if (late)
        printf(" %9" PRIu64 " %11s %12.4g %12.4g\n", m->count,
               fmt_bytes(b3, sizeof b3, (double)m->bytes),
               (double)m->late_sender / lu.div,
               (double)m->late_receiver / lu.div);
      else
        printf(" %9" PRIu64 " %11s %12s %12s\n", m->count,
               fmt_bytes(b3, sizeof b3, (double)m->bytes), "-", "-");
    }
    comm_names_free(&cn);
  }

  print_waits(c);

  if (c->rel != PT_NONE) {
    printf("\nInside %s (%" PRIu64 " visits, %.6g %s)\n", c->rel_name,
           c->tot.relative_count, (double)c->tot.relative_time / u.div, u.name);
    int rw = 24;
    for (size_t i = 0; i < pt_stats_nrelative(s); i++) {
      size_t l = strlen(rel_label(c, pt_stats_relative(s, i), nb, sizeof nb));
      if (l > (size_t)rw) rw = l > 60 ? 60 : (int)l;
    }
    printf("%-8s %-*s %9s %11s %11s\n", "type", rw, "name", "count", "time",
           "volume");
    for (size_t i = 0; i < pt_stats_nrelative(s); i++) {
      const pt_stats_relative_row *r = pt_stats_relative(s, i);
      int reg = r->what == PT_STATS_REL_REGION;
      printf("%-8s %-*.*s %9" PRIu64, reg ? "region" : "event", rw, rw,
             rel_label(c, r, nb, sizeof nb), r->count);
      if (reg) printf(" %11.6g %11s\n", (double)r->time / u.div, "-");
      else printf(" %11s %11s\n", "-", fmt_bytes(b1, sizeof b1, (double)r->bytes));
    }
  }
  if (c->used_summaries && !visits)
    printf("\n(from summaries written by an earlier version: per-visit "
           "min/max, the messages of each MPI function, call sites and late "
           "sender/receiver need the window's events: --no-summaries, or "
           "paratrace summarize again)\n");
  else if (c->used_summaries && !sites)
    printf("\n(from summaries written by an earlier version: the messages "
           "of each MPI function and call sites need the window's events: "
           "--no-summaries, or paratrace summarize again)\n");
  if (c->used_summaries && c->tot.mpi_time)
    printf("\n(from summaries: collective wait states need every rank's "
           "events: --no-summaries)\n");
  else if (!c->used_summaries && !(c->tot.have & PT_STATS_HAVE_WAITS) &&
           c->tot.mpi_time && c->parts)
    printf("\n(collective wait states: the ranks' shares of the trace "
           "held more than 2,097,152 collective calls each for the "
           "others; run paratrace stats in one process for them)\n");
  else if (!c->used_summaries && !(c->tot.have & PT_STATS_HAVE_WAITS) &&
           c->tot.mpi_time)
    printf("\n(collective wait states need every rank's events in one "
           "scan: not with --locations)\n");
  if (c->used_summaries && visits && !late)
    printf("\n(from summaries: late sender/receiver need the window's "
           "events: --no-summaries; a receive waited for its send at a "
           "summary time the window starts from or at the first one after "
           "an edge, the summaries predate late times, or the selection "
           "splits a process)\n");
}

/* ---- CSV ------------------------------------------------------------------------ */

/* An id, or nothing (CSV) / null (JSON) for PT_NONE. */
static void csv_id(uint64_t id) {
  if (id != PT_NONE) printf("%" PRIu64, id);
}
static void json_id(uint64_t id) {
  if (id != PT_NONE) printf("%" PRIu64, id);
  else printf("null");
}

/* The I/O rows, exact: CSV section "io". */
static void csv_io(const ctx *c) {
  char b[64];
  printf("\nsection,region_id,function,callsite_id,callsite,file_id,file,"
         "mode,ops,bytes,bytes_min,bytes_max,requested,time,short,"
         "unfinished\n");
  for (size_t i = 0; i < pt_stats_nio(c->s); i++) {
    const pt_stats_io_row *r = pt_stats_io(c->s, i);
    printf("io,");
    csv_id(r->region);
    printf(",");
    csv_str(region_label(c, r->region, b, sizeof b));
    printf(",");
    csv_id(r->callsite);
    printf(",");
    csv_str(callsite_label(c, r->callsite, b, sizeof b));
    printf(",");
    csv_id(r->file);
    printf(",");
    csv_str(file_label(c, r->file, b, sizeof b));
    printf(",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
           mode_label(r->mode), r->ops, r->bytes, r->bytes_min, r->bytes_max,
           r->requested, r->time, r->short_ops, r->unfinished);
  }
}

/* The metric rows, exact: CSV sections "metric" and "metric_location"
 * (one header), then "metric_region"; rate empty when unknown. */
static void csv_metric_row(const ctx *c, const char *sec,
                           const pt_stats_metric_row *m) {
  int ok;
  double rate = metric_rate(c, m, &ok);
  printf("%s,%" PRIu64 ",", sec, m->metric);
  csv_str(m->name);
  printf(",");
  csv_str(m->unit);
  printf(",%s,%s,", metric_type_label(m->type), metric_mode_label(m->mode));
  csv_id(m->location);
  printf(",%" PRIu64 ",%" PRIu64 ",%.17g,%.17g,%.17g,%" PRIu64 ",%" PRIu64
         ",%" PRIu64 ",%" PRIu64 ",",
         m->samples, m->locations, m->min, m->mean, m->max, m->min_location,
         m->max_location, m->first_time, m->last_time);
  if (metric_counts(m)) printf("%.17g", m->increase);
  printf(",");
  if (ok) printf("%.17g", rate);
  printf("\n");
}

static void csv_metrics(const ctx *c) {
  const pt_stats *s = c->s;
  char nb[64];
  printf("\nsection,metric_id,metric,unit,type,mode,location,samples,"
         "locations,min,mean,max,min_location,max_location,first_time,"
         "last_time,increase,rate\n");
  for (size_t i = 0; i < pt_stats_nmetrics(s); i++)
    csv_metric_row(c, "metric", pt_stats_metric(s, i));
  for (size_t i = 0; i < pt_stats_nmetric_locs(s); i++)
    csv_metric_row(c, "metric_location", pt_stats_metric_loc(s, i));
  printf("\nsection,metric_id,metric,region_id,region,visits,delta,"
         "per_visit_min,per_visit_max\n");
  for (size_t i = 0; i < pt_stats_nmetric_regions(s); i++) {
    const pt_stats_metric_region_row *r = pt_stats_metric_region(s, i);
    printf("metric_region,%" PRIu64 ",", r->metric);
    csv_str(metric_name(s, r->metric));
    printf(",%" PRIu64 ",", r->region);
    csv_str(region_label(c, r->region, nb, sizeof nb));
    printf(",%" PRIu64 ",%.17g,%.17g,%.17g\n", r->visits, r->delta,
           r->per_visit_min, r->per_visit_max);
  }
}

/* A metric value in JSON: null when not finite (a sum of huge samples,
 * their difference or a rate may overflow; JSON has no inf). */
static void json_num(double x) {
  if (isfinite(x)) printf("%.17g", x);
  else printf("null");
}

/* The metric rows, exact: JSON members "metrics", "metric_locations" and
 * "metric_regions" (after a comma, and each followed by one). */
static void json_metric_row(const ctx *c, const pt_stats_metric_row *m,
                            int loc) {
  int ok;
  double rate = metric_rate(c, m, &ok);
  printf("{\"metric\": %" PRIu64 ", \"name\": ", m->metric);
  json_str(m->name);
  printf(", \"unit\": ");
  json_str(m->unit);
  printf(", \"type\": \"%s\", \"mode\": \"%s\"", metric_type_label(m->type),
         metric_mode_label(m->mode));
  if (loc) printf(", \"location\": %" PRIu64, m->location);
  printf(", \"samples\": %" PRIu64, m->samples);
  if (!loc) printf(", \"locations\": %" PRIu64, m->locations);
  printf(", \"min\": ");
  json_num(m->min);
  printf(", \"mean\": ");
  json_num(m->mean);
  printf(", \"max\": ");
  json_num(m->max);
  if (!loc)
    printf(", \"min_location\": %" PRIu64 ", \"max_location\": %" PRIu64,
           m->min_location, m->max_location);
  printf(", \"first_time\": %" PRIu64 ", \"last_time\": %" PRIu64
         ", \"increase\": ",
         m->first_time, m->last_time);
  if (metric_counts(m)) json_num(m->increase);
  else printf("null");
  printf(", \"rate_per_second\": ");
  if (ok) json_num(rate);
  else printf("null");
  printf("}");
}

static void json_metrics(const ctx *c) {
  const pt_stats *s = c->s;
  char nb[64];
  printf("\n  \"metrics\": [");
  for (size_t i = 0; i < pt_stats_nmetrics(s); i++) {
    printf("%s\n    ", i ? "," : "");
    json_metric_row(c, pt_stats_metric(s, i), 0);
  }
  printf("\n  ],\n  \"metric_locations\": [");
  for (size_t i = 0; i < pt_stats_nmetric_locs(s); i++) {
    printf("%s\n    ", i ? "," : "");
    json_metric_row(c, pt_stats_metric_loc(s, i), 1);
  }
  printf("\n  ],\n  \"metric_regions\": ");
  if (!(c->tot.have & PT_STATS_HAVE_METRIC_REGIONS)) {
    printf("null,");
    return;
  }
  printf("[");
  for (size_t i = 0; i < pt_stats_nmetric_regions(s); i++) {
    const pt_stats_metric_region_row *r = pt_stats_metric_region(s, i);
    printf("%s\n    {\"metric\": %" PRIu64 ", \"name\": ", i ? "," : "",
           r->metric);
    json_str(metric_name(s, r->metric));
    printf(", \"region\": %" PRIu64 ", \"region_name\": ", r->region);
    json_str(region_label(c, r->region, nb, sizeof nb));
    printf(", \"visits\": %" PRIu64 ", \"delta\": ", r->visits);
    json_num(r->delta);
    printf(", \"per_visit_min\": ");
    json_num(r->per_visit_min);
    printf(", \"per_visit_max\": ");
    json_num(r->per_visit_max);
    printf("}");
  }
  printf("\n  ],");
}

/* The I/O rows, exact: JSON member "io" (after a comma). */
static void json_io(const ctx *c) {
  char b[64];
  printf("\n  \"io\": [");
  for (size_t i = 0; i < pt_stats_nio(c->s); i++) {
    const pt_stats_io_row *r = pt_stats_io(c->s, i);
    printf("%s\n    {\"region\": ", i ? "," : "");
    json_id(r->region);
    printf(", \"function\": ");
    json_str(region_label(c, r->region, b, sizeof b));
    printf(", \"callsite\": ");
    json_id(r->callsite);
    printf(", \"callsite_name\": ");
    json_str(callsite_label(c, r->callsite, b, sizeof b));
    printf(", \"file\": ");
    json_id(r->file);
    printf(", \"file_name\": ");
    json_str(file_label(c, r->file, b, sizeof b));
    printf(", \"mode\": \"%s\", \"ops\": %" PRIu64 ", \"bytes\": %" PRIu64
           ", \"bytes_min\": %" PRIu64 ", \"bytes_max\": %" PRIu64
           ", \"requested\": %" PRIu64 ", \"time\": %" PRIu64
           ", \"short\": %" PRIu64 ", \"unfinished\": %" PRIu64 "}",
           mode_label(r->mode), r->ops, r->bytes, r->bytes_min, r->bytes_max,
           r->requested, r->time, r->short_ops, r->unfinished);
  }
  printf("\n  ],");
}


/* The collective wait-state rows, exact: CSV section "wait". */
static void csv_waits(const ctx *c) {
  char b[64];
  printf("\nsection,region_id,function,pattern,location,calls,time,wait,"
         "waited,unmatched\n");
  for (size_t i = 0; i < pt_stats_nwaits(c->s); i++) {
    const pt_stats_wait_row *r = pt_stats_wait(c->s, i);
    printf("wait,");
    csv_id(r->region);
    printf(",");
    csv_str(region_label(c, r->region, b, sizeof b));
    printf(",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ",%" PRIu64 "\n",
           pt_wait_pattern_name(r->pattern), r->location, r->calls, r->time,
           r->wait, r->waited, r->unmatched);
  }
}

static void json_waits(const ctx *c) {
  char b[64];
  printf("\n  \"waits\": [");
  for (size_t i = 0; i < pt_stats_nwaits(c->s); i++) {
    const pt_stats_wait_row *r = pt_stats_wait(c->s, i);
    printf("%s\n    {\"region\": ", i ? "," : "");
    json_id(r->region);
    printf(", \"function\": ");
    json_str(region_label(c, r->region, b, sizeof b));
    printf(", \"pattern\": \"%s\", \"location\": %" PRIu64
           ", \"calls\": %" PRIu64 ", \"time\": %" PRIu64
           ", \"wait\": %" PRIu64 ", \"waited\": %" PRIu64
           ", \"unmatched\": %" PRIu64 "}",
           pt_wait_pattern_name(r->pattern), r->location, r->calls, r->time,
           r->wait, r->waited, r->unmatched);
  }
  printf("\n  ],");
}

static void print_csv(const ctx *c) {
  const pt_stats *s = c->s;
  int detail = (c->tot.have & PT_STATS_HAVE_DETAIL) != 0;
  int visits = (c->tot.have & PT_STATS_HAVE_VISITS) != 0;
  int sites = (c->tot.have & PT_STATS_HAVE_CALLSITES) != 0;
  int late = (c->tot.have & PT_STATS_HAVE_LATE) != 0;
  char nb[64], b2[64];
  printf("section,from,to,end,ticks_per_second,locations,events,app_time,"
         "mpi_time,app_def,app_region,from_summaries\n");
  printf("totals,%" PRIu64 ",", c->tot.from);
  if (c->tot.to != UINT64_MAX) printf("%" PRIu64, c->tot.to);
  printf(",%" PRIu64 ",%" PRIu64 ",%zu,", c->tot.end, c->tps,
         pt_stats_nlocations(s));
  if (detail) printf("%" PRIu64, c->tot.events);
  printf(",%" PRIu64 ",%" PRIu64 ",%s,", c->tot.app_time, c->tot.mpi_time,
         app_def_name(c->tot.app_def));
  if (c->tot.app_region != PT_NONE) printf("%" PRIu64, c->tot.app_region);
  printf(",%d\n\n", c->used_summaries);
  printf("section,region_id,region,mpi,count,incl,excl,visit_min,visit_max,"
         "incl_loc_min,incl_loc_mean,incl_loc_max,incl_max_location,"
         "excl_loc_min,excl_loc_mean,excl_loc_max,excl_max_location,"
         "imbalance\n");
  for (size_t i = 0; i < pt_stats_nregions(s); i++) {
    const pt_stats_region_row *r = pt_stats_region(s, i);
    printf("region,%" PRIu64 ",", r->region);
    csv_str(r->name);
    printf(",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", r->is_mpi, r->count,
           r->incl, r->excl);
    if (visits && r->count)
      printf("%" PRIu64 ",%" PRIu64, r->visit_min, r->visit_max);
    else
      printf(",");
    printf(",%" PRIu64 ",%.17g,%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ",%.17g,%" PRIu64 ",%" PRIu64 ",%.17g\n",
           r->incl_min, r->incl_mean, r->incl_max, r->incl_max_location,
           r->excl_min, r->excl_mean, r->excl_max, r->excl_max_location,
           r->imbalance);
  }
  printf("\nsection,location,region_id,count,incl,excl,visit_min,visit_max\n");
  for (size_t i = 0; i < pt_stats_nregion_locs(s); i++) {
    const pt_stats_region_loc_row *r = pt_stats_region_loc(s, i);
    printf("region_location,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ",%" PRIu64 ",",
           r->location, r->region, r->count, r->incl, r->excl);
    if (visits && r->count)
      printf("%" PRIu64 ",%" PRIu64 "\n", r->visit_min, r->visit_max);
    else
      printf(",\n");
  }
  printf("\nsection,location,app_time,mpi_time,sent,bytes_sent,received,"
         "bytes_received\n");
  for (size_t i = 0; i < pt_stats_nlocations(s); i++) {
    const pt_stats_location_row *l = pt_stats_location(s, i);
    printf("location,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ",%" PRIu64 ",%" PRIu64 "\n",
           l->location, l->app_time, l->mpi_time, l->sent, l->bytes_sent,
           l->received, l->bytes_received);
  }
  if (sites) {
    int ct = (c->tot.have & PT_STATS_HAVE_CALL_TIMES) != 0;
    printf("\nsection,region_id,function,callsite_id,callsite,calls,time,"
           "pct_app,pct_mpi,messages,bytes,bytes_min,bytes_max,received,"
           "bytes_received,location,call_min,call_mean,call_max,"
           "call_max_location\n");
    /* summed over the locations (mpi_callsite), then per location
     * (mpi_callsite_location: percentages of the location's times) */
    size_t n1 = pt_stats_ncallsites(s), n2 = pt_stats_ncallsite_locs(s);
    for (size_t i = 0; i < n1 + n2; i++) {
      const pt_stats_callsite_row *r =
          i < n1 ? pt_stats_callsite(s, i) : pt_stats_callsite_loc(s, i - n1);
      uint64_t app = c->tot.app_time, mpi = c->tot.mpi_time;
      if (i >= n1) loc_times(s, r->location, &app, &mpi);
      printf("%s,%" PRIu64 ",", i < n1 ? "mpi_callsite" : "mpi_callsite_location",
             r->region);
      csv_str(region_label(c, r->region, nb, sizeof nb));
      printf(",");
      if (r->callsite != PT_NONE) printf("%" PRIu64, r->callsite);
      printf(",");
      csv_str(callsite_label(c, r->callsite, b2, sizeof b2));
      printf(",%" PRIu64 ",%" PRIu64 ",", r->calls, r->time);
      if (!outside_app(c, r->region))
        printf("%.17g,%.17g", pct(r->time, app), pct(r->time, mpi));
      else
        printf(",");
      printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
             ",%" PRIu64 ",",
             r->messages, r->bytes, r->bytes_min, r->bytes_max, r->received,
             r->bytes_received);
      csv_id(r->location);
      printf(",");
      if (ct && r->calls) printf("%" PRIu64, r->call_min);
      printf(",");
      if (r->calls) printf("%.17g", (double)r->time / (double)r->calls);
      printf(",");
      if (ct && r->calls)
        printf("%" PRIu64 ",%" PRIu64, r->call_max, r->call_max_location);
      else
        printf(",");
      printf("\n");
    }
  }
  csv_io(c);
  csv_waits(c);
  csv_metrics(c);
  printf("\nsection,sender,receiver,key,count,bytes,late_sender,"
         "late_receiver,matched\n");
  for (size_t i = 0; i < pt_stats_nmessages(s); i++) {
    const pt_stats_message_row *m = pt_stats_message(s, i);
    printf("message,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64
           ",",
           m->sender, m->receiver, m->key, m->count, m->bytes);
    if (late)
      printf("%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", m->late_sender,
             m->late_receiver, m->matched);
    else
      printf(",,\n");
  }
  if (c->rel != PT_NONE) {
    printf("\nsection,within,type,id,name,count,time,bytes\n");
    printf("relative,");
    csv_str(c->rel_name);
    printf(",self,%" PRIu64 ",", c->rel);
    csv_str(c->rel_name);
    printf(",%" PRIu64 ",%" PRIu64 ",\n", c->tot.relative_count,
           c->tot.relative_time);
    for (size_t i = 0; i < pt_stats_nrelative(s); i++) {
      const pt_stats_relative_row *r = pt_stats_relative(s, i);
      printf("relative,");
      csv_str(c->rel_name);
      printf(",%s,%" PRIu64 ",",
             r->what == PT_STATS_REL_REGION ? "region" : "event", r->id);
      csv_str(rel_label(c, r, nb, sizeof nb));
      printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->count, r->time,
             r->bytes);
    }
  }
}

/* ---- JSON ------------------------------------------------------------------------ */

static void print_json(const ctx *c) {
  const pt_stats *s = c->s;
  int detail = (c->tot.have & PT_STATS_HAVE_DETAIL) != 0;
  int visits = (c->tot.have & PT_STATS_HAVE_VISITS) != 0;
  int sites = (c->tot.have & PT_STATS_HAVE_CALLSITES) != 0;
  int late = (c->tot.have & PT_STATS_HAVE_LATE) != 0;
  char nb[64];
  printf("{\n  \"trace\": ");
  json_str(c->path);
  printf(",\n  \"window\": {\"from\": %" PRIu64 ", \"to\": ", c->tot.from);
  if (c->tot.to == UINT64_MAX) printf("null");
  else printf("%" PRIu64, c->tot.to);
  printf(", \"end\": %" PRIu64 "},\n", c->tot.end);
  printf("  \"ticks_per_second\": ");
  if (c->tps) printf("%" PRIu64, c->tps);
  else printf("null");
  printf(",\n  \"from_summaries\": %s,\n", c->used_summaries ? "true" : "false");
  printf("  \"detail\": %s,\n", detail ? "true" : "false");
  printf("  \"visit_extremes\": %s,\n", visits ? "true" : "false");
  printf("  \"call_time_extremes\": %s,\n",
         c->tot.have & PT_STATS_HAVE_CALL_TIMES ? "true" : "false");
  printf("  \"late_times\": %s,\n", late ? "true" : "false");
  printf("  \"totals\": {\"locations\": %zu, \"events\": ",
         pt_stats_nlocations(s));
  if (detail) printf("%" PRIu64, c->tot.events);
  else printf("null");
  printf(", \"app_time\": %" PRIu64 ", \"mpi_time\": %" PRIu64
         ", \"app_def\": \"%s\", \"app_region\": ",
         c->tot.app_time, c->tot.mpi_time, app_def_name(c->tot.app_def));
  if (c->tot.app_region != PT_NONE) printf("%" PRIu64, c->tot.app_region);
  else printf("null");
  printf("},\n");
  printf("  \"regions\": [");
  for (size_t i = 0; i < pt_stats_nregions(s); i++) {
    const pt_stats_region_row *r = pt_stats_region(s, i);
    printf("%s\n    {\"id\": %" PRIu64 ", \"name\": ", i ? "," : "", r->region);
    json_str(r->name);
    printf(", \"mpi\": %s, \"count\": %" PRIu64 ", \"incl\": %" PRIu64
           ", \"excl\": %" PRIu64,
           r->is_mpi ? "true" : "false", r->count, r->incl, r->excl);
    if (visits && r->count)
      printf(", \"visit_min\": %" PRIu64 ", \"visit_max\": %" PRIu64,
             r->visit_min, r->visit_max);
    printf(", \"incl_loc\": {\"min\": %" PRIu64 ", \"mean\": %.17g, \"max\": %" PRIu64
           ", \"max_location\": %" PRIu64 "}",
           r->incl_min, r->incl_mean, r->incl_max, r->incl_max_location);
    printf(", \"excl_loc\": {\"min\": %" PRIu64 ", \"mean\": %.17g, \"max\": %" PRIu64
           ", \"max_location\": %" PRIu64 "}",
           r->excl_min, r->excl_mean, r->excl_max, r->excl_max_location);
    printf(", \"imbalance\": %.17g}", r->imbalance);
  }
  printf("\n  ],\n  \"region_locations\": [");
  for (size_t i = 0; i < pt_stats_nregion_locs(s); i++) {
    const pt_stats_region_loc_row *r = pt_stats_region_loc(s, i);
    printf("%s\n    {\"location\": %" PRIu64 ", \"region\": %" PRIu64
           ", \"count\": %" PRIu64 ", \"incl\": %" PRIu64 ", \"excl\": %" PRIu64,
           i ? "," : "", r->location, r->region, r->count, r->incl, r->excl);
    if (visits && r->count)
      printf(", \"visit_min\": %" PRIu64 ", \"visit_max\": %" PRIu64,
             r->visit_min, r->visit_max);
    printf("}");
  }
  printf("\n  ],\n  \"locations\": [");
  for (size_t i = 0; i < pt_stats_nlocations(s); i++) {
    const pt_stats_location_row *l = pt_stats_location(s, i);
    printf("%s\n    {\"location\": %" PRIu64 ", \"app_time\": %" PRIu64
           ", \"mpi_time\": %" PRIu64 ", \"sent\": %" PRIu64
           ", \"bytes_sent\": %" PRIu64 ", \"received\": %" PRIu64
           ", \"bytes_received\": %" PRIu64 "}",
           i ? "," : "", l->location, l->app_time, l->mpi_time, l->sent,
           l->bytes_sent, l->received, l->bytes_received);
  }
  int ct = (c->tot.have & PT_STATS_HAVE_CALL_TIMES) != 0;
  for (int part = 0; part < 2; part++) {
    printf(part ? ",\n  \"mpi_callsite_locations\": "
                : "\n  ],\n  \"mpi_callsites\": ");
    if (!sites) {
      printf("null");
      continue;
    }
    printf("[");
    size_t n = part ? pt_stats_ncallsite_locs(s) : pt_stats_ncallsites(s);
    for (size_t i = 0; i < n; i++) {
      const pt_stats_callsite_row *r =
          part ? pt_stats_callsite_loc(s, i) : pt_stats_callsite(s, i);
      uint64_t app = c->tot.app_time, mpi = c->tot.mpi_time;
      printf("%s\n    {", i ? "," : "");
      if (part) {
        printf("\"location\": %" PRIu64 ", ", r->location);
        loc_times(s, r->location, &app, &mpi);
      }
      printf("\"region\": %" PRIu64 ", \"function\": ", r->region);
      json_str(region_label(c, r->region, nb, sizeof nb));
      printf(", \"callsite\": ");
      if (r->callsite == PT_NONE) printf("null");
      else {
        printf("%" PRIu64 ", \"callsite_name\": ", r->callsite);
        json_str(callsite_label(c, r->callsite, nb, sizeof nb));
      }
      printf(", \"calls\": %" PRIu64 ", \"time\": %" PRIu64, r->calls,
             r->time);
      if (r->calls)
        printf(", \"call_mean\": %.17g", (double)r->time / (double)r->calls);
      if (ct && r->calls)
        printf(", \"call_min\": %" PRIu64 ", \"call_max\": %" PRIu64
               ", \"call_max_location\": %" PRIu64,
               r->call_min, r->call_max, r->call_max_location);
      if (outside_app(c, r->region))
        printf(", \"pct_app\": null, \"pct_mpi\": null");
      else
        printf(", \"pct_app\": %.17g, \"pct_mpi\": %.17g", pct(r->time, app),
               pct(r->time, mpi));
      printf(", \"messages\": %" PRIu64 ", \"bytes\": %" PRIu64
             ", \"bytes_min\": %" PRIu64 ", \"bytes_max\": %" PRIu64
             ", \"received\": %" PRIu64 ", \"bytes_received\": %" PRIu64 "}",
             r->messages, r->bytes, r->bytes_min, r->bytes_max, r->received,
             r->bytes_received);
    }
    printf("\n  ]");
  }
  printf(",");
  json_io(c);
  json_waits(c);
  json_metrics(c);
  printf("\n  \"messages\": {\"by\": \"%s\", \"cells\": [",
         c->by == PT_STATS_BY_TAG ? "tag" : c->by == PT_STATS_BY_COMM ? "comm" : "pair");
  for (size_t i = 0; i < pt_stats_nmessages(s); i++) {
    const pt_stats_message_row *m = pt_stats_message(s, i);
    printf("%s\n    {\"sender\": %" PRIu64 ", \"receiver\": %" PRIu64,
           i ? "," : "", m->sender, m->receiver);
    if (c->by) printf(", \"key\": %" PRId64, m->key);
    printf(", \"count\": %" PRIu64 ", \"bytes\": %" PRIu64, m->count, m->bytes);
    if (late)
      printf(", \"late_sender\": %" PRIu64 ", \"late_receiver\": %" PRIu64
             ", \"matched\": %" PRIu64,
             m->late_sender, m->late_receiver, m->matched);
    printf("}");
  }
  printf("\n  ]}");
  if (c->rel != PT_NONE) {
    printf(",\n  \"relative\": {\"region\": %" PRIu64 ", \"name\": ", c->rel);
    json_str(c->rel_name);
    printf(", \"count\": %" PRIu64 ", \"time\": %" PRIu64 ", \"inside\": [",
           c->tot.relative_count, c->tot.relative_time);
    for (size_t i = 0; i < pt_stats_nrelative(s); i++) {
      const pt_stats_relative_row *r = pt_stats_relative(s, i);
      printf("%s\n    {\"type\": \"%s\", \"id\": %" PRIu64 ", \"name\": ",
             i ? "," : "", r->what == PT_STATS_REL_REGION ? "region" : "event",
             r->id);
      json_str(rel_label(c, r, nb, sizeof nb));
      printf(", \"count\": %" PRIu64 ", \"time\": %" PRIu64
             ", \"bytes\": %" PRIu64 "}",
             r->count, r->time, r->bytes);
    }
    printf("\n  ]}");
  }
  printf("\n}\n");
}

/* ---- the command ------------------------------------------------------------------ */

/* Full scan of any source; with runs (pt_source_opts.runs) *redo is set,
 * and nothing returned, when the results turn out to depend on how the
 * locations interleave (pt_stats_order_dependent). */
static int scan_once(const char *path, const pt_stats_opts *o, int runs,
                     pt_stats **out, int *redo) {
  *redo = 0;
  pt_source_opts so = {0};
  so.warn = cli_warn;
  /* a native archive skips unselected streams; other sources are filtered
   * by the engine so that the end of the trace is the same either way */
  const char *fmt = pt_format_detect(path);
  if (fmt && strcmp(fmt, "ptf") == 0) {
    so.locations = o->locations;
    so.nlocations = o->nlocations;
  }
  so.runs = runs;
  pt_source *src = NULL;
  pt_error err = {0};
  if (pt_source_open(&src, path, &so, &err) < 0)
    return cli_fail(path, "%s", err.msg);
  pt_stats_opts opts = *o;
  /* on a native archive the end of the trace comes from the index, as on
   * the summaries path */
  pt_reader *r = pt_source_reader(src);
  if (r && !opts.end)
    for (size_t i = 0; i < pt_reader_nstreams(r); i++) {
      const pt_stream_info *si = pt_reader_stream_info(r, i);
      if (si->events && si->last_time > opts.end) opts.end = si->last_time;
    }
  pt_stats *s = NULL;
  int rc = pt_stats_create(&s, &opts);
  if (rc < 0) {
    pt_source_close(src);
    return cli_fail(path, "%s", pt_strerror(rc));
  }
  cli_progress bar;
  cli_progress_start(&bar, "stats", cli_source_event_total(src));
  uint64_t n = 0;
  int status = CLI_OK;
  if (r) {
    /* a native archive: definitions, then events straight from the
     * reader (what its source would give, without the item copies) */
    rc = PT_OK;
    for (size_t i = 0; i < pt_reader_ndefs(r) && rc == PT_OK; i++)
      rc = pt_stats_def(s, pt_reader_def(r, i));
    if (rc < 0) status = cli_fail(path, "%s", pt_strerror(rc));
    /* runs of one location at a time: the results do not depend on how
     * locations interleave, and this skips the per-event merge */
    pt_event_run run;
    uint64_t shown = 0;
    while (status == CLI_OK && (rc = pt_reader_next_run(r, &run)) == PT_OK) {
      int c = pt_stats_run(s, &run);
      if (c < 0) status = cli_fail(path, "%s", pt_strerror(c));
      n += run.n;
      if (n - shown >= 0x10000) cli_progress_update(&bar, shown = n);
    }
    if (status == CLI_OK && rc < 0 && rc != PT_END)
      status = cli_fail(path, "%s", pt_reader_errmsg(r));
  } else {
    const pt_item *its;
    size_t k;
    uint64_t shown = 0;
    while (status == CLI_OK &&
           (rc = pt_source_next_batch(src, &its, &k)) == PT_OK) {
      for (size_t i = 0; i < k; i++) {
        const pt_item *it = &its[i];
        int c = PT_OK;
        if (it->type == PT_ITEM_DEF) c = pt_stats_def(s, &it->u.def);
        else if (it->type == PT_ITEM_EVENT) {
          c = pt_stats_event(s, &it->u.event);
          n++;
        }
        if (c < 0) {
          status = cli_fail(path, "%s", pt_strerror(c));
          break;
        }
      }
      if (n - shown >= 0x10000) cli_progress_update(&bar, shown = n);
      /* (a source in time order is read once: a second pass would only
       * repeat it) */
      if (status == CLI_OK && pt_source_runs(src) &&
          pt_stats_order_dependent(s)) {
        *redo = 1;
        break;
      }
    }
    if (status == CLI_OK && rc < 0)
      status = cli_fail(path, "%s", pt_source_errmsg(src));
  }
  cli_progress_end(&bar);
  if (*redo) {
    pt_source_close(src);
    pt_stats_destroy(s);
    return CLI_OK;
  }
  if (status == CLI_OK && (rc = pt_stats_finish(s)) < 0)
    status = cli_fail(path, "%s", pt_strerror(rc));
  pt_source_close(src);
  if (status != CLI_OK) {
    pt_stats_destroy(s);
    return status;
  }
  *out = s;
  return CLI_OK;
}

/* Full scan of any source: a source that holds runs of one location
 * (DUMPI) is read that way, without its merge, and again in time order
 * if the results turn out to depend on the interleaving (a wildcard
 * receive without a status, a process with several locations); the
 * warnings said in the first pass are not said again (cli_warn). */
static int scan(const char *path, const pt_stats_opts *o, pt_stats **out) {
  int redo = 0;
  *out = NULL;
  int status = scan_once(path, o, 1, out, &redo);
  if (status == CLI_OK && redo) status = scan_once(path, o, 0, out, &redo);
  return status;
}

/* The locations of the streams rank `rank` of `size` reads (the same
 * split on every rank: it depends on the index only), restricted to the
 * user's selection.  An empty share is a list with one location no trace has. */
typedef struct loc_grp {
  uint64_t loc, group;
} loc_grp;
static int cmp_loc_grp(const void *a, const void *b) {
  const loc_grp *x = a, *y = b;
  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

static int share_locations(const char *path, int rank, int size,
                           const uint64_t *sel, size_t nsel, uint64_t **out,
                           size_t *nout) {
  pt_reader *r = NULL;
  pt_error err = {0};
  *out = NULL;
  *nout = 0;
  if (pt_reader_open(&r, path, NULL, &err) != PT_OK)
    return cli_fail(path, "%s", err.msg);
  size_t ns = pt_reader_nstreams(r);
  size_t *order = calloc(ns + 1, sizeof *order);
  uint64_t *load = calloc((size_t)size, sizeof *load);
  int *owner = calloc(ns + 1, sizeof *owner);
  size_t nloc = 0;
  for (size_t i = 0; i < ns; i++)
    nloc += pt_reader_stream_info(r, i)->nlocations;
  uint64_t *mine = calloc(nloc + 1, sizeof *mine);
  if (!order || !load || !owner || !mine) {
    free(order), free(load), free(owner), free(mine);
    pt_reader_close(r);
    return cli_fail(NULL, "out of memory");
  }
  /* Contiguous runs of streams in location order (neighbours usually
   * talk to neighbours: few messages cross a cut, and unmatched ones are
   * what the reduction has to carry), cut at equal shares of the events;
   * the threads of one process (its location group) stay on one rank: a
   * thread may complete an operation another began (MPI_THREAD_MULTIPLE),
   * which only a whole process's events pair (the MPI recorder numbers
   * thread t of rank r r + t * nranks, so a rank's threads are not
   * neighbours by location). */
  size_t nd = pt_reader_ndefs(r), nlg = 0;
  uint64_t *grp = calloc(ns + 1, sizeof *grp);
  loc_grp *lg = calloc(nd + 1, sizeof *lg);
  if (!grp || !lg) {
    free(order), free(load), free(owner), free(mine), free(grp), free(lg);
    pt_reader_close(r);
    return cli_fail(NULL, "out of memory");
  }
  for (size_t d = 0; d < nd; d++) {
    const pt_def *def = pt_reader_def(r, d);
    if (def->kind == PT_DEF_LOCATION)
      lg[nlg++] = (loc_grp){def->id, def->parent};
  }
  qsort(lg, nlg, sizeof *lg, cmp_loc_grp);
  for (size_t i = 0; i < ns; i++) {
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    loc_grp key = {si->nlocations ? si->locations[0] : UINT64_MAX, 0};
    const loc_grp *f = nlg ? bsearch(&key, lg, nlg, sizeof *lg, cmp_loc_grp) : NULL;
    /* UINT64_MAX: no group, its own process (ordered by location) */
    grp[i] = f ? f->group : UINT64_MAX;
  }
  free(lg);
  for (size_t i = 0; i < ns; i++) order[i] = i;
  for (size_t i = 1; i < ns; i++) { /* by group, then first location */
    size_t k = order[i], j = i;
    const pt_stream_info *sk = pt_reader_stream_info(r, k);
    uint64_t lk = sk->nlocations ? sk->locations[0] : UINT64_MAX;
    while (j > 0) {
      const pt_stream_info *sj = pt_reader_stream_info(r, order[j - 1]);
      uint64_t lj = sj->nlocations ? sj->locations[0] : UINT64_MAX;
      uint64_t gj = grp[order[j - 1]], gk = grp[k];
      if (gj < gk || (gj == gk && lj <= lk)) break;
      order[j] = order[j - 1];
      j--;
    }
    order[j] = k;
  }
  uint64_t total = 0, acc = 0;
  for (size_t i = 0; i < ns; i++)
    total += pt_reader_stream_info(r, i)->events + 1;
  for (size_t i = 0; i < ns; i++) {
    uint64_t e = pt_reader_stream_info(r, order[i])->events + 1;
    /* the rank whose share holds this stream's middle event */
    uint64_t mid = acc + e / 2;
    int q = total ? (int)((long double)mid * size / total) : 0;
    owner[order[i]] = q < size ? q : size - 1;
    if (i && grp[order[i]] != UINT64_MAX && grp[order[i]] == grp[order[i - 1]])
      owner[order[i]] = owner[order[i - 1]]; /* its process's rank */
    acc += e;
  }
  (void)load;
  free(grp);
  size_t n = 0;
  for (size_t i = 0; i < ns; i++) {
    if (owner[i] != rank) continue;
    const pt_stream_info *si = pt_reader_stream_info(r, i);
    for (uint64_t j = 0; j < si->nlocations; j++) {
      uint64_t l = si->locations[j];
      int keep = nsel == 0;
      for (size_t q = 0; q < nsel && !keep; q++) keep = sel[q] == l;
      if (keep) mine[n++] = l;
    }
  }
  if (n == 0) mine[n++] = UINT64_MAX - 1; /* nothing for this rank */
  free(order), free(load), free(owner);
  pt_reader_close(r);
  *out = mine;
  *nout = n;
  return CLI_OK;
}

int cmd_stats(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL, *rel = NULL, *locs = NULL;
  cli_time from = {0}, to = {0};
  int out = OUT_TABLE, by = PT_STATS_BY_PAIR, nosum = 0, reqsum = 0, id;
  int site_locs = 0;
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case O_FROM:
        if (cli_parse_time(val, &from)) return cli_usage("bad time '%s'", val);
        break;
      case O_TO:
        if (cli_parse_time(val, &to)) return cli_usage("bad time '%s'", val);
        break;
      case O_LOCS: locs = val; break;
      case O_REL: rel = val; break;
      case O_BY:
        if (strcmp(val, "tag") == 0) by = PT_STATS_BY_TAG;
        else if (strcmp(val, "comm") == 0) by = PT_STATS_BY_COMM;
        else return cli_usage("--by takes tag or comm, not '%s'", val);
        break;
      case O_CSV: case O_JSON:
        if (out != OUT_TABLE && out != (id == O_CSV ? OUT_CSV : OUT_JSON))
          return cli_usage("--csv and --json: choose one");
        out = id == O_CSV ? OUT_CSV : OUT_JSON;
        break;
      case O_NOSUM: nosum = 1; break;
      case O_REQSUM: reqsum = 1; break;
      case O_SITELOCS: site_locs = 1; break;
      case CLI_ARG:
        if (path) return cli_usage("one trace at a time");
        path = val;
        break;
    }
  }
  if (!path) return cli_usage("missing TRACE");
  int nproc = cli_launcher_size();
  if (nproc > 1 && !cli_parallel) return cli_exec_parallel(argc, argv);
  if (nosum && reqsum)
    return cli_usage("--no-summaries and --require-summaries exclude each other");
  uint64_t *sel = NULL;
  size_t nsel = 0;
  if (locs && cli_parse_locations(locs, &sel, &nsel))
    return cli_usage("bad location list '%s'", locs);
  if (nsel && path) { /* a native archive: every selected location exists */
    const char *fmt = pt_format_detect(path);
    pt_reader *r = NULL;
    if (fmt && !strcmp(fmt, "ptf") && pt_reader_open(&r, path, NULL, NULL) == PT_OK) {
      int bad = cli_check_locations(path, r, sel, nsel) != CLI_OK;
      pt_reader_close(r);
      if (bad) {
        free(sel);
        return CLI_FAIL;
      }
    }
  }
  ctx c = {0};
  c.path = path;
  c.out = out;
  c.by = by;
  c.site_locs = site_locs;
  c.rel = PT_NONE;
  c.rel_name = rel;
  int status = scan_defs(path, rel, &c.rel, &c.tps);
  pt_stats_opts o = {0};
  if (status == CLI_OK &&
      cli_resolve_window(path, &from, &to, &o.from, &o.to) != 0)
    status = CLI_FAIL;
  if (status == CLI_OK && to.set && o.to <= o.from)
    status = cli_fail(path, "empty window: --to must be after --from");
  /* under mpirun, the most messages a share defers for rank 0 (default
   * 2^20; a tuning and test knob), checked before any rank splits */
  uint64_t max_deferred = 0;
  const char *md = getenv("PARATRACE_STATS_MAX_DEFERRED");
  if (status == CLI_OK && md && *md && cli_parse_u64(md, &max_deferred) != 0)
    status = cli_fail(NULL, "PARATRACE_STATS_MAX_DEFERRED=%s: not a number "
                      "of messages", md);
  if (status != CLI_OK) {
    free(sel);
    return status;
  }
  /* Under mpirun (paratrace-mpi): this rank's share of the streams. */
  int prank = 0, psize = 1, mine = 1;
  uint64_t *part = NULL;
  /* the user's selection (usel) stays for a window from summaries, which is
   * computed whole (its cost does not grow with the trace, and late
   * sender/receiver pair messages across the shares); sel becomes the
   * share */
  uint64_t *usel = sel;
  size_t nusel = nsel;
  if (nproc > 1) {
    if (cli_parallel->init(&prank, &psize) != 0) {
      free(usel);
      return cli_fail(NULL, "MPI_Init failed");
    }
    const char *fmt = pt_format_detect(path);
    if (psize > 1 && fmt && strcmp(fmt, "ptf") == 0) {
      size_t npart = 0;
      status = share_locations(path, prank, psize, usel, nusel, &part, &npart);
      sel = part;
      nsel = npart;
      part = NULL;
      /* merged on rank 0: wildcard receives wait for it; the collective
       * wait states too, unless the shares are of a selection (--locations:
       * none, as in one process) */
      o.part = nusel ? 2 : 1;
      c.parts = !nusel;
      o.part_max_deferred = max_deferred; /* (0: the default) */
    } else if (psize > 1 && prank != 0) {
      mine = 2; /* not a native archive: rank 0 reads it alone */
    }
  }
  o.locations = sel;
  o.nlocations = nsel;
  o.relative_to = c.rel;
  o.matrix_by = (uint32_t)by;
  pt_stats *s = NULL;
  char nosum_why[sizeof ((pt_error *)0)->msg] = "";
  int windowed = from.set || to.set;
  int can_sum = !nosum && c.rel == PT_NONE && by == PT_STATS_BY_PAIR;
  if (status == CLI_OK && mine == 1 && (windowed || reqsum) && can_sum) {
    const char *fmt = pt_format_detect(path);
    pt_error err = {0};
    pt_stats_opts wo = o;
    wo.locations = usel;
    wo.nlocations = nusel;
    wo.part = 0; /* computed whole */
    /* every rank computes the same window; rank 0's is the result */
    int rc = fmt && strcmp(fmt, "ptf") == 0
                 ? pt_stats_window(&s, path, &wo, &c.events_read, &err)
                 : PT_ENOTFOUND;
    if (rc == PT_OK) {
      c.used_summaries = 1;
      if (prank != 0) {
        pt_stats_destroy(s);
        s = NULL;
        mine = 2;
      }
    } else if (rc != PT_ENOTFOUND) status = cli_fail(path, "%s", err.msg);
    else if (strstr(err.msg, "full scan"))
      snprintf(nosum_why, sizeof nosum_why, "%s", err.msg);
  }
  if (status == CLI_OK && mine == 1 && !s && reqsum)
    status = nosum_why[0]
                 ? cli_fail(NULL, "%s", nosum_why)
                 : cli_fail(path, "%s",
                            can_sum
                                ? "no usable summaries (run paratrace summarize)"
                                : "--by and --relative-to need a full scan");
  if (status == CLI_OK && mine == 1 && !s) status = scan(path, &o, &s);
  if (sel != usel) free(sel);
  if (nproc > 1 && psize > 1) {
    /* every rank takes part in the reduction, also after a failure */
    int failed = 0;
    char why[512] = "";
    int r = cli_parallel->reduce(&s, status != CLI_OK ? 0 : mine, prank,
                                 psize, &failed, why, sizeof why);
    if (prank != 0) {
      pt_stats_destroy(s);
      free(usel);
      cli_parallel->finish();
      return status;
    }
    cli_parallel->finish();
    if (status == CLI_OK && r != 0) status = cli_fail(path, "%s", why);
    if (status == CLI_OK && failed)
      status = cli_fail(path, "another rank failed (see its message)");
    if (status == CLI_OK && s && pt_stats_part_overflow(s)) {
      /* the shares deferred too many messages for receives from
       * MPI_ANY_SOURCE without a status: rank 0 scans the trace alone */
      pt_stats_destroy(s);
      s = NULL;
      o.locations = usel;
      o.nlocations = nusel;
      o.part = 0;
      c.parts = 0;
      fprintf(stderr,
              "paratrace stats: %s: the ranks' shares deferred more than "
              "%" PRIu64 " messages for receives from MPI_ANY_SOURCE "
              "without a status (matched on rank 0 at the end; "
              "PARATRACE_STATS_MAX_DEFERRED): rank 0 reads the trace "
              "alone\n",
              path,
              o.part_max_deferred ? o.part_max_deferred : (uint64_t)1 << 20);
      status = scan(path, &o, &s);
    }
    if (status != CLI_OK) {
      pt_stats_destroy(s);
      free(usel);
      return status;
    }
  } else if (nproc > 1) {
    cli_parallel->finish();
  }
  free(usel);
  if (status != CLI_OK) return status;
  c.s = s;
  pt_stats_get_totals(s, &c.tot);
  pt_stats_resolve_callsites(s); /* "function file:line" where known */
  if (out == OUT_CSV) print_csv(&c);
  else if (out == OUT_JSON) print_json(&c);
  else print_table(&c);
  if (fflush(stdout) != 0) status = cli_fail(NULL, "cannot write output");
  pt_stats_destroy(s);
  return status;
}
