// Local stream sockets without SIGPIPE; see local_socket.h.
#include "lsp/platform/local_socket.h"

#include "lsp/platform/platform_variant.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace hashline::platform {

SocketHandle openLocalStreamSocket() {
#if HASHLINE_LINUX_NATIVE
  return ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
#else
  // No SOCK_CLOEXEC on macOS: set it right after (no exec can happen in between in hashline's
  // CLI, which starts no child while connecting).
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return kInvalidHandle;
  bool ok = ::fcntl(fd, F_SETFD, FD_CLOEXEC) == 0;
#if defined(SO_NOSIGPIPE)
  int on = 1;
  ok = ok && ::setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on) == 0;
#endif
  if (!ok) {
    int err = errno;
    ::close(fd);
    errno = err;
    return kInvalidHandle;
  }
  return fd;
#endif
}

long sendWithoutSignal(SocketHandle socket, const void* bytes, std::size_t size) {
#if defined(MSG_NOSIGNAL) && !defined(__APPLE__) // macOS: SO_NOSIGPIPE, set when it was made
  return static_cast<long>(::send(socket, bytes, size, MSG_NOSIGNAL));
#else
  return static_cast<long>(::send(socket, bytes, size, 0)); // SO_NOSIGPIPE is set on it
#endif
}

} // namespace hashline::platform
