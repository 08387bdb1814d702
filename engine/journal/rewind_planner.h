// Rewind and diffs over the journal, per document (DESIGN §7).
//
// `planRewind` reverses a set of ops of ONE document on its current text, newest first, as one
// verified whole: each op's hunks still in effect are found in the text as it would be after
// reversing the newer ones (so a later op of the same set that touched an earlier op's lines is
// reversed first and is no conflict), and an op that had reverted hunks of another op in the set
// brings them back before that op is reached. Any hunk that cannot be found → CONFLICT, nothing
// planned. A delete op is reversed only on an empty document (else CONFLICT: the path holds
// another file now). A move op whose relocation is in effect is reversed whole: `{op, 0}` joins
// `reverts` after its hunks (the caller moves the file back). The caller (lsp/journal) runs this
// for every file of a turn before applying anything.
//
// `netDiff` is the unified diff from the text before the ops to now (empty when the ops cancel
// out); `commitDiff` renders an op's hunks as a unified diff with their recorded context.
// Pure; thread-safe.
#pragma once

#include "engine/journal/hunk_locator.h"
#include "engine/journal/journal_op.h"
#include "engine/support/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace hashline::journal {

struct RewindPlan {
  std::string text_after;       // the document with the ops reversed
  std::vector<HunkRef> reverts; // in the order they were reversed (newest op first)
};

/// `ops` oldest first, all of one document; `only` (optional) restricts to some hunks.
Result<RewindPlan> planRewind(std::string_view current, const std::vector<const JournalOp*>& ops,
                              std::string_view name);

/// Unified diff (labels a/<name>, b/<name>) from the text before `ops` to `current`.
Result<std::string> netDiff(std::string_view current, const std::vector<const JournalOp*>& ops,
                            std::string_view name);

/// The op's hunks as a unified diff (every hunk, also reverted ones).
std::string commitDiff(const JournalOp& op);

} // namespace hashline::journal
