/* paratrace sync: linear clock-drift correction of a recorded archive from
 * its clock synchronisation samples (CLOCK_SYNC definitions). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: paratrace sync TRACE [-o OUT]\n"
    "\n"
    "Correct clock drift between processes.  The MPI recorder measures each\n"
    "rank's clock offset to rank 0 at MPI_Init (applied while recording)\n"
    "and again at MPI_Finalize; both are kept as clock_sync definitions.\n"
    "sync maps every event of a rank through the straight line between the\n"
    "two samples, so that the offset is exact at both ends and interpolated\n"
    "in between, and marks the archive as synchronised (running it again\n"
    "changes nothing).  Ranks on rank 0's host share its clock and are left\n"
    "as they are.  With -o the corrected trace is written to OUT (a copy of\n"
    "TRACE, unchanged, if it is already synchronised); without, TRACE is\n"
    "replaced (atomically: written aside, then renamed).\n"
    "Afterwards 'paratrace check' verifies that no receive ends before its\n"
    "send began.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT  write the corrected trace here\n"
    "  --force           replace OUT if it exists\n"
    "  -q, --quiet       print nothing\n"
    "  -h, --help\n";

enum { O_OUT = 1, O_FORCE };
static const cli_option options[] = {
    {"output", 'o', 1, O_OUT}, {"force", 0, 0, O_FORCE}, {0, 0, 0, 0}};

#define SYNC_KEY "paratrace.clock"
#define SYNC_VAL "synchronised (linear drift)"

typedef struct line {
  uint64_t group;
  int n;
  int64_t t[2], off[2]; /* first and last sample: local time, offset */
} line;

typedef struct map {
  line *g;
  size_t ng;
  uint64_t *loc, *loc_group; /* location -> group */
  size_t nloc;
} map;

static line *line_of(map *m, uint64_t group, int create) {
  for (size_t i = 0; i < m->ng; i++)
    if (m->g[i].group == group) return &m->g[i];
  if (!create) return NULL;
  line *n = realloc(m->g, (m->ng + 1) * sizeof *n);
  if (!n) return NULL;
  m->g = n;
  memset(&m->g[m->ng], 0, sizeof *m->g);
  m->g[m->ng].group = group;
  return &m->g[m->ng++];
}

static const line *line_of_loc(const map *m, uint64_t loc) {
  for (size_t i = 0; i < m->nloc; i++)
    if (m->loc[i] == loc) {
      for (size_t j = 0; j < m->ng; j++)
        if (m->g[j].group == m->loc_group[i]) return &m->g[j];
      return NULL;
    }
  return NULL;
}

/* Time t (already shifted by the first offset) corrected by the line. */
static uint64_t correct(const line *l, uint64_t t) {
  if (!l || l->n < 2 || l->t[1] == l->t[0] || l->off[1] == l->off[0])
    return t;
  double local = (double)t - (double)l->off[0];
  double frac = (local - (double)l->t[0]) / (double)(l->t[1] - l->t[0]);
  double c = (double)t + frac * (double)(l->off[1] - l->off[0]);
  return c < 0 ? 0 : (uint64_t)(c + 0.5);
}

