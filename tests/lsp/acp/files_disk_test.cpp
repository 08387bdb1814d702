// fs/read_text_file and fs/write_text_file answered by `hashline acp` on the disk (no editor
// running): reads with line/limit, writes merged with changes made since the agent's read,
// journaled under the agent and its ACP session and undoable; every bad write refused with
// nothing written.
#include "../agent/agent_test_util.h"
#include "acp_client.h"
#include "acp_test_util.h"

#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using nlohmann::json;

/// The puppet agent asks the client (the proxy) `method` with `params`; returns the answer the
/// agent received.
json agentAsks(AcpClient& client, std::int64_t id, const std::string& method, json params) {
  client.agentSends(
      json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
  auto answer = client.waitAgentReceived(
      [id](const json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); });
  if (!answer) return nullptr;
  return json::parse(*answer);
}

json readFile(AcpClient& client, std::int64_t id, const std::string& session,
              const std::string& path, json extra = json::object()) {
  json params = {{"sessionId", session}, {"path", path}};
  params.update(extra);
  return agentAsks(client, id, "fs/read_text_file", params);
}

json writeFile(AcpClient& client, std::int64_t id, const std::string& session,
               const std::string& path, const std::string& content) {
  return agentAsks(client, id, "fs/write_text_file",
                   {{"sessionId", session}, {"path", path}, {"content", content}});
}

TEST(AcpFilesDisk, ReadsTheFileWithLineAndLimit) {
  AgentSandbox sandbox;
  std::string path = sandbox.write("notes.txt", "one\ntwo\nthree\n");
  std::string bare = sandbox.write("bare.txt", "alpha\r\nbeta");
  AcpClient client(sandbox.workspace());
  std::string session = client.start(sandbox.workspace());
  EXPECT_EQ(readFile(client, 100, session, path)["result"]["content"], "one\ntwo\nthree\n");
  EXPECT_EQ(readFile(client, 101, session, path, {{"line", 2}, {"limit", 1}})["result"]["content"],
            "two\n");
  EXPECT_EQ(readFile(client, 102, session, path, {{"line", 3}})["result"]["content"], "three\n");
  EXPECT_EQ(readFile(client, 103, session, path, {{"line", 9}})["result"]["content"], "");
  EXPECT_EQ(readFile(client, 104, session, bare)["result"]["content"], "alpha\nbeta");
  json bad = readFile(client, 105, session, path, {{"line", 0}});
  EXPECT_EQ(bad["error"]["code"], -32602) << bad;
  json missing = readFile(client, 106, session, sandbox.workspace() + "/nope.txt");
  EXPECT_EQ(missing["error"]["code"], -32002) << missing;
  json relative = readFile(client, 107, session, "notes.txt");
  EXPECT_EQ(relative["error"]["code"], -32602) << relative;
  json outside = readFile(client, 108, session, sandbox.write(sandbox.outside() + "/x.txt", "x\n"));
  EXPECT_NE(errorMessage(outside).find("OUTSIDE_WORKSPACE"), std::string::npos) << outside;
}

TEST(AcpFilesDisk, AWriteIsMergedWithChangesSinceTheReadAndJournaledUnderTheAgent) {
  AgentSandbox sandbox;
  std::string path = sandbox.write("code.txt", "a\nb\nc\nd\ne\n");
  AcpClient client(sandbox.workspace());
  std::string session = client.start(sandbox.workspace());
  ASSERT_EQ(readFile(client, 100, session, path)["result"]["content"], "a\nb\nc\nd\ne\n");
  // Someone else changes line 1 on disk after the agent read it.
  sandbox.write("code.txt", "A (theirs)\nb\nc\nd\ne\n");
  // The agent writes the whole file as it knows it, with line 4 changed.
  json done = writeFile(client, 101, session, path, "a\nb\nc\nD (agent)\ne\n");
  ASSERT_TRUE(done.contains("result")) << done << client.log();
  EXPECT_EQ(sandbox.read("code.txt"), "A (theirs)\nb\nc\nD (agent)\ne\n");

  json op = onlyPuppetOp(sandbox.workspace(), session, "disk");
  ASSERT_FALSE(op.is_null());

  // A second write from the agent's new view (no read between): only its new change lands.
  json again = writeFile(client, 102, session, path, "a\nb (agent)\nc\nD (agent)\ne\n");
  ASSERT_TRUE(again.contains("result")) << again;
  EXPECT_EQ(sandbox.read("code.txt"), "A (theirs)\nb (agent)\nc\nD (agent)\ne\n");

  // The first op is undone on its own; the rest stays.
  CliRun undo = runHashline({"undo", std::to_string(op["op"].get<int>())}, sandbox.workspace());
  EXPECT_EQ(undo.exit_code, 0) << undo.err;
  EXPECT_EQ(sandbox.read("code.txt"), "A (theirs)\nb (agent)\nc\nd\ne\n");
}

