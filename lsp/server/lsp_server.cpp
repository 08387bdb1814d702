// LspServer: lifecycle gate, initialize (encoding + capabilities), executeCommand dispatch,
// and the exit-code rule.
#include "lsp/server/lsp_server.h"

#include "lsp/platform/process.h"
#include "lsp/protocol/workspace_edit.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"
#include "lsp/version.h"

#include <algorithm>
#include <cerrno>
#include <signal.h>

namespace hashline::lsp {

using nlohmann::json;

LspServer::LspServer(boost::asio::io_context& io, std::unique_ptr<Transport> transport,
                     LspServerOptions options)
    : io_(io), transport_(std::move(transport)), connection_(io, *transport_, *this),
      options_(options) {
  methods_.addRequest("workspace/executeCommand", [this](json params, Reply reply) {
    handleExecuteCommand(std::move(params), reply);
  });
}

LspServer::~LspServer() = default;

int LspServer::run() {
  connection_.start();
  io_.run();
  state_ = State::Exited;
  int code = shutdown_received_ ? 0 : 1;
  log::info("exiting with code ", code);
  return code;
}

void LspServer::notify(const std::string& method, json params) {
  connection_.notify(method, std::move(params));
}

void LspServer::call(const std::string& method, json params,
                     JsonRpcConnection::ResponseCallback callback) {
  connection_.call(method, std::move(params), std::move(callback), options_.client_request_timeout);
}

void LspServer::call(const std::string& method, json params,
                     JsonRpcConnection::ResponseCallback callback,
                     std::chrono::milliseconds timeout) {
  connection_.call(method, std::move(params), std::move(callback), timeout);
}

void LspServer::logToClient(MessageType type, const std::string& message) {
  log::message(type == MessageType::Error     ? log::Level::Error
               : type == MessageType::Warning ? log::Level::Warn
                                              : log::Level::Info,
               "[to client] ", message);
  notify("window/logMessage", toJSON(LogMessageParams{type, message}));
}

void LspServer::onRequest(const std::string& method, json params, Reply reply) {
  if (method == "initialize") {
    if (state_ != State::Uninitialized)
      return reply.error(RpcErrorCode::InvalidRequest, "initialize was already received");
    return handleInitialize(params, reply);
  }
  if (state_ == State::Uninitialized)
    return reply.error(RpcErrorCode::ServerNotInitialized,
                       method + ": the server is not initialized yet (send initialize first)");
  if (state_ != State::Running)
    return reply.error(RpcErrorCode::InvalidRequest,
                       method + ": the server is shutting down (only exit is accepted)");
  if (method == "shutdown") {
    state_ = State::ShutDown;
    shutdown_received_ = true;
    log::info("shutdown received");
    return reply.result(nullptr);
  }
  if (const auto* handler = methods_.findRequest(method))
    return (*handler)(std::move(params), reply);
  reply.error(RpcErrorCode::MethodNotFound, "unknown method " + method);
}

void LspServer::onNotification(const std::string& method, json params) {
  if (method == "exit") return stop("exit notification");
  if (state_ == State::Uninitialized) {
    log::warn("dropping ", method, ": not initialized yet");
    return;
  }
  if (state_ != State::Running) {
    log::warn("dropping ", method, ": shutting down");
    return;
  }
  if (method == "initialized") {
    for (const auto& hook : initialized_hooks_)
      hook();
    return;
  }
  if (method == "workspace/didChangeWorkspaceFolders") return handleWorkspaceFolders(params);
  if (const auto* handler = methods_.findNotification(method)) return (*handler)(std::move(params));
  if (method.rfind("$/", 0) == 0) return; // optional protocol notifications
  log::debug("ignoring unknown notification ", method);
}

void LspServer::onInputClosed(const std::string& problem) {
  if (!problem.empty()) {
    log::error("closing: ", problem);
    shutdown_received_ = false; // a broken stream is never a clean exit
  } else {
    log::info("input ended", shutdown_received_ ? "" : " without shutdown");
  }
  stop(problem.empty() ? "end of input" : problem);
}

void LspServer::stop(const std::string& why) {
  if (stopping_) return;
  stopping_ = true;
  log::info("stopping: ", why);
  if (parent_timer_) parent_timer_->cancel();
  connection_.close([this] { io_.stop(); });
}

void LspServer::handleInitialize(const json& raw, const Reply& reply) {
  InitializeParams params;
  JsonPath::Root root("params");
  if (!fromJSON(raw, params, JsonPath(root)))
    return reply.error(RpcErrorCode::InvalidParams,
                       "invalid initialize params: " + root.describe());
  client_params_ = params;

  PositionEncoding encoding = negotiatePositionEncoding(params.capabilities);
  documents_.setEncoding(encoding);

  workspace_roots_.clear();
  if (params.workspaceFolders && !params.workspaceFolders->empty()) {
    for (const auto& folder : *params.workspaceFolders)
      if (auto path = fileUriToPath(folder.uri)) workspace_roots_.push_back(*path);
  } else if (params.rootUri) {
    if (auto path = fileUriToPath(*params.rootUri)) workspace_roots_.push_back(*path);
  } else if (params.rootPath && !params.rootPath->empty()) {
    workspace_roots_.push_back(*params.rootPath);
  }

  json capabilities = {
      {"positionEncoding", std::string(encodingName(encoding))},
      {"workspace", {{"workspaceFolders", {{"supported", true}, {"changeNotifications", true}}}}},
      {"textDocumentSync",
       {{"openClose", true},
        {"change", 2},
        {"willSave", true},
        {"save", {{"includeText", false}}}}},
      {"executeCommandProvider", {{"commands", methods_.commandNames()}}},
      {"experimental", {{"hashline", {{"methods", methods_.requestNames()}}}}},
  };
  for (const auto& hook : initialize_hooks_)
    hook(params, capabilities);

  json result = {
      {"capabilities", std::move(capabilities)},
      {"serverInfo", {{"name", "hashline"}, {"version", std::string(programVersion())}}}};
  if (params.capabilities.offsetEncoding) // clangd's extension: answered only when asked
    result["offsetEncoding"] = std::string(encodingName(encoding));

  std::string client = params.clientInfo ? params.clientInfo->name : std::string("unknown client");
  log::info("initialize from ", client, ": position encoding ", encodingName(encoding),
            ", applyEdit ", params.capabilities.applyEdit ? "yes" : "no", ", ",
            workspace_roots_.size(), " workspace root(s)");
  state_ = State::Running;
  reply.result(std::move(result));
  watchParentProcess();
}

void LspServer::handleWorkspaceFolders(const json& raw) {
  WorkspaceFoldersChangeEvent event;
  JsonPath::Root root("params.event");
  if (!raw.is_object() || !raw.contains("event") ||
      !fromJSON(raw["event"], event, JsonPath(root))) {
    log::warn("ignoring workspace/didChangeWorkspaceFolders with invalid params: ",
              raw.is_object() && raw.contains("event") ? root.describe() : "no event");
    return;
  }
  std::vector<std::string> roots;
  for (const std::string& existing : workspace_roots_) {
    bool removed = std::any_of(event.removed.begin(), event.removed.end(), [&](const auto& f) {
      auto path = fileUriToPath(f.uri);
      return path && *path == existing;
    });
    if (!removed) roots.push_back(existing);
  }
  for (const auto& folder : event.added) {
    auto path = fileUriToPath(folder.uri);
    if (!path) {
      log::warn("ignoring added workspace folder ", folder.uri, ": not a file URI");
      continue;
    }
    if (std::find(roots.begin(), roots.end(), *path) == roots.end()) roots.push_back(*path);
  }
  workspace_roots_ = std::move(roots);
  log::info("workspace folders changed: +", event.added.size(), " -", event.removed.size(), ", ",
            workspace_roots_.size(), " workspace root(s)");
  for (const auto& hook : roots_hooks_)
    hook(workspace_roots_);
}

void LspServer::handleExecuteCommand(json raw, const Reply& reply) {
  ExecuteCommandParams params;
  JsonPath::Root root("params");
  if (!fromJSON(raw, params, JsonPath(root)))
    return reply.error(RpcErrorCode::InvalidParams,
                       "invalid workspace/executeCommand params: " + root.describe());
  const auto* handler = methods_.findCommand(params.command);
  if (!handler)
    return reply.error(RpcErrorCode::InvalidParams, "unknown command " + params.command);
  (*handler)(std::move(params.arguments), reply);
}

void LspServer::watchParentProcess() {
  std::optional<std::int64_t> pid =
      client_params_.processId ? client_params_.processId : options_.client_process_id;
  if (!pid || *pid <= 0 || options_.parent_check_interval.count() <= 0) return;
  if (!parent_timer_) parent_timer_ = std::make_unique<boost::asio::steady_timer>(io_);
  parent_timer_->expires_after(options_.parent_check_interval);
  parent_timer_->async_wait(
      [this, pid = static_cast<pid_t>(*pid)](boost::system::error_code error) {
        if (error || stopping_) return;
        if (!platform::processAlive(pid)) {
          log::error("the editor (process ", pid, ") is gone; exiting");
          return stop("editor process gone");
        }
        watchParentProcess();
      });
}

} // namespace hashline::lsp
