// `hashline context`: what the user has selected and sees in the editor (lsp/context/
// context_service.h) — the focused file and its selection as anchored rows, the visible files
// with their line spans — so "fix this" can name what the user selected.
//
// Threading: blocking, the main thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline::cli {

int runContextCommand(std::vector<std::string> args);

/// The human text of a `context` result.
std::string renderContext(const nlohmann::json& result, const std::string& base_dir);

} // namespace hashline::cli
