// `hashline search` end to end: the real binary over real pipes and files. On disk (no editor):
// regex and literal hits as anchored rows, .gitignore'd / binary / .git files skipped, globs and
// paths, the caps, INVALID_PATTERN, OUTSIDE_WORKSPACE, and an edit from a hit's anchor without a
// read (a later stale hit refused). With a sidecar (a test LspClient plays the editor): text typed
// but not saved in an open document is found, the disk text the buffer replaced is not, and an
// edit from that hit lands in the buffer.
#include "../agent/agent_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <gtest/gtest.h>
#include <set>

namespace hashline::test {
namespace {

using nlohmann::json;

/// path → the texts of its hit lines, from a --json search result.
std::map<std::string, std::vector<std::string>> hitsOf(const json& result,
                                                       const std::string& workspace) {
  std::map<std::string, std::vector<std::string>> out;
  for (const json& file : result["files"]) {
    std::string path = file.value("path", std::string());
    if (path.rfind(workspace + "/", 0) == 0) path = path.substr(workspace.size() + 1);
    for (const json& row : file["lines"])
      out[path].push_back(row["text"]);
  }
  return out;
}

class SearchDisk : public ::testing::Test {
protected:
  void SetUp() override {
    ::setenv("HASHLINE_NO_SIDECAR", "1", 1);
    sandbox.write(".git/HEAD", "ref: refs/heads/main\nneedle in git\n");
    sandbox.write(".gitignore", "build/\n*.log\n/top_only.txt\nvendor/**\n!keep.log\n");
    sandbox.write("src/main.cpp", "int main() {\n  return needle(1);\n}\n");
    sandbox.write("src/util.h", "// needle\nint needle(int);\n");
    sandbox.write("src/top_only.txt", "needle not at the top: kept\n");
    sandbox.write("top_only.txt", "needle at the top: ignored\n");
    sandbox.write("build/out.txt", "needle in build\n");
    sandbox.write("debug.log", "needle in a log\n");
    sandbox.write("keep.log", "needle in a kept log\n");
    sandbox.write("vendor/lib/x.c", "needle vendored\n");
    sandbox.write("docs/.gitignore", "*.md\n!README.md\n");
    sandbox.write("docs/guide.md", "needle in an ignored guide\n");
    sandbox.write("docs/README.md", "needle in a readme\n");
    sandbox.write("blob.bin", std::string("needle\0binary\n", 14));
    sandbox.write("regex.txt", "needle(x)\nNEEDLE upper\nneedles\n");
  }
  void TearDown() override { ::unsetenv("HASHLINE_NO_SIDECAR"); }

  CliRun search(std::vector<std::string> args) {
    args.insert(args.begin(), "search");
    args.push_back("--json");
    return runHashline(args, sandbox.workspace());
  }

