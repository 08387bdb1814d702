// Line ops to byte edits, keeping line endings, final newline and BOM; see line_plan.h.
#include "engine/verify/line_plan.h"

#include "engine/anchors/read_lines.h"

#include <tuple>

namespace hashline {
namespace {

std::string joinWith(const std::vector<std::string>& lines, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += separator;
    out += lines[i];
  }
  return out;
}

std::string eachEndingWith(const std::vector<std::string>& lines, const std::string& ending) {
  std::string out;
  for (const auto& line : lines) {
    out += line;
    out += ending;
  }
  return out;
}

} // namespace

bool lineOpOrder(const LineOp& a, const LineOp& b) {
  // Position in "half lines": an insertion at gap g is at 2(g+1), a replacement from line s at
  // 2s+1 — so an insertion right before a replaced span sorts first.
  auto key = [](const LineOp& op) {
    return op.insert ? std::uint64_t(op.first + 1) * 2 : std::uint64_t(op.first) * 2 + 1;
  };
  return std::tuple(key(a), a.request_index) < std::tuple(key(b), b.request_index);
}

ByteEdit lineOpToByteEdit(const Rope& text, const LineOp& op) {
  const std::uint32_t count = readLineCount(text);
  if (isEmptyText(text)) {
    const std::size_t at = bomBytes(text);
    return ByteEdit{at, text.byteSize(), eachEndingWith(op.lines, "\n")};
  }
  if (op.insert) {
    const std::uint32_t gap = op.first;
    if (gap < count) {
      const std::string eol = gap >= 1 ? lineTerminator(text, gap) : lineEndingNear(text, 1);
      const std::size_t at = lineContentBegin(text, gap + 1);
      return ByteEdit{at, at, eachEndingWith(op.lines, eol)};
    }
    if (endsWithLineBreak(text)) {
      const std::size_t at = text.byteSize();
      return ByteEdit{at, at, eachEndingWith(op.lines, lineTerminator(text, count))};
    }
    const std::string eol = lineEndingNear(text, count);
    std::string inserted;
    for (const auto& line : op.lines) {
      inserted += eol;
      inserted += line;
    }
    const std::size_t at = text.byteSize();
    return ByteEdit{at, at, std::move(inserted)};
  }
  if (!op.lines.empty()) {
    return ByteEdit{lineContentBegin(text, op.first), lineContentEnd(text, op.last),
                    joinWith(op.lines, lineEndingNear(text, op.last))};
  }
  // Deletion.
  if (op.last < count)
    return ByteEdit{lineContentBegin(text, op.first), lineBreakEnd(text, op.last), ""};
  if (op.first > 1) // through the last line: drop the previous line's break, keep the final one
    return ByteEdit{lineContentEnd(text, op.first - 1), lineContentEnd(text, op.last), ""};
  return ByteEdit{bomBytes(text), text.byteSize(), ""};
}

std::vector<NewSpan> newLineSpans(const std::vector<LineOp>& ops) {
  std::vector<NewSpan> spans;
  spans.reserve(ops.size());
  std::int64_t delta = 0;
  for (const auto& op : ops) {
    const auto added = static_cast<std::int64_t>(op.lines.size());
    if (op.insert) {
      const std::int64_t first = std::int64_t(op.first) + 1 + delta;
      spans.push_back(NewSpan{static_cast<std::uint32_t>(first),
                              static_cast<std::uint32_t>(first + added - 1)});
      delta += added;
    } else {
      const std::int64_t first = std::int64_t(op.first) + delta;
      spans.push_back(NewSpan{static_cast<std::uint32_t>(first),
                              static_cast<std::uint32_t>(first + added - 1)});
      delta += added - (std::int64_t(op.last) - op.first + 1);
    }
  }
  return spans;
}

} // namespace hashline
