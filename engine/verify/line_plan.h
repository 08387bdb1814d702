// LinePlan: verified line-level operations → byte edits of an EditPlan.
//
// After anchors are resolved, every edit is one LineOp on the current text's read lines: replace
// lines [first, last] with `lines` (none = delete), or insert `lines` at a gap (0 = before line 1,
// N = after the last line). This file turns them into ByteEdits that keep everything else
// byte-exact:
//  - line endings written are the document's own: the ending of the line next to the edit (the
//    replaced span's last line, or the line the insertion follows), else the previous line's,
//    else LF — a CRLF document gets CRLF, a mixed one keeps each untouched line's ending;
//  - the final-newline state is kept: deleting or replacing the last line, or inserting after
//    it, leaves the text ending with a line break exactly when it did before;
//  - a BOM stays in front of line 1; deleting every line leaves an empty text (BOM kept);
//  - an empty text (no bytes, or just a BOM) has no final-newline state: lines written into it
//    end with LF each ("X\n").
// Ops come sorted by position (see `lineOpOrder`); same-position insertions keep request order.
// Pure; used by the verifier.
#pragma once

#include "engine/plan/edit_plan.h"
#include "engine/text/rope.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hashline {

struct LineOp {
  std::size_t request_index = 0;
  bool insert = false;
  std::uint32_t first = 0; // replace: first line; insert: gap (0..N)
  std::uint32_t last = 0;  // replace: last line (inclusive); insert: == first
  std::vector<std::string> lines;
};

/// Strict weak order placing ops in document order: an insertion at gap g sits before line g+1's
/// replacement; ties between insertions keep request order.
bool lineOpOrder(const LineOp& a, const LineOp& b);

/// The byte edit of one op on `text`.
ByteEdit lineOpToByteEdit(const Rope& text, const LineOp& op);

/// New-text line spans of each op (parallel to `ops`, which must be sorted by lineOpOrder):
/// first/last lines of the inserted or replacing lines, or for a deletion the line now at the
/// deletion point (first == last + 1 marks "no lines").
struct NewSpan {
  std::uint32_t first = 0;
  std::uint32_t last = 0;
};
std::vector<NewSpan> newLineSpans(const std::vector<LineOp>& ops);

} // namespace hashline
