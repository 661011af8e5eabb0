/* Profiles: tree building with synthetic clocks, recursion folding,
 * communication records, constant size, compensation, save/load/merge,
 * corrupt files, the report. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "paratrace/profile.h"
#include "test.h"

enum { P_MAIN = 1, P_P1, P_P2, P_P3, P_P4 };

/* The child of `parent` with (kind, key), or -1. */
static long child(const pt_profile *p, size_t parent, int kind, uint64_t key) {
  for (size_t i = 1; i < pt_profile_nnodes(p); i++) {
    const pt_profile_node *n = pt_profile_node_at(p, i);
    if (n->parent == parent && (int)n->kind == kind && n->key == key)
      return (long)i;
  }
  return -1;
}

TEST(fortran_module_names) {
  char b[64];
  pt__fortran_name("__clover_module_MOD_clover_exchange", b, sizeof b);
  ASSERT_TRUE(strcmp(b, "clover_module::clover_exchange") == 0);
  pt__fortran_name("compute_", b, sizeof b);
  ASSERT_TRUE(strcmp(b, "compute_") == 0);
  pt__fortran_name("__x_MOD_", b, sizeof b); /* no name after it: as is */
  ASSERT_TRUE(strcmp(b, "__x_MOD_") == 0);
  pt__fortran_name("CommRecv(Domain&, int)", b, sizeof b);
  ASSERT_TRUE(strcmp(b, "CommRecv(Domain&, int)") == 0);
}

/* More addresses than one command line of addr2line holds (each is asked
 * twice: 2 x 100,000 arguments, about 4.6 MiB with their pointers, over
 * the kernel's 2 MiB): every one named, in runs of a bounded size (one
 * run's exec failed and no site got a name). */
__attribute__((noinline)) static int named_here(int x) { return x * 3 + 1; }
TEST(addr2line_many_addresses) {
  char exe[4096];
  ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
  ASSERT_TRUE(l > 0);
  exe[l] = 0;
  Dl_info di;
  ASSERT_TRUE(dladdr((void *)named_here, &di) && di.dli_fbase);
  uint64_t at = (uint64_t)((uintptr_t)(void *)named_here -
                           (uintptr_t)di.dli_fbase) + 1;
  enum { N = 100000 };
  uint64_t *a = malloc(N * sizeof *a);
  char **fn = calloc(N, sizeof *fn), **ln = calloc(N, sizeof *ln);
  ASSERT_TRUE(a && fn && ln);
  for (size_t i = 0; i < N; i++) a[i] = at;
  pt__addr2line(exe, a, N, fn, ln);
  size_t named = 0;
  for (size_t i = 0; i < N; i++) {
    named += fn[i] && strcmp(fn[i], "named_here") == 0 && ln[i] &&
             strncmp(ln[i], "test_profile.c:", 15) == 0;
    free(fn[i]);
    free(ln[i]);
  }
  free(a);
  free(fn);
  free(ln);
  ASSERT_EQ_U64(named, N);
}

/* A function name longer than addr2line_run's line buffer (1,024 bytes;
 * demangled C++ template names are often longer): the rest of the name was
 * read as its file:line, and every later address of the run took the
 * answer meant for the one before. */
#define A2L_CAT_(a, b) a##b
#define A2L_CAT(a, b) A2L_CAT_(a, b)
#define A2L_D(x) A2L_CAT(x, x)
#define A2L_LONG                                                           \
  A2L_CAT(long_,                                                           \
          A2L_D(A2L_D(A2L_D(A2L_D(A2L_D(A2L_D(A2L_D(A2L_D(A2L_D(A2L_D(    \
              x)))))))))))
__attribute__((noinline)) static int A2L_LONG(int x) { return x * 7 + 2; }

