// Tests of the codex patch form's seek index (engine/forms/line_index.h): every match from the
// cursor, the ladder's fallback tiers (each only when the stricter finds nothing), EOF anchoring,
// chunks located in order, laziness, hash-bucket collisions, and agreement with a plain scan.
#include "engine/forms/line_index.h"
#include "engine/forms/patch_plan.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline::forms {
namespace {

using Lines = std::vector<std::string>;
using Places = std::vector<std::size_t>;

// The reference: a scan of every position, tier by tier (what the planner did before the index).
Places scan(const LineTable& table, std::size_t count, const Lines& pattern, std::size_t start,
            bool eof) {
  const std::size_t p = pattern.size();
  Places found;
  if (p > count) return found;
  const std::size_t lo = eof ? count - p : start;
  if (lo < start) return found;
  for (std::size_t tier = 0; tier < LineIndex::kTiers && found.empty(); ++tier)
    for (std::size_t at = lo; at + p <= count; ++at) {
      bool match = true;
      for (std::size_t k = 0; k < p && match; ++k)
        match =
            LineIndex::tierKey(table.content(at + k), tier) == LineIndex::tierKey(pattern[k], tier);
      if (match) found.push_back(at);
    }
  return found;
}

TEST(LineIndex, FindsEveryMatchFromTheCursor) {
  LineTable table("a\nb\nc\na\nb\nx\na\nb\n");
  LineIndex index(table);
  EXPECT_EQ(index.size(), 8u);
  EXPECT_EQ(index.seek({"a", "b"}, 0, false), (Places{0, 3, 6}));
  EXPECT_EQ(index.seek({"a", "b"}, 1, false), (Places{3, 6}));
  EXPECT_EQ(index.seek({"a", "b"}, 6, false), (Places{6}));
  EXPECT_EQ(index.seek({"a", "b"}, 7, false), Places{});
  EXPECT_EQ(index.seek({"b", "c"}, 0, false), (Places{1}));
  EXPECT_EQ(index.seek({"a", "b", "x"}, 0, false), (Places{3}));
  EXPECT_EQ(index.seek({"a", "b", "c", "a", "b", "c"}, 0, false), Places{});
  EXPECT_EQ(index.seek({"x", "a", "b"}, 0, false), (Places{5}));
}

TEST(LineIndex, PatternRunningPastTheEndDoesNotMatch) {
  LineTable table("a\nb\na\n");
  LineIndex index(table);
  EXPECT_EQ(index.seek({"a", "b"}, 0, false), (Places{0}));
  EXPECT_EQ(index.seek({"a", "b", "a", "b"}, 0, false), Places{});
}

TEST(LineIndex, RarestLineIsThePivotWhateverItsPlace) {
  // "}" is everywhere; the pattern's only rare line is its last.
  std::string text;
  for (int i = 0; i < 200; ++i)
    text += "}\n";
  text += "}\nunique\n}\n";
  LineTable table(text);
  LineIndex index(table);
  EXPECT_EQ(index.seek({"}", "}", "unique"}, 0, false), (Places{199}));
  EXPECT_EQ(index.seek({"}", "}", "unique"}, 199, false), (Places{199}));
  EXPECT_EQ(index.seek({"}", "}", "unique"}, 200, false), Places{});
  EXPECT_EQ(index.seek({"}"}, 195, false), (Places{195, 196, 197, 198, 199, 200, 202}));
}

TEST(LineIndex, FallsBackTierByTierOnlyWhenNothingMatches) {
  // Line 1 matches "x" exactly; line 3 only with its trailing spaces trimmed; line 5 only with
  // both ends trimmed; line 7 only loosely (typographic quote and a non-breaking space).
  LineTable table("x\ny  \nz\n  w \nq\n\xE2\x80\x9Cv\xE2\x80\x9D\xC2\xA0\n");
  LineIndex index(table);
  EXPECT_EQ(index.seek({"x"}, 0, false), (Places{0}));
  EXPECT_EQ(index.builtTiers(), 1u); // an exact hit builds nothing more
  EXPECT_EQ(index.seek({"y"}, 0, false), (Places{1}));
  EXPECT_EQ(index.seek({"w"}, 0, false), (Places{3}));
  EXPECT_EQ(index.seek({"\"v\""}, 0, false), (Places{5}));
  EXPECT_EQ(index.builtTiers(), 4u);
  EXPECT_EQ(index.seek({"nowhere"}, 0, false), Places{});
}

TEST(LineIndex, AnExactMatchLaterBeatsAFuzzyOneEarlier) {
  LineTable table("foo  \nbar\nfoo\nbar\n");
  LineIndex index(table);
  EXPECT_EQ(index.seek({"foo", "bar"}, 0, false), (Places{2}));
  // Past the exact one, only the fuzzy one would match: there is none after the cursor.
  EXPECT_EQ(index.seek({"foo", "bar"}, 3, false), Places{});
  EXPECT_EQ(index.seek({"foo  ", "bar"}, 0, false), (Places{0}));
}

TEST(LineIndex, EndOfFileAnchorsToTheLastLines) {
  LineTable table("a\nb\na\nb\n");
  LineIndex index(table);
  EXPECT_EQ(index.seek({"a", "b"}, 0, true), (Places{2}));
  EXPECT_EQ(index.seek({"a"}, 0, true), Places{});
  EXPECT_EQ(index.seek({"b"}, 0, true), (Places{3}));
  EXPECT_EQ(index.seek({"a", "b"}, 3, true), Places{}); // the cursor is past the place
  EXPECT_EQ(index.seek({"b  "}, 0, true), (Places{3})); // tiers apply at EOF too
  LineTable unterminated("a\nb");
  LineIndex last(unterminated);
  EXPECT_EQ(last.seek({"b"}, 0, true), (Places{1}));
}

TEST(LineIndex, EmptyFileAndEmptyPattern) {
  LineTable empty("");
  LineIndex none(empty);
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.seek({"a"}, 0, false), Places{});
  EXPECT_EQ(none.seek({}, 0, false), (Places{0}));
  LineTable table("a\nb\n");
  LineIndex index(table);
  EXPECT_EQ(index.seek({}, 1, false), (Places{1, 2}));
  EXPECT_EQ(index.seek({}, 0, true), (Places{2}));
  EXPECT_EQ(index.seek({""}, 0, false), Places{});
}

