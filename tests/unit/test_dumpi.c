/* SST DUMPI format: reader, mapping, writer and dumpi2ascii printer against
 * the real traces in $PT_SRCDIR/../shared/testdata/dumpi (written by
 * libdumpi 13 under OpenMPI, with the real dumpi2ascii output). */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/dumpi.h"
#include "paratrace/analysis.h"
#include "paratrace/paratrace.h"
#include "test.h"

static char testdata[4096];
static const char *const cases[] = {"a_pingpong", "b_ring_nonblocking",
                                    "c_collectives", "d_probe_mix"};
enum { NCASES = sizeof cases / sizeof cases[0] };

static int have_testdata(void) {
  const char *src = getenv("PT_SRCDIR");
  snprintf(testdata, sizeof testdata, "%s/../shared/testdata/dumpi",
           src && *src ? src : ".");
  struct stat st;
  return stat(testdata, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The .meta of a case (caller frees), or NULL. */
static char *case_file(const char *cs, const char *suffix) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/%s", testdata, cs);
  DIR *d = opendir(dir);
  if (!d) return NULL;
  struct dirent *e;
  char *out = NULL;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name), sl = strlen(suffix);
    if (l > sl && !strcmp(e->d_name + l - sl, suffix)) {
      out = malloc(strlen(dir) + l + 2);
      sprintf(out, "%s/%s", dir, e->d_name);
      break;
    }
  }
  closedir(d);
  return out;
}

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long l = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)l + 1);
  if (fread(b, 1, (size_t)l, f) != (size_t)l) l = 0;
  b[l] = 0;
  fclose(f);
  if (n) *n = (size_t)l;
  return b;
}

/* .bin path of rank r for a .meta path */
static void bin_path(char *out, size_t n, const char *meta, int r,
                     const char *suffix) {
  size_t l = strlen(meta) - 5; /* ".meta" */
  snprintf(out, n, "%.*s-%04d.bin%s", (int)l, meta, r, suffix);
}

static int nwarnings;
static char lastwarn[600];
static void count_warn(void *u, const char *m) {
  (void)u;
  nwarnings++;
  snprintf(lastwarn, sizeof lastwarn, "%s", m);
}

static int open_src(void **st, const char *path) {
  pt_source_opts o = {0};
  o.warn = count_warn;
  pt_error err = {0};
  int rc = pt__format_dumpi.src_open(st, path, &o, &err);
  if (rc < 0) fprintf(stderr, "  open: %s\n", err.msg);
  return rc;
}

/* Every vector parses; per rank, ENTER counts per function equal the
 * footer's call counts (the "dumpi.footer.called" keyval). */
TEST(footer_counts) {
  for (int c = 0; c < NCASES; c++) {
    char *meta = case_file(cases[c], ".meta");
    ASSERT_TRUE(meta);
    void *st;
    ASSERT_OK(open_src(&st, meta));
    static uint32_t counts[64][PT__DUMPI_NLABELS];
    memset(counts, 0, sizeof counts);
    char *footer[64] = {0};
    pt_item it;
    int rc;
    uint64_t events = 0, last[64] = {0};
    while ((rc = pt__format_dumpi.src_next(st, &it)) == PT_OK) {
      if (it.type == PT_ITEM_DEF && it.u.def.kind == PT_DEF_KEYVAL &&
          !strcmp(it.u.def.name, "dumpi.footer.called"))
        footer[it.u.def.parent] = strdup(it.u.def.s1);
      if (it.type != PT_ITEM_EVENT) continue;
      const pt_event *e = &it.u.event;
      ASSERT_TRUE(e->location < 64);
      ASSERT_TRUE(e->time >= last[e->location]); /* per-location order */
      last[e->location] = e->time;
      events++;
      if (e->kind == PT_EV_ENTER) counts[e->location][e->ref]++;
    }
    ASSERT_STATUS(rc, PT_END);
    pt__format_dumpi.src_close(st);
    ASSERT_TRUE(events > 0);
    for (int r = 0; r < 64 && footer[r]; r++) {
      uint32_t want[PT__DUMPI_NLABELS] = {0};
      for (char *p = footer[r]; *p;) {
        unsigned l, v;
        int used;
        if (sscanf(p, "%u=%u%n", &l, &v, &used) != 2) break;
        want[l] = v;
        p += used;
        if (*p == ',') p++;
      }
      uint32_t total = 0;
      for (unsigned l = 0; l < PT__DUMPI_ALL_FUNCTIONS; l++) {
        if (counts[r][l] != want[l])
          fprintf(stderr, "  %s rank %d %s: %u records, footer %u\n",
                  cases[c], r, pt__dumpi_label_name(l), counts[r][l], want[l]);
        ASSERT_EQ_U64(counts[r][l], want[l]);
        total += counts[r][l];
      }
      ASSERT_EQ_U64(total, want[PT__DUMPI_ALL_FUNCTIONS]);
      free(footer[r]);
    }
    free(meta);
  }
}

/* Compare text with the reference, report the first differing line. */
static int same_text(const char *what, const char *got, size_t ng,
                     const char *want, size_t nw) {
  if (ng == nw && !memcmp(got, want, ng)) return 1;
  size_t i = 0, line = 1, ls = 0;
  while (i < ng && i < nw && got[i] == want[i]) {
    if (got[i] == '\n') {
      line++;
      ls = i + 1;
    }
    i++;
  }
  const char *ge = memchr(got + ls, '\n', ng - ls);
  const char *we = memchr(want + ls, '\n', nw - ls);
  fprintf(stderr, "  %s: line %zu differs:\n    got:  %.*s\n    want: %.*s\n",
          what, line, (int)(ge ? ge - (got + ls) : (long)(ng - ls)), got + ls,
          (int)(we ? we - (want + ls) : (long)(nw - ls)), want + ls);
  return 0;
}

/* Records decoded straight from the .bin and printed equal dumpi2ascii. */
TEST(print_records_equal_dumpi2ascii) {
  for (int c = 0; c < NCASES; c++) {
    char *meta = case_file(cases[c], ".meta");
    for (int r = 0;; r++) {
      char bin[4300], txt[4300];
      bin_path(bin, sizeof bin, meta, r, "");
      bin_path(txt, sizeof txt, meta, r, ".txt");
      size_t n, nt;
      uint8_t *data = (uint8_t *)slurp(bin, &n);
      if (!data) break;
      char *want = slurp(txt, &nt);
      ASSERT_TRUE(want);
      /* index: header offset is the 5th field after the magic */
      const uint8_t *ix = data + n - 64;
      uint64_t hdr = 0, off[2];
      for (int i = 0; i < 8; i++) hdr = (hdr << 8) | ix[32 + i];
      off[0] = ((uint32_t)data[8] << 24) | ((uint32_t)data[9] << 16) |
               ((uint32_t)data[10] << 8) | data[11];
      off[1] = ((uint32_t)data[12] << 24) | ((uint32_t)data[13] << 16) |
               ((uint32_t)data[14] << 8) | data[15];
      char *got;
      size_t ng;
      FILE *f = open_memstream(&got, &ng);
      pt__arena a = {0};
      size_t pos = 16;
      while (pos < hdr - 2) {
        pt__dumpi_call call;
        char why[200];
        pt__arena_reset(&a);
        long k = pt__dumpi_decode(data + pos, hdr - 2 - pos, (uint32_t)off[0],
                                  (uint32_t)off[1], &call, &a, why,
                                  sizeof why);
        ASSERT_TRUE(k > 0);
        ASSERT_OK(pt__dumpi_print_call(f, &call, NULL));
        pos += (size_t)k;
      }
      pt__arena_free(&a);
      fclose(f);
      ASSERT_TRUE(same_text(bin, got, ng, want, nt));
      free(got);
      free(want);
      free(data);
    }
    free(meta);
  }
}

/* The reader's decoder stores a fixed-argument call's arguments as INT
 * attributes (argument k as at[k], key keys[k]), the call's argument
 * slots untouched, with the header and the record length of
 * pt__dumpi_decode; any other call it decodes as pt__dumpi_decode (at
 * untouched).  Every record of the test vectors, and each fixed-argument
 * record cut short (an error naming the argument, not a read past it). */