TEST(addr2line_long_name) {
  char exe[4096];
  ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
  ASSERT_TRUE(l > 0);
  exe[l] = 0;
  Dl_info di;
  ASSERT_TRUE(dladdr((void *)named_here, &di) && di.dli_fbase);
  uintptr_t base = (uintptr_t)di.dli_fbase;
  uint64_t a[3] = {(uint64_t)((uintptr_t)(void *)A2L_LONG - base) + 1,
                   (uint64_t)((uintptr_t)(void *)named_here - base) + 1,
                   (uint64_t)((uintptr_t)(void *)A2L_LONG - base) + 1};
  char *fn[3], *ln[3];
  pt__addr2line(exe, a, 3, fn, ln);
  int ok = fn[0] && strncmp(fn[0], "long_xxxx", 9) == 0 && ln[0] &&
           strncmp(ln[0], "test_profile.c:", 15) == 0 && fn[1] &&
           strcmp(fn[1], "named_here") == 0 && ln[1] &&
           strncmp(ln[1], "test_profile.c:", 15) == 0 && fn[2] &&
           strncmp(fn[2], "long_xxxx", 9) == 0 && ln[2] &&
           strncmp(ln[2], "test_profile.c:", 15) == 0;
  if (!ok)
    for (int i = 0; i < 3; i++)
      fprintf(stderr, "  %d: %.40s | %.40s\n", i, fn[i] ? fn[i] : "(null)",
              ln[i] ? ln[i] : "(null)");
  for (int i = 0; i < 3; i++) {
    free(fn[i]);
    free(ln[i]);
  }
  ASSERT_TRUE(ok);
}

TEST(tree_times) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 0));
  /* main [0,100): p1 [10,40) containing loop [15,35), p2 [50,90). */
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_MAIN, "main", 0));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P1, "p1", 10));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_LOOP, 7, NULL, 15));
  ASSERT_OK(pt_profile_leave(p, 35));
  ASSERT_OK(pt_profile_leave(p, 40));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P2, "p2", 50));
  ASSERT_OK(pt_profile_leave(p, 90));
  ASSERT_OK(pt_profile_leave(p, 100));
  ASSERT_STATUS(pt_profile_leave(p, 101), PT_ESTATE);
  ASSERT_STATUS(pt_profile_enter(p, PT_PROFILE_DEST, 1, NULL, 101), PT_EINVAL);
  long m = child(p, 0, PT_PROFILE_PROC, P_MAIN);
  long p1 = child(p, (size_t)m, PT_PROFILE_PROC, P_P1);
  long l = child(p, (size_t)p1, PT_PROFILE_LOOP, 7);
  long p2 = child(p, (size_t)m, PT_PROFILE_PROC, P_P2);
  ASSERT_TRUE(m > 0 && p1 > 0 && l > 0 && p2 > 0);
  const pt_profile_node *n = pt_profile_node_at(p, (size_t)m);
  ASSERT_EQ_STR(n->name, "main");
  ASSERT_EQ_U64(n->incl_ns, 100);
  ASSERT_EQ_U64(n->child_ns, 70);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)p1)->incl_ns, 30);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)p1)->child_ns, 20);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)l)->incl_ns, 20);
  ASSERT_EQ_U64(pt_profile_node_at(p, 0)->incl_ns, 100);
  pt_profile_destroy(p);
}

TEST(recursion_folded) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 0));
  /* Direct: f [0,100) -> f [10,90) -> f [20,80). */
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P1, "f", 0));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P1, "f", 10));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P1, "f", 20));
  ASSERT_OK(pt_profile_leave(p, 80));
  ASSERT_OK(pt_profile_leave(p, 90));
  ASSERT_OK(pt_profile_leave(p, 100));
  /* Mutual: x [100,200) -> y [110,190) -> x [120,180) -> y [130,170). */
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P2, "x", 100));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P3, "y", 110));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P2, "x", 120));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P3, "y", 130));
  ASSERT_OK(pt_profile_leave(p, 170));
  ASSERT_OK(pt_profile_leave(p, 180));
  ASSERT_OK(pt_profile_leave(p, 190));
  ASSERT_OK(pt_profile_leave(p, 200));
  /* root, f, x, y: recursion makes no new nodes. */
  ASSERT_EQ_U64(pt_profile_nnodes(p), 4);
  long f = child(p, 0, PT_PROFILE_PROC, P_P1);
  long x = child(p, 0, PT_PROFILE_PROC, P_P2);
  long y = child(p, (size_t)x, PT_PROFILE_PROC, P_P3);
  ASSERT_TRUE(f > 0 && x > 0 && y > 0);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)f)->count, 3);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)f)->incl_ns, 100);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)x)->incl_ns, 100);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)x)->count, 2);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)y)->incl_ns, 80);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)y)->count, 2);
  /* Exclusive times never go negative. */
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)x)->child_ns, 80);
  pt_profile_destroy(p);
}

