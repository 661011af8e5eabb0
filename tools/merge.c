/* paratrace merge: repartition a trace into M streams of a native archive
 * (convert's pipe with pt_sink_opts.streams = M). */
#include "cli.h"

static const char merge_help[] =
    "usage: paratrace merge [--force] IN -o OUT --streams M\n"
    "\n"
    "Repartition a trace into a native archive of M streams: every\n"
    "location goes to one of the M streams and keeps all its events.  IN\n"
    "may be in any readable format.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT  the output archive (required)\n"
    "  --streams M       number of streams of OUT (required, >= 1)\n"
    "  --force           replace OUT if it exists\n"
    "  -q, --quiet       no progress bar and no warnings\n"
    "  -h, --help\n";

const cli_option cli_merge_options[] = {
    {"output", 'o', 1, CLI_CONV_OUT},
    {"streams", 0, 1, CLI_CONV_STREAMS},
    {"force", 0, 0, CLI_CONV_FORCE},
    {0, 0, 0, 0}};

int cmd_merge(int argc, char **argv) {
  return cli_convert(argc, argv, merge_help);
}
