// IdeOpenDiff: Claude Code's `openDiff` tool, answered by the user's review of the live buffer
// (issues 22 and 30; docs/claude-ide.md, "openDiff: who decides").
//
// Claude Code proposes the whole new text of a file (computed from what it read on disk) while
// its terminal asks the user "Do you want to make this edit?"; the IDE's answer settles that
// question: FILE_SAVED + the text to write (the user accepted; Claude Code writes it) or
// DIFF_REJECTED. hashline answers only with what the user chose:
// - The file is shown in the editor first when it is not open (`window/showDocument`, as
//   openFile does); an editor that cannot show it leaves the call unanswered, so the terminal's
//   question decides.
// - The proposal goes into the buffer as ONE versioned, journaled edit by agent `claude-code`
//   (ide_diff_plan.h: merged with the user's unsaved typing; where it overlaps that typing,
//   Claude's lines replace the user's and the hunk shows both), left to the review UI (Neovim
//   signs and :HashlineReview, VS Code's Keep/Reject CodeLens).
// - Once no hunk of that op is pending: without overlaps, FILE_SAVED with the buffer's text when
//   a hunk was kept, else DIFF_REJECTED (rejecting reverted them). With overlaps — and when the
//   buffer needed no change at all — the editor asks the user (`window/showMessageRequest`,
//   Accept / Reject): Accept → FILE_SAVED with the buffer's text, Reject → the op is reverted and
//   DIFF_REJECTED. A dismissed question leaves the call unanswered.
// - Anything hashline cannot show (a proposal or file that is not text, an edit the editor
//   refused, a buffer closed mid-review) is left unanswered too, and said in the log and the
//   editor.
// - One review per file at a time: a second openDiff of a file waits until the first is decided.
// - close_tab {tab_name}, closeAllDiffTabs, and the connection closing drop the connection's
//   undecided reviews (Claude Code settled them in its terminal or went away): nothing is answered
//   and their proposal is taken out of the buffer (the op rejected); the tool's answer goes once
//   that landed, so Claude Code's own write after it is merged as a foreign write, not undone.
// Paths outside the workspace and bad arguments are tool errors. Threading: the server's
// io_context thread.
#pragma once

#include "lsp/service/hashline_service.h"

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)
#include <vector>

namespace hashline::lsp {

class LspServer;

/// openDiff's arguments as Claude Code sends them.
struct OpenDiffRequest {
  std::string old_file_path;
  std::string new_file_path;
  std::string new_file_contents;
  std::string tab_name;
};

class IdeOpenDiff {
public:
  /// Receives the MCP CallToolResult once the user decided (or at once for an error).
  using Answer = std::function<void(nlohmann::json result)>;

  IdeOpenDiff(LspServer& server, HashlineService& service) : server_(server), service_(service) {}

  /// Parses openDiff's arguments; nullopt (and `problem`) when they are not what Claude sends.
  static std::optional<OpenDiffRequest> parse(const nlohmann::json& arguments,
                                              std::string& problem);

  /// Starts the review of `request` for `connection`; `answer` is called at most once, never
  /// after `alive` expired or the review was dropped.
  void open(OpenDiffRequest request, Answer answer, const void* connection,
            std::weak_ptr<void> alive);

  /// close_tab: drops the connection's undecided reviews named `tab_name`; `done` once their
  /// proposals are out of the buffer.
  void closeTab(const void* connection, const std::string& tab_name, std::function<void()> done);
  /// closeAllDiffTabs: drops every undecided review of the connection; `done(count)`.
  void closeAll(const void* connection, std::function<void(std::size_t dropped)> done);
  /// The connection closed: drops its undecided reviews.
  void connectionClosed(const void* connection);

  /// How often the review's state is looked at while the user decides.
  static constexpr int kPollMilliseconds = 100;
  /// How long the user may take to answer the final question.
  static constexpr std::chrono::hours kQuestionTimeout{12};

  struct Review; // one openDiff (ide_diff_review.h)

private:
  using ReviewPtr = std::shared_ptr<Review>;
  // ide_open_diff.cpp: the reviews' lifetimes.
  void start(const ReviewPtr& review);
  void show(const ReviewPtr& review);
  void awaitOpen(const ReviewPtr& review, int tries_left);
  void leaveToClaude(const ReviewPtr& review, const std::string& why);
  void finish(const ReviewPtr& review, nlohmann::json result);
  void drop(const ReviewPtr& review, std::function<void()> done);
  void dropAll(std::vector<ReviewPtr> dropped, std::function<void()> done);
  std::vector<ReviewPtr> take(const void* connection, const std::string* tab_name);
  void release(const ReviewPtr& review);
  // ide_diff_decision.cpp: the proposal in the buffer and the user's answer.
  void apply(const ReviewPtr& review);
  void watch(const ReviewPtr& review);
  void decide(const ReviewPtr& review);
  void ask(const ReviewPtr& review);
  void answerAccepted(const ReviewPtr& review);
  void revert(std::uint64_t op, std::function<void()> done);

  LspServer& server_;
  HashlineService& service_;
  std::vector<ReviewPtr> reviews_; // not yet decided nor dropped, oldest first
};

/// The MCP result of an error: one text item "CODE: message\nhint: ...", isError.
nlohmann::json ideToolError(std::string_view code, const std::string& message,
                            std::string_view hint);

} // namespace hashline::lsp
