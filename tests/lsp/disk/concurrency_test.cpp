// Scenario 36: two edits at once against the same observed version — exactly one applies, the
// other gets STALE_VERSION, no lost update. Across processes (fork) and threads; different
// files proceed independently.
#include "disk_test_util.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/disk_file.h"

#include <algorithm>
#include <atomic>
#include <gtest/gtest.h>
#include <latch>
#include <thread>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::listDir;
using testing::readRaw;
using testing::TempDir;
using testing::writeRaw;

constexpr int kApplied = 0;
constexpr int kStale = 3;

class ConcurrencyTest : public ::testing::TestWithParam<bool> {
protected:
  TempDir dir;
};

INSTANTIATE_TEST_SUITE_P(TempStrategies, ConcurrencyTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Tmpfile" : "NamedTemp"; });

TEST_P(ConcurrencyTest, TwoProcessesRacingOnOneVersionExactlyOneWins) {
  const bool use_tmpfile = GetParam();
  std::string path = dir / "shared.txt";
  for (int round = 0; round < 20; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    writeRaw(path, "base version\n");
    int ready[2], go[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(go), 0);
    pid_t children[2];
    for (int child = 0; child < 2; ++child) {
      children[child] = ::fork();
      ASSERT_GE(children[child], 0);
      if (children[child] == 0) {
        ::close(ready[0]);
        ::close(go[1]);
        auto observed = readTextFile(path); // both observe the same version
        char byte = 'r';
        (void)!::write(ready[1], &byte, 1);
        (void)!::read(go[0], &byte, 1); // EOF releases both at once
        if (!observed.ok()) ::_exit(10);
        WriteOptions opts;
        opts.use_tmpfile = use_tmpfile;
        opts.expected = observed->fingerprint;
        auto written = atomicReplace(path, "edit by child " + std::to_string(child) + "\n", opts);
        if (written.ok()) ::_exit(kApplied);
        ::_exit(written.error().code == ErrorCode::StaleVersion ? kStale : 11);
      }
    }
    ::close(ready[1]);
    ::close(go[0]);
    char byte;
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    ::close(go[1]);
    ::close(ready[0]);
    int codes[2] = {testing::waitExitCode(children[0]), testing::waitExitCode(children[1])};
    std::vector<int> sorted(codes, codes + 2);
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(sorted, (std::vector<int>{kApplied, kStale}));
    int winner = codes[0] == kApplied ? 0 : 1;
    EXPECT_EQ(readRaw(path), "edit by child " + std::to_string(winner) + "\n");
    EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"shared.txt"});
  }
}

TEST_P(ConcurrencyTest, ThreadsRacingOnOneVersionExactlyOneWins) {
  constexpr int kThreads = 4;
  std::string path = dir / "shared.txt";
  for (int round = 0; round < 10; ++round) {
    writeRaw(path, "base\n");
    auto observed = readTextFile(path);
    ASSERT_TRUE(observed.ok());
    std::latch start(kThreads);
    std::atomic<int> applied{0}, stale{0}, other{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        WriteOptions opts;
        opts.use_tmpfile = GetParam();
        opts.expected = observed->fingerprint;
        start.arrive_and_wait();
        auto written = atomicReplace(path, "thread " + std::to_string(t) + "\n", opts);
        if (written.ok())
          ++applied;
        else if (written.error().code == ErrorCode::StaleVersion)
          ++stale;
        else
          ++other;
      });
    }
    for (auto& thread : threads)
      thread.join();
    EXPECT_EQ(applied.load(), 1);
    EXPECT_EQ(stale.load(), kThreads - 1);
    EXPECT_EQ(other.load(), 0);
    EXPECT_EQ(readRaw(path).rfind("thread ", 0), 0u);
  }
}

TEST_P(ConcurrencyTest, DifferentFilesAllApply) {
  constexpr int kFiles = 6;
  for (int i = 0; i < kFiles; ++i)
    writeRaw(dir / ("f" + std::to_string(i)), "base\n");
  std::latch start(kFiles);
  std::atomic<int> applied{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kFiles; ++i) {
    threads.emplace_back([&, i] {
      std::string path = dir / ("f" + std::to_string(i));
      auto observed = readTextFile(path);
      WriteOptions opts;
      opts.use_tmpfile = GetParam();
      if (observed.ok()) opts.expected = observed->fingerprint;
      start.arrive_and_wait();
      if (atomicReplace(path, "edited " + std::to_string(i) + "\n", opts).ok()) ++applied;
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(applied.load(), kFiles);
  for (int i = 0; i < kFiles; ++i)
    EXPECT_EQ(readRaw(dir / ("f" + std::to_string(i))), "edited " + std::to_string(i) + "\n");
}

TEST_P(ConcurrencyTest, UnconditionalWritersNeverInterleave) {
  std::string path = dir / "shared.txt";
  writeRaw(path, "base\n");
  const std::string a(200'000, 'a'), b(300'000, 'b');
  std::latch start(2);
  std::vector<std::thread> threads;
  for (const std::string* content : {&a, &b}) {
    threads.emplace_back([&, content] {
      WriteOptions opts;
      opts.use_tmpfile = GetParam();
      start.arrive_and_wait();
      for (int i = 0; i < 10; ++i)
        EXPECT_TRUE(atomicReplace(path, *content, opts).ok());
    });
  }
  for (auto& thread : threads)
    thread.join();
  std::string final_content = readRaw(path);
  EXPECT_TRUE(final_content == a || final_content == b);
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"shared.txt"});
}

} // namespace
} // namespace hashline::disk
