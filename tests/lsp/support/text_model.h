// TextModel: a deliberately naive reference for what an LSP client's buffer holds.
//
// A flat UTF-8 string with O(n) scans for (line, character) ↔ byte conversions in utf-8,
// utf-16 and utf-32, written independently of engine/text so process tests can check the
// server's mirror against it. Line breaks: LF, CRLF (one break), lone CR. Invalid UTF-8 bytes
// count as one unit each (as the server does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hashline::test {

enum class Units { Utf8, Utf16, Utf32 };

/// "utf-8" / "utf-16" / "utf-32".
const char* unitsName(Units units);

struct TextModel {
  std::string text;

  std::size_t lineCount() const; // LSP: breaks + 1
  std::size_t lineStartByte(std::size_t line) const;
  std::size_t lineEndByte(std::size_t line) const; // before the terminator
  /// LSP position → byte (a character past the line end clamps to the line end).
  std::size_t byteOf(std::uint32_t line, std::uint32_t character, Units units) const;
  /// Byte (on a code point boundary, not inside CRLF) → {line, character}.
  std::pair<std::uint32_t, std::uint32_t> positionOf(std::size_t byte, Units units) const;
  /// Applies a range change given as byte offsets.
  void replace(std::size_t begin, std::size_t end, std::string_view replacement);
  /// A didChange content change for replacing bytes [begin, end) with `replacement`.
  nlohmann::json rangeChange(std::size_t begin, std::size_t end, std::string_view replacement,
                             Units units) const;
};

/// Length in bytes of the UTF-8 sequence starting with `lead` (1 for invalid bytes).
std::size_t utf8SequenceLength(std::string_view text, std::size_t at);

} // namespace hashline::test
