// JsonRpcConnection in process, over a fake transport: dispatch, exactly-once replies
// (dropped, doubled, late), $/cancelRequest, protocol errors, and our own outgoing calls
// (answer, error, timeout, closed connection).
#include "lsp/rpc/json_rpc.h"

#include <boost/asio/io_context.hpp>
#include <gtest/gtest.h>
#include <utility>

namespace hashline::lsp {
namespace {

using json = nlohmann::json;

class FakeTransport : public Transport {
public:
  void start(MessageSink& sink) override { sink_ = &sink; }
  void send(std::string body) override { sent.push_back(json::parse(body)); }
  void close(std::function<void()> done) override {
    closed = true;
    if (done) done();
  }
  void receive(const json& message) { sink_->onMessage(message.dump()); }
  void receiveRaw(std::string body) { sink_->onMessage(std::move(body)); }
  MessageSink& sink() { return *sink_; }

  std::vector<json> sent;
  bool closed = false;

private:
  MessageSink* sink_ = nullptr;
};

class ScriptedHandler : public RpcHandler {
public:
  std::function<void(const std::string&, json, Reply)> on_request =
      [](const std::string&, json params, Reply reply) { reply.result(params); };
  std::vector<std::pair<std::string, json>> notifications;
  std::vector<std::string> closed;

  void onRequest(const std::string& method, json params, Reply reply) override {
    on_request(method, std::move(params), std::move(reply));
  }
  void onNotification(const std::string& method, json params) override {
    notifications.emplace_back(method, std::move(params));
  }
  void onInputClosed(const std::string& problem) override { closed.push_back(problem); }
};

class JsonRpcTest : public ::testing::Test {
protected:
  JsonRpcTest() : connection(io, transport, handler) { connection.start(); }
  json request(json id, const std::string& method, json params = json::object()) {
    return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", params}};
  }
  boost::asio::io_context io;
  FakeTransport transport;
  ScriptedHandler handler;
  JsonRpcConnection connection;
};

TEST_F(JsonRpcTest, RequestGetsOneResultWithItsId) {
  transport.receive(request(7, "echo", {{"x", 1}}));
  transport.receive(request("s-1", "echo", {{"y", 2}}));
  ASSERT_EQ(transport.sent.size(), 2u);
  EXPECT_EQ(transport.sent[0], (json{{"jsonrpc", "2.0"}, {"id", 7}, {"result", {{"x", 1}}}}));
  EXPECT_EQ(transport.sent[1]["id"], "s-1");
  EXPECT_EQ(connection.requestsInFlight(), 0u);
}

TEST_F(JsonRpcTest, NotificationsReachTheHandler) {
  transport.receive({{"jsonrpc", "2.0"}, {"method", "note"}, {"params", {1, 2}}});
  transport.receive({{"jsonrpc", "2.0"}, {"method", "bare"}});
  ASSERT_EQ(handler.notifications.size(), 2u);
  EXPECT_EQ(handler.notifications[0].second, json({1, 2}));
  EXPECT_TRUE(handler.notifications[1].second.is_null());
  EXPECT_TRUE(transport.sent.empty());
}

TEST_F(JsonRpcTest, ADroppedReplyBecomesInternalError) {
  handler.on_request = [](const std::string&, json, Reply) {};
  transport.receive(request(1, "forgetful"));
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0]["error"]["code"], -32603);
  EXPECT_EQ(transport.sent[0]["id"], 1);
}

TEST_F(JsonRpcTest, ASecondReplyIsDropped) {
  handler.on_request = [](const std::string&, json, Reply reply) {
    reply.result(1);
    reply.result(2);
    reply.error(RpcErrorCode::InternalError, "late");
  };
  transport.receive(request(1, "twice"));
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0]["result"], 1);
}

TEST_F(JsonRpcTest, RepliesMayComeLater) {
  std::optional<Reply> held;
  handler.on_request = [&](const std::string&, json, Reply reply) { held = reply; };
  transport.receive(request(5, "slow"));
  EXPECT_TRUE(transport.sent.empty());
  EXPECT_EQ(connection.requestsInFlight(), 1u);
  held->result("done");
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0]["result"], "done");
  EXPECT_EQ(connection.requestsInFlight(), 0u);
  held.reset(); // dropping an answered reply sends nothing more
  EXPECT_EQ(transport.sent.size(), 1u);
}

TEST_F(JsonRpcTest, CancelRunsTheHandlersCallback) {
  std::optional<Reply> held;
  handler.on_request = [&](const std::string&, json, Reply reply) {
    reply.onCancel([reply] { reply.error(RpcErrorCode::RequestCancelled, "cancelled"); });
    held = reply;
  };
  transport.receive(request(9, "slow"));
  transport.receive({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 9}}}});
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0]["error"]["code"], -32800);
  EXPECT_TRUE(held->cancelled());
  EXPECT_TRUE(handler.notifications.empty()); // $/cancelRequest is the connection's business
}

