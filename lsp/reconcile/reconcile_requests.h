// The typed params of the reconciliation methods, read by the one ParamsReader
// (lsp/protocol/params_reader.h) before any reconciler code runs:
//   conflicts {uri? | path?}                     the open conflicts (of one document)
//   resolve   {conflict, take: "theirs" | "ours"}
//   attribute {uri? | path?, agent, session?, seconds?}   who writes this file's disk next
// A wrong type or an unknown `take` is an InvalidParams RpcError naming the field. Pure.
#pragma once

#include "lsp/rpc/rpc_error.h"

#include <cstdint>
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

/// The next foreign writes of a file, for `seconds` (default 120), are this agent's: the ACP
/// proxy saw its tool call name the path (lsp/acp), so the merge is journaled under its name.
struct AttributeRequest {
  std::optional<std::string> uri;
  std::optional<std::string> path;
  std::string agent;
  std::string session = "disk";
  std::int64_t seconds = 120;
};

std::optional<RpcError> parseConflictsRequest(const nlohmann::json& params, ConflictsRequest& out);
std::optional<RpcError> parseResolveRequest(const nlohmann::json& params, ResolveRequest& out);
std::optional<RpcError> parseAttributeRequest(const nlohmann::json& params, AttributeRequest& out);

} // namespace hashline::lsp
