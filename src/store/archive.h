/* PTF archive pieces shared by the writer, reader and recovery: file
 * names, the anchor (parse and build), the index file (parse and build)
 * and the block-header scan that rebuilds an index.  Not public API. */
#ifndef PT_STORE_ARCHIVE_H
#define PT_STORE_ARCHIVE_H

#include "store/block.h"

#define PT__PTF_VERSION 3
/* The oldest version this reader reads: version 2 has no RMA_* event kinds
 * (doc/format.md), and is otherwise version 3. */
#define PT__PTF_VERSION_MIN 2
#define PT__ANCHOR_MAX (64u << 20) /* bytes */
#define PT__MAX_STREAMS (UINT64_C(1) << 24)

/* ---- names ------------------------------------------------------------- */

/* malloc'd "dir/<formatted>"; NULL on OOM.  Caller frees. */
char *pt__path(const char *dir, const char *fmt, ...) PT_PRINTF(2, 3);

/* Write `len` bytes to `path` atomically: a temporary in the same
 * directory, then rename.  0 or -1 (errno set). */
int pt__write_atomic(const char *path, const void *data, size_t len);

/* Parse a decimal u64 with no sign, spaces or overflow.  0 or -1. */
int pt__parse_u64(const char *s, size_t n, uint64_t *out);

/* ---- anchor ------------------------------------------------------------ */

typedef struct pt__kv {
  const char *key, *val;
} pt__kv;

typedef struct pt__anchor {
  char *text; /* owned copy, split in place */
  pt__kv *kv;
  size_t nkv;
} pt__anchor;

/* Parse anchor text (untrusted).  The first non-empty line must be
 * "format = ptf".  Lines are "key = value"; blank lines and lines starting
 * with '#' are ignored.  Returns PT_OK, PT_EFORMAT (not a PTF anchor),
 * PT_ECORRUPT (*why, *line = 1-based line), PT_ENOMEM.  Free with
 * pt__anchor_free (also after an error). */
/* 1 for a directory whose anchor starts "format = ptf" (what --force may
 * replace as a PTF archive, and what the format probe takes), whatever
 * follows; parsed as the reader parses it. */
int pt__is_ptf_dir(const char *path);
int pt__anchor_parse(const char *text, size_t len, pt__anchor *a,
                     const char **why, size_t *line);
/* Last value of `key`, or NULL.  Borrowed from a. */
const char *pt__anchor_get(const pt__anchor *a, const char *key);
void pt__anchor_free(pt__anchor *a);

/* Parse a space-separated list of decimal u64 into a malloc'd array
 * (caller frees; NULL when empty).  PT_OK, PT_ECORRUPT, PT_ENOMEM. */
int pt__parse_u64_list(const char *s, uint64_t **out, size_t *n);

typedef struct pt__stream_desc {
  uint64_t id;
  const uint64_t *locs;
  size_t nlocs;
  uint64_t events, blocks, first, last, raw_bytes;
} pt__stream_desc;

typedef struct pt__anchor_info {
  const char *creator;
  int closed;
  int have_clock;
  int64_t ticks_per_second, epoch, length;
  uint64_t start;
  const pt__stream_desc *streams;
  size_t nstreams;
} pt__anchor_info;

/* Build the anchor text into b (listing the files present in `dir`) and
 * write it atomically to dir/anchor.  PT_OK, PT_ENOMEM, PT_EIO. */
/* pt_aux_close, with refresh = 0 leaving the anchor's files line as it
 * is (a caller closing many writers refreshes it once, with
 * pt__aux_refresh_files). */
int pt__aux_close(pt_aux_writer *a, int refresh, pt_error *err);
/* Rewrite the anchor's files line from the directory (best effort). */
int pt__aux_refresh_files(const char *dir);

int pt__anchor_store(const char *dir, const pt__anchor_info *info,
                     pt_error *err);

/* Parse a joined writer's manifest `path` (part.<id>: one line per stream,
 * "stream ID events N blocks N first T last T raw N locs L,L,...") and
 * append its streams to (*descs, *ndescs, *capdescs); each one's locs is
 * malloc'd (the caller frees it and *descs).  PT_OK, PT_ECORRUPT, PT_EIO,
 * PT_ENOMEM with the detail in err. */
int pt__manifest_parse(const char *path, pt__stream_desc **descs, size_t *ndescs,
                       size_t *capdescs, pt_error *err);

/* ---- index ------------------------------------------------------------- */

#define PT__IDX_MAGIC "PTIX"
#define PT__IDX_END "PTIE"
#define PT__IDX_HDR 16u
#define PT__IDX_ENTRY 40u
#define PT__IDX_TRAILER 24u

typedef struct pt__ientry {
  uint64_t first_ts, last_ts, offset, count, ordinal;
} pt__ientry;

