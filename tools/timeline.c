/* paratrace timeline: a ParaGraph-style space-time view of a trace as one
 * self-contained HTML page (and/or a static SVG).  Layout and writers:
 * src/analysis/timeline*.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paratrace/timeline.h"
#include "cli.h"
#include "paratrace/analysis.h"

static const char help[] =
    "usage: paratrace timeline [options] TRACE -o VIEW.html [--svg OUT.svg]\n"
    "\n"
    "Draw a trace (any format) as a space-time diagram: one row per\n"
    "location, time left to right, regions as coloured bars (MPI in reds and\n"
    "oranges, a legend), messages as lines from send to receive, collectives\n"
    "marked, a utilisation panel (user code / MPI / idle per location over\n"
    "time) and the top regions by exclusive time.  The HTML page is one\n"
    "file with no network access: zoom with the mouse wheel or +/-, pan by\n"
    "dragging or with the arrow keys, hover for details, click a region to\n"
    "highlight all its occurrences.  When the window holds more region\n"
    "visits than --max-events, every row is drawn as pixel bins coloured by\n"
    "the region that covered most of each bin and a sample of the messages\n"
    "is drawn (and of the collectives, when there are more than a quarter\n"
    "of --max-events: each row's k-th, 2k-th... of each communicator);\n"
    "the page says so.  --svg\n"
    "writes the same drawing, static.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT     the HTML page (OUT.svg: the static SVG)\n"
    "  --svg OUT            a static SVG\n"
    "  --from T, --to T     window (ticks, or 1.5s/200ms/... from the start)\n"
    "  --locations L        only these locations (0,2,5-9)\n"
    "  --max-events N       drawn items before aggregating (default 200000)\n"
    "  -f, --force          replace existing outputs\n"
    "  -q, --quiet          no progress, no summary line\n"
    "  -h, --help\n";

enum { O_OUT = 1, O_SVG, O_FROM, O_TO, O_LOCS, O_MAX, O_FORCE };
static const cli_option options[] = {
    {"output", 'o', 1, O_OUT},   {"svg", 0, 1, O_SVG},
    {"from", 0, 1, O_FROM},      {"to", 0, 1, O_TO},
    {"locations", 0, 1, O_LOCS}, {"max-events", 0, 1, O_MAX},
    {"force", 'f', 0, O_FORCE},  {0, 0, 0, 0}};

typedef struct job {
  const char *path;
  const uint64_t *sel;
  size_t nsel;
  uint64_t from, to; /* 0 = unset */
} job;

static int selected(const job *j, uint64_t loc) {
  if (!j->nsel) return 1;
  for (size_t i = 0; i < j->nsel; i++)
    if (j->sel[i] == loc) return 1;
  return 0;
}

static int open_src(const job *j, pt_source **src) {
  pt_source_opts so = {0};
  so.warn = cli_warn;
  const char *fmt = pt_format_detect(j->path);
  if (fmt && strcmp(fmt, "ptf") == 0) {
    so.locations = j->sel;
    so.nlocations = j->nsel;
  }
  return cli_open_source(src, j->path, &so);
}

