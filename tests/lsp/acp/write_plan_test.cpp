// The pure half of fs/*: content split into lines, the fs/read_text_file window, and the merge
// of a whole-file write with what changed since the agent's view (lsp/acp/write_plan.h).
#include "lsp/acp/write_plan.h"

#include <gtest/gtest.h>

namespace hashline::acp {
namespace {

using Lines = std::vector<std::string>;

TEST(AcpWritePlan, ContentLinesIgnoreEndingsAndOneFinalBreak) {
  EXPECT_EQ(splitContentLines(""), Lines{""});
  EXPECT_EQ(splitContentLines("\n"), Lines{""});
  EXPECT_EQ(splitContentLines("a\nb"), (Lines{"a", "b"}));
  EXPECT_EQ(splitContentLines("a\r\nb\r\n"), (Lines{"a", "b"}));
  EXPECT_EQ(splitContentLines("a\n\n"), (Lines{"a", ""}));
  EXPECT_EQ(joinLines({"a", ""}), "a\n\n");
}

TEST(AcpWritePlan, ReadWindow) {
  const Lines lines = {"one", "two", "three"};
  EXPECT_EQ(acpContent(lines, true, std::nullopt, std::nullopt), "one\ntwo\nthree\n");
  EXPECT_EQ(acpContent(lines, false, std::nullopt, std::nullopt), "one\ntwo\nthree");
  EXPECT_EQ(acpContent(lines, false, 2, 1), "two\n");
  EXPECT_EQ(acpContent(lines, false, 2, 5), "two\nthree");
  EXPECT_EQ(acpContent(lines, true, 3, std::nullopt), "three\n");
  EXPECT_EQ(acpContent(lines, true, 4, std::nullopt), "");
  EXPECT_EQ(acpContent(lines, true, 1, 0), "");
  EXPECT_EQ(acpContent({""}, false, std::nullopt, std::nullopt), "");
}

TEST(AcpWritePlan, TheAgentsChangeIsARangeEditOfTheCurrentLines) {
  // The user inserted a line at the top since the agent's view: the agent's line 3 is line 4.
  WritePlan plan = planWrite("a\nb\nc\nd\n", "typed\na\nb\nc\nd\n", "a\nb\nC\nd\n");
  ASSERT_TRUE(plan.conflicts.empty());
  ASSERT_EQ(plan.changes.size(), 1u);
  EXPECT_EQ(plan.changes[0].start, 4u);
  EXPECT_EQ(plan.changes[0].end, 4u);
  EXPECT_EQ(plan.changes[0].content, "C\n");
}

TEST(AcpWritePlan, InsertionsDeletionsAndAppends) {
  WritePlan plan = planWrite("a\nb\nc\n", "a\nb\nc\n", "new\na\nc\nend\n");
  ASSERT_TRUE(plan.conflicts.empty());
  ASSERT_EQ(plan.changes.size(), 3u);
  EXPECT_EQ(plan.changes[0].start, 1u); // insert before line 1
  EXPECT_EQ(plan.changes[0].end, 0u);
  EXPECT_EQ(plan.changes[0].content, "new\n");
  EXPECT_EQ(plan.changes[1].start, 2u); // delete line 2
  EXPECT_EQ(plan.changes[1].end, 2u);
  EXPECT_EQ(plan.changes[1].content, "");
  EXPECT_EQ(plan.changes[2].start, 4u); // append after the last line
  EXPECT_EQ(plan.changes[2].end, 3u);
  EXPECT_EQ(plan.changes[2].content, "end\n");
}

TEST(AcpWritePlan, NothingChangedIsNoEdit) {
  WritePlan plan = planWrite("a\nb\n", "typed\na\nb\n", "a\nb\n");
  EXPECT_TRUE(plan.conflicts.empty());
  EXPECT_TRUE(plan.changes.empty());
}

TEST(AcpWritePlan, AnOverlapIsAConflictWithTheCurrentTextAndNoEdit) {
  WritePlan plan = planWrite("a\nb\nc\nd\n", "a\nb typed\nc\nd\n", "a\nB\nc\nD\n");
  ASSERT_EQ(plan.conflicts.size(), 1u);
  EXPECT_EQ(plan.conflicts[0].first_line, 2u);
  EXPECT_EQ(plan.conflicts[0].last_line, 2u);
  EXPECT_EQ(plan.conflicts[0].current_text, "b typed\n");
  EXPECT_EQ(plan.conflicts[0].agent_text, "B\n");
  EXPECT_TRUE(plan.changes.empty()) << "the non-overlapping hunk is not applied either";
}

TEST(AcpWritePlan, TheSameChangeOnBothSidesIsNoConflict) {
  WritePlan plan = planWrite("a\nb\n", "a\nB\n", "a\nB\n");
  EXPECT_TRUE(plan.conflicts.empty());
  EXPECT_TRUE(plan.changes.empty());
}

} // namespace
} // namespace hashline::acp
