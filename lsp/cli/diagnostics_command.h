// `hashline diagnostics [PATH] [--severity S]`: the editor's diagnostics (from its own language
// servers, unsaved text included; lsp/context/diagnostics_service.h) for one file or the whole
// workspace, as anchored rows — and the text an edit result's `diagnostics` renders as.
//
// Threading: blocking, the main thread.
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace hashline::cli {

int runDiagnosticsCommand(std::vector<std::string> args);

/// The human text of a `diagnostics` result: per file a header, then one row per diagnostic.
std::string renderDiagnosticsList(const nlohmann::json& result, const std::string& base_dir);

/// The lines an applied result's `diagnostics` object adds to its text (nothing when absent).
void appendEditDiagnostics(std::ostringstream& out, const nlohmann::json& result,
                           const std::string& indent);

} // namespace hashline::cli
