// Blocking client of the agent socket; see agent_client.h.
#include "lsp/agent/agent_client.h"

#include "lsp/platform/local_socket.h"
#include "lsp/rpc/json_parse.h"
#include "lsp/rpc/json_rpc.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace hashline::agent {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

SidecarFault fault(SidecarFault::Kind kind, bool delivered, std::string message) {
  return SidecarFault{kind, delivered, std::move(message)};
}

int millisecondsLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

/// Waits until `fd` is ready for `events`; false on timeout or error (`why` says which).
bool waitFor(int fd, short events, Clock::time_point deadline, std::string& why) {
  for (;;) {
    pollfd entry{fd, events, 0};
    int ready = ::poll(&entry, 1, millisecondsLeft(deadline));
    if (ready > 0) return true;
    if (ready == 0) {
      why = "timed out";
      return false;
    }
    if (errno == EINTR) continue;
    why = std::string("poll failed: ") + std::strerror(errno);
    return false;
  }
}

lsp::FramingLimits answerLimits() {
  lsp::FramingLimits limits;
  limits.max_body_bytes = std::size_t{1} << 30;
  return limits;
}

} // namespace

SidecarConnection::SidecarConnection(std::string socket_path)
    : socket_path_(std::move(socket_path)), parser_(answerLimits()) {}

std::optional<SidecarFault> SidecarConnection::connect() {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_path_.size() >= sizeof(address.sun_path))
    return fault(SidecarFault::Kind::Unreachable, false, "socket path too long: " + socket_path_);
  std::memcpy(address.sun_path, socket_path_.c_str(), socket_path_.size() + 1);
  disk::UniqueFd socket(platform::openLocalStreamSocket());
  if (!socket)
    return fault(SidecarFault::Kind::Unreachable, false,
                 std::string("socket: ") + std::strerror(errno));
  if (::connect(socket.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0)
    return fault(SidecarFault::Kind::Unreachable, false,
                 "cannot connect to " + socket_path_ + ": " + std::strerror(errno));
  socket_ = std::move(socket);
  return std::nullopt;
}

SidecarAnswer SidecarConnection::call(const std::string& method, const json& params,
                                      std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  if (!socket_)
    if (auto failed = connect()) return *failed;
  const std::int64_t id = next_id_++;
  const json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
  const std::string frame = lsp::frameMessage(lsp::serializeJSON(request));
  std::size_t sent = 0;
  std::string why;
  while (sent < frame.size()) {
    if (!waitFor(socket_.get(), POLLOUT, deadline, why))
      return fault(SidecarFault::Kind::NoAnswer, sent > 0,
                   "sending to " + socket_path_ + ": " + why);
    long wrote =
        platform::sendWithoutSignal(socket_.get(), frame.data() + sent, frame.size() - sent);
    if (wrote < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return fault(SidecarFault::Kind::Closed, sent > 0,
                   "sending to " + socket_path_ + ": " + std::strerror(errno));
    }
    sent += static_cast<std::size_t>(wrote);
  }

  char buffer[64 * 1024];
  for (;;) {
    for (lsp::FrameEvent event = parser_.next(); event.kind != lsp::FrameEvent::NeedMore;
         event = parser_.next()) {
      if (event.kind != lsp::FrameEvent::Message)
        return fault(SidecarFault::Kind::Garbled, true,
                     "broken answer from " + socket_path_ + ": " + event.problem);
      // The project's parser: a read's answer is mostly long strings, which nlohmann's lexer
      // appends byte by byte (lsp/rpc/json_parse.h).
      json message;
      std::string parse_error;
      if (!lsp::parseJSON(event.body, message, parse_error)) continue;
      if (!message.is_object() || !message.contains("id") || message["id"] != id ||
          message.contains("method"))
        continue; // a notification or a stray message: not our answer
      if (message.contains("error"))
        return lsp::ServiceOutcome(lsp::rpcErrorFromJSON(message["error"]));
      return lsp::ServiceOutcome(message.value("result", json()));
    }
    if (!waitFor(socket_.get(), POLLIN, deadline, why))
      return fault(SidecarFault::Kind::NoAnswer, true,
                   "waiting for the sidecar's answer on " + socket_path_ + ": " + why);
    ssize_t got = ::recv(socket_.get(), buffer, sizeof buffer, 0);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return fault(SidecarFault::Kind::Closed, true,
                   "reading from " + socket_path_ + ": " + std::strerror(errno));
    }
    if (got == 0)
      return fault(SidecarFault::Kind::Closed, true,
                   "the sidecar closed the connection before answering");
    parser_.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
}

Result<lsp::ServiceOutcome> callSidecar(const std::string& socket_path, const std::string& method,
                                        const json& params, std::chrono::milliseconds timeout) {
  SidecarConnection connection(socket_path);
  SidecarAnswer answer = connection.call(method, params, timeout);
  if (auto* failed = std::get_if<SidecarFault>(&answer))
    return Error::make(ErrorCode::IoError, failed->message);
  return std::get<lsp::ServiceOutcome>(std::move(answer));
}

} // namespace hashline::agent
