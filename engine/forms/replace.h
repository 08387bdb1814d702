// The old/new form (`replace`, pi / Claude Code / dsh style): `{old, new, replace_all?}` edits,
// alone or in a batch, each matched against the same original text (never incrementally).
//
// Matching goes up the normalization ladder of text_search.h (exact, then trailing whitespace per
// line, then the NFKC subset + typographic folds); uniqueness is counted at the loosest level.
// Only the matched bytes change, and lines the agent left unchanged inside a match keep their
// bytes (plan_builder.h). New text is inserted literally (`$&`, `$1`, `\n` are just characters)
// and its line breaks take the ending of the line the match starts on (mixed files stay mixed);
// where the match needed folding because the file writes quotes typographically, the changed
// lines' straight quotes are written in that style (Claude Code's quote-style preservation).
//
// Checks and their order, per edit in request order, then for the batch:
//   new text not text / carrying pasted read prefixes → NOT_TEXT / MALFORMED_ANCHOR
//   (written_text.h); empty old → NOT_FOUND; no match → NOT_FOUND (closest partial match + numbered
//   excerpt in data); several matches without replace_all → AMBIGUOUS (count, lines); then overlaps
//   between edits → OVERLAPPING_EDITS (names both); then nothing changes → NO_CHANGE.
// The caller checks NOT_OBSERVED (the session never read the file) and then STALE_VERSION (the
// text it read is not the current one) *before* calling: staleness is reported before
// not-found/ambiguous (dsh's order, DESIGN §4).
// Pure; no I/O.
#pragma once

#include "engine/forms/line_table.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hashline::forms {

struct OldNewEdit {
  std::string old_text;
  std::string new_text;
  bool replace_all = false;
};

/// Plans a batch of old/new edits against `base` (the text at `version`).
Result<EditPlan> planReplace(const Rope& base, std::int64_t version,
                             const std::vector<OldNewEdit>& edits);
/// Same on a flat text (what planReplace does after flattening the Rope).
Result<EditPlan> planReplace(const LineTable& table, std::int64_t version,
                             const std::vector<OldNewEdit>& edits);

} // namespace hashline::forms
