// Document: LSP didChange semantics (several changes per notification, each relative to the text
// after the previous), every desync rule, snapshots, and exact LineChange recording — fixed cases
// plus a randomized run whose recorded changes are checked against the full line lists.
#include "engine/text/document.h"
#include "tests/engine/text/text_model.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace hashline {
namespace {

ContentChange rangeChange(std::uint32_t l1, std::uint32_t c1, std::uint32_t l2, std::uint32_t c2,
                          std::string text) {
  return ContentChange{LspPosition{l1, c1}, LspPosition{l2, c2}, std::move(text)};
}

ContentChange fullChange(std::string text) {
  return ContentChange{{}, {}, std::move(text)};
}

std::string numberedLines(int count) {
  std::string text;
  for (int i = 0; i < count; ++i)
    text += "line " + std::to_string(i) + "\n";
  return text;
}

LineChange lastChange(const Document& document) {
  EXPECT_FALSE(document.changeLog().entries().empty());
  return document.changeLog().entries().back();
}

void expectChange(const LineChange& change, std::int64_t version, std::uint32_t first,
                  std::uint32_t old_end, std::uint32_t new_end) {
  EXPECT_EQ(change.version, version);
  EXPECT_EQ(change.first_line, first);
  EXPECT_EQ(change.old_end_line, old_end);
  EXPECT_EQ(change.new_end_line, new_end);
}

TEST(Document, AppliesOneChange) {
  Document document(1, "hello\nworld\n");
  ASSERT_TRUE(
      document.applyChanges(2, {rangeChange(1, 0, 1, 5, "there")}, PositionEncoding::Utf16).ok());
  EXPECT_EQ(document.text().toString(), "hello\nthere\n");
  EXPECT_EQ(document.version(), 2);
  EXPECT_FALSE(document.desynced());
}

TEST(Document, MultiChangeNotificationAppliesInOrder) {
  // The second range is relative to the text after the first change.
  Document document(1, "abc\ndef\n");
  std::vector<ContentChange> changes = {rangeChange(0, 0, 0, 0, "X\n"), // "X\nabc\ndef\n"
                                        rangeChange(2, 0, 2, 3, "DEF"), // line 2 is "def" now
                                        rangeChange(0, 1, 1, 0, "")};   // join X and abc
  ASSERT_TRUE(document.applyChanges(5, changes, PositionEncoding::Utf16).ok());
  EXPECT_EQ(document.text().toString(), "Xabc\nDEF\n");
  EXPECT_EQ(document.version(), 5);
  ASSERT_EQ(document.changeLog().size(), 3u);
  for (const LineChange& change : document.changeLog().entries())
    EXPECT_EQ(change.version, 5);
  auto fate = document.changeLog().mapLine(1, 1); // "def"
  ASSERT_TRUE(fate);
  EXPECT_EQ(fate->kind, LineFate::Changed);
}

TEST(Document, EmptyNotificationStillAdvancesTheLog) {
  Document document(1, "a\nb\n");
  ASSERT_TRUE(document.applyChanges(2, {}, PositionEncoding::Utf16).ok());
  EXPECT_EQ(document.version(), 2);
  EXPECT_EQ(document.changeLog().currentVersion(), 2);
  auto fate = document.changeLog().mapLine(2, 1);
  ASSERT_TRUE(fate);
  EXPECT_EQ(fate->kind, LineFate::Unchanged);
  fate = document.changeLog().mapLine(1, 1);
  ASSERT_TRUE(fate);
  EXPECT_EQ(fate->line, 1u);
}

TEST(Document, RecordsTheDocumentedLineChanges) {
  Document document(1, numberedLines(12));
  // Typing "x" inside line 7.
  ASSERT_TRUE(
      document.applyChanges(2, {rangeChange(7, 2, 7, 2, "x")}, PositionEncoding::Utf16).ok());
  expectChange(lastChange(document), 2, 7, 8, 8);
  // Enter at the end of line 7.
  auto end7 = static_cast<std::uint32_t>(document.text().lineLength(7, PositionEncoding::Utf16));
  ASSERT_TRUE(
      document.applyChanges(3, {rangeChange(7, end7, 7, end7, "\n")}, PositionEncoding::Utf16)
          .ok());
  expectChange(lastChange(document), 3, 8, 8, 9);
  // Two whole lines before line 3.
  ASSERT_TRUE(
      document.applyChanges(4, {rangeChange(3, 0, 3, 0, "new a\nnew b\n")}, PositionEncoding::Utf16)
          .ok());
  expectChange(lastChange(document), 4, 3, 3, 5);
  // Deleting line 4.
  ASSERT_TRUE(
      document.applyChanges(5, {rangeChange(4, 0, 5, 0, "")}, PositionEncoding::Utf16).ok());
  expectChange(lastChange(document), 5, 4, 5, 4);
  // Enter at the end of the last line (no final newline): the line keeps its text.
  Document tail(1, "a\nb");
  ASSERT_TRUE(tail.applyChanges(2, {rangeChange(1, 1, 1, 1, "\n")}, PositionEncoding::Utf16).ok());
  expectChange(lastChange(tail), 2, 2, 2, 3);
  // Line 9 at version 1 ("line 9") is line 11 now.
  auto fate = document.changeLog().mapLine(1, 9);
  ASSERT_TRUE(fate);
  EXPECT_EQ(fate->kind, LineFate::Moved);
  EXPECT_EQ(fate->line, 11u); // +1 (Enter above it), +2 (two lines), -1 (a line deleted)
  EXPECT_EQ(document.text().lineText(11), "line 9");
}

TEST(Document, CrMeetingLfKeepsLineContents) {
  // "a\rX\nb": deleting X turns the lone CR and the LF into one CRLF — line "X" disappears.
  Document document(1, "a\rX\nb");
  ASSERT_TRUE(
      document.applyChanges(2, {rangeChange(1, 0, 1, 1, "")}, PositionEncoding::Utf16).ok());
  EXPECT_EQ(document.text().toString(), "a\r\nb");
  EXPECT_EQ(document.text().lineCount(), 2u);
  expectChange(lastChange(document), 2, 1, 2, 1);
  // Inserting an LF after a lone CR merges into CRLF: no line changes at all.
  Document merge(1, "a\rb");
  ASSERT_TRUE(merge.applyByteEdit(2, 2, 2, "\n").ok());
  EXPECT_EQ(merge.text().toString(), "a\r\nb");
  LineChange nothing = lastChange(merge);
  EXPECT_EQ(nothing.first_line, nothing.old_end_line);
  EXPECT_EQ(nothing.first_line, nothing.new_end_line);
}

TEST(Document, DesyncWhenRangePastTheEnd) {
  Document document(1, "one\ntwo");
  Status status = document.applyChanges(2, {rangeChange(2, 0, 2, 0, "x")}, PositionEncoding::Utf16);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Desynced);
  EXPECT_TRUE(document.desynced());
  EXPECT_FALSE(document.desyncReason().empty());
  EXPECT_EQ(document.text().toString(), "one\ntwo");
  EXPECT_EQ(document.version(), 1);
}

