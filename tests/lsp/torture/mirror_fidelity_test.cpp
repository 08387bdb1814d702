// Mirror fidelity under a long random stream of incremental changes (issue 8, torture (a)).
//
// The real `hashline lsp` binary over pipes (tests/lsp/support's LspClient) receives didChange
// notifications of 1–4 range changes each (each change's positions refer to the text after the
// previous change of the same notification, as LSP specifies), with CRLF / CR / LF breaks,
// astral and CJK characters, deletions spanning lines, pastes, and rare full-text changes, in
// each position encoding. The client keeps an independent model (TextModel); at checkpoints
// hashline/snapshot's version, lineCount and sha256 must equal the model's. Default: 30k content
// changes per encoding; HASHLINE_TORTURE=1: 1M content changes in total (scripts/torture).
#include "tests/lsp/support/lsp_client.h"
#include "tests/lsp/support/text_model.h"
#include "tests/lsp/torture/torture_config.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace hashline::test {
namespace {

using json = nlohmann::json;

const char* const kPieces[] = {"a",    "b", "xy", " ",  "\t", "\n", "\r\n",     "\r",       "é",
                               "中文", "😀", "𝒳",  "𠀋", "{",  "}",  "  indent", "\r\n\r\n", "z\rz"};

std::string randomText(std::mt19937_64& random) {
  std::string text;
  int pieces = random() % 10 == 0 ? 1 + random() % 40 : 1 + random() % 3;
  for (int i = 0; i < pieces; ++i)
    text += kPieces[random() % std::size(kPieces)];
  return text;
}

// A byte offset on a code point boundary and not between the CR and LF of a CRLF.
std::size_t randomBoundary(std::mt19937_64& random, const TextModel& model) {
  if (model.text.empty()) return 0;
  std::size_t at = random() % (model.text.size() + 1);
  const std::string& s = model.text;
  while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80)
    ++at;
  if (at > 0 && at < s.size() && s[at - 1] == '\r' && s[at] == '\n') ++at;
  return at;
}

struct Counters {
  std::int64_t changes = 0;
  std::int64_t notifications = 0;
  std::int64_t checkpoints = 0;
};

void runStream(Units units, std::int64_t total_changes, std::uint64_t seed, Counters& counters) {
  LspClient client;
  json init = client.initialize({{"general", {{"positionEncodings", {unitsName(units)}}}}});
  ASSERT_EQ(init["capabilities"]["positionEncoding"], unitsName(units));
  const std::string uri = "file:///torture/mirror.txt";
  TextModel model;
  model.text = "first line\r\nsecond 😀 line\nthird\rfourth 中\n";
  std::int64_t version = 1;
  client.didOpen(uri, model.text, version);
  std::mt19937_64 random(seed);

  auto checkpoint = [&] {
    json snapshot = client.snapshot(uri);
    ASSERT_FALSE(snapshot.is_null());
    ASSERT_EQ(snapshot["version"], version) << "seed " << seed;
    ASSERT_EQ(snapshot["lineCount"], model.lineCount()) << "seed " << seed << " v" << version;
    ASSERT_EQ(snapshot["sha256"], sha256Hex(model.text))
        << "mirror differs from the model at version " << version << " (seed " << seed << ")";
    ++counters.checkpoints;
  };

  std::int64_t sent = 0;
  const std::int64_t checkpoint_every = std::max<std::int64_t>(total_changes / 40, 500);
  std::int64_t next_checkpoint = checkpoint_every;
  while (sent < total_changes) {
    std::vector<json> changes;
    int count = 1 + random() % 4;
    for (int c = 0; c < count; ++c) {
      std::size_t begin = randomBoundary(random, model);
      std::size_t end = begin;
      int kind = random() % 100;
      if (kind < 3 && model.text.size() > 200000) kind = 50; // keep the document bounded
      if (kind < 1) {                                        // full text
        TextModel replacement;
        for (int i = 0; i < 50; ++i)
          replacement.text += randomText(random);
        changes.push_back(LspClient::fullChange(replacement.text));
        model.text = replacement.text;
        continue;
      }
      bool shrink = model.text.size() > 20000;
      std::string text;
      if (kind < 55 && !shrink) {
        text = randomText(random); // insert
      } else if (kind < 85 || shrink) {
        end = randomBoundary(random, model); // delete (possibly across lines)
        if (end < begin) std::swap(begin, end);
        if (end - begin > 400 && !shrink) end = begin;
        if (end == begin) text = randomText(random);
      } else {
        end = randomBoundary(random, model); // replace
        if (end < begin) std::swap(begin, end);
        text = randomText(random);
      }
      changes.push_back(model.rangeChange(begin, end, text, units));
      model.replace(begin, end, text);
    }
    client.didChange(uri, ++version, changes);
    sent += static_cast<std::int64_t>(changes.size());
    ++counters.notifications;
    if (sent >= next_checkpoint) {
      checkpoint();
      if (::testing::Test::HasFatalFailure()) return;
      next_checkpoint += checkpoint_every;
    }
  }
  counters.changes += sent;
  checkpoint();
  EXPECT_TRUE(client.outputProblems().empty());
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

class MirrorFidelity : public ::testing::TestWithParam<Units> {};

TEST_P(MirrorFidelity, RandomIncrementalChangesMatchTheModel) {
  // 1M content changes in total over the three encodings under HASHLINE_TORTURE=1.
  const std::int64_t changes = tortureCount(30000, 340000);
  const std::uint64_t seed = tortureSeed(1000 + static_cast<int>(GetParam()));
  Counters counters;
  runStream(GetParam(), changes, seed, counters);
  std::printf("mirror fidelity %s: %lld content changes in %lld notifications, %lld checkpoints, "
              "seed %llu\n",
              unitsName(GetParam()), static_cast<long long>(counters.changes),
              static_cast<long long>(counters.notifications),
              static_cast<long long>(counters.checkpoints), static_cast<unsigned long long>(seed));
}

INSTANTIATE_TEST_SUITE_P(Encodings, MirrorFidelity,
                         ::testing::Values(Units::Utf16, Units::Utf8, Units::Utf32),
                         [](const auto& info) {
                           return std::string(info.param == Units::Utf8    ? "utf8"
                                              : info.param == Units::Utf16 ? "utf16"
                                                                           : "utf32");
                         });

} // namespace
} // namespace hashline::test
