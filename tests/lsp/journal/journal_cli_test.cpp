// The journal through the real `hashline` binary on a disk workspace (no sidecar): edits by one
// process, `log`, `undo`, `rewind --turn`, `pending`/`reject` by later processes (the journal
// survives between runs), exit codes and CONFLICT; and crash safety: a CLI edit SIGKILLed at
// random points while appending leaves a journal every later run can read.
#include "tests/lsp/journal/journal_test_util.h"
#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/lsp_client.h"

#include <csignal>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace hashline {
namespace {

using journal_test::CliRun;
using journal_test::numbered;
using journal_test::readRaw;
using journal_test::ScopedEnv;
using journal_test::writeRaw;
using nlohmann::json;

class JournalCliTest : public journal_test::CliWorkspaceTest {
protected:
  json logJSON() {
    CliRun run = hashline({"log", "--json"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return json::parse(run.out);
  }

  void agentReplace(const std::string& file, const std::string& old_text,
                    const std::string& new_text) {
    ASSERT_EQ(hashline({"read", file, "--session", "agent"}).exit_code, 0);
    CliRun run =
        hashline({"replace", file, "--old", old_text, "--new", new_text, "--session", "agent"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }

  std::string file(const std::string& name) { return readRaw(workspace_ / name); }

  ScopedEnv no_sidecar_{"HASHLINE_NO_SIDECAR", "1"};
};

TEST_F(JournalCliTest, UndoAcrossRunsAndConflict) {
  writeRaw(workspace_ / "a.txt", numbered(30));
  agentReplace("a.txt", "line 10\nline 11\n", "A10\nA11\n");
  json log = logJSON();
  ASSERT_EQ(log["ops"].size(), 1u) << log.dump();
  std::string op = std::to_string(log["ops"][0]["op"].get<int>());
  // The user edits another line; a separate process undoes.
  std::string text = file("a.txt");
  text.replace(text.find("line 25"), 7, "user 25");
  writeRaw(workspace_ / "a.txt", text);
  CliRun undo = hashline({"undo", op});
  ASSERT_EQ(undo.exit_code, 0) << undo.err;
  EXPECT_NE(undo.out.find("reverted " + op + "#1"), std::string::npos) << undo.out;
  std::string expected = numbered(30);
  expected.replace(expected.find("line 25"), 7, "user 25");
  EXPECT_EQ(file("a.txt"), expected);
  // The human log shows the op as undone.
  CliRun human = hashline({"log"});
  EXPECT_NE(human.out.find("(undone)"), std::string::npos) << human.out;

  agentReplace("a.txt", "line 10\nline 11\n", "B10\nB11\n");
  std::string op2 = std::to_string(logJSON()["ops"].back()["op"].get<int>());
  text = file("a.txt");
  text.replace(text.find("B11"), 3, "U11");
  writeRaw(workspace_ / "a.txt", text);
  CliRun conflict = hashline({"undo", op2});
  EXPECT_EQ(conflict.exit_code, 1);
  EXPECT_EQ(conflict.err.rfind("CONFLICT", 0), 0u) << conflict.err;
  EXPECT_EQ(file("a.txt"), text);
}

TEST_F(JournalCliTest, RewindTurnDiffAndReject) {
  writeRaw(workspace_ / "a.txt", numbered(20));
  writeRaw(workspace_ / "b.txt", numbered(20));
  CliRun turn = hashline({"turn", "begin", "--session", "agent", "--json"});
  ASSERT_EQ(turn.exit_code, 0) << turn.err;
  std::string t = std::to_string(json::parse(turn.out)["turn"].get<int>());
  agentReplace("a.txt", "line 3\n", "A3\n");
  agentReplace("b.txt", "line 4\n", "B4\n");
  CliRun diff = hashline({"diff", "--turn", t, "--session", "agent"});
  ASSERT_EQ(diff.exit_code, 0) << diff.err;
  EXPECT_NE(diff.out.find("-line 3\n+A3\n"), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("-line 4\n+B4\n"), std::string::npos) << diff.out;
  CliRun preview = hashline({"rewind", "--turn", t, "--session", "agent", "--dry-run"});
  ASSERT_EQ(preview.exit_code, 0) << preview.err;
  EXPECT_NE(file("a.txt").find("A3"), std::string::npos); // nothing written
  CliRun rewind = hashline({"rewind", "--turn", t, "--session", "agent"});
  ASSERT_EQ(rewind.exit_code, 0) << rewind.err;
  EXPECT_EQ(file("a.txt"), numbered(20));
  EXPECT_EQ(file("b.txt"), numbered(20));

  // Hunk grain.
  ASSERT_EQ(hashline({"read", "a.txt", "--session", "agent"}).exit_code, 0);
  CliRun edit = hashline({"replace", "a.txt", "--session", "agent", "--edits",
                          R"([{"old":"line 2\n","new":"H1\n"},{"old":"line 12\n","new":"H2\n"}])"});
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  std::string op = std::to_string(logJSON()["ops"].back()["op"].get<int>());
  CliRun pending = hashline({"pending"});
  EXPECT_NE(pending.out.find(op + "#2  line 12"), std::string::npos) << pending.out;
  CliRun reject = hashline({"reject", op + "#2"});
  ASSERT_EQ(reject.exit_code, 0) << reject.err;
  std::string expected = numbered(20);
  expected.replace(expected.find("line 2\n"), 7, "H1\n");
  EXPECT_EQ(file("a.txt"), expected);
  EXPECT_EQ(hashline({"accept", op + "#1"}).exit_code, 0);
  EXPECT_NE(hashline({"pending"}).out.find("0 pending"), std::string::npos);
  EXPECT_EQ(hashline({"undo", "nonsense"}).exit_code, 2);
}

TEST_F(JournalCliTest, KilledWhileAppendingLeavesAReadableJournal) {
  writeRaw(workspace_ / "a.txt", numbered(200));
  ASSERT_EQ(hashline({"read", "a.txt", "--session", "agent"}).exit_code, 0);
  // Kill edits at staggered moments; some land, some die mid-way. Every later run must still
  // read the journal, and every recorded op must be complete.
  for (int round = 0; round < 12; ++round) {
    std::string line = "line " + std::to_string(round + 1) + "\n";
    pid_t pid = ::fork();
    if (pid == 0) {
      if (::chdir(workspace_.path().c_str()) != 0) ::_exit(127);
      std::freopen("/dev/null", "w", stdout);
      std::freopen("/dev/null", "w", stderr);
      std::string binary = hashline::test::hashlineBinary();
      std::vector<std::string> args = {binary,  "replace", "a.txt",     "--old", line,
                                       "--new", "X\n",     "--session", "agent"};
      std::vector<char*> argv;
      for (std::string& arg : args)
        argv.push_back(arg.data());
      argv.push_back(nullptr);
      ::execv(binary.c_str(), argv.data());
      ::_exit(127);
    }
    ::usleep(static_cast<useconds_t>(1000 * (round * 3)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_EQ(hashline({"read", "a.txt", "--session", "agent"}).exit_code, 0);
    CliRun log = hashline({"log", "--json"});
    ASSERT_EQ(log.exit_code, 0) << log.err;
    json parsed = json::parse(log.out);
    for (const json& op : parsed["ops"])
      EXPECT_EQ(op["hunks"].size(), 1u) << op.dump();
  }
  // A torn record appended by hand is skipped too, and the journal still takes new ops.
  json log = logJSON();
  std::string journal_path = log["journal"];
  {
    std::FILE* out = std::fopen(journal_path.c_str(), "ab");
    std::fputs("{\"t\":\"op\",\"id\":", out);
    std::fclose(out);
  }
  agentReplace("a.txt", "line 150\n", "Y\n");
  json after = logJSON();
  EXPECT_EQ(after["ops"].size(), log["ops"].size() + 1) << after.dump();
  std::string op = std::to_string(after["ops"].back()["op"].get<int>());
  EXPECT_EQ(hashline({"undo", op}).exit_code, 0);
  EXPECT_NE(file("a.txt").find("line 150\n"), std::string::npos);
}

TEST_F(JournalCliTest, SidecarKilledThenUndoFromTheCliOnDisk) {
  writeRaw(workspace_ / "d.txt", numbered(10));
  std::string op;
  {
    test::LspClient sidecar;
    sidecar.initialize(json::object(), {{"rootUri", "file://" + workspace_.path()}});
    json read = sidecar.callResult("hashline/read", {{"path", "d.txt"}, {"session", "agent"}});
    ASSERT_EQ(read["status"], "ok") << read.dump();
    json edit = sidecar.callResult(
        "hashline/replace",
        {{"path", "d.txt"}, {"session", "agent"}, {"old", "line 6\n"}, {"new", "six\n"}});
    ASSERT_EQ(edit["status"], "applied") << edit.dump();
    json log = sidecar.callResult("hashline/log", json::object());
    ASSERT_EQ(log["ops"].size(), 1u) << log.dump();
    op = std::to_string(log["ops"][0]["op"].get<int>());
    json status = sidecar.callResult("hashline/status", json::object());
    ASSERT_EQ(::kill(status["pid"].get<pid_t>(), SIGKILL), 0);
    EXPECT_EQ(sidecar.waitForExit(), 128 + SIGKILL);
  }
  CliRun undo = hashline({"undo", op});
  ASSERT_EQ(undo.exit_code, 0) << undo.err;
  EXPECT_EQ(file("d.txt"), numbered(10));
}

TEST_F(JournalCliTest, McpToolsListAndUndo) {
  writeRaw(workspace_ / "f.txt", "a\nb\nc\n");
  auto line = [](int id, const std::string& method, json params) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() +
           "\n";
  };
  std::string input =
      line(1, "initialize",
           {{"protocolVersion", "2025-06-18"},
            {"capabilities", json::object()},
            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}) +
      json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump() + "\n" +
      line(2, "tools/list", json::object()) +
      line(3, "tools/call", {{"name", "hashline_read"}, {"arguments", {{"path", "f.txt"}}}}) +
      line(4, "tools/call",
           {{"name", "hashline_replace"},
            {"arguments", {{"path", "f.txt"}, {"old", "b\n"}, {"new", "B\n"}}}}) +
      line(5, "tools/call", {{"name", "hashline_log"}, {"arguments", json::object()}});
  CliRun run = hashline({"mcp", "--workspace", workspace_.path(), "--structured"}, input);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<int, json> answers;
  std::size_t start = 0;
  for (std::size_t end; (end = run.out.find('\n', start)) != std::string::npos; start = end + 1) {
    json message = json::parse(run.out.substr(start, end - start));
    if (message.contains("id")) answers[message["id"].get<int>()] = message;
  }
  std::set<std::string> names;
  for (const json& tool : answers[2]["result"]["tools"])
    names.insert(tool["name"]);
  for (const char* name :
       {"hashline_log", "hashline_diff", "hashline_undo", "hashline_rewind", "hashline_turn",
        "hashline_pending", "hashline_accept", "hashline_reject"})
    EXPECT_TRUE(names.count(name)) << name;
  const json& log = answers[5]["result"]["structuredContent"];
  ASSERT_EQ(log["ops"].size(), 1u) << answers[5].dump();
  std::string op = std::to_string(log["ops"][0]["op"].get<int>());
  CliRun undo =
      hashline({"mcp", "--workspace", workspace_.path()},
               line(1, "initialize",
                    {{"protocolVersion", "2025-06-18"},
                     {"capabilities", json::object()},
                     {"clientInfo", {{"name", "t"}, {"version", "1"}}}}) +
                   line(2, "tools/call", {{"name", "hashline_undo"}, {"arguments", {{"op", op}}}}));
  ASSERT_EQ(undo.exit_code, 0) << undo.err;
  EXPECT_NE(undo.out.find("reverted " + op + "#1"), std::string::npos) << undo.out;
  EXPECT_EQ(file("f.txt"), "a\nb\nc\n");
}

/// The "hint: ..." line of a refusal printed on stderr.
std::string hintOf(const std::string& err) {
  std::size_t at = err.find("hint: ");
  if (at == std::string::npos) return "";
  return err.substr(at + 6, err.find('\n', at) - at - 6);
}

TEST_F(JournalCliTest, RefusalsHintAtWhatFitsTheirCommand) {
  writeRaw(workspace_ / "a.txt", numbered(10));
  agentReplace("a.txt", "line 3\n", "A3\n");
  const std::string op = std::to_string(logJSON()["ops"][0]["op"].get<int>());
  struct Case {
    std::vector<std::string> args;
    std::string code;
    std::string hint_names; // a word the hint must contain
  };
  const std::vector<Case> cases = {
      {{"undo", "4711"}, "NOT_FOUND", "log"},
      {{"reject", "4711#1"}, "NOT_FOUND", "log"},
      {{"reject", op + "#9"}, "NOT_FOUND", "pending"},
      {{"accept", "4711"}, "NOT_FOUND", "log"},
      {{"diff", "4711"}, "NOT_FOUND", "log"},
      {{"rewind", "--turn", "99"}, "NO_CHANGE", "log"},
  };
  for (const Case& c : cases) {
    CliRun run = hashline(c.args);
    EXPECT_EQ(run.exit_code, 1) << c.args[0] << ": " << run.err;
    EXPECT_EQ(run.err.rfind(c.code, 0), 0u) << c.args[0] << ": " << run.err;
    std::string hint = hintOf(run.err);
    EXPECT_NE(hint.find(c.hint_names), std::string::npos) << c.args[0] << ": " << run.err;
    // The edit forms' hints do not fit the journal's commands.
    EXPECT_EQ(hint.find("old text"), std::string::npos) << c.args[0] << ": " << hint;
    EXPECT_EQ(hint.find("the edit"), std::string::npos) << c.args[0] << ": " << hint;
  }
  ASSERT_EQ(hashline({"undo", op}).exit_code, 0);
  CliRun again = hashline({"undo", op});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err.rfind("NO_CHANGE", 0), 0u) << again.err;
  EXPECT_NE(hintOf(again.err).find("log"), std::string::npos) << again.err;
  EXPECT_EQ(hintOf(again.err).find("check the new text"), std::string::npos) << again.err;
}

/// Issue 14, defect 1, as reproduced: over MCP a malformed `turn` rewound the whole session and
/// `dry_run: "yes"` answered -32603. Each is now an isError INVALID_ARGUMENTS result naming the
/// field, and nothing is reverted; a well-formed rewind of turn 1 still reverts turn 1 only.
TEST_F(JournalCliTest, McpMalformedTurnOrDryRunNeverRewinds) {
  writeRaw(workspace_ / "a.txt", numbered(10));
  writeRaw(workspace_ / "b.txt", numbered(10));
  auto line = [](int id, const std::string& method, json params) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() +
           "\n";
  };
  auto call = [&](int id, const std::string& tool, json arguments) {
    return line(id, "tools/call", {{"name", tool}, {"arguments", arguments}});
  };
  const std::string initialize = line(0, "initialize",
                                      {{"protocolVersion", "2025-06-18"},
                                       {"capabilities", json::object()},
                                       {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  // Turn 1 edits a.txt, turn 2 edits b.txt, all in the MCP session.
  CliRun setup = hashline(
      {"mcp", "--workspace", workspace_.path()},
      initialize + call(1, "hashline_read", {{"path", "a.txt"}}) +
          call(2, "hashline_replace", {{"path", "a.txt"}, {"old", "line 2\n"}, {"new", "A2\n"}}) +
          call(3, "hashline_turn", {{"action", "begin"}}) +
          call(4, "hashline_read", {{"path", "b.txt"}}) +
          call(5, "hashline_replace", {{"path", "b.txt"}, {"old", "line 5\n"}, {"new", "B5\n"}}));
  ASSERT_EQ(setup.exit_code, 0) << setup.err;
  const std::string a = file("a.txt"), b = file("b.txt");
  ASSERT_NE(a, numbered(10)) << setup.out;
  ASSERT_NE(b, numbered(10)) << setup.out;
  const json ops = logJSON()["ops"];
  ASSERT_EQ(ops.size(), 2u) << ops.dump();
  const std::string first_op = std::to_string(ops[0]["op"].get<int>());

  const std::vector<std::pair<std::string, json>> malformed = {
      {"hashline_rewind", {{"turn", "latest"}}},
      {"hashline_rewind", {{"turn", 2.0}}},
      {"hashline_rewind", {{"turn", "1x"}}},
      {"hashline_rewind", {{"turn", 1}, {"dry_run", "yes"}}},
      {"hashline_undo", {{"op", first_op}, {"dry_run", "yes"}}},
      {"hashline_reject", {{"hunk", first_op + "#1"}, {"dry_run", "yes"}}},
  };
  std::string input = initialize;
  for (std::size_t i = 0; i < malformed.size(); ++i)
    input += call(int(i + 1), malformed[i].first, malformed[i].second);
  CliRun run = hashline({"mcp", "--workspace", workspace_.path()}, input);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<int, json> answers;
  std::size_t start = 0;
  for (std::size_t end; (end = run.out.find('\n', start)) != std::string::npos; start = end + 1) {
    json message = json::parse(run.out.substr(start, end - start));
    if (message.contains("id")) answers[message["id"].get<int>()] = message;
  }
  for (std::size_t i = 0; i < malformed.size(); ++i) {
    const json& answer = answers[int(i + 1)];
    std::string what =
        malformed[i].first + " " + malformed[i].second.dump() + " → " + answer.dump();
    ASSERT_TRUE(answer.contains("result")) << what; // not a -32603 internal error
    EXPECT_EQ(answer["result"]["isError"], true) << what;
    std::string text = answer["result"]["content"][0]["text"];
    EXPECT_EQ(text.rfind("INVALID_ARGUMENTS", 0), 0u) << what;
    std::string field = malformed[i].second.contains("dry_run")
                            ? "params.dry_run: expected a boolean"
                            : "params.turn: expected an integer";
    EXPECT_NE(text.find(field), std::string::npos) << what;
  }
  EXPECT_EQ(file("a.txt"), a);
  EXPECT_EQ(file("b.txt"), b);
  EXPECT_EQ(logJSON()["ops"], ops);

  // The well-formed request acts, on turn 1 only: the check above could have seen a change.
  CliRun rewind = hashline({"mcp", "--workspace", workspace_.path()},
                           initialize + call(1, "hashline_rewind", {{"turn", 1}}));
  ASSERT_EQ(rewind.exit_code, 0) << rewind.err;
  EXPECT_EQ(file("a.txt"), numbered(10)) << rewind.out;
  EXPECT_EQ(file("b.txt"), b);
}

} // namespace
} // namespace hashline
