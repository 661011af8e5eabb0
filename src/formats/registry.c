/* The format registry and the generic source/sink layer: detection,
 * event filters, temporary output names and the final rename. */
#include "formats/registry.h"
#include "paratrace/profile.h"
#include "profile/profile_int.h"
#include "store/archive.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The one list of formats.  A new format adds one line here. */
#define PT__FORMATS(X) X(ptf) X(text) X(picl) X(dumpi) X(otf) X(perfetto) X(dumpi_ascii) X(otf2)

static const pt__format *const formats[] = {
#define PT__FORMAT_PTR(name) &pt__format_##name,
    PT__FORMATS(PT__FORMAT_PTR)
#undef PT__FORMAT_PTR
};
enum { NFORMATS = sizeof formats / sizeof formats[0] };

size_t pt_format_count(void) { return NFORMATS; }

const pt_format_info *pt_format_get(size_t i) {
  return i < NFORMATS ? &formats[i]->info : NULL;
}

static const pt__format *by_name(const char *name) {
  for (size_t i = 0; i < NFORMATS; i++)
    if (strcmp(formats[i]->info.name, name) == 0) return formats[i];
  return NULL;
}

/* Does `path` end with one of the space-separated extensions? */
static int ext_match(const char *path, const char *exts) {
  size_t plen = strlen(path);
  while (plen && path[plen - 1] == '/') plen--; /* "x.ptf/" */
  const char *e = exts;
  while (e && *e) {
    while (*e == ' ') e++;
    size_t n = strcspn(e, " ");
    if (n && plen >= n && strncmp(path + plen - n, e, n) == 0) return 1;
    e += n;
  }
  return 0;
}

static const pt__format *by_extension(const char *path, int want_write) {
  for (size_t i = 0; i < NFORMATS; i++) {
    const pt__format *f = formats[i];
    if (want_write ? !f->sink_open : !f->src_open) continue;
    if (ext_match(path, f->info.extensions)) return f;
  }
  return NULL;
}

static const pt__format *detect(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return NULL;
  uint8_t head[4096];
  size_t n = 0;
  int is_dir = S_ISDIR(st.st_mode);
  if (!is_dir) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    long long r = pt__pread_all(fd, head, sizeof head, 0);
    close(fd);
    if (r > 0) n = (size_t)r;
  }
  const pt__format *best = NULL;
  int best_score = 0;
  for (size_t i = 0; i < NFORMATS; i++) {
    const pt__format *f = formats[i];
    if (!f->src_open || !f->probe) continue;
    int s = f->probe(path, is_dir, head, n);
    if (s > best_score) {
      best_score = s;
      best = f;
    }
  }
  return best ? best : by_extension(path, 0);
}

const char *pt_format_detect(const char *path) {
  const pt__format *f = detect(path);
  return f ? f->info.name : NULL;
}

/* ---- sources ------------------------------------------------------------ */

struct pt_source {
  const pt__format *f;
  void *st;
  uint64_t *locs; /* sorted selection, NULL = all */
  size_t nlocs;
  uint64_t from, to, kinds;
  int defs_only;
  int plain; /* no filter at all: events pass as the format yields them */
  int runs;  /* runs asked for and handed out (pt_source_runs) */
  pt_item one; /* pt_source_next_batch's item of a one-at-a-time source */
  /* A plain source with batches: the batch pt_source_next hands out one
   * by one, bat[bati .. batn) still to come. */
  const pt_item *bat;
  size_t bati, batn;
  char err[512];
};

/* What the profile mode wrote (paratrace profile reads it, the trace
 * commands do not): a file that starts with its magic, or a directory of
 * such profile.N files, under any name (the PTF reader says the same of
 * a directory it was given as an archive). */
