// HashlineService: the AgentService every transport calls (lsp/service/agent_service.h).
//
// Routes each call by document: a document open in the editor (the DocumentStore mirror, found
// by `uri`, or by `path` → file URI) goes to the BufferBackend (versioned workspace/applyEdit,
// confirmed by the mirror); anything else to the DiskBackend (workspace-confined, atomic
// writes) — both DocumentBackends (document_backend.h). Every mutation is a typed request,
// planned, then committed through its backend by the transaction runner (transaction.h), and
// journaled by the backend through this service (the ChangeLedger: log, journal, observer).
// Both backends share the ObservationStore — what each session read, at which version — keyed
// by canonical URI (file URIs for disk files).
//
// Two constructions:
//  - `forEditor(server)`: inside `hashline lsp`; buffers + disk (roots = the server's workspace
//    roots). Buffer edits answer asynchronously on the server's io_context, after the editor
//    confirmed; reads and disk work answer before `call` returns.
//  - `forDisk(roots)`: no editor (the in-process CLI, tests): everything answers synchronously,
//    before `call` returns; no io_context needed. Persist what sessions read across runs with
//    lsp/service/observation_json.h (ObservationFiles: `attach` to `observations()` before,
//    `save` after; pairs load lazily as requests name them).
//
// Methods: read, edit, replace, headtail, range, patch, draft, ed, status; and the journal's
// undo, reject, rewind, accept, pending, log, diff, turn (lsp/journal/journal_service.h, which
// records every applied edit). Applied edits are also reported to `setEditObserver`
// (edit_observer.h).
// Threading: single-threaded (the io_context's thread, or the caller's for forDisk).
#pragma once

#include "engine/anchors/line_hash_cache.h"
#include "engine/verify/observation.h"
#include "lsp/journal/buffer_intent.h"
#include "lsp/service/agent_service.h"
#include "lsp/service/buffer_backend.h"
#include "lsp/service/disk_backend.h"
#include "lsp/service/document_backend.h"
#include "lsp/service/edit_observer.h"
#include "lsp/service/service_options.h"
#include "lsp/service/service_request.h"
#include "lsp/service/service_target.h"
#include "lsp/service/transaction.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

class LspServer;
class JournalService;

class HashlineService : public AgentService, private ChangeLedger {
public:
  /// Inside `hashline lsp`: the server's mirror, roots, encoding and connection.
  static std::unique_ptr<HashlineService> forEditor(LspServer& server, ServiceOptions options = {});
  /// Disk only, confined to `roots` (directories; relative paths resolve against the first).
  static std::unique_ptr<HashlineService> forDisk(std::vector<std::string> roots,
                                                  ServiceOptions options = {});
  /// General form: `editor` may be null (disk only).
  HashlineService(std::optional<EditorLink> editor, std::function<std::vector<std::string>()> roots,
                  ServiceOptions options);
  ~HashlineService() override;

  void call(const std::string& method, nlohmann::json params, ServiceCallback done) override;
  std::vector<std::string> methods() const override;

  ObservationStore& observations() { return observations_; }
  const ObservationStore& observations() const { return observations_; }
  void setEditObserver(AppliedEditObserver observer) { observer_ = std::move(observer); }
  const ServiceOptions& options() const { return options_; }
  /// The editor's mirror of open documents (null without an editor).
  const DocumentStore* openDocuments() const { return editor_ ? editor_->documents : nullptr; }
  /// The journal (undo, rewind, review): records every applied edit.
  JournalService& journal() { return *journal_; }
  /// The editor this sidecar serves (initialize's processId, else the parent); pid 0 without one.
  ProcessIdentity editorProcess() const;

