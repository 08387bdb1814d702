// FlatLines (engine/text/flat_lines.h) against splitLinesKeepingEnds: the same lines, the same
// starts and the same line numbers of every offset, for texts of LF, CRLF and lone CR breaks,
// with and without a final break, in blocks small enough that lines and CRLF pairs straddle them.
#include "engine/diff/line_diff.h"
#include "engine/text/flat_lines.h"

#include <gtest/gtest.h>
#include <random>
#include <string>

namespace hashline {
namespace {

void expectSameAsSplit(const std::string& text, std::size_t block) {
  const std::vector<std::string_view> lines = splitLinesKeepingEnds(text);
  const FlatLines flat(text, block);
  ASSERT_EQ(flat.size(), lines.size()) << "block " << block;
  std::size_t start = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    ASSERT_EQ(flat.lineStart(i), start) << "line " << i << ", block " << block;
    ASSERT_EQ(flat.line(i), lines[i]) << "line " << i << ", block " << block;
    // Every offset inside line i has i lines ending before it; its start, too.
    for (std::size_t at = start; at < start + lines[i].size(); ++at)
      ASSERT_EQ(flat.linesBefore(at), i) << "offset " << at << ", block " << block;
    start += lines[i].size();
  }
  EXPECT_EQ(flat.lineStart(lines.size()), text.size());
  EXPECT_EQ(flat.linesBefore(text.size()), lines.size());
}

TEST(FlatLines, EdgeTexts) {
  for (std::size_t block : {1, 2, 3, 64})
    for (const char* text : {"", "a", "\n", "a\n", "a\nb", "\r", "\r\n", "\r\r\n", "a\rb\r\nc\n",
                             "\n\n\n", "x\r", "\r\r"})
      expectSameAsSplit(text, block);
}

TEST(FlatLines, RandomTextsInSmallBlocks) {
  std::mt19937 random(13);
  const char pieces[] = {'a', 'b', '\n', '\r', ' '};
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const std::size_t size = random() % 200;
    for (std::size_t i = 0; i < size; ++i)
      text += pieces[random() % 5];
    for (std::size_t block : {1, 2, 5, 16, 64, 1000})
      expectSameAsSplit(text, block);
  }
}

TEST(FlatLines, ALargeTextOfLineFeedsOnly) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "local v" + std::to_string(i) + " = compute(" + std::to_string(i % 97) + ")\n";
  text += "no final break";
  const std::vector<std::string_view> lines = splitLinesKeepingEnds(text);
  const FlatLines flat(text); // default blocks: the vectorized count
  ASSERT_EQ(flat.size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); i += 97)
    ASSERT_EQ(flat.line(i), lines[i]) << i;
  EXPECT_EQ(flat.line(lines.size() - 1), "no final break");
  EXPECT_EQ(flat.linesBefore(flat.lineStart(12345)), 12345u);
}

} // namespace
} // namespace hashline
