// `hashline acp` when things go wrong: malformed and oversized lines from either side, an agent
// that dies, never answers or cannot start, a client that goes away — each answered with an
// ACP error, nothing hangs, and the agent's process group never outlives the proxy.
#include "../agent/agent_test_util.h"
#include "acp_client.h"
#include "acp_test_util.h"

#include <csignal>
#include <gtest/gtest.h>
#include <thread>

namespace hashline::test {
namespace {

using nlohmann::json;

bool isError(const json& message, int code) {
  return message.contains("error") && message["error"].value("code", 0) == code;
}

/// Waits (bounded, 30 s) until `pid` is gone; true when it is.
bool waitGone(pid_t pid) {
  for (int i = 0; i < 3000 && processAlive(pid); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return !processAlive(pid);
}

TEST(AcpLifecycle, MalformedLinesFromTheClientAreAnsweredAndNotForwarded) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace());
  client.start(sandbox.workspace());
  ASSERT_TRUE(client.sendLine("this is not json"));
  auto parse_error = client.waitLine([](const json& m) { return isError(m, -32700); });
  ASSERT_TRUE(parse_error) << client.log();
  EXPECT_EQ(json::parse(*parse_error)["id"], nullptr);
  ASSERT_TRUE(client.sendLine(R"([{"jsonrpc":"2.0","id":5,"method":"session/prompt"}])"));
  EXPECT_TRUE(client.waitLine([](const json& m) { return isError(m, -32600); }));
  ASSERT_TRUE(client.sendLine(R"({"jsonrpc":"2.0","id":{"x":1},"method":"session/prompt"})"));
  EXPECT_TRUE(client.waitLine([](const json& m) { return isError(m, -32600); }));
  // The next good line is the first one the agent sees after session/new.
  const std::string good =
      R"({"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess-1"}})";
  ASSERT_TRUE(client.sendLine(good));
  auto received = client.waitAgentReceived([](const json& m) {
    return m.value("method", "") != "initialize" && m.value("method", "") != "session/new";
  });
  ASSERT_TRUE(received);
  EXPECT_EQ(*received, good);
}

TEST(AcpLifecycle, MalformedLinesFromTheAgentAreAnsweredToItAndNotForwarded) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace());
  client.start(sandbox.workspace());
  client.agentSends("Debugger attached.");
  auto answered = client.waitAgentReceived(
      [](const json& m) { return m.contains("error") && m["error"].value("code", 0) == -32700; });
  ASSERT_TRUE(answered) << client.log();
  EXPECT_NE(answered->find("from the agent"), std::string::npos) << *answered;
  const std::string update = R"({"jsonrpc":"2.0","method":"session/update","params":{}})";
  client.agentSends(update);
  auto next =
      client.waitLine([](const json& m) { return m.value("method", "") != "_puppet/received"; });
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, update) << "the junk line never reached the client";
}

TEST(AcpLifecycle, OversizedLinesAreAnsweredAndSkipped) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace(), {"--max-message-bytes", "4K"});
  client.start(sandbox.workspace());
  std::string big = R"({"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"t":")" +
                    std::string(10000, 'x') + "\"}}";
  ASSERT_TRUE(client.sendLine(big));
  auto refused = client.waitLine([](const json& m) { return isError(m, -32600); });
  ASSERT_TRUE(refused) << client.log();
  EXPECT_NE(refused->find("--max-message-bytes"), std::string::npos) << *refused;
  const std::string after = R"({"jsonrpc":"2.0","method":"session/cancel","params":{}})";
  ASSERT_TRUE(client.sendLine(after));
  auto received = client.waitAgentReceived(
      [](const json& m) { return m.value("method", "") == "session/cancel"; });
  ASSERT_TRUE(received);
  EXPECT_EQ(*received, after);
}

