// What CLI sessions read, persisted across runs (lsp/service/observation_json.h), through the
// real `hashline` binary with no editor: two sessions and two documents persist and verify
// independently (one file per pair, each run touching only its own), runs in parallel keep each
// other's reads, and damaged or foreign observation files make a clean NOT_OBSERVED — never a
// crash — until the session reads again.
#include "agent_test_util.h"
#include "lsp/service/observation_json.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

namespace hashline::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class CliObservationsTest : public ::testing::Test {
protected:
  void SetUp() override {
    sandbox_.write("a.txt", "alpha\nbeta\ngamma\n");
    sandbox_.write("b.txt", "one\ntwo\nthree\n");
    const std::string root = fs::canonical(sandbox_.workspace()).string();
    auto dir = lsp::ObservationFiles::directoryFor(root);
    ASSERT_TRUE(dir) << dir.error().message;
    files_.emplace(*dir);
    root_ = root;
  }

  CliRun cli(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {"--workspace", sandbox_.workspace()});
    return runHashline(args, sandbox_.workspace(), input);
  }
  /// `read --json` of `path` by `session`: the anchor of line 2.
  std::string readLine2(const std::string& session, const std::string& path) {
    CliRun run = cli({"read", path, "--json", "--session", session});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const json view = run.json();
    EXPECT_TRUE(view.contains("lines")) << run.out << run.err;
    for (const auto& row : view["lines"])
      if (row["line"] == 2) return row["anchor"];
    return "";
  }
  CliRun replaceLine(const std::string& session, const std::string& path, const std::string& anchor,
                     const std::string& text) {
    json edits = json::array({{{"op", "replace"}, {"anchor", anchor}, {"content", text}}});
    return cli({"edit", path, "--session", session, "--edits", edits.dump()});
  }
  std::string pairFile(const std::string& session, const std::string& path) const {
    return files_->fileFor(session, fileUri(root_ + "/" + path));
  }
  static std::string firstWord(const std::string& text) {
    return text.substr(0, text.find_first_of(": \n"));
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  }
  static void spit(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }

  AgentSandbox sandbox_;
  std::optional<lsp::ObservationFiles> files_;
  std::string root_;
};

TEST_F(CliObservationsTest, TwoSessionsAndTwoDocumentsPersistIndependently) {
  const std::string s1_a = readLine2("s1", "a.txt");
  const std::string s2_b = readLine2("s2", "b.txt");
  ASSERT_FALSE(s1_a.empty());
  ASSERT_FALSE(s2_b.empty());
  // One file per pair read, named by the pair.
  EXPECT_TRUE(fs::exists(pairFile("s1", "a.txt")));
  EXPECT_TRUE(fs::exists(pairFile("s2", "b.txt")));
  EXPECT_FALSE(fs::exists(pairFile("s1", "b.txt")));
  EXPECT_FALSE(fs::exists(pairFile("s2", "a.txt")));

  // Each session may edit only what it read, in later processes.
  CliRun cross = replaceLine("s1", "b.txt", s2_b, "TWO");
  EXPECT_EQ(cross.exit_code, 1);
  EXPECT_EQ(firstWord(cross.err), "NOT_OBSERVED") << cross.err;
  CliRun cross2 = replaceLine("s2", "a.txt", s1_a, "BETA");
  EXPECT_EQ(firstWord(cross2.err), "NOT_OBSERVED") << cross2.err;

  // s2's edit of b rewrites s2/b only; s1/a's file is left as it was.
  const auto s1_a_time = fs::last_write_time(pairFile("s1", "a.txt"));
  const std::string s1_a_bytes = slurp(pairFile("s1", "a.txt"));
  CliRun b_edit = replaceLine("s2", "b.txt", s2_b, "TWO");
  ASSERT_EQ(b_edit.exit_code, 0) << b_edit.err;
  EXPECT_EQ(sandbox_.read("b.txt"), "one\nTWO\nthree\n");
  EXPECT_EQ(slurp(pairFile("s1", "a.txt")), s1_a_bytes);
  EXPECT_EQ(fs::last_write_time(pairFile("s1", "a.txt")), s1_a_time);

  CliRun a_edit = replaceLine("s1", "a.txt", s1_a, "BETA");
  ASSERT_EQ(a_edit.exit_code, 0) << a_edit.err;
  EXPECT_EQ(sandbox_.read("a.txt"), "alpha\nBETA\ngamma\n");
  // The old anchor is stale now (exactly: its read is known, its line changed).
  CliRun stale = replaceLine("s1", "a.txt", s1_a, "again");
  EXPECT_EQ(firstWord(stale.err), "STALE_ANCHOR") << stale.err;

  // status counts each session's documents from the files.
  CliRun status = cli({"status", "--json", "--session", "s1"});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_EQ(status.json()["session"]["observedDocuments"], 1);
  readLine2("s1", "b.txt");
  status = cli({"status", "--json", "--session", "s1"});
  EXPECT_EQ(status.json()["session"]["observedDocuments"], 2);
}

