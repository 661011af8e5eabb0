/* Summaries/snapshots rewriting (pt_aux_*) and crash recovery
 * (pt_archive_recover).  See writer.h and doc/format.md. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/archive.h"
#include "store/map.h"

#define AUX_BLOCK (256u << 10)

/* ---- anchor "files" refresh -------------------------------------------- */

/* Rewrite the anchor with its files line listing the directory now; the
 * other lines are kept as they are.  Best effort: an archive without a
 * parsable anchor is left alone. */
int pt__aux_refresh_files(const char *dir) {
  char *ap = pt__path(dir, "anchor");
  char *text = NULL;
  size_t len = 0;
  if (!ap || pt__read_file(ap, PT__ANCHOR_MAX, &text, &len) != 0) {
    free(ap);
    free(text);
    return PT_OK;
  }
  pt__anchor a;
  const char *why;
  size_t line;
  int rc = pt__anchor_parse(text, len, &a, &why, &line);
  free(text);
  if (rc) {
    pt__anchor_free(&a);
    free(ap);
    return PT_OK;
  }
  /* Rebuild: every pair but files, then a fresh files line. */
  pt__buf b = {0};
  for (size_t i = 0; !rc && i < a.nkv; i++) {
    if (strcmp(a.kv[i].key, "files") == 0) continue;
    if (pt__buf_put(&b, a.kv[i].key, strlen(a.kv[i].key)) ||
        pt__buf_put(&b, " = ", 3) ||
        pt__buf_put(&b, a.kv[i].val, strlen(a.kv[i].val)) ||
        pt__buf_put(&b, "\n", 1))
      rc = PT_ENOMEM;
  }
  pt__anchor_free(&a);
  if (!rc && pt__buf_put(&b, "files =", 7)) rc = PT_ENOMEM;
  pt__buf names = {0};
  /* (a directory gone meanwhile: an empty list) */
  int lr = rc ? PT_OK : pt__archive_list_files(dir, &names);
  if (lr == PT_ENOMEM ||
      (!rc && names.len && (pt__buf_put(&b, " ", 1) ||
                            pt__buf_put(&b, names.p, names.len))))
    rc = PT_ENOMEM;
  pt__buf_free(&names);
  if (!rc && pt__buf_put(&b, "\n", 1)) rc = PT_ENOMEM;
  if (!rc && pt__write_atomic(ap, b.p, b.len) != 0) rc = PT_EIO;
  pt__buf_free(&b);
  free(ap);
  return rc;
}

/* Is `path` a PTF archive with stream `id`?  PT_OK, PT_ENOTFOUND,
 * PT_EFORMAT. */
static int check_stream(const char *path, uint64_t id, pt_error *err) {
  char *ap = pt__path(path, "anchor");
  char *text = NULL;
  size_t len;
  int rc = ap ? pt__read_file(ap, PT__ANCHOR_MAX, &text, &len) : PT_ENOMEM;
  int e = errno;
  if (rc) {
    /* only a missing anchor means "no archive"; anything else (EMFILE,
     * EACCES, ...) is reported as it is */
    if (rc == PT_ENOTFOUND)
      rc = pt__err(err, rc, "%s: no PTF archive here", path);
    else if (rc == PT_EIO)
      rc = pt__err(err, rc, "%s: %s", ap, strerror(e));
    else
      rc = pt__err(err, rc, "%s: %s", ap ? ap : path, pt_strerror(rc));
    free(ap);
    return rc;
  }
  pt__anchor a;
  const char *why;
  size_t line;
  rc = pt__anchor_parse(text, len, &a, &why, &line);
  free(text);
  pt__anchor_free(&a);
  free(ap);
  if (rc) return pt__err(err, rc, "%s/anchor: line %zu: %s", path, line, why);
  char *ep = pt__path(path, "s%" PRIu64 ".events", id);
  struct stat sb;
  rc = ep && stat(ep, &sb) == 0 ? PT_OK : PT_ENOTFOUND;
  if (rc) pt__err(err, rc, "%s: no stream %" PRIu64, path, id);
  free(ep);
  return rc;
}

/* ---- pt_aux_* ---------------------------------------------------------- */

struct pt_aux_writer {
  char *dir, *final, *tmp;
  uint32_t what;
  pt__bw bw;
  int zs_ref; /* holds a reference to the shared block-building sets */
  uint64_t last;
  int failed;
  char err[512];
};

