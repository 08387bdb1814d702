// The one UTF-8 decoder: every length, the boundaries of Unicode's well-formed table, and the
// ill-formed cases (overlong, surrogates, above U+10FFFF, truncated, stray continuation) with
// the length of the maximal subpart one U+FFFD replaces; and the encoder round trip.
#include "engine/support/utf8.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

Utf8Sequence decode(std::string_view bytes, std::size_t at = 0) {
  return decodeUtf8Sequence(bytes, at);
}

void expectValid(std::string_view bytes, char32_t cp) {
  Utf8Sequence sequence = decode(bytes);
  EXPECT_TRUE(sequence.valid()) << static_cast<unsigned>(cp);
  EXPECT_EQ(sequence.length, bytes.size()) << static_cast<unsigned>(cp);
  EXPECT_EQ(sequence.code_point, cp) << static_cast<unsigned>(cp);
  EXPECT_EQ(sequence.ill_formed, 0) << static_cast<unsigned>(cp);
}

void expectIllFormed(std::string_view bytes, int maximal_subpart) {
  Utf8Sequence sequence = decode(bytes);
  EXPECT_FALSE(sequence.valid()) << testing::PrintToString(std::string(bytes));
  EXPECT_EQ(sequence.length, 0);
  EXPECT_EQ(sequence.ill_formed, maximal_subpart) << testing::PrintToString(std::string(bytes));
}

TEST(Utf8Decoder, EveryLengthAndItsBoundaries) {
  expectValid(std::string_view("\0", 1), 0);
  expectValid("A", 'A');
  expectValid("\x7F", 0x7F);
  expectValid("\xC2\x80", 0x80);
  expectValid("\xC3\xA9", 0xE9); // é
  expectValid("\xDF\xBF", 0x7FF);
  expectValid("\xE0\xA0\x80", 0x800);
  expectValid("\xE4\xB8\xAD", 0x4E2D); // 中
  expectValid("\xED\x9F\xBF", 0xD7FF); // just below the surrogates
  expectValid("\xEE\x80\x80", 0xE000); // just above them
  expectValid("\xEF\xBF\xBF", 0xFFFF);
  expectValid("\xF0\x90\x80\x80", 0x10000);
  expectValid("\xF0\x9F\x98\x80", 0x1F600); // 😀, four bytes
  expectValid("\xF4\x8F\xBF\xBF", 0x10FFFF);
}

TEST(Utf8Decoder, Overlong) {
  expectIllFormed("\xC0\x80", 1); // U+0000 in two bytes: C0/C1 never start a sequence
  expectIllFormed("\xC1\xBF", 1);
  expectIllFormed("\xE0\x80\x80", 1); // U+0000 in three
  expectIllFormed("\xE0\x9F\xBF", 1); // U+07FF in three
  expectIllFormed("\xF0\x80\x80\x80", 1);
  expectIllFormed("\xF0\x8F\xBF\xBF", 1); // U+FFFF in four
}

TEST(Utf8Decoder, SurrogatesAndAboveTheLastCodePoint) {
  expectIllFormed("\xED\xA0\x80", 1);             // U+D800
  expectIllFormed("\xED\xBF\xBF", 1);             // U+DFFF
  expectIllFormed("\xED\xA0\x80\xED\xB0\x80", 1); // CESU-8 pair
  expectIllFormed("\xF4\x90\x80\x80", 1);         // U+110000
  expectIllFormed("\xF5\x80\x80\x80", 1);
  expectIllFormed("\xFF", 1);
  expectIllFormed("\xFE", 1);
}

TEST(Utf8Decoder, TruncatedAndStrayBytes) {
  expectIllFormed("\xC3", 1);
  expectIllFormed("\xE4\xB8", 2);
  expectIllFormed("\xF0\x9F\x98", 3);
  expectIllFormed("\xF0\x9F", 2);
  expectIllFormed("\xE4\xB8x", 2); // a continuation missing before ASCII
  expectIllFormed("\xF0\x9F\x98x", 3);
  expectIllFormed("\x80", 1); // a continuation byte as lead
  expectIllFormed("\xBF\xBF", 1);
}

TEST(Utf8Decoder, DecodesAtAnOffsetWithinItsView) {
  const std::string text = "a\xE4\xB8\xAD\xF0\x9F\x98\x80z";
  EXPECT_EQ(decode(text, 1).code_point, 0x4E2Du);
  EXPECT_EQ(decode(text, 4).code_point, 0x1F600u);
  EXPECT_EQ(decode(text, 4).length, 4);
  EXPECT_FALSE(decode(text, 2).valid()); // mid-sequence
  // The view ends inside a sequence: truncated, never read past the view.
  EXPECT_EQ(decode(std::string_view(text).substr(0, 7), 4).ill_formed, 3);
}

TEST(Utf8Decoder, EncoderRoundTrips) {
  for (char32_t cp : {0x0u, 0x41u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xD7FFu, 0xE000u, 0xFFFFu,
                      0x10000u, 0x1F600u, 0x10FFFFu}) {
    std::string bytes;
    appendUtf8CodePoint(bytes, cp);
    expectValid(bytes, cp);
  }
}

} // namespace
} // namespace hashline
