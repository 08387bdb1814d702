// decideLanding (lsp/journal/buffer_intent.h): whether a buffer re-opened after its sidecar died
// holds an agent's edit — exactly, or by its hunks despite typing elsewhere — and "unknown"
// wherever the text cannot tell. Insertions, deletions and replacements, typing above, below and
// right beside them, and typing into the edit's own lines. The process-level cases (a real
// sidecar killed before the confirmation) are tests/lsp/agent/buffer_intent_test.cpp.
#include "engine/journal/hunk_split.h"
#include "lsp/journal/buffer_intent.h"
#include "lsp/journal/journal_service.h"

#include <gtest/gtest.h>
#include <string>

namespace hashline::lsp {
namespace {

std::string numbered(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i)
    text += "line " + std::to_string(i) + "\n";
  return text;
}

std::string replaced(std::string text, const std::string& old_text, const std::string& new_text) {
  text.replace(text.find(old_text), old_text.size(), new_text);
  return text;
}

/// The intent of an edit from `before` to `after`.
BufferIntent intentOf(const std::string& before, const std::string& after) {
  BufferIntent intent;
  intent.id = "test";
  intent.op.name = "a.txt";
  intent.op.hunks = journal::splitIntoHunks(before, after);
  intent.text_before = JournalService::contentVersion(before);
  intent.text_after = JournalService::contentVersion(after);
  return intent;
}

Landing landingIn(const BufferIntent& intent, const std::string& text) {
  return decideLanding(intent, Rope(text), JournalService::contentVersion(text)).landing;
}

const std::string kBefore = numbered(20);

TEST(BufferIntentLanding, ExactTextsDecideAtOnce) {
  const std::string after = replaced(kBefore, "line 7\n", "agent 7\n");
  const BufferIntent intent = intentOf(kBefore, after);
  EXPECT_EQ(landingIn(intent, after), Landing::Landed);
  EXPECT_EQ(landingIn(intent, kBefore), Landing::NotLanded);
}

TEST(BufferIntentLanding, InsertionWithTypingElsewhereAndBesideIt) {
  const std::string after = replaced(kBefore, "line 8\n", "agent\nline 8\n");
  const BufferIntent intent = intentOf(kBefore, after);
  EXPECT_EQ(landingIn(intent, "typed\n" + after + "typed\n"), Landing::Landed);
  EXPECT_EQ(landingIn(intent, replaced(after, "agent\n", "agent\ntyped\n")), Landing::Landed)
      << "typing right below the inserted line";
  EXPECT_EQ(landingIn(intent, "typed\n" + kBefore), Landing::NotLanded);
  EXPECT_EQ(landingIn(intent, replaced(kBefore, "line 8\n", "typed\nline 8\n")), Landing::Unknown)
      << "typing where the insertion would be: its neighbours are apart either way";
}

TEST(BufferIntentLanding, DeletionWithTypingElsewhere) {
  const std::string after = replaced(kBefore, "line 9\nline 10\n", "");
  const BufferIntent intent = intentOf(kBefore, after);
  EXPECT_EQ(landingIn(intent, after + "typed\n"), Landing::Landed);
  EXPECT_EQ(landingIn(intent, kBefore + "typed\n"), Landing::NotLanded);
}

TEST(BufferIntentLanding, ReplacementsOfSeveralHunks) {
  const std::string after =
      replaced(replaced(kBefore, "line 3\n", "agent 3\n"), "line 15\n", "agent 15\n");
  const BufferIntent intent = intentOf(kBefore, after);
  ASSERT_EQ(intent.op.hunks.size(), 2u);
  EXPECT_EQ(landingIn(intent, replaced(after, "line 10\n", "line 10 typed\n")), Landing::Landed);
  EXPECT_EQ(landingIn(intent, replaced(kBefore, "line 10\n", "line 10 typed\n")),
            Landing::NotLanded);
  EXPECT_EQ(landingIn(intent, replaced(after, "agent 15\n", "agent 15 typed\n")), Landing::Unknown)
      << "typing into one of the edit's lines: one hunk found, one not";
}

TEST(BufferIntentLanding, ReplacementWhoseOldLineStaysElsewhereIsUnknown) {
  const std::string text = "a\nb\nx\nc\nd\na\nb\nx\nc\nd\n";
  const std::string after = "a\nb\ny\nc\nd\na\nb\nx\nc\nd\n";
  const BufferIntent intent = intentOf(text, after);
  EXPECT_EQ(landingIn(intent, after + "typed\n"), Landing::Unknown)
      << "the old line with the same context is still there (the second block): cannot tell";
  EXPECT_EQ(landingIn(intent, after), Landing::Landed) << "the exact text still decides";
}

} // namespace
} // namespace hashline::lsp
