// IdeServer: the WebSocket end of Claude Code's IDE connection (docs/claude-ide.md), on
// 127.0.0.1 and an ephemeral port, on the server's io_context.
//
// Each TCP connection first sends an HTTP upgrade request (header block capped at 8 KiB); it is
// judged by checkIdeUpgrade (token, no Origin) and refused with a plain HTTP status before any
// WebSocket frame is read. Accepted connections speak subprotocol `mcp` when asked, one JSON-RPC
// message per text frame, each at most `max_message_bytes` (a bigger frame closes the connection
// with "message too big"); a frame that is not JSON gets a -32700 error. Messages go to the
// IdeProtocol; its replies are written in order. `broadcast` writes a notification to every
// connection that completed its handshake.
// Threading: everything on the io_context given.
#pragma once

#include "engine/support/result.h"
#include "lsp/ide/ide_protocol.h"

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <utility> // before Asio (Boost 1.74 with GCC 12)

namespace hashline::lsp {

class IdeServer {
public:
  IdeServer(boost::asio::io_context& io, IdeProtocol& protocol, std::string token,
            std::size_t max_message_bytes);
  ~IdeServer();
  IdeServer(const IdeServer&) = delete;
  IdeServer& operator=(const IdeServer&) = delete;

  /// Listens on 127.0.0.1, an ephemeral port; returns the port.
  Result<int> listen();
  void stop();
  /// Sends a notification to every open connection (Claude Code's at_mentioned,
  /// selection_changed); returns how many got it.
  std::size_t broadcast(const nlohmann::json& message);

  struct State; // the acceptor and what connections share (ide_server.cpp)

private:
  std::shared_ptr<State> state_;
};

} // namespace hashline::lsp
