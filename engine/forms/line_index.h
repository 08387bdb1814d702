// LineIndex: where a run of lines occurs in one file, for the codex patch form's seek ladder.
//
// The patch planner (patch_plan.h) locates every chunk of a hunk from a cursor: all places at or
// after it where the chunk's old lines match, at the first level of the ladder with any — exact,
// trailing whitespace ignored, surrounding whitespace ignored, whitespace ignored + Unicode
// look-alikes folded (shared/docs/apply-patch.md §2) — and it needs all of them, not the first,
// since several places are AMBIGUOUS. A scan to the end of the file per chunk costs O(chunks ×
// lines); this index makes a seek cost O(occurrences of the pattern's rarest line) instead. Per
// level, built lazily the first time a seek needs it (most patches only ever use the exact one):
// the line's key at that level, hashed (XXH3) into a bucket table twice the line count, each
// bucket holding its lines in ascending order (one counting pass, no per-line allocation). A seek
// picks the pattern line whose bucket is smallest, walks that bucket from the cursor (binary
// search) and compares the whole pattern at each candidate, so hash collisions cost time, never
// a wrong answer.
//
// Lines are LineTable's minus a phantom line: an empty file has no lines (as codex sees it).
// Not thread-safe (the lazy levels); one object per planning call.
#pragma once

#include "engine/forms/line_table.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::forms {

class LineIndex {
public:
  static constexpr std::size_t kTiers = 4;

  /// `table` must outlive the index.
  explicit LineIndex(const LineTable& table);

  /// Number of lines (0 for an empty file).
  std::size_t size() const { return count_; }

  /// Positions (0-based first lines) >= `start` where `pattern` matches, ascending, at the first
  /// tier with any match; `eof` allows only the position that ends at the end of the file. An
  /// empty pattern matches everywhere from `start` to the end.
  std::vector<std::size_t> seek(const std::vector<std::string>& pattern, std::size_t start,
                                bool eof) const;

  /// The key of `line` at ladder tier 0–3 (exact, trimmed end, trimmed, loose).
  static std::string tierKey(std::string_view line, std::size_t tier);

  /// Tiers whose bucket table has been built (for tests: laziness).
  std::size_t builtTiers() const;

private:
  struct Buckets {
    std::vector<std::uint32_t> heads; // bucket b holds lines[heads[b] .. heads[b + 1])
    std::vector<std::uint32_t> lines;
    std::uint64_t mask = 0;
  };

  std::string_view key(std::size_t tier, std::size_t line) const;
  const Buckets& buckets(std::size_t tier) const;
  std::vector<std::size_t> seekAt(std::size_t tier, const std::vector<std::string>& keys,
                                  std::size_t lo) const;
  bool matchesAt(std::size_t tier, const std::vector<std::string>& keys, std::size_t at) const;

  const LineTable& table_;
  std::size_t count_ = 0;
  mutable std::array<std::vector<std::string>, kTiers> keys_; // tiers 1–3, lazily
  mutable std::array<Buckets, kTiers> buckets_;
  mutable std::array<bool, kTiers> built_{};
};

} // namespace hashline::forms