TEST(Document, DesyncWhenRangeEndIsPastTheEnd) {
  Document document(1, "one\ntwo");
  Status status = document.applyChanges(2, {rangeChange(1, 0, 5, 0, "")}, PositionEncoding::Utf16);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Desynced);
  EXPECT_TRUE(document.desynced());
  EXPECT_EQ(document.text().toString(), "one\ntwo");
  // A character past the end of the last line is fine: it means the line's end.
  Document fine(1, "one\ntwo");
  ASSERT_TRUE(fine.applyChanges(2, {rangeChange(1, 99, 1, 99, "!")}, PositionEncoding::Utf16).ok());
  EXPECT_EQ(fine.text().toString(), "one\ntwo!");
}

TEST(Document, DesyncInsideASurrogatePairOrAUtf8Sequence) {
  const std::string text = "a\xF0\x9F\x98\x80z";
  Document utf16(1, text);
  Status status = utf16.applyChanges(2, {rangeChange(0, 2, 0, 2, "x")}, PositionEncoding::Utf16);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Desynced);
  EXPECT_TRUE(utf16.desynced());
  Document utf8(1, text);
  status = utf8.applyChanges(2, {rangeChange(0, 1, 0, 3, "x")}, PositionEncoding::Utf8);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(utf8.desynced());
  // utf-32 counts the emoji once: character 2 is after it.
  Document utf32(1, text);
  ASSERT_TRUE(utf32.applyChanges(2, {rangeChange(0, 2, 0, 2, "x")}, PositionEncoding::Utf32).ok());
  EXPECT_EQ(utf32.text().toString(), "a\xF0\x9F\x98\x80xz");
}

