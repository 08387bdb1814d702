// The MCP dialect of Claude Code's IDE connection; see ide_protocol.h.
#include "lsp/ide/ide_protocol.h"

#include "lsp/support/log.h"
#include "lsp/support/uri.h"
#include "lsp/version.h"

#include <cctype>

namespace hashline::lsp {

namespace {

using json = nlohmann::json;

json reply(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json failure(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json textItem(const std::string& text) {
  return {{"content", json::array({{{"type", "text"}, {"text", text}}})}};
}

json textContent(const json& value) {
  return {{"content", json::array({{{"type", "text"}, {"text", value.dump()}}})}};
}

std::string baseName(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

json pathArgument() {
  return {{"type", "object"},
          {"properties", {{"filePath", {{"type", "string"}}}}},
          {"required", json::array({"filePath"})}};
}

/// Claude Code's getDiagnostics answer: [{uri, diagnostics: [{message, severity, range, source?,
/// code?}]}], positions 0-based, severity capitalized as VS Code names it.
json ideDiagnostics(const json& listed) {
  json files = json::array();
  for (const json& file : listed.value("files", json::array())) {
    json diagnostics = json::array();
    for (const json& item : file.value("diagnostics", json::array())) {
      std::string severity = item.value("severity", std::string("error"));
      if (!severity.empty()) severity[0] = static_cast<char>(std::toupper(severity[0]));
      const int line = item.value("line", 1) - 1;
      json entry = {{"message", item.value("message", std::string())},
                    {"severity", severity},
                    {"range",
                     {{"start", {{"line", line}, {"character", item.value("character", 0)}}},
                      {"end", {{"line", item.value("endLine", line + 1) - 1}, {"character", 0}}}}}};
      if (item.contains("source")) entry["source"] = item["source"];
      if (item.contains("code")) entry["code"] = item["code"];
      diagnostics.push_back(std::move(entry));
    }
    files.push_back({{"uri", file.value("uri", std::string())}, {"diagnostics", diagnostics}});
  }
  return files;
}

/// Claude Code's selection answer from the `context` method's: {success, text, filePath,
/// fileUrl, selection: {start, end, isEmpty}} or {success: false, message}.
json ideSelection(const json& context, bool latest) {
  const json* document = nullptr;
  const json* selection = nullptr;
  if (context.value("available", false)) {
    const json& active = context["active"];
    if (active.is_object() && !active.value("selections", json::array()).empty() &&
        !(latest && active["selections"][0].value("empty", true))) {
      document = &active;
      selection = &active["selections"][0];
    } else if (latest && context.contains("latestSelection")) {
      document = &context["latestSelection"];
      selection = &context["latestSelection"]["selection"];
    }
  }
  if (!document || !selection)
    return {{"success", false},
            {"message", latest ? "No selection available" : "No active editor found"}};
  auto position = [](const json& at) {
    return json{{"line", at.value("line", 1) - 1}, {"character", at.value("character", 0)}};
  };
  const std::string path = document->value("path", std::string());
  return {{"success", true},
          {"text", selection->value("text", std::string())},
          {"filePath", path},
          {"fileUrl", document->value("uri", std::string())},
          {"selection",
           {{"start", position(selection->value("from", json::object()))},
            {"end", position(selection->value("to", json::object()))},
            {"isEmpty", selection->value("empty", true)}}}};
}

} // namespace

json IdeProtocol::toolList() const {
  const json no_arguments = {{"type", "object"}, {"properties", json::object()}};
  json tools = json::array(
      {{{"name", "getWorkspaceFolders"},
        {"description", "The workspace folders of the editor hashline is attached to."},
        {"inputSchema", no_arguments}},
       {{"name", "getOpenEditors"},
        {"description", "The documents open in the editor (its live buffers, unsaved text "
                        "included, as hashline mirrors them)."},
        {"inputSchema", no_arguments}}});
  tools.push_back(
      {{"name", "getDiagnostics"},
       {"description", "The diagnostics the editor's language servers report (unsaved "
                       "text included), for one file (uri) or every file."},
       {"inputSchema", {{"type", "object"}, {"properties", {{"uri", {{"type", "string"}}}}}}}});
  tools.push_back({{"name", "getCurrentSelection"},
                   {"description", "The user's current selection in the editor."},
                   {"inputSchema", no_arguments}});
  tools.push_back({{"name", "getLatestSelection"},
                   {"description", "The user's latest non-empty selection in the editor."},
                   {"inputSchema", no_arguments}});
  if (dirty_)
    tools.push_back({{"name", "checkDocumentDirty"},
                     {"description", "Whether a file's editor buffer differs from the disk."},
                     {"inputSchema", pathArgument()}});
  if (editor_tools_) {
    tools.push_back(
        {{"name", "openFile"},
         {"description", "Opens a file in the editor, optionally selecting from the first line "
                         "holding startText to the first after it holding endText."},
         {"inputSchema",
          {{"type", "object"},
           {"properties",
            {{"filePath", {{"type", "string"}}},
             {"preview", {{"type", "boolean"}}},
             {"startText", {{"type", "string"}}},
             {"endText", {{"type", "string"}}},
             {"selectToEndOfLine", {{"type", "boolean"}}},
             {"makeFrontmost", {{"type", "boolean"}}}}},
           {"required", json::array({"filePath"})}}}});
    tools.push_back({{"name", "saveDocument"},
                     {"description", "Saves a file's editor buffer to disk, as the user would."},
                     {"inputSchema", pathArgument()}});
  }
  if (diffs_) {
    tools.push_back(
        {{"name", "openDiff"},
         {"description", "Proposes a file's new contents: merged into the editor's live buffer "
                         "(the user's unsaved typing kept) for the user to accept or reject."},
         {"inputSchema",
          {{"type", "object"},
           {"properties",
            {{"old_file_path", {{"type", "string"}}},
             {"new_file_path", {{"type", "string"}}},
             {"new_file_contents", {{"type", "string"}}},
             {"tab_name", {{"type", "string"}}}}},
           {"required", json::array({"new_file_path", "new_file_contents"})}}}});
    tools.push_back({{"name", "close_tab"},
                     {"description", "Closes a diff: its review, if still undecided, is dropped."},
                     {"inputSchema",
                      {{"type", "object"}, {"properties", {{"tab_name", {{"type", "string"}}}}}}}});
    tools.push_back({{"name", "closeAllDiffTabs"},
                     {"description", "Closes every diff: the undecided reviews are dropped."},
                     {"inputSchema", no_arguments}});
  }
  return tools;
}

void IdeProtocol::handle(const json& message, const Send& send, std::weak_ptr<void> connection) {
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    if (message.is_object() && message.contains("id"))
      send(failure(message["id"], -32600, "not a JSON-RPC request"));
    return;
  }
  const std::string method = message["method"];
  const bool is_request = message.contains("id");
  const json id = is_request ? message["id"] : json();
  const json params = message.value("params", json::object());
  const void* key = connection.lock().get();
  if (method == "initialize") {
    std::string version = "2025-11-25";
    if (params.is_object() && params.contains("protocolVersion") &&
        params["protocolVersion"].is_string())
      version = params["protocolVersion"];
    if (key && params.is_object() && params.contains("clientInfo") &&
        params["clientInfo"].is_object()) {
      const json& info = params["clientInfo"];
      Client& client = clients_[key];
      if (info.contains("name") && info["name"].is_string()) client.name = info["name"];
      if (info.contains("version") && info["version"].is_string()) client.version = info["version"];
    }
    send(reply(id, {{"protocolVersion", version},
                    {"capabilities", {{"tools", {{"listChanged", true}}}}},
                    {"serverInfo", {{"name", "hashline"}, {"version", programVersion()}}}}));
    return;
  }
  if (method == "ide_connected") {
    log::info("claude ide: Claude Code connected (pid ",
              params.is_object() ? params.value("pid", json()).dump() : "?", ")");
    if (!key) return;
    Client& client = clients_[key];
    if (params.is_object() && params.contains("pid") && params["pid"].is_number_integer())
      client.pid = params["pid"].get<std::int64_t>();
    client.connected = true;
    if (clients_changed_) clients_changed_();
    return;
  }
  if (!is_request) return; // notifications/initialized and any other notification
  if (method == "ping") return send(reply(id, json::object()));
  if (method == "tools/list") return send(reply(id, {{"tools", toolList()}}));
  if (method == "tools/call") return callTool(id, params, send, std::move(connection));
  send(failure(id, -32601, "unknown method " + method));
}

void IdeProtocol::connectionClosed(const void* connection) {
  if (diffs_) diffs_->connectionClosed(connection);
  auto it = clients_.find(connection);
  if (it == clients_.end()) return;
  const bool was_connected = it->second.connected;
  clients_.erase(it);
  if (!was_connected) return;
  log::info("claude ide: Claude Code disconnected");
  if (clients_changed_) clients_changed_();
}

json IdeProtocol::connectedClients() const {
  json clients = json::array();
  for (const auto& [key, client] : clients_) {
    if (!client.connected) continue;
    json entry = {{"name", client.name.empty() ? "claude-code" : client.name},
                  {"version", client.version}};
    entry["pid"] = client.pid ? json(*client.pid) : json(nullptr);
    clients.push_back(std::move(entry));
  }
  return clients;
}

void IdeProtocol::callTool(const json& id, const json& params, const Send& send,
                           std::weak_ptr<void> connection) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
    return send(failure(id, -32602, "tools/call needs a tool name"));
  const std::string name = params["name"];
  const json arguments = params.value("arguments", json::object());
  if (name == "openDiff" && diffs_) {
    std::string problem;
    auto request = IdeOpenDiff::parse(arguments, problem);
    if (!request) return send(failure(id, -32602, "openDiff: " + problem));
    const void* key = connection.lock().get();
    diffs_->open(
        std::move(*request), [id, send](json result) { send(reply(id, result)); }, key,
        std::move(connection));
    return;
  }
  if ((name == "openFile" || name == "saveDocument") && editor_tools_) {
    auto answer = [id, send, alive = std::move(connection)](json result) {
      if (alive.expired()) return; // the connection closed meanwhile
      send(reply(id, std::move(result)));
    };
    if (name == "openFile") return editor_tools_->openFile(arguments, std::move(answer));
    return editor_tools_->saveDocument(arguments, std::move(answer));
  }
  // Claude Code closes its diff "tabs" once its terminal settled them (or to start afresh): the
  // reviews still undecided are dropped; the answer goes once their proposals left the buffer.
  if (name == "close_tab" && diffs_) {
    const std::string tab =
        arguments.is_object() && arguments.contains("tab_name") && arguments["tab_name"].is_string()
            ? arguments["tab_name"].get<std::string>()
            : std::string();
    diffs_->closeTab(connection.lock().get(), tab, [id, send, alive = connection] {
      if (!alive.expired()) send(reply(id, textItem("TAB_CLOSED")));
    });
    return;
  }
  if (name == "closeAllDiffTabs" && diffs_) {
    diffs_->closeAll(connection.lock().get(), [id, send, alive = connection](std::size_t count) {
      if (!alive.expired())
        send(reply(id, textItem("CLOSED_" + std::to_string(count) + "_DIFF_TABS")));
    });
    return;
  }
  if (name == "checkDocumentDirty" && dirty_) {
    if (!arguments.is_object() || !arguments.contains("filePath") ||
        !arguments["filePath"].is_string())
      return send(failure(id, -32602, "checkDocumentDirty: missing filePath"));
    const std::string path = arguments["filePath"];
    std::optional<bool> dirty = dirty_(path);
    if (!dirty)
      return send(
          reply(id, textContent({{"success", false}, {"message", "Document not open: " + path}})));
    return send(reply(
        id,
        textContent(
            {{"success", true}, {"filePath", path}, {"isDirty", *dirty}, {"isUntitled", false}})));
  }
  if (name == "getDiagnostics") {
    json request = json::object();
    if (arguments.is_object() && arguments.contains("uri") && arguments["uri"].is_string() &&
        !arguments["uri"].get<std::string>().empty())
      request["uri"] = arguments["uri"];
    service_.call("diagnostics", std::move(request), [id, send](ServiceOutcome outcome) {
      const json* result = std::get_if<json>(&outcome);
      if (result == nullptr) return send(failure(id, -32602, std::get<RpcError>(outcome).message));
      if (result->value("status", "") == "refused")
        return send(reply(id, textContent({{"success", false},
                                           {"message", (*result)["error"].value("message", "")}})));
      send(reply(id, textContent(ideDiagnostics(*result))));
    });
    return;
  }
  if (name == "getCurrentSelection" || name == "getLatestSelection") {
    const bool latest = name == "getLatestSelection";
    service_.call("context", json::object(), [id, send, latest](ServiceOutcome outcome) {
      const json* result = std::get_if<json>(&outcome);
      if (result == nullptr) return send(failure(id, -32603, "context unavailable"));
      send(reply(id, textContent(ideSelection(*result, latest))));
    });
    return;
  }
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
