// Undo / reject / rewind across files with verification first and rollback; see journal_revert.h.
#include "lsp/journal/journal_revert.h"

#include "engine/diff/minimal_edits.h"
#include "engine/journal/hunk_split.h"
#include "engine/journal/rewind_planner.h"
#include "lsp/journal/journal_json.h"
#include "lsp/journal/journal_service.h"
#include "lsp/protocol/error_json.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/result_json.h"
#include "lsp/support/log.h"

#include <chrono>
#include <memory>

namespace hashline::lsp {

using nlohmann::json;
using namespace hashline::journal;

class RevertRun : public std::enable_shared_from_this<RevertRun> {
public:
  RevertRun(JournalService& journal, RevertRequest request, ServiceCallback done)
      : journal_(journal), request_(std::move(request)), done_(std::move(done)) {}

  void start();

private:
  struct Landed {
    std::uint64_t op = 0;
    std::string name;
    std::string diff;
    json file;
  };
  using Landing = std::function<void(Result<Landed>)>;

  static std::vector<const JournalOp*> pointers(const std::vector<JournalOp>& ops) {
    std::vector<const JournalOp*> out;
    for (const JournalOp& op : ops)
      out.push_back(&op);
    return out;
  }
  void applyNext(std::size_t index);
  void applyFile(const FileRevert& file, const std::string& method, Landing landed);
  void applyDisk(const FileRevert& file, const std::string& method, Landing landed);
  void applyBuffer(const FileRevert& file, const std::string& method, Landing landed);
  JournalOp makeOp(const FileRevert& file, const std::string& method, const std::string& before,
                   const std::string& after, const std::string& backend, const std::string& kind,
                   std::int64_t version_before, std::int64_t version_after, const std::string& uri,
                   std::vector<HunkRef> reverts);
  std::uint64_t recordOp(const FileRevert& file, const std::string& method,
                         const std::string& before, const std::string& after,
                         const std::string& backend, const std::string& kind,
                         std::int64_t version_before, std::int64_t version_after,
                         const std::string& uri, std::vector<HunkRef> reverts) {
    return journal_.record(makeOp(file, method, before, after, backend, kind, version_before,
                                  version_after, uri, std::move(reverts)));
  }
  void rollback(std::size_t failed, Error cause);
  void finish();

