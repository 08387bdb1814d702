// Every method of every front end, sent a wrong type or value for each of its parameters (issue
// 14, defect 1): the real `hashline` binary must refuse it as invalid params — JSON-RPC -32602
// naming the field over LSP `workspace/executeCommand` and the agent socket, an `isError`
// INVALID_ARGUMENTS result over MCP, exit status 2 on the CLI — and change nothing: the
// workspace's file bytes and the journal (`hashline log`) are compared before and after. The
// journal holds ops of two turns, so a malformed rewind or undo that acted would show.
#include "agent_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace hashline::test {
namespace {

using nlohmann::json;

/// One malformed call: `method`'s valid `base` params with `field` set to `wrong`.
struct BadParam {
  std::string method;
  json base;
  std::string field;
  json wrong;
  /// MCP sets session and agent itself (the tools do not take them): skipped there.
  bool over_mcp = true;
};

std::vector<BadParam> badParams() {
  const json read = {{"path", "a.txt"}};
  const json edit = {
      {"path", "a.txt"},
      {"edits", json::array({{{"op", "replace"}, {"anchor", "1:aaa:bbb"}, {"content", "x"}}})}};
  const json replace = {{"path", "a.txt"}, {"old", "zzz"}, {"new", "y"}};
  const json headtail = {{"path", "a.txt"}, {"head", "one"}, {"tail", "three"}, {"new", "x"}};
  const json range = {
      {"path", "a.txt"}, {"start", 1}, {"end", 1}, {"content", "x"}, {"version", 1}};
  const json draft = {{"path", "a.txt"}, {"draft", "x"}};
  const json ed = {{"path", "a.txt"}, {"script", "1d"}};
  const json patch = {{"patch", "*** Begin Patch\n*** End Patch\n"}};
  const json undo = {{"op", "1"}};
  const json reject = {{"hunk", "1#1"}};
  const json rewind = {{"turn", 1}};
  const json accept = {{"hunk", "1#1"}};
  const json diff = {{"op", "1"}};
  const json turn = {{"action", "current"}};
  const json none = json::object();
  const json resolve = {{"conflict", "c1"}, {"take", "ours"}};
  std::vector<BadParam> cases = {
      {"read", read, "path", 42},
      {"read", read, "from", "1"},
      {"read", read, "to", 2.5},
      {"read", read, "tier", "bogus"},
      {"read", read, "format", 7},
      {"read", read, "session", 1, false},
      {"read", read, "agent", false, false},
      {"read", read, "turn", "1x"},
      {"edit", edit, "edits", "x"},
      {"edit", edit, "edits", json::array({{{"op", "bogus"}, {"anchor", "1:aaa:bbb"}}})},
      {"edit", edit, "edits", json::array({{{"op", "replace"}, {"anchor", 1.5}}})},
      {"edit", edit, "dry_run", "yes"},
      {"edit", edit, "confirm", "yes"},
      {"edit", edit, "turn", 2.0},
      {"edit", edit, "turn", "latest"},
      {"edit", edit, "turn", 0},
      {"edit", edit, "turn", -1},
      {"replace", replace, "old", 1},
      {"replace", replace, "new", json::array()},
      {"replace", replace, "replace_all", "true"},
      {"replace", replace, "dry_run", 1},
      {"headtail", headtail, "head", 1},
      {"headtail", headtail, "new", json::object()},
      {"range", range, "start", "1"},
      {"range", range, "end", 1.5},
      {"range", range, "version", "1"},
      {"range", range, "version", -1},
      {"range", range, "content", 3},
      {"draft", draft, "draft", 1},
      {"ed", ed, "script", 1},
      {"ed", ed, "version", "v"},
      {"patch", patch, "patch", 1},
      {"patch", patch, "dry_run", "no"},
      {"status", none, "session", 1, false},
      {"status", none, "turn", "x"},
      {"status", none, "confirm", "x"},
      {"undo", undo, "op", "1x"},
      {"undo", undo, "op", true},
      {"undo", undo, "op", 0},
      {"undo", undo, "op", -1},
      {"undo", undo, "dry_run", "yes"},
      {"undo", undo, "turn", "1x"},
      {"reject", reject, "hunk", "x#"},
      {"reject", reject, "hunk", 1.5},
      {"reject", reject, "dry_run", "yes"},
      {"rewind", rewind, "turn", "latest"},
      {"rewind", rewind, "turn", 2.0},
      {"rewind", rewind, "turn", "1x"},
      {"rewind", rewind, "turn", 0},
      {"rewind", rewind, "path", 5},
      {"rewind", rewind, "session", json::array(), false},
      {"rewind", rewind, "dry_run", "yes"},
      {"accept", accept, "hunk", json::object()},
      {"accept", accept, "turn", "1"},
      {"pending", none, "turn", "1"},
      {"pending", none, "path", 1},
      {"log", none, "limit", "5"},
      {"log", none, "limit", 0},
      {"log", none, "turn", 1.5},
      {"diff", diff, "op", "abc"},
      {"diff", diff, "kind", "bogus"},
      {"diff", diff, "kind", 1},
      {"turn", turn, "action", "bogus"},
      {"turn", turn, "action", 1},
      {"turn", turn, "turn", "2"},
      {"turn", turn, "session", 3, false},
      // Reconciliation (issue 13): not MCP tools.
      {"conflicts", none, "path", 7, false},
      {"conflicts", none, "uri", json::array(), false},
      {"resolve", resolve, "conflict", 1, false},
      {"resolve", resolve, "take", "mine", false},
  };
  return cases;
}

json paramsOf(const BadParam& bad) {
  json params = bad.base;
  params[bad.field] = bad.wrong;
  return params;
}

std::string describe(const BadParam& bad) {
  return bad.method + " " + paramsOf(bad).dump();
}

/// Malformed CLI invocations: each must exit 2.
std::vector<std::vector<std::string>> badCommandLines() {
  return {
      {"read", "a.txt", "--from", "x"},
      {"read", "a.txt", "--to", "1.5"},
      {"read", "a.txt", "--tier", "bogus"},
      {"read", "a.txt", "--turn", "1x"},
      {"read", "a.txt", "--turn", "latest"},
      {"read", "a.txt", "--turn", "2.0"},
      {"read", "a.txt", "--turn", "0"},
      {"edit", "a.txt", "--edits", "\"x\""},
      {"edit", "a.txt", "--edits", R"([{"op":"bogus","anchor":"1:aaa:bbb"}])"},
      {"replace", "a.txt", "--old", "one", "--new", "ONE", "--turn", "x"},
      {"range", "a.txt", "--start", "x", "--end", "1", "--at", "1", "--content", "y"},
      {"range", "a.txt", "--start", "1", "--end", "1x", "--at", "1", "--content", "y"},
      {"range", "a.txt", "--start", "1", "--end", "1", "--at", "2.0", "--content", "y"},
      {"ed", "a.txt", "--at", "v", "--script", "1d"},
      {"undo", "1x"},
      {"undo", "0"},
      {"reject", "x#"},
      {"rewind", "--turn", "latest"},
      {"rewind", "--turn", "1x"},
      {"rewind", "--turn", "2.0"},
      {"rewind", "--turn", "0"},
      {"log", "--limit", "x"},
      {"log", "--limit", "0"},
      {"diff", "abc"},
      {"diff", "1", "--kind", "bogus"},
      {"turn", "bogus"},
      {"pending", "--turn", "x"},
      {"accept", "1x"},
      {"resolve", "c1", "--take", "mine"},
  };
}

class InvalidParamsTest : public ::testing::Test {
protected:
  void SetUp() override {
    sandbox_.write("a.txt", "one\ntwo\nthree\n");
    sandbox_.write("b.txt", "alpha\nbeta\n");
    // Two turns of journaled disk edits: anything a malformed request reverted would show.
    run({"read", "a.txt"});
    run({"replace", "a.txt", "--old", "two", "--new", "TWO"});
    run({"turn", "begin"});
    run({"read", "b.txt"});
    run({"replace", "b.txt", "--old", "beta", "--new", "BETA"});
    files_ = files();
    journal_ = journal();
    ASSERT_EQ(journal_.size(), 2u) << journal_;
  }

