// AgentEndpoint: the private Unix socket through which agents outside the editor (the CLI, MCP)
// reach the buffers of this `hashline lsp` (DESIGN §8).
//
// The socket lives in the per-user runtime directory (0700) as `sidecar-<pid>.sock`, mode 0600;
// every accepted connection's peer uid is checked (platform::peerCredentials: SO_PEERCRED or
// getpeereid) and a different uid is closed at once. A discovery file (discovery.h) names the
// workspace roots and the socket. Each connection speaks the same framing and JSON-RPC as LSP:
// requests `hashline/<method>` go to the shared AgentService (the one behind the LSP commands, so
// sessions and observations are one), `hashline/ping` answers {"pong": true}; anything else is
// MethodNotFound.
//
// Threading: everything runs on the server's io_context. The endpoint must outlive its
// connections; its destructor closes the socket and withdraws the discovery file.
#pragma once

#include "engine/support/result.h"
#include "lsp/service/agent_service.h"
#include "lsp/transport/framing.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <memory>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)
#include <vector>

namespace hashline::lsp {

class AgentConnection;

class AgentEndpoint {
public:
  AgentEndpoint(boost::asio::io_context& io, AgentService& service, FramingLimits limits = {});
  ~AgentEndpoint();
  AgentEndpoint(const AgentEndpoint&) = delete;
  AgentEndpoint& operator=(const AgentEndpoint&) = delete;

  /// The editor that started this sidecar (initialize's processId, else the parent); named in
  /// the discovery file so a record left by a crash is kept while that editor runs. Call
  /// before listen.
  void setEditorProcess(std::int64_t pid) { editor_pid_ = pid; }
  /// Binds the socket, publishes the discovery file for `roots`, starts accepting.
  Status listen(const std::vector<std::string>& roots);
  /// Rewrites the discovery file with new roots (workspace folders changed).
  void updateRoots(const std::vector<std::string>& roots);
  /// Closes the socket and withdraws the discovery file (idempotent), unless keepRecordAtStop.
  void stop();
  /// The editor is restarting this sidecar (`hashline/restarting`): stop leaves the discovery
  /// record, as a crash does, so agent calls until the new sidecar publishes its own are
  /// SIDECAR_GONE instead of disk writes behind the open buffers; the new one sweeps it as
  /// replaced (same editor).
  void keepRecordAtStop() { keep_record_ = true; }
  bool keepsRecordAtStop() const { return keep_record_; }

  const std::string& socketPath() const { return socket_path_; }
  const std::string& discoveryFile() const { return discovery_file_; }
  std::size_t connectionCount() const { return connections_.size(); }

private:
  friend class AgentConnection;
  void acceptNext();
  void dropConnection(AgentConnection* connection);

  boost::asio::io_context& io_;
  AgentService& service_;
  FramingLimits limits_;
  std::unique_ptr<boost::asio::local::stream_protocol::acceptor> acceptor_;
  boost::asio::steady_timer retry_timer_; // accept retries after a failure
  std::string socket_path_;
  std::string discovery_file_;
  std::string started_; // ISO-8601 UTC, set by listen
  std::int64_t editor_pid_ = 0;
  bool keep_record_ = false;
  std::map<AgentConnection*, std::unique_ptr<AgentConnection>> connections_;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

/// True when the peer of connected Unix socket `fd` runs as this process's effective uid.
bool peerIsSameUser(int fd, std::string& why_not);

} // namespace hashline::lsp
