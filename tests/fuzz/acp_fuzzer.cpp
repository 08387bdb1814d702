// Fuzzes the ACP proxy's handling of lines from either side (lsp/acp/proxy_core.h).
//
// Input: lines separated by '\n'; the first byte of each line picks what happens — a line from
// the client, a line from the agent, an oversized line from either, the agent going away, or
// handshake timeouts — and the rest is the line. Properties, for every step:
// - a line from one side goes on to the other side at most once, and byte for byte unless the
//   proxy rewrites it (client initialize / session setup, which must then parse as a request of
//   the same method and id, with fs read/write advertised for initialize);
// - everything the proxy writes itself is a JSON-RPC error response with a code;
// - agent fs/* requests become file calls, never forwarded lines; tool calls (session/update,
//   session/request_permission) may add attributions of absolute paths, and still pass unchanged;
// - after the agent is gone no client request is pending.
#include "lsp/acp/acp_message.h"
#include "lsp/acp/proxy_core.h"
#include "lsp/acp/write_plan.h"
#include "tests/fuzz/fuzz_target.h"

#include <string>

namespace {

using hashline::acp::AcpMessage;
using hashline::acp::MessageKind;
using hashline::acp::ProxyCore;
using hashline::acp::ProxyOutput;
using hashline::acp::Side;
using nlohmann::json;

void checkOwnError(const std::string& line) {
  AcpMessage message = hashline::acp::readAcpLine(line);
  FUZZ_CHECK(message.kind == MessageKind::Response, line);
  FUZZ_CHECK(message.body.contains("error") && message.body["error"].contains("code"), line);
}

void checkForwarded(const std::string& sent, const std::vector<std::string>& lines,
                    bool may_rewrite) {
  FUZZ_CHECK(lines.size() <= 1, sent);
  if (lines.empty() || lines[0] == sent) return;
  FUZZ_CHECK(may_rewrite, "changed in passing: " + sent + " -> " + lines[0]);
  AcpMessage before = hashline::acp::readAcpLine(sent);
  AcpMessage after = hashline::acp::readAcpLine(lines[0]);
  FUZZ_CHECK(after.kind == MessageKind::Request && before.kind == MessageKind::Request, lines[0]);
  FUZZ_CHECK(after.method == before.method && after.id == before.id, lines[0]);
  if (after.method == "initialize") {
    const json& fs = after.body["params"]["clientCapabilities"]["fs"];
    FUZZ_CHECK(fs["readTextFile"] == true && fs["writeTextFile"] == true, lines[0]);
  }
}

} // namespace

HASHLINE_FUZZ_TARGET(acp) {
  hashline::fuzz::ByteReader input(data, size);
  hashline::acp::ProxyOptions options;
  options.hashline_binary = "/usr/bin/hashline";
  options.workspace = "/w";
  ProxyCore core(options);
  ProxyCore::Clock::time_point now{};
  while (!input.empty()) {
    const std::uint8_t action = input.byte();
    std::string line(input.until('\n'));
    ProxyOutput out;
    switch (action % 8) {
    case 0:
    case 1:
    case 2: {
      now += std::chrono::milliseconds(action);
      core.fromClient(line, out, now);
      for (const std::string& answer : out.to_client)
        checkOwnError(answer);
      AcpMessage sent = hashline::acp::readAcpLine(line);
      checkForwarded(line, out.to_agent, sent.kind == MessageKind::Request);
      FUZZ_CHECK(out.file_calls.empty());
      if (sent.kind == MessageKind::Invalid)
        FUZZ_CHECK(out.to_agent.empty() && out.to_client.size() == 1);
      break;
    }
    case 3:
    case 4:
    case 5: {
      core.fromAgent(line, out);
      for (const std::string& answer : out.to_agent)
        checkOwnError(answer);
      checkForwarded(line, out.to_client, false);
      AcpMessage sent = hashline::acp::readAcpLine(line);
      const bool fs = sent.method == "fs/read_text_file" || sent.method == "fs/write_text_file";
      if (fs) FUZZ_CHECK(out.to_client.empty(), "fs/* forwarded: " + line);
      std::size_t fs_calls = 0;
      for (const hashline::acp::FileCall& call : out.file_calls) {
        if (call.kind != hashline::acp::FileCall::Kind::Attribute) {
          ++fs_calls;
          continue;
        }
        // Attributions come only from tool calls (session/update notifications, permission
        // requests), for absolute paths.
        FUZZ_CHECK(
            (sent.method == "session/update" && sent.kind == MessageKind::Notification) ||
                (sent.method == "session/request_permission" && sent.kind == MessageKind::Request),
            line);
        const std::string path = call.params.value("path", std::string());
        FUZZ_CHECK(!path.empty() && path[0] == '/', line);
      }
      FUZZ_CHECK(fs_calls == (fs && sent.kind == MessageKind::Request ? 1u : 0u), line);
      break;
    }
    case 6:
      core.oversized(action & 8 ? Side::Client : Side::Agent, line.size(), 16, out);
      FUZZ_CHECK(out.to_client.size() + out.to_agent.size() == 1);
      for (const std::string& answer : out.to_client)
        checkOwnError(answer);
      for (const std::string& answer : out.to_agent)
        checkOwnError(answer);
      break;
    case 7:
      if (action & 8) {
        core.agentGone("exited with status 1", out);
        FUZZ_CHECK(core.pendingClientRequests() == 0);
      } else {
        now += std::chrono::seconds(action);
        core.expire(now, std::chrono::seconds(30), out);
      }
      for (const std::string& answer : out.to_client)
        checkOwnError(answer);
      FUZZ_CHECK(out.to_agent.empty());
      break;
    }
    // The fs/read_text_file window and the write's line split never fail on any text.
    std::vector<std::string> lines = hashline::acp::splitContentLines(line);
    FUZZ_CHECK(!lines.empty());
    std::string content = hashline::acp::acpContent(lines, action & 1, action % 5, action % 3);
    FUZZ_CHECK(content.size() <= line.size() + lines.size() + 1);
  }
  return 0;
}
