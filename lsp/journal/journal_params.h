// checkJournalParams: the one gate every journal method's params pass before anything runs
// (issue 14, defect 1). A field that is present must have its type and a valid value — a turn is a
// positive JSON integer (not 2.0, not "latest", not "1x"), dry_run a boolean, an op id an integer
// or an `OP` / `OP#K` string — else the call is refused as invalid params (-32602) naming the
// field, and nothing runs. A lenient read that treats a bad value as absent is how
// `rewind {"turn":"latest"}` once reverted a whole session.
#pragma once

#include "lsp/rpc/rpc_error.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::lsp {

/// nullopt when `params` of journal method `method` are well-typed; the refusal otherwise.
std::optional<RpcError> checkJournalParams(const std::string& method, const nlohmann::json& params);

} // namespace hashline::lsp
