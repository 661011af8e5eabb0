/* The recorder: user API round trip, threads, buffer policies, on/off,
 * joined writers, unwritable directory. */
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <stdio.h>
#include <unistd.h>

#include "paratrace/reader.h"
#include "paratrace/record.h"
#include "record/open_call.h"
#include "store/block.h"
#include "test.h"

/* record.c's entry for events the MPI wrappers encode themselves */
int pt__rec_event_enc(uint64_t time, const uint8_t *body, size_t len);

static char dir[256];

static void path_of(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

/* Count events per kind (and in total) of an archive. */
typedef struct counts {
  uint64_t total, kind[PT_EV__COUNT];
  uint64_t lost, overflow_policy;
  uint64_t nlocs;
  int ordered;
} counts;

static int read_counts(const char *path, counts *c) {
  memset(c, 0, sizeof *c);
  c->ordered = 1;
  pt_reader *r;
  pt_error err = {0};
  int rc = pt_reader_open(&r, path, NULL, &err);
  if (rc) {
    fprintf(stderr, "%s\n", err.msg);
    return rc;
  }
  for (size_t i = 0; pt_reader_def(r, i); i++)
    if (pt_reader_def(r, i)->kind == PT_DEF_LOCATION) c->nlocs++;
  pt_event ev;
  uint64_t last = 0;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) {
    c->total++;
    if (ev.kind < PT_EV__COUNT) c->kind[ev.kind]++;
    if (ev.time < last) c->ordered = 0;
    last = ev.time;
    if (ev.kind == PT_EV_BUFFER_OVERFLOW) {
      c->lost += ev.size;
      c->overflow_policy = (uint64_t)ev.tag;
    }
  }
  pt_reader_close(r);
  return rc == PT_END ? PT_OK : rc;
}

TEST(user_api) {
  char p[300];
  path_of(p, sizeof p, "user.ptf");
  pt_rec_opts o = {.path = p};
  pt_error err = {0};
  ASSERT_OK(pt_rec_start(&o, &err));
  ASSERT_STATUS(pt_rec_start(&o, &err), PT_ESTATE);
  pt_trace_begin("solve");
  pt_trace_mark_int("iteration", 7);
  pt_trace_mark_double("residual", 0.5);
  pt_trace_mark_text("phase", "setup");
  pt_trace_message("converged");
  pt_trace_end("solve");
  pt_trace_measure(0);
  pt_trace_begin("hidden");
  pt_trace_end("hidden");
  pt_trace_measure(1);
  pt_trace_level(0);
  pt_trace_begin("also-hidden");
  pt_trace_level(3);
  ASSERT_OK(pt_rec_stop(&err));
  counts c;
  ASSERT_OK(read_counts(p, &c));
  ASSERT_EQ_U64(c.kind[PT_EV_ENTER], 1);
  ASSERT_EQ_U64(c.kind[PT_EV_LEAVE], 1);
  ASSERT_EQ_U64(c.kind[PT_EV_MARK], 3);
  ASSERT_EQ_U64(c.kind[PT_EV_MESSAGE], 1);
  ASSERT_EQ_U64(c.kind[PT_EV_MEASURE], 2);
  ASSERT_EQ_U64(c.total, 8);
  ASSERT_TRUE(c.ordered);
}

static void *thread_main(void *arg) {
  long n = (long)arg;
  for (long i = 0; i < n; i++) {
    pt_trace_begin("work");
    pt_trace_end("work");
  }
  return NULL;
}

TEST(threads_get_streams) {
  char p[300];
  path_of(p, sizeof p, "threads.ptf");
  pt_rec_opts o = {.path = p, .buffer = 8192};
  pt_error err = {0};
  ASSERT_OK(pt_rec_start(&o, &err));
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    ASSERT_TRUE(pthread_create(&th[i], NULL, thread_main, (void *)5000L) == 0);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  ASSERT_OK(pt_rec_stop(&err));
  counts c;
  ASSERT_OK(read_counts(p, &c));
  ASSERT_EQ_U64(c.nlocs, 4);
  ASSERT_EQ_U64(c.kind[PT_EV_ENTER], 20000);
  ASSERT_EQ_U64(c.kind[PT_EV_LEAVE], 20000);
}

