// The Claude Code IDE WebSocket server (Boost.Beast); see ide_server.h.
#include "lsp/ide/ide_server.h"

#include "lsp/ide/ide_handshake.h"
#include "lsp/support/log.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

namespace hashline::lsp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;

struct IdeServer::State {
  asio::io_context& io;
  IdeProtocol& protocol;
  std::string token;
  std::size_t max_message_bytes;
  tcp::acceptor acceptor;
  bool stopped = false;
  /// The connections past their handshake: how to send to each while it lives.
  std::vector<std::pair<std::weak_ptr<void>, std::function<void(nlohmann::json)>>> open;

  State(asio::io_context& io_context, IdeProtocol& ide, std::string secret, std::size_t max_bytes)
      : io(io_context), protocol(ide), token(std::move(secret)), max_message_bytes(max_bytes),
        acceptor(io_context) {}
};

namespace {

constexpr std::uint32_t kHeaderLimit = 8 * 1024; // the upgrade request's header block

// One connection: the HTTP upgrade, then WebSocket text frames in both directions.
class IdeConnection : public std::enable_shared_from_this<IdeConnection> {
public:
  IdeConnection(tcp::socket socket, std::shared_ptr<IdeServer::State> state)
      : stream_(std::move(socket)), state_(std::move(state)) {}

  void start() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(0);
    http::async_read(stream_.next_layer(), buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code error, std::size_t) {
                       self->onRequest(error);
                     });
  }

private:
  void onRequest(beast::error_code error) {
    if (error == http::error::header_limit)
      return refuse({false, 431, "header block over " + std::to_string(kHeaderLimit) + " bytes"});
    if (error && error != http::error::end_of_stream && error != http::error::partial_message &&
        error.category() == http::make_error_code(http::error::bad_target).category())
      return refuse({false, 400, "not an HTTP request (" + error.message() + ")"});
    if (error) return log::debug("claude ide: upgrade request unreadable: ", error.message());
    request_ = parser_->release();
    IdeUpgradeRequest upgrade;
    upgrade.is_websocket_upgrade = websocket::is_upgrade(request_);
    if (auto it = request_.find(kIdeAuthorizationHeader); it != request_.end())
      upgrade.authorization = std::string(it->value());
    if (auto it = request_.find(http::field::origin); it != request_.end())
      upgrade.origin = std::string(it->value());
    IdeHandshakeVerdict verdict = checkIdeUpgrade(upgrade, state_->token);
    if (!verdict.accepted) return refuse(verdict);
    std::string protocols;
    if (auto it = request_.find(http::field::sec_websocket_protocol); it != request_.end())
      protocols = std::string(it->value());
    const bool wants_mcp = protocols.find("mcp") != std::string::npos;
    stream_.set_option(
        websocket::stream_base::decorator([wants_mcp](websocket::response_type& response) {
          response.set(http::field::server, "hashline");
          if (wants_mcp) response.set(http::field::sec_websocket_protocol, "mcp");
        }));
    stream_.read_message_max(state_->max_message_bytes);
    stream_.text(true);
    stream_.async_accept(request_, [self = shared_from_this()](beast::error_code accept_error) {
      if (accept_error) return log::info("claude ide: handshake failed: ", accept_error.message());
      log::info("claude ide: connection accepted");
      std::weak_ptr<IdeConnection> weak = self;
      self->state_->open.emplace_back(weak, [weak](json message) {
        if (auto connection = weak.lock()) connection->send(std::move(message));
      });
      self->readNext();
    });
  }

  void refuse(const IdeHandshakeVerdict& verdict) {
    log::info("claude ide: connection refused (", verdict.http_status, "): ", verdict.reason);
    // HTTP/1.1 whatever the client spoke: a server answers in the highest version it conforms to
    // within the request's major version (RFC 9112, 2.3), and WebSocket needs 1.1 anyway.
    auto response = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(verdict.http_status), 11);
    response->set(http::field::server, "hashline");
    response->set(http::field::content_type, "text/plain");
    response->body() = verdict.reason + "\n";
    response->keep_alive(false);
    response->prepare_payload();
    http::async_write(stream_.next_layer(), *response,
                      [self = shared_from_this(), response](beast::error_code, std::size_t) {
                        beast::error_code ignored;
                        self->stream_.next_layer().shutdown(tcp::socket::shutdown_send, ignored);
                        self->drain(16);
                      });
  }

  // After a refusal: reads (a bounded amount of) what the client still sends until it closes, so
  // that closing with unread bytes (a header block over the cap) does not reset the connection
  // before the client read the status.
  void drain(int reads_left) {
    drained_.resize(4096);
    stream_.next_layer().async_read_some(
        asio::buffer(drained_),
        [self = shared_from_this(), reads_left](beast::error_code error, std::size_t) {
          if (!error && reads_left > 1) return self->drain(reads_left - 1);
          beast::error_code ignored;
          self->stream_.next_layer().close(ignored);
        });
  }

  void readNext() {
    frames_.clear();
    stream_.async_read(frames_, [self = shared_from_this()](beast::error_code error, std::size_t) {
      self->onFrame(error);
    });
  }

  void onFrame(beast::error_code error) {
    if (error) {
      state_->protocol.connectionClosed(this);
      if (error == websocket::error::message_too_big)
        log::info("claude ide: frame over ", state_->max_message_bytes, " bytes; closing");
      else if (error != websocket::error::closed)
        log::debug("claude ide: connection ended: ", error.message());
      return;
    }
    const std::string text = beast::buffers_to_string(frames_.data());
    json message = json::parse(text, nullptr, false);
    if (message.is_discarded()) {
      send({{"jsonrpc", "2.0"},
            {"id", nullptr},
            {"error", {{"code", -32700}, {"message", "frame is not JSON"}}}});
    } else {
      std::weak_ptr<IdeConnection> weak = shared_from_this();
      state_->protocol.handle(
          message,
          [weak](json reply) {
            if (auto self = weak.lock()) self->send(std::move(reply));
          },
          std::weak_ptr<void>(weak));
    }
    readNext();
  }

  void send(json message) {
    outbox_.push_back(message.dump());
    if (outbox_.size() == 1) writeNext();
  }

  void writeNext() {
    stream_.async_write(asio::buffer(outbox_.front()),
                        [self = shared_from_this()](beast::error_code error, std::size_t) {
                          if (error) return;
                          self->outbox_.pop_front();
                          if (!self->outbox_.empty()) self->writeNext();
                        });
  }

  websocket::stream<tcp::socket> stream_;
  std::shared_ptr<IdeServer::State> state_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  http::request<http::empty_body> request_;
  beast::flat_buffer frames_;
  std::deque<std::string> outbox_;
  std::string drained_;
};

