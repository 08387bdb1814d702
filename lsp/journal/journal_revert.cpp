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
#include "lsp/service/transaction.h"
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

namespace {

std::vector<const JournalOp*> pointers(const std::vector<JournalOp>& ops) {
  std::vector<const JournalOp*> out;
  for (const JournalOp& op : ops)
    out.push_back(&op);
  return out;
}

json refusedBeforeWriting(const Error& error) {
  json out = refusalToJSON(error);
  out["applied"] = json::array();
  return out;
}

/// Plans the revert of `file` on the document as it is when the commit runs.
ChangePlanner revertPlanner(HashlineService& service, FileRevert file) {
  return [&service, file = std::move(file)](const DocumentSnapshot& now,
                                            bool) -> Result<PlannedChange> {
    const std::string current = now.exists ? now.text.toString() : std::string();
    if (file.origin) {
      Result<DiskText> there = service.disk().load(*file.origin->resolved, true);
      if (!there) return there.error();
      if (auto refusal = moveBackRefusal(file, now.exists, there->exists())) return *refusal;
    } else if (auto refusal = recreateRefusal(file, now.exists)) {
      return *refusal;
    }
    Result<RewindPlan> rewound = planRewind(current, pointers(file.ops), file.name);
    if (!rewound) return rewound.error();
    PlannedChange change;
    change.reverts = rewound->reverts;
    change.edit.before = now.text;
    change.edit.after = Rope(rewound->text_after);
    if (file.origin) { // moved back: one journaled move
      change.kind = AppliedEdit::Kind::Move;
      return change;
    }
    if (rewound->text_after == current) return change; // the ops cancel out: nothing to write
    const bool created_by_ops = file.ops.front().kind == "create";
    const bool deleted_by_ops = file.ops.back().kind == "delete";
    if (!now.open && created_by_ops && rewound->text_after.empty() && now.exists) {
      change.kind = AppliedEdit::Kind::Delete;
      return change;
    }
    if (!now.exists) {
      if (!deleted_by_ops)
        return Error::make(ErrorCode::FileNotFound,
                           file.name + " no longer exists; nothing was written");
      change.kind = AppliedEdit::Kind::Create;
      return change;
    }
    EditPlan plan;
    plan.base_version = now.version;
    plan.edits = minimalEdits(current, rewound->text_after);
    change.edit = completePlan(std::move(plan), now.text, Tier::Block);
    return change;
  };
}

/// One reverted file of the result.
json fileResult(const FileRevert& file, const Committed& landed) {
  const bool moved = landed.edit.kind == AppliedEdit::Kind::Move;
  const ServiceTarget& where = moved ? *file.origin : file.target;
  json entry = {{"name", moved ? file.origin_name : file.name},
                {"uri", moved ? file.origin->uri : landed.edit.uri},
                {"backend", file.target.backendName()},
                {"kind", journalKindName(landed.edit.kind)},
                {"version", landed.edit.version_after}};
  if (moved) entry["movedFrom"] = file.name;
  if (where.path) entry["path"] = *where.path;
  return entry;
}

class RevertRun : public std::enable_shared_from_this<RevertRun> {
public:
  RevertRun(JournalService& journal, RevertRequest request, ServiceCallback done)
      : journal_(journal), request_(std::move(request)), done_(std::move(done)) {}

  void start();

private:
  /// Verifies every file in order on the state the files before it leave; the refusal, if any.
  std::optional<json> verify(json& previews, json& reverts, std::string& diff);
  void finish(const TransactionOutcome& outcome);

  JournalService& journal_;
  RevertRequest request_;
  ServiceCallback done_;
};

} // namespace

void runRevert(JournalService& journal, RevertRequest request, ServiceCallback done) {
  auto run = std::make_shared<RevertRun>(journal, std::move(request), std::move(done));
  run->start();
}

