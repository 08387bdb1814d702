// Fuzzes the whole LSP server in process: LspServer + text sync + hashline/snapshot + the agent
// service (read, edit and every form), over a MemoryTransport.
//
// Input: byte 0 picks the position encoding offered (utf-8 / utf-16 / utf-32); then the text of
// one open document up to the first 0x1E byte; then message bodies separated by 0x1E (raw bytes:
// invalid JSON is fair game). A fixed prelude initializes the server on a private temporary
// workspace (so disk edits stay inside it) and opens file://<workspace>/a.txt with that text.
// Properties: nothing crashes or leaks; everything the server writes is a JSON-RPC 2.0 object;
// no request id gets more answers than requests carried it; every open document's rope keeps its
// invariants and its lines/bytes agree; the server stops when the input ends.
#include "lsp/server/lsp_server.h"
#include "lsp/server/snapshot_feature.h"
#include "lsp/server/text_sync_feature.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/service_options.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/memory_transport.h"

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

namespace {

using nlohmann::json;
namespace lsp = hashline::lsp;

// A private workspace and state directory for the whole fuzzing process.
const std::string& workspace() {
  static const std::string dir = [] {
    char pattern[] = "/tmp/hashline-fuzz-XXXXXX";
    std::string made = ::mkdtemp(pattern) ? pattern : "/tmp";
    ::setenv("XDG_STATE_HOME", (made + "/state").c_str(), 1);
    ::setenv("XDG_RUNTIME_DIR", (made + "/run").c_str(), 1);
    return made;
  }();
  return dir;
}

std::string request(int id, const std::string& method, json params) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}
      .dump();
}
std::string notification(const std::string& method, json params) {
  return json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}}.dump(
      -1, ' ', false, json::error_handler_t::replace);
}

} // namespace

HASHLINE_FUZZ_TARGET(lsp_server) {
  hashline::fuzz::ByteReader input(data, size);
  static const char* const kEncodings[] = {"utf-8", "utf-16", "utf-32"};
  const char* encoding = kEncodings[input.byte() % 3];
  std::string text(input.until('\x1e'));
  const std::string root = workspace();
  const std::string uri = "file://" + root + "/a.txt";

  std::vector<std::string> incoming;
  incoming.push_back(request(
      900001, "initialize",
      {{"processId", nullptr},
       {"rootUri", "file://" + root},
       {"capabilities",
        {{"general", {{"positionEncodings", {encoding}}}},
         {"workspace", {{"applyEdit", true}, {"workspaceEdit", {{"documentChanges", true}}}}}}}}));
  incoming.push_back(notification("initialized", json::object()));
  incoming.push_back(notification(
      "textDocument/didOpen",
      {{"textDocument",
        {{"uri", uri}, {"languageId", "plaintext"}, {"version", 1}, {"text", text}}}}));
  while (!input.empty())
    incoming.emplace_back(input.until('\x1e'));
  incoming.push_back(request(900002, "hashline/snapshot", {{"textDocument", {{"uri", uri}}}}));

  boost::asio::io_context io;
  auto sent = std::make_shared<std::vector<std::string>>();
  lsp::LspServerOptions options;
  options.parent_check_interval = std::chrono::milliseconds(0);
  options.client_request_timeout = std::chrono::milliseconds(50);
  {
    lsp::LspServer server(io, std::make_unique<hashline::fuzz::MemoryTransport>(io, incoming, sent),
                          options);
    lsp::registerTextSync(server);
    lsp::registerSnapshot(server);
    auto service = lsp::HashlineService::forEditor(server, [] {
      lsp::ServiceOptions service_options;
      service_options.apply_timeout = std::chrono::milliseconds(20);
      service_options.confirm_timeout = std::chrono::milliseconds(20);
      return service_options;
    }());
    for (const std::string& method : service->methods()) {
      lsp::HashlineService* raw = service.get();
      server.methods().addRequest(
          "hashline/" + method, [raw, method](json params, lsp::Reply reply) {
            raw->call(method, std::move(params), [reply](lsp::ServiceOutcome outcome) {
              if (auto* result = std::get_if<json>(&outcome))
                return reply.result(std::move(*result));
              reply.error(std::get<lsp::RpcError>(std::move(outcome)));
            });
          });
    }
    (void)server.run();

    for (const std::string& key : server.documents().uris()) {
      const lsp::OpenDocument* open = server.documents().find(key);
      FUZZ_CHECK(open != nullptr, key);
      const hashline::Rope& rope = open->document.text();
      FUZZ_CHECK(rope.checkInvariants(), key);
      FUZZ_CHECK(rope.toString().size() == rope.byteSize());
    }
    service.reset();
  }

  // A client may reuse an id (its bug); the server then answers each request: no id may get
  // more answers than requests carried it.
  std::map<std::string, int> requests_per_id;
  for (const std::string& body : incoming) {
    json message = json::parse(body, nullptr, false);
    if (message.is_object() && message.contains("id")) // a request, or an invalid one (-32600)
      ++requests_per_id[message["id"].dump()];
  }
  std::map<std::string, int> answers_per_id;
  for (const std::string& body : *sent) {
    json message = json::parse(body, nullptr, false);
    FUZZ_CHECK(!message.is_discarded() && message.is_object(), body);
    FUZZ_CHECK(message.value("jsonrpc", "") == "2.0", body);
    if (message.contains("method")) continue; // our own requests / notifications to the client
    FUZZ_CHECK(message.contains("result") != message.contains("error"), body);
    const json& id = message["id"];
    if (id.is_null()) continue;
    FUZZ_CHECK(++answers_per_id[id.dump()] <= requests_per_id[id.dump()],
               "more answers than requests: " + body);
  }
  return 0;
}
