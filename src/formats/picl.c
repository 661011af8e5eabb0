/* The PICL format: reader (source) and writer (sink) of Worley's "new" ASCII
 * PICL trace format (ORNL/TM-12125), the input of ParaGraph.
 *
 * A record is one line of blank-separated fields:
 *   record-type event-type time processor process ndata [descriptor data...]
 * Everything about individual record and event types comes from the tables
 * in picl_table.h.  The mapping to the model (doc/picl.md has the long form):
 *
 *  - Clock: 1e9 ticks per second.  Times are parsed exactly from their
 *    decimal digits (no floating point): exact up to +-(2^63-1) ns, digits
 *    below 1 ns truncated, a larger time an error.  Negative times (legal
 *    in PICL) are shifted by a bias of whole seconds fixed by the first
 *    record: bias = ceil(-t0) s if t0 < 0, else 0; KEYVAL "picl.time_bias"
 *    (ticks) records it and the writer subtracts it again.  A later record
 *    earlier than the bias allows is an error.  The number of decimals of
 *    the first record is KEYVAL "picl.time_decimals"; a record written with
 *    another number carries attribute picl.decimals.
 *  - Processor -> LOCATION_GROUP (rank = processor, id = processor for
 *    processors >= 0); (processor, process) -> LOCATION (id = processor for
 *    the first process seen on a processor >= 0, else 2^41 + n) with KEYVAL
 *    "picl.process" (scope = location) keeping the process field.
 *    Wildcard (-1), subset (< -1) and host (32767) processors are locations
 *    too; the writer never adds tracing records for them.
 *  - -3/-4 entry/exit -> ENTER/LEAVE of a REGION named by the -5 label of
 *    the event type on the record's (processor, process) (-1: all), else
 *    the table's name or "user event N": one region per name, canonical
 *    name "PICL:<event type of its first record>" (a record of another
 *    type carries attribute picl.event_type); a name of an MPI function
 *    (src/mpi/mpi_table.h) gives the MPI paradigm and the function's role.
 *    The data fields travel as attributes.  Derived events (table column `action`): SEND after the
 *    -21 entry, ISEND before the -27 exit, RECV / IRECV / IRECV_REQUEST /
 *    ISEND_COMPLETE before the exits of -51/-52/-56, -58/-60/-61, -57,
 *    -28/-30/-31, COLL_BEGIN/COLL_END for -402/-782/-790.
 *  - -2 mark -> MARK (ref = LABEL of the event type); -2 -913 / -914 ->
 *    BUFFER_OVERFLOW (policy STOP / RING).
 *  - -5 label -> LABEL def (record_type -5) + a MARK carrying the record;
 *    -6 -> DESCRIPTOR def + MARK; -201/-202/-203 -> GROUP def (name = the
 *    subset id) + MARK; any other negative record type (header records) ->
 *    MARK with attribute picl.record.  -7 -> MESSAGE.  Record types >= 0 ->
 *    USER (tag = record type) with typed attributes.
 *  - -101/-102/-103 -> PT_SUM_LABEL summaries (ref = LABEL of the measured
 *    event type; relative to an event type other than -1 the LABEL carries
 *    KEYVAL "picl.within"), emitted after the last event.  -1 (not
 *    measured) is UINT64_MAX.  Records the writer would not reproduce
 *    exactly are kept as MARK carriers instead.
 *  - Data values: all integers -> one INTS attribute picl.ints; otherwise
 *    one attribute per value (picl.int / picl.double / picl.string);
 *    character data -> the event's text slot or picl.text; a descriptor or
 *    ndata the writer would not derive from the values -> picl.descriptor /
 *    picl.descriptor_code / picl.ndata; data that cannot be parsed because
 *    the descriptor is unknown -> picl.raw (verbatim).
 */
#include "formats/picl.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/mpi_fn.h"
#include "formats/picl_table.h"

#define PICL_CHUNK ((size_t)1 << 20)    /* read size */
#define PICL_MAX_LINE ((size_t)1 << 20) /* longest record */
#define PICL_MAX_CONV 64                /* conversions in a control string */
#define PICL_MAX_SUMMARIES ((size_t)1 << 22)
#define PICL_LOC_BASE (UINT64_C(1) << 41)
#define PICL_GROUP_BASE (UINT64_C(1) << 40)
#define PICL_HOST 32767

/* ---------------------------------------------------------------------- */
/* Tables generated from picl_table.h                                     */
/* ---------------------------------------------------------------------- */

enum {
#define L_ENUM(NAME, n, names) L_##NAME,
  PT_PICL_LAYOUTS(L_ENUM)
#undef L_ENUM
  L__COUNT
};
static const int layout_nfields[L__COUNT] = {
#define L_N(NAME, n, names) n,
    PT_PICL_LAYOUTS(L_N)
#undef L_N
};
static const char *const layout_names[L__COUNT] = {
#define L_S(NAME, n, names) names,
    PT_PICL_LAYOUTS(L_S)
#undef L_S
};

enum {
#define A_ENUM(NAME) A_##NAME,
  PT_PICL_ACTIONS(A_ENUM)
#undef A_ENUM
  A__COUNT
};

typedef struct picl_evtype {
  int code;
  const char *name;
  uint8_t role, entry, exit, action, coll;
  const char *mpi; /* space-separated region names mapped to this type */
} picl_evtype;

enum {
#define E_ENUM(code, NAME, ...) EVI_##NAME,
  PT_PICL_EVENTS(E_ENUM)
#undef E_ENUM
  EVI__COUNT
};

static const picl_evtype ev_table[EVI__COUNT] = {
#define E_ROW(code, NAME, name, role, en, ex, act, coll, mpi)                 \
  [EVI_##NAME] = {code, name, PT_ROLE_##role, L_##en, L_##ex, A_##act,        \
                  PT_COLL_##coll, mpi},
    PT_PICL_EVENTS(E_ROW)
#undef E_ROW
};

/* Event type -> table row, or NULL (user and unknown types). */
static const picl_evtype *evtype_find(int64_t code) {
  switch (code) {
#define E_CASE(code, NAME, ...) \
  case code:                    \
    return &ev_table[EVI_##NAME];
    PT_PICL_EVENTS(E_CASE)
#undef E_CASE
    default:
      return NULL;
  }
}

enum { RC_EVENT, RC_LABEL, RC_DESCRIPTOR, RC_MESSAGE, RC_STATS, RC_SUBSET };
enum {
#define R_ENUM(code, NAME, name, cls) R_##NAME = code,
  PT_PICL_RECORDS(R_ENUM)
#undef R_ENUM
};

/* Record class of a negative record type, or -1 (kept verbatim). */
static int record_class(int64_t rt) {
  switch (rt) {
#define R_CASE(code, NAME, name, cls) \
  case code:                          \
    return RC_##cls;
    PT_PICL_RECORDS(R_CASE)
#undef R_CASE
    default:
      return -1;
  }
}

static const char *const desc_strings[] = {
#define D_STR(n, NAME, s) [n] = s,
    PT_PICL_DESCRIPTORS(D_STR)
#undef D_STR
};
enum { NDESC = sizeof desc_strings / sizeof desc_strings[0] };

/* Attribute keys the source declares and the sink understands:
 * X(NAME, "name", pt_type, description). */
#define PICL_ATTRS(X)                                                         \
  X(INTS, "picl.ints", INTS, "data fields (all integers)")                    \
  X(INT, "picl.int", INT, "one integer data value")                           \
  X(DOUBLE, "picl.double", DOUBLE, "one floating point data value")           \
  X(STRING, "picl.string", STRING, "one string data value (%s token)")        \
  X(TEXT, "picl.text", STRING, "character data (%c)")                         \
  X(RAW, "picl.raw", STRING, "data fields kept verbatim")                     \
  X(DESC, "picl.descriptor", STRING, "data descriptor control string")        \
  X(DESC_CODE, "picl.descriptor_code", INT, "integer data descriptor")        \
  X(NDATA, "picl.ndata", INT, "number of data fields as written")             \
  X(RECORD, "picl.record", INT, "record type of a record kept in a MARK")     \
  X(DECIMALS, "picl.decimals", INT, "decimals of the timestamp")              \
  X(TIME, "picl.time", STRING, "timestamp as written")                       \
  X(DDEC, "picl.double_decimals", INT,                                        \
    "decimals of the floating point data (-1: shortest)")                     \
  X(EVTYPE, "picl.event_type", INT,                                           \
    "event type of an entry/exit record of a region first seen as another")

enum {
#define K_ENUM(NAME, name, type, desc) K_##NAME,
  PICL_ATTRS(K_ENUM)
#undef K_ENUM
  K__COUNT
};
static const struct {
  const char *name;
  uint32_t type;
  const char *desc;
} attr_table[K__COUNT] = {
#define K_ROW(NAME, name, type, desc) [K_##NAME] = {name, PT_TYPE_##type, desc},
    PICL_ATTRS(K_ROW)
#undef K_ROW
};

/* ---------------------------------------------------------------------- */
/* Small helpers: a u64 -> u64 hash map, time parsing and formatting        */
/* ---------------------------------------------------------------------- */

typedef struct hmap {
  uint64_t *keys, *vals;
  uint8_t *used;
  size_t cap, n;
} hmap;

static size_t hm_slot(uint64_t k, size_t cap) {
  return (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (cap - 1);
}

static int hm_get(const hmap *m, uint64_t k, uint64_t *v) {
  if (!m->cap) return 0;
  for (size_t i = hm_slot(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (!m->used[i]) return 0;
    if (m->keys[i] == k) {
      if (v) *v = m->vals[i];
      return 1;
    }
  }
}

static int hm_put(hmap *m, uint64_t k, uint64_t v) {
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    hmap t = {calloc(cap, 8), calloc(cap, 8), calloc(cap, 1), cap, 0};
    if (!t.keys || !t.vals || !t.used) {
      free(t.keys);
      free(t.vals);
      free(t.used);
      return PT_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->used[i]) hm_put(&t, m->keys[i], m->vals[i]);
    free(m->keys);
    free(m->vals);
    free(m->used);
    *m = t;
  }
  size_t i = hm_slot(k, m->cap);
  while (m->used[i] && m->keys[i] != k) i = (i + 1) & (m->cap - 1);
  if (!m->used[i]) m->n++;
  m->used[i] = 1;
  m->keys[i] = k;
  m->vals[i] = v;
  return 0;
}

static void hm_free(hmap *m) {
  free(m->keys);
  free(m->vals);
  free(m->used);
  memset(m, 0, sizeof *m);
}

static uint64_t key2(int64_t a, int64_t b) {
  return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
}

static const int64_t pow10_tab[19] = {1,
                                      10,
                                      100,
                                      1000,
                                      10000,
                                      100000,
                                      1000000,
                                      10000000,
                                      100000000,
                                      1000000000,
                                      10000000000LL,
                                      100000000000LL,
                                      1000000000000LL,
                                      10000000000000LL,
                                      100000000000000LL,
                                      1000000000000000LL,
                                      10000000000000000LL,
                                      100000000000000000LL,
                                      1000000000000000000LL};

/* The usual form "S.F": 1-10 integer digits (no leading zero unless one
 * digit) and 1-9 fraction digits, at most INT64_MAX ns (9223372036.854775807
 * s); 1 and the results, or 0 for the general parser below (which gives the
 * same results on this form). */
static inline int parse_time_fast(const char *p, size_t len, int64_t *ns,
                                  int *decimals, int *exact) {
  const char *e = p + len;
  uint64_t ip = 0, fp = 0;
  int ni = 0, nf = 0;
  while (p < e && (unsigned)(*p - '0') < 10u) {
    ip = ip * 10 + (uint64_t)(*p++ - '0');
    if (++ni > 10) return 0;
  }
  if (ni == 0 || p == e || *p != '.' || (ni > 1 && p[-ni] == '0')) return 0;
  p++;
  while (p < e && (unsigned)(*p - '0') < 10u) {
    if (nf == 9) return 0;
    fp = fp * 10 + (uint64_t)(*p++ - '0');
    nf++;
  }
  if (nf == 0 || p != e) return 0;
  /* < 10^10 * 10^9 < 2^64: no wrap; above INT64_MAX the general parser
   * reports the overflow */
  uint64_t v = ip * 1000000000u + fp * (uint64_t)pow10_tab[9 - nf];
  if (v > (uint64_t)INT64_MAX) return 0;
  *ns = (int64_t)v;
  *decimals = nf;
  *exact = 1;
  return 1;
}

int pt__picl_parse_time(const char *tok, size_t len, int64_t *ns,
                        int *decimals, int *exact) {
  if (parse_time_fast(tok, len, ns, decimals, exact)) return 0;
  const char *p = tok, *e = tok + len;
  int neg = 0, usual = 1;
  if (p < e && (*p == '-' || *p == '+')) {
    neg = *p == '-';
    usual = *p == '-';
    p++;
  }
  /* the shape first: integer digits [i0, i1), fraction digits [f0, f1),
   * exponent */
  const char *i0 = p;
  while (p < e && *p >= '0' && *p <= '9') p++;
  const char *i1 = p, *f0 = p, *f1 = p;
  if (i1 - i0 > 1 && *i0 == '0') usual = 0; /* leading zero "00.5" */
  if (i1 == i0) usual = 0;                  /* ".5" */
  if (p < e && *p == '.') {
    p++;
    if (p == e || *p < '0' || *p > '9') usual = 0; /* "1." */
    f0 = p;
    while (p < e && *p >= '0' && *p <= '9') p++;
    f1 = p;
  }
  if (i1 == i0 && f1 == f0) return -1;
  int64_t exp10 = 0; /* saturates: beyond 10^12 the result is 0 or overflow */
  if (p < e && (*p == 'e' || *p == 'E')) {
    usual = 0;
    p++;
    int eneg = 0;
    if (p < e && (*p == '-' || *p == '+')) eneg = *p++ == '-';
    if (p == e || *p < '0' || *p > '9') return -1;
    while (p < e && *p >= '0' && *p <= '9') {
      if (exp10 < 1000000000000LL) exp10 = exp10 * 10 + (*p - '0');
      p++;
    }
    if (eneg) exp10 = -exp10;
  }
  if (p != e) return -1;
  /* Each digit weighs 10^pw ns: the first integer digit pw = (number of
   * integer digits - 1) + exp10 + 9, one less for each digit after it.
   * Digits of weight >= 1 ns make the value (exactly, or -2 beyond
   * INT64_MAX); digits below 1 ns are dropped: truncation toward zero. */
  int64_t pw = (int64_t)(i1 - i0) - 1 + exp10 + 9;
  uint64_t v = 0;
  int lost = 0;
  for (const char *q = i0; q < f1; q++) {
    if (q == i1) q = f0; /* skip the '.' */
    if (q == f1) break;
    unsigned d = (unsigned)(*q - '0');
    if (pw >= 0) {
      if (v > ((uint64_t)INT64_MAX - d) / 10) return -2;
      v = v * 10 + d;
    } else if (d) {
      lost = 1;
    }
    pw--;
  }
  /* digits end above 1 ns ("12", "1e3"): scale by the weight of the last */
  for (; pw >= 0 && v; pw--) {
    if (v > (uint64_t)INT64_MAX / 10) return -2;
    v *= 10;
  }
  if (neg && v == 0) usual = 0; /* "-0.000" */
  int64_t dec = (int64_t)(f1 - f0) - exp10;
  if (dec < 0) dec = 0;
  if (dec > 9) usual = 0;
  if (dec > 1000000) dec = 1000000;
  *ns = neg ? -(int64_t)v : (int64_t)v;
  *decimals = (int)dec;
  *exact = usual && !lost;
  return 0;
}

size_t pt__picl_format_time(char *buf, int64_t ns, int decimals) {
  char *p = buf;
  uint64_t a;
  if (ns < 0) {
    *p++ = '-';
    a = (uint64_t)0 - (uint64_t)ns;
  } else {
    a = (uint64_t)ns;
  }
  uint64_t sec = a / 1000000000u, frac = a % 1000000000u;
  int need = 9; /* drop trailing zero digits down to `decimals` */
  while (need > 0 && need > decimals && frac % 10 == 0) {
    frac /= 10;
    need--;
  }
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + sec % 10);
    sec /= 10;
  } while (sec);
  while (n) *p++ = tmp[--n];
  if (need > 0) {
    *p++ = '.';
    /* `need` digits of frac, then zeros up to `decimals` */
    char d[9];
    for (int i = need - 1; i >= 0; i--) {
      d[i] = (char)('0' + frac % 10);
      frac /= 10;
    }
    memcpy(p, d, (size_t)need);
    p += need;
    for (int i = need; i < decimals && i < 30; i++) *p++ = '0';
  } else if (decimals > 0) {
    *p++ = '.';
    for (int i = 0; i < decimals && i < 30; i++) *p++ = '0';
  }
  *p = 0;
  return (size_t)(p - buf);
}

/* Integer token [p, e): optional sign and decimal digits.  0 / -1. */
static int parse_i64(const char *p, const char *e, int64_t *out) {
  int neg = 0;
  if (p < e && (*p == '-' || *p == '+')) neg = *p++ == '-';
  if (p == e) return -1;
  uint64_t v = 0;
  for (; p < e; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (d > 9) return -1;
    if (v > (UINT64_C(9223372036854775808) - d) / 10) return -1;
    v = v * 10 + d;
  }
  if (!neg && v > (uint64_t)INT64_MAX) return -1;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 0;
}

/* Floating point token: validated by hand (no inf/nan/hex), converted with
 * strtod on a bounded copy (data doubles are rare; times never use this). */
static int parse_double(const char *p, const char *e, double *out) {
  size_t n = (size_t)(e - p);
  if (n == 0 || n > 63) return -1;
  int digits = 0;
  for (const char *q = p; q < e; q++) {
    char c = *q;
    if (c >= '0' && c <= '9')
      digits = 1;
    else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
      return -1;
  }
  if (!digits) return -1;
  char tmp[64];
  memcpy(tmp, p, n);
  tmp[n] = 0;
  char *end;
  errno = 0;
  double d = strtod(tmp, &end);
  if (end != tmp + n) return -1;
  *out = d;
  return 0;
}

/* Fixed-notation double: `decimals` >= 0 digits if that reads back
 * exactly, else (and for decimals < 0) the fewest that do; %.17g for
 * values fixed notation cannot show well.  Returns the length. */
static size_t fmt_double(char *buf, size_t cap, double d, int decimals,
                         int strict) {
  if (!isfinite(d)) return (size_t)snprintf(buf, cap, "%s", d != d ? "nan" : d < 0 ? "-inf" : "inf");
  if (fabs(d) < 1e15 && (d == 0 || fabs(d) >= 1e-9)) {
    if (decimals >= 0) {
      int n = snprintf(buf, cap, "%.*f", decimals, d);
      if (strict || strtod(buf, NULL) == d) return (size_t)n;
    }
    for (int p = 0; p <= 20; p++) {
      int n = snprintf(buf, cap, "%.*f", p, d);
      if (strtod(buf, NULL) == d) return (size_t)n;
    }
  }
  return (size_t)snprintf(buf, cap, "%.17g", d);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

/* Conversion of a scanf control string. */
enum { CV_INT, CV_DOUBLE, CV_STRING, CV_CHAR };

/* Parse a control string into conversions; returns their number (0 if the
 * string has none) or -1 if there are more than `max`. */
static int parse_control(const char *s, size_t n, uint8_t *cv, int max) {
  int k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '%') continue;
    i++;
    if (i < n && s[i] == '%') continue;
    if (i < n && s[i] == '*') i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    while (i < n && (s[i] == 'l' || s[i] == 'h' || s[i] == 'L' || s[i] == 'q' ||
                     s[i] == 'j' || s[i] == 'z' || s[i] == 't'))
      i++;
    if (i >= n) break;
    int c;
    switch (s[i]) {
      case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
        c = CV_INT;
        break;
      case 'f': case 'e': case 'g': case 'E': case 'G': case 'a': case 'F':
        c = CV_DOUBLE;
        break;
      case 'c':
        c = CV_CHAR;
        break;
      default: /* s, [ and anything else: one token */
        c = CV_STRING;
        break;
    }
    if (k >= max) return -1;
    cv[k++] = (uint8_t)c;
  }
  return k;
}

