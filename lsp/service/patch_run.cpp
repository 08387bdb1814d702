// A codex patch across buffers and disk files, with rollback; see patch_run.h.
#include "lsp/service/patch_run.h"

#include "engine/diff/minimal_edits.h"
#include "engine/diff/unified_diff.h"
#include "engine/forms/patch_plan.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/journal/journal_service.h"
#include "lsp/protocol/error_json.h"
#include "lsp/service/fresh_anchors.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/result_json.h"
#include "lsp/service/text_compare.h"

#include <memory>

namespace hashline::lsp {

using nlohmann::json;

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
    std::optional<DiskText> disk_base;        // disk source (exists or not)
    std::optional<DiskText> destination_base; // Move onto an existing disk file
    bool applied = false;
    std::int64_t version_after = 0;
    std::optional<disk::Fingerprint> written;
    std::uint64_t journal_op = 0;     // disk: the op journaled around the write
    std::uint64_t destination_op = 0; // Move: the overwritten destination's delete op
    Rope committed;
    bool committed_is_plan = true; // committed == applyPlan(base text, plan.plan)
    std::vector<AnchoredRow> anchors;
  };

  Result<std::optional<forms::FileSnapshot>> readFile(const std::string& path);
  /// The disk file at `target`, read once per run: the plan and the commit share one read.
  Result<DiskText> loadOnce(const ServiceTarget& target);
  /// The step's diff: by its plan when the committed text is the plan applied to the base
  /// (O(change) on any file size), else by comparing the two texts.
  std::string stepDiff(const Step& step, const Rope& after) const;
  Result<ServiceTarget> targetOf(const std::string& path);
  Status checkStep(Step& step);
  void applyStep(std::size_t index);
  void stepDone(std::size_t index, Status status);
  void rollback(std::size_t index, Error cause);
  Status undoDisk(Step& step);
  static std::vector<journal::HunkRef> revertsOf(std::uint64_t op);
  /// The journal record of a step: `after` is what the file holds once the step landed.
  AppliedEdit editOf(const Step& step, const Rope& after) const;
  /// A disk write journaled around it (an fsynced intent first, docs/journal.md); `edit` says
  /// what it changes. Returns the write's status; `*op` gets the journaled op's id.
  Status journaled(const AppliedEdit& edit, const std::function<Status()>& write,
                   std::uint64_t* op = nullptr, std::vector<journal::HunkRef> reverts = {});
  /// The record of a disk write at `where` that is not a step's own (an overwritten destination's
  /// delete, a rollback).
  AppliedEdit diskEdit(const std::string& method, AppliedEdit::Kind kind,
                       const ServiceTarget& where, const Rope& before, const Rope& after,
                       std::int64_t version_before) const;
  void finish();
  std::string nameOf(const Step& step) const {
    return step.source.resolved && !step.source.resolved->relative.empty()
               ? step.source.resolved->relative
               : step.plan.path;
  }
  std::string kindName(forms::PatchFileKind kind) const {
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
  Tier tierFor(const std::string& key) const {
    const Observation* observation = service_.observations_.find(request_.caller.session, key);
    return observation ? observation->tier(service_.options_.default_tier)
                       : service_.options_.default_tier;
  }

  HashlineService& service_;
  PatchRequest request_;
  ServiceCallback done_;
  std::map<std::string, ServiceTarget> targets_; // by path as spelled in the patch
  std::map<std::string, DiskText> loaded_;       // disk reads, by target key
  std::vector<Step> steps_;
  json rolled_back_ = json::array();
  json rollback_failed_ = json::array();
};

Result<ServiceTarget> PatchRun::targetOf(const std::string& path) {
  if (auto it = targets_.find(path); it != targets_.end()) return it->second;
  DocumentRef ref;
  ref.path = path;
  Result<ServiceTarget> target =
      locateTarget(ref, service_.editor_ ? service_.editor_->documents : nullptr, service_.disk_);
  if (target) targets_[path] = *target;
  return target;
}

Result<std::optional<forms::FileSnapshot>> PatchRun::readFile(const std::string& path) {
  Result<ServiceTarget> target = targetOf(path);
  if (!target) return std::move(target).error();
  if (target->open) {
    Result<const OpenDocument*> open = service_.editor_->documents->readable(target->key);
    if (!open) return std::move(open).error();
    return std::optional<forms::FileSnapshot>(
        forms::FileSnapshot{(*open)->document.text(), (*open)->document.version()});
  }
  Result<DiskText> text = loadOnce(*target);
  if (!text) return std::move(text).error();
  if (!text->exists()) return std::optional<forms::FileSnapshot>();
  return std::optional<forms::FileSnapshot>(forms::FileSnapshot{text->text, text->version});
}

