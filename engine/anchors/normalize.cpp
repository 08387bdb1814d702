// Whitespace normalization of one line; see normalize.h for the rules.
#include "engine/anchors/normalize.h"

namespace hashline {

void appendNormalizedLine(std::string_view line, std::string& out) {
  std::size_t begin = 0;
  std::size_t end = line.size();
  while (begin < end && isAnchorWhitespace(line[begin]))
    ++begin;
  while (end > begin && isAnchorWhitespace(line[end - 1]))
    --end;
  bool in_space = false;
  for (std::size_t i = begin; i < end; ++i) {
    const char c = line[i];
    if (isAnchorWhitespace(c)) {
      in_space = true;
      continue;
    }
    if (in_space) out.push_back(' ');
    in_space = false;
    out.push_back(c);
  }
}

std::string normalizeLine(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  appendNormalizedLine(line, out);
  return out;
}

} // namespace hashline
