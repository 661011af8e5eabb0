/* libFuzzer target: the profile file decoder (pt_profile_load's parser),
 * then the report over whatever it accepted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pt_profile *p = NULL;
  pt_error err;
  /* Inputs ending in 'C' get a valid checksum (so mutations reach the
   * node checks); the others are decoded as they are. */
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  memcpy(copy, data, size);
  if (size >= 5 && copy[size - 1] == 'C') {
    size--;
    pt__put_u32(copy + size - 4, pt__crc32c(0, copy, size - 4));
  }
  int rc = pt__profile_decode(&p, copy, size, "fuzz", &err);
  free(copy);
  if (rc == PT_OK) {
    FILE *f = fopen("/dev/null", "w");
    if (f) {
      pt_profile_report_opts o = {0};
      pt_profile_report(p, f, &o, &err);
      fclose(f);
    }
    pt_profile *m;
    if (pt_profile_create(&m, pt_profile_nnodes(p) + 2) == PT_OK) {
      pt_profile_merge(m, p);
      pt_profile_destroy(m);
    }
  }
  pt_profile_destroy(p);
  return 0;
}
