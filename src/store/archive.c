/* PTF archive pieces: names, anchor, index, scan.  See archive.h. */
#include "store/archive.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

char *pt__path(const char *dir, const char *fmt, ...) {
  char tail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tail, sizeof tail, fmt, ap);
  va_end(ap);
  size_t n = strlen(dir) + strlen(tail) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, tail);
  return p;
}

int pt__write_atomic(const char *path, const void *data, size_t len) {
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (!tmp) {
    errno = ENOMEM;
    return -1;
  }
  snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    free(tmp);
    return -1;
  }
  int rc = pt__write_all(fd, data, len);
  if (close(fd) != 0) rc = -1;
  if (rc == 0 && rename(tmp, path) != 0) rc = -1;
  if (rc != 0) {
    int e = errno;
    unlink(tmp);
    errno = e;
  }
  free(tmp);
  return rc;
}

int pt__parse_u64(const char *s, size_t n, uint64_t *out) {
  if (n == 0 || n > 20) return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

/* ---- anchor ------------------------------------------------------------ */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

int pt__anchor_parse(const char *text, size_t len, pt__anchor *a,
                     const char **why, size_t *line) {
  memset(a, 0, sizeof *a);
  *line = 0;
  if (len > PT__ANCHOR_MAX) {
    *why = "anchor larger than the limit";
    return PT_ECORRUPT;
  }
  if (memchr(text, 0, len)) {
    *why = "NUL byte in the anchor";
    return PT_EFORMAT;
  }
  a->text = malloc(len + 1);
  if (!a->text) return PT_ENOMEM;
  memcpy(a->text, text, len);
  a->text[len] = 0;
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  a->kv = calloc(lines, sizeof *a->kv);
  if (!a->kv) return PT_ENOMEM;
  char *p = a->text, *end = a->text + len;
  size_t ln = 0;
  int seen_format = 0;
  while (p < end) {
    ln++;
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *e = nl ? nl : end;
    char *next = nl ? nl + 1 : end;
    while (p < e && is_space(*p)) p++;
    while (e > p && is_space(e[-1])) e--;
    if (p == e || *p == '#') {
      p = next;
      continue;
    }
    char *eq = memchr(p, '=', (size_t)(e - p));
    if (!eq) {
      *line = ln;
      *why = seen_format ? "line without '='" : "not a PTF anchor";
      return seen_format ? PT_ECORRUPT : PT_EFORMAT;
    }
    char *ke = eq, *vs = eq + 1;
    while (ke > p && is_space(ke[-1])) ke--;
    while (vs < e && is_space(*vs)) vs++;
    if (ke == p) {
      *line = ln;
      *why = "empty key";
      return seen_format ? PT_ECORRUPT : PT_EFORMAT;
    }
    for (char *k = p; k < ke; k++)
      if (!key_char(*k)) {
        *line = ln;
        *why = "bad character in key";
        return seen_format ? PT_ECORRUPT : PT_EFORMAT;
      }
    *ke = 0;
    *e = 0;
    if (!seen_format) {
      if (strcmp(p, "format") != 0 || strcmp(vs, "ptf") != 0) {
        *line = ln;
        *why = "first line is not 'format = ptf'";
        return PT_EFORMAT;
      }
      seen_format = 1;
    }
    a->kv[a->nkv].key = p;
    a->kv[a->nkv].val = vs;
    a->nkv++;
    p = next;
  }
  if (!seen_format) {
    *why = "empty anchor";
    return PT_EFORMAT;
  }
  return PT_OK;
}

int pt__is_ptf_dir(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
  char *ap = pt__path(path, "anchor"), *text = NULL;
  size_t len = 0, line;
  int rc = ap ? pt__read_file(ap, PT__ANCHOR_MAX, &text, &len) : PT_ENOMEM;
  free(ap);
  if (rc) return 0;
  pt__anchor a;
  const char *why;
  rc = pt__anchor_parse(text, len, &a, &why, &line);
  free(text);
  pt__anchor_free(&a);
  /* "format = ptf" first: ours, also when damaged after it */
  return rc == PT_OK || rc == PT_ECORRUPT;
}

const char *pt__anchor_get(const pt__anchor *a, const char *key) {
  for (size_t i = a->nkv; i-- > 0;)
    if (strcmp(a->kv[i].key, key) == 0) return a->kv[i].val;
  return NULL;
}

void pt__anchor_free(pt__anchor *a) {
  free(a->text);
  free(a->kv);
  memset(a, 0, sizeof *a);
}

int pt__parse_u64_list(const char *s, uint64_t **out, size_t *n) {
  *out = NULL;
  *n = 0;
  size_t cnt = 0;
  for (const char *p = s; *p;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    cnt++;
    while (*p && *p != ' ' && *p != '\t') p++;
  }
  if (!cnt) return PT_OK;
  uint64_t *v = malloc(cnt * sizeof *v);
  if (!v) return PT_ENOMEM;
  size_t i = 0;
  for (const char *p = s; *p;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    size_t len = strcspn(p, " \t");
    if (pt__parse_u64(p, len, &v[i])) {
      free(v);
      return PT_ECORRUPT;
    }
    i++;
    p += len;
  }
  *out = v;
  *n = cnt;
  return PT_OK;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int pt__archive_list_files(const char *dir, pt__buf *b) {
  DIR *d = opendir(dir);
  if (!d) return PT_EIO;
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = PT_OK;
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *nm = e->d_name;
    if (nm[0] == '.' || strcmp(nm, "anchor") == 0 || strstr(nm, ".tmp"))
      continue;
    if (PT_GROW(names, cap, n + 1, 16) || !(names[n] = strdup(nm))) {
      rc = PT_ENOMEM;
      break;
    }
    n++;
  }
  closedir(d);
  if (names) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    if (rc == PT_OK &&
        (pt__buf_put(b, i ? " " : "", i ? 1 : 0) ||
         pt__buf_put(b, names[i], strlen(names[i]))))
      rc = PT_ENOMEM;
    free(names[i]);
  }
  free(names);
  return rc;
}