TEST(decode_into_attributes) {
  uint32_t keys[PT__DUMPI_MAX_ARGS];
  for (unsigned k = 0; k < PT__DUMPI_MAX_ARGS; k++) keys[k] = 1000 + k;
  int fixed_seen = 0, other_seen = 0;
  for (int cs = 0; cs < NCASES; cs++) {
    char *meta = case_file(cases[cs], ".meta");
    for (int r = 0;; r++) {
      char bin[4300];
      bin_path(bin, sizeof bin, meta, r, "");
      size_t n;
      uint8_t *data = (uint8_t *)slurp(bin, &n);
      if (!data) break;
      const uint8_t *ix = data + n - 64;
      uint64_t hdr = 0;
      for (int i = 0; i < 8; i++) hdr = (hdr << 8) | ix[32 + i];
      uint32_t cpu = ((uint32_t)data[8] << 24) | ((uint32_t)data[9] << 16) |
                     ((uint32_t)data[10] << 8) | data[11];
      uint32_t wall = ((uint32_t)data[12] << 24) |
                      ((uint32_t)data[13] << 16) |
                      ((uint32_t)data[14] << 8) | data[15];
      pt__arena a = {0}, b = {0};
      size_t pos = 16;
      while (pos < hdr - 2) {
        static pt__dumpi_call full, lite, mark;
        pt_attr at[PT__DUMPI_MAX_ARGS + 1], at0[PT__DUMPI_MAX_ARGS + 1];
        char why[200];
        pt__arena_reset(&a);
        pt__arena_reset(&b);
        memset(&mark, 0x5a, sizeof mark);
        lite = mark;
        memset(at, 0xa5, sizeof at);
        memcpy(at0, at, sizeof at);
        long k = pt__dumpi_decode(data + pos, hdr - 2 - pos, cpu, wall,
                                  &full, &a, why, sizeof why);
        ASSERT_TRUE(k > 0);
        long kl = pt__dumpi_decode_scalars(data + pos, hdr - 2 - pos, cpu,
                                           wall, &lite, &b, at, keys, why,
                                           sizeof why);
        ASSERT_EQ_I64(kl, k);
        ASSERT_EQ_I64(lite.label, full.label);
        ASSERT_EQ_I64(lite.mask, full.mask);
        ASSERT_EQ_I64(lite.thread, full.thread);
        ASSERT_EQ_I64(lite.wall_start.sec, full.wall_start.sec);
        ASSERT_EQ_I64(lite.wall_stop.nsec, full.wall_stop.nsec);
        ASSERT_EQ_I64(lite.cpu_stop.sec, full.cpu_stop.sec);
        ASSERT_TRUE(lite.f == full.f);
        unsigned na = full.f->nargs;
        if (pt__dumpi_fixed_args(full.label) >= 0) {
          fixed_seen++;
          for (unsigned j = 0; j < na; j++) {
            ASSERT_EQ_I64(at[j].key, keys[j]);
            ASSERT_EQ_I64(at[j].val.type, PT_TYPE_INT);
            ASSERT_EQ_I64(at[j].val.count, 0);
            ASSERT_EQ_I64(at[j].val.v.i, full.v[j].i);
          }
          ASSERT_TRUE(memcmp(lite.v, mark.v, sizeof lite.v) == 0);
          ASSERT_TRUE(memcmp(&at[na], &at0[na], sizeof at[na]) == 0);
          /* cut in its arguments: an error, at[] not written past them */
          for (long cut = k - 1; cut >= k - 2 && cut > 0; cut--) {
            lite = mark;
            memcpy(at, at0, sizeof at);
            long e = pt__dumpi_decode_scalars(data + pos, (size_t)cut, cpu,
                                              wall, &lite, &b, at, keys, why,
                                              sizeof why);
            ASSERT_EQ_I64(e, PT_ETRUNCATED);
            ASSERT_TRUE(memcmp(&at[na], &at0[na], sizeof at[na]) == 0);
          }
        } else {
          other_seen++;
          ASSERT_TRUE(memcmp(at, at0, sizeof at) == 0);
          for (unsigned j = 0; j < na; j++) {
            ASSERT_EQ_I64(lite.v[j].present, full.v[j].present);
            ASSERT_EQ_I64(lite.v[j].i, full.v[j].i);
            ASSERT_EQ_I64(lite.v[j].na, full.v[j].na);
            ASSERT_EQ_I64(lite.v[j].ns, full.v[j].ns);
            for (uint32_t e = 0; e < full.v[j].na; e++)
              ASSERT_EQ_I64(lite.v[j].a[e], full.v[j].a[e]);
          }
        }
        pos += (size_t)k;
      }
      pt__arena_free(&a);
      pt__arena_free(&b);
      free(data);
    }
    free(meta);
  }
  ASSERT_TRUE(fixed_seen > 0 && other_seen > 0);
}

/* The model stream printed by pt__dumpi_printer (what `paratrace dump
 * --style dumpi` shows) equals dumpi2ascii, rank by rank. */
TEST(print_model_equal_dumpi2ascii) {
  for (int c = 0; c < NCASES; c++) {
    char *meta = case_file(cases[c], ".meta");
    for (int r = 0;; r++) {
      char txt[4300];
      bin_path(txt, sizeof txt, meta, r, ".txt");
      size_t nt;
      char *want = slurp(txt, &nt);
      if (!want) break;
      void *st;
      ASSERT_OK(open_src(&st, meta));
      char *got;
      size_t ng;
      FILE *f = open_memstream(&got, &ng);
      pt__dumpi_printer *p;
      ASSERT_OK(pt__dumpi_printer_new(&p, f, (uint64_t)r));
      pt_item it;
      int rc;
      while ((rc = pt__format_dumpi.src_next(st, &it)) == PT_OK)
        ASSERT_OK(pt__dumpi_printer_item(p, &it));
      ASSERT_STATUS(rc, PT_END);
      pt__dumpi_printer_free(p);
      pt__format_dumpi.src_close(st);
      fclose(f);
      ASSERT_TRUE(same_text(txt, got, ng, want, nt));
      free(got);
      free(want);
    }
    free(meta);
  }
}

/* Copy all items of a DUMPI source into a DUMPI sink writing `meta`. */
static int convert(const char *in, const char *dir, const char *name,
                   char *meta_out, size_t n) {
  void *st, *sk;
  int rc = open_src(&st, in);
  if (rc < 0) return rc;
  char tmp[4400];
  snprintf(meta_out, n, "%s/%s.meta", dir, name);
  snprintf(tmp, sizeof tmp, "%s.tmp-%d", meta_out, (int)getpid());
  pt_sink_opts so = {0};
  pt_error err = {0};
  if ((rc = pt__format_dumpi.sink_open(&sk, tmp, &so, &err)) < 0) {
    pt__format_dumpi.src_close(st);
    return rc;
  }
  pt_item it;
  while ((rc = pt__format_dumpi.src_next(st, &it)) == PT_OK)
    if ((rc = pt__format_dumpi.sink_write(sk, &it)) < 0) {
      fprintf(stderr, "  sink: %s\n", pt__format_dumpi.sink_errmsg(sk));
      break;
    }
  pt__format_dumpi.src_close(st);
  if (rc != PT_END) {
    pt__format_dumpi.sink_abort(sk);
    return rc < 0 ? rc : PT_ECHECK;
  }
  if ((rc = pt__format_dumpi.sink_close(sk, &err)) < 0) {
    fprintf(stderr, "  close: %s\n", err.msg);
    return rc;
  }
  return rename(tmp, meta_out) == 0 ? PT_OK : PT_EIO;
}

/* DUMPI -> model -> DUMPI writes byte-identical .bin and .meta files. */
TEST(writer_byte_identical) {
  char *dir = test_tmpdir("dumpi");
  for (int c = 0; c < NCASES; c++) {
    char *meta = case_file(cases[c], ".meta");
    const char *base = strrchr(meta, '/') + 1;
    char name[256], out[4400];
    snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 5), base);
    ASSERT_OK(convert(meta, dir, name, out, sizeof out));
    size_t na, nb;
    char *a = slurp(meta, &na), *b = slurp(out, &nb);
    ASSERT_TRUE(b && na == nb && !memcmp(a, b, na));
    free(a);
    free(b);
    for (int r = 0;; r++) {
      char x[4300], y[4500];
      bin_path(x, sizeof x, meta, r, "");
      bin_path(y, sizeof y, out, r, "");
      a = slurp(x, &na);
      if (!a) break;
      b = slurp(y, &nb);
      ASSERT_TRUE(b);
      if (na != nb || memcmp(a, b, na)) {
        size_t i = 0;
        while (i < na && i < nb && a[i] == b[i]) i++;
        fprintf(stderr, "  %s: differs at byte %zu (sizes %zu, %zu)\n", y, i,
                na, nb);
      }
      ASSERT_TRUE(na == nb && !memcmp(a, b, na));
      free(a);
      free(b);
      unlink(y);
    }
    unlink(out);
    free(meta);
  }
  rmdir(dir);
  free(dir);
}

