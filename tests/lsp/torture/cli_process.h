// Runs the real `hashline` binary for the CLI torture tests: to completion (stdout and stderr
// captured through unlinked temp files, so no pipe can deadlock), or killed with SIGKILL after
// a chosen delay — counted from its start, or from the first change it makes to a watched file
// (seen through inotify, tests/lsp/torture/write_detector.h). The child inherits this process's
// environment. Threading: test thread only.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace hashline::test {

struct CliOutcome {
  bool killed = false;                                  // ended by our SIGKILL
  int exit_code = -1;                                   // when it exited on its own
  std::string out;                                      // stdout (empty when killed)
  std::string err;                                      // stderr (empty when killed)
  std::optional<std::chrono::microseconds> first_write; // runCliWatchingWrites: from the start
};

/// `hashline ARGS...` in `cwd`, waited for.
CliOutcome runCli(const std::vector<std::string>& args, const std::string& cwd);

/// `hashline ARGS...` in `cwd`, sent SIGKILL `delay` after it was started (it may have finished
/// already: then `killed` is false and the exit code is kept).
CliOutcome runCliKilledAfter(const std::vector<std::string>& args, const std::string& cwd,
                             std::chrono::microseconds delay);

/// `hashline ARGS...` in `cwd`, watched through inotify for its first change to one of `names`
/// in `watched_dir` (written, created, moved in or out, deleted); `first_write` tells when it
/// came. With `kill_delay`, sent SIGKILL that long after it: kills that land after a write
/// whatever the machine's speed, where a kill timed from the start may land before every write.
/// A run that ends without touching the files, or without `kill_delay`, is waited for.
CliOutcome runCliWatchingWrites(const std::vector<std::string>& args, const std::string& cwd,
                                const std::string& watched_dir,
                                const std::vector<std::string>& names,
                                std::optional<std::chrono::microseconds> kill_delay);

} // namespace hashline::test
