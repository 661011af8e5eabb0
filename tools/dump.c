/* paratrace dump: the text form of a trace, or of a window of it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: paratrace dump [options] TRACE\n"
    "\n"
    "Print the trace in the text form (format \"text\", which `convert`\n"
    "reads back): definitions, then events in time order, then summaries\n"
    "and snapshots.  With --style dumpi, print the MPI calls the way SST\n"
    "DUMPI's dumpi2ascii does (all ranks in time order, a line \"# rank R\"\n"
    "where the rank changes; --locations R prints one rank without it),\n"
    "for diffing against dumpi2ascii output.\n"
    "\n"
    "options:\n"
    "  --from T          first time to include (ticks, or 1.5s/200ms/3us/40ns\n"
    "                    after the trace's start)\n"
    "  --to T            end of the window (exclusive)\n"
    "  --locations L     only these locations, e.g. 0,2,5-9\n"
    "  --kinds K         only these event kinds, e.g. enter,leave,send\n"
    "  --head N          stop after N events\n"
    "  --style S         text (default) or dumpi\n"
    "  -o, --output OUT  write to OUT instead of standard output\n"
    "  --force           replace OUT if it exists\n"
    "  -q, --quiet       no progress bar\n"
    "  -h, --help\n";

enum { O_FROM = 1, O_TO, O_LOCS, O_KINDS, O_HEAD, O_OUT, O_FORCE, O_STYLE };
static const cli_option options[] = {
    {"from", 0, 1, O_FROM},      {"to", 0, 1, O_TO},
    {"locations", 0, 1, O_LOCS}, {"kinds", 0, 1, O_KINDS},
    {"head", 0, 1, O_HEAD},      {"output", 'o', 1, O_OUT},
    {"force", 0, 0, O_FORCE},    {"style", 0, 1, O_STYLE},
    {0, 0, 0, 0}};

int cmd_dump(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL, *out = NULL;
  cli_time from = {0}, to = {0};
  uint64_t *locs = NULL, kinds = 0, head = 0;
  size_t nlocs = 0;
  int force = 0, have_head = 0, id, status = CLI_OK;
  const char *style = "text";
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: free(locs); return cli_help(help);
      case CLI_ERROR: free(locs); return CLI_USAGE;
      case O_FROM: case O_TO:
        if (cli_parse_time(val, id == O_FROM ? &from : &to))
          status = cli_usage("bad time '%s'", val);
        break;
      case O_STYLE:
        if (strcmp(val, "text") == 0)
          style = "text";
        else if (strcmp(val, "dumpi") == 0)
          style = "dumpi-ascii";
        else
          status = cli_usage("unknown style '%s' (text or dumpi)", val);
        break;
      case O_LOCS:
        free(locs);
        if (cli_parse_locations(val, &locs, &nlocs))
          status = cli_usage("bad location list '%s'", val);
        break;
      case O_KINDS: {
        const char *bad;
        if (cli_parse_kinds(val, &kinds, &bad))
          status = cli_usage("unknown event kind '%s'", bad);
        break;
      }
      case O_HEAD:
        if (cli_parse_u64(val, &head)) status = cli_usage("bad count '%s'", val);
        have_head = 1;
        break;
      case O_OUT: out = val; break;
      case O_FORCE: force = 1; break;
    }
    if (status != CLI_OK) break;
  }
  if (status == CLI_OK && !path) status = cli_usage("missing TRACE");
  if (status != CLI_OK) {
    free(locs);
    return status;
  }

  pt_source_opts so = {0};
  so.locations = locs;
  so.nlocations = nlocs;
  so.kinds = kinds;
  so.warn = cli_warn;
  if (cli_resolve_window(path, &from, &to, &so.from, &so.to) != 0) {
    free(locs);
    return CLI_FAIL;
  }
  pt_source *src = NULL;
  if (cli_open_source(&src, path, &so) != CLI_OK) {
    free(locs);
    return CLI_FAIL;
  }
  if (cli_check_locations(path, pt_source_reader(src), locs, nlocs) !=
      CLI_OK) {
    free(locs);
    pt_source_close(src);
    return CLI_FAIL;
  }
  free(locs);

  pt_sink_opts ko = {0};
  ko.format = style;
  /* one rank: exactly as dumpi2ascii prints it, no rank labels */
  if (nlocs == 1) ko.params = "nolabel";
  ko.overwrite = force;
  ko.warn = cli_warn;
  pt_sink *snk = NULL;
  pt_error err = {0};
  const char *target = out ? out : "-";
  if (pt_sink_open(&snk, target, &ko, &err) < 0) {
    pt_source_close(src);
    return cli_fail(out ? out : "stdout", "%s%s", err.msg,
                    err.status == PT_EEXIST && !force
                        ? "; use --force to replace it"
                                            : "");
  }

  cli_progress bar;
  cli_progress_start(&bar, "dump", cli_source_event_total(src));
  if (!out) bar.active = 0; /* the bar would mix with the dump on a tty */
  if (out) cli_catch_stop(); /* a file: its temporary is removed */
  uint64_t events = 0;
  pt_item it;
  int rc = PT_END;
  while (!(have_head && events >= head) &&
         (rc = pt_source_next(src, &it)) == PT_OK) {
    if (out && cli_stopped()) {
      status = cli_fail(out, "%s", pt_strerror(PT_EINTR));
      break;
    }
    int w = pt_sink_write(snk, &it);
    if (w < 0) {
      status = cli_fail(out ? out : "stdout", "%s", pt_sink_errmsg(snk));
      break;
    }
    if (it.type == PT_ITEM_EVENT && (++events & 0xffff) == 0)
      cli_progress_update(&bar, events);
  }
  if (status == CLI_OK && !(have_head && events >= head) && rc < 0)
    status = cli_fail(path, "%s", pt_source_errmsg(src));
  cli_progress_end(&bar);
  if (status == CLI_OK) {
    if (pt_sink_close(snk, &err) < 0)
      status = cli_fail(out ? out : "stdout", "%s", err.msg);
  } else {
    pt_sink_abort(snk);
  }
  pt_source_close(src);
  if (out && status != CLI_OK) cli_stop_reraise();
  return status;
}
