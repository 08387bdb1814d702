// IdeEditorTools: Claude Code's `openFile` and `saveDocument` IDE tools (issue 22;
// docs/claude-ide.md), done by the editor itself — hashline asks it over LSP:
//   openFile {filePath, startText?, endText?, makeFrontmost?} → `window/showDocument` {uri,
//     takeFocus, selection?} (the lines from the first holding startText to the first after it
//     holding endText); answered "Opened file: PATH", or {success, filePath, lineCount} when
//     makeFrontmost is false.
//   saveDocument {filePath} → `hashline/saveDocument` {textDocument: {uri}}, which the plugins
//     answer {saved, reason?} after writing the buffer as the user's own save; answered {success,
//     filePath, saved, message}.
// Files outside the workspace are tool errors; a file not open in the editor cannot be saved.
// The editor's answer is awaited at most kEditorToolTimeout. Threading: the server's io_context.
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>

namespace hashline::lsp {

class LspServer;

inline constexpr std::chrono::milliseconds kEditorToolTimeout{10000};

class IdeEditorTools {
public:
  using Answer = std::function<void(nlohmann::json result)>;
  explicit IdeEditorTools(LspServer& server) : server_(server) {}

  void openFile(const nlohmann::json& arguments, Answer answer);
  void saveDocument(const nlohmann::json& arguments, Answer answer);

private:
  LspServer& server_;
};

} // namespace hashline::lsp
