// Tests of the line-range form (engine/forms/line_range.h): versions, rebasing through the
// ChangeLog, refusals when the lines changed, insert/delete edge cases, CRLF and BOM.
#include "engine/forms/line_range.h"
#include "engine/text/document.h"
#include "tests/engine/forms/forms_test_util.h"

#include <gtest/gtest.h>

namespace hashline::forms {
namespace {

using testing::applied;

Result<EditPlan> atCurrent(const std::string& text, std::vector<LineRangeEdit> edits) {
  for (auto& edit : edits)
    edit.version = 5;
  return planLineRange(Rope(text), LineHistory{nullptr, 5}, edits);
}

std::string ranged(const std::string& text, std::vector<LineRangeEdit> edits) {
  Result<EditPlan> plan = atCurrent(text, edits);
  EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message);
  return plan.ok() ? applied(text, *plan) : "<error>";
}

TEST(LineRange, ReplaceShrinkGrow) {
  std::string text = "1\n2\n3\n4\n5\n";
  EXPECT_EQ(ranged(text, {{2, 4, "x"}}), "1\nx\n5\n");
  EXPECT_EQ(ranged(text, {{2, 4, "a\nb\nc\nd\ne\n"}}), "1\na\nb\nc\nd\ne\n5\n");
}

TEST(LineRange, DeleteFirstLastAndKeepFinalNewlineState) {
  EXPECT_EQ(ranged("a\nb\nc\n", {{1, 1, ""}}), "b\nc\n");
  EXPECT_EQ(ranged("a\nb\nc\n", {{3, 3, ""}}), "a\nb\n");
  EXPECT_EQ(ranged("a\nb\nc", {{3, 3, ""}}), "a\nb");
}

TEST(LineRange, InsertBeforeAfterAndAtEnds) {
  EXPECT_EQ(ranged("a\nb\n", {{1, 0, "top"}}), "top\na\nb\n");
  EXPECT_EQ(ranged("a\nb\n", {{2, 1, "mid"}}), "a\nmid\nb\n");
  EXPECT_EQ(ranged("a\nb\n", {{3, 2, "end"}}), "a\nb\nend\n");
  EXPECT_EQ(ranged("a\nb", {{3, 2, "end"}}), "a\nb\nend");
}

TEST(LineRange, BatchUsesOriginalNumbering) {
  EXPECT_EQ(ranged("a\nb\nc\nd\ne\nf\n",
                   {{1, 0, "HEAD"}, {2, 3, ""}, {5, 5, "FIVE\nFIVE-B"}, {7, 6, "AFTER6"}}),
            "HEAD\na\nd\nFIVE\nFIVE-B\nf\nAFTER6\n");
}

TEST(LineRange, OverlapAndOutOfRangeAndNoChange) {
  EXPECT_EQ(atCurrent("a\nb\nc\nd\ne\n", {{2, 4, "x"}, {3, 5, "y"}}).error().code,
            ErrorCode::OverlappingEdits);
  EXPECT_EQ(atCurrent("a\nb\n", {{2, 3, "x"}}).error().code, ErrorCode::OutOfRange);
  EXPECT_EQ(atCurrent("a\nb\n", {{0, 1, "x"}}).error().code, ErrorCode::OutOfRange);
  EXPECT_EQ(atCurrent("a\nb\n", {{2, 2, "b"}}).error().code, ErrorCode::NoChange);
}

TEST(LineRange, CrlfAndBom) {
  EXPECT_EQ(ranged("\xEF\xBB\xBF"
                   "a\r\nb\r\nc\r\n",
                   {{1, 2, "A\nB\nB2"}}),
            "\xEF\xBB\xBF"
            "A\r\nB\r\nB2\r\nc\r\n");
}

class LineRangeHistory : public ::testing::Test {
protected:
  // Version 1: ten lines "l1".."l10"; version 2 inserts three lines at the top.
  void SetUp() override {
    std::string text;
    for (int i = 1; i <= 10; ++i)
      text += "l" + std::to_string(i) + "\n";
    doc_.emplace(1, text);
    ASSERT_TRUE(doc_->applyByteEdit(2, 0, 0, "n1\nn2\nn3\n").ok());
  }
  Result<EditPlan> planAt(std::int64_t version, std::uint32_t start, std::uint32_t end,
                          std::string content) {
    return planLineRange(doc_->text(), LineHistory{&doc_->changeLog(), doc_->version()},
                         {{start, end, std::move(content), version}});
  }
  std::optional<Document> doc_;
};

TEST_F(LineRangeHistory, RebasesUnchangedLinesExactly) {
  Result<EditPlan> plan = planAt(1, 5, 6, "five\nsix");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  ASSERT_EQ(plan->rebased.size(), 1u);
  EXPECT_EQ(plan->rebased[0], (Rebase{5, 8}));
  std::string out = applyPlan(doc_->text(), *plan).toString();
  EXPECT_EQ(out, "n1\nn2\nn3\nl1\nl2\nl3\nl4\nfive\nsix\nl7\nl8\nl9\nl10\n");
  EXPECT_EQ(plan->base_version, 2);
}

TEST_F(LineRangeHistory, RefusesWhenTheLinesChanged) {
  // Version 3 edits what was line 6 at version 1.
  const std::size_t begin = doc_->text().lineStartByte(8);
  ASSERT_TRUE(doc_->applyByteEdit(3, begin, begin + 2, "L6").ok());
  Result<EditPlan> plan = planAt(1, 5, 7, "x");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::StaleAnchor);
  ASSERT_TRUE(plan.error().data.current_text.has_value());
  EXPECT_NE(plan.error().data.current_text->find("L6"), std::string::npos);
  // Lines outside the change still rebase.
  EXPECT_TRUE(planAt(1, 1, 2, "x").ok());
}

TEST_F(LineRangeHistory, UnknownVersionIsStale) {
  EXPECT_EQ(planAt(0, 1, 1, "x").error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(planAt(9, 1, 1, "x").error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(planLineRange(doc_->text(), LineHistory{nullptr, doc_->version()}, {{1, 1, "x", 1}})
                .error()
                .code,
            ErrorCode::StaleVersion);
}

TEST_F(LineRangeHistory, InsertionAfterAMovedLine) {
  Result<EditPlan> plan = planAt(1, 3, 2, "after-l2");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(applyPlan(doc_->text(), *plan).toString().substr(0, 27),
            "n1\nn2\nn3\nl1\nl2\nafter-l2\nl3\n");
}

} // namespace
} // namespace hashline::forms
