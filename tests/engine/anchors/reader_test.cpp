// Tests for read lines and anchored reads (engine/anchors/read_lines.h, reader.h), against the
// hand-written oracle in oracle.h.
#include "engine/anchors/anchor_computer.h"
#include "engine/anchors/read_lines.h"
#include "engine/anchors/reader.h"
#include "oracle.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline {
namespace {

std::vector<std::string> anchorTexts(const ReadView& view) {
  std::vector<std::string> out;
  for (const auto& row : view.rows)
    out.push_back(row.anchor);
  return out;
}

ReadView readAll(std::string_view text, Tier tier) {
  auto view = readWindow(Rope(text), 1, tier);
  EXPECT_TRUE(view.ok());
  return *view;
}

TEST(ReadLines, NoPhantomLastLine) {
  // Scenario 3: "a\n" reads as 1 line, an empty text as one empty line 1.
  EXPECT_EQ(readLineCount(Rope("a\n")), 1u);
  EXPECT_EQ(readLineCount(Rope("a")), 1u);
  EXPECT_EQ(readLineCount(Rope("")), 1u);
  EXPECT_EQ(readLineCount(Rope("\n")), 1u);
  EXPECT_EQ(readLineCount(Rope("\n\n")), 2u);
  EXPECT_EQ(readLineCount(Rope("a\r\nb\r\n")), 2u);
  EXPECT_EQ(readLineCount(Rope("a\rb")), 2u);
  const ReadView empty = readAll("", Tier::Block);
  ASSERT_EQ(empty.rows.size(), 1u);
  EXPECT_EQ(empty.rows[0].line, 1u);
  EXPECT_EQ(empty.rows[0].text, "");
  EXPECT_EQ(empty.line_count, 1u);
  EXPECT_EQ(readAll("a\n", Tier::Block).lsp_line_count, 2u);
}

TEST(ReadLines, TerminatorsAndEndings) {
  const Rope text("a\r\nb\nc\rd");
  EXPECT_EQ(lineTerminator(text, 1), "\r\n");
  EXPECT_EQ(lineTerminator(text, 2), "\n");
  EXPECT_EQ(lineTerminator(text, 3), "\r");
  EXPECT_EQ(lineTerminator(text, 4), "");
  EXPECT_EQ(lineEndingNear(text, 4), "\r");
  EXPECT_EQ(lineEndingNear(Rope("x"), 1), "\n");
  EXPECT_TRUE(endsWithLineBreak(Rope("a\n")));
  EXPECT_FALSE(endsWithLineBreak(Rope("a")));
  EXPECT_FALSE(endsWithLineBreak(Rope("")));
}

TEST(ReadLines, BomIsNotPartOfLineOne) {
  // Scenario 27: the BOM is excluded from line 1's text and digest; its bytes stay.
  const Rope text("\xEF\xBB\xBFhello\nworld\n");
  EXPECT_EQ(bomBytes(text), 3u);
  EXPECT_EQ(readLineText(text, 1), "hello");
  EXPECT_EQ(lineContentBegin(text, 1), 3u);
  const ReadView with_bom = readAll("\xEF\xBB\xBFhello\nworld\n", Tier::Block);
  const ReadView without = readAll("hello\nworld\n", Tier::Block);
  EXPECT_EQ(anchorTexts(with_bom), anchorTexts(without));
  EXPECT_EQ(with_bom.rows[0].text, "hello");
  EXPECT_TRUE(isEmptyText(Rope("\xEF\xBB\xBF")));
  EXPECT_EQ(readAll("\xEF\xBB\xBF", Tier::Line).rows[0].text, "");
}

TEST(ReadLines, WindowTextsEqualLineByLineTexts) {
  std::mt19937 rng(9);
  const char* endings[] = {"\n", "\r\n", "\r"};
  for (int trial = 0; trial < 50; ++trial) {
    std::string text = trial % 2 ? "\xEF\xBB\xBF" : "";
    const int lines = 1 + static_cast<int>(rng() % 30);
    for (int i = 0; i < lines; ++i)
      text += std::string(rng() % 3 ? "text " : "") + std::to_string(i) + endings[rng() % 3];
    if (rng() % 2) text += "tail";
    const Rope rope(text);
    const std::uint32_t count = readLineCount(rope);
    const auto oracle_lines = oracle::readLines(text);
    ASSERT_EQ(count, oracle_lines.size());
    const std::uint32_t first = 1 + rng() % count;
    const std::uint32_t last = first + rng() % (count - first + 1);
    const auto texts = readLineTexts(rope, first, last);
    ASSERT_EQ(texts.size(), last - first + 1);
    for (std::uint32_t line = first; line <= last; ++line) {
      EXPECT_EQ(texts[line - first], readLineText(rope, line));
      EXPECT_EQ(texts[line - first], oracle_lines[line - 1]);
    }
  }
}

TEST(Reader, MatchesTheOracleInEveryTier) {
  std::string text;
  for (int i = 0; i < 77; ++i)
    text += (i % 5 == 0 ? "  " : "") + std::string("line ") + std::to_string(i % 9) +
            (i % 7 == 0 ? "\r\n" : "\n");
  text += "last without newline";
  for (const char* tier_name : {"line", "block", "chain"}) {
    const Tier tier = *tierFromName(tier_name);
    EXPECT_EQ(anchorTexts(readAll(text, tier)), oracle::anchors(text, tier_name)) << tier_name;
  }
}

TEST(Reader, RowShapeAndDeterminism) {
  // Scenario 1: LINE:LLL:BBB, 1-based, same anchors on every read.
  std::string text;
  for (int i = 0; i < 30; ++i)
    text += "x" + std::to_string(i) + "\n";
  text += "let x = 1;\n";
  const ReadView first = readAll(text, Tier::Block);
  const ReadView again = readAll(text, Tier::Block);
  EXPECT_EQ(anchorTexts(first), anchorTexts(again));
  const auto& row = first.rows[30];
  EXPECT_EQ(row.line, 31u);
  EXPECT_EQ(row.text, "let x = 1;");
  ASSERT_EQ(row.anchor.size(), std::string("31:abc:def").size());
  EXPECT_EQ(row.anchor.substr(0, 3), "31:");
  auto parsed = parseAnchor(row.anchor);
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->context_digest.has_value());
  EXPECT_EQ(formatRows({row}), row.anchor + "\xE2\x86\x92let x = 1;");
  // Line tier rows have two parts.
  const std::string line_anchor = readAll(text, Tier::Line).rows[0].anchor;
  EXPECT_EQ(std::count(line_anchor.begin(), line_anchor.end(), ':'), 1);
}

