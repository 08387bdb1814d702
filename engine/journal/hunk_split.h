// Splitting one applied change into journal hunks: the changed regions between the text before
// and the text after (line diff, engine/diff/line_diff.h), each with its exact bytes and up to
// `context_lines` unchanged lines on each side (taken from the after text). Called by the
// journal's recorder (lsp/journal) for every applied edit. Pure; thread-safe.
#pragma once

#include "engine/journal/journal_op.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace hashline::journal {

std::vector<JournalHunk> splitIntoHunks(std::string_view before, std::string_view after,
                                        std::size_t context_lines = 3);

} // namespace hashline::journal
