/* Shared helpers of the paratrace subcommands: option parsing, value
 * parsing (times, location lists, event kinds), error reporting and the
 * progress bar.  Only the public API of libparatrace is used here. */
#ifndef PT_TOOLS_CLI_H
#define PT_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "paratrace/analysis.h"
#include "paratrace/paratrace.h"

/* Exit codes of every subcommand. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Global state set by main.c. */
typedef struct cli_globals {
  const char *cmd; /* subcommand being run ("info"), for messages */
  int quiet;       /* --quiet: no progress bar, no chatter */
} cli_globals;
extern cli_globals cli;

/* ---- option parsing ------------------------------------------------------ */

/* One option of a subcommand.  `id` is returned by cli_next; names are
 * matched exactly ("--from"), short names are one letter ('o') or 0. */
typedef struct cli_option {
  const char *name;
  char short_name;
  int has_arg;
  int id;
} cli_option;

enum {
  CLI_ARG = 0,     /* a positional argument (in *value) */
  CLI_END = -1,    /* no more arguments */
  CLI_ERROR = -2,  /* usage error, already reported on stderr */
  CLI_HELP = -3    /* --help / -h */
};

typedef struct cli_parser {
  int argc, i;
  char **argv;
  const cli_option *opts; /* terminated by a zero entry */
  int only_args;          /* after "--" */
  const char **trace;     /* cli_parser_trace: where TRACE goes */
} cli_parser;

/* argv[0] is the subcommand name; parsing starts at argv[1]. */
void cli_parser_init(cli_parser *p, int argc, char **argv,
                     const cli_option *opts);
/* For a subcommand of one TRACE argument: cli_next stores the positional
 * argument in *trace (which starts NULL) instead of returning CLI_ARG, and
 * a second one is a usage error ("one trace at a time", CLI_ERROR). */
void cli_parser_trace(cli_parser *p, const char **trace);
/* Next option id (> 0), CLI_ARG, CLI_END, CLI_ERROR or CLI_HELP.  Accepts
 * "--name value", "--name=value", "-x value", "-xvalue"; "--quiet"/"-q" is
 * handled here for every subcommand (sets cli.quiet) and never returned. */
int cli_next(cli_parser *p, const char **value);

/* ---- messages ------------------------------------------------------------ */

/* "paratrace CMD: FILE: reason" on stderr; returns CLI_FAIL.  FILE may be
 * NULL.  A reason that already starts with "FILE: " is not doubled. */
