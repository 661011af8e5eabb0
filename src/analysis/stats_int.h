/* Internals of the statistics engine shared by stats.c (the engine) and
 * stats_window.c (summaries, snapshots, window statistics from summaries).
 * Not public API. */
#ifndef PT_ANALYSIS_STATS_INT_H
#define PT_ANALYSIS_STATS_INT_H

#include "analysis/oheap.h"
#include "paratrace/analysis.h"

/* A table of fixed-size records keyed by four u64 (the first member of
 * every record).  Records live in one array in insertion order; deleting
 * moves the last record into the hole.  Pointers to records are valid
 * until the next insertion or deletion. */
typedef struct pt__ktab {
  uint32_t *slot; /* cap entries: record index + 1, 0 = empty */
  size_t cap;     /* 0 or a power of two */
  char *rec;
  size_t n, rcap, rsize;
} pt__ktab;

void pt__kt_init(pt__ktab *t, size_t rsize);
void pt__kt_free(pt__ktab *t);
void *pt__kt_find(const pt__ktab *t, const uint64_t k[4]);
/* Find or insert (zeroed, key set); NULL = out of memory. */
void *pt__kt_get(pt__ktab *t, const uint64_t k[4]);
void pt__kt_del(pt__ktab *t, const uint64_t k[4]);
static inline void *pt__kt_at(const pt__ktab *t, size_t i) {
  return t->rec + i * t->rsize;
}

#define PT__K(a, b, c, d) ((const uint64_t[4]){(a), (b), (c), (d)})

/* Fold [lo, hi] into the extremes *mn / *mx (unset when !set). */
static inline void pt__fold_ext(uint64_t *mn, uint64_t *mx, int set,
                                uint64_t lo, uint64_t hi) {
  if (!set || lo < *mn) *mn = lo;
  if (!set || hi > *mx) *mx = hi;
}

/* Names by id (call sites, files): records of a pt__ktab. */
typedef struct pt__name {
  uint64_t k[4];
  char *name;
} pt__name;
/* Set the name of `id` (a copy; NULL: none kept).  PT_OK or PT_ENOMEM. */
int pt__names_put(pt__ktab *t, uint64_t id, const char *name);
/* The name of `id` or NULL. */
const char *pt__names_get(const pt__ktab *t, uint64_t id);
/* Add the names of src that dst lacks. */
int pt__names_merge(pt__ktab *dst, const pt__ktab *src);
/* Free the names and the table. */
void pt__names_free(pt__ktab *t);

/* (location, region) */
typedef struct pt__rl {
  uint64_t k[4];
  uint64_t count, incl, excl, vmin, vmax; /* vmin, vmax: when vset */
  uint8_t vset;          /* a visit counted for the extremes */
  uint8_t known, is_mpi; /* is_mpi of the region, cached when known */
  uint8_t special;       /* PT__INIT / PT__FINALIZE, cached when known */
} pt__rl;

/* MPI_Init / MPI_Init_thread and MPI_Finalize regions (by name): the
 * bounds of mpiP's application time. */
enum { PT__PLAIN = 0, PT__INIT = 1, PT__FINALIZE = 2 };

/* (location, peer as recorded, 0) point-to-point totals; (location,
 * target as recorded, 1) one-sided ones at their origin: sent = operations
 * that sent bytes to the target, recv = that received bytes from it */
typedef struct pt__pm {
  uint64_t k[4];
  uint64_t sent, bsent, recv, brecv;
} pt__pm;

typedef struct pt__frame {
  uint64_t region, enter, child, callsite;
  uint32_t row; /* index of the (location, region) row; rows are never
                   deleted, so indices are stable */
  uint8_t in_rel, is_mpi;
  uint8_t from_state; /* pushed from a summary time's state (pt__stats_push) */
  uint32_t spend; /* the queued pend of the blocking send made in this call
                     (UINT32_MAX: none): its leave bounds the late receiver */
} pt__frame;

