/* paratrace: the format registry, sources and sinks.
 *
 * Every format is a *source* (yields pt_items) and/or a *sink* (consumes
 * them).  convert, dump, merge and friends are "source -> filters -> sink".
 *
 * Item order a source yields: stream-map entries, then definitions, then
 * events in global time order (or in runs: pt_source_opts.runs), then
 * summaries, then snapshots.  A sink
 * accepts definitions at any time; events must come in non-decreasing time
 * per location.
 */
#ifndef PARATRACE_FORMAT_H
#define PARATRACE_FORMAT_H

#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pt_source pt_source;
typedef struct pt_sink pt_sink;

typedef struct pt_source_opts {
  const char *format;        /* NULL = detect from the path and content */
  const uint64_t *locations; /* filters, as in pt_reader_opts */
  size_t nlocations;
  uint64_t from, to;         /* [from, to); to = 0: no end */
  uint64_t kinds;            /* 0 = all */
  size_t max_open_files;     /* 0 = 64, or a quarter of
                                RLIMIT_NOFILE if less (>= 4) */
  const char *params;        /* format-specific "key=value,key=value" */
  pt_warn_fn warn;
  void *warn_user;
  int threads;               /* native: prefetching threads as
                                pt_reader_opts; 0 = one when the machine
                                has more than one CPU online, none
                                otherwise; -1 = none */
  int defs_only;             /* 1: the definitions before the first event
                                only (PT_END at the first event; an OTF2
                                archive's event files are not opened) */
  int runs;                  /* 1: events may come in runs: the items
                                of a batch of pt_source_next_batch are
                                events of one location in time order
                                (pt_source_next hands a run out item by
                                item; a batch after it may be the rest of
                                that run), and runs start in time order,
                                so events of different locations are only
                                roughly in time order (messages too,
                                unlike pt_reader_next_run).  For consumers
                                whose result does not depend on how
                                locations interleave: per-location
                                profiles, a sink that writes each location
                                apart, message statistics of processes of
                                one location without wildcard receives
                                (pt_stats_order_dependent says when they
                                do depend: a receive from MPI_ANY_SOURCE
                                without a status takes the oldest send
                                waiting).  It skips most of the merge.
                                Sources that hold no runs (all but DUMPI
                                today) keep global time order, which is
                                one run per event.  0: global time
                                order. */
} pt_source_opts;

typedef struct pt_sink_opts {
  const char *format;  /* NULL = from the output path's extension */
  int overwrite;       /* replace an existing output (atomically) */
  size_t block_size;   /* native: as pt_writer_opts */
  int level;           /* native: as pt_writer_opts */
  uint64_t streams;    /* native: 0 = keep the source's stream map; M > 0:
                          distribute locations over M streams */
  const char *params;  /* format-specific "key=value,..." */
  pt_warn_fn warn;
  void *warn_user;
  int threads;         /* native: compression threads as pt_writer_opts;
                          0 = one when the machine has more than one CPU
                          online, none otherwise; -1 = none */
} pt_sink_opts;

/* Open `path` as a source.  Returns PT_OK, PT_EFORMAT (format unknown or
 * not detected), PT_ENOTFOUND, or the format's open error; `err` (may be
 * NULL) gets the detail.  Close with pt_source_close(). */
PT_API int pt_source_open(pt_source **out, const char *path,
                          const pt_source_opts *opts, pt_error *err);
/* Next item: PT_OK (item borrowed until the next call), PT_END, or an
 * error with the detail (file, position, reason) in pt_source_errmsg(). */
PT_API int pt_source_next(pt_source *s, pt_item *item);
/* The next items without copying them: PT_OK with *n >= 1 items at
 * (*items)[0 .. *n), the same items, in the same order, as *n calls of
 * pt_source_next would give; PT_END (*n = 0) or an error as
 * pt_source_next.  Ownership: the items, and what their pointers (names,
 * attributes, text) point to, belong to the source and are borrowed until
 * the next call of pt_source_next or pt_source_next_batch on s, or
 * pt_source_close; the caller must not modify them.  A source hands out
 * several at once only where it holds them in memory anyway (DUMPI: the
 * events of a rank's next MPI calls that come before every other rank's
 * next event; with pt_source_opts.runs, its next calls up to 256
 * events); others, or a source opened with filters (window, kinds,
 * locations), give one item per call.  The two functions may be mixed
 * freely.  Not thread-safe for one source (as pt_source_next). */
PT_API int pt_source_next_batch(pt_source *s, const pt_item **items,
                                size_t *n);
/* Name of the source's format ("ptf", "text"...); static string. */
PT_API const char *pt_source_format(const pt_source *s);
/* 1 if s hands out runs (pt_source_opts.runs asked for, no filter, and a
 * format that holds them: DUMPI), 0 if its events come in global time
 * order. */
PT_API int pt_source_runs(const pt_source *s);
PT_API const char *pt_source_errmsg(const pt_source *s);
/* The native reader behind a PTF source, or NULL for other formats.
 * Borrowed until pt_source_close. */
PT_API pt_reader *pt_source_reader(pt_source *s);
PT_API void pt_source_close(pt_source *s);

/* Open `path` as a sink.  Output goes to a temporary name and appears at
 * `path` only when pt_sink_close succeeds; an existing `path` is an error
 * (PT_EEXIST) unless opts->overwrite.  Path "-" writes to standard output
 * (text-like formats only).  Close with pt_sink_close or pt_sink_abort. */
PT_API int pt_sink_open(pt_sink **out, const char *path,
                        const pt_sink_opts *opts, pt_error *err);
PT_API int pt_sink_write(pt_sink *k, const pt_item *item);
/* Finish and commit the output.  Frees k in every case. */
PT_API int pt_sink_close(pt_sink *k, pt_error *err);
/* Discard the output.  Frees k.  NULL is ok. */
PT_API void pt_sink_abort(pt_sink *k);
PT_API const char *pt_sink_errmsg(const pt_sink *k);

/* Copy every item of src to dst (the core of convert).  When dst writes
 * every location apart (a native archive with one stream per location),
 * a source that holds runs (DUMPI) is switched to them at the first event
 * (pt_source_opts.runs): the same output, without the source's merge.  Calls progress
 * (may be NULL) now and then with the events copied so far.  Returns PT_OK
 * or the first error; the detail is in the errmsg of whichever failed and,
 * if err is given, in err. */
typedef void (*pt_progress_fn)(void *user, uint64_t events);
/* Make every pt_pipe of the process stop at its next item and return
 * PT_EINTR (the caller then aborts its sink: no output, no temporary);
 * pt_slice and pt_archive_summarize likewise stop and remove what they
 * were writing.  The request stays for the rest of the process.
 * Async-signal-safe: meant for a SIGINT/SIGTERM handler. */
PT_API void pt_pipe_interrupt(void);
PT_API int pt_pipe(pt_source *src, pt_sink *dst, pt_progress_fn progress,
                   void *user, pt_error *err);

/* The registry. */
typedef struct pt_format_info {
  const char *name;        /* "ptf", "text", "picl", "otf", "dumpi"... */
  const char *description;
  const char *extensions;  /* space-separated, e.g. ".ptf" */
  int can_read, can_write;
} pt_format_info;

PT_API size_t pt_format_count(void);
PT_API const pt_format_info *pt_format_get(size_t i);
/* Name of the format `path` holds (by content, then extension), or NULL. */
PT_API const char *pt_format_detect(const char *path);

#ifdef __cplusplus
}
#endif
#endif
