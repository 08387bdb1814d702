// openDiff as a review of the live buffer; see ide_open_diff.h.
#include "lsp/ide/ide_open_diff.h"

#include "engine/merge/three_way.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/support/log.h"

#include <boost/asio/steady_timer.hpp>
#include <chrono>

namespace hashline::lsp {

using json = nlohmann::json;

namespace {

json textItems(std::initializer_list<std::string> texts) {
  json items = json::array();
  for (const std::string& text : texts)
    items.push_back({{"type", "text"}, {"text", text}});
  return items;
}

json fileSaved(const std::string& text) {
  return {{"content", textItems({"FILE_SAVED", text})}};
}

json diffRejected(const std::string& tab_name) {
  return {{"content", textItems({"DIFF_REJECTED", tab_name})}};
}

bool stringField(const json& arguments, const char* name, std::string& out, bool required,
                 std::string& problem) {
  auto it = arguments.find(name);
  if (it == arguments.end() || it->is_null()) {
    if (required) problem = std::string("missing ") + name;
    return !required;
  }
  if (!it->is_string()) {
    problem = std::string(name) + ": expected a string";
    return false;
  }
  out = it->get<std::string>();
  return true;
}

} // namespace

json ideToolError(std::string_view code, const std::string& message, std::string_view hint) {
  return {
      {"content", textItems({std::string(code) + ": " + message + "\nhint: " + std::string(hint)})},
      {"isError", true}};
}

// One openDiff waiting for the user.
struct IdeOpenDiff::Review {
  OpenDiffRequest request;
  std::string path; // canonical
  std::string base; // the disk text Claude Code proposed against
  Answer answer;
  std::weak_ptr<void> alive;
  std::uint64_t op = 0;
  std::size_t conflicts = 0;
  std::unique_ptr<boost::asio::steady_timer> timer;

