// Discovery files: written by a running `hashline lsp` with the right contents and modes,
// removed on exit (shutdown, SIGTERM), absent when disabled; stale ones ignored and swept;
// the deepest root wins; the runtime directory is read through its descriptor, never through a
// symlink.
#include "agent_test_util.h"
#include "lsp/agent/discovery.h"
#include "tests/lsp/support/lsp_client.h"

#include <fstream>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hashline::test {
namespace {

using nlohmann::json;

json readJSON(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in, nullptr, false);
}

TEST(Discovery, RunningSidecarPublishesRootsSocketAndModes) {
  AgentSandbox sandbox;
  LspClient client;
  client.initialize(json::object(), {{"rootUri", fileUri(sandbox.workspace())}});
  auto file = waitForDiscoveryFile(sandbox.runtime());
  ASSERT_TRUE(file) << client.log();
  json info = readJSON(*file);
  ASSERT_TRUE(info.is_object());
  EXPECT_EQ(info["roots"], json::array({sandbox.workspace()}));
  EXPECT_TRUE(info["pid"].is_number_integer());
  EXPECT_EQ(*file, sandbox.runtime() + "/sidecar-" + info["pid"].dump() + ".json");
  std::string socket = info["socket"];
  EXPECT_EQ(socket, sandbox.runtime() + "/sidecar-" + info["pid"].dump() + ".sock");
  EXPECT_FALSE(info["version"].get<std::string>().empty());
  EXPECT_FALSE(info["started"].get<std::string>().empty());
  EXPECT_EQ(modeOf(*file), 0600);
  EXPECT_EQ(modeOf(socket), 0600);
  EXPECT_EQ(modeOf(sandbox.runtime()), 0700);

  auto found = agent::findSidecarFor(sandbox.workspace() + "/src/a.c");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->socket, socket);
  EXPECT_FALSE(agent::findSidecarFor(sandbox.outside() + "/a.c"));

  EXPECT_EQ(client.shutdownAndExit(), 0);
  EXPECT_FALSE(exists(*file));
  EXPECT_FALSE(exists(socket));
}

TEST(Discovery, SigtermWithdrawsTheFiles) {
  AgentSandbox sandbox;
  LspClient client;
  client.initialize(json::object(), {{"rootUri", fileUri(sandbox.workspace())}});
  auto file = waitForDiscoveryFile(sandbox.runtime());
  ASSERT_TRUE(file);
  json info = readJSON(*file);
  std::string socket = info["socket"];
  ASSERT_EQ(::kill(static_cast<pid_t>(info["pid"].get<std::int64_t>()), SIGTERM), 0);
  auto code = client.waitForExit();
  ASSERT_TRUE(code);
  EXPECT_LT(*code, 128) << "killed by the signal instead of handling it";
  EXPECT_FALSE(exists(*file));
  EXPECT_FALSE(exists(socket));
}

TEST(Discovery, DisabledByInitializationOptionsOrEnvironment) {
  AgentSandbox sandbox;
  {
    LspClient client;
    client.initialize(json::object(), {{"rootUri", fileUri(sandbox.workspace())},
                                       {"initializationOptions", {{"agentSocket", false}}}});
    client.sync();
    EXPECT_FALSE(agent::findSidecarFor(sandbox.workspace()));
    EXPECT_EQ(client.shutdownAndExit(), 0);
  }
  ::setenv("HASHLINE_AGENT_SOCKET", "0", 1);
  {
    LspClient client;
    client.initialize(json::object(), {{"rootUri", fileUri(sandbox.workspace())}});
    client.sync();
    EXPECT_FALSE(agent::findSidecarFor(sandbox.workspace()));
    EXPECT_EQ(client.shutdownAndExit(), 0);
  }
  ::unsetenv("HASHLINE_AGENT_SOCKET");
}

TEST(Discovery, DeadSidecarIsIgnoredAndSwept) {
  AgentSandbox sandbox;
  agent::SidecarInfo stale;
  stale.pid = deadPid();
  stale.roots = {sandbox.workspace()};
  stale.socket = sandbox.runtime() + "/sidecar-" + std::to_string(stale.pid) + ".sock";
  sandbox.write(stale.socket, "");
  auto file = agent::publishSidecar(stale);
  ASSERT_TRUE(file);
  EXPECT_TRUE(exists(*file));
  EXPECT_FALSE(agent::findSidecarFor(sandbox.workspace() + "/a.txt"));
  EXPECT_FALSE(exists(*file)) << "the dead sidecar's file is swept";
  EXPECT_FALSE(exists(stale.socket));
}

TEST(Discovery, RecordOfADeadSidecarIsKeptAsGoneWhileItsEditorRuns) {
  AgentSandbox sandbox;
  const std::string file = writeDiscoveryRecord(sandbox, deadPid(), ::getpid());
  auto record = agent::findRecordFor(sandbox.workspace() + "/a.txt");
  ASSERT_TRUE(record);
  EXPECT_EQ(record->state, agent::SidecarRecord::State::Gone);
  EXPECT_EQ(record->info.editor_pid, ::getpid());
  EXPECT_FALSE(agent::findSidecarFor(sandbox.workspace() + "/a.txt")) << "not a live one";
  EXPECT_TRUE(exists(file));
}

