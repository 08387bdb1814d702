// The scripted ACP client of the proxy tests; see acp_client.h.
#include "acp_client.h"

#include "tests/lsp/support/hashline_binary.h"

#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <utility>

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

namespace {
std::vector<std::string> commandLine(std::vector<std::string> proxy_args,
                                     std::vector<std::string> agent) {
  std::vector<std::string> argv = {hashlineBinary(), "acp"};
  argv.insert(argv.end(), proxy_args.begin(), proxy_args.end());
  argv.push_back("--");
  if (agent.empty()) agent = puppetAgent();
  argv.insert(argv.end(), agent.begin(), agent.end());
  return argv;
}
} // namespace

AcpClient::AcpClient(const std::string& cwd, std::vector<std::string> proxy_args,
                     const Environment& env, std::vector<std::string> agent)
    : process_(commandLine(std::move(proxy_args), std::move(agent)), cwd, env) {
  reader_ = std::thread([this] { readLoop(); });
}

AcpClient::~AcpClient() {
  process_.stop(std::chrono::seconds(10));
  if (reader_.joinable()) reader_.join();
}

void AcpClient::readLoop() {
  std::string pending;
  process_.readUntilEnd([&](std::string_view chunk) {
    pending.append(chunk);
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
  });
  std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

bool AcpClient::sendLine(std::string_view line) {
  std::string bytes(line);
  bytes.push_back('\n');
  return process_.write(bytes);
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
  process_.closeInput();
}

void AcpClient::terminate(int signal) {
  process_.signal(signal);
}

std::optional<int> AcpClient::waitForExit() {
  return process_.waitForExit(kWait);
}

bool AcpClient::running() {
  return process_.running();
}

std::string AcpClient::log() const {
  return process_.log();
}

} // namespace hashline::test
