/* libFuzzer target for the OTF 1.x reader.
 *
 * 1. pt__otf_parse_mem: one buffer holding definition, event, snapshot and
 *    statistics lines (state machine lines included) parsed from memory.
 * 2. The input as the events file of a one-stream trace whose definitions
 *    declare a process, a function and two byte-array attributes (one
 *    written by paratrace: 8-byte integers), read through the OTF source
 *    item by item: records, key-value lines, byte arrays in pieces.
 *    Must never crash, hang or allocate without bound.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/otf.h"
#include "paratrace/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static int put(const char *name, const void *p, size_t n) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(p, 1, n, f);
  return fclose(f) == 0 && w == n ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char msg[512];
  (void)pt__otf_parse_mem(data, size, msg, sizeof msg);

  if (size > (1u << 16)) return 0;
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/fuzz_otf.XXXXXX");
    if (!mkdtemp(dir)) abort();
    static const char defs[] =
        "DTR3b9aca00\nDP1NM\"rank 0\"\nDF1G0NM\"f\"\n"
        "DK1YbNM\"a\"T\"paratrace:int64le\"\nDK2YbNM\"b\"T\"\"\n"
        "DK3Y7NM\"c\"T\"\"\n";
    if (put("t.otf", "1:1\n", 4) || put("t.0.def", defs, sizeof defs - 1))
      abort();
  }
  if (put("t.1.events", data, size)) abort();
  char path[128];
  snprintf(path, sizeof path, "%s/t.otf", dir);
  pt_source *src = NULL;
  pt_source_opts so;
  memset(&so, 0, sizeof so);
  pt_error err;
  if (pt_source_open(&src, path, &so, &err) == PT_OK) {
    pt_item it;
    for (int k = 0; k < 100000 && pt_source_next(src, &it) == PT_OK; k++) {
    }
  }
  pt_source_close(src);
  return 0;
}
