// The transaction runner (lsp/service/transaction.h), in process: with fake backends (the order
// of commits and inverse commits, what the outcome reports), and with the service's real
// backends — disk files and buffers of an in-process editor (a DocumentStore the test's
// applyEdit handler changes, as an editor's didChange would) — checking the files, the buffers
// and the journal: exactly one op per committed file, and on a rollback one `rollback` op
// reverting each, so nothing of the transaction stays in effect.
#include "lsp/journal/journal_service.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/transaction.h"
#include "tests/lsp/journal/journal_test_util.h"
#include "tests/lsp/support/editor_model.h"

#include <boost/asio/post.hpp>
#include <gtest/gtest.h>
#include <set>

namespace hashline::lsp {
namespace {

using journal_test::readRaw;
using journal_test::ScopedEnv;
using journal_test::TempDir;
using journal_test::writeRaw;
using nlohmann::json;

// --- fakes: the runner alone ------------------------------------------------------------------

/// Commits whatever is planned, unless the target's key is in `fail`; logs every commit.
class FakeBackend : public DocumentBackend {
public:
  Result<DocumentSnapshot> snapshot(const ServiceTarget&) override { return DocumentSnapshot{}; }
  void commit(Commit commit, CommitDone done) override {
    log.push_back(commit.intent.method + " " + commit.target.key);
    if (fail.count(commit.intent.method + " " + commit.target.key))
      return done(Error::make(ErrorCode::IoError, "cannot write " + commit.target.key));
    DocumentSnapshot now;
    now.text = Rope("after\n"); // what a commit below leaves
    Result<PlannedChange> change = commit.plan(now, false);
    if (!change) return done(std::move(change).error());
    Committed landed;
    landed.edit.method = commit.intent.method;
    landed.edit.kind = change->kind;
    landed.edit.before = change->edit.before;
    landed.edit.after = change->edit.after;
    landed.planned = change->edit;
    landed.target = commit.target;
    landed.op = ++ops;
    done(std::move(landed));
  }
  std::vector<std::string> log;
  std::set<std::string> fail;
  std::uint64_t ops = 0;
};

TransactionStep fakeStep(const std::string& key) {
  Commit commit;
  commit.target.key = key;
  commit.intent.method = "edit";
  commit.plan = [](const DocumentSnapshot&, bool) -> Result<PlannedChange> {
    PlannedChange change;
    change.edit.before = Rope("before\n");
    change.edit.after = Rope("after\n");
    return change;
  };
  TransactionStep step{key, {}};
  step.commits.push_back(std::move(commit));
  return step;
}

TransactionOutcome runFakes(FakeBackend& backend, std::vector<TransactionStep> steps) {
  std::optional<TransactionOutcome> result;
  runTransaction([&](const ServiceTarget&) -> DocumentBackend& { return backend; },
                 std::move(steps), [&](TransactionOutcome outcome) { result = outcome; });
  EXPECT_TRUE(result.has_value()) << "a synchronous backend finishes before runTransaction returns";
  return result ? *result : TransactionOutcome{};
}

TEST(TransactionRunner, CommitsEveryStepInOrder) {
  FakeBackend backend;
  std::vector<TransactionStep> steps;
  for (const char* key : {"a", "b"})
    steps.push_back(fakeStep(key));
  TransactionOutcome outcome = runFakes(backend, std::move(steps));
  EXPECT_TRUE(outcome.ok());
  EXPECT_EQ(backend.log, (std::vector<std::string>{"edit a", "edit b"}));
  ASSERT_EQ(outcome.landed.size(), 2u);
  EXPECT_EQ(outcome.landed[1].commits.front().op, 2u);
}

TEST(TransactionRunner, AFailedCommitRollsBackWhatLandedNewestFirst) {
  FakeBackend backend;
  backend.fail = {"edit c"};
  std::vector<TransactionStep> steps;
  for (const char* key : {"a", "b", "c", "d"})
    steps.push_back(fakeStep(key));
  TransactionOutcome outcome = runFakes(backend, std::move(steps));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(*outcome.failed, 2u);
  EXPECT_EQ(backend.log,
            (std::vector<std::string>{"edit a", "edit b", "edit c", "rollback b", "rollback a"}));
  EXPECT_EQ(outcome.rolled_back, json::array({"b", "a"}));
  json refusal = transactionRefusal(outcome, AppliedList::Landed);
  EXPECT_EQ(refusal["status"], "refused");
  EXPECT_EQ(refusal["error"]["code"], "IO_ERROR");
  EXPECT_EQ(refusal["failedFile"], "c");
  EXPECT_EQ(refusal["applied"], json::array({"a", "b"}));
  EXPECT_EQ(transactionRefusal(outcome, AppliedList::Remaining)["applied"], json::array());
}

TEST(TransactionRunner, AFailedRollbackIsReportedAndTheOthersStillRollBack) {
  FakeBackend backend;
  backend.fail = {"edit c", "rollback b"};
  std::vector<TransactionStep> steps;
  for (const char* key : {"a", "b", "c"})
    steps.push_back(fakeStep(key));
  TransactionOutcome outcome = runFakes(backend, std::move(steps));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(backend.log,
            (std::vector<std::string>{"edit a", "edit b", "edit c", "rollback b", "rollback a"}));
  EXPECT_EQ(outcome.rolled_back, json::array({"a"}));
  ASSERT_EQ(outcome.rollback_failed.size(), 1u);
  EXPECT_EQ(outcome.rollback_failed[0]["path"], "b");
  EXPECT_EQ(transactionRefusal(outcome, AppliedList::Remaining)["applied"], json::array({"b"}));
}

TEST(TransactionRunner, TheFailingStepsOwnCommitsAreUndoneFirstAndNotListed) {
  FakeBackend backend;
  backend.fail = {"edit c2"};
  std::vector<TransactionStep> steps;
  steps.push_back(fakeStep("a"));
  TransactionStep two = fakeStep("c1"); // a step of two commits (a move over a file)
  two.commits.push_back(std::move(fakeStep("c2").commits.front()));
  two.name = "c";
  steps.push_back(std::move(two));
  TransactionOutcome outcome = runFakes(backend, std::move(steps));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(backend.log, (std::vector<std::string>{"edit a", "edit c1", "edit c2", "rollback c1",
                                                   "rollback a"}));
  EXPECT_EQ(outcome.failed_name, "c");
  EXPECT_EQ(outcome.rolled_back, json::array({"a"}));
}

TEST(TransactionRunner, TheInverseRestoresWhatTheCommitFoundAndRevertsItsOp) {
  Committed created;
  created.edit.kind = AppliedEdit::Kind::Create;
  created.edit.method = "patch";
  created.edit.after = Rope("new\n");
  created.target.key = "k";
  created.op = 7;
  Commit back = inverseOf(created);
  EXPECT_EQ(back.intent.method, "rollback");
  DocumentSnapshot now;
  now.text = Rope("new\n");
  Result<PlannedChange> change = back.plan(now, false);
  ASSERT_TRUE(change.ok());
  EXPECT_EQ(change->kind, AppliedEdit::Kind::Delete);
  EXPECT_EQ(change->reverts, (std::vector<journal::HunkRef>{{7, 0}}));
  now.text = Rope("changed since\n");
  Result<PlannedChange> refused = back.plan(now, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::Conflict);
}

// --- the service's backends: disk files and in-process buffers ------------------------------

/// A service with an in-process editor: applyEdit changes the DocumentStore (a didChange) and
/// answers applied:true — or applied:false for the URIs in `refuse`.
class TransactionOnBackends : public ::testing::Test {
protected:
  TransactionOnBackends() : state_("HASHLINE_STATE_DIR", work_.path()) {
    EditorLink link;
    link.io = &io_;
    link.documents = &store_;
    link.apply_edit = [this](json params, std::chrono::milliseconds,
                             std::function<void(CallResponse)> reply) {
      boost::asio::post(io_, [this, params, reply] { applyEdit(params, reply); });
    };
    ServiceOptions options;
    options.confirm_timeout = std::chrono::milliseconds(50);
    service_ = std::make_unique<HashlineService>(
        link, [this] { return std::vector<std::string>{root_.path()}; }, options);
  }

