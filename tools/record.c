/* paratrace record: run a program with the recorder (libparatrace-mpi.so
 * preloaded for MPI programs; the user API recorder for the others). */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "paratrace/profile.h"

static const char help[] =
    "usage: paratrace record [options] -- PROGRAM [ARGS...]\n"
    "       mpirun -np N paratrace record [options] -- PROGRAM [ARGS...]\n"
    "\n"
    "Run PROGRAM and record it into a native archive.  An MPI program is\n"
    "traced through libparatrace-mpi.so (preloaded: no recompiling): every\n"
    "MPI call with its arguments, messages, requests, collectives and I/O,\n"
    "one stream per rank (and per thread), written with no communication\n"
    "between ranks except at MPI_Init and MPI_Finalize.  A program that is\n"
    "not MPI records what it marks with the user API (paratrace/record.h).\n"
    "The archive opens with paratrace info, dump, check, stats.\n"
    "\n"
    "options (each sets the PARATRACE_* variable in brackets):\n"
    "  -o, --output PATH   archive (default paratrace.ptf) [OUTPUT]\n"
    "  -f, --force         replace an existing archive [OVERWRITE=1]\n"
    "  --buffer SIZE       memory per thread, e.g. 4M (default) [BUFFER]\n"
    "  --policy P          when the buffer is full: flush (default), stop,\n"
    "                      ring [POLICY]\n"
    "  --level N           0 nothing, 1 timing and messages, 2 + arguments,\n"
    "                      3 + statuses (default) [LEVEL]\n"
    "  --disable LIST      functions not recorded: MPI_Wtime,MPI_Iprobe (the\n"
    "                      requests a disabled call completes are lost too)\n"
    "                      [DISABLE]\n"
    "  --detail LIST       per-function level: MPI_Iprobe=1,MPI_Send=2\n"
    "                      [DETAIL]\n"
    "  --config FILE       PARATRACE_VAR=value lines [CONFIG]\n"
    "  --mode M            trace (default), profile or both [MODE]\n"
    "  --callsites N       each call's call site: 0 none, 1 the calling\n"
    "                      statement (default), N up to 8: and the N - 1\n"
    "                      statements that called its procedures (as mpiP's\n"
    "                      -k; an unwind per call, microseconds) [CALLSITES]\n"
    "  -h, --help\n"
    "\n"
    "When the program ends, rank 0 corrects the clock drift between the\n"
    "ranks (paratrace sync; nothing to do when all ran on one host).\n"
    "\n"
    "An existing archive is kept: without --force the program is not run\n"
    "(exit status 1).  Exit status: the program's (128 + signal if it was\n"
    "killed).\n";

enum { O_OUT = 1, O_FORCE, O_BUFFER, O_POLICY, O_LEVEL, O_DISABLE, O_DETAIL,
       O_CONFIG, O_MODE, O_CALLSITES };
static const cli_option options[] = {
    {"output", 'o', 1, O_OUT},     {"force", 'f', 0, O_FORCE},
    {"buffer", 0, 1, O_BUFFER},    {"policy", 0, 1, O_POLICY},
    {"level", 0, 1, O_LEVEL},      {"disable", 0, 1, O_DISABLE},
    {"detail", 0, 1, O_DETAIL},    {"config", 0, 1, O_CONFIG},
    {"mode", 0, 1, O_MODE},        {"callsites", 0, 1, O_CALLSITES},
    {0, 0, 0, 0}};

static pid_t g_child;
static void forward(int sig) {
  if (g_child > 0) kill(g_child, sig);
}

/* libparatrace-mpi.so next to this binary: BIN/../lib. */
static int find_mpi_lib(char *out, size_t n) {
  char exe[PATH_MAX];
  ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (l <= 0) return -1;
  exe[l] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return -1;
  *slash = 0;
  slash = strrchr(exe, '/');
  if (!slash) return -1;
  *slash = 0;
  if (snprintf(out, n, "%s/lib/libparatrace-mpi.so", exe) >= (int)n) return -1;
  return access(out, R_OK) == 0 ? 0 : -1;
}

static int set(const char *var, const char *val) {
  if (setenv(var, val, 1) != 0)
    return cli_fail(NULL, "setting %s: %s", var, strerror(errno));
  return 0;
}