static int bprintf(pt__buf *b, const char *fmt, ...) PT_PRINTF(2, 3);
static int bprintf(pt__buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || pt__buf_reserve(b, (size_t)n + 1)) return PT_ENOMEM;
  va_start(ap, fmt);
  vsnprintf((char *)b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

int pt__anchor_store(const char *dir, const pt__anchor_info *in,
                     pt_error *err) {
  pt__buf b = {0};
  uint64_t first = UINT64_MAX, last = 0, events = 0;
  for (size_t i = 0; i < in->nstreams; i++) {
    const pt__stream_desc *s = &in->streams[i];
    events += s->events;
    if (s->events) {
      if (s->first < first) first = s->first;
      if (s->last > last) last = s->last;
    }
  }
  if (!events) first = 0;
  int rc = bprintf(&b,
                   "format = ptf\nversion = %d\ncreator = %s\nstate = %s\n",
                   PT__PTF_VERSION, in->creator ? in->creator : "paratrace",
                   in->closed ? "closed" : "open");
  if (!rc && in->have_clock)
    rc = bprintf(&b,
                 "clock.ticks_per_second = %" PRId64 "\nclock.epoch = %" PRId64
                 "\nclock.start = %" PRIu64 "\nclock.length = %" PRId64 "\n",
                 in->ticks_per_second, in->epoch, in->start, in->length);
  if (!rc)
    rc = bprintf(&b,
                 "time.first = %" PRIu64 "\ntime.last = %" PRIu64
                 "\nevents = %" PRIu64 "\nstreams = %zu\n",
                 first, last, events, in->nstreams);
  for (size_t i = 0; !rc && i < in->nstreams; i++) {
    const pt__stream_desc *s = &in->streams[i];
    rc = bprintf(&b, "stream.%" PRIu64 " =", s->id);
    for (size_t j = 0; !rc && j < s->nlocs; j++)
      rc = bprintf(&b, " %" PRIu64, s->locs[j]);
    if (!rc)
      rc = bprintf(&b,
                   "\nstream.%" PRIu64 ".events = %" PRIu64 "\nstream.%" PRIu64
                   ".blocks = %" PRIu64 "\nstream.%" PRIu64
                   ".raw_bytes = %" PRIu64 "\n",
                   s->id, s->events, s->id, s->blocks, s->id, s->raw_bytes);
  }
  if (!rc) rc = bprintf(&b, "files = ");
  if (!rc) rc = pt__archive_list_files(dir, &b);
  if (!rc) rc = bprintf(&b, "\n");
  if (rc) {
    pt__buf_free(&b);
    return pt__err(err, rc, "%s/anchor: %s", dir, pt_strerror(rc));
  }
  char *path = pt__path(dir, "anchor");
  if (!path || pt__write_atomic(path, b.p, b.len) != 0) {
    rc = path ? pt__err(err, PT_EIO, "%s: %s", path, strerror(errno))
              : pt__err(err, PT_ENOMEM, "out of memory");
  }
  free(path);
  pt__buf_free(&b);
  return rc;
}

/* ---- index ------------------------------------------------------------- */

int pt__index_build(const pt__ientry *e, size_t n, uint64_t events_size,
                    pt__buf *out) {
  size_t len = PT__IDX_HDR + n * PT__IDX_ENTRY + PT__IDX_TRAILER;
  out->len = 0;
  if (pt__buf_reserve(out, len)) return PT_ENOMEM;
  uint8_t *p = out->p;
  memcpy(p, PT__IDX_MAGIC, 4);
  pt__put_u32(p + 4, PT__PTF_VERSION);
  pt__put_u32(p + 8, PT__IDX_ENTRY);
  pt__put_u32(p + 12, 0);
  p += PT__IDX_HDR;
  for (size_t i = 0; i < n; i++, p += PT__IDX_ENTRY) {
    pt__put_u64(p, e[i].first_ts);
    pt__put_u64(p + 8, e[i].last_ts);
    pt__put_u64(p + 16, e[i].offset);
    pt__put_u64(p + 24, e[i].count);
    pt__put_u64(p + 32, e[i].ordinal);
  }
  pt__put_u64(p, n);
  pt__put_u64(p + 8, events_size);
  pt__put_u32(p + 16, pt__crc32c(0, out->p, (size_t)(p + 16 - out->p)));
  memcpy(p + 20, PT__IDX_END, 4);
  out->len = len;
  return PT_OK;
}

int pt__index_parse(const uint8_t *p, size_t len, pt__ientry **out, size_t *n,
                    uint64_t *events_size, const char **why) {
  *out = NULL;
  *n = 0;
  if (len < PT__IDX_HDR + PT__IDX_TRAILER) {
    *why = "index file too short";
    return PT_ECORRUPT;
  }
  if (memcmp(p, PT__IDX_MAGIC, 4) != 0 ||
      memcmp(p + len - 4, PT__IDX_END, 4) != 0) {
    *why = "bad index magic";
    return PT_ECORRUPT;
  }
  if (pt__get_u32(p + 4) < PT__PTF_VERSION_MIN ||
      pt__get_u32(p + 4) > PT__PTF_VERSION) {
    *why = "unsupported index version";
    return PT_EVERSION;
  }
  if (pt__get_u32(p + 8) != PT__IDX_ENTRY) {
    *why = "unsupported index entry size";
    return PT_ECORRUPT;
  }
  const uint8_t *t = p + len - PT__IDX_TRAILER;
  uint64_t cnt = pt__get_u64(t);
  if ((len - PT__IDX_HDR - PT__IDX_TRAILER) % PT__IDX_ENTRY != 0 ||
      cnt != (len - PT__IDX_HDR - PT__IDX_TRAILER) / PT__IDX_ENTRY) {
    *why = "index entry count does not match its size";
    return PT_ECORRUPT;
  }
  if (pt__get_u32(t + 16) != pt__crc32c(0, p, len - 8)) {
    *why = "index checksum mismatch";
    return PT_ECORRUPT;
  }
  uint64_t esize = pt__get_u64(t + 8);
  pt__ientry *e = NULL;
  if (cnt) {
    e = malloc((size_t)cnt * sizeof *e);
    if (!e) return PT_ENOMEM;
  }
  const uint8_t *q = p + PT__IDX_HDR;
  for (uint64_t i = 0; i < cnt; i++, q += PT__IDX_ENTRY) {
    pt__ientry *x = &e[i];
    x->first_ts = pt__get_u64(q);
    x->last_ts = pt__get_u64(q + 8);
    x->offset = pt__get_u64(q + 16);
    x->count = pt__get_u64(q + 24);
    x->ordinal = pt__get_u64(q + 32);
    const char *bad = NULL;
    if (x->first_ts > x->last_ts) bad = "index entry first time after last";
    else if (x->count == 0) bad = "index entry with no items";
    else if (x->offset > esize || esize - x->offset < PT__BLK_HDR)
      bad = "index entry beyond the events file";
    else if (i == 0 && x->offset != 0) bad = "index does not start at 0";
    else if (i > 0) {
      const pt__ientry *y = &e[i - 1];
      if (x->offset - y->offset <= PT__BLK_HDR || x->offset < y->offset)
        bad = "index offsets not increasing";
      else if (x->first_ts < y->last_ts) bad = "index times not ordered";
      else if (y->ordinal > UINT64_MAX - y->count ||
               x->ordinal != y->ordinal + y->count)
        bad = "index ordinals not contiguous";
    }
    if (bad) {
      free(e);
      *why = bad;
      return PT_ECORRUPT;
    }
  }
  *out = e;
  *n = (size_t)cnt;
  *events_size = esize;
  return PT_OK;
}

/* ---- scan -------------------------------------------------------------- */

int pt__scan_blocks(int fd, uint8_t type, ZSTD_DCtx *dctx, pt__scan_fn fn,
                    void *user, pt__scan *s) {
  memset(s, 0, sizeof *s);
  struct stat st;
  if (fstat(fd, &st) != 0) return PT_EIO;
  s->file_size = (uint64_t)st.st_size;
  pt__buf stored = {0}, raw = {0};
  uint64_t off = 0, next_ord = 0, prev_last = 0;
  int rc = PT_OK;
  while (off < s->file_size) {
    uint8_t hb[PT__BLK_HDR];
    pt__blkhdr h;
    const char *why = NULL;
    if (s->file_size - off < PT__BLK_HDR) {
      why = "incomplete block header";
    } else if (pt__pread_all(fd, hb, PT__BLK_HDR, off) != PT__BLK_HDR) {
      rc = PT_EIO;
      break;
    } else if (pt__blkhdr_parse(hb, &h, &why) != PT_OK) {
      /* why set */
    } else if (h.type != type) {
      why = "unexpected block type";
    } else if (s->file_size - off - PT__BLK_HDR < h.stored) {
      why = "incomplete block payload";
    } else if (h.ordinal != next_ord) {
      why = "block ordinal not contiguous";
    } else if (h.first_ts < prev_last) {
      why = "block times go backwards";
    }
    if (!why && fn) {
      stored.len = 0;
      if (pt__buf_reserve(&stored, h.stored ? h.stored : 1)) {
        rc = PT_ENOMEM;
        break;
      }
      if (pt__pread_all(fd, stored.p, h.stored, off + PT__BLK_HDR) !=
          (long long)h.stored) {
        rc = PT_EIO;
        break;
      }
      const uint8_t *rp;
      int prc = pt__blk_payload(&h, stored.p, dctx, &raw, &rp, &why);
      if (prc == PT_ENOMEM) {
        rc = prc;
        break;
      }
      if (prc == PT_OK && fn(user, &h, off, rp) != 0)
        why = "block contents do not decode";
    }
    if (why) {
      s->why = why;
      s->bad_off = off;
      break;
    }
    if (PT_GROW(s->e, s->cap, s->n + 1, 64)) {
      rc = PT_ENOMEM;
      break;
    }
    s->e[s->n++] = (pt__ientry){h.first_ts, h.last_ts, off, h.count,
                                h.ordinal};
    s->raw_bytes += h.raw;
    next_ord = h.ordinal + h.count;
    prev_last = h.last_ts;
    off += PT__BLK_HDR + h.stored;
    s->good_end = off;
  }
  pt__buf_free(&stored);
  pt__buf_free(&raw);
  return rc;
}

/* ---- block appender ---------------------------------------------------- */

int pt__bw_open(pt__bw *bw, const char *path, uint8_t type, int keep_open) {
  memset(bw, 0, sizeof *bw);
  bw->type = type;
  bw->keep_open = keep_open;
  bw->fd = -1;
  if (!(bw->path = strdup(path))) return PT_ENOMEM;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
                0644);
  if (fd < 0) return PT_EIO;
  if (keep_open)
    bw->fd = fd;
  else
    close(fd);
  return PT_OK;
}

