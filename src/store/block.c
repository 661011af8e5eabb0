/* PTF block header and item codecs: see block.h and doc/format.md. */
#include "store/block.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- slot masks, cached locally (one load on the hot path) ------------- */

uint32_t pt__ev_mask[64];
#define ev_mask pt__ev_mask
static uint32_t def_mask[64];
static int masks_ready;
static pthread_once_t masks_once = PTHREAD_ONCE_INIT;

static void masks_init(void) {
  for (uint32_t k = 0; k < 64; k++) {
    ev_mask[k] = pt_event_slot_mask(k);
    def_mask[k] = pt_def_slot_mask(k);
  }
  __atomic_store_n(&masks_ready, 1, __ATOMIC_RELEASE);
}

static inline void masks_ensure(void) {
  if (PT_UNLIKELY(!__atomic_load_n(&masks_ready, __ATOMIC_ACQUIRE)))
    pthread_once(&masks_once, masks_init);
}

void pt__codec_init(void) { masks_ensure(); }

#define EM(s) (1u << PT_ESLOT_##s)
#define DM(s) (1u << PT_DSLOT_##s)

/* ---- header ------------------------------------------------------------ */

void pt__blkhdr_write(uint8_t *o, const pt__blkhdr *h) {
  memcpy(o, PT__BLK_MAGIC, 4);
  o[4] = h->type;
  o[5] = h->codec;
  pt__put_u16(o + 6, (uint16_t)PT__BLK_HDR);
  pt__put_u64(o + 8, h->first_ts);
  pt__put_u64(o + 16, h->last_ts);
  pt__put_u64(o + 24, h->count);
  pt__put_u64(o + 32, h->ordinal);
  pt__put_u32(o + 40, h->stored);
  pt__put_u32(o + 44, h->raw);
  pt__put_u32(o + 48, h->pcrc);
  pt__put_u32(o + 52, pt__crc32c(0, o, 52));
}

int pt__blkhdr_parse(const uint8_t *in, pt__blkhdr *h, const char **why) {
  if (memcmp(in, PT__BLK_MAGIC, 4) != 0) {
    *why = "bad block magic";
    return PT_ECORRUPT;
  }
  if (pt__get_u32(in + 52) != pt__crc32c(0, in, 52)) {
    *why = "block header checksum mismatch";
    return PT_ECORRUPT;
  }
  h->type = in[4];
  h->codec = in[5];
  h->hsize = pt__get_u16(in + 6);
  h->first_ts = pt__get_u64(in + 8);
  h->last_ts = pt__get_u64(in + 16);
  h->count = pt__get_u64(in + 24);
  h->ordinal = pt__get_u64(in + 32);
  h->stored = pt__get_u32(in + 40);
  h->raw = pt__get_u32(in + 44);
  h->pcrc = pt__get_u32(in + 48);
  if (h->type < PT__BLK_EVENTS || h->type > PT__BLK_SNAPS) {
    *why = "unknown block type";
    return PT_ECORRUPT;
  }
  if (h->codec > PT__CODEC_ZSTD) {
    *why = "unknown block codec";
    return PT_ECORRUPT;
  }
  if (h->hsize != PT__BLK_HDR) {
    *why = "unsupported block header size";
    return PT_ECORRUPT;
  }
  if (h->raw > PT__BLK_MAX_RAW || h->stored > PT__BLK_MAX_STORED) {
    *why = "block size above the limit";
    return PT_ECORRUPT;
  }
  if (h->codec == PT__CODEC_RAW && h->stored != h->raw) {
    *why = "raw block with stored size != raw size";
    return PT_ECORRUPT;
  }
  if (h->count == 0 || h->count > h->raw) {
    *why = "block item count impossible for its size";
    return PT_ECORRUPT;
  }
  if (h->first_ts > h->last_ts) {
    *why = "block first time after last time";
    return PT_ECORRUPT;
  }
  if (h->ordinal > UINT64_MAX - h->count) {
    *why = "block ordinal overflows";
    return PT_ECORRUPT;
  }
  return PT_OK;
}