static int aerr(pt_aux_writer *a, int rc, const char *fmt, ...)
    PT_PRINTF(3, 4);
static int aerr(pt_aux_writer *a, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(a->err, sizeof a->err, fmt, ap);
  va_end(ap);
  return rc;
}

const char *pt_aux_errmsg(const pt_aux_writer *a) { return a ? a->err : ""; }

static const char *aux_ext(uint32_t what) {
  return what == PT_ITEM_SUMMARY ? "sums" : "snaps";
}

int pt_aux_open(pt_aux_writer **out, const char *path, uint64_t stream_id,
                uint32_t what, pt_error *err) {
  *out = NULL;
  if (what != PT_ITEM_SUMMARY && what != PT_ITEM_SNAPSHOT)
    return pt__err(err, PT_EINVAL, "aux: 'what' must be summaries or snapshots");
  int rc = check_stream(path, stream_id, err);
  if (rc) return rc;
  pt_aux_writer *a = calloc(1, sizeof *a);
  if (!a) return pt__err(err, PT_ENOMEM, "out of memory");
  a->bw.fd = -1;
  a->what = what;
  a->dir = strdup(path);
  a->final = pt__path(path, "s%" PRIu64 ".%s", stream_id, aux_ext(what));
  a->tmp = pt__path(path, "s%" PRIu64 ".%s.tmp.%ld", stream_id, aux_ext(what),
                    (long)getpid());
  pt__zs_ref();
  a->zs_ref = 1;
  if (!a->dir || !a->final || !a->tmp) {
    pt_aux_abort(a);
    return pt__err(err, PT_ENOMEM, "out of memory");
  }
  /* not kept open: a block is appended by open/write/close, so that
   * summarize can have a writer per stream of thousands of streams under
   * a small limit of open files */
  rc = pt__bw_open(&a->bw, a->tmp,
                   what == PT_ITEM_SUMMARY ? PT__BLK_SUMS : PT__BLK_SNAPS, 0);
  if (rc) {
    pt__err(err, rc, "%s: %s", a->tmp, strerror(errno));
    pt_aux_abort(a);
    return rc;
  }
  *out = a;
  return PT_OK;
}

int pt_aux_add(pt_aux_writer *a, const pt_item *item) {
  const char *what = aux_ext(a->what);
  if (!item)
    return aerr(a, PT_EINVAL, "%s: item is NULL", a->tmp);
  if (item->type != a->what)
    return aerr(a, PT_EINVAL, "%s: an item of type %u in a file of %s",
                a->tmp, item->type,
                a->what == PT_ITEM_SUMMARY ? "summaries" : "snapshots");
  if (a->failed)
    return aerr(a, PT_EIO, "%s: an earlier write failed", a->tmp);
  uint64_t t = a->what == PT_ITEM_SUMMARY ? item->u.summary.time
                                          : item->u.snapshot.time;
  if (a->bw.ordinal + a->bw.count && t < a->last)
    return aerr(a, PT_EORDER,
                "%s: %s time %" PRIu64 " before the previous one, %" PRIu64,
                a->tmp, what, t, a->last);
  if (a->what == PT_ITEM_SUMMARY && !pt__summary_kind_ok(item->u.summary.kind))
    return aerr(a, PT_EINVAL, "%s: summary of unknown kind %u at time %" PRIu64,
                a->tmp, item->u.summary.kind, t);
  size_t bound = a->what == PT_ITEM_SUMMARY
                     ? PT__SUM_BOUND
                     : pt__snapshot_bound(&item->u.snapshot);
  if (!bound)
    return aerr(a, PT_EINVAL, "%s: invalid snapshot event at time %" PRIu64,
                a->tmp, t);
  if (bound > PT__BLK_MAX_RAW / 2)
    return aerr(a, PT_ELIMIT, "%s: snapshot at time %" PRIu64 " too large",
                a->tmp, t);
  int rc;
  if (a->bw.count && a->bw.raw.len + bound > AUX_BLOCK &&
      (rc = pt__bw_flush_shared(&a->bw, 1, NULL, NULL))) {
    a->failed = 1;
    return aerr(a, rc, "%s: writing a block: %s", a->tmp,
                rc == PT_EIO ? strerror(errno) : pt_strerror(rc));
  }
  uint8_t *p = pt__bw_begin(&a->bw, t, bound);
  if (!p) return aerr(a, PT_ENOMEM, "%s: out of memory", a->tmp);
  size_t n = a->what == PT_ITEM_SUMMARY
                 ? pt__summary_put(p, &item->u.summary, &a->bw.prev_time)
                 : pt__snapshot_put(p, &item->u.snapshot, &a->bw.prev_time);
  pt__bw_end(&a->bw, t, n);
  a->last = t;
  return PT_OK;
}

