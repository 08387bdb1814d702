// fromJSON for initialize params and the position-encoding choice.
#include "lsp/protocol/lifecycle.h"

#include <algorithm>

namespace hashline::lsp {

using nlohmann::json;

namespace {

// A capability member nested under `value[keys...]`, or nullptr. Capabilities are best-effort:
// a mistyped one is simply not used.
const json* dig(const json& value, std::initializer_list<const char*> keys) {
  const json* current = &value;
  for (const char* key : keys) {
    if (!current->is_object()) return nullptr;
    auto it = current->find(key);
    if (it == current->end()) return nullptr;
    current = &*it;
  }
  return current;
}

bool boolAt(const json& value, std::initializer_list<const char*> keys) {
  const json* member = dig(value, keys);
  return member && member->is_boolean() && member->get<bool>();
}

std::vector<std::string> stringsAt(const json* member) {
  std::vector<std::string> out;
  if (member && member->is_array())
    for (const auto& element : *member)
      if (element.is_string()) out.push_back(element.get<std::string>());
  return out;
}

} // namespace

bool fromJSON(const json& value, WorkspaceFolder& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("uri", out.uri) && r.mapOptional("name", out.name);
}

bool fromJSON(const json& value, WorkspaceFoldersChangeEvent& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("added", out.added) && r.map("removed", out.removed);
}

bool fromJSON(const json& value, ClientInfo& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("name", out.name) && r.mapOptional("version", out.version);
}

bool fromJSON(const json& value, ClientCapabilities& out, JsonPath path) {
  if (value.is_null()) return true;
  if (!value.is_object()) return path.report("expected an object, got " + describeJSON(value));
  out.positionEncodings = stringsAt(dig(value, {"general", "positionEncodings"}));
  if (const json* offset = dig(value, {"offsetEncoding"}); offset && offset->is_array())
    out.offsetEncoding = stringsAt(offset);
  out.applyEdit = boolAt(value, {"workspace", "applyEdit"});
  out.documentChanges = boolAt(value, {"workspace", "workspaceEdit", "documentChanges"});
  if (const json* handling = dig(value, {"workspace", "workspaceEdit", "failureHandling"});
      handling && handling->is_string())
    out.failureHandling.push_back(handling->get<std::string>());
  if (const json* annotations =
          dig(value, {"workspace", "workspaceEdit", "changeAnnotationSupport"}))
    out.changeAnnotationSupport = annotations->is_object(); // `{}` or `{groupsOnLabel}`
  out.workDoneProgress = boolAt(value, {"window", "workDoneProgress"});
  return true;
}

bool fromJSON(const json& value, InitializeParams& out, JsonPath path) {
  ObjectReader r(value, path);
  if (!r) return false;
  if (const json* options = r.find("initializationOptions")) out.initializationOptions = *options;
  return r.mapOptional("processId", out.processId) && r.mapOptional("clientInfo", out.clientInfo) &&
         r.mapOptional("rootUri", out.rootUri) && r.mapOptional("rootPath", out.rootPath) &&
         r.mapOptional("workspaceFolders", out.workspaceFolders) &&
         r.mapOptional("capabilities", out.capabilities);
}

PositionEncoding negotiatePositionEncoding(const ClientCapabilities& capabilities) {
  const std::vector<std::string>* offered = &capabilities.positionEncodings;
  if (offered->empty() && capabilities.offsetEncoding) offered = &*capabilities.offsetEncoding;
  auto offers = [&](std::string_view name) {
    return std::find(offered->begin(), offered->end(), name) != offered->end();
  };
  if (offers("utf-8") || offers("utf8")) return PositionEncoding::Utf8;
  if (offers("utf-16") || offered->empty()) return PositionEncoding::Utf16;
  if (offers("utf-32")) return PositionEncoding::Utf32;
  return PositionEncoding::Utf16;
}

json toJSON(const LogMessageParams& params) {
  return {{"type", static_cast<int>(params.type)}, {"message", params.message}};
}

} // namespace hashline::lsp
