// fs/* through `hashline acp` with an editor attached: a scripted editor runs the real
// `hashline lsp` sidecar and holds a buffer with unsaved typing. The agent's read sees the
// typing; its whole-file write becomes one versioned edit of its own lines in the buffer (the
// typing kept, the buffer not saved, the disk untouched), journaled under the agent and its
// ACP session and undoable; a write over lines the user changed since the read is refused with
// what they hold now, and the editor is asked nothing. While the sidecar is gone (SIGKILLed,
// the editor running) a read is refused SIDECAR_GONE, never the disk's text passed off as the
// buffer.
#include "../agent/agent_test_util.h"
#include "../agent/scripted_editor.h"
#include "acp_client.h"
#include "acp_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <csignal>
#include <gtest/gtest.h>
#include <thread>

namespace hashline::test {
namespace {

using nlohmann::json;

class AcpFilesSidecar : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TRUE(waitForDiscoveryFile(sandbox_.runtime())); }

  /// The agent sends `method`; returns the id to wait on.
  void agentAsks(std::int64_t id, const std::string& method, json params) {
    client_.agentSends(
        json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
  }
  json answerTo(std::int64_t id) {
    auto answer = client_.waitAgentReceived(
        [id](const json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); });
    return answer ? json::parse(*answer) : json();
  }
  /// The user types: the whole buffer becomes `text`.
  void userTypes(const std::string& text) {
    editor_.buffer = text;
    editor_.client.didChange(editor_.uri, ++editor_.version, {LspClient::fullChange(text)});
    editor_.client.sync();
  }

  AgentSandbox sandbox_;
  const std::string path_ = sandbox_.write("notes.txt", "one\ntwo\nthree\nfour\n");
  ScriptedEditor editor_{sandbox_, "notes.txt",
                         "TYPED\none\ntwo\nthree\nfour\n"}; // unsaved top line
  AcpClient client_{sandbox_.workspace()};
};

TEST_F(AcpFilesSidecar, TheWriteLandsInTheBufferWithTheTypingKept) {
  std::string session = client_.start(sandbox_.workspace());
  agentAsks(100, "fs/read_text_file", {{"sessionId", session}, {"path", path_}});
  json read = answerTo(100);
  ASSERT_EQ(read["result"]["content"], "TYPED\none\ntwo\nthree\nfour\n") << read << client_.log();

  userTypes("TYPED more\none\ntwo\nthree\nfour\n"); // after the agent's read
  agentAsks(101, "fs/write_text_file",
            {{"sessionId", session},
             {"path", path_},
             {"content", "TYPED\none\nTWO (agent)\nthree\nfour\n"}});
  editor_.applyNextEdit();
  json written = answerTo(101);
  ASSERT_TRUE(written.contains("result")) << written << client_.log() << editor_.client.log();
  EXPECT_EQ(editor_.buffer, "TYPED more\none\nTWO (agent)\nthree\nfour\n");
  EXPECT_EQ(editor_.client.snapshot(editor_.uri)["sha256"], sha256Hex(editor_.buffer));
  EXPECT_EQ(sandbox_.read("notes.txt"), "one\ntwo\nthree\nfour\n") << "not saved";

  json op = onlyPuppetOp(sandbox_.workspace(), session, "buffer");
  ASSERT_FALSE(op.is_null());

  // Undone from the CLI: the agent's line goes back, the typing stays.
  BackgroundCli undo({"undo", std::to_string(op["op"].get<int>())}, sandbox_.workspace());
  editor_.applyNextEdit();
  CliRun undone = undo.wait();
  EXPECT_EQ(undone.exit_code, 0) << undone.err;
  EXPECT_EQ(editor_.buffer, "TYPED more\none\ntwo\nthree\nfour\n");
}

