// The `context` subcommand and its text; see context_command.h.
#include "lsp/cli/context_command.h"

#include "lsp/cli/agent_commands.h"
#include "lsp/cli/arguments.h"

#include <sstream>

namespace hashline::cli {

using nlohmann::json;

namespace {

constexpr const char* kUsage =
    "usage: hashline context\n"
    "Shows what the user has selected and sees in the editor, as the hashline plugin (Neovim,\n"
    "VS Code) reports it: the focused file with its selection (its text, and its lines as\n"
    "anchored rows LINE:LLL:BBB→text, counted as read so an edit can follow), the latest\n"
    "non-empty selection when there is none now, and the visible files with their line spans.\n"
    "Without an editor (or with sharing turned off) the answer says none is available.\n";

std::string nameOf(const json& document, const std::string& base_dir) {
  std::string path = document.value("path", std::string());
  if (path.empty()) return document.value("uri", std::string("?"));
  if (!base_dir.empty() && path.size() > base_dir.size() + 1 && path.rfind(base_dir + "/", 0) == 0)
    return path.substr(base_dir.size() + 1);
  return path;
}

std::string spot(const json& position) {
  return std::to_string(position.value("line", 0)) + ":" +
         std::to_string(position.value("character", 0));
}

void appendSelection(std::ostringstream& out, const json& selection) {
  if (selection.value("empty", false)) {
    out << "  cursor at " << spot(selection["from"]) << "\n";
  } else {
    out << "  selection " << spot(selection["from"]) << "–" << spot(selection["to"]) << "\n";
  }
  if (selection.contains("rows") && !selection.value("empty", false)) {
    std::istringstream rows(selection["rows"].get<std::string>());
    for (std::string row; std::getline(rows, row);)
      out << "  " << row << "\n";
  }
  if (selection.contains("note")) out << "  note: " << selection["note"].get<std::string>() << "\n";
  if (selection.value("truncated", false))
    out << "  (cut; " << selection.value("hint", std::string()) << ")\n";
}

} // namespace

std::string renderContext(const json& result, const std::string& base_dir) {
  std::ostringstream out;
  if (!result.value("available", false)) {
    out << "no editor context available: " << result.value("note", std::string()) << "\n";
    return out.str();
  }
  const json& active = result["active"];
  if (active.is_object()) {
    out << "focused: " << nameOf(active, base_dir) << "  version "
        << active.value("documentVersion", 0) << "\n";
    for (const json& selection : active.value("selections", json::array()))
      appendSelection(out, selection);
    if (active.contains("note")) out << "  note: " << active["note"].get<std::string>() << "\n";
  } else {
    out << "focused: no file of the workspace\n";
  }
  if (result.contains("latestSelection")) {
    const json& latest = result["latestSelection"];
    out << "latest selection: " << nameOf(latest, base_dir) << " (" << latest.value("ageMs", 0)
        << " ms ago)\n";
    appendSelection(out, latest["selection"]);
  }
  for (const json& document : result.value("visible", json::array())) {
    out << "visible: " << nameOf(document, base_dir);
    for (const json& range : document.value("ranges", json::array()))
      out << "  " << range.value("from", 0) << "–" << range.value("to", 0);
    out << "\n";
  }
  return out.str();
}

int runContextCommand(std::vector<std::string> raw) {
  GlobalOptions global;
  Arguments args(std::move(raw));
  auto problem = [](const std::string& text) { return subcommandUsage("context", kUsage, text); };
  while (!args.done()) {
    if (args.flag("-h") || args.flag("--help")) return problem("help");
    if (takeGlobalOption(args, global)) {
      if (!args.error.empty()) return problem(args.error);
      continue;
    }
    return problem("unexpected argument '" + args.peek() + "'");
  }
  return runServiceCall("context", "context", json::object(), global);
}

} // namespace hashline::cli
