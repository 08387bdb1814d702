// The read-line view of a text: how agents number and see lines (DESIGN §3).
//
// Read lines are 1-based and differ from LSP lines in two ways:
// - no phantom last line: "a\n" reads as 1 line (LSP: 2); an empty text reads as one empty line 1;
// - a UTF-8 BOM at offset 0 is not part of line 1: not shown, not hashed, and edits of line 1
//   never remove it (the file keeps its bytes; only `write` content decides).
// Everything here is O(log n) per call on the Rope. Used by the reader, the verifier and the
// plan builder; thread-safe (the Rope is immutable).
#pragma once

#include "engine/text/rope.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hashline {

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

/// Number of read lines (>= 1).
std::uint32_t readLineCount(const Rope& text);
/// 3 when the text starts with a UTF-8 BOM, else 0.
std::size_t bomBytes(const Rope& text);
/// True when the text ends with a line break (its last read line has a terminator).
bool endsWithLineBreak(const Rope& text);
/// True for an empty text, or a text holding only a BOM.
bool isEmptyText(const Rope& text);

/// Byte where read line `line`'s shown content starts (after the BOM for line 1).
std::size_t lineContentBegin(const Rope& text, std::uint32_t line);
/// Byte where `line`'s content ends (before its terminator).
std::size_t lineContentEnd(const Rope& text, std::uint32_t line);
/// Byte just past `line`'s terminator.
std::size_t lineBreakEnd(const Rope& text, std::uint32_t line);
/// The line as shown and hashed: no terminator, no BOM.
std::string readLineText(const Rope& text, std::uint32_t line);
/// Lines [first, last] as views into one slice of the Rope (no allocation per line).
struct LineSlices {
  std::string bytes;                                       // lines `first`..`last`, as in the text
  std::vector<std::pair<std::size_t, std::size_t>> bounds; // [begin, end) of each line's content
  std::size_t size() const { return bounds.size(); }
  std::string_view line(std::size_t i) const {
    return std::string_view(bytes).substr(bounds[i].first, bounds[i].second - bounds[i].first);
  }
};
/// The texts of lines [first, last] (as readLineText), with one slice of the Rope: O(log n +
/// bytes). Precondition: 1 <= first <= last <= readLineCount(text).
LineSlices readLineSlices(const Rope& text, std::uint32_t first, std::uint32_t last);
/// As readLineSlices, one string per line.
std::vector<std::string> readLineTexts(const Rope& text, std::uint32_t first, std::uint32_t last);
/// `line`'s terminator: "\n", "\r\n", "\r", or "" for a last line without one.
std::string lineTerminator(const Rope& text, std::uint32_t line);
/// The line ending to use for new lines written next to `line`: its own terminator, else the
/// previous line's, else "\n" (a text without any line break).
std::string lineEndingNear(const Rope& text, std::uint32_t line);

} // namespace hashline