/* [width][width byte planes of the time deltas][rows] */
static int events_payload(const pt__buf *raw, const pt__buf *dts,
                          uint64_t count, pt__buf *cols) {
  const uint64_t *dt = (const uint64_t *)dts->p;
  /* One pass writes planes 0..2 (the widths of nearly every block) and
   * finds the width; a plane the width does not need is overwritten by
   * the next part, wider deltas get their planes 3.. in a second pass.
   * Room for three planes whatever the width. */
  cols->len = 0;
  if (pt__buf_reserve(cols, 1 + 3 * (size_t)count + raw->len))
    return PT_ENOMEM;
  uint8_t *o = cols->p + 1, *o1 = o + count, *o2 = o1 + count;
  uint64_t all = 0;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t v = dt[i];
    all |= v;
    o[i] = (uint8_t)v;
    o1[i] = (uint8_t)(v >> 8);
    o2[i] = (uint8_t)(v >> 16);
  }
  unsigned tb = 1;
  while (tb < 8 && (all >> (8 * tb))) tb++;
  if (tb > 3) {
    cols->len = 1 + 3 * (size_t)count; /* kept by the reserve */
    if (pt__buf_reserve(cols, (size_t)(tb - 3) * count + raw->len))
      return PT_ENOMEM;
    o = cols->p + 1;
  }
  cols->p[0] = (uint8_t)tb;
  for (unsigned j = 3; j < tb; j++)
    for (uint64_t i = 0; i < count; i++)
      o[j * count + i] = (uint8_t)(dt[i] >> (8 * j));
  memcpy(o + (size_t)tb * count, raw->p, raw->len);
  cols->len = 1 + (size_t)tb * count + raw->len;
  return PT_OK;
}

