// JSON-RPC 2.0 classification, dispatch, exactly-once replies, and outgoing calls.
#include "lsp/rpc/json_rpc.h"

#include "lsp/rpc/json_parse.h"
#include "lsp/rpc/json_writer.h"
#include "lsp/support/log.h"

#include <boost/asio/steady_timer.hpp>

namespace hashline::lsp {

using nlohmann::json;

std::string serializeJSON(const json& value) {
  std::string out;
  appendJSON(out, value);
  return out;
}

namespace rpc_detail {

struct PendingCall {
  std::string method;
  JsonRpcConnection::ResponseCallback callback;
  std::unique_ptr<boost::asio::steady_timer> timer;
};

struct Core {
  Transport* transport = nullptr;
  bool output_closed = false;
  std::map<std::string, std::weak_ptr<ReplyState>> inflight; // key: the id's JSON text
  std::map<std::int64_t, PendingCall> calls;
  std::int64_t next_call_id = 1;

  void send(const json& message) {
    if (output_closed) return;
    transport->send(serializeJSON(message));
  }
};

struct ReplyState {
  std::weak_ptr<Core> core;
  json id;
  std::string key;
  std::string method;
  bool replied = false;
  bool cancelled = false;
  std::function<void()> on_cancel;

  void answer(json payload) {
    if (replied) {
      log::error("dropping a second reply to ", method, " (id ", key, ")");
      return;
    }
    replied = true;
    auto shared = core.lock();
    if (!shared) return;
    if (auto it = shared->inflight.find(key);
        it != shared->inflight.end() && (it->second.expired() || it->second.lock().get() == this))
      shared->inflight.erase(it);
    payload["jsonrpc"] = "2.0";
    payload["id"] = id;
    shared->send(payload);
  }

  ~ReplyState() {
    if (replied) return;
    log::error("no reply to ", method, " (id ", key, "); answering InternalError");
    answer({{"error", toJSON(RpcError::make(RpcErrorCode::InternalError,
                                            "server failed to reply to " + method))}});
  }
};

} // namespace rpc_detail

// --- Reply ---------------------------------------------------------------------------------

void Reply::result(json value) const {
  state_->answer({{"result", std::move(value)}});
}
void Reply::error(RpcError error) const {
  state_->answer({{"error", toJSON(error)}});
}
bool Reply::replied() const {
  return state_->replied;
}
bool Reply::cancelled() const {
  return state_->cancelled;
}
void Reply::onCancel(std::function<void()> callback) const {
  state_->on_cancel = std::move(callback);
}
const json& Reply::id() const {
  return state_->id;
}
const std::string& Reply::method() const {
  return state_->method;
}

// --- JsonRpcConnection ---------------------------------------------------------------------

namespace {

json errorResponse(const json& id, const RpcError& error) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", toJSON(error)}};
}

bool isValidId(const json& id) {
  return id.is_number_integer() || id.is_string();
}

} // namespace

JsonRpcConnection::JsonRpcConnection(boost::asio::io_context& io, Transport& transport,
                                     RpcHandler& handler)
    : io_(io), transport_(transport), handler_(handler),
      core_(std::make_shared<rpc_detail::Core>()) {
  core_->transport = &transport_;
}

JsonRpcConnection::~JsonRpcConnection() {
  for (auto& [id, call] : core_->calls)
    if (call.timer) call.timer->cancel();
  core_->output_closed = true; // Replies outliving us must not touch the transport.
}

void JsonRpcConnection::start() {
  transport_.start(*this);
}

std::size_t JsonRpcConnection::pendingCalls() const {
  return core_->calls.size();
}
std::size_t JsonRpcConnection::requestsInFlight() const {
  return core_->inflight.size();
}

