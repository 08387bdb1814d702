// `hashline acp` between a scripted client and the puppet agent: every message kind passes
// byte for byte in both directions; initialize and session setup are the only rewrites.
#include "../agent/agent_test_util.h"
#include "acp_client.h"
#include "tests/lsp/support/hashline_binary.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using nlohmann::json;

auto isMethod(const std::string& method) {
  return [method](const json& message) { return message.value("method", "") == method; };
}

TEST(AcpPassthrough, InitializeSaysTheClientReadsAndWritesFiles) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace());
  const std::string line =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,)"
      R"("clientCapabilities":{"fs":{"readTextFile":false},"terminal":true},"clientInfo":)"
      R"({"name":"test-client","version":"0.1"}}})";
  ASSERT_TRUE(client.sendLine(line));
  auto received = client.waitAgentReceived(isMethod("initialize"));
  ASSERT_TRUE(received) << client.log();
  json params = json::parse(*received)["params"];
  EXPECT_EQ(params["clientCapabilities"]["fs"]["readTextFile"], true);
  EXPECT_EQ(params["clientCapabilities"]["fs"]["writeTextFile"], true);
  EXPECT_EQ(params["clientCapabilities"]["terminal"], true) << "other capabilities kept";
  EXPECT_EQ(params["clientInfo"]["name"], "test-client");
  EXPECT_EQ(params["protocolVersion"], 1);
  json answer = client.waitResponse(1);
  EXPECT_EQ(answer["result"]["agentInfo"]["name"], "puppet-agent") << answer;
}

TEST(AcpPassthrough, EveryMessageKindPassesUnchangedBothWays) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace());
  std::string session = client.start(sandbox.workspace());
  ASSERT_EQ(session, "sess-1");
  ASSERT_TRUE(client.waitAgentReceived(isMethod("initialize")));
  ASSERT_TRUE(client.waitAgentReceived(isMethod("session/new")));

  // Client → agent: a request (odd spacing, escapes, key order kept), a notification
  // (cancellation), an unknown method, a v2-draft style message, a response.
  const std::vector<std::string> to_agent = {
      R"({"id":"p-1", "jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"sess-1",)"
      R"("prompt":[{"type":"text","text":"caf\u00e9 \"quoted\" \ud83d\ude00"}]}})",
      R"({"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess-1"}})",
      R"({"jsonrpc":"2.0","id":7,"method":"_zed/unknownThing","params":[1,2.50,true,null]})",
      R"({"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"p-1"}})",
      R"({"jsonrpc":"2.0","id":8,"method":"session/set_config_option","params":{"sessionId":"sess-1","configId":"mode","value":"ask"}})",
      R"({"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"selected","optionId":"allow-once"}}})",
  };
  for (const std::string& line : to_agent) {
    ASSERT_TRUE(client.sendLine(line));
    auto received = client.waitAgentReceived([](const json&) { return true; });
    ASSERT_TRUE(received) << client.log();
    EXPECT_EQ(*received, line);
  }

  // Agent → client: notifications with diffs, a permission request, terminal/*, an unknown
  // method, responses (success and error), a v2-draft message.
  const std::vector<std::string> to_client = {
      R"({"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":)"
      R"({"sessionUpdate":"tool_call_update","toolCallId":"t1","content":[{"type":"diff",)"
      R"("path":"/w/a.txt","oldText":"a\n","newText":"b\n"}]}}})",
      R"({"jsonrpc":"2.0","id":"perm-1","method":"session/request_permission","params":)"
      R"({"sessionId":"sess-1","toolCall":{"toolCallId":"t1"},"options":[{"optionId":)"
      R"("allow-once","name":"Allow","kind":"allow_once"}]}})",
      R"({"jsonrpc":"2.0","id":41,"method":"terminal/create","params":{"sessionId":"sess-1","command":"make"}})",
      R"({"jsonrpc":"2.0","id":42,"method":"terminal/output","params":{"sessionId":"sess-1","terminalId":"term-1"}})",
      R"({"jsonrpc":"2.0","method":"_goose/custom","params":{"x":[]}})",
      R"({"jsonrpc":"2.0","id":"p-1","result":{"stopReason":"cancelled"}})",
      R"({"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}})",
      R"({"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"sessionUpdate":"plan","entries":[]}}})",
  };
  for (const std::string& line : to_client) {
    client.agentSends(line);
    auto got = client.waitLine(
        [](const json& message) { return message.value("method", "") != "_puppet/received"; });
    ASSERT_TRUE(got) << client.log();
    EXPECT_EQ(*got, line);
  }
}