/* Append a built block (out) to bw's file: the kept descriptor or an
 * open/append/close of path.  0 or -1 (errno set). */
static int append_block(int fd, const char *path, const pt__buf *out) {
  int own = fd < 0;
  if (own) {
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
  }
  int rc = pt__write_all(fd, out->p, out->len);
  if (own) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return rc;
}

int pt__bw_flush(pt__bw *bw, pt__zs *z, int level, pt__ientry *entry,
                 int *wrote) {
  pt__buf *out = &z->out;
  if (wrote) *wrote = 0;
  if (!bw->count) return PT_OK;
  pt__blkhdr h = {0};
  h.type = bw->type;
  h.first_ts = bw->type == PT__BLK_DEFS ? 0 : bw->first_ts;
  h.last_ts = bw->type == PT__BLK_DEFS ? 0 : bw->last_ts;
  h.count = bw->count;
  h.ordinal = bw->ordinal;
  const uint8_t *payload = bw->raw.p;
  size_t plen = bw->raw.len;
  if (bw->type == PT__BLK_EVENTS) {
    if (events_payload(&bw->raw, &bw->dts, bw->count, &z->cols))
      return PT_ENOMEM;
    payload = z->cols.p;
    plen = z->cols.len;
  }
  int rc = pt__blk_build(&h, payload, plen, z->cctx, level, out);
  if (rc) return rc;
  if (append_block(bw->fd, bw->path, out)) return PT_EIO;
  if (entry)
    *entry = (pt__ientry){h.first_ts, h.last_ts, bw->file_off, h.count,
                          h.ordinal};
  bw->file_off += out->len;
  bw->ordinal += bw->count;
  bw->blocks++;
  bw->raw_bytes += h.raw; /* the header's raw size, as recover counts */
  bw->count = 0;
  bw->raw.len = 0;
  bw->dts.len = 0;
  if (wrote) *wrote = 1;
  return PT_OK;
}