TEST(Document, DesyncWhenVersionDoesNotIncrease) {
  Document document(5, "text");
  Status same = document.applyChanges(5, {rangeChange(0, 0, 0, 0, "x")}, PositionEncoding::Utf16);
  ASSERT_FALSE(same.ok());
  EXPECT_EQ(same.error().code, ErrorCode::Desynced);
  EXPECT_TRUE(document.desynced());
  Document older(5, "text");
  ASSERT_FALSE(older.applyChanges(4, {rangeChange(0, 0, 0, 0, "x")}, PositionEncoding::Utf16).ok());
  EXPECT_TRUE(older.desynced());
  EXPECT_EQ(older.text().toString(), "text");
  Document bytes(5, "text");
  EXPECT_FALSE(bytes.applyByteEdit(5, 0, 0, "x").ok());
}

TEST(Document, RepeatedEmptyNotificationIsANoOp) {
  // Neovim 0.7 resends the current version with no changes when a request flushes its debounce.
  Document document(5, "text\n");
  ASSERT_TRUE(document.applyChanges(5, {}, PositionEncoding::Utf16).ok());
  EXPECT_FALSE(document.desynced());
  EXPECT_EQ(document.version(), 5);
  ASSERT_TRUE(
      document.applyChanges(6, {rangeChange(0, 0, 0, 0, "x")}, PositionEncoding::Utf16).ok());
  EXPECT_EQ(document.text().toString(), "xtext\n");
  EXPECT_FALSE(document.applyChanges(5, {}, PositionEncoding::Utf16).ok()); // going back is not
}

TEST(Document, LoneCrRefusedForClientsThatDoNotBreakLinesThere) {
  Document lsp(1, "a\rb\n");
  EXPECT_FALSE(lsp.desynced()); // the LSP's own rule: a lone CR is a line break
  Document open(1, "a\r\nb\rc\n");
  open.setLoneCrIsLineBreak(false);
  ASSERT_TRUE(open.desynced());
  EXPECT_NE(open.desyncReason().find("line 2 ends with a lone CR"), std::string::npos);
  Document at_end(1, "a\r");
  at_end.setLoneCrIsLineBreak(false);
  EXPECT_TRUE(at_end.desynced());
  Document crlf(1, "a\r\nb\r\n");
  crlf.setLoneCrIsLineBreak(false);
  EXPECT_FALSE(crlf.desynced());
}

TEST(Document, ChangesThatCreateALoneCrAreCaught) {
  const auto encoding = PositionEncoding::Utf16;
  auto fresh = [] {
    Document document(1, "a\r\nb\r\nc\n");
    document.setLoneCrIsLineBreak(false);
    return document;
  };
  Document fine = fresh(); // a CR typed before an LF makes a CRLF: still fine
  ASSERT_TRUE(fine.applyChanges(2, {rangeChange(2, 1, 2, 1, "\r")}, encoding).ok());
  ASSERT_TRUE(fine.applyChanges(3, {rangeChange(0, 0, 0, 1, "xy\r\nz")}, encoding).ok());
  EXPECT_FALSE(fine.desynced());
  Document split = fresh(); // deleting the LF of a CRLF (the range ends past the CR)
  Status status = split.applyChanges(2, {rangeChange(0, 1, 1, 0, "\r")}, encoding);
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(split.desynced());
  Document inserted = fresh(); // a CR inside inserted text
  EXPECT_FALSE(inserted.applyChanges(2, {rangeChange(2, 0, 2, 0, "p\rq")}, encoding).ok());
  Document last = fresh(); // a CR inserted last, before a letter
  EXPECT_FALSE(last.applyChanges(2, {rangeChange(2, 0, 2, 0, "\r")}, encoding).ok());
  EXPECT_TRUE(last.desynced());
  // Refused until reopened without it.
  EXPECT_FALSE(last.applyChanges(3, {rangeChange(0, 0, 0, 0, "x")}, encoding).ok());
  last.resetText(4, "clean\n");
  EXPECT_FALSE(last.desynced());
  last.resetText(5, "dirty\rtext");
  EXPECT_TRUE(last.desynced());
}

TEST(Document, DesyncWhenRangeIsReversed) {
  Document document(1, "abcdef");
  ASSERT_FALSE(
      document.applyChanges(2, {rangeChange(0, 4, 0, 2, "")}, PositionEncoding::Utf16).ok());
  EXPECT_TRUE(document.desynced());
}

