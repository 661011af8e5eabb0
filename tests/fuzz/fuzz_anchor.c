/* libFuzzer target: the anchor parser (with the stream location lists it
 * contains) or, for inputs starting with 'I', the index file parser. */
#include <stdint.h>
#include <stdlib.h>

#include "store/archive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *why;
  if (size && data[0] == 'I') {
    pt__ientry *e;
    size_t n;
    uint64_t es;
    if (pt__index_parse(data + 1, size - 1, &e, &n, &es, &why) == PT_OK) {
      volatile uint64_t x = n ? e[n - 1].offset : 0;
      (void)x;
      free(e);
    }
    return 0;
  }
  pt__anchor a;
  size_t line;
  if (pt__anchor_parse((const char *)data, size, &a, &why, &line) == PT_OK) {
    (void)pt__anchor_get(&a, "version");
    for (size_t i = 0; i < a.nkv; i++) {
      uint64_t *l;
      size_t n;
      if (strncmp(a.kv[i].key, "stream.", 7) == 0 &&
          pt__parse_u64_list(a.kv[i].val, &l, &n) == PT_OK)
        free(l);
    }
  }
  pt__anchor_free(&a);
  return 0;
}