/* Pass 1: the window and how much it holds. */
static int count(const job *j, pt_timeline_opts *o, uint64_t *tps) {
  pt_source *src;
  if (open_src(j, &src)) return CLI_FAIL;
  uint64_t tmin = UINT64_MAX, tmax = 0, enters = 0, sends = 0, colls = 0, nloc = 0;
  pt_item it;
  int rc;
  while ((rc = pt_source_next(src, &it)) == PT_OK) {
    if (it.type == PT_ITEM_DEF && it.u.def.kind == PT_DEF_CLOCK &&
        it.u.def.i0 > 0)
      *tps = (uint64_t)it.u.def.i0;
    if (it.type == PT_ITEM_DEF && it.u.def.kind == PT_DEF_LOCATION &&
        selected(j, it.u.def.id))
      nloc++;
    if (it.type != PT_ITEM_EVENT) continue;
    const pt_event *e = &it.u.event;
    if (!selected(j, e->location)) continue;
    if (e->time < tmin) tmin = e->time;
    if (e->time > tmax) tmax = e->time;
    int in = (!j->from || e->time >= j->from) && (!j->to || e->time < j->to);
    if (in && e->kind == PT_EV_ENTER) enters++;
    if (in && (e->kind == PT_EV_SEND || e->kind == PT_EV_ISEND))
      sends++;
    if (in && e->kind == PT_EV_COLL_END) colls++;
    /* a one-sided operation: a line each way it moved bytes */
    if (in && (e->kind == PT_EV_RMA_PUT || e->kind == PT_EV_RMA_GET ||
               e->kind == PT_EV_RMA_ATOMIC))
      sends += (e->size > 0) + (e->size2 > 0);
  }
  int status = CLI_OK;
  if (rc != PT_END) status = cli_fail(j->path, "%s", pt_source_errmsg(src));
  pt_source_close(src);
  if (status) return status;
  if (tmin == UINT64_MAX) return cli_fail(j->path, "no events to draw");
  o->from = j->from ? j->from : tmin;
  o->to = j->to ? j->to : tmax + 1;
  if (o->to <= o->from) return cli_fail(j->path, "empty window");
  o->expected_bars = enters;
  o->expected_msgs = sends;
  o->expected_colls = colls;
  /* bins per row so that rows x bins stays within the item budget */
  uint64_t per_row = o->max_items / (nloc ? nloc : 1);
  o->bins = (uint32_t)(per_row < 50 ? 50 : per_row > 2000 ? 2000 : per_row);
  o->util_bins = (uint32_t)(per_row < 20 ? 20 : per_row > 400 ? 400 : per_row);
  return CLI_OK;
}

/* Pass 2: the layout and the summary. */
static int build(const job *j, pt_timeline *tl, pt_stats *st) {
  pt_source *src;
  if (open_src(j, &src)) return CLI_FAIL;
  cli_progress bar;
  cli_progress_start(&bar, "timeline", cli_source_event_total(src));
  pt_item it;
  int rc, status = CLI_OK;
  uint64_t n = 0;
  while ((rc = pt_source_next(src, &it)) == PT_OK) {
    int e = PT_OK;
    if (it.type == PT_ITEM_DEF) {
      e = pt_timeline_def(tl, &it.u.def);
      if (!e) e = pt_stats_def(st, &it.u.def);
    } else if (it.type == PT_ITEM_EVENT) {
      e = pt_timeline_event(tl, &it.u.event);
      if (!e && it.u.event.time < pt_timeline_end(tl)) e = pt_stats_event(st, &it.u.event);
      if ((++n & 0xffff) == 0) cli_progress_update(&bar, n);
    }
    if (e < 0) {
      status = cli_fail(j->path, "%s", pt_strerror(e));
      break;
    }
  }
  cli_progress_end(&bar);
  if (!status && rc != PT_END)
    status = cli_fail(j->path, "%s", pt_source_errmsg(src));
  pt_source_close(src);
  if (!status && (pt_timeline_finish(tl) || pt_stats_finish(st)))
    status = cli_fail(NULL, "out of memory");
  return status;
}

/* May `out` be written?  Not if it exists (without --force), nor ever
 * over a directory, device, FIFO, socket or symbolic link. */
static int check_out(const char *out, int force) {
  struct stat sb;
  if (lstat(out, &sb) != 0) return CLI_OK;
  if (!force) return cli_fail(out, "exists (use --force to replace it)");
  /* --force replaces a file, never a directory, device, FIFO, socket or
   * symbolic link (the rename would destroy it) */
  if (!S_ISREG(sb.st_mode))
    return cli_fail(out, "exists and is not a regular file (%s); not "
                    "replaced (remove it or choose another name)",
                    S_ISDIR(sb.st_mode) ? "a directory"
                    : S_ISCHR(sb.st_mode) ? "a character device"
                    : S_ISBLK(sb.st_mode) ? "a block device"
                    : S_ISFIFO(sb.st_mode) ? "a FIFO"
                    : S_ISSOCK(sb.st_mode) ? "a socket"
                    : S_ISLNK(sb.st_mode) ? "a symbolic link" : "special");
  return CLI_OK;
}

