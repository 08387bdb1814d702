// Digests behind anchors (DESIGN §3): 64-bit line hashes, block and chain context hashes, and
// their 3-character printed form.
//
// - lineHash: XXH3-64 (seed 0) of the normalized line (normalize.h).
// - blockHash: XXH3-64 over the 64-bit line hashes of one aligned 8-line block (lines 1–8, 9–16,
//   …; the last block of a text may be shorter), each hash fed as 8 little-endian bytes.
// - chainHash: XXH3-64 over the line hashes from the line's 32-line checkpoint (lines 1, 33, 65,
//   …) up to and including the line, fed the same way — so a chain hash is the block hash of a
//   variable-length run, and ChainHasher computes a whole segment in one streaming pass.
// - digest: the low 15 bits of a hash as 3 characters of `0123456789abcdefghjkmnpqrstvwxyz`,
//   5 bits each, lowest bits first (character 0 = bits 0–4).
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace hashline {

inline constexpr std::string_view kDigestAlphabet = "0123456789abcdefghjkmnpqrstvwxyz";
inline constexpr std::uint32_t kBlockLines = 8;
inline constexpr std::uint32_t kChainLines = 32;

/// XXH3-64 of the normalized form of `line_content` (no line ending; BOM already removed).
std::uint64_t lineHash(std::string_view line_content);

/// XXH3-64 over `line_hashes` as consecutive 8-byte little-endian words.
std::uint64_t combineLineHashes(std::span<const std::uint64_t> line_hashes);

/// The 15-bit digest value of a 64-bit hash (what the 3 characters encode).
constexpr std::uint16_t digestValue(std::uint64_t hash) {
  return static_cast<std::uint16_t>(hash & 0x7fff);
}
/// 3 characters for a 15-bit digest value, low bits first.
std::string digestText(std::uint16_t digest_value);
/// Inverse of digestText; -1 if `text` is not 3 alphabet characters (upper case is accepted).
int parseDigestText(std::string_view text);

/// First line (1-based) of the aligned 8-line block holding `line`.
constexpr std::uint32_t blockFirstLine(std::uint32_t line) {
  return (line - 1) / kBlockLines * kBlockLines + 1;
}
/// First line (1-based) of the 32-line chain segment holding `line`.
constexpr std::uint32_t chainFirstLine(std::uint32_t line) {
  return (line - 1) / kChainLines * kChainLines + 1;
}

/// Streaming chain hash over one segment: feed line hashes in order from the segment's first
/// line; `digest()` after each feed is that line's chain hash.
class ChainHasher {
public:
  ChainHasher();
  ~ChainHasher();
  ChainHasher(const ChainHasher&) = delete;
  ChainHasher& operator=(const ChainHasher&) = delete;

  void reset();
  void feed(std::uint64_t line_hash);
  std::uint64_t digest() const;

private:
  void* state_; // XXH3_state_t, kept opaque so xxhash.h stays out of this header
};

} // namespace hashline
