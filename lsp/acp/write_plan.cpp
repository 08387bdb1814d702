// Whole-file writes merged into line-range edits; see write_plan.h.
#include "lsp/acp/write_plan.h"

#include "engine/merge/three_way.h"

#include <algorithm>

namespace hashline::acp {

namespace {

/// Byte offsets of each line's start in a joined text, plus its end.
std::vector<std::size_t> lineStarts(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', at + 1))
    starts.push_back(at + 1);
  if (starts.back() != text.size()) starts.push_back(text.size());
  return starts;
}

std::string_view linesOf(std::string_view text, const std::vector<std::size_t>& starts,
                         merge::LineRange range) {
  std::size_t last = starts.size() - 1;
  std::size_t begin = starts[std::min(range.begin, last)];
  std::size_t end = starts[std::min(range.end, last)];
  return text.substr(begin, end - begin);
}

} // namespace

std::vector<std::string> splitContentLines(std::string_view content) {
  if (!content.empty() && content.back() == '\n') content.remove_suffix(1);
  std::vector<std::string> lines;
  for (;;) {
    std::size_t at = content.find('\n');
    std::string_view line = content.substr(0, at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    if (at == std::string_view::npos) break;
    content.remove_prefix(at + 1);
  }
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::size_t size = 0;
  for (const std::string& line : lines)
    size += line.size() + 1;
  std::string text;
  text.reserve(size);
  for (const std::string& line : lines) {
    text += line;
    text += '\n';
  }
  return text;
}

std::string acpContent(const std::vector<std::string>& lines, bool final_newline,
                       std::optional<std::int64_t> line, std::optional<std::int64_t> limit) {
  const std::int64_t count = static_cast<std::int64_t>(lines.size());
  const std::int64_t first = std::max<std::int64_t>(line.value_or(1), 1) - 1;
  if (first >= count) return {};
  const std::int64_t last =
      limit ? std::min(count, first + std::max<std::int64_t>(*limit, 0)) : count;
  std::string content;
  for (std::int64_t i = first; i < last; ++i) {
    content += lines[static_cast<std::size_t>(i)];
    if (i + 1 < count || final_newline) content += '\n';
  }
  return content;
}

WritePlan planWrite(std::string_view agent_view, std::string_view current,
                    std::string_view new_content) {
  merge::MergeResult merged = merge::mergeThreeWay(agent_view, current, new_content);
  WritePlan plan;
  const std::vector<std::size_t> theirs_starts = lineStarts(new_content);
  for (const merge::Conflict& conflict : merged.conflicts) {
    WriteConflict out;
    out.first_line = static_cast<std::uint32_t>(conflict.ours.begin + 1);
    out.last_line = static_cast<std::uint32_t>(conflict.ours.end);
    out.current_text = conflict.ours_text;
    out.agent_text = conflict.theirs_text;
    plan.conflicts.push_back(std::move(out));
  }
  if (!plan.conflicts.empty()) return plan;
  for (const merge::TakenHunk& hunk : merged.taken) {
    LineRangeChange change;
    change.start = static_cast<std::uint32_t>(hunk.ours.begin + 1);
    change.end = static_cast<std::uint32_t>(hunk.ours.end);
    change.content = std::string(linesOf(new_content, theirs_starts, hunk.theirs));
    plan.changes.push_back(std::move(change));
  }
  return plan;
}

} // namespace hashline::acp
