// Tests for minimal byte edits (engine/diff/minimal_edits.h).
#include "engine/diff/minimal_edits.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline {
namespace {

std::string applyEdits(std::string text, const std::vector<ByteEdit>& edits) {
  for (auto it = edits.rbegin(); it != edits.rend(); ++it)
    text.replace(it->begin, it->end - it->begin, it->text);
  return text;
}

bool isBoundary(std::string_view s, std::size_t at) {
  if (at == 0 || at >= s.size()) return true;
  if ((static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) return false;
  return !(s[at - 1] == '\r' && s[at] == '\n');
}

void expectWellFormed(std::string_view before, const std::vector<ByteEdit>& edits) {
  for (std::size_t i = 0; i < edits.size(); ++i) {
    EXPECT_LE(edits[i].begin, edits[i].end);
    EXPECT_TRUE(isBoundary(before, edits[i].begin)) << edits[i].begin;
    EXPECT_TRUE(isBoundary(before, edits[i].end)) << edits[i].end;
    if (i > 0) {
      EXPECT_LE(edits[i - 1].end, edits[i].begin);
    }
  }
}

TEST(MinimalEdits, OneWordInsideAReplacedBlock) {
  const std::string before = "fn a() {\n  let x = 1;\n  return x;\n}\n";
  const std::string after = "fn a() {\n  let y = 1;\n  return x;\n}\n";
  const auto edits = minimalEdits(before, after);
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0], (ByteEdit{15, 16, "y"}));
  EXPECT_EQ(applyEdits(before, edits), after);
}

TEST(MinimalEdits, InsertedLineIsAPureInsertion) {
  const auto edits = minimalEdits("a\nb\n", "a\nnew\nb\n");
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].begin, edits[0].end);
  EXPECT_EQ(applyEdits("a\nb\n", edits), "a\nnew\nb\n");
}

TEST(MinimalEdits, NeverSplitsUtf8OrCrlf) {
  // é (C3 A9) → è (C3 A8): common lead byte, but the edit must cover the whole character.
  auto edits = minimalEdits("caf\xC3\xA9\n", "caf\xC3\xA8\n");
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0], (ByteEdit{3, 5, "\xC3\xA8"}));
  // CRLF → LF: the CR goes, the edit does not end between CR and LF.
  edits = minimalEdits("a\r\nb\r\n", "a\nb\r\n");
  expectWellFormed("a\r\nb\r\n", edits);
  EXPECT_EQ(applyEdits("a\r\nb\r\n", edits), "a\nb\r\n");
  // Emoji (4 bytes) replaced by another sharing 3 bytes.
  edits = minimalEdits("x\xF0\x9F\x98\x80y", "x\xF0\x9F\x98\x81y");
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0], (ByteEdit{1, 5, "\xF0\x9F\x98\x81"}));
}

TEST(MinimalEdits, IdenticalTextsGiveNoEdits) {
  EXPECT_TRUE(minimalEdits("same\n", "same\n").empty());
}

TEST(MinimalEdits, PlanOverRopeKeepsOffsetsAndOrder) {
  const Rope base("l1\nl2\nl3\nl4\nl5\n");
  EditPlan plan;
  plan.edits = {ByteEdit{0, 6, "l1\nL2\n"}, ByteEdit{9, 15, "l4\nl5\nl6\n"}};
  const auto minimized = minimizePlan(base, plan);
  EXPECT_EQ(applyPlan(base, minimized).toString(), applyPlan(base, plan).toString());
  ASSERT_EQ(minimized.edits.size(), 2u);
  EXPECT_EQ(minimized.edits[0], (ByteEdit{3, 4, "L"}));
  EXPECT_EQ(minimized.edits[1], (ByteEdit{15, 15, "l6\n"}));
}

TEST(MinimalEdits, RandomTextsRoundTripWithBoundarySafeEdits) {
  std::mt19937 rng(11);
  const std::vector<std::string> pieces = {
      "a", "b", " ", "\n", "\r\n", "\r", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "xyz"};
  auto random_text = [&](std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i)
      s += pieces[rng() % pieces.size()];
    return s;
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const std::string before = random_text(rng() % 25);
    std::string after = before;
    // Mutate by splicing whole pieces at piece boundaries of a re-generated text.
    after = rng() % 2 ? random_text(rng() % 25) : before + random_text(rng() % 4);
    if (rng() % 3 == 0) after = random_text(3) + before;
    const auto edits = minimalEdits(before, after);
    ASSERT_EQ(applyEdits(before, edits), after) << trial;
    expectWellFormed(before, edits);
    for (const auto& edit : edits) {
      const std::string replaced = before.substr(edit.begin, edit.end - edit.begin);
      ASSERT_NE(replaced, edit.text);
    }
  }
}

} // namespace
} // namespace hashline
