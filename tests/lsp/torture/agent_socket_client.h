// AgentSocketClient: one agent's persistent connection to the agent socket of a running
// `hashline lsp` (lsp/agent/agent_endpoint.h), for the torture tests. It speaks JSON-RPC with
// Content-Length framing, may have several requests in flight, and files answers by id (an
// answer that arrives while waiting for another is kept for its own wait).
// `waitForSidecarSocket` finds the socket through the discovery file the sidecar publishes in
// HASHLINE_RUNTIME_DIR (lsp/agent/discovery.h).
//
// Threading: one client belongs to one thread (an agent's); clients are independent.
#pragma once

#include "lsp/transport/framing.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::test {

/// The `socket` of the single sidecar-*.json in `runtime_dir`, waiting for it up to `patience`.
std::optional<std::string> waitForSidecarSocket(const std::string& runtime_dir,
                                                std::chrono::milliseconds patience);

class AgentSocketClient {
public:
  using json = nlohmann::json;

  /// Connects to the Unix socket `path`; see connected().
  explicit AgentSocketClient(const std::string& path);
  ~AgentSocketClient();
  AgentSocketClient(const AgentSocketClient&) = delete;
  AgentSocketClient& operator=(const AgentSocketClient&) = delete;

  bool connected() const { return fd_ >= 0; }
  /// Sends a request; returns its id, or nullopt when the write failed.
  std::optional<std::int64_t> send(const std::string& method, const json& params);
  /// The whole response for `id` ({"id", "result"} or {"id", "error"}); nullopt when the
  /// connection ended, broke its framing, or nothing came within `patience`.
  std::optional<json> wait(std::int64_t id, std::chrono::milliseconds patience);
  /// What went wrong last (for failure messages).
  const std::string& problem() const { return problem_; }

private:
  int fd_ = -1;
  std::int64_t next_id_ = 1;
  lsp::FrameParser parser_;
  std::map<std::int64_t, json> answers_; // arrived, not yet waited for
  std::string problem_;
};

} // namespace hashline::test
