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
  // Copy each run of content bytes with one append; each inner whitespace run becomes one space.
  std::size_t i = begin;
  while (i < end) {
    std::size_t run = i;
    while (run < end && !isAnchorWhitespace(line[run]))
      ++run;
    out.append(line.data() + i, run - i);
    if (run == end) break;
    out.push_back(' ');
    i = run;
    while (i < end && isAnchorWhitespace(line[i]))
      ++i;
  }
}

std::string normalizeLine(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  appendNormalizedLine(line, out);
  return out;
}

} // namespace hashline
