// Malformed input of every kind gets a JSON-RPC error or, when message boundaries are lost, a
// logged close with exit code 1 — never a crash, never a hang, never a corrupt reply.
#include "tests/lsp/support/lsp_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kInvalidParams = -32602;

// A broken frame: the server answers a -32700 with id null, logs, and exits with 1.
void expectLoggedClose(LspClient& client) {
  json response = client.waitNullIdResponse();
  EXPECT_EQ(response["error"]["code"], kParseError);
  EXPECT_EQ(client.waitForExit(), 1);
  EXPECT_THAT(client.log(), HasSubstr("broken frame"));
  EXPECT_TRUE(client.outputProblems().empty());
}

TEST(BrokenFrame, HeaderWithoutColon) {
  LspClient client;
  client.initialize();
  client.sendRaw("Content-Length 10\r\n\r\n{\"a\":1234}");
  expectLoggedClose(client);
}

TEST(BrokenFrame, MissingContentLength) {
  LspClient client;
  client.initialize();
  client.sendRaw("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}");
  expectLoggedClose(client);
}

TEST(BrokenFrame, NonNumericContentLength) {
  LspClient client;
  client.sendRaw("Content-Length: ten\r\n\r\n");
  expectLoggedClose(client);
}

TEST(BrokenFrame, NegativeContentLength) {
  LspClient client;
  client.sendRaw("Content-Length: -5\r\n\r\n");
  expectLoggedClose(client);
}

TEST(BrokenFrame, ConflictingContentLengths) {
  LspClient client;
  client.sendRaw("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}");
  expectLoggedClose(client);
}

TEST(BrokenFrame, RawJsonWithoutHeaders) {
  LspClient client;
  client.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\r\n\r\n");
  expectLoggedClose(client);
}

TEST(BrokenFrame, BinaryGarbage) {
  LspClient client;
  std::string garbage;
  for (int i = 0; i < 300; ++i)
    garbage.push_back(static_cast<char>((i * 37 + 11) % 256));
  client.sendRaw(garbage);
  client.closeInput();
  EXPECT_EQ(client.waitForExit(), 1);
  EXPECT_TRUE(client.outputProblems().empty());
}

TEST(BrokenFrame, EndlessHeaderLine) {
  LspClient client;
  client.sendRaw("X-Padding: " + std::string(100000, 'a'));
  expectLoggedClose(client);
}

TEST(BrokenFrame, TruncatedMessageAtEndOfInput) {
  LspClient client;
  client.initialize();
  client.sendRaw("Content-Length: 100\r\n\r\n{\"jsonrpc\":");
  client.closeInput();
  EXPECT_EQ(client.waitForExit(), 1);
}

