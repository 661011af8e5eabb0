/* libFuzzer target: the OTF2 reader's own walk over a file's framing
 * (chunks, records, end-of-file record), which runs before libotf2 reads
 * a file and after it refuses one (otf2_read.c walk_file).  Input: two
 * bytes choosing the chunk size, one choosing event or definition
 * records and the record looked for, then the file.  Must never crash,
 * hang, read past the bytes or allocate beyond one chunk. */
#include <stdint.h>
#include <stdio.h>

#include "formats/otf2_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  /* chunks of 20 bytes (the smallest walked) to about 1 MiB */
  uint64_t chunk = 20 + ((uint64_t)data[0] << 8 | data[1]) * 16;
  int evt = data[2] & 1;
  uint64_t want = data[2] >> 1;
  data += 3, size -= 3;
  FILE *f = fmemopen((void *)data, size, "rb");
  if (!f) return 0;
  uint64_t off = 0, at = 0;
  int st = pt__otf2_walk(f, size, chunk, evt, want, &off, &at);
  fclose(f);
  /* what it reports lies within the bytes */
  if (st < 0 || st > 2 || off > size || (at != UINT64_MAX && at >= size))
    __builtin_trap();
  return 0;
}
