// PipedProcess: a child process of a process-level test, its stdin and stdout on pipes and its
// stderr in a temp file (its log). Started with posix_spawn in a directory, with variables added
// to this process's environment. The clients that speak a protocol over it (LspClient, the ACP
// tests' AcpClient) read its output on a thread of their own with readUntilEnd.
//
// Waits have an upper bound that only turns a hang into a failure; tests never assert on time.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace hashline::test {

using Environment = std::vector<std::pair<std::string, std::string>>;

class PipedProcess {
public:
  /// Starts `argv` (argv[0] is the program's path) in `cwd` (empty: this process's) with `env`
  /// added (an added variable wins over an inherited one). A failure to start is a test failure
  /// and leaves a process that is not running.
  explicit PipedProcess(const std::vector<std::string>& argv, const std::string& cwd = {},
                        const Environment& env = {});
  /// Stops the process (stop with a 5 s grace), closes the pipes, removes the log.
  ~PipedProcess();
  PipedProcess(const PipedProcess&) = delete;
  PipedProcess& operator=(const PipedProcess&) = delete;

  /// Writes `bytes` to the child's stdin. False when its stdin is gone (closed, or it died).
  bool write(std::string_view bytes);
  /// Closes the child's stdin (EOF).
  void closeInput();
  /// Reads the child's stdout until it is closed, handing each chunk to `chunk` (the reader
  /// thread's loop).
  void readUntilEnd(const std::function<void(std::string_view)>& chunk);

  bool running();
  /// The exit code, or 128 + the signal that ended it; nullopt if it is still running after
  /// `timeout` (or never started).
  std::optional<int> waitForExit(std::chrono::milliseconds timeout);
  /// Sends `signal` to the child while it runs.
  void signal(int signal);
  /// Closes its stdin, gives it `grace` to end on its own, then SIGKILL.
  void stop(std::chrono::milliseconds grace);
  /// Its stderr so far.
  std::string log() const;
  pid_t pid() const { return pid_; }

private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string log_path_;
  std::optional<int> exit_code_;
};

} // namespace hashline::test