int cmd_sync(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *in = NULL, *out = NULL;
  int id, force = 0;
  cli_parser_trace(&p, &in);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case O_OUT: out = val; break;
      case O_FORCE: force = 1; break;
    }
  }
  if (!in) return cli_usage("missing TRACE");
  pt_source *src = NULL;
  pt_error err = {0};
  pt_source_opts so = {.format = "ptf", .warn = cli_warn};
  int rc = pt_source_open(&src, in, &so, &err);
  if (rc) return cli_fail(in, "%s", err.msg[0] ? err.msg : pt_strerror(rc));
  pt_reader *r = pt_source_reader(src);
  map m = {0};
  int already = 0, bad = 0;
  size_t nd = r ? pt_reader_ndefs(r) : 0;
  for (size_t i = 0; i < nd && !bad; i++) {
    const pt_def *d = pt_reader_def(r, i);
    if (d->kind == PT_DEF_KEYVAL && d->name && !strcmp(d->name, SYNC_KEY))
      already = 1;
    if (d->kind == PT_DEF_LOCATION) {
      uint64_t *a = realloc(m.loc, (m.nloc + 1) * sizeof *a);
      uint64_t *b = a ? realloc(m.loc_group, (m.nloc + 1) * sizeof *b) : NULL;
      if (a) m.loc = a;
      if (!b) { bad = 1; break; }
      m.loc_group = b;
      m.loc[m.nloc] = d->id;
      m.loc_group[m.nloc++] = d->parent;
    }
    if (d->kind == PT_DEF_CLOCK_SYNC) {
      line *l = line_of(&m, d->ref, 1);
      if (!l) { bad = 1; break; }
      int k = l->n == 0 ? 0 : 1;
      if (l->n >= 1 && d->i0 < l->t[0]) { /* keep them in time order */
        l->t[1] = l->t[0];
        l->off[1] = l->off[0];
        k = 0;
      }
      l->t[k] = d->i0;
      l->off[k] = d->i1;
      if (l->n < 2) l->n++;
    }
  }
  if (bad) {
    pt_source_close(src);
    free(m.g), free(m.loc), free(m.loc_group);
    return cli_fail(in, "out of memory");
  }
  size_t drifting = 0;
  for (size_t i = 0; i < m.ng; i++)
    if (m.g[i].n >= 2 && m.g[i].off[1] != m.g[i].off[0]) drifting++;
  /* With -o, OUT is always written (-o promises it): an archive already
   * synchronised is copied unchanged (times as they are, no second mark). */
  if (!out && (already || !drifting)) {
    if (!cli.quiet)
      printf("%s: %s\n", in, already ? "already synchronised"
                                     : "no clock drift to correct");
    pt_source_close(src);
    free(m.g), free(m.loc), free(m.loc_group);
    return CLI_OK;
  }
  pt_sink *dst = NULL;
  pt_sink_opts ko = {.format = "ptf", .overwrite = out ? force : 1,
                     .warn = cli_warn};
  rc = pt_sink_open(&dst, out ? out : in, &ko, &err);
  if (rc) {
    pt_source_close(src);
    free(m.g), free(m.loc), free(m.loc_group);
    return cli_fail(out ? out : in, "%s",
                    err.msg[0] ? err.msg : pt_strerror(rc));
  }
  pt_item it;
  int wrote_mark = 0;
  uint64_t events = 0;
  cli_catch_stop();
  while ((rc = pt_source_next(src, &it)) == PT_OK) {
    if (cli_stopped()) {
      rc = PT_EINTR;
      break;
    }
    if (already) {
      /* a copy: nothing to correct or mark */
    } else if (it.type == PT_ITEM_EVENT) {
      if (!wrote_mark) {
        pt_item k = {.type = PT_ITEM_DEF};
        pt_def_init(&k.u.def, PT_DEF_KEYVAL, PT_NONE);
        k.u.def.parent = PT_NONE;
        k.u.def.name = SYNC_KEY;
        k.u.def.s1 = SYNC_VAL;
        if ((rc = pt_sink_write(dst, &k))) break;
        wrote_mark = 1;
      }
      it.u.event.time =
          correct(line_of_loc(&m, it.u.event.location), it.u.event.time);
      events++;
    } else if (it.type == PT_ITEM_SNAPSHOT) {
      const line *l = line_of_loc(&m, it.u.snapshot.location);
      it.u.snapshot.time = correct(l, it.u.snapshot.time);
      it.u.snapshot.event.time = correct(l, it.u.snapshot.event.time);
    } else if (it.type == PT_ITEM_SUMMARY) {
      it.u.summary.time =
          correct(line_of_loc(&m, it.u.summary.location), it.u.summary.time);
    }
    if ((rc = pt_sink_write(dst, &it))) break;
  }
  int failed = rc != PT_END;
  const char *why = failed ? (rc == PT_OK ? "" : pt_sink_errmsg(dst)) : NULL;
  if (failed && pt_source_errmsg(src) && *pt_source_errmsg(src))
    why = pt_source_errmsg(src);
  char whybuf[1024] = "";
  if (why) snprintf(whybuf, sizeof whybuf, "%s", why);
  pt_source_close(src);
  free(m.g), free(m.loc), free(m.loc_group);
  if (failed) {
    pt_sink_abort(dst);
    cli_fail(in, "%s", whybuf[0] ? whybuf : pt_strerror(rc));
    if (rc == PT_EINTR) cli_stop_reraise(); /* the temporary is gone */
    return CLI_FAIL;
  }
  rc = pt_sink_close(dst, &err);
  if (rc)
    return cli_fail(out ? out : in, "%s",
                    err.msg[0] ? err.msg : pt_strerror(rc));
  if (!cli.quiet && already)
    printf("%s: already synchronised; copied unchanged\n", out);
  else if (!cli.quiet)
    printf("%s: %" PRIu64 " events, %zu rank%s corrected for drift\n",
           out ? out : in, events, drifting, drifting == 1 ? "" : "s");
  return CLI_OK;
}
