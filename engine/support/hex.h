// Hexadecimal text of bytes and numbers: the one hex encoder (digests, content hashes, temp
// names, `\u00XX` and `\xNN` escapes, URI percent-encoding). Pure, header-only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hashline {

enum class HexCase { Lower, Upper };

/// Appends the two hex digits of `byte` (lowercase unless asked).
inline void appendHexByte(std::string& out, unsigned char byte, HexCase letters = HexCase::Lower) {
  const char* digits = letters == HexCase::Lower ? "0123456789abcdef" : "0123456789ABCDEF";
  out.push_back(digits[byte >> 4]);
  out.push_back(digits[byte & 0xF]);
}

/// The lowercase hex of every byte of `bytes`, in order.
inline std::string hexOfBytes(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes)
    appendHexByte(out, static_cast<unsigned char>(c));
  return out;
}

/// Appends `value` as exactly 16 lowercase hex digits, most significant first.
inline void appendHex64(std::string& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8)
    appendHexByte(out, static_cast<unsigned char>(value >> shift));
}

inline std::string hex64(std::uint64_t value) {
  std::string out;
  out.reserve(16);
  appendHex64(out, value);
  return out;
}

} // namespace hashline
