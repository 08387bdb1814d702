// The journal of the agent service: recording applied edits (around disk writes too) and locating
// their documents; see journal_service.h. The methods (undo, log, …) are in journal_methods.cpp,
// the reverts they run in journal_revert.cpp.
#include "lsp/journal/journal_service.h"

#include "engine/diff/line_diff.h"
#include "engine/journal/hunk_locator.h"
#include "engine/journal/hunk_split.h"
#include "lsp/agent/discovery.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/fingerprint.h"
#include "lsp/disk/state_dir.h"
#include "lsp/journal/journal_json.h"
#include "lsp/journal/journal_revert.h"
#include "lsp/platform/process.h"
#include "lsp/platform/secure_random.h"
#include "lsp/protocol/error_json.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>

namespace hashline::lsp {

using nlohmann::json;
using namespace hashline::journal;

namespace {

std::int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// This process as buffer intents name their writer.
const ProcessIdentity& ownProcess() {
  static const ProcessIdentity self{platform::currentProcessId(),
                                    agent::processStartTime(platform::currentProcessId())};
  return self;
}

bool sameProcess(const ProcessIdentity& a, const ProcessIdentity& b) {
  return a.pid == b.pid && (!a.start || !b.start || *a.start == *b.start);
}

/// A buffer intent's id: random (ids of many processes share one journal), else pid and count.
std::string newIntentId() {
  unsigned char bytes[8];
  static std::atomic<unsigned> counter{0};
  char text[40];
  if (platform::fillSecureRandomNonBlocking(bytes, sizeof bytes)) {
    for (std::size_t i = 0; i < sizeof bytes; ++i)
      std::snprintf(text + 2 * i, 3, "%02x", bytes[i]);
    return text;
  }
  std::snprintf(text, sizeof text, "%lld-%lld-%u",
                static_cast<long long>(platform::currentProcessId()),
                static_cast<long long>(nowMs()), counter.fetch_add(1));
  return text;
}

} // namespace

JournalService::JournalService(HashlineService& service) : service_(service) {}

const std::vector<std::string>& JournalService::methodNames() {
  static const std::vector<std::string> names = {"accept", "diff",   "log",  "pending",
                                                 "reject", "rewind", "turn", "undo"};
  return names;
}

bool JournalService::handles(const std::string& method) {
  const auto& names = methodNames();
  return std::find(names.begin(), names.end(), method) != names.end();
}

JournalFile* JournalService::file() {
  std::vector<std::string> roots = service_.disk().roots();
  if (roots.empty()) return nullptr;
  if (file_ && file_root_ == roots.front()) return file_.get();
  Result<std::string> directory = disk::workspaceStateDirectory(roots.front());
  if (!directory) {
    if (!file_failed_) log::error("journal: ", directory.error().message, "; keeping it in memory");
    file_failed_ = true;
    return nullptr;
  }
  file_ = std::make_unique<JournalFile>(*directory);
  file_->setIntentResolver([this](const JournalOp& op) { return intentLanded(op); });
  file_->setBufferIntentResolver(
      [this](const BufferIntent& intent) { return bufferIntentLanding(intent); });
  file_root_ = roots.front();
  return file_.get();
}

void JournalService::refresh() {
  if (JournalFile* journal_file = file())
    if (Status status = journal_file->refresh(journal_); !status)
      log::error("journal: ", status.error().message);
}

const Journal& JournalService::model() {
  refresh();
  return journal_;
}

void JournalService::persist(const std::vector<json>& records) {
  JournalFile* journal_file = file();
  if (!journal_file) {
    for (const json& record : records)
      JournalFile::replay(journal_, record);
    return;
  }
  Status status = journal_file->transact(journal_, [&](Journal& model) {
    for (const json& record : records)
      JournalFile::replay(model, record);
    return records;
  });
  if (!status) log::error("journal: ", status.error().message);
}

std::uint64_t JournalService::record(JournalOp op, const std::string& intent) {
  op.time_ms = nowMs();
  std::uint64_t id = 0;
  auto change = [&](Journal& model) {
    if (op.turn <= 0) op.turn = model.currentTurn(op.session);
    id = model.record(op).id;
    json record = opRecordJSON(*model.find(id));
    if (!intent.empty()) record["intent"] = intent; // settles it (buffer_intent.h)
    return std::vector<json>{std::move(record)};
  };
  JournalFile* journal_file = file();
  if (!journal_file) {
    change(journal_);
    return id;
  }
  // Buffer edits live in the editor until saved: their records are written at once (a kill loses
  // nothing) and fsynced grouped; disk changes and reversals are fsynced before the answer.
  auto durability =
      op.backend == "buffer" ? JournalFile::Durability::Grouped : JournalFile::Durability::Synced;
  if (Status status = journal_file->transact(journal_, change, durability); !status) {
    log::error("journal: cannot persist op: ", status.error().message);
    if (id == 0) change(journal_);
  }
  return id;
}

std::uint64_t JournalService::recordAround(JournalOp op, const JournalFile::GatedWrite& write) {
  op.time_ms = nowMs();
  JournalFile* journal_file = file();
  if (!journal_file) {
    if (!write([] { return Status::success(); })) return 0;
    if (op.turn <= 0) op.turn = journal_.currentTurn(op.session);
    return journal_.record(std::move(op)).id;
  }
  bool landed = false;
  Result<std::uint64_t> id =
      journal_file->around(journal_, std::move(op), [&](const disk::PublishGate& gate) {
        landed = write(gate);
        return landed;
      });
  if (!id) {
    log::error("journal: cannot persist op: ", id.error().message);
    return landed ? journal_.lastId() : 0; // kept in memory when the write landed
  }
  return *id;
}

std::int64_t JournalService::contentVersion(std::string_view bytes) {
  disk::Fingerprint fingerprint;
  fingerprint.size_bytes = bytes.size();
  fingerprint.content_hash = disk::hashContent(bytes);
  return DiskBackend::versionOf(fingerprint);
}

std::int64_t JournalService::contentVersion(const Rope& text) {
  disk::ContentHasher hasher; // chunk by chunk: no flat copy of a large text
  text.forEachChunk(0, text.byteSize(), [&](std::string_view chunk) { hasher.update(chunk); });
  disk::Fingerprint fingerprint;
  fingerprint.size_bytes = text.byteSize();
  fingerprint.content_hash = hasher.digest();
  return DiskBackend::versionOf(fingerprint);
}

bool JournalService::intentLanded(const JournalOp& op) const {
  // A move is settled on its destination (which it creates; an overwritten destination was
  // deleted by an op of its own before): landed once the destination has the "after" content,
  // even when the kill came between publishing it and unlinking the source.
  const bool moves = op.kind == "move" && op.moved_to;
  if (!moves && !op.path) return false;
  std::string where = moves ? *op.moved_to : *op.path;
  if (Result<disk::ResolvedPath> resolved = service_.disk().resolve(where))
    where = resolved->real_path;
  Result<std::optional<disk::Fingerprint>> now = disk::currentFingerprint(where);
  if (!now) return false; // unreadable: nothing can be proved, and nothing undone
  std::optional<std::int64_t> current;
  if (*now) current = DiskBackend::versionOf(**now);
  std::optional<std::int64_t> after, before;
  if (op.kind != "delete") after = op.version_after;
  if (op.kind != "create" && !moves) before = op.version_before;
  if (current == after) return true; // a delete whose file is gone, a create with its content
  if (current == before) return false;
  if (!current || op.kind == "delete") return false;
  // Changed again since (by the user, another tool): it landed if its lines are all there.
  Result<disk::FileSnapshot> text = disk::readTextFile(where);
  if (!text) return false;
  std::vector<std::string_view> lines = splitLinesKeepingEnds(text->bytes);
  std::vector<const JournalHunk*> hunks;
  for (const JournalHunk& hunk : op.hunks)
    hunks.push_back(&hunk);
  const ViewLines source(lines);
  HunkLocator locator(source, hunks);
  for (const JournalHunk& hunk : op.hunks)
    if (!locator.locate(hunk, {op.id, hunk.index}, op.name)) return false;
  return !op.hunks.empty();
}

std::int64_t JournalService::turnFor(const CallerIdentity& caller) {
  return caller.turn ? *caller.turn : 0; // 0: the session's current turn, filled in by record
}

std::string JournalService::displayName(const std::optional<std::string>& path,
                                        const std::string& uri) const {
  if (!path) return uri;
  for (const std::string& root : service_.disk().roots())
    if (path->size() > root.size() + 1 && path->rfind(root + "/", 0) == 0)
      return path->substr(root.size() + 1);
  return *path;
}

std::optional<JournalOp> JournalService::opOf(const AppliedEdit& edit) {
  JournalOp op;
  op.method = edit.method;
  op.agent = edit.caller.agent;
  op.session = edit.caller.session;
  op.turn = turnFor(edit.caller);
  op.uri = edit.uri;
  op.path = edit.path;
  op.name = displayName(edit.path, edit.uri);
  op.backend = edit.backend == AppliedEdit::Backend::Buffer ? "buffer" : "disk";
  op.kind = journalKindName(edit.kind);
  op.moved_to = edit.moved_to;
  op.version_before = edit.version_before;
  op.version_after = edit.version_after;
  op.reverts = edit.reverts;
  // A decision nobody signed (the editor's Keep/Reject, `hashline reject` from a terminal) is the
  // user's own action.
  if (op.isDecision() && op.agent.empty()) op.agent = "user";
  // What the agent's plan made of the text — not the user's typing that may have arrived in
  // the same notification (the user's edits are never attributed to the agent).
  if (edit.kind == AppliedEdit::Kind::Update && !edit.plan.edits.empty()) {
    // Diff only the touched lines plus a margin, per cluster of nearby edits (a one-line edit of
    // a huge file, or 500 hunks spread over it, stays O(change)): lines between clusters are the
    // same on both sides, so each cluster's numbers shift by its margin's start only, and its
    // bytes in the predicted text by the size change of the edits before it.
    Rope predicted = applyPlan(edit.before, edit.plan);
    const Rope& before = edit.before;
    std::vector<const ByteEdit*> edits;
    for (const ByteEdit& change : edit.plan.edits)
      edits.push_back(&change);
    std::stable_sort(edits.begin(), edits.end(),
                     [](const ByteEdit* a, const ByteEdit* b) { return a->begin < b->begin; });
    constexpr std::size_t kMargin = 4; // more than the hunks' 3 context lines
    const std::size_t last_line_of_text = before.lineCount() - 1;
    std::ptrdiff_t delta_before = 0; // size change of the clusters already diffed
    std::uint32_t index = 0;
    for (std::size_t first = 0; first < edits.size();) {
      std::size_t from_line = before.lineOfByte(edits[first]->begin);
      std::size_t to_line = before.lineOfByte(edits[first]->end);
      std::ptrdiff_t delta = 0;
      std::size_t next = first;
      for (; next < edits.size(); ++next) {
        const ByteEdit& change = *edits[next];
        if (next > first && before.lineOfByte(change.begin) > to_line + 2 * kMargin + 1) break;
        to_line = std::max(to_line, before.lineOfByte(change.end));
        delta += static_cast<std::ptrdiff_t>(change.text.size()) -
                 static_cast<std::ptrdiff_t>(change.end - change.begin);
      }
      std::size_t from = from_line > kMargin ? from_line - kMargin : 0;
      std::size_t to = std::min(last_line_of_text, to_line + kMargin);
      std::size_t begin = before.lineStartByte(from);
      std::size_t end = before.lineEndWithBreakByte(to);
      std::string old_slice = before.slice(begin, end);
      std::string new_slice = predicted.slice(
          static_cast<std::size_t>(static_cast<std::ptrdiff_t>(begin) + delta_before),
          static_cast<std::size_t>(static_cast<std::ptrdiff_t>(end) + delta_before + delta));
      bool reaches_end = to == last_line_of_text;
      const std::ptrdiff_t line_shift =
          static_cast<std::ptrdiff_t>(predicted.lineOfByte(
              static_cast<std::size_t>(static_cast<std::ptrdiff_t>(begin) + delta_before))) -
          static_cast<std::ptrdiff_t>(from);
      for (JournalHunk& hunk : splitIntoHunks(old_slice, new_slice)) {
        hunk.index = ++index;
        hunk.before_line += static_cast<std::uint32_t>(from);
        hunk.after_line +=
            static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(from) + line_shift);
        hunk.context_reaches_start = hunk.context_reaches_start && from == 0;
        hunk.context_reaches_end = hunk.context_reaches_end && reaches_end;
        op.hunks.push_back(std::move(hunk));
      }
      delta_before += delta;
      first = next;
    }
  } else {
    op.hunks = splitIntoHunks(edit.before.toString(), edit.after.toString());
  }
  if (op.hunks.empty() && op.kind == "update" && op.reverts.empty())
    return std::nullopt; // nothing changed, nothing undone
  return op;
}

