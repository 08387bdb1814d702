// Tests for anchor and read-row text forms (engine/anchors/anchor.h).
#include "engine/anchors/anchor.h"
#include "engine/anchors/digest.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

Anchor make(std::uint32_t line, const char* digest, const char* context = nullptr) {
  Anchor anchor;
  anchor.line = line;
  anchor.line_digest = static_cast<std::uint16_t>(parseDigestText(digest));
  if (context) anchor.context_digest = static_cast<std::uint16_t>(parseDigestText(context));
  return anchor;
}

TEST(AnchorText, FormatsBothShapes) {
  EXPECT_EQ(formatAnchor(make(22, "c3d", "rst")), "22:c3d:rst");
  EXPECT_EQ(formatAnchor(make(1, "000")), "1:000");
}

TEST(AnchorText, ParsesAndRoundTrips) {
  for (const char* text : {"22:c3d:rst", "1:000", "123456:zzz:k9m"}) {
    auto anchor = parseAnchor(text);
    ASSERT_TRUE(anchor.ok()) << text;
    EXPECT_EQ(formatAnchor(*anchor), text);
  }
  EXPECT_EQ(*parseAnchor("22:c3d:rst"), make(22, "c3d", "rst"));
  EXPECT_EQ(*parseAnchor("22:c3d"), make(22, "c3d"));
}

TEST(AnchorText, AcceptsDecoration) {
  EXPECT_EQ(*parseAnchor("  22:c3d:rst \n"), make(22, "c3d", "rst"));
  EXPECT_EQ(*parseAnchor("22:c3d:rst\xE2\x86\x92let x = 1;"), make(22, "c3d", "rst"));
  EXPECT_EQ(*parseAnchor("22:c3d:rst->let x"), make(22, "c3d", "rst"));
  EXPECT_EQ(*parseAnchor("22:C3D:RST"), make(22, "c3d", "rst"));
}

TEST(AnchorText, RejectsMalformed) {
  // Scenario 18: line 0, no line number, bad digests — all MALFORMED_ANCHOR, never guessed.
  for (const char* text :
       {"", "22", "0:c3d:rst", "abc:def", ":c3d:rst", "x1:c3d", "22:c3:rst", "22:c3dd:rst",
        "22:c3d:rs", "22:c3d:rst:abc", "22:ilo", "-1:c3d", "22::rst", "1234567890:c3d"}) {
    auto anchor = parseAnchor(text);
    ASSERT_FALSE(anchor.ok()) << text;
    EXPECT_EQ(anchor.error().code, ErrorCode::MalformedAnchor) << text;
    EXPECT_NE(anchor.error().message.find("malformed anchor"), std::string::npos);
  }
  EXPECT_NE(parseAnchor("0:c3d").error().message.find("start at 1"), std::string::npos);
  EXPECT_NE(parseAnchor("abc:def").error().message.find("missing line number"), std::string::npos);
}

TEST(RowText, FormatsAndParses) {
  const Anchor anchor = make(22, "c3d", "rst");
  EXPECT_EQ(formatRow(anchor, "let x = 1;"), "22:c3d:rst\xE2\x86\x92let x = 1;");
  auto row = parseRow("22:c3d:rst\xE2\x86\x92  a \xE2\x86\x92 b");
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->anchor, anchor);
  EXPECT_EQ(row->text, "  a \xE2\x86\x92 b");
  EXPECT_EQ(parseRow("22:c3d:rst let").error().code, ErrorCode::MalformedAnchor);
}

TEST(RowText, DetectsPastedPrefixes) {
  EXPECT_TRUE(startsWithRowPrefix("12:abc:rst\xE2\x86\x92"
                                  "code"));
  EXPECT_TRUE(startsWithRowPrefix("12:abc\xE2\x86\x92"));
  EXPECT_TRUE(startsWithRowPrefix("  7:000:zzz\xE2\x86\x92x"));
  EXPECT_FALSE(startsWithRowPrefix("12:abc:rst code"));
  EXPECT_FALSE(startsWithRowPrefix("a: 12:abc:rst\xE2\x86\x92"));
  EXPECT_FALSE(startsWithRowPrefix("12:ab\xE2\x86\x92"));
  EXPECT_FALSE(startsWithRowPrefix("std::map<int, int> m;"));
  EXPECT_FALSE(startsWithRowPrefix("case 12: return x;"));
  EXPECT_FALSE(startsWithRowPrefix("12:abc:rst:xyz\xE2\x86\x92"));
}

TEST(TierNames, RoundTrip) {
  for (Tier tier : {Tier::Line, Tier::Block, Tier::Chain})
    EXPECT_EQ(tierFromName(tierName(tier)), tier);
  EXPECT_FALSE(tierFromName("chunk").has_value());
}

} // namespace
} // namespace hashline
