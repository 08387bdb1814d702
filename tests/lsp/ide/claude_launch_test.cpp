// `hashline claude` (lsp/cli/claude_command.h) against a real `hashline lsp --claude-ide`: it
// finds the sidecar's lock file for the current directory and starts `claude` with the IDE port
// preset (here a stand-in `claude` on PATH that prints what it was given), or prints the exports;
// without a sidecar for the directory, or without claude on PATH, a clear error. `hashline
// doctor` names the lock file.
#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/lsp_client.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hashline::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct ShellRun {
  int exit_code = -1;
  std::string out; // stdout and stderr
};

/// Runs a shell command line; stdout and stderr together.
ShellRun shell(const std::string& command) {
  ShellRun run;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    run.out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

class ClaudeLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("hashline-claude-launch-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "config");
    fs::create_directories(root_ / "ws" / "src");
    fs::create_directories(root_ / "elsewhere");
    fs::create_directories(root_ / "bin");
    // The stand-in for Claude Code: prints its arguments and the two variables.
    std::ofstream(root_ / "bin" / "claude")
        << "#!/bin/sh\necho \"args: $*\"\necho \"port: $CLAUDE_CODE_SSE_PORT\"\n"
           "echo \"ide: $ENABLE_IDE_INTEGRATION\"\n";
    fs::permissions(root_ / "bin" / "claude", fs::perms::owner_all);
    ::setenv("CLAUDE_CONFIG_DIR", (root_ / "config").c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("CLAUDE_CONFIG_DIR");
    fs::remove_all(root_);
  }
  std::unique_ptr<LspClient> startSidecar() {
    LspClientOptions options;
    options.args = {"lsp", "--claude-ide", "--log-level", "debug"};
    auto client = std::make_unique<LspClient>(options);
    client->initialize(json::object(),
                       {{"rootUri", "file://" + (root_ / "ws").string()}, {"processId", nullptr}});
    return client;
  }
  int port() const {
    for (const auto& entry : fs::directory_iterator(root_ / "config" / "ide"))
      if (entry.path().extension() == ".lock") return std::stoi(entry.path().stem().string());
    return -1;
  }
  /// `hashline ARGS` in `dir` (relative to the test's root), with the stand-in claude on PATH
  /// unless `with_claude` is false.
  ShellRun hashline(const std::string& dir, const std::string& args, bool with_claude = true) {
    const std::string path =
        with_claude ? (root_ / "bin").string() + ":/usr/bin:/bin" : "/usr/bin:/bin";
    return shell("cd '" + (root_ / dir).string() + "' && PATH='" + path + "' '" + hashlineBinary() +
                 "' " + args);
  }
  fs::path root_;
};

TEST_F(ClaudeLaunch, StartsClaudeWithThePortOfThisWorkspacesSidecar) {
  auto sidecar = startSidecar();
  ASSERT_GT(port(), 0);
  const std::string port_text = std::to_string(port());
  ShellRun launched = hashline("ws/src", "claude -- --resume abc");
  EXPECT_EQ(launched.exit_code, 0) << launched.out;
  EXPECT_NE(launched.out.find("args: --resume abc\n"), std::string::npos) << launched.out;
  EXPECT_NE(launched.out.find("port: " + port_text + "\n"), std::string::npos) << launched.out;
  EXPECT_NE(launched.out.find("ide: true\n"), std::string::npos) << launched.out;
  // Arguments without -- go to claude too.
  EXPECT_NE(hashline("ws", "claude -p hi").out.find("args: -p hi\n"), std::string::npos);

  ShellRun exports = hashline("ws", "claude --print-env");
  EXPECT_EQ(exports.exit_code, 0);
  EXPECT_EQ(exports.out,
            "export CLAUDE_CODE_SSE_PORT=" + port_text + "\nexport ENABLE_IDE_INTEGRATION=true\n");

  ShellRun doctor = hashline("ws", "doctor");
  EXPECT_NE(doctor.out.find("Claude IDE server of hashline on 127.0.0.1:" + port_text),
            std::string::npos)
      << doctor.out;
  // doctor asks the sidecar itself (its status over the agent socket) ...
  EXPECT_NE(doctor.out.find("ok    sidecar pid "), std::string::npos) << doctor.out;
  EXPECT_EQ(doctor.out.find("does not answer"), std::string::npos) << doctor.out;
  // ... and its status says whether a Claude Code is connected.
  EXPECT_NE(doctor.out.find("; no Claude Code connected: start it with `hashline claude`"),
            std::string::npos)
      << doctor.out;
  EXPECT_EQ(sidecar->shutdownAndExit(), 0);
}

TEST_F(ClaudeLaunch, NoSidecarForTheDirectoryOrNoClaudeIsAClearError) {
  ShellRun none = hashline("ws", "claude");
  EXPECT_EQ(none.exit_code, 1) << none.out;
  EXPECT_NE(none.out.find("no hashline sidecar serves Claude Code's IDE protocol"),
            std::string::npos)
      << none.out;
  EXPECT_NE(none.out.find("hint: "), std::string::npos);
  EXPECT_EQ(none.out.find("args:"), std::string::npos) << "claude ran without a port";

  auto sidecar = startSidecar();
  ShellRun elsewhere = hashline("elsewhere", "claude --print-env");
  EXPECT_EQ(elsewhere.exit_code, 1) << elsewhere.out; // another directory's sidecar is not ours
  ShellRun missing = hashline("ws", "claude", /*with_claude=*/false);
  EXPECT_EQ(missing.exit_code, 127) << missing.out;
  EXPECT_NE(missing.out.find("npm install -g @anthropic-ai/claude-code"), std::string::npos);
  // Another IDE's lock file (not hashline's) is never used.
  std::ofstream(root_ / "config" / "ide" / "1234.lock")
      << R"({"pid":1,"workspaceFolders":[")" << (root_ / "elsewhere").string()
      << R"("],"ideName":"Visual Studio Code","transport":"ws","authToken":"x"})";
  EXPECT_EQ(hashline("elsewhere", "claude --print-env").exit_code, 1);
  EXPECT_EQ(sidecar->shutdownAndExit(), 0);
  // After the sidecar exits its lock file is gone: nothing to connect to.
  EXPECT_EQ(hashline("ws", "claude --print-env").exit_code, 1);
}

} // namespace
} // namespace hashline::test
