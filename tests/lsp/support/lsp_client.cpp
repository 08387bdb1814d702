// LspClient: the reader thread, the wire and the waiting helpers (the process: PipedProcess).
#include "tests/lsp/support/lsp_client.h"

#include "engine/support/sha256.h"
#include "lsp/transport/framing.h"

#include <gtest/gtest.h>
#include <utility>

namespace hashline::test {

using json = nlohmann::json;

std::string sha256Hex(std::string_view bytes) {
  Sha256 hasher(&sha256BlocksPortable); // the server takes SHA-NI where the CPU has it
  hasher.update(bytes);
  return hasher.finishHex();
}

namespace {
std::vector<std::string> commandLine(const LspClientOptions& options) {
  std::vector<std::string> argv = {options.binary};
  argv.insert(argv.end(), options.args.begin(), options.args.end());
  return argv;
}
} // namespace

LspClient::LspClient(LspClientOptions options)
    : options_(std::move(options)), process_(commandLine(options_)) {
  reader_ = std::thread([this] { readLoop(); });
}

LspClient::~LspClient() {
  process_.stop(std::chrono::seconds(5)); // a moment to notice EOF; then it is killed
  if (reader_.joinable()) reader_.join();
}

// --- the wire ----------------------------------------------------------------------------------

bool LspClient::sendRaw(std::string_view bytes) {
  return process_.write(bytes);
}

bool LspClient::sendBody(std::string_view body) {
  return sendRaw(lsp::frameMessage(body));
}

bool LspClient::send(const json& message) {
  return sendBody(message.dump());
}

void LspClient::readLoop() {
  lsp::FrameParser parser(lsp::FramingLimits{std::size_t{1} << 31, 1 << 16});
  process_.readUntilEnd([&](std::string_view chunk) {
    parser.feed(chunk);
    for (lsp::FrameEvent event = parser.next(); event.kind != lsp::FrameEvent::NeedMore;
         event = parser.next()) {
      if (event.kind != lsp::FrameEvent::Message) {
        std::lock_guard lock(mutex_);
        output_problems_.push_back("server output framing: " + event.problem);
        continue;
      }
      json message = json::parse(event.body, nullptr, false);
      if (message.is_discarded()) {
        std::lock_guard lock(mutex_);
        output_problems_.push_back("server wrote invalid JSON: " + event.body.substr(0, 200));
        continue;
      }
      file(std::move(message));
    }
  });
  std::lock_guard lock(mutex_);
  output_closed_ = true;
  changed_.notify_all();
}

void LspClient::file(json message) {
  std::lock_guard lock(mutex_);
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0") {
    output_problems_.push_back("server wrote a non-JSON-RPC message: " + message.dump());
  } else if (message.contains("method")) {
    (message.contains("id") ? server_requests_ : notifications_).push_back(std::move(message));
  } else if (message.contains("id") && !message["id"].is_null()) {
    std::string key = message["id"].dump(); // before the move: json::operator= takes by value
    responses_[key] = std::move(message);
  } else {
    unmatched_responses_.push_back(std::move(message));
  }
  changed_.notify_all();
}

template <class Pred> bool LspClient::waitFor(Pred ready, const std::string& what) {
  std::unique_lock lock(mutex_);
  bool satisfied = false; // `ready` may take what it found, so it is called only until true
  changed_.wait_for(lock, options_.timeout, [&] {
    satisfied = satisfied || ready();
    return satisfied || output_closed_;
  });
  if (satisfied) return true;
  ADD_FAILURE() << (output_closed_ ? "server closed its output" : "timed out")
                << " while waiting for " << what << "\n--- server log ---\n"
                << [this] {
                     std::string all = process_.log();
                     return all.size() > 4000 ? "..." + all.substr(all.size() - 4000) : all;
                   }();
  return false;
}

// --- JSON-RPC ----------------------------------------------------------------------------------

std::int64_t LspClient::request(const std::string& method, json params) {
  std::int64_t id = next_id_++;
  send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return id;
}