TEST(Document, FailingChangeKeepsEarlierChangesOfTheNotification) {
  Document document(1, "abc");
  Status status = document.applyChanges(
      2, {rangeChange(0, 0, 0, 0, "1"), rangeChange(9, 0, 9, 0, "2")}, PositionEncoding::Utf16);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(document.text().toString(), "1abc");
  EXPECT_TRUE(document.desynced());
}

TEST(Document, DesyncedDocumentRefusesChangesUntilResetText) {
  Document document(1, "abc");
  ASSERT_FALSE(
      document.applyChanges(1, {rangeChange(0, 0, 0, 0, "x")}, PositionEncoding::Utf16).ok());
  Status refused =
      document.applyChanges(7, {rangeChange(0, 0, 0, 0, "x")}, PositionEncoding::Utf16);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::Desynced);
  EXPECT_EQ(document.text().toString(), "abc");
  EXPECT_FALSE(document.applyByteEdit(8, 0, 0, "x").ok());
  document.resetText(9, "fresh\n");
  EXPECT_FALSE(document.desynced());
  EXPECT_TRUE(document.desyncReason().empty());
  EXPECT_EQ(document.version(), 9);
  EXPECT_EQ(document.changeLog().oldestVersion(), 9);
  ASSERT_TRUE(
      document.applyChanges(10, {rangeChange(1, 0, 1, 0, "more")}, PositionEncoding::Utf16).ok());
  EXPECT_EQ(document.text().toString(), "fresh\nmore");
}

TEST(Document, FullTextChangeResyncsADesyncedDocument) {
  Document document(1, "abc");
  ASSERT_FALSE(
      document.applyChanges(1, {rangeChange(0, 0, 0, 0, "x")}, PositionEncoding::Utf16).ok());
  ASSERT_TRUE(document
                  .applyChanges(3, {fullChange("new\ntext\n"), rangeChange(0, 0, 0, 0, ">")},
                                PositionEncoding::Utf16)
                  .ok());
  EXPECT_FALSE(document.desynced());
  EXPECT_EQ(document.text().toString(), ">new\ntext\n");
  EXPECT_EQ(document.version(), 3);
}

TEST(Document, FullTextChangeKeepsHistoryOfUnchangedLines) {
  Document document(1, numberedLines(10));
  std::string text = numberedLines(10);
  text.replace(text.find("line 4"), 6, "LINE FOUR\nextra");
  ASSERT_TRUE(document.applyChanges(2, {fullChange(text)}, PositionEncoding::Utf16).ok());
  EXPECT_EQ(document.text().toString(), text);
  expectChange(lastChange(document), 2, 4, 5, 6);
  auto fate = document.changeLog().mapLine(1, 8);
  ASSERT_TRUE(fate);
  EXPECT_EQ(fate->line, 9u);
}

TEST(Document, SnapshotsKeepOlderVersions) {
  Document document(1, "v1");
  document.keepSnapshot();
  ASSERT_TRUE(document.applyByteEdit(2, 0, 2, "v2").ok());
  document.keepSnapshot();
  ASSERT_TRUE(document.applyByteEdit(3, 0, 2, "v3").ok());
  ASSERT_TRUE(document.snapshotAt(1));
  EXPECT_EQ(document.snapshotAt(1)->toString(), "v1");
  EXPECT_EQ(document.snapshotAt(2)->toString(), "v2");
  EXPECT_EQ(document.snapshotAt(3)->toString(), "v3"); // the current version is always there
  EXPECT_FALSE(document.snapshotAt(0));
  for (std::int64_t v = 4; v < 4 + 100; ++v) {
    ASSERT_TRUE(document.applyByteEdit(v, 0, 0, "+").ok());
    document.keepSnapshot();
  }
  EXPECT_FALSE(document.snapshotAt(1)); // bounded: the oldest went first
  EXPECT_TRUE(document.snapshotAt(100));
  document.resetText(200, "reset");
  EXPECT_FALSE(document.snapshotAt(100));
}

TEST(Document, ByteEditOutsideTheTextIsRefused) {
  Document document(1, "abc");
  Status status = document.applyByteEdit(2, 2, 9, "");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::OutOfRange);
  EXPECT_FALSE(document.desynced());
}

// --- randomized: recorded changes are exact --------------------------------------------------