#define PT__ROWCACHE 32
#define PT__MSGCACHE 8
typedef struct pt__loc {
  uint64_t k[4];
  pt__frame *st;
  size_t depth, cap;
  uint64_t rel_depth;
  /* direct-mapped cache region -> row of this location (region + 1; 0 =
   * empty): saves a hash lookup per enter */
  uint64_t rc_region[PT__ROWCACHE];
  uint32_t rc_row[PT__ROWCACHE];
  /* the location's rank (valid when has_rank), and a direct-mapped cache
   * peer -> (peer's location, row of the (location, peer) message
   * counters), peer + 1 (0 = empty): saves hash lookups per message */
  uint64_t rank, proc_loc; /* proc_loc: the first location of the rank */
  int has_rank;
  uint64_t mc_peer[PT__MSGCACHE], mc_ploc[PT__MSGCACHE];
  uint32_t mc_pm[PT__MSGCACHE];
  /* direct-mapped cache (MPI region + 1, call site) -> row of the call-site
   * table (region 0 = empty) */
  uint64_t cc_reg[PT__MSGCACHE], cc_site[PT__MSGCACHE];
  uint32_t cc_row[PT__MSGCACHE];
  /* end of the location's first MPI_Init visit and start of its first
   * MPI_Finalize (times as recorded) */
  uint64_t init_end, fin_start;
  uint8_t has_init, has_fin;
  /* Late-receiver times counted before a blocking MPI send call was left
   * (matched with the receive's enter as its bound), innermost last: at
   * the leave of frame `depth` the bound becomes the earlier of that
   * leave and the receive's enter, as a time-ordered scan has it, so that
   * runs of one location at a time give the same times. */
  struct pt__lrfix *fix;
  size_t nfix, capfix;
} pt__loc;

typedef struct pt__lrfix {
  uint64_t mx[4]; /* the matrix row's key */
  uint64_t lt[4]; /* the pt__late row's key (track_late), else unused */
  uint64_t renter, senter; /* the receive's enter, the send's */
  uint32_t depth;          /* the send's frame */
  uint8_t has_lt;
} pt__lrfix;

/* Call-site row: key (region, callsite, location + 1); location + 1 = 0
 * only in an object deserialized from a version-7 buffer (rows summed over
 * the locations). */
typedef struct pt__cs {
  uint64_t k[4];
  uint64_t calls, time, msgs, bytes; /* msgs, bytes: sent */
  uint64_t rmsgs, rbytes;            /* received */
  uint64_t bmin, bmax, nb;           /* extremes of nb sent sizes */
  uint64_t ibmin, ibmax, inb;        /* summarizing: those of the interval */
  /* per-call time extremes (tset: a call counted for them, as a region
   * row's vmin / vmax); summarizing: those of the calls entered and left
   * in the current interval (itn of them) */
  uint64_t tmin, tmax, itmin, itmax, itn;
  uint8_t tset;
} pt__cs;

/* An I/O operation begun in the window and not yet ended: key
 * (location, handle, matching id); what its row is keyed by, the bytes
 * it asked for and its start. */
typedef struct pt__ioop {
  uint64_t k[4];
  uint64_t region, callsite, file, mode, requested, begin;
} pt__ioop;

/* I/O row: key (region, call site, file, pt_io_mode); bmin / bmax over
 * the completed operations (ops - unfinished). */
typedef struct pt__io {
  uint64_t k[4];
  uint64_t ops, bytes, bmin, bmax, requested, time, shorts, unfinished;
} pt__io;

/* METRIC definition. */
typedef struct pt__met {
  uint64_t k[4];
  char *name, *unit; /* never NULL */
  uint32_t type, mode;
} pt__met;

/* (metric, location): the samples in the window (n, extremes, sum, the
 * first and last with their times). */
typedef struct pt__mv {
  uint64_t k[4];
  uint64_t n, t_first, t_last;
  double min, max, sum, first, last;
} pt__mv;

/* (metric, region): inclusive deltas of the visits entered in the window
 * (dmin, dmax: when visits). */
