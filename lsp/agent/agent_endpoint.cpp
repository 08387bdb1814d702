// The agent socket: accept, check the peer, serve JSON-RPC over each connection.
#include "lsp/agent/agent_endpoint.h"

#include "lsp/agent/discovery.h"
#include "lsp/disk/state_dir.h"
#include "lsp/platform/peer_credentials.h"
#include "lsp/platform/process.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/support/log.h"
#include "lsp/transport/stream_transport.h"
#include "lsp/version.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <ctime>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::lsp {

using boost::asio::local::stream_protocol;
using nlohmann::json;

bool peerIsSameUser(int fd, std::string& why_not) {
  const platform::PeerCredentials peer = platform::peerCredentials(fd);
  if (!peer.known) {
    why_not = peer.problem;
    return false;
  }
  if (peer.uid != platform::effectiveUserId()) {
    why_not = "peer uid " + std::to_string(peer.uid) + " (pid " + std::to_string(peer.pid) +
              ") is not this user (uid " + std::to_string(platform::effectiveUserId()) + ")";
    return false;
  }
  return true;
}

/// One agent's connection: a JSON-RPC peer whose requests go to the service.
class AgentConnection : public RpcHandler {
public:
  AgentConnection(AgentEndpoint& endpoint, stream_protocol::socket socket)
      : endpoint_(endpoint), transport_(makeSocketTransport(std::move(socket), endpoint.limits_)),
        connection_(endpoint.io_, *transport_, *this) {}

  void start() { connection_.start(); }

  void onRequest(const std::string& method, json params, Reply reply) override {
    static const std::string kPrefix = "hashline/";
    if (method == "hashline/ping") return reply.result(json{{"pong", true}});
    if (method.rfind(kPrefix, 0) != 0)
      return reply.error(RpcErrorCode::MethodNotFound, "unknown method '" + method + "'");
    std::string name = method.substr(kPrefix.size());
    const auto methods = endpoint_.service_.methods();
    if (std::find(methods.begin(), methods.end(), name) == methods.end())
      return reply.error(RpcErrorCode::MethodNotFound, "unknown method '" + method + "'");
    if (!params.is_object())
      return reply.error(RpcErrorCode::InvalidParams, method + " takes an object as params");
    endpoint_.service_.call(name, std::move(params), [reply](ServiceOutcome outcome) {
      if (auto* result = std::get_if<json>(&outcome)) return reply.result(std::move(*result));
      reply.error(std::get<RpcError>(std::move(outcome)));
    });
  }

  void onNotification(const std::string& method, json) override {
    log::debug("agent socket: ignoring notification ", method);
  }

  void onInputClosed(const std::string& problem) override {
    if (!problem.empty()) log::warn("agent connection closed: ", problem);
    // Drop later: we are inside the connection's own callback.
    std::weak_ptr<int> alive = endpoint_.alive_;
    AgentEndpoint* endpoint = &endpoint_;
    connection_.close([alive, endpoint, self = this] {
      if (alive.expired()) return;
      boost::asio::post(endpoint->io_, [alive, endpoint, self] {
        if (!alive.expired()) endpoint->dropConnection(self);
      });
    });
  }

private:
  AgentEndpoint& endpoint_;
  std::unique_ptr<SocketTransport> transport_;
  JsonRpcConnection connection_;
};

AgentEndpoint::AgentEndpoint(boost::asio::io_context& io, AgentService& service,
                             FramingLimits limits)
    : io_(io), service_(service), limits_(limits), retry_timer_(io) {}

AgentEndpoint::~AgentEndpoint() {
  stop();
  connections_.clear();
}

Status AgentEndpoint::listen(const std::vector<std::string>& roots) {
  auto dir = disk::runtimeDirectory();
  if (!dir) return dir.error();
  socket_path_ = *dir + "/sidecar-" + std::to_string(platform::currentProcessId()) + ".sock";
  ::unlink(socket_path_.c_str()); // a leftover of a dead process with our pid
  boost::system::error_code error;
  acceptor_ = std::make_unique<stream_protocol::acceptor>(io_);
  // Created 0600 from the start: no window in which another user could connect.
  mode_t previous = ::umask(0177);
  acceptor_->open(stream_protocol(), error);
  if (!error) acceptor_->bind(stream_protocol::endpoint(socket_path_), error);
  ::umask(previous);
  if (!error) acceptor_->listen(64, error);
  if (error) {
    acceptor_.reset();
    return Error::make(ErrorCode::IoError,
                       "cannot listen on " + socket_path_ + ": " + error.message());
  }
  ::chmod(socket_path_.c_str(), 0600);
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  started_ = stamp;
  updateRoots(roots);
  if (discovery_file_.empty()) {
    stop();
    return Error::make(ErrorCode::IoError, "cannot publish the discovery file for " + socket_path_);
  }
  log::info("agent socket listening on ", socket_path_);
  acceptNext();
  return Status::success();
}

void AgentEndpoint::updateRoots(const std::vector<std::string>& roots) {
  if (!acceptor_) return;
  agent::SidecarInfo info;
  info.pid = platform::currentProcessId();
  for (const auto& root : roots) {
    char resolved[PATH_MAX];
    info.roots.push_back(::realpath(root.c_str(), resolved) ? std::string(resolved) : root);
  }
  info.pid_start = agent::processStartTime(info.pid);
  info.editor_pid = editor_pid_;
  info.editor_start = agent::processStartTime(editor_pid_);
  info.socket = socket_path_;
  info.version = std::string(programVersion());
  info.started = started_;
  auto file = agent::publishSidecar(info);
  if (!file) {
    log::error("agent socket: ", file.error().message);
    return;
  }
  discovery_file_ = *file;
}

void AgentEndpoint::stop() {
  retry_timer_.cancel();
  if (acceptor_) {
    boost::system::error_code ignored;
    acceptor_->close(ignored);
    acceptor_.reset();
    ::unlink(socket_path_.c_str());
  }
  if (!keep_record_) agent::withdrawSidecar(discovery_file_);
  discovery_file_.clear();
}

void AgentEndpoint::acceptNext() {
  if (!acceptor_) return;
  std::weak_ptr<int> alive = alive_;
  acceptor_->async_accept(
      [this, alive](boost::system::error_code error, stream_protocol::socket socket) {
        if (alive.expired() || !acceptor_) return;
        if (error) {
          if (error != boost::asio::error::operation_aborted) {
            // Out of descriptors and the like: retry a little later instead of spinning.
            log::warn("agent socket accept failed: ", error.message());
            retry_timer_.expires_after(std::chrono::milliseconds(200));
            retry_timer_.async_wait([this, alive](boost::system::error_code timer_error) {
              if (!timer_error && !alive.expired()) acceptNext();
            });
          }
          return;
        }
        std::string why_not;
        if (!peerIsSameUser(socket.native_handle(), why_not)) {
          log::warn("agent socket: refused a connection: ", why_not);
          boost::system::error_code ignored;
          socket.close(ignored);
        } else {
          auto connection = std::make_unique<AgentConnection>(*this, std::move(socket));
          AgentConnection* raw = connection.get();
          connections_.emplace(raw, std::move(connection));
          raw->start();
        }
        acceptNext();
      });
}

void AgentEndpoint::dropConnection(AgentConnection* connection) {
  connections_.erase(connection);
}

} // namespace hashline::lsp
