// `hashline search PATTERN [PATH...]`: the workspace search (lsp/context/search_service.h) from
// the command line — routed like `read` (the editor's sidecar when one serves the workspace, so
// open buffers are searched with their unsaved text; else the disk in-process), printed as
// anchored rows grouped per file, or the result object with --json.
//
// Threading: blocking, the main thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline::cli {

int runSearchCommand(std::vector<std::string> args);

/// The human text of a search result: per file a header (path, version, tier, backend), then
/// its rows; a summary line and the note when the answer was cut.
std::string renderSearch(const nlohmann::json& result, const std::string& base_dir);

} // namespace hashline::cli
