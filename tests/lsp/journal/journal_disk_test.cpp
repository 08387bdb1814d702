// The journal on disk files through the in-process service (HashlineService::forDisk), as the
// CLI runs it: ops recorded and persisted in the state directory (never the workspace), undo
// with rebase and CONFLICT, rewind of a turn across files (verified whole; file grain with a
// path), reject of one hunk, pending/accept, net diffs, restart (a new service reads the
// journal), a torn last record skipped, compaction bounds, and a writer SIGKILLed in the middle
// of a disk write (the intent record: the file is unchanged, or changed and undoable).
#include "engine/journal/hunk_split.h"
#include "engine/journal/journal.h"
#include "lsp/disk/state_dir.h"
#include "lsp/journal/journal_file.h"
#include "lsp/journal/journal_json.h"
#include "lsp/journal/journal_service.h"
#include "lsp/service/hashline_service.h"
#include "tests/lsp/journal/journal_test_util.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

namespace hashline::lsp {
namespace {

using journal_test::numbered;
using journal_test::readRaw;
using journal_test::ScopedEnv;
using journal_test::TempDir;
using journal_test::writeRaw;
using nlohmann::json;

class JournalDiskTest : public ::testing::Test {
protected:
  void SetUp() override { restart(); }

  void restart() {
    service_.reset();
    service_ = HashlineService::forDisk({workspace_.path()});
  }

  json call(const std::string& method, json params) {
    return journal_test::callDisk(*service_, method, std::move(params));
  }

  /// read + replace of one line's text, as an agent would.
  json agentReplace(const std::string& name, const std::string& old_text,
                    const std::string& new_text, json extra = json::object()) {
    json read = call("read", {{"path", name}, {"session", "agent"}});
    EXPECT_EQ(read["status"], "ok") << read.dump();
    json params = {{"path", name}, {"old", old_text}, {"new", new_text}, {"session", "agent"}};
    params.update(extra);
    json result = call("replace", params);
    EXPECT_EQ(result["status"], "applied") << result.dump();
    return result;
  }

  std::uint64_t lastOp() {
    json log = call("log", json::object());
    EXPECT_FALSE(log["ops"].empty());
    return log["ops"].back()["op"].get<std::uint64_t>();
  }

  std::string file(const std::string& name) { return readRaw(workspace_ / name); }

