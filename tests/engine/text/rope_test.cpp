// Rope: fixed cases for lines, encodings and chunk seams, and randomized edits checked against
// the naive string model in text_model.h (tens of thousands of edits with astral characters,
// CJK, CRLF, lone CR, invalid bytes and a BOM), including snapshots taken along the way.
#include "engine/text/rope.h"
#include "tests/engine/text/text_model.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace hashline {
namespace {

using testing_model::Model;

constexpr PositionEncoding kEncodings[] = {PositionEncoding::Utf8, PositionEncoding::Utf16,
                                           PositionEncoding::Utf32};

TEST(Rope, EmptyRopeHasOneEmptyLine) {
  Rope rope;
  EXPECT_EQ(rope.byteSize(), 0u);
  EXPECT_TRUE(rope.empty());
  EXPECT_EQ(rope.lineCount(), 1u);
  EXPECT_EQ(rope.lineStartByte(0), 0u);
  EXPECT_EQ(rope.lineEndByte(0), 0u);
  EXPECT_EQ(rope.lineOfByte(0), 0u);
  EXPECT_EQ(rope.toString(), "");
  EXPECT_TRUE(rope.checkInvariants());
  auto byte = rope.byteOfPosition({0, 5}, PositionEncoding::Utf16);
  ASSERT_TRUE(byte.ok());
  EXPECT_EQ(*byte, 0u);
  EXPECT_FALSE(rope.byteOfPosition({1, 0}, PositionEncoding::Utf16).ok());
}

TEST(Rope, LineBreakKindsAndTrailingNewline) {
  Rope rope("a\nb\r\nc\rd\n");
  EXPECT_EQ(rope.lineBreaks(), 4u);
  EXPECT_EQ(rope.lineCount(), 5u);
  EXPECT_EQ(rope.lineText(0), "a");
  EXPECT_EQ(rope.lineText(1), "b");
  EXPECT_EQ(rope.lineText(2), "c");
  EXPECT_EQ(rope.lineText(3), "d");
  EXPECT_EQ(rope.lineText(4), "");
  EXPECT_EQ(rope.lineEndByte(1), 3u);
  EXPECT_EQ(rope.lineEndWithBreakByte(1), 5u);
  // A byte inside a terminator belongs to the line the terminator ends.
  EXPECT_EQ(rope.lineOfByte(3), 1u);
  EXPECT_EQ(rope.lineOfByte(4), 1u);
  EXPECT_EQ(rope.lineOfByte(5), 2u);
  EXPECT_EQ(rope.lineOfByte(9), 4u);
}

TEST(Rope, Utf16PositionsCountSurrogatePairs) {
  // "a😀b" then "中é": 😀 is 4 bytes / 2 UTF-16 units / 1 code point.
  Rope rope("a\xF0\x9F\x98\x80"
            "b\n\xE4\xB8\xAD\xC3\xA9");
  EXPECT_EQ(rope.lineLength(0, PositionEncoding::Utf8), 6u);
  EXPECT_EQ(rope.lineLength(0, PositionEncoding::Utf16), 4u);
  EXPECT_EQ(rope.lineLength(0, PositionEncoding::Utf32), 3u);
  EXPECT_EQ(*rope.byteOfPosition({0, 3}, PositionEncoding::Utf16), 5u);
  EXPECT_EQ(*rope.byteOfPosition({0, 2}, PositionEncoding::Utf32), 5u);
  EXPECT_EQ(*rope.byteOfPosition({0, 5}, PositionEncoding::Utf8), 5u);
  auto inside = rope.byteOfPosition({0, 2}, PositionEncoding::Utf16);
  ASSERT_FALSE(inside.ok());
  EXPECT_EQ(inside.error().code, ErrorCode::Desynced);
  auto inside_utf8 = rope.byteOfPosition({0, 2}, PositionEncoding::Utf8);
  ASSERT_FALSE(inside_utf8.ok());
  EXPECT_EQ(inside_utf8.error().code, ErrorCode::Desynced);
  EXPECT_EQ(rope.positionOfByte(5, PositionEncoding::Utf16), (LspPosition{0, 3}));
  EXPECT_EQ(rope.positionOfByte(10, PositionEncoding::Utf16), (LspPosition{1, 1}));
  EXPECT_EQ(rope.positionOfByte(10, PositionEncoding::Utf8), (LspPosition{1, 3}));
}

TEST(Rope, CharacterPastLineEndMeansLineEnd) {
  Rope rope("ab\r\ncd");
  for (auto encoding : kEncodings) {
    EXPECT_EQ(*rope.byteOfPosition({0, 99}, encoding), 2u);
    EXPECT_EQ(*rope.byteOfPosition({1, 99}, encoding), 6u);
    auto past = rope.byteOfPosition({2, 0}, encoding);
    ASSERT_FALSE(past.ok());
    EXPECT_EQ(past.error().code, ErrorCode::Desynced);
  }
}

TEST(Rope, InvalidBytesAreOneUnitEach) {
  // Stray continuation, truncated 3-byte lead, encoded surrogate, BOM.
  Rope rope("\xEF\xBB\xBF"
            "\x80"
            "\xE2\x82"
            "x"
            "\xED\xA0\x80");
  EXPECT_EQ(rope.lineLength(0, PositionEncoding::Utf16), 1u + 1 + 2 + 1 + 3);
  EXPECT_EQ(rope.lineLength(0, PositionEncoding::Utf32), 8u);
  EXPECT_EQ(*rope.byteOfPosition({0, 3}, PositionEncoding::Utf16), 5u);
  EXPECT_TRUE(rope.byteOfPosition({0, 5}, PositionEncoding::Utf8).ok());
  EXPECT_FALSE(rope.byteOfPosition({0, 1}, PositionEncoding::Utf8).ok()); // inside the BOM
}

TEST(Rope, CrlfAcrossAChunkSeamCountsOnce) {
  // Put the CRLF where a naive chunker would cut, and create CRLFs across existing seams.
  for (std::size_t pad = 1000; pad < 1030; ++pad) {
    std::string text(pad, 'a');
    text += "\r\n";
    text += std::string(3000, 'b');
    Rope rope(text);
    ASSERT_TRUE(rope.checkInvariants()) << pad;
    EXPECT_EQ(rope.lineCount(), 2u) << pad;
    EXPECT_EQ(rope.lineStartByte(1), pad + 2) << pad;
  }
  std::string text;
  for (int i = 0; i < 200; ++i)
    text += std::string(37, 'x') + "\r";
  Rope rope(text);
  Model model(text);
  // Insert an LF after every CR, back to front: each one merges with its CR.
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] != '\r') continue;
    rope.replace(i + 1, i + 1, "\n");
    model.text.insert(i + 1, "\n");
  }
  model.analyze();
  ASSERT_TRUE(rope.checkInvariants());
  EXPECT_EQ(rope.toString(), model.text);
  EXPECT_EQ(rope.lineCount(), model.lineCount());
  EXPECT_EQ(rope.lineCount(), 201u);
}