/* ---------------------------------------------------------------------- */
/* Source                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct open_entry {
  int64_t et;
  uint64_t region;
} open_entry;

/* entries of labelled event types tracked per location (deeper ones are
 * not: their exits take the label's region) */
#define PICL_MAX_OPEN 65536

typedef struct loc_state {
  uint64_t id;
  uint64_t last; /* last event time */
  int64_t entry_code;
  int nentry;
  int64_t entry[4]; /* data of the last entry record */
  open_entry *open; /* entries of labelled types not yet exited */
  uint32_t nopen, capopen;
} loc_state;

typedef struct desc_bind {
  char *format;
  size_t len;
} desc_bind;

#define QMAX 24

typedef struct picl_src {
  char *name;
  int fd;
  const char *mem;
  size_t memlen;
  char *buf;
  size_t cap, start, end;
  int eof;
  uint64_t lineno;
  const char *line; /* current line and its length */
  size_t linelen;

  pt_item q[QMAX];
  int qn, qi;
  pt__arena arena; /* items of the current record */
  uint64_t next_id;
  uint64_t attr_id[K__COUNT];
  int started, events_done;

  hmap groups;  /* processor -> group id */
  hmap locs;    /* (processor, process) -> index into ls */
  /* Regions: one per name (a -5 label's, else the event type's), shared
   * by the event types that carry the name.  A label names its event type
   * on the (processor, process) of its record, -1 a wildcard. */
  hmap regions; /* name index -> region id */
  hmap rcode;   /* region id -> event type of its first record */
  hmap etreg;   /* event type never labelled -> region id */
  hmap lbind;   /* (event type, location index) -> name index */
  hmap lglobal; /* event type -> name index of its latest label */
  hmap name_ix; /* hash of a name (probed on) -> name index */
  /* direct-mapped caches in front of locs and etreg (a slot is valid
   * when its *_ok is set): most records hit them */
  uint64_t lc_key[16], lc_ix[16], rc_key[64], rc_id[64];
  int64_t rc_code[64];
  uint8_t lc_ok[16], rc_ok[64];
  pt_item *out; /* the caller's item while a record is parsed, or NULL */
  hmap labels;  /* event type -> label id */
  hmap ctx;     /* (within, event type) -> label id */
  hmap descs;   /* descriptor code -> index into db */
  hmap stat_ix; /* summary key -> index into sums (current block) */
  char **names; /* region names, interned */
  size_t nnames, capnames;
  loc_state *ls;
  size_t nls, capls;
  uint64_t loc_seq;
  desc_bind *db;
  size_t ndb, capdb;

  int have_base;
  int64_t bias;  /* ticks added to every time */
  int decimals;  /* of the first record */
  uint64_t global_last;
  int warned_order, warned_desc;

  pt_summary *sums;
  size_t nsums, capsums, sum_emit;
  uint64_t stat_loc, stat_time; /* block the stat_ix map describes */
  int stat_block;

  pt_warn_fn warn;
  void *warn_user;
  char err[512];
} picl_src;

/* A parsed record. */
/* parse_record clears every field before cv one by one: a new field must
 * be cleared there too. */
typedef struct rec {
  int64_t rt, et, proc, process, ndata;
  int64_t ns;
  int decimals, time_exact;
  const char *time_tok;
  size_t time_len;
  /* descriptor */
  int has_desc, desc_is_string;
  int64_t desc_code;
  const char *desc_str; /* inside the quotes */
  size_t desc_len;
  /* values */
  pt_value *vals;
  const char **vtok; /* token of each value */
  size_t *vlen;
  size_t nvals;
  int all_int;
  const char *text; /* character data (NUL-terminated copy) */
  size_t textlen;
  const char *raw; /* verbatim data (unknown descriptor) */
  int nconv;
  uint8_t cv[PICL_MAX_CONV];
} rec;

static int src_err(picl_src *s, int status, const char *at, const char *fmt,
                   ...) PT_PRINTF(4, 5);
static int src_err(picl_src *s, int status, const char *at, const char *fmt,
                   ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (at && s->line && at >= s->line && at <= s->line + s->linelen)
    snprintf(s->err, sizeof s->err, "%s:%" PRIu64 ":%zu: %s", s->name,
             s->lineno, (size_t)(at - s->line) + 1, msg);
  else
    snprintf(s->err, sizeof s->err, "%s:%" PRIu64 ": %s", s->name, s->lineno,
             msg);
  return status;
}

