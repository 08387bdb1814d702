// Human-readable rendering of the agent service's result objects (DESIGN §8, §9), for the CLI's
// default output and the text content of MCP tool results. Pure functions of the JSON.
//
//   read     a header line `# PATH  version V  tier T  lines A-B of N`, then the rows
//            `LINE:LLL:BBB→text` exactly as an agent copies anchors from them;
//   applied  `applied METHOD to PATH: version A → B (backend)`, rebased lines, warnings, the fresh
//            anchors of the changed region, then the diff;
//   preview  the same with "preview (nothing written)";
//   refused  `CODE: message`, `hint: …`, the suggestion and the fresh anchors around the failure
//            (the code comes first so scripts and models can branch on it);
//   status   mode, roots, open documents;
//   warning  a result's `warning` (SIDECAR_GONE) as `warning: CODE: message` + hint, apart (the
//            CLI prints it on stderr, MCP first in the text).
// Threading: none.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace hashline::cli {

/// The text for a result of `method` (a refusal too). Paths below `base_dir` (e.g. the current
/// directory) are shown relative to it.
std::string renderResult(const std::string& method, const nlohmann::json& result,
                         const std::string& base_dir = "");
/// The text for a refusal `{status:"refused", error:{code, message, hint, data}}`.
std::string renderRefusal(const nlohmann::json& result);
/// `warning: CODE: message` and `hint: …` for a result's `warning` object (SIDECAR_GONE: answered
/// from the disk); empty when it has none.
std::string renderWarning(const nlohmann::json& result);
/// True when `result` is a refusal.
bool isRefusal(const nlohmann::json& result);

} // namespace hashline::cli
