/* paratrace profile: print the top-down profile tree recorded in the
 * profile mode (PARATRACE_MODE=profile), summed over ranks and threads or
 * for one rank. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "paratrace/profile.h"

static const char help[] =
    "usage: paratrace profile TRACE [options]\n"
    "\n"
    "Print the profile recorded with PARATRACE_MODE=profile (or both): the\n"
    "top-down tree program -> procedure -> call site -> loop -> statement\n"
    "-> destination, children by inclusive time, with count, inclusive and\n"
    "exclusive time and their share of the program, and for communication\n"
    "statements the bytes, transmission time and synchronisation delay\n"
    "(time spent waiting for the partner).  TRACE is the archive directory\n"
    "(all its profile.* files are summed) or one profile file.  Code sites\n"
    "are shown as function file:line when binutils' addr2line finds debug\n"
    "information, else as module+offset.\n"
    "\n"
    "options:\n"
    "  --focus NAME    print only the subtrees of nodes named NAME (a\n"
    "                  procedure, an MPI function, a block name, or\n"
    "                  file:line), with the path leading to them\n"
    "  --rank R        only rank R (files profile.<R*1024+thread>)\n"
    "  --min-pct P     hide nodes below P% of the program's time\n"
    "  --depth D       print D levels\n"
    "  --no-resolve    do not run addr2line\n"
    "  --csv           one CSV row per node (depth,kind,name,site,count,\n"
    "                  incl_ns,excl_ns,bytes,trans_ns,sync_ns,max_ns: a\n"
    "                  statement's longest call)\n"
    "  -h, --help\n";

enum { O_FOCUS = 1, O_RANK, O_MINPCT, O_DEPTH, O_NORESOLVE, O_CSV };
static const cli_option options[] = {{"focus", 0, 1, O_FOCUS},
                                     {"rank", 0, 1, O_RANK},
                                     {"min-pct", 0, 1, O_MINPCT},
                                     {"depth", 0, 1, O_DEPTH},
                                     {"no-resolve", 0, 0, O_NORESOLVE},
                                     {"csv", 0, 0, O_CSV},
                                     {0, 0, 0, 0}};

/* Is `name` "profile.<digits>"?  Sets *id. */
static int profile_name(const char *name, uint64_t *id) {
  if (strncmp(name, "profile.", 8) != 0 || !name[8]) return 0;
  for (const char *c = name + 8; *c; c++)
    if (*c < '0' || *c > '9') return 0;
  return cli_parse_u64(name + 8, id) == 0;
}

static int add_file(pt_profile **sum, const char *file) {
  pt_profile *p;
  pt_error err = {0};
  if (pt_profile_load(&p, file, &err) != PT_OK)
    return cli_fail(file, "%s", err.msg);
  if (!*sum) {
    *sum = p;
    return CLI_OK;
  }
  /* Room for both trees. */
  pt_profile *m;
  size_t cap = pt_profile_nnodes(*sum) + pt_profile_nnodes(p) + 2;
  if (pt_profile_create(&m, cap) != PT_OK || pt_profile_merge(m, *sum) ||
      pt_profile_merge(m, p)) {
    pt_profile_destroy(p);
    return cli_fail(file, "out of memory merging profiles");
  }
  pt_profile_destroy(*sum);
  pt_profile_destroy(p);
  *sum = m;
  return CLI_OK;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_profile(int argc, char **argv) {
  cli_parser p;
  cli_parser_init(&p, argc, argv, options);
  const char *val, *path = NULL;
  pt_profile_report_opts o = {.resolve = 1};
  int have_rank = 0;
  uint64_t rank = 0, u;
  int id;
  cli_parser_trace(&p, &path);
  while ((id = cli_next(&p, &val)) != CLI_END) {
    switch (id) {
      case CLI_HELP: return cli_help(help);
      case CLI_ERROR: return CLI_USAGE;
      case O_FOCUS:
        if (!*val) return cli_usage("--focus needs a name");
        o.focus = val;
        break;
      case O_RANK:
        if (cli_parse_u64(val, &rank) || rank >= (UINT64_MAX >> 10))
          return cli_usage("--rank wants a rank number, not '%s'", val);
        have_rank = 1;
        break;
      case O_MINPCT: {
        char *end;
        o.min_pct = strtod(val, &end);
        if (*end || end == val || o.min_pct < 0 || o.min_pct > 100)
          return cli_usage("--min-pct wants 0..100, not '%s'", val);
        break;
      }
      case O_DEPTH:
        if (cli_parse_u64(val, &u) || u == 0 || u > 4096)
          return cli_usage("--depth wants 1..4096, not '%s'", val);
        o.max_depth = (int)u;
        break;
      case O_NORESOLVE: o.resolve = 0; break;
      case O_CSV: o.csv = 1; break;
    }
  }
  if (!path) return cli_usage("missing TRACE");
  struct stat st;
  if (stat(path, &st) != 0) return cli_fail(path, "no such file or directory");
  pt_profile *sum = NULL;
  int rc = CLI_OK;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (!d) return cli_fail(path, "cannot open the directory");
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
      uint64_t fid;
      if (!profile_name(e->d_name, &fid)) continue;
      if (have_rank && fid / 1024 != rank) continue;
      if (n == cap) {
        cap = cap ? cap * 2 : 16;
        char **nn = realloc(names, cap * sizeof *names);
        if (!nn) break;
        names = nn;
      }
      size_t len = strlen(path) + strlen(e->d_name) + 2;
      if (!(names[n] = malloc(len))) break;
      snprintf(names[n], len, "%s/%s", path, e->d_name);
      n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && rc == CLI_OK; i++) rc = add_file(&sum, names[i]);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    if (rc == CLI_OK && !sum)
      rc = have_rank
               ? cli_fail(path, "no profile of rank %" PRIu64 " here", rank)
               : cli_fail(path, "no profile in this archive (record with "
                                "PARATRACE_MODE=profile or both)");
  } else {
    rc = add_file(&sum, path);
  }
  if (rc == CLI_OK) {
    pt_error err = {0};
    if (pt_profile_report(sum, stdout, &o, &err) != PT_OK)
      rc = cli_fail(path, "%s", err.msg);
    else if (fflush(stdout) != 0 || ferror(stdout))
      rc = cli_fail(NULL, "cannot write output: %s", strerror(errno));
  }
  pt_profile_destroy(sum);
  return rc;
}