std::uint64_t JournalService::onApplied(const AppliedEdit& edit) {
  if (std::optional<JournalOp> op = opOf(edit)) return record(std::move(*op), edit.intent);
  if (!edit.intent.empty()) abortBufferEdit(edit.intent, "it changed nothing");
  return 0;
}

std::string JournalService::beginBufferEdit(const AppliedEdit& predicted,
                                            const std::string& document) {
  JournalFile* journal_file = file();
  if (!journal_file) return ""; // in memory only: nothing outlives the process anyway
  std::optional<JournalOp> op = opOf(predicted);
  if (!op) return "";
  op->time_ms = nowMs();
  op->version_after = 0; // known once it lands
  BufferIntent intent;
  intent.id = newIntentId();
  intent.document = document;
  intent.text_before = contentVersion(predicted.before);
  intent.text_after = contentVersion(predicted.after);
  intent.writer = ownProcess();
  intent.editor = service_.editorProcess();
  // Not fsynced one by one, like the buffer ops (journal_file.h): a process crash loses nothing
  // written, and an OS crash loses the unsaved buffer the edit went to as well.
  Status status = journal_file->transact(
      journal_,
      [&](Journal& model) {
        if (op->turn <= 0) op->turn = model.currentTurn(op->session);
        intent.op = std::move(*op);
        return std::vector<json>{bufferIntentRecord(intent)};
      },
      JournalFile::Durability::Grouped);
  if (!status) {
    log::error("journal: cannot persist the intent of a buffer edit: ", status.error().message);
    return "";
  }
  return intent.id;
}

