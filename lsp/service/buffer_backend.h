// BufferBackend: the DocumentBackend of documents open in the editor (DESIGN §6).
//
// A snapshot is the mirror (DocumentStore) as it is now — refused while it is desynced. A commit
// goes through the apply pipeline (BufferApplier: one versioned workspace/applyEdit per
// document, on the document's queue, confirmed when the mirror's didChange reaches the
// predicted text, re-planned after a version race) and is journaled once the mirror confirmed
// it; a commit that asks for it is journaled too if it lands after EDITOR_TIMEOUT. Each attempt
// is journaled as an intent before it is sent (lsp/journal/buffer_intent.h); the op names it,
// and a refusal settles it as not landed. A commit whose plan changes nothing sends nothing and
// only journals its intent (a revert whose hunks cancel out). Buffers are only ever updated:
// creating, deleting or moving a file behind its buffer is refused before it gets here.
// Owns the line hash caches of the open documents (one history per open: a reopen starts anew).
// Threading: single-threaded, on the server's io_context.
#pragma once

#include "lsp/service/buffer_applier.h"
#include "lsp/service/document_backend.h"

#include <map>
#include <memory>
#include <string>

namespace hashline::lsp {

class BufferBackend : public DocumentBackend {
public:
  BufferBackend(EditorLink link, ServiceOptions options, ChangeLedger& ledger);
  ~BufferBackend() override;
  BufferBackend(const BufferBackend&) = delete;
  BufferBackend& operator=(const BufferBackend&) = delete;

  Result<DocumentSnapshot> snapshot(const ServiceTarget& target) override;
  void commit(Commit commit, CommitDone done) override;

  /// How an edit whose request asked `confirm` (unset: the session default) is sent.
  Confirmation confirmationFor(std::optional<bool> confirm) const {
    return applier_->confirmationFor(confirm);
  }
  DocumentStore& documents() { return *link_.documents; }
  LineHashCache& cacheFor(const std::string& key) { return caches_[key]; }

private:
  DocumentSnapshot snapshotOf(const std::string& key, OpenDocument& open);
  /// The journal record of `applied`; `change`: the kind and reverts of its plan.
  AppliedEdit editOf(const Commit& commit, const PlannedChange& change,
                     const BufferApplied& applied) const;

  EditorLink link_;
  ChangeLedger& ledger_;
  std::unique_ptr<BufferApplier> applier_;
  std::map<std::string, LineHashCache> caches_; // open documents' line hash caches
  std::size_t cache_listener_ = 0;
};

} // namespace hashline::lsp
