// Tests for the unified diff renderer (engine/diff/unified_diff.h).
#include "engine/diff/unified_diff.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

TEST(UnifiedDiff, IdenticalIsEmpty) {
  EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n"), "");
}

TEST(UnifiedDiff, OneChangedLineWithContext) {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::string after = "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n";
  EXPECT_EQ(unifiedDiff(before, after, {"a/f.txt", "b/f.txt", 3}),
            "--- a/f.txt\n+++ b/f.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, SeparateHunksAndMergedHunks) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    after += (i == 2 || i == 18 ? "x" : std::to_string(i)) + "\n";
  }
  const auto diff = unifiedDiff(before, after, {"a", "b", 1});
  EXPECT_EQ(
      diff,
      "--- a\n+++ b\n@@ -1,3 +1,3 @@\n 1\n-2\n+x\n 3\n@@ -17,3 +17,3 @@\n 17\n-18\n+x\n 19\n");
  // With a large context the two changes share one hunk.
  const std::string wide = unifiedDiff(before, after, {"a", "b", 8});
  EXPECT_EQ(std::count(wide.begin(), wide.end(), '@'), 4);
}

TEST(UnifiedDiff, EmptySidesAndMissingFinalNewline) {
  EXPECT_EQ(unifiedDiff("", "a\n"), "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n");
  EXPECT_EQ(unifiedDiff("a\n", ""), "--- a\n+++ b\n@@ -1 +0,0 @@\n-a\n");
  EXPECT_EQ(unifiedDiff("a\nb", "a\nb\n"),
            "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
}

TEST(UnifiedDiff, CrlfChangeIsVisible) {
  EXPECT_EQ(unifiedDiff("a\r\n", "a\n"), "--- a\n+++ b\n@@ -1 +1 @@\n-a\r\n+a\n");
}

} // namespace
} // namespace hashline
