/* libFuzzer target for the OTF 1.x line parser: one buffer holding
 * definition, event, snapshot and statistics lines (state machine lines
 * included) is parsed from memory. */
#include <stddef.h>
#include <stdint.h>

#include "formats/otf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char msg[512];
  (void)pt__otf_parse_mem(data, size, msg, sizeof msg);
  return 0;
}