typedef struct pt__mr {
  uint64_t k[4];
  uint64_t visits;
  double delta, dmin, dmax;
} pt__mr;

/* Per location, when the trace defines an accumulated metric: its open
 * visits (own stack, fed by ENTER / LEAVE) with the value of each
 * accumulated metric sampled here at their enter (NaN: none yet), and the
 * visits left at pl_t still waiting for a sample at pl_t. */
typedef struct pt__mframe {
  uint64_t region, enter;
  uint8_t in_w;
} pt__mframe;
typedef struct pt__mloc {
  uint64_t k[4];
  size_t nslot;       /* accumulated metrics sampled here */
  uint64_t *slot_met; /* their ids */
  double *slot_cur;   /* their last values ... */
  uint64_t *slot_t;   /* ... and times */
  pt__mframe *fr;     /* open visits */
  double *fv;         /* depth x nslot enter values */
  size_t depth, cap;
  pt__mframe *pl;     /* left at pl_t, waiting */
  double *plv;        /* npl x nslot enter values (NaN: none / done) */
  size_t npl, plcap;
  uint64_t pl_t;
  uint64_t ev_t;      /* time of the last ENTER / LEAVE + 1 (0: none) */
} pt__mloc;

/* An event kept for snapshots (pending sends and requests): slots only. */
typedef struct pt__evcopy {
  uint64_t time, ref, comm, size, request;
  int64_t peer, tag;
  uint32_t kind;
} pt__evcopy;

/* Open request (location, request). */
typedef struct pt__req {
  uint64_t k[4];
  pt__evcopy ev;
  uint64_t post; /* enter of the call that created it (MPI_Irecv, ...) */
} pt__req;

/* enter: when the call that posted it was entered (a blocking call, or
 * the MPI_Irecv of a completed receive request); wait: when the receiver
 * started waiting for it (the blocking receive, or the call completing
 * the request: MPI_Wait...), 0 for sends. */
typedef struct pt__pend {
  uint64_t loc, enter, wait;
  uint64_t src; /* the location of the event (loc: its process's) */
  pt__evcopy ev;
  uint8_t blocking, in_w, used;
  uint8_t waits; /* a queued receive counted in rq_wait */
  uint8_t left;  /* a blocking send whose call was left at `leave` */
  uint64_t leave;
  uint32_t next;
  uint32_t qpos; /* summarizing: its position in its channel's queue */
  /* its message event's place in the order the engine was fed them (the
   * serial of its entry in the heaps of send channels) */
  uint64_t ord;
} pt__pend;

/* (receiving location, sending location): matched messages received in
 * the window and their late-sender / late-receiver time, kept when
 * track_late (summaries and windows made of them). */
typedef struct pt__late {
  uint64_t k[4];
  uint64_t matched, ls, lr;
} pt__late;

/* A message channel: FIFO of unmatched sends (recvs = 0) or receives. */
typedef struct pt__chan {
  uint64_t k[4]; /* sender rank, receiver rank, comm, tag */
  uint32_t head, tail;
  int recvs, live;
  /* a send channel of tag >= 0: its heaps' records in sendtags and
   * sendsrcs (index + 1; 0: not looked up yet; records of those tables
   * are never deleted while the channel lives) */
  uint32_t hx[3];
} pt__chan;

/* A part (pt_stats_opts.part): the first receive from MPI_ANY_SOURCE
 * without a status of a (receiver rank, communicator), key (receiver,
 * comm, 0, 0): its time, location and ord.  The messages of that group
 * from there on (in the order time, location, ord) are deferred to
 * pt_stats_complete, when every sender's are in. */
typedef struct pt__defer {
  uint64_t k[4];
  uint64_t time, src, ord;
} pt__defer;
/* A deferred message: its channel's key, side and pend (s->pends). */
typedef struct pt__dmsg {
  uint64_t k[4];
  uint32_t pi;
  uint8_t recv;
} pt__dmsg;

/* Summarizing: the extremes of the visits entered and left in the current
 * interval, per (location, region). */