TEST(AcpLifecycle, AnAgentThatDiesAnswersEveryPendingRequestWithAnError) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace());
  client.start(sandbox.workspace());
  std::int64_t prompt =
      client.request("session/prompt", {{"sessionId", "sess-1"}, {"prompt", json::array()}});
  ASSERT_TRUE(client.waitAgentReceived(
      [](const json& m) { return m.value("method", "") == "session/prompt"; }));
  client.notify("_puppet/exit", {{"code", 3}});
  json answer = client.waitResponse(prompt);
  EXPECT_NE(errorMessage(answer).find("exited with status 3"), std::string::npos)
      << answer << client.log();
  EXPECT_EQ(client.waitForExit(), 3);
}

TEST(AcpLifecycle, AnAgentThatNeverAnswersTheHandshakeGetsAnError) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace(), {"--handshake-timeout", "1"}, {{"PUPPET_SILENT", "1"}});
  std::int64_t init = client.request("initialize", {{"protocolVersion", 1}});
  json answer = client.waitResponse(init);
  EXPECT_NE(errorMessage(answer).find("--handshake-timeout"), std::string::npos)
      << answer << client.log();
  // Other requests (a prompt may run for long) are never timed out by the proxy; the session
  // goes on.
  EXPECT_TRUE(client.running());
}

/// The puppet's pid and the pid of a grandchild it starts in its process group.
std::pair<pid_t, pid_t> agentAndChild(AcpClient& client) {
  client.notify("_puppet/spawn_child", json::object());
  auto child =
      client.waitLine([](const json& m) { return m.value("method", "") == "_puppet/child"; });
  if (!child) return {-1, -1};
  json pids = json::parse(*child)["params"];
  return {pids["pid"].get<pid_t>(), pids["child"].get<pid_t>()};
}

TEST(AcpLifecycle, AClientThatGoesAwayEndsTheAgentAndItsChildren) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace(), {}, {{"PUPPET_STUBBORN", "1"}});
  client.start(sandbox.workspace());
  auto [agent, grandchild] = agentAndChild(client);
  ASSERT_TRUE(processAlive(agent)) << client.log();
  ASSERT_TRUE(processAlive(grandchild));
  client.closeInput(); // the stubborn agent ignores its stdin closing
  EXPECT_EQ(client.waitForExit(), 0) << client.log();
  EXPECT_TRUE(waitGone(agent)) << "the agent outlived the proxy";
  EXPECT_TRUE(waitGone(grandchild)) << "the agent's child outlived the proxy";
}

TEST(AcpLifecycle, AKilledProxyTakesTheAgentWithIt) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace(), {}, {{"PUPPET_STUBBORN", "1"}});
  client.start(sandbox.workspace());
  auto [agent, grandchild] = agentAndChild(client);
  ASSERT_TRUE(processAlive(agent)) << client.log();
  client.terminate(SIGTERM);
  EXPECT_EQ(client.waitForExit(), 128 + SIGTERM);
  EXPECT_TRUE(waitGone(agent));
  EXPECT_TRUE(waitGone(grandchild));
}

TEST(AcpLifecycle, AnAgentThatCannotStartAnswersInitializeWithTheReason) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace(), {}, {}, {"/nonexistent/agent-binary", "--acp"});
  std::int64_t init = client.request("initialize", {{"protocolVersion", 1}});
  json answer = client.waitResponse(init);
  EXPECT_NE(errorMessage(answer).find("cannot start the agent"), std::string::npos)
      << answer << client.log();
  EXPECT_EQ(client.waitForExit(), 127);
}

TEST(AcpLifecycle, UsageErrors) {
  AgentSandbox sandbox;
  CliRun none = runHashline({"acp"}, sandbox.workspace());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("missing the agent command"), std::string::npos) << none.err;
  CliRun bad = runHashline({"acp", "--max-write-bytes", "lots", "--", "true"}, sandbox.workspace());
  EXPECT_EQ(bad.exit_code, 2);
  CliRun help = runHashline({"acp", "--help"}, sandbox.workspace());
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("hashline acp [options] -- AGENT"), std::string::npos);
  CliRun listed = runHashline({"--help"}, sandbox.workspace());
  EXPECT_NE(listed.out.find("  acp "), std::string::npos) << listed.out;
}

} // namespace
} // namespace hashline::test
