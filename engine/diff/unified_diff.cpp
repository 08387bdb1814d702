// Unified diff renderer; see unified_diff.h.
#include "engine/diff/unified_diff.h"

#include "engine/diff/line_diff.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace hashline {
namespace {

std::string range(std::size_t begin, std::size_t count, std::size_t first_line_number) {
  // GNU convention: 1-based start; an empty range is numbered by the line before it.
  const std::size_t start = (count == 0 ? begin : begin + 1) + first_line_number - 1;
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
    const std::size_t first_new = options.first_new_line_number != 0 ? options.first_new_line_number
                                                                     : options.first_line_number;
    out += "@@ -" + range(old_begin, old_end - old_begin, options.first_line_number) + " +" +
           range(new_begin, new_end - new_begin, first_new) + " @@\n";
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

namespace hashline {

std::string unifiedDiffOfPlan(const Rope& base, const EditPlan& plan,
                              const UnifiedDiffOptions& options) {
  if (plan.edits.empty()) return "";
  const std::size_t context = options.context_lines;
  const std::size_t last_base_line = base.lineCount() - 1;
  std::string body;
  // Net lines added by the windows already rendered: numbers the new side of later windows.
  std::ptrdiff_t line_shift = 0;
  std::size_t i = 0;
  while (i < plan.edits.size()) {
    // One window: edit i and every following edit within 2·context+1 lines of the previous
    // (farther apart, no hunk can hold both), widened by context + 1 lines on both sides.
    std::size_t first_line = base.lineOfByte(plan.edits[i].begin);
    std::size_t last_line = base.lineOfByte(plan.edits[i].end);
    std::size_t j = i;
    while (j + 1 < plan.edits.size() &&
           base.lineOfByte(plan.edits[j + 1].begin) <= last_line + 2 * context + 2) {
      ++j;
      last_line = std::max(last_line, base.lineOfByte(plan.edits[j].end));
    }
    first_line -= std::min(first_line, context + 1);
    last_line = std::min(last_line + context + 1, last_base_line);
    const std::size_t window_begin = base.lineStartByte(first_line);
    const std::size_t window_end = base.lineEndWithBreakByte(last_line);
    const std::string before = base.slice(window_begin, window_end);
    std::string after = before;
    for (std::size_t k = j + 1; k-- > i;) {
      const ByteEdit& edit = plan.edits[k];
      after.replace(edit.begin - window_begin, edit.end - edit.begin, edit.text);
    }
    UnifiedDiffOptions window_options = options;
    window_options.first_line_number = first_line + 1;
    window_options.first_new_line_number =
        static_cast<std::size_t>(static_cast<std::ptrdiff_t>(first_line + 1) + line_shift);
    const std::string part = unifiedDiff(before, after, window_options);
    const std::size_t header = 4 + options.old_label.size() + 1 + 4 + options.new_label.size() + 1;
    if (!part.empty()) body.append(part, header); // without its ---/+++ lines
    line_shift += static_cast<std::ptrdiff_t>(splitLinesKeepingEnds(after).size()) -
                  static_cast<std::ptrdiff_t>(splitLinesKeepingEnds(before).size());
    i = j + 1;
  }
  if (body.empty()) return "";
  return "--- " + options.old_label + "\n+++ " + options.new_label + "\n" + body;
}

} // namespace hashline
