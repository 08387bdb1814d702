// The journal's subcommands of the `hashline` CLI (DESIGN §7; issues 6 and 9):
//   hashline undo OP [--dry-run]                 reverse one op (refused whole on CONFLICT)
//   hashline reject HUNK [--dry-run]             reverse one hunk (OP#K)
//   hashline accept (ID | --turn T)              mark hunks reviewed
//   hashline rewind (--turn T | --session S) [--path P] [--dry-run]
//   hashline log [--path P] [--limit N]          ops, oldest first (--session/--turn filter)
//   hashline diff (OP | --turn T) [--kind commit|net] [--path P]
//   hashline turn [begin|end|current]
//   hashline pending [--path P]                  unreviewed hunks with their current lines
// Global flags as for the agent commands (agent_commands.h: --session, --agent, --turn,
// --workspace, --json). Calls go through the AgentRouter like every agent command: to the
// editor's sidecar serving the workspace, else the journal of the disk workspace in-process.
// Exit codes: 0 ok/applied, 1 refused (code first on stderr), 2 usage.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline::cli {

int runUndoCommand(std::vector<std::string> args);
int runRejectCommand(std::vector<std::string> args);
int runAcceptCommand(std::vector<std::string> args);
int runRewindCommand(std::vector<std::string> args);
int runLogCommand(std::vector<std::string> args);
int runDiffCommand(std::vector<std::string> args);
int runTurnCommand(std::vector<std::string> args);
int runPendingCommand(std::vector<std::string> args);

/// Human text for a journal method's (non-refused) result: log lines, pending hunks, diffs, what
/// an undo/reject/rewind reverted. Used by the CLI, render.cpp and MCP tool results.
std::string renderJournalResult(const std::string& method, const nlohmann::json& result);

} // namespace hashline::cli
