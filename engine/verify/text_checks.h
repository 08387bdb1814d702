// Text checks: is this text editable (DESIGN §2: no NUL byte, valid UTF-8)?
//
// Used by the verifier on replacement content, and offered to the disk path for whole files
// (O(n): call it when a file is loaded, not per keystroke). A BOM is valid UTF-8. Overlong forms,
// surrogates (U+D800–DFFF) and code points past U+10FFFF are invalid. Pure; thread-safe.
#pragma once

#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstddef>
#include <optional>
#include <string_view>

namespace hashline {

/// Byte offset of the first NUL or invalid UTF-8 sequence; nullopt when the text is clean.
std::optional<std::size_t> firstNonTextByte(std::string_view bytes);

/// NOT_TEXT (with the offending byte offset) when `text` holds a NUL or invalid UTF-8.
Status checkEditableText(const Rope& text);

} // namespace hashline
