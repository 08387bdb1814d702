// platform::findBytes: first occurrence, absent, empty needle, needle at the very end, NUL bytes.
#include "lsp/platform/find_bytes.h"

#include <gtest/gtest.h>
#include <string>

namespace hashline::platform {
namespace {

TEST(FindBytes, FindsTheFirstOccurrence) {
  EXPECT_EQ(findBytes("abcabc", "bc"), 1u);
  EXPECT_EQ(findBytes("abcabc", "abd"), std::string_view::npos);
  EXPECT_EQ(findBytes("abc", ""), 0u);
  EXPECT_EQ(findBytes("abc", "c"), 2u);
  EXPECT_EQ(findBytes("ab", "abc"), std::string_view::npos);
  const std::string with_nul("a\0b\0c", 5);
  EXPECT_EQ(findBytes(with_nul, std::string_view("b\0c", 3)), 2u);
}

} // namespace
} // namespace hashline::platform
