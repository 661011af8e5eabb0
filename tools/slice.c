/* paratrace slice: write a valid trace of a time window (pt_slice). */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "paratrace/analysis.h"

static const char help[] =
    "usage: paratrace slice --from T --to T -o OUT TRACE\n"
    "\n"
    "Write the events of [from, to) of TRACE (any format) to OUT (format\n"
    "from its extension) as a valid trace.  Reading starts at the nearest\n"
    "snapshot before `from` of a native archive (paratrace snapshot), else\n"
    "at the start.  At `from` the regions open there are re-entered, sends\n"
    "not yet received are re-sent (a message sent before the window and\n"
    "received inside keeps both ends, its send moved to `from`) and open\n"
    "receive requests are re-posted; at the end (`to`, or the last event\n"
    "if the trace ends earlier) sends still unmatched get a receive and\n"
    "open regions are left.  `paratrace check` passes on the slice of a\n"
    "consistent trace.\n"
    "\n"
    "options:\n"
    "  --from T, --to T  the window (ticks, or 1.5s/200ms/... from the start)\n"
    "  -o, --output OUT  output path\n"
    "  -f, --force       replace an existing OUT\n"
    "  -q, --quiet       no summary line\n"
    "  -h, --help\n";

enum { O_FROM = 1, O_TO, O_OUT, O_FORCE };
static const cli_option options[] = {{"from", 0, 1, O_FROM},
                                     {"to", 0, 1, O_TO},
                                     {"output", 'o', 1, O_OUT},
                                     {"force", 'f', 0, O_FORCE},
                                     {0, 0, 0, 0}};

int cmd_slice(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL, *out = NULL;
  cli_time from = {0}, to = {0};
  int force = 0, id;
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case O_FROM: case O_TO:
        if (cli_parse_time(val, id == O_FROM ? &from : &to))
          return cli_usage("bad time '%s'", val);
        break;
      case O_OUT: out = val; break;
      case O_FORCE: force = 1; break;
    }
  }
  if (!path) return cli_usage("missing TRACE");
  if (!out) return cli_usage("missing -o OUT");
  if (!from.set || !to.set) return cli_usage("give both --from and --to");
  uint64_t f, t;
  if (cli_resolve_nonempty_window(path, &from, &to, &f, &t) != 0)
    return CLI_FAIL;
  pt_sink_opts so = {0};
  so.overwrite = force;
  so.warn = cli_warn;
  pt_slice_report rep;
  pt_error err = {0};
  cli_catch_stop();
  int rc = pt_slice(path, out, f, t, &so, &rep, &err);
  if (rc == PT_EINTR) {
    cli_fail(out, "%s", err.msg);
    cli_stop_reraise(); /* the temporary is gone */
  }
  if (rc < 0) return cli_fail(path, "%s", err.msg);
  if (!cli.quiet)
    fprintf(stderr,
            "%s: %" PRIu64 " events of [%" PRIu64 ", %" PRIu64 ") (read %" PRIu64
            " from %s %" PRIu64 "); added %" PRIu64 " enters, %" PRIu64
            " sends at the start, %" PRIu64 " receives, %" PRIu64
            " leaves at %" PRIu64 "\n",
            out, rep.events_written, f, t, rep.events_read,
            rep.used_snapshot ? "the snapshot at" : "the start,", rep.start,
            rep.enters, rep.sends, rep.recvs, rep.leaves, rep.end);
  if (!cli.quiet && rep.colls_dropped)
    fprintf(stderr,
            "%s: left out %" PRIu64
            " collective ends of instances a member ended before %" PRIu64
            "\n",
            out, rep.colls_dropped, f);
  if (!cli.quiet && rep.colls_added)
    fprintf(stderr,
            "%s: added %" PRIu64
            " collective ends at %" PRIu64
            " (read after it) of instances a member ended inside\n",
            out, rep.colls_added, rep.end);
  return CLI_OK;
}
