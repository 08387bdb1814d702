// The scripted ACP client of the proxy tests; see acp_client.h.
#include "acp_client.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace hashline::test {

using nlohmann::json;
namespace {
constexpr std::chrono::seconds kWait{30};
} // namespace

std::vector<std::string> puppetAgent() {
  return {"python3", std::string(HASHLINE_SOURCE_DIR) + "/tests/lsp/acp/puppet_agent.py"};
}

bool processAlive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  if (text.empty()) return false;
  auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

AcpClient::AcpClient(const std::string& cwd, std::vector<std::string> proxy_args,
                     const Environment& env, std::vector<std::string> agent) {
  ::signal(SIGPIPE, SIG_IGN);
  char log_template[] = "/tmp/hashline-acp-log-XXXXXX";
  int log_fd = ::mkstemp(log_template);
  log_path_ = log_template;
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return;
  }
  std::vector<std::string> argv = {HASHLINE_BINARY, "acp"};
  argv.insert(argv.end(), proxy_args.begin(), proxy_args.end());
  argv.push_back("--");
  if (agent.empty()) agent = puppetAgent();
  argv.insert(argv.end(), agent.begin(), agent.end());
  // Everything the child needs is built before fork (other threads may hold malloc's lock).
  std::vector<std::string> environment; // the extra variables first: getenv takes the first
  for (const auto& [name, value] : env)
    environment.push_back(name + "=" + value);
  for (char** entry = environ; *entry; ++entry)
    environment.emplace_back(*entry);
  std::vector<char*> envp, args;
  for (std::string& entry : environment)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  for (std::string& arg : argv)
    args.push_back(arg.data());
  args.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(log_fd);
  to_proxy_ = in[1];
  from_proxy_ = out[0];
  reader_ = std::thread([this] { readLoop(); });
}

AcpClient::~AcpClient() {
  closeInput();
  if (pid_ > 0 && !exit_code_) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (running() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (running()) {
      ::kill(pid_, SIGKILL);
      waitForExit();
    }
  }
  if (reader_.joinable()) reader_.join();
  if (from_proxy_ >= 0) ::close(from_proxy_);
  ::unlink(log_path_.c_str());
}

void AcpClient::readLoop() {
  std::string pending;
  char buffer[1 << 16];
  for (;;) {
    ssize_t got = ::read(from_proxy_, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(got));
    std::size_t start = 0;
    std::vector<std::string> complete;
    for (std::size_t at = pending.find('\n'); at != std::string::npos;
         at = pending.find('\n', start)) {
      complete.push_back(pending.substr(start, at - start));
      start = at + 1;
    }
    pending.erase(0, start);
    if (!complete.empty()) {
      std::lock_guard lock(mutex_);
      for (std::string& line : complete)
        lines_.push_back(std::move(line));
      changed_.notify_all();
    }
  }
  std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

bool AcpClient::sendLine(std::string_view line) {
  if (to_proxy_ < 0) return false;
  std::string bytes(line);
  bytes.push_back('\n');
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t wrote = ::write(to_proxy_, bytes.data() + sent, bytes.size() - sent);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    sent += static_cast<std::size_t>(wrote);
  }
  return true;
}

std::int64_t AcpClient::request(const std::string& method, json params) {
  std::int64_t id = next_id_++;
  sendLine(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
  return id;
}

void AcpClient::notify(const std::string& method, json params) {
  sendLine(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump());
}

std::optional<std::string> AcpClient::waitLine(const std::function<bool(const json&)>& match) {
  std::unique_lock lock(mutex_);
  std::optional<std::string> found;
  changed_.wait_for(lock, kWait, [&] {
    for (auto it = lines_.begin(); it != lines_.end(); ++it) {
      json message = json::parse(*it, nullptr, false);
      if (!message.is_discarded() && match(message)) {
        found = *it;
        lines_.erase(it);
        return true;
      }
    }
    return closed_;
  });
  return found;
}

json AcpClient::waitResponse(std::int64_t id) {
  auto line = waitLine([id](const json& message) {
    return message.contains("id") && message["id"] == id && !message.contains("method");
  });
  if (!line) return nullptr;
  return json::parse(*line);
}

std::optional<std::string>
AcpClient::waitAgentReceived(const std::function<bool(const json&)>& match) {
  auto line = waitLine([&](const json& message) {
    if (message.value("method", "") != "_puppet/received") return false;
    json received = json::parse(message["params"]["line"].get<std::string>(), nullptr, false);
    return match(received);
  });
  if (!line) return std::nullopt;
  return json::parse(*line)["params"]["line"].get<std::string>();
}

void AcpClient::agentSends(const std::string& line) {
  notify("_puppet/send", {{"line", line}});
}

std::string AcpClient::start(const std::string& cwd) {
  std::int64_t init =
      request("initialize", {{"protocolVersion", 1}, {"clientCapabilities", json::object()}});
  json answer = waitResponse(init);
  EXPECT_TRUE(answer.contains("result")) << answer << log();
  std::int64_t session = request("session/new", {{"cwd", cwd}, {"mcpServers", json::array()}});
  json created = waitResponse(session);
  EXPECT_TRUE(created.contains("result")) << created << log();
  return created.is_object() && created.contains("result")
             ? created["result"].value("sessionId", "")
             : "";
}

void AcpClient::closeInput() {
  if (to_proxy_ >= 0) ::close(to_proxy_);
  to_proxy_ = -1;
}

void AcpClient::terminate(int signal) {
  if (pid_ > 0 && !exit_code_) ::kill(pid_, signal);
}

std::optional<int> AcpClient::waitForExit() {
  if (exit_code_) return exit_code_;
  if (pid_ <= 0) return std::nullopt;
  auto deadline = std::chrono::steady_clock::now() + kWait;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return exit_code_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return std::nullopt;
}

bool AcpClient::running() {
  if (exit_code_ || pid_ <= 0) return false;
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == pid_) {
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return false;
  }
  return true;
}

std::string AcpClient::log() const {
  std::ifstream in(log_path_);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace hashline::test
