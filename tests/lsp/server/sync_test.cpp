// The buffer mirror: didOpen / didChange (incremental and full) / didClose, checked through
// hashline/snapshot against a naive local model (tests/lsp/support/text_model.h).
#include "tests/lsp/support/lsp_client.h"
#include "tests/lsp/support/text_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

namespace hashline::test {
namespace {

using json = nlohmann::json;

const std::string kUri = "file:///w/doc.txt";

json offering(Units units) {
  return {{"general", {{"positionEncodings", {unitsName(units)}}}}};
}

TEST(Sync, SnapshotOfAFreshDocument) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "a\n", 7);
  json snapshot = client.snapshot(kUri);
  EXPECT_EQ(snapshot["version"], 7);
  EXPECT_EQ(snapshot["lineCount"], 2); // LSP counts the empty line after the final newline
  EXPECT_EQ(snapshot["sha256"], sha256Hex("a\n"));
  EXPECT_EQ(snapshot["uri"], kUri);
  client.didOpen("file:///w/empty.txt", "");
  json empty = client.snapshot("file:///w/empty.txt");
  EXPECT_EQ(empty["lineCount"], 1);
  EXPECT_EQ(empty["sha256"], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, IncrementalEditsWithAstralCjkAndCrlf) {
  LspClient client;
  client.initialize(); // utf-16
  client.didOpen(kUri, "line one\r\n\xF0\x9D\x92\xB3 x\r\n\xE4\xB8\xAD\xE6\x96\x87\rlast");
  // Lines: 0 "line one" (CRLF), 1 "𝒳 x" (CRLF), 2 "中文" (lone CR), 3 "last".
  client.didChange(kUri, 2, {LspClient::change(1, 2, 1, 2, "!")}); // after 𝒳 (2 units)
  client.didChange(kUri, 3, {LspClient::change(2, 1, 2, 2, "\xE5\x9B\xBD")}); // 文 → 国
  client.didChange(kUri, 4, {LspClient::change(0, 4, 0, 5, "")});             // delete the space
  client.didChange(kUri, 5, {LspClient::change(3, 4, 3, 4, "\r\n")});         // new line at the end
  client.didChange(kUri, 6, {LspClient::change(0, 7, 1, 0, " ")});            // join lines 0 and 1
  std::string expected = "lineone \xF0\x9D\x92\xB3! x\r\n\xE4\xB8\xAD\xE5\x9B\xBD\rlast\r\n";
  json snapshot = client.snapshot(kUri);
  EXPECT_EQ(snapshot["sha256"], sha256Hex(expected));
  EXPECT_EQ(snapshot["lineCount"], 4);
  EXPECT_EQ(snapshot["version"], 6);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, CharacterPastLineEndMeansLineEnd) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "ab\ncd\n");
  client.didChange(kUri, 2, {LspClient::change(0, 99, 0, 99, "!")});
  EXPECT_EQ(client.snapshot(kUri)["sha256"], sha256Hex("ab!\ncd\n"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, MultipleChangesInOneNotificationApplyInOrder) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "one\ntwo\nthree\n");
  // Each change is relative to the text left by the previous one.
  client.didChange(kUri, 2,
                   {LspClient::change(0, 0, 0, 0, "1:"),                 // "1:one"
                    LspClient::change(0, 5, 0, 5, "!"),                  // "1:one!"
                    LspClient::change(1, 0, 2, 0, ""),                   // drop "two\n"
                    LspClient::change(1, 5, 1, 5, "\n\xF0\x9F\x98\x80"), // "three\n😀"
                    LspClient::change(2, 2, 2, 2, "?")});                // after 😀 (utf-16: 2)
  EXPECT_EQ(client.snapshot(kUri)["sha256"], sha256Hex("1:one!\nthree\n\xF0\x9F\x98\x80?\n"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, FullTextChangeReplacesEverything) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "old\n");
  client.didChange(kUri, 2, {LspClient::fullChange("brand\nnew")});
  json snapshot = client.snapshot(kUri);
  EXPECT_EQ(snapshot["sha256"], sha256Hex("brand\nnew"));
  EXPECT_EQ(snapshot["lineCount"], 2);
  // Incremental changes after a full one in the same notification.
  client.didChange(kUri, 3, {LspClient::fullChange("x"), LspClient::change(0, 1, 0, 1, "y")});
  EXPECT_EQ(client.snapshot(kUri)["sha256"], sha256Hex("xy"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, CloseForgetsAndReopenStartsOver) {
  LspClient client;
  client.initialize();
  client.didOpen(kUri, "text\n");
  client.didClose(kUri);
  json error = client.callError("hashline/snapshot", {{"textDocument", {{"uri", kUri}}}});
  EXPECT_EQ(error["code"], -32803);
  EXPECT_EQ(error["data"]["code"], "FILE_NOT_FOUND");
  client.didOpen(kUri, "again\n", 1);
  EXPECT_EQ(client.snapshot(kUri)["sha256"], sha256Hex("again\n"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, UriSpellingsMeetInOneDocument) {
  LspClient client;
  client.initialize();
  client.didOpen("file:///w/a%20b.txt", "x\n");
  client.didChange("file:///w/a b.txt", 2, {LspClient::change(0, 1, 0, 1, "y")});
  json snapshot = client.snapshot("file:///w/a%20b.txt");
  EXPECT_EQ(snapshot["sha256"], sha256Hex("xy\n"));
  EXPECT_EQ(snapshot["uri"], "file:///w/a%20b.txt"); // the client's own spelling
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, ChangesToUnopenedDocumentsAreReportedNotMirrored) {
  LspClient client;
  client.initialize();
  client.didChange("file:///w/never.txt", 2, {LspClient::change(0, 0, 0, 0, "x")});
  json message = client.waitNotification("window/logMessage");
  EXPECT_EQ(message["params"]["type"], 2);
  EXPECT_THAT(message["params"]["message"].get<std::string>(), ::testing::HasSubstr("never.txt"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Sync, DocumentsAreIndependent) {
  LspClient client;
  client.initialize();
  client.didOpen("file:///w/1.txt", "one\n");
  client.didOpen("file:///w/2.txt", "two\n");
  client.didChange("file:///w/1.txt", 2, {LspClient::change(0, 3, 0, 3, "!")});
  EXPECT_EQ(client.snapshot("file:///w/1.txt")["sha256"], sha256Hex("one!\n"));
  EXPECT_EQ(client.snapshot("file:///w/2.txt")["sha256"], sha256Hex("two\n"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

// Random typing against the local model, in each encoding: inserts and deletes of ASCII,
// CJK, astral characters, LF, CRLF and lone CR anywhere (never between a CR and its LF, never
// inside a character), several changes per notification, a snapshot compare every 50 steps.
class RandomEdits : public ::testing::TestWithParam<Units> {};

std::size_t randomBoundary(const std::string& text, std::mt19937& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, text.size());
  std::size_t at = pick(rng);
  // Move back to a code point start that is not between \r and \n.
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
    --at;
  if (at > 0 && at < text.size() && text[at - 1] == '\r' && text[at] == '\n') --at;
  return at;
}

TEST_P(RandomEdits, MirrorFollowsTheModel) {
  const Units units = GetParam();
  LspClient client;
  json result = client.initialize(offering(units));
  ASSERT_EQ(result["capabilities"]["positionEncoding"], unitsName(units));

  static const char* kPieces[] = {"a",
                                  "bc",
                                  " ",
                                  "\n",
                                  "\r\n",
                                  "\r",
                                  "\xE4\xB8\xAD",
                                  "\xF0\x9F\x98\x80",
                                  "\xF0\x9D\x92\xB3z",
                                  "line\nbreak",
                                  "\xC3\xA9t\xC3\xA9",
                                  ""};
  std::mt19937 rng(1234 + static_cast<int>(units));
  TextModel model{"start\r\nof \xF0\x9F\x98\x80 the\rdoc\n\xE4\xB8\xAD\n"};
  client.didOpen(kUri, model.text);
  std::int64_t version = 1;
  for (int step = 1; step <= 600; ++step) {
    std::vector<json> changes;
    int count = 1 + static_cast<int>(rng() % 3);
    for (int c = 0; c < count; ++c) {
      std::size_t begin = randomBoundary(model.text, rng);
      std::size_t end = begin;
      if (rng() % 3 == 0) { // a deletion or replacement of up to 8 bytes
        end = std::min(model.text.size(), begin + rng() % 8);
        while (end < model.text.size() &&
               (static_cast<unsigned char>(model.text[end]) & 0xC0) == 0x80)
          ++end;
        if (end > 0 && end < model.text.size() && model.text[end - 1] == '\r' &&
            model.text[end] == '\n')
          ++end;
      }
      std::string piece = kPieces[rng() % (sizeof kPieces / sizeof *kPieces)];
      changes.push_back(model.rangeChange(begin, end, piece, units));
      model.replace(begin, end, piece);
    }
    client.didChange(kUri, ++version, changes);
    if (step % 50 == 0) {
      json snapshot = client.snapshot(kUri);
      ASSERT_EQ(snapshot["sha256"], sha256Hex(model.text)) << "step " << step;
      ASSERT_EQ(snapshot["lineCount"], model.lineCount()) << "step " << step;
      ASSERT_EQ(snapshot["version"], version);
    }
  }
  EXPECT_EQ(client.takeNotifications("window/logMessage").size(), 0u);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

INSTANTIATE_TEST_SUITE_P(Encodings, RandomEdits,
                         ::testing::Values(Units::Utf8, Units::Utf16, Units::Utf32),
                         [](const auto& info) {
                           return std::string(info.param == Units::Utf8    ? "utf8"
                                              : info.param == Units::Utf16 ? "utf16"
                                                                           : "utf32");
                         });

} // namespace
} // namespace hashline::test
