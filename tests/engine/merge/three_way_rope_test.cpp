// Tests of the three-way merge with a rope as ours (engine/merge/three_way.h): it gives exactly
// what the merge of the same text as a string gives (random texts with shared starts and ends,
// ropes of many leaves, with and without a final line break, CRLF), the shared lines cut off
// change nothing, and it hands the differ only the differing middle of a large buffer.
#include "engine/diff/line_diff.h"
#include "engine/merge/three_way.h"
#include "tests/engine/text/rope_pieces.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace hashline::merge {
namespace {

std::string applyEdits(const Rope& ours, const MergeResult& result) {
  EditPlan plan;
  plan.edits = result.edits;
  return applyPlan(ours, plan).toString();
}

void expectSameMerge(const std::string& base, const std::string& ours, const std::string& theirs) {
  const MergeResult as_string =
      mergeThreeWay(std::string_view(base), std::string_view(ours), std::string_view(theirs));
  // A rope of many leaves, so the comparison crosses chunk boundaries.
  const Rope rope = testing_model::ropeOfPieces(ours, 7);
  const MergeResult trimmed = mergeThreeWay(base, rope, theirs); // the Rope overload
  SCOPED_TRACE("base=" + base + "|ours=" + ours + "|theirs=" + theirs);
  if (!trimmed.differs) {
    EXPECT_EQ(ours, theirs);
  }
  if (trimmed.conflicts.empty() && ours == base) {
    EXPECT_EQ(applyEdits(rope, trimmed), theirs);
  }
  if (trimmed.conflicts.empty() && theirs == base) {
    EXPECT_TRUE(trimmed.edits.empty());
  }
  EXPECT_EQ(trimmed.differs, as_string.differs);
  EXPECT_EQ(trimmed.edits, as_string.edits);
  ASSERT_EQ(trimmed.taken.size(), as_string.taken.size());
  for (std::size_t i = 0; i < as_string.taken.size(); ++i) {
    EXPECT_EQ(trimmed.taken[i].base, as_string.taken[i].base);
    EXPECT_EQ(trimmed.taken[i].ours, as_string.taken[i].ours);
    EXPECT_EQ(trimmed.taken[i].theirs, as_string.taken[i].theirs);
  }
  ASSERT_EQ(trimmed.conflicts.size(), as_string.conflicts.size());
  for (std::size_t i = 0; i < as_string.conflicts.size(); ++i) {
    EXPECT_EQ(trimmed.conflicts[i].base, as_string.conflicts[i].base);
    EXPECT_EQ(trimmed.conflicts[i].ours, as_string.conflicts[i].ours);
    EXPECT_EQ(trimmed.conflicts[i].theirs, as_string.conflicts[i].theirs);
    EXPECT_EQ(trimmed.conflicts[i].ours_text, as_string.conflicts[i].ours_text);
    EXPECT_EQ(trimmed.conflicts[i].theirs_text, as_string.conflicts[i].theirs_text);
  }
}

TEST(RopeMerge, TypingAtTheTopAndAWriteAtTheBottom) {
  expectSameMerge("a\nb\nc\nd\ne\n", "TYPED\na\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n");
}

TEST(RopeMerge, ChangesInsideOneLineAndAtTheEdges) {
  expectSameMerge("same\nmiddle line\nsame\n", "same\nmiddle LINE\nsame\n",
                  "same\nmiddle line!\nsame\n"); // a conflict inside one line
  expectSameMerge("x\ny", "x\ny", "x\ny\n");     // a final line break added
  expectSameMerge("x\ny\n", "X\ny\n", "x\ny");   // and removed, with typing above
  expectSameMerge("", "typed\n", "written\n");   // an empty base
  expectSameMerge("a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n", "a\r\nb\r\nC\r\n");
  expectSameMerge("a\nb\n", "a\nb\n", "a\nb\n"); // nothing differs
}

// Property: on random texts built from a few distinct lines (so shared starts, shared ends and
// ambiguous alignments are common), the rope merge equals the string merge exactly, and a clean
// side takes the other side's text.
TEST(RopeMerge, RandomTextsMergeExactlyLikeTheSameString) {
  std::mt19937 random(13);
  const std::vector<std::string> pieces = {"a\n", "b\n", "c\n", "a", "\n", "b\r\n", "dd\n"};
  auto text = [&](int max_lines) {
    std::string out;
    for (int i = 0, n = static_cast<int>(random() % max_lines); i < n; ++i)
      out += pieces[random() % pieces.size()];
    return out;
  };
  for (int round = 0; round < 3000; ++round) {
    const std::string shared_start = text(6), shared_end = text(6);
    const std::string base = shared_start + text(5) + shared_end;
    const std::string ours = shared_start + text(5) + shared_end;
    const std::string theirs = round % 3 == 0 ? base : shared_start + text(5) + shared_end;
    expectSameMerge(base, ours, theirs);
    if (HasFailure()) return;
  }
}

TEST(RopeMerge, ABigBufferDiffsOnlyTheLinesBetweenTheChanges) {
  std::string base;
  for (int i = 0; i < 100000; ++i)
    base += "line " + std::to_string(i) + "\n";
  std::string theirs = base;
  theirs.replace(theirs.find("line 99990\n"), 10, "LINE 99990");
  Rope ours(base);
  ours.replace(ours.lineStartByte(99900), ours.lineStartByte(99900), "typed\n");
  const std::size_t counted = linesDiffedOnThisThread();
  const MergeResult result = mergeThreeWay(base, ours, theirs);
  const std::size_t diffed = linesDiffedOnThisThread() - counted;
  EXPECT_LE(diffed, 4 * 100u) << "the two diffs of ~91 middle lines each";
  ASSERT_EQ(result.edits.size(), 1u);
  EXPECT_EQ(result.taken.front().ours.begin, 99991u);
  EXPECT_TRUE(result.conflicts.empty());
  std::string expected = theirs;
  expected.insert(expected.find("line 99900\n"), "typed\n");
  EXPECT_EQ(applyEdits(ours, result), expected);
}

} // namespace
} // namespace hashline::merge
