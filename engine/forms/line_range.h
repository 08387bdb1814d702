// The line-range form: `{start, end, content, version}` replaces lines start..end (1-based,
// inclusive) as they were at `version` with `content`, rebased exactly to the current text.
//
// A line number is only meaningful with the version it was read at, so the version is required.
// When it is not the current version, the lines are carried through the document's ChangeLog
// (engine/text/change_log.h): if any change since touched those lines (or landed between two of
// them), the edit is refused with STALE_ANCHOR (the lines the agent addressed changed; data holds
// their current text and line); when the log cannot vouch at all — no log, a version older than
// its history, or a version newer than the text — it is STALE_VERSION (re-read). Rebased lines
// are reported in EditPlan::rebased. `rebaseLines` is shared with the ed form.
//
// Content is the new text of the lines: one final line break is optional ("x" and "x\n" are the
// same one line), "" deletes the lines, "\n" is one empty line. `end = start - 1` inserts before
// line `start` (start = line count + 1 appends). New line breaks take the ending of the first
// replaced line (or the document's first ending); deleting an unterminated last line keeps the
// file without a final line break. Errors: NOT_TEXT / MALFORMED_ANCHOR (content, written_text.h),
// OUT_OF_RANGE (lines past the end, start < 1,
// end < start - 1), OVERLAPPING_EDITS within a batch, NO_CHANGE. Pure; no I/O.
#pragma once

#include "engine/forms/line_table.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/change_log.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hashline::forms {

struct LineRangeEdit {
  std::uint32_t start_line = 0; // 1-based
  std::uint32_t end_line = 0;   // 1-based inclusive; start_line - 1 for an insertion
  std::string content;
  std::int64_t version = 0; // the version the line numbers were read at
};

/// Where to find history: the document's log and its current version (== the base's version).
struct LineHistory {
  const ChangeLog* log = nullptr; // may be null: then only the current version is accepted
  std::int64_t current_version = 0;
};

/// Lines [first, last] (0-based, inclusive; last = first - 1 for the gap before `first`) read at
/// `from_version`, carried to the current version. `line_count` is the current number of lines.
struct RebasedLines {
  std::uint32_t first = 0; // 0-based in the current text
  std::uint32_t last = 0;
  bool moved = false;
};
Result<RebasedLines> rebaseLines(const LineHistory& history, const LineTable& table,
                                 std::int64_t from_version, std::int64_t first, std::int64_t last);

/// Replacement of current lines [first, last] (0-based; last = first - 1 inserts before first)
/// by `lines`, with the document's line endings. Shared by line range, ed and draft.
struct LineSplice {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text; // with final line endings
};
LineSplice spliceLines(const LineTable& table, std::int64_t first, std::int64_t last,
                       const std::vector<std::string>& lines);

Result<EditPlan> planLineRange(const Rope& base, const LineHistory& history,
                               const std::vector<LineRangeEdit>& edits);
Result<EditPlan> planLineRange(const LineTable& table, const LineHistory& history,
                               const std::vector<LineRangeEdit>& edits);

} // namespace hashline::forms
