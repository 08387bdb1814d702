// The peer of a local socket; see peer_credentials.h.
#include "lsp/platform/peer_credentials.h"

#include "lsp/platform/platform_variant.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#if !HASHLINE_LINUX_NATIVE && defined(__linux__)
#include <bsd/unistd.h> // getpeereid from libbsd (the portable build)
#endif
#if defined(__APPLE__)
#include <sys/un.h> // LOCAL_PEERPID
#endif

namespace hashline::platform {

PeerCredentials peerCredentials(SocketHandle socket) {
  PeerCredentials peer;
#if HASHLINE_LINUX_NATIVE
  ucred credentials{};
  socklen_t length = sizeof(credentials);
  if (::getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) {
    peer.problem = std::string("SO_PEERCRED failed: ") + std::strerror(errno);
    return peer;
  }
  peer.uid = credentials.uid;
  peer.pid = credentials.pid;
#else
  uid_t uid = 0;
  gid_t gid = 0;
  if (::getpeereid(socket, &uid, &gid) != 0) {
    peer.problem = std::string("getpeereid failed: ") + std::strerror(errno);
    return peer;
  }
  peer.uid = uid;
#if defined(__APPLE__) && defined(LOCAL_PEERPID)
  pid_t pid = 0;
  socklen_t length = sizeof pid;
  if (::getsockopt(socket, SOL_LOCAL, LOCAL_PEERPID, &pid, &length) == 0) peer.pid = pid;
#endif
#endif
  peer.known = true;
  return peer;
}

std::uint32_t effectiveUserId() {
  return ::geteuid();
}

} // namespace hashline::platform
