// The ed-script form (`ed`): `a`, `i`, `c`, `d`, `m`, `t` and `s/re/rep/flags` commands addressed
// by line numbers (at a stated version) or by anchors, verified and planned as one batch.
//
// Parsing is separate from addressing: `parseEdScript` yields commands whose addresses are tokens
// (a number, `$`, or an anchor such as `12:c3d:rst`); the caller resolves them to current lines
// through an `EdAddressResolver` — anchors through the anchor verifier (engine/verify), numbers
// through `makeLineNumberResolver`, which rebases them from the stated version through the
// ChangeLog like the line-range form (STALE_ANCHOR / STALE_VERSION, see line_range.h).
//
// Syntax (one command per line; blank lines and `w`, `q`, `wq`, `Q` are ignored):
//   [addr]a / [addr]i / [range]c   then text lines, ended by a line holding only `.`
//   [range]d     [range]m<addr>    [range]t<addr>     [range]s/re/rep/[g][i][N]
// Addresses: N, $, an anchor; ranges: A,B, `,` or `%` (the whole file). `0a` inserts at the top,
// `m0`/`t0` move/copy to the top. `s` uses RE2 regular expressions (linear time, no recursion; no
// backreferences or lookaround: PATCH_INVALID with a hint), not POSIX BRE; in the replacement `&`
// is the match, `\1`-`\9` groups (a group the pattern lacks: PATCH_INVALID), `\&` a literal `&`,
// `\n` a line break, and `$` is literal. Any delimiter may follow `s`. With `g`, an empty match
// right after the previous match is skipped (as ed and sed: s/a*/-/g on baaac gives -b-c-).
// Semantics: every address refers to the original text (as the anchored ops: DESIGN §4), so the
// script is order-independent except that insertions at one place keep script order; commands
// touching the same lines → OVERLAPPING_EDITS (naming both commands); `s` matching no line of its
// range → NOT_FOUND; a/i/c text is written text (written_text.h: NOT_TEXT, MALFORMED_ANCHOR).
// Syntax errors → PATCH_INVALID with the script line. Pure; no I/O.
#pragma once

#include "engine/forms/line_range.h"
#include "engine/forms/line_table.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::forms {

struct EdAddress {
  enum Kind { Line, Last, Anchor } kind = Line;
  std::uint32_t line = 0; // Line: 1-based (0 = before the first line); Anchor: its stated line
  std::string anchor;     // Anchor: the token as written ("12:c3d:rst")
};

/// One address or a range of two.
struct EdRange {
  EdAddress first;
  std::optional<EdAddress> last;
};

struct EdCommand {
  char name = 'd'; // a i c d m t s
  EdRange range;
  std::optional<EdAddress> destination; // m, t
  std::vector<std::string> text;        // a, i, c
  std::string pattern, replacement;     // s
  bool global = false, ignore_case = false;
  unsigned occurrence = 0; // s: replace only the Nth match (0 = first, or all with g)
  std::size_t script_line = 0;
};

struct EdScript {
  std::vector<EdCommand> commands;
};

Result<EdScript> parseEdScript(std::string_view script);

/// Current lines [first, last] (1-based, inclusive) an address range designates; a single address
/// gives first == last (0 allowed for "before the first line").
struct EdLines {
  std::uint32_t first = 0;
  std::uint32_t last = 0;
  /// When the resolver carried the address from an older version: the line as stated (1-based),
  /// reported in EditPlan::rebased.
  std::optional<std::uint32_t> stated_first;
};
using EdAddressResolver = std::function<Result<EdLines>(const EdRange&, const LineTable&)>;

/// Resolves numbers and `$`; numbers stated at `at_version` are rebased through the history.
/// Anchor addresses are refused (MALFORMED_ANCHOR): combine with the anchor verifier for those.
EdAddressResolver makeLineNumberResolver(LineHistory history, std::int64_t at_version);

Result<EditPlan> planEdScript(const Rope& base, std::int64_t version, const EdScript& script,
                              const EdAddressResolver& resolve);
Result<EditPlan> planEdScript(const LineTable& table, std::int64_t version, const EdScript& script,
                              const EdAddressResolver& resolve);

} // namespace hashline::forms
