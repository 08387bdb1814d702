// DocumentBackend: where a document's text lives and how a planned change is committed to it —
// the one seam every mutation goes through (DESIGN §6, "the path of a mutation").
//
// Two backends: BufferBackend (documents open in the editor: a versioned workspace/applyEdit,
// confirmed by the mirror's didChange; buffer_backend.h) and DiskBackend (files no editor has
// open: an atomic write under the workspace's ConfinedDir; disk_backend.h). Both offer
//   snapshot(target)        the document as it is now (text, version, and what verifies it);
//   commit(commit, done)    plan on the text as it is when the commit runs (again after a
//                           version race), write, and journal what landed — exactly once.
// The journal intent travels with the commit (ChangeIntent): a disk write is journaled around
// it (an fsynced intent, then the outcome), a buffer edit as an intent before its applyEdit is
// sent and as an op once the mirror confirmed it (lsp/journal/buffer_intent.h); either way the
// backend records it through the ChangeLedger, so nobody reports it a second time.
// Multi-file requests run their commits through the transaction runner (transaction.h).
// Threading: the service's thread; buffer commits answer later, on the io_context.
#pragma once

#include "engine/anchors/line_hash_cache.h"
#include "engine/journal/journal_op.h"
#include "engine/support/result.h"
#include "engine/verify/text_state.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/fingerprint.h"
#include "lsp/service/edit_observer.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/service_request.h"
#include "lsp/service/service_target.h"
#include "lsp/workspace/document_store.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

/// A document as it is now.
struct DocumentSnapshot {
  bool exists = true; // false: a disk file that does not exist (yet, or any more)
  Rope text;
  std::int64_t version = 0;
  OpenDocument* open = nullptr;   // buffers: the mirror's document (change log, read snapshots)
  LineHashCache* cache = nullptr; // buffers: the document's line hash cache
  std::optional<disk::Fingerprint> fingerprint; // disk: what the atomic write checks against

  TextState state() const {
    if (open) return TextState::ofDocument(open->document);
    return exists ? TextState::ofPlainText(text, version) : TextState::missing();
  }
};

/// One planned change of a document: its kind, the edit (against the snapshot's text; `after`
/// is what the document holds once it landed — empty for a delete), and the journal hunks it
/// reverts (undo, rewind, rollback).
struct PlannedChange {
  AppliedEdit::Kind kind = AppliedEdit::Kind::Update;
  PlannedEdit edit;
  std::vector<journal::HunkRef> reverts;
};
/// Plans on `now` (the text when the commit runs); `retry` after a version race (buffers).
using ChangePlanner = std::function<Result<PlannedChange>(const DocumentSnapshot& now, bool retry)>;
/// An update planned by `planned` (the forms' and the reconciler's planners).
inline Result<PlannedChange> asUpdate(Result<PlannedEdit> planned) {
  if (!planned) return std::move(planned).error();
  return PlannedChange{AppliedEdit::Kind::Update, std::move(*planned), {}};
}

/// Who makes a commit, for the journal (what it changes comes from its plan).
struct ChangeIntent {
  std::string method;    // "edit", "patch", "undo", "rollback", ...
  CallerIdentity caller; // session, agent, turn
};

struct Commit {
  ServiceTarget target;
  std::optional<ServiceTarget> destination; // a move (disk): where the document goes
  ChangePlanner plan;
  ChangeIntent intent;
  /// Disk: plan against this read instead of reading again (the write still refuses a file that
  /// changed since: STALE_VERSION). Buffers always plan on the live mirror.
  std::optional<DocumentSnapshot> base;
  std::optional<bool> confirm; // buffers: the request's wish for the user's confirmation
  std::string label;           // buffers: the applyEdit label ("hashline <method>" when empty)
  bool journal_late = false;   // buffers: journal an edit that lands after EDITOR_TIMEOUT
};

/// A commit that landed.
struct Committed {
  AppliedEdit edit;    // as journaled: `after` is the committed text (a buffer's mirror)
  PlannedEdit planned; // the plan that landed (re-planned after a race)
  ServiceTarget target;
  std::optional<ServiceTarget> destination;
  int attempts = 1;
  std::uint64_t op = 0; // the journal op (0: nothing recorded)
};
using CommitDone = std::function<void(Result<Committed> outcome)>;

/// Where the backends record what landed (the service: log, journal, observer).
class ChangeLedger {
public:
  virtual ~ChangeLedger() = default;
  /// Records a change that landed; returns its op id (0: nothing recorded).
  virtual std::uint64_t recordLanded(const AppliedEdit& edit) = 0;
  /// A disk write recorded by recordAround: passes `gate` to its atomic write
  /// (WriteOptions::before_publish) and returns whether it landed.
  using GatedWrite = std::function<bool(const disk::PublishGate& gate)>;
  /// Records a disk change around its write (an fsynced intent, `write`, the outcome); `write`
  /// returns whether it landed, and sets `edit.version_after` when it did (`edit` is announced
  /// as it is then). Returns the op id (0: not landed, or nothing to record).
  virtual std::uint64_t recordAround(const AppliedEdit& edit, const GatedWrite& write) = 0;
  /// Journals a buffer edit about to be sent to the editor as an intent (`edit` as predicted:
  /// `after` the predicted text); returns the id recordLanded's `edit.intent` or
  /// abortBufferIntent names ("" when nothing was journaled).
  virtual std::string beginBufferIntent(const AppliedEdit& edit, const std::string& document) = 0;
  /// The buffer edit of intent `id` did not land.
  virtual void abortBufferIntent(const std::string& id, const std::string& why) = 0;
};

class DocumentBackend {
public:
  virtual ~DocumentBackend() = default;
  /// The document as it is now: FILE_NOT_FOUND / DESYNCED / NOT_TEXT / IO_ERROR. A disk file
  /// that does not exist is a snapshot with `exists` false.
  virtual Result<DocumentSnapshot> snapshot(const ServiceTarget& target) = 0;
  /// Plans, writes and journals `commit`; `done` runs exactly once (buffers: later).
  virtual void commit(Commit commit, CommitDone done) = 0;
};

} // namespace hashline::lsp
