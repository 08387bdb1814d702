// Scanning inside one rope chunk: UTF-8 decoding, metrics, and in-chunk conversions.
//
// Internal to the Rope (rope.cpp, rope_tree.cpp). A chunk is a self-contained piece of the text:
// the Rope never lets a chunk boundary fall inside a valid UTF-8 sequence or between the CR and
// LF of a CRLF, so decoding a chunk on its own gives the same code points and line breaks as
// decoding the whole document, and a CR at a chunk's end is always a lone CR. Invalid bytes
// decode as one code point / one UTF-16 unit each. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hashline::rope_detail {

/// The cached measures of a piece of text. Additive: the metrics of a concatenation of chunks
/// are the sums of theirs (chunk boundaries never split a CRLF or a code point).
struct Metrics {
  std::size_t bytes = 0;
  std::size_t breaks = 0; // LF, CRLF (once), lone CR
  std::size_t utf16 = 0;  // UTF-16 code units
  std::size_t code_points = 0;

  Metrics& operator-=(const Metrics& other) {
    bytes -= other.bytes;
    breaks -= other.breaks;
    utf16 -= other.utf16;
    code_points -= other.code_points;
    return *this;
  }
  Metrics& operator+=(const Metrics& other) {
    bytes += other.bytes;
    breaks += other.breaks;
    utf16 += other.utf16;
    code_points += other.code_points;
    return *this;
  }
  bool operator==(const Metrics&) const = default;
};

/// A unit that positions count in (besides bytes).
enum class Unit { Utf16, CodePoint };

inline std::size_t unitsOf(const Metrics& metrics, Unit unit) {
  return unit == Unit::Utf16 ? metrics.utf16 : metrics.code_points;
}

/// One decoded code point: its length in bytes (1 for an invalid byte) and UTF-16 units.
struct Decoded {
  std::uint8_t bytes;
  std::uint8_t utf16;
};

inline bool isContinuationByte(unsigned char byte) {
  return (byte & 0xC0) == 0x80;
}

/// Decodes a non-ASCII code point starting at `at`; see decodeAt.
Decoded decodeMultiByte(std::string_view text, std::size_t at);

/// Decodes the code point starting at `at` (< text.size()) per Unicode's well-formed table;
/// anything else (truncated, overlong, surrogate, > U+10FFFF, stray continuation) is one byte.
inline Decoded decodeAt(std::string_view text, std::size_t at) {
  if (static_cast<unsigned char>(text[at]) < 0x80) return {1, 1};
  return decodeMultiByte(text, at);
}

Metrics measure(std::string_view chunk);
/// The metrics of `after`, which equals `before` (whose metrics are `before_metrics`) except that
/// before[begin, before_end) became after[begin, after_end): only a window around the edit is
/// measured again, widened to bytes whose meaning cannot depend on their neighbours.
Metrics remeasure(std::string_view before, const Metrics& before_metrics, std::string_view after,
                  std::size_t begin, std::size_t before_end, std::size_t after_end);

/// Whether a chunk boundary at `at` (0 < at < text.size()) would split a CRLF or a valid UTF-8
/// sequence of `text`.
bool splitsUnit(std::string_view text, std::size_t at);
/// The largest offset <= `at` (0 < at < text.size()) that splits neither a CRLF nor a valid
/// UTF-8 sequence (at most 3 bytes before `at`).
std::size_t safeSplitAtOrBefore(std::string_view text, std::size_t at);
/// Whether putting `left` directly before `right` (both non-empty) would form a CRLF or a valid
/// UTF-8 sequence across the seam — i.e. whether they cannot stay separate chunks.
bool seamJoins(std::string_view left, std::string_view right);

/// Whether `at` (<= chunk.size()) is on a code point boundary of the chunk.
bool isCodePointBoundary(std::string_view chunk, std::size_t at);

/// The first CR or LF of `chunk` at or after `from`, or npos.
std::size_t findBreakByte(std::string_view chunk, std::size_t from);

/// Line breaks of `chunk` whose terminator ends at or before byte `at`.
std::size_t breaksBefore(std::string_view chunk, std::size_t at);
/// The `ordinal`-th (1-based, <= measure(chunk).breaks) line break: [start, end) of its terminator.
struct BreakSpan {
  std::size_t start;
  std::size_t end;
};
BreakSpan nthBreak(std::string_view chunk, std::size_t ordinal);

/// Units of the code points of `chunk` that start before byte `at`.
std::size_t unitsBefore(std::string_view chunk, std::size_t at, Unit unit);
/// The byte where unit `units` (<= total units of chunk) of `chunk` starts; `inside` is set when it
/// falls in the middle of a code point (the second half of a surrogate pair).
struct UnitHit {
  std::size_t byte;
  bool inside;
};
UnitHit byteOfUnits(std::string_view chunk, std::size_t units, Unit unit);

} // namespace hashline::rope_detail
