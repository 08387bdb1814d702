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
// `HunkLocator` indexes a text's lines by content once (O(lines)); each hunk located in it then
// costs its candidate places (where its first line, or for a pure deletion a neighbour, occurs —
// usually one), not a scan of the text, so locating H hunks is O(lines + H) instead of
// O(lines × H) (`pending` after every agent edit, rewinds of long sessions). It answers exactly
// what a scan would (same place, same CONFLICT). `locateInPlace` is its fast path for a hunk
// still exactly where the op left it (the common case: the review signs refreshed right after
// an op): it reads only the hunk's lines and context from the Rope, O(hunk · log n), and answers
// only when that place is provably the one locate() would pick. Pure; thread-compatible.
#pragma once

#include "engine/journal/journal_op.h"
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

/// `lines` (one line per element, with terminators) indexed by content. Keeps a reference to
/// `lines` (and the text they view): both must outlive the locator.
class HunkLocator {
public:
  explicit HunkLocator(const std::vector<std::string_view>& lines);

  /// The 0-based line where `hunk`'s after-lines start, or CONFLICT. `name` and `ref` are for
  /// the message.
  Result<std::uint32_t> locate(const JournalHunk& hunk, HunkRef ref, std::string_view name) const;

private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  /// The first line equal to `line`, or kNone; `next_` chains the later ones, ascending.
  std::uint32_t first(std::string_view line) const;

  const std::vector<std::string_view>& lines_;
  std::unordered_map<std::string_view, std::uint32_t> first_;
  std::vector<std::uint32_t> next_;
};

/// HunkLocator::locate's answer when the hunk is still exactly where the op left it: its
/// after-lines at `hunk.after_line` of `text` with every context line (and text end) it recorded
/// around them — no other place can score as high at distance 0. Otherwise nullopt: ask locate().
std::optional<std::uint32_t> locateInPlace(const Rope& text, const JournalHunk& hunk);

/// One hunk in `lines` (builds a HunkLocator; use one locator for many hunks of one text).
Result<std::uint32_t> locateHunk(const std::vector<std::string_view>& lines,
                                 const JournalHunk& hunk, HunkRef ref, std::string_view name);

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