  CliRun run(const std::vector<std::string>& args) {
    CliRun result = runHashline(args, sandbox_.workspace());
    EXPECT_EQ(result.exit_code, 0) << args[0] << ": " << result.err;
    return result;
  }
  std::string files() const { return sandbox_.read("a.txt") + "\n--\n" + sandbox_.read("b.txt"); }
  /// The journal's ops, as `hashline log --json` lists them (through the sidecar when one runs).
  json journal() {
    CliRun log = run({"log", "--json"});
    return log.json()["ops"];
  }
  void expectNothingChanged(const std::string& front_end) {
    EXPECT_EQ(files(), files_) << front_end << " changed a file";
    EXPECT_EQ(journal(), journal_) << front_end << " changed the journal";
  }

  AgentSandbox sandbox_;
  std::string files_;
  json journal_;
};

TEST_F(InvalidParamsTest, CliRefusesEveryMalformedOptionWithExitTwo) {
  for (const auto& args : badCommandLines()) {
    CliRun result = runHashline(args, sandbox_.workspace());
    std::string line;
    for (const auto& arg : args)
      line += arg + " ";
    EXPECT_EQ(result.exit_code, 2) << line << "\n" << result.err;
    EXPECT_FALSE(result.err.empty()) << line;
  }
  expectNothingChanged("the CLI");
}

TEST_F(InvalidParamsTest, McpRefusesEveryMalformedArgumentAsInvalid) {
  std::string input = mcpInitializeLine(0, "t");
  std::vector<BadParam> sent;
  for (const BadParam& bad : badParams()) {
    if (!bad.over_mcp) continue;
    sent.push_back(bad);
    input += mcpRequestLine(static_cast<std::int64_t>(sent.size()), "tools/call",
                            {{"name", "hashline_" + bad.method}, {"arguments", paramsOf(bad)}});
  }
  CliRun mcp =
      runHashline({"mcp", "--workspace", sandbox_.workspace()}, sandbox_.workspace(), input);
  ASSERT_EQ(mcp.exit_code, 0) << mcp.err;
  std::map<std::int64_t, json> answers;
  std::istringstream lines(mcp.out);
  for (std::string line; std::getline(lines, line);) {
    json answer = json::parse(line, nullptr, false);
    ASSERT_FALSE(answer.is_discarded()) << line;
    if (answer["id"].is_number_integer()) answers[answer["id"].get<std::int64_t>()] = answer;
  }
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const json& answer = answers[std::int64_t(i + 1)];
    ASSERT_TRUE(answer.contains("result")) << describe(sent[i]) << " → " << answer;
    EXPECT_EQ(answer["result"]["isError"], true) << describe(sent[i]) << " → " << answer;
    std::string text = answer["result"]["content"][0]["text"];
    EXPECT_EQ(text.rfind("INVALID_ARGUMENTS: invalid params for " + sent[i].method, 0), 0u)
        << describe(sent[i]) << " → " << text;
    EXPECT_NE(text.find("params." + sent[i].field), std::string::npos)
        << describe(sent[i]) << " → " << text;
  }
  expectNothingChanged("MCP");
}