std::vector<std::string> linesOf(const std::string& text) {
  testing_model::Model model(text);
  std::vector<std::string> lines;
  for (std::size_t l = 0; l < model.lineCount(); ++l)
    lines.push_back(text.substr(model.lineStart(l), model.lineEnd(l) - model.lineStart(l)));
  return lines;
}

/// The change maps `before` to `after` outside its range, and is trimmed at both ends.
void expectExact(const std::vector<std::string>& before, const std::vector<std::string>& after,
                 const LineChange& change) {
  ASSERT_LE(change.first_line, change.old_end_line);
  ASSERT_LE(change.first_line, change.new_end_line);
  ASSERT_LE(change.old_end_line, before.size());
  ASSERT_LE(change.new_end_line, after.size());
  ASSERT_EQ(before.size() - change.old_end_line, after.size() - change.new_end_line);
  for (std::uint32_t l = 0; l < change.first_line; ++l)
    ASSERT_EQ(before[l], after[l]) << l;
  for (std::size_t k = 0; k < before.size() - change.old_end_line; ++k)
    ASSERT_EQ(before[change.old_end_line + k], after[change.new_end_line + k]) << k;
  if (change.old_end_line > change.first_line && change.new_end_line > change.first_line) {
    ASSERT_NE(before[change.first_line], after[change.first_line]);
    ASSERT_NE(before[change.old_end_line - 1], after[change.new_end_line - 1]);
  }
}

TEST(DocumentRandomized, RecordedChangesAreExact) {
  static const std::vector<std::string> pieces = {"a",
                                                  "b",
                                                  "word",
                                                  " ",
                                                  "\n",
                                                  "\n",
                                                  "\n",
                                                  "\r\n",
                                                  "\r",
                                                  "\xE4\xB8\xAD",
                                                  "\xF0\x9F\x98\x80",
                                                  "\xC3\xA9",
                                                  "x\ny\n",
                                                  "\xFF"};
  std::mt19937 rng(42);
  auto randomText = [&](std::size_t count) {
    std::string text;
    for (std::size_t i = 0; i < count; ++i)
      text += pieces[rng() % pieces.size()];
    return text;
  };
  constexpr PositionEncoding kEncodings[] = {PositionEncoding::Utf8, PositionEncoding::Utf16,
                                             PositionEncoding::Utf32};
  std::string text = randomText(400);
  Document document(1, text);
  for (std::int64_t version = 2; version < 3000; ++version) {
    const PositionEncoding encoding = kEncodings[rng() % 3];
    std::vector<ContentChange> changes;
    std::vector<std::string> states = {text};
    const int count = 1 + (rng() % 5 == 0 ? rng() % 3 : 0);
    for (int c = 0; c < count; ++c) {
      testing_model::Model model(text);
      // Pick code point boundaries, never the middle of a CRLF.
      auto pick = [&]() {
        std::size_t byte = model.starts[rng() % model.starts.size()];
        if (byte > 0 && byte < text.size() && text[byte - 1] == '\r' && text[byte] == '\n') --byte;
        return byte;
      };
      std::size_t begin = pick(), end = pick();
      if (end < begin) std::swap(begin, end);
      if (text.size() > 3000) end = std::min(text.size(), begin + 200);
      ContentChange change{model.positionOf(begin, encoding), model.positionOf(end, encoding),
                           randomText(rng() % 4)};
      if (rng() % 50 == 0) change = fullChange(text.substr(0, begin) + "\n" + text.substr(end));
      text =
          change.range_start ? text.substr(0, begin) + change.text + text.substr(end) : change.text;
      changes.push_back(change);
      states.push_back(text);
    }
    const std::size_t log_before = document.changeLog().size();
    Status status = document.applyChanges(version, changes, encoding);
    ASSERT_TRUE(status.ok()) << status.error().message;
    ASSERT_EQ(document.text().toString(), text) << "version " << version;
    const auto& entries = document.changeLog().entries();
    ASSERT_EQ(entries.size(), log_before + changes.size());
    for (std::size_t c = 0; c < changes.size(); ++c) {
      const LineChange& change = entries[log_before + c];
      ASSERT_EQ(change.version, version);
      ASSERT_NO_FATAL_FAILURE(expectExact(linesOf(states[c]), linesOf(states[c + 1]), change))
          << "version " << version << " change " << c;
    }
  }
}

} // namespace
} // namespace hashline
