/* The DUMPI reader out of memory while it maps a rank's calls (linked with
 * -Wl,--wrap=malloc,calloc,realloc: the n-th allocation after the source
 * is open fails): every failure is PT_ENOMEM with a message that says so,
 * through pt_source_next and pt_source_next_batch (also in runs).  The reason the
 * decoder gives is set only for a cut or corrupt record; its buffer was
 * printed uninitialised after "offset N: " when a record's arrays could
 * not be allocated.  A read that ends well although an allocation failed
 * (an out-of-memory swallowed) fails the test. */
#include <stddef.h>
#include <sys/stat.h>

#include "paratrace/format.h"
#include "test.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t a, size_t n);
void *__real_realloc(void *p, size_t n);
static long g_count = -1, g_fail = -1; /* g_count < 0: no failure */
static int g_failed; /* the failing allocation happened */
static int fail_now(void) {
  if (g_count >= 0 && ++g_count == g_fail) return g_failed = 1;
  return 0;
}
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t a, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t a, size_t n) {
  return fail_now() ? NULL : __real_calloc(a, n);
}
void *__wrap_realloc(void *p, size_t n) {
  return fail_now() ? NULL : __real_realloc(p, n);
}

static char meta[4400];

static int have_testdata(void) {
  const char *src = getenv("PT_SRCDIR");
  snprintf(meta, sizeof meta,
           "%s/../shared/testdata/dumpi/b_ring_nonblocking/"
           "b_ring_nonblocking-2026.11.22.07.42.08.meta",
           src && *src ? src : ".");
  struct stat st;
  return stat(meta, &st) == 0;
}

/* Reads the whole source, the fail-th allocation after the open failing;
 * returns the read's status (message in msg). */
static int read_failing(long fail, int batch, char *msg, size_t n) {
  pt_source *s;
  pt_error err;
  pt_source_opts o = {0};
  o.runs = batch == 2; /* (2: batches in runs) */
  int rc = pt_source_open(&s, meta, &o, &err);
  if (rc < 0) {
    snprintf(msg, n, "open: %s", err.msg);
    return rc;
  }
  g_fail = fail;
  g_count = 0;
  g_failed = 0;
  for (;;) {
    if (batch) {
      const pt_item *its;
      size_t k;
      rc = pt_source_next_batch(s, &its, &k);
    } else {
      pt_item it;
      rc = pt_source_next(s, &it);
    }
    if (rc != PT_OK) break;
  }
  g_count = -1;
  snprintf(msg, n, "%s", rc < 0 ? pt_source_errmsg(s) : "");
  pt_source_close(s);
  return rc;
}

TEST(enomem_says_so) {
  char msg[1024];
  int failures = 0;
  for (int batch = 0; batch < 3; batch++)
    for (long fail = 1; fail <= 60; fail++) {
      int rc = read_failing(fail, batch, msg, sizeof msg);
      /* (a read that ends although an allocation failed lost what it
       * was for) */
      if (rc == PT_END && g_failed)
        TEST_FAIL_("batch %d, allocation %ld failed, the read ended well",
                   batch, fail);
      if (rc == PT_END) continue;
      failures++;
      ASSERT_EQ_I64(rc, PT_ENOMEM);
      ASSERT_CONTAINS(msg, "out of memory");
    }
  /* (the read allocates: some of them failed) */
  ASSERT_TRUE(failures > 10);
}

int main(void) {
  if (!have_testdata()) {
    printf("SKIP dumpi test vectors: %s not found (set PT_SRCDIR)\n", meta);
    return test_summary();
  }
  RUN(enomem_says_so);
  return test_summary();
}
