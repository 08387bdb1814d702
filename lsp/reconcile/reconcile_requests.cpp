// Parsers of the reconciliation methods' params; see reconcile_requests.h.
#include "lsp/reconcile/reconcile_requests.h"

#include "lsp/protocol/params_reader.h"

namespace hashline::lsp {

std::optional<RpcError> parseConflictsRequest(const nlohmann::json& params, ConflictsRequest& out) {
  ParamsReader reader(params, "conflicts");
  if (!reader.ok() || !reader.optString({"uri"}, out.uri) || !reader.optString({"path"}, out.path))
    return reader.error;
  return std::nullopt;
}

std::optional<RpcError> parseResolveRequest(const nlohmann::json& params, ResolveRequest& out) {
  ParamsReader reader(params, "resolve");
  std::optional<std::string> take;
  if (!reader.ok() || !reader.string({"conflict", "id"}, out.conflict, true) ||
      !reader.choice({"take"}, take, {"theirs", "ours"}))
    return reader.error;
  if (!take) return invalidParams("resolve", "params.take", "missing (\"theirs\" or \"ours\")");
  out.take_theirs = *take == "theirs";
  return std::nullopt;
}

} // namespace hashline::lsp
