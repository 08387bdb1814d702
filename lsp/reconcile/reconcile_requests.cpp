// Parsers of the reconciliation methods' params; see reconcile_requests.h.
#include "lsp/reconcile/reconcile_requests.h"

#include "lsp/protocol/params_reader.h"

#include <algorithm>

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

std::optional<RpcError> parseAttributeRequest(const nlohmann::json& params, AttributeRequest& out) {
  ParamsReader reader(params, "attribute");
  std::optional<std::int64_t> seconds;
  if (!reader.ok() || !reader.optString({"uri"}, out.uri) ||
      !reader.optString({"path"}, out.path) || !reader.string({"agent"}, out.agent, true) ||
      !reader.string({"session"}, out.session, false) ||
      !reader.integer({"seconds"}, seconds, false, 1))
    return reader.error;
  if (!out.uri && !out.path)
    return invalidParams("attribute", "params.path", "missing (the file's path or uri)");
  if (seconds) out.seconds = std::min<std::int64_t>(*seconds, 3600);
  return std::nullopt;
}

} // namespace hashline::lsp
