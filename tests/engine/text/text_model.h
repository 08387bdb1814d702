// A deliberately naive model of the text rules, for checking the Rope: a std::string scanned
// from the start for every question. Written independently of engine/text/rope_chunk.cpp
// (decodes code point values and checks the ranges, instead of table-driven lead bytes).
#pragma once

#include "engine/text/encoding.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hashline::testing_model {

/// Length of the code point at `at`: a well-formed sequence, else 1 (invalid byte).
inline std::size_t codePointLength(const std::string& text, std::size_t at) {
  auto byte = [&](std::size_t i) -> unsigned { return static_cast<unsigned char>(text[i]); };
  unsigned lead = byte(at);
  std::size_t length;
  std::uint32_t value;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    value = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    value = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    value = lead & 0x07;
  } else {
    return 1;
  }
  if (at + length > text.size()) return 1;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 1;
    value = (value << 6) | (byte(at + i) & 0x3F);
  }
  static const std::uint32_t kMinimum[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (value < kMinimum[length] || value > 0x10FFFF) return 1;
  if (value >= 0xD800 && value <= 0xDFFF) return 1;
  return length;
}

struct Model {
  std::string text;
  std::vector<std::size_t> starts;     // code point starts, plus text.size()
  std::vector<std::size_t> break_ends; // end offset of each line break's terminator
  std::vector<std::size_t> break_begins;

  explicit Model(std::string t) : text(std::move(t)) { analyze(); }

  void analyze() {
    starts.clear();
    break_ends.clear();
    break_begins.clear();
    for (std::size_t i = 0; i < text.size(); i += codePointLength(text, i))
      starts.push_back(i);
    starts.push_back(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') {
        break_begins.push_back(i);
        break_ends.push_back(i + 1);
      } else if (text[i] == '\r') {
        break_begins.push_back(i);
        if (i + 1 < text.size() && text[i + 1] == '\n') {
          break_ends.push_back(i + 2);
          ++i;
        } else {
          break_ends.push_back(i + 1);
        }
      }
    }
  }

  std::size_t lineCount() const { return break_ends.size() + 1; }
  std::size_t lineStart(std::size_t line) const { return line == 0 ? 0 : break_ends[line - 1]; }
  std::size_t lineEnd(std::size_t line) const {
    return line < break_begins.size() ? break_begins[line] : text.size();
  }
  std::size_t lineEndWithBreak(std::size_t line) const {
    return line < break_ends.size() ? break_ends[line] : text.size();
  }
  std::size_t lineOfByte(std::size_t byte) const {
    return std::upper_bound(break_ends.begin(), break_ends.end(), byte) - break_ends.begin();
  }
  bool isBoundary(std::size_t byte) const {
    return std::binary_search(starts.begin(), starts.end(), byte);
  }
  std::size_t width(std::size_t at, PositionEncoding encoding) const {
    std::size_t length = codePointLength(text, at);
    if (encoding == PositionEncoding::Utf8) return length;
    if (encoding == PositionEncoding::Utf16) return length == 4 ? 2 : 1;
    return 1;
  }
  /// Units from `from` to `to` (both boundaries), walking code points.
  std::size_t units(std::size_t from, std::size_t to, PositionEncoding encoding) const {
    std::size_t count = 0;
    for (std::size_t i = from; i < to; i += codePointLength(text, i))
      count += width(i, encoding);
    return count;
  }
  LspPosition positionOf(std::size_t byte, PositionEncoding encoding) const {
    std::size_t line = lineOfByte(byte);
    std::size_t start = lineStart(line);
    std::size_t character =
        encoding == PositionEncoding::Utf8 ? byte - start : units(start, byte, encoding);
    return {static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(character)};
  }
  /// nullopt where the Rope must report a desync.
  std::optional<std::size_t> byteOf(LspPosition position, PositionEncoding encoding) const {
    if (position.line >= lineCount()) return std::nullopt;
    std::size_t at = lineStart(position.line);
    std::size_t end = lineEnd(position.line);
    if (encoding == PositionEncoding::Utf8) {
      std::size_t byte = std::min<std::size_t>(at + position.character, end);
      if (!isBoundary(byte)) return std::nullopt;
      return byte;
    }
    std::size_t seen = 0;
    while (at < end && seen < position.character) {
      seen += width(at, encoding);
      at += codePointLength(text, at);
    }
    if (seen > position.character) return std::nullopt; // stepped over half a surrogate pair
    return at;
  }
};

} // namespace hashline::testing_model
