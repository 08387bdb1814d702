// Replays tests/fuzz/acp_fuzzer.cpp on its corpus, its regression inputs and mutants of both
// (see replay.h).
#define HASHLINE_FUZZ_REPLAY
#include "tests/fuzz/acp_fuzzer.cpp"
#include "tests/lsp/fuzz_regressions/replay.h"

HASHLINE_REPLAY_TESTS(acp)