std::optional<json> RevertRun::verify(json& previews, json& reverts, std::string& all_diffs) {
  HashlineService& service = journal_.service();
  // What the files earlier in the request leave at a path (nullopt: no file), so a move back and
  // the files around it are verified in the state each will find.
  std::map<std::string, std::optional<std::string>> simulated;
  auto stateOf = [&](const ServiceTarget& target) -> Result<std::optional<std::string>> {
    if (auto it = simulated.find(target.key); it != simulated.end()) return it->second;
    Result<DocumentSnapshot> now = service.backendFor(target).snapshot(target);
    if (!now) return now.error();
    if (!now->exists) return std::optional<std::string>();
    return std::optional<std::string>(now->text.toString());
  };
  for (const FileRevert& file : request_.files) {
    Result<std::optional<std::string>> state = stateOf(file.target);
    if (!state) return refusalToJSON(state.error());
    if (file.origin) {
      Result<std::optional<std::string>> there = stateOf(*file.origin);
      if (!there) return refusalToJSON(there.error());
      if (auto refusal = moveBackRefusal(file, state->has_value(), there->has_value()))
        return refusedBeforeWriting(*refusal);
    }
    if (auto refusal = recreateRefusal(file, state->has_value()))
      return refusedBeforeWriting(*refusal);
    const std::string current = state->value_or("");
    Result<RewindPlan> plan = planRewind(current, pointers(file.ops), file.name);
    if (!plan) return refusedBeforeWriting(plan.error());
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
                  {"backend", file.target.backendName()},
                  {"diff", diff}};
    if (file.target.path) entry["path"] = *file.target.path;
    if (file.origin && file.origin->path) entry["movesBackTo"] = *file.origin->path;
    previews.push_back(std::move(entry));
  }
  return std::nullopt;
}

void RevertRun::start() {
  // 1. Verify every file on its current text before writing anything.
  json previews = json::array(), reverts = json::array();
  std::string all_diffs;
  if (std::optional<json> refusal = verify(previews, reverts, all_diffs))
    return done_(std::move(*refusal));
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
  // 2. Commit file by file; the runner rolls back what landed if one fails.
  HashlineService& service = journal_.service();
  std::vector<TransactionStep> steps;
  for (const FileRevert& file : request_.files) {
    Commit commit;
    commit.target = file.target;
    commit.destination = file.origin;
    commit.plan = revertPlanner(service, file);
    commit.intent = {request_.method, request_.caller};
    commit.confirm = request_.caller.confirm;
    steps.push_back({file.name, {}});
    steps.back().commits.push_back(std::move(commit));
  }
  auto self = shared_from_this();
  runTransaction(service.backends(), std::move(steps),
                 [self](TransactionOutcome outcome) { self->finish(outcome); });
}

void RevertRun::finish(const TransactionOutcome& outcome) {
  if (!outcome.ok()) return done_(transactionRefusal(outcome, AppliedList::Landed));
  json ops = json::array(), files = json::array(), reverted = json::array();
  std::string diff;
  const Journal& model = journal_.model();
  for (std::size_t i = 0; i < outcome.landed.size(); ++i) {
    const Committed& landed = outcome.landed[i].commits.back();
    const FileRevert& file = request_.files[i];
    if (const JournalOp* op = model.find(landed.op)) {
      ops.push_back(opSummaryJSON(*op));
      for (const HunkRef& ref : op->reverts)
        reverted.push_back(formatHunkRef(ref));
    }
    files.push_back(fileResult(file, landed));
    const bool moved = landed.edit.kind == AppliedEdit::Kind::Move;
    diff += documentDiff(landed.edit.before, landed.planned.after,
                         moved ? file.origin_name : file.name);
  }
  done_(json{{"status", "applied"},
             {"method", request_.method},
             {"ops", std::move(ops)},
             {"reverted", std::move(reverted)},
             {"files", std::move(files)},
             {"diff", diff}});
}

} // namespace hashline::lsp
