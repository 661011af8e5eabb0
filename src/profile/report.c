/* The top-down profile report: program -> procedure -> call site -> loop
 * -> communication statement -> destination, children by inclusive time.
 *
 * Sites are stored as module + link-time offset; when asked, they are
 * resolved to "function file:line" by running binutils' addr2line once per
 * module (no shell: fork + exec with the addresses as arguments).  Without
 * addr2line, or without debug information, the module+offset is shown
 * (with the function when the ELF symbol table has one around it). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile/profile_int.h"

typedef struct rep {
  const pt_profile *p;
  FILE *out;
  const pt_profile_report_opts *o;
  uint32_t *first, *next; /* children lists, sorted by inclusive time */
  char **where;           /* resolved site text per node, or NULL */
  double total;           /* program time (ns) */
} rep;

/* ---- site resolution ----------------------------------------------------- */

/* ELF function symbols (.symtab and .dynsym, type FUNC, size > 0) of the
 * file at path: in[i] = 1 when addrs[i] lies inside one, for the n
 * addresses.  Returns 0, or -1 when the file cannot be read as a native
 * 64-bit ELF file (in[] then untouched).  addr2line names an address
 * without line information after the nearest symbol below it, however
 * far: in a stripped program that is often an unrelated exported
 * function; this tells such guesses apart. */
static int elf_in_functions(const char *path, const uint64_t *addrs, size_t n,
                            uint8_t *in) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat st;
  void *map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size >= (off_t)sizeof(Elf64_Ehdr))
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return -1;
  const uint8_t *b = map;
  uint64_t size = (uint64_t)st.st_size;
  int rc = -1;
  uint64_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
  uint8_t *hit = calloc(n ? n : 1, 1);
  Elf64_Ehdr eh;
  memcpy(&eh, b, sizeof eh);
  if (!sorted || !hit || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                                  ? ELFDATA2LSB
                                  : ELFDATA2MSB) ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
      (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > size - eh.e_shoff)
    goto out;
  memcpy(sorted, addrs, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, pt__cmp_u64);
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh;
    memcpy(&sh, b + eh.e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
    if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
        sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_offset > size ||
        sh.sh_size > size - sh.sh_offset)
      continue;
    for (uint64_t j = 0; j < sh.sh_size / sizeof(Elf64_Sym); j++) {
      Elf64_Sym sy;
      memcpy(&sy, b + sh.sh_offset + j * sizeof sy, sizeof sy);
      if (ELF64_ST_TYPE(sy.st_info) != STT_FUNC || !sy.st_size ||
          sy.st_shndx == SHN_UNDEF)
        continue;
      /* the first address >= st_value */
      size_t lo = 0, hi = n;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < sy.st_value) lo = mid + 1;
        else hi = mid;
      }
      for (; lo < n && sorted[lo] - sy.st_value < sy.st_size; lo++) hit[lo] = 1;
    }
  }
  for (size_t i = 0; i < n; i++) {
    const uint64_t *f = bsearch(&addrs[i], sorted, n, sizeof *sorted, pt__cmp_u64);
    in[i] = f && hit[f - sorted];
  }
  rc = 0;
out:
  free(sorted);
  free(hit);
  munmap(map, (size_t)st.st_size);
  return rc;
}

void pt__fortran_name(const char *in, char *out, size_t n) {
  const char *mod = strstr(in, "_MOD_");
  if (strncmp(in, "__", 2) == 0 && mod && mod > in + 2 && mod[5]) {
    snprintf(out, n, "%.*s::%s", (int)(mod - in - 2), in + 2, mod + 5);
    return;
  }
  snprintf(out, n, "%s", in);
}

/* Run `addr2line -f -C -e module a1 a1 a2 a2 ...` (no shell: fork +
 * exec) and store each address's function in func[i] and "file:line" (the
 * file's base name) in line[i], malloc'd, NULL where addr2line says "??".
 * Failures leave the entries NULL.  Each address is asked twice and the
 * second answer kept: binutils 2.40's addr2line names the first address
 * it is asked about inside an inlined procedure after the procedure it
 * was inlined into, and later ones after the inlined procedure (a PARPACK
 * driver's halo exchange, a contained subroutine gfortran -O1 inlined:
 * "MAIN__ lap.f90:63" or "av lap.f90:63" by the order the trace listed
 * its call sites, so the same site changed names between a PTF archive
 * and its OTF2 copy). */
