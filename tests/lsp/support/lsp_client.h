// LspClient: drives the real `hashline` binary over real pipes, for process-level tests.
//
// In the style of clangd's unittests/LSPClient, but out of process: the constructor spawns
// `hashline lsp --log-level debug` (hashlineBinary()) with its stdin/stdout on pipes and its
// stderr (the log) in a temp file (PipedProcess). A reader thread parses every frame the server
// writes and files it as a response (by id), a notification, or a server→client request (e.g.
// workspace/applyEdit, which a test answers with `respond`). Every wait has a generous timeout
// (30 s by default) that only exists so a broken server fails the test instead of hanging it:
// tests never assert on time.
//
// Typical test:
//   LspClient client;
//   client.initialize();
//   client.didOpen("file:///w/a.txt", "hello\n");
//   client.didChange("file:///w/a.txt", 2, {LspClient::change(0, 5, 0, 5, "!")});
//   EXPECT_EQ(client.snapshot("file:///w/a.txt")["sha256"], sha256Hex("hello!\n"));
//   EXPECT_EQ(client.shutdownAndExit(), 0);
//
// Waiting helpers record a gtest failure (ADD_FAILURE) and return null on timeout or when the
// server died. Threading: the test thread sends and waits; only the reader thread reads.
#pragma once

#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/piped_process.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace hashline::test {

struct LspClientOptions {
  /// Arguments after the binary path.
  std::vector<std::string> args = {"lsp", "--log-level", "debug"};
  std::string binary = hashlineBinary();
  /// Upper bound for any single wait; generous on purpose (slow CI, sanitizers).
  std::chrono::milliseconds timeout{30000};
};

class LspClient {
public:
  using json = nlohmann::json;

  explicit LspClient(LspClientOptions options = {});
  ~LspClient();
  LspClient(const LspClient&) = delete;
  LspClient& operator=(const LspClient&) = delete;

  // --- the wire --------------------------------------------------------------------------------
  /// Writes bytes as they are (for malformed-input tests). False if the server's stdin is gone.
  bool sendRaw(std::string_view bytes);
  /// Frames `body` with a correct Content-Length.
  bool sendBody(std::string_view body);
  bool send(const json& message);

  // --- JSON-RPC ----------------------------------------------------------------------------------
  /// Sends a request; returns its id.
  std::int64_t request(const std::string& method, json params = json::object());
  void notify(const std::string& method, json params = json::object());
  /// The whole response object for `id` ({"id", "result"} or {"id", "error"}); null on timeout.
  json waitResponse(const json& id);
  /// request + waitResponse.
  json call(const std::string& method, json params = json::object());
  /// call, expecting a result (a test failure if an error came back); returns the result.
  json callResult(const std::string& method, json params = json::object());
  /// call, expecting an error; returns the error object ({code, message, data?}).
  json callError(const std::string& method, json params = json::object());
  /// Waits until every message sent so far has been processed by the server (sends a request
  /// to an unknown method and waits for its answer: the server handles messages in order).
  void sync();

  /// The next notification `method` not yet taken (waits for it).
  json waitNotification(const std::string& method);
  /// All notifications `method` received so far and not yet taken. Call sync() first.
  std::vector<json> takeNotifications(const std::string& method);
  /// The next server→client request `method` (the whole message, with "id" and "params").
  json waitServerRequest(const std::string& method);
  /// All server→client requests `method` received so far and not yet taken. Call sync() first.
  std::vector<json> takeServerRequests(const std::string& method);
  void respond(const json& id, json result);
  void respondError(const json& id, int code, const std::string& message);
  /// Responses that arrived with an id nobody asked for, e.g. errors with id null.
  std::vector<json> takeUnmatchedResponses();
  /// Waits for a response with id null (protocol-level errors such as -32700).
  json waitNullIdResponse();

  // --- LSP helpers -----------------------------------------------------------------------------
  /// initialize (with `capabilities`, plus any extra top-level params) then initialized.
  /// Returns the initialize result.
  json initialize(json capabilities = json::object(), json extra_params = json::object());
  void didOpen(const std::string& uri, const std::string& text, std::int64_t version = 1,
               const std::string& languageId = "plaintext");
  void didChange(const std::string& uri, std::int64_t version, std::vector<json> changes);
  void didClose(const std::string& uri);
  /// A range change {range: {start, end}, text}.
  static json change(std::uint32_t start_line, std::uint32_t start_character,
                     std::uint32_t end_line, std::uint32_t end_character, const std::string& text);
  /// A full-text change {text}.
  static json fullChange(const std::string& text);
  /// hashline/snapshot result ({version, lineCount, sha256, uri}).
  json snapshot(const std::string& uri);

  // --- the process -----------------------------------------------------------------------------
  /// shutdown, exit, and the exit code.
  std::optional<int> shutdownAndExit();
  /// Closes the server's stdin (EOF).
  void closeInput();
  /// Waits for the process to end: its exit code, or 128 + signal if killed by one.
  std::optional<int> waitForExit();
  bool running();
  /// The server's log so far (its stderr).
  std::string log() const;
  /// Problems with what the server wrote (bad framing or JSON): always a test failure.
  std::vector<std::string> outputProblems() const;

private:
  void readLoop();
  void file(json message);
  template <class Pred> bool waitFor(Pred ready, const std::string& what);

  LspClientOptions options_;
  PipedProcess process_;
  std::thread reader_;
  std::int64_t next_id_ = 1;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool output_closed_ = false;
  std::map<std::string, json> responses_; // key: id.dump()
  std::vector<json> unmatched_responses_;
  std::deque<json> notifications_;
  std::deque<json> server_requests_;
  std::vector<std::string> output_problems_;
};

/// SHA-256 of `bytes`, lowercase hex, with the portable block function (the server uses the
/// CPU's SHA extensions where it has them; both are checked against FIPS 180-4's vectors).
std::string sha256Hex(std::string_view bytes);

} // namespace hashline::test