int pt__blk_payload(const pt__blkhdr *h, const uint8_t *stored,
                    ZSTD_DCtx *dctx, pt__buf *out, const uint8_t **raw,
                    const char **why) {
  if (pt__crc32c(0, stored, h->stored) != h->pcrc) {
    *why = "block payload checksum mismatch";
    return PT_ECORRUPT;
  }
  if (h->codec == PT__CODEC_RAW) {
    *raw = stored;
    return PT_OK;
  }
  out->len = 0;
  if (pt__buf_reserve(out, (size_t)h->raw + 1)) return PT_ENOMEM;
  size_t r = ZSTD_decompressDCtx(dctx, out->p, h->raw, stored, h->stored);
  if (ZSTD_isError(r)) {
    *why = "zstd decompression failed";
    return PT_ECORRUPT;
  }
  if (r != h->raw) {
    *why = "decompressed size differs from the header";
    return PT_ECORRUPT;
  }
  out->len = r;
  *raw = out->p;
  return PT_OK;
}

int pt__blk_build(pt__blkhdr *h, const uint8_t *raw, size_t n,
                  ZSTD_CCtx *cctx, int level, pt__buf *out) {
  if (n > PT__BLK_MAX_RAW) return PT_ELIMIT;
  size_t bound = ZSTD_compressBound(n);
  out->len = 0;
  if (pt__buf_reserve(out, PT__BLK_HDR + (bound > n ? bound : n)))
    return PT_ENOMEM;
  uint8_t *dst = out->p + PT__BLK_HDR;
  size_t stored = n;
  h->codec = PT__CODEC_RAW;
  if (level >= 0 && cctx && n >= 64) {
    size_t c;
    if (h->type == PT__BLK_EVENTS && level <= PT__EVENTS_WLOG_LEVEL_MAX) {
      /* A 64 KiB window: zstd then cuts the payload into 64 KiB blocks,
       * each with its own literal tables, which fit the parts of an events
       * payload (plane 0, plane 1, the rows) better than 128 KiB ones.  On
       * the benchmark's data (doc/format.md, 3) 2.78 bytes per event
       * instead of 2.87, and 17% fewer instructions to decompress.  At
       * level 1 (and below) also a 2^11-entry match table (8 KiB, in L1
       * cache; zstd's own choice is 2^14): 18% less compression time for
       * 2.82 bytes per event (bench/README.md has the measurements). */
      ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
      if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel,
                                              level ? level : 1)) ||
          ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog,
                                              PT__EVENTS_WLOG)) ||
          (level <= 1 &&
           ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog,
                                               PT__EVENTS_HLOG))))
        return PT_EIO;
      c = ZSTD_compress2(cctx, dst, bound, raw, n);
    } else {
      c = ZSTD_compressCCtx(cctx, dst, bound, raw, n, level ? level : 1);
    }
    if (ZSTD_isError(c)) return PT_EIO;
    if (c < n) {
      stored = c;
      h->codec = PT__CODEC_ZSTD;
    }
  }
  if (h->codec == PT__CODEC_RAW) memcpy(dst, raw, n);
  h->hsize = PT__BLK_HDR;
  h->stored = (uint32_t)stored;
  h->raw = (uint32_t)n;
  h->pcrc = pt__crc32c(0, dst, stored);
  pt__blkhdr_write(out->p, h);
  out->len = PT__BLK_HDR + stored;
  return PT_OK;
}

/* ---- encoders ---------------------------------------------------------- */

static inline size_t put_f64(uint8_t *p, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  pt__put_u64(p, u);
  return 8;
}

/* Strings: varint(len + 1) then the bytes and their NUL; 0 = NULL. */
static inline size_t str_bound(const char *s) {
  return s ? PT_VARINT_MAX + strlen(s) + 1 : 1;
}
static inline size_t put_str(uint8_t *p, const char *s) {
  if (!s) {
    *p = 0;
    return 1;
  }
  size_t n = strlen(s) + 1;
  size_t k = pt__varint_put(p, n);
  memcpy(p + k, s, n);
  return k + n;
}

