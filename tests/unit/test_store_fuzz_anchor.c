/* Replays the fuzz_anchor seed corpus (tests/fuzz/corpus/anchor) through the fuzz
 * target in the normal test run, plus mutated copies of each seed. */
#include "../fuzz/fuzz_anchor.c"
#include "replay.h"

TEST(replay_anchor_corpus) { replay_corpus("anchor"); }

int main(void) {
  RUN(replay_anchor_corpus);
  return test_summary();
}
