// Reconciler: foreign disk writes to open documents become merged, journaled buffer edits
// (issue 13; the protocol is docs/reconcile.md).
//
// For every open `file:` document it keeps the *base* — the text the buffer last had in common
// with the disk (read at didOpen, then the disk text after each own save or merge) — and the
// buffer's recent versions (O(1) rope snapshots, so a keystroke costs nothing more). The
// DirectoryWatcher (lsp/platform) reports events in the document's directory; after the file
// settles (quiet time, longer while a writer holds it open or when it became empty), it is read
// once (readSettled) and classified:
//   - equal to the base: nothing happened (touch, chmod, rewrite of the same bytes);
//   - equal to the buffer now or at a recent version: the editor's own save — the base moves,
//     open conflicts of the document are dropped (the user saved their side);
//   - otherwise a foreign write: merged (engine/merge/three_way.h) with base and the live buffer.
//     The disk hunks that do not overlap the user's unsaved changes go to the buffer as ONE
//     versioned applyEdit through HashlineService::applyToBuffer (re-merged against the new
//     buffer on a version race) and are journaled as one `reconcile` op by the configured agent;
//     the overlapping ones become conflicts (ConflictList) and are never applied. The base
//     becomes the disk text.
// Mode `clean` merges only buffers whose text equals the base; `off` watches nothing.
// A file that disappears (and stays away past a grace time) leaves the buffer as it is; the
// user is told once. Every outcome is sent as `hashline/reconciled`; conflicts also as
// `window/showMessage`. Methods `conflicts`, `resolve` and `attribute` are added to the agent
// service (`attribute`: the ACP proxy names the agent whose tool call writes a file next).
// Threading: the server's io_context thread.
#pragma once

