/* Replay a fuzz target's seed corpus (tests/fuzz/corpus/NAME, found from
 * $PT_SRCDIR, default ".") in the normal test run, plus mutated copies of
 * every seed (byte flips, cuts), so the decoders meet bad input under every
 * build, sanitizers included.  Include after the fuzz target's source. */
#ifndef PT_TEST_REPLAY_H
#define PT_TEST_REPLAY_H

#include <dirent.h>

#include "test.h"

static void replay_corpus(const char *name) {
  const char *src = getenv("PT_SRCDIR");
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src && *src ? src : ".",
           name);
  DIR *d = opendir(dir);
  if (!d) TEST_FAIL_("corpus %s not found (set PT_SRCDIR)", dir);
  struct dirent *e;
  int files = 0;
  uint64_t rng = 12345;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *buf;
    size_t n;
    if (pt__read_file(path, 1 << 20, &buf, &n)) {
      closedir(d);
      TEST_FAIL_("cannot read %s", path);
    }
    LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
    for (int round = 0; round < 300 && n; round++) {
      uint8_t *m = malloc(n);
      if (!m) abort();
      memcpy(m, buf, n);
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      size_t len = round % 3 == 0 ? (size_t)(rng >> 33) % n : n;
      for (int k = 0; k < 1 + round % 4; k++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        m[(rng >> 33) % n] ^= (uint8_t)(1u << (rng & 7));
      }
      LLVMFuzzerTestOneInput(m, len);
      free(m);
    }
    free(buf);
    files++;
  }
  closedir(d);
  ASSERT_TRUE(files > 0);
}

#endif