void JsonRpcConnection::notify(const std::string& method, json params) {
  log::debug("--> ", method);
  core_->send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

std::int64_t JsonRpcConnection::call(const std::string& method, json params,
                                     ResponseCallback callback, std::chrono::milliseconds timeout) {
  std::int64_t id = core_->next_call_id++;
  if (core_->output_closed) {
    CallResponse response;
    response.kind = CallResponse::ConnectionClosed;
    response.error.message = "connection closed before " + method + " was sent";
    callback(std::move(response));
    return id;
  }
  auto& pending = core_->calls[id];
  pending.method = method;
  pending.callback = std::move(callback);
  pending.timer = std::make_unique<boost::asio::steady_timer>(io_, timeout);
  std::weak_ptr<rpc_detail::Core> weak = core_;
  pending.timer->async_wait([weak, id](boost::system::error_code error) {
    auto core = weak.lock();
    if (error || !core) return;
    auto it = core->calls.find(id);
    if (it == core->calls.end()) return;
    auto call = std::move(it->second);
    core->calls.erase(it);
    log::warn(call.method, " (id ", id, ") timed out; cancelling it");
    core->send({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", id}}}});
    CallResponse response;
    response.kind = CallResponse::TimedOut;
    response.error =
        RpcError::make(RpcErrorCode::RequestCancelled, call.method + " got no answer in time");
    call.callback(std::move(response));
  });
  log::debug("--> ", method, " (id ", id, ")");
  core_->send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return id;
}

void JsonRpcConnection::close(std::function<void()> done) {
  failAllCalls(CallResponse::ConnectionClosed, "connection closed");
  transport_.close([core = core_, done = std::move(done)] {
    core->output_closed = true;
    if (done) done();
  });
}

void JsonRpcConnection::failAllCalls(CallResponse::Kind kind, const std::string& why) {
  auto calls = std::move(core_->calls);
  core_->calls.clear();
  for (auto& [id, call] : calls) {
    if (call.timer) call.timer->cancel();
    CallResponse response;
    response.kind = kind;
    response.error = RpcError::make(RpcErrorCode::RequestCancelled, call.method + ": " + why);
    call.callback(std::move(response));
  }
}

void JsonRpcConnection::onMessage(std::string body) {
  json message;
  std::string parse_error;
  if (!parseJSON(body, message, parse_error)) {
    log::warn("invalid JSON (", body.size(), " bytes): ", parse_error);
    core_->send(errorResponse(
        nullptr, RpcError::make(RpcErrorCode::ParseError, "invalid JSON: " + parse_error)));
    return;
  }
  // The DOM replaces the text: free it now (a large didOpen). Not `body = std::string()`,
  // which keeps the capacity in libstdc++.
  std::string().swap(body);

  if (!message.is_object()) {
    core_->send(errorResponse(
        nullptr, RpcError::make(RpcErrorCode::InvalidRequest,
                                message.is_array()
                                    ? "a message must be a JSON object (batches are not supported)"
                                    : "a message must be a JSON object")));
    return;
  }
  json id = nullptr;
  bool has_id = false;
  if (auto it = message.find("id"); it != message.end()) {
    has_id = true;
    id = *it;
  }
  auto invalid = [&](const std::string& why) {
    log::warn("invalid request: ", why);
    core_->send(errorResponse(has_id && isValidId(id) ? id : json(nullptr),
                              RpcError::make(RpcErrorCode::InvalidRequest, why)));
  };
  auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0") return invalid("\"jsonrpc\" must be \"2.0\"");

  auto method_it = message.find("method");
  if (method_it == message.end()) {
    if (has_id && (message.contains("result") || message.contains("error")))
      return handleResponse(message);
    return invalid("a message needs a \"method\" (request, notification) or a \"result\"/"
                   "\"error\" (response)");
  }
  if (!method_it->is_string()) return invalid("\"method\" must be a string");
  std::string method = method_it->get<std::string>();
  if (has_id && !isValidId(id)) return invalid("\"id\" must be an integer or a string");

  json params = nullptr;
  if (auto it = message.find("params"); it != message.end()) params = std::move(*it);
  message = json(); // only params are needed from here on

  if (has_id)
    handleRequest(method, std::move(id), std::move(params));
  else
    handleNotification(method, std::move(params));
}

void JsonRpcConnection::handleRequest(const std::string& method, json id, json params) {
  auto state = std::make_shared<rpc_detail::ReplyState>();
  state->core = core_;
  state->key = id.dump();
  state->id = std::move(id);
  state->method = method;
  core_->inflight[state->key] = state;
  log::debug("<-- ", method, " (id ", state->key, ")");
  Reply reply(state);
  state.reset();
  try {
    handler_.onRequest(method, std::move(params), reply);
  } catch (const std::exception& e) {
    log::error("handler of ", method, " threw: ", e.what());
    if (!reply.replied())
      reply.error(RpcErrorCode::InternalError, std::string("internal error: ") + e.what());
  }
}

void JsonRpcConnection::handleNotification(const std::string& method, json params) {
  log::debug("<-- ", method);
  if (method == "$/cancelRequest") {
    const json* id = params.is_object() && params.contains("id") ? &params["id"] : nullptr;
    if (!id || !isValidId(*id)) {
      log::warn("$/cancelRequest without a valid id: ", serializeJSON(params));
      return;
    }
    auto it = core_->inflight.find(id->dump());
    auto state = it == core_->inflight.end() ? nullptr : it->second.lock();
    if (!state || state->replied) return; // already answered: nothing to cancel
    state->cancelled = true;
    if (auto callback = std::move(state->on_cancel)) {
      state->on_cancel = nullptr;
      callback();
    }
    return;
  }
  try {
    handler_.onNotification(method, std::move(params));
  } catch (const std::exception& e) {
    log::error("handler of notification ", method, " threw: ", e.what());
  }
}

void JsonRpcConnection::handleResponse(const json& message) {
  const json& id = message["id"];
  if (!id.is_number_integer()) {
    log::warn("response with an id we never used: ", id.dump());
    return;
  }
  auto it = core_->calls.find(id.get<std::int64_t>());
  if (it == core_->calls.end()) {
    log::warn("response to unknown or timed-out call ", id.dump(), "; ignored");
    return;
  }
  auto call = std::move(it->second);
  core_->calls.erase(it);
  if (call.timer) call.timer->cancel();
  CallResponse response;
  if (auto error = message.find("error"); error != message.end()) {
    response.kind = CallResponse::Error;
    response.error = rpcErrorFromJSON(*error);
  } else {
    response.result = message["result"];
  }
  log::debug("<-- reply to ", call.method, " (id ", id.dump(), ")");
  call.callback(std::move(response));
}

void JsonRpcConnection::onOversizedMessage(std::size_t declared_bytes, const std::string& problem) {
  core_->send(errorResponse(nullptr, RpcError::make(RpcErrorCode::InvalidRequest, problem,
                                                    json{{"declaredBytes", declared_bytes}})));
}

void JsonRpcConnection::onInputClosed(const std::string& problem) {
  if (!problem.empty() && problem.rfind("write error", 0) != 0)
    core_->send(
        errorResponse(nullptr, RpcError::make(RpcErrorCode::ParseError,
                                              "broken message framing, closing: " + problem)));
  failAllCalls(CallResponse::ConnectionClosed, problem.empty() ? "input closed" : problem);
  handler_.onInputClosed(problem);
}

} // namespace hashline::lsp
