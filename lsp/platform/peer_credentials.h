// Who is at the other end of a local socket: the peer's effective uid (and pid where the OS
// tells). SO_PEERCRED on Linux; getpeereid (macOS, the BSDs; libbsd in the portable build) and
// LOCAL_PEERPID on macOS. Windows seam: GetNamedPipeClientProcessId + the process token.
#pragma once

#include "lsp/platform/native_handle.h"

#include <cstdint>
#include <string>

namespace hashline::platform {

struct PeerCredentials {
  bool known = false;    // false: the OS refused; `problem` says why
  std::uint32_t uid = 0; // the peer's effective uid
  std::int64_t pid = -1; // -1 when the OS does not tell
  std::string problem;
};

PeerCredentials peerCredentials(SocketHandle socket);
/// This process's effective uid.
std::uint32_t effectiveUserId();

} // namespace hashline::platform
