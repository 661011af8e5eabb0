/* paratrace: the command-line tool.  git-style subcommands, one file each;
 * this file dispatches and handles the global options. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"info", cmd_info, "summarise a trace: streams, events, time span, size"},
    {"dump", cmd_dump, "print a trace (or a window of it) in the text form"},
    {"convert", cmd_convert, "convert a trace to another format"},
    {"check", cmd_check, "check a trace for consistency problems"},
    {"merge", cmd_merge, "repartition a native archive into M streams"},
    {"recover", cmd_recover, "make an archive readable after a crash"},
    {"generate", cmd_generate, "write a synthetic trace"},
    {"stats", cmd_stats, "profile, MPI view, message matrix of a trace"},
    {"summarize", cmd_summarize, "add summaries to an archive for fast windows"},
    {"snapshot", cmd_snapshot, "add snapshots (call stacks, pending messages)"},
    {"slice", cmd_slice, "write a valid trace of a time window"},
    {"profile", cmd_profile, "print the top-down profile tree (profile mode)"},
    {"timeline", cmd_timeline, "draw a trace as an HTML (or SVG) timeline"},
    {"sync", cmd_sync, "correct clock drift between ranks (recorded traces)"},
    {"record", cmd_record, "run a program (MPI or not) and record its trace"},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f) {
  fprintf(f,
          "usage: paratrace [--quiet] <command> [options] [args]\n"
          "       paratrace help [command]\n"
          "       paratrace --version\n"
          "\n"
          "commands:\n");
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f,
          "\n"
          "global options (before or after the command):\n"
          "  -q, --quiet   no progress bar and no warnings\n"
          "  -h, --help    help of paratrace or of a command\n"
          "\n"
          "Times are ticks (12345) or seconds from the trace's start with a\n"
          "unit (1.5s, 200ms, 3us, 40ns).  Location lists: 0,2,5-9.\n"
          "Exit status: 0 success, 1 failure (or problems found by check),\n"
          "2 usage error.\n");
}

static const command *find(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

/* Traces of many ranks are many files (one per rank in DUMPI, OTF and
 * OTF2, whose library keeps each location's file open): the soft limit
 * on open files (often 1024) goes up to the hard one. */
static void raise_file_limit(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &rl);
  }
}

int main(int argc, char **argv) {
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      cli.quiet = 1;
    } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
      printf("paratrace %s\n", PT_VERSION_STRING);
      return CLI_OK;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return CLI_OK;
    } else if (a[0] == '-') {
      fprintf(stderr, "paratrace: unknown option '%s'\n", a);
      usage(stderr);
      return CLI_USAGE;
    } else {
      break;
    }
  }
  if (i >= argc) {
    usage(stderr);
    return CLI_USAGE;
  }
  const char *name = argv[i];
  if (strcmp(name, "help") == 0) {
    if (i + 1 >= argc) {
      usage(stdout);
      return CLI_OK;
    }
    const command *c = find(argv[i + 1]);
    if (!c) {
      fprintf(stderr, "paratrace: '%s' is not a paratrace command\n",
              argv[i + 1]);
      return CLI_USAGE;
    }
    cli.cmd = c->name;
    char *sub[] = {(char *)c->name, (char *)"--help", NULL};
    return c->run(2, sub);
  }
  const command *c = find(name);
  /* not for `record`: the program it runs would inherit the limit */
  if (c && strcmp(c->name, "record") != 0) raise_file_limit();
  if (!c) {
    fprintf(stderr,
            "paratrace: '%s' is not a paratrace command; see 'paratrace "
            "--help'\n",
            name);
    return CLI_USAGE;
  }
  cli.cmd = c->name;
  int rc = c->run(argc - i, argv + i);
  /* A command's output lost (a full disk, a closed pipe) is a failure even
   * where the command did not check stdout itself. */
  if (rc == CLI_OK && (fflush(stdout) != 0 || ferror(stdout))) {
    fprintf(stderr, "paratrace %s: cannot write output: %s\n", c->name,
            strerror(errno));
    rc = CLI_FAIL;
  }
  return rc;
}
