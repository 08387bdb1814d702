// The setup targets of opencode, GitHub Copilot CLI and pi (the agents added after the first
// four of setup_targets.h), registered there through planForMoreAgents / moreRegistrationFiles.
//
// opencode: `opencode.json` (project) or `$XDG_CONFIG_HOME/opencode/opencode.json` (user), key
//   `mcp.hashline` = {type: local, command: [BINARY, mcp], enabled: true}, and `$schema` (which
//   opencode itself adds to a file lacking it, at every start); --prefer-hashline sets
//   `permission.edit` to "deny" (opencode's edit, write and patch tools ask that one permission).
// Copilot CLI: `.github/mcp.json` (project) or `$COPILOT_HOME/mcp-config.json` (user, default
//   `~/.copilot`), key `mcpServers.hashline` = {type: local, command, args, tools: ["*"]} as its
//   own `copilot mcp add` writes it. It has no setting that disables its edit tools.
// pi: no MCP. Its settings (`.pi/settings.json` or `$PI_CODING_AGENT_DIR/settings.json`, default
//   `~/.pi/agent`) list extension files in `extensions`; setup adds hashline's extension
//   (editors/pi/hashline.ts, installed to share/hashline/pi/), which gives pi the tools
//   hashline_read and hashline_edit by running the `hashline` CLI.
#pragma once

#include "lsp/cli/setup_targets.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hashline::cli::setup {

/// The agents of this file, in help order.
const std::vector<std::string>& moreAgentNames();

/// The plan for `agent` if it is one of moreAgentNames(), else nullopt; arguments as planFor.
std::optional<std::variant<TargetPlan, std::string>>
planForMoreAgents(const std::string& agent, Scope scope, bool prefer_hashline,
                  const std::string& binary, const std::string& project_dir,
                  const std::string& home);

/// Their registration files for `doctor`. pi's json_path names the `extensions` array: its
/// entry is the extension path, not an object with a command.
std::vector<RegistrationFile> moreRegistrationFiles(const std::string& project_dir,
                                                    const std::string& home);

/// The pi extension next to `binary`: BIN/../share/hashline/pi/hashline.ts when installed, or
/// the source tree's editors/pi/hashline.ts for a build directory inside it; nullopt if neither.
std::optional<std::string> piExtensionPath(const std::string& binary);

} // namespace hashline::cli::setup