/* Write the view to a temporary next to `out` (*tmp, malloc'd; removed
 * and NULL on failure). */
static int write_tmp(const char *out, const pt_timeline *tl,
                     const pt_timeline_page *pg, int svg, char **tmp) {
  *tmp = malloc(strlen(out) + 32);
  if (!*tmp) return cli_fail(NULL, "out of memory");
  sprintf(*tmp, "%s.tmp-%ld", out, (long)getpid());
  FILE *f = fopen(*tmp, "w");
  if (!f) {
    int e = errno;
    free(*tmp);
    *tmp = NULL;
    return cli_fail(out, "%s", strerror(e));
  }
  errno = 0;
  int rc = svg ? pt_timeline_write_svg(tl, f, pg) : pt_timeline_write_html(tl, f, pg);
  int e = errno;
  if (fclose(f) != 0 && !rc) rc = PT_EIO, e = errno;
  if (rc) {
    remove(*tmp);
    free(*tmp);
    *tmp = NULL;
    return cli_fail(out, "%s", rc == PT_EIO && e ? strerror(e) : pt_strerror(rc));
  }
  return CLI_OK;
}

/* Both views appear or neither: each is written to a temporary first;
 * then they are renamed into place, and if the second rename fails the
 * first output is put back as it was (a file it replaced is kept aside
 * as a hard link until then). */
static int write_views(const char *out, const char *svg, int force,
                       const pt_timeline *tl, const pt_timeline_page *pg) {
  const char *name[2] = {out, svg};
  char *tmp[2] = {NULL, NULL};
  char old[2][4200] = {"", ""};
  int status = CLI_OK;
  for (int i = 0; i < 2 && !status; i++)
    if (name[i]) status = check_out(name[i], force);
  for (int i = 0; i < 2 && !status; i++)
    if (name[i]) status = write_tmp(name[i], tl, pg, i, &tmp[i]);
  int done = 0; /* renamed into place */
  for (; !status && done < 2; done++) {
    if (!name[done]) continue;
    struct stat sb;
    if (lstat(name[done], &sb) == 0) {
      snprintf(old[done], sizeof old[done], "%s.old-%ld", name[done],
               (long)getpid());
      unlink(old[done]);
      if (link(name[done], old[done]) != 0) old[done][0] = 0;
    }
    if (rename(tmp[done], name[done]) != 0) {
      status = cli_fail(name[done], "cannot rename %s into place: %s",
                        tmp[done], strerror(errno));
      break;
    }
    free(tmp[done]);
    tmp[done] = NULL;
  }
  for (int i = 0; i < 2; i++) {
    if (tmp[i]) remove(tmp[i]);
    free(tmp[i]);
    if (status && i < done && name[i]) {
      /* undo: the earlier file back, or no file as before */
      if (old[i][0]) rename(old[i], name[i]);
      else remove(name[i]);
    } else if (old[i][0]) {
      unlink(old[i]);
    }
  }
  return status;
}

static int cmp_excl(const void *a, const void *b) {
  const pt_timeline_summary_row *x = a, *y = b;
  return x->excl < y->excl ? 1 : x->excl > y->excl ? -1 : strcmp(x->name, y->name);
}

