/* paratrace: writing native PTF archives.
 *
 * A PTF archive is a directory NAME.ptf/ (see doc/format.md).  A writer
 * creates it; each stream handle appends the events of one or more
 * locations to its own files.  Streams share nothing on the append path, so
 * different threads may each drive their own stream without locks.
 *
 *   pt_writer *w;  pt_stream *s;
 *   pt_writer_open(&w, "run.ptf", NULL);
 *   pt_writer_def(w, &region_def);             // any time, thread-safe
 *   pt_writer_stream(w, 0, &s);                 // stream 0
 *   pt_stream_event(s, &ev);  ...               // non-decreasing times
 *   pt_writer_close(w);                         // indexes + anchor
 *
 * Crash safety: every block that pt_stream_flush() (or a full buffer) has
 * written stays readable if the process dies; pt_archive_recover() rebuilds
 * indexes and the anchor from block headers.
 */
#ifndef PARATRACE_WRITER_H
#define PARATRACE_WRITER_H

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pt_writer pt_writer;
typedef struct pt_stream pt_stream;

/* Detail of an error returned by a free function (one with no handle). */
typedef struct pt_error {
  int status;
  char msg[512];
} pt_error;

typedef struct pt_writer_opts {
  size_t block_size;   /* uncompressed bytes per block; 0 = 256 KiB */
  int level;           /* zstd level 1..19; 0 = default (1); -1 = store raw */
  const char *creator; /* free text for the anchor; NULL = "paratrace" */
  int overwrite;       /* 1: replace an existing archive at close; 0: fail
                          at open with PT_EEXIST if the path exists */
  int join;            /* 1: add streams to an archive that a leader writer
                          (normally in another process) creates at `path`:
                          the directory may exist; global definitions go to
                          s<part>.defs (so stream `part` is created and must
                          not take pt_stream_def); pt_writer_close writes
                          the streams' indexes and a manifest part.<part>
                          but no anchor.  The leader's pt_writer_close,
                          called after every joiner closed, lists the
                          joiners' streams in the anchor.  Stream and
                          location ids must be distinct across writers. */
  uint64_t part;       /* with join: this writer's part (a stream id) */
  int threads;         /* 0: a stream compresses and writes each full block
                          itself, inside pt_stream_event (no threads are
                          created).  N > 0 (at most 64): the writer starts N
                          threads that compress and write full blocks while
                          the streams go on encoding; each stream then has
                          at most one block in flight (one more block of
                          memory per stream).  The archive is the same byte
                          for byte.  A write error of a block in flight is
                          returned by the stream's next call that writes a
                          block (pt_stream_event, pt_stream_flush) or by
                          pt_writer_close. */
} pt_writer_opts;

/* Create a new archive at `path` (a directory, conventionally *.ptf).
 * opts may be NULL for defaults.  With overwrite = 0 the archive is written
 * in place (crash-safe: what was flushed survives); with overwrite = 1 it is
 * written under a temporary name next to `path` and renamed over the old
 * one by pt_writer_close, so the old archive survives any failure.
 * Returns PT_OK and *out, or PT_EEXIST, PT_EIO, PT_ENOMEM, PT_EINVAL; on
 * error *out is NULL and `err` (may be NULL) receives the detail.
 * Ownership: close with pt_writer_close() or pt_writer_abort().
 * out NULL gives PT_EINVAL. */
PT_API int pt_writer_open(pt_writer **out, const char *path,
                          const pt_writer_opts *opts, pt_error *err);

/* Add a global definition.  Strings and arrays are copied.  May be called
 * at any time from any thread.  Definitions are written before any event
 * block that is flushed after this call.  Returns PT_OK, PT_EINVAL (bad
 * kind, def NULL, nmembers > 0 with members NULL), PT_EIO, PT_ENOMEM. */
PT_API int pt_writer_def(pt_writer *w, const pt_def *def);

/* Get the handle of stream `stream_id`, creating its files on first use.
 * The handle belongs to the writer and stays valid until pt_writer_close.
 * Thread-safe (takes the writer's lock; the append path does not).
 * Returns PT_OK, PT_EIO, PT_ENOMEM, PT_ELIMIT (more than 2^24 streams),
 * PT_EINVAL (out NULL). */
PT_API int pt_writer_stream(pt_writer *w, uint64_t stream_id, pt_stream **out);

/* Append an event.  Its time must not be smaller than the previous event's
 * time in this stream (PT_EORDER otherwise; the writer never sorts).
 * A location must stay in one stream (PT_EINVAL).  Attributes and strings
 * are copied.  Returns PT_OK, PT_EORDER, PT_EINVAL, PT_EIO, PT_ENOMEM.
 * Not thread-safe for the same stream; different streams are independent. */
