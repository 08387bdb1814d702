// RevertRun: undo, reject and rewind as one request across files (DESIGN §7; issue 6 items 3–5).
//
// 1. Verify: every file's hunks are planned on its current text (engine/journal/rewind_planner.h)
//    — one CONFLICT refuses the whole request and nothing is written. `dry_run` stops here with
//    the diffs.
// 2. Commit file by file as one transaction (lsp/service/transaction.h) through the document's
//    backend: open buffers by one versioned applyEdit (re-planned on the text the editor has
//    when it is sent; a race re-plans), disk files by atomic writes (a file the reverted ops
//    created is deleted, one they deleted is recreated). Each file becomes one journaled op
//    (`method`) listing the hunks it reverted; when its hunks cancel out nothing is written and
//    the op only records what is undone.
// A document the ops moved (patch `Move to:`, or a move back) is one FileRevert from where it is
// now (`target`) to where it was before the ops (`origin`): its hunks are reversed like any
// others, then it is moved back, as one journaled "move" op (crash-safe: intent, atomic move,
// outcome) that reverts the move op whole (`{op, 0}`), so it can be undone again. Refused with
// CONFLICT, nothing written, when the origin exists again, the file is gone, or either path is
// open in the editor as a buffer (its unsaved text cannot follow a move on disk). Files are
// reverted newest first across a move: whatever took the origin's path later goes first, the
// move back next, and what the move had replaced at its destination (a `delete` op) after it —
// verification simulates that order, so a rewind still writes nothing unless all of it can land.
// 3. A file failing part-way: the runner restores the files already reverted newest first,
//    each a journaled "rollback" op, and the refusal lists `applied`, `rolledBack`,
//    `rollbackFailed`.
// Threading: the service's thread; asynchronous only while a buffer waits for the editor.
#pragma once

#include "engine/journal/journal_op.h"
#include "lsp/service/agent_service.h"
#include "lsp/service/service_request.h"
#include "lsp/service/service_target.h"

#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

class JournalService;

struct FileRevert {
  ServiceTarget target; // where the document is now
  std::string name;
  std::vector<journal::JournalOp> ops; // oldest first; hunks limited to those to revert
  /// Set when the ops moved the document: where it was before them (it is moved back there).
  std::optional<ServiceTarget> origin;
  std::string origin_name;
};

/// Groups ops (oldest first) into one FileRevert per document, following moves (the ops of a
/// moved file before and after its move are one document); documents with nothing in effect are
/// left out. In order of first appearance, or, when a document was moved, newest first around
/// the moves (see above). `error` is set when an op's document cannot be located.
std::vector<FileRevert> groupByDocument(JournalService& journal,
                                        const std::vector<const journal::JournalOp*>& ops,
                                        std::optional<Error>& error);

struct RevertRequest {
  std::string method; // "undo", "reject", "rewind"
  CallerIdentity caller;
  bool dry_run = false;
  std::vector<FileRevert> files;
};

/// Runs `request`; `done` is called exactly once.
void runRevert(JournalService& journal, RevertRequest request, ServiceCallback done);

} // namespace hashline::lsp