void pt__bw_take(pt__bw *bw, pt__bjob *j) {
  j->rc = PT_OK;
  j->h = (pt__blkhdr){.type = bw->type,
                      .first_ts = bw->first_ts,
                      .last_ts = bw->last_ts,
                      .count = bw->count,
                      .ordinal = bw->ordinal};
  /* A copy, not a swap of buffers: with a swap the stream's thread would
   * go on writing into memory that the compression thread has just read,
   * and on the test machine taking those cache lines back cost more than
   * the compression saved.  The copy keeps each thread on its own lines. */
  j->raw.len = j->dts.len = 0;
  if (pt__buf_put(&j->raw, bw->raw.p, bw->raw.len) ||
      pt__buf_put(&j->dts, bw->dts.p, bw->dts.len))
    j->rc = PT_ENOMEM;
  bw->raw.len = bw->dts.len = 0;
  j->fd = bw->fd;
  j->path = bw->path;
  j->off = bw->file_off;
  j->len = 0;
  j->err = 0;
  bw->ordinal += bw->count;
  bw->count = 0;
}

int pt__bjob_run(pt__bjob *j, ZSTD_CCtx *cctx, int level) {
  if (j->rc) return j->rc; /* the copy at take failed */
  j->rc = events_payload(&j->raw, &j->dts, j->h.count, &j->cols);
  if (!j->rc) j->rc = pt__blk_build(&j->h, j->cols.p, j->cols.len, cctx,
                                    level, &j->out);
  if (!j->rc && append_block(j->fd, j->path, &j->out)) {
    j->rc = PT_EIO;
    j->err = errno;
  }
  if (!j->rc) j->len = j->out.len;
  return j->rc;
}

