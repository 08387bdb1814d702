// platform::peerCredentials on both ends of a local socket pair: this user, and (where the OS
// tells) this process.
#include "lsp/platform/build_variant.h"
#include "lsp/platform/peer_credentials.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

namespace hashline::platform {
namespace {

TEST(PeerCredentials, ThePeerOfASocketPairIsThisUser) {
  int ends[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
  for (int end : ends) {
    PeerCredentials peer = peerCredentials(end);
    ASSERT_TRUE(peer.known) << peer.problem;
    EXPECT_EQ(peer.uid, ::geteuid());
    EXPECT_EQ(peer.uid, effectiveUserId());
    if (linuxNativeCalls()) { // SO_PEERCRED names the pid
      EXPECT_EQ(peer.pid, ::getpid());
    }
  }
  ::close(ends[0]);
  ::close(ends[1]);
}

TEST(PeerCredentials, ANonSocketIsRefusedWithAReason) {
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  PeerCredentials peer = peerCredentials(pipe_ends[0]);
  EXPECT_FALSE(peer.known);
  EXPECT_FALSE(peer.problem.empty());
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
}

} // namespace
} // namespace hashline::platform
