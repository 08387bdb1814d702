// FileWorker: runs the agent's fs/* calls (FileBridge, which blocks on the sidecar or the disk)
// on a thread of their own, one at a time in arrival order, so the proxy keeps passing messages
// in both directions meanwhile. Answers are collected for the proxy loop, which is woken by a
// byte written to `wake_fd`.
//
// Threading: submit / takeAnswers from the proxy loop's thread; the bridge runs on the worker.
// The worker is detached when the proxy ends mid-call (a call may wait on an editor for up to
// a minute); the process exits without waiting for it.
#pragma once

#include "lsp/acp/file_bridge.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hashline::acp {

class FileWorker {
public:
  FileWorker(FileBridgeOptions options, int wake_fd);
  ~FileWorker();
  FileWorker(const FileWorker&) = delete;
  FileWorker& operator=(const FileWorker&) = delete;

  void submit(FileCall call);
  /// The answer lines finished since the last call.
  std::vector<std::string> takeAnswers();

private:
  struct Shared {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<FileCall> calls;
    std::vector<std::string> answers;
    bool stop = false;
  };
  static void run(std::shared_ptr<Shared> shared, FileBridgeOptions options, int wake_fd);

  std::shared_ptr<Shared> shared_;
};

} // namespace hashline::acp