/* Serialise an index describing an events file of `events_size` bytes. */
int pt__index_build(const pt__ientry *e, size_t n, uint64_t events_size,
                    pt__buf *out);
/* Parse and validate an index file image (untrusted).  On PT_OK *out is a
 * malloc'd array of *n entries (NULL when 0; caller frees) and
 * *events_size the size of the events file it describes.  PT_ECORRUPT
 * (*why), PT_EVERSION, PT_ENOMEM. */
int pt__index_parse(const uint8_t *p, size_t len, pt__ientry **out, size_t *n,
                    uint64_t *events_size, const char **why);

/* ---- scan -------------------------------------------------------------- */

/* Called for each good block when the scan verifies payloads: raw is the
 * decompressed payload.  Return 0 to accept, non-zero to treat the block
 * as damaged (the scan stops before it). */
typedef int (*pt__scan_fn)(void *user, const pt__blkhdr *h, uint64_t off,
                           const uint8_t *raw);

typedef struct pt__scan {
  pt__ientry *e; /* malloc'd, caller frees */
  size_t n, cap;
  uint64_t good_end;  /* end of the last complete block */
  uint64_t raw_bytes; /* sum of the good blocks' raw sizes */
  uint64_t file_size;
  const char *why;    /* why the scan stopped early (NULL: clean end) */
  uint64_t bad_off;   /* where */
} pt__scan;

/* Walk the blocks of type `type` in fd from offset 0, checking headers,
 * bounds, ordinal continuity and time order; with fn, also read, check and
 * decompress each payload and call fn.  Stops at the first bad or
 * incomplete block.  Returns PT_OK (even with a damaged tail: see s->why),
 * PT_EIO or PT_ENOMEM. */
int pt__scan_blocks(int fd, uint8_t type, ZSTD_DCtx *dctx, pt__scan_fn fn,
                    void *user, pt__scan *s);

/* ---- pre-encoded events (writer.c) --------------------------------------- */

/* Append an event encoded as pt__event_put encodes it, without the time
 * and without a location (header bit PT__EVH_LOC clear), for location
 * `loc` at `time`.  PT_OK when written, 1 when the caller must write it
 * through pt_stream_event instead (nothing was written). */
int pt__stream_event_enc(pt_stream *s, uint64_t loc, uint64_t time,
                         const uint8_t *body, size_t len);
/* Two such events at t0 <= t1 in one go (a call's ENTER and LEAVE): both
 * written, or neither (1). */
int pt__stream_event_enc2(pt_stream *s, uint64_t loc, uint64_t t0,
                          const uint8_t *b0, size_t n0, uint64_t t1,
                          const uint8_t *b1, size_t n1);
/* A call's events in one go: its ENTER (b0[0..n0)) at t0, the k (<= 64)
 * events it implies, encoded back to back in eb (event i is
 * eb[off[i]..off[i + 1]), off[0] == 0) at times et[i], and its LEAVE
 * (b1[0..n1)) at t1. */
typedef struct pt__call_evs {
  uint64_t t0, t1;
  const uint8_t *b0, *b1;
  size_t n0, n1, k;
  const uint64_t *et;
  const uint8_t *eb;
  const uint16_t *off;
} pt__call_evs;
/* c's events appended for location `loc`, an event's time below the one
 * before it taken as that one (c->t1 updated); one bounds check, the
 * time deltas and the bytes written directly: all written (PT_OK), or
 * none (1). */
int pt__stream_event_call(pt_stream *s, uint64_t loc, pt__call_evs *c);

/* From now on (and after the rewind this does) pt_reader_aux_next skips,
 * without reading them, the summary and snapshot blocks whose times all
 * lie outside [lo[0], hi[0]] and [lo[1], hi[1]]; with keep_last the last
 * block of each file is read anyway (items outside the ranges still come
 * from blocks read: the caller filters by time). */
struct pt_reader;
void pt__reader_aux_range(struct pt_reader *r, const uint64_t lo[2],
                          const uint64_t hi[2], int keep_last);

/* Append the sorted names of the archive's data files in dir (not the
 * anchor, dot files or temporaries) to b, separated by spaces.  PT_OK,
 * PT_EIO (no such directory), PT_ENOMEM. */
int pt__archive_list_files(const char *dir, pt__buf *b);

/* ---- block appender ---------------------------------------------------- */

/* Items of one file (events, defs, summaries or snapshots) accumulate
 * encoded in `raw`; pt__bw_flush compresses them into one block and
 * appends it.  When keep_open is 0 the file is opened for each block
 * (bounded descriptors for writers of many streams). */
