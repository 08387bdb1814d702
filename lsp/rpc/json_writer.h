// Compact JSON text of a nlohmann::json value, written for the reply path: every message the
// sidecar sends goes through it, and anchored reads send hundreds of rows per reply.
//
// Same output as `value.dump(-1, ' ', false, error_handler_t::replace)` (object keys in the
// value's order, `\uXXXX` escapes for control characters, invalid UTF-8 replaced by U+FFFD, one
// replacement per maximal invalid subsequence as nlohmann does), but copies runs of plain
// characters with one append instead of escaping byte by byte. Non-finite numbers are `null`;
// other floats take the shortest text that reads back exactly.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace hashline::lsp {

/// Appends the JSON text of `value` to `out`.
void appendJSON(std::string& out, const nlohmann::json& value);

} // namespace hashline::lsp
