// ConflictStore: the open conflicts of a workspace on disk — `<workspace state dir>/conflicts.json`
// (lsp/disk/state_dir.h) — so a sidecar started again after a crash lists them as before (issue
// 31). The reconciler writes the whole list after every change (a few entries; written to a temp
// file and renamed over, so a kill leaves the old list or the new one) and, when the editor opens
// a document, takes back that document's conflicts that still hold: the buffer differs from the
// disk, the disk still has the disk's side and the buffer still has the user's (planTakeTheirs
// finds it). A document closed or saved drops its conflicts as before. Synchronous; the server's
// io_context thread.
#pragma once

#include "lsp/reconcile/conflict_list.h"

#include <string>
#include <string_view>
#include <vector>

namespace hashline::lsp {

/// Every conflict in the file at `path` (none when it is missing or unreadable).
std::vector<OpenConflict> loadConflicts(const std::string& path);

/// Replaces the file at `path` with `conflicts`; false when it could not be written.
bool saveConflicts(const std::string& path, const std::vector<const OpenConflict*>& conflicts);

/// Whether `conflict`, read back after a restart, still holds for a document whose buffer is
/// `buffer` and whose file holds `disk`.
bool conflictStillHolds(const OpenConflict& conflict, const Rope& buffer, std::string_view disk);

} // namespace hashline::lsp
