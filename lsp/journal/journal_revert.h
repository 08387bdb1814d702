// RevertRun: undo, reject and rewind as one request across files (DESIGN §7; issue 6 items 3–5).
//
// 1. Verify: every file's hunks are planned on its current text (engine/journal/rewind_planner.h)
//    — one CONFLICT refuses the whole request and nothing is written. `dry_run` stops here with
//    the diffs.
// 2. Apply file by file through the service's pipeline: open buffers by one versioned applyEdit
//    (re-planned on the text the editor has when it is sent; a race re-plans), disk files by
//    atomic writes (a file the reverted ops created is deleted, one they deleted is recreated).
//    Each file becomes a journaled op (`method`) listing the hunks it reverted.
// 3. A file failing part-way: the files already reverted are restored newest first, each a
//    journaled "rollback" op, and the refusal lists `applied`, `rolledBack`, `rollbackFailed`.
// Threading: the service's thread; asynchronous only while a buffer waits for the editor.
#pragma once

#include "engine/journal/journal_op.h"
#include "lsp/service/agent_service.h"
#include "lsp/service/service_request.h"
#include "lsp/service/service_target.h"

#include <string>
#include <vector>

namespace hashline::lsp {

class JournalService;

struct FileRevert {
  ServiceTarget target;
  std::string name;
  std::vector<journal::JournalOp> ops; // oldest first; hunks limited to those to revert
};

struct RevertRequest {
  std::string method; // "undo", "reject", "rewind"
  CallerIdentity caller;
  bool dry_run = false;
  std::vector<FileRevert> files;
};

/// Runs `request`; `done` is called exactly once.
void runRevert(JournalService& journal, RevertRequest request, ServiceCallback done);

} // namespace hashline::lsp
