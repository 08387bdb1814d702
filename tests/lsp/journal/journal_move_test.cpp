// Undo and rewind of a journaled move (patch `*** Move to:`) on disk files through the
// in-process service (HashlineService::forDisk), as the CLI runs it: the moved file's hunks are
// reversed with the usual rebase/CONFLICT rules, then it is moved back; refused with CONFLICT and
// nothing written when the origin exists again, the file is gone, or a hunk's lines changed; a
// move onto an existing file (its `delete` op, then the `move`) is rewound whole; the move back
// is a journaled move itself, so it can be undone again; rejecting one hunk does not move it;
// a buffer open at either path (a real `hashline lsp`) refuses the move back until closed, and a
// rewind failing after the move back moves the file forward again.
#include "lsp/service/hashline_service.h"
#include "tests/lsp/journal/journal_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <memory>

namespace hashline::lsp {
namespace {

using journal_test::numbered;
using journal_test::readRaw;
using journal_test::replaced;
using journal_test::ScopedEnv;
using journal_test::TempDir;
using journal_test::writeRaw;
using nlohmann::json;

class JournalMoveTest : public ::testing::Test {
protected:
  void SetUp() override { service_ = HashlineService::forDisk({workspace_.path()}); }

  json call(const std::string& method, json params) {
    return journal_test::callDisk(*service_, method, std::move(params));
  }

  /// Moves `from` to `to` by a patch, changing line 5 ("line 5" → "five") on the way.
  json movePatch(const std::string& from, const std::string& to, bool change = true) {
    call("read", {{"path", from}, {"session", "agent"}});
    if (exists(to)) call("read", {{"path", to}, {"session", "agent"}});
    std::string hunk = change ? "@@\n-line 5\n+five\n" : "";
    json patch =
        call("patch", {{"session", "agent"},
                       {"patch", "*** Begin Patch\n*** Update File: " + from +
                                     "\n*** Move to: " + to + "\n" + hunk + "*** End Patch\n"}});
    EXPECT_EQ(patch["status"], "applied") << patch.dump();
    return patch;
  }

  json ops() { return call("log", json::object())["ops"]; }
  std::uint64_t lastOp() { return ops().back()["op"].get<std::uint64_t>(); }
  bool exists(const std::string& name) { return std::filesystem::exists(workspace_ / name); }
  std::string file(const std::string& name) { return readRaw(workspace_ / name); }

