// The transaction runner: one request's commits across files, all or nothing (DESIGN §6
// "multi-file requests"; used by edit, patch, undo, reject and rewind).
//
// The caller has verified every file first (planned each on its current text; one refusal and
// nothing is written) and hands the runner one TransactionStep per file. The runner commits them
// in order, each through its document's backend (DocumentBackend::commit: buffer or disk, which
// journals exactly one op per commit). When a commit fails, every commit that landed is rolled
// back, newest first — the failing step's own earlier commits first, then the steps before it —
// by its inverse: a commit on the same backend that restores the text the commit found (a
// created file deleted, a deleted one recreated, a moved one moved back), refused with CONFLICT
// when the document changed since it was committed, and journaled as a "rollback" op that
// reverts the op it undoes. The outcome says exactly what landed, what was rolled back and what
// could not be (transactionRefusal renders it).
// Threading: the service's thread; asynchronous while a buffer commit waits for the editor.
#pragma once

#include "lsp/service/document_backend.h"

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

struct TransactionStep {
  std::string name;            // the file as reports name it
  std::vector<Commit> commits; // in order; more than one when a move replaces a file
};

struct TransactionOutcome {
  struct Landed {
    std::string name;
    std::vector<Committed> commits;
    bool rolled_back = false;
  };
  std::vector<Landed> landed;        // the steps that landed, in order
  std::optional<std::size_t> failed; // the step that failed (then nothing after it ran)
  std::string failed_name;
  std::optional<Error> error;
  nlohmann::json rolled_back = nlohmann::json::array();     // names, newest first
  nlohmann::json rollback_failed = nlohmann::json::array(); // {path, error}

  bool ok() const { return !failed; }
};

/// The backend of a target (buffer when it is open in the editor, else disk).
using BackendFor = std::function<DocumentBackend&(const ServiceTarget& target)>;
using TransactionDone = std::function<void(TransactionOutcome outcome)>;

/// Commits `steps` in order; on a failure rolls back what landed; `done` runs exactly once.
void runTransaction(BackendFor backend_for, std::vector<TransactionStep> steps,
                    TransactionDone done);

/// The commit that undoes `landed` (see above).
Commit inverseOf(const Committed& landed);

/// Which steps a refusal lists as `applied`: those that landed (and may have been rolled back
/// since: undo, reject, rewind), or those still in effect after the rollback (patch).
enum class AppliedList { Landed, Remaining };
/// A failed transaction's refusal: the error, `failedFile`, `applied`, `rolledBack`,
/// `rollbackFailed`.
nlohmann::json transactionRefusal(const TransactionOutcome& outcome, AppliedList applied);

} // namespace hashline::lsp
