// AgentClient: a blocking, one-shot client of a sidecar's agent socket, for the CLI and MCP.
//
// `callSidecar` connects to the Unix socket, sends one JSON-RPC request framed exactly like LSP
// (`Content-Length`), and reads frames until the response with its id arrives (other messages
// are skipped), or until `timeout` passes. The outcome is the service's: a result object, or the
// RpcError the sidecar answered. Failing to connect, a closed connection, a broken frame or the
// timeout are IO_ERROR (the caller turns them into a refusal with a hint; it never falls back to
// writing the disk behind the editor).
//
// Threading: blocking; call from any thread, one call per connection.
#pragma once

#include "engine/support/result.h"
#include "lsp/service/agent_service.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace hashline::agent {

inline constexpr std::chrono::milliseconds kDefaultSidecarTimeout{60'000};

/// Calls `method` (the full wire name, e.g. "hashline/read") on the sidecar at `socket_path`.
Result<lsp::ServiceOutcome> callSidecar(const std::string& socket_path, const std::string& method,
                                        const nlohmann::json& params,
                                        std::chrono::milliseconds timeout = kDefaultSidecarTimeout);

} // namespace hashline::agent
