// The head/tail form: `{head, tail, new}` replaces the span from a unique `head` to the nearest
// `tail` after it (both included) with `new`.
//
// It lets an agent replace a long region (a whole function) by quoting only its first and last
// lines. `head` is found like old/new's old text (the same normalization ladder, unique at the
// loosest level, else AMBIGUOUS with its lines); `tail` is the first occurrence starting at or
// after the end of `head` (at the loosest level, so the nearest one wins); none → NOT_FOUND.
// `new` is written text (written_text.h: NOT_TEXT, MALFORMED_ANCHOR for pasted read prefixes).
// Several spans in one request are verified as one batch (overlaps → OVERLAPPING_EDITS); a
// result identical to the text → NO_CHANGE. As for old/new, NOT_OBSERVED and STALE_VERSION are
// the caller's checks, made before this. Pure; no I/O.
#pragma once

#include "engine/forms/line_table.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hashline::forms {

struct HeadTailEdit {
  std::string head;
  std::string tail;
  std::string new_text;
};

Result<EditPlan> planHeadTail(const Rope& base, std::int64_t version,
                              const std::vector<HeadTailEdit>& edits);
Result<EditPlan> planHeadTail(const LineTable& table, std::int64_t version,
                              const std::vector<HeadTailEdit>& edits);

} // namespace hashline::forms
