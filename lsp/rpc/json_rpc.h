// JsonRpcConnection: JSON-RPC 2.0 over a Transport, in both directions.
//
// Incoming: each message body is parsed and classified. Requests and notifications go to the
// RpcHandler (the LSP server, or an agent endpoint); responses complete our own outgoing calls.
// Protocol faults are answered here, the same for every front end (LSP, the agent socket, MCP):
// invalid JSON → -32700 with id null, a message that is not a request/notification/response
// (a JSON-RPC batch included: neither LSP nor MCP 2025-06-18+ has them) → -32600, an oversized
// frame → -32600 with id null, a handler that throws → -32603. `$/cancelRequest` is handled here
// too.
//
// Every request gets exactly one response (clangd's ReplyOnce): the handler receives a `Reply`
// that it may answer at once or later (e.g. after the editor answered a workspace/applyEdit).
// A second answer is logged and dropped; a Reply dropped without an answer sends InternalError.
//
// Outgoing: `notify`, and `call` with a callback and a timeout (workspace/applyEdit). A call
// that times out gets a TimedOut outcome, and the peer gets `$/cancelRequest`; its late answer
// is logged and ignored. When the input closes, pending calls complete with ConnectionClosed.
//
// Threading: single-threaded; everything runs on the io_context given at construction.
#pragma once

#include "lsp/rpc/rpc_error.h"
#include "lsp/transport/transport.h"

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::lsp {

namespace rpc_detail {
struct Core;
struct ReplyState;
} // namespace rpc_detail

/// The one answer to one incoming request. Copyable handle: copies share the same answer slot.
class Reply {
public:
  /// Sends `{"result": value}` (null is a valid result).
  void result(nlohmann::json value) const;
  /// Sends `{"error": {...}}`.
  void error(RpcError error) const;
  void error(RpcErrorCode code, std::string message) const {
    error(RpcError::make(code, std::move(message)));
  }

  bool replied() const;
  /// True once the peer sent `$/cancelRequest` for this request.
  bool cancelled() const;
  /// Called (once) if the peer cancels this request before it was answered. Without a callback
  /// a cancellation only sets `cancelled()`; the handler still answers (LSP requires an answer:
  /// a result or RequestCancelled).
  void onCancel(std::function<void()> callback) const;

  const nlohmann::json& id() const;
  const std::string& method() const;

private:
  friend class JsonRpcConnection;
  explicit Reply(std::shared_ptr<rpc_detail::ReplyState> state) : state_(std::move(state)) {}
  std::shared_ptr<rpc_detail::ReplyState> state_;
};

/// What the connection dispatches to.
class RpcHandler {
public:
  virtual ~RpcHandler() = default;
  virtual void onRequest(const std::string& method, nlohmann::json params, Reply reply) = 0;
  virtual void onNotification(const std::string& method, nlohmann::json params) = 0;
  /// The input ended: EOF (`problem` empty) or a broken frame / read error (`problem` says why).
  virtual void onInputClosed(const std::string& problem) = 0;
};

/// The outcome of one of our outgoing calls.
struct CallResponse {
  enum Kind { Result, Error, TimedOut, ConnectionClosed } kind = Result;
  nlohmann::json result; // Result
  RpcError error;        // Error (and a description for TimedOut / ConnectionClosed)
  bool ok() const { return kind == Result; }
};

class JsonRpcConnection : public MessageSink {
public:
  using ResponseCallback = std::function<void(CallResponse)>;

  JsonRpcConnection(boost::asio::io_context& io, Transport& transport, RpcHandler& handler);
  ~JsonRpcConnection() override;

  /// Starts reading from the transport.
  void start();

  void notify(const std::string& method, nlohmann::json params);
  /// Sends a request; `callback` runs exactly once: with the answer, on timeout, or when the
  /// connection closes. Returns the request id used.
  std::int64_t call(const std::string& method, nlohmann::json params, ResponseCallback callback,
                    std::chrono::milliseconds timeout);
  /// Fails pending calls, stops reading, flushes output, then calls `done`.
  void close(std::function<void()> done);

  std::size_t pendingCalls() const;
  std::size_t requestsInFlight() const;

  // MessageSink (called by the transport).
  void onMessage(std::string body) override;
  void onOversizedMessage(std::size_t declared_bytes, const std::string& problem) override;
  void onInputClosed(const std::string& problem) override;

private:
  void handleRequest(const std::string& method, nlohmann::json id, nlohmann::json params);
  void handleNotification(const std::string& method, nlohmann::json params);
  void handleResponse(const nlohmann::json& message);
  void failAllCalls(CallResponse::Kind kind, const std::string& why);

  boost::asio::io_context& io_;
  Transport& transport_;
  RpcHandler& handler_;
  std::shared_ptr<rpc_detail::Core> core_;
};

/// Serializes a JSON value for the wire; invalid UTF-8 in strings becomes U+FFFD rather than
/// throwing.
std::string serializeJSON(const nlohmann::json& value);

} // namespace hashline::lsp
