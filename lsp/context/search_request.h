// The typed params of the `search` method (one shape for the CLI, the agent socket, LSP and MCP):
//   {pattern, literal?, ignore_case?, paths?: [PATH...] | path?, globs?: [G...] | glob?,
//    max_hits?, max_bytes?, tier?, session?, agent?, turn?}
// `paths` are files or directories, absolute or relative to the first workspace root (default:
// every root); `globs` are rg-style (`*.cpp`, `src/**`, `!*.min.js`), matched against the path
// relative to its root. `max_hits` (default 200, at most 100000) and `max_bytes` (of the rows'
// text and anchors, default 1 MiB, at least 1 KiB, at most 64 MiB) cap the answer. A wrong type
// or range is an InvalidParams RpcError naming the member. Pure; no I/O.
#pragma once

#include "engine/anchors/anchor.h"
#include "lsp/rpc/rpc_error.h"
#include "lsp/service/service_request.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::context {

inline constexpr std::size_t kDefaultMaxHits = 200;
inline constexpr std::size_t kDefaultMaxBytes = std::size_t(1) << 20;

struct SearchRequest {
  std::string pattern;
  bool literal = false;
  bool ignore_case = false;
  std::vector<std::string> paths;
  std::vector<std::string> globs;
  std::size_t max_hits = kDefaultMaxHits;
  std::size_t max_bytes = kDefaultMaxBytes;
  std::optional<Tier> tier;
  lsp::CallerIdentity caller;
};

std::optional<lsp::RpcError> parseSearchRequest(const nlohmann::json& params, SearchRequest& out);

} // namespace hashline::context