TEST(Rope, MultiByteSequenceFormedAcrossAnEditStaysWhole) {
  std::string text(3000, 'a');
  Rope rope(text);
  // Build 😀 from its halves inserted separately, at many offsets (some at chunk seams).
  for (std::size_t at = 500; at < 2900; at += 97) {
    rope.replace(at, at, "\x98\x80");
    rope.replace(at, at, "\xF0\x9F");
    text.insert(at, "\xF0\x9F\x98\x80");
    ASSERT_TRUE(rope.checkInvariants()) << at;
  }
  EXPECT_EQ(rope.toString(), text);
  Model model(text);
  EXPECT_EQ(rope.lineLength(0, PositionEncoding::Utf16),
            model.units(0, text.size(), PositionEncoding::Utf16));
}

void RopeCheckerForSeams(const Rope& rope, const Model& model,
                         const std::vector<std::size_t>& seams);

/// Byte offsets where one chunk of `rope` ends and the next begins.
std::vector<std::size_t> chunkSeams(const Rope& rope) {
  std::vector<std::size_t> seams;
  std::size_t offset = 0;
  rope.forEachChunk(0, rope.byteSize(), [&](std::string_view piece) {
    if (offset > 0) seams.push_back(offset);
    offset += piece.size();
  });
  return seams;
}

