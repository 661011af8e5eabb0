/* PTF blocks: the fixed block header and the table-driven item codecs
 * (events, definitions, summaries, snapshots).  See doc/format.md.
 *
 * Everything decoded here comes from a file and is untrusted: decoders
 * check every length against the end of their input and return PT_ECORRUPT
 * with a static reason in *why; they never allocate from an unchecked
 * length.  Not public API. */
#ifndef PT_STORE_BLOCK_H
#define PT_STORE_BLOCK_H

#include <zstd.h>

#include "core/util.h"
#include "paratrace/model.h"

#define PT__BLK_MAGIC "PTBK"
#define PT__BLK_HDR 56u
/* Hard limits: a header announcing more is corrupt. */
#define PT__BLK_MAX_RAW (64u << 20)
#define PT__BLK_MAX_STORED (PT__BLK_MAX_RAW + (PT__BLK_MAX_RAW >> 7) + 4096u)

enum {
  PT__BLK_EVENTS = 1,
  PT__BLK_DEFS = 2,
  PT__BLK_SUMS = 3,
  PT__BLK_SNAPS = 4
};
enum { PT__CODEC_RAW = 0, PT__CODEC_ZSTD = 1 };
/* zstd window (log2 bytes) of events blocks written at levels up to
 * PT__EVENTS_WLOG_LEVEL_MAX (the fast ones; pt__blk_build says why). */
#define PT__EVENTS_WLOG 16
#define PT__EVENTS_WLOG_LEVEL_MAX 3
/* zstd hash table (log2 entries) of events blocks written at level 1 and
 * below. */
#define PT__EVENTS_HLOG 11

/* Event header byte. */
#define PT__EVH_KIND 0x3fu
#define PT__EVH_ATTRS 0x40u
#define PT__EVH_LOC 0x80u

typedef struct pt__blkhdr {
  uint8_t type, codec;
  uint16_t hsize;
  uint64_t first_ts, last_ts;
  uint64_t count;   /* items in the block */
  uint64_t ordinal; /* stream ordinal of the first item */
  uint32_t stored;  /* payload bytes in the file */
  uint32_t raw;     /* payload bytes after decompression */
  uint32_t pcrc;    /* CRC32C of the stored payload */
} pt__blkhdr;

/* Serialise h into out[0..55] (computing the header CRC). */
void pt__blkhdr_write(uint8_t *out, const pt__blkhdr *h);

/* Parse and validate a header: magic, header CRC, known type and codec,
 * header size, size limits, first_ts <= last_ts, count <= raw (every item
 * takes at least one byte) and count > 0.  Returns PT_OK or PT_ECORRUPT
 * with a static reason in *why. */
int pt__blkhdr_parse(const uint8_t *in, pt__blkhdr *h, const char **why);

/* Check the payload CRC and produce the raw payload: for codec RAW *raw
 * points at `stored` itself; for ZSTD the payload is decompressed into
 * `out` (reused, grown to h->raw) with `dctx`.  Returns PT_OK, PT_ENOMEM
 * or PT_ECORRUPT (*why set). */
int pt__blk_payload(const pt__blkhdr *h, const uint8_t *stored,
                    ZSTD_DCtx *dctx, pt__buf *out, const uint8_t **raw,
                    const char **why);

/* Compress `raw` (n bytes) into `out` after PT__BLK_HDR reserved bytes and
 * fill the header there: out->len = PT__BLK_HDR + stored on return.  level
 * < 0 stores raw; zstd output not smaller than the input is stored raw too.
 * h's type, first_ts, last_ts, count and ordinal must be set by the caller.
 * Returns PT_OK, PT_ENOMEM, PT_ELIMIT (n > PT__BLK_MAX_RAW), PT_EIO (zstd
 * failure). */
int pt__blk_build(pt__blkhdr *h, const uint8_t *raw, size_t n,
                  ZSTD_CCtx *cctx, int level, pt__buf *out);

/* ---- encoders (write into caller memory sized by the *_bound) ---------- */

/* Upper bound of the encoded size of ev, or 0 if ev is invalid (kind out of
 * range, an unknown value type, or a location PT_NONE). */
/* An event of (time, location, kind, ref) with every other field empty,
 * set field by field (a whole-struct initialiser becomes a rep stos on
 * the decoders' hot paths). */
