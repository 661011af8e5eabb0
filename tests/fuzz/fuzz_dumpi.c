/* libFuzzer target for the SST DUMPI reader (src/formats/dumpi*.c).
 *
 * 1. pt__dumpi_parse_mem: the whole .bin path (magic, index or walk,
 *    header, footer, tables, every record, the model mapping) on the input
 *    as a .bin image; must never crash, hang or allocate without bound;
 *    and the commonest calls mapped by their fused decoder-mappers must
 *    give what the generic way gives (items, warnings, error).
 * 2. Record codec oracle: walk the records from offset 16 with
 *    pt__dumpi_decode; every record that decodes must encode back to the
 *    same bytes, and print without crashing.
 *
 * Build: make fuzz-build (clang, libFuzzer, all library sources); run:
 * build-fuzz/fuzz/fuzz_dumpi tests/fuzz/corpus/dumpi
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dumpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static uint64_t whash;
static unsigned nwarn;
static void warn_hash(void *u, const char *m) {
  (void)u;
  nwarn++;
  for (; *m; m++) whash = (whash ^ (uint8_t)*m) * 0x100000001B3ULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 20)) return 0;
  pt_error err[2];
  uint64_t digest[2], wh[2];
  unsigned nw[2];
  int rc[2];
  for (int g = 0; g < 2; g++) {
    whash = 0;
    nwarn = 0;
    err[g].msg[0] = 0;
    rc[g] = pt__dumpi_parse_mem_digest(data, size, g, warn_hash, NULL,
                                       &digest[g], &err[g]);
    wh[g] = whash;
    nw[g] = nwarn;
  }
  if (rc[0] != rc[1] || digest[0] != digest[1] || wh[0] != wh[1] ||
      nw[0] != nw[1] ||
      (rc[0] < 0 && rc[0] != PT_ENOMEM &&
       strcmp(err[0].msg, err[1].msg) != 0))
    abort(); /* the fused and the generic mapping disagree */

  if (!devnull) devnull = fopen("/dev/null", "w");
  pt__arena a = {0};
  pt__buf out = {0};
  size_t pos = size >= 16 ? 16 : size;
  uint32_t cpu = 0, wall = 0;
  if (size >= 16) {
    cpu = ((uint32_t)data[8] << 24) | ((uint32_t)data[9] << 16) |
          ((uint32_t)data[10] << 8) | data[11];
    wall = ((uint32_t)data[12] << 24) | ((uint32_t)data[13] << 16) |
           ((uint32_t)data[14] << 8) | data[15];
  }
  for (int k = 0; k < 100000 && pos < size; k++) {
    pt__dumpi_call c;
    char why[200];
    pt__arena_reset(&a);
    long n = pt__dumpi_decode(data + pos, size - pos, cpu, wall, &c, &a, why,
                              sizeof why);
    if (n <= 0) break;
    out.len = 0;
    if (pt__dumpi_encode(&out, &c, cpu, wall) != PT_OK) abort();
    if (out.len != (size_t)n || memcmp(out.p, data + pos, (size_t)n) != 0)
      abort(); /* decode and encode disagree */
    if (devnull) pt__dumpi_print_call(devnull, &c, NULL);
    pos += (size_t)n;
  }
  pt__buf_free(&out);
  pt__arena_free(&a);
  return 0;
}
