/* Internal helpers: see util.h. */
#include "core/util.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

int pt__err(pt_error *err, int status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->status = status;
  }
  return status;
}

int pt__errbuf(char *buf, size_t n, int status, const char *fmt, ...) {
  if (buf && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
  }
  return status;
}

int pt__grow(void *arrp, size_t *cap, size_t need, size_t size,
             size_t first) {
  assert(arrp && cap && size && first);
  if (need <= *cap) return PT_OK;
  size_t nc = *cap ? *cap : first;
  while (nc < need) {
    if (nc > SIZE_MAX / 2) return PT_ENOMEM;
    nc *= 2;
  }
  if (nc > SIZE_MAX / size) return PT_ENOMEM;
  /* the T * at arrp read and written as bytes (no void ** aliasing) */
  void *p;
  memcpy(&p, arrp, sizeof p);
  p = realloc(p, nc * size);
  if (!p) return PT_ENOMEM;
  memcpy(arrp, &p, sizeof p);
  *cap = nc;
  return PT_OK;
}

int pt__buf_reserve(pt__buf *b, size_t extra) {
  if (b->cap - b->len >= extra) return 0;
  size_t need = b->len + extra;
  if (need < b->len) return PT_ENOMEM;
  return pt__grow(&b->p, &b->cap, need, 1, 256);
}

int pt__buf_put(pt__buf *b, const void *src, size_t n) {
  int rc = pt__buf_reserve(b, n);
  if (rc) return rc;
  if (n) memcpy(b->p + b->len, src, n);
  b->len += n;
  return 0;
}

void pt__buf_free(pt__buf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

/* ---- CRC32C ------------------------------------------------------------ */

static uint32_t crc_table[8][256];
static int crc_ready;

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
    crc_table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++)
    for (int t = 1; t < 8; t++)
      crc_table[t][i] =
          (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
  __atomic_store_n(&crc_ready, 1, __ATOMIC_RELEASE);
}

static uint32_t crc_soft(uint32_t c, const uint8_t *p, size_t n) {
  if (!__atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE)) crc_init();
  while (n >= 8) {
    uint32_t lo = c ^ pt__get_u32(p), hi = pt__get_u32(p + 4);
    c = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
        crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
        crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
        crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--) c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xff];
  return c;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c,
                                                         const uint8_t *p,
                                                         size_t n) {
  uint64_t c64 = c;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    c64 = __builtin_ia32_crc32di(c64, w);
    p += 8;
    n -= 8;
  }
  c = (uint32_t)c64;
  while (n--) c = __builtin_ia32_crc32qi(c, *p++);
  return c;
}
static int have_sse42(void) {
  static int v = -1;
  if (v < 0) {
    __builtin_cpu_init();
    v = __builtin_cpu_supports("sse4.2") ? 1 : 0;
  }
  return v;
}
#endif

uint32_t pt__crc32c(uint32_t crc, const void *data, size_t n) {
  uint32_t c = ~crc;
#if defined(__x86_64__) && defined(__GNUC__)
  if (have_sse42()) return ~crc_hw(c, data, n);
#endif
  return ~crc_soft(c, data, n);
}

/* ---- arena ------------------------------------------------------------- */

void *pt__arena_alloc_slow(pt__arena *a, size_t n) {
  n = (n + 7) & ~(size_t)7;
  if (!a->head || a->cap - a->used < n) {
    size_t cap = a->head ? a->head->cap * 2 : 4096;
    if (cap > (1u << 20)) cap = 1u << 20;
    if (cap < n) cap = n;
    struct pt__arena_chunk *c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->next = a->head;
    c->cap = cap;
    a->head = c;
    a->base = c->data;
    a->used = 0;
    a->cap = cap;
  }
  void *p = a->head->data + a->used;
  a->used += n;
  return p;
}

char *pt__arena_strdup(pt__arena *a, const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *p = pt__arena_alloc(a, n);
  if (p) memcpy(p, s, n);
  return p;
}

void pt__arena_reset_slow(pt__arena *a) {
  if (!a->head) return;
  struct pt__arena_chunk *c = a->head->next;
  while (c) {
    struct pt__arena_chunk *n = c->next;
    free(c);
    c = n;
  }
  a->head->next = NULL;
  a->used = 0;
}

void pt__arena_free(pt__arena *a) {
  struct pt__arena_chunk *c = a->head;
  while (c) {
    struct pt__arena_chunk *n = c->next;
    free(c);
    c = n;
  }
  a->head = NULL;
  a->base = NULL;
  a->used = a->cap = 0;
}

static int value_copy(pt__arena *a, pt_value *v) {
  if (v->type == PT_TYPE_STRING && v->v.s) {
    if (!(v->v.s = pt__arena_strdup(a, v->v.s))) return PT_ENOMEM;
  } else if (v->type == PT_TYPE_INTS && v->count) {
    int64_t *p = pt__arena_alloc(a, (size_t)v->count * sizeof *p);
    if (!p) return PT_ENOMEM;
    memcpy(p, v->v.ints, (size_t)v->count * sizeof *p);
    v->v.ints = p;
  }
  return 0;
}

