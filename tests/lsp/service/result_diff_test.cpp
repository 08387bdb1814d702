// The diffs in results cost O(change), not O(document): documentDiff (lsp/service/result_json.h)
// equals the whole-text diff yet hands the line differ only the changed middle, and an anchored
// edit of one line of a 1M-line file through the in-process service (as the CLI runs it) diffs a
// few lines. Proved with the differ's line counter (engine/diff/line_diff.h), not with timers.
#include "engine/diff/line_diff.h"
#include "engine/diff/unified_diff.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/result_json.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <unistd.h>

namespace hashline::lsp {
namespace {

using nlohmann::json;

std::string wholeDiff(const std::string& before, const std::string& after) {
  UnifiedDiffOptions options;
  options.old_label = "a/f";
  options.new_label = "b/f";
  return unifiedDiff(before, after, options);
}

TEST(DocumentDiff, EqualsTheWholeTextDiffOnRandomEdits) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    std::string text;
    const int lines = static_cast<int>(rng() % 400);
    for (int i = 0; i < lines; ++i)
      text += "row " + std::to_string(rng() % (trial % 2 ? 5 : 100000)) +
              (rng() % 6   ? "\n"
               : rng() % 2 ? "\r\n"
                           : "\r");
    const Rope before(text);
    Rope after = before; // shares its leaves with `before`, as an edited document does
    std::string expected = text;
    for (int k = static_cast<int>(rng() % 4); k > 0; --k) {
      const std::size_t begin = expected.empty() ? 0 : rng() % (expected.size() + 1);
      const std::size_t end = std::min(expected.size(), begin + rng() % 40);
      const std::string insert = rng() % 2 ? "new\n" : (rng() % 2 ? "\r" : "x");
      after.replace(begin, end, insert);
      expected.replace(begin, end - begin, insert);
    }
    ASSERT_EQ(after.toString(), expected);
    EXPECT_EQ(documentDiff(before, after, "f"), wholeDiff(text, expected)) << trial;
    // Unshared ropes (nothing to skip by address) give the same answer.
    EXPECT_EQ(documentDiff(Rope(text), Rope(expected), "f"), wholeDiff(text, expected)) << trial;
  }
}

TEST(DocumentDiff, OneLineOfAMillionDiffsOnlyThatLineAndItsContext) {
  std::string text;
  for (int i = 0; i < 1'000'000; ++i)
    text += "line " + std::to_string(i) + "\n";
  const Rope before(text);
  Rope after = before;
  const std::size_t begin = before.lineStartByte(543'210);
  after.replace(begin, before.lineEndByte(543'210), "changed");
  const std::size_t counted = linesDiffedOnThisThread();
  const std::string diff = documentDiff(before, after, "big.txt");
  const std::size_t diffed = linesDiffedOnThisThread() - counted;
  EXPECT_LE(diffed, 2u * (1 + 2 * 4)); // the line and 3 + 1 lines around it, on both sides
  EXPECT_EQ(diff, "--- a/big.txt\n+++ b/big.txt\n@@ -543208,7 +543208,7 @@\n line 543207\n"
                  " line 543208\n line 543209\n-line 543210\n+changed\n line 543211\n"
                  " line 543212\n line 543213\n");
}

/// A temp directory, removed at the end; HASHLINE_STATE_DIR/RUNTIME_DIR point inside it.
class MillionLineFile : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/hashline-diffcost-XXXXXX";
    root_ = mkdtemp(pattern);
    std::filesystem::create_directories(root_ / "ws");
    std::filesystem::create_directories(root_ / "state");
    std::filesystem::create_directories(root_ / "run");
    setenv("HASHLINE_STATE_DIR", (root_ / "state").c_str(), 1);
    setenv("HASHLINE_RUNTIME_DIR", (root_ / "run").c_str(), 1);
    std::ofstream out(root_ / "ws" / "big.txt", std::ios::binary);
    for (int i = 1; i <= 1'000'000; ++i)
      out << "line " << i << "\n";
  }
  void TearDown() override {
    unsetenv("HASHLINE_STATE_DIR");
    unsetenv("HASHLINE_RUNTIME_DIR");
    std::filesystem::remove_all(root_);
  }
  json call(HashlineService& service, const std::string& method, json params) {
    json result;
    service.call(method, std::move(params), [&](ServiceOutcome outcome) {
      result = std::holds_alternative<json>(outcome)
                   ? std::get<json>(outcome)
                   : json{{"rpcError", std::get<RpcError>(outcome).message}};
    });
    return result;
  }
  std::filesystem::path root_;
};

TEST_F(MillionLineFile, AnAnchoredEditOfOneLineDiffsAFewLines) {
  auto service = HashlineService::forDisk({(root_ / "ws").string()});
  json read = call(*service, "read",
                   {{"path", "big.txt"}, {"session", "s"}, {"from", 700'000}, {"to", 700'002}});
  ASSERT_EQ(read["status"], "ok") << read.dump();
  const std::string anchor = read["lines"][1]["anchor"];
  ASSERT_EQ(read["lines"][1]["text"], "line 700001");

  const std::size_t counted = linesDiffedOnThisThread();
  json edit =
      call(*service, "edit",
           {{"path", "big.txt"},
            {"session", "s"},
            {"edits", json::array({{{"op", "replace"},
                                    {"anchor", anchor},
                                    {"content", "line seven hundred thousand and one"}}})}});
  const std::size_t diffed = linesDiffedOnThisThread() - counted;
  ASSERT_EQ(edit["status"], "applied") << edit.dump().substr(0, 500);
  // Result diff, journal hunks and minimal edits together: a few windows of ~10 lines each.
  EXPECT_LE(diffed, 100u);
  EXPECT_NE(edit["diff"].get<std::string>().find("+line seven hundred thousand and one\n"),
            std::string::npos);
}

} // namespace
} // namespace hashline::lsp
