// Fresh anchors around changed spans; see fresh_anchors.h.
#include "engine/verify/fresh_anchors.h"

#include "engine/anchors/read_lines.h"
#include "engine/anchors/reader.h"

#include <algorithm>

namespace hashline {

std::vector<AnchoredRow> issueFreshAnchors(const Rope& text, std::int64_t version, Tier tier,
                                           const std::vector<LineSpan>& changed,
                                           std::uint32_t context_lines, const ChangeLog* log,
                                           LineHashCache* cache, Observation* observation) {
  const std::uint32_t line_count = readLineCount(text);
  std::vector<LineSpan> windows;
  for (const LineSpan& span : changed) {
    std::uint32_t first = span.first > context_lines ? span.first - context_lines : 1;
    std::uint32_t last = std::min(line_count, span.last + context_lines);
    first = std::min(first, line_count);
    if (!windows.empty() && first <= windows.back().last + 1)
      windows.back().last = std::max(windows.back().last, last);
    else
      windows.push_back(LineSpan{first, last});
  }
  std::vector<AnchoredRow> rows;
  for (const LineSpan& window : windows) {
    Result<ReadView> view = readWindow(text, version, tier, window.first, window.last, log, cache);
    if (!view) continue;
    if (observation) observation->recordRead(*view);
    rows.insert(rows.end(), view->rows.begin(), view->rows.end());
  }
  return rows;
}

} // namespace hashline