typedef struct pt__iv {
  uint64_t k[4];
  uint64_t count, vmin, vmax;
} pt__iv;
/* Summarizing: a visit that crossed a summary time (an MPI call: with
 * its call site, is_mpi set). */
typedef struct pt__span {
  uint64_t loc, region, enter, leave, callsite;
  int is_mpi;
} pt__span;

/* Collective wait states (stats_coll.c): its definitions, open
 * instances and rows. */
typedef struct pt__coll pt__coll;

/* The engine's state (struct pt_stats). */
struct pt_stats {
  pt_stats_opts opts;
  uint64_t *sel; /* sorted copy of opts.locations */
  uint64_t lo, hi; /* window, hi = to or UINT64_MAX */
  /* visits entered in [mm_lo, hi) count for the per-visit extremes, with
   * their time from the enter (not clipped at lo); mm_lo = lo except for
   * a window computed from summaries */
  uint64_t mm_lo;
  /* summarizing (pt__stats_track_visits): intervals start at iv_start */
  int track_iv;
  uint64_t iv_start;
  pt__ktab iv;
  pt__span *spans;
  size_t nspans, spans_cap;
  /* late sender / receiver per pair of locations (pt__late rows in lt);
   * rq_wait: receives of the window still waiting for a send that a
   * selected location may make (ranks with a selected location in
   * selranks, built on first use) */
  int track_late, selranks_built;
  pt__ktab lt, selranks;
  uint64_t rq_wait;
  uint64_t last_time, end_eff;
  int finished, frozen, aggregated, any_event;
  uint32_t have;
  uint64_t events, rel_count, rel_time;
  uint32_t app_def;    /* pt_stats_app_def, set by aggregation */
  uint64_t app_region; /* the program region or PT_NONE, likewise */

  /* definitions */
  pt__ktab regions;   /* id -> name, is_mpi */
  pt__ktab callsites; /* id -> name */
  uint64_t cs_attr;   /* id + 1 of the attribute "callsite" (MPI calls), or 0 */
  uint32_t cs_attr_type; /* its pt_type */
  uint64_t cs_str_attr; /* id + 1 of a STRING attribute "callsite" (the
                           site's text, as written to OTF2), or 0 */
  pt__ktab files;     /* id -> name (pt__name) */
  pt__ktab handles;   /* I/O handle id -> its file */
  int io_defs;        /* files, I/O handles or file-I/O regions defined */
  int io_otf;         /* OTF 1 file operations (stats_io.c): paired by
                         matching id, file and operation from the end */
  uint64_t io_otf_op, io_otf_dur; /* id + 1 of "otf:fileop" / "otf:duration" */
  uint64_t io_seen;   /* IO_BEGIN events of selected locations, any time */
  int io_threads;     /* an operation begun on a process's second thread */
  pt__ktab mets;      /* metric id -> pt__met */
  int met_acc;        /* an accumulated metric is defined */
  pt__ktab locdefs;   /* id -> group */
  pt__ktab groups;    /* id -> rank */
  pt__ktab loc2rank, rank2loc;
  int use_ranks;
  uint32_t *loc_direct; /* location id < nloc_direct -> index + 1 */
  size_t nloc_direct;

