// The agents' configuration files and hashline's entries in them; see setup_targets.h.
#include "lsp/cli/setup_targets.h"

#include "lsp/cli/setup_agents.h"
#include "lsp/platform/user_dirs.h"

#include <cstdlib>

namespace hashline::cli::setup {

namespace {

// codex starts MCP servers with a fixed whitelist of the environment (HOME, PATH, USER, TMPDIR,
// ...): without these, `hashline mcp` looks for the editor's sidecar in another runtime directory
// than the one the sidecar registered in, and edits the disk behind the open buffer.
constexpr const char* kCodexForwardedEnv =
    "env_vars = [\"XDG_RUNTIME_DIR\", \"HASHLINE_RUNTIME_DIR\", \"XDG_STATE_HOME\", "
    "\"HASHLINE_STATE_DIR\", \"HASHLINE_SESSION\"]\n";

std::string codexConfig(const std::string& home) {
  return envOr("CODEX_HOME", home + "/.codex") + "/config.toml";
}

std::string vscodeUserMcp(const std::string& home) {
  return platform::applicationConfigBase(home) + "/Code/User/mcp.json";
}

/// `"text"` as a TOML basic string.
std::string tomlString(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

} // namespace

std::string envOr(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

std::string claudeConfigDir(const std::string& home) {
  return envOr("CLAUDE_CONFIG_DIR", home + "/.claude");
}

std::string claudeUserFile(const std::string& home) {
  return envOr("CLAUDE_CONFIG_DIR", home) + "/.claude.json";
}

const std::vector<std::string>& agentNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = {"claude", "codex", "gemini", "vscode-copilot"};
    all.insert(all.end(), moreAgentNames().begin(), moreAgentNames().end());
    return all;
  }();
  return names;
}

Scope defaultScope(const std::string& agent) {
  return agent == "codex" ? Scope::User : Scope::Project;
}

std::variant<TargetPlan, std::string> planFor(const std::string& agent, Scope scope,
                                              bool prefer_hashline, const std::string& binary,
                                              const std::string& project_dir,
                                              const std::string& home) {
  const bool project = scope == Scope::Project;
  OrderedJson args = OrderedJson::array({"mcp"});
  TargetPlan plan;
  if (scope == Scope::Local && agent != "claude")
    return "--local is Claude Code's scope (its entry for one project in ~/.claude.json); " +
           agent + " has --project and --user";
  if (agent == "claude") {
    OrderedJson entry{{"type", "stdio"}, {"command", binary}, {"args", args}};
    if (scope == Scope::Local) {
      plan.files.push_back(TargetFile{
          .path = claudeUserFile(home),
          .json_changes = {{{"projects", project_dir, "mcpServers", "hashline"}, entry}}});
    } else {
      plan.files.push_back(
          TargetFile{.path = project ? project_dir + "/.mcp.json" : claudeUserFile(home),
                     .json_changes = {{{"mcpServers", "hashline"}, entry}}});
    }
    if (project)
      plan.notes.push_back(
          "Claude Code loads a project's .mcp.json only once you approve it: it stays \"pending "
          "approval\" until `claude` asks in this folder and you say yes (claude -p never asks); "
          "hashline doctor shows the state. Without approval: hashline setup claude --local or "
          "--user");
    if (prefer_hashline)
      plan.files.push_back(
          TargetFile{.path = scope == Scope::Local ? project_dir + "/.claude/settings.local.json"
                             : project             ? project_dir + "/.claude/settings.json"
                                                   : claudeConfigDir(home) + "/settings.json",
                     .json_changes = {{{"permissions", "deny"},
                                       OrderedJson::array({"Edit", "Write", "MultiEdit"}),
                                       true}}});
  } else if (agent == "codex") {
    if (project)
      return std::string("codex reads MCP servers only from ~/.codex/config.toml: use --user");
    plan.files.push_back(
        TargetFile{.path = codexConfig(home),
                   .toml = true,
                   .toml_table = "mcp_servers.hashline",
                   .toml_text = "[mcp_servers.hashline]\ncommand = " + tomlString(binary) +
                                "\nargs = [\"mcp\"]\n" + kCodexForwardedEnv});
    if (prefer_hashline)
      plan.notes.push_back("codex has no setting that disables its apply_patch tool; add to your "
                           "AGENTS.md: \"Edit files with the hashline MCP tools (hashline_read, "
                           "then hashline_edit / hashline_patch), not apply_patch.\"");
  } else if (agent == "gemini") {
    std::string path = (project ? project_dir : home) + "/.gemini/settings.json";
    TargetFile file{.path = path,
                    .json_changes = {{{"mcpServers", "hashline"},
                                      OrderedJson{{"command", binary}, {"args", args}}}}};
    if (prefer_hashline)
      file.json_changes.push_back(
          {{"tools", "exclude"}, OrderedJson::array({"replace", "write_file"}), true});
    plan.files.push_back(file);
  } else if (agent == "vscode-copilot") {
    plan.files.push_back(TargetFile{
        .path = project ? project_dir + "/.vscode/mcp.json" : vscodeUserMcp(home),
        .json_changes = {{{"servers", "hashline"},
                          OrderedJson{{"type", "stdio"}, {"command", binary}, {"args", args}}}}});
    if (prefer_hashline)
      plan.notes.push_back("VS Code has no setting that disables Copilot's own edit tools; pick "
                           "the hashline tools in the chat's tool picker instead.");
  } else if (auto more =
                 planForMoreAgents(agent, scope, prefer_hashline, binary, project_dir, home)) {
    return *more;
  } else {
    return "unknown agent '" + agent +
           "' (claude, codex, gemini, vscode-copilot, opencode, copilot, pi, zed or jetbrains)";
  }
  return plan;
}

std::vector<RegistrationFile> registrationFiles(const std::string& project_dir,
                                                const std::string& home) {
  std::vector<RegistrationFile> files = {
      {"claude (project)", project_dir + "/.mcp.json", false, {"mcpServers", "hashline"}, {}},
      {"claude (user)", claudeUserFile(home), false, {"mcpServers", "hashline"}, {}},
      {"claude (local)",
       claudeUserFile(home),
       false,
       {"projects", project_dir, "mcpServers", "hashline"},
       {}},
      {"codex (user)", codexConfig(home), true, {}, "mcp_servers.hashline"},
      {"gemini (project)",
       project_dir + "/.gemini/settings.json",
       false,
       {"mcpServers", "hashline"},
       {}},
      {"gemini (user)", home + "/.gemini/settings.json", false, {"mcpServers", "hashline"}, {}},
      {"vscode-copilot (project)",
       project_dir + "/.vscode/mcp.json",
       false,
       {"servers", "hashline"},
       {}},
      {"vscode-copilot (user)", vscodeUserMcp(home), false, {"servers", "hashline"}, {}},
  };
  for (auto& file : moreRegistrationFiles(project_dir, home))
    files.push_back(std::move(file));
  return files;
}

} // namespace hashline::cli::setup
