/* The `text` format: a lossless, line-oriented text form of every item of
 * the model, one item per line.  The grammar is doc/text-format.md.
 *
 * Slot keys come from the model's tables (pt_event_slot_name /
 * pt_def_slot_name); the C type of each slot, and so how it is written and
 * read, comes from the struct field itself through _Generic over the
 * PT_EVENT_SLOTS / PT_DEF_SLOTS X-macros.  Nothing here lists kinds by hand.
 *
 * Sink: hand-rolled number formatting into a 1 MiB buffer, one write() per
 * buffer.  Source: reads the file in chunks, one line at a time, with memory
 * bounded by the longest line allowed (max_line); every error names the
 * file, line and column.
 */
#include "formats/text.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TX_MAGIC "# paratrace text "
#define TX_OUTBUF ((size_t)1 << 16) /* sink buffer: a write() per 64 KiB */
#define TX_CHUNK ((size_t)1 << 20)  /* source read size */
#define TX_NUMTOK 64                /* longest number token */

/* ---------------------------------------------------------------------- */
/* Slot tables, generated from the model's X-macros                       */
/* ---------------------------------------------------------------------- */

enum { FT_U64, FT_I64, FT_DBL, FT_STR, FT_VAL, FT_LIST };

#define FT_OF(e)                                                       \
  _Generic((e), uint64_t: FT_U64, int64_t: FT_I64, double: FT_DBL,     \
           const char *: FT_STR, pt_value: FT_VAL,                     \
           const uint64_t *: FT_LIST)

typedef struct slot_info {
  unsigned short off;
  unsigned char type;
} slot_info;