  void applyEdit(const json& params, const std::function<void(CallResponse)>& reply) {
    const json& change = params["edit"]["documentChanges"][0];
    const std::string uri = change["textDocument"]["uri"];
    CallResponse response;
    response.result = {{"applied", !refuse_.count(uri)}};
    if (!refuse_.count(uri)) {
      OpenDocument* open = store_.find(uri);
      test::EditorModel model(uri, open->document.text().toString(), open->document.version());
      model.applyTextEdits(change["edits"]);
      store_.change(uri, model.version + 1,
                    {ContentChange{std::nullopt, std::nullopt, model.text}});
      ++applied_;
    }
    reply(response);
  }

  std::string uriOf(const std::string& name) const { return "file://" + (root_ / name); }
  void openBuffer(const std::string& name, const std::string& text) {
    store_.open(uriOf(name), "plaintext", 1, text);
  }
  std::string bufferText(const std::string& name) {
    return store_.find(uriOf(name))->document.text().toString();
  }

  ServiceTarget target(const std::string& name) {
    DocumentRef ref;
    ref.path = name;
    Result<ServiceTarget> found = service_->locate(ref);
    EXPECT_TRUE(found.ok());
    return *found;
  }
  /// A step replacing `from` by `to` in `name`, or failing when planned if `to` is empty.
  TransactionStep replaceStep(const std::string& name, std::string from, std::string to) {
    Commit commit;
    commit.target = target(name);
    commit.intent = {"patch", CallerIdentity{}};
    commit.intent.caller.session = "agent";
    commit.plan = [from, to, name](const DocumentSnapshot& now, bool) -> Result<PlannedChange> {
      if (to.empty()) return Error::make(ErrorCode::IoError, name + ": the disk is full");
      std::string text = now.text.toString();
      EditPlan plan;
      plan.base_version = now.version;
      std::size_t at = text.find(from);
      plan.edits.push_back(ByteEdit{at, at + from.size(), to});
      return asUpdate(completePlan(std::move(plan), now.text, Tier::Block));
    };
    TransactionStep step{name, {}};
    step.commits.push_back(std::move(commit));
    return step;
  }

