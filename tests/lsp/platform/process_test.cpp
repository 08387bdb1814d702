// platform::processAlive on this process, a child that has exited and been reaped, and pid 0.
#include "lsp/platform/process.h"

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

} // namespace
} // namespace hashline::platform