  void finish(json result) {
    if (!answer) return;
    Answer once = std::move(answer);
    answer = nullptr;
    if (!alive.expired()) once(std::move(result));
  }
};

std::optional<OpenDiffRequest> IdeOpenDiff::parse(const json& arguments, std::string& problem) {
  OpenDiffRequest request;
  if (!arguments.is_object()) {
    problem = "arguments: expected an object";
    return std::nullopt;
  }
  if (!stringField(arguments, "new_file_path", request.new_file_path, true, problem) ||
      !stringField(arguments, "new_file_contents", request.new_file_contents, true, problem) ||
      !stringField(arguments, "old_file_path", request.old_file_path, false, problem) ||
      !stringField(arguments, "tab_name", request.tab_name, false, problem))
    return std::nullopt;
  if (request.old_file_path.empty()) request.old_file_path = request.new_file_path;
  return request;
}

void IdeOpenDiff::open(OpenDiffRequest request, Answer answer, std::weak_ptr<void> alive) {
  auto review = std::make_shared<Review>();
  review->request = std::move(request);
  review->answer = std::move(answer);
  review->alive = std::move(alive);
  const OpenDiffRequest& asked = review->request;

  auto roots = disk::WorkspaceRoots::make(server_.workspaceRoots());
  if (!roots)
    return review->finish(ideToolError("OUTSIDE_WORKSPACE", "no workspace folder",
                                       "open a workspace folder in the editor"));
  auto where = roots->resolve(asked.new_file_path);
  if (!where)
    return review->finish(ideToolError(errorCodeName(where.error().code), where.error().message,
                                       "openDiff takes files inside the editor's workspace"));
  if (auto text = disk::checkText(asked.new_file_contents, asked.new_file_path); !text)
    return review->finish(ideToolError(errorCodeName(text.error().code), text.error().message,
                                       defaultHint(text.error().code)));
  review->path = where->real_path;

  const OpenDocument* open = server_.documents().findByPath(review->path);
  if (open == nullptr) {
    log::info("claude ide: openDiff of ", review->path,
              ": not open in the editor; Claude Code writes it itself");
    return review->finish(fileSaved(asked.new_file_contents));
  }
  if (auto disk = disk::readFileBytes(review->path))
    review->base = std::move(disk->bytes);
  else if (disk.error().code != ErrorCode::FileNotFound)
    return review->finish(ideToolError(errorCodeName(disk.error().code), disk.error().message,
                                       defaultHint(disk.error().code)));

  BufferPlanner planner = [review](OpenDocument& document, bool) -> Result<PlannedEdit> {
    merge::MergeResult merged = merge::mergeThreeWay(review->base, document.document.text(),
                                                     review->request.new_file_contents);
    review->conflicts = merged.conflicts.size();
    if (merged.edits.empty())
      return Error::make(ErrorCode::NoChange, "the buffer already holds the proposal");
    EditPlan plan;
    plan.base_version = document.document.version();
    plan.edits = std::move(merged.edits);
    return completePlan(std::move(plan), document.document.text(), Tier::Block);
  };
  CallerIdentity caller;
  caller.session = "claude-ide";
  caller.agent = "claude-code";
  service_.applyToBuffer(
      open->uri, "openDiff", caller, std::move(planner),
      [this, review](Result<BufferApplied> outcome, std::uint64_t op) {
        if (review->conflicts > 0) {
          log::info("claude ide: openDiff of ", review->path, ": ", review->conflicts,
                    " region(s) of the proposal overlap the user's unsaved typing; kept theirs");
          server_.notify("window/showMessage",
                         {{"type", 2},
                          {"message", "hashline: Claude Code's proposal for " + review->path +
                                          " overlaps your unsaved typing in " +
                                          std::to_string(review->conflicts) +
                                          " place(s); your text was kept there"}});
        }
        if (!outcome) {
          if (outcome.error().code == ErrorCode::NoChange) {
            const OpenDocument* now = server_.documents().findByPath(review->path);
            return review->finish(fileSaved(now ? now->document.text().toString() : review->base));
          }
          log::info("claude ide: openDiff of ", review->path,
                    " not applied: ", outcome.error().message);
          return review->finish(ideToolError(errorCodeName(outcome.error().code),
                                             outcome.error().message,
                                             defaultHint(outcome.error().code)));
        }
        review->op = op;
        log::info("claude ide: openDiff of ", review->path, " is op ", op,
                  " in the buffer, waiting for the user's review");
        watch(review);
      });
}

void IdeOpenDiff::watch(const std::shared_ptr<Review>& review) {
  if (review->alive.expired()) return; // the connection is gone: leave it to the review UI
  if (!review->timer) review->timer = std::make_unique<boost::asio::steady_timer>(server_.io());
  review->timer->expires_after(std::chrono::milliseconds(kPollMilliseconds));
  review->timer->async_wait([this, review](boost::system::error_code error) {
    if (error) return;
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

void IdeOpenDiff::decide(const std::shared_ptr<Review>& review) {
  service_.call("log", {{"path", review->path}}, [this, review](ServiceOutcome outcome) {
    bool accepted = false;
    if (const json* result = std::get_if<json>(&outcome))
      for (const json& op : result->value("ops", json::array()))
        if (op.value("op", std::uint64_t{0}) == review->op)
          for (const json& hunk : op.value("hunks", json::array()))
            accepted = accepted || hunk.value("state", "") == "accepted";
    log::info("claude ide: openDiff of ", review->path, " (op ", review->op, ") ",
              accepted ? "accepted" : "rejected");
    if (!accepted) return review->finish(diffRejected(review->request.tab_name));
    const OpenDocument* now = server_.documents().findByPath(review->path);
    if (now == nullptr) // closed after accepting: the disk is what the editor left
      return review->finish(fileSaved(review->request.new_file_contents));
    review->finish(fileSaved(now->document.text().toString()));
  });
}

} // namespace hashline::lsp
