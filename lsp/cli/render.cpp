// Human-readable text for service results; see render.h.
#include "lsp/cli/render.h"

#include "lsp/cli/context_command.h"
#include "lsp/cli/diagnostics_command.h"
#include "lsp/cli/journal_commands.h"
#include "lsp/cli/search_command.h"
#include "lsp/journal/journal_service.h"

#include <sstream>

namespace hashline::cli {

using nlohmann::json;

namespace {

std::string scalar(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "?";
  return value.dump();
}

std::string nameOf(const json& result, const std::string& base_dir) {
  if (result.contains("path") && result["path"].is_string()) {
    std::string path = result["path"];
    if (!base_dir.empty() && path.size() > base_dir.size() + 1 &&
        path.compare(0, base_dir.size(), base_dir) == 0 && path[base_dir.size()] == '/')
      return path.substr(base_dir.size() + 1);
    return path;
  }
  if (result.contains("uri") && result["uri"].is_string()) return result["uri"];
  return "?";
}

void appendRows(std::ostringstream& out, const json& rows, const std::string& indent) {
  if (!rows.is_array()) return;
  for (const auto& row : rows)
    out << indent << scalar(row.value("anchor", json())) << "\xE2\x86\x92"
        << row.value("text", std::string()) << "\n";
}

void appendDiff(std::ostringstream& out, const json& result) {
  std::string diff = result.value("diff", std::string());
  if (diff.empty()) return;
  out << diff;
  if (diff.back() != '\n') out << "\n";
}

std::string renderRead(const json& result, const std::string& base_dir) {
  std::ostringstream out;
  out << "# " << nameOf(result, base_dir) << "  version " << scalar(result.value("version", json()))
      << "  tier " << result.value("tier", std::string("?")) << "  lines "
      << scalar(result.value("from", json())) << "-" << scalar(result.value("to", json())) << " of "
      << scalar(result.value("lineCount", json())) << "\n";
  std::string text = result.value("text", std::string());
  if (!text.empty()) {
    out << text;
    if (text.back() != '\n') out << "\n";
  } else {
    appendRows(out, result.value("lines", json::array()), "");
  }
  return out.str();
}

/// A read of one symbol: the symbol's line, then the read.
std::string renderSymbolRead(const json& result, const std::string& base_dir) {
  const json symbol = result.value("symbol", json::object());
  return "# symbol " + symbol.value("qualifiedName", std::string("?")) + "  " +
         symbol.value("kind", std::string()) + "\n" + renderRead(result, base_dir);
}

std::string renderOutline(const json& result, const std::string& base_dir) {
  std::ostringstream out;
  out << "# " << nameOf(result, base_dir) << "  version " << scalar(result.value("version", json()))
      << "  " << result.value("symbols", json::array()).size() << " symbols";
  if (result.contains("server")) out << "  (" << scalar(result["server"]) << ")";
  out << "\n" << result.value("rows", std::string());
  if (result.contains("dropped")) out << "(" << scalar(result["dropped"]) << " more not listed)\n";
  return out.str();
}

std::string renderEdit(const std::string& method, const json& result, const std::string& base_dir) {
  std::ostringstream out;
  bool preview = result.value("status", std::string()) == "preview";
  if (result.contains("files")) { // patch
    out << (preview ? "preview of patch (nothing written)" : "applied patch") << ":\n";
    for (const auto& file : result["files"]) {
      out << "  " << file.value("path", std::string("?"));
      if (file.contains("kind")) out << "  " << scalar(file["kind"]);
      if (file.contains("movedTo")) out << " \xE2\x86\x92 " << scalar(file["movedTo"]);
      if (file.contains("backend")) out << "  (" << scalar(file["backend"]) << ")";
      if (file.contains("version")) out << "  version " << scalar(file["version"]);
      out << "\n";
      if (file.contains("anchors")) appendRows(out, file["anchors"], "    ");
      appendEditDiagnostics(out, file, "    ");
    }
    appendDiff(out, result);
    return out.str();
  }
  if (preview)
    out << "preview of " << method << " on " << nameOf(result, base_dir) << " at version "
        << scalar(result.value("version", json())) << " (nothing written)\n";
  else
    out << "applied " << method << " to " << nameOf(result, base_dir) << ": version "
        << scalar(result.value("versionBefore", json())) << " \xE2\x86\x92 "
        << scalar(result.value("version", json())) << " ("
        << result.value("backend", std::string("?")) << ")\n";
  if (result.contains("rebased") && result["rebased"].is_array() && !result["rebased"].empty()) {
    out << "rebased:";
    for (const auto& rebase : result["rebased"])
      out << " " << scalar(rebase.value("from", json())) << " \xE2\x86\x92 "
          << scalar(rebase.value("to", json()));
    out << "\n";
  }
  if (result.contains("warnings"))
    for (const auto& warning : result["warnings"])
      out << "warning: " << scalar(warning) << "\n";
  if (result.contains("anchors") && !result["anchors"].empty()) {
    out << "fresh anchors:\n";
    appendRows(out, result["anchors"], "  ");
  }
  appendEditDiagnostics(out, result, "");
  appendDiff(out, result);
  return out.str();
}

std::string renderStatus(const json& result) {
  std::ostringstream out;
  out << "hashline " << result.value("version", std::string("?")) << "  mode "
      << result.value("mode", std::string("?"));
  if (result.contains("pid")) out << "  pid " << scalar(result["pid"]);
  out << "\n";
  if (result.contains("workspaceRoots"))
    for (const auto& root : result["workspaceRoots"])
      out << "root: " << scalar(root) << "\n";
  if (result.contains("encoding")) out << "encoding: " << scalar(result["encoding"]) << "\n";
  if (result.contains("tier")) out << "tier: " << scalar(result["tier"]) << "\n";
  if (result.contains("claudeIde") && result["claudeIde"].is_object() &&
      result["claudeIde"].value("enabled", false)) {
    const json& ide = result["claudeIde"];
    out << "claude ide: 127.0.0.1:" << scalar(ide.value("port", json()));
    const json clients = ide.value("clients", json::array());
    if (!clients.is_array() || clients.empty()) out << ", no Claude Code connected";
    for (const auto& client : clients.is_array() ? clients : json::array())
      if (client.is_object())
        out << ", connected: Claude Code " << scalar(client.value("version", json())) << " (pid "
            << scalar(client.value("pid", json())) << ")";
    out << "\n";
  }
  if (result.contains("session"))
    out << "session: " << scalar(result["session"].value("id", json())) << " ("
        << scalar(result["session"].value("observedDocuments", json())) << " documents read)\n";
  if (result.contains("documents") && result.value("mode", std::string()) == "editor") {
    out << "open documents: " << result["documents"].size() << "\n";
    for (const auto& document : result["documents"]) {
      out << "  " << scalar(document.value("uri", json())) << "  version "
          << scalar(document.value("version", json())) << "  "
          << scalar(document.value("lineCount", json())) << " lines";
      if (document.value("desynced", false)) out << "  DESYNCED";
      out << "\n";
    }
  }
  return out.str();
}

} // namespace

bool isRefusal(const json& result) {
  return result.is_object() && result.value("status", std::string()) == "refused";
}

std::string renderRefusal(const json& result) {
  const json error = result.value("error", json::object());
  std::ostringstream out;
  out << error.value("code", std::string("ERROR")) << ": " << error.value("message", std::string())
      << "\n";
  std::string hint = error.value("hint", std::string());
  if (!hint.empty()) out << "hint: " << hint << "\n";
  const json data = error.value("data", json::object());
  if (data.contains("suggestion")) out << "suggestion: " << scalar(data["suggestion"]) << "\n";
  if (data.contains("candidateLines")) {
    out << "candidate lines:";
    for (const auto& line : data["candidateLines"])
      out << " " << scalar(line);
    out << "\n";
  }
  if (data.contains("notes"))
    for (const auto& note : data["notes"])
      out << "note: " << scalar(note) << "\n";
  if (data.contains("currentText")) out << "current text: " << scalar(data["currentText"]) << "\n";
  if (data.contains("freshAnchors")) {
    out << "fresh anchors:\n";
    appendRows(out, data["freshAnchors"], "  ");
  }
  return out.str();
}

std::string renderWarning(const json& result) {
  if (!result.is_object() || !result.contains("warning") || !result["warning"].is_object())
    return "";
  const json& warning = result["warning"];
  std::string text = "warning: " + warning.value("code", std::string("WARNING")) + ": " +
                     warning.value("message", std::string()) + "\n";
  std::string hint = warning.value("hint", std::string());
  if (!hint.empty()) text += "hint: " + hint + "\n";
  return text;
}

std::string renderResult(const std::string& method, const json& result,
                         const std::string& base_dir) {
  if (isRefusal(result)) return renderRefusal(result);
  if (method == "read") return renderRead(result, base_dir);
  if (method == "symbol") return renderSymbolRead(result, base_dir);
  if (method == "outline") return renderOutline(result, base_dir);
  if (method == "search") return renderSearch(result, base_dir);
  if (method == "diagnostics") return renderDiagnosticsList(result, base_dir);
  if (method == "context") return renderContext(result, base_dir);
  if (method == "status") return renderStatus(result);
  if (lsp::JournalService::handles(method)) return renderJournalResult(method, result);
  std::string status = result.value("status", std::string());
  if (status == "applied" || status == "preview") return renderEdit(method, result, base_dir);
  return result.dump(2) + "\n"; // journal methods and anything new: the object itself
}

} // namespace hashline::cli