int cmd_timeline(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL, *out = NULL, *svg = NULL, *locs = NULL;
  cli_time from = {0}, to = {0};
  int force = 0, id;
  uint64_t maxev = 200000;
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case O_OUT: out = val; break;
      case O_SVG: svg = val; break;
      case O_FROM: case O_TO:
        if (cli_parse_time(val, id == O_FROM ? &from : &to))
          return cli_usage("bad time '%s'", val);
        break;
      case O_LOCS: locs = val; break;
      case O_MAX:
        if (cli_parse_u64(val, &maxev) || maxev < 100 || maxev > 100000000)
          return cli_usage("--max-events takes 100..100000000, not '%s'", val);
        break;
      case O_FORCE: force = 1; break;
    }
  }
  if (!path) return cli_usage("missing TRACE");
  if (!out && !svg) return cli_usage("missing -o VIEW.html (or --svg OUT.svg)");
  /* -o NAME.svg: the static SVG, as the name says (it was the HTML page
   * under an .svg name, which no SVG viewer opens) */
  size_t ol = out ? strlen(out) : 0;
  if (ol > 4 && strcasecmp(out + ol - 4, ".svg") == 0) {
    if (svg)
      return cli_usage("-o %s names an SVG: give the HTML page an .html "
                       "name, or leave out -o", out);
    svg = out;
    out = NULL;
  }
  job j = {.path = path};
  uint64_t *sel = NULL;
  size_t nsel = 0;
  if (locs && cli_parse_locations(locs, &sel, &nsel))
    return cli_usage("bad location list '%s'", locs);
  j.sel = sel;
  j.nsel = nsel;
  if (cli_resolve_nonempty_window(path, &from, &to, &j.from, &j.to) != 0) {
    free(sel);
    return CLI_FAIL;
  }
  pt_timeline_opts o = {.max_items = maxev, .locations = sel, .nlocations = nsel};
  uint64_t tps = 0;
  int status = count(&j, &o, &tps);
  pt_timeline *tl = NULL;
  pt_stats *st = NULL;
  if (!status) {
    pt_stats_opts so = {.from = o.from, .to = o.to, .locations = sel,
                        .nlocations = nsel};
    tl = pt_timeline_new(&o);
    if (!tl || pt_stats_create(&st, &so) != PT_OK)
      status = cli_fail(NULL, "out of memory");
  }
  if (!status) status = build(&j, tl, st);
  pt_timeline_summary_row rows[12];
  size_t nrows = 0;
  if (!status) {
    size_t nr = pt_stats_nregions(st);
    pt_timeline_summary_row *all = calloc(nr + 1, sizeof *all);
    if (!all) status = cli_fail(NULL, "out of memory");
    for (size_t i = 0; all && i < nr; i++) {
      const pt_stats_region_row *r = pt_stats_region(st, i);
      all[i].name = r->name ? r->name : "?";
      all[i].count = r->count;
      all[i].excl = r->excl;
      all[i].incl = r->incl;
    }
    if (all) {
      qsort(all, nr, sizeof *all, cmp_excl);
      for (; nrows < nr && nrows < 12; nrows++) rows[nrows] = all[nrows];
      free(all);
    }
  }
  pt_timeline_page pg = {.title = path, .ticks_per_second = tps, .summary = rows,
                    .nsummary = nrows};
  /* times on the page from the trace's start, as --from counts them (a
   * window from 2 s read "0 ns .. 50 ms") */
  cli_clock clk;
  if (!status && cli_read_clock(path, &clk) != 0) status = CLI_FAIL;
  if (!status && clk.found) {
    pg.origin = clk.start;
    pg.has_origin = 1;
  }
  if (!status) status = write_views(out, svg, force, tl, &pg);
  if (!status && !cli.quiet) {
    char bars[48];
    if (pt_timeline_aggregated(tl))
      snprintf(bars, sizeof bars, "regions as pixel bins");
    else
      snprintf(bars, sizeof bars, "%zu bars", pt_timeline_nbars(tl));
    fprintf(stderr, "%s%s%s: %zu locations, %s, %zu messages%s, %zu "
            "collectives%s\n", out ? out : "", out && svg ? ", " : "",
            svg ? svg : "", pt_timeline_nrows(tl), bars,
            pt_timeline_nmsgs(tl),
            pt_timeline_sample(tl) > 1 ? " (a sample)" : "",
            pt_timeline_ncolls(tl),
            pt_timeline_coll_sample(tl) > 1 ? " (a sample)" : "");
  }
  pt_timeline_free(tl);
  pt_stats_destroy(st);
  free(sel);
  return status;
}