TEST(Rope, EditsAtEveryChunkSeamKeepUnitsWhole) {
  std::string base;
  for (int i = 0; i < 1500; ++i)
    base += "row " + std::to_string(i) + " \xE4\xB8\xAD\n";
  const Rope original(base);
  const std::vector<std::size_t> seams = chunkSeams(original);
  ASSERT_GT(seams.size(), 5u);
  struct Pair {
    std::string left, right; // written over the last bytes before / first bytes after a seam
  };
  const std::vector<Pair> pairs = {{"\r", "\n"},
                                   {"\xF0\x9F", "\x98\x80"},
                                   {"\xE4", "\xB8\xAD"},
                                   {"\xE4\xB8", "\xAD"},
                                   {"\xC3", "\xA9"},
                                   {"\r", "\r\n"},
                                   {"\xF0", "\x9F\x98\x80"},
                                   {"\xF0\x9F\x98", "\x80"}};
  for (const Pair& pair : pairs) {
    for (int order = 0; order < 2; ++order) {
      Rope rope = original;
      std::string text = base;
      for (std::size_t s = 0; s < seams.size(); ++s) {
        const std::size_t seam = seams[s];
        auto writeLeft = [&] {
          rope.replace(seam - pair.left.size(), seam, pair.left);
          text.replace(seam - pair.left.size(), pair.left.size(), pair.left);
        };
        auto writeRight = [&] {
          rope.replace(seam, seam + pair.right.size(), pair.right);
          text.replace(seam, pair.right.size(), pair.right);
        };
        if (order == 0)
          writeLeft(), writeRight();
        else
          writeRight(), writeLeft();
      }
      ASSERT_TRUE(rope.checkInvariants());
      Model model(text);
      RopeCheckerForSeams(rope, model, seams);
    }
  }
  // Deleting the byte between a CR and an LF fuses them across what was a seam.
  Rope rope = original;
  std::string text = base;
  for (auto it = seams.rbegin(); it != seams.rend(); ++it) {
    rope.replace(*it - 1, *it + 1, "\rZ\n");
    text.replace(*it - 1, 2, "\rZ\n");
    rope.replace(*it, *it + 1, "");
    text.erase(*it, 1);
  }
  ASSERT_TRUE(rope.checkInvariants());
  Model model(text);
  RopeCheckerForSeams(rope, model, seams);
  EXPECT_EQ(original.toString(), base);
}

TEST(Rope, CopiesAreSnapshots) {
  Rope rope("one\ntwo\nthree\n");
  Rope snapshot = rope;
  EXPECT_TRUE(snapshot.sharesRootWith(rope));
  rope.replace(4, 7, "2");
  EXPECT_FALSE(snapshot.sharesRootWith(rope));
  EXPECT_EQ(snapshot.toString(), "one\ntwo\nthree\n");
  EXPECT_EQ(rope.toString(), "one\n2\nthree\n");
}

TEST(Rope, MovedFromRopeIsEmptyAndUsable) {
  Rope source("moved\ntext");
  Rope target = std::move(source);
  EXPECT_EQ(target.toString(), "moved\ntext");
  EXPECT_EQ(source.byteSize(), 0u); // NOLINT(bugprone-use-after-move): documented behaviour
  EXPECT_EQ(source.lineCount(), 1u);
  source.replace(0, 0, "again");
  EXPECT_EQ(source.toString(), "again");
  target = std::move(source);
  EXPECT_EQ(target.toString(), "again");
  EXPECT_TRUE(source.empty());
}

TEST(Rope, ForEachChunkCoversTheRangeInOrder) {
  std::string text;
  for (int i = 0; i < 500; ++i)
    text += "line " + std::to_string(i) + "\n";
  Rope rope(text);
  std::string seen;
  int pieces = 0;
  rope.forEachChunk(100, 4000, [&](std::string_view piece) {
    seen += piece;
    ++pieces;
  });
  EXPECT_EQ(seen, text.substr(100, 3900));
  EXPECT_GT(pieces, 1);
}