static int is_profile(const char *path) {
  char file[4096];
  const char *f = path;
  struct stat st;
  if (stat(path, &st) != 0) return 0;
  if (S_ISDIR(st.st_mode)) {
    if (!pt_profile_is_output(path)) return 0;
    DIR *d = opendir(path);
    struct dirent *e;
    file[0] = 0;
    while (d && (e = readdir(d)))
      if (!strncmp(e->d_name, "profile.", 8)) {
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        break;
      }
    if (d) closedir(d);
    if (!file[0]) return 0;
    f = file;
  }
  return pt__profile_is_file(f);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory that is no trace itself (a DUMPI run's output directory, a
 * Score-P experiment directory): the traces directly in it, named by
 * their main files (an entry a format reads whose name has that format's
 * first extension: x.meta, not its x-0000.bin), into b[n] as "; it
 * holds DIR/x.meta, DIR/y.otf2: give one"; b = "" when none.  At most
 * 256 entries are looked at, 3 named. */
static void traces_inside(const char *dir, char *b, size_t n) {
  enum { LOOK = 256, SHOW = 3 };
  b[0] = 0;
  DIR *d = opendir(dir);
  if (!d) return;
  char *found[LOOK];
  size_t nf = 0, looked = 0;
  struct dirent *e;
  while ((e = readdir(d)) && looked++ < LOOK) {
    if (e->d_name[0] == '.') continue;
    size_t dl = strlen(dir), el = strlen(e->d_name);
    char *p = malloc(dl + el + 2);
    if (!p) break;
    snprintf(p, dl + el + 2, "%s%s%s", dir,
             dl && dir[dl - 1] == '/' ? "" : "/", e->d_name);
    const pt__format *f = detect(p);
    char first[32] = "";
    if (f && f->info.extensions)
      snprintf(first, sizeof first, "%.*s",
               (int)strcspn(f->info.extensions, " "), f->info.extensions);
    if (f && first[0] && ext_match(p, first)) found[nf++] = p;
    else free(p);
  }
  closedir(d);
  if (!nf) return;
  qsort(found, nf, sizeof *found, cmp_str);
  size_t l = (size_t)snprintf(b, n, "; it holds ");
  for (size_t i = 0; i < nf && i < SHOW && l < n; i++)
    l += (size_t)snprintf(b + l, n - l, "%s%s", i ? ", " : "", found[i]);
  if (nf > SHOW && l < n)
    l += (size_t)snprintf(b + l, n - l, " and %zu more", nf - SHOW);
  if (l < n) snprintf(b + l, n - l, ": give %s", nf > 1 ? "one" : "that");
  for (size_t i = 0; i < nf; i++) free(found[i]);
}

int pt_source_open(pt_source **out, const char *path,
                   const pt_source_opts *opts, pt_error *err) {
  *out = NULL;
  pt_source_opts o = {0};
  if (opts) o = *opts;
  const pt__format *f;
  if (o.format) {
    f = by_name(o.format);
    if (!f) return pt__err(err, PT_EFORMAT, "%s: unknown format '%s'", path,
                           o.format);
    if (!f->src_open)
      return pt__err(err, PT_EFORMAT, "%s: format '%s' cannot be read", path,
                     o.format);
  } else {
    struct stat st;
    if (stat(path, &st) != 0)
      return pt__err(err, errno == ENOENT ? PT_ENOTFOUND : PT_EIO, "%s: %s",
                     path, strerror(errno));
    f = detect(path);
    if (!f && is_profile(path))
      return pt__err(err, PT_EFORMAT,
                     "%s: holds a run-time profile only (recorded with "
                     "PARATRACE_MODE=profile), no events: read it with "
                     "'paratrace profile %s'",
                     path, path);
    if (!f) {
      char names[256] = "";
      for (size_t i = 0; i < NFORMATS; i++)
        if (formats[i]->src_open) {
          size_t l = strlen(names);
          snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "",
                   formats[i]->info.name);
        }
      char inside[768] = "";
      if (S_ISDIR(st.st_mode)) traces_inside(path, inside, sizeof inside);
      return pt__err(err, PT_EFORMAT,
                     "%s: not a trace in any known format (tried: %s)%s",
                     path, names, inside);
    }
  }
  pt_source *s = calloc(1, sizeof *s);
  if (!s) return pt__err(err, PT_ENOMEM, "%s: out of memory", path);
  s->f = f;
  s->from = o.from;
  s->to = o.to ? o.to : UINT64_MAX;
  s->kinds = o.kinds ? o.kinds : PT_KINDS_ALL;
  s->defs_only = o.defs_only;
  if (o.locations && o.nlocations) {
    s->locs = malloc(o.nlocations * sizeof *s->locs);
    if (!s->locs) {
      free(s);
      return pt__err(err, PT_ENOMEM, "%s: out of memory", path);
    }
    memcpy(s->locs, o.locations, o.nlocations * sizeof *s->locs);
    qsort(s->locs, o.nlocations, sizeof *s->locs, pt__cmp_u64);
    s->nlocs = o.nlocations;
  }
  s->plain = !s->defs_only && !s->locs && s->from == 0 &&
             s->to == UINT64_MAX && s->kinds == PT_KINDS_ALL;
  /* (a filtered source reads item by item, in time order) */
  s->runs = o.runs && s->plain && f->src_runs;
  int rc = f->src_open(&s->st, path, &o, err);
  if (rc < 0) {
    free(s->locs);
    free(s);
    return rc;
  }
  *out = s;
  return PT_OK;
}