TEST_F(InvalidParamsTest, McpRefusesAMisspeltArgumentInsteadOfIgnoringIt) {
  // `dryrun` for `dry_run` must not let the edit apply; the schemas name every argument.
  const std::vector<std::pair<std::string, json>> calls = {
      {"hashline_replace", {{"path", "a.txt"}, {"old", "one"}, {"new", "ONE"}, {"dryrun", true}}},
      {"hashline_replace",
       {{"path", "a.txt"},
        {"edits", json::array({{{"old", "one"}, {"new", "1"}, {"all", true}}})}}},
      {"hashline_rewind", {{"turn", 1}, {"dry-run", true}}},
      {"hashline_undo", {{"op", "1"}, {"preview", true}}},
  };
  std::string input =
      mcpInitializeLine(0, "t") +
      mcpRequestLine(1, "tools/call",
                     {{"name", "hashline_read"}, {"arguments", {{"path", "a.txt"}}}});
  for (std::size_t i = 0; i < calls.size(); ++i)
    input += mcpRequestLine(static_cast<std::int64_t>(i + 2), "tools/call",
                            {{"name", calls[i].first}, {"arguments", calls[i].second}});
  CliRun mcp =
      runHashline({"mcp", "--workspace", sandbox_.workspace()}, sandbox_.workspace(), input);
  ASSERT_EQ(mcp.exit_code, 0) << mcp.err;
  std::map<std::int64_t, json> answers;
  std::istringstream lines(mcp.out);
  for (std::string line; std::getline(lines, line);) {
    json answer = json::parse(line, nullptr, false);
    if (!answer.is_discarded() && answer["id"].is_number_integer())
      answers[answer["id"].get<std::int64_t>()] = answer;
  }
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& result = answers[std::int64_t(i + 2)]["result"];
    std::string what = calls[i].first + " " + calls[i].second.dump() + " → " + result.dump();
    EXPECT_EQ(result["isError"], true) << what;
    EXPECT_NE(result["content"][0]["text"].get<std::string>().find("unknown argument"),
              std::string::npos)
        << what;
  }
  expectNothingChanged("MCP with misspelt arguments");
}