TEST(AcpFilesDisk, AWriteOverlappingAChangeSinceTheReadIsRefusedWithTheCurrentLines) {
  AgentSandbox sandbox;
  std::string path = sandbox.write("code.txt", "a\nb\nc\n");
  AcpClient client(sandbox.workspace());
  std::string session = client.start(sandbox.workspace());
  ASSERT_TRUE(readFile(client, 100, session, path).contains("result"));
  sandbox.write("code.txt", "a\nb (theirs)\nc\n");
  json refused = writeFile(client, 101, session, path, "a\nb (agent)\nc\n");
  ASSERT_TRUE(refused.contains("error")) << refused;
  EXPECT_EQ(refused["error"]["code"], -32001);
  std::string message = errorMessage(refused);
  EXPECT_NE(message.find("Lines 2-2 now hold:\nb (theirs)"), std::string::npos) << message;
  EXPECT_EQ(refused["error"]["data"]["hashline"]["code"], "CONFLICT");
  EXPECT_EQ(sandbox.read("code.txt"), "a\nb (theirs)\nc\n") << "nothing written";
  CliRun log = runHashline({"log", "--json"}, sandbox.workspace());
  EXPECT_EQ(log.json()["ops"].size(), 0u) << log.out;
}

TEST(AcpFilesDisk, AToolsOwnReadDuringItsEditIsNotTheModelsView) {
  AgentSandbox sandbox;
  std::string path = sandbox.write("code.txt", "a\nb\nc\n");
  AcpClient client(sandbox.workspace());
  std::string session = client.start(sandbox.workspace());
  ASSERT_TRUE(readFile(client, 100, session, path).contains("result")); // what the model saw
  sandbox.write("code.txt", "a\nb (user)\nc\n");                        // the user, meanwhile
  // As Gemini CLI's write_file: ask permission for an edit of the file, then (approved) read it
  // again and write the model's content, which was made from the first read.
  const std::string permission = json{
      {"jsonrpc", "2.0"},
      {"id", "perm-1"},
      {"method", "session/request_permission"},
      {"params",
       {{"sessionId", session},
        {"toolCall",
         {{"toolCallId", "write-1"},
          {"kind", "edit"},
          {"status", "pending"},
          {"locations", json::array({{{"path", path}}})}}},
        {"options", json::array()}}}}.dump();
  client.agentSends(permission);
  auto asked = client.waitLine(
      [](const json& m) { return m.value("method", "") == "session/request_permission"; });
  ASSERT_TRUE(asked);
  EXPECT_EQ(*asked, permission);
  ASSERT_TRUE(readFile(client, 101, session, path).contains("result")); // the tool's own read
  json refused = writeFile(client, 102, session, path, "a\nB (model)\nc\n");
  ASSERT_TRUE(refused.contains("error")) << refused;
  EXPECT_NE(errorMessage(refused).find("Lines 2-2 now hold:\nb (user)"), std::string::npos)
      << refused;
  EXPECT_EQ(sandbox.read("code.txt"), "a\nb (user)\nc\n");

  // Once the tool call is over, a read is the model's view again: a write from it lands.
  client.agentSends(json{{"jsonrpc", "2.0"},
                         {"method", "session/update"},
                         {"params",
                          {{"sessionId", session},
                           {"update",
                            {{"sessionUpdate", "tool_call_update"},
                             {"toolCallId", "write-1"},
                             {"status", "failed"}}}}}}
                        .dump());
  ASSERT_TRUE(readFile(client, 103, session, path).contains("result"));
  json written = writeFile(client, 104, session, path, "a\nb (user)\nc (model)\n");
  ASSERT_TRUE(written.contains("result")) << written;
  EXPECT_EQ(sandbox.read("code.txt"), "a\nb (user)\nc (model)\n");
}