static int keep_location(const pt_source *s, uint64_t loc) {
  if (!s->locs) return 1;
  return bsearch(&loc, s->locs, s->nlocs, sizeof loc, pt__cmp_u64) != NULL;
}

int pt_source_next(pt_source *s, pt_item *item) {
  if (s->plain && s->f->src_next_batch) {
    if (s->bati == s->batn) {
      int rc = s->f->src_next_batch(s->st, &s->bat, &s->batn);
      s->bati = 0;
      if (rc != PT_OK) {
        s->batn = 0;
        return rc;
      }
    }
    *item = s->bat[s->bati++];
    return PT_OK;
  }
  if (s->plain) /* (the filters below, none of them set: every item but an
                   event of a kind beyond the kind mask passes) */
    for (;;) {
      int rc = s->f->src_next(s->st, item);
      if (rc != PT_OK || item->type != PT_ITEM_EVENT ||
          item->u.event.kind < 64)
        return rc;
    }
  for (;;) {
    int rc = s->f->src_next(s->st, item);
    if (rc != PT_OK) return rc;
    switch (item->type) {
      case PT_ITEM_EVENT: {
        if (s->defs_only) return PT_END;
        const pt_event *e = &item->u.event;
        if (e->time < s->from || e->time >= s->to) continue;
        if (e->kind >= 64 || !(s->kinds & PT_KIND_BIT(e->kind))) continue;
        /* (the test of locs here: the call costs every event) */
        if (s->locs && !keep_location(s, e->location)) continue;
        return PT_OK;
      }
      case PT_ITEM_SUMMARY:
        if (!keep_location(s, item->u.summary.location)) continue;
        return PT_OK;
      case PT_ITEM_SNAPSHOT:
        if (!keep_location(s, item->u.snapshot.location)) continue;
        return PT_OK;
      case PT_ITEM_STREAM:
        if (!keep_location(s, item->u.stream.location)) continue;
        return PT_OK;
      default:
        return PT_OK;
    }
  }
}

/* (a batch is not filtered: a source's events have kinds < 64) */
_Static_assert(PT_EV__COUNT <= 64, "event kinds beyond the kind mask");

int pt_source_next_batch(pt_source *s, const pt_item **items, size_t *n) {
  if (s->plain && s->f->src_next_batch) {
    if (s->bati < s->batn) { /* what pt_source_next left of a batch */
      *items = s->bat + s->bati;
      *n = s->batn - s->bati;
      s->bati = s->batn;
      return PT_OK;
    }
    int rc = s->f->src_next_batch(s->st, items, n);
    if (rc != PT_OK) *n = 0;
    return rc;
  }
  int rc = pt_source_next(s, &s->one);
  *items = &s->one;
  *n = rc == PT_OK;
  return rc;
}

const char *pt_source_format(const pt_source *s) { return s->f->info.name; }

int pt_source_runs(const pt_source *s) { return s->runs; }

const char *pt_source_errmsg(const pt_source *s) {
  return s->f->src_errmsg ? s->f->src_errmsg(s->st) : "";
}

pt_reader *pt_source_reader(pt_source *s) {
  return s->f->src_reader ? s->f->src_reader(s->st) : NULL;
}

void pt_source_close(pt_source *s) {
  if (!s) return;
  if (s->st) s->f->src_close(s->st);
  free(s->locs);
  free(s);
}

/* ---- sinks -------------------------------------------------------------- */

struct pt_sink {
  const pt__format *f;
  void *st;
  char *path;   /* final name */
  char *tmp;    /* where the format writes; NULL for stdout */
  char *tmpdir; /* multi-file formats: the temporary directory */
  int overwrite;
  char msg[1024]; /* pt_sink_errmsg's text, in the user's names */
};

