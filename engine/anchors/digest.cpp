// XXH3 line/block/chain hashes and the 3-character digest alphabet; see digest.h.
#include "engine/anchors/digest.h"

#include "engine/anchors/normalize.h"

#include <xxhash.h>

namespace hashline {
namespace {

void storeLittleEndian(std::uint64_t value, unsigned char* out) {
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<unsigned char>(value >> (8 * i));
}

int alphabetIndex(char c) {
  if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  const auto pos = kDigestAlphabet.find(c);
  return pos == std::string_view::npos ? -1 : static_cast<int>(pos);
}

} // namespace

std::uint64_t lineHash(std::string_view line_content) {
  thread_local std::string normalized;
  normalized.clear();
  appendNormalizedLine(line_content, normalized);
  return XXH3_64bits(normalized.data(), normalized.size());
}

std::uint64_t combineLineHashes(std::span<const std::uint64_t> line_hashes) {
  unsigned char buffer[8 * 64];
  if (line_hashes.size() <= 64) {
    for (std::size_t i = 0; i < line_hashes.size(); ++i)
      storeLittleEndian(line_hashes[i], buffer + 8 * i);
    return XXH3_64bits(buffer, 8 * line_hashes.size());
  }
  ChainHasher hasher;
  for (std::uint64_t h : line_hashes)
    hasher.feed(h);
  return hasher.digest();
}

std::string digestText(std::uint16_t digest_value) {
  std::string out(3, '0');
  for (int i = 0; i < 3; ++i)
    out[i] = kDigestAlphabet[(digest_value >> (5 * i)) & 31];
  return out;
}

int parseDigestText(std::string_view text) {
  if (text.size() != 3) return -1;
  int value = 0;
  for (int i = 0; i < 3; ++i) {
    const int index = alphabetIndex(text[i]);
    if (index < 0) return -1;
    value |= index << (5 * i);
  }
  return value;
}

ChainHasher::ChainHasher() : state_(XXH3_createState()) {
  reset();
}
ChainHasher::~ChainHasher() {
  XXH3_freeState(static_cast<XXH3_state_t*>(state_));
}

void ChainHasher::reset() {
  XXH3_64bits_reset(static_cast<XXH3_state_t*>(state_));
}

void ChainHasher::feed(std::uint64_t line_hash) {
  unsigned char bytes[8];
  storeLittleEndian(line_hash, bytes);
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), bytes, sizeof bytes);
}

std::uint64_t ChainHasher::digest() const {
  return XXH3_64bits_digest(static_cast<const XXH3_state_t*>(state_));
}

} // namespace hashline
