// Unknown tools/call arguments; see tool_arguments.h.
#include "lsp/mcp/tool_arguments.h"

namespace hashline::mcp {

using nlohmann::json;

namespace {

std::string namesOf(const json& properties) {
  std::string names;
  for (auto it = properties.begin(); it != properties.end(); ++it)
    names += (names.empty() ? "" : ", ") + it.key();
  return names.empty() ? "no arguments" : names;
}

/// The first member of `object` that `schema` (an object schema) does not name.
std::optional<std::string> unknownMember(const std::string& tool, const json& schema,
                                         const json& object, const std::string& where) {
  if (!schema.is_object() || !object.is_object()) return std::nullopt;
  auto properties = schema.find("properties");
  if (properties == schema.end() || !properties->is_object()) return std::nullopt;
  for (auto member = object.begin(); member != object.end(); ++member) {
    auto known = properties->find(member.key());
    if (known == properties->end()) {
      if (member->is_null()) continue;
      return where + "." + member.key() + ": unknown argument (" + tool + " takes " +
             namesOf(*properties) + ")";
    }
    // Arrays of objects with an item schema (`edits`): their members too.
    auto items = known->find("items");
    if (items == known->end() || !member->is_array()) continue;
    std::size_t index = 0;
    for (const json& element : *member) {
      std::string at = where + "." + member.key() + "[" + std::to_string(index++) + "]";
      if (auto unknown = unknownMember(tool, *items, element, at)) return unknown;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> unknownArgument(const std::string& tool, const json& schema,
                                           const json& arguments) {
  return unknownMember(tool, schema, arguments, "params");
}

} // namespace hashline::mcp
