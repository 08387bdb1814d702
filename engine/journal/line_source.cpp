// Line sources for the hunk locator; see line_source.h.
#include "engine/journal/line_source.h"

#include "engine/diff/rope_lines.h"

namespace hashline::journal {

RopeLineSource::RopeLineSource(const Rope& text) : text_(text) {
  // splitLinesKeepingEnds counts a final line break as ending the last line, not as starting
  // an empty one (the Rope's LSP lines do).
  const std::size_t breaks = text.lineBreaks();
  count_ = text.empty() ? 0 : text.lineStartByte(breaks) == text.byteSize() ? breaks : breaks + 1;
}

bool RopeLineSource::lineIs(std::size_t index, std::string_view text) const {
  const std::size_t begin = text_.lineStartByte(index);
  const std::size_t end = text_.lineEndWithBreakByte(index);
  if (end - begin != text.size()) return false;
  bool same = true;
  std::size_t at = 0;
  text_.forEachChunk(begin, end, [&](std::string_view chunk) {
    if (same && text.compare(at, chunk.size(), chunk) != 0) same = false;
    at += chunk.size();
  });
  return same;
}

void RopeLineSource::forEachLine(const std::function<void(std::string_view)>& visit) const {
  forEachLineOf(text_, [&](std::string_view line, bool) { visit(line); });
}

} // namespace hashline::journal
