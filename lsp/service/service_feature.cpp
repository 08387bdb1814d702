// Wiring of HashlineService into the LSP method table; see service_feature.h.
#include "lsp/service/service_feature.h"

#include "lsp/context/context_service.h"
#include "lsp/context/diagnostics_service.h"
#include "lsp/context/symbols_service.h"
#include "lsp/protocol/json_path.h"
#include "lsp/reconcile/reconciler.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/temp_sweep_feature.h"

#include <vector>

namespace hashline::lsp {

using nlohmann::json;

namespace {

void answer(const Reply& reply, ServiceOutcome outcome) {
  if (auto* result = std::get_if<json>(&outcome)) return reply.result(std::move(*result));
  reply.error(std::get<RpcError>(std::move(outcome)));
}

} // namespace

HashlineService& registerAgentService(LspServer& server) {
  // Deliberately never destroyed: it listens to the server's DocumentStore, which is destroyed
  // with the server; the process ends right after the server stops. Kept reachable from a
  // static, so it is immortal rather than lost (LeakSanitizer reported it at exit).
  HashlineService* service =
      HashlineService::forEditor(server, ServiceOptions::fromEnvironment()).release();
  static auto& immortal = *new std::vector<HashlineService*>();
  immortal.push_back(service);
  // Foreign disk writes to open files become merged buffer edits (adds `conflicts`, `resolve`).
  registerReconciler(server, *service, ReconcileOptions::fromEnvironment());
  // The editor's diagnostics: hashline/diagnostics, `diagnostics`, and in edit results.
  context::registerDiagnostics(server, *service);
  // The user's selection and visible documents: hashline/context and `context`.
  context::registerContext(server, *service);
  // Outline and symbol reads, through the editor's language servers (hashline/documentSymbol).
  context::registerSymbols(server, *service);
  for (const std::string& method : service->methods()) {
    server.methods().addCommand("hashline." + method, [service, method](json arguments,
                                                                        Reply reply) {
      if (!arguments.is_null() && !arguments.is_array())
        return reply.error(RpcErrorCode::InvalidParams, "invalid params for hashline." + method +
                                                            ": arguments: expected an array, got " +
                                                            describeJSON(arguments));
      json params = arguments.is_array() && !arguments.empty() ? arguments.front() : json::object();
      if (params.is_array() && params.empty()) params = json::object(); // Lua's empty table
      if (!params.is_object())
        return reply.error(RpcErrorCode::InvalidParams,
                           "hashline." + method + " takes one object argument: arguments: [{...}]");
      service->call(method, std::move(params),
                    [reply](ServiceOutcome outcome) { answer(reply, std::move(outcome)); });
    });
    server.methods().addRequest("hashline/" + method, [service, method](json params, Reply reply) {
      service->call(method, std::move(params),
                    [reply](ServiceOutcome outcome) { answer(reply, std::move(outcome)); });
    });
  }
  registerTempSweeps(server); // dead writers' temps in the roots and beside opened documents
  return *service;
}

} // namespace hashline::lsp
