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

#include "format.h"

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
  uint64_t clock_tolerance; /* ticks: a receive that ends at most this long
                               before its send began (the ENTER of the
                               message-passing call the send event is in:
                               a region of role point2point/collective,
                               paradigm MPI/PICL or named MPI_*; else the
                               send event) is clock skew between
                               the ranks, counted in pt_check_stats, not a
                               RECV_BEFORE_SEND problem; 0 = strict */
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
  uint64_t skewed_messages;    /* receives ending before their send began
                                  by no more than clock_tolerance */
  uint64_t max_skew;           /* the largest such gap, ticks */
  uint64_t lossy_messages;     /* messages of locations whose ring buffer
                                  dropped events (BUFFER_OVERFLOW, ring
                                  policy) that could not be paired right:
                                  not counted as problems */
  uint64_t stopped_items;      /* regions left open on, and messages
                                  unmatched to or from, a location whose
                                  recording the stop policy ended
                                  (BUFFER_OVERFLOW): the trace ends there
                                  by design, not counted as problems */
  uint64_t unfinished_requests; /* non-blocking requests started (ISEND,
                                   IRECV_REQUEST) that no completion
                                   (ISEND_COMPLETE, IRECV,
                                   REQUEST_CANCELLED) ended by the end of
                                   the trace (left pending, or freed while
                                   active): not counted as problems;
                                   locations stopped by the stop policy
                                   left out */
  uint64_t unfinished_location, unfinished_time, unfinished_request;
                                /* the earliest of them (when any) */
  uint32_t unfinished_kind;     /* its event kind (ISEND, IRECV_REQUEST) */
  uint32_t pad_;
  uint64_t unfinished_untracked; /* requests started while 2^20 were open
                                    already: not tracked (memory bound),
                                    not in unfinished_requests */
} pt_check_stats;
PT_API void pt_check_get_stats(const pt_check *c, pt_check_stats *st);

/* Free everything.  NULL is ok. */
PT_API void pt_check_destroy(pt_check *c);

/* ====================================================================== */
/* Statistics                                                             */
/* ====================================================================== */
/*
 * pt_stats reads definitions and events (non-decreasing time per location)
 * and computes, for a time window W = [from, to):
 *
 *   - a flat profile per (location, region) and per region: visit count,
 *     inclusive and exclusive time; across locations min / mean / max of
 *     the per-location totals, the imbalance max/mean and the location of
 *     the max; per visit the mean and (full scans only) the min and max of
 *     the inclusive time;
 *   - an MPI view: time per MPI region (paradigm MPI or a name starting
 *     with "MPI_") and per (region, call site), message sizes per
 *     (region, call site) (count, total, min, max), application time and
 *     MPI time;
 *   - a message matrix (sender location, receiver location, optionally tag
 *     or communicator): count and bytes, late-sender and late-receiver time;
 *   - PICL-style relative statistics for one region R: count and time of
 *     every other region entered while R is open, count and bytes of every
 *     event kind that occurs while R is open;
 *   - I/O per (function, call site, file, mode): operations, bytes
 *     transferred (total, min, max), bytes asked for, time, operations
 *     that transferred less or never ended (pt_stats_io);
 *   - metrics (counters: METRIC definitions and events) per metric and per
 *     (metric, location): samples, min / mean / max, the increase of an
 *     accumulated counter; per (metric, region) the inclusive increase of
 *     an accumulated counter sampled at a visit's enter and leave
 *     (pt_stats_metric, pt_stats_metric_loc, pt_stats_metric_region).
 *
 * Definition of "inside the window" (every path -- full scan, summaries,
 * merge -- implements exactly this):
 *   - a visit of a region (enter at e, leave at l) contributes
 *     |[e, l) n W| to the inclusive time, and the part of that during
 *     which it is the innermost open region to the exclusive time; its
 *     count is 1 iff e is in W.  A region still open at the end of the
 *     trace is taken as left at `end` (opts.end, default the time of the
 *     last event seen on any location);
 *   - a point event (send, receive, collective end...) belongs to W iff
 *     its time is in W;
 *   - a matched message's late-sender / late-receiver time counts iff its
 *     receive is in W;
 *   - an I/O operation (an IO_BEGIN and the IO_END with the same handle
 *     and matching id on its location) belongs to W iff its IO_BEGIN is
 *     in W, with all of it: the bytes its IO_END says were transferred
 *     and its time from IO_BEGIN to IO_END, wherever the IO_END is;
 *   - a metric sample belongs to W iff its time is in W; a visit's metric
 *     delta (value at its leave - value at its enter) belongs to W iff its
 *     enter and its leave are in W.
 * Application time and MPI time (pt_stats_totals.app_def), as mpiP where
 * the trace allows it:
 *   - PT_STATS_APP_PROGRAM: the trace has a program region (the MPI
 *     recorder's region from the end of MPI_Init to the start of
 *     MPI_Finalize: the only region with role FUNCTION and paradigm USER,
 *     in a trace that defines MPI_Init or MPI_Init_thread).  A location
 *     with a visit of it or of MPI_Init / MPI_Init_thread / MPI_Finalize
 *     has application time = the program region's inclusive time;
 *   - PT_STATS_APP_INIT_FINALIZE: no program region, but locations with an
 *     MPI_Init / MPI_Init_thread visit: their application time is
 *     |[end of the first MPI_Init, start of the first MPI_Finalize (or the
 *     end of the trace)) n W|;
 *   - PT_STATS_APP_REGIONS: the time a location spends inside at least one
 *     region (the sum of its exclusive times).
 * In the first two cases the MPI time of such a location is the sum of the
 * inclusive times of MPI regions other than MPI_Init, MPI_Init_thread and
 * MPI_Finalize (mpiP's MPI time: calls between the end of MPI_Init and
 * the start of MPI_Finalize); other locations (threads without MPI_Init)
 * keep the region definition, and their MPI time is that of every MPI
 * region.
 *
 * Late sender: a blocking RECV whose enclosing region (the call) was
 * entered at r while the matching send's call was entered at s > r waited
 * s - r.  Late receiver: a blocking SEND entered at s whose receive's call
 * was entered at r > s is charged r - s (an upper bound: an eager send
 * does not wait).  Messages are matched by (sender rank, receiver rank,
 * communicator, tag) in FIFO order as in pt_check; peers < 0 and tags < 0
 * are not matched.  Sender and receiver are reported as location ids (a
 * peer rank is mapped to the first location of the process with that
 * rank, when the trace defines ranks).
 *
 * Memory: definitions, one row per (location, region), per (location,
 * peer), per matrix cell, per (MPI region, call site), per I/O row, per
 * (metric, location), per (metric, region) and per relative entry, plus the
 * open state (call stacks, unmatched messages, I/O operations in flight).  Never proportional to the number of events.
 *
 *   pt_stats *s;  pt_stats_opts o = {0};  o.relative_to = PT_NONE;
 *   pt_stats_create(&s, &o);
 *   ... pt_stats_def(s, &def) / pt_stats_event(s, &ev) ...
 *   pt_stats_finish(s);
 *   for (size_t i = 0; i < pt_stats_nregions(s); i++)
 *     print(pt_stats_region(s, i));
 *   pt_stats_destroy(s);
 */

