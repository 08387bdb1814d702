// The MCP methods on the shared JSON-RPC core; see mcp_server.h.
#include "lsp/mcp/mcp_server.h"

#include "lsp/mcp/mcp_tools.h"
#include "lsp/mcp/tool_arguments.h"
#include "lsp/protocol/json_path.h"
#include "lsp/protocol/params_reader.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/support/log.h"
#include "lsp/version.h"

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

} // namespace

McpServer::McpServer(boost::asio::io_context& io, std::unique_ptr<lsp::Transport> transport,
                     agent::RouterOptions router_options, ToolCaller caller, ToolSelection tools)
    : io_(io), transport_(std::move(transport)), connection_(io, *transport_, *this),
      router_(std::move(router_options)), caller_(std::move(caller)), tools_(std::move(tools)) {
  methods_.addRequest("initialize",
                      [this](json params, lsp::Reply reply) { initialize(params, reply); });
  methods_.addRequest("ping", [](json, lsp::Reply reply) { reply.result(json::object()); });
  methods_.addRequest("tools/list", [this](json, lsp::Reply reply) {
    reply.result(json{{"tools", toolDefinitions(tools_)}});
  });
  methods_.addRequest("tools/call",
                      [this](json params, lsp::Reply reply) { callTool(params, reply); });
}

McpServer::~McpServer() = default;

int McpServer::run() {
  connection_.start();
  io_.run();
  return exit_code_;
}

void McpServer::onRequest(const std::string& method, json params, lsp::Reply reply) {
  const auto* handler = methods_.findRequest(method);
  if (!handler)
    return reply.error(lsp::RpcErrorCode::MethodNotFound, "unknown method '" + method + "'");
  if (params.is_null()) params = json::object(); // absent params: none given
  (*handler)(std::move(params), reply);
}

void McpServer::onNotification(const std::string& method, json) {
  log::debug("mcp notification ", method);
}

void McpServer::onInputClosed(const std::string& problem) {
  if (stopping_) return;
  stopping_ = true;
  if (!problem.empty()) {
    log::error("mcp: input closed: ", problem);
    exit_code_ = 1;
  }
  connection_.close([this] { io_.stop(); });
}

void McpServer::initialize(const json& params, const lsp::Reply& reply) {
  lsp::ParamsReader reader(params, "initialize");
  std::optional<std::string> requested, client_name;
  if (!reader.optString({"protocolVersion"}, requested))
    return reply.error(lsp::RpcErrorCode::InvalidParams, reader.error->message);
  if (const json* client_info = reader.find({"clientInfo"})) {
    lsp::ParamsReader info(*client_info, "initialize", "params.clientInfo");
    if (!info.optString({"name"}, client_name))
      return reply.error(lsp::RpcErrorCode::InvalidParams, info.error->message);
  }
  protocol_version_ =
      requested && supportedVersion(*requested) ? *requested : kLatestProtocolVersion;
  if (!caller_named_ && client_name) caller_.agent = *client_name;
  reply.result(json{{"protocolVersion", protocol_version_},
                    {"capabilities", {{"tools", {{"listChanged", false}}}}},
                    {"serverInfo",
                     {{"name", "hashline"},
                      {"title", "hashline: verified line-anchored edits"},
                      {"version", std::string(programVersion())}}},
                    {"instructions", std::string(kInstructions) + errorVocabulary()}});
}

void McpServer::callTool(const json& params, const lsp::Reply& reply) {
  lsp::ParamsReader reader(params, "tools/call");
  std::string name;
  if (!reader.string({"name"}, name, true))
    return reply.error(lsp::RpcErrorCode::InvalidParams, reader.error->message);
  if (!isTool(name) || !tools_.offers(name))
    return reply.error(lsp::RpcErrorCode::InvalidParams, "unknown tool '" + name + "'");
  const json* arguments = reader.find({"arguments"});
  if (arguments && arguments->is_null()) arguments = nullptr;
  if (arguments && !arguments->is_object())
    return reply.error(lsp::RpcErrorCode::InvalidParams,
                       "invalid params for tools/call: params.arguments: expected an object, got " +
                           lsp::describeJSON(*arguments));
  const json given = arguments ? *arguments : json::object();
  if (auto unknown = unknownArgument(name, inputSchemaOf(name), given))
    return reply.result(
        json{{"content",
              {{{"type", "text"},
                {"text", "INVALID_ARGUMENTS: invalid params for " +
                             name.substr(std::string("hashline_").size()) + ": " + *unknown +
                             "\nhint: check the tool's input schema and retry"}}}},
             {"isError", true}});
  reply.result(mcp::callTool(router_, caller_, name, given, result_shape_));
}

} // namespace hashline::mcp
