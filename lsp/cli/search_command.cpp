// The `search` subcommand; see search_command.h.
#include "lsp/cli/search_command.h"

#include "lsp/cli/agent_commands.h"
#include "lsp/cli/arguments.h"
#include "lsp/disk/workspace_roots.h"

#include <cstdio>
#include <sstream>

namespace hashline::cli {

using nlohmann::json;

namespace {

constexpr const char* kUsage =
    "usage: hashline search PATTERN [PATH...] [--literal|-F] [--ignore-case|-i]\n"
    "                       [--glob G]... [--max-hits N] [--max-bytes B] [--tier "
    "line|block|chain]\n"
    "Finds lines matching PATTERN (an RE2 regular expression; a plain text with --literal) in the\n"
    "workspace: files open in the editor are searched in their live text (unsaved typing\n"
    "included), every other file on disk (.gitignore'd, binary and .git/ files skipped). PATHs\n"
    "(files or directories inside the workspace) narrow the search; --glob G keeps files matching\n"
    "G (`*.cpp`, `src/**`; `!G` drops them; repeatable). Each hit is an anchored row\n"
    "`LINE:LLL:BBB→text` under its file's version, recorded for the session as a read of that\n"
    "line: edit from it directly, no read needed. At most --max-hits rows (default 200) and\n"
    "--max-bytes of row text (default 1M) are printed; past that the answer says it was cut.\n"
    "Use -e PATTERN (or -- PATTERN) for a pattern that starts with '-'.\n";

std::string relativeName(const json& file, const std::string& base_dir) {
  std::string path = file.value("path", std::string());
  if (path.empty()) return file.value("uri", std::string("?"));
  if (!base_dir.empty() && path.size() > base_dir.size() + 1 && path.rfind(base_dir + "/", 0) == 0)
    return path.substr(base_dir.size() + 1);
  return path;
}

} // namespace

std::string renderSearch(const json& result, const std::string& base_dir) {
  std::ostringstream out;
  for (const json& file : result.value("files", json::array())) {
    out << "# " << relativeName(file, base_dir) << "  version "
        << file.value("version", json()).dump() << "  tier " << file.value("tier", std::string("?"))
        << "  (" << file.value("backend", std::string("?")) << ")\n";
    for (const json& row : file.value("lines", json::array()))
      out << row.value("anchor", std::string()) << "\xE2\x86\x92"
          << row.value("text", std::string()) << "\n";
  }
  const std::size_t hits = result.value("hitCount", std::size_t(0));
  const std::size_t files = result.value("fileCount", std::size_t(0));
  out << "# " << hits << (hits == 1 ? " hit" : " hits") << " in " << files
      << (files == 1 ? " file" : " files");
  if (result.contains("searched")) {
    const json& searched = result["searched"];
    out << " (" << searched.value("files", 0) << " files on disk, "
        << searched.value("openDocuments", 0) << " open documents searched)";
  }
  out << "\n";
  if (result.value("truncated", false)) {
    out << "# truncated: " << result.value("note", std::string()) << "\n";
    out << "# hint: " << result.value("hint", std::string()) << "\n";
  }
  return out.str();
}

int runSearchCommand(std::vector<std::string> raw) {
  GlobalOptions global;
  Arguments args(std::move(raw));
  json params = json::object();
  std::vector<std::string> positionals;
  std::optional<std::string> pattern;
  json globs = json::array();
  bool only_positionals = false;
  auto problem = [](const std::string& text) { return subcommandUsage("search", kUsage, text); };
  while (!args.done()) {
    if (only_positionals) {
      positionals.push_back(args.take());
      continue;
    }
    std::string value;
    if (args.flag("--")) {
      only_positionals = true;
      continue;
    }
    if (args.flag("-h") || args.flag("--help")) return problem("help");
    if (takeGlobalOption(args, global)) {
      if (!args.error.empty()) return problem(args.error);
      continue;
    }
    if (args.flag("--literal") || args.flag("-F") || args.flag("--fixed-strings")) {
      params["literal"] = true;
    } else if (args.flag("--ignore-case") || args.flag("-i")) {
      params["ignore_case"] = true;
    } else if (args.option("-e", value) || args.option("--regexp", value)) {
      pattern = value;
    } else if (args.option("--glob", value) || args.option("-g", value)) {
      globs.push_back(value);
    } else if (args.option("--tier", value)) {
      params["tier"] = value;
    } else if (args.option("--max-hits", value)) {
      auto number = parseInteger(value);
      if (!number || *number < 1)
        return problem("--max-hits takes a count >= 1, not '" + value + "'");
      params["max_hits"] = *number;
    } else if (args.option("--max-bytes", value)) {
      auto number = parseByteSize(value);
      if (!number)
        return problem("--max-bytes takes a size (1048576, 512k, 4M), not '" + value + "'");
      params["max_bytes"] = *number;
    } else if (!args.error.empty()) {
      return problem(args.error);
    } else {
      const std::string& next = args.peek();
      if (next.size() > 1 && next[0] == '-') return problem("unknown option '" + next + "'");
      positionals.push_back(args.take());
    }
    if (!args.error.empty()) return problem(args.error);
  }
  if (!pattern) {
    if (positionals.empty()) return problem("missing PATTERN");
    pattern = positionals.front();
    positionals.erase(positionals.begin());
  }
  params["pattern"] = *pattern;
  if (!globs.empty()) params["globs"] = std::move(globs);
  if (!positionals.empty()) {
    // Relative paths name what the shell sees: make them absolute here.
    auto cwd = disk::currentDirectory();
    json paths = json::array();
    for (const std::string& path : positionals)
      paths.push_back(path.empty() || path[0] == '/' || !cwd ? path : *cwd + "/" + path);
    params["paths"] = std::move(paths);
  }
  return runServiceCall("search", "search", std::move(params), global);
}

} // namespace hashline::cli
