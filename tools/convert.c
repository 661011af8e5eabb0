/* paratrace convert: source -> filters -> sink.  Also the engine of merge
 * (merge.c: the same pipe with a stream count for the native sink). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: paratrace convert [options] IN -o OUT\n"
    "\n"
    "Convert a trace.  The input format is detected from IN; the output\n"
    "format is --to FORMAT or comes from OUT's extension (.ptf native\n"
    "archive, .txt text form).  OUT is written under a temporary name and\n"
    "appears only when complete; an existing OUT is not replaced without\n"
    "--force.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT  the output trace (required)\n"
    "  --to FORMAT       output format (see below)\n"
    "  --from T          first time to keep (ticks, or 1.5s/200ms/3us/40ns\n"
    "                    after the trace's start)\n"
    "  --to-time T       end of the time window (exclusive)\n"
    "  --locations L     keep only these locations, e.g. 0,2,5-9\n"
    "  --kinds K         keep only these event kinds, e.g. enter,leave\n"
    "  --force           replace OUT if it exists\n"
    "  -q, --quiet       no progress bar and no warnings\n"
    "  -h, --help\n";

enum {
  O_OUT = CLI_CONV_OUT, O_FORCE = CLI_CONV_FORCE, O_STREAMS = CLI_CONV_STREAMS,
  O_TO = 10, O_FROM, O_TOTIME, O_LOCS, O_KINDS
};
static const cli_option convert_options[] = {
    {"output", 'o', 1, O_OUT},   {"to", 0, 1, O_TO},
    {"from", 0, 1, O_FROM},      {"to-time", 0, 1, O_TOTIME},
    {"locations", 0, 1, O_LOCS}, {"kinds", 0, 1, O_KINDS},
    {"force", 0, 0, O_FORCE},    {0, 0, 0, 0}};

static void print_formats(void) {
  printf("\nformats:\n");
  for (size_t i = 0; i < pt_format_count(); i++) {
    const pt_format_info *f = pt_format_get(i);
    printf("  %-8s %-6s %s%s%s\n", f->name, f->extensions ? f->extensions : "",
           f->description ? f->description : "",
           f->can_read ? "" : " (write only)",
           f->can_write ? "" : " (read only)");
  }
}

/* Do `a` and `b` name the same existing file?  (b may not exist.) */
static int same_file(const char *a, const char *b) {
  char ra[PATH_MAX], rb[PATH_MAX];
  if (!realpath(a, ra) || !realpath(b, rb)) return 0;
  return strcmp(ra, rb) == 0;
}

typedef struct job {
  const char *in, *out, *format;
  pt_source_opts so;
  pt_sink_opts ko;
} job;

/* Ctrl-C, a kill or a hang-up while converting: the conversion stops at
 * its next item and its temporary output is removed (cli_catch_stop). */
static int run(job *j) {
  pt_error err = {0};
  cli_catch_stop();
  /* the output in messages: -o - is stdout */
  const char *oname = strcmp(j->out, "-") == 0 ? "stdout" : j->out;
  if (same_file(j->in, j->out))
    return cli_fail(oname, "is the input; write to another name");
  pt_source *src = NULL;
  if (pt_source_open(&src, j->in, &j->so, &err) < 0)
    return cli_fail(j->in, "%s", err.msg);
  pt_sink *snk = NULL;
  if (pt_sink_open(&snk, j->out, &j->ko, &err) < 0) {
    pt_source_close(src);
    return cli_fail(oname, "%s%s", err.msg,
                    err.status == PT_EEXIST && !j->ko.overwrite
                        ? "; use --force to replace it"
                                            : "");
  }
  cli_progress bar;
  cli_progress_start(&bar, cli.cmd, cli_source_event_total(src));
  int rc = pt_pipe(src, snk, cli_progress_cb, &bar, &err);
  cli_progress_end(&bar);
  int status = CLI_OK;
  if (rc < 0) {
    /* Which side failed?  The source keeps its own detail. */
    const char *smsg = pt_source_errmsg(src);
    const char *kmsg = pt_sink_errmsg(snk);
    if (kmsg && *kmsg && strcmp(kmsg, err.msg) == 0)
      status = cli_fail(oname, "%s", err.msg);
    else if (smsg && *smsg)
      status = cli_fail(j->in, "%s", err.msg[0] ? err.msg : smsg);
    else
      status = cli_fail(j->in, "%s", err.msg[0] ? err.msg : pt_strerror(rc));
    /* the source's files first: removing the temporary output needs a
     * descriptor, and a failure may be the lack of one */
    pt_source_close(src);
    pt_sink_abort(snk);
    /* the temporary is gone: now end as the signal would have */
    if (rc == PT_EINTR) cli_stop_reraise();
    return status;
  }
  if (pt_sink_close(snk, &err) < 0) status = cli_fail(oname, "%s", err.msg);
  pt_source_close(src);
  return status;
}