/* What the message matrix is keyed by besides (sender, receiver). */
typedef enum pt_stats_by {
  PT_STATS_BY_PAIR = 0, PT_STATS_BY_TAG, PT_STATS_BY_COMM
} pt_stats_by;

typedef struct pt_stats_opts {
  uint64_t from, to;         /* window [from, to); to = 0: no end */
  const uint64_t *locations; /* only these locations; NULL = all (copied) */
  size_t nlocations;
  uint64_t relative_to;      /* region id for relative statistics, or
                                PT_NONE (NB: 0 is a valid region id) */
  uint32_t matrix_by;        /* pt_stats_by */
  uint64_t end;              /* end of the trace: open regions are left
                                here; 0 = the last event time seen.  Give
                                it when results of several objects are
                                merged or compared with summaries. */
  int part;                  /* this object's events are a part of the
                                trace's (some processes' streams) and
                                its results will be merged with the
                                others' (pt_stats_merge): a receive from
                                MPI_ANY_SOURCE without a status (peer
                                -1), and the messages of its receiver
                                and communicator after it, are matched
                                only in pt_stats_complete, when every
                                sender's messages are in.  1: the parts
                                together hold every location (the
                                collective wait states are kept: the
                                merges join the instances); 2: they hold
                                a selection of the trace's locations
                                (as with `locations` in one object: no
                                collective wait states) */
  uint64_t part_max_members; /* a part: the most members of collective
                                instances it did not see whole that it
                                holds for the merges (about 100 bytes
                                each; 0 = 2^21); past them it gives the
                                collective wait states up (its totals and
                                the merged ones lose PT_STATS_HAVE_WAITS)
                                so that its memory stays bounded */
  uint64_t part_max_deferred; /* a part: the most messages it defers for
                                pt_stats_complete (about 200 bytes each;
                                0 = 2^20); past them it stops deferring
                                and its results, and the merged ones, are
                                not one scan's: pt_stats_part_overflow
                                says so, and the caller scans the trace
                                in one object instead */
} pt_stats_opts;

/* Parts a stats object holds (pt_stats_totals.have).  A scan of events
 * has all of them; an object built from summaries (pt_stats_window) has
 * PT_STATS_HAVE_PROFILE, METRIC_REGIONS and, when its summaries allow,
 * VISITS, CALLSITES and LATE (pt_stats_window). */