static size_t value_bound(const pt_value *v) {
  switch (v->type) {
    case PT_TYPE_NONE:
      return 1;
    case PT_TYPE_INT:
    case PT_TYPE_UINT:
      return 1 + PT_VARINT_MAX;
    case PT_TYPE_DOUBLE:
      return 9;
    case PT_TYPE_STRING:
      return 1 + str_bound(v->v.s);
    case PT_TYPE_INTS:
      if (v->count && !v->v.ints) return 0;
      return 1 + PT_VARINT_MAX + (size_t)v->count * PT_VARINT_MAX;
  }
  return 0;
}

static size_t put_value(uint8_t *p, const pt_value *v) {
  uint8_t *w = p;
  *w++ = (uint8_t)v->type;
  switch (v->type) {
    case PT_TYPE_INT:
      w += pt__varint_put(w, pt__zigzag(v->v.i));
      break;
    case PT_TYPE_UINT:
      w += pt__varint_put(w, v->v.u);
      break;
    case PT_TYPE_DOUBLE:
      w += put_f64(w, v->v.d);
      break;
    case PT_TYPE_STRING:
      w += put_str(w, v->v.s);
      break;
    case PT_TYPE_INTS:
      w += pt__varint_put(w, v->count);
      for (uint32_t i = 0; i < v->count; i++)
        w += pt__varint_put(w, pt__zigzag(v->v.ints[i]));
      break;
    default:
      break;
  }
  return (size_t)(w - p);
}

size_t pt__event_bound(const pt_event *ev) {
  if (ev->kind == PT_EV_INVALID || ev->kind >= PT_EV__COUNT) return 0;
  if (ev->location == PT_NONE) return 0;
  masks_ensure();
  uint32_t m = ev_mask[ev->kind];
  size_t n = 1 + 2 * PT_VARINT_MAX + 7 * PT_VARINT_MAX;
  if (m & EM(VALUE)) {
    size_t b = value_bound(&ev->value);
    if (!b) return 0;
    n += b;
  }
  if (m & EM(TEXT)) n += str_bound(ev->text);
  if (ev->nattrs) {
    if (!ev->attrs) return 0;
    n += PT_VARINT_MAX;
    for (uint32_t i = 0; i < ev->nattrs; i++) {
      size_t b = value_bound(&ev->attrs[i].val);
      if (!b) return 0;
      n += PT_VARINT_MAX + b;
    }
  }
  return n;
}

/* What is wrong with a value value_bound refuses, or NULL. */
static const char *value_why(const pt_value *v, char *tmp, size_t n) {
  switch (v->type) {
    case PT_TYPE_INTS:
      if (!v->count || v->v.ints) return NULL;
      snprintf(tmp, n, "an integer array of %u elements whose pointer is "
               "NULL", (unsigned)v->count);
      return tmp;
    default:
      if (v->type < PT_TYPE__COUNT) return NULL;
      snprintf(tmp, n, "value type %u (valid: 0..%d)", (unsigned)v->type,
               PT_TYPE__COUNT - 1);
      return tmp;
  }
}

void pt__event_why(const pt_event *ev, char *buf, size_t n) {
  char tmp[96];
  const char *why;
  if (ev->kind == PT_EV_INVALID || ev->kind >= PT_EV__COUNT) {
    snprintf(buf, n, "event kind %u is not a kind (valid: 1..%d)",
             (unsigned)ev->kind, PT_EV__COUNT - 1);
    return;
  }
  const char *k = pt_event_kind_name(ev->kind);
  if (ev->location == PT_NONE) {
    snprintf(buf, n, "%s event: location is PT_NONE", k);
    return;
  }
  masks_ensure();
  if ((ev_mask[ev->kind] & EM(VALUE)) &&
      (why = value_why(&ev->value, tmp, sizeof tmp))) {
    snprintf(buf, n, "%s event: its value is %s", k, why);
    return;
  }
  if (ev->nattrs && !ev->attrs) {
    snprintf(buf, n, "%s event: nattrs is %u but attrs is NULL", k,
             (unsigned)ev->nattrs);
    return;
  }
  for (uint32_t i = 0; i < ev->nattrs; i++)
    if ((why = value_why(&ev->attrs[i].val, tmp, sizeof tmp))) {
      snprintf(buf, n, "%s event: attribute %u (key %" PRIu64 ") is %s", k,
               (unsigned)i, ev->attrs[i].key, why);
      return;
    }
  snprintf(buf, n, "%s event: invalid", k);
}

