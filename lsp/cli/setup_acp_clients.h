// The ACP clients `hashline setup` configures: editors that start agents over the Agent Client
// Protocol from a command the user may set. Each ACP agent found on PATH (or named with --agent)
// gets an entry that starts it through the proxy, `hashline acp -- AGENT ARGS...`, so its file
// reads see the editor's unsaved text and its writes become verified, merged, journaled edits.
//
// Zed: `$XDG_CONFIG_HOME/zed/settings.json` (default `~/.config/zed/settings.json`), key
//   `agent_servers["<Agent> (hashline)"]` = {type: custom, command, args, env: {}}.
// JetBrains IDEs (AI Assistant): `~/.jetbrains/acp.json`, key `agent_servers["<Agent> (hashline)"]`
//   = {command, args, env: {}}.
// Both are user files only. The agents: Gemini CLI (`gemini --acp`), Claude Code
// (`claude-agent-acp`), Codex (`codex-acp`), opencode (`opencode acp`), goose (`goose acp`).
#pragma once

#include "lsp/cli/setup_targets.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hashline::cli::setup {

/// One ACP agent a client can start: its short name (for --agent), the name shown in the client,
/// and its ACP command (program and arguments).
struct AcpAgent {
  std::string key;
  std::string display;
  std::string program;
  std::vector<std::string> args;
};

/// Every ACP agent setup knows, in help order.
const std::vector<AcpAgent>& acpAgents();

/// The ACP clients of this file ("zed", "jetbrains").
const std::vector<std::string>& acpClientNames();

/// The agents to wrap: those named in `wanted` (keys of acpAgents(); an unknown one is a string
/// error), else every one whose program is on `path` (a PATH value). Each program is made
/// absolute when found on `path`, so the client (started from a desktop, with another PATH)
/// finds it. An empty list when none is found and none named. `--undo` plans with every agent
/// (undo finds entries by key and identity, whatever PATH holds now).
std::variant<std::vector<AcpAgent>, std::string>
selectAcpAgents(const std::vector<std::string>& wanted, const std::string& path);

/// The plan for client `client` if it is one of acpClientNames(), else nullopt: one file whose
/// entries wrap `agents` with `binary acp --`. A string when the scope does not exist (--project)
/// or no agent was found.
std::optional<std::variant<TargetPlan, std::string>>
planForAcpClient(const std::string& client, Scope scope, const std::vector<AcpAgent>& agents,
                 const std::string& binary, const std::string& home);

/// What one client's file holds of hashline: each agent_servers entry that starts an agent
/// through `hashline acp` (a command named hashline*, first argument `acp`): its name and that
/// command. For `hashline doctor`.
struct AcpClientFile {
  std::string client; // "zed", "jetbrains"
  std::string path;
  bool exists = false;
  bool readable = true; // false: not JSON (with comments, for Zed)
  std::vector<std::pair<std::string, std::string>> entries{};
};
std::vector<AcpClientFile> acpClientFiles(const std::string& home);

} // namespace hashline::cli::setup
