// hashline::Error <-> JSON, the one wire shape of a refusal (DESIGN §9).
//
//   {"code": "STALE_ANCHOR", "message": "...", "hint": "...",
//    "data": {"currentText": "...", "freshAnchors": [{"line": 13, "anchor": "13:c3d:rst",
//             "text": "..."}], "candidateLines": [13, 40], "suggestion": "13:c3d:rst",
//             "editIndex": 1, "editCount": 3, "path": "/w/a.cpp", "notes": ["..."]}}
//
// ErrorData's snake_case fields become camelCase (LSP's convention); empty fields are omitted
// and `data` is always an object. Over LSP commands and the agent socket a refused edit is the
// normal result `{"status": "refused", "error": <this>}` (`refusalToJSON`); the same object is
// the `data` of a JSON-RPC error where a request cannot return a result (hashline/snapshot).
#pragma once

#include "engine/support/error.h"
#include "lsp/protocol/json_path.h"

#include <nlohmann/json.hpp>

namespace hashline::lsp {

nlohmann::json toJSON(const Error& error);
/// `{"status": "refused", "error": toJSON(error)}`.
nlohmann::json refusalToJSON(const Error& error);
/// The inverse of toJSON (for the CLI and tests); an unknown code name is an error at `code`.
bool fromJSON(const nlohmann::json& value, Error& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, ErrorData& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, AnchoredRow& out, JsonPath path);

} // namespace hashline::lsp
