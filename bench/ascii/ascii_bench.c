/* paratrace-ascii-bench: parse speed of the ASCII trace readers.
 *
 * For every trace given on the command line it reads all items through
 * pt_source (our PICL or OTF 1.x reader, merged in time order) and, for
 * OTF traces, also all definitions, events, snapshots and statistics
 * through the real OTF library (libopen-trace-format, merged reader
 * OTF_Reader).  Each reading is repeated K times; the median wall time is
 * reported with the bytes on disk (every NAME.* file of an OTF trace; a
 * .z file counts compressed) and MB/s = bytes / median time / 1e6, one
 * JSON object per (trace, reader) on stdout.
 *
 *   paratrace-ascii-bench [--repeat K] [--plain-bytes B] [--batch] [--runs]
 *                         TRACE...
 *
 * --batch reads through pt_source_next_batch (items borrowed in place)
 * instead of pt_source_next (each item copied into the caller's).  --runs
 * (implies --batch) opens the source with pt_source_opts.runs: each
 * location's events in time order, locations interleaved in runs (a DUMPI
 * set: a rank's calls as its file holds them, without the merge).
 * --plain-bytes B also reports the rate over B bytes (the size of the
 * uncompressed form of a .z trace).  Any other format pt_source reads
 * works too: for a DUMPI trace set (NAME.meta, NAME-NNNN.bin) the bytes
 * are those of every NAME* file, and "calls" / "calls_per_s" report the
 * MPI calls read (one ENTER event each).  Only this program may exit(). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <otf.h>

#include "paratrace/paratrace.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

/* Bytes of the trace: for DIR/NAME.otf every DIR/NAME.* file, for
 * DIR/NAME.meta every DIR/NAME* file (the .bin files are NAME-NNNN.bin),
 * else the file itself.  0 on error. */
static uint64_t trace_bytes(const char *path) {
  struct stat st;
  int meta = has_suffix(path, ".meta");
  if (!has_suffix(path, ".otf") && !meta)
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
  char dir[4096], stem[1024];
  const char *slash = strrchr(path, '/');
  if (slash) {
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    snprintf(stem, sizeof stem, "%s", slash + 1);
  } else {
    snprintf(dir, sizeof dir, ".");
    snprintf(stem, sizeof stem, "%s", path);
  }
  if (meta) stem[strlen(stem) - 5] = '\0'; /* keep "NAME" */
  else stem[strlen(stem) - 3] = '\0';     /* keep "NAME." */
  DIR *d = opendir(dir);
  if (!d) return 0;
  uint64_t total = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, stem, strlen(stem))) continue;
    char p[8192];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) total += (uint64_t)st.st_size;
  }
  closedir(d);
  return total;
}

static int64_t g_enters; /* ENTER events of the last read_ours */
static int g_batch;      /* --batch: pt_source_next_batch */
static int g_runs;       /* --runs: pt_source_opts.runs */

/* One full read through pt_source; returns the item count or -1. */
static int64_t read_ours(const char *path) {
  pt_source *s;
  pt_error err = {0};
  pt_source_opts o = {0};
  o.warn = NULL;
  o.runs = g_runs;
  if (pt_source_open(&s, path, &o, &err) != PT_OK) {
    fprintf(stderr, "paratrace-ascii-bench: %s: %s\n", path, err.msg);
    return -1;
  }
  pt_item it;
  int64_t n = 0;
  int rc;
  int64_t enters = 0;
  if (g_batch) {
    const pt_item *its;
    size_t k;
    while ((rc = pt_source_next_batch(s, &its, &k)) == PT_OK)
      for (size_t j = 0; j < k; j++) {
        n++;
        enters += its[j].type == PT_ITEM_EVENT &&
                  its[j].u.event.kind == PT_EV_ENTER;
      }
  } else {
    while ((rc = pt_source_next(s, &it)) == PT_OK) {
      n++;
      enters += it.type == PT_ITEM_EVENT && it.u.event.kind == PT_EV_ENTER;
    }
  }
  g_enters = enters;
  if (rc != PT_END) {
    fprintf(stderr, "paratrace-ascii-bench: %s\n", pt_source_errmsg(s));
    n = -1;
  }
  pt_source_close(s);
  return n;
}

/* The real OTF library: count what its handlers see. */
static int h_enter(void *u, uint64_t t, uint32_t f, uint32_t p, uint32_t s, OTF_KeyValueList *l) {
  (void)t, (void)f, (void)p, (void)s, (void)l;
  ++*(uint64_t *)u;
  return OTF_RETURN_OK;
}
static int h_msg(void *u, uint64_t t, uint32_t a, uint32_t b, uint32_t g, uint32_t ty,
                 uint32_t len, uint32_t s, OTF_KeyValueList *l) {
  (void)t, (void)a, (void)b, (void)g, (void)ty, (void)len, (void)s, (void)l;
  ++*(uint64_t *)u;
  return OTF_RETURN_OK;
}
static int h_counter(void *u, uint64_t t, uint32_t p, uint32_t c, uint64_t v, OTF_KeyValueList *l) {
  (void)t, (void)p, (void)c, (void)v, (void)l;
  ++*(uint64_t *)u;
  return OTF_RETURN_OK;
}

/* The OTF API takes handlers as a generic function pointer; the library
 * calls each with its record type's signature. */