typedef struct pt__bw {
  uint8_t type;
  int keep_open, fd;
  char *path;
  pt__buf raw;
  pt__buf dts;                 /* events: the items' time deltas (u64) */
  uint64_t count;              /* items in raw */
  uint64_t first_ts, last_ts;  /* of the items in raw */
  uint64_t prev_time, prev_loc;/* encoder delta state */
  uint64_t ordinal;            /* items already written */
  uint64_t file_off;           /* bytes already written */
  uint64_t blocks, raw_bytes;  /* written so far */
} pt__bw;

/* What building a block takes besides its items: a zstd context (about
 * 0.6 MB at level 1) and the payload and block buffers.  They are needed
 * only while a block is built, so writers share them instead of keeping a
 * set per stream (a writer of 1,000 streams held 0.6 GB of idle zstd
 * contexts): pt__zs_get hands out an idle set or makes one, pt__zs_put
 * takes it back, one mutex per block.  Sets live while any writer or aux
 * writer holds a reference (pt__zs_ref/unref); the last unref frees them. */
typedef struct pt__zs {
  ZSTD_CCtx *cctx;
  pt__buf cols, out;
  struct pt__zs *next;
  int own; /* made for a signal handler, not pooled (archive.c t_zs_held) */
} pt__zs;
void pt__zs_ref(void);
void pt__zs_unref(void);
/* NULL: out of memory.  Give it back with pt__zs_put. */
pt__zs *pt__zs_get(void);
void pt__zs_put(pt__zs *z);

/* Create (truncate) path and set up bw.  PT_OK, PT_EIO, PT_ENOMEM. */
int pt__bw_open(pt__bw *bw, const char *path, uint8_t type, int keep_open);
/* Write the pending items (if any) as one block; *entry (may be NULL) gets
 * its index entry.  PT_OK (nothing pending is OK), PT_EIO, PT_ENOMEM,
 * PT_ELIMIT. */
int pt__bw_flush(pt__bw *bw, pt__zs *z, int level, pt__ientry *entry,
                 int *wrote);
/* The same with a set from pt__zs_get (PT_ENOMEM if none can be made). */
int pt__bw_flush_shared(pt__bw *bw, int level, pt__ientry *entry,
                        int *wrote);
/* Close the descriptor and free buffers (pending items are dropped). */
void pt__bw_free(pt__bw *bw);

/* An events block on its way to the file, detached from its pt__bw so that
 * another thread may compress and write it while the stream goes on
 * filling the pt__bw (see pt_writer_opts.threads).  pt__bw_take copies the
 * pending items into the job's own buffers and resets bw (a failed copy
 * leaves PT_ENOMEM in j->rc for pt__bjob_run to return);
 * pt__bjob_run builds the payload (delta planes + rows), compresses it,
 * writes it at the end of the file and records the outcome in the job;
 * pt__bw_done accounts a finished job in bw and gives its index entry.
 * Only one job per pt__bw may be between take and done: block offsets are
 * known at take time because the previous block has been written. */
typedef struct pt__bjob {
  pt__blkhdr h;        /* type, first/last time, count, ordinal */
  pt__buf raw, dts;    /* copies of the bw's rows and time deltas */
  pt__buf cols, out;   /* payload being assembled, block being written */
  int fd;              /* the bw's descriptor, or -1: open path to append */
  const char *path;    /* the bw's file (owned by the bw) */
  uint64_t off;        /* file offset where the block goes */
  size_t len;          /* bytes written (header + stored payload) */
  int rc, err;         /* outcome: PT_OK or PT_EIO/PT_ENOMEM/PT_ELIMIT, errno */
} pt__bjob;

/* bw must hold items; j must be idle (done or fresh). */
void pt__bw_take(pt__bw *bw, pt__bjob *j);
/* Returns j->rc.  Thread-safe for distinct jobs and distinct cctx. */
int pt__bjob_run(pt__bjob *j, ZSTD_CCtx *cctx, int level);
/* After a successful run: bw's offsets and counters; *entry (may be NULL). */
void pt__bw_done(pt__bw *bw, const pt__bjob *j, pt__ientry *entry);
void pt__bjob_free(pt__bjob *j);

/* Start an item of time t in bw (sets the block's first time and the delta
 * state on the first item) and reserve `bound` bytes: returns the write
 * pointer or NULL on OOM. */
static inline uint8_t *pt__bw_begin(pt__bw *bw, uint64_t t, size_t bound) {
  if (bw->raw.cap - bw->raw.len < bound && pt__buf_reserve(&bw->raw, bound))
    return NULL;
  if (bw->count == 0) {
    bw->first_ts = t;
    bw->prev_time = t;
    bw->prev_loc = PT_NONE;
  }
  return bw->raw.p + bw->raw.len;
}
static inline void pt__bw_end(pt__bw *bw, uint64_t t, size_t n) {
  bw->raw.len += n;
  bw->count++;
  bw->last_ts = t;
}

#endif
