// The journal's MCP tools (hashline_log, hashline_diff, hashline_undo, hashline_rewind,
// hashline_turn, hashline_pending, hashline_accept, hashline_reject): names, descriptions and
// JSON Schemas written for a model. They run through mcp_tools.cpp's callTool like every tool
// (tool name minus "hashline_" is the service method); mcp_tools.cpp appends these definitions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace hashline::mcp {

/// The journal tools' definitions, for `tools/list`.
nlohmann::json journalToolDefinitions();
bool isJournalTool(const std::string& name);

} // namespace hashline::mcp