#define FP(f) ((OTF_FunctionPointer *)(void (*)(void))(f))

static int64_t read_libotf(const char *path) {
  OTF_FileManager *fm = OTF_FileManager_open(64);
  if (!fm) return -1;
  OTF_Reader *r = OTF_Reader_open(path, fm);
  if (!r) {
    fprintf(stderr, "paratrace-ascii-bench: %s: OTF_Reader_open failed\n", path);
    OTF_FileManager_close(fm);
    return -1;
  }
  OTF_HandlerArray *h = OTF_HandlerArray_open();
  uint64_t seen = 0;
  OTF_HandlerArray_setHandler(h, FP(h_enter), OTF_ENTER_RECORD);
  OTF_HandlerArray_setHandler(h, FP(h_enter), OTF_LEAVE_RECORD);
  OTF_HandlerArray_setHandler(h, FP(h_msg), OTF_SEND_RECORD);
  OTF_HandlerArray_setHandler(h, FP(h_msg), OTF_RECEIVE_RECORD);
  OTF_HandlerArray_setHandler(h, FP(h_counter), OTF_COUNTER_RECORD);
  OTF_HandlerArray_setFirstHandlerArg(h, &seen, OTF_ENTER_RECORD);
  OTF_HandlerArray_setFirstHandlerArg(h, &seen, OTF_LEAVE_RECORD);
  OTF_HandlerArray_setFirstHandlerArg(h, &seen, OTF_SEND_RECORD);
  OTF_HandlerArray_setFirstHandlerArg(h, &seen, OTF_RECEIVE_RECORD);
  OTF_HandlerArray_setFirstHandlerArg(h, &seen, OTF_COUNTER_RECORD);
  uint64_t n = 0, k;
  int bad = 0;
  if ((k = OTF_Reader_readDefinitions(r, h)) == OTF_READ_ERROR) bad = 1; else n += k;
  if ((k = OTF_Reader_readEvents(r, h)) == OTF_READ_ERROR) bad = 1; else n += k;
  if ((k = OTF_Reader_readSnapshots(r, h)) == OTF_READ_ERROR) bad = 1; else n += k;
  if ((k = OTF_Reader_readStatistics(r, h)) == OTF_READ_ERROR) bad = 1; else n += k;
  OTF_HandlerArray_close(h);
  OTF_Reader_close(r);
  OTF_FileManager_close(fm);
  if (bad) {
    fprintf(stderr, "paratrace-ascii-bench: %s: libotf read error\n", path);
    return -1;
  }
  (void)seen;
  return (int64_t)n;
}

static void report(const char *path, const char *reader, int64_t (*fn)(const char *),
                   int repeat, uint64_t bytes, uint64_t plain) {
  double *t = calloc((size_t)repeat, sizeof *t);
  if (!t) exit(2);
  int64_t n = 0;
  for (int i = 0; i < repeat; i++) {
    double t0 = now();
    n = fn(path);
    t[i] = now() - t0;
    if (n < 0) {
      printf("{\"trace\":\"%s\",\"reader\":\"%s\",\"error\":\"read failed\"}\n", path, reader);
      fflush(stdout);
      free(t);
      return;
    }
  }
  qsort(t, (size_t)repeat, sizeof *t, cmp_double);
  double med = t[repeat / 2];
  printf("{\"trace\":\"%s\",\"reader\":\"%s\",\"bytes\":%llu,\"records\":%lld,"
         "\"median_s\":%.4f,\"mb_s\":%.1f",
         path, reader, (unsigned long long)bytes, (long long)n, med, (double)bytes / med / 1e6);
  if (plain) printf(",\"plain_bytes\":%llu,\"plain_mb_s\":%.1f", (unsigned long long)plain,
                    (double)plain / med / 1e6);
  if (fn == read_ours && has_suffix(path, ".meta"))
    printf(",\"calls\":%lld,\"calls_per_s\":%.0f", (long long)g_enters,
           (double)g_enters / med);
  printf("}\n");
  fflush(stdout);
  free(t);
}

int main(int argc, char **argv) {
  int repeat = 3;
  uint64_t plain = 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--batch")) g_batch = 1;
    else if (!strcmp(argv[i], "--runs")) g_batch = g_runs = 1;
    else if (!strcmp(argv[i], "--plain-bytes") && i + 1 < argc)
      plain = strtoull(argv[++i], NULL, 10);
    else {
      fprintf(stderr, "usage: paratrace-ascii-bench [--repeat K] [--plain-bytes B] [--batch] [--runs] TRACE...\n");
      return 2;
    }
  }
  if (repeat < 1 || i >= argc) {
    fprintf(stderr, "usage: paratrace-ascii-bench [--repeat K] [--plain-bytes B] [--batch] [--runs] TRACE...\n");
    return 2;
  }
  for (; i < argc; i++) {
    uint64_t bytes = trace_bytes(argv[i]);
    if (!bytes) {
      fprintf(stderr, "paratrace-ascii-bench: %s: no such trace\n", argv[i]);
      return 1;
    }
    report(argv[i], g_runs ? "paratrace-runs" : g_batch ? "paratrace-batch" : "paratrace", read_ours, repeat, bytes, plain);
    if (has_suffix(argv[i], ".otf")) report(argv[i], "libotf", read_libotf, repeat, bytes, plain);
  }
  return 0;
}
