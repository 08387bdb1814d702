// The three changes the ACP proxy makes to messages it passes on (docs/acp.md):
// - `initialize` (client → agent): the client is said to read and write text files
//   (clientCapabilities.fs.readTextFile / writeTextFile = true), whatever it said, so agents that
//   route file access through the client do — and the proxy answers those calls;
// - `session/new`, `session/load`, `session/resume` (client → agent): hashline's MCP server is
//   added to `mcpServers` unless one is there already;
// - the agent's `initialize` answer gives the agent's name for the journal (agentInfo).
// Params of an unexpected shape are left as they are (the agent answers them as it would
// without the proxy). Threading: none; pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::acp {

/// Sets params.clientCapabilities.fs.{readTextFile,writeTextFile} = true. False (nothing changed)
/// when params, clientCapabilities or fs is present but not an object.
bool advertiseFileSystem(nlohmann::json& params);

/// What the injected MCP server runs: this hashline binary's `mcp`.
struct McpServerSpec {
  std::string command;   // absolute path of the hashline binary
  std::string workspace; // the session's cwd (or --workspace)
  std::string session;   // the hashline session its tools act as
  std::string agent;     // the agent's name (empty: the MCP client's own)
  int protocol_version = 1;
};

/// The stdio entry of `mcpServers` for `spec` ({name, command, args, env}; `type: "stdio"` from
/// protocol version 2 on, as the v2 draft wants).
nlohmann::json mcpServerEntry(const McpServerSpec& spec);

/// True when `entry` is hashline's MCP server already (named "hashline", or a command named
/// hashline run with `mcp`).
bool isHashlineMcpServer(const nlohmann::json& entry);

/// Adds `entry` to params.mcpServers (created when missing; an empty object, as some Lua clients
/// encode `{}`, counts as an empty list). False when one is there already or the shape is not a
/// list.
bool addMcpServer(nlohmann::json& params, const nlohmann::json& entry);

/// agentInfo.name (else agentInfo.title) of an `initialize` result.
std::optional<std::string> agentNameFrom(const nlohmann::json& result);
/// The protocolVersion of an `initialize` result (1 when absent or not an integer).
int protocolVersionFrom(const nlohmann::json& result);

} // namespace hashline::acp