enum {
  PT_STATS_HAVE_PROFILE = 1, /* counts, incl/excl totals, per location,
                                matrix count/bytes by pair, app/MPI time */
  PT_STATS_HAVE_DETAIL = 2,  /* call sites, message sizes, matrix by
                                tag or comm, relative statistics (a
                                scan of the events) */
  PT_STATS_HAVE_VISITS = 4,  /* per-visit min/max (visit_min, visit_max) */
  PT_STATS_HAVE_CALLSITES = 8, /* the call-site table (pt_stats_callsite) */
  PT_STATS_HAVE_LATE = 16, /* the matrix's late_sender, late_receiver and
                              matched (by pair) */
  PT_STATS_HAVE_METRIC_REGIONS = 32, /* the metric deltas per region
                                       (pt_stats_metric_region) */
  PT_STATS_HAVE_CALL_TIMES = 64, /* the call-site rows' per-call time
                                    extremes (call_min, call_max,
                                    call_max_location) */
  PT_STATS_HAVE_WAITS = 128 /* collective wait states (pt_stats_wait): a
                               full scan of every member's events */
};

typedef struct pt_stats pt_stats;

/* One region aggregated over the selected locations. */
typedef struct pt_stats_region_row {
  uint64_t region;
  const char *name;       /* borrowed until destroy; never NULL */
  int is_mpi;
  uint64_t count, incl, excl; /* totals (ticks) */
  uint64_t visit_min, visit_max; /* per-visit inclusive time; VISITS only,
                                    0 when count is 0 */
  /* Across the locations of pt_stats_nlocations that spent time in any
   * region (one without a visit of this region counts as 0; one with no
   * region at all, such as a metrics-only location, is left out): min /
   * max of the per-location inclusive and exclusive totals, and the
   * location of the max (lowest id on ties). */
  uint64_t incl_min, incl_max, incl_max_location;
  uint64_t excl_min, excl_max, excl_max_location;
  double incl_mean, excl_mean;
  double imbalance; /* incl_max / incl_mean; 0 when incl is 0 */
} pt_stats_region_row;

/* One (location, region). */
typedef struct pt_stats_region_loc_row {
  uint64_t location, region;
  uint64_t count, incl, excl;
  uint64_t visit_min, visit_max; /* VISITS only */
} pt_stats_region_loc_row;

/* One location. */
typedef struct pt_stats_location_row {
  uint64_t location;
  uint64_t app_time, mpi_time;     /* ticks */
  /* point-to-point, and one-sided operations at their origin (RMA_*
   * events: those that sent bytes, those that received bytes) */
  uint64_t sent, bytes_sent, received, bytes_received;
} pt_stats_location_row;

/* One (MPI region, call site), summed over the locations
 * (pt_stats_callsite: location = PT_NONE), or one (MPI region, call site,
 * location) (pt_stats_callsite_loc).  callsite = PT_NONE when unknown:
 * a CALLSITE id (the enter's attribute "callsite", or the first message's
 * ref), or, for a STRING attribute "callsite" (a site's text, as paratrace
 * writes it to OTF2), an id above 2^63 hashed from the text, whose name
 * (pt_stats_callsite_name) is the text.
 * Calls, time: visits of the region whose call site is known from an
 * event inside the visit (or PT_NONE); call_min / call_max: the shortest
 * and longest of those calls (a call's inclusive time, cut at the end of
 * the window, over the calls entered in it: as a region's visit_min /
 * visit_max; CALL_TIMES only, else 0) and call_max_location the location
 * of the longest (lowest id on ties; PT_NONE without CALL_TIMES); the mean
 * is time / calls.  Messages are what the function sent, as mpiP's
 * "Aggregate Sent Message Size": SEND/ISEND events and COLL_END events
 * (bytes: size, the sent part) inside it; bytes_min/max over those.
 * received / bytes_received: RECV/IRECV events inside it (size) and the
 * received part (size2) of collectives, counted apart.  One-sided
 * operations (RMA_* events) count as collectives do: size sent, size2
 * received. */
typedef struct pt_stats_callsite_row {
  uint64_t region, callsite;
  uint64_t location; /* PT_NONE in the rows summed over the locations */
  uint64_t calls, time;
  uint64_t call_min, call_max, call_max_location; /* CALL_TIMES only */
  uint64_t messages, bytes, bytes_min, bytes_max; /* sent */
  uint64_t received, bytes_received;
} pt_stats_callsite_row;

/* One matrix cell: key = tag or communicator (PT_STATS_BY_TAG/COMM) or 0. */
typedef struct pt_stats_message_row {
  uint64_t sender, receiver; /* location ids (see above) */
  int64_t key;
  uint64_t count, bytes;     /* sends in W; one-sided transfers in W (a
                                RMA_* event's bytes sent: origin ->
                                target, received: target -> origin) */
  uint64_t late_sender, late_receiver; /* ticks; LATE only */
  uint64_t matched;          /* messages whose late times were measured */
} pt_stats_message_row;

