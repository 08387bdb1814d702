// The MCP stdio protocol loop; see mcp_server.h.
#include "lsp/mcp/mcp_server.h"

#include "lsp/mcp/mcp_tools.h"
#include "lsp/mcp/tool_arguments.h"
#include "lsp/protocol/json_path.h"
#include "lsp/protocol/params_reader.h"
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

/// The inputSchema of tool `name` as tools/list shows it (null when unknown).
json inputSchemaOf(const std::string& name) {
  for (const json& tool : toolDefinitions()) {
    auto tool_name = tool.find("name");
    if (tool_name != tool.end() && *tool_name == name) {
      auto schema = tool.find("inputSchema");
      return schema == tool.end() ? json() : *schema;
    }
  }
  return json();
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
    lsp::ParamsReader reader(params, "initialize");
    std::optional<std::string> requested, client_name;
    if (!reader.optString({"protocolVersion"}, requested))
      throw ProtocolFault{-32602, reader.error->message};
    if (const json* client_info = reader.find({"clientInfo"})) {
      lsp::ParamsReader info(*client_info, "initialize", "params.clientInfo");
      if (!info.optString({"name"}, client_name)) throw ProtocolFault{-32602, info.error->message};
    }
    protocol_version_ =
        requested && supportedVersion(*requested) ? *requested : kLatestProtocolVersion;
    if (!caller_named_ && client_name) caller_.agent = *client_name;
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
    lsp::ParamsReader reader(params, "tools/call");
    std::string name;
    if (!reader.string({"name"}, name, true)) throw ProtocolFault{-32602, reader.error->message};
    if (!isTool(name) || !tools_.offers(name))
      throw ProtocolFault{-32602, "unknown tool '" + name + "'"};
    const json* arguments = reader.find({"arguments"});
    if (arguments && arguments->is_null()) arguments = nullptr;
    if (arguments && !arguments->is_object())
      throw ProtocolFault{-32602, "invalid params for tools/call: params.arguments: expected an "
                                  "object, got " +
                                      lsp::describeJSON(*arguments)};
    const json given = arguments ? *arguments : json::object();
    if (auto unknown = unknownArgument(name, inputSchemaOf(name), given))
      return json{{"content",
                   {{{"type", "text"},
                     {"text", "INVALID_ARGUMENTS: invalid params for " +
                                  name.substr(std::string("hashline_").size()) + ": " + *unknown +
                                  "\nhint: check the tool's input schema and retry"}}}},
                  {"isError", true}};
    return callTool(router_, caller_, name, given);
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
  auto id_member = message.find("id");
  bool has_id = id_member != message.end();
  json id = has_id ? *id_member : json();
  if (has_id && !id.is_string() && !id.is_number_integer())
    return lsp::serializeJSON(errorResponse(nullptr, -32600, "invalid request: bad id"));
  auto method_member = message.find("method");
  if (method_member == message.end()) {
    if (message.contains("result") || message.contains("error")) return std::nullopt; // a response
    return lsp::serializeJSON(errorResponse(id, -32600, "invalid request: no method"));
  }
  if (!method_member->is_string())
    return lsp::serializeJSON(errorResponse(id, -32600, "invalid request: method is not a string"));
  const std::string method = method_member->get<std::string>();
  auto params_member = message.find("params");
  json params = params_member == message.end() ? json::object() : *params_member;
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
