// Written-text checks across the text forms: pasted read-row prefixes (`12:c3d:rst→text`,
// hashline-peers §9.19) are refused in written text and removed from searched text; NUL bytes and
// invalid UTF-8 in written text are NOT_TEXT.
#include "engine/forms/draft.h"
#include "engine/forms/ed_script.h"
#include "engine/forms/head_tail.h"
#include "engine/forms/line_range.h"
#include "engine/forms/patch_plan.h"
#include "engine/forms/replace.h"
#include "engine/forms/written_text.h"
#include "tests/engine/forms/forms_test_util.h"

#include <gtest/gtest.h>

namespace hashline::forms {
namespace {

using testing::applied;

const std::string kArrow = "\xE2\x86\x92";

TEST(ReadPrefix, StripOnlyWhenEveryLineHasOne) {
  EXPECT_EQ(stripReadPrefixes("1:abc:def" + kArrow + "alpha\n\n3:ghj:kmn" + kArrow + "  beta\n"),
            std::optional<std::string>("alpha\n\n  beta\n"));
  EXPECT_EQ(stripReadPrefixes("1:abc" + kArrow + "x\r\n"), std::optional<std::string>("x\r\n"));
  EXPECT_EQ(stripReadPrefixes("1:abc:def" + kArrow + "alpha\nplain\n"), std::nullopt);
  EXPECT_EQ(stripReadPrefixes("plain\n"), std::nullopt);
  EXPECT_EQ(stripReadPrefixes("12:30 meeting\n"), std::nullopt);
}

TEST(ReadPrefix, OldTextFromAReadStillMatches) {
  std::string text = "alpha\nbeta\n";
  Result<EditPlan> plan = planReplace(
      Rope(text), 1, {{"1:abc:def" + kArrow + "alpha\n2:ghj:kmn" + kArrow + "beta", "A\nB"}});
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(applied(text, *plan), "A\nB\n");
  ASSERT_FALSE(plan->warnings.empty());
  EXPECT_NE(plan->warnings.back().find("read prefixes"), std::string::npos);
}

TEST(ReadPrefix, WrittenTextWithPrefixesIsRefusedEverywhere) {
  const std::string pasted = "2:ghj:kmn" + kArrow + "beta";
  const Rope base("alpha\nbeta\n");
  EXPECT_EQ(planReplace(base, 1, {{"beta", pasted}}).error().code, ErrorCode::MalformedAnchor);
  EXPECT_EQ(planHeadTail(base, 1, {{"alpha", "beta", pasted}}).error().code,
            ErrorCode::MalformedAnchor);
  EXPECT_EQ(planLineRange(base, LineHistory{nullptr, 1}, {{2, 2, pasted, 1}}).error().code,
            ErrorCode::MalformedAnchor);
  EXPECT_EQ(planDraft(base, 1, "alpha\n" + pasted + "\n").error().code, ErrorCode::MalformedAnchor);
  Result<EdScript> script = parseEdScript("1a\n" + pasted + "\n.\n");
  ASSERT_TRUE(script.ok());
  EXPECT_EQ(planEdScript(base, 1, *script, makeLineNumberResolver(LineHistory{nullptr, 1}, 1))
                .error()
                .code,
            ErrorCode::MalformedAnchor);
  Result<PatchPlan> patch =
      planPatch("*** Begin Patch\n*** Update File: f\n@@\n-beta\n+" + pasted + "\n*** End Patch",
                [&](const std::string&) -> Result<std::optional<FileSnapshot>> {
                  return std::optional<FileSnapshot>(FileSnapshot{base, 1});
                });
  ASSERT_FALSE(patch.ok());
  EXPECT_EQ(patch.error().code, ErrorCode::MalformedAnchor);
  EXPECT_EQ(patch.error().data.path, std::optional<std::string>("f"));
}

TEST(WrittenText, BinaryReplacementIsNotText) {
  const Rope base("alpha\n");
  Result<EditPlan> nul = planReplace(base, 1, {{"alpha", std::string("a\0b", 3)}});
  ASSERT_FALSE(nul.ok());
  EXPECT_EQ(nul.error().code, ErrorCode::NotText);
  EXPECT_EQ(planReplace(base, 1, {{"alpha", "caf\xC3"}}).error().code, ErrorCode::NotText);
  EXPECT_EQ(planLineRange(base, LineHistory{nullptr, 1}, {{1, 1, "\xFF", 1}}).error().code,
            ErrorCode::NotText);
  EXPECT_TRUE(checkWrittenText("caf\xC3\xA9 \xE2\x9C\x85", "new text").ok());
}

TEST(ReadPrefix, HeadAndTailFromAReadStillMatch) {
  std::string text = "a\nb\nc\nd\n";
  Result<EditPlan> plan =
      planHeadTail(Rope(text), 1, {{"2:abc:def" + kArrow + "b", "3:abc:def" + kArrow + "c", "X"}});
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(applied(text, *plan), "a\nX\nd\n");
}

} // namespace
} // namespace hashline::forms