static void src_warn(picl_src *s, const char *fmt, ...) PT_PRINTF(2, 3);
static void src_warn(picl_src *s, const char *fmt, ...) {
  if (!s->warn) return;
  char msg[400], full[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(full, sizeof full, "%s:%" PRIu64 ": %s", s->name, s->lineno, msg);
  s->warn(s->warn_user, full);
}

/* The next queue slot.  While a record is parsed the first slot is the
 * caller's item (s->out): the common record of one event is built in
 * place, not copied out of the queue. */
static pt_item *q_slot(picl_src *s) {
  if (s->qn >= QMAX) return NULL;
  pt_item *it = s->qn == 0 && s->out ? s->out : &s->q[s->qn];
  s->qn++;
  return it;
}

static pt_item *q_push(picl_src *s) {
  pt_item *it = q_slot(s);
  if (it) memset(it, 0, sizeof *it);
  return it;
}

static pt_def *q_def(picl_src *s, uint32_t kind, uint64_t id) {
  pt_item *it = q_push(s);
  if (!it) return NULL;
  it->type = PT_ITEM_DEF;
  pt_def_init(&it->u.def, kind, id);
  return &it->u.def;
}

static pt_event *q_event(picl_src *s, uint32_t kind, uint64_t time,
                         uint64_t loc) {
  /* Not q_push: pt_event_init clears the event, the only member of the
   * union an event item uses; clearing the whole item twice per event cost
   * a measurable share of the parse time. */
  pt_item *it = q_slot(s);
  if (!it) return NULL;
  it->type = PT_ITEM_EVENT;
  pt_event *ev = &it->u.event;
  /* a copy of a zero event, not a memset: gcc makes the memset of this
   * size a slow `rep stos` */
  static const pt_event zero;
  *ev = zero;
  ev->kind = kind;
  ev->time = time;
  ev->location = loc;
  return ev;
}

static char *arena_strndup(pt__arena *a, const char *p, size_t n) {
  char *d = pt__arena_alloc(a, n + 1);
  if (d) {
    memcpy(d, p, n);
    d[n] = 0;
  }
  return d;
}

static char *arena_printf(pt__arena *a, const char *fmt, ...) PT_PRINTF(2, 3);
static char *arena_printf(pt__arena *a, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  return arena_strndup(a, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Name of an event type for regions and labels. */
static char *evtype_name(picl_src *s, int64_t et) {
  const picl_evtype *t = evtype_find(et);
  if (t) return arena_strndup(&s->arena, t->name, strlen(t->name));
  if (et >= 0) return arena_printf(&s->arena, "user event %" PRId64, et);
  return arena_printf(&s->arena, "event %" PRId64, et);
}

/* ---- definitions made on demand ----------------------------------------- */

static int start_defs(picl_src *s) {
  pt_def *d = q_def(s, PT_DEF_CLOCK, 0);
  if (!d) return PT_ENOMEM;
  d->i0 = PT_PICL_TICKS_PER_SECOND;
  for (int k = 0; k < K__COUNT; k++) {
    s->attr_id[k] = s->next_id++;
    d = q_def(s, PT_DEF_ATTRIBUTE, s->attr_id[k]);
    if (!d) return PT_ENOMEM;
    d->i0 = attr_table[k].type;
    d->name = attr_table[k].name;
    d->s1 = attr_table[k].desc;
  }
  return 0;
}

static int keyval(picl_src *s, uint64_t scope, const char *name,
                  const char *value) {
  pt_def *d = q_def(s, PT_DEF_KEYVAL, s->next_id++);
  if (!d) return PT_ENOMEM;
  d->parent = scope;
  d->name = name;
  d->s1 = value;
  return 0;
}

/* Location state of (processor, process), with its defs on first sight. */
static int location(picl_src *s, int64_t proc, int64_t process,
                    loc_state **out) {
  uint64_t k = key2(proc, process), ix;
  size_t ci = (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 60);
  if (s->lc_ok[ci] && s->lc_key[ci] == k) {
    *out = &s->ls[s->lc_ix[ci]];
    return 0;
  }
  if (hm_get(&s->locs, k, &ix)) {
    s->lc_key[ci] = k;
    s->lc_ok[ci] = 1;
    s->lc_ix[ci] = ix;
    *out = &s->ls[ix];
    return 0;
  }
  uint64_t gid;
  int new_group = !hm_get(&s->groups, (uint64_t)proc, &gid);
  if (new_group) {
    gid = proc >= 0 ? (uint64_t)proc
                    : PICL_GROUP_BASE + (uint64_t)(uint32_t)(-proc);
    if (hm_put(&s->groups, (uint64_t)proc, gid)) return PT_ENOMEM;
    pt_def *d = q_def(s, PT_DEF_LOCATION_GROUP, gid);
    if (!d) return PT_ENOMEM;
    d->parent = PT_NONE;
    d->ref = PT_NONE;
    d->i1 = proc;
    d->name = proc == PICL_HOST ? arena_printf(&s->arena, "host %" PRId64, proc)
              : proc == -1    ? "all processors"
              : proc < -1 ? arena_printf(&s->arena, "processor subset %" PRId64, proc)
                          : arena_printf(&s->arena, "processor %" PRId64, proc);
  }
  uint64_t lid = new_group && proc >= 0 ? (uint64_t)proc : PICL_LOC_BASE + s->loc_seq++;
  if (s->nls == s->capls) {
    size_t cap = s->capls ? s->capls * 2 : 16;
    loc_state *n = realloc(s->ls, cap * sizeof *n);
    if (!n) return PT_ENOMEM;
    s->ls = n;
    s->capls = cap;
  }
  loc_state *l = &s->ls[s->nls];
  memset(l, 0, sizeof *l);
  l->id = lid;
  if (hm_put(&s->locs, k, s->nls)) return PT_ENOMEM;
  s->nls++;
  pt_def *d = q_def(s, PT_DEF_LOCATION, lid);
  if (!d) return PT_ENOMEM;
  d->parent = gid;
  d->i0 = PT_LOCATION_THREAD;
  d->name = arena_printf(&s->arena, "processor %" PRId64 " process %" PRId64,
                         proc, process);
  int rc = keyval(s, lid, "picl.process",
                  arena_printf(&s->arena, "%" PRId64, process));
  if (rc) return rc;
  *out = l;
  return 0;
}

static int is_user_type(int64_t x) { return x >= 0; }

/* Index of `name` among the interned names (added if new). */
static int intern(picl_src *s, const char *name, uint64_t *ix) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (const unsigned char *p = (const unsigned char *)name; *p; p++)
    h = (h ^ *p) * UINT64_C(1099511628211);
  for (; hm_get(&s->name_ix, h, ix); h++)
    if (strcmp(s->names[*ix], name) == 0) return 0;
  if (s->nnames == s->capnames) {
    size_t cap = s->capnames ? s->capnames * 2 : 8;
    char **nn = realloc(s->names, cap * sizeof *nn);
    if (!nn) return PT_ENOMEM;
    s->names = nn;
    s->capnames = cap;
  }
  char *cp = strdup(name);
  if (!cp || hm_put(&s->name_ix, h, s->nnames)) {
    free(cp);
    return PT_ENOMEM;
  }
  *ix = s->nnames;
  s->names[s->nnames++] = cp;
  return 0;
}

/* The region called names[ix], defined on first use by a record of event
 * type et.  Its role and paradigm: those of the MPI function of that name
 * (the name our writer labels an MPI call's event type with), else the
 * table's of et (paradigm PICL), else a user event's. */
static int region_named(picl_src *s, int64_t et, uint64_t ix, uint64_t *id) {
  if (hm_get(&s->regions, ix, id)) return 0;
  *id = s->next_id++;
  if (hm_put(&s->regions, ix, *id) ||
      hm_put(&s->rcode, *id, (uint64_t)(uint32_t)et))
    return PT_ENOMEM;
  pt_def *d = q_def(s, PT_DEF_REGION, *id);
  if (!d) return PT_ENOMEM;
  const picl_evtype *t = evtype_find(et);
  int mpi = pt__mpi_fn_find(s->names[ix]);
  d->i0 = mpi >= 0 ? pt__mpi_fn_role(mpi) : t ? t->role : PT_ROLE_USER;
  d->i1 = mpi >= 0 ? PT_PARADIGM_MPI : t ? PT_PARADIGM_PICL : PT_PARADIGM_USER;
  d->name = s->names[ix]; /* interned until close */
  d->s1 = arena_printf(&s->arena, "PICL:%" PRId64, et);
  if (t && (t->entry != L_NONE || t->exit != L_NONE))
    d->s2 = arena_printf(&s->arena, "entry data: %d (%s); exit data: %d (%s)",
                         layout_nfields[t->entry], layout_names[t->entry],
                         layout_nfields[t->exit], layout_names[t->exit]);
  return d->s1 ? 0 : PT_ENOMEM;
}

/* The name index of event type et's -5 label for location li (processor
 * proc, process pr): the label given there, else on (proc, -1), else on
 * (-1, -1); else, for a user event type (which has no name of its own),
 * the latest label of et on any processor (files that label a type once).
 * 0: no label applies. */
static int label_of(picl_src *s, int64_t et, int64_t proc, int64_t pr,
                    uint64_t li, uint64_t *ix) {
  if (!hm_get(&s->lglobal, (uint64_t)et, ix)) return 0;
  uint64_t w;
  return hm_get(&s->lbind, key2(et, (int64_t)li), ix) ||
         (pr != -1 && hm_get(&s->locs, key2(proc, -1), &w) &&
          hm_get(&s->lbind, key2(et, (int64_t)w), ix)) ||
         (proc != -1 && hm_get(&s->locs, key2(-1, -1), &w) &&
          hm_get(&s->lbind, key2(et, (int64_t)w), ix)) ||
         is_user_type(et);
}

/* An exit of a labelled event type et on l: the region of the innermost
 * entry of et not yet exited there (taken off), else 0. */
static int open_exit(loc_state *l, int64_t et, uint64_t *id) {
  for (uint32_t i = l->nopen; i-- > 0;)
    if (l->open[i].et == et) {
      *id = l->open[i].region;
      memmove(&l->open[i], &l->open[i + 1], (l->nopen - i - 1) * sizeof *l->open);
      l->nopen--;
      return 1;
    }
  return 0;
}

static int open_entry_push(loc_state *l, int64_t et, uint64_t id) {
  if (l->nopen == l->capopen) {
    if (l->capopen >= PICL_MAX_OPEN) return 0;
    uint32_t cap = l->capopen ? l->capopen * 2 : 8;
    open_entry *n = realloc(l->open, cap * sizeof *n);
    if (!n) return PT_ENOMEM;
    l->open = n;
    l->capopen = cap;
  }
  l->open[l->nopen++] = (open_entry){et, id};
  return 0;
}

/* The region of an entry (is_exit 0) or exit record of event type et on
 * location li (processor proc, process pr), and in *code the event type
 * the region was first seen with.  An event type never labelled has the
 * region of its table name; a labelled one that of its label there; an
 * exit record that of its entry (a label between the two does not part
 * them; an entry from before the type's first label has its name). */
static int region(picl_src *s, int64_t et, int64_t proc, int64_t pr,
                  uint64_t li, int is_exit, uint64_t *id, int64_t *code) {
  size_t ci = (size_t)et & 63;
  if (s->rc_ok[ci] && s->rc_key[ci] == (uint64_t)et) {
    *id = s->rc_id[ci];
    *code = s->rc_code[ci];
    return 0;
  }
  int rc = 0;
  uint64_t ix, c;
  loc_state *l = &s->ls[li];
  if (!label_of(s, et, proc, pr, li, &ix)) {
    if (!hm_get(&s->etreg, (uint64_t)et, id)) {
      const char *n = evtype_name(s, et);
      if (!n || intern(s, n, &ix) || region_named(s, et, ix, id) ||
          hm_put(&s->etreg, (uint64_t)et, *id))
        return PT_ENOMEM;
    }
    hm_get(&s->rcode, *id, &c);
    *code = (int32_t)(uint32_t)c;
    if (!hm_get(&s->lglobal, (uint64_t)et, &ix)) { /* never labelled */
      s->rc_key[ci] = (uint64_t)et;
      s->rc_ok[ci] = 1;
      s->rc_id[ci] = *id;
      s->rc_code[ci] = *code;
    }
    return 0;
  }
  if (!is_exit)
    rc = region_named(s, et, ix, id) ? PT_ENOMEM : open_entry_push(l, et, *id);
  else if (!open_exit(l, et, id) && !hm_get(&s->etreg, (uint64_t)et, id))
    rc = region_named(s, et, ix, id);
  if (rc) return PT_ENOMEM;
  hm_get(&s->rcode, *id, &c);
  *code = (int32_t)(uint32_t)c;
  return 0;
}

static int label_new(picl_src *s, int64_t et, int64_t rt, const char *name,
                     uint64_t *id) {
  *id = s->next_id++;
  pt_def *d = q_def(s, PT_DEF_LABEL, *id);
  if (!d) return PT_ENOMEM;
  d->i0 = et;
  d->i1 = rt;
  d->name = name ? name : evtype_name(s, et);
  return d->name ? 0 : PT_ENOMEM;
}

static int label(picl_src *s, int64_t et, uint64_t *id) {
  if (hm_get(&s->labels, (uint64_t)et, id)) return 0;
  int rc = label_new(s, et, 0, NULL, id);
  if (rc) return rc;
  return hm_put(&s->labels, (uint64_t)et, *id);
}

/* ---- reading lines ---------------------------------------------------- */

/* Next non-empty line into s->line; PT_OK, PT_END or an error. */
static int next_line(picl_src *s) {
  for (;;) {
    const char *nl = NULL;
    if (s->fd < 0) {
      if (s->start >= s->memlen) return PT_END;
      const char *p = s->mem + s->start;
      nl = memchr(p, '\n', s->memlen - s->start);
      size_t n = nl ? (size_t)(nl - p) : s->memlen - s->start;
      s->line = p;
      s->linelen = n;
      s->start += n + 1;
    } else {
      nl = s->end > s->start ? memchr(s->buf + s->start, '\n', s->end - s->start)
                             : NULL;
      if (!nl && !s->eof) {
        if (s->start > 0) {
          memmove(s->buf, s->buf + s->start, s->end - s->start);
          s->end -= s->start;
          s->start = 0;
        }
        if (s->end >= PICL_MAX_LINE) {
          s->lineno++;
          s->line = NULL;
          return src_err(s, PT_ELIMIT, NULL, "line longer than %zu bytes",
                         PICL_MAX_LINE);
        }
        ssize_t r;
        do {
          r = read(s->fd, s->buf + s->end, s->cap - s->end);
        } while (r < 0 && errno == EINTR);
        if (r < 0)
          return src_err(s, PT_EIO, NULL, "read: %s", strerror(errno));
        if (r == 0) s->eof = 1;
        s->end += (size_t)r;
        continue;
      }
      if (!nl && s->start >= s->end) return PT_END;
      const char *p = s->buf + s->start;
      size_t n = nl ? (size_t)(nl - p) : s->end - s->start;
      s->line = p;
      s->linelen = n;
      s->start += nl ? n + 1 : n;
    }
    s->lineno++;
    while (s->linelen && (s->line[s->linelen - 1] == '\r'))
      s->linelen--;
    size_t i = 0;
    while (i < s->linelen && is_blank(s->line[i])) i++;
    if (i < s->linelen) return PT_OK;
  }
}

/* ---- parsing one record ------------------------------------------------ */

typedef struct cur {
  const char *p, *e;
} cur;

/* Next blank-delimited token; 0 if none. */
static inline int tok(cur *c, const char **t, size_t *n) {
  const char *p = c->p;
  while (p < c->e && is_blank(*p)) p++;
  if (p == c->e) {
    c->p = p;
    *t = p;
    *n = 0;
    return 0;
  }
  const char *q = p;
  while (q < c->e && !is_blank(*q)) q++;
  *t = p;
  *n = (size_t)(q - p);
  c->p = q;
  return 1;
}

/* A string token: a quoted one runs to the closing quote (quotes kept). */
static int tok_string(cur *c, const char **t, size_t *n) {
  const char *p = c->p;
  while (p < c->e && is_blank(*p)) p++;
  if (p < c->e && *p == '"') {
    const char *q = memchr(p + 1, '"', (size_t)(c->e - p - 1));
    if (!q) return -1;
    *t = p;
    *n = (size_t)(q + 1 - p);
    c->p = q + 1;
    return 1;
  }
  c->p = p;
  return tok(c, t, n);
}

static const char *const field_names[] = {"record type", "event type",
                                          "timestamp",   "processor id",
                                          "process id",  "number of data fields"};

/* The general way for int_field: any blanks, a sign, overflow checks, and
 * the error that names the field. */
static int int_field_slow(picl_src *s, cur *c, int i, int64_t lo, int64_t hi,
                          int64_t *out) {
  const char *t;
  size_t n;
  if (!tok(c, &t, &n))
    return src_err(s, PT_ECORRUPT, c->p, "missing %s", field_names[i]);
  if (parse_i64(t, t + n, out) || *out < lo || *out > hi)
    return src_err(s, PT_ECORRUPT, t, "bad %s '%.*s'", field_names[i],
                   (int)(n > 40 ? 40 : n), t);
  return 0;
}

/* Integer field i of a record, within [lo, hi]. */
static inline int int_field(picl_src *s, cur *c, int i, int64_t lo,
                            int64_t hi, int64_t *out) {
  /* the usual form: one blank, optional '-', 1-18 digits, then a blank or
   * the end of the line; anything else goes the general way */
  const char *p = c->p;
  if (p < c->e && *p == ' ') p++;
  if (p < c->e) {
    int neg = *p == '-';
    const char *q = p + neg;
    uint64_t v = 0;
    int nd = 0;
    while (q < c->e && (unsigned)(*q - '0') < 10u && nd < 18) {
      v = v * 10 + (uint64_t)(*q++ - '0');
      nd++;
    }
    if (nd && (q == c->e || *q == ' ')) {
      int64_t x = neg ? -(int64_t)v : (int64_t)v;
      if (x >= lo && x <= hi) {
        c->p = q;
        *out = x;
        return 0;
      }
    }
  }
  return int_field_slow(s, c, i, lo, hi, out);
}

static int parse_record(picl_src *s, rec *r) {
  cur c = {s->line, s->line + s->linelen};
  int rc;
  /* field by field: a memset of the whole record was a measurable share
   * of the parse time */
  r->rt = r->et = r->proc = r->process = r->ndata = r->ns = 0;
  r->decimals = r->time_exact = 0;
  r->time_tok = NULL;
  r->time_len = 0;
  r->has_desc = r->desc_is_string = 0;
  r->desc_code = 0;
  r->desc_str = NULL;
  r->desc_len = 0;
  r->vals = NULL;
  r->vtok = NULL;
  r->vlen = NULL;
  r->nvals = 0;
  r->all_int = 0;
  r->text = NULL;
  r->textlen = 0;
  r->raw = NULL;
  r->nconv = 0;
  if ((rc = int_field(s, &c, 0, INT32_MIN, INT32_MAX, &r->rt))) return rc;
  if ((rc = int_field(s, &c, 1, INT32_MIN, INT32_MAX, &r->et))) return rc;
  if (!tok(&c, &r->time_tok, &r->time_len))
    return src_err(s, PT_ECORRUPT, c.p, "missing timestamp");
  rc = pt__picl_parse_time(r->time_tok, r->time_len, &r->ns, &r->decimals,
                           &r->time_exact);
  if (rc == -2)
    return src_err(s, PT_ECORRUPT, r->time_tok,
                   "timestamp '%.*s' out of range: times must lie within "
                   "+-9223372036.854775807 s (2^63-1 ns)",
                   (int)(r->time_len > 40 ? 40 : r->time_len), r->time_tok);
  if (rc)
    return src_err(s, PT_ECORRUPT, r->time_tok, "bad timestamp '%.*s'",
                   (int)(r->time_len > 40 ? 40 : r->time_len), r->time_tok);
  if ((rc = int_field(s, &c, 3, INT32_MIN, INT32_MAX, &r->proc))) return rc;
  if ((rc = int_field(s, &c, 4, INT32_MIN, INT32_MAX, &r->process))) return rc;
  const char *nd_at = c.p;
  if ((rc = int_field(s, &c, 5, 0, INT32_MAX, &r->ndata))) return rc;
  const char *t;
  size_t n;
  if (r->ndata == 0) {
    if (tok(&c, &t, &n))
      return src_err(s, PT_ECORRUPT, t,
                     "data after a record with 0 data fields");
    return 0;
  }
  /* descriptor */
  const char *dat = c.p;
  while (dat < c.e && is_blank(*dat)) dat++;
  if (dat == c.e)
    return src_err(s, PT_ECORRUPT, dat, "missing data descriptor");
  r->has_desc = 1;
  if (*dat == '"') {
    int q = tok_string(&c, &t, &n);
    if (q < 0)
      return src_err(s, PT_ECORRUPT, dat, "unterminated data descriptor");
    r->desc_is_string = 1;
    r->desc_str = t + 1;
    r->desc_len = n - 2;
    r->nconv = parse_control(r->desc_str, r->desc_len, r->cv, PICL_MAX_CONV);
    if (r->nconv < 0)
      return src_err(s, PT_ECORRUPT, dat,
                     "data descriptor with more than %d conversions",
                     PICL_MAX_CONV);
  } else {
    tok(&c, &t, &n);
    if (parse_i64(t, t + n, &r->desc_code))
      return src_err(s, PT_ECORRUPT, t, "bad data descriptor '%.*s'",
                     (int)(n > 40 ? 40 : n), t);
    uint64_t ix;
    if (hm_get(&s->descs, (uint64_t)r->desc_code, &ix)) {
      r->nconv = parse_control(s->db[ix].format, s->db[ix].len, r->cv,
                               PICL_MAX_CONV);
      if (r->nconv < 0) r->nconv = 0;
    } else if (r->desc_code >= 0 && r->desc_code < NDESC) {
      r->nconv = parse_control(desc_strings[r->desc_code],
                               strlen(desc_strings[r->desc_code]), r->cv,
                               PICL_MAX_CONV);
    } else {
      r->nconv = 0;
    }
  }
  if (r->nconv == 0) {
    /* not understood: keep the data verbatim */
    const char *p = c.p;
    if (p < c.e && is_blank(*p)) p++;
    r->raw = arena_strndup(&s->arena, p, (size_t)(c.e - p));
    if (!r->raw) return PT_ENOMEM;
    if (!s->warned_desc) {
      s->warned_desc = 1;
      src_warn(s, "data descriptor not understood; data kept verbatim");
    }
    return 0;
  }
  if (r->nconv == 1 && r->cv[0] == CV_CHAR) {
    /* character data: the rest of the line after one separator */
    const char *p = c.p;
    if (p < c.e && is_blank(*p)) p++;
    r->textlen = (size_t)(c.e - p);
    char *txt = arena_strndup(&s->arena, p, r->textlen);
    if (!txt) return PT_ENOMEM;
    r->text = txt;
    return 0;
  }
  uint64_t nv = (uint64_t)r->ndata * (uint64_t)r->nconv;
  if (nv > s->linelen)
    return src_err(s, PT_ECORRUPT, nd_at,
                   "%" PRId64 " data fields cannot fit in the line", r->ndata);
  r->vals = pt__arena_alloc(&s->arena, nv * sizeof *r->vals);
  r->vtok = pt__arena_alloc(&s->arena, nv * sizeof *r->vtok);
  r->vlen = pt__arena_alloc(&s->arena, nv * sizeof *r->vlen);
  if (!r->vals || !r->vtok || !r->vlen) return PT_ENOMEM;
  r->all_int = 1;
  for (uint64_t i = 0; i < nv; i++) {
    int cvk = r->cv[i % (uint64_t)r->nconv];
    pt_value *v = &r->vals[i];
    memset(v, 0, sizeof *v);
    int got = cvk == CV_STRING ? tok_string(&c, &t, &n) : tok(&c, &t, &n);
    if (got < 0)
      return src_err(s, PT_ECORRUPT, c.p, "unterminated quoted string");
    if (!got)
      return src_err(s, PT_ECORRUPT, c.p,
                     "expected %" PRId64 " data fields, found fewer values "
                     "than the descriptor asks for",
                     r->ndata);
    r->vtok[i] = t;
    r->vlen[i] = n;
    switch (cvk) {
      case CV_INT:
        v->type = PT_TYPE_INT;
        if (parse_i64(t, t + n, &v->v.i))
          return src_err(s, PT_ECORRUPT, t, "bad integer '%.*s'",
                         (int)(n > 40 ? 40 : n), t);
        break;
      case CV_DOUBLE:
        v->type = PT_TYPE_DOUBLE;
        r->all_int = 0;
        if (parse_double(t, t + n, &v->v.d))
          return src_err(s, PT_ECORRUPT, t, "bad number '%.*s'",
                         (int)(n > 40 ? 40 : n), t);
        break;
      case CV_CHAR:
        /* one character of a mixed control string: a 1-byte token */
        if (n != 1)
          return src_err(s, PT_ECORRUPT, t, "expected one character");
        /* fall through */
      default:
        v->type = PT_TYPE_STRING;
        r->all_int = 0;
        v->v.s = arena_strndup(&s->arena, t, n);
        if (!v->v.s) return PT_ENOMEM;
        break;
    }
  }
  r->nvals = (size_t)nv;
  if (tok(&c, &t, &n))
    return src_err(s, PT_ECORRUPT, t,
                   "more data than %" PRId64 " data fields", r->ndata);
  return 0;
}

/* ---- the writer's derivation of descriptor and ndata --------------------- */

/* What the sink writes for a value list when no descriptor attribute says
 * otherwise: all integers -> 2, all doubles -> 5, all strings -> 1, char
 * text -> 0 (code >= 0); mixed -> -1 (a control string built from types). */
static int default_code(const pt_value *v, size_t n, int is_text) {
  if (is_text) return 0;
  if (n == 0) return 2;
  uint32_t t = v[0].type;
  for (size_t i = 1; i < n; i++)
    if (v[i].type != t) return -1;
  return t == PT_TYPE_INT ? 2 : t == PT_TYPE_DOUBLE ? 5 : t == PT_TYPE_STRING ? 1 : -1;
}

/* ---- building the items of a record -------------------------------------- */

typedef struct attrs {
  pt_attr *a;
  uint32_t n, cap;
} attrs;

static void at_add(attrs *A, uint64_t key, pt_value v) {
  if (A->n < A->cap) A->a[A->n++] = (pt_attr){key, v};
}

/* Attributes carrying the data and format of record r.  `text_slot`: the
 * event kind has a text slot that takes character data. */
static int data_attrs(picl_src *s, const rec *r, int text_slot, attrs *A,
                      const char **text) {
  *text = NULL;
  if (!r->raw && !r->text && !r->nvals && !r->has_desc &&
      r->decimals == s->decimals && r->time_exact) {
    /* the usual record without data: nothing to keep */
    A->cap = A->n = 0;
    A->a = NULL;
    return 0;
  }
  A->cap = (uint32_t)(r->nvals + 8);
  A->n = 0;
  A->a = pt__arena_alloc(&s->arena, A->cap * sizeof *A->a);
  if (!A->a) return PT_ENOMEM;
  *text = NULL;
  pt_value v;
  if (r->raw) {
    v = (pt_value){PT_TYPE_STRING, 0, {.s = r->raw}};
    at_add(A, s->attr_id[K_RAW], v);
  } else if (r->text) {
    if (text_slot) {
      *text = r->text;
    } else {
      v = (pt_value){PT_TYPE_STRING, 0, {.s = r->text}};
      at_add(A, s->attr_id[K_TEXT], v);
    }
  } else if (r->nvals && r->all_int) {
    int64_t *ints = pt__arena_alloc(&s->arena, r->nvals * sizeof *ints);
    if (!ints) return PT_ENOMEM;
    for (size_t i = 0; i < r->nvals; i++) ints[i] = r->vals[i].v.i;
    v = (pt_value){PT_TYPE_INTS, (uint32_t)r->nvals, {.ints = ints}};
    at_add(A, s->attr_id[K_INTS], v);
  } else {
    /* floating point values must read back as written: the writer's
     * default (file decimals), the shortest form, one fixed number of
     * decimals -- else the data are kept verbatim */
    int ddec = INT32_MIN, mode = 0; /* 0 default, 1 shortest, 2 fixed */
    for (int m = 0; m < 3; m++) {
      int ok = 1;
      for (size_t i = 0; i < r->nvals && ok; i++) {
        if (r->vals[i].type != PT_TYPE_DOUBLE) continue;
        if (m == 2 && ddec == INT32_MIN) {
          const char *dot = memchr(r->vtok[i], '.', r->vlen[i]);
          ddec = dot ? (int)(r->vtok[i] + r->vlen[i] - dot - 1) : 0;
        }
        char buf[400];
        size_t n = fmt_double(buf, sizeof buf, r->vals[i].v.d,
                              m == 0 ? s->decimals : m == 1 ? -1 : ddec, m == 2);
        ok = n == r->vlen[i] && memcmp(buf, r->vtok[i], n) == 0;
      }
      if (ok) {
        mode = m;
        break;
      }
      mode = 3;
    }
    if (mode == 3) {
      /* verbatim: the data after the descriptor */
      const char *p = r->vtok[0], *e = r->vtok[r->nvals - 1] + r->vlen[r->nvals - 1];
      v = (pt_value){PT_TYPE_STRING, 0, {.s = arena_strndup(&s->arena, p, (size_t)(e - p))}};
      if (!v.v.s) return PT_ENOMEM;
      at_add(A, s->attr_id[K_RAW], v);
    } else if (mode) {
      at_add(A, s->attr_id[K_DDEC], (pt_value){PT_TYPE_INT, 0, {.i = mode == 1 ? -1 : ddec}});
    }
    for (size_t i = 0; i < r->nvals && mode != 3; i++) {
      int k = r->vals[i].type == PT_TYPE_INT      ? K_INT
              : r->vals[i].type == PT_TYPE_DOUBLE ? K_DOUBLE
                                                  : K_STRING;
      at_add(A, s->attr_id[k], r->vals[i]);
    }
  }
  int verbatim = A->n && A->a[0].key == s->attr_id[K_RAW];
  if (r->has_desc) {
    int dflt = verbatim ? -2 : default_code(r->vals, r->nvals, r->text != NULL);
    int64_t want_ndata;
    if (r->desc_is_string) {
      char *d = arena_strndup(&s->arena, r->desc_str, r->desc_len);
      if (!d) return PT_ENOMEM;
      at_add(A, s->attr_id[K_DESC], (pt_value){PT_TYPE_STRING, 0, {.s = d}});
      want_ndata = r->text ? (int64_t)r->textlen
                   : r->nconv ? (int64_t)(r->nvals / (size_t)r->nconv) : -1;
    } else {
      if (r->desc_code != dflt)
        at_add(A, s->attr_id[K_DESC_CODE],
               (pt_value){PT_TYPE_INT, 0, {.i = r->desc_code}});
      want_ndata = r->text ? (int64_t)r->textlen : (int64_t)r->nvals;
      if (r->nconv > 1 && !r->text)
        want_ndata = (int64_t)(r->nvals / (size_t)r->nconv);
    }
    if (verbatim || want_ndata != r->ndata)
      at_add(A, s->attr_id[K_NDATA], (pt_value){PT_TYPE_INT, 0, {.i = r->ndata}});
  }
  if (r->decimals != s->decimals)
    at_add(A, s->attr_id[K_DECIMALS],
           (pt_value){PT_TYPE_INT, 0, {.i = r->decimals}});
  if (!r->time_exact) {
    char buf[PT_PICL_TIME_BUF];
    size_t n = pt__picl_format_time(buf, r->ns, r->decimals);
    if (n != r->time_len || memcmp(buf, r->time_tok, n) != 0) {
      char *t = arena_strndup(&s->arena, r->time_tok, r->time_len);
      if (!t) return PT_ENOMEM;
      at_add(A, s->attr_id[K_TIME], (pt_value){PT_TYPE_STRING, 0, {.s = t}});
    }
  }
  return 0;
}

static void set_attrs(pt_event *ev, const attrs *A) {
  ev->nattrs = A->n;
  ev->attrs = A->n ? A->a : NULL;
}

/* Put attribute (key, v) first in A (which may be empty). */
static int at_prepend(picl_src *s, attrs *A, uint64_t key, pt_value v) {
  pt_attr *na = pt__arena_alloc(&s->arena, (A->n + 1) * sizeof *na);
  if (!na) return PT_ENOMEM;
  na[0] = (pt_attr){key, v};
  if (A->n) memcpy(na + 1, A->a, A->n * sizeof *A->a);
  A->a = na;
  A->cap = ++A->n;
  return 0;
}

/* Integer data value i of r, or -1 when dropped / not an integer. */
static int64_t ival(const rec *r, size_t i) {
  if (i >= r->nvals || r->vals[i].type != PT_TYPE_INT) return -1;
  return r->vals[i].v.i;
}

static uint64_t bytes_of(int64_t v) { return v < 0 ? 0 : (uint64_t)v; }

/* The derived events of an entry (before = 0: after the ENTER) or exit
 * (before the LEAVE) record of event type t. */
static int derive(picl_src *s, const picl_evtype *t, const rec *r,
                  loc_state *l, uint64_t time, int is_exit) {
  if (!t || t->action == A_NONE) return 0;
  pt_event *ev = NULL;
  if (!is_exit) {
    l->entry_code = r->et;
    l->nentry = 0;
    for (size_t i = 0; i < 4; i++) l->entry[i] = ival(r, i);
    l->nentry = (int)(r->nvals < 4 ? r->nvals : 4);
    if (t->action == A_SEND) {
      if (!(ev = q_event(s, PT_EV_SEND, time, l->id))) return PT_ENOMEM;
      ev->peer = ival(r, 2);
      ev->tag = ival(r, 1);
      ev->size = bytes_of(ival(r, 0));
      ev->comm = PT_NONE;
    } else if (t->action == A_COLL) {
      if (!(ev = q_event(s, PT_EV_COLL_BEGIN, time, l->id))) return PT_ENOMEM;
    }
    return 0;
  }
  int have = l->entry_code == r->et;
  int64_t e0 = have ? l->entry[0] : -1, e1 = have ? l->entry[1] : -1,
          e2 = have ? l->entry[2] : -1;
  /* a wait that completed no message (a non-blocking collective's or an
   * already completed request): its records carry no data */
  if (r->nvals == 0 && e0 < 0 &&
      (t->action == A_IRECV_DONE || t->action == A_ISEND_DONE)) {
    l->entry_code = INT64_MIN;
    return 0;
  }
  /* likewise a sendbegin without its data or a recvbegin without its
   * request (our writer wrote such pairs for an OTF trace's MPI_Isend /
   * MPI_Irecv before c06ea10): an isend of no peer or bytes, an irecv post
   * of no request would be a request never completed */
  if (r->nvals == 0 && ((t->action == A_ISEND && e0 < 0) ||
                        t->action == A_IRECV_POST)) {
    l->entry_code = INT64_MIN;
    return 0;
  }
  switch (t->action) {
    case A_ISEND:
      if (!(ev = q_event(s, PT_EV_ISEND, time, l->id))) return PT_ENOMEM;
      ev->peer = e2;
      ev->tag = e1;
      ev->size = bytes_of(e0);
      ev->comm = PT_NONE;
      ev->request = (uint64_t)ival(r, 0);
      break;
    case A_ISEND_DONE:
      if (!(ev = q_event(s, PT_EV_ISEND_COMPLETE, time, l->id))) return PT_ENOMEM;
      ev->request = (uint64_t)e0;
      break;
    case A_RECV:
      if (!(ev = q_event(s, PT_EV_RECV, time, l->id))) return PT_ENOMEM;
      ev->peer = ival(r, 2);
      ev->tag = ival(r, 1);
      ev->size = bytes_of(ival(r, 0));
      ev->comm = PT_NONE;
      break;
    case A_IRECV_POST:
      if (!(ev = q_event(s, PT_EV_IRECV_REQUEST, time, l->id))) return PT_ENOMEM;
      ev->request = (uint64_t)ival(r, 0);
      break;
    case A_IRECV_DONE:
      if (!(ev = q_event(s, PT_EV_IRECV, time, l->id))) return PT_ENOMEM;
      ev->peer = ival(r, 2);
      ev->tag = ival(r, 1);
      ev->size = bytes_of(ival(r, 0));
      ev->comm = PT_NONE;
      ev->request = (uint64_t)e0;
      break;
    case A_COLL:
      if (!(ev = q_event(s, PT_EV_COLL_END, time, l->id))) return PT_ENOMEM;
      ev->ref = t->coll;
      ev->peer = t->entry == L_COLL_ROOT ? e1 : -1;
      ev->comm = PT_NONE;
      ev->size = bytes_of(e0);
      ev->size2 = t->exit == L_LEN ? bytes_of(ival(r, 0)) : 0;
      break;
    default:
      break;
  }
  l->entry_code = INT64_MIN;
  return 0;
}

/* Statistics record: summaries when the sink would write this record back
 * exactly (canonical descriptor, ascending pairs, one class of event
 * types), else 0 with *kept = 0 (then the record travels in a MARK). */
static int stats_record(picl_src *s, const rec *r, loc_state *l,
                        uint64_t time, int *kept) {
  *kept = 0;
  const char *want = r->rt == R_STAT_TIME ? "%d%lf" : "%d%d";
  if (!r->desc_is_string || r->desc_len != strlen(want) ||
      memcmp(r->desc_str, want, r->desc_len) != 0 || r->nconv != 2 ||
      r->nvals == 0 || r->nvals != (size_t)r->ndata * 2 || r->text || r->raw)
    return 0;
  if (r->decimals != s->decimals || !r->time_exact) return 0;
  size_t np = r->nvals / 2;
  int user = is_user_type(r->vals[0].v.i);
  for (size_t i = 0; i < np; i++) {
    if (r->vals[2 * i].type != PT_TYPE_INT) return 0;
    int64_t x = r->vals[2 * i].v.i;
    if (is_user_type(x) != user) return 0;
    if (i && (user ? x <= r->vals[2 * i - 2].v.i : x >= r->vals[2 * i - 2].v.i))
      return 0;
  }
  /* values: -101 exact seconds with the file's decimals; counts integers */
  uint64_t *vals = pt__arena_alloc(&s->arena, np * sizeof *vals);
  if (!vals) return PT_ENOMEM;
  for (size_t i = 0; i < np; i++) {
    const pt_value *v = &r->vals[2 * i + 1];
    if (r->rt == R_STAT_TIME) {
      int64_t ns;
      int dec, exact;
      if (pt__picl_parse_time(r->vtok[2 * i + 1], r->vlen[2 * i + 1], &ns, &dec,
                              &exact) ||
          !exact)
        return 0;
      if (ns == -1000000000LL && dec == 0) {
        vals[i] = UINT64_MAX;
      } else {
        if (ns <= 0 || dec != s->decimals) return 0;
        vals[i] = (uint64_t)ns;
      }
    } else {
      if (v->type != PT_TYPE_INT || v->v.i == 0 || v->v.i < -1) return 0;
      vals[i] = v->v.i == -1 ? UINT64_MAX : (uint64_t)v->v.i;
    }
  }
  /* a new block of summaries when (location, time) changes */
  if (!s->stat_block || s->stat_loc != l->id || s->stat_time != time) {
    hm_free(&s->stat_ix);
    s->stat_block = 1;
    s->stat_loc = l->id;
    s->stat_time = time;
  }
  /* check first that no field is set twice (else keep the record) */
  for (size_t i = 0; i < np; i++) {
    int64_t x = r->vals[2 * i].v.i;
    uint64_t ix;
    if (hm_get(&s->stat_ix, key2(r->et, x), &ix)) {
      pt_summary *m = &s->sums[ix];
      uint64_t old = r->rt == R_STAT_TIME    ? m->incl_time
                     : r->rt == R_STAT_COUNT ? m->count
                                             : m->bytes_sent | m->bytes_recv;
      if (old) return 0;
    }
  }
  if (s->nsums + np > PICL_MAX_SUMMARIES)
    return src_err(s, PT_ELIMIT, NULL, "more than %zu statistics values",
                   (size_t)PICL_MAX_SUMMARIES);
  for (size_t i = 0; i < np; i++) {
    int64_t x = r->vals[2 * i].v.i;
    uint64_t ix;
    if (!hm_get(&s->stat_ix, key2(r->et, x), &ix)) {
      uint64_t lab;
      int rc;
      if (r->et == -1) {
        rc = label(s, x, &lab);
      } else if (!hm_get(&s->ctx, key2(r->et, x), &lab)) {
        char *nm = arena_printf(&s->arena, "%s within %s", evtype_name(s, x),
                                evtype_name(s, r->et));
        if (!nm) return PT_ENOMEM;
        rc = label_new(s, x, 0, nm, &lab);
        if (!rc) rc = hm_put(&s->ctx, key2(r->et, x), lab);
        if (!rc)
          rc = keyval(s, lab, "picl.within",
                      arena_printf(&s->arena, "%" PRId64, r->et));
      } else {
        rc = 0;
      }
      if (rc) return rc;
      if (s->nsums == s->capsums) {
        size_t cap = s->capsums ? s->capsums * 2 : 64;
        pt_summary *n = realloc(s->sums, cap * sizeof *n);
        if (!n) return PT_ENOMEM;
        s->sums = n;
        s->capsums = cap;
      }
      ix = s->nsums++;
      pt_summary *m = &s->sums[ix];
      memset(m, 0, sizeof *m);
      m->time = time;
      m->location = l->id;
      m->kind = PT_SUM_LABEL;
      m->ref = lab;
      if (hm_put(&s->stat_ix, key2(r->et, x), ix)) return PT_ENOMEM;
    }
    pt_summary *m = &s->sums[ix];
    if (r->rt == R_STAT_TIME)
      m->incl_time = vals[i];
    else if (r->rt == R_STAT_COUNT)
      m->count = vals[i];
    else if (x <= -51 && x >= -80)
      m->bytes_recv = vals[i];
    else
      m->bytes_sent = vals[i];
  }
  *kept = 1;
  return 0;
}

/* Turn the parsed record into items. */
static int record_items(picl_src *s, rec *r) {
  int rc;
  if (!s->have_base) {
    s->have_base = 1;
    s->decimals = r->decimals;
    if (r->ns < 0) {
      int64_t sec = -(r->ns / 1000000000);
      if (r->ns % 1000000000) sec++;
      if (sec > INT64_MAX / 1000000000)
        return src_err(s, PT_ECORRUPT, r->time_tok,
                       "timestamp '%.*s' out of range: a first time before "
                       "-%" PRId64 " s needs a time base beyond 2^63-1 ns",
                       (int)(r->time_len > 40 ? 40 : r->time_len),
                       r->time_tok, INT64_MAX / 1000000000);
      s->bias = sec * 1000000000;
      if ((rc = keyval(s, PT_NONE, "picl.time_bias",
                       arena_printf(&s->arena, "%" PRId64, s->bias))))
        return rc;
    }
    if ((rc = keyval(s, PT_NONE, "picl.time_decimals",
                     arena_printf(&s->arena, "%d", r->decimals))))
      return rc;
  }
  if (r->ns > INT64_MAX - s->bias) { /* the model's 2^63-1 ns, biased */
    char lim[PT_PICL_TIME_BUF];
    pt__picl_format_time(lim, INT64_MAX - s->bias, 9);
    return src_err(s, PT_ECORRUPT, r->time_tok,
                   "timestamp '%.*s' out of range: after the time base of the "
                   "first record (%" PRId64 " s) times must be at most %s s",
                   (int)(r->time_len > 40 ? 40 : r->time_len), r->time_tok,
                   -s->bias / 1000000000, lim);
  }
  if (r->ns < -s->bias)
    return src_err(s, PT_ECORRUPT, r->time_tok,
                   "timestamp %.*s is earlier than the time base fixed by the "
                   "first record (%" PRId64 " s); sort the file by time",
                   (int)(r->time_len > 40 ? 40 : r->time_len), r->time_tok,
                   -s->bias / 1000000000);
  uint64_t time = (uint64_t)(r->ns + s->bias);
  loc_state *l;
  if ((rc = location(s, r->proc, r->process, &l))) return rc;

  int cls = r->rt >= 0 ? -2 : record_class(r->rt);
  if (cls == RC_STATS) {
    int kept;
    if ((rc = stats_record(s, r, l, time, &kept))) return rc;
    if (kept) return 0;
    cls = -1; /* keep verbatim */
  }
  if (time < l->last)
    return src_err(s, PT_EORDER, r->time_tok,
                   "time goes backwards on processor %" PRId64
                   " process %" PRId64,
                   r->proc, r->process);
  l->last = time;
  if (time < s->global_last && !s->warned_order) {
    s->warned_order = 1;
    src_warn(s, "records are not sorted by time across processors");
  }
  if (time > s->global_last) s->global_last = time;

  attrs A;
  const char *text;
  pt_event *ev;
  uint64_t id;
  const picl_evtype *t = evtype_find(r->et);
  switch (cls) {
    case RC_EVENT: {
      if (r->rt == R_MARK) {
        int ovf = r->et == -913 || r->et == -914;
        if (!ovf && (rc = label(s, r->et, &id))) return rc;
        if ((rc = data_attrs(s, r, !ovf, &A, &text))) return rc;
        if (!(ev = q_event(s, ovf ? PT_EV_BUFFER_OVERFLOW : PT_EV_MARK, time,
                           l->id)))
          return PT_ENOMEM;
        if (ovf) {
          ev->tag = r->et == -913 ? PT_OVERFLOW_STOP : PT_OVERFLOW_RING;
        } else {
          ev->ref = id;
          ev->text = text;
        }
        set_attrs(ev, &A);
        return 0;
      }
      int64_t code;
      if ((rc = region(s, r->et, r->proc, r->process, (uint64_t)(l - s->ls),
                       r->rt == R_EXIT, &id, &code)) ||
          (rc = data_attrs(s, r, 0, &A, &text)))
        return rc;
      if (code != r->et &&
          (rc = at_prepend(s, &A, s->attr_id[K_EVTYPE],
                           (pt_value){PT_TYPE_INT, 0, {.i = r->et}})))
        return rc;
      if (r->rt == R_EXIT && (rc = derive(s, t, r, l, time, 1))) return rc;
      if (!(ev = q_event(s, r->rt == R_ENTRY ? PT_EV_ENTER : PT_EV_LEAVE, time,
                         l->id)))
        return PT_ENOMEM;
      ev->ref = id;
      set_attrs(ev, &A);
      if (r->rt == R_ENTRY && (rc = derive(s, t, r, l, time, 0))) return rc;
      return 0;
    }
    case RC_MESSAGE:
      if ((rc = label(s, r->et, &id))) return rc;
      if ((rc = data_attrs(s, r, 1, &A, &text))) return rc;
      if (!(ev = q_event(s, PT_EV_MESSAGE, time, l->id))) return PT_ENOMEM;
      ev->ref = id;
      ev->text = text;
      set_attrs(ev, &A);
      return 0;
    case -2: /* user record */
      if ((rc = label(s, r->et, &id))) return rc;
      if ((rc = data_attrs(s, r, 0, &A, &text))) return rc;
      if (!(ev = q_event(s, PT_EV_USER, time, l->id))) return PT_ENOMEM;
      ev->ref = id;
      ev->tag = r->rt;
      set_attrs(ev, &A);
      return 0;
    default:
      break;
  }
  /* Records kept in a MARK: -5, -6, subsets, headers, odd statistics. */
  id = PT_NONE;
  if (cls == RC_LABEL) {
    const char *name = r->text ? r->text
                       : (r->nvals && r->vals[0].type == PT_TYPE_STRING)
                           ? r->vals[0].v.s
                           : NULL;
    if (name) {
      /* names the event type's regions on this (processor, process) from
       * here on; an event type labelled no longer goes through the cache */
      uint64_t ix;
      if ((rc = label_new(s, r->et, R_LABEL, name, &id)) ||
          (rc = hm_put(&s->labels, (uint64_t)r->et, id)) ||
          (rc = intern(s, name, &ix)) ||
          (rc = hm_put(&s->lbind, key2(r->et, (int64_t)(l - s->ls)), ix)) ||
          (rc = hm_put(&s->lglobal, (uint64_t)r->et, ix)))
        return rc;
      if (s->rc_key[(size_t)r->et & 63] == (uint64_t)r->et)
        s->rc_ok[(size_t)r->et & 63] = 0;
    }
  } else if (cls == RC_DESCRIPTOR) {
    /* an integer then a quoted control string */
    const char *fmt = NULL;
    int64_t code = 0;
    for (size_t i = 0; i + 1 < r->nvals; i++)
      if (r->vals[i].type == PT_TYPE_INT &&
          r->vals[i + 1].type == PT_TYPE_STRING) {
        code = r->vals[i].v.i;
        fmt = r->vals[i + 1].v.s;
        break;
      }
    if (fmt) {
      size_t n = strlen(fmt);
      if (n >= 2 && fmt[0] == '"' && fmt[n - 1] == '"') {
        fmt++;
        n -= 2;
      }
      uint64_t ix;
      if (!hm_get(&s->descs, (uint64_t)code, &ix)) {
        if (s->ndb == s->capdb) {
          size_t cap = s->capdb ? s->capdb * 2 : 8;
          desc_bind *nb = realloc(s->db, cap * sizeof *nb);
          if (!nb) return PT_ENOMEM;
          s->db = nb;
          s->capdb = cap;
        }
        ix = s->ndb++;
        s->db[ix].format = NULL;
        if ((rc = hm_put(&s->descs, (uint64_t)code, ix))) return rc;
      }
      char *cp = malloc(n + 1);
      if (!cp) return PT_ENOMEM;
      memcpy(cp, fmt, n);
      cp[n] = 0;
      free(s->db[ix].format);
      s->db[ix].format = cp;
      s->db[ix].len = n;
      pt_def *d = q_def(s, PT_DEF_DESCRIPTOR, s->next_id++);
      if (!d) return PT_ENOMEM;
      d->i0 = r->et;
      d->i1 = -1;
      d->i2 = code;
      d->s1 = arena_strndup(&s->arena, fmt, n);
      if (!d->s1) return PT_ENOMEM;
    }
  } else if (cls == RC_SUBSET && r->nvals && r->all_int) {
    pt_def *d = q_def(s, PT_DEF_GROUP, s->next_id++);
    if (!d) return PT_ENOMEM;
    d->i0 = r->rt == R_SUBSET_PROCESSORS ? PT_GROUP_LOCATIONS
            : r->rt == R_SUBSET_PROCESSES ? PT_GROUP_PROCESSES
                                          : PT_GROUP_EVENT_TYPES;
    d->i1 = PT_PARADIGM_PICL;
    d->name = arena_printf(&s->arena, "%" PRId64, r->vals[0].v.i);
    uint64_t *m = pt__arena_alloc(&s->arena, r->nvals * sizeof *m);
    if (!m || !d->name) return PT_ENOMEM;
    for (size_t i = 1; i < r->nvals; i++) m[i - 1] = (uint64_t)r->vals[i].v.i;
    d->nmembers = r->nvals - 1;
    d->members = d->nmembers ? m : NULL;
  }
  if (id == PT_NONE && (rc = label(s, r->et, &id))) return rc;
  if ((rc = data_attrs(s, r, 1, &A, &text))) return rc;
  if (!(ev = q_event(s, PT_EV_MARK, time, l->id))) return PT_ENOMEM;
  ev->ref = id;
  ev->text = text;
  /* the record type goes first so that a reader sees it at once */
  if ((rc = at_prepend(s, &A, s->attr_id[K_RECORD],
                       (pt_value){PT_TYPE_INT, 0, {.i = r->rt}})))
    return rc;
  set_attrs(ev, &A);
  return 0;
}

static int picl_src_next(void *st, pt_item *item) {
  picl_src *s = st;
  for (;;) {
    if (s->qi < s->qn) {
      *item = s->q[s->qi++];
      return PT_OK;
    }
    s->qi = s->qn = 0;
    pt__arena_reset(&s->arena);
    int rc;
    if (!s->started) {
      s->started = 1;
      if ((rc = start_defs(s))) return src_err(s, rc, NULL, "out of memory");
      continue;
    }
    if (!s->events_done) {
      rc = next_line(s);
      if (rc == PT_OK) {
        rec r;
        s->out = item; /* slot 0 of the queue */
        rc = parse_record(s, &r);
        if (rc == PT_OK) rc = record_items(s, &r);
        s->out = NULL;
        if (rc == PT_ENOMEM) return src_err(s, rc, NULL, "out of memory");
        if (rc < 0) {
          s->qn = 0;
          return rc;
        }
        if (s->qn) {
          s->qi = 1; /* the first item is in *item already */
          return PT_OK;
        }
        continue;
      }
      if (rc != PT_END) return rc;
      s->events_done = 1;
      if (!s->lineno && s->warn) {
        char m[600];
        snprintf(m, sizeof m, "%s: empty: the file holds no PICL record",
                 s->name);
        s->warn(s->warn_user, m);
      }
    }
    if (s->sum_emit < s->nsums) {
      item->type = PT_ITEM_SUMMARY;
      item->u.summary = s->sums[s->sum_emit++];
      return PT_OK;
    }
    return PT_END;
  }
}

static const char *picl_src_errmsg(void *st) {
  return ((picl_src *)st)->err;
}

static void picl_src_close(void *st) {
  picl_src *s = st;
  if (!s) return;
  if (s->fd >= 0) close(s->fd);
  free(s->buf);
  free(s->name);
  pt__arena_free(&s->arena);
  hm_free(&s->groups);
  hm_free(&s->locs);
  hm_free(&s->regions);
  hm_free(&s->rcode);
  hm_free(&s->etreg);
  hm_free(&s->lbind);
  hm_free(&s->lglobal);
  hm_free(&s->name_ix);
  hm_free(&s->labels);
  hm_free(&s->ctx);
  hm_free(&s->descs);
  hm_free(&s->stat_ix);
  for (size_t i = 0; i < s->nnames; i++) free(s->names[i]);
  free(s->names);
  for (size_t i = 0; i < s->ndb; i++) free(s->db[i].format);
  free(s->db);
  for (size_t i = 0; i < s->nls; i++) free(s->ls[i].open);
  free(s->ls);
  free(s->sums);
  free(s);
}

static picl_src *src_new(const char *name, const pt_source_opts *o) {
  picl_src *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->fd = -1;
  s->name = strdup(name ? name : "<memory>");
  if (!s->name) {
    free(s);
    return NULL;
  }
  if (o) {
    s->warn = o->warn;
    s->warn_user = o->warn_user;
  }
  return s;
}

int pt__picl_open_mem(void **st, const void *data, size_t n, const char *name,
                      const pt_source_opts *opts, pt_error *err) {
  picl_src *s = src_new(name, opts);
  if (!s) return pt__err(err, PT_ENOMEM, "out of memory");
  s->mem = data ? data : "";
  s->memlen = data ? n : 0;
  *st = s;
  return PT_OK;
}

static int picl_src_open(void **st, const char *path, const pt_source_opts *o,
                         pt_error *err) {
  picl_src *s = src_new(path, o);
  if (!s) return pt__err(err, PT_ENOMEM, "out of memory");
  s->cap = PICL_MAX_LINE + PICL_CHUNK;
  s->buf = malloc(s->cap);
  if (!s->buf) {
    picl_src_close(s);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  s->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (s->fd < 0) {
    int e = errno;
    picl_src_close(s);
    return pt__err(err, e == ENOENT ? PT_ENOTFOUND : PT_EIO, "%s: %s", path,
                   strerror(e));
  }
  *st = s;
  return PT_OK;
}

/* Content probe: the first non-blank line looks like a PICL record (six or
 * more integer/number fields starting with a negative record type). */
static int picl_probe(const char *path, int is_dir, const uint8_t *head,
                      size_t n) {
  (void)path;
  if (is_dir || n == 0) return 0;
  const char *p = (const char *)head, *e = p + n;
  while (p < e && (*p == '\n' || *p == '\r' || is_blank(*p))) p++;
  const char *nl = memchr(p, '\n', (size_t)(e - p));
  if (!nl) nl = e;
  cur c = {p, nl};
  const char *t;
  size_t len;
  int64_t v;
  for (int i = 0; i < 6; i++) {
    if (!tok(&c, &t, &len)) return 0;
    if (i == 2) {
      int64_t ns;
      int dec, ex;
      if (pt__picl_parse_time(t, len, &ns, &dec, &ex)) return 0;
    } else if (parse_i64(t, t + len, &v)) {
      return 0;
    }
  }
  return 60;
}

/* ---------------------------------------------------------------------- */
/* Sink                                                                   */
/* ---------------------------------------------------------------------- */

/* The sink writes one record per line in time order.  Records are built as
 * events arrive (events come in global time order) and queued; an entry
 * record of a foreign communication region waits in the queue until the
 * send/receive event inside it gives its data.  Up to SK_HOLD finished
 * records are held back so that slightly out-of-order input is still
 * written sorted.  The body goes to a temporary file; at close the tracing
 * exit records (-4 -901) and the statistics records are merged in by time.
 *
 * Regions whose canonical name is "PICL:<type>" (from a PICL source) are
 * written back as they were read, from their attributes; events derived
 * from them (SEND, RECV... inside such a region) are ignored.  Any other
 * region is mapped by name through the event table (MPI_Send -> -21...),
 * the type then named after it by a -5 label record on its processor and
 * process whenever the name there changes, or becomes a user event type
 * (0, 1, ... in order of first use) named by a -5 label record.
 *
 * A call that completes several requests (MPI_Waitall, MPI_Waitsome,
 * MPI_Testall...) has one completion event per request, and PICL has one
 * record pair per completion (sendend -31 / recvend -61...).  The region's
 * entry record takes the first completion; each further completion closes
 * the pair so far at its own time and opens the next pair, of the event
 * type of what it completes, at the same time; the last pair ends at the
 * region's leave.  The pairs follow each other without nesting, so each
 * exit carries the request of its own entry.  A call that completes none
 * is no completion pair: it is written as a user event type of its own. */

#define SK_HOLD 4096
/* regions open at once per location: the stack grows to this bound */
#define SK_MAXDEPTH 65536

typedef struct wrec {
  int64_t t; /* ns on the PICL time axis */
  uint64_t seq;
  char *line; /* NULL while pending */
} wrec;

typedef struct wstat {
  int64_t code;
  uint64_t count, volume;
  int64_t time;
} wstat;

typedef struct frame {
  int64_t code;  /* event type written (by what completes, for Wait*) */
  int64_t rcode; /* event type of the region: what its leave must match */
  int picl;      /* region from a PICL source */
  int action;    /* table action of a foreign comm region, else A_NONE */
  int filled;    /* semantic data arrived */
  size_t rec;    /* queue sequence of the pending entry record, or SIZE_MAX */
  int64_t t_enter;
  int64_t ucode; /* a Wait/Test completing nothing: its user event type */
  uint32_t sem;  /* kind of the semantic event */
  int64_t peer, tag, bytes, bytes2, request;
} frame;

typedef struct wloc {
  uint64_t id;
  int resolved, picl, started, last_exit901, has_sum;
  int64_t proc, process;
  int64_t first, last;
  uint64_t written_bytes;
  int depth, cap;
  frame *st; /* the open regions, innermost last */
  hmap named; /* event type -> region index + 1 of the last -5 label here */
  wstat *stats;
  size_t nstats, capstats;
} wloc;

typedef struct wregion {
  int64_t code; /* PICL event type */
  int picl, known;
  const picl_evtype *row;
  char *name;
  int64_t ucode; /* user event type when it completes nothing, or -1 */
} wregion;

typedef struct wlabel {
  int64_t code, within;
  int has_within;
  char *name;
} wlabel;

typedef struct picl_sink {
  char *path;
  FILE *out, *body;
  char err[512];
  pt_warn_fn warn;
  void *warn_user;
  int64_t tps, bias;
  int decimals;
  int attr_k[64]; /* unused */
  hmap attrk;     /* attribute def id -> K index + 1 */
  hmap locs;      /* location id -> index into L */
  wloc **L;
  size_t nL, capL;
  hmap loc_group; /* location id -> group id */
  hmap group_rank;
  hmap rank_seen;   /* rank values of location groups */
  int rank_dup;     /* two groups share a rank: peers are location ids */
  hmap loc_process; /* location id -> process (from KEYVAL) */
  hmap regions;     /* region id -> index into R */
  wregion *R;
  size_t nR, capR;
  hmap labels; /* label id -> index into LB */
  wlabel *LB;
  size_t nLB, capLB;
  hmap pending_within; /* label id -> within (KEYVAL before/after label) */
  hmap taken;          /* processor numbers in use -> location group */
  hmap group_procs;    /* location group -> processes given on its processor */
  int64_t next_proc;
  int64_t next_user;
  hmap user_codes; /* region id / label id | bit63 -> user code */
  hmap descs;      /* descriptor code -> conversions (from -6 records) */
  wrec *q;
  size_t qh, qn, qcap;
  uint64_t seq;
  int64_t last_flushed;
  int any_flushed;
  pt_summary *sums;
  size_t nsums, capsums;
  uint64_t kind_dropped[PT_EV__COUNT]; /* kinds without a PICL record */
  /* leaves that did not close the innermost open region of their location
   * (said once at close, with the first one's location and time) */
  uint64_t mismatched, mismatched_deeper;
  uint64_t mismatch_loc, mismatch_time;
  int in_tails; /* writing the tail records (close) */
  uint64_t coll_dropped[PT_COLL__COUNT]; /* collectives without a type */
  uint64_t clamped; /* times beyond PICL's range (2^63 ns), made its end */
  /* one-sided operations (RMA_PUT, RMA_GET, RMA_ATOMIC): PICL has no
   * record for them and a send would claim a receive that never comes;
   * counted, said once at close */
  uint64_t rma_dropped[3];
  char *line;
  size_t linecap;
} picl_sink;
_Static_assert(PT_EV_RMA_GET == PT_EV_RMA_PUT + 1 &&
                   PT_EV_RMA_ATOMIC == PT_EV_RMA_PUT + 2,
               "rma_dropped is indexed by kind - PT_EV_RMA_PUT");

static int sk_err(picl_sink *k, int status, const char *fmt, ...)
    PT_PRINTF(3, 4);
static int sk_err(picl_sink *k, int status, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(k->err, sizeof k->err, "%s: %s", k->path, msg);
  return status;
}

static void sk_warn(picl_sink *k, const char *msg) {
  if (k->warn) k->warn(k->warn_user, msg);
}

/* ---- line building ------------------------------------------------------ */

typedef struct lbuf {
  char *p;
  size_t n, cap;
  int oom;
} lbuf;

static void lb_reserve(lbuf *b, size_t extra) {
  if (b->oom || b->n + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 128;
  while (cap < b->n + extra + 1) cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p) {
    b->oom = 1;
    return;
  }
  b->p = p;
  b->cap = cap;
}

static void lb_put(lbuf *b, const char *s, size_t n) {
  lb_reserve(b, n);
  if (b->oom) return;
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

static void lb_str(lbuf *b, const char *s) { lb_put(b, s, strlen(s)); }

static void lb_i64(lbuf *b, int64_t v) {
  char tmp[24];
  int n = 0;
  uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do {
    tmp[23 - n++] = (char)('0' + a % 10);
    a /= 10;
  } while (a);
  if (v < 0) tmp[23 - n++] = '-';
  lb_put(b, tmp + 24 - n, (size_t)n);
}

static void lb_sp_i64(lbuf *b, int64_t v) {
  lb_put(b, " ", 1);
  lb_i64(b, v);
}

static void lb_time(lbuf *b, int64_t ns, int decimals) {
  char tmp[PT_PICL_TIME_BUF];
  size_t n = pt__picl_format_time(tmp, ns, decimals);
  lb_put(b, tmp, n);
}

/* A double in fixed notation: the file's decimals if that is exact, else
 * the fewest decimals that read back to the same value. */
static void lb_double(lbuf *b, double d, int decimals, int strict) {
  char tmp[400];
  size_t n = fmt_double(tmp, sizeof tmp, d, decimals, strict);
  lb_put(b, tmp, n);
}

/* ---- lookups ------------------------------------------------------------ */

static int sk_attr_k(picl_sink *k, uint64_t key) {
  uint64_t v;
  return hm_get(&k->attrk, key, &v) ? (int)v - 1 : -1;
}

static const pt_attr *find_attr(picl_sink *k, const pt_event *ev, int K) {
  for (uint32_t i = 0; i < ev->nattrs; i++)
    if (sk_attr_k(k, ev->attrs[i].key) == K) return &ev->attrs[i];
  return NULL;
}

/* PICL time of model ticks. */
static int64_t sk_ns(picl_sink *k, uint64_t ticks) {
  __int128 v = (__int128)ticks;
  if (k->tps != PT_PICL_TICKS_PER_SECOND)
    v = v * PT_PICL_TICKS_PER_SECOND / (k->tps > 0 ? k->tps : 1);
  v -= k->bias;
  if (v > INT64_MAX) {
    v = INT64_MAX;
    k->clamped++;
  }
  return (int64_t)v;
}

static int sk_taken(picl_sink *k, int64_t p) { return hm_get(&k->taken, (uint64_t)p, NULL); }

static int sk_loc(picl_sink *k, uint64_t id, wloc **out) {
  uint64_t ix;
  if (hm_get(&k->locs, id, &ix)) {
    *out = k->L[ix];
    return 0;
  }
  if (k->nL == k->capL) {
    size_t cap = k->capL ? k->capL * 2 : 16;
    wloc **n = realloc(k->L, cap * sizeof *n);
    if (!n) return PT_ENOMEM;
    k->L = n;
    k->capL = cap;
  }
  wloc *l = calloc(1, sizeof *l);
  if (!l) return PT_ENOMEM;
  l->id = id;
  k->L[k->nL] = l;
  if (hm_put(&k->locs, id, k->nL)) return PT_ENOMEM;
  k->nL++;
  *out = l;
  return 0;
}

/* Processor and process numbers of a location, fixed at its first use. */
static int sk_resolve(picl_sink *k, wloc *l) {
  if (l->resolved) return 0;
  l->resolved = 1;
  uint64_t g = PT_NONE, rank = 0, proc = 0;
  int has_group = hm_get(&k->loc_group, l->id, &g);
  int has_rank = has_group && hm_get(&k->group_rank, g, &rank);
  if (hm_get(&k->loc_process, l->id, &proc) && has_rank) {
    l->picl = 1;
    l->proc = (int64_t)rank;
    l->process = (int64_t)proc;
    return hm_put(&k->taken, (uint64_t)l->proc, PT_NONE);
  }
  l->process = 0;
  uint64_t owner = PT_NONE;
  if (has_rank && (int64_t)rank >= 0 && (int64_t)rank < PICL_HOST &&
      !sk_taken(k, (int64_t)rank)) {
    l->proc = (int64_t)rank;
  } else if (has_rank && hm_get(&k->taken, rank, &owner) && owner == g) {
    /* another thread of the same rank: a further process on the rank's
     * processor, as PICL numbers the processes of a node */
    uint64_t n = 0;
    hm_get(&k->group_procs, g, &n);
    l->proc = (int64_t)rank;
    l->process = (int64_t)n + 1;
    return hm_put(&k->group_procs, g, n + 1);
  } else {
    while (sk_taken(k, k->next_proc)) k->next_proc++;
    l->proc = k->next_proc++;
  }
  return hm_put(&k->taken, (uint64_t)l->proc, has_group ? g : PT_NONE);
}

/* The model's peers are COMM_WORLD ranks when location groups carry
 * distinct ranks, else location ids (as paratrace check reads them); the
 * processor a peer denotes is then that location's processor number. */
static int64_t sk_peer(picl_sink *k, int64_t peer) {
  if (peer < 0 || !k->rank_dup) return peer;
  wloc *pl;
  if (sk_loc(k, (uint64_t)peer, &pl) || sk_resolve(k, pl)) return peer;
  return pl->proc;
}

static int traced_proc(int64_t p) { return p >= 0 && p != PICL_HOST; }

/* ---- the record queue ---------------------------------------------------- */

static int sk_flush(picl_sink *k, int all) {
  while (k->qn && k->q[k->qh].line && (all || k->qn > SK_HOLD)) {
    wrec *r = &k->q[k->qh];
    size_t n = strlen(r->line);
    r->line[n] = '\n';
    if (fwrite(r->line, 1, n + 1, k->body) != n + 1)
      return sk_err(k, PT_EIO, "write: %s", strerror(errno));
    free(r->line);
    r->line = NULL;
    k->last_flushed = r->t;
    k->any_flushed = 1;
    k->qh++;
    k->qn--;
  }
  if (k->qh > 1024 && k->qh * 2 > k->qcap) {
    memmove(k->q, k->q + k->qh, k->qn * sizeof *k->q);
    k->qh = 0;
  }
  return 0;
}

/* Queue a record (line == NULL: pending); *seq gets its sequence. */
static int sk_queue(picl_sink *k, int64_t t, char *line, uint64_t *seq) {
  if (k->any_flushed && t < k->last_flushed) {
    free(line);
    return sk_err(k, PT_EORDER,
                  "event at %" PRId64 " ns comes after records up to %" PRId64
                  " ns were written; events must come in time order",
                  t, k->last_flushed);
  }
  if (k->qh + k->qn == k->qcap) {
    size_t cap = k->qcap ? k->qcap * 2 : 1024;
    wrec *n = realloc(k->q, cap * sizeof *n);
    if (!n) {
      free(line);
      return PT_ENOMEM;
    }
    k->q = n;
    k->qcap = cap;
  }
  size_t i = k->qh + k->qn;
  while (i > k->qh && k->q[i - 1].t > t) {
    k->q[i] = k->q[i - 1];
    i--;
  }
  k->q[i] = (wrec){t, k->seq, line};
  if (seq) *seq = k->seq;
  k->seq++;
  k->qn++;
  return sk_flush(k, 0);
}

static wrec *sk_pending(picl_sink *k, uint64_t seq) {
  for (size_t i = k->qh; i < k->qh + k->qn; i++)
    if (k->q[i].seq == seq) return &k->q[i];
  return NULL;
}

static wstat *sk_stat(wloc *l, int64_t code) {
  for (size_t i = 0; i < l->nstats; i++)
    if (l->stats[i].code == code) return &l->stats[i];
  if (l->nstats == l->capstats) {
    size_t cap = l->capstats ? l->capstats * 2 : 16;
    wstat *n = realloc(l->stats, cap * sizeof *n);
    if (!n) return NULL;
    l->stats = n;
    l->capstats = cap;
  }
  wstat *s = &l->stats[l->nstats++];
  memset(s, 0, sizeof *s);
  s->code = code;
  return s;
}

/* Start a record line "rt et time proc process" in k->line. */
static void rec_head(picl_sink *k, lbuf *b, int64_t rt, int64_t et, int64_t t,
                     const wloc *l, int decimals) {
  (void)k;
  b->n = 0;
  lb_i64(b, rt);
  lb_sp_i64(b, et);
  lb_put(b, " ", 1);
  lb_time(b, t, decimals);
  lb_sp_i64(b, l->proc);
  lb_sp_i64(b, l->process);
}

/* Emit a finished line for location l (the -901 entry rule applies). */
static int sk_emit(picl_sink *k, wloc *l, int64_t rt, int64_t et, int64_t t,
                   lbuf *b, uint64_t *seq, int pending) {
  int rc;
  if (!l->started) {
    l->started = 1;
    l->first = t;
    if (!l->picl && traced_proc(l->proc) && !(rt == R_ENTRY && et == -901)) {
      lbuf h = {0};
      rec_head(k, &h, R_ENTRY, -901, t, l, k->decimals);
      lb_str(&h, " 0");
      if (h.oom) return PT_ENOMEM;
      l->written_bytes += h.n + 1;
      if ((rc = sk_queue(k, t, h.p, NULL))) return rc;
    }
  }
  l->last = t;
  if (et == -901 && (rt == R_EXIT || rt == R_ENTRY))
    l->last_exit901 = rt == R_EXIT;
  if (pending) return sk_queue(k, t, NULL, seq);
  if (b->oom) return PT_ENOMEM;
  char *line = malloc(b->n + 2);
  if (!line) return PT_ENOMEM;
  memcpy(line, b->p, b->n + 1);
  l->written_bytes += b->n + 1;
  return sk_queue(k, t, line, seq);
}

/* Which value an attribute gives a record's data: K_INT, K_DOUBLE or
 * K_STRING for the PICL value attributes; with `foreign` (a point event
 * from another source, without PICL data attributes) also any scalar
 * attribute, such as the recorder's mark value; else -1 (an unsigned
 * integer above INT64_MAX is not a PICL integer). */
static int value_k(picl_sink *k, const pt_attr *a, int foreign) {
  int K = sk_attr_k(k, a->key);
  if (K != K_INT && K != K_DOUBLE && K != K_STRING) {
    if (!foreign || K != -1) return -1;
    switch (a->val.type) {
      case PT_TYPE_INT: case PT_TYPE_UINT: K = K_INT; break;
      case PT_TYPE_DOUBLE: K = K_DOUBLE; break;
      case PT_TYPE_STRING: if (!a->val.v.s) return -1; K = K_STRING; break;
      default: return -1;
    }
  }
  if (K == K_INT && a->val.type == PT_TYPE_UINT &&
      a->val.v.u > (uint64_t)INT64_MAX)
    return -1;
  return K;
}

/* Data fields from the attributes of a PICL-origin event: appends
 * " ndata [descriptor data...]" to b.  Returns the number of bytes of a
 * length field for statistics (first integer), or 0. */
static void data_from_attrs(picl_sink *k, lbuf *b, const pt_event *ev,
                            const char *text_slot, int point) {
  const pt_attr *raw = NULL, *desc = NULL, *dcode = NULL, *nd = NULL,
                *text = NULL, *ints = NULL, *ddec = NULL;
  size_t nval = 0;
  uint32_t t0 = PT_TYPE_NONE;
  int mixed = 0;
  /* a point event of another source: its scalar attributes are the data
   * (a MARK's value was dropped) */
  int foreign = point;
  for (uint32_t i = 0; i < ev->nattrs && foreign; i++)
    if (sk_attr_k(k, ev->attrs[i].key) != -1) foreign = 0;
  for (uint32_t i = 0; i < ev->nattrs; i++) {
    const pt_attr *a = &ev->attrs[i];
    int K = sk_attr_k(k, a->key);
    if (foreign || K == K_INT || K == K_DOUBLE || K == K_STRING)
      K = value_k(k, a, foreign);
    switch (K) {
      case K_RAW: raw = a; break;
      case K_DESC: desc = a; break;
      case K_DESC_CODE: dcode = a; break;
      case K_NDATA: nd = a; break;
      case K_TEXT: text = a; break;
      case K_INTS: ints = a; break;
      case K_DDEC: ddec = a; break;
      case K_INT: case K_DOUBLE: case K_STRING: {
        uint32_t ty = K == K_INT ? PT_TYPE_INT : a->val.type;
        if (nval && ty != t0) mixed = 1;
        t0 = ty;
        nval++;
        break;
      }
      default: break;
    }
  }
  const char *txt = text && text->val.type == PT_TYPE_STRING ? text->val.v.s
                                                              : text_slot;
  /* an empty text slot is no character data when the event carries data
   * values: a mark read from OTF 1.x always has a text (MS ... V""), and a
   * PICL record kept in a mark (a statistics record) was written with
   * ndata 0 and its values left out */
  if (txt && !*txt && !text && (ints || nval)) txt = NULL;
  if (raw && raw->val.type == PT_TYPE_STRING) {
    int64_t n = nd && nd->val.type == PT_TYPE_INT ? nd->val.v.i : 0;
    lb_sp_i64(b, n);
    if (desc && desc->val.type == PT_TYPE_STRING) {
      lb_str(b, " \"");
      lb_str(b, desc->val.v.s);
      lb_str(b, "\"");
    } else if (dcode && dcode->val.type == PT_TYPE_INT) {
      lb_sp_i64(b, dcode->val.v.i);
    }
    lb_str(b, " ");
    lb_str(b, raw->val.v.s);
    return;
  }
  /* values */
  size_t nvalues = 0;
  int code; /* default descriptor */
  if (txt) {
    code = 0;
  } else if (ints && ints->val.type == PT_TYPE_INTS) {
    nvalues = ints->val.count;
    code = 2;
  } else {
    nvalues = nval;
    code = mixed ? -1
           : t0 == PT_TYPE_INT ? 2
           : t0 == PT_TYPE_DOUBLE ? 5
           : t0 == PT_TYPE_STRING ? 1 : -1;
  }
  int nconv = 1;
  int64_t ndata;
  if (desc && desc->val.type == PT_TYPE_STRING) {
    uint8_t cv[PICL_MAX_CONV];
    nconv = parse_control(desc->val.v.s, strlen(desc->val.v.s), cv, PICL_MAX_CONV);
    if (nconv <= 0) nconv = 1;
  } else if (!dcode && code < 0) {
    nconv = (int)nvalues;
  } else if (dcode && dcode->val.type == PT_TYPE_INT) {
    uint64_t nc;
    nconv = hm_get(&k->descs, (uint64_t)dcode->val.v.i, &nc) ? (int)nc : 1;
  } else if (code == 5 || code == 2 || code == 1) {
    uint64_t nc;
    if (hm_get(&k->descs, (uint64_t)code, &nc)) nconv = (int)nc;
  }
  ndata = txt ? (int64_t)strlen(txt) : (int64_t)(nvalues / (size_t)(nconv ? nconv : 1));
  if (nd && nd->val.type == PT_TYPE_INT) ndata = nd->val.v.i;
  if (!txt && nvalues == 0 && !desc && !dcode && (!nd || ndata == 0)) {
    lb_str(b, " 0");
    return;
  }
  lb_sp_i64(b, ndata);
  if (desc && desc->val.type == PT_TYPE_STRING) {
    lb_str(b, " \"");
    lb_str(b, desc->val.v.s);
    lb_str(b, "\"");
  } else if (dcode && dcode->val.type == PT_TYPE_INT) {
    lb_sp_i64(b, dcode->val.v.i);
  } else if (code >= 0) {
    lb_sp_i64(b, code);
  } else {
    lb_str(b, " \"");
    for (uint32_t i = 0; i < ev->nattrs; i++) {
      int K = value_k(k, &ev->attrs[i], foreign);
      if (K == K_INT) lb_str(b, "%d");
      else if (K == K_DOUBLE) lb_str(b, "%lf");
      else if (K == K_STRING) lb_str(b, "%s");
    }
    lb_str(b, "\"");
  }
  if (txt) {
    lb_str(b, " ");
    lb_str(b, txt);
    return;
  }
  if (ints && ints->val.type == PT_TYPE_INTS) {
    for (uint32_t i = 0; i < ints->val.count; i++) lb_sp_i64(b, ints->val.v.ints[i]);
    return;
  }
  for (uint32_t i = 0; i < ev->nattrs; i++) {
    int K = value_k(k, &ev->attrs[i], foreign);
    const pt_value *v = &ev->attrs[i].val;
    if (K == K_INT && v->type == PT_TYPE_INT) {
      lb_sp_i64(b, v->v.i);
    } else if (K == K_INT && v->type == PT_TYPE_UINT) {
      lb_sp_i64(b, (int64_t)v->v.u);
    } else if (K == K_DOUBLE && v->type == PT_TYPE_DOUBLE) {
      lb_str(b, " ");
      if (ddec && ddec->val.type == PT_TYPE_INT)
        lb_double(b, v->v.d, (int)ddec->val.v.i, ddec->val.v.i >= 0);
      else
        lb_double(b, v->v.d, k->decimals, 0);
    } else if (K == K_STRING && v->type == PT_TYPE_STRING) {
      lb_str(b, " ");
      const char *s = v->v.s;
      int quote = !*s || (s[0] != '"' && strpbrk(s, " \t\n\r\v\f"));
      if (quote) lb_str(b, "\"");
      for (; *s; s++) lb_put(b, (*s == '\n' || *s == '\r') ? " " : s, 1);
      if (quote) lb_str(b, "\"");
    }
  }
}

/* Time of a PICL-origin event: its own decimals and raw text if given. */
static void sk_event_time(picl_sink *k, const pt_event *ev, int64_t *t,
                          int *decimals, const char **raw) {
  *t = sk_ns(k, ev->time);
  *decimals = k->decimals;
  *raw = NULL;
  const pt_attr *a = find_attr(k, ev, K_DECIMALS);
  if (a && a->val.type == PT_TYPE_INT && a->val.v.i >= 0 && a->val.v.i < 30)
    *decimals = (int)a->val.v.i;
  a = find_attr(k, ev, K_TIME);
  if (a && a->val.type == PT_TYPE_STRING) {
    int64_t ns;
    int d, ex;
    const char *s = a->val.v.s;
    if (!pt__picl_parse_time(s, strlen(s), &ns, &d, &ex) && ns == *t) *raw = s;
  }
}

static int sk_region(picl_sink *k, uint64_t id, wregion **out) {
  uint64_t ix;
  if (!hm_get(&k->regions, id, &ix)) {
    if (k->nR == k->capR) {
      size_t cap = k->capR ? k->capR * 2 : 32;
      wregion *n = realloc(k->R, cap * sizeof *n);
      if (!n) return PT_ENOMEM;
      k->R = n;
      k->capR = cap;
    }
    ix = k->nR++;
    memset(&k->R[ix], 0, sizeof k->R[ix]);
    k->R[ix].ucode = -1;
    if (hm_put(&k->regions, id, ix)) return PT_ENOMEM;
  }
  *out = &k->R[ix];
  return 0;
}

/* A -5 label record naming event type `code` `name` at t, on the
 * processor and process of l, or (l NULL) on -1 -1, all processors. */
static int sk_label_rec(picl_sink *k, wloc *l, int64_t code, int64_t t,
                        const char *name) {
  lbuf b = {0};
  if (l) {
    rec_head(k, &b, R_LABEL, code, t, l, k->decimals);
  } else {
    lb_i64(&b, R_LABEL);
    lb_sp_i64(&b, code);
    lb_put(&b, " ", 1);
    lb_time(&b, t, k->decimals);
    lb_str(&b, " -1 -1");
  }
  lb_sp_i64(&b, (int64_t)strlen(name));
  lb_str(&b, " 0 ");
  for (const char *c = name; *c; c++)
    lb_put(&b, (*c == '\n' || *c == '\r') ? " " : c, 1);
  if (b.oom) {
    free(b.p);
    return PT_ENOMEM;
  }
  if (!l) return sk_queue(k, t, b.p, NULL);
  int rc = sk_emit(k, l, R_LABEL, code, t, &b, NULL, 0);
  free(b.p);
  return rc;
}

/* A new user event type (0, 1, ...) named `name` by a -5 label record on
 * the processor that first uses it, l (on -1, "all processors", a reader
 * would see one more processor, with nothing but labels); a type first
 * seen in a summary, written with the tail records after the events,
 * keeps the -1 form. */
static int sk_user_code(picl_sink *k, wloc *l, int64_t t, const char *name,
                        int64_t *code) {
  *code = k->next_user++;
  int own = l && !k->in_tails && traced_proc(l->proc);
  return sk_label_rec(k, own ? l : NULL, *code, t, name ? name : "region");
}

/* Event type of a foreign region: by name through the table, else a new
 * user event type. */
static int sk_region_code(picl_sink *k, wregion *r, wloc *l, int64_t t) {
  if (r->known) return 0;
  r->known = 1;
  const char *nm = r->name ? r->name : "";
  size_t nl = strlen(nm);
  for (int i = 0; i < EVI__COUNT && nl; i++) {
    const char *m = ev_table[i].mpi;
    while (*m) {
      size_t n = strcspn(m, " ");
      if (n == nl && memcmp(m, nm, n) == 0) {
        r->code = ev_table[i].code;
        r->row = &ev_table[i];
        return 0;
      }
      m += n;
      while (*m == ' ') m++;
    }
  }
  r->row = NULL;
  return sk_user_code(k, l, t, r->name, &r->code);
}

/* Name system event type `code` on l's processor and process after the
 * region of index key - 1 (key 0: its own name, the table's) with a -5
 * label record, unless the last label there gives that name already (a
 * type never labelled there has its own name).  What PICL allows for
 * keeping the name of the call a type stands for (MPI_Waitall for -61...);
 * ParaGraph ignores labels. */
static int sk_name_code(picl_sink *k, wloc *l, int64_t code, int64_t t,
                        uint64_t key) {
  const picl_evtype *row = evtype_find(code);
  const char *want = key ? k->R[key - 1].name : row ? row->name : NULL;
  uint64_t last = 0;
  int had = hm_get(&l->named, (uint64_t)code, &last);
  const char *now = last ? k->R[last - 1].name : row ? row->name : NULL;
  if (!want || !traced_proc(l->proc) || (!had && !key) ||
      (had && now && !strcmp(now, want)))
    return 0;
  int rc = sk_label_rec(k, l, code, t, want);
  return rc ? rc : hm_put(&l->named, (uint64_t)code, key);
}

/* Actions of a request completion (what MPI_Wait* / MPI_Test* record). */
static int completes(int action) {
  return action == A_ISEND_DONE || action == A_IRECV_DONE;
}

/* Actions of calls that may hold no event of their kind: a Wait / Test that
 * completes nothing, and an MPI_Isend / MPI_Irecv of a source without
 * request events (OTF 1.x records an MPI_Isend's message as a plain send
 * and an MPI_Irecv as nothing).  Such a call, left unfilled, is written as a
 * user event type of its own: a -27 / -57 pair without its data is no
 * isend / irecv post (a reader would make one of no peer, bytes or
 * request). */
static int may_be_empty(int action) {
  return completes(action) || action == A_ISEND || action == A_IRECV_POST;
}

/* The event type of a completion (`action` ISEND_DONE or IRECV_DONE) in a
 * call of event type rcode: sendstatus / recvstatus (-28 / -58, "checking
 * and finding that a request is complete") in a test, else sendend /
 * recvend (-31 / -61, "waiting until a request is complete"). */
static int64_t completion_code(int64_t rcode, int action) {
  int test = rcode == -28 || rcode == -58;
  if (action == A_ISEND_DONE) return test ? -28 : -31;
  return test ? -58 : -61;
}

/* Foreign data of an entry/exit record from a frame's semantic event. */
static void foreign_data(lbuf *b, const frame *f, int is_exit) {
  if (!f->filled) {
    lb_str(b, " 0");
    return;
  }
  int64_t peer = f->peer, tag = f->tag, bytes = f->bytes;
  switch (f->action) {
    case A_SEND:
      if (is_exit) break;
      lb_str(b, " 4 2");
      lb_sp_i64(b, bytes); lb_sp_i64(b, tag); lb_sp_i64(b, peer); lb_str(b, " -1");
      return;
    case A_ISEND:
      lb_str(b, is_exit ? " 1 2" : " 4 2");
      if (is_exit) { lb_sp_i64(b, f->request); return; }
      lb_sp_i64(b, bytes); lb_sp_i64(b, tag); lb_sp_i64(b, peer); lb_str(b, " -1");
      return;
    case A_ISEND_DONE:
      if (is_exit) break;
      lb_str(b, " 1 2");
      lb_sp_i64(b, f->request);
      return;
    case A_RECV:
      if (!is_exit) {
        lb_str(b, " 3 2"); lb_sp_i64(b, tag); lb_sp_i64(b, peer); lb_str(b, " -1");
      } else {
        lb_str(b, " 4 2"); lb_sp_i64(b, bytes); lb_sp_i64(b, tag); lb_sp_i64(b, peer); lb_str(b, " -1");
      }
      return;
    case A_IRECV_POST:
      if (!is_exit) { lb_str(b, " 3 2 -1 -1 -1"); return; }
      lb_str(b, " 1 2"); lb_sp_i64(b, f->request);
      return;
    case A_IRECV_DONE:
      if (!is_exit) { lb_str(b, " 1 2"); lb_sp_i64(b, f->request); return; }
      lb_str(b, " 4 2"); lb_sp_i64(b, bytes); lb_sp_i64(b, tag); lb_sp_i64(b, peer); lb_str(b, " -1");
      return;
    case A_COLL: {
      const picl_evtype *t = evtype_find(f->code);
      int lay = t ? (is_exit ? t->exit : t->entry) : L_NONE;
      if (lay == L_COLL_ROOT) {
        lb_str(b, " 3 2"); lb_sp_i64(b, bytes); lb_sp_i64(b, peer); lb_str(b, " -1");
      } else if (lay == L_COLL) {
        lb_str(b, " 2 2"); lb_sp_i64(b, bytes); lb_str(b, " -1");
      } else if (lay == L_SUBSETS) {
        lb_str(b, " 1 2 -1");
      } else if (lay == L_LEN) {
        lb_str(b, " 1 2"); lb_sp_i64(b, f->bytes2);
      } else {
        break;
      }
      return;
    }
    default:
      break;
  }
  lb_str(b, " 0");
}

static void stat_add(wloc *l, int64_t code, int64_t dt, uint64_t vol,
                     int count) {
  wstat *s = sk_stat(l, code);
  if (!s) return;
  s->count += (uint64_t)count;
  if (dt > 0) s->time += dt;
  s->volume += vol;
}

/* Finish a pending foreign entry record and write the exit record. */
static int sk_finish_frame(picl_sink *k, wloc *l, frame *f, int64_t t) {
  int rc;
  lbuf b = {0};
  if (f->rec != SIZE_MAX && !f->filled && may_be_empty(f->action) &&
      f->ucode >= 0) {
    /* a Wait / Test that completed no request (count 0, null requests, a
     * collective's request): not a sendend / recvend, a user event; an
     * Isend / Irecv without its isend / irecv post likewise */
    f->code = f->ucode;
    f->action = A_NONE;
  }
  if (f->rec != SIZE_MAX) {
    wrec *r = sk_pending(k, f->rec);
    rec_head(k, &b, R_ENTRY, f->code, f->t_enter, l, k->decimals);
    foreign_data(&b, f, 0);
    if (b.oom) return PT_ENOMEM;
    l->written_bytes += b.n + 1;
    if (r) {
      r->line = b.p;
      b.p = NULL;
    }
    free(b.p);
    b = (lbuf){0};
    stat_add(l, f->code, 0, 0, 1); /* counted under the code written */
  }
  rec_head(k, &b, R_EXIT, f->code, t, l, k->decimals);
  foreign_data(&b, f, 1);
  rc = sk_emit(k, l, R_EXIT, f->code, t, &b, NULL, 0);
  free(b.p);
  if (rc) return rc;
  stat_add(l, f->code, t - f->t_enter,
           f->filled ? (uint64_t)(f->bytes > 0 ? f->bytes : 0) : 0, 0);
  return sk_flush(k, 0);
}

/* The event type of an entry or exit of a region: a PICL-origin region's
 * record may carry its own (picl.event_type: the region was first seen
 * with another type that has the same name). */
static int64_t rec_code(picl_sink *k, const wregion *r, const pt_event *ev) {
  const pt_attr *a = r->picl ? find_attr(k, ev, K_EVTYPE) : NULL;
  return a && a->val.type == PT_TYPE_INT ? a->val.v.i : r->code;
}

static int sk_enter(picl_sink *k, wloc *l, const pt_event *ev) {
  wregion *r;
  int rc = sk_region(k, ev->ref, &r);
  if (rc) return rc;
  int64_t t = sk_ns(k, ev->time);
  if (!r->picl && (rc = sk_region_code(k, r, l, t))) return rc;
  if (!r->picl && r->row) {
    /* a call written as a PICL event type: name the type after it; a
     * Wait / Test may complete a send or a receive, or nothing (then it is
     * a user event type of its own: PICL has no type for that) */
    uint64_t key = (uint64_t)(r - k->R) + 1;
    if ((rc = sk_name_code(k, l, r->code, t, key))) return rc;
    if (completes(r->row->action) &&
        ((rc = sk_name_code(k, l, completion_code(r->code, A_ISEND_DONE), t, key)) ||
         (rc = sk_name_code(k, l, completion_code(r->code, A_IRECV_DONE), t, key))))
      return rc;
    if (may_be_empty(r->row->action) && r->ucode < 0 &&
        (rc = sk_user_code(k, l, t, r->name, &r->ucode)))
      return rc;
  }
  if (l->depth == l->cap && l->cap < SK_MAXDEPTH) {
    int nc = l->cap ? 2 * l->cap : 16;
    frame *ns = realloc(l->st, (size_t)nc * sizeof *ns);
    if (!ns) return sk_err(k, PT_ENOMEM, "out of memory");
    l->st = ns;
    l->cap = nc;
  }
  if (l->depth >= l->cap)
    return sk_err(k, PT_ELIMIT,
                  "location %" PRIu64 " (processor %" PRId64 " process %" PRId64
                  "), t=%" PRIu64 ": more than %d regions open at once (enter "
                  "without leave?); PICL writing keeps at most %d per location",
                  ev->location, l->proc, l->process, ev->time, SK_MAXDEPTH,
                  SK_MAXDEPTH);
  frame *f = &l->st[l->depth++];
  memset(f, 0, sizeof *f);
  f->code = f->rcode = rec_code(k, r, ev);
  f->picl = r->picl;
  f->t_enter = t;
  f->rec = SIZE_MAX;
  f->action = !r->picl && r->row ? r->row->action : A_NONE;
  f->ucode = r->ucode;
  lbuf b = {0};
  if (r->picl) {
    int dec;
    const char *raw;
    sk_event_time(k, ev, &t, &dec, &raw);
    f->t_enter = t;
    b.n = 0;
    lb_i64(&b, R_ENTRY);
    lb_sp_i64(&b, f->code);
    lb_put(&b, " ", 1);
    if (raw) lb_str(&b, raw); else lb_time(&b, t, dec);
    lb_sp_i64(&b, l->proc);
    lb_sp_i64(&b, l->process);
    data_from_attrs(k, &b, ev, NULL, 0);
    rc = sk_emit(k, l, R_ENTRY, f->code, t, &b, NULL, 0);
  } else if (f->action != A_NONE) {
    uint64_t seq;
    rc = sk_emit(k, l, R_ENTRY, r->code, t, &b, &seq, 1);
    f->rec = seq;
  } else {
    rec_head(k, &b, R_ENTRY, r->code, t, l, k->decimals);
    lb_str(&b, " 0");
    rc = sk_emit(k, l, R_ENTRY, r->code, t, &b, NULL, 0);
  }
  free(b.p);
  if (rc) return rc;
  if (f->rec == SIZE_MAX) stat_add(l, f->code, 0, 0, 1);
  return 0;
}

/* The -4 exit record of a PICL-origin region (time as the source wrote
 * it); *t gets the event's time in PICL units. */
static int sk_exit_record(picl_sink *k, wloc *l, int64_t code,
                          const pt_event *ev, int64_t *t) {
  lbuf b = {0};
  int dec;
  const char *raw;
  sk_event_time(k, ev, t, &dec, &raw);
  lb_i64(&b, R_EXIT);
  lb_sp_i64(&b, code);
  lb_put(&b, " ", 1);
  if (raw) lb_str(&b, raw); else lb_time(&b, *t, dec);
  lb_sp_i64(&b, l->proc);
  lb_sp_i64(&b, l->process);
  data_from_attrs(k, &b, ev, NULL, 0);
  int rc = sk_emit(k, l, R_EXIT, code, *t, &b, NULL, 0);
  free(b.p);
  return rc;
}

static int sk_leave(picl_sink *k, wloc *l, const pt_event *ev) {
  wregion *r;
  int rc = sk_region(k, ev->ref, &r);
  if (rc) return rc;
  int64_t t = sk_ns(k, ev->time), code = rec_code(k, r, ev);
  frame *f, tmp;
  if (l->depth > 0 && l->st[l->depth - 1].rcode == code) {
    f = &l->st[--l->depth];
  } else {
    /* Not the innermost open region (overlapping or unbalanced regions, as
     * some tracers write).  Like the other sinks, write the exit anyway;
     * close the innermost open frame of this region if there is one (the
     * frames above it stay open for their own leaves), else nothing is
     * open to close.  Either way the stack does not grow. */
    if (!k->mismatched++) {
      k->mismatch_loc = ev->location;
      k->mismatch_time = ev->time;
    }
    int d = l->depth - 1;
    while (d >= 0 && l->st[d].rcode != code) d--;
    if (d < 0) {
      if (!r->picl && (rc = sk_region_code(k, r, l, t))) return rc;
      memset(&tmp, 0, sizeof tmp);
      tmp.code = r->picl ? code : r->code;
      tmp.picl = r->picl;
      tmp.t_enter = t;
      tmp.rec = SIZE_MAX;
      if (!r->picl) return sk_finish_frame(k, l, &tmp, t);
      return sk_exit_record(k, l, code, ev, &t);
    }
    k->mismatched_deeper++;
    tmp = l->st[d];
    memmove(&l->st[d], &l->st[d + 1],
            (size_t)(l->depth - d - 1) * sizeof *l->st);
    l->depth--;
    f = &tmp;
  }
  if (!f->picl) return sk_finish_frame(k, l, f, t);
  rc = sk_exit_record(k, l, code, ev, &t);
  if (!rc) stat_add(l, f->code, t - f->t_enter, 0, 0);
  return rc;
}

/* A point-to-point / collective event: fills the enclosing foreign
 * communication region, is ignored inside a PICL region, else becomes an
 * entry/exit pair of its own. */
static int sk_semantic(picl_sink *k, wloc *l, const pt_event *ev) {
  frame *top = l->depth ? &l->st[l->depth - 1] : NULL;
  if (top && top->picl) return 0;
  if (ev->kind == PT_EV_COLL_BEGIN) return 0;
  int action;
  int64_t code;
  switch (ev->kind) {
    case PT_EV_SEND: action = A_SEND; code = -21; break;
    case PT_EV_ISEND: action = A_ISEND; code = -27; break;
    case PT_EV_ISEND_COMPLETE: action = A_ISEND_DONE; code = -31; break;
    case PT_EV_RECV: action = A_RECV; code = -52; break;
    case PT_EV_IRECV_REQUEST: action = A_IRECV_POST; code = -57; break;
    case PT_EV_IRECV: action = A_IRECV_DONE; code = -61; break;
    case PT_EV_COLL_END: {
      action = A_COLL;
      code = 0;
      for (int i = 0; i < EVI__COUNT; i++)
        if (ev_table[i].action == A_COLL && ev_table[i].coll == ev->ref) {
          code = ev_table[i].code;
          break;
        }
      if (!code) { /* no PICL event type for this collective (said at close) */
        if (ev->ref < PT_COLL__COUNT) k->coll_dropped[ev->ref]++;
        return 0;
      }
      break;
    }
    default:
      return 0;
  }
  frame tmp;
  frame *f = top;
  int own = 0, next = 0;
  int fits = f && f->action != A_NONE &&
             (f->action == action ||
              (completes(f->action) && completes(action)));
  if (!fits || (f->filled && !completes(action))) {
    memset(&tmp, 0, sizeof tmp);
    f = &tmp;
    f->code = f->rcode = code;
    f->t_enter = sk_ns(k, ev->time);
    f->rec = SIZE_MAX;
    own = 1;
  } else if (f->filled) {
    /* a further completion of the same call: the pair so far ends here,
     * the next one starts (see the comment at the top of the sink) */
    int64_t t = sk_ns(k, ev->time);
    int rc = sk_finish_frame(k, l, f, t);
    if (rc) return rc;
    f->t_enter = t;
    f->rec = SIZE_MAX;
    next = 1;
  }
  f->action = action;
  f->filled = 1;
  if (completes(action))
    f->code = completion_code(f->rcode, action);
  else if (action != A_COLL)
    f->code = code;
  f->peer = sk_peer(k, ev->peer);
  f->tag = ev->tag;
  f->bytes = (int64_t)(ev->size > INT64_MAX ? INT64_MAX : ev->size);
  f->bytes2 = (int64_t)(ev->size2 > INT64_MAX ? INT64_MAX : ev->size2);
  f->request = (int64_t)ev->request;
  if (ev->kind == PT_EV_IRECV_REQUEST || ev->kind == PT_EV_ISEND_COMPLETE) {
    f->peer = f->tag = -1;
    f->bytes = 0;
  }
  if (next) {
    lbuf b = {0};
    rec_head(k, &b, R_ENTRY, f->code, f->t_enter, l, k->decimals);
    foreign_data(&b, f, 0);
    int rc = sk_emit(k, l, R_ENTRY, f->code, f->t_enter, &b, NULL, 0);
    free(b.p);
    if (rc) return rc;
    stat_add(l, f->code, 0, 0, 1);
    return 0;
  }
  if (!own) return 0;
  /* a pair of its own at the event's time, under the type's own name */
  int64_t t = f->t_enter;
  int rc = sk_name_code(k, l, f->code, t, 0);
  if (rc) return rc;
  lbuf b = {0};
  rec_head(k, &b, R_ENTRY, f->code, t, l, k->decimals);
  foreign_data(&b, f, 0);
  rc = sk_emit(k, l, R_ENTRY, f->code, t, &b, NULL, 0);
  free(b.p);
  if (rc) return rc;
  stat_add(l, f->code, 0, 0, 1);
  return sk_finish_frame(k, l, f, t);
}

/* The event type of a LABEL: its code (a PICL source's event type) on a
 * PICL-origin location; elsewhere (another source's codes mean nothing to
 * PICL, or the sink never saw the label) a user event type of its own,
 * named by a -5 label record when the label has a name. */
static int sk_label_code(picl_sink *k, wloc *l, uint64_t id, int64_t t,
                         int64_t *code) {
  uint64_t ix, c, key = id | (UINT64_C(1) << 63);
  int known = hm_get(&k->labels, id, &ix);
  if (known && l->picl) {
    *code = k->LB[ix].code;
    return 0;
  }
  if (hm_get(&k->user_codes, key, &c)) {
    *code = (int64_t)c;
    return 0;
  }
  int rc = 0;
  if (known && k->LB[ix].name)
    rc = sk_user_code(k, l, t, k->LB[ix].name, code);
  else
    *code = k->next_user++;
  return rc ? rc : hm_put(&k->user_codes, key, (uint64_t)*code);
}

/* MARK, USER, MESSAGE, BUFFER_OVERFLOW: one record each. */
static int sk_point(picl_sink *k, wloc *l, const pt_event *ev) {
  int64_t rt, et = 0, t;
  int dec, labelled = 1;
  const char *text = NULL, *raw;
  sk_event_time(k, ev, &t, &dec, &raw);
  switch (ev->kind) {
    case PT_EV_MARK: {
      const pt_attr *a = find_attr(k, ev, K_RECORD);
      rt = a && a->val.type == PT_TYPE_INT ? a->val.v.i : R_MARK;
      text = ev->text;
      break;
    }
    case PT_EV_USER:
      rt = ev->tag < 0 ? 0 : ev->tag;
      break;
    case PT_EV_MESSAGE:
      rt = R_MESSAGE;
      text = ev->text;
      break;
    case PT_EV_BUFFER_OVERFLOW:
      rt = R_MARK;
      et = ev->tag == PT_OVERFLOW_RING ? -914 : -913;
      labelled = 0;
      break;
    case PT_EV_BUFFER_FLUSH:
      rt = R_MARK;
      et = -912;
      labelled = 0;
      break;
    default:
      return 0;
  }
  int rc = labelled ? sk_label_code(k, l, ev->ref, t, &et) : 0;
  if (rc) return rc;
  lbuf b = {0};
  lb_i64(&b, rt);
  lb_sp_i64(&b, et);
  lb_put(&b, " ", 1);
  if (raw) lb_str(&b, raw); else lb_time(&b, t, dec);
  lb_sp_i64(&b, l->proc);
  lb_sp_i64(&b, l->process);
  data_from_attrs(k, &b, ev, text, 1);
  rc = sk_emit(k, l, rt, et, t, &b, NULL, 0);
  free(b.p);
  if (!rc && rt == R_MARK) stat_add(l, et, 0, 0, 1);
  return rc;
}

static int sk_def(picl_sink *k, const pt_def *d) {
  int rc = 0;
  switch (d->kind) {
    case PT_DEF_CLOCK:
      if (d->i0 > 0) k->tps = d->i0;
      break;
    case PT_DEF_ATTRIBUTE:
      for (int i = 0; i < K__COUNT; i++)
        if (d->name && strcmp(d->name, attr_table[i].name) == 0)
          rc = hm_put(&k->attrk, d->id, (uint64_t)i + 1);
      break;
    case PT_DEF_LOCATION:
      rc = hm_put(&k->loc_group, d->id, d->parent);
      break;
    case PT_DEF_LOCATION_GROUP:
      if (hm_get(&k->rank_seen, (uint64_t)d->i1, NULL)) k->rank_dup = 1;
      rc = hm_put(&k->rank_seen, (uint64_t)d->i1, 1);
      if (!rc) rc = hm_put(&k->group_rank, d->id, (uint64_t)d->i1);
      break;
    case PT_DEF_KEYVAL: {
      if (!d->name || !d->s1) break;
      int64_t v;
      if (parse_i64(d->s1, d->s1 + strlen(d->s1), &v)) break;
      if (strcmp(d->name, "picl.process") == 0) {
        rc = hm_put(&k->loc_process, d->parent, (uint64_t)v);
      } else if (strcmp(d->name, "picl.time_bias") == 0) {
        k->bias = v;
      } else if (strcmp(d->name, "picl.time_decimals") == 0) {
        if (v >= 0 && v < 30) k->decimals = (int)v;
      } else if (strcmp(d->name, "picl.within") == 0) {
        uint64_t ix;
        if (hm_get(&k->labels, d->parent, &ix)) {
          k->LB[ix].within = v;
          k->LB[ix].has_within = 1;
        } else {
          rc = hm_put(&k->pending_within, d->parent, (uint64_t)v);
        }
      }
      break;
    }
    case PT_DEF_REGION: {
      wregion *r;
      if ((rc = sk_region(k, d->id, &r))) break;
      free(r->name);
      r->name = d->name ? strdup(d->name) : NULL;
      int64_t code;
      if (d->s1 && strncmp(d->s1, "PICL:", 5) == 0 &&
          !parse_i64(d->s1 + 5, d->s1 + strlen(d->s1), &code)) {
        r->picl = 1;
        r->known = 1;
        r->code = code;
        r->row = evtype_find(code);
      } else {
        r->picl = 0;
        r->known = 0;
      }
      break;
    }
    case PT_DEF_DESCRIPTOR: {
      uint8_t cv[PICL_MAX_CONV];
      int n = d->s1 ? parse_control(d->s1, strlen(d->s1), cv, PICL_MAX_CONV) : 0;
      if (n > 0) rc = hm_put(&k->descs, (uint64_t)d->i2, (uint64_t)n);
      break;
    }
    case PT_DEF_LABEL: {
      uint64_t ix;
      if (!hm_get(&k->labels, d->id, &ix)) {
        if (k->nLB == k->capLB) {
          size_t cap = k->capLB ? k->capLB * 2 : 32;
          wlabel *n = realloc(k->LB, cap * sizeof *n);
          if (!n) return PT_ENOMEM;
          k->LB = n;
          k->capLB = cap;
        }
        ix = k->nLB++;
        memset(&k->LB[ix], 0, sizeof k->LB[ix]);
        if ((rc = hm_put(&k->labels, d->id, ix))) break;
      }
      wlabel *lb = &k->LB[ix];
      lb->code = d->i0;
      free(lb->name);
      lb->name = d->name ? strdup(d->name) : NULL;
      if (d->name && !lb->name) rc = PT_ENOMEM;
      uint64_t w;
      lb->has_within = hm_get(&k->pending_within, d->id, &w);
      lb->within = lb->has_within ? (int64_t)w : -1;
      break;
    }
    default:
      break;
  }
  return rc == PT_ENOMEM ? sk_err(k, rc, "out of memory") : rc;
}

static int picl_sink_write(void *st, const pt_item *item) {
  picl_sink *k = st;
  int rc = 0;
  if (item->type == PT_ITEM_DEF) return sk_def(k, &item->u.def);
  if (item->type == PT_ITEM_SUMMARY) {
    if (k->nsums == k->capsums) {
      size_t cap = k->capsums ? k->capsums * 2 : 64;
      pt_summary *n = realloc(k->sums, cap * sizeof *n);
      if (!n) return sk_err(k, PT_ENOMEM, "out of memory");
      k->sums = n;
      k->capsums = cap;
    }
    k->sums[k->nsums++] = item->u.summary;
    return 0;
  }
  if (item->type != PT_ITEM_EVENT) return 0;
  const pt_event *ev = &item->u.event;
  wloc *l;
  if ((rc = sk_loc(k, ev->location, &l)) || (rc = sk_resolve(k, l)))
    return sk_err(k, rc, "out of memory");
  switch (ev->kind) {
    case PT_EV_ENTER: rc = sk_enter(k, l, ev); break;
    case PT_EV_LEAVE: rc = sk_leave(k, l, ev); break;
    case PT_EV_SEND: case PT_EV_ISEND: case PT_EV_ISEND_COMPLETE:
    case PT_EV_RECV: case PT_EV_IRECV_REQUEST: case PT_EV_IRECV:
    case PT_EV_COLL_BEGIN: case PT_EV_COLL_END:
      rc = sk_semantic(k, l, ev);
      break;
    case PT_EV_MARK: case PT_EV_USER: case PT_EV_MESSAGE:
    case PT_EV_BUFFER_OVERFLOW: case PT_EV_BUFFER_FLUSH:
      rc = sk_point(k, l, ev);
      break;
    case PT_EV_RMA_PUT: case PT_EV_RMA_GET: case PT_EV_RMA_ATOMIC:
      k->rma_dropped[ev->kind - PT_EV_RMA_PUT]++;
      return 0;
    default:
      /* counted per kind, warned at close (one line per kind) */
      if (ev->kind < PT_EV__COUNT) k->kind_dropped[ev->kind]++;
      return 0;
  }
  if (rc == PT_ENOMEM) return sk_err(k, rc, "out of memory");
  return rc;
}

/* ---- close: tail records (-4 -901, statistics) merged by time ---------- */

typedef struct tail {
  int64_t t;
  uint64_t seq;
  char *line;
} tail;

typedef struct tails {
  tail *a;
  size_t n, cap;
  uint64_t seq;
} tails;

static int tail_add(tails *T, int64_t t, lbuf *b) {
  if (b->oom) return PT_ENOMEM;
  if (T->n == T->cap) {
    size_t cap = T->cap ? T->cap * 2 : 64;
    tail *n = realloc(T->a, cap * sizeof *n);
    if (!n) return PT_ENOMEM;
    T->a = n;
    T->cap = cap;
  }
  T->a[T->n++] = (tail){t, T->seq++, b->p};
  *b = (lbuf){0};
  return 0;
}

static int tail_cmp(const void *x, const void *y) {
  const tail *a = x, *b = y;
  if (a->t != b->t) return a->t < b->t ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

typedef struct spair {
  int64_t x;
  uint64_t v;
} spair;

static int spair_cmp(const void *p, const void *q) {
  const spair *a = p, *b = q;
  /* system types descending (-11, -12, -21...), user types ascending */
  if ((a->x >= 0) != (b->x >= 0)) return a->x < 0 ? -1 : 1;
  if (a->x < 0) return a->x > b->x ? -1 : a->x < b->x;
  return a->x < b->x ? -1 : a->x > b->x;
}

/* One statistics record (rt) of pairs for location l at time t. */
static int stat_record(picl_sink *k, tails *T, const wloc *l, int64_t t,
                       int64_t rt, int64_t et, spair *p, size_t n) {
  if (!n) return 0;
  qsort(p, n, sizeof *p, spair_cmp);
  lbuf b = {0};
  rec_head(k, &b, rt, et, t, l, k->decimals);
  lb_sp_i64(&b, (int64_t)n);
  lb_str(&b, rt == R_STAT_TIME ? " \"%d%lf\"" : " \"%d%d\"");
  for (size_t i = 0; i < n; i++) {
    lb_sp_i64(&b, p[i].x);
    lb_put(&b, " ", 1);
    if (p[i].v == UINT64_MAX)
      lb_str(&b, "-1");
    else if (rt == R_STAT_TIME)
      lb_time(&b, (int64_t)(p[i].v > INT64_MAX ? INT64_MAX : p[i].v), k->decimals);
    else
      lb_i64(&b, (int64_t)(p[i].v > INT64_MAX ? INT64_MAX : p[i].v));
  }
  return tail_add(T, t, &b);
}

/* Statistics of one (location, time, relative-to) group: system then user
 * types, each as -101, -102, -103 records. */
static int stat_group(picl_sink *k, tails *T, const wloc *l, int64_t t,
                      int64_t et, const int64_t *x, const uint64_t *tm,
                      const uint64_t *cnt, const uint64_t *vol, size_t n) {
  spair *p = malloc((n ? n : 1) * sizeof *p);
  if (!p) return PT_ENOMEM;
  int rc = 0;
  for (int user = 0; user < 2 && !rc; user++)
    for (int64_t rt = R_STAT_TIME; rt >= R_STAT_VOLUME && !rc; rt--) {
      size_t m = 0;
      const uint64_t *v = rt == R_STAT_TIME ? tm : rt == R_STAT_COUNT ? cnt : vol;
      for (size_t i = 0; i < n; i++)
        if ((x[i] >= 0) == user && v[i]) p[m++] = (spair){x[i], v[i]};
      rc = stat_record(k, T, l, t, rt, et, p, m);
    }
  free(p);
  return rc;
}

static int sk_tails(picl_sink *k, tails *T) {
  int rc;
  /* tracing exits */
  for (size_t i = 0; i < k->nL; i++) {
    wloc *l = k->L[i];
    if (!l->started || l->picl || !traced_proc(l->proc)) continue;
    while (l->depth) { /* close what is still open */
      frame *f = &l->st[l->depth - 1];
      if (f->code == -901) break;
      l->depth--;
    }
    if (!l->last_exit901) {
      lbuf b = {0};
      rec_head(k, &b, R_EXIT, -901, l->last, l, k->decimals);
      lb_str(&b, " 0");
      l->written_bytes += b.n + 1;
      if ((rc = tail_add(T, l->last, &b))) return rc;
      stat_add(l, -901, l->last - l->first, 0, 0);
    }
  }
  /* statistics from summaries, grouped by (location, time, within) */
  size_t n = k->nsums;
  int64_t *x = malloc((n ? n : 1) * sizeof *x);
  uint64_t *tm = malloc((n ? n : 1) * sizeof *tm);
  uint64_t *cnt = malloc((n ? n : 1) * sizeof *cnt);
  uint64_t *vol = malloc((n ? n : 1) * sizeof *vol);
  uint8_t *done = calloc(n ? n : 1, 1);
  rc = x && tm && cnt && vol && done ? 0 : PT_ENOMEM;
  for (size_t i = 0; i < n && !rc; i++) {
    if (done[i]) continue;
    const pt_summary *s = &k->sums[i];
    if (s->kind != PT_SUM_LABEL && s->kind != PT_SUM_REGION) continue;
    wloc *l;
    if ((rc = sk_loc(k, s->location, &l)) || (rc = sk_resolve(k, l))) break;
    int64_t within = -1;
    /* all summaries with the same location, time and within */
    size_t m = 0;
    for (size_t j = i; j < n; j++) {
      const pt_summary *u = &k->sums[j];
      if (done[j] || u->location != s->location || u->time != s->time) continue;
      int64_t code, w = -1;
      if (u->kind == PT_SUM_LABEL) {
        uint64_t ix;
        if (!hm_get(&k->labels, u->ref, &ix)) { done[j] = 1; continue; }
        code = k->LB[ix].code;
        w = k->LB[ix].has_within ? k->LB[ix].within : -1;
      } else if (u->kind == PT_SUM_REGION) {
        uint64_t ix;
        if (!hm_get(&k->regions, u->ref, &ix)) { done[j] = 1; continue; }
        wregion *r = &k->R[ix];
        if (!r->picl && (rc = sk_region_code(k, r, l, sk_ns(k, u->time)))) break;
        code = r->code;
      } else {
        continue;
      }
      if (m == 0) within = w;
      else if (w != within) continue;
      done[j] = 1;
      x[m] = code;
      tm[m] = u->incl_time;
      cnt[m] = u->count;
      vol[m] = u->bytes_sent ? u->bytes_sent : u->bytes_recv;
      m++;
    }
    if (rc) break;
    if (m) {
      l->has_sum = 1;
      rc = stat_group(k, T, l, sk_ns(k, s->time), within, x, tm, cnt, vol, m);
    }
    i--; /* the same start may have more groups (other `within`) */
    if (done[i + 1]) i++;
  }
  /* computed statistics for foreign locations without summaries */
  for (size_t i = 0; i < k->nL && !rc; i++) {
    wloc *l = k->L[i];
    if (!l->started || l->picl || l->has_sum || !traced_proc(l->proc)) continue;
    wstat *w = sk_stat(l, -901);
    if (!w) { rc = PT_ENOMEM; break; }
    w->volume = l->written_bytes;
    if (!w->count) w->count = 1;
    size_t m = l->nstats;
    int64_t *xx = malloc(m * sizeof *xx);
    uint64_t *a = malloc(m * sizeof *a), *c = malloc(m * sizeof *c),
             *v = malloc(m * sizeof *v);
    if (!xx || !a || !c || !v) rc = PT_ENOMEM;
    for (size_t j = 0; j < m && !rc; j++) {
      xx[j] = l->stats[j].code;
      a[j] = (uint64_t)l->stats[j].time;
      c[j] = l->stats[j].count;
      v[j] = l->stats[j].volume;
    }
    if (!rc) rc = stat_group(k, T, l, l->last, -1, xx, a, c, v, m);
    free(xx); free(a); free(c); free(v);
  }
  free(x); free(tm); free(cnt); free(vol); free(done);
  return rc;
}

static void sink_free(picl_sink *k) {
  if (!k) return;
  if (k->body) fclose(k->body);
  if (k->out && k->out != stdout) fclose(k->out);
  for (size_t i = k->qh; i < k->qh + k->qn; i++) free(k->q[i].line);
  free(k->q);
  for (size_t i = 0; i < k->nL; i++) {
    hm_free(&k->L[i]->named);
    free(k->L[i]->stats);
    free(k->L[i]->st);
    free(k->L[i]);
  }
  free(k->L);
  for (size_t i = 0; i < k->nR; i++) free(k->R[i].name);
  free(k->R);
  for (size_t i = 0; i < k->nLB; i++) free(k->LB[i].name);
  free(k->LB);
  free(k->sums);
  hm_free(&k->attrk);
  hm_free(&k->locs);
  hm_free(&k->loc_group);
  hm_free(&k->group_rank);
  hm_free(&k->rank_seen);
  hm_free(&k->loc_process);
  hm_free(&k->regions);
  hm_free(&k->labels);
  hm_free(&k->pending_within);
  hm_free(&k->taken);
  hm_free(&k->group_procs);
  hm_free(&k->user_codes);
  hm_free(&k->descs);
  free(k->path);
  free(k);
}

static int picl_sink_open(void **st, const char *path, const pt_sink_opts *o,
                          pt_error *err) {
  picl_sink *k = calloc(1, sizeof *k);
  if (!k) return pt__err(err, PT_ENOMEM, "out of memory");
  k->path = strdup(path);
  k->tps = PT_PICL_TICKS_PER_SECOND;
  k->decimals = 6;
  if (o) {
    k->warn = o->warn;
    k->warn_user = o->warn_user;
  }
  if (!k->path) {
    sink_free(k);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  k->body = tmpfile();
  if (!k->body) {
    int e = errno;
    sink_free(k);
    return pt__err(err, PT_EIO, "%s: temporary file: %s", path, strerror(e));
  }
  if (strcmp(path, "-") == 0) {
    k->out = stdout;
  } else {
    k->out = fopen(path, "w");
    if (!k->out) {
      int e = errno;
      sink_free(k);
      return pt__err(err, PT_EIO, "%s: %s", path, strerror(e));
    }
  }
  *st = k;
  return PT_OK;
}

static int picl_sink_close(void *st, pt_error *err) {
  picl_sink *k = st;
  int rc = 0;
  if (k->mismatched) {
    char m[400];
    snprintf(m, sizeof m,
             "picl: %" PRIu64 " leaves did not match the innermost open "
             "region of their location (the first at location %" PRIu64
             ", t=%" PRIu64 "); written as they are: %" PRIu64 " closed that "
             "region further down (regions overlap), %" PRIu64 " had no "
             "open region to close (see paratrace check)",
             k->mismatched, k->mismatch_loc, k->mismatch_time,
             k->mismatched_deeper, k->mismatched - k->mismatched_deeper);
    sk_warn(k, m);
  }
  if (k->clamped) {
    char m[200];
    snprintf(m, sizeof m, "picl: %" PRIu64 " time values beyond what PICL holds "
             "(2^63 ns, about 292 years) were written as its largest time",
             k->clamped);
    sk_warn(k, m);
  }
  for (unsigned op = 0; op < PT_COLL__COUNT; op++)
    if (k->coll_dropped[op]) {
      char m[200];
      const char *nm = pt_coll_op_name(op);
      snprintf(m, sizeof m, "picl: %" PRIu64 " '%s' collective operations "
               "have no PICL event type: their calls are written as user "
               "events, without the collective's bytes and root",
               k->coll_dropped[op], nm ? nm : "?");
      sk_warn(k, m);
    }
  for (unsigned kd = 0; kd < PT_EV__COUNT; kd++)
    if (k->kind_dropped[kd]) {
      char m[200];
      snprintf(m, sizeof m, "picl: %" PRIu64 " '%s' events have no PICL "
               "record; left out", k->kind_dropped[kd],
               pt_event_kind_name(kd));
      sk_warn(k, m);
    }
  uint64_t *rd = k->rma_dropped;
  if (rd[0] + rd[1] + rd[2]) {
    char m[300];
    snprintf(m, sizeof m, "picl: %" PRIu64 " one-sided (RMA) operations "
             "have no PICL record and were left out (%" PRIu64 " puts, %"
             PRIu64 " gets, %" PRIu64 " atomics); their calls are kept, "
             "without target or bytes", rd[0] + rd[1] + rd[2], rd[0], rd[1],
             rd[2]);
    sk_warn(k, m);
  }
  /* open foreign regions: finish their pending entries */
  for (size_t i = 0; i < k->nL && !rc; i++) {
    wloc *l = k->L[i];
    for (int d = l->depth - 1; d >= 0 && !rc; d--) {
      frame *f = &l->st[d];
      if (f->rec != SIZE_MAX) {
        wrec *r = sk_pending(k, f->rec);
        lbuf b = {0};
        rec_head(k, &b, R_ENTRY, f->code, f->t_enter, l, k->decimals);
        foreign_data(&b, f, 0);
        if (b.oom) rc = PT_ENOMEM;
        else if (r) r->line = b.p;
        else free(b.p);
        f->rec = SIZE_MAX;
      }
    }
  }
  if (!rc) rc = sk_flush(k, 1);
  tails T = {0};
  k->in_tails = 1;
  if (!rc) rc = sk_tails(k, &T);
  if (!rc) {
    if (T.n) qsort(T.a, T.n, sizeof *T.a, tail_cmp);
    if (fflush(k->body) || fseek(k->body, 0, SEEK_SET)) rc = PT_EIO;
  }
  /* merge body and tails */
  size_t ti = 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while (!rc && (len = getline(&line, &cap, k->body)) > 0) {
    /* time of the body line: third field */
    const char *p = line, *e = line + len;
    int f = 0;
    const char *ts = NULL, *te = NULL;
    while (p < e && f < 3) {
      while (p < e && (*p == ' ' || *p == '\n')) p++;
      const char *q = p;
      while (q < e && *q != ' ' && *q != '\n') q++;
      if (++f == 3) { ts = p; te = q; }
      p = q;
    }
    int64_t t = INT64_MIN;
    int dec, ex;
    if (ts) pt__picl_parse_time(ts, (size_t)(te - ts), &t, &dec, &ex);
    while (ti < T.n && T.a[ti].t < t) {
      fputs(T.a[ti].line, k->out);
      fputc('\n', k->out);
      ti++;
    }
    if (fwrite(line, 1, (size_t)len, k->out) != (size_t)len) rc = PT_EIO;
  }
  free(line);
  for (; !rc && ti < T.n; ti++) {
    fputs(T.a[ti].line, k->out);
    fputc('\n', k->out);
  }
  for (size_t i = 0; i < T.n; i++) free(T.a[i].line);
  free(T.a);
  if (!rc && (fflush(k->out) || ferror(k->out))) rc = PT_EIO;
  if (rc) {
    if (!k->err[0])
      sk_err(k, rc, rc == PT_ENOMEM ? "out of memory" : "write failed: %s",
             strerror(errno));
    pt__err(err, rc, "%s", k->err);
  }
  sink_free(k);
  return rc;
}

static void picl_sink_abort(void *st) { sink_free(st); }

static const char *picl_sink_errmsg(void *st) { return ((picl_sink *)st)->err; }

const pt__format pt__format_picl = {
    .info = {.name = "picl",
             .description = "PICL new ASCII trace format (ParaGraph input; "
                            "Worley, ORNL/TM-12125)",
             .extensions = ".trf .picl",
             .can_read = 1,
             .can_write = 1},
    .probe = picl_probe,
    .src_open = picl_src_open,
    .src_next = picl_src_next,
    .src_errmsg = picl_src_errmsg,
    .src_close = picl_src_close,
    .src_reader = NULL,
    .stdout_ok = 1,
    .sink_open = picl_sink_open,
    .sink_write = picl_sink_write,
    .sink_errmsg = picl_sink_errmsg,
    .sink_close = picl_sink_close,
    .sink_abort = picl_sink_abort,
};
