// The normalization ladder over a whole document; see text_search.h.
#include "engine/forms/text_search.h"

#include <algorithm>
#include <string>

namespace hashline::forms {
namespace {
constexpr FoldLevel kLevels[] = {FoldLevel::LineEndings, FoldLevel::TrailingWhitespace,
                                 FoldLevel::Compatibility};
} // namespace

const std::string& TextSearcher::folded(FoldLevel level) {
  auto& slot = folded_[static_cast<std::size_t>(level)];
  if (!slot) slot = foldText(table_.text(), level, table_.bomBytes());
  return *slot;
}

std::vector<std::size_t> TextSearcher::rawOccurrences(FoldLevel level,
                                                      const std::string& folded_needle) {
  std::vector<std::size_t> out;
  if (folded_needle.empty()) return out;
  const std::string& doc = folded(level);
  for (std::size_t at = doc.find(folded_needle); at != std::string::npos;
       at = doc.find(folded_needle, at + 1))
    out.push_back(at);
  return out;
}

std::vector<TextMatch> TextSearcher::mapped(FoldLevel level, const std::vector<std::size_t>& raw,
                                            std::size_t needle_size, std::size_t from_byte) {
  std::vector<ByteRange> ranges;
  ranges.reserve(raw.size());
  for (std::size_t at : raw)
    ranges.push_back({at, at + needle_size});
  std::vector<std::optional<ByteRange>> origin =
      mapToOriginal(table_.text(), level, table_.bomBytes(), ranges);
  std::vector<TextMatch> out;
  for (const auto& range : origin)
    if (range && range->begin >= from_byte) out.push_back(TextMatch{range->begin, range->end});
  return out;
}

std::optional<TextSearch> TextSearcher::find(std::string_view needle, std::size_t from_byte) {
  TextSearch search;
  bool located = false;
  std::vector<std::size_t> loose_raw;
  std::string loose_needle;
  for (FoldLevel level : kLevels) {
    std::string folded_needle = foldText(needle, level);
    std::vector<std::size_t> raw = rawOccurrences(level, folded_needle);
    if (!located && !raw.empty()) {
      std::vector<TextMatch> found = mapped(level, raw, folded_needle.size(), from_byte);
      if (!found.empty()) {
        search.level = level;
        search.matches = std::move(found);
        located = true;
      }
    }
    if (level == FoldLevel::Compatibility) {
      loose_raw = std::move(raw);
      loose_needle = std::move(folded_needle);
    }
  }
  if (!located) return std::nullopt;
  // The loosest level contains what stricter levels found; only map it when it could say more.
  if (loose_raw.size() > search.matches.size())
    search.loose_matches =
        mapped(FoldLevel::Compatibility, loose_raw, loose_needle.size(), from_byte);
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
