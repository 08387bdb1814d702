// Text folding for the edit forms' matching ladders, with a map back to the original bytes.
//
// The text forms (old/new, head/tail, draft, apply_patch) match an agent's text against the
// document after progressively looser normalization; whatever matches must then be mapped back to
// the document's own bytes so that nothing outside the match changes. This file provides:
//  - UTF-8 decoding that never fails (an invalid byte is one unit, kept as is),
//  - Unicode White_Space and the compatibility fold (a documented NFKC subset, see docs/forms.md),
//  - `foldText`: the normalized copy of a text at one of three levels (line endings only;
//    + trailing whitespace per line; + compatibility and typographic folding), and
//    `mapToOriginal`, which maps ranges of that copy back to original byte ranges in one pass
//    (no per-byte map is kept, so a large document costs O(n) time and one copy of memory).
// Pure functions, no I/O; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::forms {

/// Decodes one code point at `byte` and advances `byte`. Invalid or truncated sequences yield
/// one byte each, returned as 0xDC00 + byte (a lone surrogate, never produced by valid UTF-8).
char32_t decodeUtf8(std::string_view text, std::size_t& byte);
void appendUtf8(std::string& out, char32_t code_point);

/// Unicode White_Space (what Rust's `trim` strips), including CR, LF, NBSP and U+3000.
bool isUnicodeSpace(char32_t code_point);

/// The compatibility + typographic fold of one code point, as UTF-8; empty when it folds to
/// itself. Never produces a line break.
std::string_view foldCodePoint(char32_t code_point);

/// Folds a whole string (compatibility + typographic), no map.
std::string foldString(std::string_view text);
/// Trims Unicode whitespace at both ends / at the end.
std::string_view trimUnicode(std::string_view text);
std::string_view trimEndUnicode(std::string_view text);

enum class FoldLevel {
  LineEndings,        // CRLF and lone CR read as LF; everything else byte-exact
  TrailingWhitespace, // + whitespace before each line break (and at the end) dropped
  Compatibility,      // + NFKC subset, typographic quotes/dashes/spaces/ellipsis folded
};

/// The normalized form of `original[skip_prefix_bytes..]` (skip a BOM by passing 3) at `level`.
/// O(n); no map is kept (see mapToOriginal), so folding a large document stays cheap.
std::string foldText(std::string_view original, FoldLevel level, std::size_t skip_prefix_bytes = 0);

/// A byte range [begin, end).
struct ByteRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// Maps ranges of `foldText(original, level, skip)` back to the original bytes, in one pass.
/// A range that starts or ends inside the output of one original character (say `e` inside the
/// decomposition of `é`) maps to nullopt. Ranges must be non-empty; any order.
std::vector<std::optional<ByteRange>> mapToOriginal(std::string_view original, FoldLevel level,
                                                    std::size_t skip_prefix_bytes,
                                                    const std::vector<ByteRange>& normalized);

/// Key used to compare whole lines loosely: trimmed and folded.
std::string looseLineKey(std::string_view line);

} // namespace hashline::forms
