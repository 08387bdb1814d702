// Commits to documents open in the editor through the apply pipeline; see buffer_backend.h.
#include "lsp/service/buffer_backend.h"

namespace hashline::lsp {

BufferBackend::BufferBackend(EditorLink link, ServiceOptions options, ChangeLedger& ledger)
    : link_(link), ledger_(ledger), applier_(std::make_unique<BufferApplier>(link, options)) {
  // A document's line hash cache lives while it is open; a reopen starts a new history.
  cache_listener_ = link_.documents->addListener([this](const DocumentEvent& event) {
    if (event.kind == DocumentEvent::Opened || event.kind == DocumentEvent::Closed)
      caches_.erase(event.key);
  });
}

BufferBackend::~BufferBackend() {
  link_.documents->removeListener(cache_listener_);
}

DocumentSnapshot BufferBackend::snapshotOf(const std::string& key, OpenDocument& open) {
  DocumentSnapshot now;
  now.text = open.document.text();
  now.version = open.document.version();
  now.open = &open;
  now.cache = &cacheFor(key);
  return now;
}

Result<DocumentSnapshot> BufferBackend::snapshot(const ServiceTarget& target) {
  Result<const OpenDocument*> readable = link_.documents->readable(target.key);
  if (!readable) return std::move(readable).error();
  return snapshotOf(target.key, *link_.documents->find(target.key));
}

AppliedEdit BufferBackend::editOf(const Commit& commit, const PlannedChange& change,
                                  const BufferApplied& applied) const {
  AppliedEdit edit;
  edit.backend = AppliedEdit::Backend::Buffer;
  edit.kind = change.kind;
  edit.method = commit.intent.method;
  edit.caller = commit.intent.caller;
  edit.uri = applied.uri;
  edit.path = commit.target.path;
  edit.version_before = applied.version_before;
  edit.version_after = applied.version_after;
  edit.before = applied.planned.before;
  edit.after = applied.committed;
  edit.plan = applied.planned.plan;
  edit.reverts = change.reverts;
  return edit;
}

void BufferBackend::commit(Commit commit, CommitDone done) {
  auto shared = std::make_shared<Commit>(std::move(commit));
  // What the last plan said besides the edit (the applier keeps the edit).
  auto plan = std::make_shared<PlannedChange>();
  BufferPlanner planner = [this, shared, plan](OpenDocument& open,
                                               bool retry) -> Result<PlannedEdit> {
    Result<PlannedChange> change = shared->plan(snapshotOf(shared->target.key, open), retry);
    if (!change) return std::move(change).error();
    plan->kind = change->kind;
    plan->reverts = std::move(change->reverts);
    return std::move(change->edit);
  };
  // The journal intent of the attempt sent last ("" before the first, or when not journaled).
  auto intent = std::make_shared<std::string>();
  BufferSends sends;
  sends.sending = [this, shared, plan, intent](const OpenDocument& open, const PlannedEdit& planned,
                                               std::int64_t version) {
    if (!intent->empty()) // sent again: the previous attempt did not land
      ledger_.abortBufferIntent(*intent, "the editor did not apply it; sent again");
    BufferApplied predicted;
    predicted.uri = open.uri;
    predicted.version_before = version;
    predicted.planned = planned;
    predicted.committed = planned.after;
    *intent = ledger_.beginBufferIntent(editOf(*shared, *plan, predicted), shared->target.key);
  };
  sends.not_landed = [this, intent](const std::string& why) {
    ledger_.abortBufferIntent(*intent, why);
    intent->clear();
  };
  BufferLate late;
  if (shared->journal_late) // reported EDITOR_TIMEOUT, then applied after all: journal it
    late = [this, shared, plan, intent](BufferApplied applied) {
      AppliedEdit edit = editOf(*shared, *plan, applied);
      edit.intent = *intent;
      ledger_.recordLanded(edit);
    };
  std::string label = shared->label.empty() ? "hashline " + shared->intent.method : shared->label;
  applier_->apply(
      shared->target.key, std::move(label), std::move(planner),
      [this, shared, plan, intent, done = std::move(done)](Result<BufferApplied> outcome) {
        if (!outcome) return done(std::move(outcome).error());
        // Text forms compare against the pinned text of the version the agent last saw.
        if (OpenDocument* open = link_.documents->find(shared->target.key))
          open->document.keepSnapshot();
        Committed landed;
        landed.edit = editOf(*shared, *plan, *outcome);
        landed.edit.intent = *intent;
        landed.planned = std::move(outcome->planned);
        landed.target = shared->target;
        landed.attempts = outcome->attempts;
        landed.op = ledger_.recordLanded(landed.edit);
        done(std::move(landed));
      },
      shared->confirm, std::move(late), std::move(sends));
}

} // namespace hashline::lsp
