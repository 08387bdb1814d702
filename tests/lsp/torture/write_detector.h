// WriteDetector: the crash tests' eye on the files a `hashline` child process changes, so a
// SIGKILL can be timed from the child's first write rather than from its start.
//
// On Linux it is inotify, read directly, whatever watcher the product was built with: the tests
// check the product's crash safety, not its watcher, and the portable build's polling watcher
// (a scan every 25 ms) would report a write so late that no kill lands between a run's writes.
// Elsewhere (macOS) it is the product's DirectoryWatcher (kqueue-woken scans).
// Threading: test thread only.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hashline::test {

class WriteDetector {
public:
  /// Watches `directory` for changes to the entries in `names` (written, closed after writing,
  /// created, moved in or out, deleted, attributes changed).
  WriteDetector(const std::string& directory, std::vector<std::string> names);
  ~WriteDetector();
  WriteDetector(const WriteDetector&) = delete;
  WriteDetector& operator=(const WriteDetector&) = delete;

  /// Empty when the watch is in place; else why not.
  const std::string& error() const;
  /// Waits at most `slice` for a change to a watched name; true once one was seen (returns at
  /// once when it comes, so a kill delay can count from it).
  bool waitForWrite(std::chrono::milliseconds slice);
  /// After the writer ended: takes every change it made that is not reported yet (inotify has
  /// queued them all by then; a scanning watcher needs one more scan). True once one was seen.
  bool collectAfterExit();

  class Backend;

private:
  std::unique_ptr<Backend> backend_;
};

} // namespace hashline::test