Result<DiskText> PatchRun::loadOnce(const ServiceTarget& target) {
  if (auto it = loaded_.find(target.key); it != loaded_.end()) return it->second;
  Result<DiskText> text = service_.disk_.load(*target.resolved, true);
  if (text) loaded_[target.key] = *text;
  return text;
}

std::string PatchRun::stepDiff(const Step& step, const Rope& after) const {
  const std::string name = nameOf(step);
  if (step.plan.base && step.plan.new_text && step.committed_is_plan) {
    UnifiedDiffOptions options;
    options.old_label = "a/" + name;
    options.new_label = "b/" + name;
    return unifiedDiffOfPlan(step.plan.base->text, step.plan.plan, options);
  }
  return documentDiff(step.plan.base ? step.plan.base->text : Rope(), after, name);
}

Status PatchRun::checkStep(Step& step) {
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
      service_.observations_.find(request_.caller.session, step.source.key);
  if (!observation || !observation->observed()) {
    Error error =
        Error::make(ErrorCode::NotObserved, "edit requires reading \"" + name + "\" first");
    error.data.path = step.source.uri;
    return error;
  }
  const std::int64_t read_version = observation->latest()->version;
  if (read_version == step.plan.base->version) return Status::success();
  if (step.source.open) {
    const OpenDocument* open = service_.editor_->documents->find(step.source.key);
    if (open) {
      std::optional<Rope> read_text = open->document.snapshotAt(read_version);
      if (read_text && sameText(*read_text, step.plan.base->text)) return Status::success();
    }
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

void PatchRun::run() {
  Result<forms::Patch> patch = forms::parsePatch(request_.patch);
  if (!patch) return done_(refusalToJSON(patch.error()));
  Result<forms::PatchPlan> plan =
      forms::planPatch(*patch, [this](const std::string& path) { return readFile(path); });
  if (!plan) return done_(refusalToJSON(plan.error()));

  std::string diff;
  json files = json::array();
  for (std::size_t i = 0; i < plan->files.size(); ++i) {
    Step step;
    step.plan = std::move(plan->files[i]);
    step.hunk = patch->hunks[i];
    Result<ServiceTarget> source = targetOf(step.plan.path);
    if (!source) return done_(refusalToJSON(source.error()));
    step.source = *source;
    if (step.plan.kind == forms::PatchFileKind::Move) {
      Result<ServiceTarget> destination = targetOf(step.plan.new_path);
      if (!destination) return done_(refusalToJSON(destination.error()));
      step.destination = *destination;
    }
    if (Status checked = checkStep(step); !checked.ok())
      return done_(refusalToJSON(checked.error()));
    if (!step.source.open) {
      Result<DiskText> base = loadOnce(step.source);
      if (!base) return done_(refusalToJSON(base.error()));
      step.disk_base = std::move(*base);
    }
    if (step.destination && step.plan.overwrites_destination) {
      Result<DiskText> base = loadOnce(*step.destination);
      if (!base) return done_(refusalToJSON(base.error()));
      step.destination_base = std::move(*base);
    }
    diff += stepDiff(step, step.plan.new_text ? *step.plan.new_text : Rope());
    steps_.push_back(std::move(step));
  }
  if (request_.dry_run) {
    for (const Step& step : steps_)
      files.push_back({{"path", nameOf(step)},
                       {"kind", kindName(step.plan.kind)},
                       {"backend", step.source.open ? "buffer" : "disk"}});
    return done_(json{{"status", "preview"}, {"files", std::move(files)}, {"diff", diff}});
  }
  applyStep(0);
}

void PatchRun::applyStep(std::size_t index) {
  if (index == steps_.size()) return finish();
  Step& step = steps_[index];
  if (step.source.open) {
    // An update of an open document (or an Add over it): one versioned applyEdit.
    auto self = shared_from_this();
    const std::string key = step.source.key;
    BufferPlanner planner = [self, index, key](OpenDocument& open,
                                               bool retry) -> Result<PlannedEdit> {
      Step& step = self->steps_[index];
      Tier tier = self->tierFor(key);
      if (!retry && open.document.version() == step.plan.base->version)
        return completePlan(step.plan.plan, open.document.text(), tier);
      // The user typed meanwhile: plan this file's hunk again on the current text.
      forms::Patch single;
      single.hunks.push_back(step.hunk);
      Result<forms::PatchPlan> again = forms::planPatch(single, [&](const std::string&) {
        return Result<std::optional<forms::FileSnapshot>>(std::optional<forms::FileSnapshot>(
            forms::FileSnapshot{open.document.text(), open.document.version()}));
      });
      if (!again) return std::move(again).error();
      step.plan.plan = again->files[0].plan;
      step.plan.new_text = again->files[0].new_text;
      return completePlan(again->files[0].plan, open.document.text(), tier);
    };
    service_.applier_->apply(
        key, "hashline patch", std::move(planner),
        [self, index](Result<BufferApplied> outcome) {
          Step& step = self->steps_[index];
          if (!outcome) return self->stepDone(index, outcome.error());
          step.version_after = outcome->version_after;
          step.committed = outcome->committed;
          step.plan.plan = outcome->planned.plan;
          // The committed text is the plan applied to what it was sent against (the applier
          // confirms exactly that); a re-plan on newer text (the user typed) is not on the base.
          step.committed_is_plan = outcome->version_before == step.plan.base->version;
          const OpenDocument* open = self->service_.editor_->documents->find(step.source.key);
          step.anchors = issueFreshAnchors(outcome->committed, outcome->version_after,
                                           outcome->planned.tier, outcome->planned.changed_lines,
                                           self->service_.options_.context_lines,
                                           open ? &open->document.changeLog() : nullptr, nullptr,
                                           &self->service_.observations_.observe(
                                               self->request_.caller.session, step.source.key));
          self->stepDone(index, Status::success());
        },
        request_.caller.confirm);
    return;
  }

  // Disk: every write is journaled around it (an fsynced intent before, its outcome after), so
  // a kill at any point leaves each changed file in the journal, undoable; finish() reports the
  // step without recording it twice.
  const DiskText& base = *step.disk_base;
  const AppliedEdit edit = editOf(step, step.plan.new_text ? *step.plan.new_text : Rope());
  auto keep = [&step](Result<disk::Fingerprint> written) -> Status {
    if (!written) return written.error();
    step.written = *written;
    return Status::success();
  };
  Status status = Status::success();
  switch (step.plan.kind) {
  case forms::PatchFileKind::Add:
  case forms::PatchFileKind::Update:
    status = journaled(
        edit, [&] { return keep(service_.disk_.commit(base, *step.plan.new_text)); },
        &step.journal_op);
    break;
  case forms::PatchFileKind::Delete:
    status = journaled(
        edit, [&] { return service_.disk_.remove(base); }, &step.journal_op);
    break;
  case forms::PatchFileKind::Move: {
    const bool overwrites = step.destination_base && step.destination_base->exists();
    if (overwrites) {
      // The overwritten destination is an op of its own (a delete, undoable), so a kill between
      // the two writes leaves it journaled too.
      status = journaled(
          diskEdit("patch", AppliedEdit::Kind::Delete, *step.destination,
                   step.destination_base->text, Rope(), step.destination_base->version),
          [&] { return service_.disk_.remove(*step.destination_base); }, &step.destination_op);
      if (!status.ok()) break;
    }
    status = journaled(
        edit,
        [&] {
          return keep(service_.disk_.move(base, *step.destination->resolved, *step.plan.new_text));
        },
        &step.journal_op);
    if (!status.ok() && overwrites) {
      // Put the overwritten destination back before reporting (a rollback of its delete).
      DiskText gone = *step.destination_base;
      gone.fingerprint.reset();
      (void)journaled(
          diskEdit("rollback", AppliedEdit::Kind::Create, *step.destination, Rope(),
                   step.destination_base->text, 0),
          [&] { return keep(service_.disk_.commit(gone, step.destination_base->text)); }, nullptr,
          revertsOf(step.destination_op));
      step.written.reset();
    }
    break;
  }
  }
  if (status.ok() && step.written) {
    step.version_after = DiskBackend::versionOf(*step.written);
    step.committed = *step.plan.new_text;
  }
  if (status.ok() && step.plan.new_text) {
    const ServiceTarget& where = step.destination ? *step.destination : step.source;
    step.anchors =
        issueFreshAnchors(*step.plan.new_text, step.version_after, tierFor(where.key),
                          completePlan(step.plan.plan, base.text, Tier::Block).changed_lines,
                          service_.options_.context_lines, nullptr, nullptr,
                          &service_.observations_.observe(request_.caller.session, where.key));
  }
  stepDone(index, std::move(status));
}

void PatchRun::stepDone(std::size_t index, Status status) {
  if (!status.ok()) {
    Error error = std::move(status).error();
    if (!error.data.path) error.data.path = steps_[index].source.uri;
    error.message = nameOf(steps_[index]) + ": " + error.message;
    return rollback(index, std::move(error));
  }
  steps_[index].applied = true;
  applyStep(index + 1);
}

AppliedEdit PatchRun::editOf(const Step& step, const Rope& after) const {
  AppliedEdit record;
  record.backend = step.source.open ? AppliedEdit::Backend::Buffer : AppliedEdit::Backend::Disk;
  record.kind = step.plan.kind == forms::PatchFileKind::Delete ? AppliedEdit::Kind::Delete
                : step.plan.kind == forms::PatchFileKind::Move ? AppliedEdit::Kind::Move
                : step.plan.base                               ? AppliedEdit::Kind::Update
                                                               : AppliedEdit::Kind::Create;
  record.method = "patch";
  record.caller = request_.caller;
  record.uri = step.source.uri;
  record.path = step.source.path;
  if (step.destination) record.moved_to = step.destination->path;
  record.version_before = step.plan.base ? step.plan.base->version : 0;
  record.version_after = step.version_after;
  record.before = step.plan.base ? step.plan.base->text : Rope();
  record.after = after;
  record.plan = step.plan.plan;
  return record;
}

AppliedEdit PatchRun::diskEdit(const std::string& method, AppliedEdit::Kind kind,
                               const ServiceTarget& where, const Rope& before, const Rope& after,
                               std::int64_t version_before) const {
  AppliedEdit record;
  record.backend = AppliedEdit::Backend::Disk;
  record.kind = kind;
  record.method = method;
  record.caller = request_.caller;
  record.uri = where.uri;
  record.path = where.path;
  record.version_before = version_before;
  record.before = before;
  record.after = after;
  return record;
}

std::vector<journal::HunkRef> PatchRun::revertsOf(std::uint64_t op) {
  if (op == 0) return {};
  return {journal::HunkRef{op, 0}};
}

Status PatchRun::journaled(const AppliedEdit& edit, const std::function<Status()>& write,
                           std::uint64_t* op, std::vector<journal::HunkRef> reverts) {
  Status status = Status::success();
  DiskWriteJournaling how;
  how.reported = false; // finish() reports a step after skipReport; rollbacks are not reported
  how.reverts = std::move(reverts);
  std::uint64_t id = service_.journal().aroundDiskWrite(
      edit,
      [&] {
        status = write();
        return status.ok();
      },
      how);
  if (op) *op = id;
  return status;
}

Status PatchRun::undoDisk(Step& step) {
  // Each restoring write is journaled around it as a "rollback" op that reverts the step's op,
  // so a kill mid-rollback leaves the journal matching the files.
  const DiskText& base = *step.disk_base;
  const Rope written = step.plan.new_text ? *step.plan.new_text : Rope();
  const std::vector<journal::HunkRef> reverts = revertsOf(step.journal_op);
  auto done = [](auto restored) -> Status {
    return restored ? Status::success() : Status(restored.error());
  };
  switch (step.plan.kind) {
  case forms::PatchFileKind::Add:
  case forms::PatchFileKind::Update: {
    disk::WriteOptions options;
    options.expected = step.written;
    if (!base.exists())
      return journaled(
          diskEdit("rollback", AppliedEdit::Kind::Delete, step.source, written, Rope(),
                   step.version_after),
          [&] { return disk::atomicDelete(base.where, options); }, nullptr, reverts);
    return journaled(
        diskEdit("rollback", AppliedEdit::Kind::Update, step.source, written, base.text,
                 step.version_after),
        [&] { return done(disk::atomicReplace(base.where, base.text.toString(), options)); },
        nullptr, reverts);
  }
  case forms::PatchFileKind::Delete:
    return journaled(
        diskEdit("rollback", AppliedEdit::Kind::Create, step.source, Rope(), base.text, 0),
        [&] { return done(disk::atomicCreate(base.where, base.text.toString())); }, nullptr,
        reverts);
  case forms::PatchFileKind::Move: {
    disk::WriteOptions options;
    options.expected = step.written;
    AppliedEdit back = diskEdit("rollback", AppliedEdit::Kind::Move, *step.destination, written,
                                base.text, step.version_after);
    back.moved_to = step.source.path;
    Status moved = journaled(
        back,
        [&] {
          return done(disk::atomicMove(*step.destination->resolved, base.where,
                                       base.text.toString(), options));
        },
        nullptr, reverts);
    if (!moved.ok()) return moved;
    if (step.destination_base && step.destination_base->exists())
      return journaled(
          diskEdit("rollback", AppliedEdit::Kind::Create, *step.destination, Rope(),
                   step.destination_base->text, 0),
          [&] {
            return done(disk::atomicCreate(step.destination_base->where,
                                           step.destination_base->text.toString()));
          },
          nullptr, revertsOf(step.destination_op));
    return Status::success();
  }
  }
  return Status::success();
}

void PatchRun::rollback(std::size_t failed, Error cause) {
  // Undo applied steps newest first; buffer undos are asynchronous, so walk with a callback.
  auto self = shared_from_this();
  auto next = std::make_shared<std::function<void(std::size_t)>>();
  *next = [self, next, failed, cause](std::size_t remaining) {
    if (remaining == 0) {
      json applied = json::array();
      for (const Step& step : self->steps_)
        if (step.applied) applied.push_back(self->nameOf(step));
      json result = refusalToJSON(cause);
      result["failedFile"] = self->nameOf(self->steps_[failed]);
      result["applied"] = std::move(applied);
      result["rolledBack"] = self->rolled_back_;
      result["rollbackFailed"] = self->rollback_failed_;
      return self->done_(std::move(result));
    }
    Step& step = self->steps_[remaining - 1];
    if (!step.applied) return (*next)(remaining - 1);
    auto record = [self, &step](const Status& status) {
      if (status.ok()) {
        step.applied = false;
        self->rolled_back_.push_back(self->nameOf(step));
      } else {
        self->rollback_failed_.push_back(
            {{"path", self->nameOf(step)}, {"error", toJSON(status.error())}});
      }
    };
    if (!step.source.open) {
      record(self->undoDisk(step));
      return (*next)(remaining - 1);
    }
    Rope original = step.plan.base->text;
    Rope committed = step.committed;
    const std::string key = step.source.key;
    BufferPlanner planner = [self, original, committed, key](OpenDocument& open,
                                                             bool) -> Result<PlannedEdit> {
      if (!sameText(open.document.text(), committed))
        return Error::make(ErrorCode::Conflict,
                           "the document changed after the patch was applied; not rolled back");
      EditPlan plan;
      plan.base_version = open.document.version();
      plan.edits = minimalEdits(committed.toString(), original.toString());
      return completePlan(std::move(plan), committed, self->tierFor(key));
    };
    self->service_.applier_->apply(key, "hashline patch (rollback)", std::move(planner),
                                   [record, next, remaining](Result<BufferApplied> outcome) {
                                     record(outcome ? Status::success() : Status(outcome.error()));
                                     (*next)(remaining - 1);
                                   });
  };
  (*next)(failed);
}

void PatchRun::finish() {
  json files = json::array();
  std::string diff;
  for (Step& step : steps_) {
    const ServiceTarget& where = step.destination ? *step.destination : step.source;
    json entry = {{"path", nameOf(step)},
                  {"uri", where.uri},
                  {"kind", kindName(step.plan.kind)},
                  {"backend", step.source.open ? "buffer" : "disk"}};
    if (step.destination) entry["movedTo"] = step.plan.new_path;
    if (step.plan.new_text) entry["version"] = step.version_after;
    if (!step.anchors.empty()) entry["anchors"] = rowsToJSON(step.anchors);
    Rope after = step.plan.new_text ? step.committed : Rope();
    diff += stepDiff(step, after);
    files.push_back(std::move(entry));

    AppliedEdit record = editOf(step, after);
    // A disk step was journaled around its write already: report it (observers) without a
    // second record.
    if (step.journal_op != 0) service_.journal().skipReport(record.uri, record.version_after);
    service_.report(record);
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
