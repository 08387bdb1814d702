// Finding journal hunks in a text that changed since, and planning their reversal (undo,
// reject, rewind — DESIGN §7).
//
// A hunk is found by content: the lines it left (`after_text`) must still be there, intact and
// adjacent to at least one of its unchanged context lines (or the file start/end the context
// reached); among several places, the one with the most matching context wins, then the one
// nearest the line where the op left it. Lines the user typed above or below only move it;
// typing that changed any of its lines — or both of its neighbours, which makes the place
// unprovable — is a CONFLICT that names the lines, and nothing is planned. Reversing puts the
// hunk's `before_text` back in place of its `after_text`, so the user's other typing stays.
//
// `HunkLocator` finds, in one pass over a text's lines, every place where one of the hunks' key
// lines occurs (a hunk's first line, or for a pure deletion its neighbours); each hunk located
// in it then costs its candidate places (usually one), not a scan of the text, so locating H
// hunks is O(lines + H) instead of O(lines × H) (`pending` after every agent edit, rewinds of
// long sessions). The pass hashes nothing but lines as long as some key line, and stores only
// the places of key lines: on a 100k-line buffer it costs a fraction of a millisecond. It answers
// exactly what a scan would (same place, same CONFLICT). `locateInPlace` is its fast path for a
// hunk still exactly where the op left it (the common case: the review signs refreshed right after
// an op): it reads only the hunk's lines and context from the Rope, O(hunk · log n), and answers
// only when that place is provably the one locate() would pick. Pure; thread-compatible.
#pragma once

#include "engine/journal/journal_op.h"
#include "engine/journal/line_source.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hashline::journal {

/// Where the key lines of `hunks` occur in `lines`. Keeps references to `lines` (and the text
/// they read) and to the hunks' texts: all must outlive the locator.
class HunkLocator {
public:
  HunkLocator(const LineSource& lines, const std::vector<const JournalHunk*>& hunks);

  /// The 0-based line where `hunk`'s after-lines start, or CONFLICT. `name` and `ref` are for
  /// the message. A hunk not given to the constructor costs one more pass over the lines.
  Result<std::uint32_t> locate(const JournalHunk& hunk, HunkRef ref, std::string_view name) const;

private:
  /// The lines (ascending) equal to `line`, which must be a key (see index).
  const std::vector<std::uint32_t>& placesOf(std::string_view line) const;
  /// Makes the key lines of `hunks` keys, finding their places in one pass over the lines.
  void index(const std::vector<const JournalHunk*>& hunks) const;

  const LineSource& lines_;
  mutable std::unordered_map<std::string_view, std::vector<std::uint32_t>> places_;
};

/// HunkLocator::locate's answer when the hunk is still exactly where the op left it: its
/// after-lines at `hunk.after_line` of `text` with every context line (and text end) it recorded
/// around them — no other place can score as high at distance 0. Otherwise nullopt: ask locate().
std::optional<std::uint32_t> locateInPlace(const Rope& text, const JournalHunk& hunk);

struct ReversalItem {
  HunkRef ref;
  const JournalHunk* hunk = nullptr;
};

struct LocatedHunk {
  HunkRef ref;
  std::uint32_t line = 0;       // 0-based, in the text the reversal was planned on
  std::uint32_t line_count = 0; // of its after-lines
};

struct Reversal {
  std::vector<ByteEdit> edits; // against the current text, sorted, non-overlapping
  std::vector<LocatedHunk> located;
  std::string text_after; // the current text with the hunks reversed
};

/// Plans reverting every item on `current`; CONFLICT if one is not found or two overlap.
Result<Reversal> planReversal(std::string_view current, const std::vector<ReversalItem>& items,
                              std::string_view name);

} // namespace hashline::journal
