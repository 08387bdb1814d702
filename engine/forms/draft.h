// The lazy-draft form (`draft`, the "apply model" format made deterministic): the agent sends the
// new text of a region in which unchanged stretches are elided by lines like
// `// ... existing code ...`; each elision is resolved against the current text by unique context.
//
// Elision lines (the whole trimmed line): `...` or `…` alone; `... words ...`; or a comment
// opener — `//`, `#`, `--`, `;`, `%`, `/*`, `{/*`, `<!--`, `(*` — followed by `...`/`…` and any
// text, with an optional closer (`*/`, `*/}`, `-->`, `*)`). Consecutive elision lines are one
// elision. A code line such as `...rest,` is not an elision (no opener, not a lone `...`).
//
// Resolution (docs/forms.md): literal stretches between elisions are located in file order. The
// line right before an elision and the line right after it must be unchanged lines of the file:
// the elision keeps everything between them. Context grows line by line (so `}` is extended with
// its neighbours) until it is unique in the rest of the file. A draft that does not start with an
// elision must start with an unchanged line (the region's first line) and likewise at its end.
// Lines compare trimmed and folded (indentation and Unicode look-alikes forgiven); lines the draft
// leaves unchanged keep their bytes. Errors name the elision (its index and its line in the
// draft): NOT_FOUND (context line not in the file), AMBIGUOUS (still several places, with
// lines); NO_CHANGE; the draft is written text (written_text.h: NOT_TEXT, MALFORMED_ANCHOR).
// NOT_OBSERVED and STALE_VERSION are the caller's checks, made first.
// Pure; no I/O.
#pragma once

#include "engine/forms/line_table.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <string_view>

namespace hashline::forms {

/// Whether a draft line stands for elided, unchanged text.
bool isElisionLine(std::string_view line);

Result<EditPlan> planDraft(const Rope& base, std::int64_t version, std::string_view draft);
Result<EditPlan> planDraft(const LineTable& table, std::int64_t version, std::string_view draft);

} // namespace hashline::forms
