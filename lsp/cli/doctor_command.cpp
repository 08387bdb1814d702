// `hashline doctor`: the checks and their report; see doctor_command.h.
#include "lsp/cli/doctor_command.h"

#include "lsp/agent/agent_client.h"
#include "lsp/agent/discovery.h"
#include "lsp/cli/claude_command.h"
#include "lsp/cli/setup_acp_clients.h"
#include "lsp/cli/setup_config_edit.h"
#include "lsp/cli/setup_targets.h"
#include "lsp/ide/ide_lock_file.h"
#include "lsp/platform/executable_path.h"
#include "lsp/version.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace hashline::cli {

namespace {

namespace fs = std::filesystem;
using setup::OrderedJson;

constexpr const char* kUsage =
    "usage: hashline doctor [--project-dir DIR]\n"
    "Reports what is installed, which agents have hashline registered and whether a sidecar\n"
    "serves the current directory; prints a fix for each problem. Exit 1 when one was found.\n";

struct Report {
  int problems = 0;
  void ok(const std::string& text) { std::printf("ok    %s\n", text.c_str()); }
  void info(const std::string& text) { std::printf("info  %s\n", text.c_str()); }
  void problem(const std::string& text, const std::string& fix) {
    ++problems;
    std::printf("FAIL  %s\n      fix: %s\n", text.c_str(), fix.c_str());
  }
};

std::string env(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

std::optional<std::string> onPath(const std::string& name) {
  std::stringstream dirs(env("PATH", ""));
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void checkBinary(Report& report, const std::string& self) {
  report.ok("hashline " + std::string(programVersion()) + " (" + self + ")");
  auto found = onPath("hashline");
  if (!found)
    report.problem("no `hashline` on PATH (editors and agents start it by name)",
                   "cmake --install build-release --prefix ~/.local, and put ~/.local/bin on PATH");
  else
    report.ok("on PATH: " + *found);
}

/// Neovim's packpath holds share/nvim/site of XDG_DATA_HOME and each XDG_DATA_DIRS entry.
void checkNeovim(Report& report, const std::string& home) {
  std::vector<std::string> sites = {env("XDG_DATA_HOME", home + "/.local/share") + "/nvim/site"};
  std::stringstream dirs(env("XDG_DATA_DIRS", "/usr/local/share:/usr/share"));
  for (std::string dir; std::getline(dirs, dir, ':');)
    sites.push_back(dir + "/nvim/site");
  std::vector<std::string> plugin_dirs;
  for (const auto& site : sites) {
    std::error_code error;
    for (auto pack = fs::directory_iterator(site + "/pack", error);
         !error && pack != fs::directory_iterator(); pack.increment(error))
      for (const char* kind : {"/start", "/opt"})
        for (auto plugin = fs::directory_iterator(pack->path().string() + kind, error);
             !error && plugin != fs::directory_iterator(); plugin.increment(error))
          if (fs::exists(plugin->path() / "lua/hashline/init.lua"))
            plugin_dirs.push_back(plugin->path().string());
    error.clear();
  }
  std::string lazy = env("XDG_DATA_HOME", home + "/.local/share") + "/nvim/lazy/hashline";
  if (fs::exists(lazy + "/lua/hashline/init.lua")) plugin_dirs.push_back(lazy);
  if (plugin_dirs.empty())
    report.info("Neovim plugin: not found in a packpath (install it with cmake --install, or "
                "add editors/nvim with your plugin manager)");
  for (const auto& dir : plugin_dirs)
    report.ok("Neovim plugin: " + dir);
}

void checkVscode(Report& report, const std::string& home) {
  bool found = false;
  for (const char* root : {"/.vscode/extensions", "/.vscode-server/extensions",
                           "/.local/share/code-server/extensions"}) {
    std::error_code error;
    for (auto entry = fs::directory_iterator(home + root, error);
         !error && entry != fs::directory_iterator(); entry.increment(error))
      if (entry->path().filename().string().find("hashline") != std::string::npos) {
        report.ok("VS Code extension: " + entry->path().string());
        found = true;
      }
  }
  if (!found) report.info("VS Code extension: not installed");
}

/// The registered command of `file`, if hashline is registered there.
std::optional<std::string> registeredCommand(const setup::RegistrationFile& file) {
  auto text = readFile(file.path);
  if (!text) return std::nullopt;
  if (file.toml) {
    auto span = setup::findTomlTable(*text, file.toml_table);
    if (!span) return std::nullopt;
    std::string table = text->substr(span->begin, span->end - span->begin);
    std::size_t key = table.find("command");
    std::size_t open = key == std::string::npos ? key : table.find('"', key);
    std::size_t close = open == std::string::npos ? open : table.find('"', open + 1);
    return close == std::string::npos ? std::string() : table.substr(open + 1, close - open - 1);
  }
  OrderedJson document = OrderedJson::parse(*text, nullptr, false, /*ignore_comments=*/true);
  const OrderedJson* node = &document;
  for (const auto& key : file.json_path) {
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &(*node)[key];
  }
  if (node->is_array()) { // pi: the `extensions` list holds hashline's extension file
    for (const auto& entry : *node)
      if (entry.is_string() && fs::path(entry.get<std::string>()).filename() == "hashline.ts")
        return entry.get<std::string>();
    return std::nullopt;
  }
  if (node->is_object() && node->contains("command") && (*node)["command"].is_array()) {
    const OrderedJson& argv = (*node)["command"]; // opencode: [BINARY, "mcp"]
    return !argv.empty() && argv[0].is_string() ? argv[0].get<std::string>() : std::string();
  }
  return node->is_object() ? node->value("command", std::string()) : std::string();
}

OrderedJson readJson(const std::string& path) {
  auto text = readFile(path);
  OrderedJson document =
      text ? OrderedJson::parse(*text, nullptr, false, /*ignore_comments=*/true) : OrderedJson();
  return document.is_object() ? document : OrderedJson::object();
}

bool listsHashline(const OrderedJson& settings, const char* key) {
  if (!settings.contains(key) || !settings[key].is_array()) return false;
  for (const auto& name : settings[key])
    if (name == "hashline") return true;
  return false;
}

/// Whether Claude Code loads the hashline entry of the project's .mcp.json, decided as Claude
/// Code 2.1.332 does (checked with its `claude mcp list`): "hashline" in disabledMcpjsonServers
/// of any settings file turns it off; it is approved by enabledMcpjsonServers or
/// enableAllProjectMcpServers in the user's settings, or in the project's .claude/settings.json or
/// .claude/settings.local.json once the folder is trusted (projects["<dir>"].hasTrustDialogAccepted
/// in the user file, which also holds the older per-project lists Claude moves into
/// settings.local.json); otherwise it is pending approval.
struct Approval {
  enum class State { Approved, Pending, Disabled } state = State::Pending;
  std::string where; // the file that decides it
};
Approval claudeProjectApproval(const std::string& project_dir, const std::string& home) {
  std::string user_file = setup::claudeUserFile(home);
  OrderedJson user = readJson(user_file);
  OrderedJson legacy = OrderedJson::object();
  if (user.contains("projects") && user["projects"].is_object() &&
      user["projects"].contains(project_dir) && user["projects"][project_dir].is_object())
    legacy = user["projects"][project_dir];
  const bool trusted = legacy.value("hasTrustDialogAccepted", false) == true;
  struct Source {
    std::string path;
    OrderedJson settings;
    bool counts; // its approvals count (the user's always, the project's once trusted)
  };
  std::vector<Source> sources = {
      {setup::claudeConfigDir(home) + "/settings.json",
       readJson(setup::claudeConfigDir(home) + "/settings.json"), true},
      {project_dir + "/.claude/settings.json", readJson(project_dir + "/.claude/settings.json"),
       trusted},
      {project_dir + "/.claude/settings.local.json",
       readJson(project_dir + "/.claude/settings.local.json"), trusted},
      {user_file + " projects[\"" + project_dir + "\"]", legacy, trusted},
  };
  for (const auto& source : sources)
    if (listsHashline(source.settings, "disabledMcpjsonServers"))
      return {Approval::State::Disabled, source.path};
  for (const auto& source : sources)
    if (source.counts && (listsHashline(source.settings, "enabledMcpjsonServers") ||
                          source.settings.value("enableAllProjectMcpServers", false) == true))
      return {Approval::State::Approved, source.path};
  return {};
}

/// The scope flag of a doctor entry name: "claude (user)" → " --user".
std::string scopeFlag(const std::string& agent) {
  for (const char* scope : {"user", "local"})
    if (agent.find(std::string("(") + scope + ")") != std::string::npos)
      return std::string(" --") + scope;
  return "";
}

void checkAgents(Report& report, const std::string& project_dir, const std::string& home) {
  int registered = 0;
  for (const auto& file : setup::registrationFiles(project_dir, home)) {
    auto command = registeredCommand(file);
    if (!command) continue;
    ++registered;
    bool runs = fs::path(*command).filename() == "hashline.ts" ? fs::is_regular_file(*command)
                : command->find('/') != std::string::npos ? ::access(command->c_str(), X_OK) == 0
                                                          : onPath(*command).has_value();
    std::string where = file.agent == "claude (local)"
                            ? file.path + " projects[\"" + project_dir + "\"]"
                            : file.path;
    if (!runs) {
      report.problem(
          file.agent + ": registered in " + where + " but '" + *command + "' is not an executable",
          "hashline setup " + file.agent.substr(0, file.agent.find(' ')) + scopeFlag(file.agent));
      continue;
    }
    if (file.agent != "claude (project)") {
      report.ok(file.agent + ": registered in " + where + " (" + *command + ")");
      continue;
    }
    auto approval = claudeProjectApproval(project_dir, home);
    std::string text = file.agent + ": registered in " + where + " (" + *command + ")";
    if (approval.state == Approval::State::Approved)
      report.ok(text + ", approved in " + approval.where);
    else if (approval.state == Approval::State::Disabled)
      report.problem(text + ", but disabled in " + approval.where +
                         ": Claude Code does not load it",
                     "take \"hashline\" out of disabledMcpjsonServers in " + approval.where +
                         " (or enable it in claude's /mcp)");
    else
      report.problem(text + ", but pending approval: Claude Code does not load a project's "
                            ".mcp.json before you approve it",
                     "run `claude` in " + project_dir +
                         " and approve hashline (claude -p never asks), or register it without "
                         "approval: hashline setup claude --local (this project) or --user");
  }
  // Claude Code reads $CLAUDE_CONFIG_DIR/.claude.json when that is set, not ~/.claude.json: an
  // entry left there (a setup before the variable was set) is one Claude does not load.
  std::string claude_user = setup::claudeUserFile(home);
  setup::RegistrationFile ignored{
      "claude (user)", home + "/.claude.json", false, {"mcpServers", "hashline"}, {}};
  if (ignored.path != claude_user && registeredCommand(ignored)) {
    bool loaded =
        registeredCommand({"claude (user)", claude_user, false, {"mcpServers", "hashline"}, {}})
            .has_value();
    std::string text = "claude (user): " + ignored.path +
                       " registers hashline, but CLAUDE_CONFIG_DIR is set: Claude Code reads " +
                       claude_user + " instead";
    if (loaded)
      report.info(text + " (hashline is registered there too)");
    else
      report.problem(text,
                     "hashline setup claude --user (with CLAUDE_CONFIG_DIR set as Claude runs "
                     "it); the old entry goes with env -u CLAUDE_CONFIG_DIR hashline setup "
                     "claude --user --undo");
  }
  if (registered == 0)
    report.problem("no agent has hashline registered as an MCP server",
                   "hashline setup claude (or codex, gemini, vscode-copilot)");
}

// Zed's and JetBrains' agent_servers entries that start agents through `hashline acp`; only for
// the clients whose file exists (the client is installed).
void checkAcpClients(Report& report, const std::string& home) {
  for (const auto& file : setup::acpClientFiles(home)) {
    if (!file.exists) continue;
    if (!file.readable) {
      report.info(file.client + ": " + file.path + " is not JSON, agent_servers not checked");
      continue;
    }
    if (file.entries.empty()) {
      report.info(file.client + ": no ACP agent starts through hashline acp in " + file.path +
                  " (hashline setup " + file.client + ")");
      continue;
    }
    std::string names;
    for (const auto& [name, command] : file.entries) {
      bool runs = command.find('/') != std::string::npos ? ::access(command.c_str(), X_OK) == 0
                                                         : onPath(command).has_value();
      if (!runs)
        report.problem(file.client + ": agent \"" + name + "\" in " + file.path + " runs '" +
                           command + "', which is not an executable",
                       "hashline setup " + file.client +
                           " (rewrites the entries with this binary)");
      else
        names += (names.empty() ? "" : ", ") + name;
    }
    if (!names.empty())
      report.ok(file.client + ": " + names + " start through hashline acp (" + file.path + ")");
  }
}

// Returns the sidecar's `status` answer, when one answered.
std::optional<nlohmann::json> checkSidecar(Report& report, const std::string& project_dir) {
  std::error_code error;
  std::string real = fs::canonical(project_dir, error).string();
  auto record = agent::findRecordFor(error ? project_dir : real);
  if (record && !record->live()) {
    report.problem("the editor's sidecar pid " + std::to_string(record->info.pid) + " for " +
                       project_dir + " died while its editor (pid " +
                       std::to_string(record->info.editor_pid) +
                       ") runs: agents' edits are refused SIDECAR_GONE",
                   "restart it in the editor (Neovim :HashlineRestart, VS Code: hashline: Restart "
                   "Server)");
    return std::nullopt;
  }
  auto sidecar = agent::findSidecarFor(error ? project_dir : real);
  if (!sidecar) {
    report.info("no editor sidecar serves " + project_dir +
                " (agents edit the disk; open the project in an editor running hashline to edit "
                "its buffers)");
    return std::nullopt;
  }
  auto answer = agent::callSidecar(sidecar->socket, "hashline/status", {{"session", "doctor"}},
                                   std::chrono::milliseconds(3000));
  if (answer.ok() && std::holds_alternative<nlohmann::json>(answer.value())) {
    report.ok("sidecar pid " + std::to_string(sidecar->pid) + " serves " + project_dir + " (" +
              sidecar->socket + ")");
    return std::get<nlohmann::json>(answer.value());
  }
  report.problem("the sidecar pid " + std::to_string(sidecar->pid) + " for " + project_dir +
                     " does not answer on " + sidecar->socket,
                 "restart the editor's hashline client (Neovim :HashlineRestart, VS Code: "
                 "hashline: Restart Server); agents' edits are refused SIDECAR_GONE meanwhile");
  return std::nullopt;
}

// "Claude Code 2.1.332 (pid 42)" for each client the sidecar's status lists as connected.
std::string connectedClaudes(const nlohmann::json& claude_ide) {
  std::string names;
  const nlohmann::json clients = claude_ide.value("clients", nlohmann::json::array());
  for (const nlohmann::json& client : clients) {
    if (!client.is_object()) continue;
    if (!names.empty()) names += ", ";
    names += "Claude Code";
    if (client.contains("version") && client["version"].is_string() &&
        !client["version"].get<std::string>().empty())
      names += " " + client["version"].get<std::string>();
    if (client.contains("pid") && client["pid"].is_number_integer())
      names += " (pid " + std::to_string(client["pid"].get<std::int64_t>()) + ")";
  }
  return names;
}

void checkClaudeIde(Report& report, const std::string& project_dir,
                    const std::optional<nlohmann::json>& sidecar_status) {
  const std::string directory = lsp::claudeIdeDirectory();
  if (directory.empty()) return;
  if (std::optional<int> port = ideServerPortFor(directory, project_dir)) {
    const std::string where =
        "Claude IDE server of hashline on 127.0.0.1:" + std::to_string(*port) + " for " +
        project_dir + " (" + directory + "/" + std::to_string(*port) + ".lock)";
    const nlohmann::json claude_ide =
        sidecar_status && sidecar_status->is_object()
            ? sidecar_status->value("claudeIde", nlohmann::json::object())
            : nlohmann::json::object();
    const bool same_server = claude_ide.is_object() && claude_ide.value("port", 0) == *port;
    const std::string connected = same_server ? connectedClaudes(claude_ide) : "";
    if (!connected.empty())
      report.ok(where + "; connected: " + connected);
    else if (same_server)
      report.ok(where + "; no Claude Code connected: start it with `hashline claude`");
    else
      report.ok(where + "; start Claude Code connected to it with `hashline claude`");
  } else
    report.info("no hashline Claude IDE server for " + project_dir + " (lock files in " +
                directory +
                "; turn it on with Neovim's setup{ claude_ide = true }, VS Code's "
                "hashline.claudeIde or hashline lsp --claude-ide)");
}

} // namespace

int runDoctorCommand(std::vector<std::string> args) {
  std::string project_dir = fs::current_path().string();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-h" || args[i] == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (args[i] == "--project-dir" && i + 1 < args.size()) {
      project_dir = args[++i];
      continue;
    }
    std::fprintf(stderr, "hashline doctor: unknown argument '%s'\n\n%s", args[i].c_str(), kUsage);
    return 2;
  }
  std::error_code error;
  // Absolute, without symlinks: the key Claude Code files the project under.
  fs::path absolute = fs::absolute(project_dir);
  fs::path canonical = fs::weakly_canonical(absolute, error);
  project_dir = (error ? absolute.lexically_normal() : canonical).string();
  while (project_dir.size() > 1 && project_dir.back() == '/')
    project_dir.pop_back();
  std::string self = platform::ownExecutablePath();
  std::string home = env("HOME", "");
  Report report;
  checkBinary(report, self);
  checkNeovim(report, home);
  checkVscode(report, home);
  checkAgents(report, project_dir, home);
  checkAcpClients(report, home);
  const std::optional<nlohmann::json> sidecar_status = checkSidecar(report, project_dir);
  checkClaudeIde(report, project_dir, sidecar_status);
  std::printf(report.problems == 0 ? "healthy\n" : "%d problem(s)\n", report.problems);
  return report.problems == 0 ? 0 : 1;
}

} // namespace hashline::cli