int pt_aux_close(pt_aux_writer *a, pt_error *err) {
  return pt__aux_close(a, 1, err);
}

int pt__aux_close(pt_aux_writer *a, int refresh, pt_error *err) {
  if (!a) return PT_OK;
  int rc = a->failed ? PT_EIO
                     : pt__bw_flush_shared(&a->bw, 1, NULL, NULL);
  if (a->bw.fd >= 0 && close(a->bw.fd) != 0 && !rc) rc = PT_EIO;
  a->bw.fd = -1;
  if (rc) {
    if (a->failed && a->err[0])
      pt__err(err, rc, "%s", a->err);
    else
      pt__err(err, rc, "%s: %s", a->tmp,
              rc == PT_EIO ? strerror(errno) : pt_strerror(rc));
  } else if (rename(a->tmp, a->final) != 0) {
    rc = pt__err(err, PT_EIO, "%s: %s", a->final, strerror(errno));
  } else {
    if (refresh) pt__aux_refresh_files(a->dir);
  }
  pt_aux_abort(a); /* frees; the temporary is gone or renamed */
  return rc;
}

void pt_aux_abort(pt_aux_writer *a) {
  if (!a) return;
  if (a->bw.fd >= 0) close(a->bw.fd);
  a->bw.fd = -1;
  if (a->tmp) unlink(a->tmp);
  pt__bw_free(&a->bw);
  if (a->zs_ref) pt__zs_unref();
  free(a->dir);
  free(a->final);
  free(a->tmp);
  free(a);
}

int pt_aux_remove(const char *path, uint64_t stream_id, uint32_t what,
                  pt_error *err) {
  if (what != PT_ITEM_SUMMARY && what != PT_ITEM_SNAPSHOT)
    return pt__err(err, PT_EINVAL, "aux: 'what' must be summaries or snapshots");
  int rc = check_stream(path, stream_id, err);
  if (rc) return rc;
  char *p = pt__path(path, "s%" PRIu64 ".%s", stream_id, aux_ext(what));
  if (!p) return pt__err(err, PT_ENOMEM, "out of memory");
  if (unlink(p) != 0 && errno != ENOENT)
    rc = pt__err(err, PT_EIO, "%s: %s", p, strerror(errno));
  free(p);
  if (!rc) pt__aux_refresh_files(path);
  return rc;
}

/* ---- recovery ---------------------------------------------------------- */

typedef struct rcv {
  uint8_t type;
  pt__arena scratch;
  /* events: locations in order of first appearance */
  pt__map seen;
  uint64_t *locs;
  size_t nlocs, cap;
  int oom;
  /* defs: the clock */
  int have_clock;
  pt_def clock;
} rcv;

static int add_loc(rcv *v, uint64_t loc) {
  if (pt__map_get(&v->seen, loc, NULL)) return 0;
  if (PT_GROW(v->locs, v->cap, v->nlocs + 1, 16) ||
      pt__map_put(&v->seen, loc, 1))
    return -1;
  v->locs[v->nlocs++] = loc;
  return 0;
}

/* Decode every item of a block: accept it only if all decode. */
static int rcv_block(void *user, const pt__blkhdr *h, uint64_t off,
                     const uint8_t *raw) {
  (void)off;
  rcv *v = user;
  pt__dec d;
  const char *why = NULL;
  if (v->type == PT__BLK_EVENTS) {
    if (pt__dec_init_events(&d, raw, h->raw, h->first_ts, h->count,
                            &v->scratch, &why))
      return 1; /* as a block that does not decode */
  } else {
    pt__dec_init(&d, raw, h->raw, h->first_ts, &v->scratch);
  }
  uint64_t last = h->first_ts;
  for (uint64_t i = 0; i < h->count; i++) {
    int rc;
    if (v->type == PT__BLK_EVENTS) {
      pt_event e;
      rc = pt__event_get(&d, &e, &why);
      if (!rc && add_loc(v, e.location)) v->oom = 1;
      last = e.time;
    } else if (v->type == PT__BLK_DEFS) {
      pt_def df;
      rc = pt__def_get(&d, &df, &why);
      if (!rc && df.kind == PT_DEF_CLOCK) {
        v->have_clock = 1;
        v->clock = df;
      }
    } else if (v->type == PT__BLK_SUMS) {
      pt_summary s;
      rc = pt__summary_get(&d, &s, &why);
    } else {
      pt_snapshot s;
      rc = pt__snapshot_get(&d, &s, &why);
    }
    if (rc || v->oom) return 1;
  }
  if (d.p != d.end) return 1;
  if (v->type == PT__BLK_EVENTS && last != h->last_ts) return 1;
  return 0;
}

