// Verified plans through minimal edits to editor positions (scenario 40 at engine level: the
// ranges convert to UTF-16 positions on lines with astral characters before the edit point).
#include "engine/diff/minimal_edits.h"
#include "engine/diff/unified_diff.h"
#include "fixture.h"

#include <gtest/gtest.h>

namespace hashline::test {
namespace {

TEST(MinimalPlan, RangeReplaceBecomesOneSmallEditWithUtf16Positions) {
  LiveSession s("intro\n\xF0\x9F\x98\x80 emoji = 1;\nkeep\nlast\n");
  s.read();
  auto result =
      s.verify({replaceOp(s.anchor(2), "\xF0\x9F\x98\x80 emoji = 2;\nkeep", s.anchor(3))});
  ASSERT_TRUE(result.ok());
  const EditPlan minimal = minimizePlan(s.doc.text(), result->plan);
  ASSERT_EQ(minimal.edits.size(), 1u);
  EXPECT_EQ(minimal.edits[0].text, "2");
  EXPECT_EQ(applyPlan(s.doc.text(), minimal).toString(), result->after.toString());
  const auto start = s.doc.text().positionOfByte(minimal.edits[0].begin, PositionEncoding::Utf16);
  EXPECT_EQ(start, (LspPosition{1, 11})); // 😀 is 2 UTF-16 units: "😀 emoji = " is 11
  const auto start8 = s.doc.text().positionOfByte(minimal.edits[0].begin, PositionEncoding::Utf8);
  EXPECT_EQ(start8, (LspPosition{1, 13}));
  // Applying the minimal edits as the editor would gives the prediction.
  s.apply(VerifiedEdit{minimal, result->after, result->tier, result->line_count_after,
                       result->lsp_line_count_after, result->changed_lines, result->fresh_anchors,
                       result->fresh_rows});
  EXPECT_EQ(s.text(), "intro\n\xF0\x9F\x98\x80 emoji = 2;\nkeep\nlast\n");
}

TEST(MinimalPlan, WriteOfAWholeFileTouchesOnlyWhatChanged) {
  std::string text;
  for (int i = 0; i < 200; ++i)
    text += "line " + std::to_string(i) + "\r\n";
  LiveSession s(text);
  s.read();
  std::string content;
  for (int i = 0; i < 200; ++i)
    content += (i == 100 ? std::string("LINE 100") : "line " + std::to_string(i)) + "\n";
  auto result = s.verify({writeOp(content)});
  ASSERT_TRUE(result.ok());
  const auto minimal = minimalEdits(s.doc.text(), result->plan);
  ASSERT_EQ(minimal.size(), 1u);
  EXPECT_EQ(minimal[0].text, "LINE");
  EXPECT_EQ(result->changed_lines, (std::vector<LineSpan>{{101, 101}}));
  EXPECT_EQ(unifiedDiff(text, result->after.toString(), {"a/f", "b/f", 0}),
            "--- a/f\n+++ b/f\n@@ -101 +101 @@\n-line 100\r\n+LINE 100\r\n");
}

} // namespace
} // namespace hashline::test
