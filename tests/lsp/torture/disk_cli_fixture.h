// DiskCliFixture: a private world for the CLI torture tests — a temp root holding the workspace
// `ws/`, the state and runtime directories (HASHLINE_STATE_DIR / HASHLINE_RUNTIME_DIR point
// there), disk mode (HASHLINE_NO_SIDECAR=1), and `cli()` to run the real binary in it. Also
// `kSanitized`: true in an ASan build, where every process is several times slower and the tests
// cut their counts. Threading: test thread only.
#pragma once

#include "tests/lsp/torture/cli_process.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace hashline::test {

// HASHLINE_SANITIZED: defined by CMakeLists.txt for sanitizer builds (clang 14 does not define
// __SANITIZE_ADDRESS__, and g++ has no __has_feature).
#if defined(HASHLINE_SANITIZED)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

class DiskCliFixture : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;

  /// `hashline --workspace <ws> ARGS...` run in the workspace, waited for.
  CliOutcome cli(const std::vector<std::string>& args) const {
    return runCli(withWorkspace(args), workspace_);
  }
  /// The same, keeping the fastest wall time seen in `fastest` (the first call sets it): the
  /// crash tests calibrate their kill delays on it (the first run is cold, slow under ASan).
  CliOutcome cliTimed(const std::vector<std::string>& args, bool first,
                      std::chrono::microseconds& fastest) const {
    auto started = std::chrono::steady_clock::now();
    CliOutcome outcome = cli(args);
    auto took = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - started);
    fastest = first ? took : std::min(fastest, took);
    return outcome;
  }
  std::vector<std::string> withWorkspace(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--workspace", workspace_});
    return args;
  }

  std::filesystem::path root_; // the temp root, removed at TearDown
  std::string workspace_;      // root_/ws
};

} // namespace hashline::test
