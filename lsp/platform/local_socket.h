// A client's local (AF_UNIX) stream socket that never raises SIGPIPE and is not inherited by
// children: SOCK_CLOEXEC + MSG_NOSIGNAL on Linux; fcntl(FD_CLOEXEC) + SO_NOSIGPIPE (macOS, the
// BSDs) or MSG_NOSIGNAL where the system defines it. Windows seam: AF_UNIX exists on Windows 10
// but not in Boost 1.74's Asio; a named pipe is the likelier road there.
#pragma once

#include "lsp/platform/native_handle.h"

#include <cstddef>

namespace hashline::platform {

/// A new local stream socket; kInvalidHandle with errno set on failure.
SocketHandle openLocalStreamSocket();
/// send(2) that reports a vanished peer as -1/EPIPE, never as a signal.
long sendWithoutSignal(SocketHandle socket, const void* bytes, std::size_t size);

} // namespace hashline::platform