/* Append n bytes of s to out (capacity cap, *len used), truncating. */
static void put_bytes(char *out, size_t cap, size_t *len, const char *s,
                      size_t n) {
  if (*len + 1 >= cap) return;
  if (n > cap - 1 - *len) n = cap - 1 - *len;
  memcpy(out + *len, s, n);
  *len += n;
  out[*len] = 0;
}

/* A format's message with the temporary names the format wrote to replaced
 * by the names the user asked for: errors name the user's output path.
 * Multi-file formats write TMPDIR/FILE, which becomes DIR/FILE next to the
 * target.  in and out may not overlap. */
static void user_names(const pt_sink *k, const char *in, char *out,
                       size_t cap) {
  size_t len = 0;
  out[0] = 0;
  const char *from = k->tmpdir ? k->tmpdir : k->tmp;
  size_t fl = from ? strlen(from) : 0;
  size_t dl = 0; /* multi-file: the target's directory with its '/' */
  if (k->tmpdir) {
    const char *slash = strrchr(k->path, '/');
    dl = slash ? (size_t)(slash - k->path) + 1 : 0;
  }
  while (*in) {
    const char *hit = fl ? strstr(in, from) : NULL;
    if (!hit) {
      put_bytes(out, cap, &len, in, strlen(in));
      break;
    }
    put_bytes(out, cap, &len, in, (size_t)(hit - in));
    in = hit + fl;
    if (k->tmpdir && *in == '/') {
      put_bytes(out, cap, &len, k->path, dl);
      in++;
    } else {
      put_bytes(out, cap, &len, k->path, strlen(k->path));
    }
  }
}

/* err->msg in the user's names (see user_names). */
static void err_user_names(const pt_sink *k, pt_error *err) {
  if (!err || !k->tmp) return;
  char tmp[sizeof err->msg];
  snprintf(tmp, sizeof tmp, "%s", err->msg);
  user_names(k, tmp, err->msg, sizeof err->msg);
}

static int path_exists(const char *p) {
  struct stat st;
  return lstat(p, &st) == 0;
}

/* What a multi-file sink's side directory may hold (OTF2's NAME/). */
static const char *const trace_file_suffixes[] = {".evt", ".def", ".snap",
                                                  NULL};

/* Why a non-regular file that is not a directory may not be replaced
 * (renaming over a device, FIFO, socket or symbolic link would destroy
 * it, e.g. /dev/null as root); NULL for a regular file or a directory. */
static const char *special_file(mode_t m) {
  if (S_ISREG(m) || S_ISDIR(m)) return NULL;
  if (S_ISCHR(m)) return "is a character device";
  if (S_ISBLK(m)) return "is a block device";
  if (S_ISFIFO(m)) return "is a FIFO (named pipe)";
  if (S_ISSOCK(m)) return "is a socket";
  if (S_ISLNK(m)) return "is a symbolic link";
  return "is not a regular file";
}

/* --force replaces an earlier output, never a user's directory (a
 * mistyped -o), device, FIFO, socket or symbolic link, nor, with a native
 * archive, anything but an archive: NULL
 * if `path` may be replaced, else why not. */
