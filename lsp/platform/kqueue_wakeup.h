// KqueueWakeup (macOS, the BSDs): calls `changed(directory)` as soon as a watched directory's
// entries change (EVFILT_VNODE: a rename, creation or deletion in it, or the directory itself
// renamed or deleted), so the polling watcher rescans at once instead of at its next tick.
// In-place writes to a file do not touch its directory's vnode: the scan finds those.
#pragma once

#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
#define HASHLINE_HAS_KQUEUE 1
#else
#define HASHLINE_HAS_KQUEUE 0
#endif

#if HASHLINE_HAS_KQUEUE
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <map>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::platform {

class KqueueWakeup {
public:
  KqueueWakeup(boost::asio::io_context& io, std::function<void(const std::string&)> changed);
  ~KqueueWakeup();
  KqueueWakeup(const KqueueWakeup&) = delete;
  KqueueWakeup& operator=(const KqueueWakeup&) = delete;

  /// Starts watching `directory`'s vnode; false when it cannot be opened or registered.
  bool add(const std::string& directory);
  void remove(const std::string& directory);

private:
  void waitForEvents();
  void drain();

  std::function<void(const std::string&)> changed_;
  boost::asio::posix::stream_descriptor queue_;
  std::map<std::string, int> by_directory_;
  std::map<int, std::string> by_descriptor_;
};

} // namespace hashline::platform
#endif
