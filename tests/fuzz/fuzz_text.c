/* libFuzzer target for the text source (src/formats/text.c).
 *
 * Parses the input from memory until END or an error; must never crash,
 * hang or allocate without bound.  The items read before the end or the
 * error are then written with the text sink and parsed again: they must
 * come back equal (the sink and the source agree on every item the source
 * can produce).
 *
 * Build with `make fuzz-build` (all library sources, clang, libFuzzer);
 * run: build-fuzz/fuzz/fuzz_text -dict=tests/fuzz/text.dict DIR
 *      tests/fuzz/corpus/text
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "formats/text.h"

#define MAX_ITEMS 4096
#define MAX_LINE ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int items_equal(const pt_item *a, const pt_item *b) {
  if (a->type != b->type) return 0;
  switch (a->type) {
    case PT_ITEM_DEF: return pt_def_equal(&a->u.def, &b->u.def);
    case PT_ITEM_EVENT: return pt_event_equal(&a->u.event, &b->u.event);
    case PT_ITEM_SNAPSHOT:
      return a->u.snapshot.time == b->u.snapshot.time &&
             a->u.snapshot.location == b->u.snapshot.location &&
             pt_event_equal(&a->u.snapshot.event, &b->u.snapshot.event);
    case PT_ITEM_SUMMARY:
      return memcmp(&a->u.summary, &b->u.summary, sizeof a->u.summary) == 0;
    case PT_ITEM_STREAM:
      return a->u.stream.stream == b->u.stream.stream &&
             a->u.stream.location == b->u.stream.location;
  }
  return 0;
}

static int copy_item(pt__arena *a, pt_item *dst, const pt_item *src) {
  *dst = *src;
  switch (src->type) {
    case PT_ITEM_DEF: return pt__def_copy(a, &dst->u.def, &src->u.def);
    case PT_ITEM_EVENT: return pt__event_copy(a, &dst->u.event, &src->u.event);
    case PT_ITEM_SNAPSHOT:
      return pt__event_copy(a, &dst->u.snapshot.event, &src->u.snapshot.event);
  }
  return 0;
}

static void die(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_text: %s: %s\n", what, msg);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static pt_item items[MAX_ITEMS];
  static int memfd = -1;
  const pt__format *f = &pt__format_text;
  void *src;
  if (pt__text_open_mem(&src, data, size, "fuzz", MAX_LINE, NULL)) return 0;
  pt__arena a = {0};
  size_t n = 0;
  pt_item it;
  int rc;
  while (n < MAX_ITEMS && (rc = f->src_next(src, &it)) == PT_OK)
    if (copy_item(&a, &items[n++], &it)) die("copy", "out of memory");
  f->src_close(src);
  if (n == 0) {
    pt__arena_free(&a);
    return 0;
  }

  /* Round trip through the sink, into an in-memory file. */
  if (memfd < 0 && (memfd = memfd_create("fuzz_text", 0)) < 0) {
    pt__arena_free(&a);
    return 0;
  }
  if (ftruncate(memfd, 0) != 0) die("ftruncate", "failed");
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);
  void *snk;
  pt_error err;
  if (f->sink_open(&snk, path, NULL, &err)) die("sink_open", err.msg);
  for (size_t i = 0; i < n; i++)
    if (f->sink_write(snk, &items[i])) die("sink_write", f->sink_errmsg(snk));
  if (f->sink_close(snk, &err)) die("sink_close", err.msg);
  off_t len = lseek(memfd, 0, SEEK_END);
  if (len < 0) die("lseek", "failed");
  char *text = malloc((size_t)len + 1);
  if (!text || pread(memfd, text, (size_t)len, 0) != len) die("pread", "");
  /* Canonical lines can be longer than the input's (escapes): no limit. */
  if (pt__text_open_mem(&src, text, (size_t)len, "roundtrip",
                        PT_TEXT_MAX_LINE_LIMIT, NULL))
    die("open", "roundtrip");
  for (size_t i = 0; i < n; i++) {
    rc = f->src_next(src, &it);
    if (rc != PT_OK) die("reparse", f->src_errmsg(src));
    if (!items_equal(&items[i], &it)) {
      fprintf(stderr, "item %zu differs; canonical text:\n%.*s\n", i,
              (int)len, text);
      die("roundtrip", "item differs");
    }
  }
  if (f->src_next(src, &it) != PT_END) die("reparse", "extra items");
  f->src_close(src);
  free(text);
  pt__arena_free(&a);
  return 0;
}
