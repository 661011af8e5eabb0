/* paratrace check: read a trace once and report consistency problems
 * (the logic is pt_check_* in src/analysis/check.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "paratrace/analysis.h"

static const char help[] =
    "usage: paratrace check [--max N] TRACE\n"
    "\n"
    "Read the trace once and report what a well-formed trace cannot hold:\n"
    "  time_order           timestamps going backwards on a location\n"
    "  leave_without_enter  a leave with no region open\n"
    "  leave_mismatch       a leave of another region than the innermost\n"
    "                       open one\n"
    "  unclosed_region      regions still open at the end\n"
    "  unmatched_send       sends without a receive, and\n"
    "  unmatched_recv       receives without a send, matched by (sender,\n"
    "                       receiver, communicator, tag) in FIFO order\n"
    "  recv_before_send     receives that end before their send began\n"
    "  undefined_region     events referencing undefined regions, or\n"
    "  undefined_location   undefined locations\n"
    "A receive that ends before its send began by no more than the clock\n"
    "tolerance is clock skew between ranks, not a problem: the summary\n"
    "counts such messages and their largest gap (`paratrace sync` corrects\n"
    "clock drift of recorded traces).  Non-blocking requests started and\n"
    "never completed (left pending at exit, or freed while active) are a\n"
    "note naming the first, not a problem.\n"
    "Each problem is printed on one line (up to --max of them), then a\n"
    "summary with the count of each kind.  Memory is bounded by the open\n"
    "state (call stacks, messages in flight, requests not completed: up to\n"
    "2^20 of them, beyond that counted only), not by the trace length.\n"
    "\n"
    "Exit status: 0 if the trace is consistent, 1 if problems were found\n"
    "or the trace could not be read, 2 on a usage error.\n"
    "\n"
    "options:\n"
    "  --max N      print at most N problems (default 20; 0 = none)\n"
    "  --clock-tolerance T\n"
    "               skew tolerated between the ranks' clocks: ticks, or a\n"
    "               duration such as 500ns or 2us (default 1us when the\n"
    "               trace defines its clock, else 0)\n"
    "  -q, --quiet  no progress bar and no warnings (the problems, up to\n"
    "               --max, and the notes still print)\n"
    "  -h, --help\n";

enum { O_MAX = 1, O_TOL };
static const cli_option options[] = {{"max", 0, 1, O_MAX},
                                     {"clock-tolerance", 0, 1, O_TOL},
                                     {0, 0, 0, 0}};

typedef struct printer {
  uint64_t max, printed;
  cli_progress *bar;
} printer;

static void on_problem(void *user, const pt_check_problem *p) {
  printer *pr = user;
  if (pr->printed >= pr->max) return;
  pr->printed++;
  cli_progress_end(pr->bar); /* a bar would garble the line */
  printf("%s: %s\n", pt_check_kind_name(p->kind), p->text);
}