static inline void pt__event_blank(pt_event *ev, uint64_t time,
                                   uint64_t loc, uint32_t kind,
                                   uint64_t ref) {
  ev->time = time;
  ev->location = loc;
  ev->kind = kind;
  ev->nattrs = 0;
  ev->ref = ref;
  ev->peer = 0;
  ev->comm = 0;
  ev->tag = 0;
  ev->size = 0;
  ev->size2 = 0;
  ev->request = 0;
  ev->value.type = PT_TYPE_NONE;
  ev->value.count = 0;
  ev->value.v.u = 0;
  ev->text = NULL;
  ev->attrs = NULL;
}

size_t pt__event_bound(const pt_event *ev);
/* Why pt__event_bound(ev) is 0, as one phrase for an error message
 * ("mark event: attribute 0 (key 7) is a string value ... NULL"). */
void pt__event_why(const pt_event *ev, char *buf, size_t n);
/* Encode ev at p; *prev_time / *prev_loc are the delta state (updated).
 * With dt_out NULL the time delta is written inline as a varint (row form);
 * otherwise it is stored in *dt_out for the block's delta planes and not
 * written.  Returns the bytes written (<= pt__event_bound). */
size_t pt__event_put(uint8_t *p, const pt_event *ev, uint64_t *prev_time,
                     uint64_t *prev_loc, uint64_t *dt_out);

size_t pt__def_bound(const pt_def *d); /* 0 if invalid */
size_t pt__def_put(uint8_t *p, const pt_def *d);

#define PT__SUM_BOUND (11u * PT_VARINT_MAX)
/* A kind a summary may have (pt_summary_kind): no format can say
 * another, and the text form refuses it. */
static inline int pt__summary_kind_ok(uint32_t kind) {
  return kind >= PT_SUM_REGION && kind <= PT_SUM_CALL_VISITS;
}
size_t pt__summary_put(uint8_t *p, const pt_summary *s, uint64_t *prev_time);

size_t pt__snapshot_bound(const pt_snapshot *s); /* 0 if invalid */
size_t pt__snapshot_put(uint8_t *p, const pt_snapshot *s, uint64_t *prev_time);

/* ---- decoders ---------------------------------------------------------- */

typedef struct pt__dec {
  const uint8_t *p, *end;
  uint64_t prev_time, prev_loc;
  /* Events blocks: time deltas stored as `tb` byte planes of `tcount`
   * bytes each at `tp` (plane j holds byte j of every delta); ti = next.
   * tb = 0: deltas are varints inline (row form, e.g. snapshots). */
  const uint8_t *tp;
  uint64_t tcount, ti;
  unsigned tb;
  pt__arena *scratch; /* attrs and int arrays; reset by the decoder per item */
  int scratch_dirty;
} pt__dec;

/* Make the codec tables ready (cheap after the first call). */
void pt__codec_init(void);

/* Start decoding a raw payload of a block whose first_ts is `first_ts`. */
static inline void pt__dec_init(pt__dec *d, const uint8_t *p, size_t n,
                                uint64_t first_ts, pt__arena *scratch) {
  pt__codec_init();
  d->p = p;
  d->end = p + n;
  d->prev_time = first_ts;
  d->prev_loc = PT_NONE;
  d->scratch = scratch;
  d->scratch_dirty = 0;
  d->tp = NULL;
  d->tcount = d->ti = 0;
  d->tb = 0;
}

/* Start decoding the raw payload of an events block (`count` events): the
 * byte count of the delta planes, the planes, then the row stream.
 * Returns 0, or PT_ECORRUPT with *why set. */
int pt__dec_init_events(pt__dec *d, const uint8_t *p, size_t n,
                        uint64_t first_ts, uint64_t count, pt__arena *scratch,
                        const char **why);

/* The next event's time delta: from the planes, or an inline varint. Does
 * not advance the plane cursor (the caller commits with d->ti++). */
static inline int pt__dec_dt(pt__dec *d, const uint8_t **q, uint64_t *dt) {
  if (d->tb) {
    if (d->ti >= d->tcount) return -1;
    const uint8_t *b = d->tp + d->ti;
    const uint64_t n = d->tcount;
    uint64_t v = b[0];
    switch (d->tb) { /* the common widths unrolled */
      case 1: break;
      case 2: v |= (uint64_t)b[n] << 8; break;
      case 3: v |= (uint64_t)b[n] << 8 | (uint64_t)b[2 * n] << 16; break;
      default:
        for (unsigned j = 1; j < d->tb; j++) v |= (uint64_t)b[j * n] << (8 * j);
    }
    *dt = v;
    return 0;
  }
  return pt__varint_get(q, d->end, dt);
}

