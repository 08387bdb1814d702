// LspServer: the LSP protocol adapter between the editor's connection and hashline's features.
//
// Owns the transport, the JSON-RPC connection, the mirror (DocumentStore) and the method table.
// It enforces the lifecycle (LSP 3.17 §lifecycle):
//   - before `initialize`: requests → -32002 ServerNotInitialized, notifications dropped
//     (except `exit`); a second `initialize` → -32600;
//   - after `shutdown`: requests → -32600 InvalidRequest, notifications dropped;
//   - `exit`: the process ends with 0 if `shutdown` came first, else 1; the same rule applies
//     when the input ends (EOF) or the framing breaks.
// negotiates the position encoding (negotiatePositionEncoding: utf-8 if offered, else utf-16),
// advertises incremental sync and the registered `hashline.*` commands, and dispatches
// everything else to the MethodRegistry. Features are added by wiring code (features.h) before
// `run()`; they reach the editor back only through this class (notify / call / logToClient).
//
// Threading: single-threaded. `run()` drives the io_context on the calling thread until exit.
#pragma once

#include "engine/text/encoding.h"
#include "lsp/protocol/lifecycle.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/server/method_registry.h"
#include "lsp/transport/transport.h"
#include "lsp/workspace/document_store.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)
#include <vector>

namespace hashline::lsp {

struct LspServerOptions {
  /// How long to wait for the editor's answer to our requests (workspace/applyEdit).
  std::chrono::milliseconds client_request_timeout{15000};
  /// How often to check that the editor (`processId`) is still alive; 0 disables.
  std::chrono::milliseconds parent_check_interval{5000};
  /// `--clientProcessId`: the editor's pid when given on the command line.
  std::optional<std::int64_t> client_process_id;
};

class LspServer : public RpcHandler {
public:
  LspServer(boost::asio::io_context& io, std::unique_ptr<Transport> transport,
            LspServerOptions options = {});
  ~LspServer() override;

  // --- wiring (before run) -------------------------------------------------------------------
  MethodRegistry& methods() { return methods_; }
  /// Called while answering `initialize`, after the encoding is chosen: a feature may read the
  /// client's params and add to the capabilities object it returns.
  using InitializeHook =
      std::function<void(const InitializeParams& params, nlohmann::json& capabilities)>;
  void onInitialize(InitializeHook hook) { initialize_hooks_.push_back(std::move(hook)); }
  /// Called on the client's `initialized` notification: from here on the server may send the
  /// client notifications and requests of its own.
  void onInitialized(std::function<void()> hook) { initialized_hooks_.push_back(std::move(hook)); }
  /// Called after workspace/didChangeWorkspaceFolders changed workspaceRoots().
  using RootsHook = std::function<void(const std::vector<std::string>& roots)>;
  void onRootsChanged(RootsHook hook) { roots_hooks_.push_back(std::move(hook)); }

  /// Serves until `exit`, end of input or a broken frame; returns the process exit code.
  int run();

  // --- for features ----------------------------------------------------------------------------
  /// The io_context the server runs on (features' timers and posted work).
  boost::asio::io_context& io() { return io_; }
  DocumentStore& documents() { return documents_; }
  const DocumentStore& documents() const { return documents_; }
  PositionEncoding encoding() const { return documents_.encoding(); }
  /// The client's initialize params (empty before initialize).
  const InitializeParams& clientParams() const { return client_params_; }
  /// Workspace roots as filesystem paths: workspaceFolders, else rootUri, else rootPath.
  const std::vector<std::string>& workspaceRoots() const { return workspace_roots_; }

  void notify(const std::string& method, nlohmann::json params);
  void call(const std::string& method, nlohmann::json params,
            JsonRpcConnection::ResponseCallback callback);
  /// The same with its own timeout (an applyEdit that waits for the user's confirmation).
  void call(const std::string& method, nlohmann::json params,
            JsonRpcConnection::ResponseCallback callback, std::chrono::milliseconds timeout);
  /// window/logMessage to the editor, and the same line in the log.
  void logToClient(MessageType type, const std::string& message);

  enum class State { Uninitialized, Running, ShutDown, Exited };
  State state() const { return state_; }

  // --- RpcHandler ------------------------------------------------------------------------------
  void onRequest(const std::string& method, nlohmann::json params, Reply reply) override;
  void onNotification(const std::string& method, nlohmann::json params) override;
  void onInputClosed(const std::string& problem) override;

private:
  void handleInitialize(const nlohmann::json& params, const Reply& reply);
  void handleExecuteCommand(nlohmann::json params, const Reply& reply);
  void handleWorkspaceFolders(const nlohmann::json& params);
  void watchParentProcess();
  void stop(const std::string& why);

  boost::asio::io_context& io_;
  std::unique_ptr<Transport> transport_;
  JsonRpcConnection connection_;
  LspServerOptions options_;
  MethodRegistry methods_;
  DocumentStore documents_;
  std::vector<InitializeHook> initialize_hooks_;
  std::vector<std::function<void()>> initialized_hooks_;
  std::vector<RootsHook> roots_hooks_;
  InitializeParams client_params_;
  std::vector<std::string> workspace_roots_;
  State state_ = State::Uninitialized;
  bool shutdown_received_ = false;
  bool stopping_ = false;
  std::unique_ptr<boost::asio::steady_timer> parent_timer_;
};

} // namespace hashline::lsp
