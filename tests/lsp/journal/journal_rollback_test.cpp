// A rewind across a disk file and an editor buffer (a real `hashline lsp`; the test plays the
// editor) where the editor refuses the buffer's reversal: the disk file already reverted is
// restored, and the refusal says exactly what was applied and rolled back (issue 6 item 5). Also
// a patch whose buffer file the editor refuses after its disk files were written: the disk
// writes and their rollbacks are journaled (patch ops, then rollback ops reverting them).
#include "tests/lsp/journal/journal_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

using journal_test::numbered;
using journal_test::readRaw;
using journal_test::ScopedEnv;
using journal_test::TempDir;
using journal_test::writeRaw;
using nlohmann::json;

TEST(JournalRollback, BufferRefusedAfterDiskRevertedRollsTheDiskBack) {
  TempDir work, workspace;
  ScopedEnv state("HASHLINE_STATE_DIR", work.path());
  ScopedEnv runtime("HASHLINE_RUNTIME_DIR", work.path());
  writeRaw(workspace / "b.txt", numbered(10));
  writeRaw(workspace / "a.txt", numbered(10));
  test::LspClient client;
  client.initialize(json::object(), {{"rootUri", "file://" + workspace.path()}});
  const std::string a_uri = "file://" + (workspace / "a.txt");
  client.didOpen(a_uri, numbered(10));

  json turn = client.callResult("hashline/turn", {{"action", "begin"}, {"session", "agent"}});
  std::int64_t t = turn["turn"];
  // The disk file first, then the buffer: the rewind's file order.
  client.callResult("hashline/read", {{"path", "b.txt"}, {"session", "agent"}});
  json disk_edit = client.callResult(
      "hashline/replace",
      {{"path", "b.txt"}, {"session", "agent"}, {"old", "line 5\n"}, {"new", "B5\n"}});
  ASSERT_EQ(disk_edit["status"], "applied") << disk_edit.dump();
  client.callResult("hashline/read", {{"path", "a.txt"}, {"session", "agent"}});
  std::int64_t edit_id = client.request(
      "hashline/replace",
      {{"path", "a.txt"}, {"session", "agent"}, {"old", "line 2\n"}, {"new", "A2\n"}});
  json apply = client.waitServerRequest("workspace/applyEdit");
  std::string a_text = numbered(10);
  a_text.replace(a_text.find("line 2\n"), 7, "A2\n");
  client.didChange(a_uri, 2, {test::LspClient::fullChange(a_text)});
  client.respond(apply["id"], {{"applied", true}});
  json edited = client.waitResponse(edit_id);
  ASSERT_EQ(edited["result"]["status"], "applied") << edited.dump();

  // Rewind: b.txt goes back on disk, then the editor refuses a.txt's reversal.
  std::int64_t rewind_id = client.request("hashline/rewind", {{"turn", t}, {"session", "agent"}});
  json reversal = client.waitServerRequest("workspace/applyEdit");
  EXPECT_EQ(readRaw(workspace / "b.txt"), numbered(10)); // reverted before the buffer's turn
  client.respond(reversal["id"], {{"applied", false}, {"failureReason", "user said no"}});
  json refused = client.waitResponse(rewind_id)["result"];
  ASSERT_EQ(refused["status"], "refused") << refused.dump();
  EXPECT_EQ(refused["failedFile"], "a.txt");
  EXPECT_EQ(refused["applied"], json::array({"b.txt"}));
  EXPECT_EQ(refused["rolledBack"], json::array({"b.txt"}));
  EXPECT_EQ(refused["rollbackFailed"], json::array());
  std::string b_agent = numbered(10);
  b_agent.replace(b_agent.find("line 5\n"), 7, "B5\n");
  EXPECT_EQ(readRaw(workspace / "b.txt"), b_agent);
  // The journal knows: the rewind op and its rollback, and the agent's ops are in effect again.
  json log = client.callResult("hashline/log", json::object());
  ASSERT_GE(log["ops"].size(), 4u) << log.dump();
  EXPECT_EQ(log["ops"][log["ops"].size() - 1]["method"], "rollback");
  EXPECT_EQ(log["ops"][log["ops"].size() - 2]["method"], "rewind");
  EXPECT_TRUE(log["ops"][0]["inEffect"].get<bool>());
}

TEST(JournalRollback, PatchRefusedAfterDiskFilesJournalsTheirWritesAndRollbacks) {
  TempDir work, workspace;
  ScopedEnv state("HASHLINE_STATE_DIR", work.path());
  ScopedEnv runtime("HASHLINE_RUNTIME_DIR", work.path());
  writeRaw(workspace / "a.txt", numbered(10));
  writeRaw(workspace / "gone.txt", "bye\n");
  writeRaw(workspace / "b.txt", numbered(10));
  test::LspClient client;
  client.initialize(json::object(), {{"rootUri", "file://" + workspace.path()}});
  const std::string b_uri = "file://" + (workspace / "b.txt");
  client.didOpen(b_uri, numbered(10));
  for (const char* name : {"a.txt", "gone.txt", "b.txt"})
    client.callResult("hashline/read", {{"path", name}, {"session", "agent"}});

  std::string patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-line 3\n+A3\n"
                      "*** Add File: new.txt\n+created\n*** Delete File: gone.txt\n"
                      "*** Update File: b.txt\n@@\n-line 4\n+B4\n*** End Patch\n";
  std::int64_t id = client.request("hashline/patch", {{"patch", patch}, {"session", "agent"}});
  json apply = client.waitServerRequest("workspace/applyEdit");
  // The disk files are written and journaled before the buffer's turn.
  EXPECT_FALSE(std::filesystem::exists(workspace / "gone.txt"));
  client.respond(apply["id"], {{"applied", false}, {"failureReason", "user said no"}});
  json refused = client.waitResponse(id)["result"];
  ASSERT_EQ(refused["status"], "refused") << refused.dump();
  EXPECT_EQ(refused["rolledBack"], json::array({"gone.txt", "new.txt", "a.txt"}));
  EXPECT_EQ(readRaw(workspace / "a.txt"), numbered(10));
  EXPECT_EQ(readRaw(workspace / "gone.txt"), "bye\n");
  EXPECT_FALSE(std::filesystem::exists(workspace / "new.txt"));

  json log = client.callResult("hashline/log", json::object());
  ASSERT_EQ(log["ops"].size(), 6u) << log.dump();
  const char* names[] = {"a.txt", "new.txt", "gone.txt", "gone.txt", "new.txt", "a.txt"};
  const char* kinds[] = {"update", "create", "delete", "create", "delete", "update"};
  for (std::size_t i = 0; i < 6; ++i) {
    const json& op = log["ops"][i];
    EXPECT_EQ(op["name"], names[i]) << op.dump();
    EXPECT_EQ(op["kind"], kinds[i]) << op.dump();
    EXPECT_EQ(op["method"], i < 3 ? "patch" : "rollback") << op.dump();
    if (i < 3) {
      EXPECT_FALSE(op["inEffect"].get<bool>()) << "rolled back: " << op.dump();
    } else {
      EXPECT_EQ(op["reverts"], json::array({std::to_string(log["ops"][5 - i]["op"].get<int>())}))
          << op.dump();
    }
  }
}

} // namespace
} // namespace hashline
