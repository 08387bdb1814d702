// Fuzzes Claude Code's IDE end (lsp/ide): the WebSocket server that reads bytes from any local
// process — its HTTP upgrade request (the header cap, the token and Origin gate) and, once
// upgraded, its WebSocket frames and the MCP messages in them (IdeProtocol).
//
// The real IdeServer listens on 127.0.0.1 once per process (token kToken, messages capped at
// 64 KiB), with an IdeProtocol over a service that answers every call with an empty result.
// Each input is the whole byte stream of one connection: a client socket writes it, half-closes,
// and reads until the server closes (all on one io_context, run until that read ended). Seeds
// hold an upgrade with the token followed by masked client frames, so mutations reach the frame
// parser and the protocol.
// Properties: nothing crashes, leaks or hangs; the server answers nothing or an HTTP/1.1 status
// line; it answers 101 only to a request carrying the token and no Origin header.
#include "lsp/ide/ide_protocol.h"
#include "lsp/ide/ide_server.h"
#include "lsp/support/log.h"
#include "tests/fuzz/fuzz_target.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <cctype>
#include <memory>
#include <string>
#include <utility>

namespace {

namespace asio = boost::asio;
namespace lsp = hashline::lsp;
using tcp = asio::ip::tcp;

constexpr const char* kToken = "0123456789abcdef0123456789abcdef";

// Answers every call at once with an empty result (getDiagnostics, getOpenEditors, ...).
class EmptyService : public lsp::AgentService {
public:
  void call(const std::string&, nlohmann::json, lsp::ServiceCallback done) override {
    done(nlohmann::json::object());
  }
  std::vector<std::string> methods() const override { return {}; }
};

struct Harness {
  asio::io_context io;
  EmptyService service;
  lsp::IdeProtocol protocol{service, [] { return std::vector<std::string>{"/tmp"}; }};
  lsp::IdeServer server{io, protocol, kToken, 64 * 1024};
  int port = 0;

  Harness() {
    hashline::log::setLevel(hashline::log::Level::Error); // every refusal is logged at info
    auto listening = server.listen();
    if (!listening) std::abort();
    port = *listening;
  }
};

Harness& harness() {
  static Harness* shared = new Harness(); // lives for the process, like the sidecar's
  return *shared;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

} // namespace

HASHLINE_FUZZ_TARGET(ide) {
  Harness& h = harness();
  const std::string sent(reinterpret_cast<const char*>(data), size);
  tcp::socket client(h.io);
  std::string answer;
  bool ended = false;
  boost::system::error_code connect_error;
  // Asynchronous like the rest: libFuzzer's -timeout ticks SIGALRM, and a blocking connect it
  // interrupts fails with EINTR (CI's fuzz step once died of that, not of the server).
  client.async_connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(h.port)),
      [&](boost::system::error_code error) {
        connect_error = error;
        if (error) {
          ended = true;
          return;
        }
        asio::async_write(client, asio::buffer(sent), [&](boost::system::error_code, std::size_t) {
          boost::system::error_code ignored;
          client.shutdown(tcp::socket::shutdown_send, ignored);
        });
        asio::async_read(client, asio::dynamic_buffer(answer),
                         [&](boost::system::error_code, std::size_t) { ended = true; });
      });
  h.io.restart();
  while (!ended && h.io.run_one() > 0) {
  }
  FUZZ_CHECK(!connect_error, "connect to the IDE server: " + connect_error.message());
  FUZZ_CHECK(ended, "the server never closed the connection");
  boost::system::error_code ignored;
  client.close(ignored);
  h.io.restart();
  h.io.poll(); // what the closed connection still had queued

  if (answer.empty()) return 0;
  FUZZ_CHECK(answer.rfind("HTTP/1.1 ", 0) == 0, answer.substr(0, 40));
  if (answer.rfind("HTTP/1.1 101", 0) == 0) {
    // Only the headers count: the token must be there and no Origin.
    const std::string request = lower(sent.substr(0, sent.find("\r\n\r\n")));
    FUZZ_CHECK(request.find(kToken) != std::string::npos, "101 without the token");
    FUZZ_CHECK(request.find("\norigin:") == std::string::npos, "101 despite an Origin");
  }
  return 0;
}
