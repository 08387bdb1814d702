// The CLI when the editor's sidecar is gone (issue 31): a discovery record whose sidecar died
// while its editor runs, a socket that refuses, a sidecar that does not answer (SIGSTOP), and a
// real `hashline lsp` killed with SIGKILL under a scripted editor holding unsaved text. Every
// edit form is refused with SIDECAR_GONE (exit 1, the code first on stderr, the file's bytes
// unchanged), reads come from the disk with a warning, `--disk` writes on purpose, and a clean
// shutdown (or the editor's exit) means plain disk mode again, but a stop the editor announced as
// a restart (`hashline/restarting`) keeps the record until the new sidecar replaces it. After a
// restart, anchors from the dead sidecar get NOT_OBSERVED with fresh anchors, and those work at
// once.
#include "agent_test_util.h"
#include "scripted_editor.h"

#include <csignal>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace hashline::test {
namespace {

using nlohmann::json;

const std::string kText = "one\ntwo\nthree\n";

bool startsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

json replaceLine(const std::string& anchor, const std::string& content) {
  return json::array({{{"op", "replace"}, {"anchor", anchor}, {"content", content}}});
}

/// The anchor of 1-based `line` in a `read --json` result.
std::string anchorOf(const json& read, int line) {
  for (const json& row : read["lines"])
    if (row["line"] == line) return row["anchor"];
  return "";
}

struct Refusal {
  std::vector<std::string> args;
  std::string input;
};

void expectRefusedGone(const AgentSandbox& sandbox, const Refusal& call,
                       const std::string& before) {
  CliRun run = runHashline(call.args, sandbox.workspace(), call.input);
  EXPECT_EQ(run.exit_code, 1) << call.args[0] << ": " << run.out << run.err;
  EXPECT_TRUE(startsWith(run.err, "SIDECAR_GONE: ")) << call.args[0] << ": " << run.err;
  EXPECT_NE(run.err.find("hint: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--disk"), std::string::npos) << run.err;
  EXPECT_EQ(sandbox.read("a.txt"), before) << call.args[0] << " wrote the file";
}

TEST(SidecarGoneCli, EveryEditFormIsRefusedAndReadsWarnWhileTheEditorRuns) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  // Disk mode first (no sidecar yet): a read and an op in the journal, for undo and rewind.
  CliRun read = runHashline({"read", "a.txt", "--json"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  ASSERT_EQ(runHashline({"replace", "a.txt", "--old", "two", "--new", "TWO"}, sandbox.workspace())
                .exit_code,
            0);
  const std::string before = sandbox.read("a.txt");
  ASSERT_EQ(before, "one\nTWO\nthree\n");
  read = runHashline({"read", "a.txt", "--json"}, sandbox.workspace());
  const std::string version = read.json()["version"].dump();

  // The editor (this process) runs; its sidecar died without withdrawing its record.
  const std::string record = writeDiscoveryRecord(sandbox, deadPid(), ::getpid());
  const std::string anchor = anchorOf(read.json(), 2);
  const std::string patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n"
                            "*** End Patch\n";
  const json write = json::array({{{"op", "write"}, {"content", "all new\n"}}});
  for (const Refusal& call : std::vector<Refusal>{
           {{"edit", "a.txt", "--edits", replaceLine(anchor, "X").dump()}, ""},
           {{"edit", "a.txt", "--edits", write.dump()}, ""},
           {{"edit", "a.txt", "--dry-run", "--edits", replaceLine(anchor, "X").dump()}, ""},
           {{"replace", "a.txt", "--old", "one", "--new", "ONE"}, ""},
           {{"headtail", "a.txt", "--head", "one", "--tail", "three", "--new", "X"}, ""},
           {{"range", "a.txt", "--start", "1", "--end", "1", "--at", version, "--content", "X"},
            ""},
           {{"patch", "-"}, patch},
           {{"draft", "a.txt", "-"}, "ONE\n// ... existing code ...\n"},
           {{"ed", "a.txt", "--at", version, "--script", "1d"}, ""},
           {{"undo", "1"}, ""},
           {{"rewind", "--session", "default"}, ""},
           {{"turn", "begin"}, ""},
       })
    expectRefusedGone(sandbox, call, before);

  // Reads: answered from the disk, with the warning on stderr and in --json.
  CliRun text = runHashline({"read", "a.txt"}, sandbox.workspace());
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\xE2\x86\x92TWO"), std::string::npos) << text.out;
  EXPECT_TRUE(startsWith(text.err, "warning: SIDECAR_GONE: ")) << text.err;
  EXPECT_NE(text.err.find("hint: "), std::string::npos) << text.err;
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"read", "a.txt", "--json"},
                                             {"status", "--json"},
                                             {"log", "--json"},
                                             {"search", "TWO", "--json"}}) {
    CliRun run = runHashline(args, sandbox.workspace());
    EXPECT_EQ(run.exit_code, 0) << args[0] << ": " << run.err;
    EXPECT_EQ(run.json()["warning"]["code"], "SIDECAR_GONE") << args[0] << ": " << run.out;
  }
  EXPECT_TRUE(exists(record)) << "kept while the editor runs";
  EXPECT_EQ(sandbox.read("a.txt"), before);
}

