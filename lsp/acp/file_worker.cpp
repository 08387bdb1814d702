// The fs/* worker thread; see file_worker.h.
#include "lsp/acp/file_worker.h"

#include <thread>
#include <unistd.h>

namespace hashline::acp {

FileWorker::FileWorker(FileBridgeOptions options, int wake_fd)
    : shared_(std::make_shared<Shared>()) {
  std::thread(run, shared_, options, wake_fd).detach();
}

FileWorker::~FileWorker() {
  std::lock_guard lock(shared_->mutex);
  shared_->stop = true;
  shared_->wake.notify_all();
}

void FileWorker::submit(FileCall call) {
  std::lock_guard lock(shared_->mutex);
  shared_->calls.push_back(std::move(call));
  shared_->wake.notify_all();
}

std::vector<std::string> FileWorker::takeAnswers() {
  std::lock_guard lock(shared_->mutex);
  return std::exchange(shared_->answers, {});
}

void FileWorker::run(std::shared_ptr<Shared> shared, FileBridgeOptions options, int wake_fd) {
  FileBridge bridge(options);
  for (;;) {
    FileCall call;
    {
      std::unique_lock lock(shared->mutex);
      shared->wake.wait(lock, [&] { return shared->stop || !shared->calls.empty(); });
      if (shared->stop) return;
      call = std::move(shared->calls.front());
      shared->calls.pop_front();
    }
    std::string answer = bridge.answer(call);
    if (answer.empty()) continue; // an Attribute: nobody waits for it
    {
      std::lock_guard lock(shared->mutex);
      if (shared->stop) return;
      shared->answers.push_back(std::move(answer));
    }
    const char byte = 'f';
    ssize_t ignored = ::write(wake_fd, &byte, 1);
    (void)ignored;
  }
}

} // namespace hashline::acp
