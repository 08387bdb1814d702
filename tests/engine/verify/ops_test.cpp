// Every anchored op on a live document: splices, ordering, line endings, final newline, BOM
// (hashline-peers.md §9 scenarios 3–9, 26, 27, 39).
#include "engine/anchors/read_lines.h"
#include "fixture.h"

#include <gtest/gtest.h>

namespace hashline::test {
namespace {

TEST(Ops, ReplaceOneLineReturnsFreshAnchors) {
  // Scenario 4.
  LiveSession s("a\nb\nc\n");
  s.read();
  const auto result = s.edit({replaceOp(s.anchor(2), "B")});
  EXPECT_EQ(s.text(), "a\nB\nc\n");
  ASSERT_EQ(result.fresh_rows.size(), 3u);
  EXPECT_EQ(result.fresh_rows[1].text, "B");
  EXPECT_EQ(result.changed_lines, (std::vector<LineSpan>{{2, 2}}));
  EXPECT_TRUE(result.plan.rebased.empty());
  // Fresh anchors equal a new read of the result.
  const auto view = readWindow(s.doc.text(), s.doc.version(), Tier::Block);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(result.fresh_rows[i], view->rows[i]);
}

TEST(Ops, RangeReplaceShrinksAndGrows) {
  // Scenario 5.
  LiveSession s("1\n2\n3\n4\n5\n");
  s.read();
  s.edit({replaceOp(s.anchor(2), "X", s.anchor(4))});
  EXPECT_EQ(s.text(), "1\nX\n5\n");
  s.read();
  s.edit({replaceOp(s.anchor(2), "a\nb\nc\nd\ne", s.anchor(2))});
  EXPECT_EQ(s.text(), "1\na\nb\nc\nd\ne\n5\n");
  EXPECT_EQ(readLineCount(s.doc.text()), 7u);
}

TEST(Ops, DeleteLineRangeFirstAndLast) {
  // Scenario 6, final-newline state kept either way.
  {
    LiveSession s("a\nb\nc\nd\n");
    s.read();
    s.edit({deleteOp(s.anchor(2))});
    EXPECT_EQ(s.text(), "a\nc\nd\n");
  }
  {
    LiveSession s("a\nb\nc\nd\n");
    s.read();
    s.edit({deleteOp(s.anchor(2), s.anchor(3))});
    EXPECT_EQ(s.text(), "a\nd\n");
  }
  {
    LiveSession s("a\nb\nc\n");
    s.read();
    s.edit({deleteOp(s.anchor(1))});
    EXPECT_EQ(s.text(), "b\nc\n");
  }
  {
    LiveSession s("a\nb\nc\n");
    s.read();
    s.edit({deleteOp(s.anchor(3))});
    EXPECT_EQ(s.text(), "a\nb\n");
  }
  {
    LiveSession s("a\nb\nc");
    s.read();
    s.edit({deleteOp(s.anchor(3))});
    EXPECT_EQ(s.text(), "a\nb");
  }
  {
    LiveSession s("a\nb\nc");
    s.read();
    s.edit({deleteOp(s.anchor(2), s.anchor(3))});
    EXPECT_EQ(s.text(), "a");
  }
  {
    // Replace with empty content deletes too.
    LiveSession s("a\nb\nc\n");
    s.read();
    s.edit({replaceOp(s.anchor(2), "")});
    EXPECT_EQ(s.text(), "a\nc\n");
  }
  {
    // Deleting every line leaves an empty text (pinned).
    LiveSession s("a\nb\n");
    s.read();
    s.edit({deleteOp(s.anchor(1), s.anchor(2))});
    EXPECT_EQ(s.text(), "");
  }
}

TEST(Ops, InsertAfterBeforeTopAndEnd) {
  // Scenario 7.
  LiveSession s("a\nb\nc\n");
  s.read();
  s.edit({insertAfterOp(s.anchor(1), "after1"), insertBeforeOp(s.anchor(3), "before3"),
          insertAfterOp("0", "top"), insertAfterOp("EOF", "end")});
  EXPECT_EQ(s.text(), "top\na\nafter1\nb\nbefore3\nc\nend\n");
}

TEST(Ops, InsertAtEndAddsNoBlankLine) {
  // Scenario 3: with and without a final newline; after the last line equals EOF.
  {
    LiveSession s("a\nb\n");
    s.read();
    s.edit({insertAfterOp("EOF", "c")});
    EXPECT_EQ(s.text(), "a\nb\nc\n");
  }
  {
    LiveSession s("a\nb");
    s.read();
    s.edit({insertAfterOp("EOF", "c")});
    EXPECT_EQ(s.text(), "a\nb\nc");
  }
  {
    LiveSession s("a\nb");
    s.read();
    s.edit({insertAfterOp(s.anchor(2), "c\nd")});
    EXPECT_EQ(s.text(), "a\nb\nc\nd");
  }
  {
    // An empty text gains lines that end with LF (pinned).
    LiveSession s("");
    s.read();
    s.edit({insertAfterOp("EOF", "x\ny")});
    EXPECT_EQ(s.text(), "x\ny\n");
  }
  {
    LiveSession s("");
    s.read();
    s.edit({insertAfterOp(s.anchor(1), "x")});
    EXPECT_EQ(s.text(), "x\n");
  }
}

TEST(Ops, ContentLineRules) {
  // Empty content inserts one blank line; one trailing newline is optional; CRLF accepted.
  LiveSession s("a\nb\n");
  s.read();
  s.edit({insertAfterOp(s.anchor(1), "")});
  EXPECT_EQ(s.text(), "a\n\nb\n");
  s.read();
  s.edit({replaceOp(s.anchor(3), "x\r\ny\r\n")});
  EXPECT_EQ(s.text(), "a\n\nx\ny\n");
  s.read();
  s.edit({replaceOp(s.anchor(1), "\n")});
  EXPECT_EQ(s.text(), "\n\nx\ny\n");
}

TEST(Ops, BatchUsesOriginalNumbering) {
  // Scenario 8 (omp D observed HEAD a d FIVE FIVE-B f AFTER6).
  LiveSession s("a\nb\nc\nd\ne\nf\n");
  s.read();
  s.edit({insertBeforeOp(s.anchor(1), "HEAD"), deleteOp(s.anchor(2), s.anchor(3)),
          replaceOp(s.anchor(5), "FIVE\nFIVE-B"), insertAfterOp(s.anchor(6), "AFTER6")});
  EXPECT_EQ(s.text(), "HEAD\na\nd\nFIVE\nFIVE-B\nf\nAFTER6\n");
}

TEST(Ops, SamePositionInsertsKeepRequestOrder) {
  // Scenario 9.
  {
    LiveSession s("1\n2\n3\n4\n");
    s.read();
    s.edit({insertAfterOp(s.anchor(3), "x"), insertAfterOp(s.anchor(3), "y"),
            insertBeforeOp(s.anchor(4), "z")});
    EXPECT_EQ(s.text(), "1\n2\n3\nx\ny\nz\n4\n");
  }
  {
    LiveSession s("1\n2\n3\n4\n");
    s.read();
    s.edit({insertBeforeOp(s.anchor(4), "z"), insertAfterOp(s.anchor(3), "x")});
    EXPECT_EQ(s.text(), "1\n2\n3\nz\nx\n4\n");
  }
  {
    // An insertion at a replaced span's exclusive end comes after the new content.
    LiveSession s("1\n2\n3\n");
    s.read();
    s.edit({insertBeforeOp(s.anchor(3), "after-two"), replaceOp(s.anchor(2), "TWO")});
    EXPECT_EQ(s.text(), "1\nTWO\nafter-two\n3\n");
  }
  {
    // ...also when the replaced line is empty and last.
    LiveSession s("1\n");
    s.read();
    s.edit({insertAfterOp("EOF", "tail"), replaceOp(s.anchor(1), "ONE")});
    EXPECT_EQ(s.text(), "ONE\ntail\n");
  }
}

TEST(Ops, CrlfDocumentsGetCrlf) {
  // Scenario 26.
  LiveSession s("a\r\nb\r\nc\r\n");
  s.read();
  s.edit({replaceOp(s.anchor(2), "B\nB2"), insertAfterOp("EOF", "d"), insertAfterOp("0", "top")});
  EXPECT_EQ(s.text(), "top\r\na\r\nB\r\nB2\r\nc\r\nd\r\n");
  s.read();
  s.edit({deleteOp(s.anchor(6))});
  EXPECT_EQ(s.text(), "top\r\na\r\nB\r\nB2\r\nc\r\n");
}

TEST(Ops, MixedEndingsKeepEachLinesEnding) {
  LiveSession s("a\r\nb\nc\r\n");
  s.read();
  s.edit({replaceOp(s.anchor(2), "B")});
  EXPECT_EQ(s.text(), "a\r\nB\nc\r\n");
  s.read();
  s.edit({replaceOp(s.anchor(1), "A")});
  EXPECT_EQ(s.text(), "A\r\nB\nc\r\n");
}

TEST(Ops, LoneCrEndingsAreKept) {
  LiveSession s("a\rb\rc");
  s.read();
  s.edit({insertAfterOp(s.anchor(3), "d"), replaceOp(s.anchor(1), "A")});
  EXPECT_EQ(s.text(), "A\rb\rc\rd");
}

TEST(Ops, BomIsPreserved) {
  // Scenario 27.
  LiveSession s("\xEF\xBB\xBF"
                "first\nsecond\n");
  const auto& view = s.read();
  EXPECT_EQ(view.rows[0].text, "first");
  s.edit({replaceOp(s.anchor(1), "FIRST")});
  EXPECT_EQ(s.text(), "\xEF\xBB\xBF"
                      "FIRST\nsecond\n");
  s.read();
  s.edit({insertAfterOp("0", "top")});
  EXPECT_EQ(s.text(), "\xEF\xBB\xBF"
                      "top\nFIRST\nsecond\n");
  s.read();
  s.edit({deleteOp(s.anchor(1), s.anchor(3))});
  EXPECT_EQ(s.text(), "\xEF\xBB\xBF");
}

TEST(Ops, WriteReplacesTheWholeFile) {
  LiveSession s("\xEF\xBB\xBF"
                "a\r\nb\r\n");
  s.read();
  const auto result = s.edit({writeOp("x\ny\nz\n")});
  // Line endings follow the file; the BOM stays.
  EXPECT_EQ(s.text(), "\xEF\xBB\xBF"
                      "x\r\ny\r\nz\r\n");
  EXPECT_EQ(result.fresh_rows.size(), 3u);
}

TEST(Ops, WriteCreatesAMissingFileWithoutARead) {
  auto result = verifyAnchoredEdits(TextState::missing(), nullptr, {writeOp("new\nfile\n")});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->after.toString(), "new\nfile\n");
  EXPECT_EQ(result->plan.edits, (std::vector<ByteEdit>{{0, 0, "new\nfile\n"}}));
  EXPECT_EQ(result->fresh_rows.size(), 2u);
  // Anything but a lone write on a missing file is FILE_NOT_FOUND.
  EXPECT_REFUSED(verifyAnchoredEdits(TextState::missing(), nullptr, {insertAfterOp("0", "x")}),
                 ErrorCode::FileNotFound);
}

TEST(Ops, WriteMustBeAlone) {
  LiveSession s("a\n");
  s.read();
  auto result = s.verify({replaceOp(s.anchor(1), "b"), writeOp("c\n")});
  EXPECT_REFUSED(result, ErrorCode::OverlappingEdits);
  EXPECT_NE(result.error().message.find("edit 2/2"), std::string::npos);
}

TEST(Ops, LargeRangesCarryWarnings) {
  // Scenario 39: ≤5 lines no warning, 6–20 a note, >20 a caution; applied either way.
  LiveSession s(numbered(40));
  s.read();
  auto small = s.verify({replaceOp(s.anchor(1), "x", s.anchor(5))});
  ASSERT_TRUE(small.ok());
  EXPECT_TRUE(small->plan.warnings.empty());
  auto medium = s.verify({replaceOp(s.anchor(1), "x", s.anchor(6))});
  ASSERT_TRUE(medium.ok());
  ASSERT_EQ(medium->plan.warnings.size(), 1u);
  EXPECT_EQ(medium->plan.warnings[0].rfind("note:", 0), 0u);
  auto large = s.verify({replaceOp(s.anchor(1), "x", s.anchor(30))});
  ASSERT_TRUE(large.ok());
  ASSERT_EQ(large->plan.warnings.size(), 1u);
  EXPECT_EQ(large->plan.warnings[0].rfind("caution:", 0), 0u);
  EXPECT_NE(large->plan.warnings[0].find("30 lines"), std::string::npos);
}

TEST(Ops, PlanEditsAreSortedAndApplyToThePrediction) {
  LiveSession s(numbered(12));
  s.read();
  auto result = s.verify(
      {replaceOp(s.anchor(9), "nine"), insertAfterOp(s.anchor(2), "two+"), deleteOp(s.anchor(5))});
  ASSERT_TRUE(result.ok());
  for (std::size_t i = 1; i < result->plan.edits.size(); ++i)
    EXPECT_LE(result->plan.edits[i - 1].end, result->plan.edits[i].begin);
  EXPECT_EQ(applyPlan(s.doc.text(), result->plan).toString(), result->after.toString());
  EXPECT_EQ(result->plan.base_version, s.doc.version());
}

} // namespace
} // namespace hashline::test