TEST(SidecarGoneCli, DiskFlagWritesTheDiskOnPurpose) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  writeDiscoveryRecord(sandbox, deadPid(), ::getpid());
  CliRun read = runHashline({"--disk", "read", "a.txt"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  CliRun edit = runHashline({"replace", "a.txt", "--old", "two", "--new", "TWO", "--disk"},
                            sandbox.workspace());
  EXPECT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(sandbox.read("a.txt"), "one\nTWO\nthree\n");
  EXPECT_TRUE(startsWith(edit.err, "warning: SIDECAR_GONE: ")) << edit.err;
  EXPECT_NE(edit.err.find("--disk"), std::string::npos) << edit.err;
  // Without the flag the next edit is refused again: --disk is per call.
  CliRun again =
      runHashline({"replace", "a.txt", "--old", "one", "--new", "ONE"}, sandbox.workspace());
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_TRUE(startsWith(again.err, "SIDECAR_GONE: ")) << again.err;
  EXPECT_EQ(sandbox.read("a.txt"), "one\nTWO\nthree\n");
}

TEST(SidecarGoneCli, RecordOfAnExitedEditorMeansDiskMode) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  // The editor is gone too (and an older record naming no editor): nothing holds a buffer.
  const std::string with_editor = writeDiscoveryRecord(sandbox, deadPid(), deadPid());
  const std::string without_editor = writeDiscoveryRecord(sandbox, deadPid(), 0);
  ASSERT_EQ(runHashline({"read", "a.txt"}, sandbox.workspace()).exit_code, 0);
  CliRun edit =
      runHashline({"replace", "a.txt", "--old", "two", "--new", "TWO"}, sandbox.workspace());
  EXPECT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(edit.err, "");
  EXPECT_EQ(sandbox.read("a.txt"), "one\nTWO\nthree\n");
  EXPECT_FALSE(exists(with_editor));
  EXPECT_FALSE(exists(without_editor));
}

TEST(SidecarGoneCli, SocketThatRefusesIsGone) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  // A live pid (this process) whose socket is bound but not listening: connect() is refused.
  const std::string socket_path = sandbox.runtime() + "/refusing.sock";
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socket_path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  writeDiscoveryRecord(sandbox, ::getpid(), ::getpid(), socket_path);
  CliRun edit =
      runHashline({"replace", "a.txt", "--old", "two", "--new", "TWO"}, sandbox.workspace());
  EXPECT_EQ(edit.exit_code, 1);
  EXPECT_TRUE(startsWith(edit.err, "SIDECAR_GONE: ")) << edit.err;
  EXPECT_NE(edit.err.find("refuses connections"), std::string::npos) << edit.err;
  EXPECT_EQ(sandbox.read("a.txt"), kText);
  CliRun read = runHashline({"read", "a.txt"}, sandbox.workspace());
  EXPECT_EQ(read.exit_code, 0);
  EXPECT_TRUE(startsWith(read.err, "warning: SIDECAR_GONE: ")) << read.err;
  ::close(fd);
}

