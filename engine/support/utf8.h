// UTF-8: the one decoder and the one encoder of the tree. The decoder is strict (Unicode 15
// §3.9, Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF, no truncated or
// stray continuation bytes) and is what the rope's metrics, the NOT_TEXT checks, the fold
// ladder and the JSON reader and writer all call; callers differ only in what they do with an
// ill-formed sequence. The encoder is shared by the JSON reader (lsp/rpc) and the fold ladder
// (engine/forms). Pure, header-only (the rope and the JSON paths call it per character).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hashline {

/// One decoded sequence: a code point and its length, or an ill-formed prefix.
struct Utf8Sequence {
  char32_t code_point = 0; // meaningful when well-formed
  std::uint8_t length = 0; // bytes of the well-formed sequence (1–4); 0 when ill-formed
  /// When ill-formed: the bytes of its maximal subpart (1–3), the run one U+FFFD replaces under
  /// Unicode's "substitution of maximal subparts" (what nlohmann and browsers do).
  std::uint8_t ill_formed = 0;
  bool valid() const { return length != 0; }
};

/// Decodes the sequence starting at `text[at]` (at < text.size()).
inline Utf8Sequence decodeUtf8Sequence(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return {lead, 1, 0};
  std::uint8_t length = 0;
  char32_t cp = 0;
  unsigned char low = 0x80, high = 0xBF; // the second byte's range; later ones are 80..BF
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
    if (lead == 0xE0) low = 0xA0;  // overlong below U+0800
    if (lead == 0xED) high = 0x9F; // surrogates U+D800..U+DFFF
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
    if (lead == 0xF0) low = 0x90;  // overlong below U+10000
    if (lead == 0xF4) high = 0x8F; // above U+10FFFF
  } else {
    return {0, 0, 1}; // a continuation byte, C0/C1 (always overlong) or F5..FF
  }
  for (std::uint8_t k = 1; k < length; ++k) {
    if (at + k >= text.size()) return {0, 0, k}; // truncated
    const unsigned char next = byte(at + k);
    if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) return {0, 0, k};
    cp = (cp << 6) | (next & 0x3F);
  }
  return {cp, length, 0};
}

/// Appends `cp` (<= 0x10FFFF) to `out` as 1–4 UTF-8 bytes.
inline void appendUtf8CodePoint(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

} // namespace hashline
