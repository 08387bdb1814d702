// `hashline setup`: arguments, the merge per file, backup, manifest and undo; see setup_command.h.
#include "lsp/cli/setup_command.h"

#include "engine/diff/unified_diff.h"
#include "lsp/cli/arguments.h"
#include "lsp/cli/setup_acp_clients.h"
#include "lsp/cli/setup_jsonc_edit.h"
#include "lsp/cli/setup_targets.h"
#include "lsp/disk/state_dir.h"
#include "lsp/platform/executable_path.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace hashline::cli {

namespace {

namespace fs = std::filesystem;
using setup::OrderedJson;

constexpr const char* kUsage =
    "usage: hashline setup claude|codex|gemini|vscode-copilot|opencode|copilot|pi [options]\n"
    "       hashline setup zed|jetbrains [--agent NAME]... [options]\n"
    "Registers `hashline mcp` as an MCP server of the agent, merging into its config files (other\n"
    "entries are kept; the original is saved as FILE.hashline-backup). Running it again changes\n"
    "nothing. For the ACP clients Zed (settings.json) and JetBrains (~/.jetbrains/acp.json) it "
    "adds\n"
    "an agent_servers entry per ACP agent that starts it as `hashline acp -- AGENT...`.\n\n"
    "options:\n"
    "  --project          the project's files (default; codex has only --user)\n"
    "  --user             the user's files under $HOME (Claude Code: $CLAUDE_CONFIG_DIR)\n"
    "  --local            claude only: this project's entry in the user file (private, no "
    "approval)\n"
    "  --prefer-hashline  also steer the agent to hashline's tools instead of its own file edits\n"
    "  --dry-run          print the diff, write nothing\n"
    "  --undo             remove what setup added at that scope, found by name, command and args\n"
    "                     (byte-exact when the file is unchanged since)\n"
    "  --project-dir DIR  the project (default: the current directory)\n"
    "  --agent NAME       zed, jetbrains: wrap this ACP agent (gemini, claude, codex, opencode,\n"
    "                     goose; repeatable; default: those on PATH)\n"
    "  -h, --help         show this help\n";

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

bool writeFile(const std::string& path, const std::string& bytes) {
  std::error_code ignored;
  fs::create_directories(fs::path(path).parent_path(), ignored);
  std::string temporary = path + ".hashline-tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!(out << bytes) || !out.flush()) return false;
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  return !error;
}

std::string selfPath() {
  std::string self = platform::ownExecutablePath();
  return self.empty() ? std::string("hashline") : self;
}

std::string manifestPath(const std::string& state, const std::string& file) {
  std::string name;
  for (char c : file)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return state + "/setup/" + name + ".json";
}

void printDiff(const std::string& path, const std::string& before, const std::string& after) {
  UnifiedDiffOptions options;
  options.old_label = path;
  options.new_label = path;
  std::string diff = unifiedDiff(before, after, options);
  std::fputs(diff.c_str(), stdout);
}

/// Applies `file`'s entries; returns 0, or 1 with a message on stderr.
int applyFile(const setup::TargetFile& file, const std::string& state, bool dry_run) {
  std::optional<std::string> existing = readFile(file.path);
  std::string before = existing.value_or("");
  setup::EditOutcome outcome;
  if (file.toml) {
    outcome = setup::replaceTomlTable(before, file.toml_table, file.toml_text);
  } else {
    auto merged = file.jsonc ? setup::mergeJsonc(before, file.json_changes)
                             : setup::mergeJson(before, file.json_changes);
    if (auto* problem = std::get_if<std::string>(&merged)) {
      std::fprintf(stderr, "hashline setup: cannot edit %s: %s\n", file.path.c_str(),
                   problem->c_str());
      return 1;
    }
    outcome = std::get<setup::EditOutcome>(merged);
  }
  if (outcome.record.empty()) {
    std::printf("already set up: %s\n", file.path.c_str());
    return 0;
  }
  if (dry_run) {
    printDiff(file.path, before, outcome.text);
    return 0;
  }
  std::string manifest_path = manifestPath(state, file.path);
  OrderedJson manifest;
  if (auto previous = readFile(manifest_path))
    manifest = OrderedJson::parse(*previous, nullptr, false);
  if (!manifest.is_object())
    manifest = {{"path", file.path},
                {"existed", existing.has_value()},
                {"original", before},
                {"record", OrderedJson::array()}};
  // Changed by someone else since hashline wrote it: the original is no longer what undo may put
  // back byte-exact, only hashline's entries can be removed.
  if (manifest.contains("written") && manifest["written"].get<std::string>() != before)
    manifest["byte_exact"] = false;
  for (auto& entry : outcome.record)
    manifest["record"].push_back(entry);
  manifest["toml"] = file.toml;
  manifest["jsonc"] = file.jsonc;
  manifest["toml_table"] = file.toml_table;
  manifest["written"] = outcome.text;
  std::string backup = file.path + ".hashline-backup";
  if (existing && !fs::exists(backup)) {
    if (!writeFile(backup, before)) {
      std::fprintf(stderr, "hashline setup: cannot write %s\n", backup.c_str());
      return 1;
    }
    manifest["made_backup"] = true; // undo removes it once the file is done with
  }
  // The directories this write creates, deepest first: undo removes them when they are empty.
  if (!manifest.contains("created_dirs")) {
    OrderedJson created = OrderedJson::array();
    for (fs::path dir = fs::path(file.path).parent_path(); !dir.empty() && !fs::exists(dir);
         dir = dir.parent_path())
      created.push_back(dir.string());
    manifest["created_dirs"] = created;
  }
  if (!writeFile(manifest_path, manifest.dump(2) + "\n") || !writeFile(file.path, outcome.text)) {
    std::fprintf(stderr, "hashline setup: cannot write %s\n", file.path.c_str());
    return 1;
  }
  std::printf("registered: %s\n", file.path.c_str());
  return 0;
}

/// The record entries of `manifest` that `file` (the plan of one scope) undoes: for JSON those at
/// the key paths the plan sets (the user file of Claude Code holds the user and the local scope's
/// entries, each undone by its own scope), for TOML all.
std::pair<OrderedJson, OrderedJson> splitRecord(const OrderedJson& manifest,
                                                const setup::TargetFile& file) {
  OrderedJson ours = OrderedJson::array(), others = OrderedJson::array();
  for (const auto& entry : manifest["record"]) {
    bool match = file.toml || manifest.value("toml", false);
    for (const auto& change : file.json_changes)
      match = match || (entry.contains("path") && entry["path"] == OrderedJson(change.path));
    (match ? ours : others).push_back(entry);
  }
  return {ours, others};
}

/// Removes what setup left of a finished undo: the backup it made, the directories it created
/// (when empty), then its record, last, so an interrupted undo can be finished by the next one.
void finishUndo(const std::string& path, const OrderedJson& manifest,
                const std::string& manifest_path) {
  std::error_code ignored;
  std::string backup = path + ".hashline-backup";
  if (manifest.value("made_backup", fs::exists(backup, ignored))) fs::remove(backup, ignored);
  for (const auto& dir : manifest.value("created_dirs", OrderedJson::array())) {
    fs::path directory = dir.get<std::string>();
    if (fs::is_directory(directory, ignored) && fs::is_empty(directory, ignored))
      fs::remove(directory, ignored);
  }
  fs::remove(manifest_path, ignored);
}

/// Reverses what setup added to `file.path` at this scope; returns 0, or 1 with a message on
/// stderr (the record is then kept). Entries are found by identity, not bytes: the agent may have
/// rewritten the file since.
int undoFile(const setup::TargetFile& file, const std::string& state, bool dry_run) {
  const std::string& path = file.path;
  std::string manifest_path = manifestPath(state, path);
  auto manifest_text = readFile(manifest_path);
  OrderedJson manifest =
      manifest_text ? OrderedJson::parse(*manifest_text, nullptr, false) : OrderedJson();
  std::optional<std::string> current = readFile(path);
  if (!manifest.is_object()) {
    // No record: say so, and whether an entry of hashline is there all the same.
    bool found = false;
    if (current && !file.toml)
      for (const auto& change : file.json_changes) {
        if (change.add_to_array || !change.value.is_object()) continue;
        OrderedJson record = OrderedJson::array(
            {{{"path", change.path}, {"set", change.value}, {"created_parents", 0}}});
        setup::UnmergeCount count;
        auto unmerged = file.jsonc ? setup::unmergeJsonc(*current, record, &count)
                                   : setup::unmergeJson(*current, record, &count);
        if (unmerged.index() == 0 && count.removed > 0) found = true;
      }
    if (found)
      std::printf("not undone: %s holds hashline's entry, but setup has no record of adding it "
                  "(added by hand, or by another state directory); remove it by hand\n",
                  path.c_str());
    else
      std::printf("nothing left to undo: %s\n", path.c_str());
    return 0;
  }
  auto [ours, others] = splitRecord(manifest, file);
  if (ours.empty()) {
    std::printf("nothing left to undo: %s (setup's other entries there belong to another "
                "scope)\n",
                path.c_str());
    return 0;
  }
  std::string now = current.value_or("");
  const bool all = others.empty();
  const bool existed = manifest["existed"].get<bool>();
  const bool unchanged = current && *current == manifest["written"].get<std::string>() &&
                         manifest.value("byte_exact", true);
  std::string restored;
  setup::UnmergeCount count;
  if (!current) {
    count.gone = ours.size(); // the file is gone, and hashline's entries with it
  } else if (unchanged && all) {
    restored = manifest["original"].get<std::string>();
    count.removed = ours.size();
  } else if (file.toml || manifest.value("toml", false)) {
    restored = setup::restoreTomlTable(now, manifest["toml_table"], ours);
    ++(restored != now ? count.removed : count.gone);
  } else {
    auto unmerged = manifest.value("jsonc", false) ? setup::unmergeJsonc(now, ours, &count)
                                                   : setup::unmergeJson(now, ours, &count);
    if (unmerged.index() == 1) {
      std::fprintf(stderr,
                   "hashline setup: cannot edit %s: %s (nothing undone; fix the file and "
                   "run --undo again)\n",
                   path.c_str(), std::get<1>(unmerged).c_str());
      return 1;
    }
    restored = std::get<0>(unmerged);
  }
  // A file setup created that holds nothing once hashline's entries are out goes too.
  const bool remove_file =
      current && !existed && all && count.removed > 0 &&
      (unchanged || restored.find_first_not_of(" \t\r\n{}") == std::string::npos);
  const bool write = current && count.removed > 0 && !remove_file;
  if (dry_run) {
    if (count.removed > 0)
      printDiff(path, now, remove_file ? std::string() : restored);
    else
      std::printf("nothing to remove from %s (hashline's entries are gone from it)\n",
                  path.c_str());
    return 0;
  }
  std::error_code error;
  if (remove_file && !fs::remove(path, error) && error) {
    std::fprintf(stderr, "hashline setup: cannot remove %s: %s (the record is kept)\n",
                 path.c_str(), error.message().c_str());
    return 1;
  }
  if (write && !writeFile(path, restored)) {
    std::fprintf(stderr, "hashline setup: cannot write %s (the record is kept)\n", path.c_str());
    return 1;
  }
  if (all) {
    finishUndo(path, manifest, manifest_path);
  } else { // the other scope's entries stay recorded, against the file as it is now
    manifest["record"] = others;
    if (write) manifest["written"] = restored;
    if (!writeFile(manifest_path, manifest.dump(2) + "\n")) {
      std::fprintf(stderr, "hashline setup: cannot write %s\n", manifest_path.c_str());
      return 1;
    }
  }
  if (count.removed > 0)
    std::printf("removed hashline from: %s%s\n", path.c_str(),
                remove_file        ? " (setup had created it: file removed)"
                : unchanged && all ? " (restored byte-exact)"
                                   : "");
  else if (count.gone > 0)
    std::printf("hashline's entries were already gone from %s: the undo is finished%s\n",
                path.c_str(), all ? " (backup and record removed)" : "");
  if (count.foreign > 0)
    std::printf("note: %s holds another value than setup wrote at %zu of its keys (another "
                "command or args): left as is\n",
                path.c_str(), count.foreign);
  return 0;
}

} // namespace