static const char *not_replaceable(const pt__format *f, const char *path) {
  static _Thread_local char why[600];
  struct stat st;
  int exists = lstat(path, &st) == 0;
  if (strcmp(f->info.name, "otf2") == 0) {
    /* NAME.otf2, NAME.def and the directory NAME/ of event files (-o
     * without .otf2 names that directory) */
    size_t n = strlen(path);
    int ext = n > 5 && strcmp(path + n - 5, ".otf2") == 0;
    if (ext && exists && S_ISDIR(st.st_mode)) return "is a directory";
    if (ext && exists && special_file(st.st_mode))
      return special_file(st.st_mode);
    char *dir = ext ? strndup(path, n - 5) : strdup(path);
    if (!dir) return "out of memory";
    struct stat ds;
    why[0] = 0;
    if (lstat(dir, &ds) == 0 && (!S_ISDIR(ds.st_mode) ||
                                 !pt__is_trace_files_dir(dir, trace_file_suffixes)))
      snprintf(why, sizeof why, "%s, where the trace's event files go, %s", dir,
               S_ISDIR(ds.st_mode) ? "holds other files" : "is not a directory");
    /* NAME.def: a file; a directory or a special file there is not
     * replaced (commit_many would refuse it only after the conversion,
     * leaving the output in NAME.otf2.tmp-PID) */
    if (!why[0] && ext) {
      size_t dn = strlen(dir);
      char *def = malloc(dn + 5);
      if (!def) {
        free(dir);
        return "out of memory";
      }
      memcpy(def, dir, dn);
      memcpy(def + dn, ".def", 5);
      if (lstat(def, &ds) == 0 && (S_ISDIR(ds.st_mode) ||
                                   special_file(ds.st_mode)))
        snprintf(why, sizeof why, "%s, where the trace's definitions go, %s",
                 def, S_ISDIR(ds.st_mode) ? "is a directory"
                                          : special_file(ds.st_mode));
      free(def);
    }
    free(dir);
    return why[0] ? why : NULL;
  }
  if (!exists) return NULL;
  if (strcmp(f->info.name, "ptf") == 0)
    return pt__is_ptf_dir(path) ? NULL : "exists and is not a paratrace archive";
  if (S_ISDIR(st.st_mode)) return "is a directory";
  return special_file(st.st_mode);
}

/* Without --force: the part of an OTF2 output that already exists besides
 * NAME.otf2 (NAME.def, or NAME: the directory of event files, or a file
 * of that name, as the program the trace was recorded from), written into
 * a thread-local buffer; NULL if none.  Checked before the conversion,
 * which found it only when moving its output into place, leaving it in
 * NAME.otf2.tmp-PID (`convert eig.ptf -o eig.otf2` next to the program
 * ./eig). */
static const char *otf2_part_exists(const pt__format *f, const char *path) {
  static _Thread_local char part[4200];
  if (strcmp(f->info.name, "otf2") != 0) return NULL;
  size_t n = strlen(path);
  if (n > 5 && strcmp(path + n - 5, ".otf2") == 0) n -= 5;
  else return NULL; /* -o NAME: NAME is the directory, checked as the path */
  snprintf(part, sizeof part, "%.*s", (int)n, path);
  if (path_exists(part)) return part;
  snprintf(part, sizeof part, "%.*s.def", (int)n, path);
  if (path_exists(part)) return part;
  return NULL;
}

int pt_sink_open(pt_sink **out, const char *path, const pt_sink_opts *opts,
                 pt_error *err) {
  *out = NULL;
  pt_sink_opts o = {0};
  if (opts) o = *opts;
  int to_stdout = strcmp(path, "-") == 0;
  const pt__format *f;
  if (o.format) {
    f = by_name(o.format);
    if (!f) return pt__err(err, PT_EFORMAT, "unknown format '%s'", o.format);
    if (!f->sink_open)
      return pt__err(err, PT_EFORMAT, "format '%s' cannot be written",
                     o.format);
  } else if (to_stdout) {
    f = by_name("text");
  } else {
    f = by_extension(path, 1);
    if (!f)
      return pt__err(err, PT_EFORMAT,
                     "%s: cannot tell the output format from the name; "
                     "give one with --to FORMAT (paratrace convert --help "
                     "lists them)",
                     path);
  }
  if (to_stdout && !f->stdout_ok)
    return pt__err(err, PT_EINVAL, "format '%s' cannot be written to stdout",
                   f->info.name);
  if (!to_stdout && !o.overwrite && path_exists(path))
    return pt__err(err, PT_EEXIST, "%s: already exists (not overwritten)",
                   path);
  const char *part, *why;
  if (!to_stdout && !o.overwrite && (part = otf2_part_exists(f, path))) {
    /* not even --force would replace it (a program, a user's directory):
     * not PT_EEXIST, whose message suggests --force */
    if ((why = not_replaceable(f, path)))
      return pt__err(err, PT_EINVAL, "%s: %s; not replaced (remove it or "
                     "choose another name)", path, why);
    return pt__err(err, PT_EEXIST, "%s: %s already exists (not "
                   "overwritten; the OTF2 archive NAME.otf2 also writes "
                   "NAME.def and NAME/)", path, part);
  }
  if (!to_stdout && o.overwrite && (why = not_replaceable(f, path)))
    return pt__err(err, PT_EEXIST, "%s: %s; not replaced (remove it or "
                   "choose another name)", path, why);

  pt_sink *k = calloc(1, sizeof *k);
  if (!k) return pt__err(err, PT_ENOMEM, "out of memory");
  k->f = f;
  k->overwrite = o.overwrite;
  k->path = strdup(path);
  if (!k->path) goto oom;
  if (!to_stdout) {
    /* The temporary lives next to the target so rename() is atomic. */
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') len--;
    size_t n = len + 64;
    k->tmp = malloc(n);
    if (!k->tmp) goto oom;
    snprintf(k->tmp, n, "%.*s.tmp-%ld", (int)len, path, (long)getpid());
    k->path[len] = 0;
    pt__rmtree(k->tmp); /* a leftover of an earlier run of this pid */
    if (f->multi_file) {
      if (mkdir(k->tmp, 0777) != 0) {
        pt__err(err, PT_EIO, "%s: cannot create %s: %s", path, k->tmp,
                strerror(errno));
        free(k->tmp);
        free(k->path);
        free(k);
        return err ? err->status : PT_EIO;
      }
      const char *base = strrchr(k->path, '/');
      base = base ? base + 1 : k->path;
      size_t m = strlen(k->tmp) + strlen(base) + 2;
      char *inner = malloc(m);
      if (!inner) {
        rmdir(k->tmp);
        goto oom;
      }
      snprintf(inner, m, "%s/%s", k->tmp, base);
      k->tmpdir = k->tmp;
      k->tmp = inner;
    }
  }
  int rc = f->sink_open(&k->st, to_stdout ? "-" : k->tmp, &o, err);
  if (rc < 0) {
    err_user_names(k, err);
    k->st = NULL;
    pt_sink_abort(k);
    return rc;
  }
  *out = k;
  return PT_OK;
oom:
  free(k->tmp);
  free(k->tmpdir);
  free(k->path);
  free(k);
  return pt__err(err, PT_ENOMEM, "out of memory");
}