TEST(Oversized, OverTheConfiguredCapIsRefusedAndSkipped) {
  LspClientOptions options;
  options.args = {"lsp", "--log-level", "debug", "--max-message-bytes", "1000"};
  LspClient client(options);
  client.initialize();
  client.didOpen("file:///w/small.txt", "small\n");
  json big = {{"jsonrpc", "2.0"},
              {"id", 99},
              {"method", "hashline/snapshot"},
              {"params", {{"padding", std::string(2000, 'x')}}}};
  client.send(big);
  json response = client.waitNullIdResponse();
  EXPECT_EQ(response["error"]["code"], kInvalidRequest);
  EXPECT_THAT(response["error"]["message"].get<std::string>(), HasSubstr("1000"));
  // The stream stayed in sync: the next message is understood.
  EXPECT_EQ(client.snapshot("file:///w/small.txt")["sha256"], sha256Hex("small\n"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Oversized, HugeDeclaredLengthIsRefusedAtOnce) {
  LspClient client; // default cap: 64 MiB
  client.initialize();
  client.sendRaw("Content-Length: 1099511627776\r\n\r\n"); // 1 TiB announced, nothing sent
  json response = client.waitNullIdResponse();
  EXPECT_EQ(response["error"]["code"], kInvalidRequest);
  EXPECT_EQ(response["error"]["data"]["declaredBytes"], 1099511627776LL);
  client.closeInput();
  EXPECT_EQ(client.waitForExit(), 1);
}

TEST(Oversized, ExactlyAtTheCapIsAccepted) {
  json message = {{"jsonrpc", "2.0"},
                  {"id", 1},
                  {"method", "hashline/noSuchMethod"},
                  {"params", {{"pad", ""}}}};
  std::size_t base = message.dump().size();
  message["params"]["pad"] = std::string(500 - base, 'p');
  ASSERT_EQ(message.dump().size(), 500u);
  LspClientOptions options;
  options.args = {"lsp", "--max-message-bytes", "500"};
  LspClient client(options);
  client.initialize();
  client.send(message);
  EXPECT_EQ(client.waitResponse(1)["error"]["code"], -32601);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(InvalidJson, IsAParseErrorAndTheServerContinues) {
  LspClient client;
  client.initialize();
  for (const char* body : {"{", "nope", "{\"jsonrpc\":\"2.0\",\"id\":1,}", "", "\xFF\xFE"}) {
    client.sendBody(body);
    json response = client.waitNullIdResponse();
    EXPECT_EQ(response["error"]["code"], kParseError) << body;
    EXPECT_TRUE(response["id"].is_null());
  }
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(InvalidRequest, NotAJsonRpcMessage) {
  LspClient client;
  client.initialize();
  client.sendBody("[1,2,3]"); // batches are not LSP
  EXPECT_EQ(client.waitNullIdResponse()["error"]["code"], kInvalidRequest);
  client.sendBody("42");
  EXPECT_EQ(client.waitNullIdResponse()["error"]["code"], kInvalidRequest);
  client.sendBody(R"({"id":5,"method":"shutdown"})"); // no "jsonrpc":"2.0"
  EXPECT_EQ(client.waitResponse(5)["error"]["code"], kInvalidRequest);
  client.sendBody(R"({"jsonrpc":"1.0","id":6,"method":"shutdown"})");
  EXPECT_EQ(client.waitResponse(6)["error"]["code"], kInvalidRequest);
  client.sendBody(R"({"jsonrpc":"2.0","id":7,"method":12})");
  EXPECT_EQ(client.waitResponse(7)["error"]["code"], kInvalidRequest);
  client.sendBody(R"({"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"})");
  EXPECT_EQ(client.waitNullIdResponse()["error"]["code"], kInvalidRequest);
  client.sendBody(R"({"jsonrpc":"2.0","id":8})"); // neither request nor response
  EXPECT_EQ(client.waitResponse(8)["error"]["code"], kInvalidRequest);
  client.sendBody(R"({"jsonrpc":"2.0","id":4242,"result":null})"); // answer to nothing: ignored
  EXPECT_TRUE(client.running());
  EXPECT_EQ(client.shutdownAndExit(), 0); // none of the above was a real shutdown
}

TEST(InvalidParams, NamesTheWrongJsonPath) {
  LspClient client;
  client.initialize();
  struct Case {
    json params;
    const char* path;
  } cases[] = {
      {{{"textDocument", {{"uri", 42}}}}, "params.textDocument.uri"},
      {{{"textDocument", "file:///x"}}, "params.textDocument"},
      {json::object(), "params.textDocument"},
      {nullptr, "params"},
      {json::array(), "params"},
  };
  for (const auto& c : cases) {
    json error = client.callError("hashline/snapshot", c.params);
    EXPECT_EQ(error["code"], kInvalidParams) << c.params.dump();
    EXPECT_THAT(error["message"].get<std::string>(), HasSubstr(c.path)) << c.params.dump();
  }
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(InvalidParams, BadNotificationsAreReportedNotFatal) {
  LspClient client;
  client.initialize();
  client.notify("textDocument/didOpen", {{"textDocument", {{"uri", "file:///w/x"}}}}); // no text
  json message = client.waitNotification("window/logMessage");
  EXPECT_EQ(message["params"]["type"], 1);
  EXPECT_THAT(message["params"]["message"].get<std::string>(), HasSubstr("params.textDocument"));
  client.notify("textDocument/didChange", {{"textDocument", 5}});
  client.notify("textDocument/didClose", "nonsense");
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", false}}}});
  client.sync();
  EXPECT_TRUE(client.running());
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Framing, HeaderVariantsAreAccepted) {
  LspClient client;
  client.initialize();
  std::string body = R"({"jsonrpc":"2.0","id":"a","method":"hashline/none"})";
  std::string size = std::to_string(body.size());
  client.sendRaw("content-length: " + size + "\r\n\r\n" + body); // lower case
  EXPECT_EQ(client.waitResponse("a")["error"]["code"], -32601);
  body = R"({"jsonrpc":"2.0","id":"b","method":"hashline/none"})";
  client.sendRaw("Content-Type: application/vscode-jsonrpc; charset=utf8\r\nCONTENT-LENGTH:" +
                 size + "\r\nX-Other: 1\r\n\r\n" + body); // extra headers, no space, upper case
  EXPECT_EQ(client.waitResponse("b")["error"]["code"], -32601);
  body = R"({"jsonrpc":"2.0","id":"c","method":"hashline/none"})";
  client.sendRaw("Content-Length: " + size + "\n\n" + body); // bare LF line ends
  EXPECT_EQ(client.waitResponse("c")["error"]["code"], -32601);
  body = R"({"jsonrpc":"2.0","id":"d","method":"hashline/none"})";
  client.sendRaw("\r\n\r\nContent-Length: " + size + "\r\n\r\n" + body); // blank lines first
  EXPECT_EQ(client.waitResponse("d")["error"]["code"], -32601);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Framing, ByteByByteAndManyAtOnce) {
  LspClient client;
  client.initialize();
  std::string stream;
  for (int i = 0; i < 20; ++i)
    stream += "Content-Length: " +
              std::to_string(
                  json({{"jsonrpc", "2.0"}, {"id", 100 + i}, {"method", "x/y"}}).dump().size()) +
              "\r\n\r\n" + json({{"jsonrpc", "2.0"}, {"id", 100 + i}, {"method", "x/y"}}).dump();
  std::size_t half = stream.size() / 2;
  for (std::size_t i = 0; i < half; ++i)
    client.sendRaw(stream.substr(i, 1));
  client.sendRaw(stream.substr(half));
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(client.waitResponse(100 + i)["error"]["code"], -32601);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Framing, LargeDocumentRoundTrips) {
  LspClient client;
  client.initialize();
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "line " + std::to_string(i) + " \xE4\xB8\xAD\xF0\x9F\x98\x80\n";
  client.didOpen("file:///w/big.txt", text);
  json snapshot = client.snapshot("file:///w/big.txt");
  EXPECT_EQ(snapshot["sha256"], sha256Hex(text));
  EXPECT_EQ(snapshot["lineCount"], 200001);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
