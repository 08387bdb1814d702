// Routing of a multi-file `hashline patch` (issue 14, defect 3): each file goes where its own
// document lives. Test clients play the editors (real `hashline lsp` sidecars found through
// their discovery files); the CLI is a separate process. A patch touching a closed file A, then
// a file B open with unsaved text, lands A on disk and B in B's buffer (workspace/applyEdit),
// with B's disk file untouched. A patch whose files lie in an editor's workspace and outside it,
// or in two editors' workspaces, is refused before anything is written (it used to be routed by
// its first file and write the other editor's file on disk, behind its buffer).
#include "agent_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using nlohmann::json;

LspClient::json rootParams(const std::string& root) {
  return {{"rootUri", fileUri(root)}};
}
LspClient::json applyEditCapability() {
  return {{"workspace", {{"applyEdit", true}}}};
}

// `hashline patch FILE` for `body`, the patch written beside (not inside) the workspace.
std::vector<std::string> patchArgs(const AgentSandbox& sandbox, const std::string& body) {
  std::string file = sandbox.root() + "/change.patch";
  std::ofstream(file) << "*** Begin Patch\n" << body << "*** End Patch\n";
  return {"--session", "agent", "patch", file};
}

CliRun readAs(const AgentSandbox& sandbox, const std::string& path) {
  return runHashline({"--session", "agent", "read", path}, sandbox.workspace());
}

TEST(CliPatchRouting, EachFileGoesWhereItsDocumentLives) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "a1\na2\n");
  const std::string b_disk = "b1\nb2\n";
  const std::string b_buffer = "b1\nb2 (unsaved)\n";
  std::string b_uri = fileUri(sandbox.write("b.txt", b_disk));

  LspClient editor;
  editor.initialize(applyEditCapability(), rootParams(sandbox.workspace()));
  ASSERT_TRUE(waitForDiscoveryFile(sandbox.runtime()));
  editor.didOpen(b_uri, b_buffer, 1);
  editor.sync();
  ASSERT_EQ(readAs(sandbox, "a.txt").exit_code, 0);
  CliRun read_b = readAs(sandbox, "b.txt");
  ASSERT_EQ(read_b.exit_code, 0) << read_b.err;
  EXPECT_NE(read_b.out.find("b2 (unsaved)"), std::string::npos) << read_b.out;

  BackgroundCli patch(patchArgs(sandbox, "*** Update File: a.txt\n@@\n-a2\n+A2\n"
                                         "*** Update File: b.txt\n@@\n-b2 (unsaved)\n+B2\n"),
                      sandbox.workspace());
  json request = editor.waitServerRequest("workspace/applyEdit");
  ASSERT_FALSE(request.is_null()) << editor.log();
  std::int64_t version = 0;
  std::string next = applyDocumentEdit(b_buffer, request["params"]["edit"], b_uri, version);
  EXPECT_EQ(version, 1);
  EXPECT_EQ(next, "b1\nB2\n");
  editor.didChange(b_uri, 2, {LspClient::fullChange(next)});
  editor.respond(request["id"], {{"applied", true}});
  CliRun done = patch.wait();
  EXPECT_EQ(done.exit_code, 0) << done.err << editor.log();

  EXPECT_EQ(sandbox.read("a.txt"), "a1\nA2\n") << "a.txt is not open: written on disk";
  EXPECT_EQ(editor.snapshot(b_uri)["sha256"], sha256Hex("b1\nB2\n"));
  EXPECT_EQ(sandbox.read("b.txt"), b_disk) << "b.txt is open: its disk file stays untouched";
  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

