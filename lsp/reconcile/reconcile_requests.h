// The typed params of the reconciliation methods, read by the one ParamsReader
// (lsp/protocol/params_reader.h) before any reconciler code runs:
//   conflicts {uri? | path?}                     the open conflicts (of one document)
//   resolve   {conflict, take: "theirs" | "ours"}
// A wrong type or an unknown `take` is an InvalidParams RpcError naming the field. Pure.
#pragma once

#include "lsp/rpc/rpc_error.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::lsp {

struct ConflictsRequest {
  std::optional<std::string> uri;
  std::optional<std::string> path; // absolute, or relative to the first workspace root
};

struct ResolveRequest {
  std::string conflict; // "c1"
  bool take_theirs = false;
};

std::optional<RpcError> parseConflictsRequest(const nlohmann::json& params, ConflictsRequest& out);
std::optional<RpcError> parseResolveRequest(const nlohmann::json& params, ResolveRequest& out);

} // namespace hashline::lsp