TEST(Discovery, GoneRecordIsSweptWhenItsEditorExits) {
  AgentSandbox sandbox;
  const std::string file = writeDiscoveryRecord(sandbox, deadPid(), deadPid());
  EXPECT_FALSE(agent::findRecordFor(sandbox.workspace() + "/a.txt"));
  EXPECT_FALSE(exists(file));
}

TEST(Discovery, GoneRecordIsReplacedByALiveSidecarOfTheSameEditor) {
  AgentSandbox sandbox;
  const std::string gone = writeDiscoveryRecord(sandbox, deadPid(), ::getpid());
  LspClient client; // its sidecar's parent, the editor, is this process too
  client.initialize(json::object(), {{"rootUri", fileUri(sandbox.workspace())}});
  auto files = waitForDiscoveryFiles(sandbox.runtime(), 2);
  ASSERT_EQ(files.size(), 2u);
  auto record = agent::findRecordFor(sandbox.workspace() + "/a.txt");
  ASSERT_TRUE(record);
  EXPECT_TRUE(record->live());
  EXPECT_EQ(record->info.editor_pid, ::getpid());
  EXPECT_FALSE(exists(gone)) << "the replaced record is swept";
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Discovery, GoneRecordWinsATieWithAnotherEditorsLiveSidecar) {
  AgentSandbox sandbox;
  writeDiscoveryRecord(sandbox, ::getppid(), ::getppid(), "/live.sock"); // another editor's
  writeDiscoveryRecord(sandbox, deadPid(), ::getpid());
  auto record = agent::findRecordFor(sandbox.workspace() + "/a.txt");
  ASSERT_TRUE(record);
  EXPECT_FALSE(record->live()) << "its editor may hold the file open";
}

TEST(Discovery, AReusedPidIsNotTheSidecar) {
  AgentSandbox sandbox;
  agent::SidecarInfo info;
  info.pid = ::getpid(); // alive, but it started at another time than recorded
  info.pid_start = agent::processStartTime(::getpid()).value_or(0) + 1;
  info.roots = {sandbox.workspace()};
  info.socket = "/reused.sock";
  auto file = agent::publishSidecar(info);
  ASSERT_TRUE(file);
  EXPECT_TRUE(agent::liveSidecars().empty());
  EXPECT_FALSE(exists(*file)) << "dead, naming no editor: swept";
  EXPECT_TRUE(agent::processAlive(::getpid(), agent::processStartTime(::getpid())));
}

TEST(Discovery, DeepestRootWins) {
  AgentSandbox sandbox;
  sandbox.write("app/src/main.c", "int main;\n");
  agent::SidecarInfo outer, inner;
  outer.pid = ::getpid(); // alive: this test process
  outer.roots = {sandbox.workspace()};
  outer.socket = "/outer.sock";
  inner.pid = ::getppid(); // alive too, a different pid so a different file
  inner.roots = {sandbox.outside(), sandbox.workspace() + "/app"};
  inner.socket = "/inner.sock";
  auto outer_file = agent::publishSidecar(outer);
  auto inner_file = agent::publishSidecar(inner);
  ASSERT_TRUE(outer_file && inner_file);

  auto deep = agent::findSidecarFor(sandbox.workspace() + "/app/src/main.c");
  ASSERT_TRUE(deep);
  EXPECT_EQ(deep->socket, "/inner.sock");
  auto shallow = agent::findSidecarFor(sandbox.workspace() + "/other.c");
  ASSERT_TRUE(shallow);
  EXPECT_EQ(shallow->socket, "/outer.sock");
  // A sibling whose name extends the root's is not below it.
  EXPECT_FALSE(agent::findSidecarFor(sandbox.workspace() + "x/a.c"));
  agent::withdrawSidecar(*outer_file);
  agent::withdrawSidecar(*inner_file);
  EXPECT_FALSE(agent::findSidecarFor(sandbox.workspace() + "/app/src/main.c"));
}

TEST(Discovery, MalformedDiscoveryFileIsIgnored) {
  AgentSandbox sandbox;
  sandbox.write(sandbox.runtime() + "/sidecar-1234.json", "{not json");
  EXPECT_TRUE(agent::liveSidecars().empty());
  EXPECT_TRUE(exists(sandbox.runtime() + "/sidecar-1234.json")) << "not ours to delete";
}

TEST(Discovery, SymlinkedDiscoveryFileIsNotFollowed) {
  AgentSandbox sandbox;
  const std::string real = sandbox.write(
      sandbox.outside() + "/planted.json",
      json{{"pid", ::getpid()}, {"roots", {sandbox.workspace()}}, {"socket", "/planted.sock"}}
          .dump());
  const std::string link = sandbox.runtime() + "/sidecar-4321.json";
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  EXPECT_TRUE(agent::liveSidecars().empty());
  EXPECT_FALSE(agent::findSidecarFor(sandbox.workspace() + "/a.txt"));
  EXPECT_TRUE(exists(real));
}

TEST(Discovery, SweepKeepsASocketOutsideTheRuntimeDirectory) {
  AgentSandbox sandbox;
  agent::SidecarInfo stale;
  stale.pid = deadPid();
  stale.roots = {sandbox.workspace()};
  stale.socket = sandbox.write(sandbox.outside() + "/not-ours.sock", "");
  auto file = agent::publishSidecar(stale);
  ASSERT_TRUE(file);
  EXPECT_TRUE(agent::liveSidecars().empty());
  EXPECT_FALSE(exists(*file));
  EXPECT_TRUE(exists(stale.socket));
}

} // namespace
} // namespace hashline::test