int cmd_check(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL;
  uint64_t max = 20;
  cli_time tol = {0};
  int id;
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case O_MAX:
        if (cli_parse_u64(val, &max)) return cli_usage("bad count '%s'", val);
        break;
      case O_TOL:
        if (cli_parse_time(val, &tol))
          return cli_usage("bad clock tolerance '%s' (ticks, or 500ns, 2us)",
                           val);
        break;
    }
  }
  if (!path) return cli_usage("missing TRACE");

  /* The tolerance in ticks: a duration needs the trace's clock. */
  uint64_t tol_ticks = tol.set && !tol.has_unit ? tol.ticks : 0;
  if (!tol.set || tol.has_unit) {
    cli_clock clk;
    if (cli_read_clock(path, &clk) != 0) return CLI_FAIL;
    double sec = tol.set ? tol.seconds : 1e-6;
    if (tol.set && !clk.ticks_per_second)
      return cli_fail(path, "the trace has no clock definition; give the "
                      "clock tolerance in ticks");
    double t = sec * (double)clk.ticks_per_second;
    tol_ticks = t >= 1.8e19 ? UINT64_MAX : (uint64_t)(t + 0.5);
  }

  pt_source *src = NULL;
  if (cli_open_source(&src, path, NULL) != CLI_OK) return CLI_FAIL;

  cli_progress bar;
  cli_progress_start(&bar, "check", cli_source_event_total(src));
  printer pr = {max, 0, &bar};
  pt_check_opts co = {0};
  co.max_reports = 1; /* problems are printed as they are found */
  co.on_problem = on_problem;
  co.user = &pr;
  co.clock_tolerance = tol_ticks;
  pt_check *chk = NULL;
  if (pt_check_create(&chk, &co) < 0) {
    pt_source_close(src);
    return cli_fail(path, "out of memory");
  }

  int status = CLI_OK, rc;
  uint64_t events = 0;
  pt_item it;
  while ((rc = pt_source_next(src, &it)) == PT_OK) {
    int c = PT_OK;
    if (it.type == PT_ITEM_DEF)
      c = pt_check_def(chk, &it.u.def);
    else if (it.type == PT_ITEM_EVENT) {
      c = pt_check_event(chk, &it.u.event);
      if ((++events & 0xffff) == 0) cli_progress_update(&bar, events);
    }
    if (c < 0) {
      status = cli_fail(path, "%s", pt_strerror(c));
      break;
    }
  }
  cli_progress_end(&bar);
  if (status == CLI_OK && rc < 0)
    status = cli_fail(path, "%s", pt_source_errmsg(src));
  if (status == CLI_OK) {
    int f = pt_check_finish(chk);
    if (f < 0 && f != PT_ECHECK) {
      status = cli_fail(path, "%s", pt_strerror(f));
    } else {
      pt_check_stats st;
      pt_check_get_stats(chk, &st);
      uint64_t total = pt_check_total(chk);
      if (total > pr.printed && pr.printed)
        printf("... and %" PRIu64 " more\n", total - pr.printed);
      if (st.skewed_messages)
        printf("%s: note: %" PRIu64 " receive%s ended before %s send began "
               "by at most %" PRIu64 " ticks: clock skew within the "
               "tolerance (%" PRIu64 " ticks), not counted as problems\n",
               path, st.skewed_messages, st.skewed_messages == 1 ? "" : "s",
               st.skewed_messages == 1 ? "its" : "their", st.max_skew,
               tol_ticks);
      if (st.lossy_messages)
        printf("%s: note: %" PRIu64 " message%s of locations whose ring "
               "buffer dropped its oldest events could not be paired (their "
               "partners were dropped), not counted as problems\n",
               path, st.lossy_messages, st.lossy_messages == 1 ? "" : "s");
      if (st.stopped_items)
        printf("%s: note: %" PRIu64 " region%s left open or message%s "
               "unmatched where a buffer full under the stop policy ended "
               "the recording (BUFFER_OVERFLOW), not counted as problems\n",
               path, st.stopped_items, st.stopped_items == 1 ? "" : "s",
               st.stopped_items == 1 ? "" : "s");
      if (st.unfinished_requests)
        printf("%s: note: %" PRIu64 " non-blocking request%s never "
               "completed in the trace (left pending at the end, or freed "
               "while active; the first: location %" PRIu64 ", %s of "
               "request %" PRIu64 " at t=%" PRIu64 "), not counted as "
               "problems\n",
               path, st.unfinished_requests,
               st.unfinished_requests == 1 ? "" : "s", st.unfinished_location,
               pt_event_kind_name(st.unfinished_kind)
                   ? pt_event_kind_name(st.unfinished_kind) : "start",
               st.unfinished_request, st.unfinished_time);
      if (st.unfinished_untracked)
        printf("%s: note: %" PRIu64 " non-blocking request%s started while "
               "2^20 were open not followed (memory bound)\n", path,
               st.unfinished_untracked,
               st.unfinished_untracked == 1 ? "" : "s");
      /* a native archive its writer never closed (the program was killed
       * or is still running): say so; with no events at all, nothing was
       * flushed, which is not a trace that checks OK */
      pt_reader *rd = pt_source_reader(src);
      const char *state = rd ? pt_reader_anchor(rd, "state") : NULL;
      int unclosed = rd && (!state || strcmp(state, "closed") != 0);
      if (unclosed)
        printf("%s: note: the archive was not closed (its writer was killed "
               "or is still running): checked what its blocks hold; "
               "'paratrace recover %s' makes that permanent\n", path, path);
      /* a closed archive holds what its writer recorded: fewer events
       * (a truncated or damaged stream, read as far as it goes) is damage;
       * more is a joined rank that closed after the anchor was written
       * (ranks that exit without MPI_Finalize close on their own), whose
       * part the reader lists itself */
      const char *want = rd && !unclosed ? pt_reader_anchor(rd, "events") : NULL;
      char *wend = NULL;
      unsigned long long nwant = want ? strtoull(want, &wend, 10) : 0;
      int lost = want && wend && !*wend && wend != want && st.events < nwant;
      if (lost) {
        printf("%s: damaged: the writer closed the archive with %llu events, "
               "%" PRIu64 " could be read (see the warnings); 'paratrace "
               "recover %s' keeps the complete blocks and puts the rest "
               "aside\n", path, nwant, st.events, path);
        status = CLI_FAIL;
      }
      if (unclosed && !st.events) {
        printf("%s: no events: nothing was flushed before the writer "
               "stopped\n", path);
        status = CLI_FAIL;
      } else if (!st.events && !total) {
        printf("%s: no events: nothing to check\n", path);
        status = CLI_FAIL;
      } else if (!total && !lost) {
        printf("%s: OK: %" PRIu64 " events on %" PRIu64 " locations, %" PRIu64
               " messages matched, max call depth %" PRIu64 "\n",
               path, st.events, st.locations, st.messages_matched,
               st.max_depth);
      } else if (total) {
        printf("%s: %" PRIu64 " problem%s in %" PRIu64 " events:", path,
               total, total == 1 ? "" : "s", st.events);
        const char *sep = " ";
        for (uint32_t k = 1; k < PT_CHECK__COUNT; k++)
          if (pt_check_count(chk, k)) {
            printf("%s%" PRIu64 " %s", sep, pt_check_count(chk, k),
                   pt_check_kind_name(k));
            sep = ", ";
          }
        printf("\n");
        status = CLI_FAIL;
      }
    }
  }
  if (fflush(stdout) != 0 && status == CLI_OK)
    status = cli_fail(NULL, "cannot write output");
  pt_check_destroy(chk);
  pt_source_close(src);
  return status;
}