/* Relative statistics: inside the visits of opts.relative_to. */
typedef enum pt_stats_rel_what {
  PT_STATS_REL_REGION = 0, /* id = region: count = enters, time = incl */
  PT_STATS_REL_EVENT       /* id = pt_event_kind: count, bytes */
} pt_stats_rel_what;
typedef struct pt_stats_relative_row {
  uint32_t what; /* pt_stats_rel_what */
  uint32_t pad_;
  uint64_t id;
  uint64_t count, time, bytes;
} pt_stats_relative_row;

/* I/O operations begun in W, as defined above, of one (region, callsite,
 * file, mode): region = the innermost region open at the IO_BEGIN (the
 * MPI_File_* call; for a non-blocking operation the MPI_File_i* call that
 * began it, not the completing MPI_Wait), PT_NONE when none; callsite =
 * that MPI call's call site (as in pt_stats_callsite_row), PT_NONE when
 * unknown; file = the FILE of the handle's IO_HANDLE definition, PT_NONE
 * when the trace does not define it (DUMPI); mode = IO_BEGIN's pt_io_mode
 * (out-of-range values as PT_IO_OTHER).
 *   ops        operations; unfinished of them had no IO_END in the trace
 *              (never completed, cancelled, or the trace ends first: 0
 *              bytes, time up to the end of the trace);
 *   bytes      transferred (the IO_END's bytes); bytes_min / bytes_max
 *              over the completed operations (0 when none completed);
 *   requested  asked for (the IO_BEGIN's bytes);
 *   time       the sum of their durations, IO_BEGIN to IO_END (ticks);
 *   short_ops  completed operations that transferred fewer bytes than
 *              they asked for (end of file, a failed split collective).
 * An IO_END without a matching open IO_BEGIN is not counted; an IO_BEGIN
 * with the key of an open operation ends that one as unfinished. */
typedef struct pt_stats_io_row {
  uint64_t region, callsite, file;
  uint32_t mode; /* pt_io_mode */
  uint32_t pad_;
  uint64_t ops, bytes, bytes_min, bytes_max, requested, time;
  uint64_t short_ops, unfinished;
} pt_stats_io_row;

/* Collective wait states, as Scalasca names them: the time a member of a
 * blocking collective call spends waiting for the others.  The k-th
 * blocking collective (COLL_END inside an MPI region that is a blocking
 * collective: MPI_Allreduce, not MPI_Iallreduce) a process (any of its
 * locations) makes on a communicator is the k-th of every member of it
 * (members: the communicator's group, MPI_COMM_WORLD's: every rank), one
 * instance.  A member's call lasts from the enter of its MPI region to its
 * COLL_END.
 * Once every member's call of an instance has been seen:
 *   NXN (Allreduce, Allgather(v), Alltoall(v,w), Reduce_scatter(_block),
 *       Barrier): each member waits from its enter to the last member's;
 *   LATE_BCAST (Bcast, Scatter(v)): a member other than the root waits
 *       from its enter to the root's;
 *   EARLY_REDUCE (Reduce, Gather(v)): the root waits from its enter to the
 *       first other member's;
 * each wait at most the call's own duration.  Other collectives (scans,
 * neighbourhood ones) and non-blocking ones have no rows.  One row per
 * (region, location), for the calls whose COLL_END is in W:
 *   calls      the calls; time: their summed duration (ticks);
 *   wait       the summed waiting time; waited: the calls that waited;
 *   unmatched  calls whose instance never had all its members (a trace
 *              cut short, a communicator without members): counted in
 *              calls and time, no wait.
 * Only a full scan of every location's events gives them (flag
 * PT_STATS_HAVE_WAITS; not with a selection of locations, not from
 * summaries, not after pt_stats_merge, except of objects made with
 * pt_stats_opts.part: those keep the calls of the instances they did not
 * see whole, and the merges join them). */
typedef enum pt_wait_pattern {
  PT_WAIT_NXN = 1, PT_WAIT_LATE_BCAST = 2, PT_WAIT_EARLY_REDUCE = 3
} pt_wait_pattern;
typedef struct pt_stats_wait_row {
  uint64_t region, location;
  uint32_t pattern; /* pt_wait_pattern */
  uint32_t pad_;
  uint64_t calls, time, wait, waited, unmatched;
} pt_stats_wait_row;

