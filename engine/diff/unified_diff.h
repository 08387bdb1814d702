// Unified diff rendering (`diff -u` style) of a before/after text pair, for edit results,
// previews and the journal.
//
// Lines are compared byte-exactly including their terminators (a CRLF→LF change shows). Each
// printed line is its bytes up to, not including, a final LF, then LF — so a CRLF line shows its
// CR, like git. A last line without a terminator is followed by `\ No newline at end of file`.
// Hunk headers follow GNU diff: `@@ -l,c +l,c @@`, `,c` omitted when c is 1, and an empty side
// numbered by the line before it. Identical texts render as the empty string. Pure; thread-safe.
#pragma once

#include "engine/plan/edit_plan.h"
#include "engine/text/rope.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace hashline {

struct UnifiedDiffOptions {
  std::string old_label = "a";
  std::string new_label = "b";
  std::size_t context_lines = 3;
  std::size_t first_line_number = 1; // number of the first line of `before`/`after` (windows)
  /// Number of the first line of `after` when it differs from `before`'s (0: the same).
  std::size_t first_new_line_number = 0;
};

std::string unifiedDiff(std::string_view before, std::string_view after,
                        const UnifiedDiffOptions& options = {});

/// The diff of `base` against `base` with `plan` applied, computed only over the lines the plan
/// touches plus context — O(touched · log n), so a one-line edit of a huge file stays cheap, and
/// so does a patch of many hunks spread over it: edits more than 2·context+1 lines apart are
/// diffed in separate windows (they could never share a hunk). Equal to
/// unifiedDiff(base, applyPlan(base, plan)) for the same options, except that where runs of
/// identical lines let a change slide, the window may place it differently (equally minimal).
std::string unifiedDiffOfPlan(const Rope& base, const EditPlan& plan,
                              const UnifiedDiffOptions& options = {});

} // namespace hashline