// --- randomized ---------------------------------------------------------------------------------

/// Pieces chosen to stress the rules: every break kind, multi-byte and astral characters, the
/// halves of a 4-byte sequence (so edits create and break sequences), invalid bytes and a BOM.
const std::vector<std::string>& palette() {
  static const std::vector<std::string> pieces = {"a",
                                                  "xyz",
                                                  "hello world",
                                                  "\t",
                                                  " ",
                                                  "\n",
                                                  "\n",
                                                  "\r\n",
                                                  "\r",
                                                  "\xC3\xA9",
                                                  "\xE4\xB8\xAD",
                                                  "\xE6\x96\x87\xE5\xAD\x97",
                                                  "\xF0\x9F\x98\x80",
                                                  "\xF0\x9F",
                                                  "\x98\x80",
                                                  "\xFF",
                                                  "\x80",
                                                  "\xC3",
                                                  "\xED\xA0\x80",
                                                  "\xEF\xBB\xBF",
                                                  "\xF4\x8F\xBF\xBF",
                                                  "\xE2\x82",
                                                  "\xAC"};
  return pieces;
}

std::string randomText(std::mt19937& rng, std::size_t pieces) {
  std::string text;
  const auto& all = palette();
  for (std::size_t i = 0; i < pieces; ++i)
    text += all[rng() % all.size()];
  return text;
}

class RopeChecker {
public:
  RopeChecker(const Rope& rope, const Model& model) : rope_(rope), model_(model) {}

  void sizes() {
    ASSERT_EQ(rope_.byteSize(), model_.text.size());
    ASSERT_EQ(rope_.lineCount(), model_.lineCount());
  }

  void line(std::size_t line) {
    ASSERT_EQ(rope_.lineStartByte(line), model_.lineStart(line)) << line;
    ASSERT_EQ(rope_.lineEndByte(line), model_.lineEnd(line)) << line;
    ASSERT_EQ(rope_.lineEndWithBreakByte(line), model_.lineEndWithBreak(line)) << line;
  }

  void byte(std::size_t byte) {
    ASSERT_EQ(rope_.lineOfByte(byte), model_.lineOfByte(byte)) << byte;
    if (!model_.isBoundary(byte)) return;
    for (auto encoding : kEncodings) {
      LspPosition position = rope_.positionOfByte(byte, encoding);
      ASSERT_EQ(position, model_.positionOf(byte, encoding)) << byte;
      // Bytes inside a CRLF are not positions; everything else round-trips.
      if (byte > 0 && model_.text[byte - 1] == '\r' && byte < model_.text.size() &&
          model_.text[byte] == '\n')
        continue;
      auto back = rope_.byteOfPosition(position, encoding);
      ASSERT_TRUE(back.ok()) << byte;
      ASSERT_EQ(*back, byte);
    }
  }

  void position(LspPosition position) {
    for (auto encoding : kEncodings) {
      auto expected = model_.byteOf(position, encoding);
      auto actual = rope_.byteOfPosition(position, encoding);
      ASSERT_EQ(actual.ok(), expected.has_value())
          << position.line << ":" << position.character << " in " << encodingName(encoding);
      if (expected) {
        ASSERT_EQ(*actual, *expected);
      } else {
        ASSERT_EQ(actual.error().code, ErrorCode::Desynced);
      }
    }
  }

  void lineLengths(std::size_t line) {
    for (auto encoding : kEncodings)
      ASSERT_EQ(rope_.lineLength(line, encoding),
                model_.units(model_.lineStart(line), model_.lineEnd(line), encoding));
  }

  void everything() {
    ASSERT_TRUE(rope_.checkInvariants());
    ASSERT_EQ(rope_.toString(), model_.text);
    sizes();
    for (std::size_t l = 0; l < model_.lineCount(); ++l) {
      line(l);
      lineLengths(l);
      ASSERT_EQ(rope_.lineText(l),
                model_.text.substr(model_.lineStart(l), model_.lineEnd(l) - model_.lineStart(l)));
      std::uint32_t length = static_cast<std::uint32_t>(model_.lineEnd(l) - model_.lineStart(l));
      for (std::uint32_t c = 0; c <= length + 1; ++c)
        position({static_cast<std::uint32_t>(l), c});
    }
    position({static_cast<std::uint32_t>(model_.lineCount()), 0});
    for (std::size_t b = 0; b <= model_.text.size(); ++b)
      byte(b);
  }

