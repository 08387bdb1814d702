// Classifying ACP lines and writing the proxy's own lines; see acp_message.h.
#include "lsp/acp/acp_message.h"

#include "lsp/rpc/json_parse.h"
#include "lsp/rpc/json_writer.h"

namespace hashline::acp {

using nlohmann::json;

namespace {

AcpMessage invalid(int code, std::string problem, json body = nullptr) {
  AcpMessage message;
  message.invalid_code = code;
  message.problem = std::move(problem);
  message.body = std::move(body);
  return message;
}

bool isValidId(const json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned() || id.is_null();
}

} // namespace

AcpMessage readAcpLine(std::string_view line) {
  json body;
  std::string error;
  if (!lsp::parseJSON(line, body, error)) return invalid(-32700, "not JSON: " + error);
  if (body.is_array())
    return invalid(-32600, "a JSON-RPC batch (array); ACP sends one message per line",
                   std::move(body));
  if (!body.is_object()) return invalid(-32600, "not a JSON-RPC object", std::move(body));
  AcpMessage message;
  auto method = body.find("method");
  auto id = body.find("id");
  const bool has_id = id != body.end();
  if (has_id && !isValidId(*id))
    return invalid(-32600, "the id must be a string, an integer or null", std::move(body));
  if (method != body.end()) {
    if (!method->is_string())
      return invalid(-32600, "the method must be a string", std::move(body));
    message.method = method->get<std::string>();
    message.kind = has_id ? MessageKind::Request : MessageKind::Notification;
    if (has_id) message.id = *id;
  } else if (has_id && (body.contains("result") || body.contains("error"))) {
    message.kind = MessageKind::Response;
    message.id = *id;
  } else {
    json id_copy = has_id ? *id : json();
    AcpMessage bad =
        invalid(-32600, "neither a request, a notification nor a response", std::move(body));
    bad.id = std::move(id_copy);
    return bad;
  }
  message.body = std::move(body);
  return message;
}

std::string idKey(const json& id) {
  std::string key;
  lsp::appendJSON(key, id);
  return key;
}

std::string resultLine(const json& id, const json& result) {
  return messageLine(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

std::string errorLine(const json& id, int code, const std::string& message, const json& data) {
  json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  return messageLine(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

std::string messageLine(const json& body) {
  std::string line;
  lsp::appendJSON(line, body);
  return line;
}

} // namespace hashline::acp
