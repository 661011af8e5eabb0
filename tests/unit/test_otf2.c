/* OTF2 bridge (libotf2) against the archives in
 * $PT_SRCDIR/../shared/testdata/otf2 (written by libotf2 3.0.2, each with
 * its otf2-print output), and against otf2-print itself:
 *
 * - every test vector reads, with as many records as otf2-print shows;
 * - OTF2 -> PTF -> OTF2: otf2-print (events) and otf2-print -G
 *   (definitions) of the copy equal those of the original after the
 *   normalisation described at normalise();
 * - traces from other sources (synthetic, PICL, DUMPI, OTF) become archives
 *   otf2-print reads with exit status 0 and without complaints;
 * - bad input (missing, truncated, garbage) is an error naming the file. */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paratrace/generate.h"
#include "paratrace/paratrace.h"
#include "test.h"

static char testdata[4096];
static const char *const vectors[] = {"tiny",    "mapped", "attributes",
                                      "metrics", "mpi",    "mpi_extras"};
enum { NVEC = sizeof vectors / sizeof vectors[0] };

static int have_testdata(void) {
  const char *src = getenv("PT_SRCDIR");
  snprintf(testdata, sizeof testdata, "%s/../shared/testdata",
           src && *src ? src : ".");
  char p[4200];
  snprintf(p, sizeof p, "%s/otf2", testdata);
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int have_otf2_print(void) {
  return system("otf2-print --version >/dev/null 2>&1") == 0;
}

static void anchor_of(const char *v, char *out, size_t n) {
  snprintf(out, n, "%s/otf2/%s/trace/traces.otf2", testdata, v);
}

/* Run `cmd`; its standard output in *out (malloc'd, NUL-terminated).
 * Returns the exit status, or -1 if it could not run or was killed. */
static int run(const char *cmd, char **out) {
  *out = NULL;
  FILE *f = popen(cmd, "r");
  if (!f) return -1;
  size_t cap = 1 << 16, len = 0;
  char *b = malloc(cap);
  if (!b) abort();
  size_t r;
  while ((r = fread(b + len, 1, cap - len - 1, f)) > 0) {
    len += r;
    if (cap - len < 2) {
      cap *= 2;
      b = realloc(b, cap);
      if (!b) abort();
    }
  }
  b[len] = 0;
  *out = b;
  int st = pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* otf2-print [flags] path; stderr goes to `errfile`. */
static int otf2_print(const char *flags, const char *path, const char *errfile,
                      char **out) {
  char cmd[9000];
  snprintf(cmd, sizeof cmd, "otf2-print %s '%s' 2>'%s'", flags, path, errfile);
  return run(cmd, out);
}

static long file_size(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The normaliser.  otf2-print prints every reference to a definition as
 * its name or value followed by " <id>", and every definition line as
 * "KIND <spaces> id  fields".  A conversion may renumber definitions
 * (strings are re-interned in first-use order and deduplicated; other ids
 * stay dense in the source's order), so:
 *   1. every " <digits>" is removed: the referenced name / value printed
 *      next to it is still compared;
 *   2. definitions mode (-G): the id column of a definition line is
 *      removed ("STRING   12  \"x\"" -> "STRING  \"x\"") and the lines are
 *      sorted, so the order of definitions (strings above all) does not
 *      matter but their multiset does;
 *   3. events mode: lines stay in order (the merged global time order is
 *      part of what is compared; so is the snapshot section).
 * Location ids, ranks, request ids, metric refs ("Metric: 0") and every
 * value stay: the sink keeps location ids and the source's order of the
 * other definitions, so they must be equal as printed.  Returns a malloc'd
 * string. */
static char *normalise(const char *text, int defs) {
  size_t n = strlen(text);
  char *buf = malloc(n + 1);
  if (!buf) abort();
  size_t nl = 0, capl = 256;
  char **lines = malloc(capl * sizeof *lines);
  if (!lines) abort();
  const char *p = text;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char *o = malloc(len + 1);
    if (!o) abort();
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
      if (p[i] == ' ' && i + 2 < len && p[i + 1] == '<' &&
          p[i + 2] >= '0' && p[i + 2] <= '9') {
        size_t j = i + 2;
        while (j < len && p[j] >= '0' && p[j] <= '9') j++;
        if (j < len && p[j] == '>') {
          i = j;
          continue;
        }
      }
      o[k++] = p[i];
    }
    o[k] = 0;
    if (defs) { /* "KIND   <spaces> 123  rest" -> "KIND  rest" */
      size_t i = 0;
      while (o[i] == '_' || (o[i] >= 'A' && o[i] <= 'Z')) i++;
      size_t j = i;
      while (o[j] == ' ') j++;
      size_t d = j;
      while (o[d] >= '0' && o[d] <= '9') d++;
      if (i > 0 && j > i && d > j && o[d] == ' ' && o[d + 1] == ' ')
        memmove(o + i, o + d, strlen(o + d) + 1);
    }
    if (nl == capl) {
      capl *= 2;
      lines = realloc(lines, capl * sizeof *lines);
      if (!lines) abort();
    }
    lines[nl++] = o;
    p = e ? e + 1 : p + len;
  }
  if (defs) qsort(lines, nl, sizeof *lines, cmp_str);
  size_t total = 0;
  for (size_t i = 0; i < nl; i++) total += strlen(lines[i]) + 1;
  buf = realloc(buf, total + 1);
  if (!buf) abort();
  size_t w = 0;
  for (size_t i = 0; i < nl; i++) {
    size_t l = strlen(lines[i]);
    memcpy(buf + w, lines[i], l);
    buf[w + l] = '\n';
    w += l + 1;
    free(lines[i]);
  }
  buf[w] = 0;
  free(lines);
  return buf;
}

/* First differing line of two texts, for the failure message. */
static void first_diff(const char *a, const char *b, char *out, size_t n) {
  int line = 1;
  while (*a && *a == *b) {
    if (*a == '\n') line++;
    a++, b++;
  }
  while (line > 1 && a[-1] != '\n') a--, b--;
  snprintf(out, n, "line %d:\n    got:  %.*s\n    want: %.*s", line,
           (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

/* in -> out through the public API (overwriting). */
static int convert(const char *in, const char *out, char *msg, size_t n) {
  pt_source *src;
  pt_sink *dst;
  pt_error err = {0};
  int rc = pt_source_open(&src, in, NULL, &err);
  if (rc < 0) {
    snprintf(msg, n, "%s", err.msg);
    return rc;
  }
  pt_sink_opts so = {0};
  so.overwrite = 1;
  rc = pt_sink_open(&dst, out, &so, &err);
  if (rc < 0) {
    snprintf(msg, n, "%s", err.msg);
    pt_source_close(src);
    return rc;
  }
  rc = pt_pipe(src, dst, NULL, NULL, &err);
  pt_source_close(src);
  if (rc < 0) {
    snprintf(msg, n, "%s", err.msg);
    pt_sink_abort(dst);
    return rc;
  }
  rc = pt_sink_close(dst, &err);
  if (rc < 0) snprintf(msg, n, "%s", err.msg);
  return rc;
}

/* Event records otf2-print shows (event lines of the Events section). */
static long print_records(const char *text) {
  const char *p = strstr(text, "=== Events");
  long n = 0;
  if (!p) return -1;
  p = strchr(p, '\n');
  int started = 0;
  while (p && *++p) {
    if (strncmp(p, "===", 3) == 0) break;
    if (strncmp(p, "-----", 5) == 0) started = 1;
    else if (started && *p >= 'A' && *p <= 'Z') n++;
    p = strchr(p, '\n');
  }
  return n;
}

/* ---- tests ---------------------------------------------------------------- */

/* Every vector reads; one model event per OTF2 record except multi-member
 * Metric records (one model METRIC per member, tagged "otf2:metric"). */
TEST(every_vector_reads) {
  for (int v = 0; v < NVEC; v++) {
    char path[4400], ref[4400];
    anchor_of(vectors[v], path, sizeof path);
    snprintf(ref, sizeof ref, "%s/otf2/%s/print.txt", testdata, vectors[v]);
    char *want = NULL;
    char cmd[4500];
    snprintf(cmd, sizeof cmd, "cat '%s'", ref);
    ASSERT_EQ_I64(run(cmd, &want), 0);
    long want_records = print_records(want);
    free(want);
    pt_source *s;
    pt_error err = {0};
    ASSERT_OK(pt_source_open(&s, path, NULL, &err));
    ASSERT_EQ_STR(pt_source_format(s), "otf2");
    pt_item it;
    int rc;
    long records = 0, locations = 0, defs_events = 0;
    uint64_t metric_key = 0, metric_loc = UINT64_MAX, metric_time = 0;
    uint64_t metric_attr = UINT64_MAX;
    while ((rc = pt_source_next(s, &it)) == PT_OK) {
      if (it.type == PT_ITEM_DEF && it.u.def.kind == PT_DEF_LOCATION) {
        locations++;
        defs_events += it.u.def.i1;
      }
      if (it.type == PT_ITEM_DEF && it.u.def.kind == PT_DEF_ATTRIBUTE &&
          it.u.def.name && strcmp(it.u.def.name, "otf2:metric") == 0)
        metric_attr = it.u.def.id;
      if (it.type != PT_ITEM_EVENT) continue;
      const pt_event *e = &it.u.event;
      if (e->kind != PT_EV_METRIC) {
        records++;
        metric_loc = UINT64_MAX;
        continue;
      }
      uint64_t key = UINT64_MAX;
      for (uint32_t i = 0; i < e->nattrs; i++)
        if (e->attrs[i].key == metric_attr) key = e->attrs[i].val.v.u;
      ASSERT_TRUE(key != UINT64_MAX); /* every sample is tagged */
      if (!(metric_loc == e->location && metric_time == e->time &&
            metric_key == key))
        records++;
      metric_loc = e->location, metric_time = e->time, metric_key = key;
    }
    if (rc != PT_END) fprintf(stderr, "  %s\n", pt_source_errmsg(s));
    ASSERT_STATUS(rc, PT_END);
    pt_source_close(s);
    ASSERT_TRUE(locations > 0);
    ASSERT_EQ_I64(records, want_records);
    ASSERT_EQ_I64(defs_events, want_records);
  }
}

/* OTF2 -> PTF -> OTF2: otf2-print output equal up to definition ids. */
TEST(round_trip_print_equal) {
  char *dir = test_tmpdir("otf2rt");
  for (int v = 0; v < NVEC; v++) {
    char in[4400], ptf[4400], out[4400], msg[1024], errf[4400];
    anchor_of(vectors[v], in, sizeof in);
    snprintf(ptf, sizeof ptf, "%s/%s.ptf", dir, vectors[v]);
    snprintf(out, sizeof out, "%s/%s.otf2", dir, vectors[v]);
    snprintf(errf, sizeof errf, "%s/stderr", dir);
    int rc = convert(in, ptf, msg, sizeof msg);
    if (rc < 0) fprintf(stderr, "  %s: %s\n", vectors[v], msg);
    ASSERT_OK(rc);
    rc = convert(ptf, out, msg, sizeof msg);
    if (rc < 0) fprintf(stderr, "  %s: %s\n", vectors[v], msg);
    ASSERT_OK(rc);
    static const char *const flags[2] = {"", "-G"};
    for (int m = 0; m < 2; m++) {
      char *a = NULL, *b = NULL;
      ASSERT_EQ_I64(otf2_print(flags[m], out, errf, &a), 0);
      ASSERT_EQ_I64(file_size(errf), 0); /* no warnings either */
      ASSERT_EQ_I64(otf2_print(flags[m], in, errf, &b), 0);
      char *na = normalise(a, m), *nb = normalise(b, m);
      int same = strcmp(na, nb) == 0;
      if (!same) {
        char d[2048];
        first_diff(na, nb, d, sizeof d);
        fprintf(stderr, "  %s otf2-print %s differs at %s\n", vectors[v],
                flags[m], d);
      }
      free(a), free(b), free(na), free(nb);
      ASSERT_TRUE(same);
    }
  }
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ASSERT_EQ_I64(system(cmd), 0);
  free(dir);
}

/* The normaliser itself: ids go, names and values stay. */
TEST(normaliser) {
  char *a = normalise("STRING                                 12  \"x\"\n"
                      "REGION                                 0  Name: "
                      "\"main\" <1>, Begin: 10\n",
                      1);
  ASSERT_EQ_STR(a, "REGION  Name: \"main\", Begin: 10\nSTRING  \"x\"\n");
  free(a);
  a = normalise("ENTER   0   5  Region: \"f\" <3>\nX <a> <12\n"
                "LEAVE   0   1  Region: \"f\" <3>\n",
                0);
  ASSERT_EQ_STR(a, "ENTER   0   5  Region: \"f\"\nX <a> <12\n"
                   "LEAVE   0   1  Region: \"f\"\n");
  free(a);
}

/* A synthetic trace straight into the sink; otf2-print reads it. */
TEST(synthetic_to_otf2) {
  char *dir = test_tmpdir("otf2gen");
  char out[4400], errf[4400];
  snprintf(out, sizeof out, "%s/gen.otf2", dir);
  snprintf(errf, sizeof errf, "%s/stderr", dir);
  pt_gen_opts go = {0};
  go.locations = 4;
  go.events = 3000;
  go.seed = 7;
  pt_gen *g;
  ASSERT_OK(pt_gen_create(&g, &go));
  pt_sink *k;
  pt_error err = {0};
  ASSERT_OK(pt_sink_open(&k, out, NULL, &err));
  pt_item it;
  for (size_t i = 0; i < pt_gen_ndefs(g); i++) {
    it.type = PT_ITEM_DEF;
    it.u.def = *pt_gen_def(g, i);
    ASSERT_OK(pt_sink_write(k, &it));
  }
  /* every region again as a local definition of stream 1 (each rank of a
   * recorded trace defines the regions it uses): written once */
  long nregions = 0;
  for (size_t i = 0; i < pt_gen_ndefs(g); i++) {
    if (pt_gen_def(g, i)->kind != PT_DEF_REGION) continue;
    it.type = PT_ITEM_DEF;
    it.u.def = *pt_gen_def(g, i);
    it.u.def.scope = 2;
    ASSERT_OK(pt_sink_write(k, &it));
    nregions++;
  }
  ASSERT_TRUE(nregions > 0);
  for (uint64_t l = 0; l < go.locations; l++) {
    it.type = PT_ITEM_EVENT;
    while (pt_gen_next(g, l, &it.u.event) == PT_OK) {
      int rc = pt_sink_write(k, &it);
      if (rc < 0) fprintf(stderr, "  %s\n", pt_sink_errmsg(k));
      ASSERT_OK(rc);
    }
  }
  pt_gen_destroy(g);
  ASSERT_OK(pt_sink_close(k, &err));
  char *o = NULL;
  ASSERT_EQ_I64(otf2_print("", out, errf, &o), 0);
  ASSERT_EQ_I64(file_size(errf), 0);
  ASSERT_EQ_I64(print_records(o), (long)(go.locations * go.events));
  ASSERT_TRUE(strstr(o, "MPI_SEND") != NULL);
  ASSERT_TRUE(strstr(o, "INVALID") == NULL); /* every peer resolves */
  free(o);
  ASSERT_EQ_I64(otf2_print("-G", out, errf, &o), 0);
  ASSERT_EQ_I64(file_size(errf), 0); /* no "duplicate Region definition" */
  ASSERT_CONTAINS(o, "COMM_LOCATIONS");
  ASSERT_CONTAINS(o, "MPI_COMM_WORLD");
  ASSERT_CONTAINS(o, "# Events: 3000");
  long nr = 0;
  for (const char *p = o; (p = strstr(p, "\nREGION ")); p++) nr++;
  ASSERT_EQ_I64(nr, nregions);
  free(o);
  /* and back: the model sees the same number of events */
  pt_source *s;
  ASSERT_OK(pt_source_open(&s, out, NULL, &err));
  long n = 0;
  int rc;
  while ((rc = pt_source_next(s, &it)) == PT_OK) n += it.type == PT_ITEM_EVENT;
  ASSERT_STATUS(rc, PT_END);
  pt_source_close(s);
  ASSERT_EQ_I64(n, (long)(go.locations * go.events));
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ASSERT_EQ_I64(system(cmd), 0);
  free(dir);
}

/* PICL, DUMPI and OTF test vectors -> OTF2 that otf2-print reads. */
TEST(other_formats_to_otf2) {
  static const char *const ins[] = {
      "picl/pingpong.trf", "picl/reduce_mcast.trf", "picl/ring_async_sync.trf",
      "dumpi/a_pingpong/a_pingpong-2026.11.22.07.42.02.meta",
      "dumpi/c_collectives/c_collectives-2026.11.22.07.42.11.meta",
      "otf/b_msgs_2streams/trace/trace_b.otf",
      "otf/d_snaps_stats/trace/trace_d.otf"};
  char *dir = test_tmpdir("otf2oth");
  for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++) {
    char in[4400], out[4400], errf[4400], msg[1024];
    snprintf(in, sizeof in, "%s/%s", testdata, ins[i]);
    if (file_size(in) < 0) {
      printf("  (skipped %s: not found)\n", ins[i]);
      continue;
    }
    snprintf(out, sizeof out, "%s/t%zu.otf2", dir, i);
    snprintf(errf, sizeof errf, "%s/stderr", dir);
    int rc = convert(in, out, msg, sizeof msg);
    if (rc < 0) fprintf(stderr, "  %s: %s\n", ins[i], msg);
    ASSERT_OK(rc);
    char *o = NULL;
    ASSERT_EQ_I64(otf2_print("", out, errf, &o), 0);
    ASSERT_EQ_I64(file_size(errf), 0);
    ASSERT_TRUE(print_records(o) > 0);
    if (strstr(o, "INVALID")) fprintf(stderr, "  %s: INVALID reference\n", ins[i]);
    ASSERT_TRUE(strstr(o, "INVALID") == NULL);
    free(o);
    ASSERT_EQ_I64(otf2_print("-G", out, errf, &o), 0);
    ASSERT_EQ_I64(file_size(errf), 0);
    ASSERT_CONTAINS(o, "CLOCK_PROPERTIES");
    ASSERT_CONTAINS(o, "SYSTEM_TREE_NODE");
    ASSERT_CONTAINS(o, "LOCATION_GROUP");
    free(o);
  }
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ASSERT_EQ_I64(system(cmd), 0);
  free(dir);
}

/* Read every item; the final status. */
static int drain(const char *path, char *msg, size_t n) {
  pt_source *s;
  pt_error err = {0};
  int rc = pt_source_open(&s, path, NULL, &err);
  if (rc < 0) {
    snprintf(msg, n, "%s", err.msg);
    return rc;
  }
  pt_item it;
  while ((rc = pt_source_next(s, &it)) == PT_OK) {
  }
  snprintf(msg, n, "%s", pt_source_errmsg(s));
  pt_source_close(s);
  return rc;
}

TEST(bad_input) {
  char *dir = test_tmpdir("otf2bad");
  char path[4600], msg[1024], cmd[9000];
  /* missing */
  snprintf(path, sizeof path, "%s/none.otf2", dir);
  ASSERT_STATUS(drain(path, msg, sizeof msg), PT_ENOTFOUND);
  ASSERT_CONTAINS(msg, path);
  /* garbage anchor (with and without the magic) */
  static const char *const garbage[] = {"hello, this is not OTF2",
                                        "\003BOTF2\001\002garbage"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/g%d.otf2", dir, i);
    FILE *f = fopen(path, "wb");
    ASSERT_TRUE(f != NULL);
    fputs(garbage[i], f);
    fclose(f);
    pt_source_opts so = {0};
    so.format = "otf2";
    pt_source *s = NULL;
    pt_error err = {0};
    int rc = pt_source_open(&s, path, &so, &err);
    ASSERT_TRUE(rc < 0);
    ASSERT_CONTAINS(err.msg, path);
  }
  /* a copy of the mpi vector, then broken in several ways */
  static const char *const breaks[] = {
      "truncate -s 200 '%s/traces/0.evt'", "rm '%s/traces/1.evt'",
      "truncate -s 100 '%s/traces.def'", "rm '%s/traces.def'",
      "truncate -s 40 '%s/traces.otf2'", "truncate -s 10 '%s/traces/2.def'"};
  static const char *const names[] = {"traces/", "1.evt", "traces.def",
                                      "traces.def", "traces.otf2", "2.def"};
  for (size_t i = 0; i < sizeof breaks / sizeof breaks[0]; i++) {
    char copy[4400];
    snprintf(copy, sizeof copy, "%s/c%zu", dir, i);
    snprintf(cmd, sizeof cmd, "cp -r '%s/otf2/mpi/trace' '%s' && ", testdata,
             copy);
    size_t l = strlen(cmd);
    snprintf(cmd + l, sizeof cmd - l, breaks[i], copy);
    ASSERT_EQ_I64(system(cmd), 0);
    snprintf(path, sizeof path, "%s/traces.otf2", copy);
    int rc = drain(path, msg, sizeof msg);
    if (rc >= 0) fprintf(stderr, "  break %zu (%s) read without error: %d %s\n", i, cmd, rc, msg);
    ASSERT_TRUE(rc < 0);
    ASSERT_CONTAINS(msg, copy);
    ASSERT_CONTAINS(msg, names[i]);
  }
  /* the sink: a time going backwards on one location is an error */
  snprintf(path, sizeof path, "%s/order.otf2", dir);
  pt_sink *k;
  pt_error err = {0};
  ASSERT_OK(pt_sink_open(&k, path, NULL, &err));
  pt_item it;
  it.type = PT_ITEM_EVENT;
  pt_event_init(&it.u.event, PT_EV_ENTER, 100, 0);
  ASSERT_OK(pt_sink_write(k, &it));
  pt_event_init(&it.u.event, PT_EV_LEAVE, 50, 0);
  ASSERT_STATUS(pt_sink_write(k, &it), PT_EORDER);
  ASSERT_CONTAINS(pt_sink_errmsg(k), "location 0");
  pt_sink_abort(k);
  ASSERT_TRUE(file_size(path) < 0);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ASSERT_EQ_I64(system(cmd), 0);
  free(dir);
}

int main(void) {
  RUN(normaliser);
  if (!have_otf2_print()) {
    printf("SKIP otf2 tests: otf2-print not found (install otf2-tools)\n");
    return test_summary();
  }
  RUN(synthetic_to_otf2);
  if (!have_testdata()) {
    printf("SKIP otf2 test vectors: %s/otf2 not found (set PT_SRCDIR)\n",
           testdata);
    return test_summary();
  }
  RUN(every_vector_reads);
  RUN(round_trip_print_equal);
  RUN(other_formats_to_otf2);
  RUN(bad_input);
  return test_summary();
}
