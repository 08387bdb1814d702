// Line normalization for digests (DESIGN §3): what a line "is" for anchoring purposes.
//
// A line's digest must survive what formatters do — re-indenting, trimming trailing spaces,
// aligning with tabs — and nothing else. Normalization therefore: drops the line ending (callers
// pass line content without it; a stray CR is whitespace anyway), trims leading and trailing
// whitespace, and collapses every inner run of whitespace to one ASCII space.
//
// Whitespace here is exactly the ASCII set space, TAB, LF, VT, FF and CR (bytes 0x20, 0x09–0x0D).
// Non-ASCII spaces (NBSP, U+3000, ...) are content: they are rare in code, never produced by
// formatters, and treating them as bytes keeps normalization byte-level and encoding-agnostic
// (invalid UTF-8 is hashed as is). So "  let  x =\t1;  " and "let x = 1;" share a digest while
// "return x" and "returnx" do not.
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace hashline {

/// True for the bytes normalization treats as whitespace: ' ', '\t', '\n', '\v', '\f', '\r'.
constexpr bool isAnchorWhitespace(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

/// The normalized form of one line's content (see the file comment).
std::string normalizeLine(std::string_view line);

/// Appends the normalized form of `line` to `out` (no allocation when `out` has capacity).
void appendNormalizedLine(std::string_view line, std::string& out);

} // namespace hashline