TEST(comm_destinations) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 0));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P3, "p3", 0));
  for (int i = 0; i < 10; i++)
    ASSERT_OK(pt_profile_comm(p, 42, "MPI_Send", "/bin/app", 0x1234, i % 2 + 1,
                              8, 10 + (uint64_t)i * 10,
                              15 + (uint64_t)i * 10, 2));
  ASSERT_OK(pt_profile_comm(p, 43, "MPI_Barrier", "", 0, -1, 0, 200, 230, 25));
  ASSERT_STATUS(pt_profile_comm(p, 43, "MPI_Barrier", "", 0, -1, 0, 9, 8, 0),
                PT_EINVAL);
  ASSERT_OK(pt_profile_leave(p, 300));
  long s = child(p, 0, PT_PROFILE_PROC, P_P3);
  long c = child(p, (size_t)s, PT_PROFILE_COMM, 42);
  long d1 = child(p, (size_t)c, PT_PROFILE_DEST, 1);
  long d2 = child(p, (size_t)c, PT_PROFILE_DEST, 2);
  long b = child(p, (size_t)s, PT_PROFILE_COMM, 43);
  ASSERT_TRUE(s > 0 && c > 0 && d1 > 0 && d2 > 0 && b > 0);
  const pt_profile_node *cn = pt_profile_node_at(p, (size_t)c);
  ASSERT_EQ_U64(cn->count, 10);
  ASSERT_EQ_U64(cn->bytes, 80);
  ASSERT_EQ_U64(cn->incl_ns, 50);
  ASSERT_EQ_U64(cn->sync_ns, 20);
  ASSERT_EQ_U64(cn->trans_ns, 30);
  ASSERT_EQ_STR(cn->module, "/bin/app");
  ASSERT_EQ_U64(cn->offset, 0x1234);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)d1)->count, 5);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)d2)->bytes, 40);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)b)->sync_ns, 25);
  ASSERT_EQ_U64(pt_profile_node_at(p, (size_t)s)->child_ns, 80);
  ASSERT_EQ_U64(pt_profile_nnodes(p), 6);
  pt_profile_destroy(p);
}

TEST(sync_estimated) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 0));
  /* Receives of 30, 10, 50 ns from rank 1: fastest 10 = transmission. */
  uint64_t d[] = {30, 10, 50};
  for (int i = 0; i < 3; i++)
    ASSERT_OK(pt_profile_comm(p, 5, "MPI_Recv", "", 0, 1, 8, 100 * (uint64_t)i,
                              100 * (uint64_t)i + d[i],
                              PT_PROFILE_SYNC_ESTIMATE));
  long c = child(p, 0, PT_PROFILE_COMM, 5);
  long r = child(p, (size_t)c, PT_PROFILE_DEST, 1);
  ASSERT_TRUE(c > 0 && r > 0);
  const pt_profile_node *n = pt_profile_node_at(p, (size_t)c);
  ASSERT_EQ_U64(n->incl_ns, 90);
  ASSERT_EQ_U64(n->trans_ns, 30);
  ASSERT_EQ_U64(n->sync_ns, 60);
  n = pt_profile_node_at(p, (size_t)r);
  ASSERT_EQ_U64(n->trans_ns, 30);
  ASSERT_EQ_U64(n->sync_ns, 60);
  pt_profile_destroy(p);
}

static int run_iterations(int iters, const char *dir, uint64_t id,
                          size_t *size) {
  pt_profile *p;
  if (pt_profile_create(&p, 0)) return -1;
  uint64_t t = 1000;
  pt_profile_enter(p, PT_PROFILE_PROC, P_MAIN, "main", t);
  for (int i = 0; i < iters; i++) {
    pt_profile_enter(p, PT_PROFILE_LOOP, 5, NULL, t += 3);
    uint64_t t0 = t + 2;
    t = t0 + 100000;
    pt_profile_comm(p, 77, "MPI_Sendrecv", "", 0, i % 4, 1024, t0, t, 50);
    pt_profile_leave(p, t += 1);
  }
  pt_profile_leave(p, t += 7);
  pt_error err = {0};
  int rc = pt_profile_save(p, dir, id, &err);
  pt_profile_destroy(p);
  if (rc) return rc;
  char path[512];
  snprintf(path, sizeof path, "%s/profile.%llu", dir, (unsigned long long)id);
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fclose(f);
  return 0;
}

static char tmpdir[256];