TEST(LineIndex, CrlfAndBomAreNotPartOfTheLines) {
  LineTable table("\xEF\xBB\xBF"
                  "a\r\nb\r\na\r\n");
  LineIndex index(table);
  EXPECT_EQ(index.seek({"a"}, 0, false), (Places{0, 2}));
  EXPECT_EQ(index.seek({"b", "a"}, 0, false), (Places{1}));
}

TEST(LineIndex, AgreesWithAPlainScanOnRandomFiles) {
  // Few distinct lines (so many repeats and bucket neighbours), with whitespace variants.
  const Lines alphabet = {"a", "b", " a", "a ", "\tb", "}", "", "c\xC2\xA0", "c"};
  std::mt19937 random(15);
  for (int round = 0; round < 40; ++round) {
    std::string text;
    const int lines = 1 + static_cast<int>(random() % 60);
    for (int i = 0; i < lines; ++i)
      text += alphabet[random() % alphabet.size()] + "\n";
    LineTable table(text);
    LineIndex index(table);
    for (int probe = 0; probe < 30; ++probe) {
      Lines pattern;
      const int p = static_cast<int>(random() % 4);
      for (int k = 0; k < p; ++k)
        pattern.push_back(alphabet[random() % alphabet.size()]);
      const std::size_t start = random() % (index.size() + 1);
      const bool eof = random() % 4 == 0;
      ASSERT_EQ(index.seek(pattern, start, eof), scan(table, index.size(), pattern, start, eof))
          << "round " << round << " probe " << probe;
    }
  }
}

TEST(LineIndex, ChunksOfOneHunkAreLocatedInOrder) {
  // The same context twice: the second chunk is found after the first one's place, and a chunk
  // that only matches before the cursor is not found.
  std::string before = "f\nx = 1\ng\nx = 1\nh\n";
  Result<PatchPlan> ok =
      planPatch("*** Begin Patch\n*** Update File: f.txt\n@@\n f\n-x = 1\n"
                "+x = 2\n@@\n g\n-x = 1\n+x = 3\n*** End Patch\n",
                [&](const std::string&) {
                  return Result<std::optional<FileSnapshot>>(FileSnapshot{Rope(before), 1});
                });
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->files[0].new_text->toString(), "f\nx = 2\ng\nx = 3\nh\n");
  Result<PatchPlan> backwards =
      planPatch("*** Begin Patch\n*** Update File: f.txt\n@@\n g\n-x = 1\n+x = 3\n@@\n f\n-x = 1\n"
                "+x = 2\n*** End Patch\n",
                [&](const std::string&) {
                  return Result<std::optional<FileSnapshot>>(FileSnapshot{Rope(before), 1});
                });
  ASSERT_FALSE(backwards.ok());
  EXPECT_EQ(backwards.error().code, ErrorCode::NotFound);
}

TEST(LineIndex, ManyHunksOnALargeFileMatchAPlainScan) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "line " + std::to_string(i % 1000) + "\n"; // every line occurs 20 times
  LineTable table(text);
  LineIndex index(table);
  for (std::size_t start : {0u, 1u, 999u, 5000u, 19000u, 19999u})
    for (const Lines& pattern :
         {Lines{"line 7"}, Lines{"line 998", "line 999", "line 0"}, Lines{"line 5", "line 7"}})
      EXPECT_EQ(index.seek(pattern, start, false),
                scan(table, index.size(), pattern, start, false));
}

} // namespace
} // namespace hashline::forms
