// The lines of a Rope as views, split exactly as splitLinesKeepingEnds (line_diff.h)
// splits a string — a line ends after LF, after CRLF, or after a CR not followed by LF — without
// flattening the rope: a line inside one leaf is a view into that leaf; the few lines that
// cross a leaf boundary are copied into `spill`. For indexing a large buffer's lines (locating
// journal hunks) at the cost of one pass and no multi-megabyte copy. Pure.
#pragma once

#include "engine/text/rope.h"

#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline {

struct RopeLines {
  /// Views into the rope's leaves or into `spill`: valid while both live unchanged (moving a
  /// RopeLines keeps them valid; copying it does not, hence move-only).
  std::vector<std::string_view> lines;
  std::deque<std::string> spill;

  RopeLines() = default;
  RopeLines(RopeLines&&) = default;
  RopeLines& operator=(RopeLines&&) = default;
  RopeLines(const RopeLines&) = delete;
  RopeLines& operator=(const RopeLines&) = delete;
};

RopeLines splitLinesKeepingEnds(const Rope& text);

/// Calls `visit(line, assembled)` for every line of `text` in order, split the same way: a view
/// into a leaf, or (`assembled`: a line crossing leaves) into a string valid during the call.
/// Nothing else is stored.
void forEachLineOf(const Rope& text,
                   const std::function<void(std::string_view, bool assembled)>& visit);

} // namespace hashline