  AgentSandbox sandbox;
};

TEST_F(SearchDisk, RegexHitsSkipIgnoredBinaryAndGit) {
  CliRun run = search({"needle\\b"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto hits = hitsOf(run.json(), sandbox.workspace());
  std::set<std::string> files;
  for (const auto& [path, lines] : hits)
    files.insert(path);
  EXPECT_EQ(files, (std::set<std::string>{"docs/README.md", "keep.log", "regex.txt", "src/main.cpp",
                                          "src/top_only.txt", "src/util.h"}))
      << run.out;
  EXPECT_EQ(hits["src/util.h"], (std::vector<std::string>{"// needle", "int needle(int);"}));
  EXPECT_EQ(hits["regex.txt"], (std::vector<std::string>{"needle(x)"})); // not "needles"
  EXPECT_EQ(run.json()["searched"]["binarySkipped"], 1);
  // Rows are the read's rows, anchors included.
  CliRun read = runHashline({"read", "src/util.h", "--json"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  const json result = run.json();
  for (const json& file : result["files"])
    if (file["path"] == sandbox.workspace() + "/src/util.h") {
      EXPECT_EQ(file["lines"][1], read.json()["lines"][1]);
      EXPECT_EQ(file["version"], read.json()["version"]);
    }
}

TEST_F(SearchDisk, LiteralIgnoreCaseGlobsAndPaths) {
  CliRun literal = search({"needle(x)", "--literal"});
  ASSERT_EQ(literal.exit_code, 0) << literal.err;
  auto hits = hitsOf(literal.json(), sandbox.workspace());
  ASSERT_EQ(hits.size(), 1u) << literal.out;
  EXPECT_EQ(hits["regex.txt"], (std::vector<std::string>{"needle(x)"}));

  CliRun upper = search({"-F", "-i", "NEEDLE", "regex.txt"});
  ASSERT_EQ(upper.exit_code, 0) << upper.err;
  EXPECT_EQ(hitsOf(upper.json(), sandbox.workspace())["regex.txt"].size(), 3u) << upper.out;

  CliRun globbed = search({"needle", "--glob", "*.h", "--glob", "!nothing"});
  ASSERT_EQ(globbed.exit_code, 0) << globbed.err;
  hits = hitsOf(globbed.json(), sandbox.workspace());
  ASSERT_EQ(hits.size(), 1u) << globbed.out;
  EXPECT_TRUE(hits.count("src/util.h"));

  CliRun scoped = search({"needle", "src"});
  ASSERT_EQ(scoped.exit_code, 0) << scoped.err;
  EXPECT_EQ(hitsOf(scoped.json(), sandbox.workspace()).size(), 3u) << scoped.out;
  // A file named explicitly is searched even when ignored (as rg does).
  CliRun named = search({"needle", "debug.log"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(hitsOf(named.json(), sandbox.workspace()).size(), 1u) << named.out;
}

TEST_F(SearchDisk, HumanOutputIsAnchoredRowsPerFile) {
  CliRun run = runHashline({"search", "return needle"}, sandbox.workspace());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("# src/main.cpp  version "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("(disk)\n2:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\xE2\x86\x92  return needle(1);\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("# 1 hit in 1 file"), std::string::npos) << run.out;
}

TEST_F(SearchDisk, EditFollowsASearchWithoutARead_StaleHitRefused) {
  CliRun found = search({"--session", "agent1", "return needle"});
  ASSERT_EQ(found.exit_code, 0) << found.err;
  const json row = found.json()["files"][0]["lines"][0];
  json edits = json::array(
      {{{"op", "replace"}, {"anchor", row["anchor"]}, {"content", "  return needle(2);"}}});
  CliRun edit =
      runHashline({"edit", "src/main.cpp", "--session", "agent1", "--edits", edits.dump()},
                  sandbox.workspace());
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(sandbox.read("src/main.cpp"), "int main() {\n  return needle(2);\n}\n");
  // Another session never searched nor read: NOT_OBSERVED.
  CliRun other = runHashline({"edit", "src/util.h", "--session", "agent2", "--edits",
                              json::array({{{"op", "delete"}, {"anchor", "1:aaa:aaa"}}}).dump()},
                             sandbox.workspace());
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_EQ(other.err.rfind("NOT_OBSERVED", 0), 0u) << other.err;
  // The old hit is stale now.
  CliRun stale = runHashline(
      {"edit", "src/main.cpp", "--session", "agent1", "--edits",
       json::array({{{"op", "replace"}, {"anchor", row["anchor"]}, {"content", "x"}}}).dump()},
      sandbox.workspace());
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_EQ(stale.err.rfind("STALE_ANCHOR", 0), 0u) << stale.err;
  EXPECT_EQ(sandbox.read("src/main.cpp"), "int main() {\n  return needle(2);\n}\n");
}

TEST_F(SearchDisk, BadInputIsAnErrorCodeWithAHint) {
  CliRun bad = search({"needle("});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err.rfind("INVALID_PATTERN", 0), 0u) << bad.err;
  EXPECT_NE(bad.err.find("missing )"), std::string::npos) << bad.err; // RE2's message
  EXPECT_NE(bad.err.find("hint:"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.json()["error"]["code"], "INVALID_PATTERN");

  CliRun backref = search({"(a)\\1"});
  EXPECT_EQ(backref.exit_code, 1);
  EXPECT_EQ(backref.err.rfind("INVALID_PATTERN", 0), 0u) << backref.err;

  CliRun outside = search({"needle", sandbox.outside()});
  EXPECT_EQ(outside.exit_code, 1);
  EXPECT_EQ(outside.err.rfind("OUTSIDE_WORKSPACE", 0), 0u) << outside.err;

  CliRun usage = runHashline({"search"}, sandbox.workspace());
  EXPECT_EQ(usage.exit_code, 2);
  CliRun count = search({"needle", "--max-hits", "0"});
  EXPECT_EQ(count.exit_code, 2);
}

TEST_F(SearchDisk, ResultIsCappedWithANote) {
  std::string big;
  for (int i = 0; i < 5000; ++i)
    big += "needle line " + std::to_string(i) + " " + std::string(2000, 'x') + "\n";
  sandbox.write("big.txt", big); // ~10 MB of matching rows
  CliRun hits = search({"needle line", "big.txt", "--max-hits", "7"});
  ASSERT_EQ(hits.exit_code, 0) << hits.err;
  json result = hits.json();
  EXPECT_EQ(result["hitCount"], 7);
  EXPECT_EQ(result["truncated"], true);
  EXPECT_EQ(result["truncatedBy"], "max_hits");
  EXPECT_NE(result.value("hint", std::string()).find("--glob"), std::string::npos);

  CliRun bytes = search({"needle line", "big.txt", "--max-hits", "100000"});
  ASSERT_EQ(bytes.exit_code, 0) << bytes.err;
  result = bytes.json();
  EXPECT_EQ(result["truncatedBy"], "max_bytes");
  EXPECT_LT(bytes.out.size(), std::size_t(3) << 20) << "a 10 MB result is cut near 1 MB";
  EXPECT_GT(result["hitCount"].get<int>(), 100);
  CliRun human =
      runHashline({"search", "needle line", "big.txt", "--max-hits", "3"}, sandbox.workspace());
  EXPECT_NE(human.out.find("# truncated: stopped at 3 hits"), std::string::npos) << human.out;
}

TEST(SearchSidecar, FindsUnsavedBufferTextAndEditsFromTheHit) {
  AgentSandbox sandbox;
  const std::string disk_text = "alpha\nold disk words\ngamma\n";
  const std::string buffer_text = "alpha\ntyped but unsaved\ngamma\n";
  std::string path = sandbox.write("notes.txt", disk_text);
  sandbox.write("other.txt", "unsaved on disk too\n");
  std::string uri = fileUri(path);

  LspClient editor;
  editor.initialize({{"workspace", {{"applyEdit", true}}}},
                    {{"rootUri", fileUri(sandbox.workspace())}});
  ASSERT_TRUE(waitForDiscoveryFile(sandbox.runtime()));
  editor.didOpen(uri, "alpha\ngamma\n", 1);
  editor.didChange(uri, 2, {LspClient::fullChange(buffer_text)});
  editor.sync();

  CliRun found = runHashline({"search", "unsaved", "--json"}, sandbox.workspace());
  ASSERT_EQ(found.exit_code, 0) << found.err << editor.log();
  json result = found.json();
  ASSERT_EQ(result["files"].size(), 2u) << result;
  const json& open = result["files"][0]; // open documents first
  EXPECT_EQ(open["backend"], "buffer");
  EXPECT_EQ(open["version"], 2);
  ASSERT_EQ(open["lines"].size(), 1u);
  EXPECT_EQ(open["lines"][0]["text"], "typed but unsaved");
  EXPECT_EQ(result["files"][1]["backend"], "disk");
  EXPECT_EQ(result["searched"]["openDocuments"], 1);

  CliRun gone = runHashline({"search", "old disk", "--json"}, sandbox.workspace());
  ASSERT_EQ(gone.exit_code, 0) << gone.err;
  EXPECT_EQ(gone.json()["hitCount"], 0) << "the buffer replaced that disk text";

  // An edit from the hit's anchor, no read in between: lands in the buffer.
  json edits = json::array({{{"op", "replace"},
                             {"anchor", open["lines"][0]["anchor"]},
                             {"content", "typed and edited"}}});
  BackgroundCli edit({"edit", "notes.txt", "--edits", edits.dump()}, sandbox.workspace());
  json request = editor.waitServerRequest("workspace/applyEdit");
  ASSERT_FALSE(request.is_null()) << editor.log();
  std::int64_t version = 0;
  std::string next = applyDocumentEdit(buffer_text, request["params"]["edit"], uri, version);
  EXPECT_EQ(next, "alpha\ntyped and edited\ngamma\n");
  editor.didChange(uri, 3, {LspClient::fullChange(next)});
  editor.respond(request["id"], {{"applied", true}});
  CliRun done = edit.wait();
  EXPECT_EQ(done.exit_code, 0) << done.err << editor.log();
  EXPECT_EQ(sandbox.read("notes.txt"), disk_text) << "the disk stays untouched";

  // The old hit is stale: refused.
  CliRun stale = runHashline({"edit", "notes.txt", "--edits", edits.dump()}, sandbox.workspace());
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_EQ(stale.err.rfind("STALE_ANCHOR", 0), 0u) << stale.err;

  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