/* DUMPI -> model -> DUMPI -> model gives equal items. */
TEST(model_round_trip_equal) {
  char *dir = test_tmpdir("dumpi-rt");
  for (int c = 0; c < NCASES; c++) {
    char *meta = case_file(cases[c], ".meta");
    const char *base = strrchr(meta, '/') + 1;
    char name[256], out[4400];
    snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 5), base);
    ASSERT_OK(convert(meta, dir, name, out, sizeof out));
    void *s1, *s2;
    ASSERT_OK(open_src(&s1, meta));
    ASSERT_OK(open_src(&s2, out));
    pt_item a, b;
    int r1, r2;
    uint64_t n = 0;
    for (;;) {
      r1 = pt__format_dumpi.src_next(s1, &a);
      r2 = pt__format_dumpi.src_next(s2, &b);
      if (r1 != PT_OK || r2 != PT_OK) break;
      n++;
      ASSERT_EQ_U64(a.type, b.type);
      if (a.type == PT_ITEM_DEF) {
        if (!pt_def_equal(&a.u.def, &b.u.def))
          fprintf(stderr, "  def %llu differs (%s)\n", (unsigned long long)n,
                  a.u.def.name ? a.u.def.name : "");
        ASSERT_TRUE(pt_def_equal(&a.u.def, &b.u.def));
      } else {
        ASSERT_TRUE(pt_event_equal(&a.u.event, &b.u.event));
      }
    }
    ASSERT_STATUS(r1, PT_END);
    ASSERT_STATUS(r2, PT_END);
    ASSERT_TRUE(n > 100);
    pt__format_dumpi.src_close(s1);
    pt__format_dumpi.src_close(s2);
    for (int r = 0;; r++) {
      char y[4500];
      bin_path(y, sizeof y, out, r, "");
      if (unlink(y) != 0) break;
    }
    unlink(out);
    free(meta);
  }
  rmdir(dir);
  free(dir);
}

/* The model carries the semantic events: messages match across ranks. */
TEST(semantic_events) {
  char *meta = case_file("b_ring_nonblocking", ".meta");
  void *st;
  ASSERT_OK(open_src(&st, meta));
  pt_item it;
  uint64_t isend = 0, isend_done = 0, irecv_req = 0, irecv = 0, bytes_s = 0,
           bytes_r = 0;
  nwarnings = 0;
  while (pt__format_dumpi.src_next(st, &it) == PT_OK) {
    if (it.type != PT_ITEM_EVENT) continue;
    const pt_event *e = &it.u.event;
    switch (e->kind) {
      case PT_EV_ISEND: isend++; bytes_s += e->size; break;
      case PT_EV_ISEND_COMPLETE: isend_done++; break;
      case PT_EV_IRECV_REQUEST: irecv_req++; break;
      case PT_EV_IRECV:
        irecv++;
        bytes_r += e->size;
        ASSERT_TRUE(e->peer >= 0 && e->peer < 4);
        break;
      default: break;
    }
  }
  pt__format_dumpi.src_close(st);
  ASSERT_EQ_U64(isend, 80);
  ASSERT_EQ_U64(irecv_req, 80);
  ASSERT_EQ_U64(irecv, 80);
  ASSERT_EQ_U64(isend_done, 80);
  ASSERT_EQ_U64(bytes_s, 80 * 16);
  ASSERT_EQ_U64(bytes_r, 80 * 16);
  ASSERT_TRUE(nwarnings > 0); /* reused request ids */
  free(meta);

  /* collectives: bytes from counts x datatype sizes; the sub-communicators
   * of MPI_Comm_split(WORLD, rank % 2, -rank) replayed: members [2, 0] and
   * [3, 1] (key order), the same id on every member, roots as COMM_WORLD
   * ranks (MPI_Bcast root 0 of the sub-communicator = rank 2 or 3) */
  meta = case_file("c_collectives", ".meta");
  ASSERT_OK(open_src(&st, meta));
  uint64_t colls = 0, sent = 0, bcasts = 0;
  uint64_t sub[2] = {PT_NONE, PT_NONE};
  while (pt__format_dumpi.src_next(st, &it) == PT_OK) {
    if (it.type == PT_ITEM_DEF && it.u.def.kind == PT_DEF_GROUP &&
        it.u.def.i0 == PT_GROUP_COMM_GROUP) {
      ASSERT_EQ_U64(it.u.def.nmembers, 2);
      int odd = it.u.def.members[0] == 3;
      ASSERT_EQ_U64(it.u.def.members[0], odd ? 3 : 2);
      ASSERT_EQ_U64(it.u.def.members[1], odd ? 1 : 0);
      sub[odd] = it.u.def.id;
    }
    if (it.type != PT_ITEM_EVENT || it.u.event.kind != PT_EV_COLL_END)
      continue;
    uint64_t l = it.u.event.location;
    if (it.u.event.comm != 2 && it.u.event.comm != 3)
      ASSERT_EQ_U64(it.u.event.comm, sub[l % 2]);
    if (it.u.event.comm == sub[l % 2] && it.u.event.ref == PT_COLL_BCAST) {
      ASSERT_EQ_I64(it.u.event.peer, l % 2 ? 3 : 2);
      bcasts++;
    }
    colls++;
    sent += it.u.event.size;
    if (it.u.event.ref == PT_COLL_ALLTOALLV && it.u.event.location == 0)
      ASSERT_EQ_U64(it.u.event.size, (1 + 2 + 3 + 4) * 8);
  }
  pt__format_dumpi.src_close(st);
  ASSERT_EQ_U64(colls, 12 + 8 + 8 + 4 + 4 + 4);
  ASSERT_EQ_U64(bcasts, 4);
  ASSERT_TRUE(sent > 0);
  free(meta);
}

/* A single .bin opens by its magic as a one-rank trace. */
TEST(single_bin) {
  char *meta = case_file("a_pingpong", ".meta");
  char bin[4300];
  bin_path(bin, sizeof bin, meta, 1, "");
  ASSERT_TRUE(pt__format_dumpi.probe(bin, 0, (const uint8_t *)"\xff\xaa\xdd"
                                     "DUMPI", 8) > 0);
  void *st;
  ASSERT_OK(open_src(&st, bin));
  pt_item it;
  uint64_t enters = 0;
  while (pt__format_dumpi.src_next(st, &it) == PT_OK)
    enters += it.type == PT_ITEM_EVENT && it.u.event.kind == PT_EV_ENTER;
  pt__format_dumpi.src_close(st);
  ASSERT_EQ_U64(enters, 35);
  free(meta);
}

/* Truncated and corrupted files: clear errors or warnings, never a crash;
 * a file cut inside its stream yields every complete call before the cut. */
