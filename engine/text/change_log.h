// ChangeLog: for each document version, the line ranges its change replaced.
//
// The mirror appends one entry per applied content change (an LSP notification may carry several;
// each gets its own entry, all stamped with the notification's version). Given a line number read
// at version v, `mapLine` carries it exactly to the current version, or says the line itself was
// changed or deleted. `rangeTouched` answers "did any change since v touch lines [a, b)?", which is
// how block/chain anchors and undo detect interference. This is exact tracking, not a guess.
//
// The log is bounded (oldest entries dropped); versions older than `oldestVersion()` have no
// history and callers fall back to content comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

namespace hashline {

/// One content change as whole lines, half-open: old lines [first_line, old_end_line) were
/// replaced by new lines [first_line, new_end_line). The recorder trims lines whose text is
/// identical at both ends, so the range is exact: typing "x" inside line 7 is {7, 8, 8}; pressing
/// Enter at the end of line 7 is {8, 8, 9} (line 7 keeps its text, a new empty line 8 appears);
/// inserting two whole lines before line 3 is {3, 3, 5}; deleting line 4 is {4, 5, 4}.
struct LineChange {
  std::int64_t version = 0; // the document version this change produced
  std::uint32_t first_line = 0;
  std::uint32_t old_end_line = 0;
  std::uint32_t new_end_line = 0;
};

/// What became of a line.
struct LineFate {
  enum Kind { Unchanged, Moved, Changed } kind = Unchanged;
  std::uint32_t line = 0; // current line (for Unchanged / Moved), else where the change is now
};

class ChangeLog {
public:
  explicit ChangeLog(std::size_t max_entries = 65536);

  /// Starts history at `version` (didOpen or a full-text replacement): everything older is gone.
  void reset(std::int64_t version);
  /// Appends one change. Versions must not decrease (several changes may share one); a change
  /// older than the current version restarts history at its version.
  void record(const LineChange& change);

  /// Moves the current version to `version` without a change (a notification that changed
  /// nothing still produces a version that anchors can be issued at).
  void advance(std::int64_t version) {
    if (version > current_version_) current_version_ = version;
  }

  std::int64_t currentVersion() const { return current_version_; }
  /// The oldest version from which lines can be mapped exactly.
  std::int64_t oldestVersion() const { return oldest_version_; }
  bool covers(std::int64_t version) const {
    return version >= oldest_version_ && version <= current_version_;
  }

  /// Carries `line` (0-based) as it was at `from_version` to the current version.
  /// nullopt when `from_version` is not covered.
  std::optional<LineFate> mapLine(std::int64_t from_version, std::uint32_t line) const;
  /// Whether any change after `from_version` touched lines [first, last] (inclusive, as at
  /// from_version), including insertions strictly between two of them (an insertion just before
  /// `first` or just after `last` does not touch). nullopt when not covered.
  std::optional<bool> rangeTouched(std::int64_t from_version, std::uint32_t first,
                                   std::uint32_t last) const;

  std::size_t size() const { return entries_.size(); }
  /// The recorded changes, oldest first.
  const std::deque<LineChange>& entries() const { return entries_; }

private:
  std::deque<LineChange> entries_;
  std::size_t max_entries_;
  std::int64_t current_version_ = 0;
  std::int64_t oldest_version_ = 0;
};

} // namespace hashline
