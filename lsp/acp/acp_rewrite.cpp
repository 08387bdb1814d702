// The proxy's message rewrites; see acp_rewrite.h.
#include "lsp/acp/acp_rewrite.h"

namespace hashline::acp {

using nlohmann::json;

namespace {

/// `parent[key]` as an object, created when missing; null when it holds something else.
json* objectMember(json& parent, const char* key) {
  auto found = parent.find(key);
  if (found == parent.end()) return &(parent[key] = json::object());
  return found->is_object() ? &*found : nullptr;
}

std::string baseName(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

bool advertiseFileSystem(json& params) {
  if (params.is_null()) params = json::object();
  if (!params.is_object()) return false;
  json* capabilities = objectMember(params, "clientCapabilities");
  if (!capabilities) return false;
  json* fs = objectMember(*capabilities, "fs");
  if (!fs) return false;
  (*fs)["readTextFile"] = true;
  (*fs)["writeTextFile"] = true;
  return true;
}

json mcpServerEntry(const McpServerSpec& spec) {
  json args = json::array({"mcp", "--workspace", spec.workspace, "--session", spec.session});
  if (!spec.agent.empty()) {
    args.push_back("--agent");
    args.push_back(spec.agent);
  }
  json entry = {{"name", "hashline"},
                {"command", spec.command},
                {"args", std::move(args)},
                {"env", json::array()}};
  if (spec.protocol_version >= 2) entry["type"] = "stdio";
  return entry;
}

bool isHashlineMcpServer(const json& entry) {
  if (!entry.is_object()) return false;
  auto name = entry.find("name");
  if (name != entry.end() && name->is_string() && *name == "hashline") return true;
  auto command = entry.find("command");
  auto args = entry.find("args");
  if (command == entry.end() || !command->is_string()) return false;
  std::string program = baseName(command->get<std::string>());
  if (program != "hashline" && program != "hashline.exe") return false;
  if (args == entry.end() || !args->is_array()) return false;
  for (const json& arg : *args)
    if (arg.is_string() && arg == "mcp") return true;
  return false;
}

bool addMcpServer(json& params, const json& entry) {
  if (!params.is_object()) return false;
  auto servers = params.find("mcpServers");
  if (servers == params.end() || servers->is_null() || (servers->is_object() && servers->empty())) {
    params["mcpServers"] = json::array({entry});
    return true;
  }
  if (!servers->is_array()) return false;
  for (const json& existing : *servers)
    if (isHashlineMcpServer(existing)) return false;
  servers->push_back(entry);
  return true;
}

std::optional<std::string> agentNameFrom(const json& result) {
  if (!result.is_object()) return std::nullopt;
  auto info = result.find("agentInfo");
  if (info == result.end() || !info->is_object()) return std::nullopt;
  for (const char* key : {"name", "title"}) {
    auto value = info->find(key);
    if (value != info->end() && value->is_string() && !value->get<std::string>().empty())
      return value->get<std::string>();
  }
  return std::nullopt;
}

int protocolVersionFrom(const json& result) {
  if (!result.is_object()) return 1;
  auto version = result.find("protocolVersion");
  if (version == result.end() || !version->is_number_integer()) return 1;
  return static_cast<int>(version->get<std::int64_t>());
}

} // namespace hashline::acp
