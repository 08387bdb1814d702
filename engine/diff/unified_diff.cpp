// Unified diff renderer; see unified_diff.h.
#include "engine/diff/unified_diff.h"

#include "engine/diff/line_diff.h"

#include <algorithm>
#include <vector>

namespace hashline {
namespace {

std::string range(std::size_t begin, std::size_t count) {
  // GNU convention: 1-based start; an empty range is numbered by the line before it.
  const std::size_t start = count == 0 ? begin : begin + 1;
  if (count == 1) return std::to_string(start);
  return std::to_string(start) + "," + std::to_string(count);
}

void printLine(std::string& out, char marker, std::string_view line) {
  out += marker;
  if (line.ends_with('\n')) {
    out.append(line.substr(0, line.size() - 1));
    out += '\n';
  } else if (line.ends_with('\r')) {
    out.append(line);
    out += '\n';
  } else {
    out.append(line);
    out += "\n\\ No newline at end of file\n";
  }
}

} // namespace

std::string unifiedDiff(std::string_view before, std::string_view after,
                        const UnifiedDiffOptions& options) {
  if (before == after) return "";
  const auto a = splitLinesKeepingEnds(before);
  const auto b = splitLinesKeepingEnds(after);
  const auto regions = diffLines(a, b, 5000);
  const std::size_t context = options.context_lines;
  std::string out = "--- " + options.old_label + "\n+++ " + options.new_label + "\n";
  std::size_t i = 0;
  while (i < regions.size()) {
    // Group regions whose gaps fit in 2 * context lines into one hunk.
    std::size_t j = i;
    while (j + 1 < regions.size() && regions[j + 1].old_begin - regions[j].old_end <= 2 * context)
      ++j;
    const std::size_t old_begin = regions[i].old_begin - std::min(context, regions[i].old_begin);
    const std::size_t new_begin = regions[i].new_begin - (regions[i].old_begin - old_begin);
    const std::size_t old_end = std::min(a.size(), regions[j].old_end + context);
    const std::size_t new_end = regions[j].new_end + (old_end - regions[j].old_end);
    out += "@@ -" + range(old_begin, old_end - old_begin) + " +" +
           range(new_begin, new_end - new_begin) + " @@\n";
    std::size_t old_at = old_begin;
    for (std::size_t r = i; r <= j; ++r) {
      const auto& region = regions[r];
      for (; old_at < region.old_begin; ++old_at)
        printLine(out, ' ', a[old_at]);
      for (std::size_t k = region.old_begin; k < region.old_end; ++k)
        printLine(out, '-', a[k]);
      for (std::size_t k = region.new_begin; k < region.new_end; ++k)
        printLine(out, '+', b[k]);
      old_at = region.old_end;
    }
    for (; old_at < old_end; ++old_at)
      printLine(out, ' ', a[old_at]);
    i = j + 1;
  }
  return out;
}

} // namespace hashline