TEST(size_constant) {
  size_t s100 = 0, s10k = 0;
  ASSERT_OK(run_iterations(100, tmpdir, 1, &s100));
  ASSERT_OK(run_iterations(10000, tmpdir, 2, &s10k));
  ASSERT_TRUE(s100 > 0);
  ASSERT_EQ_U64(s100, s10k);
}

TEST(save_load_merge) {
  size_t sz;
  ASSERT_OK(run_iterations(1000, tmpdir, 3, &sz));
  char path[512];
  snprintf(path, sizeof path, "%s/profile.3", tmpdir);
  pt_profile *a, *b, *m;
  pt_error err = {0};
  ASSERT_OK(pt_profile_load(&a, path, &err));
  ASSERT_OK(pt_profile_load(&b, path, &err));
  ASSERT_EQ_U64(pt_profile_nnodes(a), 8); /* root main loop stmt 4 dests */
  long mn = child(a, 0, PT_PROFILE_PROC, P_MAIN);
  long lp = child(a, (size_t)mn, PT_PROFILE_LOOP, 5);
  long st = child(a, (size_t)lp, PT_PROFILE_COMM, 77);
  ASSERT_TRUE(st > 0);
  ASSERT_EQ_U64(pt_profile_node_at(a, (size_t)st)->count, 1000);
  ASSERT_EQ_U64(pt_profile_node_at(a, (size_t)st)->bytes, 1024000);
  ASSERT_EQ_STR(pt_profile_node_at(a, (size_t)st)->name, "MPI_Sendrecv");
  ASSERT_OK(pt_profile_create(&m, 64));
  ASSERT_OK(pt_profile_merge(m, a));
  ASSERT_OK(pt_profile_merge(m, b));
  ASSERT_EQ_U64(pt_profile_nnodes(m), 8);
  st = child(m, (size_t)child(m, (size_t)child(m, 0, PT_PROFILE_PROC, P_MAIN),
                              PT_PROFILE_LOOP, 5),
             PT_PROFILE_COMM, 77);
  ASSERT_TRUE(st > 0);
  ASSERT_EQ_U64(pt_profile_node_at(m, (size_t)st)->count, 2000);
  ASSERT_EQ_U64(pt_profile_node_at(m, 0)->incl_ns,
                2 * pt_profile_node_at(a, 0)->incl_ns);
  /* the program ran once in each of the two profiles */
  ASSERT_EQ_U64(pt_profile_node_at(a, 0)->count, 1);
  ASSERT_EQ_U64(pt_profile_node_at(m, 0)->count, 2);
  /* and once more merged into that sum: three */
  pt_profile *m3;
  ASSERT_OK(pt_profile_create(&m3, 64));
  ASSERT_OK(pt_profile_merge(m3, m));
  ASSERT_OK(pt_profile_merge(m3, a));
  ASSERT_EQ_U64(pt_profile_node_at(m3, 0)->count, 3);
  pt_profile_destroy(m3);
  pt_profile_destroy(a);
  pt_profile_destroy(b);
  pt_profile_destroy(m);
}

/* A statement keeps its longest call (mpiP's Callsite Time Max): through
 * a saved file (the version-1 node's reserved word) and a merge of two
 * ranks' profiles; destinations do not have one. */