/* Scan one file, keep its good blocks, move a damaged tail aside.
 * *sc gets the scan (caller frees sc->e).  Absent file: PT_OK, empty. */
static int recover_file(const char *path, rcv *v, ZSTD_DCtx *dctx,
                        pt__scan *sc, pt_recover_report *rep, pt_error *err) {
  memset(sc, 0, sizeof *sc);
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return PT_OK;
    return pt__err(err, PT_EIO, "%s: %s", path, strerror(errno));
  }
  int rc = pt__scan_blocks(fd, v->type, dctx, rcv_block, v, sc);
  if (!rc && v->oom) rc = PT_ENOMEM;
  if (rc) {
    close(fd);
    return pt__err(err, rc, "%s: %s", path, pt_strerror(rc));
  }
  if (sc->good_end < sc->file_size) {
    uint64_t tail = sc->file_size - sc->good_end;
    /* keep the damaged bytes: path.damaged, .damaged.1, ... */
    char *dp = NULL;
    int dfd = -1;
    for (int k = 0; k < 1000 && dfd < 0; k++) {
      free(dp);
      size_t n = strlen(path) + 32;
      dp = malloc(n);
      if (!dp) break;
      if (k)
        snprintf(dp, n, "%s.damaged.%d", path, k);
      else
        snprintf(dp, n, "%s.damaged", path);
      dfd = open(dp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (dfd < 0 && errno != EEXIST) break;
    }
    if (dfd < 0) {
      rc = pt__err(err, PT_EIO, "%s: cannot keep the damaged tail aside: %s",
                   path, strerror(errno));
    } else {
      uint8_t buf[65536];
      uint64_t off = sc->good_end;
      while (!rc && off < sc->file_size) {
        size_t want = sizeof buf;
        if (sc->file_size - off < want) want = (size_t)(sc->file_size - off);
        long long got = pt__pread_all(fd, buf, want, off);
        if (got <= 0 || pt__write_all(dfd, buf, (size_t)got) != 0)
          rc = pt__err(err, PT_EIO, "%s: %s", dp, strerror(errno));
        off += got > 0 ? (uint64_t)got : 0;
      }
      if (close(dfd) != 0 && !rc)
        rc = pt__err(err, PT_EIO, "%s: %s", dp, strerror(errno));
      if (!rc && ftruncate(fd, (off_t)sc->good_end) != 0)
        rc = pt__err(err, PT_EIO, "%s: truncate: %s", path, strerror(errno));
      if (!rc && rep) rep->truncated_bytes += tail;
    }
    free(dp);
  }
  close(fd);
  return rc;
}

/* Is `nm` a temporary of a pt__write_atomic or pt_aux_* whose process has
 * ended ("NAME.tmp.<pid>")? */
static int aux_file(const char *nm);

/* A summarize's temporary "s<id>.sums.tmp.<pid>" (or .snaps) left by a
 * process that is gone: its pid does not run here, and it has not been
 * written to for ten minutes (the pid may belong to another node sharing
 * the file system, or to another container). */
static int dead_tmp(const char *dir, const char *nm) {
  const char *t = strstr(nm, ".tmp.");
  if (!t || t == nm || (size_t)(t - nm) >= 64) return 0;
  char base[64];
  memcpy(base, nm, (size_t)(t - nm));
  base[t - nm] = '\0';
  if (!aux_file(base)) return 0;
  const char *q = t + 5;
  uint64_t pid;
  if (pt__parse_u64(q, strlen(q), &pid) != 0 || pid == 0 || pid > INT32_MAX)
    return 0;
  if ((pid_t)pid == getpid()) return 0;
  if (!(kill((pid_t)pid, 0) != 0 && errno == ESRCH)) return 0;
  char *p = pt__path(dir, "%s", nm);
  struct stat sb;
  int old = p && stat(p, &sb) == 0 && S_ISREG(sb.st_mode) &&
            time(NULL) - sb.st_mtime > 600;
  free(p);
  return old;
}

