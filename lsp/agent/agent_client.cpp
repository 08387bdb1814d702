// Blocking one-request client of the agent socket; see agent_client.h.
#include "lsp/agent/agent_client.h"

#include "lsp/disk/unique_fd.h"
#include "lsp/platform/local_socket.h"
#include "lsp/rpc/json_parse.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/transport/framing.h"

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

Error ioError(const std::string& message) {
  return Error::make(ErrorCode::IoError, message);
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

} // namespace

Result<lsp::ServiceOutcome> callSidecar(const std::string& socket_path, const std::string& method,
                                        const json& params, std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof(address.sun_path))
    return ioError("socket path too long: " + socket_path);
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);

  disk::UniqueFd socket(platform::openLocalStreamSocket());
  if (socket.get() < 0) return ioError(std::string("socket: ") + std::strerror(errno));
  if (::connect(socket.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0)
    return ioError("cannot connect to " + socket_path + ": " + std::strerror(errno));

  const json request = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}};
  const std::string frame = lsp::frameMessage(lsp::serializeJSON(request));
  std::size_t sent = 0;
  std::string why;
  while (sent < frame.size()) {
    if (!waitFor(socket.get(), POLLOUT, deadline, why))
      return ioError("sending to " + socket_path + ": " + why);
    long wrote =
        platform::sendWithoutSignal(socket.get(), frame.data() + sent, frame.size() - sent);
    if (wrote < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return ioError("sending to " + socket_path + ": " + std::strerror(errno));
    }
    sent += static_cast<std::size_t>(wrote);
  }

  lsp::FramingLimits limits;
  limits.max_body_bytes = std::size_t{1} << 30;
  lsp::FrameParser parser(limits);
  char buffer[64 * 1024];
  for (;;) {
    for (lsp::FrameEvent event = parser.next(); event.kind != lsp::FrameEvent::NeedMore;
         event = parser.next()) {
      if (event.kind != lsp::FrameEvent::Message)
        return ioError("broken answer from " + socket_path + ": " + event.problem);
      // The project's parser: a read's answer is mostly long strings, which nlohmann's lexer
      // appends byte by byte (lsp/rpc/json_parse.h).
      json message;
      std::string parse_error;
      if (!lsp::parseJSON(event.body, message, parse_error)) continue;
      if (!message.is_object() || !message.contains("id") || message["id"] != 1 ||
          message.contains("method"))
        continue; // a notification or a stray message: not our answer
      if (message.contains("error"))
        return lsp::ServiceOutcome(lsp::rpcErrorFromJSON(message["error"]));
      return lsp::ServiceOutcome(message.value("result", json()));
    }
    if (!waitFor(socket.get(), POLLIN, deadline, why))
      return ioError("waiting for the sidecar's answer on " + socket_path + ": " + why);
    ssize_t got = ::recv(socket.get(), buffer, sizeof buffer, 0);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return ioError("reading from " + socket_path + ": " + std::strerror(errno));
    }
    if (got == 0) return ioError("the sidecar closed the connection before answering");
    parser.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
}

} // namespace hashline::agent
