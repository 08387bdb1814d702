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

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

namespace hashline::lsp {

using nlohmann::json;
using namespace hashline::journal;

namespace {

Error conflict(std::string message) {
  return Error::make(ErrorCode::Conflict, std::move(message));
}

/// Why a moved document cannot be moved back from `file.target` to `file.origin` (disk state
/// `here` / `there`: nullopt when the file is missing); nullopt when it can.
std::optional<Error> moveBackRefusal(const FileRevert& file, bool here, bool there) {
  const std::string from = file.name, to = file.origin_name;
  if (file.target.open || file.origin->open)
    return conflict("cannot move " + from + " back to " + to + ": " +
                    (file.target.open ? from : to) +
                    " is open in the editor (a move back needs both paths closed: save or "
                    "discard and close the buffer, then retry); nothing was written");
  if (!here)
    return conflict("cannot move " + from + " back to " + to + ": " + from +
                    " no longer exists; nothing was written");
  if (there)
    return conflict("cannot move " + from + " back to " + to + ": " + to +
                    " exists again (move or delete it first); nothing was written");
  return std::nullopt;
}

/// A file the ops deleted that exists again (recreated, or a moved file put there since): its
/// old content cannot come back over it.
std::optional<Error> recreateRefusal(const FileRevert& file, bool exists) {
  if (!exists || file.origin || file.ops.empty()) return std::nullopt;
  const JournalOp& last = file.ops.back();
  if (last.kind != "delete" || !last.inEffect()) return std::nullopt;
  return conflict("cannot recreate " + file.name + ": it exists again (move or delete it " +
                  "first); nothing was written");
}

} // namespace

std::vector<FileRevert> groupByDocument(JournalService& journal,
                                        const std::vector<const JournalOp*>& ops,
                                        std::optional<Error>& error) {
  std::vector<FileRevert> files;
  std::vector<std::uint64_t> newest, first_move; // per file: sort keys
  std::map<std::string, std::size_t> index;      // document key (where it is now) → file
  // Ops no longer in effect stay in their file's set: a reverting op of the set may bring them
  // back (planRewind follows the states). A file with nothing in effect is left out.
  std::set<std::size_t> live;
  std::map<std::string, ServiceTarget> targets; // located once per recorded URI/path
  auto locate = [&](const JournalOp* op,
                    const std::optional<std::string>& moved_to) -> const ServiceTarget* {
    std::string spelling = moved_to ? '\n' + *moved_to : op->uri + '\n' + op->path.value_or("");
    auto known = targets.find(spelling);
    if (known != targets.end()) return &known->second;
    Result<ServiceTarget> target =
        moved_to ? journal.targetOfPath(*moved_to) : journal.targetOf(*op);
    if (!target) {
      error = target.error();
      return nullptr;
    }
    return &targets.emplace(std::move(spelling), std::move(*target)).first->second;
  };
  bool moved = false;
  for (const JournalOp* op : ops) {
    const ServiceTarget* target = locate(op, std::nullopt);
    if (!target) return {};
    auto [it, inserted] = index.try_emplace(target->key, files.size());
    std::size_t at = it->second;
    if (inserted) {
      files.push_back({*target, op->name, {}, std::nullopt, {}});
      newest.push_back(0);
      first_move.push_back(0);
    }
    FileRevert& file = files[at];
    file.ops.push_back(*op);
    newest[at] = op->id;
    if (op->inEffect()) live.insert(at);
    if (op->kind == "move" && op->moved_to) {
      // The document goes on at the destination: later ops there are its ops (what was there
      // before — a replaced file's delete — stays a document of its own).
      const ServiceTarget* to = locate(op, op->moved_to);
      if (!to) return {};
      if (!file.origin) {
        file.origin = file.target;
        file.origin_name = file.name;
        first_move[at] = op->id;
      }
      file.target = *to;
      file.name = journal.displayName(op->moved_to, to->uri);
      index.erase(it);
      index[to->key] = at;
      moved = true;
    }
  }
  std::vector<std::pair<std::uint64_t, FileRevert>> keyed;
  for (std::size_t at = 0; at < files.size(); ++at) {
    if (!live.count(at)) continue;
    FileRevert& file = files[at];
    if (file.origin && file.origin->key == file.target.key) file.origin.reset(); // moved back
    keyed.emplace_back(file.origin ? first_move[at] : newest[at], std::move(file));
  }
  // Around a move, newest first: a later file at the origin's path goes before the move back,
  // the file the move replaced at its destination after it.
  if (moved)
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<FileRevert> out;
  for (auto& [key, file] : keyed)
    out.push_back(std::move(file));
  return out;
}

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
  void applyMoveBack(const FileRevert& file, const std::string& method, Landing landed);
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
  // What the files earlier in the request leave at a path (nullopt: no file), so a move back and
  // the files around it are verified in the state each will find.
  std::map<std::string, std::optional<std::string>> simulated;
  auto stateOf = [&](const ServiceTarget& target) -> Result<std::optional<std::string>> {
    if (auto it = simulated.find(target.key); it != simulated.end()) return it->second;
    if (target.open) {
      Result<std::string> text = journal_.currentText(target);
      if (!text) return text.error();
      return std::optional<std::string>(std::move(*text));
    }
    Result<DiskText> text = journal_.service().disk_.load(*target.resolved, true);
    if (!text) return text.error();
    if (!text->exists()) return std::optional<std::string>();
    return std::optional<std::string>(text->text.toString());
  };
  for (const FileRevert& file : request_.files) {
    Result<std::optional<std::string>> state = stateOf(file.target);
    if (!state) return done_(refusalToJSON(state.error()));
    if (file.origin) {
      Result<std::optional<std::string>> there = stateOf(*file.origin);
      if (!there) return done_(refusalToJSON(there.error()));
      if (auto refusal = moveBackRefusal(file, state->has_value(), there->has_value())) {
        json out = refusalToJSON(*refusal);
        out["applied"] = json::array();
        return done_(std::move(out));
      }
    }
    if (auto refusal = recreateRefusal(file, state->has_value())) {
      json out = refusalToJSON(*refusal);
      out["applied"] = json::array();
      return done_(std::move(out));
    }
    const std::string current = state->value_or("");
    Result<RewindPlan> plan = planRewind(current, pointers(file.ops), file.name);
    if (!plan) {
      json refusal = refusalToJSON(plan.error());
      refusal["applied"] = json::array();
      return done_(std::move(refusal));
    }
    if (file.origin) {
      simulated[file.target.key] = std::nullopt;
      simulated[file.origin->key] = plan->text_after;
    } else {
      bool created_by_ops = file.ops.front().kind == "create";
      simulated[file.target.key] = created_by_ops && plan->text_after.empty()
                                       ? std::nullopt
                                       : std::optional<std::string>(plan->text_after);
    }
    for (const HunkRef& ref : plan->reverts)
      reverts.push_back(formatHunkRef(ref));
    std::string diff = documentDiff(Rope(current), Rope(plan->text_after), file.name);
    all_diffs += diff;
    json entry = {{"name", file.name},
                  {"uri", file.target.uri},
                  {"backend", file.target.open ? "buffer" : "disk"},
                  {"diff", diff}};
    if (file.target.path) entry["path"] = *file.target.path;
    if (file.origin && file.origin->path) entry["movesBackTo"] = *file.origin->path;
    previews.push_back(std::move(entry));
  }
  if (reverts.empty())
    return done_(refusalToJSON(
        Error::make(ErrorCode::NoChange,
                    "nothing to revert: the selected hunks are no longer in effect")
            .withHint("nothing is left to reverse; `log` shows which ops are still in effect")));
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
  if (file.origin) return applyMoveBack(file, method, std::move(landed)); // refuses buffers
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

void RevertRun::applyMoveBack(const FileRevert& file, const std::string& method, Landing landed) {
  DiskBackend& disk = journal_.service().disk_;
  Result<DiskText> base = disk.load(*file.target.resolved, true);
  if (!base) return landed(base.error());
  Result<DiskText> there = disk.load(*file.origin->resolved, true);
  if (!there) return landed(there.error());
  if (auto refusal = moveBackRefusal(file, base->exists(), there->exists()))
    return landed(*refusal);
  std::string current = base->text.toString();
  Result<RewindPlan> plan = planRewind(current, pointers(file.ops), file.name);
  if (!plan) return landed(plan.error());
  // One journaled move (intent, atomic move that never replaces a file, outcome): a kill
  // mid-way leaves the file where it was, or moved back and journaled (settled by the origin).
  JournalOp op =
      makeOp(file, method, current, plan->text_after, "disk", "move", base->version,
             JournalService::contentVersion(plan->text_after), file.target.uri, plan->reverts);
  op.moved_to = file.origin->path;
  std::int64_t version_after = op.version_after;
  Status status = Status::success();
  Landed result;
  result.name = file.name;
  result.op = journal_.recordAround(std::move(op), [&] {
    Result<disk::Fingerprint> moved =
        disk.move(*base, *file.origin->resolved, Rope(plan->text_after));
    if (!moved) status = moved.error();
    return moved.ok();
  });
  if (!status) return landed(status.error());
  result.diff = documentDiff(Rope(current), Rope(plan->text_after), file.origin_name);
  result.file = {{"name", file.origin_name}, {"uri", file.origin->uri}, {"backend", "disk"},
                 {"kind", "move"},           {"movedFrom", file.name},  {"version", version_after}};
  if (file.origin->path) result.file["path"] = *file.origin->path;
  landed(std::move(result));
}

void RevertRun::applyDisk(const FileRevert& file, const std::string& method, Landing landed) {
  if (file.origin) return applyMoveBack(file, method, std::move(landed));
  DiskBackend& disk = journal_.service().disk_;
  Result<DiskText> base = disk.load(*file.target.resolved, true);
  if (!base) return landed(base.error());
  if (auto refusal = recreateRefusal(file, base->exists())) return landed(*refusal);
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
    if (edit.edits.empty())
      return Error::make(ErrorCode::NoChange, name + ": nothing to revert")
          .withHint("nothing is left to reverse; `log` shows which ops are still in effect");
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
    undo.origin.reset();
    std::optional<Error> located;
    std::vector<FileRevert> grouped;
    if (op) grouped = groupByDocument(self->journal_, {op}, located);
    if (!located && grouped.size() == 1)
      undo = std::move(grouped.front()); // a move back is moved forward again
    else if (op)
      undo.ops.push_back(*op);
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
