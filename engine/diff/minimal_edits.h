// Minimal edits: an EditPlan rewritten as the smallest byte edits with the same effect.
//
// Editors keep cursors, folds, marks and undo granularity best when an edit touches only what
// changed. A plan edit replaces whole lines (e.g. a replace of lines 3–9 that changes one word);
// this pass diffs each plan edit's old bytes against its new bytes line by line (line_diff.h),
// then narrows every changed region to the differing characters: a region whose old and new line
// counts match is narrowed line by line, others as one block. Narrowing never splits a UTF-8
// sequence or a CRLF pair, so every boundary converts to an LSP position
// (Rope::positionOfByte) in any encoding.
//
// Output: ByteEdits on the plan's base text, sorted by `begin`, non-overlapping, with several
// insertions at one offset in text order — the EditPlan contract, so applyPlan gives the same
// text. The LSP layer converts them to TextEdits. Pure; thread-safe.
#pragma once

#include "engine/plan/edit_plan.h"
#include "engine/text/rope.h"

#include <string_view>
#include <vector>

namespace hashline {

/// The smallest edits turning `before` into `after`, offsets shifted by `base_offset`.
std::vector<ByteEdit> minimalEdits(std::string_view before, std::string_view after,
                                   std::size_t base_offset = 0);

/// The plan's edits narrowed to the bytes that actually change (see the file comment).
std::vector<ByteEdit> minimalEdits(const Rope& base, const EditPlan& plan);

/// The plan with its edits replaced by minimalEdits (rebases and warnings kept).
EditPlan minimizePlan(const Rope& base, const EditPlan& plan);

} // namespace hashline
