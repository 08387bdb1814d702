// MethodRegistry: the table of LSP methods, notifications and `workspace/executeCommand`
// commands the server answers (clangd's LSPBinder, in small).
//
// Features register themselves from wiring code (features.cpp) with one call each, e.g.
//   methods.addRequest<SnapshotParams>("hashline/snapshot", [&](SnapshotParams p, Reply r) {...});
//   methods.addCommand("hashline.read", [&](nlohmann::json arguments, Reply r) {...});
// so no switch statement grows with every feature. Typed registration parses params with the
// protocol's fromJSON and answers -32602 InvalidParams naming the JSON path that was wrong.
// Commands are advertised in `executeCommandProvider.commands` at initialize.
//
// Lifecycle rules (initialize, shutdown, exit) are the server's, not the registry's: handlers
// here only run on an initialized, not shut-down server.
//
// Threading: filled during wiring, read on the server's thread.
#pragma once

#include "lsp/protocol/json_path.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/support/log.h"

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline::lsp {

class MethodRegistry {
public:
  using RequestHandler = std::function<void(nlohmann::json params, Reply reply)>;
  using NotificationHandler = std::function<void(nlohmann::json params)>;
  /// `arguments` is always a JSON array (executeCommand's `arguments`, [] when absent).
  using CommandHandler = std::function<void(nlohmann::json arguments, Reply reply)>;

  void addRequest(const std::string& method, RequestHandler handler);
  void addNotification(const std::string& method, NotificationHandler handler);
  void addCommand(const std::string& command, CommandHandler handler);

  /// A request whose params are parsed into `Params` first (InvalidParams on failure).
  template <class Params>
  void addRequest(const std::string& method, std::function<void(Params, Reply)> handler) {
    addRequest(method, [method, handler = std::move(handler)](nlohmann::json json, Reply reply) {
      Params params{};
      JsonPath::Root root("params");
      if (!fromJSON(json, params, JsonPath(root)))
        return reply.error(RpcErrorCode::InvalidParams,
                           "invalid params for " + method + ": " + root.describe());
      handler(std::move(params), std::move(reply));
    });
  }

  /// A notification whose params are parsed into `Params`; on failure `onInvalid` gets the
  /// raw params and the problem (notifications cannot be answered), default: a logged warning.
  template <class Params>
  void addNotification(
      const std::string& method, std::function<void(Params)> handler,
      std::function<void(const nlohmann::json&, const std::string&)> onInvalid = nullptr) {
    addNotification(method, [method, handler = std::move(handler),
                             onInvalid = std::move(onInvalid)](nlohmann::json json) {
      Params params{};
      JsonPath::Root root("params");
      if (!fromJSON(json, params, JsonPath(root))) {
        log::warn("ignoring ", method, " with invalid params: ", root.describe());
        if (onInvalid) onInvalid(json, root.describe());
        return;
      }
      handler(std::move(params));
    });
  }

  const RequestHandler* findRequest(const std::string& method) const;
  const NotificationHandler* findNotification(const std::string& method) const;
  const CommandHandler* findCommand(const std::string& command) const;

  /// Sorted names, for capabilities and --help.
  std::vector<std::string> requestNames() const;
  std::vector<std::string> commandNames() const;

private:
  std::map<std::string, RequestHandler> requests_;
  std::map<std::string, NotificationHandler> notifications_;
  std::map<std::string, CommandHandler> commands_;
};

} // namespace hashline::lsp
