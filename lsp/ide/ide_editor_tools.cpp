// openFile and saveDocument through the editor; see ide_editor_tools.h.
#include "lsp/ide/ide_editor_tools.h"

#include "engine/support/error.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/ide/ide_open_diff.h"
#include "lsp/server/lsp_server.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"

#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

using nlohmann::json;

namespace {

json textContent(const std::string& text) {
  return {{"content", json::array({{{"type", "text"}, {"text", text}}})}};
}

json jsonContent(const json& body) {
  return textContent(body.dump());
}

/// The file a tool names, resolved inside the workspace; the tool error otherwise.
std::optional<disk::ResolvedPath> resolve(LspServer& server, const json& arguments,
                                          const char* tool, json& error) {
  if (!arguments.is_object() || !arguments.contains("filePath") ||
      !arguments["filePath"].is_string() || arguments["filePath"].get<std::string>().empty()) {
    error = ideToolError("INVALID_ARGUMENTS", std::string(tool) + " needs filePath",
                         "pass the file's path");
    return std::nullopt;
  }
  auto roots = disk::WorkspaceRoots::make(server.workspaceRoots());
  if (!roots) {
    error = ideToolError("OUTSIDE_WORKSPACE", "no workspace folder",
                         "open a workspace folder in the editor");
    return std::nullopt;
  }
  auto where = roots->resolve(arguments["filePath"].get<std::string>());
  if (!where) {
    error = ideToolError(errorCodeName(where.error().code), where.error().message,
                         std::string(tool) + " takes files inside the editor's workspace");
    return std::nullopt;
  }
  return *where;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

/// The 0-based lines from the first holding `start_text` to the first at or after it holding
/// `end_text` (the start line alone without one); nullopt when start_text is not there.
std::optional<std::pair<std::size_t, std::size_t>> spanOf(const std::vector<std::string>& lines,
                                                          const std::string& start_text,
                                                          const std::string& end_text) {
  for (std::size_t first = 0; first < lines.size(); ++first) {
    if (lines[first].find(start_text) == std::string::npos) continue;
    if (end_text.empty()) return std::pair(first, first);
    for (std::size_t last = first; last < lines.size(); ++last)
      if (lines[last].find(end_text) != std::string::npos) return std::pair(first, last);
    return std::pair(first, first);
  }
  return std::nullopt;
}

std::string stringArgument(const json& arguments, const char* name) {
  auto it = arguments.find(name);
  return it != arguments.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

void IdeEditorTools::openFile(const json& arguments, Answer answer) {
  json error;
  std::optional<disk::ResolvedPath> where = resolve(server_, arguments, "openFile", error);
  if (!where) return answer(std::move(error));
  // The text the editor shows: its buffer when open, else the disk's.
  std::string text;
  if (const OpenDocument* open = server_.documents().findByPath(where->real_path))
    text = open->document.text().toString();
  else if (auto bytes = disk::readFileBytes(where->real_path))
    text = bytes->bytes;
  else
    return answer(ideToolError(errorCodeName(bytes.error().code), bytes.error().message,
                               "openFile opens files that exist"));
  const std::vector<std::string> lines = linesOf(text);
  json params = {{"uri", pathToFileUri(where->real_path)},
                 {"takeFocus", arguments.value("makeFrontmost", true)}};
  const std::string start_text = stringArgument(arguments, "startText");
  if (!start_text.empty())
    if (auto span = spanOf(lines, start_text, stringArgument(arguments, "endText")))
      params["selection"] = {
          {"start", {{"line", span->first}, {"character", 0}}},
          {"end", {{"line", span->second + 1}, {"character", 0}}}}; // through the end line
  const bool frontmost = arguments.value("makeFrontmost", true);
  const std::string path = where->real_path;
  const std::size_t line_count = lines.size();
  server_.call(
      "window/showDocument", std::move(params),
      [path, frontmost, line_count, answer = std::move(answer)](CallResponse response) {
        const bool shown =
            response.ok() && response.result.is_object() && response.result.value("success", false);
        if (!shown) {
          const std::string why =
              response.ok() ? "the editor did not show it" : response.error.message;
          log::info("claude ide: openFile ", path, " failed: ", why);
          return answer(ideToolError("EDITOR_REJECTED",
                                     "the editor did not open " + path + ": " + why,
                                     "open it in the editor by hand"));
        }
        if (frontmost) return answer(textContent("Opened file: " + path));
        answer(jsonContent({{"success", true}, {"filePath", path}, {"lineCount", line_count}}));
      },
      kEditorToolTimeout);
}

void IdeEditorTools::saveDocument(const json& arguments, Answer answer) {
  json error;
  std::optional<disk::ResolvedPath> where = resolve(server_, arguments, "saveDocument", error);
  if (!where) return answer(std::move(error));
  const std::string path = where->real_path;
  const OpenDocument* open = server_.documents().findByPath(path);
  if (!open)
    return answer(jsonContent({{"success", false}, {"message", "Document not open: " + path}}));
  server_.call(
      "hashline/saveDocument", {{"textDocument", {{"uri", open->uri}}}},
      [path, answer = std::move(answer)](CallResponse response) {
        const bool saved =
            response.ok() && response.result.is_object() && response.result.value("saved", false);
        if (saved)
          return answer(jsonContent({{"success", true},
                                     {"filePath", path},
                                     {"saved", true},
                                     {"message", "Document saved successfully"}}));
        std::string why = !response.ok() ? response.error.message
                          : response.result.is_object()
                              ? response.result.value("reason", std::string("not saved"))
                              : std::string("not saved");
        if (!response.ok() && response.error.code == static_cast<int>(RpcErrorCode::MethodNotFound))
          why = "the editor has no hashline plugin that saves documents";
        log::info("claude ide: saveDocument ", path, " failed: ", why);
        answer(jsonContent({{"success", false},
                            {"filePath", path},
                            {"saved", false},
                            {"message", "Failed to save " + path + ": " + why}}));
      },
      kEditorToolTimeout);
}

} // namespace hashline::lsp