/* Is `nm` "s<id>.sums" or "s<id>.snaps"? */
static int aux_file(const char *nm) {
  const char *dot = strchr(nm, '.');
  uint64_t id;
  return nm[0] == 's' && dot && dot > nm + 1 &&
         pt__parse_u64(nm + 1, (size_t)(dot - nm - 1), &id) == 0 &&
         (!strcmp(dot, ".sums") || !strcmp(dot, ".snaps"));
}

/* Remove the temporaries of dead processes and, with drop_aux, every
 * summaries and snapshots file. */
static int clean_dir(const char *path, int drop_aux, pt_recover_report *rep,
                     pt_error *err) {
  DIR *d = opendir(path);
  if (!d) return pt__err(err, PT_EIO, "%s: %s", path, strerror(errno));
  int rc = PT_OK;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    const char *nm = e->d_name;
    int tmp = dead_tmp(path, nm), aux = drop_aux && aux_file(nm);
    if (!tmp && !aux) continue;
    char *p = pt__path(path, "%s", nm);
    if (!p) rc = pt__err(err, PT_ENOMEM, "out of memory");
    else if (unlink(p) != 0 && errno != ENOENT)
      rc = pt__err(err, PT_EIO, "%s: %s", p, strerror(errno));
    else if (tmp)
      rep->tmp_removed++;
    else
      rep->aux_removed++;
    free(p);
  }
  closedir(d);
  return rc;
}

