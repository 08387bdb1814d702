// PlanBuilder: turns the located replacements of any text form into one verified EditPlan.
//
// Every form ends the same way: some byte ranges of the base text, each with the agent's new text
// (line breaks as the agent wrote them). This step, shared by all forms:
//  - rejects overlaps, naming both edits (OVERLAPPING_EDITS); an insertion touching a replaced
//    span's edge is allowed, one strictly inside it is not;
//  - keeps untouched lines byte-exact: leading and trailing whole lines of a replacement that the
//    agent left unchanged (equal to the agent's old text or to the document's line) are trimmed
//    off, so the document's own bytes (trailing spaces, typographic quotes, CRLF) survive;
//  - writes new line breaks in the document's style (`Replacement::line_ending`);
//  - drops edits that change nothing; a plan with no edit left is NO_CHANGE.
// Pure; no I/O.
#pragma once

#include "engine/forms/line_table.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hashline::forms {

struct Replacement {
  std::size_t begin = 0; // bytes in the base text
  std::size_t end = 0;
  std::string new_text;                // as the agent wrote it (any line breaks)
  std::optional<std::string> old_text; // the agent's view of [begin, end), when it gave one
  std::string line_ending = "\n";      // written for every line break of new_text
  std::size_t edit_index = 0;          // request index, for messages and ordering
  std::string label = "edit";          // how messages name it ("edit", "chunk", "command")
  /// A line whose new text differs from the document's only in trailing whitespace counts as
  /// unchanged (and keeps the document's bytes); used by drafts, whose lines match loosely.
  bool ignore_trailing_whitespace = false;
  /// Write straight quotes of the changed lines as typographic ones (“ ” / ‘ ’), because the
  /// matched text uses them (Claude Code's quote-style preservation; old/new only).
  bool curly_double_quotes = false;
  bool curly_single_quotes = false;
};

struct BuildOptions {
  std::size_t edit_count = 1; // batch size for "edit i/n" prefixes
  bool allow_no_change = false;
};

/// `text` with straight quotes turned typographic: an opening quote after the start, whitespace
/// or an opening bracket, else a closing one (so apostrophes become ’).
std::string curlQuotes(std::string_view text, bool double_quotes, bool single_quotes);

/// Verifies and converts; `base_version` is copied into the plan.
Result<EditPlan> buildPlan(const LineTable& table, std::int64_t base_version,
                           std::vector<Replacement> replacements, const BuildOptions& options);

} // namespace hashline::forms