static void addr2line_run(const char *module, const uint64_t *addrs,
                          size_t n, char **func, char **line) {
  size_t argc = 2 * n + 6;
  char **argv = calloc(argc, sizeof *argv);
  char *abuf = malloc(n * 24);
  if (!argv || !abuf) goto out;
  size_t k = 0;
  argv[k++] = "addr2line";
  argv[k++] = "-f";
  argv[k++] = "-C";
  argv[k++] = "-e";
  argv[k++] = (char *)module;
  for (size_t i = 0; i < n; i++) {
    snprintf(abuf + i * 24, 24, "0x%" PRIx64, addrs[i]);
    argv[k++] = abuf + i * 24; /* twice: see above */
    argv[k++] = abuf + i * 24;
  }
  argv[k] = NULL;
  int pfd[2];
  if (pipe(pfd) != 0) goto out;
  pid_t pid = fork();
  if (pid < 0) {
    close(pfd[0]);
    close(pfd[1]);
    goto out;
  }
  if (pid == 0) {
    dup2(pfd[1], 1);
    close(pfd[0]);
    close(pfd[1]);
    int devnull = open("/dev/null", 1);
    if (devnull >= 0) dup2(devnull, 2);
    execvp("addr2line", argv);
    _exit(127);
  }
  close(pfd[1]);
  FILE *f = fdopen(pfd[0], "r");
  if (f) {
    /* whole lines, however long (a demangled C++ name can exceed any
     * fixed buffer: its rest read as the next line put every later answer
     * of the run one line off) */
    char *fb = NULL, *lb = NULL;
    size_t fbn = 0, lbn = 0;
    for (size_t i = 0; i < n; i++) {
      /* the first answer for the address, then the one kept */
      if (getline(&fb, &fbn, f) < 0 || getline(&lb, &lbn, f) < 0) break;
      if (getline(&fb, &fbn, f) < 0 || getline(&lb, &lbn, f) < 0) break;
      fb[strcspn(fb, "\n")] = '\0';
      lb[strcspn(lb, "\n")] = '\0';
      char *disc = strstr(lb, " (discriminator");
      if (disc) *disc = '\0';
      if (strcmp(fb, "??") != 0) {
        char nm[1024];
        pt__fortran_name(fb, nm, sizeof nm);
        func[i] = strdup(nm);
      }
      /* "file:?" (a file from the symbol table, no line: no debug
       * information) tells the call sites of a function no more apart
       * than "??:?": no line either */
      size_t ll = strlen(lb);
      int noline = ll >= 2 && lb[ll - 2] == ':' && (lb[ll - 1] == '?' ||
                                                    lb[ll - 1] == '0');
      if (strncmp(lb, "??", 2) != 0 && !noline) {
        /* the file's base name: paths are long and the function says
         * where it is */
        const char *base = strrchr(lb, '/');
        line[i] = strdup(base ? base + 1 : lb);
      }
    }
    free(fb);
    free(lb);
    fclose(f);
  } else {
    close(pfd[0]);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
out:
  free(argv);
  free(abuf);
}

/* Addresses per run of addr2line: each is asked twice, and 2 x 4,096
 * arguments stay far below the kernel's limit on a command line (about
 * 2 MiB), which all the call sites of a large program in one run could
 * pass (exec then fails, and no site gets a name). */
#define ADDR2LINE_BATCH 4096

void pt__addr2line(const char *module, const uint64_t *addrs, size_t n,
                   char **func, char **line) {
  for (size_t i = 0; i < n; i++) func[i] = line[i] = NULL;
  /* a regular file only: the path comes from the trace, and a FIFO or a
   * device would block addr2line */
  struct stat mst;
  if (!n || !module || !*module || access(module, R_OK) != 0 ||
      stat(module, &mst) != 0 || !S_ISREG(mst.st_mode))
    return;
  for (size_t a = 0; a < n; a += ADDR2LINE_BATCH)
    addr2line_run(module, addrs + a,
                  n - a < ADDR2LINE_BATCH ? n - a : ADDR2LINE_BATCH,
                  func + a, line + a);
  /* a function named without a line: only if the address is inside it */
  size_t guessed = 0;
  for (size_t i = 0; i < n; i++) guessed += func[i] && !line[i];
  uint8_t *in = guessed ? calloc(n, 1) : NULL;
  if (in && elf_in_functions(module, addrs, n, in) == 0)
    for (size_t i = 0; i < n; i++)
      if (func[i] && !line[i] && !in[i]) {
        free(func[i]);
        func[i] = NULL;
      }
  free(in);
}

/* Resolve nodes ids[0..n) of one module into r->where. */
static void resolve_module(rep *r, const char *module, const uint32_t *ids,
                           size_t n) {
  uint64_t *a = malloc(n * sizeof *a);
  char **fn = calloc(n, sizeof *fn), **ln = calloc(n, sizeof *ln);
  if (!a || !fn || !ln) goto out;
  for (size_t i = 0; i < n; i++) {
    const pt_profile_node *nd = &r->p->nodes[ids[i]];
    /* Sites of calls are return addresses: look up the call instruction.
     * Procedures are entry addresses. */
    a[i] = nd->offset;
    if (nd->kind != PT_PROFILE_PROC && a[i] > 0) a[i]--;
  }
  pt__addr2line(module, a, n, fn, ln);
  const char *base = strrchr(module, '/');
  base = base ? base + 1 : module;
  for (size_t i = 0; i < n; i++) {
    if (!fn[i] && !ln[i]) continue;
    const pt_profile_node *nd = &r->p->nodes[ids[i]];
    size_t len = (fn[i] ? strlen(fn[i]) : 0) + (ln[i] ? strlen(ln[i]) : 0) +
                 strlen(base) + 32;
    char *s = malloc(len);
    if (!s) break;
    if (nd->kind != PT_PROFILE_PROC && !ln[i])
      /* no line (no debug information): the function alone would not
       * tell its statements apart */
      snprintf(s, len, "%s (%s+0x%llx)", fn[i], base,
               (unsigned long long)nd->offset);
    else if (nd->kind == PT_PROFILE_PROC || !ln[i])
      snprintf(s, len, "%s", fn[i] ? fn[i] : ln[i]);
    else if (fn[i])
      snprintf(s, len, "%s %s", fn[i], ln[i]);
    else
      snprintf(s, len, "%s", ln[i]);
    r->where[ids[i]] = s;
  }
out:
  for (size_t i = 0; fn && ln && i < n; i++) free(fn[i]), free(ln[i]);
  free(a);
  free(fn);
  free(ln);
}

static void resolve_sites(rep *r) {
  const pt_profile *p = r->p;
  uint32_t *ids = malloc(p->n * sizeof *ids);
  uint8_t *done = calloc(p->n, 1);
  if (!ids || !done) goto out;
  /* Group by module (interned: compare pointers). */
  for (size_t i = 1; i < p->n; i++) {
    if (done[i] || !*p->nodes[i].module) continue;
    const char *m = p->nodes[i].module;
    size_t n = 0;
    for (size_t j = i; j < p->n; j++)
      if (!done[j] && p->nodes[j].module == m) {
        done[j] = 1;
        ids[n++] = (uint32_t)j;
      }
    for (size_t s = 0; s < n; s += 512)
      resolve_module(r, m, ids + s, n - s < 512 ? n - s : 512);
  }
out:
  free(ids);
  free(done);
}

/* ---- tree ---------------------------------------------------------------- */

static const pt_profile *sort_p;
static int by_incl(const void *a, const void *b) {
  const pt_profile_node *x = &sort_p->nodes[*(const uint32_t *)a];
  const pt_profile_node *y = &sort_p->nodes[*(const uint32_t *)b];
  if (x->incl_ns != y->incl_ns) return x->incl_ns < y->incl_ns ? 1 : -1;
  if (x->kind == PT_PROFILE_DEST && y->kind == PT_PROFILE_DEST)
    return x->key < y->key ? -1 : x->key > y->key;
  return (*(const uint32_t *)a > *(const uint32_t *)b) -
         (*(const uint32_t *)a < *(const uint32_t *)b);
}

static int build_children(rep *r) {
  const pt_profile *p = r->p;
  size_t *cnt = calloc(p->n + 1, sizeof *cnt);
  uint32_t *all = malloc(p->n * sizeof *all);
  r->first = malloc((p->n + 1) * sizeof *r->first);
  r->next = all;
  if (!cnt || !all || !r->first) {
    free(cnt);
    return PT_ENOMEM;
  }
  for (size_t i = 1; i < p->n; i++) cnt[p->nodes[i].parent + 1]++;
  r->first[0] = 0;
  for (size_t i = 0; i < p->n; i++)
    r->first[i + 1] = r->first[i] + (uint32_t)cnt[i + 1];
  memset(cnt, 0, (p->n + 1) * sizeof *cnt);
  for (size_t i = 1; i < p->n; i++) {
    uint32_t par = p->nodes[i].parent;
    all[r->first[par] + cnt[par]++] = (uint32_t)i;
  }
  sort_p = p;
  for (size_t i = 0; i < p->n; i++)
    qsort(all + r->first[i], r->first[i + 1] - r->first[i], sizeof *all,
          by_incl);
  free(cnt);
  return PT_OK;
}

static void fmt_time(char *b, size_t n, uint64_t ns) {
  double s = (double)ns / 1e9;
  if (s >= 100)
    snprintf(b, n, "%.1fs", s);
  else if (s >= 1)
    snprintf(b, n, "%.3fs", s);
  else if (ns >= 1000000)
    snprintf(b, n, "%.3fms", (double)ns / 1e6);
  else if (ns >= 1000)
    snprintf(b, n, "%.3fus", (double)ns / 1e3);
  else
    snprintf(b, n, "%" PRIu64 "ns", ns);
}

/* As `paratrace stats` writes bytes: 480 B, 3.9 KiB, 2.8 MiB. */
static void fmt_bytes(char *b, size_t n, uint64_t v) {
  if (v >= (1ull << 30))
    snprintf(b, n, "%.1f GiB", (double)v / (1ull << 30));
  else if (v >= (1ull << 20))
    snprintf(b, n, "%.1f MiB", (double)v / (1ull << 20));
  else if (v >= 1024)
    snprintf(b, n, "%.1f KiB", (double)v / 1024);
  else
    snprintf(b, n, "%" PRIu64 " B", v);
}

static void label(rep *r, uint32_t id, char *b, size_t n) {
  const pt_profile_node *nd = &r->p->nodes[id];
  const char *kind = pt_profile_kind_name((int)nd->kind);
  const char *where = r->where ? r->where[id] : NULL;
  char site[96] = "";
  if (!where && *nd->module) {
    const char *base = strrchr(nd->module, '/');
    snprintf(site, sizeof site, "%s+0x%" PRIx64, base ? base + 1 : nd->module,
             nd->offset);
    where = site;
  }
  switch (nd->kind) {
  case PT_PROFILE_ROOT:
    snprintf(b, n, "program");
    break;
  case PT_PROFILE_DEST: {
    /* the partner: where a send goes, where a receive came from, or the
     * root of a rooted collective */
    const char *st = nd->parent < r->p->n ? r->p->nodes[nd->parent].name : "";
    const char *arrow = "->";
    if (nd->key & PT__PROFILE_FROM)
      arrow = "<-";
    else if (strcasestr(st, "bcast") || strcasestr(st, "reduce") ||
        strcasestr(st, "gather") || strcasestr(st, "scatter"))
      arrow = strcasestr(st, "allreduce") || strcasestr(st, "allgather") ||
                      strcasestr(st, "reduce_scatter")
                  ? "->"
                  : "root"; /* (also MPI_Ibcast, MPI_Ireduce, ...) */
    else if (strcasestr(st, "recv") && !strcasestr(st, "sendrecv"))
      arrow = "<-";
    snprintf(b, n, "%s rank %" PRIu64, arrow, nd->key & ~PT__PROFILE_FROM);
    break;
  }
  case PT_PROFILE_PROC:
    snprintf(b, n, "%s %s", kind, *nd->name ? nd->name : where ? where : "?");
    break;
  default:
    if (*nd->name && where)
      snprintf(b, n, "%s %s @ %s", kind, nd->name, where);
    else
      snprintf(b, n, "%s %s", kind, *nd->name ? nd->name : where ? where : "?");
  }
}

static void csv_str(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void print_node(rep *r, uint32_t id, int depth) {
  const pt_profile_node *nd = &r->p->nodes[id];
  double pct = r->total > 0 ? 100.0 * (double)nd->incl_ns / r->total : 0;
  if (id != 0 && pct < r->o->min_pct) return;
  uint64_t excl = nd->incl_ns > nd->child_ns ? nd->incl_ns - nd->child_ns : 0;
  if (nd->kind == PT_PROFILE_DEST) excl = nd->incl_ns;
  double epct = r->total > 0 ? 100.0 * (double)excl / r->total : 0;
  char it[32], et[32], lab[1400], comm[160] = "";
  fmt_time(it, sizeof it, nd->incl_ns);
  fmt_time(et, sizeof et, excl);
  if (nd->kind == PT_PROFILE_COMM || nd->kind == PT_PROFILE_DEST) {
    char by[32], tr[32], sy[32];
    fmt_bytes(by, sizeof by, nd->bytes);
    fmt_time(tr, sizeof tr, nd->trans_ns);
    fmt_time(sy, sizeof sy, nd->sync_ns);
    int k = snprintf(comm, sizeof comm, "  [%s, trans %s, sync %s", by, tr, sy);
    if (nd->kind == PT_PROFILE_COMM && nd->max_ns && k > 0 &&
        (size_t)k < sizeof comm) { /* the longest call (mpiP's Max) */
      char mx[32];
      fmt_time(mx, sizeof mx, nd->max_ns);
      k += snprintf(comm + k, sizeof comm - (size_t)k, ", max %s", mx);
    }
    if (k > 0 && (size_t)k < sizeof comm)
      snprintf(comm + k, sizeof comm - (size_t)k, "]");
  }
  if (r->o->csv) {
    const char *where = r->where ? r->where[id] : NULL;
    char site[96] = "";
    if (!where && *nd->module) {
      snprintf(site, sizeof site, "%s+0x%" PRIx64, nd->module, nd->offset);
      where = site;
    }
    fprintf(r->out, "%d,%s,", depth, pt_profile_kind_name((int)nd->kind));
    /* A procedure without a recorded name is named by its resolved
     * entry address. */
    /* a destination: no name, its rank in the next column; "<-" for the
     * partner of a receive whose statement does not say so */
    const char *nm = nd->kind != PT_PROFILE_DEST       ? nd->name
                     : nd->key & PT__PROFILE_FROM      ? "<-"
                                                       : "";
    if (!*nm && nd->kind == PT_PROFILE_PROC && r->where && r->where[id])
      nm = r->where[id];
    csv_str(r->out, nm);
    fputc(',', r->out);
    if (nd->kind == PT_PROFILE_DEST)
      fprintf(r->out, "%" PRIu64, nd->key & ~PT__PROFILE_FROM);
    else
      csv_str(r->out, where ? where : "");
    fprintf(r->out,
            ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
            ",%" PRIu64 ",",
            nd->count, nd->incl_ns, excl, nd->bytes, nd->trans_ns, nd->sync_ns);
    /* a statement's longest call; empty where unknown (other kinds, files
     * written before) */
    if (nd->kind == PT_PROFILE_COMM && nd->max_ns)
      fprintf(r->out, "%" PRIu64, nd->max_ns);
    fputc('\n', r->out);
  } else {
    label(r, id, lab, sizeof lab);
    fprintf(r->out, "%6.1f%% %6.1f%% %10s %10s %10" PRIu64 "  %*s%s%s\n", pct,
          epct, it, et, nd->count, depth * 2, "", lab, comm);
  }
  if (r->o->max_depth && depth + 1 >= r->o->max_depth) return;
  for (uint32_t c = r->first[id]; c < r->first[id + 1]; c++)
    print_node(r, r->next[c], depth + 1);
}

static int matches(rep *r, uint32_t id, const char *focus) {
  const pt_profile_node *nd = &r->p->nodes[id];
  if (strcmp(nd->name, focus) == 0) return 1;
  const char *w = r->where ? r->where[id] : NULL;
  if (!w) return 0;
  size_t fl = strlen(focus);
  /* "func" or "func file:line" or "file:line" */
  if (strncmp(w, focus, fl) == 0 && (w[fl] == '\0' || w[fl] == ' '))
    return 1;
  const char *sp = strchr(w, ' ');
  return sp && strcmp(sp + 1, focus) == 0;
}

int pt_profile_report(const pt_profile *p, FILE *out,
                      const pt_profile_report_opts *opts, pt_error *err) {
  if (!p || !out) return pt__err(err, PT_EINVAL, "profile: nothing to print");
  pt_profile_report_opts dflt = {0};
  rep r = {.p = p, .out = out, .o = opts ? opts : &dflt};
  /* Refresh the root of a live collector. */
  pt_profile_node_at(p, 0);
  r.total = (double)p->nodes[0].incl_ns;
  int rc = build_children(&r);
  if (rc) {
    free(r.first);
    free(r.next);
    return pt__err(err, rc, "profile: out of memory");
  }
  if (r.o->resolve) {
    r.where = calloc(p->n, sizeof *r.where);
    if (r.where) resolve_sites(&r);
  }
  if (r.o->csv)
    fprintf(out, "depth,kind,name,site,count,incl_ns,excl_ns,bytes,trans_ns,"
                 "sync_ns,max_ns\n");
  else
    fprintf(out, "%7s %7s %10s %10s %10s  %s\n", "incl%", "excl%", "incl",
            "excl", "count", "node");
  rc = PT_OK;
  if (r.o->focus && *r.o->focus) {
    size_t found = 0;
    for (uint32_t i = 1; i < p->n; i++) {
      if (!matches(&r, i, r.o->focus)) continue;
      /* Skip matches inside an already printed match. */
      int inner = 0;
      for (uint32_t a = p->nodes[i].parent; a != 0; a = p->nodes[a].parent)
        if (matches(&r, a, r.o->focus)) inner = 1;
      if (inner) continue;
      /* The path from the program to the focus, then its subtree. */
      uint32_t path[PT_PROFILE_MAX_DEPTH];
      int np = 0;
      for (uint32_t a = p->nodes[i].parent; a != 0 && np < 4096;
           a = p->nodes[a].parent)
        path[np++] = a;
      char lab[1400];
      if (!r.o->csv) {
        fprintf(out, "%s", found ? "\n" : "");
        fprintf(out, "# in: program");
        for (int k = np - 1; k >= 0; k--) {
          label(&r, path[k], lab, sizeof lab);
          fprintf(out, " > %s", lab);
        }
        fprintf(out, "\n");
      }
      print_node(&r, i, 0);
      found++;
    }
    if (!found)
      rc = pt__err(err, PT_ENOTFOUND, "profile: no node is named '%s'",
                   r.o->focus);
  } else {
    print_node(&r, 0, 0);
  }
  if (p->dropped && !r.o->csv)
    fprintf(out, "# %" PRIu64 " contexts were folded into their parents "
                 "(the tree was full)\n", p->dropped);
  if (ferror(out) && rc == PT_OK) rc = pt__err(err, PT_EIO, "write error");
  if (r.where)
    for (size_t i = 0; i < p->n; i++) free(r.where[i]);
  free(r.where);
  free(r.first);
  free(r.next);
  return rc;
}