#include "engine/merge/three_way.h"
#include "lsp/platform/directory_watcher.h"
#include "lsp/reconcile/conflict_list.h"
#include "lsp/reconcile/disk_read.h"
#include "lsp/reconcile/reconcile_options.h"
#include "lsp/reconcile/reconcile_requests.h"
#include "lsp/service/agent_service.h"
#include "lsp/service/buffer_applier.h"
#include "lsp/service/edit_observer.h"
#include "lsp/workspace/document_store.h"

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::lsp {

class LspServer;
class HashlineService;

class Reconciler {
public:
  Reconciler(LspServer& server, HashlineService& service, ReconcileOptions options);
  ~Reconciler();
  Reconciler(const Reconciler&) = delete;
  Reconciler& operator=(const Reconciler&) = delete;

  ReconcileMode mode() const { return options_.mode; }
  /// Changes the mode (initialize); `off` stops watching, others start with the open documents.
  void setMode(ReconcileMode mode);
  /// The editor is VS Code (initialize): see ReconcileOptions::adoptVsCode.
  void adoptVsCode() { options_.adoptVsCode(); }

  /// `conflicts {uri? | path?}` (reconcile_methods.cpp).
  void conflicts(const ConflictsRequest& request, ServiceCallback done);
  /// `resolve {conflict, take: "theirs" | "ours"}` (reconcile_methods.cpp).
  void resolve(const ResolveRequest& request, ServiceCallback done);
  /// `attribute {uri? | path?, agent, session?, seconds?}` (reconcile_methods.cpp): the merges
  /// of the file's foreign writes until then are journaled as this agent's.
  void attribute(const AttributeRequest& request, ServiceCallback done);

private:
  struct Tracked;
  void onDocumentEvent(const DocumentEvent& event);
  /// An edit hashline applied and journaled (the service's observer): marks the buffer version it
  /// made, so a disk write of that text is never taken for the editor's own reload.
  void onApplied(const AppliedEdit& edit);
  void track(const std::string& key, const OpenDocument& document);
  void untrack(const std::string& key);
  void onFileEvent(const std::string& directory, const std::string& name, std::uint32_t mask);
  void arm(Tracked& tracked, std::chrono::milliseconds after);
  void check(const std::string& key);
  /// The disk text is known and differs from the base: own save, or a foreign write to merge.
  void reconcile(Tracked& tracked, SharedFileBytes disk);
  /// The disk text is the base's (when that is cheap to know; see reconciler.cpp).
  bool unchangedOnDisk(const Tracked& tracked, const FileBytes& disk) const;
  /// One merge in flight: the three texts, the latest result, the buffer when it started.
  struct PendingMerge {
    SharedFileBytes base, theirs;
    merge::MergeResult last;
    Rope before;
    std::int64_t before_version = 0;
  };
  void merge(Tracked& tracked, SharedFileBytes disk);
  void onMergeDone(const std::string& key, const PendingMerge& state, Result<BufferApplied> outcome,
                   std::uint64_t op);
  void announceMerge(Tracked& tracked, const PendingMerge& state, const BufferApplied& applied,
                     std::uint64_t op);
  /// The merge found nothing to do because the editor reloaded the file itself: journal that.
  void journalRacingReload(Tracked& tracked, const PendingMerge& state);
  /// Who the journal says made a reconciled edit: session `disk`, the configured agent — or, for
  /// document `key`, the agent an unexpired `attribute` named.
  CallerIdentity diskCaller(const std::string& key = {}) const;
  /// The canonical URI a `uri` or `path` (relative: to the first root) names.
  std::optional<std::string> keyOf(const std::optional<std::string>& uri,
                                   const std::optional<std::string>& path) const;
  void finishMerge(const std::string& key);
  /// Waits (re-arms) until `limit` after the last write, for what the editor does on its own (its
  /// save's didChange or didSave, its reload of a clean buffer); false when that has passed.
  bool waitForEditor(Tracked& tracked, std::chrono::milliseconds limit,
                     bool while_mirror_moves = false);
  /// The editor reloaded the file itself: journal recent version `held` (from the one before).
  void journalEditorReload(Tracked& tracked, std::size_t held);
  void noteConflicts(const Tracked& tracked, const merge::MergeResult& result, std::int64_t version,
                     nlohmann::json& message);
  void announce(const Tracked& tracked, nlohmann::json message);
  Tracked* find(const std::string& key);
  /// Writes the open conflicts to the workspace's state directory (conflict_store.h), after
  /// every change, so a sidecar started again after a crash has them.
  void persistConflicts();
  /// Takes back the document's conflicts a crashed sidecar left that still hold (track()).
  void restoreConflicts(const Tracked& tracked, const OpenDocument& document);
  /// `<workspace state dir>/conflicts.json`, or "" when there is no root or it cannot be made.
  const std::string& conflictsFile();

  LspServer& server_;
  HashlineService& service_;
  ReconcileOptions options_;
  std::unique_ptr<platform::DirectoryWatcher> watcher_;
  std::size_t listener_id_ = 0;
  std::map<std::string, std::unique_ptr<Tracked>> tracked_; // canonical URI →
  std::map<std::string, std::string> by_path_;              // file path → canonical URI
  ConflictList conflicts_;
  std::string conflicts_file_;
  struct Attribution {
    CallerIdentity caller;
    std::chrono::steady_clock::time_point until;
  };
  std::map<std::string, Attribution> attributions_; // canonical URI →
  /// Unmaps spare read buffers once writes have stopped for their life (read_buffers.h).
  boost::asio::steady_timer spare_expiry_;
};

/// Adds `conflicts` / `resolve` to the service and starts the reconciler of `server`, its mode
/// taken from `hashline lsp --reconcile` (`fallback`) unless initializationOptions.reconcile
/// says otherwise.
void registerReconciler(LspServer& server, HashlineService& service, ReconcileOptions options);

/// Disk mode (no editor): `conflicts` lists none and `resolve` refuses, with a hint.
void addDiskModeConflictMethods(HashlineService& service);

} // namespace hashline::lsp
