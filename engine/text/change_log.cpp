// ChangeLog: exact line mapping through recorded LineChanges (see change_log.h).
#include "engine/text/change_log.h"

#include <algorithm>

namespace hashline {
namespace {

/// The first entry newer than `version` (entries are in version order).
std::deque<LineChange>::const_iterator firstAfter(const std::deque<LineChange>& entries,
                                                  std::int64_t version) {
  return std::upper_bound(
      entries.begin(), entries.end(), version,
      [](std::int64_t v, const LineChange& change) { return v < change.version; });
}

} // namespace

ChangeLog::ChangeLog(std::size_t max_entries) : max_entries_(max_entries == 0 ? 1 : max_entries) {}

void ChangeLog::reset(std::int64_t version) {
  entries_.clear();
  current_version_ = version;
  oldest_version_ = version;
}

void ChangeLog::record(const LineChange& change) {
  if (change.version < current_version_) {
    // History went backwards: nothing recorded so far can be trusted any more.
    reset(change.version);
    return;
  }
  entries_.push_back(change);
  current_version_ = change.version;
  while (entries_.size() > max_entries_) {
    // Mapping from version v needs every entry newer than v; once an entry of version w is
    // gone, only versions >= w can still be mapped.
    oldest_version_ = entries_.front().version;
    entries_.pop_front();
  }
}

std::optional<LineFate> ChangeLog::mapLine(std::int64_t from_version, std::uint32_t line) const {
  if (!covers(from_version)) return std::nullopt;
  const std::uint32_t original = line;
  bool changed = false;
  for (auto it = firstAfter(entries_, from_version); it != entries_.end(); ++it) {
    const LineChange& change = *it;
    if (line < change.first_line) continue;
    if (line >= change.old_end_line) {
      line = line - change.old_end_line + change.new_end_line;
    } else {
      // The line itself was replaced; from here on, follow where the replacement starts.
      changed = true;
      line = change.first_line;
    }
  }
  if (changed) return LineFate{LineFate::Changed, line};
  return LineFate{line == original ? LineFate::Unchanged : LineFate::Moved, line};
}

std::optional<bool> ChangeLog::rangeTouched(std::int64_t from_version, std::uint32_t first,
                                            std::uint32_t last) const {
  if (!covers(from_version)) return std::nullopt;
  if (last < first) return false;
  for (auto it = firstAfter(entries_, from_version); it != entries_.end(); ++it) {
    const LineChange& change = *it;
    const bool replaces = change.old_end_line > change.first_line;
    if (replaces) {
      if (change.first_line <= last && change.old_end_line > first) return true;
    } else if (change.new_end_line > change.first_line) {
      // A pure insertion before line first_line: touching when it lands between two lines.
      if (change.first_line > first && change.first_line <= last) return true;
    } else {
      continue; // records nothing
    }
    if (first >= change.old_end_line) {
      const std::int64_t delta = std::int64_t(change.new_end_line) - change.old_end_line;
      first = static_cast<std::uint32_t>(first + delta);
      last = static_cast<std::uint32_t>(last + delta);
    }
  }
  return false;
}

} // namespace hashline
