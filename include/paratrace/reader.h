/* paratrace: reading native PTF archives.
 *
 * A pull iterator over the events of any subset of locations in global time
 * order (ties broken by stream, then by order within the stream), with
 * filters and an index-based seek.  Memory is bounded by (streams x block
 * size), never by trace length; at most `max_open_files` files are open at
 * once however many streams the archive has.
 *
 *   pt_reader *r;  pt_event ev;  int rc;
 *   pt_reader_open(&r, "run.ptf", NULL, &err);
 *   while ((rc = pt_reader_next(r, &ev)) == PT_OK) use(&ev);
 *   if (rc < 0) fprintf(stderr, "%s\n", pt_reader_errmsg(r));
 *   pt_reader_close(r);
 */
#ifndef PARATRACE_READER_H
#define PARATRACE_READER_H

#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pt_reader pt_reader;

typedef void (*pt_warn_fn)(void *user, const char *message);

typedef struct pt_reader_opts {
  const uint64_t *locations; /* select these locations; NULL = all */
  size_t nlocations;
  uint64_t from, to;     /* time window [from, to); to = 0 means no end */
  uint64_t kinds;        /* PT_KIND_BIT mask; 0 = all kinds */
  size_t max_open_files; /* 0 = 64, or a quarter of the
                            process's RLIMIT_NOFILE if less (>= 4) */
  pt_warn_fn warn;       /* recoverable problems (truncated tail, rebuilt
                            index); NULL = silent */
  void *warn_user;
  int threads;           /* 0: blocks are checked and decompressed when the
                            merge reaches them.  N > 0 (at most 64): N
                            threads check and decompress the next block of
                            every selected stream ahead of the merge (used
                            when at most 64 streams are selected; one more
                            block of memory per stream).  Same events either
                            way; PT_EINVAL above 64. */
} pt_reader_opts;

/* Per-stream facts.  For an archive whose writer never closed it
 * (anchor state = open) the locations of a stream may be unknown
 * (nlocations = 0) until pt_archive_recover rewrites the anchor; such
 * streams are always read and filtered event by event. */
typedef struct pt_stream_info {
  uint64_t stream;
  uint64_t nlocations;
  const uint64_t *locations; /* borrowed until pt_reader_close */
  uint64_t blocks, events;
  uint64_t stored_bytes;     /* bytes of the events file */
  uint64_t raw_bytes;        /* uncompressed payload bytes */
  uint64_t first_time, last_time;
  int index_rebuilt;         /* 1 if the index was missing or stale */
  int has_summaries, has_snapshots;
} pt_stream_info;

/* Open the archive at `path`; opts may be NULL.  Reads the anchor, all
 * definitions and every selected stream's index (rebuilding a missing or
 * stale index in memory from block headers, with a warning).  Returns
 * PT_OK, PT_ENOTFOUND, PT_EFORMAT (not a PTF archive), PT_EVERSION,
 * PT_ECORRUPT, PT_EIO, PT_ENOMEM, PT_EINVAL (out or path NULL,
 * nlocations > 0 with locations NULL, threads out of range); `err` (may
 * be NULL) gets the detail.
 * Ownership: close with pt_reader_close(). */
PT_API int pt_reader_open(pt_reader **out, const char *path,
                          const pt_reader_opts *opts, pt_error *err);

/* Definitions, global first then stream-local, in the order written.
 * Borrowed until pt_reader_close. */
PT_API size_t pt_reader_ndefs(const pt_reader *r);
PT_API const pt_def *pt_reader_def(const pt_reader *r, size_t i);

/* Streams of the archive (all of them, selected or not). */
PT_API size_t pt_reader_nstreams(const pt_reader *r);
PT_API const pt_stream_info *pt_reader_stream_info(const pt_reader *r,
                                                   size_t i);

/* Value of an anchor key ("version", "creator"...), or NULL.  Borrowed
 * until pt_reader_close. */
PT_API const char *pt_reader_anchor(const pt_reader *r, const char *key);

/* Next event in global time order.  Returns PT_OK and fills *ev (pointers
 * inside are borrowed until the next call on `r`), PT_END, or an error
 * (PT_ECORRUPT, PT_EIO...) with the detail in pt_reader_errmsg().  A
 * truncated or damaged tail of a stream ends that stream with a warning. */
PT_API int pt_reader_next(pt_reader *r, pt_event *ev);

/* A run of events of one location, in time order.  Common events (a
 * reference and no other field, no attributes: enter, leave...) come
 * compact, `n` of them in the arrays; any other event comes alone as
 * `event` (n = 1, kind NULL).  All borrowed until the next call on the
 * reader. */
typedef struct pt_event_run {
  uint64_t location;
  size_t n;              /* >= 1 */
  const uint64_t *time;  /* n entries */
  const uint64_t *ref;   /* n entries */
  const uint8_t *kind;   /* n entries (pt_event_kind), NULL with `event` */
  const pt_event *event; /* the one whole event, or NULL */
} pt_event_run;

/* The next run of events: the same events as pt_reader_next, with the
 * same filters, but handed out up to a decoded batch at a time.  Each
 * location's events come in time order and runs come in the order of
 * their first events' times, so events of different locations are only
 * roughly in time order (a run may reach past the next run's first
 * event).  For consumers whose result does not depend on how locations
 * interleave (per-location profiles, message matching by channel): it
 * skips the per-event merge and copy.  May be mixed with pt_reader_next.
 * Returns PT_OK, PT_END or an error as pt_reader_next. */
PT_API int pt_reader_next_run(pt_reader *r, pt_event_run *run);

/* Position every selected stream at its first event with time >= t, using
 * the index (binary search) and decoding one block per stream.  The next
 * pt_reader_next returns the first event >= max(t, from).  Returns PT_OK
 * or an error. */
PT_API int pt_reader_seek(pt_reader *r, uint64_t t);

/* Callback adapter: calls fn for every remaining event until it returns
 * non-zero (which is returned) or the events end (PT_OK) or an error. */
typedef int (*pt_event_fn)(void *user, const pt_event *ev);
PT_API int pt_reader_foreach(pt_reader *r, pt_event_fn fn, void *user);

/* Summaries (what = PT_ITEM_SUMMARY) or snapshots (PT_ITEM_SNAPSHOT) of
 * the selected locations (the time window and kind filters do not apply):
 * stream by stream in ascending stream id, in time order within a stream.
 * The two kinds keep separate positions.
 * Starts over after pt_reader_aux_rewind.  Returns PT_OK, PT_END or an
 * error; the item is borrowed until the next call. */
PT_API int pt_reader_aux_next(pt_reader *r, uint32_t what, pt_item *item);
PT_API void pt_reader_aux_rewind(pt_reader *r);

/* Detail of the last error; owned by the reader. */
PT_API const char *pt_reader_errmsg(const pt_reader *r);

/* Close and free.  NULL is ok. */
PT_API void pt_reader_close(pt_reader *r);

#ifdef __cplusplus
}
#endif
#endif