/* A thread's handle from an earlier recording is not used after a stop
 * and a new start (it was freed at the stop: ASan caught the flush). */
TEST(flush_after_restart) {
  char p[300], q[300];
  path_of(p, sizeof p, "restart1.ptf");
  path_of(q, sizeof q, "restart2.ptf");
  pt_rec_opts o = {.path = p};
  pt_error err = {0};
  ASSERT_OK(pt_rec_start(&o, &err));
  pt_trace_mark_int("first", 1);
  ASSERT_OK(pt_rec_stop(&err));
  o.path = q;
  ASSERT_OK(pt_rec_start(&o, &err));
  ASSERT_OK(pt_rec_flush());
  pt_trace_mark_int("second", 2);
  ASSERT_OK(pt_rec_flush());
  ASSERT_OK(pt_rec_stop(&err));
  counts c;
  ASSERT_OK(read_counts(q, &c));
  ASSERT_EQ_U64(c.kind[PT_EV_MARK], 1);
  ASSERT_EQ_U64(c.nlocs, 1);
}

static int g_hammer;
static void *hammer_main(void *arg) {
  (void)arg;
  long i = 0;
  while (!__atomic_load_n(&g_hammer, __ATOMIC_ACQUIRE)) {
    pt_trace_mark_int("i", i++);
    if (i % 64 == 0) pt_rec_flush();
  }
  return NULL;
}

/* Threads write while the main thread stops and starts recordings again
 * and again: every archive reads back in order (under ASan: no thread
 * touches a stopped recording's memory). */
TEST(stop_start_while_threads_write) {
  char p[300];
  path_of(p, sizeof p, "hammer.ptf");
  pt_rec_opts o = {.path = p, .buffer = 4096, .overwrite = 1};
  pt_error err = {0};
  g_hammer = 0;
  pthread_t th[3];
  ASSERT_OK(pt_rec_start(&o, &err));
  for (int i = 0; i < 3; i++)
    ASSERT_TRUE(pthread_create(&th[i], NULL, hammer_main, NULL) == 0);
  for (int round = 0; round < 40; round++) {
    struct timespec ms = {0, 500000};
    nanosleep(&ms, NULL);
    ASSERT_OK(pt_rec_stop(&err));
    counts c;
    ASSERT_OK(read_counts(p, &c));
    ASSERT_TRUE(c.ordered);
    ASSERT_OK(pt_rec_start(&o, &err));
  }
  __atomic_store_n(&g_hammer, 1, __ATOMIC_RELEASE);
  for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
  ASSERT_OK(pt_rec_stop(&err));
}

static void policy_run(const char *name, int policy, counts *c) {
  char p[300];
  path_of(p, sizeof p, name);
  pt_rec_opts o = {.path = p, .buffer = 4096, .policy = policy};
  pt_error err = {0};
  if (pt_rec_start(&o, &err)) return;
  for (int i = 0; i < 10000; i++) pt_trace_mark_int("i", i);
  pt_rec_stop(&err);
  read_counts(p, c);
}

TEST(policy_stop) {
  counts c;
  policy_run("stop.ptf", PT_REC_STOP, &c);
  ASSERT_TRUE(c.kind[PT_EV_MARK] > 10 && c.kind[PT_EV_MARK] < 1000);
  ASSERT_EQ_U64(c.kind[PT_EV_BUFFER_OVERFLOW], 1);
  ASSERT_EQ_U64(c.overflow_policy, PT_REC_STOP);
}

