// Staleness on live documents (exact rebasing through the ChangeLog) and on texts without
// history (digest comparison and the ±15-line search): DESIGN §4 steps 1–2, scenarios 12–16,
// 23–25.
#include "fixture.h"

#include <gtest/gtest.h>

namespace hashline::test {
namespace {

TEST(Staleness, UserTypedAboveTheAnchorFollowsExactly) {
  // Scenario 14 with history: the anchor rebases 10 → 13 and the rebase is reported.
  LiveSession s(numbered(30));
  s.read();
  const std::string anchor10 = s.anchor(10);
  s.type(0, 0, "new1\nnew2\nnew3\n");
  const auto result = s.edit({replaceOp(anchor10, "TEN")});
  EXPECT_EQ(result.plan.rebased, (std::vector<Rebase>{{10, 13}}));
  EXPECT_EQ(s.doc.text().lineText(12), "TEN");
  EXPECT_EQ(s.doc.text().lineText(9), "l7");
}

TEST(Staleness, UserTypedBelowNeedsNoRebase) {
  LiveSession s(numbered(30));
  s.read();
  const std::string anchor3 = s.anchor(3);
  s.type(20, 0, "typed ");
  const auto result = s.edit({replaceOp(anchor3, "THREE")});
  EXPECT_TRUE(result.plan.rebased.empty());
  EXPECT_EQ(s.doc.text().lineText(2), "THREE");
  EXPECT_EQ(s.doc.text().lineText(20), "typed l21");
}

TEST(Staleness, ChangedTargetLineIsStaleWithCurrentTextAndFreshAnchors) {
  // Scenario 12 (history).
  LiveSession s(numbered(20));
  s.read();
  const std::string anchor7 = s.anchor(7);
  s.type(6, 0, "user ");
  const std::string before = s.text();
  auto result = s.verify({replaceOp(anchor7, "agent")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  EXPECT_EQ(result.error().data.current_text, "user l7");
  ASSERT_EQ(result.error().data.fresh_anchors.size(), 7u); // ±3 lines
  EXPECT_EQ(result.error().data.fresh_anchors[3].line, 7u);
  EXPECT_EQ(result.error().data.fresh_anchors[3].text, "user l7");
  EXPECT_FALSE(result.error().hint.empty());
  EXPECT_EQ(s.text(), before); // nothing written
  // The fresh anchors from the error are usable right away.
  s.edit({replaceOp(result.error().data.fresh_anchors[3].anchor, "agent")});
  EXPECT_EQ(s.doc.text().lineText(6), "agent");
}

TEST(Staleness, BlockTierSeesNeighboursLineTierDoesNot) {
  // Scenario 13: line 5 changed; the edit targets line 7 in the same block.
  for (Tier tier : {Tier::Block, Tier::Line}) {
    LiveSession s(numbered(20));
    s.read(tier);
    const std::string anchor7 = s.anchor(7);
    const std::string anchor12 = s.anchor(12);
    s.type(4, 0, "user ");
    auto result = s.verify({replaceOp(anchor7, "seven")});
    if (tier == Tier::Block) {
      EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
      EXPECT_NE(result.error().message.find("lines 1-8"), std::string::npos);
      // Another block is fine.
      EXPECT_TRUE(s.verify({replaceOp(anchor12, "twelve")}).ok());
    } else {
      EXPECT_TRUE(result.ok());
    }
  }
}

TEST(Staleness, BlockTierSeesInsertionInsideTheBlock) {
  LiveSession s(numbered(20));
  s.read(Tier::Block);
  const std::string anchor7 = s.anchor(7);
  s.type(3, 0, "inserted\n"); // a new line between 3 and 4
  EXPECT_REFUSED(s.verify({replaceOp(anchor7, "x")}), ErrorCode::StaleAnchor);
}

TEST(Staleness, ChainTierSeesLinesAboveInItsSegmentOnly) {
  LiveSession s(numbered(80));
  s.read(Tier::Chain);
  const std::string anchor20 = s.anchor(20);
  const std::string anchor40 = s.anchor(40);
  const std::string anchor2 = s.anchor(2);
  s.type(4, 0, "user "); // line 5
  EXPECT_REFUSED(s.verify({replaceOp(anchor20, "x")}), ErrorCode::StaleAnchor);
  EXPECT_TRUE(s.verify({replaceOp(anchor2, "x")}).ok());  // above the change
  EXPECT_TRUE(s.verify({replaceOp(anchor40, "x")}).ok()); // next segment
}

TEST(Staleness, RangeInteriorChangedIsStaleInEveryTier) {
  for (Tier tier : {Tier::Line, Tier::Block, Tier::Chain}) {
    LiveSession s(numbered(40));
    s.read(tier);
    const std::string from = s.anchor(20), to = s.anchor(30);
    s.type(24, 0, "user "); // line 25, strictly inside
    EXPECT_REFUSED(s.verify({replaceOp(from, "x", to)}), ErrorCode::StaleAnchor);
    EXPECT_REFUSED(s.verify({deleteOp(from, to)}), ErrorCode::StaleAnchor);
  }
}

TEST(Staleness, RangeRebasedWhenUntouched) {
  LiveSession s(numbered(40));
  s.read(Tier::Line);
  const std::string from = s.anchor(20), to = s.anchor(22);
  s.type(1, 0, "a\nb\n");
  const auto result = s.edit({replaceOp(from, "X", to)});
  EXPECT_EQ(result.plan.rebased, (std::vector<Rebase>{{20, 22}, {22, 24}}));
  EXPECT_EQ(s.doc.text().lineText(21), "X");
  EXPECT_EQ(s.doc.text().lineText(22), "l23");
}

TEST(Staleness, RangeFromTwoReadsChecksTheWholeSpan) {
  LiveSession s(numbered(40));
  s.read(Tier::Line, 1, 12);
  const std::string from = s.anchor(10);
  s.type(0, 0, "top\n"); // version moves
  s.read(Tier::Line, 10, 30);
  const std::string to = s.anchor(16); // old line 15
  // Nothing in between changed: the range (old 10..15) is replaced exactly.
  LiveSession copy = s;
  const auto result = copy.edit({replaceOp(from, "X", to)});
  EXPECT_EQ(copy.doc.text().lineText(10), "X");
  EXPECT_EQ(copy.doc.text().lineText(11), "l16");
  // A change inside the span after both reads is caught.
  s.type(12, 0, "user ");
  EXPECT_REFUSED(s.verify({replaceOp(from, "X", to)}), ErrorCode::StaleAnchor);
}

TEST(Staleness, VersionBumpWithoutContentChangeKeepsAnchors) {
  // Scenario 25 (buffer): a didChange that changes nothing, and one that restores the text.
  LiveSession s(numbered(10));
  s.read();
  const std::string anchor5 = s.anchor(5);
  ASSERT_TRUE(s.doc.applyChanges(s.doc.version() + 1, {}, PositionEncoding::Utf16).ok());
  s.type(4, 0, "l5", LspPosition{4, 2}); // replaces "l5" by "l5"
  s.edit({replaceOp(anchor5, "five")});
  EXPECT_EQ(s.doc.text().lineText(4), "five");
}

TEST(Staleness, ChainedEditsUseReturnedAnchors) {
  // Scenario 24.
  LiveSession s(numbered(20));
  s.read();
  const std::string old3 = s.anchor(3);
  const std::string old8 = s.anchor(8);
  const std::string old12 = s.anchor(12);
  const auto first = s.edit({replaceOp(s.anchor(3), "three\nthree-b")});
  // The second edit uses an anchor returned by the first (line 4 is new).
  s.edit({replaceOp(LiveSession::freshAnchor(first, 4), "THREE-B")});
  EXPECT_EQ(s.text().substr(0, 26), "l1\nl2\nthree\nTHREE-B\nl4\nl5\n");
  // Reusing the pre-edit anchor of the changed line fails, and so does one whose block changed;
  // an anchor in an untouched block still rebases.
  EXPECT_REFUSED(s.verify({replaceOp(old3, "x")}), ErrorCode::StaleAnchor);
  EXPECT_REFUSED(s.verify({replaceOp(old8, "x")}), ErrorCode::StaleAnchor);
  const auto again = s.edit({replaceOp(old12, "twelve")});
  EXPECT_EQ(again.plan.rebased, (std::vector<Rebase>{{12, 13}}));
  EXPECT_EQ(s.doc.text().lineText(12), "twelve");
}

TEST(NoHistory, UnchangedTextVerifiesByIdentity) {
  const Rope text(numbered(10));
  Observation observation;
  const auto view = *readWindow(text, 77, Tier::Block);
  observation.recordRead(view);
  auto ok = verifyAnchoredEdits(TextState::ofPlainText(text, 77), &observation,
                                {replaceOp(view.rows[4].anchor, "five")});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->after.lineText(4), "five");
  EXPECT_EQ(ok->plan.base_version, 77);
}

struct DiskCase {
  Observation observation;
  ReadView view;
  explicit DiskCase(const std::string& text, Tier tier = Tier::Block) {
    view = *readWindow(Rope(text), 1, tier);
    observation.recordRead(view);
  }
  Result<VerifiedEdit> verify(const std::string& now, std::vector<AnchoredEdit> edits) {
    return verifyAnchoredEdits(TextState::ofPlainText(Rope(now), 2), &observation, edits);
  }
};

TEST(NoHistory, TouchedButUnchangedFileStillVerifies) {
  // Scenario 25 (disk): a new fingerprint id, same content → digests match at the stated lines.
  DiskCase disk(numbered(10));
  auto result = disk.verify(numbered(10), {replaceOp(disk.view.rows[2].anchor, "x")});
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->plan.rebased.empty());
}

TEST(NoHistory, ChangedLineIsStale) {
  // Scenario 12 without history.
  DiskCase disk(numbered(20));
  std::string now = numbered(20);
  now.replace(now.find("l7\n"), 2, "changed");
  auto result = disk.verify(now, {replaceOp(disk.view.rows[6].anchor, "x")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  EXPECT_EQ(result.error().data.current_text, "changed");
  EXPECT_FALSE(result.error().data.suggestion.has_value());
}

TEST(NoHistory, ShiftedContentIsSuggestedNeverApplied) {
  // Scenario 14 without history (pinned: Grok's policy).
  DiskCase disk(numbered(40));
  const std::string now = "a\nb\nc\n" + numbered(40);
  auto result = disk.verify(now, {replaceOp(disk.view.rows[9].anchor, "x")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  ASSERT_TRUE(result.error().data.suggestion.has_value());
  EXPECT_EQ(result.error().data.suggestion->substr(0, 3), "13:");
  EXPECT_EQ(result.error().data.candidate_lines, (std::vector<std::uint32_t>{13}));
  EXPECT_NE(result.error().message.find("retry with 13:"), std::string::npos);
  // The suggestion is a current anchor: retrying with it succeeds.
  auto retry = disk.verify(now, {replaceOp(*result.error().data.suggestion, "x")});
  ASSERT_TRUE(retry.ok()) << retry.error().message;
  EXPECT_EQ(retry->after.lineText(12), "x");
}

TEST(NoHistory, RepetitiveContentIsAmbiguous) {
  // Scenario 15.
  std::string text;
  for (int i = 1; i <= 30; ++i)
    text += i % 3 == 0 ? "}\n" : "code " + std::to_string(i) + "\n";
  DiskCase disk(text, Tier::Line);
  auto result = disk.verify("inserted\n" + text, {replaceOp(disk.view.rows[11].anchor, "x")});
  EXPECT_REFUSED(result, ErrorCode::AmbiguousAnchor);
  EXPECT_GT(result.error().data.candidate_lines.size(), 1u);
  EXPECT_FALSE(result.error().data.suggestion.has_value());
}

TEST(NoHistory, ShiftBeyondTheWindowIsPlainStale) {
  // Scenario 16.
  DiskCase disk(numbered(60));
  auto result =
      disk.verify(numbered(20, "new") + numbered(60), {replaceOp(disk.view.rows[9].anchor, "x")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  EXPECT_FALSE(result.error().data.suggestion.has_value());
  EXPECT_TRUE(result.error().data.candidate_lines.empty());
}

TEST(NoHistory, BlockChangedAroundAnUnchangedLineSuggestsItsFreshAnchor) {
  DiskCase disk(numbered(16));
  std::string now = numbered(16);
  now.replace(now.find("l2\n"), 2, "L2");
  auto result = disk.verify(now, {replaceOp(disk.view.rows[5].anchor, "x")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  ASSERT_TRUE(result.error().data.suggestion.has_value());
  EXPECT_EQ(result.error().data.suggestion->substr(0, 2), "6:");
}

TEST(NoHistory, RangeInteriorIsCheckedAgainstIssuedAnchors) {
  DiskCase disk(numbered(30), Tier::Line);
  std::string now = numbered(30);
  now.replace(now.find("l15\n"), 3, "L15");
  auto result =
      disk.verify(now, {replaceOp(disk.view.rows[9].anchor, "x", disk.view.rows[19].anchor)});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  EXPECT_NE(result.error().message.find("line 15"), std::string::npos);
}

TEST(NoHistory, OutOfRangeLineAfterTheFileShrank) {
  DiskCase disk(numbered(40), Tier::Line);
  auto result = disk.verify(numbered(5), {replaceOp(disk.view.rows[39].anchor, "x")});
  EXPECT_REFUSED(result, ErrorCode::OutOfRange);
}

TEST(PartialRead, EditOutsideTheWindowNeedsARealAnchor) {
  // Scenario 23 (pinned): with anchors the agent cannot address unseen lines by guessing; a
  // made-up anchor is ANCHOR_UNKNOWN. An anchor that matches the line's digests is accepted.
  LiveSession s(numbered(60));
  s.read(Tier::Block, 1, 20);
  EXPECT_REFUSED(s.verify({replaceOp("40:abc:def", "x")}), ErrorCode::AnchorUnknown);
  const auto other = *readWindow(s.doc.text(), s.doc.version(), Tier::Block, 40, 40);
  EXPECT_TRUE(s.verify({replaceOp(other.rows[0].anchor, "x")}).ok());
}

TEST(Foreign, AnchorsFromAnotherFileAreUnknown) {
  // Scenario 21: anchors of file B used on file A.
  LiveSession a(numbered(20, "alpha "));
  a.read();
  const auto b = *readWindow(Rope(numbered(20, "beta ")), 1, Tier::Block);
  EXPECT_REFUSED(a.verify({replaceOp(b.rows[4].anchor, "x")}), ErrorCode::AnchorUnknown);
}

TEST(Foreign, AnchorsFromAnotherSessionVerifyByDigest) {
  // Pinned (DESIGN §4.2): an observed session may use a matching anchor another session got.
  LiveSession s(numbered(20));
  s.read();
  Observation other;
  other.recordRead(*readWindow(s.doc.text(), s.doc.version(), Tier::Block, 1, 2));
  auto result = s.verify({replaceOp(s.anchor(9), "nine")}, &other);
  ASSERT_TRUE(result.ok()) << result.error().message;
}

} // namespace
} // namespace hashline::test
