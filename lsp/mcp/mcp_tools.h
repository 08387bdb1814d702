// The MCP tools of `hashline mcp`: their names, descriptions and JSON Schemas (written for a
// model: how anchors work, what to do on each error code), and how a call runs — the arguments
// become service params, the AgentRouter sends them to the editor's sidecar or the disk, and the
// result object becomes an MCP CallToolResult:
//   {content: [{type:"text", text: <the CLI's human rendering>}], isError: <refused or bad
//    arguments>}, plus structuredContent: <result> only when the server was asked for it
//   (`hashline mcp --structured`): agents hand the model whatever a result holds — Claude Code
//   the structuredContent instead of the text, Copilot CLI both — so the default is the rows once.
// Threading: blocking, the MCP server's thread.
#pragma once

#include "lsp/agent/agent_router.h"
#include "lsp/mcp/tool_selection.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::mcp {

/// The identity every tool call carries to the service.
struct ToolCaller {
  std::string session = "mcp";
  std::string agent = "mcp";
};

/// `tools/list`'s `tools` array: every tool.
nlohmann::json toolDefinitions();
/// The tools `selection` offers.
nlohmann::json toolDefinitions(const ToolSelection& selection);

/// The error codes an edit can be refused with and what to do on each (server instructions).
const char* errorVocabulary();

/// True when `name` is one of the tools.
bool isTool(const std::string& name);

/// What a CallToolResult carries besides the rendered text.
enum class ResultShape {
  Text,              ///< the rendering only (the default: what the model reads, once)
  TextAndStructured, ///< also the service's result object as structuredContent
};

/// Runs tool `name` with `arguments`; returns the CallToolResult.
nlohmann::json callTool(agent::AgentRouter& router, const ToolCaller& caller,
                        const std::string& name, const nlohmann::json& arguments,
                        ResultShape shape = ResultShape::Text);

} // namespace hashline::mcp
