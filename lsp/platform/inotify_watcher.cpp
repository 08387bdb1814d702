// DirectoryWatcher's inotify backend (Linux): one inotify descriptor through an Asio
// stream_descriptor; see directory_watcher.h.
#include "lsp/platform/platform_variant.h"
#include "lsp/platform/watcher_backend.h"

#if HASHLINE_LINUX_NATIVE
#include "lsp/support/log.h"

#include <array>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cerrno>
#include <cstring>
#include <map>
#include <sys/inotify.h>
#include <unistd.h>

namespace hashline::platform {

namespace {

constexpr std::uint32_t kDirectoryEvents = IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO |
                                           IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB |
                                           IN_ONLYDIR | IN_EXCL_UNLINK;

std::uint32_t watchEventsOf(std::uint32_t mask) {
  std::uint32_t events = 0;
  if (mask & IN_MODIFY) events |= kWatchModified;
  if (mask & IN_CLOSE_WRITE) events |= kWatchClosed;
  if (mask & IN_MOVED_TO) events |= kWatchMovedIn;
  if (mask & IN_MOVED_FROM) events |= kWatchMovedOut;
  if (mask & IN_CREATE) events |= kWatchCreated;
  if (mask & IN_DELETE) events |= kWatchDeleted;
  if (mask & IN_ATTRIB) events |= kWatchAttributes;
  return events;
}

class InotifyBackend final : public DirectoryWatcher::Backend {
public:
  InotifyBackend(boost::asio::io_context& io, DirectoryWatcher::Listener listener)
      : listener_(std::move(listener)), descriptor_(io) {
    int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) {
      log::warn("inotify unavailable (", std::strerror(errno), "): disk writes are not watched");
      return;
    }
    descriptor_.assign(fd);
    waitForEvents();
  }

  ~InotifyBackend() override {
    boost::system::error_code ignored;
    descriptor_.close(ignored); // closing the inotify descriptor removes every watch
  }

  bool ok() const override { return descriptor_.is_open(); }

  bool watch(const std::string& directory) override {
    if (!ok()) return false;
    auto found = by_directory_.find(directory);
    if (found != by_directory_.end()) {
      ++found->second.references;
      return true;
    }
    int wd = ::inotify_add_watch(descriptor_.native_handle(), directory.c_str(), kDirectoryEvents);
    if (wd < 0) {
      log::warn("cannot watch ", directory, ": ", std::strerror(errno));
      return false;
    }
    // inotify returns the same descriptor for one directory reached by two spellings.
    by_directory_[directory] = Watch{wd, 1};
    by_descriptor_[wd] = directory;
    log::debug("watching ", directory);
    return true;
  }

  void unwatch(const std::string& directory) override {
    auto found = by_directory_.find(directory);
    if (found == by_directory_.end()) return;
    if (--found->second.references > 0) return;
    const int wd = found->second.descriptor;
    by_directory_.erase(found);
    for (const auto& [other, watch] : by_directory_)
      if (watch.descriptor == wd) return; // still used under another spelling
    by_descriptor_.erase(wd);
    if (ok()) ::inotify_rm_watch(descriptor_.native_handle(), wd);
  }

  std::size_t watchedDirectories() const override { return by_directory_.size(); }
  const char* mechanism() const override { return "inotify"; }

private:
  void waitForEvents() {
    descriptor_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                           [this](const boost::system::error_code& error) {
                             if (error) return; // closed
                             drain();
                             waitForEvents();
                           });
  }

  void drain() {
    alignas(inotify_event) std::array<char, 64 * 1024> buffer;
    for (;;) {
      ssize_t got = ::read(descriptor_.native_handle(), buffer.data(), buffer.size());
      if (got <= 0) return; // EAGAIN: drained
      for (ssize_t at = 0; at < got;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer.data() + at);
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        if (event->mask & IN_Q_OVERFLOW) {
          listener_("", "", kWatchOverflow);
          continue;
        }
        auto directory = by_descriptor_.find(event->wd);
        if (directory == by_descriptor_.end()) continue;
        if (event->mask & IN_IGNORED) {
          std::string gone = directory->second;
          by_descriptor_.erase(directory);
          for (auto it = by_directory_.begin(); it != by_directory_.end();)
            it = it->second.descriptor == event->wd ? by_directory_.erase(it) : std::next(it);
          listener_(gone, "", kWatchDirectoryGone);
          continue;
        }
        std::string name = event->len ? std::string(event->name) : std::string();
        const std::string where = directory->second; // the listener may unwatch it
        listener_(where, name, watchEventsOf(event->mask));
      }
    }
  }

  struct Watch {
    int descriptor = -1;
    int references = 0;
  };
  DirectoryWatcher::Listener listener_;
  boost::asio::posix::stream_descriptor descriptor_;
  std::map<std::string, Watch> by_directory_;
  std::map<int, std::string> by_descriptor_;
};

} // namespace

std::unique_ptr<DirectoryWatcher::Backend> makeWatcherBackend(boost::asio::io_context& io,
                                                              DirectoryWatcher::Listener listener) {
  return std::make_unique<InotifyBackend>(io, std::move(listener));
}

} // namespace hashline::platform

#endif
