// Tests for the unified diff renderer (engine/diff/unified_diff.h).
#include "engine/diff/unified_diff.h"
#include "engine/plan/edit_plan.h"

#include <gtest/gtest.h>
#include <random>

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

namespace hashline {
namespace {

TEST(UnifiedDiffOfPlan, EqualsTheFullDiffOnRandomPlans) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    std::string text;
    const int lines = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < lines; ++i)
      text += "line " + std::to_string(rng() % 7) + (rng() % 5 ? "\n" : "\r\n");
    if (rng() % 4 == 0) text.pop_back();
    const Rope base(text);
    EditPlan plan;
    std::size_t at = 0;
    while (at < text.size() && plan.edits.size() < 3) {
      const std::size_t begin = at + rng() % (text.size() - at + 1);
      const std::size_t end = std::min(text.size(), begin + rng() % 12);
      // Keep edits on line boundaries' safe side: whole bytes of ASCII, never inside CRLF.
      if ((begin > 0 && text[begin - 1] == '\r' && begin < text.size() && text[begin] == '\n') ||
          (end > 0 && text[end - 1] == '\r' && end < text.size() && text[end] == '\n'))
        break;
      plan.edits.push_back(ByteEdit{begin, end, rng() % 2 ? "new\n" : "X"});
      at = end + 1;
    }
    const UnifiedDiffOptions options{"a/f", "b/f", rng() % 4};
    EXPECT_EQ(unifiedDiffOfPlan(base, plan, options),
              unifiedDiff(text, applyPlan(base, plan).toString(), options))
        << trial;
  }
}

TEST(UnifiedDiffOfPlan, NumbersLinesInTheWholeFile) {
  std::string text;
  for (int i = 1; i <= 1000; ++i)
    text += std::to_string(i) + "\n";
  const Rope base(text);
  const std::size_t begin = base.lineStartByte(499);
  EditPlan plan;
  plan.edits.push_back(ByteEdit{begin, begin + 3, "five hundred"});
  EXPECT_EQ(unifiedDiffOfPlan(base, plan, {"a", "b", 1}),
            "--- a\n+++ b\n@@ -499,3 +499,3 @@\n 499\n-500\n+five hundred\n 501\n");
}

} // namespace
} // namespace hashline
