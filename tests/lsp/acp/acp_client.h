// AcpClient: the scripted ACP client of the proxy tests — what Zed or JetBrains would be. It
// starts the real `hashline acp [ARGS] -- python3 puppet_agent.py` (hashlineBinary(), the scripted
// agent beside this file) in a directory, with its stdin/stdout on pipes and its stderr in a temp
// file (tests/lsp/support/PipedProcess, as LspClient), and keeps every line the proxy writes (raw,
// in order). The puppet agent reports each line it receives as `_puppet/received {line}` and writes
// what the test asks with
// `_puppet/send {line}`, so a test compares bytes on both sides.
//
// Waits have a generous upper bound (30 s) that only turns a hang into a failure; tests never
// assert on time. Threading: the test thread sends and waits; a reader thread reads.
#pragma once

#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/piped_process.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace hashline::test {

class AcpClient {
public:
  using json = nlohmann::json;

  /// Runs `hashline acp PROXY_ARGS -- AGENT` in `cwd` with `env` added (PUPPET_*); the agent
  /// defaults to the puppet.
  explicit AcpClient(const std::string& cwd, std::vector<std::string> proxy_args = {},
                     const Environment& env = {}, std::vector<std::string> agent = {});
  ~AcpClient();
  AcpClient(const AcpClient&) = delete;
  AcpClient& operator=(const AcpClient&) = delete;

  /// Writes `line` and a newline as they are. False when the proxy's stdin is gone.
  bool sendLine(std::string_view line);
  std::int64_t request(const std::string& method, json params);
  void notify(const std::string& method, json params);
  /// The response to `id` (the whole message); null after 30 s.
  json waitResponse(std::int64_t id);
  /// initialize + session/new; returns the session id.
  std::string start(const std::string& cwd);

  /// The next line from the proxy not yet taken that satisfies `match` (raw); nullopt after 30 s.
  std::optional<std::string> waitLine(const std::function<bool(const json&)>& match);
  /// The raw line the agent received next that satisfies `match` (from _puppet/received).
  std::optional<std::string> waitAgentReceived(const std::function<bool(const json&)>& match);
  /// The agent writes `line` to the proxy as it is.
  void agentSends(const std::string& line);

  void closeInput();
  /// Sends `signal` to the proxy.
  void terminate(int signal);
  std::optional<int> waitForExit();
  bool running();
  std::string log() const;

private:
  void readLoop();

  PipedProcess process_;
  std::thread reader_;
  std::int64_t next_id_ = 1;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> lines_;
  bool closed_ = false;
};

/// The puppet agent's command (python3 and the script's path).
std::vector<std::string> puppetAgent();
/// Whether process `pid` still exists (a zombie counts as gone).
bool processAlive(pid_t pid);

} // namespace hashline::test
