// Refusals: every error code the anchor form can return, batch rules and error ordering
// (DESIGN §4, §9; scenarios 10, 11, 17–20, 22, 28).
#include "engine/verify/text_checks.h"
#include "fixture.h"

#include <gtest/gtest.h>

namespace hashline::test {
namespace {

bool mentions(const Error& error, const std::string& text) {
  return error.message.find(text) != std::string::npos;
}

TEST(Errors, EditWithoutReadIsNotObserved) {
  // Scenario 22 (pinned: like DSH / Claude Code / omp D).
  LiveSession s("a\nb\n");
  const auto anchors = *readWindow(s.doc.text(), s.doc.version(), Tier::Block);
  auto result = verifyAnchoredEdits(TextState::ofDocument(s.doc), nullptr,
                                    {replaceOp(anchors.rows[0].anchor, "x")});
  EXPECT_REFUSED(result, ErrorCode::NotObserved);
  Observation never_read;
  EXPECT_REFUSED(
      verifyAnchoredEdits(TextState::ofDocument(s.doc), &never_read, {insertAfterOp("EOF", "x")}),
      ErrorCode::NotObserved);
  EXPECT_REFUSED(verifyAnchoredEdits(TextState::ofDocument(s.doc), nullptr, {writeOp("x\n")}),
                 ErrorCode::NotObserved);
}

TEST(Errors, MalformedAnchorsNameTheEdit) {
  // Scenario 18.
  LiveSession s(numbered(10));
  s.read();
  for (const char* bad : {"0:abc:def", "abc:def", "5:abc:de", "five", ""}) {
    auto result = s.verify({replaceOp(s.anchor(1), "x"), replaceOp(bad, "y")});
    EXPECT_REFUSED(result, ErrorCode::MalformedAnchor);
    EXPECT_TRUE(mentions(result.error(), "edit 2/2")) << result.error().message;
    EXPECT_EQ(result.error().data.edit_index, 1u);
    EXPECT_EQ(result.error().data.edit_count, 2u);
  }
  EXPECT_REFUSED(s.verify({replaceOp("EOF", "x")}), ErrorCode::MalformedAnchor);
  EXPECT_REFUSED(s.verify({deleteOp("0")}), ErrorCode::MalformedAnchor);
  EXPECT_REFUSED(s.verify({AnchoredEdit{EditOp::InsertAfter, s.anchor(2), s.anchor(3), "x"}}),
                 ErrorCode::MalformedAnchor);
  auto backwards = s.verify({replaceOp(s.anchor(5), "x", s.anchor(3))});
  EXPECT_REFUSED(backwards, ErrorCode::MalformedAnchor);
  EXPECT_TRUE(mentions(backwards.error(), "before anchor line 5"));
}

TEST(Errors, OutOfRange) {
  LiveSession s(numbered(10));
  s.read();
  auto result = s.verify({replaceOp("99:abc:def", "x")});
  EXPECT_REFUSED(result, ErrorCode::OutOfRange);
  EXPECT_TRUE(mentions(result.error(), "10 lines"));
}

TEST(Errors, MissingBlockDigestIsStaleNeverDowngraded) {
  // Scenario 18: a block-tier session sending `7:abc` gets STALE_ANCHOR with the full anchor.
  LiveSession s(numbered(10));
  s.read(Tier::Block);
  const std::string full = s.anchor(7);
  const std::string line_only = full.substr(0, full.rfind(':'));
  auto result = s.verify({replaceOp(line_only, "x")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  EXPECT_EQ(result.error().data.suggestion, full);
  // A line-tier session uses 2-part anchors.
  LiveSession t(numbered(10));
  t.read(Tier::Line);
  const std::string two_parts = t.anchor(7);
  EXPECT_EQ(std::count(two_parts.begin(), two_parts.end(), ':'), 1);
  EXPECT_TRUE(t.verify({replaceOp(t.anchor(7), "x")}).ok());
}

TEST(Errors, PastedReadPrefixesAreRefused) {
  // Scenario 19 (pinned: refused like Grok, never written).
  LiveSession s(numbered(5));
  s.read();
  const std::string pasted = s.anchor(2) + "\xE2\x86\x92" + "l2 changed";
  auto result = s.verify({replaceOp(s.anchor(2), "fine\n" + pasted)});
  EXPECT_REFUSED(result, ErrorCode::MalformedAnchor);
  EXPECT_TRUE(mentions(result.error(), "content line 2"));
  EXPECT_TRUE(result.error().hint.find("prefix") != std::string::npos);
  EXPECT_REFUSED(s.verify({insertAfterOp("EOF", "3:abc\xE2\x86\x92x")}),
                 ErrorCode::MalformedAnchor);
  // Text that merely looks similar is fine.
  EXPECT_TRUE(s.verify({replaceOp(s.anchor(2), "case 12: return 3;")}).ok());
}

TEST(Errors, NoChangeIsRefused) {
  // Scenario 20 (pinned: NO_CHANGE is a refusal; nothing is sent to the editor).
  LiveSession s("a\nb\nc\n");
  s.read();
  EXPECT_REFUSED(s.verify({replaceOp(s.anchor(2), "b")}), ErrorCode::NoChange);
  EXPECT_REFUSED(s.verify({}), ErrorCode::NoChange);
  EXPECT_REFUSED(s.verify({writeOp("a\nb\nc\n")}), ErrorCode::NoChange);
  // In a batch, an edit that changes nothing is dropped with a warning.
  auto mixed = s.verify({replaceOp(s.anchor(1), "a"), replaceOp(s.anchor(3), "C")});
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->plan.edits.size(), 1u);
  ASSERT_EQ(mixed->plan.warnings.size(), 1u);
  EXPECT_TRUE(mixed->plan.warnings[0].find("edit 1/2") != std::string::npos);
}

TEST(Errors, OverlapsNameBothEdits) {
  // Scenario 10.
  LiveSession s(numbered(8));
  s.read();
  const std::string before = s.text();
  auto result = s.verify(
      {replaceOp(s.anchor(2), "x", s.anchor(4)), replaceOp(s.anchor(3), "y", s.anchor(5))});
  EXPECT_REFUSED(result, ErrorCode::OverlappingEdits);
  EXPECT_TRUE(mentions(result.error(), "edit 1/2 (replace lines 2-4)"));
  EXPECT_TRUE(mentions(result.error(), "edit 2/2 (replace lines 3-5)"));
  EXPECT_EQ(s.text(), before);
  EXPECT_REFUSED(s.verify({deleteOp(s.anchor(3)), deleteOp(s.anchor(3))}),
                 ErrorCode::OverlappingEdits);
}

TEST(Errors, InsertInsideAReplacedSpan) {
  // Scenario 11: strictly inside → refused; at the span's start → refused; exclusive end → ok.
  LiveSession s(numbered(8));
  s.read();
  const auto span = replaceOp(s.anchor(3), "X", s.anchor(5));
  EXPECT_REFUSED(s.verify({span, insertAfterOp(s.anchor(3), "in")}), ErrorCode::OverlappingEdits);
  EXPECT_REFUSED(s.verify({span, insertBeforeOp(s.anchor(5), "in")}), ErrorCode::OverlappingEdits);
  EXPECT_REFUSED(s.verify({span, insertBeforeOp(s.anchor(3), "start")}),
                 ErrorCode::OverlappingEdits);
  EXPECT_REFUSED(s.verify({span, insertAfterOp(s.anchor(2), "start")}),
                 ErrorCode::OverlappingEdits);
  auto end = s.verify({span, insertAfterOp(s.anchor(5), "end")});
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(end->after.toString(), "l1\nl2\nX\nend\nl6\nl7\nl8\n");
  auto adjacent = s.verify({span, replaceOp(s.anchor(6), "six"), replaceOp(s.anchor(2), "two")});
  ASSERT_TRUE(adjacent.ok());
  EXPECT_EQ(adjacent->after.toString(), "l1\ntwo\nX\nsix\nl7\nl8\n");
}

TEST(Errors, OneBadAnchorFailsTheWholeBatch) {
  // Scenario 17.
  LiveSession s(numbered(30));
  s.read();
  const std::string a1 = s.anchor(2), a2 = s.anchor(12), a3 = s.anchor(25);
  s.type(11, 0, "user ");
  const std::string before = s.text();
  auto result = s.verify({replaceOp(a1, "x"), replaceOp(a2, "y"), replaceOp(a3, "z")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  EXPECT_EQ(result.error().message.rfind("edit 2/3: ", 0), 0u);
  ASSERT_FALSE(result.error().data.notes.empty());
  EXPECT_TRUE(result.error().data.notes[0].find("none of the 3 edits were applied") !=
              std::string::npos);
  EXPECT_EQ(s.text(), before);
}

TEST(Errors, StalenessIsReportedBeforeUnknownAndAmbiguous) {
  LiveSession s(numbered(30));
  s.read();
  const std::string a2 = s.anchor(20);
  s.type(19, 0, "user ");
  auto result = s.verify({replaceOp("5:abc:def", "x"), replaceOp(a2, "y")});
  EXPECT_REFUSED(result, ErrorCode::StaleAnchor);
  EXPECT_EQ(result.error().data.edit_index, 1u);
  bool noted = false;
  for (const auto& note : result.error().data.notes)
    noted |= note.find("edit 1/2 also failed: ANCHOR_UNKNOWN") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(Errors, AnchorsShownInErrorsAreRecordedAsIssued) {
  LiveSession s(numbered(30));
  s.read(Tier::Block, 1, 10);
  s.type(4, 0, "user ");
  auto result = s.verify({replaceOp(s.anchor(5), "x")});
  ASSERT_FALSE(result.ok());
  // Line 8 of the error's window: issued at the current version now → exact, not "no history".
  const AnchoredRow* row8 = nullptr;
  for (const auto& row : result.error().data.fresh_anchors)
    if (row.line == 8) row8 = &row;
  ASSERT_NE(row8, nullptr);
  const ReadRecord* issuer = s.observation.issuerOf(*parseAnchor(row8->anchor));
  ASSERT_NE(issuer, nullptr);
  EXPECT_EQ(issuer->version, s.doc.version());
  s.type(0, 0, "top\n");
  const auto applied = s.edit({replaceOp(row8->anchor, "eight")});
  EXPECT_EQ(applied.plan.rebased, (std::vector<Rebase>{{8, 9}}));
}

TEST(Errors, NonTextContentAndDocuments) {
  // Scenario 28: content with NUL or invalid UTF-8 is NOT_TEXT; documents can be checked.
  LiveSession s("a\n");
  s.read();
  EXPECT_REFUSED(s.verify({replaceOp(s.anchor(1), std::string("x\0y", 3))}), ErrorCode::NotText);
  EXPECT_REFUSED(s.verify({replaceOp(s.anchor(1), "bad \xC3(")}), ErrorCode::NotText);
  EXPECT_TRUE(checkEditableText(Rope("fine \xE2\x82\xAC \xF0\x9F\x98\x80\n")).ok());
  EXPECT_EQ(checkEditableText(Rope(std::string("a\0b", 3))).error().code, ErrorCode::NotText);
  EXPECT_EQ(checkEditableText(Rope("a\xED\xA0\x80")).error().code, ErrorCode::NotText); // surrogate
  EXPECT_EQ(checkEditableText(Rope("a\xC0\xAF")).error().code, ErrorCode::NotText);     // overlong
  EXPECT_EQ(checkEditableText(Rope("trailing \xE2\x82")).error().code, ErrorCode::NotText);
  // Multi-byte characters across rope chunk boundaries are fine.
  std::string big;
  for (int i = 0; i < 5000; ++i)
    big += "\xE2\x82\xAC";
  EXPECT_TRUE(checkEditableText(Rope(big)).ok());
  EXPECT_EQ(firstNonTextByte("ab\xFF"), 2u);
}

TEST(Errors, WriteAfterTheUserTypedIsStaleVersion) {
  LiveSession s("a\nb\n");
  s.read();
  s.type(1, 0, "x");
  EXPECT_REFUSED(s.verify({writeOp("new\n")}), ErrorCode::StaleVersion);
  s.read();
  EXPECT_TRUE(s.verify({writeOp("new\n")}).ok());
  // A disk text whose fingerprint changed since the read: refused too.
  Observation observation;
  observation.recordRead(*readWindow(Rope("a\n"), 1, Tier::Block));
  EXPECT_REFUSED(
      verifyAnchoredEdits(TextState::ofPlainText(Rope("a\n"), 2), &observation, {writeOp("b\n")}),
      ErrorCode::StaleVersion);
}

TEST(Errors, EveryErrorHasMessageAndHint) {
  LiveSession s(numbered(10));
  s.read();
  for (const auto& edits : std::vector<std::vector<AnchoredEdit>>{
           {replaceOp("x", "y")}, {replaceOp("99:abc:def", "y")}, {replaceOp("3:abc:def", "y")}}) {
    auto result = s.verify(edits);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(result.error().message.empty());
    EXPECT_FALSE(result.error().hint.empty());
  }
}

} // namespace
} // namespace hashline::test