// Routing reads the patch with the engine's parser: a header codex accepts padded with
// whitespace names the open file too (it used to be missed, and the file written on disk).
TEST(CliPatchRouting, APaddedHunkHeaderStillRoutesToTheBuffer) {
  AgentSandbox sandbox;
  const std::string disk = "old\n";
  const std::string buffer = "unsaved\nold\n";
  std::string uri = fileUri(sandbox.write("foo.txt", disk));

  LspClient editor;
  editor.initialize(applyEditCapability(), rootParams(sandbox.workspace()));
  ASSERT_TRUE(waitForDiscoveryFile(sandbox.runtime()));
  editor.didOpen(uri, buffer, 1);
  editor.sync();
  CliRun read = readAs(sandbox, "foo.txt");
  ASSERT_EQ(read.exit_code, 0) << read.err;

  BackgroundCli patch(patchArgs(sandbox, "  *** Update File: foo.txt\n@@\n-old\n+new\n"),
                      sandbox.workspace());
  json request = editor.waitServerRequest("workspace/applyEdit");
  ASSERT_FALSE(request.is_null()) << editor.log();
  std::int64_t version = 0;
  std::string next = applyDocumentEdit(buffer, request["params"]["edit"], uri, version);
  EXPECT_EQ(next, "unsaved\nnew\n");
  editor.didChange(uri, 2, {LspClient::fullChange(next)});
  editor.respond(request["id"], {{"applied", true}});
  CliRun done = patch.wait();
  EXPECT_EQ(done.exit_code, 0) << done.err << editor.log();
  EXPECT_EQ(sandbox.read("foo.txt"), disk) << "foo.txt is open: its disk file stays untouched";
  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

TEST(CliPatchRouting, APatchSpanningAnEditorsWorkspaceAndOutsideIsRefused) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "a1\na2\n");
  std::filesystem::create_directories(sandbox.workspace() + "/sub");
  const std::string new_path = sandbox.workspace() + "/sub/new.txt";

  // The editor's workspace is ws/sub; it holds sub/new.txt open, not yet on disk.
  LspClient editor;
  editor.initialize(applyEditCapability(), rootParams(sandbox.workspace() + "/sub"));
  ASSERT_TRUE(waitForDiscoveryFile(sandbox.runtime()));
  editor.didOpen(fileUri(new_path), "typed, unsaved\n", 1);
  editor.sync();
  ASSERT_EQ(readAs(sandbox, "a.txt").exit_code, 0); // on disk: no editor holds ws/a.txt

  CliRun patch = runHashline(
      patchArgs(sandbox, "*** Update File: a.txt\n@@\n-a2\n+A2\n*** Add File: sub/new.txt\n+x\n"),
      sandbox.workspace());
  EXPECT_EQ(patch.exit_code, 1);
  EXPECT_EQ(patch.err.rfind("OUTSIDE_WORKSPACE", 0), 0u) << patch.err;
  EXPECT_NE(patch.err.find("hint: split the patch"), std::string::npos) << patch.err;
  EXPECT_EQ(sandbox.read("a.txt"), "a1\na2\n");
  EXPECT_FALSE(exists(new_path)) << "written on disk behind the editor's buffer";
  EXPECT_EQ(editor.snapshot(fileUri(new_path))["sha256"], sha256Hex("typed, unsaved\n"));
  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

TEST(CliPatchRouting, APatchSpanningTwoEditorsIsRefused) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", "a1\na2\n");
  std::filesystem::create_directories(sandbox.workspace() + "/sub");
  const std::string new_path = sandbox.workspace() + "/sub/new.txt";

  // Two editors: one on ws, one on ws/sub (the deeper root serves sub/).
  LspClient outer;
  outer.initialize(applyEditCapability(), rootParams(sandbox.workspace()));
  LspClient inner;
  inner.initialize(applyEditCapability(), rootParams(sandbox.workspace() + "/sub"));
  ASSERT_EQ(waitForDiscoveryFiles(sandbox.runtime(), 2).size(), 2u);
  inner.didOpen(fileUri(new_path), "typed, unsaved\n", 1);
  inner.sync();
  ASSERT_EQ(readAs(sandbox, "a.txt").exit_code, 0); // through the outer editor

  CliRun patch = runHashline(
      patchArgs(sandbox, "*** Update File: a.txt\n@@\n-a2\n+A2\n*** Add File: sub/new.txt\n+x\n"),
      sandbox.workspace());
  EXPECT_EQ(patch.exit_code, 1);
  EXPECT_EQ(patch.err.rfind("OUTSIDE_WORKSPACE", 0), 0u) << patch.err;
  EXPECT_NE(patch.err.find("hint: split the patch"), std::string::npos) << patch.err;
  EXPECT_EQ(sandbox.read("a.txt"), "a1\na2\n");
  EXPECT_FALSE(exists(new_path)) << "written on disk behind the inner editor's buffer";
  EXPECT_EQ(outer.shutdownAndExit(), 0);
  EXPECT_EQ(inner.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
