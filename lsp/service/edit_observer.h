// AppliedEdit: the record of one edit that really landed (an editor buffer confirmed at its new
// version, or a file written on disk), handed to observers — the seam for the journal, undo,
// rewind, log and diff (DESIGN §7), which hook in here without touching the apply pipeline.
//
// The texts are Ropes (O(1) snapshots): `before` is the text the plan was verified against and
// `after` what was committed (for a buffer: the mirror's text at `version_after`, which equals the
// prediction unless the user typed in the same notification). Observers run on the service's
// thread right after the commit and before the agent gets its answer; they must not block.
#pragma once

#include "engine/journal/journal_op.h"
#include "engine/plan/edit_plan.h"
#include "engine/text/rope.h"
#include "lsp/service/service_request.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

struct AppliedEdit {
  enum class Backend { Buffer, Disk } backend = Backend::Buffer;
  enum class Kind { Update, Create, Delete, Move } kind = Kind::Update;
  std::string method;    // "edit", "replace", ..., "patch", or "rollback"
  CallerIdentity caller; // session, agent, turn
  std::string uri;       // as the client spelled it (buffers) or file:// of the path (disk)
  std::optional<std::string> path;     // filesystem path, when there is one
  std::optional<std::string> moved_to; // Move: the new path
  std::int64_t version_before = 0;     // document version / fingerprint id
  std::int64_t version_after = 0;
  Rope before;
  Rope after;
  EditPlan plan;                         // byte edits against `before` (empty for Create/Delete)
  std::vector<journal::HunkRef> reverts; // hunks this edit reverts (undo, rewind, rollback)
  std::string intent; // buffers: the journal intent written before it was sent ("" for none)
};

/// The journal's name of an applied edit's kind ("update", "create", "delete", "move").
inline const char* journalKindName(AppliedEdit::Kind kind) {
  switch (kind) {
  case AppliedEdit::Kind::Update:
    return "update";
  case AppliedEdit::Kind::Create:
    return "create";
  case AppliedEdit::Kind::Delete:
    return "delete";
  case AppliedEdit::Kind::Move:
    return "move";
  }
  return "update";
}

using AppliedEditObserver = std::function<void(const AppliedEdit& edit)>;

} // namespace hashline::lsp
