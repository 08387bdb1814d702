// Tests of the pre-match guard (engine/forms/read_guard.h): hashline-peers.md §9 scenarios 22,
// 25, 35 and 36 at engine level, with the old/new form behind it.
#include "engine/forms/read_guard.h"
#include "engine/forms/replace.h"
#include "engine/text/document.h"

#include <gtest/gtest.h>

namespace hashline::forms {
namespace {

// What a caller does: guard first, then the form.
Result<EditPlan> guardedReplace(const ReadGuard& guard, const Document& doc,
                                const std::vector<OldNewEdit>& edits) {
  if (Status status = checkReadGuard(guard); !status) return std::move(status).error();
  return planReplace(doc.text(), doc.version(), edits);
}

TEST(ReadGuard, BlindEditIsNotObservedThenSucceedsAfterRead) {
  Document doc(1, "alpha\n");
  ReadGuard guard{false, false, 1, 1, false, "a.txt"};
  Result<EditPlan> blind = guardedReplace(guard, doc, {{"alpha", "beta"}});
  ASSERT_FALSE(blind.ok());
  EXPECT_EQ(blind.error().code, ErrorCode::NotObserved);
  EXPECT_EQ(blind.error().data.path, std::optional<std::string>("a.txt"));
  guard.observed = true;
  EXPECT_TRUE(guardedReplace(guard, doc, {{"alpha", "beta"}}).ok());
  // Creating a file needs no read.
  EXPECT_TRUE(checkReadGuard(ReadGuard{false, true, std::nullopt, 0, false, "new.txt"}).ok());
}

TEST(ReadGuard, Scenario35StaleVersionBeforeNotFound) {
  Document doc(1, "alpha\n");
  ASSERT_TRUE(doc.applyByteEdit(2, 0, 5, "gamma").ok()); // an external write after the read
  ReadGuard guard{true, false, 1, doc.version(), false, "a.txt"};
  // The old text is gone too, but the stale version is what gets reported.
  Result<EditPlan> plan = guardedReplace(guard, doc, {{"alpha", "beta"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::StaleVersion);
  // Without the guard the same request would be NOT_FOUND.
  EXPECT_EQ(planReplace(doc.text(), doc.version(), {{"alpha", "beta"}}).error().code,
            ErrorCode::NotFound);
}

TEST(ReadGuard, Scenario36ConcurrentEditsOneWinsOtherIsStale) {
  Document doc(1, "count = 1\n");
  const ReadGuard both_read_v1{true, false, 1, 1, false, "c.txt"};
  // Both requests verified against version 1; the first applies.
  Result<EditPlan> first = guardedReplace(both_read_v1, doc, {{"count = 1", "count = 2"}});
  ASSERT_TRUE(first.ok());
  const ByteEdit& edit = first->edits.at(0);
  ASSERT_TRUE(doc.applyByteEdit(2, edit.begin, edit.end, edit.text).ok());
  // The second, still based on version 1, is refused: no lost update.
  ReadGuard second = both_read_v1;
  second.current_version = doc.version();
  Result<EditPlan> late = guardedReplace(second, doc, {{"count = 1", "count = 3"}});
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(doc.text().toString(), "count = 2\n");
}

TEST(ReadGuard, Scenario25TouchedButUnchangedIsNotStale) {
  EXPECT_TRUE(checkReadGuard(ReadGuard{true, false, 1, 2, true, "t.txt"}).ok());
  EXPECT_FALSE(checkReadGuard(ReadGuard{true, false, 1, 2, false, "t.txt"}).ok());
  EXPECT_TRUE(checkReadGuard(ReadGuard{true, false, std::nullopt, 9, false, "t.txt"}).ok());
}

} // namespace
} // namespace hashline::forms
