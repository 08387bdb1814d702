// Fuzzes JSON-RPC dispatch and the LSP / agent parameter parsers.
//
// Input: one message body. (1) It goes through a JsonRpcConnection (lsp/rpc/json_rpc.h) over a
// MemoryTransport whose handler answers every request: every output must be valid JSON-RPC 2.0
// (an object with "jsonrpc":"2.0", and a response carries exactly one of result/error), and a
// request must get exactly one response. (2) If the body is JSON, the value (and its "params",
// if any) is run through every protocol fromJSON and every agent-service request parser:
// failures must name a path, nothing may throw or crash. serializeJSON output must re-parse.
#include "lsp/protocol/basic_types.h"
#include "lsp/protocol/error_json.h"
#include "lsp/protocol/lifecycle.h"
#include "lsp/protocol/text_sync.h"
#include "lsp/protocol/workspace_edit.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/service/service_request.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/memory_transport.h"

#include <nlohmann/json.hpp>
#include <string>

namespace {

using nlohmann::json;
namespace lsp = hashline::lsp;

class AnsweringHandler : public lsp::RpcHandler {
public:
  int requests = 0;
  void onRequest(const std::string& method, json params, lsp::Reply reply) override {
    ++requests;
    if (method.size() % 2)
      reply.result(params);
    else
      reply.error(lsp::RpcErrorCode::InvalidParams, "no");
  }
  void onNotification(const std::string&, json) override {}
  void onInputClosed(const std::string&) override {}
};

template <class T> void tryParse(const json& value) {
  lsp::JsonPath::Root root;
  T out{};
  bool ok = fromJSON(value, out, lsp::JsonPath(root));
  FUZZ_CHECK(ok != root.failed, root.describe());
  if (!ok) FUZZ_CHECK(!root.error_message.empty());
}

void parseEverything(const json& value) {
  tryParse<lsp::Position>(value);
  tryParse<lsp::Range>(value);
  tryParse<lsp::TextDocumentIdentifier>(value);
  tryParse<lsp::VersionedTextDocumentIdentifier>(value);
  tryParse<lsp::OptionalVersionedTextDocumentIdentifier>(value);
  tryParse<lsp::InitializeParams>(value);
  tryParse<lsp::ClientCapabilities>(value);
  tryParse<lsp::DidOpenTextDocumentParams>(value);
  tryParse<lsp::DidChangeTextDocumentParams>(value);
  tryParse<lsp::DidCloseTextDocumentParams>(value);
  tryParse<lsp::DidSaveTextDocumentParams>(value);
  tryParse<lsp::TextEdit>(value);
  tryParse<lsp::WorkspaceEdit>(value);
  tryParse<lsp::ApplyWorkspaceEditParams>(value);
  tryParse<lsp::ApplyWorkspaceEditResult>(value);
  tryParse<lsp::ExecuteCommandParams>(value);
  tryParse<hashline::Error>(value);
  {
    json copy = value;
    lsp::JsonPath::Root root;
    lsp::DidOpenTextDocumentParams out;
    (void)lsp::takeDidOpenParams(copy, out, lsp::JsonPath(root));
  }
  lsp::ReadRequest read;
  (void)lsp::parseReadRequest(value, read);
  for (auto kind : {lsp::FormKind::Anchors, lsp::FormKind::Replace, lsp::FormKind::HeadTail,
                    lsp::FormKind::Range, lsp::FormKind::Draft, lsp::FormKind::Ed}) {
    lsp::FormRequest form;
    (void)lsp::parseFormRequest(kind, value, form);
  }
  lsp::PatchRequest patch;
  (void)lsp::parsePatchRequest(value, patch);
}

void checkOutgoing(const std::string& body) {
  json message = json::parse(body, nullptr, false);
  FUZZ_CHECK(!message.is_discarded() && message.is_object(), body);
  FUZZ_CHECK(message.value("jsonrpc", "") == "2.0", body);
  if (!message.contains("method")) {
    FUZZ_CHECK(message.contains("id"), body);
    FUZZ_CHECK(message.contains("result") != message.contains("error"), body);
    if (message.contains("error")) {
      FUZZ_CHECK(message["error"].is_object() && message["error"]["code"].is_number_integer() &&
                     message["error"]["message"].is_string(),
                 body);
    }
  }
}

} // namespace

HASHLINE_FUZZ_TARGET(jsonrpc) {
  std::string body(reinterpret_cast<const char*>(data), size);

  {
    boost::asio::io_context io;
    auto sent = std::make_shared<std::vector<std::string>>();
    hashline::fuzz::MemoryTransport transport(io, {body, body}, sent);
    AnsweringHandler handler;
    lsp::JsonRpcConnection connection(io, transport, handler);
    connection.start();
    io.run();
    for (const std::string& out : *sent)
      checkOutgoing(out);
    json parsed = json::parse(body, nullptr, false);
    bool is_request = parsed.is_object() && parsed.contains("id") && parsed.contains("method") &&
                      parsed["method"].is_string() && parsed.value("jsonrpc", "") == "2.0" &&
                      parsed["method"] != "$/cancelRequest";
    if (is_request && (parsed["id"].is_string() || parsed["id"].is_number_integer()))
      FUZZ_CHECK(sent->size() == 2, body);
  }

  json value = json::parse(body, nullptr, false);
  if (value.is_discarded()) return 0;
  std::string wire = lsp::serializeJSON(value);
  FUZZ_CHECK(!json::parse(wire, nullptr, false).is_discarded(), wire);
  parseEverything(value);
  if (value.is_object() && value.contains("params")) parseEverything(value["params"]);
  return 0;
}