  JournalService& journal_;
  RevertRequest request_;
  ServiceCallback done_;
  std::vector<Landed> landed_;
};

void runRevert(JournalService& journal, RevertRequest request, ServiceCallback done) {
  auto run = std::make_shared<RevertRun>(journal, std::move(request), std::move(done));
  run->start();
}

void RevertRun::start() {
  // 1. Verify every file on its current text before writing anything.
  json previews = json::array();
  std::string all_diffs;
  json reverts = json::array();
  for (const FileRevert& file : request_.files) {
    Result<std::string> current = journal_.currentText(file.target);
    if (!current) return done_(refusalToJSON(current.error()));
    Result<RewindPlan> plan = planRewind(*current, pointers(file.ops), file.name);
    if (!plan) {
      json refusal = refusalToJSON(plan.error());
      refusal["applied"] = json::array();
      return done_(std::move(refusal));
    }
    for (const HunkRef& ref : plan->reverts)
      reverts.push_back(formatHunkRef(ref));
    std::string diff = documentDiff(Rope(*current), Rope(plan->text_after), file.name);
    all_diffs += diff;
    json entry = {{"name", file.name},
                  {"uri", file.target.uri},
                  {"backend", file.target.open ? "buffer" : "disk"},
                  {"diff", diff}};
    if (file.target.path) entry["path"] = *file.target.path;
    previews.push_back(std::move(entry));
  }
  if (reverts.empty())
    return done_(refusalToJSON(Error::make(ErrorCode::NoChange,
                                           "nothing to revert: the selected hunks are no longer "
                                           "in effect")));
  if (request_.dry_run)
    return done_(json{{"status", "preview"},
                      {"method", request_.method},
                      {"reverts", std::move(reverts)},
                      {"files", std::move(previews)},
                      {"diff", all_diffs}});
  applyNext(0);
}

void RevertRun::applyNext(std::size_t index) {
  if (index == request_.files.size()) return finish();
  auto self = shared_from_this();
  applyFile(request_.files[index], request_.method, [self, index](Result<Landed> outcome) {
    if (!outcome) return self->rollback(index, outcome.error());
    self->landed_.push_back(std::move(*outcome));
    self->applyNext(index + 1);
  });
}

void RevertRun::applyFile(const FileRevert& file, const std::string& method, Landing landed) {
  if (file.target.open) return applyBuffer(file, method, std::move(landed));
  applyDisk(file, method, std::move(landed));
}

JournalOp RevertRun::makeOp(const FileRevert& file, const std::string& method,
                            const std::string& before, const std::string& after,
                            const std::string& backend, const std::string& kind,
                            std::int64_t version_before, std::int64_t version_after,
                            const std::string& uri, std::vector<HunkRef> reverts) {
  JournalOp op;
  op.method = method;
  op.agent = request_.caller.agent;
  op.session = request_.caller.session;
  op.turn = journal_.turnFor(request_.caller);
  op.uri = uri;
  op.path = file.target.path;
  op.name = file.name;
  op.backend = backend;
  op.kind = kind;
  op.version_before = version_before;
  op.version_after = version_after;
  op.hunks = splitIntoHunks(before, after);
  op.reverts = std::move(reverts);
  return op;
}

void RevertRun::applyDisk(const FileRevert& file, const std::string& method, Landing landed) {
  DiskBackend& disk = journal_.service().disk_;
  Result<DiskText> base = disk.load(*file.target.resolved, true);
  if (!base) return landed(base.error());
  std::string current = base->exists() ? base->text.toString() : std::string();
  Result<RewindPlan> plan = planRewind(current, pointers(file.ops), file.name);
  if (!plan) return landed(plan.error());
  bool created_by_ops = !file.ops.empty() && file.ops.front().kind == "create";
  bool deleted_by_ops = !file.ops.empty() && file.ops.back().kind == "delete";
  Landed result;
  result.name = file.name;
  std::int64_t version_before = base->exists() ? base->version : 0;
  std::string kind = "update";
  std::int64_t version_after = base->version;
  if (plan->text_after == current) {
    // The reverted ops cancel out here: nothing to write, but the journal learns what is undone.
    result.op = recordOp(file, method, current, current, "disk", "update", version_before,
                         base->version, file.target.uri, plan->reverts);
  } else {
    // A write: journaled around it (an fsynced intent first), so a kill mid-way leaves the file
    // unchanged or reverted and journaled.
    std::function<Status()> write;
    if (created_by_ops && plan->text_after.empty() && base->exists()) {
      kind = "delete";
      write = [&] { return disk.remove(*base); };
    } else {
      if (!base->exists() && !deleted_by_ops)
        return landed(Error::make(ErrorCode::FileNotFound,
                                  file.name + " no longer exists; nothing was written"));
      if (!base->exists()) kind = "create";
      write = [&]() -> Status {
        Result<disk::Fingerprint> written = disk.commit(*base, Rope(plan->text_after));
        if (!written) return written.error();
        return Status::success();
      };
    }
    version_after = kind == "delete" ? 0 : JournalService::contentVersion(plan->text_after);
    Status status = Status::success();
    result.op =
        journal_.recordAround(makeOp(file, method, current, plan->text_after, "disk", kind,
                                     version_before, version_after, file.target.uri, plan->reverts),
                              [&] {
                                status = write();
                                return status.ok();
                              });
    if (!status) return landed(status.error());
  }
  result.diff = documentDiff(Rope(current), Rope(plan->text_after), file.name);
  result.file = {{"name", file.name},
                 {"uri", file.target.uri},
                 {"backend", "disk"},
                 {"kind", kind},
                 {"version", version_after}};
  if (file.target.path) result.file["path"] = *file.target.path;
  landed(std::move(result));
}

void RevertRun::applyBuffer(const FileRevert& file, const std::string& method, Landing landed) {
  HashlineService& service = journal_.service();
  auto reverts = std::make_shared<std::vector<HunkRef>>();
  auto ops = std::make_shared<std::vector<JournalOp>>(file.ops);
  std::string name = file.name;
  BufferPlanner planner = [reverts, ops, name](OpenDocument& open, bool) -> Result<PlannedEdit> {
    std::string current = open.document.text().toString();
    Result<RewindPlan> plan = planRewind(current, pointers(*ops), name);
    if (!plan) return plan.error();
    *reverts = plan->reverts;
    EditPlan edit;
    edit.base_version = open.document.version();
    edit.edits = minimalEdits(current, plan->text_after);
    if (edit.edits.empty()) return Error::make(ErrorCode::NoChange, name + ": nothing to revert");
    return completePlan(std::move(edit), open.document.text(), Tier::Block);
  };
  auto self = shared_from_this();
  FileRevert copy = file;
  if (Result<std::string> current = journal_.currentText(file.target); current) {
    Result<RewindPlan> plan = planRewind(*current, pointers(file.ops), file.name);
    if (plan && plan->text_after == *current) {
      // Nothing to send to the editor; the journal still learns what is undone.
      const OpenDocument* open = service.editor_->documents->find(file.target.key);
      std::int64_t version = open ? open->document.version() : 0;
      Landed result;
      result.name = file.name;
      result.op = recordOp(file, method, *current, *current, "buffer", "update", version, version,
                           file.target.uri, plan->reverts);
      result.file = {{"name", file.name},
                     {"uri", file.target.uri},
                     {"backend", "buffer"},
                     {"kind", "update"},
                     {"version", version}};
      return landed(std::move(result));
    }
  }
  service.applier_->apply(
      file.target.key, "hashline " + method, std::move(planner),
      [self, copy, method, reverts, landed](Result<BufferApplied> outcome) {
        if (!outcome) return landed(outcome.error());
        const BufferApplied& applied = *outcome;
        std::string before = applied.planned.before.toString();
        std::string after = applied.planned.after.toString();
        Landed result;
        result.name = copy.name;
        result.diff = documentDiff(applied.planned.before, applied.planned.after, copy.name);
        result.op =
            self->recordOp(copy, method, before, after, "buffer", "update", applied.version_before,
                           applied.version_after, applied.uri, *reverts);
        result.file = {{"name", copy.name},
                       {"uri", applied.uri},
                       {"backend", "buffer"},
                       {"kind", "update"},
                       {"version", applied.version_after}};
        if (copy.target.path) result.file["path"] = *copy.target.path;
        landed(std::move(result));
      },
      request_.caller.confirm);
}

void RevertRun::rollback(std::size_t failed, Error cause) {
  auto self = shared_from_this();
  auto rolled_back = std::make_shared<json>(json::array());
  auto rollback_failed = std::make_shared<json>(json::array());
  auto step = std::make_shared<std::function<void(std::size_t)>>();
  *step = [self, step, failed, cause, rolled_back, rollback_failed](std::size_t remaining) {
    if (remaining == 0) {
      json applied = json::array();
      for (const Landed& landed : self->landed_)
        applied.push_back(landed.name);
      json refusal = refusalToJSON(cause);
      refusal["failedFile"] = self->request_.files[failed].name;
      refusal["applied"] = std::move(applied);
      refusal["rolledBack"] = *rolled_back;
      refusal["rollbackFailed"] = *rollback_failed;
      return self->done_(std::move(refusal));
    }
    const Landed& landed = self->landed_[remaining - 1];
    const JournalOp* op = self->journal_.model().find(landed.op);
    FileRevert undo = self->request_.files[remaining - 1];
    undo.ops.clear();
    if (op) undo.ops.push_back(*op);
    self->applyFile(
        undo, "rollback",
        [step, remaining, landed, rolled_back, rollback_failed](Result<Landed> out) {
          if (out)
            rolled_back->push_back(landed.name);
          else
            rollback_failed->push_back({{"path", landed.name}, {"error", toJSON(out.error())}});
          (*step)(remaining - 1);
        });
  };
  (*step)(landed_.size());
}

void RevertRun::finish() {
  json ops = json::array(), files = json::array(), reverted = json::array();
  std::string diff;
  for (const Landed& landed : landed_) {
    if (const JournalOp* op = journal_.model().find(landed.op)) {
      ops.push_back(opSummaryJSON(*op));
      for (const HunkRef& ref : op->reverts)
        reverted.push_back(formatHunkRef(ref));
    }
    files.push_back(landed.file);
    diff += landed.diff;
  }
  done_(json{{"status", "applied"},
             {"method", request_.method},
             {"ops", std::move(ops)},
             {"reverted", std::move(reverted)},
             {"files", std::move(files)},
             {"diff", diff}});
}

} // namespace hashline::lsp
