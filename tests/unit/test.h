/* A tiny test framework with typed assertions.
 *
 *   TEST(varint_roundtrip) { ASSERT_EQ_U64(decode(encode(5)), 5); }
 *   int main(void) { RUN(varint_roundtrip); return test_summary(); }
 *
 * Each RUN prints "PASS name" or "FAIL name" plus the failed assertion;
 * scripts/check.sh counts those lines.  An ASSERT_* failure returns from
 * the test function at once.
 */
#ifndef PT_TEST_H
#define PT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failed_;
static int test_npass_, test_nfail_;

#define TEST(name) static void name(void)

#define TEST_FAIL_(...)                                        \
  do {                                                         \
    fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);          \
    fprintf(stderr, __VA_ARGS__);                              \
    fputc('\n', stderr);                                       \
    test_failed_ = 1;                                          \
    return;                                                    \
  } while (0)

#define ASSERT_TRUE(c) \
  do { if (!(c)) TEST_FAIL_("expected true: %s", #c); } while (0)
#define ASSERT_EQ_I64(a, b)                                                   \
  do {                                                                        \
    int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                             \
    if (a_ != b_)                                                             \
      TEST_FAIL_("%s == %s: %" PRId64 " != %" PRId64, #a, #b, a_, b_);        \
  } while (0)
#define ASSERT_EQ_U64(a, b)                                                   \
  do {                                                                        \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                          \
    if (a_ != b_)                                                             \
      TEST_FAIL_("%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, a_, b_);        \
  } while (0)
#define ASSERT_EQ_DBL(a, b)                                                   \
  do {                                                                        \
    double a_ = (a), b_ = (b);                                                \
    if (a_ != b_) TEST_FAIL_("%s == %s: %.17g != %.17g", #a, #b, a_, b_);     \
  } while (0)
#define ASSERT_EQ_STR(a, b)                                                   \
  do {                                                                        \
    const char *a_ = (a), *b_ = (b);                                          \
    if (!a_ || !b_ || strcmp(a_, b_) != 0)                                    \
      TEST_FAIL_("%s == %s: \"%s\" != \"%s\"", #a, #b, a_ ? a_ : "(null)",    \
                 b_ ? b_ : "(null)");                                         \
  } while (0)
#define ASSERT_CONTAINS(hay, needle)                                          \
  do {                                                                        \
    const char *h_ = (hay), *n_ = (needle);                                   \
    if (!h_ || !strstr(h_, n_))                                               \
      TEST_FAIL_("\"%s\" does not contain \"%s\"", h_ ? h_ : "(null)", n_);   \
  } while (0)
/* A status: prints both codes' names on failure. */
#define ASSERT_STATUS(a, b)                                                   \
  do {                                                                        \
    int a_ = (a), b_ = (b);                                                   \
    if (a_ != b_)                                                             \
      TEST_FAIL_("%s: got %s (%d), want %s (%d)", #a, pt_status_name(a_), a_, \
                 pt_status_name(b_), b_);                                     \
  } while (0)
#define ASSERT_OK(a) ASSERT_STATUS(a, 0)

#define RUN(name)                                   \
  do {                                              \
    test_failed_ = 0;                               \
    name();                                         \
    if (test_failed_) {                             \
      printf("FAIL %s\n", #name);                   \
      test_nfail_++;                                \
    } else {                                        \
      printf("PASS %s\n", #name);                   \
      test_npass_++;                                \
    }                                               \
    fflush(stdout);                                 \
  } while (0)

static inline int test_summary(void) { return test_nfail_ ? 1 : 0; }

/* A fresh scratch directory under $TMPDIR (or /tmp); caller frees. */
static inline char *test_tmpdir(const char *tag) {
  const char *base = getenv("TMPDIR");
  char *p = malloc(4096);
  if (!p) abort();
  snprintf(p, 4096, "%s/pt-test-%s-XXXXXX", base && *base ? base : "/tmp", tag);
  extern char *mkdtemp(char *);
  if (!mkdtemp(p)) abort();
  return p;
}

#endif
