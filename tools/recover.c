/* paratrace recover: make a native archive readable after its writer
 * died (pt_archive_recover). */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

static const char help[] =
    "usage: paratrace recover TRACE\n"
    "\n"
    "Make a native archive (NAME.ptf) readable after its writer died: scan\n"
    "every stream's block headers, keep every complete block, cut an\n"
    "incomplete tail (a damaged block and what follows are kept aside as\n"
    "*.damaged, never deleted), rebuild the indexes and the anchor.  If\n"
    "events were cut, the summaries and snapshots (paratrace summarize)\n"
    "are removed: run summarize again.  Temporaries left by a killed\n"
    "process are removed.  Safe to run again.  Prints what was kept and what was cut.\n"
    "\n"
    "options:\n"
    "  -q, --quiet  print nothing on success\n"
    "  -h, --help\n";

static const cli_option options[] = {{0, 0, 0, 0}};

int cmd_recover(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL;
  int id;
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
    }
  }
  if (!path) return cli_usage("missing TRACE");
  pt_recover_report rep = {0};
  pt_error err = {0};
  int rc = pt_archive_recover(path, &rep, &err);
  if (rc < 0) return cli_fail(path, "%s", err.msg[0] ? err.msg : pt_strerror(rc));
  if (!cli.quiet) {
    printf("%s: kept %" PRIu64 " event%s in %" PRIu64 " complete block%s of %"
           PRIu64 " stream%s\n",
           path, rep.events, rep.events == 1 ? "" : "s", rep.blocks,
           rep.blocks == 1 ? "" : "s", rep.streams,
           rep.streams == 1 ? "" : "s");
    if (rep.truncated_bytes)
      printf("%s: cut %" PRIu64 " byte%s of incomplete or damaged tails "
             "(kept aside as *.damaged)\n",
             path, rep.truncated_bytes, rep.truncated_bytes == 1 ? "" : "s");
    else
      printf("%s: nothing cut\n", path);
    printf("%s: %" PRIu64 " index%s rebuilt\n", path, rep.indexes_rebuilt,
           rep.indexes_rebuilt == 1 ? "" : "es");
    if (rep.aux_removed)
      printf("%s: summaries removed (%" PRIu64 " file%s described events "
             "that were cut): run paratrace summarize again\n",
             path, rep.aux_removed, rep.aux_removed == 1 ? "" : "s");
    if (rep.tmp_removed)
      printf("%s: removed %" PRIu64 " temporar%s left by a process that "
             "died\n", path, rep.tmp_removed,
             rep.tmp_removed == 1 ? "y" : "ies");
  }
  return CLI_OK;
}