TEST(policy_ring) {
  counts c;
  policy_run("ring.ptf", PT_REC_RING, &c);
  uint64_t kept = c.kind[PT_EV_MARK];
  ASSERT_TRUE(kept > 10 && kept < 1000);
  ASSERT_EQ_U64(c.kind[PT_EV_BUFFER_OVERFLOW], 1);
  ASSERT_EQ_U64(c.overflow_policy, PT_REC_RING);
  ASSERT_EQ_U64(c.lost + kept, 10000);
  /* The newest were kept: the last mark has value 9999. */
  char p[300];
  path_of(p, sizeof p, "ring.ptf");
  pt_reader *r;
  pt_error err = {0};
  ASSERT_OK(pt_reader_open(&r, p, NULL, &err));
  pt_event ev;
  int64_t lastv = -1;
  while (pt_reader_next(r, &ev) == PT_OK)
    if (ev.kind == PT_EV_MARK && ev.nattrs) lastv = ev.attrs[0].val.v.i;
  pt_reader_close(r);
  ASSERT_EQ_I64(lastv, 9999);
}

TEST(policy_flush_keeps_all) {
  counts c;
  policy_run("flush.ptf", PT_REC_FLUSH, &c);
  ASSERT_EQ_U64(c.kind[PT_EV_MARK], 10000);
  ASSERT_EQ_U64(c.kind[PT_EV_BUFFER_OVERFLOW], 0);
}

/* n calls of a region, as the MPI wrappers record them (encoded, with a
 * send in the middle and an int attribute on the ENTER: enc = 1) or
 * through pt_rec_event (enc = 0); returns the number of events. */
static uint64_t calls(int enc, int n) {
  uint64_t reg = pt_rec_region("MPI_Send", PT_ROLE_FUNCTION, PT_PARADIGM_MPI);
  uint64_t key = pt_rec_attribute("count", PT_TYPE_INT);
  pt__codec_init();
  for (int i = 0; i < n; i++) {
    uint64_t t = pt_rec_now();
    pt_attr a = {key, {.type = PT_TYPE_INT, .v.i = i % 1000}};
    pt_event evs[3] = {
        {.time = t, .kind = PT_EV_ENTER, .ref = reg, .nattrs = 1, .attrs = &a},
        {.time = t + 5, .kind = PT_EV_SEND, .peer = i % 4, .comm = 2,
         .tag = 7, .size = 64},
        {.time = t + 9, .kind = PT_EV_LEAVE, .ref = reg}};
    for (int k = 0; k < 3; k++) {
      if (!enc) {
        pt_rec_event(&evs[k]);
        continue;
      }
      uint8_t b[256];
      uint64_t pt = evs[k].time, pl = PT_NONE, dt;
      evs[k].location = PT_NONE;
      size_t len = pt__event_put(b, &evs[k], &pt, &pl, &dt);
      pt__rec_event_enc(evs[k].time, b, len);
    }
  }
  return 3 * (uint64_t)n;
}

/* Events per flush-policy block of a 4 KiB buffer for calls(enc, n). */
static double per_block(int enc, int n, const char *name) {
  char p[300];
  path_of(p, sizeof p, name);
  pt_error err = {0};
  pt_rec_opts o = {.path = p, .buffer = 4096, .policy = PT_REC_FLUSH};
  if (pt_rec_start(&o, &err)) return -1;
  uint64_t made = calls(enc, n);
  pt_rec_stop(&err);
  pt_reader *r;
  if (pt_reader_open(&r, p, NULL, &err)) return -1;
  const pt_stream_info *si = pt_reader_stream_info(r, 0);
  /* the full blocks' events (the last one may be short) */
  double v = si && si->blocks > 10 && si->events == made
                 ? (double)si->events / (double)si->blocks
                 : -1;
  pt_reader_close(r);
  return v;
}

/* The ring keeps about as many of the newest events as a flush-policy
 * block of the same buffer size holds: it kept a fixed 96-byte-plus
 * copy of each event, 5 to 8 times fewer. */
