// The protocol half of `hashline acp`; see proxy_core.h.
#include "lsp/acp/proxy_core.h"

#include "lsp/acp/acp_rewrite.h"

namespace hashline::acp {

using nlohmann::json;

namespace {

bool isHandshake(const std::string& method) {
  return method == "initialize" || method == "authenticate" || method == "session/new" ||
         method == "session/load" || method == "session/resume";
}

bool isSessionSetup(const std::string& method) {
  return method == "session/new" || method == "session/load" || method == "session/resume";
}

std::string stringMember(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

// An invalid line from the client (or the agent): an error back to the sender, and a warning.
void refuseLine(const AcpMessage& message, ProxyOutput& out, bool from_client) {
  const std::string from = from_client ? "client" : "agent";
  (from_client ? out.to_client : out.to_agent)
      .push_back(
          errorLine(message.id, message.invalid_code,
                    "hashline acp: dropped a line from the " + from + ": " + message.problem));
  out.warnings.push_back(from + " sent an invalid line: " + message.problem);
}

} // namespace

ProxyCore::ProxyCore(ProxyOptions options) : options_(std::move(options)) {}

std::string ProxyCore::agentName() const {
  if (options_.agent_name && !options_.agent_name->empty()) return *options_.agent_name;
  if (agent_info_name_) return *agent_info_name_;
  return "acp";
}

std::string ProxyCore::workspaceOf(const json& params) const {
  std::string session = stringMember(params, "sessionId");
  if (auto found = session_cwd_.find(session); found != session_cwd_.end()) return found->second;
  return options_.workspace;
}

void ProxyCore::fromClient(std::string_view line, ProxyOutput& out, Clock::time_point now) {
  AcpMessage message = readAcpLine(line);
  switch (message.kind) {
  case MessageKind::Invalid:
    refuseLine(message, out, /*from_client=*/true);
    return;
  case MessageKind::Request:
    clientRequest(message, line, out, now);
    return;
  case MessageKind::Notification:
  case MessageKind::Response:
    out.to_agent.emplace_back(line);
    return;
  }
}

void ProxyCore::clientRequest(AcpMessage& message, std::string_view line, ProxyOutput& out,
                              Clock::time_point now) {
  Pending pending;
  pending.method = message.method;
  pending.id = message.id;
  pending.handshake = isHandshake(message.method);
  pending.sent = now;
  const std::string key = idKey(message.id);
  expired_.erase(key);
  json* params = nullptr;
  if (auto found = message.body.find("params"); found != message.body.end()) params = &*found;

  bool changed = false;
  if (message.method == "initialize") {
    if (!params) params = &(message.body["params"] = json::object());
    changed = advertiseFileSystem(*params);
  } else if (isSessionSetup(message.method) && params && params->is_object()) {
    std::string cwd = stringMember(*params, "cwd");
    pending.cwd = !cwd.empty() && cwd[0] == '/' ? cwd : options_.workspace;
    pending.session = stringMember(*params, "sessionId");
    if (!pending.session.empty()) session_cwd_[pending.session] = pending.cwd;
    if (options_.inject_mcp) changed = injectMcp(*params, message.method, pending.cwd);
  }
  pending_[key] = std::move(pending);
  if (changed)
    out.to_agent.push_back(messageLine(message.body));
  else
    out.to_agent.emplace_back(line);
}

bool ProxyCore::injectMcp(json& params, const std::string& method, const std::string& cwd) {
  McpServerSpec spec;
  spec.command = options_.hashline_binary;
  spec.workspace = cwd;
  spec.agent = agentName() == "acp" ? std::string() : agentName();
  spec.protocol_version = protocol_version_;
  // A new session's id is chosen by the agent in its answer, after it started its MCP servers:
  // the tools get a session of their own. A loaded or resumed one is named by the client.
  spec.session = method == "session/new"
                     ? options_.new_session_prefix + "-" + std::to_string(++new_sessions_)
                     : stringMember(params, "sessionId");
  if (spec.session.empty()) spec.session = options_.new_session_prefix;
  return addMcpServer(params, mcpServerEntry(spec));
}

void ProxyCore::fromAgent(std::string_view line, ProxyOutput& out) {
  AcpMessage message = readAcpLine(line);
  switch (message.kind) {
  case MessageKind::Invalid:
    refuseLine(message, out, /*from_client=*/false);
    return;
  case MessageKind::Request:
    agentRequest(message, line, out);
    return;
  case MessageKind::Notification:
    if (message.method == "fs/read_text_file" || message.method == "fs/write_text_file") {
      out.warnings.push_back("agent sent " + message.method +
                             " as a notification (no id): ignored, nothing read or written");
      return;
    }
    out.to_client.emplace_back(line);
    if (message.method == "session/update")
      if (auto params = message.body.find("params"); params != message.body.end())
        noteSessionUpdate(*params, out);
    return;
  case MessageKind::Response:
    agentResponse(message, line, out);
    return;
  }
}

void ProxyCore::agentRequest(AcpMessage& message, std::string_view line, ProxyOutput& out) {
  const bool read = message.method == "fs/read_text_file";
  if (!read && message.method != "fs/write_text_file") {
    out.to_client.emplace_back(line);
    if (message.method == "session/request_permission")
      if (auto params = message.body.find("params"); params != message.body.end())
        if (auto tool = params->find("toolCall"); tool != params->end())
          noteToolCall(*params, *tool, false, out);
    return;
  }
  FileCall call;
  call.kind = read ? FileCall::Kind::Read : FileCall::Kind::Write;
  call.id = message.id;
  if (auto params = message.body.find("params"); params != message.body.end())
    call.params = std::move(*params);
  call.agent = agentName();
  call.workspace = workspaceOf(call.params);
  const std::string path = stringMember(call.params, "path");
  if (auto editing = edits_in_flight_.find(path); read && editing != edits_in_flight_.end())
    call.during_edit = !editing->second.empty();
  out.file_calls.push_back(std::move(call));
}

void ProxyCore::noteSessionUpdate(const json& params, ProxyOutput& out) {
  if (!params.is_object()) return;
  auto update = params.find("update");
  if (update == params.end() || !update->is_object()) return;
  const std::string kind_of_update = stringMember(*update, "sessionUpdate");
  if (kind_of_update != "tool_call" && kind_of_update != "tool_call_update") return;
  noteToolCall(params, *update, kind_of_update == "tool_call_update", out);
}

void ProxyCore::noteToolCall(const json& params, const json& tool, bool is_update,
                             ProxyOutput& out) {
  if (!tool.is_object()) return;
  const std::string id = stringMember(tool, "toolCallId");
  const std::string kind = stringMember(tool, "kind");
  const std::string status = stringMember(tool, "status");
  bool edits = kind == "edit" || kind == "delete" || kind == "move";
  if (kind.empty() && is_update) edits = edit_tool_calls_.count(id) > 0;
  if (edits && !id.empty()) {
    if (edit_tool_calls_.size() > 4096) edit_tool_calls_.clear();
    edit_tool_calls_.insert(id);
  }
  // While an edit tool call runs, the tool's own reads of its files are not the model's view.
  if (!id.empty() && (status == "completed" || status == "failed")) {
    for (const std::string& path : tool_paths_[id])
      if (auto editing = edits_in_flight_.find(path); editing != edits_in_flight_.end()) {
        editing->second.erase(id);
        if (editing->second.empty()) edits_in_flight_.erase(editing);
      }
    tool_paths_.erase(id);
  }
  const json& update = tool;
  std::set<std::string> paths;
  auto collect = [&paths](const json& list, bool diffs_only) {
    if (!list.is_array()) return;
    for (const json& entry : list) {
      if (diffs_only && stringMember(entry, "type") != "diff") continue;
      std::string path = stringMember(entry, "path");
      if (!path.empty() && path[0] == '/') paths.insert(std::move(path));
    }
  };
  if (auto content = update.find("content"); content != update.end()) collect(*content, true);
  if (auto locations = update.find("locations"); edits && locations != update.end())
    collect(*locations, false);
  if (edits && !id.empty() && status != "completed" && status != "failed" &&
      tool_paths_.size() < 4096)
    for (const std::string& path : paths) {
      edits_in_flight_[path].insert(id);
      tool_paths_[id].insert(path);
    }
  for (const std::string& path : paths) {
    FileCall call;
    call.kind = FileCall::Kind::Attribute;
    call.params = {{"sessionId", stringMember(params, "sessionId")}, {"path", path}};
    call.agent = agentName();
    call.workspace = workspaceOf(params);
    out.file_calls.push_back(std::move(call));
  }
}

void ProxyCore::agentResponse(const AcpMessage& message, std::string_view line, ProxyOutput& out) {
  const std::string key = idKey(message.id);
  if (expired_.erase(key)) {
    out.warnings.push_back("dropped the agent's late answer to request " + key +
                           " (already answered with a timeout error)");
    return;
  }
  auto found = pending_.find(key);
  if (found != pending_.end()) {
    const Pending& pending = found->second;
    auto result = message.body.find("result");
    if (result != message.body.end()) {
      if (pending.method == "initialize") {
        agent_info_name_ = agentNameFrom(*result);
        protocol_version_ = protocolVersionFrom(*result);
      } else if (pending.method == "session/new") {
        std::string session = stringMember(*result, "sessionId");
        if (!session.empty()) session_cwd_[session] = pending.cwd;
      }
    }
    pending_.erase(found);
  }
  out.to_client.emplace_back(line);
}

void ProxyCore::oversized(Side from, std::size_t bytes, std::size_t limit, ProxyOutput& out) {
  const std::string what = from == Side::Client ? "client" : "agent";
  std::string message = "hashline acp: dropped a line of " + std::to_string(bytes) +
                        " bytes from the " + what + ": longer than the limit of " +
                        std::to_string(limit) + " bytes (--max-message-bytes)";
  (from == Side::Client ? out.to_client : out.to_agent)
      .push_back(errorLine(nullptr, -32600, message));
  out.warnings.push_back(std::move(message));
}

void ProxyCore::agentGone(const std::string& why, ProxyOutput& out) {
  for (auto& [key, pending] : pending_)
    out.to_client.push_back(errorLine(pending.id, -32603,
                                      "hashline acp: the agent (" + agentName() + ") " + why +
                                          " before answering " + pending.method));
  pending_.clear();
}

void ProxyCore::expire(Clock::time_point now, std::chrono::milliseconds timeout, ProxyOutput& out) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (!it->second.handshake || now - it->second.sent < timeout) {
      ++it;
      continue;
    }
    out.to_client.push_back(
        errorLine(it->second.id, -32603,
                  "hashline acp: the agent (" + agentName() + ") did not answer " +
                      it->second.method + " within " + std::to_string(timeout.count() / 1000) +
                      " s (--handshake-timeout); check that the agent command runs in ACP mode"));
    expired_.insert(it->first);
    it = pending_.erase(it);
  }
}

std::optional<ProxyCore::Clock::time_point>
ProxyCore::nextDeadline(std::chrono::milliseconds timeout) const {
  std::optional<Clock::time_point> earliest;
  for (const auto& [key, pending] : pending_)
    if (pending.handshake && (!earliest || pending.sent + timeout < *earliest))
      earliest = pending.sent + timeout;
  return earliest;
}

} // namespace hashline::acp
