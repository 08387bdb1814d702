// `hashline/snapshot {textDocument: {uri}}` → `{uri, version, lineCount, sha256}`.
//
// For tests and benchmarks: proves the mirror equals the editor's buffer. lineCount is LSP's
// (line breaks + 1: "a\n" is 2). sha256 is of the mirrored UTF-8 bytes exactly (lowercase hex),
// computed afresh on every call by streaming the rope's chunks — no cache, so a benchmark can
// subtract its cost. A document that is not open or is DESYNCED gets a JSON-RPC error -32803
// RequestFailed whose `data` is the hashline error object (error_json.h).
#pragma once

#include "engine/text/rope.h"

#include <string>

namespace hashline::lsp {

class LspServer;

void registerSnapshot(LspServer& server);

/// SHA-256 of the rope's bytes, lowercase hex.
std::string sha256OfRope(const Rope& text);

} // namespace hashline::lsp