  /* results */
  pt__ktab locs; /* per location state (the set L) */
  pt__ktab rl, pm, mx, cs, rel, io;
  pt__ktab mv, mr, mloc; /* metrics (stats_metric.c); mloc: open state */
  size_t mloc_last;      /* index of the mloc record found last */
  /* accumulated samples seen, and those with the time of an ENTER or
   * LEAVE of their location (a window from summaries reads the enters
   * and leaves of the window unless the edges show only the others) */
  uint64_t met_async, met_sync;
  /* open state */
  pt__ktab chans, reqs, ioop;
  /* heaps (oheap.h) of the channels holding sends of tags >= 0:
   * per (receiver, communicator, sender) (stats.c, any_tag_send); per
   * (receiver, communicator) and per (receiver, communicator, tag)
   * (any_source_send) */
  pt__ktab sendtags, sendsrcs;
  /* which are kept (bit 0 the pairs', 1 the receivers', 2 the
   * receivers' per tag): each from the first receive that needs it on */
  unsigned idx;
  /* receives from MPI_ANY_SOURCE without a status (peer -1) queued */
  uint64_t nwild_src;
  uint64_t nord; /* message events fed (pt__pend.ord) */
  /* a part (opts.part, until pt_stats_complete): pt__defer rows, and the
   * messages deferred (in the order fed) */
  int part;
  int part_overflow; /* deferred more than opts.part_max_deferred */
  int order_dep;     /* pt_stats_order_dependent */
  pt__ktab defers;
  pt__dmsg *dmsgs;
  size_t ndmsgs, dmsgs_cap;
  pt__pend *pends;
  size_t npends, pends_cap;
  uint32_t pend_free;

  /* aggregated output */
  pt_stats_region_row *out_regions;
  size_t nout_regions;
  pt_stats_region_loc_row *out_rl;
  size_t nout_rl;
  pt_stats_location_row *out_locs;
  size_t nout_locs;
  pt_stats_callsite_row *out_cs, *out_csl; /* csl: per location */
  size_t nout_cs, nout_csl;
  pt_stats_message_row *out_mx;
  size_t nout_mx;
  pt_stats_relative_row *out_rel;
  size_t nout_rel;
  pt_stats_io_row *out_io;
  size_t nout_io;
  pt_stats_metric_row *out_met, *out_mloc;
  size_t nout_met, nout_mloc;
  pt_stats_metric_region_row *out_mreg;
  size_t nout_mreg;
  /* collective wait states (stats_coll.c; NULL: not computed) */
  pt__coll *coll;
  pt_stats_wait_row *out_wait;
  size_t nout_wait;
};

/* Mark the definitions complete (location -> rank maps). */
int pt__stats_freeze(pt_stats *s);
/* Location state of `loc` (created); NULL = out of memory. */
pt__loc *pt__stats_loc(pt_stats *s, uint64_t loc);
/* Push an open region with its original enter time without counting it
 * (state from a snapshot). */
int pt__stats_push(pt_stats *s, uint64_t loc, uint64_t region,
                   uint64_t enter, uint64_t callsite);
/* State from summaries (PT_SUM_CALL_OPEN): the call site of the open MPI
 * call at `depth` (0 = outermost) of loc, if that frame is that region
 * entered at `enter`.  Returns 1 when set. */
int pt__stats_set_callsite(pt_stats *s, uint64_t loc, uint64_t depth,
                           uint64_t region, uint64_t enter, uint64_t callsite);
/* The call site an ENTER event names (attribute "callsite" with a defined
 * call site) or PT_NONE. */
uint64_t pt__stats_enter_callsite(const pt_stats *s, const pt_event *ev);
/* Cumulative statistics of location `loc` over [lo, t) with open regions
 * counted up to t, without changing the state: calls fn for each region
 * row (ref = region) and returns the stack depth via *depth. */
typedef int (*pt__rl_fn)(void *user, uint64_t region, uint64_t count,
                         uint64_t incl, uint64_t excl);
int pt__stats_partial(pt_stats *s, uint64_t loc, uint64_t t, pt__rl_fn fn,
                      void *user, uint64_t *depth);
/* Summarizing: keep the visits' extremes per interval (pt__iv rows in
 * s->iv, crossing visits in s->spans) from now on. */
void pt__stats_track_visits(pt_stats *s);
/* Summarizing: a new interval starts at t (iv rows and spans cleared). */
void pt__stats_new_interval(pt_stats *s, uint64_t t);
/* Fold a visit duration into the extremes of row (loc, region). */
int pt__stats_visit_extreme(pt_stats *s, uint64_t loc, uint64_t region,
                            uint64_t vmin, uint64_t vmax);
/* PT_SUM_MESSAGES ref for the messages to / from a peer < 0 (PT_NONE
 * there means all peers, the OTF bridge's convention). */
