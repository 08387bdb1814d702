// Chunked common prefix / suffix; see chunk_compare.h.
#include "engine/text/chunk_compare.h"

#include <algorithm>
#include <cstring>

namespace hashline {

namespace {

/// Blocks compared with memcmp (vectorized) before the byte that differs is looked for.
constexpr std::size_t kBlock = 256;

/// How many bytes `a` and `b` (each `n` long) share at their start.
std::size_t equalHead(const char* a, const char* b, std::size_t n) {
  std::size_t at = 0;
  while (at + kBlock <= n && std::memcmp(a + at, b + at, kBlock) == 0)
    at += kBlock;
  while (at < n && a[at] == b[at])
    ++at;
  return at;
}

/// How many bytes `a` and `b` (each `n` long) share at their end.
std::size_t equalTail(const char* a, const char* b, std::size_t n) {
  std::size_t matched = 0;
  while (matched + kBlock <= n &&
         std::memcmp(a + n - matched - kBlock, b + n - matched - kBlock, kBlock) == 0)
    matched += kBlock;
  while (matched < n && a[n - 1 - matched] == b[n - 1 - matched])
    ++matched;
  return matched;
}

} // namespace

Chunks chunksOf(const Rope& text) {
  Chunks chunks;
  text.forEachChunk(0, text.byteSize(), [&](std::string_view chunk) { chunks.push_back(chunk); });
  return chunks;
}

std::size_t commonPrefix(const Chunks& a, const Chunks& b) {
  std::size_t total = 0;
  std::size_t ia = 0, ib = 0, oa = 0, ob = 0; // chunk index, offset inside it
  while (ia < a.size() && ib < b.size()) {
    const std::string_view x = a[ia].substr(oa), y = b[ib].substr(ob);
    const std::size_t len = std::min(x.size(), y.size());
    if (x.data() != y.data()) {
      const std::size_t same = equalHead(x.data(), y.data(), len);
      if (same != len) return total + same;
    }
    total += len;
    if ((oa += len) == a[ia].size()) ++ia, oa = 0;
    if ((ob += len) == b[ib].size()) ++ib, ob = 0;
  }
  return total;
}

std::size_t commonSuffix(const Chunks& a, const Chunks& b, std::size_t limit) {
  std::size_t total = 0;
  std::size_t ia = a.size(), ib = b.size(), ra = 0, rb = 0; // chunks left, bytes left in chunk
  while (total < limit) {
    if (ra == 0) {
      if (ia == 0) break;
      ra = a[--ia].size();
    }
    if (rb == 0) {
      if (ib == 0) break;
      rb = b[--ib].size();
    }
    const std::size_t len = std::min({ra, rb, limit - total});
    const std::string_view x = a[ia].substr(ra - len, len), y = b[ib].substr(rb - len, len);
    if (x.data() != y.data()) {
      const std::size_t same = equalTail(x.data(), y.data(), len);
      if (same != len) return total + same;
    }
    total += len;
    ra -= len;
    rb -= len;
  }
  return total;
}

} // namespace hashline