/* Metrics, from METRIC definitions (name, unit, mode: pt_metric_mode) and
 * METRIC events (values of type INT, UINT or DOUBLE, taken as doubles;
 * NaN and infinite doubles are not counted;
 * others are not counted).  One row per metric (pt_stats_metric: location
 * = PT_NONE, over all selected locations) and per (metric, location)
 * (pt_stats_metric_loc), for the metrics with samples in W:
 *   samples     samples in W; locations: locations with any (1 in a
 *               location row);
 *   min, mean, max  of their values; min_location / max_location: where
 *               the min / max was sampled (lowest id on ties);
 *   first_time, last_time  the first and last sample time in W;
 *   increase    ACCUMULATED: the last value in W - the first, per
 *               location, summed over the locations; RELATIVE: the sum of
 *               the values; ABSOLUTE (a gauge): 0.
 * The rate of an accumulated counter is increase / (last_time -
 * first_time) in ticks (the caller knows the clock). */
typedef struct pt_stats_metric_row {
  uint64_t metric;
  uint64_t location;        /* PT_NONE in pt_stats_metric's rows */
  const char *name;         /* borrowed until destroy; never NULL */
  const char *unit;         /* borrowed until destroy; "" when none */
  uint32_t type;            /* pt_type of the definition */
  uint32_t mode;            /* pt_metric_mode */
  uint64_t samples, locations;
  double min, mean, max;
  uint64_t min_location, max_location;
  uint64_t first_time, last_time;
  double increase;
} pt_stats_metric_row;

/* Inclusive metric delta per region, for each ACCUMULATED metric sampled
 * on a location at the time of a visit's enter and at the time of its
 * leave (as Score-P writes its PAPI counters with every ENTER and LEAVE;
 * the sample may come before or after the event with the same time):
 * visits = such visits entered and left in W, delta = the sum of their (value at
 * leave - value at enter), per_visit_min / max over them.  Visits without
 * a sample at both ends (regions left at the end of the trace, metrics
 * sampled asynchronously) are not counted. */
typedef struct pt_stats_metric_region_row {
  uint64_t metric, region;
  uint64_t visits;
  double delta, per_visit_min, per_visit_max;
} pt_stats_metric_region_row;

/* How the application time was defined (see above). */
typedef enum pt_stats_app_def {
  PT_STATS_APP_REGIONS = 0,  /* time inside any region */
  PT_STATS_APP_PROGRAM,      /* the program region (MPI recorder) */
  PT_STATS_APP_INIT_FINALIZE /* end of MPI_Init .. start of MPI_Finalize */
} pt_stats_app_def;

typedef struct pt_stats_totals {
  uint32_t have;           /* PT_STATS_HAVE_* */
  uint32_t app_def;        /* pt_stats_app_def */
  uint64_t from, to;       /* the window (to = UINT64_MAX if none) */
  uint64_t end;            /* end used for open regions */
  uint64_t events;         /* events in W of the selected locations
                              (DETAIL only) */
  uint64_t app_time, mpi_time;
  uint64_t relative_count, relative_time; /* visits of R in W, their time */
  uint64_t app_region;     /* the program region (PT_STATS_APP_PROGRAM),
                              else PT_NONE */
} pt_stats_totals;

/* Create.  opts may be NULL (all locations, no window, no relative
 * region).  Returns PT_OK and *out, PT_ENOMEM, PT_EINVAL (from > to).
 * Destroy with pt_stats_destroy. */
PT_API int pt_stats_create(pt_stats **out, const pt_stats_opts *opts);

/* Feed a definition (regions, call sites, locations, location groups,
 * files, I/O handles and metrics are used).  Strings are copied.  Definitions of locations and ranks must come
 * before the first event.  Returns PT_OK, PT_ENOMEM, PT_ESTATE. */
PT_API int pt_stats_def(pt_stats *s, const pt_def *def);

/* Feed an event (non-decreasing time per location; different locations may
 * interleave).  Events of unselected locations only advance the end of the
 * trace.  A leave that does not match the innermost open region is
 * tolerated (the stack is unwound to the matching region or the leave is
 * ignored).  Returns PT_OK, PT_ENOMEM, PT_ESTATE after finish. */
PT_API int pt_stats_event(pt_stats *s, const pt_event *ev);

/* Feed a run of events of one location (pt_reader_next_run): the same
 * as pt_stats_event on each of its events, in order.  Returns as
 * pt_stats_event. */
PT_API int pt_stats_run(pt_stats *s, const pt_event_run *run);

/* End of input: regions still open are left at the end.  Unmatched
 * messages are kept (for pt_stats_merge).  Returns PT_OK or PT_ENOMEM. */
PT_API int pt_stats_finish(pt_stats *s);

/* Add the results of `src` (finished, built with the same window, end,
 * relative region and matrix key over a disjoint set of locations) into
 * `dst` (finished): the result equals one object fed all the events.
 * Unmatched messages of the two are matched against each other.  Returns
 * PT_OK, PT_ENOMEM, PT_EINVAL (different options), PT_ESTATE (unfinished).
 * `src` is not changed. */
