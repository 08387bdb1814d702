// TextSearcher: finds an agent's text in a document through the normalization ladder.
//
// Ladder (docs/forms.md): line endings only → + trailing whitespace per line → + compatibility and
// typographic folding. The first level with any occurrence locates the text; how many places it
// could mean is counted at the loosest level (pi's rule: `hello world   ` and `hello world` are
// two occurrences of `hello world`). Occurrences are mapped back to original byte ranges, never
// splitting one original character. Used by old/new and head/tail. Cost: O(n) per level used
// (the folded texts are cached, no per-byte maps are kept; ranges are mapped back in one pass).
// Not thread-safe; one per request.
#pragma once

#include "engine/forms/line_table.h"
#include "engine/forms/text_fold.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace hashline::forms {

struct TextMatch {
  std::size_t begin = 0; // original bytes
  std::size_t end = 0;
};

struct TextSearch {
  FoldLevel level = FoldLevel::LineEndings; // level that located the text
  std::vector<TextMatch> matches;           // all (overlapping) occurrences at that level
  std::vector<TextMatch> loose_matches;     // all occurrences at the loosest level
};

class TextSearcher {
public:
  explicit TextSearcher(const LineTable& table) : table_(table) {}

  /// Occurrences starting at or after `from_byte`; nullopt when found at no level.
  std::optional<TextSearch> find(std::string_view needle, std::size_t from_byte = 0);

  /// Left-to-right non-overlapping subset of `matches` (for replace_all).
  static std::vector<TextMatch> nonOverlapping(const std::vector<TextMatch>& matches);

private:
  const std::string& folded(FoldLevel level);
  /// Start offsets (in the folded text) of every occurrence of the folded needle.
  std::vector<std::size_t> rawOccurrences(FoldLevel level, const std::string& folded_needle);
  /// Maps raw occurrences to original ranges (dropping those splitting a character or starting
  /// before `from_byte`).
  std::vector<TextMatch> mapped(FoldLevel level, const std::vector<std::size_t>& raw,
                                std::size_t needle_size, std::size_t from_byte);

  const LineTable& table_;
  std::array<std::optional<std::string>, 3> folded_;
};

/// "line 3" / "lines 3, 9 and 12" for messages; 1-based, duplicates removed.
std::vector<std::uint32_t> matchLines(const LineTable& table, const std::vector<TextMatch>& m);
std::string describeLines(const std::vector<std::uint32_t>& lines);
/// Human name of a ladder level, for warnings ("trailing whitespace ignored").
std::string_view levelDescription(FoldLevel level);

} // namespace hashline::forms
