/* The run-time profile mode: per-thread collectors, the environment
 * switch, -finstrument-functions hooks, loops and blocks, saving at exit.
 *
 * The hot path (a hook while the mode is on) is: load the thread's
 * collector pointer, resolve the address through its site cache, one node
 * lookup, a clock read.  While the mode is off every entry point returns
 * after one relaxed load. */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_int.h"

#define NOINST __attribute__((no_instrument_function))

typedef struct thread_prof {
  pt_profile *p;
  uint64_t index;
  struct thread_prof *next;
} thread_prof;

PT_API NOINST void __cyg_profile_func_enter(void *fn, void *call_site);
PT_API NOINST void __cyg_profile_func_exit(void *fn, void *call_site);

static int g_on;           /* read with relaxed atomics */
static double g_enter_ns, g_leave_ns; /* compensation per probe, 0 = off */
static size_t g_nodes;     /* nodes per collector */
static uint64_t g_rank;
static char g_archive[PATH_MAX] = "paratrace.ptf";
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static thread_prof *g_threads;
static uint64_t g_nthreads;
static int g_saved, g_atexit;
static __thread thread_prof *t_self;
static __thread int t_failed;

NOINST int pt_profile_runtime_enabled(void) {
  return __atomic_load_n(&g_on, __ATOMIC_RELAXED);
}

static NOINST void save_at_exit(void) {
  pthread_mutex_lock(&g_lock);
  int done = g_saved;
  pthread_mutex_unlock(&g_lock);
  if (done) return;
  pt_error err = {0};
  if (pt_profile_runtime_save(&err) != PT_OK)
    fprintf(stderr, "paratrace: profile not saved: %s\n", err.msg);
}

static NOINST void calib_target(void) {}

/* The cost of the probes as the hooks make them, on a scratch collector:
 * rounds of R enter+exit hook pairs timed as a whole (clock reads
 * amortized), the fastest round taken (preemption and other load only
 * ever add time; each round starts a fresh time slice), and one pair's
 * cost split over its 4 probes (each hook
 * makes 2: call site and procedure). */
static NOINST void calibrate_hooks(double *enter_ns, double *leave_ns) {
  *enter_ns = *leave_ns = 0;
  thread_prof scratch = {0};
  if (pt_profile_create(&scratch.p, 64) != PT_OK) return;
  enum { ROUNDS = 64, R = 1000 };
  thread_prof *saved = t_self;
  int was_on = g_on;
  t_self = &scratch;
  __atomic_store_n(&g_on, 1, __ATOMIC_RELEASE);
  void *fn = (void *)calib_target, *site = __builtin_return_address(0);
  for (int i = 0; i < 2000; i++) { /* warm the caches */
    __cyg_profile_func_enter(fn, site);
    __cyg_profile_func_exit(fn, site);
  }
  double best = -1;
  for (int k = 0; k < ROUNDS; k++) {
    sched_yield(); /* a round starts a time slice: fewer preemptions */
    uint64_t t0 = pt_profile_now();
    for (int i = 0; i < R; i++) {
      __cyg_profile_func_enter(fn, site);
      __cyg_profile_func_exit(fn, site);
    }
    uint64_t t1 = pt_profile_now();
    double d = (double)(t1 - t0) / R;
    if (best < 0 || d < best) best = d;
  }
  __atomic_store_n(&g_on, was_on, __ATOMIC_RELEASE);
  t_self = saved;
  pt_profile_destroy(scratch.p);
  if (best > 0) *enter_ns = *leave_ns = best / 4;
}

NOINST void pt_profile_runtime_enable(int on, int compensate) {
  if (on) {
    double en = 0, le = 0;
    if (compensate) calibrate_hooks(&en, &le);
    pthread_mutex_lock(&g_lock);
    g_enter_ns = en;
    g_leave_ns = le;
    if (!g_atexit) {
      g_atexit = 1;
      atexit(save_at_exit);
    }
    pthread_mutex_unlock(&g_lock);
  }
  __atomic_store_n(&g_on, on ? 1 : 0, __ATOMIC_RELEASE);
}

NOINST void pt__profile_runtime_discard(void) {
  __atomic_store_n(&g_on, 0, __ATOMIC_RELEASE);
  pthread_mutex_lock(&g_lock);
  g_saved = 1;
  pthread_mutex_unlock(&g_lock);
}

NOINST void pt_profile_runtime_config(uint64_t rank, const char *archive) {
  pthread_mutex_lock(&g_lock);
  g_rank = rank;
  if (archive && *archive) snprintf(g_archive, sizeof g_archive, "%s", archive);
  pthread_mutex_unlock(&g_lock);
}

