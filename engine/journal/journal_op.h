// JournalOp / JournalHunk: the journal's record of one applied edit (DESIGN §7).
//
// An op is what really landed in one document — an editor buffer confirmed at `version_after`,
// or a file written on disk — split into hunks: maximal runs of changed whole lines. A hunk keeps
// the exact bytes before and after (lines with their terminators), its first line on both sides,
// and up to three unchanged context lines on each side, so it can be found again in a text that
// changed since (engine/journal/hunk_locator.h). Hunk ids are `op#k` (k from 1).
//
// Ops made by hashline itself (undo, rewind, reject, rollback) record which hunks they reverted,
// so the journal knows what is still in effect. A move (kind "move", `moved_to`) is also in
// effect as a relocation until an op reverts it whole (`{op, 0}`), which moves the file back
// (`move_reverted_by`); its hunks are the content changes made on the way. Plain data; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::journal {

// Pending: an agent's change nobody reviewed yet. Accepted: kept by a reviewer. Reverted: undone
// by a later op. Decision: a hunk of an op that itself reverts hunks (undo, reject, rewind,
// rollback) — a decision, never work to review.
enum class HunkState { Pending, Accepted, Reverted, Decision };

/// "pending", "accepted", "reverted", "decision".
std::string_view hunkStateName(HunkState state);
/// The inverse of hunkStateName; nullopt for an unknown name.
std::optional<HunkState> hunkStateFromName(std::string_view name);

struct JournalHunk {
  std::uint32_t index = 1;                 // k of `op#k`
  std::uint32_t before_line = 0;           // 0-based first line in the text before the op
  std::uint32_t after_line = 0;            // 0-based first line in the text after the op
  std::string before_text;                 // whole lines with terminators ("" for a pure insertion)
  std::string after_text;                  // whole lines with terminators ("" for a pure deletion)
  std::vector<std::string> context_before; // up to 3 unchanged lines just above (after text)
  std::vector<std::string> context_after;  // up to 3 unchanged lines just below
  bool context_reaches_start = false;      // context_before starts at the first line
  bool context_reaches_end = false;        // context_after ends at the last line
  HunkState state = HunkState::Pending;
  std::uint64_t reverted_by = 0; // op that reverted this hunk (state Reverted)

  std::uint32_t beforeLineCount() const;
  std::uint32_t afterLineCount() const;
};

/// `op#k`: which hunk of which op.
struct HunkRef {
  std::uint64_t op = 0;
  std::uint32_t hunk = 0; // 0: the whole op
  bool operator==(const HunkRef&) const = default;
};

/// "12" → {12, 0}; "12#3" → {12, 3}; also accepts a leading "op" ("op12#3"). nullopt if malformed.
std::optional<HunkRef> parseHunkRef(std::string_view text);
std::string formatHunkRef(HunkRef ref); // "12" or "12#3"

struct JournalOp {
  std::uint64_t id = 0;
  std::string method; // "edit", "replace", ..., "patch", "undo", "rewind", "reject", "rollback"
  std::string agent;  // may be empty
  std::string session = "default";
  std::int64_t turn = 1;
  std::string uri; // as recorded (client spelling for buffers, file:// for disk)
  std::optional<std::string> path;
  std::string name;    // display name (path relative to the workspace root, else path or URI)
  std::string backend; // "buffer" or "disk"
  std::string kind = "update"; // "update", "create", "delete", "move"
  std::optional<std::string> moved_to;
  std::uint64_t move_reverted_by = 0; // kind "move": the op that moved it back (0: in effect)
  std::int64_t version_before = 0;
  std::int64_t version_after = 0;
  std::int64_t time_ms = 0; // wall clock, ms since the epoch
  std::vector<JournalHunk> hunks;
  std::vector<HunkRef> reverts; // hunks this op reverted (undo / rewind / reject / rollback)

  /// Hunks still in effect (not reverted), or a relocation not moved back.
  bool inEffect() const;
  /// An op that reverts hunks (undo, reject, rewind, rollback): a decision, not work to review.
  bool isDecision() const { return !reverts.empty(); }
  /// The state a hunk of this op has while in effect: Decision for a decision, else Pending.
  HunkState liveState() const { return isDecision() ? HunkState::Decision : HunkState::Pending; }
  /// A move whose relocation is in effect (not moved back).
  bool moveInEffect() const { return kind == "move" && move_reverted_by == 0; }
  const JournalHunk* hunk(std::uint32_t index) const;
  JournalHunk* hunk(std::uint32_t index);
};

} // namespace hashline::journal
