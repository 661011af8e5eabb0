/* libFuzzer target for the PICL reader (and, for inputs that parse, the
 * writer): parse a memory buffer item by item; whatever parses is written
 * back to PICL in memory-backed temporary storage.  Any crash, leak or
 * sanitizer report is a bug; errors are fine. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "formats/picl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  void *st, *k = NULL;
  pt_error e;
  if (pt__picl_open_mem(&st, data, size, "fuzz", NULL, &e)) return 0;
  char path[64];
  snprintf(path, sizeof path, "/tmp/fuzz_picl.%ld.trf", (long)getpid());
  if (pt__format_picl.sink_open(&k, path, NULL, &e)) k = NULL;
  pt_item it;
  int rc;
  unsigned long n = 0;
  while ((rc = pt__format_picl.src_next(st, &it)) == PT_OK) {
    if (k && pt__format_picl.sink_write(k, &it) < 0) {
      pt__format_picl.sink_abort(k);
      k = NULL;
    }
    if (++n > 1000000) break;
  }
  if (rc < 0) (void)pt__format_picl.src_errmsg(st);
  pt__format_picl.src_close(st);
  if (k) pt__format_picl.sink_close(k, &e);
  unlink(path);
  return 0;
}
