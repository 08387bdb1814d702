// Checks on the text an agent asks the forms to write, and on pasted read-row prefixes.
//
// Consistent with the anchored ops (engine/verify): text that will be *written* (new, content,
// draft, ed text, patch `+` lines) is refused with NOT_TEXT when it holds a NUL byte or invalid
// UTF-8 (DESIGN §2), and with MALFORMED_ANCHOR when a line starts with a read-row prefix
// (`12:c3d:rst→text`, copied from a hashline read; hashline-peers §9.19) — a prefix is never
// written into a file. Text that is only *searched for* (old, head, tail) has its prefixes
// removed when every non-empty line carries one (`stripReadPrefixes`). Pure; thread-safe.
#pragma once

#include "engine/support/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace hashline::forms {

/// NOT_TEXT (NUL or invalid UTF-8, with the byte offset), then MALFORMED_ANCHOR (a line starting
/// with a read prefix, with the line); `what` names the text in messages ("new text").
Status checkWrittenText(std::string_view text, std::string_view what);

/// `text` without its prefixes when every non-empty line has one; nullopt otherwise.
std::optional<std::string> stripReadPrefixes(std::string_view text);

} // namespace hashline::forms