TEST_F(CliObservationsTest, ParallelRunsKeepEachOthersReads) {
  // Four processes at once: two sessions × two documents, then each pair edits.
  std::vector<std::unique_ptr<BackgroundCli>> runs;
  for (const char* session : {"s1", "s2"})
    for (const char* path : {"a.txt", "b.txt"})
      runs.push_back(std::make_unique<BackgroundCli>(
          std::vector<std::string>{"--workspace", sandbox_.workspace(), "read", path, "--session",
                                   session},
          sandbox_.workspace()));
  for (auto& run : runs)
    ASSERT_EQ(run->wait().exit_code, 0);
  for (const char* session : {"s1", "s2"})
    for (const char* path : {"a.txt", "b.txt"})
      EXPECT_TRUE(fs::exists(pairFile(session, path))) << session << " " << path;
  // The same pair from two processes at once: both reads are kept (merged), whichever saves last.
  sandbox_.write("c.txt", "x\ny\nz\n");
  BackgroundCli first({"--workspace", sandbox_.workspace(), "read", "c.txt", "--session", "s1",
                       "--from", "1", "--to", "1", "--tier", "block"},
                      sandbox_.workspace());
  BackgroundCli second({"--workspace", sandbox_.workspace(), "read", "c.txt", "--session", "s1",
                        "--from", "3", "--to", "3", "--tier", "line"},
                       sandbox_.workspace());
  ASSERT_EQ(first.wait().exit_code, 0);
  ASSERT_EQ(second.wait().exit_code, 0);
  auto decoded = lsp::decodeObservation(slurp(pairFile("s1", "c.txt")));
  ASSERT_TRUE(decoded) << decoded.error().message;
  ASSERT_EQ(decoded->reads.size(), 2u); // block and line tier reads, from two processes
  std::set<std::uint32_t> shown;
  for (const auto& read : decoded->reads)
    for (const auto& span : read.shown)
      shown.insert(span.first);
  EXPECT_EQ(shown, (std::set<std::uint32_t>{1, 3}));
}

TEST_F(CliObservationsTest, DamagedFilesAreACleanNotObserved) {
  const std::string a2 = readLine2("s1", "a.txt");
  const std::string b2 = readLine2("s1", "b.txt");
  const std::string good = slurp(pairFile("s1", "a.txt"));
  ASSERT_GT(good.size(), 16u);

  // Damage of every kind: a flipped byte, a truncation, garbage, empty, another pair's file.
  const std::vector<std::string> damages = {
      [&] {
        std::string bytes = good;
        bytes[bytes.size() / 2] ^= 0x40;
        return bytes;
      }(),
      good.substr(0, good.size() / 2),
      std::string(4096, '\xff'),
      std::string(),
      slurp(pairFile("s1", "b.txt")),
  };
  for (std::size_t i = 0; i < damages.size(); ++i) {
    spit(pairFile("s1", "a.txt"), damages[i]);
    CliRun edit = replaceLine("s1", "a.txt", a2, "BETA");
    EXPECT_EQ(edit.exit_code, 1) << i << ": " << edit.err;
    EXPECT_EQ(firstWord(edit.err), "NOT_OBSERVED") << i << ": " << edit.err;
    EXPECT_EQ(sandbox_.read("a.txt"), "alpha\nbeta\ngamma\n");
  }
  // The other pair is untouched and still verifies; a fresh read replaces the damaged file.
  CliRun b_edit = replaceLine("s1", "b.txt", b2, "TWO");
  EXPECT_EQ(b_edit.exit_code, 0) << b_edit.err;
  const std::string again = readLine2("s1", "a.txt");
  EXPECT_TRUE(lsp::decodeObservation(slurp(pairFile("s1", "a.txt"))));
  CliRun a_edit = replaceLine("s1", "a.txt", again, "BETA");
  EXPECT_EQ(a_edit.exit_code, 0) << a_edit.err;

  // A session directory that is a file, not a directory: refused cleanly, nothing written.
  fs::create_directories(fs::path(pairFile("s3", "a.txt")).parent_path().parent_path());
  spit(fs::path(pairFile("s3", "a.txt")).parent_path().string(), "not a directory");
  CliRun odd = cli({"read", "a.txt", "--session", "s3"});
  EXPECT_EQ(odd.exit_code, 0) << odd.err; // the read answers; the save is logged as failed
  CliRun odd_edit = replaceLine("s3", "a.txt", again, "x");
  EXPECT_EQ(firstWord(odd_edit.err), "NOT_OBSERVED") << odd_edit.err;
}

TEST_F(CliObservationsTest, FormatOneFileIsIgnoredAndRemoved) {
  const std::string old =
      fs::path(files_->fileFor("s", "d")).parent_path().parent_path().parent_path().string() +
      "/observations.json";
  fs::create_directories(fs::path(old).parent_path());
  spit(old,
       R"({"format": 1, "observations": [{"session": "default", "document": "x", "reads": []}]})");
  CliRun read = cli({"read", "a.txt"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_FALSE(fs::exists(old));
}

} // namespace
} // namespace hashline::test