size_t pt__event_put(uint8_t *p, const pt_event *ev, uint64_t *prev_time,
                     uint64_t *prev_loc, uint64_t *dt_out) {
  uint8_t *w = p;
  uint32_t m = ev_mask[ev->kind];
  uint8_t h = (uint8_t)ev->kind;
  if (ev->nattrs) h |= PT__EVH_ATTRS;
  if (ev->location != *prev_loc) h |= PT__EVH_LOC;
  *w++ = h;
  if (h & PT__EVH_LOC) {
    w += pt__varint_put(w, ev->location);
    *prev_loc = ev->location;
  }
  if (dt_out)
    *dt_out = ev->time - *prev_time;
  else
    w += pt__varint_put(w, ev->time - *prev_time);
  *prev_time = ev->time;
  if (m & EM(REF)) w += pt__varint_put(w, ev->ref + 1); /* PT_NONE -> 0 */
  if (m & EM(PEER)) w += pt__varint_put(w, pt__zigzag(ev->peer));
  if (m & EM(COMM)) w += pt__varint_put(w, ev->comm);
  if (m & EM(TAG)) w += pt__varint_put(w, pt__zigzag(ev->tag));
  if (m & EM(SIZE)) w += pt__varint_put(w, ev->size);
  if (m & EM(SIZE2)) w += pt__varint_put(w, ev->size2);
  if (m & EM(REQUEST)) w += pt__varint_put(w, ev->request);
  if (m & EM(VALUE)) w += put_value(w, &ev->value);
  if (m & EM(TEXT)) w += put_str(w, ev->text);
  if (ev->nattrs) {
    w += pt__varint_put(w, ev->nattrs);
    for (uint32_t i = 0; i < ev->nattrs; i++) {
      w += pt__varint_put(w, ev->attrs[i].key);
      w += put_value(w, &ev->attrs[i].val);
    }
  }
  return (size_t)(w - p);
}

size_t pt__def_bound(const pt_def *d) {
  if (d->kind == PT_DEF_INVALID || d->kind >= PT_DEF__COUNT) return 0;
  if (d->nmembers && !d->members) return 0;
  if (d->nmembers > (SIZE_MAX / 16) / PT_VARINT_MAX) return 0;
  return 1 + 8 * PT_VARINT_MAX + 8 + str_bound(d->name) + str_bound(d->s1) +
         str_bound(d->s2) + str_bound(d->s3) + PT_VARINT_MAX +
         (size_t)d->nmembers * PT_VARINT_MAX;
}

size_t pt__def_put(uint8_t *p, const pt_def *d) {
  uint8_t *w = p;
  masks_ensure();
  uint32_t m = def_mask[d->kind];
  *w++ = (uint8_t)d->kind;
  if (m & DM(ID)) w += pt__varint_put(w, d->id);
  if (m & DM(PARENT)) w += pt__varint_put(w, d->parent);
  if (m & DM(REF)) w += pt__varint_put(w, d->ref);
  if (m & DM(REF2)) w += pt__varint_put(w, d->ref2);
  if (m & DM(I0)) w += pt__varint_put(w, pt__zigzag(d->i0));
  if (m & DM(I1)) w += pt__varint_put(w, pt__zigzag(d->i1));
  if (m & DM(I2)) w += pt__varint_put(w, pt__zigzag(d->i2));
  if (m & DM(I3)) w += pt__varint_put(w, pt__zigzag(d->i3));
  if (m & DM(D0)) w += put_f64(w, d->d0);
  if (m & DM(NAME)) w += put_str(w, d->name);
  if (m & DM(S1)) w += put_str(w, d->s1);
  if (m & DM(S2)) w += put_str(w, d->s2);
  if (m & DM(S3)) w += put_str(w, d->s3);
  if (m & DM(MEMBERS)) {
    w += pt__varint_put(w, d->nmembers);
    for (uint64_t i = 0; i < d->nmembers; i++)
      w += pt__varint_put(w, d->members[i]);
  }
  return (size_t)(w - p);
}