void JournalService::abortBufferEdit(const std::string& id, const std::string& why) {
  if (id.empty()) return;
  JournalFile* journal_file = file();
  if (!journal_file) return;
  Status status = journal_file->transact(
      journal_,
      [&](Journal&) {
        if (!journal_file->bufferIntents().count(id)) return std::vector<json>{};
        return std::vector<json>{bufferOutcomeRecord(id, Landing::NotLanded, why)};
      },
      JournalFile::Durability::Grouped);
  if (!status) log::error("journal: ", status.error().message);
}

void JournalService::onDocumentOpened() {
  // Reads what is new (the whole journal on first use); the refresh settles what it can.
  refresh();
}

std::optional<LandingVerdict>
JournalService::bufferIntentLanding(const BufferIntent& intent) const {
  if (sameProcess(intent.writer, ownProcess())) return std::nullopt; // in flight here
  if (agent::processAlive(intent.writer.pid, intent.writer.start)) return std::nullopt;
  if (intent.editor.pid > 0 && agent::processAlive(intent.editor.pid, intent.editor.start)) {
    // The editor still holds the buffer the edit went to: only its text can tell, as a
    // sidecar of that same editor mirrors it.
    const ProcessIdentity editor = service_.editorProcess();
    if (editor.pid <= 0 || !sameProcess(intent.editor, editor)) return std::nullopt;
    const DocumentStore* documents = service_.openDocuments();
    const OpenDocument* open = documents ? documents->find(intent.document) : nullptr;
    if (!open || open->desynced()) return std::nullopt;
    const Rope& text = open->document.text();
    LandingVerdict verdict = decideLanding(intent, text, contentVersion(text));
    verdict.version_after = open->document.version();
    return verdict;
  }
  // The editor exited: its buffers went with it. What lasts is the file — the edit landed for
  // good if the user saved it.
  if (!intent.op.path)
    return LandingVerdict{Landing::NotLanded, "the editor exited and the buffer had no file", 0};
  Result<disk::FileSnapshot> file = disk::readTextFile(*intent.op.path);
  if (!file) {
    if (file.error().code == ErrorCode::FileNotFound)
      return LandingVerdict{Landing::NotLanded, "the editor exited and the file does not exist", 0};
    return std::nullopt; // unreadable now: ask again later
  }
  const Rope text(file->bytes);
  LandingVerdict verdict = decideLanding(intent, text, contentVersion(file->bytes));
  verdict.why = "the editor exited; by the file on disk: " + verdict.why;
  verdict.version_after = contentVersion(file->bytes);
  return verdict;
}