int cmd_record(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val;
  int id, prog = -1;
  static const struct { int id; const char *var; } vars[] = {
      {O_OUT, "PARATRACE_OUTPUT"},     {O_BUFFER, "PARATRACE_BUFFER"},
      {O_POLICY, "PARATRACE_POLICY"},  {O_LEVEL, "PARATRACE_LEVEL"},
      {O_DISABLE, "PARATRACE_DISABLE"}, {O_DETAIL, "PARATRACE_DETAIL"},
      {O_CONFIG, "PARATRACE_CONFIG"},  {O_MODE, "PARATRACE_MODE"}};
  while (prog < 0 && (id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case CLI_ARG: prog = p.i - 1; break;
      case O_FORCE:
        if (set("PARATRACE_OVERWRITE", "1")) return CLI_FAIL;
        break;
      case O_POLICY:
        if (strcmp(val, "flush") && strcmp(val, "stop") && strcmp(val, "ring"))
          return cli_usage("--policy %s: want flush, stop or ring", val);
        if (set("PARATRACE_POLICY", val)) return CLI_FAIL;
        break;
      case O_LEVEL:
        if (val[0] < '0' || val[0] > '3' || val[1])
          return cli_usage("--level %s: want 0, 1, 2 or 3", val);
        if (set("PARATRACE_LEVEL", val)) return CLI_FAIL;
        break;
      case O_CALLSITES:
        if (val[0] < '0' || val[0] > '8' || val[1])
          return cli_usage("--callsites %s: want 0 (none) to 8", val);
        if (set("PARATRACE_CALLSITES", val)) return CLI_FAIL;
        break;
      case O_MODE:
        if (strcmp(val, "trace") && strcmp(val, "profile") &&
            strcmp(val, "both"))
          return cli_usage("--mode %s: want trace, profile or both", val);
        if (set("PARATRACE_MODE", val)) return CLI_FAIL;
        break;
      case O_BUFFER: {
        /* the recorder's rules (PARATRACE_BUFFER): digits first, an
         * optional k/M/G, no overflow; checked here so that a bad size is
         * said once, before the program starts */
        char *end;
        errno = 0;
        unsigned long long v =
            val[0] >= '0' && val[0] <= '9' ? strtoull(val, &end, 10) : 0;
        unsigned long long m = 1;
        if (!v) end = (char *)val;
        else if (*end == 'k' || *end == 'K') m = 1024, end++;
        else if (*end == 'm' || *end == 'M') m = 1024 * 1024, end++;
        else if (*end == 'g' || *end == 'G') m = 1024ull * 1024 * 1024, end++;
        if (errno || end == val || *end || v == 0 || v > SIZE_MAX / m ||
            v * m < 4096 || v * m > (32u << 20))
          return cli_usage("--buffer %s: want a size from 4K to 32M, such "
                           "as 4M", val);
        if (set("PARATRACE_BUFFER", val)) return CLI_FAIL;
        break;
      }
      case O_CONFIG:
        if (access(val, R_OK) != 0)
          return cli_fail(val, "cannot read: %s", strerror(errno));
        /* fall through */
      default:
        for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
          if (vars[i].id == id && set(vars[i].var, val)) return CLI_FAIL;
    }
  }
  if (prog < 0 || prog >= argc) return cli_usage("missing PROGRAM");
  /* The archive path is made absolute: the program may change directory. */
  const char *out = getenv("PARATRACE_OUTPUT");
  if (!out || !*out) out = "paratrace.ptf";
  char abs[PATH_MAX];
  if (out[0] != '/') {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) ||
        snprintf(abs, sizeof abs, "%s/%s", cwd, out) >= (int)sizeof abs)
      return cli_fail(out, "path too long");
    out = abs;
  }
  /* An existing archive is kept (unless --force): refused here, before the
   * program runs, by the process that would create it (rank 0 under an
   * MPI launcher, where the others start before it exists) */
  const char *rank = getenv("OMPI_COMM_WORLD_RANK");
  if (!rank) rank = getenv("PMIX_RANK");
  if (!rank) rank = getenv("PMI_RANK");
  const char *ow = getenv("PARATRACE_OVERWRITE");
  struct stat ost;
  int force = ow && strcmp(ow, "1") == 0;
  if (!force && (!rank || strcmp(rank, "0") == 0) && lstat(out, &ost) == 0)
    return cli_fail(out, "already exists (not overwritten); use --force to "
                         "replace it");
  if (force && lstat(out, &ost) == 0) {
    /* --force replaces an archive, never a user's directory or file (an
     * anchor saying so: not detected by the name alone) */
    char anchor[PATH_MAX + 8];
    snprintf(anchor, sizeof anchor, "%s/anchor", out);
    const char *fmt = pt_format_detect(out);
    struct stat ast;
    if (!S_ISDIR(ost.st_mode) ||
        ((stat(anchor, &ast) != 0 || !fmt || strcmp(fmt, "ptf") != 0) &&
         !pt_profile_is_output(out)))
      return cli_fail(out, "exists and is not a paratrace archive or "
                           "profile; not replaced (remove it or choose "
                           "another name)");
  }
  time_t started = time(NULL);
  if (set("PARATRACE_OUTPUT", out)) return CLI_FAIL;
  if (set("PARATRACE_RECORD", "1")) return CLI_FAIL;
  char lib[PATH_MAX];
  if (find_mpi_lib(lib, sizeof lib) == 0) {
    const char *old = getenv("LD_PRELOAD");
    char pre[2 * PATH_MAX];
    snprintf(pre, sizeof pre, "%s%s%s", lib, old && *old ? ":" : "",
             old ? old : "");
    if (set("LD_PRELOAD", pre)) return CLI_FAIL;
  } else if (!cli.quiet) {
    fprintf(stderr, "paratrace record: warning: libparatrace-mpi.so not "
                    "found next to this program (MPI calls not traced)\n");
  }
  fflush(NULL);
  g_child = fork();
  if (g_child < 0) return cli_fail(NULL, "fork: %s", strerror(errno));
  if (g_child == 0) {
    execvp(argv[prog], argv + prog);
    fprintf(stderr, "paratrace record: %s: %s\n", argv[prog], strerror(errno));
    _exit(127);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sigaction(SIGQUIT, &sa, NULL);
  int st = 0;
  while (waitpid(g_child, &st, 0) < 0)
    if (errno != EINTR) return cli_fail(NULL, "waitpid: %s", strerror(errno));
  struct stat sb;
  if (WIFSIGNALED(st)) {
    /* Replacing an archive (--force, one process): the new one was being
     * written under OUT.tmp-wPID-N.  An archive older than this run is not
     * its own (under mpirun the launcher kills the other ranks when rank 0
     * refuses to replace it). */
    char pat[PATH_MAX + 64];
    glob_t g;
    snprintf(pat, sizeof pat, "%s.tmp-w%ld-*", out, (long)g_child);
    int partial = glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    if (cli.quiet) {
    } else if (partial) {
      fprintf(stderr, "paratrace record: %s killed by signal %d; what it "
                      "recorded is in %s ('paratrace recover' it, then "
                      "rename it)\n", argv[prog], WTERMSIG(st), g.gl_pathv[0]);
    } else if (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode) &&
               sb.st_mtime >= started - 1) {
      /* (a directory: a file at OUT, which rank 0 refused to replace, is
       * nothing to recover) */
      fprintf(stderr, "paratrace record: %s killed by signal %d; run "
                      "'paratrace recover %s' if the archive does not open\n",
              argv[prog], WTERMSIG(st), out);
    } else {
      fprintf(stderr, "paratrace record: %s killed by signal %d (no archive "
                      "was written by this run)\n", argv[prog], WTERMSIG(st));
    }
    globfree(&g);
    return 128 + WTERMSIG(st);
  }
  int code = WEXITSTATUS(st);
  /* Rank 0 (or a program that is not MPI) finishes last: the archive is
   * complete, its clock drift can be corrected now. */
  const char *rv = getenv("OMPI_COMM_WORLD_RANK");
  if (!rv) rv = getenv("PMIX_RANK");
  if (!rv) rv = getenv("PMI_RANK");
  /* Nothing at OUT (no archive, no profile), or only one older than this
   * run (--force): the preloaded library saw no MPI_Init and the program
   * marked nothing.  Said, as an exit status of 0 and no file leave a
   * user guessing (met with a package whose "MPI" binary is not linked
   * with MPI: each process ran alone, untraced). */
  int none = lstat(out, &sb) != 0 ? errno == ENOENT : sb.st_mtime < started - 1;
  if (!cli.quiet && code != 127 && (!rv || strcmp(rv, "0") == 0) && none)
    fprintf(stderr, "paratrace record: warning: no trace written to %s: %s "
                    "called no MPI function that libparatrace-mpi.so saw "
                    "(not an MPI program, MPI linked statically, or it ended "
                    "before MPI_Init) and marked nothing with the user API\n",
            out, argv[prog]);
  /* (an archive with events: profile mode alone writes no anchor) */
  char anchor[PATH_MAX + 8];
  snprintf(anchor, sizeof anchor, "%s/anchor", out);
  if (code == 0 && (!rv || strcmp(rv, "0") == 0) && stat(anchor, &sb) == 0) {
    char *sargv[] = {(char *)"sync", (char *)out, NULL};
    int q = cli.quiet;
    cli.quiet = 1;
    if (cmd_sync(2, sargv) != CLI_OK)
      fprintf(stderr, "paratrace record: clock drift of %s not corrected "
                      "(see above)\n", out);
    cli.quiet = q;
  }
  return code;
}