TEST(ring_keeps_a_buffer_of_events) {
  for (int enc = 0; enc < 2; enc++) {
    double pb = per_block(enc, 20000, enc ? "ringcmp-enc.ptf" : "ringcmp.ptf");
    ASSERT_TRUE(pb > 0);
    char q[300];
    path_of(q, sizeof q, enc ? "ringenc.ptf" : "ringfull.ptf");
    pt_error err = {0};
    pt_rec_opts o = {.path = q, .buffer = 4096, .policy = PT_REC_RING};
    ASSERT_OK(pt_rec_start(&o, &err));
    uint64_t made = calls(enc, 20000);
    ASSERT_OK(pt_rec_stop(&err));
    counts c;
    ASSERT_OK(read_counts(q, &c));
    uint64_t kept = c.total - c.kind[PT_EV_BUFFER_OVERFLOW];
    fprintf(stderr, "  %s: flush block %.1f events, ring kept %llu\n",
            enc ? "encoded" : "pt_event", pb, (unsigned long long)kept);
    ASSERT_TRUE((double)kept >= 0.9 * pb);
    ASSERT_TRUE((double)kept <= 1.1 * pb); /* bounded by the buffer */
    ASSERT_EQ_U64(c.kind[PT_EV_BUFFER_OVERFLOW], 1);
    /* kept + lost = made, and the ENTER of the call open where the
     * kept events begin, when its ENTER was lost (entered again) */
    ASSERT_TRUE(c.lost + kept >= made && c.lost + kept <= made + 1);
    ASSERT_TRUE(c.ordered);
  }
}

/* The stop policy stops after about a flush-policy block's events: it
 * counted each event as a fixed-layout 96-byte-plus record and stopped 5
 * to 8 times too early. */
TEST(stop_keeps_a_buffer_of_events) {
  for (int enc = 0; enc < 2; enc++) {
    double pb = per_block(enc, 20000, enc ? "stopcmp-enc.ptf" : "stopcmp.ptf");
    ASSERT_TRUE(pb > 0);
    char q[300];
    path_of(q, sizeof q, enc ? "stopenc.ptf" : "stopfull.ptf");
    pt_error err = {0};
    pt_rec_opts o = {.path = q, .buffer = 4096, .policy = PT_REC_STOP};
    ASSERT_OK(pt_rec_start(&o, &err));
    calls(enc, 5000);
    ASSERT_OK(pt_rec_stop(&err));
    counts c;
    ASSERT_OK(read_counts(q, &c));
    uint64_t kept = c.total - c.kind[PT_EV_BUFFER_OVERFLOW];
    fprintf(stderr, "  %s: flush block %.1f events, stop kept %llu\n",
            enc ? "encoded" : "pt_event", pb, (unsigned long long)kept);
    ASSERT_TRUE((double)kept >= 0.9 * pb);
    ASSERT_TRUE((double)kept <= 1.1 * pb);
    ASSERT_EQ_U64(c.kind[PT_EV_BUFFER_OVERFLOW], 1);
    ASSERT_EQ_U64(c.overflow_policy, PT_REC_STOP);
  }
}

/* The regions open where the ring's kept events begin are entered again
 * there (after the overflow mark), so their LEAVEs are kept: an MPI
 * program recorded with the ring policy used to lose its program region
 * (its ENTER was the first event dropped, and its LEAVE was dropped with
 * it), and `stats` counted all of its time as MPI time. */
