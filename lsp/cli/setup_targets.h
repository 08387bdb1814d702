// Where each agent keeps its MCP registration and its edit-tool settings, for `hashline setup`
// and `hashline doctor`: the files (per scope), their format, and the entries hashline adds.
//
// Claude Code: `.mcp.json` (project) or `$CLAUDE_CONFIG_DIR/.claude.json` (user; `~/.claude.json`
//   when unset), `mcpServers.hashline`; --prefer-hashline denies its Edit/Write/MultiEdit tools in
//   `.claude/settings.json` or `$CLAUDE_CONFIG_DIR/settings.json` (default `~/.claude/`). Local
//   scope (`claude mcp add --scope local`): the user file's `projects["<project>"].mcpServers`,
//   denies in the project's `.claude/settings.local.json`.
// Codex: `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`), table
//   `[mcp_servers.hashline]`; user scope only. It has no setting that turns its apply_patch off.
// Gemini CLI: `.gemini/settings.json` or `~/.gemini/settings.json`, `mcpServers.hashline`;
//   --prefer-hashline excludes its `replace` and `write_file` tools (`tools.exclude`).
// VS Code Copilot: `.vscode/mcp.json` or the user profile's `mcp.json`, `servers.hashline`.
#pragma once

#include "lsp/cli/setup_config_edit.h"

#include <optional>
#include <string>
#include <vector>

namespace hashline::cli::setup {

/// Project: files in the project, shared through its repository; User: the user's files; Local
/// (Claude Code only): the user file's entry for this project, `projects["<project>"]`.
enum class Scope { Project, User, Local };

/// One file hashline setup edits.
struct TargetFile {
  std::string path;
  bool toml = false;
  bool jsonc = false;                     // JSON with comments, edited as text (setup_jsonc_edit.h)
  std::vector<JsonChange> json_changes{}; // JSON files
  std::string toml_table{};               // TOML: the table name ...
  std::string toml_text{};                // ... and its text
};

struct TargetPlan {
  std::vector<TargetFile> files;
  std::vector<std::string> notes; // what the user should know (no file for it)
};

/// The value of environment variable `name`, or `fallback` when it is unset or empty.
std::string envOr(const char* name, const std::string& fallback);

/// Claude Code's config directory: $CLAUDE_CONFIG_DIR, else ~/.claude (settings.json lives there).
std::string claudeConfigDir(const std::string& home);
/// The file Claude Code reads user- and local-scope MCP servers and project approvals from:
/// $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude.json.
std::string claudeUserFile(const std::string& home);

/// The agents `setup` knows, in help order.
const std::vector<std::string>& agentNames();

/// The default scope of `agent` (user for codex, project for the others).
Scope defaultScope(const std::string& agent);

/// The files to edit for `agent` at `scope`, registering `binary` as `BINARY mcp`; with
/// `prefer_hashline` also the settings that steer the agent to hashline's tools. A string when
/// the combination does not exist (codex --project).
std::variant<TargetPlan, std::string> planFor(const std::string& agent, Scope scope,
                                              bool prefer_hashline, const std::string& binary,
                                              const std::string& project_dir,
                                              const std::string& home);

/// The registration files `doctor` checks, with the JSON key path / TOML table that holds
/// hashline's entry.
struct RegistrationFile {
  std::string agent;
  std::string path;
  bool toml = false;
  std::vector<std::string> json_path;
  std::string toml_table;
};
std::vector<RegistrationFile> registrationFiles(const std::string& project_dir,
                                                const std::string& home);

} // namespace hashline::cli::setup
