// applyPlan: a verified plan applied to a copy of its base text.
#include "engine/plan/edit_plan.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

TEST(ApplyPlan, AppliesSortedEditsAgainstBaseOffsets) {
  const Rope base("alpha\nbeta\ngamma\n");
  EditPlan plan;
  plan.edits = {{0, 5, "ALPHA"}, {6, 10, "b"}, {17, 17, "delta\n"}};
  Rope result = applyPlan(base, plan);
  EXPECT_EQ(result.toString(), "ALPHA\nb\ngamma\ndelta\n");
  EXPECT_TRUE(result.checkInvariants());
  EXPECT_EQ(base.toString(), "alpha\nbeta\ngamma\n"); // the base is untouched
}

TEST(ApplyPlan, InsertionsAtOneOffsetKeepRequestOrder) {
  const Rope base("ab");
  EditPlan plan;
  plan.edits = {{1, 1, "1"}, {1, 1, "2"}, {1, 1, "3"}};
  EXPECT_EQ(applyPlan(base, plan).toString(), "a123b");
}

TEST(ApplyPlan, EmptyPlanSharesTheBase) {
  const Rope base("unchanged");
  Rope result = applyPlan(base, EditPlan{});
  EXPECT_TRUE(result.sharesRootWith(base));
}

TEST(ApplyPlan, ManyEditsOnALargeText) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "line " + std::to_string(i) + "\n";
  const Rope base(text);
  EditPlan plan;
  std::string expected;
  std::size_t copied = 0;
  // Replace the digit run of every 100th line, checking against a string built alongside.
  for (int i = 0; i < 20000; i += 100) {
    std::size_t begin = base.lineStartByte(i) + 5;
    std::size_t end = base.lineEndByte(i);
    expected += text.substr(copied, begin - copied) + "#" + std::to_string(i);
    copied = end;
    plan.edits.push_back({begin, end, "#" + std::to_string(i)});
  }
  expected += text.substr(copied);
  Rope result = applyPlan(base, plan);
  EXPECT_EQ(result.toString(), expected);
  EXPECT_TRUE(result.checkInvariants());
  EXPECT_EQ(base.toString(), text);
}

} // namespace
} // namespace hashline
