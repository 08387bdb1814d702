// McpServer: the Model Context Protocol as `hashline mcp` serves it to agents (Claude Code,
// Codex, ...) on stdio — newline-delimited JSON-RPC 2.0.
//
// It is one more RpcHandler on the JSON-RPC core the editor's LSP server and the agent socket
// use: a StreamTransport in the Lines framing (lsp/transport/line_framing.h) feeds a
// JsonRpcConnection, which answers protocol faults the same way everywhere — a line that is not
// JSON → -32700 with id null, a message that is not one JSON-RPC object (a batch included) →
// -32600, a line over the message cap (--max-message-bytes) → -32600 with id null and the line
// skipped, a handler that throws → -32603 — and keeps the connection. Responses the client sends
// are ignored.
//
// Protocol versions 2025-06-18 and 2025-11-25: `initialize` echoes the client's version when it
// is one of these, else answers the latest, with the server's instructions. Methods (a
// MethodRegistry): initialize, ping, tools/list, tools/call (mcp_tools.h; a refused edit is an
// isError result, an unknown or not offered tool -32602); notifications
// (notifications/initialized, notifications/cancelled, ...) are accepted and ignored; an unknown
// method → -32601. Nothing is ever written to stdout but protocol messages.
//
// Threading: single-threaded; `run` drives the io_context until the input ends. Tool calls block
// that thread (the router is blocking), so requests are answered in order.
#pragma once

#include "lsp/agent/agent_router.h"
#include "lsp/mcp/mcp_tools.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/server/method_registry.h"
#include "lsp/transport/transport.h"

#include <boost/asio/io_context.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::mcp {

inline constexpr const char* kLatestProtocolVersion = "2025-11-25";

class McpServer : public lsp::RpcHandler {
public:
  /// Serves on `transport` (Lines framing); offers the tools of `tools` (default: all).
  McpServer(boost::asio::io_context& io, std::unique_ptr<lsp::Transport> transport,
            agent::RouterOptions router_options, ToolCaller caller, ToolSelection tools = {});
  ~McpServer() override;

  /// Keeps the agent name given at construction instead of the client's clientInfo.name.
  void keepAgentName() { caller_named_ = true; }
  /// Tool results also carry the service's result object as structuredContent.
  void offerStructuredContent() { result_shape_ = ResultShape::TextAndStructured; }
  /// Serves until the input ends; returns the exit code (0 at the end of input, 1 when the
  /// stream failed).
  int run();

  // --- RpcHandler ------------------------------------------------------------------------------
  void onRequest(const std::string& method, nlohmann::json params, lsp::Reply reply) override;
  void onNotification(const std::string& method, nlohmann::json params) override;
  void onInputClosed(const std::string& problem) override;

private:
  void initialize(const nlohmann::json& params, const lsp::Reply& reply);
  void callTool(const nlohmann::json& params, const lsp::Reply& reply);

  boost::asio::io_context& io_;
  std::unique_ptr<lsp::Transport> transport_;
  lsp::JsonRpcConnection connection_;
  lsp::MethodRegistry methods_;
  agent::AgentRouter router_;
  ToolCaller caller_;
  ToolSelection tools_;
  ResultShape result_shape_ = ResultShape::Text;
  bool caller_named_ = false; // agent name given explicitly (else taken from clientInfo)
  std::string protocol_version_ = kLatestProtocolVersion;
  bool stopping_ = false;
  int exit_code_ = 0;
};

} // namespace hashline::mcp