#define PT_SUM_PEER_UNKNOWN (UINT64_MAX - 1)
/* Apply `sign` (+1 / -1) times the summary's values to the rows. */
int pt__stats_add_summary(pt_stats *s, const pt_summary *sum, int sign);
/* Add (sign +1) or subtract (-1) the counters of every rl, pm, call-site
 * and late row of `src` (not the extremes). */
int pt__stats_add_rows(pt_stats *dst, const pt_stats *src, int sign);
/* Whether an MPI call entered before t and still open may learn its call
 * site from a message (the trace defines call sites and it has none
 * yet).  Calls entered at or after t do not count for a window ending at
 * t. */
int pt__stats_sites_pending(const pt_stats *s, uint64_t t);
/* State from summaries (PT_SUM_PENDING, PT_SUM_POSTED): an unmatched send
 * of location loc, queued on its channel as message() would (dur: a
 * blocking send's call lasted dur - 1 ticks; 0: unknown, or still open at
 * the summary time, when its open frame takes its leave); an open
 * receive request posted by a call entered at post. */
int pt__stats_push_send(pt_stats *s, uint64_t loc, int64_t peer,
                        uint64_t comm, int64_t tag, uint64_t time,
                        uint64_t enter, int blocking, uint64_t dur);
int pt__stats_push_posted(pt_stats *s, uint64_t loc, uint64_t request,
                          uint64_t time, uint64_t post);
/* Whether some location of the trace may speak for `rank` in messages (a
 * receive from another rank never meets its send): with ranks, a defined
 * rank; without, any. */
int pt__stats_rank_exists(const pt_stats *s, uint64_t rank);
/* Whether the selection takes some locations of a process and not others
 * (from the definitions). */
int pt__stats_splits_process(const pt_stats *s);
/* State from summaries (PT_SUM_APP_SPAN): the end of loc's first MPI_Init
 * and the start of its first MPI_Finalize (flags 1 and 2: known). */
int pt__stats_set_app_span(pt_stats *s, uint64_t loc, uint64_t flags,
                           uint64_t init_end, uint64_t fin_start);
/* The location id that speaks for loc's process in the matrix. */
uint64_t pt__stats_proc_loc(const pt_stats *s, uint64_t loc);
/* Fold sent-message size extremes into the call-site row of loc. */
int pt__stats_msg_extreme(pt_stats *s, uint64_t loc, uint64_t region,
                          uint64_t callsite, uint64_t bmin, uint64_t bmax);
/* Fold per-call time extremes into the call-site row of loc. */
int pt__stats_call_extreme(pt_stats *s, uint64_t loc, uint64_t region,
                           uint64_t callsite, uint64_t tmin, uint64_t tmax);
/* Rebuild per-location totals and the pair matrix from the pm rows, and
 * with track_late its late times from the lt rows (for an object made of
 * summaries). */
int pt__stats_rows_from_pm(pt_stats *s);
int pt__stats_selected(const pt_stats *s, uint64_t loc);
uint64_t pt__stats_peer_loc(const pt_stats *s, int64_t peer);
/* The rank a location speaks for in messages (its id without ranks). */
uint64_t pt__stats_rank_of(const pt_stats *s, uint64_t loc);
void pt__stats_invalidate(pt_stats *s);
/* The program region (see pt_stats_totals.app_region) or PT_NONE, and
 * whether an MPI_Init / MPI_Init_thread region is defined: from the
 * definitions alone. */
uint64_t pt__stats_program_region(const pt_stats *s);
int pt__stats_has_init_region(const pt_stats *s);

/* ---- the I/O section (stats_io.c) ---------------------------------------- */

/* The I/O tables (files, handles, io, ioop), empty. */
void pt__stats_io_init(pt_stats *s);
/* A definition: files and I/O handles kept, file-I/O regions noted. */
int pt__stats_io_def(pt_stats *s, const pt_def *d);
/* An IO_BEGIN or IO_END of location L; w: its time is in the window. */
int pt__stats_io_event(pt_stats *s, const pt__loc *L, const pt_event *ev,
                       int w);
