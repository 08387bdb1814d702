// Three-way line merge: bring the changes one side made to a common base into the other side,
// keeping every region where both sides changed (issue 13: a foreign disk write merged into a
// buffer with unsaved typing).
//
// base = the text both last had in common, ours = the live buffer, theirs = the new disk text.
// Both sides are diffed against base line by line (engine/diff/line_diff.h; lines keep their
// terminators). Changed regions are grouped into clusters over base lines: regions of the two
// sides that overlap (share a base line), or that are both insertions at the same base line, are
// one cluster; touching regions are not (an edit of line 5 and one of line 6 both apply). A
// cluster only theirs changed is *taken*: its theirs lines replace the ours lines that hold the
// same base lines. A cluster only ours changed stays as it is. A cluster both changed is a
// *conflict* — unless both made the same change — and nothing of it is taken: ours keeps its text.
//
// The result is the edits that turn ours into the merged text (byte edits on ours, sorted,
// non-overlapping: the EditPlan contract), one per taken cluster, and the conflicts with both
// sides' text. Deterministic: the same three texts always give the same result. Pure.
//
// Cost O(change), not O(document): the lines all three texts share at the start and at the end
// are cut off before anything is split or diffed (with a Rope as ours, before any of it is
// materialized), and the result's offsets and line numbers are shifted back. The prefix ends
// after a line break all three share and the suffix starts after one, so every line cut off is a
// whole line identical in all three. A one-line agent change of a 100k-line buffer with the
// user's typing near it merges the few lines between the two.
#pragma once

#include "engine/plan/edit_plan.h"
#include "engine/text/rope.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::merge {

/// Lines [begin, end) (0-based) of one text.
struct LineRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool empty() const { return begin == end; }
  bool operator==(const LineRange&) const = default;
};

/// A cluster both sides changed differently: ours keeps its lines.
struct Conflict {
  LineRange base;   // the base lines both changed
  LineRange ours;   // where the user's side is in ours (and in the merged text: see below)
  LineRange theirs; // where the other side is in theirs
  std::string ours_text;
  std::string theirs_text;
};

/// A cluster only theirs changed, taken into ours.
struct TakenHunk {
  LineRange base;
  LineRange ours;   // the ours lines it replaced (the base lines, unchanged in ours)
  LineRange theirs; // the theirs lines put there
};

struct MergeResult {
  std::vector<ByteEdit> edits; // on ours: one per taken hunk
  std::vector<TakenHunk> taken;
  /// Conflicts, with `ours` ranges in ours' numbering; `mergedLine` maps them to the merged text.
  std::vector<Conflict> conflicts;
  /// Whether theirs and ours differ at all (false: nothing to do, nothing to report).
  bool differs = false;
};

/// Merges theirs' changes since base into ours (see the file comment).
MergeResult mergeThreeWay(std::string_view base, std::string_view ours, std::string_view theirs);
/// The same with the live buffer as ours; only the differing middle of it is materialized.
MergeResult mergeThreeWay(std::string_view base, const Rope& ours, std::string_view theirs);

/// The line of the merged text (ours with `result.edits` applied) where ours line `line` is,
/// for a line outside every taken hunk.
std::size_t mergedLine(const MergeResult& result, std::size_t ours_line);

} // namespace hashline::merge