  TransactionOutcome run(std::vector<TransactionStep> steps) {
    std::optional<TransactionOutcome> result;
    runTransaction(service_->backends(), std::move(steps),
                   [&](TransactionOutcome outcome) { result = std::move(outcome); });
    while (!result && io_.run_one()) {
    }
    EXPECT_TRUE(result.has_value());
    return result ? *result : TransactionOutcome{};
  }

  std::vector<const journal::JournalOp*> ops() {
    std::vector<const journal::JournalOp*> out;
    for (const journal::JournalOp& op : service_->journal().model().ops())
      out.push_back(&op);
    return out;
  }

  TempDir work_, root_;
  ScopedEnv state_;
  boost::asio::io_context io_;
  DocumentStore store_;
  std::unique_ptr<HashlineService> service_;
  std::set<std::string> refuse_;
  int applied_ = 0;
};

TEST_F(TransactionOnBackends, OneOpPerFileOnBothBackends) {
  openBuffer("a.txt", "one\ntwo\n");
  writeRaw(root_ / "b.txt", "three\nfour\n");
  std::vector<TransactionStep> steps;
  steps.push_back(replaceStep("a.txt", "two", "TWO"));
  steps.push_back(replaceStep("b.txt", "four", "FOUR"));
  TransactionOutcome outcome = run(std::move(steps));
  ASSERT_TRUE(outcome.ok()) << outcome.error->message;
  EXPECT_EQ(bufferText("a.txt"), "one\nTWO\n");
  EXPECT_EQ(readRaw(root_ / "b.txt"), "three\nFOUR\n");
  std::vector<const journal::JournalOp*> journaled = ops();
  ASSERT_EQ(journaled.size(), 2u);
  EXPECT_EQ(journaled[0]->backend, "buffer");
  EXPECT_EQ(journaled[1]->backend, "disk");
  for (const journal::JournalOp* op : journaled) {
    EXPECT_EQ(op->method, "patch");
    EXPECT_TRUE(op->inEffect());
    EXPECT_TRUE(op->reverts.empty());
  }
  EXPECT_EQ(outcome.landed[0].commits.front().op, journaled[0]->id);
  EXPECT_EQ(outcome.landed[1].commits.front().op, journaled[1]->id);
}

TEST_F(TransactionOnBackends, TheSecondFileFailingRollsBackTheFirstOnDisk) {
  writeRaw(root_ / "a.txt", "one\ntwo\n");
  writeRaw(root_ / "b.txt", "three\n");
  std::vector<TransactionStep> steps;
  steps.push_back(replaceStep("a.txt", "two", "TWO"));
  steps.push_back(replaceStep("b.txt", "three", ""));
  TransactionOutcome outcome = run(std::move(steps));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.failed_name, "b.txt");
  EXPECT_EQ(outcome.rolled_back, json::array({"a.txt"}));
  EXPECT_EQ(readRaw(root_ / "a.txt"), "one\ntwo\n");
  EXPECT_EQ(readRaw(root_ / "b.txt"), "three\n");
  std::vector<const journal::JournalOp*> journaled = ops();
  ASSERT_EQ(journaled.size(), 2u); // a.txt's op and its rollback; nothing for b.txt
  EXPECT_EQ(journaled[0]->method, "patch");
  EXPECT_FALSE(journaled[0]->inEffect());
  EXPECT_EQ(journaled[1]->method, "rollback");
  EXPECT_EQ(journaled[1]->reverts, (std::vector<journal::HunkRef>{{journaled[0]->id, 0}}));
}

TEST_F(TransactionOnBackends, ABufferAndADiskFileRollBackNewestFirst) {
  openBuffer("a.txt", "one\ntwo\n");
  writeRaw(root_ / "b.txt", "three\n");
  writeRaw(root_ / "c.txt", "five\n");
  std::vector<TransactionStep> steps;
  steps.push_back(replaceStep("a.txt", "two", "TWO"));
  steps.push_back(replaceStep("b.txt", "three", "THREE"));
  steps.push_back(replaceStep("c.txt", "five", ""));
  TransactionOutcome outcome = run(std::move(steps));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.rolled_back, json::array({"b.txt", "a.txt"}));
  EXPECT_EQ(outcome.rollback_failed, json::array());
  EXPECT_EQ(bufferText("a.txt"), "one\ntwo\n"); // an inverse applyEdit
  EXPECT_EQ(applied_, 2);
  EXPECT_EQ(readRaw(root_ / "b.txt"), "three\n");
  std::vector<const journal::JournalOp*> journaled = ops();
  ASSERT_EQ(journaled.size(), 4u);
  const char* names[] = {"a.txt", "b.txt", "b.txt", "a.txt"}; // commits, then newest first
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(journaled[i]->name, names[i]);
    EXPECT_EQ(journaled[i]->method, i < 2 ? "patch" : "rollback");
    EXPECT_EQ(journaled[i]->inEffect(), i >= 2) << "rolled back: " << names[i];
  }
  EXPECT_EQ(journaled[2]->reverts, (std::vector<journal::HunkRef>{{journaled[1]->id, 0}}));
  EXPECT_EQ(journaled[3]->reverts, (std::vector<journal::HunkRef>{{journaled[0]->id, 0}}));
}

TEST_F(TransactionOnBackends, TheEditorRefusingTheSecondFileRollsBackTheDiskFile) {
  writeRaw(root_ / "a.txt", "one\ntwo\n");
  openBuffer("b.txt", "three\n");
  refuse_ = {uriOf("b.txt")};
  std::vector<TransactionStep> steps;
  steps.push_back(replaceStep("a.txt", "two", "TWO"));
  steps.push_back(replaceStep("b.txt", "three", "THREE"));
  TransactionOutcome outcome = run(std::move(steps));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error->code, ErrorCode::EditorRejected);
  EXPECT_EQ(outcome.rolled_back, json::array({"a.txt"}));
  EXPECT_EQ(readRaw(root_ / "a.txt"), "one\ntwo\n");
  EXPECT_EQ(bufferText("b.txt"), "three\n");
  std::vector<const journal::JournalOp*> journaled = ops();
  ASSERT_EQ(journaled.size(), 2u); // nothing for the refused buffer
  EXPECT_EQ(journaled[0]->name, "a.txt");
  EXPECT_EQ(journaled[1]->method, "rollback");
}

} // namespace
} // namespace hashline::lsp
