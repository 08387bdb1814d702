// platform::openLocalStreamSocket and sendWithoutSignal: close-on-exec, and a send to a closed
// peer fails with EPIPE instead of killing the process (SIGPIPE keeps its default action here).
#include "lsp/platform/local_socket.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace hashline::platform {
namespace {

TEST(LocalSocket, IsCloseOnExec) {
  SocketHandle socket = openLocalStreamSocket();
  ASSERT_NE(socket, kInvalidHandle);
  EXPECT_TRUE(::fcntl(socket, F_GETFD) & FD_CLOEXEC);
  ::close(socket);
}

TEST(LocalSocket, SendToAClosedPeerIsAnErrorNotASignal) {
  ASSERT_EQ(::signal(SIGPIPE, SIG_DFL) == SIG_ERR, false);
  // A listening socket in a scratch path, connected, accepted, then the accepted end closed.
  char dir_template[] = "/tmp/hashline-socket-XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string path = std::string(dir_template) + "/s";
  int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  SocketHandle client = openLocalStreamSocket();
  ASSERT_EQ(::connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  int accepted = ::accept(listener, nullptr, nullptr);
  ASSERT_GE(accepted, 0);
  ::close(accepted);
  const char byte = 'x';
  long sent = 0;
  int err = 0;
  for (int attempt = 0; attempt < 100 && sent >= 0; ++attempt) { // the first may be buffered
    sent = sendWithoutSignal(client, &byte, 1);
    err = errno;
  }
  EXPECT_EQ(sent, -1);
  EXPECT_TRUE(err == EPIPE || err == ECONNRESET) << err;
  ::close(client);
  ::close(listener);
  ::unlink(path.c_str());
  ::rmdir(dir_template);
}

} // namespace
} // namespace hashline::platform
