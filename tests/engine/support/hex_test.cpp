// The one hex encoder: bytes, both letter cases, and fixed-width 64-bit numbers.
#include "engine/support/hex.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

TEST(Hex, Bytes) {
  EXPECT_EQ(hexOfBytes(std::string_view("\x00\x01\x7f\x80\xab\xff", 6)), "00017f80abff");
  EXPECT_EQ(hexOfBytes(""), "");
  std::string out = "%";
  appendHexByte(out, 0xe4, HexCase::Upper);
  appendHexByte(out, 0x0a);
  EXPECT_EQ(out, "%E40a");
}

TEST(Hex, SixtyFourBitNumbersKeepLeadingZeros) {
  EXPECT_EQ(hex64(0), "0000000000000000");
  EXPECT_EQ(hex64(0x1234abcdULL), "000000001234abcd");
  EXPECT_EQ(hex64(~0ULL), "ffffffffffffffff");
  std::string out = "x";
  appendHex64(out, 0x0123456789abcdefULL);
  EXPECT_EQ(out, "x0123456789abcdef");
}

} // namespace
} // namespace hashline
