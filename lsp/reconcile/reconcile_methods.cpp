// The agent methods of reconciliation — `conflicts` (list the open ones), `resolve` (take the
// disk's side of one, or keep the user's) and `attribute` (whose writes the next merges of a
// file are) — their registration with the agent service, and
// their disk-mode answers; see reconciler.h and reconcile_requests.h.
#include "lsp/protocol/error_json.h"
#include "lsp/reconcile/tracked_document.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/uri.h"

namespace hashline::lsp {

using nlohmann::json;

std::optional<std::string> Reconciler::keyOf(const std::optional<std::string>& uri,
                                             const std::optional<std::string>& path) const {
  if (uri) return canonicalUri(*uri);
  if (!path) return std::nullopt;
  std::string spelled = *path;
  if (!spelled.empty() && spelled[0] != '/' && !server_.workspaceRoots().empty())
    spelled = server_.workspaceRoots().front() + "/" + spelled;
  return canonicalUri(pathToFileUri(spelled));
}

void Reconciler::conflicts(const ConflictsRequest& request, ServiceCallback done) {
  std::optional<std::string> key = keyOf(request.uri, request.path);
  json listed = json::array();
  for (const OpenConflict* conflict : conflicts_.list(key))
    listed.push_back(conflictJSON(*conflict));
  done(json{{"status", "ok"}, {"conflicts", std::move(listed)}});
}

void Reconciler::resolve(const ResolveRequest& request, ServiceCallback done) {
  const OpenConflict* found = conflicts_.find(request.conflict);
  if (!found) {
    Error error = Error::make(ErrorCode::NotFound, "no open conflict " + request.conflict);
    error.withHint("`hashline conflicts` lists the open conflicts (saving the file closes them)");
    return done(refusalToJSON(error));
  }
  OpenConflict conflict = *found;
  if (!request.take_theirs) {
    conflicts_.remove(conflict.id);
    persistConflicts();
    return done(json{{"status", "ok"}, {"conflict", conflict.id}, {"take", "ours"}});
  }
  BufferPlanner planner = [conflict](OpenDocument& document, bool) -> Result<PlannedEdit> {
    Result<EditPlan> plan = planTakeTheirs(conflict, document.document.text());
    if (!plan) return plan.error();
    plan->base_version = document.document.version();
    return completePlan(std::move(*plan), document.document.text(), Tier::Block);
  };
  service_.applyToBuffer(conflict.key, "resolve", diskCaller(), std::move(planner),
                         [this, conflict, done](Result<BufferApplied> outcome, std::uint64_t op) {
                           if (!outcome) return done(refusalToJSON(outcome.error()));
                           conflicts_.remove(conflict.id);
                           persistConflicts();
                           json result = {{"status", "applied"},
                                          {"conflict", conflict.id},
                                          {"take", "theirs"},
                                          {"version", outcome->version_after}};
                           if (op) result["op"] = op;
                           done(std::move(result));
                         });
}

void Reconciler::attribute(const AttributeRequest& request, ServiceCallback done) {
  const std::string key = *keyOf(request.uri, request.path);
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(attributions_, [now](const auto& entry) { return entry.second.until <= now; });
  Attribution& attribution = attributions_[key];
  attribution.caller.agent = request.agent;
  attribution.caller.session = request.session;
  attribution.until = now + std::chrono::seconds(request.seconds);
  done(json{{"status", "ok"}, {"uri", key}, {"seconds", request.seconds}});
}

void registerReconciler(LspServer& server, HashlineService& service, ReconcileOptions options) {
  // Lives as long as the service (which is never destroyed; see service_feature.cpp).
  auto* reconciler = new Reconciler(server, service, std::move(options));
  service.addMethod("conflicts", [reconciler](const json& params, ServiceCallback done) {
    ConflictsRequest request;
    if (std::optional<RpcError> error = parseConflictsRequest(params, request))
      return done(std::move(*error));
    reconciler->conflicts(request, std::move(done));
  });
  service.addMethod("resolve", [reconciler](const json& params, ServiceCallback done) {
    ResolveRequest request;
    if (std::optional<RpcError> error = parseResolveRequest(params, request))
      return done(std::move(*error));
    reconciler->resolve(request, std::move(done));
  });
  service.addMethod("attribute", [reconciler](const json& params, ServiceCallback done) {
    AttributeRequest request;
    if (std::optional<RpcError> error = parseAttributeRequest(params, request))
      return done(std::move(*error));
    reconciler->attribute(request, std::move(done));
  });
  server.onInitialize([&server, reconciler](const InitializeParams& params, json&) {
    const json& options = params.initializationOptions;
    if (!options.is_object()) return;
    if (options.value("client", json()) == "vscode") reconciler->adoptVsCode();
    if (!options.contains("reconcile")) return;
    const json& mode = options["reconcile"];
    std::optional<ReconcileMode> parsed =
        mode.is_string() ? parseReconcileMode(mode.get<std::string>()) : std::nullopt;
    if (!parsed) {
      server.logToClient(MessageType::Warning,
                         "hashline: initializationOptions.reconcile must be \"off\", \"clean\" or "
                         "\"merge\"; keeping \"" +
                             std::string(reconcileModeName(reconciler->mode())) + "\"");
      return;
    }
    reconciler->setMode(*parsed);
  });
}

void addDiskModeConflictMethods(HashlineService& service) {
  service.addMethod("conflicts", [](const json&, ServiceCallback done) {
    done(json{{"status", "ok"},
              {"conflicts", json::array()},
              {"note", "no editor sidecar holds this workspace: nothing is reconciled"}});
  });
  service.addMethod("resolve", [](const json&, ServiceCallback done) {
    Error error = Error::make(ErrorCode::NotFound, "no editor sidecar holds this workspace, so "
                                                   "there are no conflicts to resolve");
    error.withHint("conflicts exist only while an editor runs `hashline lsp` on the workspace");
    done(refusalToJSON(error));
  });
  service.addMethod("attribute", [](const json& params, ServiceCallback done) {
    AttributeRequest request;
    if (std::optional<RpcError> error = parseAttributeRequest(params, request))
      return done(std::move(*error));
    done(json{{"status", "ok"},
              {"note", "no editor sidecar holds this workspace: nothing is reconciled"}});
  });
}

} // namespace hashline::lsp