PT_API int pt_stats_merge(pt_stats *dst, const pt_stats *src);

/* After the last pt_stats_merge of objects made with opts.part: match
 * the messages the parts deferred (in time order, as one object fed all
 * the events would).  Reading results does it too.  Returns PT_OK,
 * PT_ENOMEM, PT_ESTATE (unfinished). */
PT_API int pt_stats_complete(pt_stats *s);

/* Whether a part merged into s (or s itself) deferred more messages than
 * pt_stats_opts.part_max_deferred allows: then s's message matching is
 * not one scan's and the results must not be used (scan in one object).
 * 0 for objects not made with opts.part. */
PT_API int pt_stats_part_overflow(const pt_stats *s);

/* Whether the results so far depend on how the events of different
 * locations were interleaved when fed: a receive from MPI_ANY_SOURCE or
 * with MPI_ANY_TAG whose trace does not say the sender (peer or tag -1:
 * it takes the oldest send waiting), or messages of a process with
 * several locations (they share its channels).  Fed in global time order
 * (or as pt_reader_next_run hands them out) the results are right; a
 * consumer that feeds runs of one location (pt_source_opts.runs) must
 * then feed the trace again in time order. */
PT_API int pt_stats_order_dependent(const pt_stats *s);

/* Serialize a finished object into one buffer (for a reduction over MPI:
 * each rank serializes, the root deserializes and merges).  The format is
 * private to this library (magic "PTST", version 9; pt_stats_deserialize
 * also reads version 8, and version 7, whose call-site rows are summed
 * over the locations and have no per-call time extremes).  Returns
 * PT_OK with *buf / *len (free with pt_stats_buffer_free), PT_ESTATE
 * (unfinished), PT_ENOMEM. */
PT_API int pt_stats_serialize(const pt_stats *s, void **buf, size_t *len);
PT_API void pt_stats_buffer_free(void *buf);

/* Rebuild a finished object from pt_stats_serialize's buffer (untrusted:
 * every count is checked).  Returns PT_OK and *out (destroy with
 * pt_stats_destroy), PT_EFORMAT (not such a buffer), PT_EVERSION,
 * PT_ECORRUPT, PT_ENOMEM. */
PT_API int pt_stats_deserialize(pt_stats **out, const void *buf, size_t len);

/* Results of a finished object.  Rows are borrowed until the next
 * pt_stats_merge or pt_stats_destroy; the index must be < the count.
 * Order: regions by inclusive time descending then id; region_locs,
 * locations, callsites, messages, I/O rows (region, callsite, file, mode),
 * metrics (metric), metric_locs (metric, location) by their ids ascending;
 * metric_regions by metric, then delta descending, then region; relative: regions by time descending, then
 * name, then id, followed by event kinds by name. */
PT_API void pt_stats_get_totals(const pt_stats *s, pt_stats_totals *t);
PT_API size_t pt_stats_nregions(const pt_stats *s);
PT_API const pt_stats_region_row *pt_stats_region(const pt_stats *s, size_t i);
PT_API size_t pt_stats_nregion_locs(const pt_stats *s);
PT_API const pt_stats_region_loc_row *pt_stats_region_loc(const pt_stats *s,
                                                      size_t i);
PT_API size_t pt_stats_nlocations(const pt_stats *s);
PT_API const pt_stats_location_row *pt_stats_location(const pt_stats *s,
                                                  size_t i);
PT_API size_t pt_stats_ncallsites(const pt_stats *s);
PT_API const pt_stats_callsite_row *pt_stats_callsite(const pt_stats *s,
                                                  size_t i);
/* The call-site rows per location (mpiP's per-rank "Callsite Time" and
 * "Callsite Message Sent" statistics), by (region, call site, location);
 * summed over the locations they give pt_stats_callsite's rows.  None in
 * an object deserialized from a buffer of an earlier version. */
PT_API size_t pt_stats_ncallsite_locs(const pt_stats *s);
PT_API const pt_stats_callsite_row *pt_stats_callsite_loc(const pt_stats *s,
                                                          size_t i);
PT_API size_t pt_stats_nmessages(const pt_stats *s);
PT_API const pt_stats_message_row *pt_stats_message(const pt_stats *s,
                                                size_t i);
PT_API size_t pt_stats_nrelative(const pt_stats *s);
PT_API const pt_stats_relative_row *pt_stats_relative(const pt_stats *s,
                                                  size_t i);
PT_API size_t pt_stats_nio(const pt_stats *s);
PT_API const pt_stats_io_row *pt_stats_io(const pt_stats *s, size_t i);
/* The order of the I/O rows (region, call site, file, mode), as a qsort
 * comparator of two pt_stats_io_row: < 0, 0, > 0. */
