// initialize / window messages: the parts of LSP's lifecycle hashline reads or sends.
//
// `ClientCapabilities` is flattened like clangd's: only the bits the server acts on, not the
// nested tree. Unknown or mistyped *optional* capability members are ignored rather than
// rejected (clients disagree on details), but a mistyped member we rely on (e.g. `rootUri`
// given as a number) is an InvalidParams error with its path.
#pragma once

#include "engine/text/encoding.h"
#include "lsp/protocol/json_path.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

struct WorkspaceFolder {
  std::string uri;
  std::string name;
};

struct ClientCapabilities {
  /// `general.positionEncodings`, in the client's preference order (names as sent).
  std::vector<std::string> positionEncodings;
  /// clangd's pre-3.17 `offsetEncoding` extension, used only when positionEncodings is absent.
  std::optional<std::vector<std::string>> offsetEncoding;
  bool applyEdit = false;                   // workspace.applyEdit
  bool documentChanges = false;             // workspace.workspaceEdit.documentChanges
  std::vector<std::string> failureHandling; // workspace.workspaceEdit.failureHandling (one value)
  bool changeAnnotationSupport = false;     // workspace.workspaceEdit.changeAnnotationSupport
  bool workDoneProgress = false;            // window.workDoneProgress
};

struct ClientInfo {
  std::string name;
  std::optional<std::string> version;
};

struct InitializeParams {
  std::optional<std::int64_t> processId;
  std::optional<ClientInfo> clientInfo;
  std::optional<std::string> rootUri;
  std::optional<std::string> rootPath;
  std::optional<std::vector<WorkspaceFolder>> workspaceFolders;
  ClientCapabilities capabilities;
  nlohmann::json initializationOptions; // null when absent
};

/// workspace/didChangeWorkspaceFolders: `{event: {added: [...], removed: [...]}}`.
struct WorkspaceFoldersChangeEvent {
  std::vector<WorkspaceFolder> added;
  std::vector<WorkspaceFolder> removed;
};

bool fromJSON(const nlohmann::json& value, WorkspaceFolder& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, WorkspaceFoldersChangeEvent& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, ClientInfo& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, ClientCapabilities& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, InitializeParams& out, JsonPath path);

/// The encoding hashline picks from what the client offers: utf-8 if offered; else utf-16 if
/// offered, or if nothing usable was offered (LSP: utf-16 is mandatory and the default); else
/// utf-32 (a client that offers only utf-32). The client's order does not matter: utf-8 needs no
/// conversion at all, and utf-16 is what every client supports.
PositionEncoding negotiatePositionEncoding(const ClientCapabilities& capabilities);

/// window/logMessage and window/showMessage types (3.18 adds Debug = 5).
enum class MessageType { Error = 1, Warning = 2, Info = 3, Log = 4, Debug = 5 };

struct LogMessageParams {
  MessageType type = MessageType::Info;
  std::string message;
};
nlohmann::json toJSON(const LogMessageParams& params);

} // namespace hashline::lsp