size_t pt__summary_put(uint8_t *p, const pt_summary *s, uint64_t *prev_time) {
  uint8_t *w = p;
  w += pt__varint_put(w, s->time - *prev_time);
  *prev_time = s->time;
  w += pt__varint_put(w, s->location);
  w += pt__varint_put(w, s->kind);
  w += pt__varint_put(w, s->ref);
  w += pt__varint_put(w, s->count);
  w += pt__varint_put(w, s->incl_time);
  w += pt__varint_put(w, s->excl_time);
  w += pt__varint_put(w, s->bytes_sent);
  w += pt__varint_put(w, s->bytes_recv);
  return (size_t)(w - p);
}

size_t pt__snapshot_bound(const pt_snapshot *s) {
  size_t b = pt__event_bound(&s->event);
  return b ? b + 2 * PT_VARINT_MAX : 0;
}

size_t pt__snapshot_put(uint8_t *p, const pt_snapshot *s, uint64_t *prev_time) {
  uint8_t *w = p;
  w += pt__varint_put(w, s->time - *prev_time);
  *prev_time = s->time;
  w += pt__varint_put(w, s->location);
  /* The embedded event is self-contained: absolute time, explicit location. */
  uint64_t t0 = 0, l0 = PT_NONE;
  w += pt__event_put(w, &s->event, &t0, &l0, NULL);
  return (size_t)(w - p);
}

/* ---- decoders ---------------------------------------------------------- */

#define GETV(d, out, what)                                 \
  do {                                                     \
    if (PT_UNLIKELY(pt__varint_get(&(d)->p, (d)->end, &(out)))) { \
      *why = "truncated or overlong varint in " what;      \
      return PT_ECORRUPT;                                  \
    }                                                      \
  } while (0)

static int get_str(pt__dec *d, const char **out, const char **why) {
  uint64_t n;
  GETV(d, n, "string length");
  if (n == 0) {
    *out = NULL;
    return PT_OK;
  }
  if (n > (uint64_t)(d->end - d->p)) {
    *why = "string runs past the end of the block";
    return PT_ECORRUPT;
  }
  if (d->p[n - 1] != 0) {
    *why = "string without its terminating NUL";
    return PT_ECORRUPT;
  }
  *out = (const char *)d->p;
  d->p += n;
  return PT_OK;
}

static int get_f64(pt__dec *d, double *out, const char **why) {
  if (d->end - d->p < 8) {
    *why = "double runs past the end of the block";
    return PT_ECORRUPT;
  }
  uint64_t u = pt__get_u64(d->p);
  memcpy(out, &u, 8);
  d->p += 8;
  return PT_OK;
}

static void *scratch_alloc(pt__dec *d, size_t n) {
  if (!d->scratch_dirty) {
    pt__arena_reset(d->scratch);
    d->scratch_dirty = 1;
  }
  return pt__arena_alloc(d->scratch, n);
}

static int get_value(pt__dec *d, pt_value *v, const char **why) {
  if (d->p >= d->end) {
    *why = "value type past the end of the block";
    return PT_ECORRUPT;
  }
  uint64_t u;
  v->count = 0;
  v->v.u = 0;
  v->type = *d->p++;
  switch (v->type) {
    case PT_TYPE_NONE:
      return PT_OK;
    case PT_TYPE_INT:
      GETV(d, u, "int value");
      v->v.i = pt__unzigzag(u);
      return PT_OK;
    case PT_TYPE_UINT:
      GETV(d, v->v.u, "uint value");
      return PT_OK;
    case PT_TYPE_DOUBLE:
      return get_f64(d, &v->v.d, why);
    case PT_TYPE_STRING:
      return get_str(d, &v->v.s, why);
    case PT_TYPE_INTS: {
      uint64_t n;
      GETV(d, n, "int array length");
      if (n > (uint64_t)(d->end - d->p) || n > UINT32_MAX) {
        *why = "int array longer than the block";
        return PT_ECORRUPT;
      }
      v->count = (uint32_t)n;
      v->v.ints = NULL;
      if (!n) return PT_OK;
      int64_t *a = scratch_alloc(d, (size_t)n * sizeof *a);
      if (!a) return PT_ENOMEM;
      for (uint64_t i = 0; i < n; i++) {
        GETV(d, u, "int array");
        a[i] = pt__unzigzag(u);
      }
      v->v.ints = a;
      return PT_OK;
    }
    default:
      *why = "unknown value type";
      return PT_ECORRUPT;
  }
}

