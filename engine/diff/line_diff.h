// Line diff: the changed regions between two texts, line by line (Myers' O(ND) algorithm).
//
// Lines keep their terminators (LF, CRLF or lone CR — CRLF is one terminator), so a line-ending
// change is a change. Common prefix and suffix lines are trimmed first by plain comparison; the
// middle is compared by a hash per line confirmed byte-exactly (no collisions, no interning
// table), so a million-line text costs one pass plus O(N·D) comparisons. When more than
// `max_cost` line insertions+deletions would be needed, the remaining middle is reported as one
// changed region (still correct, less minimal), which bounds time and memory (O(max_cost²)) on
// unrelated texts; memory never grows with the text's length beyond the line list itself.
//
// Used by minimal_edits (editor TextEdits) and unified_diff (results, journal). Pure; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace hashline {

/// A changed region: old lines [old_begin, old_end) became new lines [new_begin, new_end)
/// (0-based). Regions are sorted and separated by at least one unchanged line.
struct DiffRegion {
  std::size_t old_begin = 0;
  std::size_t old_end = 0;
  std::size_t new_begin = 0;
  std::size_t new_end = 0;
  bool operator==(const DiffRegion&) const = default;
};

/// Splits `text` into lines that keep their terminators; "" has no lines, "a\n" has one.
std::vector<std::string_view> splitLinesKeepingEnds(std::string_view text);

/// Shortest edit script between id sequences, as changed regions.
std::vector<DiffRegion> diffSequences(std::span<const std::uint32_t> before,
                                      std::span<const std::uint32_t> after,
                                      std::size_t max_cost = 2000);

/// Changed regions between two lists of lines (compared byte-exactly).
std::vector<DiffRegion> diffLines(const std::vector<std::string_view>& before,
                                  const std::vector<std::string_view>& after,
                                  std::size_t max_cost = 2000);

/// How many lines (before + after) diffLines was handed on this thread so far: a probe for tests
/// that prove a result's diff costs O(change), not O(document).
std::size_t linesDiffedOnThisThread();

} // namespace hashline
