// Rope equality without flattening either text.
#include "engine/text/text_compare.h"

#include "engine/text/chunk_compare.h"

namespace hashline {

bool sameText(const Rope& a, const Rope& b) {
  if (a.sharesRootWith(b)) return true;
  if (a.byteSize() != b.byteSize()) return false;
  if (a.lineBreaks() != b.lineBreaks()) return false;
  // Leaves the two ropes share are skipped by address: an edited copy costs O(chunks) plus the
  // bytes of the leaves the edit rebuilt.
  return commonPrefix(chunksOf(a), chunksOf(b)) == a.byteSize();
}

bool sameText(const Rope& a, std::string_view b) {
  return a.byteSize() == b.size() && commonPrefix(chunksOf(a), Chunks{b}) == b.size();
}

} // namespace hashline
