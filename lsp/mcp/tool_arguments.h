// Checks a tools/call's arguments against the tool's input schema before the call runs: a member
// the schema does not name (top level, or inside an `edits` item) is refused, so a misspelt
// option (`dryrun`, `dry-run`) never lets an edit apply that was meant as a preview. Types and
// values are checked afterwards by the one typed reader (lsp/protocol/params_reader.h), the same
// for every front end. Null members are ignored (some clients send every optional one).
// Pure; no I/O.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::mcp {

/// "params.dryrun: unknown argument (hashline_edit takes path, edits, dry_run, confirm)", or
/// nullopt when every member is known. `schema` is the tool's inputSchema.
std::optional<std::string> unknownArgument(const std::string& tool, const nlohmann::json& schema,
                                           const nlohmann::json& arguments);

} // namespace hashline::mcp