TEST(ring_enters_the_regions_open_at_its_start) {
  char p[300];
  path_of(p, sizeof p, "ringopen.ptf");
  pt_rec_opts o = {.path = p, .buffer = 4096, .policy = PT_REC_RING};
  pt_error err = {0};
  ASSERT_OK(pt_rec_start(&o, &err));
  uint64_t prog = pt_rec_region("program", PT_ROLE_FUNCTION, PT_PARADIGM_USER);
  uint64_t solve = pt_rec_region("solve", PT_ROLE_FUNCTION, PT_PARADIGM_USER);
  pt_event e = {.time = pt_rec_now(), .kind = PT_EV_ENTER, .ref = prog};
  pt_rec_event(&e);
  e.ref = solve;
  pt_rec_event(&e);
  for (int i = 0; i < 5000; i++) pt_trace_mark_int("i", i);
  e = (pt_event){.time = pt_rec_now(), .kind = PT_EV_LEAVE, .ref = solve};
  pt_rec_event(&e);
  for (int i = 0; i < 20; i++) pt_trace_mark_int("j", i);
  e.time = pt_rec_now();
  e.ref = prog;
  pt_rec_event(&e);
  ASSERT_OK(pt_rec_stop(&err));
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, p, NULL, &err));
  pt_event ev;
  uint64_t n = 0, t0 = 0, marks = 0, stack[4], depth = 0;
  int nested = 1;
  while (pt_reader_next(r, &ev) == PT_OK) {
    if (n == 0) {
      ASSERT_EQ_U64(ev.kind, PT_EV_BUFFER_OVERFLOW);
      t0 = ev.time;
    } else if (n == 1 || n == 2) { /* outermost first, at the overflow */
      ASSERT_EQ_U64(ev.kind, PT_EV_ENTER);
      ASSERT_EQ_U64(ev.ref, n == 1 ? prog : solve);
      ASSERT_EQ_U64(ev.time, t0);
    }
    if (ev.kind == PT_EV_MARK) marks++;
    if (ev.kind == PT_EV_ENTER && depth < 4) stack[depth++] = ev.ref;
    if (ev.kind == PT_EV_LEAVE) {
      if (!depth || stack[depth - 1] != ev.ref) nested = 0;
      if (depth) depth--;
    }
    n++;
  }
  pt_reader_close(r);
  ASSERT_TRUE(marks > 10 && marks < 1000);
  ASSERT_TRUE(nested);
  ASSERT_EQ_U64(depth, 0); /* both LEAVEs kept */
}

TEST(ring_with_arrays) {
  char p[300];
  path_of(p, sizeof p, "ringarr.ptf");
  pt_rec_opts o = {.path = p, .buffer = 8192, .policy = PT_REC_RING};
  pt_error err = {0};
  ASSERT_OK(pt_rec_start(&o, &err));
  uint64_t ka = pt_rec_attribute("requests", PT_TYPE_INTS);
  uint64_t ks = pt_rec_attribute("name", PT_TYPE_STRING);
  int64_t arr[5] = {1, 2, 3, 4, 5};
  for (int i = 0; i < 500; i++) {
    pt_attr at[2] = {{ka, {.type = PT_TYPE_INTS, .count = (uint32_t)(i % 6),
                           .v.ints = arr}},
                     {ks, {.type = PT_TYPE_STRING, .v.s = i % 2 ? "odd" : "e"}}};
    pt_event ev = {.time = pt_rec_now(), .kind = PT_EV_MARK, .nattrs = 2,
                   .attrs = at, .ref = PT_NONE};
    pt_rec_event(&ev);
  }
  ASSERT_OK(pt_rec_stop(&err));
  pt_reader *r;
  ASSERT_OK(pt_reader_open(&r, p, NULL, &err));
  pt_event ev;
  uint64_t n = 0;
  while (pt_reader_next(r, &ev) == PT_OK) {
    if (ev.kind != PT_EV_MARK) continue;
    n++;
    ASSERT_EQ_U64(ev.nattrs, 2);
    for (uint32_t k = 0; k < ev.attrs[0].val.count; k++)
      ASSERT_EQ_I64(ev.attrs[0].val.v.ints[k], k + 1);
  }
  pt_reader_close(r);
  ASSERT_TRUE(n > 10);
}