TEST_F(AcpFilesSidecar, AWriteOverTheUsersNewTypingIsRefused) {
  std::string session = client_.start(sandbox_.workspace());
  agentAsks(100, "fs/read_text_file", {{"sessionId", session}, {"path", path_}});
  ASSERT_TRUE(answerTo(100).contains("result")) << client_.log();
  userTypes("TYPED\none\ntwo, typed by the user\nthree\nfour\n");
  agentAsks(101, "fs/write_text_file",
            {{"sessionId", session},
             {"path", path_},
             {"content", "TYPED\none\nTWO (agent)\nthree\nfour\n"}});
  json refused = answerTo(101);
  ASSERT_TRUE(refused.contains("error")) << refused;
  std::string message = errorMessage(refused);
  EXPECT_NE(message.find("Lines 3-3 now hold:\ntwo, typed by the user"), std::string::npos)
      << message;
  editor_.client.sync();
  EXPECT_TRUE(editor_.client.takeServerRequests("workspace/applyEdit").empty())
      << "the editor was asked to apply something";
  EXPECT_EQ(editor_.client.snapshot(editor_.uri)["sha256"], sha256Hex(editor_.buffer));
  CliRun log = runHashline({"log", "--json"}, sandbox_.workspace());
  EXPECT_EQ(log.json()["ops"].size(), 0u) << log.out;
}

TEST_F(AcpFilesSidecar, AReadWhileTheSidecarIsGoneIsRefusedNotAnsweredFromTheDisk) {
  std::string session = client_.start(sandbox_.workspace());
  ASSERT_EQ(::kill(editor_.sidecar_pid, SIGKILL), 0);
  editor_.client.waitForExit();
  agentAsks(100, "fs/read_text_file", {{"sessionId", session}, {"path", path_}});
  json refused = answerTo(100);
  ASSERT_TRUE(refused.contains("error")) << refused << client_.log();
  EXPECT_EQ(refused["error"]["code"], -32001) << refused;
  EXPECT_EQ(refused["error"]["data"]["hashline"]["code"], "SIDECAR_GONE") << refused;
  const std::string message = refused["error"]["message"];
  EXPECT_NE(message.find("SIDECAR_GONE"), std::string::npos) << message;
  EXPECT_NE(message.find("unsaved changes"), std::string::npos) << message;
  EXPECT_NE(message.find("read the file again"), std::string::npos) << message;
}

TEST_F(AcpFilesSidecar, AnAgentsOwnDiskWriteIsMergedAndJournaledUnderItsName) {
  std::string session = client_.start(sandbox_.workspace());
  // The agent announces an edit of the file (as Claude Code through ACP does before it writes
  // the disk itself); the client gets the notification unchanged.
  const std::string tool_call = json{{"jsonrpc", "2.0"},
                                     {"method", "session/update"},
                                     {"params",
                                      {{"sessionId", session},
                                       {"update",
                                        {{"sessionUpdate", "tool_call"},
                                         {"toolCallId", "toolu_1"},
                                         {"title", "Edit notes.txt"},
                                         {"kind", "edit"},
                                         {"status", "pending"},
                                         {"locations", json::array({{{"path", path_}}})}}}}}}
                                    .dump();
  client_.agentSends(tool_call);
  auto forwarded =
      client_.waitLine([](const json& m) { return m.value("method", "") == "session/update"; });
  ASSERT_TRUE(forwarded) << client_.log();
  EXPECT_EQ(*forwarded, tool_call);
  // fs/* calls run in order: once this read is answered, the sidecar knows whose write is next.
  agentAsks(100, "fs/read_text_file", {{"sessionId", session}, {"path", path_}});
  ASSERT_TRUE(answerTo(100).contains("result")) << client_.log();

  sandbox_.write("notes.txt", "one\ntwo\nTHREE (agent)\nfour\n"); // the agent's own write
  editor_.applyNextEdit();                                        // the reconciler's merge
  EXPECT_EQ(editor_.buffer, "TYPED\none\ntwo\nTHREE (agent)\nfour\n");
  editor_.client.sync();
  json ops;
  for (int i = 0; i < 300 && ops.empty(); ++i) { // the op is journaled once the mirror confirms
    ops = runHashline({"log", "--json"}, sandbox_.workspace()).json()["ops"];
    if (ops.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(ops.size(), 1u) << ops << editor_.client.log();
  EXPECT_EQ(ops[0]["method"], "reconcile");
  EXPECT_EQ(ops[0]["agent"], "puppet-agent");
  EXPECT_EQ(ops[0]["session"], session);
}

} // namespace
} // namespace hashline::test