TEST(AcpPassthrough, SessionsGetHashlineMcpServer) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace());
  client.start(sandbox.workspace());
  auto received = client.waitAgentReceived(isMethod("session/new"));
  ASSERT_TRUE(received) << client.log();
  json servers = json::parse(*received)["params"]["mcpServers"];
  ASSERT_EQ(servers.size(), 1u) << servers;
  json entry = servers[0];
  EXPECT_EQ(entry["name"], "hashline");
  // The proxy names its own executable: the built binary itself, also where the tests start it
  // through an emulator's launcher script (hashlineBinary() is then the script).
  EXPECT_EQ(entry["command"], std::filesystem::canonical(hashlineTargetBinary()).string());
  EXPECT_EQ(entry["env"], json::array());
  EXPECT_FALSE(entry.contains("type")) << "ACP v1 stdio entries carry no type";
  json args = entry["args"];
  ASSERT_GE(args.size(), 5u) << args;
  EXPECT_EQ(args[0], "mcp");
  EXPECT_EQ(args[1], "--workspace");
  EXPECT_EQ(args[2], sandbox.workspace());
  EXPECT_EQ(args[args.size() - 2], "--agent");
  EXPECT_EQ(args[args.size() - 1], "puppet-agent");

  // The entry runs: hashline's MCP server answers and lists its tools.
  std::vector<std::string> command;
  for (const json& arg : args)
    command.push_back(arg.get<std::string>());
  const std::string input =
      mcpInitializeLine(1, "t") + mcpInitializedLine() + mcpRequestLine(2, "tools/list");
  CliRun mcp = runHashline(command, sandbox.workspace(), input);
  EXPECT_NE(mcp.out.find("\"hashline_read\""), std::string::npos) << mcp.out << mcp.err;

  // A client that passes hashline's server already, and session/load with another server:
  // the first is left byte for byte; the second gets hashline's added, named by its session.
  const std::string own =
      R"({"jsonrpc":"2.0","id":20,"method":"session/new","params":{"cwd":")" + sandbox.workspace() +
      R"(","mcpServers":[{"name":"hashline","command":"/opt/hashline","args":["mcp"],"env":[]}]}})";
  ASSERT_TRUE(client.sendLine(own));
  auto own_received = client.waitAgentReceived(isMethod("session/new"));
  ASSERT_TRUE(own_received);
  EXPECT_EQ(*own_received, own);
  client.request("session/load", {{"sessionId", "old-7"},
                                  {"cwd", sandbox.workspace()},
                                  {"mcpServers", json::array({{{"name", "other"},
                                                               {"command", "/bin/other"},
                                                               {"args", json::array()},
                                                               {"env", json::array()}}})}});
  auto load = client.waitAgentReceived(isMethod("session/load"));
  ASSERT_TRUE(load);
  json load_servers = json::parse(*load)["params"]["mcpServers"];
  ASSERT_EQ(load_servers.size(), 2u) << load_servers;
  EXPECT_EQ(load_servers[0]["name"], "other");
  EXPECT_EQ(load_servers[1]["name"], "hashline");
  json load_args = load_servers[1]["args"];
  EXPECT_NE(std::find(load_args.begin(), load_args.end(), json("old-7")), load_args.end())
      << load_args;
}

TEST(AcpPassthrough, NoMcpLeavesSessionsAsTheyAre) {
  AgentSandbox sandbox;
  AcpClient client(sandbox.workspace(), {"--no-mcp"});
  client.request("initialize", {{"protocolVersion", 1}});
  const std::string line = R"({"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":")" +
                           sandbox.workspace() + R"(","mcpServers":[]}})";
  ASSERT_TRUE(client.sendLine(line));
  auto received = client.waitAgentReceived(isMethod("session/new"));
  ASSERT_TRUE(received);
  EXPECT_EQ(*received, line);
}

} // namespace
} // namespace hashline::test
