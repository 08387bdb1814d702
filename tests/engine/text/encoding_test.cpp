// Position encoding names as negotiated in LSP `general.positionEncodings`.
#include "engine/text/encoding.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

TEST(PositionEncoding, NamesRoundTrip) {
  for (auto encoding : {PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32})
    EXPECT_EQ(encodingFromName(encodingName(encoding)), encoding);
  EXPECT_EQ(encodingName(PositionEncoding::Utf16), "utf-16");
  EXPECT_EQ(encodingFromName("utf-8"), PositionEncoding::Utf8);
  EXPECT_EQ(encodingFromName("UTF-16"), std::nullopt); // LSP names are lower case
  EXPECT_EQ(encodingFromName("utf-7"), std::nullopt);
}

} // namespace
} // namespace hashline
