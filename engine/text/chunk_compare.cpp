// Chunked common prefix / suffix; see chunk_compare.h.
#include "engine/text/chunk_compare.h"

#include <algorithm>

namespace hashline {

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
      const auto [at, _] = std::mismatch(x.begin(), x.begin() + len, y.begin());
      if (at != x.begin() + len) return total + static_cast<std::size_t>(at - x.begin());
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
      const auto [at, _] = std::mismatch(x.rbegin(), x.rend(), y.rbegin());
      if (at != x.rend()) return total + static_cast<std::size_t>(at - x.rbegin());
    }
    total += len;
    ra -= len;
    rb -= len;
  }
  return total;
}

} // namespace hashline
