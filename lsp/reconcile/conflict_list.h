// ConflictList: the disk hunks a reconciliation kept out of a buffer because they overlap the
// user's unsaved typing (issue 13). Each waits, with both sides' text, until the user takes the
// disk's side (`resolve … theirs`, a journaled edit), keeps theirs (`ours`), saves, or closes.
//
// `planTakeTheirs` finds the user's side again in the buffer as it is now — at the line it was
// reported at, else the nearest place holding exactly those lines — and plans replacing it with
// the disk's side; CONFLICT when the user's lines are gone (they changed since). Pure planning;
// the list itself is plain data.
#pragma once

#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

struct OpenConflict {
  std::string id;  // "c1", "c2", …
  std::string key; // canonical URI of the document
  std::string uri; // client spelling
  std::string path;
  std::size_t line = 0;     // 0-based first line of the user's side in the buffer when reported
  std::string ours;         // the user's lines (with terminators)
  std::string theirs;       // the disk's lines
  std::int64_t version = 0; // buffer version when reported
};

class ConflictList {
public:
  /// Stores `conflict` under a new id; returns it.
  const OpenConflict& add(OpenConflict conflict);
  /// Stores a conflict read back from disk (conflict_store.h) under its own id when that is
  /// free, else under a new one; later ids follow it.
  const OpenConflict& restore(OpenConflict conflict);
  const OpenConflict* find(const std::string& id) const;
  void remove(const std::string& id);
  /// Drops the document's conflicts (saved, closed, or superseded).
  void removeDocument(const std::string& key);
  /// Every open conflict, or the document's, oldest first.
  std::vector<const OpenConflict*> list(const std::optional<std::string>& key = {}) const;
  bool empty() const { return by_id_.empty(); }

private:
  std::uint64_t next_ = 1;
  std::map<std::uint64_t, OpenConflict> by_id_;
};

/// {id, uri, path, line, endLine, ours, theirs, version}; lines 1-based (endLine < line: the
/// user's side is empty and the conflict sits before `line`).
nlohmann::json conflictJSON(const OpenConflict& conflict);

/// The edit that replaces the user's side of `conflict` in `text` with the disk's side.
Result<EditPlan> planTakeTheirs(const OpenConflict& conflict, const Rope& text);

} // namespace hashline::lsp
