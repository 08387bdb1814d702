// platform::DirectoryWatcher with this build's backend (inotify, or polling in the portable
// build) on a real directory: an atomic write (temp + rename), an in-place write, a deletion and
// the directory's own removal are each reported with the entry's name; unwatched directories
// report nothing. Waits end on the event (or fail after 10 s), never on a fixed sleep.
#include "lsp/platform/directory_watcher.h"
#include "tests/lsp/support/temp_dir.h"

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace hashline::platform {
namespace {

namespace fs = std::filesystem;

struct Seen {
  std::string directory;
  std::string name;
  std::uint32_t events;
};

class DirectoryWatcherTest : public ::testing::Test {
protected:
  static void write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  }

  // Runs the io_context until an event for `name` whose events include any of `wanted`.
  bool waitFor(const std::string& name, std::uint32_t wanted) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      for (const Seen& seen : seen_)
        if (seen.name == name && (seen.events & wanted)) return true;
      io_.run_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  hashline::test::TempDir temp_{"hashline-watch"};
  const std::string dir_ = temp_.path();
  boost::asio::io_context io_;
  std::vector<Seen> seen_;
  DirectoryWatcher watcher_{
      io_, [this](const std::string& directory, const std::string& name, std::uint32_t events) {
        seen_.push_back({directory, name, events});
      }};
};

TEST_F(DirectoryWatcherTest, ReportsAtomicWriteInPlaceWriteAndDeletion) {
  ASSERT_TRUE(watcher_.ok()) << watcher_.mechanism();
  write(fs::path(dir_) / "file.txt", "one\n");
  ASSERT_TRUE(watcher_.watch(dir_));
  EXPECT_EQ(watcher_.watchedDirectories(), 1u);

  write(fs::path(dir_) / ".tmp", "two\n");
  fs::rename(fs::path(dir_) / ".tmp", fs::path(dir_) / "file.txt");
  ASSERT_TRUE(waitFor("file.txt", kWatchMovedIn | kWatchClosed)) << watcher_.mechanism();
  for (const Seen& seen : seen_)
    EXPECT_EQ(seen.directory, dir_);

  seen_.clear();
  write(fs::path(dir_) / "file.txt", "three, longer\n");
  EXPECT_TRUE(waitFor("file.txt", kWatchModified | kWatchClosed)) << watcher_.mechanism();

  seen_.clear();
  fs::remove(fs::path(dir_) / "file.txt");
  EXPECT_TRUE(waitFor("file.txt", kWatchDeleted)) << watcher_.mechanism();
}

TEST_F(DirectoryWatcherTest, ReferenceCountedAndSilentOnceUnwatched) {
  ASSERT_TRUE(watcher_.watch(dir_));
  ASSERT_TRUE(watcher_.watch(dir_));
  watcher_.unwatch(dir_);
  EXPECT_EQ(watcher_.watchedDirectories(), 1u);
  watcher_.unwatch(dir_);
  EXPECT_EQ(watcher_.watchedDirectories(), 0u);
  // A marker written to a second, watched directory proves events still flow; none came for
  // the unwatched one before it.
  const std::string other = dir_ + "/sub";
  fs::create_directory(other);
  ASSERT_TRUE(watcher_.watch(other));
  write(fs::path(dir_) / "ignored.txt", "x");
  write(fs::path(other) / "marker.txt", "x");
  ASSERT_TRUE(waitFor("marker.txt", kWatchCreated | kWatchClosed | kWatchModified));
  for (const Seen& seen : seen_)
    EXPECT_NE(seen.name, "ignored.txt");
}

TEST_F(DirectoryWatcherTest, ADirectoryThatGoesAwayIsReportedAndDropped) {
  const std::string sub = dir_ + "/gone";
  fs::create_directory(sub);
  ASSERT_TRUE(watcher_.watch(sub));
  fs::remove_all(sub);
  ASSERT_TRUE(waitFor("", kWatchDirectoryGone)) << watcher_.mechanism();
  EXPECT_EQ(watcher_.watchedDirectories(), 0u);
  EXPECT_FALSE(watcher_.watch(dir_ + "/never-existed"));
}

} // namespace
} // namespace hashline::platform