static int parse(int argc, char **argv, const char *merge_help, job *j,
                 uint64_t **locs) {
  int merge = merge_help != NULL;
  cli_parser p;
  cli_parser_init(&p, argc, argv,
                  merge ? cli_merge_options : convert_options);
  const char *val;
  cli_time from = {0}, to = {0};
  size_t nlocs = 0;
  uint64_t kinds = 0, streams = 0;
  int id, have_streams = 0;
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP:
        cli_help(merge ? merge_help : help);
        if (!merge) print_formats();
        return -1;
      case CLI_ERROR: return CLI_USAGE;
      case O_OUT: j->out = val; break;
      case O_TO: j->ko.format = val; break;
      case O_FROM:
        if (cli_parse_time(val, &from)) {
          /* `--from FORMAT` by analogy with --to: say what --from is */
          for (size_t i = 0; i < pt_format_count(); i++)
            if (strcmp(pt_format_get(i)->name, val) == 0)
              return cli_usage("--from %s: --from is the start of a time "
                               "window; the input format is detected from "
                               "IN (--to FORMAT is the output's)", val);
          return cli_usage("bad time '%s'", val);
        }
        break;
      case O_TOTIME:
        if (cli_parse_time(val, &to)) return cli_usage("bad time '%s'", val);
        break;
      case O_LOCS:
        free(*locs);
        *locs = NULL;
        if (cli_parse_locations(val, locs, &nlocs))
          return cli_usage("bad location list '%s'", val);
        break;
      case O_KINDS: {
        const char *bad;
        if (cli_parse_kinds(val, &kinds, &bad))
          return cli_usage("unknown event kind '%s'", bad);
        break;
      }
      case O_FORCE: j->ko.overwrite = 1; break;
      case O_STREAMS:
        if (cli_parse_u64(val, &streams) || streams == 0 ||
            streams > (UINT64_C(1) << 24))
          return cli_usage("bad stream count '%s' (1 .. 16777216)", val);
        have_streams = 1;
        break;
      case CLI_ARG:
        if (j->in) return cli_usage("one input at a time");
        j->in = val;
        break;
    }
  }
  if (!j->in) return cli_usage("missing IN");
  if (!j->out) return cli_usage("missing -o OUT");
  if (merge && !have_streams) return cli_usage("missing --streams M");
  if (merge) {
    j->ko.format = "ptf";
    j->ko.streams = streams;
  }
  j->so.locations = *locs;
  j->so.nlocations = nlocs;
  j->so.kinds = kinds;
  j->so.warn = cli_warn;
  j->ko.warn = cli_warn;
  if (cli_resolve_window(j->in, &from, &to, &j->so.from, &j->so.to) != 0)
    return CLI_FAIL;
  return CLI_OK;
}

int cli_convert(int argc, char **argv, const char *merge_help) {
  job j;
  memset(&j, 0, sizeof j);
  uint64_t *locs = NULL;
  int status = parse(argc, argv, merge_help, &j, &locs);
  if (status == CLI_OK)
    status = run(&j);
  else if (status < 0)
    status = CLI_OK; /* --help */
  free(locs);
  return status;
}

int cmd_convert(int argc, char **argv) {
  return cli_convert(argc, argv, NULL);
}