  TempDir state_;
  TempDir runtime_;
  TempDir workspace_;
  ScopedEnv state_env_{"HASHLINE_STATE_DIR", state_.path()};
  ScopedEnv runtime_env_{"HASHLINE_RUNTIME_DIR", runtime_.path()};
  std::unique_ptr<HashlineService> service_;
};

TEST_F(JournalMoveTest, UndoOfAMoveRestoresPathAndBytesAndIsUndoable) {
  const std::string original = numbered(20);
  writeRaw(workspace_ / "a.txt", original);
  movePatch("a.txt", "b.txt");
  const std::string moved = replaced(original, "line 5\n", "five\n");
  ASSERT_EQ(file("b.txt"), moved);
  std::uint64_t move = lastOp();

  json undone = call("undo", {{"op", move}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  EXPECT_EQ(file("a.txt"), original);
  EXPECT_FALSE(exists("b.txt"));
  json log = ops();
  const json& back = log.back();
  EXPECT_EQ(back["method"], "undo");
  EXPECT_EQ(back["kind"], "move");
  EXPECT_EQ(back["name"], "b.txt");
  EXPECT_EQ(back["movedTo"], workspace_ / "a.txt");
  EXPECT_EQ(log[log.size() - 2]["inEffect"], false) << log.dump();
  EXPECT_EQ(log[log.size() - 2]["movedBackBy"], back["op"]);
  // A new process reads the same state from the journal file.
  service_ = HashlineService::forDisk({workspace_.path()});
  EXPECT_EQ(ops(), log);

  // The move back is an op like any: undoing it moves the file forward again (redo).
  json redone = call("undo", {{"op", back["op"]}});
  ASSERT_EQ(redone["status"], "applied") << redone.dump();
  EXPECT_FALSE(exists("a.txt"));
  EXPECT_EQ(file("b.txt"), moved);
  log = ops();
  EXPECT_EQ(log[log.size() - 3]["inEffect"], true) << log.dump(); // the move is back in effect
  // …and once more.
  ASSERT_EQ(call("undo", {{"op", move}})["status"], "applied");
  EXPECT_EQ(file("a.txt"), original);
  EXPECT_FALSE(exists("b.txt"));
}

TEST_F(JournalMoveTest, APureMoveIsUndone) {
  writeRaw(workspace_ / "a.txt", numbered(8));
  movePatch("a.txt", "sub/b.txt", false);
  ASSERT_EQ(file("sub/b.txt"), numbered(8));
  json undone = call("undo", {{"op", lastOp()}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  EXPECT_EQ(file("a.txt"), numbered(8));
  EXPECT_FALSE(exists("sub/b.txt"));
  // Nothing in effect any more.
  EXPECT_EQ(call("undo", {{"op", ops()[0]["op"]}})["error"]["code"], "NO_CHANGE");
}

TEST_F(JournalMoveTest, UserChangesElsewhereInTheMovedFileAreKept) {
  const std::string original = numbered(20);
  writeRaw(workspace_ / "a.txt", original);
  movePatch("a.txt", "b.txt");
  std::uint64_t move = lastOp();
  // The user edits the moved file far from the agent's hunk.
  writeRaw(workspace_ / "b.txt",
           replaced(replaced(original, "line 5\n", "five\n"), "line 15\n", "user 15\n"));
  json undone = call("undo", {{"op", move}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  EXPECT_EQ(file("a.txt"), replaced(original, "line 15\n", "user 15\n"));
  EXPECT_FALSE(exists("b.txt"));
}

TEST_F(JournalMoveTest, AChangeToTheMovedHunkIsAConflictAndNothingIsWritten) {
  writeRaw(workspace_ / "a.txt", numbered(20));
  movePatch("a.txt", "b.txt");
  std::uint64_t move = lastOp();
  const std::string user = replaced(numbered(20), "line 5\n", "user five\n");
  writeRaw(workspace_ / "b.txt", user);
  std::size_t before = ops().size();
  json refused = call("undo", {{"op", move}});
  EXPECT_EQ(refused["error"]["code"], "CONFLICT") << refused.dump();
  EXPECT_FALSE(exists("a.txt"));
  EXPECT_EQ(file("b.txt"), user);
  EXPECT_EQ(ops().size(), before);
}

TEST_F(JournalMoveTest, TheOriginRecreatedOrTheFileGoneIsAConflict) {
  writeRaw(workspace_ / "a.txt", numbered(20));
  movePatch("a.txt", "b.txt");
  std::uint64_t move = lastOp();
  const std::string moved = file("b.txt");
  writeRaw(workspace_ / "a.txt", "someone else's a\n");
  json refused = call("undo", {{"op", move}});
  EXPECT_EQ(refused["error"]["code"], "CONFLICT") << refused.dump();
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("exists again"), std::string::npos)
      << refused.dump();
  EXPECT_EQ(file("a.txt"), "someone else's a\n");
  EXPECT_EQ(file("b.txt"), moved);

  std::filesystem::remove(workspace_ / "a.txt");
  std::filesystem::remove(workspace_ / "b.txt");
  refused = call("undo", {{"op", move}});
  EXPECT_EQ(refused["error"]["code"], "CONFLICT") << refused.dump();
  EXPECT_FALSE(exists("a.txt"));
  EXPECT_FALSE(exists("b.txt"));
}

TEST_F(JournalMoveTest, RewindOfAMoveOntoAnExistingFileRestoresBoth) {
  const std::string original = numbered(12);
  writeRaw(workspace_ / "a.txt", original);
  writeRaw(workspace_ / "b.txt", "old b\n");
  movePatch("a.txt", "b.txt");
  // A later agent edit of the moved file, same turn.
  call("read", {{"path", "b.txt"}, {"session", "agent"}});
  json edit = call(
      "replace", {{"path", "b.txt"}, {"old", "line 10\n"}, {"new", "ten\n"}, {"session", "agent"}});
  ASSERT_EQ(edit["status"], "applied") << edit.dump();
  ASSERT_EQ(ops().size(), 3u); // delete (replaced b), move, replace

  json dry = call("rewind", {{"turn", 1}, {"session", "agent"}, {"dry_run", true}});
  ASSERT_EQ(dry["status"], "preview") << dry.dump();
  EXPECT_TRUE(exists("b.txt"));

  json rewound = call("rewind", {{"turn", 1}, {"session", "agent"}});
  ASSERT_EQ(rewound["status"], "applied") << rewound.dump();
  EXPECT_EQ(file("a.txt"), original);
  EXPECT_EQ(file("b.txt"), "old b\n");
  for (const json& op : ops())
    if (op["method"] == "patch" || op["method"] == "replace") {
      EXPECT_FALSE(op["inEffect"].get<bool>()) << op.dump();
    }
}

TEST_F(JournalMoveTest, UndoingTheMoveAloneLeavesTheReplacedFileGoneUntilItsDeleteIsUndone) {
  const std::string original = numbered(12);
  writeRaw(workspace_ / "a.txt", original);
  writeRaw(workspace_ / "b.txt", "old b\n");
  movePatch("a.txt", "b.txt");
  json log = ops();
  ASSERT_EQ(log.size(), 2u);
  std::uint64_t replaced_delete = log[0]["op"], move = log[1]["op"];
  // While the moved file sits on b.txt, the replaced b.txt cannot come back.
  EXPECT_EQ(call("undo", {{"op", replaced_delete}})["status"], "refused");
  EXPECT_EQ(file("b.txt"), replaced(original, "line 5\n", "five\n"));

  ASSERT_EQ(call("undo", {{"op", move}})["status"], "applied");
  EXPECT_EQ(file("a.txt"), original);
  EXPECT_FALSE(exists("b.txt"));
  json undone = call("undo", {{"op", replaced_delete}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  EXPECT_EQ(file("b.txt"), "old b\n");
  EXPECT_EQ(file("a.txt"), original);
}

TEST_F(JournalMoveTest, RewindingOnlyTheDestinationPathKeepsTheMovedFileThere) {
  writeRaw(workspace_ / "a.txt", numbered(12));
  writeRaw(workspace_ / "b.txt", "old b\n");
  movePatch("a.txt", "b.txt");
  call("read", {{"path", "b.txt"}, {"session", "agent"}});
  json edit = call(
      "replace", {{"path", "b.txt"}, {"old", "line 10\n"}, {"new", "ten\n"}, {"session", "agent"}});
  ASSERT_EQ(edit["status"], "applied") << edit.dump();
  const std::string moved = file("b.txt");
  // File grain at b.txt: the ops recorded there (the replaced file's delete, the later edit), not
  // the move (recorded at a.txt) — the old b.txt cannot come back over the moved file.
  json refused = call("rewind", {{"turn", 1}, {"session", "agent"}, {"path", "b.txt"}});
  EXPECT_EQ(refused["error"]["code"], "CONFLICT") << refused.dump();
  EXPECT_EQ(file("b.txt"), moved);
  EXPECT_FALSE(exists("a.txt"));
  // At a.txt it is the move: moved back, the replaced file still gone.
  json rewound = call("rewind", {{"turn", 1}, {"session", "agent"}, {"path", "a.txt"}});
  ASSERT_EQ(rewound["status"], "applied") << rewound.dump();
  EXPECT_EQ(file("a.txt"), replaced(numbered(12), "line 10\n", "ten\n")); // the edit stays
  EXPECT_FALSE(exists("b.txt"));
}

TEST_F(JournalMoveTest, RejectingOneHunkOfAMoveLeavesTheFileWhereItIs) {
  writeRaw(workspace_ / "a.txt", numbered(20));
  movePatch("a.txt", "b.txt");
  std::uint64_t move = lastOp();
  json rejected = call("reject", {{"hunk", std::to_string(move) + "#1"}});
  ASSERT_EQ(rejected["status"], "applied") << rejected.dump();
  EXPECT_FALSE(exists("a.txt"));
  EXPECT_EQ(file("b.txt"), numbered(20));
  // The relocation is still in effect: undoing the move now only moves the file back.
  ASSERT_EQ(call("undo", {{"op", move}})["status"], "applied");
  EXPECT_EQ(file("a.txt"), numbered(20));
  EXPECT_FALSE(exists("b.txt"));
}

// Through a real `hashline lsp` (the test plays the editor): a moved file open in the editor as a
// buffer is not moved back under it — CONFLICT naming the buffer, nothing written — until the
// buffer is closed.
TEST(JournalMoveBuffer, AnOpenBufferAtEitherPathRefusesTheMoveBackUntilClosed) {
  TempDir work, workspace;
  ScopedEnv state("HASHLINE_STATE_DIR", work.path());
  ScopedEnv runtime("HASHLINE_RUNTIME_DIR", work.path());
  writeRaw(workspace / "a.txt", numbered(10));
  test::LspClient client;
  client.initialize(json::object(), {{"rootUri", "file://" + workspace.path()}});
  client.callResult("hashline/read", {{"path", "a.txt"}, {"session", "agent"}});
  json patch = client.callResult(
      "hashline/patch", {{"session", "agent"},
                         {"patch", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n"
                                   "@@\n-line 5\n+five\n*** End Patch\n"}});
  ASSERT_EQ(patch["status"], "applied") << patch.dump();
  const std::string moved = replaced(numbered(10), "line 5\n", "five\n");
  json log = client.callResult("hashline/log", json::object());
  std::uint64_t move = log["ops"].back()["op"];

  for (const char* name : {"b.txt", "a.txt"}) {
    const std::string uri = "file://" + (workspace / name);
    client.didOpen(uri, name == std::string("b.txt") ? moved : "");
    json refused = client.callResult("hashline/undo", {{"op", move}});
    EXPECT_EQ(refused["error"]["code"], "CONFLICT") << refused.dump();
    EXPECT_NE(refused["error"]["message"].get<std::string>().find("open in the editor"),
              std::string::npos)
        << refused.dump();
    EXPECT_FALSE(std::filesystem::exists(workspace / "a.txt"));
    EXPECT_EQ(readRaw(workspace / "b.txt"), moved);
    client.didClose(uri);
  }
  json undone = client.callResult("hashline/undo", {{"op", move}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  EXPECT_EQ(readRaw(workspace / "a.txt"), numbered(10));
  EXPECT_FALSE(std::filesystem::exists(workspace / "b.txt"));
}

// A rewind that moved a file back and then has a buffer's reversal refused by the editor moves
// the file forward again (a journaled rollback of the move back), and says so.
TEST(JournalMoveBuffer, ARewindFailingAfterTheMoveBackMovesTheFileForwardAgain) {
  TempDir work, workspace;
  ScopedEnv state("HASHLINE_STATE_DIR", work.path());
  ScopedEnv runtime("HASHLINE_RUNTIME_DIR", work.path());
  writeRaw(workspace / "a.txt", numbered(10));
  writeRaw(workspace / "c.txt", numbered(10));
  test::LspClient client;
  client.initialize(json::object(), {{"rootUri", "file://" + workspace.path()}});
  const std::string c_uri = "file://" + (workspace / "c.txt");
  client.didOpen(c_uri, numbered(10));
  json turn = client.callResult("hashline/turn", {{"action", "begin"}, {"session", "agent"}});
  std::int64_t t = turn["turn"];
  // The buffer first (older), then the move: the rewind moves the file back first.
  client.callResult("hashline/read", {{"path", "c.txt"}, {"session", "agent"}});
  std::int64_t edit_id = client.request(
      "hashline/replace",
      {{"path", "c.txt"}, {"session", "agent"}, {"old", "line 2\n"}, {"new", "C2\n"}});
  json apply = client.waitServerRequest("workspace/applyEdit");
  const std::string c_text = replaced(numbered(10), "line 2\n", "C2\n");
  client.didChange(c_uri, 2, {test::LspClient::fullChange(c_text)});
  client.respond(apply["id"], {{"applied", true}});
  ASSERT_EQ(client.waitResponse(edit_id)["result"]["status"], "applied");
  client.callResult("hashline/read", {{"path", "a.txt"}, {"session", "agent"}});
  json patch = client.callResult(
      "hashline/patch", {{"session", "agent"},
                         {"patch", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n"
                                   "@@\n-line 5\n+five\n*** End Patch\n"}});
  ASSERT_EQ(patch["status"], "applied") << patch.dump();
  const std::string moved = replaced(numbered(10), "line 5\n", "five\n");

  std::int64_t rewind_id = client.request("hashline/rewind", {{"turn", t}, {"session", "agent"}});
  json reversal = client.waitServerRequest("workspace/applyEdit");
  EXPECT_EQ(readRaw(workspace / "a.txt"), numbered(10)); // moved back before the buffer's turn
  EXPECT_FALSE(std::filesystem::exists(workspace / "b.txt"));
  client.respond(reversal["id"], {{"applied", false}, {"failureReason", "user said no"}});
  json refused = client.waitResponse(rewind_id)["result"];
  ASSERT_EQ(refused["status"], "refused") << refused.dump();
  EXPECT_EQ(refused["failedFile"], "c.txt");
  EXPECT_EQ(refused["applied"], json::array({"b.txt"}));
  EXPECT_EQ(refused["rolledBack"], json::array({"b.txt"}));
  EXPECT_EQ(refused["rollbackFailed"], json::array());
  EXPECT_FALSE(std::filesystem::exists(workspace / "a.txt"));
  EXPECT_EQ(readRaw(workspace / "b.txt"), moved);
  json log = client.callResult("hashline/log", json::object());
  const json& ops = log["ops"];
  ASSERT_GE(ops.size(), 4u) << log.dump();
  EXPECT_EQ(ops[ops.size() - 1]["method"], "rollback");
  EXPECT_EQ(ops[ops.size() - 1]["kind"], "move");
  EXPECT_EQ(ops[ops.size() - 2]["method"], "rewind");
  EXPECT_EQ(ops[ops.size() - 2]["kind"], "move");
  for (std::size_t i = 0; i + 2 < ops.size(); ++i) // the agent's ops are in effect again
    EXPECT_TRUE(ops[i]["inEffect"].get<bool>()) << ops[i].dump();
}

} // namespace
} // namespace hashline::lsp