TEST(joined_writers) {
  char p[300];
  path_of(p, sizeof p, "joined.ptf");
  pt_error err = {0};
  /* Three "ranks" in turn (one process: start/stop each). */
  pt_rec_opts lead = {.path = p, .rank = 0, .nranks = 3};
  ASSERT_OK(pt_rec_start(&lead, &err));
  pt_trace_begin("r0");
  pt_trace_end("r0");
  /* The leader must close last: record the joiners from child processes
   * (a forked child forgets the parent's recorder). */
  for (int rank = 1; rank < 3; rank++) {
    pid_t pid = fork();
    if (pid == 0) {
      pt_rec_opts j = {.path = p, .rank = (uint64_t)rank, .nranks = 3,
                       .join = 1};
      if (pt_rec_start(&j, NULL)) _exit(1);
      pt_trace_begin("rj");
      pt_trace_end("rj");
      _exit(pt_rec_stop(NULL) ? 1 : 0);
    }
    int st;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  ASSERT_OK(pt_rec_stop(&err));
  counts c;
  ASSERT_OK(read_counts(p, &c));
  ASSERT_EQ_U64(c.nlocs, 3);
  ASSERT_EQ_U64(c.kind[PT_EV_ENTER], 3);
}

/* A process ended by a signal whose default action ends it (SIGTERM from
 * a launcher, SIGABRT from abort(), SIGINT from Ctrl-C) still closes its archive: the events
 * in the (large, never flushed) buffer are kept, the signal still ends
 * the process. */
static void killed_run(const char *name, int sig) {
  char p[300];
  path_of(p, sizeof p, name);
  pid_t pid = fork();
  if (pid == 0) {
    pt_rec_opts o = {.path = p, .buffer = 8u << 20};
    if (pt_rec_start(&o, NULL)) _exit(1);
    for (int i = 0; i < 1000; i++) {
      pt_trace_begin("work");
      pt_trace_end("work");
    }
    pt_trace_begin("dying");
    if (sig == SIGABRT) abort();
    raise(sig);
    _exit(2);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  if (!WIFSIGNALED(st) || WTERMSIG(st) != sig)
    fprintf(stderr, "%s: child status %d\n", name, st);
  ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig);
}

TEST(killed_by_signal_closes) {
  int sigs[3] = {SIGTERM, SIGABRT, SIGINT}; /* SIGINT: Ctrl-C */
  for (int i = 0; i < 3; i++) {
    char name[32], p[300];
    snprintf(name, sizeof name, "killed%d.ptf", i);
    killed_run(name, sigs[i]);
    path_of(p, sizeof p, name);
    counts c;
    ASSERT_OK(read_counts(p, &c));
    ASSERT_EQ_U64(c.kind[PT_EV_ENTER], 1001);
    ASSERT_EQ_U64(c.kind[PT_EV_LEAVE], 1000);
  }
}

/* A program's own crash handler installed with SA_RESETHAND (print, then
 * return so that the fault recurs with the default action, as Open MPI's
 * does) runs once: the process ends by the signal instead of looping in
 * the handler, and the archive is closed. */
static volatile sig_atomic_t g_oneshot_calls;
static void oneshot(int sig) {
  (void)sig;
  g_oneshot_calls++;
  if (g_oneshot_calls > 1) _exit(3); /* run again: the flag was lost */
}

/* Run in a new process image (the recorder installs its handlers once
 * per process, and the test process has them already). */
static void oneshot_child(const char *p) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = oneshot;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
  alarm(20); /* a loop would end by SIGALRM */
  pt_rec_opts o = {.path = p};
  if (pt_rec_start(&o, NULL)) _exit(1);
  pt_trace_begin("work");
  pt_trace_end("work");
  pt_trace_begin("crashing");
  raise(SIGSEGV); /* the handler returns; raised again as a fault recurs */
  raise(SIGSEGV);
  _exit(2);
}

TEST(oneshot_crash_handler) {
  char p[300];
  path_of(p, sizeof p, "oneshot.ptf");
  pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", "test_record", "oneshot", p, (char *)NULL);
    _exit(4);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
    fprintf(stderr, "oneshot: child status %d\n", st);
  ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
  counts c;
  ASSERT_OK(read_counts(p, &c));
  ASSERT_EQ_U64(c.kind[PT_EV_ENTER], 2);
  ASSERT_EQ_U64(c.kind[PT_EV_LEAVE], 1);
}

