// The CLI end to end with no editor running: the real binary on real files in a temp workspace
// (read → edit → a stale edit refused → NOT_OBSERVED for another session → OUTSIDE_WORKSPACE,
// symlink escape, NOT_TEXT), exit codes, human and --json output, state kept across runs.
#include "agent_test_util.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hashline::test {
namespace {

using nlohmann::json;

class CliDiskTest : public ::testing::Test {
protected:
  CliRun cli(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {"--workspace", sandbox_.workspace()});
    return runHashline(args, sandbox_.workspace(), input);
  }
  /// The anchor of `line` (1-based) in a `read --json` result.
  static std::string anchorOf(const json& read, int line) {
    for (const auto& row : read["lines"])
      if (row["line"] == line) return row["anchor"];
    return "";
  }
  static std::string firstWord(const std::string& text) {
    return text.substr(0, text.find_first_of(": \n"));
  }

  AgentSandbox sandbox_;
};

TEST_F(CliDiskTest, ReadEditStaleAndNotObserved) {
  sandbox_.write("src/app.py", "def greet(name):\n    return 'hi ' + name\n\nprint(greet('x'))\n");

  CliRun human = cli({"read", "src/app.py"});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_EQ(human.out.rfind("# src/app.py", 0), 0u) << human.out;
  EXPECT_NE(human.out.find("tier block"), std::string::npos);
  EXPECT_NE(human.out.find("\xE2\x86\x92    return 'hi ' + name\n"), std::string::npos);

  CliRun read = cli({"read", "src/app.py", "--json"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  json view = read.json();
  EXPECT_EQ(view["status"], "ok");
  EXPECT_EQ(view["lineCount"], 4);
  ASSERT_EQ(view["lines"].size(), 4u);
  std::string line2 = anchorOf(view, 2);
  ASSERT_FALSE(line2.empty());
  EXPECT_EQ(line2.rfind("2:", 0), 0u);

  json edits = json::array(
      {{{"op", "replace"}, {"anchor", line2}, {"content", "    return 'hello ' + name"}}});
  CliRun edit = cli({"edit", "src/app.py", "--edits", edits.dump()});
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(edit.out.rfind("applied edit to src/app.py", 0), 0u) << edit.out;
  EXPECT_NE(edit.out.find("+    return 'hello ' + name"), std::string::npos) << edit.out;
  EXPECT_EQ(sandbox_.read("src/app.py"),
            "def greet(name):\n    return 'hello ' + name\n\nprint(greet('x'))\n");

  // Read again, then someone else changes line 2 on disk: the old anchor is stale.
  view = cli({"read", "src/app.py", "--json"}).json();
  std::string fresh2 = anchorOf(view, 2);
  sandbox_.write("src/app.py", "def greet(name):\n    return 'hey ' + name\n\nprint(greet('x'))\n");
  edits[0]["anchor"] = fresh2;
  CliRun stale = cli({"edit", "src/app.py", "--edits", edits.dump()});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_EQ(firstWord(stale.err), "STALE_ANCHOR") << stale.err;
  EXPECT_NE(stale.err.find("fresh anchors:"), std::string::npos) << stale.err;
  EXPECT_NE(stale.err.find("return 'hey ' + name"), std::string::npos) << stale.err;
  EXPECT_EQ(sandbox_.read("src/app.py"),
            "def greet(name):\n    return 'hey ' + name\n\nprint(greet('x'))\n");

  // --json of a refusal: the object on stdout, the code on stderr, exit 1.
  CliRun stale_json = cli({"--json", "edit", "src/app.py", "--edits", edits.dump()});
  EXPECT_EQ(stale_json.exit_code, 1);
  EXPECT_EQ(stale_json.json()["status"], "refused");
  EXPECT_EQ(stale_json.json()["error"]["code"], "STALE_ANCHOR");
  EXPECT_FALSE(stale_json.json()["error"]["hint"].get<std::string>().empty());

  // Another session never read the file.
  view = cli({"read", "src/app.py", "--json"}).json();
  edits[0]["anchor"] = anchorOf(view, 2);
  CliRun unseen = cli({"edit", "src/app.py", "--session", "other", "--edits", edits.dump()});
  EXPECT_EQ(unseen.exit_code, 1);
  EXPECT_EQ(firstWord(unseen.err), "NOT_OBSERVED") << unseen.err;
  // The default session did read it (in an earlier process): its edit applies.
  CliRun applied = cli({"edit", "src/app.py", "--json"}, edits.dump());
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  json result = applied.json();
  EXPECT_EQ(result["status"], "applied");
  EXPECT_EQ(result["backend"], "disk");
  EXPECT_TRUE(result["anchors"].is_array());
  EXPECT_TRUE(result["diff"].is_string());
  EXPECT_NE(result["version"], result["versionBefore"]);
}

TEST_F(CliDiskTest, SessionFromEnvironmentAndGlobalFlagsBeforeTheCommand) {
  sandbox_.write("a.txt", "alpha\nbeta\n");
  CliRun read = runHashline(
      {"--session", "s1", "--workspace", sandbox_.workspace(), "--json", "read", "a.txt"},
      sandbox_.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  std::string anchor = anchorOf(read.json(), 1);
  json edits = json::array({{{"op", "replace"}, {"anchor", anchor}, {"content", "ALPHA"}}});
  ::setenv("HASHLINE_SESSION", "s1", 1);
  CliRun edit = cli({"edit", "a.txt", "--edits", edits.dump()});
  ::unsetenv("HASHLINE_SESSION");
  EXPECT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(sandbox_.read("a.txt"), "ALPHA\nbeta\n");
}

TEST_F(CliDiskTest, WorkspaceIsTheGitRootAboveTheCurrentDirectory) {
  std::filesystem::create_directories(sandbox_.workspace() + "/.git");
  sandbox_.write("lib/util.c", "int x;\n");
  sandbox_.write("top.txt", "top\n");
  // Run from lib/: the workspace is ws (holds .git), so ../top.txt is inside.
  CliRun read = runHashline({"read", "../top.txt"}, sandbox_.workspace() + "/lib");
  EXPECT_EQ(read.exit_code, 0) << read.err;
  CliRun status = runHashline({"status", "--json"}, sandbox_.workspace() + "/lib");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_EQ(status.json()["mode"], "disk");
  EXPECT_EQ(status.json()["workspaceRoots"], json::array({sandbox_.workspace()}));
}

TEST_F(CliDiskTest, OutsideWorkspaceSymlinkEscapeAndNotText) {
  sandbox_.write(sandbox_.outside() + "/secret.txt", "secret\n");
  CliRun outside = cli({"read", sandbox_.outside() + "/secret.txt"});
  EXPECT_EQ(outside.exit_code, 1);
  EXPECT_EQ(firstWord(outside.err), "OUTSIDE_WORKSPACE") << outside.err;
  CliRun dotdot = cli({"read", "../outside/secret.txt"});
  EXPECT_EQ(firstWord(dotdot.err), "OUTSIDE_WORKSPACE") << dotdot.err;

  ASSERT_EQ(::symlink((sandbox_.outside() + "/secret.txt").c_str(),
                      (sandbox_.workspace() + "/link.txt").c_str()),
            0);
  CliRun escape = cli({"read", "link.txt"});
  EXPECT_EQ(escape.exit_code, 1);
  EXPECT_EQ(firstWord(escape.err), "OUTSIDE_WORKSPACE") << escape.err;
  json write = json::array({{{"op", "write"}, {"content", "pwned\n"}}});
  CliRun escape_write = cli({"edit", "link.txt", "--edits", write.dump()});
  EXPECT_EQ(escape_write.exit_code, 1);
  EXPECT_EQ(sandbox_.read(sandbox_.outside() + "/secret.txt"), "secret\n");

  sandbox_.write("blob.bin", std::string("ab\0cd\n", 6));
  CliRun blob_read = cli({"read", "blob.bin"});
  CliRun blob_edit = cli({"edit", "blob.bin", "--edits", write.dump()});
  EXPECT_EQ(blob_edit.exit_code, 1);
  EXPECT_EQ(firstWord(blob_edit.err), "NOT_TEXT") << blob_read.err << blob_edit.err;
  EXPECT_EQ(sandbox_.read("blob.bin"), std::string("ab\0cd\n", 6));
}

TEST_F(CliDiskTest, UsageErrorsExitTwo) {
  sandbox_.write("a.txt", "a\n");
  EXPECT_EQ(cli({"read"}).exit_code, 2);
  EXPECT_EQ(cli({"read", "a.txt", "--bogus"}).exit_code, 2);
  EXPECT_EQ(cli({"read", "a.txt", "--from", "x"}).exit_code, 2);
  EXPECT_EQ(cli({"edit", "a.txt", "--edits", "{not json"}).exit_code, 2);
  EXPECT_EQ(cli({"replace", "a.txt", "--old", "a"}).exit_code, 2);
  EXPECT_EQ(cli({"range", "a.txt", "--start", "1", "--end", "1", "--content", "x"}).exit_code, 2);
  EXPECT_EQ(runHashline({"frobnicate"}, sandbox_.workspace()).exit_code, 2);
  // Wrong shape reaching the service: a protocol fault, exit 2, nothing written.
  EXPECT_EQ(cli({"edit", "a.txt", "--edits", "[42]"}).exit_code, 2);
  EXPECT_EQ(sandbox_.read("a.txt"), "a\n");
  CliRun help = runHashline({"read", "--help"}, sandbox_.workspace());
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("usage: hashline read PATH"), std::string::npos);
  CliRun top = runHashline({"--help"}, sandbox_.workspace());
  EXPECT_EQ(top.exit_code, 0);
  for (const char* name :
       {"read", "edit", "replace", "headtail", "range", "patch", "draft", "ed", "status", "mcp"})
    EXPECT_NE(top.out.find(std::string("  ") + name + " "), std::string::npos) << name;
}

TEST_F(CliDiskTest, ReplaceAndPatchKeepLineEndings) {
  sandbox_.write("win.txt", "one\r\ntwo\r\nthree\r\n");
  ASSERT_EQ(cli({"read", "win.txt"}).exit_code, 0);
  CliRun replace = cli({"replace", "win.txt", "--old", "two", "--new", "TWO"});
  ASSERT_EQ(replace.exit_code, 0) << replace.err;
  EXPECT_EQ(sandbox_.read("win.txt"), "one\r\nTWO\r\nthree\r\n");
  CliRun missing = cli({"replace", "win.txt", "--old", "four", "--new", "4"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(firstWord(missing.err), "NOT_FOUND") << missing.err;

  std::string patch = "*** Begin Patch\n*** Update File: win.txt\n@@\n one\n-TWO\n+2\n"
                      "*** Add File: new.txt\n+fresh\n*** End Patch\n";
  CliRun applied = cli({"patch", "-"}, patch);
  ASSERT_EQ(applied.exit_code, 0) << applied.err;
  EXPECT_EQ(sandbox_.read("win.txt"), "one\r\n2\r\nthree\r\n");
  EXPECT_EQ(sandbox_.read("new.txt"), "fresh\n");
}

} // namespace
} // namespace hashline::test
