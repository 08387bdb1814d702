// HashlineService: the AgentService every transport calls (lsp/service/agent_service.h).
//
// Routes each call by document: a document open in the editor (the DocumentStore mirror, found
// by `uri`, or by `path` → file URI) goes to the buffer pipeline (BufferApplier: versioned
// workspace/applyEdit, confirmed by the mirror); anything else goes to the disk backend
// (DiskBackend: workspace-confined, atomic writes). Both share the ObservationStore — what each
// session read, at which version — keyed by canonical URI (file URIs for disk files).
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
#include "lsp/service/agent_service.h"
#include "lsp/service/buffer_applier.h"
#include "lsp/service/disk_backend.h"
#include "lsp/service/edit_observer.h"
#include "lsp/service/service_options.h"
#include "lsp/service/service_request.h"
#include "lsp/service/service_target.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

class LspServer;
class JournalService;

class HashlineService : public AgentService {
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
  /// The journal (undo, rewind, review): records every applied edit.
  JournalService& journal() { return *journal_; }

  /// A method another feature adds (the reconciler's `conflicts` and `resolve`).
  using MethodHandler = std::function<void(const nlohmann::json& params, ServiceCallback done)>;
  void addMethod(std::string name, MethodHandler handler);
  /// The outcome of an edit the sidecar makes itself, and the journal op recording it (0: none).
  using OwnEditDone = std::function<void(Result<BufferApplied> outcome, std::uint64_t op)>;
  /// Applies an edit the sidecar itself makes (a reconciled disk write) to the open document
  /// `key` through the buffer pipeline, never asking for confirmation, and journals what landed
  /// as `method` by `caller`. Editor mode only.
  void applyToBuffer(const std::string& key, std::string method, CallerIdentity caller,
                     BufferPlanner planner, OwnEditDone done);
  /// Journals and announces a change that reached an open buffer another way (the editor
  /// reloaded a file hashline was about to merge); returns the op id (0: nothing recorded).
  std::uint64_t recordAppliedEdit(const AppliedEdit& edit) { return report(edit); }

private:
  using Target = ServiceTarget;
  Result<Target> locate(const DocumentRef& ref) const;
  LineHashCache& cacheFor(const std::string& key);
  /// The name diffs show: the path relative to its root, else the path, else the URI.
  std::string displayName(const Target& target) const;

  void read(const ReadRequest& request, ServiceCallback done);
  void edit(FormRequest request, ServiceCallback done);
  void editBuffer(FormRequest request, Target target, ServiceCallback done);
  /// The journal record of an edit that landed in an open buffer.
  AppliedEdit bufferRecord(const FormRequest& request, const Target& target,
                           const BufferApplied& applied) const;
  void editDisk(const FormRequest& request, const Target& target, ServiceCallback done);
  void patch(PatchRequest request, ServiceCallback done);
  void status(const StatusRequest& request, ServiceCallback done);
  /// `done` that adds `confirmation` (off / requested / unsupported) to an edit's result.
  ServiceCallback withConfirmation(const CallerIdentity& caller, ServiceCallback done) const;
  /// `done` that adds the open reconciliation conflicts to a `pending` result.
  ServiceCallback withConflicts(const nlohmann::json& params, ServiceCallback done) const;
  /// Journals and announces a landed edit; returns its journal op id (0: nothing recorded).
  std::uint64_t report(const AppliedEdit& edit);

  friend class PatchRun;
  friend class JournalService;
  friend class RevertRun;

  std::optional<EditorLink> editor_;
  DiskBackend disk_;
  ServiceOptions options_;
  ObservationStore observations_;
  std::unique_ptr<BufferApplier> applier_;
  std::map<std::string, LineHashCache> caches_; // open documents' line hash caches
  std::size_t cache_listener_ = 0;
  AppliedEditObserver observer_;
  std::unique_ptr<JournalService> journal_;
  std::map<std::string, MethodHandler> added_methods_;
};

} // namespace hashline::lsp
