/* paratrace info: what a trace holds and what it costs on disk. */
#include <dirent.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "core/util.h"

static const char help[] =
    "usage: paratrace info [--json] [--fast] TRACE\n"
    "\n"
    "Summarise a trace: its format, streams, locations, events per kind,\n"
    "time span (ticks and seconds, using the clock definition), bytes on\n"
    "disk, raw (uncompressed) bytes and compression ratio of a native\n"
    "archive, and definitions per kind.\n"
    "\n"
    "options:\n"
    "  --json    print one JSON object instead of text\n"
    "  --fast    do not read the events; event counts and the time span\n"
    "            come from the stream index (native archives only)\n"
    "  -q, --quiet\n"
    "  -h, --help\n";

enum { O_JSON = 1, O_FAST };
static const cli_option options[] = {
    {"json", 0, 0, O_JSON}, {"fast", 0, 0, O_FAST}, {0, 0, 0, 0}};

/* A set of u64 (open addressing) to count distinct locations. */
typedef struct u64set {
  uint64_t *keys;
  unsigned char *used;
  size_t cap, len;
} u64set;

static size_t set_slot(const u64set *s, uint64_t k) {
  uint64_t h = k * UINT64_C(0x9e3779b97f4a7c15);
  size_t i = (size_t)(h >> 20) & (s->cap - 1);
  while (s->used[i] && s->keys[i] != k) i = (i + 1) & (s->cap - 1);
  return i;
}

static int set_add(u64set *s, uint64_t k) {
  if ((s->len + 1) * 2 > s->cap) {
    u64set n = {0};
    n.cap = s->cap ? s->cap * 2 : 64;
    n.keys = calloc(n.cap, sizeof *n.keys);
    n.used = calloc(n.cap, 1);
    if (!n.keys || !n.used) {
      free(n.keys);
      free(n.used);
      return -1;
    }
    for (size_t i = 0; i < s->cap; i++)
      if (s->used[i]) {
        size_t j = set_slot(&n, s->keys[i]);
        n.used[j] = 1;
        n.keys[j] = s->keys[i];
        n.len++;
      }
    free(s->keys);
    free(s->used);
    *s = n;
  }
  size_t i = set_slot(s, k);
  if (!s->used[i]) {
    s->used[i] = 1;
    s->keys[i] = k;
    s->len++;
  }
  return 0;
}

static uint64_t disk_bytes;
static int add_size(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw) {
  (void)path;
  (void)ftw;
  if (flag == FTW_F) disk_bytes += (uint64_t)st->st_size;
  return 0;
}

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Is a file of the trace's stem one of that format's own files? */
static int own_file(const char *name, const char *format) {
  if (!strcmp(format, "dumpi")) return ends_with(name, ".bin");
  static const char *const otf[] = {".def", ".events", ".snaps", ".stats",
                                    ".marker", ".thumb"};
  for (size_t i = 0; i < sizeof otf / sizeof *otf; i++) {
    char z[16];
    snprintf(z, sizeof z, "%s.z", otf[i]);
    if (ends_with(name, otf[i]) || ends_with(name, z)) return 1;
  }
  return 0;
}

/* Multi-file formats name their other files after the one given (DUMPI:
 * STEM-0000.bin ...; OTF 1.x: STEM.0.def, STEM.1.events ...; OTF2:
 * STEM.def, STEM.marker, STEM.N.thumb): their sizes. */
static uint64_t sibling_bytes(const char *path, const char *format) {
  if (!format || (strcmp(format, "dumpi") && strcmp(format, "otf") &&
                  strcmp(format, "otf2")))
    return 0;
  char dir[4096], stem[1024];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1,
           slash ? path : ".");
  if (slash && slash == path) snprintf(dir, sizeof dir, "/");
  snprintf(stem, sizeof stem, "%s", slash ? slash + 1 : path);
  char *dot = strrchr(stem, '.');
  if (dot) *dot = 0;
  size_t n = strlen(stem);
  uint64_t total = 0;
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, stem, n) || (e->d_name[n] != '.' && e->d_name[n] != '-'))
      continue;
    if (!strcmp(e->d_name, slash ? slash + 1 : path)) continue;
    if (!own_file(e->d_name, format)) continue;
    char full[8192];
    struct stat st;
    snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
    if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) total += (uint64_t)st.st_size;
  }
  closedir(d);
  return total;
}

static void json_str(const char *s) { pt__json_str(stdout, s, 0); }

typedef struct info {
  const char *path, *format;
  uint64_t ev_count[PT_EV__COUNT], events;
  /* definitions per kind: distinct ids (a recorded trace defines a region
   * again in each process's stream); records without an id each count */
  uint64_t def_count[PT_DEF__COUNT], defs;
  u64set def_ids[PT_DEF__COUNT];
  uint64_t first, last;
  int have_span;
  u64set locs_with_events;
  cli_clock clk;
  int is_ptf;
  uint64_t streams, stored, raw, blocks;
  uint64_t with_sums, with_snaps; /* streams with summaries / snapshots */
  int scanned;
} info;

