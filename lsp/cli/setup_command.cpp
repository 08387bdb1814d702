// `hashline setup`: arguments, the merge per file, backup, manifest and undo; see setup_command.h.
#include "lsp/cli/setup_command.h"

#include "engine/diff/unified_diff.h"
#include "lsp/cli/arguments.h"
#include "lsp/cli/setup_targets.h"
#include "lsp/disk/state_dir.h"

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
    "Registers `hashline mcp` as an MCP server of the agent, merging into its config files (other\n"
    "entries are kept; the original is saved as FILE.hashline-backup). Running it again changes\n"
    "nothing.\n\n"
    "options:\n"
    "  --project          the project's files (default; codex has only --user)\n"
    "  --user             the user's files under $HOME\n"
    "  --prefer-hashline  also steer the agent to hashline's tools instead of its own file edits\n"
    "  --dry-run          print the diff, write nothing\n"
    "  --undo             remove what setup added (byte-exact when the file is unchanged since)\n"
    "  --project-dir DIR  the project (default: the current directory)\n"
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
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("hashline") : self.string();
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
    auto merged = setup::mergeJson(before, file.json_changes);
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
  manifest["toml_table"] = file.toml_table;
  manifest["written"] = outcome.text;
  std::string backup = file.path + ".hashline-backup";
  if (existing && !fs::exists(backup) && !writeFile(backup, before)) {
    std::fprintf(stderr, "hashline setup: cannot write %s\n", backup.c_str());
    return 1;
  }
  if (!writeFile(manifest_path, manifest.dump(2) + "\n") || !writeFile(file.path, outcome.text)) {
    std::fprintf(stderr, "hashline setup: cannot write %s\n", file.path.c_str());
    return 1;
  }
  std::printf("registered: %s\n", file.path.c_str());
  return 0;
}

/// Reverses what setup added to `path`; returns 0, or 1 with a message on stderr.
int undoFile(const std::string& path, const std::string& state, bool dry_run) {
  std::string manifest_path = manifestPath(state, path);
  auto manifest_text = readFile(manifest_path);
  OrderedJson manifest =
      manifest_text ? OrderedJson::parse(*manifest_text, nullptr, false) : OrderedJson();
  if (!manifest.is_object()) {
    std::printf("nothing to undo: %s\n", path.c_str());
    return 0;
  }
  std::optional<std::string> current = readFile(path);
  std::string now = current.value_or("");
  bool unchanged = current && *current == manifest["written"].get<std::string>() &&
                   manifest.value("byte_exact", true);
  bool existed = manifest["existed"].get<bool>();
  std::string restored;
  if (unchanged) {
    restored = manifest["original"].get<std::string>();
  } else if (manifest["toml"].get<bool>()) {
    restored = setup::restoreTomlTable(now, manifest["toml_table"], manifest["record"]);
  } else {
    auto unmerged = setup::unmergeJson(now, manifest["record"]);
    if (unmerged.index() == 1) {
      std::fprintf(stderr, "hashline setup: cannot edit %s: %s\n", path.c_str(),
                   std::get<1>(unmerged).c_str());
      return 1;
    }
    restored = std::get<0>(unmerged);
  }
  if (dry_run) {
    printDiff(path, now, unchanged && !existed ? std::string() : restored);
    return 0;
  }
  std::error_code ignored;
  if (unchanged && !existed) {
    fs::remove(path, ignored);
  } else if (!writeFile(path, restored)) {
    std::fprintf(stderr, "hashline setup: cannot write %s\n", path.c_str());
    return 1;
  }
  if (unchanged) fs::remove(path + ".hashline-backup", ignored);
  fs::remove(manifest_path, ignored);
  std::printf("removed hashline from: %s%s\n", path.c_str(),
              unchanged ? " (restored byte-exact)" : "");
  return 0;
}

} // namespace

int runSetupCommand(std::vector<std::string> raw) {
  Arguments args(std::move(raw));
  std::string agent, project_dir;
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
    } else if (args.flag("--prefer-hashline")) {
      prefer = true;
    } else if (args.flag("--dry-run")) {
      dry_run = true;
    } else if (args.flag("--undo")) {
      undo = true;
    } else if (args.option("--project-dir", project_dir)) {
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
  if (project_dir.empty()) project_dir = fs::current_path().string();
  const char* home = std::getenv("HOME");
  // --undo undoes --prefer-hashline's files as well: plan with it so every file is visited.
  auto plan = setup::planFor(agent, scope.value_or(setup::defaultScope(agent)), prefer || undo,
                             selfPath(), project_dir, home ? home : "");
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
    int result = undo ? undoFile(file.path, state.value(), dry_run)
                      : applyFile(file, state.value(), dry_run);
    status = std::max(status, result);
  }
  if (!undo)
    for (const auto& note : std::get<setup::TargetPlan>(plan).notes)
      std::printf("note: %s\n", note.c_str());
  return status;
}

} // namespace hashline::cli
