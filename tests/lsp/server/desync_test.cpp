// Every way a change can fail to apply marks the document DESYNCED: the editor is told
// (window/logMessage, type Error), hashline/snapshot refuses with the DESYNCED error, later
// incremental changes are ignored, and a full-text change or a didOpen brings it back.
#include "tests/lsp/support/lsp_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

const std::string kUri = "file:///w/d.txt";
const std::string kText = "a\xF0\x9F\x98\x80"
                          "b\nsecond \xE4\xB8\xAD\n"; // "a😀b", "second 中", ""

struct DesyncCase {
  const char* name;
  const char* encoding;
  std::int64_t version; // of the bad didChange (the document is at version 5)
  std::vector<json> changes; // a vector, not a json: `{change(...)}` is an array in every compiler
};

json change(std::uint32_t l0, std::uint32_t c0, std::uint32_t l1, std::uint32_t c1,
            const std::string& text = "x") {
  return LspClient::change(l0, c0, l1, c1, text);
}

class Desync : public ::testing::TestWithParam<DesyncCase> {
protected:
  void openAt5(LspClient& client) {
    client.initialize({{"general", {{"positionEncodings", {GetParam().encoding}}}}});
    client.didOpen(kUri, kText, 5);
    ASSERT_EQ(client.snapshot(kUri)["version"], 5);
  }
  void expectDesynced(LspClient& client) {
    json error = client.callError("hashline/snapshot", {{"textDocument", {{"uri", kUri}}}});
    EXPECT_EQ(error["code"], -32803);
    EXPECT_EQ(error["data"]["code"], "DESYNCED");
    EXPECT_FALSE(error["data"]["hint"].get<std::string>().empty());
  }
};

TEST_P(Desync, IsReportedAndRefusedUntilAFullText) {
  LspClient client;
  openAt5(client);
  client.didChange(kUri, GetParam().version, GetParam().changes);
  json message = client.waitNotification("window/logMessage");
  EXPECT_EQ(message["params"]["type"], 1);
  EXPECT_THAT(message["params"]["message"].get<std::string>(), HasSubstr(kUri));
  expectDesynced(client);

  // Further incremental changes are not guessed at.
  client.didChange(kUri, 20, {change(0, 0, 0, 0, "z")});
  expectDesynced(client);

  // A full-text change resynchronizes.
  client.didChange(kUri, 21, {LspClient::fullChange("fresh\n")});
  json snapshot = client.snapshot(kUri);
  EXPECT_EQ(snapshot["sha256"], sha256Hex("fresh\n"));
  EXPECT_EQ(snapshot["version"], 21);
  json resynced = client.waitNotification("window/logMessage");
  EXPECT_EQ(resynced["params"]["type"], 3);

  // And incremental sync works again from there.
  client.didChange(kUri, 22, {change(0, 5, 0, 5, "!")});
  EXPECT_EQ(client.snapshot(kUri)["sha256"], sha256Hex("fresh!\n"));
  EXPECT_TRUE(client.running());
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_P(Desync, DidOpenRecovers) {
  LspClient client;
  openAt5(client);
  client.didChange(kUri, GetParam().version, GetParam().changes);
  expectDesynced(client);
  client.didOpen(kUri, "reopened\n", 1); // any version: a didOpen starts over
  json snapshot = client.snapshot(kUri);
  EXPECT_EQ(snapshot["sha256"], sha256Hex("reopened\n"));
  EXPECT_EQ(snapshot["version"], 1);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Desync,
    ::testing::Values(
        DesyncCase{"LinePastTheEnd", "utf-16", 6, {change(3, 0, 3, 0)}},
        DesyncCase{"RangeEndPastTheEnd", "utf-16", 6, {change(1, 0, 7, 0)}},
        DesyncCase{"InsideSurrogatePair", "utf-16", 6, {change(0, 2, 0, 2)}},
        DesyncCase{"InsideUtf8Sequence", "utf-8", 6, {change(0, 2, 0, 2)}},
        DesyncCase{"InsideCjkUtf8", "utf-8", 6, {change(1, 8, 1, 8)}},
        DesyncCase{"EndBeforeStart", "utf-16", 6, {change(1, 3, 0, 1)}},
        DesyncCase{"VersionGoingBackwards", "utf-16", 4, {change(0, 0, 0, 0)}},
        DesyncCase{"VersionNotIncreasing", "utf-16", 5, {change(0, 0, 0, 0)}},
        DesyncCase{
            "SecondChangeOfABatchFails", "utf-16", 6, {change(0, 0, 0, 0), change(9, 0, 9, 0)}},
        DesyncCase{"HalfARange",
                   "utf-16",
                   6,
                   {{{"range", {{"start", {{"line", 0}, {"character", 0}}}}}, {"text", "x"}}}},
        DesyncCase{"WrongTypesInChange", "utf-16", 6, {{{"range", "not a range"}, {"text", "x"}}}},
        DesyncCase{"NegativeLine",
                   "utf-16",
                   6,
                   {{{"range",
                      {{"start", {{"line", -1}, {"character", 0}}},
                       {"end", {{"line", -1}, {"character", 0}}}}},
                     {"text", "x"}}}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(DesyncRecovery, FullTextInTheMiddleOfABatchResyncsFromThere) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "abc\n", 1);
  client.didChange(kUri, 2, {change(5, 0, 5, 0)}); // line past the end
  client.waitNotification("window/logMessage");
  client.didChange(
      kUri, 3,
      {change(0, 0, 0, 0, "ignored"), LspClient::fullChange("new\n"), change(0, 3, 0, 3, "!")});
  json snapshot = client.snapshot(kUri);
  EXPECT_EQ(snapshot["sha256"], sha256Hex("new!\n"));
  EXPECT_EQ(snapshot["version"], 3);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(DesyncRecovery, OtherDocumentsStayInSync) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "abc\n", 1);
  client.didOpen("file:///w/other.txt", "other\n", 1);
  client.didChange(kUri, 2, {change(5, 0, 5, 0)});
  client.didChange("file:///w/other.txt", 2, {change(0, 5, 0, 5, "!")});
  EXPECT_EQ(client.snapshot("file:///w/other.txt")["sha256"], sha256Hex("other!\n"));
  EXPECT_EQ(
      client.callError("hashline/snapshot", {{"textDocument", {{"uri", kUri}}}})["data"]["code"],
      "DESYNCED");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(DesyncRecovery, ErrorNamesTheCause) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "abc\n", 3);
  client.didChange(kUri, 2, {change(0, 0, 0, 0)});
  json error = client.callError("hashline/snapshot", {{"textDocument", {{"uri", kUri}}}});
  EXPECT_THAT(error["data"]["message"].get<std::string>(), HasSubstr("version"));
  EXPECT_EQ(error["data"]["data"]["path"], kUri);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