void pt__bw_done(pt__bw *bw, const pt__bjob *j, pt__ientry *entry) {
  if (entry)
    *entry = (pt__ientry){j->h.first_ts, j->h.last_ts, j->off, j->h.count,
                          j->h.ordinal};
  bw->file_off += j->len;
  bw->blocks++;
  bw->raw_bytes += j->h.raw; /* planes + width byte + rows, as the header */
}

void pt__bjob_free(pt__bjob *j) {
  pt__buf_free(&j->raw);
  pt__buf_free(&j->dts);
  pt__buf_free(&j->cols);
  pt__buf_free(&j->out);
}

void pt__bw_free(pt__bw *bw) {
  if (bw->fd >= 0) close(bw->fd);
  bw->fd = -1;
  free(bw->path);
  bw->path = NULL;
  pt__buf_free(&bw->raw);
  pt__buf_free(&bw->dts);
}

/* ---- shared block-building sets ----------------------------------------- */

static pthread_mutex_t zs_mu = PTHREAD_MUTEX_INITIALIZER;
static pt__zs *zs_idle;   /* free list */
static unsigned long zs_refs;

/* Whether this thread may hold zs_mu: raised before locking it, lowered
 * after unlocking it.  The recorder closes its archive from a signal
 * handler (record.c on_signal); should the signal have interrupted this
 * thread inside the list, a lock there would wait for ever (until the
 * handler's watchdog ends the process, the archive not closed).  A get
 * made then builds a set of its own, which put frees, and an unref is
 * left undone (the process is dying; the sets stay pooled). */
static __thread __attribute__((tls_model("initial-exec"))) volatile int
    t_zs_held;
static void zs_lock(void) {
  t_zs_held = 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  pthread_mutex_lock(&zs_mu);
}
static void zs_unlock(void) {
  pthread_mutex_unlock(&zs_mu);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  t_zs_held = 0;
}

static void zs_free(pt__zs *z) {
  ZSTD_freeCCtx(z->cctx);
  pt__buf_free(&z->cols);
  pt__buf_free(&z->out);
  free(z);
}

/* fork(): the list is held across it, so that a child never inherits it
 * locked by a thread that does not exist there (its first block would wait
 * for ever) nor half updated.  zs_mu is a leaf lock (nothing is allocated
 * or locked while it is held), so holding it here orders with nothing. */
static void zs_prefork(void) { pthread_mutex_lock(&zs_mu); }
static void zs_postfork(void) { pthread_mutex_unlock(&zs_mu); }
static pthread_once_t zs_once = PTHREAD_ONCE_INIT;
static void zs_atfork(void) {
  pthread_atfork(zs_prefork, zs_postfork, zs_postfork);
}

void pt__zs_ref(void) {
  pthread_once(&zs_once, zs_atfork);
  zs_lock();
  zs_refs++;
  zs_unlock();
}

void pt__zs_unref(void) {
  if (t_zs_held) return; /* in a signal handler: see t_zs_held */
  pt__zs *drop = NULL;
  zs_lock();
  if (zs_refs && --zs_refs == 0) {
    drop = zs_idle;
    zs_idle = NULL;
  }
  zs_unlock();
  while (drop) {
    pt__zs *n = drop->next;
    zs_free(drop);
    drop = n;
  }
}

