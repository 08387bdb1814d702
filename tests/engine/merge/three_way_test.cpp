// Tests of the three-way line merge (engine/merge/three_way.h): taken hunks, conflicts, identical
// changes, insertions at one point, line endings, and that applying the edits to ours gives the
// expected merged text.
#include "engine/merge/three_way.h"
#include "engine/text/rope.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace hashline::merge {
namespace {

std::string applyEdits(std::string_view ours, const MergeResult& result) {
  EditPlan plan;
  plan.edits = result.edits;
  return applyPlan(Rope(ours), plan).toString();
}

TEST(ThreeWay, IdenticalSidesDoNothing) {
  MergeResult result = mergeThreeWay("a\nb\n", "a\nB\n", "a\nB\n");
  EXPECT_FALSE(result.differs);
  EXPECT_TRUE(result.edits.empty());
  EXPECT_TRUE(result.conflicts.empty());
}

TEST(ThreeWay, CleanOursTakesEveryChange) {
  const std::string base = "1\n2\n3\n4\n5\n";
  const std::string theirs = "1\nTWO\n3\n5\nsix\n";
  MergeResult result = mergeThreeWay(base, base, theirs);
  EXPECT_TRUE(result.conflicts.empty());
  EXPECT_EQ(applyEdits(base, result), theirs);
  EXPECT_EQ(result.taken.size(), 3u);
}

TEST(ThreeWay, DisjointChangesBothSurvive) {
  const std::string base = "top\na\nb\nc\nd\ne\nbottom\n";
  const std::string ours = "TYPED\ntop\na\nb\nc\nd\ne\nbottom\n";
  const std::string theirs = "top\na\nb\nc\nd\ne\nBOTTOM\nnew\n";
  MergeResult result = mergeThreeWay(base, ours, theirs);
  ASSERT_TRUE(result.conflicts.empty());
  EXPECT_EQ(applyEdits(ours, result), "TYPED\ntop\na\nb\nc\nd\ne\nBOTTOM\nnew\n");
  ASSERT_EQ(result.taken.size(), 1u);
  EXPECT_EQ(result.taken[0].ours, (LineRange{7, 8}));
  EXPECT_EQ(result.taken[0].theirs, (LineRange{6, 8}));
}

TEST(ThreeWay, TouchingChangesAreNotConflicts) {
  const std::string base = "a\nb\nc\n";
  MergeResult result = mergeThreeWay(base, "a\nB\nc\n", "a\nb\nC\n");
  EXPECT_TRUE(result.conflicts.empty());
  EXPECT_EQ(applyEdits("a\nB\nc\n", result), "a\nB\nC\n");
}

// An insertion at the base line where the other side's change begins only touches it: it comes
// first, and both apply. (Found by tests/fuzz/merge_fuzzer: the insertion was placed after the
// change's cluster, out of order, as an edit overlapping the previous one.)
TEST(ThreeWay, AnInsertionWhereTheOtherSidesChangeBeginsComesFirst) {
  const std::string base = "a\nb\nc\n";
  MergeResult result = mergeThreeWay(base, "A\nB\nc\n", "new\na\nb\nc\n");
  EXPECT_TRUE(result.conflicts.empty());
  EXPECT_EQ(applyEdits("A\nB\nc\n", result), "new\nA\nB\nc\n");
  // The fuzzer's case: ours rewrote every line; theirs inserted one at the top and changed the
  // rest. The insertion merges (at the top), the overlapping change is a conflict, and the edits
  // are sorted and disjoint.
  const std::string ours = "one\r\ntwo\r\n3\r\n";
  result = mergeThreeWay("a\nb\nne\r\n2\r\nthree\r\n", ours, "c\na\nb\nc\n");
  ASSERT_EQ(result.edits.size(), 1u);
  EXPECT_EQ(result.edits[0].begin, 0u);
  EXPECT_EQ(result.edits[0].end, 0u);
  EXPECT_EQ(result.conflicts.size(), 1u);
  EXPECT_EQ(applyEdits(ours, result), "c\n" + ours);
}

TEST(ThreeWay, OverlapIsAConflictAndKeepsOurs) {
  const std::string base = "a\nb\nc\nd\n";
  const std::string ours = "a\nmine\nc\nd\n";
  const std::string theirs = "a\ntheirs\nc\nD\n";
  MergeResult result = mergeThreeWay(base, ours, theirs);
  ASSERT_EQ(result.conflicts.size(), 1u);
  const Conflict& conflict = result.conflicts[0];
  EXPECT_EQ(conflict.ours, (LineRange{1, 2}));
  EXPECT_EQ(conflict.ours_text, "mine\n");
  EXPECT_EQ(conflict.theirs_text, "theirs\n");
  // The non-overlapping part of the same write still merges.
  EXPECT_EQ(applyEdits(ours, result), "a\nmine\nc\nD\n");
}

TEST(ThreeWay, SameChangeOnBothSidesIsNoConflict) {
  const std::string base = "a\nb\nc\n";
  MergeResult result = mergeThreeWay(base, "a\nX\nc\n", "a\nX\nc\nd\n");
  EXPECT_TRUE(result.conflicts.empty());
  EXPECT_EQ(applyEdits("a\nX\nc\n", result), "a\nX\nc\nd\n");
}

TEST(ThreeWay, InsertionsAtOnePointConflict) {
  const std::string base = "a\nb\n";
  MergeResult result = mergeThreeWay(base, "a\nmine\nb\n", "a\ntheirs\nb\n");
  ASSERT_EQ(result.conflicts.size(), 1u);
  EXPECT_TRUE(result.edits.empty());
  EXPECT_EQ(result.conflicts[0].base, (LineRange{1, 1}));
}

TEST(ThreeWay, ABridgingRegionJoinsTwoClusters) {
  const std::string base = "1\n2\n3\n4\n5\n";
  // Ours changes 2 and 4; theirs replaces 2..4: one conflict, not two.
  MergeResult result = mergeThreeWay(base, "1\nx\n3\ny\n5\n", "1\nz\n5\n");
  ASSERT_EQ(result.conflicts.size(), 1u);
  EXPECT_EQ(result.conflicts[0].ours, (LineRange{1, 4}));
  EXPECT_EQ(result.conflicts[0].theirs_text, "z\n");
}

TEST(ThreeWay, LineEndingsAndMissingFinalNewline) {
  const std::string base = "a\r\nb";
  MergeResult result = mergeThreeWay(base, "typed\r\na\r\nb", "a\r\nb\r\nc");
  ASSERT_TRUE(result.conflicts.empty());
  EXPECT_EQ(applyEdits("typed\r\na\r\nb", result), "typed\r\na\r\nb\r\nc");
}

TEST(ThreeWay, TheirsEmptiesTheFile) {
  MergeResult result = mergeThreeWay("a\nb\n", "a\nb\n", "");
  EXPECT_EQ(applyEdits("a\nb\n", result), "");
}

TEST(ThreeWay, MergedLineFollowsTakenHunksAbove) {
  const std::string base = "a\nb\nc\nd\ne\n";
  const std::string ours = "a\nb\nc\nd\nmine\n";
  const std::string theirs = "new1\nnew2\na\nb\nc\nd\ntheirs\n";
  MergeResult result = mergeThreeWay(base, ours, theirs);
  ASSERT_EQ(result.conflicts.size(), 1u);
  EXPECT_EQ(result.conflicts[0].ours.begin, 4u);
  EXPECT_EQ(mergedLine(result, result.conflicts[0].ours.begin), 6u);
  EXPECT_EQ(applyEdits(ours, result), "new1\nnew2\na\nb\nc\nd\nmine\n");
}

// Property: with disjoint edits of random lines, the merge contains both sides' changes — the
// same text as applying both edit sets to base — and no conflict.
TEST(ThreeWay, RandomDisjointEditsMergeLikeApplyingBoth) {
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    const int lines = 1 + static_cast<int>(random() % 40);
    std::vector<std::string> base(lines), ours, theirs, both;
    for (int i = 0; i < lines; ++i)
      base[i] = "line " + std::to_string(i) + "\n";
    // Every 4th line may change in ours; lines two below them may change or go in theirs.
    for (int i = 0; i < lines; ++i) {
      const bool our_edit = i % 4 == 0 && random() % 2;
      const int their_action = i % 4 == 2 ? static_cast<int>(random() % 3) : 0; // keep/edit/drop
      const std::string our_line = our_edit ? "ours " + std::to_string(i) + "\n" : base[i];
      const std::string their_line = "theirs " + std::to_string(i) + "\n";
      ours.push_back(our_line);
      if (their_action == 0) theirs.push_back(base[i]);
      if (their_action == 1) theirs.push_back(their_line);
      if (our_edit)
        both.push_back(our_line);
      else if (their_action == 1)
        both.push_back(their_line);
      else if (their_action == 0)
        both.push_back(base[i]);
    }
    auto join = [](const std::vector<std::string>& parts) {
      std::string out;
      for (const std::string& part : parts)
        out += part;
      return out;
    };
    MergeResult result = mergeThreeWay(join(base), join(ours), join(theirs));
    ASSERT_TRUE(result.conflicts.empty()) << "round " << round;
    EXPECT_EQ(applyEdits(join(ours), result), join(both)) << "round " << round;
  }
}

} // namespace
} // namespace hashline::merge