int runSetupCommand(std::vector<std::string> raw) {
  Arguments args(std::move(raw));
  std::string agent, project_dir, acp_agent;
  std::vector<std::string> acp_agents;
  std::optional<setup::Scope> scope;
  bool prefer = false, dry_run = false, undo = false;
  while (!args.done()) {
    if (args.flag("-h") || args.flag("--help")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (args.flag("--project")) {
      scope = setup::Scope::Project;
    } else if (args.flag("--user")) {
      scope = setup::Scope::User;
    } else if (args.flag("--local")) {
      scope = setup::Scope::Local;
    } else if (args.flag("--prefer-hashline")) {
      prefer = true;
    } else if (args.flag("--dry-run")) {
      dry_run = true;
    } else if (args.flag("--undo")) {
      undo = true;
    } else if (args.option("--project-dir", project_dir)) {
    } else if (args.option("--agent", acp_agent)) {
      acp_agents.push_back(acp_agent);
    } else if (agent.empty() && args.peek().rfind("-", 0) != 0) {
      agent = args.take();
    } else {
      std::fprintf(stderr, "hashline setup: unknown argument '%s'\n\n%s", args.take().c_str(),
                   kUsage);
      return 2;
    }
  }
  if (!args.error.empty() || agent.empty()) {
    std::fprintf(stderr, "hashline setup: %s\n\n%s",
                 args.error.empty() ? "which agent?" : args.error.c_str(), kUsage);
    return 2;
  }
  // Absolute and without symlinks: the key Claude Code files a project under, and one name per
  // file for the undo record.
  std::error_code error;
  fs::path absolute =
      fs::absolute(project_dir.empty() ? fs::current_path() : fs::path(project_dir));
  fs::path canonical = fs::weakly_canonical(absolute, error);
  project_dir = (error ? absolute.lexically_normal() : canonical).string();
  while (project_dir.size() > 1 && project_dir.back() == '/')
    project_dir.pop_back();
  const char* home = std::getenv("HOME");
  const auto& clients = setup::acpClientNames();
  const bool acp_client = std::find(clients.begin(), clients.end(), agent) != clients.end();
  if (!acp_agents.empty() && !acp_client) {
    std::fprintf(stderr, "hashline setup: --agent is for zed and jetbrains\n\n%s", kUsage);
    return 2;
  }
  std::variant<setup::TargetPlan, std::string> plan;
  if (acp_client) {
    // --undo finds every agent's entry, whatever is on PATH now.
    const char* path = std::getenv("PATH");
    auto agents = undo ? std::variant<std::vector<setup::AcpAgent>, std::string>(setup::acpAgents())
                       : setup::selectAcpAgents(acp_agents, path ? path : "");
    if (auto* problem = std::get_if<std::string>(&agents)) {
      std::fprintf(stderr, "hashline setup: %s\n", problem->c_str());
      return 2;
    }
    plan = *setup::planForAcpClient(agent, scope.value_or(setup::Scope::User),
                                    std::get<std::vector<setup::AcpAgent>>(agents), selfPath(),
                                    home ? home : "");
  } else {
    // --undo undoes --prefer-hashline's files as well: plan with it so every file is visited.
    plan = setup::planFor(agent, scope.value_or(setup::defaultScope(agent)), prefer || undo,
                          selfPath(), project_dir, home ? home : "");
  }
  if (auto* problem = std::get_if<std::string>(&plan)) {
    std::fprintf(stderr, "hashline setup: %s\n", problem->c_str());
    return 2;
  }
  auto state = disk::stateDirectory();
  if (!state.ok()) {
    std::fprintf(stderr, "hashline setup: no state directory: %s\n", state.error().message.c_str());
    return 1;
  }
  int status = 0;
  for (const auto& file : std::get<setup::TargetPlan>(plan).files) {
    int result =
        undo ? undoFile(file, state.value(), dry_run) : applyFile(file, state.value(), dry_run);
    status = std::max(status, result);
  }
  // Setup run before CLAUDE_CONFIG_DIR was set changed ~/.claude.json, which this undo (reading
  // the variable, as Claude does) does not visit: say how to undo that too.
  std::string home_file = std::string(home ? home : "") + "/.claude.json";
  if (undo && agent == "claude" && scope.value_or(setup::Scope::Project) != setup::Scope::Project &&
      setup::claudeUserFile(home ? home : "") != home_file &&
      fs::exists(manifestPath(state.value(), home_file)))
    std::printf("note: setup also changed %s (before CLAUDE_CONFIG_DIR was set); undo that with: "
                "env -u CLAUDE_CONFIG_DIR hashline setup claude %s --undo\n",
                home_file.c_str(), *scope == setup::Scope::Local ? "--local" : "--user");
  if (!undo)
    for (const auto& note : std::get<setup::TargetPlan>(plan).notes)
      std::printf("note: %s\n", note.c_str());
  return status;
}

} // namespace hashline::cli
