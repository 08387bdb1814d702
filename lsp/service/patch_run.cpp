// A codex patch across buffers and disk files, committed as one transaction; see patch_run.h.
#include "lsp/service/patch_run.h"

#include "engine/diff/unified_diff.h"
#include "engine/forms/patch_plan.h"
#include "engine/text/text_compare.h"
#include "engine/verify/fresh_anchors.h"
#include "lsp/protocol/error_json.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/result_json.h"
#include "lsp/service/transaction.h"

#include <memory>

namespace hashline::lsp {

using nlohmann::json;

namespace {

const char* kindName(forms::PatchFileKind kind) {
  switch (kind) {
  case forms::PatchFileKind::Add:
    return "add";
  case forms::PatchFileKind::Delete:
    return "delete";
  case forms::PatchFileKind::Update:
    return "update";
  case forms::PatchFileKind::Move:
    return "move";
  }
  return "update";
}

} // namespace

class PatchRun : public std::enable_shared_from_this<PatchRun> {
public:
  PatchRun(HashlineService& service, PatchRequest request, ServiceCallback done)
      : service_(service), request_(std::move(request)), done_(std::move(done)) {}

  void run();

private:
  struct Step {
    forms::PatchFilePlan plan;
    forms::PatchHunk hunk;
    ServiceTarget source;
    std::optional<ServiceTarget> destination; // Move
    std::optional<DocumentSnapshot> base;     // the source as planned (disk: read once)
    std::optional<DocumentSnapshot> replaced; // Move onto an existing disk file
  };

  Result<std::optional<forms::FileSnapshot>> readFile(const std::string& path);
  /// The document at `target`, read once per run: the plan and the commit share one read.
  Result<DocumentSnapshot> snapshotOnce(const ServiceTarget& target);
  Result<ServiceTarget> targetOf(const std::string& path);
  Result<Step> stepOf(forms::PatchFilePlan plan, const forms::PatchHunk& hunk);
  Status checkStep(const Step& step) const;
  /// The step's diff: by its plan when the committed text is the plan applied to the base
  /// (O(change) on any file size), else by comparing the two texts.
  std::string stepDiff(const Step& step, const EditPlan& plan, const Rope& after,
                       bool committed_is_plan) const;
  TransactionStep transactionStep(std::size_t index);
  ChangePlanner bufferPlanner(std::size_t index);
  ChangePlanner diskPlanner(std::size_t index);
  void finish(TransactionOutcome outcome);
  std::string nameOf(const Step& step) const {
    return step.source.resolved && !step.source.resolved->relative.empty()
               ? step.source.resolved->relative
               : step.plan.path;
  }