static long stmt_max(uint64_t id, const uint64_t *durs, size_t n) {
  pt_profile *p;
  if (pt_profile_create(&p, 0)) return -1;
  uint64_t t = 100;
  pt_profile_enter(p, PT_PROFILE_PROC, P_MAIN, "main", t);
  for (size_t i = 0; i < n; i++, t += 1000)
    pt_profile_comm(p, 78, "MPI_Send", "", 0, 1, 8, t, t + durs[i], 0);
  pt_profile_leave(p, t);
  pt_error err = {0};
  int rc = pt_profile_save(p, tmpdir, id, &err);
  pt_profile_destroy(p);
  return rc;
}
TEST(statement_longest_call) {
  const uint64_t a_d[] = {5, 40, 12}, b_d[] = {70, 3};
  ASSERT_TRUE(stmt_max(41, a_d, 3) == 0);
  ASSERT_TRUE(stmt_max(42, b_d, 2) == 0);
  char path[512];
  pt_profile *a, *b, *m;
  pt_error err = {0};
  snprintf(path, sizeof path, "%s/profile.41", tmpdir);
  ASSERT_OK(pt_profile_load(&a, path, &err));
  snprintf(path, sizeof path, "%s/profile.42", tmpdir);
  ASSERT_OK(pt_profile_load(&b, path, &err));
  long st = child(a, (size_t)child(a, 0, PT_PROFILE_PROC, P_MAIN),
                  PT_PROFILE_COMM, 78);
  ASSERT_TRUE(st > 0);
  ASSERT_EQ_U64(pt_profile_node_at(a, (size_t)st)->count, 3);
  ASSERT_EQ_U64(pt_profile_node_at(a, (size_t)st)->incl_ns, 57);
  ASSERT_EQ_U64(pt_profile_node_at(a, (size_t)st)->max_ns, 40);
  long de = child(a, (size_t)st, PT_PROFILE_DEST, 1);
  ASSERT_TRUE(de > 0);
  ASSERT_EQ_U64(pt_profile_node_at(a, (size_t)de)->max_ns, 0);
  ASSERT_OK(pt_profile_create(&m, 64));
  ASSERT_OK(pt_profile_merge(m, a));
  ASSERT_OK(pt_profile_merge(m, b));
  st = child(m, (size_t)child(m, 0, PT_PROFILE_PROC, P_MAIN), PT_PROFILE_COMM,
             78);
  ASSERT_TRUE(st > 0);
  ASSERT_EQ_U64(pt_profile_node_at(m, (size_t)st)->count, 5);
  ASSERT_EQ_U64(pt_profile_node_at(m, (size_t)st)->max_ns, 70);
  /* the CSV's last column */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  pt_profile_report_opts o = {0};
  o.csv = 1;
  ASSERT_OK(pt_profile_report(m, f, &o, &err));
  fflush(f);
  ASSERT_CONTAINS(text, ",sync_ns,max_ns\n");
  ASSERT_CONTAINS(text, ",statement,MPI_Send,,5,130,130,40,130,0,70\n");
  fclose(f);
  free(text);
  pt_profile_destroy(a);
  pt_profile_destroy(b);
  pt_profile_destroy(m);
}

static int load_bytes(const uint8_t *b, size_t n, pt_error *err) {
  char path[512];
  snprintf(path, sizeof path, "%s/bad", tmpdir);
  FILE *f = fopen(path, "wb");
  if (!f) return -100;
  fwrite(b, 1, n, f);
  fclose(f);
  pt_profile *p = NULL;
  int rc = pt_profile_load(&p, path, err);
  pt_profile_destroy(p);
  return rc;
}

TEST(corrupt_files) {
  size_t sz;
  ASSERT_OK(run_iterations(10, tmpdir, 4, &sz));
  char path[512];
  snprintf(path, sizeof path, "%s/profile.4", tmpdir);
  FILE *f = fopen(path, "rb");
  ASSERT_TRUE(f != NULL);
  uint8_t buf[4096];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  ASSERT_EQ_U64(n, sz);
  pt_error err = {0};
  ASSERT_OK(load_bytes(buf, n, &err));
  ASSERT_STATUS(load_bytes(buf, n - 1, &err), PT_ECORRUPT);
  ASSERT_CONTAINS(err.msg, "/bad: offset");
  ASSERT_STATUS(load_bytes(buf, 20, &err), PT_ETRUNCATED);
  buf[n / 2] ^= 0x40;
  ASSERT_STATUS(load_bytes(buf, n, &err), PT_ECORRUPT);
  ASSERT_CONTAINS(err.msg, "checksum");
  buf[n / 2] ^= 0x40;
  buf[8] = 9;
  ASSERT_STATUS(load_bytes(buf, n, &err), PT_EVERSION);
  buf[0] = 'X';
  ASSERT_STATUS(load_bytes(buf, n, &err), PT_EFORMAT);
  pt_profile *p;
  ASSERT_STATUS(pt_profile_load(&p, "/nonexistent/profile.0", &err),
                PT_ENOTFOUND);
}

TEST(full_tree_folds) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 3));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, 1, "a", 0));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, 2, "b", 1));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, 3, "c", 2)); /* no room */
  ASSERT_OK(pt_profile_leave(p, 3));
  ASSERT_OK(pt_profile_leave(p, 4));
  ASSERT_OK(pt_profile_leave(p, 5));
  ASSERT_EQ_U64(pt_profile_nnodes(p), 3);
  ASSERT_EQ_U64(pt_profile_dropped(p), 1);
  ASSERT_EQ_U64(pt_profile_node_at(p, 2)->incl_ns, 3);
  pt_profile_destroy(p);
}

