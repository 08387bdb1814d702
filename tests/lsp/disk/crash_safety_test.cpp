// Crash safety (DESIGN §6, scenario 37): a child process rewrites a 5 MB file over and over,
// alternating two known contents, and is killed with SIGKILL at random moments. After every kill
// the file must be wholly one of the two contents, and after the sweep no temp file may remain.
// Runs for both temp strategies; at least 200 completed writes and 40 kills per strategy.
//
// The kill moments are spread uniformly over eight write durations (measured first), so a child
// completes a few writes per round and kills land in every phase; the phase each kill interrupted
// is printed for the record, not asserted (that would be timing-dependent). When the machine is
// slower than the first measurement said (a loaded CI runner, a sanitizer build), the delay scale
// grows until kills again come after a write or two on average. Deterministic kills at each phase
// are in atomic_failure_test.cpp.
#include "disk_test_util.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/temp_file.h"

#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <gtest/gtest.h>
#include <iostream>
#include <random>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::listDir;
using testing::readRaw;
using testing::TempDir;

constexpr std::uint64_t kMinWrites = 200;
constexpr int kMinKills = 40;
constexpr int kMaxKills = 400;         // bounds the runtime if writes are unexpectedly slow
constexpr std::size_t kPhaseCount = 8; // WritePhase values + "between writes"

struct SharedCounters {
  std::atomic<std::uint64_t> writes_done;
  std::atomic<int> phase; // last WritePhase reached, kPhaseCount - 1 = between writes
};

std::string makeContent(char tag, std::size_t bytes, const char* line_end) {
  std::string content;
  content.reserve(bytes + 64);
  for (std::size_t line = 0; content.size() < bytes; ++line)
    content +=
        std::string(1, tag) + " line " + std::to_string(line) + " of a large file" + line_end;
  return content;
}

class CrashSafetyTest : public ::testing::TestWithParam<bool> {};

INSTANTIATE_TEST_SUITE_P(TempStrategies, CrashSafetyTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Tmpfile" : "NamedTemp"; });

TEST_P(CrashSafetyTest, SigkillDuringManyLargeWritesNeverTearsTheFile) {
  const bool use_tmpfile = GetParam();
  TempDir dir;
  const std::string path = dir / "big.txt";
  // Different sizes, line endings and bytes everywhere: any mix of the two is detectable.
  const std::string content_a = makeContent('A', 5 << 20, "\n");
  const std::string content_b = makeContent('B', (5 << 20) + 4093, "\r\n");
  testing::writeRaw(path, content_a);

  auto* shared = static_cast<SharedCounters*>(::mmap(
      nullptr, sizeof(SharedCounters), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(shared, MAP_FAILED);
  new (shared) SharedCounters{};

  // One write's duration sets the scale of the random kill delays.
  WriteOptions timing;
  timing.use_tmpfile = use_tmpfile;
  auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(atomicReplace(path, content_b, timing).ok());
  ASSERT_TRUE(atomicReplace(path, content_a, timing).ok());
  auto write_duration = (std::chrono::steady_clock::now() - started) / 2;
  auto max_delay = std::chrono::duration_cast<std::chrono::microseconds>(write_duration * 8) +
                   std::chrono::microseconds(500);

  std::random_device seed_source;
  unsigned seed = seed_source();
  std::mt19937 random(seed);
  ::testing::Test::RecordProperty("seed", std::to_string(seed));

  std::array<int, kPhaseCount> kills_by_phase{};
  int kills = 0;
  while ((shared->writes_done.load() < kMinWrites || kills < kMinKills) && kills < kMaxKills) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(ready[0]);
      auto current = readFileBytes(path);
      if (!current.ok()) ::_exit(2);
      bool next_is_b = current->bytes.size() == content_a.size();
      WriteOptions opts;
      opts.use_tmpfile = use_tmpfile;
      opts.expected = current->fingerprint;
      opts.on_phase = [&](WritePhase phase) {
        shared->phase.store(static_cast<int>(phase));
        return Status::success();
      };
      char byte = 'r';
      (void)!::write(ready[1], &byte, 1);
      while (true) {
        auto written = atomicReplace(path, next_is_b ? content_b : content_a, opts);
        if (!written.ok()) ::_exit(3);
        shared->writes_done.fetch_add(1);
        shared->phase.store(static_cast<int>(kPhaseCount - 1));
        opts.expected = written->fingerprint;
        next_is_b = !next_is_b;
      }
    }
    ::close(ready[1]);
    char byte = 0;
    ASSERT_EQ(::read(ready[0], &byte, 1), 1); // the child has read the file and starts writing
    ::close(ready[0]);
    // Fewer than one completed write per kill so far: the writes are slower than measured.
    if (kills >= 20 && kills % 20 == 0 && shared->writes_done.load() < std::uint64_t(kills))
      max_delay = max_delay * 3 / 2;
    std::uniform_int_distribution<long> delay_us(0, max_delay.count());
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int code = testing::waitExitCode(pid);
    ASSERT_EQ(code, 128 + SIGKILL) << "the writer failed on its own (exit " << code << ")";
    ++kills;
    ++kills_by_phase[static_cast<std::size_t>(shared->phase.load())];

    std::string now = readRaw(path);
    ASSERT_TRUE(now == content_a || now == content_b)
        << "torn file after kill " << kills << ": " << now.size() << " bytes (seed " << seed << ")";
    sweepStaleTemps(dir.path());
    ASSERT_EQ(listDir(dir.path()), std::vector<std::string>{"big.txt"})
        << "temp litter after kill " << kills;
  }

  EXPECT_GE(shared->writes_done.load(), kMinWrites);
  EXPECT_GE(kills, kMinKills);
  std::cout << "[ crash    ] " << (use_tmpfile ? "O_TMPFILE" : "named temp") << ": " << kills
            << " kills over " << shared->writes_done.load() << " completed 5 MB writes (one write ~"
            << std::chrono::duration_cast<std::chrono::milliseconds>(write_duration).count()
            << " ms, seed " << seed << "); last phase reached at each kill:";
  const char* names[kPhaseCount] = {"created", "written",   "synced",     "named",
                                    "checked", "published", "dir-synced", "between"};
  for (std::size_t i = 0; i < kPhaseCount; ++i)
    std::cout << " " << names[i] << "=" << kills_by_phase[i];
  std::cout << std::endl;
  ::munmap(shared, sizeof(SharedCounters));
}

} // namespace
} // namespace hashline::disk