/* The call a thread was in when the process is killed is written to that
 * thread's stream; a thread that ended before is not (its slot went with
 * it), and a thread still writing events meanwhile is not disturbed. */
static uint64_t g_reg_ended, g_reg_blocked;
static void *ended_thread(void *arg) {
  (void)arg;
  pt_trace_begin("t");
  pt_trace_end("t");
  pt__rec_open.time = 1;
  pt__rec_open.region = g_reg_ended + 1; /* "in a call" as it ends */
  return NULL;
}
static volatile int g_spin = 1;
static void *busy_thread(void *arg) {
  (void)arg;
  while (g_spin) {
    pt_trace_begin("spin");
    pt_trace_end("spin");
  }
  return NULL;
}

TEST(killed_threads_open_calls) {
  char p[300];
  path_of(p, sizeof p, "openthreads.ptf");
  pid_t pid = fork();
  if (pid == 0) {
    pt_rec_opts o = {.path = p, .buffer = 8u << 20};
    if (pt_rec_start(&o, NULL)) _exit(1);
    g_reg_ended = pt_rec_region("ended_call", PT_ROLE_FUNCTION, 0);
    g_reg_blocked = pt_rec_region("blocked_call", PT_ROLE_FUNCTION, 0);
    pt_trace_begin("main"); /* the main thread's stream: location 0 */
    pthread_t a, b[2];
    for (int i = 0; i < 2; i++) pthread_create(&b[i], NULL, busy_thread, NULL);
    /* its stack stays cached by the C library, not reused: the old slot
     * would still say "in ended_call" */
    pthread_create(&a, NULL, ended_thread, NULL);
    pthread_join(a, NULL);
    struct timespec ms = {0, 20000000};
    nanosleep(&ms, NULL);
    pt__rec_open.time = 2;
    pt__rec_open.region = g_reg_blocked + 1;
    raise(SIGTERM);
    _exit(2);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
  pt_reader *r;
  pt_error err = {0};
  ASSERT_OK(pt_reader_open(&r, p, NULL, &err));
  uint64_t ended = UINT64_MAX, blocked = UINT64_MAX;
  for (size_t i = 0; pt_reader_def(r, i); i++) {
    const pt_def *d = pt_reader_def(r, i);
    if (d->kind == PT_DEF_REGION && !strcmp(d->name, "ended_call"))
      ended = d->id;
    if (d->kind == PT_DEF_REGION && !strcmp(d->name, "blocked_call"))
      blocked = d->id;
  }
  pt_event ev;
  int rc, n_ended = 0, n_blocked = 0;
  uint64_t blocked_loc = UINT64_MAX;
  while ((rc = pt_reader_next(r, &ev)) == PT_OK) {
    if (ev.kind != PT_EV_ENTER) continue;
    if (ev.ref == ended) n_ended++;
    if (ev.ref == blocked) n_blocked++, blocked_loc = ev.location;
  }
  pt_reader_close(r);
  ASSERT_STATUS(rc, PT_END);
  ASSERT_TRUE(n_ended == 0);
  ASSERT_TRUE(n_blocked == 1);
  ASSERT_EQ_U64(blocked_loc, 0); /* the main thread's stream */
}

TEST(unwritable_directory) {
  pt_rec_opts o = {.path = "/proc/no/such/place.ptf"};
  pt_error err = {0};
  ASSERT_TRUE(pt_rec_start(&o, &err) != PT_OK);
  ASSERT_CONTAINS(err.msg, "/proc/no/such/place.ptf");
  pt_trace_begin("x"); /* harmless */
  ASSERT_OK(pt_rec_stop(&err));
}

/* A full disk (here the file size limit, SIGXFSZ ignored as a full disk
 * gives ENOSPC): one message on stderr, not one more when the archive is
 * closed; the program goes on. */
TEST(disk_full_one_message) {
  char path[300], errf[300];
  path_of(path, sizeof path, "full.ptf");
  path_of(errf, sizeof errf, "full.err");
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {64 << 10, 64 << 10};
    int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 2) < 0 || setrlimit(RLIMIT_FSIZE, &rl)) _exit(3);
    pt_rec_opts o = {.path = path, .buffer = 4096};
    pt_error err = {0};
    if (pt_rec_start(&o, &err) != PT_OK) _exit(4);
    for (int i = 0; i < 200000; i++) {
      pt_trace_begin(i % 2 ? "odd" : "even");
      pt_trace_mark_int("i", i);
      pt_trace_end(i % 2 ? "odd" : "even");
    }
    pt_rec_stop(&err);
    _exit(0);
  }
  int st = 0;
  ASSERT_TRUE(waitpid(pid, &st, 0) == pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  FILE *f = fopen(errf, "r");
  ASSERT_TRUE(f != NULL);
  char line[1024];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    n++;
    if (n == 1) ASSERT_CONTAINS(line, "File too large");
  }
  fclose(f);
  ASSERT_EQ_U64((uint64_t)n, 1);
}