TEST(Reader, WindowRules) {
  std::string text;
  for (int i = 1; i <= 20; ++i)
    text += "l" + std::to_string(i) + "\n";
  const Rope rope(text);
  auto view = readWindow(rope, 3, Tier::Block, 5, 9);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->first_line, 5u);
  EXPECT_EQ(view->last_line, 9u);
  EXPECT_EQ(view->rows.front().text, "l5");
  EXPECT_EQ(view->version, 3);
  const auto all = oracle::anchors(text, "block");
  for (const auto& row : view->rows)
    EXPECT_EQ(row.anchor, all[row.line - 1]);
  auto clamped = readWindow(rope, 3, Tier::Block, 18, 500);
  ASSERT_TRUE(clamped.ok());
  EXPECT_EQ(clamped->last_line, 20u);
  EXPECT_EQ(readWindow(rope, 3, Tier::Block, 0, 2)->first_line, 1u);
  EXPECT_EQ(readWindow(rope, 3, Tier::Block, 21, 30).error().code, ErrorCode::OutOfRange);
  EXPECT_EQ(readWindow(rope, 3, Tier::Block, 9, 5).error().code, ErrorCode::OutOfRange);
}

TEST(Tiers, BlockDigestSeesEveryLineOfItsBlockOnly) {
  // Scenario 13 at anchor level: changing line 5 changes the block digest of lines 1-8 only.
  std::string before, after;
  for (int i = 1; i <= 24; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i == 5 ? std::string("changed") : "line " + std::to_string(i)) + "\n";
  }
  const auto a = readAll(before, Tier::Block);
  const auto b = readAll(after, Tier::Block);
  for (std::uint32_t i = 0; i < 24; ++i) {
    const bool in_block = i < 8;
    EXPECT_EQ(a.anchors[i].context_digest == b.anchors[i].context_digest, !in_block) << i + 1;
    EXPECT_EQ(a.anchors[i].line_digest == b.anchors[i].line_digest, i != 4) << i + 1;
  }
  // The line tier ignores the neighbour.
  EXPECT_EQ(readAll(before, Tier::Line).rows[6].anchor, readAll(after, Tier::Line).rows[6].anchor);
}

TEST(Tiers, ChainDigestSeesLinesAboveWithinItsSegment) {
  std::string before, after;
  for (int i = 1; i <= 70; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i == 40 ? std::string("changed") : "line " + std::to_string(i)) + "\n";
  }
  const auto a = readAll(before, Tier::Chain);
  const auto b = readAll(after, Tier::Chain);
  for (std::uint32_t line = 1; line <= 70; ++line) {
    const bool affected = line >= 40 && line <= 64; // segment 33-64, from line 40 down
    EXPECT_EQ(a.anchors[line - 1].context_digest == b.anchors[line - 1].context_digest, !affected)
        << line;
  }
}

TEST(Tiers, IndentationOnlyChangesKeepEveryAnchor) {
  // Scenario 2 pinned: formatters re-indenting or trimming keep anchors valid in all tiers.
  const std::string before = "fn f() {\n  let  x = 1;\n    return x;   \n}\n";
  const std::string after = "fn f() {\n\tlet x = 1;\n\treturn x;\n}\n";
  for (Tier tier : {Tier::Line, Tier::Block, Tier::Chain})
    EXPECT_EQ(anchorTexts(readAll(before, tier)), anchorTexts(readAll(after, tier)));
}

TEST(AnchorComputer, WindowAnchorsEqualWholeTextAnchors) {
  std::mt19937 rng(7);
  std::string text;
  for (int i = 0; i < 150; ++i)
    text += "w" + std::to_string(rng() % 13) + (rng() % 3 ? " x" : "") + "\n";
  const Rope rope(text);
  AnchorComputer computer(rope, 1);
  for (Tier tier : {Tier::Line, Tier::Block, Tier::Chain}) {
    const auto all = computer.anchors(tier, 1, computer.lineCount());
    for (int trial = 0; trial < 50; ++trial) {
      std::uint32_t first = 1 + rng() % 150;
      std::uint32_t last = first + rng() % (151 - first);
      const auto window = computer.anchors(tier, first, last);
      for (std::uint32_t line = first; line <= last; ++line)
        ASSERT_EQ(window[line - first], all[line - 1]);
    }
  }
}

} // namespace
} // namespace hashline