/* End of input: operations still open count as unfinished at end_eff. */
int pt__stats_io_finish(pt_stats *s);
/* Whether an operation begun in the window has not ended yet (a window
 * from summaries reads on until none has, as a full scan sees the ends). */
int pt__stats_io_pending(const pt_stats *s);
/* Add the I/O rows (and file names) of src to dst. */
int pt__stats_add_io(pt_stats *dst, const pt_stats *src);
/* Collective wait states (stats_coll.c). */
int pt__stats_coll_init(pt_stats *s);
void pt__stats_coll_free(pt_stats *s);
int pt__stats_coll_def(pt_stats *s, const pt_def *d);
/* A COLL_END of location L (its state: the open MPI call) at w = in the
 * window. */
int pt__stats_coll_event(pt_stats *s, const pt__loc *L, const pt_event *ev,
                         int w);
/* For a slice (slice.c): whether the COLL_END ev of the window belongs
 * to a collective instance that some member had ended before it.  pre:
 * the engine fed the events before the window (and nothing after); L:
 * ev's location in the engine of what the slice wrote (its open call
 * holds ev).  Each blocking collective's COLL_END advances pre's numbering
 * of its process's calls on the communicator, so call it on every COLL_END
 * of the window in order (advance = 1; 0: look only, for a COLL_END
 * that will be given to pre).  1 yes, 0 no, PT_ENOMEM. */
int pt__stats_coll_ended_before(pt_stats *pre, const pt__loc *L,
                                const pt_event *ev, int advance);
/* Whether location L of s is in a blocking collective call (its innermost
 * open region). */
int pt__stats_coll_in_blocking(const pt_stats *s, const pt__loc *L);
int pt__stats_coll_finish(pt_stats *s);
/* Parts: add the rows of s to d's and join the members of their
 * unfinished instances (resolved when complete). */
int pt__stats_coll_merge(pt_stats *d, const pt_stats *s);
/* Parts, at pt_stats_complete: what is unfinished counts as unmatched. */
int pt__stats_coll_complete(pt_stats *s);
/* The rows and unfinished instances as words (*out: caller frees), and
 * back into s's (empty) state: PT_OK, PT_ENOMEM, PT_ECORRUPT. */
int pt__stats_coll_words(const pt_stats *s, uint64_t **out, size_t *nout);
int pt__stats_coll_load(pt_stats *s, const uint64_t *w, size_t n);
int pt__stats_coll_aggregate(pt_stats *s);
/* The I/O output rows (s->out_io, allocated), sorted by key. */
int pt__stats_io_aggregate(pt_stats *s);

/* ---- metrics (stats_metric.c) ---------------------------------------------- */

void pt__stats_metric_init(pt_stats *s);
/* Free the tables, names and output rows. */
void pt__stats_metric_free(pt_stats *s);
/* Drop the results (mv, mr) and the open state (mloc); definitions stay. */
void pt__stats_metric_clear(pt_stats *s);
/* Free the output rows. */
void pt__stats_metric_free_output(pt_stats *s);
/* A METRIC definition (others ignored).  PT_OK or PT_ENOMEM. */
int pt__stats_metric_def(pt_stats *s, const pt_def *d);
/* A METRIC event of a selected location; w: its time is in the window. */
int pt__stats_metric_event(pt_stats *s, const pt_event *ev, int w);
/* An ENTER (enter = 1) or LEAVE of a selected location, when s->met_acc. */
int pt__stats_metric_region(pt_stats *s, uint64_t loc, int enter,
                            uint64_t region, uint64_t t, int w);
/* Add the metric definitions and rows of src to dst. */
int pt__stats_add_metrics(pt_stats *dst, const pt_stats *src);
/* The output rows (s->out_met, out_mloc, out_mreg), sorted. */
int pt__stats_metric_aggregate(pt_stats *s);

#endif