static void print_text(const info *in, pt_reader *r) {
  char sec[64];
  printf("trace        %s\n", in->path);
  printf("format       %s\n", in->format);
  if (in->is_ptf) {
    printf("streams      %" PRIu64 "\n", in->streams);
    const char *v = pt_reader_anchor(r, "version");
    const char *cr = pt_reader_anchor(r, "creator");
    if (v) printf("version      %s\n", v);
    if (cr) printf("creator      %s\n", cr);
  }
  printf("locations    %" PRIu64 " defined", in->def_count[PT_DEF_LOCATION]);
  if (in->scanned)
    printf(", %zu with events", in->locs_with_events.len);
  printf("\n");
  printf("events       %" PRIu64 "%s\n", in->events,
         in->scanned ? "" : " (from the index)");
  for (uint32_t k = 1; k < PT_EV__COUNT; k++)
    if (in->ev_count[k])
      printf("  %-20s %" PRIu64 "\n", pt_event_kind_name(k), in->ev_count[k]);
  if (in->have_span) {
    uint64_t d = in->last - in->first;
    printf("time span    %" PRIu64 " .. %" PRIu64 " ticks: %" PRIu64
           " ticks = %s",
           in->first, in->last, d, cli_fmt_seconds(sec, sizeof sec, d, &in->clk));
    if (in->clk.ticks_per_second)
      printf(" (clock %" PRIu64 " ticks/s)", in->clk.ticks_per_second);
    printf("\n");
  } else {
    printf("time span    (no events)\n");
  }
  printf("size         %" PRIu64 " bytes on disk", disk_bytes);
  if (in->is_ptf) {
    printf(", %" PRIu64 " raw event bytes in %" PRIu64 " blocks", in->raw,
           in->blocks);
    if (in->stored)
      printf(", compression %.2fx", (double)in->raw / (double)in->stored);
  }
  printf("\n");
  /* what paratrace summarize / snapshot added (windows read them) */
  if (in->with_sums)
    printf("summaries    in %" PRIu64 " of %" PRIu64 " streams\n",
           in->with_sums, in->streams);
  if (in->with_snaps)
    printf("snapshots    in %" PRIu64 " of %" PRIu64 " streams\n",
           in->with_snaps, in->streams);
  printf("definitions  %" PRIu64 "\n", in->defs);
  for (uint32_t k = 1; k < PT_DEF__COUNT; k++)
    if (in->def_count[k])
      printf("  %-20s %" PRIu64 "\n", pt_def_kind_name(k), in->def_count[k]);
}

static void print_json(const info *in, pt_reader *r) {
  printf("{\"trace\": ");
  json_str(in->path);
  printf(", \"format\": ");
  json_str(in->format);
  if (in->is_ptf) {
    printf(", \"streams\": %" PRIu64, in->streams);
    const char *v = pt_reader_anchor(r, "version");
    if (v) {
      printf(", \"version\": ");
      json_str(v);
    }
  } else {
    printf(", \"streams\": null");
  }
  printf(", \"locations\": %" PRIu64, in->def_count[PT_DEF_LOCATION]);
  if (in->scanned)
    printf(", \"locations_with_events\": %zu", in->locs_with_events.len);
  printf(", \"events\": {\"total\": %" PRIu64, in->events);
  for (uint32_t k = 1; k < PT_EV__COUNT; k++)
    if (in->ev_count[k])
      printf(", \"%s\": %" PRIu64, pt_event_kind_name(k), in->ev_count[k]);
  printf("}");
  if (in->have_span) {
    printf(", \"time\": {\"first\": %" PRIu64 ", \"last\": %" PRIu64
           ", \"ticks\": %" PRIu64,
           in->first, in->last, in->last - in->first);
    if (in->clk.ticks_per_second)
      printf(", \"seconds\": %.9g, \"ticks_per_second\": %" PRIu64,
             (double)(in->last - in->first) / (double)in->clk.ticks_per_second,
             in->clk.ticks_per_second);
    printf("}");
  } else {
    printf(", \"time\": null");
  }
  printf(", \"bytes_on_disk\": %" PRIu64, disk_bytes);
  if (in->is_ptf) {
    printf(", \"raw_bytes\": %" PRIu64 ", \"stored_bytes\": %" PRIu64
           ", \"blocks\": %" PRIu64,
           in->raw, in->stored, in->blocks);
    if (in->stored)
      printf(", \"compression_ratio\": %.4f",
             (double)in->raw / (double)in->stored);
    printf(", \"streams_with_summaries\": %" PRIu64
           ", \"streams_with_snapshots\": %" PRIu64,
           in->with_sums, in->with_snaps);
  }
  printf(", \"definitions\": {\"total\": %" PRIu64, in->defs);
  for (uint32_t k = 1; k < PT_DEF__COUNT; k++)
    if (in->def_count[k])
      printf(", \"%s\": %" PRIu64, pt_def_kind_name(k), in->def_count[k]);
  printf("}}\n");
}