  void probes(std::mt19937& rng, int count) {
    sizes();
    for (int i = 0; i < count; ++i) {
      line(rng() % model_.lineCount());
      byte(rng() % (model_.text.size() + 1));
      std::uint32_t l = static_cast<std::uint32_t>(rng() % (model_.lineCount() + 1));
      position({l, static_cast<std::uint32_t>(rng() % 12)});
    }
  }

private:
  const Rope& rope_;
  const Model& model_;
};

struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

/// A random edit keeping the document roughly within [low, high] bytes.
Edit randomEdit(std::mt19937& rng, std::size_t size, std::size_t low, std::size_t high) {
  Edit edit;
  edit.begin = rng() % (size + 1);
  std::size_t remove = 0;
  std::size_t pieces = 0;
  unsigned roll = rng() % 100;
  if (roll < 3) {
    remove = rng() % 4000;
  } else if (roll < 6) {
    pieces = 100 + rng() % 800;
  } else {
    remove = rng() % 6;
    pieces = rng() % 5;
  }
  if (size > high) pieces /= 4, remove *= 4;
  if (size < low) remove /= 4, pieces *= 3;
  edit.end = std::min(size, edit.begin + remove);
  edit.text = randomText(rng, pieces);
  return edit;
}

void RopeCheckerForSeams(const Rope& rope, const Model& model,
                         const std::vector<std::size_t>& seams) {
  RopeChecker checker(rope, model);
  ASSERT_NO_FATAL_FAILURE(checker.sizes());
  ASSERT_EQ(rope.toString(), model.text);
  for (std::size_t l = 0; l < model.lineCount(); ++l)
    ASSERT_NO_FATAL_FAILURE(checker.line(l));
  for (std::size_t seam : seams) {
    for (std::size_t b = seam - 4; b <= seam + 4 && b <= model.text.size(); ++b)
      ASSERT_NO_FATAL_FAILURE(checker.byte(b));
    std::size_t line = model.lineOfByte(seam);
    for (std::uint32_t c = 0; c < 24; ++c)
      ASSERT_NO_FATAL_FAILURE(checker.position({static_cast<std::uint32_t>(line), c}));
  }
}

TEST(RopeRandomized, HundredThousandEditsMatchTheStringModel) {
  std::mt19937 rng(20261202);
  Model model(randomText(rng, 1500));
  Rope rope(model.text);
  struct Kept {
    Rope rope;
    std::string text;
  };
  std::vector<Kept> snapshots;
  constexpr int kEdits = 100000;
  for (int i = 0; i < kEdits; ++i) {
    Edit edit = randomEdit(rng, model.text.size(), 3000, 12000);
    rope.replace(edit.begin, edit.end, edit.text);
    model.text.replace(edit.begin, edit.end - edit.begin, edit.text);
    ASSERT_EQ(rope.byteSize(), model.text.size());
    if (i % 4 != 0) continue; // the model is re-analyzed from scratch: probe every 4th edit
    model.analyze();
    RopeChecker checker(rope, model);
    ASSERT_NO_FATAL_FAILURE(checker.probes(rng, 8)) << "edit " << i;
    if (i % 64 == 0) {
      ASSERT_TRUE(rope.checkInvariants()) << "edit " << i;
    }
    if (i % 10000 == 0) {
      ASSERT_NO_FATAL_FAILURE(checker.everything()) << "edit " << i;
    }
    if (i % 5000 == 0) snapshots.push_back({rope, model.text});
  }
  model.analyze();
  RopeChecker(rope, model).everything();
  for (const Kept& kept : snapshots) {
    ASSERT_TRUE(kept.rope.checkInvariants());
    ASSERT_EQ(kept.rope.toString(), kept.text);
  }
}

