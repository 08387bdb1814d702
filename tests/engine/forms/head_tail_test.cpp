// Tests of the head/tail form (engine/forms/head_tail.h).
#include "engine/forms/head_tail.h"
#include "tests/engine/forms/forms_test_util.h"

#include <gtest/gtest.h>

namespace hashline::forms {
namespace {

using testing::applied;

const std::string kCode = "int a() {\n  return 1;\n}\n\nint b() {\n  return 2;\n}\n";

TEST(HeadTail, ReplacesFromHeadToNearestTail) {
  Result<EditPlan> plan =
      planHeadTail(Rope(kCode), 4, {{"int b() {", "}", "int b() { return 3; }"}});
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(applied(kCode, *plan), "int a() {\n  return 1;\n}\n\nint b() { return 3; }\n");
  EXPECT_EQ(plan->base_version, 4);
}

TEST(HeadTail, TailIsTheFirstAfterHead) {
  Result<EditPlan> plan = planHeadTail(Rope(kCode), 1, {{"int a() {", "}", "int a() {}"}});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(applied(kCode, *plan), "int a() {}\n\nint b() {\n  return 2;\n}\n");
}

TEST(HeadTail, AmbiguousHeadListsLines) {
  Result<EditPlan> plan = planHeadTail(Rope(kCode), 1, {{"  return", "}", "x"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::Ambiguous);
  EXPECT_EQ(plan.error().data.candidate_lines, (std::vector<std::uint32_t>{2, 6}));
}

TEST(HeadTail, HeadOrTailNotFound) {
  Result<EditPlan> head = planHeadTail(Rope(kCode), 1, {{"int c() {", "}", "x"}});
  ASSERT_FALSE(head.ok());
  EXPECT_EQ(head.error().code, ErrorCode::NotFound);
  EXPECT_TRUE(head.error().data.current_text.has_value());
  Result<EditPlan> tail = planHeadTail(Rope(kCode), 1, {{"int b() {", "};", "x"}});
  ASSERT_FALSE(tail.ok());
  EXPECT_EQ(tail.error().code, ErrorCode::NotFound);
  EXPECT_NE(tail.error().message.find("after the head (line 5)"), std::string::npos);
  EXPECT_EQ(planHeadTail(Rope(kCode), 1, {{"", "}", "x"}}).error().code, ErrorCode::NotFound);
}

TEST(HeadTail, OverlappingSpansAndNoChange) {
  Result<EditPlan> overlap =
      planHeadTail(Rope(kCode), 1, {{"int a() {", "return 2;", "x"}, {"int b() {", "}", "y"}});
  ASSERT_FALSE(overlap.ok());
  EXPECT_EQ(overlap.error().code, ErrorCode::OverlappingEdits);
  EXPECT_EQ(
      planHeadTail(Rope(kCode), 1, {{"int a() {", "}", "int a() {\n  return 1;\n}"}}).error().code,
      ErrorCode::NoChange);
}

TEST(HeadTail, CrlfAndBom) {
  std::string text = "\xEF\xBB\xBF"
                     "a\r\nb\r\nc\r\nd\r\n";
  Result<EditPlan> plan = planHeadTail(Rope(text), 1, {{"b", "c", "B\nC"}});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(applied(text, *plan), "\xEF\xBB\xBF"
                                  "a\r\nB\r\nC\r\nd\r\n");
}

} // namespace
} // namespace hashline::forms
