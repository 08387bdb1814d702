// Tool profiles of `hashline mcp --tools read,edit,...`: which of the MCP tools a server offers.
// An agent that pays per token for every tools/list entry can ask for the few it uses; a tool not
// offered is not listed and a call to it is refused as an unknown tool.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <variant>

namespace hashline::mcp {

/// The offered tools by full name (`hashline_read`); empty optional = every tool.
struct ToolSelection {
  std::optional<std::set<std::string>> only;

  bool offers(const std::string& tool_name) const { return !only || only->count(tool_name) > 0; }
};

/// Parses a comma-separated list of tool names, short (`read`) or full (`hashline_read`), or
/// `all`; returns the selection or an error message naming the unknown tool.
std::variant<ToolSelection, std::string> parseToolSelection(const std::string& list);

} // namespace hashline::mcp
