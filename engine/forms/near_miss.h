// NearMiss: what to tell an agent whose text was not found — the closest partial match and a
// numbered excerpt of the document around it.
//
// Used by every text form for NOT_FOUND errors. Lines are compared loosely (trimmed, folded); the
// closest match is the place where the most consecutive lines of the agent's text match, or, when
// no line matches, the line most similar to the agent's first non-blank line. Pure; no I/O.
#pragma once

#include "engine/forms/line_table.h"
#include "engine/support/error.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hashline::forms {

struct NearMiss {
  std::optional<std::size_t> line; // 0-based first line of the closest match
  std::size_t matching_lines = 0;  // consecutive needle lines that match there
  std::string note;                // one sentence for ErrorData::notes
  std::string excerpt;             // numbered rows ("  12: text")
};

NearMiss findNearMiss(const LineTable& table, std::string_view needle);

/// Fills `error.data` (current_text = excerpt, notes += note, candidate_lines) from a near miss.
void attachNearMiss(Error& error, const LineTable& table, std::string_view needle);

} // namespace hashline::forms
