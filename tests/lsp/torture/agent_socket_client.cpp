// AgentSocketClient and waitForSidecarSocket; see agent_socket_client.h.
#include "tests/lsp/torture/agent_socket_client.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace hashline::test {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

std::optional<std::string> waitForSidecarSocket(const std::string& runtime_dir,
                                                std::chrono::milliseconds patience) {
  auto deadline = Clock::now() + patience;
  do {
    if (DIR* dir = ::opendir(runtime_dir.c_str())) {
      std::optional<std::string> file;
      while (dirent* entry = ::readdir(dir)) {
        std::string name = entry->d_name;
        if (name.rfind("sidecar-", 0) == 0 && name.size() > 5 &&
            name.compare(name.size() - 5, 5, ".json") == 0)
          file = runtime_dir + "/" + name;
      }
      ::closedir(dir);
      if (file) {
        std::ifstream in(*file);
        json info = json::parse(in, nullptr, false);
        // Published atomically, so a parse failure means a foreign file: keep waiting.
        if (info.is_object() && info.contains("socket") && info["socket"].is_string())
          return info["socket"].get<std::string>();
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  } while (Clock::now() < deadline);
  return std::nullopt;
}

AgentSocketClient::AgentSocketClient(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (fd < 0 || path.size() >= sizeof(address.sun_path)) {
    problem_ = "cannot make a socket for " + path;
    if (fd >= 0) ::close(fd);
    return;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    problem_ = "cannot connect to " + path + ": " + std::strerror(errno);
    ::close(fd);
    return;
  }
  fd_ = fd;
}

AgentSocketClient::~AgentSocketClient() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::int64_t> AgentSocketClient::send(const std::string& method, const json& params) {
  if (fd_ < 0) return std::nullopt;
  std::int64_t id = next_id_++;
  json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
  std::string bytes = lsp::frameMessage(request.dump());
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t wrote = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      problem_ = std::string("write failed: ") + std::strerror(errno);
      return std::nullopt;
    }
    sent += static_cast<std::size_t>(wrote);
  }
  return id;
}

std::optional<json> AgentSocketClient::wait(std::int64_t id, std::chrono::milliseconds patience) {
  auto deadline = Clock::now() + patience;
  char buffer[65536];
  for (;;) {
    if (auto it = answers_.find(id); it != answers_.end()) {
      json answer = std::move(it->second);
      answers_.erase(it);
      return answer;
    }
    lsp::FrameEvent event = parser_.next();
    if (event.kind == lsp::FrameEvent::Message) {
      json message = json::parse(event.body, nullptr, false);
      if (!message.is_object() || !message.contains("id") || !message["id"].is_number_integer()) {
        problem_ = "unexpected message: " + event.body;
        return std::nullopt;
      }
      std::int64_t id_of = message["id"].get<std::int64_t>();
      answers_[id_of] = std::move(message);
      continue;
    }
    if (event.kind != lsp::FrameEvent::NeedMore) {
      problem_ = "framing broken: " + event.problem;
      return std::nullopt;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (fd_ < 0 || left.count() <= 0) {
      problem_ = fd_ < 0 ? "not connected" : "no answer in time";
      return std::nullopt;
    }
    pollfd entry{fd_, POLLIN, 0};
    int ready = ::poll(&entry, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue; // the deadline check above ends the wait
    ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      problem_ = got == 0 ? "connection closed by the sidecar" : std::strerror(errno);
      return std::nullopt;
    }
    parser_.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
}

} // namespace hashline::test
