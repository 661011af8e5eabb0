/* The I/O section of the statistics engine (include/paratrace/analysis.h,
 * pt_stats_io): I/O operations, each an IO_BEGIN and the IO_END with the
 * same handle and matching id on its location (what the MPI recorder and
 * the DUMPI, OTF and OTF2 readers make of MPI_File_read / write and their
 * non-blocking, collective and split forms, and of OTF2's POSIX I/O).
 *
 * An operation belongs to the window its IO_BEGIN is in, as a visit to
 * the window of its enter, with all of it: the bytes its IO_END says were
 * transferred (a non-blocking one's are known at its completion) and its
 * whole duration.  So only operations begun in the window are followed,
 * from their IO_BEGIN (which fixes the function, call site, file and mode
 * they are filed under) to their IO_END; the state is the operations in
 * flight.
 *
 * OTF 1 file operations (a trace with the attribute "otf:fileop") are
 * kept by the OTF bridge as OTF has them (doc/otf.md): a begin that names
 * only its matching id, an end that names the file (its ref), the
 * operation (attribute "otf:fileop", OTF_FILEOP_*) and the bytes, or one
 * record at the end with its duration (attribute "otf:duration") and no
 * begin.  They are paired by location and matching id; reads, writes and
 * syncs count (as the model's read, write and flush; OTF's "other" as
 * other), opens, closes, seeks and the like are not transfers and do not.
 * OTF has no requested bytes: none is short.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/stats_int.h"

/* An I/O handle and the file it is open on. */
typedef struct handle_rec {
  uint64_t k[4];
  uint64_t file;
} handle_rec;

void pt__stats_io_init(pt_stats *s) {
  pt__kt_init(&s->files, sizeof(pt__name));
  pt__kt_init(&s->handles, sizeof(handle_rec));
  pt__kt_init(&s->io, sizeof(pt__io));
  pt__kt_init(&s->ioop, sizeof(pt__ioop));
}

/* Regions that do file I/O (a trace with them may have I/O events). */
static int io_region(const pt_def *d) {
  return d->i0 == PT_ROLE_FILE_IO || d->i1 == PT_PARADIGM_MPI_IO ||
         d->i1 == PT_PARADIGM_POSIX_IO;
}

int pt__stats_io_def(pt_stats *s, const pt_def *d) {
  switch (d->kind) {
    case PT_DEF_REGION:
      s->io_defs |= io_region(d);
      return PT_OK;
    case PT_DEF_FILE:
      s->io_defs = 1;
      return pt__names_put(&s->files, d->id, d->name);
    case PT_DEF_ATTRIBUTE:
      if (d->name && strcmp(d->name, "otf:fileop") == 0) {
        s->io_otf = 1;
        s->io_otf_op = d->id + 1;
      } else if (d->name && strcmp(d->name, "otf:duration") == 0) {
        s->io_otf_dur = d->id + 1;
      }
      return PT_OK;
    case PT_DEF_IO_HANDLE: {
      s->io_defs = 1;
      handle_rec *h = pt__kt_get(&s->handles, PT__K(d->id, 0, 0, 0));
      if (!h) return PT_ENOMEM;
      h->file = d->ref;
      return PT_OK;
    }
    default:
      return PT_OK;
  }
}

const char *pt_stats_file_name(const pt_stats *s, uint64_t file) {
  return pt__names_get(&s->files, file);
}

/* The file handle h is open on, or PT_NONE. */
static uint64_t handle_file(const pt_stats *s, uint64_t h) {
  const handle_rec *r = pt__kt_find(&s->handles, PT__K(h, 0, 0, 0));
  return r ? r->file : PT_NONE;
}

/* Operation op ends at t: with its IO_END (done) and the bytes it says,
 * or unfinished. */
static int io_close(pt_stats *s, const pt__ioop *op, uint64_t t,
                    uint64_t bytes, int done) {
  pt__io *r = pt__kt_get(&s->io, PT__K(op->region, op->callsite, op->file,
                                       op->mode));
  if (!r) return PT_ENOMEM;
  int any = r->ops > r->unfinished; /* a completed one before */
  r->ops++;
  r->requested += op->requested;
  r->time += t > op->begin ? t - op->begin : 0;
  if (!done) {
    r->unfinished++;
    return PT_OK;
  }
  pt__fold_ext(&r->bmin, &r->bmax, any, bytes, bytes);
  r->bytes += bytes;
  r->shorts += bytes < op->requested;
  return PT_OK;
}

