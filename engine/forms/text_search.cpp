// The normalization ladder over a whole document; see text_search.h.
#include "engine/forms/text_search.h"

#include <algorithm>
#include <string>

namespace hashline::forms {
namespace {
constexpr FoldLevel kLevels[] = {FoldLevel::LineEndings, FoldLevel::TrailingWhitespace,
                                 FoldLevel::Compatibility};
} // namespace

const FoldedText& TextSearcher::folded(FoldLevel level) {
  auto& slot = folded_[static_cast<std::size_t>(level)];
  if (!slot) slot = foldText(table_.text(), level, table_.bomBytes());
  return *slot;
}

std::vector<TextMatch> TextSearcher::occurrences(FoldLevel level, std::string_view needle,
                                                 std::size_t from_byte) {
  std::vector<TextMatch> out;
  std::string folded_needle = foldNeedle(needle, level);
  if (folded_needle.empty()) return out;
  const FoldedText& doc = folded(level);
  for (std::size_t at = doc.text.find(folded_needle); at != std::string::npos;
       at = doc.text.find(folded_needle, at + 1)) {
    std::size_t end = at + folded_needle.size();
    if (!doc.onUnitBoundaries(at, end)) continue;
    TextMatch match{doc.originBegin(at), doc.originEnd(end)};
    if (match.begin >= from_byte) out.push_back(match);
  }
  return out;
}

std::optional<TextSearch> TextSearcher::find(std::string_view needle, std::size_t from_byte) {
  TextSearch search;
  bool located = false;
  for (FoldLevel level : kLevels) {
    std::vector<TextMatch> found = occurrences(level, needle, from_byte);
    if (!located && !found.empty()) {
      search.level = level;
      search.matches = found;
      located = true;
    }
    if (level == FoldLevel::Compatibility) search.loose_matches = std::move(found);
  }
  if (!located) return std::nullopt;
  // The loosest level always contains what stricter levels found; guard against folds that are
  // not monotone (a fold may merge differently) so that the count is never below the located one.
  if (search.loose_matches.size() < search.matches.size()) search.loose_matches = search.matches;
  return search;
}

std::vector<TextMatch> TextSearcher::nonOverlapping(const std::vector<TextMatch>& matches) {
  std::vector<TextMatch> out;
  for (const TextMatch& m : matches)
    if (out.empty() || m.begin >= out.back().end) out.push_back(m);
  return out;
}

std::vector<std::uint32_t> matchLines(const LineTable& table, const std::vector<TextMatch>& m) {
  std::vector<std::uint32_t> lines;
  for (const TextMatch& match : m) {
    auto line = static_cast<std::uint32_t>(table.lineOfByte(match.begin) + 1);
    if (lines.empty() || lines.back() != line) lines.push_back(line);
  }
  return lines;
}

std::string describeLines(const std::vector<std::uint32_t>& lines) {
  std::string out = lines.size() == 1 ? "line " : "lines ";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += i + 1 == lines.size() ? " and " : ", ";
    out += std::to_string(lines[i]);
  }
  return out;
}

std::string_view levelDescription(FoldLevel level) {
  switch (level) {
  case FoldLevel::LineEndings:
    return "exact";
  case FoldLevel::TrailingWhitespace:
    return "matched ignoring trailing whitespace";
  case FoldLevel::Compatibility:
    return "matched after folding Unicode look-alikes (quotes, dashes, spaces, fullwidth)";
  }
  return "";
}

} // namespace hashline::forms
