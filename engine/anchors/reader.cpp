// Anchored reads of a window of lines; see reader.h.
#include "engine/anchors/reader.h"

#include "engine/anchors/anchor_computer.h"
#include "engine/anchors/read_lines.h"

namespace hashline {

Result<ReadView> readWindow(const Rope& text, std::int64_t version, Tier tier,
                            std::optional<std::uint32_t> from, std::optional<std::uint32_t> to,
                            const ChangeLog* log, LineHashCache* cache) {
  AnchorComputer computer(text, version, log, cache);
  const std::uint32_t line_count = computer.lineCount();
  const std::uint32_t first = std::max<std::uint32_t>(from.value_or(1), 1);
  const std::uint32_t last = std::min(to.value_or(line_count), line_count);
  if (first > line_count)
    return Error::make(ErrorCode::OutOfRange, "line " + std::to_string(first) +
                                                  " is past the end (the file has " +
                                                  std::to_string(line_count) + " lines)");
  if (first > last)
    return Error::make(ErrorCode::OutOfRange, "empty window: from " + std::to_string(first) +
                                                  " is after to " + std::to_string(*to));
  ReadView view;
  view.version = version;
  view.tier = tier;
  view.line_count = line_count;
  view.lsp_line_count = static_cast<std::uint32_t>(text.lineCount());
  view.first_line = first;
  view.last_line = last;
  view.anchors = computer.anchors(tier, first, last);
  view.rows.reserve(view.anchors.size());
  auto texts = readLineTexts(text, first, last);
  for (const auto& anchor : view.anchors)
    view.rows.push_back(
        AnchoredRow{anchor.line, formatAnchor(anchor), std::move(texts[anchor.line - first])});
  return view;
}

std::string formatRows(const std::vector<AnchoredRow>& rows) {
  std::string out;
  for (const auto& row : rows) {
    if (!out.empty()) out += '\n';
    out += row.anchor;
    out += kRowSeparator;
    out += row.text;
  }
  return out;
}

} // namespace hashline
