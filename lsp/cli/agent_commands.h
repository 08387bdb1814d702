// The agent subcommands of the `hashline` CLI: read, edit, replace, headtail, range, patch,
// draft, ed, status (DESIGN §8). Each turns its arguments into (method, params), sends them
// through the AgentRouter (the editor's sidecar when one serves the path, else the disk
// in-process) and prints the result: human text by default (render.h), the result object with
// `--json`. Exit codes: 0 ok/applied/preview, 1 refused (the error code first on stderr), 2
// usage or protocol fault.
//
// Global flags, accepted before or after the subcommand: --session ID (or HASHLINE_SESSION;
// default "default"), --agent NAME, --turn T, --workspace DIR (or HASHLINE_WORKSPACE), --json,
// --log-level L, --disk (write the disk when the editor's sidecar is gone: SIDECAR_GONE
// otherwise; agent_router.h). The journal's subcommands (undo, rewind, log, diff, …) reuse
// `takeGlobalOption` and `runServiceCall` so they behave the same.
//
// Threading: blocking, the main thread.
#pragma once

#include "lsp/agent/agent_router.h"
#include "lsp/cli/arguments.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::cli {

struct GlobalOptions {
  std::optional<std::string> session;
  std::optional<std::string> agent;
  std::optional<std::int64_t> turn;
  std::optional<std::string> workspace;
  bool json = false;
  bool confirm = false; // --confirm: ask the editor's user to confirm the edit
  /// --diagnostics-wait MS / --no-diagnostics: how long an edit waits for the editor's
  /// diagnostics of the new version (lsp/context/diagnostics_service.h).
  std::optional<std::int64_t> diagnostics_wait_ms;
  bool no_diagnostics = false;
  std::string log_level = "warn";
  bool disk = false; // --disk: work on the disk when the workspace's sidecar is gone
};

/// If the next argument is a global flag, consumes it into `global` and returns true. A bad
/// value sets `args.error`.
bool takeGlobalOption(Arguments& args, GlobalOptions& global);

/// The router's options from the global flags (--workspace, --disk).
agent::RouterOptions routerOptions(const GlobalOptions& global);
/// Prints a result's SIDECAR_GONE warning (answered from the disk) on stderr, if it has one.
void printWarning(const nlohmann::json& result);

/// Adds session/agent/turn to `params`, routes the call, prints the outcome; returns the exit
/// code. `command` names the subcommand in messages.
int runServiceCall(const std::string& command, const std::string& method, nlohmann::json params,
                   const GlobalOptions& global);

int runReadCommand(std::vector<std::string> args);
int runOutlineCommand(std::vector<std::string> args);
int runEditCommand(std::vector<std::string> args);
int runReplaceCommand(std::vector<std::string> args);
int runHeadTailCommand(std::vector<std::string> args);
int runRangeCommand(std::vector<std::string> args);
int runPatchCommand(std::vector<std::string> args);
int runDraftCommand(std::vector<std::string> args);
int runEdCommand(std::vector<std::string> args);
int runStatusCommand(std::vector<std::string> args);

} // namespace hashline::cli
