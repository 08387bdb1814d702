// Splitting an applied change into hunks; see hunk_split.h.
#include "engine/journal/hunk_split.h"

#include "engine/diff/line_diff.h"

#include <algorithm>

namespace hashline::journal {

std::vector<JournalHunk> splitIntoHunks(std::string_view before, std::string_view after,
                                        std::size_t context_lines) {
  std::vector<std::string_view> old_lines = splitLinesKeepingEnds(before);
  std::vector<std::string_view> new_lines = splitLinesKeepingEnds(after);
  std::vector<DiffRegion> regions = diffLines(old_lines, new_lines);
  std::vector<JournalHunk> hunks;
  hunks.reserve(regions.size());
  auto join = [](const std::vector<std::string_view>& lines, std::size_t from, std::size_t to) {
    std::string text;
    for (std::size_t i = from; i < to; ++i)
      text += lines[i];
    return text;
  };
  for (const DiffRegion& region : regions) {
    JournalHunk hunk;
    hunk.index = static_cast<std::uint32_t>(hunks.size() + 1);
    hunk.before_line = static_cast<std::uint32_t>(region.old_begin);
    hunk.after_line = static_cast<std::uint32_t>(region.new_begin);
    hunk.before_text = join(old_lines, region.old_begin, region.old_end);
    hunk.after_text = join(new_lines, region.new_begin, region.new_end);
    std::size_t above = region.new_begin - std::min(region.new_begin, context_lines);
    for (std::size_t i = above; i < region.new_begin; ++i)
      hunk.context_before.emplace_back(new_lines[i]);
    hunk.context_reaches_start = above == 0;
    std::size_t below = std::min(new_lines.size(), region.new_end + context_lines);
    for (std::size_t i = region.new_end; i < below; ++i)
      hunk.context_after.emplace_back(new_lines[i]);
    hunk.context_reaches_end = below == new_lines.size();
    hunks.push_back(std::move(hunk));
  }
  return hunks;
}

} // namespace hashline::journal
