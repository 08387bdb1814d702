// Runs the real `hashline` binary for the CLI torture tests: to completion (stdout and stderr
// captured through unlinked temp files, so no pipe can deadlock), or killed with SIGKILL after
// a chosen delay — counted from its start, or from the first change it makes to a watched file
// (seen through inotify). The child inherits this process's environment.
// Threading: test thread only.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hashline::test {

struct CliOutcome {
  bool killed = false; // ended by our SIGKILL
  int exit_code = -1;  // when it exited on its own
  std::string out;     // stdout (empty when killed)
  std::string err;     // stderr (empty when killed)
};

/// `hashline ARGS...` in `cwd`, waited for.
CliOutcome runCli(const std::vector<std::string>& args, const std::string& cwd);

/// `hashline ARGS...` in `cwd`, sent SIGKILL `delay` after it was started (it may have finished
/// already: then `killed` is false and the exit code is kept).
CliOutcome runCliKilledAfter(const std::vector<std::string>& args, const std::string& cwd,
                             std::chrono::microseconds delay);

/// `hashline ARGS...` in `cwd`, sent SIGKILL `delay` after inotify reports its first change to
/// one of `names` in `watched_dir` (written, created, moved in or out, deleted). A run that ends
/// without touching them is waited for (`killed` false). Kills that land after a write whatever
/// the machine's speed, where a kill timed from the start may land before every write.
CliOutcome runCliKilledAfterChange(const std::vector<std::string>& args, const std::string& cwd,
                                   const std::string& watched_dir,
                                   const std::vector<std::string>& names,
                                   std::chrono::microseconds delay);

} // namespace hashline::test