  TempDir state_;
  TempDir runtime_;
  TempDir workspace_;
  ScopedEnv state_env_{"HASHLINE_STATE_DIR", state_.path()};
  ScopedEnv runtime_env_{"HASHLINE_RUNTIME_DIR", runtime_.path()};
  std::unique_ptr<HashlineService> service_;
};

TEST_F(JournalDiskTest, EditIsJournaledOutsideTheWorkspace) {
  writeRaw(workspace_ / "a.txt", numbered(5));
  agentReplace("a.txt", "line 3\n", "three\n", {{"agent", "claude"}, {"turn", 4}});
  json log = call("log", json::object());
  ASSERT_EQ(log["ops"].size(), 1u) << log.dump();
  const json& op = log["ops"][0];
  EXPECT_EQ(op["method"], "replace");
  EXPECT_EQ(op["agent"], "claude");
  EXPECT_EQ(op["session"], "agent");
  EXPECT_EQ(op["turn"], 4);
  EXPECT_EQ(op["name"], "a.txt");
  EXPECT_EQ(op["backend"], "disk");
  ASSERT_EQ(op["hunks"].size(), 1u);
  EXPECT_EQ(op["hunks"][0]["id"], std::to_string(op["op"].get<int>()) + "#1");
  EXPECT_EQ(op["hunks"][0]["line"], 3);
  std::string journal_path = log["journal"];
  EXPECT_EQ(journal_path.rfind(state_.path(), 0), 0u) << journal_path;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(workspace_.path()))
    EXPECT_EQ(entry.path().filename().string().find("journal"), std::string::npos);
}

TEST_F(JournalDiskTest, UndoRestoresAndKeepsOtherTypingThenConflicts) {
  std::string text = numbered(50);
  writeRaw(workspace_ / "a.txt", text);
  agentReplace("a.txt", "line 10\nline 11\nline 12\n", "A10\nA11\nA12\n");
  std::uint64_t op = lastOp();
  // The user changes line 40 on disk, and adds a line at the top.
  std::string now = file("a.txt");
  now.replace(now.find("line 40"), 7, "user 40");
  writeRaw(workspace_ / "a.txt", "top\n" + now);
  json undone = call("undo", {{"op", op}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  std::string expected = "top\n" + text;
  expected.replace(expected.find("line 40"), 7, "user 40");
  EXPECT_EQ(file("a.txt"), expected);
  EXPECT_EQ(undone["reverted"], json::array({std::to_string(op) + "#1"}));
  // The undo is an op itself; undoing it again puts the agent's lines back.
  std::uint64_t undo_op = lastOp();
  EXPECT_GT(undo_op, op);
  json again = call("undo", {{"op", op}});
  EXPECT_EQ(again["status"], "refused");
  EXPECT_EQ(again["error"]["code"], "NO_CHANGE") << again.dump();
  json redo = call("undo", {{"op", undo_op}});
  ASSERT_EQ(redo["status"], "applied") << redo.dump();
  EXPECT_NE(file("a.txt").find("A10\nA11\nA12\n"), std::string::npos);

  // Now the user edits line 11 of the agent's lines: undo → CONFLICT, file unchanged.
  now = file("a.txt");
  now.replace(now.find("A11"), 3, "U11");
  writeRaw(workspace_ / "a.txt", now);
  json conflict = call("undo", {{"op", op}});
  ASSERT_EQ(conflict["status"], "refused") << conflict.dump();
  EXPECT_EQ(conflict["error"]["code"], "CONFLICT");
  EXPECT_NE(conflict["error"]["message"].get<std::string>().find("lines 10-12"), std::string::npos)
      << conflict.dump();
  EXPECT_EQ(file("a.txt"), now);
}

TEST_F(JournalDiskTest, RewindTurnAcrossFilesVerifiedWholeAndFileGrain) {
  writeRaw(workspace_ / "a.txt", numbered(20));
  writeRaw(workspace_ / "b.txt", numbered(20));
  json turn = call("turn", {{"action", "begin"}, {"session", "agent"}});
  ASSERT_EQ(turn["status"], "ok");
  std::int64_t t = turn["turn"];
  agentReplace("a.txt", "line 2\n", "a-op1\n");
  agentReplace("b.txt", "line 5\n", "b-op2\n");
  agentReplace("a.txt", "a-op1\n", "a-op3 over op1\n");
  // Net diff of the turn shows both files' changes.
  json net = call("diff", {{"turn", t}, {"session", "agent"}, {"kind", "net"}});
  ASSERT_EQ(net["status"], "ok") << net.dump();
  EXPECT_NE(net["diff"].get<std::string>().find("-line 2\n+a-op3 over op1\n"), std::string::npos)
      << net.dump();
  // The user touches b's agent line: the whole rewind is refused, nothing written.
  std::string b = file("b.txt");
  std::string b_touched = b;
  b_touched.replace(b_touched.find("b-op2"), 5, "user!");
  writeRaw(workspace_ / "b.txt", b_touched);
  std::string a = file("a.txt");
  json refused = call("rewind", {{"turn", t}, {"session", "agent"}});
  ASSERT_EQ(refused["status"], "refused") << refused.dump();
  EXPECT_EQ(refused["error"]["code"], "CONFLICT");
  EXPECT_EQ(file("a.txt"), a);
  EXPECT_EQ(file("b.txt"), b_touched);
  // File grain: only a.txt goes back; b.txt stays as it is.
  json one = call("rewind", {{"turn", t}, {"session", "agent"}, {"path", "a.txt"}});
  ASSERT_EQ(one["status"], "applied") << one.dump();
  EXPECT_EQ(file("a.txt"), numbered(20));
  EXPECT_EQ(file("b.txt"), b_touched);
  // Restore the user's b and rewind the rest of the turn.
  writeRaw(workspace_ / "b.txt", b);
  json rest = call("rewind", {{"turn", t}, {"session", "agent"}});
  ASSERT_EQ(rest["status"], "applied") << rest.dump();
  EXPECT_EQ(file("b.txt"), numbered(20));
  EXPECT_EQ(file("a.txt"), numbered(20));
  json empty = call("diff", {{"turn", t}, {"session", "agent"}});
  EXPECT_EQ(empty["diff"], "") << empty.dump() << call("log", json::object()).dump(1);
}

TEST_F(JournalDiskTest, RejectOneHunkAcceptAnotherAndPendingLocations) {
  std::string text = numbered(60);
  writeRaw(workspace_ / "c.txt", text);
  call("read", {{"path", "c.txt"}, {"session", "agent"}});
  json applied =
      call("replace", {{"path", "c.txt"},
                       {"session", "agent"},
                       {"edits", json::array({{{"old", "line 10\n"}, {"new", "H1\n"}},
                                              {{"old", "line 30\n"}, {"new", "H2\n"}},
                                              {{"old", "line 50\n"}, {"new", "H3\n"}}})}});
  ASSERT_EQ(applied["status"], "applied") << applied.dump();
  std::string op = std::to_string(lastOp());
  // The user types two lines at the top and next to hunk 2.
  std::string now = file("c.txt");
  now.replace(now.find("line 31"), 7, "user 31");
  writeRaw(workspace_ / "c.txt", "u1\nu2\n" + now);
  json pending = call("pending", json::object());
  ASSERT_EQ(pending["count"], 3) << pending.dump();
  EXPECT_EQ(pending["files"][0]["hunks"][0]["line"], 12); // moved by the two typed lines
  ASSERT_EQ(call("reject", {{"hunk", op + "#1"}})["status"], "applied");
  ASSERT_EQ(call("reject", {{"hunk", op + "#3"}})["status"], "applied");
  std::string expected = text;
  expected.replace(expected.find("line 30\n"), 8, "H2\n");
  expected.replace(expected.find("line 31"), 7, "user 31");
  EXPECT_EQ(file("c.txt"), "u1\nu2\n" + expected);
  json accepted = call("accept", {{"hunk", op + "#2"}});
  EXPECT_EQ(accepted["accepted"], json::array({op + "#2"}));
  EXPECT_EQ(call("pending", json::object())["count"], 0);
  // Rejecting a hunk whose lines the user changed: CONFLICT.
  now = file("c.txt");
  now.replace(now.find("H2"), 2, "X2");
  writeRaw(workspace_ / "c.txt", now);
  json conflict = call("reject", {{"hunk", op + "#2"}});
  EXPECT_EQ(conflict["error"]["code"], "CONFLICT") << conflict.dump();
  EXPECT_EQ(file("c.txt"), now);
}

TEST_F(JournalDiskTest, SurvivesRestartAndSkipsATornRecord) {
  writeRaw(workspace_ / "a.txt", numbered(10));
  agentReplace("a.txt", "line 4\n", "four\n");
  std::uint64_t op = lastOp();
  json log = call("log", json::object());
  std::string journal_path = log["journal"];
  // A kill in the middle of an append leaves half a record.
  {
    std::ofstream out(journal_path, std::ios::app | std::ios::binary);
    out << R"({"t":"op","id":99,"method":"edit","hun)";
  }
  restart();
  json after = call("log", json::object());
  ASSERT_EQ(after["ops"].size(), 1u) << after.dump();
  EXPECT_FALSE(after.contains("skippedRecords")); // a torn tail is not even a line yet
  agentReplace("a.txt", "line 8\n", "eight\n");
  restart();
  after = call("log", json::object());
  ASSERT_EQ(after["ops"].size(), 2u) << after.dump();
  EXPECT_EQ(after["skippedRecords"], 1);
  json undone = call("undo", {{"op", op}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  std::string expected = numbered(10);
  expected.replace(expected.find("line 8"), 6, "eight");
  EXPECT_EQ(file("a.txt"), expected);
}

TEST_F(JournalDiskTest, CreatedFileUndoneIsDeleted) {
  call("read", {{"path", "new.txt"}, {"session", "agent"}});
  json patch = call("patch", {{"session", "agent"},
                              {"patch", "*** Begin Patch\n*** Add File: new.txt\n+hello\n"
                                        "*** End Patch\n"}});
  ASSERT_EQ(patch["status"], "applied") << patch.dump();
  ASSERT_TRUE(std::filesystem::exists(workspace_ / "new.txt"));
  json undone = call("undo", {{"op", lastOp()}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "new.txt"));
}

TEST_F(JournalDiskTest, PatchMovingOntoAnExistingFileJournalsTheReplacedFilesDelete) {
  writeRaw(workspace_ / "a.txt", "one\ntwo\n");
  writeRaw(workspace_ / "b.txt", "old b\n");
  call("read", {{"path", "a.txt"}, {"session", "agent"}});
  call("read", {{"path", "b.txt"}, {"session", "agent"}});
  json patch = call("patch", {{"session", "agent"},
                              {"patch", "*** Begin Patch\n*** Update File: a.txt\n"
                                        "*** Move to: b.txt\n@@\n-two\n+2\n*** End Patch\n"}});
  ASSERT_EQ(patch["status"], "applied") << patch.dump();
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "a.txt"));
  EXPECT_EQ(file("b.txt"), "one\n2\n");
  json log = call("log", json::object());
  ASSERT_EQ(log["ops"].size(), 2u) << log.dump(); // recorded once each, not again on report
  EXPECT_EQ(log["ops"][0]["name"], "b.txt");
  EXPECT_EQ(log["ops"][0]["kind"], "delete");
  EXPECT_EQ(log["ops"][0]["method"], "patch");
  EXPECT_EQ(log["ops"][1]["name"], "a.txt");
  EXPECT_EQ(log["ops"][1]["kind"], "move");
  // A later disk edit of the moved file is journaled as usual (no leftover skip swallows it).
  ASSERT_EQ(agentReplace("b.txt", "one\n", "ONE\n")["status"], "applied");
  EXPECT_EQ(call("log", json::object())["ops"].size(), 3u);
}

// A process (forked, the real JournalFile) journals a disk write around it and is SIGKILLed at
// `moment`: after the intent, before touching the file; or right after the atomic rename, before
// the outcome. Returns whether the child died by our kill.
enum class KillMoment { BeforeTheWrite, AfterTheRename };

bool killWriterMidWrite(const std::string& workspace, const std::string& name,
                        const std::string& before, const std::string& after, KillMoment moment) {
  Result<std::string> directory = disk::workspaceStateDirectory(workspace);
  if (!directory) return false;
  const std::string path = workspace + "/" + name;
  pid_t child = ::fork();
  if (child == 0) {
    JournalFile file(*directory);
    journal::Journal model;
    journal::JournalOp op;
    op.method = "replace";
    op.session = "agent";
    op.uri = "file://" + path;
    op.path = path;
    op.name = name;
    op.backend = "disk";
    op.version_before = JournalService::contentVersion(before);
    op.version_after = JournalService::contentVersion(after);
    op.hunks = journal::splitIntoHunks(before, after);
    (void)file.around(model, op, [&](const disk::PublishGate&) {
      if (moment == KillMoment::AfterTheRename) {
        writeRaw(path + ".tmp", after);
        std::rename((path + ".tmp").c_str(), path.c_str());
      }
      ::kill(::getpid(), SIGKILL);
      return true;
    });
    ::_exit(3); // not reached
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

TEST_F(JournalDiskTest, AWriterKilledMidWriteLeavesTheFileUnchangedOrChangedAndUndoable) {
  std::string before = numbered(30);
  std::string after = before;
  after.replace(after.find("line 12\n"), 8, "agent 12\n");
  writeRaw(workspace_ / "a.txt", before);
  agentReplace("a.txt", "line 3\n", "three\n"); // an earlier op, fully journaled
  before = file("a.txt");
  after = before;
  after.replace(after.find("line 12\n"), 8, "agent 12\n");
  std::string journal_path;
  {
    json log = call("log", json::object());
    ASSERT_EQ(log["ops"].size(), 1u);
    journal_path = log["journal"];
  }

  // 1. Killed after the intent, before the write: the file is unchanged, no op appears.
  ASSERT_TRUE(
      killWriterMidWrite(workspace_.path(), "a.txt", before, after, KillMoment::BeforeTheWrite));
  EXPECT_EQ(file("a.txt"), before);
  EXPECT_NE(readRaw(journal_path).find("\"t\":\"intent\""), std::string::npos);
  restart();
  json log = call("log", json::object());
  EXPECT_EQ(log["ops"].size(), 1u) << log.dump();
  EXPECT_NE(readRaw(journal_path).find("\"t\":\"abort\""), std::string::npos)
      << "the dead writer's intent was not resolved on disk";

  // 2. Killed right after the rename: the file changed, and the journal has the op to undo.
  ASSERT_TRUE(
      killWriterMidWrite(workspace_.path(), "a.txt", before, after, KillMoment::AfterTheRename));
  EXPECT_EQ(file("a.txt"), after);
  restart();
  log = call("log", json::object());
  ASSERT_EQ(log["ops"].size(), 2u) << log.dump();
  EXPECT_EQ(log["ops"][1]["method"], "replace");
  std::uint64_t killed_op = log["ops"][1]["op"];
  json undone = call("undo", {{"op", killed_op}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  EXPECT_EQ(file("a.txt"), before);

  // 3. Killed after the rename, then the user changed another line before anyone looked: the
  //    op's lines are still there, so it landed; undo keeps the user's line.
  before = file("a.txt");
  after = before;
  after.replace(after.find("line 20\n"), 8, "agent 20\n");
  ASSERT_TRUE(
      killWriterMidWrite(workspace_.path(), "a.txt", before, after, KillMoment::AfterTheRename));
  std::string typed = after;
  typed.replace(typed.find("line 5\n"), 7, "user 5\n");
  writeRaw(workspace_ / "a.txt", typed);
  restart();
  log = call("log", json::object());
  ASSERT_EQ(log["ops"].size(), 4u) << log.dump(); // + the undo of step 2 and this op
  undone = call("undo", {{"op", log["ops"][3]["op"]}});
  ASSERT_EQ(undone["status"], "applied") << undone.dump();
  std::string expected = before;
  expected.replace(expected.find("line 5\n"), 7, "user 5\n");
  EXPECT_EQ(file("a.txt"), expected);

  // Resolved once, for every later reader: a fresh journal reads the same ops.
  JournalFile reader(std::filesystem::path(journal_path).parent_path().string());
  journal::Journal model;
  ASSERT_TRUE(reader.refresh(model).ok());
  EXPECT_EQ(reader.unresolvedIntents(), 0u);
  EXPECT_EQ(model.ops().size(), 5u);
}

TEST(JournalFileTest, BoundedByCountWithAtomicCompaction) {
  TempDir dir;
  JournalBounds bounds;
  bounds.max_ops = 8;
  JournalFile file(dir.path(), bounds);
  journal::Journal model;
  for (int i = 0; i < 30; ++i) {
    Status status = file.transact(model, [&](journal::Journal& m) {
      journal::JournalOp op;
      op.method = "edit";
      op.uri = "file:///x";
      op.hunks.resize(1);
      op.hunks[0].after_text = "x" + std::to_string(i) + "\n";
      std::uint64_t id = m.record(op).id;
      return std::vector<json>{opRecordJSON(*m.find(id))};
    });
    ASSERT_TRUE(status.ok());
  }
  EXPECT_LE(model.ops().size(), 8u);
  EXPECT_EQ(model.lastId(), 30u);
  // Another reader (a restart) sees the same ops.
  JournalFile reader(dir.path(), bounds);
  journal::Journal fresh;
  ASSERT_TRUE(reader.refresh(fresh).ok());
  ASSERT_EQ(fresh.ops().size(), model.ops().size());
  EXPECT_EQ(fresh.ops().back().id, 30u);
  EXPECT_EQ(fresh.ops().front().id, model.ops().front().id);
}

} // namespace
} // namespace hashline::lsp
