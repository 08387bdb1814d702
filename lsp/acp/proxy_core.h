// ProxyCore: what `hashline acp` does with each line between the ACP client (the editor) and the
// agent it starts — the protocol half of the proxy, with no I/O, so it can be fuzzed and tested
// on its own (tests/fuzz/acp_fuzzer.cpp).
//
// Every line is passed on byte for byte (requests, notifications, responses, cancellation,
// session/update, session/request_permission, terminal/*, methods it does not know, ACP v2
// draft messages), except:
// - client `initialize`: clientCapabilities.fs read/write set true (acp_rewrite.h); the agent's
//   answer names the agent (agentInfo) unless `--agent` did;
// - client `session/new`, `session/load`, `session/resume`: hashline's MCP server added to
//   mcpServers (unless `--no-mcp` or the client passed one); the session's cwd is remembered as
//   its workspace;
// - agent `fs/read_text_file` / `fs/write_text_file` requests: never forwarded; they become
//   FileCalls the caller answers (file_bridge.h) with `resultLine` / `errorLine` to the agent;
// - agent `session/update` tool calls that edit files (kind edit/delete/move, or a diff) pass
//   unchanged and also become Attribute FileCalls for their paths: an agent that writes the disk
//   itself (Claude Code through ACP) has the merge of its write journaled under its name;
// - a line that is not a JSON-RPC message, or longer than the limit: answered to its sender with
//   -32700 / -32600 and forwarded to nobody;
// - when the agent is gone (`agentGone`) every client request it did not answer gets an error,
//   and a handshake request (initialize, authenticate, session/new|load|resume) it leaves
//   unanswered past the deadline gets one too (`expire`); a late answer to it is dropped.
//
// Threading: not thread-safe; one owner (the proxy loop).
#pragma once

#include "lsp/acp/acp_message.h"

#include <chrono>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::acp {

enum class Side { Client, Agent };

/// An agent's fs/* request, for the file bridge to answer — or an Attribute: a tool call of the
/// agent names a file it edits itself (session/update tool_call of kind edit/delete/move, or a
/// diff), so the sidecar journals the merge of its disk write under the agent (no answer).
struct FileCall {
  enum class Kind { Read, Write, Attribute } kind = Kind::Read;
  nlohmann::json id;     // the agent's request id (null for an Attribute)
  nlohmann::json params; // as the agent sent them
  std::string agent;     // the agent's name, for the journal
  std::string workspace; // the session's workspace (its cwd), else the proxy's
  /// A read while an edit tool call of the agent names the file (Gemini CLI's write_file and
  /// replace read the file again right before writing): not the model's view of the file.
  bool during_edit = false;
};

/// What one step produced: lines to write (without their newline) and file calls to run.
struct ProxyOutput {
  std::vector<std::string> to_client;
  std::vector<std::string> to_agent;
  std::vector<FileCall> file_calls;
  std::vector<std::string> warnings; // for the log
};

struct ProxyOptions {
  bool inject_mcp = true;
  std::string hashline_binary;            // absolute; the MCP server's command
  std::string workspace;                  // --workspace, else the proxy's directory
  std::optional<std::string> agent_name;  // --agent
  std::string new_session_prefix = "acp"; // MCP session of a session/new: PREFIX-N
};

class ProxyCore {
public:
  using Clock = std::chrono::steady_clock;

  explicit ProxyCore(ProxyOptions options);

  void fromClient(std::string_view line, ProxyOutput& out, Clock::time_point now = {});
  void fromAgent(std::string_view line, ProxyOutput& out);
  /// A line longer than `limit` bytes arrived from `from` (its bytes were skipped).
  void oversized(Side from, std::size_t bytes, std::size_t limit, ProxyOutput& out);
  /// The agent exited or closed its output: every pending client request gets an error.
  void agentGone(const std::string& why, ProxyOutput& out);
  /// Handshake requests sent before `now - timeout` and still unanswered get an error.
  void expire(Clock::time_point now, std::chrono::milliseconds timeout, ProxyOutput& out);
  /// When the oldest pending handshake request expires (nullopt: none pending).
  std::optional<Clock::time_point> nextDeadline(std::chrono::milliseconds timeout) const;

  /// --agent, else the agent's agentInfo, else "acp".
  std::string agentName() const;
  std::size_t pendingClientRequests() const { return pending_.size(); }

private:
  struct Pending {
    std::string method;
    nlohmann::json id;
    std::string cwd;     // session/new|load|resume: the session's cwd
    std::string session; // session/load|resume: its id
    bool handshake = false;
    Clock::time_point sent{};
  };

  void clientRequest(AcpMessage& message, std::string_view line, ProxyOutput& out,
                     Clock::time_point now);
  void agentRequest(AcpMessage& message, std::string_view line, ProxyOutput& out);
  void agentResponse(const AcpMessage& message, std::string_view line, ProxyOutput& out);
  void noteSessionUpdate(const nlohmann::json& params, ProxyOutput& out);
  /// A tool call (of a session/update, or of a session/request_permission): attributions, and
  /// which files an edit tool call is working on.
  void noteToolCall(const nlohmann::json& params, const nlohmann::json& tool, bool is_update,
                    ProxyOutput& out);
  bool injectMcp(nlohmann::json& params, const std::string& method, const std::string& cwd);
  std::string workspaceOf(const nlohmann::json& params) const;

  ProxyOptions options_;
  std::optional<std::string> agent_info_name_;
  int protocol_version_ = 1;
  std::map<std::string, Pending> pending_;         // client requests by idKey
  std::set<std::string> expired_;                  // answered by the proxy; the agent's late
                                                   // answer is dropped
  std::map<std::string, std::string> session_cwd_; // ACP session id → its cwd
  int new_sessions_ = 0;
  std::set<std::string> edit_tool_calls_; // toolCallIds of kind edit/delete/move
  std::map<std::string, std::set<std::string>> edits_in_flight_; // path → running edit calls
  std::map<std::string, std::set<std::string>> tool_paths_;      // toolCallId → its paths
};

} // namespace hashline::acp
