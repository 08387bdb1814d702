// JournalService: the journal methods of the agent service (DESIGN §7, issues 6 and 9) — it
// records every applied edit (HashlineService's edit observer) and answers
//   undo    {op}                                  reverse one op's hunks still in effect
//   reject  {hunk}                                reverse one hunk (`12#2`; `12` = the whole op)
//   rewind  {turn?, session?, path?}              a turn (or the whole session), newest first;
//                                                 with `path` only that file (file grain)
//   accept  {hunk | op | turn}                    mark hunks reviewed
//   pending {session?, turn?, path?}              unreviewed hunks per file, where they are now
//   log     {session?, turn?, path?, limit?}      ops, oldest first
//   diff    {op | turn, kind: commit | net, path?}
//   turn    {action: begin | end | current}       turn boundaries (default: one per session)
// Undo, reject and rewind find the hunks by content in the document as it is now (buffer mirror
// or disk; engine/journal/hunk_locator.h), verify every file before writing anything — any
// CONFLICT refuses the whole request, naming the lines — then commit through the service's
// transaction runner and backends (lsp/service/transaction.h), each file as a new journaled op
// that records what it reverted. When a file fails part-way, the files already reverted are
// restored (journaled as "rollback") and the refusal lists `applied`, `rolledBack` and
// `rollbackFailed`. `dry_run` previews the diffs without writing.
//
// Each method's params are read into its typed request (journal_requests.h) before anything runs:
// a malformed one is InvalidParams naming the field. Methods: journal_methods.cpp.
// HashlineService owns one and routes these method names to it. The journal persists in the
// workspace's state directory (lsp/journal/journal_file.h), opened on first use (the editor's
// roots are known only after initialize); without a workspace root it stays in memory.
// Threading: the service's thread.
#pragma once

#include "engine/journal/journal.h"
#include "lsp/journal/journal_file.h"
#include "lsp/journal/journal_requests.h"
#include "lsp/service/agent_service.h"
#include "lsp/service/edit_observer.h"
#include "lsp/service/service_target.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hashline::lsp {

class HashlineService;

class JournalService {
public:
  explicit JournalService(HashlineService& service);

  /// "accept", "diff", "log", "pending", "reject", "rewind", "turn", "undo".
  static const std::vector<std::string>& methodNames();
  static bool handles(const std::string& method);
  /// Reads `params` into the method's typed request (journal_requests.h; InvalidParams on any
  /// malformed member, before anything runs), then runs it.
  void call(const std::string& method, const nlohmann::json& params, ServiceCallback done);
  /// Records an applied edit (a buffer's, once the mirror confirmed it; a disk commit that
  /// wrote nothing) as an op. Returns the op id (0: it changed and reverted nothing).
  std::uint64_t onApplied(const AppliedEdit& edit);
  /// Journals a disk edit around its write (crash safety, JournalFile::around): `edit` as it
  /// will be once written (`after`, plan, kind, reverts; `version_after` is derived from
  /// `after`), `write` does the atomic write and returns true when it landed. Returns the op id
  /// (0: not landed, or nothing to record). For a move the content id is the destination's, and
  /// an intent left by a dead writer is settled by the destination (see intentLanded).
  /// The backends call these two (through the service's ChangeLedger), once per commit.
  std::uint64_t aroundDiskWrite(const AppliedEdit& edit, const JournalFile::GatedWrite& write);

  /// Journals an edit of the open buffer `document` (canonical URI) as an intent before its
  /// applyEdit is sent (buffer_intent.h): `predicted` as it will be once confirmed (`after` the
  /// predicted text, `version_before` the version it is sent for). Returns the intent's id, to
  /// be named by the op that records the edit (AppliedEdit::intent) or by abortBufferEdit; ""
  /// when nothing is journaled (no journal file, or the edit changes nothing).
  std::string beginBufferEdit(const AppliedEdit& predicted, const std::string& document);
  /// The edit of intent `id` did not land (the editor refused it, the pipeline gave up).
  void abortBufferEdit(const std::string& id, const std::string& why);
  /// The editor opened a document: settles the intents a dead sidecar left for it (the refresh
  /// asks intentLanding, which finds the document open now).
  void onDocumentOpened();

  /// The model, refreshed from the file (tests, CLI rendering).
  const journal::Journal& model();

  // For the reverts (journal_revert.cpp).
  HashlineService& service() { return service_; }
  /// The disk version id of `bytes` (what DiskBackend::versionOf gives once they are written).
  static std::int64_t contentVersion(std::string_view bytes);
  static std::int64_t contentVersion(const Rope& text);
  std::string displayName(const std::optional<std::string>& path, const std::string& uri) const;
  /// The session's turn for a caller that may name one.
  std::int64_t turnFor(const CallerIdentity& caller);
  /// Where an op's document is now (open buffer or disk), by its recorded URI.
  Result<ServiceTarget> targetOf(const journal::JournalOp& op) const;
  /// The target of a filesystem path (a move's destination).
  Result<ServiceTarget> targetOfPath(const std::string& path) const;
  /// The document's current text ("" for a missing disk file).
  Result<std::string> currentText(const ServiceTarget& target) const;
  /// The same text as a Rope (a snapshot of the buffer, or the file on disk): no copy.
  Result<Rope> currentRope(const ServiceTarget& target) const;

private:
  /// Records `op` (id assigned) and persists it; returns the stored id. Buffer ops are appended
  /// with grouped fsync, others synced (JournalFile). `intent`: the buffer intent it settles.
  std::uint64_t record(journal::JournalOp op, const std::string& intent = "");
  /// Records a disk op around its write (JournalFile::around); `op.version_after` must be the
  /// content id of what `write` writes. Returns the id, 0 when the write did not land.
  std::uint64_t recordAround(journal::JournalOp op, const JournalFile::GatedWrite& write);
  JournalFile* file();
  void refresh();
  /// The op an applied edit makes (hunks from its plan); nullopt when it changed nothing.
  std::optional<journal::JournalOp> opOf(const AppliedEdit& edit);
  /// Whether an intent's disk write landed (JournalFile's resolver).
  bool intentLanded(const journal::JournalOp& op) const;
  /// Whether a buffer intent's edit landed, when that can be told now (JournalFile's buffer
  /// resolver): never while its sidecar runs; by the buffer when this sidecar's editor is the
  /// one it was sent to and has the document open; by the file once that editor has exited.
  std::optional<LandingVerdict> bufferIntentLanding(const BufferIntent& intent) const;
  /// The unsettled and undecidable buffer intents `log` lists.
  nlohmann::json bufferIntentsJSON() const;
  void persist(const std::vector<nlohmann::json>& records);

  void undo(const UndoRequest& request, ServiceCallback done);
  void reject(const RejectRequest& request, ServiceCallback done);
  void rewind(const RewindRequest& request, ServiceCallback done);
  void accept(const AcceptRequest& request, ServiceCallback done);
  void pending(const ScopeRequest& request, ServiceCallback done);
  void log(const ScopeRequest& request, ServiceCallback done);
  void diff(const DiffRequest& request, ServiceCallback done);
  void turn(const TurnRequest& request, ServiceCallback done);

  /// The ops in `scope`; error when its document does not resolve. `require_turn_or_session`:
  /// no session named means the "default" session.
  Result<std::vector<const journal::JournalOp*>> select(const JournalScope& scope,
                                                        bool require_turn_or_session);
  std::string keyOf(const journal::JournalOp& op) const;

  HashlineService& service_;
  journal::Journal journal_;
  std::unique_ptr<JournalFile> file_;
  std::string file_root_;
  bool file_failed_ = false;
};

} // namespace hashline::lsp