PT_API int pt_stats_io_cmp(const void *a, const void *b);
/* Collective wait-state rows, by (region, location); valid while s is
 * (owned by s).  None without PT_STATS_HAVE_WAITS. */
PT_API size_t pt_stats_nwaits(const pt_stats *s);
PT_API const pt_stats_wait_row *pt_stats_wait(const pt_stats *s, size_t i);
/* "wait at NxN", "late broadcast", "early reduce" ("" otherwise). */
PT_API const char *pt_wait_pattern_name(uint32_t pattern);
PT_API size_t pt_stats_nmetrics(const pt_stats *s);
PT_API const pt_stats_metric_row *pt_stats_metric(const pt_stats *s, size_t i);
PT_API size_t pt_stats_nmetric_locs(const pt_stats *s);
PT_API const pt_stats_metric_row *pt_stats_metric_loc(const pt_stats *s,
                                                      size_t i);
PT_API size_t pt_stats_nmetric_regions(const pt_stats *s);
PT_API const pt_stats_metric_region_row *pt_stats_metric_region(
    const pt_stats *s, size_t i);
/* Name of a region / call site ("file:line" or its name) or NULL;
 * borrowed until destroy. */
PT_API const char *pt_stats_region_name(const pt_stats *s, uint64_t region);
PT_API const char *pt_stats_callsite_name(const pt_stats *s,
                                          uint64_t callsite);
/* Name of a file (its FILE definition's) or NULL; borrowed until destroy. */
PT_API const char *pt_stats_file_name(const pt_stats *s, uint64_t file);
/* Call sites recorded as "module+0xoffset" (the MPI recorder's) are named
 * "function file:line" where the module has debug information (runs
 * binutils' addr2line once per module), else "module+0xoffset" with the
 * module's base name.  Names returned before are invalidated. */
PT_API void pt_stats_resolve_callsites(pt_stats *s);

/* Free.  NULL is ok. */
PT_API void pt_stats_destroy(pt_stats *s);

/* ---- summaries, snapshots, windows from a native archive -------------- */

/* Write cumulative summaries (what & 1) and/or snapshots (what & 2) into
 * the PTF archive at `path` at times start + k*every (k >= 1, < the end of
 * the trace), for every location, replacing the stream's old summary /
 * snapshot files; events are not touched.
 *
 * Summaries at time t (not including events at t) hold, per location:
 *   PT_SUM_REGION ref = region: count = enters before t, incl_time and
 *     excl_time = the statistics of [0, t) defined above (open visits
 *     count up to t);
 *   PT_SUM_REGION ref = PT_NONE (a marker, always present): count = depth
 *     of the call stack at t, incl_time = excl_time = application time;
 *   PT_SUM_MESSAGES ref = peer (2^64-2 for peers < 0): count = sends to
 *     the peer, excl_time = receives from the peer (the OTF bridge's
 *     convention), bytes_sent, bytes_recv;
 *   PT_SUM_VISITS (a marker with ref = PT_NONE, always present, and one
 *     per region with visits entered and left since the previous summary
 *     time) and PT_SUM_SPAN (each visit that crossed a summary time and
 *     ended before t, once): the per-visit extremes of any window are
 *     computed from these (model.h);
 *   PT_SUM_CALLSITE and PT_SUM_CALLSITE_MSGS per MPI function and call
 *     site, PT_SUM_CALL_OPEN per open MPI call: the call-site table
 *     (model.h); PT_SUM_CALL_VISITS per MPI function and call site with
 *     calls entered and left since the previous summary time, and the
 *     call site on an MPI call's PT_SUM_SPAN: its per-call extremes;
 *   PT_SUM_LATE per sending location, PT_SUM_PENDING (a marker and the
 *     unmatched sends) and PT_SUM_POSTED (open receive requests): late
 *     sender/receiver; PT_SUM_APP_SPAN once at the last summary time: the
 *     application time under MPI_Init..MPI_Finalize (model.h).
 * Snapshots at t hold, per location, the open regions (ENTER events with
 * their original times, outermost first), the unmatched sends (SEND /
 * ISEND events as recorded) and the open requests (ISEND not completed,
 * IRECV_REQUEST not completed), each once.  Attributes are not kept,
 * except the call site (attribute "callsite") of an open MPI call.
 * Returns PT_OK, PT_EINVAL (every = 0), or the reader / aux error with the
 * detail in err. */
enum { PT_STATS_SUMMARIES = 1, PT_STATS_SNAPSHOTS = 2 };
PT_API int pt_archive_summarize(const char *path, uint64_t every,
                                unsigned what, pt_error *err);