pt__zs *pt__zs_get(void) {
  pt__zs *z = NULL;
  int own = t_zs_held; /* in a signal handler: see t_zs_held */
  if (!own) {
    zs_lock();
    z = zs_idle;
    if (z) zs_idle = z->next;
    zs_unlock();
    if (z) return z;
  }
  z = calloc(1, sizeof *z);
  if (z) z->own = own;
  if (z && !(z->cctx = ZSTD_createCCtx())) {
    free(z);
    z = NULL;
  }
  return z;
}

void pt__zs_put(pt__zs *z) {
  if (!z) return;
  if (z->own) {
    zs_free(z);
    return;
  }
  zs_lock();
  int keep = zs_refs > 0;
  if (keep) {
    z->next = zs_idle;
    zs_idle = z;
  }
  zs_unlock();
  if (!keep) zs_free(z);
}

int pt__bw_flush_shared(pt__bw *bw, int level, pt__ientry *entry,
                        int *wrote) {
  if (wrote) *wrote = 0;
  if (!bw->count) return PT_OK;
  pt__zs *z = pt__zs_get();
  if (!z) return PT_ENOMEM;
  int rc = pt__bw_flush(bw, z, level, entry, wrote);
  pt__zs_put(z);
  return rc;
}

/* ---- joined writers' manifests ------------------------------------------ */

/* "key value" -> value after `key ` in line, or NULL. */
static const char *field(const char *line, const char *key) {
  size_t k = strlen(key);
  for (const char *c = line; (c = strstr(c, key)); c += k)
    if ((c == line || c[-1] == ' ') && c[k] == ' ') return c + k + 1;
  return NULL;
}

static int field_u64(const char *line, const char *key, uint64_t *out) {
  const char *v = field(line, key);
  if (!v) return -1;
  size_t n = strcspn(v, " \n");
  return pt__parse_u64(v, n, out);
}

int pt__manifest_parse(const char *path, pt__stream_desc **descs, size_t *ndescs,
                       size_t *capdescs, pt_error *err) {
  char *text = NULL;
  size_t len = 0;
  int rc = pt__read_file(path, 64u << 20, &text, &len);
  if (rc) return pt__err(err, rc, "%s: %s", path, pt_strerror(rc));
  size_t lineno = 0;
  for (char *line = text; rc == PT_OK && line < text + len; lineno++) {
    char *nl = memchr(line, '\n', (size_t)(text + len - line));
    if (!nl) {
      rc = pt__err(err, PT_ECORRUPT, "%s: line %zu: no end of line", path,
                   lineno + 1);
      break;
    }
    *nl = '\0';
    pt__stream_desc d = {0};
    uint64_t blocks = 0;
    const char *locs = field(line, "locs");
    if (field_u64(line, "stream", &d.id) || field_u64(line, "events", &d.events) ||
        field_u64(line, "blocks", &blocks) ||
        field_u64(line, "first", &d.first) || field_u64(line, "last", &d.last) ||
        field_u64(line, "raw", &d.raw_bytes) || !locs ||
        d.id >= PT__MAX_STREAMS) {
      rc = pt__err(err, PT_ECORRUPT, "%s: line %zu: not a stream manifest",
                   path, lineno + 1);
      break;
    }
    d.blocks = blocks;
    uint64_t *l = NULL;
    size_t nl_ = 0;
    if (*locs) {
      /* comma-separated -> the space-separated list parser */
      char *copy = strdup(locs);
      if (!copy) {
        rc = pt__err(err, PT_ENOMEM, "out of memory");
        break;
      }
      for (char *c = copy; *c; c++)
        if (*c == ',') *c = ' ';
      int prc = pt__parse_u64_list(copy, &l, &nl_);
      free(copy);
      if (prc) {
        rc = pt__err(err, PT_ECORRUPT, "%s: line %zu: bad location list",
                     path, lineno + 1);
        break;
      }
    }
    d.locs = l;
    d.nlocs = nl_;
    if (PT_GROW(*descs, *capdescs, *ndescs + 1, 16)) {
      free(l);
      rc = pt__err(err, PT_ENOMEM, "out of memory");
      break;
    }
    (*descs)[(*ndescs)++] = d;
    line = nl + 1;
  }
  free(text);
  return rc;
}