int pt_sink_write(pt_sink *k, const pt_item *item) {
  return k->f->sink_write(k->st, item);
}

const char *pt_sink_errmsg(const pt_sink *k) {
  const char *m = k->f->sink_errmsg ? k->f->sink_errmsg(k->st) : "";
  if (!k->tmp || !m) return m ? m : "";
  /* k is never defined const (pt_sink_open allocates it): the cast only
   * lets this accessor keep its const signature */
  pt_sink *w = (pt_sink *)k;
  user_names(k, m, w->msg, sizeof w->msg);
  return w->msg;
}

/* Is `name`, a file next to a multi-file output whose main file is named
 * `base`, one of the files the format writes for that output?  DUMPI
 * NAME.meta: NAME-NNNN.bin (4 or more digits); OTF NAME.otf: NAME.X.def,
 * .events, .snaps, .stats, .marker (X hex, optionally + ".z").  Nothing
 * else ever matches: these are the only files --force may remove as left
 * over from the output it replaces. */
static int own_file(const pt__format *f, const char *base, const char *name) {
  int dumpi = strcmp(f->info.name, "dumpi") == 0;
  int otf = strcmp(f->info.name, "otf") == 0;
  if (!dumpi && !otf) return 0;
  const char *ext = dumpi ? ".meta" : ".otf";
  size_t n = strlen(base), el = strlen(ext);
  if (n > el && strcmp(base + n - el, ext) == 0) n -= el;
  if (n == 0 || strncmp(name, base, n) != 0) return 0;
  const char *p = name + n;
  if (dumpi) {
    if (*p++ != '-') return 0;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9') p++, digits++;
    return digits >= 4 && strcmp(p, ".bin") == 0;
  }
  if (*p++ != '.') return 0;
  size_t hex = 0;
  while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')) p++, hex++;
  if (!hex || *p++ != '.') return 0;
  static const char *const kinds[] = {"def", "events", "snaps", "stats",
                                      "marker"};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    size_t kl = strlen(kinds[i]);
    if (strncmp(p, kinds[i], kl) == 0 &&
        (p[kl] == 0 || strcmp(p + kl, ".z") == 0))
      return 1;
  }
  return 0;
}

