// The `diagnostics` subcommand and the text of diagnostics; see diagnostics_command.h.
#include "lsp/cli/diagnostics_command.h"

#include "lsp/cli/agent_commands.h"
#include "lsp/cli/arguments.h"
#include "lsp/disk/workspace_roots.h"

namespace hashline::cli {

using nlohmann::json;

namespace {

constexpr const char* kUsage =
    "usage: hashline diagnostics [PATH] [--severity error|warning|information|hint]\n"
    "Lists the diagnostics the editor's own language servers report (clangd, pyright, tsserver,\n"
    "...) for PATH, or for every file they reported on, at SEVERITY or worse (default: all).\n"
    "They are what the editor holds now, unsaved text included, forwarded by the hashline plugin\n"
    "(Neovim, VS Code); each is an anchored row `LINE:LLL:BBB severity source: message`, recorded\n"
    "for the session like a read of that line, so an edit can follow directly. Without an editor\n"
    "(or a plugin that forwards them) the answer says none are available.\n"
    "Edits wait for the diagnostics of the version they produce and report what they introduced\n"
    "and removed: --diagnostics-wait MS (default 500) or --no-diagnostics on any edit command.\n";

std::string relativeName(const json& file, const std::string& base_dir) {
  std::string path = file.value("path", std::string());
  if (path.empty()) return file.value("uri", std::string("?"));
  if (!base_dir.empty() && path.size() > base_dir.size() + 1 && path.rfind(base_dir + "/", 0) == 0)
    return path.substr(base_dir.size() + 1);
  return path;
}

std::string countsText(const json& counts) {
  std::string out;
  for (const char* name : {"error", "warning", "information", "hint"}) {
    const int count = counts.is_object() ? counts.value(name, 0) : 0;
    if (count == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::to_string(count) + " " + name + (count == 1 ? "" : "s");
  }
  return out.empty() ? "none" : out;
}

} // namespace

std::string renderDiagnosticsList(const json& result, const std::string& base_dir) {
  std::ostringstream out;
  if (!result.value("available", false)) {
    out << "no diagnostics available: " << result.value("note", std::string()) << "\n";
    return out.str();
  }
  std::size_t total = 0;
  for (const json& file : result.value("files", json::array())) {
    out << "# " << relativeName(file, base_dir);
    if (file.contains("version")) out << "  version " << file["version"].dump();
    out << "  (" << countsText(file.value("counts", json::object())) << ")\n";
    for (const json& item : file.value("diagnostics", json::array())) {
      out << item.value("row", std::string()) << "\n";
      ++total;
    }
  }
  out << "# " << total << (total == 1 ? " diagnostic" : " diagnostics") << "\n";
  if (result.contains("note")) out << "# note: " << result["note"].get<std::string>() << "\n";
  if (result.contains("hint")) out << "# hint: " << result["hint"].get<std::string>() << "\n";
  return out.str();
}

void appendEditDiagnostics(std::ostringstream& out, const json& result, const std::string& indent) {
  auto it = result.find("diagnostics");
  if (it == result.end() || !it->is_object()) return;
  const json& d = *it;
  if (d.contains("available") && !d.value("available", true)) {
    out << indent << "diagnostics: " << d.value("note", std::string("not available")) << "\n";
    return;
  }
  const json introduced = d.value("introduced", json::array());
  const json removed = d.value("removed", json::array());
  out << indent << "diagnostics" << (d.value("settled", false) ? " (settled" : " (not settled")
      << " after " << d.value("waitedMs", 0) << " ms): " << introduced.size() << " introduced, "
      << removed.size() << " removed; now " << countsText(d.value("counts", json::object()))
      << "\n";
  for (const json& item : introduced)
    out << indent << "  + " << item.value("row", std::string()) << "\n";
  for (const json& item : removed)
    out << indent << "  - " << item.value("row", std::string()) << " (line before the edit)\n";
  if (d.contains("more"))
    out << indent << "  (" << d["more"].value("introduced", 0) << " more introduced, "
        << d["more"].value("removed", 0) << " more removed: hashline diagnostics PATH)\n";
  if (d.contains("note")) out << indent << "  note: " << d["note"].get<std::string>() << "\n";
}

int runDiagnosticsCommand(std::vector<std::string> raw) {
  GlobalOptions global;
  Arguments args(std::move(raw));
  json params = json::object();
  std::vector<std::string> positionals;
  auto problem = [](const std::string& text) {
    return subcommandUsage("diagnostics", kUsage, text);
  };
  while (!args.done()) {
    std::string value;
    if (args.flag("-h") || args.flag("--help")) return problem("help");
    if (takeGlobalOption(args, global)) {
      if (!args.error.empty()) return problem(args.error);
      continue;
    }
    if (args.option("--severity", value)) {
      params["severity"] = value;
    } else if (!args.error.empty()) {
      return problem(args.error);
    } else {
      const std::string& next = args.peek();
      if (next.size() > 1 && next[0] == '-') return problem("unknown option '" + next + "'");
      positionals.push_back(args.take());
    }
    if (!args.error.empty()) return problem(args.error);
  }
  if (positionals.size() > 1) return problem("give at most one PATH");
  if (!positionals.empty()) {
    const std::string& path = positionals.front();
    auto cwd = disk::currentDirectory();
    params["path"] = path.empty() || path[0] == '/' || !cwd ? path : *cwd + "/" + path;
  }
  return runServiceCall("diagnostics", "diagnostics", std::move(params), global);
}

} // namespace hashline::cli