int pt__event_get_slow(pt__dec *d, pt_event *ev, const char **why) {
  d->scratch_dirty = 0;
  if (PT_UNLIKELY(d->p >= d->end)) {
    *why = "event past the end of the block";
    return PT_ECORRUPT;
  }
  uint8_t h = *d->p++;
  uint32_t kind = h & PT__EVH_KIND;
  if (PT_UNLIKELY(kind == 0 || kind >= PT_EV__COUNT)) {
    *why = "unknown event kind";
    return PT_ECORRUPT;
  }
  uint32_t m = ev_mask[kind];
  uint64_t u;
  if (h & PT__EVH_LOC) {
    GETV(d, d->prev_loc, "location");
    if (d->prev_loc == PT_NONE) {
      *why = "event location is the reserved id";
      return PT_ECORRUPT;
    }
  } else if (PT_UNLIKELY(d->prev_loc == PT_NONE)) {
    *why = "first event of a block without a location";
    return PT_ECORRUPT;
  }
  if (d->tb) {
    if (pt__dec_dt(d, &d->p, &u)) {
      *why = "more events than time deltas";
      return PT_ECORRUPT;
    }
    d->ti++;
  } else {
    GETV(d, u, "time");
  }
  if (PT_UNLIKELY(u > UINT64_MAX - d->prev_time)) {
    *why = "time delta overflows";
    return PT_ECORRUPT;
  }
  d->prev_time += u;
  pt__event_blank(ev, d->prev_time, d->prev_loc, kind, 0);
  if (m & EM(REF)) {
    GETV(d, ev->ref, "event");
    ev->ref -= 1; /* stored + 1 */
  }
  if (m & (EM(PEER) | EM(COMM) | EM(TAG) | EM(SIZE) | EM(SIZE2))) {
    if (m & EM(PEER)) {
      GETV(d, u, "event");
      ev->peer = pt__unzigzag(u);
    }
    if (m & EM(COMM)) GETV(d, ev->comm, "event");
    if (m & EM(TAG)) {
      GETV(d, u, "event");
      ev->tag = pt__unzigzag(u);
    }
    if (m & EM(SIZE)) GETV(d, ev->size, "event");
    if (m & EM(SIZE2)) GETV(d, ev->size2, "event");
  }
  if (m & EM(REQUEST)) GETV(d, ev->request, "event");
  if (m & (EM(VALUE) | EM(TEXT))) {
    int rc;
    if ((m & EM(VALUE)) && (rc = get_value(d, &ev->value, why))) return rc;
    if ((m & EM(TEXT)) && (rc = get_str(d, &ev->text, why))) return rc;
  }
  if (h & PT__EVH_ATTRS) {
    uint64_t n;
    GETV(d, n, "attribute count");
    /* Each attribute takes at least two bytes (key, type). */
    if (n == 0 || n > (uint64_t)(d->end - d->p) / 2) {
      *why = "attribute count impossible for the block";
      return PT_ECORRUPT;
    }
    pt_attr *a = scratch_alloc(d, (size_t)n * sizeof *a);
    if (!a) return PT_ENOMEM;
    for (uint64_t i = 0; i < n; i++) {
      GETV(d, a[i].key, "attribute key");
      int rc = get_value(d, &a[i].val, why);
      if (rc) return rc;
    }
    ev->nattrs = (uint32_t)n;
    ev->attrs = a;
  }
  return PT_OK;
}