TEST_F(JsonRpcTest, CancelWithoutCallbackOnlyMarks) {
  std::optional<Reply> held;
  handler.on_request = [&](const std::string&, json, Reply reply) { held = reply; };
  transport.receive(request("a", "slow"));
  transport.receive({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", "a"}}}});
  EXPECT_TRUE(held->cancelled());
  EXPECT_TRUE(transport.sent.empty());
  held->result(nullptr);
  EXPECT_EQ(transport.sent.size(), 1u);
}

TEST_F(JsonRpcTest, AThrowingHandlerIsAnInternalError) {
  handler.on_request = [](const std::string&, json params, Reply) {
    (void)params.at("missing"); // throws
  };
  transport.receive(request(3, "throws"));
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0]["error"]["code"], -32603);
}

TEST_F(JsonRpcTest, ProtocolFaults) {
  transport.receiveRaw("{oops");
  transport.receiveRaw("[]");
  transport.receive({{"id", 1}, {"method", "x"}});
  transport.receive({{"jsonrpc", "2.0"}, {"id", true}, {"method", "x"}});
  transport.receive({{"jsonrpc", "2.0"}, {"id", 2}, {"method", 5}});
  ASSERT_EQ(transport.sent.size(), 5u);
  EXPECT_EQ(transport.sent[0]["error"]["code"], -32700);
  EXPECT_TRUE(transport.sent[0]["id"].is_null());
  EXPECT_EQ(transport.sent[1]["error"]["code"], -32600);
  EXPECT_EQ(transport.sent[2]["error"]["code"], -32600);
  EXPECT_EQ(transport.sent[2]["id"], 1);
  EXPECT_TRUE(transport.sent[3]["id"].is_null());
  EXPECT_EQ(transport.sent[4]["id"], 2);
}

TEST_F(JsonRpcTest, OversizedAndBrokenInput) {
  transport.sink().onOversizedMessage(1234, "too big");
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0]["error"]["code"], -32600);
  EXPECT_EQ(transport.sent[0]["error"]["data"]["declaredBytes"], 1234);
  transport.sink().onInputClosed("bad header");
  ASSERT_EQ(transport.sent.size(), 2u);
  EXPECT_EQ(transport.sent[1]["error"]["code"], -32700);
  EXPECT_EQ(handler.closed, std::vector<std::string>{"bad header"});
}

TEST_F(JsonRpcTest, OutgoingCallGetsItsAnswer) {
  std::vector<CallResponse> answers;
  auto id = connection.call(
      "workspace/applyEdit", {{"edit", json::object()}},
      [&](CallResponse r) { answers.push_back(r); }, std::chrono::seconds(30));
  ASSERT_EQ(transport.sent.size(), 1u);
  EXPECT_EQ(transport.sent[0]["method"], "workspace/applyEdit");
  EXPECT_EQ(transport.sent[0]["id"], id);
  transport.receive({{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"applied", true}}}});
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_TRUE(answers[0].ok());
  EXPECT_EQ(answers[0].result["applied"], true);
  EXPECT_EQ(connection.pendingCalls(), 0u);
  // A duplicate answer is ignored.
  transport.receive({{"jsonrpc", "2.0"}, {"id", id}, {"result", nullptr}});
  EXPECT_EQ(answers.size(), 1u);
}

TEST_F(JsonRpcTest, OutgoingCallErrorAnswer) {
  std::vector<CallResponse> answers;
  auto id = connection.call(
      "x", nullptr, [&](CallResponse r) { answers.push_back(r); }, std::chrono::seconds(30));
  transport.receive(
      {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", 32603}, {"message", "no"}}}});
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].kind, CallResponse::Error);
  EXPECT_EQ(answers[0].error.code, 32603); // eglot's positive code is kept as sent
}

TEST_F(JsonRpcTest, OutgoingCallTimesOutAndIsCancelled) {
  std::vector<CallResponse> answers;
  auto id = connection.call(
      "slow/peer", nullptr, [&](CallResponse r) { answers.push_back(r); },
      std::chrono::milliseconds(1));
  io.run(); // the timer fires
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].kind, CallResponse::TimedOut);
  ASSERT_EQ(transport.sent.size(), 2u);
  EXPECT_EQ(transport.sent[1]["method"], "$/cancelRequest");
  EXPECT_EQ(transport.sent[1]["params"]["id"], id);
  transport.receive({{"jsonrpc", "2.0"}, {"id", id}, {"result", 1}}); // too late: ignored
  EXPECT_EQ(answers.size(), 1u);
}

TEST_F(JsonRpcTest, PendingCallsFailWhenInputCloses) {
  std::vector<CallResponse> answers;
  connection.call(
      "a", nullptr, [&](CallResponse r) { answers.push_back(r); }, std::chrono::seconds(30));
  connection.call(
      "b", nullptr, [&](CallResponse r) { answers.push_back(r); }, std::chrono::seconds(30));
  transport.sink().onInputClosed("");
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].kind, CallResponse::ConnectionClosed);
  EXPECT_EQ(answers[1].kind, CallResponse::ConnectionClosed);
  EXPECT_EQ(handler.closed, std::vector<std::string>{""});
}

TEST_F(JsonRpcTest, CloseFlushesThroughTheTransport) {
  bool done = false;
  connection.notify("bye", nullptr);
  connection.close([&] { done = true; });
  EXPECT_TRUE(done);
  EXPECT_TRUE(transport.closed);
  EXPECT_EQ(transport.sent.size(), 1u);
}

} // namespace
} // namespace hashline::lsp