TEST(AcpFilesDisk, BadWritesAreRefusedAndNothingIsWritten) {
  AgentSandbox sandbox;
  std::string path = sandbox.write("code.txt", "a\nb\n");
  std::string outside = sandbox.write(sandbox.outside() + "/o.txt", "o\n");
  AcpClient client(sandbox.workspace(), {"--max-write-bytes", "1M"});
  std::string session = client.start(sandbox.workspace());

  json unread = writeFile(client, 100, session, path, "x\n");
  EXPECT_NE(errorMessage(unread).find("NOT_OBSERVED"), std::string::npos) << unread;
  json away = writeFile(client, 101, session, outside, "x\n");
  EXPECT_NE(errorMessage(away).find("OUTSIDE_WORKSPACE"), std::string::npos) << away;
  json relative = writeFile(client, 102, session, "code.txt", "x\n");
  EXPECT_EQ(relative["error"]["code"], -32602) << relative;
  json no_content =
      agentAsks(client, 103, "fs/write_text_file", {{"sessionId", session}, {"path", path}});
  EXPECT_EQ(no_content["error"]["code"], -32602) << no_content;
  json no_session =
      agentAsks(client, 104, "fs/write_text_file", {{"path", path}, {"content", "x"}});
  EXPECT_EQ(no_session["error"]["code"], -32602) << no_session;
  ASSERT_TRUE(readFile(client, 105, session, path).contains("result"));
  json binary = writeFile(client, 106, session, path, std::string("a\nb\0c\n", 6));
  EXPECT_NE(errorMessage(binary).find("NOT_TEXT"), std::string::npos) << binary;
  client.notify("_puppet/write_big",
                {{"sessionId", session}, {"path", path}, {"bytes", 50 << 20}, {"id", 107}});
  auto big = client.waitAgentReceived([](const json& m) { return m.value("id", 0) == 107; });
  ASSERT_TRUE(big) << client.log();
  json big_answer = json::parse(*big);
  EXPECT_EQ(big_answer["error"]["code"], -32602) << big_answer;
  EXPECT_NE(errorMessage(big_answer).find("--max-write-bytes"), std::string::npos);
  EXPECT_EQ(sandbox.read("code.txt"), "a\nb\n");
  EXPECT_EQ(sandbox.read(outside), "o\n");
  EXPECT_FALSE(exists(sandbox.workspace() + "/x.txt"));
  CliRun log = runHashline({"log", "--json"}, sandbox.workspace());
  EXPECT_EQ(log.json()["ops"].size(), 0u) << log.out;
}

TEST(AcpFilesDisk, LineEndingsAndTheFinalBreakAreTheFilesOwn) {
  AgentSandbox sandbox;
  std::string crlf = sandbox.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
  std::string bare = sandbox.write("bare.txt", "a\nb");
  AcpClient client(sandbox.workspace());
  std::string session = client.start(sandbox.workspace());
  ASSERT_EQ(readFile(client, 100, session, crlf)["result"]["content"], "one\ntwo\nthree\n");
  // The agent deletes line 1, changes line 2 and appends, writing "\n" lines.
  json done = writeFile(client, 101, session, crlf, "TWO\nthree\nfour\n");
  ASSERT_TRUE(done.contains("result")) << done;
  EXPECT_EQ(sandbox.read("crlf.txt"), "TWO\r\nthree\r\nfour\r\n");

  ASSERT_EQ(readFile(client, 102, session, bare)["result"]["content"], "a\nb");
  json appended = writeFile(client, 103, session, bare, "a\nb\nc\n");
  ASSERT_TRUE(appended.contains("result")) << appended;
  EXPECT_EQ(sandbox.read("bare.txt"), "a\nb\nc");
}

TEST(AcpFilesDisk, ANewFileIsCreated) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace());
  std::string session = client.start(sandbox.workspace());
  std::string path = sandbox.workspace() + "/src/new.txt";
  sandbox.write("src/keep.txt", "");
  json created = writeFile(client, 100, session, path, "fresh\n");
  ASSERT_TRUE(created.contains("result")) << created;
  EXPECT_EQ(sandbox.read("src/new.txt"), "fresh\n");
}

} // namespace
} // namespace hashline::test
