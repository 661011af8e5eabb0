/* paratrace summarize: add cumulative summaries (and the snapshots they
 * need) to a native archive (pt_archive_summarize). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "paratrace/analysis.h"

static const char help[] =
    "usage: paratrace summarize --every DT TRACE.ptf\n"
    "\n"
    "Write cumulative summaries into the archive's per-stream summary files\n"
    "at the times start + k*DT, without touching its events: per location\n"
    "and region the visits, inclusive and exclusive time so far (regions\n"
    "still open count up to that time), per peer the messages and bytes\n"
    "sent and received, and the shortest and longest visits since the\n"
    "previous summary time.  Any interval is then a difference of two\n"
    "summaries: `paratrace stats --from/--to` reads only the events near\n"
    "the window's edges.  The call stacks at the same times are written as\n"
    "snapshots (replacing old snapshots), since a window edge between two\n"
    "summaries needs them; --no-snapshots keeps the old snapshot files.\n"
    "\n"
    "options:\n"
    "  --every DT      interval (ticks, or 10ms, 1s... with the trace clock)\n"
    "  --no-snapshots  write summaries only\n"
    "  -q, --quiet\n"
    "  -h, --help\n";

enum { O_EVERY = 1, O_NOSNAP };
static const cli_option options[] = {
    {"every", 0, 1, O_EVERY}, {"no-snapshots", 0, 0, O_NOSNAP}, {0, 0, 0, 0}};

/* Shared by summarize and snapshot. */
static int run(int argc, char **argv, const char *text, unsigned what) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL;
  cli_time every = {0};
  int id;
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(text);
      case CLI_ERROR: return CLI_USAGE;
      case O_EVERY:
        if (cli_parse_time(val, &every)) return cli_usage("bad time '%s'", val);
        break;
      case O_NOSNAP:
        if (what == PT_STATS_SNAPSHOTS) return cli_usage("unknown option --no-snapshots");
        what = PT_STATS_SUMMARIES;
        break;
    }
  }
  if (!path) return cli_usage("missing TRACE");
  if (!every.set) return cli_usage("missing --every DT");
  const char *fmt = pt_format_detect(path);
  if (!fmt || strcmp(fmt, "ptf") != 0)
    return cli_fail(path, "not a native archive (convert it to .ptf first)");
  uint64_t dt = every.ticks;
  if (every.has_unit) {
    cli_clock clk;
    if (cli_read_clock(path, &clk) != 0) return CLI_FAIL;
    if (!clk.ticks_per_second)
      return cli_fail(path, "the trace has no clock definition; give DT in ticks");
    dt = (uint64_t)(every.seconds * (double)clk.ticks_per_second);
  }
  if (!dt) return cli_usage("--every must be positive");
  pt_error err = {0};
  cli_catch_stop();
  int rc = pt_archive_summarize(path, dt, what, &err);
  if (rc < 0) cli_fail(path, "%s", err.msg);
  if (rc == PT_EINTR) cli_stop_reraise(); /* the temporaries are gone */
  if (rc < 0) return CLI_FAIL;
  return CLI_OK;
}

int cmd_summarize(int argc, char **argv) {
  return run(argc, argv, help, PT_STATS_SUMMARIES | PT_STATS_SNAPSHOTS);
}

static const char snap_help[] =
    "usage: paratrace snapshot --every DT TRACE.ptf\n"
    "\n"
    "Write snapshots into the archive's per-stream snapshot files at the\n"
    "times start + k*DT, without touching its events: per location the\n"
    "open regions (as ENTER events with their original times), the sends\n"
    "not yet received and the open requests.  `paratrace slice` starts\n"
    "reading at the nearest snapshot before its window.  Replacing the\n"
    "snapshots of `summarize` with other times makes summaries between\n"
    "them unusable for windows (stats then reads more events).\n"
    "\n"
    "options:\n"
    "  --every DT   interval (ticks, or 10ms, 1s... with the trace clock)\n"
    "  -q, --quiet\n"
    "  -h, --help\n";

int cmd_snapshot(int argc, char **argv) {
  return run(argc, argv, snap_help, PT_STATS_SNAPSHOTS);
}
