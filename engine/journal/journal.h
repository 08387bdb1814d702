// Journal: the in-memory model of one workspace's journal (DESIGN §7) — the applied ops in
// order, each session's current turn, and each hunk's review state. No I/O: lsp/journal
// persists the records this model is rebuilt from (`record`, `setHunkState`, `beginTurn` replay
// in file order) and decides which documents an op belongs to.
//
// Ops get increasing ids. An op that reverts hunks (undo, rewind, reject, rollback) marks them
// Reverted by it; when every hunk of such an op is itself reverted, the hunks it had reverted
// are back in effect (Pending again). The hunks of an op that reverts are Decision: a user's
// (or an agent's) decision is journaled like any op but never listed as pending review. Turns: a
// caller may name its turn on every call; otherwise the session's current turn (1 until
// `beginTurn`). Bounded by the persistence layer
// (`dropOldest`). Not thread-safe: the owner serializes access.
#pragma once

#include "engine/journal/journal_op.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hashline::journal {

struct LogFilter {
  std::optional<std::string> session;
  std::optional<std::int64_t> turn;
  std::function<bool(const JournalOp&)> document; // null: every document
  std::size_t limit = 0;                          // 0: no limit (newest kept)
};

class Journal {
public:
  /// Records `op`; a zero id gets the next one (replay keeps the recorded id). Applies the op's
  /// `reverts`. Returns the stored op.
  const JournalOp& record(JournalOp op);
  /// Review state of one hunk (`ref.hunk` != 0) or of every hunk of an op; Reverted and
  /// Decision hunks keep their state. Returns the refs changed; empty when the op is unknown.
  std::vector<HunkRef> setHunkState(HunkRef ref, HunkState state);

  /// The session's current turn (1 when it never began one).
  std::int64_t currentTurn(const std::string& session) const;
  /// Starts the next turn of `session` (or `turn` when given and greater); returns it.
  std::int64_t beginTurn(const std::string& session, std::optional<std::int64_t> turn = {});
  /// A call naming its turn moves the session's current turn forward to it.
  void noteTurn(const std::string& session, std::int64_t turn);
  const std::map<std::string, std::int64_t>& turns() const { return turns_; }

  const JournalOp* find(std::uint64_t id) const;
  /// Ops matching `filter`, oldest first (the newest `limit` when limited).
  std::vector<const JournalOp*> query(const LogFilter& filter) const;
  const std::deque<JournalOp>& ops() const { return ops_; }
  std::uint64_t lastId() const { return last_id_; }
  /// Forgets the `count` oldest ops (bounds).
  void dropOldest(std::size_t count);
  void clear();

private:
  JournalOp* findMutable(std::uint64_t id);
  void revertHunk(HunkRef ref, std::uint64_t by);

  std::deque<JournalOp> ops_;
  std::uint64_t last_id_ = 0;
  std::map<std::string, std::int64_t> turns_;
};

} // namespace hashline::journal
