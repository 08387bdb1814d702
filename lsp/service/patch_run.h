// PatchRun: one codex patch (`hashline.patch`) across files, some open in the editor, some on
// disk (DESIGN §5.5, §6 "multi-file requests").
//
// 1. Parse, then plan every file against its current text (the mirror for open documents, the
//    disk otherwise) — one failure refuses the whole patch and nothing changes. Each file that
//    exists must have been read by the session (NOT_OBSERVED) and not have changed since
//    (STALE_VERSION; same text is not a change). Deleting or moving a document open in the editor
//    is refused (CONFLICT): hashline never changes the disk behind a buffer.
// 2. Commit file by file in patch order as one transaction (transaction.h): open documents
//    through the BufferBackend (one versioned applyEdit each, confirmed; a version race
//    re-plans that file's hunk), disk files through the DiskBackend (atomic writes, each
//    journaled around it: an fsynced intent, then the outcome), so a kill between files leaves
//    every changed file journaled and undoable. One op per file (a move onto an existing file
//    adds a `delete` op for the file it replaces, committed first in the same step).
// 3. If a file fails part-way, the runner restores the files already changed newest first, each
//    a journaled `rollback` op reverting the file's op, and the refusal lists what is still
//    applied and what was rolled back (`applied`, `rolledBack`, `rollbackFailed`).
// Result: {status:"applied", files:[{path, uri, kind, backend, version}], diff}.
// Threading: the service's thread; asynchronous only while a buffer step waits for the editor.
#pragma once

#include "lsp/service/agent_service.h"
#include "lsp/service/service_request.h"

namespace hashline::lsp {

class HashlineService;

/// Runs `request` on `service`; `done` is called exactly once.
void runPatch(HashlineService& service, PatchRequest request, ServiceCallback done);

} // namespace hashline::lsp
