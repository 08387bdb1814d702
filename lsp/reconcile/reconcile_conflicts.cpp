// The reconciler's open conflicts kept on disk across a crash of the sidecar (issue 31;
// conflict_store.h): written after every change, taken back when the editor opens the document
// again in a new sidecar.
#include "lsp/disk/state_dir.h"
#include "lsp/reconcile/conflict_store.h"
#include "lsp/reconcile/tracked_document.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"

namespace hashline::lsp {

const std::string& Reconciler::conflictsFile() {
  if (!conflicts_file_.empty()) return conflicts_file_;
  std::vector<std::string> roots = service_.disk().roots(); // canonical, as the journal's
  if (roots.empty()) return conflicts_file_;
  Result<std::string> directory = disk::workspaceStateDirectory(roots.front());
  if (!directory) {
    log::warn("reconcile: open conflicts are kept in memory only: ", directory.error().message);
    return conflicts_file_;
  }
  conflicts_file_ = *directory + "/conflicts.json";
  return conflicts_file_;
}

void Reconciler::persistConflicts() {
  const std::string& file = conflictsFile();
  if (file.empty()) return;
  // The file also holds the conflicts of documents this sidecar has not opened (yet): keep them.
  std::vector<OpenConflict> others;
  for (OpenConflict& stored : loadConflicts(file))
    if (!tracked_.count(stored.key)) others.push_back(std::move(stored));
  std::vector<const OpenConflict*> all = conflicts_.list();
  for (const OpenConflict& other : others)
    all.push_back(&other);
  if (!saveConflicts(file, all)) log::warn("reconcile: could not write ", file);
}

void Reconciler::restoreConflicts(const Tracked& tracked, const OpenDocument& document) {
  const std::string& file = conflictsFile();
  if (file.empty() || !tracked.base || !conflicts_.list(tracked.key).empty()) return;
  std::size_t restored = 0;
  for (OpenConflict& stored : loadConflicts(file)) {
    if (stored.key != tracked.key) continue;
    if (!conflictStillHolds(stored, document.document.text(), tracked.base->view())) continue;
    stored.uri = tracked.uri;
    stored.version = document.document.version();
    conflicts_.restore(std::move(stored));
    ++restored;
  }
  if (restored) {
    log::info("reconcile: ", restored, " open conflict(s) of ", tracked.path,
              " taken back from before the sidecar restarted");
    persistConflicts(); // the ones that no longer hold are dropped from the file
  }
}

} // namespace hashline::lsp