PT_API int pt_stream_event(pt_stream *s, const pt_event *ev);

/* Add a definition local to this stream (written to its own defs file). */
PT_API int pt_stream_def(pt_stream *s, const pt_def *def);

/* Append a summary / a snapshot entry of one of this stream's locations to
 * the stream's summaries / snapshots file (s<id>.sums, s<id>.snaps).
 * Times must not decrease within each file (PT_EORDER).  Strings and
 * arrays are copied.  Returns PT_OK, PT_EORDER, PT_EINVAL, PT_EIO,
 * PT_ENOMEM.  Same threading rule as pt_stream_event.  (Added for sinks
 * that copy whole archives; pt_aux_* rewrites them later.) */
PT_API int pt_stream_summary(pt_stream *s, const pt_summary *sum);
PT_API int pt_stream_snapshot(pt_stream *s, const pt_snapshot *snap);

/* Write the buffered events as a block now (and fsync-free durability:
 * the block is in the file when this returns).  Returns PT_OK or PT_EIO. */
PT_API int pt_stream_flush(pt_stream *s);

/* Detail of the last error of this stream: a static-lifetime string owned
 * by the stream (valid until the next call on it). */
PT_API const char *pt_stream_errmsg(const pt_stream *s);

/* Flush and close every stream, write indexes, summaries of the streams
 * and the anchor (atomically, by rename).  Frees the writer in every case.
 * Returns PT_OK or the first error; `err` (may be NULL) gets the detail. */
PT_API int pt_writer_close(pt_writer *w, pt_error *err);

/* Discard the archive being written (removes what this writer created,
 * never an archive that existed before).  Frees the writer.  NULL is ok. */
PT_API void pt_writer_abort(pt_writer *w);

/* Detail of the last error of the writer; owned by the writer. */
PT_API const char *pt_writer_errmsg(const pt_writer *w);

/* ---- summaries and snapshots, kept apart from events ------------------- */

typedef struct pt_aux_writer pt_aux_writer;

/* Start (re)writing the summary (what = PT_ITEM_SUMMARY) or snapshot
 * (PT_ITEM_SNAPSHOT) file of stream `stream_id` of the existing archive at
 * `path`.  The old file, if any, is replaced only by pt_aux_close; events
 * are never touched.  Items must come in non-decreasing time.
 * Returns PT_OK, PT_ENOTFOUND (no such archive or stream), PT_EIO...  */
PT_API int pt_aux_open(pt_aux_writer **out, const char *path,
                       uint64_t stream_id, uint32_t what, pt_error *err);
/* Append one item of the kind given to pt_aux_open (PT_EINVAL otherwise,
 * PT_EORDER if its time goes backwards; the detail in pt_aux_errmsg). */
PT_API int pt_aux_add(pt_aux_writer *a, const pt_item *item);
/* Detail of the aux writer's last error ("" if none); owned by the aux
 * writer. */
PT_API const char *pt_aux_errmsg(const pt_aux_writer *a);
/* Commit (rename into place).  Frees `a` in every case. */
PT_API int pt_aux_close(pt_aux_writer *a, pt_error *err);
/* Discard; the previous file stays.  NULL is ok. */
PT_API void pt_aux_abort(pt_aux_writer *a);
/* Delete the summary or snapshot file of a stream (PT_OK if absent). */
PT_API int pt_aux_remove(const char *path, uint64_t stream_id, uint32_t what,
                         pt_error *err);

/* ---- recovery ---------------------------------------------------------- */

typedef struct pt_recover_report {
  uint64_t streams;          /* streams found */
  uint64_t blocks;           /* complete blocks kept */
  uint64_t events;           /* events in those blocks */
  uint64_t truncated_bytes;  /* bytes of incomplete tails cut off */
  uint64_t indexes_rebuilt;  /* index files rewritten */
  uint64_t aux_removed;      /* .sums/.snaps files removed: events were cut */
  uint64_t tmp_removed;      /* temporaries of dead writers removed */
} pt_recover_report;

/* Make the archive at `path` readable after its writer died: scan every
 * stream's block headers, cut incomplete tails (a damaged block and all
 * after it are kept aside as *.damaged, never deleted), rebuild indexes and
 * the anchor.  If any events were cut, every summaries and snapshots file
 * of the archive is removed (they describe events that are gone, and a
 * window needs the summaries of all streams to agree; run
 * pt_archive_summarize again).  Summarize's temporaries
 * (`s<id>.sums.tmp.<pid>`, `.snaps`) left by a process that does not run
 * on this host and not written to for ten minutes are removed.
 * Idempotent.  report and err
 * may be NULL. */
PT_API int pt_archive_recover(const char *path, pt_recover_report *report,
                              pt_error *err);

#ifdef __cplusplus
}
#endif
#endif
