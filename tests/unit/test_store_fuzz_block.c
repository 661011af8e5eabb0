/* Replays the fuzz_block seed corpus (tests/fuzz/corpus/block) through the fuzz
 * target in the normal test run, plus mutated copies of each seed. */
#include "../fuzz/fuzz_block.c"
#include "replay.h"

TEST(replay_block_corpus) { replay_corpus("block"); }

int main(void) {
  RUN(replay_block_corpus);
  return test_summary();
}