static const slot_info ev_slot[PT_ESLOT__COUNT] = {
#define EV_SLOT_INFO(NAME, field) \
  [PT_ESLOT_##NAME] = {offsetof(pt_event, field), FT_OF(((pt_event *)0)->field)},
    PT_EVENT_SLOTS(EV_SLOT_INFO)
#undef EV_SLOT_INFO
};

static const slot_info def_slot[PT_DSLOT__COUNT] = {
#define DEF_SLOT_INFO(NAME, field) \
  [PT_DSLOT_##NAME] = {offsetof(pt_def, field), FT_OF(((pt_def *)0)->field)},
    PT_DEF_SLOTS(DEF_SLOT_INFO)
#undef DEF_SLOT_INFO
};

/* Summary kinds and fields: the text form's own names. */
#define TX_SUMMARY_KINDS(X)                                                \
  X(REGION, "region") X(MESSAGES, "messages") X(LABEL, "label")           \
  X(COLLECTIVE, "collective") X(IO, "io") X(VISITS, "visits")            \
  X(SPAN, "span") X(CALLSITE, "callsite")                                \
  X(CALLSITE_MSGS, "callsite_msgs") X(LATE, "late") X(PENDING, "pending")  \
  X(POSTED, "posted") X(CALL_OPEN, "call_open") X(APP_SPAN, "app_span")   \
  X(RMA, "rma") X(CALL_VISITS, "call_visits")

#define TX_SUMMARY_FIELDS(X)                                               \
  X(ref, "ref") X(count, "count") X(incl_time, "incl")                    \
  X(excl_time, "excl") X(bytes_sent, "sent") X(bytes_recv, "recv")

static const struct {
  uint32_t kind;
  const char *name;
} sum_kinds[] = {
#define SUM_KIND(NAME, text) {PT_SUM_##NAME, text},
    TX_SUMMARY_KINDS(SUM_KIND)
#undef SUM_KIND
};
enum { NSUM_KINDS = sizeof sum_kinds / sizeof sum_kinds[0] };

static const struct {
  unsigned short off;
  const char *name;
} sum_fields[] = {
#define SUM_FIELD(field, text) {offsetof(pt_summary, field), text},
    TX_SUMMARY_FIELDS(SUM_FIELD)
#undef SUM_FIELD
};
enum { NSUM_FIELDS = sizeof sum_fields / sizeof sum_fields[0] };

static const char *sum_kind_name(uint32_t kind) {
  for (size_t i = 0; i < NSUM_KINDS; i++)
    if (sum_kinds[i].kind == kind) return sum_kinds[i].name;
  return NULL;
}

/* The C locale for strtod/snprintf of doubles, whatever the program set. */
static locale_t c_locale(void) {
  static locale_t loc;
  locale_t l = __atomic_load_n(&loc, __ATOMIC_ACQUIRE);
  if (l) return l;
  l = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (!l) return (locale_t)0;
  locale_t expect = (locale_t)0;
  if (!__atomic_compare_exchange_n(&loc, &expect, l, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    freelocale(l);
    l = expect;
  }
  return l;
}

/* Canonical NaNs get short names; any other NaN is written by its bits. */
#define TX_NAN_BITS UINT64_C(0x7ff8000000000000)
#define TX_NEG_NAN_BITS UINT64_C(0xfff8000000000000)

/* ====================================================================== */
/* Sink                                                                   */
/* ====================================================================== */

typedef struct kind_keys {
  unsigned char n;               /* slots used */
  unsigned char slot[16];        /* in codec order */
  unsigned char len[16];         /* strlen of key */
  const char *key[16];           /* static names from the model */
  unsigned char name_len;
} kind_keys;

typedef struct tx_sink {
  int fd, own_fd;
  char *path;
  char *buf;
  size_t len;
  int ioerr; /* errno of the first failed write, 0 = none */
  uint64_t nflush; /* buffers written so far */
  kind_keys ev[PT_EV__COUNT];
  kind_keys def[PT_DEF__COUNT];
  char err[512];
} tx_sink;

static void out_flush(tx_sink *k) {
  if (k->len && !k->ioerr && pt__write_all(k->fd, k->buf, k->len) != 0)
    k->ioerr = errno ? errno : EIO;
  k->len = 0;
  k->nflush++;
}

/* Room for n more bytes (n <= TX_OUTBUF); flushes when needed.  A failed
 * write is remembered in ioerr and reported by sink_write. */
static inline char *out_reserve(tx_sink *k, size_t n) {
  if (PT_UNLIKELY(TX_OUTBUF - k->len < n)) out_flush(k);
  return k->buf + k->len;
}

static inline void out_commit(tx_sink *k, char *o) {
  k->len = (size_t)(o - k->buf);
}

static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536"
    "37383940414243444546474849505152535455565758596061626364656667686970717273"
    "7475767778798081828384858687888990919293949596979899";

/* Decimal digits of v at o; returns the end.  At most 20 bytes. */
static inline char *put_u64(char *o, uint64_t v) {
  char tmp[24];
  char *t = tmp + sizeof tmp;
  while (v >= 100) {
    unsigned d = (unsigned)(v % 100) * 2;
    v /= 100;
    *--t = digits2[d + 1];
    *--t = digits2[d];
  }
  if (v >= 10) {
    unsigned d = (unsigned)v * 2;
    *--t = digits2[d + 1];
    *--t = digits2[d];
  } else {
    *--t = (char)('0' + v);
  }
  size_t n = (size_t)(tmp + sizeof tmp - t);
  memcpy(o, t, n);
  return o + n;
}

static inline char *put_i64(char *o, int64_t v) {
  if (v < 0) {
    *o++ = '-';
    return put_u64(o, (uint64_t)0 - (uint64_t)v);
  }
  return put_u64(o, (uint64_t)v);
}

/* Unsigned slot values: PT_NONE is written "none". */
static inline char *put_ref(char *o, uint64_t v) {
  if (v == PT_NONE) {
    memcpy(o, "none", 4);
    return o + 4;
  }
  return put_u64(o, v);
}

static char *put_hex64(char *o, uint64_t v) {
  static const char hx[] = "0123456789abcdef";
  *o++ = '0';
  *o++ = 'x';
  for (int s = 60; s >= 0; s -= 4) *o++ = hx[(v >> s) & 15];
  return o;
}

/* A double that reads back bit for bit: the shortest of %.15g..%.17g that
 * round-trips; inf, -inf, nan, -nan; other NaNs as nan:0x<bits>.  At most
 * 32 bytes. */
static char *put_double(char *o, double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  if (isnan(d)) {
    if (bits == TX_NAN_BITS) {
      memcpy(o, "nan", 3);
      return o + 3;
    }
    if (bits == TX_NEG_NAN_BITS) {
      memcpy(o, "-nan", 4);
      return o + 4;
    }
    memcpy(o, "nan:", 4);
    return put_hex64(o + 4, bits);
  }
  if (isinf(d)) {
    if (d < 0) *o++ = '-';
    memcpy(o, "inf", 3);
    return o + 3;
  }
  if (d == 0) { /* keeps the sign of -0 */
    if (bits >> 63) *o++ = '-';
    *o++ = '0';
    return o;
  }
  if (fabs(d) < 1e15 && d == (double)(int64_t)d) /* common: integral */
    return put_i64(o, (int64_t)d);
  char tmp[40];
  locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
  int n = 0;
  /* For normal numbers a decimal of <= 15 digits that reads back as d is
   * what %.15g prints; subnormals carry fewer digits, so search upward. */
  for (int prec = fabs(d) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
    n = snprintf(tmp, sizeof tmp, "%.*g", prec, d);
    if (prec == 17 || strtod(tmp, NULL) == d) break;
  }
  if (loc) uselocale(old);
  if (n < 0 || n >= (int)sizeof tmp) n = 0;
  memcpy(o, tmp, (size_t)n);
  return o + n;
}

/* A quoted string with escapes: \" \\ \n \t \r, \xHH for other control
 * bytes and for bytes that are not part of valid UTF-8. */
static void put_qstr(tx_sink *k, const char *s) {
  static const char hx[] = "0123456789abcdef";
  const unsigned char *p = (const unsigned char *)s;
  const unsigned char *e = p + strlen(s);
  char *o = out_reserve(k, 1);
  *o++ = '"';
  out_commit(k, o);
  while (p < e) {
    size_t chunk = (size_t)(e - p) < 4096 ? (size_t)(e - p) : 4096;
    const unsigned char *ce = p + chunk;
    o = out_reserve(k, 4 * chunk + 8);
    while (p < ce) {
      unsigned c = *p;
      if (c >= 0x20 && c < 0x7f) {
        if (c == '"' || c == '\\') *o++ = '\\';
        *o++ = (char)c;
        p++;
      } else if (c >= 0x80) {
        size_t n = pt__utf8_len(p); /* e is the NUL */
        if (n) {
          memcpy(o, p, n); /* may run up to 3 bytes past ce: slack 8 */
          o += n;
          p += n;
        } else {
          *o++ = '\\';
          *o++ = 'x';
          *o++ = hx[c >> 4];
          *o++ = hx[c & 15];
          p++;
        }
      } else {
        *o++ = '\\';
        if (c == '\n') *o++ = 'n';
        else if (c == '\t') *o++ = 't';
        else if (c == '\r') *o++ = 'r';
        else {
          *o++ = 'x';
          *o++ = hx[c >> 4];
          *o++ = hx[c & 15];
        }
        p++;
      }
    }
    out_commit(k, o);
  }
  o = out_reserve(k, 1);
  *o++ = '"';
  out_commit(k, o);
}

/* [a,b,c] of unsigned (refs) or signed values. */
static void put_list(tx_sink *k, const void *vals, uint64_t n, int is_signed) {
  char *o = out_reserve(k, 1);
  *o++ = '[';
  out_commit(k, o);
  for (uint64_t i = 0; i < n; i++) {
    o = out_reserve(k, 24);
    if (i) *o++ = ',';
    if (is_signed) o = put_i64(o, ((const int64_t *)vals)[i]);
    else o = put_ref(o, ((const uint64_t *)vals)[i]);
    out_commit(k, o);
  }
  o = out_reserve(k, 1);
  *o++ = ']';
  out_commit(k, o);
}

/* A typed value: "none" or TYPE:PAYLOAD (i:-1 u:2 d:0.5 s:"x" ia:[1,2]). */
static int put_value(tx_sink *k, const pt_value *v) {
  const char *tn = pt_type_name(v->type);
  if (!tn) return -1;
  size_t tl = strlen(tn);
  char *o = out_reserve(k, tl + 48);
  memcpy(o, tn, tl);
  o += tl;
  if (v->type == PT_TYPE_NONE) {
    out_commit(k, o);
    return 0;
  }
  *o++ = ':';
  switch (v->type) {
    case PT_TYPE_INT: o = put_i64(o, v->v.i); break;
    case PT_TYPE_UINT: o = put_u64(o, v->v.u); break;
    case PT_TYPE_DOUBLE: o = put_double(o, v->v.d); break;
    default: break;
  }
  out_commit(k, o);
  if (v->type == PT_TYPE_STRING) {
    if (!v->v.s) { /* a string value with no string (PTF keeps it) */
      o = out_reserve(k, 4);
      memcpy(o, "none", 4);
      out_commit(k, o + 4);
    } else {
      put_qstr(k, v->v.s);
    }
  } else if (v->type == PT_TYPE_INTS) {
    if (v->count && !v->v.ints) return -1;
    put_list(k, v->v.ints, v->count, 1);
  }
  return 0;
}

static void init_keys(kind_keys *kk, const char *name,
                      const char *(*slot_name)(uint32_t, unsigned),
                      uint32_t kind, unsigned nslots) {
  kk->n = 0;
  kk->name_len = (unsigned char)strlen(name);
  for (unsigned s = 0; s < nslots; s++) {
    const char *key = slot_name(kind, s);
    if (!key) continue;
    kk->slot[kk->n] = (unsigned char)s;
    kk->key[kk->n] = key;
    kk->len[kk->n] = (unsigned char)strlen(key);
    kk->n++;
  }
}

static int sink_fail(tx_sink *k, int status, const char *fmt, ...)
    PT_PRINTF(3, 4);
static int sink_fail(tx_sink *k, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(k->err, sizeof k->err, "%s: ", k->path);
  if (n < 0 || (size_t)n >= sizeof k->err) n = 0;
  vsnprintf(k->err + n, sizeof k->err - (size_t)n, fmt, ap);
  va_end(ap);
  return status;
}

static int tx_sink_open(void **st, const char *path, const pt_sink_opts *o,
                        pt_error *err) {
  (void)o;
  *st = NULL;
  tx_sink *k = calloc(1, sizeof *k);
  if (!k) return pt__err(err, PT_ENOMEM, "%s: out of memory", path);
  k->buf = malloc(TX_OUTBUF);
  /* the output in messages: "stdout" for "-" */
  k->path = strdup(strcmp(path, "-") == 0 ? "stdout" : path);
  if (!k->buf || !k->path) {
    free(k->buf);
    free(k->path);
    free(k);
    return pt__err(err, PT_ENOMEM, "%s: out of memory", path);
  }
  if (strcmp(path, "-") == 0) {
    k->fd = 1;
  } else {
    k->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (k->fd < 0) {
      int e = errno;
      free(k->buf);
      free(k->path);
      free(k);
      return pt__err(err, PT_EIO, "%s: cannot create: %s", path, strerror(e));
    }
    k->own_fd = 1;
  }
  for (uint32_t kind = 1; kind < PT_EV__COUNT; kind++)
    init_keys(&k->ev[kind], pt_event_kind_name(kind), pt_event_slot_name, kind,
              PT_ESLOT__COUNT);
  for (uint32_t kind = 1; kind < PT_DEF__COUNT; kind++)
    init_keys(&k->def[kind], pt_def_kind_name(kind), pt_def_slot_name, kind,
              PT_DSLOT__COUNT);
  char *p = out_reserve(k, 64);
  int n = snprintf(p, 64, TX_MAGIC "%d\n", PT_TEXT_VERSION);
  out_commit(k, p + n);
  *st = k;
  return PT_OK;
}

/* " key=" */
static inline char *put_key(char *o, const kind_keys *kk, unsigned i) {
  *o++ = ' ';
  memcpy(o, kk->key[i], kk->len[i]);
  o += kk->len[i];
  *o++ = '=';
  return o;
}

/* "TIME LOC KIND slot=... {attrs}" without a newline. */
static int put_event_body(tx_sink *k, const pt_event *ev) {
  if (ev->kind == PT_EV_INVALID || ev->kind >= PT_EV__COUNT)
    return sink_fail(k, PT_EINVAL, "event of unknown kind %u at time %llu",
                     (unsigned)ev->kind, (unsigned long long)ev->time);
  const kind_keys *kk = &k->ev[ev->kind];
  /* Numbers: every slot the kind uses, 16 keys of < 32 + 21 bytes. */
  char *o = out_reserve(k, 64 + 16 * 56);
  o = put_u64(o, ev->time);
  *o++ = ' ';
  o = put_u64(o, ev->location);
  *o++ = ' ';
  memcpy(o, pt_event_kind_name(ev->kind), kk->name_len);
  o += kk->name_len;
  for (unsigned i = 0; i < kk->n; i++) {
    const slot_info *si = &ev_slot[kk->slot[i]];
    const char *f = (const char *)ev + si->off;
    if (si->type == FT_U64) {
      uint64_t v;
      memcpy(&v, f, sizeof v);
      o = put_ref(put_key(o, kk, i), v);
    } else if (si->type == FT_I64) {
      int64_t v;
      memcpy(&v, f, sizeof v);
      o = put_i64(put_key(o, kk, i), v);
    } else if (si->type == FT_STR) {
      const char *s;
      memcpy(&s, f, sizeof s);
      if (!s) continue;
      out_commit(k, put_key(o, kk, i));
      put_qstr(k, s);
      o = out_reserve(k, 16 * 56);
    } else if (si->type == FT_VAL) {
      const pt_value *v = (const pt_value *)(const void *)f;
      if (v->type == PT_TYPE_NONE) continue;
      out_commit(k, put_key(o, kk, i));
      if (put_value(k, v))
        return sink_fail(k, PT_EINVAL, "event at time %llu: bad value",
                         (unsigned long long)ev->time);
      o = out_reserve(k, 16 * 56);
    }
  }
  out_commit(k, o);
  if (ev->nattrs) {
    if (!ev->attrs)
      return sink_fail(k, PT_EINVAL, "event at time %llu: attrs is NULL",
                       (unsigned long long)ev->time);
    o = out_reserve(k, 2);
    *o++ = ' ';
    *o++ = '{';
    out_commit(k, o);
    for (uint32_t a = 0; a < ev->nattrs; a++) {
      o = out_reserve(k, 24);
      if (a) *o++ = ' ';
      o = put_u64(o, ev->attrs[a].key);
      *o++ = '=';
      out_commit(k, o);
      if (put_value(k, &ev->attrs[a].val))
        return sink_fail(k, PT_EINVAL,
                         "event at time %llu: attribute %u has a bad value",
                         (unsigned long long)ev->time, (unsigned)a);
    }
    o = out_reserve(k, 1);
    *o++ = '}';
    out_commit(k, o);
  }
  return PT_OK;
}

static int put_def(tx_sink *k, const pt_def *d) {
  if (d->kind == PT_DEF_INVALID || d->kind >= PT_DEF__COUNT)
    return sink_fail(k, PT_EINVAL, "definition of unknown kind %u",
                     (unsigned)d->kind);
  const kind_keys *kk = &k->def[d->kind];
  char *o = out_reserve(k, 64 + 16 * 64);
  memcpy(o, "def", 3);
  o += 3;
  if (d->scope) {
    *o++ = '@';
    o = put_u64(o, d->scope - 1);
  }
  *o++ = ' ';
  memcpy(o, pt_def_kind_name(d->kind), kk->name_len);
  o += kk->name_len;
  for (unsigned i = 0; i < kk->n; i++) {
    unsigned slot = kk->slot[i];
    const slot_info *si = &def_slot[slot];
    const char *f = (const char *)d + si->off;
    if (si->type == FT_U64) {
      uint64_t v;
      memcpy(&v, f, sizeof v);
      if (v || slot == PT_DSLOT_ID) o = put_ref(put_key(o, kk, i), v);
    } else if (si->type == FT_I64) {
      int64_t v;
      memcpy(&v, f, sizeof v);
      if (v) o = put_i64(put_key(o, kk, i), v);
    } else if (si->type == FT_DBL) {
      double v;
      memcpy(&v, f, sizeof v);
      uint64_t bits;
      memcpy(&bits, &v, sizeof bits);
      if (bits) o = put_double(put_key(o, kk, i), v);
    } else if (si->type == FT_STR) {
      const char *s;
      memcpy(&s, f, sizeof s);
      if (!s) continue;
      out_commit(k, put_key(o, kk, i));
      put_qstr(k, s);
      o = out_reserve(k, 16 * 64);
    } else if (si->type == FT_LIST) {
      if (!d->nmembers) continue;
      if (!d->members)
        return sink_fail(k, PT_EINVAL, "definition %s %llu: members is NULL",
                         pt_def_kind_name(d->kind), (unsigned long long)d->id);
      out_commit(k, put_key(o, kk, i));
      put_list(k, d->members, d->nmembers, 0);
      o = out_reserve(k, 16 * 64);
    }
  }
  out_commit(k, o);
  return PT_OK;
}

static int put_summary(tx_sink *k, const pt_summary *s) {
  const char *kn = sum_kind_name(s->kind);
  if (!kn)
    return sink_fail(k, PT_EINVAL, "summary of unknown kind %u",
                     (unsigned)s->kind);
  char *o = out_reserve(k, 64 + NSUM_FIELDS * 32);
  memcpy(o, "summary ", 8);
  o = put_u64(o + 8, s->time);
  *o++ = ' ';
  o = put_u64(o, s->location);
  *o++ = ' ';
  size_t kl = strlen(kn);
  memcpy(o, kn, kl);
  o += kl;
  for (size_t i = 0; i < NSUM_FIELDS; i++) {
    uint64_t v;
    memcpy(&v, (const char *)s + sum_fields[i].off, sizeof v);
    *o++ = ' ';
    size_t nl = strlen(sum_fields[i].name);
    memcpy(o, sum_fields[i].name, nl);
    o += nl;
    *o++ = '=';
    o = put_ref(o, v);
  }
  out_commit(k, o);
  return PT_OK;
}

static int tx_sink_write(void *st, const pt_item *item) {
  tx_sink *k = st;
  int rc = PT_OK;
  char *o;
  size_t start = k->len;
  uint64_t nflush = k->nflush;
  switch (item->type) {
    case PT_ITEM_EVENT:
      o = out_reserve(k, 6);
      memcpy(o, "event ", 6);
      out_commit(k, o + 6);
      rc = put_event_body(k, &item->u.event);
      break;
    case PT_ITEM_DEF:
      rc = put_def(k, &item->u.def);
      break;
    case PT_ITEM_SUMMARY:
      rc = put_summary(k, &item->u.summary);
      break;
    case PT_ITEM_SNAPSHOT:
      o = out_reserve(k, 64);
      memcpy(o, "snapshot ", 9);
      o = put_u64(o + 9, item->u.snapshot.time);
      *o++ = ' ';
      o = put_u64(o, item->u.snapshot.location);
      memcpy(o, " event ", 7);
      out_commit(k, o + 7);
      rc = put_event_body(k, &item->u.snapshot.event);
      break;
    case PT_ITEM_STREAM:
      o = out_reserve(k, 64);
      memcpy(o, "stream ", 7);
      o = put_u64(o + 7, item->u.stream.stream);
      memcpy(o, " location=", 10);
      o = put_u64(o + 10, item->u.stream.location);
      out_commit(k, o);
      break;
    default:
      return sink_fail(k, PT_EINVAL, "item of unknown type %u",
                       (unsigned)item->type);
  }
  if (rc < 0) {
    /* Drop the partial line of a refused item if it is still buffered (a
     * line longer than the buffer may be out already; callers abort the
     * output after an error anyway). */
    if (k->nflush == nflush) k->len = start;
    return rc;
  }
  o = out_reserve(k, 1);
  *o++ = '\n';
  out_commit(k, o);
  if (PT_UNLIKELY(k->ioerr))
    return sink_fail(k, PT_EIO, "write failed: %s", strerror(k->ioerr));
  return PT_OK;
}

static const char *tx_sink_errmsg(void *st) { return ((tx_sink *)st)->err; }

static void sink_free(tx_sink *k) {
  free(k->buf);
  free(k->path);
  free(k);
}

static int tx_sink_close(void *st, pt_error *err) {
  tx_sink *k = st;
  out_flush(k);
  int e = k->ioerr;
  if (k->own_fd && close(k->fd) != 0 && !e) e = errno ? errno : EIO;
  int rc = PT_OK;
  if (e) rc = pt__err(err, PT_EIO, "%s: write failed: %s", k->path,
                      strerror(e));
  sink_free(k);
  return rc;
}

static void tx_sink_abort(void *st) {
  tx_sink *k = st;
  if (!k) return;
  if (k->own_fd) close(k->fd);
  sink_free(k);
}

/* ====================================================================== */
/* Source                                                                 */
/* ====================================================================== */

typedef struct tx_src {
  char *name;  /* for messages */
  int fd;      /* -1 for a memory source */
  /* memory source */
  const char *mem;
  size_t mem_len, mem_pos;
  /* file source: bytes [beg, end) of buf are unread, [beg, beg+scan)
   * known to hold no newline */
  char *buf;
  size_t cap, beg, end, scan;
  int eof;
  size_t max_line;
  uint64_t lineno;
  int started; /* header read */
  int sticky;  /* error returned again by every later call */
  pt__arena arena;  /* strings and arrays of the current item */
  pt__buf sc_attrs; /* scratch: attributes of the current event */
  pt__buf sc_list;  /* scratch: elements of the current list */
  char err[512];
} tx_src;

/* The current line, for parsing and for error positions. */
typedef struct cur {
  const char *lb; /* line begin (column 1) */
  const char *p, *e;
} cur;

static int src_fail(tx_src *s, const cur *c, const char *at, const char *fmt,
                    ...) PT_PRINTF(4, 5);
static int src_fail(tx_src *s, const cur *c, const char *at, const char *fmt,
                    ...) {
  va_list ap;
  va_start(ap, fmt);
  int n;
  if (c)
    n = snprintf(s->err, sizeof s->err, "%s:%llu:%llu: ", s->name,
                 (unsigned long long)s->lineno,
                 (unsigned long long)(at - c->lb) + 1);
  else
    n = snprintf(s->err, sizeof s->err, "%s:%llu: ", s->name,
                 (unsigned long long)s->lineno);
  if (n < 0 || (size_t)n >= sizeof s->err) n = 0;
  vsnprintf(s->err + n, sizeof s->err - (size_t)n, fmt, ap);
  va_end(ap);
  return PT_ECORRUPT;
}

/* Next line without its newline (and without a trailing CR).  Returns 1,
 * 0 at end of input, or an error. */
static int next_line(tx_src *s, const char **line, size_t *len) {
  const char *lp;
  size_t n;
  if (s->fd < 0) {
    if (s->mem_pos >= s->mem_len) return 0;
    lp = s->mem + s->mem_pos;
    size_t rest = s->mem_len - s->mem_pos;
    const char *nl = memchr(lp, '\n', rest);
    n = nl ? (size_t)(nl - lp) : rest;
    s->lineno++;
    if (n > s->max_line)
      return src_fail(s, NULL, NULL, "line longer than %zu bytes",
                      s->max_line);
    s->mem_pos += nl ? n + 1 : n;
  } else {
    for (;;) {
      size_t unscanned = s->end - s->beg - s->scan;
      char *nl = unscanned ? memchr(s->buf + s->beg + s->scan, '\n',
                                    unscanned)
                           : NULL;
      if (nl) {
        lp = s->buf + s->beg;
        n = (size_t)(nl - lp);
        s->beg += n + 1;
        s->scan = 0;
        break;
      }
      s->scan = s->end - s->beg;
      if (s->scan > s->max_line) {
        s->lineno++;
        return src_fail(s, NULL, NULL, "line longer than %zu bytes",
                        s->max_line);
      }
      if (s->eof) {
        if (s->beg == s->end) return 0;
        lp = s->buf + s->beg;
        n = s->end - s->beg;
        s->beg = s->end;
        s->scan = 0;
        break;
      }
      if (s->beg) { /* keep the partial line at the front */
        memmove(s->buf, s->buf + s->beg, s->end - s->beg);
        s->end -= s->beg;
        s->beg = 0;
      }
      if (s->cap - s->end < TX_CHUNK) {
        size_t cap = s->end + TX_CHUNK;
        char *b = realloc(s->buf, cap);
        if (!b) {
          snprintf(s->err, sizeof s->err, "%s: out of memory", s->name);
          return PT_ENOMEM;
        }
        s->buf = b;
        s->cap = cap;
      }
      ssize_t r = read(s->fd, s->buf + s->end, s->cap - s->end);
      if (r < 0) {
        if (errno == EINTR) continue;
        snprintf(s->err, sizeof s->err, "%s:%llu: read failed: %s", s->name,
                 (unsigned long long)s->lineno + 1, strerror(errno));
        return PT_EIO;
      }
      if (r == 0) s->eof = 1;
      s->end += (size_t)r;
    }
    s->lineno++;
    if (n > s->max_line)
      return src_fail(s, NULL, NULL, "line longer than %zu bytes",
                      s->max_line);
  }
  if (n && lp[n - 1] == '\r') n--;
  *line = lp;
  *len = n;
  return 1;
}

/* ---- lexical helpers --------------------------------------------------- */

static inline int is_ws(int c) { return c == ' ' || c == '\t'; }
static inline int is_word(int c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         (c >= 'A' && c <= 'Z');
}
/* Characters that may follow a value. */
static inline int at_delim(const cur *c) {
  return c->p == c->e || is_ws(*c->p) || *c->p == ',' || *c->p == ']' ||
         *c->p == '}';
}
static inline void skip_ws(cur *c) {
  while (c->p < c->e && is_ws(*c->p)) c->p++;
}

/* Quote a short piece of the line for an error message. */
static const char *show(const cur *c, const char *at, char *tmp, size_t n) {
  size_t k = 0;
  if (at >= c->e) return "end of line";
  tmp[k++] = '\'';
  for (; at < c->e && k + 6 < n && !is_ws(*at); at++) {
    unsigned char ch = (unsigned char)*at;
    if (ch >= 0x20 && ch < 0x7f) tmp[k++] = (char)ch;
    else k += (size_t)snprintf(tmp + k, n - k, "\\x%02x", ch);
    if (k > 24) break;
  }
  tmp[k++] = '\'';
  tmp[k] = 0;
  return tmp;
}

static int bad(tx_src *s, const cur *c, const char *at, const char *what) {
  char tmp[48];
  return src_fail(s, c, at, "expected %s, found %s", what,
                  show(c, at, tmp, sizeof tmp));
}

/* A word [A-Za-z0-9_]+ into w (n bytes, NUL-terminated); returns its
 * length, 0 if none.  Longer words are an error (returns < 0). */
static int word(tx_src *s, cur *c, char *w, size_t n, const char *what) {
  const char *b = c->p;
  while (c->p < c->e && is_word(*c->p)) c->p++;
  size_t len = (size_t)(c->p - b);
  if (len == 0) return bad(s, c, b, what);
  if (len >= n) return src_fail(s, c, b, "%s too long", what);
  memcpy(w, b, len);
  w[len] = 0;
  return (int)len;
}

/* At least one blank, then something (not the end of line). */
static int need_sep(tx_src *s, cur *c, const char *what) {
  if (c->p < c->e && !is_ws(*c->p)) return bad(s, c, c->p, "a space");
  skip_ws(c);
  if (c->p == c->e) return src_fail(s, c, c->p, "missing %s", what);
  return 0;
}

static int num_end(tx_src *s, cur *c) {
  if (at_delim(c)) return 0;
  unsigned char ch = (unsigned char)*c->p;
  if (ch >= 0x20 && ch < 0x7f)
    return src_fail(s, c, c->p, "unexpected '%c' after number", ch);
  return src_fail(s, c, c->p, "unexpected '\\x%02x' after number", ch);
}

/* Unsigned decimal or "none" (= PT_NONE). */
static int get_u64(tx_src *s, cur *c, uint64_t *out) {
  const char *b = c->p;
  if (c->e - c->p >= 4 && memcmp(c->p, "none", 4) == 0) {
    c->p += 4;
    if (!at_delim(c)) return bad(s, c, b, "a number");
    *out = PT_NONE;
    return 0;
  }
  if (c->p == c->e || *c->p < '0' || *c->p > '9')
    return bad(s, c, b, "an unsigned number");
  uint64_t v = 0;
  while (c->p < c->e && *c->p >= '0' && *c->p <= '9') {
    unsigned d = (unsigned)(*c->p - '0');
    if (v > (UINT64_MAX - d) / 10)
      return src_fail(s, c, b, "number out of range (max %llu)",
                      (unsigned long long)UINT64_MAX);
    v = v * 10 + d;
    c->p++;
  }
  *out = v;
  return num_end(s, c);
}

static int get_i64(tx_src *s, cur *c, int64_t *out) {
  const char *b = c->p;
  int neg = 0;
  if (c->p < c->e && *c->p == '-') {
    neg = 1;
    c->p++;
  }
  if (c->p == c->e || *c->p < '0' || *c->p > '9')
    return bad(s, c, b, "a signed number");
  uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  uint64_t v = 0;
  while (c->p < c->e && *c->p >= '0' && *c->p <= '9') {
    unsigned d = (unsigned)(*c->p - '0');
    if (v > (lim - d) / 10)
      return src_fail(s, c, b, "number out of range for a signed 64-bit "
                      "integer");
    v = v * 10 + d;
    c->p++;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return num_end(s, c);
}

static int hexval(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

static int get_double(tx_src *s, cur *c, double *out) {
  const char *b = c->p;
  while (c->p < c->e && !at_delim(c)) c->p++;
  size_t n = (size_t)(c->p - b);
  static const struct {
    const char *text;
    uint64_t bits;
  } named[] = {{"inf", UINT64_C(0x7ff0000000000000)},
               {"-inf", UINT64_C(0xfff0000000000000)},
               {"nan", TX_NAN_BITS},
               {"-nan", TX_NEG_NAN_BITS}};
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (n == strlen(named[i].text) && memcmp(b, named[i].text, n) == 0) {
      memcpy(out, &named[i].bits, sizeof *out);
      return 0;
    }
  if (n == 22 && memcmp(b, "nan:0x", 6) == 0) {
    uint64_t bits = 0;
    for (size_t i = 6; i < 22; i++) {
      int h = hexval((unsigned char)b[i]);
      if (h < 0) return src_fail(s, c, b + i, "bad hex digit in NaN bits");
      bits = bits << 4 | (uint64_t)h;
    }
    memcpy(out, &bits, sizeof *out);
    if (!isnan(*out)) return src_fail(s, c, b, "NaN bits are not a NaN");
    return 0;
  }
  if (n == 0) return bad(s, c, b, "a number");
  if (n >= TX_NUMTOK) return src_fail(s, c, b, "number too long");
  char tmp[TX_NUMTOK];
  for (size_t i = 0; i < n; i++) {
    char ch = b[i];
    if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == 'e' || ch == 'E' ||
          ch == '-' || ch == '+'))
      return bad(s, c, b, "a floating-point number");
    tmp[i] = ch;
  }
  tmp[n] = 0;
  if (!((tmp[0] >= '0' && tmp[0] <= '9') ||
        (tmp[0] == '-' && n > 1 && ((tmp[1] >= '0' && tmp[1] <= '9') ||
                                    tmp[1] == '.')) ||
        tmp[0] == '.'))
    return bad(s, c, b, "a floating-point number");
  locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
  char *end;
  double d = strtod(tmp, &end);
  if (loc) uselocale(old);
  if (end != tmp + n) return bad(s, c, b, "a floating-point number");
  if (isinf(d)) return src_fail(s, c, b, "number out of range for a double");
  *out = d;
  return 0;
}

/* A quoted string; the decoded bytes go to the arena, NUL-terminated. */
static int get_qstr(tx_src *s, cur *c, const char **out) {
  const char *b = c->p;
  if (c->p == c->e || *c->p != '"') return bad(s, c, b, "'\"'");
  c->p++;
  /* The decoded string is never longer than the quoted text. */
  const char *q = c->p;
  while (q < c->e && *q != '"') q += (*q == '\\' && q + 1 < c->e) ? 2 : 1;
  if (q >= c->e) return src_fail(s, c, b, "unterminated string");
  char *d = pt__arena_alloc(&s->arena, (size_t)(q - c->p) + 1);
  if (!d) return src_fail(s, c, b, "out of memory"), PT_ENOMEM;
  char *o = d;
  while (c->p < q) {
    unsigned char ch = (unsigned char)*c->p;
    if (ch == '\\') {
      const char *esc = c->p;
      char e = c->p[1];
      c->p += 2;
      if (e == '"' || e == '\\') *o++ = e;
      else if (e == 'n') *o++ = '\n';
      else if (e == 't') *o++ = '\t';
      else if (e == 'r') *o++ = '\r';
      else if (e == 'x') {
        int h1 = c->p < q ? hexval((unsigned char)c->p[0]) : -1;
        int h2 = c->p + 1 < q ? hexval((unsigned char)c->p[1]) : -1;
        if (h1 < 0 || h2 < 0)
          return src_fail(s, c, esc, "bad escape: \\x needs two hex digits");
        if (h1 == 0 && h2 == 0)
          return src_fail(s, c, esc, "NUL byte (\\x00) not allowed in a "
                          "string");
        *o++ = (char)(h1 << 4 | h2);
        c->p += 2;
      } else {
        char tmp[48];
        return src_fail(s, c, esc, "bad escape %s", show(c, esc, tmp,
                                                          sizeof tmp));
      }
    } else if (ch < 0x20 || ch == 0x7f) {
      return src_fail(s, c, c->p, "control byte 0x%02x in a string (write "
                      "it as an escape)", ch);
    } else {
      *o++ = (char)ch;
      c->p++;
    }
  }
  *o = 0;
  c->p = q + 1;
  *out = d;
  if (!at_delim(c)) return bad(s, c, c->p, "a space after the string");
  return 0;
}

/* [v,v,...] of u64 (refs) or i64; elements into the arena. */
static int get_list(tx_src *s, cur *c, int is_signed, uint64_t *count,
                    void **out) {
  const char *b = c->p;
  if (c->p == c->e || *c->p != '[') return bad(s, c, b, "'['");
  c->p++;
  s->sc_list.len = 0;
  skip_ws(c);
  if (c->p < c->e && *c->p == ']') {
    c->p++;
  } else {
    for (;;) {
      uint64_t v;
      int rc = is_signed ? get_i64(s, c, (int64_t *)&v) : get_u64(s, c, &v);
      if (rc) return rc;
      if (s->sc_list.len / sizeof v >= UINT32_MAX)
        return src_fail(s, c, b, "list longer than %u elements",
                        (unsigned)UINT32_MAX);
      if (pt__buf_put(&s->sc_list, &v, sizeof v))
        return src_fail(s, c, b, "out of memory"), PT_ENOMEM;
      skip_ws(c);
      if (c->p < c->e && *c->p == ',') {
        c->p++;
        skip_ws(c);
        continue;
      }
      if (c->p < c->e && *c->p == ']') {
        c->p++;
        break;
      }
      if (c->p == c->e) return src_fail(s, c, b, "unterminated list");
      return bad(s, c, c->p, "',' or ']'");
    }
  }
  *count = s->sc_list.len / sizeof(uint64_t);
  *out = NULL;
  if (*count) {
    void *m = pt__arena_alloc(&s->arena, s->sc_list.len);
    if (!m) return src_fail(s, c, b, "out of memory"), PT_ENOMEM;
    memcpy(m, s->sc_list.p, s->sc_list.len);
    *out = m;
  }
  if (!at_delim(c)) return bad(s, c, c->p, "a space after the list");
  return 0;
}

/* A typed value: none | i:N | u:N | d:X | s:"..." | s:none | ia:[...] */
static int get_value(tx_src *s, cur *c, pt_value *v) {
  const char *b = c->p;
  char tn[8];
  const char *q = c->p;
  while (q < c->e && is_word(*q)) q++;
  size_t n = (size_t)(q - c->p);
  if (n == 0 || n >= sizeof tn) return bad(s, c, b, "a typed value (T:V)");
  memcpy(tn, c->p, n);
  tn[n] = 0;
  int t = pt_type_from_name(tn);
  if (t < 0) {
    char tmp[48];
    return src_fail(s, c, b, "unknown value type %s (want none, i, u, d, s "
                    "or ia)", show(c, b, tmp, sizeof tmp));
  }
  c->p = q;
  memset(v, 0, sizeof *v);
  v->type = (uint32_t)t;
  if (t == PT_TYPE_NONE) {
    if (!at_delim(c)) return bad(s, c, c->p, "a space after 'none'");
    return 0;
  }
  if (c->p == c->e || *c->p != ':') return bad(s, c, c->p, "':' after type");
  c->p++;
  switch (t) {
    case PT_TYPE_INT: return get_i64(s, c, &v->v.i);
    case PT_TYPE_UINT: {
      /* attribute payloads are plain numbers; no "none" */
      if (c->p < c->e && *c->p == 'n') return bad(s, c, c->p, "a number");
      return get_u64(s, c, &v->v.u);
    }
    case PT_TYPE_DOUBLE: return get_double(s, c, &v->v.d);
    case PT_TYPE_STRING:
      if (c->e - c->p >= 4 && memcmp(c->p, "none", 4) == 0) {
        c->p += 4; /* s:none: the string pointer is NULL */
        if (!at_delim(c)) return bad(s, c, c->p, "a space after 's:none'");
        v->v.s = NULL;
        return 0;
      }
      return get_qstr(s, c, &v->v.s);
    case PT_TYPE_INTS: {
      uint64_t cnt;
      void *p;
      int rc = get_list(s, c, 1, &cnt, &p);
      v->count = (uint32_t)cnt;
      v->v.ints = p;
      return rc;
    }
  }
  return bad(s, c, b, "a typed value");
}

/* {KEY=VALUE KEY=VALUE ...} at the end of an event line. */
static int get_attrs(tx_src *s, cur *c, pt_event *ev) {
  const char *b = c->p;
  c->p++; /* '{' */
  s->sc_attrs.len = 0;
  for (;;) {
    skip_ws(c);
    if (c->p == c->e) return src_fail(s, c, b, "unterminated attribute list");
    if (*c->p == '}') {
      c->p++;
      break;
    }
    pt_attr a;
    const char *kb = c->p;
    if (*c->p < '0' || *c->p > '9')
      return bad(s, c, kb, "an attribute key (a number) or '}'");
    uint64_t key = 0;
    while (c->p < c->e && *c->p >= '0' && *c->p <= '9') {
      unsigned d = (unsigned)(*c->p - '0');
      if (key > (UINT64_MAX - d) / 10)
        return src_fail(s, c, kb, "attribute key out of range");
      key = key * 10 + d;
      c->p++;
    }
    if (c->p == c->e || *c->p != '=') return bad(s, c, c->p, "'='");
    c->p++;
    a.key = key;
    int rc = get_value(s, c, &a.val);
    if (rc) return rc;
    if (c->p < c->e && !is_ws(*c->p) && *c->p != '}')
      return bad(s, c, c->p, "a space or '}'");
    if (s->sc_attrs.len / sizeof a >= UINT32_MAX)
      return src_fail(s, c, b, "too many attributes");
    if (pt__buf_put(&s->sc_attrs, &a, sizeof a))
      return src_fail(s, c, b, "out of memory"), PT_ENOMEM;
  }
  skip_ws(c);
  if (c->p != c->e)
    return bad(s, c, c->p, "end of line after the attribute list");
  ev->nattrs = (uint32_t)(s->sc_attrs.len / sizeof(pt_attr));
  if (ev->nattrs) {
    pt_attr *at = pt__arena_alloc(&s->arena, s->sc_attrs.len);
    if (!at) return src_fail(s, c, b, "out of memory"), PT_ENOMEM;
    memcpy(at, s->sc_attrs.p, s->sc_attrs.len);
    ev->attrs = at;
  }
  return 0;
}

/* Value of one slot of type si->type into the struct field at f. */
static int get_slot(tx_src *s, cur *c, const slot_info *si, char *f,
                    uint64_t *nmembers) {
  int rc = PT_OK;
  switch (si->type) {
    case FT_U64: {
      uint64_t v;
      if (!(rc = get_u64(s, c, &v))) memcpy(f, &v, sizeof v);
      break;
    }
    case FT_I64: {
      int64_t v;
      if (!(rc = get_i64(s, c, &v))) memcpy(f, &v, sizeof v);
      break;
    }
    case FT_DBL: {
      double v;
      if (!(rc = get_double(s, c, &v))) memcpy(f, &v, sizeof v);
      break;
    }
    case FT_STR: {
      const char *v;
      if (!(rc = get_qstr(s, c, &v))) memcpy(f, &v, sizeof v);
      break;
    }
    case FT_VAL:
      rc = get_value(s, c, (pt_value *)(void *)f);
      break;
    case FT_LIST: {
      void *p;
      if (!(rc = get_list(s, c, 0, nmembers, &p))) {
        const uint64_t *m = p;
        memcpy(f, &m, sizeof m);
      }
      break;
    }
  }
  return rc;
}

/* key=value pairs of a kind's slots, in any order, each at most once; an
 * attribute list may follow when attrs_ev is given. */
static int get_slots(tx_src *s, cur *c, uint32_t kind, const char *kind_name,
                     const char *(*slot_name)(uint32_t, unsigned),
                     unsigned nslots, const slot_info *info, char *base,
                     uint64_t *nmembers, pt_event *attrs_ev) {
  uint32_t seen = 0;
  for (;;) {
    if (c->p < c->e && !is_ws(*c->p)) return bad(s, c, c->p, "a space");
    skip_ws(c);
    if (c->p == c->e) return 0;
    if (*c->p == '{' && attrs_ev) return get_attrs(s, c, attrs_ev);
    const char *kb = c->p;
    char key[40];
    int rc = word(s, c, key, sizeof key, "a key");
    if (rc < 0) return rc;
    if (c->p == c->e || *c->p != '=') return bad(s, c, c->p, "'=' after key");
    unsigned slot = nslots;
    for (unsigned i = 0; i < nslots; i++) {
      const char *sn = slot_name(kind, i);
      if (sn && strcmp(sn, key) == 0) {
        slot = i;
        break;
      }
    }
    if (slot == nslots)
      return src_fail(s, c, kb, "unknown key '%s' for %s", key, kind_name);
    if (seen & (1u << slot))
      return src_fail(s, c, kb, "duplicate key '%s'", key);
    seen |= 1u << slot;
    c->p++;
    rc = get_slot(s, c, &info[slot], base + info[slot].off, nmembers);
    if (rc) return rc;
  }
}

/* "TIME LOC KIND slots {attrs}" */
static int get_event_body(tx_src *s, cur *c, pt_event *ev) {
  uint64_t t, loc;
  int rc;
  if ((rc = need_sep(s, c, "time")) || (rc = get_u64(s, c, &t)) ||
      (rc = need_sep(s, c, "location")) || (rc = get_u64(s, c, &loc)) ||
      (rc = need_sep(s, c, "event kind")))
    return rc;
  const char *kb = c->p;
  char kn[40];
  if ((rc = word(s, c, kn, sizeof kn, "an event kind")) < 0) return rc;
  uint32_t kind = pt_event_kind_from_name(kn);
  if (kind == PT_EV_INVALID)
    return src_fail(s, c, kb, "unknown event kind '%s'", kn);
  pt_event_init(ev, kind, t, loc);
  char what[64];
  snprintf(what, sizeof what, "event kind '%s'", kn);
  return get_slots(s, c, kind, what, pt_event_slot_name, PT_ESLOT__COUNT,
                   ev_slot, (char *)ev, NULL, ev);
}

static int line_event(tx_src *s, cur *c, pt_item *it) {
  it->type = PT_ITEM_EVENT;
  return get_event_body(s, c, &it->u.event);
}

static int line_snapshot(tx_src *s, cur *c, pt_item *it) {
  pt_snapshot *sn = &it->u.snapshot;
  int rc;
  memset(sn, 0, sizeof *sn);
  it->type = PT_ITEM_SNAPSHOT;
  if ((rc = need_sep(s, c, "time")) || (rc = get_u64(s, c, &sn->time)) ||
      (rc = need_sep(s, c, "location")) ||
      (rc = get_u64(s, c, &sn->location)) || (rc = need_sep(s, c, "'event'")))
    return rc;
  const char *kb = c->p;
  char w[16];
  if ((rc = word(s, c, w, sizeof w, "'event'")) < 0) return rc;
  if (strcmp(w, "event") != 0) return bad(s, c, kb, "'event'");
  return get_event_body(s, c, &sn->event);
}

static int line_def(tx_src *s, cur *c, pt_item *it) {
  pt_def *d = &it->u.def;
  int rc;
  it->type = PT_ITEM_DEF;
  uint32_t scope = 0;
  if (c->p < c->e && *c->p == '@') {
    const char *b = ++c->p;
    uint64_t stream;
    if (c->p < c->e && *c->p == 'n') return bad(s, c, b, "a stream number");
    if ((rc = get_u64(s, c, &stream))) return rc;
    if (stream >= UINT32_MAX)
      return src_fail(s, c, b, "stream of a local definition out of range "
                      "(max %u)", (unsigned)UINT32_MAX - 1);
    scope = (uint32_t)stream + 1;
  }
  if ((rc = need_sep(s, c, "definition kind"))) return rc;
  const char *kb = c->p;
  char kn[40];
  if ((rc = word(s, c, kn, sizeof kn, "a definition kind")) < 0) return rc;
  uint32_t kind = pt_def_kind_from_name(kn);
  if (kind == PT_DEF_INVALID)
    return src_fail(s, c, kb, "unknown definition kind '%s'", kn);
  pt_def_init(d, kind, 0);
  d->scope = scope;
  char what[64];
  snprintf(what, sizeof what, "definition kind '%s'", kn);
  return get_slots(s, c, kind, what, pt_def_slot_name, PT_DSLOT__COUNT,
                   def_slot, (char *)d, &d->nmembers, NULL);
}

static int line_summary(tx_src *s, cur *c, pt_item *it) {
  pt_summary *sm = &it->u.summary;
  int rc;
  memset(sm, 0, sizeof *sm);
  it->type = PT_ITEM_SUMMARY;
  if ((rc = need_sep(s, c, "time")) || (rc = get_u64(s, c, &sm->time)) ||
      (rc = need_sep(s, c, "location")) ||
      (rc = get_u64(s, c, &sm->location)) ||
      (rc = need_sep(s, c, "summary kind")))
    return rc;
  const char *kb = c->p;
  char kn[40];
  if ((rc = word(s, c, kn, sizeof kn, "a summary kind")) < 0) return rc;
  for (size_t i = 0; i < NSUM_KINDS; i++)
    if (strcmp(sum_kinds[i].name, kn) == 0) sm->kind = sum_kinds[i].kind;
  if (!sm->kind) return src_fail(s, c, kb, "unknown summary kind '%s'", kn);
  unsigned seen = 0;
  for (;;) {
    if (c->p < c->e && !is_ws(*c->p)) return bad(s, c, c->p, "a space");
    skip_ws(c);
    if (c->p == c->e) return 0;
    const char *fb = c->p;
    char key[40];
    if ((rc = word(s, c, key, sizeof key, "a key")) < 0) return rc;
    if (c->p == c->e || *c->p != '=') return bad(s, c, c->p, "'=' after key");
    size_t f = NSUM_FIELDS;
    for (size_t i = 0; i < NSUM_FIELDS; i++)
      if (strcmp(sum_fields[i].name, key) == 0) f = i;
    if (f == NSUM_FIELDS)
      return src_fail(s, c, fb, "unknown key '%s' for a summary", key);
    if (seen & (1u << f)) return src_fail(s, c, fb, "duplicate key '%s'", key);
    seen |= 1u << f;
    c->p++;
    uint64_t v;
    if ((rc = get_u64(s, c, &v))) return rc;
    memcpy((char *)sm + sum_fields[f].off, &v, sizeof v);
  }
}

static int line_stream(tx_src *s, cur *c, pt_item *it) {
  pt_stream_entry *e = &it->u.stream;
  int rc;
  it->type = PT_ITEM_STREAM;
  if ((rc = need_sep(s, c, "stream number")) ||
      (rc = get_u64(s, c, &e->stream)) ||
      (rc = need_sep(s, c, "'location='")))
    return rc;
  if (c->e - c->p < 9 || memcmp(c->p, "location=", 9) != 0)
    return bad(s, c, c->p, "'location='");
  c->p += 9;
  if ((rc = get_u64(s, c, &e->location))) return rc;
  skip_ws(c);
  if (c->p != c->e) return bad(s, c, c->p, "end of line");
  return 0;
}

/* The line types: X(keyword, parser). */
#define TX_LINES(X)                                                       \
  X("stream", line_stream) X("def", line_def) X("event", line_event)     \
  X("summary", line_summary) X("snapshot", line_snapshot)

static const struct {
  const char *word;
  int (*parse)(tx_src *, cur *, pt_item *);
} line_types[] = {
#define TX_LINE(w, fn) {w, fn},
    TX_LINES(TX_LINE)
#undef TX_LINE
};

/* The header line: "# paratrace text VERSION". */
static int check_header(tx_src *s, const char *line, size_t n) {
  cur c = {line, line, line + n};
  size_t ml = strlen(TX_MAGIC);
  if (n < ml || memcmp(line, TX_MAGIC, ml) != 0)
    return src_fail(s, &c, line, "not a paratrace text file (the first line "
                    "must be \"" TX_MAGIC "%d\")", PT_TEXT_VERSION);
  c.p += ml;
  uint64_t v;
  if (c.p == c.e || *c.p < '0' || *c.p > '9')
    return bad(s, &c, c.p, "a version number");
  int rc = get_u64(s, &c, &v);
  if (rc) return rc;
  skip_ws(&c);
  if (c.p != c.e) return bad(s, &c, c.p, "end of line after the version");
  if (v != PT_TEXT_VERSION) {
    src_fail(s, &c, line + ml, "text format version %llu is not supported "
             "(this reader knows version %d)", (unsigned long long)v,
             PT_TEXT_VERSION);
    return PT_EVERSION;
  }
  return 0;
}

static int tx_src_next(void *st, pt_item *item) {
  tx_src *s = st;
  if (s->sticky) return s->sticky;
  pt__arena_reset(&s->arena);
  /* Give back what one huge line made the scratch buffers grow to. */
  if (s->sc_list.cap > TX_CHUNK) pt__buf_free(&s->sc_list);
  if (s->sc_attrs.cap > TX_CHUNK) pt__buf_free(&s->sc_attrs);
  for (;;) {
    const char *line = NULL;
    size_t n = 0;
    int rc = next_line(s, &line, &n);
    if (rc == 0) {
      if (!s->started) {
        s->lineno = s->lineno ? s->lineno : 1;
        rc = src_fail(s, NULL, NULL, "empty input: not a paratrace text file");
        return s->sticky = rc;
      }
      return PT_END;
    }
    if (rc < 0) return s->sticky = rc;
    if (!s->started) {
      if ((rc = check_header(s, line, n))) return s->sticky = rc;
      s->started = 1;
      continue;
    }
    cur c = {line, line, line + n};
    skip_ws(&c);
    if (c.p == c.e || *c.p == '#') continue; /* blank line or comment */
    const char *wb = c.p;
    while (c.p < c.e && *c.p >= 'a' && *c.p <= 'z') c.p++;
    size_t wl = (size_t)(c.p - wb);
    for (size_t i = 0; i < sizeof line_types / sizeof line_types[0]; i++)
      if (strlen(line_types[i].word) == wl &&
          memcmp(line_types[i].word, wb, wl) == 0) {
        memset(item, 0, sizeof *item);
        rc = line_types[i].parse(s, &c, item);
        if (rc) return s->sticky = rc;
        return PT_OK;
      }
    char tmp[48];
    rc = src_fail(s, &c, wb, "unknown line type %s (want stream, def, event, "
                  "summary or snapshot)", show(&c, wb, tmp, sizeof tmp));
    return s->sticky = rc;
  }
}

static const char *tx_src_errmsg(void *st) { return ((tx_src *)st)->err; }

static void tx_src_close(void *st) {
  tx_src *s = st;
  if (!s) return;
  if (s->fd >= 0) close(s->fd);
  free(s->buf);
  free(s->name);
  pt__arena_free(&s->arena);
  pt__buf_free(&s->sc_attrs);
  pt__buf_free(&s->sc_list);
  free(s);
}

static tx_src *src_new(const char *name) {
  tx_src *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->fd = -1;
  s->max_line = PT_TEXT_MAX_LINE;
  s->name = strdup(name);
  if (!s->name) {
    free(s);
    return NULL;
  }
  return s;
}

/* params: "max_line=BYTES" (others are an error). */
static int parse_params(tx_src *s, const char *params, pt_error *err) {
  const char *p = params;
  while (p && *p) {
    size_t n = strcspn(p, ",");
    if (n > 9 && memcmp(p, "max_line=", 9) == 0) {
      uint64_t v = 0;
      size_t i = 9;
      for (; i < n && p[i] >= '0' && p[i] <= '9' && v <= PT_TEXT_MAX_LINE_LIMIT;
           i++)
        v = v * 10 + (uint64_t)(p[i] - '0');
      if (i != n || v == 0 || v > PT_TEXT_MAX_LINE_LIMIT)
        return pt__err(err, PT_EINVAL, "%s: text: max_line must be 1..%zu",
                       s->name, PT_TEXT_MAX_LINE_LIMIT);
      s->max_line = (size_t)v;
    } else if (n) {
      return pt__err(err, PT_EINVAL, "%s: text: unknown parameter '%.*s' "
                     "(known: max_line=BYTES)", s->name, (int)n, p);
    }
    p += n;
    if (*p == ',') p++;
  }
  return 0;
}

static int tx_src_open(void **st, const char *path, const pt_source_opts *o,
                       pt_error *err) {
  *st = NULL;
  tx_src *s = src_new(path);
  if (!s) return pt__err(err, PT_ENOMEM, "%s: out of memory", path);
  int rc = parse_params(s, o ? o->params : NULL, err);
  if (rc) {
    tx_src_close(s);
    return rc;
  }
  s->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (s->fd < 0) {
    int e = errno;
    tx_src_close(s);
    return pt__err(err, e == ENOENT ? PT_ENOTFOUND : PT_EIO, "%s: %s", path,
                   strerror(e));
  }
  *st = s;
  return PT_OK;
}

int pt__text_open_mem(void **st, const void *data, size_t n, const char *name,
                      size_t max_line, pt_error *err) {
  *st = NULL;
  tx_src *s = src_new(name ? name : "<memory>");
  if (!s) return pt__err(err, PT_ENOMEM, "out of memory");
  s->mem = data;
  s->mem_len = n;
  if (max_line) s->max_line = max_line;
  *st = s;
  return PT_OK;
}

static int tx_probe(const char *path, int is_dir, const uint8_t *head,
                    size_t n) {
  (void)path;
  size_t ml = strlen(TX_MAGIC);
  if (is_dir || n < ml || memcmp(head, TX_MAGIC, ml) != 0) return 0;
  return 100;
}

const pt__format pt__format_text = {
    .info = {.name = "text",
             .description = "paratrace text form: one item per line, "
                            "lossless (doc/text-format.md)",
             .extensions = ".pttxt .txt",
             .can_read = 1,
             .can_write = 1},
    .probe = tx_probe,
    .src_open = tx_src_open,
    .src_next = tx_src_next,
    .src_errmsg = tx_src_errmsg,
    .src_close = tx_src_close,
    .src_reader = NULL,
    .stdout_ok = 1,
    .sink_open = tx_sink_open,
    .sink_write = tx_sink_write,
    .sink_errmsg = tx_sink_errmsg,
    .sink_close = tx_sink_close,
    .sink_abort = tx_sink_abort,
};