TEST(compensation) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 0));
  pt_profile_set_probe_cost(p, 10);
  /* outer [0, 10000) with 100 inner enter/leave pairs: the 200 inner
   * probes and the outer enter (10 ns each) are subtracted; an inner pair
   * loses one probe (the end of its enter, the start of its leave). */
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, 1, "outer", 0));
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, 2, "inner",
                               100 + (uint64_t)i * 50));
    ASSERT_OK(pt_profile_leave(p, 120 + (uint64_t)i * 50));
  }
  ASSERT_OK(pt_profile_leave(p, 10000));
  const pt_profile_node *o = pt_profile_node_at(p, 1);
  const pt_profile_node *in = pt_profile_node_at(p, 2);
  ASSERT_EQ_U64(o->incl_ns, 10000 - 10 - 200 * 10);
  ASSERT_EQ_U64(in->count, 100);
  ASSERT_EQ_U64(in->incl_ns, 100 * (20 - 10));
  ASSERT_TRUE(pt_profile_calibrate() > 0);
  pt_profile_destroy(p);
}

static void marker_function(void) {}

TEST(sites_are_stable) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 0));
  const char *m1, *m2;
  uint64_t o1, o2;
  uint64_t k1 = pt_profile_site(p, (const void *)marker_function, &m1, &o1);
  uint64_t k2 = pt_profile_site(p, (const void *)marker_function, &m2, &o2);
  ASSERT_EQ_U64(k1, k2);
  ASSERT_EQ_U64(o1, o2);
  ASSERT_TRUE(m1 == m2);
  ASSERT_CONTAINS(m1, "test_profile");
  /* The offset is link-time: small, not a run-time address. */
  ASSERT_TRUE(o1 < 0x10000000);
  pt_profile_destroy(p);
}

TEST(report_and_focus) {
  pt_profile *p;
  ASSERT_OK(pt_profile_create(&p, 0));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_MAIN, "main", 0));
  ASSERT_OK(pt_profile_enter(p, PT_PROFILE_PROC, P_P4, "p4", 10));
  ASSERT_OK(pt_profile_comm(p, 9, "MPI_Recv", "", 0, 3, 64, 20, 60, 30));
  ASSERT_OK(pt_profile_leave(p, 90));
  ASSERT_OK(pt_profile_leave(p, 100));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  pt_error err = {0};
  pt_profile_report_opts o = {0};
  ASSERT_OK(pt_profile_report(p, f, &o, &err));
  fflush(f);
  ASSERT_CONTAINS(text, "procedure main");
  ASSERT_CONTAINS(text, "statement MPI_Recv");
  ASSERT_CONTAINS(text, "<- rank 3"); /* a receive: where it came from */
  ASSERT_CONTAINS(text, "trans 10ns, sync 30ns, max 40ns]");
  fclose(f);
  free(text);
  f = open_memstream(&text, &len);
  o.focus = "p4";
  ASSERT_OK(pt_profile_report(p, f, &o, &err));
  fflush(f);
  ASSERT_CONTAINS(text, "# in: program > procedure main");
  ASSERT_TRUE(strstr(text, "procedure main\n") == NULL ||
              strstr(text, "# in") != NULL);
  fclose(f);
  free(text);
  f = open_memstream(&text, &len);
  o.focus = "nothing-here";
  ASSERT_STATUS(pt_profile_report(p, f, &o, &err), PT_ENOTFOUND);
  ASSERT_CONTAINS(err.msg, "nothing-here");
  fclose(f);
  free(text);
  pt_profile_destroy(p);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/pt_test_profile.%ld", (long)getpid());
  RUN(fortran_module_names);
  RUN(addr2line_many_addresses);
  RUN(addr2line_long_name);
  RUN(tree_times);
  RUN(recursion_folded);
  RUN(comm_destinations);
  RUN(sync_estimated);
  RUN(size_constant);
  RUN(save_load_merge);
  RUN(corrupt_files);
  RUN(full_tree_folds);
  RUN(compensation);
  RUN(sites_are_stable);
  RUN(report_and_focus);
  RUN(statement_longest_call);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmpdir);
  return test_summary();
}
