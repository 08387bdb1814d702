// Decisions are not reviews (issue 34): a keep, reject, undo or rewind is journaled as the user's
// action and never listed as a pending hunk. Through the real binaries: a sidecar with an open,
// unsaved buffer whose editor keeps and rejects agent hunks with the LSP commands, then the
// `hashline pending` / `hashline log` CLI asking that sidecar; and the disk workspace with the CLI
// alone (reject, undo, rewind).
#include "tests/lsp/journal/journal_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline {
namespace {

using journal_test::CliRun;
using journal_test::numbered;
using journal_test::readRaw;
using journal_test::replaced;
using journal_test::ScopedEnv;
using journal_test::writeRaw;
using nlohmann::json;

/// Every hunk of `log` (ops[].hunks[]) with its op, as "op#k state".
std::vector<std::string> hunkStates(const json& log) {
  std::vector<std::string> states;
  for (const json& op : log["ops"])
    for (const json& hunk : op["hunks"])
      states.push_back(hunk["id"].get<std::string>() + " " + hunk["state"].get<std::string>());
  return states;
}

/// The ids of the hunks `pending` lists.
std::vector<std::string> pendingIds(const json& pending) {
  std::vector<std::string> ids;
  for (const json& file : pending["files"])
    for (const json& hunk : file["hunks"])
      ids.push_back(hunk["id"]);
  return ids;
}

class DecisionTest : public journal_test::CliWorkspaceTest {
protected:
  json cliJSON(std::vector<std::string> args) {
    args.push_back("--json");
    CliRun run = hashline(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return json::parse(run.out.empty() ? "{}" : run.out);
  }
};

// The editor's ✗ Reject and ✓ Keep on an agent's two hunks in an unsaved buffer.
TEST_F(DecisionTest, KeepAndRejectInTheEditorLeaveNoPendingHunk) {
  writeRaw(workspace_ / "app.py", numbered(20));
  test::LspClient editor;
  editor.initialize(json::object(), {{"rootUri", "file://" + workspace_.path()}});
  const std::string uri = "file://" + (workspace_ / "app.py");
  editor.didOpen(uri, numbered(20));
  std::string text = replaced(numbered(20), "line 1\n", "line 1 typed\n"); // unsaved typing
  editor.didChange(uri, 2, {test::LspClient::fullChange(text)});

  editor.callResult("hashline/read", {{"path", "app.py"}, {"session", "s1"}, {"agent", "claude"}});
  std::int64_t edit = editor.request(
      "hashline/replace", {{"path", "app.py"},
                           {"session", "s1"},
                           {"agent", "claude"},
                           {"edits", json::array({{{"old", "line 5\n"}, {"new", "five\n"}},
                                                  {{"old", "line 15\n"}, {"new", "fifteen\n"}}})}});
  json apply = editor.waitServerRequest("workspace/applyEdit");
  text = replaced(replaced(text, "line 5\n", "five\n"), "line 15\n", "fifteen\n");
  editor.didChange(uri, 3, {test::LspClient::fullChange(text)});
  editor.respond(apply["id"], {{"applied", true}});
  ASSERT_EQ(editor.waitResponse(edit)["result"]["status"], "applied");
  json pending = cliJSON({"pending"});
  ASSERT_EQ(pendingIds(pending), (std::vector<std::string>{"1#1", "1#2"})) << pending.dump();

  // ✗ Reject on hunk 1#2, as the extension sends it.
  std::int64_t reject =
      editor.request("workspace/executeCommand", {{"command", "hashline.reject"},
                                                  {"arguments", json::array({{{"hunk", "1#2"}}})}});
  json reversal = editor.waitServerRequest("workspace/applyEdit");
  text = replaced(text, "fifteen\n", "line 15\n");
  editor.didChange(uri, 4, {test::LspClient::fullChange(text)});
  editor.respond(reversal["id"], {{"applied", true}});
  ASSERT_EQ(editor.waitResponse(reject)["result"]["status"], "applied");

  pending = cliJSON({"pending"});
  EXPECT_EQ(pendingIds(pending), std::vector<std::string>{"1#1"}) << pending.dump();
  json log = cliJSON({"log"});
  ASSERT_EQ(log["ops"].size(), 2u) << log.dump();
  EXPECT_EQ(log["ops"][1]["method"], "reject");
  EXPECT_EQ(log["ops"][1]["agent"], "user"); // the user's action, not an agent's
  EXPECT_EQ(hunkStates(log),
            (std::vector<std::string>{"1#1 pending", "1#2 reverted", "2#1 decision"}));

  // ✓ Keep on hunk 1#1: nothing is left to review, in `pending` or in `log`.
  json kept = editor.callResult(
      "workspace/executeCommand",
      {{"command", "hashline.accept"}, {"arguments", json::array({{{"hunk", "1#1"}}})}});
  ASSERT_EQ(kept["status"], "ok") << kept.dump();
  EXPECT_EQ(cliJSON({"pending"})["count"], 0);
  EXPECT_EQ(hunkStates(cliJSON({"log"})),
            (std::vector<std::string>{"1#1 accepted", "1#2 reverted", "2#1 decision"}));
  CliRun human_log = hashline({"log"});
  EXPECT_EQ(human_log.out.find("pending"), std::string::npos) << human_log.out;
  EXPECT_NE(hashline({"pending"}).out.find("0 pending"), std::string::npos);
  // An accept of the decision itself changes nothing.
  EXPECT_EQ(cliJSON({"accept", "2"})["accepted"], json::array());
  EXPECT_EQ(readRaw(workspace_ / "app.py"), numbered(20)); // the disk was never written
}

// Reject, undo and rewind from the CLI on disk files: each journaled as the user's decision.
TEST_F(DecisionTest, RejectUndoAndRewindOnDiskAreDecisions) {
  ScopedEnv no_sidecar{"HASHLINE_NO_SIDECAR", "1"};
  writeRaw(workspace_ / "a.txt", numbered(20));
  ASSERT_EQ(hashline({"read", "a.txt", "--session", "agent"}).exit_code, 0);
  CliRun edit = hashline({"replace", "a.txt", "--session", "agent", "--agent", "codex", "--edits",
                          R"([{"old":"line 2\n","new":"H1\n"},{"old":"line 12\n","new":"H2\n"}])"});
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  ASSERT_EQ(hashline({"reject", "1#2"}).exit_code, 0);
  ASSERT_EQ(hashline({"undo", "1"}).exit_code, 0); // the rest of op 1
  EXPECT_EQ(readRaw(workspace_ / "a.txt"), numbered(20));
  EXPECT_EQ(cliJSON({"pending"})["count"], 0);
  json log = cliJSON({"log"});
  EXPECT_EQ(hunkStates(log), (std::vector<std::string>{"1#1 reverted", "1#2 reverted",
                                                       "2#1 decision", "3#1 decision"}));
  EXPECT_EQ(log["ops"][1]["agent"], "user");
  EXPECT_EQ(log["ops"][2]["agent"], "user");

  // A rewind of a new turn, by an agent that names itself: still a decision, its name kept.
  CliRun turn = hashline({"turn", "begin", "--session", "agent", "--json"});
  std::string t = std::to_string(json::parse(turn.out)["turn"].get<int>());
  ASSERT_EQ(hashline({"read", "a.txt", "--session", "agent"}).exit_code, 0);
  ASSERT_EQ(
      hashline({"replace", "a.txt", "--session", "agent", "--old", "line 7\n", "--new", "seven\n"})
          .exit_code,
      0);
  ASSERT_EQ(hashline({"rewind", "--turn", t, "--session", "agent", "--agent", "codex"}).exit_code,
            0);
  EXPECT_EQ(cliJSON({"pending"})["count"], 0);
  log = cliJSON({"log"});
  ASSERT_EQ(log["ops"].size(), 5u) << log.dump();
  EXPECT_EQ(log["ops"][4]["method"], "rewind");
  EXPECT_EQ(log["ops"][4]["agent"], "codex");
  EXPECT_EQ(log["ops"][4]["hunks"][0]["state"], "decision");

  // Undoing a decision brings the agent's change back, and it is pending review again.
  ASSERT_EQ(hashline({"undo", "2"}).exit_code, 0); // op 2 rejected 1#2
  json pending = cliJSON({"pending"});
  EXPECT_EQ(pendingIds(pending), std::vector<std::string>{"1#2"}) << pending.dump();
  log = cliJSON({"log"});
  EXPECT_EQ(log["ops"][5]["hunks"][0]["state"], "decision");
}

} // namespace
} // namespace hashline