/* The unsigned value of ev's attribute key + 1 (0: none) into *v. */
static int attr_u(const pt_event *ev, uint64_t key1, uint64_t *v) {
  for (uint32_t i = 0; key1 && i < ev->nattrs; i++)
    if (ev->attrs[i].key == key1 - 1 && (ev->attrs[i].val.type == PT_TYPE_UINT ||
                                         ev->attrs[i].val.type == PT_TYPE_INT)) {
      *v = ev->attrs[i].val.v.u;
      return 1;
    }
  return 0;
}

/* The model's mode of OTF file operation op (OTF_FILEOP_* in its low 5
 * bits, flags above), or -1 for one that moves no data. */
static int otf_mode(uint64_t op) {
  switch (op & 31) {
    case 2: return PT_IO_READ;
    case 3: return PT_IO_WRITE;
    case 8: return PT_IO_FLUSH;
    case 31: return PT_IO_OTHER;
    default: return -1; /* open, close, seek, unlink, rename, dup, lock */
  }
}

/* An OTF 1 file operation's begin or end (see the top of this file). */
static int io_otf_event(pt_stats *s, const pt__loc *L, const pt_event *ev,
                        int w) {
  const uint64_t k[4] = {ev->location, 0, ev->request, 1};
  const pt__frame *f = L && L->depth ? &L->st[L->depth - 1] : NULL;
  pt__ioop *op = pt__kt_find(&s->ioop, k), o;
  memset(&o, 0, sizeof o);
  if (ev->kind == PT_EV_IO_BEGIN) {
    if (op) { /* a new operation with its key: the old one unfinished */
      o = *op;
      pt__kt_del(&s->ioop, k);
      int rc = io_close(s, &o, ev->time, 0, 0);
      if (rc < 0) return rc;
    }
    s->io_seen++;
    if (!w) return PT_OK;
    if (!(op = pt__kt_get(&s->ioop, k))) return PT_ENOMEM;
    op->region = f ? f->region : PT_NONE;
    op->callsite = f ? f->callsite : PT_NONE;
    op->file = PT_NONE; /* the end says */
    op->mode = PT_IO_OTHER;
    op->requested = 0;
    op->begin = ev->time;
    return PT_OK;
  }
  uint64_t opc = 31, dur;
  attr_u(ev, s->io_otf_op, &opc);
  if (op) {
    o = *op;
    pt__kt_del(&s->ioop, k);
  } else if (attr_u(ev, s->io_otf_dur, &dur)) { /* one record, at its end */
    o.begin = ev->time > dur ? ev->time - dur : 0;
    s->io_seen++;
    if (!(o.begin >= s->lo && o.begin < s->hi)) return PT_OK;
    o.region = f ? f->region : PT_NONE;
    o.callsite = f ? f->callsite : PT_NONE;
  } else {
    return PT_OK; /* an end without its begin */
  }
  int mode = otf_mode(opc);
  if (mode < 0) return PT_OK;
  /* OTF 1.x names the file; read back from OTF2, which names a handle,
   * the handle's file */
  o.file = handle_file(s, ev->ref);
  if (o.file == PT_NONE) o.file = ev->ref;
  o.mode = (uint64_t)mode;
  o.requested = ev->size;
  return io_close(s, &o, ev->time, ev->size, 1);
}

/* The operation in flight that IO_END ev completes on another location of
 * its process, its key into k; NULL if none.  MPI_THREAD_MULTIPLE: a
 * thread's MPI_File_iwrite_at completed by another thread's MPI_Wait (the
 * MPI recorder's matching ids of non-blocking operations are unique within
 * the rank).  Looked for only once a thread other than a process's first
 * location has begun an operation, or when the end is on one. */
static pt__ioop *other_thread_op(pt_stats *s, const pt_event *ev,
                                 uint64_t k[4]) {
  uint64_t me = pt__stats_proc_loc(s, ev->location);
  if (!s->ioop.n || (!s->io_threads && me == ev->location)) return NULL;
  for (size_t i = 0; i < s->ioop.n; i++) {
    pt__ioop *o = pt__kt_at(&s->ioop, i);
    if (o->k[3] || o->k[1] != ev->ref || o->k[2] != ev->request ||
        o->k[0] == ev->location || pt__stats_proc_loc(s, o->k[0]) != me)
      continue;
    memcpy(k, o->k, sizeof o->k);
    return o;
  }
  return NULL;
}

