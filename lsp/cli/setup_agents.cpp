// opencode, Copilot CLI and pi as `hashline setup` targets; see setup_agents.h.
#include "lsp/cli/setup_agents.h"

#include <cstdlib>
#include <filesystem>

namespace hashline::cli::setup {

namespace {

namespace fs = std::filesystem;

std::string opencodeUser(const std::string& home) {
  return envOr("XDG_CONFIG_HOME", home + "/.config") + "/opencode/opencode.json";
}

std::string copilotUser(const std::string& home) {
  return envOr("COPILOT_HOME", home + "/.copilot") + "/mcp-config.json";
}

std::string piUser(const std::string& home) {
  return envOr("PI_CODING_AGENT_DIR", home + "/.pi/agent") + "/settings.json";
}

} // namespace

const std::vector<std::string>& moreAgentNames() {
  static const std::vector<std::string> names = {"opencode", "copilot", "pi"};
  return names;
}

std::optional<std::string> piExtensionPath(const std::string& binary) {
  fs::path bin_dir = fs::path(binary).parent_path();
  for (const char* relative : {"../share/hashline/pi/hashline.ts", "../editors/pi/hashline.ts"}) {
    std::error_code error;
    fs::path candidate = fs::weakly_canonical(bin_dir / relative, error);
    if (!error && fs::is_regular_file(candidate, error)) return candidate.string();
  }
  return std::nullopt;
}

std::optional<std::variant<TargetPlan, std::string>>
planForMoreAgents(const std::string& agent, Scope scope, bool prefer_hashline,
                  const std::string& binary, const std::string& project_dir,
                  const std::string& home) {
  const bool project = scope == Scope::Project;
  TargetPlan plan;
  if (agent == "opencode") {
    // opencode writes "$schema" into a config file that lacks it, on every start: setting it
    // too keeps the file what setup wrote, so --undo can still restore it byte-exact.
    TargetFile file{.path = project ? project_dir + "/opencode.json" : opencodeUser(home),
                    .json_changes = {{{"$schema"}, "https://opencode.ai/config.json"},
                                     {{"mcp", "hashline"},
                                      OrderedJson{{"type", "local"},
                                                  {"command", OrderedJson::array({binary, "mcp"})},
                                                  {"enabled", true}}}}};
    if (prefer_hashline) file.json_changes.push_back({{"permission", "edit"}, "deny"});
    plan.files.push_back(file);
    if (project && prefer_hashline)
      plan.notes.push_back("opencode's edit, write and patch tools are denied in this project; "
                           "hashline_edit and hashline_patch do the edits");
  } else if (agent == "copilot") {
    plan.files.push_back(
        TargetFile{.path = project ? project_dir + "/.github/mcp.json" : copilotUser(home),
                   .json_changes = {{{"mcpServers", "hashline"},
                                     OrderedJson{{"type", "local"},
                                                 {"command", binary},
                                                 {"args", OrderedJson::array({"mcp"})},
                                                 {"tools", OrderedJson::array({"*"})}}}}});
    if (project)
      plan.notes.push_back("Copilot CLI loads a project's .github/mcp.json only in a folder you "
                           "trust (it asks on first start; `copilot -p` needs --trust-folder)");
    if (prefer_hashline)
      plan.notes.push_back("Copilot CLI has no setting that disables its own edit tools; run it "
                           "with --deny-tool write to make it use hashline's tools");
  } else if (agent == "pi") {
    auto extension = piExtensionPath(binary);
    if (!extension)
      return std::variant<TargetPlan, std::string>(
          std::string("cannot find hashline's pi extension next to ") + binary +
          " (share/hashline/pi/hashline.ts): install hashline with cmake --install");
    plan.files.push_back(
        TargetFile{.path = project ? project_dir + "/.pi/settings.json" : piUser(home),
                   .json_changes = {{{"extensions"}, OrderedJson::array({*extension}), true}}});
    plan.notes.push_back("pi has no MCP: the extension " + *extension +
                         " gives it hashline_read and hashline_edit, which run `hashline` from "
                         "PATH (or $HASHLINE_BIN)");
    if (prefer_hashline)
      plan.notes.push_back("pi has no setting that disables its edit and write tools; start it "
                           "with --tools read,bash,grep,find,ls to leave only hashline's edits");
  } else {
    return std::nullopt;
  }
  return std::variant<TargetPlan, std::string>(plan);
}

std::vector<RegistrationFile> moreRegistrationFiles(const std::string& project_dir,
                                                    const std::string& home) {
  return {
      {"opencode (project)", project_dir + "/opencode.json", false, {"mcp", "hashline"}, {}},
      {"opencode (user)", opencodeUser(home), false, {"mcp", "hashline"}, {}},
      {"copilot (project)",
       project_dir + "/.github/mcp.json",
       false,
       {"mcpServers", "hashline"},
       {}},
      {"copilot (user)", copilotUser(home), false, {"mcpServers", "hashline"}, {}},
      {"pi (project)", project_dir + "/.pi/settings.json", false, {"extensions"}, {}},
      {"pi (user)", piUser(home), false, {"extensions"}, {}},
  };
}

} // namespace hashline::cli::setup
