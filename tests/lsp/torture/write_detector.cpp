// WriteDetector per OS: inotify read directly on Linux (every build, the portable one too), the
// product's DirectoryWatcher elsewhere; see write_detector.h.
#include "tests/lsp/torture/write_detector.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#if defined(__linux__)
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>
#else
#include "lsp/platform/directory_watcher.h"

#include <boost/asio/io_context.hpp>
#endif

namespace hashline::test {

#if defined(__linux__)

class WriteDetector::Backend {
public:
  Backend(const std::string& directory, std::vector<std::string> names) : names_(std::move(names)) {
    fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd_ < 0) {
      error_ = std::string("inotify_init1: ") + std::strerror(errno);
      return;
    }
    // The product watcher's events (lsp/platform/inotify_watcher.cpp): IN_MODIFY sees the
    // first bytes of an in-place write, the others the temp-and-rename pattern.
    constexpr std::uint32_t kEvents = IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM |
                                      IN_CREATE | IN_DELETE | IN_ATTRIB | IN_ONLYDIR;
    if (::inotify_add_watch(fd_, directory.c_str(), kEvents) < 0)
      error_ = "inotify_add_watch " + directory + ": " + std::strerror(errno);
  }
  ~Backend() {
    if (fd_ >= 0) ::close(fd_);
  }

  const std::string& error() const { return error_; }

  bool waitForWrite(std::chrono::milliseconds slice) {
    if (seen_ || !error_.empty()) return seen_;
    pollfd ready{fd_, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(slice.count())) > 0) readQueued();
    return seen_;
  }
  bool collectAfterExit() {
    if (!seen_ && error_.empty()) readQueued();
    return seen_;
  }

private:
  // Reads what is queued now (the descriptor is non-blocking).
  void readQueued() {
    alignas(inotify_event) char buffer[16384];
    for (ssize_t got; !seen_ && (got = ::read(fd_, buffer, sizeof buffer)) > 0;) {
      for (ssize_t at = 0; at < got;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        if (event->mask & IN_Q_OVERFLOW) seen_ = true; // lost events: a write among them
        if (event->len > 0 && std::find(names_.begin(), names_.end(), event->name) != names_.end())
          seen_ = true;
      }
    }
  }

  std::vector<std::string> names_;
  int fd_ = -1;
  std::string error_;
  bool seen_ = false;
};

#else

class WriteDetector::Backend {
public:
  Backend(const std::string& directory, std::vector<std::string> names)
      : names_(std::move(names)),
        watcher_(io_, [this](const std::string&, const std::string& name, std::uint32_t) {
          if (seen_ || std::find(names_.begin(), names_.end(), name) == names_.end()) return;
          seen_ = true;
          io_.stop(); // the caller's kill delay counts from here, not from the end of the slice
        }) {
    if (!watcher_.watch(directory))
      error_ = "cannot watch " + directory + " through " + watcher_.mechanism();
  }

  const std::string& error() const { return error_; }

  bool waitForWrite(std::chrono::milliseconds slice) {
    if (!seen_ && error_.empty()) {
      io_.restart();
      io_.run_for(slice);
    }
    return seen_;
  }
  bool collectAfterExit() {
    // A scanning watcher reports the writer's last changes at its next scan.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!seen_ && error_.empty() && std::chrono::steady_clock::now() < deadline)
      waitForWrite(std::chrono::milliseconds(5));
    return seen_;
  }

private:
  std::vector<std::string> names_;
  boost::asio::io_context io_;
  platform::DirectoryWatcher watcher_;
  std::string error_;
  bool seen_ = false;
};

#endif

WriteDetector::WriteDetector(const std::string& directory, std::vector<std::string> names)
    : backend_(std::make_unique<Backend>(directory, std::move(names))) {}
WriteDetector::~WriteDetector() = default;

const std::string& WriteDetector::error() const {
  return backend_->error();
}
bool WriteDetector::waitForWrite(std::chrono::milliseconds slice) {
  return backend_->waitForWrite(slice);
}
bool WriteDetector::collectAfterExit() {
  return backend_->collectAfterExit();
}

} // namespace hashline::test