  /// A method another feature adds (the reconciler's `conflicts` and `resolve`).
  using MethodHandler = std::function<void(const nlohmann::json& params, ServiceCallback done)>;
  void addMethod(std::string name, MethodHandler handler);
  /// A field another feature adds to every `status` answer (the Claude IDE server's state).
  using StatusField = std::function<nlohmann::json()>;
  void addStatusField(std::string name, StatusField field) {
    status_fields_.emplace(std::move(name), std::move(field));
  }
  /// Wraps the answer of every mutating call (edit forms, patch, undo, reject, rewind) before it
  /// goes out: another feature adds to an applied result (the editor's diagnostics,
  /// lsp/context/diagnostics_service.h). Called when the call starts, so a hook can note the
  /// state before the edit; it returns the callback to use instead of `done`.
  using ResultHook = std::function<ServiceCallback(
      const std::string& method, const nlohmann::json& params, ServiceCallback done)>;
  void addResultHook(ResultHook hook) { result_hooks_.push_back(std::move(hook)); }
  /// The outcome of an edit the sidecar makes itself, and the journal op recording it (0: none).
  using OwnEditDone = std::function<void(Result<BufferApplied> outcome, std::uint64_t op)>;
  /// Applies an edit the sidecar itself makes (a reconciled disk write) to the open document
  /// `key` through the buffer pipeline, never asking for confirmation, and journals what landed
  /// as `method` by `caller`. Editor mode only.
  void applyToBuffer(const std::string& key, std::string method, CallerIdentity caller,
                     BufferPlanner planner, OwnEditDone done);
  /// Journals and announces a change that reached an open buffer another way (the editor
  /// reloaded a file hashline was about to merge); returns the op id (0: nothing recorded).
  std::uint64_t recordAppliedEdit(const AppliedEdit& edit) { return recordLanded(edit); }

  // For the mutations' front ends (patch_run.cpp, lsp/journal):
  /// Where a request's document is: open in the editor, or on disk.
  Result<ServiceTarget> locate(const DocumentRef& ref) const;
  /// The backend of `target`: the buffer's when it is open in the editor, else the disk's.
  DocumentBackend& backendFor(const ServiceTarget& target);
  BackendFor backends() {
    return [this](const ServiceTarget& target) -> DocumentBackend& { return backendFor(target); };
  }
  const DiskBackend& disk() const { return disk_; }
  /// The name diffs show: the path relative to its root, else the path, else the URI.
  std::string displayName(const ServiceTarget& target) const;
  /// The session's tier for a document (the default when it never read it).
  Tier tierFor(const std::string& session, const std::string& key) const;
  /// Fresh anchors around what `landed` changed, recorded in `session`'s observation of the
  /// document where it is now (a move's destination).
  std::vector<AnchoredRow> freshAnchors(const Committed& landed, const std::string& session);

private:
  using Target = ServiceTarget;

  void read(const ReadRequest& request, ServiceCallback done);
  void edit(FormRequest request, ServiceCallback done);
  /// Plans `request` on the document as it is when its commit runs.
  ChangePlanner formPlanner(std::shared_ptr<const FormRequest> request, const Target& target);
  void preview(const FormRequest& request, const Target& target, ServiceCallback done);
  void patch(PatchRequest request, ServiceCallback done);
  void status(const StatusRequest& request, ServiceCallback done);
  /// `done` that adds `confirmation` (off / requested / unsupported) to an edit's result.
  ServiceCallback withConfirmation(const CallerIdentity& caller, ServiceCallback done) const;
  /// `done` that adds the open reconciliation conflicts to a `pending` result.
  ServiceCallback withConflicts(const nlohmann::json& params, ServiceCallback done) const;
  std::vector<ResultHook> result_hooks_;
  // ChangeLedger: logs, journals and announces what landed; returns the journal op id.
  std::uint64_t recordLanded(const AppliedEdit& edit) override;
  std::uint64_t recordAround(const AppliedEdit& edit, const GatedWrite& write) override;
  std::string beginBufferIntent(const AppliedEdit& edit, const std::string& document) override;
  void abortBufferIntent(const std::string& id, const std::string& why) override;
  /// Logs what landed (`applied edit op 12 by claude, session s1, turn 1: …`) and tells the
  /// observer. `op`: its journal op (0: not journaled).
  void announce(const AppliedEdit& edit, std::uint64_t op);

  std::optional<EditorLink> editor_;
  DiskBackend disk_;
  ServiceOptions options_;
  ObservationStore observations_;
  std::unique_ptr<BufferBackend> buffers_; // editor mode only
  AppliedEditObserver observer_;
  std::unique_ptr<JournalService> journal_;
  std::map<std::string, MethodHandler> added_methods_;
  std::map<std::string, StatusField> status_fields_;
  std::size_t open_listener_ = 0;       // settles buffer intents as the editor opens documents
  mutable ProcessIdentity editor_seen_; // editorProcess(), its start time read once
};

} // namespace hashline::lsp
