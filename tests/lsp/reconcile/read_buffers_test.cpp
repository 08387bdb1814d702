// The pool of large read buffers (lsp/reconcile/read_buffers.h): a released mapping is handed to
// the next read that fits, a much larger one is not, the spares stay within their bounds, and
// FileBytes read through readSettled draws from and returns to the pool.
#include "lsp/reconcile/disk_read.h"
#include "lsp/reconcile/read_buffers.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace hashline::lsp {
namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

TEST(ReadBuffers, AReleasedMappingIsReusedByTheNextReadItFits) {
  read_buffers::Mapping first = read_buffers::acquire(3 * kMiB);
  ASSERT_NE(first.data, nullptr);
  EXPECT_GE(first.capacity, 3 * kMiB);
  first.data[0] = 'x';
  first.data[3 * kMiB - 1] = 'y'; // writable to the end
  read_buffers::release(first);
  read_buffers::Mapping second = read_buffers::acquire(3 * kMiB + 100); // a line longer
  EXPECT_EQ(second.data, first.data);
  EXPECT_EQ(second.capacity, first.capacity);
  read_buffers::release(second);
}

TEST(ReadBuffers, ASmallReadDoesNotPinAMuchLargerSpare) {
  read_buffers::Mapping large = read_buffers::acquire(40 * kMiB);
  ASSERT_NE(large.data, nullptr);
  read_buffers::release(large);
  read_buffers::Mapping small = read_buffers::acquire(2 * kMiB);
  ASSERT_NE(small.data, nullptr);
  EXPECT_NE(small.data, large.data);
  EXPECT_LT(small.capacity, 4 * kMiB);
  read_buffers::release(small);
}

TEST(ReadBuffers, SparesStayWithinTheirCount) {
  std::vector<read_buffers::Mapping> held;
  for (std::size_t i = 0; i < read_buffers::kMaxSpare + 3; ++i) {
    held.push_back(read_buffers::acquire(2 * kMiB));
    ASSERT_NE(held.back().data, nullptr);
  }
  for (read_buffers::Mapping& mapping : held)
    read_buffers::release(mapping);
  EXPECT_EQ(read_buffers::spareCount(), read_buffers::kMaxSpare);
}

TEST(ReadBuffers, SparesUnusedForTheirLifeAreUnmapped) {
  read_buffers::Mapping mapping = read_buffers::acquire(2 * kMiB);
  ASSERT_NE(mapping.data, nullptr);
  read_buffers::release(mapping);
  ASSERT_GE(read_buffers::spareCount(), 1u);
  const auto now = std::chrono::steady_clock::now();
  read_buffers::expireSpares(now); // released just now: kept
  EXPECT_GE(read_buffers::spareCount(), 1u);
  read_buffers::expireSpares(now + read_buffers::kSpareLife + std::chrono::seconds(1));
  EXPECT_EQ(read_buffers::spareCount(), 0u);
}

TEST(ReadBuffers, ReadsOfABigFileShareOneMappingInTurn) {
  char dir_template[] = "/tmp/hashline-read-buffers.XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string path = std::string(dir_template) + "/big.txt";
  std::string text;
  for (int i = 0; text.size() < 2 * kMiB; ++i)
    text += "line " + std::to_string(i) + " of a file the reconciler reads whole\n";
  std::ofstream(path, std::ios::binary) << text;

  const char* first_data = nullptr;
  {
    SettledRead read = readSettled(path, 64 * kMiB);
    ASSERT_EQ(read.kind, SettledRead::Text);
    EXPECT_EQ(read.bytes->view(), text);
    first_data = read.bytes->view().data();
  } // the bytes go back to the pool
  SettledRead again = readSettled(path, 64 * kMiB);
  ASSERT_EQ(again.kind, SettledRead::Text);
  EXPECT_EQ(again.bytes->view(), text);
  EXPECT_EQ(again.bytes->view().data(), first_data);
  // While the first read is held (the reconciler's base), the next one gets another buffer.
  SettledRead third = readSettled(path, 64 * kMiB);
  ASSERT_EQ(third.kind, SettledRead::Text);
  EXPECT_NE(third.bytes->view().data(), again.bytes->view().data());
  EXPECT_EQ(third.bytes->view(), text);
  std::remove(path.c_str());
  ::rmdir(dir_template);
}

} // namespace
} // namespace hashline::lsp