TEST(truncated_and_corrupt) {
  char *meta = case_file("a_pingpong", ".meta");
  char bin[4300];
  bin_path(bin, sizeof bin, meta, 0, "");
  size_t n;
  uint8_t *data = (uint8_t *)slurp(bin, &n);
  ASSERT_TRUE(data);
  pt_error err;
  ASSERT_OK(pt__dumpi_parse_mem(data, n, NULL, NULL, &err));
  for (size_t cut = 0; cut < n; cut++) {
    uint8_t *d = malloc(cut ? cut : 1);
    memcpy(d, data, cut);
    nwarnings = 0;
    err.msg[0] = 0;
    int rc = pt__dumpi_parse_mem(d, cut, count_warn, NULL, &err);
    if (cut < 16) {
      ASSERT_TRUE(rc < 0);
      ASSERT_CONTAINS(err.msg, "offset");
    } else {
      /* no index any more: walked, warned */
      if (rc < 0) fprintf(stderr, "  cut %zu: %s\n", cut, err.msg);
      ASSERT_OK(rc);
      ASSERT_TRUE(nwarnings >= 1);
    }
    free(d);
  }
  /* a cut inside the stream: warning names the offset and the calls */
  uint8_t *d = malloc(n);
  memcpy(d, data, 1000);
  nwarnings = 0;
  ASSERT_OK(pt__dumpi_parse_mem(d, 1000, count_warn, NULL, &err));
  ASSERT_CONTAINS(lastwarn, "complete calls");
  /* bit flips anywhere: any status, no crash (ASan/UBSan builds check) */
  uint64_t seed = 12345;
  for (int k = 0; k < 3000; k++) {
    memcpy(d, data, n);
    for (int j = 0; j < 3; j++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t pos = (size_t)(seed >> 33) % n;
      d[pos] ^= (uint8_t)(1u << ((seed >> 20) & 7));
    }
    int rc = pt__dumpi_parse_mem(d, n, NULL, NULL, &err);
    if (rc < 0) ASSERT_TRUE(strstr(err.msg, "offset") || rc == PT_ENOMEM);
  }
  /* a bad label inside an indexed file is corruption with its offset */
  memcpy(d, data, n);
  d[16] = 0x7f;
  ASSERT_STATUS(pt__dumpi_parse_mem(d, n, NULL, NULL, &err), PT_ECORRUPT);
  ASSERT_CONTAINS(err.msg, "offset 16");
  ASSERT_CONTAINS(err.msg, "invalid function label");
  free(d);
  free(data);
  free(meta);
}

/* The walk at open sizes most records without decoding them (fixed-width
 * arguments; MPI_Waitall-like arrays and statuses): cut anywhere in the
 * stream, a file without its index reads exactly the records the decoder
 * finds complete before the cut. */
static char cutwarn[600];
static void cut_warn(void *u, const char *m) {
  (void)u;
  if (strstr(m, "complete calls")) snprintf(cutwarn, sizeof cutwarn, "%s", m);
}
TEST(walk_cut_counts_like_decoder) {
  for (int cs = 0; cs < NCASES; cs++) {
    char *meta = case_file(cases[cs], ".meta");
    char bin[4300];
    bin_path(bin, sizeof bin, meta, 0, "");
    size_t n;
    uint8_t *data = (uint8_t *)slurp(bin, &n);
    ASSERT_TRUE(data);
    const uint8_t *ix = data + n - 64;
    uint64_t hdr = 0;
    for (int i = 0; i < 8; i++) hdr = (hdr << 8) | ix[32 + i];
    uint32_t off[2];
    for (int j = 0; j < 2; j++)
      off[j] = ((uint32_t)data[8 + 4 * j] << 24) |
               ((uint32_t)data[9 + 4 * j] << 16) |
               ((uint32_t)data[10 + 4 * j] << 8) | data[11 + 4 * j];
    /* where each record ends, by the decoder */
    size_t ends[4096], nrec = 0, pos = 16;
    while (pos < hdr - 2 && nrec < 4096) {
      pt__dumpi_call call;
      char why[200];
      long k = pt__dumpi_decode(data + pos, hdr - 2 - pos, off[0], off[1],
                                &call, NULL, why, sizeof why);
      ASSERT_TRUE(k > 0);
      pos += (size_t)k;
      ends[nrec++] = pos;
    }
    ASSERT_TRUE(nrec > 0 && nrec < 4096);
    pt_error err;
    size_t r = 0;
    for (size_t cut = 16; cut < hdr - 2; cut++) {
      while (r < nrec && ends[r] <= cut) r++;
      cutwarn[0] = 0;
      ASSERT_OK(pt__dumpi_parse_mem(data, cut, cut_warn, NULL, &err));
      char want[64];
      snprintf(want, sizeof want, "read the %zu complete calls", r);
      if (!strstr(cutwarn, want))
        fprintf(stderr, "  %s cut %zu: '%s', want '%s'\n", cases[cs], cut,
                cutwarn, want);
      ASSERT_CONTAINS(cutwarn, want);
    }
    free(data);
    free(meta);
  }
}

/* A model trace that did not come from DUMPI: calls synthesised from
 * region names and semantic events; the real layout reads back. */
TEST(write_synthesised) {
  char *dir = test_tmpdir("dumpi-syn");
  char meta[4400], tmp[4500];
  snprintf(meta, sizeof meta, "%s/syn.meta", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp-1", meta);
  void *sk;
  pt_error err;
  ASSERT_OK(pt__format_dumpi.sink_open(&sk, tmp, NULL, &err));
  pt_item it;
  const char *regions[] = {"MPI_Init", "MPI_Send", "MPI_Recv", "MPI_Isend",
                           "MPI_Wait", "MPI_Allreduce", "compute"};
  for (int i = 0; i < 7; i++) {
    it.type = PT_ITEM_DEF;
    pt_def_init(&it.u.def, PT_DEF_REGION, (uint64_t)i);
    it.u.def.name = regions[i];
    ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
  }
  for (int r = 0; r < 2; r++) {
    it.type = PT_ITEM_DEF;
    pt_def_init(&it.u.def, PT_DEF_LOCATION_GROUP, (uint64_t)r);
    it.u.def.i1 = r;
    ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
    pt_def_init(&it.u.def, PT_DEF_LOCATION, (uint64_t)r + 10);
    it.u.def.parent = (uint64_t)r;
    ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
  }
  uint64_t t = 5000000000ULL;
  struct { int loc, kind, region; int64_t peer; uint64_t size, req; } evs[] = {
      {10, PT_EV_ENTER, 0, 0, 0, 0}, {10, PT_EV_LEAVE, 0, 0, 0, 0},
      {11, PT_EV_ENTER, 0, 0, 0, 0}, {11, PT_EV_LEAVE, 0, 0, 0, 0},
      {10, PT_EV_ENTER, 1, 0, 0, 0}, {10, PT_EV_SEND, 1, 1, 64, 0},
      {10, PT_EV_LEAVE, 1, 0, 0, 0}, {11, PT_EV_ENTER, 2, 0, 0, 0},
      {11, PT_EV_RECV, 2, 0, 64, 0}, {11, PT_EV_LEAVE, 2, 0, 0, 0},
      {10, PT_EV_ENTER, 6, 0, 0, 0}, {10, PT_EV_LEAVE, 6, 0, 0, 0},
      {10, PT_EV_ENTER, 3, 0, 0, 0}, {10, PT_EV_ISEND, 3, 1, 8, 77},
      {10, PT_EV_LEAVE, 3, 0, 0, 0}, {10, PT_EV_ENTER, 4, 0, 0, 0},
      {10, PT_EV_ISEND_COMPLETE, 4, 0, 0, 77}, {10, PT_EV_LEAVE, 4, 0, 0, 0},
      {10, PT_EV_ENTER, 5, 0, 0, 0}, {10, PT_EV_COLL_END, 5, -1, 8, 8},
      {10, PT_EV_LEAVE, 5, 0, 0, 0}};
  for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
    it.type = PT_ITEM_EVENT;
    pt_event_init(&it.u.event, (uint32_t)evs[i].kind, t += 1000,
                  (uint64_t)evs[i].loc);
    pt_event *e = &it.u.event;
    if (e->kind == PT_EV_ENTER || e->kind == PT_EV_LEAVE)
      e->ref = (uint64_t)evs[i].region;
    e->peer = evs[i].peer;
    e->size = evs[i].size;
    e->request = evs[i].req;
    e->comm = 2;
    if (e->kind == PT_EV_COLL_END) {
      e->ref = PT_COLL_ALLREDUCE;
      e->size2 = 8;
    }
    ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
  }
  ASSERT_OK(pt__format_dumpi.sink_close(sk, &err));
  ASSERT_EQ_I64(rename(tmp, meta), 0);
  /* read back: calls, semantic events */
  void *st;
  ASSERT_OK(open_src(&st, meta));
  uint64_t enters = 0, sends = 0, recvs = 0, isends = 0, done = 0, coll = 0;
  while (pt__format_dumpi.src_next(st, &it) == PT_OK) {
    if (it.type != PT_ITEM_EVENT) continue;
    const pt_event *e = &it.u.event;
    enters += e->kind == PT_EV_ENTER;
    if (e->kind == PT_EV_SEND) {
      sends++;
      ASSERT_EQ_I64(e->peer, 1);
      ASSERT_EQ_U64(e->size, 64);
    }
    recvs += e->kind == PT_EV_RECV;
    isends += e->kind == PT_EV_ISEND;
    done += e->kind == PT_EV_ISEND_COMPLETE;
    coll += e->kind == PT_EV_COLL_END;
  }
  pt__format_dumpi.src_close(st);
  ASSERT_EQ_U64(enters, 7);
  ASSERT_EQ_U64(sends, 1);
  ASSERT_EQ_U64(recvs, 1);
  ASSERT_EQ_U64(isends, 1);
  ASSERT_EQ_U64(done, 1);
  ASSERT_EQ_U64(coll, 1);
  char b0[4500], b1[4500];
  snprintf(b0, sizeof b0, "%s/syn-0000.bin", dir);
  snprintf(b1, sizeof b1, "%s/syn-0001.bin", dir);
  unlink(b0);
  unlink(b1);
  unlink(meta);
  rmdir(dir);
  free(dir);
}

