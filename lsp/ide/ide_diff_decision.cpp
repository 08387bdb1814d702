// openDiff's proposal in the buffer and the user's decision on it: the review's hunks, the
// question where the hunks alone do not say it, the answer to Claude Code; see ide_open_diff.h.
#include "lsp/disk/disk_file.h"
#include "lsp/ide/ide_diff_plan.h"
#include "lsp/ide/ide_diff_review.h"
#include "lsp/ide/ide_open_diff.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/support/log.h"

#include <chrono>

namespace hashline::lsp {

using json = nlohmann::json;
using Stage = IdeOpenDiff::Review::Stage;

namespace {

constexpr const char* kAccept = "Accept";
constexpr const char* kReject = "Reject";

// "line 3 (yours: "…" / Claude's: "…")", the text cut to one short line per side.
std::string describeConflict(const merge::Conflict& conflict) {
  auto shortText = [](std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
      text.pop_back();
    for (char& c : text)
      if (c == '\n' || c == '\r') c = ' ';
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return "\"" + text + "\"";
  };
  return "line " + std::to_string(conflict.ours.begin + 1) +
         " (yours: " + shortText(conflict.ours_text) +
         " / Claude's: " + shortText(conflict.theirs_text) + ")";
}

} // namespace

void IdeOpenDiff::apply(const ReviewPtr& review) {
  review->stage = Stage::Applying;
  const OpenDocument* open = server_.documents().findByPath(review->path);
  if (open == nullptr) return leaveToClaude(review, "its buffer was closed");
  if (auto disk = disk::readFileBytes(review->path))
    review->base = std::move(disk->bytes);
  else if (disk.error().code == ErrorCode::FileNotFound)
    review->base.clear(); // a new file, or deleted since Claude Code read it
  else
    return leaveToClaude(review, "the file cannot be read (" + disk.error().message + ")");
  if (auto text = disk::checkText(review->base, review->path); !text)
    return leaveToClaude(review, "the file on disk is not text (" + text.error().message + ")");

  BufferPlanner planner = [review](OpenDocument& document, bool) -> Result<PlannedEdit> {
    DiffProposalPlan proposal =
        planDiffProposal(review->base, document.document.text(), review->request.new_file_contents);
    review->conflicts = std::move(proposal.conflicts);
    if (proposal.edits.empty())
      return Error::make(ErrorCode::NoChange, "the buffer already holds the proposal");
    EditPlan plan;
    plan.base_version = document.document.version();
    plan.edits = std::move(proposal.edits);
    return completePlan(std::move(plan), document.document.text(), Tier::Block);
  };
  CallerIdentity caller;
  caller.session = "claude-ide";
  caller.agent = "claude-code";
  service_.applyToBuffer(
      open->uri, "openDiff", caller, std::move(planner),
      [this, review](Result<BufferApplied> outcome, std::uint64_t op) {
        if (outcome) review->op = op;
        if (review->dropped) // Claude Code closed it meanwhile
          return revert(review->op, [this, review] {
            release(review);
            for (auto& done : review->after_drop)
              done();
          });
        if (!outcome) {
          if (outcome.error().code != ErrorCode::NoChange)
            return leaveToClaude(review,
                                 "the editor did not take it (" + outcome.error().message + ")");
          review->unchanged = true;
          log::info("claude ide: openDiff of ", review->path,
                    ": the buffer already holds the proposal; asking the user");
          return ask(review);
        }
        review->stage = Stage::InBuffer;
        log::info("claude ide: openDiff of ", review->path, " is op ", op,
                  " in the buffer, waiting for the user's review");
        if (!review->conflicts.empty()) {
          std::string where;
          for (const merge::Conflict& conflict : review->conflicts)
            where += (where.empty() ? "" : ", ") + describeConflict(conflict);
          log::info("claude ide: openDiff of ", review->path, ": ", review->conflicts.size(),
                    " region(s) overlap the user's unsaved typing: ", where);
          server_.notify("window/showMessage",
                         {{"type", 2},
                          {"message", "hashline: Claude Code's edit of " + review->path +
                                          " overlaps your unsaved typing at " + where +
                                          ". The review shows Claude's lines in place of yours: "
                                          "Keep takes Claude's, Reject puts yours back, or edit "
                                          "them; then you are asked to accept or reject the "
                                          "edit."}});
        }
        watch(review);
      });
}

void IdeOpenDiff::watch(const ReviewPtr& review) {
  if (review->dropped || review->stage != Stage::InBuffer) return;
  review->timerOn(server_.io()).expires_after(std::chrono::milliseconds(kPollMilliseconds));
  review->timer->async_wait([this, review](boost::system::error_code error) {
    if (error || review->dropped) return;
    if (server_.documents().findByPath(review->path) == nullptr)
      return leaveToClaude(review, "its buffer was closed before the user decided");
    service_.call("pending", {{"path", review->path}}, [this, review](ServiceOutcome outcome) {
      const json* result = std::get_if<json>(&outcome);
      if (result == nullptr) return watch(review);
      for (const json& file : result->value("files", json::array()))
        for (const json& hunk : file.value("hunks", json::array()))
          if (hunk.value("op", std::uint64_t{0}) == review->op) return watch(review);
      decide(review);
    });
  });
}

void IdeOpenDiff::decide(const ReviewPtr& review) {
  if (!review->conflicts.empty()) return ask(review); // keeping theirs is no answer yet
  service_.call("log", {{"path", review->path}}, [this, review](ServiceOutcome outcome) {
    if (review->dropped) return;
    bool accepted = false;
    if (const json* result = std::get_if<json>(&outcome))
      for (const json& op : result->value("ops", json::array()))
        if (op.value("op", std::uint64_t{0}) == review->op)
          for (const json& hunk : op.value("hunks", json::array()))
            accepted = accepted || hunk.value("state", "") == "accepted";
    log::info("claude ide: openDiff of ", review->path, " (op ", review->op, ") ",
              accepted ? "accepted" : "rejected");
    if (accepted) return answerAccepted(review);
    finish(review, diffRejectedAnswer(review->request.tab_name));
  });
}

void IdeOpenDiff::ask(const ReviewPtr& review) {
  review->stage = Stage::Asking;
  const std::string message =
      review->unchanged
          ? "Claude Code's edit of " + review->path +
                ": your buffer already holds it, so there is nothing to review. Accept lets "
                "Claude Code write the buffer's text to disk (your unsaved changes included); "
                "Reject writes nothing."
          : "Claude Code's edit of " + review->path +
                " overlapped your unsaved typing and is resolved in the buffer. Accept lets "
                "Claude Code write the buffer's text to disk (your unsaved changes included); "
                "Reject takes Claude's lines out again and writes nothing.";
  log::info("claude ide: openDiff of ", review->path, ": asking the user to accept or reject");
  server_.call(
      "window/showMessageRequest",
      {{"type", 3},
       {"message", message},
       {"actions", json::array({{{"title", kAccept}}, {{"title", kReject}}})}},
      [this, review](CallResponse response) {
        if (review->dropped) return;
        std::string choice;
        if (response.ok() && response.result.is_object())
          choice = response.result.value("title", std::string());
        if (choice != kAccept && choice != kReject)
          return leaveToClaude(review, response.ok() ? "the question was dismissed"
                                                     : "the editor could not ask (" +
                                                           response.error.message + ")");
        log::info("claude ide: openDiff of ", review->path, ": the user chose ", choice);
        if (choice == kAccept) return answerAccepted(review);
        revert(review->op,
               [this, review] { finish(review, diffRejectedAnswer(review->request.tab_name)); });
      },
      std::chrono::duration_cast<std::chrono::milliseconds>(kQuestionTimeout));
}

void IdeOpenDiff::answerAccepted(const ReviewPtr& review) {
  const OpenDocument* now = server_.documents().findByPath(review->path);
  if (now == nullptr) return leaveToClaude(review, "its buffer was closed after the user decided");
  finish(review, fileSavedAnswer(now->document.text().toString()));
}

// Takes what is left of op `op` out of the buffer (a journaled reject); `done` when it landed or
// could not (the user edited those lines since: they stay, logged).
void IdeOpenDiff::revert(std::uint64_t op, std::function<void()> done) {
  if (op == 0) return done();
  service_.call("reject",
                {{"op", std::to_string(op)}, {"session", "claude-ide"}, {"agent", "claude-code"}},
                [op, done = std::move(done)](ServiceOutcome outcome) {
                  const json* result = std::get_if<json>(&outcome);
                  if (result == nullptr || result->value("status", "") == "refused")
                    log::info("claude ide: op ", op, " left in the buffer: ",
                              result ? result->value("error", json::object()).value("message", "")
                                     : std::get<RpcError>(outcome).message);
                  done();
                });
}

} // namespace hashline::lsp