/* Decode one item.  Strings point into the payload (they are stored with
 * their NUL); arrays and attribute lists live in the scratch arena.  All
 * are valid until the next decode with the same scratch or until the
 * payload buffer changes.  Return PT_OK, PT_ENOMEM or PT_ECORRUPT (*why). */
int pt__event_get_slow(pt__dec *d, pt_event *ev, const char **why);
static inline int pt__event_get(pt__dec *d, pt_event *ev, const char **why);
int pt__def_get(pt__dec *d, pt_def *def, const char **why);
int pt__summary_get(pt__dec *d, pt_summary *s, const char **why);
int pt__snapshot_get(pt__dec *d, pt_snapshot *s, const char **why);

/* Slot masks by event kind (filled by pt__codec_init). */
extern uint32_t pt__ev_mask[64];

/* The most bytes pt__event_put_plain writes. */
#define PT__EVENT_PLAIN_MAX (1 + 7 * PT_VARINT_MAX)
/* An event without attributes whose kind has no value or text slot (a
 * message, a request, a completion...), given by its fields, encoded as
 * pt__event_put encodes it for the block's current location and without
 * its time (see pt__stream_event_enc): returns its bytes (<=
 * PT__EVENT_PLAIN_MAX), or 0 when the kind is not such a kind.  Needs
 * pt__codec_init. */
static inline size_t pt__event_put_fields(uint8_t *p, uint32_t kind,
                                          uint64_t ref, int64_t peer,
                                          uint64_t comm, int64_t tag,
                                          uint64_t size, uint64_t size2,
                                          uint64_t request) {
  if (kind == PT_EV_INVALID || kind >= PT_EV__COUNT || kind >= 64) return 0;
  uint32_t m = pt__ev_mask[kind];
  if (m & ((1u << PT_ESLOT_VALUE) | (1u << PT_ESLOT_TEXT))) return 0;
  uint8_t *w = p;
  *w++ = (uint8_t)kind;
  if (m & (1u << PT_ESLOT_REF)) w += pt__varint_put(w, ref + 1);
  if (m & (1u << PT_ESLOT_PEER)) w += pt__varint_put(w, pt__zigzag(peer));
  if (m & (1u << PT_ESLOT_COMM)) w += pt__varint_put(w, comm);
  if (m & (1u << PT_ESLOT_TAG)) w += pt__varint_put(w, pt__zigzag(tag));
  if (m & (1u << PT_ESLOT_SIZE)) w += pt__varint_put(w, size);
  if (m & (1u << PT_ESLOT_SIZE2)) w += pt__varint_put(w, size2);
  if (m & (1u << PT_ESLOT_REQUEST)) w += pt__varint_put(w, request);
  return (size_t)(w - p);
}
/* The same for an event without attributes (0 for one with). */
static inline size_t pt__event_put_plain(uint8_t *p, const pt_event *ev) {
  if (ev->nattrs) return 0;
  return pt__event_put_fields(p, ev->kind, ev->ref, ev->peer, ev->comm,
                              ev->tag, ev->size, ev->size2, ev->request);
}

/* The hot path: an event without attributes and without a location change
 * whose kind has only the ref slot (enter, leave...) is decoded inline;
 * everything else goes to pt__event_get_slow. */
static inline int pt__event_get(pt__dec *d, pt_event *ev, const char **why) {
  const uint8_t *p = d->p;
  if (PT_LIKELY(p < d->end)) {
    uint32_t h = *p;
    uint32_t kind = h & PT__EVH_KIND;
    if (PT_LIKELY(!(h & (PT__EVH_LOC | PT__EVH_ATTRS)) && kind < 64 &&
                  pt__ev_mask[kind] == (1u << PT_ESLOT_REF) &&
                  d->prev_loc != PT_NONE)) {
      const uint8_t *q = p + 1;
      uint64_t dt, ref;
      if (PT_LIKELY(pt__dec_dt(d, &q, &dt) == 0 &&
                    pt__varint_get(&q, d->end, &ref) == 0 &&
                    dt <= UINT64_MAX - d->prev_time)) {
        d->p = q;
        d->ti += d->tb != 0;
        ref -= 1; /* references are stored + 1 (PT_NONE -> 0) */
        d->prev_time += dt;
        d->scratch_dirty = 0;
        *ev = (pt_event){.time = d->prev_time,
                         .location = d->prev_loc,
                         .kind = kind,
                         .ref = ref};
        return PT_OK;
      }
    }
  }
  return pt__event_get_slow(d, ev, why);
}

#endif
