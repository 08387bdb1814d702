// Tests of splitting a Rope into line views (engine/diff/rope_lines.h): the same lines as
// splitLinesKeepingEnds of the flat text, for texts of LF, CRLF and lone CR lines cut into
// leaves of every size (so terminators, CRLF pairs and lines cross leaf boundaries).
#include "engine/diff/line_diff.h"
#include "engine/diff/rope_lines.h"
#include "tests/engine/text/rope_pieces.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace hashline {
namespace {

void expectSameLines(const std::string& text, std::size_t leaf) {
  const std::vector<std::string_view> expected = splitLinesKeepingEnds(std::string_view(text));
  const Rope rope = testing_model::ropeOfPieces(text, leaf);
  const RopeLines got = splitLinesKeepingEnds(rope);
  ASSERT_EQ(got.lines.size(), expected.size()) << "leaf " << leaf << ": " << text;
  for (std::size_t i = 0; i < expected.size(); ++i)
    ASSERT_EQ(got.lines[i], expected[i]) << "line " << i << ", leaf " << leaf;
}

TEST(RopeLines, EmptyAndOneLine) {
  expectSameLines("", 1);
  expectSameLines("no break", 3);
  expectSameLines("one\n", 2);
}

TEST(RopeLines, CrLfSplitAcrossLeavesIsOneTerminator) {
  expectSameLines("ab\r\ncd\r\n", 3); // leaves "ab\r", "\ncd", "\r\n"
  expectSameLines("a\rb\r\r\nc\r", 2);
}

TEST(RopeLines, RandomTextsInLeavesOfEverySize) {
  std::mt19937 random(21);
  const std::vector<std::string> pieces = {"a", "bc", "\n", "\r", "\r\n", "xyz\n", "é"};
  for (int round = 0; round < 400; ++round) {
    std::string text;
    for (int i = 0, n = static_cast<int>(random() % 30); i < n; ++i)
      text += pieces[random() % pieces.size()];
    for (std::size_t leaf : {1u, 2u, 3u, 7u, 64u})
      expectSameLines(text, leaf);
    if (HasFailure()) return;
  }
}

TEST(RopeLines, ALargeRopeKeepsMostLinesAsViews) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "line " + std::to_string(i) + "\n";
  const Rope rope(text);
  const RopeLines got = splitLinesKeepingEnds(rope);
  ASSERT_EQ(got.lines.size(), 20000u);
  EXPECT_LT(got.spill.size(), got.lines.size() / 4) << "only lines across leaves are copied";
}

} // namespace
} // namespace hashline
