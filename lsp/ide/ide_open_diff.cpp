// openDiff's reviews from Claude Code's call to their end: arguments, the file shown in the
// editor, one review per file, and the reviews Claude Code drops; see ide_open_diff.h.
#include "lsp/ide/ide_open_diff.h"

#include "lsp/disk/disk_file.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/ide/ide_diff_review.h"
#include "lsp/ide/ide_editor_tools.h"
#include "lsp/server/lsp_server.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"

#include <algorithm>

namespace hashline::lsp {

using json = nlohmann::json;
using Stage = IdeOpenDiff::Review::Stage;

namespace {

json textItems(std::initializer_list<std::string> texts) {
  json items = json::array();
  for (const std::string& text : texts)
    items.push_back({{"type", "text"}, {"text", text}});
  return items;
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

json fileSavedAnswer(const std::string& text) {
  return {{"content", textItems({"FILE_SAVED", text})}};
}

json diffRejectedAnswer(const std::string& tab_name) {
  return {{"content", textItems({"DIFF_REJECTED", tab_name})}};
}

json ideToolError(std::string_view code, const std::string& message, std::string_view hint) {
  return {
      {"content", textItems({std::string(code) + ": " + message + "\nhint: " + std::string(hint)})},
      {"isError", true}};
}

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

void IdeOpenDiff::open(OpenDiffRequest request, Answer answer, const void* connection,
                       std::weak_ptr<void> alive) {
  auto roots = disk::WorkspaceRoots::make(server_.workspaceRoots());
  if (!roots)
    return answer(ideToolError("OUTSIDE_WORKSPACE", "no workspace folder",
                               "open a workspace folder in the editor"));
  auto where = roots->resolve(request.new_file_path);
  if (!where)
    return answer(ideToolError(errorCodeName(where.error().code), where.error().message,
                               "openDiff takes files inside the editor's workspace"));
  auto review = std::make_shared<Review>();
  review->request = std::move(request);
  review->path = where->real_path;
  review->answer = std::move(answer);
  review->connection = connection;
  review->alive = std::move(alive);
  reviews_.push_back(review);
  for (const ReviewPtr& other : reviews_)
    if (other != review && other->path == review->path) {
      log::info("claude ide: openDiff of ", review->path, " (", review->request.tab_name,
                ") waits until the user decided the one before it");
      return;
    }
  start(review);
}

void IdeOpenDiff::start(const ReviewPtr& review) {
  if (auto text = disk::checkText(review->request.new_file_contents, review->path); !text)
    return leaveToClaude(review, "the proposal is not text (" + text.error().message + ")");
  if (server_.documents().findByPath(review->path) == nullptr) return show(review);
  apply(review);
}

void IdeOpenDiff::show(const ReviewPtr& review) {
  review->stage = Stage::Showing;
  log::info("claude ide: openDiff of ", review->path,
            ": not open in the editor; asking it to show the file");
  server_.call(
      "window/showDocument", {{"uri", pathToFileUri(review->path)}, {"takeFocus", true}},
      [this, review](CallResponse response) {
        if (review->dropped) return;
        const bool shown =
            response.ok() && response.result.is_object() && response.result.value("success", false);
        if (!shown)
          return leaveToClaude(
              review, "the editor could not show it (" +
                          (response.ok() ? std::string("it said no") : response.error.message) +
                          ")");
        awaitOpen(review, static_cast<int>(kEditorToolTimeout.count() / kPollMilliseconds));
      },
      kEditorToolTimeout);
}

// The editor showed the file; its didOpen may come after the answer.
void IdeOpenDiff::awaitOpen(const ReviewPtr& review, int tries_left) {
  if (review->dropped) return;
  if (server_.documents().findByPath(review->path) != nullptr) return apply(review);
  if (tries_left <= 0)
    return leaveToClaude(review, "the editor showed it but never opened it for hashline");
  review->timerOn(server_.io()).expires_after(std::chrono::milliseconds(kPollMilliseconds));
  review->timer->async_wait([this, review, tries_left](boost::system::error_code error) {
    if (!error) awaitOpen(review, tries_left - 1);
  });
}

void IdeOpenDiff::leaveToClaude(const ReviewPtr& review, const std::string& why) {
  review->stage = Stage::LeftToClaude;
  log::info("claude ide: openDiff of ", review->path, " (", review->request.tab_name, "): ", why,
            "; not answered, Claude Code's own prompt decides");
  server_.notify("window/showMessage",
                 {{"type", 2},
                  {"message", "hashline: Claude Code's edit of " + review->path +
                                  " is not reviewed in the editor: " + why +
                                  ". Answer it in Claude Code's terminal."}});
}

void IdeOpenDiff::finish(const ReviewPtr& review, json result) {
  if (review->dropped || !review->answer) return;
  Answer once = std::move(review->answer);
  review->answer = nullptr;
  release(review);
  if (!review->alive.expired()) once(std::move(result));
}

void IdeOpenDiff::release(const ReviewPtr& review) {
  if (review->timer) review->timer->cancel();
  auto it = std::find(reviews_.begin(), reviews_.end(), review);
  if (it == reviews_.end()) return;
  reviews_.erase(it);
  // The next openDiff of the same file, if one waits.
  for (const ReviewPtr& next : reviews_)
    if (next->path == review->path) {
      if (next->stage == Stage::Waiting && !next->dropped) start(next);
      return;
    }
}

std::vector<IdeOpenDiff::ReviewPtr> IdeOpenDiff::take(const void* connection,
                                                      const std::string* tab_name) {
  std::vector<ReviewPtr> taken;
  for (const ReviewPtr& review : reviews_)
    if (!review->dropped && review->connection == connection &&
        (tab_name == nullptr || review->request.tab_name == *tab_name)) {
      review->dropped = true;
      taken.push_back(review);
    }
  return taken;
}

void IdeOpenDiff::drop(const ReviewPtr& review, std::function<void()> done) {
  log::info("claude ide: openDiff of ", review->path, " (", review->request.tab_name,
            ") dropped: Claude Code closed it",
            review->op != 0 ? "; its proposal is taken out of the buffer" : "");
  if (review->timer) review->timer->cancel();
  if (review->stage == Stage::Applying) {
    review->after_drop.push_back(std::move(done)); // apply()'s callback reverts it
    return;
  }
  revert(review->op, [this, review, done = std::move(done)] {
    release(review);
    done();
  });
}

void IdeOpenDiff::dropAll(std::vector<ReviewPtr> dropped, std::function<void()> done) {
  if (dropped.empty()) return done();
  auto left = std::make_shared<std::size_t>(dropped.size());
  for (const ReviewPtr& review : dropped)
    drop(review, [left, done] {
      if (--*left == 0) done();
    });
}

void IdeOpenDiff::closeTab(const void* connection, const std::string& tab_name,
                           std::function<void()> done) {
  dropAll(take(connection, &tab_name), std::move(done));
}

void IdeOpenDiff::closeAll(const void* connection, std::function<void(std::size_t)> done) {
  std::vector<ReviewPtr> dropped = take(connection, nullptr);
  const std::size_t count = dropped.size();
  dropAll(std::move(dropped), [count, done = std::move(done)] { done(count); });
}

void IdeOpenDiff::connectionClosed(const void* connection) {
  dropAll(take(connection, nullptr), [] {});
}

} // namespace hashline::lsp