TEST(RopeRandomized, DeepTreeEditsMatchTheStringModel) {
  // ~400 KB: four levels of nodes, so splits and joins cross several heights.
  std::mt19937 rng(7);
  Model model(randomText(rng, 120000));
  Rope rope(model.text);
  const Rope original = rope;
  const std::string original_text = model.text;
  for (int i = 0; i < 4000; ++i) {
    Edit edit = randomEdit(rng, model.text.size(), 300000, 500000);
    rope.replace(edit.begin, edit.end, edit.text);
    model.text.replace(edit.begin, edit.end - edit.begin, edit.text);
    if (i % 50 == 0) {
      model.analyze();
      RopeChecker checker(rope, model);
      ASSERT_NO_FATAL_FAILURE(checker.probes(rng, 50)) << "edit " << i;
      ASSERT_TRUE(rope.checkInvariants()) << "edit " << i;
      ASSERT_EQ(rope.toString(), model.text);
    }
  }
  EXPECT_EQ(original.toString(), original_text);
  EXPECT_TRUE(original.checkInvariants());
}

TEST(RopeRandomized, CopiesEditedOnSeveralThreads) {
  // Each thread edits its own copy of one shared rope (and drops copies as it goes), so node
  // reference counts change concurrently while nodes are updated in place or copied.
  std::mt19937 seed_rng(5);
  const std::string base = randomText(seed_rng, 20000);
  const Rope shared(base);
  std::vector<std::string> failures(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(100 + t);
      Rope rope = shared;
      std::string text = base;
      std::vector<Rope> kept;
      for (int i = 0; i < 3000; ++i) {
        Edit edit = randomEdit(rng, text.size(), 20000, 80000);
        rope.replace(edit.begin, edit.end, edit.text);
        text.replace(edit.begin, edit.end - edit.begin, edit.text);
        if (i % 100 == 0) kept.push_back(rope);
        if (kept.size() > 3) kept.erase(kept.begin());
      }
      if (rope.toString() != text || !rope.checkInvariants()) failures[t] = "thread diverged";
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (const std::string& failure : failures)
    EXPECT_EQ(failure, "");
  EXPECT_EQ(shared.toString(), base);
  EXPECT_TRUE(shared.checkInvariants());
}

TEST(RopeRandomized, LargeSplicesMatchTheStringModel) {
  // Pastes and deletions of up to a few hundred KB: joins of trees of many different heights.
  std::mt19937 rng(31);
  std::string text = randomText(rng, 50000);
  Rope rope(text);
  for (int i = 0; i < 300; ++i) {
    std::size_t begin = rng() % (text.size() + 1);
    std::size_t remove = text.size() > 600000 ? rng() % 300000 : rng() % 20000;
    std::size_t end = std::min(text.size(), begin + remove);
    std::string insert = randomText(rng, rng() % 2 ? rng() % 60000 : rng() % 50);
    rope.replace(begin, end, insert);
    text.replace(begin, end - begin, insert);
    ASSERT_EQ(rope.byteSize(), text.size()) << i;
    if (i % 10 == 0) {
      ASSERT_TRUE(rope.checkInvariants()) << i;
      ASSERT_EQ(rope.toString(), text) << i;
    }
  }
  Model model(text);
  RopeChecker checker(rope, model);
  checker.probes(rng, 500);
}

TEST(RopeRandomized, GrowFromEmptyAndShrinkToEmpty) {
  std::mt19937 rng(99);
  Rope rope;
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    std::size_t at = rng() % (text.size() + 1);
    std::string piece = randomText(rng, rng() % 8);
    rope.replace(at, at, piece);
    text.insert(at, piece);
  }
  ASSERT_TRUE(rope.checkInvariants());
  ASSERT_EQ(rope.toString(), text);
  while (!text.empty()) {
    std::size_t at = rng() % text.size();
    std::size_t length = std::min<std::size_t>(text.size() - at, 1 + rng() % 40);
    rope.replace(at, at + length, "");
    text.erase(at, length);
    ASSERT_EQ(rope.byteSize(), text.size());
  }
  EXPECT_TRUE(rope.checkInvariants());
  EXPECT_EQ(rope.lineCount(), 1u);
  EXPECT_EQ(rope.toString(), "");
}

} // namespace
} // namespace hashline
