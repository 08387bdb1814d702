// Rope equality without flattening both texts at once.
#include "engine/text/text_compare.h"

#include <string_view>

namespace hashline {

bool sameText(const Rope& a, const Rope& b) {
  if (a.sharesRootWith(b)) return true;
  if (a.byteSize() != b.byteSize()) return false;
  if (a.lineBreaks() != b.lineBreaks()) return false;
  std::string flat_b = b.toString();
  std::size_t offset = 0;
  bool equal = true;
  a.forEachChunk(0, a.byteSize(), [&](std::string_view piece) {
    if (!equal) return;
    if (std::string_view(flat_b).substr(offset, piece.size()) != piece) equal = false;
    offset += piece.size();
  });
  return equal;
}

} // namespace hashline
