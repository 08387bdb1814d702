// Parsing `--tools read,edit,...` against the tool table; see tool_selection.h.
#include "lsp/mcp/tool_selection.h"

#include "lsp/mcp/mcp_tools.h"

#include <sstream>

namespace hashline::mcp {

std::variant<ToolSelection, std::string> parseToolSelection(const std::string& list) {
  std::set<std::string> chosen;
  std::stringstream stream(list);
  std::string name;
  while (std::getline(stream, name, ',')) {
    if (name.empty()) continue;
    if (name == "all") return ToolSelection{};
    std::string full = name.rfind("hashline_", 0) == 0 ? name : "hashline_" + name;
    if (!isTool(full)) return "unknown tool '" + name + "'";
    chosen.insert(full);
  }
  if (chosen.empty()) return std::string("--tools names no tool");
  return ToolSelection{std::move(chosen)};
}

} // namespace hashline::mcp