int cli_fail(const char *file, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "paratrace CMD: reason" plus a hint to --help; returns CLI_USAGE. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print `text` (a subcommand's help) on stdout; returns CLI_OK. */
int cli_help(const char *text);

/* ---- values -------------------------------------------------------------- */

/* A strict unsigned integer (decimal, or 0x hex); 0 on success, -1. */
int cli_parse_u64(const char *s, uint64_t *out);

/* A time: "12345" (ticks, absolute) or a number with a unit "1.5s",
 * "200ms", "3us", "40ns" (relative to the trace's start, converted with
 * the clock definition once the trace is open). */
typedef struct cli_time {
  int set;          /* given on the command line */
  int has_unit;     /* 0: `ticks` is absolute; 1: `seconds` after start */
  uint64_t ticks;
  double seconds;
} cli_time;
int cli_parse_time(const char *s, cli_time *out);

/* The trace's clock: ticks per second (0 if the trace has no clock
 * definition) and start tick. */
typedef struct cli_clock {
  uint64_t ticks_per_second;
  uint64_t start;
  int found;
} cli_clock;
/* Read the clock definition of the trace at `path` (opens it, reads the
 * definitions before the first event, closes).  0, or CLI_FAIL after
 * reporting the error. */
int cli_read_clock(const char *path, cli_clock *clk);
/* Convert a time to ticks; 0, or -1 (reported) if it has a unit and the
 * trace has no clock. */
int cli_time_ticks(const cli_time *t, const cli_clock *clk, const char *path,
                   uint64_t *out);
/* Resolve --from/--to style pairs into ticks, reading the clock only when
 * a unit was used.  *from = 0 / *to = 0 when not set. */
int cli_resolve_window(const char *path, const cli_time *from,
                       const cli_time *to, uint64_t *from_ticks,
                       uint64_t *to_ticks);
/* cli_resolve_window, and when both are given --to must be after --from
 * ("empty window: --to must be after --from").  0, or CLI_FAIL after
 * reporting. */
int cli_resolve_nonempty_window(const char *path, const cli_time *from,
                                const cli_time *to, uint64_t *from_ticks,
                                uint64_t *to_ticks);

/* A location list "0,2,5-9" -> a malloc'd array (caller frees); 0 or -1.
 * At most 1<<24 locations. */
int cli_parse_locations(const char *s, uint64_t **out, size_t *n);
/* On a native archive: fails (one line naming path) if a selected
 * location is not defined in the trace. */
int cli_check_locations(const char *path, pt_reader *r,
                        const uint64_t *locs, size_t n);

/* Event kinds "enter,leave,send" -> a PT_KIND_BIT mask; 0 or -1 (with the
 * bad name in *bad, pointing into s is not guaranteed: a static copy). */
int cli_parse_kinds(const char *s, uint64_t *mask, const char **bad);

/* Format `ticks` as seconds with the clock ("1.500000 s") into buf. */
const char *cli_fmt_seconds(char *buf, size_t n, uint64_t ticks,
                            const cli_clock *clk);

/* ---- progress bar -------------------------------------------------------- */

/* Shown on stderr only when stderr is a terminal and not --quiet; redrawn
 * at most 10 times a second. */
typedef struct cli_progress {
  const char *label;
  uint64_t total; /* 0 = unknown: show a count and a rate */
  uint64_t done;
  double start, last;
  int active, drawn;
} cli_progress;
void cli_progress_start(cli_progress *p, const char *label, uint64_t total);
void cli_progress_update(cli_progress *p, uint64_t done);
/* Clear the bar (prints nothing when it was never drawn). */
void cli_progress_end(cli_progress *p);
/* pt_progress_fn adapter: user is a cli_progress. */
void cli_progress_cb(void *user, uint64_t events);

/* pt_source_open of the trace at `path` with options `so` (NULL: only
 * warnings through cli_warn).  CLI_OK, or CLI_FAIL after reporting. */
int cli_open_source(pt_source **src, const char *path,
                    const pt_source_opts *so);

/* Total events of a trace when cheaply known (PTF stream infos), else 0. */
uint64_t cli_source_event_total(pt_source *src);

/* Warning callback for sources/sinks: "paratrace CMD: warning: ..." unless
 * --quiet. */
void cli_warn(void *user, const char *message);

/* Ctrl-C, SIGTERM or SIGHUP while a command writes a file: after
 * cli_catch_stop() the first such signal only makes the library stop at
 * its next item with PT_EINTR (pt_pipe_interrupt); the command removes its
 * temporary output, then cli_stop_reraise() ends the process as the signal
 * would have (it returns if no signal came).  A second signal acts as
 * usual. */
void cli_catch_stop(void);
void cli_stop_reraise(void);
int cli_stopped(void);

/* ---- MPI-parallel commands ------------------------------------------------- */

/* `mpirun -np K paratrace stats ...`: the plain `paratrace` binary does not
 * link MPI; under a launcher with K > 1 it runs BIN/paratrace-mpi (the same
 * commands plus tools/mpi.c, built with mpicc), where cli_parallel is set. */
typedef struct cli_par {
  /* MPI_Init; rank and size of COMM_WORLD.  0 or -1. */
  int (*init)(int *rank, int *size);
  /* Gather every rank's serialized pt_stats at rank 0 and merge them into
   * *s there (in rank order).  mine: 1 this rank has results in *s, 2 it
   * had nothing to do, 0 it failed.  Returns 0, or -1 with the reason in
   * err (rank 0); *failed = 1 (rank 0) if any rank failed. */
  int (*reduce)(pt_stats **s, int mine, int rank, int size, int *failed,
                char *err, size_t errn);
  void (*finish)(void);
} cli_par;
extern const cli_par *cli_parallel;
/* Size of the job this process was launched in (OpenMPI, PMI, PMIx,
 * Slurm variables), 1 when none. */
int cli_launcher_size(void);
/* Replace this process by BIN/paratrace-mpi with the same command line
 * (returns only on failure, after reporting it). */
int cli_exec_parallel(int argc, char **argv);

/* ---- subcommands ---------------------------------------------------------- */

/* convert.c's engine, shared with merge.c: with merge_help == NULL it is
 * `convert`; otherwise `merge` (options cli_merge_options, output format
 * ptf with --streams M). */
enum { CLI_CONV_OUT = 1, CLI_CONV_FORCE, CLI_CONV_STREAMS };
extern const cli_option cli_merge_options[];
int cli_convert(int argc, char **argv, const char *merge_help);

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_summarize(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_slice(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_sync(int argc, char **argv);
int cmd_timeline(int argc, char **argv);

#endif