TEST(SidecarGoneCli, KilledSidecarThenRestartAnchorsRecoverInOneStep) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  CliRun read = runHashline({"read", "a.txt", "--json"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  ASSERT_EQ(read.json()["lines"][1]["text"], "two (unsaved)");
  const std::string old_anchor = anchorOf(read.json(), 2);

  ASSERT_EQ(::kill(first->sidecar_pid, SIGKILL), 0);
  EXPECT_EQ(first->client.waitForExit(), 128 + SIGKILL);
  CliRun edit = runHashline({"edit", "a.txt", "--edits", replaceLine(old_anchor, "TWO").dump()},
                            sandbox.workspace());
  EXPECT_EQ(edit.exit_code, 1);
  EXPECT_TRUE(startsWith(edit.err, "SIDECAR_GONE: ")) << edit.err;
  EXPECT_EQ(sandbox.read("a.txt"), kText) << "nothing written behind the open buffer";
  CliRun disk_read = runHashline({"read", "a.txt"}, sandbox.workspace());
  EXPECT_EQ(disk_read.exit_code, 0);
  EXPECT_TRUE(startsWith(disk_read.err, "warning: SIDECAR_GONE: ")) << disk_read.err;
  EXPECT_EQ(disk_read.out.find("unsaved"), std::string::npos) << "the disk's text, said so";

  // The same editor (this process) starts a new sidecar and opens the buffer again.
  ScriptedEditor second(sandbox);
  CliRun stale =
      runHashline({"edit", "a.txt", "--edits", replaceLine(old_anchor, "TWO").dump(), "--json"},
                  sandbox.workspace());
  EXPECT_EQ(stale.exit_code, 1) << stale.out;
  const json refusal = stale.json()["error"];
  EXPECT_EQ(refusal["code"], "NOT_OBSERVED") << stale.out;
  std::string fresh;
  for (const json& row : refusal["data"]["freshAnchors"])
    if (row["line"] == 2) fresh = row["anchor"];
  ASSERT_FALSE(fresh.empty()) << stale.out;
  EXPECT_EQ(refusal["data"]["freshAnchors"][1]["text"], "two (unsaved)") << stale.out;

  BackgroundCli retry({"edit", "a.txt", "--edits", replaceLine(fresh, "TWO").dump()},
                      sandbox.workspace());
  EXPECT_EQ(second.applyNextEdit(), "one\nTWO\nthree\n");
  CliRun applied = retry.wait();
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  EXPECT_NE(applied.out.find("(buffer)"), std::string::npos) << applied.out;
  EXPECT_EQ(sandbox.read("a.txt"), kText) << "the edit went to the buffer";
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

TEST(SidecarGoneCli, SidecarThatDoesNotAnswerIsNeverHandedTheEdit) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  ScriptedEditor open(sandbox);
  CliRun read = runHashline({"read", "a.txt", "--json"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  const std::string anchor = anchorOf(read.json(), 2);

  ASSERT_EQ(::kill(open.sidecar_pid, SIGSTOP), 0); // hung: the socket accepts, nothing answers
  ::setenv("HASHLINE_SIDECAR_PING_MS", "300", 1);
  CliRun edit = runHashline({"edit", "a.txt", "--edits", replaceLine(anchor, "TWO").dump()},
                            sandbox.workspace());
  ::unsetenv("HASHLINE_SIDECAR_PING_MS");
  ASSERT_EQ(::kill(open.sidecar_pid, SIGCONT), 0);
  EXPECT_EQ(edit.exit_code, 1);
  EXPECT_TRUE(startsWith(edit.err, "SIDECAR_GONE: ")) << edit.err;
  EXPECT_NE(edit.err.find("did not answer within 300 ms"), std::string::npos) << edit.err;
  EXPECT_EQ(sandbox.read("a.txt"), kText);
  open.client.sync();
  EXPECT_TRUE(open.client.takeServerRequests("workspace/applyEdit").empty())
      << "the edit was never sent to the hung sidecar";

  // Answering again: the same edit goes to the buffer.
  BackgroundCli retry({"edit", "a.txt", "--edits", replaceLine(anchor, "TWO").dump()},
                      sandbox.workspace());
  EXPECT_EQ(open.applyNextEdit(), "one\nTWO\nthree\n");
  EXPECT_EQ(retry.wait().exit_code, 0);
  EXPECT_EQ(open.client.shutdownAndExit(), 0);
}

TEST(SidecarGoneCli, CleanShutdownMeansDiskMode) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  {
    ScriptedEditor open(sandbox);
    EXPECT_EQ(open.client.shutdownAndExit(), 0);
  }
  ASSERT_EQ(runHashline({"read", "a.txt"}, sandbox.workspace()).err, "");
  CliRun edit =
      runHashline({"replace", "a.txt", "--old", "two", "--new", "TWO"}, sandbox.workspace());
  EXPECT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(edit.err, "");
  EXPECT_NE(edit.out.find("(disk)"), std::string::npos) << edit.out;
  EXPECT_EQ(sandbox.read("a.txt"), "one\nTWO\nthree\n");
}

TEST(SidecarGoneCli, RestartAskedByTheEditorIsSidecarGoneUntilTheNewSidecar) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  // VS Code's Restart Server: the old sidecar hears `hashline/restarting`, then shutdown/exit.
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  const std::string first_record =
      sandbox.runtime() + "/sidecar-" + std::to_string(first->sidecar_pid) + ".json";
  ASSERT_TRUE(exists(first_record));
  first->client.notify("hashline/restarting");
  EXPECT_EQ(first->client.shutdownAndExit(), 0);
  EXPECT_NE(first->client.log().find("its discovery record stays"), std::string::npos);
  first.reset();
  EXPECT_TRUE(exists(first_record)) << "kept through the gap";
  CliRun edit =
      runHashline({"replace", "a.txt", "--old", "two", "--new", "TWO"}, sandbox.workspace());
  EXPECT_EQ(edit.exit_code, 1) << edit.out;
  EXPECT_TRUE(startsWith(edit.err, "SIDECAR_GONE: ")) << edit.err;
  EXPECT_EQ(sandbox.read("a.txt"), kText) << "nothing written behind the open buffer";

  // The new sidecar of the same editor takes over; the old record is swept as replaced.
  ScriptedEditor second(sandbox);
  CliRun read = runHashline({"read", "a.txt"}, sandbox.workspace());
  EXPECT_EQ(read.err, "") << "the new sidecar answers";
  EXPECT_NE(read.out.find("two (unsaved)"), std::string::npos) << read.out;
  BackgroundCli retry({"replace", "a.txt", "--old", "two (unsaved)", "--new", "TWO"},
                      sandbox.workspace());
  EXPECT_EQ(second.applyNextEdit(), "one\nTWO\nthree\n");
  CliRun applied = retry.wait();
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  EXPECT_EQ(applied.err, "");
  EXPECT_FALSE(exists(first_record)) << "swept once the new sidecar published";
  EXPECT_EQ(sandbox.read("a.txt"), kText);
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