/* Events of the threads test, sorted by time (then by their order). */
typedef struct tev {
  uint64_t t;
  int loc, kind, region, seq;
  int64_t peer, tag;
} tev;
static int tev_cmp(const void *a, const void *b) {
  const tev *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Feed every item of a DUMPI source to a checker; *nloc: locations with
 * events, each checked to belong to the group of its rank. */
static int check_dumpi(const char *meta, pt_check_stats *cs, int *nloc) {
  void *st;
  int rc = open_src(&st, meta);
  if (rc < 0) return rc;
  pt_check *c;
  if (pt_check_create(&c, NULL) < 0) abort();
  uint64_t parent[64], seen[64];
  int nseen = 0;
  for (int i = 0; i < 64; i++) parent[i] = PT_NONE;
  pt_item it;
  while ((rc = pt__format_dumpi.src_next(st, &it)) == PT_OK) {
    if (it.type == PT_ITEM_DEF) {
      pt_check_def(c, &it.u.def);
      if (it.u.def.kind == PT_DEF_LOCATION && it.u.def.id < 64)
        parent[it.u.def.id] = it.u.def.parent;
      continue;
    }
    if (it.type != PT_ITEM_EVENT) continue;
    pt_check_event(c, &it.u.event);
    int k = 0;
    while (k < nseen && seen[k] != it.u.event.location) k++;
    if (k == nseen && nseen < 64) seen[nseen++] = it.u.event.location;
  }
  pt__format_dumpi.src_close(st);
  /* locations of rank r's threads are in r's group; rank = location % 2 */
  for (int k = 0; k < nseen; k++)
    if (seen[k] >= 64 || parent[seen[k]] != seen[k] % 2) rc = PT_ECHECK;
  *nloc = nseen;
  int crc = pt_check_finish(c);
  pt_check_get_stats(c, cs);
  for (size_t i = 0; i < pt_check_nreports(c) && i < 3; i++)
    fprintf(stderr, "  check: %s\n", pt_check_report(c, i)->text);
  pt_check_destroy(c);
  return rc == PT_END ? crc : rc < 0 ? rc : PT_ECHECK;
}

/* 2 ranks x 2 threads whose calls overlap, messages between the threads
 * (rank 0 thread 0 sends to rank 1 thread 0 during a long MPI_Send while
 * rank 0 thread 1 receives from rank 1 thread 1): written as DUMPI (one
 * .bin per rank, the records in the order the calls end, each with its
 * thread id) and read back, every thread is a location of its rank with
 * its own times: the trace checks clean with every message matched, as
 * the model did. */
/* pt_source_next_batch gives what pt_source_next gives, in the same
 * order, also when the two are mixed (every third round one item by
 * pt_source_next); *multi counts the batches of more than one item. */
static void batch_same(const char *meta, uint64_t *multi) {
  pt_source *a, *b;
  pt_source_opts o = {0};
  pt_error err;
  ASSERT_OK(pt_source_open(&a, meta, &o, &err));
  ASSERT_OK(pt_source_open(&b, meta, &o, &err));
  pt_item ia, ib;
  const pt_item *its = NULL;
  size_t n = 0, i = 0;
  int ra, rb;
  uint64_t round = 0, items = 0;
  *multi = 0;
  for (;;) {
    ra = pt_source_next(a, &ia);
    const pt_item *x;
    if (i < n) {
      x = &its[i++];
      rb = PT_OK;
    } else if (++round % 3 == 0) {
      rb = pt_source_next(b, &ib);
      x = &ib;
      n = i = 0;
    } else {
      rb = pt_source_next_batch(b, &its, &n);
      if (rb == PT_OK) ASSERT_TRUE(n >= 1);
      else ASSERT_EQ_U64(n, 0);
      *multi += n > 1;
      i = 1;
      x = its;
    }
    ASSERT_EQ_I64(rb, ra);
    if (ra != PT_OK) break;
    items++;
    ASSERT_EQ_U64(x->type, ia.type);
    if (ia.type == PT_ITEM_EVENT)
      ASSERT_TRUE(pt_event_equal(&x->u.event, &ia.u.event));
    else if (ia.type == PT_ITEM_DEF)
      ASSERT_TRUE(pt_def_equal(&x->u.def, &ia.u.def));
  }
  ASSERT_EQ_I64(ra, PT_END);
  ASSERT_TRUE(items > 0);
  pt_source_close(a);
  pt_source_close(b);
}

/* A digest of a value, an event (every field, its attributes, the bytes
 * of strings and the elements of integer arrays). */
static uint64_t rd_mix(uint64_t h, uint64_t v) {
  return (h ^ v) * 0x100000001B3ULL + (h >> 29);
}
static uint64_t rd_value(uint64_t h, const pt_value *v) {
  h = rd_mix(rd_mix(h, v->type), v->count);
  if (v->type == PT_TYPE_INTS)
    for (uint32_t i = 0; i < v->count; i++) h = rd_mix(h, (uint64_t)v->v.ints[i]);
  else if (v->type == PT_TYPE_STRING)
    for (const char *c = v->v.s ? v->v.s : ""; *c; c++) h = rd_mix(h, (uint8_t)*c);
  else
    h = rd_mix(h, v->v.u);
  return h;
}
static uint64_t rd_event(uint64_t h, const pt_event *e) {
  uint64_t f[] = {e->time, e->location, e->kind, e->nattrs, e->ref,
                  (uint64_t)e->peer, e->comm, (uint64_t)e->tag, e->size,
                  e->size2, e->request};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) h = rd_mix(h, f[i]);
  h = rd_value(h, &e->value);
  for (const char *c = e->text ? e->text : ""; *c; c++) h = rd_mix(h, (uint8_t)*c);
  for (uint32_t i = 0; i < e->nattrs; i++)
    h = rd_value(rd_mix(h, e->attrs[i].key), &e->attrs[i].val);
  return h;
}
/* Per location: its events' count and the digest of their sequence. */
typedef struct rd_loc {
  uint64_t loc, n, h, last;
} rd_loc;
static rd_loc *rd_at(rd_loc *t, size_t *nt, uint64_t loc) {
  for (size_t i = 0; i < *nt; i++)
    if (t[i].loc == loc) return &t[i];
  if (*nt == 256) return NULL;
  t[*nt] = (rd_loc){loc, 0, 0, 0};
  return &t[(*nt)++];
}

/* With pt_source_opts.runs, the items of a batch are events of one
 * location in time order, batches come in the order of their first
 * events' times, and every location's events are those, in the order,
 * of the time-ordered read (definitions: the same, in the same order),
 * also when pt_source_next is mixed in; *longer counts the runs that
 * reach past the next run's first event (what the time-ordered read never
 * does). */
