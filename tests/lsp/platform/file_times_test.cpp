// platform::modifiedNanoseconds / changedNanoseconds read the nanoseconds a file was given.
#include "lsp/platform/file_times.h"

#include <cstdio>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::platform {
namespace {

TEST(FileTimes, ModifiedTimeHasTheNanosecondsSet) {
  char path[] = "/tmp/hashline-times-XXXXXX";
  int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  const timespec times[2] = {{1'700'000'000, 123'456'789}, {1'700'000'001, 987'654'321}};
  ASSERT_EQ(::futimens(fd, times), 0);
  struct stat info {};
  ASSERT_EQ(::fstat(fd, &info), 0);
  EXPECT_EQ(modifiedNanoseconds(info), 1'700'000'001'987'654'321);
  // ctime is now-ish (set by the kernel): after the mtime we gave, and after 2023.
  EXPECT_GT(changedNanoseconds(info), modifiedNanoseconds(info));
  ::close(fd);
  ::unlink(path);
}

} // namespace
} // namespace hashline::platform