std::uint64_t JournalService::aroundDiskWrite(const AppliedEdit& edit,
                                              const JournalFile::GatedWrite& write) {
  std::optional<JournalOp> op = opOf(edit);
  if (!op) {
    (void)write([] { return Status::success(); });
    return 0;
  }
  op->version_after = edit.kind == AppliedEdit::Kind::Delete ? 0 : contentVersion(edit.after);
  return recordAround(std::move(*op), write);
}

json JournalService::bufferIntentsJSON() const {
  json out = json::array();
  if (!file_) return out;
  auto entry = [](const BufferIntent& intent, const std::string& state, const std::string& why) {
    json item = {{"intent", intent.id},
                 {"state", state},
                 {"method", intent.op.method},
                 {"agent", intent.op.agent},
                 {"session", intent.op.session},
                 {"turn", intent.op.turn},
                 {"uri", intent.op.uri},
                 {"name", intent.op.name},
                 {"sentAtVersion", intent.op.version_before},
                 {"time", intent.op.time_ms},
                 {"hunks", intent.op.hunks.size()},
                 {"sidecar", intent.writer.pid},
                 {"editor", intent.editor.pid}};
    if (intent.op.path) item["path"] = *intent.op.path;
    if (!why.empty()) item["why"] = why;
    return item;
  };
  for (const auto& [id, intent] : file_->bufferIntents()) {
    const bool ours = sameProcess(intent.writer, ownProcess());
    out.push_back(entry(intent, ours ? "in-flight" : "unsettled",
                        ours ? ""
                             : "its sidecar died before the editor confirmed it; settled "
                               "when the editor opens the file again, or by the file once "
                               "the editor exited"));
  }
  for (const JournalFile::UnknownLanding& unknown : file_->unknownLandings())
    out.push_back(entry(unknown.intent, "unknown", unknown.why));
  return out;
}

Result<ServiceTarget> JournalService::targetOf(const JournalOp& op) const {
  DocumentRef ref;
  ref.uri = op.uri;
  Result<ServiceTarget> target = service_.locate(ref);
  if (target || !op.path) return target;
  DocumentRef by_path;
  by_path.path = op.path;
  return service_.locate(by_path);
}

Result<ServiceTarget> JournalService::targetOfPath(const std::string& path) const {
  DocumentRef ref;
  ref.path = path;
  return service_.locate(ref);
}

Result<Rope> JournalService::currentRope(const ServiceTarget& target) const {
  Result<DocumentSnapshot> now = service_.backendFor(target).snapshot(target);
  if (!now) return now.error();
  return now->exists ? now->text : Rope();
}

Result<std::string> JournalService::currentText(const ServiceTarget& target) const {
  Result<Rope> text = currentRope(target);
  if (!text) return text.error();
  return text->toString();
}

} // namespace hashline::lsp
