// platform::mapZeroedPages gives zeroed, writable memory of the size asked; the tuning calls
// (no-ops outside glibc) leave malloc working.
#include "lsp/platform/memory_tuning.h"

#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>

namespace hashline::platform {
namespace {

TEST(MemoryTuning, MappedPagesAreZeroedAndWritable) {
  constexpr std::size_t kBytes = std::size_t(3) << 20;
  auto* bytes = static_cast<unsigned char*>(mapZeroedPages(kBytes));
  ASSERT_NE(bytes, nullptr);
  for (std::size_t at = 0; at < kBytes; at += 4096)
    ASSERT_EQ(bytes[at], 0) << at;
  std::memset(bytes, 0xAB, kBytes);
  EXPECT_EQ(bytes[kBytes - 1], 0xAB);
  unmapPages(bytes, kBytes);
}

TEST(MemoryTuning, TuningKeepsTheAllocatorWorking) {
  mapAllocationsFrom(std::size_t(1) << 20);
  void* block = std::malloc(std::size_t(4) << 20);
  ASSERT_NE(block, nullptr);
  adviseHugePages(block, std::size_t(4) << 20);
  std::memset(block, 1, std::size_t(4) << 20);
  std::free(block);
}

} // namespace
} // namespace hashline::platform