static void runs_same(const char *meta, uint64_t *longer) {
  pt_source *a, *b;
  pt_source_opts o = {0};
  pt_error err;
  ASSERT_OK(pt_source_open(&a, meta, &o, &err));
  o.runs = 1;
  ASSERT_OK(pt_source_open(&b, meta, &o, &err));
  ASSERT_EQ_I64(pt_source_runs(a), 0);
  ASSERT_EQ_I64(pt_source_runs(b), 1);
  { /* (filtered: item by item, in time order) */
    pt_source *f;
    pt_source_opts fo = o;
    fo.to = UINT64_MAX - 1;
    ASSERT_OK(pt_source_open(&f, meta, &fo, &err));
    ASSERT_EQ_I64(pt_source_runs(f), 0);
    pt_source_close(f);
  }
  static rd_loc la[256], lb[256];
  size_t na = 0, nb = 0;
  uint64_t da = 0, db = 0, ea = 0, eb = 0;
  pt_item it;
  int rc;
  while ((rc = pt_source_next(a, &it)) == PT_OK) {
    if (it.type != PT_ITEM_EVENT) {
      ASSERT_EQ_U64(ea, 0); /* (definitions before the events) */
      da = rd_mix(da, it.type);
      if (it.type == PT_ITEM_DEF) da = rd_mix(da, it.u.def.kind * 31 + it.u.def.id);
      continue;
    }
    rd_loc *l = rd_at(la, &na, it.u.event.location);
    ASSERT_TRUE(l != NULL);
    l->n++;
    l->h = rd_event(l->h, &it.u.event);
    ea++;
  }
  ASSERT_EQ_I64(rc, PT_END);
  uint64_t round = 0, first_prev = 0, last_prev = 0;
  *longer = 0;
  for (;;) {
    const pt_item *its;
    size_t n;
    if (++round % 5 == 0) {
      rc = pt_source_next(b, &it);
      its = &it;
      n = rc == PT_OK;
    } else {
      rc = pt_source_next_batch(b, &its, &n);
    }
    if (rc != PT_OK) break;
    ASSERT_TRUE(n >= 1);
    if (its[0].type != PT_ITEM_EVENT) {
      ASSERT_EQ_U64(n, 1);
      ASSERT_EQ_U64(eb, 0);
      db = rd_mix(db, its[0].type);
      if (its[0].type == PT_ITEM_DEF)
        db = rd_mix(db, its[0].u.def.kind * 31 + its[0].u.def.id);
      continue;
    }
    /* (a batch right after pt_source_next may be the rest of the run it
     * took an item from: checked are the batches that start a run) */
    if (round % 5 && (round - 1) % 5) {
      ASSERT_TRUE(its[0].u.event.time >= first_prev);
      first_prev = its[0].u.event.time;
    }
    rd_loc *l = rd_at(lb, &nb, its[0].u.event.location);
    ASSERT_TRUE(l != NULL);
    for (size_t i = 0; i < n; i++) {
      const pt_event *e = &its[i].u.event;
      ASSERT_EQ_U64(its[i].type, PT_ITEM_EVENT);
      ASSERT_EQ_U64(e->location, l->loc);
      if (l->n) ASSERT_TRUE(e->time >= l->last);
      l->last = e->time;
      l->n++;
      l->h = rd_event(l->h, e);
      eb++;
    }
    /* the previous run reached past this one's first event: what the
     * time-ordered read never does */
    if (last_prev > its[0].u.event.time) (*longer)++;
    last_prev = its[n - 1].u.event.time;
  }
  ASSERT_EQ_I64(rc, PT_END);
  ASSERT_EQ_U64(db, da);
  ASSERT_EQ_U64(eb, ea);
  ASSERT_EQ_U64(nb, na);
  for (size_t i = 0; i < na; i++) {
    rd_loc *l = rd_at(lb, &nb, la[i].loc);
    ASSERT_EQ_U64(nb, na);
    ASSERT_EQ_U64(l->n, la[i].n);
    ASSERT_TRUE(l->h == la[i].h);
  }
  pt_source_close(a);
  pt_source_close(b);
}

TEST(batch_equals_next) {
  for (int c = 0; c < NCASES; c++) {
    char *meta = case_file(cases[c], ".meta");
    uint64_t multi = 0;
    batch_same(meta, &multi);
    free(meta);
    if (test_failed_) return;
    ASSERT_TRUE(multi > 0);
  }
}

TEST(runs_keep_each_location) {
  uint64_t longer = 0;
  for (int c = 0; c < NCASES; c++) {
    char *meta = case_file(cases[c], ".meta");
    uint64_t l = 0;
    runs_same(meta, &l);
    free(meta);
    if (test_failed_) return;
    longer += l;
  }
  ASSERT_TRUE(longer > 0);
  /* a format that holds no runs keeps time order */
  const char *src = getenv("PT_SRCDIR");
  char picl[4200];
  snprintf(picl, sizeof picl, "%s/../shared/testdata/picl/pingpong.trf",
           src && *src ? src : ".");
  pt_source *p;
  pt_source_opts o = {0};
  o.runs = 1;
  pt_error err;
  ASSERT_OK(pt_source_open(&p, picl, &o, &err));
  ASSERT_EQ_I64(pt_source_runs(p), 0);
  pt_source_close(p);
}

