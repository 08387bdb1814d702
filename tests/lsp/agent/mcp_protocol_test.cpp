// `hashline mcp` over real pipes: newline-delimited JSON-RPC on the shared JSON-RPC core;
// version negotiation, tools/list, tools/call (read, edit, refused edit as isError), and malformed
// input — not JSON, a batch, an oversized line, notifications — answered as the LSP and the agent
// socket answer it (never a crash, never a stray line on stdout, the connection kept).
#include "agent_test_util.h"

#include <gtest/gtest.h>
#include <set>
#include <sstream>

namespace hashline::test {
namespace {

using nlohmann::json;

std::vector<json> outputLines(const CliRun& run) {
  std::vector<json> lines;
  std::istringstream in(run.out);
  std::string line;
  while (std::getline(in, line)) {
    json value = json::parse(line, nullptr, false);
    EXPECT_FALSE(value.is_discarded()) << "not JSON on stdout: " << line;
    lines.push_back(value);
  }
  return lines;
}

std::string initialize(const std::string& version) {
  return mcpInitializeLine(1, "test-agent", version) + mcpInitializedLine();
}

TEST(McpProtocol, VersionNegotiation) {
  AgentSandbox sandbox;
  for (const auto& [asked, answered] :
       std::vector<std::pair<std::string, std::string>>{{"2025-06-18", "2025-06-18"},
                                                        {"2025-11-25", "2025-11-25"},
                                                        {"2024-11-05", "2025-11-25"}}) {
    CliRun run = runHashline({"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(),
                             initialize(asked) + mcpRequestLine(2, "ping"));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto lines = outputLines(run);
    ASSERT_EQ(lines.size(), 2u) << run.out; // the notification gets no answer
    EXPECT_EQ(lines[0]["result"]["protocolVersion"], answered) << asked;
    EXPECT_EQ(lines[0]["result"]["serverInfo"]["name"], "hashline");
    EXPECT_TRUE(lines[0]["result"]["capabilities"].contains("tools"));
    EXPECT_EQ(lines[1]["id"], 2);
    EXPECT_EQ(lines[1]["result"], json::object());
  }
}

TEST(McpProtocol, ReadEditAndRefusal) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "one\ntwo\nthree\n");
  // Turn 1: list and read.
  CliRun first = runHashline(
      {"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(),
      initialize("2025-06-18") + mcpRequestLine(2, "tools/list") +
          mcpRequestLine(3, "tools/call",
                         {{"name", "hashline_read"}, {"arguments", {{"path", "a.txt"}}}}));
  auto lines = outputLines(first);
  ASSERT_EQ(lines.size(), 3u) << first.out << first.err;
  std::set<std::string> names;
  for (const auto& tool : lines[1]["result"]["tools"]) {
    EXPECT_EQ(tool["inputSchema"]["type"], "object") << tool["name"];
    names.insert(tool["name"].get<std::string>());
  }
  for (const char* name :
       {"hashline_read", "hashline_edit", "hashline_replace", "hashline_headtail", "hashline_range",
        "hashline_patch", "hashline_draft", "hashline_ed", "hashline_status"})
    EXPECT_EQ(names.count(name), 1u) << name;
  json read = lines[2]["result"];
  EXPECT_EQ(read["isError"], false);
  EXPECT_EQ(read["content"][0]["type"], "text");
  // The rows once, as text: what every agent hands the model (no structuredContent by default).
  const std::string read_text = read["content"][0]["text"];
  EXPECT_EQ(read_text.rfind("# a.txt", 0), 0u);
  EXPECT_FALSE(read.contains("structuredContent")) << read;
  EXPECT_EQ(read["content"].size(), 1u);
  // The anchor as a model takes it: from the row of line 2 ("2:LLL:BBB→two").
  const std::size_t row = read_text.find("\n2:");
  ASSERT_NE(row, std::string::npos) << read_text;
  std::string anchor = read_text.substr(row + 1, read_text.find("→", row) - row - 1);
  EXPECT_EQ(anchor.size(), 9u) << read_text;

  // Turn 2 (a new server process: the read was remembered): edit, then a stale edit.
  json edit = {{"name", "hashline_edit"},
               {"arguments",
                {{"path", "a.txt"},
                 {"edits", {{{"op", "replace"}, {"anchor", anchor}, {"content", "TWO"}}}}}}};
  CliRun second =
      runHashline({"mcp", "--workspace", sandbox.workspace(), "--structured"}, sandbox.workspace(),
                  initialize("2025-11-25") + mcpRequestLine(2, "tools/call", edit) +
                      mcpRequestLine(3, "tools/call", edit));
  lines = outputLines(second);
  ASSERT_EQ(lines.size(), 3u) << second.out << second.err;
  EXPECT_EQ(lines[1]["result"]["isError"], false) << lines[1];
  EXPECT_EQ(lines[1]["result"]["structuredContent"]["status"], "applied");
  EXPECT_EQ(sandbox.read("a.txt"), "one\nTWO\nthree\n");
  json refused = lines[2]["result"];
  EXPECT_EQ(refused["isError"], true) << refused;
  std::string text = refused["content"][0]["text"];
  EXPECT_EQ(text.rfind("STALE_ANCHOR", 0), 0u) << text;
  EXPECT_NE(text.find("hint:"), std::string::npos);
  EXPECT_NE(text.find("fresh anchors:"), std::string::npos);
  EXPECT_EQ(refused["structuredContent"]["error"]["code"], "STALE_ANCHOR");
}

TEST(McpProtocol, MalformedInputIsAnsweredNotFatal) {
  AgentSandbox sandbox;
  std::string input =
      initialize("2025-06-18") + "{not json\n" + "[1,2]\n" + "\n" +
      json{{"jsonrpc", "2.0"}, {"id", 5}}.dump() + "\n" + mcpRequestLine(6, "no/such/method") +
      mcpRequestLine(7, "tools/call", {{"name", "nope"}, {"arguments", json::object()}}) +
      mcpRequestLine(8, "tools/call", {{"name", "hashline_read"}, {"arguments", 42}}) +
      mcpRequestLine(9, "tools/call",
                     {{"name", "hashline_edit"},
                      {"arguments", {{"path", "a.txt"}, {"edits", "not a list"}}}}) +
      json{{"jsonrpc", "2.0"}, {"id", 99}, {"result", json::object()}}.dump() + "\n" +
      mcpRequestLine(10, "ping");
  CliRun run = runHashline({"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(), input);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  auto lines = outputLines(run);
  ASSERT_EQ(lines.size(), 9u) << run.out;
  EXPECT_EQ(lines[1]["error"]["code"], -32700);
  EXPECT_TRUE(lines[1]["id"].is_null());
  EXPECT_EQ(lines[2]["error"]["code"], -32600);
  EXPECT_EQ(lines[3]["error"]["code"], -32600); // an id but no method
  EXPECT_EQ(lines[4]["error"]["code"], -32601);
  EXPECT_EQ(lines[5]["error"]["code"], -32602);   // unknown tool
  EXPECT_EQ(lines[6]["error"]["code"], -32602);   // arguments not an object
  EXPECT_EQ(lines[7]["result"]["isError"], true); // wrong shape: a tool error the model can fix
  EXPECT_EQ(lines[8]["id"], 10);
}

TEST(McpProtocol, RelativeWorkspaceIsTakenAgainstTheCurrentDirectory) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "one\n");
  CliRun run =
      runHashline({"mcp", "--workspace", "ws"}, sandbox.root(),
                  initialize("2025-11-25") + mcpRequestLine(2, "tools/call",
                                                            {{"name", "hashline_read"},
                                                             {"arguments", {{"path", "a.txt"}}}}));
  auto lines = outputLines(run);
  ASSERT_EQ(lines.size(), 2u) << run.out << run.err;
  EXPECT_EQ(lines[1]["result"]["isError"], false) << lines[1];
}

TEST(McpProtocol, MalformedJsonLineKeepsTheConnection) {
  AgentSandbox sandbox;
  std::string input = initialize("2025-11-25") + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\n" +
                      "\xff\xfe\n" + mcpRequestLine(3, "ping");
  CliRun run = runHashline({"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(), input);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  auto lines = outputLines(run);
  ASSERT_EQ(lines.size(), 4u) << run.out;
  for (int i : {1, 2}) {
    EXPECT_EQ(lines[i]["error"]["code"], -32700) << lines[i];
    EXPECT_TRUE(lines[i]["id"].is_null());
  }
  EXPECT_EQ(lines[3]["id"], 3);
  EXPECT_EQ(lines[3]["result"], json::object());
}

TEST(McpProtocol, OversizedLineIsSkippedAndAnswered) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "one\n");
  json big = {{"jsonrpc", "2.0"},
              {"id", 2},
              {"method", "tools/call"},
              {"params",
               {{"name", "hashline_edit"},
                {"arguments", {{"path", "a.txt"}, {"edits", std::string(5000, 'x')}}}}}};
  std::string input = initialize("2025-11-25") + big.dump() + "\n" + mcpRequestLine(3, "ping");
  CliRun run = runHashline({"mcp", "--workspace", sandbox.workspace(), "--max-message-bytes", "1K"},
                           sandbox.workspace(), input);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  auto lines = outputLines(run);
  ASSERT_EQ(lines.size(), 3u) << run.out;
  EXPECT_EQ(lines[1]["error"]["code"], -32600) << lines[1];
  EXPECT_TRUE(lines[1]["id"].is_null());
  EXPECT_EQ(lines[1]["error"]["data"]["declaredBytes"], big.dump().size());
  EXPECT_NE(lines[1]["error"]["message"].get<std::string>().find("exceeds the limit of 1024"),
            std::string::npos);
  EXPECT_EQ(lines[2]["id"], 3);
  EXPECT_EQ(sandbox.read("a.txt"), "one\n");

  CliRun bad = runHashline({"mcp", "--max-message-bytes", "lots"}, sandbox.workspace(), "");
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(McpProtocol, BatchIsRefusedAsOneInvalidRequest) {
  AgentSandbox sandbox;
  json batch = json::array({json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}},
                            json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/list"}}});
  CliRun run =
      runHashline({"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(),
                  initialize("2025-06-18") + batch.dump() + "\n" + mcpRequestLine(4, "ping"));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  auto lines = outputLines(run);
  ASSERT_EQ(lines.size(), 3u) << run.out; // no answer per element
  EXPECT_EQ(lines[1]["error"]["code"], -32600) << lines[1];
  EXPECT_TRUE(lines[1]["id"].is_null());
  EXPECT_NE(lines[1]["error"]["message"].get<std::string>().find("batch"), std::string::npos);
  EXPECT_EQ(lines[2]["id"], 4);
}

TEST(McpProtocol, RequestWithoutIdIsANotificationAndIgnored) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "one\ntwo\n");
  auto notification = [](const std::string& method, json params) {
    return json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump() + "\n";
  };
  std::string input =
      initialize("2025-11-25") + notification("ping", json::object()) +
      notification("tools/call", {{"name", "hashline_edit"},
                                  {"arguments",
                                   {{"path", "a.txt"},
                                    {"edits", {{{"op", "write"}, {"content", "clobbered\n"}}}}}}}) +
      notification("notifications/cancelled", {{"requestId", 1}}) + notification("no/such", {}) +
      mcpRequestLine(2, "ping").substr(0, mcpRequestLine(2, "ping").size() -
                                              1); // last line: no newline
  CliRun run = runHashline({"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(), input);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  auto lines = outputLines(run);
  ASSERT_EQ(lines.size(), 2u) << run.out; // initialize and the final ping only
  EXPECT_EQ(lines[1]["id"], 2);
  EXPECT_EQ(sandbox.read("a.txt"), "one\ntwo\n");
}

} // namespace
} // namespace hashline::test
