// AgentClient: a blocking client of a sidecar's agent socket, for the CLI, MCP and doctor.
//
// A SidecarConnection connects to the Unix socket on its first call and sends JSON-RPC requests
// framed exactly like LSP (`Content-Length`), one at a time, reading frames until the response
// with the request's id arrives (other messages are skipped) or until the call's timeout passes.
// The answer is the service's outcome (a result object, or the RpcError the sidecar answered), or
// a SidecarFault saying how the sidecar failed: Unreachable (no such socket, connection refused —
// nothing was sent), NoAnswer (the timeout passed), Closed (the connection ended before the
// answer) or Garbled (a broken frame); `delivered` tells whether the request may have reached the
// sidecar, which may then still act on it. The router turns a fault into SIDECAR_GONE; it never
// falls back to writing the disk behind the editor.
//
// Threading: blocking; one connection per thread.
#pragma once

#include "engine/support/result.h"
#include "lsp/disk/unique_fd.h"
#include "lsp/service/agent_service.h"
#include "lsp/transport/framing.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

namespace hashline::agent {

inline constexpr std::chrono::milliseconds kDefaultSidecarTimeout{60'000};

struct SidecarFault {
  enum class Kind { Unreachable, NoAnswer, Closed, Garbled } kind = Kind::Unreachable;
  bool delivered = false; // the request was (partly) sent: the sidecar may still act on it
  std::string message;
};

using SidecarAnswer = std::variant<lsp::ServiceOutcome, SidecarFault>;

class SidecarConnection {
public:
  explicit SidecarConnection(std::string socket_path);
  /// Calls `method` (the full wire name, e.g. "hashline/read"); connects on the first call.
  SidecarAnswer call(const std::string& method, const nlohmann::json& params,
                     std::chrono::milliseconds timeout);

private:
  std::optional<SidecarFault> connect();

  std::string socket_path_;
  disk::UniqueFd socket_;
  lsp::FrameParser parser_;
  std::int64_t next_id_ = 1;
};

/// One call over a new connection; a fault is IO_ERROR with its message (doctor's probe).
Result<lsp::ServiceOutcome> callSidecar(const std::string& socket_path, const std::string& method,
                                        const nlohmann::json& params,
                                        std::chrono::milliseconds timeout = kDefaultSidecarTimeout);

} // namespace hashline::agent