TEST(threads_read_back) {
  char *dir = test_tmpdir("dumpi-thr");
  char meta[4400], tmp[4500];
  snprintf(meta, sizeof meta, "%s/thr.meta", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp-1", meta);
  enum { ITERS = 20 };
  tev ev[ITERS * 16];
  int n = 0;
  for (int i = 0; i < ITERS; i++) {
    uint64_t b = 5000000000ULL + (uint64_t)i * 10000;
    /* loc, region (0 send, 1 recv), enter, message time, leave, peer, tag */
    struct { int loc, region; uint64_t t0, tm, t1; int64_t peer, tag; } c[] = {
        {10, 0, 100, 100, 800, 1, 1}, /* rank 0 thread 0 */
        {20, 1, 200, 300, 300, 1, 2}, /* rank 0 thread 1 */
        {11, 1, 150, 250, 250, 0, 1}, /* rank 1 thread 0 */
        {21, 0, 220, 220, 700, 0, 2}, /* rank 1 thread 1 */
    };
    for (int j = 0; j < 4; j++) {
      tev e = {b + c[j].t0, c[j].loc, PT_EV_ENTER, c[j].region, n, 0, 0};
      ev[n++] = e;
      tev m = {b + c[j].tm, c[j].loc, c[j].region ? PT_EV_RECV : PT_EV_SEND,
               c[j].region, n, c[j].peer, c[j].tag};
      ev[n++] = m;
      tev l = {b + c[j].t1, c[j].loc, PT_EV_LEAVE, c[j].region, n, 0, 0};
      ev[n++] = l;
    }
  }
  qsort(ev, (size_t)n, sizeof ev[0], tev_cmp);

  void *sk;
  pt_error err;
  pt_check *chk;
  ASSERT_OK(pt_check_create(&chk, NULL));
  ASSERT_OK(pt__format_dumpi.sink_open(&sk, tmp, NULL, &err));
  pt_item it;
  const char *regions[] = {"MPI_Send", "MPI_Recv"};
  it.type = PT_ITEM_DEF;
  pt_def_init(&it.u.def, PT_DEF_CLOCK, 0);
  it.u.def.i0 = 1000000000;
  ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
  for (int i = 0; i < 2; i++) {
    pt_def_init(&it.u.def, PT_DEF_REGION, (uint64_t)i);
    it.u.def.name = regions[i];
    ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
    ASSERT_OK(pt_check_def(chk, &it.u.def));
  }
  for (int r = 0; r < 2; r++) {
    pt_def_init(&it.u.def, PT_DEF_LOCATION_GROUP, (uint64_t)r);
    it.u.def.i1 = r;
    ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
    ASSERT_OK(pt_check_def(chk, &it.u.def));
    for (int t = 0; t < 2; t++) {
      pt_def_init(&it.u.def, PT_DEF_LOCATION, (uint64_t)(10 * (t + 1) + r));
      it.u.def.parent = (uint64_t)r;
      ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
      ASSERT_OK(pt_check_def(chk, &it.u.def));
    }
  }
  it.type = PT_ITEM_EVENT;
  for (int i = 0; i < n; i++) {
    pt_event *e = &it.u.event;
    pt_event_init(e, (uint32_t)ev[i].kind, ev[i].t, (uint64_t)ev[i].loc);
    if (e->kind == PT_EV_ENTER || e->kind == PT_EV_LEAVE) {
      e->ref = (uint64_t)ev[i].region;
    } else {
      e->ref = PT_NONE;
      e->peer = ev[i].peer;
      e->tag = ev[i].tag;
      e->comm = 2;
      e->size = 8;
    }
    ASSERT_OK(pt__format_dumpi.sink_write(sk, &it));
    ASSERT_OK(pt_check_event(chk, e));
  }
  ASSERT_OK(pt__format_dumpi.sink_close(sk, &err));
  ASSERT_EQ_I64(rename(tmp, meta), 0);
  ASSERT_OK(pt_check_finish(chk));
  pt_check_stats want;
  pt_check_get_stats(chk, &want);
  pt_check_destroy(chk);
  ASSERT_EQ_U64(want.messages_matched, 2 * ITERS);

  /* read back: clean, the same messages, one location per thread, and no
   * call needed its times clamped */
  pt_check_stats got;
  int nloc = 0;
  nwarnings = 0;
  ASSERT_OK(check_dumpi(meta, &got, &nloc));
  ASSERT_EQ_U64(got.messages_matched, want.messages_matched);
  ASSERT_EQ_U64(got.events, (uint64_t)n);
  ASSERT_EQ_I64(nloc, 4);
  if (nwarnings) fprintf(stderr, "  warning: %s\n", lastwarn);
  ASSERT_EQ_I64(nwarnings, 0);
  uint64_t multi;
  batch_same(meta, &multi); /* (threads: a pending thread's calls) */
  uint64_t longer = 0;
  runs_same(meta, &longer);
  if (test_failed_) return;

  /* and DUMPI -> model -> DUMPI gives the same files */
  char out[4400];
  ASSERT_OK(convert(meta, dir, "thr2", out, sizeof out));
  for (int r = 0; r < 2; r++) {
    char x[4500], y[4500];
    bin_path(x, sizeof x, meta, r, "");
    bin_path(y, sizeof y, out, r, "");
    size_t na, nb;
    char *a = slurp(x, &na), *b = slurp(y, &nb);
    ASSERT_TRUE(a && b && na == nb && !memcmp(a, b, na));
    free(a);
    free(b);
    unlink(x);
    unlink(y);
  }
  unlink(meta);
  unlink(out);
  rmdir(dir);
  free(dir);
}

TEST(table) {
  ASSERT_EQ_STR(pt__dumpi_label_name(0), "MPI_Send");
  ASSERT_EQ_STR(pt__dumpi_label_name(290), "MPI_ALL_FUNCTIONS");
  ASSERT_EQ_I64(pt__dumpi_label_from_name("MPI_Init_thread"), 171);
  ASSERT_EQ_I64(pt__dumpi_label_from_name("MPIO_Testsome"), 289);
  ASSERT_EQ_I64(pt__dumpi_label_from_name("Function_exit"), 292);
  ASSERT_TRUE(pt__dumpi_func_get(290) == NULL);
  ASSERT_TRUE(pt__dumpi_func_get(293) == NULL);
  const pt__dumpi_func *f = pt__dumpi_func_get(55); /* Gatherv */
  ASSERT_EQ_STR(f->name, "MPI_Gatherv");
  ASSERT_EQ_U64(f->nargs, 9);
  ASSERT_TRUE(f->order != NULL);
  for (unsigned l = 0; l < PT__DUMPI_NLABELS; l++) {
    f = pt__dumpi_func_get(l);
    if (!f) continue;
    ASSERT_EQ_U64(f->label, l);
    ASSERT_TRUE(f->nargs <= PT__DUMPI_MAX_ARGS);
  }
}

/* A corrupt record whose count asks for 2^31-odd rows of a two-level
 * integer array (PT__DA_INTS2, MPI_Group_range_incl's ranges) printed
 * them all: `dump --style dumpi` of a 1,240-byte input did not end (found
 * by fuzz_dumpi; the file is in its seed corpus).  The rows are bounded by
 * the array the record holds. */
TEST(print_rows_bounded_by_the_record) {
  const char *src = getenv("PT_SRCDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fuzz/corpus/dumpi/ints2_rows_count.bin",
           src ? src : ".");
  FILE *in = fopen(path, "rb");
  ASSERT_TRUE(in != NULL);
  uint8_t data[4096];
  size_t size = fread(data, 1, sizeof data, in);
  fclose(in);
  ASSERT_TRUE(size > 16);
  uint32_t cpu = ((uint32_t)data[8] << 24) | ((uint32_t)data[9] << 16) |
                 ((uint32_t)data[10] << 8) | data[11];
  uint32_t wall = ((uint32_t)data[12] << 24) | ((uint32_t)data[13] << 16) |
                  ((uint32_t)data[14] << 8) | data[15];
  FILE *out = tmpfile();
  ASSERT_TRUE(out != NULL);
  alarm(60); /* before the fix the print never returned: die, not hang */
  pt__arena a = {0};
  size_t pos = 16;
  int calls = 0;
  while (pos < size && calls < 10000) {
    pt__dumpi_call c;
    char why[200];
    pt__arena_reset(&a);
    long n = pt__dumpi_decode(data + pos, size - pos, cpu, wall, &c, &a, why,
                              sizeof why);
    if (n <= 0) break;
    pt__dumpi_print_call(out, &c, NULL);
    /* (before: billions of rows; a bound far above what 1 KB can hold) */
    if (ftell(out) > (1L << 22)) break;
    pos += (size_t)n;
    calls++;
  }
  alarm(0);
  long printed = ftell(out);
  fclose(out);
  pt__arena_free(&a);
  ASSERT_TRUE(calls > 0);
  ASSERT_TRUE(printed < (1L << 22));
}


/* The reader maps the commonest calls (MPI_Isend, MPI_Irecv, MPI_Wait*,
 * MPI_Test*, fixed-argument collectives...) by fused decoder-mappers and
 * the others the generic way: both must give the same items, warnings and
 * errors.  Records of every function without strings, random arguments
 * (requests, communicators, datatypes and statuses from small sets, so
 * that completions, unknown ids, MPI_PROC_NULL and status error fields
 * occur), every kind of header (thread, cpu and wall times or not, status
 * bits, perf counters, clocks going back), one thread or three; the whole
 * image and cuts of it. */
static uint64_t fz_seed;
static uint32_t fz_rand(uint32_t n) {
  fz_seed = fz_seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return n ? (uint32_t)(fz_seed >> 33) % n : 0;
}
static uint64_t fz_whash;
static unsigned fz_nwarn;
static void fz_warn(void *u, const char *m) {
  (void)u;
  fz_nwarn++;
  for (; *m; m++) fz_whash = (fz_whash ^ (uint8_t)*m) * 0x100000001B3ULL;
}
static int fz_same(const uint8_t *d, size_t n, size_t *nev) {
  uint64_t dg[2], wh[2];
  unsigned nw[2];
  int rc[2];
  char msg[2][sizeof(((pt_error *)0)->msg)];
  for (int g = 0; g < 2; g++) {
    pt_error err;
    err.msg[0] = 0;
    fz_whash = 0;
    fz_nwarn = 0;
    rc[g] = pt__dumpi_parse_mem_digest(d, n, g, fz_warn, NULL, &dg[g], &err);
    wh[g] = fz_whash;
    nw[g] = fz_nwarn;
    memcpy(msg[g], err.msg, sizeof msg[g]);
  }
  if (nev) *nev = nw[0];
  if (rc[0] != rc[1] || dg[0] != dg[1] || wh[0] != wh[1] || nw[0] != nw[1] ||
      (rc[0] < 0 && strcmp(msg[0], msg[1]) != 0)) {
    fprintf(stderr, "  fused: rc %d digest %016llx warnings %u %s\n", rc[0],
            (unsigned long long)dg[0], nw[0], rc[0] < 0 ? msg[0] : "");
    fprintf(stderr, "  generic: rc %d digest %016llx warnings %u %s\n", rc[1],
            (unsigned long long)dg[1], nw[1], rc[1] < 0 ? msg[1] : "");
    return 0;
  }
  return 1;
}
static int64_t fz_scalar(const char *name) {
  static const int64_t comms[] = {2, 2, 2, 3, 4, 9};
  static const int64_t any[] = {-2, -1, 0, 1, 1, 2, 3, 5, 14, 100000};
  if (!strcmp(name, "request")) return 1 + fz_rand(6);
  if (!strcmp(name, "comm")) return comms[fz_rand(6)];
  if (!strcmp(name, "flag")) return fz_rand(3) != 0;
  if (!strcmp(name, "datatype") || strstr(name, "type")) return fz_rand(32);
  return any[fz_rand(10)];
}
static void fz_ints(pt__arena *a, pt__dumpi_val *v, uint32_t n, int status,
                    const char *name) {
  uint32_t m = status ? 5 * n : n;
  v->present = 1;
  v->i = n;
  v->na = m;
  v->a = pt__arena_alloc(a, 8u * m + 8);
  for (uint32_t j = 0; j < m; j++) {
    if (status) {
      static const int64_t err[] = {0, 0, 0, 0, 1, 15, -3};
      unsigned f = j % 5;
      v->a[j] = f == 0 ? (int64_t)fz_rand(100) : f == 1 ? (int64_t)fz_rand(5) - 1
                : f == 2 ? (fz_rand(8) == 0) : f == 3 ? err[fz_rand(7)]
                : (int64_t)fz_rand(4) - 1;
    } else {
      v->a[j] = !strcmp(name, "requests") ? 1 + fz_rand(6)
                : !strcmp(name, "indices") ? (int64_t)fz_rand(6) - 1
                                           : (int64_t)fz_rand(8);
    }
  }
}
/* A .bin image without index: magic, time offsets, records, end. */
static uint8_t *fz_image(int threads, size_t ncalls, size_t *n) {
  static const uint8_t masks[] = {0x4F, 0x4F, 0x4F, 0x4C, 0x4D, 0x0F, 0x0C,
                                  0x08, 0x04, 0x00, 0xCF, 0x4B, 0x47};
  pt__buf b = {0};
  pt__arena a = {0};
  uint8_t pre[16] = {0xFF, 0xAA, 0xDD, 0x44, 0x55, 0x4D, 0x50, 0x49,
                     0, 0, 0, 7, 0, 0, 0, 9};
  if (pt__buf_put(&b, pre, sizeof pre) < 0) abort();
  int64_t t = 40;
  for (size_t i = 0; i < ncalls; i++) {
    unsigned l;
    const pt__dumpi_func *f;
    int strings;
    do {
      l = fz_rand(PT__DUMPI_NLABELS); /* (291, 292: function enter and exit) */
      f = pt__dumpi_func_get(l);
      strings = 0;
      for (unsigned k = 0; f && k < f->nargs; k++) {
        unsigned w = pt__dumpi_atype_wire(f->args[k].type);
        strings |= w == PT__DW_STR || w == PT__DW_STRARR ||
                   w == PT__DW_STRARR2 || w == PT__DW_ARGV;
      }
    } while (!f || strings || pt__dcomm_label(l));
    pt__dumpi_call c;
    memset(&c, 0, sizeof c);
    pt__arena_reset(&a);
    c.label = (uint16_t)l;
    c.f = f;
    c.mask = masks[fz_rand(sizeof masks)];
    if (threads > 1) c.mask |= PT__DUMPI_MASK_THREAD;
    c.thread = (uint16_t)(c.mask & PT__DUMPI_MASK_THREAD ? fz_rand(threads) : 0);
    t += fz_rand(50) == 0 ? -3 : (int64_t)fz_rand(3); /* (back: clamped) */
    if (t < 10) t = 10;
    c.wall_start.sec = t;
    c.wall_start.nsec = fz_rand(1000000000);
    c.wall_stop.sec = t + fz_rand(2);
    c.wall_stop.nsec = fz_rand(1000000000);
    c.cpu_start.sec = t / 2;
    c.cpu_start.nsec = fz_rand(1000000000);
    c.cpu_stop.sec = t / 2 + fz_rand(2);
    c.cpu_stop.nsec = fz_rand(1000000000);
    if (c.mask & PT__DUMPI_MASK_PERF) {
      c.nperf = (uint8_t)fz_rand(3);
      c.perf_in = pt__arena_alloc(&a, 8u * c.nperf + 8);
      c.perf_out = pt__arena_alloc(&a, 8u * c.nperf + 8);
      for (unsigned j = 0; j < c.nperf; j++) {
        c.perf_in[j] = fz_rand(1000);
        c.perf_out[j] = fz_rand(1000);
      }
    }
    for (unsigned k = 0; k < f->nargs; k++) {
      const pt__dumpi_arg *g = &f->args[k];
      pt__dumpi_val *v = &c.v[k];
      unsigned w = pt__dumpi_atype_wire(g->type);
      if (pt__dumpi_wire_width(w)) {
        v->present = 1;
        v->i = fz_scalar(g->name);
        if (w == PT__DW_H16) v->i = (int16_t)v->i;
        if (w == PT__DW_U8) v->i = (uint8_t)v->i;
        if (w == PT__DW_S8) v->i = (int8_t)v->i;
      } else if (w == PT__DW_STATUS) {
        fz_ints(&a, v, g->type == PT__DA_STATUS ? fz_rand(4) != 0 : fz_rand(5),
                1, g->name);
      } else if (w == PT__DW_I32ARR || w == PT__DW_H16ARR ||
                 w == PT__DW_U8ARR) {
        fz_ints(&a, v, fz_rand(5), 0, g->name);
      } else { /* I32ARR2: rows of (length, elements) */
        uint32_t rows = fz_rand(3);
        v->present = 1;
        v->i = rows;
        v->a = pt__arena_alloc(&a, 8u * 3 * rows + 8);
        v->na = 0;
        for (uint32_t r = 0; r < rows; r++) {
          v->a[v->na++] = 1;
          v->a[v->na++] = fz_rand(9);
        }
      }
    }
    if (pt__dumpi_encode(&b, &c, 7, 9) < 0) abort();
  }
  uint8_t eos[2] = {PT__DUMPI_END_OF_STREAM >> 8, PT__DUMPI_END_OF_STREAM & 0xff};
  if (pt__buf_put(&b, eos, 2) < 0) abort();
  pt__arena_free(&a);
  *n = b.len;
  return b.p;
}

TEST(fused_mapping_equals_generic) {
  for (int threads = 1; threads <= 3; threads += 2) {
    for (uint64_t seed = 1; seed <= 4; seed++) {
      fz_seed = seed * 977 + (uint64_t)threads;
      size_t n;
      uint8_t *d = fz_image(threads, 4000, &n);
      size_t nw;
      if (!fz_same(d, n, &nw)) {
        free(d);
        TEST_FAIL_("threads %d seed %llu: the ways differ", threads,
                   (unsigned long long)seed);
      }
      if (seed == 1) ASSERT_TRUE(nw > 0); /* (warnings occur) */
      for (int c = 0; c < 60; c++) { /* cut anywhere */
        size_t cut = 16 + fz_rand((uint32_t)(n - 16));
        if (!fz_same(d, cut, NULL)) {
          free(d);
          TEST_FAIL_("threads %d seed %llu cut %zu: the ways differ", threads,
                     (unsigned long long)seed, cut);
        }
      }
      free(d);
    }
  }
  /* the test vectors, rank by rank */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *meta = case_file(cases[i], ".meta");
    for (int r = 0; r < 2; r++) {
      char bin[4300];
      bin_path(bin, sizeof bin, meta, r, "");
      size_t n;
      uint8_t *d = (uint8_t *)slurp(bin, &n);
      ASSERT_TRUE(d);
      if (!fz_same(d, n, NULL)) TEST_FAIL_("%s rank %d: the ways differ", cases[i], r);
      free(d);
    }
    free(meta);
  }
}

int main(void) {
  RUN(table);
  RUN(print_rows_bounded_by_the_record);
  RUN(threads_read_back);
  if (!have_testdata()) {
    printf("SKIP dumpi test vectors: %s not found (set PT_SRCDIR)\n",
           testdata);
    return test_summary();
  }
  RUN(footer_counts);
  RUN(print_records_equal_dumpi2ascii);
  RUN(decode_into_attributes);
  RUN(print_model_equal_dumpi2ascii);
  RUN(writer_byte_identical);
  RUN(model_round_trip_equal);
  RUN(semantic_events);
  RUN(batch_equals_next);
  RUN(runs_keep_each_location);
  RUN(single_bin);
  RUN(truncated_and_corrupt);
  RUN(walk_cut_counts_like_decoder);
  RUN(write_synthesised);
  RUN(fused_mapping_equals_generic);
  return test_summary();
}
