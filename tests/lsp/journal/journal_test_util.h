// Small helpers of the journal tests: temp directories, env overrides, raw file I/O that
// bypasses the code under test, the real `hashline` binary run as a process, and a fixture of a
// workspace with private state and runtime directories for tests that run it.
#pragma once

#include "lsp/service/hashline_service.h"
#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/temp_dir.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace hashline::journal_test {

/// A fresh temp directory (`hashline-journal-XXXXXX`), removed at the end.
class TempDir : public test::TempDir {
public:
  TempDir() : test::TempDir("hashline-journal") {}
};

class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }

private:
  std::string name_;
  std::optional<std::string> old_;
};

inline void writeRaw(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path);
}

/// "line 1\n" … "line COUNT\n".
inline std::string numbered(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i)
    text += "line " + std::to_string(i) + "\n";
  return text;
}

/// `text` with the first `from` replaced by `to` (`from` must be there).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

inline std::string readRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// A call of a disk-only service, which answers synchronously; an RPC error comes back as
/// {"rpcError": message}.
inline nlohmann::json callDisk(lsp::HashlineService& service, const std::string& method,
                               nlohmann::json params) {
  nlohmann::json result;
  bool answered = false;
  service.call(method, std::move(params), [&](lsp::ServiceOutcome outcome) {
    answered = true;
    if (auto* value = std::get_if<nlohmann::json>(&outcome))
      result = *value;
    else
      result = {{"rpcError", std::get<lsp::RpcError>(outcome).message}};
  });
  EXPECT_TRUE(answered) << method << " did not answer synchronously";
  return result;
}

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs the real `hashline args...` in `cwd` (stdin from `input`), capturing stdout and stderr
/// through files in `scratch`.
inline CliRun runHashline(const std::string& cwd, const std::string& scratch,
                          std::vector<std::string> args, const std::string& input = "") {
  std::string out_path = scratch + "/out", err_path = scratch + "/err", in_path = scratch + "/in";
  writeRaw(in_path, input);
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) ::_exit(127);
    std::freopen(in_path.c_str(), "r", stdin);
    std::freopen(out_path.c_str(), "w", stdout);
    std::freopen(err_path.c_str(), "w", stderr);
    std::vector<char*> argv;
    std::string binary = hashline::test::hashlineBinary();
    argv.push_back(binary.data());
    for (std::string& arg : args)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = readRaw(out_path);
  run.err = readRaw(err_path);
  return run;
}

/// A workspace and a private directory for the journal and the sockets (HASHLINE_STATE_DIR,
/// HASHLINE_RUNTIME_DIR, HASHLINE_WORKSPACE), and the real `hashline` run in the workspace.
class CliWorkspaceTest : public ::testing::Test {
protected:
  /// Runs `hashline args...` in the workspace, capturing stdout and stderr.
  CliRun hashline(std::vector<std::string> args, const std::string& input = "") {
    return runHashline(workspace_.path(), work_.path(), std::move(args), input);
  }

  TempDir work_;
  TempDir workspace_;
  ScopedEnv state_{"HASHLINE_STATE_DIR", work_.path()};
  ScopedEnv runtime_{"HASHLINE_RUNTIME_DIR", work_.path()};
  ScopedEnv workspace_env_{"HASHLINE_WORKSPACE", workspace_.path()};
};

} // namespace hashline::journal_test
