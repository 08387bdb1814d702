// Shared by the tests of Claude Code's IDE end (tests/lsp/ide): a WebSocket client that connects
// as Claude Code does (Boost.Beast), the lock files, a raw upgrade, and the editor's part of an
// applyEdit for the scripted editor (LspClient + EditorModel).
#pragma once

#include "tests/lsp/support/editor_model.h"
#include "tests/lsp/support/lsp_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <utility>
#include <vector>

namespace hashline::test {

namespace ide_test {
namespace fs = std::filesystem;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
} // namespace ide_test

using namespace ide_test;

inline json readJson(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

inline std::vector<fs::path> lockFiles(const fs::path& dir) {
  std::vector<fs::path> found;
  if (!fs::exists(dir)) return found;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".lock") found.push_back(entry.path());
  return found;
}

// A raw upgrade: the HTTP status the server answered (101 when it became a WebSocket).
inline int upgradeStatus(int port,
                         const std::vector<std::pair<std::string, std::string>>& headers) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  http::request<http::empty_body> request(http::verb::get, "/", 11);
  request.set(http::field::host, "127.0.0.1");
  request.set(http::field::upgrade, "websocket");
  request.set(http::field::connection, "Upgrade");
  request.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  request.set(http::field::sec_websocket_version, "13");
  for (const auto& [name, value] : headers)
    request.set(name, value);
  http::write(socket, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(socket, buffer, response);
  return response.result_int();
}

// A blocking read on `socket` fails after 60 s instead of waiting forever, so an answer the
// server never sends is a failed test, not a hung ctest (seen once under a load of 20).
inline void failReadsAfterAMinute(tcp::socket& socket) {
  timeval limit{};
  limit.tv_sec = 60;
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
}

// Bytes sent as they are: the server's HTTP answer, or nothing if it closed without one.
inline std::optional<http::response<http::string_body>> rawReply(int port,
                                                                 const std::string& bytes) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  failReadsAfterAMinute(socket);
  asio::write(socket, asio::buffer(bytes));
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  beast::error_code error;
  http::read(socket, buffer, response, error);
  if (error) return std::nullopt;
  return response;
}

// The HTTP status of rawReply (0: none, closed).
inline int rawReplyStatus(int port, const std::string& bytes) {
  auto reply = rawReply(port, bytes);
  return reply ? reply->result_int() : 0;
}

// A WebSocket client of the IDE server, as Claude Code connects.
class IdeClient {
public:
  IdeClient(int port, const std::string& token) : stream_(io_) {
    stream_.next_layer().connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
    failReadsAfterAMinute(stream_.next_layer());
    stream_.set_option(websocket::stream_base::decorator([token](websocket::request_type& req) {
      req.set("x-claude-code-ide-authorization", token);
      req.set(http::field::sec_websocket_protocol, "mcp");
    }));
    websocket::response_type response;
    stream_.handshake(response, "127.0.0.1", "/");
    subprotocol_ = std::string(response[http::field::sec_websocket_protocol]);
    stream_.text(true);
  }
  void sendText(const std::string& text) { stream_.write(asio::buffer(text)); }
  /// Sends a tools/call without waiting for its answer (openDiff answers when the user decided).
  int startCall(const std::string& tool, json arguments) {
    sendText(json{{"jsonrpc", "2.0"},
                  {"id", ++id_},
                  {"method", "tools/call"},
                  {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}}
                 .dump());
    return id_;
  }
  /// Sends a frame the server may hang up on part-way (EPIPE or a reset is then expected).
  void sendTextMayBeCutOff(const std::string& text) {
    beast::error_code ignored;
    stream_.write(asio::buffer(text), ignored);
  }
  json receive() {
    beast::flat_buffer buffer;
    stream_.read(buffer);
    return json::parse(beast::buffers_to_string(buffer.data()));
  }
  json call(const std::string& method, json params = json::object()) {
    sendText(
        json{{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method}, {"params", params}}.dump());
    return receive();
  }
  /// Reads until the server closes; true when it did.
  bool closedByServer() {
    beast::error_code error;
    beast::flat_buffer buffer;
    stream_.read(buffer, error);
    const bool timedOut = error == asio::error::would_block || error == asio::error::try_again;
    return error && !timedOut;
  }
  /// A normal close (code 1000), as Claude Code sends on /exit.
  void close() { stream_.close(websocket::close_code::normal); }
  const std::string& subprotocol() const { return subprotocol_; }

private:
  asio::io_context io_;
  websocket::stream<tcp::socket> stream_;
  std::string subprotocol_;
  int id_ = 0;
};

// Plays the editor for one workspace/applyEdit of the sidecar: applies it to `buffer`, answers
// applied, and sends the didChange.
inline void applyNextEdit(LspClient& client, EditorModel& buffer) {
  json request = client.waitServerRequest("workspace/applyEdit");
  ASSERT_FALSE(request.is_null()) << client.log();
  const json& change = request["params"]["edit"]["documentChanges"][0];
  ASSERT_EQ(change["textDocument"]["version"], buffer.version) << request;
  std::vector<json> changes = buffer.applyTextEdits(change["edits"]);
  client.respond(request["id"], {{"applied", true}});
  client.didChange(buffer.uri, ++buffer.version, changes);
  client.sync();
}

// The op of the pending hunks of `session` on `path` (0 when none).
inline std::uint64_t pendingOp(LspClient& client, const std::string& path) {
  json pending = client.callResult("hashline/pending", {{"path", path}});
  for (const json& file : pending["files"])
    for (const json& hunk : file["hunks"])
      if (hunk["agent"] == "claude-code") return hunk["op"].get<std::uint64_t>();
  return 0;
}

/// The text of an MCP tool result's content item `index`.
inline std::string contentText(const json& answer, std::size_t index = 0) {
  return answer["result"]["content"][index]["text"].get<std::string>();
}

/// A sidecar `hashline lsp --claude-ide` for a workspace under a private CLAUDE_CONFIG_DIR.
class ClaudeIdeTest : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("hashline-ide-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "config");
    fs::create_directories(root_ / "ws");
    ::setenv("CLAUDE_CONFIG_DIR", (root_ / "config").c_str(), 1);
    ::setenv("HASHLINE_CLAUDE_IDE_MAX_MESSAGE_BYTES", "64K", 1);
  }
  void TearDown() override {
    ::unsetenv("CLAUDE_CONFIG_DIR");
    ::unsetenv("HASHLINE_CLAUDE_IDE_MAX_MESSAGE_BYTES");
    fs::remove_all(root_);
  }
  fs::path ideDir() const { return root_ / "config" / "ide"; }
  std::unique_ptr<LspClient> start(const fs::path& workspace, json capabilities = json::object()) {
    LspClientOptions options;
    options.args = {"lsp", "--claude-ide", "--log-level", "debug"};
    auto client = std::make_unique<LspClient>(options);
    client->initialize(std::move(capabilities),
                       {{"rootUri", "file://" + workspace.string()}, {"processId", nullptr}});
    return client;
  }
  json onlyLock() {
    auto locks = lockFiles(ideDir());
    EXPECT_EQ(locks.size(), 1u);
    return locks.empty() ? json() : readJson(locks.front());
  }
  int port() { return std::stoi(lockFiles(ideDir()).front().stem().string()); }
  fs::path root_;
};

} // namespace hashline::test
