// platform::processAlive on this process, a child that has exited and been reaped, and pid 0.
#include "lsp/platform/process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hashline::platform {
namespace {

TEST(Process, ThisProcessIsAliveAndAReapedChildIsNot) {
  EXPECT_TRUE(processAlive(::getpid()));
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_FALSE(processAlive(child));
  EXPECT_FALSE(processAlive(0));
  EXPECT_FALSE(processAlive(-1));
}

TEST(Process, ProcessOfAnotherUserCountsAsAlive) {
  // pid 1 exists in every container; unless we are root it is another user's (EPERM).
  EXPECT_TRUE(processAlive(1));
}

TEST(Process, PipeEndsAreCloseOnExecAndConnected) {
  int ends[2] = {-1, -1};
  ASSERT_TRUE(openCloseOnExecPipe(ends));
  EXPECT_TRUE(::fcntl(ends[0], F_GETFD) & FD_CLOEXEC);
  EXPECT_TRUE(::fcntl(ends[1], F_GETFD) & FD_CLOEXEC);
  ASSERT_EQ(::write(ends[1], "x", 1), 1);
  char byte = 0;
  ASSERT_EQ(::read(ends[0], &byte, 1), 1);
  EXPECT_EQ(byte, 'x');
  ::close(ends[0]);
  ::close(ends[1]);
}

} // namespace
} // namespace hashline::platform
