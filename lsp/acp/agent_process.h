// The agent as a child process of `hashline acp`: started with its stdin and stdout piped to
// the proxy (stderr shared with the proxy's, so the client sees the agent's log as before), in
// a process group of its own, and ended with that whole group (the agent's own children — its
// MCP servers, shells — included) so nothing the agent started outlives the proxy.
//
// The OS specifics are kept here and small: POSIX fork/exec/killpg, plus Linux's
// PR_SET_PDEATHSIG so the agent also dies when the proxy is killed with SIGKILL (elsewhere the
// agent sees its stdin close and ACP agents exit on that).
//
// Threading: call from the proxy's main thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace hashline::acp {

struct AgentProcess {
  pid_t pid = -1;    // also the process group id
  int stdin_fd = -1; // the proxy writes the agent's input here
  int stdout_fd = -1;
};

/// Starts `argv` (argv[0] looked up in PATH). On failure returns nullopt with `error` saying
/// why (e.g. "gemini: No such file or directory").
std::optional<AgentProcess> startAgent(const std::vector<std::string>& argv, std::string& error);

/// The agent's exit status if it has exited (reaped now), else nullopt. `status_text` says how it
/// ended ("exited with status 3", "was killed by signal 9").
std::optional<int> reapAgent(pid_t pid, std::string& status_text);

/// Ends the agent's process group: SIGTERM, up to `grace` for it to go, then SIGKILL; reaps the
/// agent unless `reaped` (reapAgent did already). Returns its exit code (128 + signal when
/// killed) when it was reaped here.
std::optional<int> endAgentGroup(pid_t pid, bool reaped, std::chrono::milliseconds grace,
                                 std::string& status_text);

/// This program's absolute path (what the injected MCP server runs; lsp/platform); "hashline"
/// when the OS does not tell.
std::string currentExecutablePath();

} // namespace hashline::acp
