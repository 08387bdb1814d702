// Helpers for the agent tests: a private temp workspace with its own state and runtime
// directories (HASHLINE_STATE_DIR / HASHLINE_RUNTIME_DIR set in this process, so the `hashline`
// processes the tests spawn inherit them), running the real CLI with pipes, talking raw bytes to
// an agent socket, and the lines of an MCP stdio session.
//
// Threading: test thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace hashline::test {

/// A fresh directory tree: `root/ws` (the workspace), `root/state`, `root/run` (runtime dir,
/// 0700), `root/outside`. Sets the environment variables; removes everything on destruction.
class AgentSandbox {
public:
  AgentSandbox();
  ~AgentSandbox();
  const std::string& root() const { return root_; }
  std::string workspace() const { return root_ + "/ws"; }
  std::string runtime() const { return root_ + "/run"; }
  std::string state() const { return root_ + "/state"; }
  std::string outside() const { return root_ + "/outside"; }
  /// Writes `bytes` to `path` (relative to the workspace unless absolute); makes parents.
  std::string write(const std::string& path, const std::string& bytes) const;
  std::string read(const std::string& path) const;

private:
  std::string root_;
};

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
  nlohmann::json json() const; // stdout parsed (null when not JSON)
};

/// Runs `hashline ARGS...` in `cwd` with `input` on stdin; waits for it.
CliRun runHashline(const std::vector<std::string>& args, const std::string& cwd,
                   const std::string& input = "");

/// A CLI run started in the background (for edits that wait for an editor's answer).
class BackgroundCli {
public:
  BackgroundCli(const std::vector<std::string>& args, const std::string& cwd);
  ~BackgroundCli();
  CliRun wait();

private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
};

/// `hashline mcp ARGS...` kept running over pipes: requests are written one line at a time and
/// answers read by id, so a test can act (kill a sidecar, start another) between two calls.
class McpProcess {
public:
  McpProcess(const std::vector<std::string>& args, const std::string& cwd);
  /// Closes stdin and waits for the exit (SIGKILL after 30 s).
  ~McpProcess();
  void send(int id, const std::string& method, const nlohmann::json& params);
  /// The response with `id`; null on EOF or after 30 s.
  nlohmann::json waitResponse(int id);
  nlohmann::json call(int id, const std::string& method, const nlohmann::json& params);
  /// initialize + notifications/initialized (id 0).
  void initialize();
  /// A tools/call; the whole response.
  nlohmann::json tool(int id, const std::string& name, const nlohmann::json& arguments);

private:
  pid_t pid_ = -1;
  int in_fd_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string buffered_;
};

/// One line of an MCP stdio session (`hashline mcp`'s stdin): request `method` with `id`.
std::string mcpRequestLine(std::int64_t id, const std::string& method,
                           const nlohmann::json& params = nlohmann::json::object());
/// MCP's initialize request as a line: id `id`, protocol `version`, clientInfo named `client`
/// (the agent's name when `hashline mcp` is given no --agent).
std::string mcpInitializeLine(std::int64_t id, const std::string& client,
                              const std::string& version = "2025-06-18");
/// The notifications/initialized line that follows initialize's answer.
std::string mcpInitializedLine();

/// Connects to a Unix socket; -1 on failure.
int connectUnix(const std::string& path);
/// Writes all of `bytes`; false on error.
bool writeAll(int fd, const std::string& bytes);
/// Reads one framed message (Content-Length); nullopt on EOF/error/timeout (30 s).
std::optional<std::string> readFrame(int fd);
/// One framed JSON-RPC request → its response (whole message), over a new connection.
nlohmann::json socketCall(const std::string& socket_path, const std::string& method,
                          const nlohmann::json& params);

/// The single discovery file in `runtime_dir` (sidecar-*.json), waiting for it (30 s).
std::optional<std::string> waitForDiscoveryFile(const std::string& runtime_dir);
/// At least `count` discovery files in `runtime_dir`, waiting for them (30 s); what was found.
std::vector<std::string> waitForDiscoveryFiles(const std::string& runtime_dir, std::size_t count);

/// Applies the TextDocumentEdit for `uri` in an applyEdit request's WorkspaceEdit to `text`
/// (ranges in utf-16 = bytes for the ASCII texts used here), bottom-up; `version` gets the
/// edit's document version. A test failure when the edit has no change for `uri`.
std::string applyDocumentEdit(std::string text, const nlohmann::json& edit, const std::string& uri,
                              std::int64_t& version);
/// A pid that is certainly dead: a child that exited and was reaped.
std::int64_t deadPid();
/// Writes a discovery record `sidecar-<pid>.json` into the sandbox's runtime directory as a
/// sidecar would: serving the workspace, started by `editor_pid` (0: not named), its socket at
/// `socket` (default `<runtime>/sidecar-<pid>.sock`). Returns the file's path.
std::string writeDiscoveryRecord(const AgentSandbox& sandbox, std::int64_t pid,
                                 std::int64_t editor_pid, std::string socket = "");

/// Mode bits (& 07777) of `path`, or -1.
int modeOf(const std::string& path);
bool exists(const std::string& path);
std::string fileUri(const std::string& path);

} // namespace hashline::test
