// ConflictList and taking the disk's side; see conflict_list.h.
#include "lsp/reconcile/conflict_list.h"

#include "engine/diff/line_diff.h"

#include <algorithm>
#include <cstdlib>

namespace hashline::lsp {

namespace {

std::uint64_t numberOf(const std::string& id) {
  if (id.size() < 2 || id[0] != 'c') return 0;
  char* end = nullptr;
  unsigned long long number = std::strtoull(id.c_str() + 1, &end, 10);
  return end && *end == '\0' ? number : 0;
}

} // namespace

const OpenConflict& ConflictList::add(OpenConflict conflict) {
  const std::uint64_t number = next_++;
  conflict.id = "c" + std::to_string(number);
  return by_id_.emplace(number, std::move(conflict)).first->second;
}

const OpenConflict& ConflictList::restore(OpenConflict conflict) {
  const std::uint64_t number = numberOf(conflict.id);
  if (number == 0 || by_id_.count(number)) return add(std::move(conflict));
  next_ = std::max(next_, number + 1);
  return by_id_.emplace(number, std::move(conflict)).first->second;
}

const OpenConflict* ConflictList::find(const std::string& id) const {
  auto found = by_id_.find(numberOf(id));
  return found == by_id_.end() ? nullptr : &found->second;
}

void ConflictList::remove(const std::string& id) {
  by_id_.erase(numberOf(id));
}

void ConflictList::removeDocument(const std::string& key) {
  for (auto it = by_id_.begin(); it != by_id_.end();)
    it = it->second.key == key ? by_id_.erase(it) : std::next(it);
}

std::vector<const OpenConflict*> ConflictList::list(const std::optional<std::string>& key) const {
  std::vector<const OpenConflict*> out;
  for (const auto& [number, conflict] : by_id_)
    if (!key || conflict.key == *key) out.push_back(&conflict);
  return out;
}

nlohmann::json conflictJSON(const OpenConflict& conflict) {
  const std::size_t our_lines = splitLinesKeepingEnds(conflict.ours).size();
  return {{"id", conflict.id},
          {"uri", conflict.uri},
          {"path", conflict.path},
          {"line", conflict.line + 1},
          {"endLine", conflict.line + our_lines},
          {"ours", conflict.ours},
          {"theirs", conflict.theirs},
          {"version", conflict.version}};
}

Result<EditPlan> planTakeTheirs(const OpenConflict& conflict, const Rope& text) {
  const std::string current = text.toString();
  const std::vector<std::string_view> lines = splitLinesKeepingEnds(current);
  const std::vector<std::string_view> ours = splitLinesKeepingEnds(conflict.ours);
  auto holdsOursAt = [&](std::size_t at) {
    if (at + ours.size() > lines.size()) return false;
    for (std::size_t i = 0; i < ours.size(); ++i)
      if (lines[at + i] != ours[i]) return false;
    return true;
  };
  // The reported line first, then outwards: the nearest place holding exactly the user's lines.
  std::optional<std::size_t> at;
  if (ours.empty()) {
    if (conflict.line <= lines.size()) at = conflict.line;
  } else {
    for (std::size_t distance = 0; !at && distance <= lines.size(); ++distance) {
      if (conflict.line >= distance && holdsOursAt(conflict.line - distance))
        at = conflict.line - distance;
      else if (distance && holdsOursAt(conflict.line + distance))
        at = conflict.line + distance;
    }
  }
  if (!at) {
    Error error = Error::make(ErrorCode::Conflict, "the lines of conflict " + conflict.id +
                                                       " changed since it was reported");
    error.withHint("keep your text, or edit it by hand; `hashline conflicts` shows both sides");
    error.data.path = conflict.path;
    return error;
  }
  auto byteAt = [&](std::size_t line) {
    return line < lines.size() ? static_cast<std::size_t>(lines[line].data() - current.data())
                               : current.size();
  };
  EditPlan plan;
  plan.edits.push_back({byteAt(*at), byteAt(*at + ours.size()), conflict.theirs});
  return plan;
}

} // namespace hashline::lsp
