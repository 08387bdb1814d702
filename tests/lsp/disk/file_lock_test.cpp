// FileLock: exclusive across lock objects, threads and processes; released on death.
#include "disk_test_util.h"
#include "lsp/disk/file_lock.h"

#include <atomic>
#include <csignal>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::TempDir;

TEST(FileLock, ASecondLockOnTheSameFileWaitsForTheFirst) {
  TempDir dir;
  std::string lock_file = dir / "x.lock";
  auto first = FileLock::acquire(lock_file);
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto second = FileLock::tryAcquire(lock_file);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(second->has_value());
  first->release();
  EXPECT_FALSE(first->held());
  auto third = FileLock::tryAcquire(lock_file);
  ASSERT_TRUE(third.ok());
  EXPECT_TRUE(third->has_value());
}

TEST(FileLock, AcquireTimesOutWithAnIoError) {
  TempDir dir;
  auto holder = FileLock::acquire(dir / "x.lock");
  ASSERT_TRUE(holder.ok());
  auto waiter = FileLock::acquire(dir / "x.lock", std::chrono::milliseconds(30));
  ASSERT_FALSE(waiter.ok());
  EXPECT_EQ(waiter.error().code, ErrorCode::IoError);
}

TEST(FileLock, AWaiterGetsTheLockWhenTheHolderReleases) {
  TempDir dir;
  auto holder = FileLock::acquire(dir / "x.lock");
  ASSERT_TRUE(holder.ok());
  bool waiter_had_it_early = false;
  std::atomic<bool> released{false};
  std::thread waiter([&] {
    auto lock = FileLock::acquire(dir / "x.lock");
    waiter_had_it_early = !released.load();
    EXPECT_TRUE(lock.ok());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  released = true;
  holder->release();
  waiter.join();
  EXPECT_FALSE(waiter_had_it_early);
}

TEST(FileLock, HeldAcrossProcessesAndDroppedWhenTheHolderDies) {
  TempDir dir;
  std::string lock_file = dir / "x.lock";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto lock = FileLock::acquire(lock_file);
    char byte = lock.ok() ? 'y' : 'n';
    (void)!::write(ready[1], &byte, 1);
    while (true)
      ::pause(); // hold until killed
  }
  ::close(ready[1]);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ASSERT_EQ(byte, 'y');
  auto busy = FileLock::tryAcquire(lock_file);
  ASSERT_TRUE(busy.ok());
  EXPECT_FALSE(busy->has_value());
  ::kill(pid, SIGKILL);
  EXPECT_EQ(testing::waitExitCode(pid), 128 + SIGKILL);
  auto free_now = FileLock::tryAcquire(lock_file);
  ASSERT_TRUE(free_now.ok());
  EXPECT_TRUE(free_now->has_value());
  ::close(ready[0]);
}

TEST(FileLock, LockFilesAreNamedPerCanonicalPathInTheRuntimeDirectory) {
  auto a = FileLock::lockFileFor("/work/a.txt");
  auto a_again = FileLock::lockFileFor("/work/a.txt");
  auto b = FileLock::lockFileFor("/work/b.txt");
  ASSERT_TRUE(a.ok() && a_again.ok() && b.ok());
  EXPECT_EQ(*a, *a_again);
  EXPECT_NE(*a, *b);
  const char* runtime = std::getenv("HASHLINE_RUNTIME_DIR");
  ASSERT_NE(runtime, nullptr);
  EXPECT_EQ(a->rfind(std::string(runtime) + "/locks/", 0), 0u) << *a;

  auto held = FileLock::forPath("/work/a.txt");
  ASSERT_TRUE(held.ok());
  auto same = FileLock::tryAcquire(*a);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same->has_value());
  auto other = FileLock::tryAcquire(*b);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->has_value());
}

TEST(FileLock, MovedLocksStayHeld) {
  TempDir dir;
  auto lock = FileLock::acquire(dir / "x.lock");
  ASSERT_TRUE(lock.ok());
  FileLock moved = std::move(*lock);
  EXPECT_TRUE(moved.held());
  auto probe = FileLock::tryAcquire(dir / "x.lock");
  ASSERT_TRUE(probe.ok());
  EXPECT_FALSE(probe->has_value());
}

} // namespace
} // namespace hashline::disk