NOINST pt_profile *pt_profile_self(void) {
  if (t_self) return t_self->p;
  if (!pt_profile_runtime_enabled() || t_failed) return NULL;
  thread_prof *t = calloc(1, sizeof *t);
  if (!t || pt_profile_create(&t->p, g_nodes) != PT_OK) {
    free(t);
    t_failed = 1;
    return NULL;
  }
  pthread_mutex_lock(&g_lock);
  pt_profile_set_probe_costs(t->p, g_enter_ns, g_leave_ns);
  t->index = g_nthreads++;
  t->next = g_threads;
  g_threads = t;
  pthread_mutex_unlock(&g_lock);
  t_self = t;
  return t->p;
}

NOINST int pt_profile_runtime_save(pt_error *err) {
  pthread_mutex_lock(&g_lock);
  int rc = PT_OK;
  for (thread_prof *t = g_threads; t; t = t->next) {
    uint64_t id = g_rank * 1024 + (t->index < 1024 ? t->index : 1023);
    int r = pt_profile_save(t->p, g_archive, id, rc ? NULL : err);
    if (r && !rc) rc = r;
  }
  g_saved = 1;
  pthread_mutex_unlock(&g_lock);
  return rc;
}

/* ---- hooks ----------------------------------------------------------------- */

static NOINST void enter_site(pt_profile *p, int kind, const void *addr,
                              const char *name) {
  /* The clock first: compensation assumes a probe's cost follows its
   * clock read. */
  uint64_t now = pt_profile_now();
  const char *module;
  uint64_t off;
  uint64_t key = pt_profile_site(p, addr, &module, &off);
  if (pt_profile_enter(p, kind, key, name, now) == PT_OK)
    pt_profile_set_site(p, module, off);
}

/* -finstrument-functions: a call site record (in the caller) holding the
 * callee's procedure record, as the seed keeps one proc record per call
 * statement. */
NOINST void __cyg_profile_func_enter(void *fn, void *call_site) {
  if (!pt_profile_runtime_enabled()) return;
  pt_profile *p = pt_profile_self();
  if (!p) return;
  enter_site(p, PT_PROFILE_CALL, call_site, NULL);
  enter_site(p, PT_PROFILE_PROC, fn, NULL);
}

NOINST void __cyg_profile_func_exit(void *fn, void *call_site) {
  (void)fn;
  (void)call_site;
  if (!pt_profile_runtime_enabled()) return;
  pt_profile *p = pt_profile_self();
  if (!p) return;
  uint64_t now = pt_profile_now();
  pt_profile_leave(p, now);
  /* Two probes on one clock read: the second one starts a probe later, as
   * if it had read the clock itself (keeps parents >= children). */
  pt_profile_leave(p, now + (uint64_t)p->leave_ns);
}

__attribute__((noinline)) NOINST void pt_profile_loop_begin(void) {
  if (!pt_profile_runtime_enabled()) return;
  pt_profile *p = pt_profile_self();
  if (p) enter_site(p, PT_PROFILE_LOOP, __builtin_return_address(0), NULL);
}

NOINST void pt_profile_loop_end(void) {
  if (!pt_profile_runtime_enabled()) return;
  pt_profile *p = pt_profile_self();
  if (p) pt_profile_leave(p, pt_profile_now());
}

__attribute__((noinline)) NOINST void pt_profile_block_begin(const char *name) {
  if (!pt_profile_runtime_enabled()) return;
  pt_profile *p = pt_profile_self();
  if (p) enter_site(p, PT_PROFILE_BLOCK, __builtin_return_address(0), name);
}

NOINST void pt_profile_block_end(void) {
  if (!pt_profile_runtime_enabled()) return;
  pt_profile *p = pt_profile_self();
  if (p) pt_profile_leave(p, pt_profile_now());
}

/* ---- the environment --------------------------------------------------------- */

__attribute__((constructor)) static NOINST void from_environment(void) {
  const char *mode = getenv("PARATRACE_MODE");
  if (!mode || (strcmp(mode, "profile") != 0 && strcmp(mode, "both") != 0))
    return;
  const char *nodes = getenv("PARATRACE_PROFILE_NODES");
  if (nodes && *nodes) {
    char *end;
    unsigned long long n = strtoull(nodes, &end, 10);
    if (*end == '\0' && n >= 2 && n <= (1u << 26)) g_nodes = (size_t)n;
    else
      fprintf(stderr, "paratrace: PARATRACE_PROFILE_NODES=%s ignored "
                      "(want 2..67108864)\n", nodes);
  }
  /* The rank, until an MPI library says so: what the launcher exports. */
  uint64_t rank = 0;
  static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                          "PMI_RANK", "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof rank_vars / sizeof rank_vars[0]; i++) {
    const char *v = getenv(rank_vars[i]);
    char *end;
    if (!v || !*v) continue;
    unsigned long long r = strtoull(v, &end, 10);
    if (*end == '\0' && r < (1ull << 40)) {
      rank = r;
      break;
    }
  }
  const char *out = getenv("PARATRACE_OUTPUT");
  pt_profile_runtime_config(rank, out);
  const char *comp = getenv("PARATRACE_COMPENSATE");
  pt_profile_runtime_enable(1, !(comp && strcmp(comp, "0") == 0));
}