void LspClient::notify(const std::string& method, json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

json LspClient::waitResponse(const json& id) {
  std::string key = id.dump();
  if (!waitFor([&] { return responses_.count(key) > 0; }, "the response to request " + key))
    return nullptr;
  std::lock_guard lock(mutex_);
  json response = std::move(responses_[key]);
  responses_.erase(key);
  return response;
}

json LspClient::call(const std::string& method, json params) {
  return waitResponse(request(method, std::move(params)));
}

json LspClient::callResult(const std::string& method, json params) {
  json response = call(method, std::move(params));
  if (!response.contains("result")) {
    ADD_FAILURE() << method << " failed: " << response.dump();
    return nullptr;
  }
  return response["result"];
}

json LspClient::callError(const std::string& method, json params) {
  json response = call(method, std::move(params));
  if (!response.contains("error")) {
    ADD_FAILURE() << method << " was expected to fail but answered " << response.dump();
    return nullptr;
  }
  return response["error"];
}

void LspClient::sync() {
  json response = call("hashline-test/sync-barrier");
  if (response.is_null()) ADD_FAILURE() << "sync failed";
}

json LspClient::waitNotification(const std::string& method) {
  json found;
  waitFor(
      [&] {
        for (auto it = notifications_.begin(); it != notifications_.end(); ++it)
          if ((*it)["method"] == method) {
            found = std::move(*it);
            notifications_.erase(it);
            return true;
          }
        return false;
      },
      "notification " + method);
  return found;
}

namespace {

/// Moves the messages of `method` out of `queue`, in order.
std::vector<nlohmann::json> takeByMethod(std::deque<nlohmann::json>& queue,
                                         const std::string& method) {
  std::vector<nlohmann::json> out;
  std::deque<nlohmann::json> rest;
  for (auto& message : queue)
    (message["method"] == method ? out.emplace_back(std::move(message))
                                 : rest.emplace_back(std::move(message)));
  queue = std::move(rest);
  return out;
}

} // namespace

std::vector<json> LspClient::takeNotifications(const std::string& method) {
  std::lock_guard lock(mutex_);
  return takeByMethod(notifications_, method);
}

std::vector<json> LspClient::takeServerRequests(const std::string& method) {
  std::lock_guard lock(mutex_);
  return takeByMethod(server_requests_, method);
}

json LspClient::waitServerRequest(const std::string& method) {
  json found;
  waitFor(
      [&] {
        for (auto it = server_requests_.begin(); it != server_requests_.end(); ++it)
          if ((*it)["method"] == method) {
            found = std::move(*it);
            server_requests_.erase(it);
            return true;
          }
        return false;
      },
      "server request " + method);
  return found;
}

void LspClient::respond(const json& id, json result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void LspClient::respondError(const json& id, int code, const std::string& message) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

std::vector<json> LspClient::takeUnmatchedResponses() {
  std::lock_guard lock(mutex_);
  return std::exchange(unmatched_responses_, {});
}

json LspClient::waitNullIdResponse() {
  json found;
  waitFor(
      [&] {
        if (unmatched_responses_.empty()) return false;
        found = std::move(unmatched_responses_.front());
        unmatched_responses_.erase(unmatched_responses_.begin());
        return true;
      },
      "a response with id null");
  return found;
}

// --- LSP helpers -------------------------------------------------------------------------------

json LspClient::initialize(json capabilities, json extra_params) {
  json params = {{"processId", nullptr},
                 {"clientInfo", {{"name", "hashline-test"}}},
                 {"rootUri", nullptr},
                 {"capabilities", std::move(capabilities)}};
  for (auto& [key, value] : extra_params.items())
    params[key] = value;
  json result = callResult("initialize", std::move(params));
  notify("initialized");
  return result;
}

void LspClient::didOpen(const std::string& uri, const std::string& text, std::int64_t version,
                        const std::string& languageId) {
  notify("textDocument/didOpen",
         {{"textDocument",
           {{"uri", uri}, {"languageId", languageId}, {"version", version}, {"text", text}}}});
}

void LspClient::didChange(const std::string& uri, std::int64_t version, std::vector<json> changes) {
  notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                    {"contentChanges", json(std::move(changes))}});
}

void LspClient::didClose(const std::string& uri) {
  notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
}

json LspClient::change(std::uint32_t start_line, std::uint32_t start_character,
                       std::uint32_t end_line, std::uint32_t end_character,
                       const std::string& text) {
  return {{"range",
           {{"start", {{"line", start_line}, {"character", start_character}}},
            {"end", {{"line", end_line}, {"character", end_character}}}}},
          {"text", text}};
}

json LspClient::fullChange(const std::string& text) {
  return {{"text", text}};
}

json LspClient::snapshot(const std::string& uri) {
  return callResult("hashline/snapshot", {{"textDocument", {{"uri", uri}}}});
}

// --- the process -------------------------------------------------------------------------------

std::optional<int> LspClient::shutdownAndExit() {
  json response = call("shutdown", nullptr);
  if (!response.contains("result") || !response["result"].is_null())
    ADD_FAILURE() << "shutdown answered " << response.dump();
  notify("exit", nullptr);
  return waitForExit();
}

void LspClient::closeInput() {
  process_.closeInput();
}

bool LspClient::running() {
  return process_.running();
}

std::optional<int> LspClient::waitForExit() {
  std::optional<int> code = process_.waitForExit(options_.timeout);
  if (!code && process_.running()) ADD_FAILURE() << "the server did not exit";
  return code;
}

std::string LspClient::log() const {
  return process_.log();
}

std::vector<std::string> LspClient::outputProblems() const {
  std::lock_guard lock(mutex_);
  return output_problems_;
}

} // namespace hashline::test
