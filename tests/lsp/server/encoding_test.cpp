// Position-encoding negotiation (general.positionEncodings, clangd's offsetEncoding) and that
// the chosen encoding is the one the server then uses for didChange ranges.
#include "tests/lsp/support/lsp_client.h"

#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;

json offering(std::vector<std::string> encodings) {
  return {{"general", {{"positionEncodings", encodings}}}};
}

struct NegotiationCase {
  const char* name;
  json capabilities;
  const char* expected;
};

class Negotiation : public ::testing::TestWithParam<NegotiationCase> {};

TEST_P(Negotiation, PicksTheExpectedEncoding) {
  LspClient client;
  json result = client.initialize(GetParam().capabilities);
  EXPECT_EQ(result["capabilities"]["positionEncoding"], GetParam().expected);
  EXPECT_FALSE(result.contains("offsetEncoding"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Negotiation,
    ::testing::Values(NegotiationCase{"NothingOffered", json::object(), "utf-16"},
                      NegotiationCase{"EmptyList", offering({}), "utf-16"},
                      NegotiationCase{"OnlyUtf16", offering({"utf-16"}), "utf-16"},
                      NegotiationCase{"OnlyUtf8", offering({"utf-8"}), "utf-8"},
                      NegotiationCase{"Utf16ThenUtf8", offering({"utf-16", "utf-8"}), "utf-8"},
                      NegotiationCase{"AllThree", offering({"utf-32", "utf-16", "utf-8"}), "utf-8"},
                      NegotiationCase{"OnlyUtf32", offering({"utf-32"}), "utf-32"},
                      NegotiationCase{"Utf32ThenUtf16", offering({"utf-32", "utf-16"}), "utf-16"},
                      NegotiationCase{"UnknownOnly", offering({"ebcdic"}), "utf-16"},
                      NegotiationCase{"MistypedCapabilityIgnored",
                                      {{"general", {{"positionEncodings", "utf-8"}}}},
                                      "utf-16"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Negotiation, OffsetEncodingExtensionIsAnsweredWhenAsked) {
  LspClient client;
  json result = client.initialize({{"offsetEncoding", {"utf-8", "utf-16"}}});
  EXPECT_EQ(result["capabilities"]["positionEncoding"], "utf-8");
  EXPECT_EQ(result["offsetEncoding"], "utf-8");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Negotiation, PositionEncodingsWinOverOffsetEncoding) {
  LspClient client;
  json caps = offering({"utf-16"});
  caps["offsetEncoding"] = {"utf-8"};
  json result = client.initialize(caps);
  EXPECT_EQ(result["capabilities"]["positionEncoding"], "utf-16");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

// The same edit — insert "X" right after 😀 (4 UTF-8 bytes, 2 UTF-16 units, 1 code point) and
// after 中 — spelled in each negotiated encoding must give the same text.
struct ColumnCase {
  const char* encoding;
  std::uint32_t after_emoji;
  std::uint32_t after_cjk;
};

class EncodedColumns : public ::testing::TestWithParam<ColumnCase> {};

TEST_P(EncodedColumns, ChangesAreReadInTheNegotiatedEncoding) {
  const ColumnCase& c = GetParam();
  LspClient client;
  json result = client.initialize(offering({c.encoding}));
  ASSERT_EQ(result["capabilities"]["positionEncoding"], c.encoding);
  const std::string uri = "file:///w/enc.txt";
  client.didOpen(uri, "a\xF0\x9F\x98\x80"
                      "b\n\xE4\xB8\xAD"
                      "c\n");
  client.didChange(uri, 2, {LspClient::change(0, c.after_emoji, 0, c.after_emoji, "X")});
  client.didChange(uri, 3, {LspClient::change(1, c.after_cjk, 1, c.after_cjk, "Y")});
  json snapshot = client.snapshot(uri);
  EXPECT_EQ(snapshot["sha256"], sha256Hex("a\xF0\x9F\x98\x80Xb\n\xE4\xB8\xADYc\n"));
  EXPECT_EQ(snapshot["version"], 3);
  EXPECT_EQ(snapshot["lineCount"], 3);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

INSTANTIATE_TEST_SUITE_P(Encodings, EncodedColumns,
                         ::testing::Values(ColumnCase{"utf-8", 5, 3}, ColumnCase{"utf-16", 3, 1},
                                           ColumnCase{"utf-32", 2, 1}),
                         [](const auto& info) {
                           std::string name = info.param.encoding;
                           name.erase(name.find('-'), 1);
                           return name;
                         });

} // namespace
} // namespace hashline::test
