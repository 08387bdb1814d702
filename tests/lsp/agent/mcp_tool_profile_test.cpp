// `hashline mcp --tools LIST`: the profile lists only the named tools, refuses calls to the others,
// rejects unknown names; the error vocabulary is sent once in the instructions, not per tool.
#include "agent_test_util.h"

#include <gtest/gtest.h>
#include <set>
#include <sstream>

namespace hashline::test {
namespace {

using nlohmann::json;

std::vector<json> answers(const CliRun& run) {
  std::vector<json> lines;
  std::istringstream in(run.out);
  for (std::string line; std::getline(in, line);)
    lines.push_back(json::parse(line));
  return lines;
}

std::string request(int id, const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() + "\n";
}

std::string session() {
  return request(1, "initialize",
                 {{"protocolVersion", "2025-11-25"},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "profile-test"}, {"version", "1"}}}}) +
         request(2, "tools/list");
}

std::set<std::string> toolNames(const json& list_answer) {
  std::set<std::string> names;
  for (const json& tool : list_answer["result"]["tools"])
    names.insert(tool["name"]);
  return names;
}

TEST(McpToolProfile, ListsOnlyTheNamedTools) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "one\n");
  CliRun run = runHashline(
      {"mcp", "--workspace", sandbox.workspace(), "--tools", "read,edit,hashline_replace,patch"},
      sandbox.workspace(),
      session() +
          request(3, "tools/call",
                  {{"name", "hashline_ed"}, {"arguments", {{"path", "a.txt"}, {"script", "1d"}}}}) +
          request(4, "tools/call",
                  {{"name", "hashline_read"}, {"arguments", {{"path", "a.txt"}}}}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto lines = answers(run);
  ASSERT_EQ(lines.size(), 4u) << run.out;
  EXPECT_EQ(toolNames(lines[1]), (std::set<std::string>{"hashline_read", "hashline_edit",
                                                        "hashline_replace", "hashline_patch"}));
  EXPECT_EQ(lines[2]["error"]["code"], -32602) << lines[2]; // not offered: unknown tool
  EXPECT_FALSE(lines[3]["result"]["isError"].get<bool>()) << lines[3];
  EXPECT_EQ(sandbox.read("a.txt"), "one\n");
}

TEST(McpToolProfile, DefaultAndAllOfferEveryTool) {
  AgentSandbox sandbox;
  CliRun plain =
      runHashline({"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(), session());
  CliRun all = runHashline({"mcp", "--workspace", sandbox.workspace(), "--tools", "all"},
                           sandbox.workspace(), session());
  auto plain_names = toolNames(answers(plain).at(1));
  EXPECT_GE(plain_names.size(), 17u);
  EXPECT_EQ(plain_names, toolNames(answers(all).at(1)));
}

TEST(McpToolProfile, UnknownToolNameIsAUsageError) {
  AgentSandbox sandbox;
  CliRun run =
      runHashline({"mcp", "--workspace", sandbox.workspace(), "--tools", "read,frobnicate"},
                  sandbox.workspace(), session());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown tool 'frobnicate'"), std::string::npos) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST(McpToolProfile, ErrorVocabularyOnceInInstructionsNotPerTool) {
  AgentSandbox sandbox;
  CliRun run =
      runHashline({"mcp", "--workspace", sandbox.workspace()}, sandbox.workspace(), session());
  auto lines = answers(run);
  ASSERT_EQ(lines.size(), 2u) << run.out;
  std::string instructions = lines[0]["result"]["instructions"];
  for (const char* code :
       {"STALE_ANCHOR", "NOT_OBSERVED", "AMBIGUOUS", "OUTSIDE_WORKSPACE", "EDITOR_REJECTED"})
    EXPECT_NE(instructions.find(code), std::string::npos) << code;
  for (const json& tool : lines[1]["result"]["tools"]) {
    std::string description = tool["description"];
    EXPECT_EQ(description.find("STALE_ANCHOR"), std::string::npos) << tool["name"];
    EXPECT_LT(description.size(), 700u) << tool["name"];
  }
}

} // namespace
} // namespace hashline::test
