// The transaction runner: commit in order, roll back newest first; see transaction.h.
#include "lsp/service/transaction.h"

#include "engine/diff/minimal_edits.h"
#include "engine/text/text_compare.h"
#include "lsp/protocol/error_json.h"

#include <memory>

namespace hashline::lsp {

using nlohmann::json;

namespace {

using Kind = AppliedEdit::Kind;

class TransactionRun : public std::enable_shared_from_this<TransactionRun> {
public:
  TransactionRun(BackendFor backend_for, std::vector<TransactionStep> steps, TransactionDone done)
      : backend_for_(std::move(backend_for)), steps_(std::move(steps)), done_(std::move(done)) {}

  void commit(std::size_t step, std::size_t index);

private:
  void failed(std::size_t step, Error error);
  /// Undoes `commits` newest first, then calls `then` with whether all of them were undone.
  void undo(std::vector<Committed> commits, std::function<void(std::optional<Error>)> then);
  void rollBackStep(std::size_t remaining);

  BackendFor backend_for_;
  std::vector<TransactionStep> steps_;
  TransactionDone done_;
  TransactionOutcome outcome_;
  std::vector<Committed> partial_; // the commits of the step running now
};

void TransactionRun::commit(std::size_t step, std::size_t index) {
  if (step == steps_.size()) return done_(std::move(outcome_));
  TransactionStep& current = steps_[step];
  if (index == current.commits.size()) {
    outcome_.landed.push_back({current.name, std::move(partial_), false});
    partial_.clear();
    return commit(step + 1, 0);
  }
  Commit next = std::move(current.commits[index]);
  DocumentBackend& backend = backend_for_(next.target);
  auto self = shared_from_this();
  backend.commit(std::move(next), [self, step, index](Result<Committed> outcome) {
    if (!outcome) return self->failed(step, std::move(outcome).error());
    self->partial_.push_back(std::move(*outcome));
    self->commit(step, index + 1);
  });
}

void TransactionRun::failed(std::size_t step, Error error) {
  outcome_.failed = step;
  outcome_.failed_name = steps_[step].name;
  outcome_.error = std::move(error);
  // The failing step's own earlier commits first (an overwritten file put back), unreported.
  auto self = shared_from_this();
  undo(std::move(partial_),
       [self](std::optional<Error>) { self->rollBackStep(self->outcome_.landed.size()); });
}

void TransactionRun::undo(std::vector<Committed> commits,
                          std::function<void(std::optional<Error>)> then) {
  if (commits.empty()) return then(std::nullopt);
  Committed last = std::move(commits.back());
  commits.pop_back();
  Commit back = inverseOf(last);
  DocumentBackend& backend = backend_for_(back.target);
  auto self = shared_from_this();
  backend.commit(std::move(back), [self, commits = std::move(commits),
                                   then = std::move(then)](Result<Committed> outcome) mutable {
    std::optional<Error> error;
    if (!outcome) error = std::move(outcome).error();
    self->undo(std::move(commits), [error, then = std::move(then)](std::optional<Error> more) {
      then(error ? error : more);
    });
  });
}

void TransactionRun::rollBackStep(std::size_t remaining) {
  if (remaining == 0) return done_(std::move(outcome_));
  TransactionOutcome::Landed& landed = outcome_.landed[remaining - 1];
  auto self = shared_from_this();
  undo(landed.commits, [self, remaining](std::optional<Error> error) {
    TransactionOutcome::Landed& landed = self->outcome_.landed[remaining - 1];
    if (!error) {
      landed.rolled_back = true;
      self->outcome_.rolled_back.push_back(landed.name);
    } else {
      self->outcome_.rollback_failed.push_back({{"path", landed.name}, {"error", toJSON(*error)}});
    }
    self->rollBackStep(remaining - 1);
  });
}

/// The inverse of `landed` planned on `now`: refused when the document is not as it was left.
Result<PlannedChange> planInverse(const Committed& landed, const DocumentSnapshot& now) {
  const AppliedEdit& edit = landed.edit;
  const bool left_a_file = edit.kind != Kind::Delete;
  if (now.exists != left_a_file || (left_a_file && !sameText(now.text, edit.after)))
    return Error::make(ErrorCode::Conflict,
                       "the document changed after the change was applied; not rolled back");
  PlannedChange back;
  back.edit.before = now.text;
  back.edit.after = edit.before;
  switch (edit.kind) {
  case Kind::Update: {
    EditPlan plan;
    plan.base_version = now.version;
    plan.edits = minimalEdits(now.text.toString(), edit.before.toString());
    back.edit = completePlan(std::move(plan), now.text, Tier::Block);
    return back;
  }
  case Kind::Create:
    back.kind = Kind::Delete;
    back.edit.after = Rope();
    return back;
  case Kind::Delete:
    back.kind = Kind::Create;
    return back;
  case Kind::Move:
    back.kind = Kind::Move;
    return back;
  }
  return back;
}

} // namespace

Commit inverseOf(const Committed& landed) {
  Commit back;
  const bool moved = landed.edit.kind == Kind::Move && landed.destination;
  back.target = moved ? *landed.destination : landed.target;
  if (moved) back.destination = landed.target;
  back.intent.method = "rollback";
  back.intent.caller = landed.edit.caller;
  back.label = "hashline " + landed.edit.method + " (rollback)";
  back.plan = [landed](const DocumentSnapshot& now, bool) {
    Result<PlannedChange> change = planInverse(landed, now);
    if (change && landed.op != 0) change->reverts = {journal::HunkRef{landed.op, 0}};
    return change;
  };
  return back;
}

void runTransaction(BackendFor backend_for, std::vector<TransactionStep> steps,
                    TransactionDone done) {
  auto run =
      std::make_shared<TransactionRun>(std::move(backend_for), std::move(steps), std::move(done));
  run->commit(0, 0);
}

json transactionRefusal(const TransactionOutcome& outcome, AppliedList list) {
  json applied = json::array();
  for (const TransactionOutcome::Landed& landed : outcome.landed)
    if (list == AppliedList::Landed || !landed.rolled_back) applied.push_back(landed.name);
  json refusal = refusalToJSON(*outcome.error);
  refusal["failedFile"] = outcome.failed_name;
  refusal["applied"] = std::move(applied);
  refusal["rolledBack"] = outcome.rolled_back;
  refusal["rollbackFailed"] = outcome.rollback_failed;
  return refusal;
}

} // namespace hashline::lsp