/* Statistics of opts->from..to on the PTF archive at `path` from its
 * summaries: for each window edge t the latest summary time s <= t at
 * which every selected location has a marker summary and, when its stack
 * is not empty, a snapshot with exactly that many open regions is used
 * (else the trace start), and only the events in [s, t) are read.  The
 * result has PT_STATS_HAVE_PROFILE, PT_STATS_HAVE_VISITS when the
 * summaries have visit records (PT_SUM_VISITS markers; then the events
 * from `from` to the first summary time after it are read too) and
 * PT_STATS_HAVE_CALLSITES when they have call-site records (marker count
 * 1), PT_STATS_HAVE_CALL_TIMES when they also have the per-call records
 * (PT_SUM_VISITS marker bytes_recv 1), PT_STATS_HAVE_LATE when they have late records, no receive
 * waited for its send (PT_SUM_PENDING marker count 0) at the two summary
 * times used nor at the first summary time at or after each edge, and the
 * selection does not split a process, and
 * equals a full scan's parts of those kinds exactly.  The summaries hold
 * no I/O counters: when the trace defines files, I/O handles or file-I/O
 * regions (role FILE_IO, paradigm MPI_IO or POSIX_IO), or the scans near
 * the edges meet an IO_BEGIN, the I/O rows come from the events from the
 * state at the summary time before `from` to `to`, and on until every
 * operation begun in the window has ended (equal to a full scan's);
 * otherwise there are none.  Likewise the metrics: when the trace defines
 * metrics, the METRIC events of [from, to) are read (a reader of that
 * kind only) and, for the deltas per region, its ENTER and LEAVE events,
 * unless the scans near the edges met samples of accumulated metrics but
 * none at the time of an enter or leave of their location (counters
 * sampled on their own, which give no deltas).  *events_read (may be NULL) gets the number of events
 * read.  Returns PT_OK, PT_ENOTFOUND (no usable summaries: the caller
 * falls back to a full scan), reader errors.  opts->end = 0 means the
 * last event time of the selected streams. */
PT_API int pt_stats_window(pt_stats **out, const char *path,
                           const pt_stats_opts *opts, uint64_t *events_read,
                           pt_error *err);

/* ---- slices ------------------------------------------------------------- */

typedef struct pt_slice_report {
  uint64_t start;          /* time reading started: a snapshot time or the
                              trace's first event */
  int used_snapshot;       /* 1 if started at a snapshot */
  int pad_;
  uint64_t events_read;    /* events read (before and inside the window) */
  uint64_t events_written; /* events copied from the window */
  uint64_t enters, leaves; /* synthetic ENTERs at `from`, LEAVEs at the end */
  uint64_t sends, recvs;   /* synthetic SENDs at `from`, RECVs at the end */
  uint64_t end;            /* time of the synthetic LEAVEs / RECVs */
  uint64_t colls_dropped;  /* COLL_ENDs of the window left out: their
                              collective instance had a member end it
                              before `from` */
  uint64_t colls_added;    /* COLL_ENDs read after `to`, added at the end:
                              their instance had a member end it inside */
} pt_slice_report;

/* Write the events of [from, to) of the trace at `in` (any readable
 * format) to `out` (format from sopts or the extension) as a valid trace:
 *
 *   - reading starts at the latest snapshot time <= from of a native
 *     archive (its open regions, unmatched sends and open requests are the
 *     state there), else at the trace's start;
 *   - at `from`, every region open on a location is re-entered (an ENTER
 *     at time `from`, outermost first), every send not yet received is
 *     re-sent (its original SEND / ISEND at time `from`: a message sent
 *     before the window and received inside keeps both ends) and every
 *     open receive request is re-posted (IRECV_REQUEST at `from`);
 *   - events with from <= time < to are copied as they are, except the
 *     COLL_END of a blocking collective call whose instance a member had
 *     ended before `from` (a member still in the call at `from`, or one
 *     that entered it later): the call stays, as a region visit without
 *     its collective, so every later instance on the communicator has
 *     all its members' calls in the slice (report->colls_dropped);
 *   - at the end (`to` if the trace goes on, else its last event), a send
 *     of the slice still unmatched gets a RECV on the receiver's location
 *     (when the receiver is known), a blocking collective call still
 *     open whose instance a member ended inside gets its COLL_END (read
 *     on after `to`, moved to the end; report->colls_added), and every
 *     region still open is left, innermost first.
 * Hence regions balance and sends match; `paratrace check` passes on a
 * slice of a consistent trace.  A receive inside the window whose send
 * comes later in time than the receive cannot be repaired and is kept as
 * is.  Definitions are copied whole; attributes of re-created events are
 * not.  Returns PT_OK, PT_EINVAL (from >= to), or the source / sink error
 * with the detail in err.  report may be NULL. */
PT_API int pt_slice(const char *in, const char *out, uint64_t from,
                    uint64_t to, const pt_sink_opts *sopts,
                    pt_slice_report *report, pt_error *err);

#ifdef __cplusplus
}
#endif
#endif
