// Zed and JetBrains as `hashline setup` targets: their agent_servers entries; see
// setup_acp_clients.h.
#include "lsp/cli/setup_acp_clients.h"

#include "lsp/cli/setup_jsonc_edit.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace hashline::cli::setup {

namespace {

namespace fs = std::filesystem;

/// The absolute path of `program` on `path` (colon-separated), or nullopt.
std::optional<std::string> onPath(const std::string& program, const std::string& path) {
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    if (!dir.empty()) {
      fs::path candidate = fs::path(dir) / program;
      std::error_code error;
      if (fs::is_regular_file(candidate, error) && ::access(candidate.c_str(), X_OK) == 0)
        return fs::absolute(candidate, error).lexically_normal().string();
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::string zedSettings(const std::string& home) {
  return envOr("XDG_CONFIG_HOME", home + "/.config") + "/zed/settings.json";
}

std::string jetbrainsAcp(const std::string& home) {
  return home + "/.jetbrains/acp.json";
}

std::string knownKeys() {
  std::string keys;
  for (const auto& agent : acpAgents())
    keys += (keys.empty() ? "" : ", ") + agent.key;
  return keys;
}

} // namespace

const std::vector<AcpAgent>& acpAgents() {
  static const std::vector<AcpAgent> agents = {
      {"gemini", "Gemini CLI", "gemini", {"--acp"}},
      {"claude", "Claude Code", "claude-agent-acp", {}},
      {"codex", "Codex", "codex-acp", {}},
      {"opencode", "opencode", "opencode", {"acp"}},
      {"goose", "goose", "goose", {"acp"}},
  };
  return agents;
}

const std::vector<std::string>& acpClientNames() {
  static const std::vector<std::string> names = {"zed", "jetbrains"};
  return names;
}

std::variant<std::vector<AcpAgent>, std::string>
selectAcpAgents(const std::vector<std::string>& wanted, const std::string& path) {
  std::vector<AcpAgent> chosen;
  for (const auto& key : wanted) {
    auto known = std::find_if(acpAgents().begin(), acpAgents().end(),
                              [&](const AcpAgent& agent) { return agent.key == key; });
    if (known == acpAgents().end()) return "unknown ACP agent '" + key + "' (" + knownKeys() + ")";
    chosen.push_back(*known);
  }
  if (wanted.empty())
    for (const auto& agent : acpAgents())
      if (onPath(agent.program, path)) chosen.push_back(agent);
  for (auto& agent : chosen)
    if (auto found = onPath(agent.program, path)) agent.program = *found;
  return chosen;
}

std::optional<std::variant<TargetPlan, std::string>>
planForAcpClient(const std::string& client, Scope scope, const std::vector<AcpAgent>& agents,
                 const std::string& binary, const std::string& home) {
  const bool zed = client == "zed";
  if (!zed && client != "jetbrains") return std::nullopt;
  using Result = std::variant<TargetPlan, std::string>;
  if (scope != Scope::User)
    return Result(client + " reads its agents only from the user's file: use --user (the default)");
  if (agents.empty())
    return Result("no ACP agent found on PATH (" + knownKeys() +
                  "); install one, or name it with --agent NAME");
  // Zed's settings.json has comments (the one Zed writes starts with some): edited as text.
  TargetFile file{.path = zed ? zedSettings(home) : jetbrainsAcp(home), .jsonc = zed};
  for (const auto& agent : agents) {
    OrderedJson args = OrderedJson::array({"acp", "--", agent.program});
    for (const auto& arg : agent.args)
      args.push_back(arg);
    OrderedJson entry;
    if (zed) entry["type"] = "custom";
    entry["command"] = binary;
    entry["args"] = args;
    entry["env"] = OrderedJson::object();
    file.json_changes.push_back({{"agent_servers", agent.display + " (hashline)"}, entry});
  }
  TargetPlan plan;
  plan.files.push_back(file);
  std::string names;
  for (const auto& agent : agents)
    names += (names.empty() ? "" : ", ") + agent.display + " (hashline)";
  plan.notes.push_back(std::string(zed ? "Zed's agent panel" : "the AI Chat's agent list") +
                       " now offers " + names +
                       ": they run through `hashline acp`, which answers the agents' file reads "
                       "from the open buffers and turns their writes into hashline edits");
  return Result(plan);
}

std::vector<AcpClientFile> acpClientFiles(const std::string& home) {
  std::vector<AcpClientFile> files;
  for (const auto& client : acpClientNames()) {
    AcpClientFile file{client, client == "zed" ? zedSettings(home) : jetbrainsAcp(home)};
    std::ifstream in(file.path, std::ios::binary);
    file.exists = static_cast<bool>(in);
    if (file.exists) {
      std::ostringstream bytes;
      bytes << in.rdbuf();
      auto document = parseJsonc(bytes.str());
      file.readable = document.has_value();
      const OrderedJson* servers =
          document && document->contains("agent_servers") ? &(*document)["agent_servers"] : nullptr;
      if (servers && servers->is_object())
        for (auto it = servers->begin(); it != servers->end(); ++it) {
          const OrderedJson& entry = it.value();
          if (!entry.is_object() || !entry.value("command", OrderedJson()).is_string()) continue;
          const OrderedJson args = entry.value("args", OrderedJson::array());
          const std::string command = entry["command"].get<std::string>();
          if (fs::path(command).filename().string().rfind("hashline", 0) == 0 && args.is_array() &&
              !args.empty() && args[0] == "acp")
            file.entries.emplace_back(it.key(), command);
        }
    }
    files.push_back(std::move(file));
  }
  return files;
}

} // namespace hashline::cli::setup
