// The MCP stdio protocol loop; see mcp_server.h.
#include "lsp/mcp/mcp_server.h"

#include "lsp/rpc/json_rpc.h"
#include "lsp/support/log.h"
#include "lsp/version.h"

#include <istream>
#include <ostream>

namespace hashline::mcp {

using nlohmann::json;

namespace {

constexpr const char* kInstructions =
    "hashline edits files through verified line anchors. Read a file with hashline_read first: "
    "every row is `LINE:LLL:BBB→text`, where `LINE:LLL:BBB` is the anchor of that line. Edit by "
    "quoting anchors exactly (hashline_edit), or by text (hashline_replace, hashline_patch). "
    "Every edit is checked against what you read; if the file changed, the edit is refused with "
    "an error code, a hint and fresh anchors — use those and retry. If the user has the file "
    "open in an editor running hashline, edits land in the editor buffer (unsaved text "
    "included), never behind it on disk. `dry_run: true` verifies and shows the diff without "
    "writing. `confirm: true` asks the user to confirm the edit in the editor first (LSP change "
    "annotations: VS Code shows its refactor preview); declined: EDITOR_REJECTED, nothing "
    "written; editors without support apply as usual. ";

json errorResponse(const json& id, int code, const std::string& message) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

bool supportedVersion(const std::string& version) {
  return version == "2025-06-18" || version == "2025-11-25";
}

struct ProtocolFault {
  int code;
  std::string message;
};

} // namespace

McpServer::McpServer(agent::RouterOptions router_options, ToolCaller caller, ToolSelection tools)
    : router_(std::move(router_options)), caller_(std::move(caller)), tools_(std::move(tools)) {}

json McpServer::handleRequest(const std::string& method, const json& params) {
  if (method == "initialize") {
    std::string requested =
        params.is_object() ? params.value("protocolVersion", std::string()) : std::string();
    protocol_version_ = supportedVersion(requested) ? requested : kLatestProtocolVersion;
    if (!caller_named_ && params.is_object() && params.contains("clientInfo") &&
        params["clientInfo"].is_object() && params["clientInfo"].contains("name") &&
        params["clientInfo"]["name"].is_string())
      caller_.agent = params["clientInfo"]["name"].get<std::string>();
    return json{{"protocolVersion", protocol_version_},
                {"capabilities", {{"tools", {{"listChanged", false}}}}},
                {"serverInfo",
                 {{"name", "hashline"},
                  {"title", "hashline: verified line-anchored edits"},
                  {"version", std::string(programVersion())}}},
                {"instructions", std::string(kInstructions) + errorVocabulary()}};
  }
  if (method == "ping") return json::object();
  if (method == "tools/list") return json{{"tools", toolDefinitions(tools_)}};
  if (method == "tools/call") {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
      throw ProtocolFault{-32602, "tools/call needs params {name, arguments}"};
    std::string name = params["name"];
    if (!isTool(name) || !tools_.offers(name))
      throw ProtocolFault{-32602, "unknown tool '" + name + "'"};
    json arguments = params.value("arguments", json::object());
    if (arguments.is_null()) arguments = json::object();
    if (!arguments.is_object()) throw ProtocolFault{-32602, "tool arguments must be an object"};
    return callTool(router_, caller_, name, arguments);
  }
  throw ProtocolFault{-32601, "unknown method '" + method + "'"};
}

std::optional<std::string> McpServer::handleLine(const std::string& raw) {
  std::string line = raw;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded())
    return lsp::serializeJSON(errorResponse(nullptr, -32700, "parse error: not JSON"));
  if (!message.is_object())
    return lsp::serializeJSON(
        errorResponse(nullptr, -32600, "invalid request: expected one JSON-RPC object"));
  bool has_id = message.contains("id");
  json id = has_id ? message["id"] : json();
  if (has_id && !id.is_string() && !id.is_number_integer())
    return lsp::serializeJSON(errorResponse(nullptr, -32600, "invalid request: bad id"));
  if (!message.contains("method")) {
    if (message.contains("result") || message.contains("error")) return std::nullopt; // a response
    return lsp::serializeJSON(errorResponse(id, -32600, "invalid request: no method"));
  }
  if (!message["method"].is_string())
    return lsp::serializeJSON(errorResponse(id, -32600, "invalid request: method is not a string"));
  std::string method = message["method"];
  json params = message.value("params", json::object());
  if (!has_id) {
    log::debug("mcp notification ", method);
    return std::nullopt;
  }
  try {
    json result = handleRequest(method, params);
    return lsp::serializeJSON(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
  } catch (const ProtocolFault& fault) {
    return lsp::serializeJSON(errorResponse(id, fault.code, fault.message));
  } catch (const std::exception& error) {
    log::error("mcp: ", method, " failed: ", error.what());
    return lsp::serializeJSON(
        errorResponse(id, -32603, std::string("internal error: ") + error.what()));
  }
}

int McpServer::serve(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (auto answer = handleLine(line)) {
      out << *answer << '\n';
      out.flush();
    }
  }
  return 0;
}

} // namespace hashline::mcp
