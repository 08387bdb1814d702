// One line of the Agent Client Protocol (newline-delimited JSON-RPC 2.0 over stdio) as the proxy
// sees it: what kind of message it is, its method and id, and the lines the proxy writes itself
// (answers and errors).
//
// `readAcpLine` parses with the strict project parser (lsp/rpc/json_parse.h) and classifies:
// a request has a string `method` and an `id` (string, number or null), a notification a
// `method` and no `id`, a response an `id` and `result` or `error` and no `method`. Anything else
// — not JSON, not an object, a batch array, a method that is not a string — is Invalid with a
// one-line reason; the proxy answers it (-32700 / -32600) and forwards nothing.
//
// Threading: none; pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hashline::acp {

enum class MessageKind { Request, Notification, Response, Invalid };

struct AcpMessage {
  MessageKind kind = MessageKind::Invalid;
  nlohmann::json body;  // the parsed line (null when it is not JSON)
  std::string method;   // requests and notifications
  nlohmann::json id;    // requests and responses; null otherwise
  int invalid_code = 0; // Invalid: -32700 (not JSON) or -32600 (not a JSON-RPC message)
  std::string problem;  // Invalid: why
};

AcpMessage readAcpLine(std::string_view line);

/// The key of an id in the proxy's tables (its JSON text: 1 and "1" differ).
std::string idKey(const nlohmann::json& id);

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}` as one line (no newline).
std::string resultLine(const nlohmann::json& id, const nlohmann::json& result);
/// `{"jsonrpc":"2.0","id":ID,"error":{code,message,data?}}` as one line (no newline).
std::string errorLine(const nlohmann::json& id, int code, const std::string& message,
                      const nlohmann::json& data = nullptr);
/// A parsed message written back as one line (after the proxy changed it).
std::string messageLine(const nlohmann::json& body);

} // namespace hashline::acp