int cmd_info(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL;
  int json = 0, fast = 0, id;
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case O_JSON: json = 1; break;
      case O_FAST: fast = 1; break;
    }
  }
  if (!path) return cli_usage("missing TRACE");

  pt_source *src = NULL;
  if (cli_open_source(&src, path, NULL) != CLI_OK) return CLI_FAIL;

  info in;
  memset(&in, 0, sizeof in);
  in.path = path;
  in.format = pt_source_format(src);
  pt_reader *r = pt_source_reader(src);
  in.is_ptf = r != NULL;
  if (r) {
    in.streams = pt_reader_nstreams(r);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < in.streams; i++) {
      const pt_stream_info *si = pt_reader_stream_info(r, i);
      if (!si) continue;
      in.stored += si->stored_bytes;
      in.raw += si->raw_bytes;
      in.blocks += si->blocks;
      in.with_sums += si->has_summaries != 0;
      in.with_snaps += si->has_snapshots != 0;
      if (fast) in.events += si->events;
      if (si->events) {
        if (si->first_time < lo) lo = si->first_time;
        if (si->last_time > hi) hi = si->last_time;
      }
    }
    if (fast && lo <= hi) {
      in.first = lo;
      in.last = hi;
      in.have_span = 1;
    }
  } else if (fast) {
    pt_source_close(src);
    return cli_usage("--fast needs a native (ptf) archive");
  }
  in.scanned = !fast;

  cli_progress bar;
  cli_progress_start(&bar, "info", fast ? 0 : cli_source_event_total(src));
  if (fast) bar.active = 0;
  pt_item it;
  int rc, status = CLI_OK;
  while ((rc = pt_source_next(src, &it)) == PT_OK) {
    if (it.type == PT_ITEM_DEF) {
      const pt_def *d = &it.u.def;
      if (d->kind < PT_DEF__COUNT) {
        size_t before = in.def_ids[d->kind].len;
        int has_id = d->id != PT_NONE &&
                     (pt_def_slot_mask(d->kind) & (1u << PT_DSLOT_ID));
        if (has_id && set_add(&in.def_ids[d->kind], d->id) < 0) {
          status = cli_fail(path, "out of memory");
          break;
        }
        if (!has_id || in.def_ids[d->kind].len > before) {
          in.def_count[d->kind]++;
          in.defs++;
        }
      }
      if (d->kind == PT_DEF_CLOCK && !in.clk.found) {
        in.clk.found = 1;
        in.clk.ticks_per_second = d->i0 > 0 ? (uint64_t)d->i0 : 0;
        in.clk.start = d->parent == PT_NONE ? 0 : d->parent;
      }
    } else if (it.type == PT_ITEM_EVENT) {
      if (fast) break; /* definitions come before events */
      const pt_event *e = &it.u.event;
      if (e->kind < PT_EV__COUNT) in.ev_count[e->kind]++;
      if (!in.have_span || e->time < in.first) in.first = e->time;
      if (!in.have_span || e->time > in.last) in.last = e->time;
      in.have_span = 1;
      if (set_add(&in.locs_with_events, e->location) < 0) {
        status = cli_fail(path, "out of memory");
        break;
      }
      if ((++in.events & 0xffff) == 0) cli_progress_update(&bar, in.events);
    }
  }
  cli_progress_end(&bar);
  if (status == CLI_OK && rc < 0)
    status = cli_fail(path, "%s", pt_source_errmsg(src));
  if (status == CLI_OK) {
    disk_bytes = 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      nftw(path, add_size, 16, FTW_PHYS);
    else if (stat(path, &st) == 0) {
      disk_bytes = (uint64_t)st.st_size + sibling_bytes(path, in.format);
      size_t pl = strlen(path);
      if (in.format && !strcmp(in.format, "otf2") && pl > 5 && pl < 4096 &&
          ends_with(path, ".otf2")) { /* plus the STEM/ directory */
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)(pl - 5), path);
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
          nftw(dir, add_size, 16, FTW_PHYS);
      }
    }
    if (json)
      print_json(&in, r);
    else
      print_text(&in, r);
    if (fflush(stdout) != 0) status = cli_fail(NULL, "cannot write output");
  }
  free(in.locs_with_events.keys);
  free(in.locs_with_events.used);
  for (size_t k = 0; k < PT_DEF__COUNT; k++) {
    free(in.def_ids[k].keys);
    free(in.def_ids[k].used);
  }
  pt_source_close(src);
  return status;
}
