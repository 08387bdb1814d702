// The CLI with a running sidecar: a test client plays the editor (LspClient over pipes), opens a
// document whose buffer differs from the disk (unsaved text), and the CLI — a separate process
// finding the sidecar through the discovery file — reads the buffer and edits it: the edit
// arrives as workspace/applyEdit, lands in the buffer, and the disk is untouched.
#include "agent_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <fstream>
#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using nlohmann::json;

TEST(CliSidecar, EditLandsInTheBufferNotOnDisk) {
  AgentSandbox sandbox;
  const std::string disk_text = "alpha\nbeta\ngamma\n";
  const std::string buffer_text = "alpha\nbeta (unsaved)\ngamma\n";
  std::string path = sandbox.write("notes.txt", disk_text);
  std::string uri = fileUri(path);

  LspClient editor;
  editor.initialize({{"workspace", {{"applyEdit", true}}}},
                    {{"rootUri", fileUri(sandbox.workspace())}});
  ASSERT_TRUE(waitForDiscoveryFile(sandbox.runtime()));
  editor.didOpen(uri, buffer_text, 1);
  editor.sync();

  CliRun status = runHashline({"status", "--json"}, sandbox.workspace());
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_EQ(status.json()["mode"], "editor");

  // The CLI reads the buffer, not the disk.
  CliRun read = runHashline({"read", "notes.txt", "--json"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  json view = read.json();
  ASSERT_EQ(view["lines"].size(), 3u) << view;
  EXPECT_EQ(view["lines"][1]["text"], "beta (unsaved)");
  std::string anchor = view["lines"][1]["anchor"];

  json edits = json::array({{{"op", "replace"}, {"anchor", anchor}, {"content", "BETA"}}});
  BackgroundCli edit({"edit", "notes.txt", "--edits", edits.dump()}, sandbox.workspace());
  json request = editor.waitServerRequest("workspace/applyEdit");
  ASSERT_FALSE(request.is_null()) << editor.log();
  std::int64_t version = 0;
  std::string next = applyDocumentEdit(buffer_text, request["params"]["edit"], uri, version);
  EXPECT_EQ(version, 1);
  EXPECT_EQ(next, "alpha\nBETA\ngamma\n");
  editor.didChange(uri, 2, {LspClient::fullChange(next)});
  editor.respond(request["id"], {{"applied", true}});
  CliRun done = edit.wait();
  EXPECT_EQ(done.exit_code, 0) << done.err << editor.log();
  EXPECT_NE(done.out.find("(buffer)"), std::string::npos) << done.out;

  EXPECT_EQ(editor.snapshot(uri)["sha256"], sha256Hex("alpha\nBETA\ngamma\n"));
  EXPECT_EQ(sandbox.read("notes.txt"), disk_text) << "the disk must stay untouched";

  // A stale anchor through the sidecar: refused by the buffer's version history.
  CliRun stale = runHashline({"edit", "notes.txt", "--edits", edits.dump()}, sandbox.workspace());
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_EQ(stale.err.rfind("STALE_ANCHOR", 0), 0u) << stale.err;

  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

TEST(CliSidecar, UnreachableSidecarIsAnErrorNotADiskWrite) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "one\n");
  // A live pid (this test) claims the workspace, but its socket does not exist.
  std::ofstream(sandbox.runtime() + "/sidecar-" + std::to_string(::getpid()) + ".json") << json{
      {"pid", ::getpid()},
      {"roots", {sandbox.workspace()}},
      {"socket", sandbox.runtime() + "/missing.sock"},
      {"version", "test"},
      {"started", "now"}}.dump();
  json write = json::array({{{"op", "write"}, {"content", "two\n"}}});
  CliRun edit = runHashline({"edit", "a.txt", "--edits", write.dump()}, sandbox.workspace());
  EXPECT_EQ(edit.exit_code, 1);
  EXPECT_EQ(edit.err.rfind("SIDECAR_GONE", 0), 0u) << edit.err;
  EXPECT_NE(edit.err.find("hint:"), std::string::npos);
  EXPECT_EQ(sandbox.read("a.txt"), "one\n");
}

} // namespace
} // namespace hashline::test