int pt__def_get(pt__dec *d, pt_def *def, const char **why) {
  d->scratch_dirty = 0;
  masks_ensure();
  if (d->p >= d->end) {
    *why = "definition past the end of the block";
    return PT_ECORRUPT;
  }
  uint32_t kind = *d->p++;
  if (kind == PT_DEF_INVALID || kind >= PT_DEF__COUNT) {
    *why = "unknown definition kind";
    return PT_ECORRUPT;
  }
  uint32_t m = def_mask[kind];
  uint64_t u;
  int rc;
  memset(def, 0, sizeof *def);
  def->kind = kind;
  if (m & DM(ID)) GETV(d, def->id, "definition");
  if (m & DM(PARENT)) GETV(d, def->parent, "definition");
  if (m & DM(REF)) GETV(d, def->ref, "definition");
  if (m & DM(REF2)) GETV(d, def->ref2, "definition");
  if (m & DM(I0)) { GETV(d, u, "definition"); def->i0 = pt__unzigzag(u); }
  if (m & DM(I1)) { GETV(d, u, "definition"); def->i1 = pt__unzigzag(u); }
  if (m & DM(I2)) { GETV(d, u, "definition"); def->i2 = pt__unzigzag(u); }
  if (m & DM(I3)) { GETV(d, u, "definition"); def->i3 = pt__unzigzag(u); }
  if ((m & DM(D0)) && (rc = get_f64(d, &def->d0, why))) return rc;
  if ((m & DM(NAME)) && (rc = get_str(d, &def->name, why))) return rc;
  if ((m & DM(S1)) && (rc = get_str(d, &def->s1, why))) return rc;
  if ((m & DM(S2)) && (rc = get_str(d, &def->s2, why))) return rc;
  if ((m & DM(S3)) && (rc = get_str(d, &def->s3, why))) return rc;
  if (m & DM(MEMBERS)) {
    uint64_t n;
    GETV(d, n, "member count");
    if (n > (uint64_t)(d->end - d->p)) {
      *why = "member count longer than the block";
      return PT_ECORRUPT;
    }
    if (n) {
      uint64_t *a = scratch_alloc(d, (size_t)n * sizeof *a);
      if (!a) return PT_ENOMEM;
      for (uint64_t i = 0; i < n; i++) GETV(d, a[i], "members");
      def->members = a;
      def->nmembers = n;
    }
  }
  return PT_OK;
}

int pt__summary_get(pt__dec *d, pt_summary *s, const char **why) {
  uint64_t u;
  memset(s, 0, sizeof *s);
  GETV(d, u, "summary time");
  if (u > UINT64_MAX - d->prev_time) {
    *why = "time delta overflows";
    return PT_ECORRUPT;
  }
  d->prev_time += u;
  s->time = d->prev_time;
  GETV(d, s->location, "summary");
  GETV(d, u, "summary");
  if (u > UINT32_MAX) {
    *why = "summary kind out of range";
    return PT_ECORRUPT;
  }
  s->kind = (uint32_t)u;
  GETV(d, s->ref, "summary");
  GETV(d, s->count, "summary");
  GETV(d, s->incl_time, "summary");
  GETV(d, s->excl_time, "summary");
  GETV(d, s->bytes_sent, "summary");
  GETV(d, s->bytes_recv, "summary");
  return PT_OK;
}

int pt__snapshot_get(pt__dec *d, pt_snapshot *s, const char **why) {
  uint64_t u;
  GETV(d, u, "snapshot time");
  if (u > UINT64_MAX - d->prev_time) {
    *why = "time delta overflows";
    return PT_ECORRUPT;
  }
  d->prev_time += u;
  s->time = d->prev_time;
  GETV(d, s->location, "snapshot");
  uint64_t pt = d->prev_time, pl = d->prev_loc;
  d->prev_time = 0;
  d->prev_loc = PT_NONE;
  int rc = pt__event_get(d, &s->event, why);
  d->prev_time = pt;
  d->prev_loc = pl;
  return rc;
}

int pt__dec_init_events(pt__dec *d, const uint8_t *p, size_t n,
                        uint64_t first_ts, uint64_t count, pt__arena *scratch,
                        const char **why) {
  pt__dec_init(d, p, n, first_ts, scratch);
  if (count == 0) return 0;
  if (n < 1 || p[0] < 1 || p[0] > 8) {
    *why = "bad width of the time-delta planes";
    return PT_ECORRUPT;
  }
  unsigned tb = p[0];
  if (count > (n - 1) / tb) {
    *why = "time-delta planes longer than the block";
    return PT_ECORRUPT;
  }
  d->tb = tb;
  d->tp = p + 1;
  d->tcount = count;
  d->p = p + 1 + (size_t)tb * count;
  return 0;
}
