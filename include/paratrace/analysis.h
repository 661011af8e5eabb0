/* paratrace: trace analysis.
 *
 * The consistency checker reads a trace once (definitions, then events in
 * non-decreasing time per location -- the order every source yields) and
 * reports what a well-formed trace of an MPI program cannot contain:
 *
 *   - timestamps going backwards on a location;
 *   - a leave without an enter, a leave of a region other than the
 *     innermost open one, regions still open at the end;
 *   - point-to-point messages without a partner: sends without a receive
 *     and receives without a send, matched by (sender, receiver,
 *     communicator, tag) in FIFO order, as MPI's non-overtaking rule does;
 *   - a receive that completed before its matching send began;
 *   - events that reference an undefined region or location.
 *
 *   pt_check *c;
 *   pt_check_create(&c, NULL);
 *   for each definition: pt_check_def(c, &def);
 *   for each event:      pt_check_event(c, &ev);
 *   pt_check_finish(c);
 *   for (size_t i = 0; i < pt_check_nreports(c); i++)
 *     puts(pt_check_report(c, i)->text);
 *   pt_check_destroy(c);
 *
 * Memory is bounded by the open state -- per-location call stacks, pending
 * (unmatched) messages and the definitions -- never by the trace length.
 * Problems are counted exactly; the details of at most opts.max_reports of
 * them are kept (an optional callback sees every one as it is found).
 *
 * Sends are SEND and ISEND events, receives RECV and IRECV events.  The
 * sender and receiver of a message are COMM_WORLD ranks: an event's own
 * location is mapped to the rank of its location group (LOCATION.group ->
 * LOCATION_GROUP.rank) when every location group has a distinct rank, and
 * to the location id otherwise; peers are taken as they are.  Messages
 * whose peer is negative (unknown / any source) are not matched.
 */
#ifndef PARATRACE_ANALYSIS_H
#define PARATRACE_ANALYSIS_H

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, text, description) -- the one table of problem kinds. */
#define PT_CHECK_KINDS(X)                                                     \
  X(TIME_ORDER, "time_order", "timestamp earlier than the previous event")  \
  X(LEAVE_WITHOUT_ENTER, "leave_without_enter",                              \
    "leave with no region open")                                             \
  X(LEAVE_MISMATCH, "leave_mismatch",                                        \
    "leave of a region other than the innermost open one")                   \
  X(UNCLOSED_REGION, "unclosed_region", "region still open at the end")     \
  X(UNMATCHED_SEND, "unmatched_send", "send without a matching receive")    \
  X(UNMATCHED_RECV, "unmatched_recv", "receive without a matching send")    \
  X(RECV_BEFORE_SEND, "recv_before_send",                                    \
    "receive ended before its matching send began")                          \
  X(UNDEFINED_REGION, "undefined_region", "reference to an undefined region") \
  X(UNDEFINED_LOCATION, "undefined_location",                                \
    "event on an undefined location")

typedef enum pt_check_kind {
  PT_CHECK_INVALID = 0,
#define PT__CHECK_ENUM(NAME, text, desc) PT_CHECK_##NAME,
  PT_CHECK_KINDS(PT__CHECK_ENUM)
#undef PT__CHECK_ENUM
  PT_CHECK__COUNT
} pt_check_kind;

/* Name ("leave_mismatch") and one-line description of a problem kind;
 * static strings, NULL for an out-of-range kind.  Thread-safe. */
PT_API const char *pt_check_kind_name(uint32_t kind);
PT_API const char *pt_check_kind_description(uint32_t kind);

/* One problem found. */
typedef struct pt_check_problem {
  uint32_t kind;     /* pt_check_kind */
  uint32_t pad_;
  uint64_t location; /* location of the offending event */
  uint64_t time;     /* time of the offending event */
  uint64_t ref;      /* region (stack problems, UNDEFINED_REGION), the
                        undefined location, or PT_NONE */
  uint64_t time2;    /* the related earlier time: the previous event
                        (TIME_ORDER), the enter (UNCLOSED_REGION), the
                        send (RECV_BEFORE_SEND); else equal to time */
  uint64_t count;    /* UNDEFINED_*: events with that reference; else 1 */
  const char *text;  /* one human-readable line without newline, e.g.
                        "location 3, t=1200: leave of region 7 (bar) but
                        the innermost open region is 5 (foo)"; owned by
                        the checker */
} pt_check_problem;

typedef void (*pt_check_fn)(void *user, const pt_check_problem *p);

typedef struct pt_check_opts {
  size_t max_reports; /* details kept for pt_check_report; 0 = 100 */
  pt_check_fn on_problem; /* called for every problem as it is found (the
                             problem is borrowed for the call); NULL = none */
  void *user;
} pt_check_opts;

typedef struct pt_check pt_check;

/* Create a checker; opts may be NULL for defaults.  Returns PT_OK and *out,
 * or PT_ENOMEM.  Destroy with pt_check_destroy(). */
PT_API int pt_check_create(pt_check **out, const pt_check_opts *opts);

/* Feed one definition (regions, locations and location groups are used;
 * other kinds are ignored).  Definitions may come at any time; a
 * reference is reported as undefined only if it is still undefined at
 * pt_check_finish.  Strings are copied.  Returns PT_OK, PT_ENOMEM, or
 * PT_ESTATE after pt_check_finish. */
PT_API int pt_check_def(pt_check *c, const pt_def *def);

/* Feed one event.  Events must be in non-decreasing time per location for
 * a clean result (a violation is reported, not refused); different
 * locations may interleave in any way.  Returns PT_OK, PT_ENOMEM, or
 * PT_ESTATE after pt_check_finish.  Finding a problem is not an error. */
PT_API int pt_check_event(pt_check *c, const pt_event *ev);

/* End of the trace: report regions still open, messages still unmatched
 * and references still undefined.  Returns PT_OK if no problem was found
 * at all, PT_ECHECK if any was, PT_ENOMEM.  Call once. */
PT_API int pt_check_finish(pt_check *c);

/* Number of problems found so far (all of them), and of one kind. */
PT_API uint64_t pt_check_total(const pt_check *c);
PT_API uint64_t pt_check_count(const pt_check *c, uint32_t kind);

/* The kept problems, in the order found (at most max_reports).  Borrowed
 * until pt_check_destroy. */
PT_API size_t pt_check_nreports(const pt_check *c);
PT_API const pt_check_problem *pt_check_report(const pt_check *c, size_t i);

/* What the checker saw. */
typedef struct pt_check_stats {
  uint64_t events, locations, regions_defined, locations_defined;
  uint64_t messages_matched;   /* send/receive pairs */
  uint64_t max_depth;          /* deepest call stack on any location */
  uint64_t max_pending;        /* most unmatched messages at one time */
} pt_check_stats;
PT_API void pt_check_get_stats(const pt_check *c, pt_check_stats *st);

/* Free everything.  NULL is ok. */
PT_API void pt_check_destroy(pt_check *c);

#ifdef __cplusplus
}
#endif
#endif
