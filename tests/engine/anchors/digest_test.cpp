// Tests for line normalization, XXH3 digests and the digest alphabet (engine/anchors/digest.h).
#include "engine/anchors/digest.h"
#include "engine/anchors/normalize.h"

#include <gtest/gtest.h>
#include <set>
#include <vector>
#include <xxhash.h>

namespace hashline {
namespace {

TEST(Normalize, TrimsAndCollapsesAsciiWhitespace) {
  EXPECT_EQ(normalizeLine("  let  x =\t1;  "), "let x = 1;");
  EXPECT_EQ(normalizeLine("\t\v\f\r a \t\v b\r"), "a b");
  EXPECT_EQ(normalizeLine(""), "");
  EXPECT_EQ(normalizeLine(" \t "), "");
  EXPECT_EQ(normalizeLine("returnx"), "returnx");
}

TEST(Normalize, NonAsciiSpacesAreContent) {
  // NBSP (U+00A0) and ideographic space (U+3000) are kept as bytes.
  EXPECT_EQ(normalizeLine("a\xC2\xA0 b"), "a\xC2\xA0 b");
  EXPECT_EQ(normalizeLine("\xE3\x80\x80x"), "\xE3\x80\x80x");
}

TEST(LineHash, IsXxh3OfTheNormalizedLine) {
  const std::string normalized = "let x = 1;";
  EXPECT_EQ(lineHash("  let  x =\t1;  "), XXH3_64bits(normalized.data(), normalized.size()));
  EXPECT_EQ(lineHash(""), XXH3_64bits("", 0));
}

TEST(LineHash, WhitespaceInsensitiveButNotWhitespaceBlind) {
  // Scenario 2: indentation and inner runs do not matter; removing a separation does.
  EXPECT_EQ(lineHash("  let  x =\t1;  "), lineHash("let x = 1;"));
  EXPECT_EQ(lineHash("\t\treturn x;"), lineHash("    return x;"));
  EXPECT_NE(lineHash("return x"), lineHash("returnx"));
}

TEST(DigestText, FiveBitsPerCharacterLowBitsFirst) {
  EXPECT_EQ(digestText(0), "000");
  EXPECT_EQ(digestText(1), "100");
  EXPECT_EQ(digestText(31), "z00");
  EXPECT_EQ(digestText(32), "010");
  EXPECT_EQ(digestText(0x7fff), "zzz");
  EXPECT_EQ(digestText(static_cast<std::uint16_t>(10 | (18 << 5) | (17 << 10))), "ajh");
  EXPECT_EQ(digestValue(0xFFFFFFFFFFFF8000ull), 0);
  EXPECT_EQ(digestValue(0x12345ull), 0x2345);
}

TEST(DigestText, RoundTripsAndRejectsOutsideTheAlphabet) {
  for (int value = 0; value < (1 << 15); value += 7)
    EXPECT_EQ(parseDigestText(digestText(static_cast<std::uint16_t>(value))), value);
  EXPECT_EQ(parseDigestText("AJH"), parseDigestText("ajh"));
  EXPECT_EQ(parseDigestText("abi"), -1); // i, l, o, u are not in the alphabet
  EXPECT_EQ(parseDigestText("lou"), -1);
  EXPECT_EQ(parseDigestText("ab"), -1);
  EXPECT_EQ(parseDigestText("abcd"), -1);
  EXPECT_EQ(parseDigestText("a-c"), -1);
}

TEST(DigestText, AlphabetIs32DistinctCharacters) {
  std::set<char> chars(kDigestAlphabet.begin(), kDigestAlphabet.end());
  EXPECT_EQ(chars.size(), 32u);
}

TEST(CombineLineHashes, IsXxh3OverLittleEndianWords) {
  const std::vector<std::uint64_t> hashes = {0x0102030405060708ull, 0xA1B2C3D4E5F60718ull, 7};
  std::vector<unsigned char> bytes;
  for (auto h : hashes)
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<unsigned char>(h >> (8 * i)));
  EXPECT_EQ(combineLineHashes(hashes), XXH3_64bits(bytes.data(), bytes.size()));
}

TEST(ChainHasher, StreamingEqualsOneShotAtEveryPrefix) {
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < 100; ++i)
    hashes.push_back(lineHash("line " + std::to_string(i)));
  ChainHasher chain;
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    chain.feed(hashes[i]);
    EXPECT_EQ(chain.digest(), combineLineHashes(std::span(hashes.data(), i + 1))) << i;
  }
  chain.reset();
  chain.feed(hashes[5]);
  EXPECT_EQ(chain.digest(), combineLineHashes(std::span(hashes.data() + 5, 1)));
}

TEST(Geometry, AlignedBlocksAndCheckpoints) {
  EXPECT_EQ(blockFirstLine(1), 1u);
  EXPECT_EQ(blockFirstLine(8), 1u);
  EXPECT_EQ(blockFirstLine(9), 9u);
  EXPECT_EQ(blockFirstLine(16), 9u);
  EXPECT_EQ(blockFirstLine(17), 17u);
  EXPECT_EQ(chainFirstLine(1), 1u);
  EXPECT_EQ(chainFirstLine(32), 1u);
  EXPECT_EQ(chainFirstLine(33), 33u);
  EXPECT_EQ(chainFirstLine(64), 33u);
}

} // namespace
} // namespace hashline
