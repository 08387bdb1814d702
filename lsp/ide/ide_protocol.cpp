// The MCP dialect of Claude Code's IDE connection; see ide_protocol.h.
#include "lsp/ide/ide_protocol.h"

#include "lsp/support/log.h"
#include "lsp/support/uri.h"
#include "lsp/version.h"

namespace hashline::lsp {

namespace {

using json = nlohmann::json;

json reply(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json failure(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json textContent(const json& value) {
  return {{"content", json::array({{{"type", "text"}, {"text", value.dump()}}})}};
}

json toolList() {
  const json no_arguments = {{"type", "object"}, {"properties", json::object()}};
  return json::array(
      {{{"name", "getWorkspaceFolders"},
        {"description", "The workspace folders of the editor hashline is attached to."},
        {"inputSchema", no_arguments}},
       {{"name", "getOpenEditors"},
        {"description", "The documents open in the editor (its live buffers, unsaved text "
                        "included, as hashline mirrors them)."},
        {"inputSchema", no_arguments}}});
}

std::string baseName(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

void IdeProtocol::handle(const json& message, const Send& send) {
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    if (message.is_object() && message.contains("id"))
      send(failure(message["id"], -32600, "not a JSON-RPC request"));
    return;
  }
  const std::string method = message["method"];
  const bool is_request = message.contains("id");
  const json id = is_request ? message["id"] : json();
  const json params = message.value("params", json::object());
  if (method == "initialize") {
    std::string version = "2025-11-25";
    if (params.is_object() && params.contains("protocolVersion") &&
        params["protocolVersion"].is_string())
      version = params["protocolVersion"];
    send(reply(id, {{"protocolVersion", version},
                    {"capabilities", {{"tools", {{"listChanged", true}}}}},
                    {"serverInfo", {{"name", "hashline"}, {"version", programVersion()}}}}));
    return;
  }
  if (method == "ide_connected") {
    claude_connected_ = true;
    log::info("claude ide: Claude Code connected (pid ",
              params.is_object() ? params.value("pid", json()).dump() : "?", ")");
    return;
  }
  if (!is_request) return; // notifications/initialized and any other notification
  if (method == "ping") return send(reply(id, json::object()));
  if (method == "tools/list") return send(reply(id, {{"tools", toolList()}}));
  if (method == "tools/call") return callTool(id, params, send);
  send(failure(id, -32601, "unknown method " + method));
}

void IdeProtocol::callTool(const json& id, const json& params, const Send& send) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
    return send(failure(id, -32602, "tools/call needs a tool name"));
  const std::string name = params["name"];
  if (name == "getWorkspaceFolders") {
    json folders = json::array();
    const std::vector<std::string> roots = roots_();
    for (const std::string& root : roots)
      folders.push_back({{"name", baseName(root)}, {"uri", pathToFileUri(root)}, {"path", root}});
    return send(reply(id, textContent({{"success", true},
                                       {"folders", folders},
                                       {"rootPath", roots.empty() ? "" : roots.front()}})));
  }
  if (name == "getOpenEditors") {
    service_.call("status", json::object(), [id, send](ServiceOutcome outcome) {
      const json* result = std::get_if<json>(&outcome);
      if (result == nullptr) return send(failure(id, -32603, "status unavailable"));
      json tabs = json::array();
      for (const json& document : result->value("documents", json::array())) {
        const std::string uri = document.value("uri", "");
        const auto path = fileUriToPath(uri);
        tabs.push_back({{"uri", uri},
                        {"fileName", path ? *path : uri},
                        {"label", baseName(path ? *path : uri)},
                        {"lineCount", document.value("lineCount", 0)}});
      }
      send(reply(id, textContent({{"tabs", tabs}})));
    });
    return;
  }
  send(failure(id, -32602, "unknown tool " + name));
}

} // namespace hashline::lsp
