// IdeProtocol: the MCP dialect Claude Code speaks to the IDE it connects to (docs/claude-ide.md),
// answered from hashline's live state through the AgentService.
//
// Seen from the real CLI: `initialize` (protocolVersion 2025-11-25), `notifications/initialized`,
// a notification `ide_connected` {pid}, `tools/list`, then `tools/call` with
// `_meta["claudecode/toolUseId"]`. Tools served: getWorkspaceFolders, getOpenEditors (the
// documents the editor has open, as the mirror holds them), checkDocumentDirty (the buffer
// against the disk), openDiff (a review of the live buffer: ide_open_diff.h; answered when the
// user decided), close_tab and closeAllDiffTabs (drop the undecided reviews), openFile and
// saveDocument (done by the editor: ide_editor_tools.h). Each tool answers MCP content: one text
// item holding a JSON object, as Claude Code's IDE tools do (openDiff: FILE_SAVED + text, or
// DIFF_REJECTED + tab name). Unknown methods with an id get -32601, unknown tools -32602;
// notifications never get an answer. Threading: the owner's io_context (the service's).
#pragma once

#include "lsp/ide/ide_editor_tools.h"
#include "lsp/ide/ide_open_diff.h"
#include "lsp/service/agent_service.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

class IdeProtocol {
public:
  using Send = std::function<void(nlohmann::json message)>;
  using Roots = std::function<std::vector<std::string>()>;
  /// Whether the file at a path differs from the editor's buffer (nullopt: not open).
  using Dirty = std::function<std::optional<bool>(const std::string& path)>;

  IdeProtocol(AgentService& service, Roots roots, IdeOpenDiff* diffs = nullptr, Dirty dirty = {},
              IdeEditorTools* editor_tools = nullptr)
      : service_(service), roots_(std::move(roots)), diffs_(diffs), dirty_(std::move(dirty)),
        editor_tools_(editor_tools) {}

  /// Handles one JSON-RPC message of a connection; replies (if any) go to `send`, possibly later
  /// (never once `connection` expired).
  void handle(const nlohmann::json& message, const Send& send, std::weak_ptr<void> connection = {});

  /// A connection ended (IdeServer, when its reads stop): it is no longer a connected client.
  void connectionClosed(const void* connection);
  /// The Claude Codes connected now: those that said `ide_connected` on a connection still open,
  /// as [{name, version, pid}] (from `initialize`'s clientInfo and `ide_connected`).
  nlohmann::json connectedClients() const;
  /// Called whenever connectedClients() changes (the editor's status item, `hashline status`).
  void onClientsChanged(std::function<void()> changed) { clients_changed_ = std::move(changed); }

private:
  void callTool(const nlohmann::json& id, const nlohmann::json& params, const Send& send,
                std::weak_ptr<void> connection);
  nlohmann::json toolList() const;

  AgentService& service_;
  Roots roots_;
  IdeOpenDiff* diffs_;
  Dirty dirty_;
  IdeEditorTools* editor_tools_;
  // What each open connection said about itself, keyed by the connection's address.
  struct Client {
    std::string name, version;
    std::optional<std::int64_t> pid;
    bool connected = false; // said ide_connected
  };
  std::map<const void*, Client> clients_;
  std::function<void()> clients_changed_;
};

} // namespace hashline::lsp