int pt__event_copy(pt__arena *a, pt_event *dst, const pt_event *src) {
  *dst = *src;
  if (src->text && !(dst->text = pt__arena_strdup(a, src->text)))
    return PT_ENOMEM;
  if (value_copy(a, &dst->value)) return PT_ENOMEM;
  if (src->nattrs) {
    pt_attr *at = pt__arena_alloc(a, (size_t)src->nattrs * sizeof *at);
    if (!at) return PT_ENOMEM;
    for (uint32_t i = 0; i < src->nattrs; i++) {
      at[i] = src->attrs[i];
      if (value_copy(a, &at[i].val)) return PT_ENOMEM;
    }
    dst->attrs = at;
  } else {
    dst->attrs = NULL;
  }
  return 0;
}

int pt__def_copy(pt__arena *a, pt_def *dst, const pt_def *src) {
  *dst = *src;
  if ((src->name && !(dst->name = pt__arena_strdup(a, src->name))) ||
      (src->s1 && !(dst->s1 = pt__arena_strdup(a, src->s1))) ||
      (src->s2 && !(dst->s2 = pt__arena_strdup(a, src->s2))) ||
      (src->s3 && !(dst->s3 = pt__arena_strdup(a, src->s3))))
    return PT_ENOMEM;
  if (src->nmembers) {
    if (src->nmembers > SIZE_MAX / sizeof(uint64_t)) return PT_ENOMEM;
    uint64_t *m = pt__arena_alloc(a, (size_t)src->nmembers * sizeof *m);
    if (!m) return PT_ENOMEM;
    memcpy(m, src->members, (size_t)src->nmembers * sizeof *m);
    dst->members = m;
  } else {
    dst->members = NULL;
  }
  return 0;
}

int pt__callsite_address(const pt_def *d, char *buf, size_t n) {
  if (!d->s1 || d->s1[0] != '/' || d->i0 > 0) return 0;
  const char *plus = d->name ? strstr(d->name, "+0x") : NULL;
  while (plus && strstr(plus + 1, "+0x")) plus = strstr(plus + 1, "+0x");
  if (!plus && (d->name || !strstr(d->s1, "+0x"))) return 0;
  snprintf(buf, n, "%s%s", d->s1, plus ? plus : "");
  return 1;
}

/* ---- files ------------------------------------------------------------- */

int pt__write_all(int fd, const void *buf, size_t n) {
  const uint8_t *p = buf;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

long long pt__pread_all(int fd, void *buf, size_t n, uint64_t off) {
  uint8_t *p = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, p + got, n - got, (off_t)(off + got));
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (r == 0) break;
    got += (size_t)r;
  }
  return (long long)got;
}

int pt__is_trace_files_dir(const char *path, const char *const *suffixes) {
  DIR *d = opendir(path);
  if (!d) return 0;
  int ok = 1;
  struct dirent *e;
  while (ok && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    size_t l = strlen(e->d_name), m = 0;
    for (const char *const *s = suffixes; *s && !m; s++) {
      size_t sl = strlen(*s);
      if (l > sl && strcmp(e->d_name + l - sl, *s) == 0) m = 1;
    }
    size_t pn = strlen(path) + l + 2;
    char *p = m ? malloc(pn) : NULL;
    struct stat st;
    if (p) snprintf(p, pn, "%s/%s", path, e->d_name);
    ok = p && lstat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
  }
  closedir(d);
  return ok;
}

int pt__rmtree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
  if (!S_ISDIR(st.st_mode)) return unlink(path);
  DIR *d = opendir(path);
  if (!d) return -1;
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    size_t n = strlen(path) + strlen(e->d_name) + 2;
    char *sub = malloc(n);
    if (!sub) {
      rc = -1;
      break;
    }
    snprintf(sub, n, "%s/%s", path, e->d_name);
    if (pt__rmtree(sub) != 0) rc = -1;
    free(sub);
  }
  closedir(d);
  if (rmdir(path) != 0) rc = -1;
  return rc;
}

int pt__read_file(const char *path, size_t limit, char **out, size_t *len) {
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? PT_ENOTFOUND : PT_EIO;
  pt__buf b = {0};
  int rc = 0;
  for (;;) {
    if (pt__buf_reserve(&b, 65536)) {
      rc = PT_ENOMEM;
      break;
    }
    ssize_t r = read(fd, b.p + b.len, b.cap - b.len - 1);
    if (r < 0) {
      if (errno == EINTR) continue;
      rc = PT_EIO;
      break;
    }
    if (r == 0) break;
    b.len += (size_t)r;
    if (b.len > limit) {
      rc = PT_ELIMIT;
      break;
    }
  }
  close(fd);
  if (rc) {
    pt__buf_free(&b);
    return rc;
  }
  if (pt__buf_reserve(&b, 1)) {
    pt__buf_free(&b);
    return PT_ENOMEM;
  }
  b.p[b.len] = 0;
  *out = (char *)b.p;
  if (len) *len = b.len;
  return 0;
}

size_t pt__default_max_open(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return 64;
  size_t q = (size_t)(rl.rlim_cur / 4);
  return q < 4 ? 4 : q > 64 ? 64 : q;
}

static volatile sig_atomic_t g_interrupted;
void pt_pipe_interrupt(void) { g_interrupted = 1; }
int pt__interrupted(void) { return g_interrupted != 0; }

int pt__cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}
