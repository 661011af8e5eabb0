/* Replays the fuzz_profile seed corpus (tests/fuzz/corpus/profile) through
 * the fuzz target in the normal test run, plus mutated copies of each seed. */
#include "../fuzz/fuzz_profile.c"
#include "replay.h"

TEST(replay_profile_corpus) { replay_corpus("profile"); }

int main(void) {
  RUN(replay_profile_corpus);
  return test_summary();
}
