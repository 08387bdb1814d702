// Read-row prefixes pasted into an edit (`12:c3d:rst→text`, DESIGN §3; hashline-peers §9.19).
//
// Agents copy rows from a hashline read, prefixes included. Pinned behaviour for the text forms,
// consistent with the anchored ops (engine/verify): text that will be *written* (new, content,
// draft, ed text, patch `+` lines) is refused with MALFORMED_ANCHOR when a line starts with a
// prefix — a prefix is never written into a file; text that is only *searched for* (old, head,
// tail) has its prefixes removed when every non-empty line carries one, with a warning. Pure.
#pragma once

#include "engine/support/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace hashline::forms {

/// MALFORMED_ANCHOR naming `what` ("new text") and the line, when a line starts with a prefix.
Status refuseReadPrefixes(std::string_view text, std::string_view what);

/// `text` without its prefixes when every non-empty line has one; nullopt otherwise.
std::optional<std::string> stripReadPrefixes(std::string_view text);

} // namespace hashline::forms