int pt_archive_recover(const char *path, pt_recover_report *report,
                       pt_error *err) {
  pt_recover_report rep = {0};
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
    return pt__err(err, PT_ENOTFOUND, "%s: no such archive directory", path);
  /* creator and stream ids from the anchor, if it is readable */
  char *ap = pt__path(path, "anchor");
  char *text = NULL;
  size_t len = 0;
  pt__anchor a = {0};
  int have_anchor = 0;
  if (ap && pt__read_file(ap, PT__ANCHOR_MAX, &text, &len) == 0) {
    const char *why;
    size_t line;
    have_anchor = pt__anchor_parse(text, len, &a, &why, &line) == PT_OK;
  }
  free(text);
  free(ap);
  uint64_t *ids = NULL;
  size_t nids = 0, capids = 0;
  int rc = PT_OK;
  pt__map seen = {0};
  /* streams: the directory's s<id>.events plus the anchor's stream.<id> */
  DIR *d = opendir(path);
  if (!d) {
    pt__anchor_free(&a);
    return pt__err(err, PT_EIO, "%s: %s", path, strerror(errno));
  }
  struct dirent *e;
  int any_ptf = have_anchor;
  for (size_t i = 0;; i++) {
    uint64_t id;
    int found = 0;
    if (have_anchor && i < a.nkv) {
      const char *k = a.kv[i].key;
      found = strncmp(k, "stream.", 7) == 0 &&
              pt__parse_u64(k + 7, strlen(k + 7), &id) == 0;
    } else {
      if (!(e = readdir(d))) break;
      const char *nm = e->d_name;
      size_t l = strlen(nm);
      found = nm[0] == 's' && l >= 9 && strcmp(nm + l - 7, ".events") == 0 &&
              pt__parse_u64(nm + 1, l - 8, &id) == 0;
      if (found) any_ptf = 1;
    }
    if (!found || id >= PT__MAX_STREAMS || pt__map_get(&seen, id, NULL))
      continue;
    if (PT_GROW(ids, capids, nids + 1, 16) || pt__map_put(&seen, id, 1)) {
      rc = PT_ENOMEM;
      break;
    }
    ids[nids++] = id;
  }
  closedir(d);
  pt__map_free(&seen);
  char *creator = have_anchor && pt__anchor_get(&a, "creator")
                      ? strdup(pt__anchor_get(&a, "creator"))
                      : strdup("paratrace (recovered)");
  pt__anchor_free(&a);
  if (!rc && !creator) rc = PT_ENOMEM;
  if (rc) {
    free(ids);
    free(creator);
    return pt__err(err, rc, "%s: %s", path, pt_strerror(rc));
  }
  if (!any_ptf) {
    free(ids);
    free(creator);
    return pt__err(err, PT_EFORMAT, "%s: neither an anchor nor streams",
                   path);
  }
  if (nids) qsort(ids, nids, sizeof *ids, pt__cmp_u64);
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  pt__stream_desc *sd = calloc(nids ? nids : 1, sizeof *sd);
  uint64_t **locs = calloc(nids ? nids : 1, sizeof *locs);
  pt__buf ib = {0};
  rcv dv = {.type = PT__BLK_DEFS};
  if (!dctx || !sd || !locs) rc = pt__err(err, PT_ENOMEM, "out of memory");
  pt__scan sc;
  int events_cut = 0;
  if (!rc) {
    char *dp = pt__path(path, "defs");
    rc = dp ? recover_file(dp, &dv, dctx, &sc, &rep, err)
            : pt__err(err, PT_ENOMEM, "out of memory");
    free(dp);
    free(sc.e);
  }
  for (size_t i = 0; !rc && i < nids; i++) {
    uint64_t id = ids[i];
    static const struct {
      const char *ext;
      uint8_t type;
    } aux[] = {{"defs", PT__BLK_DEFS},
               {"sums", PT__BLK_SUMS},
               {"snaps", PT__BLK_SNAPS}};
    for (size_t k = 0; !rc && k < 3; k++) {
      char *p = pt__path(path, "s%" PRIu64 ".%s", id, aux[k].ext);
      rcv v = {.type = aux[k].type};
      rc = p ? recover_file(p, &v, dctx, &sc, &rep, err)
             : pt__err(err, PT_ENOMEM, "out of memory");
      free(sc.e);
      free(p);
      pt__arena_free(&v.scratch);
    }
    if (rc) break;
    char *ep = pt__path(path, "s%" PRIu64 ".events", id);
    char *ip = pt__path(path, "s%" PRIu64 ".index", id);
    rcv v = {.type = PT__BLK_EVENTS};
    uint64_t cut_before = rep.truncated_bytes;
    rc = ep && ip ? recover_file(ep, &v, dctx, &sc, &rep, err)
                  : pt__err(err, PT_ENOMEM, "out of memory");
    if (rep.truncated_bytes != cut_before) events_cut = 1;
    if (!rc) {
      uint64_t evs = 0;
      for (size_t j = 0; j < sc.n; j++) evs += sc.e[j].count;
      sd[i] = (pt__stream_desc){id,
                                v.locs,
                                v.nlocs,
                                evs,
                                sc.n,
                                sc.n ? sc.e[0].first_ts : 0,
                                sc.n ? sc.e[sc.n - 1].last_ts : 0,
                                sc.raw_bytes};
      locs[i] = v.locs;
      v.locs = NULL;
      rep.blocks += sc.n;
      rep.events += evs;
      rc = pt__index_build(sc.e, sc.n, sc.good_end, &ib);
      /* an index that already says exactly that is left alone (a second
       * recover changes nothing, and says so) */
      char *old = NULL;
      size_t olen = 0;
      int same = !rc && pt__read_file(ip, ib.len + 1, &old, &olen) == 0 &&
                 olen == ib.len && memcmp(old, ib.p, olen) == 0;
      free(old);
      if (!rc && !same && pt__write_atomic(ip, ib.p, ib.len) != 0)
        rc = pt__err(err, PT_EIO, "%s: %s", ip, strerror(errno));
      else if (rc)
        pt__err(err, rc, "%s: %s", ip, pt_strerror(rc));
      if (!rc && !same) rep.indexes_rebuilt++;
    }
    free(sc.e);
    free(v.locs);
    pt__map_free(&v.seen);
    pt__arena_free(&v.scratch);
    free(ep);
    free(ip);
  }
  rep.streams = nids;
  /* summaries and snapshots describe the events up to the end of the
   * trace, across streams (message matching, where MPI_Finalize starts):
   * after a cut none of them can be trusted */
  if (!rc) rc = clean_dir(path, events_cut, &rep, err);
  if (!rc) {
    pt__anchor_info ai = {.creator = creator,
                          .closed = 1,
                          .have_clock = dv.have_clock,
                          .ticks_per_second = dv.clock.i0,
                          .epoch = dv.clock.i1,
                          .length = dv.clock.i2,
                          .start = dv.clock.parent,
                          .streams = sd,
                          .nstreams = nids};
    rc = pt__anchor_store(path, &ai, err);
  }
  pt__arena_free(&dv.scratch);
  for (size_t i = 0; locs && i < nids; i++) free(locs[i]);
  free(locs);
  free(sd);
  free(ids);
  free(creator);
  pt__buf_free(&ib);
  ZSTD_freeDCtx(dctx);
  if (report) *report = rep;
  return rc;
}
