// Position encodings of LSP 3.17 and the (line, character) position type.
//
// A `character` counts code units of the negotiated encoding within a line: UTF-8 bytes, UTF-16
// units (an astral code point is 2) or code points (UTF-32). Invalid UTF-8 bytes count as one
// code point / one UTF-16 unit each, as if each were U+FFFD, so every byte sequence is addressable.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hashline {

enum class PositionEncoding { Utf8, Utf16, Utf32 };

/// "utf-8", "utf-16", "utf-32".
std::string_view encodingName(PositionEncoding encoding);
std::optional<PositionEncoding> encodingFromName(std::string_view name);

/// A 0-based LSP position; `character` is in some PositionEncoding, never implied.
struct LspPosition {
  std::uint32_t line = 0;
  std::uint32_t character = 0;
  bool operator==(const LspPosition&) const = default;
};

} // namespace hashline
