// Line sources of the hunk locator (engine/journal/line_source.h): a Rope read in place has the
// lines splitLinesKeepingEnds finds in the flat text — the same count, each line equal by lineIs
// (and a line one byte off not), the same lines from forEachLine — for texts of LF, CRLF and lone
// CR lines cut into leaves of every size, so lines and CRLF pairs cross leaf boundaries.
#include "engine/diff/line_diff.h"
#include "engine/journal/line_source.h"
#include "tests/engine/text/rope_pieces.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace hashline::journal {
namespace {

void expectSameLines(const std::string& text, std::size_t leaf) {
  const std::vector<std::string_view> expected = splitLinesKeepingEnds(std::string_view(text));
  const Rope rope = testing_model::ropeOfPieces(text, leaf);
  const RopeLineSource source(rope);
  ASSERT_EQ(source.size(), expected.size()) << "leaf " << leaf << ": " << text;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_TRUE(source.lineIs(i, expected[i])) << "line " << i << ", leaf " << leaf;
    ASSERT_FALSE(source.lineIs(i, std::string(expected[i]) + "x")) << "line " << i;
    if (!expected[i].empty()) {
      ASSERT_FALSE(source.lineIs(i, expected[i].substr(1))) << "line " << i;
    }
  }
  std::vector<std::string> visited;
  source.forEachLine([&](std::string_view line) { visited.emplace_back(line); });
  ASSERT_EQ(visited.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    ASSERT_EQ(visited[i], expected[i]) << "line " << i << ", leaf " << leaf;
  const ViewLines views(expected);
  EXPECT_EQ(views.size(), expected.size());
}

TEST(RopeLineSource, EdgeTexts) {
  for (std::size_t leaf : {1, 2, 3, 7})
    for (const char* text : {"", "a", "\n", "a\n", "a\nb", "ab\r\ncd\r\n", "a\rb\r\r\nc\r", "\r\r"})
      expectSameLines(text, leaf);
}

TEST(RopeLineSource, RandomTextsInLeavesOfEverySize) {
  std::mt19937 random(21);
  const char* pieces[] = {"alpha", "b", "\n", "\r", "\r\n", " "};
  for (int round = 0; round < 200; ++round) {
    std::string text;
    for (std::size_t i = random() % 40; i > 0; --i)
      text += pieces[random() % 6];
    for (std::size_t leaf : {1, 2, 5, 16})
      expectSameLines(text, leaf);
  }
}

} // namespace
} // namespace hashline::journal
