// Anchors and read rows as text (DESIGN §3): `22:c3d:rst`, `22:c3d`, `22:c3d:rst→text`.
//
// An Anchor is a 1-based line number, the 15-bit digest of that line, and — for the `block` and
// `chain` tiers — the 15-bit digest of its context (aligned 8-line block, or the chain from the
// 32-line checkpoint). The tier is not written in the anchor: a 3-part anchor is block or chain
// depending on the read that issued it (verify/ looks that up).
//
// Parsing is strict about shape and lenient about decoration: surrounding whitespace is ignored,
// a pasted row suffix (`→text` or `->text`) is cut off, and digest letters may be upper case.
// Everything else is MALFORMED_ANCHOR with a message saying what is wrong: a missing or zero
// line number (`abc:def` is refused, never guessed), digests that are not 3 alphabet characters,
// extra parts.
//
// Pure functions; thread-safe.
#pragma once

#include "engine/support/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hashline {

/// How much context an anchor pins (chosen per session; default block).
enum class Tier : std::uint8_t { Line = 0, Block = 1, Chain = 2 };

/// "line", "block", "chain".
std::string_view tierName(Tier tier);
std::optional<Tier> tierFromName(std::string_view name);

struct Anchor {
  std::uint32_t line = 0;                      // 1-based
  std::uint16_t line_digest = 0;               // 15 bits
  std::optional<std::uint16_t> context_digest; // 15 bits; absent for the line tier

  bool operator==(const Anchor&) const = default;
};

/// "22:c3d:rst" or "22:c3d".
std::string formatAnchor(const Anchor& anchor);
/// Parses an anchor (see the file comment for what is accepted).
Result<Anchor> parseAnchor(std::string_view text);

/// The row separator, U+2192 RIGHTWARDS ARROW in UTF-8.
inline constexpr std::string_view kRowSeparator = "\xE2\x86\x92";

/// "22:c3d:rst→text".
std::string formatRow(const Anchor& anchor, std::string_view text);

struct ParsedRow {
  Anchor anchor;
  std::string text;
};
/// Parses one read row; MALFORMED_ANCHOR if the prefix is not an anchor followed by `→`.
Result<ParsedRow> parseRow(std::string_view row);

/// True when `line` starts with a read-row prefix (`12:abc→` or `12:abc:rst→`): used to refuse
/// replacement text that still carries prefixes pasted from a read.
bool startsWithRowPrefix(std::string_view line);

} // namespace hashline
