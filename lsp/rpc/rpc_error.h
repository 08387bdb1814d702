// JSON-RPC 2.0 / LSP error codes and the error object of a response.
//
// These are protocol faults (bad JSON, unknown method, wrong parameter types, lifecycle
// violations). A refused *edit* is not one of these: it is a normal result carrying a
// hashline::Error (DESIGN §9), see lsp/protocol/error_json.h.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::lsp {

enum class RpcErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  UnknownErrorCode = -32001,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

struct RpcError {
  int code = static_cast<int>(RpcErrorCode::InternalError);
  std::string message;
  std::optional<nlohmann::json> data;

  static RpcError make(RpcErrorCode code, std::string message,
                       std::optional<nlohmann::json> data = std::nullopt) {
    return RpcError{static_cast<int>(code), std::move(message), std::move(data)};
  }
  bool is(RpcErrorCode c) const { return code == static_cast<int>(c); }
};

/// `{code, message, data?}` as it appears under "error" in a response.
nlohmann::json toJSON(const RpcError& error);
/// Reads a response's "error" member; a malformed one becomes an InternalError describing it.
RpcError rpcErrorFromJSON(const nlohmann::json& value);

} // namespace hashline::lsp
