// Tests for the unified diff renderer (engine/diff/unified_diff.h).
#include "engine/diff/line_diff.h"
#include "engine/diff/unified_diff.h"
#include "engine/plan/edit_plan.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <optional>
#include <random>
#include <string>
#include <vector>

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

// Applies a unified diff (as rendered here: LF after every printed line, `\\ No newline`
// markers) to `before`; checks every context and removed line and every hunk's numbers on the
// way. Returns nullopt when the diff does not apply.
std::optional<std::string> applyUnifiedDiff(const std::string& before, const std::string& diff) {
  const std::vector<std::string_view> old_lines = splitLinesKeepingEnds(before);
  std::vector<std::string> rows;
  for (std::size_t at = 0; at < diff.size();) {
    const std::size_t end = diff.find('\n', at);
    rows.push_back(diff.substr(at, end - at));
    at = end + 1;
  }
  std::string out;
  std::size_t old_at = 0, new_count = 0;
  auto text_of = [&](std::size_t row) {
    std::string text = rows[row].substr(1);
    if (row + 1 >= rows.size() || rows[row + 1] != "\\ No newline at end of file") text += '\n';
    return text;
  };
  for (std::size_t row = 2; row < rows.size(); ++row) {
    if (rows[row].rfind("@@ -", 0) != 0) return std::nullopt;
    std::size_t old_start = 0, old_len = 1, new_start = 0, new_len = 1;
    const char* header = rows[row].c_str();
    int used = 0;
    if (std::sscanf(header, "@@ -%zu%n", &old_start, &used) != 1) return std::nullopt;
    header += used;
    if (std::sscanf(header, ",%zu%n", &old_len, &used) == 1) header += used;
    if (std::sscanf(header, " +%zu%n", &new_start, &used) != 1) return std::nullopt;
    header += used;
    if (std::sscanf(header, ",%zu", &new_len) != 1) new_len = 1;
    const std::size_t first_old = old_len == 0 ? old_start : old_start - 1;
    if (first_old < old_at || first_old > old_lines.size()) return std::nullopt;
    for (; old_at < first_old; ++old_at, ++new_count)
      out += old_lines[old_at];
    if ((new_len == 0 ? new_start : new_start - 1) != new_count) return std::nullopt;
    for (++row; row < rows.size() && rows[row].rfind("@@ -", 0) != 0; ++row) {
      const char kind = rows[row][0];
      if (kind == '\\') continue;
      const std::string text = text_of(row);
      if (kind == '+') {
        out += text;
        ++new_count;
        continue;
      }
      if (old_at >= old_lines.size() || old_lines[old_at] != text) return std::nullopt;
      ++old_at;
      if (kind == ' ') {
        out += text;
        ++new_count;
      }
    }
    --row;
  }
  for (; old_at < old_lines.size(); ++old_at)
    out += old_lines[old_at];
  return out;
}

std::size_t changedLines(const std::string& diff) {
  std::size_t count = 0;
  for (std::size_t at = diff.find('\n'); at != std::string::npos; at = diff.find('\n', at + 1))
    if (at + 1 < diff.size() && (diff[at + 1] == '+' || diff[at + 1] == '-') &&
        diff.compare(at + 1, 3, "+++") != 0 && diff.compare(at + 1, 3, "---") != 0)
      ++count;
  return count;
}

/// A random text (lines drawn from `distinct` values, LF or CRLF) and a plan of up to `edits`
/// edits that never split a CRLF.
std::pair<std::string, EditPlan> randomCase(std::mt19937& rng, int distinct, int max_lines,
                                            std::size_t edits) {
  std::string text;
  const int lines = 1 + static_cast<int>(rng() % max_lines);
  for (int i = 0; i < lines; ++i)
    text += "line " + std::to_string(distinct ? rng() % distinct : i) + (rng() % 5 ? "\n" : "\r\n");
  if (rng() % 4 == 0) text.pop_back();
  if (text.back() == '\r') text.pop_back(); // a final lone CR prints like a CRLF line
  EditPlan plan;
  std::size_t at = 0;
  while (at < text.size() && plan.edits.size() < edits) {
    const std::size_t begin = at + rng() % std::min<std::size_t>(text.size() - at + 1, 200);
    const std::size_t end = std::min(text.size(), begin + rng() % 12);
    if ((begin > 0 && text[begin - 1] == '\r' && begin < text.size() && text[begin] == '\n') ||
        (end > 0 && text[end - 1] == '\r' && end < text.size() && text[end] == '\n'))
      break;
    plan.edits.push_back(ByteEdit{begin, end, rng() % 2 ? "new\n" : "X"});
    at = end + 1;
  }
  return {text, plan};
}

TEST(UnifiedDiffOfPlan, EqualsTheFullDiffWhenLinesAreDistinct) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    auto [text, plan] = randomCase(rng, 0, 120, 6);
    const Rope base(text);
    const UnifiedDiffOptions options{"a/f", "b/f", rng() % 4};
    EXPECT_EQ(unifiedDiffOfPlan(base, plan, options),
              unifiedDiff(text, applyPlan(base, plan).toString(), options))
        << trial;
  }
}

TEST(UnifiedDiffOfPlan, IsAValidMinimalDiffWhenLinesRepeat) {
  // Runs of equal lines let a change slide; the windowed diff may place it elsewhere than the
  // whole-text diff, but it applies to the base, gives the new text, and changes as few lines.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    auto [text, plan] = randomCase(rng, 7, 80, 5);
    const Rope base(text);
    const std::string after = applyPlan(base, plan).toString();
    const UnifiedDiffOptions options{"a/f", "b/f", rng() % 4};
    const std::string windowed = unifiedDiffOfPlan(base, plan, options);
    const std::string whole = unifiedDiff(text, after, options);
    EXPECT_EQ(windowed.empty(), whole.empty()) << trial;
    if (windowed.empty()) continue;
    EXPECT_EQ(applyUnifiedDiff(text, windowed), after) << trial << "\n" << windowed;
    EXPECT_EQ(applyUnifiedDiff(text, whole), after) << trial << " (oracle)";
    EXPECT_EQ(changedLines(windowed), changedLines(whole)) << trial;
  }
}

TEST(UnifiedDiffOfPlan, DiffsOnlyTheTouchedLinesOfAHugeText) {
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "row " + std::to_string(i) + "\n";
  const Rope base(text);
  EditPlan plan; // 50 one-line changes spread over the text
  for (std::size_t k = 0; k < 50; ++k) {
    const std::size_t line = 2000 + k * 3900;
    plan.edits.push_back(ByteEdit{base.lineStartByte(line), base.lineStartByte(line) + 3, "ROW"});
  }
  const std::size_t lines_before = linesDiffedOnThisThread();
  const std::string diff = unifiedDiffOfPlan(base, plan);
  const std::size_t diffed = linesDiffedOnThisThread() - lines_before;
  EXPECT_LE(diffed, 50u * 2 * 9); // each window: the line, 3 + 1 context lines each side, twice
  EXPECT_EQ(diff, unifiedDiff(text, applyPlan(base, plan).toString()));
  EXPECT_EQ(std::count(diff.begin(), diff.end(), '@'), 50 * 4);
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
