// A long-lived `hashline mcp` across the death and restart of the editor's sidecar (issue 31):
// with a real `hashline lsp` under a scripted editor holding unsaved text, the sidecar is killed
// with SIGKILL; the MCP server then refuses edits with SIDECAR_GONE (isError, nothing written)
// and answers reads from the disk with the warning first; once the editor starts a new sidecar
// the same MCP process reaches it by itself, the old anchors get NOT_OBSERVED with fresh
// anchors, and an edit with those lands in the buffer. `hashline mcp --disk` writes the disk on
// purpose while the sidecar is gone.
#include "agent_test_util.h"
#include "scripted_editor.h"

#include <csignal>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hashline::test {
namespace {

using nlohmann::json;

const std::string kDisk = "one\ntwo\nthree\n";

std::string textOf(const json& response) {
  return response["result"]["content"][0].value("text", std::string());
}

bool isError(const json& response) {
  return response["result"].value("isError", false);
}

/// The anchor of the row `LINE:…→text` for `line` in a tool's text (a read or fresh anchors).
std::string rowAnchor(const std::string& text, int line) {
  const std::string prefix = std::to_string(line) + ":";
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string row = text.substr(start, end - start);
    std::size_t first = row.find_first_not_of(' ');
    if (first != std::string::npos) row = row.substr(first);
    std::size_t arrow = row.find("\xE2\x86\x92");
    if (row.rfind(prefix, 0) == 0 && arrow != std::string::npos) return row.substr(0, arrow);
    start = end + 1;
  }
  return "";
}

json replaceLine(const std::string& anchor, const std::string& content) {
  return {{"path", "a.txt"},
          {"edits", json::array({{{"op", "replace"}, {"anchor", anchor}, {"content", content}}})}};
}

TEST(McpSidecarGone, RefusesWhileGoneThenReconnectsToTheRestartedSidecar) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kDisk);
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  McpProcess mcp({"--workspace", sandbox.workspace()}, sandbox.workspace());
  mcp.initialize();
  json read = mcp.tool(1, "hashline_read", {{"path", "a.txt"}});
  ASSERT_FALSE(isError(read)) << read.dump();
  ASSERT_NE(textOf(read).find("two (unsaved)"), std::string::npos) << read.dump();
  const std::string old_anchor = rowAnchor(textOf(read), 2);
  ASSERT_FALSE(old_anchor.empty()) << textOf(read);

  ASSERT_EQ(::kill(first->sidecar_pid, SIGKILL), 0);
  EXPECT_EQ(first->client.waitForExit(), 128 + SIGKILL);
  json refused = mcp.tool(2, "hashline_edit", replaceLine(old_anchor, "TWO"));
  EXPECT_TRUE(isError(refused)) << refused.dump();
  EXPECT_EQ(textOf(refused).rfind("SIDECAR_GONE: ", 0), 0u) << refused.dump();
  EXPECT_EQ(sandbox.read("a.txt"), kDisk);
  json disk_read = mcp.tool(3, "hashline_read", {{"path", "a.txt"}});
  EXPECT_FALSE(isError(disk_read)) << disk_read.dump();
  EXPECT_EQ(textOf(disk_read).rfind("warning: SIDECAR_GONE: ", 0), 0u) << disk_read.dump();

  // The editor starts a new sidecar; the same MCP process finds it on its next call.
  ScriptedEditor second(sandbox);
  json stale = mcp.tool(4, "hashline_edit", replaceLine(old_anchor, "TWO"));
  EXPECT_TRUE(isError(stale)) << stale.dump();
  EXPECT_EQ(textOf(stale).rfind("NOT_OBSERVED: ", 0), 0u) << stale.dump();
  const std::string fresh = rowAnchor(textOf(stale), 2);
  ASSERT_FALSE(fresh.empty()) << textOf(stale);
  EXPECT_NE(textOf(stale).find("two (unsaved)"), std::string::npos) << textOf(stale);

  mcp.send(5, "tools/call", {{"name", "hashline_edit"}, {"arguments", replaceLine(fresh, "TWO")}});
  EXPECT_EQ(second.applyNextEdit(), "one\nTWO\nthree\n");
  json applied = mcp.waitResponse(5);
  EXPECT_FALSE(isError(applied)) << applied.dump();
  EXPECT_NE(textOf(applied).find("(buffer)"), std::string::npos) << applied.dump();
  EXPECT_EQ(sandbox.read("a.txt"), kDisk) << "the edit went to the buffer, not the disk";
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

TEST(McpSidecarGone, DiskOptionWritesOnPurpose) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kDisk);
  writeDiscoveryRecord(sandbox, deadPid(), ::getpid());
  McpProcess plain({"--workspace", sandbox.workspace()}, sandbox.workspace());
  plain.initialize();
  ASSERT_FALSE(isError(plain.tool(1, "hashline_read", {{"path", "a.txt"}})));
  json refused =
      plain.tool(2, "hashline_replace", {{"path", "a.txt"}, {"old", "two"}, {"new", "TWO"}});
  EXPECT_TRUE(isError(refused)) << refused.dump();
  EXPECT_EQ(textOf(refused).rfind("SIDECAR_GONE: ", 0), 0u) << refused.dump();
  EXPECT_EQ(sandbox.read("a.txt"), kDisk);

  McpProcess disk({"--workspace", sandbox.workspace(), "--disk"}, sandbox.workspace());
  disk.initialize();
  ASSERT_FALSE(isError(disk.tool(1, "hashline_read", {{"path", "a.txt"}})));
  json written =
      disk.tool(2, "hashline_replace", {{"path", "a.txt"}, {"old", "two"}, {"new", "TWO"}});
  EXPECT_FALSE(isError(written)) << written.dump();
  EXPECT_EQ(textOf(written).rfind("warning: SIDECAR_GONE: ", 0), 0u) << written.dump();
  EXPECT_EQ(sandbox.read("a.txt"), "one\nTWO\nthree\n");
}

} // namespace
} // namespace hashline::test
