// The journal model; see journal.h.
#include "engine/journal/journal.h"

#include <algorithm>

namespace hashline::journal {

const JournalOp& Journal::record(JournalOp op) {
  if (op.id == 0 || op.id <= last_id_) op.id = last_id_ + 1;
  last_id_ = op.id;
  noteTurn(op.session, op.turn);
  // A decision (undo, reject, rewind, rollback) is never work to review — also when an older
  // journal recorded its hunks as pending.
  if (op.isDecision())
    for (JournalHunk& hunk : op.hunks)
      if (hunk.state == HunkState::Pending || hunk.state == HunkState::Accepted)
        hunk.state = HunkState::Decision;
  ops_.push_back(std::move(op));
  const JournalOp& stored = ops_.back();
  for (const HunkRef& ref : stored.reverts)
    revertHunk(ref, stored.id);
  return ops_.back();
}

void Journal::revertHunk(HunkRef ref, std::uint64_t by) {
  JournalOp* target = findMutable(ref.op);
  if (!target) return;
  bool changed = false;
  for (JournalHunk& hunk : target->hunks) {
    if (ref.hunk != 0 && hunk.index != ref.hunk) continue;
    if (hunk.state == HunkState::Reverted) continue;
    hunk.state = HunkState::Reverted;
    hunk.reverted_by = by;
    changed = true;
  }
  // A whole move reverted: the file was moved back.
  if (ref.hunk == 0 && target->moveInEffect()) target->move_reverted_by = by;
  // A reverting op reverted as a whole puts back what it had reverted. (Also when its hunks
  // were already marked: a compacted journal stores states, and replay must reach the same.)
  (void)changed;
  if (!target->inEffect() && !target->reverts.empty()) {
    for (const HunkRef& undone : target->reverts) {
      JournalOp* original = findMutable(undone.op);
      if (!original) continue;
      for (JournalHunk& hunk : original->hunks) {
        if (undone.hunk != 0 && hunk.index != undone.hunk) continue;
        if (hunk.state == HunkState::Reverted && hunk.reverted_by == target->id) {
          hunk.state = original->liveState(); // an agent's hunk is pending review again
          hunk.reverted_by = 0;
        }
      }
      if (undone.hunk == 0 && original->kind == "move" && original->move_reverted_by == target->id)
        original->move_reverted_by = 0;
    }
  }
}

std::vector<HunkRef> Journal::setHunkState(HunkRef ref, HunkState state) {
  std::vector<HunkRef> changed;
  JournalOp* op = findMutable(ref.op);
  if (!op) return changed;
  for (JournalHunk& hunk : op->hunks) {
    if (ref.hunk != 0 && hunk.index != ref.hunk) continue;
    if (hunk.state == HunkState::Reverted || hunk.state == HunkState::Decision ||
        hunk.state == state)
      continue;
    hunk.state = state;
    changed.push_back({op->id, hunk.index});
  }
  return changed;
}

std::int64_t Journal::currentTurn(const std::string& session) const {
  auto it = turns_.find(session);
  return it == turns_.end() ? 1 : it->second;
}

std::int64_t Journal::beginTurn(const std::string& session, std::optional<std::int64_t> turn) {
  std::int64_t next = currentTurn(session) + 1;
  if (turn && *turn > next) next = *turn;
  turns_[session] = next;
  return next;
}

void Journal::noteTurn(const std::string& session, std::int64_t turn) {
  auto [it, inserted] = turns_.try_emplace(session, turn);
  if (!inserted && turn > it->second) it->second = turn;
}

const JournalOp* Journal::find(std::uint64_t id) const {
  return const_cast<Journal*>(this)->findMutable(id);
}

JournalOp* Journal::findMutable(std::uint64_t id) {
  // Ids increase along the deque: binary search.
  auto it = std::lower_bound(ops_.begin(), ops_.end(), id,
                             [](const JournalOp& op, std::uint64_t want) { return op.id < want; });
  if (it == ops_.end() || it->id != id) return nullptr;
  return &*it;
}

std::vector<const JournalOp*> Journal::query(const LogFilter& filter) const {
  std::vector<const JournalOp*> found;
  for (const JournalOp& op : ops_) {
    if (filter.session && op.session != *filter.session) continue;
    if (filter.turn && op.turn != *filter.turn) continue;
    if (filter.document && !filter.document(op)) continue;
    found.push_back(&op);
  }
  if (filter.limit != 0 && found.size() > filter.limit)
    found.erase(found.begin(), found.end() - static_cast<std::ptrdiff_t>(filter.limit));
  return found;
}

void Journal::dropOldest(std::size_t count) {
  count = std::min(count, ops_.size());
  ops_.erase(ops_.begin(), ops_.begin() + static_cast<std::ptrdiff_t>(count));
}

void Journal::clear() {
  ops_.clear();
  turns_.clear();
  last_id_ = 0;
}

} // namespace hashline::journal
