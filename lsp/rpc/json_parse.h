// Parsing a message body into a JSON DOM: a small strict RFC 8259 parser tuned for LSP bodies.
//
// Why not nlohmann's parser: a didOpen body is mostly one huge string (the file). nlohmann's
// lexer appends it byte by byte to a doubling token buffer (≈15 MB/s, two capacity steps alive
// at once) and then copies it into the DOM, so a 40 MB file peaked at ~4× its size and took
// seconds. Here each string's closing quote is found first, the decoded string is allocated
// once at its final size and decoded in bulk, which keeps the peak near body + text.
//
// Strict: UTF-8 is validated, escapes and surrogate pairs are checked, numbers follow the JSON
// grammar, trailing garbage is an error, and nesting is capped (kMaxJsonDepth) so hostile input
// cannot exhaust the stack. Errors name the byte offset.
//
// Threading: none; pure function.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hashline::lsp {

inline constexpr std::size_t kMaxJsonDepth = 256;

/// Parses `text` as one JSON value. On invalid JSON returns false and sets `error` to a
/// description with the byte offset.
bool parseJSON(std::string_view text, nlohmann::json& out, std::string& error);

} // namespace hashline::lsp