/* PARATRACE_BUFFER must be a size: a negative one (which strtoull takes
 * as a huge value) or one that overflows is refused, naming it. */
TEST(buffer_env_refused) {
  static const char *const bad[] = {"-5", " 4M", "+4M", "99999999999G", "4X",
                                    "0", "1", "4095", "33M"};
  char path[300];
  path_of(path, sizeof path, "env.ptf");
  setenv("PARATRACE_OUTPUT", path, 1);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    setenv("PARATRACE_BUFFER", bad[i], 1);
    pt_error err = {0};
    ASSERT_TRUE(pt_rec_start_env(0, 1, 0, &err) != PT_OK);
    ASSERT_CONTAINS(err.msg, "PARATRACE_BUFFER");
  }
  setenv("PARATRACE_BUFFER", "64K", 1);
  pt_error err = {0};
  ASSERT_OK(pt_rec_start_env(0, 1, 0, &err));
  ASSERT_OK(pt_rec_stop(&err));
  unsetenv("PARATRACE_BUFFER");
  /* PARATRACE_CLOCK: monotonic or auto, nothing else silently */
  setenv("PARATRACE_CLOCK", "bogus", 1);
  pt_error e2 = {0};
  ASSERT_TRUE(pt_rec_start_env(0, 1, 0, &e2) != PT_OK);
  ASSERT_CONTAINS(e2.msg, "PARATRACE_CLOCK");
  unsetenv("PARATRACE_CLOCK");
  unsetenv("PARATRACE_OUTPUT");
}

int main(int argc, char **argv) {
  /* as in a foreground process: run in the background (a CI job, `&`) the
   * tests inherit SIGINT ignored, and the recorder leaves an ignored
   * signal ignored, so killed_by_signal_closes' Ctrl-C would do nothing */
  signal(SIGINT, SIG_DFL);
  if (argc == 3 && !strcmp(argv[1], "oneshot")) oneshot_child(argv[2]);
  snprintf(dir, sizeof dir, "%s/pt_test_record.%ld",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
  mkdir(dir, 0755);
  RUN(user_api);
  RUN(threads_get_streams);
  RUN(flush_after_restart);
  RUN(stop_start_while_threads_write);
  RUN(policy_stop);
  RUN(policy_ring);
  RUN(policy_flush_keeps_all);
  RUN(ring_keeps_a_buffer_of_events);
  RUN(stop_keeps_a_buffer_of_events);
  RUN(ring_enters_the_regions_open_at_its_start);
  RUN(ring_with_arrays);
  RUN(joined_writers);
  RUN(unwritable_directory);
  RUN(disk_full_one_message);
  RUN(buffer_env_refused);
  RUN(killed_by_signal_closes);
  RUN(oneshot_crash_handler);
  RUN(killed_threads_open_calls);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
  return test_summary();
}
