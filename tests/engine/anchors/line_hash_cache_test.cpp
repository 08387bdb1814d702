// Tests for the per-document line-hash cache carried through the ChangeLog
// (engine/anchors/line_hash_cache.h), on a real Document.
#include "engine/anchors/anchor_computer.h"
#include "engine/anchors/digest.h"
#include "engine/anchors/line_hash_cache.h"
#include "engine/anchors/read_lines.h"
#include "engine/anchors/reader.h"
#include "engine/text/document.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline {
namespace {

std::string numberedLines(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i)
    text += "line number " + std::to_string(i) + "\n";
  return text;
}

std::vector<std::uint64_t> uncached(const Rope& text, std::uint32_t first, std::uint32_t last) {
  std::vector<std::uint64_t> out;
  for (std::uint32_t line = first; line <= last; ++line)
    out.push_back(lineHash(readLineText(text, line)));
  return out;
}

ContentChange insertAt(std::uint32_t line, std::uint32_t character, std::string text) {
  return ContentChange{LspPosition{line, character}, LspPosition{line, character}, std::move(text)};
}

TEST(LineHashCache, TypingInOneLineRehashesOnlyThatLine) {
  Document doc(1, numberedLines(1000));
  LineHashCache cache;
  auto first = cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 200);
  EXPECT_EQ(first, uncached(doc.text(), 1, 200));
  EXPECT_EQ(cache.hashesComputed(), 200u);

  ASSERT_TRUE(doc.applyChanges(2, {insertAt(49, 3, "X")}, PositionEncoding::Utf16).ok());
  auto second = cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 200);
  EXPECT_EQ(second, uncached(doc.text(), 1, 200));
  EXPECT_EQ(cache.hashesComputed(), 201u);
  EXPECT_NE(second[49], first[49]);
}

TEST(LineHashCache, InsertedLinesAboveShiftTheRest) {
  Document doc(1, numberedLines(300));
  LineHashCache cache;
  (void)cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 300);
  ASSERT_TRUE(
      doc.applyChanges(2, {insertAt(9, 0, "new a\nnew b\nnew c\n")}, PositionEncoding::Utf16).ok());
  const auto hashes = cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 303);
  EXPECT_EQ(hashes, uncached(doc.text(), 1, 303));
  EXPECT_EQ(cache.hashesComputed(), 303u); // only the three new lines were hashed
}

TEST(LineHashCache, DropsEverythingWithoutCoveringHistory) {
  Document doc(1, numberedLines(50));
  LineHashCache cache;
  (void)cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 50);
  doc.resetText(5, "completely\ndifferent\n");
  EXPECT_EQ(cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 2),
            uncached(doc.text(), 1, 2));
  // A plain text at another id (disk) without a log: recomputed too.
  const Rope other("x\ny\nz\n");
  EXPECT_EQ(cache.lineHashes(other, 99, nullptr, 1, 3), uncached(other, 1, 3));
}

TEST(LineHashCache, OlderSnapshotIsComputedWithoutDisturbingTheCache) {
  Document doc(1, numberedLines(40));
  const Rope old_text = doc.text();
  LineHashCache cache;
  ASSERT_TRUE(doc.applyChanges(2, {insertAt(0, 0, "Z")}, PositionEncoding::Utf16).ok());
  (void)cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 40);
  EXPECT_EQ(cache.lineHashes(old_text, 1, &doc.changeLog(), 1, 40), uncached(old_text, 1, 40));
  EXPECT_EQ(cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1, 40),
            uncached(doc.text(), 1, 40));
}

TEST(LineHashCache, RandomEditsAlwaysAgreeWithFreshHashes) {
  std::mt19937 rng(42);
  Document doc(1, numberedLines(400));
  LineHashCache cache(1000);
  std::int64_t version = 1;
  for (int step = 0; step < 1500; ++step) {
    const std::uint32_t lines = static_cast<std::uint32_t>(doc.text().lineCount());
    const std::uint32_t line = rng() % lines;
    std::vector<ContentChange> changes;
    switch (rng() % 5) {
    case 0:
      changes.push_back(insertAt(line, 0, "ab"));
      break;
    case 1:
      changes.push_back(insertAt(line, 0, "\n"));
      break;
    case 2:
      changes.push_back(insertAt(line, 0, "p\nq\n"));
      break;
    case 3:
      if (line + 1 < lines)
        changes.push_back(ContentChange{LspPosition{line, 0}, LspPosition{line + 1, 0}, ""});
      break;
    default:
      changes.push_back(insertAt(line, 2, "  "));
      break;
    }
    ASSERT_TRUE(doc.applyChanges(++version, changes, PositionEncoding::Utf16).ok());
    if (rng() % 3 != 0) continue;
    const std::uint32_t count = readLineCount(doc.text());
    const std::uint32_t first = 1 + rng() % count;
    const std::uint32_t last = std::min<std::uint32_t>(count, first + rng() % 120);
    ASSERT_EQ(cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), first, last),
              uncached(doc.text(), first, last))
        << "step " << step;
    ASSERT_LE(cache.cachedLines(), 1000u);
  }
  EXPECT_LT(cache.hashesComputed(), 200000u);
}

TEST(LineHashCache, SegmentsAreBounded) {
  Document doc(1, numberedLines(5000));
  LineHashCache cache(1u << 18, 4);
  for (std::uint32_t window = 0; window < 10; ++window)
    (void)cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 1 + window * 400,
                           100 + window * 400);
  EXPECT_LE(cache.cachedLines(), 4u * 100u);
  // The most recent window is still cached.
  const std::size_t computed = cache.hashesComputed();
  (void)cache.lineHashes(doc.text(), doc.version(), &doc.changeLog(), 3601, 3700);
  EXPECT_EQ(cache.hashesComputed(), computed);
}

TEST(LineHashCache, ReaderWithCacheEqualsReaderWithout) {
  Document doc(1, numberedLines(100));
  LineHashCache cache;
  for (Tier tier : {Tier::Line, Tier::Block, Tier::Chain}) {
    auto cached = readWindow(doc.text(), doc.version(), tier, 10, 60, &doc.changeLog(), &cache);
    auto plain = readWindow(doc.text(), doc.version(), tier, 10, 60);
    ASSERT_TRUE(cached.ok() && plain.ok());
    EXPECT_EQ(cached->rows, plain->rows);
  }
}

} // namespace
} // namespace hashline