/* After --force replaced an earlier output (its main file `k->path`
 * existed), remove that output's files which the new one did not write
 * (`moved`, n names): an earlier DUMPI set of 8 ranks leaves no
 * med-0002..7.bin next to a new one of 2.  Only regular files the format's
 * naming of this output matches (own_file) are removed. */
static void remove_stale(pt_sink *k, const char *dir, char **moved, size_t n) {
  const char *base = strrchr(k->path, '/');
  base = base ? base + 1 : k->path;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!own_file(k->f, base, e->d_name)) continue;
    size_t i = 0;
    while (i < n && strcmp(moved[i], e->d_name) != 0) i++;
    if (i < n) continue;
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) unlink(p);
  }
  closedir(d);
}

/* Multi-file output: move every file of k->tmpdir next to the target. */
static int commit_many(pt_sink *k, pt_error *err) {
  char *dir = strdup(k->path);
  if (!dir) return pt__err(err, PT_ENOMEM, "out of memory");
  char *slash = strrchr(dir, '/');
  if (slash == dir) slash[1] = 0;
  else if (slash) *slash = 0;
  else strcpy(dir, ".");
  int rc = PT_OK;
  struct stat ms;
  int replacing = k->overwrite && lstat(k->path, &ms) == 0 &&
                  S_ISREG(ms.st_mode);
  char **moved = NULL; /* names moved into place (for remove_stale) */
  size_t nmoved = 0, cmoved = 0;
  for (int pass = 0; pass < 2 && rc == PT_OK; pass++) {
    DIR *d = opendir(k->tmpdir);
    if (!d) {
      rc = pt__err(err, PT_EIO, "%s: %s", k->tmpdir, strerror(errno));
      break;
    }
    struct dirent *e;
    while (rc == PT_OK && (e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char from[4096], to[4096];
      snprintf(from, sizeof from, "%s/%s", k->tmpdir, e->d_name);
      snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
      if (pass == 0) { /* check everything before moving anything */
        struct stat ts, fs;
        int exists = lstat(to, &ts) == 0;
        if (exists && !k->overwrite)
          rc = pt__err(err, PT_EEXIST,
                       "%s: already exists (not overwritten); output left in "
                       "%s", to, k->tmpdir);
        else if (exists && special_file(ts.st_mode))
          rc = pt__err(err, PT_EEXIST,
                       "%s: %s; not replaced (remove it or choose another "
                       "name); output left in %s", to,
                       special_file(ts.st_mode), k->tmpdir);
        else if (exists && S_ISDIR(ts.st_mode) &&
                 !pt__is_trace_files_dir(to, trace_file_suffixes))
          rc = pt__err(err, PT_EEXIST,
                       "%s: a directory that is not a trace; not replaced "
                       "(remove it or choose another name); output left in "
                       "%s", to, k->tmpdir);
        else if (exists && lstat(from, &fs) == 0 &&
                 !S_ISDIR(ts.st_mode) != !S_ISDIR(fs.st_mode))
          rc = pt__err(err, PT_EEXIST,
                       "%s: exists as a %s; not replaced (remove it or choose "
                       "another name); output left in %s", to,
                       S_ISDIR(ts.st_mode) ? "directory" : "file", k->tmpdir);
      } else {
        /* rename() cannot replace a non-empty directory (OTF2's NAME/):
         * move the old one aside, and remove it only after success */
        struct stat ts;
        char old[4200] = "";
        if (k->overwrite && lstat(to, &ts) == 0 && S_ISDIR(ts.st_mode)) {
          snprintf(old, sizeof old, "%s.old-%ld", to, (long)getpid());
          if (rename(to, old) != 0) old[0] = 0;
        }
        if (rename(from, to) != 0) {
          rc = pt__err(err, PT_EIO, "%s: cannot move into place: %s", to,
                       strerror(errno));
          if (old[0]) rename(old, to);
        } else {
          if (old[0]) pt__rmtree(old);
          if (replacing && nmoved == cmoved) {
            size_t c = cmoved ? 2 * cmoved : 16;
            char **m = realloc(moved, c * sizeof *m);
            if (m) moved = m, cmoved = c;
          }
          if (replacing && nmoved < cmoved &&
              (moved[nmoved] = strdup(e->d_name)))
            nmoved++;
          else if (replacing)
            replacing = 0; /* out of memory: keep the old files */
        }
      }
    }
    closedir(d);
  }
  if (rc == PT_OK && replacing) remove_stale(k, dir, moved, nmoved);
  for (size_t i = 0; i < nmoved; i++) free(moved[i]);
  free(moved);
  free(dir);
  if (rc == PT_OK) rmdir(k->tmpdir);
  return rc;
}

/* Move the finished temporary into place; an existing target (only when
 * overwriting) is moved aside first and removed only after success. */
static int commit(pt_sink *k, pt_error *err) {
  struct stat st;
  int exists = lstat(k->path, &st) == 0;
  if (exists && !k->overwrite)
    return pt__err(err, PT_EEXIST, "%s: appeared while writing; not "
                   "overwritten", k->path);
  const char *why = exists ? not_replaceable(k->f, k->path) : NULL;
  if (why)
    return pt__err(err, PT_EEXIST, "%s: %s; not replaced", k->path, why);
  if (exists && S_ISDIR(st.st_mode)) {
    size_t n = strlen(k->path) + 64;
    char *old = malloc(n);
    if (!old) return pt__err(err, PT_ENOMEM, "out of memory");
    snprintf(old, n, "%s.old-%ld", k->path, (long)getpid());
    if (rename(k->path, old) != 0) {
      int e = errno;
      free(old);
      return pt__err(err, PT_EIO, "%s: cannot move aside: %s", k->path,
                     strerror(e));
    }
    if (rename(k->tmp, k->path) != 0) {
      int e = errno;
      rename(old, k->path);
      free(old);
      return pt__err(err, PT_EIO, "%s: cannot rename %s into place: %s",
                     k->path, k->tmp, strerror(e));
    }
    pt__rmtree(old);
    free(old);
    return PT_OK;
  }
  if (rename(k->tmp, k->path) != 0)
    return pt__err(err, PT_EIO, "%s: cannot rename %s into place: %s",
                   k->path, k->tmp, strerror(errno));
  return PT_OK;
}

int pt_sink_close(pt_sink *k, pt_error *err) {
  int rc = k->f->sink_close(k->st, err);
  k->st = NULL;
  if (rc < 0) err_user_names(k, err);
  if (rc >= 0 && k->tmp) rc = k->tmpdir ? commit_many(k, err) : commit(k, err);
  if (rc < 0 && k->tmp && !(rc == PT_EEXIST && k->tmpdir))
    pt__rmtree(k->tmpdir ? k->tmpdir : k->tmp);
  free(k->tmp);
  free(k->tmpdir);
  free(k->path);
  free(k);
  return rc < 0 ? rc : PT_OK;
}

void pt_sink_abort(pt_sink *k) {
  if (!k) return;
  if (k->st) k->f->sink_abort(k->st);
  if (k->tmp) pt__rmtree(k->tmpdir ? k->tmpdir : k->tmp);
  free(k->tmp);
  free(k->tmpdir);
  free(k->path);
  free(k);
}

int pt_pipe(pt_source *src, pt_sink *dst, pt_progress_fn progress,
            void *user, pt_error *err) {
  const pt_item *its;
  size_t n;
  uint64_t events = 0;
  int rc;
  int asked = 0; /* runs asked for, or not, at the first event */
  while ((rc = pt_source_next_batch(src, &its, &n)) == PT_OK) {
    for (size_t i = 0; i < n; i++) {
      const pt_item *it = &its[i];
      if (PT_UNLIKELY(pt__interrupted()))
        return pt__err(err, PT_EINTR, "interrupted");
      if (PT_UNLIKELY(!asked) && it->type == PT_ITEM_EVENT) {
        /* a sink that writes every location apart takes runs: the source
         * skips its merge (the output is the same) */
        asked = 1;
        if (src->plain && src->f->src_runs && dst->f->sink_per_location &&
            dst->f->sink_per_location(dst->st)) {
          src->f->src_runs(src->st);
          src->runs = 1;
        }
      }
      int wrc = pt_sink_write(dst, it);
      if (wrc < 0)
        return pt__err(err, wrc, "%s", pt_sink_errmsg(dst));
      if (it->type == PT_ITEM_EVENT && (++events & 0xfffff) == 0 && progress)
        progress(user, events);
    }
  }
  if (rc < 0) return pt__err(err, rc, "%s", pt_source_errmsg(src));
  if (progress) progress(user, events);
  return PT_OK;
}