int pt__stats_io_event(pt_stats *s, const pt__loc *L, const pt_event *ev,
                       int w) {
  if (s->io_otf) return io_otf_event(s, L, ev, w);
  uint64_t k[4] = {ev->location, ev->ref, ev->request, 0};
  int end = ev->kind == PT_EV_IO_END;
  pt__ioop *op = pt__kt_find(&s->ioop, k);
  if (!op && end) op = other_thread_op(s, ev, k);
  if (op) { /* its IO_END, or a new operation with its key: unfinished */
    pt__ioop o = *op;
    pt__kt_del(&s->ioop, k);
    int rc = io_close(s, &o, ev->time, end ? ev->size : 0, end);
    if (rc < 0 || end) return rc;
  }
  if (end) return PT_OK;
  s->io_seen++;
  if (!w) return PT_OK;
  if (!s->io_threads && pt__stats_proc_loc(s, ev->location) != ev->location)
    s->io_threads = 1;
  if (!(op = pt__kt_get(&s->ioop, k))) return PT_ENOMEM;
  /* filed under the call that began it and that call's site */
  const pt__frame *f = L->depth ? &L->st[L->depth - 1] : NULL;
  op->region = f ? f->region : PT_NONE;
  op->callsite = f ? f->callsite : PT_NONE;
  op->file = handle_file(s, ev->ref);
  op->mode = ev->tag >= 0 && ev->tag < PT_IO__COUNT ? (uint64_t)ev->tag
                                                   : PT_IO_OTHER;
  op->requested = ev->size;
  op->begin = ev->time;
  return PT_OK;
}

int pt__stats_io_finish(pt_stats *s) {
  while (s->ioop.n) {
    pt__ioop o = *(const pt__ioop *)pt__kt_at(&s->ioop, s->ioop.n - 1);
    pt__kt_del(&s->ioop, o.k);
    int rc = io_close(s, &o, s->end_eff, 0, 0);
    if (rc < 0) return rc;
  }
  return PT_OK;
}

int pt__stats_io_pending(const pt_stats *s) { return s->ioop.n != 0; }

int pt__stats_add_io(pt_stats *d, const pt_stats *s) {
  for (size_t i = 0; i < s->io.n; i++) {
    const pt__io *x = pt__kt_at(&s->io, i);
    pt__io *r = pt__kt_get(&d->io, x->k);
    if (!r) return PT_ENOMEM;
    if (x->ops > x->unfinished) {
      pt__fold_ext(&r->bmin, &r->bmax, r->ops > r->unfinished, x->bmin,
                   x->bmax);
    }
    r->ops += x->ops;
    r->bytes += x->bytes;
    r->requested += x->requested;
    r->time += x->time;
    r->shorts += x->shorts;
    r->unfinished += x->unfinished;
  }
  return pt__names_merge(&d->files, &s->files);
}

int pt_stats_io_cmp(const void *a, const void *b) {
  const pt_stats_io_row *x = a, *y = b;
  uint64_t p[4] = {x->region, x->callsite, x->file, x->mode};
  uint64_t q[4] = {y->region, y->callsite, y->file, y->mode};
  for (int i = 0; i < 4; i++)
    if (p[i] != q[i]) return p[i] < q[i] ? -1 : 1;
  return 0;
}

int pt__stats_io_aggregate(pt_stats *s) {
  s->out_io = calloc(s->io.n ? s->io.n : 1, sizeof *s->out_io);
  if (!s->out_io) return PT_ENOMEM;
  for (size_t i = 0; i < s->io.n; i++) {
    const pt__io *x = pt__kt_at(&s->io, i);
    if (!x->ops) continue;
    int any = x->ops > x->unfinished;
    s->out_io[s->nout_io++] = (pt_stats_io_row){
        .region = x->k[0], .callsite = x->k[1], .file = x->k[2],
        .mode = (uint32_t)x->k[3], .ops = x->ops, .bytes = x->bytes,
        .bytes_min = any ? x->bmin : 0, .bytes_max = any ? x->bmax : 0,
        .requested = x->requested, .time = x->time, .short_ops = x->shorts,
        .unfinished = x->unfinished};
  }
  qsort(s->out_io, s->nout_io, sizeof *s->out_io, pt_stats_io_cmp);
  return PT_OK;
}
