// AgentService: the one entry point for everything an agent can ask of hashline.
//
// Every transport — LSP `workspace/executeCommand` (`hashline.read`, …), the LSP requests
// `hashline/read`, …, the private agent socket, the CLI running in-process, and MCP tools — turns
// its input into (method, params JSON) and calls `call`; the answer is the same result object
// everywhere (DESIGN §8, §9):
//   ok / applied:  {"status": "ok" | "applied", ...method-specific fields}
//   refused:       {"status": "refused", "error": {code, message, hint, data}}
// A protocol fault (params of the wrong shape, an unknown method) is an RpcError instead, which
// LSP and the socket send as a JSON-RPC error (-32602, -32601), the CLI prints with exit 2, and
// MCP returns as a tool error.
//
// Method names (without prefix): read, edit, replace, headtail, range, patch, draft, ed, undo,
// rewind, log, diff, pending, accept, reject, turn, status. Params address a document by `uri`
// (file:// or untitled:) or `path` (absolute, or relative to the workspace root); the caller's
// identity comes in `session`, `agent` and `turn` fields of params.
//
// Answers may come later than `call` returns (an edit waits for the editor to confirm), always
// on the owner's io_context thread, exactly once.
#pragma once

#include "lsp/rpc/rpc_error.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace hashline::lsp {

/// The answer to one service call: a result object or a protocol fault.
using ServiceOutcome = std::variant<nlohmann::json, RpcError>;
using ServiceCallback = std::function<void(ServiceOutcome outcome)>;

class AgentService {
public:
  virtual ~AgentService() = default;
  /// Runs `method` with `params`; `done` is called exactly once.
  virtual void call(const std::string& method, nlohmann::json params, ServiceCallback done) = 0;
  /// The method names this service answers, sorted.
  virtual std::vector<std::string> methods() const = 0;
};

} // namespace hashline::lsp