  HashlineService& service_;
  PatchRequest request_;
  ServiceCallback done_;
  std::map<std::string, ServiceTarget> targets_;      // by path as spelled in the patch
  std::map<std::string, DocumentSnapshot> snapshots_; // by target key
  std::vector<Step> steps_;
};

Result<ServiceTarget> PatchRun::targetOf(const std::string& path) {
  if (auto it = targets_.find(path); it != targets_.end()) return it->second;
  DocumentRef ref;
  ref.path = path;
  Result<ServiceTarget> target = service_.locate(ref);
  if (target) targets_[path] = *target;
  return target;
}

Result<DocumentSnapshot> PatchRun::snapshotOnce(const ServiceTarget& target) {
  if (auto it = snapshots_.find(target.key); it != snapshots_.end()) return it->second;
  Result<DocumentSnapshot> now = service_.backendFor(target).snapshot(target);
  if (now) snapshots_[target.key] = *now;
  return now;
}

Result<std::optional<forms::FileSnapshot>> PatchRun::readFile(const std::string& path) {
  Result<ServiceTarget> target = targetOf(path);
  if (!target) return std::move(target).error();
  Result<DocumentSnapshot> now = snapshotOnce(*target);
  if (!now) return std::move(now).error();
  if (!now->exists) return std::optional<forms::FileSnapshot>();
  return std::optional<forms::FileSnapshot>(forms::FileSnapshot{now->text, now->version});
}

std::string PatchRun::stepDiff(const Step& step, const EditPlan& plan, const Rope& after,
                               bool committed_is_plan) const {
  const std::string name = nameOf(step);
  if (step.plan.base && step.plan.new_text && committed_is_plan) {
    UnifiedDiffOptions options;
    options.old_label = "a/" + name;
    options.new_label = "b/" + name;
    return unifiedDiffOfPlan(step.plan.base->text, plan, options);
  }
  return documentDiff(step.plan.base ? step.plan.base->text : Rope(), after, name);
}

Status PatchRun::checkStep(const Step& step) const {
  const std::string name = nameOf(step);
  const bool removes = step.plan.kind == forms::PatchFileKind::Delete ||
                       step.plan.kind == forms::PatchFileKind::Move;
  if (step.source.open && removes) {
    Error error = Error::make(ErrorCode::Conflict,
                              name + " is open in the editor: hashline does not delete or move "
                                     "a file behind its buffer");
    error.withHint("close the file in the editor (or save and close it), then retry");
    error.data.path = step.source.uri;
    return error;
  }
  if (step.destination && step.destination->open) {
    Error error =
        Error::make(ErrorCode::Conflict, "the move destination " + step.plan.new_path +
                                             " is open in the editor; close it, then retry");
    error.data.path = step.destination->uri;
    return error;
  }
  if (!step.plan.base) return Status::success(); // a new file needs no read
  const Observation* observation =
      service_.observations().find(request_.caller.session, step.source.key);
  if (!observation || !observation->observed()) {
    Error error =
        Error::make(ErrorCode::NotObserved, "edit requires reading \"" + name + "\" first");
    error.data.path = step.source.uri;
    return error;
  }
  const std::int64_t read_version = observation->latest()->version;
  if (read_version == step.plan.base->version) return Status::success();
  if (step.base && step.base->open) {
    std::optional<Rope> read_text = step.base->open->document.snapshotAt(read_version);
    if (read_text && sameText(*read_text, step.plan.base->text)) return Status::success();
  }
  Error error =
      Error::make(ErrorCode::StaleVersion, "cannot edit \"" + name +
                                               "\": it changed since it was read (read at "
                                               "version " +
                                               std::to_string(read_version) + ", now at version " +
                                               std::to_string(step.plan.base->version) + ")");
  error.data.path = step.source.uri;
  return error;
}

Result<PatchRun::Step> PatchRun::stepOf(forms::PatchFilePlan plan, const forms::PatchHunk& hunk) {
  Step step;
  step.plan = std::move(plan);
  step.hunk = hunk;
  Result<ServiceTarget> source = targetOf(step.plan.path);
  if (!source) return source.error();
  step.source = *source;
  if (step.plan.kind == forms::PatchFileKind::Move) {
    Result<ServiceTarget> destination = targetOf(step.plan.new_path);
    if (!destination) return destination.error();
    step.destination = *destination;
  }
  Result<DocumentSnapshot> base = snapshotOnce(step.source);
  if (!base) return base.error();
  step.base = std::move(*base);
  if (Status checked = checkStep(step); !checked.ok()) return checked.error();
  if (step.destination && step.plan.overwrites_destination) {
    Result<DocumentSnapshot> replaced = snapshotOnce(*step.destination);
    if (!replaced) return replaced.error();
    if (replaced->exists) step.replaced = std::move(*replaced);
  }
  return step;
}

void PatchRun::run() {
  Result<forms::Patch> patch = forms::parsePatch(request_.patch);
  if (!patch) return done_(refusalToJSON(patch.error()));
  Result<forms::PatchPlan> plan =
      forms::planPatch(*patch, [this](const std::string& path) { return readFile(path); });
  if (!plan) return done_(refusalToJSON(plan.error()));

  std::string diff;
  for (std::size_t i = 0; i < plan->files.size(); ++i) {
    Result<Step> step = stepOf(std::move(plan->files[i]), patch->hunks[i]);
    if (!step) return done_(refusalToJSON(step.error()));
    diff +=
        stepDiff(*step, step->plan.plan, step->plan.new_text ? *step->plan.new_text : Rope(), true);
    steps_.push_back(std::move(*step));
  }
  if (request_.dry_run) {
    json files = json::array();
    for (const Step& step : steps_)
      files.push_back({{"path", nameOf(step)},
                       {"kind", kindName(step.plan.kind)},
                       {"backend", step.source.backendName()}});
    return done_(json{{"status", "preview"}, {"files", std::move(files)}, {"diff", diff}});
  }
  std::vector<TransactionStep> steps;
  for (std::size_t i = 0; i < steps_.size(); ++i)
    steps.push_back(transactionStep(i));
  auto self = shared_from_this();
  runTransaction(service_.backends(), std::move(steps),
                 [self](TransactionOutcome outcome) { self->finish(std::move(outcome)); });
}

TransactionStep PatchRun::transactionStep(std::size_t index) {
  const Step& step = steps_[index];
  TransactionStep out;
  out.name = nameOf(step);
  const ChangeIntent intent{"patch", request_.caller};
  if (step.replaced) {
    // The overwritten destination is an op of its own (a delete, undoable), so a kill between
    // the two writes leaves it journaled too.
    Commit replaced;
    replaced.target = *step.destination;
    replaced.base = step.replaced;
    replaced.intent = intent;
    replaced.plan = [](const DocumentSnapshot& now, bool) -> Result<PlannedChange> {
      PlannedChange change;
      change.kind = AppliedEdit::Kind::Delete;
      change.edit.before = now.text;
      return change;
    };
    out.commits.push_back(std::move(replaced));
  }
  Commit commit;
  commit.target = step.source;
  commit.destination = step.destination;
  commit.base = step.base;
  commit.intent = intent;
  commit.confirm = request_.caller.confirm;
  commit.plan = step.source.open ? bufferPlanner(index) : diskPlanner(index);
  out.commits.push_back(std::move(commit));
  return out;
}

ChangePlanner PatchRun::bufferPlanner(std::size_t index) {
  // An update of an open document (or an Add over it): one versioned applyEdit.
  auto self = shared_from_this();
  return [self, index](const DocumentSnapshot& now, bool retry) -> Result<PlannedChange> {
    const Step& step = self->steps_[index];
    Tier tier = self->service_.tierFor(self->request_.caller.session, step.source.key);
    if (!retry && now.version == step.plan.base->version)
      return asUpdate(completePlan(step.plan.plan, now.text, tier));
    // The user typed meanwhile: plan this file's hunk again on the current text.
    forms::Patch single;
    single.hunks.push_back(step.hunk);
    Result<forms::PatchPlan> again = forms::planPatch(single, [&](const std::string&) {
      return Result<std::optional<forms::FileSnapshot>>(
          std::optional<forms::FileSnapshot>(forms::FileSnapshot{now.text, now.version}));
    });
    if (!again) return std::move(again).error();
    return asUpdate(completePlan(again->files[0].plan, now.text, tier));
  };
}

ChangePlanner PatchRun::diskPlanner(std::size_t index) {
  auto self = shared_from_this();
  return [self, index](const DocumentSnapshot& now, bool) -> Result<PlannedChange> {
    const Step& step = self->steps_[index];
    PlannedChange change;
    switch (step.plan.kind) {
    case forms::PatchFileKind::Delete:
      change.kind = AppliedEdit::Kind::Delete;
      change.edit.before = now.text;
      change.edit.plan = step.plan.plan;
      return change;
    case forms::PatchFileKind::Move:
      change.kind = AppliedEdit::Kind::Move;
      break;
    case forms::PatchFileKind::Add:
    case forms::PatchFileKind::Update:
      change.kind = step.plan.base ? AppliedEdit::Kind::Update : AppliedEdit::Kind::Create;
      break;
    }
    const ServiceTarget& where = step.destination ? *step.destination : step.source;
    change.edit = completePlan(step.plan.plan, now.text,
                               self->service_.tierFor(self->request_.caller.session, where.key));
    change.edit.after = *step.plan.new_text;
    return change;
  };
}

void PatchRun::finish(TransactionOutcome outcome) {
  if (!outcome.ok()) {
    const Step& failed = steps_[*outcome.failed];
    Error& error = *outcome.error;
    if (!error.data.path) error.data.path = failed.source.uri;
    error.message = nameOf(failed) + ": " + error.message;
    return done_(transactionRefusal(outcome, AppliedList::Remaining));
  }
  json files = json::array();
  std::string diff;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const Committed& landed = outcome.landed[i].commits.back();
    const ServiceTarget& where = step.destination ? *step.destination : step.source;
    json entry = {{"path", nameOf(step)},
                  {"uri", where.uri},
                  {"kind", kindName(step.plan.kind)},
                  {"backend", step.source.backendName()}};
    if (step.destination) entry["movedTo"] = step.plan.new_path;
    if (step.plan.new_text) {
      entry["version"] = landed.edit.version_after;
      std::vector<AnchoredRow> anchors = service_.freshAnchors(landed, request_.caller.session);
      if (!anchors.empty()) entry["anchors"] = rowsToJSON(anchors);
    }
    // A buffer re-planned on newer text (the user typed) is not the plan applied to the base.
    const bool committed_is_plan =
        !step.source.open || landed.edit.version_before == step.plan.base->version;
    diff += stepDiff(step, landed.planned.plan, step.plan.new_text ? landed.edit.after : Rope(),
                     committed_is_plan);
    files.push_back(std::move(entry));
  }
  done_(json{{"status", "applied"}, {"files", std::move(files)}, {"diff", diff}});
}

void runPatch(HashlineService& service, PatchRequest request, ServiceCallback done) {
  auto run = std::make_shared<PatchRun>(service, std::move(request), std::move(done));
  run->run();
}

void HashlineService::patch(PatchRequest request, ServiceCallback done) {
  runPatch(*this, std::move(request), std::move(done));
}

} // namespace hashline::lsp