void acceptNext(const std::shared_ptr<IdeServer::State>& state) {
  state->acceptor.async_accept([state](beast::error_code error, tcp::socket socket) {
    if (state->stopped) return;
    if (!error) std::make_shared<IdeConnection>(std::move(socket), state)->start();
    acceptNext(state);
  });
}

} // namespace

IdeServer::IdeServer(asio::io_context& io, IdeProtocol& protocol, std::string token,
                     std::size_t max_message_bytes)
    : state_(std::make_shared<State>(io, protocol, std::move(token), max_message_bytes)) {}

IdeServer::~IdeServer() {
  stop();
}

Result<int> IdeServer::listen() {
  beast::error_code error;
  tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  state_->acceptor.open(endpoint.protocol(), error);
  if (!error) state_->acceptor.bind(endpoint, error);
  if (!error) state_->acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error)
    return Error::make(ErrorCode::IoError, "cannot listen on 127.0.0.1: " + error.message());
  acceptNext(state_);
  return static_cast<int>(state_->acceptor.local_endpoint().port());
}

std::size_t IdeServer::broadcast(const nlohmann::json& message) {
  auto& open = state_->open;
  open.erase(std::remove_if(open.begin(), open.end(),
                            [](const auto& entry) { return entry.first.expired(); }),
             open.end());
  for (const auto& entry : open)
    entry.second(message);
  return open.size();
}

void IdeServer::stop() {
  if (state_->stopped) return;
  state_->stopped = true;
  beast::error_code ignored;
  state_->acceptor.close(ignored);
}

} // namespace hashline::lsp
