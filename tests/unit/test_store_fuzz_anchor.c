/* Replays the fuzz_anchor seed corpus (tests/fuzz/corpus/anchor) through the fuzz
 * target in the normal test run, plus mutated copies of each seed (byte
 * flips, cuts), so the decoders meet bad input under every build. */
#include <dirent.h>

#include "../fuzz/fuzz_anchor.c"
#include "test.h"

TEST(replay_anchor_corpus) {
  const char *dir = "tests/fuzz/corpus/anchor";
  DIR *d = opendir(dir);
  if (!d) {
    printf("  (corpus %s not found from this directory: skipped)\n", dir);
    return;
  }
  struct dirent *e;
  int files = 0;
  uint64_t rng = 12345;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *buf;
    size_t n;
    ASSERT_OK(pt__read_file(path, 1 << 20, &buf, &n));
    LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
    for (int round = 0; round < 300 && n; round++) {
      uint8_t *m = malloc(n);
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

int main(void) {
  RUN(replay_anchor_corpus);
  return test_summary();
}
