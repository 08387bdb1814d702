// KqueueWakeup: EVFILT_VNODE on each watched directory; see kqueue_wakeup.h.
#include "lsp/platform/kqueue_wakeup.h"

#if HASHLINE_HAS_KQUEUE
#include <array>
#include <fcntl.h>
#include <sys/event.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

namespace hashline::platform {

namespace {

#if defined(O_EVTONLY)
constexpr int kOpenForEvents = O_EVTONLY | O_DIRECTORY | O_CLOEXEC; // macOS: no read needed
#else
constexpr int kOpenForEvents = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#endif

} // namespace

KqueueWakeup::KqueueWakeup(boost::asio::io_context& io,
                           std::function<void(const std::string&)> changed)
    : changed_(std::move(changed)), queue_(io) {
  int queue = ::kqueue();
  if (queue < 0) return;
  (void)::fcntl(queue, F_SETFD, FD_CLOEXEC);
  queue_.assign(queue);
  waitForEvents();
}

KqueueWakeup::~KqueueWakeup() {
  for (const auto& [directory, fd] : by_directory_)
    ::close(fd);
  boost::system::error_code ignored;
  queue_.close(ignored);
}

bool KqueueWakeup::add(const std::string& directory) {
  if (!queue_.is_open() || by_directory_.count(directory)) return queue_.is_open();
  int fd = ::open(directory.c_str(), kOpenForEvents);
  if (fd < 0) return false;
  struct kevent change;
  EV_SET(&change, static_cast<uintptr_t>(fd), EVFILT_VNODE, EV_ADD | EV_CLEAR,
         NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE, 0,
         nullptr);
  if (::kevent(queue_.native_handle(), &change, 1, nullptr, 0, nullptr) != 0) {
    ::close(fd);
    return false;
  }
  by_directory_[directory] = fd;
  by_descriptor_[fd] = directory;
  return true;
}

void KqueueWakeup::remove(const std::string& directory) {
  auto found = by_directory_.find(directory);
  if (found == by_directory_.end()) return;
  by_descriptor_.erase(found->second);
  ::close(found->second); // closing the descriptor removes its kevent
  by_directory_.erase(found);
}

void KqueueWakeup::waitForEvents() {
  queue_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                    [this](const boost::system::error_code& error) {
                      if (error) return; // closed
                      drain();
                      waitForEvents();
                    });
}

void KqueueWakeup::drain() {
  std::array<struct kevent, 64> events;
  const timespec no_wait{0, 0};
  for (;;) {
    int got = ::kevent(queue_.native_handle(), nullptr, 0, events.data(),
                       static_cast<int>(events.size()), &no_wait);
    if (got <= 0) return;
    for (int i = 0; i < got; ++i) {
      auto found = by_descriptor_.find(static_cast<int>(events[i].ident));
      if (found == by_descriptor_.end()) continue;
      const std::string directory = found->second; // the callback may remove it
      changed_(directory);
    }
  }
}

} // namespace hashline::platform
#endif
