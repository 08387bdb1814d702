// Versions are exact in IEEE doubles (issue 14, defect 2): every version the real binary reports
// for a file on disk — over MCP in disk mode, over LSP commands with a sidecar — is at most
// 2^53 − 1, so a JavaScript client (which holds JSON numbers as doubles) sends back the same
// number, and a `range` edit at that version applies. Old journal records with 62-bit disk ids
// read as today's ids of the same content.
#include "agent_test_util.h"
#include "lsp/disk/fingerprint.h"
#include "lsp/protocol/exact_version.h"
#include "lsp/service/disk_backend.h"
#include "tests/lsp/support/lsp_client.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace hashline::test {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxExact = (std::int64_t{1} << 53) - 1;

/// What a JavaScript client sends back for a JSON number it received.
std::int64_t throughADouble(std::int64_t version) {
  return static_cast<std::int64_t>(static_cast<double>(version));
}

std::map<int, json> answersOf(const CliRun& run) {
  std::map<int, json> answers;
  std::istringstream lines(run.out);
  for (std::string text; std::getline(lines, text);) {
    json message = json::parse(text, nullptr, false);
    if (!message.is_discarded() && message["id"].is_number_integer())
      answers[message["id"].get<int>()] = message;
  }
  return answers;
}

std::string initialize() {
  return mcpInitializeLine(0, "t");
}

TEST(ExactVersions, DiskVersionsOverMcpFitInADoubleAndRangeEditsAtThemApply) {
  AgentSandbox sandbox;
  // Many contents: with 62-bit ids, only 1 in 512 would fit in 53 bits.
  constexpr int kFiles = 64;
  std::string reads = initialize();
  for (int i = 0; i < kFiles; ++i) {
    sandbox.write("f" + std::to_string(i) + ".txt", "file " + std::to_string(i) + "\nsecond\n");
    reads += mcpRequestLine(
        i + 1, "tools/call",
        {{"name", "hashline_read"}, {"arguments", {{"path", "f" + std::to_string(i) + ".txt"}}}});
  }
  CliRun run = runHashline({"mcp", "--workspace", sandbox.workspace(), "--structured"},
                           sandbox.workspace(), reads);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<int, json> answers = answersOf(run);
  std::map<int, std::int64_t> versions;
  for (int i = 0; i < kFiles; ++i) {
    const json& result = answers[i + 1]["result"];
    ASSERT_TRUE(result["structuredContent"]["version"].is_number_integer()) << result;
    std::int64_t version = result["structuredContent"]["version"];
    EXPECT_GT(version, 0);
    EXPECT_LE(version, kMaxExact) << "f" << i << ".txt";
    EXPECT_EQ(throughADouble(version), version);
    versions[i] = version;
  }

  // A range edit at the version as a JavaScript client would send it back applies.
  std::string edits = initialize();
  for (int i = 0; i < 4; ++i)
    edits += mcpRequestLine(2 * i + 1, "tools/call",
                            {{"name", "hashline_read"},
                             {"arguments", {{"path", "f" + std::to_string(i) + ".txt"}}}}) +
             mcpRequestLine(2 * i + 2, "tools/call",
                            {{"name", "hashline_range"},
                             {"arguments",
                              {{"path", "f" + std::to_string(i) + ".txt"},
                               {"start", 2},
                               {"end", 2},
                               {"content", "edited"},
                               {"version", throughADouble(versions[i])}}}});
  CliRun edit = runHashline({"mcp", "--workspace", sandbox.workspace(), "--structured"},
                            sandbox.workspace(), edits);
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  answers = answersOf(edit);
  for (int i = 0; i < 4; ++i) {
    const json& result = answers[2 * i + 2]["result"];
    EXPECT_NE(result["isError"], true) << result;
    EXPECT_EQ(result["structuredContent"]["status"], "applied") << result;
    EXPECT_LE(result["structuredContent"]["version"].get<std::int64_t>(), kMaxExact) << result;
    EXPECT_EQ(sandbox.read("f" + std::to_string(i) + ".txt"),
              "file " + std::to_string(i) + "\nedited\n");
  }
}

TEST(ExactVersions, DiskFilesReadThroughTheSidecarFitInADouble) {
  AgentSandbox sandbox;
  LspClient editor;
  editor.initialize({{"workspace", {{"applyEdit", true}}}},
                    {{"rootUri", fileUri(sandbox.workspace())}});
  for (int i = 0; i < 32; ++i) {
    std::string path =
        sandbox.write("g" + std::to_string(i) + ".txt", "g " + std::to_string(i) + "\n");
    json read = editor.callResult(
        "workspace/executeCommand",
        {{"command", "hashline.read"}, {"arguments", json::array({{{"path", path}}})}});
    ASSERT_TRUE(read["version"].is_number_integer()) << read;
    EXPECT_LE(read["version"].get<std::int64_t>(), kMaxExact) << path;
    EXPECT_GT(read["version"].get<std::int64_t>(), 0) << path;
  }
  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

TEST(ExactVersions, OldJournalIdsReadAsTodaysIdsOfTheSameContent) {
  for (const char* content : {"", "a\n", "one\ntwo\n", "x y z\n\n\n"}) {
    disk::Fingerprint fingerprint;
    fingerprint.size_bytes = std::string_view(content).size();
    fingerprint.content_hash = disk::hashContent(content);
    // The 62-bit id hashline gave the content before issue 14.
    std::uint64_t old_id = (fingerprint.content_hash.low ^ (fingerprint.content_hash.high << 1)) &
                           0x3fffffffffffffffull;
    std::int64_t today = lsp::DiskBackend::versionOf(fingerprint);
    EXPECT_LE(today, kMaxExact);
    EXPECT_EQ(lsp::exactVersionFromRecorded(std::int64_t(old_id == 0 ? 1 : old_id)), today)
        << content;
  }
  EXPECT_EQ(lsp::exactVersionFromRecorded(7), 7); // editor versions are left alone
}

} // namespace
} // namespace hashline::test