TEST_F(InvalidParamsTest, LspCommandsAndTheAgentSocketRefuseEveryMalformedParam) {
  LspClient editor;
  editor.initialize({{"workspace", {{"applyEdit", true}}}},
                    {{"rootUri", fileUri(sandbox_.workspace())}});
  auto discovery = waitForDiscoveryFile(sandbox_.runtime());
  ASSERT_TRUE(discovery) << editor.log();
  std::ifstream in(*discovery);
  const std::string socket = json::parse(in)["socket"];
  // The sidecar serves the workspace now: log and the CLI go through it.
  ASSERT_EQ(journal(), journal_);

  for (const BadParam& bad : badParams()) {
    json command =
        editor.call("workspace/executeCommand", {{"command", "hashline." + bad.method},
                                                 {"arguments", json::array({paramsOf(bad)})}});
    ASSERT_TRUE(command.contains("error")) << "LSP " << describe(bad) << " → " << command;
    EXPECT_EQ(command["error"]["code"], -32602) << "LSP " << describe(bad) << " → " << command;
    std::string message = command["error"]["message"];
    EXPECT_NE(message.find("params." + bad.field), std::string::npos)
        << "LSP " << describe(bad) << " → " << message;

    json answer = socketCall(socket, "hashline/" + bad.method, paramsOf(bad));
    ASSERT_TRUE(answer.contains("error")) << "socket " << describe(bad) << " → " << answer;
    EXPECT_EQ(answer["error"]["code"], -32602) << "socket " << describe(bad) << " → " << answer;
    EXPECT_EQ(answer["error"]["message"], message) << describe(bad);
  }
  expectNothingChanged("LSP commands and the socket");

  // Neovim's Lua encodes an empty table as `[]`: empty params over its LSP connection, not a
  // malformed request.
  for (const char* method : {"status", "log", "pending"}) {
    json answer = editor.call(std::string("hashline/") + method, json::array());
    EXPECT_EQ(answer["result"]["status"], "ok") << method << ": " << answer;
  }
  EXPECT_EQ(editor.call("hashline/log", json::array({1}))["error"]["code"], -32602);

  // The CLI through the sidecar refuses the same way.
  for (const auto& args : badCommandLines()) {
    CliRun result = runHashline(args, sandbox_.workspace());
    EXPECT_EQ(result.exit_code, 2) << args[0] << " " << args[1] << "\n" << result.err;
  }
  expectNothingChanged("the CLI through the sidecar");
  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
