// McpServer: the Model Context Protocol over stdio (newline-delimited JSON-RPC 2.0, no
// Content-Length framing), as `hashline mcp` serves it to agents (Claude Code, Codex, ...).
//
// Protocol versions 2025-06-18 and 2025-11-25: `initialize` echoes the client's version when it
// is one of these, else answers the latest. Methods: initialize, ping, tools/list, tools/call
// (mcp_tools.h); notifications (notifications/initialized, notifications/cancelled, ...) are
// accepted and ignored; an unknown method → -32601, an unknown tool → -32602, a line that is not
// JSON → -32700 with id null, a message that is not a request → -32600. Responses the client
// sends are ignored. Nothing is ever written to stdout but protocol messages.
//
// Threading: `handleLine` is pure protocol on the caller's thread; `serve` loops over stdin.
#pragma once

#include "lsp/agent/agent_router.h"
#include "lsp/mcp/mcp_tools.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::mcp {

inline constexpr const char* kLatestProtocolVersion = "2025-11-25";

class McpServer {
public:
  /// Offers the tools of `tools` (default: all).
  McpServer(agent::RouterOptions router_options, ToolCaller caller, ToolSelection tools = {});

  /// Handles one line; returns the line to send back (without newline), if any.
  std::optional<std::string> handleLine(const std::string& line);
  /// Keeps the agent name given at construction instead of the client's clientInfo.name.
  void keepAgentName() { caller_named_ = true; }
  /// Reads lines from `in` until EOF, writes answers to `out`; returns the exit code.
  int serve(std::istream& in, std::ostream& out);

private:
  nlohmann::json handleRequest(const std::string& method, const nlohmann::json& params);

  agent::AgentRouter router_;
  ToolCaller caller_;
  ToolSelection tools_;
  bool caller_named_ = false; // agent name given explicitly (else taken from clientInfo)
  std::string protocol_version_ = kLatestProtocolVersion;
};

} // namespace hashline::mcp
