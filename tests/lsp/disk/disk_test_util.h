// Helpers for the disk backend tests: real temp directories, raw file I/O that bypasses the code
// under test, child processes (fork) and running a child as an unprivileged user.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace hashline::disk::testing {

/// A fresh directory under $TMPDIR (or /tmp), removed with everything in it on destruction.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// Canonical path (realpath).
  const std::string& path() const { return path_; }
  std::string operator/(std::string_view name) const { return path_ + "/" + std::string(name); }

private:
  std::string path_;
};

/// Writes `bytes` with plain open/write (creating or truncating) and sets `mode`.
void writeRaw(const std::string& path, std::string_view bytes, mode_t mode = 0644);
/// The whole file, read with plain open/read; throws on failure.
std::string readRaw(const std::string& path);
/// Entry names in `dir` (no . and ..), sorted.
std::vector<std::string> listDir(const std::string& dir);
/// Names in `dir` that look like our temps.
std::vector<std::string> tempLitter(const std::string& dir);
mode_t fileMode(const std::string& path);

/// Sets an environment variable for the scope; restores the old value (or its absence) after.
class ScopedEnv {
public:
  ScopedEnv(const char* name, std::optional<std::string> value);
  ~ScopedEnv();

private:
  std::string name_;
  std::optional<std::string> old_;
};

/// Runs `body` in a forked child and returns its exit code (128 + signal when killed).
int runInChild(const std::function<int()>& body);
/// Like runInChild, but the child first drops to uid/gid 65534 (nobody) when we are root.
int runInChildAsNobody(const std::function<int()>& body);
/// Waits for `pid`; exit code, or 128 + signal.
int waitExitCode(pid_t pid);

} // namespace hashline::disk::testing
