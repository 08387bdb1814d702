// Replays the fuzz targets of tests/fuzz/ inside the default test run, without libFuzzer.
//
// Each test file of this folder includes one `<name>_fuzzer.cpp` with HASHLINE_FUZZ_REPLAY
// defined (only `hashlineFuzz_<name>` is compiled, no LLVMFuzzerTestOneInput) and instantiates
// HASHLINE_REPLAY_TESTS(name), which adds three tests:
//   <name>.Corpus       every file of tests/fuzz/corpus/<name>/ (the seed corpus);
//   <name>.Regressions  every file of tests/fuzz/regressions/<name>/ (inputs that once crashed
//                       or broke a property; kept forever);
//   <name>.Mutants      a deterministic sweep of mutants of the corpus (byte flips, inserted
//                       interesting bytes, cuts, splices), HASHLINE_FUZZ_REPLAY_MUTANTS per
//                       file (default 64), so the properties are exercised in every build,
//                       sanitized or not.
// A FUZZ_CHECK failure is a test failure naming the input; a crash fails the binary.
#pragma once
#include "tests/fuzz/fuzz_target.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace hashline::fuzz::replay {

using Target = int (*)(const std::uint8_t*, std::size_t);

struct Input {
  std::string name;
  std::string bytes;
};

inline std::vector<Input> readDir(const std::string& dir) {
  std::vector<Input> inputs;
  if (!std::filesystem::is_directory(dir)) return inputs;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename().string().starts_with(".")) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    inputs.push_back({entry.path().string(), std::string(std::istreambuf_iterator<char>(in), {})});
  }
  std::sort(inputs.begin(), inputs.end(),
            [](const Input& a, const Input& b) { return a.name < b.name; });
  return inputs;
}

inline std::string fuzzDir(const std::string& kind, const std::string& target) {
  return std::string(HASHLINE_SOURCE_DIR) + "/tests/fuzz/" + kind + "/" + target;
}

inline void runOne(Target target, const std::string& label, const std::string& bytes) {
  try {
    target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  } catch (const FuzzCheckFailure& failure) {
    ADD_FAILURE() << label << ": " << failure.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << label << ": the target let an exception escape: " << error.what();
  }
}

inline std::string mutate(std::mt19937& random, const std::string& base, const std::string& other) {
  static const std::string kInteresting[] = {"\n",
                                             "\r\n",
                                             "\r",
                                             "\0",
                                             "\x1e",
                                             "\xff",
                                             "\xf0\x9f\x98\x80",
                                             "\xe4\xb8\xad",
                                             ":",
                                             "\xe2\x86\x92",
                                             "...",
                                             "@@",
                                             "*** ",
                                             "{",
                                             "}",
                                             "\"",
                                             "-1",
                                             "4294967296",
                                             " "};
  std::string bytes = base;
  int steps = 1 + random() % 4;
  for (int i = 0; i < steps; ++i) {
    std::size_t at = bytes.empty() ? 0 : random() % (bytes.size() + 1);
    switch (random() % 5) {
    case 0:
      if (at < bytes.size()) bytes[at] = static_cast<char>(bytes[at] ^ (1 << (random() % 8)));
      break;
    case 1: {
      const std::string& piece = kInteresting[random() % std::size(kInteresting)];
      bytes.insert(at, piece.empty() ? std::string(1, '\0') : piece);
      break;
    }
    case 2:
      bytes.erase(at, random() % 16);
      break;
    case 3:
      if (!other.empty()) {
        std::size_t from = random() % other.size();
        bytes.insert(at, other.substr(from, random() % 64));
      }
      break;
    case 4:
      if (at < bytes.size()) bytes[at] = static_cast<char>(random());
      break;
    }
  }
  return bytes;
}

inline void replayDir(Target target, const std::string& dir, bool must_exist) {
  std::vector<Input> inputs = readDir(dir);
  if (must_exist) {
    ASSERT_FALSE(inputs.empty()) << "no inputs in " << dir;
  }
  for (const Input& input : inputs)
    runOne(target, input.name, input.bytes);
}

inline void replayMutants(Target target, const std::string& target_name) {
  std::vector<Input> inputs = readDir(fuzzDir("corpus", target_name));
  for (const Input& input : readDir(fuzzDir("regressions", target_name)))
    inputs.push_back(input);
  ASSERT_FALSE(inputs.empty());
  long per_file = 64;
  if (const char* env = std::getenv("HASHLINE_FUZZ_REPLAY_MUTANTS")) per_file = std::atol(env);
  std::mt19937 random(20261202);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& other = inputs[(i + 1) % inputs.size()].bytes;
    for (long k = 0; k < per_file; ++k) {
      std::string bytes = mutate(random, inputs[i].bytes, other);
      runOne(target, inputs[i].name + " mutant " + std::to_string(k), bytes);
      if (::testing::Test::HasFailure()) return; // one report is enough
    }
  }
}

} // namespace hashline::fuzz::replay

#define HASHLINE_REPLAY_TESTS(name)                                                                \
  TEST(name##_fuzzer, Corpus) {                                                                    \
    ::hashline::fuzz::replay::replayDir(&hashlineFuzz_##name,                                      \
                                        ::hashline::fuzz::replay::fuzzDir("corpus", #name), true); \
  }                                                                                                \
  TEST(name##_fuzzer, Regressions) {                                                               \
    ::hashline::fuzz::replay::replayDir(                                                           \
        &hashlineFuzz_##name, ::hashline::fuzz::replay::fuzzDir("regressions", #name), false);     \
  }                                                                                                \
  TEST(name##_fuzzer, Mutants) {                                                                   \
    ::hashline::fuzz::replay::replayMutants(&hashlineFuzz_##name, #name);                          \
  }
